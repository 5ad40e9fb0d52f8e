# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The closed loop's decision (lcm/closed_loop.py) and its filters: record + request + now -> what to do and why."""

from __future__ import annotations

import datetime

import pytest

from ansible.errors import AnsibleFilterError

from ansible_collections.nfv.vnflcm.plugins.filter.closed_loop import closed_loop_decision, closed_loop_request as request_filter, closed_loop_resumable
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import closed_loop as cl

NOW = datetime.datetime(2026, 11, 27, 12, 0, 0, tzinfo=datetime.timezone.utc)
ALERT = "2026-11-27T11:59:00.123456789Z"


def at(seconds_before_now):
    return (NOW - datetime.timedelta(seconds=seconds_before_now)).strftime("%Y-%m-%dT%H:%M:%SZ")


def instance(heal=True, scale=True, state="INSTANTIATED", vnfcs=("c1", "c2"), level=0, max_level=2):
    props = {}
    if heal is not None:
        props["isAutohealEnabled"] = heal
    if scale is not None:
        props["isAutoscaleEnabled"] = scale
    return {"id": "vnf1", "instantiationState": state, "vnfConfigurableProperties": props,
            "instantiatedVnfInfo": {"vnfcInfo": [{"id": vnfc_id} for vnfc_id in vnfcs],
                                    "scaleStatus": [{"aspectId": "vdu1_aspect", "scaleLevel": level}],
                                    "metadata": {"vnflcm": {"flavour": {"scaling_aspects": {"vdu1_aspect": {"max_scale_level": max_level}}}}}}}


def op_occ(op_id, operation="HEAL", state="COMPLETED", started=30, params=None, lease=None):
    item = {"id": op_id, "vnfInstanceId": "vnf1", "operation": operation, "operationState": state, "startTime": at(started),
            "operationParams": params if params is not None else {"vnfcInstanceId": ["c1"]}}
    if lease:
        item["lease"] = {"status": lease, "statusReason": "run r1 (process 42 on host) " + lease, "expiresAt": at(-60)}
    return item


def heal_request(ids=("c1",), first=ALERT):
    return cl.closed_loop_request({"nfv_vnflcm": {"function_type": "auto_heal", "vnf_instance_id": "vnf1", "vnfc_info_ids": list(ids),
                                                  "first_alert_at": first, "source": "alertmanager",
                                                  "alerts": [{"labels": {"namespace": "tenant-a"}}]}}, "auto_heal")


def scale_request(scale_type="SCALE_OUT", aspect="vdu1_aspect"):
    return cl.closed_loop_request({"nfv_vnflcm": {"function_type": "auto_scale", "vnf_instance_id": "vnf1", "auto_scale_type": scale_type,
                                                  "aspect_id": aspect, "first_alert_at": ALERT}}, "auto_scale")


def test_invoked_by_names_the_alerts_bounded():
    alerts = [{"fingerprint": "f{0}".format(n), "startsAt": ALERT, "labels": {"alertname": "PodDown", "vnfc_info_id": str(n)}} for n in range(10000)]
    request = cl.closed_loop_request({"nfv_vnflcm": {"function_type": "auto_heal", "vnf_instance_id": "vnf1", "vnfc_info_ids": ["c1"],
                                                     "first_alert_at": ALERT, "source": "alertmanager", "alerts": alerts}}, "auto_heal")
    cause = request["invoked_by"]
    assert cause["alert_count"] == 10000 and len(cause["alerts"]) == 20
    assert cause["alerts"][0] == {"fingerprint": "f0", "startsAt": ALERT, "alertname": "PodDown"}


def test_an_unknown_instance_names_where_it_was_looked_for():
    request = dict(heal_request(), namespace="", searched_namespaces=["a", "b"])
    assert cl.decide_heal(None, [], request, NOW)["message"] == "nothing done: no VNF instance vnf1 in namespaces a, b (closed_loop_namespaces)"
    request = dict(heal_request(), namespace="", searched_namespaces=["ns{0}".format(n) for n in range(30)])
    assert cl.decide_heal(None, [], request, NOW)["message"].endswith("ns19 and 10 more (closed_loop_namespaces)")
    assert cl.decide_scale(None, [], scale_request(), NOW)["message"] == "nothing done: no VNF instance vnf1"


