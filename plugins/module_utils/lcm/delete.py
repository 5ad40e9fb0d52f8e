# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Delete a VNF instance identifier (SOL003 ``DELETE /vnf_instances/{id}``), on either VIM.

SOL003 allows it for a NOT_INSTANTIATED instance only, and it has no operation occurrence: the record
goes, and with it the op occ history and whatever else the VIM's record store keeps for the instance
(common/record_store.py ``kept_for``: the Kubernetes rollback Secret, the Heat stack the record lives in).
Refused, before anything is written, while the instance is INSTANTIATED, while an operation of it is
unfinished (its rollback data would go), and while its record lists what a failed instantiate or terminate left
(deleting the identifier would orphan that: terminate deletes it) — except what is being deleted already and held by
finalizers, which nothing the collection does releases: the identifier goes, and the result names it (``left_behind``).

A name with no record but a claim (an instantiate killed between the two) has no identifier to delete: vnf_delete and
vnf_terminate by that name delete the claim, once its run is gone (:func:`release_left_claim`).
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, NotFoundError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.name_claim import LIVE, claim_in_use
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import instance_run
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import with_links
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED

OPERATION = "DELETE_IDENTIFIER"


class Leftovers(list):
    """What a VIM's ``leftovers_of(instance)`` may return: the objects that refuse the delete (terminate deletes them),
    and ``held``: those being deleted already but held by finalizers, reported and never refused (a plain list holds
    the first only)."""

    def __init__(self, blocking=(), held=()):
        super().__init__(blocking)
        self.held = list(held)


def check_deletable(instance, op_occs, leftovers):
    """ConflictError saying what to do first, unless SOL003 allows deleting the identifier now."""
    what = "VNF instance {0}".format(instance["id"])
    if instance.get("instantiationState") == INSTANTIATED:
        raise ConflictError("delete", what, "it is INSTANTIATED; terminate it first (nfv.vnflcm.vnf_terminate), or terminate and delete in one "
                            "step with vnf_terminate's delete_instance: true")
    busy = [item for item in op_occs if not occ.is_terminal(item)]
    if busy:
        raise ConflictError("delete", what, "operation occurrence {0} ({1}) is {2}; retry, roll back or fail it first "
                            "(nfv.vnflcm.vnf_lcm_op_occ)".format(busy[0]["id"], busy[0]["operation"], busy[0]["operationState"]))
    if leftovers:
        raise ConflictError("delete", what, "its record lists what a failed instantiate (or a terminate that was failed) left ({0}); "
                            "terminate it first (nfv.vnflcm.vnf_terminate), which deletes them".format(", ".join(leftovers)))


def plan_delete(store, found, leftovers=(), after_terminate=False):
    """The plan: what goes (``kept_for``), after the checks (skipped for the plan of a terminate that deletes next)."""
    instance, op_occs, _version = found
    if not after_terminate:
        check_deletable(instance, op_occs, leftovers)
    kept = store.kept_for(instance)
    plan = {"operation": OPERATION, "vnf_instance_id": instance["id"], "delete": kept,
            "lines": ["{0} {1}: delete".format(item["kind"], item["name"]) for item in kept]}
    held = getattr(leftovers, "held", [])
    if held:
        plan["left_behind"] = held
        plan["lines"] += ["{0}: left on the VIM; it goes once nothing holds it any more".format(item) for item in held]
    return plan


def run_delete(session, params, leftovers_of, check_mode=False, diff_mode=False, timeout=None):
    """vnf_delete on a driver's ``session`` (lcm/instance_run.py): ``leftovers_of(instance)`` names what a failed instantiate
    left on the VIM; ``timeout``: how long the store may wait for what it deletes."""
    result = delete_identifier(lambda: instance_run.locate(session, params), leftovers_of, check_mode, diff_mode, timeout,
                               unclaim=instance_run.unclaimer(session, params))
    return instance_run.with_api_calls(result, session)


def run_terminate(session, planner, params, leftovers_of, check_mode=False, diff_mode=False, timeout=None):
    """vnf_terminate on a driver's ``session``: its ``planner`` on the instance the params select; by a name no record has,
    the claim of that name a killed instantiate left (:func:`terminate_or_unclaim`). With delete_instance, the identifier
    goes next, on the same connection (:func:`terminate_then_delete`, ``leftovers_of`` and ``timeout`` as for vnf_delete)."""
    result = instance_run.on_instance(session, planner, params, check_mode, diff_mode, missing_ok=True, name=occ.TERMINATE)
    unclaim = instance_run.unclaimer(session, params)
    if unclaim and result.get("vnf_instance") is None:
        result = instance_run.with_api_calls(terminate_or_unclaim(result, unclaim, check_mode, diff_mode), session)
    if not params.get("delete_instance"):
        return result
    result = terminate_then_delete(result, lambda: instance_run.locate(session, params), leftovers_of, check_mode, diff_mode, timeout)
    return instance_run.with_api_calls(result, session)


def gone(error):
    """The result for an instance that does not exist (any more): nothing to do."""
    return {"changed": False, "vnf_instance": None, "deleted": [], "plan": {"operation": OPERATION, "delete": [], "lines": [error.msg]}}


