# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.instantiated_info import build_instantiated_info, vnfc_parts


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
    # The link's extCps as the request gives them (SOL003 VnfExtCpData, as Tacker v2 keeps them).
    assert info["extVirtualLinkInfo"][0]["currentVnfExtCpData"] == REQUEST["extVirtualLinks"][0]["extCps"]
    vl = info["vnfVirtualLinkResourceInfo"][0]
    assert vl["vnfVirtualLinkDescId"] == "internalVL1" and [port["id"] for port in vl["vnfLinkPorts"]] == ["p-12", "p-22"]


def test_an_nfvo_managed_link_is_listed_from_the_nfv_parameter():
    managed = dict(REQUEST, extManagedVirtualLinks=[{"id": "m", "vnfVirtualLinkDescId": "internalVL1", "resourceId": "given"}])
    resources = [item for item in RESOURCES if not item["resource_name"].startswith("internalVL1")]
    info = build_instantiated_info(resources, FLAVOUR, managed, {"VL": {"internalVL1": {"network": "given"}}})
    assert [link["networkResource"]["resourceId"] for link in info["vnfVirtualLinkResourceInfo"]] == ["given"]
    assert [port["id"] for port in info["extManagedVirtualLinkInfo"][0]["vnfLinkPorts"]] == ["p-12", "p-22"]


def stack_res(name, rtype, pid, parent=None, stack="nested-stack"):
    item = res(name, rtype, pid, parent)
    item["links"] = [{"rel": "stack", "href": "https://heat/v1/p/stacks/{0}/{0}-id".format(stack)}]
    item["creation_time"] = "2026-11-27T03:00:00Z"
    return item


PROTOCOL = [{"layerProtocol": "IP_OVER_ETHERNET",
             "ipOverEthernet": {"ipAddresses": [{"type": "IPV4", "fixedAddresses": ["10.0.0.5"], "subnetId": "sub"},
                                                {"type": "IPV4", "numDynamicAddresses": 1}]}}]
LINKED_REQUEST = {"extVirtualLinks": [
    {"id": "ext", "resourceId": "net0", "extCps": [{"cpdId": "VDU1_CP1", "cpConfig": {"a": {"linkPortId": "lp-given"}, "b": {"cpProtocolData": PROTOCOL}}},
                                                   {"cpdId": "VDU2_CP1", "cpConfig": {"c": {"cpProtocolData": [{"layerProtocol": "IP_OVER_ETHERNET"}]}}}],
     "extLinkPorts": [{"id": "lp-given", "resourceHandle": {"resourceId": "port-given"}}, {"id": "lp-spare", "resourceHandle": {"resourceId": "p9"}}]}]}


def test_external_cps_are_linked_both_ways_as_tacker_v2_links_them():
    info = build_instantiated_info(RESOURCES, FLAVOUR, LINKED_REQUEST, {})
    cps = {cp["cpdId"]: cp for item in info["vnfcResourceInfo"] for cp in item["vnfcCpInfo"]}
    ext_cps = {item["id"]: item for item in info["extCpInfo"]}
    assert cps["VDU1_CP1"]["vnfExtCpId"] == "cp-p-11" and "vnfLinkPortId" not in cps["VDU1_CP1"]
    assert ext_cps["cp-p-11"] == {"id": "cp-p-11", "cpdId": "VDU1_CP1", "extLinkPortId": "p-11", "associatedVnfcCpId": "VDU1_CP1-p-11",
                                  "cpConfigId": "b", "cpProtocolInfo": [{"layerProtocol": "IP_OVER_ETHERNET", "ipOverEthernet": {"ipAddresses": [
                                      {"type": "IPV4", "addresses": ["10.0.0.5"], "subnetId": "sub"}, {"type": "IPV4", "isDynamic": True}]}}]}
    assert ext_cps["cp-p-21"]["cpProtocolInfo"] == [{"layerProtocol": "IP_OVER_ETHERNET"}]
    # The port the request gives keeps its id; its CP is the one whose cpConfig uses it, with no VNFC CP (no port resource).
    assert ext_cps["cp-lp-given"] == {"id": "cp-lp-given", "cpdId": "VDU1_CP1", "extLinkPortId": "lp-given", "cpConfigId": "a"}
    ports = {port["id"]: port for port in info["extVirtualLinkInfo"][0]["extLinkPorts"]}
    assert sorted(ports) == ["lp-given", "lp-spare", "p-11", "p-21"]
    assert ports["p-11"]["cpInstanceId"] == "cp-p-11" and ports["lp-given"]["cpInstanceId"] == "cp-lp-given" and "cpInstanceId" not in ports["lp-spare"]
    # Internal ports: the VNFC CP names its vnfLinkPort, which names the VNFC CP.
    assert cps["VDU2_CP2"]["vnfLinkPortId"] == "p-22" and "vnfExtCpId" not in cps["VDU2_CP2"]
    assert {port["id"]: port["cpInstanceId"] for port in info["vnfVirtualLinkResourceInfo"][0]["vnfLinkPorts"]} == {
        "p-12": "VDU1_CP2-p-12", "p-22": "VDU2_CP2-p-22"}