def test_messages_name_at_most_twenty_vnfcs():
    ids = ["c{0}".format(n) for n in range(10000)]
    decision = cl.decide_heal(instance(vnfcs=ids[:5000]), [], heal_request(ids=ids), NOW)
    assert decision["action"] == "heal" and len(decision["heal_request"]["vnfcInstanceId"]) == 5000
    assert len(decision["message"]) < 1000 and "and 4980 more" in decision["message"]


def test_the_request_is_the_event_with_the_namespace_of_its_alerts_and_overrides_win():
    request = heal_request(ids=("c2", "c1", "c2"))
    assert request == {"function_type": "auto_heal", "vnf_instance_id": "vnf1", "vnfc_info_ids": ["c1", "c2"], "source": "alertmanager",
                       "first_alert_at": "2026-11-27T11:59:00Z", "namespace": "tenant-a", "alerts": 1,
                       "invoked_by": {"source": "alertmanager", "first_alert_at": "2026-11-27T11:59:00Z", "alert_count": 1, "alerts": [{}]}}
    by_hand = cl.closed_loop_request({}, "auto_heal", {"vnf_instance_id": "vnf2", "vnfc_info_ids": "a, b", "namespace": "ns", "first_alert_at": ""}, now=NOW)
    assert (by_hand["vnf_instance_id"], by_hand["vnfc_info_ids"], by_hand["namespace"], by_hand["first_alert_at"], by_hand["source"]) == \
        ("vnf2", ["a", "b"], "ns", "2026-11-27T12:00:00Z", "manual")


@pytest.mark.parametrize("event, function, field", [
    ({}, "auto_heal", "vnf_instance_id"),
    ({"vnf_instance_id": "x", "vnfc_info_ids": [1]}, "auto_heal", "vnfc_info_ids"),
    ({"vnf_instance_id": "x", "vnfc_info_ids": ["a"], "first_alert_at": "yesterday"}, "auto_heal", "first_alert_at"),
    ({"vnf_instance_id": "x", "vnfc_info_ids": ["a"], "first_alert_at": "2026-11-27T11:59:00"}, "auto_heal", "first_alert_at"),
    ({"vnf_instance_id": "x", "auto_scale_type": "UP", "aspect_id": "a"}, "auto_scale", "auto_scale_type"),
    ({"vnf_instance_id": "x", "auto_scale_type": "SCALE_IN"}, "auto_scale", "aspect_id"),
    ({"function_type": "auto_scale", "vnf_instance_id": "x"}, "auto_heal", "function_type"),
])
def test_a_malformed_request_names_its_field(event, function, field):
    with pytest.raises(ValidationError) as caught:
        cl.closed_loop_request({"nfv_vnflcm": event}, function)
    assert caught.value.field == field


@pytest.mark.parametrize("record, reason", [
    (None, cl.UNKNOWN_INSTANCE),
    (instance(state="NOT_INSTANTIATED"), cl.NOT_INSTANTIATED),
    (instance(heal=False), cl.DISABLED),
    (instance(heal=None), cl.DISABLED),
    (instance(heal="true"), cl.DISABLED),
])
def test_tackers_gates_do_nothing_and_say_why(record, reason):
    decision = cl.decide_heal(record, [], heal_request(), NOW)
    assert (decision["action"], decision["reason"]) == (cl.NOTHING, reason)
    assert decision["message"].startswith("nothing done: ")


def test_a_heal_names_the_vnfcs_still_to_heal():
    decision = cl.decide_heal(instance(), [], heal_request(("c1", "c2", "gone")), NOW)
    assert decision["action"] == cl.HEAL
    assert decision["heal_request"]["vnfcInstanceId"] == ["c1", "c2"]
    assert decision["unknown_vnfc_info_ids"] == ["gone"] and "gone not a VNFC" in decision["message"]
    assert decision["heal_request"]["cause"].startswith("auto_heal (alertmanager)")


def test_vnfcs_healed_since_the_alert_are_not_healed_again():
    after = op_occ("h1", started=30)                       # 11:59:30, after the alert at 11:59:00
    before = op_occ("h0", started=120, params={"vnfcInstanceId": ["c2"]})  # 11:58:00
    decision = cl.decide_heal(instance(), [after, before], heal_request(("c1", "c2")), NOW)
    assert decision["action"] == cl.HEAL and decision["heal_request"]["vnfcInstanceId"] == ["c2"]
    assert decision["healed_vnfc_info_ids"] == ["c1"]
    done = cl.decide_heal(instance(), [after], heal_request(("c1",)), NOW)
    assert (done["action"], done["reason"]) == (cl.NOTHING, cl.ALREADY_HEALED) and "by op occ h1" in done["message"]
    whole = op_occ("h2", started=10, params={})            # a heal of the whole VNF replaced every VNFC
    assert cl.decide_heal(instance(), [whole], heal_request(("c1", "c2")), NOW)["reason"] == cl.ALREADY_HEALED
    failed = op_occ("h3", state="FAILED", started=10)
    assert cl.decide_heal(instance(), [failed], heal_request(("c1",)), NOW)["action"] == cl.HEAL


