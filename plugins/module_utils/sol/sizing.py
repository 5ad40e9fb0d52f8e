# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""How many VNFCs a VDU has, from the VNFD alone: instantiation levels, initial deltas, scaling aspects.

VIM-neutral (pure): a CNF's VDU runs that many pods, a VM-based VDU that many servers.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import INSTANTIATE_VNF_REQUEST, SCALE_VNF_REQUEST, SCALE_VNF_TO_LEVEL_REQUEST

SCALE_OUT = "SCALE_OUT"
SCALE_IN = "SCALE_IN"


def instantiation_level(flavour, level_id=None, what=INSTANTIATE_VNF_REQUEST):
    """The flavour's instantiation level ``level_id`` (default: the flavour's default level), or None when it has none."""
    level_id = level_id or flavour.get("default_instantiation_level")
    if level_id is None:
        return None
    levels = flavour.get("instantiation_levels") or {}
    if level_id not in levels:
        raise ValidationError(what, "instantiationLevelId", "{0!r} is not an instantiation level of the flavour (levels: {1})".format(
            level_id, ", ".join(sorted(levels)) or "none"))
    return levels[level_id]


def initial_replicas(flavour, vdu_id, level_id=None, what=INSTANTIATE_VNF_REQUEST):
    """Pods of a VDU at instantiation: its VduInstantiationLevels entry, else its VduInitialDelta.

    None means the VNFD says nothing, so the manifest's own ``replicas`` stands.
    """
    level = instantiation_level(flavour, level_id, what)
    count = ((level or {}).get("vdus") or {}).get(vdu_id)
    if count is None:
        count = (flavour.get("vdu_initial_delta") or {}).get(vdu_id)
    return count


def initial_scale_status(flavour, level_id=None, what=INSTANTIATE_VNF_REQUEST):
    """``scaleStatus`` after instantiation: each aspect at the level's ``scale_info`` level, else 0."""
    scale_info = (instantiation_level(flavour, level_id, what) or {}).get("scale_info") or {}
    return [{"aspectId": aspect_id, "scaleLevel": (scale_info.get(aspect_id) or {}).get("scale_level", 0)}
            for aspect_id in flavour.get("scaling_aspects") or {}]


def scale_level_after(current_level, request):
    """The aspect's level after a ScaleVnfRequest (numberOfSteps defaults to 1); range checks are replicas_for's."""
    steps = request.get("numberOfSteps", 1)
    return current_level + steps if request["type"] == SCALE_OUT else current_level - steps


def replicas_for(flavour, aspect_id, level, what=SCALE_VNF_REQUEST, aspect_field="aspectId", level_field="numberOfSteps"):
    """VDU id -> pods at scale ``level`` of an aspect: initial + the deltas of ``level`` steps.

    The level must lie in 0..max_scale_level, and the result within the VDU's max_number_of_instances;
    errors name ``aspect_field`` or ``level_field`` of the request ``what``.
    """
    aspects = flavour.get("scaling_aspects") or {}
    if aspect_id not in aspects:
        raise ValidationError(what, aspect_field, "{0!r} is not a scaling aspect of the flavour (aspects: {1})".format(
            aspect_id, ", ".join(sorted(aspects)) or "none"))
    aspect = aspects[aspect_id]
    max_level = aspect.get("max_scale_level") or 0
    if not isinstance(level, int) or isinstance(level, bool) or not 0 <= level <= max_level:
        raise ValidationError(what, level_field, "aspect {0} would reach scale level {1}, outside 0..{2}".format(aspect_id, level, max_level))
    replicas = {}
    for vdu_id, deltas in (aspect.get("vdus") or {}).items():
        count = scale_base(flavour, vdu_id) + sum(step_delta(aspect_id, aspect, vdu_id, deltas, step) for step in range(level))
        check_vdu_maximum(flavour, vdu_id, count, aspect_id, level, what, level_field)
        replicas[vdu_id] = count
    return replicas


def target_scale_levels(flavour, request, current_levels, what=SCALE_VNF_TO_LEVEL_REQUEST):
    """Aspect id -> scale level after a (validated) ScaleVnfToLevelRequest, for every aspect of ``current_levels``.

    By ``instantiationLevelId``: each aspect of the flavour at that level's ``scale_info`` level, else 0. By
    ``scaleInfo``: the aspects it names at their levels, the others where they are. Every target is checked
    (aspect known, level within 0..max_scale_level, each VDU within its maximum), naming the request field.
    """
    levels = dict(current_levels)
    if request.get("instantiationLevelId") is not None:
        level = instantiation_level(flavour, request["instantiationLevelId"], what)
        scale_info = (level or {}).get("scale_info") or {}
        for aspect_id in flavour.get("scaling_aspects") or {}:
            levels[aspect_id] = (scale_info.get(aspect_id) or {}).get("scale_level", 0)
            replicas_for(flavour, aspect_id, levels[aspect_id], what, "instantiationLevelId", "instantiationLevelId")
        return levels
    for index, item in enumerate(request.get("scaleInfo") or []):
        field = "scaleInfo[{0}]".format(index)
        replicas_for(flavour, item["aspectId"], item["scaleLevel"], what, field + ".aspectId", field + ".scaleLevel")
        levels[item["aspectId"]] = item["scaleLevel"]
    return levels


def changed_levels(current_levels, target_levels):
    """Aspect id -> ``(from, to)`` of the aspects whose level a target changes (absent means level 0)."""
    return {aspect_id: (current_levels.get(aspect_id, 0), level) for aspect_id, level in sorted(target_levels.items())
            if current_levels.get(aspect_id, 0) != level}


def replicas_at_levels(flavour, levels, what=SCALE_VNF_TO_LEVEL_REQUEST):
    """VDU id -> VNFCs with each aspect of ``levels`` (aspect id -> level) at its level."""
    replicas = {}
    for aspect_id, level in sorted(levels.items()):
        replicas.update(replicas_for(flavour, aspect_id, level, what))
    return replicas


def scale_base(flavour, vdu_id):
    """Pods at scale level 0: VduInitialDelta, else the VDU profile's minimum, else 1."""
    initial = (flavour.get("vdu_initial_delta") or {}).get(vdu_id)
    if initial is None:
        initial = ((flavour["vdus"].get(vdu_id) or {}).get("vdu_profile") or {}).get("min_number_of_instances")
    return 1 if initial is None else initial


def step_delta(aspect_id, aspect, vdu_id, deltas, step):
    """Pods one step adds; ``step_deltas`` lists one delta per step, the last one repeating (SOL001)."""
    step_deltas = aspect.get("step_deltas") or []
    if not step_deltas:
        raise PackageError(None, "scaling aspect {0} has no step_deltas".format(aspect_id), what="VNFD")
    delta_id = step_deltas[min(step, len(step_deltas) - 1)]
    if deltas.get(delta_id) is None:
        raise PackageError(None, "VDU {0} has no number_of_instances for delta {1} of scaling aspect {2}".format(vdu_id, delta_id, aspect_id), what="VNFD")
    return deltas[delta_id]


def check_vdu_maximum(flavour, vdu_id, count, aspect_id, level, what, field="numberOfSteps"):
    maximum = ((flavour["vdus"].get(vdu_id) or {}).get("vdu_profile") or {}).get("max_number_of_instances")
    if maximum is not None and count > maximum:
        raise ValidationError(what, field, "scale level {0} of aspect {1} needs {2} instances of {3}, more than its maximum {4}".format(
            level, aspect_id, count, vdu_id, maximum))
