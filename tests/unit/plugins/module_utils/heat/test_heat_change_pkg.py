# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import copy
import os
import uuid

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import change_pkg
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import nfv_params
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import template as heat_template
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.plan import stack_plan
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import with_record_resource
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import change_pkg as sol_change_pkg

BEFORE = "userdata_standard"
AFTER = "userdata_standard_change_vnfpkg_nw"
FLAVOUR = "simple"
INDEXES = {"VDU1": [0], "VDU2": [0]}
# Both packages carry cirros 0.5.2 (same checksum): the caller resolves every name to one Glance image.
ONE_IMAGE = {"cirros-0.5.2-x86_64-disk": "img-cirros", "VDU2-VirtualStorage-image": "img-cirros", "VDU1-image": "img-cirros"}


def read_package(path):
    with load_package(path) as package:
        template, files = heat_template.load_base_hot(package, FLAVOUR)
        return {"vnfd": package.to_dict()["vnfd"], "flavour": package.flavour(FLAVOUR), "template": template, "files": files}


def with_images(nfv, image_ids):
    result = copy.deepcopy(nfv)
    for entry in result["VDU"].values():
        if entry.get("vcImageId") in image_ids:
            entry["vcImageId"] = image_ids[entry["vcImageId"]]
    return result


@pytest.fixture
def old(fixtures_dir):
    return read_package(os.path.join(fixtures_dir, BEFORE))


@pytest.fixture
def new(fixtures_dir):
    return read_package(os.path.join(fixtures_dir, AFTER))


@pytest.fixture
def current(old, instantiate_request):
    """The stack instantiate built from the old package (instantiation_level_1: one VNFC per VDU)."""
    counts = nfv_params.vnfc_counts(old["flavour"], "instantiation_level_1")
    nfv = with_images(nfv_params.build_nfv(old["flavour"], instantiate_request, counts), ONE_IMAGE)
    template = with_record_resource(heat_template.build_stack_template(old["template"], counts))
    return {"template": template, "files": old["files"], "nfv": nfv}


@pytest.fixture
def instance(current, instantiate_request):
    return {
        "id": "inst-1",
        "instantiationState": "INSTANTIATED",
        "vimConnectionInfo": {"vim1": {"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3", "accessInfo": {"region": "RegionOne"}}},
        "extensions": {"a": 1, "nested": {"x": 1, "y": 2}},
        "vnfConfigurableProperties": {"list": [1, 2, 3]},
        "instantiatedVnfInfo": {
            "flavourId": FLAVOUR,
            "vnfcResourceInfo": [{"id": "res-1", "vduId": "VDU1"}, {"id": "res-2", "vduId": "VDU2"}],
            "metadata": {"stack_id": "stack-1", "stack_name": "vnf-inst-1", "nfv": current["nfv"],
                         "vnflcm": {"request": instantiate_request, "vnfcs": INDEXES}},
        },
    }


@pytest.fixture
def request_nw(new, ip_config):
    """The issue's case: VDU1_CP1 moves to net1, the new CPs VDU1_CP4 / VDU2_CP4 go on net0, VDU1 and VDU2 are updated."""
    return {
        "vnfdId": new["vnfd"]["descriptor_id"],
        "extVirtualLinks": [
            {"id": "ext-net1", "resourceId": "net1", "extCps": [{"cpdId": "VDU1_CP1", "cpConfig": {"VDU1_CP1_1": ip_config()}}]},
            {"id": "ext-net0-cp4", "resourceId": "net0", "extCps": [
                {"cpdId": "VDU1_CP4", "cpConfig": {"VDU1_CP4_1": ip_config()}},
                {"cpdId": "VDU2_CP4", "cpConfig": {"VDU2_CP4_1": ip_config()}},
            ]},
        ],
        "additionalParams": {"upgrade_type": "RollingUpdate", "vdu_params": [{"vdu_id": "VDU1"}, {"vdu_id": "VDU2"}]},
    }


def desired_for(package, request, instance, image_ids=None):
    normalised = change_pkg.validate_change_pkg(request, instance, package["vnfd"], package["template"])
    private = instance["instantiatedVnfInfo"]["metadata"]["vnflcm"]
    return change_pkg.desired_stack(package["flavour"], package["template"], package["files"], normalised,
                                    private["request"], private["vnfcs"], ONE_IMAGE if image_ids is None else image_ids)


