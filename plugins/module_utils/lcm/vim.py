# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One set of modules, two VIMs: which VIM an operation goes to, and the main() every LCM module calls.

The VIM is OpenStack when the module gets openstack.cloud-style options (``cloud`` or ``auth``), or when
the request's ``vimConnectionInfo`` has an entry of type ``ETSINFV.OPENSTACK_KEYSTONE.V_3``; else it
is Kubernetes (runner.py, the CNF path), as before.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import Interrupted, NotFoundError, ValidationError, VimError, VnfLcmError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.module import VnfLcmModule
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.signals import interrupted_by_signals
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import cloud
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.client import HAS_KUBERNETES, KUBERNETES_IMPORT_ERROR
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import HeatRecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import cnf, engine, runner, vm, vm_change_pkg
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

OPENSTACK = "openstack"
KUBERNETES = "kubernetes"
# Options of the Kubernetes group that select that VIM when set.
KUBERNETES_SELECTORS = ("kubeconfig", "context", "host", "api_key")


def vim_of(params):
    """``openstack`` or ``kubernetes`` for these module params."""
    if params.get("cloud") or params.get("auth"):
        return OPENSTACK
    request = params.get("request") or {}
    connections = request.get("vimConnectionInfo") if isinstance(request, dict) else None
    if connections:
        items = connections.values() if isinstance(connections, dict) else connections
        types = {(item or {}).get("vimType") for item in items}
        if types & set(cloud.OPENSTACK_VIM_TYPES):
            if any(params.get(key) for key in KUBERNETES_SELECTORS):
                raise ValidationError("module options", "request.vimConnectionInfo", "names an OpenStack VIM, but Kubernetes connection options are set")
            return OPENSTACK
    return KUBERNETES


def heat_vim(params):
    """A connected vm.HeatVim from the params (and the request's OpenStack vimConnectionInfo, if any)."""
    request = params.get("request") if isinstance(params.get("request"), dict) else {}
    connections = (request or {}).get("vimConnectionInfo") or {}
    pairs = connections.items() if isinstance(connections, dict) else enumerate(connections)
    vim_id, vim = next(((key, value) for key, value in pairs if cloud.is_openstack_vim(value)), (None, None))
    conn = cloud.connect(cloud.connection_options(params, vim))
    return vm.HeatVim(conn, vim_id, vim)


def with_calls(result, vim):
    result["api_calls"] = dict(vim.counter.calls)
    return result


def heat_locate(params):
    """``(vim, store, (instance, op_occs, version))`` of the instance the params select; NotFoundError when none."""
    vim = heat_vim(params)
    store = HeatRecordStore(vim.stacks)
    found = store.find(params.get("vnf_instance_id"), params.get("vnf_instance_name"))
    if found is None:
        wanted = params.get("vnf_instance_id") or repr(params.get("vnf_instance_name"))
        raise NotFoundError("VNF instance {0} in the Heat stacks of this project".format(wanted))
    return vim, store, found


def heat_resume(params, check_mode=False, diff_mode=False):
    """vnf_lcm_op_occ on OpenStack: retry, roll back or fail a FAILED_TEMP op occ (no package needed: the record has it)."""
    vim, store, found = heat_locate(params)
    event = params["action"]

    def plan(failed, record):
        planner = vm_change_pkg.plan_resume_change if failed["operation"] == vm_change_pkg.OPERATION else vm.plan_resume
        return planner(vim, store, record, failed, event, runner.waits(params))

    result = engine.act_on_op_occ(store, found, params.get("vnf_lcm_op_occ_id"), event, plan, check_mode, diff_mode, force=params.get("force"))
    return with_calls(result, vim)


# ---------------------------------------------------------------------------------------------
# The Heat path of each module

def heat_instantiate(params, check_mode=False, diff_mode=False):
    vim = heat_vim(params)
    # The module needs the VNFD and the BaseHOT only: hook scripts are the role's (they only warn here),
    # and images come from Glance by name, not from the package.
    with load_package(params["package"]) as package:
        operation = vm.plan_instantiate(vim, package, params["vnf_instance_name"], params["request"], params.get("vnf_instance_description"),
                                        params.get("vnf_instance_id"), runner.waits(params), preview=check_mode or diff_mode)
    return with_calls(engine.run(operation, check_mode, diff_mode), vim)


