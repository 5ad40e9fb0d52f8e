# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One set of modules, any driver: the main() every LCM module calls, around the run of its operation by the driver in use.

Which driver is lcm/drivers.py's driver_of: a folder of lcm/ (cnf, vm) whose files have the same names, one per
operation (scale.py has ``run_scale`` and ``run_scale_to_level`` in each). A module names its run by file and function
(``"scale.run_scale"``); only the driver in use's file is imported, with its client library. Ansible packs into a module's
AnsiballZ payload what the module's own import statements reach (function-level ones included), and nothing a name
in a string reaches: so each module also lists every driver's file of its operation in a function it never calls
(``packed``), which tests/unit/plugins/modules/test_module_payloads.py holds to DRIVER_VIMS. Nothing here imports an
operation: a dispatch here would carry every operation in every module.
"""

from __future__ import annotations

from importlib import import_module

from ansible_collections.nfv.vnflcm.plugins.module_utils.common import code_cache

# Before the imports below: what they reach is compiled once per version of the collection, not on every run.
code_cache.use()

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import Interrupted, VimError, VnfLcmError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.module import VnfLcmModule
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.signals import interrupted_by_signals
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import engine
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.drivers import DRIVER_VIMS, OPENSTACK, HandOver, driver_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import tacker_v1
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.schema import check_sizes

LCM = "ansible_collections.nfv.vnflcm.plugins.module_utils.lcm"


def module_main(operation, run, argument_spec, arg_groups, **module_kwargs):
    """The whole main() of an LCM module, for every driver: ``operation`` is instantiate, scale, scale_to_level, heal,
    terminate, delete, modify, op_occ, change_pkg, change_ext_conn or info (how a failure names what the module was
    doing); ``run`` the file and function of its run in each driver's folder, ``"scale.run_scale"``:
    ``run(params, check_mode, diff_mode)``.

    Nothing but a collection error leaves it: any other exception (and a stop signal) is reported as one; an operation
    under way has recorded its op occ FAILED_TEMP by then (engine.run).
    """
    module = VnfLcmModule(argument_spec=argument_spec, arg_groups=arg_groups, supports_check_mode=True, **module_kwargs)
    with interrupted_by_signals():
        try:
            # A missing end hook file fails before anything is written (the run reads it again: engine.settings_of).
            engine.end_hook_of(module.params)
            result = run_module(module, run)
        except VnfLcmError as error:
            module.fail_from_error(error)
        except (Exception, Interrupted, KeyboardInterrupt) as error:  # noqa: B902 - never a raw traceback from a library
            module.fail_from_error(VimError(ACTIONS.get(operation, operation), "VNF instance", engine.describe_exception(error)))
        else:
            module.exit_json(**result)


def run_of(driver, run):
    """The function ``run`` ("scale.run_scale") of ``driver``'s folder, imported now."""
    name, function = run.rsplit(".", 1)
    return getattr(import_module("{0}.{1}.{2}".format(LCM, driver, name)), function)


# The module options that hold a request: bounded here, once, for every path that reads them after.
REQUEST_OPTIONS = ("request", "create_request")


def run_module(module, run):
    # Before a request is read at all (its vimConnectionInfo may be how the module connects).
    for option in REQUEST_OPTIONS:
        check_sizes(module.params.get(option), "module options", option)
    # The VIM's client library is checked before anything of the driver is imported.
    driver = driver_of(module.params)
    require_client(module, DRIVER_VIMS[driver])
    try:
        result = run_of(driver, run)(module.params, module.check_mode, module.diff_mode)
    except HandOver as other:
        # The instance is another driver's on the same VIM (found before anything was written): it runs the operation.
        driver = other.driver
        result = run_of(driver, run)(module.params, module.check_mode, module.diff_mode)
    result["vim_type"] = DRIVER_VIMS[driver]
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


def require_client(module, target):
    """Fail the module, as AnsibleModule does, when the client library of VIM ``target`` is not installed."""
    if target == OPENSTACK:
        from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import cloud
        module.require("openstacksdk", cloud.HAS_OPENSTACKSDK, cloud.OPENSTACKSDK_IMPORT_ERROR)
    else:
        from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import client
        module.require("kubernetes", client.HAS_KUBERNETES, client.KUBERNETES_IMPORT_ERROR)


# How a failure outside any operation names what the module was doing.
ACTIONS = {"op_occ": "act on the operation occurrence of", "info": "read", "change_pkg": "change the package of",
           "delete": "delete the identifier of",
           "scale_to_level": "scale", "change_ext_conn": "change the external connectivity of"}
