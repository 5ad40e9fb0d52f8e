#!/usr/bin/env python3
"""The closed loop's speed on a private Kubernetes lab: Alertmanager (tools/lab/alertmanager) -> the source
nfv.vnflcm.alertmanager in ansible-rulebook running the rulebook nfv.vnflcm.closed_loop -> the playbook
nfv.vnflcm.auto_heal -> vnf_heal.

  latency  one CNF (Tacker's test_cnf_multi_ns, deployment_no_namespace.yaml: one pod); per round an alert with Tacker's
           labels posted to Alertmanager's API, then the time until the record holds the HEAL op occ COMPLETED. Split:
           until the op occ exists (Alertmanager's group_wait + the source's heal_window + the playbook's start, its
           vnf_info and decision) and from there to COMPLETED (vnf_heal).
  fleet    --fleet CNFs (default 16), one namespace each, one alert each posted at once (one failing VNFC per CNF):
           the time until every CNF has its HEAL COMPLETED, and heals per minute.

The rulebook runs its actions one at a time (ansible-rulebook's default, sequential): the fleet's heals are one
playbook run after another, as one Tacker conductor serves every VNF; Tacker gathers the alerts of a VNF over a timer
(30 s) and then heals it, here the source does (heal_window, --heal-window, default 2 s here so that the loop's own
cost shows; the window adds to the latency one for one). The heal limit is raised for the benchmark.

Run: make stage, then with ANSIBLE_COLLECTIONS_PATH set to the staged collections dir (see README.md)
  $(make -s venv-path)/bin/python benchmarks/closed_loop.py [--rounds 5] [--fleet 16]
Always starts a private lab and stops it. Results: benchmarks/results/closed_loop-<date>.json.
"""
from __future__ import annotations

import argparse
import base64
import datetime
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cnf_instantiate import ROOT, lab_binaries, loadavg, machine, private_lab, stats, write_report  # noqa: E402
from labk8s.cluster import Lab  # noqa: E402
from labk8s.kubeapi import Api  # noqa: E402

sys.path.insert(0, str(ROOT / "tools" / "lab" / "alertmanager"))
import alertmanager_lab  # noqa: E402

DEF_FILE = "Files/kubernetes/deployment_no_namespace.yaml"


def record_of(api, namespace):
    """The record document of the namespace's one instance, from its record Secret (as tests/integration/k8s/cnf_faults.py reads it)."""
    for secret in api.call("GET", f"/api/v1/namespaces/{namespace}/secrets")["items"]:
        if secret["metadata"]["name"].startswith("vnflcm-") and "record" in (secret.get("data") or {}):
            return json.loads(gzip.decompress(base64.b64decode(secret["data"]["record"])))
    return None


def heal_op_occs(api, namespace):
    """The HEAL op occs of the namespace's one instance."""
    document = record_of(api, namespace)
    return [item for item in document["opOccs"] if item["operation"] == "HEAL"] if document else []


def current_vnfc(api, namespace):
    """``(instance id, VNFC id)`` of the namespace's one instance as its record says now: a heal gives the VNFC a new id."""
    instance = record_of(api, namespace)["vnfInstance"]
    return instance["id"], instance["instantiatedVnfInfo"]["vnfcInfo"][0]["id"]


def run_tasks(folder, tasks, name):
    out = folder / (name + ".json")
    save = {"name": "save", "ansible.builtin.copy": {"dest": str(out), "mode": "0600", "content": "{{ created | to_json }}"}}
    (folder / (name + ".yml")).write_text(yaml.safe_dump([{"hosts": "localhost", "connection": "local", "gather_facts": False,
                                                           "tasks": tasks + [save]}]))
    env = dict(os.environ, ANSIBLE_LOCALHOST_WARNING="false", ANSIBLE_INVENTORY_UNPARSED_WARNING="false", ANSIBLE_PYTHON_INTERPRETER=sys.executable)
    done = subprocess.run([str(Path(sys.executable).parent / "ansible-playbook"), str(folder / (name + ".yml"))], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"{name} failed:\n{done.stdout[-3000:]}")
    return json.loads(out.read_text())


def make_cnfs(folder, api, kubeconfig, package, namespaces):
    """One CNF per namespace, isAutohealEnabled: one ansible-playbook run; ``{namespace: (instance id, VNFC id)}``."""
    for namespace in namespaces:
        api.call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespace}})
    connection = {"kubeconfig": str(kubeconfig), "wait_timeout": 120, "wait_sleep": 1}
    tasks = [
        {"name": "instantiate", "loop": namespaces, "register": "instantiated", "nfv.vnflcm.vnf_instantiate": dict(
            connection, package=package, vnf_instance_name="bench-{{ item }}",
            request={"flavourId": "simple", "vnfConfigurableProperties": {"isAutohealEnabled": True},
                     "additionalParams": {"namespace": "{{ item }}", "lcm-kubernetes-def-files": [DEF_FILE]}})},
        {"name": "collect", "ansible.builtin.set_fact": {"created": "{{ instantiated.results | map(attribute='vnf_instance') | list }}"}},
    ]
    instances = run_tasks(folder, tasks, "cnfs")
    return {item["metadata"]["namespace"]: (item["id"], item["instantiatedVnfInfo"]["vnfcInfo"][0]["id"]) for item in instances}


