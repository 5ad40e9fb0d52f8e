# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""KubeApi over a fake transport: paths from discovery, 404 as None, API errors in one format."""

from __future__ import annotations

import json

import pytest

from kubernetes.client.rest import ApiException
from urllib3.exceptions import ProtocolError

from ansible_collections.nfv.vnflcm.plugins.module_utils.common import pool
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, VimError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.api import KubeApi, WatchBroken
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.client import build_api_client

DISCOVERY = {
    "/api/v1": {"resources": [{"kind": "Pod", "name": "pods", "namespaced": True}, {"kind": "Pod", "name": "pods/log", "namespaced": True},
                              {"kind": "Namespace", "name": "namespaces", "namespaced": False}]},
    "/apis/apps/v1": {"resources": [{"kind": "Deployment", "name": "deployments", "namespaced": True}]},
}


class Response:
    def __init__(self, body):
        self.data = json.dumps(body).encode()


class FakeTransport:
    """Answers discovery; any other call returns ``answer`` (or raises it when it is an exception)."""

    def __init__(self, answer=None):
        self.answer = answer
        self.calls = []

    def call_api(self, path, method, **kwargs):
        self.calls.append((method, path, kwargs.get("body")))
        if path in DISCOVERY:
            return Response(DISCOVERY[path])
        if path.startswith("/apis/") and path.count("/") == 3:
            raise ApiException(status=404, reason="Not Found")
        if isinstance(self.answer, Exception):
            raise self.answer
        return Response(self.answer)


def api_error(status, message):
    error = ApiException(status=status, reason="Reason")
    error.body = json.dumps({"kind": "Status", "message": message})
    return error


def test_discovery_gives_scope_and_paths_and_skips_subresources():
    api = KubeApi(FakeTransport({"metadata": {"name": "x"}}))
    assert api.is_namespaced("v1", "Pod") is True
    assert api.is_namespaced("v1", "Namespace") is False
    assert api.is_namespaced("example.com/v1", "Widget") is None
    assert api.path("apps/v1", "Deployment", "ns1", "vdu1") == "/apis/apps/v1/namespaces/ns1/deployments/vdu1"
    assert api.path("v1", "Namespace", None, "ns1") == "/api/v1/namespaces/ns1"


def test_discovery_is_asked_once_per_group_version():
    transport = FakeTransport({"metadata": {"name": "x"}})
    api = KubeApi(transport)
    api.get("v1", "Pod", "a", "ns")
    api.get("v1", "Pod", "b", "ns")
    assert [path for _method, path, _body in transport.calls].count("/api/v1") == 1
    assert api.calls == {"read": 3, "write": 0, "dry_run": 0}


def test_missing_object_is_none_and_delete_of_a_missing_object_is_false():
    api = KubeApi(FakeTransport(ApiException(status=404, reason="Not Found")))
    assert api.get("v1", "Pod", "a", "ns") is None
    assert api.delete("v1", "Pod", "a", "ns") is False


def test_api_errors_read_failed_to_action_object_reason():
    api = KubeApi(FakeTransport(api_error(403, 'deployments.apps is forbidden: User "u" cannot create resource')))
    with pytest.raises(VimError) as caught:
        api.create({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "vdu1", "namespace": "ns1"}})
    assert caught.value.msg == 'Failed to create Deployment ns1/vdu1: deployments.apps is forbidden: User "u" cannot create resource (HTTP 403)'


