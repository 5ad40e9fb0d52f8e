# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The waiters read once, then follow a watch; a watch that breaks falls back to a GET, all within one deadline."""

from __future__ import annotations

import copy

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.deadline import Deadline
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import OperationTimeout
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.api import WatchBroken
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.waiter import DeletionStalled, wait_deleted, wait_gone, wait_ready
from ansible_collections.nfv.vnflcm.tests.unit.fake_clock import FakeClock

NS = "tenant-a"


class FakeApi:
    """Live objects by name. Each watch plays the next script of ``watches``, step by step: ``(type, obj)`` is an event
    (the object becomes what it says), ``("SET", obj)`` a change no event tells, a number seconds going by, an exception
    the watch breaking; a script that runs out ends at the watch's timeout."""

    def __init__(self, clock, *objects, watches=()):
        self.clock = clock
        self.live = {obj["metadata"]["name"]: obj for obj in objects}
        self.watches = list(watches)
        self.gets, self.watched = 0, []

    def get(self, api_version, kind, name, namespace=None):
        self.gets += 1
        return copy.deepcopy(self.live.get(name))

    def watch(self, api_version, kind, namespace=None, name=None, label_selector=None, resource_version=None, timeout_seconds=60):
        self.watched.append((name, resource_version, timeout_seconds))
        started = self.clock()
        for step in self.watches.pop(0) if self.watches else []:
            if isinstance(step, Exception):
                raise step
            if isinstance(step, (int, float)):
                self.clock.sleep(step)
                continue
            change, obj = step
            if change == "DELETED":
                self.live.pop(obj["metadata"]["name"], None)
            else:
                self.live[obj["metadata"]["name"]] = obj
            if change != "SET":
                yield change, copy.deepcopy(obj)
        self.clock.sleep(max(0.0, timeout_seconds - (self.clock() - started)))


def deployment(version, ready=False, finalizers=None, deleting=False):
    replicas = 2
    status = {"observedGeneration": 1, "replicas": replicas, "updatedReplicas": replicas, "availableReplicas": replicas if ready else 0}
    meta = {"name": "vdu1", "namespace": NS, "generation": 1, "resourceVersion": str(version)}
    if finalizers:
        meta["finalizers"] = list(finalizers)
    if deleting:
        meta["deletionTimestamp"] = "2026-11-26T12:00:00Z"
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta, "spec": {"replicas": replicas}, "status": status}


REF = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "vdu1", "namespace": NS}}


def deadline(clock, seconds=60, sleep=1):
    return Deadline(seconds, sleep, clock=clock, sleeper=clock.sleep)


def test_an_object_ready_at_once_is_read_once_and_not_watched():
    clock = FakeClock()
    api = FakeApi(clock, deployment(1, ready=True))
    assert wait_ready(api, [REF], deadline(clock))[0]["metadata"]["resourceVersion"] == "1"
    assert api.gets == 1 and api.watched == [] and clock.now == 0


def test_the_wait_ends_on_the_event_that_makes_the_object_ready_without_sleeping():
    clock = FakeClock()
    api = FakeApi(clock, deployment(1), watches=[[0.3, ("MODIFIED", deployment(2)), 0.2, ("MODIFIED", deployment(3, ready=True))]])
    live = wait_ready(api, [REF], deadline(clock))
    assert live[0]["metadata"]["resourceVersion"] == "3" and is_ready_now(live[0])
    # Watched from the version just read, for no longer than the deadline leaves; ended at the event, not a poll later.
    assert api.watched == [("vdu1", "1", 60.0)] and api.gets == 1 and clock.now == pytest.approx(0.5)


def is_ready_now(live):
    return live["status"]["availableReplicas"] == live["spec"]["replicas"]


def test_a_dropped_watch_falls_back_to_a_get_after_one_poll_interval_which_finds_it_ready():
    clock = FakeClock()
    api = FakeApi(clock, deployment(1), watches=[[2, ("SET", deployment(2, ready=True)), WatchBroken("ProtocolError: connection reset")]])
    live = wait_ready(api, [REF], deadline(clock, sleep=1))
    assert live[0]["metadata"]["resourceVersion"] == "2"
    assert api.gets == 2 and len(api.watched) == 1 and clock.now == 3


def test_a_dropped_watch_not_yet_done_is_watched_again_from_the_version_read_after_it():
    clock = FakeClock()
    api = FakeApi(clock, deployment(1), watches=[[("SET", deployment(4)), WatchBroken("ProtocolError: connection reset")],
                                                 [("MODIFIED", deployment(5, ready=True))]])
    wait_ready(api, [REF], deadline(clock))
    assert [version for _name, version, _seconds in api.watched] == ["1", "4"] and api.gets == 2


def test_an_expired_resource_version_is_read_again_at_once_and_watched_from_the_new_one():
    clock = FakeClock()
    api = FakeApi(clock, deployment(1), watches=[[("SET", deployment(7)), WatchBroken("too old resource version", expired=True)],
                                                 [("MODIFIED", deployment(8, ready=True))]])
    wait_ready(api, [REF], deadline(clock))
    assert [version for _name, version, _seconds in api.watched] == ["1", "7"] and api.gets == 2 and clock.now == 0


