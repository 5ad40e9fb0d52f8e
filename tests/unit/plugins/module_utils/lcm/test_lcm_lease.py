# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Leases of running op occs: who runs it, until when, and how a later run tells a live runner from a gone one."""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
import threading

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.common import runner
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import lease

NOW = datetime.datetime(2026, 11, 22, 5, 0, 0, tzinfo=datetime.timezone.utc)
RUNNER = {"runId": "run-1", "host": "elsewhere", "pid": 4242, "bootId": "b", "pidNamespace": "pid:[1]", "processStart": "7"}


def running(seconds=60, **changes):
    return dict({"id": "occ-1", "operation": "INSTANTIATE", "operationState": "PROCESSING", "stateEnteredTime": "2026-11-22T05:00:00Z",
                 "lease": lease.new_lease(RUNNER, NOW, seconds)}, **changes)


def test_a_new_lease_names_the_runner_and_expires_after_its_seconds():
    made = lease.new_lease(RUNNER, NOW, 90)
    assert made["runId"] == "run-1" and made["host"] == "elsewhere" and made["pid"] == 4242
    assert made["startedAt"] == made["renewedAt"] == "2026-11-22T05:00:00Z" and made["expiresAt"] == "2026-11-22T05:01:30Z"
    later = lease.renewed(made, NOW + datetime.timedelta(seconds=30))
    assert later["startedAt"] == "2026-11-22T05:00:00Z" and later["expiresAt"] == "2026-11-22T05:02:00Z"


def never(_lease):
    """A runner on another machine: whether it runs cannot be told from here."""
    return None


def gone(_lease):
    """A runner of this machine whose process has exited."""
    return True


def test_status_live_then_expired_and_gone():
    occ = running(60)
    assert lease.lease_status(occ, NOW + datetime.timedelta(seconds=59), never)[0] == lease.LIVE
    status, reason = lease.lease_status(occ, NOW + datetime.timedelta(seconds=60), never)
    assert status == lease.EXPIRED and "expired at 2026-11-22T05:01:00Z" in reason and "process 4242 on elsewhere" in reason
    status, reason = lease.lease_status(occ, NOW, gone)
    assert status == lease.GONE and "has exited" in reason
    assert lease.lease_status(dict(occ, operationState="FAILED_TEMP"), NOW) == (None, None)
    # Written by an older version: no lease, so nobody can be finishing it.
    assert lease.lease_status({"id": "x", "operationState": "PROCESSING"}, NOW)[0] == lease.EXPIRED


def test_with_status_annotates_a_running_op_occ_only():
    shown = lease.with_status(running(60), NOW, never)
    assert shown["lease"]["status"] == "live" and "holds its lease until" in shown["lease"]["statusReason"]
    done = {"id": "y", "operationState": "COMPLETED"}
    assert lease.with_status(done, NOW) is done


def test_abandoned_is_failed_temp_with_the_reason_and_without_the_lease():
    failed = lease.abandoned(running(), NOW, "the lease of run run-1 expired")
    assert failed["operationState"] == "FAILED_TEMP" and "lease" not in failed
    assert "INSTANTIATE did not end: the lease of run run-1 expired" in failed["error"]["detail"]
    assert "nfv.vnflcm.vnf_lcm_op_occ" in failed["error"]["detail"]


def test_this_process_is_alive_and_an_exited_one_is_gone():
    me = lease.this_runner()
    assert me["pid"] == os.getpid() and me["processStart"] and len(me["runId"]) == 36
    assert lease.runner_is_gone(me) is False
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert lease.runner_is_gone(dict(me, pid=child.pid, processStart=runner.process_start(os.getpid()))) is True
    # A pid that was reused by another process is not the runner: its start time differs.
    assert lease.runner_is_gone(dict(me, processStart="1")) is True
    # Another machine: only the expiry can tell.
    assert lease.runner_is_gone(dict(me, host="elsewhere")) is None


class Store(RecordStore):
    def __init__(self):
        self.writes = []
        self.fail_with = None

    def save(self, instance, op_occs, version):
        if self.fail_with:
            raise self.fail_with
        self.writes.append([dict(item) for item in op_occs])
        return (version or 0) + 1


def test_the_keeper_writes_the_lease_keeps_it_while_running_and_drops_it_at_the_end():
    store = Store()
    keeper = lease.LeaseKeeper(store, None, 60, now=lambda: NOW, runner=RUNNER)
    keeper.start({"id": "vnf"}, [{"id": "occ-1", "operationState": "PROCESSING"}, {"id": "occ-0", "operationState": "COMPLETED"}])
    assert store.writes[0][0]["lease"]["expiresAt"] == "2026-11-22T05:01:00Z" and "lease" not in store.writes[0][1]
    keeper.checkpoint({"id": "vnf", "more": 1})
    assert store.writes[1][0]["lease"] == store.writes[0][0]["lease"]
    keeper.save({"id": "vnf"}, [{"id": "occ-1", "operationState": "PROCESSING"}])
    assert "lease" in store.writes[2][0]
    keeper.save({"id": "vnf"}, [{"id": "occ-1", "operationState": "COMPLETED", "lease": {"x": 1}}])
    assert "lease" not in store.writes[3][0] and keeper.version == 4