def vnfc(plan, name):
    return next(entry for entry in plan["vnfcs"] if entry["name"] == name)


def members_of(stack, name):
    resources = stack["template"]["resources"]
    return {member: resources[member] for member in heat_template.vnfc_members(resources, name)}


# ---------------------------------------------------------------------------------------------
# The main case

def test_change_to_nw_package_plan(current, new, instance, request_nw):
    desired = desired_for(new, request_nw, instance)
    plan = change_pkg.change_plan(current, desired, ["VDU1", "VDU2"])
    assert plan["is_noop"] is False
    assert plan["updates"] == 2
    vdu2 = vnfc(plan, "VDU2-0")
    assert {"kind": "resize", "server": "VDU2", "from": "m1.tiny", "to": "m1.small"} in vdu2["changes"]
    # Resized, not replaced or rebuilt: the server is kept.
    assert vdu2["effect"] == "resize"
    vdu1 = vnfc(plan, "VDU1-0")
    assert {"kind": "port_moved", "cp": "VDU1_CP1", "from": "net0", "to": "net1"} in vdu1["changes"]
    assert {"kind": "cp_added", "cp": "VDU1_CP4", "network": "net0"} in vdu1["changes"]
    assert {"kind": "cp_added", "cp": "VDU2_CP4", "network": "net0"} in vdu2["changes"]
    assert vdu1["effect"] == "update"
    assert plan["virtual_links"]["added"] == ["internalVL3"]
    assert plan["virtual_links"]["removed"] == ["internalVL2"]
    assert plan["summary"] == {"added": [], "removed": [], "replaced": [], "rebuilt": [], "resized": ["VDU2-0"], "updated": ["VDU1-0"]}
    assert "VDU1-0: port_moved VDU1_CP1 (net0 -> net1)" in plan["lines"]
    assert plan["lines"][-1] == "2 stack update(s), one VNFC at a time: VDU1-0, VDU2-0"


def test_desired_stack_uses_the_new_templates_and_keeps_unmoved_cps(current, new, instance, request_nw):
    desired = desired_for(new, request_nw, instance)
    resources = desired["template"]["resources"]
    assert resources["VDU1-0"]["type"] == "VDU1-ver2.yaml"
    assert "internalVL3" in resources and "internalVL2" not in resources
    assert desired["nfv"]["CP"] == {
        "VDU1_CP1-0": {"network": "net1"},
        "VDU2_CP1-0": {"network": "net0", "fixed_ips": [{"subnet": "subnet0"}]},
        "VDU1_CP4-0": {"network": "net0"},
        "VDU2_CP4-0": {"network": "net0"},
    }
    assert desired["nfv"]["VDU"]["VDU2-0"]["computeFlavourId"] == "m1.small"
    assert desired["nfv"]["VDU"]["VDU2-VirtualStorage-0"] == {"vcImageId": "img-cirros"}


def test_other_image_is_a_rebuild(current, new, instance, request_nw):
    images = dict(ONE_IMAGE, **{"VDU1-image": "img-vdu1-v2"})
    plan = change_pkg.change_plan(current, desired_for(new, request_nw, instance, images), ["VDU1", "VDU2"])
    assert plan["summary"]["rebuilt"] == ["VDU1-0"]
    assert {"kind": "rebuild", "server": "VDU1", "from": "img-cirros", "to": "img-vdu1-v2"} in vnfc(plan, "VDU1-0")["changes"]


def test_additional_nfv_is_merged_last(current, new, instance, request_nw):
    request_nw["additionalParams"]["nfv"] = {"VDU": {"VDU2-0": {"computeFlavourId": "m1.large"}, "VDU1-0": {"vcImageId": None}}}
    desired = desired_for(new, request_nw, instance)
    assert desired["nfv"]["VDU"]["VDU2-0"] == {"computeFlavourId": "m1.large"}
    assert desired["nfv"]["VDU"]["VDU1-0"] == {"computeFlavourId": "m1.tiny"}


# ---------------------------------------------------------------------------------------------
# Rolling steps

