# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import copy

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import RecordStore, with_rollback, without_rollback
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import coordination
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import change_pkg as vm_change_pkg
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import PRIVATE
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Progress

IDENTITY = {"vnfdId": "new", "vnfProvider": "Company", "vnfProductName": "Sample VNF", "vnfSoftwareVersion": "1.0", "vnfdVersion": "1.0"}


def instance(private, **fields):
    base = {"id": "i-1", "vnfdId": "old", "vnfProvider": "Company", "vnfProductName": "Sample VNF", "vnfSoftwareVersion": "1.0",
            "vnfdVersion": "1.0", "instantiationState": "INSTANTIATED",
            "instantiatedVnfInfo": {"flavourId": "simple", "metadata": {"nfv": {}, PRIVATE: private}}}
    base.update(fields)
    return base


def job(private, fields=None):
    return {"identity": dict(IDENTITY), "fields": fields or {}, "private": private, "vdu_params": [{"vdu_id": "VDU2"}], "hooks": {}}


PRIVATE_STATE = {"request": {"extVirtualLinks": []}, "vnfcs": {"VDU1": [0], "VDU2": [0]}, "base_template": {"resources": {}}}


def test_changed_instance_takes_the_new_identity_and_the_merged_fields():
    before = instance(copy.deepcopy(PRIVATE_STATE), extensions={"a": 1}, vnfConfigurableProperties={"p": 1})
    after = vm_change_pkg.changed_instance(before, job(PRIVATE_STATE, {"extensions": {"b": 2}}))
    assert after["vnfdId"] == "new" and after["extensions"] == {"b": 2}
    # A field the merge left empty is gone, as SOL003 omits it.
    assert "vnfConfigurableProperties" not in after
    assert before["vnfdId"] == "old"


def test_record_is_current_only_after_the_change_was_recorded():
    before = instance(copy.deepcopy(PRIVATE_STATE))
    assert not vm_change_pkg.record_is_current(before, job(PRIVATE_STATE))
    done = instance(copy.deepcopy(PRIVATE_STATE), **IDENTITY)
    assert vm_change_pkg.record_is_current(done, job(PRIVATE_STATE))
    # Tuples (from the package reader) and lists (from the record) compare equal.
    assert vm_change_pkg.record_is_current(done, job(dict(PRIVATE_STATE, request={"extVirtualLinks": ()})))
    assert not vm_change_pkg.record_is_current(done, job(dict(PRIVATE_STATE, vnfcs={"VDU1": [0]})))
    # A change still in the record (FAILED_TEMP) is never current.
    failed = with_rollback(done, {"previous": {}})
    assert not vm_change_pkg.record_is_current(failed, job(PRIVATE_STATE))
    assert without_rollback(failed) == done


# ---------------------------------------------------------------------------------------------
# Coordination scripts: Tacker's input, with the address of the VNFC's cp_name

class Network:
    def __init__(self):
        self.ports = {"port-1": {"fixed_ips": [{"ip_address": "10.0.0.5", "subnet_id": "s"}]}, "port-2": {"fixed_ips": []}}

    def get_port(self, port_id):
        return type("Port", (), self.ports[port_id])

    def get_ip(self, ip_id):
        return type("FloatingIP", (), {"floating_ip_address": "192.0.2.9"})


class Vim:
    """What vnfc_address reads: the stack's resources (two levels) and Neutron."""

    def __init__(self, resources):
        self.stacks = type("Stacks", (), {"resources": lambda _self, stack: resources})()
        self.conn = type("Conn", (), {"network": Network()})()


