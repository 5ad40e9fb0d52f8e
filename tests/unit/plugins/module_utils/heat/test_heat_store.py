# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, RecordUnwritable
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.runner import this_runner
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.name_claim import GRACE_SECONDS, claim_tags, read_claim
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import (
    RECORD_RESOURCE,
    RECORD_TYPE,
    HeatRecordStore,
    decode,
    encode,
    name_tag,
    stack_name,
    stack_tags,
    with_record_resource,
)

from ansible_collections.nfv.vnflcm.tests.unit.plugins.module_utils.heat.fake_heat import FakeStacks

INSTANCE = {"id": "i-1", "vnfInstanceName": "my vnf/1", "instantiationState": "NOT_INSTANTIATED"}
OCC = {"id": "o-1", "operationState": "PROCESSING"}


def test_record_resource_is_added_without_touching_the_template():
    template = {"resources": {"VDU1-0": {"type": "VDU1.yaml"}}}
    result = with_record_resource(template)
    assert result["resources"][RECORD_RESOURCE] == {"type": RECORD_TYPE}
    assert RECORD_RESOURCE not in template["resources"] and "depends_on" not in template["resources"]["VDU1-0"]


def test_every_other_resource_depends_on_the_record_so_heat_creates_it_first_and_deletes_it_last():
    template = {"resources": {"VDU1": {"type": "a.yaml"}, "VDU2": {"type": "b.yaml", "depends_on": "VDU1"},
                              "VDU3": {"type": "c.yaml", "depends_on": ["VDU1", "VDU2"]}}}
    result = with_record_resource(template)
    assert [result["resources"][name]["depends_on"] for name in ("VDU1", "VDU2", "VDU3")] == [
        [RECORD_RESOURCE], ["VDU1", RECORD_RESOURCE], ["VDU1", "VDU2", RECORD_RESOURCE]]
    assert "depends_on" not in result["resources"][RECORD_RESOURCE]
    assert with_record_resource(result) == result


def test_tags_hold_a_hash_of_any_name():
    tags = stack_tags(INSTANCE)
    assert tags[0] == "vnflcm" and tags[1] == name_tag("my vnf/1")
    assert "/" not in tags[1] and "," not in tags[1] and len(tags[1]) < 80


def test_record_waits_in_memory_until_the_stack_exists():
    stacks = FakeStacks()
    store = HeatRecordStore(stacks)
    version = store.save(INSTANCE, [OCC], None)
    # Only the name is claimed (heat/name_claim.py), with a stack of no resources.
    claim = store.claim
    assert stacks.writes == [("create", name_tag("my vnf/1"))] and version == 0
    assert stacks.stacks[claim["id"]]["tags"][:3] == ["vnflcm-claim", "vnflcm-run-o-1", "vnflcm-instance-i-1"]
    # The runner too, a tag a field: a later run tells a killed one from a live one (below).
    assert read_claim(stacks.stacks[claim["id"]])["runner"]["pid"] == os.getpid()
    store.attach(stacks.add(stack_name("i-1"), "s-1", stack_tags(INSTANCE)))
    # engine.run goes on with the version of the in-memory save: the first save into the stack is version 1; from
    # there the record holds the name, and the claim goes.
    version = store.save(INSTANCE, [OCC], version)
    assert stacks.writes[1:] == [("signal", "vnf-i-1", RECORD_RESOURCE), ("delete", claim)] and version == 1
    assert claim["id"] not in stacks.stacks and store.claim is None
    done = dict(OCC, operationState="COMPLETED")
    store.save(dict(INSTANCE, instantiationState="INSTANTIATED"), [done], version)
    found = HeatRecordStore(stacks).find(name="my vnf/1")
    assert found[0]["instantiationState"] == "INSTANTIATED" and found[1] == [done] and found[2] == 2


