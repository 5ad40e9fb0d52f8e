# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Operations that do not end normally, on the Kubernetes lab: the module process killed, stopped or
signalled, its connection to the apiserver cut or lost, the apiserver restarted. Each ends in a state a
documented module call recovers from (vnf_lcm_op_occ retry / rollback / fail, vnf_terminate), with
nothing labelled left behind.

An operation is held at a known point by a quota of no pods: it has written its objects and waits
for the workload's pods, which cannot come until the quota goes.
"""

from __future__ import annotations

import calendar
import signal
import threading
import time

import pytest

from labk8s.audit import summarize
from labk8s.cluster import ADMIN_USER

from ansible_collections.nfv.vnflcm.tests.integration.faults import TcpProxy, kubeconfig_via
from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_faults import (
    CONFIG_MAPS,
    block_pods,
    head,
    instantiate_request,
    kill_runner,
    make_package,
    owned,
    record,
    running_op_occ,
    signal_runner,
    unblock_pods,
    wait_for,
)

ALL_OBJECTS = CONFIG_MAPS + 1


@pytest.fixture
def package(tacker_packages, tmp_path):
    import os
    return make_package(os.path.join(tacker_packages, "test_cnf_multi_ns"), str(tmp_path / "pkg"))


@pytest.fixture
def cnf(k8s_lab, k8s_namespace, package):
    """Module arguments for one CNF of the package in the test's namespace."""
    auth = {"kubeconfig": str(k8s_lab.kubeconfig), "wait_timeout": 120, "wait_sleep": 1}
    return {"auth": auth, "where": dict(auth, namespace=k8s_namespace, vnf_instance_name="cnf"),
            "instantiate": dict(auth, package=package, vnf_instance_name="cnf", request=instantiate_request(k8s_namespace))}


def held_instantiate(ansible_task, kube, namespace, args):
    """An instantiate started in the background and held waiting for pods: ``(task, its running op occ)``."""
    block_pods(kube, namespace)
    task = ansible_task("vnf_instantiate", args, background=True)
    occ = running_op_occ(kube, namespace, also=lambda: owned(kube, namespace).get("deployments"))
    return task, occ


