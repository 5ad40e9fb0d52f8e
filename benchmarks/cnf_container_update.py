#!/usr/bin/env python3
"""Container update of a CNF: nfv.vnflcm.vnf_modify (selective restart) against restarting everything.

Tacker's test_cnf_container_update_before package is instantiated twice (nfv.vnflcm.vnf_instantiate,
instantiation_level_2, the def files and their order of the integration test), each copy in a fresh
namespace of the local Kubernetes lab (tools/lab/k8s). Then, alternating which goes first, each copy
is updated to test_cnf_container_update_after:

- selective: one vnf_modify task (vnfdId of the after package, configmap_secret_paths), wait: true;
  then the same task again (the idempotent re-run: changed=false, no writes);
- baseline: what a restart-everything container update does with kubectl: `kubectl replace` of every
  ConfigMap/Secret of the new package's def files, `kubectl set image` where an image changed,
  `kubectl rollout restart` of every Deployment and DaemonSet, delete of every pod of the bare
  ReplicaSet, delete and create again of every bare Pod (new package's manifest, new image), then
  `kubectl rollout status` / `kubectl wait` until everything is ready again.

Measured per run: wall time (readiness included), API writes (apiserver audit log, admin user only,
so controller writes do not count), reads (the module's `api_calls`; kubectl's `-v=6` request log),
pods replaced (pod UIDs before and after), and precision/recall of the restarts against the pods that
must restart (those of vdu1-update, vdu2-update, daemonset-vdu5, env-test, volume-test; the pods of
deployment2-vdu6, env-test2, volume-test2 must keep their UIDs).

Also, without a lab: the planning time of plan_container_update (k8s/restart.py, imported from the
staged collection) on generated inputs of 100, 1000 and 5000 workloads.

Run: make stage, then with ANSIBLE_COLLECTIONS_PATH set to the staged collections dir (see README.md)
  $(make -s venv-path)/bin/python benchmarks/cnf_container_update.py [--rounds 3] [--plan-only]
A lab that is up in $NFV_LAB_STATE_DIR (or the default state dir) is used, else a private one is
started and stopped. Results go to benchmarks/results/cnf_container_update-<date>.json.
"""
from __future__ import annotations

import argparse
import base64
import copy
import datetime
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools" / "lab" / "k8s"))

import cnf_instantiate  # noqa: E402
from cnf_instantiate import (kubectl_version, lab_binaries, lab_up, loadavg, machine, print_rows, run_rounds, stats,  # noqa: E402
                             summarize_phases, write_report)
from labk8s.audit import summarize as audit_summary  # noqa: E402
from labk8s.cluster import Lab  # noqa: E402

FIXTURES = Path(os.environ.get("NFV_FIXTURES_DIR") or ROOT.parent / "shared" / "fixtures" / "tacker")
BEFORE = FIXTURES / "test_cnf_container_update_before"
AFTER = FIXTURES / "test_cnf_container_update_after"
DEF_DIR = "Files/kubernetes/"
# The def files and their order as in tests/integration/k8s/test_cnf_container_update.py.
DEF_FILES = [DEF_DIR + name for name in (
    "configmap_1.yaml", "deployment.yaml", "pod_env.yaml", "pod_volume.yaml", "replicaset.yaml", "secret_1.yaml",
    "configmap_3.yaml", "pod_env_2.yaml", "pod_volume_2.yaml", "daemonset.yaml", "deployment_2.yaml", "secret_3.yaml")]
CONFIGMAP_SECRET_PATHS = [DEF_DIR + "configmap_2.yaml", DEF_DIR + "secret_2.yaml"]
MODIFY_REQUEST = {"vnfdId": "b1bb0ce7-ebca-4fa7-95ed-4840d70a8883", "vnfInstanceName": "modify_vnf_after",
                  "metadata": {"configmap_secret_paths": CONFIGMAP_SECRET_PATHS}}
