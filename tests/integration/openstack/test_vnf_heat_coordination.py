# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tier 2: a change of package whose coordination scripts are each in their own package, as Tacker reads them.

Two copies of Tacker's userdata_standard, each under a vnfdId of its own: the old one carries only
``Scripts/coordinate_old_vnf.py``, the new one (VDU2 on m1.small) only ``Scripts/coordinate_new_vnf.py``. One VNF
instance of the old package, in order: the change is refused without ``current_package`` and with a package that is
not the instance's (nothing written); with it, a new-VNF script that fails leaves the change FAILED_TEMP and the
rollback, in a later call given no package, runs the old package's script; a rollback whose old-VNF script fails too
is done with ``skip_coordination``; a change killed while its new-VNF script runs is rolled back with the old package's
script; then the change completes.

Then Tacker's AutoScalingGroup form (basic_lcms_min): the plain server VDU2's script is given the address of VDU2_CP1,
a port of the top stack, and a cp_name VDU2 has not is refused before any write; a change killed in VDU2's script is
rolled back.
"""

from __future__ import annotations

import json
import os
import uuid

import pytest

from ansible_collections.nfv.vnflcm.tests.integration.faults import wait_for
from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import (
    CLOUD,
    OLD,
    REQUEST,
    change,
    heat_writes,
    info_of,
    instantiate,
    kill_when,
    op_occ,
    record_of,
    repackaged,
    servers,
    stack_of,
    vnfd_id,
)

pytestmark = pytest.mark.tier2

OLD_SCRIPT, NEW_SCRIPT = "./Scripts/coordinate_old_vnf.py", "./Scripts/coordinate_new_vnf.py"


class Pair:
    name = "vnf-crd-" + uuid.uuid4().hex[:6]
    before = None
    stack_before = None


def script(log, fault=None, hold=None):
    """A coordination script that logs its input and its own name; it fails while ``fault`` exists, and holds while
    ``hold`` exists (after creating ``<hold>.reached``)."""
    text = ("import json\nimport os\nimport pickle\nimport sys\nimport time\n\ngiven = pickle.load(sys.stdin.buffer)\n"
            "with open({0!r}, 'a') as log:\n    log.write(json.dumps({{'input': given, 'script': os.path.basename(__file__)}}) + '\\n')\n").format(str(log))
    if hold:
        text += ("if os.path.exists({0!r}):\n    open({0!r} + '.reached', 'w').close()\n    deadline = time.monotonic() + 300\n"
                 "    while os.path.exists({0!r}) and time.monotonic() < deadline:\n        time.sleep(0.2)\n").format(str(hold))
    if fault:
        text += "if os.path.exists({0!r}):\n    sys.stderr.write('coordination refused')\n    sys.exit(1)\n".format(str(fault))
    return text


@pytest.fixture(scope="module")
def pair(tacker_packages, tmp_path_factory):
    """``(old package, new package, calls log, work directory)``: each script fails while ``old.fault`` / ``new.fault`` is there;
    the new one holds while ``new.hold`` is."""
    work = tmp_path_factory.mktemp("coordination")
    log = work / "calls.jsonl"
    old = repackaged(os.path.join(tacker_packages, OLD), work / "old_with_old_script")
    (old / "Scripts").mkdir(exist_ok=True)
    (old / "Scripts" / "coordinate_old_vnf.py").write_text(script(log, work / "old.fault"))
    new = repackaged(os.path.join(tacker_packages, OLD), work / "new_with_new_script")
    (new / "Scripts").mkdir(exist_ok=True)
    (new / "Scripts" / "coordinate_new_vnf.py").write_text(script(log, work / "new.fault", work / "new.hold"))
    # The VNFD's interface script, which the same opt-in runs (it does nothing here).
    (new / "Scripts" / "sample_script.py").write_text("import pickle\nimport sys\n\npickle.load(sys.stdin.buffer)\n")
    # VDU2 on m1.small: one resize, the cheapest change the new package can bring.
    df = new / "Definitions" / "v2_sample3_df_simple.yaml"
    head, vdu2 = df.read_text().split("    VDU2:\n", 1)
    df.write_text(head + "    VDU2:\n" + vdu2.replace("requested_additional_capability_name: m1.tiny", "requested_additional_capability_name: m1.small", 1))
    assert not (old / "Scripts" / "coordinate_new_vnf.py").exists() and not (new / "Scripts" / "coordinate_old_vnf.py").exists()
    return str(old), str(new), log, work


def request(new):
    param = {"cp_name": "VDU2_CP1", "username": "ubuntu", "password": "ubuntu"}
    return {"vnfdId": vnfd_id(new), "additionalParams": {
        "upgrade_type": "RollingUpdate", "lcm-operation-coordinate-new-vnf": NEW_SCRIPT, "lcm-operation-coordinate-old-vnf": OLD_SCRIPT,
        "vdu_params": [{"vdu_id": "VDU2", "old_vnfc_param": dict(param), "new_vnfc_param": dict(param)}]}}


def calls(log):
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def vdu2_address(admin_conn, info):
    """VDU2_CP1's fixed IP (on net0): what Tacker gives a script as ssh_ip for that CP."""
    net0 = admin_conn.network.find_network("net0").id
    ports = list(admin_conn.network.ports(device_id=servers(info)["VDU2"], network_id=net0))
    return ports[0].fixed_ips[0]["ip_address"]


