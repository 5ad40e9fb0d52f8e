#!/usr/bin/env python3
"""Scale a CNF to a level: nfv.vnflcm.vnf_scale_to_level against `kubectl scale` + `kubectl rollout status` / `wait`.

Tacker's test_cnf_container_update_before package (VDU1 the Deployment vdu1-update, VDU2 the ReplicaSet
vdu2-update, one scaling aspect each, max_scale_level 2, one pod per level; and six VDUs that do not scale)
is instantiated twice per round with nfv.vnflcm.vnf_instantiate at instantiation_level_1 (both aspects at
level 0: one pod each), not timed, each copy in a fresh namespace of the local Kubernetes lab (tools/lab/k8s).
Then, alternating which goes first, each copy goes through three steps:

- level:  to instantiation_level_2 (both aspects 0 -> 2, so vdu1-update and vdu2-update 1 -> 3 replicas);
- rerun:  the same again (the module: changed false, no writes);
- back:   scaleInfo vdu1_aspect 0, vdu2_aspect 0 (3 -> 1 replicas each).

ours: one vnf_scale_to_level task per step through ansible-playbook (wait: true); baseline: per step
`kubectl scale <kind>/<name> --replicas=<n>` for each workload whose replicas change, then `kubectl rollout
status deployment/vdu1-update` and `kubectl wait --for=jsonpath={.status.readyReplicas}=<n> replicaset/vdu2-update`
(rollout status does not take a ReplicaSet); its re-run runs the level step's commands again.

Measured per step: wall time; API writes (apiserver audit log, admin user, the run's namespace only, so the
controllers' writes and other clients of a shared lab do not count; server-side dry runs counted apart);
reads (the module's `api_calls`, kubectl's `-v=6` request log). After each step the script polls until both
workloads have the target replicas, all ready, no pod terminating (`settle_after_s`: > 0 means the step
returned before that).

Run: make stage, then with ANSIBLE_COLLECTIONS_PATH set to the staged collections dir (see README.md)
  $(make -s venv-path)/bin/python benchmarks/cnf_scale_to_level.py [--rounds 3]
A lab that is up in $NFV_LAB_STATE_DIR (or the default state dir) is used, else a private one is
started and stopped. Results go to benchmarks/results/cnf_scale_to_level-<date>.json.
"""
from __future__ import annotations

import argparse
import datetime
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cnf_container_update  # noqa: E402
from cnf_container_update import BEFORE, DEF_FILES, write_counts  # noqa: E402
from cnf_instantiate import (ROOT, Bench, kubectl_version, lab_binaries, lab_up, loadavg, machine, print_rows,  # noqa: E402
                             run_rounds, stats, summarize_phases, wait_until, write_report)
from labk8s.cluster import Lab  # noqa: E402

INSTANCE_NAME = "bench-scale-to-level"
START_LEVEL = "instantiation_level_1"
# The scalable VDUs of the package: aspect -> (kind, workload); one pod at level 0, one more per level.
ASPECTS = {"vdu1_aspect": ("Deployment", "vdu1-update"), "vdu2_aspect": ("ReplicaSet", "vdu2-update")}
STEPS = (
    # (step, request, target replicas per workload)
    ("level", {"instantiationLevelId": "instantiation_level_2"}, {"vdu1-update": 3, "vdu2-update": 3}),
    ("rerun", {"instantiationLevelId": "instantiation_level_2"}, {"vdu1-update": 3, "vdu2-update": 3}),
    ("back", {"scaleInfo": [{"aspectId": aspect, "scaleLevel": 0} for aspect in ASPECTS]}, {"vdu1-update": 1, "vdu2-update": 1}),
)
TOOLS = ("vnflcm", "kubectl")
KINDS = {name: kind for kind, name in ASPECTS.values()}
PLURAL = {"Deployment": "deployments", "ReplicaSet": "replicasets"}


