# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Selective restart for a container update (VnfInfoModificationRequest with a new vnfdId): the plan, pure.

What changes: ConfigMaps and Secrets whose content (``data``/``binaryData``, a Secret's ``stringData``
as base64 ``data``; never labels or annotations) differs from the live one are updated, new ones are
created, ones gone from the package are reported (deleted only on request). Container images change
per container name. Nothing else in workload manifests is applied: it is listed as not applied.

Who restarts: only workloads that read a changed key of a changed ConfigMap/Secret (a whole-object
use, such as envFrom or a volume without items, reads every key) or whose image changed, once each:

- Deployment, DaemonSet, StatefulSet: one pod-template patch (new images and the config-hash
  annotation), so the workload's own strategy keeps it available;
- bare ReplicaSet (and a DaemonSet or StatefulSet with the OnDelete strategy): the same template
  patch, then each of its pods is deleted (the plan lists them);
- bare Pod: deleted and created again under its name, as deployed but with the new images;
- CronJob: the job template is patched, nothing running is restarted;
- Job: reported only (its pods run to completion; restarting them would run the job again).

Ephemeral containers are reported, never restarted; replacing their pod removes them.
"""

from __future__ import annotations

import base64
import binascii
import copy
import hashlib
import json
import posixpath

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.args import MASK
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import kind_of, name_of, namespace_of, object_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.references import (
    CONFIG_KINDS,
    CONTAINER_LISTS,
    POD_SPEC_PATHS,
    WORKLOAD_KINDS,
    container_images,
    ephemeral_containers,
    index_of,
    named_containers,
    object_key,
    pod_spec_of,
    references_by_config,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.vnfc import top_controller

MODIFY_REQUEST = "VnfInfoModificationRequest"
PATHS_FIELD = "metadata.configmap_secret_paths"
CONFIG_HASH_ANNOTATION = "vnflcm.nfv/config-hash"

ACTION_ROLLOUT = "rollout"
ACTION_REPLACE_PODS = "replace-pods"
ACTION_RECREATE = "recreate"
ACTION_UPDATE_TEMPLATE = "update-template"
ACTION_REPORT = "report"
ACTIONS = {
    "Deployment": ACTION_ROLLOUT,
    "DaemonSet": ACTION_ROLLOUT,
    "StatefulSet": ACTION_ROLLOUT,
    "ReplicaSet": ACTION_REPLACE_PODS,
    "Pod": ACTION_RECREATE,
    "CronJob": ACTION_UPDATE_TEMPLATE,
    "Job": ACTION_REPORT,
}
RESTART_ACTIONS = (ACTION_ROLLOUT, ACTION_REPLACE_PODS, ACTION_RECREATE)
JOB_NOTE = "a Job's pods run to completion: it is not restarted; the change applies when the VNF is healed or the Job recreated"
CRONJOB_NOTE = "the job template is updated: jobs started from now on use it; running jobs are not restarted"
EPHEMERAL_NOTE = "ephemeral containers are never restarted; replacing their pod removes them"
# Stands for "no such field" in diffs, where None is a value a manifest may hold.
_ABSENT = object()


# ---------------------------------------------------------------------------------------------
# ConfigMap / Secret content

def text_value(value):
    """ConfigMap data values are strings; anything else YAML produced is compared as its JSON text."""
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def canonical_base64(value):
    """Base64 in one canonical spelling (line breaks and padding styles differ between writers)."""
    compact = "".join(text_value(value).split())
    try:
        return base64.b64encode(base64.b64decode(compact, validate=True)).decode("ascii")
    except (binascii.Error, ValueError):
        return "invalid-base64:" + compact  # compared as written; the API server refuses it anyway


def mapping(value):
    return value if isinstance(value, dict) else {}


def normalised_content(obj):
    """What a pod sees of a ConfigMap (``data`` and ``binaryData``) or Secret (``data``, ``stringData`` folded in).

    ``stringData`` wins over ``data`` for the same key, as on the API server.
    """
    obj = object_of(obj)
    if kind_of(obj) == "Secret":
        data = {key: canonical_base64(value) for key, value in mapping(obj.get("data")).items()}
        data.update({key: base64.b64encode(text_value(value).encode("utf-8")).decode("ascii") for key, value in mapping(obj.get("stringData")).items()})
        return {"data": data}
    return {"data": {key: text_value(value) for key, value in mapping(obj.get("data")).items()},
            "binaryData": {key: canonical_base64(value) for key, value in mapping(obj.get("binaryData")).items()}}


def shown_content(obj):
    """What a diff shows of a ConfigMap's or Secret's content: a Secret's keys, never its values."""
    if obj is None:
        return None
    content = normalised_content(obj)
    if kind_of(obj) == "Secret":
        return {"data": {key: MASK for key in content["data"]}}
    return content


