# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The op-occ lifecycle every operation on every VIM shares.

A driver first builds an :class:`Operation`: everything validated and planned, nothing written.
:func:`run` then returns the plan (check mode, or nothing to do), or records the op occ as
PROCESSING with a lease (lease.py), lets the operation act, and records COMPLETED, or FAILED_TEMP
with the partial result, whatever stopped it.
"""

from __future__ import annotations

import copy
import datetime
import os
from typing import Any, Callable, Iterable, List, NamedTuple, Optional, Sequence, Tuple

from ansible_collections.nfv.vnflcm.plugins.module_utils.common import activity, signals
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, Interrupted, NotFoundError, ValidationError, VimError, VnfLcmError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import lease
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import links
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ

# lcm/interface_scripts.py and lcm/coordination.py are imported by the functions that run an operation: vnf_info, which
# imports this module for with_links, does without them (and without what they import) on every call.

# Where an operation's progress keeps what the VNFD's scripts gave back for the way back (interface_scripts.ERROR_HANDLING_DATA).
SCRIPT_DATA = "user_script_err_handling_data"


def utc_now() -> datetime.datetime:
    return datetime.datetime.now(datetime.timezone.utc)


class Operation:
    """What a driver hands to :func:`run`.

    ``plan`` is the readable plan (also the check-mode result), ``changed`` False when the VIM
    already is as requested, ``instance`` the record before the operation, kept in ``store``
    with its ``op_occs`` at ``version`` (None: not stored yet). ``prepare`` runs
    before the first record write (objects the record lives in), ``execute(progress)`` does the
    writes and returns the new VnfInstance; it fills ``progress`` (which starts with the op occ's
    ``op_occ_id``) as it goes, so a failure still reports what was done; what the engine reads of it has a name
    (:class:`Progress`).
    ``instance_while_running``: what the record says while the operation runs (and after a failure that
    left no other word), when that is more than ``instance``: e.g. the objects an instantiate may create.
    ``scripts``: the VNFD's interface scripts of the package the operation is given (interface_scripts.for_package), when
    they are not the ones ``instance``'s record keeps (instantiate, change of package).
    ``after_record()``: clean-up once the op occ's end is recorded, never before (the rollback data an operation keeps:
    were it deleted first, a crash in between would leave an op occ to roll back without its way back). Should it fail,
    the operation has still ended: the result warns, and the next operation of the instance replaces what was left.
    """

    def __init__(self, name: str, request: Optional[dict], instance: dict, plan: dict, store: RecordStore, op_occs: Iterable[dict] = (),
                 version: Any = None, changed: bool = True, prepare: Optional[Callable[[], None]] = None,
                 execute: Optional[Callable[[Progress], dict]] = None, diff: Optional[dict] = None, instance_while_running: Optional[dict] = None,
                 scripts: Optional[dict] = None, after_record: Optional[Callable[[], None]] = None) -> None:
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
        self.instance_while_running = instance_while_running or instance
        self.scripts = scripts
        self.after_record = after_record
        # Whether the op occ is started by the VNFM itself (the closed loop), not asked by a user: SOL003's
        # isAutomaticInvocation. Set by lcm/instance_run.py from the modules' automatic_invocation option.
        self.automatic_invocation = False


# How long a VNFD interface script or the end hook may run when the module's wait_timeout does not say.
SCRIPT_SECONDS = 600


class Settings(NamedTuple):
    """How an operation runs, from the module's options (:func:`settings_of`); the defaults suit tests that drive the
    engine directly. ``lease_seconds``: the lease it takes; ``script_timeout``: how long a VNFD interface script or the end
    hook may run (the module's wait_timeout); ``end_hook``: the role's <operation>_end task file, run as the operation's
    last step (``{"name", "tasks", "variables"}``); ``interrupt(reason)``: stops the run when its lease is lost
    (common/signals.py)."""

    lease_seconds: float = lease.DEFAULT_SECONDS
    script_timeout: float = SCRIPT_SECONDS
    end_hook: Optional[dict] = None
    interrupt: Optional[Callable[[Optional[str]], None]] = None


def settings_of(params: dict) -> Settings:
    """The Settings of the module options ``params``; ValidationError when the end hook's task file cannot be read."""
    return Settings(params.get("lease_seconds") or lease.DEFAULT_SECONDS, params.get("wait_timeout") or SCRIPT_SECONDS,
                    end_hook_of(params), signals.current_interrupt())


def end_hook_of(params: dict) -> Optional[dict]:
    """The end hook the module options give (read now, so that a missing file fails before anything is written), or None."""
    path = params.get("end_hook")
    if not path:
        return None
    try:
        with open(path, encoding="utf-8") as handle:
            tasks = handle.read()
    except OSError as error:
        raise ValidationError("module options", "end_hook", "cannot read the task file {0}: {1}".format(path, error.strerror))
    variables = dict(params.get("end_hook_vars") or {})
    return {"name": variables.get("vnf_lifecycle_hook_name") or os.path.basename(path), "tasks": tasks, "variables": variables}


def _entry(key: str, doc: str) -> property:
    return property(lambda self: self.get(key), lambda self, value: self.__setitem__(key, value), doc=doc)


class Progress(dict):
    """What an operation has done so far (shown in its result); :meth:`checkpoint` also records it.

    An operation checkpoints when the record must know something before the next write, should the
    process die there: the Heat stack it just created, the stack a change of package starts from.
    What the engine reads has a name below; any other key is the driver's own account of what it did
    (``created``, ``deleted``, ``stack``...), shown as it is.
    """

    resource_changes = _entry("resourceChanges", "SOL003 resourceChanges (affectedVnfcs, ...): the op occ's, whether it ends or fails.")
    op_occ_fields = _entry("op_occ", "More fields of the op occ when it ends (changedExtConnectivity, ...).")
    result_fields = _entry("result", "More fields of the module's result (hooks_run, replaced_pods, ...).")
    delete_record = _entry("delete_record", "True: the record goes when the operation ends (what it was kept in is deleted).")
    instance = _entry("instance", "The record a checkpoint, and a failure, write (the instance as the operation left it).")

    def __init__(self, keeper: Optional[lease.LeaseKeeper] = None, op_occ_id: Optional[str] = None) -> None:
        super().__init__(op_occ_id=op_occ_id)
        self._keeper = keeper

    def checkpoint(self, instance: Optional[dict] = None) -> None:
        """Write the record with ``instance`` (kept as :attr:`instance`, the record a failure writes too)."""
        if instance is not None:
            self.instance = instance
        if self.instance is not None:
            self._keeper.checkpoint(self.instance)

    def release_record(self) -> None:
        """The record is deleted with what the operation deletes next: its lease is renewed no more."""
        self._keeper.release()

    def snapshot(self) -> dict:
        return copy.deepcopy(dict(self))


def with_links(store: RecordStore, result: Any) -> Any:
    """``result`` with SOL003 ``_links`` on its VnfInstance(s) and VnfLcmOpOcc(s): every result of the engine
    and of vnf_info passes here on its way out (the records themselves never hold links; sol/links.py)."""
    if not isinstance(result, dict):
        return result
    linked = dict(result)
    selector = store.selector()

    def url(instance_id):
        return store.record_url(instance_id) if instance_id else None

    def instance(document):
        href = url((document or {}).get("id")) if isinstance(document, dict) else None
        return links.with_instance_links(document, href, selector) if href else document

    def op_occ(document):
        href = url((document or {}).get("vnfInstanceId")) if isinstance(document, dict) else None
        return links.with_op_occ_links(document, href, selector) if href else document

    if "vnf_instance" in linked:
        linked["vnf_instance"] = instance(linked["vnf_instance"])
    if "vnf_lcm_op_occ" in linked:
        linked["vnf_lcm_op_occ"] = op_occ(linked["vnf_lcm_op_occ"])
    if isinstance(linked.get("vnf_instances"), list):
        linked["vnf_instances"] = [instance(item) for item in linked["vnf_instances"]]
    if isinstance(linked.get("vnf_lcm_op_occs"), list):
        linked["vnf_lcm_op_occs"] = [op_occ(item) for item in linked["vnf_lcm_op_occs"]]
    return linked


def linked_results(store: RecordStore, produce: Callable[[], dict]) -> dict:
    """What ``produce()`` returns, or the partial result of the collection error it raises, with ``_links``."""
    try:
        return with_links(store, produce())
    except VnfLcmError as error:
        try:
            error.result = with_links(store, error.result)
        except Exception:  # noqa: B902 - the failure must reach the user as it is, linked or not (a VIM gone away)
            pass
        raise


def run(operation: Operation, check_mode: bool = False, diff_mode: bool = False, now: Callable[[], datetime.datetime] = utc_now,
        resume: Optional[Tuple[str, dict]] = None, settings: Settings = Settings()) -> dict:
    """Carry out ``operation``; returns the module result (its documents with ``_links``: :func:`with_links`).

    ``resume``: ``(event, failed_op_occ)`` to carry out a ``retry`` or ``rollback`` of a FAILED_TEMP
    op occ instead of starting a new one: that op occ goes on (PROCESSING, or ROLLING_BACK), and
    ends COMPLETED, or ROLLED_BACK, or FAILED_TEMP again.
    """
    return linked_results(operation.store, lambda: _run(operation, check_mode, diff_mode, now, resume, settings))


def _run(operation: Operation, check_mode: bool, diff_mode: bool, now: Callable[[], datetime.datetime], resume: Optional[Tuple[str, dict]],
         settings: Settings) -> dict:
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import interface_scripts

    store, op_occs, version = operation.store, operation.op_occs, operation.version
    rollback = resume is not None and resume[0] == "rollback"
    scripts = operation.scripts if operation.scripts is not None and not rollback else interface_scripts.recorded(operation.instance)
    phases = interface_scripts.ROLLBACK_PHASES if rollback else interface_scripts.PHASES
    with_scripts_note(operation.plan, interface_scripts.plan_note(scripts, operation.name, phases))
    result = {"changed": operation.changed, "plan": operation.plan, "vnf_instance": operation.instance}
    if diff_mode and operation.diff is not None:
        result["diff"] = operation.diff
    if resume is None:
        require_idle(operation.store, (operation.instance, operation.op_occs, operation.version), operation.name, now, check_mode)
    if check_mode or (not operation.changed and resume is None):
        return result
    if resume is None:
        current = occ.transition(occ.new_op_occ(operation.instance["id"], operation.name, operation.request, now(),
                                                is_automatic_invocation=operation.automatic_invocation), "process", now())
        others = list(op_occs)
    else:
        event, failed = resume
        current = occ.transition(failed, event, now())
        others = [item for item in op_occs if item["id"] != failed["id"]]
    keeper = lease.LeaseKeeper(store, version, settings.lease_seconds, now, settings.interrupt)
    operation.prepare()
    keeper.start(operation.instance_while_running, [current] + others)
    progress = Progress(keeper, current["id"])
    try:
        instance = act(operation, scripts, current, progress, rollback, settings)
    except BaseException as error:  # noqa: B902 - whatever stops an operation, its op occ must say so
        keeper.stop()
        raise record_failure(keeper, operation, current, others, progress, error, now) from error
    keeper.stop()
    done = occ.transition(current, "rolled_back" if rollback else "complete", now())
    if progress.resource_changes is not None:
        done["resourceChanges"] = progress.resource_changes
    done.update(progress.op_occ_fields or {})
    if progress.delete_record:
        keeper.delete(instance)
    else:
        keeper.save(instance, [done] + others)
    result.update(progress.result_fields or {})
    result.update(changed=True, vnf_instance=instance, vnf_lcm_op_occ=done)
    if operation.after_record is not None:
        try:
            operation.after_record()
        except Exception as error:  # noqa: B902 - the operation has ended: what is left is reported, not raised
            result.setdefault("warnings", []).append("{0} ended {1}, but its clean-up failed ({2}); the next operation of the instance "
                                                     "cleans up again".format(operation.name, done["operationState"], describe_exception(error)))
    return result


def act(operation: Operation, scripts: Optional[dict], op_occ: dict, progress: Progress, rollback: bool, settings: Settings = Settings()) -> dict:
    """The operation's writes, between the VNFD's ``<op>_start`` and ``<op>_end`` scripts (a rollback's: ``<op>_rollback_start``
    and ``<op>_rollback_end``) and then the role's end hook, all inside the op occ: a failing script or hook fails the
    operation (FAILED_TEMP), as in Tacker. What a script changes of the instance is applied to the one recorded; its
    user_script_err_handling_data is kept in ``progress`` (a failure records it in the op occ's error), and starts from
    what a failed run of the op occ kept."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import coordination, interface_scripts

    start, end = interface_scripts.ROLLBACK_PHASES if rollback else interface_scripts.PHASES
    data = copy.deepcopy((op_occ.get("error") or {}).get(occ.SCRIPT_DATA_FIELD) or {})
    started = _script(progress, data, scripts, operation, start, operation.instance, settings.script_timeout)
    instance = operation.execute(progress) if operation.changed else operation.instance
    instance = interface_scripts.with_script_changes(instance, started)
    instance = interface_scripts.with_script_changes(instance, _script(progress, data, scripts, operation, end, instance, settings.script_timeout))
    if rollback:
        return instance
    hook = settings.end_hook
    if hook:
        variables = dict(hook.get("variables") or {}, vnf_lifecycle_hook_vnf_instance=interface_scripts.visible_instance(instance),
                         vnf_lifecycle_hook_lcm_op_occ=op_occ)
        coordination.run_tasks(hook["name"], hook["tasks"], variables, settings.script_timeout)
        # Named apart from the VNFD's script of the same operation (both are "<op>_end").
        _ran(progress, "end hook " + hook["name"])
    return instance


def _script(progress: Progress, data: dict, scripts: Optional[dict], operation: Operation, phase: str, instance: dict, timeout: float) -> Any:
    """Run the operation's script of ``phase``; what it changed of the instance. ``data`` (the op occ's
    user_script_err_handling_data) goes into ``progress`` once a script gave some, also when the script fails."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import interface_scripts

    try:
        hook, changes = interface_scripts.run(scripts, operation.name, phase, operation.request, instance, timeout, data)
    finally:
        if data:
            progress[SCRIPT_DATA] = data
    _ran(progress, hook)
    return changes


