# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Scale a CNF to a level on the lab (vnf_scale_to_level, ScaleVnfToLevelRequest), run by a namespaced ServiceAccount.

A package of our own (cnf_packages.py) built from Tacker's test_cnf_multi_ns VNFD: VDU1 and VDU2 are the Deployments
vdu1 and vdu2, one pod each at instantiation_level_1 (both aspects at level 0), three at instantiation_level_2 (level 2).
"""

from __future__ import annotations

import os

import pytest

from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_faults import block_pods, unblock_pods
from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_packages import build_package, def_files, deployment
from ansible_collections.nfv.vnflcm.tests.integration.playbook_runs import PlaybookDriver, expect

VNFD_ID = "5c0d0e1f-0000-4000-8000-0000000051a1"
FILES = {"vdu1.yaml": [deployment("vdu1", "app:1.0")], "vdu2.yaml": [deployment("vdu2", "app:1.0")]}


@pytest.fixture
def cnf(ansible_task, k8s_namespace, k8s_tenant, tacker_packages, tmp_path):
    """The package instantiated at instantiation_level_1 by the namespace's own ServiceAccount."""
    package = build_package(os.path.join(tacker_packages, "test_cnf_multi_ns"), str(tmp_path / "pkg"), VNFD_ID, FILES)
    auth = {"kubeconfig": str(k8s_tenant.kubeconfig), "namespace": k8s_namespace, "wait_timeout": 120, "wait_sleep": 1}
    request = {"flavourId": "simple", "instantiationLevelId": "instantiation_level_1",
               "additionalParams": {"lcm-kubernetes-def-files": def_files(FILES), "namespace": k8s_namespace}}
    done = ansible_task("vnf_instantiate", dict({key: value for key, value in auth.items() if key != "namespace"}, package=package,
                                                vnf_instance_name="cnf", request=request))
    assert done.get("failed") is not True, done.get("msg")
    return dict(auth, vnf_instance_id=done["vnf_instance"]["id"])


def replicas(kube, namespace):
    return {name: kube.call("GET", "/apis/apps/v1/namespaces/{0}/deployments/{1}".format(namespace, name))["spec"]["replicas"]
            for name in ("vdu1", "vdu2")}


def levels(instance):
    return {item["aspectId"]: item["scaleLevel"] for item in instance["instantiatedVnfInfo"]["scaleStatus"]}


def op_occs(ansible_task, cnf):
    return ansible_task("vnf_info", cnf)["vnf_lcm_op_occs"]


def test_scale_to_a_level_by_instantiation_level_and_by_aspect_and_rerun_with_no_write(ansible_task, kube, cnf, k8s_namespace,
                                                                                       k8s_tenant, k8s_audit):
    ns = k8s_namespace
    to_level_2 = dict(cnf, request={"instantiationLevelId": "instantiation_level_2"})

    # Check mode: the plan, and not one write.
    start = k8s_audit.mark()
    checked = ansible_task("vnf_scale_to_level", to_level_2, check=True, diff=True)
    assert checked.get("failed") is not True, checked.get("msg")
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []
    assert checked["changed"] is True and checked["vim_type"] == "kubernetes"
    assert checked["plan"]["from_levels"] == {"vdu1_aspect": 0, "vdu2_aspect": 0}
    assert checked["plan"]["to_levels"] == {"vdu1_aspect": 2, "vdu2_aspect": 2}
    assert {vdu: item["replicas"] for vdu, item in checked["plan"]["replicas"].items()} == {"VDU1": 3, "VDU2": 3}
    assert replicas(kube, ns) == {"vdu1": 1, "vdu2": 1}

    done = ansible_task("vnf_scale_to_level", to_level_2)
    assert done.get("failed") is not True, done.get("msg")
    occ = done["vnf_lcm_op_occ"]
    assert occ["operation"] == "SCALE_TO_LEVEL" and occ["operationState"] == "COMPLETED"
    added = occ["resourceChanges"]["affectedVnfcs"]
    assert sorted(item["vduId"] for item in added) == ["VDU1", "VDU1", "VDU2", "VDU2"] and {item["changeType"] for item in added} == {"ADDED"}
    assert levels(done["vnf_instance"]) == {"vdu1_aspect": 2, "vdu2_aspect": 2}
    assert len(done["vnf_instance"]["instantiatedVnfInfo"]["vnfcResourceInfo"]) == 6
    assert replicas(kube, ns) == {"vdu1": 3, "vdu2": 3}

    # The same target again, as an instantiation level or as per-aspect levels: nothing to do, not one write, no op occ.
    count = len(op_occs(ansible_task, cnf))
    start = k8s_audit.mark()
    for request in ({"instantiationLevelId": "instantiation_level_2"}, {"scaleInfo": [{"aspectId": "vdu2_aspect", "scaleLevel": 2}]}):
        again = ansible_task("vnf_scale_to_level", dict(cnf, request=request))
        assert again.get("failed") is not True and again["changed"] is False, again.get("msg")
        assert again["plan"]["to_levels"] == {} and "vnf_lcm_op_occ" not in again
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []
    assert len(op_occs(ansible_task, cnf)) == count

    # One aspect down by scaleInfo: only its Deployment changes.
    down = ansible_task("vnf_scale_to_level", dict(cnf, request={"scaleInfo": [{"aspectId": "vdu1_aspect", "scaleLevel": 1}]}))
    assert down.get("failed") is not True, down.get("msg")
    assert down["plan"]["to_levels"] == {"vdu1_aspect": 1} and list(down["plan"]["replicas"]) == ["VDU1"]
    assert [item["changeType"] for item in down["vnf_lcm_op_occ"]["resourceChanges"]["affectedVnfcs"]] == ["REMOVED"]
    assert levels(down["vnf_instance"]) == {"vdu1_aspect": 1, "vdu2_aspect": 2}
    assert replicas(kube, ns) == {"vdu1": 2, "vdu2": 3}