def shown_object(obj):
    """An object for a diff: a Secret with its content as :func:`shown_content` shows it, anything else as it is."""
    if obj is None or kind_of(obj) != "Secret":
        return obj
    return dict({key: value for key, value in obj.items() if key not in ("data", "stringData")}, **shown_content(obj))


def content_keys(obj):
    """``{key: value}`` over all content sections (a ConfigMap's data and binaryData keys never overlap)."""
    result = {}
    for section in normalised_content(obj).values():
        result.update(section)
    return result


def content_hash(obj):
    """SHA-256 of the normalised content: equal for objects pods cannot tell apart."""
    return sha256_json(normalised_content(obj))


def sha256_json(value):
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()


def changed_keys(before, after):
    """Sorted keys added, removed or changed between two versions of a ConfigMap/Secret."""
    old, new = content_keys(before), content_keys(after)
    return sorted(key for key in set(old) | set(new) if old.get(key, _ABSENT) != new.get(key, _ABSENT))


def config_objects(objects):
    """``{(kind, name): object}`` of the ConfigMaps and Secrets among objects or manifest records."""
    return {object_key(item): object_of(item) for item in objects or () if kind_of(item) in CONFIG_KINDS}


def config_entry(key, obj, keys=None):
    entry = {"kind": key[0], "name": key[1], "content_hash": content_hash(obj)}
    if keys is not None:
        entry["keys"] = keys
    return entry


def check_mutable(before, key, what):
    """An immutable ConfigMap/Secret cannot take new content: say so before anything is written."""
    if before.get("immutable"):
        raise ValidationError(what, "vnfdId", "{0} {1} is immutable, so its new content cannot be applied; give it a new name instead".format(*key))


def changed_config(old_objects, new_objects, live_objects=None, what=MODIFY_REQUEST):
    """ConfigMaps/Secrets to update, create, report as removed, and the unchanged ones.

    New content is compared with the live object when ``live_objects`` is given (the VIM's truth),
    else with the old package's. Entries: ``{"kind", "name", "content_hash", "keys"}`` (keys: what
    changed; for a created object, all its keys).
    """
    old = config_objects(old_objects)
    new = config_objects(new_objects)
    baseline = old if live_objects is None else config_objects(live_objects)
    result = {"update": [], "create": [], "unchanged": [], "removed": []}
    for key in sorted(new):
        before = baseline.get(key)
        if before is None:
            result["create"].append(config_entry(key, new[key], sorted(content_keys(new[key]))))
            continue
        keys = changed_keys(before, new[key])
        if keys:
            check_mutable(before, key, what)
            result["update"].append(config_entry(key, new[key], keys))
        else:
            result["unchanged"].append(config_entry(key, new[key]))
    for key in sorted(set(old) - set(new)):
        entry = {"kind": key[0], "name": key[1]}
        if live_objects is not None:
            entry["live"] = key in baseline
        result["removed"].append(entry)
    return result


# ---------------------------------------------------------------------------------------------
# metadata.configmap_secret_paths (Tacker's request files list the changed files there)

