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

    def __init__(self, folder, kubeconfig, connection=None, options=(), **variables):
        self.folder = Path(folder)
        self.webhook_port = alertmanager_lab.free_port()
        webhook = f"http://127.0.0.1:{self.webhook_port}/alerts"
        self.webhook = webhook
        # The webhook locked as the guide shows: the rulebook's token, sent by Alertmanager's http_config.authorization.
        self.token = uuid.uuid4().hex
        self.variables = dict({"closed_loop_webhook_port": self.webhook_port, "closed_loop_heal_window": HEAL_WINDOW,
                               "closed_loop_connection": connection or {"kubeconfig": str(kubeconfig), "wait_timeout": 120},
                               "closed_loop_busy_timeout": 60, "closed_loop_webhook_token": self.token}, **variables)
        self.alertmanager = alertmanager_lab.Alertmanager(self.folder / "alertmanager", webhook, token=self.token)
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

    def post(self, body, token=True, raw=None):
        """``(status, answer)`` of a body posted to the webhook directly, as Tacker's test posts its alerts; ``token``: the
        loop's (True), none (None), or another."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + (self.token if token is True else token)
        request = urllib.request.Request(self.webhook, data=raw if raw is not None else json.dumps(body).encode(), method="POST", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read() or b"null")


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
    """``cnf(heal=True, scale=True, level=None, reconcile=None)``: a CNF in the test's namespace, its configurable properties set."""
    def make(heal=True, scale=True, level=None, reconcile=None):
        # As with Tacker: the instantiate request's vnfConfigurableProperties allow the closed loop.
        request = {"flavourId": "simple", "additionalParams": {"namespace": k8s_namespace, "lcm-kubernetes-def-files": [DEF_FILE]},
                   "vnfConfigurableProperties": {"isAutohealEnabled": heal, "isAutoscaleEnabled": scale}}
        if reconcile is not None:
            request["vnfConfigurableProperties"]["isAutoReconcileEnabled"] = reconcile
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
    assert [path.stem for path in rulebooks] == ["auto_heal", "auto_heal_watcher", "auto_scale", "closed_loop", "closed_loop_controller", "drift"]
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
                    assert name in ("nfv.vnflcm.auto_heal", "nfv.vnflcm.auto_scale", "nfv.vnflcm.closed_loop_resume", "nfv.vnflcm.drift"), (path.name, name)
                    assert (collection_root / "playbooks" / (name.rsplit(".", 1)[1] + ".yml")).is_file()
                    assert name.endswith(rule["condition"].split('"')[1]), (path.name, rule["condition"])
                else:
                    assert set(action) == {"run_job_template"}, (path.name, action)
            for source in rule_set["sources"]:
                if "nfv.vnflcm.alertmanager" in source:
                    # The webhook is locked unless it listens on loopback: every rulebook passes the token.
                    assert source["nfv.vnflcm.alertmanager"]["token"] == "{{ closed_loop_webhook_token | default(None) }}", path.name
                    assert "127.0.0.1" in source["nfv.vnflcm.alertmanager"]["host"], path.name


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
    cause = scaled["operationParams"].pop("additionalParams")["nfv_vnflcm_closed_loop"]
    assert scaled["operationParams"] == {"type": "SCALE_OUT", "aspectId": "vdu2_aspect", "numberOfSteps": 1}
    assert scaled["isAutomaticInvocation"] is True and cause["source"] == "alertmanager" and cause["alert_count"] == 1
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


@pytest.fixture
def tacker_alerts(tacker_packages):
    """``tacker_alerts(name, **ids)``: one of Tacker's alert bodies (test_prom_auto_scale_heal's, or its API reference's),
    its placeholders (VNF_INSTANCE_ID, VNFC_INFO_ID) substituted, nothing else changed."""
    folder = Path(tacker_packages) / "requests" / "sol_kubernetes_v2" / "test_prom_auto_scale_heal"

    def read(name, **ids):
        text = (folder / name).read_text()
        for placeholder, value in ids.items():
            text = text.replace(placeholder, value)
        return json.loads(text)
    return read


