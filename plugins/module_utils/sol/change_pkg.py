# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""ChangeCurrentVnfPkgRequest on any VIM: the rolling-update request, the merged VnfInstance fields, what the op occ reports.

Both VIMs' changes of package (heat/change_pkg.py with lcm/vm/change_pkg.py, lcm/cnf/change_pkg.py) start here.
"""

from __future__ import annotations

import copy

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.merge_patch import merge_patch
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.schema import field_path
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import CHANGE_CURRENT_VNF_PKG_REQUEST, validate_change_pkg_request
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import without_vim_secrets
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED, require_instantiation_state, vnfd_identity

WHAT = CHANGE_CURRENT_VNF_PKG_REQUEST
ROLLING_UPDATE = "RollingUpdate"
# VnfInstance fields a ChangeCurrentVnfPkgRequest modifies with JSON Merge Patch (SOL003 5.5.2.11).
MERGED_FIELDS = ("vimConnectionInfo", "extensions", "vnfConfigurableProperties")
# The module option giving the instance's current package (where the old-VNF coordination hook is read, as Tacker reads it).
CURRENT_PACKAGE = "current_package"
# The module option saying how the workloads of the VDUs change (Kubernetes), and its values.
ROLLOUT = "rollout"
ONE_AT_A_TIME, SIDE_BY_SIDE = "one_at_a_time", "side_by_side"
# The VnfInstance attributes a new package may give new values (SOL003 modificationsTriggeredByVnfPkgChange).
PACKAGE_FIELDS = ("vnfdId", "vnfProvider", "vnfProductName", "vnfSoftwareVersion", "vnfdVersion", "vnfConfigurableProperties", "extensions")


def validate_rolling_update(request, instance, new_vnfd):
    """The normalised request of a rolling update, or ValidationError naming the field at fault.

    On top of ``sol.validation`` (schema, vnfdId, cpdIds and vdu_ids known in the new VNFD):
    upgrade_type must be given and be RollingUpdate, and vdu_params must name each VDU once.
    """
    require_instantiation_state(instance, INSTANTIATED, occ.CHANGE_VNFPKG)
    request = validate_change_pkg_request(request, new_vnfd, instance)
    params = request.get("additionalParams") or {}
    if params.get("upgrade_type") != ROLLING_UPDATE:
        raise ValidationError(WHAT, "additionalParams.upgrade_type", "must be {0!r} (the only upgrade this VNFM performs), not {1!r}".format(
            ROLLING_UPDATE, params.get("upgrade_type")))
    vdu_params = params.get("vdu_params") or []
    if not vdu_params:
        raise ValidationError(WHAT, "additionalParams.vdu_params", "name at least one VDU to update (VDUs not named are not touched)")
    seen = set()
    for index, vdu_param in enumerate(vdu_params):
        if vdu_param["vdu_id"] in seen:
            raise ValidationError(WHAT, field_path(field_path("additionalParams.vdu_params", index), "vdu_id"),
                                  "VDU {0} is named twice".format(vdu_param["vdu_id"]))
        seen.add(vdu_param["vdu_id"])
    return request


def check_current_package(package, instance):
    """ValidationError naming the option unless ``package`` (a VnfPackage) is the instance's current package (its vnfdId)."""
    vnfd_id = vnfd_identity(package.to_dict()["vnfd"])["vnfdId"]
    if vnfd_id != instance.get("vnfdId"):
        raise ValidationError(WHAT, CURRENT_PACKAGE, "its VNFD is {0}, not the instance's current one {1}: give the package the instance "
                                                     "runs (from its instantiation or its last change of package)".format(vnfd_id, instance.get("vnfdId")))


def new_flavour(new_vnfd, instance):
    """The instance's deployment flavour in the new VNFD (the flavour does not change with the package)."""
    flavour_id = (instance.get("instantiatedVnfInfo") or {}).get("flavourId")
    flavours = new_vnfd.get("flavours") or {}
    if flavour_id not in flavours:
        raise ValidationError(WHAT, "vnfdId", "the new VNFD has no flavour {0!r}, the flavour of the instance".format(flavour_id))
    return flavours[flavour_id]


def merged_instance_fields(instance, request):
    """vimConnectionInfo, extensions and vnfConfigurableProperties after the request (RFC 7396 each).

    A field the request does not carry keeps its value; ``null`` members remove, objects merge, arrays
    are replaced. Fields that end up empty are left out, as SOL003 omits them. vimConnectionInfo as a record keeps it
    (sol/vim_connection.py).
    """
    result = {}
    for field in MERGED_FIELDS:
        value = instance.get(field)
        if field in request:
            value = merge_patch(value or {}, request[field])
        if value:
            result[field] = copy.deepcopy(value)
    return without_vim_secrets(result)


def modifications_triggered(before, after):
    """modificationsTriggeredByVnfPkgChange: the VnfInstance attributes the change gave new values."""
    return {key: copy.deepcopy(after.get(key)) for key in PACKAGE_FIELDS if before.get(key) != after.get(key) and key in after}
