# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Callback of the tests' ``ansible_task`` runs: the result of the task named ``task under test``, as ``register`` keeps it
(internal keys and ``invocation`` left out, ``failed`` set), written as JSON to $NFV_TASK_RESULT. A callback instead of a second task (``copy`` of the
registered result) halves the cost of each run: that copy ran two more modules per task."""

from __future__ import annotations

import json
import os

from ansible.plugins.callback import CallbackBase
from ansible.vars.clean import strip_internal_keys

DOCUMENTATION = """
name: task_result
type: aggregate
short_description: write the result of the task under test to a file (tests only)
description:
  - The result of the task named C(task under test), written as JSON to the file $NFV_TASK_RESULT.
"""

TASK_NAME = "task under test"


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "aggregate"
    CALLBACK_NAME = "task_result"
    CALLBACK_NEEDS_ENABLED = True

    def _save(self, result, failed):
        path = os.environ.get("NFV_TASK_RESULT")
        if not path or result.task.get_name() != TASK_NAME:
            return
        registered = strip_internal_keys(json.loads(json.dumps(result.result, default=str)))
        registered.pop("invocation", None)
        registered["failed"] = failed
        with open(path + ".part", "w", encoding="utf-8") as handle:
            json.dump(registered, handle)
        os.replace(path + ".part", path)

    def v2_runner_on_ok(self, result):
        self._save(result, False)

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._save(result, True)

    def v2_runner_on_unreachable(self, result):
        self._save(result, True)
