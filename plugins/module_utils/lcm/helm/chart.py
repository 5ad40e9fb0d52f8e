# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the Helm driver's operations share: the chart as a file Helm reads, the rendered objects as Kubernetes places
them, the release of a record, and the VNFCs of a release's workloads."""

from __future__ import annotations

import contextlib
import copy
import hashlib
import json
import os
import shutil
import tempfile

from ansible_collections.nfv.vnflcm.plugins.module_utils.helm.cli import HelmError, HelmReleaseNotFound, is_pending
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import identity, ref
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.namespaces import instance_namespace
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.pods import live_vnfc_info
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import private_state
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.drivers import HELM_RELEASE
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm.state import HelmRelease

# A rendered object Helm runs as a hook, not as part of the release's manifest.
HOOK_ANNOTATION = "helm.sh/hook"


@contextlib.contextmanager
def chart_file(content, name="chart.tgz"):
    """The chart's bytes as a file in a private folder (0700), removed on leaving."""
    folder = tempfile.mkdtemp(prefix="nfv-vnflcm-chart-")
    try:
        path = os.path.join(folder, name)
        with open(path, "wb") as handle:
            handle.write(content)
        yield path
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def is_hook(document):
    return HOOK_ANNOTATION in ((document.get("metadata") or {}).get("annotations") or {})


def placed(documents, namespace, is_namespaced):
    """The release's objects (hooks left to Helm) as Helm places them: a namespaced one without a namespace in the
    release's. ``is_namespaced(apiVersion, kind)`` is the API server's discovery (None: not served)."""
    result = []
    for document in documents:
        if is_hook(document):
            continue
        obj = copy.deepcopy(document)
        if is_namespaced(obj["apiVersion"], obj["kind"]) and not obj["metadata"].get("namespace"):
            obj["metadata"]["namespace"] = namespace
        result.append(obj)
    return result


def values_digest(set_values):
    """What a record keeps of the values an instantiate gave Helm: a digest (they may hold secrets), for re-runs to compare."""
    return hashlib.sha256(json.dumps(set_values, sort_keys=True).encode()).hexdigest()


def release_of(instance) -> HelmRelease:
    """The record's Helm release (state.py HelmRelease; {} for none)."""
    return private_state(instance).get(HELM_RELEASE) or {}


def upgraded(helm, chart, state: HelmRelease, set_values, timeout):
    """``helm upgrade --reuse-values`` of the record's release (``state``) to ``chart`` (bytes). A release that a killed
    helm left pending-install/upgrade/rollback refuses every upgrade ("another operation is in progress"): it is first
    rolled back to the revision the record names, the last one an operation ended on, then upgraded."""
    release, namespace = state["release"], state["namespace"]
    with chart_file(chart) as path:
        try:
            return helm.upgrade(path, release, namespace, set_values=set_values, reuse_values=True, timeout=timeout)
        except HelmError as error:
            if not left_pending(helm, release, namespace):
                raise
            refused = error
        try:
            helm.rollback(release, state["revision"], namespace, timeout=timeout)
        except HelmError as error:
            raise refused from error
        return helm.upgrade(path, release, namespace, set_values=set_values, reuse_values=True, timeout=timeout)


def left_pending(helm, release, namespace):
    """Whether the release's newest revision is pending: a helm that was stopped mid-operation left it so."""
    try:
        return is_pending(helm.status(release, namespace).status)
    except HelmReleaseNotFound:
        return False


def recorded_workloads(instance):
    """VDU id -> the identity of its workload, as the record names it."""
    return {vdu_id: {"file": None, "index": 0, "object": identity(reference)} for vdu_id, reference in sorted(release_of(instance).get("vdus", {}).items())}


def with_vnfcs(api, instance, replaced=()):
    """``instance`` with its VNFCs read from the pods of its VDUs' workloads (a release's objects carry no instance labels:
    the namespace's pods are followed through their ownerReferences); ``replaced``: VNFC ids whose pods the operation
    replaced (k8s/pods.py live_vnfc_info)."""
    info = live_vnfc_info(api, None, instance_namespace(instance), instance.get("instantiatedVnfInfo"), recorded_workloads(instance), replaced)
    return dict(instance, instantiatedVnfInfo=info)


def workload_refs(workloads, namespace):
    """VDU id -> the record's reference of its rendered workload, placed in ``namespace``."""
    return {vdu_id: dict(ref(workload), namespace=(workload.get("metadata") or {}).get("namespace") or namespace)
            for vdu_id, workload in sorted(workloads.items())}
