# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A SOL003 conformance check of the VnfInstance and VnfLcmOpOcc documents modules return (unit and lab tests).

The schema follows ETSI GS NFV-SOL 003 v3.3.1, 5.5.2.2 (VnfInstance) and 5.5.2.13 (VnfLcmOpOcc), as Tacker's v2
objects (tacker/sol_refactored/objects/v2/vnf_instance.py, vnf_lcm_op_occ.py) define them: required attributes,
enumerations, RFC 3339 date-times, and ``_links``: each link ``{"href": URI}``, ``self`` always, the task links only in
the states where SOL003 allows them. :data:`COLLECTION_INSTANCE_LINKS` adds what this collection offers, which must then
be there (getting-started guide, "Links").

``problems(document)`` lists what does not conform (each with its JSON path); ``assert_conforms(result)`` checks every
document of a module result and fails with all of them.
"""

from __future__ import annotations

import re

INSTANTIATION_STATES = ("NOT_INSTANTIATED", "INSTANTIATED")
VNF_STATES = ("STARTED", "STOPPED")
OPERATION_STATES = ("STARTING", "PROCESSING", "COMPLETED", "FAILED_TEMP", "FAILED", "ROLLING_BACK", "ROLLED_BACK")
OPERATIONS = ("INSTANTIATE", "SCALE", "SCALE_TO_LEVEL", "CHANGE_FLAVOUR", "TERMINATE", "HEAL", "OPERATE", "CHANGE_EXT_CONN",
              "MODIFY_INFO", "CREATE_SNAPSHOT", "REVERT_TO_SNAPSHOT", "CHANGE_VNFPKG")
CANCEL_MODES = ("GRACEFUL", "FORCEFUL")
CHANGE_TYPES = ("ADDED", "REMOVED", "MODIFIED", "TEMPORARY")
LINK_CHANGE_TYPES = CHANGE_TYPES + ("LINK_PORT_ADDED", "LINK_PORT_REMOVED")
CP_INSTANCE_TYPES = ("VNFC_CP", "EXT_CP")
LAYER_PROTOCOLS = ("IP_OVER_ETHERNET", "IP_FOR_VIRTUAL_CP")
OPENSTACK_VIM_TYPE = "OPENSTACK_KEYSTONE"

VNF_INSTANCE_REQUIRED = ("id", "vnfdId", "vnfProvider", "vnfProductName", "vnfSoftwareVersion", "vnfdVersion", "instantiationState", "_links")
VNF_INSTANCE_ATTRIBUTES = VNF_INSTANCE_REQUIRED + (
    "vnfInstanceName", "vnfInstanceDescription", "vnfConfigurableProperties", "vimConnectionInfo", "instantiatedVnfInfo", "metadata", "extensions")
INSTANTIATED_INFO_REQUIRED = ("flavourId", "vnfState")
OP_OCC_REQUIRED = ("id", "operationState", "stateEnteredTime", "startTime", "vnfInstanceId", "operation", "isAutomaticInvocation",
                   "isCancelPending", "_links")
OP_OCC_ATTRIBUTES = OP_OCC_REQUIRED + ("grantId", "operationParams", "cancelMode", "error", "resourceChanges", "changedInfo",
                                       "changedExtConnectivity", "modificationsTriggeredByVnfPkgChange", "vnfSnapshotInfoId")
# Not SOL003 attributes, documented by the collection: a running op occ's lease (vnf_info, vnf_lcm_op_occ).
OP_OCC_EXTRA = ("lease",)

# SOL003 5.5.2.2 _links: the task links and the one instantiationState in which each may be present.
INSTANCE_TASK_LINKS = {
    "instantiate": "NOT_INSTANTIATED",
    "terminate": "INSTANTIATED",
    "scale": "INSTANTIATED",
    "scaleToLevel": "INSTANTIATED",
    "changeFlavour": "INSTANTIATED",
    "heal": "INSTANTIATED",
    "operate": "INSTANTIATED",
    "changeExtConn": "INSTANTIATED",
    "createSnapshot": "INSTANTIATED",
    "revertToSnapshot": "INSTANTIATED",
}
INSTANCE_LINKS = ("self", "indicators") + tuple(INSTANCE_TASK_LINKS)
# The task links this collection gives (it has those operations), which must be present in that state.
COLLECTION_INSTANCE_LINKS = {"INSTANTIATED": ("terminate", "scale", "scaleToLevel", "heal"), "NOT_INSTANTIATED": ("instantiate",)}

# SOL003 5.5.2.13 _links: retry / rollback / fail only for FAILED_TEMP, cancel only while the operation runs.
OP_OCC_LINKS = ("self", "vnfInstance", "grant", "cancel", "retry", "rollback", "fail", "vnfSnapshot")
OP_OCC_STATE_LINKS = {"retry": ("FAILED_TEMP",), "rollback": ("FAILED_TEMP",), "fail": ("FAILED_TEMP",),
                      "cancel": ("STARTING", "PROCESSING", "ROLLING_BACK")}
# This collection can fail every FAILED_TEMP op occ, and retry every operation it has.
COLLECTION_FAILED_TEMP_LINKS = ("fail", "retry")
COLLECTION_OPERATIONS = ("INSTANTIATE", "SCALE", "SCALE_TO_LEVEL", "HEAL", "TERMINATE", "MODIFY_INFO", "CHANGE_VNFPKG", "CHANGE_EXT_CONN")

DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:\S+$")


class Checker:
    def __init__(self):
        self.found = []

    def problem(self, path, message):
        self.found.append("{0}: {1}".format(path, message))

    def required(self, document, names, path):
        for name in names:
            if name not in document or document[name] is None:
                self.problem("{0}.{1}".format(path, name), "required, missing")

    def known(self, document, names, path):
        for name in sorted(set(document) - set(names)):
            self.problem("{0}.{1}".format(path, name), "not a SOL003 attribute")

    def string(self, document, name, path):
        if name in document and not (isinstance(document[name], str) and document[name]):
            self.problem("{0}.{1}".format(path, name), "must be a non-empty string, got {0!r}".format(document[name]))

    def boolean(self, document, name, path):
        if name in document and not isinstance(document[name], bool):
            self.problem("{0}.{1}".format(path, name), "must be a boolean, got {0!r}".format(document[name]))

    def enum(self, document, name, values, path):
        if name in document and document[name] not in values:
            self.problem("{0}.{1}".format(path, name), "{0!r} is not one of {1}".format(document[name], ", ".join(values)))

    def date_time(self, document, name, path):
        if name in document and not (isinstance(document[name], str) and DATE_TIME.match(document[name])):
            self.problem("{0}.{1}".format(path, name), "{0!r} is not an RFC 3339 date-time".format(document[name]))

    def mapping(self, document, name, path):
        if name in document and document[name] is not None and not isinstance(document[name], dict):
            self.problem("{0}.{1}".format(path, name), "must be an object")
            return False
        return isinstance(document.get(name), dict)

    def items(self, document, name, path):
        """The dict elements of list ``name`` with their paths (a problem for anything else)."""
        value = document.get(name)
        if value is None:
            return []
        if not isinstance(value, list):
            self.problem("{0}.{1}".format(path, name), "must be a list")
            return []
        found = []
        for index, item in enumerate(value):
            where = "{0}.{1}[{2}]".format(path, name, index)
            if isinstance(item, dict):
                found.append((item, where))
            else:
                self.problem(where, "must be an object")
        return found

    def links(self, document, allowed, path):
        """The ``_links`` object (name -> href), each link checked to be ``{"href": URI}``."""
        value = document.get("_links")
        if not isinstance(value, dict):
            if "_links" in document:
                self.problem(path + "._links", "must be an object")
            return {}
        hrefs = {}
        for name, item in value.items():
            where = "{0}._links.{1}".format(path, name)
            if name not in allowed:
                self.problem(where, "not a SOL003 link of this type")
            elif not (isinstance(item, dict) and set(item) == {"href"} and isinstance(item["href"], str) and URI.match(item["href"])):
                self.problem(where, "must be {{\"href\": URI}}, got {0!r}".format(item))
            else:
                hrefs[name] = item["href"]
        return hrefs


def vnf_instance_problems(document, path="vnf_instance", collection=True):
    """What does not conform in a VnfInstance; ``collection``: also the task links this collection must give."""
    check = Checker()
    if not isinstance(document, dict):
        return ["{0}: must be an object".format(path)]
    check.required(document, VNF_INSTANCE_REQUIRED, path)
    check.known(document, VNF_INSTANCE_ATTRIBUTES, path)
    for name in ("id", "vnfdId", "vnfProvider", "vnfProductName", "vnfSoftwareVersion", "vnfdVersion"):
        check.string(document, name, path)
    check.enum(document, "instantiationState", INSTANTIATION_STATES, path)
    for name in ("vnfInstanceName", "vnfInstanceDescription"):
        if document.get(name) is not None and not isinstance(document[name], str):
            check.problem("{0}.{1}".format(path, name), "must be a string")
    for name in ("vnfConfigurableProperties", "metadata", "extensions"):
        check.mapping(document, name, path)
    if check.mapping(document, "vimConnectionInfo", path):
        for key, connection in document["vimConnectionInfo"].items():
            where = "{0}.vimConnectionInfo.{1}".format(path, key)
            if not isinstance(connection, dict):
                check.problem(where, "must be an object")
                continue
            check.required(connection, ("vimType",), where)
            if "accessInfo" in connection:
                check.problem(where + ".accessInfo", "a VIM's credentials are never returned (SOL003 4.4.1.6)")
    state = document.get("instantiationState")
    if state == "INSTANTIATED" and not isinstance(document.get("instantiatedVnfInfo"), dict):
        check.problem(path + ".instantiatedVnfInfo", "required when INSTANTIATED")
    if check.mapping(document, "instantiatedVnfInfo", path):
        instantiated_info(check, document["instantiatedVnfInfo"], path + ".instantiatedVnfInfo", state)
        connections = document.get("vimConnectionInfo") if isinstance(document.get("vimConnectionInfo"), dict) else {}
        if collection and any(OPENSTACK_VIM_TYPE in str((item or {}).get("vimType")) for item in connections.values() if isinstance(item, dict)):
            check.found += openstack_vnfc_metadata_problems(document, path)
    hrefs = check.links(document, INSTANCE_LINKS, path)
    if isinstance(document.get("_links"), dict) and "self" not in document["_links"]:
        check.problem(path + "._links.self", "required, missing")
    for name, applies_in in INSTANCE_TASK_LINKS.items():
        if name in hrefs and state != applies_in:
            check.problem("{0}._links.{1}".format(path, name), "only present when {0}, the instance is {1}".format(applies_in, state))
    if collection:
        for name in COLLECTION_INSTANCE_LINKS.get(state, ()):
            if isinstance(document.get("_links"), dict) and name not in document["_links"]:
                check.problem("{0}._links.{1}".format(path, name), "missing: the collection has this operation for a {0} instance".format(state))
    return check.found


def instantiated_info(check, info, path, state):
    if state == "INSTANTIATED":
        check.required(info, INSTANTIATED_INFO_REQUIRED, path)
    check.string(info, "flavourId", path)
    check.enum(info, "vnfState", VNF_STATES, path)
    for name in ("scaleStatus", "maxScaleLevels"):
        for item, where in check.items(info, name, path):
            check.required(item, ("aspectId", "scaleLevel"), where)
            if "scaleLevel" in item and not (isinstance(item["scaleLevel"], int) and not isinstance(item["scaleLevel"], bool) and item["scaleLevel"] >= 0):
                check.problem(where + ".scaleLevel", "must be an integer >= 0")
    vnfc_cps = {}
    for item, where in check.items(info, "vnfcResourceInfo", path):
        check.required(item, ("id", "vduId", "computeResource"), where)
        if check.mapping(item, "computeResource", where):
            check.required(item["computeResource"], ("resourceId",), where + ".computeResource")
        check.mapping(item, "metadata", where)
        for cp, cp_where in check.items(item, "vnfcCpInfo", where):
            check.required(cp, ("id", "cpdId"), cp_where)
            vnfc_cps[cp.get("id")] = (cp, cp_where)
    for item, where in check.items(info, "vnfcInfo", path):
        check.required(item, ("id", "vduId", "vnfcState"), where)
        check.enum(item, "vnfcState", VNF_STATES, where)
    vnf_link_ports, ext_link_ports = {}, {}
    for item, where in check.items(info, "vnfVirtualLinkResourceInfo", path):
        check.required(item, ("id", "vnfVirtualLinkDescId", "networkResource"), where)
        vnf_link_ports.update(link_ports(check, item, "vnfLinkPorts", where))
    for item, where in check.items(info, "extManagedVirtualLinkInfo", path):
        check.required(item, ("id", "vnfVirtualLinkDescId", "networkResource"), where)
        vnf_link_ports.update(link_ports(check, item, "vnfLinkPorts", where))
    for item, where in check.items(info, "virtualStorageResourceInfo", path):
        check.required(item, ("id", "virtualStorageDescId", "storageResource"), where)
    for item, where in check.items(info, "extVirtualLinkInfo", path):
        check.required(item, ("id", "resourceHandle", "currentVnfExtCpData"), where)
        ext_link_ports.update(link_ports(check, item, "extLinkPorts", where))
        # VnfExtCpData, 1..N: the external CPs of the link as the last request gave them.
        if "currentVnfExtCpData" in item and not check.items(item, "currentVnfExtCpData", where):
            check.problem(where + ".currentVnfExtCpData", "must list at least one VnfExtCpData")
        for cp_data, cp_where in check.items(item, "currentVnfExtCpData", where):
            check.required(cp_data, ("cpdId",), cp_where)
    ext_cps = ext_cp_info(check, info, path, vnfc_cps, ext_link_ports, vnf_link_ports)
    # The links between them, both ways: a VNFC CP is exposed as an external CP or on a link port; a link port names its CP.
    for cp, where in vnfc_cps.values():
        for name in ("vnfExtCpId", "vnfLinkPortId"):
            check.string(cp, name, where)
        if "vnfExtCpId" in cp and cp["vnfExtCpId"] not in ext_cps:
            check.problem(where + ".vnfExtCpId", "{0!r} is no extCpInfo id".format(cp["vnfExtCpId"]))
        if "vnfLinkPortId" in cp and cp["vnfLinkPortId"] not in vnf_link_ports and cp["vnfLinkPortId"] not in ext_link_ports:
            check.problem(where + ".vnfLinkPortId", "{0!r} is no link port of vnfVirtualLinkResourceInfo, extManagedVirtualLinkInfo or "
                                                    "extVirtualLinkInfo".format(cp["vnfLinkPortId"]))
        if "vnfExtCpId" not in cp and "vnfLinkPortId" not in cp:
            check.problem(where, "connected to nothing: neither vnfExtCpId nor vnfLinkPortId")
    for port_id, (port, where) in vnf_link_ports.items():
        if port.get("cpInstanceType") == "VNFC_CP" and port.get("cpInstanceId") not in vnfc_cps:
            check.problem(where + ".cpInstanceId", "{0!r} is no vnfcCpInfo id".format(port.get("cpInstanceId")))
        if port.get("cpInstanceType") == "EXT_CP" and port.get("cpInstanceId") not in ext_cps:
            check.problem(where + ".cpInstanceId", "{0!r} is no extCpInfo id".format(port.get("cpInstanceId")))
    for port_id, (port, where) in ext_link_ports.items():
        if "cpInstanceId" in port and port["cpInstanceId"] not in ext_cps:
            check.problem(where + ".cpInstanceId", "{0!r} is no extCpInfo id".format(port["cpInstanceId"]))


def link_ports(check, link, name, path):
    """Link port id -> (port, path) of a link's ``vnfLinkPorts`` / ``extLinkPorts``, each with an id and a resourceHandle."""
    found = {}
    for port, where in check.items(link, name, path):
        check.required(port, ("id", "resourceHandle"), where)
        check.enum(port, "cpInstanceType", CP_INSTANCE_TYPES, where)
        found[port.get("id")] = (port, where)
    return found


