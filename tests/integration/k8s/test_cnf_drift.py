# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Drift on the lab: a CNF changed behind the VNF manager's back (an image set by hand, a Deployment scaled by hand, a
Service and a ConfigMap deleted, an object added with the instance's labels), seen field by field by vnf_info with
``drift: true``, run by a namespaced ServiceAccount, writing nothing.

A package of our own (cnf_packages.py), built from Tacker's test_cnf_multi_ns VNFD: VDU1 and VDU2 are Deployments, a
ConfigMap VDU1 reads, a Service in front of VDU1.
"""

from __future__ import annotations

import os

from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_packages import build_package, config_map, def_files, deployment, service

VNFD_ID = "5c0d0e1f-0000-4000-8000-0000000d71f7"
FILES = {
    "config.yaml": [config_map("cm-vdu1", {"mode": "a"})],
    "vdus.yaml": [deployment("vdu1", "app:1.0", env_key=("cm-vdu1", "mode")), deployment("vdu2", "app:1.0")],
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
