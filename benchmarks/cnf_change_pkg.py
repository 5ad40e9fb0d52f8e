#!/usr/bin/env python3
"""Change of VNF package of a CNF: nfv.vnflcm.vnf_change_pkg against `kubectl apply` + `kubectl rollout status`
(or, with --peer kubernetes.core, against a `kubernetes.core.k8s` `apply: true`, `wait: true` task over the def files).

Two packages are generated from Tacker's test_cnf_multi_ns Definitions: 4 Deployments (VDU1..VDU4,
4 replicas each: the VNFD's initial deltas equal the manifests' replicas), a Service and a ConfigMap.
The new package has a new descriptor_id and a new image in every Deployment; nothing else changes.

Per round, two fresh namespaces of the local Kubernetes lab (tools/lab/k8s) get the old package, not
timed: one with nfv.vnflcm.vnf_instantiate (wait: true), the other with `kubectl apply` + `kubectl
rollout status`, so that kubectl later changes objects it applied itself. Then, alternating which goes
first, each is changed to the new package and run again (the re-run):

- ours: one vnf_change_pkg task through ansible-playbook (RollingUpdate, vdu_params VDU1..VDU4), rolling the VDUs one
  at a time (the default) or, with --rollout side_by_side, all four at once (the module's ``rollout`` option);
- baseline: `kubectl apply -f <new def files>` then `kubectl rollout status deployment/<each>`;
- with --peer kubernetes.core, the baseline is what an Ansible user would write instead: one ansible-playbook task,
  `kubernetes.core.k8s` `state: present`, `apply: true`, `wait: true` looped over the new def files (its wait on a
  Deployment ends when the rollout is complete). Its old package is applied with kubectl as above (`apply: true` keeps
  kubectl's last-applied annotation); its reads are not counted (kubernetes.core logs none), its writes are.

Measured per run: wall time; API writes (apiserver audit log, admin user only, so the controllers'
writes do not count, and into the run's namespace only, as others may use the shared lab meanwhile;
server-side dry runs, which store nothing, counted apart); reads (the module's `api_calls`, kubectl's
`-v=6` request log); API calls = reads + writes + dry runs. Availability: while
the run goes, a sampler thread LISTs the namespace's Deployments every --sample-interval seconds, and a
watch on the same Deployments sees every status the controller writes; both keep the minimum
readyReplicas / availableReplicas per Deployment and the minimum of their sum (all VDUs at one instant).

Run: make stage, then with ANSIBLE_COLLECTIONS_PATH set to the staged collections dir (see README.md)
  $(make -s venv-path)/bin/python benchmarks/cnf_change_pkg.py [--rounds 5] [--rollout side_by_side] [--baseline-only]
      [--peer kubernetes.core]
A lab that is up in $NFV_LAB_STATE_DIR (or the default state dir) is used, else a private one is
started and stopped. Results go to benchmarks/results/cnf_change_pkg-<date>[-side_by_side][-kubernetes_core].json.
"""
from __future__ import annotations

import argparse
import datetime
import hashlib
import os
import http.client
import json
import shutil
import socket
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cnf_container_update  # noqa: E402
from cnf_container_update import write_counts  # noqa: E402
from cnf_instantiate import (ROOT, TEMPLATE, Bench, kubectl_version, lab_binaries, lab_up, loadavg, machine,  # noqa: E402
                             print_rows, run_rounds, stats, summarize_phases, wait_until, write_report)
from labk8s.audit import summarize as audit_summary  # noqa: E402
from module_call_cost import anchors_collections, collection_version  # noqa: E402
from labk8s.cluster import Lab  # noqa: E402

