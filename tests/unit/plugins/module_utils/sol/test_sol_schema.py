# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The generic validator, on a small schema of its own (request schemas are tested elsewhere)."""

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.schema import (
    MAX_DOCUMENT_CHARS,
    MAX_STRING_CHARS,
    boolean,
    check_sizes,
    field_path,
    integer,
    json_type_name,
    key_value_pairs,
    list_of,
    map_of,
    string,
    struct,
    validate,
)

ITEM = {"name": string(required=True), "size": integer(minimum=1, default=1), "flag": boolean()}
SCHEMA = {
    "kind": string(enum=("A", "B")),
    "items": list_of(struct(ITEM), min_items=1),
    "byId": map_of(struct(ITEM), list_key="id"),
    "free": key_value_pairs(),
}


def error_of(document, strict=True):
    with pytest.raises(ValidationError) as raised:
        validate(document, SCHEMA, "Thing", strict)
    return raised.value


def test_valid_document_is_normalised_copy():
    document = {"items": [{"name": "x"}], "free": {"any": [None]}}
    result = validate(document, SCHEMA, "Thing")
    assert result == {"items": [{"name": "x", "size": 1}], "free": {"any": [None]}}
    result["free"]["any"].append(1)
    assert document == {"items": [{"name": "x"}], "free": {"any": [None]}}


@pytest.mark.parametrize("document, field, reason", [
    ("nope", None, "must be an object, got string"),
    ({"kind": "C"}, "kind", "must be one of A, B, got 'C'"),
    ({"kind": 1}, "kind", "must be a string, got integer"),
    ({"items": []}, "items", "must have at least 1 item(s)"),
    ({"items": {}}, "items", "must be an array, got object"),
    ({"items": [{}]}, "items[0].name", "is required"),
    ({"items": [{"name": "a"}, {"name": "b", "size": 0}]}, "items[1].size", "must be at least 1, got 0"),
    ({"items": [{"name": "a", "size": True}]}, "items[0].size", "must be an integer, got boolean"),
    ({"items": [{"name": "a", "size": 1.5}]}, "items[0].size", "must be an integer, got number"),
    ({"items": [{"name": "a", "flag": "yes"}]}, "items[0].flag", "must be a boolean, got string"),
    ({"items": [{"name": None}]}, "items[0].name", "must be a string, got null"),
    ({"free": []}, "free", "must be an object, got array"),
    ({"byId": "x"}, "byId", "must be an object or an array of objects with 'id', got string"),
    ({"byId": {"k": {}}}, "byId.k.name", "is required"),
    ({"byId": {"a.b": {}}}, 'byId["a.b"].name', "is required"),
    ({"byId": [{"name": "a"}]}, "byId[0].id", "is required"),
    ({"byId": [{"id": 3, "name": "a"}]}, "byId[0].id", "must be a string, got integer"),
    ({"byId": [{"id": "a", "name": "a"}, {"id": "a", "name": "b"}]}, "byId[1].id", "duplicate identifier 'a'"),
    ({"byId": ["x"]}, "byId[0]", "must be an object, got string"),
])
def test_errors_name_the_field(document, field, reason):
    error = error_of(document)
    assert error.field == field
    assert str(error) == "Failed to validate Thing: {0}".format("{0}: {1}".format(field, reason) if field else reason)


def test_list_form_map_is_normalised_to_map():
    result = validate({"byId": [{"id": "a", "name": "x"}, {"id": "b", "name": "y", "size": 2}]}, SCHEMA, "Thing")
    assert result["byId"] == {"a": {"name": "x", "size": 1}, "b": {"name": "y", "size": 2}}


def test_unknown_field_suggests_the_close_match():
    error = error_of({"kinds": "A"})
    assert error.field == "kinds"
    assert "did you mean kind?" in str(error)


def test_unknown_nested_fields_are_all_named():
    error = error_of({"items": [{"name": "a", "zzz": 1, "yyy": 2}]})
    assert error.field == "items[0].yyy, items[0].zzz"
    assert "expected one of flag, name, size" in str(error)


def test_non_strict_keeps_unknown_fields():
    result = validate({"kinds": "A", "items": [{"name": "a", "zzz": {"q": 1}}]}, SCHEMA, "Thing", strict=False)
    assert result == {"kinds": "A", "items": [{"name": "a", "size": 1, "zzz": {"q": 1}}]}


def test_path_prefix():
    with pytest.raises(ValidationError) as raised:
        validate({"kind": "C"}, SCHEMA, "Thing", path="outer")
    assert raised.value.field == "outer.kind"


@pytest.mark.parametrize("parent, key, expected", [
    ("", "a", "a"),
    ("a", "b", "a.b"),
    ("a", 3, "a[3]"),
    ("a", "lcm-kubernetes-def-files", "a.lcm-kubernetes-def-files"),
    ("a", "x y", 'a["x y"]'),
])
def test_field_path(parent, key, expected):
    assert field_path(parent, key) == expected


@pytest.mark.parametrize("value, name", [
    (None, "null"), (True, "boolean"), (1, "integer"), (1.0, "number"), ("s", "string"), ([], "array"), ({}, "object"), (object(), "object"),
])
def test_json_type_name(value, name):
    assert json_type_name(value) == name


def size_error_of(document):
    with pytest.raises(ValidationError) as raised:
        check_sizes(document, "Thing")
    return raised.value


def test_a_string_over_the_bound_is_named_by_its_length_never_its_text_even_inside_free_form_objects():
    secret = "s" * (MAX_STRING_CHARS + 1)
    error = size_error_of({"free": {"accessInfo": {"password": secret}}, "items": [{"name": "a"}]})
    assert error.field == "free.accessInfo.password" and "is {0} characters long".format(MAX_STRING_CHARS + 1) in error.msg
    assert "sss" not in error.msg
    error = size_error_of({"items": [{"name": "a"}], "free": {"k" * (MAX_STRING_CHARS + 1): 1}})
    assert error.field == "free" and "has a key of" in error.msg
    # At the bound it is taken.
    check_sizes({"items": [{"name": "x" * MAX_STRING_CHARS}]}, "Thing")


def test_a_document_whose_strings_together_are_over_the_bound_is_refused():
    many = ["x" * MAX_STRING_CHARS] * (MAX_DOCUMENT_CHARS // MAX_STRING_CHARS + 1)
    with pytest.raises(ValidationError, match="holds more than {0} characters of text in all".format(MAX_DOCUMENT_CHARS)) as raised:
        check_sizes({"additionalParams": {"files": many}}, "InstantiateVnfRequest", "request")
    assert raised.value.field == "request"
    check_sizes({"additionalParams": {"files": many[:-2]}}, "InstantiateVnfRequest", "request")
