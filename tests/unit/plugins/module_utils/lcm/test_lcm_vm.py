# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Heat driver's planning: what it decides before any write (no cloud: the stacks are in memory)."""

from __future__ import annotations

import copy
import os
import types

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import nfv_params
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import template as heat_template
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import HeatRecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import engine
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import heal as vm_heal, resume as vm_resume, scale as vm_scale
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import session as vm_session, shared as vm_shared
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import PRIVATE
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ

from ansible_collections.nfv.vnflcm.tests.unit.plugins.module_utils.heat.fake_heat import FakeConn, FakeStacks


def test_scale_in_removes_the_newest_and_scale_out_takes_the_next_index():
    assert vm_shared.rescaled({"VDU1": [0, 1, 2], "VDU2": [0]}, {"VDU1": 2}) == {"VDU1": [0, 1], "VDU2": [0]}
    assert vm_shared.rescaled({"VDU1": [0, 2]}, {"VDU1": 3}) == {"VDU1": [0, 2, 3]}


def test_image_names_become_glance_ids():
    nfv = {"VDU": {"VDU1-0": {"vcImageId": "cirros"}, "VDU2-0": {"computeFlavourId": "m1"}}}
    assert nfv_params.with_image_ids(nfv, {"cirros": "id-1"})["VDU"]["VDU1-0"]["vcImageId"] == "id-1"
    assert nfv["VDU"]["VDU1-0"]["vcImageId"] == "cirros"


@pytest.fixture
def instantiated(fixtures_dir):
    """An INSTANTIATED record as plan_instantiate leaves it (level 1), in a fake stack."""
    with load_package(os.path.join(fixtures_dir, "userdata_standard")) as package:
        base, _files = heat_template.load_base_hot(package, "simple")
        flavour = package.flavour("simple")
    request = {"flavourId": "simple", "extVirtualLinks": [{"id": "e", "resourceId": "net0", "extCps": [{"cpdId": "VDU1_CP1", "cpConfig": {"c": {}}}]}]}
    private = {"flavour": flavour, "base_template": base, "request": request, "vnfcs": {"VDU1": [0], "VDU2": [0]}, "images": {}}
    instance = {"id": "i-1", "vnfInstanceName": "v", "instantiationState": "INSTANTIATED", "instantiatedVnfInfo": {
        "flavourId": "simple", "scaleStatus": [{"aspectId": "VDU1_scale", "scaleLevel": 0}],
        "vnfcResourceInfo": [], "vnfcInfo": [], "metadata": {"stack_id": "s-1", "stack_name": "vnf-i-1", PRIVATE: private}}}
    stacks = FakeStacks()
    store = HeatRecordStore(stacks, stacks.add("vnf-i-1", "s-1", ["vnflcm"]))
    version = store.save(instance, [], None)
    stacks.writes.clear()
    return vm_session.HeatVim.__new__(vm_session.HeatVim), stacks, store, (instance, [], version)


def with_stacks(vim, stacks):
    vim.stacks, vim.conn, vim.vim_id = stacks, FakeConn(), None
    return vim


def test_scale_plans_one_more_vnfc_and_writes_nothing_in_check_mode(instantiated):
    vim, stacks, store, found = instantiated
    operation = vm_scale.plan_scale(with_stacks(vim, stacks), store, found, {"type": "SCALE_OUT", "aspectId": "VDU1_scale"})
    assert operation.plan["vnfcs"]["VDU1"] == [0, 1] and operation.plan["summary"]["added"] == ["VDU1-1"]
    assert "VDU1-1: create" in operation.plan["lines"]
    result = engine.run(operation, check_mode=True)
    assert result["changed"] and stacks.writes == []


def test_scale_beyond_the_maximum_fails_before_any_write(instantiated):
    vim, stacks, store, found = instantiated
    with pytest.raises(ValidationError, match="numberOfSteps"):
        vm_scale.plan_scale(with_stacks(vim, stacks), store, found, {"type": "SCALE_OUT", "aspectId": "VDU1_scale", "numberOfSteps": 3})
    assert stacks.writes == []


def test_every_operation_the_collection_resumes_has_its_resumer_on_openstack():
    assert set(vm_resume.RESUMERS) == op_occ.RETRYABLE


def test_heal_and_terminate_cannot_be_rolled_back(instantiated):
    vim, stacks, store, found = instantiated
    with pytest.raises(ConflictError, match="no rollback of HEAL"):
        vm_resume.plan_resume(with_stacks(vim, stacks), store, found, {"id": "o", "operation": "HEAL", "operationParams": {}}, "rollback")


