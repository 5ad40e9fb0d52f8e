# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Polling until objects are ready or gone, with one deadline for the whole wait."""

from __future__ import annotations

import time

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import OperationTimeout
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.readiness import is_ready, needs_wait


class Deadline:
    """A monotonic deadline shared by every wait of one operation."""

    def __init__(self, seconds, sleep=1.0, clock=time.monotonic, sleeper=time.sleep):
        self.seconds = seconds
        self.sleep = sleep
        self._clock = clock
        self._sleeper = sleeper
        self._end = clock() + seconds

    def poll(self, done, what, result=None):
        """Call ``done()`` until it is truthy; OperationTimeout (carrying ``result``) when time runs out."""
        while True:
            value = done()
            if value:
                return value
            if self._clock() >= self._end:
                raise OperationTimeout(what, self.seconds, result)
            self._sleeper(min(self.sleep, max(0.0, self._end - self._clock())))


def wait_ready(api, objects, deadline, result=None):
    """Wait until every object whose kind has a readiness rule is ready; returns the live objects."""
    live = []
    for obj in objects:
        meta = obj["metadata"]
        if not needs_wait(obj["kind"]):
            live.append(obj)
            continue

        def current(obj=obj, meta=meta):
            found = api.get(obj["apiVersion"], obj["kind"], meta["name"], meta.get("namespace"))
            return found if found is not None and is_ready(found) else None

        live.append(deadline.poll(current, "{0} {1} to be ready".format(obj["kind"], meta["name"]), result))
    return live


def wait_gone(api, objects, deadline, result=None):
    """Wait until none of the objects exists any more."""
    for obj in objects:
        meta = obj["metadata"]
        deadline.poll(lambda obj=obj, meta=meta: api.get(obj["apiVersion"], obj["kind"], meta["name"], meta.get("namespace")) is None,
                      "{0} {1} to be deleted".format(obj["kind"], meta["name"]), result)
