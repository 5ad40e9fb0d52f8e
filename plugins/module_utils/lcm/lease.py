# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Who runs an operation occurrence, and until when.

There is no long-lived conductor: one module process runs one operation and may die at any point
(a cancelled AWX job, a lost execution node, an OOM kill). So a PROCESSING or ROLLING_BACK op occ
carries a ``lease`` (an attribute of this collection, not of SOL003): the runner's identity (host,
pid, a unique run id, when it started) and ``expiresAt``, which the running module pushes forward
while it works. A later run that finds the lease expired, or the runner's process gone from this
machine, knows that nobody will finish the op occ: it records it FAILED_TEMP, and retry, rollback
and fail work from there. Clocks of the machines that run operations on one VNF are assumed to be
synchronised (NTP), as Kubernetes' own leases assume.
"""

from __future__ import annotations

import datetime
import threading

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.deadline import retry_budget
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError
# The lease's runner is this process (common/runner.py: the name claims record it too).
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.runner import runner_is_gone, this_runner
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ

LEASE = "lease"
DEFAULT_SECONDS = 120
MIN_SECONDS = 3
# Running states: the ones that hold a lease.
RUNNING = frozenset((occ.PROCESSING, occ.ROLLING_BACK))
LIVE, EXPIRED, GONE = "live", "expired", "runner gone"


# ---------------------------------------------------------------------------------------------
# Pure: the lease document

def parse_timestamp(text):
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)


def _aware(now):
    return now if now.tzinfo else now.replace(tzinfo=datetime.timezone.utc)


def new_lease(runner, now, seconds):
    stamp = occ.format_timestamp(now)
    return dict(runner, seconds=seconds, startedAt=stamp, renewedAt=stamp,
                expiresAt=occ.format_timestamp(_aware(now) + datetime.timedelta(seconds=seconds)))


def renewed(lease, now):
    return dict(lease, renewedAt=occ.format_timestamp(now),
                expiresAt=occ.format_timestamp(_aware(now) + datetime.timedelta(seconds=lease["seconds"])))


def lease_status(op_occ, now, gone=runner_is_gone):
    """``(status, reason)`` of a running op occ's lease: LIVE, EXPIRED or GONE (None for an op occ that is not running).

    An op occ that runs without a lease (written by an older version of the collection) counts as expired.
    """
    if op_occ.get("operationState") not in RUNNING:
        return None, None
    lease = op_occ.get(LEASE)
    if not lease:
        return EXPIRED, "it has no lease (no run can be finishing it)"
    runner = "run {0} (process {1} on {2}, started {3})".format(lease.get("runId"), lease.get("pid"), lease.get("host"), lease.get("startedAt"))
    if gone(lease):
        return GONE, "{0} has exited".format(runner)
    if _aware(now) >= parse_timestamp(lease["expiresAt"]):
        return EXPIRED, "the lease of {0} expired at {1} (last renewed {2})".format(runner, lease["expiresAt"], lease.get("renewedAt"))
    return LIVE, "{0} holds its lease until {1}".format(runner, lease["expiresAt"])


def with_status(op_occ, now, gone=runner_is_gone):
    """The op occ as vnf_info shows it: a running one's lease says whether it is live."""
    status, reason = lease_status(op_occ, now, gone)
    if status is None or not op_occ.get(LEASE):
        return op_occ
    return dict(op_occ, lease=dict(op_occ[LEASE], status=status, statusReason=reason))


def abandoned(op_occ, now, reason):
    """A running op occ whose runner is gone (or that an operator takes over), recorded FAILED_TEMP with why."""
    failed = occ.transition(op_occ, "fail_temp", now, error=occ.problem_details(
        500, "{0} did not end: {1}; retry, roll back or fail it (nfv.vnflcm.vnf_lcm_op_occ)".format(op_occ.get("operation"), reason)))
    failed.pop(LEASE, None)
    return failed


# ---------------------------------------------------------------------------------------------
# The running side: keep the lease while the operation works

class LeaseLost(ConflictError):
    """This run's op occ was taken over, or its lease could not be renewed in time: it must stop writing."""


