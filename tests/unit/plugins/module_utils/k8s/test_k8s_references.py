# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Which ConfigMaps/Secrets and images a workload's pods use: every reference path, every workload kind."""

from __future__ import annotations

import os

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import references as refs
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import manifest_records
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package


@pytest.fixture(scope="module")
def before_objects(fixtures_dir):
    """The objects of Tacker's test_cnf_container_update_before def files, by name."""
    with load_package(os.path.join(fixtures_dir, "test_cnf_container_update_before")) as package:
        files = sorted(package.to_dict()["kubernetes_def_files"])
        records = [record for relpath in files for record in manifest_records(relpath, package.load_yaml_documents(relpath))]
    return {record["object"]["metadata"]["name"]: record["object"] for record in records}


def ref(kind, name, via, key=None, container=None, init=False):
    return {"kind": kind, "name": name, "key": key, "via": via, "container": container, "init": init}


def test_env_and_env_from_references_of_the_fixture_deployment(before_objects):
    spec = refs.pod_spec_of(before_objects["vdu1-update"])
    assert refs.config_references(spec) == [
        ref("ConfigMap", "cm-data", "env", "cmKey1.txt", "nginx"),
        ref("Secret", "secret-data", "env", "password", "nginx"),
        ref("ConfigMap", "cm-data", "envFrom", None, "nginx"),
        ref("Secret", "secret-data", "envFrom", None, "nginx"),
    ]


def test_volume_items_are_keys_and_secret_volumes_use_secret_name(before_objects):
    spec = refs.pod_spec_of(before_objects["vdu2-update"])
    assert refs.config_references(spec) == [
        ref("ConfigMap", "cm-data", "volume", "cmKey1.txt"),
        ref("Secret", "secret-data", "volume", "secKey1.txt"),
    ]


def test_projected_sources_and_whole_object_volumes():
    spec = {"volumes": [
        {"name": "all", "projected": {"sources": [
            {"configMap": {"name": "cm-a", "items": [{"key": "k1", "path": "a"}, {"key": "k2", "path": "b"}]}},
            {"secret": {"name": "sec-a"}},
            {"downwardAPI": {"items": [{"path": "labels", "fieldRef": {"fieldPath": "metadata.labels"}}]}},
            {"serviceAccountToken": {"path": "token"}},
        ]}},
        {"name": "whole", "configMap": {"name": "cm-b"}},
        {"name": "scratch", "emptyDir": {}},
    ]}
    assert refs.config_references(spec) == [
        ref("ConfigMap", "cm-a", "projected", "k1"),
        ref("ConfigMap", "cm-a", "projected", "k2"),
        ref("Secret", "sec-a", "projected"),
        ref("ConfigMap", "cm-b", "volume"),
    ]


def test_init_containers_and_image_pull_secrets():
    spec = {
        "initContainers": [{"name": "setup", "image": "busybox", "env": [{"name": "X", "valueFrom": {"configMapKeyRef": {"name": "cm-init", "key": "x"}}}]}],
        "containers": [{"name": "app", "image": "nginx"}],
        "imagePullSecrets": [{"name": "registry"}],
    }
    assert refs.config_references(spec) == [ref("ConfigMap", "cm-init", "env", "x", "setup", init=True), ref("Secret", "registry", "imagePullSecrets")]


def test_literal_env_values_and_malformed_entries_are_not_references():
    spec = {"containers": [
        {"name": "app", "env": [
            {"name": "PLAIN", "value": "1"},
            {"name": "EMPTY"},
            {"name": "NODE", "valueFrom": {"fieldRef": {"fieldPath": "spec.nodeName"}}},
            {"name": "CPU", "valueFrom": {"resourceFieldRef": {"resource": "limits.cpu"}}},
            {"name": "NULL", "valueFrom": None},
            "not-a-dict",
        ], "envFrom": None, "volumeMounts": [{"name": "v", "mountPath": "/v"}]},
        {"image": "no-name"},
    ], "volumes": None}
    assert not refs.config_references(spec)
    assert not refs.config_references(None)


@pytest.mark.parametrize("kind, path", [
    ("Pod", ("spec",)),
    ("Deployment", ("spec", "template", "spec")),
    ("ReplicaSet", ("spec", "template", "spec")),
    ("DaemonSet", ("spec", "template", "spec")),
    ("StatefulSet", ("spec", "template", "spec")),
    ("Job", ("spec", "template", "spec")),
    ("CronJob", ("spec", "jobTemplate", "spec", "template", "spec")),
])
def test_pod_spec_of_each_workload_kind(kind, path):
    spec = {"containers": [{"name": "c", "image": "i"}]}
    obj = spec
    for key in reversed(path):
        obj = {key: obj}
    obj.update({"kind": kind, "metadata": {"name": "w"}})
    assert refs.pod_spec_of(obj) is spec
    assert refs.pod_spec_of({"file": "f.yaml", "index": 0, "object": obj}) is spec


def test_pod_spec_of_other_kinds_or_missing_templates_is_none():
    assert refs.pod_spec_of({"kind": "ConfigMap", "metadata": {"name": "c"}, "data": {}}) is None
    assert refs.pod_spec_of({"kind": "Deployment", "metadata": {"name": "d"}, "spec": {"template": None}}) is None


def test_reference_index_of_the_fixture(before_objects):
    index = refs.reference_index(before_objects.values())
    changed_users = [("DaemonSet", "daemonset-vdu5"), ("Deployment", "vdu1-update"), ("Pod", "env-test"), ("Pod", "volume-test"), ("ReplicaSet", "vdu2-update")]
    other_users = [("Deployment", "deployment2-vdu6"), ("Pod", "env-test2"), ("Pod", "volume-test2")]
    assert index == {
        ("ConfigMap", "cm-data"): changed_users,
        ("Secret", "secret-data"): changed_users,
        ("ConfigMap", "cm-data3"): other_users,
        ("Secret", "secret-data3"): other_users,
    }


def test_container_images_per_list_and_name():
    spec = {"initContainers": [{"name": "setup", "image": "busybox"}], "containers": [{"name": "app", "image": "nginx"}, {"name": "side", "image": "envoy"}]}
    assert refs.container_images(spec) == {("initContainers", "setup"): "busybox", ("containers", "app"): "nginx", ("containers", "side"): "envoy"}


def test_ephemeral_containers_with_their_references():
    spec = {"containers": [{"name": "app", "image": "nginx"}],
            "ephemeralContainers": [{"name": "debug", "image": "busybox", "envFrom": [{"configMapRef": {"name": "cm-data"}}]}]}
    assert refs.ephemeral_containers(spec) == [{"name": "debug", "image": "busybox", "references": [ref("ConfigMap", "cm-data", "envFrom", None, "debug")]}]
    assert refs.config_references(spec) == []  # never restart reasons
    assert refs.ephemeral_containers({}) == []