def test_the_webhook_takes_alerts_one_by_one_and_only_with_its_token(loop, cnf, kube, k8s_namespace, k8s_audit, tacker_alerts):
    instance = cnf()
    before = pod_uids(kube, k8s_namespace)
    heal = tacker_alerts("auto_healing_alert.json", VNF_INSTANCE_ID=instance["id"], VNFC_INFO_ID=vnfc_of(instance))
    heal["alerts"][0]["labels"]["namespace"] = k8s_namespace
    # No token, a wrong one: 401, nothing done.
    start = k8s_audit.mark()
    assert loop.post(heal, token=None)[0] == 401 and loop.post(heal, token="wrong")[0] == 401
    # Not an Alertmanager body at all: 400.
    assert loop.post(None, raw=b"{not json")[0] == 400 and loop.post({"alerts": "none"})[0] == 400
    # Tacker's FM and PM alerts (its API reference's), a malformed alert of the loop, and the heal, in one body:
    # the heal is taken, the others are ignored or dropped one by one, and the answer says so.
    fm = tacker_alerts("api_ref_alert_fm.json")["alerts"][0]
    pm = tacker_alerts("api_ref_alert_pm.json")["alerts"][0]
    bad = {"status": "firing", "labels": {"receiver_type": "tacker", "function_type": "auto_scale", "vnf_instance_id": instance["id"],
                                          "auto_scale_type": "SIDEWAYS", "aspect_id": "vdu2_aspect"}, "startsAt": alertmanager_lab.rfc3339()}
    mixed = dict(heal, alerts=[fm, pm, bad] + heal["alerts"])
    assert k8s_audit.writes(start, user=ADMIN_USER, namespace=k8s_namespace) == [] and op_occs(kube, k8s_namespace, "HEAL") == []
    since = loop.rulebook.offset()
    status, answer = loop.post(mixed)
    assert status == 200 and (answer["accepted"], answer["ignored"], answer["rejected"]) == (1, 2, 1), answer
    assert answer["ignored_why"] == {"other_function_type": 2}
    assert answer["rejected_alerts"] == [{"index": 2, "field": "alerts[2].labels.auto_scale_type", "reason": "must be SCALE_OUT or SCALE_IN, got 'SIDEWAYS'"}]
    line = loop.rulebook.wait_line(done_line("auto_heal", instance), since)
    assert "COMPLETED" in line, line
    [healed] = op_occs(kube, k8s_namespace, "HEAL")
    assert healed["operationState"] == "COMPLETED" and healed["isAutomaticInvocation"] is True
    assert healed["operationParams"]["additionalParams"]["nfv_vnflcm_closed_loop"]["alerts"][0]["fingerprint"] == "5ef77f1f8a3ecb8d"
    # A dropped alert is said at the rulebook's default verbosity, with the counts.
    assert "1 alert(s) taken, 0 already seen, 2 ignored (2 other_function_type), 1 malformed and dropped (alerts[2])" in loop.rulebook.output(since)
    assert len(pod_uids(kube, k8s_namespace)) == 1 and pod_uids(kube, k8s_namespace) != before


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


