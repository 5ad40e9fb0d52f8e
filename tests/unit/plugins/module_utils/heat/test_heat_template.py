# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import copy
import json
import os

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import template as heat_template
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.template import (
    after_subnets,
    build_stack_template,
    expand_per_vnfc,
    load_base_hot,
    split_vnfc_name,
    unresolved_nfv_params,
    use_external_networks,
    vnfc_members,
    vnfc_name,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

BEFORE = "userdata_standard"
AFTER = "userdata_standard_change_vnfpkg_nw"
FLAVOUR = "simple"


def nfv_read(*path):
    return {"get_param": ["nfv"] + list(path)}


# A flavour whose VDU is a server in the top template, with its own port, volume and floating IP.
FLAT_TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "parameters": {"nfv": {"type": "json"}},
    "resources": {
        "VDU1": {
            "type": "OS::Nova::Server",
            "properties": {
                "flavor": nfv_read("VDU", "VDU1", "computeFlavourId"),
                "image": nfv_read("VDU", "VDU1", "vcImageId"),
                "networks": [{"port": {"get_resource": "VDU1_CP1"}}],
                "block_device_mapping_v2": [{"volume_id": {"get_resource": "VDU1-Storage"}}],
                "scheduler_hints": {"group": {"get_resource": "group"}},
            },
            "depends_on": ["VDU1_CP1", "group"],
        },
        "VDU1_CP1": {
            "type": "OS::Neutron::Port",
            "properties": {"network": {"get_resource": "internal"}, "fixed_ips": [{"subnet": nfv_read("CP", "VDU1_CP1", "fixed_ips", 0, "subnet")}]},
        },
        "VDU1-Storage": {"type": "OS::Cinder::Volume", "properties": {"image": nfv_read("VDU", "VDU1-Storage", "vcImageId"), "size": 1}},
        "VDU1_FIP": {"type": "OS::Neutron::FloatingIP", "properties": {"floating_network": "public", "port_id": {"get_resource": "VDU1_CP1"}}},
        "internal": {"type": "OS::Neutron::Net"},
        "internal_subnet": {"type": "OS::Neutron::Subnet", "properties": {"network": {"get_resource": "internal"}, "cidr": "10.0.0.0/24"}},
        "group": {"type": "OS::Nova::ServerGroup", "properties": {"policies": ["anti-affinity"]}},
    },
}


def resource_names(template):
    return list(template["resources"])


def test_vnfc_names_round_trip():
    assert vnfc_name("VDU2-VirtualStorage", 3) == "VDU2-VirtualStorage-3"
    assert split_vnfc_name("VDU2-VirtualStorage-3") == ("VDU2-VirtualStorage", 3)
    assert split_vnfc_name("VDU2-VirtualStorage") == ("VDU2-VirtualStorage", None)
    assert split_vnfc_name("VDU1") == ("VDU1", None)


def test_load_base_hot_gives_template_and_nested_files_by_reference(fixtures_dir):
    with load_package(os.path.join(fixtures_dir, BEFORE)) as package:
        template, files = load_base_hot(package, FLAVOUR)
    assert sorted(files) == ["VDU1.yaml", "VDU2.yaml"]
    with open(os.path.join(fixtures_dir, BEFORE, "BaseHOT", FLAVOUR, "nested", "VDU1.yaml")) as handle:
        assert files["VDU1.yaml"] == handle.read()
    assert template["parameters"] == {"nfv": {"type": "json"}}
    assert [template["resources"][name]["type"] for name in ("VDU1", "VDU2")] == ["VDU1.yaml", "VDU2.yaml"]
    # Heat gets the template as JSON: the version must stay text, not become a date.
    assert template["heat_template_version"] == "2013-05-23"
    json.dumps(template)


def test_load_base_hot_of_the_new_package_names_its_versioned_files(fixtures_dir):
    with load_package(os.path.join(fixtures_dir, AFTER)) as package:
        template, files = load_base_hot(package, FLAVOUR)
    assert sorted(files) == ["VDU1-ver2.yaml", "VDU2-ver2.yaml"]
    assert template["resources"]["VDU1"]["type"] == "VDU1-ver2.yaml"