def test_an_alert_naming_a_vnfc_a_heal_replaced_since_is_already_healed():
    # A healed VNFC's id follows its new pod or server: the record has the new VNFC (VDU1-c3), not the one alerted on.
    record = instance(vnfcs=("VDU1-c2", "VDU1-c3"))
    named = op_occ("h1", started=30, params={"vnfcInstanceId": ["VDU1-c1"]})
    done = cl.decide_heal(record, [named], heal_request(("VDU1-c1",)), NOW)
    assert (done["action"], done["reason"]) == (cl.NOTHING, cl.ALREADY_HEALED) and "by op occ h1" in done["message"]
    assert done["healed_vnfc_info_ids"] == ["VDU1-c1"] and done["unknown_vnfc_info_ids"] == []
    # A heal of the whole VNF named none: its resourceChanges say which VNFCs it removed.
    changes = {"affectedVnfcs": [{"id": "c1", "vduId": "VDU1", "changeType": "REMOVED"}, {"id": "c3", "vduId": "VDU1", "changeType": "ADDED"}]}
    whole = dict(op_occ("h2", started=30, params={}), resourceChanges=changes)
    decision = cl.decide_heal(record, [whole], heal_request(("VDU1-c1", "VDU1-c2", "VDU1-old")), NOW)
    assert decision["healed_vnfc_info_ids"] == ["VDU1-c1", "VDU1-c2"]
    assert decision["unknown_vnfc_info_ids"] == ["VDU1-old"]
    # A heal that started before the alert does not count: the id is simply not a VNFC of the instance any more.
    early = dict(op_occ("h0", started=120, params={"vnfcInstanceId": ["VDU1-c1"]}))
    assert cl.decide_heal(record, [early], heal_request(("VDU1-c1",)), NOW)["reason"] == cl.NO_VNFC


def test_the_heal_limit_counts_the_records_heals_of_the_period():
    heals = [op_occ("h{0}".format(index), started=100 + index, params={"vnfcInstanceId": ["c2"]}) for index in range(3)]
    decision = cl.decide_heal(instance(), heals, heal_request(("c1",)), NOW)
    assert (decision["action"], decision["reason"]) == (cl.NOTHING, cl.RATE_LIMITED)
    assert "3 heals of this VNF started in the last 600 s (limit 3" in decision["message"]
    assert cl.decide_heal(instance(), heals, heal_request(("c1",)), NOW, {"heal_limit": 4})["action"] == cl.HEAL
    assert cl.decide_heal(instance(), heals, heal_request(("c1",)), NOW, {"heal_period": 60})["action"] == cl.HEAL


def test_another_runs_live_op_occ_is_waited_for():
    running = op_occ("s1", operation="SCALE", state="PROCESSING", started=5, lease="live")
    decision = cl.decide_heal(instance(), [running], heal_request(), NOW)
    assert (decision["action"], decision["op_occ_id"]) == (cl.WAIT, "s1")


@pytest.mark.parametrize("stuck", [
    op_occ("h9", state="PROCESSING", started=5, lease="runner gone"),
    op_occ("h9", state="PROCESSING", started=5, lease="expired"),
    op_occ("h9", state="FAILED_TEMP", started=5),
])
def test_the_loops_own_op_occ_left_by_a_killed_run_is_taken_over_then_counts_as_done(stuck):
    decision = cl.decide_heal(instance(), [stuck], heal_request(("c1",)), NOW)
    assert (decision["action"], decision["op_occ_id"]) == (cl.RETRY, "h9")
    retried = dict(stuck, operationState="COMPLETED", startTime=at(120))  # started before the alert, retried after it
    again = cl.decide_heal(instance(), [retried], heal_request(("c1", "c2")), NOW, resumed=("h9",))
    assert again["action"] == cl.HEAL and again["heal_request"]["vnfcInstanceId"] == ["c2"]