INSTANTIATE_REQUEST = {"flavourId": "simple", "instantiationLevelId": "instantiation_level_2"}
# Ground truth: the workloads whose pods must restart (a changed key read, or a new image), and those that must not.
MUST_RESTART = {("Deployment", "vdu1-update"), ("ReplicaSet", "vdu2-update"), ("DaemonSet", "daemonset-vdu5"),
                ("Pod", "env-test"), ("Pod", "volume-test")}
MUST_KEEP = {("Deployment", "deployment2-vdu6"), ("Pod", "env-test2"), ("Pod", "volume-test2")}
CONFIG_KINDS = ("ConfigMap", "Secret")


# ---------------------------------------------------------------------------------------------
# The packages: what the new one holds, as a restart-everything update reads it.

def new_def_files() -> list[str]:
    """The after package's def files as the module picks them: the instantiated ones it still has, then the listed ones."""
    files = [path for path in DEF_FILES if (AFTER / path).exists()]
    return files + [path for path in CONFIGMAP_SECRET_PATHS if path not in files]


def manifests(package: Path, files: list[str]) -> list[tuple[str, dict]]:
    return [(path, obj) for path in files for obj in yaml.safe_load_all((package / path).read_text()) if obj]


def images(obj: dict) -> dict:
    spec = obj["spec"] if obj["kind"] == "Pod" else obj["spec"]["template"]["spec"]
    return {container["name"]: container["image"] for container in spec.get("containers", [])}


def package_summary() -> dict:
    """The baseline's inputs, read from the two packages: config files, workloads, and the new images per workload."""
    old = {(obj["kind"], obj["metadata"]["name"]): obj for _, obj in manifests(BEFORE, DEF_FILES)}
    new = manifests(AFTER, new_def_files())
    config_files = sorted({path for path, obj in new if obj["kind"] in CONFIG_KINDS})
    workloads, new_images, pod_files = [], {}, {}
    for path, obj in new:
        key = (obj["kind"], obj["metadata"]["name"])
        if obj["kind"] in CONFIG_KINDS:
            continue
        workloads.append(key)
        changed = {name: image for name, image in images(obj).items() if images(old[key]).get(name) != image}
        if changed:
            new_images[key] = changed
        if obj["kind"] == "Pod":
            pod_files[key[1]] = obj
    return {"config_files": config_files, "workloads": workloads, "new_images": new_images, "pod_manifests": pod_files}


# ---------------------------------------------------------------------------------------------
# Pods and restarts

def pods_by_owner(api, namespace: str) -> dict:
    """{(kind, name) of the pod's top controller, or ("Pod", name) for a bare pod: {pod uid: (pod name, ready)}}."""
    owners = {}
    replicasets = {rs["metadata"]["uid"]: rs for rs in api.call("GET", "/apis/apps/v1/namespaces/{0}/replicasets".format(namespace))["items"]}
    for pod in api.call("GET", "/api/v1/namespaces/{0}/pods".format(namespace))["items"]:
        meta = pod["metadata"]
        if meta.get("deletionTimestamp"):
            continue
        ref = next((item for item in meta.get("ownerReferences") or [] if item.get("controller")), None)
        owner = ("Pod", meta["name"]) if ref is None else (ref["kind"], ref["name"])
        if ref is not None and ref["kind"] == "ReplicaSet" and ref["uid"] in replicasets:
            parent = next((item for item in replicasets[ref["uid"]]["metadata"].get("ownerReferences") or [] if item.get("controller")), None)
            owner = (parent["kind"], parent["name"]) if parent else owner
        ready = any(c.get("type") == "Ready" and c.get("status") == "True" for c in (pod.get("status") or {}).get("conditions") or [])
        owners.setdefault(owner, {})[meta["uid"]] = (meta["name"], ready)
    return owners


def settled(before: dict, now: dict) -> bool:
    """Every workload has as many pods as before, all ready, and nothing is terminating."""
    return set(now) == set(before) and all(len(now[key]) == len(before[key]) and all(ready for _, ready in now[key].values())
                                           for key in before)


