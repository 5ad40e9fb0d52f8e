#!/usr/bin/env python3
"""A Helm-chart CNF: each operation of the collection's Helm driver as a one-task playbook, against kubernetes.core.helm.

Tacker's Helm package (tacker-helm/test_helm_instantiate: chart test-chart 0.1.0, Deployments vdu1-<release> and
vdu2-<release>, one pod each at the default instantiation level, a Service and a ServiceAccount) and, for the change of
package, a package derived from it as the lab test (tests/integration/k8s/test_helm_lifecycle.py, chart_package) derives
it: chart version 0.1.1, VDU2's image nginx -> nginx:1.27, a new VNFD id, the new chart packed and declared in TOSCA.meta.
Two contenders, each in a fresh namespace per round of a private lab (tools/lab/k8s), take it through the same operations
in turn, each starting where the previous one left the CNF, with the same helm binary (tools/lab/helm, helm_lab.find_binary):

  install    vnf_instantiate, Tacker's helm_instantiate request (ETSINFV.HELM.V_3, helm_chart_path, helm_parameters
             service.port 8081 / service.type NodePort, helm_value_names: replicaCountVdu1 / 2 at the default level, 1)
                                              | kubernetes.core.helm present, chart_ref the same .tgz, release_values the
                                                same values (replica counts and service), wait
  upgrade    vnf_change_pkg to the 0.1.1 package (Tacker's helm_change_vnfpkg: RollingUpdate, helm_chart_path,
             vdu_params VDU2)                 | kubernetes.core.helm present, chart_ref the 0.1.1 .tgz, the same values, wait
  uninstall  vnf_terminate, Tacker's helm_terminate request (FORCEFUL), then vnf_delete of the identifier as the lab test
             does (timed apart: the ratio is terminate's alone)
                                              | kubernetes.core.helm absent, wait

Each run is one ansible-playbook (one task) on the staged collection, with kubernetes.core from PyPI's ansible package
(module_call_cost.anchors_collections) on the same ansible-core and Python (binary_path: the lab's helm); the modules get
the same helm as helm_binary, wait: true, wait_sleep 1. The vimConnectionInfo of Tacker's request keeps vimId and vimType
(the demo's tools/demo/cnf_helm.yml form): the lab's API server and credentials are the kubeconfig's, as the peer's.
Per operation, who goes first alternates between rounds. Measured per run (as cnf_operations.py): wall time; CPU seconds of
the ansible-playbook process tree (user + sys, RUSAGE_CHILDREN delta: ansible-playbook, its workers, the module process and
the helm processes it ran); the admin user's API requests from the lab's audit log (helm's own included: it uses the same
kubeconfig; reads, writes, server-side dry runs apart). After each run the script polls until the CNF is in the operation's
end state (both Deployments at 1 replica, ready, no pod terminating; after upgrade every VDU2 pod on nginx:1.27; after
uninstall no Deployment, ReplicaSet, pod, Service or Helm release left): `settle_after_s` > 0 means the run returned before.

Then --profile-rounds (default 1) more rounds, not in the ratios: the same runs with a wrapper script as helm (for both
contenders), which logs each helm call's subcommand, start, wall and CPU time; the report splits each run's wall time into
helm's calls and the rest (ansible-playbook, the module's Python and its own API requests).

Run: make stage, then with ANSIBLE_COLLECTIONS_PATH set to the staged collections dir (see README.md)
  $(make -s venv-path)/bin/python benchmarks/helm_operations.py [--rounds 3] [--profile-rounds 1]
Always starts a private lab (its audit policy logs the admin's reads) and stops it. NFV_FIXTURES_DIR: the fixtures dir
holding tacker-helm, or its tacker dir (as the Makefile sets it). Results: benchmarks/results/helm_operations-<date>.json.
"""
from __future__ import annotations