def test_without_external_cps_there_is_no_ext_cp_info():
    flavour = {"cps": {cp: dict(desc, virtual_link="internalVL1") for cp, desc in FLAVOUR["cps"].items()}}
    assert "extCpInfo" not in build_instantiated_info(RESOURCES, flavour, {}, {})


def test_an_external_cp_in_no_link_gets_an_ext_cp_info_without_link_port():
    info = build_instantiated_info(RESOURCES, FLAVOUR, {}, {})
    assert [(item["id"], item.get("extLinkPortId"), item["associatedVnfcCpId"]) for item in info["extCpInfo"]] == [
        ("cp-p-11", None, "VDU1_CP1-p-11"), ("cp-p-21", None, "VDU2_CP1-p-21")]


def test_vnfc_metadata_holds_what_tacker_v2_gives():
    resources = [stack_res("VDU1-0", "VDU1.yaml", "nested-1", stack="vnf"), stack_res("VDU1", "OS::Nova::Server", "srv-1", "VDU1-0"),
                 stack_res("VirtualStorage", "OS::Cinder::Volume", "vol-1", "VDU1-0")]
    nfv = {"VDU": {"VDU1-0": {"computeFlavourId": "m1.tiny", "vcImageId": "img-1"}, "VirtualStorage-0": {"vcImageId": "img-2"}}}
    metadata = build_instantiated_info(resources, {}, {}, nfv)["vnfcResourceInfo"][0]["metadata"]
    assert metadata == {"stackResource": "VDU1-0", "index": 0, "creation_time": "2026-11-27T03:00:00Z", "stack_id": "nested-stack-id",
                        "vdu_idx": 0, "flavor": "m1.tiny", "image-VDU1-0": "img-1", "image-VirtualStorage-0": "img-2"}


def test_a_scaling_group_member_has_no_vdu_idx_and_its_vdu_parameters():
    resources = [stack_res("VDU1_scale_group", "OS::Heat::AutoScalingGroup", "group-1", stack="vnf"),
                 stack_res("member-a", "VDU1.yaml", "nested-1", "VDU1_scale_group", stack="group"),
                 stack_res("VDU1", "OS::Nova::Server", "srv-1", "member-a", stack="member")]
    nfv = {"VDU": {"VDU1": {"computeFlavourId": "m1.small", "vcImageId": "img-1"}}}
    metadata = build_instantiated_info(resources, {}, {}, nfv)["vnfcResourceInfo"][0]["metadata"]
    assert "vdu_idx" not in metadata
    assert metadata["stack_id"] == "member-id" and metadata["parent_stack_id"] == "group-id" and metadata["parent_resource_name"] == "member-a"
    assert metadata["flavor"] == "m1.small" and metadata["image-VDU1"] == "img-1"
