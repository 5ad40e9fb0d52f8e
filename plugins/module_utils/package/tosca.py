# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""TOSCA plumbing: load a definitions file with its imports, and answer "is this type a kind of that"."""

from __future__ import annotations

import posixpath

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.archive import normalize_relpath
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.limits import MAX_IMPORT_DEPTH
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.yaml_loader import parse_yaml

# Intrinsic functions: a property holding one of these has no value until deployment.
TOSCA_FUNCTIONS = frozenset(("get_input", "get_property", "get_attribute", "get_operation_output", "concat", "token", "get_artifact"))


class Definitions:
    """All TOSCA documents reachable from the entry file, in load order, plus their type registry."""

    def __init__(self, entry, documents, types):
        self.entry = entry
        self.documents = documents
        self.types = types

    def templates(self):
        """``(relpath, topology_template)`` of every document that has one, entry file first."""
        for relpath, document in self.documents:
            template = document.get("topology_template")
            if isinstance(template, dict):
                yield relpath, template


def load_definitions(source, entry, warnings):
    """Load ``entry`` and, depth first, every file it imports (each once); an import loop is an error that names it."""
    documents = []
    loaded = set()

    def visit(relpath, chain):
        if relpath in chain:
            loop = chain[chain.index(relpath):] + [relpath]
            raise PackageError(source.describe(chain[-1]), "imports {0}, which imports it back: {1}".format(relpath, " -> ".join(loop)))
        if relpath in loaded:
            return
        if len(chain) > MAX_IMPORT_DEPTH:
            raise PackageError(source.describe(chain[-1]), "imports nest deeper than {0} files: {1}".format(MAX_IMPORT_DEPTH, " -> ".join(chain[:3] + ["..."])))
        loaded.add(relpath)
        document = read_definitions_file(source, relpath, chain[-1] if chain else None)
        documents.append((relpath, document))
        for target in import_targets(source, relpath, document, warnings):
            visit(target, chain + [relpath])

    visit(entry, [])
    return Definitions(entry, documents, TypeRegistry(documents))


def read_definitions_file(source, relpath, importer):
    if not source.exists(relpath):
        if importer is None:
            raise PackageError(source.describe(relpath), "Entry-Definitions names this file, but it is not in the package")
        raise PackageError(source.describe(importer), "imports {0}, which is not in the package".format(relpath))
    document = parse_yaml(source.read(relpath), source.describe(relpath))
    if not isinstance(document, dict) or "tosca_definitions_version" not in document:
        raise PackageError(source.describe(relpath), "not a TOSCA definitions document (no tosca_definitions_version)")
    return document


def import_targets(source, relpath, document, warnings):
    """Package paths imported by a document, resolved against its folder."""
    targets = []
    for item in document.get("imports") or []:
        name = import_file_name(item)
        if not name:
            raise PackageError(source.describe(relpath), "cannot understand import {0!r}".format(item))
        if "://" in name:
            warnings.append("{0}: import {1} is a URL and was not loaded".format(relpath, name))
            continue
        joined = posixpath.join(posixpath.dirname(relpath), name)
        targets.append(normalize_relpath(joined, "{0} (import {1})".format(source.describe(relpath), name)))
    return targets


def import_file_name(item):
    """The file of an import in any TOSCA notation: "f.yaml", {file: f.yaml} or {name: {file: f.yaml}}."""
    if isinstance(item, str):
        return item
    if isinstance(item, dict):
        if isinstance(item.get("file"), str):
            return item["file"]
        if len(item) == 1:
            return import_file_name(next(iter(item.values())))
    return None


class TypeRegistry:
    """Node, policy and group types from every loaded document, with their derived_from chains."""

    SECTIONS = ("node_types", "policy_types", "group_types", "capability_types", "data_types")

    def __init__(self, documents):
        self._types = {}
        for _relpath, document in documents:
            for section in self.SECTIONS:
                for name, definition in (document.get(section) or {}).items():
                    self._types.setdefault(name, definition or {})

    def chain(self, type_name):
        """``type_name`` then its ancestors; stops on unknown types and on loops."""
        seen = []
        current = type_name
        while current and current not in seen:
            seen.append(current)
            current = (self._types.get(current) or {}).get("derived_from")
        return seen

    def is_a(self, type_name, base):
        return base in self.chain(type_name)

    def property_defaults(self, type_name):
        """Each property's default, or its single allowed value, most derived type winning."""
        values = {}
        for name in reversed(self.chain(type_name)):
            for prop, spec in ((self._types.get(name) or {}).get("properties") or {}).items():
                value = property_default(spec)
                if value is not None:
                    values[prop] = value
        return values


def property_default(spec):
    if not isinstance(spec, dict):
        return None
    if "default" in spec:
        return spec["default"]
    for constraint in spec.get("constraints") or []:
        allowed = constraint.get("valid_values") if isinstance(constraint, dict) else None
        if isinstance(allowed, list) and len(allowed) == 1:
            return allowed[0]
    return None


def is_concrete(value):
    """False for an intrinsic function such as ``{get_input: selected_flavour}``."""
    return not (isinstance(value, dict) and len(value) == 1 and next(iter(value)) in TOSCA_FUNCTIONS)


def concrete_properties(properties):
    return {key: value for key, value in (properties or {}).items() if value is not None and is_concrete(value)}


def requirement_targets(node, requirement):
    """Node names a template's requirement points at, in either notation (``name: X`` or ``name: {node: X}``)."""
    targets = []
    for item in node.get("requirements") or []:
        if not isinstance(item, dict):
            continue
        for key, value in item.items():
            if key != requirement:
                continue
            target = value.get("node") if isinstance(value, dict) else value
            if isinstance(target, str):
                targets.append(target)
    return targets
