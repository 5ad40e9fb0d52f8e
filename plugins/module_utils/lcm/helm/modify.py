# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vnf_modify of a Helm-chart CNF: its information only (name, description, metadata, extensions, vnfcInfoModifications,
vimConnectionInfo), one write of the record. A new vnfdId on an instantiated one is refused: its package changes with
vnf_change_pkg, which upgrades the release (a container update as the manifest CNF driver makes it would leave the
release's values behind)."""

from __future__ import annotations

import functools
from typing import Any, Optional

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import instance_run
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import Waits, name_claimer, new_vnfd_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import validate_vnf_info_modification_request
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED, apply_vnf_info_modification, modification_diff
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import modified_attributes

MODIFY_REQUEST = "VnfInfoModificationRequest"


def run_modify(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_modify of a Helm-chart CNF (the package, when given, read first: a new vnfdId is checked against it)."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import optional_package

    with optional_package(params.get("package")) as package:
        planner = functools.partial(plan_modify, package=package)
        return instance_run.on_instance(session.connect(params), planner, params, check_mode, diff_mode, name=occ.MODIFY_INFO)


def plan_modify(helm: session.HelmSession, store: RecordStore, found: Found, request: Optional[dict], package: Any = None,
                waits: Optional[Waits] = None) -> Operation:
    instance, op_occs, version = found
    request = validate_vnf_info_modification_request(request)
    new_vnfd = new_vnfd_of(instance, request, package)
    if new_vnfd is not None and instance.get("instantiationState") == INSTANTIATED:
        raise ValidationError(MODIFY_REQUEST, "vnfdId", "the package of an instantiated Helm-chart CNF changes with nfv.vnflcm.vnf_change_pkg "
                                                        "(a helm upgrade of its release), not with vnf_modify")
    modified = apply_vnf_info_modification(instance, request, new_vnfd)
    claim_name = name_claimer(store, instance, modified)
    plan = {"operation": occ.MODIFY_INFO, "vnf_instance_id": instance["id"],
            "modifications": {key: modified.get(key) for key in modified_attributes(instance, modified)}}

    def execute(progress):
        claim_name(progress)
        return modified

    return Operation(occ.MODIFY_INFO, request, instance, plan, store, op_occs, version, changed=modified != instance, execute=execute,
                     diff=modification_diff(instance, modified))


def plan_resume(helm: session.HelmSession, store: RecordStore, found: Found, failed: dict, event: str, waits: Optional[Waits], package: Any = None,
                params: Optional[dict] = None) -> Operation:
    """Retry plans the request again; a rollback has nothing to undo on the cluster (the record is written last, once)."""
    if event == "rollback":
        instance, op_occs, version = found
        plan = {"operation": occ.MODIFY_INFO, "vnf_instance_id": instance["id"], "rollback_of": failed["id"]}
        return Operation(occ.MODIFY_INFO, failed.get("operationParams"), instance, plan, store, op_occs, version, execute=lambda progress: instance)
    return plan_modify(helm, store, found, failed.get("operationParams"), package, waits)
