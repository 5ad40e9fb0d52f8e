# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import json
import os
import pickle
import stat
import subprocess
import sys

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import OperationTimeout, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import coordination

WHAT = "ChangeCurrentVnfPkgRequest"


class Package:
    def __init__(self, files):
        self.files = files

    def read_file(self, relpath):
        from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError
        # As the package reader does: "./Scripts/x" is "Scripts/x".
        relpath = os.path.normpath(relpath)
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
    ("./Scripts/coordinate_new_vnf.sh", "must name an Ansible task file (.yml or .yaml) or a Python script (.py)"),
    ("./Scripts/coordinate_new_vnf.py", "Python script: it is the package's code and runs on this controller only with the module option "
                                        "allow_package_scripts: true"),
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


# ---------------------------------------------------------------------------------------------
# Python scripts, as Tacker v2 runs them (only with the opt-in)

SCRIPT = "Scripts/coordinate_vnf.py"


def test_a_script_is_read_only_with_the_opt_in_and_keeps_it():
    package = Package({SCRIPT: b"print('hi')\n"})
    hooks = coordination.load_hooks({coordination.NEW_VNF: "./" + SCRIPT, coordination.OLD_VNF: SCRIPT}, package, WHAT, allow_scripts=True)
    assert hooks[coordination.NEW_VNF] == {"name": "./" + SCRIPT, "script": "print('hi')\n", "allowed_by": "allow_package_scripts"}
    assert coordination.is_script(hooks[coordination.OLD_VNF]) and not coordination.is_script(HOOK)
    with pytest.raises(ValidationError, match="cannot read the script: Scripts/none.py: file not found"):
        coordination.load_hooks({coordination.NEW_VNF: "Scripts/none.py"}, package, WHAT, allow_scripts=True)


def tacker_params(cp_name="VDU1_CP1"):
    new = {"cp_name": cp_name, "username": "ubuntu", "password": "ubuntu"}
    return [{"vdu_id": "VDU1", "old_vnfc_param": dict(new), "new_vnfc_param": new}]


@pytest.mark.parametrize("key, member", [(coordination.NEW_VNF, "new_vnfc_param"), (coordination.OLD_VNF, "old_vnfc_param")])
def test_a_script_needs_the_cp_whose_address_it_is_given(key, member):
    hooks = {key: {"name": SCRIPT, "script": "", "allowed_by": "allow_package_scripts"}}
    coordination.check_script_params(hooks, tacker_params(), WHAT)
    params = tacker_params()
    del params[0][member]["cp_name"]
    with pytest.raises(ValidationError) as error:
        coordination.check_script_params(hooks, params, WHAT)
    assert error.value.field == "additionalParams.vdu_params[0].{0}.cp_name".format(member)
    assert "ssh_ip" in error.value.msg and SCRIPT in error.value.msg
    # Task files read whatever they like from vnflcm_coordination: no cp_name needed.
    coordination.check_script_params({key: HOOK}, params, WHAT)


def test_script_input_is_tackers_vnfc_param_with_ssh_ip_and_is_rollback():
    param = tacker_params()[0]["new_vnfc_param"]
    assert coordination.script_input(param, "10.0.0.7", False) == dict(param, ssh_ip="10.0.0.7", is_rollback=False)
    assert coordination.vnfc_param_key(True) == "old_vnfc_param" and coordination.vnfc_param_key(False) == "new_vnfc_param"


def script_hook(body):
    """A script the way a Tacker sample is written: pickle from stdin, exit 1 with the error on stderr."""
    text = ("import json, os, pickle, sys\n"
            "def main():\n"
            "    vnfc_param = pickle.load(sys.stdin.buffer)\n" + "".join("    " + line + "\n" for line in body) +
            "try:\n    main()\n    os._exit(0)\n"
            "except Exception as ex:\n    sys.stderr.write(str(ex))\n    sys.stderr.flush()\n    os._exit(1)\n")
    # Kept in the record as JSON, and run from there.
    return json.loads(json.dumps({"name": "./" + SCRIPT, "script": text, "allowed_by": "allow_package_scripts"}))


def test_run_script_gives_the_input_pickled_on_stdin_to_the_modules_python(tmp_path):
    seen = tmp_path / "seen.json"
    hook = script_hook(["json.dump([vnfc_param, sys.executable, os.path.basename(__file__), os.getcwd()], open({0!r}, 'w'))".format(str(seen))])
    given = coordination.script_input(tacker_params()[0]["new_vnfc_param"], "10.0.0.7", False)
    coordination.run_script(hook, "VDU1-0", given, 30)
    param, python, name, cwd = json.loads(seen.read_text())
    assert param == given and python == sys.executable and name == "coordinate_vnf.py"
    # It ran in a private directory, removed afterwards.
    assert not os.path.exists(cwd)


