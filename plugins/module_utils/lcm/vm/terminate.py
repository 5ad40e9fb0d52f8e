# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Terminate a VM-based VNF: GRACEFUL stops its servers first, then its stack (and the record in it) is deleted; a TERMINATE left
FAILED_TEMP can be retried only."""

from __future__ import annotations

from typing import Optional

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import OperationTimeout
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.cloud import sdk_errors
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import Waits, retry_only, vnfc_changes
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.session import HeatVim
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.shared import located_stack, server_status
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import validate_terminate_request
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED, NOT_INSTANTIATED, without_instantiated_info


def run_terminate(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_terminate on OpenStack (lcm/delete.py: with delete_instance, the identifier goes next, on the same connection)."""
    # Imported here: the other modules that import this file (vnf_lcm_op_occ's resume) need nothing of them.
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import delete as identifier
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.delete import left_stack

    return identifier.run_terminate(session.connect(params), plan_terminate, params, left_stack, check_mode, diff_mode, params["wait_timeout"])


def plan_terminate(vim: HeatVim, store: RecordStore, found: Found, request: Optional[dict], waits: Optional[Waits] = None,
                   preview: bool = False) -> Operation:
    """Delete the stack and wait until it is gone; GRACEFUL first stops the servers (up to gracefulTerminationTimeout)."""
    waits = waits or Waits()
    instance, op_occs, version = found
    request = validate_terminate_request(request or {"terminationType": "GRACEFUL"})
    # Not instantiated, but its record names a stack: what an instantiate that was failed (not rolled back) left.
    leftover = instance.get("instantiationState") != INSTANTIATED and ((instance.get("instantiatedVnfInfo") or {}).get("metadata") or {}).get("stack_id")
    if instance.get("instantiationState") != INSTANTIATED and not leftover:
        plan = {"operation": occ.TERMINATE, "vnf_instance_id": instance["id"], "lines": ["no change: not instantiated"]}
        return Operation(occ.TERMINATE, request, instance, plan, store, op_occs, version, changed=False)
    stack = located_stack(instance)
    servers = [item["computeResource"]["resourceId"] for item in instance["instantiatedVnfInfo"].get("vnfcResourceInfo") or []]
    graceful = request["terminationType"] == "GRACEFUL"
    plan = {"operation": occ.TERMINATE, "vnf_instance_id": instance["id"], "stack_name": stack["stack_name"],
            "termination_type": request["terminationType"], "stop_servers": servers if graceful else [],
            "lines": ["stack {0}: delete{1}".format(stack["stack_name"], " (not instantiated: what a failed instantiate left)" if leftover else "")]}

    def execute(progress):
        if graceful:
            stop_servers(vim, servers, request.get("gracefulTerminationTimeout", waits.timeout), progress)
        progress.release_record()
        vim.stacks.delete_until_gone(stack, waits.timeout)
        result = without_instantiated_info(instance)
        result["instantiationState"] = NOT_INSTANTIATED
        # The record lives in the stack, so it goes with it; the result still reports the final state.
        progress.delete_record = True
        progress.resource_changes = vnfc_changes(instance["instantiatedVnfInfo"].get("vnfcResourceInfo") or [], result)
        return result

    return Operation(occ.TERMINATE, request, instance, plan, store, op_occs, version, execute=execute,
                     diff={"before": {"instantiationState": instance.get("instantiationState"), "stack": stack["stack_name"]},
                           "after": {"instantiationState": NOT_INSTANTIATED}})


def stop_servers(vim, server_ids, timeout, progress):
    """Ask Nova to shut the servers down and give them ``timeout`` seconds; servers that do not stop are deleted anyway."""
    compute = vim.conn.compute
    stopping = []
    for server_id in server_ids:
        with sdk_errors("stop", "server " + server_id):
            server = compute.find_server(server_id, ignore_missing=True)
            if server is not None and server.status == "ACTIVE":
                compute.stop_server(server_id)
                stopping.append(server_id)
    progress["stopped"] = stopping
    end_wait = Waits(timeout=timeout, sleep=1).deadline()
    try:
        end_wait.poll(lambda: all(server_status(compute, server_id) in ("SHUTOFF", None) for server_id in stopping), "servers to stop")
    except OperationTimeout:
        progress.setdefault("warnings", []).append("servers did not stop within {0}s; deleting them anyway".format(timeout))


plan_resume = retry_only(plan_terminate)
