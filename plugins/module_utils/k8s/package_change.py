# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Change of the current VNF package of a CNF (ChangeCurrentVnfPkgRequest, RollingUpdate): the plan, pure.

From the deployed manifests (the record's), the new package's manifests (in the instance's namespace,
labelled, sized for the current scale level) and the live objects, a *job*: ordered steps of actions,
each of which brings one object to a given state, and the objects as they were before (``originals``),
from which :func:`rollback_job` builds the way back. Every action can be carried out again with the same
result, so a retry runs the same job again and a rollback may follow a job that stopped anywhere.

What happens to what:

- objects only in the new def files are created, objects gone from them deleted (after the VDUs rolled;
  the Namespace that holds the instance's record is never deleted), objects in both updated when their
  manifest differs (any field; ``spec.replicas`` of a VDU comes from the scale level, not the package);
- ConfigMaps and Secrets are compared by content with the live ones, as in the container update; a
  workload that reads a changed key restarts even when its own manifest is the same (the selective-restart
  planner's reasons and config-hash annotation);
- the VDUs named in ``vdu_params`` roll one after the other in that order, each waited for before the
  next; a VDU whose workload gets a new name or kind is moved: the new workload is created and ready
  before the old one is deleted. VDUs not named keep their workload as deployed (restarted only when a
  ConfigMap/Secret key they read changes); VDUs the new VNFD adds roll after the named ones; workloads
  of VDUs it removes are deleted.
"""

from __future__ import annotations

import copy

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import DEF_FILES_PARAM, identity, kind_of, name_of, object_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ordering import create_rank
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.references import (
    CONFIG_KINDS,
    POD_SPEC_PATHS,
    WORKLOAD_KINDS,
    index_of,
    object_key,
    pod_spec_of,
    references_by_config,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.restart import (
    CONFIG_HASH_ANNOTATION,
    changed_config,
    config_hash,
    config_reasons,
    differences,
    image_reasons,
    restart_patch,
    template_path,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.change_pkg import WHAT

DEF_FILES_FIELD = "additionalParams." + DEF_FILES_PARAM
# Workloads whose pods a changed pod template replaces by themselves, keeping the workload's availability rules.
ROLLING_KINDS = ("Deployment", "StatefulSet", "DaemonSet")
# Actions, and what each does to its object.
CREATE = "create"        # create it (one this instance already made is adopted: a retry)
UPDATE = "update"        # PUT the desired object over the live one
RESTART = "restart"      # the pod-template patch of the selective restart (config-hash annotation)
CONTENT = "content"      # a ConfigMap/Secret takes the desired content
DELETE = "delete"        # delete it, and wait until it is gone
# Metadata a live object keeps when it is written back (rollback): identity, labels and annotations only.
KEPT_METADATA = ("name", "namespace", "labels", "annotations")
SERVICE_ALLOCATED = ("clusterIP", "clusterIPs")


# ---------------------------------------------------------------------------------------------
# Comparing manifests

def comparable(obj):
    """What of a manifest a change applies: all of it but ``spec.replicas`` (the scale level's) and the config-hash annotation."""
    obj = copy.deepcopy(object_of(obj))
    spec = obj.get("spec")
    if isinstance(spec, dict):
        spec.pop("replicas", None)
    if kind_of(obj) in WORKLOAD_KINDS and pod_spec_of(obj) is not None:
        template = obj
        for key in template_path(kind_of(obj)):
            template = template.get(key) or {}
        annotations = (template.get("metadata") or {}).get("annotations")
        if isinstance(annotations, dict):
            annotations.pop(CONFIG_HASH_ANNOTATION, None)
    return obj


def manifest_changes(old, new):
    """The paths that differ between two manifests of one object (replicas and the config-hash annotation aside)."""
    return [change["path"] for change in differences(comparable(old), comparable(new), "")]


def replicas_of(obj):
    return (object_of(obj).get("spec") or {}).get("replicas")


def with_template_annotation(obj, value):
    """``obj`` with the config-hash annotation of its pod template set to ``value`` (None: left out)."""
    result = copy.deepcopy(obj)
    template = result
    for key in template_path(kind_of(result)):
        template = template.setdefault(key, {})
    annotations = template.setdefault("metadata", {}).setdefault("annotations", {})
    annotations.pop(CONFIG_HASH_ANNOTATION, None)
    if value:
        annotations[CONFIG_HASH_ANNOTATION] = value
    if not annotations:
        template["metadata"].pop("annotations")
    return result


def template_annotation(obj):
    if obj is None or pod_spec_of(obj) is None:
        return None
    template = obj
    for key in template_path(kind_of(obj)):
        template = template.get(key) or {}
    return ((template.get("metadata") or {}).get("annotations") or {}).get(CONFIG_HASH_ANNOTATION)


def written_back(live):
    """A live object as it can be written again (rollback): no status, no server-set metadata."""
    result = {key: copy.deepcopy(value) for key, value in live.items() if key != "status"}
    meta = live.get("metadata") or {}
    result["metadata"] = {key: copy.deepcopy(meta[key]) for key in KEPT_METADATA if key in meta}
    return result


def recreatable(original):
    """An object deleted by the change, to create again: a Service asks for a new cluster IP (its old one may be taken)."""
    result = copy.deepcopy(original)
    if kind_of(result) == "Service":
        for key in SERVICE_ALLOCATED:
            (result.get("spec") or {}).pop(key, None)
    return result


# ---------------------------------------------------------------------------------------------
# The plan

def action(do, obj, reasons=None, changes=None, wait=None, patch=None):
    entry = {"do": do, "kind": kind_of(obj), "name": name_of(obj), "apiVersion": obj["apiVersion"], "namespace": obj["metadata"].get("namespace")}
    if do != DELETE:
        entry["object"] = obj
    if patch is not None:
        entry["patch"] = patch
    if reasons:
        entry["reasons"] = reasons
    if changes:
        entry["changes"] = changes
    if wait:
        entry["wait"] = wait
    return entry


def plan_package_change(deployed, new_records, live, old_vdus, new_vdus, named, keeps_namespace=None):
    """The job of a change of package; ValidationError before anything is written when it cannot be done.

    ``deployed``/``new_records``: manifest records (deployed: workloads whole, ConfigMaps/Secrets by identity);
    ``live``: {(kind, name): live object} of every object either holds that exists; ``old_vdus``/``new_vdus``:
    {VDU id: (kind, name) of its workload} before and after; ``named``: the vdu_params VDU ids, in order;
    ``keeps_namespace``: the Namespace holding the record (never deleted).
    """
    old = {object_key(record): record for record in deployed}
    new = {object_key(record): record for record in new_records}
    kept = [vdu_id for vdu_id in old_vdus if vdu_id not in named and vdu_id in new_vdus]
    check_kept_vdus(kept, old_vdus, new_vdus, old)
    target = {key: record for key, record in new.items() if key not in {new_vdus[vdu_id] for vdu_id in kept}}
    target.update({old_vdus[vdu_id]: old[old_vdus[vdu_id]] for vdu_id in kept})
    if keeps_namespace is not None and ("Namespace", keeps_namespace) in old:
        target.setdefault(("Namespace", keeps_namespace), old[("Namespace", keeps_namespace)])
    live_list = [obj for obj in live.values() if obj is not None]
    config = changed_config(deployed, list(target.values()), live_list, WHAT)
    references = {key: references_by_config(pod_spec_of(object_of(record))) for key, record in target.items()
                  if kind_of(record) in WORKLOAD_KINDS and pod_spec_of(object_of(record)) is not None}
    check_removed_unread(config["removed"], index_of(references), kept, old_vdus)
    changes = {(entry["kind"], entry["name"]): entry["keys"] for entry in config["update"] + config["create"]}
    contents = {(entry["kind"], entry["name"]): entry["content_hash"] for entry in config["update"] + config["create"] + config["unchanged"]}

    def workload_action(key):
        """The action that brings a workload of ``target`` to its new form, or None."""
        record = target[key]
        current = live.get(key)
        reasons = config_reasons(references.get(key) or {}, changes) if key in old and current is not None else []
        annotation = config_hash(references.get(key), contents) if reasons else template_annotation(current)
        desired = with_template_annotation(object_of(record), annotation) if pod_spec_of(object_of(record)) is not None else object_of(record)
        if key not in old or current is None:
            return action(CREATE, desired, wait="ready")
        edits = manifest_changes(old[key], record)
        count = replicas_of(record)
        if count is not None and count != replicas_of(current):
            edits.append("spec.replicas")
        if edits or reasons:
            check_rolling(key, current, bool(reasons) or touches_template(key[0], edits))
        if edits:
            return action(UPDATE, desired, reasons + image_reasons(pod_spec_of(object_of(old[key])), pod_spec_of(object_of(record))), edits, "ready")
        if reasons:
            return action(RESTART, desired, reasons, patch=restart_patch(object_of(old[key]), reasons, annotation), wait="ready")
        return None

    steps, placed = [], set()
    prepare = []
    for key in sorted(target, key=lambda item: (create_rank(item[0]), item)):
        record = target[key]
        if kind_of(record) in CONFIG_KINDS:
            entry = next((item for item in config["create"] + config["update"] if (item["kind"], item["name"]) == key), None)
            if entry is not None:
                prepare.append(action(CREATE if key not in live or live[key] is None else CONTENT, object_of(record), changes=entry["keys"]))
        elif kind_of(record) not in WORKLOAD_KINDS:
            if key not in old or live.get(key) is None:
                prepare.append(action(CREATE, object_of(record)))
            elif manifest_changes(old[key], record):
                prepare.append(action(UPDATE, object_of(record), changes=manifest_changes(old[key], record)))
        placed.add(key)
    steps.append({"name": "prepare", "actions": prepare})
    added = [vdu_id for vdu_id in new_vdus if vdu_id not in old_vdus and vdu_id not in named]
    for vdu_id in list(named) + added:
        actions = []
        key, before = new_vdus.get(vdu_id), old_vdus.get(vdu_id)
        if key is not None:
            found = workload_action(key)
            if found is not None:
                actions.append(found)
            placed.add(key)
        if before is not None and before != key and before not in target and before in old:
            actions.append(action(DELETE, object_of(old[before]), wait="gone"))
            placed.add(before)
        steps.append({"name": vdu_id, "vdu_id": vdu_id, "named": vdu_id in named, "moved": before is not None and key is not None and before != key,
                      "actions": actions})
    finish = []
    for key in sorted(target, key=lambda item: (create_rank(item[0]), item)):
        if kind_of(target[key]) in WORKLOAD_KINDS and key not in {new_vdus.get(vdu_id) for vdu_id in list(named) + added}:
            found = workload_action(key)
            if found is not None:
                finish.append(found)
    for key in sorted(set(old) - set(target) - placed, key=lambda item: (-create_rank(item[0]), item)):
        finish.append(action(DELETE, object_of(old[key]), wait="gone"))
    steps.append({"name": "finish", "actions": finish})
    originals = {"{0}/{1}".format(*key): written_back(live[key]) for key in touched_keys(steps) if live.get(key) is not None}
    return {"steps": steps, "originals": originals, "target": [target[key] for key in sorted(target, key=lambda item: (create_rank(item[0]), item))],
            "kept_vdus": kept, "changed": any(step["actions"] for step in steps)}


def touched_keys(steps):
    return [(entry["kind"], entry["name"]) for step in steps for entry in step["actions"]]


def check_kept_vdus(kept, old_vdus, new_vdus, old):
    """A VDU not named in vdu_params keeps its workload: the new package must not move it elsewhere."""
    for vdu_id in kept:
        if new_vdus[vdu_id] != old_vdus[vdu_id]:
            old_kind, old_name = old_vdus[vdu_id]
            new_kind, new_name = new_vdus[vdu_id]
            raise ValidationError(WHAT, "additionalParams.vdu_params", "VDU {0} moves from {1} {2} to {3} {4} in the new package; a VDU not named "
                                  "in vdu_params keeps its workload: name it to move it".format(vdu_id, old_kind, old_name, new_kind, new_name))
        if old_vdus[vdu_id] not in old:
            raise ValidationError(WHAT, "additionalParams.vdu_params", "the record does not hold the manifest of VDU {0}: name it".format(vdu_id))


def check_removed_unread(removed, readers, kept, old_vdus):
    """A ConfigMap/Secret gone from the new def files must not be read by any workload that stays."""
    kept_keys = {old_vdus[vdu_id]: vdu_id for vdu_id in kept}
    for entry in removed:
        users = readers.get((entry["kind"], entry["name"])) or ()
        if users:
            hint = "; VDU {0} is not named in vdu_params, so it keeps its workload: name it".format(kept_keys[users[0]]) if users[0] in kept_keys else ""
            raise ValidationError(WHAT, DEF_FILES_FIELD, "{0} {1} is not in the new def files, but {2} still reads it{3}".format(
                entry["kind"], entry["name"], ", ".join("{0} {1}".format(*user) for user in users), hint))


def touches_template(kind, edits):
    """True when one of the changed paths is in the pod template (a bare Pod: its spec): its pods must be replaced."""
    if kind not in POD_SPEC_PATHS:
        return False
    prefix = ".".join(POD_SPEC_PATHS[kind][:-1]) or "spec"
    return any(path == prefix or path.startswith((prefix + ".", prefix + "[")) for path in edits)


def check_rolling(key, live, replaces_pods):
    """Pods that must change are replaced by their controller's rolling update: only kinds that have one qualify."""
    if not replaces_pods:
        return  # replicas or fields outside the pod template: the pods stay
    strategy = ((object_of(live).get("spec") or {}).get("updateStrategy") or {}).get("type")
    if key[0] == "CronJob" or key[0] in ROLLING_KINDS and strategy != "OnDelete":
        return
    raise ValidationError(WHAT, DEF_FILES_FIELD, "{0} {1} would need its pods replaced by hand ({2}): a change of package rolls Deployments, "
                          "StatefulSets and DaemonSets with a rolling update; change its images with vnf_modify (container update)".format(
                              key[0], key[1], "updateStrategy OnDelete" if strategy == "OnDelete" else "a {0} has no rolling update".format(key[0])))


# ---------------------------------------------------------------------------------------------
# The way back

def rollback_job(job):
    """The job that undoes ``job``, wherever it stopped: every object it touched back to its original.

    Configuration first (pods restored afterwards read the old content), then the VDUs in reverse order
    (a moved VDU's old workload is created again and ready before the new one goes), then the other
    workloads, then what the change created is deleted.
    """
    originals = job["originals"]

    def restore(entry):
        original = originals.get("{0}/{1}".format(entry["kind"], entry["name"]))
        if entry["do"] == CREATE and original is None:
            return action(DELETE, identity(entry), wait="gone")
        if original is None:
            return None
        if entry["do"] == DELETE:
            return action(CREATE, recreatable(original), wait="ready")
        if entry["do"] == CONTENT:
            return action(CONTENT, original)
        return action(UPDATE, original, wait="ready" if kind_of(original) in WORKLOAD_KINDS else None)

    def restored(actions, keep=lambda entry: True):
        return [found for found in (restore(entry) for entry in reversed(actions) if keep(entry)) if found is not None]

    steps = job["steps"]
    prepare, vdus, finish = steps[0]["actions"], steps[1:-1], steps[-1]["actions"]
    result = [{"name": "prepare", "actions": restored(prepare, lambda entry: entry["do"] != CREATE)
               + restored(finish, lambda entry: entry["do"] == DELETE and entry["kind"] not in WORKLOAD_KINDS)}]
    result += [dict(step, actions=restored(step["actions"])) for step in reversed(vdus)]
    result.append({"name": "finish", "actions": restored(finish, lambda entry: entry["kind"] in WORKLOAD_KINDS)
                   + restored(prepare, lambda entry: entry["do"] == CREATE)})
    return {"steps": result, "originals": originals}


def runs(job, side_by_side=False):
    """The job (or its rollback job) as it is carried out: ``(actions, step)`` pairs, each a list of actions written one
    after the other and then waited for together, or ``([], step)`` where a VDU step has ended (its coordination hook
    runs then).

    One at a time, each action is waited for before the next is written, VDU step after VDU step. Side by side, the
    first action of every VDU step is written, then all are waited for, then their second actions (a moved VDU's old
    workload deleted), and so on; no step ends alone (coordination hooks are refused with it). Prepare and finish
    stay one action at a time either way.
    """
    steps = job["steps"]
    prepare, vdu_steps, finish = steps[0], steps[1:-1], steps[-1]
    yield from _one_at_a_time(prepare)
    if side_by_side:
        for index in range(max((len(step["actions"]) for step in vdu_steps), default=0)):
            yield [step["actions"][index] for step in vdu_steps if index < len(step["actions"])], None
    else:
        for step in vdu_steps:
            yield from _one_at_a_time(step)
    yield from _one_at_a_time(finish)


def _one_at_a_time(step):
    for entry in step["actions"]:
        yield [entry], None
    if step.get("vdu_id") is not None:
        yield [], step


# ---------------------------------------------------------------------------------------------
# Showing it

def plan_lines(job):
    """The job as text, one line per action, in the order it runs."""
    lines = []
    for step in job["steps"]:
        if not step["actions"]:
            continue
        title = "VDU {0}{1}".format(step["vdu_id"], " (moved)" if step.get("moved") else "") if step.get("vdu_id") else step["name"]
        lines.append(title + ":")
        for entry in step["actions"]:
            why = ""
            if entry.get("reasons"):
                why = " (" + "; ".join(describe_reason(reason) for reason in entry["reasons"]) + ")"
            elif entry.get("changes"):
                why = " (" + ", ".join(entry["changes"][:6]) + (", ..." if len(entry["changes"]) > 6 else "") + ")"
            lines.append("  {0} {1} {2}{3}".format(entry["do"], entry["kind"], entry["name"], why))
    if job.get("kept_vdus"):
        lines.append("kept as deployed (not in vdu_params): " + ", ".join(job["kept_vdus"]))
    return lines or ["no change: the VNF already runs this package"]


def describe_reason(reason):
    if reason["type"] == "image":
        return "image of {0}: {1} -> {2}".format(reason["container"], reason["from"], reason["to"])
    return "reads {0} {1} keys {2}".format(reason["kind"], reason["name"], ", ".join(reason["keys"]))


def summary(job):
    """Object names per action: what check mode and the result show at a glance."""
    result = {CREATE: [], UPDATE: [], RESTART: [], CONTENT: [], DELETE: []}
    for step in job["steps"]:
        for entry in step["actions"]:
            result[entry["do"]].append("{0}/{1}".format(entry["kind"], entry["name"]))
    return result
