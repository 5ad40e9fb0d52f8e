# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Scale a Helm-chart CNF (by aspect, or to levels) as Tacker v2 does: ``helm upgrade --reuse-values`` of its release with
the kept chart (helm/kept_chart.py), setting the replica key (``helm_value_names``) of each VDU whose count changes; the
rollback of either sets the recorded counts back the same way.

Before the upgrade: the counts from the instance's levels (lcm/scaling.py), a VDU to scale without a replica key refused
(Tacker's HelmParameterNotFound), the kept chart read, and each replicas change judged by the API server (a server-side
dry run of the workload's patch).
"""

from __future__ import annotations

import functools
from typing import Any, Optional

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.pool import call_each
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.helm.kept_chart import kept_chart
from ansible_collections.nfv.vnflcm.plugins.module_utils.helm.request import scaled_set_values
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.instance_objects import judged
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.pods import prefer_deleting_added
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.waiter import wait_ready
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import instance_run, scaling
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import Waits, private_state, scaled_aspects, vnfc_changes, vnfc_counts, with_scale_levels
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.drivers import HELM_RELEASE
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm.chart import recorded_workloads, release_of, upgraded, with_vnfcs
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import SCALE_VNF_REQUEST, SCALE_VNF_TO_LEVEL_REQUEST


def run_scale(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_scale of a Helm-chart CNF."""
    return instance_run.on_instance(session.connect(params), plan_scale, params, check_mode, diff_mode, name=occ.SCALE)


def run_scale_to_level(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_scale_to_level of a Helm-chart CNF."""
    return instance_run.on_instance(session.connect(params), plan_scale_to_level, params, check_mode, diff_mode, name=occ.SCALE_TO_LEVEL)


def plan_scale(helm: session.HelmSession, store: RecordStore, found: Found, request: Optional[dict], waits: Optional[Waits] = None) -> Operation:
    asked = scaling.by_aspect(found[0], request)
    return plan_counts(helm, store, found, occ.SCALE, asked.request, asked.to_levels, asked.counts, vnfc_counts(found[0]), asked.plan,
                       waits or Waits(), asked.diff, SCALE_VNF_REQUEST, "aspectId")


def plan_scale_to_level(helm: session.HelmSession, store: RecordStore, found: Found, request: Optional[dict],
                        waits: Optional[Waits] = None) -> Operation:
    instance, op_occs, version = found
    asked = scaling.to_levels(instance, request)
    if not asked.to_levels:
        asked.plan.update(replicas={}, lines=["already at the requested scale levels"])
        return Operation(occ.SCALE_TO_LEVEL, asked.request, instance, asked.plan, store, op_occs, version, changed=False)
    return plan_counts(helm, store, found, occ.SCALE_TO_LEVEL, asked.request, asked.to_levels, asked.counts, vnfc_counts(instance), asked.plan,
                       waits or Waits(), asked.diff, SCALE_VNF_TO_LEVEL_REQUEST, "instantiationLevelId")


def plan_counts(helm, store, found, name, request, to_levels, counts, current, plan, waits, diff, what, where):
    """The upgrade that brings each VDU of ``counts`` to its count (those whose ``current`` count differs; every one when
    ``current`` is None) and each aspect of ``to_levels`` to its level; shared by SCALE, SCALE_TO_LEVEL and their rollback
    (``to_levels`` None: the record's levels stay)."""
    instance, op_occs, version = found
    state = release_of(instance)
    values = scaled_set_values(state.get("replicaKeys") or {}, counts, current, what, where)
    workloads = recorded_workloads(instance)
    changed = {vdu_id: count for vdu_id, count in sorted(counts.items()) if current is None or current.get(vdu_id) != count}
    current = current or {}
    plan = dict(plan, release=state["release"], replicas=changed,
                lines=["{0} (value {1}): replicas {2} -> {3}".format(vdu_id, state["replicaKeys"].get(vdu_id), current.get(vdu_id, "?"), count)
                       for vdu_id, count in changed.items()])
    chart = kept_chart(helm.api, instance["id"], state["namespace"], state["chartDigest"]) if values else None
    targets = [(workloads[vdu_id]["object"], count) for vdu_id, count in changed.items() if vdu_id in workloads]
    call_each([functools.partial(judged, what, {"object": obj}, helm.api.patch, obj["apiVersion"], obj["kind"], obj["metadata"]["name"],
                                 obj["metadata"]["namespace"], {"spec": {"replicas": count}}, dry_run=True) for obj, count in targets])

    def execute(progress):
        before = instance["instantiatedVnfInfo"].get("vnfcResourceInfo") or []
        if to_levels is None:
            # A rollback: the pods the failed scale added go first, the record's VNFCs stay.
            prefer_deleting_added(helm.api, state["namespace"], before, with_vnfcs(helm.api, instance)["instantiatedVnfInfo"].get("vnfcResourceInfo"))
        result = scaling.with_counts(instance, counts)
        if values:
            release = upgraded(helm.helm, chart, state, values, waits.timeout)
            progress.setdefault("upgraded", release.revision)
            private_state(result)[HELM_RELEASE]["revision"] = release.revision
        if waits.enabled:
            wait_ready(helm.api, [obj for obj, _count in targets], waits.deadline())
        if to_levels is not None:
            result["instantiatedVnfInfo"]["scaleStatus"] = with_scale_levels(result["instantiatedVnfInfo"].get("scaleStatus"), to_levels)
        result = with_vnfcs(helm.api, result)
        progress.resource_changes = vnfc_changes(before, result)
        return result

    return Operation(name, request, instance, plan, store, op_occs, version, execute=execute, diff=diff)


def plan_scale_rollback(helm: session.HelmSession, store: RecordStore, found: Found, failed: dict, waits: Optional[Waits] = None) -> Operation:
    """Undo a FAILED_TEMP SCALE or SCALE_TO_LEVEL: the VDUs of the aspects it set out to change back to their recorded
    (pre-operation) counts, by the same upgrade."""
    instance = found[0]
    flavour = private_state(instance)["flavour"]
    levels = scaling.levels_of(instance)
    back = scaled_aspects(flavour, failed, levels)
    recorded = vnfc_counts(instance)
    vdus = {vdu_id for aspect_id in back for vdu_id in ((flavour.get("scaling_aspects") or {}).get(aspect_id) or {}).get("vdus") or {}}
    counts = {vdu_id: recorded[vdu_id] for vdu_id in sorted(vdus) if vdu_id in recorded}
    what = "rollback of " + (SCALE_VNF_REQUEST if failed["operation"] == occ.SCALE else SCALE_VNF_TO_LEVEL_REQUEST)
    plan = {"operation": failed["operation"], "vnf_instance_id": instance["id"], "rollback_of": failed["id"]}
    # The failed scale did not change the record: its counts are the way back, each set whatever the release has now.
    return plan_counts(helm, store, found, failed["operation"], failed.get("operationParams"), None, counts, None, plan, waits or Waits(), None,
                       what, "vnfLcmOpOccId")


def plan_resume(helm: session.HelmSession, store: RecordStore, found: Found, failed: dict, event: str, waits: Optional[Waits], package: Any = None,
                params: Optional[dict] = None) -> Operation:
    """Retry plans the SCALE / SCALE_TO_LEVEL again from its operationParams; rollback sets the recorded counts back."""
    if event == "rollback":
        return plan_scale_rollback(helm, store, found, failed, waits)
    planner = plan_scale if failed["operation"] == occ.SCALE else plan_scale_to_level
    return planner(helm, store, found, failed.get("operationParams"), waits)