def test_rolling_steps_switch_one_vnfc_at_a_time(current, new, instance, request_nw):
    desired = desired_for(new, request_nw, instance)
    steps = change_pkg.rolling_steps(current, desired, ["VDU1", "VDU2"])
    assert [step["vnfc"] for step in steps] == ["VDU1-0", "VDU2-0"]
    first, second = steps[0]["stack"], steps[1]["stack"]
    # Step 1: VDU1-0 in its new form, VDU2-0 exactly as it was (template and nfv), both internal VLs present.
    assert members_of(first, "VDU1-0") == members_of(desired, "VDU1-0")
    assert members_of(first, "VDU2-0") == members_of(current, "VDU2-0")
    assert first["nfv"]["VDU"]["VDU2-0"] == current["nfv"]["VDU"]["VDU2-0"]
    assert first["nfv"]["CP"]["VDU1_CP1-0"] == {"network": "net1"}
    assert "VDU2_CP4-0" not in first["nfv"]["CP"]
    assert {"internalVL2", "internalVL3", "internalVL3_subnet"} <= set(first["template"]["resources"])
    assert first["files"]["VDU2.yaml"] == current["files"]["VDU2.yaml"] and "VDU1.yaml" not in first["files"]
    assert [entry["name"] for entry in steps[0]["plan"]["vnfcs"] if entry["action"] != "none"] == ["VDU1-0"]
    assert steps[0]["plan"]["virtual_links"]["added"] == ["internalVL3"]
    # Step 2: only VDU2-0 changes; the last user of internalVL2 is gone, so it goes too.
    assert [entry["name"] for entry in steps[1]["plan"]["vnfcs"] if entry["action"] != "none"] == ["VDU2-0"]
    assert steps[1]["plan"]["virtual_links"]["removed"] == ["internalVL2"]
    assert second == change_pkg.target_stack(current, desired, ["VDU1", "VDU2"])
    assert stack_plan(second, desired)["is_noop"] is True


def test_vnfc_order_follows_vdu_params(current, new, instance, request_nw):
    desired = desired_for(new, request_nw, instance)
    assert change_pkg.vnfc_order(current, desired, ["VDU2", "VDU1"]) == ["VDU2-0", "VDU1-0"]
    steps = change_pkg.rolling_steps(current, desired, ["VDU2", "VDU1"])
    assert [step["vnfc"] for step in steps] == ["VDU2-0", "VDU1-0"]
    # VDU2 first brings internalVL3 (its new CP3 is on it) while VDU1 still needs internalVL2.
    assert steps[0]["plan"]["virtual_links"] == {"added": ["internalVL3"], "removed": [], "changed": []}


def test_only_named_vdus_are_touched(current, new, instance, request_nw):
    request_nw["additionalParams"]["vdu_params"] = [{"vdu_id": "VDU2"}]
    desired = desired_for(new, request_nw, instance)
    plan = change_pkg.change_plan(current, desired, ["VDU2"])
    assert plan["updates"] == 1
    assert vnfc(plan, "VDU1-0")["action"] == "none"
    target = plan["target"]
    assert members_of(target, "VDU1-0") == members_of(current, "VDU1-0")
    assert target["nfv"]["CP"]["VDU1_CP1-0"] == {"network": "net0"}
    assert "VDU1_CP4-0" not in target["nfv"]["CP"]
    # VDU1-0 still uses internalVL2 and its nested template VDU1.yaml.
    assert "internalVL2" in target["template"]["resources"] and "VDU1.yaml" in target["files"]


# ---------------------------------------------------------------------------------------------
# Scale-up only: a copy of the old package where VDU2's flavour is m1.small

@pytest.fixture
def scale_up(package_copy):
    path = package_copy(BEFORE)
    definition = os.path.join(path, "Definitions", "v2_sample3_df_simple.yaml")
    with open(definition) as stream:
        lines = stream.read().split("\n")
    tiny = [index for index, line in enumerate(lines) if "requested_additional_capability_name: m1.tiny" in line]
    lines[tiny[1]] = lines[tiny[1]].replace("m1.tiny", "m1.small")
    with open(definition, "w") as stream:
        stream.write("\n".join(lines))
    return read_package(path)


def scale_up_request(vnfd, vdu_ids):
    return {"vnfdId": vnfd["descriptor_id"], "additionalParams": {"upgrade_type": "RollingUpdate", "vdu_params": [{"vdu_id": vdu} for vdu in vdu_ids]}}


