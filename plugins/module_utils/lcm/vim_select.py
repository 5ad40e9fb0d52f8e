# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The main() around a module's run on the VIM in use (which one: lcm/vim_choice.py); a VIM library is imported only by
require_client, for the VIM in use.

Kept apart from lcm/vim.py (the LCM modules' main()) so that a module reaching only part of the drivers
(vnf_info: lcm/info.py) imports, and carries in its AnsiballZ payload, only that part: Ansible packs every
module_util a module's imports can reach, function-level imports included.
"""

from __future__ import annotations

import os

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import Interrupted, ValidationError, VimError, VnfLcmError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.module import VnfLcmModule
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.signals import interrupted_by_signals
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import engine
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vim_choice import OPENSTACK


def require_client(module, target):
    """Fail the module, as AnsibleModule does, when the client library of VIM ``target`` is not installed."""
    if target == OPENSTACK:
        from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import cloud
        module.require("openstacksdk", cloud.HAS_OPENSTACKSDK, cloud.OPENSTACKSDK_IMPORT_ERROR)
    else:
        from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import client
        module.require("kubernetes", client.HAS_KUBERNETES, client.KUBERNETES_IMPORT_ERROR)


def main_for(operation, run_module, argument_spec, arg_groups, **module_kwargs):
    """The whole main() of a module that goes to a VIM: ``run_module(module, operation)`` gives its result.

    Nothing but a collection error leaves it: any other exception (and a stop signal) is reported as
    one; an operation under way has recorded its op occ FAILED_TEMP by then (engine.run).
    """
    module = VnfLcmModule(argument_spec=argument_spec, arg_groups=arg_groups, supports_check_mode=True, **module_kwargs)
    with interrupted_by_signals() as interrupt:
        try:
            engine.configure(module.params.get("lease_seconds"), interrupt, module.params.get("wait_timeout"), end_hook(module.params))
            result = run_module(module, operation)
        except VnfLcmError as error:
            module.fail_from_error(error)
        except (Exception, Interrupted, KeyboardInterrupt) as error:  # noqa: B902 - never a raw traceback from a library
            module.fail_from_error(VimError(ACTIONS.get(operation, operation), "VNF instance", engine.describe_exception(error)))
        else:
            module.exit_json(**result)


def end_hook(params):
    """The end hook the module options give (read now, so that a missing file fails before anything is written), or None."""
    path = params.get("end_hook")
    if not path:
        return None
    try:
        with open(path, encoding="utf-8") as handle:
            tasks = handle.read()
    except OSError as error:
        raise ValidationError("module options", "end_hook", "cannot read the task file {0}: {1}".format(path, error.strerror))
    variables = dict(params.get("end_hook_vars") or {})
    return {"name": variables.get("vnf_lifecycle_hook_name") or os.path.basename(path), "tasks": tasks, "variables": variables}


# How a failure outside any operation names what the module was doing.
ACTIONS = {"op_occ": "act on the operation occurrence of", "info": "read", "change_pkg": "change the package of",
           "delete": "delete the identifier of",
           "scale_to_level": "scale", "change_ext_conn": "change the external connectivity of"}
