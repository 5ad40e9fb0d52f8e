# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The nfv.vnflcm.vnfc_watcher event source without a cluster: options, op occs that hold it back, the loop's events."""

from __future__ import annotations

import asyncio
import datetime
import time

import pytest

from ansible_collections.nfv.vnflcm.extensions.eda.plugins.event_source import vnfc_watcher
from ansible_collections.nfv.vnflcm.plugins.module_utils.eda.gather import Gatherer, Pump
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.vnfc_faults import FaultTracker
from ansible_collections.nfv.vnflcm.tests.unit.plugins.module_utils.k8s.test_k8s_vnfc_faults import instance, pod

NOW = datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)


class TestOptions:
    def test_defaults_and_connection_options(self):
        opts, connection = vnfc_watcher.options({"namespace": "cnf", "kubeconfig": "/k", "context": "lab"})
        assert (opts["namespace"], opts["grace_period"], opts["heal_window"]) == ("cnf", 60, 30)
        assert connection == {"kubeconfig": "/k", "context": "lab"}
        # Drift is not read unless asked; a rulebook's templated number is taken.
        assert opts["drift_interval"] == 0 and vnfc_watcher.options({"drift_interval": "60"})[0]["drift_interval"] == 60

    @pytest.mark.parametrize("args", [
        {"namespace": "a", "namespaces": ["b"]}, {"namespaces": "a"}, {"namespaces": [""]}, {"grace_period": -1},
        {"heal_window": "x"}, {"colour": "red"}, {"all_namespaces": True, "namespace": "a"}, {"drift_interval": -5},
        {"drift_interval": 60, "cloud": "mycloud"},
    ])
    def test_bad(self, args):
        with pytest.raises(ValueError):
            vnfc_watcher.options(args)

    def test_namespaces_to_watch(self):
        assert vnfc_watcher.namespaces_to_watch(vnfc_watcher.options({"namespaces": ["b", "a", "b"]})[0], "ctx") == ["a", "b"]
        assert vnfc_watcher.namespaces_to_watch(vnfc_watcher.options({})[0], "ctx") == ["ctx"]
        assert vnfc_watcher.namespaces_to_watch(vnfc_watcher.options({})[0], None) == ["default"]
        assert vnfc_watcher.namespaces_to_watch(vnfc_watcher.options({"all_namespaces": True})[0], None) == [None]


class TestOperationRunning:
    def lease(self, expires, host="elsewhere"):
        return {"runId": "r", "host": host, "pid": 1, "bootId": "b", "pidNamespace": "p", "processStart": "1", "seconds": 120,
                "startedAt": "2026-01-02T03:00:00Z", "renewedAt": "2026-01-02T03:00:00Z", "expiresAt": expires}

    def test_states(self):
        assert not vnfc_watcher.operation_running([], NOW)
        assert not vnfc_watcher.operation_running([{"operationState": "COMPLETED"}, {"operationState": "FAILED_TEMP"}], NOW)
        assert vnfc_watcher.operation_running([{"operationState": "STARTING"}], NOW)
        assert vnfc_watcher.operation_running([{"operationState": "PROCESSING", "lease": self.lease("2026-01-02T03:10:00Z")}], NOW)

    def test_a_run_that_is_gone_does_not_hold_it_back(self):
        # Expired lease, or none: the playbook takes the op occ over.
        assert not vnfc_watcher.operation_running([{"operationState": "PROCESSING", "lease": self.lease("2026-01-02T03:04:00Z")}], NOW)
        assert not vnfc_watcher.operation_running([{"operationState": "ROLLING_BACK"}], NOW)


class FakeWatcher:
    """What watch_loop uses of a Watcher, over fixed records and pods."""

    def __init__(self, records, pods, confirm=True):
        self.tracker = FaultTracker(grace_period=0.2)
        self.records, self.pods, self.answer, self.confirmed = records, pods, confirm, []

    def synced(self):
        return True

    def candidates(self, now, wall_now):
        return self.tracker.candidates([(record, []) for record in self.records], self.pods, lambda op_occs: False, now, wall_now)

    def confirm(self, fault):
        self.confirmed.append(fault["vnfc_info_id"])
        return self.answer