DEF_DIR = "Files/kubernetes/"
DEF_FILES = [DEF_DIR + name for name in ("configmap.yaml", "service.yaml", "deployment.yaml")]
DEPLOYMENTS = 4
REPLICAS = 4
OLD_VNFD_ID = "b1bb0ce7-ebca-4fa7-95ed-4840d70a8993"  # test_cnf_multi_ns's descriptor_id, kept by the old package
NEW_VNFD_ID = str(uuid.uuid5(uuid.NAMESPACE_URL, "nfv.vnflcm/benchmarks/cnf_change_pkg/new"))
INSTANCE_NAME = "bench-change-pkg"
# The peers by tool name (a namespace's name is made of it): what the table calls them.
PEER_NAMES = {"kubectl": "kubectl apply+rollout", "kubernetes-core": "kubernetes.core.k8s apply+wait"}


# ---------------------------------------------------------------------------------------------
# The packages

def deployment(index: int, version: str) -> dict:
    name = "vdu{0}".format(index)
    return {
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name, "labels": {"app": name}},
        "spec": {
            "replicas": REPLICAS, "selector": {"matchLabels": {"app": name}},
            # The default (25 % of 4 = 1 each way), spelled out: availability must not go below 3 of 4.
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 1}},
            "template": {"metadata": {"labels": {"app": name, "tier": "web"}}, "spec": {"containers": [{
                "name": "main", "image": "registry.example/{0}:{1}".format(name, version),
                "envFrom": [{"configMapRef": {"name": "web-config"}}],
                "ports": [{"containerPort": 8080, "protocol": "TCP"}]}]}},
        },
    }


def def_files(version: str) -> dict:
    return {
        DEF_DIR + "configmap.yaml": [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "web-config"},
                                      "data": {"LOG_LEVEL": "info", "LISTEN": "8080"}}],
        DEF_DIR + "service.yaml": [{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"},
                                    "spec": {"selector": {"tier": "web"}, "ports": [{"name": "http", "port": 80, "targetPort": 8080}]}}],
        DEF_DIR + "deployment.yaml": [deployment(index, version) for index in range(1, DEPLOYMENTS + 1)],
    }


def flavour_definition() -> dict:
    """The template's df file with its VDUs replaced: one per Deployment, REPLICAS pods at instantiation."""
    df = yaml.safe_load((TEMPLATE / "Definitions" / "helloworld3_df_simple.yaml").read_text())
    topology = df["topology_template"]
    topology["node_templates"] = {"VNF": topology["node_templates"]["VNF"]}
    policies = []
    for index in range(1, DEPLOYMENTS + 1):
        vdu = "VDU{0}".format(index)
        topology["node_templates"][vdu] = {
            "type": "tosca.nodes.nfv.Vdu.Compute",
            "properties": {"name": "vdu{0}".format(index), "description": "Deployment as VDU",
                           "vdu_profile": {"min_number_of_instances": 1, "max_number_of_instances": 2 * REPLICAS}}}
        policies.append({"vdu{0}_initial_delta".format(index): {
            "type": "tosca.policies.nfv.VduInitialDelta",
            "properties": {"initial_delta": {"number_of_instances": REPLICAS}}, "targets": [vdu]}})
    topology["policies"] = policies
    return df


def write_package(dest: Path, vnfd_id: str, version: str) -> dict:
    """A CSAR directory: the template's Definitions (descriptor_id replaced in every file, as the tests repackage),
    the generated def files, and TOSCA.meta listing them with their SHA-256 (the template's header kept)."""
    shutil.copytree(TEMPLATE / "Definitions", dest / "Definitions")
    (dest / "Definitions" / "helloworld3_df_simple.yaml").write_text(yaml.safe_dump(flavour_definition(), sort_keys=False))
    for path in (dest / "Definitions").glob("*.yaml"):
        path.write_text(path.read_text().replace(OLD_VNFD_ID, vnfd_id))
    (dest / DEF_DIR).mkdir(parents=True)
    blocks = []
    for relpath, objects in def_files(version).items():
        text = yaml.safe_dump_all(objects, sort_keys=False)
        (dest / relpath).write_text(text)
        blocks.append("Name: {0}\nContent-Type: application/yaml\nAlgorithm: SHA-256\nHash: {1}\n".format(
            relpath, hashlib.sha256(text.encode()).hexdigest()))
    header = (TEMPLATE / "TOSCA-Metadata" / "TOSCA.meta").read_text().split("\n\n")[0]
    (dest / "TOSCA-Metadata").mkdir()
    (dest / "TOSCA-Metadata" / "TOSCA.meta").write_text(header + "\n\n" + "\n".join(blocks))
    images = {obj["metadata"]["name"]: obj["spec"]["template"]["spec"]["containers"][0]["image"]
              for obj in def_files(version)[DEF_DIR + "deployment.yaml"]}
    return {"path": str(dest), "vnfd_id": vnfd_id, "def_files": DEF_FILES, "images": images}


