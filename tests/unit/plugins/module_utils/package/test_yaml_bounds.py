# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""YAML that would hurt later (alias bombs, recursive aliases, deep nesting) is refused while it is read."""

from __future__ import annotations

import glob
import json
import os
import time

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError
from ansible_collections.nfv.vnflcm.plugins.module_utils.package import yaml_loader
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.limits import (
    MAX_YAML_DEPTH,
    MAX_YAML_EXPANDED_CHARS,
    MAX_YAML_EXPANDED_NODES,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

NODES_OVER = "with its aliases expanded the file has more than {0} YAML nodes, the limit per file".format(MAX_YAML_EXPANDED_NODES)


def billion_laughs(levels=9, width=10):
    """Each level is a list of ``width`` aliases of the one before: width ** levels nodes once expanded."""
    lines = ["lol0: &lol0 [lol]"]
    for level in range(1, levels):
        aliases = ", ".join(["*lol{0}".format(level - 1)] * width)
        lines.append("lol{0}: &lol{0} [{1}]".format(level, aliases))
    return "\n".join(lines) + "\n"


def parse_error(text, where="Files/kubernetes/x.yaml"):
    with pytest.raises(PackageError) as error:
        yaml_loader.parse_yaml_documents(text, where)
    return str(error.value)


def test_billion_laughs_is_refused_quickly_naming_file_and_line():
    started = time.monotonic()
    message = parse_error(billion_laughs())
    assert time.monotonic() - started < 1
    assert message == "Failed to read VNF package: Files/kubernetes/x.yaml: line 7, column 42: " + NODES_OVER


def test_a_much_bigger_bomb_costs_no_more():
    """The count never expands anything: 10 ** 5000 nodes are refused as fast as 10 ** 9."""
    started = time.monotonic()
    assert NODES_OVER in parse_error(billion_laughs(levels=5000))
    assert time.monotonic() - started < 2


def test_aliases_that_stay_under_the_bound_load():
    documents = yaml_loader.parse_yaml_documents(billion_laughs(levels=6), "x.yaml")  # 100,000 nodes expanded
    assert len(json.dumps(documents)) > 100000


def test_aliases_of_a_long_string_are_refused():
    """Few nodes, but each alias copies 4 MiB of text."""
    text = "s: &s {0}\nl: [{1}]\n".format("x" * (4 * 1024 * 1024), ", ".join(["*s"] * 8))
    message = parse_error(text)
    assert "Files/kubernetes/x.yaml: line 2, column" in message
    assert "with its aliases expanded the file has more than {0} characters of YAML scalars, the limit per file".format(
        MAX_YAML_EXPANDED_CHARS) in message


def test_the_bound_is_per_file_not_per_document():
    """Three documents of 400,000 expanded nodes each: the third one goes over, at its end."""
    document = "a: &a [{0}]\nb: [{1}]\n".format(", ".join(["1"] * 999), ", ".join(["*a"] * 400))
    yaml_loader.parse_yaml_documents("---\n" + document, "x.yaml")
    message = parse_error("---\n" + document + "---\n" + document + "---\n" + document)
    assert "line 10, column 1: " + NODES_OVER in message


def test_node_bound_is_inclusive(monkeypatch):
    """A sequence of the anchored scalar and a list of N aliases of it is N + 3 nodes (with the list itself).

    The bound is lowered to keep the test fast: a million aliases take seconds to parse.
    """
    monkeypatch.setattr(yaml_loader, "MAX_YAML_EXPANDED_NODES", 1000)
    yaml_loader.parse_yaml_documents("- &a 1\n- [{0}]".format(", ".join(["*a"] * 997)), "x.yaml")
    message = parse_error("- &a 1\n- [{0}]".format(", ".join(["*a"] * 998)))
    assert "with its aliases expanded the file has more than 1000 YAML nodes, the limit per file" in message


@pytest.mark.parametrize("text, alias, position", [
    ("a: &a [*a]", "a", "line 1, column 8"),
    ("&b {x: *b}", "b", "line 1, column 8"),
    ("top: &c\n  list:\n    - {deep: *c}\n", "c", "line 3, column 14"),
])
def test_recursive_aliases_are_refused(text, alias, position):
    message = parse_error(text)
    assert "Files/kubernetes/x.yaml: {0}: alias *{1} refers to a node that contains it; a recursive YAML structure cannot be " \
           "serialised".format(position, alias) in message


def test_an_alias_after_its_node_is_not_recursive():
    assert yaml_loader.parse_yaml_documents("a: &a [1]\nb: [*a, *a]\n", "x.yaml") == [{"a": [1], "b": [[1], [1]]}]


def test_merge_keys_load():
    text = "base: &base {a: 1, b: 2}\nx:\n  <<: *base\n  c: 3\n"
    assert yaml_loader.parse_yaml_documents(text, "x.yaml")[0]["x"] == {"a": 1, "b": 2, "c": 3}


def test_anchors_do_not_leak_into_the_next_document():
    assert "malformed YAML" in parse_error("a: &a [1]\n---\nb: *a\n")


def nested_flow(depth):
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("text", [nested_flow(MAX_YAML_DEPTH), "- " * MAX_YAML_DEPTH + "x\n"])
def test_nesting_up_to_the_limit_loads(text):
    assert yaml_loader.parse_yaml_documents(text, "x.yaml")


@pytest.mark.parametrize("text, position", [
    (nested_flow(MAX_YAML_DEPTH + 1), "line 1, column 101"),
    ("- " * (MAX_YAML_DEPTH + 1) + "x\n", "line 1, column 201"),
    ("a:\n" + "".join(" " * level + "b:\n" for level in range(1, MAX_YAML_DEPTH + 1)) + " " * 101 + "c: 1\n", "line 101, column 101"),
])
def test_nesting_past_the_limit_is_refused(text, position):
    message = parse_error(text)
    assert "Files/kubernetes/x.yaml: {0}: YAML nested deeper than {1} levels, the limit".format(position, MAX_YAML_DEPTH) in message


def test_very_deep_nesting_is_an_error_not_a_crash():
    """The C composer recurses: 50,000 levels overflowed its stack and killed the process."""
    assert "YAML nested deeper than 100 levels" in parse_error(nested_flow(200000))


@pytest.mark.parametrize("text, reason", [
    ("a: " + "1" * 5000, "YAML value cannot be converted: Exceeds the limit (4300 digits) for integer string conversion: value has 5000 digits"),
    ("a: 2024-13-01", "YAML value cannot be converted: month must be in 1..12"),
])
def test_values_that_cannot_be_converted_are_package_errors(text, reason):
    message = parse_error(text)
    assert message == "Failed to read VNF package: Files/kubernetes/x.yaml: " + reason


def test_malformed_yaml_is_still_reported_with_its_line():
    assert "malformed YAML at line 3, column 1: while parsing a flow node" in parse_error("a: 1\nb: [\n")


def test_a_bomb_in_a_package_names_the_file(small_package, zipped):
    root = small_package(manifest=billion_laughs())
    for path in (root, zipped(root)):
        with pytest.raises(PackageError) as error:
            load_package(path)
        assert "Files/kubernetes/web.yaml: line 7, column 42: " + NODES_OVER in str(error.value)


def test_every_sample_yaml_file_is_far_inside_the_bounds(fixtures_dir, monkeypatch):
    """Measured margins: the largest files (ETSI type definitions) expand to under 3,000 nodes and nest 10 deep."""
    monkeypatch.setattr(yaml_loader, "MAX_YAML_EXPANDED_NODES", 10000)
    monkeypatch.setattr(yaml_loader, "MAX_YAML_EXPANDED_CHARS", 100000)
    monkeypatch.setattr(yaml_loader, "MAX_YAML_DEPTH", 12)
    paths = glob.glob(os.path.join(fixtures_dir, "*", "**", "*.yaml"), recursive=True)
    assert len(paths) > 50
    for path in paths:
        with open(path, "rb") as handle:
            yaml_loader.parse_yaml_documents(handle.read(), path)
