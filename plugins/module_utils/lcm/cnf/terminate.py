# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Terminate a CNF on Kubernetes: what the instance created (ownership label checked) deleted, newest kinds first, with
the PersistentVolumeClaims its StatefulSets' volumeClaimTemplates made (as Tacker v2 does; k8s/claims.py).

A deletion held by finalizers nobody removes ends FAILED_TEMP naming the objects, within the no-progress window
(k8s/waiter.py); ``fail`` of that op occ then leaves the instance NOT_INSTANTIATED, its record listing what is still
there (record_after_fail), which a later terminate deletes and vnf_delete reports.
"""

from __future__ import annotations

from typing import Optional

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.api import KubeApi
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.claims import (
    CLAIM_OF,
    DELETE,
    DELETED_BY_KUBERNETES,
    KEEP,
    claim_action,
    claim_ref,
    claims_of,
    template_names,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.instance_objects import belongs, delete_owned
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.namespaces import instance_namespace
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ordering import sort_for_delete
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.record import rollback_name
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ownership import is_owned_by
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.waiter import DeletionStalled
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import interface_scripts
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.shared import recorded_resources, with_pending_resources
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import Waits, private_state, retry_only, vnfc_changes
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import validate_terminate_request
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED, NOT_INSTANTIATED, without_instantiated_info

WHY = {
    DELETE: "its StatefulSet sets no persistentVolumeClaimRetentionPolicy: deleted, as Tacker does",
    DELETED_BY_KUBERNETES: "its StatefulSet sets persistentVolumeClaimRetentionPolicy.whenDeleted: Delete: Kubernetes deletes it with the "
                           "StatefulSet; terminate waits until it is gone",
    KEEP: "its StatefulSet sets persistentVolumeClaimRetentionPolicy.whenDeleted: Retain: kept",
}
STALLED_NEXT = ("VNF instance {0} stays FAILED_TEMP: release what holds them, then retry (nfv.vnflcm.vnf_lcm_op_occ, action: retry); or "
                "fail it (action: fail): the instance is then NOT_INSTANTIATED, its record listing what is still there, and "
                "nfv.vnflcm.vnf_delete can delete its identifier")


def run_terminate(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_terminate on Kubernetes (lcm/delete.py: with delete_instance, the identifier goes next, on the same connection)."""
    # Imported here: the other modules that import this file (vnf_lcm_op_occ's resume) need nothing of them.
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import delete as identifier
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.delete import left_objects

    kube = session.connect(params)
    return identifier.run_terminate(kube, plan_terminate, params, left_objects(kube.api), check_mode, diff_mode)


def plan_terminate(api: KubeApi, store: RecordStore, found: Found, request: Optional[dict], waits: Optional[Waits] = None) -> Operation:
    """Delete what this instance created (ownership label checked) and its StatefulSets' claims, newest kinds first, and
    wait until it is gone."""
    waits = waits or Waits()
    instance, op_occs, version = found
    request = validate_terminate_request(request or {"terminationType": "GRACEFUL"})
    leftovers = instance.get("instantiationState") != INSTANTIATED and recorded_resources(instance)
    if instance.get("instantiationState") != INSTANTIATED and not leftovers:
        plan = {"operation": occ.TERMINATE, "vnf_instance_id": instance["id"], "delete": [], "note": "not instantiated"}
        return Operation(occ.TERMINATE, request, instance, plan, store, op_occs, version, changed=False)
    # Not instantiated but with objects listed: what an instantiate that was failed (not rolled back) left, or a
    # terminate that was failed.
    claims = volume_claims(api, instance)
    resources = sort_for_delete(merged(recorded_resources(instance), claims[DELETE]))
    grace = 0 if request["terminationType"] == "FORCEFUL" else request.get("gracefulTerminationTimeout")
    namespace = instance_namespace(instance)
    plan = {"operation": occ.TERMINATE, "vnf_instance_id": instance["id"], "namespace": namespace,
            "termination_type": request["terminationType"], "delete": resources}
    if any(claims.values()):
        plan["volume_claims"] = shown_claims(claims)
    if leftovers:
        plan["note"] = "not instantiated: deleting what a failed instantiate left (or a terminate that was failed)"
    # What a container update or a change of package kept for its rollback (Secret data included) when its run was
    # killed between its end record and removing it: no rollback can come once the VNF is gone. Read, so that a
    # terminate with none (the usual case) makes no write for it.
    rollback_left = api.get("v1", "Secret", rollback_name(instance["id"]), namespace) is not None
    if rollback_left:
        plan["rollback_data"] = "deleted: Secret {0}, left by an operation killed after its end".format(rollback_name(instance["id"]))

    def execute(progress):
        try:
            deleted = delete_owned(api, instance["id"], resources, grace, waits, progress, awaited=claims[DELETED_BY_KUBERNETES])
        except DeletionStalled as error:
            error.add_reason(STALLED_NEXT.format(instance["id"]))
            raise
        if rollback_left:
            store.drop_rollback(instance)
        result = dict(without_instantiated_info(instance), instantiationState=NOT_INSTANTIATED)
        # The record lives in the namespace: when that goes, so does the record.
        progress.delete_record = any(item["kind"] == "Namespace" and item["name"] == namespace for item in deleted)
        progress.resource_changes = vnfc_changes(instance["instantiatedVnfInfo"].get("vnfcResourceInfo") or [], result)
        return result

    return Operation(occ.TERMINATE, request, instance, plan, store, op_occs, version, execute=execute,
                     diff={"before": {"instantiationState": instance.get("instantiationState")}, "after": {"instantiationState": NOT_INSTANTIATED}})


