# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vnf_modify on Kubernetes: a VnfInfoModificationRequest, with the container update when vnfdId changes.

The plan is k8s/restart.plan_container_update (pure). This module gathers its inputs (the
record's deployed manifests, the new package's def files, the live objects), carries it out, and
keeps what it replaces (ConfigMap/Secret content included) in a rollback Secret before its first
write, so a FAILED_TEMP operation can be rolled back exactly: a rollback is the same kind of
container update, from what the operation deployed back to what was there before.
"""

from __future__ import annotations

import copy
import functools
import posixpath
from typing import Any, Optional

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.pool import call_each
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.api import KubeApi
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.instance_objects import create_or_adopt, judged
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import DEF_FILES_PARAM, identity, kind_of, load_manifests, name_of, object_of, ref
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.namespaces import instance_namespace, resolve_namespace
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ownership import label_object, label_record, resource_selector
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.pods import instance_pods, recreate_pod, wait_recreated
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.references import CONFIG_KINDS, object_key, pod_spec_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.restart import (
    ACTION_RECREATE,
    ACTION_REPLACE_PODS,
    MODIFY_REQUEST,
    config_objects,
    normalised_content,
    plan_container_update,
    shown_content,
    with_images,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.waiter import wait_ready
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import instance_run
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.shared import refresh_vnfcs, vdu_records_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.state import CnfState
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import PRIVATE, Waits, name_claimer, new_vnfd_of, private_state, vnfc_changes
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import validate_vnf_info_modification_request
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import apply_vnf_info_modification, modification_diff
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED, modified_attributes as changed_attributes

PATHS_KEY = "configmap_secret_paths"
STRATEGIC = "application/strategic-merge-patch+json"
# What a container update reads live: the VNF's ConfigMaps, Secrets, workloads and their pods.
LIVE_KINDS = (("v1", "ConfigMap"), ("v1", "Secret"), ("v1", "Pod"), ("apps/v1", "ReplicaSet"), ("apps/v1", "Deployment"),
              ("apps/v1", "DaemonSet"), ("apps/v1", "StatefulSet"), ("batch/v1", "Job"), ("batch/v1", "CronJob"))
API_VERSIONS = dict((kind, api_version) for api_version, kind in LIVE_KINDS)


def run_modify(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_modify on Kubernetes: the new package (when given) is read before anything else."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import optional_package

    # No operation: the package's modify hooks (Tacker mgmt drivers) are the role's business, not this module's.
    with optional_package(params.get("package")) as package:
        planner = functools.partial(plan_modify, package=package, delete_removed=params["delete_removed"])
        return instance_run.on_instance(session.connect(params), planner, params, check_mode, diff_mode, name=occ.MODIFY_INFO)


def plan_modify(api: KubeApi, store: RecordStore, found: Found, request: Optional[dict], package: Any = None, delete_removed: bool = False,
                waits: Optional[Waits] = None, retry_of: Optional[dict] = None) -> Operation:
    """Modify the instance's information; with a new vnfdId on an instantiated CNF, update its containers.

    ``retry_of``: the id of the FAILED_TEMP op occ this retries; its update is planned from the state
    before its first attempt (kept in the rollback data), so that what that attempt already wrote
    still restarts the pods that read it.
    """
    waits = waits or Waits()
    instance, op_occs, version = found
    request = validate_vnf_info_modification_request(request)
    new_vnfd = new_vnfd_of(instance, request, package)
    new_package = new_vnfd is not None
    modified = apply_vnf_info_modification(instance, request, new_vnfd)
    claim_name = name_claimer(store, instance, modified)
    update = None
    if new_package and instance.get("instantiationState") == INSTANTIATED:
        paths = (request.get("metadata") or {}).get(PATHS_KEY)
        update = plan_update(api, store, instance, package, paths, delete_removed, retry_of)
        dry_run_update(api, instance, update)
        modified = with_deployed(modified, update)
    plan = {"operation": occ.MODIFY_INFO, "vnf_instance_id": instance["id"],
            "modifications": {key: modified.get(key) for key in changed_attributes(instance, modified)}}
    if update is not None:
        plan["container_update"] = update["plan"]
    changed = modified != instance

    def execute(progress):
        claim_name(progress)
        if update is None:
            return modified
        before = instance["instantiatedVnfInfo"].get("vnfcResourceInfo") or []
        replaced = carry_out(api, instance, update, progress, waits, store)
        result = refresh_vnfcs(api, modified, replaced=replaced)
        progress.resource_changes = vnfc_changes(before, result)
        progress.result_fields = {"replaced_pods": replaced_pods(before, result)}
        return result

    return Operation(occ.MODIFY_INFO, request, instance, plan, store, op_occs, version, changed=changed, execute=execute,
                     diff=modify_diff(instance, modified, update), after_record=None if update is None else lambda: store.drop_rollback(instance))


# ---------------------------------------------------------------------------------------------
# Planning

def new_def_files(stored, paths, package_files):
    """The new package's def files: the stored ones it still has, then the listed ConfigMap/Secret files it adds.

    Tacker's requests list the renamed ConfigMap/Secret files (configmap_1.yaml -> configmap_2.yaml)
    in ``metadata.configmap_secret_paths``; a stored file the new package lacks drops out.
    """
    files = [path for path in stored if path in package_files]
    for position, path in enumerate(paths if isinstance(paths, list) else ()):
        clean = posixpath.normpath(str(path).replace("\\", "/"))
        if clean not in package_files:
            raise ValidationError(MODIFY_REQUEST, "metadata.{0}[{1}]".format(PATHS_KEY, position),
                                  "{0} is not a Kubernetes def file of the new package".format(path))
        if clean not in files:
            files.append(clean)
    return files


def plan_update(api, store, instance, package, paths, delete_removed, retry_of=None):
    """The container-update plan and what carrying it out needs; raises before anything is written."""
    state: CnfState = private_state(instance)
    deployed = state.get("deployed")
    if deployed is None:
        raise ConflictError("update containers of", "VNF instance {0}".format(instance["id"]),
                            "its record does not hold the deployed manifests (instantiated by an older version); terminate and instantiate it again")
    namespace = instance_namespace(instance)
    info_metadata = instance["instantiatedVnfInfo"].get("metadata") or {}
    package_files = set(package.to_dict()["kubernetes_def_files"])
    check_running_vdus(instance, deployed, package_files)
    files = new_def_files(info_metadata.get(DEF_FILES_PARAM) or [], paths, package_files)
    records = load_manifests(package, {"additionalParams": {DEF_FILES_PARAM: files}}, MODIFY_REQUEST)
    records = resolve_namespace(namespace, records, api.is_namespaced, allow_cluster_scoped=True, what=MODIFY_REQUEST)["manifests"]
    records = [label_record(record, instance["id"]) for record in with_deployed_replicas(records, deployed)]
    live = live_objects(api, namespace, instance["id"])
    if retry_of:
        saved = store.kept_rollback(instance, retry_of)
        live = before_first_attempt(live, saved, deployed) if saved else live
    plan = plan_container_update(deployed, records, live, paths, delete_removed, MODIFY_REQUEST)
    return container_update(plan, files, target_manifests(deployed, records, plan), records, live)


def check_running_vdus(instance, deployed, package_files):
    """A container update keeps every running VDU: the new package must have the def file of each one's workload."""
    files = {(kind_of(record), name_of(record)): record.get("file") for record in deployed}
    for vdu_id, record in sorted(vdu_records_of(instance).items()):
        key = (record["object"]["kind"], record["object"]["metadata"]["name"])
        if files.get(key) and files[key] not in package_files:
            raise ValidationError(MODIFY_REQUEST, "vnfdId", "the new package has no def file {0}, which holds {1} {2} of VDU {3} (running now); "
                                  "a container update never removes a running VDU".format(files[key], key[0], key[1], vdu_id))


