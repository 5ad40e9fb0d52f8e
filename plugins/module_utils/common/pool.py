# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Independent VIM calls made a few at a time, with the outcome a loop making them one by one would have.

Results come back in input order; the failure raised is the first in input order, as it was raised in its
worker thread; each worker thread runs under the caller's retry budget (common/deadline.py), and the
caller's activity note names the call that failed (common/activity.py).
Once a call's failure is recorded, no call that has not started yet is made (a loop would have stopped there too);
a call another worker takes in the instant between that call raising and its failure being recorded still runs.
"""

from __future__ import annotations

import threading

from ansible_collections.nfv.vnflcm.plugins.module_utils.common import activity
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.deadline import carry_budget

# Calls in flight at once. Waiting for answers is what they hide: with a few ms of network between module and API
# server, 200 dry runs take about a sixth of the time one by one take. More would take a larger share of the API
# server's in-flight requests (--max-mutating-requests-inflight, 200 by default, for all its clients) and of the
# connections the module opens, for little more gain.
WORKERS = 8


class Outcome:
    """What one call gave: its ``result``, or the ``error`` it raised and the ``step`` (activity note) it failed in."""

    __slots__ = ("result", "error", "step")

    def __init__(self, result=None, error=None, step=None):
        self.result, self.error, self.step = result, error, step


def settle(call, items, workers=WORKERS):
    """``call(item)`` for every item, at most ``workers`` at a time: an :class:`Outcome` per item in input order,
    None for an item not started because a call had failed."""
    items = list(items)
    outcomes = [None] * len(items)
    pending = iter(range(len(items)))
    lock = threading.Lock()
    stop = threading.Event()
    call = carry_budget(call)

    def work():
        while True:
            with lock:
                index = None if stop.is_set() else next(pending, None)
            if index is None:
                return
            try:
                outcomes[index] = Outcome(result=call(items[index]))
            except BaseException as error:  # noqa: B902 - handed to the caller's thread, which raises it as it is
                outcomes[index] = Outcome(error=error, step=activity.last_step())
                stop.set()

    if workers <= 1 or len(items) <= 1:
        work()
        return outcomes
    threads = []
    while len(threads) < min(workers, len(items)):
        thread = threading.Thread(target=work, name="vim-call", daemon=True)
        try:
            thread.start()
        except RuntimeError:  # no thread to be had: the ones started, or this one, do the work
            break
        threads.append(thread)
    try:
        if not threads:
            work()
        for thread in threads:
            thread.join()
    except BaseException:  # noqa: B902 - a stop signal (common/signals.py): no new call, and none left behind running
        stop.set()
        for thread in threads:
            thread.join()
        raise
    return outcomes


def first_error(outcomes):
    """Raise the first failure of ``outcomes`` (in input order), its step noted as this thread's activity."""
    for outcome in outcomes:
        if outcome is not None and outcome.error is not None:
            activity.restore(outcome.step)
            raise outcome.error


def run_all(call, items, workers=WORKERS):
    """``[call(item) for item in items]`` made at most ``workers`` at a time; the first failure in input order is raised."""
    outcomes = settle(call, items, workers)
    first_error(outcomes)
    return [outcome.result for outcome in outcomes]


def call_each(calls, workers=WORKERS):
    """Each of ``calls`` (callables of no argument, e.g. functools.partial) made as :func:`run_all` makes them."""
    return run_all(_made, calls, workers)


def _made(call):
    return call()
