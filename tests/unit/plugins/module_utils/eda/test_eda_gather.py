# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Closed-loop requests from webhook bodies, and their gathering into events (pure, on a hand-moved clock)."""

from __future__ import annotations

import copy
import datetime

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.listing import listed
from ansible_collections.nfv.vnflcm.plugins.module_utils.eda.alerts import PayloadError, label_fingerprint, parse_time, read_webhook
from ansible_collections.nfv.vnflcm.plugins.module_utils.eda.gather import MAX_KEPT_ALERTS, Gatherer
from ansible_collections.nfv.vnflcm.tests.unit.fake_clock import FakeClock

RECEIVED = datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)


def heal_alert(vnf="vnf-1", vnfc="VDU1-a", fingerprint=None, starts="2026-01-02T03:00:00.123456789Z", status="firing", ours=False):
    labels = {"alertname": "PodDown"}
    if ours:
        labels.update(nfv_vnflcm_function="auto_heal", nfv_vnflcm_vnf_instance_id=vnf, nfv_vnflcm_vnfc_info_id=vnfc)
    else:
        labels.update(receiver_type="tacker", function_type="auto_heal", vnf_instance_id=vnf, vnfc_info_id=vnfc)
    return {"status": status, "labels": labels, "annotations": {}, "startsAt": starts, "endsAt": "0001-01-01T00:00:00Z",
            "fingerprint": fingerprint or "fp-{0}-{1}".format(vnf, vnfc)}


def scale_alert(vnf="vnf-1", scale_type="SCALE_OUT", aspect="worker", fingerprint="fp-scale", starts="2026-01-02T03:00:00Z"):
    return {"status": "firing", "startsAt": starts, "fingerprint": fingerprint,
            "labels": {"receiver_type": "tacker", "function_type": "auto_scale", "vnf_instance_id": vnf,
                       "auto_scale_type": scale_type, "aspect_id": aspect}}


def body(*alerts):
    return {"version": "4", "status": "firing", "receiver": "nfv", "groupKey": "{}:{}", "alerts": list(alerts)}


def read(*alerts):
    return read_webhook(body(*alerts), 1000, RECEIVED)[0]


