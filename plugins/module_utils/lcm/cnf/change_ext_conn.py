# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""ChangeExtVnfConnectivity of a CNF: there is none, as in Tacker v2 (a CNF's external connectivity is its package's
Services), refused before any connection."""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError


def run_change_ext_conn(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    raise ValidationError("ChangeExtVnfConnectivityRequest", None, "ChangeExtVnfConnectivity is only for the OpenStack VIM: CNF external "
                          "connectivity is the package's Services")
