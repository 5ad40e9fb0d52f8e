# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import json

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError
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
    assert RECORD_RESOURCE not in template["resources"]


def test_tags_hold_a_hash_of_any_name():
    tags = stack_tags(INSTANCE)
    assert tags[0] == "vnflcm" and tags[1] == name_tag("my vnf/1")
    assert "/" not in tags[1] and "," not in tags[1] and len(tags[1]) < 80


def test_record_waits_in_memory_until_the_stack_exists():
    stacks = FakeStacks()
    store = HeatRecordStore(stacks)
    version = store.save(INSTANCE, [OCC], None)
    assert stacks.writes == [] and version == 0
    store.attach(stacks.add(stack_name("i-1"), "s-1", stack_tags(INSTANCE)))
    assert stacks.writes == []
    # engine.run goes on with the version of the in-memory save: the first save into the stack is version 1.
    version = store.save(INSTANCE, [OCC], version)
    assert stacks.writes == [("signal", "vnf-i-1", RECORD_RESOURCE)] and version == 1
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