def test_scale_rollback_restores_the_recorded_count(instantiated):
    vim, stacks, store, found = instantiated
    operation = vm_resume.plan_resume(with_stacks(vim, stacks), store, found,
                                      {"id": "o", "operation": "SCALE", "operationParams": {"type": "SCALE_OUT", "aspectId": "VDU1_scale"}}, "rollback")
    assert operation.plan["vnfcs"] == {"VDU1": [0], "VDU2": [0]} and operation.plan["to_level"] == 0


def test_scale_to_level_plans_one_stack_update_and_a_rerun_plans_none(instantiated):
    vim, stacks, store, found = instantiated
    operation = vm_scale.plan_scale_to_level(with_stacks(vim, stacks), store, found, {"instantiationLevelId": "instantiation_level_2"})
    assert operation.name == "SCALE_TO_LEVEL" and operation.plan["to_levels"] == {"VDU1_scale": 1}
    assert operation.plan["summary"]["added"] == ["VDU1-1"]
    assert engine.run(operation, check_mode=True)["changed"] and stacks.writes == []
    again = vm_scale.plan_scale_to_level(vim, store, found, {"scaleInfo": [{"aspectId": "VDU1_scale", "scaleLevel": 0}]})
    assert again.changed is False and again.plan["to_levels"] == {}


def test_scale_to_level_beyond_the_maximum_fails_before_any_write(instantiated):
    vim, stacks, store, found = instantiated
    with pytest.raises(ValidationError) as err:
        vm_scale.plan_scale_to_level(with_stacks(vim, stacks), store, found, {"scaleInfo": [{"aspectId": "VDU1_scale", "scaleLevel": 3}]})
    assert err.value.field == "scaleInfo[0].scaleLevel" and stacks.writes == []


def test_scale_to_level_rollback_restores_the_recorded_vnfcs(instantiated):
    vim, stacks, store, found = instantiated
    failed = {"id": "o", "operation": "SCALE_TO_LEVEL", "operationParams": {"instantiationLevelId": "instantiation_level_2"}}
    operation = vm_resume.plan_resume(with_stacks(vim, stacks), store, found, failed, "rollback")
    assert operation.name == "SCALE_TO_LEVEL" and operation.plan["vnfcs"] == {"VDU1": [0], "VDU2": [0]}
    assert operation.plan["to_levels"] == {"VDU1_scale": 0}
    assert vm_resume.plan_resume(vim, store, found, failed, "retry").plan["to_levels"] == {"VDU1_scale": 1}


def scripted(found):
    """The record of ``found`` as if a package user-data script had made its stack: VDU1-0 on a flavour of its own, an extra nfv entry."""
    private = found[0]["instantiatedVnfInfo"]["metadata"][PRIVATE]
    template, nfv = vm_shared.built_in_stack(private, private["vnfcs"], {})
    made = copy.deepcopy(nfv)
    made["VDU"]["VDU1-0"]["computeFlavourId"] = "m1.mine"
    made["extra"] = {"by": "script"}
    private["user_data"] = {"script": "UserData/mine.py", "class": "MyUserData", "stack": {"template": template, "nfv": made},
                            "request": copy.deepcopy(private["request"]), "vnfcs": copy.deepcopy(private["vnfcs"])}
    return private, template, made


def test_a_scale_applies_its_built_in_change_to_the_stack_a_script_made(instantiated):
    vim, stacks, store, found = instantiated
    private, template, made = scripted(found)
    out_template, out_nfv = vm_shared.desired_stack(private, {"VDU1": [0, 1], "VDU2": [0]}, {})
    built_in = vm_shared.built_in_stack(private, {"VDU1": [0, 1], "VDU2": [0]}, {})[1]
    assert out_nfv["VDU"]["VDU1-0"]["computeFlavourId"] == "m1.mine" and out_nfv["extra"] == {"by": "script"}
    assert out_nfv["VDU"]["VDU1-1"] == built_in["VDU"]["VDU1-1"] and "VDU1-1" in out_template["resources"]
    # Back to the VNFCs the script made the stack for: the stack as it made it, exactly.
    assert vm_shared.desired_stack(private, private["vnfcs"], {}) == (template, made)
    # Scale in of the VNFC the script set: it goes, with what the script set for it.
    assert "VDU1-0" not in vm_shared.desired_stack(private, {"VDU1": [1], "VDU2": [0]}, {})[1]["VDU"]
    operation = vm_scale.plan_scale(with_stacks(vim, stacks), store, found, {"type": "SCALE_OUT", "aspectId": "VDU1_scale"})
    assert operation.plan["summary"]["added"] == ["VDU1-1"] and operation.plan["summary"]["updated"] == []


