# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One set of modules, two VIMs: which VIM an operation goes to, and the main() every LCM module calls.

The VIM comes from ``vim_type``, the request's ``vimConnectionInfo``, the options only one VIM takes
(``cloud``, ``auth``, ... for OpenStack; ``kubeconfig``, ``host``, ... for Kubernetes), then the
environment (OS_CLOUD / OS_AUTH_URL, K8S_AUTH_*); Kubernetes (runner.py, the CNF path) when nothing
says otherwise. When two of them at the same step disagree, the module fails: see vim_of.
"""

from __future__ import annotations

import os

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.args import K8S_AUTH_ENV, K8S_PROXY_HEADERS_ENV
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
# Options (and the K8S_AUTH_* variables behind them) that only one VIM takes: setting one says which VIM
# is meant. validate_certs, ca_cert, client_cert and client_key apply to either VIM, so they say nothing.
KUBERNETES_SELECTORS = ("kubeconfig", "context", "host", "api_key", "username", "password", "proxy", "no_proxy",
                        "proxy_headers", "persist_config", "impersonate_user", "impersonate_groups")
OPENSTACK_SELECTORS = ("cloud", "auth", "auth_type", "region_name", "api_timeout", "sdk_log_path")
# What an AWX OpenStack credential (OS_CLIENT_CONFIG_FILE + OS_CLOUD) or an openrc file sets.
OPENSTACK_ENVIRONMENT = ("OS_CLOUD", "OS_AUTH_URL")
AMBIGUOUS = "the VIM is ambiguous: {0}; set vim_type, or give the options of one VIM only"


def vim_of(params, environ=None):
    """``openstack`` or ``kubernetes`` for these module params; ValidationError when they do not say which.

    In order: ``vim_type``; the request's ``vimConnectionInfo`` when it names one VIM type; the options
    only one VIM takes; then the environment: K8S_AUTH_* (as options) or OS_CLOUD / OS_AUTH_URL. Both VIMs
    at the same step is an error, never a choice.
    """
    environ = os.environ if environ is None else environ
    requested = requested_vims(params)
    chosen = params.get("vim_type")
    if chosen:
        if requested and chosen not in requested:
            raise ValidationError("module options", "vim_type", "{0}, but request.vimConnectionInfo names {1} VIMs only".format(
                chosen, " and ".join(sorted(requested))))
        return chosen
    given = {KUBERNETES: [name for name in KUBERNETES_SELECTORS if params.get(name) not in (None, "", [], {})],
             OPENSTACK: [name for name in OPENSTACK_SELECTORS if params.get(name) not in (None, "", {})]}
    if len(requested) == 1:
        (target,) = requested
        other = OPENSTACK if target == KUBERNETES else KUBERNETES
        if given[other] and not given[target]:
            raise ValidationError("module options", "request.vimConnectionInfo", "names a{0} {1} VIM, but {2} connection options are set ({3})".format(
                "n" if target == OPENSTACK else "", LABELS[target], LABELS[other], ", ".join(given[other])))
        return target
    if given[KUBERNETES] and given[OPENSTACK]:
        raise ValidationError("module options", "vim_type", AMBIGUOUS.format(
            "Kubernetes options ({0}) and OpenStack options ({1}) are both set".format(", ".join(given[KUBERNETES]), ", ".join(given[OPENSTACK]))))
    for target in (OPENSTACK, KUBERNETES):
        if given[target]:
            return target
    kubernetes_variables = [variable for name in KUBERNETES_SELECTORS for variable in K8S_AUTH_ENV.get(name, ())]
    from_environment = {KUBERNETES: [variable for variable in kubernetes_variables if environ.get(variable)],
                        OPENSTACK: [variable for variable in OPENSTACK_ENVIRONMENT if environ.get(variable)]}
    from_environment[KUBERNETES] += [variable for variable in K8S_PROXY_HEADERS_ENV.values() if environ.get(variable)]
    if from_environment[KUBERNETES] and from_environment[OPENSTACK]:
        raise ValidationError("module options", "vim_type", AMBIGUOUS.format("the environment has Kubernetes ({0}) and OpenStack ({1}) credentials".format(
            ", ".join(from_environment[KUBERNETES]), ", ".join(from_environment[OPENSTACK]))))
    return OPENSTACK if from_environment[OPENSTACK] else KUBERNETES


LABELS = {OPENSTACK: "OpenStack", KUBERNETES: "Kubernetes"}


def requested_vims(params):
    """The VIM types the request's vimConnectionInfo names (Tacker's vimType values)."""
    request = params.get("request")
    connections = request.get("vimConnectionInfo") if isinstance(request, dict) else None
    if not connections:
        return set()
    items = connections.values() if isinstance(connections, dict) else connections
    types = {(item or {}).get("vimType") for item in items if isinstance(item, dict) or item is None}
    found = set()
    if types & set(cloud.OPENSTACK_VIM_TYPES):
        found.add(OPENSTACK)
    if types & set(cloud.KUBERNETES_VIM_TYPES):
        found.add(KUBERNETES)
    return found


def heat_vim(params):
    """A connected vm.HeatVim from the params (and the request's OpenStack vimConnectionInfo, if any)."""
    request = params.get("request") if isinstance(params.get("request"), dict) else {}
    connections = (request or {}).get("vimConnectionInfo") or {}
    pairs = connections.items() if isinstance(connections, dict) else enumerate(connections)
    vim_id, vim = next(((key, value) for key, value in pairs if cloud.is_openstack_vim(value)), (None, None))
    cloud.enable_sdk_logging(params.get("sdk_log_path"), params.get("sdk_log_level"))
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
