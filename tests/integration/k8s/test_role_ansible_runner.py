# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A job cancelled mid-operation, as AWX cancels one, and recovered with the op_occ playbook.

An instantiate is held at a known point (a quota of no pods: its objects are written, it waits for pods) while
its op occ is PROCESSING, then its job is cancelled: SIGINT to the job's process group, SIGTERM after a grace
period. Through ansible-runner (AWX's job), the runner answers SIGINT by killing ansible-playbook's process group
and the job's execution environment container with everything in it: the module is killed without a word, the op
occ stays PROCESSING with its runner gone, and the op_occ job takes it over. Through ansible-playbook (Ctrl-C in
a terminal), ansible-playbook passes the interrupt on to the module, which records FAILED_TEMP before it exits."""

from __future__ import annotations

import os
import re

from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_faults import block_pods, head, owned, running_op_occ, unblock_pods, wait_for
from ansible_collections.nfv.vnflcm.tests.integration.playbook_runs import (
    PlaybookDriver,
    RunnerDriver,
    bearer_token_inputs,
    cancel_like_awx,
    expect,
    kubernetes_bearer_token,
)

INSTANCE = "cancelled-cnf"


def job(namespace, package):
    record = {"vnf_lifecycle_instance_name": INSTANCE, "vnf_lifecycle_namespace": namespace, "vnf_lifecycle_wait_timeout": 600}
    instantiate = dict(record, vnf_lifecycle_package=package, vnf_lifecycle_request={
        "flavourId": "simple", "additionalParams": {"namespace": namespace, "lcm-kubernetes-def-files": ["Files/kubernetes/deployment_no_namespace.yaml"]}})
    return record, instantiate


def cancelled_instantiate(driver, kube, namespace, instantiate):
    """An instantiate job held waiting for pods, cancelled as AWX cancels a job: ``(its run, its op occ when cancelled)``."""
    block_pods(kube, namespace)
    started = driver.start("instantiate", instantiate)
    try:
        occ = running_op_occ(kube, namespace, also=lambda: owned(kube, namespace).get("deployments"))
    finally:
        cancel_like_awx(started)
    return started.finish(timeout=60), occ


def test_a_cancelled_awx_job_is_rolled_back_by_the_op_occ_job(k8s_lab, kube, k8s_tenant, tacker_packages, tmp_path):
    ns = k8s_tenant.namespace
    driver = RunnerDriver(tmp_path, kubernetes_bearer_token, bearer_token_inputs(k8s_lab.kubeconfig, k8s_tenant.token))
    record, instantiate = job(ns, os.path.join(tacker_packages, "test_cnf_multi_ns"))
    run, occ = cancelled_instantiate(driver, kube, ns, instantiate)
    assert run.status == "canceled", run.stdout[-3000:]

    # Its module process was killed without a word: the record says PROCESSING, and the info job tells who ran it.
    left = head(kube, ns)
    assert (left["id"], left["operationState"]) == (occ["id"], "PROCESSING"), left
    # The kernel may take a moment to reap it.
    wait_for(lambda: not os.path.exists("/proc/{0}".format(left["lease"]["pid"])), "the killed module process to be gone", timeout=30, sleep=0.2)
    shown = expect(driver.run("info", record)).result("Read the VNF instances")["vnf_lcm_op_occs"][0]
    assert shown["id"] == occ["id"] and shown["lease"]["status"] == "runner gone", shown

    rolled = expect(driver.run("op_occ", dict(record, vnf_lifecycle_op_occ_action="rollback"))).result("Rollback the operation occurrence")
    assert (rolled["vnf_lcm_op_occ"]["id"], rolled["vnf_lcm_op_occ"]["operationState"]) == (occ["id"], "ROLLED_BACK"), rolled.get("msg")
    wait_for(lambda: owned(kube, ns) == {}, "nothing labelled left after the rollback", timeout=60, sleep=0.5)
    assert rolled["vnf_instance"]["instantiationState"] == "NOT_INSTANTIATED"
    assert driver.leaks({"ServiceAccount token": k8s_tenant.token}) == []


def test_an_interrupted_playbook_is_retried_to_completion_by_the_op_occ_playbook(kube, k8s_tenant, tacker_packages, tmp_path):
    ns = k8s_tenant.namespace
    driver = PlaybookDriver(tmp_path, {"kubeconfig": str(k8s_tenant.kubeconfig)})
    package = os.path.join(tacker_packages, "test_cnf_multi_ns")
    record, instantiate = job(ns, package)
    run, occ = cancelled_instantiate(driver, kube, ns, instantiate)
    assert run.status != "successful"
    # The module runs in a session of its own: ansible-playbook may end before the module has recorded the interrupt
    # (a loaded machine), so its end is waited for before the record is read.
    pid = (head(kube, ns).get("lease") or {}).get("pid")
    wait_for(lambda: not pid or not os.path.exists("/proc/{0}".format(pid)), "the interrupted module process to end", timeout=30, sleep=0.2)
    stopped = head(kube, ns)
    assert (stopped["id"], stopped["operationState"]) == (occ["id"], "FAILED_TEMP"), stopped
    # ansible-playbook passes the interrupt on to its workers (as SIGINT, or SIGTERM when it stops them).
    assert re.search(r"interrupted: received SIG(INT|TERM) \(during: ", stopped["error"]["detail"]), stopped["error"]

    unblock_pods(kube, ns)
    retried = expect(driver.run("op_occ", dict(record, vnf_lifecycle_op_occ_action="retry", vnf_lifecycle_package=package)))
    retried = retried.result("Retry the operation occurrence")
    assert (retried["vnf_lcm_op_occ"]["id"], retried["vnf_lcm_op_occ"]["operationState"]) == (occ["id"], "COMPLETED"), retried.get("msg")
    assert retried["vnf_instance"]["instantiationState"] == "INSTANTIATED" and owned(kube, ns)["deployments"] == ["vdu2"]

    gone = expect(driver.run("terminate", dict(record, vnf_lifecycle_request={"terminationType": "FORCEFUL"})))
    assert gone.result("Terminate the VNF instance")["changed"] is True
    wait_for(lambda: owned(kube, ns) == {}, "nothing labelled left", timeout=60, sleep=0.5)
