# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Change of current VNF package of a Helm-chart CNF: not yet (lcm/helm/unsupported.py)."""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm.unsupported import refused


def run_change_pkg(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    raise refused("ChangeCurrentVnfPkgRequest", "change of current VNF package")