def test_scale_up_only_resizes_vdu2(current, scale_up, instance):
    desired = desired_for(scale_up, scale_up_request(scale_up["vnfd"], ["VDU2"]), instance)
    plan = change_pkg.change_plan(current, desired, ["VDU2"])
    assert plan["updates"] == 1
    assert vnfc(plan, "VDU2-0")["changes"] == [{"kind": "resize", "server": "VDU2", "from": "m1.tiny", "to": "m1.small"}]
    assert vnfc(plan, "VDU1-0")["action"] == "none"
    assert plan["virtual_links"] == {"added": [], "removed": [], "changed": []}
    for step in change_pkg.rolling_steps(current, desired, ["VDU2"]):
        assert members_of(step["stack"], "VDU1-0") == members_of(current, "VDU1-0")
        assert step["stack"]["nfv"]["VDU"]["VDU1-0"] == current["nfv"]["VDU"]["VDU1-0"]


def test_scale_up_of_both_vdus_skips_the_unchanged_one(current, scale_up, instance):
    desired = desired_for(scale_up, scale_up_request(scale_up["vnfd"], ["VDU1", "VDU2"]), instance)
    assert [step["vnfc"] for step in change_pkg.rolling_steps(current, desired, ["VDU1", "VDU2"])] == ["VDU2-0"]


# ---------------------------------------------------------------------------------------------
# Re-planning after success

def test_replan_after_success_sends_no_update(current, new, instance, request_nw):
    desired = desired_for(new, request_nw, instance)
    done = change_pkg.change_plan(current, desired, ["VDU1", "VDU2"])["target"]
    again = change_pkg.change_plan(done, desired, ["VDU1", "VDU2"])
    assert again["is_noop"] is True
    assert again["updates"] == 0
    assert change_pkg.rolling_steps(done, desired, ["VDU1", "VDU2"]) == []


def test_partial_replan_is_idempotent(current, new, instance, request_nw):
    desired = desired_for(new, request_nw, instance)
    done = change_pkg.target_stack(current, desired, ["VDU2"])
    assert change_pkg.change_plan(done, desired, ["VDU2"])["updates"] == 0
    # Naming VDU1 afterwards still updates it.
    assert change_pkg.change_plan(done, desired, ["VDU1"])["updates"] == 1


def test_tacker_update_count():
    assert change_pkg.tacker_update_count(2) == 3
    assert change_pkg.tacker_update_count(0) == 1


# ---------------------------------------------------------------------------------------------
# Bad input: a ValidationError naming the field, before anything is written

def field_of(new, request, instance):
    with pytest.raises(ValidationError) as raised:
        change_pkg.validate_change_pkg(request, instance, new["vnfd"], new["template"])
    return raised.value.field


def test_unknown_vdu_id(new, instance, request_nw):
    request_nw["additionalParams"]["vdu_params"].append({"vdu_id": "VDU9"})
    assert field_of(new, request_nw, instance) == "additionalParams.vdu_params[2].vdu_id"


def test_vdu_id_without_vnfc_in_the_instance(new, instance, request_nw):
    instance["instantiatedVnfInfo"]["vnfcResourceInfo"] = [{"id": "res-1", "vduId": "VDU1"}]
    assert field_of(new, request_nw, instance) == "additionalParams.vdu_params[1].vdu_id"


def test_vdu_named_twice(new, instance, request_nw):
    request_nw["additionalParams"]["vdu_params"].append({"vdu_id": "VDU1"})
    assert field_of(new, request_nw, instance) == "additionalParams.vdu_params[2].vdu_id"


@pytest.mark.parametrize("upgrade_type", ["BlueGreen", None])
def test_upgrade_type_must_be_rolling_update(new, instance, request_nw, upgrade_type):
    if upgrade_type is None:
        del request_nw["additionalParams"]["upgrade_type"]
    else:
        request_nw["additionalParams"]["upgrade_type"] = upgrade_type
    assert field_of(new, request_nw, instance) == "additionalParams.upgrade_type"


def test_vdu_params_required(new, instance, request_nw):
    request_nw["additionalParams"]["vdu_params"] = []
    assert field_of(new, request_nw, instance) == "additionalParams.vdu_params"


