# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault-injection tooling works against the lab: the TCP proxy (tests/integration/faults.py) and
Lab.restart. Later tests use them to interrupt the collection's operations."""

from __future__ import annotations

import http.client
import os
import threading
import time

import pytest
import urllib3
from kubernetes import client, watch
from labk8s.audit import AuditLog, summarize
from labk8s.cluster import ADMIN_USER
from labk8s.kubeapi import Api

from ansible_collections.nfv.vnflcm.tests.integration.faults import TcpProxy, kubeconfig_via, wait_for

# What a client sees when its connection is cut: ConnectionResetError and ssl.SSLError are OSErrors;
# urllib3 wraps them (ProtocolError, MaxRetryError), http.client raises IncompleteRead & co.
CONNECTION_ERRORS = (OSError, urllib3.exceptions.HTTPError, http.client.HTTPException)
TIMEOUT = 30


def create_pod_and_wait_ready(kube, namespace, name, timeout=TIMEOUT):
    pods = f"/api/v1/namespaces/{namespace}/pods"
    kube.call("POST", pods, {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
                             "spec": {"containers": [{"name": "c", "image": "registry.example/c:1"}]}})

    def ready():
        pod = kube.call("GET", f"{pods}/{name}")
        conds = {c["type"]: c["status"] for c in pod.get("status", {}).get("conditions", [])}
        return pod["spec"].get("nodeName") and conds.get("Ready") == "True"
    wait_for(ready, f"pod {name} scheduled and Ready", timeout=timeout)


def configmap(name, size=0):
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": {"blob": "x" * size}}


@pytest.fixture
def proxy(k8s_lab):
    api = Api(k8s_lab.kubeconfig)
    with TcpProxy(api.host, api.port) as p:
        yield p
    assert not [t for t in threading.enumerate() if t.name == f"TcpProxy-{p.port}"], "the proxy thread survived"


@pytest.fixture
def via_proxy(k8s_lab, proxy, tmp_path):
    """The admin kubeconfig, pointed at the proxy."""
    return kubeconfig_via(proxy, k8s_lab.kubeconfig, tmp_path / "via-proxy.kubeconfig")


def test_requests_pass_through_the_proxy(k8s_lab, proxy, via_proxy, k8s_namespace):
    assert Api(via_proxy).server == proxy.url_for("https")
    assert oct(os.stat(via_proxy).st_mode & 0o777) == "0o600"
    with k8s_lab.client(via_proxy) as api_client:  # the kubernetes client verifies the TLS server as usual
        core = client.CoreV1Api(api_client)
        core.create_namespaced_config_map(k8s_namespace, client.V1ConfigMap(
            metadata=client.V1ObjectMeta(name="through"), data={"k": "v"}), _request_timeout=10)
        assert core.read_namespaced_config_map("through", k8s_namespace, _request_timeout=10).data == {"k": "v"}
    assert Api(via_proxy).request("GET", "/readyz")[:2] == (200, "ok")
    stats = proxy.stats()
    assert stats["accepted"] >= 2 and stats["drops"] == 0 and stats["upstream_failed"] == 0
    assert stats["bytes_from_client"] > 0 and stats["bytes_from_server"] > 0


def test_drop_cuts_a_watch_and_the_next_request_works(k8s_lab, kube, proxy, via_proxy, k8s_namespace):
    kube.call("POST", f"/api/v1/namespaces/{k8s_namespace}/configmaps", configmap("watched"))
    with k8s_lab.client(via_proxy) as api_client:
        core = client.CoreV1Api(api_client)
        stream = watch.Watch().stream(core.list_namespaced_config_map, k8s_namespace, timeout_seconds=20,
                                      _request_timeout=25)
        assert next(stream)["type"] == "ADDED"
        threading.Timer(0.3, proxy.drop).start()  # while the client waits for the next event
        start = time.monotonic()
        with pytest.raises(CONNECTION_ERRORS):
            for event in stream:
                assert event["type"] != "ERROR"
        assert time.monotonic() - start < 5, "the watch was not cut by the drop"
        assert proxy.stats()["drops"] >= 1
        # The same client (its pool held the reset connection) works again at once.
        names = [cm.metadata.name for cm in core.list_namespaced_config_map(k8s_namespace, _request_timeout=10).items]
        assert "watched" in names


def test_drop_after_and_drop_when_cut_a_response_in_the_middle(kube, proxy, via_proxy, k8s_namespace):
    path = f"/api/v1/namespaces/{k8s_namespace}/configmaps/big"
    kube.call("POST", f"/api/v1/namespaces/{k8s_namespace}/configmaps", configmap("big", 200_000))
    for arm in (lambda: proxy.drop_after(50_000),  # past the TLS handshake, inside the 200 kB body
                # Crossing 50 kB, not "past 50 kB": that would match the close_notify of the last connection.
                lambda: proxy.drop_when(lambda c: c.from_server and c.server_bytes < 50_000 <= c.server_bytes + len(c.data))):
        drops = proxy.stats()["drops"]
        trigger = arm()
        with pytest.raises(CONNECTION_ERRORS):
            Api(via_proxy).request("GET", path)
        assert trigger.wait(1) and proxy.stats()["drops"] == drops + 1
        assert Api(via_proxy).request("GET", path)[0] == 200  # one shot: the next response is whole


