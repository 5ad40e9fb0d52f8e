# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""JSON Merge Patch (RFC 7396), which SOL003 uses to modify VNF instance information."""

from __future__ import annotations

import copy

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.schema import field_path


def merge_patch(target, patch):
    """Apply ``patch`` to ``target`` exactly as RFC 7396 section 2; return a new value.

    Neither input is mutated and the result shares no mutable part with them.
    """
    return _merge_into_copy(copy.deepcopy(target), patch)


def _merge_into_copy(target, patch):
    # ``target`` is already a private copy, so it may be changed in place.
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    if not isinstance(target, dict):
        target = {}
    for name, value in patch.items():
        if value is None:
            target.pop(name, None)
        else:
            target[name] = _merge_into_copy(target.get(name), value)
    return target


def merge_patch_diff(before, after):
    """A merge patch that turns ``before`` into ``after``: ``merge_patch(before, diff) == after``.

    Useful to record how to undo a modification (``merge_patch_diff(after, before)``).
    A merge patch cannot set a member to null, so ``after`` must not hold null object members.
    """
    null_path = _null_member_path(after, "")
    if null_path is not None:
        raise ValidationError("merge patch", null_path, "a JSON Merge Patch cannot set a member to null")
    return _diff(before, after)


def _diff(before, after):
    if not isinstance(before, dict) or not isinstance(after, dict):
        return copy.deepcopy(after)
    patch = {name: None for name in before if name not in after}
    for name, value in after.items():
        if name not in before:
            patch[name] = copy.deepcopy(value)
        elif before[name] != value or type(before[name]) is not type(value):
            patch[name] = _diff(before[name], value)
    return patch


def _null_member_path(value, path):
    # Arrays are replaced wholesale by a merge patch, so nulls inside them are fine.
    if not isinstance(value, dict):
        return None
    for name, member in value.items():
        member_path = field_path(path, name)
        if member is None:
            return member_path
        found = _null_member_path(member, member_path)
        if found is not None:
            return found
    return None


def rebase(target, before, after):
    """``target`` with the change from ``before`` to ``after`` made to it: members ``after`` dropped are dropped, members it
    added or changed are set (objects member by member, anything else whole); what the change leaves alone keeps
    ``target``'s value. ``rebase(before, before, after) == after``. Unlike a merge patch, a null value is kept. Pure.
    """
    if not isinstance(target, dict) or not isinstance(before, dict) or not isinstance(after, dict):
        return copy.deepcopy(target if before == after and type(before) is type(after) else after)
    result = copy.deepcopy(target)
    for name in before:
        if name not in after:
            result.pop(name, None)
    for name, value in after.items():
        if name not in before:
            result[name] = copy.deepcopy(value)
        elif before[name] != value or type(before[name]) is not type(value):
            result[name] = rebase(result.get(name), before[name], value)
    return result