def restart_score(before: dict, after: dict) -> dict:
    """Pods replaced (UIDs gone) and the precision/recall of those restarts against MUST_RESTART."""
    after_uids = {uid for pods in after.values() for uid in pods}
    replaced = {key: sorted(pods[uid][0] for uid in pods if uid not in after_uids) for key, pods in before.items()}
    must = sum(len(before.get(key, {})) for key in MUST_RESTART)
    hit = sum(len(replaced.get(key, ())) for key in MUST_RESTART)
    total = sum(len(names) for names in replaced.values())
    return {"pods_before": sum(len(pods) for pods in before.values()), "pods_must_restart": must, "pods_replaced": total,
            "pods_replaced_needed": hit, "pods_replaced_needlessly": total - hit,
            "precision": round(hit / total, 3) if total else None, "recall": round(hit / must, 3) if must else None,
            "replaced_by_workload": {"{0}/{1}".format(*key): len(names) for key, names in sorted(replaced.items())},
            "kept_untouched": all(not replaced.get(key) for key in MUST_KEEP)}


# ---------------------------------------------------------------------------------------------
# The two ways to update it.

class Bench(cnf_instantiate.Bench):
    """cnf_instantiate's (ansible-playbook, kubectl, namespaces, the no-op playbook), with this benchmark's package and runs."""

    def __init__(self, lab: Lab, kubectl: Path, work: Path, wait_sleep: int):
        super().__init__(lab, kubectl, package_summary(), work, wait_sleep)
        self.instances = {}  # namespace -> VNF instance id

    def namespace(self, name: str) -> str:
        self.api.call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}})
        deadline = time.monotonic() + 30
        while self.api.request("GET", "/api/v1/namespaces/{0}/serviceaccounts/default".format(name))[0] != 200:
            if time.monotonic() > deadline:
                raise SystemExit("namespace {0} got no default ServiceAccount".format(name))
            time.sleep(0.1)
        return name

    def instantiate(self, namespace: str) -> float:
        """The before package, instantiation_level_2, with the module (both tools start from this); returns its wall time."""
        request = dict(INSTANTIATE_REQUEST, additionalParams={"lcm-kubernetes-def-files": DEF_FILES, "namespace": namespace})
        began = time.monotonic()
        result = self.playbook({"nfv.vnflcm.vnf_instantiate": {
            "package": str(BEFORE), "vnf_instance_name": "modify_vnf_before", "kubeconfig": str(self.lab.kubeconfig),
            "wait": True, "wait_timeout": 300, "wait_sleep": self.wait_sleep, "request": request}})
        self.instances[namespace] = result["vnf_instance"]["id"]
        return round(time.monotonic() - began, 3)

    def wait_settled(self, namespace: str, before: dict, timeout: float = 120) -> tuple[dict, float]:
        """Poll (after the measured run) until the pods are back to their counts, all ready; returns them and the time it took."""
        began = time.monotonic()
        while True:
            now = pods_by_owner(self.api, namespace)
            if settled(before, now) or time.monotonic() - began > timeout:
                return now, round(time.monotonic() - began, 3)
            time.sleep(0.2)

    def measure(self, fn, namespace: str, score: bool = True) -> dict:
        """Run fn(namespace) -> (reads, extra): wall time, reads, the admin's writes from the audit log, and the restarts."""
        before = pods_by_owner(self.api, namespace)
        result, writes = self.timed(lambda: fn(namespace))
        result["write_calls"] = write_counts(writes)
        after, settle = self.wait_settled(namespace, before)
        result["settle_after_s"] = settle  # > 0: pods were still coming up when the run returned
        result.update(restart_score(before, after) if score else {"pods_replaced": restart_score(before, after)["pods_replaced"]})
        return result

    # ---- selective: vnf_modify ----

    def modify_args(self, namespace: str) -> dict:
        return {"kubeconfig": str(self.lab.kubeconfig), "namespace": namespace, "vnf_instance_id": self.instances[namespace],
                "package": str(AFTER), "request": MODIFY_REQUEST, "wait": True, "wait_timeout": 180, "wait_sleep": self.wait_sleep}

    def selective(self, namespace: str):
        result = self.playbook({"nfv.vnflcm.vnf_modify": self.modify_args(namespace), "ignore_errors": True})
        if result.get("failed"):
            pods = subprocess.run([str(self.kubectl), "get", "pods", "-n", namespace, "-o", "wide"], capture_output=True, text=True, env=self.env)
            stuck = [{"name": pod["metadata"]["name"], "uid": pod["metadata"]["uid"], "node": pod["spec"].get("nodeName"), "status": pod.get("status")}
                     for pod in self.api.call("GET", "/api/v1/namespaces/{0}/pods".format(namespace))["items"]
                     if not any(c.get("type") == "Ready" and c.get("status") == "True" for c in (pod.get("status") or {}).get("conditions") or [])]
            raise SystemExit("vnf_modify failed: {0}\n{1}\nnot ready: {2}".format(result.get("msg"), pods.stdout, json.dumps(stuck, indent=1)))
        update = (result.get("plan") or {}).get("container_update") or {}
        return result["api_calls"]["read"], {
            "changed": result["changed"], "module_writes": result["api_calls"]["write"],
            "operation_state": (result.get("vnf_lcm_op_occ") or {}).get("operationState"),
            "planned_restarts": ["{0}/{1}:{2}".format(e["kind"], e["name"], e["action"]) for e in update.get("restart", [])]}

    # ---- baseline: restart everything with kubectl ----

    def restart_everything(self, namespace: str):
        calls, package = {}, self.package
        kubectl = lambda *args, stdin=None: self.run_kubectl(list(args), namespace, calls, stdin)  # noqa: E731
        # Which pods are the bare ReplicaSet's, and the bare Pods' labels, come from one list.
        live_pods = json.loads(kubectl("get", "pods", "-o", "json"))["items"]
        # 1. Every ConfigMap/Secret of the new package, PUT again.
        kubectl("replace", *[arg for path in package["config_files"] for arg in ("-f", str(AFTER / path))])
        # 2. New images.
        for (kind, name), changed in sorted(package["new_images"].items()):
            if kind != "Pod":
                kubectl("set", "image", "{0}/{1}".format(kind.lower(), name), *["{0}={1}".format(c, i) for c, i in sorted(changed.items())])
        # 3. Restart every workload.
        rollouts = ["{0}/{1}".format(kind.lower(), name) for kind, name in package["workloads"] if kind in ("Deployment", "DaemonSet")]
        kubectl("rollout", "restart", *rollouts)
        replicasets = [name for kind, name in package["workloads"] if kind == "ReplicaSet"]
        rs_pods = [pod["metadata"]["name"] for pod in live_pods
                   if any(ref.get("kind") == "ReplicaSet" and ref.get("name") in replicasets and ref.get("controller")
                          for ref in pod["metadata"].get("ownerReferences") or [])]
        if rs_pods:
            kubectl("delete", "pod", *rs_pods, "--force", "--grace-period=0")
        bare = [name for kind, name in package["workloads"] if kind == "Pod"]
        labels = {pod["metadata"]["name"]: pod["metadata"].get("labels") or {} for pod in live_pods}
        kubectl("delete", "pod", *bare, "--force", "--grace-period=0")
        recreated = [dict(package["pod_manifests"][name], metadata=dict(package["pod_manifests"][name]["metadata"], labels=labels.get(name, {})))
                     for name in bare]
        kubectl("create", "-f", "-", stdin=json.dumps({"apiVersion": "v1", "kind": "List", "items": recreated}))
        # 4. Wait until everything is ready again.
        for rollout in rollouts:
            kubectl("rollout", "status", rollout, "--timeout=300s")
        for name in replicasets:
            replicas = json.loads(kubectl("get", "replicaset", name, "-o", "json"))["spec"]["replicas"]
            kubectl("wait", "--for=jsonpath={.status.readyReplicas}=%d" % replicas, "replicaset/" + name, "--timeout=300s")
        kubectl("wait", "--for=condition=Ready", *["pod/" + name for name in bare], "--timeout=300s")
        return calls.get("GET", 0), {"kubectl_requests": calls}


