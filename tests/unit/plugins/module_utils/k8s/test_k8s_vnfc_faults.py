# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Which recorded VNFCs lost their pod (the vnfc_watcher's decisions), from plain records and pods."""

from __future__ import annotations

import copy
import datetime

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.vnfc_faults import (
    DELETED,
    ENDED,
    NOT_READY,
    FaultTracker,
    pod_fault,
    recorded_vnfcs,
)

WALL = datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)


def idle(op_occs):
    return False


def busy(op_occs):
    return True


def instance(vnf_id="vnf-1", pods=(("a", "uid-a"), ("b", "uid-b")), state="INSTANTIATED", namespace="cnf"):
    resources = [{"id": uid, "vduId": "VDU1", "computeResource": {"resourceId": "pod-" + name, "vimLevelResourceType": "Deployment"},
                  "metadata": {"namespace": namespace, "podUid": uid}} for name, uid in pods]
    return {"id": vnf_id, "instantiationState": state, "metadata": {"namespace": namespace},
            "instantiatedVnfInfo": {"vnfcResourceInfo": resources,
                                    "vnfcInfo": [{"id": "VDU1-{0}".format(uid), "vduId": "VDU1", "vnfcResourceInfoId": uid} for _name, uid in pods]}}


def pod(name, uid, ready=True, phase="Running", deleting=False, namespace="cnf"):
    metadata = {"name": "pod-" + name, "uid": uid, "namespace": namespace}
    if deleting:
        metadata["deletionTimestamp"] = "2026-01-02T03:04:05Z"
    return {"metadata": metadata, "status": {"phase": phase, "conditions": [{"type": "Ready", "status": "True" if ready else "False"}]}}


def healthy():
    return [pod("a", "uid-a"), pod("b", "uid-b")]


class TestPodFault:
    def test_states(self):
        assert pod_fault(pod("a", "u")) is None
        assert pod_fault(None) == DELETED
        assert pod_fault(pod("a", "u", deleting=True)) == DELETED
        assert pod_fault(pod("a", "u", phase="Failed", ready=False)) == ENDED
        assert pod_fault(pod("a", "u", phase="Succeeded", ready=False)) == ENDED
        assert pod_fault(pod("a", "u", ready=False)) == NOT_READY
        assert pod_fault({"metadata": {"uid": "u"}, "status": {"phase": "Pending"}}) == NOT_READY

    def test_recorded_vnfcs_are_vnfc_info_ids_with_their_pods(self):
        assert recorded_vnfcs(instance(pods=[("a", "uid-a")])) == [{"vnfc_info_id": "VDU1-uid-a", "pod_uid": "uid-a", "pod": "pod-a", "namespace": "cnf"}]
        assert recorded_vnfcs({"id": "x"}) == []


