# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Scale a VM-based VNF by steps (SCALE) or to levels (SCALE_TO_LEVEL): one stack update that adds or removes VNFCs
(``<VDU>-<idx>`` resources, or AutoScalingGroup members, the ones to go marked unhealthy first), and their retry or rollback."""

from __future__ import annotations

import copy
from typing import Any, Optional

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.form import form_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.plan import plan_lines, stack_plan
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.instantiated_info import marked_members, members_to_remove
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import (
    Waits,
    level_diff,
    levels_diff,
    private_state,
    vnfc_changes,
    vnfc_counts,
    with_scale_levels,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import instance_run
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.session import HeatVim
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.shared import (
    located_stack,
    refreshed,
    refuse_scripts,
    rescaled,
    stack_description,
    update_stack,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.state import VmState
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.sizing import changed_levels, counts_after, counts_at_levels
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.sizing import scale_level_after, target_scale_levels
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import SCALE_VNF_REQUEST, SCALE_VNF_TO_LEVEL_REQUEST
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import validate_scale_request, validate_scale_to_level_request
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED, current_scale_levels, require_instantiation_state

SCALE_IN_REASON = "removed by nfv.vnflcm (scale in)"


def run_scale(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_scale on OpenStack."""
    return instance_run.on_instance(session.connect(params), plan_scale, params, check_mode, diff_mode, name=occ.SCALE)


