# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The op-occ lifecycle every operation on every VIM shares.

A driver first builds an :class:`Operation`: everything validated and planned, nothing written.
:func:`run` then returns the plan (check mode, or nothing to do), or records the op occ as
PROCESSING, lets the operation act, and records COMPLETED, or FAILED_TEMP with the partial result.
"""

from __future__ import annotations

import copy
import datetime

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, NotFoundError, VnfLcmError
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc)


class Operation:
    """What a driver hands to :func:`run`.

    ``plan`` is the readable plan (also the check-mode result), ``changed`` False when the VIM
    already is as requested, ``instance`` the record before the operation, kept in ``store``
    with its ``op_occs`` at ``version`` (None: not stored yet). ``prepare`` runs
    before the first record write (objects the record lives in), ``execute(progress)`` does the
    writes and returns the new VnfInstance; it fills ``progress`` (which starts with the op occ's
    ``op_occ_id``) as it goes, so a failure still reports what was done; ``progress["result"]``
    adds to the module result, ``progress["op_occ"]`` to the op occ (changedExtConnectivity, say).
    """

    def __init__(self, name, request, instance, plan, store, op_occs=(), version=None, changed=True, prepare=None, execute=None, diff=None):
        self.name = name
        self.request = request
        self.instance = instance
        self.plan = plan
        self.store = store
        self.op_occs = list(op_occs)
        self.version = version
        self.changed = changed
        self.prepare = prepare or (lambda: None)
        self.execute = execute
        self.diff = diff


class RecordStore:
    """Where a VIM keeps VnfInstance records (see the k8s and heat stores)."""

    def save(self, instance, op_occs, version):
        """Write the record; ``version`` None creates it. Returns the new version; ConflictError if another writer won."""
        raise NotImplementedError

    def delete(self, instance, version):
        raise NotImplementedError


def run(operation, check_mode=False, diff_mode=False, now=utc_now, resume=None):
    """Carry out ``operation``; returns the module result.

    ``resume``: ``(event, failed_op_occ)`` to carry out a ``retry`` or ``rollback`` of a FAILED_TEMP
    op occ instead of starting a new one: that op occ goes on (PROCESSING, or ROLLING_BACK), and
    ends COMPLETED, or ROLLED_BACK, or FAILED_TEMP again.
    """
    store, op_occs, version = operation.store, operation.op_occs, operation.version
    result = {"changed": operation.changed, "plan": operation.plan, "vnf_instance": operation.instance}
    if diff_mode and operation.diff is not None:
        result["diff"] = operation.diff
    if check_mode or (not operation.changed and resume is None):
        return result
    if resume is None:
        busy = [item for item in op_occs if not occ.is_terminal(item)]
        if busy:
            raise ConflictError("start", "{0} on VNF instance {1}".format(operation.name, operation.instance["id"]),
                                "operation occurrence {0} is {1}; retry, roll back or fail it first".format(busy[0]["id"], busy[0]["operationState"]))
        current = occ.transition(occ.new_op_occ(operation.instance["id"], operation.name, operation.request, now()), "process", now())
        others = list(op_occs)
    else:
        event, failed = resume
        current = occ.transition(failed, event, now())
        others = [item for item in op_occs if item["id"] != failed["id"]]
    operation.prepare()
    history = [current] + others
    version = store.save(operation.instance, history, version)
    progress = {"op_occ_id": current["id"]}
    try:
        instance = operation.execute(progress) if operation.changed else operation.instance
    except VnfLcmError as error:
        failed = occ.transition(current, "fail_temp", now(), error=occ.problem_details(500, error.msg))
        failed["resourceChanges"] = progress.get("resourceChanges", failed.get("resourceChanges"))
        store.save(progress.get("instance", operation.instance), [failed] + others, version)
        # A snapshot: the error may carry ``progress`` itself, and a result must not contain itself.
        extra = {} if error.result is progress else error.result
        error.result = dict(extra, changed=True, vnf_lcm_op_occ=failed, progress=copy.deepcopy(progress), plan=operation.plan)
        raise
    done = occ.transition(current, "rolled_back" if resume and resume[0] == "rollback" else "complete", now())
    if "resourceChanges" in progress:
        done["resourceChanges"] = progress["resourceChanges"]
    done.update(progress.get("op_occ") or {})
    if progress.get("delete_record"):
        store.delete(instance, version)
    else:
        store.save(instance, [done] + others, version)
    result.update(progress.get("result") or {})
    result.update(changed=True, vnf_instance=instance, vnf_lcm_op_occ=done)
    return result


def act_on_op_occ(store, found, op_occ_id, event, plan, check_mode=False, diff_mode=False, on_fail=None, now=utc_now):
    """retry, rollback or fail a FAILED_TEMP op occ, on any VIM: what vnf_lcm_op_occ does.

    ``plan(failed)`` gives the Operation that retries or rolls back ``failed``; ``on_fail(failed)``
    tidies up what the VIM keeps for a rollback that will now never come.
    """
    instance = found[0]
    failed = find_op_occ(found[1], op_occ_id)
    if failed["operationState"] != occ.FAILED_TEMP:
        return already_ended(instance, failed, event)
    if event != "fail":
        return run(plan(failed), check_mode, diff_mode, now, resume=(event, failed))
    if check_mode:
        return {"changed": True, "vnf_instance": instance, "vnf_lcm_op_occ": failed}
    if on_fail is not None:
        on_fail(failed)
    return fail(store, found, failed, now)


def already_ended(instance, op_occ, event):
    """An op occ that is no longer FAILED_TEMP: the action already happened (a re-run), or cannot."""
    done = {"retry": occ.COMPLETED, "rollback": occ.ROLLED_BACK, "fail": occ.FAILED}[event]
    if op_occ["operationState"] != done:
        raise ConflictError(event, "operation occurrence {0}".format(op_occ["id"]),
                            "it is {0}; only a FAILED_TEMP operation can be retried, rolled back or failed".format(op_occ["operationState"]))
    return {"changed": False, "vnf_instance": instance, "vnf_lcm_op_occ": op_occ}


def fail(store, found, failed, now=utc_now):
    """FAILED_TEMP -> FAILED: the op occ ends as it is; nothing on the VIM changes."""
    instance, op_occs, version = found
    done = occ.transition(failed, "fail", now())
    store.save(instance, [done] + [item for item in op_occs if item["id"] != failed["id"]], version)
    return {"changed": True, "vnf_instance": instance, "vnf_lcm_op_occ": done}


def find_op_occ(op_occs, op_occ_id=None):
    """The op occ with ``op_occ_id``, else the newest one; NotFoundError when there is none."""
    for item in op_occs:
        if op_occ_id in (None, item["id"]):
            return item
    raise NotFoundError("operation occurrence {0}".format(op_occ_id) if op_occ_id else "operation occurrence of this VNF instance")
