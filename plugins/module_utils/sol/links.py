# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The ``_links`` of VnfInstance (SOL003 5.5.2.2) and VnfLcmOpOcc (SOL003 5.5.2.13) documents.

A collection has no REST resources, so links point where the things they name are:

- ``self`` of a VnfInstance, and ``vnfInstance`` of its op occs: the URL of the VIM object that holds the
  instance's record (a record store gives it: the Kubernetes Secret, the Heat stack). ``self`` of an op occ is
  that URL with the op occ's id as fragment (``#vnfLcmOpOcc=<id>``): op occs live inside the record.
- task links (instantiate, scale, heal, terminate, retry, rollback, fail): ``nfv.vnflcm:<module>?<options>``,
  the module that carries the task out and the options that select the instance (and op occ, and action).

Only tasks the collection has get a link. Links are derived when a document is returned, never stored.
Pure: the record's URL and the options that find the record (a Kubernetes namespace) are arguments.
"""

from __future__ import annotations

from urllib.parse import quote

from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED, NOT_INSTANTIATED

SCHEME = "nfv.vnflcm:"
FAILED_TEMP = "FAILED_TEMP"

# VnfInstance task link -> (module, the instantiationState in which SOL003 says the link is present).
# The one place a task of the collection gets its link: a module for changeExtConn, operate, ... is added
# here when the collection has it.
INSTANCE_TASKS = (
    ("instantiate", "vnf_instantiate", NOT_INSTANTIATED),
    ("terminate", "vnf_terminate", INSTANTIATED),
    ("scale", "vnf_scale", INSTANTIATED),
    ("scaleToLevel", "vnf_scale_to_level", INSTANTIATED),
    ("heal", "vnf_heal", INSTANTIATED),
)

OP_OCC_MODULE = "vnf_lcm_op_occ"


def link(href):
    return {"href": href}


def task_uri(module, options):
    """``nfv.vnflcm:<module>?k=v&...`` for ``options`` (pairs, in order; None values left out)."""
    query = "&".join("{0}={1}".format(quote(str(key), safe=""), quote(str(value), safe=""))
                     for key, value in options if value not in (None, ""))
    return SCHEME + module + ("?" + query if query else "")


def instance_options(instance, selector=None):
    """The options that select ``instance``: its id, then those the record store needs (e.g. ``namespace``)."""
    return [("vnf_instance_id", instance.get("id"))] + sorted((selector or {}).items())


def op_occ_self(record_url, op_occ_id):
    return "{0}#vnfLcmOpOcc={1}".format(record_url, quote(str(op_occ_id), safe=""))


def instance_links(instance, record_url, selector=None):
    """SOL003 VnfInstance ``_links``: ``self``, plus each task that applies in the instance's instantiationState."""
    links = {"self": link(record_url)}
    state = instance.get("instantiationState")
    options = instance_options(instance, selector)
    for name, module, applies_in in INSTANCE_TASKS:
        if state != applies_in:
            continue
        task_options = options
        if module == "vnf_instantiate":
            # vnf_instantiate selects by name (its required option) and reuses the id.
            task_options = options + [("vnf_instance_name", instance.get("vnfInstanceName"))]
        links[name] = link(task_uri(module, task_options))
    return links


def op_occ_links(op_occ, record_url, selector=None):
    """SOL003 VnfLcmOpOcc ``_links``: ``self``, ``vnfInstance``, and retry / rollback / fail when FAILED_TEMP allows them."""
    links = {"self": link(op_occ_self(record_url, op_occ.get("id"))), "vnfInstance": link(record_url)}
    if op_occ.get("operationState") != FAILED_TEMP:
        return links
    options = instance_options({"id": op_occ.get("vnfInstanceId")}, selector) + [("vnf_lcm_op_occ_id", op_occ.get("id"))]
    allowed = {"retry": op_occ.get("operation") in occ.RETRYABLE, "rollback": op_occ.get("operation") in occ.ROLLBACKABLE, "fail": True}
    for action in ("retry", "rollback", "fail"):
        if allowed[action]:
            links[action] = link(task_uri(OP_OCC_MODULE, options + [("action", action)]))
    return links


def with_instance_links(instance, record_url, selector=None):
    """A copy of ``instance`` with its ``_links`` (None stays None); shallow, as only the top level changes."""
    if not isinstance(instance, dict):
        return instance
    result = dict(instance)
    result["_links"] = instance_links(instance, record_url, selector)
    return result


def with_op_occ_links(op_occ, record_url, selector=None):
    """A copy of ``op_occ`` with its ``_links`` (None stays None); shallow, as only the top level changes."""
    if not isinstance(op_occ, dict):
        return op_occ
    result = dict(op_occ)
    result["_links"] = op_occ_links(op_occ, record_url, selector)
    return result