RESOURCES = [
    {"resource_name": "VDU1-0", "resource_type": "VDU1-ver2.yaml", "physical_resource_id": "nested-1"},
    {"resource_name": "VDU1_CP1", "resource_type": "OS::Neutron::Port", "physical_resource_id": "port-1", "parent_resource": "VDU1-0"},
    {"resource_name": "VDU1_FloatingIp", "resource_type": "OS::Neutron::FloatingIP", "physical_resource_id": "fip-1", "parent_resource": "VDU1-0"},
    {"resource_name": "VDU1_CP2", "resource_type": "OS::Neutron::Port", "physical_resource_id": "port-2", "parent_resource": "VDU1-0"},
    # A VDU whose server is in the top template: its ports carry the VNFC's index.
    {"resource_name": "VDU3-1", "resource_type": "OS::Nova::Server", "physical_resource_id": "srv-3"},
    {"resource_name": "VDU3_CP1-1", "resource_type": "OS::Neutron::Port", "physical_resource_id": "port-1"},
    # DefaultUserData: a plain top-level server whose port is a top-level resource, and a scaling group member.
    {"resource_name": "VDU2", "resource_type": "OS::Nova::Server", "physical_resource_id": "srv-2"},
    {"resource_name": "VDU2_CP1", "resource_type": "OS::Neutron::Port", "physical_resource_id": "port-1"},
    {"resource_name": "VDU4_scale_group", "resource_type": "OS::Heat::AutoScalingGroup", "physical_resource_id": "group-4"},
    {"resource_name": "abcmember", "resource_type": "VDU4.yaml", "physical_resource_id": "nested-4", "parent_resource": "VDU4_scale_group"},
    {"resource_name": "VDU4_CP1", "resource_type": "OS::Neutron::FloatingIP", "physical_resource_id": "fip-4", "parent_resource": "abcmember"},
]
SCRIPT = {"name": "./Scripts/coordinate_vnf.py", "script": "", "allowed_by": "allow_package_scripts"}
STACK = {"stack_name": "vnf-i-1", "id": "stack-1"}


@pytest.mark.parametrize("vnfc, cp_name, address", [
    ("VDU1-0", "VDU1_CP1", "10.0.0.5"),
    ("VDU1-0", "VDU1_FloatingIp", "192.0.2.9"),
    ("VDU3-1", "VDU3_CP1", "10.0.0.5"),
    ("VDU2", "VDU2_CP1", "10.0.0.5"),
    ("abcmember", "VDU4_CP1", "192.0.2.9"),
])
def test_vnfc_address_is_what_tacker_gives_as_ssh_ip(vnfc, cp_name, address):
    assert vm_change_pkg.vnfc_address(Vim(RESOURCES), STACK, vnfc, cp_name, SCRIPT) == address


@pytest.mark.parametrize("vnfc, cp_name, reason", [
    ("VDU1-0", "VDU1_CP2", "VDU1_CP2 (OS::Neutron::Port) has no IP address"),
    ("VDU1-0", "VDU1_CP9", "no resource VDU1_CP9"),
    # A nested VNFC's CP is in its own stack: a top-level port of that name is another VNFC's.
    ("VDU1-0", "VDU2_CP1", "no resource VDU2_CP1"),
    ("abcmember", "VDU2_CP1", "no resource VDU2_CP1"),
])
def test_no_address_fails_the_hook_of_that_vnfc(vnfc, cp_name, reason):
    with pytest.raises(coordination.HookFailed) as error:
        vm_change_pkg.vnfc_address(Vim(RESOURCES), STACK, vnfc, cp_name, SCRIPT)
    assert error.value.msg.startswith("Failed to run coordination hook ./Scripts/coordinate_vnf.py for VNFC {0}: ".format(vnfc)) and reason in error.value.msg


@pytest.mark.parametrize("rollback, member", [(False, "new_vnfc_param"), (True, "old_vnfc_param")])
def test_a_script_gets_the_vnfc_param_of_its_direction(monkeypatch, rollback, member):
    ran = []
    monkeypatch.setattr(coordination, "run_script", lambda hook, vnfc, given, timeout: ran.append((hook, vnfc, given, timeout)))
    vdu_param = {"vdu_id": "VDU1", "new_vnfc_param": {"cp_name": "VDU1_CP1", "username": "new"},
                 "old_vnfc_param": {"cp_name": "VDU1_FloatingIp", "username": "old"}}
    vm_change_pkg.coordinate(Vim(RESOURCES), STACK, "VDU1-0", SCRIPT, vdu_param, "i-1", 60, rollback)
    address = "192.0.2.9" if rollback else "10.0.0.5"
    assert ran == [(SCRIPT, "VDU1-0", dict(vdu_param[member], ssh_ip=address, is_rollback=rollback), 60)]


# ---------------------------------------------------------------------------------------------
# A package user-data script's change_vnfpkg: merged into the stack as Heat has it, unless it says existing: false

class ScriptStacks:
    """What scripted_change reads of the stack: its template, files and nfv."""

    def template(self, stack):
        return {"heat_template_version": "2013-05-23", "parameters": {"nfv": {"type": "json"}},
                "resources": {"VDU2": {"type": "OS::Nova::Server"}, "vnflcm_record": {"type": "OS::Heat::WaitConditionHandle"}}}

    def files(self, stack):
        return {"unused.yaml": "x"}

    def get(self, stack):
        return {"parameters": {"nfv": '{"VDU": {"VDU2": {"computeFlavourId": "m1.small", "vcImageId": "cirros"}}}'}}