@pytest.mark.parametrize("request_body, field", [
    ({"scaleInfo": [{"aspectId": "no_such_aspect", "scaleLevel": 1}]}, "scaleInfo[0].aspectId"),
    ({"scaleInfo": [{"aspectId": "vdu1_aspect", "scaleLevel": 3}]}, "scaleInfo[0].scaleLevel"),
    ({"instantiationLevelId": "instantiation_level_9"}, "instantiationLevelId"),
    ({"instantiationLevelId": "instantiation_level_2", "scaleInfo": []}, "instantiationLevelId"),
])
def test_a_bad_aspect_or_level_is_refused_before_any_write(ansible_task, cnf, k8s_tenant, k8s_audit, request_body, field):
    start = k8s_audit.mark()
    refused = ansible_task("vnf_scale_to_level", dict(cnf, request=request_body))
    assert refused.get("failed") is True and "ScaleVnfToLevelRequest" in refused["msg"] and field in refused["msg"], refused.get("msg")
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []


def test_a_scale_that_cannot_finish_ends_failed_temp_and_rolls_back_to_the_level_before(ansible_task, kube, cnf, k8s_namespace):
    ns = k8s_namespace
    # No new pod can be created in the namespace: the scale out waits for pods that never come.
    block_pods(kube, ns)
    try:
        failed = ansible_task("vnf_scale_to_level", dict(cnf, wait_timeout=10, request={"scaleInfo": [{"aspectId": "vdu1_aspect", "scaleLevel": 2}]}))
        assert failed.get("failed") is True
        occ = failed["vnf_lcm_op_occ"]
        assert occ["operation"] == "SCALE_TO_LEVEL" and occ["operationState"] == "FAILED_TEMP", failed.get("msg")
        assert replicas(kube, ns) == {"vdu1": 3, "vdu2": 1}

        rolled = ansible_task("vnf_lcm_op_occ", dict(cnf, action="rollback"))
        assert rolled.get("failed") is not True, rolled.get("msg")
        assert rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK"
        assert rolled["plan"]["to_levels"] == {"vdu1_aspect": 0}
    finally:
        unblock_pods(kube, ns)
    assert replicas(kube, ns) == {"vdu1": 1, "vdu2": 1}
    assert levels(ansible_task("vnf_info", cnf)["vnf_instances"][0]) == {"vdu1_aspect": 0, "vdu2_aspect": 0}


def test_a_failed_scale_to_level_is_retried_to_its_levels_once_pods_can_start(ansible_task, kube, cnf, k8s_namespace):
    ns = k8s_namespace
    block_pods(kube, ns)
    try:
        failed = ansible_task("vnf_scale_to_level", dict(cnf, wait_timeout=10, request={"instantiationLevelId": "instantiation_level_2"}))
        assert failed.get("failed") is True and failed["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP", failed.get("msg")
    finally:
        unblock_pods(kube, ns)
    retried = ansible_task("vnf_lcm_op_occ", dict(cnf, action="retry"))
    assert retried.get("failed") is not True, retried.get("msg")
    assert retried["vnf_lcm_op_occ"]["operation"] == "SCALE_TO_LEVEL" and retried["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    assert levels(retried["vnf_instance"]) == {"vdu1_aspect": 2, "vdu2_aspect": 2}
    assert replicas(kube, ns) == {"vdu1": 3, "vdu2": 3}
    assert len(retried["vnf_instance"]["instantiatedVnfInfo"]["vnfcResourceInfo"]) == 6


def test_the_scale_to_level_playbook_scales_once_and_its_rerun_changes_nothing(kube, cnf, k8s_namespace, k8s_tenant, tmp_path):
    driver = PlaybookDriver(tmp_path / "cli", {"kubeconfig": str(k8s_tenant.kubeconfig)})
    variables = {"vnf_lifecycle_instance_id": cnf["vnf_instance_id"], "vnf_lifecycle_namespace": k8s_namespace,
                 "vnf_lifecycle_request": {"scaleInfo": [{"aspectId": "vdu2_aspect", "scaleLevel": 1}]}}
    scaled = expect(driver.run("scale_to_level", variables)).result("Scale the VNF instance to the level")
    assert scaled["changed"] and scaled["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    assert replicas(kube, k8s_namespace) == {"vdu1": 1, "vdu2": 2}
    again = expect(driver.run("scale_to_level", variables)).result("Scale the VNF instance to the level")
    assert again["changed"] is False