import argparse
import datetime
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cnf_container_update  # noqa: E402
import cnf_instantiate  # noqa: E402
import cnf_operations  # noqa: E402
from cnf_instantiate import ROOT, kubectl_version, lab_binaries, loadavg, machine, private_lab, stats, wait_until, write_report  # noqa: E402
from cnf_operations import ReadAuditedLab, cell, operation_summary, requests_of, wall_of  # noqa: E402
from module_call_cost import Caller, anchors_collections, collection_version, cpu_of  # noqa: E402

sys.path.insert(0, str(ROOT / "tools" / "lab" / "helm"))
import helm_lab  # noqa: E402

FIXTURES = Path(os.environ.get("NFV_FIXTURES_DIR") or ROOT.parent / "shared" / "fixtures" / "tacker")
# The Makefile's NFV_FIXTURES_DIR is the fixtures' tacker dir (the lab test: its parent's tacker-helm); the parent works too.
HELM_FIXTURES = next((path for path in (FIXTURES / "tacker-helm", FIXTURES.parent / "tacker-helm") if path.is_dir()), FIXTURES / "tacker-helm")
PACKAGE = HELM_FIXTURES / "test_helm_instantiate"
REQUESTS = HELM_FIXTURES / "requests" / "test_helm"
CHART_DIR = "Files/kubernetes/test-chart"
CHART = "Files/kubernetes/test-chart-0.1.0.tgz"
VNFD_ID = "b8c1e0f2-3a4d-4e5f-9a6b-7c8d9e0f1a2b"
# The lab test's first change of package: test-chart 0.1.1, VDU2 on nginx:1.27, this VNFD id.
NEW_VERSION, NEW_IMAGE, NEW_VNFD_ID = "0.1.1", "nginx:1.27", "b8c1e0f2-3a4d-4e5f-9a6b-7c8d9e0f1a2c"
INSTANCE_NAME = "bench-helm"
REPLICAS = 1  # each VDU's number_of_instances at the default level (instantiation_level_1), given through helm_value_names
# (operation, the collection's module)
OPERATIONS = (("install", "vnf_instantiate"), ("upgrade", "vnf_change_pkg"), ("uninstall", "vnf_terminate"))
TOOLS = ("vnflcm", "kcore")
# The modules whose AnsiballZ payload the controller builds for these runs (module_call_cost's build: size, CPU seconds).
BUILT = ("nfv.vnflcm.vnf_instantiate", "nfv.vnflcm.vnf_change_pkg", "nfv.vnflcm.vnf_terminate", "nfv.vnflcm.vnf_delete", "kubernetes.core.helm")
# The wrapper given as helm in the profile rounds: helm's argv passed as it is, one line per call appended to the log
# (start and end epoch seconds, exit code, the subcommand, then bash's `times`: its own user and sys time, and on a line of
# its own its children's, the helm process's: a builtin run in the script's shell, not in a subshell, which would count none).
WRAPPER = """#!/bin/bash
start=$EPOCHREALTIME
{helm} "$@"
rc=$?
end=$EPOCHREALTIME
case "$1" in plugin|show|get|repo|dependency) cmd="$1 $2" ;; *) cmd="$1" ;; esac
printf '%s\\t%s\\t%s\\t%s\\t' "$start" "$end" "$rc" "$cmd" >> {log}
times >> {log}
exit $rc
"""


def tacker_request(name: str, namespace: str | None = None) -> dict:
    """One of Tacker's test_helm request bodies; the instantiate one with the namespace and the lab's VIM (vimId and
    vimType, as tools/demo/cnf_helm.yml: the kubeconfig names the API server and the credentials)."""
    body = json.loads((REQUESTS / name).read_text())
    vim = body.get("vimConnectionInfo", {}).get("vim1")
    if vim:
        body["vimConnectionInfo"]["vim1"] = {"vimId": "lab", "vimType": vim["vimType"]}
    if namespace and "additionalParams" in body:
        body["additionalParams"]["namespace"] = namespace
    return body


