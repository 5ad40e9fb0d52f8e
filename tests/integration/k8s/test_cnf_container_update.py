# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Selective restart on the lab: vnf_modify with Tacker's container-update packages, and vnf_lcm_op_occ."""

from __future__ import annotations

import base64
import os
import time

import pytest

from labk8s.audit import summarize
from labk8s.cluster import ADMIN_USER

from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_faults import block_pods, head, kill_runner, running_op_occ, unblock_pods, wait_for

DEF_DIR = "Files/kubernetes/"
# The def files and their order as in the seed (cnf-update-with-mgmt-driver.rst).
DEF_FILES = [DEF_DIR + name for name in (
    "configmap_1.yaml", "deployment.yaml", "pod_env.yaml", "pod_volume.yaml", "replicaset.yaml", "secret_1.yaml",
    "configmap_3.yaml", "pod_env_2.yaml", "pod_volume_2.yaml", "daemonset.yaml", "deployment_2.yaml", "secret_3.yaml")]
AFTER_VNFD_ID = "b1bb0ce7-ebca-4fa7-95ed-4840d70a8883"
BEFORE_VNFD_ID = "b1bb0ce7-ebca-4fa7-95ed-4840d70a7774"
MODIFY_REQUEST = {"vnfdId": AFTER_VNFD_ID, "vnfInstanceName": "modify_vnf_after",
                  "metadata": {"configmap_secret_paths": [DEF_DIR + "configmap_2.yaml", DEF_DIR + "secret_2.yaml"]}}
RESTARTED = {("Deployment", "vdu1-update"), ("ReplicaSet", "vdu2-update"), ("DaemonSet", "daemonset-vdu5"),
             ("Pod", "env-test"), ("Pod", "volume-test")}
UNTOUCHED = {("Deployment", "deployment2-vdu6"), ("Pod", "env-test2"), ("Pod", "volume-test2")}


@pytest.fixture
def packages(tacker_packages):
    return {name: os.path.join(tacker_packages, "test_cnf_container_update_" + name) for name in ("before", "after")}


@pytest.fixture
def cnf(ansible_task, k8s_lab, k8s_namespace, packages):
    """The 'before' package instantiated (level 2: three pods for vdu1-update and vdu2-update) in a fresh namespace."""
    auth = {"kubeconfig": str(k8s_lab.kubeconfig), "namespace": k8s_namespace, "wait_timeout": 180, "wait_sleep": 1}
    request = {"flavourId": "simple", "instantiationLevelId": "instantiation_level_2",
               "additionalParams": {"lcm-kubernetes-def-files": DEF_FILES, "namespace": k8s_namespace}}
    done = ansible_task("vnf_instantiate", {"kubeconfig": auth["kubeconfig"], "wait_timeout": 180, "package": packages["before"],
                                            "vnf_instance_name": "modify_vnf_before", "request": request})
    assert done.get("failed") is not True, done.get("msg")
    return dict(auth, vnf_instance_id=done["vnf_instance"]["id"])


def pods_by_owner(kube, namespace):
    """{(kind, name) of the pod's controller, or ("Pod", name) for a bare pod: {pod name: (uid, [images])}}."""
    owners = {}
    replicasets = {rs["metadata"]["uid"]: rs for rs in kube.call("GET", "/apis/apps/v1/namespaces/{0}/replicasets".format(namespace))["items"]}
    for pod in kube.call("GET", "/api/v1/namespaces/{0}/pods".format(namespace))["items"]:
        meta = pod["metadata"]
        if meta.get("deletionTimestamp"):
            continue
        ref = next((item for item in meta.get("ownerReferences") or [] if item.get("controller")), None)
        owner = ("Pod", meta["name"]) if ref is None else (ref["kind"], ref["name"])
        if ref is not None and ref["kind"] == "ReplicaSet" and ref["uid"] in replicasets:
            parent = next((item for item in replicasets[ref["uid"]]["metadata"].get("ownerReferences") or [] if item.get("controller")), None)
            owner = (parent["kind"], parent["name"]) if parent else owner
        owners.setdefault(owner, {})[meta["name"]] = (meta["uid"], [c["image"] for c in pod["spec"]["containers"]])
    return owners


