# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import OperationTimeout, VimError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.stack import DELETE_ATTEMPTS, DELETE_RETRY_SECONDS, Stacks, encode_parameters

STACK = {"stack_name": "vnf-1", "id": "s1"}


def event(event_id, name, status, physical="s1", reason=""):
    return {"id": event_id, "resource_name": name, "resource_status": status, "physical_resource_id": physical, "resource_status_reason": reason}


class Scripted(Stacks):
    """Stacks whose event list grows by one batch per poll."""

    def __init__(self, batches, status=None):
        self.clock = [0.0]
        super().__init__(None, sleep=1, clock=lambda: self.clock[0], sleeper=lambda s: self.clock.__setitem__(0, self.clock[0] + s))
        self.batches = list(batches)
        self.status = status or {"stack_status": "UPDATE_COMPLETE"}
        self.markers = []

    def events(self, stack, marker=None):
        self.markers.append(marker)
        return self.batches.pop(0) if self.batches else []

    def get(self, stack):
        return self.status


def test_wait_ends_on_the_stacks_own_new_terminal_event():
    stacks = Scripted([[event("e1", "VDU1-1", "CREATE_COMPLETE", "x")], [event("e2", "vnf-1", "UPDATE_COMPLETE")]])
    progress = {}
    assert stacks.wait(STACK, "UPDATE", "e0", 60, progress)["stack_status"] == "UPDATE_COMPLETE"
    assert stacks.markers == ["e0", "e1"]
    assert progress["events"][0].startswith("VDU1-1 CREATE_COMPLETE")


def test_wait_reports_heats_reason_on_failure():
    stacks = Scripted([[event("e1", "vnf-1", "UPDATE_FAILED", reason="short")]],
                      {"stack_status": "UPDATE_FAILED", "stack_status_reason": "Resource CREATE failed: quota"})
    with pytest.raises(VimError, match="Failed to update stack vnf-1: Resource CREATE failed: quota"):
        stacks.wait(STACK, "UPDATE", None, 60)


def test_wait_times_out():
    with pytest.raises(OperationTimeout, match="timed out after 5s"):
        Scripted([]).wait(STACK, "CREATE", None, 5)


def test_json_parameters_travel_as_text():
    assert encode_parameters({"nfv": {"b": 1, "a": [1]}, "x": "y"}) == {"nfv": '{"a": [1], "b": 1}', "x": "y"}


class Deleting(Scripted):
    """Stacks whose delete ends DELETE_FAILED ``failures`` times, then the stack leaves the list."""

    def __init__(self, failures):
        super().__init__([])
        self.failures = failures
        self.deletes = []

    def delete(self, stack):
        self.deletes.append(self.clock[0])

    def list(self, **filters):
        if len(self.deletes) <= self.failures:
            return [dict(STACK, stack_status="DELETE_FAILED", stack_status_reason="Invalid volume: Volume status must be available")]
        return []


def test_a_delete_heat_failed_on_a_settling_resource_is_sent_again_until_the_stack_is_gone():
    stacks = Deleting(failures=2)
    stacks.delete_until_gone(STACK, 600)
    assert len(stacks.deletes) == 3
    assert stacks.deletes[1] - stacks.deletes[0] >= DELETE_RETRY_SECONDS


def test_a_delete_that_keeps_failing_ends_with_heats_reason_after_the_last_attempt():
    stacks = Deleting(failures=DELETE_ATTEMPTS)
    with pytest.raises(VimError, match="Failed to delete stack vnf-1: Invalid volume"):
        stacks.delete_until_gone(STACK, 600)
    assert len(stacks.deletes) == DELETE_ATTEMPTS


def test_no_delete_is_sent_again_when_the_deadline_leaves_no_time_for_it():
    stacks = Deleting(failures=1)
    with pytest.raises(VimError, match="Invalid volume"):
        stacks.delete_until_gone(STACK, DELETE_RETRY_SECONDS)
    assert len(stacks.deletes) == 1


class Creating(Deleting):
    """A stack whose create (a killed run's) is in progress for ``polls`` reads, then CREATE_COMPLETE."""

    def __init__(self, polls):
        super().__init__(failures=0)
        self.polls = polls
        self.reads = []

    def get(self, stack):
        self.reads.append(self.clock[0])
        return {"stack_status": "CREATE_IN_PROGRESS" if len(self.reads) <= self.polls else "CREATE_COMPLETE"}


def test_a_stack_still_being_created_is_deleted_once_its_create_has_ended():
    stacks = Creating(polls=3)
    stacks.delete_until_gone(STACK, 600)
    assert len(stacks.reads) == 4 and stacks.deletes == [stacks.reads[-1]]


def test_a_create_that_does_not_end_in_time_is_deleted_all_the_same():
    stacks = Creating(polls=10 ** 6)
    stacks.delete_until_gone(STACK, 30)
    assert len(stacks.deletes) == 1 and stacks.deletes[0] >= 30