def peer_values(request: dict) -> dict:
    """The values Tacker's request gives Helm, as a kubernetes.core user writes them (release_values): helm_parameters
    (dotted keys nested) and each VDU's replica key at the default level's count."""
    values = {}
    for key, value in request["additionalParams"]["helm_parameters"].items():
        *parents, last = key.split(".")
        node = values
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = value
    for names in request["additionalParams"]["helm_value_names"].values():
        values[names["replica"]] = REPLICAS
    return values


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    if old in text:
        path.write_text(text.replace(old, new))


def chart_package(folder: Path, version: str, vdu2_image: str, vnfd_id: str) -> tuple[Path, str]:
    """Tacker's Helm package with a chart of its own, derived as the lab test derives test-chart-0.1.1 (its chart_package):
    the chart ``version``, VDU2's image, packed as a .tgz declared in TOSCA.meta with its hash, the VNFD id ``vnfd_id``.
    (The package folder, the chart's path in it.)"""
    shutil.copytree(PACKAGE, folder)
    chart_dir = folder / CHART_DIR
    replace_in(chart_dir / "Chart.yaml", "version: 0.1.0", "version: " + version)
    replace_in(chart_dir / "templates" / "deployment_vdu2.yaml", "image: nginx", "image: " + vdu2_image)
    for path in (folder / "Definitions").iterdir():
        replace_in(path, VNFD_ID, vnfd_id)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        archive.add(str(chart_dir), arcname="test-chart")
    chart = "Files/kubernetes/test-chart-{0}.tgz".format(version)
    (folder / chart).write_bytes(buffer.getvalue())
    with open(folder / "TOSCA-Metadata" / "TOSCA.meta", "a") as meta:
        meta.write("\nName: {0}\nContent-Type: test-data\nAlgorithm: SHA-256\nHash: {1}\n".format(chart, hashlib.sha256(buffer.getvalue()).hexdigest()))
    return folder, chart


def helm_version(helm: Path) -> str:
    return subprocess.run([str(helm), "version", "--short"], capture_output=True, text=True, check=True).stdout.strip()


