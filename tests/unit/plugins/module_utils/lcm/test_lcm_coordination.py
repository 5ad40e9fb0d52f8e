# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import json
import os
import stat
import subprocess

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import OperationTimeout, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import coordination

WHAT = "ChangeCurrentVnfPkgRequest"


class Package:
    def __init__(self, files):
        self.files = files

    def read_file(self, relpath):
        from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError
        if relpath not in self.files:
            raise PackageError(relpath, "file not found in the package")
        return self.files[relpath]


def test_hooks_are_read_from_the_package_and_from_absolute_paths(tmp_path):
    outside = tmp_path / "old.yml"
    outside.write_text("- ansible.builtin.debug: {msg: old}\n")
    params = {coordination.NEW_VNF: "Scripts/new.yml", coordination.OLD_VNF: str(outside)}
    hooks = coordination.load_hooks(params, Package({"Scripts/new.yml": b"- ansible.builtin.debug: {msg: new}\n"}), WHAT)
    assert hooks[coordination.NEW_VNF] == {"name": "Scripts/new.yml", "tasks": "- ansible.builtin.debug: {msg: new}\n"}
    assert hooks[coordination.OLD_VNF]["tasks"].startswith("- ansible.builtin.debug: {msg: old}")
    assert coordination.load_hooks({}, Package({}), WHAT) == {}


@pytest.mark.parametrize("path, reason", [
    ("./Scripts/coordinate_new_vnf.py", "must name an Ansible task file"),
    ("Scripts/missing.yml", "cannot read the task file: Scripts/missing.yml: file not found in the package"),
    ("/nonexistent/hook.yaml", "cannot read the task file: /nonexistent/hook.yaml: No such file"),
])
def test_bad_hooks_name_the_parameter(path, reason):
    with pytest.raises(ValidationError) as error:
        coordination.load_hooks({coordination.NEW_VNF: path}, Package({}), WHAT)
    assert error.value.field == "additionalParams.lcm-operation-coordinate-new-vnf"
    assert reason in error.value.msg


def vnfc():
    return {"resource": "VDU2-0", "vdu_id": "VDU2", "server_id": "srv-1", "addresses": {"net0": [{"addr": "10.0.0.5"}]}, "ports": {}}


def test_hook_variables_carry_the_vnfc_and_its_params():
    variables = coordination.hook_variables("CHANGE_VNFPKG", "inst-1", vnfc(), {"vdu_id": "VDU2", "new_vnfc_param": {"username": "u"}}, True)
    assert variables == {"operation": "CHANGE_VNFPKG", "vnf_instance_id": "inst-1", "rollback": True, "vnfc": vnfc(),
                         "old_vnfc_param": {}, "new_vnfc_param": {"username": "u"}}


class Recorder:
    """Stands in for subprocess.run: keeps what the hook's play would have been given."""

    def __init__(self, returncode=0, output=b"", timeout=False):
        self.returncode, self.output, self.timeout = returncode, output, timeout
        self.seen = {}

    def __call__(self, command, **kwargs):
        playbook, extra = command[3], command[5][1:]
        self.seen = {"command": command, "kwargs": kwargs, "play": json.load(open(playbook)),
                     "vars": json.load(open(extra)), "vars_mode": stat.S_IMODE(os.stat(extra).st_mode)}
        tasks = self.seen["play"][0]["tasks"][0]["ansible.builtin.include_tasks"]
        self.seen["tasks"] = open(tasks).read()
        if self.timeout:
            raise subprocess.TimeoutExpired(command, kwargs["timeout"])
        return subprocess.CompletedProcess(command, self.returncode, self.output)


HOOK = {"name": "Scripts/new.yml", "tasks": "- ansible.builtin.debug: {msg: hi}\n"}


def test_run_hook_plays_the_task_file_on_localhost_with_private_vars():
    runner = Recorder()
    variables = coordination.hook_variables("CHANGE_VNFPKG", "inst-1", vnfc(), {"new_vnfc_param": {"password": "s3cret"}}, False)
    coordination.run_hook(HOOK, variables, 30, runner=runner)
    assert runner.seen["command"][0].endswith("ansible-playbook") and runner.seen["command"][1:3] == ["-i", "localhost,"]
    assert runner.seen["play"][0]["hosts"] == "localhost" and runner.seen["play"][0]["connection"] == "local"
    assert runner.seen["tasks"] == HOOK["tasks"]
    assert runner.seen["vars"]["vnflcm_coordination"] == variables
    # Passwords go through a file only the owner can read, never the command line.
    assert runner.seen["vars_mode"] == 0o600 and "s3cret" not in " ".join(runner.seen["command"])
    assert runner.seen["kwargs"]["timeout"] == 30


def test_a_failing_hook_names_the_file_and_the_vnfc_with_the_end_of_its_output():
    runner = Recorder(returncode=2, output=b"TASK [fail] fatal: [localhost]: FAILED! => {\"msg\": \"VDU2 refused\"}\n")
    with pytest.raises(coordination.HookFailed) as error:
        coordination.run_hook(HOOK, coordination.hook_variables("CHANGE_VNFPKG", "i", vnfc(), {}, False), 30, runner=runner)
    assert "coordination hook Scripts/new.yml for VNFC VDU2-0" in error.value.msg and "VDU2 refused" in error.value.msg


def test_a_hook_that_runs_too_long_is_a_timeout():
    with pytest.raises(OperationTimeout):
        coordination.run_hook(HOOK, coordination.hook_variables("CHANGE_VNFPKG", "i", vnfc(), {}, False), 5, runner=Recorder(timeout=True))