def test_the_deadline_reached_during_a_watch_times_out_as_the_poll_did():
    clock = FakeClock()
    api = FakeApi(clock, deployment(1), watches=[[4, ("MODIFIED", deployment(2))]])
    with pytest.raises(OperationTimeout) as timed_out:
        wait_ready(api, [REF], deadline(clock, seconds=10), result={"done": "so far"})
    polled_clock = FakeClock()
    with pytest.raises(OperationTimeout) as polled:
        deadline(polled_clock, seconds=10).poll(lambda: None, "Deployment vdu1 to be ready", {"done": "so far"})
    assert timed_out.value.msg == polled.value.msg == "Failed to wait for Deployment vdu1 to be ready: timed out after 10s"
    assert timed_out.value.result == {"done": "so far"}
    # One watch for the whole deadline; a last GET when it ended.
    assert api.watched == [("vdu1", "1", 10.0)] and api.gets == 2 and clock.now == 10


def test_a_watch_refused_again_and_again_polls_every_wait_sleep_within_the_deadline():
    clock = FakeClock()
    refused = WatchBroken('deployments.apps "vdu1" is forbidden: cannot watch (HTTP 403)')
    api = FakeApi(clock, deployment(1), watches=[[refused]] * 100)
    with pytest.raises(OperationTimeout, match="timed out after 5s"):
        wait_ready(api, [REF], deadline(clock, seconds=5, sleep=1))
    assert len(api.watched) == 5 and api.gets == 6 and clock.now == 5


def test_a_deletion_ends_on_the_deleted_event():
    clock = FakeClock()
    api = FakeApi(clock, deployment(1), watches=[[1.5, ("DELETED", deployment(2))]])
    wait_gone(api, [REF], deadline(clock))
    assert api.gets == 1 and clock.now == 1.5
    api = FakeApi(clock, deployment(1, deleting=True), watches=[[("MODIFIED", deployment(2, deleting=True))], [("DELETED", deployment(2))]])
    wait_deleted(api, [REF], deadline(clock))
    # A GET, a watch from there until it ends (a change is not the end), a GET again and a watch until the DELETED event.
    assert api.gets == 2 and len(api.watched) == 2


def test_an_object_already_gone_is_not_watched():
    clock = FakeClock()
    api = FakeApi(clock)
    wait_gone(api, [REF], deadline(clock))
    wait_deleted(api, [REF], deadline(clock))
    assert api.watched == [] and api.gets == 2


def test_a_deletion_held_by_a_finalizer_is_still_named_after_the_no_progress_window_and_a_change_restarts_it():
    clock = FakeClock()
    held = deployment(1, finalizers=["example.com/hold"], deleting=True)
    api = FakeApi(clock, held)
    with pytest.raises(DeletionStalled, match="no progress for 30 s: Deployment vdu1 is being deleted, held by finalizers example.com/hold"):
        wait_deleted(api, [REF], deadline(clock, seconds=600), no_progress_seconds=30, clock=clock)
    assert 30 <= clock.now < 31 and all(seconds <= 30 for _name, _version, seconds in api.watched)

    clock = FakeClock()
    api = FakeApi(clock, held, watches=[[20, ("MODIFIED", deployment(2, finalizers=["example.com/hold"], deleting=True))]])
    with pytest.raises(DeletionStalled):
        wait_deleted(api, [REF], deadline(clock, seconds=600), no_progress_seconds=30, clock=clock)
    # The change restarts the window; the watch after the first one lasts what is left of it.
    assert 50 <= clock.now < 51 and [seconds for _name, _version, seconds in api.watched] == [30, 20]


class FakeKind:
    """Objects of one kind in one namespace: LIST with the list's resourceVersion, and one watch that plays ``script``
    (``(type, name)`` events, numbers as seconds going by)."""

    def __init__(self, clock, names, script):
        self.clock, self.script = clock, list(script)
        self.live = {name: config_map(name, 1) for name in names}
        self.lists, self.gets, self.watched = 0, 0, []

    def listing(self, api_version, kind, namespace=None, label_selector=None):
        self.lists += 1
        return [copy.deepcopy(obj) for obj in self.live.values()], "100"

    def get(self, api_version, kind, name, namespace=None):
        self.gets += 1
        return copy.deepcopy(self.live.get(name))

    def watch(self, api_version, kind, namespace=None, name=None, label_selector=None, resource_version=None, timeout_seconds=60):
        self.watched.append((name, resource_version))
        while self.script:
            step = self.script.pop(0)
            if isinstance(step, (int, float)):
                self.clock.sleep(step)
                continue
            change, what = step
            obj = self.live.pop(what) if change == "DELETED" else config_map(what, 2)
            yield change, copy.deepcopy(obj)


def config_map(name, version):
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "namespace": NS, "resourceVersion": str(version)}}


def test_many_objects_of_a_kind_are_listed_once_and_watched_once_until_the_last_is_gone():
    clock = FakeClock()
    names = ["cm{0}".format(index) for index in range(50)]
    other = ("ADDED", "not-ours")
    api = FakeKind(clock, names, [other] + [("DELETED", name) for name in names[:25]] + [0.5] + [("DELETED", name) for name in names[25:]])
    wait_deleted(api, [config_map(name, 1) for name in names], deadline(clock))
    # One LIST, one watch from its resourceVersion: no GET per object, none after each change.
    assert api.lists == 1 and api.gets == 0 and api.watched == [(None, "100")] and clock.now == 0.5
