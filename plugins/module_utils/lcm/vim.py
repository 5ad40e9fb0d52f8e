# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One set of modules, two VIMs: the main() every LCM module calls, around the run of its operation on the VIM in use.

Which VIM is lcm/vim_choice.py's vim_of. Each module names its operation's run on either VIM (``run_scale`` of
lcm/cnf/scale.py and of lcm/vm/scale.py, ...) in a function of its own, which imports only the one in use, with its
client library. Nothing here imports an operation: Ansible packs into a module's AnsiballZ payload every module_util
its imports can reach (function-level imports included), so a dispatch here would carry every operation in every module.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vim_choice import KUBERNETES, OPENSTACK, vim_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vim_select import main_for, require_client
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import tacker_v1
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.schema import check_sizes

__all__ = ("KUBERNETES", "OPENSTACK", "module_main", "run_module", "with_conversions")


def module_main(operation, run_on, argument_spec, arg_groups, **module_kwargs):
    """The whole main() of an LCM module, for both VIMs: ``operation`` is instantiate, scale, scale_to_level, heal, terminate,
    delete, modify, op_occ, change_pkg or change_ext_conn (how a failure names what the module was doing); ``run_on(vim)``
    gives the run of the module's operation on ``vim``: ``run(params, check_mode, diff_mode)``."""
    main_for(operation, lambda module, _operation: run_module(module, run_on), argument_spec, arg_groups, **module_kwargs)


# The module options that hold a request: bounded here, once, for every path that reads them after.
REQUEST_OPTIONS = ("request", "create_request")


def run_module(module, run_on):
    # Before a request is read at all (its vimConnectionInfo may be how the module connects).
    for option in REQUEST_OPTIONS:
        check_sizes(module.params.get(option), "module options", option)
    # The VIM's client library is checked before anything of its path is imported.
    target = vim_of(module.params)
    require_client(module, target)
    result = run_on(target)(module.params, module.check_mode, module.diff_mode)
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
