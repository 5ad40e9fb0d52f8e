# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vnf_modify on the OpenStack VIM: a VnfInfoModificationRequest applied to the record only.

The record lives in the instance's stack, written by signalling its record resource (heat/store.py), which is no
stack update: the modification changes the record and nothing of the VNF. The SOL003 semantics are the pure
sol/vnf_instance.apply_vnf_info_modification that the Kubernetes modify uses too.

A new vnfdId (with its package, option package) changes the record's VNFD identity only, as Tacker v2's Modify does; where
the new package does not describe what is deployed, the plan's warnings say how (:func:`deployment_differences`) and
nothing deployed changes: a package that is to change what is deployed is vnf_change_pkg's.
"""

from __future__ import annotations

import functools
from typing import Any, Optional

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import template as heat_template
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import name_claimer, new_vnfd_of, private_state, Waits
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import instance_run
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.session import HeatVim
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.shared import located_stack, recorded_flavour
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.state import VmState
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.yaml_loader import parse_yaml
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import validate_vnf_info_modification_request
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import without_vim_secrets
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED, apply_vnf_info_modification
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import modification_diff, modified_attributes

CHANGE_PKG_HINT = "a package that changes what is deployed is applied with nfv.vnflcm.vnf_change_pkg (ChangeCurrentVnfPkgRequest)"


def run_modify(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_modify on OpenStack: the record only; option package gives the VNFD of a new vnfdId."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import optional_package

    check_heat_options(params.get("delete_removed"))
    with optional_package(params.get("package")) as package:
        planner = functools.partial(plan_modify, package=package)
        return instance_run.on_instance(session.connect(params), planner, params, check_mode, diff_mode, name=occ.MODIFY_INFO)


def check_heat_options(delete_removed=False):
    """The option only a Kubernetes container update has is refused on Heat, naming it."""
    if delete_removed:
        raise ValidationError("module options", "delete_removed", "deletes ConfigMaps/Secrets of a Kubernetes container update; "
                              "it has no meaning on the OpenStack VIM")


def deployment_differences(vim, instance, package):
    """How a new VNFD differs from what is deployed (``[]`` when it describes it), as Tacker v2's Modify does not look:
    the record then takes the new VNFD's identity only and later operations build from what is deployed. What is
    compared, in order:

    1. the instance's flavour (instantiatedVnfInfo.flavourId) is a flavour of the new VNFD (else nothing more is);
    2. its VDUs have the same ids;
    3. that flavour as the record keeps it for later operations (lcm/vm/shared.recorded_flavour: VDUs with their Nova
       flavours, images and storages, CPs, virtual links, scaling aspects, instantiation levels) is the same;
    4. its BaseHOT is the one deployed: the top template equal (as parsed YAML) to the record's, and each nested
       template of the flavour equal (as parsed YAML) to the stack's file of that name.
    """
    private: VmState = private_state(instance)
    flavour_id = instance["instantiatedVnfInfo"].get("flavourId")
    try:
        flavour = package.flavour(flavour_id)
    except PackageError:
        return ["it has no flavour {0!r}".format(flavour_id)]
    differences = []
    old_vdus, new_vdus = sorted(private["flavour"].get("vdus") or {}), sorted(flavour.get("vdus") or {})
    if old_vdus != new_vdus:
        differences.append("the VDUs of flavour {0} are {1}, not {2}".format(flavour_id, ", ".join(new_vdus) or "none", ", ".join(old_vdus)))
    new_flavour = recorded_flavour(flavour)
    differing = sorted(key for key in set(new_flavour) | set(private["flavour"]) if new_flavour.get(key) != private["flavour"].get(key))
    if differing:
        differences.append("flavour {0} differs in {1}".format(flavour_id, ", ".join(differing)))
    try:
        template, files = heat_template.load_base_hot(package, flavour_id)
    except PackageError as error:
        return differences + ["its BaseHOT of flavour {0} cannot be read: {1}".format(flavour_id, error.reason)]
    if template != private["base_template"]:
        differences.append("the top Heat template of flavour {0} is not the one deployed".format(flavour_id))
    deployed = vim.stacks.files(located_stack(instance)) or {}
    differences.extend("the nested Heat template {0} is not the one deployed".format(name) for name, text in sorted(files.items())
                       if name not in deployed or _parsed(text, name) != _parsed(deployed[name], name))
    return differences


def _parsed(text, name):
    try:
        return parse_yaml(text, name)
    except PackageError:
        return text


def plan_modify(vim: HeatVim, store: RecordStore, found: Found, request: Optional[dict], waits: Optional[Waits] = None, preview: bool = False,
                package: Any = None) -> Operation:
    """MODIFY_INFO on a Heat instance: one record write (a signal), no stack update; nothing when nothing changes."""
    instance, op_occs, version = found
    request = validate_vnf_info_modification_request(request)
    new_vnfd = new_vnfd_of(instance, request, package)
    modified = apply_vnf_info_modification(instance, request, new_vnfd)
    instantiated = instance.get("instantiationState") == INSTANTIATED
    differences = deployment_differences(vim, instance, package) if new_vnfd is not None and instantiated else []
    claim_name = name_claimer(store, instance, modified)
    keys = modified_attributes(instance, modified)
    diff = modification_diff(instance, modified)
    vnfc_labels = sorted(label for label in diff["after"] if label not in keys)
    plan = {"operation": occ.MODIFY_INFO, "vnf_instance_id": instance["id"], "modifications": {key: modified.get(key) for key in keys},
            "lines": ["{0}: modify (record only, no stack update)".format(label) for label in keys + vnfc_labels] or ["no change"]}
    if new_vnfd is not None:
        why = ("the instance is not instantiated" if not instantiated else
               "the record's VNFD identity only: what is deployed stays, and later operations build from it" if differences else
               "the new package describes what is deployed (flavour, VDUs, Heat templates)")
        plan["lines"].insert(0, "vnfdId {0} -> {1}: {2}".format(instance.get("vnfdId"), modified["vnfdId"], why))
    if differences:
        plan["warnings"] = ["VNFD {0!r} does not describe what is deployed: {1}; nothing deployed changes ({2})".format(
            modified["vnfdId"], difference, CHANGE_PKG_HINT) for difference in differences]
    if vnfc_labels:
        plan["vnfc_modifications"] = {label: diff["after"][label] for label in vnfc_labels}
    return Operation(occ.MODIFY_INFO, without_vim_secrets(request), instance, plan, store, op_occs, version, changed=modified != instance,
                     execute=lambda progress: claim_name(progress) or modified, diff=diff)


def plan_resume(vim: HeatVim, store: RecordStore, found: Found, failed_op_occ: dict, event: str, waits: Optional[Waits] = None,
                package: Any = None) -> Operation:
    """Retry or roll back a FAILED_TEMP MODIFY_INFO: it wrote nothing on the VIM (the record is written once, with the op
    occ's end), so a retry plans the request again on the record (a new vnfdId with its ``package``, vnf_lcm_op_occ's
    option, checked again against what is deployed) and a rollback changes only the op occ (the record still holds the
    instance from before)."""
    instance, op_occs, version = found
    params = failed_op_occ.get("operationParams") or {}
    if event == "retry":
        return plan_modify(vim, store, found, params, waits, package=package)
    plan = {"operation": occ.MODIFY_INFO, "vnf_instance_id": instance["id"], "rollback_of": failed_op_occ["id"],
            "lines": ["the operation wrote nothing on the VIM: only the op occ changes"]}
    return Operation(occ.MODIFY_INFO, params, instance, plan, store, op_occs, version, changed=False)
