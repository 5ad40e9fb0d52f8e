#!/usr/bin/env python3
"""Instantiate a generated 200-object CNF: nfv.vnflcm.vnf_instantiate against `kubectl apply -f`.

Both run side by side on the same local Kubernetes lab (tools/lab/k8s), alternating, each round
into fresh namespaces, and both include readiness: the module waits (wait: true), kubectl is
followed by `kubectl wait` for the workloads. Then each runs again on its namespace (the
idempotent re-run). Measured per run: wall time and API calls.

API calls: writes from the apiserver's audit log (the lab logs every write; filtered to the
admin user, so controller writes do not count); reads from the module's own `api_calls` result
and from kubectl's `-v=6` request log (the lab's audit policy does not log reads).

Run: make stage, then with ANSIBLE_COLLECTIONS_PATH set to the staged collections dir (see README.md)
  $(make -s venv-path)/bin/python benchmarks/cnf_instantiate.py [--rounds 5] [--objects 200]
A lab that is up in $NFV_LAB_STATE_DIR (or the default state dir) is used, else a private one is
started and stopped. Results go to benchmarks/results/cnf_instantiate-<date>.json.
"""
from __future__ import annotations

import argparse
import base64
import contextlib
import datetime
import hashlib
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools" / "lab" / "k8s"))

from labk8s import build  # noqa: E402
from labk8s.audit import AuditLog, is_dry_run  # noqa: E402
from labk8s.cluster import ADMIN_USER, Lab  # noqa: E402
import ratios  # noqa: E402

TEMPLATE = Path(os.environ.get("NFV_FIXTURES_DIR") or ROOT.parent / "shared" / "fixtures" / "tacker") / "test_cnf_multi_ns"
OBJECTS_PER_APP = 8
# One app in five is a StatefulSet, one a DaemonSet, the rest Deployments.
WORKLOAD_OF = ("Deployment", "Deployment", "Deployment", "StatefulSet", "DaemonSet")
REPLICAS = {"Deployment": 2, "StatefulSet": 1}
KUBECTL_REQUEST = re.compile(r'verb="([A-Z]+)" url="')


# ---------------------------------------------------------------------------------------------
# The package: Tacker's test_cnf_multi_ns Definitions, a flavour with one VDU per workload.

def app_objects(name: str, kind: str) -> list[dict]:
    """The 8 objects of one app: ServiceAccount, 2 ConfigMaps, Secret, Role, RoleBinding, Service, workload."""
    labels = {"app": name}
    pod_spec = {
        "serviceAccountName": name,
        "containers": [{"name": "main", "image": "registry.example/" + name + ":1.0",
                        "envFrom": [{"configMapRef": {"name": name + "-env"}}],
                        "ports": [{"containerPort": 8080, "protocol": "TCP"}],
                        "volumeMounts": [{"name": "config", "mountPath": "/etc/app"},
                                         {"name": "credentials", "mountPath": "/etc/credentials", "readOnly": True}]}],
        "volumes": [{"name": "config", "configMap": {"name": name + "-config"}},
                    {"name": "credentials", "secret": {"secretName": name + "-credentials"}}],
    }
    spec = {"selector": {"matchLabels": labels}, "template": {"metadata": {"labels": labels}, "spec": pod_spec}}
    if kind in REPLICAS:
        spec["replicas"] = REPLICAS[kind]
    if kind == "StatefulSet":
        spec["serviceName"] = name
    service_spec = {"selector": labels, "ports": [{"name": "http", "port": 80, "targetPort": 8080}]}
    if kind == "StatefulSet":
        service_spec["clusterIP"] = "None"

    def meta(suffix=""):
        return {"name": name + suffix, "labels": labels}

    return [
        {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": meta()},
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta("-config"),
         "data": {"app.conf": "listen 8080\nname {0}\n".format(name)}},
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta("-env"), "data": {"LOG_LEVEL": "info", "APP": name}},
        # data, not stringData: kubectl apply re-sends stringData on every run (a PATCH each time)
        {"apiVersion": "v1", "kind": "Secret", "metadata": meta("-credentials"), "type": "Opaque",
         "data": {"password": base64.b64encode(hashlib.sha256(name.encode()).digest()[:12]).decode()}},
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": meta(),
         "rules": [{"apiGroups": [""], "resources": ["configmaps"], "verbs": ["get", "list", "watch"]}]},
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": meta(),
         "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": name},
         "subjects": [{"kind": "ServiceAccount", "name": name}]},
        {"apiVersion": "v1", "kind": "Service", "metadata": meta(), "spec": service_spec},
        {"apiVersion": "apps/v1", "kind": kind, "metadata": meta(), "spec": spec},
    ]


