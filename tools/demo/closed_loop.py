#!/usr/bin/env python3
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""`make demo-closed-loop`: the closed loop on the local Kubernetes lab.

Starts Alertmanager (tools/lab/alertmanager) with a webhook route to the source nfv.vnflcm.alertmanager, and
ansible-rulebook with the collection's rulebook nfv.vnflcm.closed_loop; instantiates a CNF (Tacker's
test_cnf_multi_ns package) with vnfConfigurableProperties.isAutohealEnabled true; posts an alert with Tacker's labels
to Alertmanager's API as Prometheus does; waits for the rulebook's playbook to heal the VNFC; prints the pod UIDs
before and after and the HEAL op occ; then terminates and deletes the CNF and stops what it started (by PID).
Run with the collection venv's Python, ANSIBLE_COLLECTIONS_PATH on the staged collection (make does both).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools" / "lab" / "alertmanager"))
import alertmanager_lab  # noqa: E402

NAMESPACE = "demo-closed-loop"
DEF_FILE = "Files/kubernetes/deployment_no_namespace.yaml"
HEAL_WINDOW = 3


def say(text):
    print(text, flush=True)


def run_tasks(folder, tasks, name):
    """One ansible-playbook run of ``tasks``; ``{register name: result}`` of those that register."""
    out = folder / (name + ".json")
    registered = [task["register"] for task in tasks if "register" in task]
    content = "{{ {" + ", ".join("'{0}': {0}".format(key) for key in registered) + "} | to_json }}"
    save = {"name": "Save the results", "ansible.builtin.copy": {"dest": str(out), "mode": "0600", "content": content}}
    playbook = folder / (name + ".yml")
    playbook.write_text(yaml.safe_dump([{"name": name, "hosts": "localhost", "connection": "local", "gather_facts": False, "tasks": tasks + [save]}]))
    env = dict(os.environ, ANSIBLE_LOCALHOST_WARNING="false", ANSIBLE_INVENTORY_UNPARSED_WARNING="false",
               ANSIBLE_PYTHON_INTERPRETER=sys.executable)
    done = subprocess.run([str(Path(sys.executable).parent / "ansible-playbook"), str(playbook)], capture_output=True, text=True, env=env)
    if done.returncode != 0 or not out.exists():
        raise RuntimeError(f"{name} failed:\n{done.stdout[-3000:]}\n{done.stderr[-2000:]}")
    return json.loads(out.read_text())


def kube_api(kubeconfig):
    from kubernetes import client, config
    return client.CoreV1Api(config.new_client_from_config(config_file=str(kubeconfig)))


def pods(core):
    return {pod.metadata.name: pod.metadata.uid for pod in core.list_namespaced_pod(NAMESPACE).items if not pod.metadata.deletion_timestamp}


