# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Drift of a CNF of def files repaired on request (vnf_instantiate's ``reconcile``: :func:`plan_reconcile`), as
lcm/cnf/drift.py finds it.

A repair is a HEAL of the VNF rather than of VNFCs: its op occ's operationParams are ``{"cause": "drift",
"additionalParams": {"reconcile": true}}``, and its retry (lcm/cnf/heal.py plan_resume) repairs the drift found then.
"""

from __future__ import annotations

from typing import Callable, Optional

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.pool import run_all
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import drift, restart
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.api import KubeApi
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.instance_objects import create_or_adopt, judged
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import DEF_FILES_PARAM, kind_of, load_manifests, name_of, object_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.namespaces import instance_namespace, resolve_namespace
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ordering import create_rank, delete_propagation
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ownership import label_object
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.references import CONFIG_KINDS, WORKLOAD_KINDS, pod_spec_of, references_by_config
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.waiter import wait_ready
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.drift import found_drift
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.shared import refresh_vnfcs
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import Waits, private_state, vnfc_changes
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import HEAL_VNF_REQUEST, RECONCILE_REQUEST
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED, require_instantiation_state

APPLY, CREATE, DELETE = "apply", "create", "delete"
NOT_REPAIRED_NOTE = "its content is in the package only (ConfigMap, Secret): give the package to repair it"
# How a workload restarts to read a ConfigMap or Secret whose content was restored: its pod template patched.
STRATEGIC_MERGE = "application/strategic-merge-patch+json"


def package_configs(api, package, instance):
    """``{(kind, name): manifest}`` of the ConfigMaps and Secrets of the instance's def files in ``package``, as they
    would be deployed (its namespace and labels): what their drift is compared with and repaired to."""
    info = instance.get("instantiatedVnfInfo") or {}
    request = {"flavourId": info.get("flavourId"), "additionalParams": {DEF_FILES_PARAM: (info.get("metadata") or {}).get(DEF_FILES_PARAM)}}
    records = resolve_namespace(instance_namespace(instance), load_manifests(package, request), api.is_namespaced, allow_cluster_scoped=True)["manifests"]
    return labelled_configs(records, instance["id"])


def labelled_configs(records, instance_id):
    """``{(kind, name): labelled manifest}`` of the ConfigMaps and Secrets among manifest ``records``."""
    return {(kind_of(record), name_of(record)): label_object(object_of(record), instance_id) for record in records if kind_of(record) in CONFIG_KINDS}


def repair_action(drifted):
    """How a drifted object is repaired: its manifest applied, created again, an unexpected one deleted; None: it cannot be."""
    status = drifted["entry"]["status"]
    if status == drift.UNEXPECTED:
        return DELETE
    if drifted["manifest"] is None:
        return None
    return APPLY if status == drift.CHANGED else CREATE


def config_restarts(instance, found):
    """``[{"apiVersion", "kind", "name", "reasons", "patch"}]``: the workloads that read a key of a ConfigMap or Secret whose content is
    restored (k8s/restart.py's rules: only the keys a workload reads), each with the pod-template patch that restarts it.
    A workload kind that rolls otherwise (a bare Pod, a Job, OnDelete) is listed without a patch, to heal."""
    restored = {(item["entry"]["kind"], item["entry"]["name"]): item for item in found
                if item["entry"]["status"] == drift.CHANGED and item["entry"]["kind"] in CONFIG_KINDS}
    changes = {key: restart.changed_keys(item["live"], item["expected"]) for key, item in restored.items()}
    contents = {key: restart.content_hash(item["expected"]) for key, item in restored.items()}
    restarts = []
    for record in private_state(instance).get("deployed") or ():
        if kind_of(record) not in WORKLOAD_KINDS:
            continue
        references = references_by_config(pod_spec_of(record) or {})
        reasons = restart.config_reasons(references, changes)
        if not reasons:
            continue
        entry = {"apiVersion": object_of(record)["apiVersion"], "kind": kind_of(record), "name": name_of(record), "reasons": reasons}
        if restart.restart_action(kind_of(record), record) == restart.ACTION_ROLLOUT:
            entry["patch"] = restart.restart_patch(object_of(record), [], restart.config_hash(references, contents))
        else:
            entry["note"] = "it does not roll by itself: heal its VNFCs (vnf_heal) to read the restored content"
        restarts.append(entry)
    return restarts


def plan_reconcile(api: KubeApi, store: RecordStore, found: Found, config_manifests: Optional[dict] = None, waits: Optional[Waits] = None,
                   refresh: Callable[..., dict] = refresh_vnfcs, request: Optional[dict] = None) -> Operation:
    """Repair the drift of a CNF (lcm/cnf/drift.py found_drift) as a HEAL op occ: each changed object's manifest applied
    as the drift check's dry run applied it (so only the fields that drifted change), each missing one created again,
    each unexpected one deleted; the workloads that read a restored ConfigMap/Secret key restarted, no other.
    ``config_manifests``: the package's ConfigMaps and Secrets (:func:`package_configs`); without them those are only
    looked for, and a missing one is reported, not repaired. No drift: nothing to do (``changed: false``). ``request``: the
    HealVnfRequest the op occ records (vnf_heal's, the closed loop's), else :data:`RECONCILE_REQUEST`. A record that keeps
    no deployed manifests (a Helm chart's CNF, a record of an older version) is refused: only presence could be read."""
    waits = waits or Waits()
    request = request or RECONCILE_REQUEST
    instance, op_occs, version = found
    require_instantiation_state(instance, INSTANTIATED, occ.HEAL)
    if not private_state(instance).get("deployed"):
        raise ValidationError(HEAL_VNF_REQUEST, "additionalParams.reconcile", "the record of VNF instance {0} keeps no deployed manifests (a Helm "
                              "chart's CNF, or a record of an older version): its drift cannot be repaired".format(instance["id"]))
    drifted = found_drift(api, instance, config_manifests)
    repairs = [(item, repair_action(item)) for item in drifted]
    restarts = config_restarts(instance, drifted)
    plan = {"operation": occ.HEAL, "vnf_instance_id": instance["id"], "drift": "{0} objects".format(len(drifted)),
            "repair": [dict(item["entry"], action=action) for item, action in repairs if action],
            "restart": [{key: value for key, value in entry.items() if key != "patch"} for entry in restarts]}
    not_repaired = [dict(item["entry"], note=NOT_REPAIRED_NOTE) for item, action in repairs if not action]
    if not_repaired:
        plan["not_repaired"] = not_repaired
    diff = {"before": {describe_entry(item["entry"]): shown_fields(item["entry"], "live") for item, action in repairs if action},
            "after": {describe_entry(item["entry"]): shown_fields(item["entry"], "expected") for item, action in repairs if action}}
    if not plan["repair"]:
        plan["note"] = "no drift to repair" if not drifted else "no drift that can be repaired"
        return Operation(occ.HEAL, request, instance, plan, store, op_occs, version, changed=False)
    # The API server's verdict on each create before the first write (the applies had theirs in found_drift).
    run_all(lambda item: judged(HEAL_VNF_REQUEST, {"object": item["manifest"]}, create_or_adopt, api, item["manifest"], instance["id"], dry_run=True),
            [item for item, action in repairs if action == CREATE])

    def execute(progress):
        before = (instance.get("instantiatedVnfInfo") or {}).get("vnfcResourceInfo") or []
        # Deletes first, then in create order: a restored ConfigMap is there before the workload that reads it.
        for item, action in sorted(repairs, key=lambda pair: (pair[1] != DELETE, create_rank(pair[0]["entry"]["kind"]))):
            entry = item["entry"]
            if action == DELETE:
                api.delete(entry["apiVersion"], entry["kind"], entry["name"], entry.get("namespace"), propagation=delete_propagation(entry["kind"]))
            elif action == APPLY:
                api.apply(item["manifest"], drift.FIELD_MANAGER)
            elif action == CREATE:
                create_or_adopt(api, item["manifest"], instance["id"])
            else:
                continue
            progress.setdefault("repaired", []).append({"kind": entry["kind"], "name": entry["name"], "action": action})
        namespace = instance_namespace(instance)
        for entry in restarts:
            if entry.get("patch"):
                api.patch(entry["apiVersion"], entry["kind"], entry["name"], namespace, entry["patch"], patch_type=STRATEGIC_MERGE)
                progress.setdefault("restarted", []).append({"kind": entry["kind"], "name": entry["name"]})
        if waits.enabled:
            restarted = [{"apiVersion": entry["apiVersion"], "kind": entry["kind"], "metadata": {"name": entry["name"], "namespace": namespace}}
                         for entry in restarts if entry.get("patch")]
            wait_ready(api, [item["manifest"] for item, action in repairs if action in (APPLY, CREATE)] + restarted, waits.deadline())
        result = refresh(api, instance)
        progress.resource_changes = vnfc_changes(before, result)
        return result

    return Operation(occ.HEAL, request, instance, plan, store, op_occs, version, execute=execute, diff=diff)


def describe_entry(entry):
    return "{0} {1}".format(entry["kind"], entry["name"])


def shown_fields(entry, side):
    """What a drifted object's diff shows of one side: its fields (a Secret's values masked), or whether it is there."""
    if entry["status"] == drift.CHANGED:
        return {field["path"]: field[side] for field in entry["fields"]}
    present = (entry["status"] == drift.UNEXPECTED) == (side == "live")
    return "present" if present else "absent"