def ext_cp_info(check, info, path, vnfc_cps, ext_link_ports, vnf_link_ports):
    """extCpInfo (SOL003 VnfExtCpInfo, 1..N: absent or not empty), each entry's references resolved; its ids."""
    if info.get("extCpInfo") == []:
        check.problem(path + ".extCpInfo", "1..N: absent when there is no external CP, never empty")
    ids = set()
    for item, where in check.items(info, "extCpInfo", path):
        check.required(item, ("id", "cpdId"), where)
        for name in ("id", "cpdId", "cpConfigId", "extLinkPortId", "associatedVnfcCpId", "associatedVnfVirtualLinkId"):
            check.string(item, name, where)
        check.mapping(item, "metadata", where)
        if item.get("id") in ids:
            check.problem(where + ".id", "{0!r} is the id of another extCpInfo entry".format(item.get("id")))
        ids.add(item.get("id"))
        for protocol, protocol_where in check.items(item, "cpProtocolInfo", where):
            check.required(protocol, ("layerProtocol",), protocol_where)
            check.enum(protocol, "layerProtocol", LAYER_PROTOCOLS, protocol_where)
        if "extLinkPortId" in item and item["extLinkPortId"] not in ext_link_ports:
            check.problem(where + ".extLinkPortId", "{0!r} is no extLinkPorts id of extVirtualLinkInfo".format(item["extLinkPortId"]))
        if "associatedVnfcCpId" in item:
            if item["associatedVnfcCpId"] not in vnfc_cps:
                check.problem(where + ".associatedVnfcCpId", "{0!r} is no vnfcCpInfo id".format(item["associatedVnfcCpId"]))
            elif vnfc_cps[item["associatedVnfcCpId"]][0].get("vnfExtCpId") != item.get("id"):
                check.problem(where + ".associatedVnfcCpId", "its vnfcCpInfo does not name this extCpInfo back (vnfExtCpId)")
        links = {link.get("id") for link in info.get("vnfVirtualLinkResourceInfo") or [] if isinstance(link, dict)}
        if "associatedVnfVirtualLinkId" in item and item["associatedVnfVirtualLinkId"] not in links:
            check.problem(where + ".associatedVnfVirtualLinkId", "{0!r} is no vnfVirtualLinkResourceInfo id".format(item["associatedVnfVirtualLinkId"]))
    return ids


