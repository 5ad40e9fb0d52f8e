# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import copy
import random

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.merge_patch import merge_patch, merge_patch_diff, rebase

# RFC 7396 Appendix A, in order: (original, patch, result).
RFC7396_APPENDIX_A = [
    ({"a": "b"}, {"a": "c"}, {"a": "c"}),
    ({"a": "b"}, {"b": "c"}, {"a": "b", "b": "c"}),
    ({"a": "b"}, {"a": None}, {}),
    ({"a": "b", "b": "c"}, {"a": None}, {"b": "c"}),
    ({"a": ["b"]}, {"a": "c"}, {"a": "c"}),
    ({"a": "c"}, {"a": ["b"]}, {"a": ["b"]}),
    ({"a": {"b": "c"}}, {"a": {"b": "d", "c": None}}, {"a": {"b": "d"}}),
    ({"a": [{"b": "c"}]}, {"a": [1]}, {"a": [1]}),
    (["a", "b"], ["c", "d"], ["c", "d"]),
    ({"a": "b"}, ["c"], ["c"]),
    ({"a": "foo"}, None, None),
    ({"a": "foo"}, "bar", "bar"),
    ({"e": None}, {"a": 1}, {"e": None, "a": 1}),
    ([1, 2], {"a": "b", "c": None}, {"a": "b"}),
    ({}, {"a": {"bb": {"ccc": None}}}, {"a": {"bb": {}}}),
]


def test_appendix_a_has_all_fifteen_examples():
    assert len(RFC7396_APPENDIX_A) == 15


@pytest.mark.parametrize("original, patch, expected", RFC7396_APPENDIX_A, ids=["A{0}".format(i + 1) for i in range(15)])
def test_rfc7396_appendix_a(original, patch, expected):
    assert merge_patch(original, patch) == expected


def test_rfc7396_section_3_example():
    target = {
        "title": "Goodbye!",
        "author": {"givenName": "John", "familyName": "Doe"},
        "tags": ["example", "sample"],
        "content": "This will be unchanged",
    }
    patch = {"title": "Hello!", "phoneNumber": "+01-123-456-7890", "author": {"familyName": None}, "tags": ["example"]}
    assert merge_patch(target, patch) == {
        "title": "Hello!",
        "author": {"givenName": "John"},
        "tags": ["example"],
        "content": "This will be unchanged",
        "phoneNumber": "+01-123-456-7890",
    }


def test_nested_null_removes_only_the_nested_member():
    target = {"a": {"b": {"c": 1, "d": 2}, "e": 3}}
    assert merge_patch(target, {"a": {"b": {"c": None}}}) == {"a": {"b": {"d": 2}, "e": 3}}


def test_null_for_a_missing_member_is_a_no_op():
    assert merge_patch({"a": 1}, {"x": {"y": None}, "z": None}) == {"a": 1, "x": {}}


@pytest.mark.parametrize("target", [None, "text", 5, True, ["a"]])
def test_object_patch_on_non_object_target_starts_from_empty_object(target):
    assert merge_patch(target, {"a": {"b": 1}, "c": None}) == {"a": {"b": 1}}


def test_object_patch_replaces_a_non_object_member():
    assert merge_patch({"a": "scalar"}, {"a": {"b": 1}}) == {"a": {"b": 1}}


def test_nulls_inside_arrays_are_kept():
    assert merge_patch({}, {"a": [None, {"b": None}]}) == {"a": [None, {"b": None}]}


def test_inputs_are_not_mutated_and_result_shares_nothing():
    target = {"a": {"b": [1]}, "keep": {"x": 1}}
    patch = {"a": {"c": {"d": 1}}, "new": [{"e": 1}]}
    target_copy, patch_copy = copy.deepcopy(target), copy.deepcopy(patch)
    result = merge_patch(target, patch)
    result["keep"]["x"] = 2
    result["a"]["c"]["d"] = 2
    result["new"][0]["e"] = 2
    assert target == target_copy
    assert patch == patch_copy


@pytest.mark.parametrize("before, after, expected_patch", [
    ({"a": 1}, {"a": 1}, {}),
    ({"a": 1, "b": 2}, {"a": 1}, {"b": None}),
    ({"a": {"b": 1, "c": 2}}, {"a": {"b": 1, "c": 3}}, {"a": {"c": 3}}),
    ({"a": [1, 2]}, {"a": [1]}, {"a": [1]}),
    ({"a": 1}, {"a": True}, {"a": True}),
    ({"a": "x"}, {"a": {"b": 1}}, {"a": {"b": 1}}),
    ({"a": 1}, ["x"], ["x"]),
])
def test_merge_patch_diff_is_minimal(before, after, expected_patch):
    assert merge_patch_diff(before, after) == expected_patch


