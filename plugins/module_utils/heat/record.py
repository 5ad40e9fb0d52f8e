# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""instantiatedVnfInfo from a stack's resources (``GET .../resources?nested_depth=2&with_detail=true``).

Pure: the resources are the plain dicts Heat returns. A VNFC is a top-level resource ``<VDU>-<idx>``
(a server, or a nested template holding the server, its ports and volumes); ids follow Tacker v2:
vnfcResourceInfo id = server id, vnfcInfo id = ``<VDU>-<server id>``, so a healed VNFC gets new ids.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.template import (
    NET_TYPE,
    PORT_TYPE,
    SERVER_TYPE,
    VL_SECTION,
    VOLUME_TYPE,
    is_template_file,
    split_vnfc_name,
)


def vnfc_parts(resources):
    """VNFC resource name -> ``{"vdu", "index", "servers", "ports", "volumes"}`` (resource dicts, by logical name)."""
    top = [item for item in resources if not item.get("parent_resource")]
    vnfcs = {}
    for item in top:
        vdu, index = split_vnfc_name(item["resource_name"])
        if index is not None and (item["resource_type"] == SERVER_TYPE or is_template_file(item["resource_type"])):
            vnfcs[item["resource_name"]] = {"vdu": vdu, "index": index, "servers": {}, "ports": {}, "volumes": {}}
    bucket = {SERVER_TYPE: "servers", PORT_TYPE: "ports", VOLUME_TYPE: "volumes"}
    for item in resources:
        owner = item.get("parent_resource")
        name = item["resource_name"]
        if owner is None:
            # A VDU in the top template: the server itself, or its ports/volumes copied per VNFC (VDU1_CP1-0).
            base, index = split_vnfc_name(name)
            for vnfc_name, vnfc in vnfcs.items():
                if index == vnfc["index"] and (name == vnfc_name or base != vnfc["vdu"]) and _same_group(item, vnfc_name):
                    kind = bucket.get(item["resource_type"])
                    if kind:
                        vnfc[kind][base] = item
            continue
        if owner in vnfcs and item["resource_type"] in bucket:
            vnfcs[owner][bucket[item["resource_type"]]][name] = item
    return vnfcs


def _same_group(item, vnfc_name):
    required = item.get("required_by") or []
    return item["resource_name"] == vnfc_name or vnfc_name in required


def build_instantiated_info(resources, flavour, request, nfv, vim_id=None, previous=None):
    """The parts of instantiatedVnfInfo that come from the stack: VNFCs, storage, links and ports."""
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
            ports_by_cp.setdefault(cp_id, []).append((entry["id"], port))
        resource_info.append({
            "id": server["physical_resource_id"],
            "vduId": vnfc["vdu"],
            "computeResource": handle(server, vim_id),
            "storageResourceIds": volume_ids,
            "vnfcCpInfo": cp_info,
            "metadata": {"stackResource": vnfc_name, "index": vnfc["index"], "creation_time": server.get("creation_time")},
        })
    return {
        "vnfcResourceInfo": resource_info,
        "vnfcInfo": [{"id": "{0}-{1}".format(item["vduId"], item["id"]), "vduId": item["vduId"], "vnfcResourceInfoId": item["id"],
                      "vnfcState": "STARTED"} for item in resource_info],
        "virtualStorageResourceInfo": storage,
        "vnfVirtualLinkResourceInfo": internal_links(resources, cps, nfv, ports_by_cp, vim_id),
        "extVirtualLinkInfo": external_links(request, ports_by_cp, vim_id),
        "extManagedVirtualLinkInfo": managed_links(request, cps, ports_by_cp, vim_id),
    }


def handle(resource, vim_id=None):
    """A SOL003 ResourceHandle for a Heat resource."""
    result = {"resourceId": resource["physical_resource_id"], "vimLevelResourceType": resource["resource_type"]}
    if vim_id:
        result["vimConnectionId"] = vim_id
    return result


def link_ports(cp_ids, ports_by_cp, vim_id):
    found = []
    for cp_id in sorted(cp_ids):
        for cp_instance_id, port in ports_by_cp.get(cp_id, []):
            found.append({"id": port["physical_resource_id"], "resourceHandle": handle(port, vim_id), "cpInstanceId": cp_instance_id,
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


def external_links(request, ports_by_cp, vim_id):
    links = []
    for link in request.get("extVirtualLinks") or []:
        cp_ids = [ext_cp.get("cpdId") for ext_cp in link.get("extCps") or []]
        entry = {"id": link.get("id"), "resourceHandle": {"resourceId": link.get("resourceId"), "vimLevelResourceType": NET_TYPE},
                 "extLinkPorts": link_ports(cp_ids, ports_by_cp, vim_id)}
        links.append(entry)
    return links


def managed_links(request, cps, ports_by_cp, vim_id):
    links = []
    for managed in request.get("extManagedVirtualLinks") or []:
        vl_id = managed.get("vnfVirtualLinkDescId")
        links.append({"id": managed.get("id"), "vnfVirtualLinkDescId": vl_id,
                      "networkResource": {"resourceId": managed.get("resourceId"), "vimLevelResourceType": NET_TYPE},
                      "vnfLinkPorts": link_ports([cp for cp, desc in cps.items() if desc.get("virtual_link") == vl_id], ports_by_cp, vim_id)})
    return links
