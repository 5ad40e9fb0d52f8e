# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Crash consistency at every write: an operation's module SIGKILLed right after its k-th write to the Kubernetes API,
then the documented recovery, then the invariants.

A run with the write gate counting (``count``) gives N, the writes of a whole run, and the state it ends in; ``case``
then takes a fresh instance (set up without the gate) in a fresh namespace, lets k writes through, kills the module
while the (k+1)-th is held, denies it, recovers (``vnf_lcm_op_occ`` retry or rollback; a re-run of vnf_delete, or of
an instantiate that left no record; or ``fail``, which ends it where it stopped) and checks: the op occ ended as chosen
and none is left running; the record equals the live objects (VNFCs = live pods, levels = replicas, images,
ConfigMap/Secret content); a rollback leaves the state from before the operation, a retry the state of the whole run;
a terminate leaves only the record and its name claim.

The package's namespace exists before the operation (the request's namespace): every write is namespaced, and so
seen by the gate (a Namespace the instantiate created would be a cluster-scoped write outside it).
"""

from __future__ import annotations

import base64
import os
import time
import urllib.parse
import uuid

from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.record import name_claim_name
from ansible_collections.nfv.vnflcm.tests.integration.crash_sweep import Case, differences, kill_when_held
from ansible_collections.nfv.vnflcm.tests.integration.faults import wait_for
from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_faults import record
from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_packages import build_package, config_map, def_files, deployment
from ansible_collections.nfv.vnflcm.tests.integration.k8s.write_gate import WriteGate, record_write, rollback_write

VNFD_IDS = {"v1": "5c0d0e1f-0000-4000-8000-00000000c5a1", "v2": "5c0d0e1f-0000-4000-8000-00000000c5a2",
            "v3": "5c0d0e1f-0000-4000-8000-00000000c5a3"}


def secret(name, data):
    return {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": name}, "type": "Opaque",
            "data": {key: base64.b64encode(value.encode()).decode() for key, value in data.items()}}


def files(mode, password, image1, image2):
    """One ConfigMap, one Secret and two Deployments (VDU1 reads the ConfigMap, VDU2 the Secret)."""
    vdu2 = deployment("vdu2", image2)
    vdu2["spec"]["template"]["spec"]["containers"][0]["envFrom"] = [{"secretRef": {"name": "sec-vdu2"}}]
    return {"config.yaml": [config_map("cm-vdu1", {"mode": mode}), secret("sec-vdu2", {"password": password})],
            "vdus.yaml": [deployment("vdu1", image1, env_key=("cm-vdu1", "mode")), vdu2]}


# v1 is instantiated; v2 is the container update's package (new content, new image of vdu1); v3 the change of package's.
FILES = {"v1": files("a", "one", "app:1.0", "app:1.0"), "v2": files("b", "two", "app:2.0", "app:1.0"),
         "v3": files("c", "three", "app:3.0", "app:3.0")}
OPERATIONS = ("instantiate", "scale", "scale_to_level", "heal", "container_update", "change_pkg", "terminate", "vnf_delete")
# The operations vnf_lcm_op_occ can roll back on Kubernetes.
ROLLBACK = ("instantiate", "scale", "scale_to_level", "container_update", "change_pkg")
MODULES = {"instantiate": "vnf_instantiate", "scale": "vnf_scale", "scale_to_level": "vnf_scale_to_level", "heal": "vnf_heal",
           "container_update": "vnf_modify", "change_pkg": "vnf_change_pkg", "terminate": "vnf_terminate", "vnf_delete": "vnf_delete"}
# The op occ each operation records (vnf_delete records none).
OP_OCCS = {"instantiate": "INSTANTIATE", "scale": "SCALE", "scale_to_level": "SCALE_TO_LEVEL", "heal": "HEAL", "container_update": "MODIFY_INFO",
           "change_pkg": "CHANGE_VNFPKG", "terminate": "TERMINATE"}
INSTANCE_NAME = "crash"
KINDS = (("configmaps", "/api/v1"), ("secrets", "/api/v1"), ("deployments", "/apis/apps/v1"))
OWNED = "vnflcm.nfv/instance-id"
SETTLE = 90
# The operations that keep rollback data (a Secret beside the record) while they run, and its name in a snapshot.
KEEPS_ROLLBACK_DATA = ("container_update", "change_pkg")
ROLLBACK_DATA = "secrets/<record>-rollback"


def packages(multi_ns, folder):
    return {version: build_package(multi_ns, os.path.join(str(folder), version), VNFD_IDS[version], FILES[version]) for version in FILES}


def instance_of(kube, namespace):
    found = record(kube, namespace)
    return (found[0], found[1]) if found else (None, [])


def live_pods(kube, namespace):
    """``{pod name: app}`` of the namespace's pods not being deleted."""
    return {pod["metadata"]["name"]: pod["metadata"]["labels"].get("app")
            for pod in kube.call("GET", "/api/v1/namespaces/{0}/pods".format(namespace))["items"] if not pod["metadata"].get("deletionTimestamp")}


