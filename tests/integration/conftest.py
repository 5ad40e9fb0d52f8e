# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Running the collection's modules for real: one task per call, through ansible-playbook."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import yaml


# Every ansible-playbook the tests start (and those started by what they start: molecule sets its own) reads the
# tests' Ansible settings, unless the caller chose a configuration file.
os.environ.setdefault("ANSIBLE_CONFIG", os.path.join(os.path.dirname(os.path.abspath(__file__)), "ansible.cfg"))

# Tests that drive module_utils directly import the staged collection, as Ansible would.
for _path in filter(None, os.environ.get("ANSIBLE_COLLECTIONS_PATH", "").split(os.pathsep)):
    if _path not in sys.path:
        sys.path.append(_path)


def fixtures_dir():
    """Tacker's sample VNF packages (NFV_FIXTURES_DIR, else ../shared/fixtures/tacker beside the clone)."""
    here = os.path.dirname(os.path.realpath(__file__))
    path = os.environ.get("NFV_FIXTURES_DIR") or os.path.join(here, "..", "..", "..", "shared", "fixtures", "tacker")
    if not os.path.isdir(path):
        pytest.fail("Tacker sample packages not found at {0}; set NFV_FIXTURES_DIR".format(path))
    return os.path.abspath(path)


@pytest.fixture(scope="session")
def tacker_packages():
    return fixtures_dir()


TASK_NAME = "task under test"
CALLBACK_PLUGINS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "callback_plugins")


def _alertmanager_lab_dir():
    """tools/lab/alertmanager of the checkout the tests run from (lab tooling, not part of the collection), or None above
    a staged copy (the benchmarks import this file from there)."""
    folder = os.path.dirname(os.path.abspath(__file__))
    while os.path.dirname(folder) != folder:
        candidate = os.path.join(folder, "tools", "lab", "alertmanager")
        if os.path.isfile(os.path.join(candidate, "alertmanager_lab.py")):
            return candidate
        folder = os.path.dirname(folder)
    return None


# The closed loop's tests of both VIMs import alertmanager_lab.
ALERTMANAGER_LAB_DIR = _alertmanager_lab_dir()
if ALERTMANAGER_LAB_DIR and ALERTMANAGER_LAB_DIR not in sys.path:
    sys.path.insert(0, ALERTMANAGER_LAB_DIR)


def _warm_ansible():
    """tests/integration/warm_ansible.py of the staged collection (on sys.path once ANSIBLE_COLLECTIONS_PATH is set)."""
    from ansible_collections.nfv.vnflcm.tests.integration import warm_ansible
    return warm_ansible


class RunningTask:
    """A task started by ``ansible_task(..., background=True)``: ``wait()`` gives its registered result; ``process`` is
    its ansible-playbook process (warm_ansible.Started, else a subprocess.Popen)."""

    def __init__(self, process, out):
        self.process = process
        self.out = out

    def wait(self, timeout=600):
        stdout, stderr = self.process.communicate(timeout=timeout)
        if not self.out.exists():
            pytest.fail("ansible-playbook did not run the task:\n{0}\n{1}".format(stdout[-3000:], stderr[-3000:]))
        return json.loads(self.out.read_text())


@pytest.fixture
def ansible_task(tmp_path):
    """``ansible_task(module, args, check=False, diff=False)`` -> the task's registered result.

    The task runs in a real playbook against the staged collection (ANSIBLE_COLLECTIONS_PATH,
    as `make integration` sets it); a failed task returns its result with ``failed: true``.
    ``background=True`` returns a RunningTask at once (for tests that interrupt the module).
    """
    if not os.environ.get("ANSIBLE_COLLECTIONS_PATH"):
        pytest.fail("ANSIBLE_COLLECTIONS_PATH is not set: run the integration tests with `make integration`")
    counter = [0]

    def run(module, args, check=False, diff=False, background=False):
        counter[0] += 1
        out = tmp_path / "result-{0}.json".format(counter[0])
        playbook = tmp_path / "task-{0}.yml".format(counter[0])
        task = {"name": TASK_NAME, "nfv.vnflcm." + module: args, "register": "result", "ignore_errors": True,
                "check_mode": check, "diff": diff}
        playbook.write_text(yaml.safe_dump([{"hosts": "localhost", "connection": "local", "gather_facts": False, "tasks": [task]}]))
        # The result is written by a callback (callback_plugins/task_result.py), not by a copy task: two modules fewer a run.
        env = dict(os.environ, ANSIBLE_LOCALHOST_WARNING="false", ANSIBLE_INVENTORY_UNPARSED_WARNING="false",
                   ANSIBLE_PYTHON_INTERPRETER=sys.executable, ANSIBLE_CALLBACK_PLUGINS=CALLBACK_PLUGINS,
                   ANSIBLE_CALLBACKS_ENABLED="task_result", NFV_TASK_RESULT=str(out))
        argv = [os.path.join(os.path.dirname(sys.executable), "ansible-playbook"), str(playbook)]
        if background:
            started = _warm_ansible().start(argv, env)
            if started is None:
                started = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
            return RunningTask(started, out)
        done = _warm_ansible().run(argv, env, timeout=3600)
        if not out.exists():
            pytest.fail("ansible-playbook did not run the task:\n{0}\n{1}".format(done.stdout[-3000:], done.stderr[-3000:]))
        return json.loads(out.read_text())

    return run


@pytest.fixture
def ansible_play(tmp_path):
    """``ansible_play([(name, module, args), ...])`` -> ``{name: registered result}``: many tasks in one playbook run.

    For corpora of cases that each must fail cleanly: one ansible-playbook start for all of them.
    """
    if not os.environ.get("ANSIBLE_COLLECTIONS_PATH"):
        pytest.fail("ANSIBLE_COLLECTIONS_PATH is not set: run the integration tests with `make integration`")

    def run(cases):
        out = tmp_path / "results.json"
        tasks = [{"name": name, "nfv.vnflcm." + module: args, "register": "result_{0}".format(index), "ignore_errors": True}
                 for index, (name, module, args) in enumerate(cases)]
        pairs = ", ".join("{0!r}: result_{1}".format(name, index) for index, (name, _module, _args) in enumerate(cases))
        tasks.append({"name": "save the results", "ansible.builtin.copy": {"content": "{{ {" + pairs + "} | to_json }}", "dest": str(out)}})
        playbook = tmp_path / "play.yml"
        playbook.write_text(yaml.safe_dump([{"hosts": "localhost", "connection": "local", "gather_facts": False, "tasks": tasks}]))
        env = dict(os.environ, ANSIBLE_LOCALHOST_WARNING="false", ANSIBLE_INVENTORY_UNPARSED_WARNING="false",
                   ANSIBLE_PYTHON_INTERPRETER=sys.executable)
        done = _warm_ansible().run([os.path.join(os.path.dirname(sys.executable), "ansible-playbook"), str(playbook)], env)
        if not out.exists():
            pytest.fail("ansible-playbook did not run the tasks:\n{0}\n{1}".format(done.stdout[-3000:], done.stderr[-3000:]))
        return json.loads(out.read_text())

    return run
