# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Drift on the lab: a CNF changed behind the VNF manager's back (an image set by hand, a Deployment scaled by hand, a
Service and a ConfigMap deleted, an object added with the instance's labels), seen field by field by vnf_info with
``drift: true``, run by a namespaced ServiceAccount, writing nothing; and repaired by vnf_instantiate with ``reconcile``
(ConfigMap keys changed by hand too), restarting only the workload that reads a restored key.

A package of our own (cnf_packages.py), built from Tacker's test_cnf_multi_ns VNFD: VDU1 and VDU2 are Deployments, a
ConfigMap VDU1 reads, a Service in front of VDU1.
"""

from __future__ import annotations

import os

from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_faults import block_pods, head, kill_runner, running_op_occ, unblock_pods, wait_for
from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_packages import build_package, config_map, def_files, deployment, service

VNFD_ID = "5c0d0e1f-0000-4000-8000-0000000d71f7"
FILES = {
    "config.yaml": [config_map("cm-vdu1", {"mode": "a"})],
    "vdus.yaml": [deployment("vdu1", "app:1.0", env_key=("cm-vdu1", "mode")), deployment("vdu2", "app:1.0")],
    "service.yaml": [service("vdu1-svc", "vdu1")],
}


# For the repair: each VDU reads one key of its own ConfigMap; cm-vdu2's other key is read by no one.
REPAIR_FILES = {
    "config.yaml": [config_map("cm-vdu1", {"mode": "a"}), config_map("cm-vdu2", {"level": "1", "unused": "u"})],
    "vdus.yaml": [deployment("vdu1", "app:1.0", env_key=("cm-vdu1", "mode")), deployment("vdu2", "app:1.0", env_key=("cm-vdu2", "level"))],
    "service.yaml": [service("vdu1-svc", "vdu1")],
}


def edited(kube, path, edit):
    """GET, edit, PUT: what ``kubectl edit`` does."""
    obj = kube.call("GET", path)
    edit(obj)
    return kube.call("PUT", path, obj)


def test_drift_is_seen_field_by_field_and_reading_it_writes_nothing(
        ansible_task, kube, k8s_namespace, k8s_tenant, k8s_audit, tacker_packages, tmp_path):
    ns = k8s_namespace
    package = build_package(os.path.join(tacker_packages, "test_cnf_multi_ns"), str(tmp_path / "pkg"), VNFD_ID, FILES)
    auth = {"kubeconfig": str(k8s_tenant.kubeconfig), "namespace": ns, "wait_timeout": 120, "wait_sleep": 1}
    request = {"flavourId": "simple", "instantiationLevelId": "instantiation_level_1",
               "additionalParams": {"lcm-kubernetes-def-files": def_files(FILES), "namespace": ns}}
    done = ansible_task("vnf_instantiate", dict(auth, package=package, vnf_instance_name="cnf", request=request))
    assert done.get("failed") is not True, done.get("msg")
    instance_id = done["vnf_instance"]["id"]
    by_id = dict(auth, vnf_instance_id=instance_id, drift=True)

    # As instantiated: no drift, though the API server has added its defaults and the controllers their annotations.
    clean = ansible_task("vnf_info", by_id)
    assert clean.get("failed") is not True, clean.get("msg")
    assert clean["drift"] == [{"vnfInstanceId": instance_id, "vnfInstanceName": "cnf", "drifted": 0, "compared": "fields", "objects": []}]

    # Behind its back, as an administrator would with kubectl.
    apps = "/apis/apps/v1/namespaces/{0}/deployments/".format(ns)
    replicas = kube.call("GET", apps + "vdu2")["spec"]["replicas"]

    def new_image_and_a_label(obj):
        obj["spec"]["template"]["spec"]["containers"][0]["image"] = "app:2.0"
        # A label added by hand is no field the def file sets: not drift.
        obj["metadata"]["labels"]["team"] = "blue"

    edited(kube, apps + "vdu1", new_image_and_a_label)
    edited(kube, apps + "vdu2", lambda obj: obj["spec"].update(replicas=replicas + 2))
    kube.call("DELETE", "/api/v1/namespaces/{0}/services/vdu1-svc".format(ns))
    kube.call("DELETE", "/api/v1/namespaces/{0}/configmaps/cm-vdu1".format(ns))
    kube.call("POST", "/api/v1/namespaces/{0}/configmaps".format(ns), {
        "apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "added-by-hand", "labels": {"vnflcm.nfv/instance-id": instance_id}},
        "data": {"x": "y"}})

    start = k8s_audit.mark()
    seen = ansible_task("vnf_info", by_id)
    assert seen.get("failed") is not True, seen.get("msg")
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []
    report = seen["drift"][0]
    by_name = {(item["kind"], item["name"]): item for item in report["objects"]}
    assert report["drifted"] == 5 and len(by_name) == 5, report
    assert by_name[("Deployment", "vdu1")]["status"] == "changed" and by_name[("Deployment", "vdu1")]["vdu"] == "VDU1"
    assert by_name[("Deployment", "vdu1")]["fields"] == [
        {"path": "spec.template.spec.containers[0].image", "expected": "app:1.0", "live": "app:2.0"}]
    assert by_name[("Deployment", "vdu2")]["fields"] == [{"path": "spec.replicas", "expected": replicas, "live": replicas + 2}]
    assert by_name[("Service", "vdu1-svc")]["status"] == "missing" and by_name[("Service", "vdu1-svc")]["file"] == "Files/kubernetes/service.yaml"
    assert by_name[("ConfigMap", "cm-vdu1")]["status"] == "missing"
    assert by_name[("ConfigMap", "added-by-hand")]["status"] == "unexpected"
    # The record and the VNFCs are as they were: reading drift changes neither.
    assert seen["vnf_instances"][0]["instantiatedVnfInfo"] == clean["vnf_instances"][0]["instantiatedVnfInfo"]

    terminated = ansible_task("vnf_terminate", dict(auth, vnf_instance_id=instance_id, request={"terminationType": "FORCEFUL"}))
    assert terminated.get("failed") is not True, terminated.get("msg")


def replica_sets(kube, ns, app):
    """The names of the ReplicaSets of Deployment ``app`` that have replicas: a restart makes a new one."""
    listed = kube.call("GET", "/apis/apps/v1/namespaces/{0}/replicasets?labelSelector=app%3D{1}".format(ns, app))["items"]
    return sorted(item["metadata"]["name"] for item in listed if (item.get("spec") or {}).get("replicas"))


def test_drift_is_repaired_on_request_and_only_the_workload_reading_a_restored_key_restarts(
        ansible_task, kube, k8s_namespace, k8s_tenant, k8s_audit, tacker_packages, tmp_path):
    ns = k8s_namespace
    package = build_package(os.path.join(tacker_packages, "test_cnf_multi_ns"), str(tmp_path / "pkg"), VNFD_ID, REPAIR_FILES)
    auth = {"kubeconfig": str(k8s_tenant.kubeconfig), "namespace": ns, "wait_timeout": 120, "wait_sleep": 1}
    request = {"flavourId": "simple", "instantiationLevelId": "instantiation_level_1",
               "additionalParams": {"lcm-kubernetes-def-files": def_files(REPAIR_FILES), "namespace": ns}}
    instantiate = dict(auth, package=package, vnf_instance_name="cnf", request=request)
    done = ansible_task("vnf_instantiate", instantiate)
    assert done.get("failed") is not True, done.get("msg")
    instance_id = done["vnf_instance"]["id"]
    apps = "/apis/apps/v1/namespaces/{0}/deployments/".format(ns)
    configs = "/api/v1/namespaces/{0}/configmaps/".format(ns)
    replicas = kube.call("GET", apps + "vdu2")["spec"]["replicas"]
    before = {app: replica_sets(kube, ns, app) for app in ("vdu1", "vdu2")}

    # Behind its back: a key vdu1 reads, a key no one reads, vdu2's replicas, a Service gone, an object added.
    edited(kube, configs + "cm-vdu1", lambda obj: obj["data"].update(mode="b"))
    edited(kube, configs + "cm-vdu2", lambda obj: obj["data"].update(unused="changed"))
    edited(kube, apps + "vdu2", lambda obj: obj["spec"].update(replicas=replicas + 1))
    kube.call("DELETE", "/api/v1/namespaces/{0}/services/vdu1-svc".format(ns))
    kube.call("POST", configs[:-1], {"apiVersion": "v1", "kind": "ConfigMap", "data": {"x": "y"},
                                     "metadata": {"name": "added-by-hand", "labels": {"vnflcm.nfv/instance-id": instance_id}}})
    drifted = {("ConfigMap", "cm-vdu1"), ("ConfigMap", "cm-vdu2"), ("Deployment", "vdu2"), ("Service", "vdu1-svc"), ("ConfigMap", "added-by-hand")}

    # A re-run without reconcile: nothing written, the drift counted in its plan (the package's ConfigMaps compared).
    start = k8s_audit.mark()
    rerun = ansible_task("vnf_instantiate", instantiate)
    assert rerun.get("failed") is not True and rerun["changed"] is False, rerun.get("msg")
    assert rerun["plan"]["drift"] == "5 objects" and {(item["kind"], item["name"]) for item in rerun["plan"]["drifted"]} == drifted, rerun["plan"]
    by_name = {item["name"]: item for item in rerun["plan"]["drifted"]}
    assert by_name["cm-vdu1"]["fields"] == [{"path": "data.mode", "expected": "a", "live": "b"}]

    # Check and diff mode: the repair shown, nothing written.
    preview = ansible_task("vnf_instantiate", dict(instantiate, reconcile=True), check=True, diff=True)
    assert preview.get("failed") is not True and preview["changed"] is True, preview.get("msg")
    actions = {(item["kind"], item["name"]): item["action"] for item in preview["plan"]["repair"]}
    assert actions == {("ConfigMap", "cm-vdu1"): "apply", ("ConfigMap", "cm-vdu2"): "apply", ("Deployment", "vdu2"): "apply",
                       ("Service", "vdu1-svc"): "create", ("ConfigMap", "added-by-hand"): "delete"}, preview["plan"]
    assert [(item["name"], item["reasons"][0]["keys"]) for item in preview["plan"]["restart"]] == [("vdu1", ["mode"])]
    assert preview["diff"]["before"]["Deployment vdu2"] == {"spec.replicas": replicas + 1}
    assert preview["diff"]["after"]["Deployment vdu2"] == {"spec.replicas": replicas}
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []

    repaired = ansible_task("vnf_instantiate", dict(instantiate, reconcile=True))
    assert repaired.get("failed") is not True and repaired["changed"] is True, repaired.get("msg")
    op_occ = repaired["vnf_lcm_op_occ"]
    assert (op_occ["operation"], op_occ["operationState"]) == ("HEAL", "COMPLETED")
    assert op_occ["operationParams"] == {"cause": "drift", "additionalParams": {"reconcile": True}}

    # The objects are the package's again; vdu1 restarted to read its restored key, vdu2 (whose read key did not change) did not.
    after = ansible_task("vnf_info", dict(auth, vnf_instance_id=instance_id, drift=True))
    assert after["drift"][0]["drifted"] == 0, after["drift"]
    assert kube.call("GET", configs + "cm-vdu1")["data"] == {"mode": "a"}
    assert kube.call("GET", configs + "cm-vdu2")["data"] == {"level": "1", "unused": "u"}
    assert kube.request("GET", configs + "added-by-hand")[0] == 404
    assert kube.call("GET", apps + "vdu2")["spec"]["replicas"] == replicas
    assert replica_sets(kube, ns, "vdu2") == before["vdu2"]
    assert replica_sets(kube, ns, "vdu1") != before["vdu1"]

    # Nothing drifted any more: a repair again is nothing to do.
    again = ansible_task("vnf_instantiate", dict(instantiate, reconcile=True))
    assert again.get("failed") is not True and again["changed"] is False and again["plan"]["drift"] == "0 objects", again.get("msg")

    terminated = ansible_task("vnf_terminate", dict(auth, vnf_instance_id=instance_id, request={"terminationType": "FORCEFUL"}))
    assert terminated.get("failed") is not True, terminated.get("msg")


def test_a_repair_killed_while_it_waits_is_retried_with_the_package_and_cannot_be_rolled_back(
        ansible_task, kube, k8s_namespace, k8s_tenant, tacker_packages, tmp_path):
    ns = k8s_namespace
    package = build_package(os.path.join(tacker_packages, "test_cnf_multi_ns"), str(tmp_path / "pkg"), VNFD_ID, FILES)
    auth = {"kubeconfig": str(k8s_tenant.kubeconfig), "namespace": ns, "wait_timeout": 120, "wait_sleep": 1}
    request = {"flavourId": "simple", "instantiationLevelId": "instantiation_level_1",
               "additionalParams": {"lcm-kubernetes-def-files": def_files(FILES), "namespace": ns}}
    instantiate = dict(auth, package=package, vnf_instance_name="cnf", request=request)
    done = ansible_task("vnf_instantiate", instantiate)
    assert done.get("failed") is not True, done.get("msg")
    by_id = dict(auth, vnf_instance_id=done["vnf_instance"]["id"])
    service_path = "/api/v1/namespaces/{0}/services/vdu1-svc".format(ns)
    vdu1_path = "/apis/apps/v1/namespaces/{0}/deployments/vdu1".format(ns)
    edited(kube, "/api/v1/namespaces/{0}/configmaps/cm-vdu1".format(ns), lambda obj: obj["data"].update(mode="b"))
    kube.call("DELETE", service_path)

    def restarted():
        annotations = kube.call("GET", vdu1_path)["spec"]["template"]["metadata"].get("annotations") or {}
        return kube.request("GET", service_path)[0] == 200 and "vnflcm.nfv/config-hash" in annotations

    # No pod may start: the repair's restart of vdu1 holds it in its wait, after all its writes.
    pods = kube.call("GET", "/api/v1/namespaces/{0}/pods".format(ns))["items"]
    block_pods(kube, ns, count=len([pod for pod in pods if not pod["metadata"].get("deletionTimestamp")]))
    try:
        task = ansible_task("vnf_instantiate", dict(instantiate, reconcile=True), background=True)
        occ = running_op_occ(kube, ns, also=restarted)
        assert occ["operation"] == "HEAL"
        kill_runner(occ)
        task.wait()
        # A repair is a heal: SOL003 has no rollback of it.
        refused = ansible_task("vnf_lcm_op_occ", dict(by_id, action="rollback"))
        assert refused.get("failed") is True and "HEAL" in refused["msg"], refused.get("msg")
    finally:
        unblock_pods(kube, ns)

    retried = ansible_task("vnf_lcm_op_occ", dict(by_id, action="retry", package=package))
    assert retried.get("failed") is not True, retried.get("msg")
    assert (head(kube, ns)["id"], head(kube, ns)["operationState"]) == (occ["id"], "COMPLETED")
    wait_for(lambda: ansible_task("vnf_info", dict(by_id, drift=True))["drift"][0]["drifted"] == 0, "no drift", timeout=60, sleep=1)
    terminated = ansible_task("vnf_terminate", dict(by_id, request={"terminationType": "FORCEFUL"}))
    assert terminated.get("failed") is not True, terminated.get("msg")
