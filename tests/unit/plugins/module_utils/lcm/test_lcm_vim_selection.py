# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Which VIM a module call goes to: vim_type, the request, the options, the environment; never a silent choice."""

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import drivers
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.drivers import KUBERNETES, OPENSTACK, vim_of

OPENSTACK_REQUEST = {"vimConnectionInfo": {"v": {"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3"}}}
KUBERNETES_REQUEST = {"vimConnectionInfo": {"v": {"vimType": "kubernetes"}}}
# AWX's OpenStack credential writes a clouds.yaml with the one cloud "devstack" and sets nothing else.
AWX_OPENSTACK = {"OS_CLIENT_CONFIG_FILE": "/runner/env/clouds.yaml"}
AWX_KUBERNETES = {"K8S_AUTH_HOST": "https://k8s:6443", "K8S_AUTH_API_KEY": "t", "K8S_AUTH_VERIFY_SSL": "true"}


@pytest.mark.parametrize("params, environ, expected", [
    ({}, {}, KUBERNETES),
    ({"vim_type": "openstack", "kubeconfig": "/k", "cloud": "c"}, {}, OPENSTACK),
    ({"vim_type": "kubernetes", "kubeconfig": "/k", "cloud": "c"}, AWX_OPENSTACK, KUBERNETES),
    ({"cloud": "c"}, AWX_KUBERNETES, OPENSTACK),
    ({"auth": {"auth_url": "u"}}, {}, OPENSTACK),
    ({"region_name": "R"}, {}, OPENSTACK),
    ({"host": "https://k"}, AWX_OPENSTACK, KUBERNETES),
    ({"impersonate_groups": ["g"]}, AWX_OPENSTACK, KUBERNETES),
    ({}, AWX_OPENSTACK, OPENSTACK),
    ({}, {"OS_AUTH_URL": "http://k/v3"}, OPENSTACK),
    ({}, {"OS_CLOUD": "devstack"}, OPENSTACK),
    ({}, AWX_KUBERNETES, KUBERNETES),
    ({}, {"KUBECONFIG": "/k", "OS_CLOUD": "c"}, OPENSTACK),
    # TLS options belong to both VIMs: they choose nothing.
    ({"validate_certs": False, "ca_cert": "/ca"}, AWX_OPENSTACK, OPENSTACK),
    ({"request": OPENSTACK_REQUEST}, AWX_KUBERNETES, OPENSTACK),
    ({"request": OPENSTACK_REQUEST, "kubeconfig": "/k", "cloud": "c"}, {}, OPENSTACK),
    ({"request": KUBERNETES_REQUEST, "kubeconfig": "/k", "cloud": "c"}, {}, KUBERNETES),
    ({"request": KUBERNETES_REQUEST}, AWX_OPENSTACK, KUBERNETES),
])
def test_the_vim(params, environ, expected):
    assert vim_of(params, environ) == expected


@pytest.mark.parametrize("params, environ, message", [
    ({"kubeconfig": "/k", "cloud": "c"}, {}, r"Kubernetes options \(kubeconfig\) and OpenStack options \(cloud\)"),
    ({"host": "h", "api_key": "t", "auth": {"auth_url": "u"}}, {}, r"\(host, api_key\) and OpenStack options \(auth\)"),
    ({"proxy": "http://p", "cloud": "c"}, {}, r"Kubernetes options \(proxy\)"),
    ({}, dict(AWX_KUBERNETES, **AWX_OPENSTACK), r"Kubernetes \(K8S_AUTH_HOST, K8S_AUTH_API_KEY\) and OpenStack \(OS_CLIENT_CONFIG_FILE\) credentials"),
    ({"kubeconfig": "/k", "request": OPENSTACK_REQUEST}, {}, r"names an OpenStack VIM, but Kubernetes connection options are set \(kubeconfig\)"),
    ({"cloud": "c", "request": KUBERNETES_REQUEST}, {}, r"names a Kubernetes VIM, but OpenStack connection options are set \(cloud\)"),
    ({"vim_type": "kubernetes", "request": OPENSTACK_REQUEST}, {}, r"vim_type: kubernetes, but request.vimConnectionInfo names openstack VIMs only"),
])
def test_an_ambiguous_vim_is_an_error_that_says_what_to_do(params, environ, message):
    with pytest.raises(ValidationError, match=message) as caught:
        vim_of(params, environ)
    assert caught.value.msg.startswith("Failed to validate module options: ")


# ---------------------------------------------------------------------------------------------
# driver_of: Helm-chart CNFs share the Kubernetes VIM with manifest CNFs

HELM_VIM = {"vim1": {"vimType": "ETSINFV.HELM.V_3", "interfaceInfo": {"endpoint": "https://k8s:6443"}}}


@pytest.mark.parametrize("request_body, driver", [
    ({"flavourId": "simple", "vimConnectionInfo": HELM_VIM}, drivers.HELM),
    ({"flavourId": "simple", "additionalParams": {"helm_chart_path": "Files/kubernetes/chart.tgz"}}, drivers.HELM),
    ({"flavourId": "simple", "additionalParams": {"lcm-kubernetes-def-files": ["Files/kubernetes/d.yaml"]}}, drivers.CNF),
    (None, drivers.CNF),
])
def test_a_helm_request_chooses_the_helm_driver_on_kubernetes(request_body, driver):
    assert drivers.driver_of({"request": request_body}, environ={}) == driver
    assert drivers.DRIVER_VIMS[driver] == KUBERNETES


def test_a_helm_vim_is_a_kubernetes_vim_not_openstack():
    assert vim_of({"request": {"vimConnectionInfo": HELM_VIM}}, environ={"OS_CLOUD": "x"}) == KUBERNETES
    with pytest.raises(ValidationError, match="names a Kubernetes VIM"):
        vim_of({"request": {"vimConnectionInfo": HELM_VIM}, "cloud": "c"}, environ={})


def test_a_stored_instance_with_a_helm_release_is_the_helm_drivers():
    helm = {"instantiatedVnfInfo": {"metadata": {"vnflcm": {drivers.HELM_RELEASE: {"release": "vnf1"}}}}}
    assert drivers.instance_driver(helm, drivers.CNF) == drivers.HELM
    assert drivers.instance_driver({"instantiationState": "NOT_INSTANTIATED"}, drivers.CNF) == drivers.CNF
    assert drivers.instance_driver({"instantiationState": "NOT_INSTANTIATED"}, drivers.HELM) == drivers.HELM
    assert drivers.instance_driver({}, drivers.VM) == drivers.VM
