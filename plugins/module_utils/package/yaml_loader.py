# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""YAML parsing for package files, with errors that name the file and the line."""

from __future__ import annotations

import traceback

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError

try:
    import yaml
    HAS_YAML = True
    YAML_IMPORT_ERROR = None
    # The C loader is much faster on the large ETSI type files; both are "safe".
    SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
except ImportError:
    HAS_YAML = False
    YAML_IMPORT_ERROR = traceback.format_exc()
    SafeLoader = None


def require_yaml():
    """Fail clearly when PyYAML is missing (the module layer turns this into missing_required_lib)."""
    if not HAS_YAML:
        raise PackageError(None, "the PyYAML Python library is required: {0}".format(YAML_IMPORT_ERROR))


def parse_yaml(text, where):
    """Parse a single-document YAML text; ``where`` names the file in error messages."""
    documents = parse_yaml_documents(text, where)
    if len(documents) > 1:
        raise PackageError(where, "expected one YAML document, found {0}".format(len(documents)))
    return documents[0] if documents else None


def parse_yaml_documents(text, where):
    """Parse a (multi-document) YAML text into a list, dropping empty documents."""
    require_yaml()
    if isinstance(text, bytes):
        text = decode_text(text, where)
    try:
        return [doc for doc in yaml.load_all(text, Loader=SafeLoader) if doc is not None]
    except yaml.YAMLError as exc:
        raise PackageError(where, "malformed YAML{0}: {1}".format(describe_mark(exc), describe_problem(exc))) from exc


def decode_text(data, where):
    """Decode file bytes as UTF-8 (the encoding SOL004 and YAML 1.2 expect)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PackageError(where, "not valid UTF-8 text at byte {0}".format(exc.start)) from exc


def describe_mark(exc):
    """' at line L, column C' from a YAML error (1-based, as editors show it), with where the construct began."""
    problem = getattr(exc, "problem_mark", None)
    context = getattr(exc, "context_mark", None)
    mark = problem or context
    if mark is None:
        return ""
    text = " at line {0}, column {1}".format(mark.line + 1, mark.column + 1)
    if problem and context and context.line != problem.line:
        text += " (started at line {0})".format(context.line + 1)
    return text


def describe_problem(exc):
    """The parser's own words without its multi-line source excerpt."""
    parts = [getattr(exc, "context", None), getattr(exc, "problem", None)]
    text = ", ".join(part for part in parts if part)
    return text or str(exc).splitlines()[0]
