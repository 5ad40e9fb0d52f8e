# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Building the Kubernetes client from the connection options and K8S_AUTH_* (kubernetes.core semantics)."""

from __future__ import annotations

import base64

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.args import K8S_AUTH_ENV
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.pool import WORKERS
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.client import build_api_client, connection_options, self_sufficient

KUBECONFIG = {
    "apiVersion": "v1", "kind": "Config", "current-context": "t",
    "clusters": [{"name": "c", "cluster": {"server": "https://10.0.0.1:6443"}}],
    "users": [{"name": "u", "user": {"token": "from-kubeconfig"}}],
    "contexts": [{"name": "t", "context": {"cluster": "c", "user": "u", "namespace": "tenant-a"}}],
}

# One value per option, as the environment gives it, and what the option becomes.
ENVIRONMENT_VALUES = {
    "kubeconfig": ("/env/kubeconfig", "/env/kubeconfig"),
    "context": ("ctx", "ctx"),
    "host": ("https://env:6443", "https://env:6443"),
    "api_key": ("env-token", "env-token"),
    "username": ("env-user", "env-user"),
    "password": ("env-pass", "env-pass"),
    "validate_certs": ("no", False),
    "ca_cert": ("/env/ca.crt", "/env/ca.crt"),
    "client_cert": ("/env/client.crt", "/env/client.crt"),
    "client_key": ("/env/client.key", "/env/client.key"),
    "proxy": ("http://proxy:3128", "http://proxy:3128"),
    "no_proxy": ("localhost,.local", "localhost,.local"),
    "persist_config": ("yes", True),
    "impersonate_user": ("alice", "alice"),
    "impersonate_groups": ("dev,ops,", ["dev", "ops"]),
}


@pytest.mark.parametrize("option, variable", [(option, variable) for option, variables in sorted(K8S_AUTH_ENV.items()) for variable in variables])
def test_each_environment_variable_fills_its_option(option, variable):
    raw, expected = ENVIRONMENT_VALUES[option]
    assert connection_options({}, {variable: raw})[option] == expected


def test_an_option_given_wins_over_its_variable_and_the_first_variable_over_the_second():
    environ = {"K8S_AUTH_VALIDATE_CERTS": "true", "K8S_AUTH_VERIFY_SSL": "false", "K8S_AUTH_HOST": "https://env"}
    options = connection_options({"host": "https://param"}, environ)
    assert options["host"] == "https://param"
    assert options["validate_certs"] is True


@pytest.mark.parametrize("raw, expected", [("0", False), ("False", False), ("NO", False), ("1", True), ("true", True), ("on", True)])
def test_booleans_from_the_environment_as_kubernetes_core(raw, expected):
    assert connection_options({}, {"K8S_AUTH_VERIFY_SSL": raw})["validate_certs"] is expected


def test_proxy_headers_come_from_the_option_else_from_their_variables():
    environ = {"K8S_AUTH_PROXY_HEADERS_PROXY_BASIC_AUTH": "u:p", "K8S_AUTH_PROXY_HEADERS_USER_AGENT": "nfv"}
    assert connection_options({}, environ)["proxy_headers"] == {"proxy_basic_auth": "u:p", "user_agent": "nfv"}
    given = {"proxy_headers": {"proxy_basic_auth": None, "basic_auth": "a:b", "user_agent": None}}
    assert connection_options(given, environ)["proxy_headers"] == {"basic_auth": "a:b"}
    assert connection_options({}, {})["proxy_headers"] is None


def test_host_with_credentials_needs_no_kubeconfig():
    assert self_sufficient({"host": "h", "api_key": "t"})
    assert self_sufficient({"host": "h", "username": "u", "password": "p"})
    assert self_sufficient({"host": "h", "client_cert": "c", "client_key": "k"})
    assert not self_sufficient({"host": "h"})
    assert not self_sufficient({"api_key": "t"})