class LeaseKeeper:
    """Writes the record of a running op occ, and renews the op occ's lease from a background thread.

    Every record write of the operation goes through :meth:`save`, so the record's version stays one
    sequence whatever thread writes. When a renewal finds that another run wrote the record (a
    takeover), or cannot renew before the lease expires, ``lost`` says why and ``interrupt`` is called
    to stop the operation in the main thread: two runs must never act on one VNF at once.
    """

    def __init__(self, store, version, seconds=DEFAULT_SECONDS, now=None, interrupt=None, runner=None):
        self.store = store
        self.version = version
        self.seconds = max(MIN_SECONDS, int(seconds or DEFAULT_SECONDS))
        self.now = now
        self.interrupt = interrupt
        self.runner = runner or this_runner()
        self.lost = None
        self.renewals = 0
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread = None
        self._instance = None
        self._history = None
        # Writes that failed without a verdict (the connection dropped after retries): each may have gone through.
        self._unsure = []

    def start(self, instance, history):
        """Record ``history[0]`` (the op occ starting to run) with a new lease; then keep it renewed."""
        lease = new_lease(self.runner, self.now(), self.seconds)
        self.save(instance, [dict(history[0], lease=lease)] + list(history[1:]))
        if self.interrupt is not None:
            self._thread = threading.Thread(target=self._renew_loop, name="vnflcm-lease", daemon=True)
            self._thread.start()
        return self.version

    @property
    def op_occ(self):
        return self._history[0] if self._history else None

    def save(self, instance, history):
        """Write the record; a running op occ keeps its lease."""
        with self._lock:
            if self.lost:
                raise LeaseLost("write", "the record of VNF instance {0}".format(instance.get("id")), "this run stopped: " + self.lost)
            current, head = self.op_occ, history[0]
            if head.get("operationState") not in RUNNING:
                head = {key: value for key, value in head.items() if key != LEASE}
            elif LEASE not in head and current is not None and LEASE in current:
                head = dict(head, lease=current[LEASE])
            history = [head] + list(history[1:])
            try:
                self.version = self._write(instance, history)
            except ConflictError as error:
                if self._history is None:
                    raise  # the first write: another operation started first
                # Another run wrote the record since this one did: it took the operation over.
                self.lost = "another run wrote the record meanwhile (it took the operation over): {0}".format(error.reason)
                raise LeaseLost("write", "the record of VNF instance {0}".format(instance.get("id")), "this run stopped: " + self.lost)
            self._instance, self._history = instance, history
            return self.version

    def _write(self, instance, history):
        """The store's save; a write that fails without a verdict (not a conflict) is kept as one that may have gone
        through."""
        try:
            version = self._save_explaining_conflicts(instance, history)
        except ConflictError:
            raise
        except Exception:
            self._unsure.append(history)
            raise
        self._unsure = []
        return version

    def _save_explaining_conflicts(self, instance, history):
        """A conflict that one of this run's unsure writes explains (it went through, only its answer was lost) is no
        takeover: the record's version is read from the store and the write made again."""
        try:
            return self.store.save(instance, history, self.version)
        except ConflictError:
            found = self.store.find(instance_id=instance.get("id")) if self._unsure else None
            if found is None or not any(written_by(found, unsure) for unsure in self._unsure):
                raise
        self.version = found.version
        return self.store.save(instance, history, self.version)

    def checkpoint(self, instance):
        """Record what the operation has done so far (``instance``), with the op occ as it is."""
        with self._lock:
            return self.save(instance, self._history)

    def delete(self, instance):
        with self._lock:
            self.store.delete(instance, self.version)

    def release(self):
        """Renew no more: the record goes with what the operation deletes next (a Heat stack), and writing it
        there would fail and stop a run that is doing just what it should. A run killed from here leaves a
        lease that expires, and the next call takes the op occ over."""
        self.stop()

    def stop(self):
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=30)

    def _renew_loop(self):
        while not self._stop.wait(renewal_interval(self.seconds)):
            with self._lock:
                if self._stop.is_set():
                    return
                if self._renew():
                    return

    def _renew(self):
        """One renewal; True when the lease is lost (the loop ends)."""
        now = self.now()
        lease = self.op_occ[LEASE]
        left = (parse_timestamp(lease["expiresAt"]) - _aware(now)).total_seconds()
        try:
            # A renewal that comes after the expiry is worth nothing: its VIM calls stop retrying before.
            with retry_budget(left - 1):
                self.save(self._instance, [dict(self.op_occ, lease=renewed(lease, now))] + self._history[1:])
            self.renewals += 1
            return False
        except LeaseLost:
            pass
        except Exception as error:  # noqa: B902 - a failed renewal is retried until the lease runs out
            # Worth another try only if the next one still comes before the lease runs out.
            if _aware(self.now()) + datetime.timedelta(seconds=renewal_interval(self.seconds)) < parse_timestamp(lease["expiresAt"]):
                return False
            self.lost = "its lease could not be renewed before it expired: {0}".format(error)
        self.interrupt(self.lost)
        return True


def written_by(found, history):
    """True when the record ``found`` is the write of ``history``: its op occ in the same state under the same lease
    (a lease names one run and changes at each renewal; a takeover writes its own, or none)."""
    head, mine = (found.op_occs or [{}])[0], history[0]
    return bool(mine.get(LEASE)) and all(head.get(key) == mine.get(key) for key in ("id", "operationState", LEASE))


def renewal_interval(seconds):
    """A third of the lease: two renewals can fail before it expires."""
    return max(1.0, seconds / 3.0)
