# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""instantiatedVnfInfo from a stack's resources (``GET .../resources?nested_depth=2``).

Pure: the resources are the plain dicts Heat returns. A VNFC is a top-level resource ``<VDU>-<idx>``
(a server, or a nested template holding the server, its ports and volumes), or a member of an
AutoScalingGroup (see ``heat.form``); ids follow Tacker v2:
vnfcResourceInfo id = server id, vnfcInfo id = ``<VDU>-<server id>``, so a healed VNFC gets new ids.
"""

from __future__ import annotations

import copy

from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.form import SCALING_GROUP_TYPE
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.template import (
    NET_TYPE,
    PORT_TYPE,
    SERVER_TYPE,
    VL_SECTION,
    VOLUME_TYPE,
    is_template_file,
    split_vnfc_name,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import cp_protocol_info, ext_cp_id


def vnfc_parts(resources):
    """VNFC resource name -> ``{"vdu", "index", "group", "resource", "servers", "ports", "volumes"}`` (resource dicts, by logical name).

    A VNFC is a top-level server or nested template (``VDU1-0``, or ``VDU2`` in DefaultUserData) with the top-level
    ports and volumes it requires, or a member of an AutoScalingGroup (DefaultUserData) with what its nested stack
    holds; a member's VDU is its server's name and its index its rank by creation time in the group.
    """
    top = {item["resource_name"]: item for item in resources if not item.get("parent_resource")}
    groups = {name for name, item in top.items() if item["resource_type"] == SCALING_GROUP_TYPE}
    vnfcs = {}
    for name, item in top.items():
        if item["resource_type"] == SERVER_TYPE or is_template_file(item["resource_type"]):
            vdu, index = split_vnfc_name(name)
            vnfcs[name] = _vnfc(item, vdu, index, None)
    members = [item for item in resources if item.get("parent_resource") in groups and is_template_file(item["resource_type"])]
    for item in members:
        vnfcs[item["resource_name"]] = _vnfc(item, None, None, item["parent_resource"])
    bucket = {SERVER_TYPE: "servers", PORT_TYPE: "ports", VOLUME_TYPE: "volumes"}
    for item in resources:
        kind, name, owner = bucket.get(item["resource_type"]), item["resource_name"], item.get("parent_resource")
        if kind is None:
            continue
        if owner in vnfcs:
            vnfcs[owner][kind][name] = item
        elif owner is None and name in vnfcs:
            vnfcs[name][kind][vnfcs[name]["vdu"]] = item
        elif owner is None:
            # A port or volume beside its server in the top template (copied per VNFC as VDU1_CP1-0 in StandardUserData).
            for server in item.get("required_by") or []:
                if server in vnfcs and vnfcs[server]["group"] is None:
                    vnfcs[server][kind][split_vnfc_name(name)[0] if vnfcs[server]["index"] is not None else name] = item
    for item in sorted(members, key=lambda member: (member.get("creation_time") or "", member["resource_name"])):
        vnfc = vnfcs[item["resource_name"]]
        vnfc["vdu"] = next(iter(sorted(vnfc["servers"])), None)
        vnfc["index"] = len([other for other in vnfcs.values() if other["group"] == vnfc["group"] and other["index"] is not None])
    for vnfc in vnfcs.values():
        vnfc["index"] = 0 if vnfc["index"] is None else vnfc["index"]
    return {name: vnfc for name, vnfc in vnfcs.items() if vnfc["vdu"] is not None}


def owner_stack(resource):
    """``{"stack_name", "id"}`` of the (nested) stack that holds ``resource`` (a resource as Heat lists it, with links)."""
    stack_link = next(link["href"] for link in resource.get("links") or [] if link["rel"] == "stack")
    name, _sep, stack_id = stack_link.split("/stacks/", 1)[1].partition("/")
    return {"stack_name": name, "id": stack_id}


def _group_metadata(vnfc_name, vnfc):
    """A scaling group member's vnfcResourceInfo metadata: its group, and where it is as Tacker names it."""
    if not vnfc["group"]:
        return {}
    return {"scalingGroup": vnfc["group"], "parent_stack_id": owner_stack(vnfc["resource"])["id"], "parent_resource_name": vnfc_name}