def test_load_base_hot_keys_files_as_the_template_spells_them(package_copy):
    root = package_copy(BEFORE)
    top = os.path.join(root, "BaseHOT", FLAVOUR, "sample3.yaml")
    with open(top) as handle:
        text = handle.read()
    with open(top, "w") as handle:
        handle.write(text.replace("type: VDU1.yaml", "type: nested/VDU1.yaml"))
    with load_package(root) as package:
        _template, files = load_base_hot(package, FLAVOUR)
    assert sorted(files) == ["VDU1.yaml", "VDU2.yaml", "nested/VDU1.yaml"]
    assert files["nested/VDU1.yaml"] == files["VDU1.yaml"]


def test_load_base_hot_without_heat_templates_is_a_package_error(fixtures_dir):
    with load_package(os.path.join(fixtures_dir, "test_cnf_multi_ns")) as package:
        with pytest.raises(PackageError, match="no Heat templates"):
            load_base_hot(package, FLAVOUR)


def test_load_base_hot_requires_the_nfv_parameter(package_copy):
    root = package_copy(BEFORE)
    top = os.path.join(root, "BaseHOT", FLAVOUR, "sample3.yaml")
    with open(top) as handle:
        text = handle.read()
    with open(top, "w") as handle:
        handle.write(text.replace("  nfv:\n    type: json", "  other:\n    type: json"))
    with load_package(root) as package:
        with pytest.raises(PackageError, match="json parameter 'nfv'"):
            load_base_hot(package, FLAVOUR)


def test_expand_level_1_gives_one_resource_per_vdu(flavour_and_hot):
    _flavour, template, _files = flavour_and_hot(BEFORE)
    original = copy.deepcopy(template)
    expanded = expand_per_vnfc(template, {"VDU1": 1, "VDU2": 1})
    assert template == original
    assert resource_names(expanded) == [
        "VDU1-0", "VDU2-0", "internalVL1", "internalVL2", "internalVL1_subnet", "internalVL2_subnet", "nfvi_node_affinity"]
    vdu1 = expanded["resources"]["VDU1-0"]["properties"]
    assert vdu1["flavor"] == nfv_read("VDU", "VDU1-0", "computeFlavourId")
    assert vdu1["net1"] == nfv_read("CP", "VDU1_CP1-0", "network")
    assert vdu1["net2"] == {"get_resource": "internalVL1"}
    vdu2 = expanded["resources"]["VDU2-0"]["properties"]
    assert vdu2["image-VDU2-VirtualStorage"] == nfv_read("VDU", "VDU2-VirtualStorage-0", "vcImageId")
    assert vdu2["subnet1"] == nfv_read("CP", "VDU2_CP1-0", "fixed_ips", 0, "subnet")
    assert vdu2["affinity"] == {"get_resource": "nfvi_node_affinity"}
    for name in ("internalVL1", "internalVL1_subnet", "nfvi_node_affinity"):
        assert expanded["resources"][name] == template["resources"][name]


def test_expand_level_2_gives_two_vdu1_resources(flavour_and_hot):
    _flavour, template, _files = flavour_and_hot(BEFORE)
    expanded = expand_per_vnfc(template, {"VDU1": 2, "VDU2": 1})
    assert [name for name in resource_names(expanded) if name.startswith("VDU")] == ["VDU1-0", "VDU1-1", "VDU2-0"]
    assert expanded["resources"]["VDU1-1"]["properties"]["name"] == nfv_read("VDU", "VDU1-1", "name")
    assert expanded["resources"]["VDU1-1"]["properties"]["net1"] == nfv_read("CP", "VDU1_CP1-1", "network")


def test_expand_is_deterministic(flavour_and_hot):
    _flavour, template, _files = flavour_and_hot(BEFORE)
    first = expand_per_vnfc(template, {"VDU1": 2, "VDU2": 1})
    assert json.dumps(first) == json.dumps(expand_per_vnfc(copy.deepcopy(template), {"VDU2": 1, "VDU1": 2}))


def test_expand_with_zero_vnfcs_drops_the_vdu(flavour_and_hot):
    _flavour, template, _files = flavour_and_hot(BEFORE)
    expanded = expand_per_vnfc(template, {"VDU1": 0, "VDU2": 1})
    assert [name for name in resource_names(expanded) if name.startswith("VDU")] == ["VDU2-0"]


def test_expand_of_a_vdu_the_template_lacks_is_a_package_error(flavour_and_hot):
    _flavour, template, _files = flavour_and_hot(BEFORE)
    with pytest.raises(PackageError, match="no resource for VDU VDU3"):
        expand_per_vnfc(template, {"VDU3": 1})


