# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The shared op-occ lifecycle: plan only in check mode, PROCESSING before acting, FAILED_TEMP with the partial result."""

from __future__ import annotations

import datetime
import json

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, NotFoundError, OperationTimeout
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation, RecordStore, fail, find_op_occ, run

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
        progress["delete_record"] = True
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