class TestReadWebhook:
    def test_tacker_labels_unchanged(self):
        [request] = read(heal_alert())
        assert (request["function_type"], request["vnf_instance_id"], request["vnfc_info_id"]) == ("auto_heal", "vnf-1", "VDU1-a")

    def test_our_labels(self):
        [request] = read(heal_alert(ours=True))
        assert (request["function_type"], request["vnf_instance_id"], request["vnfc_info_id"]) == ("auto_heal", "vnf-1", "VDU1-a")

    def test_our_labels_win_over_tackers(self):
        alert = heal_alert()
        alert["labels"].update(nfv_vnflcm_vnf_instance_id="vnf-2", nfv_vnflcm_function="auto_heal")
        assert read(alert)[0]["vnf_instance_id"] == "vnf-2"

    def test_our_scale_labels(self):
        alert = {"labels": {"nfv_vnflcm_function": "auto_scale", "nfv_vnflcm_vnf_instance_id": "v", "nfv_vnflcm_auto_scale_type": "SCALE_IN",
                            "nfv_vnflcm_aspect_id": "a"}, "startsAt": "2026-01-02T03:00:00Z"}
        [request] = read(alert)
        assert (request["auto_scale_type"], request["aspect_id"]) == ("SCALE_IN", "a")

    def test_resolved_and_foreign_alerts_are_ignored(self):
        foreign = {"status": "firing", "labels": {"alertname": "DiskFull", "function_type": "auto_heal"}}
        other_receiver = heal_alert()
        other_receiver["labels"]["receiver_type"] = "someone-else"
        fm = heal_alert()
        fm["labels"]["function_type"] = "vnffm"
        requests, ignored, rejected = read_webhook(body(heal_alert(status="resolved"), foreign, other_receiver, fm), 10, RECEIVED)
        assert (requests, ignored, rejected) == ([], {"resolved": 1, "not_for_the_loop": 2, "other_function_type": 1}, [])

    def test_alertmanager_nanoseconds(self):
        assert parse_time("2026-01-02T03:00:00.123456789Z") == datetime.datetime(2026, 1, 2, 3, 0, 0, 123456, tzinfo=datetime.timezone.utc)
        assert parse_time("2026-01-02T05:00:00+02:00") == datetime.datetime(2026, 1, 2, 3, tzinfo=datetime.timezone.utc)
        assert parse_time("yesterday") is None

    @pytest.mark.parametrize("change, field", [
        (lambda b: b.pop("alerts"), "alerts"),
        (lambda b: b.update(alerts={"a": 1}), "alerts"),
        (lambda b: b.update(groupLabels=[]), "groupLabels"),
        (lambda b: b.update(status=1), "status"),
    ])
    def test_a_body_that_is_not_alertmanagers_is_refused(self, change, field):
        bad = body(heal_alert(vnfc="VDU1-x"), heal_alert(), scale_alert())
        change(bad)
        with pytest.raises(PayloadError) as caught:
            read_webhook(bad, 1000, RECEIVED)
        assert caught.value.field == field and caught.value.status == 400

    @pytest.mark.parametrize("index, change, field", [
        (1, lambda b: b["alerts"].__setitem__(1, "x"), "alerts[1]"),
        (1, lambda b: b["alerts"][1].update(labels=["x"]), "alerts[1].labels"),
        (1, lambda b: b["alerts"][1]["labels"].update(severity=3), "alerts[1].labels.severity"),
        (1, lambda b: b["alerts"][1].update(status="burning"), "alerts[1].status"),
        (1, lambda b: b["alerts"][1].update(startsAt="soon"), "alerts[1].startsAt"),
        (1, lambda b: b["alerts"][1].update(annotations="x"), "alerts[1].annotations"),
        (1, lambda b: b["alerts"][1]["labels"].pop("vnf_instance_id"), "alerts[1].labels.vnf_instance_id"),
        (1, lambda b: b["alerts"][1]["labels"].update(vnf_instance_id=""), "alerts[1].labels.vnf_instance_id"),
        (1, lambda b: b["alerts"][1]["labels"].update(vnf_instance_id="a b"), "alerts[1].labels.vnf_instance_id"),
        (1, lambda b: b["alerts"][1]["labels"].pop("vnfc_info_id"), "alerts[1].labels.vnfc_info_id"),
        (2, lambda b: b["alerts"][2]["labels"].pop("aspect_id"), "alerts[2].labels.aspect_id"),
        (2, lambda b: b["alerts"][2]["labels"].update(auto_scale_type="SCALE_UP"), "alerts[2].labels.auto_scale_type"),
        (2, lambda b: b["alerts"][2]["labels"].pop("auto_scale_type"), "alerts[2].labels.auto_scale_type"),
    ])
    def test_a_bad_alert_is_dropped_alone(self, index, change, field):
        good = body(heal_alert(vnfc="VDU1-x"), heal_alert(), scale_alert())
        bad = copy.deepcopy(good)
        change(bad)
        requests, ignored, rejected = read_webhook(bad, 1000, RECEIVED)
        assert [item["index"] for item in rejected] == [index] and rejected[0]["field"] == field and ignored == {}
        kept = [index_ for index_ in range(3) if index_ != index]
        assert [request["labels"] for request in requests] == [good["alerts"][index_]["labels"] for index_ in kept]

    @pytest.mark.parametrize("change", [
        lambda labels: labels.update(function_type="vnffm"),
        lambda labels: labels.update(function_type="auto_fix"),
        lambda labels: labels.pop("function_type"),
    ])
    def test_tackers_other_functions_are_ignored(self, change):
        alert = heal_alert()
        change(alert["labels"])
        requests, ignored, rejected = read_webhook(body(alert, scale_alert()), 10, RECEIVED)
        assert (len(requests), ignored, rejected) == (1, {"other_function_type": 1}, [])

    def test_our_names_are_blamed_for_our_alerts(self):
        alert = heal_alert(ours=True)
        alert["labels"].pop("nfv_vnflcm_vnfc_info_id")
        _requests, _ignored, rejected = read_webhook(body(alert), 10, RECEIVED)
        assert rejected == [{"index": 0, "field": "alerts[0].labels.nfv_vnflcm_vnfc_info_id", "reason": "is required"}]
        alert = heal_alert(ours=True)
        alert["labels"]["nfv_vnflcm_function"] = "auto_fix"
        assert read_webhook(body(alert), 10, RECEIVED)[2][0]["field"] == "alerts[0].labels.nfv_vnflcm_function"

    def test_identity_is_alertmanagers_label_fingerprint(self):
        # Prometheus' model.LabelSet.Fingerprint (FNV-1a 64): the empty set, and a set Alertmanager's own tests use.
        assert label_fingerprint({}) == "cbf29ce484222325"
        [first, second] = read(heal_alert(vnfc="VDU1-a", fingerprint="same"), heal_alert(vnfc="VDU1-b", fingerprint="same"))
        assert first["identity"] != second["identity"] and first["fingerprint"] == second["fingerprint"] == "same"
        assert first["identity"] == label_fingerprint(heal_alert(vnfc="VDU1-a")["labels"])

    def test_listed_is_bounded(self):
        assert listed(["a", "b"]) == "a, b"
        text = listed([str(n) for n in range(10000)])
        assert text.endswith("19 and 9980 more") and len(text) < 200

    def test_body_must_be_an_object(self):
        with pytest.raises(PayloadError):
            read_webhook([heal_alert()], 10, RECEIVED)

    def test_a_bad_resolved_alert_of_ours_still_refuses_the_body_only_for_types(self):
        # A resolved alert is not read as a request: its missing ids are no fault, its wrong types are.
        resolved = heal_alert(status="resolved")
        resolved["labels"].pop("vnfc_info_id")
        assert read(resolved) == []
        resolved["labels"]["x"] = 1
        assert read_webhook(body(resolved), 10, RECEIVED)[2][0]["field"] == "alerts[0].labels.x"

    def test_too_many_alerts(self):
        with pytest.raises(PayloadError) as caught:
            read_webhook(body(*[heal_alert(fingerprint=str(n)) for n in range(11)]), 10, RECEIVED)
        assert caught.value.status == 413 and caught.value.field == "alerts"