def write_counts(writes: list[dict]) -> dict:
    """{"verb resource": count} of the audited writes."""
    counts = {}
    for verb, resource, _ns, _name, _code in audit_summary(writes):
        label = "{0} {1}".format(verb, resource)
        counts[label] = counts.get(label, 0) + 1
    return dict(sorted(counts.items()))


# ---------------------------------------------------------------------------------------------
# Planning time: plan_container_update alone, on generated inputs.

PLAN_SIZES = ((100, 50), (1000, 200), (5000, 500))  # (workloads, ConfigMaps + Secrets)
PLAN_KINDS = ("Deployment", "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Pod")


def config_object(kind: str, name: str, version: int) -> dict:
    data = {"a.conf": "setting a v{0}\n".format(version), "b.conf": "setting b\n"}
    if kind == "Secret":
        data = {key: base64.b64encode(value.encode()).decode() for key, value in data.items()}
    return {"apiVersion": "v1", "kind": kind, "metadata": {"name": name, "uid": "uid-" + name}, "data": data}


def workload_object(kind: str, name: str, configs: list[tuple[str, str]], image: str, rng: random.Random) -> dict:
    """A workload reading its configs in the ways pods do: envFrom (every key), a keyRef, a volume with items."""
    env, env_from, volumes = [], [], []
    for index, (config_kind, config_name) in enumerate(configs):
        use = rng.randrange(3)
        key = rng.choice(("a.conf", "b.conf"))
        if use == 0:
            env_from.append({"configMapRef" if config_kind == "ConfigMap" else "secretRef": {"name": config_name}})
        elif use == 1:
            ref = "configMapKeyRef" if config_kind == "ConfigMap" else "secretKeyRef"
            env.append({"name": "V{0}".format(index), "valueFrom": {ref: {"name": config_name, "key": key}}})
        elif config_kind == "ConfigMap":
            volumes.append({"name": "v{0}".format(index), "configMap": {"name": config_name, "items": [{"key": key, "path": key}]}})
        else:
            volumes.append({"name": "v{0}".format(index), "secret": {"secretName": config_name, "items": [{"key": key, "path": key}]}})
    pod_spec = {"containers": [{"name": "main", "image": image, "env": env, "envFrom": env_from,
                                "volumeMounts": [{"name": v["name"], "mountPath": "/etc/" + v["name"]} for v in volumes]}],
                "volumes": volumes}
    meta = {"name": name, "uid": "uid-{0}-{1}".format(kind, name), "labels": {"app": name}}
    if kind == "Pod":
        return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": pod_spec}
    spec = {"selector": {"matchLabels": {"app": name}}, "template": {"metadata": {"labels": {"app": name}}, "spec": pod_spec}}
    if kind != "DaemonSet":
        spec["replicas"] = 2
    return {"apiVersion": "apps/v1", "kind": kind, "metadata": meta, "spec": spec}