def workload_state(api, namespace: str, targets: dict) -> dict:
    """name -> problem ("" when the workload has the target replicas, all ready, and none of its pods is terminating)."""
    pods = api.call("GET", "/api/v1/namespaces/{0}/pods".format(namespace))["items"]
    # The pods share their labels (app: webserver) with other VDUs: owners tell them apart (Pod -> ReplicaSet -> Deployment).
    top = {}
    for rs in api.call("GET", "/apis/apps/v1/namespaces/{0}/replicasets".format(namespace))["items"]:
        parent = next((ref for ref in rs["metadata"].get("ownerReferences") or [] if ref.get("controller")), None)
        top[rs["metadata"]["name"]] = parent["name"] if parent else rs["metadata"]["name"]
    owner = {}
    for pod in pods:
        ref = next((ref for ref in pod["metadata"].get("ownerReferences") or [] if ref.get("controller")), None)
        owner[pod["metadata"]["uid"]] = top.get(ref["name"]) if ref and ref["kind"] == "ReplicaSet" else None
    out = {}
    for name, replicas in targets.items():
        obj = api.call("GET", "/apis/apps/v1/namespaces/{0}/{1}/{2}".format(namespace, PLURAL[KINDS[name]], name))
        spec, status = obj["spec"].get("replicas"), obj.get("status") or {}
        mine = [pod for pod in pods if owner[pod["metadata"]["uid"]] == name]
        terminating = sum(1 for pod in mine if pod["metadata"].get("deletionTimestamp"))
        problems = []
        if spec != replicas:
            problems.append("spec.replicas {0}".format(spec))
        if status.get("readyReplicas", 0) != replicas or status.get("replicas", 0) != replicas:
            problems.append("ready {0}/{1}".format(status.get("readyReplicas", 0), status.get("replicas", 0)))
        if len(mine) - terminating != replicas or terminating:
            problems.append("pods {0}, {1} terminating".format(len(mine) - terminating, terminating))
        out[name] = "; ".join(problems)
    return out


class ScaleBench(Bench):
    # From cnf_container_update: a namespace waits for its default ServiceAccount (pods need it).
    namespace = cnf_container_update.Bench.namespace

    def __init__(self, lab: Lab, kubectl: Path, work: Path, wait_sleep: int):
        super().__init__(lab, kubectl, {"path": str(BEFORE), "def_files": DEF_FILES}, work, wait_sleep)
        self.instances = {}  # namespace -> VNF instance id

    def instantiate(self, namespace: str) -> dict:
        """The package at instantiation_level_1 with the module (both tools start from this); not timed."""
        began = time.monotonic()
        request = {"flavourId": "simple", "instantiationLevelId": START_LEVEL,
                   "additionalParams": {"lcm-kubernetes-def-files": DEF_FILES, "namespace": namespace}}
        result = self.playbook({"nfv.vnflcm.vnf_instantiate": {
            "package": str(BEFORE), "vnf_instance_name": INSTANCE_NAME, "kubeconfig": str(self.lab.kubeconfig),
            "wait": True, "wait_timeout": 300, "wait_sleep": self.wait_sleep, "request": request}})
        self.instances[namespace] = result["vnf_instance"]["id"]
        self.wait_state(namespace, {name: 1 for name in KINDS})
        return {"vnf_instance_id": result["vnf_instance"]["id"], "instantiate_s": round(time.monotonic() - began, 3)}

    def wait_state(self, namespace: str, targets: dict, timeout: float = 120) -> float:
        """Poll until every scalable workload is at ``targets``, all ready; the seconds it took (0: it already was)."""
        return wait_until(lambda: workload_state(self.api, namespace, targets), timeout,
                          "{0}: workloads not at {1}".format(namespace, targets))

    # ---- the two ways to scale ----

    def scale_vnflcm(self, namespace: str, request: dict, targets: dict):
        args = {"kubeconfig": str(self.lab.kubeconfig), "namespace": namespace, "vnf_instance_id": self.instances[namespace],
                "request": request, "wait": True, "wait_timeout": 300, "wait_sleep": self.wait_sleep}
        result = self.module("vnf_scale_to_level", args, namespace)
        api_calls = result.get("api_calls") or {}
        plan = result.get("plan") or {}
        instance = result.get("vnf_instance") or {}
        return api_calls.get("read", 0), {
            "changed": result.get("changed"), "module_api_calls": api_calls,
            "operation_state": (result.get("vnf_lcm_op_occ") or {}).get("operationState"),
            "plan": {key: plan.get(key) for key in ("from_levels", "to_levels", "replicas")},
            "scale_status": {item["aspectId"]: item["scaleLevel"]
                             for item in (instance.get("instantiatedVnfInfo") or {}).get("scaleStatus") or []}}

    def scale_kubectl(self, namespace: str, request: dict, targets: dict):
        calls = {}
        for name, replicas in targets.items():
            self.run_kubectl(["scale", "{0}/{1}".format(KINDS[name].lower(), name), "--replicas={0}".format(replicas)], namespace, calls)
        for name, replicas in targets.items():
            if KINDS[name] == "Deployment":
                self.run_kubectl(["rollout", "status", "deployment/" + name, "--timeout=300s"], namespace, calls)
            else:
                self.run_kubectl(["wait", "--for=jsonpath={.status.readyReplicas}=%d" % replicas, "replicaset/" + name,
                                  "--timeout=300s"], namespace, calls)
        return calls.get("GET", 0), {"kubectl_requests": calls}

    def measure(self, fn, namespace: str, request: dict, targets: dict) -> dict:
        """Run fn(namespace, request, targets) -> (reads, extra): wall time, reads, the audited writes in the namespace."""
        result, writes = self.timed(lambda: fn(namespace, request, targets), namespace)
        result["write_calls"] = write_counts(writes)
        result["settle_after_s"] = self.wait_state(namespace, targets)
        return result


