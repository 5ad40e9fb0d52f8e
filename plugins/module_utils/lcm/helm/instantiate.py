# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Instantiate a Helm-chart CNF as Tacker v2 does (vimType ETSINFV.HELM.V_3): ``helm install`` of the package's chart
(``additionalParams.helm_chart_path``) as release ``vnf<instance id without dashes>``, ``helm_parameters`` and each VDU's
replica count at the instantiation level (``helm_value_names``) as values, into the namespace the request names (else the
module's, the context's, ``default``); roll back (uninstall) or retry a FAILED_TEMP one.

Before any write: the request checked against the package (helm/request.py), the chart rendered (``helm template``), each
VDU's workload found in it and every object placed in the release's namespace (helm/vnfcs.py), and each object judged by
the API server (a server-side dry run). The record keeps the release, the chart's path and digest, the VDUs' workloads and
a digest of the values (never the values: they may hold secrets); the chart itself is kept beside the record
(helm/kept_chart.py) for the scales to come.
"""

from __future__ import annotations

import functools
from typing import Any, Optional

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.pool import call_each, run_all
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import PRIVATE, Found, RecordStore, private_state
from ansible_collections.nfv.vnflcm.plugins.module_utils.helm.cli import tacker_release_name
from ansible_collections.nfv.vnflcm.plugins.module_utils.helm.kept_chart import chart_digest, keep_chart
from ansible_collections.nfv.vnflcm.plugins.module_utils.helm.request import (
    NAMESPACE_PARAM,
    REPLICA,
    VALUE_NAMES_PARAM,
    check_chart_archive,
    field,
    helm_params,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.helm.vnfcs import replica_mismatches, replicas_of, workloads_by_vdu
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.instance_objects import judged
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import INSTANTIATE_VNF_REQUEST, describe, ref
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.namespaces import with_namespace
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.store import SecretRecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.waiter import wait_ready
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import instantiation, interface_scripts
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import VNFC_COUNTS, Waits, sizing_rules, vnfc_changes
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import waits as waits_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.drivers import HELM_RELEASE
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm.chart import chart_file, placed, values_digest, with_vnfcs, workload_refs
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm.state import HelmRelease, HelmState
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm.terminate import uninstalled
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.sizing import initial_scale_status
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import validate_instantiate_request
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import recordable_vims
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED, new_vnf_instance, with_instantiate_fields


def run_instantiate(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_instantiate of a Helm-chart CNF (lcm/instantiation.py)."""
    instantiation.refuse_reconcile(params, "Helm-chart CNFs")
    helm = session.connect(params)

    def plan(package, name, description, metadata):
        return plan_instantiate(helm, package, name, params["request"], description, params.get("vnf_instance_id"), waits_of(params), metadata,
                                allow_scripts=params["allow_package_scripts"])

    return instantiation.run_instantiate(helm, params, plan, check_mode, diff_mode)