def test_the_watcher_s_drift_is_reported_then_repaired_once_the_instance_allows_it(k8s_lab, cnf, kube, k8s_namespace, tmp_path, ansible_task):
    instance = cnf(reconcile=False)
    auth = {"kubeconfig": str(k8s_lab.kubeconfig), "namespace": k8s_namespace, "vnf_instance_id": instance["id"]}
    watcher = alertmanager_lab.Rulebook(tmp_path / "drift", "nfv.vnflcm.drift", {
        "closed_loop_watch_namespaces": [k8s_namespace], "closed_loop_drift_interval": 1,
        "closed_loop_connection": {"kubeconfig": str(k8s_lab.kubeconfig), "wait_timeout": 120}}).start()
    deployment = f"/apis/apps/v1/namespaces/{k8s_namespace}/deployments/vdu2"
    replicas = kube.call("GET", deployment)["spec"]["replicas"]

    def scaled_by_hand(count):
        obj = kube.call("GET", deployment)
        obj["spec"]["replicas"] = count
        kube.call("PUT", deployment, obj)

    try:
        # isAutoReconcileEnabled false: the drift is reported, nothing written.
        since = watcher.offset()
        scaled_by_hand(replicas + 1)
        line = watcher.wait_line(done_line("drift", instance), since, timeout=60)
        assert "reported, not repaired" in line and "isAutoReconcileEnabled" in line, line
        assert op_occs(kube, k8s_namespace, "HEAL") == [] and kube.call("GET", deployment)["spec"]["replicas"] == replicas + 1
        allowed = ansible_task("vnf_modify", dict(auth, request={"vnfConfigurableProperties": {"isAutoReconcileEnabled": True}}))
        assert allowed.get("failed") is not True, allowed.get("msg")
        # Allowed now: drift that changes again is repaired, as the record says, by the loop (isAutomaticInvocation).
        since = watcher.offset()
        scaled_by_hand(replicas + 2)
        line = watcher.wait_line(done_line("drift", instance), since, timeout=90)
        [repair] = op_occs(kube, k8s_namespace, "HEAL")
        assert "COMPLETED" in line and repair["operationState"] == "COMPLETED" and repair["isAutomaticInvocation"] is True, line
        assert repair["operationParams"]["additionalParams"]["reconcile"] is True and repair["operationParams"]["cause"].startswith("drift (watcher)")
        assert kube.call("GET", deployment)["spec"]["replicas"] == replicas
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


def test_a_rulebook_killed_mid_heal_is_resumed_at_its_restart_with_no_new_alert(loop, cnf, kube, k8s_namespace, tmp_path):
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
    assert [item["operationState"] for item in stuck] == ["PROCESSING"] and stuck[0]["isAutomaticInvocation"] is True
    assert pod_uids(kube, k8s_namespace) == before

    # The rulebook again, told where the loop's records are (the alert named the namespace; no alert comes now): at its
    # start it takes its own op occ over, which ends COMPLETED once.
    resumed = alertmanager_lab.Rulebook(tmp_path / "resumed", "nfv.vnflcm.closed_loop", dict(loop.variables, closed_loop_namespaces=[k8s_namespace]),
                                        health_url=loop.webhook + "/health").start()
    try:
        line = resumed.wait_line(r"closed loop resume: [^\"\r\n]*", 0, timeout=120)
        assert f"1 op occ(s) taken over: {stuck[0]['id']} (HEAL of VNF instance {instance['id']}, PROCESSING" in line and "COMPLETED" in line, line
        heals = op_occs(kube, k8s_namespace, "HEAL")
        assert [(item["id"], item["operationState"]) for item in heals] == [(stuck[0]["id"], "COMPLETED")], heals
        after = pod_uids(kube, k8s_namespace)
        assert len(after) == 1 and after != before
    finally:
        resumed.stop()
        loop.rulebook.start()


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


# ---------------------------------------------------------------------------------------------
# Tacker's test_prom_auto_scale_heal (tacker/tests/functional/sol_kubernetes_v2), replayed: its package and instantiate
# request, its alert bodies unchanged but for their ids, posted to the webhook directly as Tacker's test posts them, and
# through Alertmanager as Prometheus would fire them. Tacker's bodies carry no namespace label: the loop finds the
# instance among closed_loop_namespaces. Tacker answers 204, the webhook 200 with its counts.

