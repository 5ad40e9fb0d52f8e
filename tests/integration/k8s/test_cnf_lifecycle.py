# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Namespace-aware CNF lifecycle on the lab, with Tacker's test_cnf_multi_ns package, through real playbook tasks."""

from __future__ import annotations

import json
import os
import shutil
import time

import pytest
import yaml

from labk8s.audit import summarize
from labk8s.cluster import ADMIN_USER

DEF_DIR = "Files/kubernetes/"
HAS_NS = DEF_DIR + "deployment_has_namespace.yaml"   # names multi-namespace02
NO_NS = DEF_DIR + "deployment_no_namespace.yaml"
TACKER_LABEL = "tacker_vnf_instance_id"
NS01 = DEF_DIR + "namespace01.yaml"
NS02 = DEF_DIR + "namespace02.yaml"


@pytest.fixture
def multi_ns(tacker_packages):
    return os.path.join(tacker_packages, "test_cnf_multi_ns")


def request(def_files, namespace=None):
    params = {"lcm-kubernetes-def-files": def_files}
    if namespace:
        params["namespace"] = namespace
    return {"flavourId": "simple", "additionalParams": params}


def exists(kube, path):
    return kube.request("GET", path)[0] == 200


def wait_absent(kube, path, seconds=90):
    deadline = time.monotonic() + seconds
    while exists(kube, path):
        assert time.monotonic() < deadline, "{0} still exists".format(path)
        time.sleep(0.5)


def deployment_path(namespace, name="vdu1"):
    return "/apis/apps/v1/namespaces/{0}/deployments/{1}".format(namespace, name)


def pods_of(kube, namespace):
    return {pod["metadata"]["name"]: pod["metadata"]["uid"] for pod in live_pods(kube, namespace)}


def vdu_res(result, vdu_id="VDU1"):
    return result["vnf_instance"]["instantiatedVnfInfo"]["metadata"]["vdu_reses"][vdu_id]


def live_pods(kube, namespace):
    return [pod for pod in kube.call("GET", "/api/v1/namespaces/{0}/pods".format(namespace))["items"] if not pod["metadata"].get("deletionTimestamp")]


def vnfc_pods(result):
    return [item["computeResource"]["resourceId"] for item in result["vnf_instance"]["instantiatedVnfInfo"]["vnfcResourceInfo"]]


@pytest.fixture
def cleanup(kube):
    """Namespaces a test creates through the module, removed afterwards whatever happened."""
    names = []
    yield names.append
    for name in names:
        kube.request("DELETE", "/api/v1/namespaces/" + name)
    for name in names:
        wait_absent(kube, "/api/v1/namespaces/" + name)


