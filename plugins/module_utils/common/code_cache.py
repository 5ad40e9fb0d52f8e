# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A bytecode cache for the module's code as Ansible ships it: in a zip (AnsiballZ), from which Python imports by
compiling every file again on every run, and on Python 3.11 twice (zipimport compiles a file for its filename, then
for its code). That was 0.2-0.3 CPU-s of a module run's 0.5-0.7 before its first request. ``use()`` keeps each
compiled file in a private directory, named by the hash of its source, so that a later run, of any module, loads it.

The cache is ``$NFV_VNFLCM_CODE_CACHE``, else ``$XDG_CACHE_HOME/nfv.vnflcm/code``, else ``~/.cache/nfv.vnflcm/code``;
``NFV_VNFLCM_CODE_CACHE=off`` (or empty) turns it off. A directory that is not the user's own or that others may write
to is not used, nor one that cannot be made (a read-only home, as in some execution environments): the code is
compiled as before. An entry holds the interpreter's magic number and the hash of its source, checked at each load:
one that is damaged or from another Python is compiled again. PYTHONDONTWRITEBYTECODE, which is about Python's own
__pycache__ beside source files, does not turn it off (machines that set it for every process would lose it).
Outside a zip (unit tests, an installed collection) ``use()`` does nothing: Python's own __pycache__ serves there."""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
import zipimport
from importlib.util import MAGIC_NUMBER

try:  # CPython's own fix-up of a cached code object's file names (what a .pyc load does)
    from _imp import _fix_co_filename
except ImportError:  # another interpreter: no cache
    _fix_co_filename = None

# Entries are pruned to the newest KEEP when a write finds more than LIMIT: a few versions of the collection.
LIMIT = 2000
KEEP = 1000
_state = {"directory": None, "memo": {}, "pruned": False}


def use():
    """Cache the compiled code of what this process imports from now on from a zip; True if the cache is in use."""
    if _state["directory"]:
        return True
    compile_source = getattr(zipimport, "_compile_source", None)
    if compile_source is None or _fix_co_filename is None or not _from_zip():
        return False
    directory = _private_directory(cache_directory(os.environ))
    if directory is None:
        return False
    _state["directory"] = directory
    zipimport._compile_source = _cached(compile_source)
    return True


def cache_directory(environ):
    """Where the cache is, from the environment; None when it is turned off."""
    given = environ.get("NFV_VNFLCM_CODE_CACHE")
    if given is not None:
        return None if given.strip().lower() in ("", "off", "0", "false", "no") else given
    base = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "nfv.vnflcm", "code")


def _from_zip():
    return isinstance(globals().get("__loader__"), zipimport.zipimporter)


def _private_directory(base):
    """``base``/<interpreter's magic number and optimisation level>, made 0700 if missing; None unless it is this
    user's own and nobody else may write to it or to ``base``."""
    if not base:
        return None
    directory = os.path.join(base, "{0}-O{1}".format(MAGIC_NUMBER.hex(), sys.flags.optimize))
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        for path in (base, directory):
            status = os.stat(path)
            if status.st_uid != os.geteuid() or status.st_mode & 0o022:
                return None
    except OSError:
        return None
    return directory


def _header(source):
    return MAGIC_NUMBER + hashlib.sha256(source).digest()


def _cached(compile_source):
    def compiled(pathname, source):
        if not isinstance(source, bytes):
            return compile_source(pathname, source)
        header = _header(source)
        key = (pathname, header)
        code = _state["memo"].get(key)
        if code is None:
            code = _load(header) or _store(header, compile_source(pathname, source))
            _state["memo"][key] = code
        # A cached entry names the file of the run that wrote it: tracebacks name this run's.
        _fix_co_filename(code, pathname)
        return code
    return compiled


def _entry(header):
    return os.path.join(_state["directory"], header[len(MAGIC_NUMBER):].hex())


def _load(header):
    try:
        with open(_entry(header), "rb") as handle:
            data = handle.read()
        return marshal.loads(data[len(header):]) if data.startswith(header) else None
    except (OSError, ValueError, EOFError, TypeError):
        return None


def _store(header, code):
    path = _entry(header)
    partial = "{0}.{1}.part".format(path, os.getpid())
    try:
        with open(partial, "wb") as handle:
            handle.write(header + marshal.dumps(code))
        os.replace(partial, path)  # whole or not at all, whichever run writes it
        if not _state["pruned"]:  # once a process: a new version writes all its files in its first call
            _state["pruned"] = True
            _prune(_state["directory"])
    except (OSError, ValueError):
        try:
            os.unlink(partial)
        except OSError:
            pass
    return code


def _prune(directory, limit=LIMIT, keep=KEEP):
    """Remove all but the ``keep`` newest entries when there are more than ``limit``."""
    names = os.listdir(directory)
    if len(names) <= limit:
        return
    aged = []
    for name in names:
        try:
            aged.append((os.stat(os.path.join(directory, name)).st_mtime, name))
        except OSError:
            continue
    for _mtime, name in sorted(aged, reverse=True)[keep:]:
        try:
            os.unlink(os.path.join(directory, name))
        except OSError:
            pass