def generate_packages(work: Path) -> dict:
    return {"old": write_package(work / "package-old", OLD_VNFD_ID, "1.0"),
            "new": write_package(work / "package-new", NEW_VNFD_ID, "2.0")}


# ---------------------------------------------------------------------------------------------
# Availability during a run

class AvailabilitySampler:
    """The minimum ready/available replicas of each Deployment of a namespace while a run goes.

    Two sources: `poll`, a LIST of the Deployments every `interval` seconds on a kept-alive connection
    (one snapshot of all of them at once), and `watch`, a watch from that first LIST's resourceVersion,
    which sees every status the Deployment controller writes, so no dip falls between two polls.
    """

    def __init__(self, api, namespace: str, interval: float):
        self.api, self.interval = api, interval
        self.path = "/apis/apps/v1/namespaces/{0}/deployments".format(namespace)
        self.seen = {"poll": {}, "watch": {}}
        self.total_min = {"poll": None, "watch": None}
        self.current = {}  # the watch's view: name -> (ready, available)
        self.polls, self.watch_events, self.errors = 0, 0, []
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self.began = time.monotonic()
        self.watch_conn = None

    def connection(self, timeout=10):
        return http.client.HTTPSConnection(self.api.host, self.api.port, context=self.api.ctx, timeout=timeout)

    def list(self, conn) -> dict:
        conn.request("GET", self.path, headers=self.api.headers)
        resp = conn.getresponse()
        body = resp.read()
        if resp.status != 200:
            raise RuntimeError("LIST deployments: HTTP {0}".format(resp.status))
        return json.loads(body)

    def record(self, source: str, obj: dict | None, name: str | None = None) -> tuple[int, int]:
        """Fold one Deployment's state (None: it is gone) into the minima; returns (ready, available)."""
        name = name or obj["metadata"]["name"]
        status = (obj or {}).get("status") or {}
        ready, available = status.get("readyReplicas", 0), status.get("availableReplicas", 0)
        at = round(time.monotonic() - self.began, 3)
        entry = self.seen[source].get(name)
        if entry is None:
            entry = self.seen[source][name] = {"desired": None, "min_ready": ready, "min_ready_at_s": at,
                                               "min_available": available, "max_pods": 0, "gone": False}
        if obj is None:
            entry["gone"] = True
        else:
            entry["desired"] = ((obj.get("spec") or {}).get("replicas"))
            entry["max_pods"] = max(entry["max_pods"], status.get("replicas", 0))
        if ready < entry["min_ready"]:
            entry["min_ready"], entry["min_ready_at_s"] = ready, at
        entry["min_available"] = min(entry["min_available"], available)
        return ready, available

    def fold_total(self, source: str, total: int) -> None:
        if self.total_min[source] is None or total < self.total_min[source]:
            self.total_min[source] = total

    def start(self) -> "AvailabilitySampler":
        conn = self.connection()
        first = self.list(conn)
        with self.lock:
            for obj in first["items"]:
                for source in self.seen:
                    self.record(source, obj)
                self.current[obj["metadata"]["name"]] = obj
            total = sum((obj.get("status") or {}).get("readyReplicas", 0) for obj in first["items"])
            for source in self.seen:
                self.fold_total(source, total)
        self.threads = [threading.Thread(target=self.poll, args=(conn,), daemon=True),
                        threading.Thread(target=self.watch, args=(first["metadata"]["resourceVersion"],), daemon=True)]
        for thread in self.threads:
            thread.start()
        return self

    def poll(self, conn) -> None:
        while not self.stopping.wait(self.interval):
            try:
                items = self.list(conn)["items"]
            except (OSError, http.client.HTTPException, RuntimeError, ValueError) as exc:
                self.errors.append("poll: {0}".format(exc))
                conn.close()
                conn = self.connection()
                continue
            with self.lock:
                names = set()
                total = 0
                for obj in items:
                    names.add(obj["metadata"]["name"])
                    total += self.record("poll", obj)[0]
                for name in set(self.seen["poll"]) - names:
                    self.record("poll", None, name)
                self.fold_total("poll", total)
                self.polls += 1
        conn.close()

    def watch(self, resource_version: str) -> None:
        try:
            self.watch_conn = conn = self.connection(timeout=None)
            conn.request("GET", "{0}?watch=1&resourceVersion={1}&timeoutSeconds=1800".format(self.path, resource_version),
                         headers=self.api.headers)
            resp = conn.getresponse()
            while not self.stopping.is_set():
                line = resp.readline()
                if not line:
                    break
                event = json.loads(line)
                obj = event.get("object") or {}
                if event.get("type") == "ERROR":
                    self.errors.append("watch: {0}".format(obj.get("message")))
                    break
                with self.lock:
                    name = obj["metadata"]["name"]
                    if event["type"] == "DELETED":
                        self.record("watch", None, name)
                        self.current.pop(name, None)
                    else:
                        self.record("watch", obj)
                        self.current[name] = obj
                    self.fold_total("watch", sum((o.get("status") or {}).get("readyReplicas", 0) for o in self.current.values()))
                    self.watch_events += 1
        except (OSError, http.client.HTTPException, ValueError) as exc:
            if not self.stopping.is_set():
                self.errors.append("watch: {0}".format(exc))

    def stop(self) -> dict:
        time.sleep(max(0.3, self.interval))  # one more poll, and the watch's last events delivered
        self.stopping.set()
        if self.watch_conn is not None and self.watch_conn.sock is not None:
            try:
                self.watch_conn.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        for thread in self.threads:
            thread.join(10)
        if self.watch_conn is not None:
            self.watch_conn.close()
        out = {"polls": self.polls, "watch_events": self.watch_events, "errors": self.errors[:10]}
        for source in self.seen:
            per = dict(sorted(self.seen[source].items()))
            out[source] = {"deployments": per,
                           "min_ready": min((e["min_ready"] for e in per.values()), default=None),
                           "min_available": min((e["min_available"] for e in per.values()), default=None),
                           "min_total_ready": self.total_min[source],
                           "desired_total": sum(e["desired"] or 0 for e in per.values())}
        return out