def _vnfc_metadata(vnfc_name, vnfc, server, nfv):
    """vnfcResourceInfo metadata as Tacker v2 gives it on OpenStack (``creation_time``, ``stack_id``: the stack holding the
    server; ``vdu_idx`` but for a scaling group member; ``flavor`` and ``image-<name>`` from the nfv parameter), beside
    this collection's ``stackResource`` and ``index``."""
    metadata = {"stackResource": vnfc_name, "index": vnfc["index"], "creation_time": server.get("creation_time")}
    if any(link.get("rel") == "stack" for link in server.get("links") or []):
        metadata["stack_id"] = owner_stack(server)["id"]
    metadata.update(_group_metadata(vnfc_name, vnfc))
    # The nfv parameter's keys: <VDU>-<idx> per VNFC, the bare VDU for a group member or a VNFC named without index.
    vdu_idx = None if vnfc["group"] else split_vnfc_name(vnfc_name)[1]
    if not vnfc["group"]:
        metadata["vdu_idx"] = vdu_idx
    params = (nfv or {}).get("VDU") or {}
    key = vnfc["vdu"] if vdu_idx is None else "{0}-{1}".format(vnfc["vdu"], vdu_idx)
    metadata["flavor"] = (params.get(key) or {}).get("computeFlavourId")
    for name in [vnfc["vdu"]] + sorted(vnfc["volumes"]):
        key = name if vdu_idx is None else "{0}-{1}".format(name, vdu_idx)
        image = (params.get(key) or {}).get("vcImageId")
        if image:
            metadata["image-" + key] = image
    return metadata


def _vnfc(resource, vdu, index, group):
    return {"vdu": vdu, "index": index, "group": group, "resource": resource, "servers": {}, "ports": {}, "volumes": {}}


def build_instantiated_info(resources, flavour, request, nfv, vim_id=None, previous=None):
    """The parts of instantiatedVnfInfo that come from the stack: VNFCs, storage, links, ports and external CPs.

    As Tacker v2 links them: a VNFC CP on an internal (or NFVO-managed) VL names its port in ``vnfLinkPortId``; one on an
    external VL names its extCpInfo (``cp-<port id>``) in ``vnfExtCpId``, and that entry names the VNFC CP back.
    """
    cps = flavour.get("cps") or {}
    vnfcs = vnfc_parts(resources)
    resource_info, storage, ports_by_cp = [], [], {}
    for vnfc_name in sorted(vnfcs, key=lambda name: (vnfcs[name]["vdu"], vnfcs[name]["index"])):
        vnfc = vnfcs[vnfc_name]
        servers = list(vnfc["servers"].values())
        if not servers:
            continue
        server = servers[0]
        volume_ids = []
        for storage_id, volume in sorted(vnfc["volumes"].items()):
            volume_ids.append(volume["physical_resource_id"])
            storage.append({"id": volume["physical_resource_id"], "virtualStorageDescId": storage_id,
                            "storageResource": handle(volume, vim_id), "metadata": {"stackResource": vnfc_name}})
        cp_info = []
        for cp_id, port in sorted(vnfc["ports"].items()):
            entry = {"id": "{0}-{1}".format(cp_id, port["physical_resource_id"]), "cpdId": cp_id}
            cp_info.append(entry)
            ports_by_cp.setdefault(cp_id, []).append((entry, port))
        resource_info.append({
            "id": server["physical_resource_id"],
            "vduId": vnfc["vdu"],
            "computeResource": handle(server, vim_id),
            "storageResourceIds": volume_ids,
            "vnfcCpInfo": cp_info,
            "metadata": _vnfc_metadata(vnfc_name, vnfc, server, nfv),
        })
    ext_links, ext_cps = external_links(request, cps, ports_by_cp, vim_id)
    info = {
        "vnfcResourceInfo": resource_info,
        "vnfcInfo": [{"id": "{0}-{1}".format(item["vduId"], item["id"]), "vduId": item["vduId"], "vnfcResourceInfoId": item["id"],
                      "vnfcState": "STARTED"} for item in resource_info],
        "virtualStorageResourceInfo": storage,
        "vnfVirtualLinkResourceInfo": internal_links(resources, cps, nfv, ports_by_cp, vim_id),
        "extVirtualLinkInfo": ext_links,
        "extManagedVirtualLinkInfo": managed_links(request, cps, ports_by_cp, vim_id),
    }
    # SOL003 gives extCpInfo 1..N: absent when the VNF has no external CP (as Tacker v2 leaves it).
    if ext_cps:
        info["extCpInfo"] = ext_cps
    return info


def handle(resource, vim_id=None):
    """A SOL003 ResourceHandle for a Heat resource."""
    result = {"resourceId": resource["physical_resource_id"], "vimLevelResourceType": resource["resource_type"]}
    if vim_id:
        result["vimConnectionId"] = vim_id
    return result