def test_a_failing_script_fails_the_hook_with_its_exit_code_and_stderr():
    hook = script_hook(["if vnfc_param['is_rollback']:", "    raise Exception('test change_vnfpkg_rollback error')"])
    coordination.run_script(hook, "VDU1-0", coordination.script_input({}, "10.0.0.7", False), 30)
    with pytest.raises(coordination.HookFailed) as error:
        coordination.run_script(hook, "VDU1-0", coordination.script_input({}, "10.0.0.7", True), 30)
    assert error.value.msg == ("Failed to run coordination hook ./Scripts/coordinate_vnf.py for VNFC VDU1-0: exit code 1: "
                               "test change_vnfpkg_rollback error")


def test_a_script_that_runs_too_long_is_a_timeout():
    class Slow:
        def __call__(self, command, **kwargs):
            self.command, self.kwargs = command, kwargs
            raise subprocess.TimeoutExpired(command, kwargs["timeout"])

    runner = Slow()
    with pytest.raises(OperationTimeout, match="coordination hook ./Scripts/coordinate_vnf.py for VNFC VDU1-0: timed out after 5s"):
        coordination.run_script(script_hook(["pass"]), "VDU1-0", {"is_rollback": False}, 5, runner=runner)
    assert runner.kwargs["timeout"] == 5 and pickle.loads(runner.kwargs["input"]) == {"is_rollback": False}


def test_a_script_without_its_opt_in_never_runs():
    hook = dict(script_hook(["pass"]))
    hook.pop("allowed_by")
    ran = []
    with pytest.raises(coordination.HookFailed, match="runs only with allow_package_scripts: true"):
        coordination.run_script(hook, "VDU1-0", {}, 5, runner=lambda *args, **kwargs: ran.append(args))
    assert not ran


# ---------------------------------------------------------------------------------------------
# Which package each hook comes from: new-VNF from the new one, old-VNF from the instance's current one (Tacker's way)

OLD_SCRIPT, NEW_SCRIPT = "Scripts/coordinate_old_vnf.py", "Scripts/coordinate_new_vnf.py"
BOTH = {coordination.NEW_VNF: NEW_SCRIPT, coordination.OLD_VNF: OLD_SCRIPT}


def test_the_old_vnf_hook_comes_from_the_current_package_and_the_new_vnf_hook_from_the_new_one():
    new, current = Package({NEW_SCRIPT: b"new = 1\n", OLD_SCRIPT: b"stale = 1\n"}), Package({OLD_SCRIPT: b"old = 1\n", NEW_SCRIPT: b"x\n"})
    hooks = coordination.load_hooks(BOTH, new, WHAT, allow_scripts=True, current=current, current_option="current_package")
    assert hooks[coordination.NEW_VNF]["script"] == "new = 1\n"
    assert hooks[coordination.OLD_VNF] == {"name": OLD_SCRIPT, "script": "old = 1\n", "allowed_by": "allow_package_scripts"}


def test_without_the_current_package_the_old_vnf_hook_is_read_from_the_new_one_if_it_has_it():
    both = Package({NEW_SCRIPT: b"new = 1\n", OLD_SCRIPT: b"old = 1\n"})
    hooks = coordination.load_hooks(BOTH, both, WHAT, allow_scripts=True, current_option="current_package")
    assert hooks[coordination.OLD_VNF]["script"] == "old = 1\n"
    with pytest.raises(ValidationError) as error:
        coordination.load_hooks(BOTH, Package({NEW_SCRIPT: b"new = 1\n"}), WHAT, allow_scripts=True, current_option="current_package")
    assert error.value.field == "additionalParams.lcm-operation-coordinate-old-vnf"
    assert "cannot read the script: Scripts/coordinate_old_vnf.py: file not found in the package" in error.value.msg
    assert "read from the instance's current package" in error.value.msg and "module option current_package" in error.value.msg


def test_a_current_package_without_the_old_vnf_hook_is_refused_naming_the_parameter():
    with pytest.raises(ValidationError) as error:
        coordination.load_hooks(BOTH, Package({NEW_SCRIPT: b"", OLD_SCRIPT: b""}), WHAT, allow_scripts=True, current=Package({}),
                                current_option="current_package")
    assert error.value.field == "additionalParams.lcm-operation-coordinate-old-vnf"
    assert "file not found in the package" in error.value.msg and "module option" not in error.value.msg