def flavour_definition(apps: list[tuple[str, str]]) -> dict:
    """The template's df file with its VDUs replaced: one per workload, sized as the manifest is."""
    df = yaml.safe_load((TEMPLATE / "Definitions" / "helloworld3_df_simple.yaml").read_text())
    topology = df["topology_template"]
    topology["node_templates"] = {"VNF": topology["node_templates"]["VNF"]}
    policies = []
    for index, (name, kind) in enumerate(apps, 1):
        topology["node_templates"]["VDU{0}".format(index)] = {
            "type": "tosca.nodes.nfv.Vdu.Compute",
            "properties": {"name": name, "description": kind + " as VDU",
                           "vdu_profile": {"min_number_of_instances": 1, "max_number_of_instances": 3}}}
        if kind in REPLICAS:  # a DaemonSet runs one pod per node: no VNFD count applies
            policies.append({"vdu{0}_initial_delta".format(index): {
                "type": "tosca.policies.nfv.VduInitialDelta",
                "properties": {"initial_delta": {"number_of_instances": REPLICAS[kind]}},
                "targets": ["VDU{0}".format(index)]}})
    topology["policies"] = policies
    return df


def generate_package(dest: Path, objects: int) -> dict:
    """Write the VNF package; return its summary (def files, workloads by kind, object count)."""
    if objects % OBJECTS_PER_APP:
        raise SystemExit("--objects must be a multiple of {0}".format(OBJECTS_PER_APP))
    apps = [("app{0:02d}".format(i), WORKLOAD_OF[i % len(WORKLOAD_OF)]) for i in range(objects // OBJECTS_PER_APP)]
    shutil.copytree(TEMPLATE / "Definitions", dest / "Definitions")
    (dest / "Definitions" / "helloworld3_df_simple.yaml").write_text(yaml.safe_dump(flavour_definition(apps), sort_keys=False))
    kube_dir = dest / "Files" / "kubernetes"
    kube_dir.mkdir(parents=True)
    def_files, blocks = [], []
    for name, kind in apps:
        relpath = "Files/kubernetes/{0}.yaml".format(name)
        text = yaml.safe_dump_all(app_objects(name, kind), sort_keys=False)
        (dest / relpath).write_text(text)
        def_files.append(relpath)
        blocks.append("Name: {0}\nContent-Type: application/yaml\nAlgorithm: SHA-256\nHash: {1}\n".format(
            relpath, hashlib.sha256(text.encode()).hexdigest()))
    (dest / "TOSCA-Metadata").mkdir()
    header = "TOSCA-Meta-File-Version: 1.0\nCreated-by: benchmark\nCSAR-Version: 1.1\nEntry-Definitions: Definitions/helloworld3_top.vnfd.yaml\n"
    (dest / "TOSCA-Metadata" / "TOSCA.meta").write_text(header + "\n" + "\n".join(blocks))
    kinds = {}
    for _, kind in apps:
        kinds[kind] = kinds.get(kind, 0) + 1
    return {"path": str(dest), "def_files": def_files, "objects": len(apps) * OBJECTS_PER_APP, "workloads": kinds}


# ---------------------------------------------------------------------------------------------
# The two ways to deploy it.

class Bench:
    def __init__(self, lab: Lab, kubectl: Path, package: dict, work: Path, wait_sleep: int):
        self.lab, self.kubectl, self.package, self.work, self.wait_sleep = lab, kubectl, package, work, wait_sleep
        self.api = lab.api()
        self.audit = AuditLog.for_lab(lab)
        self.nodes = len(self.api.call("GET", "/api/v1/nodes")["items"])
        self.env = dict(os.environ, ANSIBLE_LOCALHOST_WARNING="false", ANSIBLE_INVENTORY_UNPARSED_WARNING="false",
                        ANSIBLE_PYTHON_INTERPRETER=sys.executable, KUBECONFIG=str(lab.kubeconfig))
        self.runs = 0

    def namespace(self, name: str) -> str:
        self.api.call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}})
        return name

    def delete_namespaces(self, names: list[str], wait: bool = True) -> None:
        """Delete, and wait until gone: the lab's nodes hold 110 pods each, and the next round starts quiet."""
        for name in names:
            self.api.request("DELETE", "/api/v1/namespaces/" + name)
        deadline = time.monotonic() + 300
        while wait and any(self.api.request("GET", "/api/v1/namespaces/" + name)[0] == 200 for name in names):
            if time.monotonic() > deadline:
                raise SystemExit("namespaces not deleted after 300 s: " + ", ".join(names))
            time.sleep(1)

    def measure(self, fn, namespace: str) -> dict:
        """Run fn(namespace) -> (reads, extra); wall time, reads, and the admin's writes from the audit log."""
        return self.timed(lambda: fn(namespace))[0]

    def timed(self, call, namespace: str | None = None) -> tuple[dict, list[dict]]:
        """Run call() -> (reads, extra): extra with the wall time and the counts of ``writes_since``; and the writes."""
        start = self.audit.mark()
        began = time.monotonic()
        reads, extra = call()
        wall = time.monotonic() - began
        counts, writes = self.writes_since(start, reads, namespace)
        return dict(extra, wall_s=round(wall, 3), **counts), writes

    def writes_since(self, start: int, reads: int, namespace: str | None = None) -> tuple[dict, list[dict]]:
        """The admin's writes since the audit mark ``start``, counted (with ``reads``, the API calls), and the writes.

        With ``namespace``, only the writes into it count (other clients may use a shared lab meanwhile), server-side
        dry runs, which store nothing, are counted apart ("dry_runs", among the API calls), and so are the admin's
        writes elsewhere."""
        if namespace is None:
            events = writes = self.audit.writes(start, user=ADMIN_USER)
            apart = {}
        else:
            every = self.audit.writes(start, user=ADMIN_USER, dry_runs=True)
            events = [ev for ev in every if (ev.get("objectRef") or {}).get("namespace") == namespace]
            writes = [ev for ev in events if not is_dry_run(ev)]
            apart = {"dry_runs": len(events) - len(writes), "admin_writes_elsewhere": len(every) - len(events)}
        failed = [ev for ev in writes if not 200 <= ev.get("responseStatus", {}).get("code", 0) < 300]
        return dict(reads=reads, writes=len(writes), failed_writes=len(failed), **apart, api_calls=reads + len(events)), writes

    def playbook(self, task: dict) -> dict:
        """Run one task through ansible-playbook on the staged collection; return its registered result."""
        self.runs += 1
        out = self.work / "result-{0}.json".format(self.runs)
        play = [{"hosts": "localhost", "connection": "local", "gather_facts": False, "tasks": [
            dict(task, name="task", register="result"),
            {"name": "save the result", "ansible.builtin.copy": {"content": "{{ result | to_json }}", "dest": str(out)}}]}]
        playbook = self.work / "play-{0}.yml".format(self.runs)
        playbook.write_text(yaml.safe_dump(play))
        done = subprocess.run([str(Path(sys.executable).parent / "ansible-playbook"), str(playbook)],
                              capture_output=True, text=True, env=self.env, check=False)
        if done.returncode or not out.exists():
            raise SystemExit("ansible-playbook failed:\n" + done.stdout[-4000:] + done.stderr[-2000:])
        return json.loads(out.read_text())

    def module(self, name: str, args: dict, namespace: str) -> dict:
        """Run the collection's module ``name`` with ``args`` (ignore_errors); its result. When it fails, exits with
        its message, the namespace's Deployments, ReplicaSets and pods, and the end of its result."""
        result = self.playbook({"nfv.vnflcm." + name: args, "ignore_errors": True})
        if result.get("failed"):
            state = subprocess.run([str(self.kubectl), "get", "deployments,replicasets,pods", "-n", namespace, "-o", "wide"],
                                   capture_output=True, text=True, env=self.env, check=False)
            raise SystemExit("{0} failed in {1}: {2}\n{3}\nresult: {4}".format(
                name, namespace, result.get("msg"), state.stdout, json.dumps(result, indent=1)[-6000:]))
        return result

    def ansible_overhead(self) -> float:
        """Wall time of the same playbook with a no-op task: what ansible-playbook itself costs."""
        began = time.monotonic()
        self.playbook({"ansible.builtin.set_fact": {"noop": True}})
        return round(time.monotonic() - began, 3)

    def vnflcm(self, namespace: str):
        args = {"package": self.package["path"], "vnf_instance_name": "bench-cnf", "kubeconfig": str(self.lab.kubeconfig),
                "wait": True, "wait_timeout": 600, "wait_sleep": self.wait_sleep,
                "request": {"flavourId": "simple", "additionalParams": {
                    "namespace": namespace, "lcm-kubernetes-def-files": self.package["def_files"]}}}
        result = self.playbook({"nfv.vnflcm.vnf_instantiate": args})
        return result["api_calls"]["read"], {"changed": result["changed"], "module_writes": result["api_calls"]["write"]}

    def run_kubectl(self, args: list[str], namespace: str, calls: dict, stdin: str | None = None, ok=(0,)) -> str:
        """kubectl <args> -n <namespace> with -v=6, its requests counted by verb into ``calls``; returns its stdout. ``ok``:
        the exit codes that are not a failure (``kubectl diff`` exits 1 when it finds differences).

        A discovery cache per namespace: the first command discovers, the later ones reuse it (the module keeps none)."""
        cache = self.work / "kubectl-cache-{0}".format(namespace)
        done = subprocess.run([str(self.kubectl), *args, "-n", namespace, "--cache-dir", str(cache), "-v=6"],
                              capture_output=True, text=True, env=self.env, input=stdin, check=False)
        if done.returncode not in ok:
            raise SystemExit("kubectl {0} failed:\n{1}".format(" ".join(args), done.stderr[-4000:]))
        for verb in KUBECTL_REQUEST.findall(done.stderr):
            calls[verb] = calls.get(verb, 0) + 1
        return done.stdout

    def kubectl_apply(self, namespace: str):
        """kubectl apply -f <dir>, then kubectl wait per workload kind (what the module's wait checks)."""
        kube_dir = str(Path(self.package["path"]) / "Files" / "kubernetes")
        waits = {"Deployment": "--for=condition=Available",
                 "StatefulSet": "--for=jsonpath={.status.readyReplicas}=%d" % REPLICAS["StatefulSet"],
                 "DaemonSet": "--for=jsonpath={.status.numberReady}=%d" % self.nodes}
        calls = {}
        self.run_kubectl(["apply", "-f", kube_dir], namespace, calls)
        for kind in self.package["workloads"]:
            self.run_kubectl(["wait", waits[kind], kind.lower(), "--all", "--timeout=600s"], namespace, calls)
        return calls.get("GET", 0), {"kubectl_requests": calls}


