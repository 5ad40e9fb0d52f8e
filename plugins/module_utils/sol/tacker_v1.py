# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Request forms of SOL003 v2.6.1 (Tacker's v1 API) turned into the v3 forms the collection works with (pure).

- ``extVirtualLinks[].extCps[].cpConfig`` as a list of VnfExtCpConfig (v2.6.1, Tacker v1's requests) becomes the
  v3 map keyed by cpConfigId: an entry's ``cpInstanceId`` (v2.6.1: the existing CP instance it configures, the role
  v3 gives the key) is its key, else ``<cpdId>_<index in the list>``. Order is kept (several configs are handed
  out one per VNFC, in order). :func:`conversion_notes` says what was converted, for the plan.
- ``vnfcInfoModificationsDeleteIds`` (v2.6.1 VnfInfoModificationRequest; Tacker v1 does not take it, v3 dropped
  it) is refused with the v3 way to write it.
"""

from __future__ import annotations

import copy
import json

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError

CP_INSTANCE_ID = "cpInstanceId"


def cp_config_key(cpd_id, index, entry):
    """The v3 cpConfigId of the list entry at ``index`` of the CP ``cpd_id``."""
    if isinstance(entry, dict) and isinstance(entry.get(CP_INSTANCE_ID), str) and entry[CP_INSTANCE_ID]:
        return entry[CP_INSTANCE_ID]
    return "{0}_{1}".format(cpd_id, index)


def _list_cp_configs(body):
    """``[(link index, cp index, cpd id, the list)]`` for every cpConfig given as a list."""
    found = []
    links = body.get("extVirtualLinks") if isinstance(body, dict) else None
    for link_index, link in enumerate(links if isinstance(links, list) else []):
        cps = link.get("extCps") if isinstance(link, dict) else None
        for cp_index, ext_cp in enumerate(cps if isinstance(cps, list) else []):
            if isinstance(ext_cp, dict) and isinstance(ext_cp.get("cpConfig"), list):
                found.append((link_index, cp_index, ext_cp.get("cpdId"), ext_cp["cpConfig"]))
    return found


def upgrade_cp_configs(body, what):
    """``body`` with every list-form cpConfig as the v3 map (a copy when anything changes; ``body`` itself otherwise).

    Two entries that would get one key (a ``cpInstanceId`` given twice) are an error naming the second.
    """
    listed = _list_cp_configs(body)
    if not listed:
        return body
    result = copy.deepcopy(body)
    for link_index, cp_index, cpd_id, configs in listed:
        path = "extVirtualLinks[{0}].extCps[{1}].cpConfig".format(link_index, cp_index)
        converted = {}
        for index, entry in enumerate(configs):
            key = cp_config_key(cpd_id, index, entry)
            if key in converted:
                raise ValidationError(what, "{0}[{1}].{2}".format(path, index, CP_INSTANCE_ID),
                                      "duplicate cpInstanceId {0!r} in the list form of cpConfig".format(key))
            converted[key] = {name: value for name, value in entry.items() if name != CP_INSTANCE_ID} if isinstance(entry, dict) else entry
        result["extVirtualLinks"][link_index]["extCps"][cp_index]["cpConfig"] = converted
    return result


def conversion_notes(body):
    """Plan lines for what :func:`upgrade_cp_configs` converted in ``body`` (the request as given)."""
    notes = []
    for link_index, cp_index, cpd_id, configs in _list_cp_configs(body):
        keys = [cp_config_key(cpd_id, index, entry) for index, entry in enumerate(configs)]
        notes.append("extVirtualLinks[{0}].extCps[{1}].cpConfig: the list form (SOL003 v2.6.1, Tacker v1) taken as the v3 map "
                     "keyed {2}".format(link_index, cp_index, ", ".join(keys)))
    return notes


def refuse_vnfc_info_modifications_delete_ids(body, what):
    """vnfcInfoModificationsDeleteIds has no v3 meaning: the error shows how v3 writes the change instead."""
    if not isinstance(body, dict) or "vnfcInfoModificationsDeleteIds" not in body:
        return
    ids = body["vnfcInfoModificationsDeleteIds"]
    first = ids[0] if isinstance(ids, list) and ids and isinstance(ids[0], str) else "<vnfcInfo id>"
    example = json.dumps({"vnfcInfoModifications": [{"id": first, "vnfcConfigurableProperties": {"<key>": None}}]}, sort_keys=True)
    raise ValidationError(what, "vnfcInfoModificationsDeleteIds",
                          "is SOL003 v2.6.1 only (Tacker's v1 API does not take it, v3 removed it); a VNFC's configurable "
                          "properties are changed as a JSON Merge Patch, where null removes a key: {0}".format(example))
