# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Kubernetes path of every LCM module: from module params to a finished operation (lcm/vim.py dispatches here).

The package reader and the container update / change of package planners are imported by the operations that use
them: a module compiles what it imports on every call, and scale, heal and terminate need none of them.
"""

from __future__ import annotations

from contextlib import nullcontext

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import NotFoundError, ValidationError, VimError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.api import KubeApi
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.client import build_api_client, connection_options
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import engine
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import heal, scale, terminate
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.shared import belongs, locate, recorded_resources
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import creation_fields, waits, with_metadata_warning
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED

DEFAULT_NAMESPACE = "default"


def kube_api(params):
    """``(KubeApi, the namespace to look in)`` from the connection and instance options."""
    client, context_namespace = build_api_client(connection_options(params))
    return KubeApi(client), params.get("namespace") or context_namespace or DEFAULT_NAMESPACE


def run_instantiate(params, check_mode=False, diff_mode=False):
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.instantiate import plan_instantiate
    from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

    api, _namespace = kube_api(params)
    # No operation for the reader: the VNFD's interface scripts it lacks are refused only when they are to run (interface_scripts.py).
    with load_package(params["package"]) as package:
        name, description, metadata = creation_fields(params, package.to_dict()["vnfd"])
        operation = plan_instantiate(api, package, name, params["request"], description, params.get("vnf_instance_id"), params["namespace_policy"],
                                     params["allow_cluster_scoped"], waits(params), params.get("namespace"), metadata, params["allow_package_scripts"])
    operation = with_metadata_warning(operation, metadata)
    return with_api_calls(engine.run(operation, check_mode, diff_mode), api)


def on_instance(planner, params, check_mode=False, diff_mode=False, missing_ok=False, client=None, *, name):
    """Run ``planner`` (scale.plan_scale, heal.plan_heal, terminate.plan_terminate, ...) on the instance the params select.

    ``name``: the operation (SCALE, ...), for the refusal while an earlier one is unfinished.
    ``missing_ok``: an instance that does not exist (any more) is nothing to do, not an error.
    ``client``: the ``(api, namespace)`` to use, when the caller goes on with it.
    """
    api, namespace = client or kube_api(params)
    try:
        store, found = locate(api, namespace, params.get("vnf_instance_id"), params.get("vnf_instance_name"))
    except NotFoundError as error:
        if not missing_ok:
            raise
        return with_api_calls({"changed": False, "vnf_instance": None, "plan": {"note": error.msg}}, api)
    engine.require_idle(store, found, name, check_mode=check_mode)
    operation = planner(api, store, found, params.get("request"), waits(params))
    return with_api_calls(engine.run(operation, check_mode, diff_mode), api)


def run_modify(params, check_mode=False, diff_mode=False):
    """vnf_modify: the new package (when given) is read before anything else."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.modify import plan_modify
    from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

    # No operation: the package's modify hooks (Tacker mgmt drivers) are the role's business, not this module's.
    with load_package(params["package"]) if params.get("package") else nullcontext() as package:
        return on_instance(lambda api, store, found, request, waits: plan_modify(api, store, found, request, package, params["delete_removed"], waits),
                           params, check_mode, diff_mode, name=occ.MODIFY_INFO)


def run_change_pkg(params, check_mode=False, diff_mode=False):
    """vnf_change_pkg: the new package is read, and closed, while the change is planned."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.change_pkg import plan_change_pkg
    from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package
    from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.change_pkg import ONE_AT_A_TIME, ROLLOUT

    if params.get("current_package"):
        # A CNF's old-VNF hook is read from the new package (its retry plans again from that package alone).
        raise ValidationError(occ.CHANGE_VNFPKG, "current_package", "is used on OpenStack only: on Kubernetes the hooks are read from the new package")
    with load_package(params["package"]) as package:
        return on_instance(lambda api, store, found, request, waits: plan_change_pkg(
            api, store, found, package, request, waits, params["allow_package_scripts"], params.get(ROLLOUT) or ONE_AT_A_TIME),
            params, check_mode, diff_mode, name=occ.CHANGE_VNFPKG)


def run_resume(params, check_mode=False, diff_mode=False):
    """vnf_lcm_op_occ: retry, roll back or fail a FAILED_TEMP operation occurrence of the instance (lcm/cnf/resume.py)."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.store import drop_rollback
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import resume as resumers
    from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

    if params.get("skip_coordination"):
        raise ValidationError("vnf_lcm_op_occ", "skip_coordination", "is used on OpenStack only (the rollback of a change of package on Heat)")
    api, namespace = kube_api(params)
    store, found = locate(api, namespace, params.get("vnf_instance_id"), params.get("vnf_instance_name"))
    event = params["action"]

    def plan(failed, record):
        operation_type = failed["operation"]
        if resumers.needs_package(event, failed, record[0]) and not params.get("package"):
            raise ValidationError("vnf_lcm_op_occ", "package", "{0} of {1} reads the package again: give it".format(event, operation_type))
        # Planning reads all it needs of the package: it can be closed before the operation runs.
        with load_package(params["package"]) if params.get("package") else nullcontext() as package:
            return resumers.plan_resume(api, store, record, failed, event, waits(params), package, params)

    def on_fail(failed):
        if failed["operation"] in resumers.KEEPS_ROLLBACK_DATA:
            drop_rollback(api, found[0])
        # A failed terminate leaves the instance NOT_INSTANTIATED, its record listing what is still there.
        if failed["operation"] == occ.TERMINATE:
            return terminate.record_after_fail(api, found[0])
        return None

    result = engine.act_on_op_occ(store, found, params.get("vnf_lcm_op_occ_id"), event, plan, check_mode, diff_mode, on_fail,
                                  force=params.get("force"))
    return with_api_calls(result, api)