def test_cpd_id_unknown_to_the_new_vnfd(new, instance, request_nw, ip_config):
    request_nw["extVirtualLinks"][0]["extCps"].append({"cpdId": "VDU1_CP9", "cpConfig": {"x": ip_config()}})
    assert field_of(new, request_nw, instance) == "extVirtualLinks[0].extCps[1].cpdId"


def test_new_cp_without_network(new, instance, request_nw):
    del request_nw["extVirtualLinks"][1]
    with pytest.raises(ValidationError) as raised:
        change_pkg.validate_change_pkg(request_nw, instance, new["vnfd"], new["template"])
    assert raised.value.field == "extVirtualLinks"
    assert "VDU1_CP4" in str(raised.value)


def test_unknown_vnfd_id(new, instance, request_nw):
    request_nw["vnfdId"] = "00000000-0000-0000-0000-000000000000"
    assert field_of(new, request_nw, instance) == "vnfdId"


def test_not_instantiated(new, instance, request_nw):
    instance["instantiationState"] = "NOT_INSTANTIATED"
    with pytest.raises(ConflictError):
        change_pkg.validate_change_pkg(request_nw, instance, new["vnfd"], new["template"])


# ---------------------------------------------------------------------------------------------
# Connectivity and merged instance fields

def test_effective_connectivity_moves_and_drops_cps(new, instantiate_request, request_nw):
    links = change_pkg.effective_connectivity(instantiate_request, request_nw, new["flavour"])["extVirtualLinks"]
    by_id = {link["id"]: [ext_cp["cpdId"] for ext_cp in link["extCps"]] for link in links}
    assert by_id == {"ext-net0": ["VDU2_CP1"], "ext-net1": ["VDU1_CP1"], "ext-net0-cp4": ["VDU1_CP4", "VDU2_CP4"]}
    # A CP the new flavour lacks is deleted; a link left empty goes.
    flavour = copy.deepcopy(new["flavour"])
    del flavour["cps"]["VDU2_CP1"]
    links = change_pkg.effective_connectivity(instantiate_request, request_nw, flavour)["extVirtualLinks"]
    assert [link["id"] for link in links] == ["ext-net1", "ext-net0-cp4"]


def tacker_managed_link(vl_id, network):
    """An extManagedVirtualLinks entry as Tacker's paramgen writes it: a fresh id every time."""
    return {"id": str(uuid.uuid4()), "vnfVirtualLinkDescId": vl_id, "vimConnectionId": "vim1", "resourceProviderId": "Company",
            "resourceId": network, "extManagedMultisiteVirtualLinkId": str(uuid.uuid4())}


def test_a_managed_link_of_a_vl_the_instance_has_replaces_it_whatever_its_id(current, new, instance, request_nw):
    private = instance["instantiatedVnfInfo"]["metadata"]["vnflcm"]
    private["request"]["extManagedVirtualLinks"] = [{"id": "ext_managed_vl_1", "vnfVirtualLinkDescId": "internalVL1", "resourceId": "net_mgmt"}]
    request_nw["extManagedVirtualLinks"] = [tacker_managed_link("internalVL1", "net_mgmt2"), tacker_managed_link("internalVL3", "net-vl3")]
    desired = desired_for(new, request_nw, instance)
    assert desired["nfv"]["VL"] == {"internalVL1": {"network": "net_mgmt2"}, "internalVL3": {"network": "net-vl3"}}
    assert "internalVL1" not in desired["template"]["resources"] and "internalVL3" not in desired["template"]["resources"]
    # What the record keeps afterwards: one link per VL, under the ids of the request.
    wanted = change_pkg.effective_request(private["request"], request_nw, new["flavour"])
    assert wanted["extManagedVirtualLinks"] == request_nw["extManagedVirtualLinks"]


def test_one_vl_twice_in_one_request_names_both_of_its_entries(new, instance, request_nw):
    private = instance["instantiatedVnfInfo"]["metadata"]["vnflcm"]
    private["request"]["extManagedVirtualLinks"] = [{"id": "ext_managed_vl_1", "vnfVirtualLinkDescId": "internalVL1", "resourceId": "net_mgmt"}]
    request_nw["extManagedVirtualLinks"] = [tacker_managed_link("internalVL3", "n1"), tacker_managed_link("internalVL1", "net_mgmt"),
                                            tacker_managed_link("internalVL3", "n2")]
    with pytest.raises(ValidationError) as caught:
        change_pkg.validate_change_pkg(request_nw, instance, new["vnfd"], new["template"])
    # The request's own indexes, not those of the list merged with the instance's links.
    assert caught.value.field == "extManagedVirtualLinks[2].vnfVirtualLinkDescId"
    assert "internalVL3 is given twice, by extManagedVirtualLinks[0] and extManagedVirtualLinks[2]" in caught.value.msg