@pytest.mark.parametrize("fields, flavour, resources", [
    ({"template": None, "files": None, "nfv": {"VDU": {"VDU2": {"computeFlavourId": "m1.medium"}}}, "existing": True},
     "m1.medium", ["VDU2", "vnflcm_record"]),
    ({"template": {"resources": {"VDU3": {"type": "OS::Nova::Server"}}}, "files": {}, "nfv": {"VDU": {}}, "existing": False},
     None, ["VDU3", "vnflcm_record"]),
])
def test_a_user_data_script_gives_the_stack_the_change_goes_to(monkeypatch, fields, flavour, resources):
    vim = type("Vim", (), {"stacks": ScriptStacks()})()
    given = []
    monkeypatch.setattr(vm_change_pkg.user_data, "run_script", lambda *args: given.append(args) or copy.deepcopy(fields))
    private = dict(PRIVATE_STATE)
    before = instance(private)
    before["instantiatedVnfInfo"].update(vnfcResourceInfo=[{"id": "s-2", "vduId": "VDU2", "computeResource": {"resourceId": "s-2"}, "metadata": {}}])
    before["instantiatedVnfInfo"]["metadata"].update(stack_id="st", stack_name="vnf-i-1")
    request = {"vnfdId": "new", "additionalParams": {"vdu_params": [{"vdu_id": "VDU2"}]}}
    desired = vm_change_pkg.scripted_change(vim, None, {"path": "UserData/mine.py", "class": "Mine"}, request, before,
                                            vm_change_pkg.form_of(private["base_template"]), vm_change_pkg.Waits(timeout=7))
    assert sorted(desired["template"]["resources"]) == resources
    assert (desired["nfv"]["VDU"].get("VDU2") or {}).get("computeFlavourId") == flavour
    _package, _script, method, arguments, timeout, _what = given[0]
    assert method == "change_vnfpkg" and timeout == 7 and arguments[2]["dstVnfdId"] == "new"
    assert PRIVATE not in arguments[1]["instantiatedVnfInfo"]["metadata"]
    if fields["existing"]:
        assert desired["nfv"]["VDU"]["VDU2"]["vcImageId"] == "cirros" and desired["files"] == {}


# ---------------------------------------------------------------------------------------------
# A rollback is never blocked by a coordination hook: skip_coordination leaves the old-VNF hook out

class RollbackStacks:
    TEMPLATE = {"heat_template_version": "2013-05-23", "resources": {"VDU2-0": {"type": "OS::Nova::Server"}}}

    def template(self, stack):
        return copy.deepcopy(self.TEMPLATE)

    def files(self, stack):
        return {}

    def get(self, stack):
        return {"parameters": {"nfv": "{}"}}

    def resources(self, stack):
        return []


class Stop(Exception):
    pass


def failed_change():
    previous = {"template": RollbackStacks.TEMPLATE, "files": {}, "nfv": {}, "members": []}
    hook = {"name": "Scripts/old.yml", "tasks": "- ansible.builtin.fail: {}\n"}
    change = {"previous": previous, "job": dict(job(PRIVATE_STATE), hooks={coordination.OLD_VNF: hook}), "updated": ["VDU2-0"], "coordinated": []}
    record = instance(dict(copy.deepcopy(PRIVATE_STATE), change=change))
    record["instantiatedVnfInfo"]["metadata"].update(stack_id="stack-1", stack_name="vnf-i-1")
    return record


@pytest.mark.parametrize("skip, hook", [(False, "Scripts/old.yml"), (True, None)])
def test_a_rollback_with_skip_coordination_runs_no_old_vnf_hook(monkeypatch, skip, hook):
    vim = type("Vim", (), {"stacks": RollbackStacks()})()
    failed = {"id": "o", "operation": "CHANGE_VNFPKG", "operationState": "FAILED_TEMP", "operationParams": {}}
    operation = vm_change_pkg.plan_resume(vim, RecordStore(), (failed_change(), [failed], 1), failed, "rollback", None, skip_coordination=skip)
    given = []

    def roll(vim, stack, base, desired, instance_id, job, hook, *rest, **kwargs):
        given.append(hook)
        raise Stop()

    monkeypatch.setattr(vm_change_pkg, "roll", roll)
    with pytest.raises(Stop):
        operation.execute(Progress())
    assert [item and item["name"] for item in given] == [hook]
    assert ("coordination hook Scripts/old.yml not run (skip_coordination: true)" in operation.plan["lines"]) is skip


