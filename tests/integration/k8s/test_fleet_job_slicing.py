# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A fleet run as AWX runs a sliced job template: each slice an ansible-runner job over its part of one inventory.

The inventory has one host per VNF instance, each with its instance name and namespace as host variables; the job
templates (instantiate, scale, terminate) are the collection's playbooks with ``target: fleet`` and one request whose
namespace is the host's (tests/integration/k8s/fleet.py). A job slice count of 3 makes AWX launch 3 jobs side by
side, each with the part of the inventory AWX's rule gives it (fleet.awx_slices). The credential is AWX's Kubernetes
bearer token, of one ServiceAccount that is namespace admin in each host's namespace.

The scale job template is then launched twice at once (6 jobs over the same 6 instances: two operators, or a
schedule that overlaps a manual launch), so each instance's two scale-outs race. Its record is guarded (the lease of
a running op occ, and resourceVersion): the loser fails cleanly, naming the conflict, or runs after the winner.
Every instance's record must equal its live state after each step, holding one completed scale per job that
succeeded on it.
"""

from __future__ import annotations

import os
import re
import time
import uuid

import pytest
import yaml

from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_faults import owned
from ansible_collections.nfv.vnflcm.tests.integration.k8s.fleet import (
    ASPECT,
    MODULE_TASKS,
    REQUESTS,
    awx_slices,
    create_namespaces,
    fleet_hosts,
    inventory,
    operator_token,
    record_against_live,
)
from ansible_collections.nfv.vnflcm.tests.integration.playbook_runs import RunnerDriver, bearer_token_inputs, kubernetes_bearer_token

HOSTS = 6
SLICES = 3
OPERATOR = "fleet-operator"
# How the second of two operations on one instance is refused: the first one's op occ holds a live lease, or it
# wrote the record first (the second's write, conditional on resourceVersion, answers 409).
LOST_RACE = re.compile(r"^Failed to start SCALE on VNF instance .* is (STARTING|PROCESSING): .*wait for it to end"
                       r"|^Failed to update Secret [a-z0-9-]+/vnflcm-[a-f0-9-]+: .*the object has been modified.*\(HTTP 409\)$")


@pytest.fixture
def fleet(k8s_lab, kube):
    """``({host: its variables}, bearer token)``: a namespace per host, and one ServiceAccount (in the first namespace)
    that is namespace admin in all of them; the namespaces are deleted afterwards."""
    hosts = fleet_hosts(HOSTS, "slices-" + uuid.uuid4().hex[:6])
    namespaces = [host["vnf_lifecycle_namespace"] for host in hosts.values()]
    try:
        create_namespaces(kube, namespaces, operator=(namespaces[0], OPERATOR))
        yield hosts, operator_token(kube, namespaces[0], OPERATOR)
    finally:
        for namespace in namespaces:
            kube.request("DELETE", "/api/v1/namespaces/" + namespace)


def launch_sliced(work, name, hosts, credential, operation, extravars):
    """A sliced job template launch: one ansible-runner job per slice, started side by side; ``[(slice hosts, Started)]``."""
    started = []
    for number, names in enumerate(awx_slices(hosts, SLICES)):
        driver = RunnerDriver(work / "{0}-slice{1}".format(name, number + 1), kubernetes_bearer_token, credential, extravars)
        (driver.root / "inventory" / "hosts").unlink()
        (driver.root / "inventory" / "hosts.yml").write_text(yaml.safe_dump(inventory({host: hosts[host] for host in names})))
        started.append((names, driver.start(operation, {"target": "fleet", "vnf_lifecycle_request": REQUESTS[operation]})))
    return started


def finish(operation, started):
    """``({host: [results of the operation's module task on it, one per job]}, the jobs' runs)``; each host ran in its slice only."""
    runs = [(names, job.finish(timeout=600)) for names, job in started]
    per_host = {}
    for names, run in runs:
        for event in run.events:
            data = event.get("event_data") or {}
            if event.get("event") in ("runner_on_ok", "runner_on_failed") and data.get("task", "").startswith(MODULE_TASKS[operation]):
                assert data.get("host") in names, "{0} ran in a slice that does not hold it ({1})".format(data.get("host"), names)
                per_host.setdefault(data["host"], []).append(dict(data.get("res") or {}, failed=event["event"] == "runner_on_failed"))
    return per_host, runs


def all_successful(runs):
    assert [run.status for _names, run in runs] == ["successful"] * len(runs), [run.stdout[-3000:] for _names, run in runs if run.status != "successful"]


def test_awx_slices_hosts_sorted_by_name_every_slice_count_th():
    assert awx_slices(["cnf-02", "cnf-00", "cnf-01", "cnf-03"], 3) == [["cnf-00", "cnf-03"], ["cnf-01"], ["cnf-02"]]


def test_a_sliced_fleet_ends_with_every_record_equal_to_its_instance(fleet, k8s_lab, kube, tacker_packages, tmp_path):
    hosts, token = fleet
    credential = bearer_token_inputs(k8s_lab.kubeconfig, token)
    common = {"vnf_lifecycle_wait_timeout": 300, "vnf_lifecycle_wait_sleep": 1}

    instantiated, runs = finish("instantiate", launch_sliced(tmp_path, "instantiate", hosts, credential, "instantiate",
                                                             dict(common, vnf_lifecycle_package=os.path.join(tacker_packages, "test_cnf_multi_ns"))))
    all_successful(runs)
    assert sorted(instantiated) == sorted(hosts) and all(len(results) == 1 for results in instantiated.values()), instantiated.keys()
    for host, variables in hosts.items():
        instance, _op_occs, differences = record_against_live(kube, variables["vnf_lifecycle_namespace"])
        assert differences == [], (host, differences)
        assert (instance["vnfInstanceName"], instance["id"]) == (variables["vnf_lifecycle_instance_name"], instantiated[host][0]["vnf_instance"]["id"])

    # The scale job template launched twice at once: two slice jobs act on every instance at the same time.
    scaled, _runs = finish("scale", launch_sliced(tmp_path, "scale-a", hosts, credential, "scale", common)
                           + launch_sliced(tmp_path, "scale-b", hosts, credential, "scale", common))
    for host, variables in hosts.items():
        results = scaled[host]
        assert len(results) == 2, (host, results)
        won = [result for result in results if not result["failed"]]
        assert won, (host, [result.get("msg") for result in results])
        for lost in (result for result in results if result["failed"]):
            assert LOST_RACE.search(lost.get("msg", "")), (host, lost.get("msg"))
        instance, op_occs, differences = record_against_live(kube, variables["vnf_lifecycle_namespace"])
        assert differences == [], (host, differences)
        completed = [occ for occ in op_occs if occ["operation"] == "SCALE" and occ["operationState"] == "COMPLETED"]
        level = next(item["scaleLevel"] for item in instance["instantiatedVnfInfo"]["scaleStatus"] if item["aspectId"] == ASPECT)
        assert len(completed) == level == len(won), (host, len(completed), level, len(won))

    terminated, runs = finish("terminate", launch_sliced(tmp_path, "terminate", hosts, credential, "terminate", common))
    all_successful(runs)
    for host, variables in hosts.items():
        assert terminated[host][0]["vnf_instance"]["instantiationState"] == "NOT_INSTANTIATED"
        namespace = variables["vnf_lifecycle_namespace"]
        deadline = time.monotonic() + 60
        # The record says NOT_INSTANTIATED, or is gone with the instance.
        while owned(kube, namespace) or record_against_live(kube, namespace)[2] not in ([], ["no record"]):
            assert time.monotonic() < deadline, (host, owned(kube, namespace), record_against_live(kube, namespace)[2])
            time.sleep(0.5)
