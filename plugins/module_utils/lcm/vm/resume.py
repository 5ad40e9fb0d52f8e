# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Retry or rollback of a FAILED_TEMP op occ of a VM-based VNF: the resumer of its operation (``plan_resume`` of
lcm/vm/<operation>.py).

The record has what each resumer plans from; a package is used only to retry a MODIFY_INFO that changed vnfdId (the new
VNFD's identity is read from it, as vnf_modify read it) and a CHANGE_VNFPKG that stopped before it wrote to the stack.
"""

from __future__ import annotations

import copy
from typing import Any, Optional

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import OperationTimeout, ValidationError, VimError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.instantiated_info import marked_resources, vnfc_indexes
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import resumption
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import Waits, count_notes, levels_at, private_state, resumer_table, vnfc_counts, vnfc_notes
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import change_ext_conn, change_pkg, heal, instantiate, modify, scale, session, terminate
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.session import HeatVim
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.shared import located_stack, nfv_of, refreshed
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.state import VmState
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED

RESUMERS = resumer_table(instantiate, scale, heal, terminate, modify, change_pkg, change_ext_conn)
# Marks a heal or a scale in puts on resources for the stack update that replaces or removes them: a failed operation's
# update never comes, and the next operation's update would otherwise act on them unasked.
MARK_REASONS = (heal.HEAL_REASON, scale.SCALE_IN_REASON)


def run_resume(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_lcm_op_occ on OpenStack: retry, roll back or fail a FAILED_TEMP op occ. The record has what each needs, but for
    the retry of a MODIFY_INFO that changed vnfdId, or of a CHANGE_VNFPKG that wrote nothing: the new package, option package."""
    return resumption.run_resume(session.connect(params), params, package_of, plan_resume, as_failed, check_mode, diff_mode)


def package_of(params, event, failed, instance):
    """The package option, read only by the one resumer that uses it."""
    return params.get("package") if event == "retry" and failed.get("operation") in (occ.MODIFY_INFO, occ.CHANGE_VNFPKG) else None


def as_failed(vim, store, instance, failed, waits):
    """``(instance, notes)`` a fail records: a failed terminate's or instantiate's record says what is left (or the stack
    holding it is gone); an instantiated one is read again from the stack (:func:`as_live`), without the data a change of
    package keeps for its retry or rollback, which will now never come."""
    if failed["operation"] == occ.TERMINATE or instance.get("instantiationState") != INSTANTIATED:
        return None, ()
    return as_live(vim, store.drop_rollback(instance), waits)


def as_live(vim, instance, waits=None):
    """``(instance, notes)``: the record with its VNFCs, their resources, the VDUs' VNFC indexes and the scale levels read
    again from the stack, and what that changed. For ``fail``, which ends an operation wherever it stopped (a heal after
    its update replaced a server, a scale whose update Heat finished after the module was killed): the record then says
    what runs. An update Heat still runs (the killed run's) is waited for, within the wait's timeout; a mark for
    replacement the operation left (a heal's, a scale in's) is taken back, so that no later update acts on it."""
    waits = waits or Waits()
    private: VmState = private_state(instance)
    stack = located_stack(instance)
    notes = []
    try:
        current = vim.stacks.wait_settled(stack, waits.timeout if waits.enabled else 0)
    except OperationTimeout:
        current = vim.stacks.get(stack)
        notes.append("stack {0} was {1} when read".format(stack["stack_name"], current.get("stack_status")))
    resources = vim.stacks.resources(stack)
    if not current["stack_status"].endswith("_IN_PROGRESS"):
        notes.extend(unmarked(vim, resources))
    indexes = vnfc_indexes(resources, private.get("vnfcs") or {})
    recorded = vnfc_counts(instance)
    live = {vdu_id: len(values) for vdu_id, values in indexes.items()}
    notes.extend(count_notes(recorded, live, "VNFCs"))
    result = copy.deepcopy(instance)
    info = result["instantiatedVnfInfo"]
    if info.get("scaleStatus"):
        info["scaleStatus"] = levels_at(private.get("flavour") or {}, info["scaleStatus"], recorded, live, notes)
    result = refreshed(vim, result, stack, dict(private, vnfcs=indexes), nfv_of(current), resources=resources)
    notes.extend(vnfc_notes(instance, result, "server"))
    return result, notes


def unmarked(vim, resources):
    """Take back the marks for replacement of MARK_REASONS; the notes say which (and which could not be)."""
    notes = []
    for resource in marked_resources(resources, MARK_REASONS):
        try:
            vim.stacks.mark_unhealthy(resource, resource["resource_status_reason"], unhealthy=False)
            notes.append("{0}: its mark for replacement taken back".format(resource["resource_name"]))
        except VimError as error:
            notes.append("{0}: its mark for replacement stays ({1})".format(resource["resource_name"], error.msg))
    return notes


def plan_resume(vim: HeatVim, store: RecordStore, found: Found, failed_op_occ: dict, event: str, waits: Optional[Waits] = None,
                skip_coordination: bool = False, package: Any = None, params: Optional[dict] = None) -> Operation:
    """The operation that carries out ``event`` ("retry" or "rollback") for a FAILED_TEMP op occ of this instance.

    What may be retried or rolled back is sol/op_occ.py's one list (the engine checks it too); every operation on it has
    its resumer here. ``skip_coordination``: a rollback of CHANGE_VNFPKG without its old-VNF coordination hook.
    ``package`` (a VnfPackage or None): the new VNFD of a MODIFY_INFO that changed vnfdId, the new package of a CHANGE_VNFPKG
    that wrote nothing; every resumer takes it, the others ignore it. ``params``: the module's, whose skip_coordination
    is the one above.
    """
    occ.require_resumable(failed_op_occ, event)
    skip_coordination = skip_coordination or bool((params or {}).get("skip_coordination"))
    if skip_coordination:
        if event != "rollback" or failed_op_occ["operation"] != occ.CHANGE_VNFPKG:
            reason = "applies to the rollback of a CHANGE_VNFPKG only, not to the {0} of {1}".format(event, failed_op_occ["operation"])
            raise ValidationError("vnf_lcm_op_occ", change_pkg.SKIP_COORDINATION, reason)
        return change_pkg.plan_resume(vim, store, found, failed_op_occ, event, waits, skip_coordination=True)
    return RESUMERS[failed_op_occ["operation"]](vim, store, found, failed_op_occ, event, waits, package=package)
