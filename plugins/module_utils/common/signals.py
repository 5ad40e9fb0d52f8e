# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Stopping a module process on a signal in a way the operation can record.

AWX cancels a job with SIGINT, then SIGTERM; a lost lease stops the run from its renewal thread. Each
becomes an :class:`Interrupted` raised in the main thread (also out of a blocking socket read), so the
engine records the op occ FAILED_TEMP before the process exits. Only the first signal interrupts: the
ones after it must not break the recording of the first.
"""

from __future__ import annotations

import contextlib
import signal
import threading

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import Interrupted

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
# What another thread sends the main thread to stop the operation (the ``interrupt`` interrupted_by_signals yields).
WAKE_SIGNAL = signal.SIGUSR1
# The interrupt of each interrupted_by_signals block this process is in (signal handlers are the process's).
_INTERRUPTS = []


def current_interrupt():
    """The ``interrupt(reason)`` of the innermost interrupted_by_signals block, None outside any."""
    return _INTERRUPTS[-1] if _INTERRUPTS else None


@contextlib.contextmanager
def interrupted_by_signals():
    """Within the block, a stop signal raises Interrupted in the main thread; yields the ``interrupt(reason)`` a thread may call."""
    if threading.current_thread() is not threading.main_thread():
        yield None
        return
    state = {"first": None, "reason": None}
    main = threading.main_thread().ident

    def handler(signum, _frame):
        if state["first"] is not None:
            return
        state["first"] = signum
        if signum == WAKE_SIGNAL:
            raise Interrupted(state["reason"] or "stopped by this run")
        raise Interrupted("received {0}".format(signal.Signals(signum).name))

    def interrupt(reason=None):
        state["reason"] = reason
        signal.pthread_kill(main, WAKE_SIGNAL)

    previous = {signum: signal.signal(signum, handler) for signum in STOP_SIGNALS + (WAKE_SIGNAL,)}
    _INTERRUPTS.append(interrupt)
    try:
        yield interrupt
    finally:
        _INTERRUPTS.remove(interrupt)
        for signum, old in previous.items():
            signal.signal(signum, old)
