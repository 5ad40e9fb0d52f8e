# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Instantiate a CNF on Kubernetes; retry (planned again) or roll back a FAILED_TEMP instantiate.

Nothing here writes before the plan is complete; the writes happen in the operation's
``prepare``/``execute``, which engine.run calls (never in check mode).
"""

from __future__ import annotations

import copy
import functools
from typing import Any, Optional

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, ValidationError, VimError, VnfLcmError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.pool import first_error, run_all, settle
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.api import KubeApi
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.instance_objects import create_or_adopt, delete_owned, deployed_manifests, judged
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import DEF_FILES_PARAM, INSTANTIATE_VNF_REQUEST, describe, load_manifests, ref
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.namespaces import instance_namespace, resolve_namespace, with_namespace
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ordering import create_waves, sort_for_create, sort_for_delete
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ownership import label_record
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.store import SecretRecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.vnfc import vdu_workloads, with_replicas
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.waiter import wait_ready
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.shared import (
    recorded_resources,
    refresh_vnfcs,
    with_pending_resources,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import interface_scripts
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import instantiation
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.drift import instance_drift
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.reconcile import labelled_configs, plan_reconcile
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.state import CnfState
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import (
    PRIVATE,
    VNFC_COUNTS,
    Waits,
    private_state,
    sizing_rules,
    vnfc_changes,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import waits as waits_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.sizing import initial_replicas, initial_scale_status
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import validate_instantiate_request
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import recordable_vims
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import (
    INSTANTIATED,
    new_vnf_instance,
    with_instantiate_fields,
    without_instantiated_info,
)


def run_instantiate(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_instantiate on Kubernetes (lcm/instantiation.py). The VNFD's interface scripts the package lacks are refused only
    when they are to run (interface_scripts.py)."""
    kube = session.connect(params)

    def plan(package, name, description, metadata):
        return plan_instantiate(kube.api, package, name, params["request"], description, params.get("vnf_instance_id"), params["namespace_policy"],
                                params["allow_cluster_scoped"], waits_of(params), params.get("namespace"), metadata, params["allow_package_scripts"],
                                params.get("reconcile", False))

    return instantiation.run_instantiate(kube, params, plan, check_mode, diff_mode)


