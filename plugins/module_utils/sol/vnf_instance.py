# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""VnfInstance documents (SOL003 5.5.2.2): creation, modification and small read helpers.

Pure functions over plain dicts; they return new documents and never change their inputs.
"""

from __future__ import annotations

import copy
import uuid

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.merge_patch import merge_patch
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.schema import field_path
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import recordable_vims

NOT_INSTANTIATED = "NOT_INSTANTIATED"
INSTANTIATED = "INSTANTIATED"

# VnfInstance attribute -> key of the VNFD dict produced by the package reader.
_VNFD_IDENTITY = (
    ("vnfdId", "descriptor_id"),
    ("vnfProvider", "provider"),
    ("vnfProductName", "product_name"),
    ("vnfSoftwareVersion", "software_version"),
    ("vnfdVersion", "descriptor_version"),
)

# VnfInfoModificationRequest attributes SOL003 says are applied as JSON Merge Patch.
_MERGED_ATTRIBUTES = ("vnfConfigurableProperties", "metadata", "extensions", "vimConnectionInfo")
_REPLACED_ATTRIBUTES = ("vnfInstanceName", "vnfInstanceDescription", "vnfdId", "vnfPkgId")
# Instances are created from module options; errors name those.
_CREATION_OPTIONS = ("vnf_instance_name", "vnf_instance_description")


def new_vnf_instance(vnfd, name=None, description=None, metadata=None, instance_id=None):
    """A NOT_INSTANTIATED VnfInstance for ``vnfd``; a random uuid4 id unless ``instance_id`` is given.

    ``name`` and ``description`` are the module options vnf_instance_name / vnf_instance_description,
    held to the lengths a VnfInfoModificationRequest is held to.
    """
    # Imported here: sol/links.py imports this module for two names, and vnf_info needs no request validation.
    from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import check_vnf_instance_texts

    check_vnf_instance_texts("module options", name, description, _CREATION_OPTIONS)
    instance = {"id": instance_id or str(uuid.uuid4())}
    instance.update(vnfd_identity(vnfd))
    optional = (("vnfInstanceName", name), ("vnfInstanceDescription", description), ("metadata", metadata))
    instance.update((attribute, copy.deepcopy(value)) for attribute, value in optional if value is not None)
    instance["instantiationState"] = NOT_INSTANTIATED
    return instance


# VnfInstance attributes an InstantiateVnfRequest sets (JSON Merge Patch over what the instance has), as Tacker v2 does.
INSTANTIATE_MERGED = ("vnfConfigurableProperties", "extensions")


def without_instantiated_info(instance):
    """The record of a VNF instance with what only an instantiated one has (its instantiatedVnfInfo, its VIMs) left out."""
    return {key: value for key, value in instance.items() if key not in ("instantiatedVnfInfo", "vimConnectionInfo")}


def with_instantiate_fields(instance, request):
    """``instance`` with the request's vnfConfigurableProperties and extensions merged in (SOL003 InstantiateVnfRequest). Pure."""
    result = dict(instance)
    for attribute in INSTANTIATE_MERGED:
        if isinstance(request.get(attribute), dict):
            result[attribute] = merge_patch(instance.get(attribute) or {}, request[attribute])
    return result


def vnfd_identity(vnfd):
    """The VnfInstance attributes that identify its VNFD (vnfdId, vnfProvider, ..., vnfdVersion)."""
    identity = {}
    for attribute, vnfd_key in _VNFD_IDENTITY:
        if not vnfd.get(vnfd_key):
            raise ValidationError("VNFD", vnfd_key, "is required to identify the VNF of an instance")
        identity[attribute] = vnfd[vnfd_key]
    return identity


def require_instantiation_state(instance, expected, operation):
    """ConflictError (SOL003 answers 409) unless the instance is in the ``expected`` state."""
    actual = instance.get("instantiationState")
    if actual != expected:
        raise ConflictError(operation, "VNF instance {0}".format(instance.get("id")), "it is {0}, must be {1}".format(actual, expected))


# Tacker v2 names an external CP's extCpInfo after its link port: ``cp-<link port id>``.
EXT_CP_ID_PREFIX = "cp-"


def ext_cp_id(link_port_id):
    """The extCpInfo id of the external CP on link port ``link_port_id``."""
    return EXT_CP_ID_PREFIX + link_port_id


def cp_protocol_info(protocol_data):
    """SOL003 CpProtocolInfo (5.5.3.9b) of a request's CpProtocolData (4.4.1.10b), as Tacker v2 reports it:
    fixed addresses as ``addresses``, a number of dynamic ones as ``isDynamic``."""
    info = {"layerProtocol": protocol_data.get("layerProtocol")}
    data = protocol_data.get("ipOverEthernet")
    if data is None:
        return info
    ip_info = {key: data[key] for key in ("macAddress", "segmentationId") if key in data}
    if "ipAddresses" in data:
        ip_info["ipAddresses"] = [_ip_address_info(address) for address in data["ipAddresses"] or []]
    info["ipOverEthernet"] = ip_info
    return info


