# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import copy
import datetime
import itertools

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as sm

NOW = datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)
LATER = "2026-01-02T03:05:00Z"

ALL_STATES = ["STARTING", "PROCESSING", "COMPLETED", "FAILED_TEMP", "FAILED", "ROLLING_BACK", "ROLLED_BACK"]

# Written out independently of the module's table: the SOL003 state diagram.
LEGAL = {
    ("STARTING", "PROCESSING"),
    ("STARTING", "ROLLED_BACK"),
    ("PROCESSING", "COMPLETED"),
    ("PROCESSING", "FAILED_TEMP"),
    ("FAILED_TEMP", "PROCESSING"),
    ("FAILED_TEMP", "ROLLING_BACK"),
    ("FAILED_TEMP", "FAILED"),
    ("ROLLING_BACK", "ROLLED_BACK"),
    ("ROLLING_BACK", "FAILED_TEMP"),
}
ALL_PAIRS = list(itertools.product(ALL_STATES, ALL_STATES))


def an_op_occ(state="STARTING", **extra):
    occ = sm.new_op_occ("inst-1", "INSTANTIATE", {"flavourId": "simple"}, NOW, op_occ_id="occ-1")
    occ["operationState"] = state
    occ.update(extra)
    return occ


def test_new_op_occ_document():
    request = {"flavourId": "simple"}
    occ = sm.new_op_occ("inst-1", "INSTANTIATE", request, NOW, op_occ_id="occ-1")
    assert occ == {
        "id": "occ-1",
        "operationState": "STARTING",
        "stateEnteredTime": "2026-01-02T03:04:05Z",
        "startTime": "2026-01-02T03:04:05Z",
        "vnfInstanceId": "inst-1",
        "operation": "INSTANTIATE",
        "isAutomaticInvocation": False,
        "operationParams": {"flavourId": "simple"},
        "isCancelPending": False,
        "resourceChanges": {"affectedVnfcs": [], "affectedVirtualLinks": [], "affectedExtLinkPorts": [], "affectedVirtualStorages": []},
    }
    occ["operationParams"]["flavourId"] = "changed"
    assert request == {"flavourId": "simple"}


def test_new_op_occ_generates_a_uuid_when_no_id_given():
    first = sm.new_op_occ("inst-1", "TERMINATE", None, NOW)
    second = sm.new_op_occ("inst-1", "TERMINATE", None, NOW)
    assert len(first["id"]) == 36 and first["id"] != second["id"]
    assert first["operationParams"] == {}


@pytest.mark.parametrize("operation", sm.OPERATIONS)
def test_new_op_occ_accepts_every_sol003_operation(operation):
    assert sm.new_op_occ("i", operation, {}, NOW)["operation"] == operation


def test_operations_are_the_sol003_list():
    assert set(sm.OPERATIONS) == {"INSTANTIATE", "SCALE", "SCALE_TO_LEVEL", "CHANGE_FLAVOUR", "TERMINATE", "HEAL", "OPERATE",
                                  "CHANGE_EXT_CONN", "MODIFY_INFO", "CREATE_SNAPSHOT", "REVERT_TO_SNAPSHOT", "CHANGE_VNFPKG"}


def test_new_op_occ_rejects_unknown_operation():
    with pytest.raises(ValidationError) as raised:
        sm.new_op_occ("i", "REBOOT", {}, NOW)
    assert raised.value.field == "operation"


@pytest.mark.parametrize("now, expected", [
    (datetime.datetime(2026, 1, 2, 3, 4, 5, 999), "2026-01-02T03:04:05Z"),
    (datetime.datetime(2026, 1, 2, 5, 4, 5, tzinfo=datetime.timezone(datetime.timedelta(hours=2))), "2026-01-02T03:04:05Z"),
    ("2026-01-02T03:04:05.123Z", "2026-01-02T03:04:05.123Z"),
])
def test_format_timestamp(now, expected):
    assert sm.format_timestamp(now) == expected


def test_format_timestamp_rejects_other_types():
    with pytest.raises(ValidationError):
        sm.format_timestamp(12345)


def test_transition_table_matches_sol003():
    table = {(source, target) for source, targets in sm.TRANSITIONS.items() for target in targets}
    assert table == LEGAL
    assert sm.TERMINAL_STATES == {"COMPLETED", "FAILED", "ROLLED_BACK"}


@pytest.mark.parametrize("source, target", sorted(LEGAL))
def test_legal_transition(source, target):
    occ = an_op_occ(source)
    before = copy.deepcopy(occ)
    moved = sm.transition(occ, target, LATER, error="boom" if target in ("FAILED_TEMP", "FAILED") else None)
    assert moved["operationState"] == target
    assert moved["stateEnteredTime"] == LATER
    assert moved["startTime"] == occ["startTime"]
    assert occ == before, "transition must not mutate its input"


@pytest.mark.parametrize("source, target", sorted(set(ALL_PAIRS) - LEGAL))
def test_illegal_transition_names_both_states(source, target):
    occ = an_op_occ(source)
    with pytest.raises(ConflictError) as raised:
        sm.transition(occ, target, LATER)
    assert "from {0} to {1}".format(source, target) in str(raised.value)
    assert "occ-1" in str(raised.value)
    assert occ["operationState"] == source


