#!/usr/bin/env python3
"""One benchmark per operation: each module of the collection against the kubernetes.core task an Ansible user would write.

A small CNF from Tacker's test_cnf_container_update_before package: the def files configmap_1.yaml, secret_1.yaml
and deployment.yaml (VDU1, the Deployment vdu1-update reading the ConfigMap cm-data and the Secret secret-data;
aspect vdu1_aspect, one pod per level, max_scale_level 2). Three contenders, each in a fresh namespace per round
of a private lab (tools/lab/k8s), take it through the same operations in turn, each operation starting where the
previous one left the CNF:

  instantiate     vnf_instantiate (instantiation_level_1: 1 pod)  | k8s, definition: the 3 objects, wait
  info            vnf_info of the instance                        | k8s_info of the pods (label app=webserver)
  scale_to_level  vnf_scale_to_level, vdu1_aspect 0 -> 2 (1 -> 3)  | k8s_scale replicas 3, wait
  scale           vnf_scale SCALE_IN one step (3 -> 2)             | k8s_scale replicas 2, wait
  heal            vnf_heal of one VNFC (its pod replaced)          | k8s state absent of the pod, wait; then
                                                                    k8s_info of the Deployment, wait (ready)
  modify          vnf_modify to the _after package (Tacker's MODIFY request: new vnfdId, image nginx -> cirros,
                  configmap_2 / secret_2 as new data)              | k8s, definition: the changed ConfigMap,
                                                                    Secret and Deployment (replicas as live), wait
  terminate       vnf_terminate FORCEFUL                          | k8s state absent of the 3 objects, wait

kubectl is the reference column: apply -f / scale / delete pod / delete -f, each followed by `kubectl rollout
status` where there is a rollout to wait for; `kubectl get pods -o json` for info.

Each run is one ansible-playbook (one task; two for the peer's heal) on the staged collection, with kubernetes.core
from PyPI's ansible package (module_call_cost.anchors_collections) on the same ansible-core and Python; wait_sleep 1
on both sides. Per operation, the order of the module and its peer alternates between rounds (kubectl last).
Measured per run: wall time; CPU seconds of everything run (user + sys, RUSAGE_CHILDREN delta: ansible-playbook,
its workers and the module processes, or the kubectl processes); API requests from the lab's audit log, which
for this private lab also logs the admin user's reads (reads: get/list/watch, discovery included; writes; server-side
dry runs apart), and the module's own `api_calls` beside them. After each run the script polls until the CNF is in
the operation's end state (`settle_after_s`: > 0 means the run returned before that).

Run: make stage, then with ANSIBLE_COLLECTIONS_PATH set to the staged collections dir (see README.md)
  $(make -s venv-path)/bin/python benchmarks/cnf_operations.py [--rounds 5]
Always starts a private lab (its audit policy differs) and stops it. Results: benchmarks/results/cnf_operations-<date>.json.
"""
from __future__ import annotations

import argparse
import copy
import datetime
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cnf_container_update  # noqa: E402
import cnf_instantiate  # noqa: E402
from cnf_container_update import AFTER, BEFORE, MODIFY_REQUEST, write_counts  # noqa: E402
from cnf_instantiate import ROOT, kubectl_version, lab_binaries, loadavg, private_lab, machine, stats, wait_until, write_report  # noqa: E402
from cnf_scale_to_level import workload_state  # noqa: E402
from labk8s import cluster  # noqa: E402
from labk8s.audit import WRITE_VERBS, is_dry_run  # noqa: E402
from labk8s.cluster import ADMIN_USER, Lab  # noqa: E402
from module_call_cost import anchors_collections, collection_version, cpu_of  # noqa: E402

