# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Heal with Tacker v2's additionalParams.all (the VNFCs' storage too) and heal of the whole VNF, on Heat."""

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import HeatRecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import engine, instance_run
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import heal as vm_heal, session as vm_session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import PRIVATE, storage_changes
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import heals_storage, validate_heal_request
from ansible_collections.nfv.vnflcm.tests.unit.plugins.module_utils.heat.fake_heat import FakeCompute, FakeConn, FakeStacks

SERVER, VOLUME = "OS::Nova::Server", "OS::Cinder::Volume"


def handle(resource_id):
    return {"resourceId": resource_id, "vimLevelResourceType": "x"}


def record():
    """VDU1-0 (no storage) and VDU2-0 (one VirtualStorage volume), as heat/instantiated_info.py builds them."""
    return {"id": "i-1", "vnfInstanceName": "v", "instantiationState": "INSTANTIATED", "instantiatedVnfInfo": {
        "flavourId": "simple",
        "vnfcResourceInfo": [
            {"id": "srv-1", "vduId": "VDU1", "computeResource": handle("srv-1"), "storageResourceIds": [], "metadata": {"stackResource": "VDU1-0"}},
            {"id": "srv-2", "vduId": "VDU2", "computeResource": handle("srv-2"), "storageResourceIds": ["vol-2"],
             "metadata": {"stackResource": "VDU2-0"}}],
        "vnfcInfo": [{"id": "VDU1-srv-1", "vduId": "VDU1", "vnfcResourceInfoId": "srv-1"},
                     {"id": "VDU2-srv-2", "vduId": "VDU2", "vnfcResourceInfoId": "srv-2"}],
        "virtualStorageResourceInfo": [{"id": "vol-2", "virtualStorageDescId": "VDU2-VirtualStorage", "storageResource": handle("vol-2"),
                                        "metadata": {"stackResource": "VDU2-0"}}],
        "metadata": {"stack_id": "s-1", "stack_name": "vnf-i-1", "nfv": {}, PRIVATE: {"flavour": {}, "request": {}}}}}


class HealStacks(FakeStacks):
    """The stack's resources, and which of them are marked unhealthy."""

    def __init__(self):
        super().__init__()
        self.marked = []

    def resources(self, stack, nested_depth=2):
        return [{"resource_name": "VDU1-0", "resource_type": "VDU1.yaml", "physical_resource_id": "nested-1"},
                {"resource_name": "VDU2-0", "resource_type": "VDU2.yaml", "physical_resource_id": "nested-2"},
                {"resource_name": "VDU1", "resource_type": SERVER, "physical_resource_id": "srv-1", "parent_resource": "VDU1-0"},
                {"resource_name": "VDU2", "resource_type": SERVER, "physical_resource_id": "srv-2", "parent_resource": "VDU2-0"},
                {"resource_name": "VDU2-VirtualStorage", "resource_type": VOLUME, "physical_resource_id": "vol-2", "parent_resource": "VDU2-0"}]

    def mark_unhealthy(self, resource, reason):
        self.marked.append(resource["physical_resource_id"])


@pytest.fixture
def healing(monkeypatch):
    stacks = HealStacks()
    store = HeatRecordStore(stacks, stacks.add("vnf-i-1", "s-1", ["vnflcm"]))
    instance = record()
    version = store.save(instance, [], None)
    vim = vm_session.HeatVim.__new__(vm_session.HeatVim)
    vim.stacks, vim.conn, vim.vim_id = stacks, FakeConn(), None
    # The stack update and the read-back are Heat's part: the new volume comes back with a new id.
    monkeypatch.setattr(vm_heal, "update_stack", lambda *args: None)

    def refreshed(vim, instance, stack, private, nfv):
        info = dict(instance["instantiatedVnfInfo"])
        if "vol-2" in stacks.marked:
            info["virtualStorageResourceInfo"] = [dict(info["virtualStorageResourceInfo"][0], id="vol-3", storageResource=handle("vol-3"))]
        return dict(instance, instantiatedVnfInfo=info)
    monkeypatch.setattr(vm_heal, "refreshed", refreshed)
    return vim, stacks, store, (instance, [], version)


@pytest.mark.parametrize("value", ["true", 1, None, [True]])
def test_all_must_be_a_boolean(value):
    with pytest.raises(ValidationError) as error:
        validate_heal_request({"additionalParams": {"all": value}})
    assert error.value.field == "additionalParams.all"


def test_all_is_read_as_tacker_v2_takes_it():
    assert heals_storage({"additionalParams": {"all": True}}) is True
    assert heals_storage({"additionalParams": {"all": False}}) is False and heals_storage({}) is False


