# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Scale a CNF (by aspect, or to levels) on Kubernetes: replicas patches of its VDU workloads; the rollback of either."""

from __future__ import annotations

import functools
from typing import Any, Optional

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.pool import call_each
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.api import KubeApi
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.instance_objects import judged
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import ref
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.namespaces import instance_namespace
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.pods import prefer_deleting_added
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.vnfc import check_scalable
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.waiter import wait_ready
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import instance_run, scaling
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.shared import refresh_vnfcs, vdu_records_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import (
    Waits,
    private_state,
    scaled_aspects,
    vnfc_changes,
    vnfc_counts,
    with_scale_levels,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.scaling import with_counts
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import SCALE_VNF_REQUEST, SCALE_VNF_TO_LEVEL_REQUEST


def run_scale(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_scale on Kubernetes."""
    return instance_run.on_instance(session.connect(params), plan_scale, params, check_mode, diff_mode, name=occ.SCALE)


def run_scale_to_level(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_scale_to_level on Kubernetes."""
    return instance_run.on_instance(session.connect(params), plan_scale_to_level, params, check_mode, diff_mode, name=occ.SCALE_TO_LEVEL)


def plan_scale(api: KubeApi, store: RecordStore, found: Found, request: Optional[dict], waits: Optional[Waits] = None) -> Operation:
    """Scale an aspect by ``numberOfSteps`` within 0..max_scale_level: one replicas patch per VDU workload."""
    asked = scaling.by_aspect(found[0], request)
    return plan_levels(api, store, found, occ.SCALE, asked.request, asked.to_levels, asked.counts, asked.plan, waits or Waits(), asked.diff)


def plan_scale_to_level(api: KubeApi, store: RecordStore, found: Found, request: Optional[dict], waits: Optional[Waits] = None) -> Operation:
    """Scale to absolute levels (an instantiation level or per-aspect levels): one replicas patch per VDU of each aspect
    whose level changes; nothing to do (and no write) when every aspect is already at its target."""
    instance, op_occs, version = found
    asked = scaling.to_levels(instance, request)
    if not asked.to_levels:
        asked.plan.update(replicas={}, note="already at the requested scale levels")
        return Operation(occ.SCALE_TO_LEVEL, asked.request, instance, asked.plan, store, op_occs, version, changed=False)
    return plan_levels(api, store, found, occ.SCALE_TO_LEVEL, asked.request, asked.to_levels, asked.counts, asked.plan, waits or Waits(), asked.diff,
                       SCALE_VNF_TO_LEVEL_REQUEST)


def plan_levels(api, store, found, name, request, to_levels, counts, plan, waits, diff, what=SCALE_VNF_REQUEST):
    """The operation that brings each aspect of ``to_levels`` (aspect id -> validated level) to its level and each VDU of
    ``counts`` to its VNFC count: one replicas patch per VDU workload it scales, a wait, and the record's scaleStatus and
    VNFCs; shared by SCALE and SCALE_TO_LEVEL."""
    instance, op_occs, version = found
    flavour = private_state(instance)["flavour"]
    vdus = vdu_records_of(instance)
    for aspect_id in to_levels:
        check_scalable(vdus, aspect_id, flavour, what)
    current = vnfc_counts(instance)
    targets = {vdu_id: (vdus[vdu_id]["object"], count) for vdu_id, count in counts.items() if vdu_id in vdus}
    plan["replicas"] = {vdu_id: {"kind": obj["kind"], "name": obj["metadata"]["name"], "replicas": count} for vdu_id, (obj, count) in targets.items()}
    plan["lines"] = ["{0} ({1} {2}): replicas {3} -> {4}".format(vdu_id, obj["kind"], obj["metadata"]["name"], current.get(vdu_id, "?"), count)
                     for vdu_id, (obj, count) in sorted(targets.items())]
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
        result = with_counts(instance, counts)
        result["instantiatedVnfInfo"]["scaleStatus"] = with_scale_levels(result["instantiatedVnfInfo"].get("scaleStatus"), to_levels)
        result = refresh_vnfcs(api, result, vdus)
        progress.resource_changes = vnfc_changes(before, result)
        return result

    return Operation(name, request, instance, plan, store, op_occs, version, execute=execute, diff=diff)


def dry_run_replicas(api, targets, what):
    """The API server's verdict on each replicas patch of a scale."""
    call_each([functools.partial(judged, what, {"object": obj}, api.patch, obj["apiVersion"], obj["kind"], obj["metadata"]["name"],
                                 obj["metadata"]["namespace"], {"spec": {"replicas": count}}, dry_run=True) for obj, count in targets])


def plan_scale_rollback(api: KubeApi, store: RecordStore, found: Found, failed: dict, waits: Optional[Waits] = None) -> Operation:
    """Undo a FAILED_TEMP SCALE or SCALE_TO_LEVEL: every VDU of the aspects it set out to change back to its recorded
    (pre-operation) count."""
    waits = waits or Waits()
    instance, op_occs, version = found
    levels = {item["aspectId"]: item["scaleLevel"] for item in instance["instantiatedVnfInfo"].get("scaleStatus") or []}
    flavour = private_state(instance)["flavour"]
    back = {aspect_id: levels.get(aspect_id, 0) for aspect_id in scaled_aspects(flavour, failed, levels)}
    vdus = vdu_records_of(instance)
    recorded = vnfc_counts(instance)
    scaled = {vdu_id for aspect_id in back for vdu_id in ((flavour.get("scaling_aspects") or {}).get(aspect_id) or {}).get("vdus") or {}}
    targets = [(vdus[vdu_id]["object"], recorded[vdu_id]) for vdu_id in sorted(scaled) if vdu_id in vdus and vdu_id in recorded]
    plan = {"operation": failed["operation"], "vnf_instance_id": instance["id"], "rollback_of": failed["id"], "to_levels": back}
    if failed["operation"] == occ.SCALE:
        plan.update(aspect_id=next(iter(back)), to_level=next(iter(back.values())))
    dry_run_replicas(api, targets, "rollback of " + (SCALE_VNF_REQUEST if failed["operation"] == occ.SCALE else SCALE_VNF_TO_LEVEL_REQUEST))

    def execute(progress):
        live = refresh_vnfcs(api, instance, vdus)["instantiatedVnfInfo"].get("vnfcResourceInfo")
        prefer_deleting_added(api, instance_namespace(instance), instance["instantiatedVnfInfo"].get("vnfcResourceInfo"), live)
        scaled = [api.patch(obj["apiVersion"], obj["kind"], obj["metadata"]["name"], obj["metadata"]["namespace"], {"spec": {"replicas": count}})
                  for obj, count in targets]
        if waits.enabled:
            wait_ready(api, scaled, waits.deadline())
        return refresh_vnfcs(api, instance, vdus)

    return Operation(failed["operation"], failed.get("operationParams"), instance, plan, store, op_occs, version, execute=execute)


def plan_resume(api: KubeApi, store: RecordStore, found: Found, failed: dict, event: str, waits: Optional[Waits], package: Any = None,
                params: Optional[dict] = None) -> Operation:
    """Retry re-plans the SCALE / SCALE_TO_LEVEL from its operationParams; rollback brings the replicas back to the recorded
    levels."""
    if event == "rollback":
        return plan_scale_rollback(api, store, found, failed, waits)
    planner = plan_scale if failed["operation"] == occ.SCALE else plan_scale_to_level
    return planner(api, store, found, failed.get("operationParams"), waits)
