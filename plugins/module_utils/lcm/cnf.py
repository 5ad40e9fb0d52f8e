# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""CNF lifecycle on Kubernetes: each ``plan_*`` validates everything, plans, and returns an engine.Operation.

Nothing here writes before the plan is complete; the writes happen in the operation's
``prepare``/``execute``, which engine.run calls (never in check mode).
"""

from __future__ import annotations

import copy

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, NotFoundError, ValidationError, VimError, VnfLcmError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import DEF_FILES_PARAM, INSTANTIATE_VNF_REQUEST, describe, load_manifests
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.namespaces import instance_namespace, resolve_namespace, with_namespace
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ordering import sort_for_create, sort_for_delete
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ownership import INSTANCE_ID_LABEL, is_owned_by, label_record, resource_selector
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.store import SecretRecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.vnfc import (
    check_scalable,
    vdu_workloads,
    vnfc_info,
    vnfc_resource_info,
    with_replicas,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.readiness import is_ready
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.waiter import wait_gone, wait_ready
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import (
    PRIVATE,
    Waits,
    level_diff,
    levels_diff,
    private_state,
    scaled_aspects,
    sizing_rules,
    vnfc_changes,
    with_scale_levels,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.sizing import (
    changed_levels,
    initial_replicas,
    initial_scale_status,
    replicas_at_levels,
    replicas_for,
    scale_level_after,
    target_scale_levels,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import (
    SCALE_VNF_REQUEST,
    SCALE_VNF_TO_LEVEL_REQUEST,
    heals_storage,
    validate_heal_request,
    validate_instantiate_request,
    validate_scale_request,
    validate_scale_to_level_request,
    validate_terminate_request,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import new_vnf_instance, require_instantiation_state

INSTANTIATED = "INSTANTIATED"
NOT_INSTANTIATED = "NOT_INSTANTIATED"


def ref(obj):
    """How the record names a Kubernetes object."""
    meta = obj["metadata"]
    return {"apiVersion": obj["apiVersion"], "kind": obj["kind"], "name": meta["name"], "namespace": meta.get("namespace")}


# ---------------------------------------------------------------------------------------------
# Finding an instance.

def locate(api, namespace, instance_id=None, name=None):
    """``(store, (instance, op_occs, version))`` of an existing instance; NotFoundError names where it looked."""
    store = SecretRecordStore(api, namespace)
    found = store.find(instance_id, name)
    if found is None:
        raise NotFoundError("VNF instance {0} in namespace {1}".format(instance_id or repr(name), namespace))
    return store, found


# ---------------------------------------------------------------------------------------------
# Instantiate.

def plan_instantiate(api, package, name, request, description=None, instance_id=None, namespace_policy="rewrite",
                     allow_cluster_scoped=False, waits=None):
    """Create (when needed) and instantiate a CNF from ``package`` as ``request`` says."""
    waits = waits or Waits()
    vnfd = package.to_dict()["vnfd"]
    request = validate_instantiate_request(request, vnfd)
    flavour = vnfd["flavours"][request["flavourId"]]
    params = request.get("additionalParams") or {}
    manifests = load_manifests(package, request)
    namespace_plan = resolve_namespace(params.get("namespace"), manifests, api.is_namespaced, namespace_policy, allow_cluster_scoped)
    namespace = namespace_plan["namespace"]
    if not namespace_plan["creates_namespace"] and api.namespace_exists(namespace) is False:
        raise ValidationError("InstantiateVnfRequest", "additionalParams.namespace",
                              "namespace {0!r} does not exist and the def files do not create it".format(namespace))
    store = SecretRecordStore(api, namespace)
    found = store.find(instance_id, name)
    instance, op_occs, version = found or (new_vnf_instance(vnfd, name, description, instance_id=instance_id), [], None)
    wanted = instantiation_summary(request, namespace)
    if instance.get("instantiationState") == INSTANTIATED:
        return already_instantiated(instance, wanted, store, op_occs, version)

    level_id = request.get("instantiationLevelId")
    records = sized_records(flavour, namespace_plan["manifests"], level_id)
    records = sort_for_create([label_record(record, instance["id"]) for record in records])
    vdus = vdu_workloads(flavour, records)
    plan = {
        "operation": "INSTANTIATE",
        "vnf_instance_id": instance["id"],
        "namespace": namespace,
        "namespace_reason": namespace_plan["reason"],
        "namespace_rewrites": namespace_plan["rewrites"],
        "cluster_scoped": namespace_plan["cluster_scoped"],
        "warnings": namespace_plan["warnings"],
        "create": [dict(ref(record["object"]), file=record["file"]) for record in records],
        "vdus": {vdu_id: dict(ref(record["object"]), replicas=(record["object"].get("spec") or {}).get("replicas"))
                 for vdu_id, record in vdus.items()},
    }
    namespaces_first = [record["object"] for record in records if record["object"]["kind"] == "Namespace"]
    others = [record["object"] for record in records if record["object"]["kind"] != "Namespace"]
    # The API server's verdict on every object before the first write; objects in a namespace the
    # package itself creates can only be judged once it exists (prepare).
    to_create = [obj for obj in namespaces_first if api.get(obj["apiVersion"], obj["kind"], obj["metadata"]["name"]) is None]
    later = {obj["metadata"]["name"] for obj in to_create}

    def judged_now(record):
        obj = record["object"]
        return obj["metadata"]["name"] in later if obj["kind"] == "Namespace" else obj["metadata"].get("namespace") not in later

    dry_run_creates(api, [record for record in records if judged_now(record)], instance["id"])
    claimed = []

    def prepare():
        # The record lives in the VNF namespace, so a Namespace the package brings comes first.
        for obj in to_create:
            api.create(obj)
            claimed.append(ref(obj))
        try:
            dry_run_creates(api, [record for record in records if not judged_now(record)], instance["id"])
        except VnfLcmError:
            for item in claimed:
                api.delete(item["apiVersion"], item["kind"], item["name"])
            raise

    def execute(progress):
        created = progress.setdefault("created", list(claimed))
        for obj in others:
            create_or_adopt(api, obj, instance["id"])
            created.append(ref(obj))
        result = dict(instance, instantiationState=INSTANTIATED)
        result = with_namespace(result, namespace)
        private = {"flavour": sizing_rules(flavour), "resources": created, "instantiation": wanted, "deployed": deployed_manifests(records)}
        result["instantiatedVnfInfo"] = {
            "flavourId": request["flavourId"],
            "vnfState": "STARTED",
            "scaleStatus": initial_scale_status(flavour, level_id),
            "metadata": {"namespace": namespace, DEF_FILES_PARAM: params[DEF_FILES_PARAM], PRIVATE: private},
        }
        if request.get("vimConnectionInfo"):
            result["vimConnectionInfo"] = request["vimConnectionInfo"]
        if waits.enabled:
            wait_ready(api, others, waits.deadline())
        result = refresh_vnfcs(api, result, vdus)
        progress["resourceChanges"] = vnfc_changes([], result)
        return result

    # While it runs (and should it stop half-way), the record lists what it may have created, so that a
    # rollback needs no package and a terminate after a ``fail`` leaves nothing behind.
    pending = with_pending_resources(with_namespace(instance, namespace), request["flavourId"], namespace, [ref(record["object"]) for record in records])
    return Operation("INSTANTIATE", request, with_namespace(instance, namespace), plan, store, op_occs, version, prepare=prepare, execute=execute,
                     instance_while_running=pending,
                     diff={"before": {"instantiationState": instance.get("instantiationState")},
                           "after": {"instantiationState": INSTANTIATED, "namespace": namespace, "objects": [describe(r) for r in records]}})


def with_pending_resources(instance, flavour_id, namespace, resources):
    """A NOT_INSTANTIATED instance whose record lists the objects an unfinished instantiate may have created."""
    return dict(instance, instantiatedVnfInfo={"flavourId": flavour_id, "metadata": {"namespace": namespace, PRIVATE: {"resources": resources}}})


def recorded_resources(instance):
    """The objects the record says the instance has (or an unfinished instantiate may have created)."""
    return private_state(instance).get("resources") or []


def without_instantiated_info(instance):
    return {key: value for key, value in instance.items() if key not in ("instantiatedVnfInfo", "vimConnectionInfo")}


def dry_run_creates(api, records, instance_id, what=INSTANTIATE_VNF_REQUEST):
    """Ask the API server to create each object without storing it: RBAC, admission, quota, validation and size
    are judged before anything is written. An object that exists must be this instance's (a retry)."""
    for record in records:
        try:
            judged(what, record, create_or_adopt, api, record["object"], instance_id, dry_run=True)
        except ConflictError as error:
            raise ValidationError(what, record.get("file"), "{0}: {1}".format(describe(record), error.reason))