def owned(kind: str, name: str, owner: dict, extra: dict | None = None) -> dict:
    ref = {"apiVersion": owner["apiVersion"], "kind": owner["kind"], "name": owner["metadata"]["name"],
           "uid": owner["metadata"]["uid"], "controller": True}
    return dict({"apiVersion": "v1" if kind == "Pod" else "apps/v1", "kind": kind,
                 "metadata": {"name": name, "uid": "uid-{0}-{1}".format(kind, name), "ownerReferences": [ref]}}, **(extra or {}))


def planning_inputs(workloads: int, configs: int, seed: int = 1, reads: int = 3,
                    changed_configs: float = 0.1, changed_images: float = 0.05) -> dict:
    """Deployed manifests, the new package's, and the live objects (ConfigMaps/Secrets, workloads, ReplicaSets, 2 pods each)."""
    rng = random.Random(seed)
    config_keys = [("ConfigMap" if i % 2 == 0 else "Secret", "cfg{0:04d}".format(i)) for i in range(configs)]
    changed = set(rng.sample(config_keys, max(1, int(configs * changed_configs))))
    old, new, live = [], [], []
    for kind, name in config_keys:
        old.append(config_object(kind, name, 1))
        live.append(config_object(kind, name, 1))
        new.append(config_object(kind, name, 2 if (kind, name) in changed else 1))
    new_image = set(rng.sample(range(workloads), max(1, int(workloads * changed_images))))
    for index in range(workloads):
        kind, name = PLAN_KINDS[index % len(PLAN_KINDS)], "w{0:05d}".format(index)
        obj = workload_object(kind, name, rng.sample(config_keys, reads), "registry.example/app:1.0", rng)
        old.append(obj)
        live.append(copy.deepcopy(obj))
        updated = copy.deepcopy(obj)
        if index in new_image:
            spec = updated["spec"] if kind == "Pod" else updated["spec"]["template"]["spec"]
            spec["containers"][0]["image"] = "registry.example/app:2.0"
        new.append(updated)
        if kind == "Pod":
            continue
        owner = obj
        if kind == "Deployment":
            owner = owned("ReplicaSet", name + "-5d8f", obj, {"spec": copy.deepcopy(obj["spec"])})
            live.append(owner)
        live.extend(owned("Pod", "{0}-{1}".format(name, pod), owner) for pod in range(2))
    return {"old": old, "new": new, "live": live, "changed_configs": len(changed), "changed_images": len(new_image)}


