# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""How many VNFCs a VDU has: instantiation levels, initial deltas, scaling aspects.

One count model for both VIMs, Tacker's: an instantiate sizes each VDU from the instantiation level (else its
initial delta); a scale changes the VDU's current count by the deltas of the steps it takes, within the VDU's
min/max (:func:`counts_after`), and a scale to level does the same for the steps between the current level and the
target, so the counts and the aspects' ``scaleStatus`` move together. VIM-neutral (pure): a CNF's VDU runs that many
pods, a VM-based VDU that many servers.
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


def check_level(flavour, aspect_id, level, what=SCALE_VNF_REQUEST, aspect_field="aspectId", level_field="numberOfSteps"):
    """The aspect of the flavour (its dict), when ``level`` lies in its 0..max_scale_level; errors name the request's field."""
    aspects = flavour.get("scaling_aspects") or {}
    if aspect_id not in aspects:
        raise ValidationError(what, aspect_field, "{0!r} is not a scaling aspect of the flavour (aspects: {1})".format(
            aspect_id, ", ".join(sorted(aspects)) or "none"))
    aspect = aspects[aspect_id]
    max_level = aspect.get("max_scale_level") or 0
    if not isinstance(level, int) or isinstance(level, bool) or not 0 <= level <= max_level:
        raise ValidationError(what, level_field, "aspect {0} would reach scale level {1}, outside 0..{2}".format(aspect_id, level, max_level))
    return aspect


def replicas_for(flavour, aspect_id, level, what=SCALE_VNF_REQUEST, aspect_field="aspectId", level_field="numberOfSteps"):
    """VDU id -> VNFCs at scale ``level`` of an aspect counted from level 0 (initial + the deltas of ``level`` steps): what a VDU
    has at that level when nothing else sized it; :func:`counts_after` is what a scale does."""
    aspect = check_level(flavour, aspect_id, level, what, aspect_field, level_field)
    replicas = {}
    for vdu_id, deltas in (aspect.get("vdus") or {}).items():
        count = scale_base(flavour, vdu_id) + steps_delta(aspect_id, aspect, vdu_id, deltas, 0, level)
        check_vdu_range(flavour, vdu_id, count, aspect_id, level, what, level_field)
        replicas[vdu_id] = count
    return replicas


def counts_after(flavour, aspect_id, from_level, to_level, current, what=SCALE_VNF_REQUEST, aspect_field="aspectId", level_field="numberOfSteps"):
    """VDU id -> VNFCs of the aspect's VDUs once it goes from ``from_level`` to ``to_level``: each VDU's ``current`` count plus
    (or minus) the deltas of the steps in between, as Tacker scales. The level must lie in 0..max_scale_level and each count
    within the VDU's min/max; errors name the request's fields. A VDU with no current count starts from its count at
    ``from_level`` (:func:`replicas_for`)."""
    aspect = check_level(flavour, aspect_id, to_level, what, aspect_field, level_field)
    counts = {}
    for vdu_id, deltas in (aspect.get("vdus") or {}).items():
        base = current.get(vdu_id)
        if base is None:
            base = scale_base(flavour, vdu_id) + steps_delta(aspect_id, aspect, vdu_id, deltas, 0, from_level)
        # The steps between the two levels, taken up or down.
        lower, upper = min(from_level, to_level), max(from_level, to_level)
        change = steps_delta(aspect_id, aspect, vdu_id, deltas, lower, upper)
        count = base + change if to_level >= from_level else base - change
        check_vdu_range(flavour, vdu_id, count, aspect_id, to_level, what, level_field)
        counts[vdu_id] = count
    return counts


def level_of_counts(flavour, aspect_id, from_level, current, live):
    """The aspect's scale level at which its VDUs have the ``live`` counts, for an aspect that was at ``from_level`` with
    the ``current`` counts (the steps a scale takes, :func:`counts_after`); ``from_level`` when ``live`` counts none of its
    VDUs, None when no level in 0..max_scale_level gives every one of them its live count (a scale stopped half-way)."""
    aspect = (flavour.get("scaling_aspects") or {}).get(aspect_id) or {}
    vdus = [vdu_id for vdu_id in aspect.get("vdus") or {} if vdu_id in live]
    if not vdus:
        return from_level
    others = [level for level in range((aspect.get("max_scale_level") or 0) + 1) if level != from_level]
    for level in [from_level] + others:
        try:
            counts = counts_after(flavour, aspect_id, from_level, level, current)
        except ValidationError:
            continue
        if all(counts.get(vdu_id) == live[vdu_id] for vdu_id in vdus):
            return level
    return None


