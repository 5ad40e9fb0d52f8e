# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every module's EXAMPLES parse as a list of tasks, and every one of those tasks is run by one of the lab tests
(tests/integration/k8s/test_module_examples.py, tests/integration/openstack/test_module_examples.py): an example added
without a lab run, or a lab test that names an example no module has, fails here."""

from __future__ import annotations

import collections
import os
import warnings

import pytest

from ansible_collections.nfv.vnflcm.tests.integration.k8s import test_module_examples as k8s
from ansible_collections.nfv.vnflcm.tests.integration.module_examples import MODULES_DIR, PACKAGES, examples_block, load_examples, module_names, referenced

with warnings.catch_warnings():
    # Its tier2 mark is registered by the OpenStack tests' conftest, which the unit tests do not load.
    warnings.simplefilter("ignore", pytest.PytestUnknownMarkWarning)
    from ansible_collections.nfv.vnflcm.tests.integration.openstack import test_module_examples as openstack

EXAMPLES = load_examples()
RUN = collections.Counter(referenced(k8s.SCENARIO) + referenced(openstack.SCENARIO))


@pytest.mark.parametrize("module", module_names())
def test_examples_are_a_list_of_named_tasks(module):
    assert examples_block(os.path.join(MODULES_DIR, module + ".py")), "{0} has no EXAMPLES".format(module)
    tasks = EXAMPLES[module]
    assert isinstance(tasks, list) and tasks, "{0}: EXAMPLES is not a list of tasks".format(module)
    for task in tasks:
        assert isinstance(task, dict) and task.get("name"), "{0}: an example without a name: {1}".format(module, task)
        actions = [key for key in task if "." in key]
        assert len(actions) == 1 and actions[0].startswith(("nfv.vnflcm.", "ansible.builtin.")), "{0}: {1}".format(module, task["name"])
    names = [task["name"] for task in tasks]
    assert len(set(names)) == len(names), "{0}: two examples of one name (the lab tests name them)".format(module)


@pytest.mark.parametrize("module", module_names())
def test_every_example_is_run_by_a_lab_test(module):
    missing = [task["name"] for task in EXAMPLES[module] if RUN[(module, task["name"])] == 0]
    assert not missing, "{0}: examples no lab test runs (add them to a SCENARIO of tests/integration/*/test_module_examples.py): {1}".format(
        module, missing)


def test_the_lab_tests_run_each_example_once_and_name_only_examples_that_exist():
    twice = [key for key, count in RUN.items() if count > 1]
    unknown = [key for key in RUN if key[0] not in EXAMPLES or key[1] not in [task["name"] for task in EXAMPLES[key[0]]]]
    assert not twice and not unknown, "run twice: {0}; no such example: {1}".format(twice, unknown)


def test_package_paths_are_the_stand_in_folder():
    """Each example names its packages under /srv/packages, which the lab tests replace: no other absolute path."""
    for module, tasks in EXAMPLES.items():
        for task in tasks:
            for value in strings(task):
                if value.startswith("/"):
                    assert value.startswith(PACKAGES), "{0}: {1}: {2}".format(module, task["name"], value)


def strings(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)
    elif isinstance(value, str):
        yield value
