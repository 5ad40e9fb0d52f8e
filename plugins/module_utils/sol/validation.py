# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Validation of SOL003 LCM request bodies.

Every ``validate_*_request`` checks the structure (schema in ``datatypes``), then the semantic
rules SOL003 states in prose, then, when a VNFD / instance is given, the package-aware rules
(``vnfd_checks``). Each returns the normalised request (a new dict: defaults filled in,
vimConnectionInfo as a map keyed by id) or raises ValidationError naming the offending field.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import datatypes, tacker_v1
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import vnfd_checks
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.schema import validate

CREATE_VNF_REQUEST = "CreateVnfRequest"
INSTANTIATE_VNF_REQUEST = "InstantiateVnfRequest"
VNF_INFO_MODIFICATION_REQUEST = "VnfInfoModificationRequest"
CHANGE_CURRENT_VNF_PKG_REQUEST = "ChangeCurrentVnfPkgRequest"
SCALE_VNF_REQUEST = "ScaleVnfRequest"
SCALE_VNF_TO_LEVEL_REQUEST = "ScaleVnfToLevelRequest"
HEAL_VNF_REQUEST = "HealVnfRequest"
TERMINATE_VNF_REQUEST = "TerminateVnfRequest"

# The lengths Tacker's API allows for a VNF instance's name and description.
MAX_VNF_INSTANCE_NAME_LENGTH = 255
MAX_VNF_INSTANCE_DESCRIPTION_LENGTH = 1024


def normalise_vim_connection_info(value, what="vimConnectionInfo"):
    """vimConnectionInfo as a map keyed by id, whether given as a map (SOL003 v3) or a list (v2)."""
    wrapper = validate({"vimConnectionInfo": value}, {"vimConnectionInfo": datatypes.VIM_CONNECTION_INFO_MAP}, what)
    return wrapper["vimConnectionInfo"]


def validate_create_request(body, strict=True):
    """CreateVnfRequest: vnfdId required; name and description within Tacker's lengths."""
    request = validate(body, datatypes.CREATE_VNF_REQUEST, CREATE_VNF_REQUEST, strict)
    check_vnf_instance_texts(CREATE_VNF_REQUEST, request.get("vnfInstanceName"), request.get("vnfInstanceDescription"))
    return request


def validate_instantiate_request(body, vnfd=None, strict=True, instance=None):
    """InstantiateVnfRequest; with ``vnfd``, flavour / level / CPs / VLs must exist in it.

    ``instance`` (optional) contributes the VIM connections it already has (set by a modification).
    """
    request = validate(tacker_v1.upgrade_cp_configs(body, INSTANTIATE_VNF_REQUEST), datatypes.INSTANTIATE_VNF_REQUEST, INSTANTIATE_VNF_REQUEST, strict)
    check_vim_connection_references(request, INSTANTIATE_VNF_REQUEST, instance)
    if vnfd is not None:
        vnfd_checks.check_instantiate_against_vnfd(request, vnfd, INSTANTIATE_VNF_REQUEST)
    return request


def validate_vnf_info_modification_request(body, strict=True):
    """VnfInfoModificationRequest: at least one modification; no id both modified and deleted."""
    tacker_v1.refuse_vnfc_info_modifications_delete_ids(body, VNF_INFO_MODIFICATION_REQUEST)
    request = validate(body, datatypes.VNF_INFO_MODIFICATION_REQUEST, VNF_INFO_MODIFICATION_REQUEST, strict)
    if not request:
        raise ValidationError(VNF_INFO_MODIFICATION_REQUEST, None, "no modification requested")
    check_vnf_instance_texts(VNF_INFO_MODIFICATION_REQUEST, request.get("vnfInstanceName"), request.get("vnfInstanceDescription"))
    for index, vim_id in enumerate(request.get("vimConnectionInfoDeleteIds") or []):
        if vim_id in (request.get("vimConnectionInfo") or {}):
            reason = "{0!r} is both modified (vimConnectionInfo) and deleted".format(vim_id)
            raise ValidationError(VNF_INFO_MODIFICATION_REQUEST, "vimConnectionInfoDeleteIds[{0}]".format(index), reason)
    return request


def check_vnf_instance_texts(what, name, description, fields=("vnfInstanceName", "vnfInstanceDescription")):
    """A VNF instance's name and description (None: not given) within their lengths; ``fields`` name them in errors."""
    limits = (MAX_VNF_INSTANCE_NAME_LENGTH, MAX_VNF_INSTANCE_DESCRIPTION_LENGTH)
    for value, field, limit in zip((name, description), fields, limits):
        if value is not None and len(value) > limit:
            raise ValidationError(what, field, "is {0} characters long, more than the limit of {1}".format(len(value), limit))


def validate_change_pkg_request(body, new_vnfd=None, instance=None, strict=True):
    """ChangeCurrentVnfPkgRequest; with ``new_vnfd`` / ``instance``, ids must exist in them."""
    request = validate(tacker_v1.upgrade_cp_configs(body, CHANGE_CURRENT_VNF_PKG_REQUEST), datatypes.CHANGE_CURRENT_VNF_PKG_REQUEST,
                       CHANGE_CURRENT_VNF_PKG_REQUEST, strict)
    check_change_pkg_additional_params(request)
    check_vim_connection_references(request, CHANGE_CURRENT_VNF_PKG_REQUEST, instance)
    if new_vnfd is not None or instance is not None:
        vnfd_checks.check_change_pkg_against_vnfd(request, new_vnfd, instance, CHANGE_CURRENT_VNF_PKG_REQUEST)
    return request


