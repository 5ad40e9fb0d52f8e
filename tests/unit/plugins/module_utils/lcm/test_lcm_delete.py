# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Deleting a VNF instance identifier (lcm/delete.py) through both record stores, with in-memory VIMs."""

from __future__ import annotations

import datetime
import subprocess
import sys

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common import name_claim
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, NotFoundError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.name_claim import claim_time
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.runner import this_runner
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.name_claim import GRACE_SECONDS, claim_tags
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import HeatRecordStore, name_tag
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.record import (
    RECORD_KEY,
    encode_document,
    name_claim_name,
    name_claim_secret,
    read_name_claim,
    record_secret,
    rollback_secret,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.store import SecretRecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import delete as identifier
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import info

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
    assert [write[0] for write in stacks.writes] == ["delete_until_gone"]


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


# --- A name's claim with no record: an instantiate killed between the two --------------------

def dead_runner():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return dict(this_runner(), pid=child.pid)


def claim_left(kube, claimed_at=None, runner=None, instance_id="5c0d0e1f-0000-4000-8000-00000000dead"):
    """The claim of INSTANCE's name by a run of ``instance_id`` that wrote no record: claimed now by this (live) process
    unless ``claimed_at`` or ``runner`` say otherwise."""
    claim = name_claim_secret(dict(INSTANCE, id=instance_id), NS, "occ-killed", claimed_at or claim_time(datetime.datetime.now(datetime.timezone.utc)))
    if runner is not None:
        claim["data"] = {RECORD_KEY: encode_document(dict(read_name_claim(claim), runner=runner))}
    kube.add(claim)
    return name_claim_name(INSTANCE["vnfInstanceName"])


def by_name(kube):
    def locate():
        store = SecretRecordStore(kube, NS)
        found = store.find(name=INSTANCE["vnfInstanceName"])
        if found is None:
            raise NotFoundError("VNF instance {0!r} in namespace {1}".format(INSTANCE["vnfInstanceName"], NS))
        return store, found
    return locate


def unclaim(kube):
    return SecretRecordStore(kube, NS), INSTANCE["vnfInstanceName"]


def test_pure_a_claim_with_no_record_is_live_until_its_runner_is_gone_or_its_grace_is_over():
    now = datetime.datetime(2026, 11, 26, 12, 0, 0, tzinfo=datetime.timezone.utc)
    held = {"vnfInstanceId": "i-1", "vnfLcmOpOccId": "o-1", "claimedAt": "2026-11-26T11:59:30Z", "runner": this_runner()}
    assert name_claim.orphan_status(held, now, 60)[0] == name_claim.LIVE
    assert name_claim.orphan_status(held, now, 10)[0] == name_claim.EXPIRED
    assert name_claim.orphan_status(dict(held, runner=dead_runner()), now, 60)[0] == name_claim.RUNNER_GONE
    # Another machine's runner cannot be told gone from here: only the age counts.
    assert name_claim.orphan_status(dict(held, runner=dict(this_runner(), host="elsewhere", pid=1)), now, 60)[0] == name_claim.LIVE
    shown = name_claim.left_claim("web", dict(held, runner=dead_runner()), now, 60, {"kind": "Secret", "name": "vnflcm-name-x"})
    assert shown["status"] == "runner gone" and shown["heldBy"] == {"kind": "Secret", "name": "vnflcm-name-x"}
    assert shown["note"].startswith("claimed by run o-1 (VNF instance i-1, since 2026-11-26T11:59:30Z), gone, no instance: its runner (pid ")
    assert set(shown["runner"]) == {"host", "pid"}


def test_kubernetes_delete_by_name_removes_the_claim_a_gone_run_left_with_no_record_check_mode_first():
    kube = FakeKube()
    claim = claim_left(kube, runner=dead_runner())
    checked = identifier.delete_identifier(by_name(kube), no_leftovers, check_mode=True, diff_mode=True, unclaim=unclaim(kube))
    assert checked["changed"] is True and checked["deleted"] == [] and kube.writes == [] and checked["vnf_instance"] is None
    assert checked["plan"]["delete"] == [{"kind": "Secret", "name": claim}] and checked["name_claim"]["status"] == "runner gone"
    assert "no instance" in checked["plan"]["lines"][0] and checked["diff"]["after"] == {}
    assert checked["diff"]["before"]["nameClaim"]["vnfLcmOpOccId"] == "occ-killed"

    done = identifier.delete_identifier(by_name(kube), no_leftovers, unclaim=unclaim(kube))
    assert done["changed"] is True and done["deleted"] == [{"kind": "Secret", "name": claim}] and kube.writes == [("delete", claim)]
    assert kube.secrets == {}
    again = identifier.delete_identifier(by_name(kube), no_leftovers, unclaim=unclaim(kube))
    assert again["changed"] is False and again["vnf_instance"] is None and kube.writes == [("delete", claim)]


def test_kubernetes_a_claim_older_than_the_grace_goes_though_its_runner_lives():
    kube = FakeKube()
    claim_left(kube, claimed_at="2026-01-01T00:00:00Z")
    done = identifier.delete_identifier(by_name(kube), no_leftovers, unclaim=unclaim(kube))
    assert done["name_claim"]["status"] == "expired" and kube.secrets == {}


@pytest.mark.parametrize("terminate", [False, True])
def test_kubernetes_a_live_claim_is_refused_naming_the_name_and_its_run_and_nothing_is_written(terminate):
    kube = FakeKube()
    claim_left(kube)
    with pytest.raises(ConflictError) as raised:
        if terminate:
            identifier.terminate_or_unclaim({"changed": False, "vnf_instance": None, "plan": {}}, unclaim(kube))
        else:
            identifier.delete_identifier(by_name(kube), no_leftovers, unclaim=unclaim(kube))
    assert "claim of VNF instance name 'cnf' in namespace tenant-a" in raised.value.msg and "occ-killed" in raised.value.msg, raised.value.msg
    assert "5c0d0e1f-0000-4000-8000-00000000dead" in raised.value.msg and kube.writes == [] and len(kube.secrets) == 1


def test_kubernetes_the_claim_of_an_instance_with_a_record_or_a_delete_by_id_is_left_alone():
    kube = kube_with_record(dict(INSTANCE, vnfInstanceName="renamed"), rollback=False, other=False)
    claim_left(kube, runner=dead_runner(), instance_id=INSTANCE["id"])
    assert identifier.delete_identifier(by_name(kube), no_leftovers, unclaim=unclaim(kube))["changed"] is False
    kube = FakeKube()
    claim_left(kube, runner=dead_runner())
    assert identifier.delete_identifier(k8s_locate(kube), no_leftovers)["changed"] is False and kube.writes == []


def test_kubernetes_a_claim_taken_over_after_it_was_read_stays():
    kube = FakeKube()
    claim = claim_left(kube, runner=dead_runner())
    store = SecretRecordStore(kube, NS)
    shown = store.left_claim(INSTANCE["vnfInstanceName"])
    kube.add(kube.secrets[claim])  # another instantiate took it over
    with pytest.raises(ConflictError):
        store.drop_left_claim(shown)
    assert claim in kube.secrets


def test_kubernetes_terminate_by_name_removes_the_claim_and_delete_instance_keeps_what_it_deleted():
    kube = FakeKube()
    claim = claim_left(kube, runner=dead_runner())
    not_found = {"changed": False, "vnf_instance": None, "plan": {"note": "not found"}}
    checked = identifier.terminate_or_unclaim(dict(not_found), unclaim(kube), check_mode=True)
    assert checked["changed"] is True and checked["plan"]["operation"] == "TERMINATE" and kube.writes == []
    done = identifier.terminate_or_unclaim(dict(not_found), unclaim(kube))
    done = identifier.terminate_then_delete(done, by_name(kube), no_leftovers)
    assert done["deleted"] == [{"kind": "Secret", "name": claim}] and kube.secrets == {}
    assert identifier.terminate_or_unclaim(dict(not_found), unclaim(kube)) == not_found
    # By id: the claim is not looked for.
    assert identifier.terminate_or_unclaim(dict(not_found), None) == not_found


def test_vnf_info_by_a_name_no_record_has_shows_its_claim_and_no_instance():
    kube = FakeKube()
    claim_left(kube, runner=dead_runner())
    shown = info.records_of({"vnf_instance_name": "cnf"}, SecretRecordStore(kube, NS))
    assert shown["vnf_instances"] == [] and shown["name_claim"]["status"] == "runner gone"
    assert "name_claim" not in info.records_of({"vnf_instance_name": "other"}, SecretRecordStore(kube, NS))
    assert "name_claim" not in info.records_of({}, SecretRecordStore(kube, NS))


def heat_claim(stacks, age_seconds=10, runner=None, instance_id="i-dead"):
    claim = stacks.add(name_tag(INSTANCE["vnfInstanceName"]), "claim-" + instance_id, claim_tags(instance_id, "occ-killed", runner))
    stacks.stacks[claim["id"]]["creation_time"] = claim_time(stacks.now() - datetime.timedelta(seconds=age_seconds))
    return claim


def test_heat_delete_by_name_removes_the_claim_stack_a_gone_run_left_and_refuses_a_live_one():
    stacks = FakeStacks()
    live = heat_claim(stacks, runner=this_runner())
    store = HeatRecordStore(stacks)
    with pytest.raises(ConflictError) as raised:
        identifier.delete_identifier(heat_locate(stacks), no_leftovers, unclaim=(store, INSTANCE["vnfInstanceName"]))
    assert "'cnf' in the Heat stacks of this project" in raised.value.msg and "i-dead" in raised.value.msg and stacks.writes == []
    stacks.stacks.pop(live["id"])
    gone = heat_claim(stacks, runner=dead_runner())
    checked = identifier.delete_identifier(heat_locate(stacks), no_leftovers, check_mode=True, unclaim=(store, INSTANCE["vnfInstanceName"]))
    assert checked["changed"] is True and stacks.writes == [] and checked["name_claim"]["status"] == "runner gone"
    done = identifier.delete_identifier(heat_locate(stacks), no_leftovers, unclaim=(store, INSTANCE["vnfInstanceName"]))
    assert done["deleted"] == [{"kind": "OS::Heat::Stack", "name": gone["stack_name"], "id": gone["id"]}] and stacks.stacks == {}
    again = identifier.delete_identifier(heat_locate(stacks), no_leftovers, unclaim=(store, INSTANCE["vnfInstanceName"]))
    assert again["changed"] is False


def test_heat_a_claim_older_than_the_grace_goes_and_one_whose_instance_has_a_record_stays():
    stacks = FakeStacks()
    heat_claim(stacks, age_seconds=GRACE_SECONDS + 1)
    assert HeatRecordStore(stacks).left_claim(INSTANCE["vnfInstanceName"])["status"] == "expired"
    stacks, _version = heat_with_record(INSTANCE)
    heat_claim(stacks, runner=dead_runner(), instance_id=INSTANCE["id"])
    assert HeatRecordStore(stacks).left_claim(INSTANCE["vnfInstanceName"]) is None
