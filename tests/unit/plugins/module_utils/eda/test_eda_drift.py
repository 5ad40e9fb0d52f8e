# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The watcher's drift events (eda/drift.py): one per VNF with drift, again only when it changes, values left out."""

from __future__ import annotations

import datetime

from ansible_collections.nfv.vnflcm.plugins.module_utils.eda.drift import DriftTracker
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import PRIVATE

NOW = datetime.datetime(2026, 12, 1, 12, 0, 0, tzinfo=datetime.timezone.utc)


def record(instance_id, state="INSTANTIATED", deployed=True):
    private = {"deployed": [{"file": "f.yaml", "index": 0, "object": {}}]} if deployed else {}
    return {"id": instance_id, "vnfInstanceName": instance_id + "-name", "instantiationState": state,
            "instantiatedVnfInfo": {"metadata": {"namespace": "tenant-a", PRIVATE: private}}}


def report(*objects):
    return {"drifted": len(objects), "objects": list(objects)}


SCALED = {"kind": "Deployment", "name": "vdu1", "status": "changed", "fields": [{"path": "spec.replicas", "expected": 1, "live": 3}]}
SECRET = {"kind": "Secret", "name": "s1", "status": "changed", "fields": [{"path": "data.password", "expected": "********", "live": "********"}]}


def test_one_event_per_drifted_vnf_again_only_when_its_drift_changes():
    tracker = DriftTracker()
    drifts = {"a": report(SCALED, SECRET), "b": report()}
    records = [(record("a"), []), (record("b"), []), (record("busy"), ["op"]), (record("helm", deployed=False), []),
               (record("off", state="NOT_INSTANTIATED"), [])]
    read = []

    def reader(instance):
        read.append(instance["id"])
        return drifts[instance["id"]]

    events, errors = tracker.events(records, bool, reader, NOW, "watcher")
    assert read == ["a", "b"] and errors == []
    [event] = events
    assert event["nfv_vnflcm"] == {"function_type": "drift", "vnf_instance_id": "a", "vnf_instance_name": "a-name", "namespace": "tenant-a",
                                   "drifted": 2, "first_alert_at": "2026-12-01T12:00:00Z", "source": "watcher",
                                   "objects": [{"kind": "Deployment", "name": "vdu1", "status": "changed", "paths": ["spec.replicas"]},
                                               {"kind": "Secret", "name": "s1", "status": "changed", "paths": ["data.password"]}]}
    assert "********" not in repr(event)
    # The same drift: not again; drift that changes further: again; gone, then back: again.
    assert tracker.events(records, bool, reader, NOW, "watcher")[0] == []
    drifts["a"] = report(dict(SCALED, fields=[{"path": "spec.replicas", "expected": 1, "live": 4}]))
    assert len(tracker.events(records, bool, reader, NOW, "watcher")[0]) == 1
    drifts["a"] = report()
    assert tracker.events(records, bool, reader, NOW, "watcher")[0] == []
    drifts["a"] = report(SCALED)
    assert len(tracker.events(records, bool, reader, NOW, "watcher")[0]) == 1


def test_an_instance_whose_drift_cannot_be_read_is_left_for_next_time():
    def refused(instance):
        raise RuntimeError("403 Forbidden")
    events, errors = DriftTracker().events([(record("a"), [])], lambda op_occs: False, refused, NOW, "watcher")
    assert events == [] and [(instance_id, str(error)) for instance_id, error in errors] == [("a", "403 Forbidden")]
