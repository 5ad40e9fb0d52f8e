# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The VNFD's Vnflcm interface scripts on the Kubernetes lab, with Tacker's test_instantiate_cnf_resources VNFD (every
operation's _start/_end implemented by ../Scripts/sample_script.py) and a script of our own in a copy of the package:
it logs each run, fails for the operations the test marks, holds (sleeps) for the one the test kills, and hands back
what Tacker's scripts may (a pickled dict on stdout: the instance, and user_script_err_handling_data) where marked. The modules'
end_hook (the role's <op>_end hooks) is held to the same rule: a failure inside the op occ is FAILED_TEMP.
"""

from __future__ import annotations

import ast
import json
import os
import shutil

import pytest

from labk8s.cluster import ADMIN_USER

from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_faults import kill_runner, running_op_occ, wait_for

DEPLOYMENT = "Files/kubernetes/deployment.yaml"  # VDU2, vdu2_aspect: 2 pods at instantiation_level_1, maximum 3
SCRIPT = """
import os, pickle, sys, time
given = pickle.load(sys.stdin.buffer)
marks = {marks!r}
operation = given["operation"]
with open(os.path.join(marks, "log"), "a") as log:
    log.write(operation + "\\n")
with open(os.path.join(marks, operation + ".json"), "w") as seen:
    seen.write(repr(sorted(given)) + "\\n" + repr(given["vnf_instance"]) + "\\n" + repr(given["user_script_err_handling_data"]))
if os.path.exists(os.path.join(marks, "give-" + operation)):
    # What Tacker's scripts may hand back: the instance (a metadata entry of theirs) and data for the way back.
    inst = given["vnf_instance"]
    inst.setdefault("instantiatedVnfInfo", {{}}).setdefault("metadata", {{}})["scriptMark"] = operation
    data = dict(given["user_script_err_handling_data"], **{{operation: "seen"}})
    sys.stdout.buffer.write(pickle.dumps({{"vnf_instance": inst, "user_script_err_handling_data": data}}))
    sys.stdout.flush()
if os.path.exists(os.path.join(marks, "hold-" + operation)):
    with open(os.path.join(marks, "holding-" + operation), "w") as holding:
        holding.write(str(os.getpid()))
    time.sleep(120)
if os.path.exists(os.path.join(marks, "fail-" + operation)):
    sys.stderr.write("the test made " + operation + " fail")
    sys.exit(1)
"""


@pytest.fixture
def scripted(tacker_packages, tmp_path):
    """``(package, marks)``: Tacker's package with our interface script, and the directory it logs to and takes marks from."""
    marks = tmp_path / "marks"
    marks.mkdir()
    package = tmp_path / "package"
    shutil.copytree(os.path.join(tacker_packages, "test_instantiate_cnf_resources"), package)
    (package / "Scripts").mkdir()
    (package / "Scripts" / "sample_script.py").write_text(SCRIPT.format(marks=str(marks)))
    return str(package), marks


def ran(marks):
    log = marks / "log"
    return log.read_text().split() if log.exists() else []


def replicas(kube, namespace):
    return kube.call("GET", "/apis/apps/v1/namespaces/{0}/deployments/vdu2".format(namespace))["spec"]["replicas"]


def test_scripts_run_inside_each_operation_and_a_failing_end_script_is_failed_temp(ansible_task, k8s_lab, kube, scripted, k8s_namespace):
    package, marks = scripted
    body = {"flavourId": "simple", "additionalParams": {"namespace": k8s_namespace, "lcm-kubernetes-def-files": [DEPLOYMENT]}}
    auth = {"kubeconfig": str(k8s_lab.kubeconfig), "wait_timeout": 120, "wait_sleep": 1}
    args = dict(auth, package=package, vnf_instance_name="scripted", request=body)

    # Without the opt-in nothing of the package runs, and the plan says what is not run.
    planned = ansible_task("vnf_instantiate", args, check=True)
    assert not planned.get("failed"), planned.get("msg")
    assert planned["plan"]["interface_scripts"]["not_run"] == ["Vnflcm.instantiate_start (Scripts/sample_script.py)",
                                                               "Vnflcm.instantiate_end (Scripts/sample_script.py)"]
    (marks / "give-instantiate_end").write_text("")
    done = ansible_task("vnf_instantiate", dict(args, allow_package_scripts=True))
    assert not done.get("failed"), done.get("msg")
    # What the end script handed back is applied to the instance, as Tacker applies it.
    assert done["vnf_instance"]["instantiatedVnfInfo"]["metadata"]["scriptMark"] == "instantiate_end"
    assert done["hooks_run"] == ["instantiate_start", "instantiate_end"] and ran(marks) == ["instantiate_start", "instantiate_end"]
    # Tacker's input; the instance as the operation left it for _end, without this collection's private state.
    seen = (marks / "instantiate_end.json").read_text()
    assert "'grant_request', 'grant_response', 'operation', 'request', 'tmp_csar_dir', 'user_script_err_handling_data', 'vnf_instance'" in seen
    assert "'INSTANTIATED'" in seen and "'vnflcm'" not in seen
    assert replicas(kube, k8s_namespace) == 2

    # Scale out (VDU2 2 -> 3, Tacker's error_handling_scale_out) with a failing scale_end: the scale is done, the op occ
    # FAILED_TEMP; a rollback runs no script and takes VDU2 back to 2.
    on_instance = dict(auth, namespace=k8s_namespace, vnf_instance_name="scripted")
    (marks / "fail-scale_end").write_text("")
    for phase in ("start", "end"):
        (marks / ("give-scale_" + phase)).write_text("")
    failed = ansible_task("vnf_scale", dict(on_instance, request={"type": "SCALE_OUT", "aspectId": "vdu2_aspect", "numberOfSteps": 1}))
    assert failed.get("failed") and "Vnflcm.scale_end script Scripts/sample_script.py" in failed["msg"], failed.get("msg")
    assert "the test made scale_end fail" in failed["msg"]
    assert failed["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP" and replicas(kube, k8s_namespace) == 3
    # What the scripts kept for the way back (Tacker's userScriptErrHandlingData), the failing one's included.
    assert failed["vnf_lcm_op_occ"]["error"]["userScriptErrHandlingData"] == {"scale_start": "seen", "scale_end": "seen"}
    # The instance as recorded with the FAILED_TEMP op occ comes back too.
    assert failed["vnf_instance"]["id"] == failed["vnf_lcm_op_occ"]["vnfInstanceId"] and failed["vnf_instance"]["instantiationState"] == "INSTANTIATED"
    assert ran(marks)[-2:] == ["scale_start", "scale_end"]
    before = len(ran(marks))
    rolled = ansible_task("vnf_lcm_op_occ", dict(on_instance, action="rollback"))
    assert not rolled.get("failed"), rolled.get("msg")
    assert rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK" and replicas(kube, k8s_namespace) == 2
    assert len(ran(marks)) == before

    # Again, and this time a retry once the script succeeds: both scripts run again, and the op occ completes.
    failed = ansible_task("vnf_scale", dict(on_instance, request={"type": "SCALE_OUT", "aspectId": "vdu2_aspect"}))
    assert failed.get("failed")
    (marks / "fail-scale_end").unlink()
    retried = ansible_task("vnf_lcm_op_occ", dict(on_instance, action="retry"))
    assert not retried.get("failed"), retried.get("msg")
    # The retry's scripts were given what the failed run's kept.
    assert ast.literal_eval((marks / "scale_start.json").read_text().splitlines()[-1]) == {"scale_start": "seen", "scale_end": "seen"}
    assert retried["vnf_lcm_op_occ"]["operationState"] == "COMPLETED" and retried["hooks_run"] == ["scale_start", "scale_end"]
    assert {"aspectId": "vdu2_aspect", "scaleLevel": 2} in retried["vnf_instance"]["instantiatedVnfInfo"]["scaleStatus"]
    assert replicas(kube, k8s_namespace) == 3

    # The end hook (a task file: the role's <op>_end) runs after the VNFD's script, inside the op occ: failing, FAILED_TEMP.
    hook = marks.parent / "end_hook.yml"
    hook.write_text("- name: Refuse\n  ansible.builtin.fail:\n    msg: end hook {{ vnf_lifecycle_hook_name }} refused"
                    " {{ vnf_lifecycle_hook_lcm_op_occ.operationState }}\n")
    failed = ansible_task("vnf_scale", dict(on_instance, request={"type": "SCALE_IN", "aspectId": "vdu2_aspect"}, end_hook=str(hook),
                                            end_hook_vars={"vnf_lifecycle_hook_name": "scale_end"}))
    assert failed.get("failed") and "end hook scale_end refused PROCESSING" in failed["msg"], failed.get("msg")
    assert failed["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP" and ran(marks)[-1] == "scale_end"
    rolled = ansible_task("vnf_lcm_op_occ", dict(on_instance, action="rollback"))
    assert rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK" and replicas(kube, k8s_namespace) == 3

    gone = ansible_task("vnf_terminate", dict(on_instance, delete_instance=True))
    assert not gone.get("failed"), gone.get("msg")
    assert ran(marks)[-2:] == ["terminate_start", "terminate_end"]


def test_a_module_killed_while_an_end_script_runs_leaves_a_rollback_and_no_script_behind(ansible_task, k8s_lab, kube, scripted, k8s_namespace):
    package, marks = scripted
    body = {"flavourId": "simple", "additionalParams": {"namespace": k8s_namespace, "lcm-kubernetes-def-files": [DEPLOYMENT]}}
    auth = {"kubeconfig": str(k8s_lab.kubeconfig), "wait_timeout": 20, "wait_sleep": 1}
    done = ansible_task("vnf_instantiate", dict(auth, package=package, vnf_instance_name="killed", request=body, allow_package_scripts=True))
    assert not done.get("failed"), done.get("msg")
    on_instance = dict(auth, namespace=k8s_namespace, vnf_instance_name="killed")
    (marks / "hold-scale_end").write_text("")
    running = ansible_task("vnf_scale", dict(on_instance, request={"type": "SCALE_OUT", "aspectId": "vdu2_aspect"}), background=True)
    holding = marks / "holding-scale_end"
    wait_for(holding.exists, "the scale_end script to run", timeout=120)
    kill_runner(running_op_occ(kube, k8s_namespace))
    running.wait(timeout=60)
    # The script does not outlive the operation's timeout (wait_timeout 20 s), though its module is gone.
    script_pid = int(holding.read_text())
    wait_for(lambda: not os.path.exists("/proc/{0}".format(script_pid)), "the orphaned script to end", timeout=45, sleep=0.5)
    (marks / "hold-scale_end").unlink()
    # The runner is gone: the rollback takes the op occ over and brings VDU2 back to 2, running no script.
    before = len(ran(marks))
    rolled = ansible_task("vnf_lcm_op_occ", dict(on_instance, action="rollback"))
    assert not rolled.get("failed"), rolled.get("msg")
    assert rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK" and replicas(kube, k8s_namespace) == 2
    assert len(ran(marks)) == before
    gone = ansible_task("vnf_terminate", dict(on_instance, delete_instance=True))
    assert not gone.get("failed"), gone.get("msg")


def test_a_missing_script_is_refused_only_when_scripts_are_to_run(ansible_task, k8s_lab, tacker_packages, k8s_namespace, k8s_audit):
    # Tacker's package as it is: its interface script is not in the fixture.
    package = os.path.join(tacker_packages, "test_instantiate_cnf_resources")
    body = {"flavourId": "simple", "additionalParams": {"namespace": k8s_namespace, "lcm-kubernetes-def-files": [DEPLOYMENT]}}
    args = {"kubeconfig": str(k8s_lab.kubeconfig), "package": package, "vnf_instance_name": "missing", "request": body}
    mark = k8s_audit.mark()
    refused = ansible_task("vnf_instantiate", dict(args, allow_package_scripts=True))
    assert refused.get("failed") and "allow_package_scripts" in refused["msg"] and "Scripts/sample_script.py" in refused["msg"], refused.get("msg")
    assert k8s_audit.writes(mark, user=ADMIN_USER) == []
    planned = ansible_task("vnf_instantiate", args, check=True)
    assert not planned.get("failed") and "not_run" in planned["plan"]["interface_scripts"], planned.get("msg")
    assert json.dumps(planned).count("sample_script.py") >= 2


def test_a_failing_end_hook_of_the_role_leaves_the_operation_failed_temp_to_roll_back(ansible_task, k8s_lab, kube, scripted, k8s_namespace, tmp_path):
    from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_faults import head
    from ansible_collections.nfv.vnflcm.tests.integration.playbook_runs import PlaybookDriver

    package, _marks = scripted
    body = {"flavourId": "simple", "additionalParams": {"namespace": k8s_namespace, "lcm-kubernetes-def-files": [DEPLOYMENT]}}
    done = ansible_task("vnf_instantiate", {"kubeconfig": str(k8s_lab.kubeconfig), "package": package, "vnf_instance_name": "hooked",
                                            "request": body, "wait_timeout": 60, "wait_sleep": 1})
    assert not done.get("failed"), done.get("msg")
    hook = tmp_path / "scale_end.yml"
    hook.write_text("- name: Refuse\n  ansible.builtin.fail:\n    msg: the role's {{ vnf_lifecycle_hook_name }} hook refused"
                    " ({{ vnf_lifecycle_hook_lcm_op_occ.operationState }}, {{ hook_note }})\n")
    playbook = PlaybookDriver(tmp_path / "cli", {"kubeconfig": str(k8s_lab.kubeconfig)})
    common = {"vnf_lifecycle_instance_name": "hooked", "vnf_lifecycle_namespace": k8s_namespace, "vnf_lifecycle_wait_timeout": 60,
              "vnf_lifecycle_wait_sleep": 1}
    run = playbook.run("scale", dict(common, vnf_lifecycle_request={"type": "SCALE_OUT", "aspectId": "vdu2_aspect"},
                                     vnf_lifecycle_hooks={"scale_end": str(hook)}, vnf_lifecycle_hook_vars={"hook_note": "given by the play"}))
    assert run.status == "failed", run.stdout
    # Inside the operation: its op occ was PROCESSING when the hook ran, and is FAILED_TEMP now, the scale done.
    assert "the role's scale_end hook refused (PROCESSING, given by the play)" in run.stdout, run.stdout
    assert head(kube, k8s_namespace)["operationState"] == "FAILED_TEMP" and replicas(kube, k8s_namespace) == 3
    rolled = playbook.run("op_occ", dict(common, vnf_lifecycle_op_occ_action="rollback"))
    assert rolled.status == "successful", rolled.stdout
    assert head(kube, k8s_namespace)["operationState"] == "ROLLED_BACK" and replicas(kube, k8s_namespace) == 2
    gone = ansible_task("vnf_terminate", {"kubeconfig": str(k8s_lab.kubeconfig), "namespace": k8s_namespace, "vnf_instance_name": "hooked",
                                          "delete_instance": True, "wait_timeout": 60, "wait_sleep": 1})
    assert not gone.get("failed"), gone.get("msg")