def check_change_pkg_additional_params(request):
    """Tacker's rolling update: upgrade_type "RollingUpdate"; each vdu_params entry names a vdu_id.

    additionalParams is free-form in SOL003, so unknown keys there stay allowed.
    """
    params = request.get("additionalParams")
    if params:
        validate(params, datatypes.CHANGE_PKG_ADDITIONAL_PARAMS, CHANGE_CURRENT_VNF_PKG_REQUEST, strict=False, path="additionalParams")


def validate_scale_request(body, vnfd_flavour=None, current_levels=None, strict=True):
    """ScaleVnfRequest (numberOfSteps defaults to 1); with a flavour, the new level must be in range."""
    request = validate(body, datatypes.SCALE_VNF_REQUEST, SCALE_VNF_REQUEST, strict)
    if vnfd_flavour is not None:
        vnfd_checks.check_scale_against_flavour(request, vnfd_flavour, current_levels, SCALE_VNF_REQUEST)
    return request


def validate_scale_to_level_request(body, strict=True):
    """ScaleVnfToLevelRequest: exactly one of instantiationLevelId and scaleInfo, each aspect at most once in scaleInfo.

    Whether the level or the aspects exist in the flavour is sizing.target_scale_levels' check.
    """
    request = validate(body, datatypes.SCALE_VNF_TO_LEVEL_REQUEST, SCALE_VNF_TO_LEVEL_REQUEST, strict)
    given = [key for key in ("instantiationLevelId", "scaleInfo") if key in request]
    if len(given) != 1:
        raise ValidationError(SCALE_VNF_TO_LEVEL_REQUEST, "instantiationLevelId",
                              "give exactly one of instantiationLevelId and scaleInfo (given: {0})".format(", ".join(given) or "neither"))
    seen = set()
    for index, item in enumerate(request.get("scaleInfo") or []):
        if item["aspectId"] in seen:
            raise ValidationError(SCALE_VNF_TO_LEVEL_REQUEST, "scaleInfo[{0}].aspectId".format(index),
                                  "aspect {0!r} is given more than once".format(item["aspectId"]))
        seen.add(item["aspectId"])
    return request


# Tacker v2's HealVnfRequest.additionalParams key: heal the VNFCs' storage too.
HEAL_ALL = "all"
# The collection's own: repair the VNF's drift (lcm/cnf/reconcile.py, lcm/vm/heal.py) rather than heal named VNFCs.
HEAL_RECONCILE = "reconcile"
# The HealVnfRequest a repair that vnf_instantiate's ``reconcile`` asks for records as its op occ's operationParams.
RECONCILE_REQUEST = {"cause": "drift", "additionalParams": {HEAL_RECONCILE: True}}


def validate_heal_request(body, instance=None, strict=True):
    """HealVnfRequest; with ``instance``, every vnfcInstanceId must be one of its VNFCs."""
    request = validate(body, datatypes.HEAL_VNF_REQUEST, HEAL_VNF_REQUEST, strict)
    heal_all = (request.get("additionalParams") or {}).get(HEAL_ALL, False)
    if not isinstance(heal_all, bool):
        raise ValidationError(HEAL_VNF_REQUEST, "additionalParams." + HEAL_ALL,
                              "must be a boolean (true: the VNFCs' storage is replaced too, as Tacker v2 takes it), not {0!r}".format(heal_all))
    reconcile = (request.get("additionalParams") or {}).get(HEAL_RECONCILE, False)
    if not isinstance(reconcile, bool):
        raise ValidationError(HEAL_VNF_REQUEST, "additionalParams." + HEAL_RECONCILE,
                              "must be a boolean (true: the VNF's drift is repaired), not {0!r}".format(reconcile))
    if reconcile and request.get("vnfcInstanceId"):
        raise ValidationError(HEAL_VNF_REQUEST, "vnfcInstanceId", "a repair of drift (additionalParams.reconcile) is of the whole VNF: name no VNFC")
    if instance is not None:
        vnfd_checks.check_heal_against_instance(request, instance, HEAL_VNF_REQUEST)
    return request


def reconciles(request):
    """Whether a (validated) HealVnfRequest asks for a repair of drift (``additionalParams.reconcile``)."""
    return ((request or {}).get("additionalParams") or {}).get(HEAL_RECONCILE) is True


def heals_storage(request):
    """Whether a (validated) HealVnfRequest asks for the VNFCs' storage too: Tacker v2's ``additionalParams.all``."""
    return (request.get("additionalParams") or {}).get(HEAL_ALL) is True


def validate_terminate_request(body, strict=True):
    """TerminateVnfRequest; a graceful timeout only makes sense with GRACEFUL termination."""
    request = validate(body, datatypes.TERMINATE_VNF_REQUEST, TERMINATE_VNF_REQUEST, strict)
    if request["terminationType"] != "GRACEFUL" and "gracefulTerminationTimeout" in request:
        raise ValidationError(TERMINATE_VNF_REQUEST, "gracefulTerminationTimeout", "only allowed with terminationType GRACEFUL")
    return request


def check_vim_connection_references(request, what, instance=None):
    """Each vimConnectionId used by a link must name a VIM connection of the request or the instance."""
    known = set(request.get("vimConnectionInfo") or {}) | set((instance or {}).get("vimConnectionInfo") or {})
    if not known:
        # Nothing to check against: the VNFM may supply a default VIM (Tacker does).
        return
    for list_name in ("extVirtualLinks", "extManagedVirtualLinks"):
        for index, link in enumerate(request.get(list_name) or []):
            vim_id = link.get("vimConnectionId")
            if vim_id is not None:
                field = "{0}[{1}].vimConnectionId".format(list_name, index)
                vnfd_checks.require_known(what, field, vim_id, known, "VIM connection", "vimConnectionInfo")