def openstack_vnfc_metadata_problems(document, path="vnf_instance"):
    """On OpenStack: each vnfcResourceInfo's metadata has what Tacker v2 gives (creation_time, stack_id, flavor; vdu_idx but for
    a scaling group member, which has parent_stack_id and parent_resource_name instead)."""
    found = []
    for index, item in enumerate(((document or {}).get("instantiatedVnfInfo") or {}).get("vnfcResourceInfo") or []):
        metadata = item.get("metadata") or {}
        where = "{0}.instantiatedVnfInfo.vnfcResourceInfo[{1}].metadata".format(path, index)
        grouped = ("parent_stack_id", "parent_resource_name") if "parent_stack_id" in metadata else ("vdu_idx",)
        found += ["{0}.{1}: required, missing".format(where, name) for name in ("creation_time", "stack_id", "flavor") + grouped if name not in metadata]
        if metadata.get("creation_time") is not None and not DATE_TIME.match(str(metadata["creation_time"])):
            found.append("{0}.creation_time: {1!r} is not an RFC 3339 date-time".format(where, metadata["creation_time"]))
        if not any(key.startswith("image-") for key in metadata):
            found.append("{0}: no image-<VDU> entry".format(where))
    return found


def vnf_lcm_op_occ_problems(document, path="vnf_lcm_op_occ", collection=True):
    """What does not conform in a VnfLcmOpOcc; ``collection``: also the FAILED_TEMP links this collection must give."""
    check = Checker()
    if not isinstance(document, dict):
        return ["{0}: must be an object".format(path)]
    check.required(document, OP_OCC_REQUIRED, path)
    check.known(document, OP_OCC_ATTRIBUTES + OP_OCC_EXTRA, path)
    for name in ("id", "vnfInstanceId"):
        check.string(document, name, path)
    check.enum(document, "operationState", OPERATION_STATES, path)
    check.enum(document, "operation", OPERATIONS, path)
    check.enum(document, "cancelMode", CANCEL_MODES, path)
    for name in ("stateEnteredTime", "startTime"):
        check.date_time(document, name, path)
    for name in ("isAutomaticInvocation", "isCancelPending"):
        check.boolean(document, name, path)
    state = document.get("operationState")
    if state in ("FAILED_TEMP", "FAILED") and not document.get("error"):
        check.problem(path + ".error", "required when {0}".format(state))
    if check.mapping(document, "error", path):
        check.required(document["error"], ("status", "detail"), path + ".error")
        if "status" in document["error"] and not isinstance(document["error"]["status"], int):
            check.problem(path + ".error.status", "must be an integer (an HTTP status)")
    check.mapping(document, "operationParams", path)
    if check.mapping(document, "resourceChanges", path):
        changes, where = document["resourceChanges"], path + ".resourceChanges"
        for name, types in (("affectedVnfcs", CHANGE_TYPES), ("affectedVirtualLinks", LINK_CHANGE_TYPES), ("affectedVirtualStorages", CHANGE_TYPES)):
            for item, item_path in check.items(changes, name, where):
                check.required(item, ("id", "changeType"), item_path)
                check.enum(item, "changeType", types, item_path)
        for item, item_path in check.items(changes, "affectedVnfcs", where):
            check.required(item, ("vduId", "computeResource"), item_path)
        check.items(changes, "affectedExtLinkPorts", where)
    hrefs = check.links(document, OP_OCC_LINKS, path)
    if isinstance(document.get("_links"), dict):
        for name in ("self", "vnfInstance"):
            if name not in document["_links"]:
                check.problem("{0}._links.{1}".format(path, name), "required, missing")
    for name, states in OP_OCC_STATE_LINKS.items():
        if name in hrefs and state not in states:
            check.problem("{0}._links.{1}".format(path, name), "only present when {0}, the op occ is {1}".format(" or ".join(states), state))
    if collection and state == "FAILED_TEMP" and document.get("operation") in COLLECTION_OPERATIONS:
        for name in COLLECTION_FAILED_TEMP_LINKS:
            if isinstance(document.get("_links"), dict) and name not in document["_links"]:
                check.problem("{0}._links.{1}".format(path, name), "missing: the collection can {0} a FAILED_TEMP {1}".format(name, document.get("operation")))
    return check.found