def check_configmap_secret_paths(paths, old_manifests, new_manifests, what=MODIFY_REQUEST):
    """Each listed def file holds ConfigMaps/Secrets only and, if it existed before, the same ones.

    The file may move (configmap_1.yaml -> configmap_2.yaml); the kind, namespace and name of what a
    file holds may not change: that would be another object, not an update.
    """
    if paths is None:
        return
    if not isinstance(paths, list):
        raise ValidationError(what, PATHS_FIELD, "must be a list of def file paths, got {0!r}".format(paths))
    old_by_place = {(item["file"], item["index"]): object_of(item) for item in old_manifests if is_record(item)}
    new_records = [item for item in new_manifests if is_record(item)]
    for position, path in enumerate(paths):
        field = "{0}[{1}]".format(PATHS_FIELD, position)
        if not isinstance(path, str) or not path.strip():
            raise ValidationError(what, field, "must be a def file path, got {0!r}".format(path))
        clean = posixpath.normpath(path.replace("\\", "/"))
        held = [item for item in new_records if item["file"] == clean]
        if not held:
            raise ValidationError(what, field, "{0} is not a Kubernetes def file of the new package".format(path))
        for item in held:
            check_listed_object(item, old_by_place.get((item["file"], item["index"])), field, what)


def is_record(item):
    return isinstance(item, dict) and "file" in item and "object" in item


def identity(obj):
    return kind_of(obj), namespace_of(obj), name_of(obj)


def describe_identity(obj):
    kind, namespace, name = identity(obj)
    return "{0} {1}{2}".format(kind, name, "" if namespace is None else " (namespace {0})".format(namespace))


def check_listed_object(record, before, field, what):
    obj = object_of(record)
    if kind_of(obj) not in CONFIG_KINDS:
        raise ValidationError(what, field, "{0} holds {1}: only ConfigMap and Secret files can be listed".format(record["file"], describe_identity(obj)))
    if before is not None and identity(before) != identity(obj):
        raise ValidationError(what, field, "{0} held {1} and now holds {2}: the kind, namespace and name of a ConfigMap or Secret cannot change".format(
            record["file"], describe_identity(before), describe_identity(obj)))


# ---------------------------------------------------------------------------------------------
# Why a workload restarts

def config_reasons(references, changes):
    """Reasons for the changed ConfigMaps/Secrets a workload reads, one per object, sorted.

    ``references``: references_by_config() of the workload; ``changes``: {(kind, name): changed keys}.
    A whole-object use reads every key; keyRefs and volume items only theirs.
    """
    reasons = []
    for key in sorted(key for key in references if key in changes):  # per reference, never per change: O(references)
        refs = references[key]
        read = None if any(ref["key"] is None for ref in refs) else {ref["key"] for ref in refs}
        keys = sorted(changes[key] if read is None else read.intersection(changes[key]))
        if keys:
            reasons.append({"type": "config", "kind": key[0], "name": key[1], "keys": keys, "via": sorted({ref["via"] for ref in refs})})
    return reasons


def image_reasons(before_spec, after_spec):
    """One reason per container (init containers too) whose image differs, matched by container name."""
    before, after = container_images(before_spec), container_images(after_spec)
    return [{"type": "image", "container": name, "init": field == "initContainers", "from": before[(field, name)], "to": after[(field, name)]}
            for field, name in sorted(set(before) & set(after)) if before[(field, name)] != after[(field, name)]]


def config_hash(references, contents):
    """SHA-256 over sorted (kind, name, content hash) of the ConfigMaps/Secrets a workload uses; None if it uses none.

    ``contents``: {(kind, name): content hash} after the update; objects the package does not hold
    (created by others) count by name only, as their content is not this operation's to change.
    """
    if not references:
        return None
    return sha256_json(sorted([kind, name, contents.get((kind, name), "not-in-package")] for kind, name in references))


# ---------------------------------------------------------------------------------------------
# How a workload restarts

def template_path(kind):
    """Where the pod template is: the pod spec's path without its last ``spec``."""
    return POD_SPEC_PATHS[kind][:-1]


def nest(path, value):
    for key in reversed(path):
        value = {key: value}
    return value


def image_updates(reasons):
    """``{list name: [{"name", "image"}]}`` for the image reasons: what a strategic merge patch sends per list."""
    updates = {}
    for reason in reasons:
        if reason["type"] == "image":
            field = "initContainers" if reason["init"] else "containers"
            updates.setdefault(field, []).append({"name": reason["container"], "image": reason["to"]})
    return updates