def _ran(progress: Progress, hook: Optional[str]) -> None:
    if hook:
        progress.result_fields = progress.result_fields or {}
        progress.result_fields.setdefault("hooks_run", []).append(hook)


def with_scripts_note(plan: Any, note: Optional[str]) -> None:
    """The plan says which of the VNFD's interface scripts the operation runs, or does not."""
    if not note or not isinstance(plan, dict):
        return
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import interface_scripts

    plan["interface_scripts"] = note
    if isinstance(plan.get("lines"), list):
        plan["lines"] = plan["lines"] + [interface_scripts.plan_line(note)]


def record_failure(keeper: lease.LeaseKeeper, operation: Operation, current: dict, others: List[dict], progress: Progress,
                   error: BaseException, now: Callable[[], datetime.datetime]) -> VnfLcmError:
    """The op occ goes FAILED_TEMP with what was done; returns the collection error to raise.

    An error that is not the collection's own (a dropped connection deep in a library, a signal,
    MemoryError) becomes one that names the operation and the last VIM call. If the record cannot be
    written (the VIM is unreachable), the op occ stays PROCESSING until its lease expires, and the
    message says so. A run that lost its lease writes nothing: the record belongs to another run.
    """
    if keeper.lost:
        return lease.LeaseLost("go on with", "{0} of VNF instance {1}".format(operation.name, operation.instance["id"]),
                               "this run stopped, recording nothing more: {0}".format(keeper.lost))
    failure = as_collection_error(error, operation)
    problem = occ.problem_details(500, failure.msg)
    if progress.get(SCRIPT_DATA):
        # What the VNFD's scripts kept for the way back (Tacker's userScriptErrHandlingData): the retry or rollback gets it.
        problem[occ.SCRIPT_DATA_FIELD] = copy.deepcopy(progress[SCRIPT_DATA])
    failed = occ.transition(current, "fail_temp", now(), error=problem)
    failed["resourceChanges"] = progress.resource_changes if progress.resource_changes is not None else failed.get("resourceChanges")
    instance = progress.instance if progress.instance is not None else operation.instance_while_running
    try:
        keeper.save(instance, [failed] + others)
    except BaseException as save_error:  # noqa: B902 - the failure itself must still reach the user
        failure.add_reason("and it could not be recorded FAILED_TEMP ({0}); the op occ stays {1} until its lease expires at {2}".format(
            describe_exception(save_error), current["operationState"], (keeper.op_occ or {}).get(lease.LEASE, {}).get("expiresAt")))
    # A snapshot: the error may carry ``progress`` itself, and a result must not contain itself.
    extra = {} if failure.result is progress else failure.result
    # The instance as recorded with the FAILED_TEMP op occ: what a retry, rollback or fail starts from.
    failure.result = dict(extra, changed=True, vnf_instance=instance, vnf_lcm_op_occ=failed, progress=progress.snapshot(), plan=operation.plan)
    return failure