def judged(what, record, write, *args, **kwargs):
    """``write(*args, **kwargs)``, a dry-run write the API server judges without storing anything; its refusal names
    the object (and def file) of ``record``."""
    try:
        return write(*args, **kwargs)
    except VimError as error:
        refused = VimError("validate", what, "{0}: the Kubernetes API refuses it (server-side dry run): {1}".format(describe(record), error.reason))
        refused.status = getattr(error, "status", None)
        raise refused from error


def instantiation_summary(request, namespace):
    """What makes two instantiate requests the same one (for idempotent re-runs)."""
    params = request.get("additionalParams") or {}
    return {"flavourId": request["flavourId"], "instantiationLevelId": request.get("instantiationLevelId"),
            "defFiles": params.get(DEF_FILES_PARAM), "namespace": namespace}


def already_instantiated(instance, wanted, store, op_occs, version):
    done = private_state(instance).get("instantiation")
    if done != wanted:
        raise ConflictError("instantiate", "VNF instance {0}".format(instance["id"]),
                            "it is already INSTANTIATED as {0}, not {1}; terminate it first, or use vnf_scale / vnf_change_pkg".format(done, wanted))
    plan = {"operation": "INSTANTIATE", "vnf_instance_id": instance["id"], "namespace": wanted["namespace"], "create": [],
            "note": "already instantiated as requested"}
    return Operation("INSTANTIATE", {}, instance, plan, store, op_occs, version, changed=False)