def before_first_attempt(live, saved, deployed):
    """The live objects as they were before the first attempt of a retried update: the ConfigMaps/Secrets it
    replaced with their original content (kept in the rollback data), those it created left out."""
    originals = {object_key(obj): obj for obj in saved["config"]}
    deployed_keys = {object_key(record) for record in deployed}
    result = []
    for obj in live:
        key = object_key(obj)
        if kind_of(obj) in CONFIG_KINDS:
            if key in originals:
                obj = with_content(obj, originals[key])
            elif key not in deployed_keys:
                continue
        result.append(obj)
    return result


def dry_run_update(api, instance, update):
    """The API server's verdict on every write of the update (ConfigMap/Secret content, pod templates) before the first one."""
    instance_id, namespace = instance["id"], instance_namespace(instance)
    plan = update["plan"]
    config = plan["configmaps_secrets"]
    live, new = update["live_config"], update["new_config"]
    # Dry runs store nothing, so none depends on another: they are made together, the first refusal in this order raised.
    checks = []
    for key in [(entry["kind"], entry["name"]) for entry in config["update"]]:
        checks.append(functools.partial(judged, MODIFY_REQUEST, {"object": new[key]}, api.replace, with_content(live[key], new[key]), dry_run=True))
    for key in [(entry["kind"], entry["name"]) for entry in config["create"]]:
        checks.append(functools.partial(judged, MODIFY_REQUEST, {"object": new[key]}, create_or_adopt, api, label_object(new[key], instance_id),
                                        instance_id, dry_run=True))
    for entry in plan["restart"] + plan["template_only"]:
        if entry["action"] != ACTION_RECREATE:
            workload = {"apiVersion": API_VERSIONS[entry["kind"]], "kind": entry["kind"], "metadata": {"name": entry["name"], "namespace": namespace}}
            checks.append(functools.partial(judged, MODIFY_REQUEST, {"object": workload}, api.patch, workload["apiVersion"], entry["kind"], entry["name"],
                                            namespace, entry["patch"], STRATEGIC, dry_run=True))
    call_each(checks)