# ---------------------------------------------------------------------------------------------
# Rounds and the report, shared by the CNF benchmarks (cnf_*.py import them from here).

def lab_binaries(kubectl=True):
    """The lab's binaries directory (with kubectl); exits with what to do when the collection is not staged or they are not built."""
    if not os.environ.get("ANSIBLE_COLLECTIONS_PATH"):
        raise SystemExit("ANSIBLE_COLLECTIONS_PATH is not set: run `make stage` and point it at the staged collections dir")
    bin_dir = build.find_bin_dir()
    if kubectl and (not bin_dir or not (bin_dir / "kubectl").exists()):
        raise SystemExit("lab binaries with kubectl are not built; run tools/lab/k8s/lab.py build")
    return bin_dir


@contextlib.contextmanager
def lab_up(work: Path, bin_dir: Path):
    """(lab, owned): the lab that is up in $NFV_LAB_STATE_DIR (or the default state dir), else a private one
    started in ``work``/lab (owned: True) and stopped when the block ends."""
    lab = Lab()
    if lab.is_up():
        yield lab, False
        return
    with private_lab(Lab(work / "lab"), bin_dir) as lab:
        yield lab, True


@contextlib.contextmanager
def private_lab(lab, bin_dir: Path):
    """``lab`` (a Lab of a state dir of its own) started, and stopped when the block ends."""
    print("starting a private lab in", lab.dir, file=sys.stderr)
    lab.up(bin_dir)
    try:
        yield lab
    finally:
        lab.down(quiet=True)


