# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Change of the current VNF package of a CNF on the lab (vnf_change_pkg, RollingUpdate), run by a namespaced ServiceAccount.

Packages of our own (cnf_packages.py), built from Tacker's test_cnf_multi_ns VNFD: VDU1 and VDU2 are Deployments
(or a StatefulSet), with ConfigMaps and Services around them.
"""

from __future__ import annotations

import json
import os
import threading

import pytest

from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_faults import kill_runner, record as stored_record, running_op_occ, wait_for
from ansible_collections.nfv.vnflcm.tests.integration.playbook_runs import PlaybookDriver, expect
from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_packages import (
    build_package,
    config_map,
    def_files,
    deployment,
    service,
    statefulset,
)

OLD_ID = "5c0d0e1f-0000-4000-8000-00000000c0de"
NEW_ID = "5c0d0e1f-0000-4000-8000-00000000c0df"
# The old package: VDU1 (vdu1, 2 pods at level 2) reads key "mode" of cm-vdu1, VDU2 (vdu2) reads all of cm-vdu2.
OLD_FILES = {
    "config.yaml": [config_map("cm-vdu1", {"mode": "a", "unused": "x"}), config_map("cm-vdu2", {"level": "1"}), config_map("cm-old", {"k": "v"})],
    "vdu1.yaml": [deployment("vdu1", "app:1.0", env_key=("cm-vdu1", "mode"))],
    "vdu2.yaml": [deployment("vdu2", "app:1.0", env_from="cm-vdu2")],
}
HOOK = """
- name: note the VNFC this hook ran for
  ansible.builtin.lineinfile:
    path: "{path}"
    line: >-
      {{{{ vnflcm_coordination.rollback }}}} {{{{ vnflcm_coordination.vnfc.vdu_id }}}} {{{{ vnflcm_coordination.vnfc.pod }}}}
      {{{{ vnflcm_coordination.new_vnfc_param.user | default('') }}}}
    create: true
"""


@pytest.fixture
def make(tacker_packages, tmp_path):
    counter = [0]

    def build(vnfd_id, files, vdu_names=None):
        counter[0] += 1
        return build_package(os.path.join(tacker_packages, "test_cnf_multi_ns"), str(tmp_path / "pkg-{0}".format(counter[0])), vnfd_id, files, vdu_names)

    return build


@pytest.fixture
def cnf(ansible_task, k8s_lab, k8s_namespace, k8s_tenant, make):
    """The old package instantiated at level 2 (VDU1 and VDU2: 3 pods each) by the namespace's own ServiceAccount."""
    package = make(OLD_ID, OLD_FILES)
    auth = {"kubeconfig": str(k8s_tenant.kubeconfig), "namespace": k8s_namespace, "wait_timeout": 120, "wait_sleep": 1}
    request = {"flavourId": "simple", "instantiationLevelId": "instantiation_level_2",
               "additionalParams": {"lcm-kubernetes-def-files": def_files(OLD_FILES), "namespace": k8s_namespace}}
    done = ansible_task("vnf_instantiate", dict({key: value for key, value in auth.items() if key != "namespace"}, package=package,
                                                vnf_instance_name="cnf", request=request))
    assert done.get("failed") is not True, done.get("msg")
    return dict(auth, vnf_instance_id=done["vnf_instance"]["id"])


def change_request(files, vdus=("VDU1", "VDU2"), **params):
    additional = {"upgrade_type": "RollingUpdate", "lcm-kubernetes-def-files": def_files(files), "vdu_params": [{"vdu_id": vdu} for vdu in vdus]}
    additional.update(params)
    return {"vnfdId": NEW_ID, "additionalParams": additional}