def test_request_namespace_drives_the_whole_lifecycle(ansible_task, k8s_lab, kube, multi_ns, cleanup, k8s_audit):
    cleanup("multi-namespace01")
    auth = {"kubeconfig": str(k8s_lab.kubeconfig), "wait_timeout": 120, "wait_sleep": 1}
    args = dict(auth, package=multi_ns, vnf_instance_name="multi-ns-vnf", allow_cluster_scoped=True,
                request=request([HAS_NS, NS01], "multi-namespace01"))

    start = k8s_audit.mark()
    planned = ansible_task("vnf_instantiate", args, check=True)
    assert planned["changed"] is True and not planned.get("failed"), planned
    assert k8s_audit.writes(start, user=ADMIN_USER) == []
    assert [(item["kind"], item["name"]) for item in planned["plan"]["create"]] == [("Namespace", "multi-namespace01"), ("Deployment", "vdu1")]

    done = ansible_task("vnf_instantiate", args)
    assert done["changed"] is True and not done.get("failed"), done.get("msg")
    assert done["plan"]["namespace"] == "multi-namespace01"
    assert [(r["kind"], r["name"], r["from"], r["to"]) for r in done["plan"]["namespace_rewrites"]] == \
        [("Deployment", "vdu1", "multi-namespace02", "multi-namespace01")]
    assert exists(kube, deployment_path("multi-namespace01"))
    assert not exists(kube, deployment_path("multi-namespace02"))
    instance = done["vnf_instance"]
    assert instance["metadata"]["namespace"] == "multi-namespace01"
    assert instance["instantiatedVnfInfo"]["metadata"]["namespace"] == "multi-namespace01"
    assert len(vnfc_pods(done)) == 1 and set(vnfc_pods(done)) == set(pods_of(kube, "multi-namespace01"))
    # Tacker's record: the VDU's workload as deployed, labelled tacker_vnf_instance_id as the live one and its pods are.
    live = kube.call("GET", deployment_path("multi-namespace01"))
    assert vdu_res(done)["metadata"]["labels"][TACKER_LABEL] == live["metadata"]["labels"][TACKER_LABEL] == instance["id"]
    assert vdu_res(done)["spec"]["template"]["metadata"]["labels"] == live["spec"]["template"]["metadata"]["labels"]
    assert vdu_res(done)["spec"]["replicas"] == 1 and "status" not in vdu_res(done)
    assert {pod["metadata"]["labels"].get(TACKER_LABEL) for pod in live_pods(kube, "multi-namespace01")} == {instance["id"]}

    start = k8s_audit.mark()
    again = ansible_task("vnf_instantiate", args)
    assert again["changed"] is False and not again.get("failed"), again
    assert k8s_audit.writes(start, user=ADMIN_USER) == []

    where = dict(auth, vnf_instance_name="multi-ns-vnf", namespace="multi-namespace01")
    listed = ansible_task("vnf_info", {"kubeconfig": auth["kubeconfig"], "namespace": "multi-namespace01"})
    assert [item["id"] for item in listed["vnf_instances"]] == [instance["id"]]

    out = ansible_task("vnf_scale", dict(where, request={"type": "SCALE_OUT", "aspectId": "vdu1_aspect", "numberOfSteps": 1}))
    assert not out.get("failed"), out.get("msg")
    assert len(vnfc_pods(out)) == 2 and set(vnfc_pods(out)) == set(pods_of(kube, "multi-namespace01"))
    assert {item["changeType"] for item in out["vnf_lcm_op_occ"]["resourceChanges"]["affectedVnfcs"]} == {"ADDED"}
    assert vdu_res(out) == dict(vdu_res(done), spec=dict(vdu_res(done)["spec"], replicas=2))

    start = k8s_audit.mark()
    too_far = ansible_task("vnf_scale", dict(where, request={"type": "SCALE_OUT", "aspectId": "vdu1_aspect", "numberOfSteps": 5}))
    assert too_far["failed"] and "numberOfSteps" in too_far["msg"]
    assert k8s_audit.writes(start, user=ADMIN_USER) == []

    back = ansible_task("vnf_scale", dict(where, request={"type": "SCALE_IN", "aspectId": "vdu1_aspect"}))
    assert not back.get("failed"), back.get("msg")
    assert len(vnfc_pods(back)) == 1
    assert {"aspectId": "vdu1_aspect", "scaleLevel": 0} in back["vnf_instance"]["instantiatedVnfInfo"]["scaleStatus"]
    assert vdu_res(back) == vdu_res(done)

    vnfc = back["vnf_instance"]["instantiatedVnfInfo"]["vnfcInfo"][0]
    old_pod = vnfc_pods(back)[0]
    healed = ansible_task("vnf_heal", dict(where, request={"vnfcInstanceId": [vnfc["id"]]}))
    assert not healed.get("failed"), healed.get("msg")
    # A VNFC's id follows its pod (Tacker v2): the healed VNFC is gone, its new pod is a new VNFC.
    (new_vnfc,) = healed["vnf_instance"]["instantiatedVnfInfo"]["vnfcInfo"]
    assert new_vnfc["id"] != vnfc["id"] and new_vnfc["vduId"] == vnfc["vduId"]
    assert sorted((item["changeType"], item["id"]) for item in healed["vnf_lcm_op_occ"]["resourceChanges"]["affectedVnfcs"]) == \
        [("ADDED", new_vnfc["vnfcResourceInfoId"]), ("REMOVED", vnfc["vnfcResourceInfoId"])]
    new_pod = vnfc_pods(healed)[0]
    assert new_pod != old_pod and set(pods_of(kube, "multi-namespace01")) == {new_pod}
    assert vdu_res(healed) == vdu_res(done)

    gone = ansible_task("vnf_terminate", dict(where, request={"terminationType": "FORCEFUL"}))
    assert not gone.get("failed"), gone.get("msg")
    assert gone["vnf_instance"]["instantiationState"] == "NOT_INSTANTIATED"
    assert "instantiatedVnfInfo" not in gone["vnf_instance"]  # vdu_reses with it
    assert not exists(kube, deployment_path("multi-namespace01"))
    assert not exists(kube, "/api/v1/namespaces/multi-namespace01")


