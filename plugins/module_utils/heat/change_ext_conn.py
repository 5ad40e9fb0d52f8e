# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""ChangeExtVnfConnectivity of a VM-based VNF (one Heat stack): the pure planning part.

The stack keeps its template and nested files; only the ``CP`` section of its ``nfv`` parameter changes
(network, fixed_ips or port of each VNFC's external CP), so Heat replaces exactly the ports whose values
differ and re-attaches them to the same servers. Nothing here calls the cloud.
"""

from __future__ import annotations

import copy

from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import nfv_params
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.form import STANDARD_FORM
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.template import split_vnfc_name
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.change_ext_conn import WHAT, links_after


def request_after(current_request, request, flavour, indexes, form=STANDARD_FORM):
    """The instantiate-like request the record keeps after the change: its extVirtualLinks replaced by ``links_after``.

    ``nfv_params.cp_params`` checks the request's own links first (so that an error names the request's
    indexes), then the merged ones, with the instance's VNFC counts (a fixed address or a port serves one VNFC).
    """
    counts = {vdu_id: len(values) for vdu_id, values in (indexes or {}).items()}
    nfv_params.cp_params(flavour, request.get("extVirtualLinks") or [], counts, WHAT, form)
    result = copy.deepcopy(current_request)
    result["extVirtualLinks"] = links_after(current_request.get("extVirtualLinks") or [], request)
    nfv_params.cp_params(flavour, result["extVirtualLinks"], counts, WHAT, form)
    return result


def cp_moves(before_nfv, after_nfv):
    """Per external CP of a VNFC whose nfv values change: ``{"cp", "from", "to"}`` (values as the nfv CP section has them)."""
    before, after = (before_nfv or {}).get("CP") or {}, (after_nfv or {}).get("CP") or {}
    return [{"cp": key, "from": copy.deepcopy(before.get(key)), "to": copy.deepcopy(after.get(key))}
            for key in sorted(set(before) | set(after)) if before.get(key) != after.get(key)]


def moved_vnfcs(moves, cps, vnfc_resources):
    """The stack resource names of the VNFCs whose CPs ``moves`` re-plugs: a key ``<CP>-<index>`` names one VNFC of the
    CP's VDU, a bare ``<CP>`` (a scaling group's members) all of them. ``cps``: the flavour's; ``vnfc_resources``: the
    record's vnfcResourceInfo."""
    names = []
    for move in moves:
        cp_id, index = split_vnfc_name(move["cp"])
        vdu_id = (cps.get(cp_id) or {}).get("vdu")
        for item in vnfc_resources:
            metadata = item.get("metadata") or {}
            if item.get("vduId") == vdu_id and (index is None or metadata.get("index") == index) and metadata.get("stackResource") not in names:
                names.append(metadata.get("stackResource"))
    return names


def describe(value):
    """``net1 (10.11.0.5 on net1-subnet)``, ``port <id>``, or ``nothing`` for one CP's nfv value."""
    if not value:
        return "nothing"
    if value.get("port"):
        return "port {0}".format(value["port"])
    addresses = ["{0}{1}".format(item.get("ip_address") or "a dynamic address", " on {0}".format(item["subnet"]) if item.get("subnet") else "")
                 for item in value.get("fixed_ips") or []]
    return "{0}{1}".format(value.get("network"), " ({0})".format(", ".join(addresses)) if addresses else "")


def move_lines(moves):
    """One plan line per CP that changes: where it goes from and to, and what that does to its port."""
    lines = []
    for move in moves:
        before, after = move["from"] or {}, move["to"] or {}
        if before.get("network") != after.get("network") or before.get("port") != after.get("port"):
            effect = "port replaced and re-attached to the same server"
        else:
            effect = "addresses changed"
        lines.append("{0}: {1} -> {2} ({3})".format(move["cp"], describe(before), describe(after), effect))
    return lines