def delete_identifier(locate, leftovers_of, check_mode=False, diff_mode=False, timeout=None, unclaim=None):
    """vnf_delete: ``locate()`` gives ``(store, (instance, op_occs, version))`` or raises NotFoundError;
    ``leftovers_of(instance)`` names what a failed instantiate left on the VIM. ``unclaim``: ``(store, name)`` when the
    instance is selected by name, whose claim left without a record goes (:func:`release_left_claim`)."""
    try:
        store, found = locate()
    except NotFoundError as error:
        released = release_left_claim(unclaim[0], unclaim[1], OPERATION, check_mode, diff_mode) if unclaim else None
        return released or gone(error)
    instance = found[0]
    plan = plan_delete(store, found, leftovers_of(instance))
    result = {"changed": True, "plan": plan, "vnf_instance": instance, "deleted": []}
    if plan.get("left_behind"):
        result["left_behind"] = plan["left_behind"]
    if diff_mode:
        result["diff"] = identifier_diff(instance, plan["delete"])
    if not check_mode:
        result["deleted"] = store.delete_identifier(instance, found[2], timeout, kept=plan["delete"])
    return with_links(store, result)


def identifier_diff(instance, kept):
    return {"before": {"vnfInstance": {"id": instance["id"], "vnfInstanceName": instance.get("vnfInstanceName"),
                                       "instantiationState": instance.get("instantiationState")},
                       "kept": ["{0}/{1}".format(item["kind"], item["name"]) for item in kept]},
            "after": {}}


def left_after_terminate(terminate_plan, kept):
    """What of ``kept`` the terminate of ``terminate_plan`` leaves: not its stack (Heat: the record lives there), nothing
    when it deletes the namespace the record lives in (Kubernetes)."""
    namespace = terminate_plan.get("namespace")
    if namespace and any(item.get("kind") == "Namespace" and item.get("name") == namespace for item in terminate_plan.get("delete") or []):
        return []
    return [item for item in kept if item["name"] != terminate_plan.get("stack_name")]


def terminate_then_delete(terminated, locate, leftovers_of, check_mode=False, diff_mode=False, timeout=None):
    """vnf_terminate with delete_instance: ``terminated`` is the terminate's result; the identifier goes next.

    In check mode the instance is still INSTANTIATED: the plan says what the delete would remove once terminated.
    """
    try:
        store, found = locate()
    except NotFoundError:
        # The record went with the terminate (its namespace, its stack) or was never there (what the terminate deleted
        # then, if anything, was a claim of its name: terminate_or_unclaim).
        terminated.setdefault("deleted", [])
        return terminated
    if check_mode:
        plan = plan_delete(store, found, after_terminate=True)
        plan["delete"] = left_after_terminate(terminated.get("plan") or {}, plan["delete"])
        plan["lines"] = ["{0} {1}: delete".format(item["kind"], item["name"]) for item in plan["delete"]]
        terminated["plan"] = dict(terminated.get("plan") or {}, delete_identifier=plan)
        terminated["deleted"] = []
        terminated["changed"] = bool(terminated.get("changed") or plan["delete"])
        if diff_mode and "diff" in terminated:
            terminated["diff"]["before"]["kept"] = ["{0}/{1}".format(item["kind"], item["name"]) for item in plan["delete"]]
            terminated["diff"]["after"] = {}
        return terminated
    done = delete_identifier(lambda: (store, found), leftovers_of, check_mode, diff_mode, timeout)
    terminated["plan"] = dict(terminated.get("plan") or {}, delete_identifier=done["plan"])
    terminated["deleted"] = done["deleted"]
    if done.get("left_behind"):
        terminated["left_behind"] = done["left_behind"]
    terminated["changed"] = bool(terminated.get("changed") or done["changed"])
    if diff_mode and "diff" in terminated:
        terminated["diff"]["after"] = {}
    return terminated


def release_left_claim(store, name, operation, check_mode=False, diff_mode=False):
    """vnf_delete or vnf_terminate (``operation``) of ``name``, which no record has: the claim of the name an instantiate
    killed before its record left is deleted, once its run is gone (the result's ``name_claim`` shows it); None when
    there is no such claim; ConflictError, nothing written, while its run may still write the record."""
    shown = store.left_claim(name) if name else None
    if shown is None:
        return None
    if shown["status"] == LIVE:
        raise claim_in_use("delete", name, store.scope(), shown)
    held_by = {"kind": shown["heldBy"]["kind"], "name": shown["heldBy"]["name"]}
    plan = {"operation": operation, "delete": [held_by], "name_claim": shown,
            "lines": ["{0} {1}: delete (the claim of name {2!r}: {3})".format(held_by["kind"], held_by["name"], name, shown["note"])]}
    result = {"changed": True, "plan": plan, "vnf_instance": None, "name_claim": shown, "deleted": []}
    if diff_mode:
        result["diff"] = {"before": {"nameClaim": {key: shown[key] for key in ("vnfInstanceName", "vnfInstanceId", "vnfLcmOpOccId", "claimedAt")},
                                     "kept": ["{0}/{1}".format(held_by["kind"], held_by["name"])]}, "after": {}}
    if not check_mode:
        result["deleted"] = store.drop_left_claim(shown)
    return result


def terminate_or_unclaim(terminated, unclaim, check_mode=False, diff_mode=False):
    """vnf_terminate's ``terminated`` result, or, when it found no instance, the deletion of the claim of its name left
    without a record (:func:`release_left_claim`). ``unclaim``: ``(store, name)``, None for a terminate by id."""
    if terminated.get("vnf_instance") is not None or not unclaim:
        return terminated
    released = release_left_claim(unclaim[0], unclaim[1], occ.TERMINATE, check_mode, diff_mode)
    return dict(terminated, **released) if released else terminated