def alert(instance_id, vnfc_id, namespace):
    return alertmanager_lab.alert({"receiver_type": "tacker", "function_type": "auto_heal", "vnf_instance_id": instance_id,
                                   "vnfc_info_id": vnfc_id, "namespace": namespace, "round": str(time.monotonic_ns())})


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--fleet", type=int, default=16)
    parser.add_argument("--heal-window", type=float, default=2)
    parser.add_argument("--fixtures", default=os.environ.get("NFV_FIXTURES_DIR") or str(ROOT.parent / "shared" / "fixtures" / "tacker"))
    args = parser.parse_args(argv)
    bin_dir = lab_binaries(kubectl=False)
    if not alertmanager_lab.find_binary():
        raise SystemExit("alertmanager is not built: make lab-build-alertmanager")
    package = os.path.join(args.fixtures, "test_cnf_multi_ns")
    stamp, load_before = datetime.datetime.now(datetime.timezone.utc), loadavg()
    work = Path(tempfile.mkdtemp(prefix="bench-closed-loop-"))
    with private_lab(Lab(work / "lab"), bin_dir) as lab:
        api = Api(lab.kubeconfig)
        port = alertmanager_lab.free_port()
        webhook = f"http://127.0.0.1:{port}/alerts"
        manager = alertmanager_lab.Alertmanager(work / "alertmanager", webhook).start()
        rulebook = alertmanager_lab.Rulebook(work / "rulebook", "nfv.vnflcm.closed_loop", {
            "closed_loop_webhook_port": port, "closed_loop_heal_window": args.heal_window, "closed_loop_heal_limit": 100000,
            "closed_loop_connection": {"kubeconfig": str(lab.kubeconfig), "wait_timeout": 120}}, health_url=webhook + "/health")
        began = time.monotonic()
        rulebook.start()
        rulebook_start_s = round(time.monotonic() - began, 2)
        try:
            cnfs = make_cnfs(work, api, lab.kubeconfig, package, [f"bench-loop-{index:02d}" for index in range(max(args.fleet, 1))])
            namespace = sorted(cnfs)[0]
            latency = []
            for index in range(args.rounds):
                count = len(heal_op_occs(api, namespace))
                posted = time.monotonic()
                manager.post_alerts([alert(*current_vnfc(api, namespace), namespace)])
                started = None
                while True:
                    heals = heal_op_occs(api, namespace)
                    if len(heals) > count and started is None:
                        started = time.monotonic()
                    if len(heals) > count and heals[0]["operationState"] == "COMPLETED":
                        break
                    if time.monotonic() - posted > 180:
                        raise SystemExit("no COMPLETED heal 180 s after the alert:\n" + rulebook.tail())
                    time.sleep(0.1)
                done = time.monotonic()
                latency.append({"alert_to_completed_s": round(done - posted, 2), "alert_to_op_occ_s": round(started - posted, 2),
                                "op_occ_to_completed_s": round(done - started, 2)})
                print(f"round {index + 1}: {latency[-1]}", flush=True)
            fleet = {}
            if args.fleet:
                counts = {name: len(heal_op_occs(api, name)) for name in cnfs}
                posted = time.monotonic()
                manager.post_alerts([alert(*current_vnfc(api, name), name) for name in sorted(cnfs)])
                finished = {}
                while len(finished) < len(cnfs):
                    for name in cnfs:
                        if name not in finished:
                            heals = heal_op_occs(api, name)
                            if len(heals) > counts[name] and heals[0]["operationState"] == "COMPLETED":
                                finished[name] = time.monotonic() - posted
                    if time.monotonic() - posted > 900:
                        raise SystemExit(f"{len(finished)} of {len(cnfs)} heals COMPLETED after 900 s")
                    time.sleep(0.2)
                total = max(finished.values())
                fleet = {"cnfs": len(cnfs), "all_completed_s": round(total, 1), "first_completed_s": round(min(finished.values()), 1),
                         "heals_per_minute": round(len(cnfs) * 60 / total, 1)}
                print(f"fleet: {fleet}", flush=True)
        finally:
            rulebook.stop()
            manager.stop()
    summary = {key: stats([item[key] for item in latency]) for key in ("alert_to_completed_s", "alert_to_op_occ_s", "op_occ_to_completed_s")}
    write_report(ROOT / "benchmarks" / "results", "closed_loop", stamp, heal_window_s=args.heal_window, rulebook_start_s=rulebook_start_s,
                 alertmanager=alertmanager_lab.version(), latency=summary, latency_rounds=latency, fleet=fleet, machine=machine(load_before))


if __name__ == "__main__":
    main()
