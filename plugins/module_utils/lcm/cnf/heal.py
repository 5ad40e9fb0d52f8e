# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Heal a CNF's VNFCs on Kubernetes: their pods replaced (a bare Pod recreated under its name).

A VNFC's id follows its pod (k8s/vnfc.py), as in Tacker v2: a healed VNFC is REMOVED, its new pod ADDED with a new id.
A heal left FAILED_TEMP can be retried only: the VNFCs its op occ named are healed again as the record still has them;
a pod a first attempt already replaced is not replaced twice.

A repair of drift (vnf_instantiate's ``reconcile``, or a HealVnfRequest with ``additionalParams.reconcile``:
lcm/cnf/reconcile.py) is a HEAL too, of the VNF rather than of VNFCs; its retry is planned here like any heal's, and
repairs the drift found then.
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Optional, Sequence

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.api import KubeApi
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import kind_of, name_of, object_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.namespaces import instance_namespace
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.pods import fresh_pod, pods_replaced, recreate_pod, wait_recreated
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.waiter import wait_ready
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import instance_run
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import reconcile
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.shared import refresh_vnfcs
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import Waits, private_state, vnfc_changes
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import heals_storage, reconciles, validate_heal_request
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnfd_checks import instance_vnfc_ids
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED, require_instantiation_state