def test_a_lost_update_race_is_a_conflict():
    api = KubeApi(FakeTransport(api_error(409, "the object has been modified")))
    with pytest.raises(ConflictError):
        api.replace({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a", "namespace": "ns", "resourceVersion": "1"}})


def test_unknown_kind_is_an_error_not_a_skip():
    api = KubeApi(FakeTransport({}))
    with pytest.raises(VimError) as caught:
        api.get("example.com/v1", "Widget", "w", "ns")
    assert "Widget (example.com/v1)" in caught.value.msg


def test_client_options_override_the_kubeconfig_and_context_namespace_is_returned(tmp_path):
    kubeconfig = {
        "apiVersion": "v1", "kind": "Config", "current-context": "t",
        "clusters": [{"name": "c", "cluster": {"server": "https://127.0.0.1:6443"}}],
        "users": [{"name": "u", "user": {"token": "from-kubeconfig"}}],
        "contexts": [{"name": "t", "context": {"cluster": "c", "user": "u", "namespace": "tenant-a"}}],
    }
    client, namespace = build_api_client({"kubeconfig": kubeconfig, "api_key": "override", "validate_certs": False})
    assert namespace == "tenant-a"
    assert client.configuration.host == "https://127.0.0.1:6443"
    assert client.configuration.api_key == {"authorization": "Bearer override"}
    assert client.configuration.verify_ssl is False


def test_unreadable_kubeconfig_is_a_clear_error(tmp_path):
    with pytest.raises(VimError) as caught:
        build_api_client({"kubeconfig": str(tmp_path / "missing")})
    assert caught.value.msg.startswith("Failed to load kubeconfig: ")


# ---------------------------------------------------------------------------------------------
# Transient failures: retried with bounded backoff; a repeated write whose first attempt went through is accepted.

class FlakyTransport(FakeTransport):
    """Fails the first calls to non-discovery paths with the given errors, then behaves like FakeTransport; ``live`` answers GETs."""

    def __init__(self, failures, answer=None, live=None):
        super().__init__(answer)
        self.failures = list(failures)
        self.live = live

    def call_api(self, path, method, **kwargs):
        if path not in DISCOVERY and self.failures:
            self.calls.append((method, path, kwargs.get("body")))
            raise self.failures.pop(0)
        if method == "GET" and self.live is not None and path not in DISCOVERY:
            self.calls.append((method, path, None))
            return Response(self.live)
        return super().call_api(path, method, **kwargs)


def quick_api(transport, seconds=5):
    return KubeApi(transport, retry_seconds=seconds, sleep=lambda delay: None)


def test_a_dropped_connection_is_retried_and_named_when_it_persists():
    reset = ProtocolError("Connection aborted.", ConnectionResetError(104, "Connection reset by peer"))
    transport = FlakyTransport([reset, OSError("EOF occurred in violation of protocol")], answer={"metadata": {"name": "vdu1"}})
    api = quick_api(transport)
    assert api.get("apps/v1", "Deployment", "vdu1", "ns1") == {"metadata": {"name": "vdu1"}}
    assert [call[0] for call in transport.calls if call[1] not in DISCOVERY] == ["GET", "GET", "GET"]
    with pytest.raises(VimError, match=r"Failed to read Deployment ns1/vdu1: the API server could not be reached \(ProtocolError\)"):
        quick_api(FlakyTransport([reset] * 100), seconds=1).get("apps/v1", "Deployment", "vdu1", "ns1")


def test_429_and_503_are_retried_other_errors_are_not():
    transport = FlakyTransport([api_error(503, "apiserver is shutting down"), api_error(429, "too many requests")], answer={"ok": True})
    assert quick_api(transport).get("apps/v1", "Deployment", "vdu1", "ns1") == {"ok": True}
    forbidden = FlakyTransport([api_error(403, "forbidden")] * 3)
    with pytest.raises(VimError, match="forbidden"):
        quick_api(forbidden).get("apps/v1", "Deployment", "vdu1", "ns1")
    assert len([call for call in forbidden.calls if call[1] not in DISCOVERY]) == 1


def test_a_repeated_create_that_finds_its_own_object_is_accepted():
    body = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "vnflcm-1", "namespace": "ns1", "labels": {"a": "b"}}, "spec": {"x": "eA=="}}
    lost_answer = OSError("connection reset")
    transport = FlakyTransport([lost_answer, api_error(409, "already exists")], live=dict(body, metadata=dict(body["metadata"], resourceVersion="5")))
    written = quick_api(transport).create(body)
    assert written["metadata"]["resourceVersion"] == "5"
    other = FlakyTransport([lost_answer, api_error(409, "already exists")], live=dict(body, spec={"x": "other"}))
    with pytest.raises(ConflictError, match="already exists"):
        quick_api(other).create(body)
    # Without a retry, a 409 is the other writer's: never accepted.
    first = FlakyTransport([api_error(409, "already exists")], live=body)
    with pytest.raises(ConflictError):
        quick_api(first).create(body)


def test_a_repeated_update_whose_check_read_fails_too_is_accepted_when_the_read_succeeds_again():
    """The connection that lost a conditional replace's answer drops the read that checks it as well: the read is
    retried, and the write that went through is not taken for another writer's."""
    body = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "vnflcm-1", "namespace": "ns1", "resourceVersion": "4"},
            "spec": {"x": "eA=="}}
    lost = OSError("connection reset")
    transport = FlakyTransport([lost, api_error(409, "the object has been modified"), lost],
                               live=dict(body, metadata=dict(body["metadata"], resourceVersion="5")))
    written = quick_api(transport).replace(body)
    assert written["metadata"]["resourceVersion"] == "5"
    assert [method for method, _path, _body in transport.calls][-4:] == ["PUT", "PUT", "GET", "GET"]


def test_dry_run_asks_the_server_without_storing_and_every_call_has_a_timeout():
    transport = RecordingTransport()
    api = KubeApi(transport)
    api.create({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "vdu1", "namespace": "ns1"}}, dry_run=True)
    api.patch("apps/v1", "Deployment", "vdu1", "ns1", {"spec": {"replicas": 2}}, dry_run=True)
    calls = [call for call in transport.kwargs if call["path"] not in DISCOVERY]
    assert [call["query_params"] for call in calls] == [[("dryRun", "All")], [("dryRun", "All")]]
    assert all(call["_request_timeout"] == (10, 60) for call in calls)
    assert api.calls["dry_run"] == 2 and api.calls["write"] == 0


