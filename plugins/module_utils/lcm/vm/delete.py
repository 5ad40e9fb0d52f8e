# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vnf_delete on OpenStack: the record lives in the instance's stack, so a terminate already took it (lcm/delete.py)."""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import delete as identifier
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED


def run_delete(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    return identifier.run_delete(session.connect(params), params, left_stack, check_mode, diff_mode, params["wait_timeout"])


def left_stack(instance):
    """The stack a NOT_INSTANTIATED record names: what an instantiate that was failed (not rolled back) left."""
    metadata = (instance.get("instantiatedVnfInfo") or {}).get("metadata") or {}
    if instance.get("instantiationState") == INSTANTIATED or not metadata.get("stack_id"):
        return []
    return ["stack {0}".format(metadata.get("stack_name"))]
