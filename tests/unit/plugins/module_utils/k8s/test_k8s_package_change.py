# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The plan of a CNF's change of package (k8s/package_change.py): what each object becomes, in which step, and the way back."""

from __future__ import annotations

import copy

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import package_change as change
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ownership import TACKER_INSTANCE_ID_LABEL, label_object, without_new_template_label
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.restart import CONFIG_HASH_ANNOTATION

NS = "vnf-ns"


def meta(name):
    return {"name": name, "namespace": NS}


def deployment(name, image, reads=None, kind="Deployment", replicas=2):
    container = {"name": "app", "image": image}
    if reads:
        container["env"] = [{"name": "V", "valueFrom": {"configMapKeyRef": {"name": reads[0], "key": reads[1]}}}]
    return {"apiVersion": "apps/v1", "kind": kind, "metadata": meta(name),
            "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": name}},
                     "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": [container]}}}}


def config_map(name, data):
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta(name), "data": data}


def identity(obj):
    return {"apiVersion": obj["apiVersion"], "kind": obj["kind"], "metadata": meta(obj["metadata"]["name"])}


def records(*objects):
    """Manifest records as the record keeps them deployed: ConfigMaps by identity only."""
    return [{"file": "f.yaml", "index": index, "object": identity(obj) if obj["kind"] == "ConfigMap" else obj} for index, obj in enumerate(objects)]


def new_records(*objects):
    return [{"file": "f.yaml", "index": index, "object": obj} for index, obj in enumerate(objects)]


def live_of(*objects):
    result = {}
    for obj in objects:
        found = copy.deepcopy(obj)
        found["metadata"].update(uid="uid-" + obj["metadata"]["name"], resourceVersion="7")
        found["status"] = {"replicas": 2}
        result[(obj["kind"], obj["metadata"]["name"])] = found
    return result


CM = config_map("cm", {"mode": "a", "other": "x"})
VDU1 = deployment("vdu1", "app:1", reads=("cm", "mode"))
VDU2 = deployment("vdu2", "app:1", reads=("cm", "other"))
OLD_VDUS = {"VDU1": ("Deployment", "vdu1"), "VDU2": ("Deployment", "vdu2")}


def plan(new, named=("VDU1", "VDU2"), new_vdus=None, old=(CM, VDU1, VDU2), live=None, old_vdus=None):
    return change.plan_package_change(records(*old), new_records(*new), live if live is not None else live_of(*old), old_vdus or OLD_VDUS,
                                      new_vdus or old_vdus or OLD_VDUS, list(named), keeps_namespace=NS)


def by_step(job):
    return {step["name"]: [(entry["do"], entry["kind"], entry["name"]) for entry in step["actions"]] for step in job["steps"]}


def test_a_new_image_updates_its_vdu_a_changed_key_restarts_only_its_reader_even_when_kept():
    job = plan([config_map("cm", {"mode": "a", "other": "y"}), deployment("vdu1", "app:2", reads=("cm", "mode")), VDU2], named=["VDU1"])
    steps = by_step(job)
    assert steps["prepare"] == [("content", "ConfigMap", "cm")]
    assert steps["VDU1"] == [("update", "Deployment", "vdu1")]
    # VDU2 is not named: it keeps its workload, but it reads the changed key, so it restarts (at the end).
    assert steps["finish"] == [("restart", "Deployment", "vdu2")] and job["kept_vdus"] == ["VDU2"]
    update = job["steps"][1]["actions"][0]
    assert [reason["type"] for reason in update["reasons"]] == ["image"] and "spec.template.spec.containers[app].image" in update["changes"]
    restart = job["steps"][-1]["actions"][0]
    assert restart["reasons"][0]["keys"] == ["other"] and CONFIG_HASH_ANNOTATION in str(restart["patch"])
    assert set(job["originals"]) == {"ConfigMap/cm", "Deployment/vdu1", "Deployment/vdu2"}
    assert "status" not in job["originals"]["Deployment/vdu1"] and "uid" not in job["originals"]["Deployment/vdu1"]["metadata"]


def test_nothing_differs_nothing_to_do_and_replicas_come_from_the_scale_level():
    assert not plan([CM, VDU1, VDU2])["changed"]
    job = plan([CM, deployment("vdu1", "app:1", reads=("cm", "mode"), replicas=3), VDU2])
    assert by_step(job)["VDU1"] == [("update", "Deployment", "vdu1")] and job["steps"][1]["actions"][0]["changes"] == ["spec.replicas"]


def test_an_instance_deployed_before_the_tacker_label_gets_it_on_its_objects_not_its_pod_templates():
    deployed = [without_tacker_label(label_object(item, "vnf-1")) for item in (CM, VDU1, VDU2)]
    new = [label_object(item, "vnf-1") for item in (CM, VDU1, deployment("vdu2", "app:2", reads=("cm", "other")))]
    new = [without_new_template_label(item, old) for item, old in zip(new, deployed)]
    job = plan(new, old=deployed)
    vdu1, vdu2 = job["steps"][1]["actions"][0], job["steps"][2]["actions"][0]
    # vdu1's template is as deployed: a PUT of its labels, no rollout; vdu2 rolls for its image and gets the label with it.
    assert vdu1["changes"] == ["metadata.labels.tacker_vnf_instance_id"]
    assert vdu1["object"]["spec"]["template"]["metadata"]["labels"] == deployed[1]["spec"]["template"]["metadata"]["labels"]
    assert "spec.template.metadata.labels.tacker_vnf_instance_id" in vdu2["changes"]


def without_tacker_label(obj):
    result = copy.deepcopy(obj)
    for labelled in [result] + ([result["spec"]["template"]] if result["kind"] == "Deployment" else []):
        labelled["metadata"]["labels"].pop(TACKER_INSTANCE_ID_LABEL)
    return result


def test_a_live_config_hash_is_kept_on_update_so_that_only_real_changes_restart():
    live = live_of(CM, VDU1, VDU2)
    live[("Deployment", "vdu1")]["spec"]["template"]["metadata"]["annotations"] = {CONFIG_HASH_ANNOTATION: "h1"}
    job = plan([CM, deployment("vdu1", "app:2", reads=("cm", "mode")), VDU2], live=live)
    desired = job["steps"][1]["actions"][0]["object"]
    assert desired["spec"]["template"]["metadata"]["annotations"] == {CONFIG_HASH_ANNOTATION: "h1"}


def test_a_moved_vdu_gets_its_new_workload_before_the_old_one_goes_and_gone_objects_go_last():
    service = {"apiVersion": "v1", "kind": "Service", "metadata": meta("svc"), "spec": {"ports": [{"port": 80}]}}
    moved = deployment("vdu1-v2", "app:2", reads=("cm", "mode"))
    job = plan([CM, moved, VDU2, service], new_vdus={"VDU1": ("Deployment", "vdu1-v2"), "VDU2": ("Deployment", "vdu2")},
               old=(CM, VDU1, VDU2, config_map("gone", {"k": "v"})))
    steps = by_step(job)
    assert steps["prepare"] == [("create", "Service", "svc")]
    assert steps["VDU1"] == [("create", "Deployment", "vdu1-v2"), ("delete", "Deployment", "vdu1")]
    assert job["steps"][1]["moved"] and [entry["wait"] for entry in job["steps"][1]["actions"]] == ["ready", "gone"]
    assert steps["finish"] == [("delete", "ConfigMap", "gone")]
    assert {(record["object"]["kind"], record["object"]["metadata"]["name"]) for record in job["target"]} == {
        ("ConfigMap", "cm"), ("Deployment", "vdu1-v2"), ("Deployment", "vdu2"), ("Service", "svc")}


def test_the_way_back_restores_configuration_first_then_the_vdus_in_reverse_then_deletes_what_was_created():
    service = {"apiVersion": "v1", "kind": "Service", "metadata": meta("svc"), "spec": {"clusterIP": "10.0.0.9", "ports": [{"port": 80}]}}
    old = (CM, VDU1, VDU2, service)
    new = [config_map("cm", {"mode": "b", "other": "x"}), deployment("vdu1", "app:2", reads=("cm", "mode")), deployment("vdu2", "app:2"),
           {"apiVersion": "v1", "kind": "Service", "metadata": meta("svc2"), "spec": {"ports": [{"port": 80}]}}]
    job = plan(new, named=["VDU2", "VDU1"], old=old)
    back = change.rollback_job(job)
    steps = {step["name"]: [(entry["do"], entry["kind"], entry["name"]) for entry in step["actions"]] for step in back["steps"]}
    assert [step["name"] for step in back["steps"]] == ["prepare", "VDU1", "VDU2", "finish"]
    assert steps["prepare"] == [("content", "ConfigMap", "cm"), ("create", "Service", "svc")]
    assert steps["VDU1"] == [("update", "Deployment", "vdu1")] and steps["VDU2"] == [("update", "Deployment", "vdu2")]
    assert steps["finish"] == [("delete", "Service", "svc2")]
    recreated = back["steps"][0]["actions"][1]["object"]
    assert "clusterIP" not in recreated["spec"]  # a new address: the old one may be taken
    restored = back["steps"][1]["actions"][0]["object"]
    assert restored["spec"]["template"]["spec"]["containers"][0]["image"] == "app:1" and restored["metadata"].get("resourceVersion") is None


def described_runs(job, side_by_side):
    return [([(entry["do"], entry["name"]) for entry in actions], ended and ended["vdu_id"]) for actions, ended in change.runs(job, side_by_side)]


