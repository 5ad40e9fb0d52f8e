# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import copy

import pytest
import yaml

from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.plan import plan_lines, stack_plan, vnfc_resources, vnfc_view
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.template import expand_per_vnfc

BEFORE = "userdata_standard"
AFTER = "userdata_standard_change_vnfpkg_nw"


@pytest.fixture
def before(desired_stack, instantiate_request):
    return desired_stack(BEFORE, instantiate_request)


@pytest.fixture
def after(desired_stack, change_request):
    return desired_stack(AFTER, change_request)


def vnfc(plan, name):
    return next(entry for entry in plan["vnfcs"] if entry["name"] == name)


def kinds(entry):
    return [change["kind"] for change in entry["changes"]]


def test_identical_stacks_are_a_noop(before):
    plan = stack_plan(before, copy.deepcopy(before))
    assert plan["is_noop"] is True
    assert [(entry["name"], entry["action"]) for entry in plan["vnfcs"]] == [("VDU1-0", "none"), ("VDU2-0", "none")]
    assert plan["virtual_links"] == {"added": [], "removed": [], "changed": []}
    assert plan_lines(plan) == ["no change: the stack already has this template and these parameters"]


def test_reserialised_nested_templates_are_still_a_noop(before):
    template, files, nfv = before
    redumped = {name: yaml.safe_dump(yaml.safe_load(text)) for name, text in files.items()}
    assert redumped != files
    assert stack_plan(before, (template, redumped, nfv))["is_noop"] is True


def test_stacks_may_be_given_as_dicts(before):
    template, files, nfv = before
    assert stack_plan({"template": template, "files": files, "nfv": nfv}, before)["is_noop"] is True


def test_change_package_resizes_vdu2(before, after):
    entry = vnfc(stack_plan(before, after), "VDU2-0")
    resize = next(change for change in entry["changes"] if change["kind"] == "resize")
    assert resize == {"kind": "resize", "server": "VDU2", "from": "m1.tiny", "to": "m1.small"}


def test_change_package_swaps_internal_vl2_for_vl3(before, after):
    plan = stack_plan(before, after)
    assert plan["virtual_links"]["added"] == ["internalVL3"]
    assert plan["virtual_links"]["removed"] == ["internalVL2"]
    assert plan["virtual_links"]["changed"] == []
    for name, cp in (("VDU1-0", "VDU1_CP3"), ("VDU2-0", "VDU2_CP3")):
        assert {"kind": "port_moved", "cp": cp, "from": "internal VL internalVL2", "to": "internal VL internalVL3"} in vnfc(plan, name)["changes"]


def test_change_package_adds_the_cp4_ports(before, after):
    plan = stack_plan(before, after)
    assert {"kind": "cp_added", "cp": "VDU1_CP4", "network": "net0"} in vnfc(plan, "VDU1-0")["changes"]
    assert {"kind": "cp_added", "cp": "VDU2_CP4", "network": "net0"} in vnfc(plan, "VDU2-0")["changes"]


def test_change_package_whole_plan(before, after):
    plan = stack_plan(before, after)
    assert plan["is_noop"] is False
    assert plan["files_changed"] == ["VDU1-ver2.yaml", "VDU1.yaml", "VDU2-ver2.yaml", "VDU2.yaml"]
    assert kinds(vnfc(plan, "VDU1-0")) == ["template", "rebuild", "port_moved", "cp_added"]
    assert kinds(vnfc(plan, "VDU2-0")) == ["template", "resize", "replace", "port_moved", "cp_added"]
    # The new VNFD moves the image: VDU1 gets "VDU1-image", VDU2's boot volume gets the cirros image.
    assert vnfc(plan, "VDU1-0")["changes"][1] == {"kind": "rebuild", "server": "VDU1", "from": "cirros-0.5.2-x86_64-disk", "to": "VDU1-image"}
    assert vnfc(plan, "VDU2-0")["effect"] == "replace"
    assert plan["summary"] == {"added": [], "removed": [], "replaced": ["VDU2-0"], "rebuilt": ["VDU1-0"], "resized": ["VDU2-0"], "updated": []}
    assert plan["other_resources"] == {"added": [], "removed": [], "changed": []}
    assert "VDU2-0: resize VDU2 (m1.tiny -> m1.small)" in plan_lines(plan)
    assert "virtual link internalVL3: added" in plan_lines(plan)


def test_the_changed_package_reapplied_is_a_noop(after, desired_stack, change_request):
    assert stack_plan(after, desired_stack(AFTER, change_request))["is_noop"] is True


def test_a_higher_level_adds_a_vnfc_and_a_lower_one_removes_it(before, desired_stack, instantiate_request):
    instantiate_request["instantiationLevelId"] = "instantiation_level_2"
    bigger = desired_stack(BEFORE, instantiate_request)
    grow = stack_plan(before, bigger)
    assert [(entry["name"], entry["action"]) for entry in grow["vnfcs"]] == [("VDU1-0", "none"), ("VDU1-1", "add"), ("VDU2-0", "none")]
    assert grow["summary"]["added"] == ["VDU1-1"]
    shrink = stack_plan(bigger, before)
    assert vnfc(shrink, "VDU1-1")["action"] == "remove"
    assert "VDU1-1: delete" in plan_lines(shrink)