def run_scale_to_level(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_scale_to_level on OpenStack."""
    return instance_run.on_instance(session.connect(params), plan_scale_to_level, params, check_mode, diff_mode, name=occ.SCALE_TO_LEVEL)


def plan_scale(vim: HeatVim, store: RecordStore, found: Found, request: Optional[dict], waits: Optional[Waits] = None,
               preview: bool = False) -> Operation:
    """Scale an aspect by ``numberOfSteps`` within 0..max_scale_level: adds or removes ``<VDU>-<idx>`` resources."""
    waits = waits or Waits()
    instance, op_occs, version = found
    require_instantiation_state(instance, INSTANTIATED, occ.SCALE)
    private: VmState = private_state(instance)
    levels = current_scale_levels(instance)
    request = validate_scale_request(request, private["flavour"], levels)
    refuse_scripts(request, private, SCALE_VNF_REQUEST, occ.SCALE)
    aspect_id = request["aspectId"]
    level = scale_level_after(levels.get(aspect_id, 0), request)
    indexes = rescaled(private["vnfcs"], counts_after(private["flavour"], aspect_id, levels.get(aspect_id, 0), level, vnfc_counts(instance)))
    levels_plan = {"aspect_id": aspect_id, "from_level": levels.get(aspect_id, 0), "to_level": level}
    return scale_operation(vim, store, found, request, waits, {aspect_id: level}, indexes, levels_plan, preview,
                           diff=level_diff(aspect_id, levels.get(aspect_id, 0), level))


def plan_scale_to_level(vim: HeatVim, store: RecordStore, found: Found, request: Optional[dict], waits: Optional[Waits] = None,
                        preview: bool = False) -> Operation:
    """Scale to absolute levels (an instantiation level or per-aspect levels): one stack update with the VNFCs of every
    aspect whose level changes; nothing to do (no stack update) when every aspect is already at its target."""
    waits = waits or Waits()
    instance, op_occs, version = found
    require_instantiation_state(instance, INSTANTIATED, occ.SCALE_TO_LEVEL)
    private: VmState = private_state(instance)
    levels = current_scale_levels(instance)
    request = validate_scale_to_level_request(request)
    refuse_scripts(request, private, SCALE_VNF_TO_LEVEL_REQUEST, occ.SCALE_TO_LEVEL)
    changes = changed_levels(levels, target_scale_levels(private["flavour"], request, levels))
    levels_plan = {"from_levels": {aspect_id: pair[0] for aspect_id, pair in changes.items()},
                   "to_levels": {aspect_id: pair[1] for aspect_id, pair in changes.items()}}
    if not changes:
        plan = dict(levels_plan, operation=occ.SCALE_TO_LEVEL, vnf_instance_id=instance["id"], lines=["no change: already at the requested scale levels"])
        return Operation(occ.SCALE_TO_LEVEL, request, instance, plan, store, op_occs, version, changed=False)
    indexes = rescaled(private["vnfcs"], counts_at_levels(private["flavour"], changes, vnfc_counts(instance)))
    return scale_operation(vim, store, found, request, waits, levels_plan["to_levels"], indexes, levels_plan, preview,
                           name=occ.SCALE_TO_LEVEL, diff=levels_diff(changes))


def scale_operation(vim, store, found, request, waits, to_levels, indexes, levels_plan, preview=False, name=occ.SCALE, diff=None):
    """The stack update to VNFCs ``indexes`` that brings the aspects of ``to_levels`` to their levels (SCALE, SCALE_TO_LEVEL
    and their rollbacks, which restore the recorded VNFCs and change no level)."""
    instance, op_occs, version = found
    private: VmState = private_state(instance)
    stack = located_stack(instance)
    before, after = stack_description(private, private["vnfcs"]), stack_description(private, indexes)
    change = stack_plan(before, after)
    plan = dict(levels_plan, operation=name, vnf_instance_id=instance["id"], stack_name=stack["stack_name"], vnfcs=indexes,
                summary=change["summary"], lines=plan_lines(change))
    counts = {vdu_id: len(values) for vdu_id, values in indexes.items()}
    groups = form_of(private["base_template"]).groups
    if groups:
        # The groups' own lines say more than "resource <group>: changed".
        shown = {"resource {0}: changed".format(group) for group in groups.values()}
        plan["lines"] = group_lines(instance, groups, private["vnfcs"], counts) + [line for line in plan["lines"] if line not in shown]
    # Heat's verdict on the update before it is sent.
    changes = vim.stacks.preview_update(stack, after["template"], vim.stacks.files(stack), {"nfv": after["nfv"]})
    if preview:
        plan["preview"] = changes

    def execute(progress):
        old = instance["instantiatedVnfInfo"].get("vnfcResourceInfo") or []
        if groups:
            # Heat removes unhealthy members first when a group shrinks: mark the ones to go (read afresh, as a retry may follow a kill,
            # once an update an interrupted run sent has ended).
            vim.stacks.wait_settled(stack, waits.timeout)
            resources = vim.stacks.resources(stack)
            going = members_to_remove(resources, counts)
            # A scale in killed between its marks and its update left marks that this update (a rollback) must not act on.
            for member in marked_members(resources, SCALE_IN_REASON):
                if member not in going:
                    vim.stacks.mark_unhealthy(member, SCALE_IN_REASON, unhealthy=False)
            for member in going:
                vim.stacks.mark_unhealthy(member, SCALE_IN_REASON)
        update_stack(vim, stack, after["template"], after["nfv"], waits, progress)
        result = copy.deepcopy(instance)
        result["instantiatedVnfInfo"]["scaleStatus"] = with_scale_levels(result["instantiatedVnfInfo"].get("scaleStatus"), to_levels)
        result = refreshed(vim, result, stack, dict(private, vnfcs=indexes), after["nfv"])
        progress.resource_changes = vnfc_changes(old, result)
        return result

    return Operation(name, request, instance, plan, store, op_occs, version, execute=execute, diff=diff)


def group_lines(instance, groups, current, counts):
    """Plan lines of a scale in DefaultUserData: each group's new capacity and the members (newest first) it loses."""
    lines = []
    vnfcs = (instance.get("instantiatedVnfInfo") or {}).get("vnfcResourceInfo") or []
    for vdu_id, group in sorted(groups.items()):
        before, after = len(current.get(vdu_id) or []), counts.get(vdu_id, 0)
        if before == after:
            continue
        lines.append("{0}: desired_capacity {1} -> {2}".format(group, before, after))
        members = sorted((item for item in vnfcs if (item.get("metadata") or {}).get("scalingGroup") == group), key=lambda item: item["metadata"]["index"])
        lines += ["{0}: remove member {1} (server {2})".format(group, item["metadata"]["stackResource"], item["id"]) for item in members[after:]]
    return lines


def plan_resume(vim: HeatVim, store: RecordStore, found: Found, failed_op_occ: dict, event: str, waits: Optional[Waits] = None,
                package: Any = None) -> Operation:
    """Retry re-plans a SCALE / SCALE_TO_LEVEL from its operationParams; rollback restores the VNFCs before it. Either way
    from the record, which still has the VNFCs and levels from before the failed scale."""
    waits = waits or Waits()
    instance = found[0]
    operation = failed_op_occ["operation"]
    params = failed_op_occ.get("operationParams") or {}
    if event == "retry":
        return (plan_scale if operation == occ.SCALE else plan_scale_to_level)(vim, store, found, params, waits)
    levels = current_scale_levels(instance)
    if operation == occ.SCALE:
        aspect_id = params.get("aspectId")
        levels_plan = {"aspect_id": aspect_id, "from_level": levels.get(aspect_id, 0), "to_level": levels.get(aspect_id, 0)}
    else:
        levels_plan = {"to_levels": levels}
    return scale_operation(vim, store, found, params, waits, {}, private_state(instance)["vnfcs"], levels_plan, name=operation)