def container_update(plan, files, target, new_records, live):
    """What carrying out a container-update ``plan`` needs besides it: the new def files, the manifests
    deployed afterwards, and the ConfigMaps/Secrets by (kind, name), new and live."""
    return {"plan": plan, "files": files, "target": target, "new_config": config_objects(new_records), "live_config": config_objects(live)}


def with_deployed_replicas(records, deployed):
    """Replica counts belong to the scale level, not to the package: keep the deployed ones."""
    replicas = {object_key(item): (object_of(item).get("spec") or {}).get("replicas") for item in deployed}
    result = []
    for record in records:
        count = replicas.get(object_key(record))
        if count is not None and "replicas" in (record["object"].get("spec") or {}):
            record = dict(record, object=dict(record["object"], spec=dict(record["object"]["spec"], replicas=count)))
        result.append(record)
    return result


def live_objects(api, namespace, instance_id):
    selector = resource_selector(instance_id)
    objects = []
    for api_version, kind in LIVE_KINDS:
        objects.extend(api.list(api_version, kind, namespace, selector))
    return objects


def target_manifests(deployed, new_records, plan):
    """What is deployed once the plan is carried out: the old workloads with the new images (nothing else of
    them is applied), the new package's ConfigMaps/Secrets (identity only), the deleted ones gone."""
    reasons = {(entry["kind"], entry["name"]): entry["reasons"] for entry in plan["restart"] + plan["template_only"]}
    deleted = {(entry["kind"], entry["name"]) for entry in plan["configmaps_secrets"]["delete"]}
    new_keys = {object_key(item) for item in new_records}
    target = []
    for record in deployed:
        key = object_key(record)
        if kind_of(record) in CONFIG_KINDS:
            if key in new_keys or key in deleted:
                continue  # the new package's version follows; a deleted one is gone
        elif key in reasons:
            record = copy.deepcopy(record)
            with_images(pod_spec_of(record["object"]), reasons[key])
        target.append(record)
    target.extend(dict(record, object=identity(ref(record["object"]))) for record in new_records if kind_of(record) in CONFIG_KINDS)
    return target


def with_deployed(instance, update):
    """The record after the update: new def files, deployed manifests, and created/deleted ConfigMaps/Secrets."""
    result = copy.deepcopy(instance)
    info = result["instantiatedVnfInfo"]
    info["metadata"][DEF_FILES_PARAM] = update["files"]
    state: CnfState = info["metadata"][PRIVATE]
    state["deployed"] = update["target"]
    config = update["plan"]["configmaps_secrets"]
    gone = {(entry["kind"], entry["name"]) for entry in config["delete"]}
    resources = [item for item in state.get("resources") or [] if (item["kind"], item["name"]) not in gone]
    for entry in config["create"]:
        resources.append({"apiVersion": "v1", "kind": entry["kind"], "name": entry["name"], "namespace": instance_namespace(instance)})
    state["resources"] = resources
    return result


