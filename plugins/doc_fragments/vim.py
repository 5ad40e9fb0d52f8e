# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
# Options that choose the VIM, and the TLS options both VIMs take (kubernetes.core and openstack.cloud share their names).

from __future__ import annotations


class ModuleDocFragment:
    DOCUMENTATION = r"""
options:
  vim_type:
    description:
      - The VIM to operate on.
      - "When not set, the first of these that says it: the request's C(vimConnectionInfo) when its entries
        name one VIM type (C(ETSINFV.OPENSTACK_KEYSTONE.V_3), C(kubernetes)); the options only one VIM takes
        (O(cloud), O(auth), O(auth_type), O(region_name), O(api_timeout), O(sdk_log_path) for OpenStack; O(kubeconfig),
        O(context), O(host), O(api_key), O(username), O(password), O(proxy), O(no_proxy), O(proxy_headers),
        O(persist_config), O(impersonate_user), O(impersonate_groups) for Kubernetes); the environment
        (E(OS_CLOUD), E(OS_AUTH_URL) or E(OS_CLIENT_CONFIG_FILE), which is all an AWX OpenStack credential sets, for
        OpenStack; the E(K8S_AUTH_*) variables of those Kubernetes options);
        else Kubernetes (E(KUBECONFIG), C(~/.kube/config), in-cluster)."
      - Options of both VIMs at the same step (for example O(kubeconfig) and O(cloud), or E(K8S_AUTH_HOST) and
        E(OS_CLOUD) with no option) are an error that names them, never a silent choice. Set O(vim_type) when both
        are meant to be there, for example in C(module_defaults) for the C(group/nfv.vnflcm.vnflcm) action group
        shared by CNFs and VM-based VNFs; the other VIM's options are then not used.
      - A request whose C(vimConnectionInfo) names one VIM only, with only the other VIM's options set, is an error.
    type: str
    choices: [kubernetes, openstack]
  validate_certs:
    description:
      - Whether to verify the VIM's TLS certificate (the Kubernetes API server or the OpenStack endpoints).
      - "Kubernetes: can also be set with the E(K8S_AUTH_VALIDATE_CERTS) or E(K8S_AUTH_VERIFY_SSL) environment
        variable. OpenStack: openstacksdk's C(verify) (a C(clouds.yaml) C(verify), E(OS_INSECURE) otherwise)."
    type: bool
    aliases: [verify_ssl, verify]
  ca_cert:
    description:
      - Path to a CA certificate bundle that verifies the VIM's TLS certificate.
      - "Kubernetes: can also be set with the E(K8S_AUTH_CA_CERT) or E(K8S_AUTH_SSL_CA_CERT) environment variable.
        OpenStack: openstacksdk's C(cacert) (E(OS_CACERT) otherwise)."
    type: path
    aliases: [ssl_ca_cert, cacert]
  client_cert:
    description:
      - Path to a client certificate for TLS client authentication to the VIM.
      - "Kubernetes: with O(client_key) and O(host) no kubeconfig is read; can also be set with the
        E(K8S_AUTH_CLIENT_CERT) or E(K8S_AUTH_CERT_FILE) environment variable. OpenStack: openstacksdk's C(cert)
        (E(OS_CERT) otherwise)."
    type: path
    aliases: [cert_file, cert]
  client_key:
    description:
      - Path to the private key of O(client_cert).
      - "Kubernetes: can also be set with the E(K8S_AUTH_CLIENT_KEY) or E(K8S_AUTH_KEY_FILE) environment variable.
        OpenStack: openstacksdk's C(key) (E(OS_KEY) otherwise)."
    type: path
    aliases: [key_file, key]
"""
