# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every playbook of the collection on the Kubernetes lab, once through ansible-playbook (the connection as
vnf_lifecycle_connection: a namespaced ServiceAccount's kubeconfig) and once as an AWX job template through
ansible-runner (the same ServiceAccount's token injected as AWX's Kubernetes bearer token credential does).

One CNF of Tacker's container-update packages goes through instantiate, its re-run, info, scale out, heal of one
VNFC, a container update that fails (its request a Tacker request file) and is rolled back with the op_occ
playbook, the same update done (its request JSON text, as an AWX survey gives it), and terminate."""

from __future__ import annotations

import json
import uuid

import pytest
import yaml

from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_faults import block_pods, owned, unblock_pods, wait_for
from ansible_collections.nfv.vnflcm.tests.integration.k8s.test_cnf_container_update import (
    AFTER_VNFD_ID,
    BEFORE_VNFD_ID,
    DEF_FILES,
    MODIFY_REQUEST,
    config,
    pods_by_owner,
)
from ansible_collections.nfv.vnflcm.tests.integration.playbook_runs import (
    PlaybookDriver,
    RunnerDriver,
    bearer_token_inputs,
    expect,
    kubernetes_bearer_token,
)
from ansible_collections.nfv.vnflcm.tests.integration.secret_leaks import leaks, report

INSTANCE = "playbook-cnf"
VDU1 = ("Deployment", "vdu1-update")


@pytest.fixture(params=["ansible-playbook", "ansible-runner"])
def driver(request, k8s_lab, k8s_tenant, tmp_path):
    if request.param == "ansible-playbook":
        return PlaybookDriver(tmp_path / "cli", {"kubeconfig": str(k8s_tenant.kubeconfig)})
    return RunnerDriver(tmp_path / "awx", kubernetes_bearer_token, bearer_token_inputs(k8s_lab.kubeconfig, k8s_tenant.token))


def vdu1_images(kube, namespace):
    return {images[0] for _uid, images in pods_by_owner(kube, namespace)[VDU1].values()}


def test_every_playbook_on_a_cnf(driver, kube, k8s_tenant, tacker_packages, tmp_path):
    ns = k8s_tenant.namespace
    before, after = ("{0}/test_cnf_container_update_{1}".format(tacker_packages, name) for name in ("before", "after"))
    record = {"vnf_lifecycle_instance_name": INSTANCE, "vnf_lifecycle_namespace": ns, "vnf_lifecycle_wait_timeout": 180}
    instantiate = dict(record, vnf_lifecycle_package=before, vnf_lifecycle_request={
        "flavourId": "simple", "instantiationLevelId": "instantiation_level_1",
        "additionalParams": {"namespace": ns, "lcm-kubernetes-def-files": DEF_FILES}})

    created = expect(driver.run("instantiate", instantiate)).result("Create and instantiate " + INSTANCE)
    assert created["changed"] and created["vnf_instance"]["instantiationState"] == "INSTANTIATED"
    assert created["vnf_lcm_op_occ"]["operationState"] == "COMPLETED" and created["vnf_instance"]["vnfdId"] == BEFORE_VNFD_ID
    assert vdu1_images(kube, ns) == {"nginx"} and len(pods_by_owner(kube, ns)[VDU1]) == 1

    # The job re-launched changes nothing.
    assert expect(driver.run("instantiate", instantiate)).result("Create and instantiate " + INSTANCE)["changed"] is False

    listed = expect(driver.run("info", record)).result("Read the VNF instances")
    assert [item["id"] for item in listed["vnf_instances"]] == [created["vnf_instance"]["id"]]

    scaled = expect(driver.run("scale", dict(record, vnf_lifecycle_request={"type": "SCALE_OUT", "aspectId": "vdu1_aspect"})))
    scaled = scaled.result("Scale the VNF instance")
    assert scaled["changed"] and scaled["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    assert kube.call("GET", "/apis/apps/v1/namespaces/{0}/deployments/vdu1-update".format(ns))["spec"]["replicas"] == 2
    assert len(pods_by_owner(kube, ns)[VDU1]) == 2

    info = scaled["vnf_instance"]["instantiatedVnfInfo"]
    vnfc = [item for item in info["vnfcInfo"] if item["vduId"] == "VDU1"][0]
    old_pod = [item for item in info["vnfcResourceInfo"] if item["id"] == vnfc["vnfcResourceInfoId"]][0]["computeResource"]["resourceId"]
    healed = expect(driver.run("heal", dict(record, vnf_lifecycle_request={"vnfcInstanceId": [vnfc["id"]]}))).result("Heal the VNF instance")
    assert healed["changed"] and healed["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    pods = pods_by_owner(kube, ns)[VDU1]
    assert old_pod not in pods and len(pods) == 2

    # A container update whose rollouts cannot finish (a quota of 0 pods, set by the cluster admin) fails half-way;
    # the job says what to do. The quota makes the failure certain: on kwok, rollouts may end within any short timeout.
    request_file = tmp_path / "modify_req.json"
    request_file.write_text(json.dumps(MODIFY_REQUEST, indent=2))
    cm_before = config(kube, ns, "ConfigMap", "cm-data")["data"]
    modify = dict(record, vnf_lifecycle_package=after, vnf_lifecycle_request=str(request_file))
    block_pods(kube, ns)
    try:
        failed_run = expect(driver.run("modify", dict(modify, vnf_lifecycle_wait_timeout=3)), "failed")
    finally:
        unblock_pods(kube, ns)
    failed = failed_run.result("Modify the VNF instance")
    occ = failed["vnf_lcm_op_occ"]
    assert failed["failed"] and occ["operationState"] == "FAILED_TEMP", failed.get("msg")
    assert occ["id"] in failed_run.stdout and "nfv.vnflcm.op_occ" in failed_run.stdout, failed_run.stdout[-3000:]
    assert config(kube, ns, "ConfigMap", "cm-data")["data"] != cm_before

    rolled = expect(driver.run("op_occ", dict(record, vnf_lifecycle_op_occ_action="rollback"))).result("Rollback the operation occurrence")
    assert (rolled["vnf_lcm_op_occ"]["id"], rolled["vnf_lcm_op_occ"]["operationState"]) == (occ["id"], "ROLLED_BACK")
    assert rolled["vnf_instance"]["vnfdId"] == BEFORE_VNFD_ID and config(kube, ns, "ConfigMap", "cm-data")["data"] == cm_before
    wait_for(lambda: vdu1_images(kube, ns) == {"nginx"}, "vdu1-update back on its old image", timeout=120, sleep=0.5)

    # The same update as JSON text (an AWX survey's answer).
    modified = expect(driver.run("modify", dict(modify, vnf_lifecycle_request=json.dumps(MODIFY_REQUEST)))).result("Modify the VNF instance")
    assert modified["changed"] and modified["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    assert modified["vnf_instance"]["vnfdId"] == AFTER_VNFD_ID and vdu1_images(kube, ns) == {"cirros"}
    assert config(kube, ns, "ConfigMap", "cm-data")["data"] == {"cmKey1.txt": "configmap2 data2\nfoo2\nbar2"}

    # The update renamed the instance (Tacker's request sets vnfInstanceName): from now on it is found by its id.
    assert modified["vnf_instance"]["vnfInstanceName"] == MODIFY_REQUEST["vnfInstanceName"]
    by_id = {"vnf_lifecycle_instance_id": created["vnf_instance"]["id"], "vnf_lifecycle_namespace": ns}
    gone = expect(driver.run("terminate", dict(by_id, vnf_lifecycle_request={"terminationType": "FORCEFUL"})))
    gone = gone.result("Terminate the VNF instance")
    assert gone["changed"] and gone["vnf_instance"]["instantiationState"] == "NOT_INSTANTIATED"
    wait_for(lambda: owned(kube, ns) == {}, "nothing labelled left", timeout=120, sleep=0.5)

    # Then its identifier: the record goes, and a re-run has nothing to delete.
    deleted = expect(driver.run("delete", by_id)).result("Delete the VNF instance identifier")
    assert deleted["changed"] and deleted["deleted"][-1] == {"kind": "Secret", "name": "vnflcm-" + created["vnf_instance"]["id"]}
    assert expect(driver.run("info", {"vnf_lifecycle_namespace": ns})).result("Read the VNF instances")["vnf_instances"] == []
    assert expect(driver.run("delete", by_id)).result("Report a VNF instance that is not there")["changed"] is False

    if isinstance(driver, RunnerDriver):
        assert driver.leaks({"ServiceAccount token": k8s_tenant.token}) == []


def test_the_request_s_vim_credentials_are_in_no_output_log_or_job_event(driver, k8s_tenant, tmp_path):
    """The role takes the request apart without logging it: a VIM password and token in its vimConnectionInfo appear
    nowhere in ansible-playbook's output at -vvv, its log file, or the job events (AWX stores these at any verbosity)."""
    secrets = {"accessInfo password": "pw-" + uuid.uuid4().hex, "accessInfo token": "tok-" + uuid.uuid4().hex}
    log = tmp_path / "ansible.log"
    if isinstance(driver, PlaybookDriver):
        driver.env.update(ANSIBLE_VERBOSITY="3", ANSIBLE_LOG_PATH=str(log))
    server = yaml.safe_load(k8s_tenant.kubeconfig.read_text())["clusters"][0]["cluster"]["server"]
    request = {"type": "SCALE_OUT", "aspectId": "vdu1_aspect",
               # The server the role connects to: the run fails for the instance it cannot find, with the request taken apart.
               "vimConnectionInfo": {"vim1": {"vimType": "kubernetes", "interfaceInfo": {"endpoint": server},
                                              "accessInfo": {"password": secrets["accessInfo password"], "bearer_token": secrets["accessInfo token"]}}}}
    # As a dict the request goes to the module at once (the entry point's common case); as JSON text (an AWX survey's
    # answer) the role takes it apart first.
    for given, task in ((request, "Scale the VNF instance"), (json.dumps(request), "Classify vnf_lifecycle_request")):
        run = driver.run("scale", {"vnf_lifecycle_instance_name": "nobody", "vnf_lifecycle_namespace": k8s_tenant.namespace,
                                   "vnf_lifecycle_request": given})
        assert run.status == "failed" and run.results(task), run.stdout[-3000:]
        found = leaks(secrets, run.stdout + json.dumps(run.events) + (log.read_text() if log.exists() else ""))
        assert not found, report(found)