def as_collection_error(error: BaseException, operation: Operation) -> VnfLcmError:
    """``error`` if it is the collection's own, else a VimError naming the operation, the error and the last VIM call."""
    if isinstance(error, VnfLcmError):
        return error
    reason = describe_exception(error)
    step = activity.last_step()
    if step:
        reason += " (during: {0})".format(step)
    return VimError(operation.name.lower().replace("_", " "), "VNF instance {0}".format(operation.instance["id"]), reason)


def describe_exception(error: BaseException) -> str:
    if isinstance(error, Interrupted):
        return "interrupted: {0}".format(error.reason)
    if isinstance(error, KeyboardInterrupt):
        return "interrupted (SIGINT)"
    if isinstance(error, VnfLcmError):
        return error.msg
    text = str(error).strip()
    return "{0}: {1}".format(type(error).__name__, text) if text else type(error).__name__


def require_idle(store: RecordStore, found: Found, name: str, now: Callable[[], datetime.datetime] = utc_now, check_mode: bool = False) -> None:
    """A new operation (``name``: SCALE, HEAL, ...) needs every earlier op occ of the instance ended.

    A running op occ whose runner is gone (lease expired, or its process has exited on this machine)
    is recorded FAILED_TEMP on the way, so that retry, rollback and fail apply to it. lcm/instance_run.py
    asks before planning too: a plan drawn on what an unfinished operation left half done fails with
    the VIM's words instead of saying what to do.
    """
    instance, op_occs, version = found
    busy = [item for item in op_occs if not occ.is_terminal(item)]
    if not busy:
        return
    item = busy[0]
    what = "{0} on VNF instance {1}".format(name, instance["id"])
    status, reason = lease.lease_status(item, now())
    if status is None:
        raise ConflictError("start", what, "operation occurrence {0} is {1}; retry, roll back or fail it first".format(
            item["id"], item["operationState"]))
    if status == lease.LIVE:
        raise ConflictError("start", what, "operation occurrence {0} ({1}) is {2}: {3}; wait for it to end, or take it over with "
                            "nfv.vnflcm.vnf_lcm_op_occ (force: true) if that run is gone".format(
                                item["id"], item["operation"], item["operationState"], reason))
    if not check_mode:
        failed = lease.abandoned(item, now(), reason)
        store.save(instance, [failed if other["id"] == item["id"] else other for other in op_occs], version)
    raise ConflictError("start", what, "operation occurrence {0} ({1}) did not end: {2}; it is FAILED_TEMP now: retry, roll back or fail it "
                        "first (nfv.vnflcm.vnf_lcm_op_occ)".format(item["id"], item["operation"], reason))