def heat_on_instance(planner, missing_ok=False):
    def run(params, check_mode=False, diff_mode=False):
        try:
            vim, store, found = heat_locate(params)
        except NotFoundError as error:
            if not missing_ok:
                raise
            return {"changed": False, "vnf_instance": None, "plan": {"lines": [error.msg]}}
        operation = planner(vim, store, found, params.get("request"), runner.waits(params), preview=check_mode or diff_mode)
        return with_calls(engine.run(operation, check_mode, diff_mode), vim)
    return run


def heat_change_pkg(params, check_mode=False, diff_mode=False):
    vim, store, found = heat_locate(params)
    with load_package(params["package"]) as package:
        operation = vm_change_pkg.plan_change_pkg(vim, store, found, package, params["request"], runner.waits(params),
                                                  preview=check_mode or diff_mode, allow_scripts=params.get("allow_package_scripts"))
    return with_calls(engine.run(operation, check_mode, diff_mode), vim)


def heat_info(params, check_mode=False, diff_mode=False):
    vim = heat_vim(params)
    store = HeatRecordStore(vim.stacks)
    if params.get("vnf_instance_id") or params.get("vnf_instance_name"):
        record = store.find(params.get("vnf_instance_id"), params.get("vnf_instance_name"))
        found = [record] if record else []
    else:
        found = store.list()
    return runner.info_result([(instance, op_occs) for instance, op_occs, _version in found])


HEAT_RUNS = {
    "instantiate": heat_instantiate,
    "scale": heat_on_instance(vm.plan_scale),
    "heal": heat_on_instance(vm.plan_heal),
    "terminate": heat_on_instance(vm.plan_terminate, missing_ok=True),
    "info": heat_info,
    "op_occ": heat_resume,
    "change_pkg": heat_change_pkg,
}


def kubernetes_run(operation):
    """The Kubernetes path of an operation, from runner.py."""
    if operation == "instantiate":
        return runner.instantiate
    if operation == "change_pkg":
        raise ValidationError("change_pkg", "vimConnectionInfo",
                              "on Kubernetes the change of VNF package is vnf_modify with a new vnfdId and package (the container update)")
    if operation in ("info", "modify", "op_occ"):
        return {"info": runner.info, "modify": runner.modify, "op_occ": runner.resume}[operation]
    planner = {"scale": cnf.plan_scale, "heal": cnf.plan_heal, "terminate": cnf.plan_terminate}[operation]

    def run(params, check_mode=False, diff_mode=False):
        return runner.on_instance(planner, params, check_mode, diff_mode, missing_ok=operation == "terminate")
    return run


def module_main(operation, argument_spec, arg_groups, **module_kwargs):
    """The whole main() of an LCM module, for both VIMs: ``operation`` is instantiate, scale, heal, terminate or info.

    Nothing but a collection error leaves it: any other exception (and a stop signal) is reported as
    one; an operation under way has recorded its op occ FAILED_TEMP by then (engine.run).
    """
    module = VnfLcmModule(argument_spec=argument_spec, arg_groups=arg_groups, supports_check_mode=True, **module_kwargs)
    with interrupted_by_signals() as interrupt:
        engine.configure(module.params.get("lease_seconds"), interrupt)
        try:
            result = run_module(module, operation)
        except VnfLcmError as error:
            module.fail_from_error(error)
        except (Exception, Interrupted, KeyboardInterrupt) as error:  # noqa: B902 - never a raw traceback from a library
            module.fail_from_error(VimError(ACTIONS.get(operation, operation), "VNF instance", engine.describe_exception(error)))
        else:
            module.exit_json(**result)


# How a failure outside any operation names what the module was doing.
ACTIONS = {"op_occ": "act on the operation occurrence of", "info": "read", "change_pkg": "change the package of"}


def run_module(module, operation):
    target = vim_of(module.params)
    if target == OPENSTACK:
        module.require("openstacksdk", cloud.HAS_OPENSTACKSDK, cloud.OPENSTACKSDK_IMPORT_ERROR)
        if operation not in HEAT_RUNS:
            raise ValidationError(operation, "vimConnectionInfo", "this operation is not available on the OpenStack VIM yet")
        run = HEAT_RUNS[operation]
    else:
        module.require("kubernetes", HAS_KUBERNETES, KUBERNETES_IMPORT_ERROR)
        run = kubernetes_run(operation)
    result = run(module.params, module.check_mode, module.diff_mode)
    result["vim_type"] = target
    return result
