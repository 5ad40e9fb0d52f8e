# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Terminate of a CNF on the lab deletes what Tacker v2 deletes (the PersistentVolumeClaims of its StatefulSets'
volumeClaimTemplates, made by the lab's real StatefulSet controller), and never leaves an instance stuck: an object
held by a finalizer nobody removes is named within the no-progress window, ``fail`` leaves the instance
NOT_INSTANTIATED listing it, and vnf_delete then goes, saying what was left."""

from __future__ import annotations

import hashlib
import os
import shutil
import time
import urllib.parse

import pytest
import yaml

from ansible_collections.nfv.vnflcm.tests.integration.faults import wait_for
from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_packages import build_package, config_map, def_files, deployment

DEF_DIR = "Files/kubernetes/"
# Tacker's package: StatefulSet vdu5 (VDU5) with volumeClaimTemplates "www" in StorageClass curry-sc-local, and a
# PersistentVolume of that class (cluster-scoped, as the package brings them).
TACKER_FILES = [DEF_DIR + "storage-class.yaml", DEF_DIR + "persistent-volume-0.yaml", DEF_DIR + "statefulset.yaml"]
CLUSTER_SCOPED = ["/apis/storage.k8s.io/v1/storageclasses/curry-sc-local", "/api/v1/persistentvolumes/curry-sc-pv"]
RETAINING = DEF_DIR + "statefulset-retain.yaml"
OWNED = "vnflcm.nfv/instance-id"


def exists(kube, path):
    return kube.request("GET", path)[0] == 200


def claim_path(namespace, name):
    return "/api/v1/namespaces/{0}/persistentvolumeclaims/{1}".format(namespace, name)


def with_def_file(source, dest, name, objects):
    """A copy of the package at ``source`` with one more def file, declared in TOSCA.meta with its hash."""
    shutil.copytree(source, dest)
    text = yaml.safe_dump_all(objects)
    with open(os.path.join(dest, name), "w") as handle:
        handle.write(text)
    with open(os.path.join(dest, "TOSCA-Metadata", "TOSCA.meta"), "a") as handle:
        handle.write("\nName: {0}\nContent-Type: application/yaml\nAlgorithm: SHA-256\nHash: {1}\n".format(
            name, hashlib.sha256(text.encode()).hexdigest()))
    return dest


def retaining_statefulset(storage_class):
    """A StatefulSet of its own that asks Kubernetes to keep its claims when it is deleted."""
    return {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "keeper"},
            "spec": {"replicas": 1, "serviceName": "keeper", "selector": {"matchLabels": {"app": "keeper"}},
                     "persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Retain", "whenScaled": "Retain"},
                     "template": {"metadata": {"labels": {"app": "keeper"}},
                                  "spec": {"containers": [{"name": "app", "image": "nginx", "volumeMounts": [{"name": "data", "mountPath": "/data"}]}]}},
                     "volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {
                         "accessModes": ["ReadWriteOnce"], "storageClassName": storage_class, "resources": {"requests": {"storage": "1Gi"}}}}]}}


def persistent_volume(name, storage_class):
    return {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": name},
            "spec": {"accessModes": ["ReadWriteOnce"], "capacity": {"storage": "1Gi"}, "hostPath": {"path": "/data/" + name},
                     "persistentVolumeReclaimPolicy": "Retain", "storageClassName": storage_class}}


@pytest.fixture
def cluster_scoped(kube, k8s_namespace):
    """The cluster-scoped objects of the test (the package's, and the PV of the retained claim), removed afterwards
    whatever happened: the package's names are fixed."""
    paths = list(CLUSTER_SCOPED) + ["/api/v1/persistentvolumes/" + k8s_namespace + "-keep"]
    yield paths
    for path in paths:
        kube.request("DELETE", path)


def test_terminate_deletes_the_claims_of_a_statefulset_and_keeps_those_it_retains(ansible_task, k8s_lab, kube, k8s_namespace, tacker_packages,
                                                                                  tmp_path, cluster_scoped):
    ns = k8s_namespace
    keep_class = ns + "-keep"
    # A volume for the claim that is kept, outside the VNF (the package's own volume goes with it).
    kube.call("POST", "/api/v1/persistentvolumes", persistent_volume(keep_class, keep_class))
    package = with_def_file(os.path.join(tacker_packages, "test_instantiate_cnf_resources"), str(tmp_path / "pkg"), RETAINING,
                            [retaining_statefulset(keep_class)])
    auth = {"kubeconfig": str(k8s_lab.kubeconfig), "wait_timeout": 120, "wait_sleep": 1}
    where = dict(auth, namespace=ns, vnf_instance_name="stateful")
    request = {"flavourId": "simple", "additionalParams": {"namespace": ns, "lcm-kubernetes-def-files": TACKER_FILES + [RETAINING]}}
    done = ansible_task("vnf_instantiate", dict(auth, package=package, vnf_instance_name="stateful", request=request, allow_cluster_scoped=True))
    assert not done.get("failed"), done.get("msg")
    # The StatefulSet controller made the claims (they carry its selector's labels, none of ours), bound to the volumes.
    for name in ("www-vdu5-0", "data-keeper-0"):
        live = kube.call("GET", claim_path(ns, name))
        assert live["status"]["phase"] == "Bound" and OWNED not in (live["metadata"].get("labels") or {}), live

    planned = ansible_task("vnf_terminate", where, check=True)
    assert not planned.get("failed"), planned.get("msg")
    assert {(item["name"], item["action"]) for item in planned["plan"]["volume_claims"]} == {("www-vdu5-0", "delete"), ("data-keeper-0", "keep")}
    assert ("PersistentVolumeClaim", "www-vdu5-0") in [(item["kind"], item["name"]) for item in planned["plan"]["delete"]]
    assert "data-keeper-0" not in [item["name"] for item in planned["plan"]["delete"]]

    started = time.monotonic()
    gone = ansible_task("vnf_terminate", where)
    assert not gone.get("failed"), gone.get("msg")
    assert gone["vnf_lcm_op_occ"]["operationState"] == "COMPLETED" and gone["vnf_instance"]["instantiationState"] == "NOT_INSTANTIATED"
    assert not exists(kube, claim_path(ns, "www-vdu5-0"))
    assert not any(exists(kube, path) for path in CLUSTER_SCOPED)
    kept = kube.call("GET", claim_path(ns, "data-keeper-0"))
    assert kept["status"]["phase"] == "Bound" and not kept["metadata"].get("deletionTimestamp")
    print("terminate with claims: {0:.1f} s".format(time.monotonic() - started))
    kube.request("DELETE", claim_path(ns, "data-keeper-0"))


VNFD_ID = "5c0d0e1f-0000-4000-8000-00000000f1a1"


def test_an_object_held_by_a_finalizer_is_named_then_fail_and_delete_leave_nothing_stuck(ansible_task, kube, k8s_namespace, k8s_tenant,
                                                                                         tacker_packages, tmp_path):
    ns = k8s_namespace
    vdu2 = deployment("vdu2", "nginx")
    # Pods that stop at once: the no-progress window is 30 s beyond the grace the deleted pods may take.
    vdu2["spec"]["template"]["spec"]["terminationGracePeriodSeconds"] = 0
    files = {"config.yaml": [config_map("cm-held", {"a": "b"}), config_map("cm-free", {"c": "d"})], "vdu2.yaml": [vdu2]}
    package = build_package(os.path.join(tacker_packages, "test_cnf_multi_ns"), str(tmp_path / "pkg"), VNFD_ID, files)
    auth = {"kubeconfig": str(k8s_tenant.kubeconfig), "namespace": ns, "wait_timeout": 120, "wait_sleep": 1}
    where = dict(auth, vnf_instance_name="held")
    request = {"flavourId": "simple", "additionalParams": {"namespace": ns, "lcm-kubernetes-def-files": def_files(files)}}
    done = ansible_task("vnf_instantiate", dict(auth, package=package, vnf_instance_name="held", request=request))
    assert not done.get("failed"), done.get("msg")
    assert done["vnf_instance"]["instantiatedVnfInfo"]["vnfcResourceInfo"]
    held = "/api/v1/namespaces/{0}/configmaps/cm-held".format(ns)
    # A finalizer nobody removes, given by the cluster's admin.
    status = kube.request("PATCH", held, {"metadata": {"finalizers": ["example.com/hold"]}}, headers={"Content-Type": "application/merge-patch+json"})[0]
    assert status == 200

    started = time.monotonic()
    stuck = ansible_task("vnf_terminate", where)
    took = time.monotonic() - started
    assert stuck.get("failed") and "ConfigMap cm-held" in stuck["msg"] and "example.com/hold" in stuck["msg"], stuck.get("msg")
    assert "action: fail" in stuck["msg"]
    # Within the window (30 s) and the module's own start and deletes, far from wait_timeout.
    assert took < 75, took
    occ = stuck["vnf_lcm_op_occ"]
    assert occ["operationState"] == "FAILED_TEMP" and "ConfigMap cm-held" in occ["error"]["detail"]
    print("stuck terminate named the held object after {0:.1f} s".format(took))

    failed = ansible_task("vnf_lcm_op_occ", dict(where, action="fail"))
    assert not failed.get("failed"), failed.get("msg")
    assert failed["vnf_lcm_op_occ"]["id"] == occ["id"] and failed["vnf_lcm_op_occ"]["operationState"] == "FAILED"
    instance = failed["vnf_instance"]
    assert instance["instantiationState"] == "NOT_INSTANTIATED"
    assert "vnfcResourceInfo" not in instance["instantiatedVnfInfo"] and "vnfcInfo" not in instance["instantiatedVnfInfo"]
    assert [(item["kind"], item["name"]) for item in instance["instantiatedVnfInfo"]["metadata"]["vnflcm"]["resources"]] == [("ConfigMap", "cm-held")]

    # Delete is not refused by what nothing the collection does can release: it goes, and says what is left.
    planned = ansible_task("vnf_delete", where, check=True)
    assert not planned.get("failed"), planned.get("msg")
    assert planned["plan"]["left_behind"] == ["ConfigMap/cm-held (being deleted, held by finalizers example.com/hold)"]
    deleted = ansible_task("vnf_delete", where)
    assert not deleted.get("failed"), deleted.get("msg")
    assert deleted["left_behind"] == planned["plan"]["left_behind"]

    # Its holder lets go: nothing of the VNF is left.
    kube.request("PATCH", held, {"metadata": {"finalizers": None}}, headers={"Content-Type": "application/merge-patch+json"})
    selector = urllib.parse.quote(OWNED + "=" + instance["id"])
    wait_for(lambda: not any(kube.call("GET", "{0}/namespaces/{1}/{2}?labelSelector={3}".format(base, ns, kind, selector))["items"]
                             for base, kind in (("/api/v1", "configmaps"), ("/api/v1", "secrets"), ("/api/v1", "pods"), ("/apis/apps/v1", "deployments"))),
             "nothing labelled left", timeout=30, sleep=0.5)
    listed = ansible_task("vnf_info", {"kubeconfig": auth["kubeconfig"], "namespace": ns})
    assert instance["id"] not in [item["id"] for item in listed["vnf_instances"]]
