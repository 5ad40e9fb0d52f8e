# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What both VIMs' name claims share (k8s/store.py, heat/name_claim.py): when a claim is stale, what a loser is told.

A claim holds an instance name for the run that creates (or renames) an instance of that name, so that one name is
one instance identifier even when two runs start together; each VIM claims with what its API makes unique.
"""

from __future__ import annotations

import datetime

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.runner import runner_is_gone

TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
# What a claim whose instance has no record is (left_claim): its run may still write the record, or it is gone.
LIVE, EXPIRED, RUNNER_GONE = "live", "expired", "runner gone"


def claim_time(now):
    return now.strftime(TIME_FORMAT)


def claim_expired(claimed_at, now, grace_seconds):
    """True when a claim made at ``claimed_at`` (TIME_FORMAT, a trailing Z optional) is older than ``grace_seconds``:
    its run died before the record took the name over. An unreadable time counts as expired."""
    try:
        claimed = datetime.datetime.strptime((claimed_at or "").rstrip("Z")[:19], TIME_FORMAT[:-1]).replace(tzinfo=datetime.timezone.utc)
    except ValueError:
        return True
    return (now - claimed).total_seconds() > grace_seconds


def may_take_over(instance, held, holder_name, now, grace_seconds, where):
    """The rule of both VIMs' claims, for ``instance`` meeting the claim ``held`` of its name: False when the claim is the
    instance's own (a retry), True when it may be taken over (its instance has another name now, or has no record and
    the claim is older than ``grace_seconds`` or its runner, a process of this machine, is gone); else ConflictError:
    another instance has the name or is being created. ``holder_name(instance_id)``: the name of that instance's
    record, None when there is none."""
    if held.get("vnfInstanceId") == instance["id"]:
        return False
    holder = holder_name(held["vnfInstanceId"]) if held.get("vnfInstanceId") else None
    if holder == instance["vnfInstanceName"] or (holder is None and orphan_status(held, now, grace_seconds)[0] == LIVE):
        raise name_held(instance["vnfInstanceName"], where, held)
    return True


def orphan_status(held, now, grace_seconds):
    """``(status, reason)`` of the claim ``held`` whose instance has no record: LIVE while its run may still write that
    record, RUNNER_GONE once its runner, a process of this machine, has exited, EXPIRED once older than ``grace_seconds``."""
    runner = held.get("runner") or {}
    if runner_is_gone(runner):
        return RUNNER_GONE, "its runner (pid {0} on {1}) has exited".format(runner.get("pid"), runner.get("host"))
    if claim_expired(held.get("claimedAt"), now, grace_seconds):
        return EXPIRED, "it is older than the {0} s a run takes to write its record".format(grace_seconds)
    return LIVE, "it is less than {0} s old and its run may still write its record".format(grace_seconds)


def left_claim(name, held, now, grace_seconds, held_by):
    """What vnf_info, vnf_delete and vnf_terminate say of the claim ``held`` of ``name`` whose instance has no record (an
    instantiate killed between its claim and its record): who made it, and whether its run is gone. ``held_by``: the
    VIM object that holds it (``{"kind", "name"}``)."""
    status, reason = orphan_status(held, now, grace_seconds)
    runner = held.get("runner") or {}
    shown = {"vnfInstanceName": name, "vnfInstanceId": held.get("vnfInstanceId"),
             "vnfLcmOpOccId": held.get("vnfLcmOpOccId"), "claimedAt": held.get("claimedAt"), "status": status,
             "statusReason": reason, "heldBy": dict(held_by)}
    if runner.get("host") is not None:
        shown["runner"] = {"host": runner.get("host"), "pid": runner.get("pid")}
    what = "gone" if status != LIVE else "still running"
    shown["note"] = "claimed by run {0} (VNF instance {1}, since {2}), {3}, no instance: {4}".format(
        held.get("vnfLcmOpOccId"), held.get("vnfInstanceId"), held.get("claimedAt"), what, reason)
    return shown


def claim_in_use(action, name, where, shown):
    """The refusal to remove the claim ``shown`` (:func:`left_claim`, LIVE): its run may still create the instance."""
    return ConflictError(action, "the claim of VNF instance name {0!r} in {1}".format(name, where),
                         "run {0} holds it for VNF instance {1} since {2} and {3}; wait for that run to end (then the name "
                         "is its instance's, or its claim is gone or removable)".format(
                             shown["vnfLcmOpOccId"], shown["vnfInstanceId"], shown["claimedAt"], shown["statusReason"]))


def name_held(name, where, held):
    """The loser's error: ``held`` is the claim (``vnfInstanceId``, ``vnfLcmOpOccId``, ``claimedAt``)."""
    return ConflictError("create", "VNF instance {0!r} in {1}".format(name, where),
                         "instance {0!r} is being created by run {1} (VNF instance {2}, since {3}); wait for it to end: "
                         "a run by name then finds that instance".format(name, held.get("vnfLcmOpOccId"), held.get("vnfInstanceId"),
                                                                         held.get("claimedAt")))


def name_taken(name, where, holder_id, renaming=False):
    """Another instance has the name: one came in meanwhile (claimed after a create was planned), or a rename to it."""
    what = "a VNF instance to {0!r} in {1}" if renaming else "VNF instance {0!r} in {1}"
    return ConflictError("rename" if renaming else "create", what.format(name, where),
                         "VNF instance {0} has that name; one name is one instance".format(holder_id))
