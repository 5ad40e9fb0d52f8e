# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Alertmanager webhook bodies (version 4) read as closed-loop requests, alert by alert.

An alert is this collection's when its labels say ``receiver_type: tacker`` (Tacker's Prometheus plugin labels,
taken unchanged) and a ``function_type`` of the loop (auto_heal, auto_scale), or name ``nfv_vnflcm_function``; each
of Tacker's labels has a twin under our own prefix, which wins when both are given. Other alerts (Tacker's vnffm and
vnfpm ones, other receivers) and resolved ones are ignored, each counted with why, as Tacker's plugin ignores what is
not for it. A malformed alert of ours is dropped alone, reported with its index and field
(``alerts[2].labels.aspect_id``); only a body that is not an Alertmanager body at all is refused whole.
An alert's identity is its label set, as Alertmanager's: :func:`label_fingerprint` computes Alertmanager's own
fingerprint from the labels, whatever fingerprint the sender gave.
"""

from __future__ import annotations

import datetime
import re

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.listing import MAX_LISTED

AUTO_HEAL, AUTO_SCALE = "auto_heal", "auto_scale"
FUNCTIONS = (AUTO_HEAL, AUTO_SCALE)
SCALE_TYPES = ("SCALE_OUT", "SCALE_IN")
FIRING, RESOLVED = "firing", "resolved"
TACKER_RECEIVER = "tacker"
OUR_PREFIX = "nfv_vnflcm_"
# Field -> Tacker's label name; ours is OUR_PREFIX + the same name, except the function's.
TACKER_LABELS = {
    "function_type": "function_type",
    "vnf_instance_id": "vnf_instance_id",
    "vnfc_info_id": "vnfc_info_id",
    "auto_scale_type": "auto_scale_type",
    "aspect_id": "aspect_id",
}
OUR_LABELS = {
    "function_type": "nfv_vnflcm_function",
    "vnf_instance_id": "nfv_vnflcm_vnf_instance_id",
    "vnfc_info_id": "nfv_vnflcm_vnfc_info_id",
    "auto_scale_type": "nfv_vnflcm_auto_scale_type",
    "aspect_id": "nfv_vnflcm_aspect_id",
}
# Ids go into playbook variables and API paths: printable, no spaces, bounded.
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:@/+=-]{0,254}$")
_RFC3339 = re.compile(r"^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")
# Go's zero time: what Alertmanager sends as endsAt of an alert with no end yet.
_GO_ZERO_TIME = "0001-01-01T00:00:00Z"


class PayloadError(ValueError):
    """A webhook body refused: ``field`` is where (``alerts[2].labels.aspect_id``), ``reason`` why."""

    def __init__(self, field, reason, status=400):
        self.field = field
        self.reason = reason
        self.status = status
        super().__init__("{0}: {1}".format(field, reason) if field else reason)

    def as_json(self):
        return {"error": "invalid webhook body", "field": self.field, "reason": self.reason}


def parse_time(text):
    """An aware UTC datetime from RFC 3339 text (Alertmanager's nanoseconds are cut to microseconds); None if invalid."""
    match = _RFC3339.match(text) if isinstance(text, str) else None
    if not match:
        return None
    day, clock, fraction, zone = match.groups()
    fraction = (fraction or ".0")[1:7].ljust(6, "0")
    zone = "+00:00" if zone in ("Z", "z") else zone
    try:
        return datetime.datetime.fromisoformat("{0}T{1}.{2}{3}".format(day, clock, fraction, zone)).astimezone(datetime.timezone.utc)
    except ValueError:
        return None


def format_time(moment):
    """SOL003's DateTime as op occs carry it (UTC, seconds, ``Z``), so that playbooks can compare the two as text."""
    return moment.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# Alertmanager's (Prometheus common/model) label set fingerprint: 64-bit FNV-1a over the sorted names and values,
# each followed by the byte 255.
_FNV_OFFSET, _FNV_PRIME, _MASK64 = 14695981039346656037, 1099511628211, (1 << 64) - 1


def label_fingerprint(labels):
    """The alert's identity as Alertmanager defines it: its label set's fingerprint (16 hex digits), the one
    Alertmanager itself sends; computed here so that a sender whose fingerprints do not follow the labels (Tacker's
    test bodies give different alerts one) loses no alert, and one that does keeps its own."""
    value = _FNV_OFFSET
    for name in sorted(labels):
        for part in (name, labels[name]):
            for byte in part.encode("utf-8") + b"\xff":
                value = ((value ^ byte) * _FNV_PRIME) & _MASK64
    return "{0:016x}".format(value)


def is_ours(labels):
    return labels.get("receiver_type") == TACKER_RECEIVER or OUR_LABELS["function_type"] in labels


# Why an alert is not the loop's (read_webhook's ``ignored``).
IGNORED_RESOLVED = "resolved"
IGNORED_NOT_OURS = "not_for_the_loop"
IGNORED_OTHER_FUNCTION = "other_function_type"


def _label(labels, field, where):
    """``(value, label name)``: ours when given, else Tacker's; the name is the one to blame when it is wrong."""
    ours, tacker = OUR_LABELS[field], TACKER_LABELS[field]
    if ours in labels:
        return labels[ours], "{0}.{1}".format(where, ours)
    prefer = ours if OUR_LABELS["function_type"] in labels else tacker
    return labels.get(tacker), "{0}.{1}".format(where, tacker if tacker in labels else prefer)


def _required_id(labels, field, where):
    value, name = _label(labels, field, where)
    if value is None or value == "":
        raise PayloadError(name, "is required")
    if not isinstance(value, str) or not _ID.match(value):
        raise PayloadError(name, "must be an id (letters, digits and ._:@/+=-, at most 255 characters), got {0!r}".format(value)[:300])
    return value


def read_alert(alert, where, received_at):
    """The request an alert makes (a dict), or why it is ignored (one of the IGNORED_* texts) when it is not the
    loop's or not firing; PayloadError when it is wrong."""
    if not isinstance(alert, dict):
        raise PayloadError(where, "must be an object")
    status = alert.get("status", FIRING)
    if status not in (FIRING, RESOLVED):
        raise PayloadError(where + ".status", "must be firing or resolved, got {0!r}".format(status)[:300])
    labels = alert.get("labels")
    if not isinstance(labels, dict):
        raise PayloadError(where + ".labels", "must be an object")
    for name, value in labels.items():
        if not isinstance(value, str):
            raise PayloadError("{0}.labels.{1}".format(where, name), "must be a string")
    if alert.get("annotations") is not None and not isinstance(alert["annotations"], dict):
        raise PayloadError(where + ".annotations", "must be an object")
    for name in ("startsAt", "endsAt"):
        value = alert.get(name)
        if value is not None and value != _GO_ZERO_TIME and parse_time(value) is None:
            raise PayloadError("{0}.{1}".format(where, name), "must be an RFC 3339 date-time, got {0!r}".format(value)[:300])
    for name in ("fingerprint", "generatorURL"):
        if alert.get(name) is not None and not isinstance(alert[name], str):
            raise PayloadError("{0}.{1}".format(where, name), "must be a string")
    if not is_ours(labels):
        return IGNORED_NOT_OURS
    lwhere = where + ".labels"
    function, name = _label(labels, "function_type", lwhere)
    if function not in FUNCTIONS:
        if OUR_LABELS["function_type"] in labels:
            raise PayloadError(name, "must be one of {0}, got {1!r}".format(", ".join(FUNCTIONS), function)[:300])
        return IGNORED_OTHER_FUNCTION  # Tacker's vnffm, vnfpm, ...: another part of the VNFM's
    if status != FIRING:
        return IGNORED_RESOLVED
    identity = label_fingerprint(labels)
    request = {
        "function_type": function,
        "vnf_instance_id": _required_id(labels, "vnf_instance_id", lwhere),
        "identity": identity,
        "fingerprint": alert.get("fingerprint") or identity,
        "startsAt": alert.get("startsAt") or format_time(received_at),
        "labels": dict(labels),
    }
    request["started"] = parse_time(request["startsAt"]) or received_at
    if function == AUTO_HEAL:
        request["vnfc_info_id"] = _required_id(labels, "vnfc_info_id", lwhere)
    else:
        scale_type, name = _label(labels, "auto_scale_type", lwhere)
        if scale_type not in SCALE_TYPES:
            raise PayloadError(name, "must be SCALE_OUT or SCALE_IN, got {0!r}".format(scale_type)[:300])
        request["auto_scale_type"] = scale_type
        request["aspect_id"] = _required_id(labels, "aspect_id", lwhere)
    return request


# How many malformed alerts a response lists (the rest are counted).
MAX_REPORTED = MAX_LISTED


def read_webhook(body, max_alerts, received_at=None):
    """``(requests, ignored, rejected)`` from a parsed webhook body: every firing alert of the loop as a request dict;
    ``ignored``, how many alerts were not the loop's, by why (``{"resolved": 1, "other_function_type": 2}``);
    ``rejected``, the malformed alerts of the loop, each ``{"index", "field", "reason"}``, dropped alone.
    PayloadError (nothing taken) only when the body itself is not an Alertmanager body, or holds too many alerts."""
    received_at = received_at or datetime.datetime.now(datetime.timezone.utc)
    if not isinstance(body, dict):
        raise PayloadError("", "the body must be a JSON object")
    alerts = body.get("alerts")
    if not isinstance(alerts, list):
        raise PayloadError("alerts", "must be a list")
    if len(alerts) > max_alerts:
        raise PayloadError("alerts", "{0} alerts, more than max_alerts ({1})".format(len(alerts), max_alerts), status=413)
    for name in ("status", "receiver", "groupKey", "version", "externalURL"):
        if body.get(name) is not None and not isinstance(body[name], str):
            raise PayloadError(name, "must be a string")
    for name in ("groupLabels", "commonLabels", "commonAnnotations"):
        if body.get(name) is not None and not isinstance(body[name], dict):
            raise PayloadError(name, "must be an object")
    requests, ignored, rejected = [], {}, []
    for index, alert in enumerate(alerts):
        try:
            outcome = read_alert(alert, "alerts[{0}]".format(index), received_at)
        except PayloadError as error:
            rejected.append({"index": index, "field": error.field, "reason": error.reason})
            continue
        if isinstance(outcome, dict):
            requests.append(outcome)
        else:
            ignored[outcome] = ignored.get(outcome, 0) + 1
    return requests, ignored, rejected
