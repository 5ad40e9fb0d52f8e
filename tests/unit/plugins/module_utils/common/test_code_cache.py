# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The bytecode cache of code imported from a zip, as a module runs from its AnsiballZ payload: each case is a fresh
Python process importing from a zip that holds code_cache.py and a module of its own, as the payload holds them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common import code_cache

SOURCE = Path(code_cache.__file__).read_text()
MODULE = "def fail():\n    raise ValueError('from the zip')\n"
# Counts the compiles that reach zipimport's own compiler, then imports what a module would, and says what happened.
RUN = """
import json, sys, traceback, zipimport
compiled = []
original = zipimport._compile_source
def counted(pathname, source):
    compiled.append(pathname.rsplit('/', 1)[-1])
    return original(pathname, source)
zipimport._compile_source = counted
sys.path.insert(0, sys.argv[1])
from pkg import code_cache
used = code_cache.use()
from pkg import mod
try:
    mod.fail()
except ValueError:
    where = traceback.extract_tb(sys.exc_info()[2])[-1].filename
print(json.dumps({"used": used, "compiled": compiled, "where": where, "patched": zipimport._compile_source is not counted}))
"""


def payload(path, module=MODULE):
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("pkg/__init__.py", "")
        archive.writestr("pkg/code_cache.py", SOURCE)
        archive.writestr("pkg/mod.py", module)
    return str(path)


def run(zip_path, home, **environ):
    env = {key: value for key, value in os.environ.items()
           if key not in ("NFV_VNFLCM_CODE_CACHE", "XDG_CACHE_HOME", "PYTHONDONTWRITEBYTECODE")}
    env.update(HOME=str(home), **environ)
    done = subprocess.run([sys.executable, "-c", RUN, zip_path], capture_output=True, text=True, env=env, check=True)
    return json.loads(done.stdout)


def entries(home):
    return sorted(path.name for path in (Path(home) / ".cache" / "nfv.vnflcm" / "code").glob("*/*"))


def test_a_second_run_compiles_nothing_and_its_tracebacks_name_its_own_zip(tmp_path):
    first = run(payload(tmp_path / "one.zip"), tmp_path)
    # Before use(): the package and code_cache itself, each twice on Python 3.11 (for the filename, then the code).
    assert first["used"] is True and first["patched"] is True and first["compiled"].count("mod.py") == 1
    assert len(entries(tmp_path)) == 1

    second = run(payload(tmp_path / "two.zip"), tmp_path)
    assert "mod.py" not in second["compiled"] and second["where"] == str(tmp_path / "two.zip" / "pkg" / "mod.py")
    assert len(entries(tmp_path)) == 1


def test_a_changed_source_is_compiled_and_kept_beside_the_old_one(tmp_path):
    run(payload(tmp_path / "one.zip"), tmp_path)
    changed = run(payload(tmp_path / "two.zip", MODULE + "\nVERSION = 2\n"), tmp_path)
    assert changed["compiled"].count("mod.py") == 1 and len(entries(tmp_path)) == 2


def test_a_damaged_entry_is_compiled_again_and_replaced(tmp_path):
    zip_path = payload(tmp_path / "one.zip")
    run(zip_path, tmp_path)
    entry = next((tmp_path / ".cache" / "nfv.vnflcm" / "code").glob("*/*"))
    entry.write_bytes(entry.read_bytes()[:30])
    again = run(zip_path, tmp_path)
    assert again["compiled"].count("mod.py") == 1 and again["where"].endswith("mod.py")
    assert run(zip_path, tmp_path)["compiled"].count("mod.py") == 0


@pytest.mark.parametrize("value", ["off", "", "0"])
def test_turned_off_it_neither_patches_nor_writes(tmp_path, value):
    done = run(payload(tmp_path / "one.zip"), tmp_path, NFV_VNFLCM_CODE_CACHE=value)
    assert done["used"] is False and done["patched"] is False and not (tmp_path / ".cache").exists()


@pytest.mark.parametrize("value", ["1", None])
def test_pythondontwritebytecode_does_not_turn_it_off(tmp_path, value):
    zip_path = payload(tmp_path / "one.zip")
    environ = {} if value is None else {"PYTHONDONTWRITEBYTECODE": value}
    assert run(zip_path, tmp_path, **environ)["used"] is True and len(entries(tmp_path)) == 1
    assert run(zip_path, tmp_path, **environ)["compiled"].count("mod.py") == 0


def test_a_directory_others_may_write_to_is_not_used(tmp_path):
    base = tmp_path / "shared"
    base.mkdir()
    base.chmod(0o777)
    done = run(payload(tmp_path / "one.zip"), tmp_path, NFV_VNFLCM_CODE_CACHE=str(base))
    assert done["used"] is False and done["patched"] is False


def test_a_directory_that_cannot_be_made_is_not_used(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    done = run(payload(tmp_path / "one.zip"), tmp_path, NFV_VNFLCM_CODE_CACHE=str(blocker / "code"))
    assert done["used"] is False and done["patched"] is False


def test_outside_a_zip_it_does_nothing():
    assert code_cache.use() is False


def test_where_the_cache_is():
    assert code_cache.cache_directory({}) == os.path.join(os.path.expanduser("~"), ".cache", "nfv.vnflcm", "code")
    assert code_cache.cache_directory({"XDG_CACHE_HOME": "/x"}) == "/x/nfv.vnflcm/code"
    assert code_cache.cache_directory({"NFV_VNFLCM_CODE_CACHE": "/c", "XDG_CACHE_HOME": "/x"}) == "/c"
    assert code_cache.cache_directory({"NFV_VNFLCM_CODE_CACHE": "Off"}) is None


def test_pruning_keeps_the_newest(tmp_path):
    for index in range(6):
        entry = tmp_path / "entry{0}".format(index)
        entry.write_bytes(b"x")
        os.utime(entry, (time.time() - 100 + index, time.time() - 100 + index))
    code_cache._prune(str(tmp_path), limit=5, keep=2)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["entry4", "entry5"]
    code_cache._prune(str(tmp_path), limit=5, keep=1)
    assert len(list(tmp_path.iterdir())) == 2