def modify_diff(before, after, update):
    """Before/after of the modified attributes and of the ConfigMap data; Secret values are masked."""
    diff = modification_diff(before, after)
    if update is not None:
        live, new = update["live_config"], update["new_config"]
        config = update["plan"]["configmaps_secrets"]
        for entry in config["update"] + config["create"]:
            key = (entry["kind"], entry["name"])
            label = "{0}/{1}".format(*key)
            diff["before"][label] = shown_content(live.get(key))
            diff["after"][label] = shown_content(new[key])
    return diff


# ---------------------------------------------------------------------------------------------
# Carrying a plan out (the operation, its retry and its rollback)

def carry_out(api, instance, update, progress, waits, store=None):
    """ConfigMaps/Secrets first (pods restarted afterwards read the new data), then one restart per workload.

    Returns the VNFC ids whose pods were replaced (their new pods are new VNFCs, with new ids).
    """
    namespace = instance_namespace(instance)
    plan = update["plan"]
    if store is not None:
        save_rollback(store, instance, update, progress["op_occ_id"])
    write_config(api, instance["id"], namespace, update, progress)
    deadline = waits.deadline()
    rolled, recreated = [], []
    for entry in plan["restart"] + plan["template_only"]:
        api_version = API_VERSIONS[entry["kind"]]
        if entry["action"] == ACTION_RECREATE:
            pod = dict(entry["pod"], metadata=dict(entry["pod"]["metadata"], namespace=namespace))
            live = api.get(api_version, "Pod", entry["name"], namespace)
            if live is not None:
                api.delete(api_version, "Pod", entry["name"], namespace, grace_seconds=0)
            recreate_pod(api, live or pod, pod, deadline)
            recreated.append(pod)
        else:
            api.patch(api_version, entry["kind"], entry["name"], namespace, entry["patch"], STRATEGIC)
            for pod in entry.get("pods", ()) if entry["action"] == ACTION_REPLACE_PODS else ():
                api.delete("v1", "Pod", pod, namespace, grace_seconds=0)
        rolled.append({"kind": entry["kind"], "name": entry["name"]})
        progress.setdefault("restarted", []).append(rolled[-1])
    wait_recreated(api, recreated, deadline)
    if waits.enabled and rolled:
        deleted_pods = {pod for entry in plan["restart"] for pod in entry.get("pods", ())}
        deadline.poll(lambda: not deleted_pods & {name_of(pod) for pod in instance_pods(api, namespace, instance["id"])},
                      "the replaced pods to be gone")
        wait_ready(api, [{"apiVersion": API_VERSIONS[item["kind"]], "kind": item["kind"], "metadata": {"name": item["name"], "namespace": namespace}}
                         for item in rolled if item["kind"] not in ("CronJob", "Job", "Pod")], deadline)
    restarted = {(entry["kind"], entry["name"]) for entry in plan["restart"]}
    return [item["id"] for item in instance["instantiatedVnfInfo"].get("vnfcResourceInfo") or []
            if (item["metadata"]["workloadKind"], item["metadata"]["workloadName"]) in restarted]


def replaced_pods(before, after_instance):
    """Per pod replaced: the VNFC and pod before, the new VNFC and pod (a VNFC's id follows its pod). Within a workload,
    its VNFCs that are gone and its new ones are paired in order, oldest first."""
    after = after_instance["instantiatedVnfInfo"].get("vnfcResourceInfo") or []
    old_ids, new_ids = {item["id"] for item in before}, {item["id"] for item in after}

    def workload(item):
        return "{0}/{1}".format(item["metadata"]["workloadKind"], item["metadata"]["workloadName"])

    result = []
    for name in sorted({workload(item) for item in before}):
        gone = [item for item in before if workload(item) == name and item["id"] not in new_ids]
        new = [item for item in after if workload(item) == name and item["id"] not in old_ids]
        result.extend({"old_vnfc_id": old["id"], "new_vnfc_id": item["id"], "vdu_id": old["vduId"], "workload": name,
                       "old_pod": old["computeResource"]["resourceId"], "new_pod": item["computeResource"]["resourceId"]}
                      for old, item in zip(gone, new))
    return result