def _ip_address_info(address):
    info = {"type": address.get("type")}
    if "fixedAddresses" in address:
        info["addresses"] = copy.deepcopy(address["fixedAddresses"])
    if "numDynamicAddresses" in address:
        info["isDynamic"] = True
    info.update((key, copy.deepcopy(address[key])) for key in ("addressRange", "subnetId") if key in address)
    return info


def current_scale_levels(instance):
    """aspectId -> scaleLevel from instantiatedVnfInfo.scaleStatus (empty when not instantiated)."""
    info = instance.get("instantiatedVnfInfo") or {}
    return {status["aspectId"]: status.get("scaleLevel", 0) for status in info.get("scaleStatus") or []}


def apply_vnf_info_modification(instance, request, new_vnfd=None):
    """The instance after a (validated) VnfInfoModificationRequest, per SOL003 5.5.2.12.

    Names and ids are replaced; KeyValuePairs and vimConnectionInfo are JSON-merge-patched (vimConnectionInfo as a
    record keeps it: sol/vim_connection.py); vimConnectionInfoDeleteIds removes VIM connections; vnfcInfoModifications
    patch VNFCs.
    When the request changes vnfdId, ``new_vnfd`` (that VNFD) refreshes provider, versions, etc.
    """
    result = copy.deepcopy(instance)
    for attribute in _REPLACED_ATTRIBUTES:
        if attribute in request:
            result[attribute] = request[attribute]
    if new_vnfd is not None and "vnfdId" in request:
        if new_vnfd.get("descriptor_id") != request["vnfdId"]:
            raise ValidationError("VnfInfoModificationRequest", "vnfdId", "{0!r} is not the id of the given VNFD ({1!r})".format(
                request["vnfdId"], new_vnfd.get("descriptor_id")))
        result.update(vnfd_identity(new_vnfd))
    for attribute in _MERGED_ATTRIBUTES:
        if attribute in request:
            result[attribute] = merge_patch(result.get(attribute) or {}, request[attribute])
    for vim_id in request.get("vimConnectionInfoDeleteIds") or []:
        (result.get("vimConnectionInfo") or {}).pop(vim_id, None)
    if result.get("vimConnectionInfo"):
        result["vimConnectionInfo"] = recordable_vims(result["vimConnectionInfo"])
    vnfc_info = (result.get("instantiatedVnfInfo") or {}).get("vnfcInfo") or []
    _modify_vnfc_info(vnfc_info, request.get("vnfcInfoModifications") or [])
    return result


def modified_attributes(before, after):
    """The VnfInstance attributes a modification changed (instantiatedVnfInfo is the VIM's, not the request's)."""
    return [key for key in sorted(set(before) | set(after)) if key != "instantiatedVnfInfo" and before.get(key) != after.get(key)]


def modification_diff(before, after):
    """Before/after of the attributes a modification changed, and of the VNFCs whose vnfcConfigurableProperties changed."""
    keys = modified_attributes(before, after)
    diff = {"before": {key: before.get(key) for key in keys}, "after": {key: after.get(key) for key in keys}}
    old = {vnfc.get("id"): vnfc for vnfc in (before.get("instantiatedVnfInfo") or {}).get("vnfcInfo") or []}
    for vnfc in (after.get("instantiatedVnfInfo") or {}).get("vnfcInfo") or []:
        previous = (old.get(vnfc.get("id")) or {}).get("vnfcConfigurableProperties")
        if vnfc.get("vnfcConfigurableProperties") != previous:
            label = "vnfcInfo[{0}].vnfcConfigurableProperties".format(vnfc.get("id"))
            diff["before"][label] = previous
            diff["after"][label] = vnfc.get("vnfcConfigurableProperties")
    return diff


def _vnfc_by_id(vnfc_info, vnfc_id, field):
    for vnfc in vnfc_info:
        if vnfc.get("id") == vnfc_id:
            return vnfc
    raise ValidationError("VnfInfoModificationRequest", field, "no VNFC {0!r} in the VNF instance".format(vnfc_id))


def _modify_vnfc_info(vnfc_info, modifications):
    # vnfc_info belongs to the private copy being built, so it is changed in place.
    for index, modification in enumerate(modifications):
        vnfc = _vnfc_by_id(vnfc_info, modification["id"], field_path(field_path("vnfcInfoModifications", index), "id"))
        vnfc["vnfcConfigurableProperties"] = merge_patch(vnfc.get("vnfcConfigurableProperties") or {}, modification["vnfcConfigurableProperties"])