class TestGatherer:
    def setup_method(self):
        self.clock = FakeClock()
        self.gatherer = Gatherer("alertmanager", heal_window=2, dedup_window=60, clock=self.clock)

    def add(self, *alerts):
        events = []
        for request in read(*alerts):
            events += self.gatherer.add(request)
        return events

    def test_hundred_alerts_for_one_vnfc_one_event(self):
        alerts = [heal_alert(starts="2026-01-02T03:{0:02d}:{1:02d}Z".format(n // 60, n % 60)) for n in range(100)]
        assert self.add(*alerts) == []
        assert self.gatherer.due() == []
        self.clock.sleep(2)
        [event] = self.gatherer.due()
        body = event["nfv_vnflcm"]
        assert body["vnfc_info_ids"] == ["VDU1-a"] and body["source"] == "alertmanager" and body["function_type"] == "auto_heal"
        assert body["first_alert_at"] == "2026-01-02T03:00:00Z"
        assert len(body["alerts"]) == 100
        assert self.gatherer.due() == [] and self.gatherer.seconds_to_next() is None

    def test_the_event_shape(self):
        self.add(heal_alert())
        self.clock.sleep(2)
        assert self.gatherer.due() == [{"nfv_vnflcm": {
            "function_type": "auto_heal", "vnf_instance_id": "vnf-1", "vnfc_info_ids": ["VDU1-a"],
            "first_alert_at": "2026-01-02T03:00:00Z", "source": "alertmanager",
            "alerts": [{"fingerprint": "fp-vnf-1-VDU1-a", "startsAt": "2026-01-02T03:00:00.123456789Z", "labels": heal_alert()["labels"]}]}}]

    def test_several_vnfcs_of_one_vnf_one_event(self):
        self.add(heal_alert(vnfc="VDU2-b", starts="2026-01-02T03:00:09Z"), heal_alert(vnfc="VDU1-a", starts="2026-01-02T03:00:07Z"))
        self.clock.sleep(1)
        self.add(heal_alert(vnfc="VDU1-c", ours=True, fingerprint="other"))
        self.clock.sleep(1)
        [event] = self.gatherer.due()
        assert event["nfv_vnflcm"]["vnfc_info_ids"] == ["VDU1-a", "VDU1-c", "VDU2-b"]
        assert event["nfv_vnflcm"]["first_alert_at"] == "2026-01-02T03:00:00Z"

    def test_two_vnfs_two_events(self):
        self.add(heal_alert(vnf="vnf-1"))
        self.clock.sleep(1)
        self.add(heal_alert(vnf="vnf-2"))
        self.clock.sleep(1)
        [first] = self.gatherer.due()
        assert first["nfv_vnflcm"]["vnf_instance_id"] == "vnf-1"
        assert self.gatherer.seconds_to_next() == 1
        self.clock.sleep(1)
        [second] = self.gatherer.due()
        assert second["nfv_vnflcm"]["vnf_instance_id"] == "vnf-2"

    def test_window_starts_with_the_first_alert_and_a_new_one_after(self):
        self.add(heal_alert(starts="2026-01-02T03:00:00Z"))
        self.clock.sleep(1.9)
        self.add(heal_alert(starts="2026-01-02T03:00:01Z"))
        assert self.gatherer.due() == []
        self.clock.sleep(0.1)
        assert len(self.gatherer.due()) == 1
        self.add(heal_alert(starts="2026-01-02T03:00:02Z"))
        assert self.gatherer.seconds_to_next() == 2
        self.clock.sleep(2)
        assert len(self.gatherer.due()) == 1

    def test_an_alert_sent_again_is_not_emitted_again(self):
        self.add(heal_alert())
        self.clock.sleep(2)
        assert len(self.gatherer.due()) == 1
        self.add(heal_alert(fingerprint="another"))  # Alertmanager's next group notification (any fingerprint: same labels)
        self.clock.sleep(2)
        assert self.gatherer.due() == [] and self.gatherer.duplicates == 1
        self.clock.sleep(60)
        self.add(heal_alert())  # forgotten after dedup_window
        self.clock.sleep(2)
        assert len(self.gatherer.due()) == 1

    def test_a_refiring_alert_is_new(self):
        self.add(heal_alert())
        self.clock.sleep(2)
        self.gatherer.due()
        self.add(heal_alert(starts="2026-01-02T03:10:00Z"))
        self.clock.sleep(2)
        assert len(self.gatherer.due()) == 1

    def test_scale_one_event_per_alert_at_once(self):
        events = self.add(scale_alert(fingerprint="1"), scale_alert(fingerprint="2", scale_type="SCALE_IN"), scale_alert(fingerprint="1"))
        assert [event["nfv_vnflcm"]["auto_scale_type"] for event in events] == ["SCALE_OUT", "SCALE_IN"]
        assert events[0] == {"nfv_vnflcm": {
            "function_type": "auto_scale", "vnf_instance_id": "vnf-1", "auto_scale_type": "SCALE_OUT", "aspect_id": "worker",
            "first_alert_at": "2026-01-02T03:00:00Z", "source": "alertmanager",
            "alerts": [{"fingerprint": "1", "startsAt": "2026-01-02T03:00:00Z", "labels": scale_alert()["labels"]}]}}
        assert self.gatherer.seconds_to_next() is None

    def test_kept_alerts_are_bounded_and_keep_the_earliest(self):
        alerts = [heal_alert(fingerprint=str(n), starts="2026-01-02T04:{0:02d}:{1:02d}Z".format(59 - n // 60, 59 - n % 60)) for n in range(150)]
        self.add(*alerts)
        self.clock.sleep(2)
        [event] = self.gatherer.due()
        assert len(event["nfv_vnflcm"]["alerts"]) == MAX_KEPT_ALERTS
        assert event["nfv_vnflcm"]["first_alert_at"] == "2026-01-02T04:57:30Z"