def result_problems(result):
    """Every problem of the documents in a module result: vnf_instance, vnf_lcm_op_occ, vnf_instances, vnf_lcm_op_occs.

    Also: an op occ's ``vnfInstance`` link is its instance's ``self`` when the result holds both.
    """
    found = []
    instances = []
    if result.get("vnf_instance") is not None:
        found += vnf_instance_problems(result["vnf_instance"])
        instances.append(result["vnf_instance"])
    for index, item in enumerate(result.get("vnf_instances") or []):
        found += vnf_instance_problems(item, "vnf_instances[{0}]".format(index))
        instances.append(item)
    occs = [("vnf_lcm_op_occ", result["vnf_lcm_op_occ"])] if result.get("vnf_lcm_op_occ") is not None else []
    occs += [("vnf_lcm_op_occs[{0}]".format(index), item) for index, item in enumerate(result.get("vnf_lcm_op_occs") or [])]
    selves = {item.get("id"): ((item.get("_links") or {}).get("self") or {}).get("href") for item in instances if isinstance(item, dict)}
    for path, item in occs:
        found += vnf_lcm_op_occ_problems(item, path)
        if isinstance(item, dict) and selves.get(item.get("vnfInstanceId")):
            own = ((item.get("_links") or {}).get("vnfInstance") or {}).get("href")
            if own != selves[item["vnfInstanceId"]]:
                found.append("{0}._links.vnfInstance: {1!r} is not its instance's self link {2!r}".format(path, own, selves[item["vnfInstanceId"]]))
    return found


def assert_conforms(result):
    """Fail with every SOL003 problem of the documents of a module result; returns the number of documents checked."""
    found = result_problems(result)
    assert not found, "not SOL003 conformant:\n" + "\n".join(found)
    return (int(result.get("vnf_instance") is not None) + int(result.get("vnf_lcm_op_occ") is not None)
            + len(result.get("vnf_instances") or []) + len(result.get("vnf_lcm_op_occs") or []))