def test_an_unfinished_op_occ_of_another_operation_is_left_to_the_operator():
    stuck = op_occ("i1", operation="MODIFY_INFO", state="FAILED_TEMP", started=5)
    decision = cl.decide_heal(instance(), [stuck], heal_request(), NOW)
    assert (decision["action"], decision["reason"]) == (cl.NOTHING, cl.UNFINISHED_OTHER) and "vnf_lcm_op_occ" in decision["message"]


def test_a_scale_is_one_step_within_the_aspects_range():
    decision = cl.decide_scale(instance(level=1), [], scale_request(), NOW)
    assert decision["action"] == cl.SCALE
    assert decision["scale_request"] == {"type": "SCALE_OUT", "aspectId": "vdu1_aspect", "numberOfSteps": 1}
    assert (decision["from_level"], decision["to_level"], decision["max_scale_level"]) == (1, 2, 2)
    beyond = cl.decide_scale(instance(level=2), [], scale_request(), NOW)
    assert (beyond["action"], beyond["reason"]) == (cl.NOTHING, cl.OUT_OF_RANGE) and "outside 0..2" in beyond["message"]
    below = cl.decide_scale(instance(level=0), [], scale_request("SCALE_IN"), NOW)
    assert below["reason"] == cl.OUT_OF_RANGE
    assert cl.decide_scale(instance(), [], scale_request(aspect="nope"), NOW)["reason"] == cl.UNKNOWN_ASPECT
    assert cl.decide_scale(instance(scale=False), [], scale_request(), NOW)["reason"] == cl.DISABLED


def test_sol003_max_scale_levels_serve_when_the_record_keeps_no_flavour():
    record = instance(level=1)
    record["instantiatedVnfInfo"]["metadata"] = {}
    record["instantiatedVnfInfo"]["maxScaleLevels"] = [{"aspectId": "vdu1_aspect", "scaleLevel": 1}]
    assert cl.decide_scale(record, [], scale_request(), NOW)["reason"] == cl.OUT_OF_RANGE


def test_the_same_step_done_since_the_alert_is_not_done_again():
    done = op_occ("s1", operation="SCALE", started=30, params={"type": "SCALE_OUT", "aspectId": "vdu1_aspect"})
    decision = cl.decide_scale(instance(level=1), [done], scale_request(), NOW)
    assert (decision["action"], decision["reason"]) == (cl.NOTHING, cl.ALREADY_SCALED)
    assert cl.decide_scale(instance(level=1), [done], scale_request("SCALE_IN"), NOW)["action"] == cl.SCALE


def test_the_filters_pick_the_requests_instance_from_vnf_info_and_wrap_errors():
    info = {"vnf_instances": [instance()], "vnf_lcm_op_occs": [op_occ("h1", started=30)]}
    request = request_filter({"nfv_vnflcm": {"vnf_instance_id": "vnf1", "vnfc_info_ids": ["c1", "c2"], "first_alert_at": ALERT}}, "auto_heal")
    decision = closed_loop_decision(info, request, {"heal_limit": 3}, [], now=NOW.isoformat())
    assert decision["heal_request"]["vnfcInstanceId"] == ["c2"]
    assert closed_loop_decision({"vnf_instances": [], "vnf_lcm_op_occs": []}, request)["reason"] == cl.UNKNOWN_INSTANCE
    with pytest.raises(AnsibleFilterError, match="vnf_instance_id"):
        request_filter({}, "auto_heal")


def test_alertmanagers_nanoseconds_and_offsets_are_read():
    assert cl.parse_time("2026-11-27T13:59:00.987654321+02:00") == datetime.datetime(2026, 11, 27, 11, 59, 0, 987654, tzinfo=datetime.timezone.utc)
    assert cl.format_time(cl.parse_time("2026-11-27T11:59:00Z")) == "2026-11-27T11:59:00Z"


def auto(op_occ_item, automatic=True):
    return dict(op_occ_item, isAutomaticInvocation=automatic, vnfInstanceId="vnf1")


