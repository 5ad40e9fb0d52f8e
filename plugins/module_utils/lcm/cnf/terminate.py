# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Terminate a CNF on Kubernetes: what the instance created (ownership label checked) deleted, newest kinds first."""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.namespaces import instance_namespace
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ordering import sort_for_delete
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.shared import delete_owned, recorded_resources, without_instantiated_info
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import Waits, retry_only, vnfc_changes
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import validate_terminate_request
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED, NOT_INSTANTIATED


def plan_terminate(api, store, found, request, waits=None):
    """Delete what this instance created (ownership label checked), newest kinds first, and wait until it is gone."""
    waits = waits or Waits()
    instance, op_occs, version = found
    request = validate_terminate_request(request or {"terminationType": "GRACEFUL"})
    leftovers = instance.get("instantiationState") != INSTANTIATED and recorded_resources(instance)
    if instance.get("instantiationState") != INSTANTIATED and not leftovers:
        plan = {"operation": occ.TERMINATE, "vnf_instance_id": instance["id"], "delete": [], "note": "not instantiated"}
        return Operation(occ.TERMINATE, request, instance, plan, store, op_occs, version, changed=False)
    # Not instantiated but with objects listed: what an instantiate that was failed (not rolled back) left.
    resources = sort_for_delete(recorded_resources(instance))
    grace = 0 if request["terminationType"] == "FORCEFUL" else request.get("gracefulTerminationTimeout")
    namespace = instance_namespace(instance)
    plan = {"operation": occ.TERMINATE, "vnf_instance_id": instance["id"], "namespace": namespace,
            "termination_type": request["terminationType"], "delete": resources}

    if leftovers:
        plan["note"] = "not instantiated: deleting what a failed instantiate left"

    def execute(progress):
        deleted = delete_owned(api, instance["id"], resources, grace, waits, progress)
        result = dict(without_instantiated_info(instance), instantiationState=NOT_INSTANTIATED)
        # The record lives in the namespace: when that goes, so does the record.
        progress["delete_record"] = any(item["kind"] == "Namespace" and item["name"] == namespace for item in deleted)
        progress["resourceChanges"] = vnfc_changes(instance["instantiatedVnfInfo"].get("vnfcResourceInfo") or [], result)
        return result

    return Operation(occ.TERMINATE, request, instance, plan, store, op_occs, version, execute=execute,
                     diff={"before": {"instantiationState": instance.get("instantiationState")}, "after": {"instantiationState": NOT_INSTANTIATED}})


plan_resume = retry_only(plan_terminate)
