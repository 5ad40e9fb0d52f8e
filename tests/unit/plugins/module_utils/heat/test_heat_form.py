# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tacker's DefaultUserData packages (basic_lcms_min / basic_lcms_max): AutoScalingGroups, nfv per VDU and CP."""

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.form import DEFAULT, STANDARD, form_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.nfv_params import build_nfv, vnfc_counts
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.instantiated_info import (
    build_instantiated_info,
    heal_targets,
    marked_members,
    members_to_remove,
    vnfc_parts,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.template import after_subnets, unresolved_nfv_params


def ip(subnet, fixed=None):
    address = {"type": "IPV4", "subnetId": subnet}
    address.update({"fixedAddresses": fixed} if fixed else {"numDynamicAddresses": 1})
    return {"layerProtocol": "IP_OVER_ETHERNET", "ipOverEthernet": {"ipAddresses": [address]}}


# basic_lcms_max as Tacker's functional tests connect it: ports given for VDU2_CP1-1/-2, a fixed address on VDU2_CP2.
MAX_REQUEST = {
    "flavourId": "simple",
    "instantiationLevelId": "instantiation_level_2",
    "extVirtualLinks": [
        {"id": "ext0", "resourceId": "net0",
         "extLinkPorts": [{"id": "lp1", "resourceHandle": {"resourceId": "port-1"}}, {"id": "lp2", "resourceHandle": {"resourceId": "port-2"}}],
         "extCps": [{"cpdId": "VDU1_CP1", "cpConfig": {"c": {"cpProtocolData": [ip("net0-subnet")]}}},
                    {"cpdId": "VDU2_CP1-1", "cpConfig": {"c": {"linkPortId": "lp1"}}},
                    {"cpdId": "VDU2_CP1-2", "cpConfig": {"c": {"linkPortId": "lp2"}}}]},
        {"id": "ext1", "resourceId": "net1",
         "extCps": [{"cpdId": "VDU1_CP2", "cpConfig": {"c": {"cpProtocolData": [ip("net1-subnet")]}}},
                    {"cpdId": "VDU2_CP2", "cpConfig": {"c": {"cpProtocolData": [ip("net1-subnet", ["10.11.0.50"]), ip("net1-subnet")]}}}]},
    ],
}


@pytest.fixture
def lcms(flavour_and_hot):
    return flavour_and_hot


def test_the_form_is_read_from_the_template(lcms):
    template = lcms("basic_lcms_min")[1]
    form = form_of(template)
    assert form.name == DEFAULT and form.groups == {"VDU1": "VDU1_scale_group"}
    assert form_of(lcms("userdata_standard")[1]).name == STANDARD


def test_a_group_must_read_its_capacity_from_nfv(lcms):
    template = lcms("basic_lcms_min")[1]
    template["resources"]["VDU1_scale_group"]["properties"]["desired_capacity"] = 2
    with pytest.raises(PackageError, match="VDU1_scale_group.*desired_capacity"):
        form_of(template)


def test_default_form_keeps_the_template_and_writes_nfv_per_vdu_and_cp(lcms):
    flavour, template = lcms("basic_lcms_max")[:2]
    form = form_of(template)
    counts = vnfc_counts(flavour, "instantiation_level_2")
    assert counts == {"VDU1": 3, "VDU2": 1}
    assert form.stack_template(template, counts) == after_subnets(template)  # as it is, but ordered after subnets
    nfv = build_nfv(flavour, MAX_REQUEST, counts, form=form)
    assert nfv["VDU"]["VDU1"] == {"computeFlavourId": "m1.tiny", "desired_capacity": 3}
    assert nfv["VDU"]["VDU1-VirtualStorage"] == {"vcImageId": "VDU1-VirtualStorage-image"}
    assert nfv["VDU"]["VDU2"] == {"computeFlavourId": "m1.tiny"} and "VDU2-0" not in nfv["VDU"]
    assert nfv["CP"]["VDU1_CP1"] == {"network": "net0", "fixed_ips": [{"subnet": "net0-subnet"}]}
    assert nfv["CP"]["VDU2_CP1-1"] == {"port": "port-1"} and nfv["CP"]["VDU2_CP1-2"] == {"port": "port-2"}
    assert nfv["CP"]["VDU2_CP2"] == {"network": "net1", "fixed_ips": [{"ip_address": "10.11.0.50", "subnet": "net1-subnet"},
                                                                      {"subnet": "net1-subnet"}]}
    # Every read of the template is given, but the zones (no locationConstraints: Heat leaves them to Nova).
    assert [path for path in unresolved_nfv_params(template, nfv) if path[-1] != "locationConstraints"] == []


def test_a_group_member_cannot_have_a_fixed_address(lcms):
    flavour, template = lcms("basic_lcms_max")[:2]
    request = {"extVirtualLinks": [{"id": "e", "resourceId": "net1", "extCps": [
        {"cpdId": "VDU1_CP2", "cpConfig": {"c": {"cpProtocolData": [ip("net1-subnet", ["10.11.0.9"])]}}}]}]}
    with pytest.raises(ValidationError, match="one fixed address cannot serve every VNFC of CP VDU1_CP2"):
        build_nfv(flavour, request, {"VDU1": 1, "VDU2": 1}, form=form_of(template))


def res(name, rtype, pid, parent=None, required_by=(), created="2026-11-25T10:00:00"):
    return {"resource_name": name, "resource_type": rtype, "physical_resource_id": pid, "parent_resource": parent,
            "required_by": list(required_by), "creation_time": created,
            "links": [{"rel": "stack", "href": "http://heat/v1/p/stacks/{0}/id".format(parent or "top")}]}


# What Heat lists (nested_depth=2) for basic_lcms_min with two VDU1 members.
MIN_RESOURCES = [
    res("VDU1_scale_group", "OS::Heat::AutoScalingGroup", "asg-stack"),
    res("VDU2", "OS::Nova::Server", "srv-2"),
    res("VDU2_CP1", "OS::Neutron::Port", "p-2", required_by=["VDU2"]),
    res("internalVL3", "OS::Neutron::Net", "net-3", required_by=["VDU2_CP1", "VDU1_scale_group"]),
    res("m-new", "VDU1.yaml", "member-new", "VDU1_scale_group", created="2026-11-25T10:05:00"),
    res("m-old", "VDU1.yaml", "member-old", "VDU1_scale_group", created="2026-11-25T10:01:00"),
    res("VDU1", "OS::Nova::Server", "srv-new", "m-new"),
    res("VDU1_CP1", "OS::Neutron::Port", "p-new", "m-new"),
    res("VDU1", "OS::Nova::Server", "srv-old", "m-old"),
    res("VDU1_CP1", "OS::Neutron::Port", "p-old", "m-old"),
]


def test_members_are_vnfcs_ranked_by_creation_and_plain_servers_too():
    parts = vnfc_parts(MIN_RESOURCES)
    assert {name: (part["vdu"], part["index"], part["group"]) for name, part in parts.items()} == {
        "VDU2": ("VDU2", 0, None), "m-old": ("VDU1", 0, "VDU1_scale_group"), "m-new": ("VDU1", 1, "VDU1_scale_group")}
    assert parts["VDU2"]["ports"]["VDU2_CP1"]["physical_resource_id"] == "p-2"
    assert parts["m-new"]["ports"]["VDU1_CP1"]["physical_resource_id"] == "p-new"
    flavour = {"cps": {"VDU1_CP1": {"vdu": "VDU1", "virtual_link": "internalVL3"}, "VDU2_CP1": {"vdu": "VDU2", "virtual_link": "internalVL3"}}}
    info = build_instantiated_info(MIN_RESOURCES, flavour, {}, {})
    assert [(item["vduId"], item["id"], item["metadata"].get("scalingGroup")) for item in info["vnfcResourceInfo"]] == [
        ("VDU1", "srv-old", "VDU1_scale_group"), ("VDU1", "srv-new", "VDU1_scale_group"), ("VDU2", "srv-2", None)]
    # Where a member is, as Tacker's VNFC metadata says it: the group's nested stack and the member's name there.
    assert {key: info["vnfcResourceInfo"][0]["metadata"][key] for key in ("parent_stack_id", "parent_resource_name")} == {
        "parent_stack_id": "id", "parent_resource_name": "m-old"}
    assert sorted(port["id"] for port in info["vnfVirtualLinkResourceInfo"][0]["vnfLinkPorts"]) == ["p-2", "p-new", "p-old"]


def test_scale_in_marks_the_newest_members_and_heal_marks_the_member_whole():
    assert [item["resource_name"] for item in members_to_remove(MIN_RESOURCES, {"VDU1": 1, "VDU2": 1})] == ["m-new"]
    assert members_to_remove(MIN_RESOURCES, {"VDU1": 2, "VDU2": 1}) == []
    assert [item["resource_name"] for item in heal_targets(MIN_RESOURCES, ["srv-old", "srv-2"])] == ["VDU2", "m-old"]


def test_marks_a_killed_scale_in_left_are_found_by_their_reason():
    marked = [dict(item, resource_status="CHECK_FAILED", resource_status_reason="scale in") if item["resource_name"] == "m-new" else item
              for item in MIN_RESOURCES]
    assert [item["resource_name"] for item in marked_members(marked, "scale in")] == ["m-new"]
    assert marked_members(marked, "healed") == [] and marked_members(MIN_RESOURCES, "scale in") == []
