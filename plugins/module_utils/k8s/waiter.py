# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Waiting until objects are ready or gone, with one deadline for the whole wait.

Each wait reads the object once (a GET), then follows a watch from the resourceVersion read, so it ends as soon as
the change it waits for happens rather than at the next poll. A watch that breaks never fails the wait: the object is
read again and watched from there, after a pause of ``wait_sleep`` unless only the resourceVersion had expired (410),
so where watches keep failing (refused, cut again and again) the object is polled as before.
"""

from __future__ import annotations

import contextlib
import time

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import OperationTimeout, VimError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.api import WatchBroken
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.readiness import is_ready, needs_wait
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.references import POD_SPEC_PATHS

# How long a deletion may show no progress at all (none of the objects waited for went or changed) before the objects
# still there are named as held, on top of the grace their pods may take to stop (pod_grace). Well under any sensible
# wait_timeout: a finalizer nobody removes would otherwise hold the operation until its timeout, saying nothing.
NO_PROGRESS_SECONDS = 30
# A pod's terminationGracePeriodSeconds when its spec does not say.
DEFAULT_POD_GRACE = 30
# Where each kind keeps its pods' spec: the workloads' (references.py), and a ReplicationController's, which a VNF may
# deploy though selective restart does not look into it.
_POD_SPEC_PATHS = dict(POD_SPEC_PATHS, ReplicationController=("spec", "template", "spec"))


class DeletionStalled(VimError):
    """Objects whose deletion made no progress for the no-progress window; ``left``: each with its finalizers."""

    def __init__(self, left, seconds):
        self.left = left
        held = [item for item in left if item["finalizers"]]
        super().__init__("delete", ", ".join(describe_left(item) for item in held),
                         "no progress for {0} s: {1}".format(seconds, "; ".join(state_of(item) for item in left)))


def wait_ready(api, objects, deadline, result=None):
    """Wait until every object whose kind has a readiness rule is ready; returns the live objects."""
    live = []
    for obj in objects:
        meta = obj["metadata"]
        if not needs_wait(obj["kind"]):
            live.append(obj)
            continue
        what = "{0} {1} to be ready".format(obj["kind"], meta["name"])
        live.append(follow(api, key_of(obj), deadline, _ready_or_none, what, result))
    return live


def wait_gone(api, objects, deadline, result=None):
    """Wait until none of the objects exists any more."""
    for obj in objects:
        follow(api, key_of(obj), deadline, _is_none, "{0} {1} to be deleted".format(obj["kind"], obj["metadata"]["name"]), result)


def follow(api, key, deadline, done, what, result=None):
    """``done(live)`` on the object (None while it does not exist) now and after each change, until it is truthy (its
    value is returned); OperationTimeout (carrying ``result``) when the deadline passes first."""
    for live in states(api, key, deadline):
        value = done(live)
        if value:
            return value
    raise OperationTimeout(what, deadline.seconds, result)


def states(api, key, deadline):
    """The object ``key`` (apiVersion, kind, name, namespace) as a GET finds it, then as it is after each change a
    watch tells (None once deleted), until the deadline; a watch that breaks or ends is followed by a GET."""
    live = api.get(*key)
    yield live
    while deadline.remaining() > 0:
        with contextlib.closing(changes(api, key, version_of(live), deadline.remaining(), deadline)) as following:
            yield from following
        live = api.get(*key)
        yield live


def changes(api, key, version, seconds, deadline):
    """The object after each change from ``version`` (None once deleted), for ``seconds`` at most; a watch that breaks
    ends them, after a pause of one poll interval unless only its resourceVersion had expired."""
    api_version, kind, name, namespace = key
    events = api.watch(api_version, kind, namespace, name=name, resource_version=version, timeout_seconds=seconds)
    try:
        with contextlib.closing(events):
            for event, obj in events:
                yield None if event == "DELETED" else obj
    except WatchBroken as broken:
        if not broken.expired:
            deadline.pause()


def key_of(obj):
    meta = obj["metadata"]
    return obj["apiVersion"], obj["kind"], meta["name"], meta.get("namespace")


def version_of(live):
    return (live or {}).get("metadata", {}).get("resourceVersion")


def _ready_or_none(live):
    return live if live is not None and is_ready(live) else None


def _is_none(live):
    return live is None


def wait_deleted(api, objects, deadline, no_progress_seconds=NO_PROGRESS_SECONDS, clock=time.monotonic):
    """Wait until none of the objects (deleted already) exists any more.

    One read and one watch per kind, whatever the number of its objects: the kind's objects in their namespace are
    listed (a GET of the object when it is the kind's only one), then the kind is watched from there until they are
    gone; a kind is read again only when its watch ends first. The kinds without finalizers go first.

    Progress is an object gone or changed (its resourceVersion). When there has been none for ``no_progress_seconds``
    (every kind read again to be sure) and an object still there is held by finalizers, DeletionStalled names every
    object still there, with its finalizers; at the deadline, OperationTimeout names them too.
    """
    kinds = _KindsLeft(api, objects, clock)
    if not kinds.present:
        return
    what = "the deletion of {0}".format(", ".join("{0} {1}".format(key[1], name) for key, names in kinds.names.items() for name in sorted(names)))
    try:
        for key in list(kinds.names):
            kinds.read(key)
        while kinds.present:
            if deadline.remaining() <= 0:
                raise OperationTimeout(what, deadline.seconds)
            if kinds.quiet_for() >= no_progress_seconds and kinds.held():
                # Read every kind once more: one watched alone says nothing of the others.
                for key in list(kinds.names):
                    kinds.read(key)
                if kinds.quiet_for() >= no_progress_seconds and kinds.held():
                    raise DeletionStalled(kinds.left(), no_progress_seconds)
                continue
            window_left = no_progress_seconds - kinds.quiet_for()
            kinds.follow(kinds.next_kind(), min(deadline.remaining(), window_left if window_left > 0 else no_progress_seconds), deadline)
    except OperationTimeout as error:
        error.add_reason("still there: " + "; ".join(state_of(item) for item in kinds.left()))
        raise


class _KindsLeft:
    """The objects a deletion waits for, by kind (apiVersion, kind, namespace): which are still there, as last seen, and
    when the last progress was."""

    def __init__(self, api, objects, clock):
        self.api, self.clock = api, clock
        self.names = {}
        for obj in objects:
            meta = obj["metadata"]
            self.names.setdefault((obj["apiVersion"], obj["kind"], meta.get("namespace")), set()).add(meta["name"])
        self.live = {key: None for key in self.names}
        self.versions = {}
        self.since = clock()

    @property
    def present(self):
        return any(self.names.values())

    def quiet_for(self):
        return self.clock() - self.since

    def read(self, key):
        """Read the kind's objects still waited for: a LIST of the kind (a GET when it has one object left, or when this
        user may not list it). Sets where its next watch starts."""
        api_version, kind, namespace = key
        names = self.names[key]
        version = None
        listed = None
        if len(names) > 1:
            try:
                listed, version = self.api.listing(api_version, kind, namespace)
            except VimError as error:
                if getattr(error, "status", None) != 403:
                    raise
        if listed is None:
            listed = [dict(live, apiVersion=api_version, kind=kind)
                      for live in (self.api.get(api_version, kind, name, namespace) for name in sorted(names)) if live is not None]
            version = version_of(listed[0]) if len(names) == 1 and listed else None
        self._seen(key, {item["metadata"]["name"]: item for item in listed if item["metadata"]["name"] in names})
        self.versions[key] = version

    def _seen(self, key, present):
        before = self.live[key]
        if before is not None and {name: version_of(item) for name, item in before.items()} != {name: version_of(item) for name, item in present.items()}:
            self.since = self.clock()
        self.live[key] = present
        self.names[key] = set(present)
        if not present:
            del self.names[key]

    def held(self):
        return any(item["finalizers"] for item in self.left())

    def left(self):
        return [left_of(live) for key in self.names for _name, live in sorted((self.live[key] or {}).items())]

    def next_kind(self):
        """The kind to watch: one without finalizers first (the likeliest to go), else the first left."""
        return min(self.names, key=lambda key: any(left_of(live)["finalizers"] for live in (self.live[key] or {}).values()))

    def follow(self, key, seconds, deadline):
        """Watch the kind from where it was read, for ``seconds`` at most, until its objects are gone; read it again
        when the watch ends first (at its timeout, or broken: after a pause of one poll interval unless only its
        resourceVersion had expired)."""
        api_version, kind, namespace = key
        names = self.names[key]
        single = next(iter(names)) if len(names) == 1 else None
        events = self.api.watch(api_version, kind, namespace, name=single, resource_version=self.versions.get(key), timeout_seconds=seconds)
        try:
            with contextlib.closing(events):
                for event, obj in events:
                    name = obj["metadata"]["name"]
                    if name not in self.names.get(key, ()):
                        continue
                    present = dict(self.live[key])
                    if event == "DELETED":
                        present.pop(name, None)
                    else:
                        present[name] = obj
                    if event == "DELETED" or version_of(obj) != version_of(self.live[key].get(name)):
                        self.since = self.clock()
                    self.live[key] = present
                    self.names[key] = set(present)
                    if not present:
                        del self.names[key]
                        return
        except WatchBroken as broken:
            if not broken.expired:
                deadline.pause()
        self.read(key)


def left_of(live):
    """``{apiVersion, kind, name, namespace, deleting, finalizers}`` of a live object. A Namespace's own ``kubernetes``
    finalizer is its controller's work in progress, not a hold; what holds it is content with finalizers, which its
    NamespaceFinalizersRemaining condition says (kept as a finalizer named by that message)."""
    meta = live["metadata"]
    finalizers = list(meta.get("finalizers") or [])
    if live["kind"] == "Namespace" and meta.get("deletionTimestamp"):
        finalizers += ["content: " + (condition.get("message") or condition.get("reason") or "finalizers remain")
                       for condition in (live.get("status") or {}).get("conditions") or []
                       if condition.get("type") == "NamespaceFinalizersRemaining" and condition.get("status") == "True"]
    return {"apiVersion": live["apiVersion"], "kind": live["kind"], "name": meta["name"], "namespace": meta.get("namespace"),
            "deleting": bool(meta.get("deletionTimestamp")), "finalizers": finalizers}


def describe_left(item):
    return "{0} {1}".format(item["kind"], item["name"])


def state_of(item):
    """``Kind name: held by finalizers a, b`` (or being deleted, or not being deleted)."""
    if item["deleting"] and item["finalizers"]:
        return "{0} is being deleted, held by finalizers {1}".format(describe_left(item), ", ".join(item["finalizers"]))
    return "{0} is {1}".format(describe_left(item), "being deleted" if item["deleting"] else "not being deleted")


def pod_grace(live, grace_seconds=None):
    """Seconds the pods of a deleted object (a Pod, or a workload's pods) may rightly take to stop: the delete's grace
    for a Pod when it gave one, else the pod spec's terminationGracePeriodSeconds (DEFAULT_POD_GRACE unless set); 0 for
    an object without pods."""
    path = _POD_SPEC_PATHS.get(live.get("kind"))
    if path is None:
        return 0
    if live["kind"] == "Pod" and grace_seconds is not None:
        return grace_seconds
    spec = live
    for key in path:
        spec = spec.get(key) if isinstance(spec, dict) else None
    grace = spec.get("terminationGracePeriodSeconds") if isinstance(spec, dict) else None
    return DEFAULT_POD_GRACE if grace is None else grace
