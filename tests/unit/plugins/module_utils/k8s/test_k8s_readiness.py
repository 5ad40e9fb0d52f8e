# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Readiness per kind, and the deadline shared by one operation's waits."""

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import OperationTimeout
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.readiness import is_ready
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.deadline import Deadline
from ansible_collections.nfv.vnflcm.tests.unit.fake_clock import FakeClock


def obj(kind, spec=None, status=None, generation=1, **meta):
    return {"kind": kind, "metadata": dict(generation=generation, **meta), "spec": spec or {}, "status": status or {}}


@pytest.mark.parametrize("kind, spec, status, ready", [
    ("Deployment", {"replicas": 3}, {"observedGeneration": 1, "replicas": 3, "updatedReplicas": 3, "availableReplicas": 3}, True),
    ("Deployment", {"replicas": 3}, {"observedGeneration": 1, "replicas": 4, "updatedReplicas": 3, "availableReplicas": 3}, False),
    ("Deployment", {"replicas": 3}, {"observedGeneration": 0, "replicas": 3, "updatedReplicas": 3, "availableReplicas": 3}, False),
    ("ReplicaSet", {"replicas": 2}, {"observedGeneration": 1, "replicas": 2, "readyReplicas": 2}, True),
    ("ReplicaSet", {"replicas": 2}, {"observedGeneration": 1, "replicas": 2, "readyReplicas": 1}, False),
    ("StatefulSet", {"replicas": 2}, {"observedGeneration": 1, "readyReplicas": 2, "updatedReplicas": 2, "currentRevision": "a", "updateRevision": "a"}, True),
    ("StatefulSet", {"replicas": 2}, {"observedGeneration": 1, "readyReplicas": 2, "updatedReplicas": 2, "currentRevision": "a", "updateRevision": "b"}, False),
    ("DaemonSet", {}, {"observedGeneration": 1, "desiredNumberScheduled": 3, "numberReady": 3, "updatedNumberScheduled": 3, "numberAvailable": 3}, True),
    ("DaemonSet", {}, {"observedGeneration": 1, "desiredNumberScheduled": 3, "numberReady": 2, "updatedNumberScheduled": 3, "numberAvailable": 2}, False),
    ("Pod", {}, {"conditions": [{"type": "Ready", "status": "True"}]}, True),
    ("Pod", {}, {"conditions": [{"type": "Ready", "status": "False"}]}, False),
    ("Job", {}, {"conditions": [{"type": "Complete", "status": "True"}]}, True),
    ("PersistentVolumeClaim", {}, {"phase": "Pending"}, False),
    ("ConfigMap", {}, {}, True),
])
def test_readiness_by_kind(kind, spec, status, ready):
    assert is_ready(obj(kind, spec, status)) is ready


def test_a_terminating_pod_is_not_ready():
    pod = obj("Pod", status={"conditions": [{"type": "Ready", "status": "True"}]}, deletionTimestamp="2026-11-22T00:00:00Z")
    assert is_ready(pod) is False


def test_deadline_polls_until_done():
    clock = FakeClock()
    answers = iter([None, None, "ready"])
    assert Deadline(10, 1, clock, clock.sleep).poll(lambda: next(answers), "x") == "ready"
    assert clock.now == 2


def test_deadline_times_out_with_the_partial_result():
    clock = FakeClock()
    with pytest.raises(OperationTimeout) as caught:
        Deadline(3, 1, clock, clock.sleep).poll(lambda: None, "Deployment vdu1 to be ready", {"created": ["x"]})
    assert caught.value.msg == "Failed to wait for Deployment vdu1 to be ready: timed out after 3s"
    assert caught.value.result == {"created": ["x"]}
    assert clock.now == 3
