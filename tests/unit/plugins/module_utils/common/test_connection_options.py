# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The connection options against the two anchors (kubernetes.core 6.x, openstack.cloud 2.x), option by option."""

from __future__ import annotations

import base64

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.args import (
    ARG_GROUPS,
    K8S_AUTH_ENV,
    K8S_PROXY_HEADERS_ENV,
    WAIT_ARG_SPEC,
    masked_secrets,
    no_log_strings,
    sensitive_values,
)

# kubernetes.core 6.x: plugins/module_utils/args_common.py AUTH_ARG_SPEC (option -> aliases, no_log).
KUBERNETES_CORE_AUTH = {
    "kubeconfig": ([], False), "context": ([], False), "host": ([], False), "api_key": ([], True),
    "username": ([], False), "password": ([], True), "validate_certs": (["verify_ssl"], False),
    "ca_cert": (["ssl_ca_cert"], False), "client_cert": (["cert_file"], False), "client_key": (["key_file"], False),
    "proxy": ([], False), "no_proxy": ([], False), "proxy_headers": ([], False), "persist_config": ([], False),
    "impersonate_user": ([], False), "impersonate_groups": ([], False),
}
# kubernetes.core's AUTH_ARG_MAP: option -> kubernetes client attribute; K8S_AUTH_<OPTION>, then K8S_AUTH_<ATTRIBUTE>.
KUBERNETES_CORE_CLIENT_NAMES = {"validate_certs": "verify_ssl", "ca_cert": "ssl_ca_cert", "client_cert": "cert_file", "client_key": "key_file"}
# openstack.cloud 2.x: plugins/module_utils/openstack.py openstack_full_argument_spec (option -> aliases, no_log).
OPENSTACK_CLOUD = {
    "cloud": ([], False), "auth_type": ([], False), "auth": ([], True), "region_name": ([], False),
    "validate_certs": (["verify"], False), "ca_cert": (["cacert"], False), "client_cert": (["cert"], False),
    "client_key": (["key"], True), "wait": ([], False), "timeout": ([], False), "api_timeout": ([], False),
    "interface": (["endpoint_type"], False), "sdk_log_path": ([], False), "sdk_log_level": ([], False),
}


def find_option(spec, name):
    """The option ``name`` is (itself or an alias of) in ``spec``: (option name, its spec)."""
    for option, data in spec.items():
        if option == name or name in data.get("aliases", []):
            return option, data
    raise AssertionError("{0} is missing".format(name))


@pytest.mark.parametrize("name", sorted(KUBERNETES_CORE_AUTH))
def test_every_kubernetes_core_option_is_there_with_its_aliases_and_no_log(name):
    aliases, no_log = KUBERNETES_CORE_AUTH[name]
    option, data = find_option(ARG_GROUPS["kubernetes"], name)
    assert option == name
    assert set(aliases) <= set(data.get("aliases", []))
    if no_log:
        assert data.get("no_log") is True


@pytest.mark.parametrize("name", sorted(OPENSTACK_CLOUD))
def test_every_openstack_cloud_option_is_there_with_its_aliases_and_no_log(name):
    aliases, no_log = OPENSTACK_CLOUD[name]
    option, data = find_option(dict(ARG_GROUPS["openstack"], **WAIT_ARG_SPEC), name)
    assert option == ("wait_timeout" if name == "timeout" else name)
    assert set(aliases) <= set(data.get("aliases", []))
    if no_log:
        assert data.get("no_log") is True


def test_the_kubeconfig_is_masked_by_value_not_as_a_whole_as_kubernetes_core_6():
    assert not ARG_GROUPS["kubernetes"]["kubeconfig"].get("no_log")
    assert ARG_GROUPS["kubernetes"]["proxy_headers"]["options"]["proxy_basic_auth"]["no_log"] is True
    assert ARG_GROUPS["kubernetes"]["proxy_headers"]["options"]["basic_auth"]["no_log"] is True


@pytest.mark.parametrize("name", sorted(set(KUBERNETES_CORE_AUTH) - {"proxy_headers"}))
def test_every_option_reads_the_environment_variables_kubernetes_core_reads(name):
    expected = ["K8S_AUTH_" + name.upper()]
    if name in KUBERNETES_CORE_CLIENT_NAMES:
        expected.append("K8S_AUTH_" + KUBERNETES_CORE_CLIENT_NAMES[name].upper())
    assert list(K8S_AUTH_ENV[name]) == expected


def test_proxy_headers_read_one_variable_each():
    assert K8S_PROXY_HEADERS_ENV == {"proxy_basic_auth": "K8S_AUTH_PROXY_HEADERS_PROXY_BASIC_AUTH",
                                     "basic_auth": "K8S_AUTH_PROXY_HEADERS_BASIC_AUTH",
                                     "user_agent": "K8S_AUTH_PROXY_HEADERS_USER_AGENT"}


def test_both_vims_share_the_tls_options_and_vim_type():
    for name in ("vim_type", "validate_certs", "ca_cert", "client_cert", "client_key"):
        assert ARG_GROUPS["kubernetes"][name] is ARG_GROUPS["openstack"][name]


# ---------------------------------------------------------------------------------------------
# Secrets inside option values

