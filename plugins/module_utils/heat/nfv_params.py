# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The ``nfv`` parameter of a VNF's Heat stack, built from the VNFD flavour and an LCM request.

Shape (one entry per VNFC, keys indexed like the template's resources, see ``template``)::

    {"VDU": {"VDU1-0": {"computeFlavourId": "m1.tiny", "vcImageId": "<image>"},
             "VDU2-VirtualStorage-0": {"vcImageId": "<image>"}},
     "CP": {"VDU1_CP1-0": {"network": "<net>"}, "VDU2_CP1-0": {"network": "<net>", "fixed_ips": [{"subnet": "<subnet>"}]},
            "VDU3_CP1-0": {"port": "<port>"}},
     "VL": {"internalVL1": {"network": "<net>"}}}

Flavours come from the VDU's requested_additional_capability_name, images from sw_image_data (names,
unless the caller maps them to Glance ids), CP networks, fixed IPs and ports from extVirtualLinks,
NFVO-managed networks from extManagedVirtualLinks; ``additionalParams.nfv`` is merged last (RFC 7396).
"""

from __future__ import annotations

import copy

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.form import STANDARD_FORM
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.template import VL_SECTION
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.merge_patch import merge_patch
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.schema import field_path
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.sizing import initial_replicas
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnfd_checks import require_known

INSTANTIATE = "InstantiateVnfRequest"
# ETSI SOL001: a VDU without VduInitialDelta starts with one instance.
DEFAULT_INITIAL_DELTA = 1


# ---------------------------------------------------------------------------------------------
# How many VNFCs

def vnfc_counts(flavour, instantiation_level_id=None, what=INSTANTIATE):
    """VDU id -> number of VNFCs for an instantiation level.

    The level asked for, else the flavour's default level, else each VDU's VduInitialDelta. A VDU the
    level does not mention falls back to its initial delta. Counts must fit the VDU's vdu_profile.
    """
    vdus = flavour.get("vdus") or {}
    level_id = instantiation_level_id or flavour.get("default_instantiation_level")
    counts = {}
    for vdu_id in sorted(vdus):
        count = initial_replicas(flavour, vdu_id, instantiation_level_id, what)
        count = DEFAULT_INITIAL_DELTA if count is None else count
        _check_profile(vdu_id, vdus[vdu_id], count, level_id, what)
        counts[vdu_id] = count
    return counts


def _check_profile(vdu_id, vdu, count, level_id, what):
    profile = (vdu or {}).get("vdu_profile") or {}
    low, high = profile.get("min_number_of_instances"), profile.get("max_number_of_instances")
    if (isinstance(low, int) and count < low) or (isinstance(high, int) and count > high):
        where = "instantiation level {0}".format(level_id) if level_id else "its initial delta"
        raise ValidationError(what, "instantiationLevelId", "{0} gives VDU {1} {2} instance(s), outside {3}..{4} of its vdu_profile".format(
            where, vdu_id, count, low, high))


# ---------------------------------------------------------------------------------------------
# The nfv parameter

def build_nfv(flavour, request, counts, image_ids=None, what=INSTANTIATE, form=STANDARD_FORM):
    """The ``nfv`` parameter for ``counts`` VNFCs per VDU, from the VNFD flavour and the request.

    ``image_ids`` maps a VDU or VirtualBlockStorage id to the image the VIM knows (Glance id); without
    it the VNFD's sw_image_data names are kept for the caller to resolve. ``form`` (heat.form) says how
    the entries are keyed. Errors name the request field.
    """
    request = request or {}
    nfv = {
        "VDU": vdu_params(flavour, counts, image_ids or {}, form),
        "CP": cp_params(flavour, request.get("extVirtualLinks") or [], counts, what, form),
    }
    managed = managed_networks(flavour, request.get("extManagedVirtualLinks") or [], what)
    if managed:
        nfv[VL_SECTION] = {vl_id: {"network": network} for vl_id, network in managed.items()}
    nfv = merge_patch(nfv, _additional_nfv(request, what))
    _check_flavours(nfv, counts, what, form)
    return nfv


def with_image_ids(nfv, image_ids):
    """``nfv`` with every vcImageId that names a known image replaced by that image's id."""
    result = copy.deepcopy(nfv)
    for entry in (result.get("VDU") or {}).values():
        if isinstance(entry, dict) and entry.get("vcImageId") in image_ids:
            entry["vcImageId"] = image_ids[entry["vcImageId"]]
    return result


