# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tier 2: crash consistency at sampled writes on Heat: a module SIGKILLed right after its k-th write to Heat's API
(heat_crash_sweep.py), then the documented recovery (retry, rollback or fail) and the invariants. Within the suite's time, no run is counted:
the cases below name the write held (the (k+1)-th), which says the sample still hits the moment it was picked for,
and share one instance (a rollback or a heal leaves it where the next operation starts). The full sweep (every k,
both branches, change of package included) is benchmarks/heat_crash_sweep.py.
"""

from __future__ import annotations

import uuid

import pytest

from ansible_collections.nfv.vnflcm.tests.integration.crash_sweep import kill_when_held
from ansible_collections.nfv.vnflcm.tests.integration.faults import wait_for
from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_crash_sweep import HeatSweep
from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import CLOUD, stacks_of_instance
from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_write_gate import HeatWriteGate, write_kind

pytestmark = pytest.mark.tier2

# (operation, k, branch, the write held). The writes of each (benchmarks/heat_crash_sweep.py lists them):
#   scale, change_ext_conn: record PROCESSING, update, record COMPLETED
#   heal: record PROCESSING, mark the VNFC's server unhealthy, update, record COMPLETED
#   instantiate: claim the name, create the stack, record PROCESSING, unclaim, record COMPLETED
#   change_pkg (2 VNFCs): record PROCESSING, the change's data, then per VNFC an update and its record, ...
CASES = [
    ("scale", 2, "rollback", "record"),            # the stack updated, its end not recorded
    ("heal", 2, "retry", "update"),                # between the mark and the update that replaces the server
    ("change_ext_conn", 2, "rollback", "record"),  # the ports moved, the end not recorded
    # Found by the sweep, both an instantiate killed before its record (recovered by a re-run). Between the claim of
    # its name and its stack's create: the re-run was refused for the claim's 5 min grace; the claim names its runner
    # now, which is gone, and the re-run takes it over at once.
    ("instantiate", 1, "retry", "create"),
    # Between its stack's create and its record: the re-run left that stack, still creating, as one that waits for
    # its record, and made a second one; the stack's tags name its runner now, and the re-run deletes it as an orphan.
    ("instantiate", 2, "retry", "record"),
    # Killed between its record's first write and the claim's delete: the retry completed, the claim stayed for good;
    # the run that resumes an instantiate deletes it now.
    ("instantiate", 3, "retry", "unclaim"),
    # A change of package killed between its op occ and the change's data, its first two record writes: its retry and
    # rollback refused ("the record keeps no data of this change"), leaving only fail. Now the rollback ends the op occ
    # (the stack was not written) and the retry plans the change again from its request and the package.
    ("change_pkg", 1, "rollback", "record"),
    ("change_pkg", 1, "retry", "record"),
    # fail ends an operation where the kill stopped it, after the stack update its op occ covers (a scale's new server,
    # a heal's replaced one): the record is read again from the stack, so it names the servers that run and the level
    # they stand at (it kept the old ones).
    ("scale", 2, "fail", "record"),
    ("heal", 3, "fail", "record"),
]


@pytest.fixture(scope="module")
def sweep(lab, admin_conn, packages, created):
    shared = HeatSweep(admin_conn, None, packages, str(lab.clouds_yaml), created)
    shared.share = True
    return shared


@pytest.mark.parametrize("operation,k,branch,held", CASES, ids=["{0}-k{1}-{2}".format(*case) for case in CASES])
def test_a_kill_after_the_kth_write_to_heat_is_recovered(sweep, ansible_task, operation, k, branch, held):
    sweep.run = ansible_task
    case = sweep.case(operation, k, branch)
    assert not case.skipped and [write_kind(write) for write in case.held] == [held], case.held
    assert case.passed, "{0}; held {1}: {2}".format(case.left, case.held, case.problems)


def test_a_heal_of_a_server_in_error_killed_after_the_servers_delete_is_retried(sweep, ansible_task, admin_conn):
    """A heal deletes a VNFC's server in ERROR before the stack update (Nova does not detach its ports for Heat's
    replacement): killed after that delete, at the update, the retry marks and updates again and the VNFC gets a new
    server, as after any heal."""
    sweep.run = ansible_task

    def in_error(operation, name):
        info = sweep.instance(name)[0]["instantiatedVnfInfo"]
        vnfc = [item for item in info["vnfcInfo"] if item["vduId"] == "VDU1"][0]
        server = [item for item in info["vnfcResourceInfo"] if item["id"] == vnfc["vnfcResourceInfoId"]][0]["computeResource"]["resourceId"]
        admin_conn.compute.reset_server_state(server, "error")

    sweep.prepare = in_error
    try:
        case = sweep.case("heal", 2, "retry")
    finally:
        sweep.prepare = None
    assert not case.skipped and [write_kind(write) for write in case.held] == ["update"], case.held
    assert case.passed, "{0}; held {1}: {2}".format(case.left, case.held, case.problems)


def test_an_instantiate_killed_after_its_name_claim_leaves_a_claim_that_delete_or_terminate_by_name_removes(sweep, ansible_task):
    """Killed between its name's claim and its stack's create, an instantiate leaves a claim stack and no record: vnf_info
    by name shows it (its run gone), and vnf_delete or vnf_terminate by name delete it, for an operator who gives the
    name up rather than re-running the instantiate."""
    sweep.run = ansible_task
    name = "vnf-claimed-" + uuid.uuid4().hex[:6]
    by_name = {"vnf_instance_name": name, "cloud": CLOUD, "wait_timeout": 120}

    def killed_after_its_claim():
        with HeatWriteGate(sweep.endpoint, hold_after=1) as gate:
            task = ansible_task("vnf_instantiate", sweep.gated_args(sweep.instantiate_args(name), gate), background=True)
            assert kill_when_held(task, gate, "vnf_instantiate") and [write_kind(write) for write in gate.denied] == ["create"], gate.writes
        assert sweep.claims(name) == 1 and stacks_of_instance(sweep.conn, name) == []

    try:
        killed_after_its_claim()
        shown = ansible_task("vnf_info", by_name)
        assert shown["vnf_instances"] == [] and shown["name_claim"]["status"] == "runner gone", shown
        checked = ansible_task("vnf_delete", by_name, check=True)
        assert checked.get("failed") is not True and checked["changed"] is True and checked["deleted"] == [], checked.get("msg")
        assert sweep.claims(name) == 1
        deleted = ansible_task("vnf_delete", by_name)
        assert deleted.get("failed") is not True and deleted["changed"] is True, deleted.get("msg")
        assert [item["kind"] for item in deleted["deleted"]] == ["OS::Heat::Stack"] and deleted["vnf_instance"] is None
        wait_for(lambda: sweep.claims(name) == 0, "the claim stack to go", timeout=60, sleep=2)
        again = ansible_task("vnf_delete", by_name)
        assert again.get("failed") is not True and again["changed"] is False, again.get("msg")

        killed_after_its_claim()
        terminated = ansible_task("vnf_terminate", by_name)
        assert terminated.get("failed") is not True and terminated["changed"] is True, terminated.get("msg")
        assert terminated["name_claim"]["vnfInstanceName"] == name
        wait_for(lambda: sweep.claims(name) == 0, "the claim stack to go", timeout=60, sleep=2)
    finally:
        sweep.note_created(name)