DEF_DIR = "Files/kubernetes/"
DEF_FILES = [DEF_DIR + name for name in ("configmap_1.yaml", "secret_1.yaml", "deployment.yaml")]
# What vnf_modify applies from the _after package: its deployment.yaml and the request's configmap_secret_paths.
NEW_FILES = [DEF_DIR + "deployment.yaml"] + MODIFY_REQUEST["metadata"]["configmap_secret_paths"]
WORKLOAD = "vdu1-update"
SELECTOR = "app=webserver"
NEW_IMAGE = "cirros"
INSTANCE_NAME = "bench-ops"
# (operation, the collection's module, the replicas of vdu1-update after it; None: the CNF is gone)
OPERATIONS = (
    ("instantiate", "vnf_instantiate", 1),
    ("info", "vnf_info", 1),
    ("scale_to_level", "vnf_scale_to_level", 3),
    ("scale", "vnf_scale", 2),
    ("heal", "vnf_heal", 2),
    ("modify", "vnf_modify", 2),
    ("terminate", "vnf_terminate", None),
)
TOOLS = ("vnflcm", "kcore", "kubectl")
METRICS = ("wall_s", "cpu_s", "reads", "writes", "dry_runs", "api_calls", "settle_after_s")
RATIO_METRICS = ("wall_s", "cpu_s", "reads", "writes", "api_calls")
READ_VERBS = ("get", "list", "watch")
CALLBACKS = ROOT / "tests" / "integration" / "callback_plugins"  # task_result: the task's result without a second task
TASK_NAME = "task under test"


class ReadAuditedLab(Lab):
    """A private lab whose audit log also holds the admin user's reads, so every contender's reads come from one log."""

    def _write_config(self, ports: dict) -> None:
        super()._write_config(ports)
        policy = copy.deepcopy(cluster.AUDIT_POLICY)
        policy["rules"].insert(-1, {"level": "Metadata", "users": [ADMIN_USER], "verbs": list(READ_VERBS)})
        (self.dir / "audit-policy.json").write_text(json.dumps(policy, indent=1))


def requests_of(events: list[dict]) -> dict:
    """The admin user's requests among audit events: reads, writes, dry runs (the audit markers left out).

    A watch is counted at its start (ResponseStarted; it ends when its process does, maybe after the window),
    every other request when complete."""
    reads, writes, dry = 0, [], 0
    for ev in events:
        if ev.get("user", {}).get("username") != ADMIN_USER or (ev.get("objectRef") or {}).get("name") == cluster.AUDIT_MARKER:
            continue
        verb, stage = ev.get("verb"), ev.get("stage")
        if stage != ("ResponseStarted" if verb == "watch" else "ResponseComplete"):
            continue
        if verb in READ_VERBS:
            reads += 1
        elif verb in WRITE_VERBS and is_dry_run(ev):
            dry += 1
        elif verb in WRITE_VERBS:
            writes.append(ev)
    failed = sum(1 for ev in writes if not 200 <= ev.get("responseStatus", {}).get("code", 0) < 300)
    return {"reads": reads, "writes": len(writes), "dry_runs": dry, "api_calls": reads + len(writes) + dry,
            "failed_writes": failed, "write_calls": write_counts(writes)}


def wall_of(run):
    """(run(), its wall time in seconds)."""
    began = time.monotonic()
    result = run()
    return result, round(time.monotonic() - began, 3)


def manifests(package: Path, files: list[str]) -> list[dict]:
    return [obj for path in files for obj in yaml.safe_load_all((package / path).read_text()) if obj]


def with_replicas(objects: list[dict], replicas: int) -> list[dict]:
    """The objects with the Deployment at ``replicas``: a user's manifest holds the count the CNF runs at."""
    out = copy.deepcopy(objects)
    for obj in out:
        if obj["kind"] == "Deployment":
            obj["spec"]["replicas"] = replicas
    return out