def test_heal_with_all_replaces_the_vnfcs_volume_too(healing):
    vim, stacks, store, found = healing
    operation = vm_heal.plan_heal(vim, store, found, {"vnfcInstanceId": ["VDU2-srv-2"], "additionalParams": {"all": True}})
    assert operation.plan["lines"] == ["VDU2-0: replace server srv-2", "VDU2-0: replace volume vol-2 (VDU2-VirtualStorage)"]
    assert engine.run(operation, check_mode=True)["changed"] and stacks.marked == []
    result = engine.run(operation, False, False)
    assert stacks.marked == ["srv-2", "vol-2"]
    changes = result["vnf_lcm_op_occ"]["resourceChanges"]["affectedVirtualStorages"]
    assert [(item["id"], item["changeType"]) for item in changes] == [("vol-3", "ADDED"), ("vol-2", "REMOVED")]
    assert [item["id"] for item in result["vnf_instance"]["instantiatedVnfInfo"]["virtualStorageResourceInfo"]] == ["vol-3"]


@pytest.mark.parametrize("additional", [{}, {"all": False}])
def test_heal_without_all_keeps_the_volumes(healing, additional):
    vim, stacks, store, found = healing
    operation = vm_heal.plan_heal(vim, store, found, {"vnfcInstanceId": ["VDU2-srv-2"], "additionalParams": additional})
    assert operation.plan["replace"][0]["volumes"] == [] and operation.plan["lines"] == ["VDU2-0: replace server srv-2"]
    result = engine.run(operation, False, False)
    assert stacks.marked == ["srv-2"] and "affectedVirtualStorages" not in result["vnf_lcm_op_occ"]["resourceChanges"]


def test_heal_of_the_whole_vnf_with_all_replaces_every_server_and_volume(healing):
    vim, stacks, store, found = healing
    operation = vm_heal.plan_heal(vim, store, found, {"additionalParams": {"all": True}})
    assert [item["vnfc"] for item in operation.plan["replace"]] == ["VDU1-srv-1", "VDU2-srv-2"]
    engine.run(operation, False, False)
    assert sorted(stacks.marked) == ["srv-1", "srv-2", "vol-2"]


def test_storage_changes_lists_added_and_removed_volumes():
    before = record()["instantiatedVnfInfo"]["virtualStorageResourceInfo"]
    assert storage_changes(before, record()) == {"affectedVirtualStorages": []}
    assert storage_changes([], record())["affectedVirtualStorages"][0]["changeType"] == "ADDED"


def test_a_server_in_error_is_deleted_before_the_update(healing):
    """Nova does not detach the ports of a server in ERROR, which Heat's replacement needs: it is deleted first."""
    vim, stacks, store, found = healing
    vim.conn = FakeConn(FakeCompute({"srv-1": "ERROR"}))
    operation = vm_heal.plan_heal(vim, store, found, {})
    assert operation.plan["lines"][-1] == "VDU1-0: server srv-1 is in ERROR, where Nova does not detach its ports: deleted before the stack update"
    assert engine.run(operation, check_mode=True)["changed"] and vim.conn.compute.deleted == []
    engine.run(operation, False, False)
    assert vim.conn.compute.deleted == ["srv-1"] and sorted(stacks.marked) == ["srv-1", "srv-2"]


def test_a_closed_loop_heal_is_an_automatic_invocation_naming_its_alert(healing):
    vim, _stacks, store, found = healing
    cause = {"source": "alertmanager", "first_alert_at": "2026-01-02T03:00:00Z", "alert_count": 1,
             "alerts": [{"fingerprint": "5ef77f1f8a3ecb8d", "startsAt": "2026-01-02T03:00:00Z"}]}
    request = {"vnfcInstanceId": ["VDU1-srv-1"], "additionalParams": {"nfv_vnflcm_closed_loop": cause}}
    operation = vm_heal.plan_heal(vim, store, found, request)
    operation.automatic_invocation = instance_run.automatic_invocation({"automatic_invocation": True})
    done = engine.run(operation, False, False)["vnf_lcm_op_occ"]
    assert done["isAutomaticInvocation"] is True and done["operationParams"]["additionalParams"]["nfv_vnflcm_closed_loop"] == cause


def test_an_operation_asked_by_a_user_is_not_automatic(healing):
    vim, _stacks, store, found = healing
    assert not instance_run.automatic_invocation({}) and not instance_run.automatic_invocation({"automatic_invocation": None})
    assert instance_run.automatic_invocation({"automatic_invocation": True})
    done = engine.run(vm_heal.plan_heal(vim, store, found, {"vnfcInstanceId": ["VDU1-srv-1"]}), False, False)["vnf_lcm_op_occ"]
    assert done["isAutomaticInvocation"] is False