def pods(kube, namespace):
    """{workload name: {pod name: (uid, image)}} of the running pods, through ReplicaSet/StatefulSet owners."""
    replicasets = {rs["metadata"]["uid"]: rs for rs in kube.call("GET", "/apis/apps/v1/namespaces/{0}/replicasets".format(namespace))["items"]}
    result = {}
    for pod in kube.call("GET", "/api/v1/namespaces/{0}/pods".format(namespace))["items"]:
        meta = pod["metadata"]
        if meta.get("deletionTimestamp"):
            continue
        ref = next(item for item in meta["ownerReferences"] if item.get("controller"))
        owner = ref["name"]
        if ref["kind"] == "ReplicaSet":
            owner = next(item for item in replicasets[ref["uid"]]["metadata"]["ownerReferences"] if item.get("controller"))["name"]
        result.setdefault(owner, {})[meta["name"]] = (meta["uid"], pod["spec"]["containers"][0]["image"])
    return result


def uids(named):
    return {uid for uid, _image in named.values()}


def vnfcs(instance):
    return {item["id"]: (item["vduId"], item["computeResource"]["resourceId"]) for item in instance["instantiatedVnfInfo"]["vnfcResourceInfo"]}


def test_change_rolls_the_named_vdus_restarts_only_readers_and_reruns_with_no_write(
        ansible_task, kube, cnf, make, k8s_namespace, k8s_tenant, k8s_audit, tmp_path):
    ns = k8s_namespace
    files = {
        # cm-vdu1 changes a key VDU1 does not read; cm-vdu2 changes a key VDU2 reads (whole object): only VDU2 restarts for config.
        "config.yaml": [config_map("cm-vdu1", {"mode": "a", "unused": "y"}), config_map("cm-vdu2", {"level": "2"})],
        "vdu1.yaml": [deployment("vdu1", "app:2.0", env_key=("cm-vdu1", "mode"))],
        "vdu2.yaml": [deployment("vdu2", "app:1.0", env_from="cm-vdu2")],
    }
    package = make(NEW_ID, files)
    trail = tmp_path / "hook.log"
    hook = tmp_path / "hook.yml"
    hook.write_text(HOOK.format(path=trail))
    request = change_request(files, ("VDU2", "VDU1"), **{"lcm-operation-coordinate-new-vnf": str(hook)})
    request["additionalParams"]["vdu_params"][1]["new_vnfc_param"] = {"user": "admin", "password": "s3cret-hook"}
    args = dict(cnf, package=package, request=request)
    before = pods(kube, ns)
    assert len(before["vdu1"]) == 3 and len(before["vdu2"]) == 3
    old_vnfcs = vnfcs(cnf_instance(ansible_task, cnf))

    # Check mode: the plan, and not one write.
    start = k8s_audit.mark()
    checked = ansible_task("vnf_change_pkg", args, check=True, diff=True)
    assert checked.get("failed") is not True, checked.get("msg")
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []
    assert checked["changed"] is True and checked["vim_type"] == "kubernetes"
    summary = checked["plan"]["summary"]
    assert summary["update"] == ["Deployment/vdu1"] and summary["restart"] == ["Deployment/vdu2"], checked["plan"]["lines"]
    assert summary["content"] == ["ConfigMap/cm-vdu1", "ConfigMap/cm-vdu2"] and summary["delete"] == ["ConfigMap/cm-old"]
    assert [step["vdu_id"] for step in checked["plan"]["steps"] if step["vdu_id"]] == ["VDU2", "VDU1"]
    assert checked["diff"]["after"]["ConfigMap/cm-vdu2"]["data"] == {"level": "2"}
    assert "s3cret-hook" not in json.dumps(checked)
    assert pods(kube, ns) == before

    done = ansible_task("vnf_change_pkg", args)
    assert done.get("failed") is not True, done.get("msg")
    occ = done["vnf_lcm_op_occ"]
    assert occ["operation"] == "CHANGE_VNFPKG" and occ["operationState"] == "COMPLETED"
    assert occ["modificationsTriggeredByVnfPkgChange"]["vnfdId"] == NEW_ID
    after = pods(kube, ns)
    for workload, image in (("vdu1", "app:2.0"), ("vdu2", "app:1.0")):
        assert len(after[workload]) == 3, workload  # the VNFC count of the scale level is kept
        assert not uids(after[workload]) & uids(before[workload]), workload  # every pod replaced
        assert {item[1] for item in after[workload].values()} == {image}
    record = done["vnf_instance"]
    assert record["vnfdId"] == NEW_ID and record["instantiatedVnfInfo"]["metadata"]["namespace"] == ns
    assert {item["scaleLevel"] for item in record["instantiatedVnfInfo"]["scaleStatus"]} == {2}
    # A VNFC's id follows its pod (Tacker v2): every pod was replaced, so every VNFC is new, the old ones REMOVED.
    new_vnfcs = vnfcs(record)
    assert not new_vnfcs.keys() & old_vnfcs.keys() and {vdu for vdu, _pod in new_vnfcs.values()} == {"VDU1", "VDU2"}
    assert {pod for _vdu, pod in new_vnfcs.values()} == set(after["vdu1"]) | set(after["vdu2"])
    affected = {(change["changeType"], change["id"]) for change in occ["resourceChanges"]["affectedVnfcs"]}
    assert affected == {("REMOVED", vnfc_id) for vnfc_id in old_vnfcs} | {("ADDED", vnfc_id) for vnfc_id in new_vnfcs}
    assert kube.request("GET", "/api/v1/namespaces/{0}/configmaps/cm-old".format(ns))[0] == 404
    # Tacker's vdu_reses: each VDU's workload of the new package at the kept count, labelled.
    vdu_reses = record["instantiatedVnfInfo"]["metadata"]["vdu_reses"]
    assert {vdu_id: (obj["metadata"]["name"], obj["spec"]["replicas"], obj["spec"]["template"]["spec"]["containers"][0]["image"],
                     obj["metadata"]["labels"]["tacker_vnf_instance_id"]) for vdu_id, obj in vdu_reses.items()} == \
        {"VDU1": ("vdu1", 3, "app:2.0", cnf["vnf_instance_id"]), "VDU2": ("vdu2", 3, "app:1.0", cnf["vnf_instance_id"])}
    # The hook ran once per VNFC, after its VDU rolled, VDU2 first; the password was given to it, never shown.
    lines = trail.read_text().split("\n")
    assert [line.split()[1] for line in lines if line] == ["VDU2"] * 3 + ["VDU1"] * 3
    assert {line.split()[2] for line in lines if line.startswith("False VDU1")} == set(after["vdu1"])
    assert "s3cret-hook" not in json.dumps(done) and "s3cret-hook" not in json.dumps(stored_record(kube, ns))

    # Re-run: nothing to do, not one write.
    start = k8s_audit.mark()
    again = ansible_task("vnf_change_pkg", args)
    assert again.get("failed") is not True, again.get("msg")
    assert again["changed"] is False and again["api_calls"].get("write", 0) == 0
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []
    assert pods(kube, ns) == after