# ---------------------------------------------------------------------------------------------
# The two ways to change it

def rollout_state(api, namespace: str, images: dict) -> dict:
    """name -> problem ("" when the Deployment is complete on its image, with exactly REPLICAS ready pods)."""
    out = {}
    items = api.call("GET", "/apis/apps/v1/namespaces/{0}/deployments".format(namespace))["items"]
    found = {obj["metadata"]["name"]: obj for obj in items}
    for name, image in images.items():
        obj = found.get(name)
        if obj is None:
            out[name] = "missing"
            continue
        status = obj.get("status") or {}
        live_image = obj["spec"]["template"]["spec"]["containers"][0]["image"]
        counts = {key: status.get(key, 0) for key in ("replicas", "updatedReplicas", "readyReplicas", "availableReplicas")}
        problems = []
        if live_image != image:
            problems.append("image " + live_image)
        if status.get("observedGeneration", 0) < obj["metadata"].get("generation", 0):
            problems.append("generation not observed")
        if obj["spec"].get("replicas") != REPLICAS or any(value != REPLICAS for value in counts.values()):
            problems.append("spec.replicas {0}, {1}".format(obj["spec"].get("replicas"), counts))
        out[name] = "; ".join(problems)
    return out


def received_at(event: dict) -> float:
    """An audit event's requestReceivedTimestamp as a Unix time."""
    stamp = event["requestReceivedTimestamp"].replace("Z", "+00:00")
    return datetime.datetime.fromisoformat(stamp).timestamp()


