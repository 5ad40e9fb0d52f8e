# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One playbook run whose tasks call every module of the collection with nothing but their own options: the
connection and waiting options come from ``module_defaults`` for ``group/nfv.vnflcm.vnflcm``, as the getting-started
guide recommends. Shared by the Kubernetes and the OpenStack test."""

from __future__ import annotations

import json
import os
import sys

import yaml

from ansible_collections.nfv.vnflcm.tests.integration import warm_ansible

UNSUPPORTED = "Unsupported parameters"


def run_with_group_defaults(tmp_path, defaults, tasks, env=None):
    """``tasks`` is a list of (module, args) or (module, args, "check"): returns each task's registered result, in order.

    Every task runs even if an earlier one failed (a failure must be the module's own, never its arguments').
    """
    out = tmp_path / "module-defaults-results.json"
    play_tasks = [{"name": "{0} #{1}".format(task[0], index), "nfv.vnflcm." + task[0]: task[1], "register": "result_{0}".format(index),
                   "ignore_errors": True, "check_mode": "check" in task[2:]} for index, task in enumerate(tasks)]
    names = ", ".join("result_{0}".format(index) for index in range(len(tasks)))
    save = {"content": "{{ [" + names + "] | to_json }}", "dest": str(out)}
    play_tasks.append({"name": "save the results", "ansible.builtin.copy": save})
    playbook = tmp_path / "module-defaults.yml"
    playbook.write_text(yaml.safe_dump([{"hosts": "localhost", "connection": "local", "gather_facts": False,
                                         "module_defaults": {"group/nfv.vnflcm.vnflcm": defaults}, "tasks": play_tasks}]))
    run_env = dict(os.environ, ANSIBLE_LOCALHOST_WARNING="false", ANSIBLE_INVENTORY_UNPARSED_WARNING="false",
                   ANSIBLE_PYTHON_INTERPRETER=sys.executable, **(env or {}))
    done = warm_ansible.run([os.path.join(os.path.dirname(sys.executable), "ansible-playbook"), str(playbook)], run_env, timeout=1800)
    assert out.exists(), "ansible-playbook did not run the tasks:\n{0}\n{1}".format(done.stdout[-3000:], done.stderr[-3000:])
    results = json.loads(out.read_text())
    for task, result in zip(tasks, results):
        assert UNSUPPORTED not in result.get("msg", ""), "{0}: {1}".format(task[0], result["msg"])
    return results


def failure_of(result):
    """The module's own failure message (never an argument error), or '' when it succeeded."""
    return result.get("msg", "") if result.get("failed") else ""