class OpsBench(cnf_instantiate.Bench):
    """cnf_instantiate's Bench (namespaces, kubectl with its request log, the audit log), with one-task playbooks
    that also see kubernetes.core, and the three contenders' operations."""

    # From cnf_container_update: a namespace waits for its default ServiceAccount (pods need it).
    namespace = cnf_container_update.Bench.namespace

    def __init__(self, lab: Lab, kubectl: Path, work: Path, wait_sleep: int, anchors: str):
        super().__init__(lab, kubectl, {}, work, wait_sleep)
        self.env = dict(self.env, ANSIBLE_COLLECTIONS_PATH=self.env["ANSIBLE_COLLECTIONS_PATH"] + os.pathsep + anchors,
                        ANSIBLE_CALLBACK_PLUGINS=str(CALLBACKS), ANSIBLE_CALLBACKS_ENABLED="task_result")
        self.state = {}  # namespace -> {"instance": the last VnfInstance (vnflcm), "healed": pod name}
        self.old = manifests(BEFORE, DEF_FILES)
        self.new = manifests(AFTER, NEW_FILES)

    # ---- running one contender ----

    def tasks(self, tasks: list[dict]) -> dict:
        """One ansible-playbook run of ``tasks`` (the last is the one whose result is kept); its result."""
        self.runs += 1
        out = self.work / "result-{0}.json".format(self.runs)
        tasks = tasks[:-1] + [dict(tasks[-1], name=TASK_NAME)]
        playbook = self.work / "play-{0}.yml".format(self.runs)
        playbook.write_text(yaml.safe_dump([{"hosts": "localhost", "connection": "local", "gather_facts": False, "tasks": tasks}]))
        done = subprocess.run([str(Path(sys.executable).parent / "ansible-playbook"), str(playbook)], capture_output=True, text=True,
                              env=dict(self.env, NFV_TASK_RESULT=str(out)), check=False)
        if done.returncode or not out.exists():
            raise SystemExit("ansible-playbook failed:\n" + done.stdout[-5000:] + done.stderr[-2000:])
        return json.loads(out.read_text())

    def kubectl_run(self, namespace: str, *commands: list[str], stdin: str | None = None) -> dict:
        calls = {}
        for command in commands:
            self.run_kubectl(command, namespace, calls, stdin)
        return {"kubectl_requests": calls}

    def measure(self, run, namespace: str, replicas: int | None, image: str | None = None) -> dict:
        """run() -> extra: wall and CPU time, the admin's requests from the audit log, then the wait for the end state."""
        start = self.audit.mark()
        (extra, wall), cpu = cpu_of(lambda: wall_of(run))
        out = dict(extra, wall_s=wall, cpu_s=round(cpu, 3), **requests_of(self.audit.events(start)))
        out["settle_after_s"] = self.wait_end_state(namespace, replicas, image)
        return out

    def noop(self) -> dict:
        """ansible-playbook with a no-op task: its own wall and CPU time."""
        (_, wall), cpu = cpu_of(lambda: wall_of(lambda: self.tasks([{"ansible.builtin.set_fact": {"noop": True}}])))
        return {"wall_s": wall, "cpu_s": round(cpu, 3)}

    # ---- the CNF's state ----

    def pods(self, namespace: str) -> list[dict]:
        items = self.api.call("GET", "/api/v1/namespaces/{0}/pods?labelSelector={1}".format(namespace, SELECTOR))["items"]
        return sorted(items, key=lambda pod: pod["metadata"]["name"])

    def wait_end_state(self, namespace: str, replicas: int | None, image: str | None = None, timeout: float = 120) -> float:
        """Poll until the CNF is where the operation leaves it; the seconds it took (0: it already was)."""
        def problems():
            if replicas is None:
                left = [pod["metadata"]["name"] for pod in self.pods(namespace)]
                left += ["{0}/{1}".format(plural, obj["metadata"]["name"]) for plural, obj in self.objects(namespace)]
                return {"left": ", ".join(left)}
            out = workload_state(self.api, namespace, {WORKLOAD: replicas})
            healed = self.state[namespace].get("healed")
            if healed and any(pod["metadata"]["name"] == healed for pod in self.pods(namespace)):
                out["healed"] = "pod {0} still there".format(healed)
            if image and self.images(namespace) != [image]:
                out["image"] = "images {0}".format(self.images(namespace))
            return out
        return wait_until(problems, timeout, "{0}: not at {1} replicas".format(namespace, replicas))

    def objects(self, namespace: str):
        """(resource, object) of the CNF's ConfigMap, Secret and Deployment that exist."""
        for plural, path in (("configmaps", "/api/v1"), ("secrets", "/api/v1"), ("deployments", "/apis/apps/v1")):
            for obj in self.api.call("GET", "{0}/namespaces/{1}/{2}".format(path, namespace, plural))["items"]:
                if obj["metadata"]["name"] in ("cm-data", "secret-data", WORKLOAD):
                    yield plural, obj

    def images(self, namespace: str) -> list[str]:
        return sorted({c["image"] for pod in self.pods(namespace) for c in pod["spec"]["containers"]})

    # ---- the collection's modules ----

    def vnflcm(self, operation: str, module: str, namespace: str) -> dict:
        state = self.state[namespace]
        args = {"kubeconfig": str(self.lab.kubeconfig), "namespace": namespace}
        waits = {"wait": True, "wait_timeout": 300, "wait_sleep": self.wait_sleep}
        if operation == "instantiate":
            args.update(waits, package=str(BEFORE), vnf_instance_name=INSTANCE_NAME, request={
                "flavourId": "simple", "instantiationLevelId": "instantiation_level_1",
                "additionalParams": {"lcm-kubernetes-def-files": DEF_FILES, "namespace": namespace}})
        else:
            args["vnf_instance_id"] = state["instance"]["id"]
        if operation == "scale_to_level":
            args.update(waits, request={"scaleInfo": [{"aspectId": "vdu1_aspect", "scaleLevel": 2}]})
        elif operation == "scale":
            args.update(waits, request={"type": "SCALE_IN", "aspectId": "vdu1_aspect", "numberOfSteps": 1})
        elif operation == "heal":
            info = state["instance"]["instantiatedVnfInfo"]
            vnfc = info["vnfcInfo"][0]
            resource_info = next(r for r in info["vnfcResourceInfo"] if r["id"] == vnfc["vnfcResourceInfoId"])
            state["healed"] = resource_info["computeResource"]["resourceId"]
            args.update(waits, request={"vnfcInstanceId": [vnfc["id"]]})
        elif operation == "modify":
            args.update(waits, package=str(AFTER), request=MODIFY_REQUEST)
        elif operation == "terminate":
            args.update(waits, request={"terminationType": "FORCEFUL"})

        def run():
            result = self.tasks([{"nfv.vnflcm." + module: args, "ignore_errors": True}])
            if result.get("failed"):
                raise SystemExit("{0} failed in {1}: {2}\n{3}".format(module, namespace, result.get("msg"), json.dumps(result, indent=1)[-4000:]))
            if result.get("vnf_instance"):
                state["instance"] = result["vnf_instance"]
            return {"changed": result.get("changed"), "module_api_calls": result.get("api_calls"),
                    "operation_state": (result.get("vnf_lcm_op_occ") or {}).get("operationState")}
        return run

    # ---- kubernetes.core: what an Ansible user writes for the same effect ----

    def kcore(self, operation: str, namespace: str, replicas: int | None) -> dict:
        auth = {"kubeconfig": str(self.lab.kubeconfig), "namespace": namespace}
        waits = {"wait": True, "wait_timeout": 300, "wait_sleep": self.wait_sleep}
        deployment = {"api_version": "apps/v1", "kind": "Deployment", "name": WORKLOAD}
        if operation == "instantiate":
            tasks = [{"kubernetes.core.k8s": dict(auth, **waits, state="present", definition=self.old)}]
        elif operation == "info":
            tasks = [{"kubernetes.core.k8s_info": dict(auth, kind="Pod", label_selectors=[SELECTOR])}]
        elif operation in ("scale_to_level", "scale"):
            tasks = [{"kubernetes.core.k8s_scale": dict(auth, **deployment, replicas=replicas, **waits)}]
        elif operation == "heal":
            self.state[namespace]["healed"] = pod = self.pods(namespace)[0]["metadata"]["name"]
            tasks = [{"kubernetes.core.k8s": dict(auth, **waits, state="absent", kind="Pod", name=pod)},
                     {"kubernetes.core.k8s_info": dict(auth, **deployment, **waits)}]
        elif operation == "modify":
            tasks = [{"kubernetes.core.k8s": dict(auth, **waits, state="present", definition=with_replicas(self.new, replicas))}]
        else:
            tasks = [{"kubernetes.core.k8s": dict(auth, **waits, state="absent", definition=self.old)}]

        def run():
            result = self.tasks([dict(tasks[0], ignore_errors=True)] if len(tasks) == 1 else tasks)
            if result.get("failed"):
                raise SystemExit("kubernetes.core {0} failed in {1}: {2}".format(operation, namespace, result.get("msg")))
            return {"changed": result.get("changed")}
        return run

    # ---- kubectl, the reference ----

    def kubectl_op(self, operation: str, namespace: str, replicas: int | None) -> dict:
        rollout = ["rollout", "status", "deployment/" + WORKLOAD, "--timeout=300s"]
        files = [arg for path in DEF_FILES for arg in ("-f", str(BEFORE / path))]
        if operation == "instantiate":
            return lambda: self.kubectl_run(namespace, ["apply"] + files, rollout)
        if operation == "info":
            return lambda: self.kubectl_run(namespace, ["get", "pods", "-l", SELECTOR, "-o", "json"])
        if operation in ("scale_to_level", "scale"):
            return lambda: self.kubectl_run(namespace, ["scale", "deployment/" + WORKLOAD, "--replicas={0}".format(replicas)], rollout)
        if operation == "heal":
            self.state[namespace]["healed"] = pod = self.pods(namespace)[0]["metadata"]["name"]
            return lambda: self.kubectl_run(namespace, ["delete", "pod", pod], rollout)
        if operation == "modify":
            changed = self.work / "{0}-modify.yaml".format(namespace)
            changed.write_text(yaml.safe_dump_all(with_replicas(self.new, replicas)))
            return lambda: self.kubectl_run(namespace, ["apply", "-f", str(changed)], rollout)
        return lambda: self.kubectl_run(namespace, ["delete"] + files)

    def operation(self, tool: str, operation: str, module: str, namespace: str, replicas: int | None) -> dict:
        self.state[namespace].pop("healed", None)
        if tool == "vnflcm":
            run = self.vnflcm(operation, module, namespace)
        elif tool == "kcore":
            run = self.kcore(operation, namespace, replicas)
        else:
            run = self.kubectl_op(operation, namespace, replicas)
        result = self.measure(run, namespace, replicas, NEW_IMAGE if operation == "modify" else None)
        if replicas is not None:
            result["images"] = self.images(namespace)
        return result


