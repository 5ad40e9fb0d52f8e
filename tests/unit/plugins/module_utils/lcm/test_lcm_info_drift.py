# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vnf_info's drift from a CNF's record (lcm/cnf/drift.py instance_drift)."""

from __future__ import annotations

import copy

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.drift import instance_drift
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import PRIVATE, VNFC_COUNTS

INSTANCE = "0c9e7f6a-0000-4000-8000-000000000002"
LABELS = {"app.kubernetes.io/managed-by": "nfv.vnflcm", "vnflcm.nfv/instance-id": INSTANCE}


def manifest(kind, name, api_version="v1", **fields):
    return dict({"apiVersion": api_version, "kind": kind, "metadata": {"name": name, "namespace": "ns1", "labels": dict(LABELS)}}, **fields)


VDU1 = manifest("Deployment", "vdu1", "apps/v1", spec={"replicas": 1, "template": {"spec": {"containers": [{"name": "c", "image": "a:1"}]}}})
HPA = manifest("HorizontalPodAutoscaler", "vdu1-hpa", "autoscaling/v2", spec={"scaleTargetRef": {"kind": "Deployment", "name": "vdu1"}})
SERVICE = manifest("Service", "svc", spec={"ports": [{"port": 80}]})
CONFIG = manifest("ConfigMap", "cm")


def instance(with_hpa=False, deployed=True):
    objects = [VDU1, SERVICE, CONFIG] + ([HPA] if with_hpa else [])
    resources = [{"apiVersion": obj["apiVersion"], "kind": obj["kind"], "name": obj["metadata"]["name"], "namespace": "ns1"} for obj in objects]
    private = {"resources": resources, "flavour": {"vdus": {"VDU1": {"name": "vdu1"}}}, VNFC_COUNTS: {"VDU1": 3}}
    if deployed:
        private["deployed"] = [{"file": "Files/kubernetes/{0}.yaml".format(obj["kind"].lower()), "index": 0,
                                "object": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm", "namespace": "ns1"}}
                                if obj["kind"] == "ConfigMap" else obj} for obj in objects]
    return {"id": INSTANCE, "vnfInstanceName": "cnf", "instantiationState": "INSTANTIATED",
            "instantiatedVnfInfo": {"flavourId": "simple", "metadata": {"namespace": "ns1", PRIVATE: private}}}


class Cluster:
    """The live objects, by kind; an apply in dry run answers its manifest (what the API server would keep)."""

    def __init__(self, objects):
        self.objects = objects
        self.applied = []

    def list(self, api_version, kind, namespace=None, label_selector=None):
        return [obj for obj in self.objects if obj["kind"] == kind]

    def get(self, api_version, kind, name, namespace=None):
        return None

    def apply(self, obj, field_manager, dry_run=False):
        assert dry_run
        self.applied.append(copy.deepcopy(obj))
        return copy.deepcopy(obj)


def live(obj, **spec):
    result = copy.deepcopy(obj)
    result["spec"] = dict(result.get("spec") or {}, **spec)
    result["status"] = {"observed": 1}
    return result


def test_the_record_s_replicas_are_expected_and_a_missing_object_is_named_with_its_file():
    cluster = Cluster([live(VDU1, replicas=3), CONFIG])
    report = instance_drift(cluster, instance())
    assert report["drifted"] == 1 and report["compared"] == "fields"
    assert report["objects"] == [{"apiVersion": "v1", "kind": "Service", "name": "svc", "namespace": "ns1", "file": "Files/kubernetes/service.yaml",
                                  "status": "missing"}]
    # the workload applied at the record's count; the ConfigMap, whose content the record does not keep, not applied
    assert [(obj["kind"], obj.get("spec", {}).get("replicas")) for obj in cluster.applied] == [("Deployment", 3)]


def test_replicas_set_by_hand_are_drift_unless_an_autoscaler_of_the_package_owns_them():
    cluster = Cluster([live(VDU1, replicas=5), SERVICE, CONFIG, HPA])
    assert instance_drift(cluster, instance())["objects"][0]["fields"] == [{"path": "spec.replicas", "expected": 3, "live": 5}]
    assert instance_drift(cluster, instance(with_hpa=True))["drifted"] == 0


def test_an_unexpected_object_and_a_record_without_manifests():
    extra = manifest("Service", "added")
    cluster = Cluster([live(VDU1, replicas=3), SERVICE, CONFIG, extra])
    assert instance_drift(cluster, instance())["objects"] == [
        {"apiVersion": "v1", "kind": "Service", "name": "added", "namespace": "ns1", "status": "unexpected"}]
    bare = Cluster([live(VDU1, replicas=9), SERVICE, CONFIG])
    report = instance_drift(bare, instance(deployed=False))
    assert report["compared"] == "presence" and report["drifted"] == 0 and bare.applied == []
