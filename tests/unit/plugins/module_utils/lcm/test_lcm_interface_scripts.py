# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The VNFD's Vnflcm interface scripts: what the record keeps, what a script is given, and where the engine runs them."""

from __future__ import annotations

import datetime
import os
import pickle

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import OperationTimeout, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import coordination, engine, interface_scripts
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation, run
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

NOW = datetime.datetime(2026, 11, 26, 5, 0, 0)
SCRIPT = "Scripts/sample_script.py"
# Writes what it was given next to a marker directory, and fails for the operations named in that directory.
RECORDING_SCRIPT = b'''
import os, pickle, sys
given = pickle.load(sys.stdin.buffer)
out = os.environ.get("HOME")
with open(os.path.join(out, given["operation"] + ".pickle"), "wb") as handle:
    pickle.dump(dict(given, csar_files=sorted(os.listdir(os.path.join(given["tmp_csar_dir"], "Scripts"))),
                     environment=sorted(os.environ)), handle)
if os.path.exists(os.path.join(out, "fail-" + given["operation"])):
    sys.stderr.write("refused " + given["operation"])
    sys.exit(3)
'''


class Package:
    """What interface_scripts reads of a package: its VNFD and its files."""

    def __init__(self, vnfd, files):
        self._vnfd, self._files = vnfd, files

    def to_dict(self):
        return {"vnfd": self._vnfd}

    def read_file(self, relpath):
        if relpath not in self._files:
            raise ValidationError("package", relpath, "no such file")
        return self._files[relpath]


def vnfd(hooks=("instantiate_start", "instantiate_end", "scale_start", "scale_end", "modify_information_end")):
    return {"flavours": {"simple": {"interfaces": {"Vnflcm": {hook: {"implementation": "sample-script"} for hook in hooks}}}},
            "artifacts": {"sample-script": {"file": SCRIPT, "type": "tosca.artifacts.Implementation.Python"}}}


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("OS_PASSWORD", "secret")
    return tmp_path


def test_declared_names_each_hook_of_tackers_package(fixtures_dir):
    with load_package(os.path.join(fixtures_dir, "test_instantiate_cnf_resources")) as package:
        declared = interface_scripts.declared(package.to_dict()["vnfd"], "simple")
    assert sorted(declared) == sorted("{0}_{1}".format(op, phase) for op in ("instantiate", "terminate", "scale", "heal", "modify_information")
                                      for phase in ("start", "end"))
    assert set(declared.values()) == {SCRIPT}


def test_without_the_opt_in_only_the_names_are_kept_and_the_plan_says_they_do_not_run():
    kept = interface_scripts.for_package(Package(vnfd(), {}), "simple", False, "InstantiateVnfRequest")
    assert kept["allowed"] is False and kept["files"] == {} and kept["hooks"]["scale_end"] == SCRIPT
    note = interface_scripts.plan_note(kept, "SCALE")
    assert note["not_run"] == ["Vnflcm.scale_start ({0})".format(SCRIPT), "Vnflcm.scale_end ({0})".format(SCRIPT)]
    assert "allow_package_scripts" in note["why"]
    assert interface_scripts.plan_note(kept, "HEAL") is None
    assert interface_scripts.run(kept, "SCALE", "start", {}, {}, 5) == (None, {})


def test_with_the_opt_in_a_missing_script_is_refused_naming_it():
    with pytest.raises(ValidationError) as error:
        interface_scripts.for_package(Package(vnfd(), {}), "simple", True, "InstantiateVnfRequest")
    assert "allow_package_scripts" in error.value.msg and SCRIPT in error.value.msg and "Vnflcm.instantiate_end" in error.value.msg


def test_too_large_scripts_are_refused():
    big = b"#" * (interface_scripts.MAX_SCRIPT_BYTES + 1)
    with pytest.raises(ValidationError, match="more than the"):
        interface_scripts.for_package(Package(vnfd(), {SCRIPT: big}), "simple", True, "InstantiateVnfRequest")