# event -> states it is legal from
EVENT_SOURCES = {
    "process": {"STARTING"},
    "complete": {"PROCESSING"},
    "fail_temp": {"PROCESSING", "ROLLING_BACK"},
    "retry": {"FAILED_TEMP"},
    "rollback": {"FAILED_TEMP"},
    "fail": {"FAILED_TEMP"},
    "rolled_back": {"STARTING", "ROLLING_BACK"},
}


def test_events_only_use_legal_transitions():
    assert set(sm.EVENTS) == set(EVENT_SOURCES)
    for event, (sources, target) in sm.EVENTS.items():
        assert sources == EVENT_SOURCES[event]
        assert all((source, target) in LEGAL for source in sources)


@pytest.mark.parametrize("event, state", list(itertools.product(sorted(EVENT_SOURCES), ALL_STATES)))
def test_event_from_every_state(event, state):
    occ = an_op_occ(state)
    if state in EVENT_SOURCES[event]:
        assert sm.transition(occ, event, LATER, error="e")["operationState"] == sm.EVENTS[event][1]
    else:
        with pytest.raises(ConflictError) as raised:
            sm.transition(occ, event, LATER)
        assert "from {0} to".format(state) in str(raised.value) and event in str(raised.value)


@pytest.mark.parametrize("state", ALL_STATES)
def test_predicates(state):
    occ = an_op_occ(state)
    assert sm.can_retry(occ) is (state == "FAILED_TEMP")
    assert sm.can_rollback(occ) is (state == "FAILED_TEMP")
    assert sm.can_fail(state) is (state == "FAILED_TEMP")
    assert sm.is_terminal(occ) is (state in ("COMPLETED", "FAILED", "ROLLED_BACK"))
    for target in ALL_STATES:
        assert sm.can_transition(occ, target) is ((state, target) in LEGAL)


def test_unknown_event_is_a_validation_error():
    with pytest.raises(ValidationError) as raised:
        sm.transition(an_op_occ(), "explode", LATER)
    assert "explode" in str(raised.value)


def test_failure_records_problem_details_and_retry_keeps_it():
    failed = sm.transition(an_op_occ("PROCESSING"), "FAILED_TEMP", LATER, error=sm.problem_details(422, "quota exceeded", "Unprocessable"))
    assert failed["error"] == {"status": 422, "detail": "quota exceeded", "title": "Unprocessable"}
    retried = sm.transition(failed, "retry", LATER)
    assert retried["error"] == failed["error"]
    completed = sm.transition(retried, "complete", LATER)
    assert "error" not in completed


def test_string_error_becomes_problem_details():
    failed = sm.transition(an_op_occ("PROCESSING"), "fail_temp", LATER, error="VIM unreachable")
    assert failed["error"] == {"status": 500, "detail": "VIM unreachable"}


def test_entering_failed_without_error_gets_a_generic_one():
    failed = sm.transition(an_op_occ("PROCESSING"), "FAILED_TEMP", LATER)
    assert failed["error"]["status"] == 500
    assert "INSTANTIATE" in failed["error"]["detail"]


def test_rollback_path_keeps_the_error():
    occ = sm.transition(an_op_occ("PROCESSING"), "fail_temp", LATER, error="boom")
    occ = sm.transition(occ, "rollback", LATER)
    occ = sm.transition(occ, "rolled_back", LATER)
    assert occ["operationState"] == "ROLLED_BACK"
    assert occ["error"]["detail"] == "boom"


def test_grant_rejected_goes_straight_to_rolled_back():
    occ = sm.transition(an_op_occ("STARTING"), "rolled_back", LATER, error=sm.problem_details(403, "grant rejected"))
    assert occ["operationState"] == "ROLLED_BACK"
    assert occ["error"] == {"status": 403, "detail": "grant rejected"}


@pytest.mark.parametrize("operation, event", [("HEAL", "rollback"), ("TERMINATE", "rollback"), ("OPERATE", "retry"), ("CHANGE_FLAVOUR", "rollback")])
def test_what_cannot_be_retried_or_rolled_back_is_refused(operation, event):
    with pytest.raises(ConflictError, match="fail it"):
        sm.require_resumable({"id": "o1", "operation": operation}, event)


@pytest.mark.parametrize("operation", ["INSTANTIATE", "SCALE", "SCALE_TO_LEVEL", "MODIFY_INFO", "CHANGE_VNFPKG", "CHANGE_EXT_CONN"])
def test_what_can_be_rolled_back_can_be_retried_too(operation):
    for event in ("retry", "rollback"):
        sm.require_resumable({"id": "o1", "operation": operation}, event)


def test_the_role_offers_a_rollback_for_the_same_operations():
    import pathlib

    import yaml

    role_vars = pathlib.Path(__file__).resolve().parents[5] / "roles" / "vnf_lifecycle" / "vars" / "main.yml"
    assert set(yaml.safe_load(role_vars.read_text())["vnf_lifecycle__rollback_operations"]) == sm.ROLLBACKABLE
