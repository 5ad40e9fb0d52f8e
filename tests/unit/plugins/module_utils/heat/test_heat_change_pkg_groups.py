# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The change of package on the DefaultUserData form, planned on Tacker's basic_lcms_min."""

from __future__ import annotations

import copy

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import change_pkg_groups
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.form import form_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.nfv_params import build_nfv, vnfc_counts
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.template import used_files

GROUP_STACK = {"stack_name": "vnf-1-VDU1_scale_group-abc", "id": "nested-id"}
OLD_PROPERTIES = {"flavor": "m1.tiny", "image-VDU1": "cirros-0.5.2-x86_64-disk", "net5": "net-id", "affinity": "group-id"}


@pytest.fixture
def stacks(flavour_and_hot):
    """``(form, current, desired)``: basic_lcms_min at level 2, and the same with VDU1 on m1.small and image cirros."""
    flavour, template, files = flavour_and_hot("basic_lcms_min")
    form = form_of(template)
    counts = vnfc_counts(flavour, "instantiation_level_2")
    nfv = build_nfv(flavour, {"flavourId": "simple"}, counts, form=form)
    current = {"template": template, "files": files, "nfv": nfv}
    desired = copy.deepcopy(current)
    desired["nfv"]["VDU"]["VDU1"].update(computeFlavourId="m1.small", vcImageId="cirros")
    return form, current, desired


def members(properties=None, count=3):
    return [{"name": "member{0}".format(index), "vdu": "VDU1", "group": "VDU1_scale_group", "group_stack": GROUP_STACK,
             "server": "server{0}".format(index), "properties": dict(properties or OLD_PROPERTIES)} for index in range(count)]


def test_member_properties_are_the_flavour_and_images_the_definition_reads(stacks):
    form, current, desired = stacks
    group = desired["template"]["resources"]["VDU1_scale_group"]
    assert change_pkg_groups.member_properties(group, desired["nfv"]) == {"flavor": "m1.small", "image-VDU1": "cirros"}


def test_each_member_is_one_step_then_the_whole_stack(stacks):
    form, current, desired = stacks
    plan = change_pkg_groups.change_plan(current, desired, ["VDU1"], form, members())
    assert [step["vnfc"] for step in plan["steps"]] == ["member0", "member1", "member2"]
    assert plan["updates"] == 4 and not plan["is_noop"]
    assert plan["lines"][0] == "VDU1_scale_group: member member0: flavor m1.tiny -> m1.small, image-VDU1 cirros-0.5.2-x86_64-disk -> cirros"
    assert plan["lines"][-1].startswith("then one update of the whole stack to the new package")
    steps = change_pkg_groups.rolling_steps(current, desired, ["VDU1"], form, members())
    # A member keeps the properties the change does not roll (its network, its server group).
    assert steps[0]["properties"] == dict(OLD_PROPERTIES, flavor="m1.small", **{"image-VDU1": "cirros"})
    # The stack the step PATCHes: the group's own, as the members were read.
    assert steps[0]["group_stack"] == GROUP_STACK


def test_a_member_already_in_its_new_form_is_left_alone(stacks):
    form, current, desired = stacks
    done = dict(OLD_PROPERTIES, flavor="m1.small", **{"image-VDU1": "cirros"})
    mixed = members()
    mixed[0]["properties"] = done
    assert [step["vnfc"] for step in change_pkg_groups.rolling_steps(current, desired, ["VDU1"], form, mixed)] == ["member1", "member2"]
    # After the change: nothing to do, no update at all.
    again = change_pkg_groups.change_plan(desired, desired, ["VDU1"], form, members(done))
    assert again["is_noop"] and again["updates"] == 0 and again["steps"] == []


def test_a_plain_server_gets_its_nfv_entries_in_one_top_stack_update(stacks):
    form, current, desired = stacks
    desired["nfv"]["VDU"]["VDU2"]["computeFlavourId"] = "m1.small"
    steps = change_pkg_groups.rolling_steps(current, desired, ["VDU2", "VDU1"], form, members())
    assert [step["vnfc"] for step in steps] == ["VDU2", "member0", "member1", "member2"]
    server = steps[0]
    assert server["stack"]["nfv"]["VDU"]["VDU2"]["computeFlavourId"] == "m1.small"
    # Only VDU2's entries move: VDU1's stay as they are until its members are done.
    assert server["stack"]["nfv"]["VDU"]["VDU1"] == current["nfv"]["VDU"]["VDU1"]
    assert server["stack"]["template"] == current["template"]
    assert server["changes"] == {"VDU2": [current["nfv"]["VDU"]["VDU2"], desired["nfv"]["VDU"]["VDU2"]]}


