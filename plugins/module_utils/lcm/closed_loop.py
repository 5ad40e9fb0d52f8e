# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The closed loop's decision: from an auto-heal or auto-scale request (an event of the collection's event sources, or
the same fields given by hand), the instance's record and the time, what to do and why.

Pure: nothing here reads a VIM. The playbooks nfv.vnflcm.auto_heal and nfv.vnflcm.auto_scale read the record with
vnf_info, ask :func:`decide_heal` / :func:`decide_scale` (through the closed_loop filters), and run what the answer
says with vnf_heal, vnf_scale or vnf_lcm_op_occ. Tacker's semantics: only an INSTANTIATED instance whose
``vnfConfigurableProperties.isAutohealEnabled`` / ``isAutoscaleEnabled`` is true; an unknown instance does nothing.
What this collection adds, as it has no conductor that outlives a job: what the record's op occs say decides
whether the VNFCs were healed since the alert (a healed VNFC has a new id, its old one is no longer in the record: the
heal's op occ still names it), how many heals the VNF had in the period (so the limit survives a
restart of the rulebook), whether another run works on the VNF (wait), and whether a run of the loop was killed
mid-operation (take its op occ over with a retry, as the guide "When an operation fails" does by hand).
"""

from __future__ import annotations

import datetime

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.listing import MAX_LISTED, listed
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import private_state
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import HEAL_RECONCILE, reconciles
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED

AUTO_HEAL, AUTO_SCALE, DRIFT = "auto_heal", "auto_scale", "drift"
SCALE_OUT, SCALE_IN = "SCALE_OUT", "SCALE_IN"
ENABLED_PROPERTY = {AUTO_HEAL: "isAutohealEnabled", AUTO_SCALE: "isAutoscaleEnabled", DRIFT: "isAutoReconcileEnabled"}
# A repair of drift is a HEAL of the whole VNF (lcm/cnf/reconcile.py).
OWN_OPERATION = {AUTO_HEAL: occ.HEAL, AUTO_SCALE: occ.SCALE, DRIFT: occ.HEAL}

# What the decision says to do.
HEAL, SCALE, RETRY, WAIT, NOTHING = "heal", "scale", "retry", "wait", "nothing"
# Why nothing is done (``reason``): each has its message.
UNKNOWN_INSTANCE = "unknown_instance"
NOT_INSTANTIATED = "not_instantiated"
DISABLED = "disabled"
NO_VNFC = "no_vnfc"
ALREADY_HEALED = "already_healed"
RATE_LIMITED = "rate_limited"
UNFINISHED_OTHER = "unfinished_operation"
UNKNOWN_ASPECT = "unknown_aspect"
OUT_OF_RANGE = "out_of_range"
ALREADY_SCALED = "already_scaled"
ALREADY_REPAIRED = "already_repaired"
# vnf_info's lease status of a running op occ (lcm/lease.py).
LIVE_LEASE = "live"

DEFAULT_OPTIONS = {"heal_limit": 3, "heal_period": 600}
_SOL_TIME = "%Y-%m-%dT%H:%M:%SZ"
REQUEST = "closed-loop request"


def parse_time(text, field="first_alert_at"):
    """An aware UTC datetime from RFC 3339 text (any fraction, ``Z`` or an offset); ValidationError naming ``field``."""
    if isinstance(text, datetime.datetime):
        return text if text.tzinfo else text.replace(tzinfo=datetime.timezone.utc)
    if not isinstance(text, str) or len(text) < 20:
        raise ValidationError(REQUEST, field, "must be an RFC 3339 date-time, got {0!r}".format(text))
    value = text.strip().replace("z", "Z")
    if value.endswith("Z"):
        value = value[:-1] + "+00:00"
    head, sep, rest = value.partition(".")
    if sep:  # Python < 3.11 takes at most 6 digits of fraction: Alertmanager sends 9
        digits = len(rest) - len(rest.lstrip("0123456789"))
        value = "{0}.{1}{2}".format(head, rest[:digits][:6].ljust(6, "0"), rest[digits:])
    try:
        moment = datetime.datetime.fromisoformat(value)
    except ValueError:
        raise ValidationError(REQUEST, field, "must be an RFC 3339 date-time, got {0!r}".format(text)) from None
    if moment.tzinfo is None:
        raise ValidationError(REQUEST, field, "must carry a time zone (Z or an offset), got {0!r}".format(text))
    return moment.astimezone(datetime.timezone.utc)


def format_time(moment):
    return moment.astimezone(datetime.timezone.utc).strftime(_SOL_TIME)


# ---------------------------------------------------------------------------------------------
# The request: an event's nfv_vnflcm part, or the same fields given by hand

def closed_loop_request(event, function, overrides=None, now=None):
    """The normalised request of ``function`` (auto_heal / auto_scale) from ``event`` (``ansible_eda.event``, its
    ``nfv_vnflcm`` part, or empty) with ``overrides`` (the playbook's own variables, which win when set).

    ``{"function_type", "vnf_instance_id", "vnfc_info_ids", "auto_scale_type", "aspect_id", "first_alert_at",
    "namespace", "source", "alerts"}``; the namespace (where a Kubernetes record is) comes from the overrides, the
    event, or the alerts' ``nfv_vnflcm_namespace`` / ``namespace`` label. ValidationError naming the field when a
    field is missing or malformed.
    """
    if function not in ENABLED_PROPERTY:
        raise ValidationError(REQUEST, "function_type", "must be auto_heal, auto_scale or drift, got {0!r}".format(function))
    event = event if isinstance(event, dict) else {}
    body = event.get("nfv_vnflcm") if isinstance(event.get("nfv_vnflcm"), dict) else event
    merged = dict(body)
    merged.update({key: value for key, value in (overrides or {}).items() if value not in (None, "", [])})
    if merged.get("function_type", function) != function:
        raise ValidationError(REQUEST, "function_type", "is {0!r}: this is the {1} playbook".format(merged.get("function_type"), function))
    instance_id = merged.get("vnf_instance_id")
    if not isinstance(instance_id, str) or not instance_id.strip():
        raise ValidationError(REQUEST, "vnf_instance_id", "is required (a VNF instance id)")
    alerts = merged.get("alerts") if isinstance(merged.get("alerts"), list) else []
    first = merged.get("first_alert_at")
    request = {"function_type": function, "vnf_instance_id": instance_id.strip(), "source": merged.get("source") or "manual",
               "first_alert_at": format_time(parse_time(first) if first else (now or datetime.datetime.now(datetime.timezone.utc))),
               "namespace": merged.get("namespace") or _label(alerts, "nfv_vnflcm_namespace") or _label(alerts, "namespace"),
               "alerts": len(alerts)}
    request["invoked_by"] = invoked_by(request, alerts)
    if function == AUTO_HEAL:
        ids = merged.get("vnfc_info_ids")
        if ids is None and merged.get("vnfc_info_id"):
            ids = [merged["vnfc_info_id"]]
        if isinstance(ids, str):
            ids = [item.strip() for item in ids.split(",") if item.strip()]
        if not isinstance(ids, list) or not all(isinstance(item, str) and item for item in ids):
            raise ValidationError(REQUEST, "vnfc_info_ids", "must be a list of VnfcInfo ids, got {0!r}".format(ids))
        request["vnfc_info_ids"] = sorted(set(ids))
    elif function == DRIFT:
        drifted = merged.get("drifted", 0)
        if not isinstance(drifted, int) or isinstance(drifted, bool) or drifted < 0:
            raise ValidationError(REQUEST, "drifted", "must be a number of objects, got {0!r}".format(drifted))
        request["drifted"] = drifted
    else:
        scale_type = merged.get("auto_scale_type")
        if scale_type not in (SCALE_OUT, SCALE_IN):
            raise ValidationError(REQUEST, "auto_scale_type", "must be SCALE_OUT or SCALE_IN, got {0!r}".format(scale_type))
        aspect_id = merged.get("aspect_id")
        if not isinstance(aspect_id, str) or not aspect_id:
            raise ValidationError(REQUEST, "aspect_id", "is required (a scaling aspect of the VNF)")
        request.update(auto_scale_type=scale_type, aspect_id=aspect_id)
    return request


# How many alerts an op occ's operationParams name (the rest are counted).
MAX_NAMED_ALERTS = MAX_LISTED
INVOKED_BY = "nfv_vnflcm_closed_loop"


def invoked_by(request, alerts):
    """What caused the loop's operation, for its op occ's ``operationParams.additionalParams`` (key INVOKED_BY):
    the source, the first alert's time, and the alerts (fingerprint, startsAt, alertname; at most MAX_NAMED_ALERTS,
    ``alert_count`` says how many there were)."""
    named = []
    for alert in alerts[:MAX_NAMED_ALERTS]:
        if not isinstance(alert, dict):
            continue
        labels = alert.get("labels") if isinstance(alert.get("labels"), dict) else {}
        item = {key: alert[key] for key in ("fingerprint", "startsAt") if isinstance(alert.get(key), str)}
        if isinstance(labels.get("alertname"), str):
            item["alertname"] = labels["alertname"]
        named.append(item)
    return {"source": request["source"], "first_alert_at": request["first_alert_at"], "alert_count": len(alerts), "alerts": named}


def _label(alerts, name):
    for alert in alerts:
        value = ((alert or {}).get("labels") or {}).get(name) if isinstance(alert, dict) else None
        if isinstance(value, str) and value:
            return value
    return None


# ---------------------------------------------------------------------------------------------
# The decision

def decide_heal(instance, op_occs, request, now, options=None, resumed=()):
    """What to do for an auto-heal ``request`` (closed_loop_request's) on ``instance`` (None: unknown) whose op occs
    (vnf_info's, with lease status) are ``op_occs``; ``resumed``: ids of op occs this run has just retried."""
    options = dict(DEFAULT_OPTIONS, **{key: value for key, value in (options or {}).items() if value is not None})
    early = _gate(instance, op_occs, request, AUTO_HEAL, resumed)
    if early:
        return early
    first_alert = parse_time(request["first_alert_at"])
    known = [vnfc.get("id") for vnfc in (instance.get("instantiatedVnfInfo") or {}).get("vnfcInfo") or []]
    named = list(request["vnfc_info_ids"])
    unknown = [vnfc_id for vnfc_id in named if vnfc_id not in known]
    healed = {vnfc_id: item["id"] for item in _newest_first(op_occs)
              if item.get("operation") == occ.HEAL and item.get("operationState") == occ.COMPLETED
              and (item.get("id") in resumed or _started(item) > first_alert)
              for vnfc_id in _healed_vnfcs(item, known)}
    # A healed VNFC's id follows its new pod or server: the alert's id is gone from the record, and the heal says so.
    unknown = [vnfc_id for vnfc_id in unknown if vnfc_id not in healed]
    to_heal = [vnfc_id for vnfc_id in named if vnfc_id in known and vnfc_id not in healed]
    details = {"vnfc_info_ids": to_heal, "unknown_vnfc_info_ids": unknown,
               "healed_vnfc_info_ids": sorted(vnfc_id for vnfc_id in named if vnfc_id in healed)}
    if not named:
        return _nothing(request, NO_VNFC, "the request names no VNFC (vnfc_info_ids)", **details)
    if not to_heal:
        why = []
        if details["healed_vnfc_info_ids"]:
            why.append("{0} healed since the alert ({1}) by op occ {2}".format(
                listed(details["healed_vnfc_info_ids"]), request["first_alert_at"],
                listed(sorted({healed[vnfc_id] for vnfc_id in details["healed_vnfc_info_ids"]}))))
        if unknown:
            why.append("{0} not a VNFC of the instance (instantiatedVnfInfo.vnfcInfo)".format(listed(unknown)))
        return _nothing(request, ALREADY_HEALED if details["healed_vnfc_info_ids"] else NO_VNFC, "; ".join(why), **details)
    limited = _rate_limited(request, op_occs, now, options, "the heal of {0}".format(listed(to_heal)), **details)
    if limited:
        return limited
    note = " ({0} not a VNFC of the instance)".format(listed(unknown)) if unknown else ""
    cause = "auto_heal ({0}): alert since {1}".format(request["source"], request["first_alert_at"])
    return dict(_base(request, HEAL, "heal", "heal {0} of VNF instance {1}{2}".format(listed(to_heal), request["vnf_instance_id"], note)),
                heal_request={"vnfcInstanceId": to_heal, "cause": cause}, **details)


def decide_scale(instance, op_occs, request, now, options=None, resumed=()):
    """What to do for an auto-scale ``request``: one step of its aspect, within 0..the aspect's max scale level."""
    early = _gate(instance, op_occs, request, AUTO_SCALE, resumed)
    if early:
        return early
    aspect_id, scale_type = request["aspect_id"], request["auto_scale_type"]
    levels = {item.get("aspectId"): item.get("scaleLevel") for item in (instance.get("instantiatedVnfInfo") or {}).get("scaleStatus") or []}
    if aspect_id not in levels:
        return _nothing(request, UNKNOWN_ASPECT, "{0!r} is not a scaling aspect of the instance (aspects: {1})".format(
            aspect_id, listed(sorted(str(key) for key in levels)) or "none"))
    level = levels[aspect_id]
    target = level + 1 if scale_type == SCALE_OUT else level - 1
    maximum = max_scale_level(instance, aspect_id)
    details = {"aspect_id": aspect_id, "from_level": level, "to_level": target, "max_scale_level": maximum}
    first_alert = parse_time(request["first_alert_at"])
    for item in _newest_first(op_occs):
        params = item.get("operationParams") or {}
        if (item.get("operation") == occ.SCALE and item.get("operationState") == occ.COMPLETED and params.get("aspectId") == aspect_id
                and params.get("type") == scale_type and (item.get("id") in resumed or _started(item) > first_alert)):
            return _nothing(request, ALREADY_SCALED, "aspect {0} was scaled ({1}) since the alert ({2}) by op occ {3}".format(
                aspect_id, scale_type, request["first_alert_at"], item["id"]), **details)
    if target < 0 or (maximum is not None and target > maximum):
        return _nothing(request, OUT_OF_RANGE, "aspect {0} is at scale level {1}: {2} would reach {3}, outside 0..{4}; "
                        "refused, nothing written".format(aspect_id, level, scale_type, target, "?" if maximum is None else maximum), **details)
    return dict(_base(request, SCALE, "scale", "{0} aspect {1} of VNF instance {2}: scale level {3} -> {4}".format(
        scale_type, aspect_id, request["vnf_instance_id"], level, target)),
        scale_request={"type": scale_type, "aspectId": aspect_id, "numberOfSteps": 1}, **details)


def decide_drift(instance, op_occs, request, now, options=None, resumed=()):
    """What to do for a drift ``request`` (the watcher's drift event): repair it (a HEAL with
    ``additionalParams.reconcile``) when the instance's ``vnfConfigurableProperties.isAutoReconcileEnabled`` is true, or
    the loop's ``reconcile`` option is; else only report it. Not twice for one event, and within the heal limit."""
    options = dict(DEFAULT_OPTIONS, **{key: value for key, value in (options or {}).items() if value is not None})
    # The option may come templated as text (the role's closed_loop_options).
    early = _gate(instance, op_occs, request, DRIFT, resumed, enabled=str(options.get("reconcile")).lower() in ("true", "yes", "1"))
    if early:
        if early["reason"] == DISABLED:
            early["message"] = "nothing done: drift of {0} object(s) reported, not repaired: {1} (or the loop's reconcile option)".format(
                request["drifted"], early["message"][len("nothing done: "):])
        return early
    first_alert = parse_time(request["first_alert_at"])
    for item in _newest_first(op_occs):
        if (item.get("operation") == occ.HEAL and item.get("operationState") == occ.COMPLETED and reconciles(item.get("operationParams"))
                and (item.get("id") in resumed or _started(item) > first_alert)):
            return _nothing(request, ALREADY_REPAIRED, "the drift was repaired since it was seen ({0}) by op occ {1}".format(
                request["first_alert_at"], item["id"]))
    limited = _rate_limited(request, op_occs, now, options, "the repair of its drift")
    if limited:
        return limited
    cause = "drift ({0}): seen at {1}".format(request["source"], request["first_alert_at"])
    return dict(_base(request, HEAL, "repair", "repair the drift of VNF instance {0} ({1} object(s))".format(request["vnf_instance_id"], request["drifted"])),
                heal_request={"cause": cause, "additionalParams": {HEAL_RECONCILE: True}})


def _rate_limited(request, op_occs, now, options, dropped, **details):
    """Nothing, when ``heal_limit`` HEALs of the VNF (repairs of drift included) started in the last ``heal_period``
    seconds; else None. ``dropped``: what is then not done."""
    window_start = now - datetime.timedelta(seconds=int(options["heal_period"]))
    recent = [item["id"] for item in op_occs if item.get("operation") == occ.HEAL and _started(item) > window_start]
    if len(recent) < int(options["heal_limit"]):
        return None
    return _nothing(request, RATE_LIMITED, "{0} heals of this VNF started in the last {1} s (limit {2}: heal_limit per heal_period); "
                    "{3} is dropped".format(len(recent), options["heal_period"], options["heal_limit"], dropped), recent_heals=recent, **details)


def max_scale_level(instance, aspect_id):
    """The aspect's max scale level: the VNFD's as the record keeps it (both VIMs), else SOL003's ``maxScaleLevels``."""
    aspects = (private_state(instance).get("flavour") or {}).get("scaling_aspects") or {}
    if isinstance(aspects.get(aspect_id), dict) and aspects[aspect_id].get("max_scale_level") is not None:
        return aspects[aspect_id]["max_scale_level"]
    for item in (instance.get("instantiatedVnfInfo") or {}).get("maxScaleLevels") or []:
        if item.get("aspectId") == aspect_id:
            return item.get("scaleLevel")
    return None


def _gate(instance, op_occs, request, function, resumed, enabled=False):
    """The checks every function shares, in Tacker's order, then the op occs: a decision, or None to go on. ``enabled``:
    the loop's own option enables the function whatever the instance's property says."""
    if not instance:
        return _nothing(request, UNKNOWN_INSTANCE, "no VNF instance {0}{1}".format(request["vnf_instance_id"], _where(request)))
    if instance.get("instantiationState") != INSTANTIATED:
        return _nothing(request, NOT_INSTANTIATED, "VNF instance {0} is {1}".format(instance["id"], instance.get("instantiationState")))
    prop = ENABLED_PROPERTY[function]
    if not enabled and (instance.get("vnfConfigurableProperties") or {}).get(prop) is not True:
        return _nothing(request, DISABLED, "vnfConfigurableProperties.{0} of VNF instance {1} is {2}".format(
            prop, instance["id"], _shown((instance.get("vnfConfigurableProperties") or {}).get(prop, "not set"))))
    for item in _newest_first(op_occs):
        state = item.get("operationState")
        if state in occ.TERMINAL_STATES or item.get("id") in resumed:
            continue
        what = "op occ {0} ({1}, {2})".format(item.get("id"), item.get("operation"), state)
        lease = item.get("lease") or {}
        if state in (occ.PROCESSING, occ.ROLLING_BACK, occ.STARTING) and lease.get("status") == LIVE_LEASE:
            return dict(_base(request, WAIT, "busy", "{0} is running: {1}".format(what, lease.get("statusReason") or "its lease is live")),
                        op_occ_id=item.get("id"), lease_expires_at=lease.get("expiresAt"))
        stuck = state == occ.FAILED_TEMP or (state in (occ.PROCESSING, occ.STARTING) and lease.get("status") != LIVE_LEASE)
        if stuck and item.get("operation") == OWN_OPERATION[function]:
            why = lease.get("statusReason") or (item.get("error") or {}).get("detail") or state
            return dict(_base(request, RETRY, "take_over", "{0} did not end ({1}): retried (vnf_lcm_op_occ action retry), "
                              "then what is still to do".format(what, why)), op_occ_id=item.get("id"))
        return _nothing(request, UNFINISHED_OTHER, "{0} did not end; the closed loop resumes only its own {1}s: "
                        "retry, roll back or fail it (nfv.vnflcm.vnf_lcm_op_occ)".format(what, OWN_OPERATION[function]), op_occ_id=item.get("id"))
    return None


# ---------------------------------------------------------------------------------------------
# Resuming: the loop's own op occs that a run left, found without an alert

def resumable(instances, op_occs, namespace=""):
    """The loop's own op occs to take over now, oldest first: a HEAL or SCALE the loop made (isAutomaticInvocation)
    left FAILED_TEMP, or PROCESSING / STARTING by a run whose lease is not live (vnf_info's lease status: it is gone
    or its lease expired). Each ``{vnf_instance_id, namespace, op_occ_id, operation, state, why}``; an op occ of an
    instance not in ``instances`` (one no longer INSTANTIATED included) is left alone."""
    known = {item.get("id") for item in instances or [] if item.get("instantiationState") == INSTANTIATED}
    found = []
    for item in sorted(op_occs or [], key=_started):
        state = item.get("operationState")
        lease = item.get("lease") or {}
        stuck = state == occ.FAILED_TEMP or (state in (occ.PROCESSING, occ.STARTING) and lease.get("status") != LIVE_LEASE)
        if not (stuck and item.get("isAutomaticInvocation") is True and item.get("operation") in OWN_OPERATION.values()
                and item.get("vnfInstanceId") in known):
            continue
        why = lease.get("statusReason") or (item.get("error") or {}).get("detail") or state
        found.append({"vnf_instance_id": item["vnfInstanceId"], "namespace": namespace or "", "op_occ_id": item.get("id"),
                      "operation": item.get("operation"), "state": state, "why": why})
    return found


def _where(request):
    """Where the instance was looked for, for the message of an unknown instance."""
    searched = request.get("searched_namespaces") or []
    if searched:
        return " in namespaces {0} (closed_loop_namespaces)".format(listed(searched)) if len(searched) > 1 else \
            " in namespace {0} (closed_loop_namespaces)".format(searched[0])
    return " in namespace " + request["namespace"] if request.get("namespace") else ""


def _healed_vnfcs(op_occ, known):
    """The VNFCs a heal op occ replaced: those it named, every VNFC when it named none (a heal of the whole VNF), and those
    its resourceChanges say it removed (vnfcInfo id ``<VDU>-<vnfcResourceInfo id>``, both VIMs): a healed VNFC's id
    follows its new pod or server, so the ids an alert raised before the heal names are no longer in the record."""
    named = (op_occ.get("operationParams") or {}).get("vnfcInstanceId")
    if reconciles(op_occ.get("operationParams")):
        # A repair of drift names no VNFC and replaces none of them by itself.
        named, known = [], []
    removed = ["{0}-{1}".format(change.get("vduId"), change.get("id")) for change in (op_occ.get("resourceChanges") or {}).get("affectedVnfcs") or []
               if isinstance(change, dict) and change.get("changeType") in ("REMOVED", "MODIFIED")]
    return (list(named) if named else list(known)) + removed


def _started(op_occ):
    try:
        return parse_time(op_occ.get("startTime"), "startTime")
    except ValidationError:
        return datetime.datetime.min.replace(tzinfo=datetime.timezone.utc)


def _newest_first(op_occs):
    return sorted(op_occs or [], key=_started, reverse=True)


def _shown(value):
    return str(value).lower() if isinstance(value, bool) else repr(value) if not isinstance(value, str) else value


def _base(request, action, reason, message):
    return {"action": action, "reason": reason, "message": message, "function_type": request["function_type"],
            "vnf_instance_id": request["vnf_instance_id"]}


def _nothing(request, reason, message, **details):
    return dict(_base(request, NOTHING, reason, "nothing done: " + message), **details)
