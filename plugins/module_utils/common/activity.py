# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What this thread is doing on a VIM right now, so that any failure can name its step and object.

The VIM clients note each call (``note("create", "Deployment ns/vdu1")``); when something that is not
the collection's own error escapes an operation (a dropped connection deep inside a library, a signal,
MemoryError), the engine names the last call in its message.
"""

from __future__ import annotations

import threading

_current = threading.local()


def note(action, what):
    _current.step = "{0} {1}".format(action, what)


def last_step():
    """``"<action> <object>"`` of this thread's latest VIM call, or None."""
    return getattr(_current, "step", None)


def restore(step):
    """Make ``step`` (a :func:`last_step` of another thread) this thread's: a worker's failure, raised here, names its call."""
    _current.step = step


def forget():
    _current.step = None
