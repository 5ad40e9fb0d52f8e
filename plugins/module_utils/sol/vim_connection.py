# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The VIM types a VimConnectionInfo names (SOL003 vimType, as Tacker spells them)."""

from __future__ import annotations

OPENSTACK_VIM_TYPES = ("ETSINFV.OPENSTACK_KEYSTONE.V_3", "ETSINFV.OPENSTACK_KEYSTONE.v_3", "OPENSTACK_KEYSTONE.V_3")
KUBERNETES_VIM_TYPES = ("kubernetes", "ETSINFV.KUBERNETES.V_1")


def is_openstack_vim(vim):
    return (vim or {}).get("vimType") in OPENSTACK_VIM_TYPES