def test_a_stack_of_ours_without_a_record_is_an_orphan_once_it_no_longer_waits_for_one():
    stacks = FakeStacks()
    stacks.add(stack_name("i-9"), "s-9", stack_tags(INSTANCE))
    store = HeatRecordStore(stacks)
    assert store.find(name="my vnf/1") is None
    assert store.orphans == [{"stack_name": "vnf-i-9", "id": "s-9", "stack_status": "CREATE_COMPLETE"}]
    stacks.stacks["s-9"].update(stack_status="CREATE_IN_PROGRESS", creation_time="2026-11-22T04:58:00Z")
    assert store.find(name="my vnf/1") is None and store.orphans == []
    stacks.stacks["s-9"]["creation_time"] = "2026-11-22T04:50:00Z"
    assert store.find(name="my vnf/1") is None and [item["id"] for item in store.orphans] == ["s-9"]


def test_a_stack_still_creating_without_a_record_is_an_orphan_at_once_when_the_runner_its_tags_name_is_gone():
    """The crash sweep's instantiate killed between its stack's create and its record: the re-run found the young stack
    waiting for a record and left it, a second stack of the instance with its servers, for good."""
    stacks = FakeStacks()
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    stacks.add(stack_name("i-9"), "s-9", stack_tags(INSTANCE, dict(this_runner(), pid=child.pid)))
    stacks.add(stack_name("i-8"), "s-8", stack_tags(INSTANCE, this_runner()))
    for stack_id in ("s-8", "s-9"):
        stacks.stacks[stack_id].update(stack_status="CREATE_IN_PROGRESS", creation_time=stacks.now().strftime("%Y-%m-%dT%H:%M:%SZ"))
    store = HeatRecordStore(stacks)
    assert store.find(name="my vnf/1") is None and [item["id"] for item in store.orphans] == ["s-9"]


def test_find_by_id_and_by_name_and_list():
    stacks = FakeStacks()
    store = HeatRecordStore(stacks, stacks.add("vnf-i-1", "s-1", stack_tags(INSTANCE)))
    store.save(INSTANCE, [OCC], None)
    other = dict(INSTANCE, id="i-2", vnfInstanceName="other")
    HeatRecordStore(stacks, stacks.add("vnf-i-2", "s-2", stack_tags(other))).save(other, [], None)
    assert HeatRecordStore(stacks).find("i-1")[0]["id"] == "i-1"
    assert HeatRecordStore(stacks).find(name="other")[0]["id"] == "i-2"
    assert HeatRecordStore(stacks).find(name="nobody") is None
    assert HeatRecordStore(stacks).find("i-3") is None
    assert sorted(item[0]["id"] for item in HeatRecordStore(stacks).list()) == ["i-1", "i-2"]


def test_a_concurrent_writer_is_detected():
    stacks = FakeStacks()
    stack = stacks.add("vnf-i-1", "s-1", stack_tags(INSTANCE))
    first = HeatRecordStore(stacks, stack)
    version = first.save(INSTANCE, [OCC], None)
    HeatRecordStore(stacks, stack).save(INSTANCE, [OCC], version)
    with pytest.raises(ConflictError, match="another operation"):
        first.save(INSTANCE, [OCC], version)


def test_the_stack_keeps_no_vim_password_wherever_a_request_copy_holds_one():
    """The record is the metadata of a stack resource, which every member of the project reads."""
    vims = {"vim1": {"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3", "accessInfo": {"username": "u", "password": "p-123", "region": "R"}}}
    listed = [{"id": "vim1", "vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3", "accessInfo": {"bearer_token": "t-123"}}]
    instance = dict(INSTANCE, instantiatedVnfInfo={"metadata": {"vnflcm": {"request": {"flavourId": "simple", "vimConnectionInfo": vims}}}})
    occ = dict(OCC, operationParams={"vimConnectionInfo": listed, "additionalParams": {"nfv": {}}})
    text = encode(instance, [occ], 3)
    assert "p-123" not in text and "t-123" not in text
    kept, occs, version = decode({"record": {"data": text}})
    assert kept["instantiatedVnfInfo"]["metadata"]["vnflcm"]["request"]["vimConnectionInfo"]["vim1"]["accessInfo"] == {"username": "u", "region": "R"}
    assert occs[0]["operationParams"]["vimConnectionInfo"][0]["accessInfo"] == {} and version == 3
    assert json.loads(text)["vnfLcmOpOccs"][0]["operationParams"]["additionalParams"] == {"nfv": {}}


