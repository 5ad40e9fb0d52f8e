# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Deleting a VNF instance identifier (lcm/delete.py) through both record stores, with in-memory VIMs."""

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, NotFoundError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import HeatRecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.record import record_secret, rollback_secret
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.store import SecretRecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import delete as identifier

from ansible_collections.nfv.vnflcm.tests.unit.plugins.module_utils.heat.fake_heat import FakeStacks

NS = "tenant-a"
INSTANCE = {"id": "5c0d0e1f-0000-4000-8000-00000000c0de", "vnfInstanceName": "cnf", "instantiationState": "NOT_INSTANTIATED"}
DONE = {"id": "occ-1", "operation": "TERMINATE", "operationState": "COMPLETED", "startTime": "2026-11-25T05:00:00Z"}


def labelled(selector, labels):
    """A label selector of ``key=value`` and ``key`` (exists) terms, as the API server matches it."""
    for term in selector.split(","):
        key, _sep, value = term.partition("=")
        if key not in labels or (value and labels[key] != value):
            return False
    return True


class FakeKube:
    """Secrets of one namespace, the calls made, and deletes with a resourceVersion precondition."""

    def __init__(self):
        self.secrets = {}
        self.writes = []
        self.version = 0

    def add(self, secret):
        self.version += 1
        secret["metadata"]["resourceVersion"] = str(self.version)
        self.secrets[secret["metadata"]["name"]] = secret

    def url(self, path):
        return "https://kube.test" + path

    def get(self, api_version, kind, name, namespace=None):
        return self.secrets.get(name)

    def list(self, api_version, kind, namespace=None, label_selector=None):
        return [secret for secret in self.secrets.values() if labelled(label_selector, secret["metadata"].get("labels") or {})]

    def delete(self, api_version, kind, name, namespace=None, propagation="Background", grace_seconds=None, resource_version=None):
        live = self.secrets.get(name)
        if live is None:
            return False
        if resource_version is not None and live["metadata"]["resourceVersion"] != str(resource_version):
            raise ConflictError("delete", "Secret " + name, "the object has been modified (HTTP 409)")
        self.writes.append(("delete", name))
        del self.secrets[name]
        return True


def kube_with_record(instance=None, op_occs=(DONE,), rollback=True, other=True):
    instance = instance or INSTANCE
    kube = FakeKube()
    kube.add(record_secret(instance, list(op_occs), NS))
    if rollback:
        kube.add(rollback_secret(instance["id"], NS, "occ-0", {"objects": []}))
    if other:
        # Another instance's record stays.
        kube.add(record_secret(dict(INSTANCE, id="another-1"), [], NS))
    return kube


def k8s_locate(kube):
    def locate():
        store = SecretRecordStore(kube, NS)
        found = store.find(INSTANCE["id"])
        if found is None:
            raise NotFoundError("VNF instance {0} in namespace {1}".format(INSTANCE["id"], NS))
        return store, found
    return locate


def no_leftovers(instance):
    return []


def test_kubernetes_deletes_the_rollback_data_then_the_record_and_nothing_else():
    kube = kube_with_record()
    result = identifier.delete_identifier(k8s_locate(kube), no_leftovers, diff_mode=True)
    record, rollback = "vnflcm-" + INSTANCE["id"], "vnflcm-" + INSTANCE["id"] + "-rollback"
    assert kube.writes == [("delete", rollback), ("delete", record)]
    assert result["changed"] is True and result["deleted"] == [{"kind": "Secret", "name": rollback}, {"kind": "Secret", "name": record}]
    assert result["vnf_instance"]["id"] == INSTANCE["id"]
    assert result["diff"]["before"]["kept"] == ["Secret/" + rollback, "Secret/" + record] and result["diff"]["after"] == {}
    assert list(kube.secrets) == ["vnflcm-another-1"]