def cnf_instance(ansible_task, cnf):
    return ansible_task("vnf_info", {key: cnf[key] for key in ("kubeconfig", "namespace", "vnf_instance_id")})["vnf_instances"][0]


class ReadyPods:
    """Samples, while the block runs, how many pods of each workload are ready (Deployments and StatefulSets of the namespace)."""

    def __init__(self, kube, namespace):
        self.kube, self.namespace = kube, namespace
        self.history, self.samples = [], 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    def _run(self):
        while not self._stop.is_set():
            ready = {}
            for kind in ("deployments", "statefulsets"):
                for item in self.kube.call("GET", "/apis/apps/v1/namespaces/{0}/{1}".format(self.namespace, kind))["items"]:
                    ready[item["metadata"]["name"]] = (item.get("status") or {}).get("readyReplicas", 0)
            self.history.append(ready)
            self.samples += 1
            self._stop.wait(0.1)

    def lowest(self, *workloads):
        """The fewest ready pods the workloads had together at any sample."""
        return min(sum(sample.get(name, 0) for name in workloads) for sample in self.history)


def owned(kube, namespace, instance_id):
    """{(kind, name)} of the instance's objects in the namespace (its record Secrets aside)."""
    found = set()
    for path, kind in (("/api/v1", "configmaps"), ("/api/v1", "services"), ("/apis/apps/v1", "deployments"), ("/apis/apps/v1", "statefulsets")):
        listing = kube.call("GET", "{0}/namespaces/{1}/{2}?labelSelector=vnflcm.nfv/instance-id={3}".format(path, namespace, kind, instance_id))
        found |= {(kind, item["metadata"]["name"]) for item in listing["items"]}
    return found