# ---------------------------------------------------------------------------------------------
# One name, one instance (heat/name_claim.py)

def other_claim(stacks, instance_id="i-0", run="o-0", age_seconds=10, runner=None):
    claim = stacks.add(name_tag("my vnf/1"), "held-" + instance_id, claim_tags(instance_id, run, runner))
    created = stacks.now() - datetime.timedelta(seconds=age_seconds)
    stacks.stacks[claim["id"]]["creation_time"] = created.strftime("%Y-%m-%dT%H:%M:%SZ")
    return claim


def test_a_name_another_run_claims_is_refused_naming_that_run_and_nothing_is_written():
    stacks = FakeStacks()
    other_claim(stacks)
    store = HeatRecordStore(stacks)
    for attempt in (lambda: store.check_name_free(INSTANCE), lambda: store.save(INSTANCE, [OCC], None)):
        with pytest.raises(ConflictError, match=r"instance 'my vnf/1' is being created by run o-0 \(VNF instance i-0"):
            attempt()
    assert stacks.writes == [("create", name_tag("my vnf/1"))] and store.pending is None and store.claim is None


def test_a_claim_older_than_the_grace_whose_run_wrote_no_record_is_taken_over():
    stacks = FakeStacks()
    stale = other_claim(stacks, age_seconds=GRACE_SECONDS + 1)
    store = HeatRecordStore(stacks)
    store.save(INSTANCE, [OCC], None)
    assert [write[1]["id"] for write in stacks.writes if write[0] == "delete"] == [stale["id"]] and store.claim is not None
    assert [stack["tags"][1] for stack in stacks.list(name=name_tag("my vnf/1"))] == ["vnflcm-run-o-1"]


def test_the_claim_of_a_run_killed_before_its_record_is_taken_over_at_once_when_its_runner_is_gone_from_this_machine():
    stacks = FakeStacks()
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    gone = other_claim(stacks, runner=dict(this_runner(), pid=child.pid))
    store = HeatRecordStore(stacks)
    store.save(INSTANCE, [OCC], None)
    assert [write[1]["id"] for write in stacks.writes if write[0] == "delete"] == [gone["id"]] and store.claim is not None


def test_the_fresh_claim_of_a_live_runner_is_refused_and_a_runner_too_long_for_tags_is_left_out():
    stacks = FakeStacks()
    other_claim(stacks, runner=this_runner())
    with pytest.raises(ConflictError, match="is being created by run o-0"):
        HeatRecordStore(stacks).save(INSTANCE, [OCC], None)
    assert claim_tags("i-1", "o-1", dict(this_runner(), host="h" * 80)) == claim_tags("i-1", "o-1")
    assert "runner" not in read_claim({"tags": claim_tags("i-1", "o-1")})


def test_the_claim_left_by_a_run_killed_between_the_record_and_the_claims_delete_goes_with_the_run_that_resumes_it():
    """The crash sweep's instantiate killed after its record's first write, before its claim's delete: the retry (or
    rollback) ended with the claim, a stack of its own, left for good."""
    stacks = FakeStacks()
    left = other_claim(stacks, instance_id="i-1", run="o-1")
    other_claim(stacks, instance_id="i-2", run="o-2")
    HeatRecordStore(stacks).release_left_claim(INSTANCE)
    assert [write[1]["id"] for write in stacks.writes if write[0] == "delete"] == [left["id"]]


