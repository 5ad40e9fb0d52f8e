# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import json

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.change_pkg import merged_instance_fields
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import (
    KUBERNETES_VIM_TYPES,
    OPENSTACK_VIM_TYPES,
    check_vim_endpoints,
    normalised_url,
    recordable_vims,
    without_vim_secrets,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import apply_vnf_info_modification

SECRETS = ("pw-access", "tok-bearer", "cs-client", "pw-in-url")
VIM = {"vimType": "kubernetes", "interfaceInfo": {"endpoint": "https://admin:pw-in-url@127.0.0.1:6443"},
       "accessInfo": {"username": "admin", "password": "pw-access", "bearer_token": "tok-bearer", "client_secret": "cs-client",
                      "project": "p"}}


def test_a_recorded_vim_keeps_what_names_it_and_no_secret():
    kept = recordable_vims({"vim1": VIM, "gone": None})
    assert kept["vim1"]["accessInfo"] == {"username": "admin", "project": "p"}
    assert kept["vim1"]["vimType"] == "kubernetes" and kept["gone"] is None
    assert "127.0.0.1:6443" in kept["vim1"]["interfaceInfo"]["endpoint"]
    assert not any(secret in json.dumps(kept) for secret in SECRETS)


def test_a_recorded_vim_loses_secrets_nested_in_its_access_info():
    nested = dict(VIM, accessInfo={"username": "admin", "auth": {"password": "pw-access", "project": "p"},
                                   "scopes": [{"token": "tok-bearer", "scope": "s"}]})
    assert recordable_vims({"vim1": nested})["vim1"]["accessInfo"] == {"username": "admin", "auth": {"project": "p"}, "scopes": [{"scope": "s"}]}


def test_every_vim_connection_in_a_record_loses_its_secrets_in_either_form():
    record = {"vnfInstance": {"vimConnectionInfo": {"vim1": VIM}},
              "opOccs": [{"operationParams": {"vimConnectionInfo": [dict(VIM, id="vim1")]}},
                         {"operationParams": {"additionalParams": {"vdu_params": [{"old_vnfc_param": {"password": "vnfc"}}]}}}]}
    kept = without_vim_secrets(record)
    assert not any(secret in json.dumps(kept) for secret in SECRETS)
    # Only VIM credentials: what a coordination hook is given for a VNFC is the operation's own business.
    assert kept["opOccs"][1] == record["opOccs"][1]
    assert record["vnfInstance"]["vimConnectionInfo"]["vim1"]["accessInfo"]["password"] == "pw-access"


def test_a_modify_or_a_change_of_package_gives_the_instance_vim_connections_as_a_record_keeps_them():
    instance = {"id": "i", "vimConnectionInfo": {"vim1": recordable_vims({"vim1": VIM})["vim1"]}}
    modified = apply_vnf_info_modification(instance, {"vimConnectionInfo": {"vim1": {"accessInfo": {"password": "pw-access"}}}})
    # The same request again changes nothing: the record never held the password.
    assert modified == instance
    fields = merged_instance_fields(instance, {"vimConnectionInfo": {"vim2": VIM}})
    assert set(fields["vimConnectionInfo"]) == {"vim1", "vim2"}
    assert not any(secret in json.dumps(fields) for secret in SECRETS)


@pytest.mark.parametrize("url, keystone, expected", [
    ("https://API.Example.com", False, "https://api.example.com:443"),
    ("https://api.example.com:443/", False, "https://api.example.com:443"),
    ("http://127.0.0.1/identity/", False, "http://127.0.0.1:80/identity"),
    ("https://user:pw@127.0.0.1:6443/?x=1", False, "https://127.0.0.1:6443"),
    ("https://[::1]:6443", False, "https://[::1]:6443"),
    ("http://127.0.0.1:5000/v3/", True, "http://127.0.0.1:5000"),
    ("http://127.0.0.1:5000/identity/V3", True, "http://127.0.0.1:5000/identity"),
    ("http://127.0.0.1:5000/v3", False, "http://127.0.0.1:5000/v3"),
    ("K8S_API_HOST:6443", False, None),
    ("ftp://host", False, None),
    ("https://host:99999", False, None),
    (6443, False, None),
])
def test_urls_are_compared_normalised(url, keystone, expected):
    assert normalised_url(url, keystone) == expected


def k8s_request(endpoint, vim_type="kubernetes"):
    vim = {"interfaceInfo": {"endpoint": endpoint}, "accessInfo": {"bearer_token": "tok-bearer"}}
    if vim_type:
        vim["vimType"] = vim_type
    return {"vimConnectionInfo": {"vim1": vim}}


def test_a_request_naming_the_server_the_module_connects_to_passes():
    for endpoint in ("https://127.0.0.1:6443/", "https://admin:pw-in-url@127.0.0.1:6443"):
        check_vim_endpoints(k8s_request(endpoint), KUBERNETES_VIM_TYPES, "https://127.0.0.1:6443", "the kubeconfig")
    keystone = {"vimConnectionInfo": [{"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3", "interfaceInfo": {"endpoint": "http://k:5000/v3"}}]}
    check_vim_endpoints(keystone, OPENSTACK_VIM_TYPES, "http://K:5000", "the cloud option", keystone=True)
    # Nothing to compare: no endpoint, another VIM's entry, a null (a merge patch's removal), an unknown server.
    check_vim_endpoints({"vimConnectionInfo": {"vim1": {"vimType": "kubernetes", "vimId": "lab"}, "gone": None}},
                        KUBERNETES_VIM_TYPES, "https://127.0.0.1:6443", "the kubeconfig")
    check_vim_endpoints(keystone, KUBERNETES_VIM_TYPES, "https://127.0.0.1:6443", "the kubeconfig")
    check_vim_endpoints(k8s_request("https://elsewhere"), KUBERNETES_VIM_TYPES, None, "the kubeconfig")
    check_vim_endpoints(None, KUBERNETES_VIM_TYPES, "https://127.0.0.1:6443", "the kubeconfig")


@pytest.mark.parametrize("request_, field", [
    (k8s_request("https://K8S_API_HOST:6443"), "request.vimConnectionInfo.vim1.interfaceInfo.endpoint"),
    (k8s_request("https://admin:pw-in-url@127.0.0.1:6444", vim_type=None), "request.vimConnectionInfo.vim1.interfaceInfo.endpoint"),
    ({"vimConnectionInfo": [k8s_request("https://127.0.0.1:6443")["vimConnectionInfo"]["vim1"],
                            k8s_request("http://127.0.0.1:6443")["vimConnectionInfo"]["vim1"]]},
     "request.vimConnectionInfo[1].interfaceInfo.endpoint"),
])
def test_a_request_naming_another_server_is_refused_naming_the_field_and_both_servers(request_, field):
    with pytest.raises(ValidationError) as raised:
        check_vim_endpoints(request_, KUBERNETES_VIM_TYPES, "https://127.0.0.1:6443/", "the kubeconfig")
    message = str(raised.value)
    assert field + ": names " in message and "the module connects to https://127.0.0.1:6443 (the kubeconfig)" in message, message
    assert not any(secret in message for secret in SECRETS)


def test_a_keystone_elsewhere_or_no_url_is_refused():
    keystone = {"vimConnectionInfo": {"vim1": {"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3", "interfaceInfo": {"endpoint": "http://k:5001/v3"}}}}
    with pytest.raises(ValidationError, match=r"vim1.interfaceInfo.endpoint: names http://k:5001, but the module connects to http://k:5000 "):
        check_vim_endpoints(keystone, OPENSTACK_VIM_TYPES, "http://k:5000/v3/", "the cloud option", keystone=True)
    with pytest.raises(ValidationError, match=r"vim1.interfaceInfo.endpoint: is not an http\(s\) URL"):
        check_vim_endpoints(k8s_request("K8S_API_HOST"), KUBERNETES_VIM_TYPES, "https://127.0.0.1:6443", "the kubeconfig")