def test_a_killed_instantiate_is_seen_gone_and_retried(ansible_task, kube, cnf, k8s_namespace):
    ns = k8s_namespace
    task, occ = held_instantiate(ansible_task, kube, ns, cnf["instantiate"])
    pid = kill_runner(occ)
    killed = task.wait()
    assert killed["failed"] and killed.get("rc") == -9 or "Killed" in str(killed), killed

    # The record still says PROCESSING; vnf_info tells that its runner is gone.
    info = ansible_task("vnf_info", {"kubeconfig": cnf["auth"]["kubeconfig"], "namespace": ns})
    lease = info["vnf_lcm_op_occs"][0]["lease"]
    assert info["vnf_lcm_op_occs"][0]["operationState"] == "PROCESSING" and lease["pid"] == pid
    assert lease["status"] == "runner gone" and "has exited" in lease["statusReason"]
    # A new operation records it FAILED_TEMP on the way and says what to do.
    refused = ansible_task("vnf_terminate", cnf["where"])
    assert refused["failed"] and "did not end" in refused["msg"] and "it is FAILED_TEMP now: retry, roll back or fail it" in refused["msg"]
    assert head(kube, ns)["operationState"] == "FAILED_TEMP" and "lease" not in head(kube, ns)

    unblock_pods(kube, ns)
    retried = ansible_task("vnf_lcm_op_occ", dict(cnf["where"], action="retry", package=cnf["instantiate"]["package"]))
    assert not retried.get("failed"), retried.get("msg")
    assert retried["vnf_lcm_op_occ"]["id"] == occ["id"] and retried["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    assert len(owned(kube, ns)["configmaps"]) == CONFIG_MAPS and len(retried["vnf_instance"]["instantiatedVnfInfo"]["vnfcResourceInfo"]) == 1

    gone = ansible_task("vnf_terminate", cnf["where"])
    assert not gone.get("failed"), gone.get("msg")
    wait_for(lambda: owned(kube, ns) == {}, "nothing labelled left", timeout=60, sleep=0.5)


def test_a_killed_instantiate_is_rolled_back_without_its_package_or_failed_and_cleaned_by_terminate(ansible_task, kube, cnf, k8s_namespace):
    ns = k8s_namespace
    task, occ = held_instantiate(ansible_task, kube, ns, cnf["instantiate"])
    kill_runner(occ)
    task.wait()
    rolled = ansible_task("vnf_lcm_op_occ", dict(cnf["where"], action="rollback"))
    assert not rolled.get("failed"), rolled.get("msg")
    assert rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK" and "has exited" in rolled["vnf_lcm_op_occ"]["error"]["detail"]
    wait_for(lambda: owned(kube, ns) == {}, "nothing labelled left after the rollback", timeout=60, sleep=0.5)

    # Killed again, then failed (SOL003: the VIM is left as it is): terminate deletes what it left.
    task, occ = held_instantiate_again(ansible_task, kube, ns, cnf["instantiate"])
    kill_runner(occ)
    task.wait()
    failed = ansible_task("vnf_lcm_op_occ", dict(cnf["where"], action="fail"))
    assert failed["vnf_lcm_op_occ"]["operationState"] == "FAILED", failed.get("msg")
    assert len(owned(kube, ns)["configmaps"]) == CONFIG_MAPS
    cleaned = ansible_task("vnf_terminate", cnf["where"])
    assert cleaned["changed"] is True and not cleaned.get("failed"), cleaned.get("msg")
    assert "what a failed instantiate left" in cleaned["plan"]["note"]
    wait_for(lambda: owned(kube, ns) == {}, "nothing labelled left after the terminate", timeout=60, sleep=0.5)
    again = ansible_task("vnf_terminate", cnf["where"])
    assert again["changed"] is False and not again.get("failed"), again


def held_instantiate_again(ansible_task, kube, namespace, args):
    """As held_instantiate, once the quota of the last one is in place already."""
    task = ansible_task("vnf_instantiate", args, background=True)
    first = head(kube, namespace)["id"]
    occ = running_op_occ(kube, namespace, also=lambda: head(kube, namespace)["id"] != first and owned(kube, namespace).get("deployments"))
    return task, occ


def test_a_stopped_runner_keeps_its_lease_until_it_expires_and_stops_once_taken_over(ansible_task, kube, cnf, k8s_namespace, k8s_audit):
    ns = k8s_namespace
    # A lease long enough that the next task starts well before it expires, even on a loaded machine (20 s was not:
    # beside two busy loops that task met an expired lease and took the operation over).
    task, occ = held_instantiate(ansible_task, kube, ns, dict(cnf["instantiate"], lease_seconds=60))
    pid = signal_runner(occ, signal.SIGSTOP)
    try:
        live = ansible_task("vnf_lcm_op_occ", dict(cnf["where"], action="rollback"))
        assert live["failed"] and "holds its lease until" in live["msg"] and "set force: true" in live["msg"], live.get("msg")
        # The expiry the record shows now: a renewal may have landed since occ was read.
        wait_for(lambda: time.time() > calendar.timegm(time.strptime(head(kube, ns)["lease"]["expiresAt"], "%Y-%m-%dT%H:%M:%SZ")) + 1,
                 "the lease to expire", timeout=90, sleep=0.5)
        rolled = ansible_task("vnf_lcm_op_occ", dict(cnf["where"], action="rollback"))
        assert rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK", rolled.get("msg")
        assert "expired" in rolled["vnf_lcm_op_occ"]["error"]["detail"]
    finally:
        signal_runner(occ, signal.SIGCONT)
    # The stopped run wakes up, finds the record taken over at its next renewal, and stops without writing.
    start = k8s_audit.mark()
    stale = task.wait()
    assert stale["failed"] and "another run wrote the record meanwhile (it took the operation over)" in stale["msg"], stale.get("msg")
    assert record(kube, ns)[1][0]["operationState"] == "ROLLED_BACK"
    assert [item for item in summarize(k8s_audit.writes(start, user=ADMIN_USER)) if item[0] != "update" or item[1] != "secrets"] == []
    assert pid


def test_force_takes_over_a_live_lease(ansible_task, kube, cnf, k8s_namespace):
    ns = k8s_namespace
    task, occ = held_instantiate(ansible_task, kube, ns, cnf["instantiate"])
    signal_runner(occ, signal.SIGSTOP)
    try:
        failed = ansible_task("vnf_lcm_op_occ", dict(cnf["where"], action="fail", force=True))
        assert failed["vnf_lcm_op_occ"]["operationState"] == "FAILED", failed.get("msg")
        assert "taken over (force) from a live lease" in failed["vnf_lcm_op_occ"]["error"]["detail"]
    finally:
        signal_runner(occ, signal.SIGCONT)
    # Its lease is 120 s: the stopped run notices the takeover at its next record write (the renewal every 40 s) at the
    # latest; it is not waited for here. The instance is then cleaned by terminate.
    unblock_pods(kube, ns)
    cleaned = ansible_task("vnf_terminate", cnf["where"])
    assert cleaned["changed"] is True, cleaned.get("msg")
    stale = task.wait()
    assert stale["failed"] and "this run stopped" in stale["msg"], stale.get("msg")
    wait_for(lambda: owned(kube, ns) == {}, "nothing labelled left", timeout=60, sleep=0.5)


def test_sigterm_records_failed_temp_before_the_module_exits(ansible_task, kube, cnf, k8s_namespace):
    ns = k8s_namespace
    task, occ = held_instantiate(ansible_task, kube, ns, cnf["instantiate"])
    signal_runner(occ, signal.SIGTERM)
    stopped = task.wait()
    assert stopped["failed"] and stopped["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP", stopped
    assert "interrupted: received SIGTERM (during: " in stopped["msg"], stopped["msg"]
    assert stopped["msg"].startswith("Failed to instantiate VNF instance ")
    assert head(kube, ns)["operationState"] == "FAILED_TEMP" and stopped["progress"]["created"]
    unblock_pods(kube, ns)
    retried = ansible_task("vnf_lcm_op_occ", dict(cnf["where"], action="retry", package=cnf["instantiate"]["package"]))
    assert retried["vnf_lcm_op_occ"]["operationState"] == "COMPLETED", retried.get("msg")


def test_an_apiserver_restart_during_a_wait_is_ridden_out(ansible_task, kube, k8s_lab, cnf, k8s_namespace):
    ns = k8s_namespace
    task, _occ = held_instantiate(ansible_task, kube, ns, cnf["instantiate"])
    down = k8s_lab.lab.restart("kube-apiserver", down_seconds=2)
    assert down > 2
    unblock_pods(kube, ns)
    done = task.wait()
    assert not done.get("failed"), done.get("msg")
    assert done["vnf_lcm_op_occ"]["operationState"] == "COMPLETED" and len(owned(kube, ns)["configmaps"]) == CONFIG_MAPS


def test_connections_dropped_again_and_again_during_an_instantiate_are_retried(ansible_task, kube, k8s_lab, cnf, k8s_namespace,
                                                                               k8s_audit, tmp_path):
    ns = k8s_namespace
    port = int(k8s_lab.lab.state()["ports"]["apiserver"])
    with TcpProxy("127.0.0.1", port) as proxy:
        via = kubeconfig_via(proxy, k8s_lab.kubeconfig, tmp_path / "via-proxy.kubeconfig")
        start = k8s_audit.mark()
        # Held waiting for its pods until connections were reset: on a busy machine the whole run could otherwise
        # end between two resets, and the test would prove nothing.
        block_pods(kube, ns)
        task = ansible_task("vnf_instantiate", dict(cnf["instantiate"], kubeconfig=str(via)), background=True)
        stop = threading.Event()

        def chaos():
            # Every open connection reset every 0.3 s while the operation writes its objects and waits.
            while not stop.wait(0.3):
                proxy.drop()

        wait_for(lambda: head(kube, ns) is not None, "the op occ to start")
        thread = threading.Thread(target=chaos, daemon=True)
        thread.start()
        try:
            wait_for(lambda: proxy.stats()["drops"] >= 3 and owned(kube, ns).get("deployments"),
                     "connections reset while the instantiate waits for its pods")
            unblock_pods(kube, ns)
            done = task.wait()
        finally:
            stop.set()
            thread.join()
    assert not done.get("failed"), done.get("msg")
    assert done["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    assert len(owned(kube, ns)["configmaps"]) == CONFIG_MAPS
    # No object was made twice: a create whose answer was lost is found done (a 409 on the repeat), not made again.
    created = [item[3] for item in summarize(k8s_audit.writes(start, user=ADMIN_USER, succeeded_only=True)) if item[0] == "create"]
    assert len(created) == len(set(created)), sorted(created)


def quiet(proxy, seconds=2.5):
    """True when the client sent nothing through ``proxy`` for ``seconds``: a wait that polled would have asked again."""
    sent = proxy.stats()["bytes_from_client"]
    time.sleep(seconds)
    return proxy.stats()["bytes_from_client"] == sent


def test_a_watch_cut_during_the_wait_for_pods_is_watched_again_and_the_instantiate_completes(ansible_task, kube, k8s_lab, cnf, k8s_namespace,
                                                                                             tmp_path):
    ns = k8s_namespace
    port = int(k8s_lab.lab.state()["ports"]["apiserver"])
    with TcpProxy("127.0.0.1", port) as proxy:
        via = kubeconfig_via(proxy, k8s_lab.kubeconfig, tmp_path / "via-proxy.kubeconfig")
        task, _occ = held_instantiate(ansible_task, kube, ns, dict(cnf["instantiate"], kubeconfig=str(via)))
        # Waiting on a watch: no request for longer than wait_sleep (1 s), the poll interval of a wait without one.
        wait_for(lambda: quiet(proxy), "the wait for pods to follow a watch", timeout=30, sleep=0)
        accepted = proxy.stats()["accepted"]
        assert proxy.drop() >= 1
        # It noticed the cut (a new connection: the GET and the new watch) and waits on a watch again.
        wait_for(lambda: proxy.stats()["accepted"] > accepted and quiet(proxy), "the wait to watch again once its watch was cut", timeout=30, sleep=0)
        unblock_pods(kube, ns)
        done = task.wait()
    assert not done.get("failed"), done.get("msg")
    assert done["vnf_lcm_op_occ"]["operationState"] == "COMPLETED" and len(owned(kube, ns)["configmaps"]) == CONFIG_MAPS


def test_a_connection_lost_for_good_ends_the_run_and_its_lease_lets_a_later_run_take_over(ansible_task, kube, k8s_lab, cnf, k8s_namespace,
                                                                                          tmp_path):
    ns = k8s_namespace
    port = int(k8s_lab.lab.state()["ports"]["apiserver"])
    with TcpProxy("127.0.0.1", port) as proxy:
        via = kubeconfig_via(proxy, k8s_lab.kubeconfig, tmp_path / "via-proxy.kubeconfig")
        task, occ = held_instantiate(ansible_task, kube, ns, dict(cnf["instantiate"], kubeconfig=str(via), lease_seconds=6))
        proxy.refuse(600)
        lost = task.wait(timeout=120)
    # It could neither renew its lease nor record anything: it stopped before the lease ran out, writing nothing.
    assert lost["failed"] and "its lease could not be renewed before it expired" in lost["msg"], lost.get("msg")
    assert head(kube, ns)["operationState"] == "PROCESSING"
    # On this machine its process is seen gone at once (elsewhere, its lease would expire first).
    shown = ansible_task("vnf_info", {"kubeconfig": cnf["auth"]["kubeconfig"], "namespace": ns})["vnf_lcm_op_occs"][0]
    assert shown["lease"]["status"] == "runner gone", shown["lease"]
    unblock_pods(kube, ns)
    retried = ansible_task("vnf_lcm_op_occ", dict(cnf["where"], action="retry", package=cnf["instantiate"]["package"]))
    assert retried["vnf_lcm_op_occ"]["operationState"] == "COMPLETED", retried.get("msg")
    assert retried["vnf_lcm_op_occ"]["id"] == occ["id"]
