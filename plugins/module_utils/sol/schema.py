# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A small declarative schema language for SOL003 data types, and the one validator that walks it.

A schema is a plain dict ``field name -> Field``; ``Field`` values are built with the helpers
below (``string()``, ``integer()``, ``list_of()``, ``map_of()``, ``struct()``, ...).
``validate(document, schema, what)`` returns a normalised deep copy of the document (defaults
filled in, list-form maps turned into maps) or raises ``ValidationError`` whose field is a
dotted/indexed path such as ``extVirtualLinks[0].extCps[1].cpdId``.
"""

from __future__ import annotations

import collections
import copy
import difflib
import re

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError

STRING = "string"
INTEGER = "integer"
BOOLEAN = "boolean"
KEY_VALUE_PAIRS = "object"
LIST = "array"
MAP = "map"
STRUCT = "struct"

# One node of a schema; build them with the helpers below rather than directly.
Field = collections.namedtuple(
    "Field", "kind required element schema enum minimum min_items default list_key nullable",
    defaults=(False, None, None, None, None, 0, None, None, False),
)

# Map keys that can be written after a dot without ambiguity; anything else is quoted in brackets.
_PLAIN_KEY = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_-]*$")


def string(required=False, enum=None):
    """A JSON string, optionally restricted to ``enum``."""
    return Field(STRING, required, enum=tuple(enum) if enum else None)


def integer(required=False, minimum=None, default=None):
    """A JSON integer (booleans are rejected), optionally with a lower bound and a default."""
    return Field(INTEGER, required, minimum=minimum, default=default)


def boolean(required=False):
    """A JSON boolean."""
    return Field(BOOLEAN, required)


def key_value_pairs(required=False):
    """A free-form JSON object (SOL003 KeyValuePairs): the extensible part, never checked inside."""
    return Field(KEY_VALUE_PAIRS, required)


def struct(schema, required=False):
    """A typed JSON object described by ``schema``."""
    return Field(STRUCT, required, schema=schema)


def list_of(element, required=False, min_items=0):
    """A JSON array whose items all match ``element``."""
    return Field(LIST, required, element=element, min_items=min_items)


def map_of(element, required=False, min_items=0, list_key=None, nullable=False):
    """A JSON object used as a map from identifier to ``element``.

    With ``list_key`` an array is accepted too (the older SOL003 v2 form), each item carrying its
    identifier under ``list_key``; it is normalised to a map keyed by that identifier.
    ``nullable``: an item may be null (a JSON Merge Patch of the map: null removes the entry).
    """
    return Field(MAP, required, element=element, min_items=min_items, list_key=list_key, nullable=nullable)


# Bounds on a request, whatever its schema says (free-form parts such as accessInfo and additionalParams included): no
# field of SOL003 or Tacker needs more than a PEM chain or a token in one string (Tacker's API takes 112 KiB bodies).
MAX_STRING_CHARS = 64 * 1024
MAX_DOCUMENT_CHARS = 1024 * 1024


def check_sizes(document, what, path=""):
    """ValidationError naming the first string (value or key) over MAX_STRING_CHARS, or the document when all its strings
    together are over MAX_DOCUMENT_CHARS; only lengths are named, never the text (it may be a password)."""
    total, pending = 0, [(path, document)]
    while pending:
        where, value = pending.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                key = str(key)
                if len(key) > MAX_STRING_CHARS:
                    raise ValidationError(what, where or None, "has a key of {0} characters, more than the limit of {1}".format(len(key), MAX_STRING_CHARS))
                total += len(key)
                pending.append((field_path(where, key), item))
        elif isinstance(value, (list, tuple)):
            pending.extend((field_path(where, index), item) for index, item in enumerate(value))
        elif isinstance(value, str):
            if len(value) > MAX_STRING_CHARS:
                raise ValidationError(what, where or None, "is {0} characters long, more than the limit of {1}".format(len(value), MAX_STRING_CHARS))
            total += len(value)
        if total > MAX_DOCUMENT_CHARS:
            raise ValidationError(what, path or None, "holds more than {0} characters of text in all, the limit".format(MAX_DOCUMENT_CHARS))


def validate(document, schema, what, strict=True, path=""):
    """Check ``document`` against ``schema``; return a normalised deep copy.

    ``what`` names the document in error messages (e.g. ``InstantiateVnfRequest``).
    ``strict`` rejects keys a typed object does not declare (typos such as ``flavorId``);
    free-form objects (additionalParams, extensions, ...) are never checked inside.
    ``path`` prefixes reported fields when ``document`` is part of a larger one. Sizes are not checked here: a
    module bounds every request it is given once, on entry (check_sizes in lcm/modules.py).
    """
    return _check_struct(document, struct(schema), path, _Context(what, strict))


def field_path(parent, key):
    """``parent.key``, or ``parent["key"]`` when the key would make the path ambiguous."""
    if isinstance(key, int):
        return "{0}[{1}]".format(parent, key)
    if not _PLAIN_KEY.match(key):
        return '{0}["{1}"]'.format(parent, key)
    return "{0}.{1}".format(parent, key) if parent else key


def json_type_name(value):
    """The JSON name of a Python value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


