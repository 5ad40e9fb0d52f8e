# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The repair of a CNF's drift (lcm/cnf/reconcile.py plan_reconcile): what each drifted object gets, which workloads restart,
what check mode sees, and how its retry finds it again."""

from __future__ import annotations

import copy

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import drift
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import instantiation
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import heal, reconcile
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import PRIVATE, VNFC_COUNTS, Waits
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Progress

INSTANCE = "0c9e7f6a-0000-4000-8000-000000000003"
LABELS = {"app.kubernetes.io/managed-by": "nfv.vnflcm", "vnflcm.nfv/instance-id": INSTANCE}


def manifest(kind, name, api_version="v1", **fields):
    return dict({"apiVersion": api_version, "kind": kind, "metadata": {"name": name, "namespace": "ns1", "labels": dict(LABELS)}}, **fields)


def reading(name, config, key):
    container = {"name": "c", "image": "a:1", "env": [{"name": "V", "valueFrom": {"configMapKeyRef": {"name": config, "key": key}}}]}
    return manifest("Deployment", name, "apps/v1", spec={"replicas": 1, "template": {"spec": {"containers": [container]}}})


VDU1 = reading("vdu1", "cm1", "mode")
VDU2 = reading("vdu2", "cm2", "level")
SERVICE = manifest("Service", "svc", spec={"ports": [{"port": 80}]})
CM1 = manifest("ConfigMap", "cm1", data={"mode": "a"})
CM2 = manifest("ConfigMap", "cm2", data={"level": "1", "unused": "u"})
CONFIGS = {("ConfigMap", "cm1"): CM1, ("ConfigMap", "cm2"): CM2}


def identity(obj):
    return {"apiVersion": obj["apiVersion"], "kind": obj["kind"], "metadata": {"name": obj["metadata"]["name"], "namespace": "ns1"}}


def instance():
    objects = [CM1, CM2, VDU1, VDU2, SERVICE]
    resources = [{"apiVersion": obj["apiVersion"], "kind": obj["kind"], "name": obj["metadata"]["name"], "namespace": "ns1"} for obj in objects]
    deployed = [{"file": "Files/kubernetes/{0}.yaml".format(obj["metadata"]["name"]), "index": 0,
                 "object": identity(obj) if obj["kind"] == "ConfigMap" else obj} for obj in objects]
    private = {"resources": resources, "deployed": deployed, "flavour": {"vdus": {"VDU1": {"name": "vdu1"}, "VDU2": {"name": "vdu2"}}},
               VNFC_COUNTS: {"VDU1": 1, "VDU2": 1}}
    return {"id": INSTANCE, "vnfInstanceName": "cnf", "vnfdId": "vnfd-1", "instantiationState": "INSTANTIATED",
            "instantiatedVnfInfo": {"flavourId": "simple", "metadata": {"namespace": "ns1", PRIVATE: private}}}


class Cluster:
    """Live objects by (kind, name); an apply answers its manifest over the live object (what server-side apply keeps)."""

    def __init__(self, objects):
        self.objects = {(obj["kind"], obj["metadata"]["name"]): copy.deepcopy(obj) for obj in objects}
        self.writes = []

    def list(self, api_version, kind, namespace=None, label_selector=None):
        return [copy.deepcopy(obj) for (listed_kind, _name), obj in sorted(self.objects.items()) if listed_kind == kind]

    def get(self, api_version, kind, name, namespace=None):
        return copy.deepcopy(self.objects.get((kind, name)))

    def apply(self, obj, field_manager, dry_run=False):
        merged = dict(copy.deepcopy(self.objects.get((obj["kind"], obj["metadata"]["name"])) or {}), **copy.deepcopy(obj))
        if not dry_run:
            self.writes.append(("apply", obj["kind"], obj["metadata"]["name"]))
            self.objects[(obj["kind"], obj["metadata"]["name"])] = merged
        return merged

    def create(self, obj, namespace=None, dry_run=False):
        if not dry_run:
            self.writes.append(("create", obj["kind"], obj["metadata"]["name"]))
            self.objects[(obj["kind"], obj["metadata"]["name"])] = copy.deepcopy(obj)
        return obj

    def delete(self, api_version, kind, name, namespace=None, propagation="Background", grace_seconds=None, resource_version=None):
        self.writes.append(("delete", kind, name))
        return self.objects.pop((kind, name), None) is not None

    def patch(self, api_version, kind, name, namespace, patch, patch_type=None, dry_run=False):
        self.writes.append(("patch", kind, name))
        return self.objects[(kind, name)]


def drifted_cluster():
    """cm1's read key and cm2's unread key changed, vdu2 scaled by hand, the Service gone, a ConfigMap added."""
    cm1 = manifest("ConfigMap", "cm1", data={"mode": "b"})
    cm2 = manifest("ConfigMap", "cm2", data={"level": "1", "unused": "changed"})
    vdu2 = copy.deepcopy(VDU2)
    vdu2["spec"]["replicas"] = 3
    return Cluster([cm1, cm2, VDU1, vdu2, manifest("ConfigMap", "added", data={"x": "y"})])


def planned(cluster, configs="package", recorded=None):
    """The repair planned against ``cluster`` with the package's ConfigMaps (``configs``: others, or None)."""
    configs = CONFIGS if configs == "package" else configs
    return reconcile.plan_reconcile(cluster, None, (recorded or instance(), [], "1"), configs, Waits(enabled=False), refresh=lambda api, inst: inst)


