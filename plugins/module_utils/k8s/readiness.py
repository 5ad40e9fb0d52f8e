# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""When is a live object ready: one predicate per kind, on plain dicts (pure)."""

from __future__ import annotations


def _observed(obj):
    """The controller has seen the latest spec (otherwise its status describes an older one)."""
    status = obj.get("status") or {}
    return status.get("observedGeneration", 0) >= (obj.get("metadata") or {}).get("generation", 0)


def _replicas(obj):
    return (obj.get("spec") or {}).get("replicas", 1)


def deployment_ready(obj):
    status = obj.get("status") or {}
    want = _replicas(obj)
    return (_observed(obj) and status.get("updatedReplicas", 0) == want and status.get("replicas", 0) == want
            and status.get("availableReplicas", 0) == want)


def replicaset_ready(obj):
    status = obj.get("status") or {}
    want = _replicas(obj)
    return _observed(obj) and status.get("replicas", 0) == want and status.get("readyReplicas", 0) == want


def statefulset_ready(obj):
    status = obj.get("status") or {}
    want = _replicas(obj)
    revision_done = status.get("updateRevision") in (None, status.get("currentRevision"))
    return _observed(obj) and status.get("readyReplicas", 0) == want and status.get("updatedReplicas", 0) == want and revision_done


def daemonset_ready(obj):
    status = obj.get("status") or {}
    want = status.get("desiredNumberScheduled", 0)
    return (_observed(obj) and status.get("numberReady", 0) == want and status.get("updatedNumberScheduled", 0) == want
            and status.get("numberAvailable", 0) == want)


def pod_ready(obj):
    if (obj.get("metadata") or {}).get("deletionTimestamp"):
        return False
    conditions = (obj.get("status") or {}).get("conditions") or []
    return any(condition.get("type") == "Ready" and condition.get("status") == "True" for condition in conditions)


def job_ready(obj):
    conditions = (obj.get("status") or {}).get("conditions") or []
    return any(condition.get("type") == "Complete" and condition.get("status") == "True" for condition in conditions)


def pvc_ready(obj):
    return (obj.get("status") or {}).get("phase") == "Bound"


READY = {
    "Deployment": deployment_ready,
    "ReplicaSet": replicaset_ready,
    "StatefulSet": statefulset_ready,
    "DaemonSet": daemonset_ready,
    "Pod": pod_ready,
    "Job": job_ready,
    "PersistentVolumeClaim": pvc_ready,
}


def is_ready(obj):
    """Kinds without a predicate are ready once they exist (ConfigMap, Service, Role, ...)."""
    predicate = READY.get(obj.get("kind"))
    return predicate(obj) if predicate else True


def needs_wait(kind):
    return kind in READY
