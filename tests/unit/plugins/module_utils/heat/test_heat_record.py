# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.record import build_instantiated_info, vnfc_parts


def res(name, rtype, pid, parent=None, required_by=()):
    return {"resource_name": name, "resource_type": rtype, "physical_resource_id": pid, "parent_resource": parent,
            "required_by": list(required_by), "links": []}


# What Heat lists (nested_depth=2) for one VNFC of VDU1 (nested template) and one of VDU2 (with a volume), plus the VLs.
RESOURCES = [
    res("internalVL1", "OS::Neutron::Net", "net-1", required_by=["VDU1-0", "VDU2-0"]),
    res("internalVL1_subnet", "OS::Neutron::Subnet", "sub-1"),
    res("VDU1-0", "VDU1.yaml", "nested-1"),
    res("VDU2-0", "VDU2.yaml", "nested-2"),
    res("vnflcm_record", "OS::Heat::WaitConditionHandle", "h"),
    res("VDU1", "OS::Nova::Server", "srv-1", "VDU1-0"),
    res("VDU1_CP1", "OS::Neutron::Port", "p-11", "VDU1-0"),
    res("VDU1_CP2", "OS::Neutron::Port", "p-12", "VDU1-0"),
    res("VDU2", "OS::Nova::Server", "srv-2", "VDU2-0"),
    res("VDU2_CP1", "OS::Neutron::Port", "p-21", "VDU2-0"),
    res("VDU2_CP2", "OS::Neutron::Port", "p-22", "VDU2-0"),
    res("VDU2-VirtualStorage", "OS::Cinder::Volume", "vol-2", "VDU2-0"),
]
FLAVOUR = {"cps": {"VDU1_CP1": {"vdu": "VDU1"}, "VDU1_CP2": {"vdu": "VDU1", "virtual_link": "internalVL1"},
                   "VDU2_CP1": {"vdu": "VDU2"}, "VDU2_CP2": {"vdu": "VDU2", "virtual_link": "internalVL1"}}}
REQUEST = {"extVirtualLinks": [{"id": "ext", "resourceId": "net0", "extCps": [{"cpdId": "VDU1_CP1"}, {"cpdId": "VDU2_CP1"}]}]}


def test_vnfcs_are_the_indexed_top_resources_with_their_nested_parts():
    parts = vnfc_parts(RESOURCES)
    assert sorted(parts) == ["VDU1-0", "VDU2-0"]
    assert sorted(parts["VDU2-0"]["ports"]) == ["VDU2_CP1", "VDU2_CP2"]
    assert list(parts["VDU2-0"]["volumes"]) == ["VDU2-VirtualStorage"]


def test_instantiated_info_lists_servers_ports_links_and_storage():
    info = build_instantiated_info(RESOURCES, FLAVOUR, REQUEST, {}, vim_id="vim1")
    vnfcs = {item["vduId"]: item for item in info["vnfcResourceInfo"]}
    assert vnfcs["VDU1"]["id"] == "srv-1" and vnfcs["VDU1"]["computeResource"] == {
        "resourceId": "srv-1", "vimLevelResourceType": "OS::Nova::Server", "vimConnectionId": "vim1"}
    assert vnfcs["VDU2"]["storageResourceIds"] == ["vol-2"]
    assert [cp["cpdId"] for cp in vnfcs["VDU1"]["vnfcCpInfo"]] == ["VDU1_CP1", "VDU1_CP2"]
    assert [item["id"] for item in info["vnfcInfo"]] == ["VDU1-srv-1", "VDU2-srv-2"]
    assert info["virtualStorageResourceInfo"][0]["virtualStorageDescId"] == "VDU2-VirtualStorage"
    assert [port["id"] for port in info["extVirtualLinkInfo"][0]["extLinkPorts"]] == ["p-11", "p-21"]
    vl = info["vnfVirtualLinkResourceInfo"][0]
    assert vl["vnfVirtualLinkDescId"] == "internalVL1" and [port["id"] for port in vl["vnfLinkPorts"]] == ["p-12", "p-22"]


def test_an_nfvo_managed_link_is_listed_from_the_nfv_parameter():
    managed = dict(REQUEST, extManagedVirtualLinks=[{"id": "m", "vnfVirtualLinkDescId": "internalVL1", "resourceId": "given"}])
    resources = [item for item in RESOURCES if not item["resource_name"].startswith("internalVL1")]
    info = build_instantiated_info(resources, FLAVOUR, managed, {"VL": {"internalVL1": {"network": "given"}}})
    assert [link["networkResource"]["resourceId"] for link in info["vnfVirtualLinkResourceInfo"]] == ["given"]
    assert [port["id"] for port in info["extManagedVirtualLinkInfo"][0]["vnfLinkPorts"]] == ["p-12", "p-22"]