def test_vnfc_members_of_a_top_level_server():
    assert vnfc_members(FLAT_TEMPLATE["resources"], "VDU1") == ["VDU1", "VDU1_CP1", "VDU1-Storage", "VDU1_FIP"]


def test_expand_copies_a_top_level_server_with_its_port_volume_and_floating_ip():
    expanded = expand_per_vnfc(FLAT_TEMPLATE, {"VDU1": 2})
    assert resource_names(expanded) == [
        "VDU1-0", "VDU1-1", "VDU1_CP1-0", "VDU1_CP1-1", "VDU1-Storage-0", "VDU1-Storage-1", "VDU1_FIP-0", "VDU1_FIP-1",
        "internal", "internal_subnet", "group"]
    server = expanded["resources"]["VDU1-1"]
    assert server["properties"]["networks"] == [{"port": {"get_resource": "VDU1_CP1-1"}}]
    assert server["properties"]["block_device_mapping_v2"] == [{"volume_id": {"get_resource": "VDU1-Storage-1"}}]
    assert server["properties"]["scheduler_hints"] == {"group": {"get_resource": "group"}}
    assert server["depends_on"] == ["VDU1_CP1-1", "group"]
    port = expanded["resources"]["VDU1_CP1-1"]["properties"]
    assert port["network"] == {"get_resource": "internal"}
    assert port["fixed_ips"] == [{"subnet": nfv_read("CP", "VDU1_CP1-1", "fixed_ips", 0, "subnet")}]
    assert expanded["resources"]["VDU1-Storage-0"]["properties"]["image"] == nfv_read("VDU", "VDU1-Storage-0", "vcImageId")
    assert expanded["resources"]["VDU1_FIP-1"]["properties"]["port_id"] == {"get_resource": "VDU1_CP1-1"}


def test_expand_refuses_a_reference_from_outside_the_vnfc():
    template = copy.deepcopy(FLAT_TEMPLATE)
    template["outputs"] = {"address": {"value": {"get_attr": ["VDU1", "first_address"]}}}
    with pytest.raises(PackageError, match="output address of the top Heat template refers to VDU1"):
        expand_per_vnfc(template, {"VDU1": 1})


def test_expand_refuses_a_port_shared_by_two_vdus():
    template = copy.deepcopy(FLAT_TEMPLATE)
    template["resources"]["VDU2"] = {"type": "OS::Nova::Server", "properties": {"networks": [{"port": {"get_resource": "VDU1_CP1"}}]}}
    with pytest.raises(PackageError, match="VDU1_CP1 is linked to both VDU VDU1 and VDU VDU2"):
        expand_per_vnfc(template, {"VDU1": 1, "VDU2": 1})


def test_use_external_networks_reads_the_network_from_nfv(flavour_and_hot):
    _flavour, template, _files = flavour_and_hot(BEFORE)
    changed = use_external_networks(expand_per_vnfc(template, {"VDU1": 1, "VDU2": 1}), ["internalVL1"])
    assert "internalVL1" not in changed["resources"] and "internalVL1_subnet" not in changed["resources"]
    assert "internalVL2" in changed["resources"] and "internalVL2_subnet" in changed["resources"]
    for vdu in ("VDU1-0", "VDU2-0"):
        assert changed["resources"][vdu]["properties"]["net2"] == nfv_read("VL", "internalVL1", "network")
        assert changed["resources"][vdu]["properties"]["net3"] == {"get_resource": "internalVL2"}


def test_use_external_networks_of_an_unknown_vl_is_a_package_error(flavour_and_hot):
    _flavour, template, _files = flavour_and_hot(BEFORE)
    with pytest.raises(PackageError, match="no resource for virtual link internalVL9"):
        use_external_networks(template, ["internalVL9"])


def test_use_external_networks_refuses_references_to_the_dropped_subnet():
    template = copy.deepcopy(FLAT_TEMPLATE)
    template["resources"]["VDU1_CP1"]["properties"]["fixed_ips"] = [{"subnet": {"get_resource": "internal_subnet"}}]
    with pytest.raises(PackageError, match="VDU1_CP1 refers to internal_subnet"):
        use_external_networks(template, ["internal"])


