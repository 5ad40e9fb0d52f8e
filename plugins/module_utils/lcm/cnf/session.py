# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What every operation's run on Kubernetes shares: the connection, the instance the params select, the API call count.

Each operation's run (module params to a finished operation) is in its own file beside this one (``run_scale`` of
scale.py, ...), which its module names: a module's AnsiballZ payload then carries its own operation's code and not
the others'. This file imports no operation.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import NotFoundError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.api import KubeApi
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.client import build_api_client, connection_options
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.store import SecretRecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import engine
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.shared import locate
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import waits
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import KUBERNETES_VIM_TYPES, check_vim_endpoints

DEFAULT_NAMESPACE = "default"


def kube_api(params):
    """``(KubeApi, the namespace to look in)`` from the connection and instance options; a request whose vimConnectionInfo
    names another API server is refused here, before any call."""
    client, context_namespace = build_api_client(connection_options(params))
    check_vim_endpoints(params.get("request"), KUBERNETES_VIM_TYPES, client.configuration.host, "the kubeconfig's server and the connection options")
    return KubeApi(client), params.get("namespace") or context_namespace or DEFAULT_NAMESPACE


def automatic_invocation(params):
    """The modules' automatic_invocation option: the op occ is the VNFM's own doing (the closed loop's)."""
    return params.get("automatic_invocation") is True


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
    operation.automatic_invocation = automatic_invocation(params)
    return with_api_calls(engine.run(operation, check_mode, diff_mode), api)


def locator(api, namespace, params):
    """``locate()`` of the instance the params select, for lcm/delete.py."""
    return lambda: locate(api, namespace, params.get("vnf_instance_id"), params.get("vnf_instance_name"))


def unclaimer(api, namespace, params):
    """``(store, name)``: where a run by name looks for its name's claim left without a record (lcm/delete.py); None by id."""
    name = params.get("vnf_instance_name")
    return None if params.get("vnf_instance_id") or not name else (SecretRecordStore(api, namespace), name)


def with_api_calls(result, api):
    """How many API calls the operation made (reads and writes): what the benchmarks compare."""
    result["api_calls"] = dict(api.calls)
    return result