def link_ports(cp_ids, ports_by_cp, vim_id):
    """VnfLinkPortInfo of the VNFC CPs ``cp_ids`` on an internal or NFVO-managed VL; each VNFC CP names its port back."""
    found = []
    for cp_id in sorted(cp_ids):
        for cp_entry, port in ports_by_cp.get(cp_id, []):
            cp_entry["vnfLinkPortId"] = port["physical_resource_id"]
            found.append({"id": port["physical_resource_id"], "resourceHandle": handle(port, vim_id), "cpInstanceId": cp_entry["id"],
                          "cpInstanceType": "VNFC_CP"})
    return found


def internal_links(resources, cps, nfv, ports_by_cp, vim_id):
    """Internal VLs: the stack's own networks, and those the NFVO gave (``nfv.VL``), with their ports."""
    links = []
    managed = nfv.get(VL_SECTION) or {}
    # By VL id: Heat lists resources in no fixed order, and the record should not change with it.
    for item in sorted(resources, key=lambda resource: resource["resource_name"]):
        if item.get("parent_resource") or item["resource_type"] != NET_TYPE:
            continue
        vl_id = item["resource_name"]
        links.append({"id": item["physical_resource_id"], "vnfVirtualLinkDescId": vl_id, "networkResource": handle(item, vim_id),
                      "vnfLinkPorts": link_ports([cp for cp, desc in cps.items() if desc.get("virtual_link") == vl_id], ports_by_cp, vim_id)})
    for vl_id, value in sorted(managed.items()):
        network = {"resourceId": (value or {}).get("network"), "vimLevelResourceType": NET_TYPE}
        links.append({"id": vl_id, "vnfVirtualLinkDescId": vl_id, "networkResource": network,
                      "vnfLinkPorts": link_ports([cp for cp, desc in cps.items() if desc.get("virtual_link") == vl_id], ports_by_cp, vim_id)})
    return links


def external_links(request, cps, ports_by_cp, vim_id):
    """``(extVirtualLinkInfo, extCpInfo)`` from the request's extVirtualLinks and the stack's ports, as Tacker v2 makes them.

    A stack port of an external CP is an extLinkPort (its id the port's) of the link whose extCps name the CP, with an
    extCpInfo ``cp-<port id>`` holding the cpConfig that has cpProtocolData (id and protocol) and the VNFC CP. A port the
    request gives (extLinkPorts) keeps the request's id; its extCpInfo names the CP whose cpConfig uses it (linkPortId),
    and no VNFC CP: the server takes the port as a parameter, there is no port resource to link (as in Tacker v2).
    """
    links, ext_cps, placed = [], [], set()
    for link in request.get("extVirtualLinks") or []:
        by_cpd = {ext_cp.get("cpdId"): ext_cp for ext_cp in link.get("extCps") or []}
        ports = []
        for cp_id in sorted(by_cpd):
            configs = sorted((by_cpd[cp_id].get("cpConfig") or {}).items())
            protocol = next(((key, config) for key, config in configs if (config or {}).get("cpProtocolData")), None)
            for cp_entry, port in ports_by_cp.get(cp_id, []):
                port_id = port["physical_resource_id"]
                ext_cp = _ext_cp(cp_id, port_id, cp_entry)
                if protocol is not None:
                    ext_cp["cpConfigId"] = protocol[0]
                    ext_cp["cpProtocolInfo"] = [cp_protocol_info(data) for data in protocol[1]["cpProtocolData"]]
                ext_cps.append(ext_cp)
                ports.append({"id": port_id, "resourceHandle": handle(port, vim_id), "cpInstanceId": ext_cp["id"]})
                placed.add(port_id)
        for given in link.get("extLinkPorts") or []:
            port = {"id": given.get("id"), "resourceHandle": copy.deepcopy(given.get("resourceHandle"))}
            user = next(((cp_id, key) for cp_id, ext_cp in sorted(by_cpd.items()) for key, config in sorted((ext_cp.get("cpConfig") or {}).items())
                         if (config or {}).get("linkPortId") == given.get("id")), None)
            if user is not None:
                ext_cp = dict(_ext_cp(user[0], given.get("id"), None), cpConfigId=user[1])
                ext_cps.append(ext_cp)
                port["cpInstanceId"] = ext_cp["id"]
            ports.append(port)
        # currentVnfExtCpData: the link's extCps as the request gives them (SOL003 1..N; Tacker v2 the same).
        links.append({"id": link.get("id"), "resourceHandle": {"resourceId": link.get("resourceId"), "vimLevelResourceType": NET_TYPE},
                      "currentVnfExtCpData": copy.deepcopy(link.get("extCps") or []), "extLinkPorts": ports})
    # An external CP (no VL in the VNFD) that no extVirtualLink names (its network set in the base HOT): Tacker v2 still
    # gives it an extCpInfo; it has no link port to name.
    for cp_id, found in sorted(ports_by_cp.items()):
        if cp_id in cps and not cps[cp_id].get("virtual_link"):
            ext_cps += [_ext_cp(cp_id, None, cp_entry, port["physical_resource_id"]) for cp_entry, port in found if port["physical_resource_id"] not in placed]
    return links, ext_cps


