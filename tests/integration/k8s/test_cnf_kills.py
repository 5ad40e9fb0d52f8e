# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The module process killed (SIGKILL) in the middle of a scale, a scale to a level, a terminate, a delete of the
identifier and an instantiate (right after its name's claim), on the Kubernetes lab; each time the documented call
finishes or undoes it, with nothing left over.

Each operation is held at a known point before it is killed, never by timing: a scale or scale to level waits for pods
that a quota of no more pods keeps from starting (its replicas are written); a terminate waits for a ConfigMap that a
finalizer of the test keeps from going (all its deletes are sent); a vnf_delete waits for the answer to its DELETE of
the record, which an admission webhook of the test holds; an instantiate waits for the answer to its record's create,
which the write gate (write_gate.py) holds after its claim. One CNF is shared by the tests of the file, in their order;
another, in a namespace of its own, shows that nothing of another instance is touched.
"""

from __future__ import annotations

import os
import signal
import threading
import urllib.parse
import uuid

import pytest

from labk8s.kubeapi import Api

from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.record import name_claim_name
from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_faults import block_pods, head, kill_runner, record, unblock_pods, wait_for
from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_packages import build_package, config_map, def_files, deployment
from ansible_collections.nfv.vnflcm.tests.integration.crash_sweep import module_process
from ansible_collections.nfv.vnflcm.tests.integration.k8s.write_gate import Webhook, WriteGate

VNFD_ID = "5c0d0e1f-0000-4000-8000-00000000a111"
FILES = {"config.yaml": [config_map("cm-vdu1", {"mode": "a"})],
         "vdus.yaml": [deployment("vdu1", "app:1.0", env_key=("cm-vdu1", "mode")), deployment("vdu2", "app:1.0")]}
HOLD = "vnflcm-test.nfv/hold"
# Where the instance's label can be: its objects, its pods, its record and rollback Secrets.
LABELLED = ("/api/v1/namespaces/{ns}/secrets", "/api/v1/namespaces/{ns}/configmaps", "/apis/apps/v1/namespaces/{ns}/deployments",
            "/apis/apps/v1/namespaces/{ns}/replicasets", "/api/v1/namespaces/{ns}/pods")


@pytest.fixture(scope="module")
def spaces(k8s_lab, tacker_packages, tmp_path_factory):
    """Two namespaces for the file (the CNF's, and the bystander's) and the package, deleted at the end."""
    api = Api(k8s_lab.kubeconfig)
    names = {}
    for role in ("cnf", "bystander"):
        names[role] = "kills-{0}-{1}".format(role, uuid.uuid4().hex[:6])
        api.call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": names[role]}})
    package = build_package(os.path.join(tacker_packages, "test_cnf_multi_ns"), str(tmp_path_factory.mktemp("kills") / "pkg"), VNFD_ID, FILES)
    yield dict(names, package=package, kubeconfig=str(k8s_lab.kubeconfig))
    for name in names.values():
        api.request("DELETE", "/api/v1/namespaces/{0}".format(name))


def instantiated(ansible_task, kube, spaces, role):
    """Module arguments for the instance of ``spaces[role]``, instantiated at instantiation_level_1 unless it is already."""
    namespace = spaces[role]
    auth = {"kubeconfig": spaces["kubeconfig"], "wait_timeout": 120, "wait_sleep": 1}
    found = record(kube, namespace)
    if found is None or found[0]["instantiationState"] != "INSTANTIATED":
        request = {"flavourId": "simple", "instantiationLevelId": "instantiation_level_1",
                   "additionalParams": {"lcm-kubernetes-def-files": def_files(FILES), "namespace": namespace}}
        done = ansible_task("vnf_instantiate", dict(auth, package=spaces["package"], vnf_instance_name=role, request=request))
        assert done.get("failed") is not True, done.get("msg")
        found = (done["vnf_instance"], None)
    return dict(auth, namespace=namespace, vnf_instance_id=found[0]["id"])


@pytest.fixture
def cnf(ansible_task, kube, spaces):
    return instantiated(ansible_task, kube, spaces, "cnf")


@pytest.fixture
def bystander(ansible_task, kube, spaces):
    """The other instance, and its objects' resourceVersions, which no test here may change."""
    args = instantiated(ansible_task, kube, spaces, "bystander")
    return args, versions(kube, spaces["bystander"])


def versions(kube, namespace):
    """``{kind/name: resourceVersion}`` of what carries an instance label in the namespace (pods: their uid, as the
    lab's node may update their status)."""
    query = "?labelSelector=" + urllib.parse.quote("vnflcm.nfv/instance-id")
    return {"{0}/{1}".format(path.rsplit("/", 1)[-1], item["metadata"]["name"]):
            item["metadata"]["uid"] if path.endswith("/pods") else item["metadata"]["resourceVersion"]
            for path in LABELLED for item in kube.call("GET", path.format(ns=namespace) + query)["items"]}


def labelled(kube, namespace, instance_id):
    """Every object of the namespace labelled with the instance id, terminating ones too, as ``kind/name``."""
    query = "?labelSelector=" + urllib.parse.quote("vnflcm.nfv/instance-id=" + instance_id)
    return sorted("{0}/{1}".format(path.rsplit("/", 1)[-1], item["metadata"]["name"])
                  for path in LABELLED for item in kube.call("GET", path.format(ns=namespace) + query)["items"])


def replicas(kube, namespace):
    return {name: kube.call("GET", "/apis/apps/v1/namespaces/{0}/deployments/{1}".format(namespace, name))["spec"]["replicas"]
            for name in ("vdu1", "vdu2")}


def live_pods(kube, namespace):
    """``{deployment: number of pods not being deleted}``."""
    counts = {}
    for pod in kube.call("GET", "/api/v1/namespaces/{0}/pods".format(namespace))["items"]:
        if not pod["metadata"].get("deletionTimestamp"):
            app = pod["metadata"]["labels"]["app"]
            counts[app] = counts.get(app, 0) + 1
    return counts


def levels(instance):
    return {item["aspectId"]: item["scaleLevel"] for item in instance["instantiatedVnfInfo"]["scaleStatus"]}


def killed_while(ansible_task, kube, namespace, module, args, operation, held):
    """``module`` started in the background, SIGKILLed once its ``operation`` op occ runs and ``held()``: that op occ."""
    task = ansible_task(module, args, background=True)

    def running():
        occ = head(kube, namespace)
        return occ if occ and occ["operation"] == operation and occ["operationState"] == "PROCESSING" and occ.get("lease") and held() else None

    occ = wait_for(running, "{0} to run and wait".format(operation), sleep=0.05)
    kill_runner(occ)
    task.wait()
    return occ


def left_by_a_killed_run(ansible_task, kube, args, occ):
    """What the record and vnf_info say of a killed op occ: still PROCESSING, its runner gone."""
    shown = ansible_task("vnf_info", args)["vnf_lcm_op_occs"][0]
    assert (shown["id"], shown["operationState"]) == (occ["id"], "PROCESSING"), shown
    assert shown["lease"]["status"] == "runner gone" and "has exited" in shown["lease"]["statusReason"], shown["lease"]


def ended_clean(kube, args, occ, state):
    """The op occ ended ``state`` without a lease, and no rollback data is left."""
    ended = head(kube, args["namespace"])
    assert (ended["id"], ended["operationState"]) == (occ["id"], state) and "lease" not in ended, ended
    assert kube.request("GET", "/api/v1/namespaces/{0}/secrets/vnflcm-{1}-rollback".format(args["namespace"], args["vnf_instance_id"]))[0] == 404


def test_a_killed_scale_is_retried_to_its_level(ansible_task, kube, cnf, bystander):
    ns = cnf["namespace"]
    before = levels(record(kube, ns)[0])
    pods = sum(live_pods(kube, ns).values())
    # The pods there are now may stay; the scale out's new one cannot start.
    block_pods(kube, ns, count=pods)
    try:
        occ = killed_while(ansible_task, kube, ns, "vnf_scale", dict(cnf, request={"type": "SCALE_OUT", "aspectId": "vdu1_aspect"}), "SCALE",
                           lambda: replicas(kube, ns)["vdu1"] == before["vdu1_aspect"] + 2)
        left_by_a_killed_run(ansible_task, kube, cnf, occ)
        assert levels(record(kube, ns)[0]) == before
        # The same scale run again is refused, saying what to do; on the way it records the killed op occ FAILED_TEMP.
        refused = ansible_task("vnf_scale", dict(cnf, request={"type": "SCALE_OUT", "aspectId": "vdu1_aspect"}))
        assert refused.get("failed") is True and "it is FAILED_TEMP now: retry, roll back or fail it" in refused["msg"], refused.get("msg")
        assert (head(kube, ns)["id"], head(kube, ns)["operationState"]) == (occ["id"], "FAILED_TEMP") and "lease" not in head(kube, ns)
    finally:
        unblock_pods(kube, ns)

    retried = ansible_task("vnf_lcm_op_occ", dict(cnf, action="retry"))
    assert retried.get("failed") is not True, retried.get("msg")
    ended_clean(kube, cnf, occ, "COMPLETED")
    assert levels(retried["vnf_instance"]) == dict(before, vdu1_aspect=before["vdu1_aspect"] + 1)
    assert replicas(kube, ns)["vdu1"] == before["vdu1_aspect"] + 2
    assert len(retried["vnf_instance"]["instantiatedVnfInfo"]["vnfcResourceInfo"]) == sum(replicas(kube, ns).values())
    wait_for(lambda: live_pods(kube, ns) == replicas(kube, ns), "a pod per replica", timeout=60, sleep=0.5)
    # A retry of an op occ that ended does nothing.
    again = ansible_task("vnf_lcm_op_occ", dict(cnf, action="retry", vnf_lcm_op_occ_id=occ["id"]))
    assert again.get("changed") is False, again
    assert versions(kube, bystander[0]["namespace"]) == bystander[1]


def test_a_killed_scale_to_level_is_rolled_back_to_the_levels_before(ansible_task, kube, cnf, bystander):
    ns = cnf["namespace"]
    before_levels, before_replicas = levels(record(kube, ns)[0]), replicas(kube, ns)
    block_pods(kube, ns, count=sum(live_pods(kube, ns).values()))
    try:
        occ = killed_while(ansible_task, kube, ns, "vnf_scale_to_level", dict(cnf, request={"instantiationLevelId": "instantiation_level_2"}),
                           "SCALE_TO_LEVEL", lambda: replicas(kube, ns) == {"vdu1": 3, "vdu2": 3})
        left_by_a_killed_run(ansible_task, kube, cnf, occ)
        # Pods cannot start yet: the rollback only scales down.
        rolled = ansible_task("vnf_lcm_op_occ", dict(cnf, action="rollback"))
        assert rolled.get("failed") is not True, rolled.get("msg")
    finally:
        unblock_pods(kube, ns)
    assert "has exited" in rolled["vnf_lcm_op_occ"]["error"]["detail"]
    ended_clean(kube, cnf, occ, "ROLLED_BACK")
    assert replicas(kube, ns) == before_replicas
    assert levels(record(kube, ns)[0]) == before_levels
    wait_for(lambda: live_pods(kube, ns) == before_replicas, "the pods of the levels before", timeout=60, sleep=0.5)
    # The VNFCs recorded are the pods there are.
    vnfcs = ansible_task("vnf_info", cnf)["vnf_instances"][0]["instantiatedVnfInfo"]["vnfcResourceInfo"]
    assert len(vnfcs) == sum(before_replicas.values())
    assert versions(kube, bystander[0]["namespace"]) == bystander[1]


def test_a_killed_terminate_is_retried_and_leaves_only_the_record_and_its_name(ansible_task, kube, cnf, bystander):
    ns, instance_id = cnf["namespace"], cnf["vnf_instance_id"]
    config = "/api/v1/namespaces/{0}/configmaps/cm-vdu1".format(ns)
    merge = {"Content-Type": "application/merge-patch+json"}
    # The ConfigMap cannot go while the test's finalizer is on it: the terminate has sent every delete and waits.
    assert kube.request("PATCH", config, {"metadata": {"finalizers": [HOLD]}}, headers=merge)[0] == 200
    try:
        occ = killed_while(ansible_task, kube, ns, "vnf_terminate", cnf, "TERMINATE",
                           lambda: kube.call("GET", config)["metadata"].get("deletionTimestamp"))
        left_by_a_killed_run(ansible_task, kube, cnf, occ)
        assert record(kube, ns)[0]["instantiationState"] == "INSTANTIATED"
        # Another operation is refused with what to do, before its plan reads what the killed terminate deleted
        # (planned first, a scale failed on its dry run of the deleted Deployment instead).
        refused = ansible_task("vnf_scale", dict(cnf, request={"type": "SCALE_OUT", "aspectId": "vdu1_aspect"}))
        assert refused.get("failed") is True and "it is FAILED_TEMP now: retry, roll back or fail it" in refused["msg"], refused.get("msg")
        # Terminating again too: the terminate that was killed must be finished (or failed) first.
        refused = ansible_task("vnf_terminate", cnf)
        assert refused.get("failed") is True and "is FAILED_TEMP; retry, roll back or fail it first" in refused["msg"], refused.get("msg")
    finally:
        kube.request("PATCH", config, {"metadata": {"finalizers": None}}, headers=merge)

    retried = ansible_task("vnf_lcm_op_occ", dict(cnf, action="retry"))
    assert retried.get("failed") is not True, retried.get("msg")
    ended_clean(kube, cnf, occ, "COMPLETED")
    assert retried["vnf_instance"]["instantiationState"] == "NOT_INSTANTIATED"
    assert labelled(kube, ns, instance_id) == sorted(["secrets/vnflcm-" + instance_id, "secrets/" + name_claim_name("cnf")])
    assert live_pods(kube, ns) == {}
    again = ansible_task("vnf_terminate", cnf)
    assert again.get("failed") is not True and again["changed"] is False, again.get("msg")
    assert versions(kube, bystander[0]["namespace"]) == bystander[1]


class RecordDeleteHold(Webhook):
    """A webhook for DELETEs of one instance's record Secret: while ``holding``, it keeps the apiserver (and so the
    caller) waiting for its answer until ``answer(allowed)``; dry runs and other times pass."""

    def __init__(self, kube, namespace, instance_id, folder):
        super().__init__(kube, namespace, folder, "kills-{0}".format(namespace))
        self.instance_id = instance_id
        self.holding = True
        self.arrived, self.decided = threading.Event(), threading.Event()
        self.allowed = False

    def decide(self, request):
        if self.holding and not request.get("dryRun"):
            self.arrived.set()
            self.decided.wait(25)
            return self.allowed, "held by the test"
        return True, ""

    def __enter__(self):
        # Only this record is selected; in force once the apiserver asks it about a dry-run delete of the record.
        path = "/api/v1/namespaces/{0}/secrets/vnflcm-{1}?dryRun=All".format(self.namespace, self.instance_id)
        self.register([{"operations": ["DELETE"], "apiGroups": [""], "apiVersions": ["v1"], "resources": ["secrets"], "scope": "Namespaced"}],
                      object_selector={"matchLabels": {"vnflcm.nfv/instance-id": self.instance_id, "vnflcm.nfv/record": "vnf-instance"}},
                      probe=lambda: self.kube.request("DELETE", path) and "vnflcm-" + self.instance_id)
        return self

    def answer(self, allowed):
        self.allowed = allowed
        self.holding = False
        self.decided.set()

    def __exit__(self, *exc):
        self.answer(False)
        self.close()


def terminated(ansible_task, kube, spaces):
    """The CNF of the file, NOT_INSTANTIATED (terminated here unless the terminate test did it)."""
    args = instantiated(ansible_task, kube, spaces, "cnf") if record(kube, spaces["cnf"]) is None else None
    found = record(kube, spaces["cnf"])
    args = args or {"kubeconfig": spaces["kubeconfig"], "namespace": spaces["cnf"], "vnf_instance_id": found[0]["id"]}
    if found[0]["instantiationState"] == "INSTANTIATED":
        done = ansible_task("vnf_terminate", args)
        assert done.get("failed") is not True, done.get("msg")
    return args


def test_a_killed_delete_of_the_identifier_is_finished_by_a_rerun(ansible_task, kube, spaces, bystander, tmp_path):
    cnf = terminated(ansible_task, kube, spaces)
    ns, instance_id = cnf["namespace"], cnf["vnf_instance_id"]
    with RecordDeleteHold(kube, ns, instance_id, tmp_path) as hold:
        task = ansible_task("vnf_delete", cnf, background=True)
        # Its DELETE of the record has reached the apiserver, which waits for the webhook: the module waits for the answer.
        assert hold.arrived.wait(60), "vnf_delete never deleted the record"
        pid = module_process(task.process.pid, "vnf_delete")
        assert pid, "no vnf_delete module process"
        os.kill(pid, signal.SIGKILL)
        killed = task.wait()
        assert killed.get("failed") is True, killed
        # The DELETE it sent does not go through after all (denied): the record, and so the instance, are still there.
        hold.answer(False)
    assert labelled(kube, ns, instance_id) == ["secrets/vnflcm-" + instance_id]
    listed = ansible_task("vnf_info", {"kubeconfig": cnf["kubeconfig"], "namespace": ns})
    assert [item["instantiationState"] for item in listed["vnf_instances"]] == ["NOT_INSTANTIATED"], listed

    rerun = ansible_task("vnf_delete", cnf)
    assert rerun.get("failed") is not True and rerun["changed"] is True, rerun.get("msg")
    assert rerun["deleted"] == [{"kind": "Secret", "name": "vnflcm-" + instance_id}]
    assert labelled(kube, ns, instance_id) == []
    again = ansible_task("vnf_delete", cnf)
    assert again.get("failed") is not True and again["changed"] is False and again["vnf_instance"] is None, again.get("msg")
    assert versions(kube, bystander[0]["namespace"]) == bystander[1]
    assert record(kube, bystander[0]["namespace"])[0]["instantiationState"] == "INSTANTIATED"


def killed_after_its_claim(ansible_task, kube, args, folder, while_held=None):
    """An instantiate of ``args`` SIGKILLed with its name's claim written and its record's create held (then denied);
    ``while_held()`` runs while that run lives. The claim Secret the kill left."""
    with WriteGate(kube, args["namespace"], folder, hold_after=1) as gate:
        task = ansible_task("vnf_instantiate", args, background=True)
        assert gate.held.wait(90), "the instantiate never wrote its record"
        assert gate.writes[0][:2] == ("CREATE", "secrets") and gate.writes[0][2] == name_claim_name(args["vnf_instance_name"]), gate.writes
        pid = module_process(task.process.pid, "vnf_instantiate")
        assert pid, "no vnf_instantiate module process"
        # Stopped, not yet killed: its run lives (the claim names it) however long while_held() takes on a busy machine,
        # and the answer to its held write (a denial, at the latest when the webhook's 30 s are up) is never read.
        os.kill(pid, signal.SIGSTOP)
        if while_held:
            while_held()
        assert len(gate.writes) == 2, "written while the run lived: {0}".format(gate.writes)
        os.kill(pid, signal.SIGKILL)
        task.wait()
        gate.release()
    return kube.call("GET", "/api/v1/namespaces/{0}/secrets/{1}".format(args["namespace"], name_claim_name(args["vnf_instance_name"])))


def test_an_instantiate_killed_after_its_name_claim_leaves_a_claim_that_delete_or_terminate_by_name_removes(
        ansible_task, ansible_play, kube, spaces, tmp_path):
    ns = "kills-claim-" + uuid.uuid4().hex[:6]
    kube.call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}})
    by_name = {"kubeconfig": spaces["kubeconfig"], "namespace": ns, "vnf_instance_name": "claimed", "wait_timeout": 120, "wait_sleep": 1}
    request = {"flavourId": "simple", "instantiationLevelId": "instantiation_level_1",
               "additionalParams": {"lcm-kubernetes-def-files": def_files(FILES), "namespace": ns}}
    instantiate = dict(by_name, package=spaces["package"], request=request)
    claim_path = "/api/v1/namespaces/{0}/secrets/{1}".format(ns, name_claim_name("claimed"))
    try:
        def refused_while_its_run_lives():
            shown = ansible_play([("delete", "vnf_delete", by_name), ("terminate", "vnf_terminate", by_name), ("info", "vnf_info", by_name)])
            for name in ("delete", "terminate"):
                assert shown[name].get("failed") is True, shown[name]
                assert "the claim of VNF instance name 'claimed' in namespace {0}: run ".format(ns) in shown[name]["msg"], shown[name]["msg"]
                assert "its run may still write its record" in shown[name]["msg"], shown[name]["msg"]
            assert shown["info"]["vnf_instances"] == [] and shown["info"]["name_claim"]["status"] == "live", shown["info"]

        claim = killed_after_its_claim(ansible_task, kube, instantiate, tmp_path, refused_while_its_run_lives)
        instance_id = claim["metadata"]["labels"]["vnflcm.nfv/instance-id"]
        assert labelled(kube, ns, instance_id) == ["secrets/" + name_claim_name("claimed")]
        # What was reported before: "not found" everywhere, the claim staying. Now vnf_info shows it, its run gone.
        shown = ansible_task("vnf_info", by_name)
        assert shown["vnf_instances"] == [] and shown["name_claim"]["status"] == "runner gone", shown
        assert shown["name_claim"]["vnfInstanceId"] == instance_id and ", gone, no instance" in shown["name_claim"]["note"]

        # Check mode: the plan, the claim untouched.
        checked = ansible_task("vnf_delete", by_name, check=True, diff=True)
        assert checked.get("failed") is not True and checked["changed"] is True, checked.get("msg")
        assert checked["plan"]["delete"] == [{"kind": "Secret", "name": name_claim_name("claimed")}] and checked["deleted"] == []
        assert checked["diff"]["after"] == {} and checked["name_claim"]["vnfInstanceId"] == instance_id
        assert kube.call("GET", claim_path)["metadata"]["resourceVersion"] == claim["metadata"]["resourceVersion"]

        deleted = ansible_task("vnf_delete", by_name)
        assert deleted.get("failed") is not True and deleted["changed"] is True, deleted.get("msg")
        assert deleted["deleted"] == [{"kind": "Secret", "name": name_claim_name("claimed")}] and deleted["vnf_instance"] is None
        assert kube.request("GET", claim_path)[0] == 404 and labelled(kube, ns, instance_id) == []
        again = ansible_task("vnf_delete", by_name)
        assert again.get("failed") is not True and again["changed"] is False, again.get("msg")

        # vnf_terminate by name does the same.
        claim = killed_after_its_claim(ansible_task, kube, instantiate, tmp_path)
        terminated = ansible_task("vnf_terminate", by_name)
        assert terminated.get("failed") is not True and terminated["changed"] is True, terminated.get("msg")
        assert terminated["name_claim"]["vnfInstanceId"] == claim["metadata"]["labels"]["vnflcm.nfv/instance-id"]
        assert kube.request("GET", claim_path)[0] == 404
        again = ansible_task("vnf_terminate", by_name)
        assert again.get("failed") is not True and again["changed"] is False, again.get("msg")
    finally:
        kube.request("DELETE", "/api/v1/namespaces/" + ns)