plan_resume = retry_only(plan_terminate)


def record_after_fail(api, instance):
    """The record once a FAILED_TEMP terminate is failed: NOT_INSTANTIATED without VNFCs (their pods are gone or going),
    listing the objects of the VNF still there, as the record of a failed instantiate does; None when the record keeps
    no objects to look for. A later terminate deletes those; vnf_delete reports those held by finalizers."""
    if not recorded_resources(instance):
        return None
    claims = volume_claims(api, instance)
    left = []
    for item in merged(recorded_resources(instance), claims[DELETE] + claims[DELETED_BY_KUBERNETES]):
        live = api.get(item["apiVersion"], item["kind"], item["name"], item.get("namespace"))
        if live is not None and belongs(live, item, instance["id"]):
            left.append(item)
    result = dict(without_instantiated_info(instance), instantiationState=NOT_INSTANTIATED)
    if not left:
        return result
    scripts = interface_scripts.recorded(instance)
    pending = with_pending_resources(result, (instance.get("instantiatedVnfInfo") or {}).get("flavourId"), instance_namespace(instance), left)
    return interface_scripts.with_scripts(pending, scripts) if scripts else pending


def volume_claims(api, instance):
    """The live claims of the instance's StatefulSets by what terminate does with them (k8s/claims.py): ``{DELETE: [...],
    DELETED_BY_KUBERNETES: [...], KEEP: [...]}``, claim references. A StatefulSet is read live, or from the record when it
    is gone already (a retry): its claims may still be there. One list of claims per namespace, only when a
    StatefulSet has volumeClaimTemplates."""
    claims = {DELETE: [], DELETED_BY_KUBERNETES: [], KEEP: []}
    listed = {}
    for statefulset, declared in statefulsets_of(api, instance):
        if not template_names(statefulset):
            continue
        namespace = statefulset["metadata"].get("namespace")
        if namespace not in listed:
            listed[namespace] = api.list("v1", "PersistentVolumeClaim", namespace)
        claims[claim_action(declared)] += [claim_ref(claim, statefulset) for claim in claims_of(statefulset, listed[namespace])]
    return claims


def statefulsets_of(api, instance):
    """``[(statefulset, as declared)]`` of the instance: each live when it exists (and is the instance's; its replicas
    may have been scaled), else as the record deployed it; and as its def file declared it (the record's deployed
    manifest), for its retention policy: the API server fills in ``whenDeleted: Retain`` for a StatefulSet that says
    nothing, so the live object cannot tell a package's choice from the default."""
    deployed = {(record["object"]["kind"], record["object"]["metadata"]["name"]): record["object"]
                for record in private_state(instance).get("deployed") or []}
    found = []
    for item in recorded_resources(instance):
        if item["kind"] != "StatefulSet":
            continue
        declared = deployed.get(("StatefulSet", item["name"]))
        live = api.get(item["apiVersion"], item["kind"], item["name"], item.get("namespace"))
        if live is not None and is_owned_by(live, instance["id"]):
            found.append((live, declared or live))
        elif live is None and declared is not None:
            found.append((dict(declared, metadata=dict(declared["metadata"], namespace=item.get("namespace"))), declared))
    return found


def merged(resources, claims):
    """``resources`` and those of ``claims`` they do not name already (a record of a failed terminate lists claims too)."""
    named = {(item["kind"], item.get("namespace"), item["name"]) for item in resources}
    return list(resources) + [claim for claim in claims if ("PersistentVolumeClaim", claim.get("namespace"), claim["name"]) not in named]


def shown_claims(claims):
    """The plan's ``volume_claims``: each claim, its StatefulSet, what terminate does with it and why."""
    return [{"name": item["name"], "namespace": item.get("namespace"), "statefulset": item[CLAIM_OF]["statefulset"], "action": action,
             "why": WHY[action]} for action in (DELETE, DELETED_BY_KUBERNETES, KEEP) for item in claims[action]]
