# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""ChangeExtVnfConnectivity of a VM-based VNF on Heat (SOL003 ChangeExtVnfConnectivityRequest, as Tacker v2 does it).

Planned whole before the first write: the request against the instance's flavour (sol/change_ext_conn.py), the
networks, subnets and ports against the cloud, the new ``nfv`` CP values (heat/change_ext_conn.py) and Heat's
preview. The write is ONE stack PATCH of the ``nfv`` parameter (template and nested files unchanged): Heat
replaces the ports whose network, addresses or port change and re-attaches them, so the servers stay. The record
changes only when the update has gone through, so a FAILED_TEMP change keeps the connectivity from before: rollback
PATCHes the stack back to it, retry plans the op occ's request again.
"""

from __future__ import annotations

import copy
from typing import Any, Optional

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import change_ext_conn, change_pkg, nfv_params
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.form import form_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import Waits, private_state
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import instance_run
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.session import HeatVim
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.shared import (
    check_connectivity,
    located_stack,
    refuse_scripts,
    refuse_servers_in_error,
    refreshed,
    stack_description,
    stack_nfv,
    update_preview_summary,
    update_stack,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.state import VmState
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import change_ext_conn as sol_change_ext_conn
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import recordable_vims

WHAT = sol_change_ext_conn.WHAT


def run_change_ext_conn(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_change_ext_conn on OpenStack."""
    return instance_run.on_instance(session.connect(params), plan_change_ext_conn, params, check_mode, diff_mode, name=occ.CHANGE_EXT_CONN)


def plan_change_ext_conn(vim: HeatVim, store: RecordStore, found: Found, request: Optional[dict], waits: Optional[Waits] = None,
                         preview: bool = False, retry: bool = False) -> Operation:
    """The Operation that connects the request's external CPs to its links: no write when the stack already is so.
    ``retry``: the plan of a FAILED_TEMP op occ's retry, which goes on even where a server is in ERROR (its failed update
    may have left it so; the rollback is the way out)."""
    waits = waits or Waits()
    instance, op_occs, version = found
    private: VmState = private_state(instance)
    request = sol_change_ext_conn.validate_change_ext_conn_request(request, instance, private.get("flavour") or {})
    refuse_scripts(request, private, WHAT, occ.CHANGE_EXT_CONN)
    form = form_of(private["base_template"])
    new_request = change_ext_conn.request_after(private["request"], request, private["flavour"], private["vnfcs"], form)
    # The stack's nfv takes the instance's additionalParams.nfv last (its CP ports too), as the instantiate did.
    nfv_patch = (new_request.get("additionalParams") or {}).get("nfv")
    counts = {vdu_id: len(values) for vdu_id, values in (private["vnfcs"] or {}).items()}
    placeholders = nfv_params.ports_set_by_nfv(private["flavour"], request.get("extVirtualLinks") or [], counts, nfv_patch, WHAT, form)
    port_lines = check_connectivity(vim, request, WHAT, nfv_patch, placeholders, "the instance's InstantiateVnfRequest")
    new_private: VmState = dict(private, request=new_request)
    vim_connections = sol_change_ext_conn.vim_connections_after(instance, request)
    # As the record keeps it (no secrets), so that a re-run compares equal.
    vim_connections = recordable_vims(vim_connections) if vim_connections else None
    operation = _operation(vim, store, found, request, private, new_private, vim_connections, waits, preview)
    if not retry:
        vnfc_resources = instance["instantiatedVnfInfo"].get("vnfcResourceInfo") or []
        moved = change_ext_conn.moved_vnfcs(operation.plan["moves"], private["flavour"].get("cps") or {}, vnfc_resources)
        refuse_servers_in_error(vim, instance, moved, "change the external connectivity of")
    operation.plan["lines"] += port_lines
    return operation


def _operation(vim, store, found, request, private: VmState, new_private: VmState, vim_connections, waits, preview=False, rollback=False):
    """The stack update from ``private``'s connectivity to ``new_private``'s (a rollback: always sent, to undo what Heat did)."""
    instance, op_occs, version = found
    stack = located_stack(instance)
    before, after = stack_description(private, private["vnfcs"]), stack_description(new_private, private["vnfcs"])
    # A rollback starts from what the failed update left in Heat, not from the record.
    moves = change_ext_conn.cp_moves(stack_nfv(vim, stack) if rollback else before["nfv"], after["nfv"])
    same_record = new_private["request"] == private["request"] and (vim_connections or None) == (instance.get("vimConnectionInfo") or None)
    plan = {"operation": occ.CHANGE_EXT_CONN, "vnf_instance_id": instance["id"], "stack_name": stack["stack_name"], "moves": moves,
            "ext_virtual_links": copy.deepcopy(new_private["request"].get("extVirtualLinks") or []),
            "lines": change_ext_conn.move_lines(moves)}
    if rollback:
        plan["rollback"] = True
        plan["lines"] = ["stack {0}: nfv CP parameters back to those before the change (rollback)".format(stack["stack_name"])] + plan["lines"]
    elif not moves and same_record:
        plan["lines"] = ["no change: the external CPs already are on the requested links"]
        return Operation(occ.CHANGE_EXT_CONN, request, instance, plan, store, op_occs, version, changed=False)
    elif not moves:
        plan["lines"] = ["no stack update: the CPs' networks and addresses stay; the record takes the request's links"]
    if moves and not rollback:
        # Heat's verdict on the update before it is sent (an address in use shows only when Neutron is asked).
        changes = vim.stacks.preview_update(stack, after["template"], vim.stacks.files(stack), {"nfv": after["nfv"]})
        if preview:
            plan["preview"] = update_preview_summary(changes)
    old_info = instance["instantiatedVnfInfo"]

    def execute(progress):
        if moves or rollback:
            update_stack(vim, stack, None, after["nfv"], waits, progress)
        result = copy.deepcopy(instance)
        if vim_connections:
            result["vimConnectionInfo"] = copy.deepcopy(vim_connections)
        else:
            result.pop("vimConnectionInfo", None)
        result = refreshed(vim, result, stack, new_private, after["nfv"])
        new_info = result["instantiatedVnfInfo"]
        progress.resource_changes = change_pkg.resource_changes(old_info, new_info, {"vnfcs": []})
        progress.op_occ_fields = {"changedExtConnectivity": change_pkg.changed_ext_connectivity(old_info, new_info)}
        return result

    diff = {"before": {"extVirtualLinks": private["request"].get("extVirtualLinks") or [], "nfv_cp": before["nfv"].get("CP") or {}},
            "after": {"extVirtualLinks": new_private["request"].get("extVirtualLinks") or [], "nfv_cp": after["nfv"].get("CP") or {}}}
    return Operation(occ.CHANGE_EXT_CONN, request, instance, plan, store, op_occs, version, execute=execute, diff=diff)


def plan_resume(vim: HeatVim, store: RecordStore, found: Found, failed_op_occ: dict, event: str, waits: Optional[Waits] = None,
                package: Any = None) -> Operation:
    """Retry (plan the op occ's request again, against the record from before) or roll back (the stack to the record's CPs)."""
    waits = waits or Waits()
    instance = found[0]
    params = failed_op_occ.get("operationParams") or {}
    if event == "retry":
        return plan_change_ext_conn(vim, store, found, params, waits, retry=True)
    if event != "rollback":
        raise ConflictError(event, "{0} operation occurrence {1}".format(occ.CHANGE_EXT_CONN, failed_op_occ["id"]), "only retry and rollback are planned")
    private: VmState = private_state(instance)
    return _operation(vim, store, found, params, private, private, instance.get("vimConnectionInfo"), waits, rollback=True)