def tacker_cnf(ansible_task, k8s_lab, tacker_packages, namespace, properties):
    """Tacker's instantiate of the test: test_instantiate_cnf_resources, min_sample_instantiate with only
    Files/kubernetes/deployment.yaml (VDU2, 2 pods) and ``properties``; its namespace is the test's (Tacker's is the
    VIM's default) and the VIM the modules' connection (the request's vimConnectionInfo names Tacker's VIM by id)."""
    request = json.loads((Path(tacker_packages) / "requests" / "sol_kubernetes_v2" / "test_vnflcm_basic" / "min_sample_instantiate.json").read_text())
    request.pop("vimConnectionInfo")
    request["additionalParams"]["lcm-kubernetes-def-files"] = ["Files/kubernetes/deployment.yaml"]
    request["additionalParams"]["namespace"] = namespace
    request["vnfConfigurableProperties"] = properties
    done = ansible_task("vnf_instantiate", {"kubeconfig": str(k8s_lab.kubeconfig), "package": os.path.join(tacker_packages, "test_instantiate_cnf_resources"),
                                            "request": request, "vnf_instance_name": "prom-" + uuid.uuid4().hex[:6], "wait_timeout": 120, "wait_sleep": 1})
    assert not done.get("failed"), done.get("msg")
    # Tacker: 3. Show OpOcc: COMPLETED, INSTANTIATE
    assert (done["vnf_lcm_op_occ"]["operationState"], done["vnf_lcm_op_occ"]["operation"]) == ("COMPLETED", "INSTANTIATE")
    return done["vnf_instance"], done["vnf_lcm_op_occ"]


def pods_by_vnfc(kube, namespace, instance_id):
    """{vnfcInfo id: (pod name, pod uid)} of the instance as recorded, the pods as they run."""
    _instance, info = shown(kube, namespace, instance_id)
    uids = {pod["metadata"]["name"]: pod["metadata"]["uid"] for pod in kube.call("GET", f"/api/v1/namespaces/{namespace}/pods")["items"]
            if not pod["metadata"].get("deletionTimestamp")}
    resources = {item["id"]: item["computeResource"]["resourceId"] for item in info["vnfcResourceInfo"]}
    return {vnfc["id"]: (resources[vnfc["vnfcResourceInfoId"]], uids.get(resources[vnfc["vnfcResourceInfoId"]])) for vnfc in info["vnfcInfo"]}


def shown(kube, namespace, instance_id):
    found = record(kube, namespace)
    assert found and found[0]["id"] == instance_id
    return found[0], found[0]["instantiatedVnfInfo"]


def newest_completed(kube, namespace, operation, after):
    """Tacker's "the op occ of the newest startTime", waited for until COMPLETED: one started after ``after`` (ids)."""
    def ready():
        new = [item for item in op_occs(kube, namespace) if item["id"] not in after]
        new.sort(key=lambda item: item["startTime"])
        return new[-1:] if new and new[-1]["operationState"] in ("COMPLETED", "FAILED_TEMP", "FAILED") else []
    [occ] = wait_for(ready, f"a finished {operation}", timeout=120, sleep=0.5)
    assert (occ["operationState"], occ["operation"]) == ("COMPLETED", operation), occ
    # What Tacker's Prometheus plugin sets on the op occs it makes.
    assert occ["isAutomaticInvocation"] is True, occ
    return occ


def posted_to_alertmanager(loop, body):
    """A Tacker body's alerts as Prometheus posts them to Alertmanager (the fields Alertmanager's API takes)."""
    loop.alertmanager.post_alerts([{key: alert[key] for key in ("labels", "annotations", "startsAt", "endsAt", "generatorURL") if key in alert}
                                   for alert in body["alerts"]])


@pytest.fixture
def tacker_loop(k8s_lab, k8s_namespace, tmp_path):
    """A loop that looks for instances in two namespaces, the test's the second."""
    running = Loop(tmp_path / "tacker-loop", k8s_lab.kubeconfig, closed_loop_namespaces=["nfv-no-such-namespace", k8s_namespace]).start()
    try:
        yield running
    finally:
        running.stop()


