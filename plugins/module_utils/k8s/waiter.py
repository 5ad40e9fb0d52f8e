# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Polling until objects are ready or gone, with one deadline for the whole wait."""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.readiness import is_ready, needs_wait


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