class HelmBench(cnf_instantiate.Bench):
    """cnf_instantiate's Bench (namespaces, the audit log), with cnf_operations' one-task playbooks that also see
    kubernetes.core, and the two contenders' Helm operations."""

    # From cnf_container_update: a namespace waits for its default ServiceAccount.
    namespace = cnf_container_update.Bench.namespace
    # From cnf_operations: one ansible-playbook run of a task list, the result of its last task (the task_result callback).
    tasks = cnf_operations.OpsBench.tasks
    noop = cnf_operations.OpsBench.noop

    def __init__(self, lab, work: Path, helm: Path, wait_sleep: int, anchors: str):
        super().__init__(lab, None, {}, work, wait_sleep)
        self.env = dict(self.env, ANSIBLE_COLLECTIONS_PATH=self.env["ANSIBLE_COLLECTIONS_PATH"] + os.pathsep + anchors,
                        ANSIBLE_CALLBACK_PLUGINS=str(cnf_operations.CALLBACKS), ANSIBLE_CALLBACKS_ENABLED="task_result")
        self.helm = helm
        self.state = {}  # namespace -> {"instance_id", "release"}
        self.new_package, self.new_chart = chart_package(work / ("package-" + NEW_VERSION), NEW_VERSION, NEW_IMAGE, NEW_VNFD_ID)
        self.values = peer_values(tacker_request("helm_instantiate.json"))

    def wrapper(self, log: Path) -> Path:
        """A helm that logs each call into ``log`` (the profile rounds)."""
        path = self.work / "helm-wrapper-{0}".format(log.stem)
        path.write_text(WRAPPER.format(helm=self.helm, log=log))
        path.chmod(0o755)
        return path

    # ---- the collection's modules ----

    def vnflcm(self, operation: str, namespace: str, helm: Path):
        state = self.state[namespace]
        args = {"kubeconfig": str(self.lab.kubeconfig), "namespace": namespace, "helm_binary": str(helm),
                "wait": True, "wait_timeout": 300, "wait_sleep": self.wait_sleep}
        if operation == "install":
            module = "vnf_instantiate"
            args.update(package=str(PACKAGE), vnf_instance_name=INSTANCE_NAME, request=tacker_request("helm_instantiate.json", namespace))
        else:
            args["vnf_instance_id"] = state["instance_id"]
        if operation == "upgrade":
            module = "vnf_change_pkg"
            args.update(package=str(self.new_package), request={"vnfdId": NEW_VNFD_ID, "additionalParams": {
                "upgrade_type": "RollingUpdate", "helm_chart_path": self.new_chart, "vdu_params": [{"vdu_id": "VDU2"}]}})
        elif operation == "uninstall":
            module = "vnf_terminate"
            args.update(request=tacker_request("helm_terminate.json"))
        elif operation == "delete":
            module = "vnf_delete"
            args = {key: args[key] for key in ("kubeconfig", "namespace", "helm_binary", "vnf_instance_id")}

        def run():
            result = self.tasks([{"nfv.vnflcm." + module: args, "ignore_errors": True}])
            if result.get("failed"):
                raise SystemExit("{0} failed in {1}: {2}\n{3}".format(module, namespace, result.get("msg"), json.dumps(result, indent=1)[-4000:]))
            if operation == "install":
                state["instance_id"] = result["vnf_instance"]["id"]
                state["release"] = result["plan"]["release"]
            return {"changed": result.get("changed"), "module_api_calls": result.get("api_calls"),
                    "operation_state": (result.get("vnf_lcm_op_occ") or {}).get("operationState")}
        return run

    # ---- kubernetes.core.helm: what an Ansible user writes for the same effect ----

    def kcore(self, operation: str, namespace: str, helm: Path):
        state = self.state[namespace]
        if operation == "install":
            state["release"] = "vnf" + uuid.uuid4().hex  # named as Tacker names a release: the same object name lengths
        args = {"kubeconfig": str(self.lab.kubeconfig), "binary_path": str(helm), "name": state["release"], "release_namespace": namespace,
                "wait": True}
        if operation == "uninstall":
            args["state"] = "absent"
        else:
            chart = PACKAGE / CHART if operation == "install" else self.new_package / self.new_chart
            args.update(state="present", chart_ref=str(chart), release_values=self.values)

        def run():
            result = self.tasks([{"kubernetes.core.helm": args, "ignore_errors": True}])
            if result.get("failed"):
                raise SystemExit("kubernetes.core.helm {0} failed in {1}: {2}".format(operation, namespace, result.get("msg")))
            return {"changed": result.get("changed")}
        return run

    # ---- measuring a run ----

    def measure(self, run, namespace: str, operation: str | None, log: Path | None = None) -> dict:
        """run() -> extra: wall and CPU time, the admin's requests from the audit log, then the wait for the end state
        (``operation`` None: none to wait for); with ``log``, the helm calls the wrapper logged."""
        start = self.audit.mark()
        began = time.time()
        (extra, wall), cpu = cpu_of(lambda: wall_of(run))
        out = dict(extra, wall_s=wall, cpu_s=round(cpu, 3), **requests_of(self.audit.events(start)))
        if operation:
            out["settle_after_s"] = self.wait_end_state(namespace, operation)
        if log is not None:
            out["helm_calls"] = helm_calls(log, began)
        return out

    def operation(self, tool: str, operation: str, namespace: str, profile: bool = False) -> dict:
        log = self.work / "helm-calls-{0}.log".format(self.runs + 1) if profile else None
        helm = self.wrapper(log) if profile else self.helm
        run = (self.vnflcm if tool == "vnflcm" else self.kcore)(operation, namespace, helm)
        return self.measure(run, namespace, None if operation == "delete" else operation, log)

    # ---- the CNF's state ----

    def listed(self, namespace: str, path: str, plural: str, selector: str = "") -> list[dict]:
        return self.api.call("GET", "{0}/namespaces/{1}/{2}{3}".format(path, namespace, plural, selector))["items"]

    def wait_end_state(self, namespace: str, operation: str, timeout: float = 120) -> float:
        """Poll until the CNF is where ``operation`` leaves it; the seconds it took (0: it already was)."""
        release = self.state[namespace]["release"]

        def problems():
            if operation == "uninstall":
                left = ["{0}/{1}".format(plural, obj["metadata"]["name"]) for path, plural in (
                    ("/apis/apps/v1", "deployments"), ("/apis/apps/v1", "replicasets"), ("/api/v1", "pods"), ("/api/v1", "services"))
                    for obj in self.listed(namespace, path, plural)]
                left += ["release " + obj["metadata"]["name"] for obj in self.listed(namespace, "/api/v1", "secrets", "?labelSelector=owner%3Dhelm")]
                return {"left": ", ".join(left)}
            return self.workloads(namespace, release, NEW_IMAGE if operation == "upgrade" else None)
        return wait_until(problems, timeout, "{0}: not where {1} leaves it".format(namespace, operation))

    def workloads(self, namespace: str, release: str, vdu2_image: str | None) -> dict:
        """Deployment name -> problem ("": at REPLICAS, all ready and updated, no pod terminating; VDU2's pods on ``vdu2_image``)."""
        pods = self.listed(namespace, "/api/v1", "pods")
        top = {}
        for rs in self.listed(namespace, "/apis/apps/v1", "replicasets"):
            parent = next((ref for ref in rs["metadata"].get("ownerReferences") or [] if ref.get("controller")), None)
            top[rs["metadata"]["name"]] = parent["name"] if parent else None
        out = {}
        for vdu in ("vdu1", "vdu2"):
            name = "{0}-{1}".format(vdu, release)
            status, obj, _ = self.api.request("GET", "/apis/apps/v1/namespaces/{0}/deployments/{1}".format(namespace, name))
            if status != 200:
                out[name] = "HTTP {0}".format(status)
                continue
            spec, st = obj["spec"].get("replicas"), obj.get("status") or {}
            mine = [pod for pod in pods if any(ref.get("controller") and top.get(ref["name"]) == name
                                               for ref in pod["metadata"].get("ownerReferences") or [])]
            terminating = sum(1 for pod in mine if pod["metadata"].get("deletionTimestamp"))
            problems = []
            if spec != REPLICAS or any(st.get(key, 0) != REPLICAS for key in ("replicas", "readyReplicas", "updatedReplicas")):
                problems.append("spec {0}, status {1}".format(spec, {key: st.get(key) for key in ("replicas", "readyReplicas", "updatedReplicas")}))
            if len(mine) != REPLICAS or terminating:
                problems.append("pods {0}, {1} terminating".format(len(mine), terminating))
            images = {c["image"] for pod in mine for c in pod["spec"]["containers"]}
            if vdu == "vdu2" and vdu2_image and images != {vdu2_image}:
                problems.append("images {0}".format(sorted(images)))
            out[name] = "; ".join(problems)
        return out


