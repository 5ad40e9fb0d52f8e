# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The closed loop on the lab, real parts only: alerts posted to Alertmanager's API as Prometheus posts them, its
webhook to the source nfv.vnflcm.alertmanager in ansible-rulebook running the collection's rulebook
nfv.vnflcm.closed_loop, whose rules run the playbooks nfv.vnflcm.auto_heal and nfv.vnflcm.auto_scale on the
Kubernetes lab; the watcher's rulebook nfv.vnflcm.auto_heal_watcher for a pod deleted by hand.

One Alertmanager and one ansible-rulebook process serve the module (the JVM's start costs seconds); each test has a
namespace and a CNF of its own (the alerts' namespace label says where its record is). Outcomes are waited for on
the record (its op occs) and on the playbook's last line in the rulebook's output, never with fixed sleeps.
"""

from __future__ import annotations

import base64
import json
import os
import signal
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import alertmanager_lab  # tools/lab/alertmanager, on the path by tests/integration/conftest.py
import pytest
import yaml

from ansible_collections.nfv.vnflcm.tests.integration.crash_sweep import module_process
from ansible_collections.nfv.vnflcm.tests.integration.faults import wait_for
from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_faults import record
from ansible_collections.nfv.vnflcm.tests.integration.k8s.write_gate import ADMIN_USER, WriteGate
from ansible_collections.nfv.vnflcm.tests.integration.secret_leaks import leaks, report, run_job, task_results

DEF_FILE = "Files/kubernetes/deployment_no_namespace.yaml"   # Deployment vdu2: VDU2, aspect vdu2_aspect (max level 2)
HEAL_WINDOW = 2


class Loop:
    """Alertmanager -> nfv.vnflcm.alertmanager in the rulebook nfv.vnflcm.closed_loop -> the playbooks."""

    def __init__(self, folder, kubeconfig, connection=None, options=()):
        self.folder = Path(folder)
        self.webhook_port = alertmanager_lab.free_port()
        webhook = f"http://127.0.0.1:{self.webhook_port}/alerts"
        self.webhook = webhook
        self.variables = {"closed_loop_webhook_port": self.webhook_port, "closed_loop_heal_window": HEAL_WINDOW,
                          "closed_loop_connection": connection or {"kubeconfig": str(kubeconfig), "wait_timeout": 120},
                          "closed_loop_busy_timeout": 60}
        self.alertmanager = alertmanager_lab.Alertmanager(self.folder / "alertmanager", webhook)
        self.rulebook = alertmanager_lab.Rulebook(self.folder / "rulebook", "nfv.vnflcm.closed_loop", self.variables,
                                                  health_url=webhook + "/health", options=options)

    def start(self):
        self.alertmanager.start()
        self.rulebook.start()
        return self

    def stop(self):
        self.rulebook.stop()
        self.alertmanager.stop()

    def fire(self, labels, count=1, starts_at=None):
        """``count`` firing alerts posted to Alertmanager, as Prometheus posts them: each a new alert (an ``alert`` label
        of its own), as a firing alert posted again only joins itself and is not notified again."""
        starts_at = starts_at or alertmanager_lab.rfc3339()
        batch = uuid.uuid4().hex[:8]
        alerts = [alertmanager_lab.alert(dict(labels, alert="{0}-{1}".format(batch, index)), starts_at) for index in range(count)]
        self.alertmanager.post_alerts(alerts)


@pytest.fixture(scope="module")
def loop(k8s_lab, tmp_path_factory):
    if not alertmanager_lab.find_binary():
        pytest.fail("alertmanager is not built: run `make lab-build` (tools/lab/alertmanager/alertmanager_lab.py build)", pytrace=False)
    running = Loop(tmp_path_factory.mktemp("closed-loop"), k8s_lab.kubeconfig).start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def multi_ns(tacker_packages):
    return os.path.join(tacker_packages, "test_cnf_multi_ns")


@pytest.fixture
def cnf(ansible_task, k8s_lab, k8s_namespace, multi_ns):
    """``cnf(heal=True, scale=True, level=None)``: a CNF in the test's namespace, its configurable properties set."""
    def make(heal=True, scale=True, level=None):
        # As with Tacker: the instantiate request's vnfConfigurableProperties allow the closed loop.
        request = {"flavourId": "simple", "additionalParams": {"namespace": k8s_namespace, "lcm-kubernetes-def-files": [DEF_FILE]},
                   "vnfConfigurableProperties": {"isAutohealEnabled": heal, "isAutoscaleEnabled": scale}}
        if level:
            request["instantiationLevelId"] = level
        done = ansible_task("vnf_instantiate", {"kubeconfig": str(k8s_lab.kubeconfig), "package": multi_ns, "request": request,
                                                "vnf_instance_name": "cnf-" + uuid.uuid4().hex[:6], "wait_timeout": 120, "wait_sleep": 1})
        assert not done.get("failed"), done.get("msg")
        assert done["vnf_instance"]["vnfConfigurableProperties"] == request["vnfConfigurableProperties"]
        return done["vnf_instance"]
    return make


def heal_labels(instance, namespace, vnfc_ids, tacker=True):
    """Tacker's labels (receiver_type: tacker), or the same under the collection's names; the namespace label as a
    kube-prometheus alert about a pod carries it."""
    if tacker:
        labels = {"receiver_type": "tacker", "function_type": "auto_heal", "vnf_instance_id": instance["id"], "vnfc_info_id": vnfc_ids}
    else:
        labels = {"nfv_vnflcm_function": "auto_heal", "nfv_vnflcm_vnf_instance_id": instance["id"], "nfv_vnflcm_vnfc_info_id": vnfc_ids}
    return dict(labels, namespace=namespace)


def scale_labels(instance, namespace, scale_type="SCALE_OUT", aspect="vdu2_aspect"):
    return {"receiver_type": "tacker", "function_type": "auto_scale", "vnf_instance_id": instance["id"], "auto_scale_type": scale_type,
            "aspect_id": aspect, "namespace": namespace}


def op_occs(kube, namespace, operation=None):
    found = record(kube, namespace)
    return [item for item in (found[1] if found else []) if operation is None or item["operation"] == operation]


def pod_uids(kube, namespace):
    return sorted(pod["metadata"]["uid"] for pod in kube.call("GET", f"/api/v1/namespaces/{namespace}/pods")["items"]
                  if not pod["metadata"].get("deletionTimestamp"))


def vnfc_of(instance):
    return instance["instantiatedVnfInfo"]["vnfcInfo"][0]["id"]


def done_line(function, instance):
    return rf"{function} of VNF instance {instance['id']}: [^\"\r\n]*"


def test_every_rulebook_passes_ansible_rulebooks_schema_and_names_the_collections_parts(collection_root):
    from ansible_rulebook.validators import Validate

    rulebooks = sorted((collection_root / "extensions" / "eda" / "rulebooks").glob("*.yml"))
    assert [path.stem for path in rulebooks] == ["auto_heal", "auto_heal_watcher", "auto_scale", "closed_loop", "closed_loop_controller"]
    for path in rulebooks:
        document = yaml.safe_load(path.read_text())
        Validate.rulebook(document)
        for rule_set in document:
            assert {next(key for key in source if key != "name") for source in rule_set["sources"]} <= {
                "nfv.vnflcm.alertmanager", "nfv.vnflcm.vnfc_watcher"}, path.name
            for rule in rule_set["rules"]:
                action = rule["action"]
                if "run_playbook" in action:
                    name = action["run_playbook"]["name"]
                    assert name in ("nfv.vnflcm.auto_heal", "nfv.vnflcm.auto_scale"), (path.name, name)
                    assert (collection_root / "playbooks" / (name.rsplit(".", 1)[1] + ".yml")).is_file()
                    assert name.endswith(rule["condition"].split('"')[1]), (path.name, rule["condition"])
                else:
                    assert set(action) == {"run_job_template"}, (path.name, action)


def test_an_auto_heal_alert_replaces_the_vnfcs_pod(loop, cnf, kube, k8s_namespace):
    instance = cnf()
    before = pod_uids(kube, k8s_namespace)
    since = loop.rulebook.offset()
    loop.fire(heal_labels(instance, k8s_namespace, vnfc_of(instance)))
    heal = wait_for(lambda: [item for item in op_occs(kube, k8s_namespace, "HEAL") if item["operationState"] == "COMPLETED"],
                    "a COMPLETED HEAL", timeout=90, sleep=0.5)[0]
    assert heal["operationParams"]["vnfcInstanceId"] == [vnfc_of(instance)]
    assert heal["operationParams"]["cause"].startswith("auto_heal (alertmanager)")
    after = pod_uids(kube, k8s_namespace)
    assert len(after) == 1 and after != before
    line = loop.rulebook.wait_line(done_line("auto_heal", instance), since)
    assert f"heal {vnfc_of(instance)} of VNF instance" in line and "COMPLETED" in line


def test_a_hundred_alerts_for_one_vnfc_make_one_heal(loop, cnf, kube, k8s_namespace):
    instance = cnf()
    since = loop.rulebook.offset()
    # Tacker's labels and ours, 100 alerts of distinct fingerprints within the gathering window.
    loop.fire(heal_labels(instance, k8s_namespace, vnfc_of(instance)), count=50)
    loop.fire(heal_labels(instance, k8s_namespace, vnfc_of(instance), tacker=False), count=50)
    loop.rulebook.wait_line(done_line("auto_heal", instance), since, timeout=90)
    # Alertmanager sends the groups again at each group_interval while they change: any later event is refused
    # by the playbook (healed since the alert); wait for the webhook's last notification to be handled.
    wait_for(lambda: all(item["operationState"] in ("COMPLETED", "FAILED", "ROLLED_BACK") for item in op_occs(kube, k8s_namespace)),
             "no op occ running", timeout=60, sleep=0.5)
    heals = op_occs(kube, k8s_namespace, "HEAL")
    assert len(heals) == 1 and heals[0]["operationState"] == "COMPLETED", heals


def test_auto_scale_goes_one_step_within_the_max_and_is_refused_beyond_it(loop, cnf, kube, k8s_namespace, ansible_task, k8s_lab, k8s_audit):
    instance = cnf()
    since = loop.rulebook.offset()
    loop.fire(scale_labels(instance, k8s_namespace))
    scaled = wait_for(lambda: [item for item in op_occs(kube, k8s_namespace, "SCALE") if item["operationState"] == "COMPLETED"],
                      "a COMPLETED SCALE", timeout=90, sleep=0.5)[0]
    assert scaled["operationParams"] == {"type": "SCALE_OUT", "aspectId": "vdu2_aspect", "numberOfSteps": 1}
    assert len(pod_uids(kube, k8s_namespace)) == 2
    loop.rulebook.wait_line(done_line("auto_scale", instance), since)

    # To the aspect's max (2) by hand, then an alert asks for one step more.
    out = ansible_task("vnf_scale", {"kubeconfig": str(k8s_lab.kubeconfig), "vnf_instance_id": instance["id"], "namespace": k8s_namespace,
                                     "request": {"type": "SCALE_OUT", "aspectId": "vdu2_aspect"}})
    assert not out.get("failed"), out.get("msg")
    start, since = k8s_audit.mark(), loop.rulebook.offset()
    loop.fire(scale_labels(instance, k8s_namespace))
    line = loop.rulebook.wait_line(done_line("auto_scale", instance), since)
    assert "nothing done: aspect vdu2_aspect is at scale level 2: SCALE_OUT would reach 3, outside 0..2" in line, line
    assert k8s_audit.writes(start, user=ADMIN_USER, namespace=k8s_namespace) == []
    assert [item["operationState"] for item in op_occs(kube, k8s_namespace, "SCALE")] == ["COMPLETED", "COMPLETED"]


def test_nothing_is_done_when_auto_heal_is_disabled(loop, cnf, kube, k8s_namespace, k8s_audit):
    instance = cnf(heal=False)
    before = pod_uids(kube, k8s_namespace)
    start, since = k8s_audit.mark(), loop.rulebook.offset()
    loop.fire(heal_labels(instance, k8s_namespace, vnfc_of(instance)))
    line = loop.rulebook.wait_line(done_line("auto_heal", instance), since)
    assert "nothing done: vnfConfigurableProperties.isAutohealEnabled of VNF instance" in line and line.endswith("is false"), line
    assert k8s_audit.writes(start, user=ADMIN_USER, namespace=k8s_namespace) == []
    assert pod_uids(kube, k8s_namespace) == before and op_occs(kube, k8s_namespace, "HEAL") == []


def test_a_malformed_webhook_body_is_refused_and_writes_nothing(loop, cnf, kube, k8s_namespace, k8s_audit):
    instance = cnf()
    start = k8s_audit.mark()
    body = {"version": "4", "status": "firing", "alerts": [
        {"status": "firing", "labels": heal_labels(instance, k8s_namespace, vnfc_of(instance)), "startsAt": alertmanager_lab.rfc3339(),
         "fingerprint": "a1"},
        {"status": "firing", "labels": {"receiver_type": "tacker", "function_type": "auto_scale", "vnf_instance_id": instance["id"],
                                        "auto_scale_type": "SIDEWAYS", "aspect_id": "vdu2_aspect"}, "startsAt": alertmanager_lab.rfc3339(),
         "fingerprint": "a2"}]}
    for data in (json.dumps(body).encode(), b"{not json", json.dumps({"alerts": "none"}).encode()):
        request = urllib.request.Request(loop.webhook, data=data, method="POST", headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 400
    # The good alert of the refused body was not taken either: a good body afterwards is healed, and only it.
    since = loop.rulebook.offset()
    loop.fire({"receiver_type": "tacker", "function_type": "auto_heal", "vnf_instance_id": "no-such-instance", "vnfc_info_id": "x",
               "namespace": k8s_namespace})
    line = loop.rulebook.wait_line(r"auto_heal of VNF instance no-such-instance: [^\"\r\n]*", since)
    assert "nothing done: no VNF instance no-such-instance in namespace " + k8s_namespace in line
    assert k8s_audit.writes(start, user=ADMIN_USER, namespace=k8s_namespace) == []
    assert op_occs(kube, k8s_namespace, "HEAL") == []


def test_the_watcher_heals_a_pod_deleted_by_hand(k8s_lab, cnf, kube, k8s_namespace, tmp_path):
    instance = cnf()
    watcher = alertmanager_lab.Rulebook(tmp_path / "watcher", "nfv.vnflcm.auto_heal_watcher", {
        "closed_loop_watch_namespaces": [k8s_namespace], "closed_loop_grace_period": 5, "closed_loop_heal_window": HEAL_WINDOW,
        "closed_loop_connection": {"kubeconfig": str(k8s_lab.kubeconfig), "wait_timeout": 120}}).start()
    try:
        pod = instance["instantiatedVnfInfo"]["vnfcResourceInfo"][0]["computeResource"]["resourceId"]
        # No wait for the watcher's first list: a recorded pod that is gone by then is a fault too.
        since = watcher.offset()
        kube.call("DELETE", f"/api/v1/namespaces/{k8s_namespace}/pods/{pod}")
        heal = wait_for(lambda: [item for item in op_occs(kube, k8s_namespace, "HEAL") if item["operationState"] == "COMPLETED"],
                        "a COMPLETED HEAL", timeout=90, sleep=0.5)[0]
        assert heal["operationParams"]["vnfcInstanceId"] == [vnfc_of(instance)]
        assert heal["operationParams"]["cause"].startswith("auto_heal (watcher)")
        watcher.wait_line(done_line("auto_heal", instance), since)
    finally:
        watcher.stop()


def test_a_heal_waits_for_another_runs_operation_then_takes_over_what_it_left(loop, cnf, kube, k8s_namespace, tmp_path, ansible_task, k8s_lab):
    instance = cnf()
    before = pod_uids(kube, k8s_namespace)
    # A heal by hand holds the instance's op occ (its live lease) while its pod's delete is held; the alert's playbook
    # waits for it (polling the record); the gate then denies the held write, so the heal by hand stops half-way
    # and the playbook takes its op occ over (retry).
    with WriteGate(kube, k8s_namespace, tmp_path, hold_after=1) as gate:
        by_hand = ansible_task("vnf_heal", {"kubeconfig": str(k8s_lab.kubeconfig), "vnf_instance_id": instance["id"], "namespace": k8s_namespace,
                                            "request": {"vnfcInstanceId": [vnfc_of(instance)]}}, background=True)
        assert gate.held.wait(60), "the heal by hand never wrote"
        since = loop.rulebook.offset()
        loop.fire(heal_labels(instance, k8s_namespace, vnfc_of(instance)))
        loop.rulebook.wait_line(r"RETRYING: \[localhost\]: [^\n]*Read the record until no other run works on the instance", since, timeout=60)
        gate.release()
    assert by_hand.wait()["failed"]
    line = loop.rulebook.wait_line(done_line("auto_heal", instance), since, timeout=90)
    heals = op_occs(kube, k8s_namespace, "HEAL")
    assert [item["operationState"] for item in heals] == ["COMPLETED"], heals
    assert f"op occ {heals[0]['id']} (HEAL, " in loop.rulebook.output(since) and "nothing done" in line and "healed since the alert" in line, line
    after = pod_uids(kube, k8s_namespace)
    assert len(after) == 1 and after != before


def test_a_rulebook_killed_mid_heal_is_taken_over_by_the_next_events_heal(loop, cnf, kube, k8s_namespace, tmp_path):
    instance = cnf()
    before = pod_uids(kube, k8s_namespace)
    # The heal's first write (its op occ PROCESSING, with the lease) goes through; the next (the pod's delete) is held
    # while the rulebook and the module are killed, then denied.
    with WriteGate(kube, k8s_namespace, tmp_path, hold_after=1) as gate:
        loop.fire(heal_labels(instance, k8s_namespace, vnfc_of(instance)))
        assert gate.held.wait(60), "the heal never wrote: " + loop.rulebook.tail()
        module = module_process(loop.rulebook.process.pid, "vnf_heal")
        assert module, "no vnf_heal process under the rulebook"
        loop.rulebook.kill()
        os.kill(module, signal.SIGKILL)
        gate.release()
    stuck = op_occs(kube, k8s_namespace, "HEAL")
    assert [item["operationState"] for item in stuck] == ["PROCESSING"]
    assert pod_uids(kube, k8s_namespace) == before

    loop.rulebook.start()
    since = loop.rulebook.offset()
    # Another alert of the VNFC: Alertmanager notifies its group again, with both alerts.
    loop.fire(heal_labels(instance, k8s_namespace, vnfc_of(instance)))
    line = loop.rulebook.wait_line(done_line("auto_heal", instance), since)
    output = loop.rulebook.output(since)
    assert f"op occ {stuck[0]['id']} (HEAL, PROCESSING) did not end" in output and "retried" in output, output[-3000:]
    heals = op_occs(kube, k8s_namespace, "HEAL")
    assert [(item["id"], item["operationState"]) for item in heals] == [(stuck[0]["id"], "COMPLETED")], heals
    assert "nothing done" in line and "healed since the alert" in line, line
    after = pod_uids(kube, k8s_namespace)
    assert len(after) == 1 and after != before


def test_no_credential_of_the_loop_is_printed(k8s_lab, k8s_tenant, cnf, kube, k8s_namespace, tmp_path):
    """The loop's connection is a ServiceAccount token (host + api_key), given as the rulebook's variable: not in
    ansible-rulebook's output at -vv (its playbooks' output included), nor in an AWX-style job of nfv.vnflcm.auto_heal
    at -vvvv (ansible-runner's stdout and job events) with the connection as a JSON string, the form an extra var
    typed in a survey takes. Both heal for real, with the token's rights only (a Role in the namespace)."""
    instance = cnf()
    admin = yaml.safe_load(k8s_lab.kubeconfig.read_text())
    ca_file = tmp_path / "ca.crt"
    ca_file.write_bytes(base64.b64decode(admin["clusters"][0]["cluster"]["certificate-authority-data"]))
    connection = {"host": admin["clusters"][0]["cluster"]["server"], "api_key": k8s_tenant.token, "ca_cert": str(ca_file), "wait_timeout": 120}
    secret = {"tenant token": k8s_tenant.token}

    token_loop = Loop(tmp_path / "loop", k8s_lab.kubeconfig, connection=connection, options=["-vv"]).start()
    try:
        loop_uids = pod_uids(kube, k8s_namespace)
        token_loop.fire(heal_labels(instance, k8s_namespace, vnfc_of(instance)))
        line = token_loop.rulebook.wait_line(done_line("auto_heal", instance), 0)
        output = token_loop.rulebook.output()
    finally:
        token_loop.stop()
    assert "COMPLETED" in line, line
    assert pod_uids(kube, k8s_namespace) != loop_uids
    found = leaks(secret, output=output)
    assert not found, report(found)

    playbook = tmp_path / "auto_heal.yml"
    playbook.write_text(yaml.safe_dump([{"name": "Auto-heal", "ansible.builtin.import_playbook": "nfv.vnflcm.auto_heal"}]))
    job_uids = pod_uids(kube, k8s_namespace)
    # The loop's heal gave the VNFC a new id (it follows its pod): the job heals the VNFC the record has now.
    healed_instance = record(kube, k8s_namespace)[0]
    assert vnfc_of(healed_instance) != vnfc_of(instance)
    artifacts = run_job(playbook, {"closed_loop_connection": json.dumps(connection), "closed_loop_namespace": k8s_namespace,
                                   "closed_loop_vnf_instance_id": instance["id"], "closed_loop_vnfc_info_ids": [vnfc_of(healed_instance)]},
                        tmp_path / "job", check=False)
    found = leaks(secret, artifacts=artifacts)
    assert not found, report(found)
    healed = task_results(artifacts).get("Heal the VNFCs still to heal") or []
    assert healed and not healed[-1]["failed"] and healed[-1]["vnf_lcm_op_occ"]["operationState"] == "COMPLETED", healed
    assert pod_uids(kube, k8s_namespace) != job_uids