def import_restart():
    """plan_container_update from the staged collection (ANSIBLE_COLLECTIONS_PATH), as the modules run it."""
    for path in reversed(os.environ["ANSIBLE_COLLECTIONS_PATH"].split(os.pathsep)):
        sys.path.insert(0, path)
    from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import restart
    return restart


def planning(repeats: int) -> dict:
    restart = import_restart()
    out = {"module": restart.__file__, "repeats": repeats, "sizes": []}
    for workloads, configs in PLAN_SIZES:
        inputs = planning_inputs(workloads, configs)
        times, plan = [], None
        for _ in range(repeats):
            began = time.perf_counter()
            plan = restart.plan_container_update(inputs["old"], inputs["new"], inputs["live"])
            times.append(time.perf_counter() - began)
        median = statistics.median(times)
        entry = {"workloads": workloads, "configmaps_secrets": configs, "live_objects": len(inputs["live"]),
                 "changed_configmaps_secrets": inputs["changed_configs"], "changed_images": inputs["changed_images"],
                 "planned_restarts": len(plan["restart"]), "untouched": len(plan["untouched"]),
                 "median_s": round(median, 4), "min_s": round(min(times), 4), "max_s": round(max(times), 4),
                 "us_per_workload": round(median / workloads * 1e6, 1), "us_per_workload_min": round(min(times) / workloads * 1e6, 1)}
        print("plan {0:5} workloads {1:3} configs: {2:.4f} s median, {3:.1f} us/workload, {4} restarts".format(
            workloads, configs, median, entry["us_per_workload"], entry["planned_restarts"]), file=sys.stderr)
        out["sizes"].append(entry)
    return out


# ---------------------------------------------------------------------------------------------
# Rounds and the report.

UPDATE_METRICS = ("wall_s", "reads", "writes", "api_calls", "pods_replaced", "precision", "recall")
RERUN_METRICS = ("wall_s", "reads", "writes", "pods_replaced")
TOOLS = ("selective", "baseline")


def summarize(rounds: list[dict]) -> dict:
    out = summarize_phases(rounds, ("update",), UPDATE_METRICS, TOOLS, ratio_metrics=UPDATE_METRICS[:5])
    out.update(summarize_phases(rounds, ("rerun",), RERUN_METRICS, TOOLS[:1]))
    out["rerun"]["changed"] = [r["selective"]["rerun"]["changed"] for r in rounds]
    out["ansible_overhead_s"] = stats([r["ansible_overhead_s"] for r in rounds])
    return out


