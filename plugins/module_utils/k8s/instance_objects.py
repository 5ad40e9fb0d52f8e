# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Writing and deleting a VNF instance's objects, whatever deployed them (def files or a chart): the API server's
verdict on a write before it is made, a create that adopts what a retry finds there, a delete of what the instance owns."""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, VimError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.claims import CLAIM_OF, is_claim_named_by
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import describe, identity, ref
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ordering import delete_propagation
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ownership import is_owned_by, resource_selector
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.waiter import NO_PROGRESS_SECONDS, pod_grace, wait_deleted


def judged(what, record, write, *args, **kwargs):
    """``write(*args, **kwargs)``, a dry-run write the API server judges without storing anything; its refusal names
    the object (and def file) of ``record``."""
    try:
        return write(*args, **kwargs)
    except VimError as error:
        refused = VimError("validate", what, "{0}: the Kubernetes API refuses it (server-side dry run): {1}".format(describe(record), error.reason))
        refused.status = getattr(error, "status", None)
        raise refused from error


def deployed_manifests(records):
    """The manifest records as deployed, for a later container update to compare with a new package.

    ConfigMaps and Secrets keep only their identity: their content is read live, and Secret data
    must never reach the record (which every result shows).
    """
    return [dict(record, object=identity(ref(record["object"]))) if record["object"]["kind"] in ("ConfigMap", "Secret") else record
            for record in records]


def create_or_adopt(api, obj, instance_id, dry_run=False):
    """Create ``obj``; one that already exists is accepted only if this instance made it (a retry).

    Create first and read only on a conflict: a fresh instantiate then costs one call per object.
    """
    meta = obj["metadata"]
    try:
        return api.create(obj, dry_run=dry_run)
    except ConflictError:
        live = api.get(obj["apiVersion"], obj["kind"], meta["name"], meta.get("namespace"))
    if live is None or not is_owned_by(live, instance_id):
        raise ConflictError("create", describe(obj), "it already exists and does not belong to VNF instance {0}".format(instance_id))
    return live


def delete_owned(api, instance_id, resources, grace, waits, progress, awaited=()):
    """Delete those of ``resources`` (record references, in delete order) that are the instance's (its labels, or for a
    StatefulSet's claim what its reference names: k8s/claims.py); wait until they, and ``awaited`` (what Kubernetes
    deletes with them), are gone.

    A deletion that shows no progress for the no-progress window (k8s/waiter.py: NO_PROGRESS_SECONDS beyond the grace
    the deleted pods may take) while objects are held by finalizers ends in DeletionStalled naming them, not at the
    timeout.
    """
    deleted = progress.setdefault("deleted", [])
    allowance = 0
    listed, kinds_listed = owned_objects(api, instance_id, resources)
    for item in resources:
        live = listed.get(_key(item))
        if live is None and (_key(item)[:3] not in kinds_listed or item.get(CLAIM_OF)):
            live = api.get(item["apiVersion"], item["kind"], item["name"], item.get("namespace"))
        if live is None or not belongs(live, item, instance_id):
            continue
        api.delete(item["apiVersion"], item["kind"], item["name"], item.get("namespace"), propagation=delete_propagation(item["kind"]),
                   grace_seconds=grace)
        deleted.append(item)
        allowance = max(allowance, pod_grace(dict(live, kind=item["kind"]), grace))
    if waits.enabled:
        wait_deleted(api, [identity(item) for item in deleted + list(awaited)], waits.deadline(), NO_PROGRESS_SECONDS + allowance)
    return deleted


def owned_objects(api, instance_id, resources):
    """``({(apiVersion, kind, namespace, name): live}, {(apiVersion, kind, namespace)})``: the instance's objects among
    ``resources`` and the kinds listed, by one LIST per kind (the instance's labels) where it has several objects rather
    than a GET each. What no LIST read (an object alone of its kind, a kind this user may not list) and a StatefulSet's
    claim (it carries the controller's labels, not the instance's) are for a GET."""
    kinds = {}
    for item in resources:
        kinds.setdefault((item["apiVersion"], item["kind"], item.get("namespace")), []).append(item)
    found, listed_kinds = {}, set()
    for (api_version, kind, namespace), items in kinds.items():
        if len(items) < 2:
            continue
        try:
            listed = api.list(api_version, kind, namespace, resource_selector(instance_id))
        except VimError as error:
            if getattr(error, "status", None) != 403:
                raise
            continue
        listed_kinds.add((api_version, kind, namespace))
        found.update({(api_version, kind, namespace, live["metadata"]["name"]): live for live in listed})
    return found, listed_kinds


def _key(item):
    return item["apiVersion"], item["kind"], item.get("namespace"), item["name"]


def belongs(live, item, instance_id):
    """Whether the live object ``item`` names is the instance's: its ownership labels, or for the claim of one of its
    StatefulSets (which carries the controller's labels, not ours) the StatefulSet's name pattern and selector labels."""
    return is_owned_by(live, instance_id) or is_claim_named_by(live, item)
