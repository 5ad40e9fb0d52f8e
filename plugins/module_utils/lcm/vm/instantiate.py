# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Instantiate a VM-based VNF: one Heat stack from the flavour's BaseHOT (or what a package user-data script the user allows makes of
it), and the retry or rollback of an instantiate left FAILED_TEMP."""

from __future__ import annotations

import copy
from typing import Any, Optional

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, PackageError, RecordUnwritable, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.runner import this_runner
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import nfv_params, user_data, user_data_policy
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import template as heat_template
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import HeatRecordStore, stack_name, stack_tags, with_record_resource
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import interface_scripts
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import PRIVATE, Waits, private_state, vnfc_changes
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import waits as waits_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import instantiation
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import heal, session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.drift import instance_drift
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.session import HeatVim
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.shared import (
    check_connectivity,
    check_flavours,
    desired_stack,
    indexes_for,
    load_form,
    max_scale_levels,
    preview_summary,
    recorded_flavour,
    refreshed,
    resolve_images,
    stack_description,
    timeout_mins,
    update_stack,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.state import VmState
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.sizing import initial_scale_status
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import INSTANTIATE_VNF_REQUEST, RECONCILE_REQUEST, validate_instantiate_request
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import recordable_vims
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED, NOT_INSTANTIATED, new_vnf_instance, with_instantiate_fields


def run_instantiate(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_instantiate on OpenStack (lcm/instantiation.py). It needs the VNFD and the BaseHOT (and a user-data script the user
    allows): hook scripts are the role's (they only warn here), and images come from Glance by name, not from the package."""
    vim = session.connect(params)

    def plan(package, name, description, metadata):
        return plan_instantiate(vim, package, name, params["request"], description, params.get("vnf_instance_id"), waits_of(params),
                                preview=check_mode or diff_mode, allow_scripts=params.get("allow_package_scripts"), metadata=metadata,
                                reconcile=params.get("reconcile", False))

    return instantiation.run_instantiate(vim, params, plan, check_mode, diff_mode)


def load_flavour_hot(package, flavour_id):
    try:
        return heat_template.load_base_hot(package, flavour_id)
    except PackageError as error:
        raise ValidationError(INSTANTIATE_VNF_REQUEST, "flavourId", "flavour {0!r} cannot be deployed on OpenStack: {1}".format(
            flavour_id, error.reason))


def instantiation_summary(request):
    """What makes two instantiate requests the same one (for idempotent re-runs)."""
    keys = ("flavourId", "instantiationLevelId", "extVirtualLinks", "extManagedVirtualLinks", "additionalParams")
    return {key: request.get(key) for key in keys}


