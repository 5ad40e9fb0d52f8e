# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Fixtures for the Kubernetes helpers: Tacker's multi-namespace package and a stand-in for API discovery."""

from __future__ import annotations

import os

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import load_manifests
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

# What API discovery of a plain cluster says: (apiVersion, kind) -> namespaced.
DISCOVERY = {
    ("v1", "Namespace"): False,
    ("v1", "ServiceAccount"): True,
    ("v1", "Secret"): True,
    ("v1", "ConfigMap"): True,
    ("v1", "Service"): True,
    ("v1", "Pod"): True,
    ("v1", "PersistentVolume"): False,
    ("v1", "PersistentVolumeClaim"): True,
    ("apps/v1", "Deployment"): True,
    ("apps/v1", "ReplicaSet"): True,
    ("apps/v1", "StatefulSet"): True,
    ("apps/v1", "DaemonSet"): True,
    ("rbac.authorization.k8s.io/v1", "Role"): True,
    ("rbac.authorization.k8s.io/v1", "RoleBinding"): True,
    ("rbac.authorization.k8s.io/v1", "ClusterRole"): False,
    ("rbac.authorization.k8s.io/v1", "ClusterRoleBinding"): False,
    ("apiextensions.k8s.io/v1", "CustomResourceDefinition"): False,
}

K8S_DIR = "Files/kubernetes/"


@pytest.fixture(scope="module")
def multi_ns_package(fixtures_dir):
    """Tacker's test_cnf_multi_ns package, read once per test module."""
    with load_package(os.path.join(fixtures_dir, "test_cnf_multi_ns")) as package:
        yield package


@pytest.fixture
def multi_ns_manifests(multi_ns_package):
    """``multi_ns_manifests("a.yaml", "b.yaml")``: records of those Files/kubernetes/ files, in that order."""
    def load(*names):
        request = {"additionalParams": {"lcm-kubernetes-def-files": [K8S_DIR + name for name in names]}}
        return load_manifests(multi_ns_package, request)
    return load


@pytest.fixture
def discovery():
    """A copy of DISCOVERY, the namespaced answer of a plain cluster's API discovery."""
    return dict(DISCOVERY)


def make_obj(kind, name, namespace=None, api_version="v1", **extra):
    metadata = {"name": name}
    if namespace is not None:
        metadata["namespace"] = namespace
    result = {"apiVersion": api_version, "kind": kind, "metadata": metadata}
    result.update(extra)
    return result


@pytest.fixture
def k8s_obj():
    """``k8s_obj(kind, name, namespace=None, api_version="v1", **top_level_fields)``: a minimal Kubernetes object."""
    return make_obj


@pytest.fixture
def k8s_record():
    """``k8s_record(kind, name, namespace=None, api_version="v1", file=..., index=0)``: a manifest record of such an object."""
    def make(kind, name, namespace=None, api_version="v1", file="Files/kubernetes/x.yaml", index=0, **extra):
        return {"file": file, "index": index, "object": make_obj(kind, name, namespace, api_version, **extra)}
    return make