def helm_calls(log: Path, began: float) -> list[dict]:
    """The wrapper's lines: each helm call's subcommand, start (seconds after the run began), wall and CPU seconds, exit code."""
    calls = []
    lines = log.read_text().splitlines() if log.exists() else []
    for first, children in zip(lines[0::2], lines[1::2]):
        start, end, rc, command, _own = first.split("\t")
        # bash `times`, the children's line: 0m0.120s 0m0.030s (user, sys)
        seconds = sum(int(part.split("m")[0]) * 60 + float(part.split("m")[1].rstrip("s")) for part in children.split())
        calls.append({"command": command, "start_s": round(float(start) - began, 3), "wall_s": round(float(end) - float(start), 3),
                      "cpu_s": round(seconds, 3), "rc": int(rc)})
    return calls


# ---------------------------------------------------------------------------------------------
# Rounds and the report

def run_rounds(bench: HelmBench, count: int, prefix: str, profile: bool = False) -> list[dict]:
    """Per round: a fresh namespace per contender, then every operation in turn, who goes first alternating between
    rounds; our vnf_delete right after our terminate (timed apart); a no-op playbook at the end."""
    rounds = []
    for number in range(count):
        entry = {"loadavg_at_start": loadavg(), "order": list(TOOLS) if number % 2 == 0 else list(TOOLS)[::-1]}
        spaces = {tool: bench.namespace("{0}-{1}-{2}".format(prefix, number, tool)) for tool in TOOLS}
        for namespace in spaces.values():
            bench.state[namespace] = {}
        try:
            for operation, _module in OPERATIONS:
                for tool in entry["order"]:
                    measured = bench.operation(tool, operation, spaces[tool], profile)
                    entry.setdefault(tool, {})[operation] = measured
                    shown = ("changed", "wall_s", "cpu_s", "reads", "writes", "dry_runs", "settle_after_s")
                    print("round {0}{1} {2:9} {3:6} {4}".format(number + 1, " (profile)" if profile else "", operation, tool,
                                                                {k: measured[k] for k in shown if k in measured}), file=sys.stderr)
                    if tool == "vnflcm" and operation == "uninstall":
                        entry[tool]["delete"] = bench.operation(tool, "delete", spaces[tool], profile)
                        print("round {0} delete    vnflcm {1}".format(number + 1, {k: entry[tool]["delete"][k] for k in shown[:-1]}), file=sys.stderr)
            entry["ansible_noop"] = bench.noop()
            entry["loadavg_at_end"] = loadavg()
            rounds.append(entry)
        finally:
            bench.delete_namespaces(list(spaces.values()))
    return rounds