# ---------------------------------------------------------------------------------------------
# Rounds and the report

def run_rounds(bench: OpsBench, count: int, prefix: str) -> list[dict]:
    """Per round: a fresh namespace per contender, then every operation in turn, the module and its peer
    alternating who goes first between rounds (kubectl last); a no-op playbook at the end."""
    rounds = []
    for number in range(count):
        entry = {"loadavg_at_start": loadavg(), "order": ["vnflcm", "kcore", "kubectl"] if number % 2 == 0 else ["kcore", "vnflcm", "kubectl"]}
        spaces = {tool: bench.namespace("{0}-{1}-{2}".format(prefix, number, tool)) for tool in TOOLS}
        for namespace in spaces.values():
            bench.state[namespace] = {}
        try:
            for operation, module, replicas in OPERATIONS:
                for tool in entry["order"]:
                    measured = bench.operation(tool, operation, module, spaces[tool], replicas)
                    entry.setdefault(tool, {})[operation] = measured
                    shown = ("changed", "wall_s", "cpu_s", "reads", "writes", "dry_runs", "settle_after_s")
                    print("round {0} {1:14} {2:7} {3}".format(number + 1, operation, tool, {k: measured[k] for k in shown if k in measured}),
                          file=sys.stderr)
            entry["ansible_noop"] = bench.noop()
            entry["loadavg_at_end"] = loadavg()
            rounds.append(entry)
        finally:
            bench.delete_namespaces(list(spaces.values()))
    return rounds


