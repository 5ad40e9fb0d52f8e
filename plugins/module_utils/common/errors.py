# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The collection's error hierarchy.

Everything below module_utils raises one of these; a module's main() is the only place that
turns them into fail_json, so every failure reads "Failed to <action> <what>: <reason>".
"""

from __future__ import annotations


class VnfLcmError(Exception):
    """Base error: ``Failed to <action> <what>: <reason>``.

    ``result`` carries partial state (what was done before the failure) out to the user.
    """

    def __init__(self, action, what, reason, result=None):
        self.action = action
        self.what = what
        self.reason = reason
        self.result = result or {}
        super().__init__(format_failure(action, what, reason))

    @property
    def msg(self):
        return str(self)

    def add_reason(self, text):
        """Say more about the failure (what happened while handling it)."""
        self.reason = "{0}; {1}".format(self.reason, text)
        self.args = (format_failure(self.action, self.what, self.reason),)


class ValidationError(VnfLcmError):
    """A request or option is invalid; ``field`` names the offending field (dotted path)."""

    def __init__(self, what, field, reason, result=None):
        self.field = field
        where = "{0}: {1}".format(field, reason) if field else reason
        super().__init__("validate", what, where, result)


class PackageError(VnfLcmError):
    """A VNF package is unreadable or inconsistent; ``path`` names the file at fault."""

    def __init__(self, path, reason, action="read", what="VNF package"):
        self.path = path
        where = "{0}: {1}".format(path, reason) if path else reason
        super().__init__(action, what, where)


class NotFoundError(VnfLcmError):
    """A VNF instance, op occ or VIM object does not exist."""

    def __init__(self, what, reason="not found"):
        super().__init__("find", what, reason)


class ConflictError(VnfLcmError):
    """A concurrent writer won (resourceVersion / state-machine conflict)."""


class RecordUnwritable(VnfLcmError):
    """Where the record was to go cannot hold it: a new stack that Heat failed before it made the record's resource."""


class VimError(VnfLcmError):
    """The VIM (Kubernetes API, Heat, Nova, ...) refused or failed a call."""


class OperationTimeout(VnfLcmError):
    """A wait ran out of time; ``result`` holds what had been done."""

    def __init__(self, what, seconds, result=None):
        super().__init__("wait for", what, "timed out after {0}s".format(seconds), result)


class Interrupted(BaseException):
    """A signal asked this process to stop (AWX cancels a job with SIGINT, then SIGTERM).

    A BaseException, as KeyboardInterrupt: code that handles every Exception must not swallow it.
    """

    def __init__(self, reason):
        self.reason = reason
        super().__init__(reason)


def format_failure(action, what, reason):
    """The one message format every failure uses."""
    return "Failed to {0} {1}: {2}".format(action, what, reason)
