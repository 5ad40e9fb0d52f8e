# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A CNF VNFC's id follows its pod (Tacker v2): a heal gives the new pod a new VNFC, REMOVED + ADDED; a retry heals what
the record still has and leaves alone a pod a first attempt replaced (lcm/cnf/heal.py, k8s/pods.py live_vnfc_info)."""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import heal
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import Waits
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Progress

NS = "ns1"


def pod(name, uid, owner_kind, owner_name, owner_uid):
    return {"metadata": {"name": name, "uid": uid, "namespace": NS, "creationTimestamp": "2026-01-01T00:00:0{0}Z".format(len(uid) % 10),
                         "ownerReferences": [{"kind": owner_kind, "name": owner_name, "uid": owner_uid, "controller": True}]},
            "status": {"conditions": [{"type": "Ready", "status": "True"}]}}


class Cluster:
    """A Deployment vdu2 (its ReplicaSet replaces a deleted pod under a new name) and a StatefulSet vdu3 (same name, new UID)."""

    def __init__(self):
        self.pods = {"vdu2-rs-a": pod("vdu2-rs-a", "ua", "ReplicaSet", "vdu2-rs", "rs-1"),
                     "vdu2-rs-b": pod("vdu2-rs-b", "ub", "ReplicaSet", "vdu2-rs", "rs-1"),
                     "vdu3-0": pod("vdu3-0", "us", "StatefulSet", "vdu3", "sts-1")}
        self.deleted, self.serial = [], 0

    def list(self, api_version, kind, namespace=None, selector=None):
        if kind == "Pod":
            return list(self.pods.values())
        return [{"kind": "ReplicaSet", "metadata": {"name": "vdu2-rs", "uid": "rs-1", "ownerReferences": [
            {"kind": "Deployment", "name": "vdu2", "uid": "dep-1", "controller": True}]}}] if kind == "ReplicaSet" else []

    def get(self, api_version, kind, name, namespace=None):
        if kind == "Pod":
            return self.pods.get(name)
        return {"kind": kind, "metadata": {"name": name, "uid": {"Deployment": "dep-1", "StatefulSet": "sts-1"}[kind]}}

    def delete(self, api_version, kind, name, namespace=None, **options):
        self.deleted.append(name)
        gone = self.pods.pop(name, None)
        if gone is None:
            return False
        self.serial += 1
        owner = gone["metadata"]["ownerReferences"][0]
        new_name = name if owner["kind"] == "StatefulSet" else "vdu2-rs-n{0}".format(self.serial)
        self.pods[new_name] = pod(new_name, "un{0}".format(self.serial), owner["kind"], owner["name"], owner["uid"])
        return True

    def replace_again(self, name):
        """A controller replaced the pod after a first attempt deleted it."""
        self.delete("v1", "Pod", name)
        self.deleted.pop()


def resource(uid, name, vdu, kind, workload, with_uid=True):
    metadata = {"namespace": NS, "workloadKind": kind, "workloadName": workload}
    if with_uid:
        metadata["podUid"] = uid
    return {"id": uid, "vduId": vdu, "computeResource": {"resourceId": name, "vimLevelResourceType": kind}, "metadata": metadata}


def record(cluster, with_uid=True):
    resources = [resource(item["metadata"]["uid"], name, "VDU3" if name.startswith("vdu3") else "VDU2",
                          "StatefulSet" if name.startswith("vdu3") else "Deployment", name[:4], with_uid)
                 for name, item in sorted(cluster.pods.items())]
    vdus = {"VDU2": {"name": "vdu2"}, "VDU3": {"name": "vdu3"}}
    return {"id": "i1", "instantiationState": "INSTANTIATED", "metadata": {"namespace": NS},
            "instantiatedVnfInfo": {
                "flavourId": "simple", "vnfcResourceInfo": resources,
                "vnfcInfo": [{"id": "{0}-{1}".format(item["vduId"], item["id"]), "vduId": item["vduId"], "vnfcResourceInfoId": item["id"],
                              "vnfcState": "STARTED", "vnfcConfigurableProperties": {"role": item["id"]}} for item in resources],
                "metadata": {"namespace": NS, "vnflcm": {
                    "flavour": {"vdus": vdus},
                    "resources": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "vdu2", "namespace": NS},
                                  {"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "vdu3", "namespace": NS}]}}}}


def run(operation):
    progress = Progress(op_occ_id="o1")
    return operation.execute(progress), progress


def changes(progress):
    return sorted((item["changeType"], item["vduId"], item["id"]) for item in progress.resource_changes["affectedVnfcs"])


def test_a_healed_vnfc_is_removed_and_its_new_pod_added_with_a_new_id_the_others_keep_theirs():
    cluster = Cluster()
    operation = heal.plan_heal(cluster, None, (record(cluster), [], 1), {"vnfcInstanceId": ["VDU2-ua"]}, Waits(enabled=False))
    result, progress = run(operation)
    info = result["instantiatedVnfInfo"]
    assert sorted(item["id"] for item in info["vnfcInfo"]) == ["VDU2-ub", "VDU2-un1", "VDU3-us"]
    assert changes(progress) == [("ADDED", "VDU2", "un1"), ("REMOVED", "VDU2", "ua")]
    # What was configured for the old VNFC went with it; the VNFCs that stay keep theirs.
    configured = {item["id"]: item.get("vnfcConfigurableProperties") for item in info["vnfcInfo"]}
    assert configured == {"VDU2-ub": {"role": "ub"}, "VDU2-un1": None, "VDU3-us": {"role": "us"}}


def test_a_statefulset_pod_recreated_under_its_name_is_a_new_vnfc_even_in_a_record_without_pod_uids():
    cluster = Cluster()
    operation = heal.plan_heal(cluster, None, (record(cluster, with_uid=False), [], 1), {"vnfcInstanceId": ["VDU3-us"]}, Waits(enabled=False))
    result, progress = run(operation)
    assert changes(progress) == [("ADDED", "VDU3", "un1"), ("REMOVED", "VDU3", "us")]
    # The pods that stay are found by name in such a record and keep their ids.
    assert sorted(item["id"] for item in result["instantiatedVnfInfo"]["vnfcResourceInfo"]) == ["ua", "ub", "un1"]


def test_a_retry_leaves_out_the_vnfcs_the_record_no_longer_has_and_does_not_replace_a_pod_twice():
    cluster = Cluster()
    found = (record(cluster), [], 1)
    cluster.replace_again("vdu3-0")  # a first attempt deleted it; the StatefulSet has made it again
    failed = {"id": "o1", "operation": "HEAL", "operationState": "FAILED_TEMP",
              "operationParams": {"vnfcInstanceId": ["VDU2-gone", "VDU3-us", "VDU2-ub"]}}
    operation = heal.plan_resume(cluster, None, found, failed, "retry", Waits(enabled=False))
    assert operation.plan["healed_before"] == ["VDU2-gone"]
    assert [item["vnfc"] for item in operation.plan["replace"]] == ["VDU3-us", "VDU2-ub"]
    result, progress = run(operation)
    assert cluster.deleted == ["vdu2-rs-b"] and progress["replaced_before"] == ["vdu3-0"]
    assert changes(progress) == [("ADDED", "VDU2", "un2"), ("ADDED", "VDU3", "un1"), ("REMOVED", "VDU2", "ub"), ("REMOVED", "VDU3", "us")]
    assert sorted(item["id"] for item in result["instantiatedVnfInfo"]["vnfcInfo"]) == ["VDU2-ua", "VDU2-un2", "VDU3-un1"]


def test_a_retry_left_with_no_vnfc_to_heal_reads_the_vnfcs_again_and_heals_nothing_more():
    cluster = Cluster()
    found = (record(cluster), [], 1)
    failed = {"id": "o1", "operation": "HEAL", "operationState": "FAILED_TEMP", "operationParams": {"vnfcInstanceId": ["VDU2-gone"]}}
    operation = heal.plan_resume(cluster, None, found, failed, "retry", Waits(enabled=False))
    assert operation.plan["replace"] == [] and operation.plan["healed_before"] == ["VDU2-gone"]
    result, progress = run(operation)
    assert cluster.deleted == [] and changes(progress) == []
    assert len(result["instantiatedVnfInfo"]["vnfcInfo"]) == 3