def summarize(rounds: list[dict]) -> dict:
    out = {operation: operation_summary(rounds, operation, TOOLS, {"ratio": "kcore", "ratio_kubectl": "kubectl"}, changed_by=TOOLS[:2])
           for operation, _module, _replicas in OPERATIONS}
    out["ansible_noop"] = {metric: stats([r["ansible_noop"][metric] for r in rounds]) for metric in ("wall_s", "cpu_s")}
    return out


def operation_summary(rounds: list[dict], operation: str, tools: tuple, peers: dict, changed_by: tuple) -> dict:
    """One operation over the rounds: each tool's METRICS, and for RATIO_METRICS ours against each of ``peers`` ({key: peer
    tool}) per round; the module's own API calls; ``changed`` as each of ``changed_by`` reported it."""
    out = {}
    for metric in METRICS:
        values = {tool: [r[tool][operation][metric] for r in rounds] for tool in tools}
        entry = {tool: stats(values[tool]) for tool in tools}
        if metric in RATIO_METRICS:
            for name, peer in peers.items():
                ratios = [round(a / b, 3) for a, b in zip(values["vnflcm"], values[peer]) if b]
                entry[name] = dict(stats(ratios), per_round=ratios) if ratios else None
        out[metric] = entry
    module_calls = [r["vnflcm"][operation].get("module_api_calls") or {} for r in rounds]
    out["module_api_calls"] = {key: stats([calls.get(key) for calls in module_calls]) for key in ("read", "write")}
    out["changed"] = {tool: [r[tool][operation].get("changed") for r in rounds] for tool in changed_by}
    return out