def plan_instantiate(helm: session.HelmSession, package: Any, name: Optional[str], request: Optional[dict], description: Optional[str] = None,
                     instance_id: Optional[str] = None, waits: Optional[Waits] = None, metadata: Optional[dict] = None,
                     retry: bool = False, allow_scripts: bool = False) -> Operation:
    """Install the package's chart for a new (or NOT_INSTANTIATED) instance; a re-run of the same instantiate is no change.
    ``retry``: of a FAILED_TEMP instantiate, whose release (if it left one) is uninstalled first. ``allow_scripts``: the
    user's opt-in to the VNFD's interface scripts (lcm/interface_scripts.py), kept in the record for later operations."""
    waits = waits or Waits()
    api = helm.api
    vnfd = package.to_dict()["vnfd"]
    request = validate_instantiate_request(request, vnfd)
    flavour = vnfd["flavours"][request["flavourId"]]
    level_id = request.get("instantiationLevelId")
    wanted = helm_params(request, package, request["flavourId"], level_id)
    namespace = wanted.namespace or helm.namespace
    if api.namespace_exists(namespace) is False:
        raise ValidationError(INSTANTIATE_VNF_REQUEST, field(NAMESPACE_PARAM), "namespace {0!r} does not exist (Helm creates none)".format(namespace))
    store = SecretRecordStore(api, namespace)
    found = store.find(instance_id, name)
    instance, op_occs, version = found or (new_vnf_instance(vnfd, name, description, metadata, instance_id), [], None)
    release = tacker_release_name(instance["id"])
    summary = {"flavourId": request["flavourId"], "instantiationLevelId": level_id, "chart": wanted.chart_path, "namespace": namespace,
               "values": values_digest(wanted.set_values)}
    if instance.get("instantiationState") == INSTANTIATED:
        return already_instantiated(instance, summary, store, op_occs, version)
    if found is None:
        store.check_name_free(instance)
    scripts = interface_scripts.for_package(package, request["flavourId"], allow_scripts, INSTANTIATE_VNF_REQUEST)
    chart = package.read_file(wanted.chart_path)
    check_chart_archive(chart, wanted.chart_path)
    probe = probe_values(wanted)
    with chart_file(chart) as path:
        # Both renders at once: each is a helm process of its own.
        documents, probed = call_each([functools.partial(helm.helm.template, path, release, namespace, set_values=values)
                                       for values in (wanted.set_values, probe)])
    workloads = workloads_by_vdu(documents, flavour.get("vdus") or {}, namespace, wanted.chart_path)
    check_replica_keys(workloads, wanted)
    check_replica_keys(workloads_by_vdu(probed, flavour.get("vdus") or {}, namespace, wanted.chart_path), wanted._replace(set_values=probe))
    objects = placed(documents, namespace, api.is_namespaced)
    left = helm.helm.release_exists(release, namespace)
    if left and not retry:
        raise ConflictError("instantiate", "Helm release {0}".format(release), "it exists already in namespace {0} and VNF instance {1} is not "
                            "instantiated: uninstall it, or roll back the instantiate that left it (nfv.vnflcm.vnf_lcm_op_occ)".format(
                                namespace, instance["id"]))
    if not left:
        dry_run_creates(api, objects, wanted.chart_path)
    vdus = workload_refs(workloads, namespace)
    counts = {vdu_id: count for vdu_id, count in sorted((vdu_id, replicas_of(workload)) for vdu_id, workload in workloads.items()) if count is not None}
    state: HelmRelease = {"release": release, "namespace": namespace, "chart": wanted.chart_path, "chartDigest": chart_digest(chart),
                          "vdus": vdus, "replicaKeys": wanted.replica_keys}
    plan = {
        "operation": occ.INSTANTIATE,
        "vnf_instance_id": instance["id"],
        "namespace": namespace,
        "release": release,
        "chart": wanted.chart_path,
        "create": [ref(obj) for obj in objects],
        "vdus": {vdu_id: dict(reference, replicas=counts.get(vdu_id)) for vdu_id, reference in vdus.items()},
    }
    if left:
        plan["lines"] = ["the release the failed instantiate left is uninstalled first"]

    def execute(progress):
        if left and helm.helm.release_exists(release, namespace):
            helm.helm.uninstall(release, namespace, wait=True, timeout=waits.timeout)
        # What a later scale upgrades the release with: the modules that scale are not given the package.
        keep_chart(api, instance["id"], namespace, chart)
        with chart_file(chart) as path:
            installed = helm.helm.install(path, release, namespace, set_values=wanted.set_values, timeout=waits.timeout)
        result = with_instantiate_fields(dict(instance, instantiationState=INSTANTIATED), request)
        result = with_namespace(result, namespace)
        private: HelmState = {"flavour": sizing_rules(flavour), "resources": [ref(obj) for obj in objects], "instantiation": summary,
                              HELM_RELEASE: dict(state, revision=installed.revision), VNFC_COUNTS: counts, interface_scripts.KEY: scripts}
        result["instantiatedVnfInfo"] = {
            "flavourId": request["flavourId"],
            "vnfState": "STARTED",
            "scaleStatus": initial_scale_status(flavour, level_id),
            "metadata": {"namespace": namespace, PRIVATE: private},
        }
        if request.get("vimConnectionInfo"):
            result["vimConnectionInfo"] = recordable_vims(request["vimConnectionInfo"])
        if waits.enabled:
            wait_ready(api, objects, waits.deadline())
        result = with_vnfcs(api, result)
        progress.resource_changes = vnfc_changes([], result)
        return result

    # While it runs (and should it stop half-way) the record names the release, so that a rollback or a terminate
    # uninstalls it, and the instance's next operation is the Helm driver's (lcm/drivers.py: instance_driver).
    pending = with_pending_release(with_namespace(instance, namespace), request["flavourId"], namespace, state)
    return Operation(occ.INSTANTIATE, request, with_namespace(instance, namespace), plan, store, op_occs, version, execute=execute,
                     instance_while_running=interface_scripts.with_scripts(pending, scripts), scripts=scripts,
                     diff={"before": {"instantiationState": instance.get("instantiationState")},
                           "after": {"instantiationState": INSTANTIATED, "namespace": namespace, "release": release, "objects": plan["create"]}})