def _ext_cp(cp_id, link_port_id, cp_entry, port_id=None):
    """A VnfExtCpInfo (``cp-<port id>``) on link port ``link_port_id``, of VNFC CP ``cp_entry`` (which names it back)."""
    ext_cp = {"id": ext_cp_id(link_port_id or port_id), "cpdId": cp_id}
    if link_port_id is not None:
        ext_cp["extLinkPortId"] = link_port_id
    if cp_entry is not None:
        ext_cp["associatedVnfcCpId"] = cp_entry["id"]
        cp_entry["vnfExtCpId"] = ext_cp["id"]
    return ext_cp


def managed_links(request, cps, ports_by_cp, vim_id):
    links = []
    for managed in request.get("extManagedVirtualLinks") or []:
        vl_id = managed.get("vnfVirtualLinkDescId")
        links.append({"id": managed.get("id"), "vnfVirtualLinkDescId": vl_id,
                      "networkResource": {"resourceId": managed.get("resourceId"), "vimLevelResourceType": NET_TYPE},
                      "vnfLinkPorts": link_ports([cp for cp, desc in cps.items() if desc.get("virtual_link") == vl_id], ports_by_cp, vim_id)})
    return links


# ---------------------------------------------------------------------------------------------
# What to mark unhealthy (Heat re-creates or, for a shrinking scaling group, first removes what is marked)

def heal_targets(resources, server_ids, volume_ids=()):
    """The resources to mark unhealthy to re-create these servers (and volumes): a scaling group's member as a whole
    (its nested stack holds the server, ports and volume), anything else the server or volume itself."""
    wanted = set(server_ids) | set(volume_ids)
    targets = []
    for _name, vnfc in sorted(vnfc_parts(resources).items()):
        chosen = [item for kind in ("servers", "volumes") for item in vnfc[kind].values() if item["physical_resource_id"] in wanted]
        targets += [vnfc["resource"]] if chosen and vnfc["group"] else chosen
    return targets


def marked_resources(resources, reasons):
    """The resources marked unhealthy (CHECK_FAILED) for one of ``reasons``: what the next stack update would replace."""
    return [item for item in resources if item.get("resource_status") == "CHECK_FAILED" and item.get("resource_status_reason") in reasons]


def vnfc_indexes(resources, vdu_ids=()):
    """VDU id -> the sorted indexes of its VNFCs in the stack (a VDU of ``vdu_ids`` with none: [])."""
    indexes = {vdu_id: [] for vdu_id in vdu_ids}
    for vnfc in vnfc_parts(resources).values():
        indexes.setdefault(vnfc["vdu"], []).append(vnfc["index"])
    return {vdu_id: sorted(values) for vdu_id, values in indexes.items()}


def marked_members(resources, reason):
    """The scaling group members marked unhealthy for ``reason`` (by a scale in that did not get to its update)."""
    return marked_resources([vnfc["resource"] for _name, vnfc in sorted(vnfc_parts(resources).items()) if vnfc["group"]], (reason,))


def members_to_remove(resources, counts):
    """The scaling group members a scale to ``counts`` (VDU -> number of VNFCs) removes: the newest of each VDU,
    as Tacker chooses; marked unhealthy, they are the ones Heat removes when the group shrinks."""
    parts = vnfc_parts(resources).values()
    chosen = []
    for vdu_id, count in sorted(counts.items()):
        members = sorted((vnfc for vnfc in parts if vnfc["group"] and vnfc["vdu"] == vdu_id), key=lambda vnfc: vnfc["index"])
        chosen += [vnfc["resource"] for vnfc in members[count:]]
    return chosen
