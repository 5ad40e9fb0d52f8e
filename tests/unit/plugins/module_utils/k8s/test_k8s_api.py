# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""KubeApi over a fake transport: paths from discovery, 404 as None, API errors in one format."""

from __future__ import annotations

import json

import pytest

from kubernetes.client.rest import ApiException

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, VimError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.api import KubeApi
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
    assert api.calls == {"read": 3, "write": 0}


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
