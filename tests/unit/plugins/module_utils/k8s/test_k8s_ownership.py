# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Ownership labels on a CNF's objects and pod templates, and the selectors that find them."""

from __future__ import annotations

import copy

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import ownership as own

INSTANCE_ID = "4a4e9b0e-6ab4-4fd5-aeb0-ab1a0b9e4e4c"
OURS = {"app.kubernetes.io/managed-by": "nfv.vnflcm", "vnflcm.nfv/instance-id": INSTANCE_ID, "tacker_vnf_instance_id": INSTANCE_ID}


def labels(obj, *path):
    current = obj
    for key in path:
        current = current[key]
    return current["metadata"]["labels"]


def test_labels_object_and_pod_template(multi_ns_manifests):
    deployment = multi_ns_manifests("deployment_has_namespace.yaml")[0]["object"]
    before = copy.deepcopy(deployment)
    labelled = own.label_object(deployment, INSTANCE_ID)
    assert labels(labelled) == OURS
    assert labels(labelled, "spec", "template") == dict(OURS, app="webserver")
    assert labelled["spec"]["selector"] == before["spec"]["selector"]  # selectors are immutable: never touched
    assert deployment == before


def test_label_record_keeps_the_record(multi_ns_manifests):
    record = multi_ns_manifests("namespace01.yaml")[0]
    labelled = own.label_record(record, INSTANCE_ID)
    assert (labelled["file"], labelled["index"]) == (record["file"], record["index"])
    assert labels(labelled["object"]) == OURS
    assert "labels" not in record["object"]["metadata"]


def test_cronjob_labels_jobs_and_pods(k8s_obj):
    cronjob = k8s_obj("CronJob", "cj", api_version="batch/v1", spec={"jobTemplate": {"spec": {"template": {"spec": {}}}}})
    labelled = own.label_object(cronjob, INSTANCE_ID)
    assert labels(labelled, "spec", "jobTemplate") == OURS
    assert labels(labelled, "spec", "jobTemplate", "spec", "template") == OURS


@pytest.mark.parametrize("kind", ["StatefulSet", "DaemonSet", "ReplicaSet", "Job"])
def test_other_workloads_label_their_template(kind, k8s_obj):
    labelled = own.label_object(k8s_obj(kind, "w", spec={"template": {"metadata": {"labels": None}}}), INSTANCE_ID)
    assert labels(labelled, "spec", "template") == OURS


def test_our_labels_win_and_others_stay(k8s_obj):
    obj = k8s_obj("ConfigMap", "c")
    obj["metadata"]["labels"] = {"app.kubernetes.io/managed-by": "Helm", "tier": "db"}
    assert labels(own.label_object(obj, INSTANCE_ID)) == dict(OURS, tier="db")


def test_pod_and_others_have_no_template(k8s_obj):
    labelled = own.label_object(k8s_obj("Pod", "p", spec={"containers": []}), INSTANCE_ID)
    assert labelled["spec"] == {"containers": []}
    assert own.label_object(k8s_obj("Deployment", "d"), INSTANCE_ID)["metadata"]["labels"] == OURS  # no spec: nothing to label


def test_selectors():
    assert own.label_selector(INSTANCE_ID) == "app.kubernetes.io/managed-by=nfv.vnflcm,vnflcm.nfv/instance-id=" + INSTANCE_ID
    assert own.resource_selector(INSTANCE_ID) == own.label_selector(INSTANCE_ID) + ",!vnflcm.nfv/record"
    assert own.managed_selector() == "app.kubernetes.io/managed-by=nfv.vnflcm"


def test_is_owned_by(k8s_obj):
    labelled = own.label_object(k8s_obj("Service", "s"), INSTANCE_ID)
    assert own.is_owned_by(labelled, INSTANCE_ID)
    assert own.is_owned_by({"file": "f", "index": 0, "object": labelled}, INSTANCE_ID)
    assert not own.is_owned_by(labelled, "other")
    assert not own.is_owned_by(k8s_obj("Service", "s"), INSTANCE_ID)