@pytest.mark.parametrize("def_files, expected, workload", [([HAS_NS, NS02], "multi-namespace02", "vdu1"), ([NO_NS], "default", "vdu2")])
def test_namespace_from_manifests_else_default(ansible_task, k8s_lab, kube, multi_ns, cleanup, def_files, expected, workload):
    if expected != "default":
        cleanup(expected)
    auth = {"kubeconfig": str(k8s_lab.kubeconfig), "wait_timeout": 120, "wait_sleep": 1}
    done = ansible_task("vnf_instantiate", dict(auth, package=multi_ns, vnf_instance_name="ns-from-files", allow_cluster_scoped=True,
                                                request=request(def_files)))
    assert not done.get("failed"), done.get("msg")
    assert done["plan"]["namespace"] == expected
    assert done["vnf_instance"]["metadata"]["namespace"] == expected
    assert exists(kube, deployment_path(expected, workload))
    gone = ansible_task("vnf_terminate", dict(auth, vnf_instance_name="ns-from-files", namespace=expected))
    assert not gone.get("failed"), gone.get("msg")
    assert not exists(kube, deployment_path(expected, workload))


def test_def_files_in_reverse_order_still_create_the_namespace_first(ansible_task, k8s_lab, kube, multi_ns, cleanup):
    cleanup("multi-namespace02")
    auth = {"kubeconfig": str(k8s_lab.kubeconfig), "wait_timeout": 120, "wait_sleep": 1}
    done = ansible_task("vnf_instantiate", dict(auth, package=multi_ns, vnf_instance_name="reverse", allow_cluster_scoped=True,
                                                request=request([HAS_NS, NS02])))
    assert not done.get("failed"), done.get("msg")
    assert [item["kind"] for item in done["plan"]["create"]] == ["Namespace", "Deployment"]
    assert exists(kube, deployment_path("multi-namespace02"))


def package_with(tmp_path, multi_ns, extra):
    """A copy of test_cnf_multi_ns with extra def files ``{name: [objects]}``, declared in TOSCA.meta."""
    copy = tmp_path / "pkg"
    shutil.copytree(multi_ns, copy)
    meta = copy / "TOSCA-Metadata" / "TOSCA.meta"
    for name, objects in extra.items():
        (copy / DEF_DIR / name).write_text(yaml.safe_dump_all(objects))
        meta.write_text(meta.read_text().rstrip("\n") + "\n\nName: " + DEF_DIR + name + "\nContent-Type: application/yaml\n")
    return str(copy)


def deployment(name, namespace):
    labels = {"app": name}
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name, "namespace": namespace},
            "spec": {"replicas": 1, "selector": {"matchLabels": labels},
                     "template": {"metadata": {"labels": labels}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}}


def test_disagreeing_def_files_are_refused_before_any_write(ansible_task, k8s_lab, multi_ns, tmp_path, k8s_audit):
    package = package_with(tmp_path, multi_ns, {"other.yaml": [deployment("other", "multi-namespace01")]})
    start = k8s_audit.mark()
    out = ansible_task("vnf_instantiate", {"kubeconfig": str(k8s_lab.kubeconfig), "package": package, "vnf_instance_name": "split",
                                           "request": request([HAS_NS, DEF_DIR + "other.yaml"])})
    assert out["failed"]
    assert "multi-namespace01" in out["msg"] and "multi-namespace02" in out["msg"], out["msg"]
    assert k8s_audit.writes(start, user=ADMIN_USER) == []