def test_a_vdu_moves_to_a_new_workload_and_kind_objects_come_and_go_and_terminate_finds_them_all(ansible_task, kube, cnf, make, k8s_namespace):
    ns = k8s_namespace
    files = {
        "config.yaml": [config_map("cm-vdu1", {"mode": "a", "unused": "x"}), config_map("cm-vdu2", {"level": "1"})],
        "vdu1.yaml": [deployment("vdu1-v2", "app:2.0", env_key=("cm-vdu1", "mode"))],
        "vdu2.yaml": [statefulset("vdu2", "app:2.0"), service("vdu2", "vdu2")],
    }
    package = make(NEW_ID, files, vdu_names={"VDU1": "vdu1-v2"})
    before_vnfcs = vnfcs(cnf_instance(ansible_task, cnf))
    with ReadyPods(kube, ns) as ready:
        done = ansible_task("vnf_change_pkg", dict(cnf, package=package, request=change_request(files)))
    assert done.get("failed") is not True, done.get("msg")
    # The moved VDU1 never had fewer than its 3 ready pods: the new Deployment was ready before the old one went.
    assert ready.samples > 10 and ready.lowest("vdu1", "vdu1-v2") == 3, ready.history[-5:]
    steps = {step["vdu_id"]: step for step in done["plan"]["steps"] if step["vdu_id"]}
    assert steps["VDU1"]["moved"] and steps["VDU2"]["moved"]
    assert owned(kube, ns, cnf["vnf_instance_id"]) == {
        ("configmaps", "cm-vdu1"), ("configmaps", "cm-vdu2"), ("deployments", "vdu1-v2"), ("statefulsets", "vdu2"), ("services", "vdu2")}
    now = pods(kube, ns)
    assert len(now["vdu1-v2"]) == 3 and len(now["vdu2"]) == 3 and set(now) == {"vdu1-v2", "vdu2"}
    record = done["vnf_instance"]
    after_vnfcs = vnfcs(record)
    # Moved VDUs get new VNFCs: the old ones are REMOVED, the new ones ADDED.
    assert not set(after_vnfcs) & set(before_vnfcs) and {vdu for vdu, _pod in after_vnfcs.values()} == {"VDU1", "VDU2"}
    changes = {change["changeType"] for change in done["vnf_lcm_op_occ"]["resourceChanges"]["affectedVnfcs"]}
    assert changes == {"ADDED", "REMOVED"}
    assert {item["vimLevelResourceType"] for item in (v["computeResource"] for v in record["instantiatedVnfInfo"]["vnfcResourceInfo"])} == \
        {"Deployment", "StatefulSet"}

    # Scale and terminate work from the new record: the StatefulSet scales, terminate deletes every object of the new package.
    scaled = ansible_task("vnf_scale", dict(cnf, request={"type": "SCALE_IN", "aspectId": "vdu2_aspect"}))
    assert scaled.get("failed") is not True, scaled.get("msg")
    assert len(wait_for(lambda: len(pods(kube, ns).get("vdu2", {})) == 2 and pods(kube, ns), "vdu2 scaled in")["vdu2"]) == 2
    gone = ansible_task("vnf_terminate", dict(cnf, request={"terminationType": "FORCEFUL"}))
    assert gone.get("failed") is not True, gone.get("msg")
    assert owned(kube, ns, cnf["vnf_instance_id"]) == set()