def summarize(rounds: list[dict]) -> dict:
    out = {operation: operation_summary(rounds, operation, TOOLS, {"ratio": "kcore"}, changed_by=TOOLS) for operation, _module in OPERATIONS}
    # Our vnf_delete after terminate, not in the ratio; and terminate + delete against the peer's uninstall.
    out["vnflcm_delete"] = {metric: stats([r["vnflcm"]["delete"][metric] for r in rounds]) for metric in ("wall_s", "cpu_s", "api_calls")}
    both = [round((r["vnflcm"]["uninstall"]["wall_s"] + r["vnflcm"]["delete"]["wall_s"]) / r["kcore"]["uninstall"]["wall_s"], 3) for r in rounds]
    out["uninstall"]["wall_s_with_delete_ratio"] = dict(stats(both), per_round=both)
    out["ansible_noop"] = {metric: stats([r["ansible_noop"][metric] for r in rounds]) for metric in ("wall_s", "cpu_s")}
    return out


def summarize_profile(rounds: list[dict]) -> dict:
    """Per operation and contender (and our delete): the helm calls by subcommand (calls per run, median wall and CPU
    seconds summed per run), helm's share of the run, the time before the first helm call, between the calls and after the
    last one."""
    out = {}
    for operation in [op for op, _module in OPERATIONS] + ["delete"]:
        out[operation] = {}
        for tool in TOOLS:
            runs = [r[tool][operation] for r in rounds if operation in r[tool]]
            if not runs:
                continue
            by_command = {}
            for command in sorted({call["command"] for run in runs for call in run["helm_calls"]}):
                mine = [[call for call in run["helm_calls"] if call["command"] == command] for run in runs]
                by_command[command] = {"calls": stats([len(calls) for calls in mine]),
                                       "wall_s": stats([round(sum(c["wall_s"] for c in calls), 3) for calls in mine]),
                                       "cpu_s": stats([round(sum(c["cpu_s"] for c in calls), 3) for calls in mine])}
            helm_wall = [round(sum(c["wall_s"] for c in run["helm_calls"]), 3) for run in runs]
            out[operation][tool] = {
                "wall_s": stats([run["wall_s"] for run in runs]), "cpu_s": stats([run["cpu_s"] for run in runs]),
                "helm_calls": stats([len(run["helm_calls"]) for run in runs]), "helm_wall_s": stats(helm_wall),
                "helm_cpu_s": stats([round(sum(c["cpu_s"] for c in run["helm_calls"]), 3) for run in runs]),
                "outside_helm_s": stats([round(run["wall_s"] - h, 3) for run, h in zip(runs, helm_wall)]),
                "before_first_helm_s": stats([run["helm_calls"][0]["start_s"] for run in runs if run["helm_calls"]]),
                "between_helm_s": stats([round(sum(b["start_s"] - a["start_s"] - a["wall_s"] for a, b in zip(run["helm_calls"], run["helm_calls"][1:])), 3)
                                         for run in runs if run["helm_calls"]]),
                "after_last_helm_s": stats([round(run["wall_s"] - max(c["start_s"] + c["wall_s"] for c in run["helm_calls"]), 3)
                                            for run in runs if run["helm_calls"]]),
                "by_command": by_command,
                "sequence": [[c["command"], c["start_s"], c["wall_s"]] for c in runs[-1]["helm_calls"]],
            }
    return out


