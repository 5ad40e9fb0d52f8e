# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The CNF driver's session (lcm/instance_run.py's Session): the Kubernetes API the connection options reach, and the
namespace whose records it reads.

Each operation's run (module params to a finished operation) is in its own file beside this one (``run_scale`` of
scale.py, ...), which its module names: a module's AnsiballZ payload then carries its own operation's code and not
the others'. This file imports no operation.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.api import KubeApi
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.client import build_api_client, connection_options
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.store import SecretRecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.drivers import CNF
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import KUBERNETES_VIM_TYPES, check_vim_endpoints

DEFAULT_NAMESPACE = "default"


class KubeSession:
    """``api`` (k8s/api.py's KubeApi) and ``namespace``, where the instance's record is (the option, else the context's,
    else default)."""

    driver = CNF

    def __init__(self, api, namespace):
        self.api = api
        self.namespace = namespace

    def store(self):
        return SecretRecordStore(self.api, self.namespace)

    def where(self):
        return "in namespace {0}".format(self.namespace)

    def client(self):
        return self.api

    def api_calls(self):
        return dict(self.api.calls)

    def plan(self, planner, store, found, request, waits, preview):
        return planner(self.api, store, found, request, waits=waits)


def connect(params):
    """The KubeSession of the connection and instance options; a request whose vimConnectionInfo names another API server
    is refused here, before any call."""
    client, context_namespace = build_api_client(connection_options(params))
    check_vim_endpoints(params.get("request"), KUBERNETES_VIM_TYPES, client.configuration.host, "the kubeconfig's server and the connection options")
    return KubeSession(KubeApi(client), params.get("namespace") or context_namespace or DEFAULT_NAMESPACE)
