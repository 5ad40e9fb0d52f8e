# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vim import KUBERNETES, OPENSTACK, vim_of

OPENSTACK_VIM = {"vim1": {"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3", "interfaceInfo": {"endpoint": "http://k/v3"}}}


@pytest.mark.parametrize("params, expected", [
    ({"cloud": "nfvlab"}, OPENSTACK),
    ({"auth": {"auth_url": "http://k/v3"}}, OPENSTACK),
    ({"request": {"vimConnectionInfo": OPENSTACK_VIM}}, OPENSTACK),
    ({"request": {"vimConnectionInfo": [{"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3"}]}}, OPENSTACK),
    ({"request": {"vimConnectionInfo": {"k": {"vimType": "kubernetes"}}}}, KUBERNETES),
    ({"kubeconfig": "/k"}, KUBERNETES),
    ({}, KUBERNETES),
])
def test_the_vim_comes_from_options_or_vim_connection_info(params, expected):
    assert vim_of(params) == expected


def test_an_openstack_request_with_kubernetes_options_is_ambiguous():
    with pytest.raises(ValidationError, match="vimConnectionInfo"):
        vim_of({"kubeconfig": "/k", "request": {"vimConnectionInfo": OPENSTACK_VIM}})


def test_the_kubernetes_path_is_runners(monkeypatch):
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import cnf, runner

    seen = []
    monkeypatch.setattr(runner, "on_instance", lambda planner, params, check_mode, diff_mode, missing_ok=False: seen.append((planner, missing_ok)))
    runner.run_for("scale")({})
    runner.run_for("terminate")({})
    assert seen == [(cnf.plan_scale, False), (cnf.plan_terminate, True)]
    assert runner.run_for("instantiate") is runner.instantiate and runner.run_for("info") is runner.info


@pytest.mark.parametrize("imported, absent", [
    ("lcm.vim", ("kubernetes", "openstack")),
    ("lcm.runner", ("openstack",)),
    ("lcm.heat_runner", ("kubernetes",)),
])
def test_a_module_call_imports_only_the_client_library_of_its_vim(imported, absent):
    # A fresh interpreter: this one has imported both already.
    code = "import sys; import ansible_collections.nfv.vnflcm.plugins.module_utils.{0}; print(sorted(set({1!r}) & set(sys.modules)))".format(
        imported, absent)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