def test_a_script_is_given_what_tacker_gives_without_credentials_or_private_state(home):
    kept = interface_scripts.for_package(Package(vnfd(), {SCRIPT: RECORDING_SCRIPT}), "simple", True, "ScaleVnfRequest")
    request = {"type": "SCALE_OUT", "aspectId": "vdu1_aspect", "vimConnectionInfo": {"vim1": {"accessInfo": {"password": "pw"}, "vimId": "v"}}}
    instance = {"id": "vnf-1", "vimConnectionInfo": {"vim1": {"accessInfo": {"bearer_token": "tok"}, "vimId": "v"}},
                "instantiatedVnfInfo": {"flavourId": "simple", "metadata": {"namespace": "ns", "vnflcm": {"flavour": {}}}}}
    assert interface_scripts.run(kept, "SCALE", "start", request, instance, 30) == ("scale_start", {})
    with open(home / "scale_start.pickle", "rb") as handle:
        given = pickle.load(handle)
    assert given["operation"] == "scale_start" and given["grant_request"] is None and given["grant_response"] is None
    assert given["request"]["aspectId"] == "vdu1_aspect" and "pw" not in repr(given["request"]) and "tok" not in repr(given["vnf_instance"])
    assert given["vnf_instance"]["instantiatedVnfInfo"]["metadata"] == {"namespace": "ns"}
    assert given["csar_files"] == ["sample_script.py"] and "OS_PASSWORD" not in given["environment"]
    assert given["user_script_err_handling_data"] == {}
    assert not os.path.exists(given["tmp_csar_dir"])


def test_instantiate_start_sees_the_requests_vim_connection_without_its_secrets(home):
    kept = interface_scripts.for_package(Package(vnfd(), {SCRIPT: RECORDING_SCRIPT}), "simple", True, "InstantiateVnfRequest")
    request = {"flavourId": "simple", "vimConnectionInfo": {"vim1": {"vimType": "kubernetes", "accessInfo": {"bearer_token": "tok"}}}}
    interface_scripts.run(kept, "INSTANTIATE", "start", request, {"id": "vnf-1", "instantiationState": "NOT_INSTANTIATED"}, 30)
    with open(home / "instantiate_start.pickle", "rb") as handle:
        given = pickle.load(handle)
    assert given["vnf_instance"]["vimConnectionInfo"]["vim1"]["vimType"] == "kubernetes" and "tok" not in repr(given)


# Gives back, as Tacker's scripts may: the instance with a metadata entry and a field of its own, and data for the way back.
RETURNING_SCRIPT = b'''
import os, pickle, sys
given = pickle.load(sys.stdin.buffer)
inst = given["vnf_instance"]
inst.setdefault("instantiatedVnfInfo", {}).setdefault("metadata", {})["ServerNotifierFaultID"] = ["a0"]
inst["vnfInstanceDescription"] = "set by " + given["operation"]
inst["id"] = "not-mine"
data = dict(given["user_script_err_handling_data"], **{given["operation"]: True})
sys.stdout.buffer.write(pickle.dumps({"vnf_instance": inst, "user_script_err_handling_data": data}))
if os.path.exists(os.path.join(os.environ["HOME"], "fail-" + given["operation"])):
    sys.exit(3)
'''


def test_what_a_script_gives_back_is_applied_to_the_instance_as_tacker_applies_it(home):
    kept = interface_scripts.for_package(Package(vnfd(), {SCRIPT: RETURNING_SCRIPT}), "simple", True, "ScaleVnfRequest")
    store, order = MemoryStore(), []
    result = run(scale_operation(store, kept, order), now=lambda: NOW)
    instance = result["vnf_instance"]
    assert instance["id"] == "vnf-1" and instance["vnfInstanceDescription"] == "set by scale_end"
    assert instance["instantiatedVnfInfo"]["metadata"]["ServerNotifierFaultID"] == ["a0"]
    # The record's private state, which no script sees, stays.
    assert instance["instantiatedVnfInfo"]["metadata"]["vnflcm"][interface_scripts.KEY] == kept
    assert "user_script_err_handling_data" not in result.get("progress", {})


