# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The closed loop's filters: a rulebook event read as an auto-heal / auto-scale request, and what to do about it."""

from __future__ import annotations

import datetime

from ansible.errors import AnsibleFilterError

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import VnfLcmError
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import closed_loop


def closed_loop_request(event, function, overrides=None):
    """The event's request (lcm/closed_loop.py), the playbook's variables in ``overrides`` winning when set."""
    try:
        return closed_loop.closed_loop_request(event, function, overrides)
    except VnfLcmError as error:
        raise AnsibleFilterError(str(error)) from None


def closed_loop_decision(info, request, options=None, resumed=None, now=None):
    """What to do for ``request`` given vnf_info's result ``info`` (of that one instance): a dict with ``action``
    (heal, scale, retry, wait, nothing), ``reason``, ``message`` and what the action needs."""
    if not isinstance(info, dict) or not isinstance(request, dict):
        raise AnsibleFilterError("closed_loop_decision: expects vnf_info's result and closed_loop_request's request")
    instances = [item for item in info.get("vnf_instances") or [] if item.get("id") == request.get("vnf_instance_id")]
    op_occs = [item for item in info.get("vnf_lcm_op_occs") or [] if item.get("vnfInstanceId") == request.get("vnf_instance_id")]
    decide = {closed_loop.AUTO_HEAL: closed_loop.decide_heal, closed_loop.DRIFT: closed_loop.decide_drift}.get(
        request.get("function_type"), closed_loop.decide_scale)
    try:
        moment = closed_loop.parse_time(now, "now") if now else datetime.datetime.now(datetime.timezone.utc)
        return decide(instances[0] if instances else None, op_occs, request, moment, options or {}, tuple(resumed or ()))
    except VnfLcmError as error:
        raise AnsibleFilterError(str(error)) from None


def closed_loop_resumable(results):
    """The loop's own op occs to take over (lcm/closed_loop.py resumable) from vnf_info's results: one result, or a
    registered loop's ``results`` over namespaces (each ``item`` the namespace it read); a failed read holds none."""
    if isinstance(results, dict):
        results = results.get("results", [results])
    if not isinstance(results, list):
        raise AnsibleFilterError("closed_loop_resumable: expects vnf_info's result, or a loop's results of it")
    found = []
    for result in results:
        if not isinstance(result, dict) or result.get("failed") or result.get("skipped"):
            continue
        namespace = result.get("item") if isinstance(result.get("item"), str) else ""
        found.extend(closed_loop.resumable(result.get("vnf_instances"), result.get("vnf_lcm_op_occs"), namespace))
    return found


class FilterModule:
    def filters(self):
        return {"closed_loop_request": closed_loop_request, "closed_loop_decision": closed_loop_decision,
                "closed_loop_resumable": closed_loop_resumable}