def test_hold_then_drop_loses_the_answer_of_an_applied_request(kube, proxy, via_proxy, k8s_namespace):
    """The request reaches the apiserver and is applied, but its answer never reaches the client."""
    collection = f"/api/v1/namespaces/{k8s_namespace}/configmaps"
    trigger = proxy.hold_when(lambda chunk: chunk.from_server and chunk.client_bytes >= 150_000)
    outcome = {}

    def post():
        try:
            outcome["status"] = Api(via_proxy, timeout=15).request("POST", collection, configmap("applied", 150_000))[0]
        except CONNECTION_ERRORS as exc:
            outcome["error"] = exc
    client_thread = threading.Thread(target=post)
    client_thread.start()
    wait_for(lambda: kube.request("GET", f"{collection}/applied")[0] == 200, "the write applied", timeout=10)
    assert trigger.wait(5) and client_thread.is_alive(), "the client got its answer"
    proxy.drop()
    client_thread.join(5)
    assert "error" in outcome and "status" not in outcome, outcome
    assert proxy.stats()["bytes_held"] > 0
    assert Api(via_proxy).request("POST", collection, configmap("applied", 150_000))[0] == 409


def test_refuse_makes_the_api_unreachable_for_a_while(proxy, via_proxy):
    api = Api(via_proxy, timeout=5)
    assert api.request("GET", "/readyz")[0] == 200
    proxy.refuse(2)
    start, failures = time.monotonic(), 0
    while True:
        try:
            if api.request("GET", "/readyz")[0] == 200:
                break
        except CONNECTION_ERRORS:
            failures += 1
        assert time.monotonic() - start < 6, "the API did not come back after refuse(2)"
        time.sleep(0.1)
    took = time.monotonic() - start
    assert failures >= 5 and 1.8 <= took < 4, (failures, took)
    assert proxy.stats()["refused"] == failures


def test_apiserver_restart_is_an_outage_and_the_lab_recovers(k8s_lab, kube, k8s_namespace):
    lab = k8s_lab.lab
    audit = AuditLog.for_lab(lab)
    mark = audit.mark()
    audit_inode, old_pid = os.stat(lab.audit_log).st_ino, lab.pid("kube-apiserver")

    samples, stop = [], threading.Event()

    def poll():  # the API as a client sees it, every 50 ms
        api = Api(lab.kubeconfig, timeout=1)
        while not stop.is_set():
            try:
                ok = api.request("GET", "/readyz")[0] == 200
            except CONNECTION_ERRORS:
                ok = False
            samples.append((time.monotonic(), ok))
            time.sleep(0.05)
    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    try:
        took = lab.restart("kube-apiserver")
    finally:
        time.sleep(0.2)
        stop.set()
        poller.join(5)
    down = [t for t, ok in samples if not ok]
    assert down, "the poller never saw the apiserver down"
    assert samples[-1][1], "the apiserver is not back"
    outage = down[-1] - down[0]
    assert 0 < outage < took + 1.5 and took < TIMEOUT, (outage, took)  # a failed sample may end 1 s late
    new_pid = lab.pid("kube-apiserver")
    assert new_pid and new_pid != old_pid

    # The other components reconnect by themselves: nodes Ready, a new pod scheduled and made Ready.
    # A few seconds after one restart; up to a minute if the apiserver was restarted several times in
    # the last 2 minutes (client-go backoff, see tools/lab/k8s/README.md), hence the long timeout.
    wait_for(lab.is_up, "every component ready after the restart")
    create_pod_and_wait_ready(kube, k8s_namespace, "after-restart", timeout=90)

    # The audit log goes on in the same file: the old offsets hold and the new write is in it.
    assert os.stat(lab.audit_log).st_ino == audit_inode
    writes = summarize(audit.writes(mark, namespace=k8s_namespace, user=ADMIN_USER))
    assert ("create", "pods", k8s_namespace, "after-restart", 201) in writes


def test_controllers_and_kwok_restart_and_take_over(k8s_lab, kube, k8s_namespace):
    """What restart_controllers=True does after an apiserver restart; kwok takes the nodes over at once."""
    lab = k8s_lab.lab
    for name in ("kube-controller-manager", "kube-scheduler", "kwok"):
        old_pid = lab.pid(name)
        assert lab.restart(name) < 10
        assert lab.pid(name) not in (None, old_pid)
    assert lab.is_up()
    start = time.monotonic()
    create_pod_and_wait_ready(kube, k8s_namespace, "after-kwok-restart", timeout=20)
    assert time.monotonic() - start < 15, "kwok waited for the old leases to expire"