class TestFaultTracker:
    def setup_method(self):
        self.tracker = FaultTracker(grace_period=60)

    def look(self, records, pods, now=0, busy_check=idle):
        return self.tracker.candidates([(record, []) for record in records], pods, busy_check, now, WALL)

    def test_healthy_nothing(self):
        assert self.look([instance()], healthy()) == []

    def test_deleted_pod_at_once(self):
        [fault] = self.look([instance()], [pod("b", "uid-b"), pod("a2", "uid-new")])
        assert fault == {"vnf_instance_id": "vnf-1", "vnfc_info_id": "VDU1-uid-a", "namespace": "cnf", "pod": "pod-a", "pod_uid": "uid-a",
                         "reason": DELETED, "seen_at": WALL, "record_namespace": "cnf"}

    def test_terminating_and_failed(self):
        faults = self.look([instance()], [pod("a", "uid-a", deleting=True), pod("b", "uid-b", phase="Failed", ready=False)])
        assert [(fault["vnfc_info_id"], fault["reason"]) for fault in faults] == [("VDU1-uid-a", DELETED), ("VDU1-uid-b", ENDED)]

    def test_not_ready_only_after_the_grace_period(self):
        pods = [pod("a", "uid-a", ready=False), pod("b", "uid-b")]
        assert self.look([instance()], pods, now=0) == []
        assert self.tracker.seconds_to_next(30) == 30
        assert self.look([instance()], pods, now=59.9) == []
        [fault] = self.look([instance()], pods, now=60)
        assert fault["reason"] == NOT_READY and fault["seen_at"] == WALL

    def test_ready_again_restarts_the_grace_period(self):
        flapping = [pod("a", "uid-a", ready=False), pod("b", "uid-b")]
        self.look([instance()], flapping, now=0)
        self.look([instance()], healthy(), now=50)
        assert self.look([instance()], flapping, now=70) == []
        assert len(self.look([instance()], flapping, now=130)) == 1

    def test_reported_once_per_pod(self):
        pods = [pod("b", "uid-b")]
        [fault] = self.look([instance()], pods)
        self.tracker.mark_reported(fault)
        assert self.look([instance()], pods, now=1000) == []
        # Healed: the record names a new pod for the VNFC, which is watched afresh.
        healed = instance(pods=[("a", "uid-a2"), ("b", "uid-b")])
        assert self.look([healed], [pod("a", "uid-a2"), pod("b", "uid-b")], now=1001) == []
        assert self.tracker.reported == set()
        [again] = self.look([healed], [pod("b", "uid-b")], now=1002)
        assert again["pod_uid"] == "uid-a2"

    def test_an_unconfirmed_candidate_is_proposed_again(self):
        assert len(self.look([instance()], [pod("b", "uid-b")])) == 1
        assert len(self.look([instance()], [pod("b", "uid-b")], now=1)) == 1

    def test_instances_not_instantiated_or_busy_are_left_alone(self):
        assert self.look([instance(state="NOT_INSTANTIATED")], []) == []
        assert self.look([instance()], [], busy_check=busy) == []
        # After the operation the grace period of a not-ready pod starts again.
        pods = [pod("a", "uid-a", ready=False), pod("b", "uid-b")]
        self.look([instance()], pods, now=0)
        self.look([instance()], pods, now=50, busy_check=busy)
        assert self.look([instance()], pods, now=70) == []

    def test_two_vnfs(self):
        faults = self.look([instance("vnf-1"), instance("vnf-2", pods=[("c", "uid-c")])], [pod("a", "uid-a")])
        assert [(fault["vnf_instance_id"], fault["vnfc_info_id"]) for fault in faults] == [("vnf-1", "VDU1-uid-b"), ("vnf-2", "VDU1-uid-c")]

    def test_records_without_pod_uids_match_by_name(self):
        record = instance(pods=[("a", None)])
        record["instantiatedVnfInfo"]["vnfcResourceInfo"][0]["id"] = "r1"
        record["instantiatedVnfInfo"]["vnfcInfo"] = [{"id": "VDU1-r1", "vnfcResourceInfoId": "r1"}]
        assert self.look([record], [pod("a", "whatever")]) == []
        assert [fault["vnfc_info_id"] for fault in self.look([record], [])] == ["VDU1-r1"]

    @pytest.mark.parametrize("fresh_pod, fresh_busy, fresh_record, expected", [
        (None, False, "same", True),
        (pod("a", "uid-a", deleting=True), False, "same", True),
        (pod("a", "uid-a"), False, "same", False),                 # the watch lagged: it is there and Ready
        (None, True, "same", False),                              # an operation started meanwhile
        (None, False, "healed", False),                           # the record names another pod now
        (None, False, "gone", False),                             # the instance was deleted
        (pod("a", "uid-a", ready=False), False, "same", False),   # the cache lagged: not Ready waits for its grace period
    ])
    def test_confirm_on_fresh_reads(self, fresh_pod, fresh_busy, fresh_record, expected):
        [fault] = self.look([instance()], [pod("b", "uid-b")])
        record = {"same": instance(), "healed": instance(pods=[("a", "uid-a2"), ("b", "uid-b")]), "gone": None}[fresh_record]
        confirmed = self.tracker.confirm(fault, copy.deepcopy(record), [], fresh_pod, busy if fresh_busy else idle)
        assert confirmed is expected
