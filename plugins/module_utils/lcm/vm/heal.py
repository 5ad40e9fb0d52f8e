# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Heal VNFCs of a VM-based VNF: their servers (with additionalParams.all their volumes too) marked unhealthy, then one stack update
that re-creates them; a HEAL left FAILED_TEMP can be retried only.

A repair of drift (``additionalParams.reconcile``, or vnf_instantiate's ``reconcile``) is such a heal of the VNFCs that
drifted (lcm/vm/drift.py): a new server has the recorded flavour and image, is created on the recorded
ports (a port detached by hand is attached again) with the recorded volumes, and a port or volume attached to the old
server by hand is left detached when Heat deletes it. VNFCs that did not drift keep their servers.

Heat replaces a server by detaching its ports, creating the new server on them, then deleting the old one. Nova refuses
to detach the ports of a server in ERROR (the state a failed compute host leaves, the one a heal is most often for), so
such a server is deleted before the update: its ports are free when the new server is created.
"""

from __future__ import annotations

from typing import Optional

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.cloud import sdk_errors
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.instantiated_info import heal_targets
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import Waits, private_state, retry_only, storage_changes, vnfc_changes
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import instance_run
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.drift import instance_drift
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.session import HeatVim
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.shared import IN_ERROR, located_stack, refreshed, refuse_scripts, server_status, update_stack
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.state import VmState
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import HEAL_VNF_REQUEST, heals_storage, reconciles, validate_heal_request
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED, require_instantiation_state

HEAL_REASON = "healed by nfv.vnflcm (HealVnfRequest)"
# How each drifted object of a VM-based VNF is repaired: its VNFC's server replaced.
REPLACE_SERVER = "replace server"


def run_heal(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_heal on OpenStack."""
    return instance_run.on_instance(session.connect(params), plan_heal, params, check_mode, diff_mode, name=occ.HEAL)


def plan_heal(vim: HeatVim, store: RecordStore, found: Found, request: Optional[dict], waits: Optional[Waits] = None,
              preview: bool = False) -> Operation:
    """Replace the servers of the named VNFCs (all VNFCs when none is named), with additionalParams.all their volumes too:
    mark them unhealthy, then update the stack."""
    waits = waits or Waits()
    instance, op_occs, version = found
    require_instantiation_state(instance, INSTANTIATED, occ.HEAL)
    request = validate_heal_request(request or {}, instance)
    refuse_scripts(request, private_state(instance), HEAL_VNF_REQUEST, occ.HEAL)
    info = instance["instantiatedVnfInfo"]
    by_vnfc = {item["id"]: item for item in info.get("vnfcInfo") or []}
    resources = {item["id"]: item for item in info.get("vnfcResourceInfo") or []}
    chosen = request.get("vnfcInstanceId") or sorted(by_vnfc)
    stack = located_stack(instance)
    plan = {"operation": occ.HEAL, "vnf_instance_id": instance["id"], "stack_name": stack["stack_name"]}
    if reconciles(request):
        drifted = instance_drift(vim.conn, instance)["objects"]
        servers = {item["server"] for item in drifted}
        chosen = [vnfc_id for vnfc_id in chosen if resources[by_vnfc[vnfc_id]["vnfcResourceInfoId"]]["computeResource"]["resourceId"] in servers]
        plan.update(drift="{0} objects".format(len(drifted)), repair=[dict(item, action=REPLACE_SERVER) for item in drifted])
        if not chosen:
            return Operation(occ.HEAL, request, instance, dict(plan, note="no drift to repair"), store, op_occs, version, changed=False)
    targets = [resources[by_vnfc[vnfc_id]["vnfcResourceInfoId"]] for vnfc_id in chosen]
    private: VmState = private_state(instance)
    plan["replace"] = [{"vnfc": vnfc_id, "server": item["computeResource"]["resourceId"], "resource": item["metadata"].get("stackResource")}
                       for vnfc_id, item in zip(chosen, targets)]
    # additionalParams.all (Tacker v2): the VNFCs' volumes are replaced too; without it they are kept and re-attached.
    storage = {item["id"]: item for item in info.get("virtualStorageResourceInfo") or []} if heals_storage(request) else {}
    for entry, item in zip(plan["replace"], targets):
        entry["volumes"] = [{"volume": volume_id, "storage": storage[volume_id].get("virtualStorageDescId")}
                            for volume_id in item.get("storageResourceIds") or [] if volume_id in storage]
    plan["lines"] = ["{0}: replace server {1}".format(item["resource"], item["server"]) for item in plan["replace"]]
    plan["lines"] += ["{0}: replace volume {1} ({2})".format(item["resource"], volume["volume"], volume["storage"])
                      for item in plan["replace"] for volume in item["volumes"]]
    server_ids = {item["computeResource"]["resourceId"] for item in targets}
    volume_ids = {volume["volume"] for item in plan["replace"] for volume in item["volumes"]}
    in_error = [item for item in plan["replace"] if server_status(vim.conn.compute, item["server"]) == IN_ERROR]
    plan["lines"] += ["{0}: server {1} is in ERROR, where Nova does not detach its ports: deleted before the stack update".format(
        item["resource"], item["server"]) for item in in_error]

    def execute(progress):
        marked = progress.setdefault("marked_unhealthy", [])
        # A retry may follow a run killed during its update: Heat takes marks once that update has ended.
        vim.stacks.wait_settled(stack, waits.timeout)
        for resource in heal_targets(vim.stacks.resources(stack), server_ids, volume_ids):
            vim.stacks.mark_unhealthy(resource, HEAL_REASON)
            marked.append(resource["physical_resource_id"])
        delete_servers(vim, [item["server"] for item in in_error], waits, progress)
        update_stack(vim, stack, None, None, waits, progress)
        result = refreshed(vim, instance, stack, private, instance["instantiatedVnfInfo"]["metadata"]["nfv"])
        progress.resource_changes = vnfc_changes(info.get("vnfcResourceInfo") or [], result)
        if volume_ids:
            progress.resource_changes.update(storage_changes(info.get("virtualStorageResourceInfo") or [], result))
        return result

    return Operation(occ.HEAL, request, instance, plan, store, op_occs, version, execute=execute)


def delete_servers(vim, server_ids, waits, progress):
    """Delete the servers and wait until Nova has (their ports are free then)."""
    compute = vim.conn.compute
    deleted = progress.setdefault("deleted_first", [])
    for server_id in server_ids:
        with sdk_errors("delete", "server " + server_id):
            compute.delete_server(server_id, ignore_missing=True)
        deleted.append(server_id)
    if server_ids:
        waits.deadline().poll(lambda: all(server_status(compute, server_id) is None for server_id in server_ids), "servers in ERROR to be deleted")


plan_resume = retry_only(plan_heal)
