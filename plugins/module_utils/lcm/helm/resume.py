# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Retry, rollback or fail of a FAILED_TEMP op occ of a Helm-chart CNF (lcm/resumption.py): an instantiate is retried
(the package read again; a release it left uninstalled first) or rolled back (its release uninstalled); a scale or scale to
level retried or rolled back (the recorded counts set again); a modify (its record only) or a change of package (to the
recorded revision: helm rollback) retried or rolled back; a heal or a terminate retried. A fail leaves the record as the
operation left it: it names the release, which a terminate uninstalls.
"""

from __future__ import annotations

from typing import Any, Optional

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import resumption
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import Waits
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ


def run_resume(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_lcm_op_occ on a Helm-chart CNF."""
    if params.get("skip_coordination"):
        raise ValidationError("vnf_lcm_op_occ", "skip_coordination", "is used on OpenStack only (the rollback of a change of package on Heat)")
    return resumption.run_resume(session.connect(params), params, package_of, plan_resume, as_failed, check_mode, diff_mode)


def package_of(params, event, failed, instance):
    """The package option, which a retry of an instantiate or a change of package reads again."""
    if event == "retry" and failed["operation"] in (occ.INSTANTIATE, occ.CHANGE_VNFPKG) and not params.get("package"):
        raise ValidationError("vnf_lcm_op_occ", "package", "retry of {0} reads the package again: give it".format(failed["operation"]))
    return params.get("package")


def as_failed(helm, store, instance, failed, waits):
    """The record as the operation left it (None): it names the release, installed or not, for a terminate."""
    return None, ()


def plan_resume(helm: session.HelmSession, store: RecordStore, found: Found, failed_op_occ: dict, event: str, waits: Optional[Waits],
                package: Any = None, params: Optional[dict] = None) -> Operation:
    occ.require_resumable(failed_op_occ, event)
    operation = failed_op_occ["operation"]
    if operation == occ.INSTANTIATE:
        from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import instantiate

        return instantiate.plan_resume(helm, store, found, failed_op_occ, event, waits, package=package, params=params)
    if operation in (occ.SCALE, occ.SCALE_TO_LEVEL):
        from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import scale

        return scale.plan_resume(helm, store, found, failed_op_occ, event, waits, package=package, params=params)
    if operation == occ.CHANGE_VNFPKG:
        from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import change_pkg

        return change_pkg.plan_resume(helm, store, found, failed_op_occ, event, waits, package=package, params=params)
    if operation == occ.MODIFY_INFO:
        from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import modify

        return modify.plan_resume(helm, store, found, failed_op_occ, event, waits, package=package, params=params)
    if operation == occ.HEAL:
        from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import heal

        return heal.plan_resume(helm, store, found, failed_op_occ, event, waits)
    if operation == occ.TERMINATE:
        from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import terminate

        return terminate.plan_terminate(helm, store, found, failed_op_occ.get("operationParams"), waits=waits)
    raise ConflictError(event, "operation occurrence {0}".format(failed_op_occ["id"]), "a {0} is not an operation of a Helm-chart CNF".format(operation))
