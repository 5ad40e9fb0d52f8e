# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tier 2: crash consistency at sampled writes on Heat: each operation's module SIGKILLed right after its k-th write
to Heat's API (heat_crash_sweep.py), then the documented recovery and the invariants. Within the suite's time: one k
per operation (PICKED), with the rollback where it has one; the instances are shared (what a rollback or a heal
leaves is where the next operation starts). The full sweep (every k, both branches) is benchmarks/heat_crash_sweep.py.
"""

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_crash_sweep import OPERATIONS, ROLLBACK, HeatSweep

pytestmark = pytest.mark.tier2


@pytest.fixture(scope="module")
def sweep(lab, admin_conn, packages, created):
    shared = HeatSweep(admin_conn, None, packages, str(lab.clouds_yaml), created)
    shared.share = True
    return shared


@pytest.mark.parametrize("operation", OPERATIONS)
def test_a_kill_at_sampled_writes_is_recovered(sweep, ansible_task, operation):
    sweep.run = ansible_task
    writes = sweep.count(operation)["writes"]
    print(operation, "N =", len(writes), writes, "sampled", sweep.sampled_ks(operation))
    branch = "rollback" if operation in ROLLBACK else "retry"
    k = sweep.sampled_ks(operation)[-1]
    case = sweep.case(operation, k, branch)
    print("{0} k={1} {2}: {3} {4:.1f}s held {5}".format(operation, k, branch, "pass" if case.passed else "FAIL", case.seconds, case.held))
    assert case.passed, "k={0} ({1}; held {2}): {3}".format(k, case.left, case.held, case.problems)