def plan_instantiate(api: KubeApi, package: Any, name: Optional[str], request: Optional[dict], description: Optional[str] = None,
                     instance_id: Optional[str] = None, namespace_policy: str = "rewrite", allow_cluster_scoped: bool = False,
                     waits: Optional[Waits] = None, option_namespace: Optional[str] = None, metadata: Optional[dict] = None,
                     allow_scripts: bool = False, reconcile: bool = False) -> Operation:
    """Create (when needed) and instantiate a CNF from ``package`` as ``request`` says; a new instance has ``metadata``.
    ``allow_scripts``: the user's opt-in to the VNFD's interface scripts (lcm/interface_scripts.py). An instance already
    instantiated so: its drift in the plan, and with ``reconcile`` repaired (lcm/cnf/reconcile.py)."""
    waits = waits or Waits()
    vnfd = package.to_dict()["vnfd"]
    request = validate_instantiate_request(request, vnfd)
    flavour = vnfd["flavours"][request["flavourId"]]
    params = request.get("additionalParams") or {}
    reviews = []
    manifests = load_manifests(package, request, create_only=reviews)
    namespace_plan = resolve_namespace(params.get("namespace"), manifests, api.is_namespaced, namespace_policy, allow_cluster_scoped,
                                       option_namespace=option_namespace)
    namespace = namespace_plan["namespace"]
    if not namespace_plan["creates_namespace"] and api.namespace_exists(namespace) is False:
        raise ValidationError("InstantiateVnfRequest", "additionalParams.namespace",
                              "namespace {0!r} does not exist and the def files do not create it".format(namespace))
    store = SecretRecordStore(api, namespace)
    found = store.find(instance_id, name)
    instance, op_occs, version = found or (new_vnf_instance(vnfd, name, description, metadata, instance_id), [], None)
    wanted = instantiation_summary(request, namespace)
    if instance.get("instantiationState") == INSTANTIATED:
        check_instantiated_as(instance, wanted)
        # The package's ConfigMaps and Secrets are what the record does not keep: compared when it is the instance's.
        same_package = vnfd.get("descriptor_id") == instance.get("vnfdId")
        configs = labelled_configs(namespace_plan["manifests"], instance["id"]) if same_package else None
        if reconcile:
            instantiation.check_package_of(instance, vnfd.get("descriptor_id"))
            return plan_reconcile(api, store, found, configs, waits)
        return already_instantiated(api, instance, wanted, store, op_occs, version, configs)

    scripts = interface_scripts.for_package(package, request["flavourId"], allow_scripts, INSTANTIATE_VNF_REQUEST)
    level_id = request.get("instantiationLevelId")
    records = sized_records(flavour, namespace_plan["manifests"], level_id)
    records = sort_for_create([label_record(record, instance["id"]) for record in records])
    questions = placed_questions(api, reviews, namespace)
    vdus = vdu_workloads(flavour, records)
    plan = {
        "operation": occ.INSTANTIATE,
        "vnf_instance_id": instance["id"],
        "namespace": namespace,
        "namespace_reason": namespace_plan["reason"],
        "namespace_rewrites": namespace_plan["rewrites"],
        "cluster_scoped": namespace_plan["cluster_scoped"],
        "warnings": namespace_plan["warnings"],
        "create": [dict(ref(record["object"]), file=record["file"]) for record in records],
        "ask": [shown_question(question) for question in questions],
        "vdus": {vdu_id: dict(ref(record["object"]), replicas=(record["object"].get("spec") or {}).get("replicas"))
                 for vdu_id, record in vdus.items()},
    }
    namespaces_first = [record["object"] for record in records if record["object"]["kind"] == "Namespace"]
    others = [record["object"] for record in records if record["object"]["kind"] != "Namespace"]
    # The API server's verdict on every object before the first write; objects in a namespace the
    # package itself creates can only be judged once it exists (prepare).
    to_create = [obj for obj in namespaces_first if api.get(obj["apiVersion"], obj["kind"], obj["metadata"]["name"]) is None]
    later = {obj["metadata"]["name"] for obj in to_create}

    def judged_now(record):
        obj = record["object"]
        return obj["metadata"]["name"] in later if obj["kind"] == "Namespace" else obj["metadata"].get("namespace") not in later

    if found is None:
        # A run creating an instance of this name now: said as such, not as a conflict over one of its objects.
        store.check_name_free(instance)
    try:
        dry_run_creates(api, [record for record in records if judged_now(record)], instance["id"])
        dry_run_questions(api, [question for question in questions if question["namespace"] not in later])
    except ValidationError:
        if found is None:
            store.check_name_free(instance)
        raise
    claimed = []

    def prepare():
        # The record lives in the VNF namespace, so a Namespace the package brings comes first.
        for obj in to_create:
            api.create(obj)
            claimed.append(ref(obj))
        try:
            dry_run_creates(api, [record for record in records if not judged_now(record)], instance["id"])
            dry_run_questions(api, [question for question in questions if question["namespace"] in later])
        except VnfLcmError:
            for item in claimed:
                api.delete(item["apiVersion"], item["kind"], item["name"])
            raise

    def execute(progress):
        created = progress.setdefault("created", list(claimed))
        create = functools.partial(create_or_adopt, api, instance_id=instance["id"])
        for wave in create_waves(others):
            outcomes = settle(create, wave)
            created.extend(ref(obj) for obj, outcome in zip(wave, outcomes) if outcome is not None and outcome.error is None)
            first_error(outcomes)
        result = with_instantiate_fields(dict(instance, instantiationState=INSTANTIATED), request)
        result = with_namespace(result, namespace)
        private: CnfState = {"flavour": sizing_rules(flavour), "resources": created, "instantiation": wanted,
                             "deployed": deployed_manifests(records), interface_scripts.KEY: scripts, VNFC_COUNTS: replicas_of(vdus)}
        result["instantiatedVnfInfo"] = {
            "flavourId": request["flavourId"],
            "vnfState": "STARTED",
            "scaleStatus": initial_scale_status(flavour, level_id),
            "metadata": {"namespace": namespace, DEF_FILES_PARAM: params[DEF_FILES_PARAM], PRIVATE: private},
        }
        if request.get("vimConnectionInfo"):
            result["vimConnectionInfo"] = recordable_vims(request["vimConnectionInfo"])
        if questions:
            # Once the VNF's objects exist (a review may ask about the RBAC they bring); their answers are the run's only.
            progress.result_fields = {"answers": [dict(shown_question(question), status=(api.ask(question["object"], question["namespace"]) or {})
                                                       .get("status")) for question in questions]}
        if waits.enabled:
            wait_ready(api, others, waits.deadline())
        result = refresh_vnfcs(api, result, vdus)
        progress.resource_changes = vnfc_changes([], result)
        return result

    # While it runs (and should it stop half-way), the record lists what it may have created, so that a
    # rollback needs no package and a terminate after a ``fail`` leaves nothing behind.
    pending = with_pending_resources(with_namespace(instance, namespace), request["flavourId"], namespace, [ref(record["object"]) for record in records])
    return Operation(occ.INSTANTIATE, request, with_namespace(instance, namespace), plan, store, op_occs, version, prepare=prepare, execute=execute,
                     instance_while_running=interface_scripts.with_scripts(pending, scripts), scripts=scripts,
                     diff={"before": {"instantiationState": instance.get("instantiationState")},
                           "after": {"instantiationState": INSTANTIATED, "namespace": namespace, "objects": [describe(r) for r in records]}})