def sized_records(flavour, records, level_id):
    """The manifest records with each VDU workload sized for the instantiation level."""
    sizes = {}
    for vdu_id, record in vdu_workloads(flavour, records).items():
        sizes[(record["file"], record["index"])] = initial_replicas(flavour, vdu_id, level_id)
    return [with_replicas(record, sizes[(record["file"], record["index"])]) if (record["file"], record["index"]) in sizes else record
            for record in records]


def deployed_manifests(records):
    """The manifest records as deployed, for a later container update to compare with a new package.

    ConfigMaps and Secrets keep only their identity: their content is read live, and Secret data
    must never reach the record (which every result shows).
    """
    return [dict(record, object=config_identity(record["object"])) if record["object"]["kind"] in ("ConfigMap", "Secret") else record
            for record in records]


def config_identity(obj):
    meta = obj["metadata"]
    return {"apiVersion": obj["apiVersion"], "kind": obj["kind"], "metadata": {"name": meta["name"], "namespace": meta.get("namespace")}}


def create_or_adopt(api, obj, instance_id, dry_run=False):
    """Create ``obj``; one that already exists is accepted only if this instance made it (a retry).

    Create first and read only on a conflict: a fresh instantiate then costs one call per object.
    """
    meta = obj["metadata"]
    try:
        return api.create(obj, dry_run=dry_run)
    except ConflictError:
        live = api.get(obj["apiVersion"], obj["kind"], meta["name"], meta.get("namespace"))
    if live is None or not is_owned_by(live, instance_id):
        raise ConflictError("create", describe(obj), "it already exists and does not belong to VNF instance {0}".format(instance_id))
    return live