def snapshot(kube, namespace):
    """What the crash must not change unnoticed, free of names that differ between instances: the instance's objects
    (Deployments: replicas and images; ConfigMaps and Secrets: content; its record Secrets: there or not), the pods per
    Deployment, and the record's state, VNFD, scale levels and VNFCs per VDU."""
    instance, occs = instance_of(kube, namespace)
    instance_id = instance["id"] if instance else None
    objects = {}
    for kind, base in KINDS:
        query = "?labelSelector=" + urllib.parse.quote(OWNED)
        for item in kube.call("GET", "{0}/namespaces/{1}/{2}{3}".format(base, namespace, kind, query))["items"]:
            name = item["metadata"]["name"]
            if item["metadata"].get("deletionTimestamp"):
                name += " (being deleted)"
            if instance_id and name.startswith("vnflcm-" + instance_id):
                objects["secrets/<record>" + name[len("vnflcm-" + instance_id):]] = True
            elif name.startswith("vnflcm-"):
                objects["{0}/{1}".format(kind, name)] = True
            elif kind == "deployments":
                objects["deployments/" + name] = (item["spec"]["replicas"], [c["image"] for c in item["spec"]["template"]["spec"]["containers"]])
            else:
                objects["{0}/{1}".format(kind, name)] = item.get("data")
    pods = {}
    for app in live_pods(kube, namespace).values():
        pods[app] = pods.get(app, 0) + 1
    state = {"objects": objects, "pods": pods, "instantiationState": None}
    if instance:
        info = instance.get("instantiatedVnfInfo") or {}
        vnfcs = {}
        for vnfc in info.get("vnfcResourceInfo") or []:
            vnfcs[vnfc["vduId"]] = vnfcs.get(vnfc["vduId"], 0) + 1
        state.update(instantiationState=instance["instantiationState"], vnfdId=instance["vnfdId"], vnfcs=vnfcs,
                     levels={item["aspectId"]: item["scaleLevel"] for item in info.get("scaleStatus") or []},
                     running=[occ["id"] for occ in occs if occ["operationState"] in ("STARTING", "PROCESSING", "ROLLING_BACK")])
    return state


def record_vs_live(kube, namespace):
    """Where the record and the live objects disagree: the VNFCs' pods against the live pods, the levels against the
    replicas (one pod at level 0, one more a level: the VNFD's deltas), [] when they agree."""
    instance, _occs = instance_of(kube, namespace)
    if not instance or instance["instantiationState"] != "INSTANTIATED":
        return []
    info = instance["instantiatedVnfInfo"]
    problems = []
    recorded = sorted(vnfc["computeResource"]["resourceId"] for vnfc in info.get("vnfcResourceInfo") or [])
    live = sorted(live_pods(kube, namespace))
    if recorded != live:
        problems.append("VNFCs recorded {0} != live pods {1}".format(recorded, live))
    for item in info.get("scaleStatus") or []:
        name = item["aspectId"].split("_")[0]
        replicas = kube.call("GET", "/apis/apps/v1/namespaces/{0}/deployments/{1}".format(namespace, name))["spec"]["replicas"]
        if replicas != item["scaleLevel"] + 1:
            problems.append("{0} at level {1} but {2} replicas".format(item["aspectId"], item["scaleLevel"], replicas))
    return problems


