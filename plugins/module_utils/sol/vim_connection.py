# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""VimConnectionInfo (SOL003): the VIM types it names (vimType, as Tacker spells them), and what a record may keep of it.

A record (Kubernetes Secret, Heat stack metadata) is read by whoever may read Secrets in the namespace or the project's
stacks: it never keeps a VIM's credential. An operation that needs one takes it from the request of its own run.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.args import is_secret_key, masked_secrets

OPENSTACK_VIM_TYPES = ("ETSINFV.OPENSTACK_KEYSTONE.V_3", "ETSINFV.OPENSTACK_KEYSTONE.v_3", "OPENSTACK_KEYSTONE.V_3")
KUBERNETES_VIM_TYPES = ("kubernetes", "ETSINFV.KUBERNETES.V_1")


def is_openstack_vim(vim):
    return (vim or {}).get("vimType") in OPENSTACK_VIM_TYPES


def recordable_vim(vim):
    """A vimConnectionInfo entry as a record keeps it: accessInfo without its secrets (dropped), interfaceInfo with any
    secret in it (a URL's password) masked."""
    kept = dict(vim)
    if "accessInfo" in kept:
        kept["accessInfo"] = {key: value for key, value in (kept["accessInfo"] or {}).items() if not is_secret_key(key)}
    if "interfaceInfo" in kept:
        kept["interfaceInfo"] = masked_secrets(kept["interfaceInfo"])
    return kept


def recordable_vims(connections):
    """A vimConnectionInfo map as a record keeps it: every entry without secrets (a null entry of a merge patch stays)."""
    return {vim_id: recordable_vim(vim) if isinstance(vim, dict) else vim for vim_id, vim in connections.items()}


def without_vim_secrets(value):
    """``value`` with every vimConnectionInfo in it (an instance's, and those of the requests its op occs and kept data
    hold; a map, or Tacker v1's list) as a record keeps it. Pure."""
    if isinstance(value, list):
        return [without_vim_secrets(item) for item in value]
    if not isinstance(value, dict):
        return value
    result = {}
    for key, item in value.items():
        if key == "vimConnectionInfo" and isinstance(item, dict):
            result[key] = recordable_vims(item)
        elif key == "vimConnectionInfo" and isinstance(item, list):
            result[key] = [recordable_vim(vim) if isinstance(vim, dict) else vim for vim in item]
        else:
            result[key] = without_vim_secrets(item)
    return result