def test_a_failed_scripts_data_is_kept_in_the_op_occ_error_and_given_to_the_rollback_scripts(home):
    hooks = ("scale_start", "scale_end", "scale_rollback_start", "scale_rollback_end")
    kept = interface_scripts.for_package(Package(vnfd(hooks), {SCRIPT: RETURNING_SCRIPT}), "simple", True, "ScaleVnfRequest")
    (home / "fail-scale_end").write_text("")
    store, order = MemoryStore(), []
    with pytest.raises(interface_scripts.ScriptFailed) as error:
        run(scale_operation(store, kept, order), now=lambda: NOW)
    failed = error.value.result["vnf_lcm_op_occ"]
    assert failed["error"]["userScriptErrHandlingData"] == {"scale_start": True, "scale_end": True}
    result = run(scale_operation(store, kept, order), now=lambda: NOW, resume=("rollback", failed))
    assert result["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK"
    assert result["hooks_run"] == ["scale_rollback_start", "scale_rollback_end"]
    assert result["plan"]["interface_scripts"]["run"] == ["Vnflcm.scale_rollback_start ({0})".format(SCRIPT),
                                                          "Vnflcm.scale_rollback_end ({0})".format(SCRIPT)]


def test_output_that_is_no_pickled_dict_of_plain_values_is_ignored():
    assert interface_scripts.returned_output(b"hello\n") == {}
    assert interface_scripts.returned_output(pickle.dumps(["a"])) == {}
    assert interface_scripts.returned_output(pickle.dumps({"x": datetime.datetime(2026, 1, 1)})) == {}
    assert interface_scripts.returned_output(pickle.dumps({"vnf_instance": {"a": [1, 2.5, None, True]}})) == {"vnf_instance": {"a": [1, 2.5, None, True]}}


def test_a_failing_script_names_its_hook_and_output(home):
    kept = interface_scripts.for_package(Package(vnfd(), {SCRIPT: RECORDING_SCRIPT}), "simple", True, "ModifyVnfInfoRequest")
    (home / "fail-modify_information_end").write_text("")
    with pytest.raises(interface_scripts.ScriptFailed) as error:
        interface_scripts.run(kept, "MODIFY_INFO", "end", {}, {"id": "vnf-1"}, 30)
    assert error.value.msg == "Failed to run Vnflcm.modify_information_end script {0}: exit code 3: refused modify_information_end".format(SCRIPT)


def test_a_script_that_outlives_the_timeout_is_killed(home):
    kept = interface_scripts.for_package(Package(vnfd(), {SCRIPT: b"import time\ntime.sleep(30)\n"}), "simple", True, "ScaleVnfRequest")
    with pytest.raises(OperationTimeout, match="Vnflcm.scale_end script"):
        interface_scripts.run(kept, "SCALE", "end", {}, {}, 1)


class MemoryStore(RecordStore):
    def __init__(self):
        self.states = []

    def save(self, instance, op_occs, version):
        self.states.append(op_occs[0]["operationState"])
        return (version or 0) + 1

    def delete(self, instance, version):
        self.states.append("deleted")


def scale_operation(store, scripts, order):
    instance = interface_scripts.with_scripts({"id": "vnf-1", "instantiationState": "INSTANTIATED", "instantiatedVnfInfo": {"flavourId": "simple"}},
                                              scripts)

    def execute(progress):
        order.append("execute")
        return instance

    return Operation("SCALE", {"type": "SCALE_OUT", "aspectId": "a"}, instance, {"lines": ["VDU1: 1 -> 2"]}, store, execute=execute)


def test_the_engine_runs_start_then_the_writes_then_end_inside_the_op_occ(home):
    kept = interface_scripts.for_package(Package(vnfd(), {SCRIPT: RECORDING_SCRIPT}), "simple", True, "ScaleVnfRequest")
    store, order = MemoryStore(), []
    result = run(scale_operation(store, kept, order), now=lambda: NOW)
    assert result["hooks_run"] == ["scale_start", "scale_end"] and order == ["execute"]
    assert result["plan"]["interface_scripts"] == {"run": ["Vnflcm.scale_start ({0})".format(SCRIPT), "Vnflcm.scale_end ({0})".format(SCRIPT)]}
    assert result["plan"]["lines"][-1].startswith("runs the VNFD's interface scripts Vnflcm.scale_start")
    assert store.states == ["PROCESSING", "COMPLETED"]


def test_a_failing_end_script_leaves_the_op_occ_failed_temp_and_a_rollback_runs_no_script(home):
    kept = interface_scripts.for_package(Package(vnfd(), {SCRIPT: RECORDING_SCRIPT}), "simple", True, "ScaleVnfRequest")
    (home / "fail-scale_end").write_text("")
    store, order = MemoryStore(), []
    with pytest.raises(interface_scripts.ScriptFailed) as error:
        run(scale_operation(store, kept, order), now=lambda: NOW)
    assert store.states == ["PROCESSING", "FAILED_TEMP"] and order == ["execute"]
    failed = error.value.result["vnf_lcm_op_occ"]
    assert failed["operationState"] == "FAILED_TEMP" and "Vnflcm.scale_end" in failed["error"]["detail"]
    os.remove(home / "scale_start.pickle")
    rollback = scale_operation(store, kept, order)
    result = run(rollback, now=lambda: NOW, resume=("rollback", failed))
    assert result["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK" and "hooks_run" not in result
    assert not os.path.exists(home / "scale_start.pickle") and "interface_scripts" not in result["plan"]


def test_a_failing_start_script_fails_before_any_write(home):
    kept = interface_scripts.for_package(Package(vnfd(), {SCRIPT: RECORDING_SCRIPT}), "simple", True, "ScaleVnfRequest")
    (home / "fail-scale_start").write_text("")
    store, order = MemoryStore(), []
    with pytest.raises(interface_scripts.ScriptFailed):
        run(scale_operation(store, kept, order), now=lambda: NOW)
    assert order == [] and store.states == ["PROCESSING", "FAILED_TEMP"]


def test_the_end_hook_is_named_apart_from_the_vnfd_script_of_the_same_operation(home, monkeypatch):
    kept = interface_scripts.for_package(Package(vnfd(), {SCRIPT: RECORDING_SCRIPT}), "simple", True, "ScaleVnfRequest")
    monkeypatch.setattr(coordination, "run_tasks", lambda name, tasks, variables, timeout: None)
    end_hook = {"name": "scale_end", "tasks": "[]", "variables": {}}
    result = run(scale_operation(MemoryStore(), kept, []), now=lambda: NOW, settings=engine.Settings(end_hook=end_hook))
    assert result["hooks_run"] == ["scale_start", "scale_end", "end hook scale_end"]


def test_the_end_hook_runs_after_the_end_script_and_its_failure_fails_the_operation(home, monkeypatch):
    kept = interface_scripts.for_package(Package(vnfd(), {SCRIPT: RECORDING_SCRIPT}), "simple", True, "ScaleVnfRequest")
    calls = []

    def run_tasks(name, tasks, variables, timeout):
        calls.append((name, tasks, sorted(variables), os.path.exists(home / "scale_end.pickle")))
        raise interface_scripts.ScriptFailed("scale_end", "hooks/scale_end.yml", "a task failed")

    monkeypatch.setattr(coordination, "run_tasks", run_tasks)
    end_hook = {"name": "scale_end", "tasks": "- ansible.builtin.fail:\n", "variables": {"vnf_lifecycle_hook_name": "scale_end"}}
    store, order = MemoryStore(), []
    with pytest.raises(interface_scripts.ScriptFailed):
        run(scale_operation(store, kept, order), now=lambda: NOW, settings=engine.Settings(end_hook=end_hook))
    names = ["vnf_lifecycle_hook_lcm_op_occ", "vnf_lifecycle_hook_name", "vnf_lifecycle_hook_vnf_instance"]
    assert calls == [("scale_end", "- ansible.builtin.fail:\n", names, True)]
    assert store.states == ["PROCESSING", "FAILED_TEMP"]
