# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What every operation's run on OpenStack (Heat) shares: the connection, the instance the params select, the API call
count, an optional package.

Each operation's run (module params to a finished operation) is in its own file beside this one (``run_scale`` of
scale.py, ...), which its module names: a module's AnsiballZ payload then carries its own operation's code and not
the others'. This file imports no operation.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import NotFoundError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import cloud
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import HeatRecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import engine
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import waits
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import shared
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import OPENSTACK_VIM_TYPES, check_vim_endpoints, is_openstack_vim


def heat_vim(params):
    """A connected shared.HeatVim from the params (and the request's OpenStack vimConnectionInfo, if any)."""
    request = params.get("request") if isinstance(params.get("request"), dict) else {}
    connections = (request or {}).get("vimConnectionInfo") or {}
    pairs = connections.items() if isinstance(connections, dict) else enumerate(connections)
    vim_id, vim = next(((key, value) for key, value in pairs if is_openstack_vim(value)), (None, None))
    cloud.enable_sdk_logging(params.get("sdk_log_path"), params.get("sdk_log_level"))
    conn = cloud.connect(cloud.connection_options(params, vim))
    check_vim_endpoints(request, OPENSTACK_VIM_TYPES, cloud.keystone_url(conn), cloud.connection_source(params), keystone=True)
    return shared.HeatVim(conn, vim_id, vim)


def with_api_calls(result, vim):
    result["api_calls"] = dict(vim.counter.calls)
    return result


def locate(params):
    """``(vim, store, (instance, op_occs, version))`` of the instance the params select; NotFoundError when none."""
    vim = heat_vim(params)
    store, found = located(vim, params)
    return vim, store, found


def automatic_invocation(params):
    """The modules' automatic_invocation option: the op occ is the VNFM's own doing (the closed loop's)."""
    return params.get("automatic_invocation") is True


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
        operation.automatic_invocation = automatic_invocation(params)
        return with_api_calls(engine.run(operation, check_mode, diff_mode), vim)
    return run


def unclaimer(vim, params):
    """``(store, name)``: where a run by name looks for its name's claim left without a record (lcm/delete.py); None by id."""
    name = params.get("vnf_instance_name")
    return None if params.get("vnf_instance_id") or not name else (HeatRecordStore(vim.stacks), name)


def located(vim, params):
    """``(store, found)`` of the instance the params select, on a connected ``vim``; NotFoundError when none."""
    store = HeatRecordStore(vim.stacks)
    found = store.find(params.get("vnf_instance_id"), params.get("vnf_instance_name"))
    if found is None:
        wanted = params.get("vnf_instance_id") or repr(params.get("vnf_instance_name"))
        raise NotFoundError("VNF instance {0} in the Heat stacks of this project".format(wanted))
    return store, found