def with_image_names(nfv, image_ids, request):
    """``nfv`` as Tacker v2 gives it to Heat without an NFVO grant, for the record's VNFC metadata: each vcImageId that
    :func:`with_image_ids` made a Glance id is the image name again, unless the request's ``additionalParams.nfv`` gave
    that entry's vcImageId (then as the request gave it)."""
    names = {}
    for name, image_id in sorted(image_ids.items()):
        if name != image_id:
            names.setdefault(image_id, name)
    given = _additional_nfv(request, INSTANTIATE).get("VDU") or {}
    result = copy.deepcopy(nfv)
    for key, entry in (result.get("VDU") or {}).items():
        if not isinstance(entry, dict) or "vcImageId" not in entry:
            continue
        if "vcImageId" in (given.get(key) or {}):
            entry["vcImageId"] = given[key]["vcImageId"]
        elif entry["vcImageId"] in names:
            entry["vcImageId"] = names[entry["vcImageId"]]
    return result


def vdu_params(flavour, counts, image_ids, form=STANDARD_FORM):
    """The VDU section: flavour and image of each VNFC (or VDU), and the image of each of its storages."""
    images = image_names(flavour)
    images.update(image_ids)
    section = {}
    for vdu_id, vdu in sorted((flavour.get("vdus") or {}).items()):
        count = counts.get(vdu_id, 0)
        for key in form.keys(vdu_id, count, vdu_id):
            entry = dict({"computeFlavourId": vdu.get("flavour")}, **form.capacity(vdu_id, count))
            if vdu_id in images:
                entry["vcImageId"] = images[vdu_id]
            section[key] = entry
        for storage_id in vdu.get("virtual_storages") or []:
            if storage_id in images:
                for key in form.keys(storage_id, count, vdu_id):
                    section[key] = {"vcImageId": images[storage_id]}
    return section


def image_names(flavour):
    """VDU / VirtualBlockStorage id -> the image name its sw_image_data gives (what to look up in Glance).

    A VDU that boots from a volume has no image of its own (the reader copies the volume's onto it).
    """
    names = {}
    for vdu_id, vdu in (flavour.get("vdus") or {}).items():
        if not vdu.get("boot_storage") and (vdu.get("sw_image_data") or {}).get("name"):
            names[vdu_id] = vdu["sw_image_data"]["name"]
    for storage_id, storage in (flavour.get("virtual_storages") or {}).items():
        if (storage.get("sw_image_data") or {}).get("name"):
            names[storage_id] = storage["sw_image_data"]["name"]
    return dict(sorted(names.items()))


def _check_flavours(nfv, counts, what, form):
    for vdu_id in sorted(counts):
        for key in form.keys(vdu_id, counts[vdu_id], vdu_id):
            entry = (nfv.get("VDU") or {}).get(key)
            if not isinstance(entry, dict) or not entry.get("computeFlavourId"):
                field = "additionalParams.nfv.VDU.{0}.computeFlavourId".format(key)
                raise ValidationError(what, field, "VDU {0} has no Nova flavour: the VNFD gives no requested_additional_capability_name "
                                                   "and the request sets none".format(vdu_id))


def _additional_nfv(request, what):
    patch = (request.get("additionalParams") or {}).get("nfv")
    if patch is None:
        return {}
    if not isinstance(patch, dict):
        raise ValidationError(what, "additionalParams.nfv", "must be an object (a JSON Merge Patch of the nfv parameter)")
    return patch


# ---------------------------------------------------------------------------------------------
# External connection points