def test_bad_changes_are_refused_before_any_write(ansible_play, cnf, make, k8s_tenant, k8s_audit):
    files = {"config.yaml": OLD_FILES["config.yaml"], "vdu1.yaml": [deployment("vdu1", "app:2.0", env_key=("cm-vdu1", "mode"))],
             "vdu2.yaml": OLD_FILES["vdu2.yaml"]}
    package = make(NEW_ID, files)
    missing = change_request(files)
    missing["additionalParams"]["lcm-kubernetes-def-files"].append("Files/kubernetes/absent.yaml")
    unread = {"vdu1.yaml": files["vdu1.yaml"], "vdu2.yaml": files["vdu2.yaml"]}  # the ConfigMaps the workloads read are gone
    bad = [
        ("def file missing", dict(cnf, package=package, request=missing)),
        ("VDU unknown", dict(cnf, package=package, request=change_request(files, ("VDU1", "VDU9")))),
        ("no upgrade type", dict(cnf, package=package, request=change_request(files, upgrade_type="BlueGreen"))),
        ("external links", dict(cnf, package=package, request=dict(change_request(files), extVirtualLinks=[
            {"id": "x", "resourceId": "net", "extCps": [{"cpdId": "cp", "cpConfig": {"a": {"cpProtocolData": []}}}]}]))),
        ("removed but read", dict(cnf, package=make(NEW_ID, unread), request=change_request(unread))),
        ("wrong vnfdId", dict(cnf, package=package, request=dict(change_request(files), vnfdId=OLD_ID))),
    ]
    start = k8s_audit.mark()
    results = ansible_play([(name, "vnf_change_pkg", args) for name, args in bad])
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []
    for name, _args in bad:
        assert results[name].get("failed") is True, name
    assert "additionalParams.lcm-kubernetes-def-files[3]" in results["def file missing"]["msg"]
    assert "VDU9" in results["VDU unknown"]["msg"]
    assert "upgrade_type" in results["no upgrade type"]["msg"]
    assert "extVirtualLinks" in results["external links"]["msg"]
    assert "cm-vdu1" in results["removed but read"]["msg"] and "still reads it" in results["removed but read"]["msg"]
    assert "vnfdId" in results["wrong vnfdId"]["msg"]


def stuck(files):
    """``files`` with VDU1's pods asking for a node no node is: its rollout cannot finish (the old pods stay, maxUnavailable rounds to 0)."""
    result = dict(files)
    blocked = deployment("vdu1", "app:2.0", env_key=("cm-vdu1", "mode"))
    blocked["spec"]["template"]["spec"]["nodeSelector"] = {"vnflcm-test/stuck": "yes"}
    result["vdu1.yaml"] = [blocked]
    return result


STUCK_FILES = stuck({
    "config.yaml": [config_map("cm-vdu1", {"mode": "b", "unused": "x"}), config_map("cm-vdu2", {"level": "1"})],
    "vdu2.yaml": [deployment("vdu2", "app:2.0", env_from="cm-vdu2"), service("vdu2", "vdu2")],
})


def test_a_rollout_that_cannot_finish_ends_failed_temp_and_rolls_back_to_the_same_pods(ansible_task, kube, cnf, make, k8s_namespace):
    ns = k8s_namespace
    package = make(NEW_ID, STUCK_FILES)
    before = pods(kube, ns)
    config_before = kube.call("GET", "/api/v1/namespaces/{0}/configmaps/cm-vdu1".format(ns))["data"]
    failed = ansible_task("vnf_change_pkg", dict(cnf, package=package, request=change_request(STUCK_FILES), wait_timeout=15))
    assert failed.get("failed") is True
    occ = failed["vnf_lcm_op_occ"]
    assert occ["operationState"] == "FAILED_TEMP" and "vdu1" in failed["msg"]
    assert "update Deployment/vdu1" in failed["progress"]["done"]
    assert ("services", "vdu2") in owned(kube, ns, cnf["vnf_instance_id"])  # written before VDU1 rolled

    rolled = ansible_task("vnf_lcm_op_occ", dict(cnf, action="rollback"))
    assert rolled.get("failed") is not True, rolled.get("msg")
    assert rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK"
    after = pods(kube, ns)
    assert after == before  # the same pods, same UIDs, same images: VDU2 was never reached, VDU1's old pods never left
    assert kube.call("GET", "/api/v1/namespaces/{0}/configmaps/cm-vdu1".format(ns))["data"] == config_before
    assert owned(kube, ns, cnf["vnf_instance_id"]) == {
        ("configmaps", "cm-vdu1"), ("configmaps", "cm-vdu2"), ("configmaps", "cm-old"), ("deployments", "vdu1"), ("deployments", "vdu2")}
    template = kube.call("GET", "/apis/apps/v1/namespaces/{0}/deployments/vdu1".format(ns))["spec"]["template"]["spec"]
    assert "nodeSelector" not in template and template["containers"][0]["image"] == "app:1.0"
    record = cnf_instance(ansible_task, cnf)
    assert record["vnfdId"] == OLD_ID
    # The record lists the objects it listed before (the new Service, created then deleted, is not among them).
    assert ("Service", "vdu2") not in {(item["kind"], item["name"]) for item in record["instantiatedVnfInfo"]["metadata"]["vnflcm"]["resources"]}
    # Nothing left to roll back: a second rollback changes nothing.
    again = ansible_task("vnf_lcm_op_occ", dict(cnf, action="rollback"))
    assert again.get("failed") is not True and again["changed"] is False