# ---------------------------------------------------------------------------------------------
# VNFCs: pods found through ownerReferences, ids kept across operations.

def vdu_records_of(instance):
    """VDU id -> a manifest-like record of its workload, from the record's VDU/resource data."""
    state = private_state(instance)
    vdus = (state.get("flavour") or {}).get("vdus") or {}
    by_kind_name = {(item["kind"], item["name"]): item for item in state.get("resources") or []}
    records = {}
    for vdu_id, vdu in vdus.items():
        for kind in ("Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Pod"):
            item = by_kind_name.get((kind, vdu.get("name")))
            if item:
                records[vdu_id] = {"file": None, "index": 0, "object": {"apiVersion": item["apiVersion"], "kind": kind,
                                                                        "metadata": {"name": item["name"], "namespace": item["namespace"]}}}
    return records


def refresh_vnfcs(api, instance, vdus=None, healed_ids=()):
    """``instance`` with vnfcResourceInfo / vnfcInfo read from the live pods.

    ``healed_ids``: VNFC ids whose pods were replaced; the new pods take them over, oldest first.
    """
    vdus = vdus if vdus is not None else vdu_records_of(instance)
    namespace = instance_namespace(instance)
    selector = resource_selector(instance["id"])
    pods = api.list("v1", "Pod", namespace, selector)
    owners = api.list("apps/v1", "ReplicaSet", namespace, selector)
    for record in vdus.values():
        obj = record["object"]
        if obj["kind"] not in ("Pod", "ReplicaSet"):
            live = api.get(obj["apiVersion"], obj["kind"], obj["metadata"]["name"], namespace)
            if live:
                owners.append(live)
    info = copy.deepcopy(instance.get("instantiatedVnfInfo") or {})
    previous = info.get("vnfcResourceInfo") or []
    resources = vnfc_resource_info(vdus, pods, owners, previous, namespace)
    still_there = {item["id"] for item in resources}
    vdu_of = {item["id"]: item["vduId"] for item in previous}
    # Per VDU, so a replacement pod never takes over another VDU's VNFC id.
    reuse = {}
    for vnfc_id in healed_ids:
        if vnfc_id not in still_there:
            reuse.setdefault(vdu_of.get(vnfc_id), []).append(vnfc_id)
    for item in resources:
        if item["id"] not in vdu_of and reuse.get(item["vduId"]):
            item["id"] = reuse[item["vduId"]].pop(0)
    info["vnfcResourceInfo"] = resources
    info["vnfcInfo"] = vnfc_info(resources, info.get("vnfcInfo"))
    return dict(instance, instantiatedVnfInfo=info)


# ---------------------------------------------------------------------------------------------
# Scale, heal, terminate.

def plan_scale(api, store, found, request, waits=None):
    """Scale an aspect by ``numberOfSteps`` within 0..max_scale_level: one replicas patch per VDU workload."""
    waits = waits or Waits()
    instance, op_occs, version = found
    require_instantiation_state(instance, INSTANTIATED, "SCALE")
    flavour = private_state(instance)["flavour"]
    levels = {item["aspectId"]: item["scaleLevel"] for item in instance["instantiatedVnfInfo"].get("scaleStatus") or []}
    request = validate_scale_request(request, flavour, levels)
    aspect_id = request["aspectId"]
    if aspect_id not in levels:
        raise ValidationError("ScaleVnfRequest", "aspectId", "{0!r} is not an aspect of this instance (aspects: {1})".format(
            aspect_id, ", ".join(sorted(levels)) or "none"))
    level = scale_level_after(levels[aspect_id], request)
    replicas_for(flavour, aspect_id, level)
    plan = {"operation": "SCALE", "vnf_instance_id": instance["id"], "aspect_id": aspect_id, "from_level": levels[aspect_id], "to_level": level}
    return plan_levels(api, store, found, "SCALE", request, {aspect_id: level}, plan, waits, level_diff(aspect_id, levels[aspect_id], level))