def cp_params(flavour, ext_virtual_links, counts, what=INSTANTIATE, form=STANDARD_FORM):
    """The CP section from extVirtualLinks: per VNFC (or CP), ``network`` (+ ``fixed_ips``) or ``port``."""
    cps = flavour.get("cps") or {}
    section = {}
    seen = {}
    for link_index, link in enumerate(ext_virtual_links):
        link_path = field_path("extVirtualLinks", link_index)
        ports = {port.get("id"): port for port in link.get("extLinkPorts") or []}
        for cp_index, ext_cp in enumerate(link.get("extCps") or []):
            cp_path = field_path(field_path(link_path, "extCps"), cp_index)
            cpd_id = ext_cp.get("cpdId")
            require_known(what, field_path(cp_path, "cpdId"), cpd_id, cps, "CP", "the flavour")
            _check_external(cps[cpd_id], cpd_id, field_path(cp_path, "cpdId"), seen, what)
            seen[cpd_id] = cp_path
            for key, value in _cp_entries(cps[cpd_id], cpd_id, ext_cp, link, ports, counts, cp_path, what, form):
                section[key] = value
    return section


def ports_set_by_nfv(flavour, ext_virtual_links, counts, nfv_patch, what=INSTANTIATE, form=STANDARD_FORM):
    """extLinkPorts resourceIds that ``nfv_patch`` (additionalParams.nfv) replaces on every CP they serve: Tacker's
    requests put a placeholder (``dummy-id``) there and name the real port in ``nfv.CP.<cp>.port``, which is merged last.
    ``{resourceId: [nfv CP keys]}``; such a resourceId is never used, so it need not exist."""
    cp_patch = (nfv_patch or {}).get("CP") if isinstance(nfv_patch, dict) else None
    if not isinstance(cp_patch, dict):
        return {}
    served = {}
    for key, value in sorted(cp_params(flavour, ext_virtual_links, counts, what, form).items()):
        if value.get("port"):
            served.setdefault(value["port"], []).append(key)
    return {port: keys for port, keys in served.items() if all(port_patched(cp_patch, key) for key in keys)}


def port_patched(cp_patch, key):
    return isinstance(cp_patch.get(key), dict) and bool(cp_patch[key].get("port"))


def _check_external(cp, cpd_id, field, seen, what):
    if cpd_id in seen:
        raise ValidationError(what, field, "CP {0} is already connected by {1}".format(cpd_id, seen[cpd_id]))
    if cp.get("virtual_link"):
        raise ValidationError(what, field, "CP {0} is bound to the internal virtual link {1} in the VNFD".format(cpd_id, cp["virtual_link"]))


def _cp_entries(cp, cpd_id, ext_cp, link, ports, counts, cp_path, what, form):
    """``(nfv key, value)`` per VNFC of the CP's VDU; a CP without a VDU has one, unindexed, entry.

    Several cpConfig entries are handed out one per VNFC, in order; a single one serves every VNFC, and
    every member of a scaling group (DefaultUserData: one entry for the group).
    """
    configs = list((ext_cp.get("cpConfig") or {}).items())
    vdu_id = cp.get("vdu")
    keys = [cpd_id] if vdu_id is None else form.keys(cpd_id, counts.get(vdu_id, 0), vdu_id)
    shared = len(keys) > 1 or vdu_id in form.groups
    if len(configs) > 1 and vdu_id in form.groups:
        raise ValidationError(what, field_path(cp_path, "cpConfig"), "{0} cpConfig entries for CP {1}: the members of scaling group {2} "
                                                                     "share one".format(len(configs), cpd_id, form.groups[vdu_id]))
    if len(configs) > 1 and len(keys) > len(configs):
        raise ValidationError(what, field_path(cp_path, "cpConfig"), "{0} cpConfig entries for {1} VNFCs of CP {2}; give one per VNFC, "
                                                                     "or a single one for all".format(len(configs), len(keys), cpd_id))
    entries = []
    for position, key in enumerate(keys):
        config_id, config = configs[position] if len(configs) > 1 else (configs[0] if configs else (None, {}))
        config_path = field_path(field_path(cp_path, "cpConfig"), config_id) if config_id else cp_path
        if shared and len(configs) == 1:
            _check_shareable(config, config_path, cpd_id, what)
        entries.append((key, _cp_value(link, config, ports, config_path, what)))
    return entries


