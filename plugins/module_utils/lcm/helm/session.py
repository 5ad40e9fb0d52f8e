# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Helm driver's session (lcm/instance_run.py's Session): the CNF driver's Kubernetes session (the API, the namespace of
the records, the same record store) with the Helm CLI beside it (module_utils/helm/cli.py), found by the ``helm_binary``
option, else on PATH, and checked (version) before anything is written. Its planners are given the session itself.

This file imports no operation.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.helm.cli import HelmClient, find_helm
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.client import connection_options
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import session as kube_session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.drivers import HELM


class HelmSession(kube_session.KubeSession):
    """``api``, ``namespace`` (as the CNF driver's) and ``helm``, the HelmClient of the same connection."""

    driver = HELM

    def __init__(self, api, namespace, helm):
        super().__init__(api, namespace)
        self.helm = helm

    def client(self):
        return self

    def plan(self, planner, store, found, request, waits, preview):
        return planner(self, store, found, request, waits=waits)


def connect(params):
    """The HelmSession of the connection options: the Kubernetes session first (a request naming another API server is
    refused there), then the Helm binary."""
    kube = kube_session.connect(params)
    return HelmSession(kube.api, kube.namespace, HelmClient(find_helm(params.get("helm_binary")), connection_options(params)))
