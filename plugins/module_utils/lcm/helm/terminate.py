# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Terminate a Helm-chart CNF: ``helm uninstall`` of its release, waited until its objects are gone (Helm deletes what
the release made; ``gracefulTerminationTimeout`` is the pods' own grace, as Helm leaves it). The instance is then
NOT_INSTANTIATED; with delete_instance its identifier goes next (lcm/delete.py).
"""

from __future__ import annotations

from typing import Optional

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.helm.cli import HelmReleaseNotFound
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import Waits, vnfc_changes
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm.chart import release_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import validate_terminate_request
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED, NOT_INSTANTIATED, without_instantiated_info


def run_terminate(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_terminate of a Helm-chart CNF (lcm/delete.py: with delete_instance, the identifier goes next)."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import delete as identifier
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm.delete import left_release

    helm = session.connect(params)
    return identifier.run_terminate(helm, plan_terminate, params, left_release(helm), check_mode, diff_mode)


def plan_terminate(helm: session.HelmSession, store: RecordStore, found: Found, request: Optional[dict], waits: Optional[Waits] = None) -> Operation:
    """Uninstall the instance's release (one a failed instantiate left too)."""
    request = validate_terminate_request(request or {"terminationType": "GRACEFUL"})
    return uninstalled(helm, store, found, request, waits or Waits(), occ.TERMINATE)


def uninstalled(helm, store, found, request, waits, operation, plan_fields=None):
    """The ``operation`` (a terminate, or the rollback of an instantiate) that uninstalls the record's release and leaves
    the instance NOT_INSTANTIATED, its record without it; no change when there is nothing to uninstall and the record
    says so already."""
    instance, op_occs, version = found
    state = release_of(instance)
    release, namespace = state.get("release"), state.get("namespace")
    installed = bool(release) and helm.helm.release_exists(release, namespace)
    plan = dict({"operation": operation, "vnf_instance_id": instance["id"], "namespace": namespace, "release": release,
                 "uninstall": installed}, **(plan_fields or {}))
    if not installed and instance.get("instantiationState") != INSTANTIATED and not state:
        plan["lines"] = ["not instantiated"]
        return Operation(operation, request, instance, plan, store, op_occs, version, changed=False)

    def execute(progress):
        if release:
            uninstall(helm.helm, release, namespace, waits)
        result = without_instantiated_info(instance)
        result["instantiationState"] = NOT_INSTANTIATED
        progress.resource_changes = vnfc_changes(instance.get("instantiatedVnfInfo", {}).get("vnfcResourceInfo") or [], result)
        return result

    return Operation(operation, request, instance, plan, store, op_occs, version, execute=execute,
                     diff={"before": {"instantiationState": instance.get("instantiationState"), "release": release},
                           "after": {"instantiationState": NOT_INSTANTIATED}})


def uninstall(helm, release, namespace, waits):
    """``helm uninstall`` of a release that may be gone already (a retry after a kill, or another's uninstall)."""
    try:
        helm.uninstall(release, namespace, wait=waits.enabled, timeout=waits.timeout)
    except HelmReleaseNotFound:
        pass
