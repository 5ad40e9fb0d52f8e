# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Change the current VNF package of a Helm-chart CNF as Tacker v2 does (RollingUpdate): ``helm upgrade --reuse-values`` of
its release with the new package's chart (``additionalParams.helm_chart_path``), each VDU kept at its count; the VDUs of
``vdu_params`` waited for. A FAILED_TEMP one is retried (planned again) or rolled back: ``helm rollback`` to the revision
the record names, which brings back the old chart's objects and values.

Before the upgrade: the request checked against the new VNFD (sol/change_pkg.py), the new chart declared by the package,
rendered (``helm template``) with the VDUs' counts, each VDU's workload found in it and every object in the release's
namespace. Both charts are kept beside the record before the upgrade (helm/kept_chart.py); the record changes when the
upgrade and its wait are done.
"""

from __future__ import annotations

import copy
import functools
from typing import Any, Optional

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.helm.kept_chart import chart_digest, keep_chart
from ansible_collections.nfv.vnflcm.plugins.module_utils.helm.request import CHART_PATH_PARAM, check_chart_archive, checked_chart_path, scaled_set_values
from ansible_collections.nfv.vnflcm.plugins.module_utils.helm.vnfcs import workloads_by_vdu
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import identity
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.waiter import wait_ready
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import instance_run, interface_scripts
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import Waits, private_state, sizing_rules, vnfc_changes, vnfc_counts
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.drivers import HELM_RELEASE
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm.chart import chart_file, release_of, upgraded, with_vnfcs, workload_refs
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm.state import HelmRelease, HelmState
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.change_pkg import (
    MERGED_FIELDS,
    WHAT,
    merged_instance_fields,
    modifications_triggered,
    new_flavour,
    validate_rolling_update,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import vnfd_identity


def run_change_pkg(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_change_pkg of a Helm-chart CNF: the new package is read, and closed, while the change is planned."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

    if params.get("current_package"):
        raise ValidationError(occ.CHANGE_VNFPKG, "current_package", "is used on OpenStack only")
    if params.get("rollout") == "side_by_side":
        raise ValidationError(occ.CHANGE_VNFPKG, "rollout", "a Helm-chart CNF's VDUs change in one helm upgrade: side_by_side does not apply")
    with load_package(params["package"]) as package:
        planner = functools.partial(plan_change_pkg, package=package, allow_scripts=params["allow_package_scripts"])
        return instance_run.on_instance(session.connect(params), planner, params, check_mode, diff_mode, name=occ.CHANGE_VNFPKG)


def plan_change_pkg(helm: session.HelmSession, store: RecordStore, found: Found, request: Optional[dict], package: Any = None,
                    waits: Optional[Waits] = None, allow_scripts: bool = False) -> Operation:
    """The change to ``package``'s chart; ``allow_scripts``: the user's opt-in to its VNFD's interface scripts, which the
    record keeps for later operations."""
    waits = waits or Waits()
    instance, op_occs, version = found
    new_vnfd = package.to_dict()["vnfd"]
    request = validate_rolling_update(request, instance, new_vnfd)
    params = request["additionalParams"]
    flavour = new_flavour(new_vnfd, instance)
    state = release_of(instance)
    chart_path = checked_chart_path(params.get(CHART_PATH_PARAM), package.to_dict(), WHAT)
    chart = package.read_file(chart_path)
    check_chart_archive(chart, chart_path, WHAT)
    old_digest = state["chartDigest"]
    counts = {vdu_id: count for vdu_id, count in vnfc_counts(instance).items() if vdu_id in state["replicaKeys"]}
    # Every VDU at its count: --reuse-values keeps the release's values, the new chart's defaults would not.
    values = scaled_set_values(state["replicaKeys"], counts, None, WHAT, "vnfdId")
    namespace = state["namespace"]
    with chart_file(chart) as path:
        documents = helm.helm.template(path, state["release"], namespace, set_values=values)
    workloads = workloads_by_vdu(documents, flavour.get("vdus") or {}, namespace, chart_path, WHAT)
    named = [vdu_param["vdu_id"] for vdu_param in params["vdu_params"]]
    for index, vdu_id in enumerate(named):
        if vdu_id not in workloads:
            raise ValidationError(WHAT, "additionalParams.vdu_params[{0}].vdu_id".format(index), "VDU {0} has no workload in the new chart".format(vdu_id))
    vdus = workload_refs(workloads, namespace)
    final = changed_record(instance, new_vnfd, flavour, request, dict(state, chart=chart_path, chartDigest=chart_digest(chart), vdus=vdus))
    final = interface_scripts.with_scripts(final, interface_scripts.for_package(package, final["instantiatedVnfInfo"]["flavourId"], allow_scripts, WHAT))
    same = chart_digest(chart) == old_digest and final == instance
    plan = {"operation": occ.CHANGE_VNFPKG, "vnf_instance_id": instance["id"], "release": state["release"], "from_chart": state["chart"],
            "to_chart": chart_path, "vdus": named, "lines": ["helm upgrade {0} to {1}, every VDU kept at its count".format(state["release"], chart_path)]}
    if same:
        plan["lines"] = ["already on this package and chart"]
        return Operation(occ.CHANGE_VNFPKG, request, instance, plan, store, op_occs, version, changed=False)

    def execute(progress):
        before = instance["instantiatedVnfInfo"].get("vnfcResourceInfo") or []
        # Both charts kept before the upgrade: whichever the record names after a failure, a rollback or a kill is there.
        keep_chart(helm.api, instance["id"], namespace, chart, also=(old_digest,))
        release = upgraded(helm.helm, chart, state, values, waits.timeout)
        progress.setdefault("upgraded", release.revision)
        if waits.enabled:
            wait_ready(helm.api, [identity(vdus[vdu_id]) for vdu_id in named], waits.deadline())
        result = copy.deepcopy(final)
        private_state(result)[HELM_RELEASE]["revision"] = release.revision
        result = with_vnfcs(helm.api, result)
        progress.resource_changes = vnfc_changes(before, result)
        progress.op_occ_fields = {"modificationsTriggeredByVnfPkgChange": modifications_triggered(instance, result)}
        return result

    return Operation(occ.CHANGE_VNFPKG, request, instance, plan, store, op_occs, version, execute=execute, scripts=interface_scripts.recorded(final),
                     diff={"before": {"vnfdId": instance.get("vnfdId"), "chart": state["chart"]},
                           "after": {"vnfdId": final.get("vnfdId"), "chart": chart_path}})


def changed_record(instance, new_vnfd, flavour, request, state: HelmRelease):
    """The VnfInstance once the upgrade is done (its VNFCs are read from the pods then)."""
    result = copy.deepcopy(instance)
    result.update(vnfd_identity(new_vnfd))
    for name in MERGED_FIELDS:
        result.pop(name, None)
    result.update(merged_instance_fields(instance, request))
    private: HelmState = private_state(result)
    private["flavour"] = sizing_rules(flavour)
    private[HELM_RELEASE] = state
    return result


def plan_rollback(helm: session.HelmSession, store: RecordStore, found: Found, failed: dict, waits: Optional[Waits] = None) -> Operation:
    """Undo a FAILED_TEMP change of package: ``helm rollback`` to the revision the record names (the record was not changed)."""
    waits = waits or Waits()
    instance, op_occs, version = found
    state = release_of(instance)
    current = helm.helm.status(state["release"], state["namespace"]).revision
    plan = {"operation": occ.CHANGE_VNFPKG, "vnf_instance_id": instance["id"], "rollback_of": failed["id"], "release": state["release"],
            "to_revision": state["revision"], "lines": ["helm rollback {0} to revision {1} (now {2})".format(state["release"], state["revision"], current)]}

    def execute(progress):
        revision = current
        if current != state["revision"]:
            helm.helm.rollback(state["release"], state["revision"], state["namespace"], timeout=waits.timeout)
            revision = helm.helm.status(state["release"], state["namespace"]).revision
        if waits.enabled:
            wait_ready(helm.api, [identity(reference) for reference in state["vdus"].values()], waits.deadline())
        result = copy.deepcopy(instance)
        private_state(result)[HELM_RELEASE]["revision"] = revision
        return with_vnfcs(helm.api, result)

    return Operation(occ.CHANGE_VNFPKG, failed.get("operationParams"), instance, plan, store, op_occs, version, execute=execute)


def plan_resume(helm: session.HelmSession, store: RecordStore, found: Found, failed: dict, event: str, waits: Optional[Waits], package: Any = None,
                params: Optional[dict] = None) -> Operation:
    """Retry plans the change again with the package read again; rollback goes back to the recorded revision."""
    if event == "rollback":
        return plan_rollback(helm, store, found, failed, waits)
    # vnf_lcm_op_occ takes no opt-in: the instance's (given at its instantiate) stands.
    return plan_change_pkg(helm, store, found, failed.get("operationParams"), package, waits, interface_scripts.recorded(found[0]).get("allowed", False))