async def run_until(tasks, queue, done, settle, timeout=30.0):
    """Let ``tasks`` run until ``done(queue)`` (a busy machine is slow to get there), then ``settle`` seconds more, in which
    an extra event would show; returns the events."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not done(queue) and loop.time() < deadline:
        await asyncio.sleep(0.05)
    await asyncio.sleep(settle)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    events = []
    while not queue.empty():
        events.append(queue.get_nowait())
    return events


def run_loop(watcher, done):
    async def scenario():
        queue = asyncio.Queue()
        pump = Pump(Gatherer("watcher", heal_window=0.6), queue)
        wake = asyncio.Event()
        tasks = [asyncio.ensure_future(pump.run()), asyncio.ensure_future(vnfc_watcher.watch_loop(watcher, pump, wake))]
        wake.set()
        return await run_until(tasks, queue, done, settle=0.8)
    return asyncio.run(scenario())


def test_one_event_per_vnf_for_its_failed_vnfcs():
    watcher = FakeWatcher([instance("vnf-1"), instance("vnf-2", pods=[("c", "uid-c")])], [pod("c", "uid-c"), pod("b", "uid-b", ready=False)])
    [event] = run_loop(watcher, lambda queue: not queue.empty())
    body = event["nfv_vnflcm"]
    assert (body["function_type"], body["vnf_instance_id"], body["vnfc_info_ids"], body["source"]) == (
        "auto_heal", "vnf-1", ["VDU1-uid-a", "VDU1-uid-b"], "watcher")
    assert [alert["labels"]["reason"] for alert in body["alerts"]] == ["deleted", "not ready"]
    assert body["alerts"][0] == {"fingerprint": "watcher:uid-a:deleted", "startsAt": body["first_alert_at"], "labels": {
        "vnf_instance_id": "vnf-1", "vnfc_info_id": "VDU1-uid-a", "namespace": "cnf", "pod": "pod-a", "pod_uid": "uid-a", "reason": "deleted"}}
    # Reported once: the loop looked again many times.
    assert watcher.confirmed.count("VDU1-uid-a") == 1


def test_nothing_when_the_fresh_reads_disagree():
    watcher = FakeWatcher([instance()], [pod("b", "uid-b")], confirm=False)
    assert run_loop(watcher, lambda queue: watcher.confirmed) == []
    assert len(watcher.confirmed) >= 1


class FakePoller:
    """What poll_loop uses of a ServerPoller, over fixed records and server statuses."""

    def __init__(self, records, statuses, fail_first=False):
        from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.vnfc_faults import ServerFaultTracker
        self.tracker = ServerFaultTracker()
        self.records, self.statuses, self.fail_first, self.polls = records, statuses, fail_first, 0

    def candidates(self, wall_now):
        self.polls += 1
        if self.fail_first and self.polls == 1:
            raise ConnectionError("keystone unreachable")
        return self.tracker.candidates([(record, [], 1) for record in self.records], self.statuses, lambda op_occs: False, wall_now)

    def confirm(self, fault):
        return True


def run_poll(poller, done):
    async def scenario():
        queue = asyncio.Queue()
        pump = Pump(Gatherer("watcher", heal_window=0.3), queue)
        tasks = [asyncio.ensure_future(pump.run()), asyncio.ensure_future(vnfc_watcher.poll_loop(poller, pump, 0.1, max_backoff=0.1))]
        return await run_until(tasks, queue, done, settle=0.5)
    return asyncio.run(scenario())


def test_openstack_one_event_for_the_failed_servers_of_a_vnf_after_a_failed_poll():
    from ansible_collections.nfv.vnflcm.tests.unit.plugins.module_utils.heat.test_heat_vnfc_faults import vm_instance
    poller = FakePoller([vm_instance()], {"s1": "ERROR", "s2": "SHUTOFF"}, fail_first=True)
    [event] = run_poll(poller, lambda queue: not queue.empty() and poller.polls > 2)
    body = event["nfv_vnflcm"]
    assert (body["vnf_instance_id"], body["vnfc_info_ids"], body["source"]) == ("vnf-1", ["VDU1-s1", "VDU1-s2"], "watcher")
    assert body["alerts"][0]["labels"] == {"vnf_instance_id": "vnf-1", "vnfc_info_id": "VDU1-s1", "server_id": "s1", "reason": "error"}
    assert poller.polls > 2


def test_openstack_options():
    opts, connection = vnfc_watcher.options({"cloud": "lab", "interval": "10"})
    assert (opts["vim_type"], opts["interval"], connection) == ("openstack", 10.0, {"cloud": "lab"})
    with pytest.raises(ValueError):
        vnfc_watcher.options({"vim_type": "openstack", "kubeconfig": "/k"})
    with pytest.raises(ValueError):
        vnfc_watcher.options({"vim_type": "openstack", "namespace": "a"})
    with pytest.raises(ValueError):
        vnfc_watcher.options({"vim_type": "vmware"})


def test_numbers_given_as_text():
    assert vnfc_watcher.options({"grace_period": "5", "heal_window": "2.5"})[0]["grace_period"] == 5.0


class FakeApiClient:
    def sanitize_for_serialization(self, obj):
        return obj


class BreakingWatch:
    """kubernetes.watch.Watch stand-in: each stream yields the planned events, then breaks (or ends)."""

    plans = []
    streams = []

    def __init__(self):
        self.stopped = False

    def stream(self, list_call, **kwargs):
        BreakingWatch.streams.append(kwargs["resource_version"])
        events, error = BreakingWatch.plans.pop(0) if BreakingWatch.plans else ([], None)
        yield from events
        if error is not None:
            raise error

    def stop(self):
        self.stopped = True


def test_follower_lists_again_when_the_watch_breaks(monkeypatch):
    import threading
    import kubernetes.watch
    from kubernetes.client.rest import ApiException

    listings = []
    changed = threading.Event()

    def list_call(**kwargs):
        listings.append(kwargs)
        if len(listings) == 2:
            raise ConnectionError("API server restarting")
        return {"metadata": {"resourceVersion": str(len(listings))}, "items": [pod("a", "uid-a")] if len(listings) == 1 else []}

    pod_b = pod("b", "uid-b")
    BreakingWatch.plans = [([{"type": "ADDED", "raw_object": pod_b}], ConnectionError("watch broken")),
                           ([{"type": "DELETED", "raw_object": pod_b}], ApiException(status=410, reason="Gone"))]
    BreakingWatch.streams = []
    monkeypatch.setattr(kubernetes.watch, "Watch", BreakingWatch)
    follower = vnfc_watcher.Follower("pods in cnf", list_call, {"namespace": "cnf"}, key=vnfc_watcher._uid_of, transform=lambda obj: obj,
                                     changed=changed.set, watch_timeout=5, max_backoff=0.05, api_client=FakeApiClient())
    follower.start()
    try:
        deadline = time.monotonic() + 10
        while len(listings) < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        follower.stop()
        follower.thread.join(5)
    # listed (pod a), watched (pod b added), broke; listing failed, backed off (bounded), listed again (nothing), watched
    # (pod b deleted), 410: listed again at once.
    assert len(listings) >= 4 and BreakingWatch.streams[:2] == ["1", "3"]
    assert all(call == {"namespace": "cnf", "_request_timeout": 60} for call in listings)
    assert follower.synced and changed.is_set()
    assert not follower.thread.is_alive()


def test_the_vim_follows_the_modules_rule_without_the_environment(monkeypatch):
    monkeypatch.setenv("OS_CLOUD", "lab")
    assert vnfc_watcher.options({"namespace": "a"})[0]["vim_type"] == "kubernetes"
    assert vnfc_watcher.options({"region_name": "RegionOne", "cloud": "lab"})[0]["vim_type"] == "openstack"
    with pytest.raises(ValueError, match="the VIM is ambiguous: Kubernetes options \\(kubeconfig\\) and OpenStack options \\(cloud\\)"):
        vnfc_watcher.options({"kubeconfig": "/k", "cloud": "lab"})