def plan_scale_to_level(api, store, found, request, waits=None):
    """Scale to absolute levels (an instantiation level or per-aspect levels): one replicas patch per VDU of each aspect
    whose level changes; nothing to do (and no write) when every aspect is already at its target."""
    waits = waits or Waits()
    instance, op_occs, version = found
    require_instantiation_state(instance, INSTANTIATED, "SCALE_TO_LEVEL")
    flavour = private_state(instance)["flavour"]
    levels = {item["aspectId"]: item["scaleLevel"] for item in instance["instantiatedVnfInfo"].get("scaleStatus") or []}
    request = validate_scale_to_level_request(request)
    changes = changed_levels(levels, target_scale_levels(flavour, request, levels))
    plan = {"operation": "SCALE_TO_LEVEL", "vnf_instance_id": instance["id"],
            "from_levels": {aspect_id: pair[0] for aspect_id, pair in changes.items()},
            "to_levels": {aspect_id: pair[1] for aspect_id, pair in changes.items()}}
    if not changes:
        plan.update(replicas={}, note="already at the requested scale levels")
        return Operation("SCALE_TO_LEVEL", request, instance, plan, store, op_occs, version, changed=False)
    return plan_levels(api, store, found, "SCALE_TO_LEVEL", request, plan["to_levels"], plan, waits, levels_diff(changes), SCALE_VNF_TO_LEVEL_REQUEST)


def plan_levels(api, store, found, name, request, to_levels, plan, waits, diff, what=SCALE_VNF_REQUEST):
    """The operation that brings each aspect of ``to_levels`` (aspect id -> validated level) to its level: one replicas
    patch per VDU workload it scales, a wait, and the record's scaleStatus and VNFCs; shared by SCALE and SCALE_TO_LEVEL."""
    instance, op_occs, version = found
    flavour = private_state(instance)["flavour"]
    vdus = vdu_records_of(instance)
    for aspect_id in to_levels:
        check_scalable(vdus, aspect_id, flavour, what)
    targets = {vdu_id: (vdus[vdu_id]["object"], count) for vdu_id, count in replicas_at_levels(flavour, to_levels, what).items() if vdu_id in vdus}
    plan["replicas"] = {vdu_id: {"kind": obj["kind"], "name": obj["metadata"]["name"], "replicas": count} for vdu_id, (obj, count) in targets.items()}
    dry_run_replicas(api, targets.values(), what)

    def execute(progress):
        before = instance["instantiatedVnfInfo"].get("vnfcResourceInfo") or []
        scaled = []
        for obj, count in targets.values():
            meta = obj["metadata"]
            scaled.append(api.patch(obj["apiVersion"], obj["kind"], meta["name"], meta["namespace"], {"spec": {"replicas": count}}))
            progress.setdefault("scaled", []).append(ref(obj))
        if waits.enabled:
            wait_ready(api, scaled, waits.deadline())
        result = copy.deepcopy(instance)
        result["instantiatedVnfInfo"]["scaleStatus"] = with_scale_levels(result["instantiatedVnfInfo"].get("scaleStatus"), to_levels)
        result = refresh_vnfcs(api, result, vdus)
        progress["resourceChanges"] = vnfc_changes(before, result)
        return result

    return Operation(name, request, instance, plan, store, op_occs, version, execute=execute, diff=diff)