def restart_patch(workload, reasons, hash_value=None):
    """The ONE strategic merge patch of a controller's pod template: new images and the config-hash annotation.

    Containers merge by name, so only images change. A changed annotation is what makes a config-only
    change roll: the controller sees a new template.
    """
    template = {}
    if hash_value:
        template["metadata"] = {"annotations": {CONFIG_HASH_ANNOTATION: hash_value}}
    updates = image_updates(reasons)
    if updates:
        template["spec"] = updates
    return nest(template_path(kind_of(workload)), template)


def with_images(pod_spec, reasons):
    """Set the new images of the reasons in a pod spec (in place)."""
    new_images = {("initContainers" if reason["init"] else "containers", reason["container"]): reason["to"] for reason in reasons if reason["type"] == "image"}
    for field, container in named_containers(pod_spec):
        if (field, container["name"]) in new_images:
            container["image"] = new_images[(field, container["name"])]


def recreated_pod(deployed, live, reasons, hash_value=None):
    """The Pod to create again under its name: as deployed (other changes are not applied), new images.

    Labels, annotations and namespace come from the live pod when there is one, so the ownership
    labels added at instantiation stay.
    """
    pod = copy.deepcopy(object_of(deployed))
    pod.pop("status", None)
    metadata = pod.setdefault("metadata", {})
    live_metadata = (live or {}).get("metadata") or {}
    for field in ("labels", "annotations", "namespace"):
        if live_metadata.get(field):
            metadata[field] = copy.deepcopy(live_metadata[field])
    if hash_value:
        metadata["annotations"] = dict(metadata.get("annotations") or {})
        metadata["annotations"][CONFIG_HASH_ANNOTATION] = hash_value
    with_images(pod.get("spec") or {}, reasons)
    return pod


def restart_action(kind, workload):
    """How a workload restarts; a DaemonSet or StatefulSet with the OnDelete strategy only rolls when its pods are deleted."""
    strategy = ((object_of(workload).get("spec") or {}).get("updateStrategy") or {}).get("type")
    if kind in ("DaemonSet", "StatefulSet") and strategy == "OnDelete":
        return ACTION_REPLACE_PODS
    return ACTIONS[kind]


def restart_entry(key, deployed, live, reasons, hash_value, pods_by_owner, new=None):
    """A plan entry for a workload with reasons: its action and what the action sends.

    A bare Pod is created again from its ``deployed`` manifest with every image of the ``new`` one, whatever
    the live pod runs: after an interrupted update it may already run them (then only config is a reason).
    """
    kind, name = key
    action = restart_action(kind, live or deployed)
    entry = {"kind": kind, "name": name, "action": action, "reasons": reasons, "config_hash": hash_value}
    if kind == "Pod":
        images = image_reasons(pod_spec_of(deployed), pod_spec_of(new)) if new is not None else []
        entry["pod"] = recreated_pod(deployed, live, images + reasons, hash_value)
        return entry
    if kind == "Job":
        entry["note"] = JOB_NOTE  # a Job's pod template is immutable: there is nothing to patch
        return entry
    entry["patch"] = restart_patch(deployed, reasons, hash_value)
    if action == ACTION_REPLACE_PODS:
        entry["pods"] = sorted(pods_by_owner.get(key, ()))
    elif kind == "CronJob":
        entry["note"] = CRONJOB_NOTE
    return entry


# ---------------------------------------------------------------------------------------------
# What is not applied

def without_images(obj, containers):
    """The object without the images of ``containers`` ({(list, name)}): those are applied, not 'not applied'.

    Only the dicts on the way to the containers are copied; the object itself is left as it is.
    """
    obj = object_of(obj)
    if pod_spec_of(obj) is None:
        return obj
    result = dict(obj)
    spec = result
    for key in POD_SPEC_PATHS[kind_of(obj)]:
        spec[key] = dict(spec[key])
        spec = spec[key]
    for field in CONTAINER_LISTS:
        if isinstance(spec.get(field), list):
            spec[field] = [image_dropped(item) if isinstance(item, dict) and (field, item.get("name")) in containers else item for item in spec[field]]
    return result