def test_a_vdu_that_changes_unnamed_is_changed_by_the_last_update_with_a_warning(stacks):
    """As Tacker v2: a VDU not in vdu_params changes in the last update of the whole stack; the plan says so."""
    form, current, desired = stacks
    assert change_pkg_groups.unnamed_changing_vdus(current, desired, ["VDU1"], form) == []
    desired["nfv"]["VDU"]["VDU2"]["computeFlavourId"] = "m1.small"
    assert change_pkg_groups.unnamed_changing_vdus(current, desired, ["VDU1"], form) == ["VDU2"]
    assert change_pkg_groups.unnamed_changing_vdus(current, desired, ["VDU2"], form) == ["VDU1"]
    plan = change_pkg_groups.change_plan(current, desired, ["VDU1"], form, members())
    assert [warning.split(" (")[0] for warning in plan["warnings"]] == ["VDU2"]
    assert "the last update changes it" in plan["warnings"][0] and plan["target"]["nfv"]["VDU"]["VDU2"]["computeFlavourId"] == "m1.small"
    # A new nested template for the members is a change of VDU1 too.
    edited = copy.deepcopy(current)
    edited["files"]["VDU1.yaml"] = edited["files"]["VDU1.yaml"] + "\n# changed\noutputs: {}\n"
    assert change_pkg_groups.unnamed_changing_vdus(current, edited, ["VDU2"], form) == ["VDU1"]


def test_the_members_nested_template_is_a_file_the_stack_uses(stacks):
    form, current, desired = stacks
    assert used_files(current["template"], dict(current["files"], **{"other.yaml": "resources: {}"})) == {"VDU1.yaml": current["files"]["VDU1.yaml"]}


# ---------------------------------------------------------------------------------------------
# A coordination script's cp_name: found as the hook finds it, for members and for a plain top-level server

def coordinated(vdu1_cp, vdu2_cp):
    return [{"vdu_id": "VDU1", "new_vnfc_param": {"cp_name": vdu1_cp}}, {"vdu_id": "VDU2", "new_vnfc_param": {"cp_name": vdu2_cp}}]


def test_the_address_check_finds_a_plain_servers_top_level_port_and_each_members_own(stacks):
    from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import change_pkg

    _form, current, _desired = stacks
    current = dict(current, members=members(count=2))
    assert change_pkg.planned_vnfcs(current, "VDU2") == ["VDU2"]
    assert change_pkg.planned_vnfcs(current, "VDU1") == ["member0", "member1"]
    listed = change_pkg.planned_resources(current)
    assert change_pkg.cp_resource(listed, "VDU2", "VDU2_CP1")["parent_resource"] is None
    assert change_pkg.cp_resource(listed, "member1", "VDU1_CP1") == {"resource_name": "VDU1_CP1", "resource_type": "OS::Neutron::Port",
                                                                     "parent_resource": "member1"}
    # A member's CP is in its own nested stack only: the top stack's VDU2_CP1 is not one of its.
    assert change_pkg.cp_resource(listed, "member1", "VDU2_CP1") is None
    change_pkg.check_address_resources(current, coordinated("VDU1_CP1", "VDU2_CP1"), "new_vnfc_param", "Scripts/new.py")
    with pytest.raises(ValidationError) as caught:
        change_pkg.check_address_resources(current, coordinated("VDU1_CP1", "VDU1_CP1"), "new_vnfc_param", "Scripts/new.py")
    assert caught.value.field == "additionalParams.vdu_params[1].new_vnfc_param.cp_name"
    assert "VNFC VDU2 has no port or floating IP VDU1_CP1" in caught.value.msg and "CPs of the VNFC: VDU2_CP1" in caught.value.msg
    with pytest.raises(ValidationError, match=r"VNFC member0 has no port or floating IP VDU2_CP1 .*CPs of the VNFC: VDU1_CP1"):
        change_pkg.check_address_resources(current, coordinated("VDU2_CP1", "VDU2_CP1"), "new_vnfc_param", "Scripts/new.py")