def replicas_of(vdus):
    """VDU id -> the replicas its workload is deployed with (a bare Pod, or a workload that leaves them out: 1)."""
    return {vdu_id: (record["object"].get("spec") or {}).get("replicas", 1) for vdu_id, record in sorted(vdus.items())}


def placed_questions(api, reviews, namespace):
    """The package's reviews (manifests.CREATE_ONLY_KINDS) as they will be asked, in package order: a namespaced one in
    the VNF's namespace. A kind this cluster does not serve is refused now, before any write."""
    questions = []
    for record in reviews:
        obj = record["object"]
        namespaced = api.is_namespaced(obj["apiVersion"], obj["kind"])
        if namespaced is None:
            raise ValidationError(INSTANTIATE_VNF_REQUEST, record["file"], "{0} ({1}) is not served by this cluster".format(obj["kind"], obj["apiVersion"]))
        question = copy.deepcopy(obj)
        if namespaced:
            question.setdefault("metadata", {})["namespace"] = namespace
            # A LocalSubjectAccessReview asks about its own namespace: the API server wants both the same.
            attributes = (question.get("spec") or {}).get("resourceAttributes")
            if isinstance(attributes, dict):
                attributes["namespace"] = namespace
        questions.append({"object": question, "file": record["file"], "namespace": namespace if namespaced else None})
    return questions


def dry_run_questions(api, questions):
    """The API server's verdict on asking each review (may this user ask it, is it valid), before the first write."""
    def dry_run(question):
        try:
            judged(INSTANTIATE_VNF_REQUEST, question, api.ask, question["object"], question["namespace"], dry_run=True)
        except VimError as error:
            raise ValidationError(INSTANTIATE_VNF_REQUEST, question["file"], error.reason)
    run_all(dry_run, questions)


def shown_question(question):
    return {"kind": question["object"]["kind"], "file": question["file"], "namespace": question["namespace"]}


def dry_run_creates(api, records, instance_id, what=INSTANTIATE_VNF_REQUEST):
    """Ask the API server to create each object without storing it: RBAC, admission, quota, validation and size
    are judged before anything is written. An object that exists must be this instance's (a retry). The dry runs
    store nothing, so none depends on another: they are made together (common/pool.py)."""
    def dry_run(record):
        try:
            judged(what, record, create_or_adopt, api, record["object"], instance_id, dry_run=True)
        except ConflictError as error:
            raise ValidationError(what, record.get("file"), "{0}: {1}".format(describe(record), error.reason))
    run_all(dry_run, records)