def test_tackers_auto_heal_test_replayed(tacker_loop, ansible_task, k8s_lab, tacker_packages, kube, k8s_namespace, tacker_alerts):
    instance, instantiated = tacker_cnf(ansible_task, k8s_lab, tacker_packages, k8s_namespace, {"isAutohealEnabled": True})
    seen = {instantiated["id"]}

    # 4-5. Send alert and auto heal: the VNFC of the instantiate's first affected VNFC, posted to the webhook.
    affected = instantiated["resourceChanges"]["affectedVnfcs"]
    vnfc_info_id = affected[0]["vduId"] + "-" + affected[0]["id"]
    before = pods_by_vnfc(kube, k8s_namespace, instance["id"])
    assert vnfc_info_id in before and len(before) == 2
    status, answer = tacker_loop.post(tacker_alerts("auto_healing_alert.json", VNF_INSTANCE_ID=instance["id"], VNFC_INFO_ID=vnfc_info_id))
    assert status == 200 and answer["accepted"] == 1, answer

    # 6. Show OpOcc: the newest, COMPLETED, HEAL; what it replaced is the alerted VNFC and no other.
    heal = newest_completed(kube, k8s_namespace, "HEAL", seen)
    seen.add(heal["id"])
    assert heal["operationParams"]["vnfcInstanceId"] == [vnfc_info_id]
    removed = [item for item in heal["resourceChanges"]["affectedVnfcs"] if item["changeType"] == "REMOVED"]
    assert all(item["vduId"] + "-" + item["id"] == vnfc_info_id for item in removed), heal["resourceChanges"]
    after = pods_by_vnfc(kube, k8s_namespace, instance["id"])
    assert_replaced(before, after, [vnfc_info_id])

    # 7. Send alert (the first VNFC of the instance as shown now), 8-9. send alert (the second) and auto heal: both
    # through Alertmanager, as Prometheus fires them. Tacker gives a healed VNFC a new id, so both are new VNFCs
    # there; where a healed VNFC keeps its id, its alert is the one of step 4 (same labels, same startsAt): the same
    # alert, taken once.
    vnfc_infos = list(after)  # the record's vnfcInfo order, as Tacker's show
    alerted = [vnfc_infos[0], vnfc_infos[1]]
    to_heal = sorted(vnfc_id for vnfc_id in alerted if vnfc_id != vnfc_info_id)
    for vnfc_id in alerted:
        posted_to_alertmanager(tacker_loop, tacker_alerts("auto_healing_alert.json", VNF_INSTANCE_ID=instance["id"], VNFC_INFO_ID=vnfc_id))

    # 10. Show OpOcc: the newest, COMPLETED, HEAL of both (Tacker: 4 affected VNFCs, 2 ADDED, 2 REMOVED, the removed the
    # alerted ones).
    heal = newest_completed(kube, k8s_namespace, "HEAL", seen)
    assert sorted(heal["operationParams"]["vnfcInstanceId"]) == to_heal, heal["operationParams"]
    removed = [item["vduId"] + "-" + item["id"] for item in heal["resourceChanges"]["affectedVnfcs"] if item["changeType"] == "REMOVED"]
    assert set(removed) <= set(to_heal), heal["resourceChanges"]
    if len(to_heal) == 2 and removed:
        assert sorted(removed) == to_heal and len(heal["resourceChanges"]["affectedVnfcs"]) == 4
    assert_replaced(after, pods_by_vnfc(kube, k8s_namespace, instance["id"]), to_heal)
    assert [item["operation"] for item in op_occs(kube, k8s_namespace) if item["operation"] == "HEAL"] == ["HEAL", "HEAL"]


