# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Which VIM a module call goes to: vim_type, the request, the options, the environment; never a silent choice."""

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
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