def test_build_stack_template_expands_then_uses_external_networks(flavour_and_hot):
    _flavour, template, _files = flavour_and_hot(BEFORE)
    built = build_stack_template(template, {"VDU1": 2, "VDU2": 1}, ["internalVL2"])
    assert built["resources"]["VDU1-1"]["properties"]["net3"] == nfv_read("VL", "internalVL2", "network")
    expanded = expand_per_vnfc(template, {"VDU1": 1, "VDU2": 1})
    assert build_stack_template(template, {"VDU1": 1, "VDU2": 1}) == after_subnets(expanded)


def test_a_nested_template_given_a_network_of_the_stack_is_created_after_its_subnets(flavour_and_hot):
    # Tacker's sample: the scaling group gets {get_resource: internalVL3}; its members' ports must not come before
    # internalVL3_subnet (Nova refuses a port with no address). Ports and servers Heat orders itself: left as they are.
    template = flavour_and_hot("basic_lcms_min")[1]
    ordered = after_subnets(template)
    assert ordered["resources"]["VDU1_scale_group"]["depends_on"] == ["internalVL3_subnet"]
    changed = [name for name, resource in ordered["resources"].items() if resource != template["resources"][name]]
    assert changed == ["VDU1_scale_group"] and "depends_on" not in template["resources"]["VDU1_scale_group"]
    assert after_subnets(ordered) == ordered


def test_no_dependency_on_a_subnet_that_itself_waits_for_the_resource():
    template = {"resources": {
        "net": {"type": "OS::Neutron::Net"},
        "group": {"type": "VDU1.yaml", "properties": {"net": {"get_resource": "net"}}, "depends_on": "other"},
        "subnet": {"type": "OS::Neutron::Subnet", "properties": {"network": {"get_resource": "net"}}},
        "late": {"type": "OS::Neutron::Subnet", "properties": {"network": {"get_resource": "net"}}, "depends_on": ["group"]},
        "other": {"type": "OS::Heat::None"},
    }}
    assert after_subnets(template)["resources"]["group"]["depends_on"] == ["other", "subnet"]


def test_unresolved_nfv_params_lists_reads_nothing_provides(flavour_and_hot):
    _flavour, template, _files = flavour_and_hot(BEFORE)
    expanded = expand_per_vnfc(template, {"VDU1": 1, "VDU2": 1})
    nfv = {
        "VDU": {"VDU1-0": {"computeFlavourId": "m1.tiny", "vcImageId": "img", "name": None},
                "VDU2-0": {"computeFlavourId": "m1.tiny"}, "VDU2-VirtualStorage-0": {"vcImageId": "img"}},
        "CP": {"VDU1_CP1-0": {"network": "net0"}, "VDU2_CP1-0": {"network": "net0", "fixed_ips": [{"subnet": "subnet0"}]}},
    }
    assert unresolved_nfv_params(expanded, nfv) == [["nfv", "VDU", "VDU1-0", "locationConstraints"], ["nfv", "VDU", "VDU1-0", "name"]]
    nfv["CP"]["VDU2_CP1-0"]["fixed_ips"] = []
    assert ["nfv", "CP", "VDU2_CP1-0", "fixed_ips", "0", "subnet"] in unresolved_nfv_params(expanded, nfv)


def test_rewrite_keeps_non_intrinsic_dicts():
    value = {"get_resource": "a", "other": 1}
    assert heat_template.rewrite(value, lambda function, argument: {"x": 1}) == value


def test_expand_keeps_the_indexes_a_scale_in_left(flavour_and_hot):
    _flavour, template, _files = flavour_and_hot(BEFORE)
    expanded = expand_per_vnfc(template, {"VDU1": [2, 0], "VDU2": 1})
    assert [name for name in resource_names(expanded) if name.startswith("VDU")] == ["VDU1-0", "VDU1-2", "VDU2-0"]
    assert expanded["resources"]["VDU1-2"]["properties"]["flavor"] == nfv_read("VDU", "VDU1-2", "computeFlavourId")


def test_used_files_follow_the_templates_references_and_drop_the_rest():
    top = {"resources": {"VDU1-0": {"type": "VDU1-ver2.yaml"}, "net": {"type": "OS::Neutron::Net"}}}
    files = {"VDU1-ver2.yaml": "resources:\n  inner: {type: inner.yaml}\n", "inner.yaml": "resources: {}\n", "VDU1.yaml": "resources: {}\n"}
    assert sorted(heat_template.used_files(top, files)) == ["VDU1-ver2.yaml", "inner.yaml"]