def plan_instantiate(vim: HeatVim, package: Any, name: Optional[str], request: Optional[dict], description: Optional[str] = None,
                     instance_id: Optional[str] = None, waits: Optional[Waits] = None, preview: bool = False, allow_scripts: bool = False,
                     metadata: Optional[dict] = None, reconcile: bool = False) -> Operation:
    """Create (when needed) and instantiate a VM-based VNF: one Heat stack from the flavour's BaseHOT; a new instance
    has ``metadata``. An instance already instantiated so: its drift in the plan, and with ``reconcile`` repaired (the
    drifted VNFCs healed: lcm/vm/heal.py).

    ``allow_scripts``: the user's opt-in to a package user-data script the request names (heat/user_data.py) and to the VNFD's
    interface scripts (lcm/interface_scripts.py).
    """
    waits = waits or Waits()
    vnfd = package.to_dict()["vnfd"]
    request = validate_instantiate_request(request, vnfd)
    flavour_id = request["flavourId"]
    base_template, files = load_flavour_hot(package, flavour_id)
    flavour = package.flavour(flavour_id)
    store = HeatRecordStore(vim.stacks)
    found = store.find(instance_id, name)
    instance, op_occs, version = found or (new_vnf_instance(vnfd, name, description, metadata, instance_id), [], None)
    wanted = instantiation_summary(request)
    if instance.get("instantiationState") == INSTANTIATED:
        check_instantiated_as(instance, wanted)
        if reconcile:
            instantiation.check_package_of(instance, vnfd.get("descriptor_id"))
            return heal.plan_heal(vim, store, found, RECONCILE_REQUEST, waits)
        return already_instantiated(vim, instance, store, op_occs, version)

    if found is None:
        # A run creating an instance of this name now: said before anything else is checked.
        store.check_name_free(instance)
    level_id = request.get("instantiationLevelId")
    counts = nfv_params.vnfc_counts(flavour, level_id)
    indexes = indexes_for(counts)
    form = load_form(base_template)
    nfv_patch = (request.get("additionalParams") or {}).get("nfv")
    placeholders = nfv_params.ports_set_by_nfv(flavour, request.get("extVirtualLinks") or [], counts, nfv_patch, form=form)
    port_lines = check_connectivity(vim, request, nfv_patch=nfv_patch, placeholders=placeholders)
    private: VmState = {"flavour": recorded_flavour(flavour),
                        "base_template": base_template, "request": request, "instantiation": wanted, "vnfcs": indexes}
    private[interface_scripts.KEY] = interface_scripts.for_package(package, flavour_id, allow_scripts, INSTANTIATE_VNF_REQUEST)
    script = user_data_policy.script_of(request, form, INSTANTIATE_VNF_REQUEST, occ.INSTANTIATE, allow_scripts)
    names_nfv = nfv_params.build_nfv(private["flavour"], request, indexes, form=form)
    flavors = check_flavours(vim, names_nfv, request)
    private["images"] = resolve_images(vim, names_nfv, flavour, request)
    template, nfv = desired_stack(private, indexes, private["images"])
    if script:
        template, files, nfv = scripted_stack(package, script, request, instance, private, indexes, files, waits)
        check_flavours(vim, nfv, request, known=flavors)
    name_of_stack = stack_name(instance["id"])
    plan = {
        "operation": occ.INSTANTIATE,
        "vnf_instance_id": instance["id"],
        "stack_name": name_of_stack,
        "resources": {key: value.get("type") for key, value in sorted(template["resources"].items())},
        "nfv": nfv,
        "unresolved_nfv_params": heat_template.unresolved_nfv_params(template, nfv),
        "warnings": list(package.warnings),
        "lines": ["{0}: create ({1})".format(key, value.get("type")) for key, value in sorted(template["resources"].items())] + port_lines,
    }
    if script:
        plan["user_data"] = "{0} ({1}.instantiate)".format(script["path"], script["class"])
        plan["lines"].insert(0, "stack fields computed by the package user-data script " + plan["user_data"])
    # Heat's verdict on the whole stack before anything is created (it checks flavours, images, networks).
    shown = preview_summary(vim.stacks.preview_create(name_of_stack, template, files, {"nfv": nfv}))
    if preview:
        plan["preview"] = shown
    orphans = list(store.orphans)
    plan["lines"] += ["stack {0}: delete (left without a record by an interrupted instantiate)".format(item["stack_name"]) for item in orphans]
    vim_connection = request.get("vimConnectionInfo") or {}

    def execute(progress):
        for orphan in orphans:
            vim.stacks.delete_until_gone(orphan, waits.timeout)
        stack = vim.stacks.create(name_of_stack, template, files, {"nfv": nfv}, stack_tags(instance, this_runner()), timeout_mins(waits))
        progress["stack"] = stack
        # The record goes into the stack at once: should this process die now, a later run finds both.
        store.attach(stack)
        metadata = {PRIVATE: private, "nfv": nfv, "stack_id": stack["id"], "stack_name": stack["stack_name"]}
        try:
            progress.checkpoint(dict(instance, instantiatedVnfInfo={"flavourId": flavour_id, "metadata": metadata}))
        except RecordUnwritable as error:
            # Heat failed the create before it made the record's resource, so no op occ can be kept there: the stack
            # goes, and the instantiate ends as one whose create Heat refused (killed meanwhile: an orphan, deleted later).
            store.detach()
            progress.instance = instance
            vim.stacks.delete_until_gone(stack, waits.timeout)
            error.add_reason("the stack is deleted and nothing is kept: instantiate again once the cause is fixed")
            raise
        vim.stacks.wait(stack, "CREATE", None, waits.timeout, progress)
        result = with_instantiate_fields(dict(instance, instantiationState=INSTANTIATED), request)
        if vim_connection:
            result["vimConnectionInfo"] = recordable_vims(vim_connection)
        result["instantiatedVnfInfo"] = {"flavourId": flavour_id, "vnfState": "STARTED",
                                         "scaleStatus": initial_scale_status(flavour, level_id),
                                         "maxScaleLevels": max_scale_levels(flavour)}
        result = refreshed(vim, result, stack, private, nfv)
        progress.resource_changes = vnfc_changes([], result)
        return result

    diff = {"before": {"instantiationState": instance.get("instantiationState")},
            "after": {"instantiationState": INSTANTIATED, "stack": name_of_stack, "resources": plan["resources"], "nfv": nfv}}
    return Operation(occ.INSTANTIATE, request, instance, plan, store, op_occs, version, execute=execute, diff=diff,
                     scripts=private[interface_scripts.KEY])


