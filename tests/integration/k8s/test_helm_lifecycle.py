# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A Helm-chart CNF through the modules, as Tacker v2's test_helm.py sends it: its package (tacker-helm/test_helm_instantiate)
and its instantiate request (vimType ETSINFV.HELM.V_3, helm_chart_path, helm_parameters, helm_value_names) as shipped, with
the lab's API server, the tenant's token and the test's namespace in the request's placeholders; run by a ServiceAccount
limited to that namespace, with the lab's Helm (tools/lab/helm).

instantiate (a release named as Tacker names it, each VDU's workload and VNFCs in the record), its re-run (no change),
a modify of its vnfdId (refused, nothing written: vnf_change_pkg's), a modify of its description, Tacker's scale out and in (helm upgrade --reuse-values of the
VDU's replica key), Tacker's heal of a VNFC (its pod replaced), a scale to level, terminate (the release uninstalled, its objects gone) and the
identifier's deletion by the CNF driver (the record no longer names a release); an instantiate that ends FAILED_TEMP (a
quota of no pods: its wait times out) rolled back, then retried; a scale out that times out rolled back; one whose module process is killed while it waits,
rolled back; each Helm call (install, upgrade, rollback, uninstall) killed with helm inside it (the release left
pending-* or uninstalling), then retried or rolled back.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import signal
import tarfile

from ansible_collections.nfv.vnflcm.plugins.module_utils.helm.cli import tacker_release_name
from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_faults import block_pods, head, kill_runner, running_op_occ, unblock_pods
from ansible_collections.nfv.vnflcm.tests.integration.k8s.test_tacker_cnf_flows import ScriptedPackage
from ansible_collections.nfv.vnflcm.tests.integration.k8s.write_gate import WriteGate
from labk8s.kubeapi import Api  # tools/lab/k8s, on the path by tests/integration/k8s/conftest.py

RELEASE_SECRETS = "/api/v1/namespaces/{0}/secrets?labelSelector=owner%3Dhelm"
PACKAGE = "test_helm_instantiate"  # in tacker-helm (the tacker_helm fixture)


def chart_package(tacker_helm, folder, version, vdu2_image, vnfd_id, drop=(), extra=None):
    """Tacker's Helm package with a chart of its own, as its change-of-package tests derive test-chart-0.1.1: the chart
    ``version``, VDU2's container image ``vdu2_image``, packed as helm package packs it (declared in TOSCA.meta with its
    hash), and the VNFD id ``vnfd_id``; ``drop``: template files left out, ``extra(archive)`` adds entries."""
    source = os.path.join(tacker_helm, PACKAGE)
    shutil.copytree(source, folder)
    chart_dir = os.path.join(folder, "Files", "kubernetes", "test-chart")
    replace_in(os.path.join(chart_dir, "Chart.yaml"), "version: 0.1.0", "version: " + version)
    replace_in(os.path.join(chart_dir, "templates", "deployment_vdu2.yaml"), "image: nginx", "image: " + vdu2_image)
    for name in drop:
        os.remove(os.path.join(chart_dir, "templates", name))
    for name in os.listdir(os.path.join(folder, "Definitions")):
        replace_in(os.path.join(folder, "Definitions", name), "b8c1e0f2-3a4d-4e5f-9a6b-7c8d9e0f1a2b", vnfd_id)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        archive.add(chart_dir, arcname="test-chart")
        if extra:
            extra(archive)
    return folder, declared(folder, "Files/kubernetes/test-chart-{0}.tgz".format(version), buffer.getvalue())


def declared(folder, path, content):
    """``content`` written at ``path`` of the package in ``folder``, declared in its TOSCA.meta with its hash."""
    with open(os.path.join(folder, path), "wb") as handle:
        handle.write(content)
    with open(os.path.join(folder, "TOSCA-Metadata", "TOSCA.meta"), "a") as meta:
        meta.write("\nName: {0}\nContent-Type: test-data\nAlgorithm: SHA-256\nHash: {1}\n".format(path, hashlib.sha256(content).hexdigest()))
    return path


def replace_in(path, old, new):
    with open(path) as handle:
        text = handle.read()
    if old in text:
        with open(path, "w") as handle:
            handle.write(text.replace(old, new))


def tacker_request(tacker_helm, name, server, token, namespace):
    path = os.path.join(tacker_helm, "requests", "test_helm", name)
    with open(path) as handle:
        text = handle.read()
    body = json.loads(text.replace("K8S_API_HOST", server).replace("K8S_BEARER_TOKEN", token).replace("K8S_VIM_ID", "lab"))
    vim = body.get("vimConnectionInfo", {}).get("vim1")
    if vim:
        vim["interfaceInfo"].pop("ssl_ca_cert", None)  # the tenant's kubeconfig holds the lab's CA
    if "additionalParams" in body:
        body["additionalParams"]["namespace"] = namespace
    return body


def test_a_helm_chart_cnf_is_instantiated_and_terminated_as_tacker_sends_it(ansible_task, kube, k8s_namespace, k8s_tenant, k8s_audit,
                                                                            tacker_helm, helm_binary):
    ns = k8s_namespace
    package = os.path.join(tacker_helm, PACKAGE)
    server, token = Api(k8s_tenant.kubeconfig).server, k8s_tenant.token
    auth = {"kubeconfig": str(k8s_tenant.kubeconfig), "namespace": ns, "helm_binary": helm_binary.path, "wait_timeout": 120, "wait_sleep": 1}
    request = tacker_request(tacker_helm, "helm_instantiate.json", server, token, ns)

    # A replica key the chart does not read: refused before any write, naming the field.
    start = k8s_audit.mark()
    typo = json.loads(json.dumps(request))
    typo["additionalParams"]["helm_value_names"]["VDU2"]["replica"] = "replicaCountVdu9"
    refused = ansible_task("vnf_instantiate", dict(auth, package=package, vnf_instance_name="helm-cnf", request=typo))
    assert refused.get("failed") is True and "additionalParams.helm_value_names.VDU2.replica" in refused["msg"], refused.get("msg")
    assert "'replicaCountVdu9'" in refused["msg"] and "does not read that value" in refused["msg"]
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []

    done = ansible_task("vnf_instantiate", dict(auth, package=package, vnf_instance_name="helm-cnf", request=request))
    assert done.get("failed") is not True, done.get("msg")
    instance = done["vnf_instance"]
    release = tacker_release_name(instance["id"])
    assert instance["instantiationState"] == "INSTANTIATED" and done["plan"]["release"] == release
    assert instance["vimConnectionInfo"]["vim1"]["vimType"] == "ETSINFV.HELM.V_3"
    assert "bearer_token" not in json.dumps(instance["vimConnectionInfo"])
    # The release as Helm keeps it, and each VDU's workload with its pods as VNFCs.
    secrets = kube.call("GET", RELEASE_SECRETS.format(ns))["items"]
    assert [item["metadata"]["labels"]["name"] for item in secrets] == [release]
    vnfcs = instance["instantiatedVnfInfo"]["vnfcResourceInfo"]
    assert {vnfc["vduId"] for vnfc in vnfcs} == {"VDU1", "VDU2"}
    pods = kube.call("GET", "/api/v1/namespaces/{0}/pods".format(ns))["items"]
    assert sorted(vnfc["computeResource"]["resourceId"] for vnfc in vnfcs) == sorted(pod["metadata"]["name"] for pod in pods)
    workloads = {vnfc["vduId"]: vnfc["metadata"]["workloadName"] for vnfc in vnfcs}
    assert workloads == {vdu_id: reference["name"] for vdu_id, reference in done["plan"]["vdus"].items()}
    for vdu, deployment in workloads.items():
        assert deployment.startswith(vdu.lower())  # Tacker's rule: the VDU's name, or <name>-<suffix>
        live = kube.call("GET", "/apis/apps/v1/namespaces/{0}/deployments/{1}".format(ns, deployment))
        assert live["spec"]["replicas"] == sum(1 for vnfc in vnfcs if vnfc["vduId"] == vdu) == done["plan"]["vdus"][vdu]["replicas"]

    # The same instantiate again: no change, nothing written.
    start = k8s_audit.mark()
    again = ansible_task("vnf_instantiate", dict(auth, package=package, vnf_instance_name="helm-cnf", request=request))
    assert again.get("failed") is not True and again["changed"] is False, again.get("msg")
    # A modify of its vnfdId (by name, no Helm in the request: the CNF driver hands it to the Helm driver) is refused,
    # unwritten: a package changes with vnf_change_pkg.
    refused = ansible_task("vnf_modify", dict(auth, vnf_instance_name="helm-cnf", package=package, request={"vnfdId": "other-vnfd"}))
    assert refused.get("failed") is True and "vnf_change_pkg" in refused["msg"], refused.get("msg")
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []
    # Its information: the record only.
    modified = ansible_task("vnf_modify", dict(auth, vnf_instance_name="helm-cnf", request={"vnfInstanceDescription": "a chart's CNF"}))
    assert modified.get("failed") is not True and modified["changed"] is True, modified.get("msg")
    assert modified["vnf_instance"]["vnfInstanceDescription"] == "a chart's CNF"

    # Tacker's scale out (vdu2_aspect, 2 steps) and scale in (1 step): a helm upgrade --reuse-values of the replica key each.
    vdu2 = workloads["VDU2"]
    before = kube.call("GET", "/apis/apps/v1/namespaces/{0}/deployments/{1}".format(ns, vdu2))["spec"]["replicas"]
    for body, steps in (("helm_scale_out.json", 2), ("helm_scale_in.json", -1)):
        scaled = ansible_task("vnf_scale", dict(auth, vnf_instance_name="helm-cnf", request=tacker_request(tacker_helm, body, server, token, ns)))
        assert scaled.get("failed") is not True, scaled.get("msg")
        before += steps
        assert kube.call("GET", "/apis/apps/v1/namespaces/{0}/deployments/{1}".format(ns, vdu2))["spec"]["replicas"] == before
        vnfcs = scaled["vnf_instance"]["instantiatedVnfInfo"]["vnfcResourceInfo"]
        assert sum(1 for vnfc in vnfcs if vnfc["vduId"] == "VDU2") == before
    assert scaled["vnf_instance"]["instantiatedVnfInfo"]["metadata"]["vnflcm"]["helm"]["revision"] == 3

    # Tacker's heal of one VNFC: its pod replaced by the release's controller, a new VNFC in its place; the others stay.
    info = scaled["vnf_instance"]["instantiatedVnfInfo"]
    target = next(vnfc for vnfc in info["vnfcInfo"] if vnfc["vduId"] == "VDU2")
    old_pod = next(item["computeResource"]["resourceId"] for item in info["vnfcResourceInfo"] if item["id"] == target["vnfcResourceInfoId"])
    heal = tacker_request(tacker_helm, "helm_heal.json", server, token, ns)
    heal["vnfcInstanceId"] = [target["id"]]
    healed = ansible_task("vnf_heal", dict(auth, vnf_instance_name="helm-cnf", request=heal))
    assert healed.get("failed") is not True, healed.get("msg")
    after = healed["vnf_instance"]["instantiatedVnfInfo"]
    assert target["id"] not in {vnfc["id"] for vnfc in after["vnfcInfo"]} and len(after["vnfcInfo"]) == len(info["vnfcInfo"])
    assert old_pod not in {item["computeResource"]["resourceId"] for item in after["vnfcResourceInfo"]}
    assert {vnfc["id"] for vnfc in info["vnfcInfo"]} - {target["id"]} <= {vnfc["id"] for vnfc in after["vnfcInfo"]}
    level = {item["aspectId"]: item["scaleLevel"] for item in scaled["vnf_instance"]["instantiatedVnfInfo"]["scaleStatus"]}["vdu2_aspect"]
    # Back to instantiation level 1 (its level of vdu2_aspect) in one upgrade; again: nothing to do.
    leveled = ansible_task("vnf_scale_to_level", dict(auth, vnf_instance_name="helm-cnf", request={"instantiationLevelId": "instantiation_level_1"}))
    assert leveled.get("failed") is not True and leveled["changed"] is (level != 0), leveled.get("msg")
    start = k8s_audit.mark()
    again = ansible_task("vnf_scale_to_level", dict(auth, vnf_instance_name="helm-cnf", request={"instantiationLevelId": "instantiation_level_1"}))
    assert again.get("failed") is not True and again["changed"] is False, again.get("msg")
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []

    terminated = ansible_task("vnf_terminate", dict(auth, vnf_instance_name="helm-cnf",
                                                    request=tacker_request(tacker_helm, "helm_terminate.json", server, token, ns)))
    assert terminated.get("failed") is not True, terminated.get("msg")
    assert terminated["vnf_instance"]["instantiationState"] == "NOT_INSTANTIATED" and terminated["plan"]["uninstall"] is True
    assert kube.call("GET", RELEASE_SECRETS.format(ns))["items"] == []
    assert kube.call("GET", "/apis/apps/v1/namespaces/{0}/deployments".format(ns))["items"] == []

    deleted = ansible_task("vnf_delete", dict(auth, vnf_instance_name="helm-cnf"))
    assert deleted.get("failed") is not True and deleted["changed"] is True, deleted.get("msg")
    info = ansible_task("vnf_info", dict(auth, vnf_instance_name="helm-cnf"))
    assert info.get("failed") is not True and not info.get("vnf_instances"), info


def test_a_helm_instantiate_left_failed_temp_is_rolled_back_or_retried(ansible_task, kube, k8s_namespace, k8s_tenant, tacker_helm, helm_binary):
    """A quota of no pods: the release installs, its Deployments never get a pod, the wait times out: FAILED_TEMP, the
    record naming the release. Rollback uninstalls it; the same instantiate again fails the same way, and once the quota
    is gone its retry uninstalls what the failure left and installs again. Terminate with delete_instance leaves nothing."""
    ns = k8s_namespace
    package = os.path.join(tacker_helm, PACKAGE)
    server, token = Api(k8s_tenant.kubeconfig).server, k8s_tenant.token
    block_pods(kube, ns)
    auth = {"kubeconfig": str(k8s_tenant.kubeconfig), "namespace": ns, "helm_binary": helm_binary.path, "wait_timeout": 8, "wait_sleep": 1}
    where = dict(auth, vnf_instance_name="helm-failing")
    instantiate = dict(where, package=package, request=tacker_request(tacker_helm, "helm_instantiate.json", server, token, ns))

    failed = ansible_task("vnf_instantiate", instantiate)
    assert failed.get("failed") is True and "timed out" in failed["msg"], failed.get("msg")
    assert failed["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP"
    assert len(kube.call("GET", RELEASE_SECRETS.format(ns))["items"]) == 1

    rolled_back = ansible_task("vnf_lcm_op_occ", dict(where, action="rollback"))
    assert rolled_back.get("failed") is not True, rolled_back.get("msg")
    assert rolled_back["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK"
    assert rolled_back["vnf_instance"]["instantiationState"] == "NOT_INSTANTIATED"
    assert kube.call("GET", RELEASE_SECRETS.format(ns))["items"] == []
    assert kube.call("GET", "/apis/apps/v1/namespaces/{0}/deployments".format(ns))["items"] == []

    again = ansible_task("vnf_instantiate", instantiate)
    assert again.get("failed") is True and again["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP", again.get("msg")
    unblock_pods(kube, ns)
    retried = ansible_task("vnf_lcm_op_occ", dict(where, action="retry", package=package, wait_timeout=120))
    assert retried.get("failed") is not True, retried.get("msg")
    assert retried["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    vnfcs = retried["vnf_instance"]["instantiatedVnfInfo"]["vnfcResourceInfo"]
    assert {vnfc["vduId"] for vnfc in vnfcs} == {"VDU1", "VDU2"}
    assert len(kube.call("GET", RELEASE_SECRETS.format(ns))["items"]) == 1  # the one release, installed again

    # Tacker's scale-out rollback: a scale out whose new pod the quota keeps from starting times out; rollback sets the
    # replicas the record had back, by the same upgrade.
    vdu2 = next(vnfc["metadata"]["workloadName"] for vnfc in vnfcs if vnfc["vduId"] == "VDU2")
    before = kube.call("GET", "/apis/apps/v1/namespaces/{0}/deployments/{1}".format(ns, vdu2))["spec"]["replicas"]
    block_pods(kube, ns, count=len(vnfcs))
    try:
        scale_out = dict(where, request=tacker_request(tacker_helm, "helm_scale_out.json", server, token, ns))
        stuck = ansible_task("vnf_scale", scale_out)
        assert stuck.get("failed") is True and stuck["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP", stuck.get("msg")
        assert kube.call("GET", "/apis/apps/v1/namespaces/{0}/deployments/{1}".format(ns, vdu2))["spec"]["replicas"] == before + 2
        undone = ansible_task("vnf_lcm_op_occ", dict(where, action="rollback"))
        assert undone.get("failed") is not True and undone["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK", undone.get("msg")
    finally:
        unblock_pods(kube, ns)
    assert kube.call("GET", "/apis/apps/v1/namespaces/{0}/deployments/{1}".format(ns, vdu2))["spec"]["replicas"] == before
    assert sum(1 for vnfc in undone["vnf_instance"]["instantiatedVnfInfo"]["vnfcResourceInfo"] if vnfc["vduId"] == "VDU2") == before

    gone = ansible_task("vnf_terminate", dict(where, delete_instance=True, wait_timeout=120))
    assert gone.get("failed") is not True, gone.get("msg")
    assert kube.call("GET", RELEASE_SECRETS.format(ns))["items"] == []
    info = ansible_task("vnf_info", where)
    assert info.get("failed") is not True and not info.get("vnf_instances"), info


def test_tacker_helm_rollbacks_of_an_interface_script_failure(ansible_task, kube, k8s_namespace, k8s_tenant, tacker_helm, helm_binary, tmp_path):
    """Tacker's test_helm.py test_instantiate_rollback and test_scale_out_rollback as Tacker causes them: the package's
    Vnflcm interface script fails ``instantiate_end``, then ``scale_end`` (a script of the test's own in a copy of the
    package, run with allow_package_scripts, as in test_tacker_cnf_flows.py). The instantiate is rolled back (release
    uninstalled, NOT_INSTANTIATED); the scale out is rolled back with VDU2's VNFCs as before (Tacker's assertEqual of
    their ids)."""
    ns = k8s_namespace
    server, token = Api(k8s_tenant.kubeconfig).server, k8s_tenant.token
    package = ScriptedPackage(tacker_helm, PACKAGE, tmp_path)
    where = {"kubeconfig": str(k8s_tenant.kubeconfig), "namespace": ns, "helm_binary": helm_binary.path, "wait_timeout": 120, "wait_sleep": 1,
             "vnf_instance_name": "helm-scripted"}
    instantiate = dict(where, package=package.path, allow_package_scripts=True,
                       request=tacker_request(tacker_helm, "helm_instantiate.json", server, token, ns))

    package.put_fail_file("instantiate_end")
    failed = ansible_task("vnf_instantiate", instantiate)
    package.rm_fail_file("instantiate_end")
    assert failed.get("failed") is True and failed["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP", failed.get("msg")
    assert "Vnflcm.instantiate_end" in failed["msg"]
    assert failed["vnf_instance"]["instantiationState"] == "NOT_INSTANTIATED"
    rolled = ansible_task("vnf_lcm_op_occ", dict(where, action="rollback"))
    assert rolled.get("failed") is not True and rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK", rolled.get("msg")
    assert rolled["vnf_instance"]["instantiationState"] == "NOT_INSTANTIATED"
    assert kube.call("GET", RELEASE_SECRETS.format(ns))["items"] == []

    done = ansible_task("vnf_instantiate", instantiate)
    assert done.get("failed") is not True and done["vnf_lcm_op_occ"]["operationState"] == "COMPLETED", done.get("msg")
    vdu2_ids_0 = {vnfc["id"] for vnfc in done["vnf_instance"]["instantiatedVnfInfo"]["vnfcInfo"] if vnfc["vduId"] == "VDU2"}
    package.put_fail_file("scale_end")
    stuck = ansible_task("vnf_scale", dict(where, request=tacker_request(tacker_helm, "helm_scale_out.json", server, token, ns)))
    package.rm_fail_file("scale_end")
    assert stuck.get("failed") is True and stuck["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP", stuck.get("msg")
    assert "Vnflcm.scale_end" in stuck["msg"]
    undone = ansible_task("vnf_lcm_op_occ", dict(where, action="rollback"))
    assert undone.get("failed") is not True and undone["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK", undone.get("msg")
    vdu2_ids_1 = {vnfc["id"] for vnfc in undone["vnf_instance"]["instantiatedVnfInfo"]["vnfcInfo"] if vnfc["vduId"] == "VDU2"}
    assert vdu2_ids_0 == vdu2_ids_1

    gone = ansible_task("vnf_terminate", dict(where, delete_instance=True))
    assert gone.get("failed") is not True and kube.call("GET", RELEASE_SECRETS.format(ns))["items"] == [], gone.get("msg")


def test_a_killed_helm_instantiate_is_rolled_back_with_nothing_left(ansible_task, kube, k8s_namespace, k8s_tenant, tacker_helm, helm_binary):
    """The module process SIGKILLed after helm install, while it waits for pods a quota keeps from starting: the op occ
    stays PROCESSING with its runner gone, its record naming the release; rollback uninstalls it."""
    ns = k8s_namespace
    package = os.path.join(tacker_helm, PACKAGE)
    server, token = Api(k8s_tenant.kubeconfig).server, k8s_tenant.token
    where = {"kubeconfig": str(k8s_tenant.kubeconfig), "namespace": ns, "helm_binary": helm_binary.path, "wait_timeout": 600, "wait_sleep": 1,
             "vnf_instance_name": "helm-killed"}
    block_pods(kube, ns)
    try:
        task = ansible_task("vnf_instantiate", dict(where, package=package, request=tacker_request(
            tacker_helm, "helm_instantiate.json", server, token, ns)), background=True)
        occ = running_op_occ(kube, ns, also=lambda: bool(kube.call("GET", RELEASE_SECRETS.format(ns))["items"]))
        kill_runner(occ)
        task.wait()
        assert head(kube, ns)["operationState"] == "PROCESSING"
        rolled = ansible_task("vnf_lcm_op_occ", dict(where, action="rollback"))
        assert rolled.get("failed") is not True, rolled.get("msg")
    finally:
        unblock_pods(kube, ns)
    assert rolled["vnf_lcm_op_occ"]["id"] == occ["id"] and rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK"
    assert "has exited" in rolled["vnf_lcm_op_occ"]["error"]["detail"]
    assert kube.call("GET", RELEASE_SECRETS.format(ns))["items"] == []
    assert kube.call("GET", "/apis/apps/v1/namespaces/{0}/deployments".format(ns))["items"] == []
    deleted = ansible_task("vnf_delete", where)
    assert deleted.get("failed") is not True and deleted["changed"] is True, deleted.get("msg")


def test_a_helm_chart_cnf_changes_package_and_a_failed_change_is_rolled_back(ansible_task, kube, k8s_namespace, k8s_tenant, k8s_audit,
                                                                             tacker_helm, helm_binary, tmp_path):
    """Tacker's change of package of a Helm-chart CNF: a RollingUpdate of VDU2 to a chart of a new version (its image
    changed), then a scale with that chart; a second change whose new pods a quota keeps from starting times out
    (FAILED_TEMP) and is rolled back to the recorded revision (helm rollback), after which the kept chart still scales."""
    ns = k8s_namespace
    server, token = Api(k8s_tenant.kubeconfig).server, k8s_tenant.token
    where = {"kubeconfig": str(k8s_tenant.kubeconfig), "namespace": ns, "helm_binary": helm_binary.path, "wait_timeout": 120, "wait_sleep": 1,
             "vnf_instance_name": "helm-change"}
    package = os.path.join(tacker_helm, PACKAGE)
    done = ansible_task("vnf_instantiate", dict(where, package=package, request=tacker_request(tacker_helm, "helm_instantiate.json", server, token, ns)))
    assert done.get("failed") is not True, done.get("msg")
    vdu2 = done["plan"]["vdus"]["VDU2"]["name"]

    def vdu2_image():
        deployment = kube.call("GET", "/apis/apps/v1/namespaces/{0}/deployments/{1}".format(ns, vdu2))
        return deployment["spec"]["template"]["spec"]["containers"][0]["image"]

    def change(folder, version, image, vnfd_id):
        new_package, chart = chart_package(tacker_helm, str(tmp_path / folder), version, image, vnfd_id)
        return dict(where, package=new_package, request={"vnfdId": vnfd_id, "additionalParams": {
            "upgrade_type": "RollingUpdate", "helm_chart_path": chart, "vdu_params": [{"vdu_id": "VDU2"}]}})

    first = change("v011", "0.1.1", "nginx:1.27", "b8c1e0f2-3a4d-4e5f-9a6b-7c8d9e0f1a2c")
    changed = ansible_task("vnf_change_pkg", first)
    assert changed.get("failed") is not True, changed.get("msg")
    assert changed["vnf_instance"]["vnfdId"] == "b8c1e0f2-3a4d-4e5f-9a6b-7c8d9e0f1a2c" and vdu2_image() == "nginx:1.27"
    assert changed["vnf_lcm_op_occ"]["modificationsTriggeredByVnfPkgChange"]["vnfdId"] == "b8c1e0f2-3a4d-4e5f-9a6b-7c8d9e0f1a2c"
    start = k8s_audit.mark()
    again = ansible_task("vnf_change_pkg", first)
    assert again.get("failed") is not True and again["changed"] is False, again.get("msg")
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []
    out = ansible_task("vnf_scale", dict(where, request={"type": "SCALE_OUT", "aspectId": "vdu2_aspect"}))
    assert out.get("failed") is not True and vdu2_image() == "nginx:1.27", out.get("msg")
    pods = len(out["vnf_instance"]["instantiatedVnfInfo"]["vnfcResourceInfo"])

    block_pods(kube, ns, count=pods)
    try:
        stuck = ansible_task("vnf_change_pkg", dict(change("v012", "0.1.2", "nginx:1.28", "b8c1e0f2-3a4d-4e5f-9a6b-7c8d9e0f1a2d"), wait_timeout=8))
        assert stuck.get("failed") is True and stuck["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP", stuck.get("msg")
        assert vdu2_image() == "nginx:1.28"
        rolled = ansible_task("vnf_lcm_op_occ", dict(where, action="rollback"))
        assert rolled.get("failed") is not True and rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK", rolled.get("msg")
    finally:
        unblock_pods(kube, ns)
    assert vdu2_image() == "nginx:1.27" and rolled["vnf_instance"]["vnfdId"] == "b8c1e0f2-3a4d-4e5f-9a6b-7c8d9e0f1a2c"
    scaled_in = ansible_task("vnf_scale", dict(where, request={"type": "SCALE_IN", "aspectId": "vdu2_aspect"}))
    assert scaled_in.get("failed") is not True and vdu2_image() == "nginx:1.27", scaled_in.get("msg")
    gone = ansible_task("vnf_terminate", dict(where, delete_instance=True))
    assert gone.get("failed") is not True and kube.call("GET", RELEASE_SECRETS.format(ns))["items"] == [], gone.get("msg")


class HoldAfterRelease(WriteGate):
    """Lets the tenant's writes through up to helm's ``operation`` (CREATE, UPDATE) of its Secret of release revision
    ``revision``, then holds the next: helm is inside its command, the release marked pending-* (or uninstalling)."""

    def __init__(self, kube, namespace, folder, user, release, revision, operation):
        super().__init__(kube, namespace, folder, user=user)
        self.release_write = (operation, "secrets", "sh.helm.release.v1.{0}.v{1}".format(release, revision))

    def decide(self, request):
        allowed = super().decide(request)
        with self.lock:
            if self.hold_after is None and self.writes and self.writes[-1] == self.release_write:
                self.hold_after = len(self.writes)
        return allowed


def helm_processes(helm_path, release):
    """The pids of the helm processes running a command on ``release``."""
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open("/proc/{0}/cmdline".format(entry), "rb") as handle:
                argv = handle.read().split(b"\0")
        except OSError:
            continue
        if argv and argv[0] == helm_path.encode() and release.encode() in argv:
            found.append(int(entry))
    return found


def release_statuses(kube, namespace, release):
    """Revision -> status of the release, as Helm's storage (its Secrets' labels) holds them."""
    items = kube.call("GET", RELEASE_SECRETS.format(namespace) + "%2Cname%3D" + release)["items"]
    return {int(item["metadata"]["labels"]["version"]): item["metadata"]["labels"]["status"] for item in items}


def newest_status(kube, namespace, release):
    statuses = release_statuses(kube, namespace, release)
    return statuses[max(statuses)] if statuses else None


def killed_mid_helm(ansible_task, kube, tenant, tmp_path, helm_binary, release, module, args, revision=None, operation="CREATE"):
    """Run ``module`` until helm has written release ``revision`` (default: the next one) and waits on its next write;
    then SIGKILL the module process and helm (as when a job's container is killed). The op occ is left running with its
    runner gone; the newest revision's status is returned."""
    statuses = release_statuses(kube, tenant.namespace, release)
    revision = revision or max(statuses, default=0) + 1
    with HoldAfterRelease(kube, tenant.namespace, tmp_path, tenant.username, release, revision, operation) as gate:
        task = ansible_task(module, args, background=True)
        assert gate.held.wait(120), "helm did not write release revision {0}: {1}".format(revision, gate.writes)
        os.kill(head(kube, tenant.namespace)["lease"]["pid"], signal.SIGKILL)
        for pid in helm_processes(helm_binary.path, release):
            os.kill(pid, signal.SIGKILL)
        task.wait()
    assert head(kube, tenant.namespace)["operationState"] in ("PROCESSING", "ROLLING_BACK")
    return newest_status(kube, tenant.namespace, release)


def test_each_helm_call_killed_midway_is_recovered(ansible_task, kube, k8s_namespace, k8s_tenant, tacker_helm, helm_binary, tmp_path):
    """Helm's weak spot: a helm killed inside a command leaves its release pending-install / pending-upgrade /
    pending-rollback (or uninstalling), and Helm refuses every later upgrade ("another operation is in progress").
    Each Helm call of the driver is killed so, the module with it, while helm's first object write is held: an
    instantiate (helm install) is retried (uninstalled, installed again); a scale out (helm upgrade) is retried (the
    release rolled back to the revision the record names, then upgraded); a change of package (helm upgrade) is rolled
    back, that rollback (helm rollback) killed too and rolled back again; a terminate (helm uninstall) is retried. Each
    ends with the newest revision deployed (Helm's history keeps a killed revision's entry as it was: only the newest
    one counts) or the release gone."""
    ns = k8s_namespace
    server, token = Api(k8s_tenant.kubeconfig).server, k8s_tenant.token
    where = {"kubeconfig": str(k8s_tenant.kubeconfig), "namespace": ns, "helm_binary": helm_binary.path, "wait_timeout": 120, "wait_sleep": 1,
             "vnf_instance_name": "helm-killed-calls"}
    package = os.path.join(tacker_helm, PACKAGE)
    instance_id = "5c0d0e1f-0000-4000-8000-00000000a1e1"
    release = tacker_release_name(instance_id)

    assert killed_mid_helm(ansible_task, kube, k8s_tenant, tmp_path, helm_binary, release, "vnf_instantiate", dict(
        where, vnf_instance_id=instance_id, package=package,
        request=tacker_request(tacker_helm, "helm_instantiate.json", server, token, ns))) == "pending-install"
    done = ansible_task("vnf_lcm_op_occ", dict(where, action="retry", package=package))
    assert done.get("failed") is not True and done["vnf_lcm_op_occ"]["operationState"] == "COMPLETED", done.get("msg")
    assert newest_status(kube, ns, release) == "deployed"
    vdu2 = next(vnfc["metadata"]["workloadName"] for vnfc in done["vnf_instance"]["instantiatedVnfInfo"]["vnfcResourceInfo"] if vnfc["vduId"] == "VDU2")
    deployment = "/apis/apps/v1/namespaces/{0}/deployments/{1}".format(ns, vdu2)
    before = kube.call("GET", deployment)["spec"]["replicas"]

    assert killed_mid_helm(ansible_task, kube, k8s_tenant, tmp_path, helm_binary, release, "vnf_scale",
                           dict(where, request={"type": "SCALE_OUT", "aspectId": "vdu2_aspect"})) == "pending-upgrade"
    retried = ansible_task("vnf_lcm_op_occ", dict(where, action="retry"))
    assert retried.get("failed") is not True and retried["vnf_lcm_op_occ"]["operationState"] == "COMPLETED", retried.get("msg")
    assert kube.call("GET", deployment)["spec"]["replicas"] == before + 1
    assert newest_status(kube, ns, release) == "deployed"

    new_package, chart = chart_package(tacker_helm, str(tmp_path / "v011"), "0.1.1", "nginx:1.27", "b8c1e0f2-3a4d-4e5f-9a6b-7c8d9e0f1a2c")
    image = kube.call("GET", deployment)["spec"]["template"]["spec"]["containers"][0]["image"]
    assert killed_mid_helm(ansible_task, kube, k8s_tenant, tmp_path, helm_binary, release, "vnf_change_pkg", dict(
        where, package=new_package, request={"vnfdId": "b8c1e0f2-3a4d-4e5f-9a6b-7c8d9e0f1a2c", "additionalParams": {
            "upgrade_type": "RollingUpdate", "helm_chart_path": chart, "vdu_params": [{"vdu_id": "VDU2"}]}})) == "pending-upgrade"
    assert killed_mid_helm(ansible_task, kube, k8s_tenant, tmp_path, helm_binary, release, "vnf_lcm_op_occ",
                           dict(where, action="rollback")) == "pending-rollback"
    rolled = ansible_task("vnf_lcm_op_occ", dict(where, action="rollback"))
    assert rolled.get("failed") is not True and rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK", rolled.get("msg")
    assert kube.call("GET", deployment)["spec"]["template"]["spec"]["containers"][0]["image"] == image
    assert rolled["vnf_instance"]["vnfdId"] == done["vnf_instance"]["vnfdId"]
    assert newest_status(kube, ns, release) == "deployed"

    newest = max(release_statuses(kube, ns, release))
    assert killed_mid_helm(ansible_task, kube, k8s_tenant, tmp_path, helm_binary, release, "vnf_terminate", where,
                           revision=newest, operation="UPDATE") == "uninstalling"
    gone = ansible_task("vnf_lcm_op_occ", dict(where, action="retry"))
    assert gone.get("failed") is not True and gone["vnf_lcm_op_occ"]["operationState"] == "COMPLETED", gone.get("msg")
    assert gone["vnf_instance"]["instantiationState"] == "NOT_INSTANTIATED"
    assert kube.call("GET", RELEASE_SECRETS.format(ns))["items"] == []
    assert kube.call("GET", "/apis/apps/v1/namespaces/{0}/deployments".format(ns))["items"] == []
    deleted = ansible_task("vnf_delete", where)
    assert deleted.get("failed") is not True and deleted["changed"] is True, deleted.get("msg")


def symlink_to_passwd(archive):
    link = tarfile.TarInfo("test-chart/templates/passwd.yaml")
    link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
    archive.addfile(link)


def test_bad_helm_input_is_refused_with_a_clear_error_and_writes_nothing(ansible_task, kube, k8s_namespace, k8s_tenant, k8s_audit,
                                                                         tacker_helm, helm_binary, tmp_path):
    """Each a clear error naming what is at fault, and no write of the module's user (the API server's audit log):
    instantiate with a chart path the package does not declare, a chart holding a symlink, values the chart cannot
    render, a chart that renders no workload for a VDU; then, on the instantiated CNF, a scale of an unknown aspect and
    one beyond its maximum, a heal of an unknown VNFC, a scale to an unknown level, a terminate of an unknown type or with
    a timeout FORCEFUL does not take, a change of package to an undeclared chart or one holding a symlink. Re-runs write
    nothing either: a modify with the same information, a terminate of a terminated instance."""
    ns = k8s_namespace
    server, token = Api(k8s_tenant.kubeconfig).server, k8s_tenant.token
    where = {"kubeconfig": str(k8s_tenant.kubeconfig), "namespace": ns, "helm_binary": helm_binary.path, "wait_timeout": 120, "wait_sleep": 1,
             "vnf_instance_name": "helm-bad"}
    package = os.path.join(tacker_helm, PACKAGE)
    request = tacker_request(tacker_helm, "helm_instantiate.json", server, token, ns)
    vnfd_id = "b8c1e0f2-3a4d-4e5f-9a6b-7c8d9e0f1a2e"
    linked, linked_chart = chart_package(tacker_helm, str(tmp_path / "linked"), "0.1.8", "nginx", vnfd_id, extra=symlink_to_passwd)
    no_vdu2, no_vdu2_chart = chart_package(tacker_helm, str(tmp_path / "no-vdu2"), "0.1.9", "nginx", vnfd_id, drop=("deployment_vdu2.yaml",))

    def with_params(**changes):
        body = json.loads(json.dumps(request))
        body["additionalParams"].update(changes)
        return body

    def refused(module, args, *parts):
        result = ansible_task(module, dict(where, **args))
        assert result.get("failed") is True, result
        for part in parts:
            assert part in result["msg"], (part, result["msg"])
        return result

    start = k8s_audit.mark()
    refused("vnf_instantiate", dict(package=package, request=with_params(helm_chart_path="Files/kubernetes/other-chart.tgz")),
            "additionalParams.helm_chart_path", "is not a file the package declares")
    refused("vnf_instantiate", dict(package=linked, request=with_params(helm_chart_path=linked_chart)),
            "additionalParams.helm_chart_path", "'test-chart/templates/passwd.yaml' is a link or special file")
    refused("vnf_instantiate", dict(package=package, request=with_params(helm_parameters={"service.type": "a: b"})), "helm template", "YAML")
    refused("vnf_instantiate", dict(package=no_vdu2, request=with_params(helm_chart_path=no_vdu2_chart)), "VDU VDU2", "has no workload in the chart")
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []

    done = ansible_task("vnf_instantiate", dict(where, package=package, request=request))
    assert done.get("failed") is not True, done.get("msg")
    start = k8s_audit.mark()
    refused("vnf_scale", dict(request={"type": "SCALE_OUT", "aspectId": "vdu9_aspect"}), "aspectId", "vdu9_aspect")
    refused("vnf_scale", dict(request={"type": "SCALE_OUT", "aspectId": "vdu2_aspect", "numberOfSteps": 5}), "numberOfSteps")
    refused("vnf_heal", dict(request={"vnfcInstanceId": ["no-such-vnfc"]}), "vnfcInstanceId", "no-such-vnfc")
    refused("vnf_scale_to_level", dict(request={"instantiationLevelId": "no_such_level"}), "instantiationLevelId",
            "'no_such_level' is not an instantiation level")
    refused("vnf_terminate", dict(request={"terminationType": "SOFT"}), "terminationType", "SOFT")
    refused("vnf_terminate", dict(request={"terminationType": "FORCEFUL", "gracefulTerminationTimeout": 5}), "gracefulTerminationTimeout",
            "only allowed with terminationType GRACEFUL")
    change = {"vnfdId": done["vnf_instance"]["vnfdId"], "additionalParams": {"upgrade_type": "RollingUpdate", "vdu_params": [{"vdu_id": "VDU2"}]}}
    change["additionalParams"]["helm_chart_path"] = "Files/kubernetes/other-chart.tgz"
    refused("vnf_change_pkg", dict(package=package, request=change), "additionalParams.helm_chart_path", "is not a file the package declares")
    change["vnfdId"], change["additionalParams"]["helm_chart_path"] = vnfd_id, linked_chart
    refused("vnf_change_pkg", dict(package=linked, request=change), "additionalParams.helm_chart_path", "is a link or special file")
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []

    described = ansible_task("vnf_modify", dict(where, request={"vnfInstanceDescription": "bad input refused"}))
    assert described.get("failed") is not True and described["changed"] is True, described.get("msg")
    gone = ansible_task("vnf_terminate", dict(where, request={"terminationType": "FORCEFUL"}))
    assert gone.get("failed") is not True and gone["changed"] is True, gone.get("msg")
    start = k8s_audit.mark()
    again = ansible_task("vnf_modify", dict(where, request={"vnfInstanceDescription": "bad input refused"}))
    assert again.get("failed") is not True and again["changed"] is False, again.get("msg")
    again = ansible_task("vnf_terminate", dict(where, request={"terminationType": "FORCEFUL"}))
    assert again.get("failed") is not True and again["changed"] is False, again.get("msg")
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []
    assert kube.call("GET", RELEASE_SECRETS.format(ns))["items"] == []
    deleted = ansible_task("vnf_delete", where)
    assert deleted.get("failed") is not True and deleted["changed"] is True, deleted.get("msg")
