# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""From module params to a finished operation: what every LCM module's main() calls."""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import NotFoundError, VnfLcmError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.module import VnfLcmModule
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.api import KubeApi
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.client import HAS_KUBERNETES, KUBERNETES_IMPORT_ERROR, build_api_client, connection_options
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.store import SecretRecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import cnf, engine
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

DEFAULT_NAMESPACE = "default"


def kube_api(params):
    """``(KubeApi, the namespace to look in)`` from the connection and instance options."""
    client, context_namespace = build_api_client(connection_options(params))
    return KubeApi(client), params.get("namespace") or context_namespace or DEFAULT_NAMESPACE


def waits(params):
    return cnf.Waits(params["wait"], params["wait_timeout"], params["wait_sleep"])


def instantiate(params, check_mode=False, diff_mode=False):
    api, _namespace = kube_api(params)
    with load_package(params["package"], operation="instantiate") as package:
        operation = cnf.plan_instantiate(
            api, package, params["vnf_instance_name"], params["request"], params.get("vnf_instance_description"),
            params.get("vnf_instance_id"), params["namespace_policy"], params["allow_cluster_scoped"], waits(params))
    return with_api_calls(engine.run(operation, check_mode, diff_mode), api)


def on_instance(planner, params, check_mode=False, diff_mode=False, missing_ok=False):
    """Run ``planner`` (cnf.plan_scale, plan_heal, plan_terminate) on the instance the params select.

    ``missing_ok``: an instance that does not exist (any more) is nothing to do, not an error.
    """
    api, namespace = kube_api(params)
    try:
        store, found = cnf.locate(api, namespace, params.get("vnf_instance_id"), params.get("vnf_instance_name"))
    except NotFoundError as error:
        if not missing_ok:
            raise
        return with_api_calls({"changed": False, "vnf_instance": None, "plan": {"note": error.msg}}, api)
    operation = planner(api, store, found, params.get("request"), waits(params))
    return with_api_calls(engine.run(operation, check_mode, diff_mode), api)


def info(params, check_mode=False, diff_mode=False):
    """One instance (by id or name) with its op occs, or every instance of the namespace."""
    api, namespace = kube_api(params)
    if params.get("vnf_instance_id") or params.get("vnf_instance_name"):
        record = SecretRecordStore(api, namespace).find(params.get("vnf_instance_id"), params.get("vnf_instance_name"))
        found = [record[:2]] if record else []
    else:
        found = [(instance, op_occs) for instance, op_occs, _version in SecretRecordStore(api, namespace).list()]
    return {"changed": False, "vnf_instances": [instance for instance, _op_occs in found],
            "vnf_lcm_op_occs": [occ for _instance, op_occs in found for occ in op_occs]}


def with_api_calls(result, api):
    """How many API calls the operation made (reads and writes): what the benchmarks compare."""
    result["api_calls"] = dict(api.calls)
    return result


def kubernetes_module_main(run, argument_spec, arg_groups, **module_kwargs):
    """The whole main() of a Kubernetes LCM module: ``run(params, check_mode, diff_mode)`` gives the result."""
    module = VnfLcmModule(argument_spec=argument_spec, arg_groups=arg_groups, supports_check_mode=True, **module_kwargs)
    module.require("kubernetes", HAS_KUBERNETES, KUBERNETES_IMPORT_ERROR)
    try:
        result = run(module.params, module.check_mode, module.diff_mode)
    except VnfLcmError as error:
        module.fail_from_error(error)
    module.exit_json(**result)


def instance_module_main(planner, argument_spec, missing_ok=False):
    """main() of a module that runs one operation on an existing instance (scale, heal, terminate)."""
    kubernetes_module_main(lambda params, check_mode, diff_mode: on_instance(planner, params, check_mode, diff_mode, missing_ok),
                           argument_spec, ("kubernetes", "wait", "instance"), required_one_of=[("vnf_instance_id", "vnf_instance_name")])