def _check_shareable(config, config_path, cpd_id, what):
    """One cpConfig for several VNFCs: fine for dynamic addresses, impossible for a fixed IP or a port."""
    if config.get("linkPortId"):
        raise ValidationError(what, field_path(config_path, "linkPortId"), "one port cannot serve every VNFC of CP {0}".format(cpd_id))
    if any(address.get("fixedAddresses") for address in _ip_addresses(config)):
        raise ValidationError(what, field_path(config_path, "cpProtocolData"), "one fixed address cannot serve every VNFC of CP {0}".format(cpd_id))


def _cp_value(link, config, ports, config_path, what):
    port_id = config.get("linkPortId")
    if port_id:
        if port_id not in ports:
            raise ValidationError(what, field_path(config_path, "linkPortId"), "{0!r} is not one of the link's extLinkPorts".format(port_id))
        return {"port": ((ports[port_id].get("resourceHandle") or {}).get("resourceId"))}
    value = {"network": link.get("resourceId")}
    fixed_ips = fixed_ips_of(config)
    if fixed_ips:
        value["fixed_ips"] = fixed_ips
    return value


def _ip_addresses(config):
    return [
        address
        for protocol in config.get("cpProtocolData") or []
        for address in ((protocol.get("ipOverEthernet") or {}).get("ipAddresses") or [])
    ]


def fixed_ips_of(config):
    """Heat ``fixed_ips`` from a cpConfig: one entry per fixed address, or the subnet for dynamic ones."""
    fixed_ips = []
    for address in _ip_addresses(config):
        subnet = address.get("subnetId")
        fixed = address.get("fixedAddresses") or []
        for ip_address in fixed:
            entry = {"ip_address": str(ip_address)}
            if subnet:
                entry["subnet"] = subnet
            fixed_ips.append(entry)
        if not fixed and subnet:
            fixed_ips.append({"subnet": subnet})
    return fixed_ips


# ---------------------------------------------------------------------------------------------
# Internal VLs the NFVO manages

def managed_networks(flavour, ext_managed_virtual_links, what=INSTANTIATE):
    """VL id -> network id from extManagedVirtualLinks (the VL must exist, once; two entries for one VL name both)."""
    virtual_links = flavour.get("virtual_links") or {}
    networks = {}
    given_by = {}
    for index, managed in enumerate(ext_managed_virtual_links):
        path = field_path("extManagedVirtualLinks", index)
        vl_id = managed.get("vnfVirtualLinkDescId")
        require_known(what, field_path(path, "vnfVirtualLinkDescId"), vl_id, virtual_links, "virtual link", "the flavour")
        if vl_id in given_by:
            raise ValidationError(what, field_path(path, "vnfVirtualLinkDescId"), "virtual link {0} is given twice, by {1} and {2}: "
                                  "one network per virtual link".format(vl_id, given_by[vl_id], path))
        given_by[vl_id] = path
        if not managed.get("resourceId"):
            raise ValidationError(what, field_path(path, "resourceId"), "the network of virtual link {0} is missing".format(vl_id))
        networks[vl_id] = managed["resourceId"]
    return networks


# ---------------------------------------------------------------------------------------------
# Requests that change only part of the connectivity

def effective_links(current, requested, key="id"):
    """extVirtualLinks (or, by another ``key``, extManagedVirtualLinks) after a request that lists only what changes.

    A requested link replaces the current one with the same ``key``; new ones are added; current links
    the request does not name are kept (SOL003: unchanged entries may be omitted).
    """
    requested_by_key = {link.get(key): link for link in requested or []}
    merged = [requested_by_key.pop(link.get(key), link) for link in current or []]
    return merged + [link for link in requested or [] if link.get(key) in requested_by_key]


def effective_managed_links(current, requested):
    """extManagedVirtualLinks after a request (ChangeCurrentVnfPkg, ChangeExtVnfConnectivity).

    Matched by vnfVirtualLinkDescId, as Tacker applies SOL003: a VNF has one network per internal VL, so an
    entry for a VL the instance already has replaces that link whatever its ``id`` (Tacker's requests give
    every managed link a fresh id). Two entries for one VL inside a request are ``managed_networks``' error.
    """
    return effective_links(current, requested, key="vnfVirtualLinkDescId")
