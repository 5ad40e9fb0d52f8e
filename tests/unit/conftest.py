# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Fixtures shared by all unit tests."""

from __future__ import annotations

import os
import shutil

import pytest


def repo_root():
    """The collection root: two folders above this file's real location (tests/unit)."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))


@pytest.fixture(scope="session")
def fixtures_dir():
    """Tacker's sample VNF packages (NFV_FIXTURES_DIR, else ../shared/fixtures/tacker beside the clone)."""
    path = os.environ.get("NFV_FIXTURES_DIR") or os.path.join(os.path.dirname(repo_root()), "shared", "fixtures", "tacker")
    if not os.path.isdir(path):
        pytest.fail("Tacker sample packages not found at {0}; set NFV_FIXTURES_DIR to the folder that holds them".format(path))
    return path


@pytest.fixture
def package_copy(fixtures_dir, tmp_path):
    """``package_copy(name)``: a writable copy of a sample package (the originals are never modified)."""
    def copy(name):
        target = tmp_path / name
        shutil.copytree(os.path.join(fixtures_dir, name), str(target))
        return str(target)
    return copy