def coordinated(cp1, cp2, member="new_vnfc_param"):
    return [{"vdu_id": "VDU1", member: {"cp_name": cp1}}, {"vdu_id": "VDU2", member: {"cp_name": cp2}}]


def test_a_script_needs_a_port_or_floating_ip_of_each_vnfc_named_by_cp_name(current, new, instance, request_nw):
    desired = desired_for(new, request_nw, instance)
    change_pkg.check_address_resources(desired, coordinated("VDU1_CP1", "VDU2_CP4"), "new_vnfc_param", "Scripts/new.py")
    change_pkg.check_address_resources(current, coordinated("VDU1_CP2", "VDU2_CP3", "old_vnfc_param"), "old_vnfc_param", "Scripts/old.py")
    with pytest.raises(ValidationError) as caught:
        # VDU2_CP4 is a CP of the new package only: the rollback script runs on the old form.
        change_pkg.check_address_resources(current, coordinated("VDU1_CP1", "VDU2_CP4", "old_vnfc_param"), "old_vnfc_param", "Scripts/old.py")
    assert caught.value.field == "additionalParams.vdu_params[1].old_vnfc_param.cp_name"
    assert "VNFC VDU2-0 has no port or floating IP VDU2_CP4" in caught.value.msg
    assert "CPs of the VNFC: VDU2_CP1, VDU2_CP2, VDU2_CP3" in caught.value.msg


def test_merged_instance_fields(instance):
    request = {
        "vimConnectionInfo": {"vim1": {"accessInfo": {"region": None, "project": "p"}}, "vim2": {"vimType": "kubernetes"}},
        "extensions": {"a": None, "nested": {"y": 3, "z": 4}},
        "vnfConfigurableProperties": {"list": [9]},
    }
    merged = sol_change_pkg.merged_instance_fields(instance, request)
    assert merged == {
        "vimConnectionInfo": {"vim1": {"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3", "accessInfo": {"project": "p"}}, "vim2": {"vimType": "kubernetes"}},
        "extensions": {"nested": {"x": 1, "y": 3, "z": 4}},
        "vnfConfigurableProperties": {"list": [9]},
    }
    assert instance["extensions"] == {"a": 1, "nested": {"x": 1, "y": 2}}


def test_merged_instance_fields_keep_what_the_request_omits(instance):
    merged = sol_change_pkg.merged_instance_fields(instance, {"extensions": {"a": None, "nested": None}})
    assert "extensions" not in merged
    assert merged["vnfConfigurableProperties"] == {"list": [1, 2, 3]}


# ---------------------------------------------------------------------------------------------
# What the op occ reports

def port(port_id, cp):
    return {"id": port_id, "cpInstanceId": "{0}-{1}".format(cp, port_id), "resourceHandle": {"resourceId": port_id}}


OLD_INFO = {
    "vnfcResourceInfo": [{"id": "srv-1", "vduId": "VDU1", "computeResource": {"resourceId": "srv-1"}, "metadata": {"stackResource": "VDU1-0"}},
                         {"id": "srv-2", "vduId": "VDU2", "computeResource": {"resourceId": "srv-2"}, "metadata": {"stackResource": "VDU2-0"}}],
    "vnfVirtualLinkResourceInfo": [{"id": "net-1", "vnfVirtualLinkDescId": "internalVL1", "networkResource": {"resourceId": "net-1"},
                                    "vnfLinkPorts": [port("p11", "VDU1_CP2")]},
                                   {"id": "net-2", "vnfVirtualLinkDescId": "internalVL2", "networkResource": {"resourceId": "net-2"},
                                    "vnfLinkPorts": [port("p13", "VDU1_CP3")]}],
    "extVirtualLinkInfo": [{"id": "ext-net0", "extLinkPorts": [port("p1", "VDU1_CP1"), port("p2", "VDU2_CP1")]}],
}
NEW_INFO = {
    "vnfcResourceInfo": OLD_INFO["vnfcResourceInfo"],
    "vnfVirtualLinkResourceInfo": [OLD_INFO["vnfVirtualLinkResourceInfo"][0],
                                   {"id": "net-3", "vnfVirtualLinkDescId": "internalVL3", "networkResource": {"resourceId": "net-3"},
                                    "vnfLinkPorts": [port("p33", "VDU1_CP3")]}],
    "extVirtualLinkInfo": [{"id": "ext-net0", "extLinkPorts": [port("p2", "VDU2_CP1")]},
                           {"id": "ext-net1", "extLinkPorts": [port("p9", "VDU1_CP1")]}],
}