def image_dropped(container):
    return {key: value for key, value in container.items() if key != "image"}


def not_applied_changes(old_obj, new_obj):
    """``[{"path", "change", "old", "new"}]``: every difference between two versions except the images of kept containers.

    Either version may be None (object added or removed: one entry for the whole object). Lists of
    uniquely named items (containers, env, volumes, ...) are matched by name: ``containers[nginx]``.
    An added container is not applied, so it is reported with its image.
    """
    if old_obj is None or new_obj is None:
        return list(differences(_ABSENT if old_obj is None else object_of(old_obj), _ABSENT if new_obj is None else object_of(new_obj), ""))
    if old_obj == new_obj:
        return []
    kept = set(container_images(pod_spec_of(old_obj))) & set(container_images(pod_spec_of(new_obj)))
    return list(differences(without_images(old_obj, kept), without_images(new_obj, kept), ""))


def differences(old, new, path):
    if old is not _ABSENT and old == new:
        return  # equal subtrees are the common case: one C-level comparison skips them
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new), key=str):
            yield from differences(old.get(key, _ABSENT), new.get(key, _ABSENT), join_path(path, key))
    elif isinstance(old, list) and isinstance(new, list):
        old_items, new_items = list_items(old, new)
        for label in list(old_items) + [label for label in new_items if label not in old_items]:
            yield from differences(old_items.get(label, _ABSENT), new_items.get(label, _ABSENT), "{0}[{1}]".format(path, label))
    else:
        change = "added" if old is _ABSENT else "removed" if new is _ABSENT else "changed"
        yield {"path": path, "change": change, "old": None if old is _ABSENT else old, "new": None if new is _ABSENT else new}


def join_path(path, key):
    return "{0}.{1}".format(path, key) if path else str(key)


def list_items(old, new):
    """``({label: item}, {label: item})``: by name when every item of both lists has a distinct name, else by position."""
    if named_list(old) and named_list(new):
        return {item["name"]: item for item in old}, {item["name"]: item for item in new}
    return dict(enumerate(old)), dict(enumerate(new))


def named_list(items):
    names = [item.get("name") if isinstance(item, dict) else None for item in items]
    return all(isinstance(name, str) for name in names) and len(set(names)) == len(names)


# ---------------------------------------------------------------------------------------------
# The plan

def by_key(items, kinds):
    return {object_key(item): object_of(item) for item in items or () if kind_of(item) in kinds}


def pods_by_top_owner(live_objects):
    """``{(kind, name) at the end of a pod's controller chain: [pod names]}`` and the pods with ephemeral containers."""
    owners_by_uid = {(obj.get("metadata") or {}).get("uid"): obj for obj in live_objects if kind_of(obj) != "Pod"}
    owners_by_uid.pop(None, None)
    pods, ephemeral = {}, []
    for pod in live_objects:
        if kind_of(pod) != "Pod" or (pod.get("metadata") or {}).get("deletionTimestamp"):
            continue
        owner = top_controller(pod, owners_by_uid)
        pods.setdefault(owner, []).append(name_of(pod))
        if ephemeral_containers(pod.get("spec")):
            ephemeral.append((owner, pod))
    return pods, ephemeral


def ephemeral_report(ephemeral, restarted):
    return [{"pod": name_of(pod), "workload": {"kind": owner[0], "name": owner[1]}, "restarted": owner in restarted,
             "containers": [container["name"] for container in ephemeral_containers(pod.get("spec"))], "note": EPHEMERAL_NOTE}
            for owner, pod in sorted(ephemeral, key=lambda item: (item[0], name_of(item[1])))]


def check_removed_unused(removed, users, what):
    """Deleting a ConfigMap/Secret that a workload still reads would break its next pod: refuse before any write."""
    for entry in removed:
        readers = users.get((entry["kind"], entry["name"]))
        if readers:
            raise ValidationError(what, "delete_removed", "{0} {1} is gone from the new package but still used by {2}".format(
                entry["kind"], entry["name"], ", ".join("{0} {1}".format(*reader) for reader in readers)))