def print_table(summary: dict, rounds: int, plan: dict | None) -> None:
    if summary:
        print_rows(summary, ("update", "rerun"), TOOLS, ("run", "metric", "vnf_modify", "restart everything", "ratio ours/baseline"),
                   (7, 14), decimals=("wall_s", "precision", "recall"))
        overhead = summary["ansible_overhead_s"]
        print("(median [min-max] over {0} rounds; re-run changed: {1}; ansible-playbook with a no-op task: {2:.2f} s [{3:.2f}-{4:.2f}])".format(
            rounds, summary["rerun"]["changed"], overhead["median"], overhead["min"], overhead["max"]))
    if plan:
        print("\nplan_container_update, median of {0}:".format(plan["repeats"]))
        for entry in plan["sizes"]:
            print("  {0:5} workloads, {1:3} ConfigMaps/Secrets: {2:.4f} s, {3:.1f} us per workload (min {4:.1f}; {5} restarts planned)".format(
                entry["workloads"], entry["configmaps_secrets"], entry["median_s"], entry["us_per_workload"], entry["us_per_workload_min"],
                entry["planned_restarts"]))


def run_lab(args, work: Path, bin_dir: Path, stamp: datetime.datetime) -> tuple[list[dict], dict]:
    with lab_up(work, bin_dir) as (lab, _):
        bench = Bench(lab, bin_dir / "kubectl", work, args.wait_sleep)
        tools = {"selective": bench.selective, "baseline": bench.restart_everything}

        def prepare(tool, namespace):  # both start equal: the before package, instantiated by the module
            return {"namespace": namespace, "instantiate_s": bench.instantiate(namespace)}

        def run(number, tool, namespace, entry):
            entry[tool]["update"] = bench.measure(tools[tool], namespace)
            shown = ("wall_s", "writes", "reads", "pods_replaced", "precision", "recall", "settle_after_s")
            print("round {0} {1:9} update {2}".format(number + 1, tool, {k: entry[tool]["update"][k] for k in shown}), file=sys.stderr)
            if tool == "selective":
                entry[tool]["rerun"] = bench.measure(tools[tool], namespace, score=False)
                shown = ("changed", "wall_s", "writes", "pods_replaced")
                print("round {0} selective rerun {1}".format(number + 1, {k: entry[tool]["rerun"][k] for k in shown}), file=sys.stderr)

        rounds = run_rounds(bench, args.rounds, "cu-" + stamp.strftime("%H%M%S"), tools, run, prepare, overhead=bench.ansible_overhead)
    return rounds, {"lab_nodes": bench.nodes, "baseline_inputs": {
        "config_files": bench.package["config_files"], "workloads": ["{0}/{1}".format(*key) for key in bench.package["workloads"]],
        "new_images": {"{0}/{1}".format(*key): value for key, value in bench.package["new_images"].items()}}}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--wait-sleep", type=int, default=1, help="the module's wait_sleep (seconds between readiness polls)")
    p.add_argument("--plan-repeats", type=int, default=7, help="runs of plan_container_update per size (the median is reported)")
    p.add_argument("--plan-only", action="store_true", help="only the planning time: no lab")
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = p.parse_args(argv)
    bin_dir = lab_binaries(kubectl=not args.plan_only)
    stamp = datetime.datetime.now(datetime.timezone.utc)
    load_before = loadavg()
    plan = planning(args.plan_repeats)
    rounds, lab_info, summary = [], {}, None
    if not args.plan_only:
        with tempfile.TemporaryDirectory(prefix="cnf-update-bench-") as tmp:
            rounds, lab_info = run_lab(args, Path(tmp), bin_dir, stamp)
        summary = summarize(rounds)
    print_table(summary, args.rounds, plan)
    write_report(args.out, "cnf_container_update", stamp, "-plan-only" if args.plan_only else "", machine=machine(load_before),
                 package={"before": BEFORE.name, "after": AFTER.name, "def_files": DEF_FILES, "request": MODIFY_REQUEST,
                          "instantiate": INSTANTIATE_REQUEST,
                          "must_restart": sorted("{0}/{1}".format(*key) for key in MUST_RESTART),
                          "must_keep": sorted("{0}/{1}".format(*key) for key in MUST_KEEP)},
                 settings=dict({"rounds": 0 if args.plan_only else args.rounds, "module_wait_sleep": args.wait_sleep}, **lab_info),
                 summary=summary, planning=plan, rounds=rounds, **({} if args.plan_only else {"kubectl": kubectl_version(bin_dir)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