def test_resource_changes_of_a_change():
    plan = {"vnfcs": [{"name": "VDU1-0", "action": "update"}, {"name": "VDU2-0", "action": "none"}]}
    changes = change_pkg.resource_changes(OLD_INFO, NEW_INFO, plan)
    assert changes["affectedVnfcs"] == [{"id": "srv-1", "vduId": "VDU1", "changeType": "MODIFIED", "computeResource": {"resourceId": "srv-1"}}]
    assert [(item["vnfVirtualLinkDescId"], item["changeType"]) for item in changes["affectedVirtualLinks"]] == [
        ("internalVL2", "REMOVED"), ("internalVL3", "ADDED")]
    assert [(item["id"], item["changeType"]) for item in changes["affectedExtLinkPorts"]] == [("p9", "ADDED"), ("p1", "REMOVED")]


def test_changed_ext_connectivity_lists_the_links_that_differ():
    assert [link["id"] for link in change_pkg.changed_ext_connectivity(OLD_INFO, NEW_INFO)] == ["ext-net0", "ext-net1"]
    assert change_pkg.changed_ext_connectivity(NEW_INFO, NEW_INFO) == []


def test_modifications_triggered_name_only_what_changed():
    before = {"vnfdId": "a", "vnfProvider": "Company", "extensions": {"x": 1}, "vimConnectionInfo": {"v": {}}}
    after = {"vnfdId": "b", "vnfProvider": "Company", "extensions": {"x": 2}, "vimConnectionInfo": {"w": {}}}
    assert sol_change_pkg.modifications_triggered(before, after) == {"vnfdId": "b", "extensions": {"x": 2}}


# ---------------------------------------------------------------------------------------------
# A nested template both a rolled VDU and one not in vdu_params use

SHARED = "heat_template_version: 2013-05-23\nparameters:\n  flavor: {type: string}\nresources: {}\n"


def shared_stack(flavour, shared=SHARED):
    resources = {name: {"type": "shared.yaml", "properties": {"flavor": {"get_param": ["nfv", "VDU", name, "computeFlavourId"]}}}
                 for name in ("VDU1-0", "VDU2-0")}
    return {"template": {"heat_template_version": "2013-05-23", "resources": resources}, "files": {"shared.yaml": shared},
            "nfv": {"VDU": {"VDU1-0": {"computeFlavourId": flavour}, "VDU2-0": {"computeFlavourId": "m1.tiny"}}}}


def test_a_vdu_not_in_vdu_params_takes_a_shared_nested_template_the_new_package_changes():
    """Heat has one file per name: VDU2-0 keeps its resource and nfv values but takes the new shared.yaml with VDU1-0's
    update, as with Tacker v2, whose update sends the new package's files; the plan warns."""
    changed = SHARED + "outputs: {}\n"
    current, desired = shared_stack("m1.tiny"), shared_stack("m1.small", changed)
    plan = change_pkg.change_plan(current, desired, ["VDU1"])
    assert [step["vnfc"] for step in plan["steps"]] == ["VDU1-0"]
    assert plan["target"]["files"]["shared.yaml"] == changed
    assert plan["target"]["nfv"]["VDU"]["VDU2-0"] == {"computeFlavourId": "m1.tiny"}
    assert len(plan["warnings"]) == 1 and plan["warnings"][0].startswith("VDU2 (not in vdu_params): its VNFCs take the new package's shared.yaml")
    assert change_pkg.kept_vdus_taking_templates(current, desired, ["VDU1", "VDU2"]) == {}
    # The same template in both packages: nothing to warn of.
    assert change_pkg.change_plan(current, shared_stack("m1.small"), ["VDU1"])["warnings"] == []