def plan_container_update(old_manifests, new_manifests, live_objects=None, configmap_secret_paths=None, delete_removed=False, what=MODIFY_REQUEST):
    """The whole container-update plan, validated: nothing in it has been written yet.

    ``old_manifests``/``new_manifests``: manifest records (or objects) of the deployed and of the new
    package's def files; ``live_objects``: the VNF's live objects (ConfigMaps, Secrets, workloads, their
    ReplicaSets and pods), None to plan from the old package alone. Objects are named by (kind, name):
    a VNF lives in one namespace. Deterministic: every list is sorted.
    """
    check_configmap_secret_paths(configmap_secret_paths, old_manifests, new_manifests, what)
    live_list = [object_of(obj) for obj in live_objects or ()]
    config = changed_config(old_manifests, new_manifests, None if live_objects is None else live_list, what)
    live = by_key(live_list, WORKLOAD_KINDS)
    old_workloads, new_workloads = by_key(old_manifests, WORKLOAD_KINDS), by_key(new_manifests, WORKLOAD_KINDS)
    deployed = {key: live.get(key) or old_workloads[key] for key in old_workloads}
    # One pass over every workload's references; the index answers "who reads X" for each change.
    references = {key: references_by_config(pod_spec_of(obj)) for key, obj in deployed.items()}
    users = index_of(references)
    removed = config["removed"]
    if delete_removed:
        check_removed_unused(removed, users, what)
    changes = {(entry["kind"], entry["name"]): entry["keys"] for entry in config["update"] + config["create"]}
    contents = {(entry["kind"], entry["name"]): entry["content_hash"] for entry in config["update"] + config["create"] + config["unchanged"]}
    affected = {workload for key in changes for workload in users.get(key, ())}
    pods_by_owner, ephemeral = pods_by_top_owner(live_list)
    plan = {"restart": [], "template_only": [], "not_restarted": [], "untouched": [], "warnings": []}
    for key in sorted(set(deployed) & set(new_workloads)):
        reasons = image_reasons(pod_spec_of(deployed[key]), pod_spec_of(new_workloads[key]))
        if key in affected:
            reasons = config_reasons(references[key], changes) + reasons
        if not reasons:
            plan["untouched"].append({"kind": key[0], "name": key[1]})
            continue
        entry = restart_entry(key, old_workloads[key], live.get(key), reasons, config_hash(references[key], contents), pods_by_owner,
                              new_workloads[key])
        plan[plan_section(entry["action"])].append(entry)
        if (deployed[key].get("spec") or {}).get("paused"):
            plan["warnings"].append("{0} {1} is paused: its pods change only when it is resumed".format(*key))
    for key in sorted(set(deployed) - set(new_workloads)):
        plan["warnings"].append("{0} {1} is not in the new package: it is left running as it is".format(*key))
    restarted = {(entry["kind"], entry["name"]) for entry in plan["restart"]}
    plan.update({
        "configmaps_secrets": dict(config, delete=list(removed) if delete_removed else []),
        "not_applied": not_applied(old_manifests, new_manifests),
        "ephemeral_containers": ephemeral_report(ephemeral, restarted),
    })
    plan["changed"] = bool(plan["restart"] or plan["template_only"] or config["update"] or config["create"] or plan["configmaps_secrets"]["delete"])
    return plan


def plan_section(action):
    if action in RESTART_ACTIONS:
        return "restart"
    return "template_only" if action == ACTION_UPDATE_TEMPLATE else "not_restarted"


def not_applied(old_manifests, new_manifests):
    """Changes to everything but ConfigMaps/Secrets and images, per object: listed, never applied, never dropped silently."""
    old = {object_key(item): object_of(item) for item in old_manifests if kind_of(item) not in CONFIG_KINDS}
    new = {object_key(item): object_of(item) for item in new_manifests if kind_of(item) not in CONFIG_KINDS}
    result = []
    for key in sorted(set(old) | set(new)):
        for change in not_applied_changes(old.get(key), new.get(key)):
            result.append(dict(change, kind=key[0], name=key[1]))
    return result
