# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""VDUs and their Kubernetes workloads: replica counts from the VNFD, VNFC records from live pods.

A VDU is the workload (Pod, Deployment, ReplicaSet, DaemonSet, StatefulSet) whose ``metadata.name`` is
the VDU's ``properties.name``. A pod belongs to a VDU when following its controller ownerReferences
(Pod -> ReplicaSet -> Deployment, Pod -> StatefulSet, ...) ends at that workload; names of pods are
never parsed. VNFC ids are the pod UIDs, or the id an earlier record gave the same pod.
"""

from __future__ import annotations

import copy

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import DEF_FILES_FIELD, INSTANTIATE_VNF_REQUEST, describe, kind_of, name_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.def_files import WORKLOAD_KINDS

SCALE_VNF_REQUEST = "ScaleVnfRequest"
SCALE_OUT = "SCALE_OUT"
SCALE_IN = "SCALE_IN"
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


# ---------------------------------------------------------------------------------------------
# How many pods: instantiation levels, initial deltas, scaling aspects.

def instantiation_level(flavour, level_id=None, what=INSTANTIATE_VNF_REQUEST):
    """The flavour's instantiation level ``level_id`` (default: the flavour's default level), or None when it has none."""
    level_id = level_id or flavour.get("default_instantiation_level")
    if level_id is None:
        return None
    levels = flavour.get("instantiation_levels") or {}
    if level_id not in levels:
        raise ValidationError(what, "instantiationLevelId", "{0!r} is not an instantiation level of the flavour (levels: {1})".format(
            level_id, ", ".join(sorted(levels)) or "none"))
    return levels[level_id]


def initial_replicas(flavour, vdu_id, level_id=None, what=INSTANTIATE_VNF_REQUEST):
    """Pods of a VDU at instantiation: its VduInstantiationLevels entry, else its VduInitialDelta.

    None means the VNFD says nothing, so the manifest's own ``replicas`` stands.
    """
    level = instantiation_level(flavour, level_id, what)
    count = ((level or {}).get("vdus") or {}).get(vdu_id)
    if count is None:
        count = (flavour.get("vdu_initial_delta") or {}).get(vdu_id)
    return count


def initial_scale_status(flavour, level_id=None, what=INSTANTIATE_VNF_REQUEST):
    """``scaleStatus`` after instantiation: each aspect at the level's ``scale_info`` level, else 0."""
    scale_info = (instantiation_level(flavour, level_id, what) or {}).get("scale_info") or {}
    return [{"aspectId": aspect_id, "scaleLevel": (scale_info.get(aspect_id) or {}).get("scale_level", 0)}
            for aspect_id in flavour.get("scaling_aspects") or {}]


def scale_level_after(current_level, request):
    """The aspect's level after a ScaleVnfRequest (numberOfSteps defaults to 1); range checks are replicas_for's."""
    steps = request.get("numberOfSteps", 1)
    return current_level + steps if request["type"] == SCALE_OUT else current_level - steps


def replicas_for(flavour, aspect_id, level, what=SCALE_VNF_REQUEST):
    """VDU id -> pods at scale ``level`` of an aspect: initial + the deltas of ``level`` steps.

    The level must lie in 0..max_scale_level, and the result within the VDU's max_number_of_instances.
    """
    aspects = flavour.get("scaling_aspects") or {}
    if aspect_id not in aspects:
        raise ValidationError(what, "aspectId", "{0!r} is not a scaling aspect of the flavour (aspects: {1})".format(
            aspect_id, ", ".join(sorted(aspects)) or "none"))
    aspect = aspects[aspect_id]
    max_level = aspect.get("max_scale_level") or 0
    if not isinstance(level, int) or isinstance(level, bool) or not 0 <= level <= max_level:
        raise ValidationError(what, "numberOfSteps", "aspect {0} would reach scale level {1}, outside 0..{2}".format(aspect_id, level, max_level))
    replicas = {}
    for vdu_id, deltas in (aspect.get("vdus") or {}).items():
        count = scale_base(flavour, vdu_id) + sum(step_delta(aspect_id, aspect, vdu_id, deltas, step) for step in range(level))
        check_vdu_maximum(flavour, vdu_id, count, aspect_id, level, what)
        replicas[vdu_id] = count
    return replicas


def scale_base(flavour, vdu_id):
    """Pods at scale level 0: VduInitialDelta, else the VDU profile's minimum, else 1."""
    initial = (flavour.get("vdu_initial_delta") or {}).get(vdu_id)
    if initial is None:
        initial = ((flavour["vdus"].get(vdu_id) or {}).get("vdu_profile") or {}).get("min_number_of_instances")
    return 1 if initial is None else initial


def step_delta(aspect_id, aspect, vdu_id, deltas, step):
    """Pods one step adds; ``step_deltas`` lists one delta per step, the last one repeating (SOL001)."""
    step_deltas = aspect.get("step_deltas") or []
    if not step_deltas:
        raise PackageError(None, "scaling aspect {0} has no step_deltas".format(aspect_id), what="VNFD")
    delta_id = step_deltas[min(step, len(step_deltas) - 1)]
    if deltas.get(delta_id) is None:
        raise PackageError(None, "VDU {0} has no number_of_instances for delta {1} of scaling aspect {2}".format(vdu_id, delta_id, aspect_id), what="VNFD")
    return deltas[delta_id]


def check_vdu_maximum(flavour, vdu_id, count, aspect_id, level, what):
    maximum = ((flavour["vdus"].get(vdu_id) or {}).get("vdu_profile") or {}).get("max_number_of_instances")
    if maximum is not None and count > maximum:
        raise ValidationError(what, "numberOfSteps", "scale level {0} of aspect {1} needs {2} instances of {3}, more than its maximum {4}".format(
            level, aspect_id, count, vdu_id, maximum))


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
    """SOL003 ``vnfcInfo`` for ``vnfcResourceInfo`` entries, keeping what an earlier record configured per VNFC."""
    kept = {entry.get("id"): entry for entry in previous or []}
    result = []
    for resource in resource_info:
        vnfc_id = "{0}-{1}".format(resource["vduId"], resource["id"])
        entry = {"id": vnfc_id, "vduId": resource["vduId"], "vnfcResourceInfoId": resource["id"], "vnfcState": VNFC_STARTED}
        if (kept.get(vnfc_id) or {}).get("vnfcConfigurableProperties") is not None:
            entry["vnfcConfigurableProperties"] = copy.deepcopy(kept[vnfc_id]["vnfcConfigurableProperties"])
        result.append(entry)
    return result
