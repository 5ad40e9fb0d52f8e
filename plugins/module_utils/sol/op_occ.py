# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""VnfLcmOpOcc documents (SOL003 5.5.2.13) and the state machine of their operationState.

All functions are pure: timestamps are passed in (``now``) and documents are returned as new
dicts, never changed in place.
"""

from __future__ import annotations

import copy
import datetime
import uuid

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, ValidationError

STARTING = "STARTING"
PROCESSING = "PROCESSING"
COMPLETED = "COMPLETED"
FAILED_TEMP = "FAILED_TEMP"
FAILED = "FAILED"
ROLLING_BACK = "ROLLING_BACK"
ROLLED_BACK = "ROLLED_BACK"

STATES = (STARTING, PROCESSING, COMPLETED, FAILED_TEMP, FAILED, ROLLING_BACK, ROLLED_BACK)
TERMINAL_STATES = frozenset((COMPLETED, FAILED, ROLLED_BACK))

# SOL003 figure 5.6.2.2-1. STARTING -> ROLLED_BACK is the grant being rejected.
TRANSITIONS = {
    STARTING: frozenset((PROCESSING, ROLLED_BACK)),
    PROCESSING: frozenset((COMPLETED, FAILED_TEMP)),
    FAILED_TEMP: frozenset((PROCESSING, ROLLING_BACK, FAILED)),
    ROLLING_BACK: frozenset((ROLLED_BACK, FAILED_TEMP)),
    COMPLETED: frozenset(),
    FAILED: frozenset(),
    ROLLED_BACK: frozenset(),
}

# Named events: each is only legal from the listed states (retry/rollback/fail: FAILED_TEMP only).
EVENTS = {
    "process": (frozenset((STARTING,)), PROCESSING),
    "complete": (frozenset((PROCESSING,)), COMPLETED),
    "fail_temp": (frozenset((PROCESSING, ROLLING_BACK)), FAILED_TEMP),
    "retry": (frozenset((FAILED_TEMP,)), PROCESSING),
    "rollback": (frozenset((FAILED_TEMP,)), ROLLING_BACK),
    "fail": (frozenset((FAILED_TEMP,)), FAILED),
    "rolled_back": (frozenset((STARTING, ROLLING_BACK)), ROLLED_BACK),
}

# SOL003: "error" shall be present in these states (and stays while retrying / rolling back).
_ERROR_STATES = frozenset((FAILED_TEMP, FAILED))
# Tacker's member of a failed op occ's error: what the VNFD's interface scripts kept for its retry or rollback.
SCRIPT_DATA_FIELD = "userScriptErrHandlingData"

# SOL003's LcmOperationType: every module and record spells an operation with these names.
INSTANTIATE = "INSTANTIATE"
SCALE = "SCALE"
SCALE_TO_LEVEL = "SCALE_TO_LEVEL"
CHANGE_FLAVOUR = "CHANGE_FLAVOUR"
TERMINATE = "TERMINATE"
HEAL = "HEAL"
OPERATE = "OPERATE"
CHANGE_EXT_CONN = "CHANGE_EXT_CONN"
MODIFY_INFO = "MODIFY_INFO"
CREATE_SNAPSHOT = "CREATE_SNAPSHOT"
REVERT_TO_SNAPSHOT = "REVERT_TO_SNAPSHOT"
CHANGE_VNFPKG = "CHANGE_VNFPKG"
OPERATIONS = (INSTANTIATE, SCALE, SCALE_TO_LEVEL, CHANGE_FLAVOUR, TERMINATE, HEAL,
              OPERATE, CHANGE_EXT_CONN, MODIFY_INFO, CREATE_SNAPSHOT, REVERT_TO_SNAPSHOT, CHANGE_VNFPKG)

# The operations whose FAILED_TEMP op occ this collection retries or rolls back (fail ends any of them), on both VIMs
# (CHANGE_EXT_CONN is Heat's only). SOL003 allows no rollback of HEAL and TERMINATE. The one list: the engine checks
# it before planning, sol/links.py links it, and a unit test holds the role's vars/main.yml to it.
RETRYABLE = frozenset((INSTANTIATE, SCALE, SCALE_TO_LEVEL, HEAL, TERMINATE, MODIFY_INFO, CHANGE_VNFPKG, CHANGE_EXT_CONN))
ROLLBACKABLE = RETRYABLE - {HEAL, TERMINATE}


def require_resumable(op_occ, event):
    """ConflictError unless ``event`` ("retry" or "rollback") applies to the operation of ``op_occ``."""
    operation = op_occ.get("operation")
    if event == "retry" and operation not in RETRYABLE:
        raise ConflictError("retry", "operation occurrence {0}".format(op_occ.get("id")),
                            "this collection cannot retry a {0}; fail it".format(operation))
    if event == "rollback" and operation not in ROLLBACKABLE:
        raise ConflictError("roll back", "operation occurrence {0}".format(op_occ.get("id")),
                            "a {0} cannot be rolled back (SOL003 allows no rollback of HEAL and TERMINATE; this collection rolls back {1}); "
                            "retry or fail it".format(operation, ", ".join(sorted(ROLLBACKABLE))))


def format_timestamp(now):
    """SOL003 DateTime (RFC 3339, UTC, ``Z``) from a datetime (naive means UTC) or a ready string."""
    if isinstance(now, str):
        return now
    if not isinstance(now, datetime.datetime):
        raise ValidationError("timestamp", None, "expected a datetime or an RFC 3339 string, got {0!r}".format(now))
    if now.tzinfo is not None:
        now = now.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    return now.isoformat(timespec="seconds") + "Z"


def problem_details(status, detail, title=None):
    """A SOL013 ProblemDetails document."""
    details = {"status": status, "detail": detail}
    if title is not None:
        details["title"] = title
    return details


def empty_resource_changes():
    return {
        "affectedVnfcs": [],
        "affectedVirtualLinks": [],
        "affectedExtLinkPorts": [],
        "affectedVirtualStorages": [],
    }


def new_op_occ(instance_id, operation, request, now, op_occ_id=None, is_automatic_invocation=False):
    """A VnfLcmOpOcc in STARTING for ``operation`` on ``instance_id``; ``request`` becomes operationParams."""
    if operation not in OPERATIONS:
        raise ValidationError("VnfLcmOpOcc", "operation", "must be one of {0}, got {1!r}".format(", ".join(OPERATIONS), operation))
    timestamp = format_timestamp(now)
    return {
        "id": op_occ_id or str(uuid.uuid4()),
        "operationState": STARTING,
        "stateEnteredTime": timestamp,
        "startTime": timestamp,
        "vnfInstanceId": instance_id,
        "operation": operation,
        "isAutomaticInvocation": bool(is_automatic_invocation),
        "operationParams": copy.deepcopy(request) if request is not None else {},
        "isCancelPending": False,
        "resourceChanges": empty_resource_changes(),
    }


def state_of(op_occ_or_state):
    """The operationState of an op occ document, or the state itself when given a string."""
    if isinstance(op_occ_or_state, dict):
        return op_occ_or_state.get("operationState")
    return op_occ_or_state


def is_terminal(op_occ_or_state):
    return state_of(op_occ_or_state) in TERMINAL_STATES


def can_retry(op_occ_or_state):
    return state_of(op_occ_or_state) == FAILED_TEMP


def can_rollback(op_occ_or_state):
    return state_of(op_occ_or_state) == FAILED_TEMP


def can_fail(op_occ_or_state):
    return state_of(op_occ_or_state) == FAILED_TEMP


def can_transition(op_occ_or_state, event_or_target):
    """Whether ``transition`` would accept this event / target state from the current state."""
    current = state_of(op_occ_or_state)
    if event_or_target in EVENTS:
        sources, _target = EVENTS[event_or_target]
        return current in sources
    return event_or_target in TRANSITIONS.get(current, ())


def resolve_target(event_or_target):
    """The target state of an event name or a state name."""
    if event_or_target in EVENTS:
        return EVENTS[event_or_target][1]
    if event_or_target in STATES:
        return event_or_target
    known = ", ".join(sorted(EVENTS) + list(STATES))
    raise ValidationError("VnfLcmOpOcc transition", "event", "unknown event or state {0!r} (known: {1})".format(event_or_target, known))


def transition(op_occ, event_or_target, now, error=None):
    """A new op occ moved to the target state; ConflictError if the state machine forbids it.

    ``error`` (ProblemDetails dict, or a string used as its detail) is recorded when entering
    FAILED_TEMP, FAILED or ROLLED_BACK; it is kept while retrying or rolling back, dropped on COMPLETED.
    """
    current = state_of(op_occ)
    target = resolve_target(event_or_target)
    if not can_transition(current, event_or_target):
        raise ConflictError(
            "change state of", "VNF LCM operation occurrence {0}".format(op_occ.get("id")),
            "cannot go from {0} to {1}{2}".format(current, target, _event_note(event_or_target)))
    result = copy.deepcopy(op_occ)
    result["operationState"] = target
    result["stateEnteredTime"] = format_timestamp(now)
    if error is not None:
        result["error"] = _as_problem_details(error)
    elif target == COMPLETED:
        result.pop("error", None)
    elif target in _ERROR_STATES and "error" not in result:
        result["error"] = problem_details(500, "{0} failed in state {1}".format(result.get("operation"), current))
    return result


def _event_note(event_or_target):
    return " ({0})".format(event_or_target) if event_or_target in EVENTS else ""


def _as_problem_details(error):
    if isinstance(error, dict):
        return copy.deepcopy(error)
    return problem_details(500, str(error))