# ---------------------------------------------------------------------------------------------
# Rounds and the report

METRICS = ("wall_s", "reads", "writes", "dry_runs", "api_calls", "settle_after_s")
RATIO_METRICS = ("wall_s", "reads", "writes", "api_calls")


def summarize(rounds: list[dict]) -> dict:
    out = summarize_phases(rounds, [step for step, _, _ in STEPS], METRICS, TOOLS, RATIO_METRICS, changed="vnflcm")
    out["ansible_overhead_s"] = stats([r["ansible_overhead_s"] for r in rounds])
    return out


def print_table(summary: dict, rounds: int) -> None:
    print_rows(summary, [step for step, _, _ in STEPS], TOOLS, ("step", "metric", "vnf_scale_to_level", "kubectl scale+wait",
                                                                "ratio ours/kubectl"), (6, 15), decimals=("wall_s", "settle_after_s"))
    overhead = summary["ansible_overhead_s"]
    print("(median [min-max] over {0} rounds; vnf_scale_to_level changed: {1}; ansible-playbook with a no-op task: "
          "{2:.2f} s [{3:.2f}-{4:.2f}])".format(rounds, {step: summary[step]["vnflcm_changed"] for step, _, _ in STEPS},
                                                overhead["median"], overhead["min"], overhead["max"]))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--wait-sleep", type=int, default=1, help="the module's wait_sleep (seconds between readiness polls)")
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = p.parse_args(argv)
    bin_dir = lab_binaries()
    stamp = datetime.datetime.now(datetime.timezone.utc)
    load_before = loadavg()
    with tempfile.TemporaryDirectory(prefix="cnf-scale-to-level-bench-") as tmp:
        work = Path(tmp)
        with lab_up(work, bin_dir) as (lab, owned):
            bench = ScaleBench(lab, bin_dir / "kubectl", work, args.wait_sleep)
            scale = {"vnflcm": bench.scale_vnflcm, "kubectl": bench.scale_kubectl}

            def prepare(tool, namespace):  # both start equal: instantiation_level_1, complete
                return dict(bench.instantiate(namespace), namespace=namespace)

            def run(number, tool, namespace, entry):
                for step, request, targets in STEPS:
                    entry[tool][step] = bench.measure(scale[tool], namespace, request, targets)
                    shown = ("changed", "wall_s", "reads", "writes", "dry_runs", "settle_after_s")
                    print("round {0} {1:7} {2:5} {3}".format(number + 1, tool, step,
                                                             {k: entry[tool][step][k] for k in shown if k in entry[tool][step]}),
                          file=sys.stderr)

            rounds = run_rounds(bench, args.rounds, "stl-" + stamp.strftime("%H%M%S"), TOOLS, run, prepare,
                                overhead=bench.ansible_overhead, record_loadavg=True)
    summary = summarize(rounds)
    print_table(summary, args.rounds)
    write_report(args.out, "cnf_scale_to_level", stamp, machine=machine(load_before), kubectl=kubectl_version(bin_dir),
                 package={"name": BEFORE.name, "def_files": DEF_FILES, "start_level": START_LEVEL,
                          "aspects": {aspect: "{0}/{1}".format(*workload) for aspect, workload in ASPECTS.items()},
                          "steps": [{"step": step, "request": request, "replicas": targets} for step, request, targets in STEPS]},
                 settings={"rounds": args.rounds, "module_wait_sleep": args.wait_sleep, "lab_nodes": bench.nodes,
                           "private_lab": owned},
                 summary=summary, rounds=rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