def test_of_two_claims_heat_let_in_together_the_higher_stack_id_withdraws_at_once():
    stacks = FakeStacks()
    stacks.racing = True
    other_claim(stacks, instance_id="a")  # stack id held-a < claim-<n>
    store = HeatRecordStore(stacks)
    with pytest.raises(ConflictError, match="being created by run o-0"):
        store.save(INSTANCE, [OCC], None)
    assert [stack["id"] for stack in stacks.list(name=name_tag("my vnf/1"))] == ["held-a"] and store.claim is None


def test_of_two_claims_heat_let_in_together_the_lowest_stack_id_stays_once_the_other_withdrew():
    stacks = FakeStacks()
    stacks.racing = True
    other = other_claim(stacks, instance_id="z")  # stack id held-z > claim-<n>
    stacks.pause = lambda seconds=0.25: stacks.stacks.pop(other["id"], None)
    store = HeatRecordStore(stacks)
    store.save(INSTANCE, [OCC], None)
    assert [stack["id"] for stack in stacks.list(name=name_tag("my vnf/1"))] == [store.claim["id"]]


def test_the_lowest_stack_id_withdraws_when_the_other_claim_stays_the_whole_wait():
    stacks = FakeStacks()
    stacks.racing = True
    other_claim(stacks, instance_id="z")
    store = HeatRecordStore(stacks)
    with pytest.raises(ConflictError, match="being created by run o-0"):
        store.save(INSTANCE, [OCC], None)
    assert [stack["id"] for stack in stacks.list(name=name_tag("my vnf/1"))] == ["held-z"]


def test_a_record_of_the_name_that_came_while_the_create_was_planned_is_found_after_the_claim():
    stacks = FakeStacks()
    store = HeatRecordStore(stacks)
    other = HeatRecordStore(stacks)
    winner = dict(INSTANCE, id="i-0")
    other.attach(stacks.add(stack_name("i-0"), "s-0", stack_tags(winner)))
    other.save(winner, [OCC], 0)
    with pytest.raises(ConflictError, match="VNF instance i-0 has that name"):
        store.save(INSTANCE, [OCC], None)
    assert stacks.list(name=name_tag("my vnf/1")) == [] and store.claim is None


def test_a_run_that_ends_before_its_stack_exists_lets_the_name_go():
    stacks = FakeStacks()
    store = HeatRecordStore(stacks)
    store.save(INSTANCE, [OCC], None)
    store.save(INSTANCE, [OCC], 0)  # the lease renewed: still running
    assert store.claim is not None
    store.save(INSTANCE, [dict(OCC, operationState="FAILED_TEMP")], 0)
    assert store.claim is None and stacks.list(name=name_tag("my vnf/1")) == []


class FailedBeforeRecord(FakeStacks):
    """A create Heat failed before it made the record's resource (a port Neutron refused came first)."""

    def resource_status(self, stack, resource):
        return "INIT_COMPLETE"

    def get(self, stack):
        return dict(self.stacks[stack["id"]], stack_status="CREATE_FAILED", stack_status_reason="Resource CREATE failed: BadRequest")


def test_a_stack_failed_before_its_record_resource_is_no_takeover_and_the_run_ends_in_memory():
    stacks = FailedBeforeRecord()
    store = HeatRecordStore(stacks)
    version = store.save(INSTANCE, [OCC], None)
    store.attach(stacks.add(stack_name("i-1"), "s-1", stack_tags(INSTANCE)))
    # Not a ConflictError: the lease keeper would take that for another run's takeover and record nothing.
    with pytest.raises(RecordUnwritable) as failed:
        store.save(INSTANCE, [OCC], version)
    assert not isinstance(failed.value, ConflictError)
    assert "CREATE_FAILED before its resource vnflcm_record was made: Resource CREATE failed: BadRequest" in failed.value.msg
    store.detach()
    store.save(INSTANCE, [dict(OCC, operationState="FAILED_TEMP")], version)
    assert store.stack is None and store.claim is None and not [write for write in stacks.writes if write[0] == "signal"]
