# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The tests' warm ansible-playbook runs (tests/integration/warm_ansible.py) answer as ansible-playbook does: its
output, its exit code, the environment its modules see, runs side by side, a timeout; other settings start it as before."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading

import pytest
import yaml

from ansible_collections.nfv.vnflcm.tests.integration import warm_ansible
from ansible_collections.nfv.vnflcm.tests.integration.crash_sweep import module_process
from ansible_collections.nfv.vnflcm.tests.integration.faults import wait_for

PLAYBOOK = os.path.join(os.path.dirname(sys.executable), "ansible-playbook")


@pytest.fixture
def env():
    return dict(os.environ, ANSIBLE_LOCALHOST_WARNING="false", ANSIBLE_INVENTORY_UNPARSED_WARNING="false",
                ANSIBLE_PYTHON_INTERPRETER=sys.executable)


def play(path, tasks):
    path.write_text(yaml.safe_dump([{"hosts": "localhost", "connection": "local", "gather_facts": False, "tasks": tasks}]))
    return str(path)


def test_a_warm_run_answers_as_ansible_playbook_does(tmp_path, env):
    playbook = play(tmp_path / "play.yml", [
        {"ansible.builtin.command": "printenv NFV_WARM_PROBE", "register": "probe"},
        {"ansible.builtin.debug": {"msg": "probe={{ probe.stdout }}"}},
        {"ansible.builtin.fail": {"msg": "the end"}}])
    env = dict(env, NFV_WARM_PROBE="first")
    warm_ansible.run([PLAYBOOK, playbook], env)  # the warm process starts (its first run)
    warm = warm_ansible.run([PLAYBOOK, playbook], dict(env, NFV_WARM_PROBE="second"))
    cold = subprocess.run([PLAYBOOK, playbook], env=dict(env, NFV_WARM_PROBE="second"), capture_output=True, text=True, check=False)
    assert (warm.returncode, cold.returncode) == (2, 2)
    assert "probe=second" in warm.stdout and "the end" in warm.stdout
    assert warm.stdout.splitlines()[-2:] == cold.stdout.splitlines()[-2:]
    missing = warm_ansible.run([PLAYBOOK, str(tmp_path / "missing.yml")], env)
    assert missing.returncode == 1 and "could not be found" in missing.stderr


def test_runs_go_side_by_side_and_a_timeout_ends_one(tmp_path, env):
    # Each run marks its start, then waits for the other two runs' marks: run one after another, the first would wait
    # in vain and fail; side by side, all three end well.
    marks = tmp_path / "marks"
    marks.mkdir()
    playbook = play(tmp_path / "together.yml", [
        {"ansible.builtin.file": {"path": str(marks) + "/{{ run }}", "state": "touch"}},
        {"ansible.builtin.wait_for": {"path": str(marks) + "/{{ item }}", "timeout": 300}, "loop": [0, 1, 2]}])
    codes = []
    runs = [threading.Thread(target=lambda run=run: codes.append(warm_ansible.run([PLAYBOOK, playbook, "-e", "run={0}".format(run)], env).returncode))
            for run in range(3)]
    for one in runs:
        one.start()
    for one in runs:
        one.join()
    assert codes == [0, 0, 0]
    with pytest.raises(subprocess.TimeoutExpired):
        warm_ansible.run([PLAYBOOK, play(tmp_path / "sleep.yml", [{"ansible.builtin.command": "sleep 30"}])], env, timeout=1)


def test_other_ansible_settings_get_a_warm_process_of_their_own(tmp_path, env):
    playbook = play(tmp_path / "play.yml", [{"ansible.builtin.debug": {"msg": "{{ lookup('config', 'DEFAULT_FORKS') }}"}}])
    assert '"msg": 5' in warm_ansible.run([PLAYBOOK, playbook], env).stdout
    assert '"msg": 3' in warm_ansible.run([PLAYBOOK, playbook], dict(env, ANSIBLE_FORKS="3")).stdout
    assert '"msg": 5' in warm_ansible.run([PLAYBOOK, playbook], env).stdout


def test_a_started_run_is_watched_and_killed_as_a_process_started_cold_is(tmp_path, env):
    # What kill tests and crash sweeps do with ansible_task(..., background=True): find the module under the run's pid,
    # kill it, wait for the run's end and output.
    started = warm_ansible.start([PLAYBOOK, play(tmp_path / "long.yml", [{"ansible.builtin.command": "sleep 300"}])], env)
    assert started is not None and started.poll() is None
    with pytest.raises(subprocess.TimeoutExpired):
        started.wait(timeout=0.1)
    module = wait_for(lambda: module_process(started.pid, "command"), "the command module under the run", timeout=120)
    os.kill(module, signal.SIGKILL)
    stdout, _stderr = started.communicate(timeout=120)
    assert started.returncode == 2 and started.poll() == 2 and "FAILED!" in stdout


def test_a_warm_process_with_a_run_in_flight_is_not_stopped_for_other_settings(tmp_path, env):
    # A background run outlives the arrival of more sets of settings than a worker keeps warm: the warm process that
    # forked it must stay until it ends, or the run's exit status is lost ("closed the connection").
    go = tmp_path / "go"
    started = warm_ansible.start([PLAYBOOK, play(tmp_path / "held.yml", [{"ansible.builtin.wait_for": {"path": str(go), "timeout": 300}}])],
                                 dict(env, ANSIBLE_FORKS="7"))
    quick = play(tmp_path / "quick.yml", [{"ansible.builtin.debug": {"msg": "quick"}}])
    for forks in range(2, 3 + warm_ansible.MOST_WARM):
        assert warm_ansible.run([PLAYBOOK, quick], dict(env, ANSIBLE_FORKS=str(forks))).returncode == 0
    go.touch()
    started.communicate(timeout=120)
    assert started.returncode == 0