def test_role_and_binding_land_in_the_request_namespace(ansible_task, k8s_lab, kube, multi_ns, tmp_path, k8s_namespace):
    rbac = [
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": "vnf-reader", "namespace": "elsewhere"},
         "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "list"]}]},
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": {"name": "vnf-reader", "namespace": "elsewhere"},
         "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "vnf-reader"},
         "subjects": [{"kind": "ServiceAccount", "name": "default", "namespace": "elsewhere"}]},
    ]
    package = package_with(tmp_path, multi_ns, {"rbac.yaml": rbac})
    auth = {"kubeconfig": str(k8s_lab.kubeconfig), "wait_timeout": 120, "wait_sleep": 1}
    done = ansible_task("vnf_instantiate", dict(auth, package=package, vnf_instance_name="rbac",
                                                request=request([DEF_DIR + "rbac.yaml", NO_NS], k8s_namespace)))
    assert not done.get("failed"), done.get("msg")
    rbac_api = "/apis/rbac.authorization.k8s.io/v1/namespaces/{0}/".format(k8s_namespace)
    assert exists(kube, rbac_api + "roles/vnf-reader") and exists(kube, rbac_api + "rolebindings/vnf-reader")
    assert not exists(kube, "/apis/rbac.authorization.k8s.io/v1/namespaces/elsewhere/roles/vnf-reader")
    assert [item["kind"] for item in done["plan"]["create"]] == ["Role", "RoleBinding", "Deployment"]
    assert exists(kube, deployment_path(k8s_namespace, "vdu2"))


def test_namespaced_service_account_runs_the_whole_lifecycle(ansible_task, k8s_tenant, kube, multi_ns, k8s_audit):
    auth = {"kubeconfig": str(k8s_tenant.kubeconfig), "wait_timeout": 120, "wait_sleep": 1}
    ns = k8s_tenant.namespace

    start = k8s_audit.mark()
    refused = ansible_task("vnf_instantiate", dict(auth, package=multi_ns, vnf_instance_name="tenant-vnf", namespace_policy="error",
                                                   request=request([HAS_NS], ns)))
    assert refused["failed"] and "multi-namespace02" in refused["msg"], refused["msg"]
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []

    done = ansible_task("vnf_instantiate", dict(auth, package=multi_ns, vnf_instance_name="tenant-vnf", request=request([NO_NS], ns)))
    assert not done.get("failed"), done.get("msg")
    assert exists(kube, deployment_path(ns, "vdu2"))

    # The record is found through the kubeconfig context's namespace: no namespace option needed.
    where = dict(auth, vnf_instance_name="tenant-vnf")
    for module, body in (("vnf_scale", {"type": "SCALE_OUT", "aspectId": "vdu2_aspect"}),
                         ("vnf_scale", {"type": "SCALE_IN", "aspectId": "vdu2_aspect"}),
                         ("vnf_heal", None),
                         ("vnf_terminate", None)):
        args = dict(where, request=body) if body else dict(where)
        out = ansible_task(module, args)
        assert not out.get("failed"), (module, out.get("msg"))
        if module == "vnf_heal":
            listed = ansible_task("vnf_info", {"kubeconfig": auth["kubeconfig"], "vnf_instance_name": "tenant-vnf"})
            assert [item["vnfInstanceName"] for item in listed["vnf_instances"]] == ["tenant-vnf"]
    assert not exists(kube, deployment_path(ns, "vdu2"))
    writes = summarize(k8s_audit.writes(start, user=k8s_tenant.username))
    assert writes and all(namespace == ns for _verb, _resource, namespace, _name, _code in writes), writes