def dry_run_replicas(api, targets, what):
    """The API server's verdict on each replicas patch of a scale."""
    for obj, count in targets:
        meta = obj["metadata"]
        judged(what, {"object": obj}, api.patch, obj["apiVersion"], obj["kind"], meta["name"], meta["namespace"], {"spec": {"replicas": count}},
               dry_run=True)


def plan_scale_rollback(api, store, found, failed, waits=None):
    """Undo a FAILED_TEMP SCALE or SCALE_TO_LEVEL: every VDU of the aspects it set out to change back to the replicas of
    their recorded (pre-operation) levels."""
    waits = waits or Waits()
    instance, op_occs, version = found
    levels = {item["aspectId"]: item["scaleLevel"] for item in instance["instantiatedVnfInfo"].get("scaleStatus") or []}
    flavour = private_state(instance)["flavour"]
    back = {aspect_id: levels.get(aspect_id, 0) for aspect_id in scaled_aspects(flavour, failed, levels)}
    vdus = vdu_records_of(instance)
    targets = [(vdus[vdu_id]["object"], count) for vdu_id, count in replicas_at_levels(flavour, back).items() if vdu_id in vdus]
    plan = {"operation": failed["operation"], "vnf_instance_id": instance["id"], "rollback_of": failed["id"], "to_levels": back}
    if failed["operation"] == "SCALE":
        plan.update(aspect_id=next(iter(back)), to_level=next(iter(back.values())))
    dry_run_replicas(api, targets, "rollback of " + (SCALE_VNF_REQUEST if failed["operation"] == "SCALE" else SCALE_VNF_TO_LEVEL_REQUEST))

    def execute(progress):
        scaled = [api.patch(obj["apiVersion"], obj["kind"], obj["metadata"]["name"], obj["metadata"]["namespace"], {"spec": {"replicas": count}})
                  for obj, count in targets]
        if waits.enabled:
            wait_ready(api, scaled, waits.deadline())
        return refresh_vnfcs(api, instance, vdus)

    return Operation(failed["operation"], failed.get("operationParams"), instance, plan, store, op_occs, version, execute=execute)


def plan_instantiate_rollback(api, store, found, failed, package=None, waits=None):
    """Undo a FAILED_TEMP instantiate: delete what it created (the objects its record lists, else those of its
    def files in ``package``) that carry the instance's labels."""
    waits = waits or Waits()
    instance, op_occs, version = found
    request = failed.get("operationParams") or {}
    resources = recorded_resources(instance)
    if not resources:
        records = resolve_namespace(instance_namespace(instance), load_manifests(package, request), api.is_namespaced, allow_cluster_scoped=True)["manifests"]
        resources = [ref(record["object"]) for record in records]
    # A Namespace it created stays: the record (the instance, NOT_INSTANTIATED) lives there.
    created = sort_for_delete([item for item in resources if item["kind"] != "Namespace"])
    plan = {"operation": "INSTANTIATE", "vnf_instance_id": instance["id"], "rollback_of": failed["id"], "delete": created}

    def execute(progress):
        delete_owned(api, instance["id"], created, None, waits, progress)
        return without_instantiated_info(instance)

    return Operation("INSTANTIATE", request, instance, plan, store, op_occs, version, execute=execute)