def instantiation_summary(request, namespace):
    """What makes two instantiate requests the same one (for idempotent re-runs)."""
    params = request.get("additionalParams") or {}
    return {"flavourId": request["flavourId"], "instantiationLevelId": request.get("instantiationLevelId"),
            "defFiles": params.get(DEF_FILES_PARAM), "namespace": namespace}


def check_instantiated_as(instance, wanted):
    done = private_state(instance).get("instantiation")
    if done != wanted:
        raise ConflictError("instantiate", "VNF instance {0}".format(instance["id"]),
                            "it is already INSTANTIATED as {0}, not {1}; terminate it first, or use vnf_scale / vnf_change_pkg".format(done, wanted))


def already_instantiated(api, instance, wanted, store, op_occs, version, configs=None):
    """Nothing to do; the plan says how many objects drifted (lcm/instantiation.py drift_in_plan)."""
    plan = {"operation": occ.INSTANTIATE, "vnf_instance_id": instance["id"], "namespace": wanted["namespace"], "create": [],
            "note": "already instantiated as requested"}
    drifted = instantiation.drift_in_plan(plan, lambda: instance_drift(api, instance, configs))
    if drifted:
        plan["note"] += "; " + drifted
    return Operation(occ.INSTANTIATE, {}, instance, plan, store, op_occs, version, changed=False)


def sized_records(flavour, records, level_id):
    """The manifest records with each VDU workload sized for the instantiation level."""
    sizes = {}
    for vdu_id, record in vdu_workloads(flavour, records).items():
        sizes[(record["file"], record["index"])] = initial_replicas(flavour, vdu_id, level_id)
    return [with_replicas(record, sizes[(record["file"], record["index"])]) if (record["file"], record["index"]) in sizes else record
            for record in records]


def plan_instantiate_rollback(api: KubeApi, store: RecordStore, found: Found, failed: dict, package: Any = None,
                              waits: Optional[Waits] = None) -> Operation:
    """Undo a FAILED_TEMP instantiate: delete what it created (the objects its record lists, else those of its
    def files in ``package``) that carry the instance's labels."""
    waits = waits or Waits()
    instance, op_occs, version = found
    request = failed.get("operationParams") or {}
    resources = recorded_resources(instance)
    if not resources:
        records = resolve_namespace(instance_namespace(instance), load_manifests(package, request), api.is_namespaced, allow_cluster_scoped=True)["manifests"]
        resources = [ref(record["object"]) for record in records]
    # A Namespace it created stays: the record (the instance, NOT_INSTANTIATED) lives there.
    created = sort_for_delete([item for item in resources if item["kind"] != "Namespace"])
    plan = {"operation": occ.INSTANTIATE, "vnf_instance_id": instance["id"], "rollback_of": failed["id"], "delete": created}

    def execute(progress):
        delete_owned(api, instance["id"], created, None, waits, progress)
        return without_instantiated_info(instance)

    return Operation(occ.INSTANTIATE, request, instance, plan, store, op_occs, version, execute=execute)


def plan_resume(api: KubeApi, store: RecordStore, found: Found, failed: dict, event: str, waits: Optional[Waits], package: Any = None,
                params: Optional[dict] = None) -> Operation:
    """Retry plans the instantiate again (the package read again, the module's namespace options); rollback deletes
    what it created."""
    if event == "rollback":
        return plan_instantiate_rollback(api, store, found, failed, package, waits)
    instance = found[0]
    return plan_instantiate(api, package, instance.get("vnfInstanceName"), failed.get("operationParams"), instance.get("vnfInstanceDescription"),
                            instance["id"], params["namespace_policy"], params["allow_cluster_scoped"], waits, params.get("namespace"),
                            allow_scripts=interface_scripts.recorded(instance).get("allowed", False))
