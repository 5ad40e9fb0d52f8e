# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Bounds on what a VNF package and an LCM request may hold, in one place so docs and tests quote them.

Each bound refuses input while it is read or validated, before anything is written to a VIM. They are
far above what real packages use (Tacker's samples: files under 70 KiB, YAML nested 10 levels deep,
under 3,000 YAML nodes per file, a few Kubernetes objects per request; the benchmarks deploy 200).
"""

from __future__ import annotations

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB

# A file the reader loads whole to parse it (TOSCA.meta, VNFD and imports, Kubernetes def files,
# BaseHOT templates, hook task files). Images and other artifacts are only hashed, in chunks.
MAX_TEXT_FILE_BYTES = 8 * MIB

# A zip package: its entries, and the sum of their uncompressed sizes as its directory states them
# (zipfile never inflates a member past its stated size). Generous: packages may carry VM images.
MAX_ZIP_MEMBERS = 10000
MAX_ZIP_UNCOMPRESSED_BYTES = 4 * GIB

# YAML nesting. The C loader composes recursively and overflows the C stack (a crash, not an error)
# between 20,000 and 50,000 levels on an 8 MiB stack; copying and JSON-encoding recurse too (Python's
# limit of 1,000 frames), so the bound is kept low.
MAX_YAML_DEPTH = 100
# One YAML file with every alias counted as a copy of its anchored node (what JSON serialisation
# produces). Aliases are shared once parsed, so an alias bomb ("billion laughs") parses in an
# instant and only blows up later; counting scalar characters too catches aliases of long strings.
MAX_YAML_EXPANDED_NODES = 1000000
MAX_YAML_EXPANDED_CHARS = 4 * MAX_TEXT_FILE_BYTES
# How deep VNFD definitions files may import one another (Tacker's packages go 2 deep).
MAX_IMPORT_DEPTH = 32

# Kubernetes objects one request's def files may hold, and the JSON size of one object: etcd's
# default request limit (--max-request-bytes, 1.5 MiB), which the API server cannot store past.
MAX_KUBERNETES_OBJECTS = 1000
MAX_KUBERNETES_OBJECT_BYTES = 1572864


def describe_bytes(size):
    """``8 MiB (8388608 bytes)``: a size as people read it, with the exact count."""
    for unit, name in ((GIB, "GiB"), (MIB, "MiB"), (KIB, "KiB")):
        if size >= unit:
            return "{0:g} {1} ({2} bytes)".format(round(size / unit, 2), name, size)
    return "{0} bytes".format(size)


def over_limit(size, limit, what):
    """The reason for refusing ``size`` bytes of ``what``: "is X, more than the Y limit of <what>"."""
    return "is {0}, more than the {1} limit of {2}".format(describe_bytes(size), describe_bytes(limit), what)