def test_without_the_current_package_a_pair_with_a_script_each_is_refused_and_nothing_written(lab, admin_conn, ansible_task, created, pair):
    old, new, log, _work = pair
    result = instantiate(ansible_task, old, Pair.name, REQUEST)
    assert not result.get("failed"), result.get("msg")
    info = info_of(result)
    created.append(info["metadata"]["stack_name"])
    Pair.before, Pair.stack_before = result, stack_of(admin_conn, info)
    stack_name = info["metadata"]["stack_name"]
    writes, record = len(heat_writes(lab, stack_name)), record_of(admin_conn, stack_name)

    refused = change(ansible_task, new, Pair.name, request(new), args={"allow_package_scripts": True})
    assert refused.get("failed"), refused
    assert "additionalParams.lcm-operation-coordinate-old-vnf: cannot read the script" in refused["msg"], refused["msg"]
    assert "give the current package as the module option current_package" in refused["msg"], refused["msg"]
    # Not the instance's package: refused by its vnfdId, naming the option.
    wrong = change(ansible_task, new, Pair.name, request(new), args={"allow_package_scripts": True, "current_package": new})
    assert wrong.get("failed") and "current_package: its VNFD is {0}, not the instance's current one {1}".format(
        vnfd_id(new), vnfd_id(old)) in wrong["msg"], wrong.get("msg")
    # Nothing written: no Heat write, the same record (no op occ), the same stack; no script ran.
    assert len(heat_writes(lab, stack_name)) == writes
    assert record_of(admin_conn, stack_name) == record
    assert stack_of(admin_conn, info) == Pair.stack_before and calls(log) == []