def test_skip_coordination_is_for_the_rollback_of_a_change_of_package_only():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import resume

    for event, operation in (("retry", "CHANGE_VNFPKG"), ("rollback", "SCALE")):
        failed = {"id": "o", "operation": operation, "operationState": "FAILED_TEMP", "operationParams": {}}
        with pytest.raises(ValidationError) as error:
            resume.plan_resume(None, RecordStore(), (failed_change(), [failed], 1), failed, event, None, skip_coordination=True)
        assert error.value.field == "skip_coordination" and "the rollback of a CHANGE_VNFPKG only" in error.value.msg


def test_a_failing_hook_says_how_to_roll_back_without_the_hooks(monkeypatch):
    def fail(hook, vnfc, given, timeout):
        raise coordination.HookFailed(hook["name"], vnfc, "exit code 1: cannot reach")

    monkeypatch.setattr(coordination, "run_script", fail)
    vdu_param = {"vdu_id": "VDU1", "new_vnfc_param": {"cp_name": "VDU1_CP1"}}
    with pytest.raises(coordination.HookFailed) as error:
        vm_change_pkg.coordinate(Vim(RESOURCES), STACK, "VDU1-0", SCRIPT, vdu_param, "i-1", 60, False)
    assert "exit code 1: cannot reach; the op occ is FAILED_TEMP: retry it, or roll it back" in error.value.msg
    assert "add skip_coordination: true to roll back without running the coordination hooks" in error.value.msg


def unwritten_change():
    """A change stopped between its op occ and the change's data (its first two record writes): no ``change`` kept."""
    record = instance(copy.deepcopy(PRIVATE_STATE))
    record["instantiatedVnfInfo"]["metadata"].update(stack_id="stack-1", stack_name="vnf-i-1")
    failed = {"id": "o", "operation": "CHANGE_VNFPKG", "operationState": "FAILED_TEMP", "operationParams": {"vnfdId": "new"}}
    return record, failed


def test_a_change_that_wrote_nothing_rolls_back_with_no_write():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import resume

    record, failed = unwritten_change()
    operation = resume.plan_resume(None, RecordStore(), (record, [failed], 1), failed, "rollback", None)
    assert operation.changed is False and operation.execute is None
    assert operation.plan["lines"] == ["nothing to roll back: the change stopped before it wrote to the stack; only the op occ changes"]


def test_a_change_that_wrote_nothing_is_retried_from_its_request_and_the_package(monkeypatch):
    from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import resume

    record, failed = unwritten_change()
    with pytest.raises(ValidationError) as error:
        resume.plan_resume(None, RecordStore(), (record, [failed], 1), failed, "retry", None)
    assert error.value.field == "package" and "stopped before it wrote to the stack" in error.value.msg
    planned = []
    monkeypatch.setattr(vm_change_pkg, "plan_change_pkg", lambda vim, store, found, package, request, waits: planned.append((package, request)) or "op")
    assert resume.plan_resume(None, RecordStore(), (record, [failed], 1), failed, "retry", None, package="the package") == "op"
    assert planned == [("the package", {"vnfdId": "new"})]


def test_a_server_in_error_among_the_vnfcs_changed_is_refused_before_any_write():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.shared import refuse_servers_in_error
    from ansible_collections.nfv.vnflcm.tests.unit.plugins.module_utils.heat.fake_heat import FakeCompute, FakeConn

    record = instance(copy.deepcopy(PRIVATE_STATE))
    record["instantiatedVnfInfo"]["vnfcResourceInfo"] = [
        {"id": "srv-{0}".format(vdu), "vduId": "VDU{0}".format(vdu), "computeResource": {"resourceId": "srv-{0}".format(vdu)},
         "metadata": {"stackResource": "VDU{0}-0".format(vdu)}} for vdu in (1, 2)]
    vim = type("Vim", (), {"conn": FakeConn(FakeCompute({"srv-1": "ERROR"}))})()
    refuse_servers_in_error(vim, record, ["VDU2-0"], "change the package of")  # the VNFC in ERROR is not changed
    with pytest.raises(ConflictError) as error:
        refuse_servers_in_error(vim, record, ["VDU1-0", "VDU2-0"], "change the package of")
    assert error.value.msg.startswith("Failed to change the package of VNF instance i-1: the server of VNFC VDU1-0 (server srv-1) is in ERROR")
    assert "Heal it first (vnf_heal replaces it)" in error.value.msg and "nothing was written" in error.value.msg
