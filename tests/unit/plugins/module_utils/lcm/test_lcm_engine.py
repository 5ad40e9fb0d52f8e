# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The shared op-occ lifecycle: plan only in check mode, PROCESSING before acting, FAILED_TEMP with the partial result."""

from __future__ import annotations

import datetime
import json
import os

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common import activity
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import (
    ConflictError,
    Interrupted,
    NotFoundError,
    OperationTimeout,
    VimError,
    VnfLcmError,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import lease
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation, act_on_op_occ, fail, find_op_occ, run
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.lease import LeaseLost
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ_state

NOW = datetime.datetime(2026, 11, 22, 5, 0, 0)


class MemoryStore(RecordStore):
    """Keeps every write, so tests can see the sequence of records."""

    def __init__(self):
        self.writes = []

    def save(self, instance, op_occs, version):
        self.writes.append(("save", instance, [occ["operationState"] for occ in op_occs], version))
        return (version or 0) + 1

    def delete(self, instance, version):
        self.writes.append(("delete", instance["id"], version))


def operation(store, execute=None, changed=True, op_occs=(), prepare=None):
    instance = {"id": "vnf-1", "instantiationState": "NOT_INSTANTIATED"}
    return Operation("INSTANTIATE", {"flavourId": "simple"}, instance, {"create": ["Deployment vdu1"]}, store, op_occs,
                     changed=changed, prepare=prepare, execute=execute or (lambda progress: dict(instance, instantiationState="INSTANTIATED")),
                     diff={"before": {}, "after": {"objects": ["Deployment vdu1"]}})


def test_check_mode_returns_the_plan_and_writes_nothing():
    store = MemoryStore()
    called = []
    result = run(operation(store, execute=called.append, prepare=lambda: called.append("prepare")), check_mode=True, diff_mode=True, now=lambda: NOW)
    assert result == {"changed": True, "plan": {"create": ["Deployment vdu1"]}, "vnf_instance": {"id": "vnf-1", "instantiationState": "NOT_INSTANTIATED"},
                      "diff": {"before": {}, "after": {"objects": ["Deployment vdu1"]}}}
    assert store.writes == [] and called == []


def test_nothing_to_do_writes_nothing():
    store = MemoryStore()
    result = run(operation(store, changed=False), now=lambda: NOW)
    assert result["changed"] is False and store.writes == []


def test_success_records_processing_then_completed():
    store = MemoryStore()
    order = []
    result = run(operation(store, prepare=lambda: order.append("prepare")), now=lambda: NOW)
    assert order == ["prepare"]
    assert [(kind, states, version) for kind, _instance, states, version in store.writes] == [("save", ["PROCESSING"], None), ("save", ["COMPLETED"], 1)]
    assert result["vnf_instance"]["instantiationState"] == "INSTANTIATED"
    assert result["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    assert result["vnf_lcm_op_occ"]["operation"] == "INSTANTIATE"


def test_the_clean_up_after_the_record_runs_once_the_end_is_recorded_and_a_failing_one_only_warns():
    store = MemoryStore()
    op = operation(store)
    op.after_record = lambda: store.writes.append(("clean-up",))
    run(op, now=lambda: NOW)
    assert [write[0] if write[0] == "clean-up" else write[2] for write in store.writes] == [["PROCESSING"], ["COMPLETED"], "clean-up"]

    def fails():
        raise OSError("connection reset")
    op = operation(MemoryStore())
    op.after_record = fails
    result = run(op, now=lambda: NOW)
    assert result["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    assert result["warnings"] == ["INSTANTIATE ended COMPLETED, but its clean-up failed (OSError: connection reset); the next operation of "
                                  "the instance cleans up again"]


def test_failure_leaves_failed_temp_with_what_was_done():
    store = MemoryStore()

    def execute(progress):
        progress["created"] = ["Deployment vdu1"]
        raise OperationTimeout("Deployment vdu1 to be ready", 5)

    with pytest.raises(OperationTimeout) as caught:
        run(operation(store, execute=execute), now=lambda: NOW)
    assert [states for _kind, _instance, states, _version in store.writes] == [["PROCESSING"], ["FAILED_TEMP"]]
    result = caught.value.result
    assert result["progress"] == {"created": ["Deployment vdu1"], "op_occ_id": result["vnf_lcm_op_occ"]["id"]}
    assert result["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP"
    assert "timed out after 5s" in result["vnf_lcm_op_occ"]["error"]["detail"]
    # The instance as recorded beside the FAILED_TEMP op occ, as a successful run returns it.
    assert result["vnf_instance"] == store.writes[-1][1]


def test_an_unfinished_operation_blocks_a_new_one():
    store = MemoryStore()
    busy = {"id": "occ-0", "operationState": "FAILED_TEMP", "startTime": "2026-11-21T00:00:00Z"}
    with pytest.raises(ConflictError) as caught:
        run(operation(store, op_occs=[busy]), now=lambda: NOW)
    assert "occ-0 is FAILED_TEMP" in caught.value.msg
    assert store.writes == []


def test_delete_record_when_the_operation_removed_its_home():
    store = MemoryStore()

    def execute(progress):
        progress.delete_record = True
        return {"id": "vnf-1", "instantiationState": "NOT_INSTANTIATED"}

    run(operation(store, execute=execute), now=lambda: NOW)
    assert store.writes[-1] == ("delete", "vnf-1", 1)


def test_an_error_carrying_the_progress_itself_gives_a_result_without_cycles():
    store = MemoryStore()

    def execute(progress):
        progress["created"] = ["Deployment vdu1"]
        raise OperationTimeout("Deployment vdu1 to be ready", 5, result=progress)

    with pytest.raises(OperationTimeout) as caught:
        run(operation(store, execute=execute), now=lambda: NOW)
    assert json.dumps(caught.value.result)
    assert caught.value.result["progress"]["created"] == ["Deployment vdu1"]


def failed_temp(store):
    def execute(progress):
        raise OperationTimeout("Deployment vdu1 to be ready", 5)

    with pytest.raises(OperationTimeout) as caught:
        run(operation(store, execute=execute), now=lambda: NOW)
    return caught.value.result["vnf_lcm_op_occ"]


@pytest.mark.parametrize("event, final", [("retry", "COMPLETED"), ("rollback", "ROLLED_BACK")])
def test_resume_carries_the_same_op_occ_on(event, final):
    store = MemoryStore()
    failed = failed_temp(store)
    seen = []
    result = run(operation(store, op_occs=[failed], execute=lambda progress: seen.append(progress["op_occ_id"]) or {"id": "vnf-1"}),
                 now=lambda: NOW, resume=(event, failed))
    assert seen == [failed["id"]] and result["vnf_lcm_op_occ"]["id"] == failed["id"]
    assert result["vnf_lcm_op_occ"]["operationState"] == final
    # The resumed op occ replaces the failed one in the history: never two copies of one op occ.
    assert [states for _kind, _instance, states, _version in store.writes][2:] == [
        ["PROCESSING" if event == "retry" else "ROLLING_BACK"], [final]]


def test_resume_with_nothing_to_do_still_ends_the_op_occ():
    store = MemoryStore()
    failed = failed_temp(store)
    result = run(operation(store, op_occs=[failed], changed=False, execute=lambda progress: pytest.fail("nothing to execute")),
                 now=lambda: NOW, resume=("rollback", failed))
    assert result["changed"] is True and result["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK"


def test_a_failed_resume_is_failed_temp_again():
    store = MemoryStore()
    failed = failed_temp(store)

    def execute(progress):
        raise OperationTimeout("Deployment vdu1 to be ready", 5)

    with pytest.raises(OperationTimeout) as caught:
        run(operation(store, op_occs=[failed], execute=execute), now=lambda: NOW, resume=("retry", failed))
    assert caught.value.result["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP"
    assert caught.value.result["vnf_lcm_op_occ"]["id"] == failed["id"]


def test_fail_ends_the_op_occ_without_acting():
    store = MemoryStore()
    failed = failed_temp(store)
    result = fail(store, ({"id": "vnf-1"}, [failed], 2), failed, now=lambda: NOW)
    assert result["vnf_lcm_op_occ"]["operationState"] == "FAILED" and store.writes[-1][2] == ["FAILED"]
    with pytest.raises(ConflictError):
        fail(store, ({"id": "vnf-1"}, [result["vnf_lcm_op_occ"]], 3), result["vnf_lcm_op_occ"], now=lambda: NOW)


def test_find_op_occ_by_id_or_newest():
    occs = [{"id": "b"}, {"id": "a"}]
    assert find_op_occ(occs) == {"id": "b"} and find_op_occ(occs, "a") == {"id": "a"}
    with pytest.raises(NotFoundError):
        find_op_occ(occs, "c")
    with pytest.raises(NotFoundError):
        find_op_occ([])


# ---------------------------------------------------------------------------------------------
# Whatever stops an operation, its op occ says so; a running op occ whose runner is gone is taken over.

@pytest.mark.parametrize("error, words", [
    (ConnectionResetError(104, "Connection reset by peer"), "ConnectionResetError: [Errno 104] Connection reset by peer"),
    (KeyboardInterrupt(), "interrupted (SIGINT)"),
    (Interrupted("received SIGTERM"), "interrupted: received SIGTERM"),
    (MemoryError(), "MemoryError"),
])
def test_any_error_leaves_failed_temp_naming_the_last_vim_call(error, words):
    store = MemoryStore()

    def execute(progress):
        progress["created"] = ["Deployment vdu1"]
        activity.note("create", "Deployment ns1/vdu2")
        raise error

    with pytest.raises(VnfLcmError) as caught:
        run(operation(store, execute=execute), now=lambda: NOW)
    assert caught.value.msg == "Failed to instantiate VNF instance vnf-1: {0} (during: create Deployment ns1/vdu2)".format(words)
    assert [states for _kind, _instance, states, _version in store.writes] == [["PROCESSING"], ["FAILED_TEMP"]]
    assert caught.value.result["progress"]["created"] == ["Deployment vdu1"]
    assert caught.value.result["vnf_lcm_op_occ"]["error"]["detail"] == caught.value.msg


def test_the_record_written_while_running_carries_a_lease_and_the_end_does_not():
    store = LeasedStore()
    run(operation(store), now=lambda: NOW)
    running, done = store.heads
    assert running["operationState"] == "PROCESSING" and running["lease"]["pid"] == os.getpid()
    assert running["lease"]["expiresAt"] == "2026-11-22T05:02:00Z"
    assert done["operationState"] == "COMPLETED" and "lease" not in done


def test_a_failure_that_cannot_be_recorded_says_the_op_occ_stays_running_until_its_lease_expires():
    store = LeasedStore(fail_after=1)

    def execute(progress):
        raise OperationTimeout("Deployment vdu1 to be ready", 5)

    with pytest.raises(OperationTimeout) as caught:
        run(operation(store, execute=execute), now=lambda: NOW)
    assert "could not be recorded FAILED_TEMP (Failed to update Secret vnflcm-vnf-1: the API server could not be reached)" in caught.value.msg
    assert "stays PROCESSING until its lease expires at 2026-11-22T05:02:00Z" in caught.value.msg


def test_a_checkpoint_records_the_progress_with_the_lease():
    store = LeasedStore()

    def execute(progress):
        progress.checkpoint({"id": "vnf-1", "instantiatedVnfInfo": {"metadata": {"stack_id": "s-1"}}})
        return {"id": "vnf-1", "instantiationState": "INSTANTIATED"}

    run(operation(store, execute=execute), now=lambda: NOW)
    assert [head["operationState"] for head in store.heads] == ["PROCESSING", "PROCESSING", "COMPLETED"]
    assert store.instances[1]["instantiatedVnfInfo"]["metadata"]["stack_id"] == "s-1" and "lease" in store.heads[1]


def stale(seconds_ago=600, lease_seconds=120):
    started = NOW - datetime.timedelta(seconds=seconds_ago)
    runner = {"runId": "run-0", "host": "another-host", "pid": 1, "bootId": "x", "pidNamespace": "y", "processStart": "1"}
    return {"id": "occ-0", "operation": "SCALE", "operationState": "PROCESSING", "startTime": "2026-11-21T00:00:00Z",
            "stateEnteredTime": occ_state.format_timestamp(started), "lease": lease.new_lease(runner, started, lease_seconds)}


def test_a_new_operation_records_a_stale_op_occ_failed_temp_and_says_what_to_do():
    store = MemoryStore()
    with pytest.raises(ConflictError) as caught:
        run(operation(store, op_occs=[stale()]), now=lambda: NOW)
    assert "occurrence occ-0 (SCALE) did not end: the lease of run run-0" in caught.value.msg
    assert "it is FAILED_TEMP now: retry, roll back or fail it" in caught.value.msg
    assert [states for _kind, _instance, states, _version in store.writes] == [["FAILED_TEMP"]]


def test_a_live_op_occ_refuses_a_new_operation_and_a_check_mode_run_writes_nothing():
    store = MemoryStore()
    with pytest.raises(ConflictError) as caught:
        run(operation(store, op_occs=[stale(seconds_ago=10)]), now=lambda: NOW)
    assert "holds its lease until" in caught.value.msg and "force: true" in caught.value.msg
    with pytest.raises(ConflictError):
        run(operation(store, op_occs=[stale()]), now=lambda: NOW, check_mode=True)
    assert store.writes == []


def test_a_no_change_run_is_refused_too_while_an_op_occ_is_unfinished():
    store = MemoryStore()
    busy = {"id": "occ-0", "operation": "INSTANTIATE", "operationState": "FAILED_TEMP", "startTime": "2026-11-21T00:00:00Z"}
    with pytest.raises(ConflictError, match="occ-0 is FAILED_TEMP"):
        run(operation(store, op_occs=[busy], changed=False), now=lambda: NOW)


@pytest.mark.parametrize("seconds_ago, force, taken", [(600, False, True), (10, False, False), (10, True, True)])
def test_act_on_a_running_op_occ_takes_it_over_when_its_runner_is_gone_or_when_forced(seconds_ago, force, taken):
    store = MemoryStore()
    found = ({"id": "vnf-1"}, [stale(seconds_ago)], 7)
    if not taken:
        with pytest.raises(ConflictError, match="set force: true to take it over"):
            act_on_op_occ(store, found, None, "fail", None, now=lambda: NOW, force=force)
        assert store.writes == []
        return
    result = act_on_op_occ(store, found, None, "fail", None, now=lambda: NOW, force=force)
    assert [states for _kind, _instance, states, _version in store.writes] == [["FAILED_TEMP"], ["FAILED"]]
    assert result["vnf_lcm_op_occ"]["operationState"] == "FAILED"
    assert ("taken over (force)" in result["vnf_lcm_op_occ"]["error"]["detail"]) is force


@pytest.mark.parametrize("event, ended", [("fail", "FAILED"), ("rollback", "ROLLED_BACK"), ("retry", "COMPLETED")])
def test_the_same_action_again_on_an_ended_op_occ_is_no_change_and_writes_nothing(event, ended):
    store = MemoryStore()
    first = act_on_op_occ(store, ({"id": "vnf-1"}, [stale()], 7), None, "fail", None, now=lambda: NOW)
    done = dict(first["vnf_lcm_op_occ"], operationState=ended)
    store.writes = []
    again = act_on_op_occ(store, ({"id": "vnf-1"}, [done], 9), None, event, lambda failed, found: pytest.fail("nothing to plan"), now=lambda: NOW)
    assert again["changed"] is False and again["vnf_lcm_op_occ"]["operationState"] == ended and store.writes == []


def test_a_taken_over_op_occ_is_retried_from_the_record_the_takeover_wrote():
    store = MemoryStore()
    seen = []

    def plan(failed, found):
        seen.append((failed["operationState"], found[2]))
        return operation(store, op_occs=found[1])

    result = act_on_op_occ(store, ({"id": "vnf-1"}, [stale()], 7), None, "retry", plan, now=lambda: NOW)
    assert seen == [("FAILED_TEMP", 8)] and result["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"


def test_a_run_that_lost_its_lease_stops_without_writing():
    store = LeasedStore()

    def execute(progress):
        progress._keeper.lost = "another run wrote the record meanwhile"
        raise KeyboardInterrupt()

    with pytest.raises(LeaseLost, match="this run stopped, recording nothing more: another run wrote the record meanwhile"):
        run(operation(store, execute=execute), now=lambda: NOW)
    assert [head["operationState"] for head in store.heads] == ["PROCESSING"]


class LeasedStore(RecordStore):
    """Keeps the op occ heads and instances written; ``fail_after`` writes, it fails like an unreachable VIM."""

    def __init__(self, fail_after=None):
        self.heads, self.instances = [], []
        self.fail_after = fail_after
        self.fail_with = None

    def save(self, instance, op_occs, version):
        if self.fail_with is not None:
            raise self.fail_with
        if self.fail_after is not None and len(self.heads) >= self.fail_after:
            raise VimError("update", "Secret vnflcm-vnf-1", "the API server could not be reached")
        self.heads.append(op_occs[0])
        self.instances.append(instance)
        return (version or 0) + 1

    def delete(self, instance, version):
        pass


def test_a_run_whose_record_was_taken_over_stops_at_its_next_write():
    store = LeasedStore()

    def execute(progress):
        store.fail_with = ConflictError("update", "Secret vnflcm-vnf-1", "the object has been modified")
        progress.checkpoint({"id": "vnf-1"})

    with pytest.raises(LeaseLost) as caught:
        run(operation(store, execute=execute), now=lambda: NOW)
    assert "this run stopped, recording nothing more: another run wrote the record meanwhile" in caught.value.msg
    assert [head["operationState"] for head in store.heads] == ["PROCESSING"]


def test_the_settings_come_from_the_module_options_and_the_signal_block_they_run_in(tmp_path):
    from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
    from ansible_collections.nfv.vnflcm.plugins.module_utils.common.signals import interrupted_by_signals
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Settings, settings_of

    hook = tmp_path / "scale_end.yml"
    hook.write_text("[]\n")
    assert settings_of({}) == Settings()
    with interrupted_by_signals() as interrupt:
        settings = settings_of({"lease_seconds": 30, "wait_timeout": 90, "end_hook": str(hook), "end_hook_vars": {"k": "v"}})
    assert settings == Settings(30, 90, {"name": "scale_end.yml", "tasks": "[]\n", "variables": {"k": "v"}}, interrupt)
    assert settings_of({}).interrupt is None
    with pytest.raises(ValidationError, match="end_hook: cannot read the task file"):
        settings_of({"end_hook": str(tmp_path / "missing.yml")})
