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


# Kinds deleted in the background: a ControllerRevision's data is immutable, so the garbage collector cannot take
# off the foregroundDeletion finalizer a foreground delete puts on it (Kubernetes 1.36), and it would never go. It
# owns nothing to wait for; Tacker v2 deletes it in the background too.
BACKGROUND_DELETE_KINDS = frozenset(("ControllerRevision",))


def delete_propagation(kind):
    """How a CNF's object of ``kind`` is deleted: in the foreground (its dependents first, so a wait sees them go), but for
    the kinds the garbage collector cannot hold that way."""
    return "Background" if kind in BACKGROUND_DELETE_KINDS else "Foreground"