def run_heal(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_heal on Kubernetes."""
    return instance_run.on_instance(session.connect(params), plan_heal, params, check_mode, diff_mode, name=occ.HEAL)


def plan_heal(api: KubeApi, store: RecordStore, found: Found, request: Optional[dict], waits: Optional[Waits] = None,
              healed_before: Sequence[str] = (), refresh: Callable[..., dict] = refresh_vnfcs) -> Operation:
    """Replace the pods of the named VNFCs (all VNFCs when none is named); bare Pods are recreated under their name.

    ``healed_before``: VNFCs a retried heal named that the record no longer has (their pods were replaced: a VNFC's id
    follows its pod); they are left out, and a retry left with none only reads the VNFCs again. ``refresh(api, instance,
    replaced=)``: the instance with its VNFCs read from the pods (a Helm release's are found otherwise: lcm/helm/heal.py).
    """
    waits = waits or Waits()
    instance, op_occs, version = found
    require_instantiation_state(instance, INSTANTIATED, occ.HEAL)
    request = validate_heal_request(request or {}, None if healed_before else instance)
    if reconciles(request):
        # The VNF's drift repaired as its record says (no package: a ConfigMap's or Secret's content is not restored).
        return reconcile.plan_reconcile(api, store, found, None, waits, refresh=refresh, request=request)
    info = instance["instantiatedVnfInfo"]
    by_vnfc = {item["id"]: item for item in info.get("vnfcInfo") or []}
    resources = {item["id"]: item for item in info.get("vnfcResourceInfo") or []}
    named = request.get("vnfcInstanceId")
    chosen = [vnfc_id for vnfc_id in named if vnfc_id not in healed_before] if named else list(by_vnfc)
    targets = [resources[by_vnfc[vnfc_id]["vnfcResourceInfoId"]] for vnfc_id in chosen]
    plan = {"operation": occ.HEAL, "vnf_instance_id": instance["id"],
            "replace": [{"vnfc": vnfc_id, "pod": item["computeResource"]["resourceId"], "workload": item["metadata"]["workloadKind"]}
                        for vnfc_id, item in zip(chosen, targets)]}
    if healed_before:
        plan["healed_before"] = list(healed_before)
    if heals_storage(request):
        # A VNFC's storage on Kubernetes is a PersistentVolumeClaim of the VNF, not of the pod: it outlives the pod and is kept.
        plan["note"] = "additionalParams.all: PersistentVolumeClaims are kept (they are not a pod's own storage); the pods are replaced"

    def execute(progress):
        namespace = instance_namespace(instance)
        deadline = waits.deadline()
        recreated = []
        for item in targets:
            pod_name = item["computeResource"]["resourceId"]
            old = api.get("v1", "Pod", pod_name, namespace)
            if old is not None and item["metadata"].get("podUid") not in (None, old["metadata"].get("uid")):
                # Another pod under its name (a StatefulSet's, a bare Pod recreated): the VNFC's pod was replaced already.
                progress.setdefault("replaced_before", []).append(pod_name)
                continue
            if old is None and item["metadata"]["workloadKind"] == "Pod":
                # A bare Pod a first attempt deleted and did not recreate: as deployed.
                old = deployed_pod(instance, pod_name)
            api.delete("v1", "Pod", pod_name, namespace, grace_seconds=0)
            progress.setdefault("deleted", []).append(pod_name)
            if item["metadata"]["workloadKind"] == "Pod" and old is not None:
                # A bare Pod has no controller to replace it: recreate it once its name is free.
                recreated.append(fresh_pod(old))
                recreate_pod(api, old, recreated[-1], deadline)
        wait_recreated(api, recreated, deadline)
        replaced = [item["id"] for item in targets]
        result = None
        if waits.enabled and targets:
            deadline.poll(lambda: pods_replaced(api, instance_namespace(instance), targets), "replacement pods of {0}".format(", ".join(chosen)))
            workloads = {item["metadata"]["workloadName"]: workload_of(instance, item) for item in targets if item["metadata"]["workloadKind"] != "Pod"}
            wait_ready(api, list(workloads.values()), deadline)
            # A workload's status can still be the one from before the pods were deleted: count the new pods themselves.
            wanted = vnfcs_per_vdu(instance)
            result = deadline.poll(lambda: with_vnfcs(refresh(api, instance, replaced=replaced), wanted),
                                   "replacement pods of {0} to be listed".format(", ".join(chosen)))
        result = result or refresh(api, instance, replaced=replaced)
        progress.resource_changes = vnfc_changes(info.get("vnfcResourceInfo") or [], result)
        return result

    return Operation(occ.HEAL, request, instance, plan, store, op_occs, version, execute=execute)


def deployed_pod(instance, name):
    """The bare Pod ``name`` as the record says it was deployed (its labels included), or None."""
    for record in private_state(instance).get("deployed") or []:
        if kind_of(record) == "Pod" and name_of(record) == name:
            obj = copy.deepcopy(object_of(record))
            obj["metadata"]["namespace"] = instance_namespace(instance)
            return obj
    return None


def workload_of(instance, vnfc_resource):
    """The workload a VNFC's pod belongs to, as an object reference to wait on."""
    meta = vnfc_resource["metadata"]
    return {"apiVersion": "v1" if meta["workloadKind"] == "Pod" else "apps/v1", "kind": meta["workloadKind"],
            "metadata": {"name": meta["workloadName"], "namespace": instance_namespace(instance)}}


def vnfcs_per_vdu(instance):
    counts = {}
    for item in (instance.get("instantiatedVnfInfo") or {}).get("vnfcResourceInfo") or []:
        counts[item["vduId"]] = counts.get(item["vduId"], 0) + 1
    return counts


def with_vnfcs(instance, wanted):
    """``instance`` when it has ``wanted`` VNFCs per VDU, else None (for a poll)."""
    return instance if vnfcs_per_vdu(instance) == wanted else None


def plan_resume(api: KubeApi, store: RecordStore, found: Found, failed_op_occ: dict, event: str, waits: Optional[Waits] = None,
                refresh: Callable[..., dict] = refresh_vnfcs, **options: Any) -> Operation:
    """The retry of a FAILED_TEMP HEAL (SOL003 lets a heal be retried only; sol/op_occ.py refuses its rollback first): the heal
    planned again from its operationParams against the stored record. A VNFC it named that the record no longer has was
    healed already (its id followed its pod): left out, not refused. A repair of drift finds the drift again and repairs
    it; with the ``package`` option, ConfigMaps and Secrets too. ``options``: what other resumers take."""
    request = copy.deepcopy(failed_op_occ.get("operationParams") or {})
    if reconciles(request):
        package = options.get("package")
        configs = reconcile.package_configs(api, package, found[0]) if package else None
        return reconcile.plan_reconcile(api, store, found, configs, waits or Waits(), refresh=refresh, request=request)
    known = instance_vnfc_ids(found[0])
    healed_before = [vnfc_id for vnfc_id in request.get("vnfcInstanceId") or [] if vnfc_id not in known]
    return plan_heal(api, store, found, request, waits or Waits(), healed_before=healed_before, refresh=refresh)