def scripted_stack(package, script, request, instance, private: VmState, indexes, files, waits):
    """``(template, files, nfv)`` the package user-data script's ``instantiate`` returns; ``private`` keeps what later
    operations need to apply their built-in changes to that stack (:func:`desired_stack`)."""
    arguments = user_data.instantiate_arguments(request, instance, private["flavour"], indexes, "instantiate-" + instance["id"])
    fields = user_data.run_script(package, script, "instantiate", arguments, waits.timeout, INSTANTIATE_VNF_REQUEST)
    where = "the result of package user-data script {0} ({1}.instantiate)".format(script["path"], script["class"])
    if fields["template"] is None or fields["nfv"] is None:
        raise ValidationError(INSTANTIATE_VNF_REQUEST, "additionalParams." + user_data_policy.USER_DATA, where + " has no template or no nfv parameter")
    if heat_template.NFV_PARAM not in (fields["template"].get("parameters") or {}):
        raise ValidationError(INSTANTIATE_VNF_REQUEST, "additionalParams." + user_data_policy.USER_DATA,
                              where + ": its template does not take the nfv parameter")
    template = with_record_resource(fields["template"])
    private["user_data"] = {"script": script["path"], "class": script["class"], "stack": {"template": template, "nfv": fields["nfv"]},
                            "request": copy.deepcopy(request), "vnfcs": copy.deepcopy(indexes)}
    return template, files if fields["files"] is None else fields["files"], fields["nfv"]


def check_instantiated_as(instance, wanted):
    if private_state(instance).get("instantiation") != wanted:
        raise ConflictError("instantiate", "VNF instance {0}".format(instance["id"]),
                            "it is already INSTANTIATED with another request; terminate it first, or use vnf_scale / vnf_heal")


def already_instantiated(vim, instance, store, op_occs, version):
    """Nothing to do; the plan says how many objects drifted (lcm/instantiation.py drift_in_plan)."""
    metadata = instance["instantiatedVnfInfo"].get("metadata") or {}
    plan = {"operation": occ.INSTANTIATE, "vnf_instance_id": instance["id"], "stack_name": metadata.get("stack_name"),
            "lines": ["no change: already instantiated as requested"]}
    drifted = instantiation.drift_in_plan(plan, lambda: instance_drift(vim.conn, instance))
    if drifted:
        plan["lines"].append(drifted)
    return Operation(occ.INSTANTIATE, {}, instance, plan, store, op_occs, version, changed=False)


def plan_resume(vim: HeatVim, store: RecordStore, found: Found, failed_op_occ: dict, event: str, waits: Optional[Waits] = None,
                package: Any = None) -> Operation:
    """Rollback deletes the stack; retry updates it to the VNFCs the record has (the failed create's stack may lack some)."""
    waits = waits or Waits()
    params = failed_op_occ.get("operationParams") or {}
    instance, op_occs, version = found
    metadata = (instance.get("instantiatedVnfInfo") or {}).get("metadata") or {}
    private: Optional[VmState] = metadata.get(PRIVATE)
    if not metadata.get("stack_id") or not private:
        raise ConflictError(event, "INSTANTIATE of VNF instance {0}".format(instance["id"]), "no stack was created; fail it and instantiate again")
    stack = {"stack_name": metadata["stack_name"], "id": metadata["stack_id"]}
    if event == "rollback":
        plan = {"operation": occ.INSTANTIATE, "vnf_instance_id": instance["id"], "lines": ["stack {0}: delete (rollback)".format(stack["stack_name"])]}

        def rollback(progress):
            store.release_left_claim(instance)
            progress.release_record()
            vim.stacks.delete_until_gone(stack, waits.timeout)
            progress.delete_record = True
            result = {key: value for key, value in instance.items() if key != "instantiatedVnfInfo"}
            return dict(result, instantiationState=NOT_INSTANTIATED)

        return Operation(occ.INSTANTIATE, params, instance, plan, store, op_occs, version, execute=rollback)
    described = stack_description(private, private["vnfcs"])
    plan = {"operation": occ.INSTANTIATE, "vnf_instance_id": instance["id"], "lines": ["stack {0}: update (retry)".format(stack["stack_name"])]}
    flavour = private["flavour"]
    vim.stacks.preview_update(stack, described["template"], vim.stacks.files(stack), {"nfv": described["nfv"]})

    def retry(progress):
        store.release_left_claim(instance)
        update_stack(vim, stack, described["template"], described["nfv"], waits, progress)
        result = dict(instance, instantiationState=INSTANTIATED)
        result["instantiatedVnfInfo"] = {"flavourId": params.get("flavourId"), "vnfState": "STARTED",
                                         "scaleStatus": initial_scale_status(flavour, params.get("instantiationLevelId")),
                                         "maxScaleLevels": max_scale_levels(flavour)}
        result = refreshed(vim, result, stack, private, described["nfv"])
        progress.resource_changes = vnfc_changes([], result)
        return result

    return Operation(occ.INSTANTIATE, params, instance, plan, store, op_occs, version, execute=retry)
