# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vnf_info of VM-based VNFs: the records kept in the project's stacks tagged vnflcm."""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.info import records_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import session


def run_info(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """One instance or all."""
    if params.get("drift"):
        raise ValidationError("module options", "drift", "drift is read for CNFs on Kubernetes only; a VM-based VNF's is not yet")
    return records_of(params, session.connect(params).store())