def act_on_op_occ(store: RecordStore, found: Found, op_occ_id: Optional[str], event: str, plan: Callable[[dict, Found], Operation],
                  check_mode: bool = False, diff_mode: bool = False,
                  on_fail: Optional[Callable[[dict], Tuple[Optional[dict], Sequence[str]]]] = None, now: Callable[[], datetime.datetime] = utc_now,
                  force: bool = False, settings: Settings = Settings()) -> dict:
    """retry, rollback or fail a FAILED_TEMP op occ, on any VIM: what vnf_lcm_op_occ does.

    ``plan(failed, found)`` gives the Operation that retries or rolls back ``failed``; ``on_fail(failed)``
    tidies up what the VIM keeps for a rollback that will now never come, and returns ``(instance, notes)``: the
    instance to record with the FAILED op occ (None: the record stays as it is) and what it found changed. A running
    op occ whose runner is gone is taken over first (recorded FAILED_TEMP); one whose lease is live only with ``force``.
    """
    def act_now():
        return _act_on_op_occ(store, found, op_occ_id, event, plan, check_mode, diff_mode, on_fail, now, force, settings)

    return linked_results(store, act_now)


def _act_on_op_occ(store: RecordStore, found: Found, op_occ_id: Optional[str], event: str, plan: Callable[[dict, Found], Operation],
                   check_mode: bool, diff_mode: bool, on_fail: Optional[Callable[[dict], Tuple[Optional[dict], Sequence[str]]]],
                   now: Callable[[], datetime.datetime], force: bool, settings: Settings) -> dict:
    instance = found[0]
    failed = find_op_occ(found[1], op_occ_id)
    if failed["operationState"] in lease.RUNNING:
        failed, found = take_over(store, found, failed, event, now, force, check_mode)
    if failed["operationState"] != occ.FAILED_TEMP:
        return already_ended(instance, failed, event)
    if event != "fail":
        occ.require_resumable(failed, event)
        return _run(plan(failed, found), check_mode, diff_mode, now, (event, failed), settings)
    if check_mode:
        return {"changed": True, "vnf_instance": instance, "vnf_lcm_op_occ": failed}
    recorded, notes = on_fail(failed) if on_fail is not None else (None, ())
    return fail(store, found, failed, now, recorded, notes)