def test_timeout_leaves_failed_temp_with_what_was_done(ansible_task, k8s_lab, multi_ns, tmp_path, k8s_namespace):
    stuck = deployment("vdu2", k8s_namespace)
    stuck["spec"]["template"]["spec"]["nodeSelector"] = {"no-such-node": "anywhere"}
    package = package_with(tmp_path, multi_ns, {"stuck.yaml": [stuck]})
    args = {"kubeconfig": str(k8s_lab.kubeconfig), "package": package, "vnf_instance_name": "stuck", "wait_timeout": 3, "wait_sleep": 1,
            "request": request([DEF_DIR + "stuck.yaml"], k8s_namespace)}
    out = ansible_task("vnf_instantiate", args)
    assert out["failed"] and "Failed to wait for Deployment vdu2 to be ready: timed out after 3s" == out["msg"]
    assert out["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP"
    assert [(item["kind"], item["name"]) for item in out["progress"]["created"]] == [("Deployment", "vdu2")]

    info = ansible_task("vnf_info", {"kubeconfig": str(k8s_lab.kubeconfig), "namespace": k8s_namespace, "vnf_instance_name": "stuck"})
    assert [occ["operationState"] for occ in info["vnf_lcm_op_occs"]] == ["FAILED_TEMP"]

    again = ansible_task("vnf_instantiate", args)
    assert again["failed"] and "is FAILED_TEMP; retry, roll back or fail it first" in again["msg"], again["msg"]


def test_secrets_never_appear_in_results(ansible_task, k8s_lab, multi_ns, tmp_path, k8s_namespace):
    secret = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "vnf-credentials"}, "stringData": {"password": "pl41n-s3cret"}}
    package = package_with(tmp_path, multi_ns, {"secret.yaml": [secret]})
    body = request([DEF_DIR + "secret.yaml", NO_NS], k8s_namespace)
    server = yaml.safe_load(k8s_lab.kubeconfig.read_text())["clusters"][0]["cluster"]["server"]
    body["vimConnectionInfo"] = {"vim1": {"vimId": "lab", "vimType": "kubernetes", "interfaceInfo": {"endpoint": server},
                                          "accessInfo": {"bearer_token": "t0ken-value-123"}}}
    args = {"kubeconfig": str(k8s_lab.kubeconfig), "package": package, "vnf_instance_name": "secretive", "request": body}
    for check in (True, False):
        out = ansible_task("vnf_instantiate", args, check=check, diff=True)
        assert not out.get("failed"), out.get("msg")
        text = json.dumps(out)
        assert "pl41n-s3cret" not in text and "cGw0MW4tczNjcmV0" not in text
        assert "t0ken-value-123" not in text
    assert ("Secret", "vnf-credentials") in [(item["kind"], item["name"]) for item in out["plan"]["create"]]
    # Later operations read the record, which keeps the credentials; their results must not show them.
    where = {"kubeconfig": str(k8s_lab.kubeconfig), "namespace": k8s_namespace, "vnf_instance_name": "secretive"}
    for module, args in (("vnf_info", where), ("vnf_scale", dict(where, request={"type": "SCALE_OUT", "aspectId": "vdu2_aspect"}))):
        later = ansible_task(module, args)
        assert not later.get("failed"), later.get("msg")
        assert "t0ken-value-123" not in json.dumps(later)
    assert later["vnf_instance"]["vimConnectionInfo"]["vim1"]["vimType"] == "kubernetes"


def test_instantiation_level_sizes_the_vdu_and_its_scale_level(ansible_task, k8s_lab, kube, multi_ns, k8s_namespace):
    body = dict(request([NO_NS], k8s_namespace), instantiationLevelId="instantiation_level_2")
    done = ansible_task("vnf_instantiate", {"kubeconfig": str(k8s_lab.kubeconfig), "package": multi_ns, "vnf_instance_name": "big",
                                            "request": body, "wait_timeout": 120, "wait_sleep": 1})
    assert not done.get("failed"), done.get("msg")
    assert done["plan"]["vdus"]["VDU2"]["replicas"] == 3
    assert len(vnfc_pods(done)) == 3 and set(vnfc_pods(done)) == set(pods_of(kube, k8s_namespace))
    assert {"aspectId": "vdu2_aspect", "scaleLevel": 2} in done["vnf_instance"]["instantiatedVnfInfo"]["scaleStatus"]

    # Heal of the whole VNF (no vnfcInstanceId), with Tacker v2's all: every pod is replaced, the record follows.
    before = pods_of(kube, k8s_namespace)
    healed = ansible_task("vnf_heal", {"kubeconfig": str(k8s_lab.kubeconfig), "namespace": k8s_namespace, "vnf_instance_name": "big",
                                       "request": {"additionalParams": {"all": True}}, "wait_timeout": 120, "wait_sleep": 1})
    assert not healed.get("failed"), healed.get("msg")
    assert len(healed["plan"]["replace"]) == 3 and "PersistentVolumeClaims are kept" in healed["plan"]["note"]
    after = pods_of(kube, k8s_namespace)
    assert len(after) == 3 and not set(after.values()) & set(before.values())
    records = healed["vnf_instance"]["instantiatedVnfInfo"]["vnfcResourceInfo"]
    assert {item["computeResource"]["resourceId"]: item["metadata"]["podUid"] for item in records} == after
    # Three VNFCs removed, three new ones added: none keeps its id (a VNFC's id follows its pod).
    affected = healed["vnf_lcm_op_occ"]["resourceChanges"]["affectedVnfcs"]
    assert sorted(item["changeType"] for item in affected) == ["ADDED"] * 3 + ["REMOVED"] * 3
    assert not {item["id"] for item in records} & {item["id"] for item in done["vnf_instance"]["instantiatedVnfInfo"]["vnfcResourceInfo"]}
    refused = ansible_task("vnf_heal", {"kubeconfig": str(k8s_lab.kubeconfig), "namespace": k8s_namespace, "vnf_instance_name": "big",
                                        "request": {"additionalParams": {"all": "yes"}}})
    assert refused.get("failed") and "additionalParams.all" in refused["msg"]


