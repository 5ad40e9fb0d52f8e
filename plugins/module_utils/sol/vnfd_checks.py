# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Checks of LCM requests against the VNFD and the VNF instance they apply to.

They run after the structural validation (so field types are known to be right) and take the
VNFD as the plain dict the package reader produces::

    {"descriptor_id": ..., "flavours": {flavour_id: {"vdus": {...}, "cps": {...},
     "virtual_links": {...}, "scaling_aspects": {aspect_id: {"max_scale_level": int}},
     "instantiation_levels": {...}, "default_instantiation_level": ...}}}
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.schema import field_path


def require_known(what, field, value, known, kind, scope):
    """Raise unless ``value`` is one of ``known``; the message lists what would have been valid."""
    if value in known:
        return
    listed = ", ".join(sorted(known)) if known else "none"
    raise ValidationError(what, field, "unknown {0} {1!r} in {2} (known: {3})".format(kind, value, scope, listed))


def vnfd_scope(vnfd):
    return "VNFD {0}".format(vnfd.get("descriptor_id", "?"))


def find_flavour(vnfd, flavour_id, what, field="flavourId"):
    """The flavour ``flavour_id`` of ``vnfd``, or ValidationError naming ``field``."""
    flavours = vnfd.get("flavours") or {}
    require_known(what, field, flavour_id, flavours, "flavour", vnfd_scope(vnfd))
    return flavours[flavour_id]


def check_connectivity_against_flavour(request, flavour, flavour_id, what):
    """External CPs must be CPs of the flavour and managed VLs must be VLs of the flavour."""
    scope = "flavour {0}".format(flavour_id)
    cps = flavour.get("cps") or {}
    for link_index, link in enumerate(request.get("extVirtualLinks") or []):
        link_path = field_path("extVirtualLinks", link_index)
        for cp_index, ext_cp in enumerate(link.get("extCps") or []):
            cp_path = field_path(field_path(link_path, "extCps"), cp_index)
            require_known(what, field_path(cp_path, "cpdId"), ext_cp.get("cpdId"), cps, "CP", scope)
    virtual_links = flavour.get("virtual_links") or {}
    for index, managed in enumerate(request.get("extManagedVirtualLinks") or []):
        path = field_path(field_path("extManagedVirtualLinks", index), "vnfVirtualLinkDescId")
        require_known(what, path, managed.get("vnfVirtualLinkDescId"), virtual_links, "virtual link", scope)


def check_instantiate_against_vnfd(request, vnfd, what="InstantiateVnfRequest"):
    """flavourId, instantiationLevelId, extCps and extManagedVirtualLinks must exist in the VNFD."""
    flavour_id = request["flavourId"]
    flavour = find_flavour(vnfd, flavour_id, what)
    level_id = request.get("instantiationLevelId")
    if level_id is not None:
        levels = flavour.get("instantiation_levels") or {}
        require_known(what, "instantiationLevelId", level_id, levels, "instantiation level", "flavour {0}".format(flavour_id))
    check_connectivity_against_flavour(request, flavour, flavour_id, what)


def check_scale_against_flavour(request, flavour, current_levels, what="ScaleVnfRequest"):
    """aspectId must be an aspect of the flavour and the new level within 0..max_scale_level.

    ``current_levels`` maps aspect id to its current scale level (absent means 0).
    """
    aspects = flavour.get("scaling_aspects") or {}
    aspect_id = request["aspectId"]
    require_known(what, "aspectId", aspect_id, aspects, "scaling aspect", "the flavour")
    steps = request.get("numberOfSteps", 1)
    current = (current_levels or {}).get(aspect_id, 0)
    max_level = aspects[aspect_id].get("max_scale_level", 0)
    target = current + steps if request["type"] == "SCALE_OUT" else current - steps
    if not 0 <= target <= max_level:
        reason = "{0} by {1} step(s) from level {2} would reach level {3}, outside 0..{4} of aspect {5}".format(
            request["type"], steps, current, target, max_level, aspect_id)
        raise ValidationError(what, "numberOfSteps", reason)


def instance_vdu_ids(instance):
    """The VDU ids that currently have VNFC resources in a VNF instance."""
    info = (instance or {}).get("instantiatedVnfInfo") or {}
    return {vnfc["vduId"] for vnfc in info.get("vnfcResourceInfo") or [] if vnfc.get("vduId")}


def instance_vnfc_ids(instance):
    """The ids usable as HealVnfRequest.vnfcInstanceId (vnfcInfo ids, SOL003 v3)."""
    info = (instance or {}).get("instantiatedVnfInfo") or {}
    return {vnfc["id"] for vnfc in info.get("vnfcInfo") or [] if vnfc.get("id")}


def check_change_pkg_against_vnfd(request, new_vnfd, instance, what="ChangeCurrentVnfPkgRequest"):
    """The new VNFD must be the one requested and keep the instance's flavour; vdu_params name real VDUs."""
    if new_vnfd is not None and request["vnfdId"] != new_vnfd.get("descriptor_id"):
        raise ValidationError(what, "vnfdId", "{0!r} is not the id of the new package's VNFD ({1!r})".format(
            request["vnfdId"], new_vnfd.get("descriptor_id")))
    flavour_id = ((instance or {}).get("instantiatedVnfInfo") or {}).get("flavourId")
    flavour = None
    if new_vnfd is not None and flavour_id is not None:
        flavour = find_flavour(new_vnfd, flavour_id, what, field="vnfdId")
        check_connectivity_against_flavour(request, flavour, flavour_id, what)
    vdu_params = (request.get("additionalParams") or {}).get("vdu_params") or []
    for index, vdu_param in enumerate(vdu_params):
        path = field_path(field_path("additionalParams.vdu_params", index), "vdu_id")
        if instance is not None:
            require_known(what, path, vdu_param["vdu_id"], instance_vdu_ids(instance), "VDU", "VNF instance {0}".format(instance.get("id")))
        if flavour is not None:
            require_known(what, path, vdu_param["vdu_id"], flavour.get("vdus") or {}, "VDU", "flavour {0} of the new VNFD".format(flavour_id))


def check_heal_against_instance(request, instance, what="HealVnfRequest"):
    """Every vnfcInstanceId must be a VNFC of the instance."""
    known = instance_vnfc_ids(instance)
    for index, vnfc_id in enumerate(request.get("vnfcInstanceId") or []):
        require_known(what, field_path("vnfcInstanceId", index), vnfc_id, known, "VNFC", "VNF instance {0}".format(instance.get("id")))
