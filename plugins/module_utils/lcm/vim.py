# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One set of modules, two VIMs: the main() every LCM module calls, and the VIM path its operation takes.

Which VIM is lcm/vim_select.py's vim_of. The Kubernetes path is lcm/cnf/runner.py, the Heat path lcm/vm/runner.py;
only the one in use is imported, with its client library.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vim_select import OPENSTACK, main_for, require_client, vim_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import tacker_v1


def module_main(operation, argument_spec, arg_groups, **module_kwargs):
    """The whole main() of an LCM module, for both VIMs: ``operation`` is instantiate, scale, scale_to_level, heal, terminate,
    delete, modify, op_occ, change_pkg or info."""
    main_for(operation, run_module, argument_spec, arg_groups, **module_kwargs)


def run_module(module, operation):
    # Each VIM's path, and its client library, is imported only when that VIM is used: importing both
    # kubernetes and openstacksdk is most of a module call's start-up.
    target = vim_of(module.params)
    require_client(module, target)
    if target == OPENSTACK:
        from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import runner
    else:
        from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import runner
    result = runner.run_for(operation)(module.params, module.check_mode, module.diff_mode)
    result["vim_type"] = target
    with_conversions(result, module.params.get("request"))
    return result


def with_conversions(result, request):
    """The plan says which Tacker v1 (SOL003 v2.6.1) forms of the request were taken as their v3 form (sol/tacker_v1.py)."""
    notes = tacker_v1.conversion_notes(request)
    if notes and isinstance(result.get("plan"), dict):
        result["plan"]["converted"] = notes
        if isinstance(result["plan"].get("lines"), list):
            result["plan"]["lines"] = result["plan"]["lines"] + notes
    return result
