# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Retry or rollback of a FAILED_TEMP op occ of a CNF: the resumer of its operation (``plan_resume`` of
lcm/cnf/<operation>.py).

Unlike a VM-based VNF's, some need the package again (NEEDS_PACKAGE), and a retry plans with the module's options.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.store import drop_rollback
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import engine
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import change_pkg, heal, instantiate, modify, runner, scale, terminate
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.shared import locate, recorded_resources
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import resumer_table
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import waits as waits_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ

RESUMERS = resumer_table(instantiate, scale, heal, terminate, modify, change_pkg)

# Operations that read their package again to be retried or rolled back (a rollback of INSTANTIATE only when its
# record does not list what it created: records of older versions).
NEEDS_PACKAGE = {("retry", occ.INSTANTIATE), ("rollback", occ.INSTANTIATE), ("retry", occ.MODIFY_INFO)}
# Operations that keep their way back in the rollback Secret (k8s/store.py) until they end.
KEEPS_ROLLBACK_DATA = (occ.MODIFY_INFO, occ.CHANGE_VNFPKG)


def run_resume(params, check_mode=False, diff_mode=False):
    """vnf_lcm_op_occ on Kubernetes: retry, roll back or fail a FAILED_TEMP operation occurrence of the instance."""
    if params.get("skip_coordination"):
        raise ValidationError("vnf_lcm_op_occ", "skip_coordination", "is used on OpenStack only (the rollback of a change of package on Heat)")
    api, namespace = runner.kube_api(params)
    store, found = locate(api, namespace, params.get("vnf_instance_id"), params.get("vnf_instance_name"))
    event = params["action"]

    def plan(failed, record):
        from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import optional_package

        operation_type = failed["operation"]
        if needs_package(event, failed, record[0]) and not params.get("package"):
            raise ValidationError("vnf_lcm_op_occ", "package", "{0} of {1} reads the package again: give it".format(event, operation_type))
        # Planning reads all it needs of the package: it can be closed before the operation runs.
        with optional_package(params.get("package")) as package:
            return plan_resume(api, store, record, failed, event, waits_of(params), package, params)

    def on_fail(failed):
        if failed["operation"] in KEEPS_ROLLBACK_DATA:
            drop_rollback(api, found[0])
        # A failed terminate leaves the instance NOT_INSTANTIATED, its record listing what is still there.
        if failed["operation"] == occ.TERMINATE:
            return terminate.record_after_fail(api, found[0])
        return None

    result = engine.act_on_op_occ(store, found, params.get("vnf_lcm_op_occ_id"), event, plan, check_mode, diff_mode, on_fail,
                                  force=params.get("force"))
    return runner.with_api_calls(result, api)


def needs_package(event, failed_op_occ, instance):
    """Whether ``event`` ("retry" or "rollback") of ``failed_op_occ`` reads the package again."""
    operation = failed_op_occ["operation"]
    return (event, operation) in NEEDS_PACKAGE and not (event == "rollback" and recorded_resources(instance))


def plan_resume(api, store, found, failed_op_occ, event, waits, package=None, params=None):
    """The operation that carries out ``event`` for a FAILED_TEMP op occ of this instance.

    What may be retried or rolled back is sol/op_occ.py's one list (the engine checks it too); every operation on it
    that Kubernetes has, has its resumer here.
    """
    occ.require_resumable(failed_op_occ, event)
    operation = failed_op_occ["operation"]
    if operation not in RESUMERS:
        raise ConflictError(event, "operation occurrence {0}".format(failed_op_occ["id"]), "a {0} is not an operation on Kubernetes".format(operation))
    return RESUMERS[operation](api, store, found, failed_op_occ, event, waits, package=package, params=params or {})
