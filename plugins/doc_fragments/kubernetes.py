# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
# Options for connecting to a Kubernetes cluster (same names, aliases and environment variables as kubernetes.core).

from __future__ import annotations


class ModuleDocFragment:
    DOCUMENTATION = r"""
options:
  kubeconfig:
    description:
      - Path to a kubeconfig file, or the kubeconfig content as a dictionary.
      - When neither this nor O(host) with credentials is given, the E(KUBECONFIG) environment variable, then
        C(~/.kube/config), then the in-cluster ServiceAccount configuration are used.
      - "A dictionary value is not hidden as a whole (a kubernetes.core 5.1 behaviour that kubernetes.core 6 reverted,
        as it hid unrelated values of the results); every credential inside it is masked in all output: C(token),
        C(password), C(client-key-data), C(client-certificate-data), C(certificate-authority-data), an
        C(auth-provider)'s C(client-secret), C(id-token), C(refresh-token) and C(access-token), and the C(env)
        values of an C(exec) plugin (values shorter than 4 characters excepted)."
      - Can also be set with the E(K8S_AUTH_KUBECONFIG) environment variable.
      - Selects the Kubernetes VIM (see O(vim_type)).
    type: raw
  context:
    description:
      - The kubeconfig context to use. Defaults to the kubeconfig's current context.
      - Can also be set with the E(K8S_AUTH_CONTEXT) environment variable.
    type: str
  host:
    description:
      - The URL of the Kubernetes API server; overrides the kubeconfig's server.
      - With O(api_key), with O(username) and O(password), or with O(client_cert) and O(client_key), no
        kubeconfig is read.
      - Can also be set with the E(K8S_AUTH_HOST) environment variable.
    type: str
  api_key:
    description:
      - A bearer token for the API server, for example a ServiceAccount token. Wins over O(username)/O(password)
        and over the kubeconfig's credentials.
      - Can also be set with the E(K8S_AUTH_API_KEY) environment variable.
    type: str
  username:
    description:
      - A user name for HTTP basic authentication, with O(password). Only API servers configured for basic
        authentication accept it (Kubernetes itself removed it in 1.19); the kubeconfig's C(username)/C(password)
        are used the same way.
      - Can also be set with the E(K8S_AUTH_USERNAME) environment variable.
    type: str
  password:
    description:
      - The password of O(username).
      - Can also be set with the E(K8S_AUTH_PASSWORD) environment variable.
    type: str
  proxy:
    description:
      - The URL of an HTTP proxy to reach the API server through. A password in the URL is masked in all output.
      - Can also be set with the E(K8S_AUTH_PROXY) environment variable.
    type: str
  no_proxy:
    description:
      - Comma-separated hosts, domains, IP addresses or CIDRs to reach without O(proxy), for example
        V(localhost,.local,10.0.0.0/8).
      - Can also be set with the E(K8S_AUTH_NO_PROXY) environment variable.
    type: str
  proxy_headers:
    description:
      - Headers sent to O(proxy).
      - When not given, the E(K8S_AUTH_PROXY_HEADERS_PROXY_BASIC_AUTH), E(K8S_AUTH_PROXY_HEADERS_BASIC_AUTH) and
        E(K8S_AUTH_PROXY_HEADERS_USER_AGENT) environment variables are used.
    type: dict
    suboptions:
      proxy_basic_auth:
        description:
          - C(user:password) for the proxy's basic authentication (C(Proxy-Authorization)).
        type: str
      basic_auth:
        description:
          - C(user:password) for the C(Authorization) header.
        type: str
      user_agent:
        description:
          - The C(User-Agent) header.
        type: str
  persist_config:
    description:
      - Whether to write refreshed credentials (an OIDC C(id-token) renewed by its C(refresh-token)) back to the
        kubeconfig file. Only for a kubeconfig given as a path.
      - Can also be set with the E(K8S_AUTH_PERSIST_CONFIG) environment variable.
    type: bool
  impersonate_user:
    description:
      - The user to act as (the C(Impersonate-User) header); the credentials used must be allowed to impersonate.
      - Can also be set with the E(K8S_AUTH_IMPERSONATE_USER) environment variable.
    type: str
  impersonate_groups:
    description:
      - The groups to act as (one C(Impersonate-Group) header each).
      - Can also be set with the E(K8S_AUTH_IMPERSONATE_GROUPS) environment variable, comma-separated.
    type: list
    elements: str
  helm_binary:
    description:
      - The Helm 3 (3.8 or later) to run for a Helm-chart CNF (a request with a C(ETSINFV.HELM.V_3) vimConnectionInfo or
        C(additionalParams.helm_chart_path), or an instance instantiated from a chart), as kubernetes.core.helm's
        C(binary_path). Defaults to C(helm) on E(PATH).
      - Missing, not executable or too old, the operation fails before anything is written.
      - Not used for manifest CNFs or on OpenStack.
    type: path
notes:
  - "Every option of this group left unset takes the value of its environment variable, as in kubernetes.core
    (E(K8S_AUTH_<OPTION>), or the variable of the kubernetes client's name for it: E(K8S_AUTH_VERIFY_SSL),
    E(K8S_AUTH_SSL_CA_CERT), E(K8S_AUTH_CERT_FILE), E(K8S_AUTH_KEY_FILE)). A boolean variable is false for
    C(0), C(false) and C(no) and true otherwise. These variables are read only when the VIM is Kubernetes."
"""
