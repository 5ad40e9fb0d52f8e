# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Retry or rollback of a FAILED_TEMP op occ of a VM-based VNF: the resumer of its operation (each in lcm/vm_<operation>.py).

No package is needed: the record has what each resumer plans from.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import (
    vm_change_ext_conn,
    vm_change_pkg,
    vm_heal,
    vm_instantiate,
    vm_modify,
    vm_scale,
    vm_terminate,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ

RESUMERS = {
    "INSTANTIATE": vm_instantiate.plan_resume_instantiate,
    "SCALE": vm_scale.plan_resume_scale,
    "SCALE_TO_LEVEL": vm_scale.plan_resume_scale,
    "HEAL": vm_heal.plan_resume_heal,
    "TERMINATE": vm_terminate.plan_resume_terminate,
    vm_change_pkg.OPERATION: vm_change_pkg.plan_resume_change,
    vm_modify.MODIFY_INFO: vm_modify.plan_resume,
    vm_change_ext_conn.OPERATION: vm_change_ext_conn.plan_resume_ext_conn,
}


def plan_resume(vim, store, found, failed_op_occ, event, waits=None):
    """The operation that carries out ``event`` ("retry" or "rollback") for a FAILED_TEMP op occ of this instance.

    What may be retried or rolled back is sol/op_occ.py's one list (the engine checks it too); every operation on it has
    its resumer here.
    """
    op_occ.require_resumable(failed_op_occ, event)
    return RESUMERS[failed_op_occ["operation"]](vim, store, found, failed_op_occ, event, waits)
