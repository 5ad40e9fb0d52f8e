# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Heal a Helm-chart CNF's VNFCs as Tacker v2 does: their pods deleted, the release's controllers replace them (the
release itself is not changed). The pod replacement is the CNF driver's (lcm/cnf/heal.py), with the VNFCs read from the
release's workloads; a heal left FAILED_TEMP can be retried only.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import instance_run
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import heal as pod_heal
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import Waits
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm.chart import with_vnfcs
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ


def run_heal(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_heal of a Helm-chart CNF."""
    return instance_run.on_instance(session.connect(params), plan_heal, params, check_mode, diff_mode, name=occ.HEAL)


def plan_heal(helm: session.HelmSession, store: RecordStore, found: Found, request: Optional[dict], waits: Optional[Waits] = None,
              healed_before: Sequence[str] = ()) -> Operation:
    return pod_heal.plan_heal(helm.api, store, found, request, waits, healed_before, refresh=with_vnfcs)


def plan_resume(helm: session.HelmSession, store: RecordStore, found: Found, failed_op_occ: dict, event: str, waits: Optional[Waits] = None,
                **options: Any) -> Operation:
    return pod_heal.plan_resume(helm.api, store, found, failed_op_occ, event, waits, refresh=with_vnfcs)