def test_host_and_token_alone_build_a_client_without_reading_any_kubeconfig(monkeypatch, tmp_path):
    monkeypatch.setenv("KUBECONFIG", str(tmp_path / "does-not-exist"))
    client, namespace = build_api_client({"host": "https://10.0.0.9:6443/", "api_key": "t0k"})
    assert namespace is None
    assert client.configuration.host == "https://10.0.0.9:6443"
    assert client.configuration.api_key == {"authorization": "Bearer t0k"}


def test_the_connection_pool_holds_a_connection_for_every_call_made_at_once():
    client, _namespace = build_api_client({"host": "https://10.0.0.9:6443", "api_key": "t0k"})
    assert client.rest_client.pool_manager.connection_pool_kw["maxsize"] >= WORKERS


def test_username_and_password_are_sent_as_http_basic_auth():
    client, _namespace = build_api_client({"host": "https://10.0.0.9:6443", "username": "admin", "password": "s3cret"})
    expected = "Basic " + base64.b64encode(b"admin:s3cret").decode()
    assert client.configuration.auth_settings()["BearerToken"]["value"] == expected


def test_api_key_wins_over_username_and_password():
    client, _namespace = build_api_client({"host": "https://h", "api_key": "t", "username": "u", "password": "p"})
    assert client.configuration.api_key == {"authorization": "Bearer t"}


def test_proxy_no_proxy_and_proxy_headers_reach_the_client_configuration():
    client, _namespace = build_api_client({"kubeconfig": KUBECONFIG, "proxy": "http://proxy:3128", "no_proxy": "10.0.0.0/8",
                                           "proxy_headers": {"proxy_basic_auth": "u:p", "user_agent": "nfv"}})
    configuration = client.configuration
    assert (configuration.proxy, configuration.no_proxy) == ("http://proxy:3128", "10.0.0.0/8")
    assert configuration.proxy_headers["proxy-authorization"] == "Basic " + base64.b64encode(b"u:p").decode()
    assert configuration.proxy_headers["user-agent"] == "nfv"


def test_impersonation_sends_one_header_per_group():
    client, _namespace = build_api_client({"kubeconfig": KUBECONFIG, "impersonate_user": "alice", "impersonate_groups": ["dev", "ops"]})
    headers = [(str(name), value) for name, value in client.default_headers.items() if str(name).startswith("Impersonate")]
    assert sorted(headers) == [("Impersonate-Group", "dev"), ("Impersonate-Group", "ops"), ("Impersonate-User", "alice")]


def test_impersonation_headers_survive_urllib3():
    # urllib3 files headers under name.lower(): every Impersonate-Group must still be sent.
    urllib3 = pytest.importorskip("urllib3")
    client, _namespace = build_api_client({"kubeconfig": KUBECONFIG, "impersonate_groups": ["dev", "ops"]})
    headers = urllib3.HTTPHeaderDict()
    headers.extend(dict(client.default_headers))
    sent = [value for name, value in headers.items() if str.lower(name) == "impersonate-group"]
    assert sorted(sent) == ["dev", "ops"]


def test_persist_config_is_passed_to_the_kubeconfig_loader(monkeypatch, tmp_path):
    import yaml
    from kubernetes.config import kube_config

    path = tmp_path / "config"
    path.write_text(yaml.safe_dump(KUBECONFIG))
    seen = {}
    real = kube_config._get_kube_config_loader

    def loader(**kwargs):
        seen.update(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(kube_config, "_get_kube_config_loader", loader)
    _client, namespace = build_api_client({"kubeconfig": str(path), "persist_config": True})
    assert seen["persist_config"] is True and namespace == "tenant-a"


@pytest.mark.parametrize("kubeconfig, reason", [
    ("/nonexistent/kubeconfig", "Invalid kube-config file"),
    (dict(KUBECONFIG, **{"current-context": "missing"}), "missing"),
])
def test_a_kubeconfig_that_does_not_load_is_a_vim_error(kubeconfig, reason):
    from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import VimError

    with pytest.raises(VimError) as caught:
        build_api_client({"kubeconfig": kubeconfig})
    assert "kubeconfig" in str(caught.value) and reason in str(caught.value)