def wait_until(problems, timeout: float, what: str) -> float:
    """Poll problems() -> {name: problem, "" when none} until no problem is left; the seconds it took (0: none was).
    After ``timeout`` seconds, exits with "<what> after <timeout> s: <the problems>"."""
    began = time.monotonic()
    while True:
        left = {name: problem for name, problem in problems().items() if problem}
        if not left:
            return round(time.monotonic() - began, 3)
        if time.monotonic() - began > timeout:
            raise SystemExit("{0} after {1} s: {2}".format(what, timeout, left))
        time.sleep(0.2)


def loadavg() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def run_rounds(bench: Bench, count: int, prefix: str, tools, run, prepare=None, overhead=None,
               record_order: bool = True, record_loadavg: bool = False) -> list[dict]:
    """``count`` rounds of the contenders ``tools`` on ``bench``'s lab; returns the rounds' entries.

    Per round every tool gets a fresh namespace ``<prefix>-<round>-<tool>``. ``prepare(tool, namespace)``, if
    given, first sets every tool up (untimed, in the order given), its dict becoming ``entry[tool]``; then
    ``run(number, tool, namespace, entry)`` runs the tools, who goes first alternating between rounds, and puts
    what it measured into the round's ``entry``. The entry then gets "order" (who ran when; unless
    ``record_order`` is false), "ansible_overhead_s" (the value of ``overhead()``, when given) and, with
    ``record_loadavg``, "loadavg_at_start" and "loadavg_at_end". A round's namespaces are deleted, and
    waited for, before the next round; after an error they are deleted without waiting.
    """
    rounds, namespaces = [], []

    def fresh(number: int, tool: str) -> str:
        namespaces.append(bench.namespace("{0}-{1}-{2}".format(prefix, number, tool)))
        return namespaces[-1]

    try:
        for number in range(count):
            entry = {"loadavg_at_start": loadavg()} if record_loadavg else {}
            prepared = {}
            for tool in tools if prepare else ():
                prepared[tool] = fresh(number, tool)
                entry[tool] = prepare(tool, prepared[tool])
            order = list(tools) if number % 2 == 0 else list(tools)[::-1]  # alternate who goes first
            for tool in order:
                run(number, tool, prepared.get(tool) or fresh(number, tool), entry)
            if record_order:
                entry["order"] = order
            if overhead:
                entry["ansible_overhead_s"] = overhead()
            if record_loadavg:
                entry["loadavg_at_end"] = loadavg()
            rounds.append(entry)
            bench.delete_namespaces(namespaces)
            namespaces.clear()
    finally:
        bench.delete_namespaces(namespaces, wait=False)
    return rounds


