# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tacker v2's VnfInstance helpers that work on dicts (``tacker.sol_refactored.common.vnf_instance_utils``), for scripts.

On the script subprocess's path only (see vnfd_utils). Tacker's database look-ups (get_inst, get_inst_all) and its
links object are the VNFM's, not a script's, and are not here.
"""

from __future__ import annotations


def json_merge_patch(target, patch):
    """``patch`` applied to ``target`` as RFC 7396 says (None deletes a key; a non-dict patch replaces); ``target`` is changed
    in place where it is a dict, and the result returned."""
    if not isinstance(patch, dict):
        return patch
    if not isinstance(target, dict):
        target = {}
    for key, value in patch.items():
        if value is None:
            target.pop(key, None)
        else:
            target[key] = json_merge_patch(target.get(key), value)
    return target


def select_vim_info(vim_connection_info):
    """The first VIM of a vimConnectionInfo map (Tacker assumes one); None when it is empty."""
    for vim_info in (vim_connection_info or {}).values():
        return vim_info
    return None


def inst_href(inst_id, endpoint):
    """The VnfInstance's URI under an API endpoint."""
    return "{0}/v2/vnflcm/vnf_instances/{1}".format(endpoint, inst_id)