class RecordingTransport(FakeTransport):
    def __init__(self):
        super().__init__({"metadata": {"name": "x"}})
        self.kwargs = []

    def call_api(self, path, method, **kwargs):
        self.kwargs.append(dict(kwargs, path=path))
        return super().call_api(path, method, **kwargs)


# ---------------------------------------------------------------------------------------------
# watch: events streamed line by line; a watch that breaks raises WatchBroken (the waiter reads again).

class Stream:
    """A streamed answer: ``chunks`` (bytes, or an exception to raise there); records that it was closed."""

    def __init__(self, chunks):
        self.chunks, self.closed, self.released = chunks, False, False

    def stream(self):
        for chunk in self.chunks:
            if isinstance(chunk, Exception):
                raise chunk
            yield chunk

    def close(self):
        self.closed = True

    def release_conn(self):
        self.released = True


class WatchTransport(FakeTransport):
    def __init__(self, answer):
        super().__init__(answer)
        self.queries = []

    def call_api(self, path, method, **kwargs):
        if "watch" not in dict(kwargs.get("query_params") or []):
            return super().call_api(path, method, **kwargs)
        self.queries.append((path, dict(kwargs["query_params"]), kwargs["_request_timeout"]))
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


def event(kind, version, **status):
    return {"type": kind, "object": {"metadata": {"name": "vdu1", "resourceVersion": str(version)}, "status": status}}


def lines(*events):
    return b"".join(json.dumps(item).encode() + b"\n" for item in events)


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_a_watch_streams_events_of_one_object_from_a_resource_version_skipping_bookmarks():
    body = lines(event("MODIFIED", 2), {"type": "BOOKMARK", "object": {"metadata": {"resourceVersion": "3"}}}, event("DELETED", 4))
    stream = Stream([body[:30], body[30:95], body[95:]])  # events split across chunks
    transport = WatchTransport(stream)
    clock = Clock()
    api = KubeApi(transport, clock=clock)
    watch = api.watch("apps/v1", "Deployment", "ns1", name="vdu1", resource_version="1", timeout_seconds=29.2)
    first = next(watch)
    assert first[0] == "MODIFIED" and first[1]["kind"] == "Deployment" and first[1]["apiVersion"] == "apps/v1"
    clock.now = 30
    assert [(kind, obj["metadata"]["resourceVersion"]) for kind, obj in watch] == [("DELETED", "4")]
    path, query, timeout = transport.queries[0]
    assert path == "/apis/apps/v1/namespaces/ns1/deployments"
    assert query == {"watch": "1", "allowWatchBookmarks": "true", "timeoutSeconds": "30", "fieldSelector": "metadata.name=vdu1",
                     "resourceVersion": "1"}
    # The client waits for its next byte longer than the apiserver keeps the watch open.
    assert timeout[1] > 29.2
    assert api.calls["read"] == 2 and stream.closed and stream.released  # discovery and the watch


def test_a_watch_left_early_closes_its_connection():
    stream = Stream([lines(event("MODIFIED", 2), event("MODIFIED", 3))])
    api = KubeApi(WatchTransport(stream))
    watch = api.watch("apps/v1", "Deployment", "ns1", name="vdu1", resource_version="1", timeout_seconds=30)
    next(watch)
    watch.close()
    assert stream.closed and stream.released


@pytest.mark.parametrize("answer, expired", [
    (Stream([lines(event("MODIFIED", 2)), ProtocolError("Connection broken", ConnectionResetError(104, "reset"))]), False),
    (Stream([lines({"type": "ERROR", "object": {"kind": "Status", "code": 410, "message": "too old resource version: 1 (5)"}})]), True),
    (Stream([lines({"type": "ERROR", "object": {"kind": "Status", "code": 500, "message": "internal error"}})]), False),
    (api_error(410, "too old resource version"), True),
    (api_error(403, "cannot watch deployments"), False),
    (ProtocolError("Connection aborted", ConnectionRefusedError(111, "refused")), False),
    (Stream([b"{not json\n"]), False),
    (Stream([]), False),  # closed cleanly long before its timeout
])
def test_a_watch_that_breaks_raises_watch_broken_saying_whether_its_resource_version_expired(answer, expired):
    api = KubeApi(WatchTransport(answer), sleep=pytest.fail)
    with pytest.raises(WatchBroken) as broken:
        list(api.watch("apps/v1", "Deployment", "ns1", name="vdu1", resource_version="1", timeout_seconds=30))
    assert broken.value.expired is expired
    if isinstance(answer, Stream):
        assert answer.closed


def test_calls_made_from_worker_threads_are_all_counted():
    api = KubeApi(FakeTransport({"metadata": {"name": "x"}}))
    api.resource("v1", "Pod")
    pool.run_all(lambda index: api.get("v1", "Pod", "p{0}".format(index), "ns1"), range(400))
    assert api.calls["read"] == 401
