# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vnf_info: the VNF instance records of either VIM, read with that VIM's record store alone.

Reading needs neither the LCM drivers nor the package reader, so vnf_info imports no operation's run (each LCM
module names its own, lcm/vim.py): its AnsiballZ payload, which Ansible builds and the module unpacks and
compiles on every call, holds the record stores only. The roles read every instance back after each operation,
so this is the call a fleet makes most.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import engine
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import info_result
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vim_choice import OPENSTACK, vim_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vim_select import main_for, require_client

DEFAULT_NAMESPACE = "default"


def info_main(argument_spec, arg_groups, **module_kwargs):
    main_for("info", read_records, argument_spec, arg_groups, **module_kwargs)


def read_records(module, _operation="info"):
    target = vim_of(module.params)
    require_client(module, target)
    read = openstack_records if target == OPENSTACK else kubernetes_records
    result = read(module.params)
    result["vim_type"] = target
    return result


def selected(params, store):
    """``[(instance, op_occs)]``: the instance of ``vnf_instance_id`` / ``vnf_instance_name``, else all of ``store``."""
    if params.get("vnf_instance_id") or params.get("vnf_instance_name"):
        record = store.find(params.get("vnf_instance_id"), params.get("vnf_instance_name"))
        return [record[:2]] if record else []
    return [(instance, op_occs) for instance, op_occs, _version in store.list()]


def records_of(params, store):
    """vnf_info's result from ``store``: by a name no record has, ``name_claim`` shows a claim of it an instantiate killed
    before its record left (common/name_claim.py left_claim), if there is one."""
    found = selected(params, store)
    result = engine.with_links(store, info_result(found, engine.utc_now()))
    shown = None if found or params.get("vnf_instance_id") else store.left_claim(params.get("vnf_instance_name"))
    if shown:
        result["name_claim"] = shown
    return result


def kubernetes_records(params, check_mode=False, diff_mode=False):
    """The records of the namespace (``namespace``, else the context's, else default): one instance or all."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.api import KubeApi
    from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.client import build_api_client, connection_options
    from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.store import SecretRecordStore

    client, context_namespace = build_api_client(connection_options(params))
    return records_of(params, SecretRecordStore(KubeApi(client), params.get("namespace") or context_namespace or DEFAULT_NAMESPACE))


def openstack_records(params, check_mode=False, diff_mode=False):
    """The records kept in the project's stacks tagged vnflcm: one instance or all."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import cloud
    from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.stack import Stacks
    from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import HeatRecordStore

    cloud.enable_sdk_logging(params.get("sdk_log_path"), params.get("sdk_log_level"))
    return records_of(params, HeatRecordStore(Stacks(cloud.connect(cloud.connection_options(params)))))
