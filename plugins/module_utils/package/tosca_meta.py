# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""TOSCA-Metadata/TOSCA.meta: the header block and the per-file Name/Content-Type/Algorithm/Hash blocks.

SOL004 puts per-file digests in a manifest; Tacker's packages put the same blocks in TOSCA.meta,
after the header, one block per file, blocks separated by blank lines.
"""

from __future__ import annotations

import hashlib

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError

HEADER_KEYS = {
    "tosca-meta-file-version": "tosca_meta_file_version",
    "csar-version": "csar_version",
    "created-by": "created_by",
    "entry-definitions": "entry_definitions",
}
FILE_KEYS = {
    "name": "name",
    "content-type": "content_type",
    "algorithm": "algorithm",
    "hash": "hash",
}
# SOL004 allows these digests; hashlib names them without the dash.
HASH_ALGORITHMS = {"SHA-256": "sha256", "SHA-384": "sha384", "SHA-512": "sha512"}


def parse_tosca_meta(text, where):
    """Parse TOSCA.meta text into ``{"header": {...}, "files": {name: {...}}}``.

    Keys are matched case-insensitively (SOL004 says "Created-By", Tacker writes "Created-by").
    """
    blocks = split_blocks(text, where)
    if not blocks:
        raise PackageError(where, "file is empty")
    header = {}
    files = {}
    for block in blocks:
        keys = {key.lower() for key, _value, _line in block}
        if "name" in keys:
            add_file_block(files, block, where)
        else:
            header.update(pick_keys(block, HEADER_KEYS))
    if not header.get("entry_definitions"):
        raise PackageError(where, "Entry-Definitions is missing; it must name the main VNFD file")
    return {"header": header, "files": files}


def split_blocks(text, where):
    """Blank-line separated blocks of ``(key, value, line_number)``."""
    blocks = []
    current = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            if current:
                blocks.append(current)
            current = []
            continue
        if line.startswith("#"):
            continue
        key, sep, value = line.partition(":")
        if not sep or not key.strip():
            raise PackageError(where, "line {0}: expected 'Key: value', got {1!r}".format(number, line))
        current.append((key.strip(), value.strip(), number))
    if current:
        blocks.append(current)
    return blocks


def pick_keys(block, known):
    """The known keys of a block under their snake_case names."""
    return {known[key.lower()]: value for key, value, _line in block if key.lower() in known}


def add_file_block(files, block, where):
    entry = pick_keys(block, FILE_KEYS)
    first_line = block[0][2]
    name = entry.pop("name")
    if not name:
        raise PackageError(where, "line {0}: empty Name".format(first_line))
    if name in files:
        raise PackageError(where, "line {0}: {1} is listed twice".format(first_line, name))
    if bool(entry.get("algorithm")) != bool(entry.get("hash")):
        raise PackageError(where, "line {0}: {1} needs both Algorithm and Hash".format(first_line, name))
    if entry.get("algorithm") and entry["algorithm"].upper() not in HASH_ALGORITHMS:
        raise PackageError(where, "line {0}: {1}: unsupported Algorithm {2!r} (supported: {3})".format(
            first_line, name, entry["algorithm"], ", ".join(sorted(HASH_ALGORITHMS))))
    files[name] = {
        "content_type": entry.get("content_type"),
        "algorithm": entry.get("algorithm"),
        "hash": entry.get("hash"),
        "verified": False,
    }


def stream_digest(stream, algorithm):
    """Hex digest of a binary file object with a SOL004 algorithm name (case-insensitive), read in chunks."""
    digest = hashlib.new(HASH_ALGORITHMS[algorithm.upper()])
    for chunk in iter(lambda: stream.read(1024 * 1024), b""):
        digest.update(chunk)
    return digest.hexdigest()


def verify_file_hash(entry, stream, where):
    """Mark ``entry`` verified, or raise naming the file when its content does not match the listed hash."""
    if not entry.get("hash"):
        return
    actual = stream_digest(stream, entry["algorithm"])
    if actual != entry["hash"].strip().lower():
        raise PackageError(where, "{0} hash mismatch: TOSCA.meta lists {1}, the file has {2}".format(
            entry["algorithm"], entry["hash"], actual))
    entry["verified"] = True