def write_config(api, instance_id, namespace, update, progress):
    config = update["plan"]["configmaps_secrets"]
    live, new = update["live_config"], update["new_config"]
    for entry in config["update"]:
        key = (entry["kind"], entry["name"])
        api.replace(with_content(live[key], new[key]))
        progress.setdefault("updated", []).append("{0}/{1}".format(*key))
    for entry in config["create"]:
        create_or_adopt(api, label_object(new[(entry["kind"], entry["name"])], instance_id), instance_id)
        progress.setdefault("created", []).append("{0}/{1}".format(entry["kind"], entry["name"]))
    for entry in config["delete"]:
        api.delete("v1", entry["kind"], entry["name"], namespace)
        progress.setdefault("deleted", []).append("{0}/{1}".format(entry["kind"], entry["name"]))


def with_content(live, new):
    """The live object (its metadata, resourceVersion included) with the new content."""
    result = {key: value for key, value in live.items() if key not in ("data", "binaryData", "stringData", "status")}
    content = normalised_content(new)
    for section, values in content.items():
        if values:
            result[section] = values
    return result


# ---------------------------------------------------------------------------------------------
# Rollback data

def save_rollback(store, instance, update, op_occ_id):
    """Keep what the update replaces, before it is replaced; a retry adds to the first attempt's originals."""
    config = update["plan"]["configmaps_secrets"]
    live = update["live_config"]
    touched = [(entry["kind"], entry["name"]) for entry in config["update"] + config["delete"]]

    def merge(earlier, document):
        known = {object_key(obj) for obj in earlier["config"]}
        return dict(document, config=earlier["config"] + [obj for obj in document["config"] if object_key(obj) not in known])

    store.keep_rollback(instance, op_occ_id,
                        {"config": [content_only(live[key]) for key in touched if key in live], "target": update["target"]}, merge)


def content_only(obj):
    meta = obj["metadata"]
    metadata = {"name": meta["name"], "namespace": meta.get("namespace"), "labels": meta.get("labels") or {}}
    result = {"apiVersion": obj["apiVersion"], "kind": obj["kind"], "metadata": metadata}
    result.update({key: obj[key] for key in ("data", "binaryData", "type") if key in obj})
    return result


def plan_rollback(api: KubeApi, store: RecordStore, found: Found, failed: dict, waits: Optional[Waits] = None) -> Operation:
    """Undo a FAILED_TEMP container update: from what it deployed back to the record's (pre-operation) state."""
    waits = waits or Waits()
    instance, op_occs, version = found
    namespace = instance_namespace(instance)
    saved = store.kept_rollback(instance, failed["id"])
    plan = {"operation": occ.MODIFY_INFO, "vnf_instance_id": instance["id"], "rollback_of": failed["id"]}
    if saved is None:
        plan["note"] = "the operation wrote nothing on the VIM: only the op occ changes"
        return Operation(occ.MODIFY_INFO, failed.get("operationParams"), instance, plan, store, op_occs, version, changed=False)
    live = live_objects(api, namespace, instance["id"])
    originals = {object_key(obj): obj for obj in saved["config"]}
    live_config = config_objects(live)
    before = []
    for record in private_state(instance)["deployed"]:
        key = object_key(record)
        if kind_of(record) in CONFIG_KINDS:
            source = originals.get(key) or live_config.get(key)
            if source is None:
                continue
            record = dict(record, object=content_only(source))
        before.append(record)
    restore = plan_container_update(saved["target"], before, live, None, True, MODIFY_REQUEST)
    plan["container_update"] = restore
    update = container_update(restore, None, private_state(instance)["deployed"], before, live)
    dry_run_update(api, instance, update)

    def execute(progress):
        replaced = carry_out(api, instance, update, progress, waits)
        return refresh_vnfcs(api, instance, replaced=replaced)

    return Operation(occ.MODIFY_INFO, failed.get("operationParams"), instance, plan, store, op_occs, version, execute=execute,
                     after_record=lambda: store.drop_rollback(instance))


def plan_resume(api: KubeApi, store: RecordStore, found: Found, failed: dict, event: str, waits: Optional[Waits], package: Any = None,
                params: Optional[dict] = None) -> Operation:
    """Retry plans the request again with the package read again (what the first attempt did is kept); rollback restores
    what the rollback Secret kept."""
    if event == "rollback":
        return plan_rollback(api, store, found, failed, waits)
    return plan_modify(api, store, found, failed.get("operationParams"), package, params["delete_removed"], waits, retry_of=failed["id"])
