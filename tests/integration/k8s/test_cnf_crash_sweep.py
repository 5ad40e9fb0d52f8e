# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Crash consistency at sampled writes: each operation's module SIGKILLed right after its k-th write to the Kubernetes
API (crash_sweep.py), then the documented recovery and the invariants. Within the suite's time: per operation the
last of its sampled writes (k = N - 1: all its writes but the record of its end, or the one after its rollback data
where N - 1 is a regression case below), with the rollback where it has one; and the cases the sweep found. The full
sweep (every k, both branches) is benchmarks/cnf_crash_sweep.py.
"""

from __future__ import annotations

import os

import pytest

from labk8s.kubeapi import Api

from ansible_collections.nfv.vnflcm.tests.integration.k8s.crash_sweep import OPERATIONS, ROLLBACK, Sweep, new_namespace_maker, packages


@pytest.fixture(scope="module")
def sweep(k8s_lab, admin, tacker_packages, tmp_path_factory):
    """One sweep for the file: the packages and each operation's counted run are shared; namespaces deleted at the end."""
    make, made = new_namespace_maker(admin, "crash")
    folder = tmp_path_factory.mktemp("crash")
    built = packages(os.path.join(tacker_packages, "test_cnf_multi_ns"), folder)
    shared = Sweep(admin, None, str(k8s_lab.kubeconfig), built, folder, make)
    shared.share = True
    yield shared
    for name in made:
        admin.request("DELETE", "/api/v1/namespaces/{0}".format(name))


@pytest.fixture(scope="module")
def admin(k8s_lab):
    return Api(k8s_lab.kubeconfig)


# Failures the sweep found, each a regression case below: (operation, branch) -> which k.
# "last" is k = N - 1: the rollback data was deleted (write N - 1) before the op occ's completion was recorded (write
# N); killed in between, the op occ was left PROCESSING without it, and its rollback ended ROLLED_BACK with the new
# objects still deployed. Now the end is recorded first, and k = N - 1 is the kill between it and the deletion.
# "first" is k = 1, an instantiate killed between the claim of its name and its record: its re-run was refused for the
# claim's 60 s grace; now the claim names its runner, which is gone, and the re-run takes it over at once.
FOUND = {("container_update", "rollback"): "last", ("change_pkg", "rollback"): "last", ("instantiate", "retry"): "first"}


def found_k(sweep, operation, branch):
    which = FOUND.get((operation, branch))
    return len(sweep.count(operation)["writes"]) - 1 if which == "last" else 1 if which == "first" else None


@pytest.mark.parametrize("operation", OPERATIONS)
def test_a_kill_at_sampled_writes_is_recovered(sweep, ansible_task, operation):
    sweep.run = ansible_task
    branch = "rollback" if operation in ROLLBACK else "retry"
    ks = [k for k in sweep.sampled_ks(operation) if k != found_k(sweep, operation, branch)][-1:]
    failures = []
    for k in ks:
        # Rollback where the operation has one (it must give back the state before), else the retry.
        case = sweep.case(operation, k, "rollback" if operation in ROLLBACK else "retry")
        print("{0} k={1} {2}: {3} {4:.1f}s held {5}".format(operation, k, case.branch, "pass" if case.passed else "FAIL", case.seconds, case.held))
        if not case.passed:
            failures.append("k={0} ({1}; held {2}): {3}".format(k, case.left, case.held, case.problems))
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("operation,branch", sorted(FOUND))
def test_a_failure_the_sweep_found(sweep, ansible_task, operation, branch):
    sweep.run = ansible_task
    case = sweep.case(operation, found_k(sweep, operation, branch), branch)
    assert case.passed, "{0}: {1}".format(case.left, case.problems)


# fail ends an operation where the kill stopped it, right after its first write to what the VNF runs (a heal's pod
# delete, a scale's replicas patch, a container update's first object): the record is read again, so it equals the live
# objects (it kept naming the deleted pod: the sweep's finding).
@pytest.mark.parametrize("operation", ("heal", "scale", "container_update"))
def test_a_kill_after_the_first_vim_write_then_fail_leaves_the_record_as_the_cluster_is(sweep, ansible_task, operation):
    sweep.run = ansible_task
    case = sweep.case(operation, sweep.first_vim_write_k(operation), "fail")
    assert case.passed, "{0}: {1}".format(case.left, case.problems)