def test_the_rollback_runs_the_current_packages_script_without_any_package(lab, admin_conn, ansible_task, pair):
    old, new, log, work = pair
    before = info_of(Pair.before)
    fault = work / "new.fault"
    fault.write_text("on")
    failed = change(ansible_task, new, Pair.name, request(new), args={"allow_package_scripts": True, "current_package": old})
    fault.unlink()
    assert failed.get("failed") and failed["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP", failed.get("msg")
    assert "coordination hook ./Scripts/coordinate_new_vnf.py for VNFC VDU2-0: exit code 1: coordination refused" in failed["msg"]
    assert "skip_coordination: true" in failed["msg"]
    assert admin_conn.compute.get_server(servers(before)["VDU2"]).flavor["original_name"] == "m1.small"

    # No package, no option: the record keeps the old package's script and the opt-in it was read under.
    rolled = op_occ(ansible_task, Pair.name, "rollback")
    assert not rolled.get("failed"), rolled.get("msg")
    assert rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK"
    assert stack_of(admin_conn, before) == Pair.stack_before
    assert admin_conn.compute.get_server(servers(before)["VDU2"]).flavor["original_name"] == "m1.tiny"
    address = vdu2_address(admin_conn, before)
    assert [(call["script"], call["input"]["is_rollback"], call["input"]["ssh_ip"]) for call in calls(log)] == [
        ("coordinate_new_vnf.py", False, address), ("coordinate_old_vnf.py", True, address)]


def test_a_rollback_whose_old_vnf_script_fails_is_done_with_skip_coordination(lab, admin_conn, ansible_task, pair):
    old, new, log, work = pair
    before = info_of(Pair.before)
    (work / "new.fault").write_text("on")
    (work / "old.fault").write_text("on")
    seen = len(calls(log))
    try:
        failed = change(ansible_task, new, Pair.name, request(new), args={"allow_package_scripts": True, "current_package": old})
        assert failed.get("failed") and failed["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP", failed.get("msg")
        stuck = op_occ(ansible_task, Pair.name, "rollback")
        assert stuck.get("failed") and stuck["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP", stuck.get("msg")
        assert "coordination hook ./Scripts/coordinate_old_vnf.py for VNFC VDU2-0: exit code 1" in stuck["msg"], stuck["msg"]
        assert "add skip_coordination: true to roll back without running the coordination hooks" in stuck["msg"]
        rolled = ansible_task("vnf_lcm_op_occ", {"vnf_instance_name": Pair.name, "cloud": CLOUD, "action": "rollback",
                                                 "skip_coordination": True, "wait_timeout": 600})
    finally:
        (work / "new.fault").unlink()
        (work / "old.fault").unlink()
    assert not rolled.get("failed") and rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK", rolled.get("msg")
    assert "coordination hook ./Scripts/coordinate_old_vnf.py not run (skip_coordination: true)" in rolled["plan"]["lines"]
    assert stack_of(admin_conn, before) == Pair.stack_before
    assert admin_conn.compute.get_server(servers(before)["VDU2"]).flavor["original_name"] == "m1.tiny"
    # The new script failed once, the old one once (the stuck rollback); the last rollback ran none.
    assert [(call["script"], call["input"]["is_rollback"]) for call in calls(log)[seen:]] == [
        ("coordinate_new_vnf.py", False), ("coordinate_old_vnf.py", True)]


def test_a_change_killed_in_its_new_vnf_script_is_rolled_back_with_the_current_packages_script(lab, admin_conn, ansible_task, pair):
    old, new, log, work = pair
    before = info_of(Pair.before)
    seen = len(calls(log))
    hold, reached = work / "new.hold", work / "new.hold.reached"
    hold.write_text("on")
    task = change(ansible_task, new, Pair.name, request(new), args={"allow_package_scripts": True, "current_package": old}, background=True)
    try:
        wait_for(reached.exists, "the new-VNF script to hold", timeout=600, sleep=0.2)
        killed = kill_when(admin_conn, before["metadata"]["stack_name"], lambda instance: True)
        task.wait()
    finally:
        hold.unlink()
        reached.unlink(missing_ok=True)
    # Killed after VDU2's update, in its hook: the rollback (no package, no option) walks VDU2 back and runs the old
    # package's script, kept in the record.
    assert admin_conn.compute.get_server(servers(before)["VDU2"]).flavor["original_name"] == "m1.small"
    rolled = op_occ(ansible_task, Pair.name, "rollback")
    assert not rolled.get("failed"), rolled.get("msg")
    assert rolled["vnf_lcm_op_occ"]["id"] == killed["id"] and rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK"
    assert stack_of(admin_conn, before) == Pair.stack_before
    assert admin_conn.compute.get_server(servers(before)["VDU2"]).flavor["original_name"] == "m1.tiny"
    assert rolled["vnf_instance"]["vnfdId"] == vnfd_id(old)
    assert [(call["script"], call["input"]["is_rollback"]) for call in calls(log)[seen:]] == [
        ("coordinate_new_vnf.py", False), ("coordinate_old_vnf.py", True)]


def test_with_the_current_package_the_change_completes(lab, admin_conn, ansible_task, pair):
    old, new, log, _work = pair
    seen = len(calls(log))
    done = change(ansible_task, new, Pair.name, request(new), args={"allow_package_scripts": True, "current_package": old})
    assert not done.get("failed"), done.get("msg")
    assert done["vnf_lcm_op_occ"]["operationState"] == "COMPLETED" and done["vnf_instance"]["vnfdId"] == vnfd_id(new)
    info = info_of(done)
    assert servers(info) == servers(info_of(Pair.before))
    assert admin_conn.compute.get_server(servers(info)["VDU2"]).flavor["original_name"] == "m1.small"
    assert [(call["script"], call["input"]["is_rollback"]) for call in calls(log)[seen:]] == [("coordinate_new_vnf.py", False)]
    # The same task again (its current_package now the one before): nothing to do, nothing written, no script run.
    stack_name, seen = info["metadata"]["stack_name"], len(calls(log))
    writes = len(heat_writes(lab, stack_name))
    again = change(ansible_task, new, Pair.name, request(new), args={"allow_package_scripts": True, "current_package": old})
    assert not again.get("failed") and again["changed"] is False, again.get("msg")
    assert len(heat_writes(lab, stack_name)) == writes and len(calls(log)) == seen


# ---------------------------------------------------------------------------------------------
# Tacker's AutoScalingGroup form (basic_lcms_min): VDU2 is a plain server whose VDU2_CP1 is a port of the top stack

@pytest.fixture(scope="module")
def asg_pair(tacker_packages, tmp_path_factory):
    """``(new package, calls log, work directory)``: basic_lcms_min under a vnfdId of its own, VDU2 on m1.small, with a
    coordination script that holds while ``new.hold`` is there."""
    work = tmp_path_factory.mktemp("asg-coordination")
    log = work / "calls.jsonl"
    new = repackaged(os.path.join(tacker_packages, "basic_lcms_min"), work / "basic_lcms_min_vdu2_small")
    (new / "Scripts").mkdir(exist_ok=True)
    (new / "Scripts" / "coordinate_new_vnf.py").write_text(script(log, hold=work / "new.hold"))
    (new / "Scripts" / "sample_script.py").write_text("import pickle\nimport sys\n\npickle.load(sys.stdin.buffer)\n")
    df = new / "Definitions" / "v2_sample2_df_simple.yaml"
    head, vdu2 = df.read_text().split("    VDU2:\n", 1)
    df.write_text(head + "    VDU2:\n" + vdu2.replace("requested_additional_capability_name: m1.tiny", "requested_additional_capability_name: m1.small", 1))
    return str(new), log, work


def test_a_plain_servers_top_level_port_gives_the_script_its_address_on_the_autoscalinggroup_form(
        lab, admin_conn, ansible_task, tacker_packages, created, asg_pair):
    new, log, work = asg_pair
    name = "vnf-crda-" + uuid.uuid4().hex[:6]
    done = instantiate(ansible_task, os.path.join(tacker_packages, "basic_lcms_min"), name,
                       {"flavourId": "simple", "instantiationLevelId": "instantiation_level_1"})
    assert not done.get("failed"), done.get("msg")
    info = info_of(done)
    stack_name = info["metadata"]["stack_name"]
    created.append(stack_name)
    vdu2 = servers(info)["VDU2"]
    params = {"upgrade_type": "RollingUpdate", "lcm-operation-coordinate-new-vnf": NEW_SCRIPT, "vdu_params": [
        # VDU1's members (none changes) are checked too: their CP is in each member's own nested stack.
        {"vdu_id": "VDU1", "new_vnfc_param": {"cp_name": "VDU1_CP1"}},
        {"vdu_id": "VDU2", "new_vnfc_param": {"cp_name": "VDU2_CP1"}}]}
    # A cp_name VDU2 has not: refused before any write, naming the entry.
    writes = len(heat_writes(lab, stack_name))
    wrong = dict(params, vdu_params=[params["vdu_params"][0], {"vdu_id": "VDU2", "new_vnfc_param": {"cp_name": "VDU1_CP1"}}])
    refused = change(ansible_task, new, name, {"vnfdId": vnfd_id(new), "additionalParams": wrong}, args={"allow_package_scripts": True})
    expected = "additionalParams.vdu_params[1].new_vnfc_param.cp_name: VNFC VDU2 has no port or floating IP VDU1_CP1"
    assert refused.get("failed") and expected in refused["msg"], refused.get("msg")
    assert len(heat_writes(lab, stack_name)) == writes and calls(log) == []

    # Killed while the script runs for VDU2, after its update: the rollback, given no package, puts VDU2 back.
    request = {"vnfdId": vnfd_id(new), "additionalParams": params}
    stack_before = stack_of(admin_conn, info)
    hold, reached = work / "new.hold", work / "new.hold.reached"
    hold.write_text("on")
    task = change(ansible_task, new, name, request, args={"allow_package_scripts": True}, background=True)
    try:
        wait_for(reached.exists, "the new-VNF script to hold", timeout=600, sleep=0.2)
        killed = kill_when(admin_conn, stack_name, lambda instance: True)
        task.wait()
    finally:
        hold.unlink()
        reached.unlink(missing_ok=True)
    assert admin_conn.compute.get_server(vdu2).flavor["original_name"] == "m1.small"
    rolled = op_occ(ansible_task, name, "rollback")
    assert not rolled.get("failed"), rolled.get("msg")
    assert rolled["vnf_lcm_op_occ"]["id"] == killed["id"] and rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK"
    assert admin_conn.compute.get_server(vdu2).flavor["original_name"] == "m1.tiny"
    assert stack_of(admin_conn, info) == stack_before and servers(info_of(rolled)) == servers(info)
    seen = len(calls(log))

    result = change(ansible_task, new, name, request, args={"allow_package_scripts": True})
    assert not result.get("failed"), result.get("msg")
    assert result["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    assert admin_conn.compute.get_server(vdu2).flavor["original_name"] == "m1.small"
    (port,) = list(admin_conn.network.ports(device_id=vdu2))
    assert [(call["script"], call["input"]["cp_name"], call["input"]["ssh_ip"]) for call in calls(log)[seen:]] == [
        ("coordinate_new_vnf.py", "VDU2_CP1", port.fixed_ips[0]["ip_address"])]