def test_each_drifted_object_is_repaired_its_way_and_only_the_reader_of_a_restored_key_restarts():
    cluster = drifted_cluster()
    operation = planned(cluster)
    assert cluster.writes == [] and operation.changed and operation.name == "HEAL"
    assert operation.request == {"cause": "drift", "additionalParams": {"reconcile": True}}
    assert {(item["kind"], item["name"]): item["action"] for item in operation.plan["repair"]} == {
        ("ConfigMap", "cm1"): "apply", ("ConfigMap", "cm2"): "apply", ("Deployment", "vdu2"): "apply", ("Service", "svc"): "create",
        ("ConfigMap", "added"): "delete"}
    assert operation.plan["drift"] == "5 objects"
    assert [(item["name"], item["reasons"][0]["keys"]) for item in operation.plan["restart"]] == [("vdu1", ["mode"])]
    assert operation.diff["before"]["Deployment vdu2"] == {"spec.replicas": 3} and operation.diff["after"]["Deployment vdu2"] == {"spec.replicas": 1}
    assert operation.diff["before"]["Service svc"] == "absent" and operation.diff["after"]["ConfigMap added"] == "absent"

    progress = Progress()
    operation.execute(progress)
    # Deletes first, then in create order (ConfigMaps before the workloads that read them); the restart after the repairs.
    assert cluster.writes == [("delete", "ConfigMap", "added"), ("apply", "ConfigMap", "cm1"), ("apply", "ConfigMap", "cm2"),
                              ("create", "Service", "svc"), ("apply", "Deployment", "vdu2"), ("patch", "Deployment", "vdu1")]
    assert progress["restarted"] == [{"kind": "Deployment", "name": "vdu1"}]
    # Found again: nothing left to repair.
    again = planned(cluster)
    assert not again.changed and again.plan["note"] == "no drift to repair"


def test_without_the_package_configmaps_are_looked_for_and_a_missing_one_is_reported_not_repaired():
    cluster = drifted_cluster()
    del cluster.objects[("ConfigMap", "cm1")]
    operation = planned(cluster, configs=None)
    assert [(item["name"], item["action"]) for item in operation.plan["repair"]] == [("vdu2", "apply"), ("svc", "create"), ("added", "delete")]
    assert [item["name"] for item in operation.plan["not_repaired"]] == ["cm1"] and operation.plan["restart"] == []


def test_a_secret_s_values_are_masked_in_the_plan_and_the_diff():
    secret = manifest("Secret", "s1", data={"password": "c2VjcmV0"})
    live = manifest("Secret", "s1", data={"password": "aGFja2Vk"})
    inst = instance()
    inst["instantiatedVnfInfo"]["metadata"][PRIVATE]["resources"].append({"apiVersion": "v1", "kind": "Secret", "name": "s1", "namespace": "ns1"})
    cluster = Cluster([CM1, CM2, VDU1, VDU2, SERVICE, live])
    operation = planned(cluster, {**CONFIGS, ("Secret", "s1"): secret}, inst)
    shown = repr((operation.plan, operation.diff))
    assert "c2VjcmV0" not in shown and "aGFja2Vk" not in shown and drift.SECRET_MASK in shown


def test_a_repair_with_another_package_is_refused_and_a_retry_is_planned_again():
    with pytest.raises(ValidationError, match="vnfdId vnfd-1"):
        instantiation.check_package_of(instance(), "vnfd-2")
    failed = {"id": "occ-1", "operation": "HEAL", "operationParams": dict(reconcile.RECONCILE_REQUEST)}
    retried = heal.plan_resume(drifted_cluster(), None, (instance(), [failed], "1"), failed, "retry", Waits(enabled=False), refresh=lambda api, inst: inst)
    # Without the package, only what the record keeps is repaired; the ConfigMaps' content is not compared.
    assert [(item["name"], item["action"]) for item in retried.plan["repair"]] == [("vdu2", "apply"), ("svc", "create"), ("added", "delete")]


def test_a_heal_request_asking_for_a_repair_is_one_and_names_no_vnfc():
    repaired = heal.plan_heal(drifted_cluster(), None, (instance(), [], "1"), {"cause": "by hand", "additionalParams": {"reconcile": True}},
                              Waits(enabled=False), refresh=lambda api, inst, **kwargs: inst)
    # No package: the ConfigMaps are looked for only.
    assert repaired.plan["drift"] == "3 objects" and repaired.request["cause"] == "by hand"
    with pytest.raises(ValidationError, match="name no VNFC"):
        heal.plan_heal(drifted_cluster(), None, (instance(), [], "1"), {"vnfcInstanceId": ["x"], "additionalParams": {"reconcile": True}})
    with pytest.raises(ValidationError, match="additionalParams.reconcile"):
        heal.plan_heal(drifted_cluster(), None, (instance(), [], "1"), {"additionalParams": {"reconcile": "yes"}})
    helm_like = instance()
    del helm_like["instantiatedVnfInfo"]["metadata"][PRIVATE]["deployed"]
    with pytest.raises(ValidationError, match="keeps no deployed manifests"):
        heal.plan_heal(drifted_cluster(), None, (helm_like, [], "1"), {"additionalParams": {"reconcile": True}})


def test_reconcile_is_refused_before_any_connection_where_drift_is_not_repaired():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import instantiate as helm_instantiate
    with pytest.raises(ValidationError, match="reconcile"):
        helm_instantiate.run_instantiate({"reconcile": True})
