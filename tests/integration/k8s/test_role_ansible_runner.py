# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The playbooks run the way AWX / Automation Controller runs a job template: through ansible-runner, with
a private data dir holding the inventory, the job template's extra vars and the environment variables."""

from __future__ import annotations

import os
import sys
import time

import pytest
import yaml

ansible_runner = pytest.importorskip("ansible_runner")

INSTANCE = "runner-vnf"


def deployment(namespace):
    return "/apis/apps/v1/namespaces/{0}/deployments/vdu2".format(namespace)


def private_data_dir(root, extravars, envvars):
    """inventory/hosts, env/extravars, env/envvars and a project whose playbook imports the collection's."""
    (root / "inventory").mkdir(parents=True)
    (root / "inventory" / "hosts").write_text(
        "localhost ansible_connection=local ansible_python_interpreter={0}\n".format(sys.executable))
    (root / "env").mkdir()
    (root / "env" / "extravars").write_text(yaml.safe_dump(extravars))
    (root / "env" / "envvars").write_text(yaml.safe_dump(envvars))
    (root / "project").mkdir()
    for operation in ("instantiate", "terminate"):
        (root / "project" / (operation + ".yml")).write_text(yaml.safe_dump(
            [{"name": "VNF " + operation, "ansible.builtin.import_playbook": "nfv.vnflcm." + operation}]))
    return root


def task_results(run, task):
    return [event["event_data"] for event in run.events
            if event.get("event") in ("runner_on_ok", "runner_on_failed") and event["event_data"].get("task") == task]


def run_job(root, playbook):
    run = ansible_runner.run(private_data_dir=str(root), playbook=playbook, quiet=True, timeout=900)
    stdout = run.stdout.read() if run.stdout else ""
    assert run.status == "successful" and run.rc == 0, stdout[-6000:]
    return run


def test_instantiate_and_terminate_as_job_templates(k8s_lab, k8s_namespace, kube, tacker_packages, collections_path,
                                                    tmp_path, monkeypatch):
    # ansible-playbook of the Python that runs the tests, as an execution environment has it on PATH.
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    extravars = {
        "vnf_lifecycle_package": os.path.join(tacker_packages, "test_cnf_multi_ns"),
        "vnf_lifecycle_instance_name": INSTANCE,
        "vnf_lifecycle_namespace": k8s_namespace,
        "vnf_lifecycle_request": {
            "flavourId": "simple",
            "additionalParams": {
                "namespace": k8s_namespace,
                "lcm-kubernetes-def-files": ["Files/kubernetes/deployment_no_namespace.yaml"],
            },
        },
    }
    envvars = {"ANSIBLE_COLLECTIONS_PATH": collections_path, "K8S_AUTH_KUBECONFIG": str(k8s_lab.kubeconfig)}
    root = private_data_dir(tmp_path / "job", extravars, envvars)

    run = run_job(root, "instantiate.yml")
    done = task_results(run, "Create and instantiate " + INSTANCE)
    assert len(done) == 1 and done[0]["res"]["changed"] is True
    instance = done[0]["res"]["vnf_instance"]
    assert instance["instantiationState"] == "INSTANTIATED"
    assert instance["metadata"]["namespace"] == k8s_namespace
    assert [vnfc["vduId"] for vnfc in instance["instantiatedVnfInfo"]["vnfcResourceInfo"]] == ["VDU2"]
    assert task_results(run, "Check that the VNF is instantiated with its VNFCs")[0]["res"].get("failed") is not True
    live = kube.call("GET", deployment(k8s_namespace))
    assert live["spec"]["replicas"] == 1

    # The same job again changes nothing (the job template can be re-launched safely).
    again = run_job(root, "instantiate.yml")
    assert task_results(again, "Create and instantiate " + INSTANCE)[0]["res"]["changed"] is False
    assert not [event for event in again.events
                if event.get("event") == "runner_on_ok" and event["event_data"].get("task") == "Plan the instantiation of " + INSTANCE
                and event["event_data"]["res"]["changed"]]

    (root / "env" / "extravars").write_text(yaml.safe_dump(dict(extravars, vnf_lifecycle_request={"terminationType": "FORCEFUL"})))
    gone = run_job(root, "terminate.yml")
    terminated = task_results(gone, "Terminate the VNF instance")
    assert len(terminated) == 1 and terminated[0]["res"]["changed"] is True
    assert terminated[0]["res"]["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    deadline = time.monotonic() + 60
    while kube.request("GET", deployment(k8s_namespace))[0] != 404:
        assert time.monotonic() < deadline, "the Deployment is still there"
        time.sleep(0.5)
    assert terminated[0]["res"]["vnf_instance"]["instantiationState"] == "NOT_INSTANTIATED"
