# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vnf_info: the VNF instance records a driver's record store holds (``run_info`` of lcm/cnf/info.py and lcm/vm/info.py
gives the store).

Reading needs neither the operations nor the package reader: vnf_info's AnsiballZ payload, which Ansible builds and
the module unpacks and compiles on every call, holds the record stores only. The roles read every instance back after
each operation, so this is the call a fleet makes most.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import engine
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import info_result


def selected(params, store):
    """``[(instance, op_occs)]``: the instance of ``vnf_instance_id`` / ``vnf_instance_name``, else all of ``store``."""
    if params.get("vnf_instance_id") or params.get("vnf_instance_name"):
        record = store.find(params.get("vnf_instance_id"), params.get("vnf_instance_name"))
        return [record[:2]] if record else []
    return [(instance, op_occs) for instance, op_occs, _version in store.list()]


def records_of(params, store):
    """vnf_info's result from ``store``: by a name no record has, ``name_claim`` shows a claim of it an instantiate killed
    before its record left (common/name_claim.py left_claim), if there is one."""
    found = selected(params, store)
    result = engine.with_links(store, info_result(found, engine.utc_now()))
    shown = None if found or params.get("vnf_instance_id") else store.left_claim(params.get("vnf_instance_name"))
    if shown:
        result["name_claim"] = shown
    return result