@pytest.mark.parametrize("planner, request_body", [
    (vm_scale.plan_scale, {"type": "SCALE_OUT", "aspectId": "VDU1_scale"}),
    (vm_scale.plan_scale_to_level, {"instantiationLevelId": "instantiation_level_2"}),
    (vm_heal.plan_heal, {}),
])
def test_a_request_after_instantiate_that_names_a_package_script_is_refused(instantiated, planner, request_body):
    vim, stacks, store, found = instantiated
    params = {"lcm-operation-user-data": "./UserData/mine.py", "lcm-operation-user-data-class": "MyUserData"}
    with pytest.raises(ValidationError, match="runs one only where the operation is given the package"):
        planner(with_stacks(vim, stacks), store, found, dict(request_body, additionalParams=params))
    builtin = {"lcm-operation-user-data": "./UserData/userdata_standard.py", "lcm-operation-user-data-class": "StandardUserData"}
    assert planner(vim, store, found, dict(request_body, additionalParams=builtin)).plan


class Planned(Exception):
    """Raised once the part of the plan a test looks at is done."""


def test_a_change_of_package_does_not_look_up_a_placeholder_port_its_nfv_cp_port_replaces(instantiated, fixtures_dir, monkeypatch):
    """Tacker's form in a ChangeCurrentVnfPkgRequest: extLinkPorts ``dummy-id``, the port named in additionalParams.nfv.CP."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import change_pkg as vm_change_pkg

    vim, _stacks, store, found = instantiated
    found[0]["instantiatedVnfInfo"]["vnfcResourceInfo"] = [{"id": "srv-1", "vduId": "VDU1"}, {"id": "srv-2", "vduId": "VDU2"}]
    looked_up, seen = [], {}

    def find_port(name, ignore_missing=True):
        looked_up.append(name)
        return types.SimpleNamespace(id=name) if name == "real-port" else None

    def find_network(name, ignore_missing=True):
        return types.SimpleNamespace(id=name)

    vim.conn = types.SimpleNamespace(network=types.SimpleNamespace(find_port=find_port, find_network=find_network))
    real = vm_change_pkg.check_connectivity

    def connectivity_then_stop(*args, **kwargs):
        seen["lines"] = real(*args, **kwargs)
        raise Planned()

    monkeypatch.setattr(vm_change_pkg, "check_connectivity", connectivity_then_stop)
    link = {"id": "e2", "resourceId": "net0", "extLinkPorts": [{"id": "lp", "resourceHandle": {"resourceId": "dummy-id"}}],
            "extCps": [{"cpdId": "VDU2_CP1", "cpConfig": {"c": {"linkPortId": "lp"}}},
                       {"cpdId": "VDU1_CP4", "cpConfig": {"c": {}}}, {"cpdId": "VDU2_CP4", "cpConfig": {"c": {}}}]}
    params = {"upgrade_type": "RollingUpdate", "vdu_params": [{"vdu_id": "VDU2"}], "nfv": {"CP": {"VDU2_CP1-0": {"port": "real-port"}}}}
    with load_package(os.path.join(fixtures_dir, "userdata_standard_change_vnfpkg_nw")) as package:
        request = {"vnfdId": package.to_dict()["vnfd"]["descriptor_id"], "extVirtualLinks": [link], "additionalParams": params}
        with pytest.raises(Planned):
            vm_change_pkg.plan_change_pkg(vim, store, found, package, request)
        assert looked_up == ["real-port"]
        assert seen["lines"] == ["VDU2_CP1-0: port real-port (additionalParams.nfv.CP.VDU2_CP1-0.port; "
                                 "extVirtualLinks[0].extLinkPorts[0].resourceHandle.resourceId 'dummy-id' is not used)"]
        # Without the nfv.CP port, the placeholder is a port like any other: looked up, and refused.
        looked_up.clear()
        with pytest.raises(ValidationError, match="port 'dummy-id' does not exist"):
            vm_change_pkg.plan_change_pkg(vim, store, found, package, dict(request, additionalParams=dict(params, nfv={})))
        assert looked_up == ["dummy-id"]
