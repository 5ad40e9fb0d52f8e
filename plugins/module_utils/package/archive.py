# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Read-only access to the files of a CSAR, whether it is a directory or a zip.

Both kinds of source speak in package-relative POSIX paths ("Definitions/x.yaml"). Zip members are
read in memory, never extracted, and every member name is checked before anything is read so a
crafted archive cannot point outside the package (zip-slip). ``read`` loads a whole file, so it refuses
files over MAX_TEXT_FILE_BYTES before reading them; large files (images) are only streamed.
"""

from __future__ import annotations

import contextlib
import os
import posixpath
import stat
import zipfile
import zlib

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.limits import (
    MAX_TEXT_FILE_BYTES,
    MAX_ZIP_MEMBERS,
    MAX_ZIP_UNCOMPRESSED_BYTES,
    over_limit,
)

TOSCA_META_PATH = "TOSCA-Metadata/TOSCA.meta"
# What reading a damaged, encrypted or unsupported zip member can raise.
ZIP_READ_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, NotImplementedError, RuntimeError, IOError, OSError, EOFError)


def unsafe_path_reason(relpath):
    """Why ``relpath`` cannot name a file inside a package, or None when it can."""
    text = str(relpath).replace("\\", "/")
    if text.startswith("/") or (len(text) > 1 and text[0].isalpha() and text[1] == ":"):
        return "absolute path is not allowed inside a package"
    clean = posixpath.normpath(text)
    if clean == ".." or clean.startswith("../"):
        return "path points outside the package"
    if clean == ".":
        return "path names the package root, not a file"
    return None


def normalize_relpath(relpath, where=None):
    """Return ``relpath`` as a clean package-relative POSIX path, refusing anything that escapes."""
    reason = unsafe_path_reason(relpath)
    if reason:
        raise PackageError(where or relpath, reason)
    return posixpath.normpath(str(relpath).replace("\\", "/"))


def check_text_file_size(size, where):
    """Refuse a file too large to be read whole (the reader parses what it reads in memory)."""
    if size > MAX_TEXT_FILE_BYTES:
        raise PackageError(where, over_limit(size, MAX_TEXT_FILE_BYTES, "a YAML or text file in a package"))


def read_bounded(handle, where):
    """All of ``handle``, refusing it once it grows past the limit (sizes on disk or in a zip can change or lie)."""
    data = handle.read(MAX_TEXT_FILE_BYTES + 1)
    check_text_file_size(len(data), where)
    return data


class DirectorySource:
    """A CSAR unpacked in a directory."""

    format = "directory"

    def __init__(self, root):
        self.root = os.path.abspath(root)
        self._real_root = os.path.realpath(self.root)

    def describe(self, relpath):
        """The path to show the user for a package file."""
        return os.path.join(self.root, relpath)

    def names(self):
        """Every regular file, as sorted package-relative paths."""
        found = []
        for current, dirs, files in os.walk(self.root):
            dirs.sort()
            for name in files:
                found.append(os.path.relpath(os.path.join(current, name), self.root).replace(os.sep, "/"))
        return sorted(found)

    def exists(self, relpath):
        return os.path.isfile(self._safe_path(relpath))

    def read(self, relpath):
        try:
            path = self._regular_file(relpath)
            check_text_file_size(os.stat(path).st_size, self.describe(relpath))
            with open(path, "rb") as handle:
                return read_bounded(handle, self.describe(relpath))
        except (IOError, OSError) as exc:
            raise PackageError(self.describe(relpath), "cannot read file: {0}".format(exc.strerror or exc)) from exc

    @contextlib.contextmanager
    def open_stream(self, relpath):
        """A binary file object, so large files (images) can be hashed without loading them whole."""
        try:
            with open(self._regular_file(relpath), "rb") as handle:
                yield handle
        except (IOError, OSError) as exc:
            raise PackageError(self.describe(relpath), "cannot read file: {0}".format(exc.strerror or exc)) from exc

    def close(self):
        """Nothing to release; present so both sources share one interface."""

    def _safe_path(self, relpath):
        clean = normalize_relpath(relpath, self.describe(relpath))
        path = os.path.join(self.root, *clean.split("/"))
        # A symlink inside the package must not lead out of it either.
        real = os.path.realpath(path)
        if real != self._real_root and not real.startswith(self._real_root + os.sep):
            raise PackageError(self.describe(clean), "path resolves outside the package")
        return path

    def _regular_file(self, relpath):
        # Opening a FIFO or a device named in the package would block or never end.
        path = self._safe_path(relpath)
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise PackageError(self.describe(relpath), "not a regular file")
        return path


class ZipSource:
    """A CSAR zip file, read in memory.

    Tacker's packages have TOSCA-Metadata/ at the archive root; archives that wrap everything in
    one top-level folder are accepted too, and ``prefix`` is that folder.
    """

    format = "zip"

    def __init__(self, path):
        self.path = os.path.abspath(path)
        try:
            self._zip = zipfile.ZipFile(self.path)
        except (zipfile.BadZipFile, IOError, OSError) as exc:
            raise PackageError(self.path, "not a readable zip file: {0}".format(exc)) from exc
        try:
            self._members = self._check_members()
            self.prefix = self._find_prefix()
        except PackageError:
            self._zip.close()
            raise

    def describe(self, relpath):
        return "{0}/{1}".format(self.path, relpath)

    def names(self):
        return sorted(name[len(self.prefix):] for name in self._members if name.startswith(self.prefix))

    def exists(self, relpath):
        return self._member_name(relpath) in self._members

    def read(self, relpath):
        name = self._member_name(relpath)
        if name not in self._members:
            raise PackageError(self.describe(relpath), "file not found in the package")
        info = self._members[name]
        check_text_file_size(info.file_size, self.describe(relpath))
        try:
            with self._zip.open(info) as handle:
                return read_bounded(handle, self.describe(relpath))
        except ZIP_READ_ERRORS as exc:
            raise PackageError(self.describe(relpath), "cannot read zip member: {0}".format(exc)) from exc

    @contextlib.contextmanager
    def open_stream(self, relpath):
        name = self._member_name(relpath)
        if name not in self._members:
            raise PackageError(self.describe(relpath), "file not found in the package")
        # Corrupt or encrypted members only fail while being read, so the whole read is guarded.
        try:
            with self._zip.open(self._members[name]) as handle:
                yield handle
        except ZIP_READ_ERRORS as exc:
            raise PackageError(self.describe(relpath), "cannot read zip member: {0}".format(exc)) from exc

    def close(self):
        self._zip.close()

    def _member_name(self, relpath):
        return self.prefix + normalize_relpath(relpath, self.describe(relpath))

    def _check_members(self):
        """Map clean member names to their ZipInfo, refusing any name that escapes the package."""
        infos = self._zip.infolist()
        check_zip_totals(infos, self.path)
        members = {}
        for info in infos:
            if info.is_dir():
                continue
            reason = unsafe_path_reason(info.filename)
            if reason:
                raise PackageError(self.path, "unsafe zip member name {0!r}: {1}".format(info.filename, reason))
            clean = normalize_relpath(info.filename)
            if clean in members:
                # Two members for one file: which one a tool reads would be anyone's guess.
                raise PackageError(self.path, "zip member {0!r} appears more than once".format(clean))
            members[clean] = info
        return members

    def _find_prefix(self):
        if TOSCA_META_PATH in self._members:
            return ""
        wrapped = [name for name in self._members if name.count("/") == 2 and name.endswith("/" + TOSCA_META_PATH)]
        top_dirs = {name.split("/", 1)[0] for name in self._members}
        if len(wrapped) == 1 and len(top_dirs) == 1:
            return wrapped[0][:-len(TOSCA_META_PATH)]
        return ""


def check_zip_totals(infos, where):
    """Refuse a zip with more members, or more uncompressed bytes, than a package may have."""
    if len(infos) > MAX_ZIP_MEMBERS:
        raise PackageError(where, "has {0} zip members, more than the limit of {1}".format(len(infos), MAX_ZIP_MEMBERS))
    total = sum(info.file_size for info in infos)
    if total > MAX_ZIP_UNCOMPRESSED_BYTES:
        raise PackageError(where, "uncompressed size " + over_limit(total, MAX_ZIP_UNCOMPRESSED_BYTES, "a zip package"))


def open_source(path):
    """A source for a CSAR directory or a .zip/.csar file at ``path``."""
    if os.path.isdir(path):
        return DirectorySource(path)
    if os.path.isfile(path):
        return ZipSource(path)
    raise PackageError(path, "no such file or directory")
