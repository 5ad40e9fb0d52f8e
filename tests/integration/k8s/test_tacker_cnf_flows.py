# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""OpenStack Tacker v2's own CNF functional tests, replayed step by step through the modules on the lab.

Replayed (tacker/tests/functional/sol_kubernetes_v2/): test_vnflcm_basic.py's test_basic_lcms_max, test_basic_lcms_min,
test_instantiate_rollback and test_scale_out_rollback; test_change_vnfpkg.py's test_change_vnfpkg_for_deployment_res and
test_change_vnfpkg_failed_and_rollback. Each step keeps Tacker's number and each of Tacker's assertions is made in
Tacker's order, with a ``# Tacker:`` comment citing it.

Tacker's packages (test_instantiate_cnf_resources, test_change_vnf_pkg_with_deployment) and request bodies
(requests/sol_kubernetes_v2/) are used as they are, but for their placeholders: K8S_API_HOST, K8S_BEARER_TOKEN and
K8S_SSL_CA_CERT are the lab's (a ServiceAccount bound to cluster-admin, as Tacker's devstack VIM is), K8S_VIM_ID the id
of that VIM and VNFC_ID the VNFC the flow heals; the whole ``https://K8S_API_HOST:6443`` is the lab's API server URL, as
Tacker's paramgen fills it with the real one. The modules connect to Kubernetes with their own options (``host``,
``api_key`` and ``ca_cert``: the server, token and CA of the request's); a request's ``vimConnectionInfo`` names the
server the module connects to, or is refused, and is recorded without its secrets.

How Tacker's REST calls map to the modules:

- ``create`` (POST /vnf_instances) is vnf_instantiate in check mode with ``create_request`` (Tacker's create.json): the
  VnfInstance it would create, whose id the next step gives to ``instantiate``. ``create`` + ``instantiate`` is then one
  vnf_instantiate task with ``create_request`` and ``request``. scale, heal, change_vnfpkg and terminate are vnf_scale,
  vnf_heal, vnf_change_pkg and vnf_terminate; DELETE /vnf_instances/{id} is vnf_delete; GET /vnf_instances/{id}
  (``show``) is vnf_info, whose empty list is Tacker's 404; lcmocc rollback is vnf_lcm_op_occ ``action: rollback``.
- Tacker's HTTP status codes and headers (201, 202, 200, 204, check_resp_headers_*) have no equivalent: a module
  runs its operation to the end, so "202 then wait_lcmocc_complete" is a task that did not fail and whose
  ``vnf_lcm_op_occ`` is COMPLETED, "202 then wait_lcmocc_failed_temp" a task that failed leaving its op occ FAILED_TEMP,
  and a header check the shape of the result (check_resp_body: the attributes of the returned document).
- usageState of a VNF package has no equivalent: there is no NFVO, a package is a path given to the module. Those
  checks are left out, each with a comment.

Tacker makes an operation fail by making the package's interface script raise (its ``put_fail_file``): Tacker's packages
declare ``../Scripts/sample_script.py`` for their Vnflcm interface, which the fixtures lack, so each flow copies the package
and adds a script of its own (:data:`SAMPLE_SCRIPT`) that fails the operation whose marker file exists, and the modules
run it (``allow_package_scripts: true``).

The record keeps Tacker's ``instantiatedVnfInfo.metadata.vdu_reses`` (each VDU's object as deployed, labelled
``tacker_vnf_instance_id``), so Tacker's ``_get_vdu_label`` assertions are made with a helper that reads it as Tacker's does.

Differences kept on purpose (the flow asserts this collection's behaviour there and says why):

- a change of package naming a def file the new package lacks (change_vnfpkg_error.json) is refused before anything is
  written; Tacker accepts it and fails later, FAILED_TEMP. The failure Tacker's flow then rolls back is caused otherwise:
  the new package's VNFD declares no interface script for a change of package (Tacker runs none either), so a
  ResourceQuota of the VNF's namespace keeps the rollout from creating its surge pod, and the change (the valid
  change_vnfpkg.json) outlives its wait_timeout: FAILED_TEMP after its first write, the old pods untouched.