def stats(values: list) -> dict | None:
    """Median, min and max of the values that are not None; None when there are none."""
    values = [v for v in values if v is not None]
    return {"median": statistics.median(values), "min": min(values), "max": max(values)} if values else None


def summarize_phases(rounds: list[dict], phases, metrics, tools, ratio_metrics=None, changed=None) -> dict:
    """{phase: {metric: {tool: stats of entry[tool][phase][metric] over the rounds}}}.

    With two tools, also "ratio": first / second per round (None where the second is 0) and their stats (None when
    no round has one), for the ``ratio_metrics`` (default: all). ``changed``: a tool whose "changed" per round is
    listed as "<tool>_changed" of each phase."""
    out = {}
    for phase in phases:
        out[phase] = {}
        for metric in metrics:
            values = [[r[tool][phase][metric] for r in rounds] for tool in tools]
            entry = {tool: stats(v) for tool, v in zip(tools, values)}
            if len(tools) == 2 and (ratio_metrics is None or metric in ratio_metrics):
                ratios = [round(a / b, 3) if b else None for a, b in zip(*values)]
                known = [x for x in ratios if x is not None]
                entry["ratio"] = dict(stats(known), per_round=ratios) if known else None
            out[phase][metric] = entry
        if changed in tools:
            out[phase][changed + "_changed"] = [r[changed][phase]["changed"] for r in rounds]
    return out


def cell(s: dict | None, fmt: str) -> str:
    return "-" if not s else (fmt + " [" + fmt + "-" + fmt + "]").format(s["median"], s["min"], s["max"])


