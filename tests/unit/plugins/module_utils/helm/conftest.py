# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tacker's Helm sample package, read once for the Helm tests."""

from __future__ import annotations

import os
import shutil

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
def package_data(helm_fixtures, tmp_path_factory):
    """The sample package as read, without the chart's source folder beside the .tgz: the package reader takes every
    YAML file under Files/kubernetes/ for a manifest, and a chart's Chart.yaml and Go templates are not."""
    target = str(tmp_path_factory.mktemp("helm") / "test_helm_instantiate")
    shutil.copytree(os.path.join(helm_fixtures, "test_helm_instantiate"), target,
                    ignore=lambda folder, names: ["test-chart"] if folder.endswith("kubernetes") else [])
    with load_package(target) as package:
        return package.to_dict()
