# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vnf_change_pkg on Kubernetes: ChangeCurrentVnfPkgRequest with a RollingUpdate, as Tacker v2 takes it.

The plan is k8s/package_change.py (pure): this module reads what it needs (the new package's def files
in the instance's namespace, sized for the current scale level; the live objects), has the API server
judge every write (server-side dry run), and carries the job out. Before its first write the job is
kept, with the objects as they were, in the rollback Secret next to the record: a retry runs the same
job again and a rollback runs :func:`package_change.rollback_job` of it, neither needing the package.
The record changes only when the job is done.
"""

from __future__ import annotations

import copy
import functools
import json
from typing import Any, Optional

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.args import masked_secrets
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.pool import call_each
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import package_change as change
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.api import KubeApi
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.instance_objects import create_or_adopt, deployed_manifests, judged
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import DEF_FILES_PARAM, identity, load_manifests, object_of, ref
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.namespaces import instance_namespace, resolve_namespace
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ordering import delete_propagation
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ownership import is_owned_by, label_record, resource_selector, without_new_template_label
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.pods import pods_and_owners
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.record import rollback_secret
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.restart import shown_object
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.references import object_key
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.vnfc import vdu_workloads, vnfc_resource_info, with_replicas
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.waiter import wait_gone, wait_ready
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import coordination
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import instance_run
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.modify import STRATEGIC, with_content
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.shared import refresh_vnfcs, vdu_records_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.state import CnfState
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import interface_scripts
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import PRIVATE, VNFC_COUNTS, Waits, private_state, sizing_rules, vnfc_changes, vnfc_counts
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.change_pkg import (
    MERGED_FIELDS,
    ONE_AT_A_TIME,
    ROLLOUT,
    SIDE_BY_SIDE,
    WHAT,
    merged_instance_fields,
    modifications_triggered,
    new_flavour,
    validate_rolling_update,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.sizing import initial_replicas, kept_counts
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import vnfd_identity

# Request fields a CNF has no use for: its connectivity is the def files' Services, not external VLs.
VM_ONLY_FIELDS = ("extVirtualLinks", "extManagedVirtualLinks")


def run_change_pkg(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_change_pkg on Kubernetes: the new package is read, and closed, while the change is planned."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

    if params.get("current_package"):
        # A CNF's old-VNF hook is read from the new package (its retry plans again from that package alone).
        raise ValidationError(occ.CHANGE_VNFPKG, "current_package", "is used on OpenStack only: on Kubernetes the hooks are read from the new package")
    with load_package(params["package"]) as package:
        def planner(api, store, found, request, waits):
            return plan_change_pkg(api, store, found, package, request, waits, params["allow_package_scripts"], params.get(ROLLOUT) or ONE_AT_A_TIME)

        return instance_run.on_instance(session.connect(params), planner, params, check_mode, diff_mode, name=occ.CHANGE_VNFPKG)


def plan_change_pkg(api: KubeApi, store: RecordStore, found: Found, package: Any, request: Optional[dict], waits: Optional[Waits] = None,
                    allow_scripts: bool = False, rollout: str = ONE_AT_A_TIME) -> Operation:
    """Plan the change of ``found``'s CNF to ``package``; an engine.Operation. Raises before any write when it cannot be done.

    ``rollout``: ONE_AT_A_TIME or SIDE_BY_SIDE (the VDUs' workloads written at once, then waited for together).
    """
    waits = waits or Waits()
    instance, op_occs, version = found
    new_vnfd = package.to_dict()["vnfd"]
    request = validate_rolling_update(request, instance, new_vnfd)
    for field in VM_ONLY_FIELDS:
        if request.get(field):
            raise ValidationError(WHAT, field, "a Kubernetes VNF has no external virtual links to change: its def files say how it is reached")
    params = request["additionalParams"]
    if not params.get(DEF_FILES_PARAM):
        raise ValidationError(WHAT, change.DEF_FILES_FIELD, "name the new package's Kubernetes def files (required for a Kubernetes VNF)")
    hooks = coordination.load_hooks(params, package, WHAT, allow_scripts)
    if rollout == SIDE_BY_SIDE and hooks:
        raise ValidationError(occ.CHANGE_VNFPKG, ROLLOUT, "side_by_side cannot be used with a coordination hook ({0}), which runs after each VDU".format(
            ", ".join(sorted(hook["name"] for hook in hooks.values()))))
    flavour = new_flavour(new_vnfd, instance)
    namespace = instance_namespace(instance)
    deployed = private_state(instance).get("deployed")
    if deployed is None:
        raise ConflictError("change the package of", "VNF instance {0}".format(instance["id"]),
                            "its record does not hold the deployed manifests (instantiated by an older version); terminate and instantiate it again")
    scale_status = new_scale_status(flavour, instance)
    counts, count_notes = vdu_counts(flavour, instance)
    records = new_manifests(api, package, request, instance, flavour, counts)
    new_vdus = {vdu_id: object_key(record) for vdu_id, record in vdu_workloads(flavour, records, WHAT).items()}
    named = [vdu_param["vdu_id"] for vdu_param in params["vdu_params"]]
    check_named(named, new_vdus)
    old_vdus = {vdu_id: object_key(record) for vdu_id, record in vdu_records_of(instance).items()}
    live = read_live(api, namespace, instance["id"], list(deployed) + records)
    job = change.plan_package_change(deployed, records, live, old_vdus, new_vdus, named, keeps_namespace=namespace)
    job.update(new_vdus=[[vdu_id, key[0], key[1]] for vdu_id, key in new_vdus.items()], old_vdus=[[vdu_id, key[0], key[1]] for vdu_id, key in old_vdus.items()])
    final = changed_record(instance, new_vnfd, flavour, request, job, scale_status, counts)
    final = interface_scripts.with_scripts(final, interface_scripts.for_package(package, final["instantiatedVnfInfo"]["flavourId"], allow_scripts, WHAT))
    changed = job["changed"] or not same_record(instance, final)
    dry_run_job(api, instance["id"], job, records, live)
    plan = dict(plan_of(instance, job, hooks), rollout=rollout)
    if count_notes:
        plan["lines"] = count_notes + plan.get("lines", [])
        plan["vnfc_counts"] = count_notes
    if not changed:
        plan["lines"] = ["no change: the VNF already runs this package as requested"]
    # The record after the change, and the objects it lists before it (a rollback goes back to those).
    document = {"job": job, "hooks": hooks, "vdu_params": params["vdu_params"], "record": final, "rollout": rollout,
                "resources": private_state(instance).get("resources") or []}
    # It must fit in its Secret: refused now, not after the op occ started.
    rollback_secret(instance["id"], namespace, "", document)

    def execute(progress):
        # Before the first write; a retry keeps the first attempt's job and originals.
        store.keep_rollback(instance, progress["op_occ_id"], dict(document, operation=occ.CHANGE_VNFPKG))
        return carry_out(api, instance, document, progress, waits)

    # The op occ (in the record, in every result) keeps the request with its vnfc params' passwords masked; the hooks get them from the kept job.
    return Operation(occ.CHANGE_VNFPKG, masked_secrets(request), instance, plan, store, op_occs, version, changed=changed, execute=execute,
                     instance_while_running=with_resources_of(instance, job), diff=change_diff(job), scripts=interface_scripts.recorded(final),
                     after_record=lambda: store.drop_rollback(instance))


# ---------------------------------------------------------------------------------------------
# Planning inputs

def new_scale_status(flavour, instance):
    """The instance's scale levels, per aspect of the new flavour (a new aspect starts at level 0)."""
    levels = {item["aspectId"]: item["scaleLevel"] for item in instance["instantiatedVnfInfo"].get("scaleStatus") or []}
    aspects = flavour.get("scaling_aspects") or {}
    for aspect_id, level in sorted(levels.items()):
        if aspect_id not in aspects and level:
            raise ValidationError(WHAT, "vnfdId", "the instance is at scale level {0} of aspect {1}, which the new VNFD does not have; "
                                                  "scale it to level 0 first".format(level, aspect_id))
    return [{"aspectId": aspect_id, "scaleLevel": levels.get(aspect_id, 0)} for aspect_id in aspects]


def new_manifests(api, package, request, instance, flavour, counts):
    """The new def files' objects as they are to be deployed: in the instance's namespace, with its labels, each VDU at its count.

    A workload deployed before pod templates got the Tacker label gets it only with another change of its template.
    """
    records = load_manifests(package, request, WHAT)
    records = resolve_namespace(instance_namespace(instance), records, api.is_namespaced, allow_cluster_scoped=True, what=WHAT)["manifests"]
    deployed = {object_key(record): record for record in private_state(instance).get("deployed") or ()}
    records = [label_record(record, instance["id"]) for record in records]
    records = [dict(record, object=without_new_template_label(record["object"], deployed.get(object_key(record)))) for record in records]
    return sized(flavour, records, counts)


def vdu_counts(flavour, instance):
    """``(counts, notes)``: pods per VDU under the new VNFD: each keeps its count (sizing.kept_counts), a VDU new to it
    starts as the recorded instantiation level (else its initial delta) says."""
    level_id = (private_state(instance).get("instantiation") or {}).get("instantiationLevelId")
    try:
        initial = {vdu_id: initial_replicas(flavour, vdu_id, level_id, WHAT) for vdu_id in flavour.get("vdus") or {}}
    except ValidationError as error:
        raise ValidationError(WHAT, "vnfdId", "the new VNFD cannot size the instance's new VDUs (instantiation level {0}): {1}".format(
            level_id, error.reason))
    return kept_counts(flavour, vnfc_counts(instance), initial)


def sized(flavour, records, counts):
    workloads = {(record["file"], record["index"]): vdu_id for vdu_id, record in vdu_workloads(flavour, records, WHAT).items()}
    return [with_replicas(record, counts.get(workloads[(record["file"], record["index"])]), WHAT) if (record["file"], record["index"]) in workloads
            else record for record in records]


def check_named(named, new_vdus):
    for index, vdu_id in enumerate(named):
        if vdu_id not in new_vdus:
            raise ValidationError(WHAT, "additionalParams.vdu_params[{0}].vdu_id".format(index),
                                  "VDU {0} has no workload in the new def files ({1})".format(vdu_id, change.DEF_FILES_FIELD))


def read_live(api, namespace, instance_id, records):
    """{(kind, name): live object} of this instance's objects among ``records`` (one LIST per namespaced kind)."""
    kinds = {}
    for record in records:
        obj = object_of(record)
        kinds.setdefault((obj["apiVersion"], obj["kind"]), set()).add(obj["metadata"]["name"])
    live = {}
    for (api_version, kind), names in sorted(kinds.items()):
        if api.is_namespaced(api_version, kind):
            found = api.list(api_version, kind, namespace, resource_selector(instance_id))
        else:
            found = [obj for obj in (api.get(api_version, kind, name) for name in sorted(names)) if obj is not None and is_owned_by(obj, instance_id)]
        live.update({object_key(obj): obj for obj in found if obj["metadata"]["name"] in names})
    return live


def dry_run_job(api, instance_id, job, records, live):
    """The API server's verdict on every create and update of the job before the first write; errors name the def file.

    ``live``: the objects as read for the plan (their resourceVersion makes the dry-run update conditional, as the update will be).
    """
    files = {object_key(record): record for record in records}
    # Dry runs store nothing, so none depends on another: they are made together, the first refusal in job order raised.
    checks = []
    for step in job["steps"]:
        for entry in step["actions"]:
            record = files.get((entry["kind"], entry["name"])) or {"object": identity(entry)}
            if entry["do"] == change.CREATE:
                checks.append(functools.partial(judged, WHAT, record, create_or_adopt, api, entry["object"], instance_id, dry_run=True))
            elif entry["do"] in (change.UPDATE, change.CONTENT) and live.get((entry["kind"], entry["name"])) is not None:
                checks.append(functools.partial(judged, WHAT, record, api.replace, written_over(live[(entry["kind"], entry["name"])], entry), dry_run=True))
            elif entry["do"] == change.RESTART:
                checks.append(functools.partial(judged, WHAT, record, api.patch, entry["apiVersion"], entry["kind"], entry["name"], entry.get("namespace"),
                                                entry["patch"], STRATEGIC, dry_run=True))
    call_each(checks)


# ---------------------------------------------------------------------------------------------
# The record after the change

def changed_record(instance, new_vnfd, flavour, request, job, scale_status, counts):
    """The VnfInstance once the job is done (its VNFCs are read from the pods then)."""
    result = copy.deepcopy(instance)
    result.update(vnfd_identity(new_vnfd))
    for field in MERGED_FIELDS:
        result.pop(field, None)
    result.update(merged_instance_fields(instance, request))
    info = result["instantiatedVnfInfo"]
    files = request["additionalParams"][DEF_FILES_PARAM]
    info["scaleStatus"] = scale_status
    info["metadata"][DEF_FILES_PARAM] = files
    private: CnfState = info["metadata"][PRIVATE]
    private["flavour"] = sizing_rules(flavour)
    private[VNFC_COUNTS] = dict(counts)
    private["deployed"] = deployed_manifests(job["target"])
    private["resources"] = [ref(object_of(record)) for record in job["target"]]
    private["instantiation"] = dict(private.get("instantiation") or {}, defFiles=files)
    return result


def same_record(before, after):
    """True when the record already says what the change would write (a re-run after success)."""
    def essence(instance):
        info = instance.get("instantiatedVnfInfo") or {}
        return {key: value for key, value in instance.items() if key != "instantiatedVnfInfo"}, info.get("scaleStatus"), info.get("metadata")
    # Through JSON, as the record gives it back: tuples become lists.
    return json.loads(json.dumps(essence(before))) == json.loads(json.dumps(essence(after)))


def with_resources_of(instance, job):
    """While the change runs, the record lists every object it may have created, so that a terminate after a fail deletes them."""
    resources = list(private_state(instance).get("resources") or [])
    known = {(item["kind"], item["name"]) for item in resources}
    return with_resources(instance, resources + [ref(object_of(record)) for record in job["target"] if object_key(record) not in known])


def with_resources(instance, resources):
    result = copy.deepcopy(instance)
    result["instantiatedVnfInfo"]["metadata"][PRIVATE]["resources"] = copy.deepcopy(resources)
    return result


# ---------------------------------------------------------------------------------------------
# Carrying it out (the change, its retry, its rollback)

def saved_job(store, instance, op_occ_id):
    """The job kept for ``op_occ_id`` before its first write; None when the operation wrote nothing."""
    document = store.kept_rollback(instance, op_occ_id)
    return document if document and document.get("operation") == occ.CHANGE_VNFPKG else None


def carry_out(api, instance, document, progress, waits, rollback=False):
    """Run the job (``rollback``: the way back), one step after the other; the VnfInstance afterwards."""
    job = change.rollback_job(document["job"]) if rollback else document["job"]
    record = with_resources(instance, document["resources"]) if rollback else document["record"]
    vdus = dict((vdu_id, (kind, name)) for vdu_id, kind, name in document["job"]["old_vdus" if rollback else "new_vdus"])
    deadline = waits.deadline()
    before = instance["instantiatedVnfInfo"].get("vnfcResourceInfo") or []
    for actions, ended in change.runs(job, side_by_side=document.get("rollout") == SIDE_BY_SIDE):
        for entry in actions:
            write(api, instance["id"], entry)
            progress.setdefault("done", []).append("{0} {1}/{2}".format(entry["do"], entry["kind"], entry["name"]))
        if waits.enabled:
            wait_ready(api, [identity(entry) for entry in actions if entry.get("wait") == "ready"], deadline)
            wait_gone(api, [identity(entry) for entry in actions if entry.get("wait") == "gone"], deadline)
        if ended is not None and ended.get("named") and ended["vdu_id"] in vdus:
            coordinate(api, instance, ended["vdu_id"], vdus[ended["vdu_id"]], document, rollback, waits)
    # Where a VDU's workload stays, its pods are replaced: the new pods are new VNFCs with ids of their own (as after a heal).
    staying = {vdu_id for vdu_id, kind, name in document["job"]["new_vdus"] if [vdu_id, kind, name] in document["job"]["old_vdus"]}
    result = refresh_vnfcs(api, record, replaced=[item["id"] for item in before if item["vduId"] in staying])
    progress.resource_changes = vnfc_changes(before, result)
    if not rollback:
        progress.op_occ_fields = {"modificationsTriggeredByVnfPkgChange": modifications_triggered(instance, result)}
    return result


def write(api, instance_id, entry):
    """One action; each can be sent again with the same result (a retry, or a rollback after any step)."""
    do, namespace = entry["do"], entry.get("namespace")
    if do == change.CREATE:
        create_or_adopt(api, entry["object"], instance_id)
        return
    live = api.get(entry["apiVersion"], entry["kind"], entry["name"], namespace)
    if live is not None and not is_owned_by(live, instance_id):
        raise ConflictError(do, "{0} {1}".format(entry["kind"], entry["name"]), "it does not belong to VNF instance {0}".format(instance_id))
    if do == change.DELETE:
        if live is not None:
            api.delete(entry["apiVersion"], entry["kind"], entry["name"], namespace, propagation=delete_propagation(entry["kind"]))
    elif live is None:
        create_or_adopt(api, entry.get("object") or {}, instance_id)
    elif do == change.RESTART:
        api.patch(entry["apiVersion"], entry["kind"], entry["name"], namespace, entry["patch"], STRATEGIC)
    else:
        api.replace(written_over(live, entry))


def written_over(live, entry):
    """The object an update or content action PUTs over ``live``: conditional on its resourceVersion."""
    if entry["do"] == change.CONTENT:
        return with_content(live, entry["object"])
    obj = copy.deepcopy(entry["object"])
    obj["metadata"]["resourceVersion"] = live["metadata"]["resourceVersion"]
    return obj


def coordinate(api, instance, vdu_id, workload, document, rollback, waits):
    """The coordination hook after a VDU rolled (rolled back): once per VNFC (pod) of the VDU, as on Heat."""
    hook = document["hooks"].get(coordination.OLD_VNF if rollback else coordination.NEW_VNF)
    if not hook:
        return
    namespace = instance_namespace(instance)
    vdu_param = next((item for item in document["vdu_params"] if item["vdu_id"] == vdu_id), {})
    kind, name = workload
    records = {vdu_id: {"object": {"apiVersion": "v1" if kind == "Pod" else "apps/v1", "kind": kind, "metadata": {"name": name, "namespace": namespace}}}}
    pods, owners = pods_and_owners(api, namespace, instance["id"], records)
    ips = {pod["metadata"]["name"]: (pod.get("status") or {}).get("podIP") for pod in pods}
    for item in vnfc_resource_info(records, pods, owners, namespace=namespace):
        pod = item["computeResource"]["resourceId"]
        vnfc = {"resource": pod, "vdu_id": vdu_id, "pod": pod, "pod_uid": item["metadata"]["podUid"], "pod_ip": ips.get(pod),
                "workload": "{0}/{1}".format(kind, name), "namespace": namespace}
        if coordination.is_script(hook):
            given = coordination.script_input(vdu_param.get(coordination.vnfc_param_key(rollback)), ips.get(pod), rollback)
            coordination.run_script(hook, pod, given, waits.timeout)
        else:
            coordination.run_hook(hook, coordination.hook_variables(occ.CHANGE_VNFPKG, instance["id"], vnfc, vdu_param, rollback), waits.timeout)


# ---------------------------------------------------------------------------------------------
# Retry, rollback, fail

def plan_retry(api: KubeApi, store: RecordStore, found: Found, failed: dict, package: Any = None, waits: Optional[Waits] = None,
               allow_scripts: bool = False) -> Operation:
    """Run the failed change's job again (each action is idempotent); it wrote nothing yet: plan it again from ``package``."""
    waits = waits or Waits()
    instance, op_occs, version = found
    document = saved_job(store, instance, failed["id"])
    if document is None:
        if package is None:
            raise ValidationError("vnf_lcm_op_occ", "package", "the change of package wrote nothing yet, so its retry plans it again: give the package")
        return plan_change_pkg(api, store, found, package, failed.get("operationParams"), waits, allow_scripts)
    plan = dict(plan_of(instance, document["job"], document["hooks"]), retry_of=failed["id"])

    def execute(progress):
        return carry_out(api, instance, document, progress, waits)

    # The new package's scripts, as the change itself ran them.
    return Operation(occ.CHANGE_VNFPKG, failed.get("operationParams"), instance, plan, store, op_occs, version, execute=execute,
                     instance_while_running=with_resources_of(instance, document["job"]), scripts=interface_scripts.recorded(document["record"]),
                     after_record=lambda: store.drop_rollback(instance))


def plan_rollback(api: KubeApi, store: RecordStore, found: Found, failed: dict, waits: Optional[Waits] = None) -> Operation:
    """Undo a FAILED_TEMP change: every object it touched back as it was, the record unchanged (it never changed)."""
    waits = waits or Waits()
    instance, op_occs, version = found
    document = saved_job(store, instance, failed["id"])
    plan = {"operation": occ.CHANGE_VNFPKG, "vnf_instance_id": instance["id"], "rollback_of": failed["id"]}
    if document is None:
        plan["note"] = "the operation wrote nothing on the VIM: only the op occ changes"
        return Operation(occ.CHANGE_VNFPKG, failed.get("operationParams"), instance, plan, store, op_occs, version, changed=False)
    back = change.rollback_job(document["job"])
    plan.update(lines=change.plan_lines(back), summary=change.summary(back))

    def execute(progress):
        return carry_out(api, instance, document, progress, waits, rollback=True)

    return Operation(occ.CHANGE_VNFPKG, failed.get("operationParams"), instance, plan, store, op_occs, version, execute=execute,
                     instance_while_running=with_resources_of(instance, document["job"]), after_record=lambda: store.drop_rollback(instance))


# ---------------------------------------------------------------------------------------------
# What the user sees

def plan_of(instance, job, hooks):
    return {"operation": occ.CHANGE_VNFPKG, "vnf_instance_id": instance["id"], "namespace": instance_namespace(instance),
            "steps": [{"name": step["name"], "vdu_id": step.get("vdu_id"), "moved": step.get("moved", False),
                       "actions": [{key: value for key, value in entry.items() if key not in ("object", "patch")} for entry in step["actions"]]}
                      for step in job["steps"] if step["actions"]],
            "summary": change.summary(job), "kept_vdus": job["kept_vdus"], "hooks": sorted(hook["name"] for hook in hooks.values()),
            "lines": change.plan_lines(job)}


def change_diff(job):
    """Before/after of every object the change writes (Secret values masked)."""
    before, after = {}, {}
    for step in job["steps"]:
        for entry in step["actions"]:
            label = "{0}/{1}".format(entry["kind"], entry["name"])
            before[label] = shown_object(job["originals"].get(label))
            after[label] = None if entry["do"] == change.DELETE else shown_object(entry.get("object"))
    return {"before": before, "after": after}


def plan_resume(api: KubeApi, store: RecordStore, found: Found, failed: dict, event: str, waits: Optional[Waits], package: Any = None,
                params: Optional[dict] = None) -> Operation:
    """Retry goes on with the job kept before the first write; rollback runs it backwards."""
    if event == "rollback":
        return plan_rollback(api, store, found, failed, waits)
    return plan_retry(api, store, found, failed, package, waits)
