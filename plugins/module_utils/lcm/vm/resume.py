# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Retry or rollback of a FAILED_TEMP op occ of a VM-based VNF: the resumer of its operation (``plan_resume`` of
lcm/vm/<operation>.py).

The record has what each resumer plans from; a package is used only to retry a MODIFY_INFO that changed vnfdId (the new
VNFD's identity is read from it, as vnf_modify read it) and a CHANGE_VNFPKG that stopped before it wrote to the stack.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import engine
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import OnDemand, resumer_table
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import waits as waits_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import runner
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ


def _instantiate():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import instantiate
    return instantiate


def _scale():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import scale
    return scale


def _heal():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import heal
    return heal


def _terminate():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import terminate
    return terminate


def _modify():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import modify
    return modify


def _change_pkg():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import change_pkg
    return change_pkg


def _change_ext_conn():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import change_ext_conn
    return change_ext_conn


# Each driver is imported for the op occ of its operation only.
RESUMERS = resumer_table(*(OnDemand(load) for load in (_instantiate, _scale, _heal, _terminate, _modify, _change_pkg, _change_ext_conn)))


def run_resume(params, check_mode=False, diff_mode=False):
    """vnf_lcm_op_occ on OpenStack: retry, roll back or fail a FAILED_TEMP op occ. The record has what each needs, but for
    the retry of a MODIFY_INFO that changed vnfdId, or of a CHANGE_VNFPKG that wrote nothing: the new package, option package."""
    vim, store, found = runner.locate(params)
    event = params["action"]

    def plan(failed, record):
        # Read only by the one resumer that uses it (planning is its only use, so it is closed before the operation runs).
        from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import optional_package

        path = params.get("package") if event == "retry" and failed.get("operation") in (occ.MODIFY_INFO, occ.CHANGE_VNFPKG) else None
        with optional_package(path) as package:
            return plan_resume(vim, store, record, failed, event, waits_of(params), skip_coordination=params.get("skip_coordination"), package=package)

    result = engine.act_on_op_occ(store, found, params.get("vnf_lcm_op_occ_id"), event, plan, check_mode, diff_mode, force=params.get("force"))
    return runner.with_api_calls(result, vim)


def plan_resume(vim, store, found, failed_op_occ, event, waits=None, skip_coordination=False, package=None):
    """The operation that carries out ``event`` ("retry" or "rollback") for a FAILED_TEMP op occ of this instance.

    What may be retried or rolled back is sol/op_occ.py's one list (the engine checks it too); every operation on it has
    its resumer here. ``skip_coordination``: a rollback of CHANGE_VNFPKG without its old-VNF coordination hook.
    ``package`` (a VnfPackage or None): the new VNFD of a MODIFY_INFO that changed vnfdId, the new package of a CHANGE_VNFPKG
    that wrote nothing; every resumer takes it, the others ignore it.
    """
    occ.require_resumable(failed_op_occ, event)
    if skip_coordination:
        change_pkg = _change_pkg()
        if event != "rollback" or failed_op_occ["operation"] != occ.CHANGE_VNFPKG:
            reason = "applies to the rollback of a CHANGE_VNFPKG only, not to the {0} of {1}".format(event, failed_op_occ["operation"])
            raise ValidationError("vnf_lcm_op_occ", change_pkg.SKIP_COORDINATION, reason)
        return change_pkg.plan_resume(vim, store, found, failed_op_occ, event, waits, skip_coordination=True)
    return RESUMERS[failed_op_occ["operation"]](vim, store, found, failed_op_occ, event, waits, package=package)