_Context = collections.namedtuple("_Context", "what strict")


def _fail(ctx, path, reason):
    raise ValidationError(ctx.what, path or None, reason)


def _expect(ctx, path, value, accepted, expected):
    # bool is an int in Python but never a JSON integer.
    if not isinstance(value, accepted) or (isinstance(value, bool) and bool not in accepted):
        _fail(ctx, path, "must be {0}, got {1}".format(expected, json_type_name(value)))


def _check_string(value, field, path, ctx):
    _expect(ctx, path, value, (str,), "a string")
    if field.enum and value not in field.enum:
        _fail(ctx, path, "must be one of {0}, got {1!r}".format(", ".join(field.enum), value))
    return value


def _check_integer(value, field, path, ctx):
    _expect(ctx, path, value, (int,), "an integer")
    if field.minimum is not None and value < field.minimum:
        _fail(ctx, path, "must be at least {0}, got {1}".format(field.minimum, value))
    return value


def _check_boolean(value, field, path, ctx):
    _expect(ctx, path, value, (bool,), "a boolean")
    return value


def _check_key_value_pairs(value, field, path, ctx):
    _expect(ctx, path, value, (dict,), "an object")
    return copy.deepcopy(value)


def _check_min_items(value, field, path, ctx):
    if len(value) < field.min_items:
        _fail(ctx, path, "must have at least {0} item(s)".format(field.min_items))


def _check_list(value, field, path, ctx):
    _expect(ctx, path, value, (list, tuple), "an array")
    _check_min_items(value, field, path, ctx)
    return [_check_value(item, field.element, field_path(path, index), ctx) for index, item in enumerate(value)]


def _check_map(value, field, path, ctx):
    expected = "an object"
    if field.list_key:
        expected = "an object or an array of objects with {0!r}".format(field.list_key)
        if isinstance(value, (list, tuple)):
            value = _keyed_list_to_map(value, field.list_key, path, ctx)
    _expect(ctx, path, value, (dict,), expected)
    _check_min_items(value, field, path, ctx)
    return {key: None if item is None and field.nullable else _check_value(item, field.element, field_path(path, key), ctx)
            for key, item in value.items()}


def _keyed_list_to_map(items, list_key, path, ctx):
    result = {}
    for index, item in enumerate(items):
        item_path = field_path(path, index)
        _expect(ctx, item_path, item, (dict,), "an object")
        key_path = field_path(item_path, list_key)
        if list_key not in item:
            _fail(ctx, key_path, "is required")
        key = _check_string(item[list_key], string(), key_path, ctx)
        if key in result:
            _fail(ctx, key_path, "duplicate identifier {0!r}".format(key))
        result[key] = {name: member for name, member in item.items() if name != list_key}
    return result


def _check_struct(value, field, path, ctx):
    _expect(ctx, path, value, (dict,), "an object")
    schema = field.schema
    unknown = sorted(name for name in value if name not in schema)
    if unknown and ctx.strict:
        _fail_unknown(ctx, path, unknown, schema)
    result = {name: copy.deepcopy(value[name]) for name in unknown}
    for name, member in schema.items():
        member_path = field_path(path, name)
        if name in value:
            result[name] = _check_value(value[name], member, member_path, ctx)
        elif member.required:
            _fail(ctx, member_path, "is required")
        elif member.default is not None:
            result[name] = copy.deepcopy(member.default)
    return result


def _fail_unknown(ctx, path, unknown, schema):
    paths = ", ".join(field_path(path, name) for name in unknown)
    hints = [match for name in unknown for match in difflib.get_close_matches(name, list(schema), n=1)]
    if hints:
        reason = "unknown field, did you mean {0}?".format(", ".join(hints))
    else:
        reason = "unknown field, expected one of {0}".format(", ".join(sorted(schema)))
    _fail(ctx, paths, reason)


_CHECKERS = {
    STRING: _check_string,
    INTEGER: _check_integer,
    BOOLEAN: _check_boolean,
    KEY_VALUE_PAIRS: _check_key_value_pairs,
    LIST: _check_list,
    MAP: _check_map,
    STRUCT: _check_struct,
}


def _check_value(value, field, path, ctx):
    return _CHECKERS[field.kind](value, field, path, ctx)
