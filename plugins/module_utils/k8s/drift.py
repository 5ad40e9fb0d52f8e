# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Drift: what differs between a VNF instance's live objects and what they should be, field by field, written nowhere.

What an object should be is the API server's answer to a server-side apply of it in dry run (``expected``): the
defaults it adds and the fields other writers own that the manifest does not set stay as they are, so neither is
drift; a field the manifest sets that someone changed comes back in the answer with the manifest's value. An object
of the record that is gone is missing; an object that carries the instance's id label (``vnflcm.nfv/instance-id``),
that no controller owns and that the record does not name, is unexpected.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import VimError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ownership import INSTANCE_ID_LABEL, RECORD_LABEL, format_selector

CHANGED = "changed"
MISSING = "missing"
UNEXPECTED = "unexpected"
# What an object's own content is: every top-level field but these, and its labels and annotations.
NOT_CONTENT = ("apiVersion", "kind", "metadata", "status")
COMPARED_METADATA = ("labels", "annotations")
# The field manager of the dry-run applies (the apiserver records none of them) and of the repairs that make the live
# objects what those answered (lcm/cnf/reconcile.py plan_reconcile).
FIELD_MANAGER = "nfv.vnflcm-drift"
SECRET_MASK = "********"
SECRET_FIELDS = ("data", "stringData")


def content(obj):
    """``{top-level field: value}`` of what drift compares, ``metadata.labels`` and ``metadata.annotations`` included."""
    compared = {key: value for key, value in obj.items() if key not in NOT_CONTENT}
    meta = obj.get("metadata") or {}
    for key in COMPARED_METADATA:
        compared["metadata." + key] = meta.get(key) or {}
    return compared


def differences(expected, live, path=""):
    """``[(path, expected value, live value)]`` where ``live`` differs from ``expected``, leaf by leaf: dicts by key,
    lists of the same length by position (another length: the whole list)."""
    if isinstance(expected, dict) and isinstance(live, dict):
        found = []
        for key in sorted(set(expected) | set(live), key=str):
            found += differences(expected.get(key), live.get(key), _joined(path, key))
        return found
    if isinstance(expected, list) and isinstance(live, list) and len(expected) == len(live):
        found = []
        for index, (left, right) in enumerate(zip(expected, live)):
            found += differences(left, right, "{0}[{1}]".format(path, index))
        return found
    return [] if expected == live else [(path, expected, live)]


def _joined(path, key):
    return "{0}.{1}".format(path, key) if path else str(key)


def changed_fields(kind, expected, live, ignored=()):
    """The fields of ``live`` that differ from ``expected`` (:func:`content` of each), but for the paths ``ignored`` (and
    what is under them); a Secret's values masked."""
    fields = []
    for path, want, have in differences(content(expected), content(live)):
        if any(path == skip or path.startswith(skip + ".") or path.startswith(skip + "[") for skip in ignored):
            continue
        if kind == "Secret" and path.split(".", 1)[0].split("[", 1)[0] in SECRET_FIELDS:
            want, have = _masked(want), _masked(have)
        fields.append({"path": path, "expected": want, "live": have})
    return fields


def _masked(value):
    return None if value is None else SECRET_MASK


def autoscaled(objects):
    """``{(kind, name)}`` of the workloads a HorizontalPodAutoscaler among ``objects`` scales: their replicas are its."""
    targets = [(obj.get("spec") or {}).get("scaleTargetRef") or {} for obj in objects if obj.get("kind") == "HorizontalPodAutoscaler"]
    return {(target.get("kind"), target.get("name")) for target in targets}


def is_controlled(obj):
    """Whether a controller owns ``obj`` (a ReplicaSet of a Deployment, a pod of a ReplicaSet): it is its, not the VNF's."""
    return any(owner.get("controller") for owner in (obj.get("metadata") or {}).get("ownerReferences") or [])


def instance_selector(instance_id):
    """The objects that carry the instance's id, whoever labelled them (the collection's record Secrets left out)."""
    return format_selector({INSTANCE_ID_LABEL: instance_id}, absent=(RECORD_LABEL,))


def live_objects(api, instance_id, references):
    """``({(apiVersion, kind, namespace, name): live}, [unexpected live objects])``: the objects ``references`` name (one
    LIST per kind by the instance's id label, a GET for what a LIST did not show or a kind this user may not list), and
    the objects of those kinds that carry the instance's id, no controller owns, and ``references`` do not name."""
    kinds = {}
    for item in references:
        kinds.setdefault((item["apiVersion"], item["kind"], item.get("namespace")), []).append(item)
    found, unexpected = {}, []
    for (api_version, kind, namespace), items in kinds.items():
        named = {item["name"] for item in items}
        try:
            listed = api.list(api_version, kind, namespace, instance_selector(instance_id))
        except VimError as error:
            if getattr(error, "status", None) != 403:
                raise
            listed = []
        for live in listed:
            name = live["metadata"]["name"]
            if name in named:
                found[(api_version, kind, namespace, name)] = live
            elif not is_controlled(live):
                unexpected.append(dict(live, apiVersion=api_version, kind=kind))
        for item in items:
            key = (api_version, kind, namespace, item["name"])
            if key not in found:
                live = api.get(api_version, kind, item["name"], namespace)
                if live is not None:
                    found[key] = live
    return found, unexpected


def without_replicas(manifest):
    """``manifest`` without ``spec.replicas``: a workload's replicas that a HorizontalPodAutoscaler owns are neither
    compared nor restored."""
    spec = {key: value for key, value in (manifest.get("spec") or {}).items() if key != "replicas"}
    return dict(manifest, spec=spec)


def object_drift(api, manifest, live, ignored=()):
    """``(expected, drift)`` of one object: the API server's answer to a dry-run apply of ``manifest`` over ``live``, and
    ``None`` or ``{"status": changed, "fields": [...]}``."""
    expected = api.apply(manifest, FIELD_MANAGER, dry_run=True)
    fields = changed_fields(manifest["kind"], expected, live, ignored)
    return expected, ({"status": CHANGED, "fields": fields} if fields else None)
