# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""module_defaults for group/nfv.vnflcm.vnflcm hand every module of the action group the same options: each of
them must take the connection options of both VIMs, vim_type and the waiting options, or the task fails with
"Unsupported parameters" (the lab test tests/integration/*/test_module_defaults.py runs them for real)."""

from __future__ import annotations

import importlib
import os

import pytest
import yaml

from ansible_collections.nfv.vnflcm.plugins.module_utils.common import module as common_module
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.args import ARG_GROUPS, merge_arg_groups

RUNTIME = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "meta", "runtime.yml")
with open(RUNTIME) as runtime:
    GROUP = yaml.safe_load(runtime)["action_groups"]["vnflcm"]

# What a user puts into the group's module_defaults: the options of the groups below, aliases included.
GROUP_WIDE = ("kubernetes", "openstack", "wait")


class SpecSeen(Exception):
    pass


def argument_spec_of(name, monkeypatch):
    """The module's whole argument spec, as its main() builds it (stopped before AnsibleModule parses anything)."""

    def capture(self, argument_spec, arg_groups=(), **kwargs):
        raise SpecSeen(merge_arg_groups(argument_spec, arg_groups))

    monkeypatch.setattr(common_module.VnfLcmModule, "__init__", capture)
    module = importlib.import_module("ansible_collections.nfv.vnflcm.plugins.modules." + name)
    with pytest.raises(SpecSeen) as seen:
        module.main()
    return seen.value.args[0]


def names_of(spec):
    return {name for option, value in spec.items() for name in [option] + list(value.get("aliases", []))}


def test_the_group_holds_every_module():
    modules = os.path.join(os.path.dirname(RUNTIME), "..", "plugins", "modules")
    assert sorted(GROUP) == sorted(name[:-3] for name in os.listdir(modules) if name.endswith(".py") and name != "__init__.py")


@pytest.mark.parametrize("name", GROUP)
def test_every_module_takes_every_group_wide_option(name, monkeypatch):
    spec = argument_spec_of(name, monkeypatch)
    for group in GROUP_WIDE:
        missing = names_of(ARG_GROUPS[group]) - names_of(spec)
        assert not missing, "{0} lacks the {1} options {2}".format(name, group, sorted(missing))
        for option, shared in ARG_GROUPS[group].items():
            # The same type and default everywhere, so that one value in module_defaults means the same to all.
            assert (spec[option].get("type"), spec[option].get("default")) == (shared.get("type"), shared.get("default")), (name, option)