def test_a_tacker_create_request_names_the_instance_and_gives_it_metadata(ansible_task, k8s_lab, multi_ns, k8s_namespace, k8s_audit):
    from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

    with load_package(multi_ns) as package:
        vnfd_id = package.to_dict()["vnfd"]["descriptor_id"]
    # Tacker's create.json, with this package's VNFD: no vnf_instance_name option.
    create = {"vnfdId": vnfd_id, "vnfInstanceName": "created", "vnfInstanceDescription": "from create.json", "metadata": {"dummy-key": "dummy-val"}}
    args = {"kubeconfig": str(k8s_lab.kubeconfig), "package": multi_ns, "create_request": create, "request": request([NO_NS], k8s_namespace),
            "wait_timeout": 120, "wait_sleep": 1}
    done = ansible_task("vnf_instantiate", args)
    assert not done.get("failed"), done.get("msg")
    instance = done["vnf_instance"]
    assert (instance["vnfInstanceName"], instance["vnfInstanceDescription"]) == ("created", "from create.json")
    # The request's metadata, and the namespace, as Tacker v2 adds it.
    assert instance["metadata"] == {"dummy-key": "dummy-val", "namespace": k8s_namespace}
    # A re-run with other metadata finds the instance, changes nothing and says so.
    again = ansible_task("vnf_instantiate", dict(args, create_request=dict(create, metadata={"dummy-key": "other"})))
    assert again["changed"] is False and again["vnf_instance"]["metadata"]["dummy-key"] == "dummy-val"
    assert any("create_request.metadata" in line for line in again["plan"]["warnings"]), again["plan"]
    # Another package's vnfdId, or a name the option contradicts: refused before any write.
    mark = k8s_audit.mark()
    for bad, field in ((dict(create, vnfdId="another-vnfd"), "vnfdId"), (dict(create, vnfInstanceName="other"), "vnfInstanceName")):
        refused = ansible_task("vnf_instantiate", dict(args, create_request=bad, vnf_instance_name="created-2"))
        assert refused.get("failed") and "CreateVnfRequest" in refused["msg"] and field in refused["msg"], refused.get("msg")
    assert k8s_audit.writes(mark, user=ADMIN_USER) == []


REVIEWS = [
    {"apiVersion": "authorization.k8s.io/v1", "kind": "LocalSubjectAccessReview", "metadata": {"namespace": "default"},
     "spec": {"user": "nobody", "resourceAttributes": {"group": "apps", "resource": "deployments", "verb": "create"}}},
    {"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectAccessReview",
     "spec": {"resourceAttributes": {"group": "apps", "resource": "deployments", "verb": "create"}}},
    {"apiVersion": "authorization.k8s.io/v1", "kind": "SubjectAccessReview",
     "spec": {"user": "nobody", "resourceAttributes": {"group": "apps", "resource": "deployments", "verb": "create"}}},
]


