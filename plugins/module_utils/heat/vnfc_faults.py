# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Which recorded VNFCs of VM-based VNFs lost their server: what the nfv.vnflcm.vnfc_watcher reports on OpenStack.

Pure: records (``(instance, op_occs, version)`` as heat/store.py lists them) and the project's servers' statuses in,
faults out. A VNFC is the server its record names (``vnfcResourceInfo[].computeResource.resourceId``); its fault is
that this server is in ERROR, SHUTOFF, or gone. Instances that are not INSTANTIATED, or that an operation is working
on, are left alone. A fault is reported once for a server; a server no record names any more is forgotten.
"""

from __future__ import annotations

SERVER_TYPE = "OS::Nova::Server"
GONE = "gone"
# Server statuses that are a fault (Tacker's server notification heals on the same ones).
FAULT_STATUSES = {"ERROR": "error", "SHUTOFF": "shutoff"}
INSTANTIATED = "INSTANTIATED"


def recorded_servers(instance):
    """``[{vnfc_info_id, server_id}]`` of an instance: each vnfcInfo with the server its resource names."""
    info = instance.get("instantiatedVnfInfo") or {}
    resources = {entry.get("id"): entry for entry in info.get("vnfcResourceInfo") or [] if isinstance(entry, dict)}
    result = []
    for vnfc in info.get("vnfcInfo") or []:
        handle = (resources.get((vnfc or {}).get("vnfcResourceInfoId")) or {}).get("computeResource") or {}
        if vnfc.get("id") and handle.get("resourceId") and handle.get("vimLevelResourceType", SERVER_TYPE) == SERVER_TYPE:
            result.append({"vnfc_info_id": vnfc["id"], "server_id": handle["resourceId"]})
    return result


def server_fault(status):
    """``gone``, ``error`` or ``shutoff`` for a server's status (None: the server was not listed), or None."""
    if status is None:
        return GONE
    return FAULT_STATUSES.get(str(status).upper())


class ServerFaultTracker:
    """Remembers which servers were reported, between polls."""

    def __init__(self):
        self.reported = set()

    def candidates(self, records, statuses, busy, wall_now):
        """Faults to confirm and report: ``[{vnf_instance_id, vnfc_info_id, server_id, reason, seen_at, version}]``.

        ``statuses``: server id -> status of every server of the project; ``busy(op_occs)``: an operation is running.
        """
        named, result = set(), []
        for instance, op_occs, version in records:
            servers = recorded_servers(instance)
            named.update(item["server_id"] for item in servers)
            if instance.get("instantiationState") != INSTANTIATED or busy(op_occs or []):
                continue
            for item in servers:
                reason = server_fault(statuses.get(item["server_id"]))
                if reason is not None and item["server_id"] not in self.reported:
                    result.append(dict(item, vnf_instance_id=instance["id"], reason=reason, seen_at=wall_now, version=version))
        self.reported &= named
        return result

    def mark_reported(self, fault):
        self.reported.add(fault["server_id"])
