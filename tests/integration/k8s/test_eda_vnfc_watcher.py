# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The nfv.vnflcm.vnfc_watcher event source against the Kubernetes lab: a pod deleted by hand, or Failed, is one heal event naming
its VNFC; the pods a heal replaces itself are none."""

from __future__ import annotations

import asyncio
import os
import queue
import threading
import time

import pytest

from labk8s.kubeapi import Api

from ansible_collections.nfv.vnflcm.extensions.eda.plugins.event_source import vnfc_watcher
from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_faults import record
from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_packages import build_package, def_files, deployment

VNFD_ID = "5c0d0e1f-0000-4000-8000-00000000e0a1"
FILES = {"vdus.yaml": [deployment("vdu1", "app:1.0", replicas=2), deployment("vdu2", "app:1.0")]}


class RunningSource:
    """The source's main() on an event loop of its own thread; its events land in ``events`` (a queue.Queue)."""

    def __init__(self, args):
        self.events = queue.Queue()
        self.loop = asyncio.new_event_loop()
        self.task = None
        self.thread = threading.Thread(target=self._run, args=(args,), daemon=True)
        self.thread.start()

    def _run(self, args):
        asyncio.set_event_loop(self.loop)
        events = self.events

        class Forward:
            async def put(self, event):
                events.put(event)

        self.task = self.loop.create_task(vnfc_watcher.main(Forward(), args))
        try:
            self.loop.run_until_complete(self.task)
        except asyncio.CancelledError:
            pass

    def next_event(self, timeout):
        return self.events.get(timeout=timeout)

    def stop(self):
        self.loop.call_soon_threadsafe(self.task.cancel)
        self.thread.join(10)


@pytest.fixture
def cnf(ansible_task, k8s_lab, k8s_namespace, tacker_packages, tmp_path):
    package = build_package(os.path.join(tacker_packages, "test_cnf_multi_ns"), str(tmp_path / "pkg"), VNFD_ID, FILES)
    auth = {"kubeconfig": str(k8s_lab.kubeconfig), "wait_timeout": 120, "wait_sleep": 1}
    request = {"flavourId": "simple", "instantiationLevelId": "instantiation_level_1",
               "additionalParams": {"lcm-kubernetes-def-files": def_files(FILES), "namespace": k8s_namespace}}
    done = ansible_task("vnf_instantiate", dict(auth, package=package, vnf_instance_name="watched", request=request))
    assert done.get("failed") is not True, done.get("msg")
    return dict(auth, namespace=k8s_namespace, vnf_instance_id=done["vnf_instance"]["id"])


def test_a_pod_deleted_by_hand_is_one_heal_event_and_the_heal_itself_none(ansible_task, k8s_lab, cnf):
    kube = Api(k8s_lab.kubeconfig)
    namespace = cnf["namespace"]
    instance = record(kube, namespace)[0]
    resources = {item["id"]: item for item in instance["instantiatedVnfInfo"]["vnfcResourceInfo"]}
    vnfcs = instance["instantiatedVnfInfo"]["vnfcInfo"]
    assert len(vnfcs) >= 2
    victim = vnfcs[0]
    pod_name = resources[victim["vnfcResourceInfoId"]]["computeResource"]["resourceId"]
    source = RunningSource({"namespace": namespace, "kubeconfig": str(k8s_lab.kubeconfig), "heal_window": 1, "grace_period": 30})
    try:
        time.sleep(2)  # nothing to report while every pod is Ready
        assert source.events.empty()
        started = time.monotonic()
        kube.call("DELETE", "/api/v1/namespaces/{0}/pods/{1}".format(namespace, pod_name))
        event = source.next_event(timeout=30)["nfv_vnflcm"]
        took = time.monotonic() - started
        assert (event["function_type"], event["vnf_instance_id"], event["vnfc_info_ids"], event["source"]) == (
            "auto_heal", instance["id"], [victim["id"]], "watcher"), event
        assert event["alerts"][0]["labels"]["pod"] == pod_name and event["alerts"][0]["labels"]["reason"] == "deleted"
        print("pod deleted -> event in {0:.1f} s".format(took))
        # What the rulebook's playbook does next: heal every VNFC; the pods it replaces are no fault.
        healed = ansible_task("vnf_heal", dict(cnf, request={"vnfcInstanceId": [item["id"] for item in vnfcs]}))
        assert healed.get("failed") is not True, healed.get("msg")
        # Every VNFC is new (a VNFC's id follows its pod): the watcher follows the record's new pods.
        assert not {item["id"] for item in healed["vnf_instance"]["instantiatedVnfInfo"]["vnfcInfo"]} & {item["id"] for item in vnfcs}
        time.sleep(3)
        assert source.events.empty(), source.events.get()
    finally:
        source.stop()


def test_a_failed_pod_is_one_heal_event(k8s_lab, cnf):
    kube = Api(k8s_lab.kubeconfig)
    namespace = cnf["namespace"]
    instance = record(kube, namespace)[0]
    resources = {item["id"]: item for item in instance["instantiatedVnfInfo"]["vnfcResourceInfo"]}
    victim = instance["instantiatedVnfInfo"]["vnfcInfo"][-1]
    pod_name = resources[victim["vnfcResourceInfoId"]]["computeResource"]["resourceId"]
    source = RunningSource({"namespace": namespace, "kubeconfig": str(k8s_lab.kubeconfig), "heal_window": 1, "grace_period": 30})
    try:
        time.sleep(2)
        assert source.events.empty()
        # What the kubelet reports of a pod whose containers exited for good.
        path = "/api/v1/namespaces/{0}/pods/{1}/status".format(namespace, pod_name)
        status, answer, _headers = kube.request("PATCH", path, {"status": {"phase": "Failed", "reason": "Evicted"}},
                                                headers={"Content-Type": "application/merge-patch+json"})
        assert status == 200, answer
        event = source.next_event(timeout=30)["nfv_vnflcm"]
        assert (event["vnf_instance_id"], event["vnfc_info_ids"], event["alerts"][0]["labels"]["reason"]) == (instance["id"], [victim["id"]], "ended")
        time.sleep(2)
        assert source.events.empty(), source.events.get()
    finally:
        source.stop()