def test_reviews_of_the_def_files_are_answered_never_recorded_nor_deleted(ansible_task, k8s_lab, kube, multi_ns, tmp_path, k8s_namespace, k8s_audit):
    """Tacker v2 deploys the review kinds (its test_instantiate_cnf_resources has each): the API server answers their
    create and keeps nothing. They need no name, are asked once the objects exist, and are no object of the VNF."""
    from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_packages import build_package, def_files, deployment

    package = build_package(multi_ns, str(tmp_path / "reviews"), "1f0ad4a4-95f6-4a4c-9b1c-6d2f0c7a5e01",
                            {"vdu2.yaml": [deployment("vdu2", "nginx")], "reviews.yaml": REVIEWS})
    body = {"flavourId": "simple", "additionalParams": {"namespace": k8s_namespace, "lcm-kubernetes-def-files": def_files(["vdu2.yaml", "reviews.yaml"])}}
    args = {"kubeconfig": str(k8s_lab.kubeconfig), "package": package, "vnf_instance_name": "asks", "request": body, "wait_timeout": 120, "wait_sleep": 1}
    planned = ansible_task("vnf_instantiate", args, check=True)
    assert not planned.get("failed"), planned.get("msg")
    assert [(item["kind"], item["namespace"]) for item in planned["plan"]["ask"]] == [
        ("LocalSubjectAccessReview", k8s_namespace), ("SelfSubjectAccessReview", None), ("SubjectAccessReview", None)]
    assert "answers" not in planned
    done = ansible_task("vnf_instantiate", args)
    assert not done.get("failed"), done.get("msg")
    # The lab's admin may create Deployments; "nobody" may not.
    assert [(item["kind"], item["status"]["allowed"]) for item in done["answers"]] == [
        ("LocalSubjectAccessReview", False), ("SelfSubjectAccessReview", True), ("SubjectAccessReview", False)]
    kept = done["vnf_instance"]["instantiatedVnfInfo"]["metadata"]["vnflcm"]
    assert [item["kind"] for item in kept["resources"]] == ["Deployment"] and "Review" not in json.dumps(kept["deployed"])
    # A re-run asks nothing.
    mark = k8s_audit.mark()
    again = ansible_task("vnf_instantiate", args)
    assert again["changed"] is False and "answers" not in again
    assert not [line for line in k8s_audit.writes(mark, user=ADMIN_USER) if "review" in json.dumps(line).lower()]
    gone = ansible_task("vnf_terminate", {"kubeconfig": str(k8s_lab.kubeconfig), "namespace": k8s_namespace, "vnf_instance_name": "asks",
                                          "delete_instance": True, "wait_timeout": 120, "wait_sleep": 1})
    assert not gone.get("failed"), gone.get("msg")

    # A question the API server refuses (a SubjectAccessReview must name a user or a group): refused before any write,
    # naming its file, by the dry run of every question.
    bad = build_package(multi_ns, str(tmp_path / "bad-reviews"), "1f0ad4a4-95f6-4a4c-9b1c-6d2f0c7a5e02",
                        {"vdu2.yaml": [deployment("vdu2", "nginx")], "bad.yaml": [dict(REVIEWS[2], spec={"resourceAttributes": {"verb": "get"}})]})
    bad_body = {"flavourId": "simple", "additionalParams": {"namespace": k8s_namespace, "lcm-kubernetes-def-files": def_files(["vdu2.yaml", "bad.yaml"])}}
    mark = k8s_audit.mark()
    refused = ansible_task("vnf_instantiate", dict(args, package=bad, vnf_instance_name="asks-badly", request=bad_body))
    assert refused.get("failed") and "Files/kubernetes/bad.yaml" in refused["msg"] and "SubjectAccessReview" in refused["msg"], refused.get("msg")
    assert k8s_audit.writes(mark, user=ADMIN_USER) == []


def test_unknown_kind_is_refused_before_any_write(ansible_task, k8s_lab, multi_ns, tmp_path, k8s_namespace, k8s_audit):
    widget = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w1"}}
    package = package_with(tmp_path, multi_ns, {"widget.yaml": [widget]})
    start = k8s_audit.mark()
    out = ansible_task("vnf_instantiate", {"kubeconfig": str(k8s_lab.kubeconfig), "package": package, "vnf_instance_name": "widgets",
                                           "request": request([NO_NS, DEF_DIR + "widget.yaml"], k8s_namespace)})
    assert out["failed"] and "Widget" in out["msg"] and "widget.yaml" in out["msg"], out["msg"]
    assert k8s_audit.writes(start, user=ADMIN_USER) == []


def test_terminate_deletes_only_what_the_instance_created(ansible_task, k8s_lab, kube, multi_ns, k8s_namespace):
    bystander = "/api/v1/namespaces/{0}/configmaps/bystander".format(k8s_namespace)
    kube.call("POST", "/api/v1/namespaces/{0}/configmaps".format(k8s_namespace),
              {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "bystander"}, "data": {"a": "b"}})
    auth = {"kubeconfig": str(k8s_lab.kubeconfig), "wait_timeout": 120, "wait_sleep": 1}
    done = ansible_task("vnf_instantiate", dict(auth, package=multi_ns, vnf_instance_name="tidy", request=request([NO_NS], k8s_namespace)))
    assert not done.get("failed"), done.get("msg")
    gone = ansible_task("vnf_terminate", dict(auth, vnf_instance_name="tidy", namespace=k8s_namespace,
                                              request={"terminationType": "GRACEFUL", "gracefulTerminationTimeout": 5}))
    assert not gone.get("failed"), gone.get("msg")
    assert not exists(kube, deployment_path(k8s_namespace, "vdu2"))
    assert exists(kube, bystander)
    again = ansible_task("vnf_terminate", dict(auth, vnf_instance_name="tidy", namespace=k8s_namespace))
    assert again["changed"] is False and not again.get("failed"), again