def test_a_new_external_network_moves_the_port(before, desired_stack, instantiate_request):
    instantiate_request["extVirtualLinks"][0]["resourceId"] = "net1"
    plan = stack_plan(before, desired_stack(BEFORE, instantiate_request))
    assert vnfc(plan, "VDU1-0")["changes"] == [{"kind": "port_moved", "cp": "VDU1_CP1", "from": "net0", "to": "net1"}]
    assert vnfc(plan, "VDU1-0")["effect"] == "update"
    assert plan["summary"]["updated"] == ["VDU1-0", "VDU2-0"]


def test_a_new_subnet_changes_fixed_ips(before, desired_stack, instantiate_request, ip_config):
    instantiate_request["extVirtualLinks"][0]["extCps"][1]["cpConfig"] = {"c": ip_config(subnet="subnet1")}
    plan = stack_plan(before, desired_stack(BEFORE, instantiate_request))
    assert vnfc(plan, "VDU2-0")["changes"] == [
        {"kind": "fixed_ips_changed", "cp": "VDU2_CP1", "from": [{"subnet": "subnet0"}], "to": [{"subnet": "subnet1"}]}]


def test_an_nfvo_managed_network_replaces_the_internal_vl(before, desired_stack, instantiate_request):
    instantiate_request["extManagedVirtualLinks"] = [{"id": "m", "vnfVirtualLinkDescId": "internalVL1", "resourceId": "net-mgd"}]
    plan = stack_plan(before, desired_stack(BEFORE, instantiate_request))
    changed = plan["virtual_links"]["changed"]
    assert [(link["name"], link["from"]["managed_by"], link["to"]) for link in changed] == [
        ("internalVL1", "stack", {"managed_by": "nfvo", "network": "net-mgd"})]
    assert {"kind": "port_moved", "cp": "VDU1_CP2", "from": "internal VL internalVL1", "to": "net-mgd"} in vnfc(plan, "VDU1-0")["changes"]


def test_additional_params_reach_the_servers(before, desired_stack, instantiate_request):
    instantiate_request["additionalParams"] = {"nfv": {"VDU": {"VDU1-0": {"name": "vdu1-a", "locationConstraints": "zone-a"}}}}
    entry = vnfc(stack_plan(before, desired_stack(BEFORE, instantiate_request)), "VDU1-0")
    assert entry["changes"] == [
        {"kind": "replace", "server": "VDU1", "reason": "changed availability_zone"},
        {"kind": "update", "server": "VDU1", "properties": ["name"]},
    ]
    assert entry["effect"] == "replace"


def test_an_unused_nfv_value_is_no_vnfc_change_but_still_an_update(before):
    template, files, nfv = before
    extra = copy.deepcopy(nfv)
    extra["VDU"]["VDU1-0"]["unused"] = "x"
    plan = stack_plan(before, (template, files, extra))
    assert plan["is_noop"] is False and plan["nfv_changed"] is True
    assert all(entry["action"] == "none" for entry in plan["vnfcs"])
    assert plan_lines(plan) == ["stack parameters change without effect on VNFC resources"]


def test_vnfc_view_resolves_nested_parameters(before):
    view = vnfc_view({"template": before[0], "files": before[1], "nfv": before[2]}, "VDU2-0")
    assert view["type"] == "VDU2.yaml"
    assert view["servers"]["VDU2"]["flavor"] == "m1.tiny"
    assert view["servers"]["VDU2"]["scheduler_hints"] == {"group": {"get_resource": "nfvi_node_affinity"}}
    assert view["volumes"]["VDU2-VirtualStorage"]["image"] == "VDU2-VirtualStorage-image"
    assert view["ports"]["VDU2_CP1"] == {"network": "net0", "fixed_ips": [{"subnet": "subnet0"}]}
    assert sorted(view["others"]) == ["multi"]


FLAT = {
    "resources": {
        "VDU1": {
            "type": "OS::Nova::Server",
            "properties": {"flavor": {"get_param": ["nfv", "VDU", "VDU1", "computeFlavourId"]}, "networks": [{"port": {"get_resource": "VDU1_CP1"}}]},
        },
        "VDU1_CP1": {"type": "OS::Neutron::Port", "properties": {"network": {"get_param": ["nfv", "CP", "VDU1_CP1", "network"]}}},
        "group": {"type": "OS::Nova::ServerGroup", "properties": {"policies": ["affinity"]}},
    },
}


def test_top_level_servers_are_planned_too():
    template = expand_per_vnfc(FLAT, {"VDU1": 1})
    assert vnfc_resources(template) == {"VDU1-0": ("VDU1", 0)}
    old_nfv = {"VDU": {"VDU1-0": {"computeFlavourId": "small"}}, "CP": {"VDU1_CP1-0": {"network": "a"}}}
    new_nfv = {"VDU": {"VDU1-0": {"computeFlavourId": "large"}}, "CP": {"VDU1_CP1-0": {"network": "b"}}}
    changed = copy.deepcopy(template)
    changed["resources"]["group"]["properties"]["policies"] = ["anti-affinity"]
    plan = stack_plan((template, {}, old_nfv), (changed, {}, new_nfv))
    assert vnfc(plan, "VDU1-0")["changes"] == [
        {"kind": "resize", "server": "VDU1", "from": "small", "to": "large"},
        {"kind": "port_moved", "cp": "VDU1_CP1", "from": "a", "to": "b"},
    ]
    assert [change["name"] for change in plan["other_resources"]["changed"]] == ["group"]
    assert "resource group: changed" in plan_lines(plan)