def test_side_by_side_every_named_vdu_rolls_at_once_and_rolls_back_the_same_way(
        ansible_task, kube, cnf, make, k8s_namespace, k8s_tenant, k8s_audit, tmp_path):
    ns = k8s_namespace
    package = make(NEW_ID, STUCK_FILES)
    hook = tmp_path / "hook.yml"
    hook.write_text(HOOK.format(path=tmp_path / "hook.log"))
    start = k8s_audit.mark()
    with_hook = change_request(STUCK_FILES, **{"lcm-operation-coordinate-new-vnf": str(hook)})
    refused = ansible_task("vnf_change_pkg", dict(cnf, package=package, request=with_hook, rollout="side_by_side"))
    assert refused.get("failed") is True and "rollout" in refused["msg"] and "coordination hook" in refused["msg"], refused.get("msg")
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []

    before = pods(kube, ns)
    failed = ansible_task("vnf_change_pkg", dict(cnf, package=package, request=change_request(STUCK_FILES), rollout="side_by_side", wait_timeout=15))
    assert failed.get("failed") is True and failed["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP", failed.get("msg")
    # VDU1 (first in vdu_params) cannot finish its rollout; VDU2 was written right after it, not after VDU1 was ready.
    done = failed["progress"]["done"]
    assert done.index("update Deployment/vdu2") == done.index("update Deployment/vdu1") + 1, done
    wait_for(lambda: {image for _uid, image in pods(kube, ns).get("vdu2", {}).values()} == {"app:2.0"}, "VDU2 rolled to app:2.0", timeout=60)

    rolled = ansible_task("vnf_lcm_op_occ", dict(cnf, action="rollback"))
    assert rolled.get("failed") is not True, rolled.get("msg")
    assert rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK"
    after = pods(kube, ns)
    assert after["vdu1"] == before["vdu1"]  # VDU1's old pods never left
    assert len(after["vdu2"]) == 3 and {image for _uid, image in after["vdu2"].values()} == {"app:1.0"}
    assert cnf_instance(ansible_task, cnf)["vnfdId"] == OLD_ID


def killed_during_the_rollout(ansible_task, kube, cnf, make, namespace):
    """The change of package killed while it waits for VDU1's rollout (its Deployment already has the new template)."""
    package = make(NEW_ID, STUCK_FILES)
    running = ansible_task("vnf_change_pkg", dict(cnf, package=package, request=change_request(STUCK_FILES), wait_timeout=120), background=True)
    occ = running_op_occ(kube, namespace, also=lambda: "nodeSelector" in kube.call(
        "GET", "/apis/apps/v1/namespaces/{0}/deployments/vdu1".format(namespace))["spec"]["template"]["spec"])
    kill_runner(occ)
    running.wait()
    return occ


def test_killed_during_the_rollout_the_change_is_retried_to_its_end(ansible_task, kube, cnf, make, k8s_namespace):
    ns = k8s_namespace
    killed_during_the_rollout(ansible_task, kube, cnf, make, ns)
    # What stopped it is gone: a node now has the label VDU1's pods wait for.
    node = kube.call("GET", "/api/v1/nodes")["items"][0]["metadata"]["name"]
    label_node(kube, node, "yes")
    try:
        retried = ansible_task("vnf_lcm_op_occ", dict(cnf, action="retry"))
    finally:
        label_node(kube, node, None)
    assert retried.get("failed") is not True, retried.get("msg")
    assert retried["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    now = pods(kube, ns)
    assert {item[1] for item in now["vdu1"].values()} == {"app:2.0"} and len(now["vdu1"]) == 3
    assert {item[1] for item in now["vdu2"].values()} == {"app:2.0"} and len(now["vdu2"]) == 3
    assert ("configmaps", "cm-old") not in owned(kube, ns, cnf["vnf_instance_id"])
    assert cnf_instance(ansible_task, cnf)["vnfdId"] == NEW_ID


def test_killed_during_the_rollout_the_change_is_rolled_back_to_the_same_pods(ansible_task, kube, cnf, make, k8s_namespace):
    ns = k8s_namespace
    before = pods(kube, ns)
    config_before = kube.call("GET", "/api/v1/namespaces/{0}/configmaps/cm-vdu1".format(ns))["data"]
    occ = killed_during_the_rollout(ansible_task, kube, cnf, make, ns)
    # No package needed: the job kept before the first write says the way back.
    rolled = ansible_task("vnf_lcm_op_occ", dict(cnf, action="rollback"))
    assert rolled.get("failed") is not True, rolled.get("msg")
    assert (rolled["vnf_lcm_op_occ"]["id"], rolled["vnf_lcm_op_occ"]["operationState"]) == (occ["id"], "ROLLED_BACK")
    assert pods(kube, ns) == before  # VDU1's old pods never left (its new ones could not start)
    assert kube.call("GET", "/api/v1/namespaces/{0}/configmaps/cm-vdu1".format(ns))["data"] == config_before
    assert ("services", "vdu2") not in owned(kube, ns, cnf["vnf_instance_id"])
    assert kube.request("GET", "/api/v1/namespaces/{0}/secrets/vnflcm-{1}-rollback".format(ns, cnf["vnf_instance_id"]))[0] == 404
    assert cnf_instance(ansible_task, cnf)["vnfdId"] == OLD_ID


def label_node(kube, node, value):
    """Set (None: remove) the label STUCK_FILES' VDU1 pods select nodes by."""
    status, body, _headers = kube.request("PATCH", "/api/v1/nodes/{0}".format(node), {"metadata": {"labels": {"vnflcm-test/stuck": value}}},
                                          headers={"Content-Type": "application/merge-patch+json"})
    assert status == 200, body


def test_the_change_vnfpkg_playbook_shows_the_plan_then_changes_the_cnf(kube, cnf, make, k8s_namespace, k8s_tenant, tmp_path):
    files = {"config.yaml": OLD_FILES["config.yaml"], "vdu1.yaml": [deployment("vdu1", "app:3.0", env_key=("cm-vdu1", "mode"))],
             "vdu2.yaml": OLD_FILES["vdu2.yaml"]}
    driver = PlaybookDriver(tmp_path / "cli", {"kubeconfig": str(k8s_tenant.kubeconfig)})
    variables = {"vnf_lifecycle_instance_id": cnf["vnf_instance_id"], "vnf_lifecycle_namespace": k8s_namespace,
                 "vnf_lifecycle_package": make(NEW_ID, files), "vnf_lifecycle_request": change_request(files, ("VDU1",))}
    run = expect(driver.run("change_vnfpkg", variables))
    changed = run.result("Change the current VNF package")
    assert changed["changed"] and changed["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    assert "update Deployment vdu1 (image of app: app:1.0 -> app:3.0" in run.stdout
    assert {item[1] for item in pods(kube, k8s_namespace)["vdu1"].values()} == {"app:3.0"}
    again = expect(driver.run("change_vnfpkg", variables)).result("Change the current VNF package")
    assert again["changed"] is False
