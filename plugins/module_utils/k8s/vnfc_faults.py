# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Which VNFCs of the recorded CNFs have lost their pod: what the nfv.vnflcm.vnfc_watcher event source reports.

Pure: records (``(instance, op_occs)``) and pods (plain objects as the API returns them) in, faults out; the clock
is passed in. A VNFC is the pod its record names (``vnfcResourceInfo[].metadata.podUid``, the pod name for records
that have none); its fault is that this pod is deleted or terminating, has ended (Failed, Succeeded), or has not
been Ready for ``grace_period`` seconds. Instances that are not INSTANTIATED, or that an operation is working on,
are left alone: the operation replaces pods itself. A fault is reported once for a pod; a pod the records no longer
name is forgotten.
"""

from __future__ import annotations

DELETED, ENDED, NOT_READY = "deleted", "ended", "not ready"
INSTANTIATED = "INSTANTIATED"


def recorded_vnfcs(instance):
    """``[{vnfc_info_id, pod_uid, pod, namespace}]`` of an instance: each vnfcInfo with the pod its resource names."""
    info = instance.get("instantiatedVnfInfo") or {}
    resources = {entry.get("id"): entry for entry in info.get("vnfcResourceInfo") or [] if isinstance(entry, dict)}
    default_namespace = (instance.get("metadata") or {}).get("namespace")
    result = []
    for vnfc in info.get("vnfcInfo") or []:
        resource = resources.get((vnfc or {}).get("vnfcResourceInfoId"))
        if not vnfc.get("id") or resource is None:
            continue
        metadata = resource.get("metadata") or {}
        result.append({"vnfc_info_id": vnfc["id"], "pod_uid": metadata.get("podUid"), "pod": (resource.get("computeResource") or {}).get("resourceId"),
                       "namespace": metadata.get("namespace") or default_namespace})
    return result


def pod_fault(pod):
    """DELETED, ENDED or NOT_READY for a pod (None: gone), or None when it is running and Ready."""
    if pod is None or (pod.get("metadata") or {}).get("deletionTimestamp"):
        return DELETED
    status = pod.get("status") or {}
    if status.get("phase") in ("Failed", "Succeeded"):
        return ENDED
    ready = [condition for condition in status.get("conditions") or [] if condition.get("type") == "Ready"]
    if not ready or ready[0].get("status") != "True":
        return NOT_READY
    return None


class PodIndex:
    """Pods by UID and by (namespace, name), to find the one a VNFC names."""

    def __init__(self, pods):
        self.by_uid, self.by_name = {}, {}
        for pod in pods:
            metadata = pod.get("metadata") or {}
            if metadata.get("uid"):
                self.by_uid[metadata["uid"]] = pod
            self.by_name[(metadata.get("namespace"), metadata.get("name"))] = pod

    def find(self, vnfc):
        if vnfc["pod_uid"]:
            return self.by_uid.get(vnfc["pod_uid"])
        return self.by_name.get((vnfc["namespace"], vnfc["pod"]))


def pod_key(vnfc):
    return vnfc["pod_uid"] or "{0}/{1}".format(vnfc["namespace"], vnfc["pod"])


def instance_faults(instance, op_occs, index, busy):
    """``[(vnfc, reason)]`` for an instance (none when it is not INSTANTIATED or ``busy(op_occs)``)."""
    if instance.get("instantiationState") != INSTANTIATED or busy(op_occs or []):
        return []
    result = []
    for vnfc in recorded_vnfcs(instance):
        reason = pod_fault(index.find(vnfc))
        if reason is not None:
            result.append((vnfc, reason))
    return result


class FaultTracker:
    """Remembers since when a pod is not Ready and which pods were reported, between looks at the cluster."""

    def __init__(self, grace_period):
        self.grace_period = grace_period
        self.since = {}  # pod key -> (reason, first seen: clock, first seen: wall time)
        self.reported = set()

    def candidates(self, records, pods, busy, now, wall_now):
        """Faults to confirm and report: ``[{vnf_instance_id, vnfc_info_id, namespace, pod, pod_uid, reason, seen_at, record_namespace}]``.

        ``now`` is a monotonic clock (for the grace period), ``wall_now`` the datetime a fault is said to be seen at.
        """
        index = PodIndex(pods)
        named, faulty, result = set(), set(), []
        for instance, op_occs in records:
            named.update(pod_key(vnfc) for vnfc in recorded_vnfcs(instance))
            for vnfc, reason in instance_faults(instance, op_occs, index, busy):
                key = pod_key(vnfc)
                faulty.add(key)
                if key in self.reported:
                    continue
                seen = self.since.get(key)
                if seen is None or seen[0] != reason:
                    seen = self.since[key] = (reason, now, wall_now)
                if reason == NOT_READY and now - seen[1] < self.grace_period:
                    continue
                result.append(dict(vnfc, vnf_instance_id=instance["id"], reason=reason, seen_at=seen[2],
                                   record_namespace=(instance.get("metadata") or {}).get("namespace") or vnfc["namespace"]))
        # A pod that is fine again starts its grace period afresh; one that no record names is forgotten.
        self.since = {key: value for key, value in self.since.items() if key in faulty}
        self.reported &= named
        return result

    def seconds_to_next(self, now):
        """When a not-ready pod's grace period ends next (None: no pod is waiting for one)."""
        waiting = [seen[1] + self.grace_period - now for key, seen in self.since.items() if seen[0] == NOT_READY and key not in self.reported]
        return max(0.0, min(waiting)) if waiting else None

    def mark_reported(self, fault):
        self.reported.add(pod_key(fault))

    def confirm(self, fault, instance, op_occs, pod, busy):
        """Whether a candidate still stands on a fresh read of its record and pod (the watches may lag an operation)."""
        if instance is None:
            return False
        index = PodIndex([pod] if pod is not None else [])
        return any(vnfc["vnfc_info_id"] == fault["vnfc_info_id"] and pod_key(vnfc) == pod_key(fault) and reason in (fault["reason"], DELETED, ENDED)
                   for vnfc, reason in instance_faults(instance, op_occs, index, busy))
