# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The order in which a CNF's objects are created and deleted.

What others depend on comes first: the Namespace, its quotas, the accounts, secrets and config pods
mount, storage, API extensions and RBAC, Services (so pods find them in their environment), then
workloads and what refers to workloads. Kinds not listed (custom resources, mostly) come after the
known ones; equal kinds keep their def-file order. Deletion is the exact reverse.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import kind_of

CREATE_ORDER = (
    "Namespace",
    "ResourceQuota",
    "LimitRange",
    "PriorityClass",
    "ServiceAccount",
    "Secret",
    "ConfigMap",
    "StorageClass",
    "PersistentVolume",
    "PersistentVolumeClaim",
    "CustomResourceDefinition",
    "ClusterRole",
    "ClusterRoleBinding",
    "Role",
    "RoleBinding",
    "Service",
    "Endpoints",
    "EndpointSlice",
    "Pod",
    "ReplicationController",
    "ReplicaSet",
    "Deployment",
    "StatefulSet",
    "DaemonSet",
    "Job",
    "CronJob",
    "HorizontalPodAutoscaler",
    "PodDisruptionBudget",
    "IngressClass",
    "Ingress",
    "NetworkPolicy",
    "APIService",
)
_RANK = {kind: rank for rank, kind in enumerate(CREATE_ORDER)}


def create_rank(kind):
    """Position of ``kind`` in the create order; unknown kinds share the place after all known ones."""
    return _RANK.get(kind, len(CREATE_ORDER))


def sort_for_create(manifests):
    """Manifest records (or plain objects) in create order; stable, so equal kinds keep their order."""
    return sorted(manifests, key=lambda item: create_rank(kind_of(item)))


def create_waves(manifests):
    """Manifest records (or plain objects) in create order, in waves of one kind each: what an object needs (its
    namespace, quota, account, config, role, CRD) is in an earlier wave, and the objects of a wave, which do not
    need each other, may be created together. Unknown kinds keep their def-file order: a wave per run of one kind."""
    waves = []
    for item in sort_for_create(manifests):
        if waves and kind_of(waves[-1][-1]) == kind_of(item):
            waves[-1].append(item)
        else:
            waves.append([item])
    return waves


def sort_for_delete(objects):
    """Manifest records (or plain objects) in delete order: the reverse of the create order."""
    return list(reversed(sort_for_create(objects)))


# Kinds deleted in the foreground: those whose dependents the garbage collector deletes (a workload's ReplicaSets,
# pods and ControllerRevisions; a Service's EndpointSlices, which carry its labels), so that a wait for the object sees
# its dependents gone too. Every other kind owns nothing: deleted in the background, it is gone when its DELETE returns,
# where a foreground delete kept it until the garbage collector took its finalizer off (a ConfigMap 404 only after
# ~25 s). A ControllerRevision is never deleted in the foreground: its data is immutable, so the garbage collector
# cannot take off the foregroundDeletion finalizer (Kubernetes 1.36), and it would never go.
FOREGROUND_DELETE_KINDS = frozenset(("Deployment", "ReplicaSet", "DaemonSet", "StatefulSet", "Job", "CronJob", "Service"))


def delete_propagation(kind):
    """How a CNF's object of ``kind`` is deleted: in the foreground when it has dependents to wait for, else in the
    background (Tacker v2 deletes everything in the background)."""
    return "Foreground" if kind in FOREGROUND_DELETE_KINDS else "Background"