def module_builds(work: Path, collections: str, rounds: int = 3) -> dict:
    """module_call_cost's build of each module's AnsiballZ payload, as ansible-playbook does once per task: its size and the
    median CPU seconds of ``rounds`` fresh builds."""
    caller = Caller(work / "builds", collections, dict(os.environ))
    runs = {module: [caller.build(module) for _ in range(rounds)] for module in BUILT}
    return {module: {"payload_bytes": built[0]["payload_bytes"], "build_cpu_s": round(stats([b["build_cpu_s"] for b in built])["median"], 3)}
            for module, built in runs.items()}


def print_table(summary: dict, rounds: int) -> None:
    """Markdown: per operation, wall time, CPU and API requests of each contender, median [min–max], and ours / peer."""
    print("\n| operation | metric | nfv.vnflcm | kubernetes.core.helm | ours / kubernetes.core |")
    print("|---|---|---|---|---|")
    for operation, module in OPERATIONS:
        s = summary[operation]
        for metric, label, fmt in (("wall_s", "wall s", "{:.2f}"), ("cpu_s", "CPU s", "{:.2f}")):
            name = "`{0}`".format(module) if metric == "wall_s" else ""
            cells = [cell(s[metric][tool], fmt) for tool in TOOLS] + [cell(s[metric]["ratio"], "{:.2f}")]
            print("| {0} | {1} | {2} | {3} | **{4}** |".format(name, label, *cells))
        calls = ["{0:g} ({1:g} + {2:g}{3})".format(s["api_calls"][tool]["median"], s["reads"][tool]["median"], s["writes"][tool]["median"],
                                                   " + {0:g}".format(s["dry_runs"][tool]["median"]) if s["dry_runs"][tool]["median"] else "")
                 for tool in TOOLS]
        ratio = s["api_calls"]["ratio"]
        print("| | API requests (reads + writes + dry runs) | {0} | {1} | **{2}** |".format(*calls, "–" if not ratio else "{:.2f}".format(ratio["median"])))
    delete, noop = summary["vnflcm_delete"], summary["ansible_noop"]
    print("\n(median [min–max] of {0} rounds; our vnf_delete after terminate, apart: {1} s wall, {2} s CPU; terminate + delete "
          "against the peer's uninstall: {3}; ansible-playbook with a no-op task: {4} s wall, {5} s CPU)".format(
              rounds, cell(delete["wall_s"], "{:.2f}"), cell(delete["cpu_s"], "{:.2f}"), cell(summary["uninstall"]["wall_s_with_delete_ratio"], "{:.2f}"),
              cell(noop["wall_s"], "{:.2f}"), cell(noop["cpu_s"], "{:.2f}")))


