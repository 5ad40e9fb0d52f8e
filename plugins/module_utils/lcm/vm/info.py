# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vnf_info of VM-based VNFs: the records kept in the project's stacks tagged vnflcm, and with ``drift`` what differs
between each instantiated one's servers, ports and volumes and its record (lcm/vm/drift.py)."""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.info import records_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.drift import instance_drift
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED


def run_info(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """One instance or all; ``drift``: each instantiated one's drift."""
    vim = session.connect(params)
    result = records_of(params, vim.store())
    if params.get("drift"):
        result["drift"] = [instance_drift(vim.conn, instance) for instance in result["vnf_instances"]
                           if instance.get("instantiationState") == INSTANTIATED]
    return result