def cell(s: dict | None, fmt: str) -> str:
    return "–" if not s else (fmt + " [" + fmt + "–" + fmt + "]").format(s["median"], s["min"], s["max"])


def print_table(summary: dict, rounds: int) -> None:
    """Markdown: per operation, wall time, CPU and API requests of each contender, median [min–max], and ours / peer."""
    print("\n| operation | metric | nfv.vnflcm | kubernetes.core | kubectl | ours / kubernetes.core | ours / kubectl |")
    print("|---|---|---|---|---|---|---|")
    for operation, module, _replicas in OPERATIONS:
        s = summary[operation]
        for metric, label, fmt in (("wall_s", "wall s", "{:.2f}"), ("cpu_s", "CPU s", "{:.2f}")):
            print("| {0} | {1} | {2} | {3} | {4} | **{5}** | {6} |".format(
                "`{0}`".format(module) if metric == "wall_s" else "", label, *[cell(s[metric][tool], fmt) for tool in TOOLS],
                cell(s[metric]["ratio"], "{:.2f}"), cell(s[metric]["ratio_kubectl"], "{:.2f}")))
        calls = ["{0:g} ({1:g} + {2:g}{3})".format(s["api_calls"][tool]["median"], s["reads"][tool]["median"], s["writes"][tool]["median"],
                                                   " + {0:g}".format(s["dry_runs"][tool]["median"]) if s["dry_runs"][tool]["median"] else "")
                 for tool in TOOLS]
        ratio = [s["api_calls"][name]["median"] if s["api_calls"][name] else None for name in ("ratio", "ratio_kubectl")]
        print("| | API requests (reads + writes + dry runs) | {0} | {1} | {2} | **{3}** | {4} |".format(
            *calls, *["–" if r is None else "{:.2f}".format(r) for r in ratio]))
    noop = summary["ansible_noop"]
    print("\n(median [min–max] of {0} rounds; ansible-playbook with a no-op task: {1} s wall, {2} s CPU)".format(
        rounds, cell(noop["wall_s"], "{:.2f}"), cell(noop["cpu_s"], "{:.2f}")))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--wait-sleep", type=int, default=1, help="wait_sleep of both the modules and kubernetes.core (seconds between polls)")
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = p.parse_args(argv)
    bin_dir = lab_binaries()
    anchors = anchors_collections()
    stamp = datetime.datetime.now(datetime.timezone.utc)
    load_before = loadavg()
    with tempfile.TemporaryDirectory(prefix="cnf-operations-bench-") as tmp:
        work = Path(tmp)
        with private_lab(ReadAuditedLab(work / "lab"), bin_dir) as lab:
            bench = OpsBench(lab, bin_dir / "kubectl", work, args.wait_sleep, anchors)
            rounds = run_rounds(bench, args.rounds, "ops-" + stamp.strftime("%H%M%S"))
    summary = summarize(rounds)
    print_table(summary, args.rounds)
    write_report(args.out, "cnf_operations", stamp, machine=machine(load_before), kubectl=kubectl_version(bin_dir),
                 peers={"kubernetes.core": collection_version(anchors, "kubernetes.core")},
                 package={"name": BEFORE.name, "def_files": DEF_FILES, "new_package": AFTER.name, "new_files": NEW_FILES,
                          "operations": [{"operation": op, "module": module, "replicas_after": replicas} for op, module, replicas in OPERATIONS]},
                 settings={"rounds": args.rounds, "wait_sleep": args.wait_sleep, "lab_nodes": bench.nodes},
                 summary=summary, rounds=rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