def test_kubernetes_rerun_is_no_change_and_no_write():
    kube = kube_with_record()
    identifier.delete_identifier(k8s_locate(kube), no_leftovers)
    kube.writes = []
    again = identifier.delete_identifier(k8s_locate(kube), no_leftovers)
    assert again["changed"] is False and again["vnf_instance"] is None and again["deleted"] == [] and kube.writes == []
    assert INSTANCE["id"] in again["plan"]["lines"][0]


def test_check_mode_plans_and_writes_nothing():
    kube = kube_with_record(rollback=False)
    result = identifier.delete_identifier(k8s_locate(kube), no_leftovers, check_mode=True, diff_mode=True)
    assert result["changed"] is True and result["deleted"] == [] and kube.writes == []
    assert result["plan"]["lines"] == ["Secret vnflcm-{0}: delete".format(INSTANCE["id"])]


@pytest.mark.parametrize("instance, op_occs, leftovers, words", [
    (dict(INSTANCE, instantiationState="INSTANTIATED"), [DONE], [], ["INSTANTIATED", "terminate it first", "delete_instance"]),
    (INSTANCE, [dict(DONE, operation="INSTANTIATE", operationState="FAILED_TEMP")], [], ["occ-1", "FAILED_TEMP", "vnf_lcm_op_occ"]),
    (INSTANCE, [dict(DONE, operationState="PROCESSING")], [], ["PROCESSING"]),
    (INSTANCE, [DONE], ["Deployment/vdu1"], ["failed instantiate", "Deployment/vdu1", "terminate it first"]),
])
def test_refused_before_any_write_saying_what_to_do(instance, op_occs, leftovers, words):
    kube = kube_with_record(instance, op_occs)
    with pytest.raises(ConflictError) as raised:
        identifier.delete_identifier(k8s_locate(kube), lambda found: leftovers)
    assert all(word in raised.value.msg for word in words), raised.value.msg
    assert kube.writes == []


def test_a_record_written_meanwhile_is_a_conflict_and_stays():
    kube = kube_with_record(rollback=False)

    def locate():
        store, found = k8s_locate(kube)()
        kube.add(kube.secrets["vnflcm-" + INSTANCE["id"]])  # another run wrote the record after it was read
        return store, found

    with pytest.raises(ConflictError):
        identifier.delete_identifier(locate, no_leftovers)
    assert "vnflcm-" + INSTANCE["id"] in kube.secrets


def test_terminate_then_delete_in_check_mode_plans_the_delete_and_writes_nothing():
    kube = kube_with_record(dict(INSTANCE, instantiationState="INSTANTIATED"), rollback=False)
    terminated = {"changed": True, "plan": {"operation": "TERMINATE"}, "diff": {"before": {"instantiationState": "INSTANTIATED"}, "after": {}}}
    result = identifier.terminate_then_delete(terminated, k8s_locate(kube), no_leftovers, check_mode=True, diff_mode=True)
    assert result["plan"]["delete_identifier"]["delete"] == [{"kind": "Secret", "name": "vnflcm-" + INSTANCE["id"]}]
    assert result["deleted"] == [] and kube.writes == [] and result["diff"]["after"] == {}


def test_terminate_then_delete_after_the_record_went_with_the_terminate():
    kube = FakeKube()
    terminated = {"changed": True, "plan": {}, "vnf_lcm_op_occ": {"operationState": "COMPLETED"}}
    result = identifier.terminate_then_delete(terminated, k8s_locate(kube), no_leftovers)
    assert result["changed"] is True and result["deleted"] == [] and kube.writes == []


def test_terminate_then_delete_deletes_the_terminated_record():
    kube = kube_with_record()
    terminated = {"changed": False, "plan": {}}
    result = identifier.terminate_then_delete(terminated, k8s_locate(kube), no_leftovers)
    assert result["changed"] is True and len(result["deleted"]) == 2 and list(kube.secrets) == ["vnflcm-another-1"]


# --- Heat: the record lives in the stack -----------------------------------------------------

