# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tacker's Helm sample package, read once for the Helm tests."""

from __future__ import annotations

import os

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package


@pytest.fixture(scope="module")
def helm_fixtures(fixtures_dir):
    """Tacker's Helm sample (``tacker-helm``, beside the folder of Tacker's sample packages)."""
    path = os.path.join(os.path.dirname(os.path.abspath(fixtures_dir)), "tacker-helm")
    if not os.path.isdir(path):
        pytest.fail("Tacker's Helm sample not found at {0} (beside NFV_FIXTURES_DIR)".format(path))
    return path


@pytest.fixture(scope="module")
def package_data(helm_fixtures):
    """The sample package as shipped: the chart's .tgz and its source folder beside it."""
    with load_package(os.path.join(helm_fixtures, "test_helm_instantiate")) as package:
        return package.to_dict()