def fresh_namespace(core):
    from kubernetes import client
    from kubernetes.client.rest import ApiException
    try:
        core.delete_namespace(NAMESPACE)   # a leftover of an interrupted run
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            core.read_namespace(NAMESPACE)
            time.sleep(0.5)
    except ApiException as exc:
        if exc.status != 404:
            raise
    core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=NAMESPACE)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fixtures", required=True, help="Tacker's sample packages")
    parser.add_argument("--kubeconfig", default=os.environ.get("KUBECONFIG"))
    args = parser.parse_args(argv)
    if not args.kubeconfig:
        parser.error("--kubeconfig (or KUBECONFIG) is required")
    folder = Path(tempfile.mkdtemp(prefix="demo-closed-loop-"))
    core = kube_api(args.kubeconfig)
    connection = {"kubeconfig": args.kubeconfig}
    webhook_port = alertmanager_lab.free_port()
    webhook = f"http://127.0.0.1:{webhook_port}/alerts"
    alertmanager = alertmanager_lab.Alertmanager(folder / "alertmanager", webhook)
    rulebook = alertmanager_lab.Rulebook(folder / "rulebook", "nfv.vnflcm.closed_loop", {
        "closed_loop_webhook_port": webhook_port, "closed_loop_heal_window": HEAL_WINDOW,
        "closed_loop_connection": dict(connection, wait_timeout=120)},
        health_url=webhook + "/health")
    instance, namespace_made = None, False
    try:
        start = time.monotonic()
        alertmanager.start()
        say(f"== Alertmanager {alertmanager_lab.version()} on {alertmanager.url}, its webhook route to {webhook}")
        rulebook.start()
        say(f"== ansible-rulebook -r nfv.vnflcm.closed_loop (source nfv.vnflcm.alertmanager, heal_window {HEAL_WINDOW} s) "
            f"up in {time.monotonic() - start:.0f} s")
        fresh_namespace(core)
        namespace_made = True
        created = run_tasks(folder, [
            {"name": "Instantiate the CNF", "nfv.vnflcm.vnf_instantiate": dict(
                connection, package=os.path.join(args.fixtures, "test_cnf_multi_ns"), vnf_instance_name="cnf-closed-loop",
                request={"flavourId": "simple", "vnfConfigurableProperties": {"isAutohealEnabled": True},
                         "additionalParams": {"namespace": NAMESPACE, "lcm-kubernetes-def-files": [DEF_FILE]}}),
             "register": "instantiated"},
        ], "instantiate")
        instance = created["instantiated"]["vnf_instance"]
        vnfc = instance["instantiatedVnfInfo"]["vnfcInfo"][0]["id"]
        say(f"== CNF {instance['id']} in namespace {NAMESPACE}: vnfConfigurableProperties "
            f"{json.dumps(instance.get('vnfConfigurableProperties'))}, VNFC {vnfc}")
        before = pods(core)
        say("== pods before: " + ", ".join(f"{name} uid {uid}" for name, uid in sorted(before.items())))
        labels = {"receiver_type": "tacker", "function_type": "auto_heal", "vnf_instance_id": instance["id"], "vnfc_info_id": vnfc,
                  "namespace": NAMESPACE}
        since = rulebook.offset()
        fired = time.monotonic()
        alertmanager.post_alerts([alertmanager_lab.alert(labels)])
        say("== alert posted to Alertmanager (POST /api/v2/alerts), labels: " + json.dumps(labels))
        line = rulebook.wait_line(rf"auto_heal of VNF instance {instance['id']}: [^\"\r\n]*", since, timeout=120)
        say(f"== the rulebook's playbook nfv.vnflcm.auto_heal, {time.monotonic() - fired:.1f} s after the alert "
            f"(of which {HEAL_WINDOW} s gathering): {line}")
        after = pods(core)
        say("== pods after:  " + ", ".join(f"{name} uid {uid}" for name, uid in sorted(after.items())))
        say(f"== pod UIDs changed: {sorted(before.values()) != sorted(after.values())}")
        info = run_tasks(folder, [{"name": "Read the op occs", "nfv.vnflcm.vnf_info": dict(
            connection, vnf_instance_id=instance["id"], namespace=NAMESPACE), "register": "info"}], "info")["info"]
        for item in info["vnf_lcm_op_occs"]:
            say(f"   op occ {item['id']} {item['operation']} {item['operationState']} startTime {item['startTime']} "
                f"params {json.dumps(item.get('operationParams'))}")
        ok = sorted(before.values()) != sorted(after.values()) and any(
            item["operation"] == "HEAL" and item["operationState"] == "COMPLETED" for item in info["vnf_lcm_op_occs"])
        return 0 if ok else 1
    finally:
        if instance:
            try:
                run_tasks(folder, [{"name": "Terminate and delete the CNF", "nfv.vnflcm.vnf_terminate": dict(
                    connection, vnf_instance_id=instance["id"], namespace=NAMESPACE, delete_instance=True)}], "terminate")
                say("== CNF terminated and deleted")
            except RuntimeError as exc:
                say(str(exc))
        rulebook.stop()
        alertmanager.stop()
        if namespace_made:
            try:
                core.delete_namespace(NAMESPACE)
            except Exception as exc:  # noqa: BLE001 - the demo's end: what is left is said, not raised
                say(f"namespace {NAMESPACE} was not deleted: {exc}")
        say("== ansible-rulebook and Alertmanager stopped")


if __name__ == "__main__":
    sys.exit(main())
