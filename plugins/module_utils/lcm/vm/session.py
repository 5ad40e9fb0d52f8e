# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The VM driver's session (lcm/instance_run.py's Session): the OpenStack cloud the connection options reach
(HeatVim, whose stacks hold the records).

Each operation's run (module params to a finished operation) is in its own file beside this one (``run_scale`` of
scale.py, ...), which its module names: a module's AnsiballZ payload then carries its own operation's code and not
the others'. This file imports no operation.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import cloud
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.cloud import CallCounter
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.stack import Stacks
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import HeatRecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.drivers import VM
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import OPENSTACK_VIM_TYPES, check_vim_endpoints, is_openstack_vim


class HeatVim:
    """An OpenStack cloud as the driver uses it: the SDK connection, its stacks, and the call counter; the VM driver's
    session (lcm/instance_run.py's Session)."""

    driver = VM

    def __init__(self, conn, vim_id=None, vim=None):
        self.conn = conn
        self.stacks = Stacks(conn)
        self.counter = CallCounter(conn)
        self.vim_id = vim_id
        self.vim = vim

    def store(self):
        return HeatRecordStore(self.stacks)

    def where(self):
        return "in the Heat stacks of this project"

    def client(self):
        return self

    def api_calls(self):
        return dict(self.counter.calls)

    def plan(self, planner, store, found, request, waits, preview):
        return planner(self, store, found, request, waits=waits, preview=preview)


def connect(params):
    """A connected HeatVim from the params (and the request's OpenStack vimConnectionInfo, if any)."""
    request = params.get("request") if isinstance(params.get("request"), dict) else {}
    connections = (request or {}).get("vimConnectionInfo") or {}
    pairs = connections.items() if isinstance(connections, dict) else enumerate(connections)
    vim_id, vim = next(((key, value) for key, value in pairs if is_openstack_vim(value)), (None, None))
    cloud.enable_sdk_logging(params.get("sdk_log_path"), params.get("sdk_log_level"))
    conn = cloud.connect(cloud.connection_options(params, vim))
    check_vim_endpoints(request, OPENSTACK_VIM_TYPES, cloud.keystone_url(conn), cloud.connection_source(params), keystone=True)
    return HeatVim(conn, vim_id, vim)