def plan_heal(api, store, found, request, waits=None):
    """Replace the pods of the named VNFCs (all VNFCs when none is named); bare Pods are recreated under their name."""
    waits = waits or Waits()
    instance, op_occs, version = found
    require_instantiation_state(instance, INSTANTIATED, "HEAL")
    request = validate_heal_request(request or {}, instance)
    info = instance["instantiatedVnfInfo"]
    by_vnfc = {item["id"]: item for item in info.get("vnfcInfo") or []}
    resources = {item["id"]: item for item in info.get("vnfcResourceInfo") or []}
    chosen = request.get("vnfcInstanceId") or list(by_vnfc)
    targets = [resources[by_vnfc[vnfc_id]["vnfcResourceInfoId"]] for vnfc_id in chosen]
    plan = {"operation": "HEAL", "vnf_instance_id": instance["id"],
            "replace": [{"vnfc": vnfc_id, "pod": item["computeResource"]["resourceId"], "workload": item["metadata"]["workloadKind"]}
                        for vnfc_id, item in zip(chosen, targets)]}
    if heals_storage(request):
        # A VNFC's storage on Kubernetes is a PersistentVolumeClaim of the VNF, not of the pod: it outlives the pod and is kept.
        plan["note"] = "additionalParams.all: PersistentVolumeClaims are kept (they are not a pod's own storage); the pods are replaced"

    def execute(progress):
        namespace = instance_namespace(instance)
        deadline = waits.deadline()
        recreated = []
        for item in targets:
            pod_name = item["computeResource"]["resourceId"]
            old = api.get("v1", "Pod", pod_name, namespace)
            api.delete("v1", "Pod", pod_name, namespace, grace_seconds=0)
            progress.setdefault("deleted", []).append(pod_name)
            if item["metadata"]["workloadKind"] == "Pod" and old is not None:
                # A bare Pod has no controller to replace it: recreate it once its name is free.
                recreated.append(fresh_pod(old))
                recreate_pod(api, old, recreated[-1], deadline)
        wait_recreated(api, recreated, deadline)
        healed_ids = [item["id"] for item in targets]
        result = None
        if waits.enabled:
            deadline.poll(lambda: pods_replaced(api, instance, targets), "replacement pods of {0}".format(", ".join(chosen)))
            workloads = {item["metadata"]["workloadName"]: workload_of(instance, item) for item in targets if item["metadata"]["workloadKind"] != "Pod"}
            wait_ready(api, list(workloads.values()), deadline)
            # A workload's status can still be the one from before the pods were deleted: count the new pods themselves.
            wanted = vnfcs_per_vdu(instance)
            result = deadline.poll(lambda: with_vnfcs(refresh_vnfcs(api, instance, healed_ids=healed_ids), wanted),
                                   "replacement pods of {0} to be listed".format(", ".join(chosen)))
        result = result or refresh_vnfcs(api, instance, healed_ids=healed_ids)
        progress["resourceChanges"] = vnfc_changes(info.get("vnfcResourceInfo") or [], result)
        return result

    return Operation("HEAL", request, instance, plan, store, op_occs, version, execute=execute)


def workload_of(instance, vnfc_resource):
    """The workload a VNFC's pod belongs to, as an object reference to wait on."""
    meta = vnfc_resource["metadata"]
    return {"apiVersion": "v1" if meta["workloadKind"] == "Pod" else "apps/v1", "kind": meta["workloadKind"],
            "metadata": {"name": meta["workloadName"], "namespace": instance_namespace(instance)}}


def vnfcs_per_vdu(instance):
    counts = {}
    for item in (instance.get("instantiatedVnfInfo") or {}).get("vnfcResourceInfo") or []:
        counts[item["vduId"]] = counts.get(item["vduId"], 0) + 1
    return counts


def with_vnfcs(instance, wanted):
    """``instance`` when it has ``wanted`` VNFCs per VDU, else None (for a poll)."""
    return instance if vnfcs_per_vdu(instance) == wanted else None


def pods_replaced(api, instance, targets):
    """Every replaced pod is gone (or, for a bare Pod, back with a new UID)."""
    namespace = instance_namespace(instance)
    for item in targets:
        live = api.get("v1", "Pod", item["computeResource"]["resourceId"], namespace)
        if live is not None and live["metadata"].get("uid") == item["metadata"].get("podUid"):
            return False
    return True


def recreate_pod(api, old, new, deadline):
    """Create ``new`` under the name of the deleted pod ``old`` once that name is free (then :func:`wait_recreated`)."""
    wait_gone(api, [old], deadline)
    api.create(new)