def test_resumable_takes_the_loops_own_op_occs_left_behind():
    left = [auto(op_occ("h1", state="PROCESSING", lease="runner gone", started=50)),
            auto(op_occ("s1", operation="SCALE", state="FAILED_TEMP", started=40)),
            auto(op_occ("h2", state="PROCESSING", lease="live", started=30)),            # running: left alone
            auto(op_occ("h3", state="PROCESSING", lease="expired", started=20), automatic=False),  # a user's
            auto(op_occ("m1", operation="MODIFY_INFO", state="FAILED_TEMP", started=10)),  # not the loop's operation
            auto(op_occ("h4", state="COMPLETED", started=5))]
    found = cl.resumable([instance()], left, "tenant-a")
    assert [(item["op_occ_id"], item["operation"], item["state"], item["namespace"]) for item in found] == [
        ("h1", "HEAL", "PROCESSING", "tenant-a"), ("s1", "SCALE", "FAILED_TEMP", "tenant-a")]
    assert found[0]["why"] == "run r1 (process 42 on host) runner gone"
    assert cl.resumable([instance(state="NOT_INSTANTIATED")], left) == [] and cl.resumable([], left) == []


def test_the_resumable_filter_reads_a_loop_over_namespaces():
    stuck = auto(op_occ("h1", state="FAILED_TEMP"))
    results = {"results": [{"item": "a", "vnf_instances": [instance()], "vnf_lcm_op_occs": [stuck]},
                           {"item": "b", "failed": True, "msg": "forbidden"},
                           {"item": "c", "vnf_instances": [], "vnf_lcm_op_occs": []}]}
    assert [(item["namespace"], item["op_occ_id"]) for item in closed_loop_resumable(results)] == [("a", "h1")]
    assert [item["namespace"] for item in closed_loop_resumable({"vnf_instances": [instance()], "vnf_lcm_op_occs": [stuck]})] == [""]
    with pytest.raises(AnsibleFilterError):
        closed_loop_resumable("x")


def drift_request(drifted=2, first=ALERT):
    return cl.closed_loop_request({"nfv_vnflcm": {"function_type": "drift", "vnf_instance_id": "vnf1", "drifted": drifted, "first_alert_at": first,
                                                  "source": "watcher", "namespace": "tenant-a"}}, "drift")


def reconcilable(enabled):
    found = instance()
    found["vnfConfigurableProperties"]["isAutoReconcileEnabled"] = enabled
    return found


REPAIR = {"cause": "drift (watcher)", "additionalParams": {"reconcile": True}}


def test_drift_is_repaired_when_the_instance_or_the_loop_allows_it_else_only_reported():
    decision = cl.decide_drift(reconcilable(True), [], drift_request(), NOW)
    assert decision["action"] == cl.HEAL and decision["heal_request"]["additionalParams"] == {"reconcile": True}
    assert decision["heal_request"]["cause"].startswith("drift (watcher): seen at 2026-11-27T11:59:00Z")
    reported = cl.decide_drift(reconcilable(False), [], drift_request(), NOW)
    assert (reported["action"], reported["reason"]) == (cl.NOTHING, cl.DISABLED)
    assert reported["message"].startswith("nothing done: drift of 2 object(s) reported, not repaired: vnfConfigurableProperties.isAutoReconcileEnabled")
    # The loop's option, even as templated text.
    assert cl.decide_drift(reconcilable(False), [], drift_request(), NOW, {"reconcile": "True"})["action"] == cl.HEAL
    with pytest.raises(ValidationError, match="drifted"):
        drift_request(drifted="many")


def test_a_repair_since_the_event_is_not_made_again_and_does_not_count_as_a_heal_of_every_vnfc():
    repaired = op_occ("r1", started=30, params=REPAIR)
    done = cl.decide_drift(reconcilable(True), [repaired], drift_request(), NOW)
    assert (done["action"], done["reason"]) == (cl.NOTHING, cl.ALREADY_REPAIRED) and "by op occ r1" in done["message"]
    older = op_occ("r0", started=120, params=REPAIR)
    assert cl.decide_drift(reconcilable(True), [older], drift_request(), NOW)["action"] == cl.HEAL
    # A repair names no VNFC and replaces none by itself: an alert about a VNFC is still healed after one.
    assert cl.decide_heal(instance(), [repaired], heal_request(("c1",)), NOW)["action"] == cl.HEAL
    limited = [op_occ("h{0}".format(index), started=100 + index) for index in range(3)]
    assert cl.decide_drift(reconcilable(True), limited, drift_request(), NOW)["reason"] == cl.RATE_LIMITED


def test_the_decision_filter_takes_drift_requests():
    info = {"vnf_instances": [reconcilable(True)], "vnf_lcm_op_occs": []}
    assert closed_loop_decision(info, drift_request(), now="2026-11-27T12:00:00Z")["action"] == cl.HEAL