def counts_at_levels(flavour, changes, current, what=SCALE_VNF_TO_LEVEL_REQUEST):
    """VDU id -> VNFCs once each aspect of ``changes`` (aspect id -> ``(from, to)``, sizing.changed_levels) is at its target."""
    counts = {}
    for aspect_id, (from_level, to_level) in sorted(changes.items()):
        counts.update(counts_after(flavour, aspect_id, from_level, to_level, current, what, "aspectId", "scaleLevel"))
    return counts


def kept_counts(flavour, current, initial):
    """``(counts, notes)`` of a change of package: each VDU of the new ``flavour`` keeps its ``current`` count (a VDU new
    to it starts at ``initial[vdu_id]``, None leaving it as its manifest says), brought within the new VDU profile's
    min/max when it is outside; ``notes`` says which counts change and why."""
    counts, notes = {}, []
    for vdu_id, vdu in sorted((flavour.get("vdus") or {}).items()):
        count = current.get(vdu_id, initial.get(vdu_id))
        if count is None:
            continue
        profile = (vdu or {}).get("vdu_profile") or {}
        maximum, minimum = profile.get("max_number_of_instances"), profile.get("min_number_of_instances")
        if maximum is not None and count > maximum:
            notes.append("{0}: {1} -> {2} VNFCs (the new VNFD's maximum)".format(vdu_id, count, maximum))
            count = maximum
        elif minimum is not None and count < minimum:
            notes.append("{0}: {1} -> {2} VNFCs (the new VNFD's minimum)".format(vdu_id, count, minimum))
            count = minimum
        elif vdu_id not in current:
            notes.append("{0}: {1} VNFCs (new in this VNFD)".format(vdu_id, count))
        counts[vdu_id] = count
    return counts, notes


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
            check_level(flavour, aspect_id, levels[aspect_id], what, "instantiationLevelId", "instantiationLevelId")
        return levels
    for index, item in enumerate(request.get("scaleInfo") or []):
        field = "scaleInfo[{0}]".format(index)
        check_level(flavour, item["aspectId"], item["scaleLevel"], what, field + ".aspectId", field + ".scaleLevel")
        levels[item["aspectId"]] = item["scaleLevel"]
    return levels


def changed_levels(current_levels, target_levels):
    """Aspect id -> ``(from, to)`` of the aspects whose level a target changes (absent means level 0)."""
    return {aspect_id: (current_levels.get(aspect_id, 0), level) for aspect_id, level in sorted(target_levels.items())
            if current_levels.get(aspect_id, 0) != level}


def scale_base(flavour, vdu_id):
    """Pods at scale level 0: VduInitialDelta, else the VDU profile's minimum, else 1."""
    initial = (flavour.get("vdu_initial_delta") or {}).get(vdu_id)
    if initial is None:
        initial = ((flavour["vdus"].get(vdu_id) or {}).get("vdu_profile") or {}).get("min_number_of_instances")
    return 1 if initial is None else initial


def steps_delta(aspect_id, aspect, vdu_id, deltas, from_level, to_level):
    """VNFCs the steps from ``from_level`` up to ``to_level`` add; ``step_deltas`` lists one delta per step, the last one
    repeating (SOL001)."""
    step_deltas = aspect.get("step_deltas") or []
    if to_level > from_level and not step_deltas:
        raise PackageError(None, "scaling aspect {0} has no step_deltas".format(aspect_id), what="VNFD")
    total = 0
    for step in range(from_level, to_level):
        delta_id = step_deltas[min(step, len(step_deltas) - 1)]
        if deltas.get(delta_id) is None:
            raise PackageError(None, "VDU {0} has no number_of_instances for delta {1} of scaling aspect {2}".format(vdu_id, delta_id, aspect_id),
                               what="VNFD")
        total += deltas[delta_id]
    return total


def check_vdu_range(flavour, vdu_id, count, aspect_id, level, what, field="numberOfSteps"):
    profile = (flavour["vdus"].get(vdu_id) or {}).get("vdu_profile") or {}
    maximum, minimum = profile.get("max_number_of_instances"), profile.get("min_number_of_instances")
    if maximum is not None and count > maximum:
        raise ValidationError(what, field, "scale level {0} of aspect {1} needs {2} instances of {3}, more than its maximum {4}".format(
            level, aspect_id, count, vdu_id, maximum))
    if count < (minimum or 0):
        raise ValidationError(what, field, "scale level {0} of aspect {1} leaves {2} instances of {3}, fewer than its minimum {4}".format(
            level, aspect_id, count, vdu_id, minimum or 0))
