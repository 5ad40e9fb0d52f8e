# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""YAML parsing for package files, with errors that name the file and the line.

Before a text is loaded, one pass over the parser's events refuses what would hurt later: nesting
deeper than MAX_YAML_DEPTH (the C composer recurses and crashes the process on very deep input),
aliases that refer to the node containing them, and aliases that expand the file past
MAX_YAML_EXPANDED_NODES nodes or MAX_YAML_EXPANDED_CHARS scalar characters (an alias bomb loads
as shared references, but every copy or JSON serialisation of it expands it in full).
"""

from __future__ import annotations

import traceback

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.archive import check_text_file_size
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.limits import (
    MAX_TEXT_FILE_BYTES,
    MAX_YAML_DEPTH,
    MAX_YAML_EXPANDED_CHARS,
    MAX_YAML_EXPANDED_NODES,
)

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
    check_text_size(text, where)
    if isinstance(text, bytes):
        text = decode_text(text, where)
    try:
        check_yaml_bounds(text, where)
        return [doc for doc in yaml.load_all(text, Loader=SafeLoader) if doc is not None]
    except yaml.YAMLError as exc:
        raise PackageError(where, "malformed YAML{0}: {1}".format(describe_mark(exc), describe_problem(exc))) from exc
    except (ValueError, OverflowError) as exc:
        # A scalar the constructor cannot turn into a value: an integer of thousands of digits, 2024-13-01.
        reason = str(exc).splitlines()[0].split("; use sys.set_int_max_str_digits")[0]
        raise PackageError(where, "YAML value cannot be converted: {0}".format(reason)) from exc


def check_text_size(text, where):
    """The file-size bound for texts that did not come through a package source (which checks before reading)."""
    # A text of more characters than the limit has more bytes too; its byte count is only needed to say so.
    if len(text) > MAX_TEXT_FILE_BYTES:
        check_text_file_size(len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass")), where)


def check_yaml_bounds(text, where):
    """Refuse, from the parser's events and before anything is built, YAML that nests too deep or expands too far.

    Each alias counts as a copy of its anchored node, whose size is known once that node ends, so the
    pass is linear in the text however far the aliases would expand. One flat loop: it runs on every
    event of every file, and a method call per event would double its cost.
    """
    file_total = [0, 0]
    open_nodes = []  # [nodes, scalar characters, anchor] of each open collection, outermost first
    anchored = {}  # anchor -> (nodes, scalar characters) of its finished node
    total = file_total  # what a finished node adds to: the innermost open collection, else the file
    for event in yaml.parse(text, Loader=SafeLoader):
        kind = event.__class__
        if kind is yaml.ScalarEvent:
            size, anchor = (1, len(event.value)), event.anchor
        elif kind is yaml.AliasEvent:
            check_alias_not_recursive(event, open_nodes, where)
            # An undefined alias is left to the loader, which reports it.
            size, anchor = anchored.get(event.anchor, (1, 0)), None
        elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
            check_depth(event, len(open_nodes), where)
            total = [1, 0, event.anchor]
            open_nodes.append(total)
            continue
        elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            nodes, chars, anchor = open_nodes.pop()
            size = (nodes, chars)
            total = open_nodes[-1] if open_nodes else file_total
        else:
            if kind is yaml.DocumentStartEvent:
                anchored.clear()  # anchors are local to a document
            continue
        if anchor is not None:
            anchored[anchor] = size
        total[0] += size[0]
        total[1] += size[1]
        # Refused as soon as a running total is over, so the counts never grow past twice the limits.
        if total[0] > MAX_YAML_EXPANDED_NODES or total[1] > MAX_YAML_EXPANDED_CHARS:
            raise PackageError(where, expansion_reason(event, total))


def check_depth(event, depth, where):
    if depth >= MAX_YAML_DEPTH:
        raise PackageError(where, "{0}: YAML nested deeper than {1} levels, the limit".format(describe_position(event), MAX_YAML_DEPTH))


def check_alias_not_recursive(event, open_nodes, where):
    """An alias inside the node it names would make a structure that contains itself."""
    if any(entry[2] == event.anchor for entry in open_nodes):
        raise PackageError(where, "{0}: alias *{1} refers to a node that contains it; a recursive YAML structure cannot be "
                                  "serialised".format(describe_position(event), event.anchor))


def expansion_reason(event, total):
    if total[0] > MAX_YAML_EXPANDED_NODES:
        over = "{0} YAML nodes".format(MAX_YAML_EXPANDED_NODES)
    else:
        over = "{0} characters of YAML scalars".format(MAX_YAML_EXPANDED_CHARS)
    return "{0}: with its aliases expanded the file has more than {1}, the limit per file".format(describe_position(event), over)


def describe_position(event):
    """``line L, column C`` where an event starts (1-based)."""
    mark = event.start_mark
    return "line {0}, column {1}".format(mark.line + 1, mark.column + 1)


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