def print_profile(profile: dict, rounds: int) -> None:
    print("\nhelm calls (profile, {0} round(s), a wrapper as helm): per run, calls x subcommand (wall s summed)".format(rounds))
    print("| operation | contender | run wall s | helm calls wall s (CPU s) | outside helm s | before 1st helm s | between | after last | the calls |")
    print("|---|---|---|---|---|---|---|---|---|")
    for operation, per_tool in profile.items():
        for tool, p in per_tool.items():
            calls = ", ".join("{0:g}× {1} {2:.2f}".format(c["calls"]["median"], command, c["wall_s"]["median"]) for command, c in p["by_command"].items())
            gaps = ["–" if not p[key] else "{:.2f}".format(p[key]["median"]) for key in ("before_first_helm_s", "between_helm_s", "after_last_helm_s")]
            print("| {0} | {1} | {2:.2f} | {3:.2f} ({4:.2f}) | {5:.2f} | {6} | {7} | {8} | {9} |".format(
                operation, tool, p["wall_s"]["median"], p["helm_wall_s"]["median"], p["helm_cpu_s"]["median"], p["outside_helm_s"]["median"], *gaps, calls))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--profile-rounds", type=int, default=1, help="rounds with the helm-timing wrapper after the measured ones (not in the ratios)")
    p.add_argument("--wait-sleep", type=int, default=1, help="wait_sleep of the modules (seconds between polls)")
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = p.parse_args(argv)
    if not (PACKAGE / CHART).is_file():
        raise SystemExit("Tacker's Helm package is not at {0}: set NFV_FIXTURES_DIR".format(PACKAGE))
    bin_dir = lab_binaries()
    helm = helm_lab.find_binary()
    if not helm:
        raise SystemExit("helm is not built: run tools/lab/helm/helm_lab.py build")
    anchors = anchors_collections()
    stamp = datetime.datetime.now(datetime.timezone.utc)
    load_before = loadavg()
    with tempfile.TemporaryDirectory(prefix="helm-operations-bench-") as tmp:
        work = Path(tmp)
        with private_lab(ReadAuditedLab(work / "lab"), bin_dir) as lab:
            bench = HelmBench(lab, work, helm, args.wait_sleep, anchors)
            prefix = "helm-" + stamp.strftime("%H%M%S")
            rounds = run_rounds(bench, args.rounds, prefix)
            profiled = run_rounds(bench, args.profile_rounds, prefix + "-p", profile=True) if args.profile_rounds else []
        builds = module_builds(work, bench.env["ANSIBLE_COLLECTIONS_PATH"]) if args.profile_rounds else None
    summary = summarize(rounds)
    profile = summarize_profile(profiled) if profiled else None
    print_table(summary, args.rounds)
    if profile:
        print_profile(profile, args.profile_rounds)
        built = ["{0} {1:.2f} MB, {2:.2f} s CPU".format(module, b["payload_bytes"] / 1e6, b["build_cpu_s"]) for module, b in builds.items()]
        print("\nAnsiballZ payloads built: " + "; ".join(built))
    write_report(args.out, "helm_operations", stamp, machine=machine(load_before), kubectl=kubectl_version(bin_dir), helm=helm_version(helm),
                 peers={"kubernetes.core": collection_version(anchors, "kubernetes.core")},
                 package={"name": PACKAGE.name, "chart": CHART, "new_chart": bench.new_chart, "new_vdu2_image": NEW_IMAGE, "new_vnfd_id": NEW_VNFD_ID,
                          "peer_values": bench.values, "replicas_per_vdu": REPLICAS,
                          "operations": [{"operation": op, "module": module} for op, module in OPERATIONS]},
                 settings={"rounds": args.rounds, "profile_rounds": args.profile_rounds, "wait_sleep": args.wait_sleep, "lab_nodes": bench.nodes,
                           "ratio": "wall_s and cpu_s: ours / kubernetes.core per round, median [min-max]; uninstall: vnf_terminate alone "
                                    "(vnflcm_delete apart, wall_s_with_delete_ratio with it)"},
                 summary=summary, profile=profile, module_builds=builds, rounds=rounds, profile_rounds=profiled)
    return 0


if __name__ == "__main__":
    sys.exit(main())
