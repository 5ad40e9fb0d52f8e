# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Retry or rollback of a FAILED_TEMP op occ of a CNF: the resumer of its operation (``plan_resume`` of
lcm/cnf/<operation>.py).

Unlike a VM-based VNF's, some need the package again (NEEDS_PACKAGE), and a retry plans with the module's options.
"""

from __future__ import annotations

from typing import Any, Optional

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.api import KubeApi
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.namespaces import instance_namespace
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import resumption
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import scale, session, terminate
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.scaling import with_counts
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.shared import recorded_resources, refresh_vnfcs, vdu_records_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import (
    OnDemand, Waits, count_notes, levels_at, private_state, resumer_table, vnfc_counts, vnfc_notes)
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED


def _instantiate():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import instantiate
    return instantiate


def _heal():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import heal
    return heal


def _modify():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import modify
    return modify


def _change_pkg():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import change_pkg
    return change_pkg


# The drivers but scale and terminate (which a fail uses too) are imported for the op occ of their operation only.
RESUMERS = resumer_table(OnDemand(_instantiate), scale, OnDemand(_heal), terminate, OnDemand(_modify), OnDemand(_change_pkg))

# Operations that read their package again to be retried or rolled back (a rollback of INSTANTIATE only when its
# record does not list what it created: records of older versions).
NEEDS_PACKAGE = {("retry", occ.INSTANTIATE), ("rollback", occ.INSTANTIATE), ("retry", occ.MODIFY_INFO)}
# Operations that keep their way back in the rollback Secret (k8s/store.py) until they end.
KEEPS_ROLLBACK_DATA = (occ.MODIFY_INFO, occ.CHANGE_VNFPKG)
# Workloads whose spec.replicas is their VDU's VNFC count (a bare Pod is one; a DaemonSet's is its nodes').
REPLICATED_KINDS = ("Deployment", "StatefulSet", "ReplicaSet")
# At most this long a fail waits for controllers to give each VDU its replicas' pods before it records what is there.
SETTLE_SECONDS = 60


def run_resume(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_lcm_op_occ on Kubernetes: retry, roll back or fail a FAILED_TEMP operation occurrence of the instance."""
    if params.get("skip_coordination"):
        raise ValidationError("vnf_lcm_op_occ", "skip_coordination", "is used on OpenStack only (the rollback of a change of package on Heat)")
    return resumption.run_resume(session.connect(params), params, package_of, plan_resume, as_failed, check_mode, diff_mode)


def package_of(params, event, failed, instance):
    """The package option; ValidationError when the resume reads its package again and it is not given."""
    if needs_package(event, failed, instance) and not params.get("package"):
        raise ValidationError("vnf_lcm_op_occ", "package", "{0} of {1} reads the package again: give it".format(event, failed["operation"]))
    return params.get("package")


def as_failed(api, store, instance, failed, waits):
    """``(instance, notes)`` a fail records: a failed terminate leaves the instance NOT_INSTANTIATED, its record listing
    what is still there; an instantiated one is read again from the cluster (:func:`as_live`)."""
    if failed["operation"] in KEEPS_ROLLBACK_DATA:
        store.drop_rollback(instance)
    if failed["operation"] == occ.TERMINATE:
        return terminate.record_after_fail(api, instance), ()
    if instance.get("instantiationState") == INSTANTIATED:
        return as_live(api, instance, waits)
    return None, ()


def as_live(api, instance, waits=None):
    """``(instance, notes)``: the record with its VDUs' replicas, scale levels and VNFCs read again from the cluster, and
    what that changed. For ``fail``, which ends an operation wherever it stopped (a heal after its pod delete, a scale
    after some of its patches): the record then says what runs, not what the operation set out to do. With ``waits``,
    the pods are read again until each VDU has as many as its replicas (its controller may still be replacing one), at
    most until the wait's timeout: the record is then what is there, and a note says which VDU had not settled."""
    vdus = vdu_records_of(instance)
    recorded = vnfc_counts(instance)
    live = live_replicas(api, vdus, instance_namespace(instance))
    notes = count_notes(recorded, live, "replicas")
    result = with_counts(instance, live)
    info = result["instantiatedVnfInfo"]
    if info.get("scaleStatus"):
        info["scaleStatus"] = levels_at(private_state(instance).get("flavour") or {}, info["scaleStatus"], recorded, live, notes)
    refreshed = refresh_vnfcs(api, result, vdus)
    deadline = Waits(True, min(waits.timeout, SETTLE_SECONDS), waits.sleep).deadline() if waits is not None and waits.enabled else None
    while unsettled(refreshed, live) and deadline is not None and deadline.remaining() > 0:
        deadline.pause()
        refreshed = refresh_vnfcs(api, result, vdus)
    notes.extend("{0}: {1} pods for {2} replicas when read".format(vdu_id, pods, live[vdu_id]) for vdu_id, pods in unsettled(refreshed, live))
    notes.extend(vnfc_notes(instance, refreshed, "pod"))
    return refreshed, notes


def live_replicas(api, vdus, namespace):
    """VDU id -> its workload's replicas on the cluster (0 when it is gone), for the VDUs whose workload has replicas."""
    live = {}
    for vdu_id, record in sorted(vdus.items()):
        obj = record["object"]
        if obj["kind"] in REPLICATED_KINDS:
            workload = api.get(obj["apiVersion"], obj["kind"], obj["metadata"]["name"], namespace)
            live[vdu_id] = (workload.get("spec") or {}).get("replicas", 1) if workload else 0
    return live


def unsettled(instance, replicas):
    """``[(VDU id, pods)]`` of the VDUs of ``replicas`` whose VNFCs in ``instance`` are not as many as their replicas."""
    pods = {}
    for vnfc in instance["instantiatedVnfInfo"].get("vnfcResourceInfo") or []:
        pods[vnfc["vduId"]] = pods.get(vnfc["vduId"], 0) + 1
    return [(vdu_id, pods.get(vdu_id, 0)) for vdu_id, count in sorted(replicas.items()) if pods.get(vdu_id, 0) != count]


def needs_package(event, failed_op_occ, instance):
    """Whether ``event`` ("retry" or "rollback") of ``failed_op_occ`` reads the package again."""
    operation = failed_op_occ["operation"]
    return (event, operation) in NEEDS_PACKAGE and not (event == "rollback" and recorded_resources(instance))


def plan_resume(api: KubeApi, store: RecordStore, found: Found, failed_op_occ: dict, event: str, waits: Optional[Waits],
                package: Any = None, params: Optional[dict] = None) -> Operation:
    """The operation that carries out ``event`` for a FAILED_TEMP op occ of this instance.

    What may be retried or rolled back is sol/op_occ.py's one list (the engine checks it too); every operation on it
    that Kubernetes has, has its resumer here.
    """
    occ.require_resumable(failed_op_occ, event)
    operation = failed_op_occ["operation"]
    if operation not in RESUMERS:
        raise ConflictError(event, "operation occurrence {0}".format(failed_op_occ["id"]), "a {0} is not an operation on Kubernetes".format(operation))
    return RESUMERS[operation](api, store, found, failed_op_occ, event, waits, package=package, params=params or {})
