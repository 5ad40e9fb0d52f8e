# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Kubernetes lab fixtures of tests/integration/k8s, for the role and playbook tests.

The lab fixture uses a lab that is up in $NFV_LAB_STATE_DIR; when none is, each directory that uses it
starts its own for the session.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

_K8S_CONFTEST = Path(__file__).resolve().parent.parent / "k8s" / "conftest.py"
_spec = importlib.util.spec_from_file_location("nfv_vnflcm_k8s_lab_fixtures", _K8S_CONFTEST)
_k8s = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_k8s)

k8s_lab = _k8s.k8s_lab
k8s_namespace = _k8s.k8s_namespace
Api = _k8s.Api


@pytest.fixture
def kube(k8s_lab):
    """The lab's admin API (labk8s.kubeapi.Api)."""
    return Api(k8s_lab.kubeconfig)


@pytest.fixture
def collections_path():
    path = os.environ.get("ANSIBLE_COLLECTIONS_PATH")
    if not path:
        pytest.fail("ANSIBLE_COLLECTIONS_PATH is not set: run the integration tests with `make integration`")
    return path


@pytest.fixture
def collection_root():
    """The collection root (the checkout, or a staged copy that holds these tests)."""
    return Path(__file__).resolve().parents[3]


@pytest.fixture
def venv_tool():
    """``venv_tool(name)``: a console script of the Python that runs the tests, else the one on PATH."""

    def find(name):
        local = os.path.join(os.path.dirname(sys.executable), name)
        return local if os.path.exists(local) else name

    return find