def print_rows(summary: dict, phases, tools, header, widths: tuple[int, int], decimals=("wall_s",)) -> None:
    """The summary of ``summarize_phases`` as a table, after a header line: a row per phase and metric, median
    [min-max] of each tool and of the ratio ("-" where there is none); metrics in ``decimals`` with 2 decimals."""
    row = "{0:%d} {1:%d} {2:>22} {3:>22} {4:>22}" % widths
    print("\n" + row.format(*header))
    for phase in phases:
        for metric, m in summary[phase].items():
            if isinstance(m, dict):
                fmt = "{:.2f}" if metric in decimals else "{:.0f}"
                print(row.format(phase, metric, *[cell(m.get(tool), fmt) for tool in tools], cell(m.get("ratio"), "{:.2f}")))


def machine(load_before: list | None = None) -> dict:
    """The report's "machine"; with the load average before the run, also the one now."""
    out = {"cpus": os.cpu_count(), "python": platform.python_version(), "system": platform.platform()}
    if load_before is not None:
        out.update(loadavg_before=load_before, loadavg_after=loadavg())
    return out


def kubectl_version(bin_dir: Path) -> str:
    version = subprocess.run([str(bin_dir / "kubectl"), "version", "--client", "-o", "json"], capture_output=True, text=True, check=True)
    return json.loads(version.stdout)["clientVersion"]["gitVersion"]


def write_report(out: Path, benchmark: str, stamp: datetime.datetime, suffix: str = "", **fields) -> Path:
    """The result file <out>/<benchmark>-<date><suffix>.json: the benchmark, the date (``stamp``), then ``fields`` in their order."""
    report = {"benchmark": benchmark, "date": stamp.isoformat(timespec="seconds"), **fields}
    out.mkdir(parents=True, exist_ok=True)
    path = out / "{0}-{1}{2}.json".format(benchmark, stamp.strftime("%Y-%m-%d"), suffix)
    path.write_text(json.dumps(report, indent=1) + "\n")
    print("written:", path)
    ratios.regenerate(path)
    return path


# ---------------------------------------------------------------------------------------------
# This benchmark

PHASES = ("first", "rerun")
TOOLS = ("vnflcm", "kubectl")


def summarize(rounds: list[dict]) -> dict:
    out = summarize_phases(rounds, PHASES, ("wall_s", "reads", "writes", "api_calls"), TOOLS)
    out["ansible_overhead_s"] = stats([r["ansible_overhead_s"] for r in rounds])
    return out


def print_table(summary: dict, rounds: int) -> None:
    print_rows(summary, PHASES, TOOLS, ("run", "metric", "vnf_instantiate", "kubectl apply+wait", "ratio ours/kubectl"), (7, 10))
    overhead = summary["ansible_overhead_s"]
    print("(median [min-max] over {0} rounds; ansible-playbook with a no-op task: {1:.2f} s [{2:.2f}-{3:.2f}])".format(
        rounds, overhead["median"], overhead["min"], overhead["max"]))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--objects", type=int, default=200)
    p.add_argument("--wait-sleep", type=int, default=1, help="the module's wait_sleep (seconds between readiness polls)")
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = p.parse_args(argv)
    bin_dir = lab_binaries()
    with tempfile.TemporaryDirectory(prefix="cnf-bench-") as tmp:
        work = Path(tmp)
        package = generate_package(work / "package", args.objects)
        with lab_up(work, bin_dir) as (lab, _):
            bench = Bench(lab, bin_dir / "kubectl", package, work, args.wait_sleep)
            stamp = datetime.datetime.now(datetime.timezone.utc)
            load_before = loadavg()
            tools = {"vnflcm": bench.vnflcm, "kubectl": bench.kubectl_apply}

            def run(number, tool, namespace, entry):
                entry[tool] = {"namespace": namespace, "first": bench.measure(tools[tool], namespace),
                               "rerun": bench.measure(tools[tool], namespace)}
                print("round {0} {1:7} first {2}  rerun {3}".format(number + 1, tool, entry[tool]["first"], entry[tool]["rerun"]),
                      file=sys.stderr)

            rounds = run_rounds(bench, args.rounds, "bench-" + stamp.strftime("%H%M%S"), tools, run,
                                overhead=bench.ansible_overhead, record_order=False)
    summary = summarize(rounds)
    print_table(summary, args.rounds)
    write_report(args.out, "cnf_instantiate", stamp, machine=machine(load_before), kubectl=kubectl_version(bin_dir),
                 package={k: v for k, v in package.items() if k in ("objects", "workloads")},
                 settings={"rounds": args.rounds, "module_wait_sleep": args.wait_sleep, "lab_nodes": bench.nodes},
                 summary=summary, rounds=rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
