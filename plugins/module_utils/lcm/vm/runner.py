# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The OpenStack (Heat) path of every LCM module: from module params to a finished operation (lcm/vim.py dispatches here).

The package reader and the change-of-package planner are imported by the operations that use them only: a module
call's start-up is mostly imports, and info, scale, heal and terminate need neither.
"""

from __future__ import annotations

import contextlib
import functools

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import NotFoundError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import cloud
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import HeatRecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import engine, info
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import creation_fields, waits, with_metadata_warning
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import heal, scale, shared, terminate
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import is_openstack_vim
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED


def heat_vim(params):
    """A connected shared.HeatVim from the params (and the request's OpenStack vimConnectionInfo, if any)."""
    request = params.get("request") if isinstance(params.get("request"), dict) else {}
    connections = (request or {}).get("vimConnectionInfo") or {}
    pairs = connections.items() if isinstance(connections, dict) else enumerate(connections)
    vim_id, vim = next(((key, value) for key, value in pairs if is_openstack_vim(value)), (None, None))
    cloud.enable_sdk_logging(params.get("sdk_log_path"), params.get("sdk_log_level"))
    conn = cloud.connect(cloud.connection_options(params, vim))
    return shared.HeatVim(conn, vim_id, vim)


def with_api_calls(result, vim):
    result["api_calls"] = dict(vim.counter.calls)
    return result


def locate(params):
    """``(vim, store, (instance, op_occs, version))`` of the instance the params select; NotFoundError when none."""
    vim = heat_vim(params)
    store, found = located(vim, params)
    return vim, store, found


def run_resume(params, check_mode=False, diff_mode=False):
    """vnf_lcm_op_occ on OpenStack: retry, roll back or fail a FAILED_TEMP op occ. The record has what each needs, but for
    the retry of a MODIFY_INFO that changed vnfdId: its new VNFD comes from option package."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import resume

    vim, store, found = locate(params)
    event = params["action"]

    def plan(failed, record):
        # Read only by the one resumer that uses it (planning is its only use, so it is closed before the operation runs).
        path = params.get("package") if event == "retry" and failed.get("operation") == occ.MODIFY_INFO else None
        with optional_package(path) as package:
            return resume.plan_resume(vim, store, record, failed, event, waits(params), skip_coordination=params.get("skip_coordination"),
                                      package=package)

    result = engine.act_on_op_occ(store, found, params.get("vnf_lcm_op_occ_id"), event, plan, check_mode, diff_mode, force=params.get("force"))
    return with_api_calls(result, vim)


def run_instantiate(params, check_mode=False, diff_mode=False):
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import instantiate
    from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

    vim = heat_vim(params)
    # The module needs the VNFD and the BaseHOT (and a user-data script the user allows): hook scripts are the role's (they only warn here),
    # and images come from Glance by name, not from the package.
    with load_package(params["package"]) as package:
        name, description, metadata = creation_fields(params, package.to_dict()["vnfd"])
        operation = instantiate.plan_instantiate(vim, package, name, params["request"], description, params.get("vnf_instance_id"), waits(params),
                                                 preview=check_mode or diff_mode, allow_scripts=params.get("allow_package_scripts"), metadata=metadata)
    operation = with_metadata_warning(operation, metadata)
    return with_api_calls(engine.run(operation, check_mode, diff_mode), vim)


def on_instance(planner, name, missing_ok=False):
    """The run of ``planner`` on the instance the params select; ``name`` (SCALE, ...) is the operation."""
    def run(params, check_mode=False, diff_mode=False, vim=None):
        vim = vim or heat_vim(params)
        try:
            store, found = located(vim, params)
        except NotFoundError as error:
            if not missing_ok:
                raise
            return with_api_calls({"changed": False, "vnf_instance": None, "plan": {"lines": [error.msg]}}, vim)
        engine.require_idle(store, found, name, check_mode=check_mode)
        operation = planner(vim, store, found, params.get("request"), waits(params), preview=check_mode or diff_mode)
        return with_api_calls(engine.run(operation, check_mode, diff_mode), vim)
    return run


def run_change_pkg(params, check_mode=False, diff_mode=False):
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import change_pkg
    from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package
    from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.change_pkg import ROLLOUT, SIDE_BY_SIDE

    if params.get(ROLLOUT) == SIDE_BY_SIDE:
        raise ValidationError(occ.CHANGE_VNFPKG, ROLLOUT, "side_by_side is for Kubernetes: on OpenStack the VNFCs of vdu_params change one at a time")
    vim, store, found = locate(params)
    engine.require_idle(store, found, occ.CHANGE_VNFPKG, check_mode=check_mode)
    with load_package(params["package"]) as package, optional_package(params.get("current_package")) as current:
        operation = change_pkg.plan_change_pkg(vim, store, found, package, params["request"], waits(params), preview=check_mode or diff_mode,
                                               allow_scripts=params.get("allow_package_scripts"), current_package=current)
    return with_api_calls(engine.run(operation, check_mode, diff_mode), vim)


@contextlib.contextmanager
def optional_package(path):
    """The package at ``path`` while the block runs (closed after), or None when no path is given."""
    if not path:
        yield None
        return
    from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

    with load_package(path) as package:
        yield package


def run_modify(params, check_mode=False, diff_mode=False):
    """vnf_modify on OpenStack: the record only (lcm/vm/modify.py); option package gives the VNFD of a new vnfdId."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import modify

    modify.check_heat_options(params.get("delete_removed"))
    with optional_package(params.get("package")) as package:
        return on_instance(functools.partial(modify.plan_modify, package=package), occ.MODIFY_INFO)(params, check_mode, diff_mode)


def run_delete(params, check_mode=False, diff_mode=False):
    """vnf_delete on OpenStack: the record lives in the instance's stack, so a terminate already took it."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import delete as identifier

    vim = heat_vim(params)
    result = identifier.delete_identifier(lambda: located(vim, params), left_stack, check_mode, diff_mode, params["wait_timeout"])
    return with_api_calls(result, vim)


def run_terminate(params, check_mode=False, diff_mode=False):
    """vnf_terminate; with delete_instance, the identifier goes next, on the same connection (lcm/delete.py)."""
    vim = heat_vim(params)
    result = on_instance(terminate.plan_terminate, occ.TERMINATE, missing_ok=True)(params, check_mode, diff_mode, vim=vim)
    if not params.get("delete_instance"):
        return result
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import delete as identifier

    result = identifier.terminate_then_delete(result, lambda: located(vim, params), left_stack, check_mode, diff_mode, params["wait_timeout"])
    return with_api_calls(result, vim)


def located(vim, params):
    """``(store, found)`` of the instance the params select, on a connected ``vim``; NotFoundError when none."""
    store = HeatRecordStore(vim.stacks)
    found = store.find(params.get("vnf_instance_id"), params.get("vnf_instance_name"))
    if found is None:
        wanted = params.get("vnf_instance_id") or repr(params.get("vnf_instance_name"))
        raise NotFoundError("VNF instance {0} in the Heat stacks of this project".format(wanted))
    return store, found


def left_stack(instance):
    """The stack a NOT_INSTANTIATED record names: what an instantiate that was failed (not rolled back) left."""
    metadata = (instance.get("instantiatedVnfInfo") or {}).get("metadata") or {}
    if instance.get("instantiationState") == INSTANTIATED or not metadata.get("stack_id"):
        return []
    return ["stack {0}".format(metadata.get("stack_name"))]


def run_change_ext_conn(params, check_mode=False, diff_mode=False):
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import change_ext_conn

    return on_instance(change_ext_conn.plan_change_ext_conn, occ.CHANGE_EXT_CONN)(params, check_mode, diff_mode)


RUNS = {
    "instantiate": run_instantiate,
    "scale": on_instance(scale.plan_scale, occ.SCALE),
    "scale_to_level": on_instance(scale.plan_scale_to_level, occ.SCALE_TO_LEVEL),
    "heal": on_instance(heal.plan_heal, occ.HEAL),
    "terminate": run_terminate,
    "delete": run_delete,
    "info": info.openstack_records,
    "op_occ": run_resume,
    "change_pkg": run_change_pkg,
    "modify": run_modify,
    "change_ext_conn": run_change_ext_conn,
}


def run_for(operation):
    """The Heat run of an LCM module's operation: ``run(params, check_mode, diff_mode)``."""
    if operation not in RUNS:
        raise ValidationError(operation, "vimConnectionInfo", "this operation is not available on the OpenStack VIM yet")
    return RUNS[operation]
