# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""ChangeExtVnfConnectivity of a Helm-chart CNF: there is none, as for any CNF (lcm/cnf/change_ext_conn.py)."""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import change_ext_conn


def run_change_ext_conn(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    return change_ext_conn.run_change_ext_conn(params, check_mode, diff_mode)
