# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What a scale asks of an instantiated instance on any driver whose record keeps its VDUs' counts (sol/sizing.py's count
model): the request checked against the instance's flavour and levels, each aspect's level after it and each VDU's VNFC
count. The drivers' scale.py carry it out (replicas patches, a Helm upgrade). Pure."""

from __future__ import annotations

import copy
from typing import NamedTuple, Optional

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import PRIVATE, private_state
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import VNFC_COUNTS, level_diff, levels_diff, vnfc_counts
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.sizing import changed_levels, counts_after, counts_at_levels
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.sizing import scale_level_after, target_scale_levels
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import validate_scale_request, validate_scale_to_level_request
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED, require_instantiation_state


class Scaling(NamedTuple):
    """A checked scale: ``request`` (validated), ``to_levels`` (aspect id -> level after), ``counts`` (VDU id -> VNFC count
    after), the start of its ``plan`` and its ``diff``."""
    request: dict
    to_levels: dict
    counts: dict
    plan: dict
    diff: dict


def levels_of(instance):
    return {item["aspectId"]: item["scaleLevel"] for item in instance["instantiatedVnfInfo"].get("scaleStatus") or []}


def by_aspect(instance: dict, request: Optional[dict]) -> Scaling:
    """A ScaleVnfRequest: an aspect by ``numberOfSteps`` within 0..max_scale_level."""
    require_instantiation_state(instance, INSTANTIATED, occ.SCALE)
    flavour = private_state(instance)["flavour"]
    levels = levels_of(instance)
    request = validate_scale_request(request, flavour, levels)
    aspect_id = request["aspectId"]
    if aspect_id not in levels:
        raise ValidationError("ScaleVnfRequest", "aspectId", "{0!r} is not an aspect of this instance (aspects: {1})".format(
            aspect_id, ", ".join(sorted(levels)) or "none"))
    level = scale_level_after(levels[aspect_id], request)
    counts = counts_after(flavour, aspect_id, levels[aspect_id], level, vnfc_counts(instance))
    plan = {"operation": occ.SCALE, "vnf_instance_id": instance["id"], "aspect_id": aspect_id, "from_level": levels[aspect_id], "to_level": level}
    return Scaling(request, {aspect_id: level}, counts, plan, level_diff(aspect_id, levels[aspect_id], level))


def to_levels(instance: dict, request: Optional[dict]) -> Scaling:
    """A ScaleVnfToLevelRequest (an instantiation level or per-aspect levels): ``to_levels`` holds the aspects whose level
    changes, empty when every aspect is at its target already."""
    require_instantiation_state(instance, INSTANTIATED, occ.SCALE_TO_LEVEL)
    flavour = private_state(instance)["flavour"]
    levels = levels_of(instance)
    request = validate_scale_to_level_request(request)
    changes = changed_levels(levels, target_scale_levels(flavour, request, levels))
    plan = {"operation": occ.SCALE_TO_LEVEL, "vnf_instance_id": instance["id"],
            "from_levels": {aspect_id: pair[0] for aspect_id, pair in changes.items()},
            "to_levels": {aspect_id: pair[1] for aspect_id, pair in changes.items()}}
    counts = counts_at_levels(flavour, changes, vnfc_counts(instance)) if changes else {}
    return Scaling(request, plan["to_levels"], counts, plan, levels_diff(changes))


def with_counts(instance: dict, counts: dict) -> dict:
    """A copy of ``instance`` whose record keeps its VDUs at ``counts`` (the others as they were)."""
    result = copy.deepcopy(instance)
    private = result["instantiatedVnfInfo"].setdefault("metadata", {}).setdefault(PRIVATE, {})
    private[VNFC_COUNTS] = dict(vnfc_counts(instance), **counts)
    return result