def heat_with_record(instance):
    stacks = FakeStacks()
    stack = stacks.add("vnf-" + instance["id"], "s-1", tags=["vnflcm"])
    store = HeatRecordStore(stacks, stack)
    version = store.save(instance, [DONE], None)
    return stacks, version


def heat_locate(stacks):
    def locate():
        store = HeatRecordStore(stacks)
        found = store.find(INSTANCE["id"])
        if found is None:
            raise NotFoundError("VNF instance {0} in the Heat stacks of this project".format(INSTANCE["id"]))
        return store, found
    return locate


def test_heat_a_stack_that_still_holds_a_record_is_deleted_and_waited_for():
    stacks, _version = heat_with_record(INSTANCE)
    stacks.writes = []
    result = identifier.delete_identifier(heat_locate(stacks), no_leftovers, timeout=30)
    assert result["deleted"] == [{"kind": "OS::Heat::Stack", "name": "vnf-" + INSTANCE["id"]}]
    assert [write[0] for write in stacks.writes] == ["delete", "wait_deleted"]


def test_heat_gone_with_the_terminate_is_no_change():
    stacks = FakeStacks()
    result = identifier.delete_identifier(heat_locate(stacks), no_leftovers)
    assert result["changed"] is False and result["deleted"] == [] and stacks.writes == []


def test_heat_refuses_a_stack_left_by_a_failed_instantiate():
    instance = dict(INSTANCE, instantiatedVnfInfo={"metadata": {"stack_id": "s-1", "stack_name": "vnf-x"}})
    stacks, _version = heat_with_record(instance)
    stacks.writes = []
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.delete import left_stack
    with pytest.raises(ConflictError) as raised:
        identifier.delete_identifier(heat_locate(stacks), left_stack)
    assert "stack vnf-x" in raised.value.msg and stacks.writes == []


def test_heat_record_written_meanwhile_is_a_conflict():
    stacks, version = heat_with_record(INSTANCE)
    store = HeatRecordStore(stacks)
    found = store.find(INSTANCE["id"])
    store.save(INSTANCE, [DONE], version)
    stacks.writes = []
    with pytest.raises(ConflictError):
        store.delete_identifier(found[0], found[2], 30)
    assert stacks.writes == []


def test_the_plan_of_terminate_then_delete_leaves_out_what_the_terminate_removes():
    kept = [{"kind": "Secret", "name": "vnflcm-1"}]
    assert identifier.left_after_terminate({"namespace": NS, "delete": [{"kind": "Deployment", "name": "vdu1"}]}, kept) == kept
    assert identifier.left_after_terminate({"namespace": NS, "delete": [{"kind": "Namespace", "name": NS}]}, kept) == []
    assert identifier.left_after_terminate({"stack_name": "vnf-1"}, [{"kind": "OS::Heat::Stack", "name": "vnf-1"}]) == []


def test_heat_terminate_then_delete_in_check_mode_plans_nothing_more():
    stacks, _version = heat_with_record(dict(INSTANCE, instantiationState="INSTANTIATED"))
    stacks.writes = []
    terminated = {"changed": True, "plan": {"operation": "TERMINATE", "stack_name": "vnf-" + INSTANCE["id"]}}
    result = identifier.terminate_then_delete(terminated, heat_locate(stacks), no_leftovers, check_mode=True)
    assert result["plan"]["delete_identifier"]["delete"] == [] and result["deleted"] == [] and stacks.writes == []


def test_check_mode_of_a_terminated_instance_with_delete_instance_is_a_change():
    kube = kube_with_record(rollback=False)
    terminated = {"changed": False, "plan": {"operation": "TERMINATE", "delete": [], "namespace": NS}}
    result = identifier.terminate_then_delete(terminated, k8s_locate(kube), no_leftovers, check_mode=True)
    assert result["changed"] is True and result["plan"]["delete_identifier"]["lines"] == ["Secret vnflcm-{0}: delete".format(INSTANCE["id"])]
    assert kube.writes == []