def assert_replaced(before, after, vnfc_ids):
    """The pods of ``vnfc_ids`` replaced, every other VNFC's pod the same; VNFCs matched by id when kept, else by
    what is left (a VNFC whose id changed with its pod is a new one in place of the alerted one)."""
    kept = {vnfc_id: pod for vnfc_id, pod in before.items() if vnfc_id not in vnfc_ids}
    assert len(after) == len(before), (before, after)
    running = set(after.values())
    for vnfc_id, pod in kept.items():
        assert pod in running, f"VNFC {vnfc_id}'s pod {pod} was replaced though not alerted: {after}"
    for vnfc_id in vnfc_ids:
        assert before[vnfc_id] not in running, f"VNFC {vnfc_id}'s pod {before[vnfc_id]} is still there: {after}"
    assert all(uid for _name, uid in after.values()), after


def test_tackers_auto_scale_test_replayed(tacker_loop, ansible_task, k8s_lab, tacker_packages, kube, k8s_namespace, tacker_alerts):
    instance, instantiated = tacker_cnf(ansible_task, k8s_lab, tacker_packages, k8s_namespace, {"isAutoscaleEnabled": True})
    seen = {instantiated["id"]}
    before = pods_by_vnfc(kube, k8s_namespace, instance["id"])

    # 4-5. Send alert and auto-scale out, to the webhook.
    alert = tacker_alerts("auto_scaling_alert.json", VNF_INSTANCE_ID=instance["id"])
    status, answer = tacker_loop.post(alert)
    assert status == 200 and answer["accepted"] == 1, answer

    # 6. Show OpOcc: COMPLETED SCALE, one VNFC ADDED, the alert's aspect.
    scale = newest_completed(kube, k8s_namespace, "SCALE", seen)
    seen.add(scale["id"])
    affected = scale["resourceChanges"]["affectedVnfcs"]
    assert len(affected) == 1 and affected[0]["changeType"] == "ADDED"
    assert scale["operationParams"]["aspectId"] == alert["alerts"][0]["labels"]["aspect_id"]
    cause = scale["operationParams"]["additionalParams"]["nfv_vnflcm_closed_loop"]
    assert cause["source"] == "alertmanager" and cause["alerts"][0]["fingerprint"] == "5ef77f1f8a3ecb8d"
    out = pods_by_vnfc(kube, k8s_namespace, instance["id"])
    assert len(out) == len(before) + 1 and set(before.values()) <= set(out.values())

    # 7-8. Send alert and auto-scale in: the same body, auto_scale_type SCALE_IN (one fingerprint, one startsAt:
    # another alert all the same, its labels differ), through Alertmanager.
    alert["alerts"][0]["labels"]["auto_scale_type"] = "SCALE_IN"
    posted_to_alertmanager(tacker_loop, alert)

    # 9. Show OpOcc: COMPLETED SCALE, one VNFC REMOVED, the alert's aspect.
    scale = newest_completed(kube, k8s_namespace, "SCALE", seen)
    affected = scale["resourceChanges"]["affectedVnfcs"]
    assert len(affected) == 1 and affected[0]["changeType"] == "REMOVED"
    assert (scale["operationParams"]["aspectId"], scale["operationParams"]["type"]) == ("vdu2_aspect", "SCALE_IN")
    assert len(pods_by_vnfc(kube, k8s_namespace, instance["id"])) == len(before)
    assert [item["operationState"] for item in op_occs(kube, k8s_namespace, "SCALE")] == ["COMPLETED", "COMPLETED"]


def test_an_instance_in_no_namespace_searched_is_named_so(tacker_loop, k8s_namespace, tacker_alerts):
    since = tacker_loop.rulebook.offset()
    tacker_loop.post(tacker_alerts("api_ref_alert_auto_heal.json"))
    line = tacker_loop.rulebook.wait_line(r"auto_heal of VNF instance 503e635e-dcd8-4fae-9939-279af4c528b1: [^\"\r\n]*", since)
    assert f"nothing done: no VNF instance 503e635e-dcd8-4fae-9939-279af4c528b1 in namespaces nfv-no-such-namespace, {k8s_namespace} " \
           "(closed_loop_namespaces)" in line, line
