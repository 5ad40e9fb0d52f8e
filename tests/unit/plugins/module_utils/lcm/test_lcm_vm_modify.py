# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vnf_modify on Heat: the record only, written by a signal (no stack update), idempotent, with check and diff mode."""

from __future__ import annotations

import os
import shutil

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import template as heat_template
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import RECORD_RESOURCE, HeatRecordStore, name_tag
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import engine, instance_run
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import PRIVATE
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import modify as vm_modify, resume as vm_resume, session as vm_session, shared as vm_shared
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import new_vnf_instance
from ansible_collections.nfv.vnflcm.tests.unit.plugins.module_utils.heat.fake_heat import FakeStacks

VIM = {"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3", "interfaceInfo": {"endpoint": "http://keystone.test/v3"},
       "accessInfo": {"username": "u", "password": "vim-secret", "project": "p"}}


@pytest.fixture
def recorded():
    """An INSTANTIATED Heat record (two VNFCs) in a fake stack: ``(stacks, store, found)``."""
    instance = {"id": "i-1", "vnfdId": "vnfd-1", "vnfInstanceName": "v", "instantiationState": "INSTANTIATED",
                "metadata": {"keep": 1, "drop": 2}, "vimConnectionInfo": {"vim1": dict(VIM, accessInfo={"username": "u", "project": "p"})},
                "instantiatedVnfInfo": {"flavourId": "simple", "vnfcResourceInfo": [{"id": "srv-1", "vduId": "VDU1"}],
                                        "vnfcInfo": [{"id": "VDU1-srv-1", "vduId": "VDU1", "vnfcResourceInfoId": "srv-1"}],
                                        "metadata": {"stack_id": "s-1", "stack_name": "vnf-i-1"}}}
    stacks = FakeStacks()
    store = HeatRecordStore(stacks, stacks.add("vnf-i-1", "s-1", ["vnflcm"]))
    version = store.save(instance, [], None)
    stacks.writes.clear()
    return stacks, store, (instance, [], version)


def run(recorded, request, check_mode=False, diff_mode=False):
    stacks, store, found = recorded
    return engine.run(vm_modify.plan_modify(None, store, found, request), check_mode, diff_mode)