def with_pending_release(instance, flavour_id, namespace, state: HelmRelease):
    """A NOT_INSTANTIATED instance whose record names the Helm release an unfinished instantiate may have installed."""
    return dict(instance, instantiatedVnfInfo={"flavourId": flavour_id, "metadata": {"namespace": namespace, PRIVATE: {HELM_RELEASE: state}}})


def probe_values(wanted):
    """The instantiate's values with each replica key one more: rendered with them, a workload whose replicas do not follow
    belongs to a chart that does not read that key (its own default may equal the VNFD's count and hide it)."""
    return dict(wanted.set_values, **{key: wanted.set_values[key] + 1 for key in wanted.replica_keys.values()
                                      if isinstance(wanted.set_values.get(key), int)})


def check_replica_keys(workloads, wanted):
    """Each VDU's workload rendered with the count its ``helm_value_names`` key was given: a chart that does not read the
    key (a typo, a key it lacks) would leave the VDU at the chart's own count, and every later scale without effect."""
    counts = {vdu_id: wanted.set_values[key] for vdu_id, key in wanted.replica_keys.items() if key in wanted.set_values}
    for vdu_id, (rendered, count) in sorted(replica_mismatches(workloads, counts).items()):
        key = wanted.replica_keys[vdu_id]
        raise ValidationError(INSTANTIATE_VNF_REQUEST, "{0}.{1}.{2}".format(field(VALUE_NAMES_PARAM), vdu_id, REPLICA),
                              "the chart renders {0} with {1} replicas when value {2!r} is {3}: it does not read that value".format(
                                  describe(workloads[vdu_id]), rendered, key, count))


def dry_run_creates(api, objects, chart):
    """The API server's verdict on creating each rendered object (RBAC, admission, quota, validation), storing nothing;
    one that exists already is refused (Helm would refuse to take it over)."""
    def dry_run(obj):
        judged(INSTANTIATE_VNF_REQUEST, {"object": obj, "file": chart}, api.create, obj, dry_run=True)
    run_all(dry_run, objects)


def already_instantiated(instance, summary, store, op_occs, version):
    done = private_state(instance).get("instantiation")
    if done != summary:
        raise ConflictError("instantiate", "VNF instance {0}".format(instance["id"]),
                            "it is already INSTANTIATED from chart {0}, not as requested now; terminate it first".format((done or {}).get("chart")))
    plan = {"operation": occ.INSTANTIATE, "vnf_instance_id": instance["id"], "namespace": summary["namespace"], "create": [],
            "lines": ["already instantiated as requested"]}
    return Operation(occ.INSTANTIATE, {}, instance, plan, store, op_occs, version, changed=False)


def plan_instantiate_rollback(helm: session.HelmSession, store: RecordStore, found: Found, failed: dict, waits: Optional[Waits] = None) -> Operation:
    """Undo a FAILED_TEMP instantiate: uninstall its release (waited), and the instance is NOT_INSTANTIATED."""
    return uninstalled(helm, store, found, failed.get("operationParams") or {}, waits or Waits(), occ.INSTANTIATE, dict(rollback_of=failed["id"]))


def plan_resume(helm: session.HelmSession, store: RecordStore, found: Found, failed: dict, event: str, waits: Optional[Waits], package: Any = None,
                params: Optional[dict] = None) -> Operation:
    """Retry installs again (the package read again: the release a failed install left is uninstalled first, by a
    rollback); rollback uninstalls."""
    if event == "rollback":
        return plan_instantiate_rollback(helm, store, found, failed, waits)
    instance = found[0]
    return plan_instantiate(helm, package, instance.get("vnfInstanceName"), failed.get("operationParams"), instance.get("vnfInstanceDescription"),
                            instance["id"], waits, retry=True, allow_scripts=interface_scripts.recorded(instance).get("allowed", False))
