# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Which recorded VNFCs of VM-based VNFs lost their server (the vnfc_watcher's decisions on OpenStack)."""

from __future__ import annotations

import datetime

from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.vnfc_faults import ServerFaultTracker, recorded_servers, server_fault

WALL = datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)


def vm_instance(vnf_id="vnf-1", servers=("s1", "s2"), state="INSTANTIATED"):
    resources = [{"id": server, "vduId": "VDU1", "computeResource": {"resourceId": server, "vimLevelResourceType": "OS::Nova::Server"}}
                 for server in servers]
    return {"id": vnf_id, "instantiationState": state,
            "instantiatedVnfInfo": {"vnfcResourceInfo": resources,
                                    "vnfcInfo": [{"id": "VDU1-" + server, "vduId": "VDU1", "vnfcResourceInfoId": server} for server in servers]}}


def look(tracker, records, statuses, busy=lambda op_occs: False):
    return tracker.candidates([(record, [], 7) for record in records], statuses, busy, WALL)


def test_server_fault():
    assert [server_fault(status) for status in (None, "ERROR", "SHUTOFF", "ACTIVE", "BUILD", "REBOOT")] == ["gone", "error", "shutoff", None, None, None]


def test_recorded_servers():
    assert recorded_servers(vm_instance(servers=["s1"])) == [{"vnfc_info_id": "VDU1-s1", "server_id": "s1"}]
    assert recorded_servers({"id": "x"}) == []


def test_faults_once_per_server():
    tracker = ServerFaultTracker()
    faults = look(tracker, [vm_instance()], {"s1": "ERROR"})
    assert faults == [{"vnfc_info_id": "VDU1-s1", "server_id": "s1", "vnf_instance_id": "vnf-1", "reason": "error", "seen_at": WALL, "version": 7},
                      {"vnfc_info_id": "VDU1-s2", "server_id": "s2", "vnf_instance_id": "vnf-1", "reason": "gone", "seen_at": WALL, "version": 7}]
    tracker.mark_reported(faults[0])
    assert [fault["server_id"] for fault in look(tracker, [vm_instance()], {"s1": "ERROR", "s2": "ACTIVE"})] == []
    # Healed: a new server for the VNFC; the old one is forgotten.
    assert look(tracker, [vm_instance(servers=["s3", "s2"])], {"s3": "ACTIVE", "s2": "ACTIVE"}) == []
    assert tracker.reported == set()


def test_busy_or_not_instantiated_left_alone():
    tracker = ServerFaultTracker()
    assert look(tracker, [vm_instance()], {}, busy=lambda op_occs: True) == []
    assert look(tracker, [vm_instance(state="NOT_INSTANTIATED")], {}) == []


def test_shutoff():
    tracker = ServerFaultTracker()
    assert [fault["reason"] for fault in look(tracker, [vm_instance(servers=["s1"])], {"s1": "SHUTOFF"})] == ["shutoff"]