def config(kube, namespace, kind, name):
    path = "/api/v1/namespaces/{0}/{1}s/{2}".format(namespace, kind.lower(), name)
    return kube.call("GET", path)


def decoded(secret):
    return {key: base64.b64decode(value).decode() for key, value in secret["data"].items()}


def uids(pods):
    return {uid for uid, _images in pods.values()}


def test_container_update_restarts_exactly_the_pods_that_need_it(ansible_task, kube, cnf, packages, k8s_namespace, k8s_audit):
    ns = k8s_namespace
    before = pods_by_owner(kube, ns)
    assert len(before[("Deployment", "vdu1-update")]) == 3 and len(before[("ReplicaSet", "vdu2-update")]) == 3
    kept_versions = {name: config(kube, ns, kind, name)["metadata"]["resourceVersion"]
                     for kind, name in (("ConfigMap", "cm-data3"), ("Secret", "secret-data3"))}
    args = dict(cnf, package=packages["after"], request=MODIFY_REQUEST)
    lookup = {"kubeconfig": cnf["kubeconfig"], "namespace": ns, "vnf_instance_id": cnf["vnf_instance_id"]}
    vnfcs_before = ansible_task("vnf_info", lookup)["vnf_instances"][0]["instantiatedVnfInfo"]["vnfcResourceInfo"]

    # Check mode: the same plan, and not one write.
    start = k8s_audit.mark()
    checked = ansible_task("vnf_modify", args, check=True, diff=True)
    assert k8s_audit.writes(start, user=ADMIN_USER) == []
    assert checked["changed"] is True, checked.get("msg")
    plan = checked["plan"]["container_update"]
    assert {(entry["kind"], entry["name"]) for entry in plan["restart"]} == RESTARTED
    assert UNTOUCHED <= {(entry["kind"], entry["name"]) for entry in plan["untouched"]}
    assert [(entry["kind"], entry["name"]) for entry in plan["configmaps_secrets"]["update"]] == [("ConfigMap", "cm-data"), ("Secret", "secret-data")]
    secret_diff = checked["diff"]["after"]["Secret/secret-data"]["data"]
    assert secret_diff and set(secret_diff.values()) == {"VALUE_SPECIFIED_IN_NO_LOG_PARAMETER"}
    assert "1mbb1G968fb1CUg" not in str(checked) and base64.b64encode(b"1mbb1G968fb1CUg").decode() not in str(checked)
    assert checked["diff"]["after"]["ConfigMap/cm-data"]["data"] != checked["diff"]["before"]["ConfigMap/cm-data"]["data"]
    assert pods_by_owner(kube, ns) == before

    done = ansible_task("vnf_modify", args)
    assert done.get("failed") is not True, done.get("msg")
    assert done["changed"] is True and done["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    after = pods_by_owner(kube, ns)
    for key in (("Deployment", "vdu1-update"), ("ReplicaSet", "vdu2-update"), ("DaemonSet", "daemonset-vdu5")):
        assert after[key] and not uids(after[key]) & uids(before[key]), key  # every pod replaced
        assert len(after[key]) == len(before[key]), key
    assert {images[0] for _uid, images in after[("Deployment", "vdu1-update")].values()} == {"cirros"}
    assert {images[0] for _uid, images in after[("DaemonSet", "daemonset-vdu5")].values()} == {"cirros"}
    assert after[("Pod", "env-test")]["env-test"][1] == ["tomcat"] and uids(after[("Pod", "env-test")]) != uids(before[("Pod", "env-test")])
    assert after[("Pod", "volume-test")]["volume-test"][1] == ["cirros"] and uids(after[("Pod", "volume-test")]) != uids(before[("Pod", "volume-test")])
    for key in UNTOUCHED:
        assert after[key] == before[key], key  # same pods, same UIDs
    assert config(kube, ns, "ConfigMap", "cm-data")["data"] == {"cmKey1.txt": "configmap2 data2\nfoo2\nbar2"}
    assert decoded(config(kube, ns, "Secret", "secret-data")) == {"password": "1mbb1G968fb1CUg2", "secKey1.txt": "secret2 data2\nbaz2"}
    for kind, name in (("ConfigMap", "cm-data3"), ("Secret", "secret-data3")):
        assert config(kube, ns, kind, name)["metadata"]["resourceVersion"] == kept_versions[name], name
    not_applied = done["plan"]["container_update"]["not_applied"]
    assert [(item["kind"], item["name"], item["old"], item["new"]) for item in not_applied if item["path"].endswith("containerPort")] == \
        [("ReplicaSet", "vdu2-update", 80, 180)]
    live_rs = kube.call("GET", "/apis/apps/v1/namespaces/{0}/replicasets/vdu2-update".format(ns))
    assert live_rs["spec"]["template"]["spec"]["containers"][0]["ports"][0]["containerPort"] == 80  # not applied

    record = done["vnf_instance"]
    assert record["vnfdId"] == AFTER_VNFD_ID and record["vnfInstanceName"] == "modify_vnf_after"
    assert DEF_DIR + "configmap_2.yaml" in record["instantiatedVnfInfo"]["metadata"]["lcm-kubernetes-def-files"]
    live_pods = {name for pods in after.values() for name in pods}
    recorded = {item["computeResource"]["resourceId"] for item in record["instantiatedVnfInfo"]["vnfcResourceInfo"]}
    assert recorded <= live_pods and recorded & {name for key in RESTARTED for name in after[key]}
    replaced = done["replaced_pods"]
    assert replaced and all(item["old_pod"] != item["new_pod"] or item["workload"].startswith("Pod/") for item in replaced)
    # A VNFC's id follows its pod (Tacker v2): a replaced pod's VNFC is REMOVED, its new pod's ADDED; the others stay.
    old_pods = {item["id"]: item["computeResource"]["resourceId"] for item in vnfcs_before}
    new_pods = {item["id"]: item["computeResource"]["resourceId"] for item in record["instantiatedVnfInfo"]["vnfcResourceInfo"]}
    gone, added = old_pods.keys() - new_pods.keys(), new_pods.keys() - old_pods.keys()
    assert gone and gone == {item["old_vnfc_id"] for item in replaced} and added == {item["new_vnfc_id"] for item in replaced}
    assert all(new_pods[vnfc_id] == old_pods[vnfc_id] for vnfc_id in new_pods.keys() & old_pods.keys())
    affected = {(change["changeType"], change["id"]) for change in done["vnf_lcm_op_occ"]["resourceChanges"]["affectedVnfcs"]}
    assert affected == {("REMOVED", vnfc_id) for vnfc_id in gone} | {("ADDED", vnfc_id) for vnfc_id in added}
    info = ansible_task("vnf_info", lookup)
    assert info["vnf_instances"][0]["vnfdId"] == AFTER_VNFD_ID
    # Tacker's vdu_reses: each VDU's workload with its new images, labelled; the ReplicaSet's port stays as deployed.
    assert vdu_image(record, "Deployment", "vdu1-update") == "cirros"
    assert vdu_res(record, "ReplicaSet", "vdu2-update")["spec"]["template"]["spec"]["containers"][0]["ports"][0]["containerPort"] == 80
    assert {obj["metadata"]["labels"]["tacker_vnf_instance_id"] for obj in record["instantiatedVnfInfo"]["metadata"]["vdu_reses"].values()} == \
        {cnf["vnf_instance_id"]}

    # A re-run restarts nothing and writes nothing.
    start = k8s_audit.mark()
    again = ansible_task("vnf_modify", args)
    assert again["changed"] is False, again.get("msg")
    assert summarize(k8s_audit.writes(start, user=ADMIN_USER)) == []
    assert pods_by_owner(kube, ns) == after


def vdu_res(instance, kind, name):
    """The record's vdu_reses entry of the workload ``kind``/``name``."""
    (found,) = [obj for obj in instance["instantiatedVnfInfo"]["metadata"]["vdu_reses"].values() if (obj["kind"], obj["metadata"]["name"]) == (kind, name)]
    return found


def vdu_image(instance, kind, name):
    return vdu_res(instance, kind, name)["spec"]["template"]["spec"]["containers"][0]["image"]


def before_image(pods, key):
    """The image of the first container of the pods of workload ``key`` (pods_by_owner's answer), one for them all."""
    (image,) = {images[0] for _uid, images in pods[key].values()}
    return image


def failed_half_way(ansible_task, kube, cnf, packages, namespace):
    """The container update with no pod allowed (a quota of 0 set by the cluster admin): the ConfigMap and
    Secret are written and the first workloads patched, then a recreated Pod is refused. The quota makes the
    failure certain; a short wait is not (on kwok a rollout can end within any timeout)."""
    block_pods(kube, namespace)
    try:
        failed = ansible_task("vnf_modify", dict(cnf, package=packages["after"], request=MODIFY_REQUEST, wait_timeout=5))
    finally:
        unblock_pods(kube, namespace)
    assert failed.get("failed") is True and failed["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP", failed
    assert "quota" in failed["msg"], failed["msg"]
    return failed


def test_failed_update_rolls_back_exactly(ansible_task, kube, cnf, packages, k8s_namespace):
    ns = k8s_namespace
    before = pods_by_owner(kube, ns)
    cm_before = config(kube, ns, "ConfigMap", "cm-data")["data"]
    secret_before = decoded(config(kube, ns, "Secret", "secret-data"))
    failed_half_way(ansible_task, kube, cnf, packages, ns)
    assert config(kube, ns, "ConfigMap", "cm-data")["data"] != cm_before  # half done
    # A new operation is refused while this one is FAILED_TEMP.
    busy = ansible_task("vnf_modify", dict(cnf, request={"vnfInstanceDescription": "x"}))
    assert busy.get("failed") is True and "FAILED_TEMP" in busy["msg"]

    lcm = {key: cnf[key] for key in ("kubeconfig", "namespace", "vnf_instance_id", "wait_timeout")}
    rolled = ansible_task("vnf_lcm_op_occ", dict(lcm, action="rollback"))
    assert rolled.get("failed") is not True, rolled.get("msg")
    assert rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK"
    assert config(kube, ns, "ConfigMap", "cm-data")["data"] == cm_before
    assert decoded(config(kube, ns, "Secret", "secret-data")) == secret_before
    restored = pods_by_owner(kube, ns)
    for key in RESTARTED:
        assert {tuple(images) for _uid, images in restored[key].values()} == {tuple(images) for _uid, images in before[key].values()}, key
    for key in UNTOUCHED:
        assert restored[key] == before[key], key
    assert rolled["vnf_instance"]["vnfdId"] == BEFORE_VNFD_ID and rolled["vnf_instance"]["vnfInstanceName"] == "modify_vnf_before"
    assert vdu_image(rolled["vnf_instance"], "Deployment", "vdu1-update") == before_image(before, ("Deployment", "vdu1-update"))
    assert kube.request("GET", "/api/v1/namespaces/{0}/secrets/vnflcm-{1}-rollback".format(ns, cnf["vnf_instance_id"]))[0] == 404
    again = ansible_task("vnf_lcm_op_occ", dict(lcm, action="rollback", vnf_lcm_op_occ_id=rolled["vnf_lcm_op_occ"]["id"]))
    assert again["changed"] is False

    # After the fault is gone, the same change succeeds.
    done = ansible_task("vnf_modify", dict(cnf, package=packages["after"], request=MODIFY_REQUEST))
    assert done.get("failed") is not True and done["vnf_instance"]["vnfdId"] == AFTER_VNFD_ID, done.get("msg")


def test_retry_completes_a_failed_update(ansible_task, kube, cnf, packages, k8s_namespace):
    failed = failed_half_way(ansible_task, kube, cnf, packages, k8s_namespace)
    lcm = {key: cnf[key] for key in ("kubeconfig", "namespace", "vnf_instance_id", "wait_timeout")}
    no_package = ansible_task("vnf_lcm_op_occ", dict(lcm, action="retry"))
    assert no_package.get("failed") is True and "package" in no_package["msg"]
    retried = ansible_task("vnf_lcm_op_occ", dict(lcm, action="retry", package=packages["after"]))
    assert retried.get("failed") is not True, retried.get("msg")
    assert retried["vnf_lcm_op_occ"]["id"] == failed["vnf_lcm_op_occ"]["id"]
    assert retried["vnf_lcm_op_occ"]["operationState"] == "COMPLETED" and retried["vnf_instance"]["vnfdId"] == AFTER_VNFD_ID
    after = pods_by_owner(kube, k8s_namespace)
    assert {images[0] for _uid, images in after[("Deployment", "vdu1-update")].values()} == {"cirros"}


def test_bad_input_changes_nothing(ansible_task, cnf, packages, k8s_audit):
    cases = [
        ({"vnfdId": AFTER_VNFD_ID}, None, "package"),
        ({"vnfdId": "not-the-package-id"}, packages["after"], "vnfdId"),
        (dict(MODIFY_REQUEST, metadata={"configmap_secret_paths": [DEF_DIR + "deployment.yaml"]}), packages["after"], "configmap_secret_paths[0]"),
        (dict(MODIFY_REQUEST, metadata={"configmap_secret_paths": [DEF_DIR + "nope.yaml"]}), packages["after"], "configmap_secret_paths[0]"),
        ({"vnfdId": AFTER_VNFD_ID, "bogus": 1}, packages["after"], "bogus"),
    ]
    start = k8s_audit.mark()
    for request, package, field in cases:
        args = dict(cnf, request=request)
        if package:
            args["package"] = package
        result = ansible_task("vnf_modify", args)
        assert result.get("failed") is True and field in result["msg"], (request, result.get("msg"))
    assert k8s_audit.writes(start, user=ADMIN_USER) == []


def test_information_only_modification_merges_and_is_idempotent(ansible_task, cnf, k8s_audit):
    request = {"vnfInstanceDescription": "changed", "metadata": {"a": {"b": 1, "c": 2}}, "extensions": {"x": [1, 2]}}
    first = ansible_task("vnf_modify", dict(cnf, request=request))
    assert first["changed"] is True and first["vnf_instance"]["metadata"]["a"] == {"b": 1, "c": 2}
    patched = ansible_task("vnf_modify", dict(cnf, request={"metadata": {"a": {"b": None, "d": 3}}, "extensions": {"x": [3]}}))
    assert patched["vnf_instance"]["metadata"]["a"] == {"c": 2, "d": 3} and patched["vnf_instance"]["extensions"] == {"x": [3]}
    start = k8s_audit.mark()
    again = ansible_task("vnf_modify", dict(cnf, request={"metadata": {"a": {"b": None, "d": 3}}, "extensions": {"x": [3]}}))
    assert again["changed"] is False
    assert k8s_audit.writes(start, user=ADMIN_USER) == []


def test_failed_scale_and_instantiate_roll_back(ansible_task, kube, k8s_lab, cnf, packages, k8s_namespace, k8s_audit):
    ns = k8s_namespace
    lcm = {key: cnf[key] for key in ("kubeconfig", "namespace", "vnf_instance_id", "wait_timeout")}
    # Scale in (level 2 to 1), then out again with no room for the new pod: the replicas are patched, the wait
    # times out, the op occ is FAILED_TEMP; its rollback restores level 1.
    scaled_in = ansible_task("vnf_scale", dict(cnf, request={"type": "SCALE_IN", "aspectId": "vdu1_aspect"}))
    assert scaled_in["vnf_lcm_op_occ"]["operationState"] == "COMPLETED", scaled_in.get("msg")
    block(kube, ns, "no-new-pods", {"pods": str(sum(len(pods) for pods in pods_by_owner(kube, ns).values()))})
    failed = ansible_task("vnf_scale", dict(cnf, request={"type": "SCALE_OUT", "aspectId": "vdu1_aspect"}, wait_timeout=5))
    assert failed["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP", failed.get("msg")
    rolled = ansible_task("vnf_lcm_op_occ", dict(lcm, action="rollback"))
    assert rolled.get("failed") is not True, rolled.get("msg")
    assert rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK"
    assert kube.call("GET", "/apis/apps/v1/namespaces/{0}/deployments/vdu1-update".format(ns))["spec"]["replicas"] == 2
    assert len(pods_by_owner(kube, ns)[("Deployment", "vdu1-update")]) == 2
    assert {item["aspectId"]: item["scaleLevel"] for item in rolled["vnf_instance"]["instantiatedVnfInfo"]["scaleStatus"]}["vdu1_aspect"] == 1
    kube.call("DELETE", "/api/v1/namespaces/{0}/resourcequotas/no-new-pods".format(ns))

    # Terminate, then an instantiate the API server refuses (a quota of no ReplicaSets, the package has one):
    # found by the dry run, before anything is written.
    assert ansible_task("vnf_terminate", lcm)["changed"] is True
    block(kube, ns, "no-replicasets", {"count/replicasets.apps": "0"})
    request = {"flavourId": "simple", "additionalParams": {"lcm-kubernetes-def-files": DEF_FILES, "namespace": ns}}
    instantiate = {"kubeconfig": cnf["kubeconfig"], "wait_timeout": 10, "package": packages["before"],
                   "vnf_instance_id": cnf["vnf_instance_id"], "vnf_instance_name": "modify_vnf_before", "request": request}
    start = k8s_audit.mark()
    refused = ansible_task("vnf_instantiate", instantiate)
    assert refused["failed"] and "ReplicaSet vdu2-update (Files/kubernetes/replicaset.yaml)" in refused["msg"], refused["msg"]
    assert "exceeded quota" in refused["msg"] and "vnf_lcm_op_occ" not in refused
    assert k8s_audit.writes(start, user=ADMIN_USER) == []
    # Without that quota but with room for the package's four bare Pods only (each passes the dry run on its own),
    # the instantiate writes its objects, then fails (a pod over the quota, or the workloads' pods never come):
    # its rollback needs no package (the record lists what it may have created) and leaves nothing.
    kube.call("DELETE", "/api/v1/namespaces/{0}/resourcequotas/no-replicasets".format(ns))
    block(kube, ns, "four-pods", {"pods": "4"})
    failed = ansible_task("vnf_instantiate", instantiate)
    assert failed["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP", failed.get("msg")
    assert config_exists(kube, ns, "ConfigMap", "cm-data"), failed.get("msg")
    rolled = ansible_task("vnf_lcm_op_occ", dict(lcm, action="rollback"))
    assert rolled.get("failed") is not True, rolled.get("msg")
    assert rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK"
    assert rolled["vnf_instance"]["instantiationState"] == "NOT_INSTANTIATED" and "instantiatedVnfInfo" not in rolled["vnf_instance"]
    assert not exists_deployment(kube, ns) and pods_by_owner(kube, ns) == {}
    assert config_exists(kube, ns, "ConfigMap", "cm-data") is False


def block(kube, namespace, name, hard):
    """A ResourceQuota, once its controller has taken it up (admission enforces it from then on)."""
    path = "/api/v1/namespaces/{0}/resourcequotas".format(namespace)
    kube.call("POST", path, {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": name}, "spec": {"hard": hard}})
    for _attempt in range(60):
        if (kube.call("GET", path + "/" + name).get("status") or {}).get("hard"):
            return
        time.sleep(0.5)
    raise AssertionError("the ResourceQuota controller did not take up the quota")


def exists_deployment(kube, namespace):
    return kube.request("GET", "/apis/apps/v1/namespaces/{0}/deployments/vdu1-update".format(namespace))[0] == 200


def config_exists(kube, namespace, kind, name):
    return kube.request("GET", "/api/v1/namespaces/{0}/{1}s/{2}".format(namespace, kind.lower(), name))[0] == 200


def test_a_killed_update_is_rolled_back_exactly_or_retried_to_the_end(ansible_task, kube, cnf, packages, k8s_namespace):
    """The module process is killed once the update has written (the ConfigMap has its new content), before it has
    restarted the pods (that takes seconds: pods deleted and gone, rollouts waited for)."""
    ns = k8s_namespace
    before = pods_by_owner(kube, ns)
    cm_before = config(kube, ns, "ConfigMap", "cm-data")["data"]
    secret_before = decoded(config(kube, ns, "Secret", "secret-data"))
    args = dict(cnf, package=packages["after"], request=MODIFY_REQUEST)
    lcm = {key: cnf[key] for key in ("kubeconfig", "namespace", "vnf_instance_id", "wait_timeout")}

    def killed_mid_update(previous=None):
        task = ansible_task("vnf_modify", args, background=True)
        occ = running_op_occ(kube, ns, also=lambda: config(kube, ns, "ConfigMap", "cm-data")["data"] != cm_before
                             and head(kube, ns)["id"] != previous)
        kill_runner(occ)
        task.wait()
        return occ

    first = killed_mid_update()
    rolled = ansible_task("vnf_lcm_op_occ", dict(lcm, action="rollback"))
    assert rolled.get("failed") is not True, rolled.get("msg")
    assert rolled["vnf_lcm_op_occ"]["id"] == first["id"] and rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK"
    assert config(kube, ns, "ConfigMap", "cm-data")["data"] == cm_before
    assert decoded(config(kube, ns, "Secret", "secret-data")) == secret_before
    wait_for(lambda: rollouts_done(kube, ns), "the rollbacks' rollouts", timeout=60, sleep=0.5)
    restored = pods_by_owner(kube, ns)
    for key in RESTARTED:
        assert {tuple(images) for _uid, images in restored[key].values()} == {tuple(images) for _uid, images in before[key].values()}, key
    for key in UNTOUCHED:
        assert restored[key] == before[key], key  # never restarted
    assert rolled["vnf_instance"]["vnfdId"] == BEFORE_VNFD_ID

    # Killed again; retried: it ends as an uninterrupted update does.
    second = killed_mid_update(previous=first["id"])
    retried = ansible_task("vnf_lcm_op_occ", dict(lcm, action="retry", package=packages["after"]))
    assert retried.get("failed") is not True, retried.get("msg")
    assert retried["vnf_lcm_op_occ"]["id"] == second["id"] and retried["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    after = pods_by_owner(kube, ns)
    assert {images[0] for _uid, images in after[("Deployment", "vdu1-update")].values()} == {"cirros"}
    for key in RESTARTED:
        # Every pod that reads the new ConfigMap/Secret or runs a new image was started after the update wrote them.
        assert not uids(after[key]) & uids(restored[key]), key
    for key in UNTOUCHED:
        assert after[key] == before[key], key
    assert config(kube, ns, "ConfigMap", "cm-data")["data"] == {"cmKey1.txt": "configmap2 data2\nfoo2\nbar2"}
    assert retried["vnf_instance"]["vnfdId"] == AFTER_VNFD_ID


def rollouts_done(kube, namespace):
    """Every Deployment and DaemonSet of the namespace has rolled out its current template."""
    for kind in ("deployments", "daemonsets"):
        for item in kube.call("GET", "/apis/apps/v1/namespaces/{0}/{1}".format(namespace, kind))["items"]:
            status, generation = item.get("status") or {}, item["metadata"].get("generation")
            if status.get("observedGeneration") != generation:
                return False
            wanted = status.get("desiredNumberScheduled", (item.get("spec") or {}).get("replicas"))
            if status.get("updatedReplicas", status.get("updatedNumberScheduled")) != wanted:
                return False
    return True