def take_over(store: RecordStore, found: Found, running: dict, event: str, now: Callable[[], datetime.datetime], force: bool,
              check_mode: bool) -> Tuple[dict, Tuple[dict, List[dict], Any]]:
    """``(op occ, found)`` with the running op occ recorded FAILED_TEMP, when its runner is gone or ``force`` says so."""
    instance, op_occs, version = found
    status, reason = lease.lease_status(running, now())
    if status == lease.LIVE and not force:
        raise ConflictError(event, "operation occurrence {0}".format(running["id"]),
                            "it is {0}: {1}; wait for it to end, or set force: true to take it over (only when that run is gone: "
                            "two runs must not act on one VNF)".format(running["operationState"], reason))
    if status == lease.LIVE:
        reason = "taken over (force) from a live lease: {0}".format(reason)
    failed = lease.abandoned(running, now(), reason)
    history = [failed if item["id"] == running["id"] else item for item in op_occs]
    if not check_mode:
        version = store.save(instance, history, version)
    return failed, (instance, history, version)


def already_ended(instance: dict, op_occ: dict, event: str) -> Optional[dict]:
    """An op occ that is no longer FAILED_TEMP: the action already happened (a re-run), or cannot."""
    done = {"retry": occ.COMPLETED, "rollback": occ.ROLLED_BACK, "fail": occ.FAILED}[event]
    if op_occ["operationState"] != done:
        raise ConflictError(event, "operation occurrence {0}".format(op_occ["id"]),
                            "it is {0}; only a FAILED_TEMP operation can be retried, rolled back or failed".format(op_occ["operationState"]))
    return {"changed": False, "vnf_instance": instance, "vnf_lcm_op_occ": op_occ}