class Sweep:
    """The sweep on one lab: ``run(module, args, background=False)`` runs one task (the ``ansible_task`` fixture's
    contract); ``namespaces()`` gives a fresh namespace, ``folder`` is scratch space for the gate's certificates."""

    def __init__(self, kube, run, kubeconfig, package_dirs, folder, new_namespace):
        self.kube, self.run, self.kubeconfig, self.packages, self.folder = kube, run, kubeconfig, package_dirs, folder
        self.new_namespace = new_namespace
        self.counted = {}
        # {operation: [namespaces in the state it starts from]}: what a rolled back case, a heal or a terminate left.
        self.reusable = {}
        self.share = False
        # Namespaces whose instance a case terminated: no operation starts from them.
        self.used_up = set()

    def auth(self, namespace, instance_id=None):
        args = {"kubeconfig": self.kubeconfig, "namespace": namespace, "wait_timeout": 120, "wait_sleep": 1}
        if instance_id:
            args["vnf_instance_id"] = instance_id
        return args

    def instantiate_args(self, namespace):
        request = {"flavourId": "simple", "instantiationLevelId": "instantiation_level_1",
                   "additionalParams": {"lcm-kubernetes-def-files": def_files(FILES["v1"]), "namespace": namespace}}
        return dict(self.auth(namespace), package=self.packages["v1"], vnf_instance_name=INSTANCE_NAME, request=request)

    def fresh(self, operation):
        """A namespace left by a case that ended where ``operation`` starts (``reusable``), else a fresh one with what it
        starts from (nothing for an instantiate, a terminated instance for a vnf_delete, else an instantiated one),
        set up without the gate."""
        if self.reusable.get(operation):
            return self.reusable[operation].pop()
        namespace = self.new_namespace()
        if operation == "instantiate":
            return namespace
        done = self.run("vnf_instantiate", self.instantiate_args(namespace))
        assert done.get("failed") is not True, done.get("msg")
        if operation == "vnf_delete":
            done = self.run("vnf_terminate", self.auth(namespace, done["vnf_instance"]["id"]))
            assert done.get("failed") is not True, done.get("msg")
        return namespace

    def operation_args(self, operation, namespace):
        if operation == "instantiate":
            return self.instantiate_args(namespace)
        instance, _occs = instance_of(self.kube, namespace)
        args = self.auth(namespace, instance["id"])
        if operation == "scale":
            args["request"] = {"type": "SCALE_OUT", "aspectId": "vdu1_aspect"}
        elif operation == "scale_to_level":
            args["request"] = {"instantiationLevelId": "instantiation_level_2"}
        elif operation == "heal":
            args["request"] = {"vnfcInstanceId": [instance["instantiatedVnfInfo"]["vnfcInfo"][0]["id"]]}
        elif operation == "container_update":
            args.update(package=self.packages["v2"], request={"vnfdId": VNFD_IDS["v2"]})
        elif operation == "change_pkg":
            args.update(package=self.packages["v3"], request={"vnfdId": VNFD_IDS["v3"], "additionalParams": {
                "upgrade_type": "RollingUpdate", "lcm-kubernetes-def-files": def_files(FILES["v3"]),
                "vdu_params": [{"vdu_id": "VDU1"}, {"vdu_id": "VDU2"}]}})
        return args

    def count(self, operation):
        """A whole run counted by the gate: ``{"writes": [...], "before": snapshot, "after": snapshot}`` (kept)."""
        if operation not in self.counted:
            namespace = self.fresh(operation)
            before = self.settled(namespace)
            with WriteGate(self.kube, namespace, self.folder) as gate:
                done = self.run(MODULES[operation], self.operation_args(operation, namespace))
            assert done.get("failed") is not True, done.get("msg")
            self.counted[operation] = {"writes": list(gate.writes), "before": before, "after": self.settled(namespace)}
            if self.share and operation in ("heal", "terminate"):
                self.keep(operation, "retry", namespace)
        return self.counted[operation]

    def first_vim_write_k(self, operation):
        """k of the operation's first write to what the VNF runs (not to its record, claim or rollback data)."""
        for index, (_operation, resource, name) in enumerate(self.count(operation)["writes"], 1):
            if not (resource == "secrets" and (name or "").startswith("vnflcm-")):
                return index
        return None

    def sampled_ks(self, operation):
        """k = 1, the last k (N - 1), and right after the record's first write and the rollback data's write."""
        writes = self.count(operation)["writes"]
        ks = {1, len(writes) - 1}
        ks.update(index for index in (record_write(writes), rollback_write(writes)) if index)
        return sorted(k for k in ks if 0 < k < len(writes))

    def settled(self, namespace):
        """The snapshot once the pods match the record (kwok needs a moment to start and remove them)."""
        try:
            wait_for(lambda: not record_vs_live(self.kube, namespace), "the pods to match the record", timeout=30, sleep=0.5)
        except AssertionError:
            pass
        return snapshot(self.kube, namespace)

    def case(self, operation, k, branch):
        """One kill at k and its recovery by ``branch`` ("retry" or "rollback")."""
        result = Case(operation, k, branch)
        started = time.monotonic()
        counted = self.count(operation)
        namespace = self.fresh(operation)
        module, args = MODULES[operation], self.operation_args(operation, namespace)
        with WriteGate(self.kube, namespace, self.folder, hold_after=k) as gate:
            task = self.run(module, args, background=True)
            if not kill_when_held(task, gate, module):
                result.skipped, result.passed = True, True
                result.seconds = time.monotonic() - started
                return result
            result.held = tuple(gate.denied)
        instance, occs = instance_of(self.kube, namespace)
        result.left = "record: {0}; live: {1}".format(
            "none" if instance is None else "{0}, op occ {1} {2}".format(
                instance["instantiationState"], occs[0]["operation"] if occs else "-", occs[0]["operationState"] if occs else "-"),
            sorted(snapshot(self.kube, namespace)["objects"]))
        result.problems = self.recover(operation, branch, namespace, args, instance, occs, counted)
        result.passed = not result.problems
        result.seconds = time.monotonic() - started
        if result.passed and self.share and namespace not in self.used_up:
            self.keep(operation, branch, namespace)
        return result

    def keep(self, operation, branch, namespace):
        """Share a namespace whose state is where an operation starts from: one instance setup fewer for it."""
        if operation == "terminate":
            self.reusable.setdefault("vnf_delete", []).append(namespace)
        elif operation == "heal" or (branch == "rollback" and operation != "instantiate"):
            self.reusable.setdefault(operation, []).append(namespace)

    def recover(self, operation, branch, namespace, args, instance, occs, counted):
        """The documented recovery, then the invariants: the problems found ([] when none)."""
        if branch == "fail":
            return self.failed_as_live(namespace, instance, occs)
        problems = []
        ours = bool(occs) and occs[0]["operation"] == OP_OCCS.get(operation)
        completed = ours and occs[0]["operationState"] == "COMPLETED"
        if not ours:
            # vnf_delete (no op occ), or killed before its op occ was recorded: the documented recovery is a re-run.
            done = self.run(MODULES[operation], args)
            expected, expected_state = counted["after"], OP_OCCS.get(operation) and "COMPLETED"
        else:
            call = dict(self.auth(namespace, instance["id"]), action=branch)
            # A retry of these needs the package (vnf_lcm_op_occ's documentation): the one the operation was given.
            call["package"] = args.get("package")
            done = self.run("vnf_lcm_op_occ", call)
            # Killed after it recorded its completion: nothing to act on (a retry says so, a rollback refuses).
            expected = counted["after"] if branch == "retry" or completed else counted["before"]
            expected_state = "COMPLETED" if completed else {"retry": "COMPLETED", "rollback": "ROLLED_BACK"}[branch]
        if done.get("failed") and not completed:
            return ["recovery failed: {0}".format(str(done.get("msg"))[:400])]
        _instance, occs = instance_of(self.kube, namespace)
        if expected_state and (not occs or occs[0]["operation"] != OP_OCCS[operation] or occs[0]["operationState"] != expected_state):
            head = occs[0] if occs else {}
            problems.append("op occ {0} {1}, expected {2}".format(head.get("operation"), head.get("operationState"), expected_state))
        if completed and operation in KEEPS_ROLLBACK_DATA:
            # Killed between the record of its end and the deletion of its rollback data: that data may be left, as
            # the op occ has ended; the instance's next change replaces it, and a terminate removes it (checked after).
            live = snapshot(self.kube, namespace)["objects"]
            expected = dict(expected, objects={key: value for key, value in expected["objects"].items() if key != ROLLBACK_DATA})
            if ROLLBACK_DATA in live:
                expected["objects"][ROLLBACK_DATA] = live[ROLLBACK_DATA]
        if operation == "instantiate" and expected is not counted["after"]:
            # Rolled back: no object of the package left; the record stays, NOT_INSTANTIATED.
            expected = {"objects": {"secrets/<record>": True, "secrets/" + name_claim_name(INSTANCE_NAME): True}, "pods": {},
                        "instantiationState": "NOT_INSTANTIATED", "running": []}
        try:
            wait_for(lambda: not differences(self.compared(namespace, expected), expected) and not record_vs_live(self.kube, namespace),
                     "the state expected", timeout=SETTLE, sleep=1)
        except AssertionError:
            problems.extend(differences(self.compared(namespace, expected), expected) + record_vs_live(self.kube, namespace))
        if not problems and ROLLBACK_DATA in expected["objects"]:
            problems.extend(self.terminated_without_rollback_data(namespace, instance["id"]))
        return problems

    def failed_as_live(self, namespace, instance, occs):
        """``fail`` ends the operation where the kill stopped it: its op occ FAILED, none running, and the record = live
        (it reads the cluster again: VNFCs = live pods, levels = replicas)."""
        if not occs or occs[0]["operationState"] in ("COMPLETED", "FAILED", "ROLLED_BACK"):
            return ["no op occ left to fail: {0}".format(occs[0]["operationState"] if occs else "none")]
        done = self.run("vnf_lcm_op_occ", dict(self.auth(namespace, instance["id"]), action="fail"))
        if done.get("failed"):
            return ["fail failed: {0}".format(str(done.get("msg"))[:400])]
        _instance, occs = instance_of(self.kube, namespace)
        problems = [] if occs[0]["operationState"] == "FAILED" else ["op occ {0}, expected FAILED".format(occs[0]["operationState"])]
        problems.extend(record_vs_live(self.kube, namespace))
        return problems

    def terminated_without_rollback_data(self, namespace, instance_id):
        """The rollback data a run killed after its end record left goes with the VNF: a terminate removes it."""
        self.used_up.add(namespace)
        done = self.run("vnf_terminate", self.auth(namespace, instance_id))
        if done.get("failed"):
            return ["terminate after the left rollback data failed: {0}".format(str(done.get("msg"))[:400])]
        left = ROLLBACK_DATA in snapshot(self.kube, namespace)["objects"]
        return ["the rollback data outlived the terminate"] if left else []

    def compared(self, namespace, expected):
        actual = snapshot(self.kube, namespace)
        # The name claim's name is the instance name's: compared by presence as any record Secret.
        return {key: value for key, value in actual.items() if key in expected or key in ("objects", "pods", "running", "instantiationState")}


def new_namespace_maker(kube, prefix):
    """``make()``: a fresh namespace (with its default ServiceAccount), and the list of those made."""
    made = []

    def make():
        name = "{0}-{1}".format(prefix, uuid.uuid4().hex[:6])
        kube.call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}})
        wait_for(lambda: kube.request("GET", "/api/v1/namespaces/{0}/serviceaccounts/default".format(name))[0] == 200,
                 "the default ServiceAccount", timeout=30, sleep=0.1)
        made.append(name)
        return name

    return make, made