def test_two_concurrent_operations_cannot_both_succeed(ansible_task, k8s_lab, multi_ns, k8s_namespace):
    """Both plan from the same record version; the second writer loses on resourceVersion before it touches the VNF."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import engine, instance_run
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import session
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.scale import plan_scale
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import waits

    auth = {"kubeconfig": str(k8s_lab.kubeconfig), "wait_timeout": 120, "wait_sleep": 1}
    done = ansible_task("vnf_instantiate", dict(auth, package=multi_ns, vnf_instance_name="racer", request=request([NO_NS], k8s_namespace)))
    assert not done.get("failed"), done.get("msg")

    params = dict(auth, kubeconfig=str(k8s_lab.kubeconfig), namespace=k8s_namespace, wait=True, vnf_instance_id=None, vnf_instance_name="racer")
    kube = session.connect(params)
    store, found = instance_run.locate(kube, params)
    first = plan_scale(kube.api, store, found, {"type": "SCALE_OUT", "aspectId": "vdu2_aspect"}, waits(params))
    second = plan_scale(kube.api, store, found, {"type": "SCALE_OUT", "aspectId": "vdu2_aspect"}, waits(params))
    assert engine.run(first)["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    with pytest.raises(ConflictError):
        engine.run(second)
    _store, (instance, _op_occs, _version) = instance_run.locate(kube, params)
    assert {"aspectId": "vdu2_aspect", "scaleLevel": 1} in instance["instantiatedVnfInfo"]["scaleStatus"]


def test_a_missing_namespace_is_refused_in_the_plan(ansible_task, k8s_lab, multi_ns, k8s_audit):
    start = k8s_audit.mark()
    out = ansible_task("vnf_instantiate", {"kubeconfig": str(k8s_lab.kubeconfig), "package": multi_ns, "vnf_instance_name": "nowhere",
                                           "request": request([NO_NS], "no-such-namespace")}, check=True)
    assert out["failed"] and out["msg"] == ("Failed to validate InstantiateVnfRequest: additionalParams.namespace: "
                                            "namespace 'no-such-namespace' does not exist and the def files do not create it")
    assert k8s_audit.writes(start, user=ADMIN_USER) == []
    gone = ansible_task("vnf_terminate", {"kubeconfig": str(k8s_lab.kubeconfig), "vnf_instance_name": "nowhere", "namespace": "no-such-namespace"})
    assert gone["changed"] is False and not gone.get("failed") and gone["vnf_instance"] is None, gone
    listed = ansible_task("vnf_info", {"kubeconfig": str(k8s_lab.kubeconfig), "vnf_instance_name": "nowhere", "namespace": "no-such-namespace"})
    assert listed["vnf_instances"] == [] and not listed.get("failed")


def test_an_object_of_someone_else_is_never_taken_over(ansible_task, k8s_lab, kube, multi_ns, k8s_namespace, k8s_audit):
    kube.call("POST", "/apis/apps/v1/namespaces/{0}/deployments".format(k8s_namespace), deployment("vdu2", k8s_namespace))
    start = k8s_audit.mark()
    out = ansible_task("vnf_instantiate", {"kubeconfig": str(k8s_lab.kubeconfig), "package": multi_ns, "vnf_instance_name": "squatter",
                                           "request": request([NO_NS], k8s_namespace)})
    # Found by the server-side dry run, before the record or anything else is written.
    assert out["failed"] and "Deployment vdu2 (Files/kubernetes/deployment_no_namespace.yaml)" in out["msg"], out["msg"]
    assert "already exists and does not belong to VNF instance" in out["msg"] and "vnf_lcm_op_occ" not in out, out["msg"]
    assert k8s_audit.writes(start, user=ADMIN_USER) == []
    live = kube.call("GET", deployment_path(k8s_namespace, "vdu2"))
    assert "vnflcm.nfv/instance-id" not in (live["metadata"].get("labels") or {})