def test_the_keeper_renews_in_the_background_and_stops_the_run_when_another_run_took_over():
    store = Store()
    clock = [NOW]
    stopped = threading.Event()
    reasons = []

    def interrupt(reason):
        reasons.append(reason)
        stopped.set()

    keeper = lease.LeaseKeeper(store, None, 3, now=lambda: clock[0], interrupt=interrupt, runner=RUNNER)
    keeper.start({"id": "vnf"}, [{"id": "occ-1", "operationState": "PROCESSING"}])
    clock[0] = NOW + datetime.timedelta(seconds=1)
    deadline = threading.Event()
    for _attempt in range(40):
        if keeper.renewals:
            break
        deadline.wait(0.1)
    assert keeper.renewals >= 1 and store.writes[-1][0]["lease"]["expiresAt"] == "2026-11-22T05:00:04Z"
    store.fail_with = ConflictError("update", "Secret vnflcm-x", "the object has been modified")
    assert stopped.wait(5), "the keeper did not stop the run"
    keeper.stop()
    assert "another run wrote the record" in reasons[0] and keeper.lost
    with pytest.raises(lease.LeaseLost):
        keeper.save({"id": "vnf"}, [{"id": "occ-1", "operationState": "FAILED_TEMP"}])


def test_a_renewal_that_keeps_failing_gives_up_before_the_lease_runs_out():
    store = Store()
    keeper = lease.LeaseKeeper(store, None, 60, now=lambda: NOW, interrupt=lambda reason: None, runner=RUNNER)
    keeper.start({"id": "vnf"}, [{"id": "occ-1", "operationState": "PROCESSING"}])
    store.fail_with = OSError("connection reset")
    assert keeper._renew() is False and keeper.lost is None  # plenty of time left: try again later
    keeper.now = lambda: NOW + datetime.timedelta(seconds=45)
    assert keeper._renew() is True and "could not be renewed before it expired: connection reset" in keeper.lost


def test_a_released_lease_is_renewed_no_more():
    # Heat: the record goes with the stack that terminate deletes; a renewal while Heat deletes it would fail.
    store = Store()
    reasons = []
    keeper = lease.LeaseKeeper(store, None, 3, now=lambda: NOW, interrupt=reasons.append, runner=RUNNER)
    keeper.start({"id": "vnf"}, [{"id": "occ-1", "operationState": "PROCESSING"}])
    keeper.release()
    store.fail_with = OSError("The Stack could not be found")
    threading.Event().wait(1.5)  # longer than one renewal interval (1 s for a 3 s lease)
    assert keeper.renewals == 0 and not reasons and keeper.lost is None


class LossyStore(RecordStore):
    """A record store whose next write goes through but loses its answer, as over a connection that dropped."""

    def __init__(self):
        self.record = None
        self.version = 0
        self.lose_answer = False

    def save(self, instance, op_occs, version):
        if version != (self.version or None):
            raise ConflictError("update", "Secret vnflcm-x", "the object has been modified")
        self.version += 1
        self.record = Found(instance, [dict(item) for item in op_occs], self.version)
        if self.lose_answer:
            self.lose_answer = False
            raise OSError("connection reset")
        return self.version

    def find(self, instance_id=None, name=None):
        return self.record


def test_a_write_whose_answer_was_lost_is_not_taken_for_another_runs():
    store = LossyStore()
    keeper = lease.LeaseKeeper(store, None, 60, now=lambda: NOW, interrupt=lambda reason: None, runner=RUNNER)
    keeper.start({"id": "vnf"}, [{"id": "occ-1", "operationState": "PROCESSING"}])
    store.lose_answer = True
    keeper.now = lambda: NOW + datetime.timedelta(seconds=20)
    assert keeper._renew() is False and keeper.lost is None  # went through; this run cannot tell yet
    keeper.checkpoint({"id": "vnf", "more": 1})
    assert keeper.lost is None and keeper.version == 3 and store.record.instance == {"id": "vnf", "more": 1}
    # A takeover after a write of this run whose answer was lost: the record has the other run's lease, so it is one.
    store.lose_answer = True
    with pytest.raises(OSError):
        keeper.checkpoint({"id": "vnf", "more": 2})
    store.record = Found({"id": "vnf"}, [running(lease=lease.new_lease(dict(RUNNER, runId="run-2"), NOW, 60))], 5)
    store.version = 5
    with pytest.raises(lease.LeaseLost):
        keeper.checkpoint({"id": "vnf", "more": 3})
    assert "another run wrote the record" in keeper.lost
