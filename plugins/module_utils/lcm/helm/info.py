# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vnf_info with a Helm request is the CNF driver's: Helm-chart and manifest CNFs share their namespace's records (no
Helm binary is needed to read them)."""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import info


def run_info(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """One instance or all."""
    return info.run_info(params, check_mode, diff_mode)