@pytest.mark.parametrize("instance_id", ["", "a" * 64, "has space", "-x", 42])
def test_ids_that_cannot_be_labels(instance_id):
    with pytest.raises(ValidationError) as err:
        own.ownership_labels(instance_id)
    assert err.value.field == "id"


def test_name_hash_is_label_safe_and_stable():
    value = own.name_hash("My VNF / ünïcode")
    assert value == own.name_hash("My VNF / ünïcode") != own.name_hash("other")
    assert own.check_label_value(value) == value and len(value) == 16


# --- Tacker v2's label ------------------------------------------------------------------------------

TACKER = "tacker_vnf_instance_id"


def test_tacker_label_on_objects_and_pod_templates_never_in_selectors(k8s_obj):
    spec = {"selector": {"matchLabels": {"app": "d"}}, "template": {"metadata": {"labels": {"app": "d"}}}}
    deployment = k8s_obj("Deployment", "d", api_version="apps/v1", spec=spec)
    deployment["metadata"]["labels"] = {TACKER: "set-by-the-def-file"}
    labelled = own.label_object(deployment, INSTANCE_ID)
    assert labels(labelled)[TACKER] == INSTANCE_ID  # overwritten, as Tacker does
    assert labels(labelled, "spec", "template")[TACKER] == INSTANCE_ID
    assert labelled["spec"]["selector"] == {"matchLabels": {"app": "d"}}
    assert TACKER not in own.label_selector(INSTANCE_ID) and TACKER not in own.resource_selector(INSTANCE_ID)


def test_a_template_label_of_the_def_file_stays_its_selector_may_match_on_it(k8s_obj):
    matched = {TACKER: "mine", "app": "d"}
    spec = {"selector": {"matchLabels": dict(matched)}, "template": {"metadata": {"labels": dict(matched)}}}
    deployment = k8s_obj("Deployment", "d", api_version="apps/v1", spec=spec)
    labelled = own.label_object(deployment, INSTANCE_ID)
    assert labels(labelled, "spec", "template") == dict(OURS, **matched)
    assert labels(labelled)[TACKER] == INSTANCE_ID


def deployed_before_the_label(obj):
    """``obj`` labelled as a version before the Tacker label did (its pod templates and itself without it)."""
    result = own.label_object(obj, INSTANCE_ID)
    for labelled in (result, result["spec"]["template"]):
        labelled["metadata"]["labels"].pop(TACKER)
    return result


def test_an_unchanged_template_deployed_without_the_label_stays_without_it(k8s_obj):
    new = k8s_obj("Deployment", "d", api_version="apps/v1", spec={"replicas": 3, "template": {"metadata": {"labels": {"app": "d"}}, "spec": {}}})
    deployed = deployed_before_the_label(new)
    kept = own.without_new_template_label(own.label_object(new, INSTANCE_ID), {"object": deployed})
    assert kept["spec"]["template"] == deployed["spec"]["template"]  # no rollout for a label alone
    assert labels(kept)[TACKER] == INSTANCE_ID  # the object's own label changes no pod


def test_a_changed_template_gets_the_label_with_its_change(k8s_obj):
    old = k8s_obj("Deployment", "d", api_version="apps/v1", spec={"template": {"metadata": {"labels": {"app": "d"}}, "spec": {"x": 1}}})
    new = own.label_object(dict(old, spec={"template": {"metadata": {"labels": {"app": "d"}}, "spec": {"x": 2}}}), INSTANCE_ID)
    assert own.without_new_template_label(new, deployed_before_the_label(old)) == new
    # Deployed with the label already, or not deployed at all (a new workload), or no pod template: as labelled.
    labelled_old = own.label_object(old, INSTANCE_ID)
    assert own.without_new_template_label(labelled_old, labelled_old) == labelled_old
    assert own.without_new_template_label(new, None) == new
    service = own.label_object(k8s_obj("Service", "s"), INSTANCE_ID)
    assert own.without_new_template_label(service, k8s_obj("Service", "s")) == service
