# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""VDUs and their Kubernetes workloads: replica counts from the VNFD, VNFC records from live pods.

A VDU is the workload (Pod, Deployment, ReplicaSet, DaemonSet, StatefulSet) whose ``metadata.name`` is
the VDU's ``properties.name``. A pod belongs to a VDU when following its controller ownerReferences
(Pod -> ReplicaSet -> Deployment, Pod -> StatefulSet, ...) ends at that workload; names of pods are
never parsed. A VNFC's id follows its pod: the pod's UID, or the id an earlier record gave that same pod (by its UID;
records of older versions, which kept no UID, by its name). A pod that replaces another (a heal, a container update,
a change of package; a bare Pod or a StatefulSet's pod recreated under its name too) is a new VNFC with a new id, as
in Tacker v2, whose id is the pod's name: a UID is never reused, where a StatefulSet's pod names are.
"""

from __future__ import annotations

import copy

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import (
    DEF_FILES_FIELD, INSTANTIATE_VNF_REQUEST, describe, identity, kind_of, name_of, object_of)
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.def_files import WORKLOAD_KINDS
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import SCALE_VNF_REQUEST

VNFC_STARTED = "STARTED"
# Workloads whose pod count is spec.replicas.
SCALABLE_KINDS = ("Deployment", "ReplicaSet", "StatefulSet")


def vdu_workloads(flavour, manifests, what=INSTANTIATE_VNF_REQUEST):
    """VDU id -> the manifest record of its workload, for the VDUs the def files deploy (flavour order).

    A VDU may have no workload among the def files (it then has no VNFCs), but never two.
    """
    result = {}
    for vdu_id, vdu in flavour["vdus"].items():
        matches = [record for record in manifests if kind_of(record) in WORKLOAD_KINDS and name_of(record) == vdu.get("name")]
        if len(matches) > 1:
            raise ValidationError(what, DEF_FILES_FIELD, "VDU {0} (name {1}) matches more than one workload: {2}".format(
                vdu_id, vdu.get("name"), ", ".join(describe(record) for record in matches)))
        if matches:
            result[vdu_id] = matches[0]
    return result


def with_replicas(record, count, what=INSTANTIATE_VNF_REQUEST):
    """A copy of a VDU's workload record running ``count`` pods (None: as the manifest says).

    Deployments, ReplicaSets and StatefulSets get ``spec.replicas``; a bare Pod is always one pod;
    a DaemonSet runs one pod per node, so the VNFD's count does not apply to it and it is left as is.
    """
    result = copy.deepcopy(record)
    kind = kind_of(record)
    if count is None or kind == "DaemonSet":
        return result
    if kind in SCALABLE_KINDS:
        result["object"].setdefault("spec", {})["replicas"] = count
    elif count != 1:
        raise ValidationError(what, DEF_FILES_FIELD, "{0} is a single pod, but the VNFD asks for {1} instances".format(describe(record), count))
    return result


# Set by the API server, never by a def file: kept out of the record whatever a def file holds.
_SERVER_FIELDS = ("status",)
_SERVER_METADATA = ("managedFields", "resourceVersion", "uid", "creationTimestamp", "generation", "selfLink")


def vdu_records(resources, vdus):
    """VDU id -> a manifest-like record of its workload (its identity only): ``resources`` are the instance's object
    references, ``vdus`` VDU id -> ``{"name": its workload's name}``."""
    workloads = {item["name"]: item for item in resources or [] if item["kind"] in WORKLOAD_KINDS}
    return {vdu_id: {"file": None, "index": 0, "object": identity(workloads[vdu.get("name")])}
            for vdu_id, vdu in (vdus or {}).items() if vdu.get("name") in workloads}


def vdu_objects(vdu_records, deployed, counts):
    """VDU id -> its workload as deployed (Tacker v2's ``instantiatedVnfInfo.metadata.vdu_reses``): the def file's
    object with the instance's namespace and labels, ``spec.replicas`` at the VDU's count; nothing the API server adds.

    ``vdu_records``: VDU id -> a record naming its workload; ``deployed``: the deployed manifest records (workloads
    whole); ``counts``: VDU id -> VNFCs. A VDU whose workload is not among ``deployed`` has none.
    """
    objects = {(kind_of(record), name_of(record)): object_of(record) for record in deployed or () if kind_of(record) in WORKLOAD_KINDS}
    result = {}
    for vdu_id, record in vdu_records.items():
        obj = objects.get((kind_of(record), name_of(record)))
        if obj is None:
            continue
        obj = {key: copy.deepcopy(value) for key, value in obj.items() if key not in _SERVER_FIELDS}
        obj["metadata"] = {key: value for key, value in (obj.get("metadata") or {}).items() if key not in _SERVER_METADATA}
        if kind_of(obj) in SCALABLE_KINDS and counts.get(vdu_id) is not None:
            obj.setdefault("spec", {})["replicas"] = counts[vdu_id]
        result[vdu_id] = obj
    return result


def check_scalable(vdu_records, aspect_id, flavour, what=SCALE_VNF_REQUEST):
    """Every VDU an aspect scales must be a workload with replicas (not a bare Pod or a DaemonSet)."""
    for vdu_id in ((flavour.get("scaling_aspects") or {}).get(aspect_id) or {}).get("vdus") or {}:
        record = vdu_records.get(vdu_id)
        if record is not None and kind_of(record) not in SCALABLE_KINDS:
            raise ValidationError(what, "aspectId", "aspect {0} scales VDU {1}, which is {2}: only {3} can be scaled".format(
                aspect_id, vdu_id, describe(record), ", ".join(SCALABLE_KINDS)))


# ---------------------------------------------------------------------------------------------
# Which pods are a VDU's: ownerReference chains.

def controller_reference(obj):
    """The ownerReference with ``controller: true`` (the one Kubernetes' own controllers set), or None."""
    for ref in (obj.get("metadata") or {}).get("ownerReferences") or []:
        if isinstance(ref, dict) and ref.get("controller"):
            return ref
    return None


def top_controller(pod, owners_by_uid):
    """``(kind, name)`` of the object at the end of a pod's controller chain (the pod itself when bare).

    An owner missing from ``owners_by_uid`` ends the chain at its reference, so a pod of a ReplicaSet
    that was not listed is that ReplicaSet's, not its Deployment's: nothing is guessed.
    """
    kind, current = "Pod", pod
    seen = set()
    while True:
        ref = controller_reference(current)
        if ref is None or ref.get("uid") in seen:
            return kind, (current.get("metadata") or {}).get("name")
        seen.add(ref.get("uid"))
        owner = owners_by_uid.get(ref.get("uid"))
        if owner is None:
            return ref.get("kind"), ref.get("name")
        kind, current = ref.get("kind"), owner


def vdu_of_pods(vdu_records, pods, workloads=()):
    """``[(vdu_id, pod)]`` for the running (not terminating) pods of each VDU, in VDU order, oldest pod first.

    ``vdu_records``: vdu_workloads()'s answer; ``pods`` and ``workloads`` (ReplicaSets, Deployments,
    StatefulSets, DaemonSets, ...): plain objects as the API returns them.
    """
    owners_by_uid = {(obj.get("metadata") or {}).get("uid"): obj for obj in workloads}
    vdu_by_workload = {(kind_of(record), name_of(record)): vdu_id for vdu_id, record in vdu_records.items()}
    vdu_rank = {vdu_id: rank for rank, vdu_id in enumerate(vdu_records)}
    matched = []
    for pod in pods:
        metadata = pod.get("metadata") or {}
        if metadata.get("deletionTimestamp"):
            continue
        vdu_id = vdu_by_workload.get(top_controller(pod, owners_by_uid))
        if vdu_id is not None:
            matched.append((vdu_id, pod))
    matched.sort(key=lambda item: (vdu_rank[item[0]], item[1]["metadata"].get("creationTimestamp") or "", item[1]["metadata"].get("name") or ""))
    return matched


def previous_ids_by_pod(previous):
    """Pod UID (or, for records without one, pod name) -> the VNFC id an earlier record gave it."""
    ids = {}
    for entry in previous or []:
        metadata = entry.get("metadata") or {}
        key = metadata.get("podUid") or ("name", (entry.get("computeResource") or {}).get("resourceId"))
        ids[key] = entry["id"]
    return ids


def vnfc_resource_info(vdu_records, pods, workloads=(), previous=None, namespace=None, vim_connection_id=None):
    """SOL003 ``vnfcResourceInfo`` for the VDUs' pods; ids stay those of ``previous`` for pods that still exist."""
    previous_ids = previous_ids_by_pod(previous)
    result = []
    for vdu_id, pod in vdu_of_pods(vdu_records, pods, workloads):
        metadata = pod["metadata"]
        uid = metadata.get("uid")
        vnfc_id = previous_ids.get(uid) or previous_ids.get(("name", metadata.get("name"))) or uid or metadata.get("name")
        workload = vdu_records[vdu_id]
        handle = {"resourceId": metadata.get("name"), "vimLevelResourceType": kind_of(workload)}
        if vim_connection_id is not None:
            handle["vimConnectionId"] = vim_connection_id
        result.append({
            "id": vnfc_id,
            "vduId": vdu_id,
            "computeResource": handle,
            "metadata": {
                "namespace": metadata.get("namespace") or namespace,
                "podUid": uid,
                "workloadKind": kind_of(workload),
                "workloadName": name_of(workload),
            },
        })
    return result


def vnfc_info(resource_info, previous=None):
    """SOL003 ``vnfcInfo`` for ``vnfcResourceInfo`` entries, keeping what an earlier record configured per VNFC (a VNFC
    whose pod was replaced is a new VNFC: what was configured for the old one is not carried over)."""
    kept = {entry.get("id"): entry for entry in previous or []}
    result = []
    for resource in resource_info:
        vnfc_id = "{0}-{1}".format(resource["vduId"], resource["id"])
        entry = {"id": vnfc_id, "vduId": resource["vduId"], "vnfcResourceInfoId": resource["id"], "vnfcState": VNFC_STARTED}
        if (kept.get(vnfc_id) or {}).get("vnfcConfigurableProperties") is not None:
            entry["vnfcConfigurableProperties"] = copy.deepcopy(kept[vnfc_id]["vnfcConfigurableProperties"])
        result.append(entry)
    return result
