# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One deadline for all the waits of an operation, on any VIM."""

from __future__ import annotations

import contextlib
import threading
import time

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import OperationTimeout


class Deadline:
    """A monotonic deadline shared by every wait of one operation.

    ``first_sleep``: a poll's first interval, doubled after each poll up to ``sleep`` (a change that comes soon is seen
    soon, a long wait costs no more requests than polling at ``sleep``); ``sleep`` from the first poll when not given.
    """

    def __init__(self, seconds, sleep=1.0, clock=time.monotonic, sleeper=time.sleep, first_sleep=None):
        self.seconds = seconds
        self.sleep = sleep
        self.first_sleep = sleep if first_sleep is None else min(first_sleep, sleep)
        self._clock = clock
        self._sleeper = sleeper
        self._end = clock() + seconds

    def poll(self, done, what, result=None):
        """Call ``done()`` until it is truthy; OperationTimeout (carrying ``result``) when time runs out."""
        interval = self.first_sleep
        while True:
            value = done()
            if value:
                return value
            if self.remaining() <= 0:
                raise OperationTimeout(what, self.seconds, result)
            self._sleeper(min(interval, self.remaining()))
            interval = min(interval * 2, self.sleep)

    def remaining(self):
        """Seconds left (0 once the deadline has passed)."""
        return max(0.0, self._end - self._clock())

    def pause(self):
        """Sleep one poll interval (``sleep``), or what is left of the deadline when that is less."""
        self._sleeper(min(self.sleep, self.remaining()))


# How long a VIM call made by this thread may keep retrying transient failures. A call made for the
# lease must end before the lease does, whatever the clients' own retry budget.
_budget = threading.local()


def retry_budget(seconds, clock=time.monotonic):
    """Within the block, this thread's VIM calls retry transient failures for ``seconds`` at most."""
    return _budget_ending(clock() + max(0.0, seconds))


@contextlib.contextmanager
def _budget_ending(end):
    """Within the block, this thread's retry budget ends at ``end`` (None: no budget); then it is as before."""
    previous = getattr(_budget, "end", None)
    _budget.end = end
    try:
        yield
    finally:
        _budget.end = previous


def retry_seconds(default, clock=time.monotonic):
    """``default``, or less when a :func:`retry_budget` of this thread ends sooner."""
    end = getattr(_budget, "end", None)
    return default if end is None else max(0.0, min(default, end - clock()))


def carry_budget(call):
    """``call`` made, in whatever thread calls it, under this thread's :func:`retry_budget` (a worker thread's own is empty)."""
    end = getattr(_budget, "end", None)

    def under_caller_budget(*args, **kwargs):
        with _budget_ending(end):
            return call(*args, **kwargs)
    return under_caller_budget
