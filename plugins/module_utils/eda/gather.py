# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""From heal and scale requests (alerts, or faults a watcher saw) to closed-loop events, as Tacker's timer does.

Heal requests for one VNF are gathered for ``heal_window`` seconds from the first one, then leave as one event
naming every VNFC asked for, so that one HEAL replaces them all. A scale request leaves at once, one event each.
A request seen before (same identity - the label set, as Alertmanager defines an alert - and startsAt: Alertmanager
sends a firing alert again with each group notification) joins nothing and leaves nothing; it is remembered for ``dedup_window`` seconds (never less than the
heal window). What the rulebook's playbook decides from the instance's record is not decided here.
"""

from __future__ import annotations

import asyncio
import collections
import time

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.listing import listed
from ansible_collections.nfv.vnflcm.plugins.module_utils.eda.alerts import AUTO_HEAL, format_time

EVENT_KEY = "nfv_vnflcm"
DEFAULT_HEAL_WINDOW = 30
DEFAULT_DEDUP_WINDOW = 3600
# What an event keeps of the alerts it came from, and how many alert keys are remembered at most.
MAX_KEPT_ALERTS = 100
MAX_REMEMBERED = 100000


class Gatherer:
    """Pure: requests in (:meth:`add`), events out (:meth:`add` for scale, :meth:`due` for heal); ``clock`` in seconds."""

    def __init__(self, source, heal_window=DEFAULT_HEAL_WINDOW, dedup_window=DEFAULT_DEDUP_WINDOW, clock=time.monotonic):
        self.source = source
        self.heal_window = heal_window
        self.dedup_window = max(dedup_window, heal_window)
        self.clock = clock
        self.pending = {}  # vnf_instance_id -> batch
        self.seen = collections.OrderedDict()  # (identity, startsAt) -> when it is forgotten
        self.duplicates = 0

    def add(self, request):
        """Take one request (alerts.read_alert's dict); returns the events to emit now (scale), usually none."""
        now = self.clock()
        self._forget(now)
        # An alert's identity (its label set's fingerprint, alerts.read_alert); a watcher's fault names its own.
        key = (request.get("identity") or request["fingerprint"], request["startsAt"])
        if key in self.seen:
            self.duplicates += 1
            return []
        self.seen[key] = now + self.dedup_window
        if request["function_type"] != AUTO_HEAL:
            return [self._event(request, [request], extra={"auto_scale_type": request["auto_scale_type"], "aspect_id": request["aspect_id"]})]
        batch = self.pending.get(request["vnf_instance_id"])
        if batch is None:
            batch = self.pending[request["vnf_instance_id"]] = {"due": now + self.heal_window, "vnfc_info_ids": set(), "requests": []}
        batch["vnfc_info_ids"].add(request["vnfc_info_id"])
        batch["requests"].append(request)
        # The earliest alert decides first_alert_at: keep it, and at most MAX_KEPT_ALERTS in all.
        if len(batch["requests"]) > MAX_KEPT_ALERTS:
            batch["requests"].sort(key=lambda item: item["started"])
            del batch["requests"][MAX_KEPT_ALERTS:]
        return []

    def due(self):
        """The heal events whose window has ended, oldest batch first."""
        now = self.clock()
        ready = sorted((batch["due"], vnf_id) for vnf_id, batch in self.pending.items() if batch["due"] <= now)
        events = []
        for _due, vnf_id in ready:
            batch = self.pending.pop(vnf_id)
            events.append(self._event(batch["requests"][0], batch["requests"], extra={"vnfc_info_ids": sorted(batch["vnfc_info_ids"])}))
        return events

    def seconds_to_next(self):
        """How long until :meth:`due` has something (None: nothing pending)."""
        if not self.pending:
            return None
        return max(0.0, min(batch["due"] for batch in self.pending.values()) - self.clock())

    def _forget(self, now):
        while self.seen and (len(self.seen) > MAX_REMEMBERED or next(iter(self.seen.values())) <= now):
            self.seen.popitem(last=False)

    def _event(self, first, requests, extra):
        ordered = sorted(requests, key=lambda item: item["started"])
        event = {"function_type": first["function_type"], "vnf_instance_id": first["vnf_instance_id"]}
        event.update(extra)
        event["first_alert_at"] = format_time(ordered[0]["started"])
        event["source"] = self.source
        event["alerts"] = [{"fingerprint": item["fingerprint"], "startsAt": item["startsAt"], "labels": item["labels"]}
                           for item in ordered[:MAX_KEPT_ALERTS]]
        return {EVENT_KEY: event}


class Pump:
    """Moves a Gatherer's events onto the rulebook's queue: at once for scale, when a window ends for heal."""

    def __init__(self, gatherer, queue, log=None):
        self.gatherer = gatherer
        self.queue = queue
        self.log = log
        self._wake = asyncio.Event()

    async def add(self, requests):
        """Hand ``requests`` to the gatherer, emitting what leaves at once; returns how many were seen before."""
        duplicates = 0
        for request in requests:
            before = self.gatherer.duplicates
            events = self.gatherer.add(request)
            duplicates += self.gatherer.duplicates - before
            for event in events:
                await self._put(event)
        self._wake.set()
        return duplicates

    async def run(self):
        """Forever (until cancelled): emit each heal batch when its window ends."""
        while True:
            for event in self.gatherer.due():
                await self._put(event)
            wait = self.gatherer.seconds_to_next()
            self._wake.clear()
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=wait)
            except asyncio.TimeoutError:
                pass

    async def _put(self, event):
        if self.log:
            body = event[EVENT_KEY]
            self.log.info("emit %s for VNF %s (%s)", body["function_type"], body["vnf_instance_id"],
                          listed(body.get("vnfc_info_ids") or [body.get("auto_scale_type", ""), body.get("aspect_id", "")]))
        await self.queue.put(event)
