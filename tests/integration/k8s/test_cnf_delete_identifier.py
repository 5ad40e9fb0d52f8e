# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Deleting a CNF's VNF instance identifier on the lab (vnf_delete, vnf_terminate delete_instance), run by a namespaced ServiceAccount.

A package of our own (cnf_packages.py), built from Tacker's test_cnf_multi_ns VNFD: VDU1 and VDU2 are Deployments, with a
ConfigMap next to them.
"""

from __future__ import annotations

import os
import urllib.parse

from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.record import name_claim_name
from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_packages import build_package, config_map, def_files, deployment

VNFD_ID = "5c0d0e1f-0000-4000-8000-0000000de1e7"
FILES = {
    "config.yaml": [config_map("cm-vdu1", {"mode": "a"})],
    "vdus.yaml": [deployment("vdu1", "app:1.0", env_key=("cm-vdu1", "mode")), deployment("vdu2", "app:1.0")],
}
# What could carry the instance's label in its namespace: the VNF's objects, its record and rollback Secrets.
LABELLED_KINDS = ("/api/v1/namespaces/{ns}/secrets", "/api/v1/namespaces/{ns}/configmaps", "/apis/coordination.k8s.io/v1/namespaces/{ns}/leases",
                  "/apis/apps/v1/namespaces/{ns}/deployments", "/api/v1/namespaces/{ns}/pods")


def labelled_with(kube, namespace, instance_id):
    """Every object of the namespace labelled with the instance id, as ``kind/name``."""
    query = "?labelSelector=" + urllib.parse.quote("vnflcm.nfv/instance-id=" + instance_id)
    return sorted("{0}/{1}".format(path.rsplit("/", 1)[-1], item["metadata"]["name"])
                  for path in LABELLED_KINDS for item in kube.call("GET", path.format(ns=namespace) + query)["items"])


def instantiate(ansible_task, package, auth, name, namespace):
    request = {"flavourId": "simple", "instantiationLevelId": "instantiation_level_1",
               "additionalParams": {"lcm-kubernetes-def-files": def_files(FILES), "namespace": namespace}}
    done = ansible_task("vnf_instantiate", dict({key: value for key, value in auth.items() if key != "namespace"}, package=package,
                                                vnf_instance_name=name, request=request))
    assert done.get("failed") is not True, done.get("msg")
    return done["vnf_instance"]["id"]


def test_delete_is_refused_while_instantiated_then_leaves_nothing_and_terminate_can_delete_too(
        ansible_task, kube, k8s_namespace, k8s_tenant, k8s_audit, tacker_packages, tmp_path):
    ns = k8s_namespace
    package = build_package(os.path.join(tacker_packages, "test_cnf_multi_ns"), str(tmp_path / "pkg"), VNFD_ID, FILES)
    auth = {"kubeconfig": str(k8s_tenant.kubeconfig), "namespace": ns, "wait_timeout": 120, "wait_sleep": 1}
    instance_id = instantiate(ansible_task, package, auth, "cnf", ns)
    by_id = dict(auth, vnf_instance_id=instance_id)

    # INSTANTIATED: refused, saying to terminate first, and nothing written.
    start = k8s_audit.mark()
    refused = ansible_task("vnf_delete", dict(auth, vnf_instance_name="cnf"))
    assert refused.get("failed") is True and "INSTANTIATED" in refused["msg"] and "terminate it first" in refused["msg"], refused.get("msg")
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []
    assert "secrets/vnflcm-" + instance_id in labelled_with(kube, ns, instance_id)

    terminated = ansible_task("vnf_terminate", dict(by_id, request={"terminationType": "FORCEFUL"}))
    assert terminated.get("failed") is not True, terminated.get("msg")
    # What stays after a terminate (the package does not bring its namespace): the record, and the claim of its name.
    kept = [{"kind": "Secret", "name": name_claim_name("cnf")}, {"kind": "Secret", "name": "vnflcm-" + instance_id}]
    assert labelled_with(kube, ns, instance_id) == sorted("secrets/" + item["name"] for item in kept)

    # Check mode: the plan, and not one write.
    start = k8s_audit.mark()
    checked = ansible_task("vnf_delete", by_id, check=True, diff=True)
    assert checked.get("failed") is not True, checked.get("msg")
    assert checked["changed"] is True and checked["vim_type"] == "kubernetes"
    assert checked["plan"]["delete"] == kept and checked["deleted"] == []
    assert checked["diff"]["before"]["vnfInstance"]["instantiationState"] == "NOT_INSTANTIATED"
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []

    deleted = ansible_task("vnf_delete", by_id, diff=True)
    assert deleted.get("failed") is not True, deleted.get("msg")
    assert deleted["changed"] is True and deleted["deleted"] == kept
    assert labelled_with(kube, ns, instance_id) == []
    listed = ansible_task("vnf_info", {"kubeconfig": auth["kubeconfig"], "namespace": ns})
    assert instance_id not in [item["id"] for item in listed["vnf_instances"]]

    # A re-run: nothing to do, and not one write.
    start = k8s_audit.mark()
    again = ansible_task("vnf_delete", by_id)
    assert again.get("failed") is not True and again["changed"] is False and again["vnf_instance"] is None, again.get("msg")
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []

    # Terminate and delete in one task.
    second = instantiate(ansible_task, package, auth, "cnf-2", ns)
    done = ansible_task("vnf_terminate", dict(auth, vnf_instance_name="cnf-2", delete_instance=True))
    assert done.get("failed") is not True, done.get("msg")
    assert done["changed"] is True and done["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    assert done["deleted"] == [{"kind": "Secret", "name": name_claim_name("cnf-2")}, {"kind": "Secret", "name": "vnflcm-" + second}]
    assert labelled_with(kube, ns, second) == []
    start = k8s_audit.mark()
    rerun = ansible_task("vnf_terminate", dict(auth, vnf_instance_name="cnf-2", delete_instance=True))
    assert rerun.get("failed") is not True and rerun["changed"] is False, rerun.get("msg")
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []
