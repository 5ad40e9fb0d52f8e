# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Selective restart planning: Tacker's container update packages (before -> after) and the cases around them."""

from __future__ import annotations

import base64
import copy
import os
import random
import time

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import restart
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import manifest_records
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ownership import label_object
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.references import named_containers, pod_spec_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

HASH = restart.CONFIG_HASH_ANNOTATION
TACKER_PATHS = ["Files/kubernetes/configmap_2.yaml", "Files/kubernetes/secret_2.yaml"]
OURS = {"app.kubernetes.io/managed-by": "nfv.vnflcm", "vnflcm.nfv/instance-id": "vnf-1"}


def package_records(fixtures_dir, name):
    with load_package(os.path.join(fixtures_dir, name)) as package:
        files = sorted(package.to_dict()["kubernetes_def_files"])
        return [record for relpath in files for record in manifest_records(relpath, package.load_yaml_documents(relpath))]


@pytest.fixture(scope="module")
def before(fixtures_dir):
    return package_records(fixtures_dir, "test_cnf_container_update_before")


@pytest.fixture(scope="module")
def after(fixtures_dir):
    return package_records(fixtures_dir, "test_cnf_container_update_after")


# ---------------------------------------------------------------------------------------------
# Live objects, shaped as the API server returns them

def as_live(obj, uid=None, owner=None):
    """An object as read back: namespace, uid, ownership labels, a Secret's stringData stored as base64 data."""
    live = copy.deepcopy(obj)
    metadata = live.setdefault("metadata", {})
    metadata.update({"namespace": "vnf", "uid": uid or "uid-" + metadata["name"], "labels": dict(metadata.get("labels") or {}, **OURS)})
    if owner is not None:
        metadata["ownerReferences"] = [{"kind": owner["kind"], "name": owner["metadata"]["name"], "uid": owner["metadata"]["uid"], "controller": True}]
    if live["kind"] == "Secret" and "stringData" in live:
        data = dict(live.get("data") or {})
        data.update({key: base64.b64encode(value.encode()).decode() for key, value in live.pop("stringData").items()})
        live["data"] = data
    return live


def pod_of(owner, suffix):
    spec = copy.deepcopy(owner["spec"]["template"]["spec"])
    return as_live({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": owner["metadata"]["name"] + "-" + suffix}, "spec": spec}, owner=owner)


def live_cluster(records):
    """The cluster after instantiating ``records``: objects, a Deployment's ReplicaSet, and the controllers' pods."""
    live = []
    for record in records:
        obj = as_live(record["object"])
        live.append(obj)
        if obj["kind"] == "Deployment":
            replicaset = as_live({"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": obj["metadata"]["name"] + "-85dd489b89"},
                                  "spec": copy.deepcopy(obj["spec"])}, owner=obj)
            live.extend([replicaset, pod_of(replicaset, "p7m9q")])
        elif obj["kind"] == "ReplicaSet":
            live.extend([pod_of(obj, "bv6cp"), pod_of(obj, "a1b2c")])
        elif obj["kind"] == "DaemonSet":
            live.append(pod_of(obj, "nv79l"))
    return live


def plan_by_name(plan, section="restart"):
    return {entry["name"]: entry for entry in plan[section]}


def obj(kind, name, api_version="v1", **fields):
    result = {"apiVersion": api_version, "kind": kind, "metadata": {"name": name}}
    result.update(fields)
    return result


def container(name="app", image="nginx", **fields):
    return dict({"name": name, "image": image}, **fields)


def workload(kind, name, *containers, **pod_fields):
    spec = dict({"containers": list(containers)}, **pod_fields)
    if kind == "Pod":
        return obj("Pod", name, spec=spec)
    if kind == "CronJob":
        return obj(kind, name, "batch/v1", spec={"schedule": "* * * * *", "jobTemplate": {"spec": {"template": {"spec": spec}}}})
    api_version = "batch/v1" if kind == "Job" else "apps/v1"
    return obj(kind, name, api_version, spec={"selector": {"matchLabels": {"app": name}}, "template": {"metadata": {"labels": {"app": name}}, "spec": spec}})


def configmap(name, **data):
    return obj("ConfigMap", name, data=data)


def with_image(item, image):
    changed = copy.deepcopy(item)
    for _field, entry in named_containers(pod_spec_of(changed)):
        entry["image"] = image
    return changed


# ---------------------------------------------------------------------------------------------
# Content: what counts as a change of a ConfigMap/Secret

def test_secret_string_data_equals_its_base64_data():
    written = obj("Secret", "s", stringData={"password": "1mbb1G968fb1CUg"})
    stored = obj("Secret", "s", data={"password": "MW1iYjFHOTY4ZmIxQ1Vn"})
    assert restart.normalised_content(written) == restart.normalised_content(stored) == {"data": {"password": "MW1iYjFHOTY4ZmIxQ1Vn"}}
    assert restart.content_hash(written) == restart.content_hash(stored)


def test_string_data_wins_over_data_and_base64_spelling_does_not_matter():
    mixed = obj("Secret", "s", data={"a": "b2xk", "b": "YmJi\n"}, stringData={"a": "new"})
    assert restart.normalised_content(mixed) == {"data": {"a": base64.b64encode(b"new").decode(), "b": "YmJi"}}


def test_labels_annotations_and_type_do_not_count():
    plain = obj("Secret", "s", data={"k": "dg=="})
    decorated = obj("Secret", "s", data={"k": "dg=="}, type="Opaque")
    decorated["metadata"].update({"labels": {"tier": "db"}, "annotations": {"note": "x"}})
    assert restart.content_hash(plain) == restart.content_hash(decorated)


def test_configmap_data_and_binary_data():
    content = restart.normalised_content(obj("ConfigMap", "c", data={"port": 8080, "name": "x"}, binaryData={"blob": "AAE="}))
    assert content == {"data": {"port": "8080", "name": "x"}, "binaryData": {"blob": "AAE="}}
    assert restart.normalised_content(obj("ConfigMap", "c", data=None)) == {"data": {}, "binaryData": {}}


def test_changed_config_of_the_fixture(before, after):
    result = restart.changed_config(before, after)
    assert [(entry["kind"], entry["name"], entry["keys"]) for entry in result["update"]] == [
        ("ConfigMap", "cm-data", ["cmKey1.txt"]), ("Secret", "secret-data", ["password", "secKey1.txt"])]
    assert [(entry["kind"], entry["name"]) for entry in result["unchanged"]] == [("ConfigMap", "cm-data3"), ("Secret", "secret-data3")]
    assert result["create"] == [] and result["removed"] == []


def test_changed_config_compares_with_live_objects(before, after):
    live = live_cluster(before)
    assert restart.changed_config(before, after, live)["update"] == restart.changed_config(before, after)["update"]
    # Someone already applied the new Secret: the VIM's state is what counts.
    secret = next(item for item in live_cluster(after) if item["kind"] == "Secret" and item["metadata"]["name"] == "secret-data")
    live = [item for item in live if not (item["kind"] == "Secret" and item["metadata"]["name"] == "secret-data")] + [secret]
    assert [entry["name"] for entry in restart.changed_config(before, after, live)["update"]] == ["cm-data"]


def test_created_and_removed_configmaps():
    old = [configmap("kept", a="1"), configmap("gone", a="1")]
    new = [configmap("kept", a="1"), configmap("fresh", b="2", c="3")]
    result = restart.changed_config(old, new, [configmap("kept", a="1")])
    assert result["create"] == [{"kind": "ConfigMap", "name": "fresh", "keys": ["b", "c"], "content_hash": restart.content_hash(new[1])}]
    assert result["removed"] == [{"kind": "ConfigMap", "name": "gone", "live": False}]


def test_immutable_configmap_cannot_take_new_content():
    live = configmap("frozen", a="1")
    live["immutable"] = True
    with pytest.raises(ValidationError, match="ConfigMap frozen is immutable"):
        restart.changed_config([configmap("frozen", a="1")], [configmap("frozen", a="2")], [live])


# ---------------------------------------------------------------------------------------------
# Tacker's container update packages, before -> after

@pytest.fixture(scope="module")
def fixture_plan(before, after):
    return restart.plan_container_update(before, after, live_cluster(before), TACKER_PATHS)


def test_fixture_restarts_only_the_users_of_changed_config(fixture_plan):
    assert [(entry["kind"], entry["name"], entry["action"]) for entry in fixture_plan["restart"]] == [
        ("DaemonSet", "daemonset-vdu5", "rollout"),
        ("Deployment", "vdu1-update", "rollout"),
        ("Pod", "env-test", "recreate"),
        ("Pod", "volume-test", "recreate"),
        ("ReplicaSet", "vdu2-update", "replace-pods"),
    ]
    assert fixture_plan["untouched"] == [
        {"kind": "Deployment", "name": "deployment2-vdu6"}, {"kind": "Pod", "name": "env-test2"}, {"kind": "Pod", "name": "volume-test2"}]
    assert fixture_plan["changed"] is True


def test_fixture_reasons_name_config_keys_and_images(fixture_plan):
    entries = plan_by_name(fixture_plan)
    assert entries["vdu1-update"]["reasons"] == [
        {"type": "config", "kind": "ConfigMap", "name": "cm-data", "keys": ["cmKey1.txt"], "via": ["env", "envFrom"]},
        {"type": "config", "kind": "Secret", "name": "secret-data", "keys": ["password", "secKey1.txt"], "via": ["env", "envFrom"]},
        {"type": "image", "container": "nginx", "init": False, "from": "nginx", "to": "cirros"},
    ]
    # The volumes mount one item each: only that key is a reason.
    assert [reason.get("keys") or reason["to"] for reason in entries["volume-test"]["reasons"]] == [["cmKey1.txt"], ["secKey1.txt"], "cirros"]
    assert entries["env-test"]["reasons"][-1] == {"type": "image", "container": "nginx", "init": False, "from": "nginx", "to": "tomcat"}
    assert [reason["type"] for reason in entries["vdu2-update"]["reasons"]] == ["config", "config"]  # its image did not change


def test_fixture_configmaps_and_secrets(fixture_plan):
    config = fixture_plan["configmaps_secrets"]
    assert [entry["name"] for entry in config["update"]] == ["cm-data", "secret-data"]
    assert [entry["name"] for entry in config["unchanged"]] == ["cm-data3", "secret-data3"]
    assert config["create"] == config["removed"] == config["delete"] == []


def test_fixture_controllers_get_one_template_patch(fixture_plan):
    deployment = plan_by_name(fixture_plan)["vdu1-update"]
    assert deployment["patch"] == {"spec": {"template": {
        "metadata": {"annotations": {HASH: deployment["config_hash"]}},
        "spec": {"containers": [{"name": "nginx", "image": "cirros"}]},
    }}}
    # Same ConfigMaps/Secrets, same content: same hash.
    assert plan_by_name(fixture_plan)["daemonset-vdu5"]["config_hash"] == deployment["config_hash"]


def test_fixture_bare_replicaset_lists_its_pods(fixture_plan):
    replicaset = plan_by_name(fixture_plan)["vdu2-update"]
    assert replicaset["pods"] == ["vdu2-update-a1b2c", "vdu2-update-bv6cp"]
    assert replicaset["patch"] == {"spec": {"template": {"metadata": {"annotations": {HASH: replicaset["config_hash"]}}}}}


def test_fixture_bare_pod_is_recreated_as_deployed_with_the_new_image(fixture_plan, before):
    pod = plan_by_name(fixture_plan)["env-test"]["pod"]
    deployed = next(record["object"] for record in before if record["object"]["metadata"]["name"] == "env-test")
    assert pod["spec"]["containers"][0]["image"] == "tomcat"
    assert with_image(pod, "nginx")["spec"] == deployed["spec"]
    assert pod["metadata"]["labels"] == OURS and pod["metadata"]["namespace"] == "vnf"
    assert pod["metadata"]["annotations"] == {HASH: plan_by_name(fixture_plan)["env-test"]["config_hash"]}
    assert "uid" not in pod["metadata"]


def test_fixture_port_change_is_reported_not_applied(fixture_plan):
    assert fixture_plan["not_applied"] == [{
        "kind": "ReplicaSet", "name": "vdu2-update", "path": "spec.template.spec.containers[nginx].ports[0].containerPort",
        "change": "changed", "old": 80, "new": 180,
    }]


def test_fixture_plan_without_live_objects_or_paths_is_the_same(before, after, fixture_plan):
    plan = restart.plan_container_update(before, after)
    assert [entry["name"] for entry in plan["restart"]] == [entry["name"] for entry in fixture_plan["restart"]]
    assert plan_by_name(plan)["vdu2-update"]["pods"] == []  # without the VIM, no pods are known


def test_plan_is_deterministic(before, after):
    live = live_cluster(before)
    shuffled = [list(items) for items in (before, after, live)]
    for items in shuffled:
        random.Random(7).shuffle(items)
    assert restart.plan_container_update(*shuffled) == restart.plan_container_update(before, after, live)


def test_rerun_after_the_update_changes_nothing(before, after):
    plan = restart.plan_container_update(after, after, live_cluster(after))
    assert plan["restart"] == [] and plan["not_applied"] == [] and plan["changed"] is False


# ---------------------------------------------------------------------------------------------
# configmap_secret_paths

def test_configmap_secret_paths_may_move_the_file(before, after):
    restart.check_configmap_secret_paths(TACKER_PATHS, before, after)


def test_changing_the_name_behind_a_listed_path_is_an_error(before, after):
    renamed = copy.deepcopy(after)
    record = next(item for item in renamed if item["file"] == "Files/kubernetes/configmap_3.yaml")
    record["object"]["metadata"]["name"] = "cm-data4"
    with pytest.raises(ValidationError, match=r"configmap_secret_paths\[0\].*held ConfigMap cm-data3 and now holds ConfigMap cm-data4"):
        restart.plan_container_update(before, renamed, None, ["Files/kubernetes/configmap_3.yaml"])


def test_changing_the_kind_behind_a_listed_path_is_an_error(before, after):
    changed = copy.deepcopy(after)
    record = next(item for item in changed if item["file"] == "Files/kubernetes/secret_3.yaml")
    record["object"]["kind"] = "ConfigMap"
    with pytest.raises(ValidationError, match="held Secret secret-data3 and now holds ConfigMap secret-data3"):
        restart.check_configmap_secret_paths(["Files/kubernetes/secret_3.yaml"], before, changed)


@pytest.mark.parametrize("paths, message", [
    (["Files/kubernetes/deployment.yaml"], "holds Deployment vdu1-update: only ConfigMap and Secret files can be listed"),
    (["Files/kubernetes/configmap_1.yaml"], "not a Kubernetes def file of the new package"),
    ("Files/kubernetes/configmap_2.yaml", "must be a list"),
    ([""], "must be a def file path"),
])
def test_bad_configmap_secret_paths(before, after, paths, message):
    with pytest.raises(ValidationError, match=message):
        restart.check_configmap_secret_paths(paths, before, after)


# ---------------------------------------------------------------------------------------------
# Synthetic cases: every way of use, every kind

def plan_for(old, new, live=None, **options):
    return restart.plan_container_update(old, new, live, **options)


def restarted(plan):
    return [(entry["kind"], entry["name"]) for entry in plan["restart"]]


def test_deployment_using_the_configmap_only_through_env_from():
    user = workload("Deployment", "web", container(envFrom=[{"configMapRef": {"name": "cm"}}]))
    bystander = workload("Deployment", "other", container())
    plan = plan_for([configmap("cm", a="1"), user, bystander], [configmap("cm", a="2"), user, bystander])
    assert restarted(plan) == [("Deployment", "web")]
    assert plan["restart"][0]["reasons"] == [{"type": "config", "kind": "ConfigMap", "name": "cm", "keys": ["a"], "via": ["envFrom"]}]
    assert plan["untouched"] == [{"kind": "Deployment", "name": "other"}]


def test_the_tacker_label_alone_restarts_nothing():
    """An instance deployed before pod templates got tacker_vnf_instance_id: the new package's templates differ by it alone."""
    reader = workload("Deployment", "web", container(envFrom=[{"configMapRef": {"name": "cm"}}]))
    new = [label_object(item, "vnf-1") for item in (configmap("cm", a="1"), reader, workload("Pod", "solo", container()))]
    old = copy.deepcopy(new)
    for item in old:
        for labelled in [item] + ([item["spec"]["template"]] if item["kind"] == "Deployment" else []):
            labelled["metadata"]["labels"].pop("tacker_vnf_instance_id")
    plan = plan_for(old, new, [as_live(item) for item in old])
    assert plan["restart"] == [] and plan["template_only"] == [] and not plan["changed"]
    # Reported as not applied (a container update applies images and ConfigMap/Secret content only).
    assert [(change["name"], change["path"]) for change in plan["not_applied"]] == [
        ("web", "metadata.labels.tacker_vnf_instance_id"), ("web", "spec.template.metadata.labels.tacker_vnf_instance_id"),
        ("solo", "metadata.labels.tacker_vnf_instance_id")]


def test_deployment_using_the_secret_through_a_projected_volume():
    user = workload("Deployment", "web", container(), volumes=[{"name": "p", "projected": {"sources": [{"secret": {"name": "sec"}}]}}])
    old, new = obj("Secret", "sec", stringData={"k": "v1"}), obj("Secret", "sec", stringData={"k": "v2"})
    assert plan_for([old, user], [new, user])["restart"][0]["reasons"] == [
        {"type": "config", "kind": "Secret", "name": "sec", "keys": ["k"], "via": ["projected"]}]


def test_init_container_env_restarts_and_init_images_change():
    user = workload("Deployment", "web", container(), initContainers=[container("setup", "busybox:1", env=[
        {"name": "X", "valueFrom": {"configMapKeyRef": {"name": "cm", "key": "x"}}}])])
    new_user = copy.deepcopy(user)
    new_user["spec"]["template"]["spec"]["initContainers"][0]["image"] = "busybox:2"
    entry = plan_for([configmap("cm", x="1"), user], [configmap("cm", x="2"), new_user])["restart"][0]
    assert [reason["type"] for reason in entry["reasons"]] == ["config", "image"]
    assert entry["reasons"][1] == {"type": "image", "container": "setup", "init": True, "from": "busybox:1", "to": "busybox:2"}
    assert entry["patch"]["spec"]["template"]["spec"] == {"initContainers": [{"name": "setup", "image": "busybox:2"}]}


def test_statefulset_rolls_with_one_patch():
    user = workload("StatefulSet", "db", container(env=[{"name": "P", "valueFrom": {"secretKeyRef": {"name": "sec", "key": "p"}}}]))
    plan = plan_for([obj("Secret", "sec", data={"p": "YQ=="}), user], [obj("Secret", "sec", data={"p": "Yg=="}), with_image(user, "postgres")])
    entry = plan["restart"][0]
    assert (entry["kind"], entry["action"]) == ("StatefulSet", "rollout")
    assert entry["patch"] == {"spec": {"template": {"metadata": {"annotations": {HASH: entry["config_hash"]}},
                                                    "spec": {"containers": [{"name": "app", "image": "postgres"}]}}}}


def test_on_delete_strategy_replaces_the_pods_and_paused_deployment_is_warned():
    daemonset = workload("DaemonSet", "agent", container())
    daemonset["spec"]["updateStrategy"] = {"type": "OnDelete"}
    deployment = workload("Deployment", "web", container())
    deployment["spec"]["paused"] = True
    live_daemonset = as_live(daemonset)
    live = [live_daemonset, as_live(deployment), pod_of(live_daemonset, "x1")]
    plan = plan_for([daemonset, deployment], [with_image(daemonset, "v2"), with_image(deployment, "v2")], live)
    entries = plan_by_name(plan)
    assert (entries["agent"]["action"], entries["agent"]["pods"]) == ("replace-pods", ["agent-x1"])
    assert entries["agent"]["patch"] == {"spec": {"template": {"spec": {"containers": [{"name": "app", "image": "v2"}]}}}}
    assert entries["web"]["action"] == "rollout" and "pods" not in entries["web"]
    assert plan["warnings"] == ["Deployment web is paused: its pods change only when it is resumed"]


def test_config_only_change_restarts_deployment_and_bare_pod():
    env = [{"name": "A", "valueFrom": {"configMapKeyRef": {"name": "cm", "key": "a"}}}]
    deployment, pod = workload("Deployment", "web", container(env=env)), workload("Pod", "solo", container(env=env))
    plan = plan_for([configmap("cm", a="1"), deployment, pod], [configmap("cm", a="2"), deployment, pod])
    entries = plan_by_name(plan)
    assert restarted(plan) == [("Deployment", "web"), ("Pod", "solo")]
    assert entries["web"]["patch"] == {"spec": {"template": {"metadata": {"annotations": {HASH: entries["web"]["config_hash"]}}}}}
    assert entries["solo"]["pod"]["spec"] == pod["spec"]
    assert entries["solo"]["pod"]["metadata"]["annotations"] == {HASH: entries["solo"]["config_hash"]}


def test_new_config_content_gives_a_new_hash():
    user = workload("Deployment", "web", container(envFrom=[{"configMapRef": {"name": "cm"}}]))
    first = plan_for([configmap("cm", a="1"), user], [configmap("cm", a="2"), user])["restart"][0]["config_hash"]
    second = plan_for([configmap("cm", a="2"), user], [configmap("cm", a="3"), user])["restart"][0]["config_hash"]
    assert first != second


def test_literal_env_values_do_not_break_anything():
    user = workload("Deployment", "web", container(env=[{"name": "MODE", "value": "fast"}, {"name": "N", "value": "3"},
                                                        {"name": "A", "valueFrom": {"configMapKeyRef": {"name": "cm", "key": "a"}}}]))
    new_user = copy.deepcopy(user)
    new_user["spec"]["template"]["spec"]["containers"][0]["env"][0]["value"] = "slow"
    plan = plan_for([configmap("cm", a="1"), user], [configmap("cm", a="2"), new_user])
    assert restarted(plan) == [("Deployment", "web")]
    assert plan["not_applied"] == [{"kind": "Deployment", "name": "web", "path": "spec.template.spec.containers[app].env[MODE].value",
                                    "change": "changed", "old": "fast", "new": "slow"}]


def test_secret_label_only_change_restarts_nothing():
    user = workload("Pod", "solo", container(envFrom=[{"secretRef": {"name": "sec"}}]))
    old, new = obj("Secret", "sec", stringData={"k": "v"}), obj("Secret", "sec", stringData={"k": "v"})
    new["metadata"]["labels"] = {"rotated": "yes"}
    plan = plan_for([old, user], [new, user], [as_live(old), as_live(user)])
    assert plan["restart"] == [] and plan["configmaps_secrets"]["update"] == [] and plan["changed"] is False
    assert plan["untouched"] == [{"kind": "Pod", "name": "solo"}]


def test_a_key_the_workload_does_not_read_restarts_nothing():
    user = workload("Deployment", "web", container(env=[{"name": "A", "valueFrom": {"configMapKeyRef": {"name": "cm", "key": "a"}}}]))
    plan = plan_for([configmap("cm", a="1", b="1"), user], [configmap("cm", a="1", b="2"), user])
    assert plan["restart"] == [] and [entry["keys"] for entry in plan["configmaps_secrets"]["update"]] == [["b"]]


def test_image_pull_secret_is_a_reason():
    user = workload("Deployment", "web", container(), imagePullSecrets=[{"name": "registry"}])
    plan = plan_for([obj("Secret", "registry", data={"a": "YQ=="}), user], [obj("Secret", "registry", data={"a": "Yg=="}), user])
    assert plan["restart"][0]["reasons"][0]["via"] == ["imagePullSecrets"]


def test_job_is_reported_and_cronjob_template_updated():
    job, cronjob = workload("Job", "once", container()), workload("CronJob", "nightly", container())
    plan = plan_for([job, cronjob], [with_image(job, "v2"), with_image(cronjob, "v2")])
    assert plan["restart"] == []
    assert [(entry["name"], entry["action"], "patch" in entry) for entry in plan["not_restarted"]] == [("once", "report", False)]
    (entry,) = plan["template_only"]
    assert entry["action"] == "update-template"
    assert entry["patch"] == {"spec": {"jobTemplate": {"spec": {"template": {"spec": {"containers": [{"name": "app", "image": "v2"}]}}}}}}


def test_created_configmap_restarts_its_users_and_removed_one_is_only_reported():
    user = workload("Deployment", "web", container(envFrom=[{"configMapRef": {"name": "new-cm", "optional": True}}]))
    plan = plan_for([configmap("old-cm", a="1"), user], [configmap("new-cm", a="1"), user])
    assert [entry["name"] for entry in plan["configmaps_secrets"]["create"]] == ["new-cm"]
    assert plan["configmaps_secrets"]["removed"] == [{"kind": "ConfigMap", "name": "old-cm"}]
    assert plan["configmaps_secrets"]["delete"] == []
    assert restarted(plan) == [("Deployment", "web")]
    assert plan_for([configmap("old-cm", a="1"), user], [configmap("new-cm", a="1"), user], delete_removed=True)["configmaps_secrets"]["delete"] == [
        {"kind": "ConfigMap", "name": "old-cm"}]


def test_deleting_a_removed_configmap_still_in_use_is_an_error():
    user = workload("Deployment", "web", container(envFrom=[{"configMapRef": {"name": "old-cm"}}]))
    with pytest.raises(ValidationError, match="ConfigMap old-cm is gone from the new package but still used by Deployment web"):
        plan_for([configmap("old-cm", a="1"), user], [user], delete_removed=True)
    assert plan_for([configmap("old-cm", a="1"), user], [user])["configmaps_secrets"]["removed"] == [{"kind": "ConfigMap", "name": "old-cm"}]


def test_ephemeral_containers_are_reported_not_restarted():
    user = workload("Pod", "solo", container(envFrom=[{"configMapRef": {"name": "cm"}}]))
    live_pod = as_live(user)
    live_pod["spec"]["ephemeralContainers"] = [{"name": "debug", "image": "busybox"}]
    plan = plan_for([configmap("cm", a="1"), user], [configmap("cm", a="2"), user], [as_live(configmap("cm", a="1")), live_pod])
    assert plan["ephemeral_containers"] == [{"pod": "solo", "workload": {"kind": "Pod", "name": "solo"}, "restarted": True,
                                             "containers": ["debug"], "note": restart.EPHEMERAL_NOTE}]
    assert "ephemeralContainers" not in plan["restart"][0]["pod"]["spec"]


def test_workloads_added_or_dropped_in_the_new_package():
    kept, dropped, added = workload("Pod", "kept", container()), workload("Pod", "dropped", container()), workload("Pod", "added", container())
    plan = plan_for([kept, dropped], [kept, added])
    assert plan["warnings"] == ["Pod dropped is not in the new package: it is left running as it is"]
    assert [(change["name"], change["change"], change["path"]) for change in plan["not_applied"]] == [("added", "added", ""), ("dropped", "removed", "")]


def test_not_applied_changes_skip_images_only():
    old = workload("Deployment", "web", container(ports=[{"containerPort": 80}]), nodeSelector={"zone": "a"})
    new = with_image(old, "tomcat")
    new["spec"]["replicas"] = 3
    new["spec"]["template"]["metadata"]["labels"]["tier"] = "front"
    new["spec"]["template"]["spec"]["containers"].append(container("side", "envoy"))
    new["spec"]["template"]["spec"].pop("nodeSelector")
    unchanged_old, unchanged_new = copy.deepcopy(old), copy.deepcopy(new)
    assert restart.not_applied_changes(old, new) == [
        {"path": "spec.replicas", "change": "added", "old": None, "new": 3},
        {"path": "spec.template.metadata.labels.tier", "change": "added", "old": None, "new": "front"},
        {"path": "spec.template.spec.containers[side]", "change": "added", "old": None, "new": {"name": "side", "image": "envoy"}},
        {"path": "spec.template.spec.nodeSelector", "change": "removed", "old": {"zone": "a"}, "new": None},
    ]
    assert (old, new) == (unchanged_old, unchanged_new)
    assert restart.not_applied_changes(old, with_image(old, "tomcat")) == []


# ---------------------------------------------------------------------------------------------
# Scale: 1,000 workloads, 5,000 pods, 5,000 references (correctness here; timing is only printed)

def large_vnf(workloads=1000, pods_per_workload=5, configmaps=200):
    """Deployments each reading 5 of ``configmaps`` ConfigMaps; live objects include their ReplicaSets and pods."""
    configs = [configmap("cm-{0}".format(number), k="1") for number in range(configmaps)]
    deployments, live = [], [as_live(item) for item in configs]
    for number in range(workloads):
        names = ["cm-{0}".format((number * 5 + offset) % configmaps) for offset in range(5)]
        deployment = workload("Deployment", "w-{0}".format(number), container(envFrom=[{"configMapRef": {"name": name}} for name in names]))
        deployments.append(deployment)
        live_deployment = as_live(deployment)
        replicaset = as_live(obj("ReplicaSet", "w-{0}-rs".format(number), "apps/v1", spec=copy.deepcopy(deployment["spec"])), owner=live_deployment)
        live.extend([live_deployment, replicaset] + [pod_of(replicaset, str(pod)) for pod in range(pods_per_workload)])
    return configs, deployments, live


def timed_large_plan():
    """(plan, seconds) for the large VNF with one changed ConfigMap; for benchmarks and the printout below."""
    configs, deployments, live = large_vnf()
    new_configs = [configmap("cm-0", k="2")] + configs[1:]
    started = time.perf_counter()
    plan = restart.plan_container_update(configs + deployments, new_configs + deployments, live)
    return plan, time.perf_counter() - started


def test_large_vnf_restarts_exactly_the_readers():
    plan, seconds = timed_large_plan()
    # cm-0 is read by w-n whenever 5n..5n+4 covers a multiple of 200: n = 0, 40, 80, ...
    expected = sorted(("Deployment", "w-{0}".format(number)) for number in range(0, 1000, 40))
    assert restarted(plan) == expected
    assert len(plan["untouched"]) == 1000 - len(expected)
    print("planned 1000 workloads / 5000 pods in {0:.3f}s".format(seconds))


def test_a_bare_pod_that_already_runs_the_new_image_is_recreated_with_it_for_a_config_change():
    """After an interrupted update (or in its rollback), the live pod may run the new image already: the pod is
    created again from its manifest with every image of the new one, not with the manifest's old image."""
    env = [{"name": "A", "valueFrom": {"configMapKeyRef": {"name": "cm", "key": "a"}}}]
    old = workload("Pod", "solo", container(env=env))
    new = with_image(old, "v2")
    live = as_live(new)
    plan = plan_for([configmap("cm", a="1"), old], [configmap("cm", a="2"), new], [as_live(configmap("cm", a="1")), live])
    entry = plan_by_name(plan)["solo"]
    assert [reason["type"] for reason in entry["reasons"]] == ["config"]
    assert [item["image"] for item in entry["pod"]["spec"]["containers"]] == ["v2"]