class ChangePkgBench(Bench):
    # From cnf_container_update: a namespace waits for its default ServiceAccount (pods need it).
    namespace = cnf_container_update.Bench.namespace

    def __init__(self, lab: Lab, kubectl: Path, packages: dict, work: Path, wait_sleep: int, interval: float, rollout: str):
        super().__init__(lab, kubectl, packages["new"], work, wait_sleep)
        self.packages, self.interval, self.rollout = packages, interval, rollout
        self.instances = {}  # namespace -> VNF instance id

    # ---- the old package, not timed ----

    def instantiate_vnflcm(self, namespace: str) -> dict:
        old = self.packages["old"]
        result = self.playbook({"nfv.vnflcm.vnf_instantiate": {
            "package": old["path"], "vnf_instance_name": INSTANCE_NAME, "kubeconfig": str(self.lab.kubeconfig),
            "wait": True, "wait_timeout": 300, "wait_sleep": self.wait_sleep,
            "request": {"flavourId": "simple", "additionalParams": {"namespace": namespace, "lcm-kubernetes-def-files": old["def_files"]}}}})
        self.instances[namespace] = result["vnf_instance"]["id"]
        return {"vnf_instance_id": result["vnf_instance"]["id"]}

    def instantiate_kubectl(self, namespace: str) -> dict:
        calls, old = {}, self.packages["old"]
        self.run_kubectl(["apply", *[arg for path in old["def_files"] for arg in ("-f", str(Path(old["path"]) / path))]], namespace, calls)
        for name in old["images"]:
            self.run_kubectl(["rollout", "status", "deployment/" + name, "--timeout=300s"], namespace, calls)
        return {"kubectl_requests": calls}

    def instantiate(self, tool: str, namespace: str) -> dict:
        began = time.monotonic()
        extra = (self.instantiate_vnflcm if tool == "vnflcm" else self.instantiate_kubectl)(namespace)  # kubernetes.core too
        self.wait_complete(namespace, self.packages["old"]["images"])
        return dict(extra, instantiate_s=round(time.monotonic() - began, 3))

    def wait_complete(self, namespace: str, images: dict, timeout: float = 120) -> float:
        """Poll until every Deployment is complete on ``images``; the seconds it took (0: it already was)."""
        return wait_until(lambda: rollout_state(self.api, namespace, images), timeout, "{0}: Deployments not complete".format(namespace))

    # ---- the change, timed ----

    def change_vnflcm(self, namespace: str):
        new = self.packages["new"]
        args = {"kubeconfig": str(self.lab.kubeconfig), "namespace": namespace, "vnf_instance_name": INSTANCE_NAME,
                "package": new["path"], "wait_timeout": 300, "wait_sleep": self.wait_sleep, "rollout": self.rollout,
                "request": {"vnfdId": new["vnfd_id"], "additionalParams": {
                    "upgrade_type": "RollingUpdate", "lcm-kubernetes-def-files": new["def_files"],
                    "vdu_params": [{"vdu_id": "VDU{0}".format(index)} for index in range(1, DEPLOYMENTS + 1)]}}}
        result = self.module("vnf_change_pkg", args, namespace)
        api_calls = result.get("api_calls") or {}
        plan = result.get("plan")
        return api_calls.get("read", 0), {
            "changed": result.get("changed"), "module_api_calls": api_calls,
            "operation_state": (result.get("vnf_lcm_op_occ") or {}).get("operationState"),
            "vnfd_id_after": (result.get("vnf_instance") or {}).get("vnfdId"),
            "plan": plan if len(json.dumps(plan)) < 20000 else "(too long to keep)"}

    def change_kubectl(self, namespace: str):
        calls, new = {}, self.packages["new"]
        self.run_kubectl(["apply", *[arg for path in new["def_files"] for arg in ("-f", str(Path(new["path"]) / path))]], namespace, calls)
        for name in new["images"]:
            self.run_kubectl(["rollout", "status", "deployment/" + name, "--timeout=300s"], namespace, calls)
        return calls.get("GET", 0), {"kubectl_requests": calls}

    def change_kubernetes_core(self, namespace: str):
        new = self.packages["new"]
        self.playbook({"kubernetes.core.k8s": {
            "kubeconfig": str(self.lab.kubeconfig), "namespace": namespace, "state": "present", "apply": True, "src": "{{ item }}",
            "wait": True, "wait_timeout": 300, "wait_sleep": self.wait_sleep},
            "loop": [str(Path(new["path"]) / path) for path in new["def_files"]]})
        return 0, {}

    def measure(self, fn, namespace: str, start_on: str) -> dict:
        """Run fn(namespace) -> (reads, extra) with the sampler on: wall time, reads, audited writes, availability.

        ``start_on``: the package ("old" or "new") every Deployment must be complete on before the run starts."""
        self.wait_complete(namespace, self.packages[start_on]["images"])
        sampler = AvailabilitySampler(self.api, namespace, self.interval).start()
        start = self.audit.mark()
        began, began_utc = time.monotonic(), time.time()
        try:
            reads, extra = fn(namespace)
        finally:
            wall = time.monotonic() - began
            availability = sampler.stop()
        # The lab is shared and other clients may use the admin user too: only writes into this namespace count.
        counts, writes = self.writes_since(start, reads, namespace)
        result = dict(extra, wall_s=round(wall, 3), **counts, write_calls=write_counts(writes),
                      write_log=["{0:6.2f} s {1} {2}/{3} {4}".format(received_at(ev) - began_utc, verb, resource, name, code)
                                 for ev, (verb, resource, _ns, name, code) in zip(writes, audit_summary(writes))],
                      availability=availability)
        # > 0: the run returned before every Deployment was complete on the new images.
        result["settle_after_s"] = self.wait_complete(namespace, self.packages["new"]["images"])
        poll, watch = availability["poll"], availability["watch"]
        for key in ("min_ready", "min_available", "min_total_ready", "desired_total"):
            result[key] = poll[key]
            result["watch_" + key] = watch[key]
        return result


