# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vnf_modify on the OpenStack VIM: a VnfInfoModificationRequest applied to the record only.

The record lives in the instance's stack, written by signalling its record resource (heat/store.py), which is no
stack update: the modification changes the record and nothing of the VNF. The SOL003 semantics are the pure
sol/vnf_instance.apply_vnf_info_modification that the Kubernetes modify uses too. A new vnfdId is a change of
package, which on Heat is vnf_change_pkg; a container update (option package) exists on Kubernetes only.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import name_claimer
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import validate_vnf_info_modification_request
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import without_vim_secrets
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import apply_vnf_info_modification, modification_diff, modified_attributes

MODIFY_REQUEST = "VnfInfoModificationRequest"
CHANGE_PKG_HINT = "on the OpenStack VIM a new VNF package is applied with nfv.vnflcm.vnf_change_pkg (ChangeCurrentVnfPkgRequest)"


def check_heat_options(package=None, delete_removed=False):
    """The options of a Kubernetes container update are refused on Heat, naming the option."""
    if package:
        raise ValidationError("module options", "package",
                              "the container update with selective restart is for CNFs on Kubernetes; " + CHANGE_PKG_HINT)
    if delete_removed:
        raise ValidationError("module options", "delete_removed", "deletes ConfigMaps/Secrets of a Kubernetes container update; "
                              "it has no meaning on the OpenStack VIM")


def modified_record(instance, request):
    """The record after a validated request: new name/description/metadata/extensions/vnfConfigurableProperties/VIM
    connections (RFC 7396, kept without secrets) and vnfcConfigurableProperties."""
    if "vnfdId" in request and request["vnfdId"] != instance.get("vnfdId"):
        raise ValidationError(MODIFY_REQUEST, "vnfdId", "{0!r} is not the instance's VNFD ({1!r}): {2}".format(
            request["vnfdId"], instance.get("vnfdId"), CHANGE_PKG_HINT))
    return apply_vnf_info_modification(instance, request)


def plan_modify(vim, store, found, request, waits=None, preview=False):
    """MODIFY_INFO on a Heat instance: one record write (a signal), no stack update; nothing when nothing changes."""
    instance, op_occs, version = found
    request = validate_vnf_info_modification_request(request)
    modified = modified_record(instance, request)
    claim_name = name_claimer(store, instance, modified)
    keys = modified_attributes(instance, modified)
    diff = modification_diff(instance, modified)
    vnfc_labels = sorted(label for label in diff["after"] if label not in keys)
    plan = {"operation": occ.MODIFY_INFO, "vnf_instance_id": instance["id"], "modifications": {key: modified.get(key) for key in keys},
            "lines": ["{0}: modify (record only, no stack update)".format(label) for label in keys + vnfc_labels] or ["no change"]}
    if vnfc_labels:
        plan["vnfc_modifications"] = {label: diff["after"][label] for label in vnfc_labels}
    return Operation(occ.MODIFY_INFO, without_vim_secrets(request), instance, plan, store, op_occs, version, changed=modified != instance,
                     execute=lambda progress: claim_name(progress) or modified, diff=diff)


def plan_resume(vim, store, found, failed_op_occ, event, waits=None):
    """Retry or roll back a FAILED_TEMP MODIFY_INFO: it wrote nothing on the VIM, so a retry plans the request again on
    the record and a rollback changes only the op occ (the record still holds the instance from before)."""
    instance, op_occs, version = found
    params = failed_op_occ.get("operationParams") or {}
    if event == "retry":
        return plan_modify(vim, store, found, params, waits)
    plan = {"operation": occ.MODIFY_INFO, "vnf_instance_id": instance["id"], "rollback_of": failed_op_occ["id"],
            "lines": ["the operation wrote nothing on the VIM: only the op occ changes"]}
    return Operation(occ.MODIFY_INFO, params, instance, plan, store, op_occs, version, changed=False)
