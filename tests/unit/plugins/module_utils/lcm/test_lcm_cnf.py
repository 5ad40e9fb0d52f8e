# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.deadline import Deadline
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import OperationTimeout, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import pods
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import heal
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.instantiate import placed_questions, shown_question

READY = {"conditions": [{"type": "Ready", "status": "True"}]}


class LateDeleter:
    """Pods by name; the first pod created is taken by a late deletion by name, as kwok may do."""

    def __init__(self, late=1):
        self.pods, self.late, self.creates = {}, late, 0

    def get(self, api_version, kind, name, namespace=None):
        pod = self.pods.get(name)
        if pod is not None and self.late:
            self.late -= 1
            del self.pods[name]
            return None
        return pod

    def create(self, obj):
        self.creates += 1
        self.pods[obj["metadata"]["name"]] = dict(obj, status=READY)
        return obj


def deadline(seconds=5):
    clock = [0.0]
    return Deadline(seconds, 1, clock=lambda: clock[0], sleeper=lambda s: clock.__setitem__(0, clock[0] + s))


def pod(name):
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "ns", "labels": {}}, "spec": {}}


def test_a_recreated_pod_taken_by_a_late_deletion_is_created_again(monkeypatch):
    api = LateDeleter()
    monkeypatch.setattr(pods, "create_or_adopt", lambda api_, obj, instance_id: api_.create(obj))
    api.create(pod("env-test"))
    pods.wait_recreated(api, [pod("env-test")], deadline())
    assert api.creates == 2 and "env-test" in api.pods


def test_a_pod_that_never_comes_back_ready_times_out(monkeypatch):
    api = LateDeleter(late=1000)
    monkeypatch.setattr(pods, "create_or_adopt", lambda api_, obj, instance_id: api_.create(obj))
    with pytest.raises(OperationTimeout):
        pods.wait_recreated(api, [pod("env-test")], deadline(3))


def test_vnfcs_are_counted_per_vdu():
    instance = {"instantiatedVnfInfo": {"vnfcResourceInfo": [{"vduId": "VDU1"}, {"vduId": "VDU2"}, {"vduId": "VDU2"}]}}
    assert heal.vnfcs_per_vdu(instance) == {"VDU1": 1, "VDU2": 2}
    assert heal.with_vnfcs(instance, {"VDU1": 1, "VDU2": 2}) is instance
    assert heal.with_vnfcs(instance, {"VDU1": 1, "VDU2": 1}) is None


def test_every_operation_the_collection_resumes_has_its_resumer_on_kubernetes_but_change_ext_conn():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import resume
    from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ

    assert set(resume.RESUMERS) == op_occ.RETRYABLE - {op_occ.CHANGE_EXT_CONN}


class Served:
    """Discovery as the planner of reviews asks it: kind -> namespaced (absent: not served)."""

    def __init__(self, kinds):
        self.kinds = kinds

    def is_namespaced(self, api_version, kind):
        return self.kinds.get(kind)


def test_reviews_are_asked_in_the_vnf_namespace_when_namespaced_and_a_kind_not_served_is_refused_before_any_write():
    local = {"apiVersion": "authorization.k8s.io/v1", "kind": "LocalSubjectAccessReview", "metadata": {"namespace": "default"}, "spec": {}}
    cluster = {"apiVersion": "authorization.k8s.io/v1", "kind": "SubjectAccessReview", "spec": {}}
    reviews = [{"file": "a.yaml", "index": 0, "object": local}, {"file": "b.yaml", "index": 0, "object": cluster}]
    questions = placed_questions(Served({"LocalSubjectAccessReview": True, "SubjectAccessReview": False}), reviews, "tenant-a")
    assert [shown_question(question) for question in questions] == [
        {"kind": "LocalSubjectAccessReview", "file": "a.yaml", "namespace": "tenant-a"},
        {"kind": "SubjectAccessReview", "file": "b.yaml", "namespace": None}]
    assert questions[0]["object"]["metadata"]["namespace"] == "tenant-a" and local["metadata"]["namespace"] == "default"
    with pytest.raises(ValidationError, match="b.yaml: SubjectAccessReview .* is not served by this cluster"):
        placed_questions(Served({"LocalSubjectAccessReview": True}), reviews, "tenant-a")
