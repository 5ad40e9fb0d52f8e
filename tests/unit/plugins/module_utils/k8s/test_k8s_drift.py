# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""k8s/drift.py: the fields that differ, masked Secrets, the replicas an autoscaler owns, what the reads find."""

from __future__ import annotations

import copy

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import VimError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import drift

INSTANCE = "0c9e7f6a-0000-4000-8000-000000000001"
LABELS = {"app.kubernetes.io/managed-by": "nfv.vnflcm", "vnflcm.nfv/instance-id": INSTANCE}


def deployment(image="nginx:1.27", replicas=2, **metadata):
    return {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": dict({"name": "vdu1", "namespace": "ns1", "labels": dict(LABELS)}, **metadata),
            "spec": {"replicas": replicas, "template": {"spec": {"containers": [{"name": "c", "image": image}]}}},
            "status": {"readyReplicas": replicas}}


def test_only_changed_leaves_are_named_with_their_paths():
    expected, live = deployment(), deployment(image="nginx:1.28", replicas=3, resourceVersion="7", uid="u")
    assert drift.changed_fields("Deployment", expected, live) == [
        {"path": "spec.replicas", "expected": 2, "live": 3},
        {"path": "spec.template.spec.containers[0].image", "expected": "nginx:1.27", "live": "nginx:1.28"},
    ]
    # status and the server's metadata are not content
    assert drift.changed_fields("Deployment", deployment(), dict(deployment(), status={}, metadata=dict(deployment()["metadata"], generation=4))) == []


def test_ignored_paths_and_what_is_under_them_are_left_out():
    live = deployment(replicas=5)
    live["spec"]["template"]["spec"]["containers"].append({"name": "d", "image": "x"})
    assert [field["path"] for field in drift.changed_fields("Deployment", deployment(), live, ("spec.replicas",))] == [
        "spec.template.spec.containers"]
    assert drift.changed_fields("Deployment", deployment(), live, ("spec.replicas", "spec.template")) == []


def test_labels_and_annotations_are_content_and_a_removed_key_is_named():
    live = deployment()
    live["metadata"]["labels"] = {"vnflcm.nfv/instance-id": INSTANCE}
    assert drift.changed_fields("Deployment", deployment(), live) == [
        {"path": "metadata.labels.app.kubernetes.io/managed-by", "expected": "nfv.vnflcm", "live": None}]


def test_a_secret_s_values_are_masked():
    expected = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}, "data": {"password": "c2VjcmV0"}}
    live = copy.deepcopy(expected)
    live["data"] = {"password": "b3RoZXI=", "added": "eA=="}
    fields = drift.changed_fields("Secret", expected, live)
    assert fields == [{"path": "data.added", "expected": None, "live": "********"},
                      {"path": "data.password", "expected": "********", "live": "********"}]
    assert "c2VjcmV0" not in repr(fields) and "b3RoZXI=" not in repr(fields)


def test_the_workloads_an_autoscaler_scales():
    hpa = {"kind": "HorizontalPodAutoscaler", "spec": {"scaleTargetRef": {"kind": "Deployment", "name": "vdu1"}}}
    assert drift.autoscaled([hpa, deployment()]) == {("Deployment", "vdu1")}


class FakeApi:
    """Lists and GETs from ``objects``; ``forbidden`` kinds answer 403 to a LIST; ``apply`` answers ``applied``."""

    def __init__(self, objects, forbidden=(), applied=None):
        self.objects = objects
        self.forbidden = forbidden
        self.applied = applied
        self.calls = []

    def list(self, api_version, kind, namespace=None, label_selector=None):
        self.calls.append(("list", kind))
        if kind in self.forbidden:
            error = VimError("list", kind, "forbidden")
            error.status = 403
            raise error
        return [obj for obj in self.objects if obj["kind"] == kind and (obj["metadata"].get("labels") or {}).get("vnflcm.nfv/instance-id") == INSTANCE]

    def get(self, api_version, kind, name, namespace=None):
        self.calls.append(("get", kind, name))
        return next((obj for obj in self.objects if obj["kind"] == kind and obj["metadata"]["name"] == name), None)

    def apply(self, obj, field_manager, dry_run=False):
        self.calls.append(("apply", obj["kind"], field_manager, dry_run))
        return self.applied


def ref(kind, name, api_version="v1"):
    return {"apiVersion": api_version, "kind": kind, "name": name, "namespace": "ns1"}


def obj(kind, name, labels=None, **metadata):
    labels = dict(LABELS) if labels is None else labels
    return {"apiVersion": "v1", "kind": kind, "metadata": dict({"name": name, "namespace": "ns1", "labels": dict(labels)}, **metadata)}


def test_one_list_per_kind_finds_the_named_the_unexpected_and_leaves_controlled_objects_out():
    api = FakeApi([obj("ConfigMap", "a"), obj("ConfigMap", "b"), obj("ConfigMap", "extra"),
                   obj("ConfigMap", "made", ownerReferences=[{"kind": "X", "name": "x", "controller": True}]),
                   obj("Service", "unlabelled", labels={})])
    found, unexpected = drift.live_objects(api, INSTANCE, [ref("ConfigMap", "a"), ref("ConfigMap", "b"), ref("ConfigMap", "gone"),
                                                           ref("Service", "unlabelled")])
    assert sorted(key[3] for key in found) == ["a", "b", "unlabelled"]
    assert [item["metadata"]["name"] for item in unexpected] == ["extra"]
    # one LIST per kind; a GET only for what no LIST showed
    assert api.calls == [("list", "ConfigMap"), ("get", "ConfigMap", "gone"), ("list", "Service"), ("get", "Service", "unlabelled")]


def test_a_kind_this_user_may_not_list_is_read_by_get():
    api = FakeApi([obj("Secret", "s")], forbidden=("Secret",))
    found, unexpected = drift.live_objects(api, INSTANCE, [ref("Secret", "s")])
    assert list(found) == [("v1", "Secret", "ns1", "s")] and unexpected == []


def test_an_object_s_drift_is_the_dry_run_apply_answer_against_the_live_one():
    api = FakeApi([], applied=deployment())
    assert drift.object_drift(api, deployment(), deployment()) == (deployment(), None)
    expected, found = drift.object_drift(api, deployment(), deployment(image="evil:1"))
    assert expected == deployment()
    assert found["status"] == drift.CHANGED and [field["path"] for field in found["fields"]] == ["spec.template.spec.containers[0].image"]
    assert api.calls[-1] == ("apply", "Deployment", drift.FIELD_MANAGER, True)


@pytest.mark.parametrize("error_status", [401, 500])
def test_a_list_error_other_than_forbidden_is_raised(error_status):
    class Failing(FakeApi):
        def list(self, *args, **kwargs):
            error = VimError("list", "ConfigMap", "no")
            error.status = error_status
            raise error
    with pytest.raises(VimError):
        drift.live_objects(Failing([]), INSTANCE, [ref("ConfigMap", "a")])
