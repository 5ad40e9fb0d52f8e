# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Create and delete order of a CNF's objects."""

from __future__ import annotations

import random

from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import ordering


def kinds(items):
    return [item["object"]["kind"] if "object" in item else item["kind"] for item in items]


def test_create_order_follows_dependencies(k8s_record):
    wanted = ["Namespace", "ResourceQuota", "LimitRange", "PriorityClass", "ServiceAccount", "Secret", "ConfigMap", "StorageClass",
              "PersistentVolume", "PersistentVolumeClaim", "CustomResourceDefinition", "ClusterRole", "ClusterRoleBinding", "Role",
              "RoleBinding", "Service", "Pod", "ReplicaSet", "Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob",
              "HorizontalPodAutoscaler", "PodDisruptionBudget", "Ingress", "NetworkPolicy"]
    shuffled = list(wanted)
    random.Random(7).shuffle(shuffled)
    records = [k8s_record(kind, "o{0}".format(i), index=i) for i, kind in enumerate(shuffled)]
    assert kinds(ordering.sort_for_create(records)) == wanted
    assert kinds(ordering.sort_for_delete(records)) == list(reversed(wanted))


def test_unknown_kinds_come_last_in_file_order(k8s_record):
    records = [
        k8s_record("Widget", "w1", file="a.yaml"),
        k8s_record("Deployment", "d1", file="a.yaml", index=1),
        k8s_record("Gadget", "g1", file="b.yaml"),
        k8s_record("Widget", "w0", file="b.yaml", index=1),
        k8s_record("Namespace", "ns", file="c.yaml"),
    ]
    created = ordering.sort_for_create(records)
    assert [(r["object"]["kind"], r["object"]["metadata"]["name"]) for r in created] == [
        ("Namespace", "ns"), ("Deployment", "d1"), ("Widget", "w1"), ("Gadget", "g1"), ("Widget", "w0")]
    assert ordering.sort_for_delete(records) == list(reversed(created))


def test_create_waves_are_one_kind_each_in_create_order_and_unknown_kinds_keep_their_file_order(k8s_record):
    records = [
        k8s_record("Deployment", "d1"), k8s_record("ConfigMap", "c1"), k8s_record("Widget", "w1"), k8s_record("ServiceAccount", "sa"),
        k8s_record("ConfigMap", "c2"), k8s_record("Gadget", "g1"), k8s_record("Widget", "w2"), k8s_record("Deployment", "d2"),
        k8s_record("Secret", "s1"), k8s_record("Namespace", "ns"),
    ]
    waves = [[r["object"]["metadata"]["name"] for r in wave] for wave in ordering.create_waves(records)]
    assert waves == [["ns"], ["sa"], ["s1"], ["c1", "c2"], ["d1", "d2"], ["w1"], ["g1"], ["w2"]]
    assert [item for wave in ordering.create_waves(records) for item in wave] == ordering.sort_for_create(records)
    assert ordering.create_waves([]) == []


def test_equal_kinds_keep_their_order(k8s_record):
    records = [k8s_record("ConfigMap", name) for name in ("c", "a", "b")]
    assert [r["object"]["metadata"]["name"] for r in ordering.sort_for_create(records)] == ["c", "a", "b"]


def test_plain_objects_sort_too(k8s_obj):
    objects = [k8s_obj("Deployment", "d"), k8s_obj("Service", "s"), k8s_obj("Namespace", "n")]
    assert kinds(ordering.sort_for_create(objects)) == ["Namespace", "Service", "Deployment"]
    assert kinds(ordering.sort_for_delete(objects)) == ["Deployment", "Service", "Namespace"]
    assert kinds(objects) == ["Deployment", "Service", "Namespace"]  # input untouched


def test_rank():
    assert ordering.create_rank("Namespace") == 0
    assert ordering.create_rank("Nope") == ordering.create_rank("AlsoNope") == len(ordering.CREATE_ORDER)
    assert len(set(ordering.CREATE_ORDER)) == len(ordering.CREATE_ORDER)


def test_only_what_has_dependents_is_deleted_in_the_foreground():
    for kind in ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob", "Service"):
        assert ordering.delete_propagation(kind) == "Foreground", kind
    # Owning nothing, these are gone when their DELETE returns; a ControllerRevision could never be deleted in the foreground.
    for kind in ("ConfigMap", "Secret", "ServiceAccount", "Role", "RoleBinding", "PersistentVolumeClaim", "Pod", "ControllerRevision"):
        assert ordering.delete_propagation(kind) == "Background", kind
