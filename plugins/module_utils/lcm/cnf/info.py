# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vnf_info of CNFs: the records of the session's namespace (``namespace``, else the context's, else default), and with
``drift`` what differs between each instantiated one's live objects and its record (lcm/cnf/drift.py)."""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.drift import instance_drift
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.info import records_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED


def run_info(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """One instance or all; ``drift``: each instantiated one's drift."""
    kube = session.connect(params)
    result = records_of(params, kube.store())
    if params.get("drift"):
        result["drift"] = [instance_drift(kube.api, instance) for instance in result["vnf_instances"]
                           if instance.get("instantiationState") == INSTANTIATED]
    return result