def wait_recreated(api, pods, deadline):
    """Until every recreated bare Pod is there and ready.

    A deleter that does not check the UID (kwok finishes a deletion by name; a kubelet would not) can
    take a recreated pod when it comes late: such a pod is created again, until the deadline.
    """
    def back():
        ready = True
        for pod in pods:
            meta = pod["metadata"]
            live = api.get("v1", "Pod", meta["name"], meta.get("namespace"))
            if live is None:
                create_or_adopt(api, pod, (meta.get("labels") or {}).get(INSTANCE_ID_LABEL))
            ready = ready and live is not None and is_ready(live)
        return ready

    if pods:
        deadline.poll(back, "Pod {0} to be recreated".format(", ".join(pod["metadata"]["name"] for pod in pods)))


def fresh_pod(live):
    """A bare Pod to recreate under its name: its spec and identity, not its runtime state."""
    meta = live["metadata"]
    spec = {key: value for key, value in live["spec"].items() if key != "nodeName"}
    keep = {key: meta[key] for key in ("name", "namespace", "labels", "annotations") if key in meta}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": keep, "spec": spec}


def delete_owned(api, instance_id, resources, grace, waits, progress):
    """Delete those of ``resources`` (record references, in delete order) that carry the instance's labels; wait until gone."""
    deleted = progress.setdefault("deleted", [])
    for item in resources:
        live = api.get(item["apiVersion"], item["kind"], item["name"], item.get("namespace"))
        if live is None or not is_owned_by(live, instance_id):
            continue
        api.delete(item["apiVersion"], item["kind"], item["name"], item.get("namespace"), propagation="Foreground", grace_seconds=grace)
        deleted.append(item)
    if waits.enabled:
        wait_gone(api, [{"apiVersion": i["apiVersion"], "kind": i["kind"], "metadata": {"name": i["name"], "namespace": i.get("namespace")}}
                        for i in deleted], waits.deadline())
    return deleted


def plan_terminate(api, store, found, request, waits=None):
    """Delete what this instance created (ownership label checked), newest kinds first, and wait until it is gone."""
    waits = waits or Waits()
    instance, op_occs, version = found
    request = validate_terminate_request(request or {"terminationType": "GRACEFUL"})
    leftovers = instance.get("instantiationState") != INSTANTIATED and recorded_resources(instance)
    if instance.get("instantiationState") != INSTANTIATED and not leftovers:
        plan = {"operation": "TERMINATE", "vnf_instance_id": instance["id"], "delete": [], "note": "not instantiated"}
        return Operation("TERMINATE", request, instance, plan, store, op_occs, version, changed=False)
    # Not instantiated but with objects listed: what an instantiate that was failed (not rolled back) left.
    resources = sort_for_delete(recorded_resources(instance))
    grace = 0 if request["terminationType"] == "FORCEFUL" else request.get("gracefulTerminationTimeout")
    namespace = instance_namespace(instance)
    plan = {"operation": "TERMINATE", "vnf_instance_id": instance["id"], "namespace": namespace,
            "termination_type": request["terminationType"], "delete": resources}

    if leftovers:
        plan["note"] = "not instantiated: deleting what a failed instantiate left"

    def execute(progress):
        deleted = delete_owned(api, instance["id"], resources, grace, waits, progress)
        result = dict(without_instantiated_info(instance), instantiationState=NOT_INSTANTIATED)
        # The record lives in the namespace: when that goes, so does the record.
        progress["delete_record"] = any(item["kind"] == "Namespace" and item["name"] == namespace for item in deleted)
        progress["resourceChanges"] = vnfc_changes(instance["instantiatedVnfInfo"].get("vnfcResourceInfo") or [], result)
        return result

    return Operation("TERMINATE", request, instance, plan, store, op_occs, version, execute=execute,
                     diff={"before": {"instantiationState": instance.get("instantiationState")}, "after": {"instantiationState": NOT_INSTANTIATED}})