OIDC_KUBECONFIG = {
    "apiVersion": "v1", "kind": "Config", "current-context": "oidc",
    "clusters": [{"name": "c", "cluster": {"server": "https://127.0.0.1:6443", "certificate-authority-data": "Q0EtREFUQS1QRU0tQ09OVEVOVA=="}}],
    "contexts": [{"name": "oidc", "context": {"cluster": "c", "user": "oidc", "namespace": "tenant-a"}}],
    "users": [
        {"name": "oidc", "user": {"auth-provider": {"name": "oidc", "config": {
            "client-id": "kubernetes", "client-secret": "oidc-client-secret-1", "id-token": "eyJ.id.token",
            "refresh-token": "oidc-refresh-2", "idp-issuer-url": "https://idp.example"}}}},
        {"name": "exec", "user": {"exec": {"apiVersion": "client.authentication.k8s.io/v1", "command": "get-token",
                                           "args": ["--cluster", "c"],
                                           "env": [{"name": "AWS_SECRET_ACCESS_KEY", "value": "exec-env-secret-3"},
                                                   {"name": "SHORT", "value": "1"}]}}},
        {"name": "basic", "user": {"username": "admin", "password": "basic-password-4"}},
        {"name": "cert", "user": {"client-certificate-data": "Q0VSVA==", "client-key-data": "S0VZ"}},
        {"name": "token", "user": {"token": "bearer-token-5", "tokenFile": "/var/run/token"}},
    ],
}


def test_every_credential_of_a_kubeconfig_is_found_in_every_auth_form():
    found = sensitive_values(OIDC_KUBECONFIG)
    assert {"oidc-client-secret-1", "eyJ.id.token", "oidc-refresh-2", "exec-env-secret-3", "basic-password-4",
            "Q0VSVA==", "S0VZ", "bearer-token-5", "Q0EtREFUQS1QRU0tQ09OVEVOVA=="} <= found
    # Names, URLs, paths and settings are not secrets: masking them would hide unrelated output.
    assert not found & {"kubernetes", "admin", "https://idp.example", "/var/run/token", "get-token", "1", "tenant-a"}


def test_clouds_auth_and_tacker_access_info_secrets_are_found():
    cloud = {"auth": {"auth_url": "http://k/v3", "username": "u", "password": "os-password",
                      "application_credential_id": "ac-id", "application_credential_secret": "ac-secret"},
             "token": "os-token"}
    request = {"vimConnectionInfo": {"vim1": {"vimType": "kubernetes", "interfaceInfo": {"endpoint": "https://user:url-pass@k8s:6443"},
                                              "accessInfo": {"bearer_token": "tacker-bearer", "client_secret": "cs", "username": "u"}}},
               "additionalParams": {"vdu_params": [{"vdu_id": "VDU1", "new_vnfc_param": {"username": "ssh", "password": "ssh-pass"}}]}}
    assert sensitive_values(cloud) == {"os-password", "ac-secret", "os-token"}
    assert sensitive_values(request) == {"url-pass", "tacker-bearer", "cs", "ssh-pass"}
    assert masked_secrets(request, "*")["vimConnectionInfo"]["vim1"]["interfaceInfo"]["endpoint"] == "https://user:*@k8s:6443"


def test_output_forms_of_a_secret_are_masked_too():
    pem = "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n"
    data = base64.b64encode(pem.encode()).decode()
    strings = no_log_strings({"plain-secret", data})
    assert base64.b64encode(b"plain-secret").decode() in strings
    assert pem in strings


def test_a_module_masks_every_secret_of_its_options_and_environment(monkeypatch):
    from ansible.module_utils.common.parameters import remove_values

    from ansible_collections.nfv.vnflcm.plugins.module_utils.common.module import VnfLcmModule

    try:
        from ansible.module_utils.testing import patch_module_args
    except ImportError:  # ansible-core < 2.19
        from ansible_collections.nfv.vnflcm.tests.unit.plugins.modules.conftest import patch_module_args

    monkeypatch.setenv("K8S_AUTH_PROXY_HEADERS_PROXY_BASIC_AUTH", "proxy-user:env-proxy-pass")
    monkeypatch.setenv("OS_PASSWORD", "env-os-password")
    args = {"kubeconfig": OIDC_KUBECONFIG, "proxy": "http://p:proxy-url-pass@proxy:3128",
            "cloud": {"auth": {"password": "cloud-dict-password"}}}
    with patch_module_args(args):
        module = VnfLcmModule({}, ("kubernetes", "openstack"))
    shown = repr(remove_values(dict(module.params, env=["proxy-user:env-proxy-pass", "env-os-password"]), module._module.no_log_values))
    for secret in sensitive_values(OIDC_KUBECONFIG) | {"proxy-url-pass", "cloud-dict-password", "env-proxy-pass", "env-os-password"}:
        assert secret not in shown
    assert "tenant-a" in shown and "https://idp.example" in shown


def test_an_argument_error_masks_the_secrets_inside_options_too(monkeypatch):
    # AnsibleModule() itself fails on an unknown option, printing the arguments: they must be masked already.
    from ansible.module_utils.basic import AnsibleModule
    from ansible.module_utils.common.parameters import remove_values

    from ansible_collections.nfv.vnflcm.plugins.module_utils.common.module import VnfLcmModule

    try:
        from ansible.module_utils.testing import patch_module_args
    except ImportError:  # ansible-core < 2.19
        from ansible_collections.nfv.vnflcm.tests.unit.plugins.modules.conftest import patch_module_args

    shown = {}

    def fail_json(self, **kwargs):
        shown["result"] = repr(remove_values(dict(kwargs, invocation={"module_args": self.params}), self.no_log_values))
        raise SystemExit(1)

    monkeypatch.setattr(AnsibleModule, "fail_json", fail_json)
    with patch_module_args({"kubeconfig": OIDC_KUBECONFIG, "not_an_option": 1}):
        with pytest.raises(SystemExit):
            VnfLcmModule({}, ("kubernetes",))
    assert "not_an_option" in shown["result"]
    for secret in sensitive_values(OIDC_KUBECONFIG):
        assert secret not in shown["result"]