def run_delete(params, check_mode=False, diff_mode=False):
    """vnf_delete: the instance's identifier, with its record and what the collection keeps for it (lcm/delete.py)."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import delete as identifier

    api, namespace = kube_api(params)
    result = identifier.delete_identifier(lambda: locate(api, namespace, params.get("vnf_instance_id"), params.get("vnf_instance_name")),
                                          left_objects(api), check_mode, diff_mode)
    return with_api_calls(result, api)


def run_terminate(params, check_mode=False, diff_mode=False):
    """vnf_terminate; with delete_instance, the identifier goes next, on the same connection (lcm/delete.py)."""
    api, namespace = kube_api(params)
    result = on_instance(terminate.plan_terminate, params, check_mode, diff_mode, missing_ok=True, client=(api, namespace), name=occ.TERMINATE)
    if not params.get("delete_instance"):
        return result
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import delete as identifier

    result = identifier.terminate_then_delete(
        result, lambda: locate(api, namespace, params.get("vnf_instance_id"), params.get("vnf_instance_name")), left_objects(api),
        check_mode, diff_mode)
    return with_api_calls(result, api)


def left_objects(api):
    """``leftovers_of(instance)`` for lcm/delete.py: what the record of a NOT_INSTANTIATED instance lists (what an
    instantiate or a terminate that was failed left) that is still there and the instance's, as delete.Leftovers:
    those being deleted already (held by finalizers, mostly) apart, as only their holder can release them. An object
    that cannot be read counts as there."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.delete import Leftovers

    def leftovers_of(instance):
        if instance.get("instantiationState") == INSTANTIATED:
            return []
        blocking, held = [], []
        for item in recorded_resources(instance):
            name = "{0}/{1}".format(item.get("kind"), item.get("name"))
            try:
                live = api.get(item["apiVersion"], item["kind"], item["name"], item.get("namespace"))
            except VimError:
                blocking.append(name)
                continue
            if live is None or not belongs(live, item, instance["id"]):
                continue
            meta = live["metadata"]
            if not meta.get("deletionTimestamp"):
                blocking.append(name)
            elif meta.get("finalizers"):
                held.append("{0} (being deleted, held by finalizers {1})".format(name, ", ".join(meta["finalizers"])))
            else:
                held.append("{0} (being deleted)".format(name))
        return Leftovers(blocking, held)
    return leftovers_of


def with_api_calls(result, api):
    """How many API calls the operation made (reads and writes): what the benchmarks compare."""
    result["api_calls"] = dict(api.calls)
    return result


def run_for(operation):
    """The Kubernetes run of an LCM module's operation: ``run(params, check_mode, diff_mode)``."""
    if operation == "instantiate":
        return run_instantiate
    if operation == "info":
        from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.info import kubernetes_records
        return kubernetes_records
    if operation == "change_ext_conn":
        raise ValidationError("ChangeExtVnfConnectivityRequest", None, "ChangeExtVnfConnectivity is only for the OpenStack VIM: CNF external "
                              "connectivity is the package's Services")
    if operation in ("modify", "op_occ", "change_pkg", "delete", "terminate"):
        return {"modify": run_modify, "op_occ": run_resume, "change_pkg": run_change_pkg, "delete": run_delete, "terminate": run_terminate}[operation]
    planner = {"scale": scale.plan_scale, "scale_to_level": scale.plan_scale_to_level, "heal": heal.plan_heal}[operation]

    def run(params, check_mode=False, diff_mode=False):
        return on_instance(planner, params, check_mode, diff_mode, name=operation.upper())
    return run