# ---------------------------------------------------------------------------------------------
# Rounds and the report

METRICS = ("wall_s", "reads", "writes", "dry_runs", "api_calls", "min_ready", "watch_min_ready", "min_available",
           "watch_min_available", "min_total_ready", "watch_min_total_ready")
RATIO_METRICS = ("wall_s", "reads", "writes", "api_calls")


PHASES = ("change", "rerun")


def summarize(rounds: list[dict], tools: tuple) -> dict:
    out = summarize_phases(rounds, PHASES, METRICS, tools, RATIO_METRICS, changed="vnflcm")
    out["ansible_overhead_s"] = stats([r["ansible_overhead_s"] for r in rounds])
    return out


def print_table(summary: dict, rounds: int, tools: tuple) -> None:
    peer = tools[-1]
    print_rows(summary, PHASES, ("vnflcm", peer), ("run", "metric", "vnf_change_pkg", PEER_NAMES[peer], "ratio ours/" + peer), (7, 22))
    overhead = summary["ansible_overhead_s"]
    extra = "; ansible-playbook with a no-op task: {0:.2f} s [{1:.2f}-{2:.2f}]".format(
        overhead["median"], overhead["min"], overhead["max"]) if overhead else ""
    changed = "; vnf_change_pkg changed: change {0}, re-run {1}".format(
        summary["change"].get("vnflcm_changed"), summary["rerun"].get("vnflcm_changed")) if "vnflcm" in tools else ""
    print("(median [min-max] over {0} rounds; min_ready/min_available: the lowest of any Deployment, of {1} desired; "
          "min_total_ready: all {2} Deployments at one instant, of {3}{4}{5})".format(
              rounds, REPLICAS, DEPLOYMENTS, DEPLOYMENTS * REPLICAS, changed, extra))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--wait-sleep", type=int, default=1, help="the module's wait_sleep (seconds between readiness polls)")
    p.add_argument("--sample-interval", type=float, default=0.1, help="seconds between the sampler's LISTs of the Deployments")
    p.add_argument("--baseline-only", action="store_true", help="only the peer's side (no vnf_change_pkg)")
    p.add_argument("--peer", choices=("kubectl", "kubernetes.core"), default="kubectl", help="what vnf_change_pkg is measured against")
    p.add_argument("--rollout", choices=("one_at_a_time", "side_by_side"), default="one_at_a_time", help="vnf_change_pkg's rollout option")
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = p.parse_args(argv)
    bin_dir = lab_binaries()
    peer = args.peer.replace(".", "-")
    tools = (peer,) if args.baseline_only else ("vnflcm", peer)
    stamp = datetime.datetime.now(datetime.timezone.utc)
    load_before = loadavg()
    with tempfile.TemporaryDirectory(prefix="cnf-change-pkg-bench-") as tmp:
        work = Path(tmp)
        packages = generate_packages(work)
        with lab_up(work, bin_dir) as (lab, _):
            bench = ChangePkgBench(lab, bin_dir / "kubectl", packages, work, args.wait_sleep, args.sample_interval, args.rollout)
            if peer == "kubernetes-core":  # from PyPI's ansible package, beside the staged collection
                bench.env = dict(bench.env, ANSIBLE_COLLECTIONS_PATH=bench.env["ANSIBLE_COLLECTIONS_PATH"] + os.pathsep + anchors_collections())
            change = {"vnflcm": bench.change_vnflcm, "kubectl": bench.change_kubectl, "kubernetes-core": bench.change_kubernetes_core}

            def prepare(tool, namespace):  # both start equal: the old package, complete
                return dict(bench.instantiate(tool, namespace), namespace=namespace)

            def run(number, tool, namespace, entry):
                for phase in PHASES:
                    entry[tool][phase] = bench.measure(change[tool], namespace, "old" if phase == "change" else "new")
                    shown = ("changed", "wall_s", "reads", "writes", "dry_runs", "min_ready", "watch_min_ready",
                             "min_total_ready", "watch_min_total_ready", "settle_after_s")
                    print("round {0} {1:7} {2:6} {3}".format(number + 1, tool, phase,
                                                             {k: entry[tool][phase][k] for k in shown if k in entry[tool][phase]}),
                          file=sys.stderr)

            rounds = run_rounds(bench, args.rounds, "ccp-" + stamp.strftime("%H%M%S"), tools, run, prepare,
                                overhead=(lambda: None) if args.baseline_only else bench.ansible_overhead, record_loadavg=True)
    summary = summarize(rounds, tools)
    print_table(summary, args.rounds, tools)
    suffix = ("-baseline-only" if args.baseline_only else "" if args.rollout == "one_at_a_time" else "-" + args.rollout) + (
        "-kubernetes_core" if args.peer == "kubernetes.core" else "")
    write_report(args.out, "cnf_change_pkg", stamp, suffix,
                 machine=machine(load_before), kubectl=kubectl_version(bin_dir),
                 peers={"kubernetes.core": collection_version(anchors_collections(), "kubernetes.core")} if peer == "kubernetes-core" else {},
                 package={"template": TEMPLATE.name, "def_files": DEF_FILES, "deployments": DEPLOYMENTS, "replicas": REPLICAS,
                          "strategy": {"maxUnavailable": 1, "maxSurge": 1},
                          "old": {k: packages["old"][k] for k in ("vnfd_id", "images")},
                          "new": {k: packages["new"][k] for k in ("vnfd_id", "images")}},
                 settings={"rounds": args.rounds, "tools": list(tools), "module_wait_sleep": args.wait_sleep, "rollout": args.rollout,
                           "sample_interval_s": args.sample_interval, "lab_nodes": bench.nodes},
                 summary=summary, rounds=rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