def test_one_at_a_time_each_action_is_waited_for_before_the_next_and_each_vdu_step_ends_alone():
    service = {"apiVersion": "v1", "kind": "Service", "metadata": meta("svc"), "spec": {"ports": [{"port": 80}]}}
    job = plan([CM, deployment("vdu1-v2", "app:2", reads=("cm", "mode")), deployment("vdu2", "app:2", reads=("cm", "other")), service],
               new_vdus={"VDU1": ("Deployment", "vdu1-v2"), "VDU2": ("Deployment", "vdu2")})
    assert described_runs(job, side_by_side=False) == [
        ([("create", "svc")], None),
        ([("create", "vdu1-v2")], None), ([("delete", "vdu1")], None), ([], "VDU1"),
        ([("update", "vdu2")], None), ([], "VDU2")]


def test_side_by_side_the_nth_action_of_every_vdu_is_written_at_once_then_waited_for_together():
    service = {"apiVersion": "v1", "kind": "Service", "metadata": meta("svc"), "spec": {"ports": [{"port": 80}]}}
    job = plan([CM, deployment("vdu1-v2", "app:2", reads=("cm", "mode")), deployment("vdu2", "app:2", reads=("cm", "other")), service],
               new_vdus={"VDU1": ("Deployment", "vdu1-v2"), "VDU2": ("Deployment", "vdu2")}, old=(CM, VDU1, VDU2, config_map("gone", {"k": "v"})))
    assert described_runs(job, side_by_side=True) == [
        ([("create", "svc")], None),
        ([("create", "vdu1-v2"), ("update", "vdu2")], None),  # both workloads roll at once
        ([("delete", "vdu1")], None),                          # then the moved VDU's old workload goes
        ([("delete", "gone")], None)]
    # The way back rolls the same way: every VDU's workload restored at once.
    back = described_runs(change.rollback_job(job), side_by_side=True)
    assert ([("update", "vdu2"), ("create", "vdu1")], None) in back and not any(ended for _actions, ended in back)


def test_side_by_side_with_nothing_to_roll_writes_only_prepare_and_finish():
    job = plan([config_map("cm", {"mode": "b", "other": "x"}), VDU1, VDU2], named=[])
    assert [actions for actions, _ended in described_runs(job, side_by_side=True)] == [[("content", "cm")], [("restart", "vdu1")]]


def test_what_cannot_be_done_is_refused_before_anything_is_written():
    moved = {"VDU1": ("Deployment", "vdu1-v2"), "VDU2": ("Deployment", "vdu2")}
    with pytest.raises(ValidationError, match="VDU VDU1 moves from Deployment vdu1 to Deployment vdu1-v2"):
        plan([CM, deployment("vdu1-v2", "app:2"), VDU2], named=["VDU2"], new_vdus=moved)
    with pytest.raises(ValidationError, match="ConfigMap cm is not in the new def files, but Deployment vdu2 still reads it; VDU VDU2 is not named"):
        plan([deployment("vdu1", "app:2"), VDU2], named=["VDU1"])
    replicaset = deployment("vdu1", "app:1", kind="ReplicaSet")
    as_replicaset = {"VDU1": ("ReplicaSet", "vdu1"), "VDU2": ("Deployment", "vdu2")}
    with pytest.raises(ValidationError, match="ReplicaSet vdu1 would need its pods replaced by hand"):
        plan([CM, deployment("vdu1", "app:2", kind="ReplicaSet"), VDU2], old=(CM, replicaset, VDU2), old_vdus=as_replicaset)
    # Replicas alone are no pod change: a ReplicaSet may take them.
    assert by_step(plan([CM, dict(replicaset, spec=dict(replicaset["spec"], replicas=3)), VDU2], old=(CM, replicaset, VDU2),
                        old_vdus=as_replicaset))["VDU1"] == [
        ("update", "ReplicaSet", "vdu1")]


def test_the_namespace_that_holds_the_record_is_never_deleted():
    namespace = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NS}}
    job = plan([CM, VDU1, VDU2], old=(namespace, CM, VDU1, VDU2))
    assert not job["changed"] and ("Namespace", NS) in {(r["object"]["kind"], r["object"]["metadata"]["name"]) for r in job["target"]}


def test_the_plan_reads_as_text():
    job = plan([config_map("cm", {"mode": "b", "other": "x"}), deployment("vdu1", "app:2", reads=("cm", "mode")), VDU2], named=["VDU1"])
    lines = change.plan_lines(job)
    assert lines[0] == "prepare:" and "  update Deployment vdu1 (reads ConfigMap cm keys mode; image of app: app:1 -> app:2)" in lines
    assert lines[-1] == "kept as deployed (not in vdu_params): VDU2"
    assert change.plan_lines(plan([CM, VDU1, VDU2])) == ["no change: the VNF already runs this package"]