def test_merge_patch_diff_rejects_null_members_it_cannot_express():
    with pytest.raises(ValidationError) as raised:
        merge_patch_diff({"a": 1}, {"a": {"b": None}})
    assert raised.value.field == "a.b"


def _random_json(rng, depth):
    kinds = ["str", "int", "bool", "float", "list"] + (["object"] * 3 if depth < 3 else [])
    kind = rng.choice(kinds)
    if kind == "object":
        return _random_object(rng, depth + 1)
    if kind == "list":
        return [rng.choice([None, rng.randint(0, 3), "s"]) for position in range(rng.randint(0, 3))]
    return {"str": lambda: rng.choice("abc"), "int": lambda: rng.randint(0, 3), "bool": lambda: rng.random() < 0.5,
            "float": lambda: rng.choice([0.5, 1.0])}[kind]()


def _random_object(rng, depth=0):
    # A small key alphabet so before/after often share keys.
    return {rng.choice("abcde"): _random_json(rng, depth) for position in range(rng.randint(0, 4))}


def _mutate(rng, value, depth=0):
    if not isinstance(value, dict) or rng.random() < 0.2:
        return _random_json(rng, depth) if rng.random() < 0.5 else copy.deepcopy(value)
    mutated = {}
    for name, member in value.items():
        if rng.random() > 0.2:
            mutated[name] = _mutate(rng, member, depth + 1)
    if rng.random() < 0.5:
        mutated[rng.choice("abcdef")] = _random_json(rng, depth)
    return mutated


@pytest.mark.parametrize("seed", range(20))
def test_property_merge_patch_of_diff_reproduces_after(seed):
    rng = random.Random(seed)
    for case in range(50):
        old = _random_object(rng)
        new = _mutate(rng, old)
        if not isinstance(new, dict):
            new = _random_object(rng)
        old_copy = copy.deepcopy(old)
        patch = merge_patch_diff(old, new)
        assert merge_patch(old, patch) == new, "case {0}".format(case)
        assert old == old_copy
        # and the reverse patch undoes the change (rollback records)
        undo = merge_patch_diff(new, old)
        assert merge_patch(new, undo) == old, "case {0}".format(case)


# (target, before, after, expected): the change from before to after, made to target.
REBASES = [
    # What the change leaves alone keeps the target's value; what it changes takes the new one.
    ({"a": 1, "b": "mine"}, {"a": 1, "b": 2}, {"a": 3, "b": 2}, {"a": 3, "b": "mine"}),
    # A member the change drops is dropped, whatever the target had there; one it adds is added.
    ({"VDU1-0": {"f": "mine"}, "VDU1-1": {"f": "mine"}}, {"VDU1-0": {"f": "x"}, "VDU1-1": {"f": "x"}}, {"VDU1-0": {"f": "x"}},
     {"VDU1-0": {"f": "mine"}}),
    ({"VDU1-0": {"f": "mine"}}, {"VDU1-0": {"f": "x"}}, {"VDU1-0": {"f": "x"}, "VDU1-1": {"f": "x"}},
     {"VDU1-0": {"f": "mine"}, "VDU1-1": {"f": "x"}}),
    # Objects member by member, anything else whole; nulls are values.
    ({"a": {"b": 1, "c": "mine"}}, {"a": {"b": 1, "c": 2}}, {"a": {"b": 5, "c": 2}}, {"a": {"b": 5, "c": "mine"}}),
    ({"a": [1, "mine"]}, {"a": [1, 2]}, {"a": [3]}, {"a": [3]}),
    ({"a": "mine"}, {"a": 1}, {"a": None}, {"a": None}),
    ({"a": "mine"}, {"a": 1}, {"a": {"b": 1}}, {"a": {"b": 1}}),
]


@pytest.mark.parametrize("target, before, after, expected", REBASES)
def test_rebase_makes_the_change_to_the_target(target, before, after, expected):
    assert rebase(target, before, after) == expected
    assert rebase(before, before, after) == after
    assert rebase(target, before, before) == target