def test_name_and_metadata_merge_patch_go_to_the_record_by_signals_only(recorded):
    stacks, store, _found = recorded
    result = run(recorded, {"vnfInstanceName": "v2", "metadata": {"drop": None, "new": "x"}})
    assert result["changed"] and result["vnf_lcm_op_occ"]["operation"] == "MODIFY_INFO"
    assert result["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    instance, op_occs, _version = store.find("i-1")
    assert instance["vnfInstanceName"] == "v2" and instance["metadata"] == {"keep": 1, "new": "x"}
    assert op_occs[0]["operationState"] == "COMPLETED"
    # Only the record resource is signalled (PROCESSING, then COMPLETED): no stack update. The only other writes are the
    # new name's claim (heat/name_claim.py), made before the record takes the name and deleted once it has.
    assert [write[0] for write in stacks.writes] == ["signal", "create", "signal", "delete"]
    assert {write[2] for write in stacks.writes if write[0] == "signal"} == {RECORD_RESOURCE}
    assert stacks.writes[1] == ("create", name_tag("v2")) and stacks.list(name=name_tag("v2")) == []
    assert result["plan"]["modifications"] == {"metadata": {"keep": 1, "new": "x"}, "vnfInstanceName": "v2"}


def test_a_rerun_changes_nothing_and_writes_nothing(recorded):
    stacks, store, _found = recorded
    request = {"vnfInstanceDescription": "d", "extensions": {"e": 1}, "vnfConfigurableProperties": {"p": True}}
    run(recorded, request)
    stacks.writes.clear()
    again = engine.run(vm_modify.plan_modify(None, store, store.find("i-1"), request), False, False)
    assert again["changed"] is False and stacks.writes == [] and again["plan"]["lines"] == ["no change"]


def test_check_mode_and_diff_write_nothing(recorded):
    stacks, _store, _found = recorded
    result = run(recorded, {"vnfInstanceName": "v2", "vnfcInfoModifications": [{"id": "VDU1-srv-1", "vnfcConfigurableProperties": {"k": "v"}}]},
                 check_mode=True, diff_mode=True)
    assert result["changed"] and stacks.writes == []
    assert result["diff"]["before"]["vnfInstanceName"] == "v" and result["diff"]["after"]["vnfInstanceName"] == "v2"
    assert result["diff"]["after"]["vnfcInfo[VDU1-srv-1].vnfcConfigurableProperties"] == {"k": "v"}
    assert result["plan"]["vnfc_modifications"] == {"vnfcInfo[VDU1-srv-1].vnfcConfigurableProperties": {"k": "v"}}


def test_vnfc_configurable_properties_are_merged_into_the_record(recorded):
    _stacks, store, _found = recorded
    run(recorded, {"vnfcInfoModifications": [{"id": "VDU1-srv-1", "vnfcConfigurableProperties": {"k": "v"}}]})
    vnfc = store.find("i-1")[0]["instantiatedVnfInfo"]["vnfcInfo"][0]
    assert vnfc["vnfcConfigurableProperties"] == {"k": "v"}


def test_vim_connection_secrets_are_never_recorded(recorded):
    stacks, store, _found = recorded
    result = run(recorded, {"vimConnectionInfo": {"vim1": {"vimType": VIM["vimType"], "accessInfo": {"password": "vim-secret", "region": "R2"}}}})
    assert result["changed"]
    instance, op_occs, _version = store.find("i-1")
    assert instance["vimConnectionInfo"]["vim1"]["accessInfo"] == {"username": "u", "project": "p", "region": "R2"}
    assert "vim-secret" not in str(stacks.metadata) and "vim-secret" not in str(op_occs)


def test_a_new_vnfd_needs_its_package_before_any_write(recorded):
    stacks, _store, _found = recorded
    with pytest.raises(ValidationError, match="give its package") as error:
        run(recorded, {"vnfdId": "vnfd-2"})
    assert error.value.field == "vnfdId" and stacks.writes == [] and "vnf_change_pkg" in str(error.value)
    # The instance's own vnfdId is no change.
    assert run(recorded, {"vnfdId": "vnfd-1"})["changed"] is False


def test_an_unknown_vnfc_is_refused_naming_the_field(recorded):
    stacks, _store, _found = recorded
    with pytest.raises(ValidationError) as error:
        run(recorded, {"vnfcInfoModifications": [{"id": "nope", "vnfcConfigurableProperties": {"k": "v"}}]})
    assert error.value.field == "vnfcInfoModifications[0].id" and stacks.writes == []


def test_delete_removed_is_refused_on_heat():
    with pytest.raises(ValidationError, match="OpenStack VIM") as error:
        vm_modify.run_modify({"package": None, "delete_removed": True})
    assert error.value.field == "delete_removed"


def test_heat_runs_modify():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.modules import run_of

    assert run_of("vm", "modify.run_modify") is vm_modify.run_modify


def test_a_failed_modify_is_retried_by_planning_again_and_rolled_back_without_a_vim_write(recorded):
    stacks, store, found = recorded
    failed = {"id": "o-1", "operation": "MODIFY_INFO", "operationParams": {"vnfInstanceName": "v3"}}
    assert vm_modify.plan_resume(None, store, found, failed, "retry").plan["modifications"] == {"vnfInstanceName": "v3"}
    rollback = vm_modify.plan_resume(None, store, found, failed, "rollback")
    assert rollback.changed is False and rollback.plan["rollback_of"] == "o-1"


def test_a_renamed_instance_is_found_by_its_new_name_only():
    stacks = FakeStacks()
    created = {"id": "i-1", "vnfInstanceName": "old", "instantiationState": "INSTANTIATED"}
    store = HeatRecordStore(stacks, stacks.add("vnf-i-1", "s-1", ["vnflcm", name_tag("old")]))
    version = store.save(created, [], None)
    # An orphan of another name must not be reported by a lookup of this one.
    stacks.add("vnf-i-9", "s-9", ["vnflcm", name_tag("someone")])
    run((stacks, store, (created, [], version)), {"vnfInstanceName": "new"})
    lookup = HeatRecordStore(stacks)
    assert lookup.find(name="new")[0]["id"] == "i-1" and lookup.stack["id"] == "s-1" and lookup.orphans == []
    assert HeatRecordStore(stacks).find(name="old") is None and HeatRecordStore(stacks).find(name="nobody") is None


def test_vnfc_configurable_properties_stay_while_the_vnfc_does(monkeypatch):
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import shared as vm_shared

    vnfc = {"id": "VDU1-srv-1", "vduId": "VDU1", "vnfcResourceInfoId": "srv-1"}
    monkeypatch.setattr(vm_shared, "build_instantiated_info", lambda *args: {"vnfcInfo": [dict(vnfc), {"id": "VDU2-srv-3", "vduId": "VDU2"}]})
    stacks = FakeStacks()
    stacks.resources = lambda stack: []
    vim = vm_session.HeatVim.__new__(vm_session.HeatVim)
    vim.stacks, vim.vim_id = stacks, None
    configured = [dict(vnfc, vnfcConfigurableProperties={"k": "v"}), {"id": "VDU2-srv-2", "vduId": "VDU2", "vnfcConfigurableProperties": {"x": 1}}]
    instance = {"id": "i-1", "instantiatedVnfInfo": {"vnfcInfo": configured}}
    after = vm_shared.refreshed(vim, instance, {"id": "s-1", "stack_name": "vnf-i-1"}, {"flavour": {}, "request": {}}, {})["instantiatedVnfInfo"]["vnfcInfo"]
    assert after[0]["vnfcConfigurableProperties"] == {"k": "v"} and "vnfcConfigurableProperties" not in after[1]


# ---------------------------------------------------------------------------------------------
# A new vnfdId whose package describes what is deployed (Tacker v2's Modify of vnfdId)

OLD_VNFD = "b1bb0ce7-ebca-4fa7-95ed-4840d7000000"


def repackaged(fixtures_dir, path, new_id, edit=None):
    """A copy of userdata_standard under VNFD ``new_id``; ``edit(path)`` changes it further."""
    shutil.copytree(os.path.join(fixtures_dir, "userdata_standard"), path)
    for name in os.listdir(path / "Definitions"):
        file = path / "Definitions" / name
        file.write_text(file.read_text().replace(OLD_VNFD, new_id))
    if edit:
        edit(path)
    return str(path)


@pytest.fixture
def deployed(fixtures_dir):
    """An INSTANTIATED userdata_standard record whose stack holds the package's nested templates: ``(vim, stacks, store, found)``."""
    with load_package(os.path.join(fixtures_dir, "userdata_standard")) as package:
        base, files = heat_template.load_base_hot(package, "simple")
        vnfd = package.to_dict()["vnfd"]
        private = {"flavour": vm_shared.recorded_flavour(package.flavour("simple")), "base_template": base, "vnfcs": {"VDU1": [0], "VDU2": [0]}}
    instance = dict(new_vnf_instance(vnfd, "v"), id="i-1", instantiationState="INSTANTIATED", instantiatedVnfInfo={
        "flavourId": "simple", "vnfcResourceInfo": [], "vnfcInfo": [], "metadata": {"stack_id": "s-1", "stack_name": "vnf-i-1", PRIVATE: private}})
    stacks = FakeStacks()
    stacks.files = lambda stack: dict(files)
    store = HeatRecordStore(stacks, stacks.add("vnf-i-1", "s-1", ["vnflcm"]))
    version = store.save(instance, [], None)
    stacks.writes.clear()
    vim = vm_session.HeatVim.__new__(vm_session.HeatVim)
    vim.stacks = stacks
    return vim, stacks, store, (instance, [], version)


def modify_with(deployed, path, request, check_mode=False, diff_mode=False):
    vim, _stacks, store, _found = deployed
    with load_package(path) as package:
        return engine.run(vm_modify.plan_modify(vim, store, store.find("i-1"), request, package=package), check_mode, diff_mode)


def test_a_new_vnfd_that_describes_the_deployment_changes_the_record_only(deployed, fixtures_dir, tmp_path):
    _vim, stacks, store, _found = deployed
    path = repackaged(fixtures_dir, tmp_path / "copy", "vnfd-copy")
    checked = modify_with(deployed, path, {"vnfdId": "vnfd-copy"}, check_mode=True, diff_mode=True)
    assert checked["changed"] and stacks.writes == []
    assert checked["diff"]["before"]["vnfdId"] == OLD_VNFD and checked["diff"]["after"]["vnfdId"] == "vnfd-copy"
    assert checked["plan"]["lines"][0].startswith("vnfdId {0} -> vnfd-copy: the new package describes what is deployed".format(OLD_VNFD))
    result = modify_with(deployed, path, {"vnfdId": "vnfd-copy"})
    assert result["changed"] and result["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    # The record only: its resource is signalled, the stack is not updated.
    assert {write[0] for write in stacks.writes} == {"signal"}
    assert store.find("i-1")[0]["vnfdId"] == "vnfd-copy"
    stacks.writes.clear()
    again = modify_with(deployed, path, {"vnfdId": "vnfd-copy"})
    assert again["changed"] is False and stacks.writes == []


def edit_top_template(path):
    top = path / "BaseHOT" / "simple" / "sample3.yaml"
    top.write_text(top.read_text().replace("sample3'", "sample3, changed'"))


def edit_nested_template(path):
    nested = path / "BaseHOT" / "simple" / "nested" / "VDU1.yaml"
    nested.write_text(nested.read_text() + "\noutputs:\n  extra:\n    value: 1\n")


def edit_flavour(path):
    definitions = path / "Definitions" / "v2_sample3_df_simple.yaml"
    text = definitions.read_text()
    definitions.write_text(text.replace("requested_additional_capability_name: m1.tiny", "requested_additional_capability_name: m1.small", 1))


@pytest.mark.parametrize("edit, message", [
    (edit_top_template, "the top Heat template of flavour simple is not the one deployed"),
    (edit_nested_template, "the nested Heat template VDU1.yaml is not the one deployed"),
    (edit_flavour, "flavour simple differs in vdus"),
])
def test_a_new_vnfd_that_differs_from_the_deployment_changes_the_record_only_and_says_how(deployed, fixtures_dir, tmp_path, edit, message):
    # As Tacker v2's Modify: the new vnfdId is taken; the plan's warnings say what differs, nothing deployed changes.
    _vim, stacks, store, found = deployed
    path = repackaged(fixtures_dir, tmp_path / "copy", "vnfd-other", edit)
    result = modify_with(deployed, path, {"vnfdId": "vnfd-other"})
    assert result["changed"] and result["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    assert [warning for warning in result["plan"]["warnings"] if message in warning and "vnf_change_pkg" in warning], result["plan"]["warnings"]
    assert "the record's VNFD identity only" in result["plan"]["lines"][0]
    assert {write[0] for write in stacks.writes} == {"signal"}
    recorded = store.find("i-1")[0]
    assert recorded["vnfdId"] == "vnfd-other"
    # Later operations build from what is deployed: the record's private state is the one before.
    assert recorded["instantiatedVnfInfo"]["metadata"] == found[0]["instantiatedVnfInfo"]["metadata"]


def test_a_new_vnfd_without_the_instances_flavour_is_taken_with_a_warning(deployed, fixtures_dir, tmp_path):
    _vim, stacks, store, found = deployed
    found[0]["instantiatedVnfInfo"]["flavourId"] = "complex"
    store.save(found[0], [], found[2])
    stacks.writes.clear()
    path = repackaged(fixtures_dir, tmp_path / "copy", "vnfd-other")
    checked = modify_with(deployed, path, {"vnfdId": "vnfd-other"}, check_mode=True)
    assert checked["changed"] and stacks.writes == []
    assert [warning for warning in checked["plan"]["warnings"] if "it has no flavour 'complex'" in warning], checked["plan"]["warnings"]


def test_a_package_of_another_vnfd_than_the_request_names_is_refused(deployed, fixtures_dir, tmp_path):
    path = repackaged(fixtures_dir, tmp_path / "copy", "vnfd-copy")
    with pytest.raises(ValidationError, match="is not the id of the given VNFD"):
        modify_with(deployed, path, {"vnfdId": "vnfd-else"})


def test_a_new_vnfd_of_an_instance_not_instantiated_is_taken_without_comparing(deployed, fixtures_dir, tmp_path):
    _vim, stacks, store, found = deployed
    instance = dict(found[0], instantiationState="NOT_INSTANTIATED")
    store.save(instance, [], found[2])
    stacks.writes.clear()
    stacks.files = None  # nothing deployed: the stack's files are not read
    path = repackaged(fixtures_dir, tmp_path / "copy", "vnfd-other", edit_top_template)
    result = modify_with(deployed, path, {"vnfdId": "vnfd-other"})
    assert result["changed"] and store.find("i-1")[0]["vnfdId"] == "vnfd-other"
    assert result["plan"]["lines"][0] == "vnfdId {0} -> vnfd-other: the instance is not instantiated".format(OLD_VNFD)


def test_heat_modify_reads_the_package_it_is_given(monkeypatch, fixtures_dir):
    seen = {}

    def on_instance(vim, planner, params, check_mode=False, diff_mode=False, *, name, missing_ok=False):
        seen["planner"], seen["name"] = planner, name
        return {"changed": False}

    monkeypatch.setattr(vm_session, "connect", lambda params: "vim")
    monkeypatch.setattr(instance_run, "on_instance", on_instance)
    params = {"package": os.path.join(fixtures_dir, "userdata_standard"), "delete_removed": False}
    assert vm_modify.run_modify(params) == {"changed": False}
    assert seen["name"] == "MODIFY_INFO" and seen["planner"].keywords["package"].to_dict()["vnfd"]["descriptor_id"] == OLD_VNFD


def test_a_failed_modify_of_vnfd_id_is_retried_with_its_package_and_refused_without(deployed, fixtures_dir, tmp_path):
    vim, stacks, store, found = deployed
    path = repackaged(fixtures_dir, tmp_path / "copy", "vnfd-copy")
    failed = {"id": "o-1", "operation": "MODIFY_INFO", "operationState": "FAILED_TEMP", "operationParams": {"vnfdId": "vnfd-copy"}}
    with pytest.raises(ValidationError, match="'vnfd-copy' is a new VNFD: give its package"):
        vm_resume.plan_resume(vim, store, found, failed, "retry")
    with load_package(path) as package:
        retry = vm_resume.plan_resume(vim, store, found, failed, "retry", package=package)
        # A rollback needs none: the record was never written.
        rollback = vm_resume.plan_resume(vim, store, found, failed, "rollback", package=package)
    assert retry.plan["modifications"]["vnfdId"] == "vnfd-copy" and retry.changed
    assert rollback.changed is False and stacks.writes == []
