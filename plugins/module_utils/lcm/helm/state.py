# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The layout of the Helm driver's private state in the record (``instantiatedVnfInfo.metadata[PRIVATE]``,
common/record_store.py), key by key: the Kubernetes keys it shares with the CNF driver (lcm/cnf/state.py) and its release.

Types only: the code reads and writes these keys by name, as plain dicts (the record is JSON).
"""

from __future__ import annotations

from typing import Dict, TypedDict

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.state import KubernetesState


class HelmRelease(TypedDict, total=False):
    """The record's Helm release (chart.py release_of), under HELM_RELEASE (lcm/drivers.py). Written whole by instantiate
    (without ``revision`` while it runs: instantiate.py with_pending_release); its presence makes lcm/drivers.py's
    instance_driver pick this driver."""

    # The release's name (helm/cli.py tacker_release_name) and namespace: read by every operation that runs helm.
    release: str
    namespace: str
    # The chart's path in the package and a digest of its bytes, the key of the chart kept beside the record
    # (helm/kept_chart.py): rewritten by a change of package; scale reads the digest (its upgrade needs the chart).
    chart: str
    chartDigest: str
    # VDU id -> the identity of its workload (chart.py workload_refs): rewritten by a change of package, read by chart.py
    # recorded_workloads (the VNFCs, the scales' dry runs) and a change of package's rollback (its waits).
    vdus: Dict[str, dict]
    # VDU id -> the value that sets its replicas (the request's helm_value_names): read by scale and change of package.
    replicaKeys: Dict[str, str]
    # The revision the last operation ended on: rewritten by every upgrade and rollback; chart.py upgraded rolls a release
    # a killed helm left pending back to it.
    revision: int


class HelmState(KubernetesState, total=False):
    """The Helm driver's private state: the CNF driver's Kubernetes keys (no ``deployed``: Helm deploys the chart) and
    the release. Its ``instantiation`` holds the flavour, level, chart, namespace and a digest of the values (never the
    values: they may hold secrets)."""

    # HELM_RELEASE (lcm/drivers.py): the release.
    helm: HelmRelease
