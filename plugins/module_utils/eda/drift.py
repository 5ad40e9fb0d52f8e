# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The watcher's drift events (nfv.vnflcm.vnfc_watcher with ``drift_interval``): one per VNF whose drift is new or
changed since it was last reported, all of its drifted objects in it.

Which instances are read: INSTANTIATED ones of def files (their record keeps the deployed manifests) that no operation
is working on (a scale or a change of package changes objects itself). How drift is read is vnf_info's
(lcm/cnf/drift.py): ``read(instance)`` here, so that this stays pure.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.eda.alerts import format_time
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import private_state
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED

DRIFT = "drift"


class DriftTracker:
    """What was reported per instance, so that the same drift is reported once, and again when it changes."""

    def __init__(self):
        self.reported = {}

    def events(self, records, busy, read, wall_now, source):
        """The drift events of ``records`` (``[(instance, op_occs)]``); ``busy(op_occs)``: an operation is running;
        ``read(instance)``: its drift report (vnf_info's). An instance whose drift cannot be read is left for the next
        time (``errors``: ``[(instance id, error)]``)."""
        events, errors, looked = [], [], set()
        for instance, op_occs in records:
            if instance.get("instantiationState") != INSTANTIATED or busy(op_occs) or not private_state(instance).get("deployed"):
                continue
            looked.add(instance["id"])
            try:
                report = read(instance)
            except Exception as error:  # an instance the watcher may not read, an API server gone: never the loop's end
                errors.append((instance["id"], error))
                continue
            if not report["drifted"]:
                self.reported.pop(instance["id"], None)
                continue
            # The values too (kept here only, never in an event): a field that drifts further is new drift.
            fingerprint = sorted((item["kind"], item["name"], item["status"], repr(item.get("fields"))) for item in report["objects"])
            if self.reported.get(instance["id"]) == fingerprint:
                continue
            self.reported[instance["id"]] = fingerprint
            events.append(drift_event(instance, report, wall_now, source))
        for gone in set(self.reported) - looked:
            del self.reported[gone]
        return events, errors


def drift_event(instance, report, wall_now, source):
    """The event: ``{"nfv_vnflcm": {function_type: drift, vnf_instance_id, vnf_instance_name, namespace, drifted,
    objects, first_alert_at, source}}``; each object its kind, name, status and the paths of its changed fields (never
    their values: a Secret's stay out of events)."""
    objects = [dict({key: item[key] for key in ("kind", "name", "status") if key in item},
                    paths=[field["path"] for field in item.get("fields") or ()]) for item in report["objects"]]
    namespace = (instance.get("metadata") or {}).get("namespace") or ((instance.get("instantiatedVnfInfo") or {}).get("metadata") or {}).get("namespace")
    return {"nfv_vnflcm": {"function_type": DRIFT, "vnf_instance_id": instance["id"], "vnf_instance_name": instance.get("vnfInstanceName"),
                           "namespace": namespace, "drifted": report["drifted"], "objects": objects, "first_alert_at": format_time(wall_now),
                           "source": source}}