def fail(store: RecordStore, found: Found, failed: dict, now: Callable[[], datetime.datetime] = utc_now, instance: Optional[dict] = None,
         notes: Sequence[str] = ()) -> dict:
    """FAILED_TEMP -> FAILED: the op occ ends as it is; nothing on the VIM changes. ``instance``: the record to keep
    with it, when the VIM's driver says what the failed operation leaves (else the record stays as it is); ``notes``:
    what the driver found different from the record, said in the op occ's error."""
    recorded, op_occs, version = found
    instance = recorded if instance is None else instance
    error = None
    if notes:
        error = dict(failed["error"], detail="{0} Failed; the record was read again from the VIM: {1}.".format(
            failed["error"].get("detail", ""), "; ".join(notes)).strip())
    done = occ.transition(failed, "fail", now(), error=error)
    store.save(instance, [done] + [item for item in op_occs if item["id"] != failed["id"]], version)
    return {"changed": True, "vnf_instance": instance, "vnf_lcm_op_occ": done}


def find_op_occ(op_occs: Sequence[dict], op_occ_id: Optional[str] = None) -> dict:
    """The op occ with ``op_occ_id``, else the newest one; NotFoundError when there is none."""
    for item in op_occs:
        if op_occ_id in (None, item["id"]):
            return item
    raise NotFoundError("operation occurrence {0}".format(op_occ_id) if op_occ_id else "operation occurrence of this VNF instance")
