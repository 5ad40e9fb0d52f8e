# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""ChangeExtVnfConnectivityRequest (SOL003 5.5.2.11 of v3.3.1): the request, its checks against the instance,
and the instance's external links after it.

Pure: the instance's flavour (its ``cps``) and current external links are arguments. The VIM side (which
network parameters change, the stack update) is heat/change_ext_conn.py with lcm/vm/change_ext_conn.py.
"""

from __future__ import annotations

import copy

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import datatypes, tacker_v1
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.merge_patch import merge_patch
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.schema import field_path, key_value_pairs, list_of, struct, validate
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import check_vim_connection_references
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED, require_instantiation_state
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnfd_checks import require_known

WHAT = "ChangeExtVnfConnectivityRequest"

CHANGE_EXT_VNF_CONNECTIVITY_REQUEST = {
    "extVirtualLinks": list_of(struct(datatypes.EXT_VIRTUAL_LINK_DATA), required=True, min_items=1),
    # SOL003: applied to the instance's vimConnectionInfo as a JSON Merge Patch (a null entry removes one).
    "vimConnectionInfo": datatypes.VIM_CONNECTION_INFO_PATCH,
    "additionalParams": key_value_pairs(),
}


def validate_change_ext_conn_request(body, instance, flavour, strict=True):
    """The normalised request, or ValidationError naming the field at fault (ConflictError unless INSTANTIATED).

    On top of the schema: each link id once, each CP once across the request, every cpdId an external CP
    of the instance's flavour (``flavour``: its ``cps``, as the package reader gives them).
    """
    require_instantiation_state(instance, INSTANTIATED, occ.CHANGE_EXT_CONN)
    request = validate(tacker_v1.upgrade_cp_configs(body, WHAT), CHANGE_EXT_VNF_CONNECTIVITY_REQUEST, WHAT, strict)
    check_vim_connection_references(request, WHAT, instance)
    cps = flavour.get("cps") or {}
    flavour_id = (instance.get("instantiatedVnfInfo") or {}).get("flavourId")
    link_ids, connected_by = {}, {}
    for link_index, link in enumerate(request["extVirtualLinks"]):
        link_path = field_path("extVirtualLinks", link_index)
        if link["id"] in link_ids:
            raise ValidationError(WHAT, field_path(link_path, "id"), "link {0!r} is also given by {1}".format(link["id"], link_ids[link["id"]]))
        link_ids[link["id"]] = link_path
        for cp_index, ext_cp in enumerate(link["extCps"]):
            cpd_path = field_path(field_path(field_path(link_path, "extCps"), cp_index), "cpdId")
            cpd_id = ext_cp["cpdId"]
            require_known(WHAT, cpd_path, cpd_id, cps, "CP", "flavour {0} of the instance".format(flavour_id))
            if cps[cpd_id].get("virtual_link"):
                raise ValidationError(WHAT, cpd_path, "CP {0} is bound to the internal virtual link {1} in the VNFD".format(
                    cpd_id, cps[cpd_id]["virtual_link"]))
            if cpd_id in connected_by:
                raise ValidationError(WHAT, cpd_path, "CP {0} is already connected by {1}".format(cpd_id, connected_by[cpd_id]))
            connected_by[cpd_id] = cpd_path
    return request


def links_after(current_links, request):
    """The instance's extVirtualLinks after the request.

    A requested link replaces the instance's link of the same id, or is added. A CP the request connects
    leaves any other link it was on (it moves), and a link left without CPs is gone. Order is kept.
    """
    requested = request.get("extVirtualLinks") or []
    by_id = {link["id"]: link for link in requested}
    moved = {ext_cp["cpdId"] for link in requested for ext_cp in link.get("extCps") or []}
    result = []
    for link in current_links or []:
        if link.get("id") in by_id:
            result.append(copy.deepcopy(by_id.pop(link["id"])))
            continue
        kept = [ext_cp for ext_cp in link.get("extCps") or [] if ext_cp.get("cpdId") not in moved]
        if kept:
            result.append(dict(copy.deepcopy(link), extCps=copy.deepcopy(kept)))
    result += [copy.deepcopy(link) for link in requested if link["id"] in by_id]
    _check_nothing_dropped(current_links, result, request)
    return result


def _check_nothing_dropped(current_links, result, request):
    """A link the request replaces must keep the CPs it had (or they move elsewhere): a CP cannot be left unconnected."""
    after = {ext_cp.get("cpdId") for link in result for ext_cp in link.get("extCps") or []}
    for index, link in enumerate(request.get("extVirtualLinks") or []):
        for current in current_links or []:
            if current.get("id") != link["id"]:
                continue
            dropped = sorted({ext_cp.get("cpdId") for ext_cp in current.get("extCps") or []} - after)
            if dropped:
                raise ValidationError(WHAT, field_path(field_path("extVirtualLinks", index), "extCps"),
                                      "link {0!r} replaces the instance's link of that id, which connects {1}: list {2} here "
                                      "or on another link (a CP cannot be left without a network)".format(
                                          link["id"], ", ".join(dropped), "it" if len(dropped) == 1 else "them"))


def vim_connections_after(instance, request):
    """The instance's vimConnectionInfo after the request's merge patch (None when it ends up empty)."""
    if "vimConnectionInfo" not in request:
        return instance.get("vimConnectionInfo")
    return merge_patch(copy.deepcopy(instance.get("vimConnectionInfo") or {}), request["vimConnectionInfo"]) or None
