# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Instantiate of a CNF (lcm/cnf/instantiate.py) against an in-memory API: dry runs and creates made a few at a time,
a kind at a time, with the errors a loop making them one by one raised."""

from __future__ import annotations

import os
import threading

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, ValidationError, VimError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ordering import create_rank
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ownership import ownership_labels
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.instantiate import plan_instantiate
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.scale import plan_scale
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import Waits
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Progress

NS = "tenant-a"
K = "Files/kubernetes/"
DEF_FILES = [K + name for name in ("deployment.yaml", "config-map.yaml", "role_rolebinding_SA.yaml", "replicaset_service_secret.yaml",
                                   "statefulset.yaml", "daemon-set.yaml")]
NAMESPACED = {"Namespace": False, "ClusterRole": False, "ClusterRoleBinding": False, "PersistentVolume": False, "StorageClass": False}


class FakeKube:
    """Stores what is created; ``refuse``: name -> the error a create (or its dry run) of that object raises."""

    def __init__(self, refuse=None, existing=()):
        self.refuse = refuse or {}
        self.objects = {(obj["kind"], obj["metadata"]["name"]): obj for obj in existing}
        self.writes, self.dry_runs = [], []
        self.lock = threading.Lock()

    def is_namespaced(self, api_version, kind):
        return NAMESPACED.get(kind, True)

    def namespace_exists(self, namespace):
        return True

    def get(self, api_version, kind, name, namespace=None):
        return self.objects.get((kind, name))

    def list(self, api_version, kind, namespace=None, label_selector=None):
        return []

    def create(self, obj, namespace=None, dry_run=False):
        key = (obj["kind"], obj["metadata"]["name"])
        with self.lock:
            (self.dry_runs if dry_run else self.writes).append(key)
        if key[1] in self.refuse:
            raise self.refuse[key[1]]
        if key in self.objects:
            raise ConflictError("create", "{0} {1}".format(*key), "already exists (HTTP 409)")
        if not dry_run:
            with self.lock:
                self.objects[key] = obj
        return obj


@pytest.fixture(scope="module")
def package(fixtures_dir):
    with load_package(os.path.join(fixtures_dir, "test_instantiate_cnf_resources")) as read:
        yield read


def planned(kube, package):
    request = {"flavourId": "simple", "additionalParams": {"namespace": NS, "lcm-kubernetes-def-files": DEF_FILES}}
    return plan_instantiate(kube, package, "vnf-a", request, waits=Waits(enabled=False))


def test_every_object_is_judged_then_created_a_kind_at_a_time_in_create_order(package):
    kube = FakeKube()
    operation = planned(kube, package)
    planned_order = [(item["kind"], item["name"]) for item in operation.plan["create"]]
    assert sorted(kube.dry_runs) == sorted(planned_order)
    operation.prepare()
    progress = Progress()
    operation.execute(progress)
    ranks = [create_rank(kind) for kind, _name in kube.writes]
    assert ranks == sorted(ranks)
    assert sorted(kube.writes) == sorted(planned_order)
    # The record lists what was created in the plan's order, whatever order the calls ended in.
    assert [(item["kind"], item["name"]) for item in progress["created"]] == planned_order


def test_the_first_refused_dry_run_in_create_order_names_its_def_file_as_before(package):
    kube = FakeKube(refuse={"vdu2": VimError("create", "Deployment", "forbidden (HTTP 403)"),
                            "curry-sa": VimError("create", "ServiceAccount", "admission webhook said no (HTTP 400)")})
    with pytest.raises(VimError) as caught:
        planned(kube, package)
    assert caught.value.action == "validate"
    assert "ServiceAccount" in str(caught.value) and "admission webhook said no" in str(caught.value)
    assert "role_rolebinding_SA.yaml" in str(caught.value)
    assert not kube.writes


def test_an_object_of_someone_else_is_refused_before_any_write_naming_its_file(package):
    kube = FakeKube(existing=[{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "curry-test001", "namespace": NS}}])
    with pytest.raises(ValidationError) as caught:
        planned(kube, package)
    assert "config-map.yaml" in str(caught.value) and "does not belong to VNF instance" in str(caught.value)
    assert not kube.writes


def test_a_failed_create_stops_the_later_waves_and_the_record_keeps_what_its_wave_created(package):
    kube = FakeKube()
    operation = planned(kube, package)
    operation.prepare()
    kube.refuse["curry-role"] = VimError("create", "Role tenant-a/curry-role", "forbidden (HTTP 403)")
    progress = Progress()
    with pytest.raises(VimError) as caught:
        operation.execute(progress)
    assert "curry-role" in str(caught.value)
    assert max(create_rank(kind) for kind, _name in kube.writes) == create_rank("Role")
    assert ("RoleBinding", "curry-rolebinding") not in kube.writes
    assert ("Role", "curry-role") not in [(item["kind"], item["name"]) for item in progress["created"]]
    assert ("ConfigMap", "curry-test001") in [(item["kind"], item["name"]) for item in progress["created"]]


def test_a_retry_adopts_what_the_interrupted_run_created(package):
    kube = FakeKube()
    operation = planned(kube, package)
    operation.prepare()
    kube.refuse["vdu2"] = VimError("create", "Deployment tenant-a/vdu2", "the API server could not be reached")
    with pytest.raises(VimError):
        operation.execute(Progress())
    del kube.refuse["vdu2"]
    instance_id = operation.plan["vnf_instance_id"]
    for obj in kube.objects.values():
        obj["metadata"].setdefault("labels", {}).update(ownership_labels(instance_id))
    retry = plan_instantiate(kube, package, "vnf-a", operation.request, instance_id=instance_id, waits=Waits(enabled=False))
    progress = Progress()
    retry.execute(progress)
    assert len(progress["created"]) == len(retry.plan["create"])


def test_tacker_labels_and_vdu_reses_follow_instantiate_and_scale(package):
    kube = FakeKube()
    kube.patch = lambda api_version, kind, name, namespace, patch, content_type=None, dry_run=False: kube.objects[(kind, name)]
    operation = planned(kube, package)
    operation.prepare()
    instance = operation.execute(Progress())
    instance_id = instance["id"]
    for obj in kube.objects.values():
        assert obj["metadata"]["labels"]["tacker_vnf_instance_id"] == instance_id, obj["metadata"]
    assert kube.objects[("Deployment", "vdu2")]["spec"]["template"]["metadata"]["labels"]["tacker_vnf_instance_id"] == instance_id
    vdu_reses = instance["instantiatedVnfInfo"]["metadata"]["vdu_reses"]
    # Tacker's test (_get_vdu_label): each VDU's object as deployed, with the instance's label.
    assert sorted(vdu_reses) == ["VDU2", "VDU3", "VDU5", "VDU6"]
    assert {vdu_id: obj["kind"] for vdu_id, obj in vdu_reses.items()} == {"VDU2": "Deployment", "VDU3": "ReplicaSet", "VDU5": "StatefulSet",
                                                                          "VDU6": "DaemonSet"}
    assert all(obj["metadata"]["labels"]["tacker_vnf_instance_id"] == instance_id for obj in vdu_reses.values())
    assert vdu_reses["VDU2"] == kube.objects[("Deployment", "vdu2")]
    # A scale keeps the VDU's object at its new count.
    scaled = plan_scale(kube, None, (instance, [], None), {"type": "SCALE_OUT", "aspectId": "vdu3_aspect"}, Waits(enabled=False)).execute(Progress())
    assert scaled["instantiatedVnfInfo"]["metadata"]["vdu_reses"]["VDU3"]["spec"]["replicas"] == vdu_reses["VDU3"]["spec"]["replicas"] + 1
    assert scaled["instantiatedVnfInfo"]["metadata"]["vdu_reses"]["VDU2"] == vdu_reses["VDU2"]