Tacker's functional tests run on a one-node cluster: a DaemonSet (VDU6) has one pod there. The lab has three kwok
nodes, so test_basic_lcms_max keeps two of them tainted NoSchedule while it runs.
"""

from __future__ import annotations

import json
import os
import shutil
import time
import uuid

import pytest

from labk8s.kubeapi import Api

REQUESTS = os.path.join("requests", "sol_kubernetes_v2")
BASIC = os.path.join(REQUESTS, "test_vnflcm_basic")
CHANGE = os.path.join(REQUESTS, "test_change_vnfpkg")
OLD_PACKAGE = "test_instantiate_cnf_resources"
NEW_PACKAGE = "test_change_vnf_pkg_with_deployment"
SCRIPT = "Scripts/sample_script.py"
INSTANCE_ID_LABEL = "vnflcm.nfv/instance-id"
TACKER_LABEL = "tacker_vnf_instance_id"
# The VIM's id (K8S_VIM_ID of min_sample_instantiate.json): the lab, reached through the modules' connection options.
LAB_VIM_ID = "7d1f3c52-6a0e-4f9b-9c55-1b0e6fa3c001"
# Seconds an operation that is to succeed may wait for its workloads; one that is to time out waits FAILING_WAIT.
WAIT = 45
FAILING_WAIT = 5
CLEAN_UP_WAIT = 30
# What Tacker's create returns (check_resp_body), then also once instantiated.
EXPECTED_INST_ATTRS = ["id", "vnfInstanceName", "vnfInstanceDescription", "vnfdId", "vnfProvider", "vnfProductName",
                       "vnfSoftwareVersion", "vnfdVersion", "instantiationState", "metadata", "_links"]
INSTANTIATED_ATTRS = ["vimConnectionInfo", "instantiatedVnfInfo"]
# What the clean-up of a failed flow looks for, by the instance's label (the kinds of Tacker's two packages); Secrets, which
# hold the record, last.
NAMESPACED_V1 = ("pods", "services", "configmaps", "persistentvolumeclaims", "serviceaccounts", "limitranges", "resourcequotas",
                 "podtemplates")
NAMESPACED_GROUPS = (("apps/v1", "deployments"), ("apps/v1", "replicasets"), ("apps/v1", "statefulsets"), ("apps/v1", "daemonsets"),
                     ("apps/v1", "controllerrevisions"), ("batch/v1", "jobs"), ("autoscaling/v2", "horizontalpodautoscalers"),
                     ("coordination.k8s.io/v1", "leases"), ("networking.k8s.io/v1", "networkpolicies"),
                     ("rbac.authorization.k8s.io/v1", "roles"), ("rbac.authorization.k8s.io/v1", "rolebindings"))
CLUSTER_SCOPED = ("/api/v1/persistentvolumes", "/apis/storage.k8s.io/v1/storageclasses", "/apis/rbac.authorization.k8s.io/v1/clusterroles",
                  "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", "/apis/scheduling.k8s.io/v1/priorityclasses", "/api/v1/namespaces")

# Our own Vnflcm interface script (Tacker's is not among the fixtures): reads Tacker's pickled input and fails the
# operation whose marker file exists in MARKERS, the absolute directory the test writes into it.
SAMPLE_SCRIPT = '''"""Vnflcm interface script of the lab's replay of Tacker's CNF tests: fails an operation whose marker file exists."""
import os
import pickle
import sys

MARKERS = {markers!r}
INPUT_KEYS = ("operation", "request", "vnf_instance", "grant_request", "grant_response", "tmp_csar_dir")

given = pickle.load(sys.stdin.buffer)
missing = [key for key in INPUT_KEYS if key not in given]
if missing:
    sys.stderr.write("the input lacks " + ", ".join(missing) + "\\n")
    sys.exit(2)
if os.path.exists(os.path.join(MARKERS, given["operation"])):
    sys.stderr.write("marker file set: {{0}} fails\\n".format(given["operation"]))
    sys.exit(1)
'''


class ScriptedPackage:
    """A copy of one of Tacker's packages with our Scripts/sample_script.py; put_fail_file / rm_fail_file as Tacker's."""

    def __init__(self, fixtures, name, tmp_path):
        self.path = str(tmp_path / name)
        self.markers = tmp_path / "markers"
        self.markers.mkdir(parents=True, exist_ok=True)
        shutil.copytree(os.path.join(fixtures, name), self.path)
        # Not listed in TOSCA.meta, as in the packages Tacker builds from these files: the package reader takes a declared
        # artifact that TOSCA.meta does not list (its hash is then not checked) without a warning.
        os.makedirs(os.path.join(self.path, "Scripts"))
        with open(os.path.join(self.path, SCRIPT), "w") as handle:
            handle.write(SAMPLE_SCRIPT.format(markers=str(self.markers)))

    def put_fail_file(self, operation):
        (self.markers / operation).write_text("")

    def rm_fail_file(self, operation):
        (self.markers / operation).unlink()


class LabVim:
    """The lab as Tacker's registered Kubernetes VIM: a cluster-admin ServiceAccount's token and the lab's CA."""

    def __init__(self, kube, tmp_dir):
        self.kube = kube
        self.name = "tacker-replay-vim-" + uuid.uuid4().hex[:6]
        kube.call("POST", "/api/v1/namespaces/kube-system/serviceaccounts",
                  {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": self.name}})
        kube.call("POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", {
            "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding", "metadata": {"name": self.name},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "cluster-admin"},
            "subjects": [{"kind": "ServiceAccount", "name": self.name, "namespace": "kube-system"}]})
        self.token = kube.call("POST", "/api/v1/namespaces/kube-system/serviceaccounts/{0}/token".format(self.name), {
            "apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest", "spec": {"expirationSeconds": 3600}})["status"]["token"]
        self.ca_pem = kube.ca_pem.decode()
        self.ca_file = os.path.join(tmp_dir, "lab-ca.pem")
        with open(self.ca_file, "w") as handle:
            handle.write(self.ca_pem)
        self.auth = {"host": kube.server, "api_key": self.token, "ca_cert": self.ca_file}

    def placeholders(self, **more):
        # The endpoint first: Tacker's port (6443) is not the lab's.
        values = {"https://K8S_API_HOST:6443": self.kube.server, "K8S_API_HOST": self.kube.host, "K8S_BEARER_TOKEN": self.token,
                  "K8S_SSL_CA_CERT": self.ca_pem, "K8S_VIM_ID": LAB_VIM_ID}
        values.update(more)
        return values

    def close(self):
        self.kube.request("DELETE", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/" + self.name)
        self.kube.request("DELETE", "/api/v1/namespaces/kube-system/serviceaccounts/" + self.name)


@pytest.fixture(scope="module")
def lab_vim(k8s_lab, tmp_path_factory):
    vim = LabVim(Api(k8s_lab.kubeconfig), str(tmp_path_factory.mktemp("tacker-vim")))
    yield vim
    vim.close()


@pytest.fixture
def packages(tacker_packages, tmp_path):
    """``packages(name)``: a scripted copy of one of Tacker's packages; all share one marker directory."""
    return lambda name: ScriptedPackage(tacker_packages, name, tmp_path / "packages")


def tacker_request(fixtures, relpath, values):
    """One of Tacker's request bodies, its placeholders replaced by ``values``."""
    with open(os.path.join(fixtures, relpath)) as handle:
        body = json.load(handle)

    def fill(item):
        if isinstance(item, dict):
            return {key: fill(value) for key, value in item.items()}
        if isinstance(item, list):
            return [fill(value) for value in item]
        if isinstance(item, str):
            for placeholder, value in values.items():
                item = item.replace(placeholder, value)
        return item

    return fill(body)


class Flow:
    """Tacker's BaseVnfLcmKubernetesV2Test calls, each the task of a module on the lab."""

    def __init__(self, ansible_task, vim, fixtures, kube):
        self.task, self.vim, self.fixtures, self.kube = ansible_task, vim, fixtures, kube
        self.instances = []  # (namespace, id) of the instances this flow created, for the clean-up

    def request(self, relpath, **more):
        return tacker_request(self.fixtures, relpath, self.vim.placeholders(**more))

    def where(self, namespace, inst_id, wait_timeout=WAIT):
        return dict(self.vim.auth, namespace=namespace, vnf_instance_id=inst_id, wait_timeout=wait_timeout, wait_sleep=1)

    def create_vnf_instance(self, package, create_req, instantiate_req, **options):
        """Tacker's create: the VnfInstance vnf_instantiate would create (check mode writes nothing)."""
        args = dict(self.vim.auth, package=package.path, create_request=create_req, request=instantiate_req,
                    allow_package_scripts=True, **options)
        return self.task("vnf_instantiate", args, check=True)

    def instantiate_vnf_instance(self, package, inst_id, create_req, instantiate_req, wait_timeout=WAIT, **options):
        args = dict(self.vim.auth, package=package.path, vnf_instance_id=inst_id, create_request=create_req, request=instantiate_req,
                    allow_package_scripts=True, wait_timeout=wait_timeout, wait_sleep=1, **options)
        result = self.task("vnf_instantiate", args)
        namespace = (result.get("plan") or {}).get("namespace")
        if namespace:
            self.instances.append((namespace, inst_id))
        return result

    def show_vnf_instance(self, namespace, inst_id):
        """The VnfInstance, or None (Tacker's 404), and its op occs."""
        result = self.task("vnf_info", {key: value for key, value in self.where(namespace, inst_id).items() if key != "wait_sleep"})
        assert not result.get("failed"), result.get("msg")
        instances = result["vnf_instances"]
        return (instances[0] if instances else None), result["vnf_lcm_op_occs"]

    def show_lcmocc(self, namespace, inst_id, lcmocc_id):
        _instance, occs = self.show_vnf_instance(namespace, inst_id)
        return next(occ for occ in occs if occ["id"] == lcmocc_id)

    def scale_vnf_instance(self, namespace, inst_id, req, wait_timeout=WAIT):
        return self.task("vnf_scale", dict(self.where(namespace, inst_id, wait_timeout), request=req))

    def heal_vnf_instance(self, namespace, inst_id, req):
        return self.task("vnf_heal", dict(self.where(namespace, inst_id), request=req))

    def change_vnfpkg(self, namespace, inst_id, package, req, wait_timeout=WAIT):
        return self.task("vnf_change_pkg", dict(self.where(namespace, inst_id, wait_timeout), package=package.path, request=req,
                                                allow_package_scripts=True))

    def terminate_vnf_instance(self, namespace, inst_id, req):
        return self.task("vnf_terminate", dict(self.where(namespace, inst_id), request=req))

    def delete_vnf_instance(self, namespace, inst_id):
        result = self.task("vnf_delete", self.where(namespace, inst_id))
        if not result.get("failed") and (namespace, inst_id) in self.instances:
            self.instances.remove((namespace, inst_id))
        return result

    def rollback_lcmocc(self, namespace, inst_id, lcmocc_id):
        return self.task("vnf_lcm_op_occ", dict(self.where(namespace, inst_id), action="rollback", vnf_lcm_op_occ_id=lcmocc_id))

    def clean_up(self):
        """Whatever a failed flow left on the lab: the instance terminated and deleted, else its objects and record removed."""
        for namespace, inst_id in self.instances:
            instance, occs = self.show_vnf_instance(namespace, inst_id)
            if instance is None:
                continue
            stuck = [occ for occ in occs if occ["operationState"] == "FAILED_TEMP"]
            for occ in stuck:
                self.task("vnf_lcm_op_occ", dict(self.where(namespace, inst_id), action="fail", vnf_lcm_op_occ_id=occ["id"]))
            if not any(occ["operation"] == "TERMINATE" for occ in stuck):
                gone = self.task("vnf_terminate", dict(self.where(namespace, inst_id, CLEAN_UP_WAIT), request={"terminationType": "FORCEFUL"},
                                                       delete_instance=True))
                if not gone.get("failed"):
                    continue
            self.remove_by_label(namespace, inst_id, instance)

    def remove_by_label(self, namespace, inst_id, instance):
        """The instance's labelled objects, its StatefulSets' claims and its record, deleted on the VIM directly."""
        selector = "?labelSelector={0}%3D{1}".format(INSTANCE_ID_LABEL.replace("/", "%2F"), inst_id)
        deployed = (((instance.get("instantiatedVnfInfo") or {}).get("metadata") or {}).get("vnflcm") or {}).get("deployed") or []
        claims = ["{0}-{1}-".format(template["metadata"]["name"], item["object"]["metadata"]["name"])
                  for item in deployed if item["object"]["kind"] == "StatefulSet"
                  for template in item["object"].get("spec", {}).get("volumeClaimTemplates") or []]
        claim_path = "/api/v1/namespaces/{0}/persistentvolumeclaims".format(namespace)
        for item in self.kube.call("GET", claim_path)["items"]:
            if item["metadata"]["name"].startswith(tuple(claims)):
                self.kube.request("DELETE", "{0}/{1}".format(claim_path, item["metadata"]["name"]))
        paths = ["/api/v1/namespaces/{0}/{1}".format(namespace, kind) for kind in NAMESPACED_V1]
        paths += ["/apis/{0}/namespaces/{1}/{2}".format(group, namespace, kind) for group, kind in NAMESPACED_GROUPS]
        paths += list(CLUSTER_SCOPED) + ["/api/v1/namespaces/{0}/secrets".format(namespace)]
        for path in paths:
            for item in self.kube.call("GET", path + selector)["items"]:
                # Background, also for an object already being deleted in the foreground: the garbage collector cannot take
                # the foreground finalizer off Tacker's ControllerRevision (its update is refused, data being immutable), a
                # delete in the background does.
                self.kube.request("DELETE", "{0}/{1}?propagationPolicy=Background".format(path, item["metadata"]["name"]))


@pytest.fixture
def flow(ansible_task, lab_vim, tacker_packages, kube):
    replay = Flow(ansible_task, lab_vim, tacker_packages, kube)
    yield replay
    replay.clean_up()


@pytest.fixture
def one_node(kube):
    """Tacker's one-node cluster: every kwok node but the first tainted NoSchedule while the test runs."""
    nodes = sorted(item["metadata"]["name"] for item in kube.call("GET", "/api/v1/nodes")["items"])
    taint = {"key": "tacker-replay/one-node", "value": "true", "effect": "NoSchedule"}

    def set_taints(name, edit):
        taints = kube.call("GET", "/api/v1/nodes/" + name)["spec"].get("taints") or []
        status, body, _headers = kube.request("PATCH", "/api/v1/nodes/" + name, {"spec": {"taints": edit(taints)}},
                                              headers={"Content-Type": "application/merge-patch+json"})
        assert status == 200, body

    for name in nodes[1:]:
        set_taints(name, lambda taints: taints + [taint])
    yield nodes[0]
    for name in nodes[1:]:
        set_taints(name, lambda taints: [item for item in taints if item["key"] != taint["key"]])


# ---------------------------------------------------------------------------------------------
# Tacker's checks

def check_resp_body(body, expected_attrs):
    for attr in expected_attrs:
        assert attr in body, "Expected attribute doesn't exist: {0}".format(attr)


def completed(result, operation):
    """Tacker's ``202`` and ``wait_lcmocc_complete``: the task succeeded, its op occ COMPLETED; returns the op occ id."""
    assert not result.get("failed"), result.get("msg")
    occ = result["vnf_lcm_op_occ"]
    assert (occ["operation"], occ["operationState"]) == (operation, "COMPLETED"), occ
    return occ["id"]


def failed_temp(flow, result, namespace, inst_id, operation, cause):
    """Tacker's ``202`` and ``wait_lcmocc_failed_temp``: the operation started (an op occ), failed for ``cause`` (what its
    message names) and left its op occ FAILED_TEMP."""
    assert result.get("failed") and "vnf_lcm_op_occ" in result, result
    assert cause in result["msg"], result["msg"]
    lcmocc_id = result["vnf_lcm_op_occ"]["id"]
    occ = flow.show_lcmocc(namespace, inst_id, lcmocc_id)
    assert (occ["operation"], occ["operationState"]) == (operation, "FAILED_TEMP"), occ
    return lcmocc_id


def rolled_back(result, lcmocc_id):
    """Tacker's ``rollback_lcmocc`` ``202`` and ``wait_lcmocc_rolled_back``."""
    assert not result.get("failed"), result.get("msg")
    occ = result["vnf_lcm_op_occ"]
    assert (occ["id"], occ["operationState"]) == (lcmocc_id, "ROLLED_BACK"), occ


def deleted(flow, result, namespace, inst_id):
    """Tacker's delete ``204``, then show ``404``."""
    assert not result.get("failed"), result.get("msg")
    instance, _occs = flow.show_vnf_instance(namespace, inst_id)
    assert instance is None, instance


def _get_vdu_label(inst_vnf_info, vdu_id):
    """Tacker's VnfLcmKubernetesTest._get_vdu_label: the label of a VDU's object in the record, read exactly as Tacker reads it."""
    vdu_reses = inst_vnf_info["metadata"]["vdu_reses"]
    return vdu_reses[vdu_id]["metadata"].get("labels", {}).get("tacker_vnf_instance_id")


def vdu_infos(body, vdu_id, key="vnfcResourceInfo"):
    return [info for info in body["instantiatedVnfInfo"][key] if info["vduId"] == vdu_id]


def created(flow, package, create_req, instantiate_req, **options):
    """Step 1, Tacker's create (201, check_resp_headers_in_create): the body, and its id for the next step."""
    result = flow.create_vnf_instance(package, create_req, instantiate_req, **options)
    assert not result.get("failed"), result.get("msg")
    body = result["vnf_instance"]
    assert body["instantiationState"] == "NOT_INSTANTIATED"
    return body


def created_instantiated_shown(flow, package, instantiate_path, **options):
    """Steps 1 to 3 of Tacker's flows that succeed at instantiating: ``(namespace, inst_id, body of the show, expected_inst_attrs)``."""
    create_req = flow.request(os.path.join(BASIC, "create.json"))
    instantiate_req = flow.request(instantiate_path)

    # 1. Create a new VNF instance resource
    expected_inst_attrs = list(EXPECTED_INST_ATTRS)
    body = created(flow, package, create_req, instantiate_req, **options)
    # Tacker: self.check_resp_body(body, expected_inst_attrs)
    check_resp_body(body, expected_inst_attrs)
    inst_id = body["id"]
    # Tacker: self.check_package_usage(<package>, 'IN_USE') -- no NFVO, no usageState of a package.

    # 2. Instantiate a VNF instance
    result = flow.instantiate_vnf_instance(package, inst_id, create_req, instantiate_req, **options)
    # Tacker: self.assertEqual(202, resp.status_code); self.wait_lcmocc_complete(lcmocc_id)
    completed(result, "INSTANTIATE")
    namespace = result["plan"]["namespace"]

    # 3. Show VNF instance
    expected_inst_attrs.extend(INSTANTIATED_ATTRS)
    body, _occs = flow.show_vnf_instance(namespace, inst_id)
    # Tacker: self.check_resp_body(body, expected_inst_attrs)
    check_resp_body(body, expected_inst_attrs)
    return namespace, inst_id, body, expected_inst_attrs


# ---------------------------------------------------------------------------------------------
# test_vnflcm_basic.py

def test_basic_lcms_max(flow, packages, one_node, kube):
    package = packages(OLD_PACKAGE)
    # Cluster-scoped objects among the def files (Namespace, ClusterRole, PersistentVolumes, StorageClasses, ...).
    namespace, inst_id, body, _attrs = created_instantiated_shown(
        flow, package, os.path.join(BASIC, "max_sample_instantiate.json"), allow_cluster_scoped=True)
    vnfc_resource_infos = body["instantiatedVnfInfo"]["vnfcResourceInfo"]
    vdu_nums = {"VDU1": 0, "VDU2": 0, "VDU3": 0, "VDU5": 0, "VDU6": 0}
    kinds = {"VDU1": "Pod", "VDU2": "Deployment", "VDU3": "ReplicaSet", "VDU5": "StatefulSet", "VDU6": "DaemonSet"}
    for vnfc_info in vnfc_resource_infos:
        if vnfc_info["vduId"] in kinds:
            # Tacker: self.assertEqual('Pod' / 'Deployment' / 'ReplicaSet' / 'StatefulSet' / 'DaemonSet',
            #                          vnfc_info['computeResource']['vimLevelResourceType'])
            assert vnfc_info["computeResource"]["vimLevelResourceType"] == kinds[vnfc_info["vduId"]], vnfc_info
            vdu_nums[vnfc_info["vduId"]] += 1
    # Tacker: self.assertEqual({'VDU1': 1, 'VDU2': 2, 'VDU3': 1, 'VDU5': 1, 'VDU6': 1}, vdu_nums)
    assert vdu_nums == {"VDU1": 1, "VDU2": 2, "VDU3": 1, "VDU5": 1, "VDU6": 1}
    # check VDU label
    inst_vnf_info = body["instantiatedVnfInfo"]
    # Tacker: self.assertEqual(inst_id, self._get_vdu_label(inst_vnf_info, 'VDU1'))
    assert _get_vdu_label(inst_vnf_info, "VDU1") == inst_id
    # Tacker: self.assertEqual(inst_id, self._get_vdu_label(inst_vnf_info, 'VDU2'))
    assert _get_vdu_label(inst_vnf_info, "VDU2") == inst_id
    # Tacker: self.assertEqual(inst_id, self._get_vdu_label(inst_vnf_info, 'VDU3'))
    assert _get_vdu_label(inst_vnf_info, "VDU3") == inst_id
    # Tacker: self.assertEqual(inst_id, self._get_vdu_label(inst_vnf_info, 'VDU5'))
    assert _get_vdu_label(inst_vnf_info, "VDU5") == inst_id
    # Tacker: self.assertEqual(inst_id, self._get_vdu_label(inst_vnf_info, 'VDU6'))
    assert _get_vdu_label(inst_vnf_info, "VDU6") == inst_id
    # Beyond Tacker: the record's object is the one on the VIM, and the VDU's pods carry the label too.
    for vdu_id in ("VDU1", "VDU2", "VDU3", "VDU5", "VDU6"):
        recorded = inst_vnf_info["metadata"]["vdu_reses"][vdu_id]
        group = "/api/v1" if recorded["kind"] == "Pod" else "/apis/apps/v1"
        live = kube.call("GET", "{0}/namespaces/{1}/{2}s/{3}".format(group, namespace, recorded["kind"].lower(), recorded["metadata"]["name"]))
        assert live["metadata"]["labels"].get(TACKER_LABEL) == inst_id, (vdu_id, live["metadata"]["labels"])
        for info in vdu_infos(body, vdu_id):
            pod = kube.call("GET", "/api/v1/namespaces/{0}/pods/{1}".format(namespace, info["computeResource"]["resourceId"]))
            assert pod["metadata"]["labels"].get(TACKER_LABEL) == inst_id, (vdu_id, pod["metadata"]["labels"])

    # 4. Scale out a VNF instance
    result = flow.scale_vnf_instance(namespace, inst_id, flow.request(os.path.join(BASIC, "max_sample_scale_out.json")))
    # Tacker: self.assertEqual(202, resp.status_code); self.wait_lcmocc_complete(lcmocc_id)
    completed(result, "SCALE")

    # 5. Show VNF instance
    body, _occs = flow.show_vnf_instance(namespace, inst_id)
    # Tacker: self.assertEqual(3, len(vdu3_infos))
    assert len(vdu_infos(body, "VDU3")) == 3

    # 6. Scale in a VNF instance
    result = flow.scale_vnf_instance(namespace, inst_id, flow.request(os.path.join(BASIC, "max_sample_scale_in.json")))
    # Tacker: self.assertEqual(202, resp.status_code); self.wait_lcmocc_complete(lcmocc_id)
    completed(result, "SCALE")

    # 7. Show VNF instance
    body, _occs = flow.show_vnf_instance(namespace, inst_id)
    # Tacker: self.assertEqual(2, len(vdu3_infos))
    assert len(vdu_infos(body, "VDU3")) == 2

    # 8. Heal a VNF instance
    vdu2_ids = [vnfc_info["id"] for vnfc_info in vdu_infos(body, "VDU2", "vnfcInfo")]
    resource_of = {info["id"]: info["vnfcResourceInfoId"] for info in body["instantiatedVnfInfo"]["vnfcInfo"]}
    pods_before = {info["id"]: info["computeResource"]["resourceId"] for info in vdu_infos(body, "VDU2")}
    target = [vdu2_ids[0]]
    result = flow.heal_vnf_instance(namespace, inst_id, flow.request(os.path.join(BASIC, "max_sample_heal_VNFC_ID.json"), VNFC_ID=target[0]))
    # Tacker: self.assertEqual(202, resp.status_code); self.wait_lcmocc_complete(lcmocc_id)
    completed(result, "HEAL")
    # Tacker's notification of the heal: the healed VNFC REMOVED, the VNFC of its new pod ADDED (a VNFC's id follows its pod).
    affected = result["vnf_lcm_op_occ"]["resourceChanges"]["affectedVnfcs"]
    assert sorted(item["changeType"] for item in affected) == ["ADDED", "REMOVED"], affected
    (removed,) = [item for item in affected if item["changeType"] == "REMOVED"]
    (added,) = [item for item in affected if item["changeType"] == "ADDED"]
    assert (removed["id"], removed["vduId"], added["vduId"]) == (resource_of[target[0]], "VDU2", "VDU2"), affected
    assert removed["computeResource"]["resourceId"] == pods_before[resource_of[target[0]]]
    assert added["computeResource"]["resourceId"] != removed["computeResource"]["resourceId"]

    # 9. Show VNF instance
    body, _occs = flow.show_vnf_instance(namespace, inst_id)
    result_vdu2_ids = [vnfc_info["id"] for vnfc_info in vdu_infos(body, "VDU2", "vnfcInfo")]
    # Tacker: self.assertEqual(2, len(result_vdu2_ids))
    assert len(result_vdu2_ids) == 2
    # Tacker: self.assertNotIn(vdu2_ids[0], result_vdu2_ids)
    assert vdu2_ids[0] not in result_vdu2_ids
    assert "VDU2-{0}".format(added["id"]) in result_vdu2_ids
    # Tacker: self.assertIn(vdu2_ids[1], result_vdu2_ids)
    assert vdu2_ids[1] in result_vdu2_ids

    # 10. Terminate a VNF instance
    result = flow.terminate_vnf_instance(namespace, inst_id, flow.request(os.path.join(BASIC, "max_sample_terminate.json")))
    # Tacker: self.assertEqual(202, resp.status_code); self.wait_lcmocc_complete(lcmocc_id)
    completed(result, "TERMINATE")

    # 11. Delete a VNF instance
    result = flow.delete_vnf_instance(namespace, inst_id)
    # Tacker: self.assertEqual(204, resp.status_code); then show: self.assertEqual(404, resp.status_code)
    deleted(flow, result, namespace, inst_id)
    # Tacker: self.check_package_usage(self.cnf_pkg, 'NOT_IN_USE') -- no NFVO, no usageState of a package.


def test_basic_lcms_min(flow, packages):
    package = packages(OLD_PACKAGE)
    # min_sample_instantiate.json's vimConnectionInfo names the registered VIM by its id only.
    namespace, inst_id, body, _attrs = created_instantiated_shown(flow, package, os.path.join(BASIC, "min_sample_instantiate.json"))
    # Tacker: self.assertEqual(1, len(vnfc_resource_infos))
    assert len(body["instantiatedVnfInfo"].get("vnfcResourceInfo")) == 1

    # 4. Terminate a VNF instance
    result = flow.terminate_vnf_instance(namespace, inst_id, flow.request(os.path.join(BASIC, "max_sample_terminate.json")))
    # Tacker: self.assertEqual(202, resp.status_code); self.wait_lcmocc_complete(lcmocc_id)
    completed(result, "TERMINATE")

    # 5. Delete a VNF instance
    result = flow.delete_vnf_instance(namespace, inst_id)
    # Tacker: self.assertEqual(204, resp.status_code); then show: self.assertEqual(404, resp.status_code)
    deleted(flow, result, namespace, inst_id)
    # Tacker: self.check_package_usage(self.cnf_pkg, 'NOT_IN_USE') -- no NFVO, no usageState of a package.


def test_instantiate_rollback(flow, packages):
    package = packages(OLD_PACKAGE)
    create_req = flow.request(os.path.join(BASIC, "create.json"))
    instantiate_req = flow.request(os.path.join(BASIC, "error_handling_instantiate.json"))

    # 1. Create a new VNF instance resource
    body = created(flow, package, create_req, instantiate_req)
    inst_id = body["id"]

    # 2. Instantiate a VNF instance => FAILED_TEMP
    package.put_fail_file("instantiate_end")
    result = flow.instantiate_vnf_instance(package, inst_id, create_req, instantiate_req)
    namespace = result["plan"]["namespace"]
    # Tacker: self.assertEqual(202, resp.status_code); self.wait_lcmocc_failed_temp(lcmocc_id)
    lcmocc_id = failed_temp(flow, result, namespace, inst_id, "INSTANTIATE", "Vnflcm.instantiate_end")
    package.rm_fail_file("instantiate_end")

    # 3. Show VNF instance
    body, _occs = flow.show_vnf_instance(namespace, inst_id)
    # Tacker: self.assertEqual(200, resp.status_code)
    assert body is not None
    # Tacker: self.assertEqual('NOT_INSTANTIATED', body['instantiationState'])
    assert body["instantiationState"] == "NOT_INSTANTIATED"

    # 4. Rollback instantiate
    result = flow.rollback_lcmocc(namespace, inst_id, lcmocc_id)
    # Tacker: self.assertEqual(202, resp.status_code); self.wait_lcmocc_rolled_back(lcmocc_id)
    rolled_back(result, lcmocc_id)

    # 5. Show VNF instance
    body, _occs = flow.show_vnf_instance(namespace, inst_id)
    # Tacker: self.assertEqual(200, resp.status_code)
    assert body is not None
    # Tacker: self.assertEqual('NOT_INSTANTIATED', body['instantiationState'])
    assert body["instantiationState"] == "NOT_INSTANTIATED"

    # 6. Delete a VNF instance
    result = flow.delete_vnf_instance(namespace, inst_id)
    # Tacker: self.assertEqual(204, resp.status_code)
    assert not result.get("failed"), result.get("msg")
    assert result["changed"] is True and result["vnf_instance"]["id"] == inst_id


def test_scale_out_rollback(flow, packages):
    package = packages(OLD_PACKAGE)
    create_req = flow.request(os.path.join(BASIC, "create.json"))
    instantiate_req = flow.request(os.path.join(BASIC, "error_handling_instantiate.json"))

    # 1. Create a new VNF instance resource
    body = created(flow, package, create_req, instantiate_req)
    inst_id = body["id"]

    # 2. Instantiate a VNF instance
    result = flow.instantiate_vnf_instance(package, inst_id, create_req, instantiate_req)
    # Tacker: self.assertEqual(202, resp.status_code); self.wait_lcmocc_complete(lcmocc_id)
    completed(result, "INSTANTIATE")
    namespace = result["plan"]["namespace"]

    # 3. Show VNF instance
    body, _occs = flow.show_vnf_instance(namespace, inst_id)
    vdu2_ids_0 = {vnfc_info["id"] for vnfc_info in vdu_infos(body, "VDU2")}
    # Tacker: self.assertEqual(2, len(vdu2_ids_0))
    assert len(vdu2_ids_0) == 2

    # 4. Scale out a VNF instance => FAILED_TEMP
    package.put_fail_file("scale_end")
    result = flow.scale_vnf_instance(namespace, inst_id, flow.request(os.path.join(BASIC, "error_handling_scale_out.json")))
    # Tacker: self.assertEqual(202, resp.status_code); self.wait_lcmocc_failed_temp(lcmocc_id)
    lcmocc_id = failed_temp(flow, result, namespace, inst_id, "SCALE", "Vnflcm.scale_end")
    package.rm_fail_file("scale_end")

    # 5. Rollback scale out
    result = flow.rollback_lcmocc(namespace, inst_id, lcmocc_id)
    # Tacker: self.assertEqual(202, resp.status_code); self.wait_lcmocc_rolled_back(lcmocc_id)
    rolled_back(result, lcmocc_id)

    # 6. Show VNF instance
    body, _occs = flow.show_vnf_instance(namespace, inst_id)
    vdu2_ids_1 = {vnfc_info["id"] for vnfc_info in vdu_infos(body, "VDU2")}
    # Tacker: self.assertEqual(vdu2_ids_0, vdu2_ids_1)
    assert vdu2_ids_1 == vdu2_ids_0

    # 7. Terminate a VNF instance
    result = flow.terminate_vnf_instance(namespace, inst_id, flow.request(os.path.join(BASIC, "error_handling_terminate.json")))
    # Tacker: self.assertEqual(202, resp.status_code); self.wait_lcmocc_complete(lcmocc_id)
    completed(result, "TERMINATE")

    # 8. Delete a VNF instance
    result = flow.delete_vnf_instance(namespace, inst_id)
    # Tacker: self.assertEqual(204, resp.status_code)
    assert not result.get("failed"), result.get("msg")


# ---------------------------------------------------------------------------------------------
# test_change_vnfpkg.py

def instantiated_for_change(flow, packages):
    """Steps 1 to 3 of both change flows: the old package instantiated with change_vnfpkg_instantiate.json."""
    old, new = packages(OLD_PACKAGE), packages(NEW_PACKAGE)
    # The def files create the VNF's namespace (curry), a cluster-scoped object.
    namespace, inst_id, body, expected_inst_attrs = created_instantiated_shown(
        flow, old, os.path.join(CHANGE, "change_vnfpkg_instantiate.json"), allow_cluster_scoped=True)
    return new, namespace, inst_id, body, expected_inst_attrs


def test_change_vnfpkg_for_deployment_res(flow, packages, kube):
    new, namespace, inst_id, body, expected_inst_attrs = instantiated_for_change(flow, packages)
    vnfc_resource_infos = body["instantiatedVnfInfo"]["vnfcResourceInfo"]
    before_resource_ids = {vnfc_info["computeResource"]["resourceId"] for vnfc_info in vnfc_resource_infos}
    # Tacker: self.assertEqual(2, len(before_resource_ids))
    assert len(before_resource_ids) == 2

    # 4. Change Current VNF Package
    result = flow.change_vnfpkg(namespace, inst_id, new, flow.request(os.path.join(CHANGE, "change_vnfpkg.json")))
    # Tacker: self.assertEqual(202, resp.status_code); self.wait_lcmocc_complete(lcmocc_id)
    completed(result, "CHANGE_VNFPKG")
    # Tacker: self.check_package_usage(self.old_pkg, 'NOT_IN_USE'); self.check_package_usage(self.new_pkg, 'IN_USE')
    # -- no NFVO, no usageState of a package.

    # 5. Show VNF instance
    body, _occs = flow.show_vnf_instance(namespace, inst_id)
    # Tacker: self.check_resp_body(body, expected_inst_attrs)
    check_resp_body(body, expected_inst_attrs)
    vnfc_resource_infos = body["instantiatedVnfInfo"]["vnfcResourceInfo"]
    after_resource_ids = {vnfc_info["computeResource"]["resourceId"] for vnfc_info in vnfc_resource_infos}
    # Tacker: self.assertEqual(2, len(after_resource_ids))
    assert len(after_resource_ids) == 2
    # Tacker: self.assertNotEqual(before_resource_ids, after_resource_ids)
    assert after_resource_ids != before_resource_ids
    # Beyond Tacker: the record's VDU2 is the new package's Deployment, labelled.
    assert _get_vdu_label(body["instantiatedVnfInfo"], "VDU2") == inst_id
    new_image = body["instantiatedVnfInfo"]["metadata"]["vdu_reses"]["VDU2"]["spec"]["template"]["spec"]["containers"][0]["image"]
    live = kube.call("GET", "/apis/apps/v1/namespaces/{0}/deployments/vdu2".format(namespace))
    assert live["spec"]["template"]["spec"]["containers"][0]["image"] == new_image

    # 6. Terminate a VNF instance
    result = flow.terminate_vnf_instance(namespace, inst_id, flow.request(os.path.join(CHANGE, "change_vnfpkg_terminate.json")))
    # Tacker: self.assertEqual(202, resp.status_code); self.wait_lcmocc_complete(lcmocc_id)
    completed(result, "TERMINATE")
    assert "instantiatedVnfInfo" not in result["vnf_instance"]  # vdu_reses with it

    # 7. Delete a VNF instance
    result = flow.delete_vnf_instance(namespace, inst_id)
    # Tacker: self.assertEqual(204, resp.status_code); then show: self.assertEqual(404, resp.status_code)
    deleted(flow, result, namespace, inst_id)
    # Tacker: self.check_package_usage(self.new_pkg, 'NOT_IN_USE') -- no NFVO, no usageState of a package.


def test_change_vnfpkg_failed_and_rollback(flow, packages, kube):
    new, namespace, inst_id, body, expected_inst_attrs = instantiated_for_change(flow, packages)
    vnfc_resource_infos = body["instantiatedVnfInfo"]["vnfcResourceInfo"]
    before_resource_ids = [vnfc_info["computeResource"]["resourceId"] for vnfc_info in vnfc_resource_infos]

    # 4. Change Current VNF Package (will fail)
    # Kept difference: change_vnfpkg_error.json names Files/new_kubernetes/not_exist_deployment.yaml, which the new
    # package lacks: refused before anything is written, no op occ (Tacker fails it later, FAILED_TEMP).
    refused = flow.change_vnfpkg(namespace, inst_id, new, flow.request(os.path.join(CHANGE, "change_vnfpkg_error.json")))
    assert refused.get("failed") and "not_exist_deployment.yaml" in refused["msg"], refused.get("msg")
    assert "vnf_lcm_op_occ" not in refused, refused["vnf_lcm_op_occ"]
    # The failure Tacker rolls back, caused otherwise (no interface script of the new VNFD runs in a change of package):
    # a quota of the VNF's namespace that its two pods fill, so the rollout cannot create its surge pod and does not
    # finish within wait_timeout, after the change's first write.
    quota_path = "/api/v1/namespaces/{0}/resourcequotas".format(namespace)
    kube.call("POST", quota_path, {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "two-pods"},
                                   "spec": {"hard": {"pods": "2"}}})
    deadline = time.monotonic() + 30
    while (kube.call("GET", quota_path + "/two-pods").get("status") or {}).get("used", {}).get("pods") != "2":
        assert time.monotonic() < deadline, "the quota controller did not count the pods"
        time.sleep(0.2)
    result = flow.change_vnfpkg(namespace, inst_id, new, flow.request(os.path.join(CHANGE, "change_vnfpkg.json")), wait_timeout=FAILING_WAIT)
    # Tacker: self.assertEqual(202, resp.status_code); self.wait_lcmocc_failed_temp(lcmocc_id)
    lcmocc_id = failed_temp(flow, result, namespace, inst_id, "CHANGE_VNFPKG", "Deployment vdu2")

    # 5. Rollback Change Current VNF Package operation
    result = flow.rollback_lcmocc(namespace, inst_id, lcmocc_id)
    # Tacker: self.assertEqual(202, resp.status_code); self.wait_lcmocc_rolled_back(lcmocc_id)
    rolled_back(result, lcmocc_id)
    # The quota goes once the rollout is rolled back (before, the stalled rollout would go on by itself).
    kube.call("DELETE", quota_path + "/two-pods")

    # 6. Show VNF instance
    body, _occs = flow.show_vnf_instance(namespace, inst_id)
    # Tacker: self.check_resp_body(body, expected_inst_attrs)
    check_resp_body(body, expected_inst_attrs)
    vnfc_resource_infos = body["instantiatedVnfInfo"]["vnfcResourceInfo"]
    after_resource_ids = [vnfc_info["computeResource"]["resourceId"] for vnfc_info in vnfc_resource_infos]
    # Tacker: self.assertEqual(before_resource_ids, after_resource_ids)
    assert after_resource_ids == before_resource_ids

    # 7. Terminate a VNF instance
    result = flow.terminate_vnf_instance(namespace, inst_id, flow.request(os.path.join(CHANGE, "change_vnfpkg_terminate.json")))
    # Tacker: self.assertEqual(202, resp.status_code); self.wait_lcmocc_complete(lcmocc_id)
    completed(result, "TERMINATE")

    # 8. Delete a VNF instance
    result = flow.delete_vnf_instance(namespace, inst_id)
    # Tacker: self.assertEqual(204, resp.status_code); then show: self.assertEqual(404, resp.status_code)
    deleted(flow, result, namespace, inst_id)
    # Tacker: self.check_package_usage(self.new_pkg, 'NOT_IN_USE') -- no NFVO, no usageState of a package.
