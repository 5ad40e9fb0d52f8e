# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tier 2: vnf_change_pkg on the OpenStack lab, from Tacker's userdata_standard to its change packages.

Three VNF instances, each instantiated from userdata_standard at instantiation_level_1 (VDU1-0, VDU2-0):
``Main`` takes the issue's network change (then the re-run, the merge patch, check mode and bad input),
``Hooked`` a change whose coordination hook fails after the second VNFC (rolled back, then done again),
``ScaleUp`` the seed's flavour-only package (then a failed change back, retried).
What the tests read back comes from Nova, Neutron and Heat themselves.
"""

from __future__ import annotations

import json
import os
import re
import uuid

import pytest
import yaml

from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import (
    CLOUD,
    NEW,
    OLD,
    change,
    heat_writes,
    info_of,
    instantiated,
    keystone_url,
    nw_request,
    op_occ,
    ports_by_network,
    repackaged,
    servers,
    stack_of,
    stack_updates,
    vnfd_id,
)
from ansible_collections.nfv.vnflcm.tests.integration.sol003_conformance import assert_conforms

pytestmark = pytest.mark.tier2


def labels(conn):
    """Neutron ids -> what they are (network name; port: network and server), for comparing records across re-created ports.

    A network of the stack is named ``<stack>-<VL>-<random suffix>``: the suffix changes when Heat creates it again.
    """
    nets = {net.id: re.sub(r"-[a-z0-9]{12}$", "", net.name) for net in conn.network.networks()}
    names = dict(nets)
    for port in conn.network.ports():
        names[port.id] = "port on {0} of {1}".format(nets.get(port.network_id), port.device_id)
    return names


def relabelled(value, names):
    """``value`` with every Neutron id replaced by its label (also inside ``<cp>-<port id>`` ids)."""
    text = json.dumps(value, sort_keys=True)
    for resource_id, label in names.items():
        text = text.replace(resource_id, label)
    return json.loads(text)


def internal_nets(conn, stack_name):
    return sorted(net.name[len(stack_name) + 1:].rsplit("-", 1)[0] for net in conn.network.networks() if net.name.startswith(stack_name + "-"))


def hook_file(tmp_path, name, fail_marker=None, log=None):
    """A coordination hook: logs each call to ``log``, fails for VDU2 while ``fail_marker`` exists."""
    tasks = []
    if log:
        tasks.append({"name": "log the call", "ansible.builtin.lineinfile": {
            "path": str(log), "create": True,
            "line": "{{ vnflcm_coordination.vnfc.resource }} rollback={{ vnflcm_coordination.rollback }} "
                    "server={{ vnflcm_coordination.vnfc.server_id }} nets={{ vnflcm_coordination.vnfc.addresses | list | sort | join(',') }}"}})
    if fail_marker:
        tasks.append({"name": "look for the fault", "ansible.builtin.stat": {"path": str(fail_marker)}, "register": "fault"})
        tasks.append({"name": "fail for VDU2 while the fault is there", "ansible.builtin.fail": {"msg": "VDU2 coordination refused"},
                      "when": "fault.stat.exists and vnflcm_coordination.vnfc.vdu_id == 'VDU2'"})
    path = tmp_path / name
    path.write_text(yaml.safe_dump(tasks))
    return str(path)


class Main:
    name = "vnf-chg-" + uuid.uuid4().hex[:6]
    before = None
    result = None


def test_instantiate_main(lab, ansible_task, packages, created):
    Main.before = instantiated(ansible_task, created, packages, Main.name)


@pytest.mark.parametrize("edit, field", [
    (lambda r: r["additionalParams"]["vdu_params"].append({"vdu_id": "VDU9"}), "additionalParams.vdu_params[2].vdu_id"),
    (lambda r: r["additionalParams"].update(upgrade_type="BlueGreen"), "additionalParams.upgrade_type"),
    (lambda r: r["extVirtualLinks"][0]["extCps"][0].update(cpdId="VDU1_CP9"), "extVirtualLinks[0].extCps[0].cpdId"),
    (lambda r: r["extVirtualLinks"].pop(1), "VDU1_CP4"),
    (lambda r: r.update(vnfdId=str(uuid.uuid4())), "vnfdId"),
    (lambda r: r["additionalParams"]["nfv"]["VDU"].update({"VDU2-0": {"computeFlavourId": "m1.huge"}}),
     "additionalParams.nfv.VDU.VDU2-0.computeFlavourId"),
])
def test_bad_input_names_the_field_and_updates_nothing(lab, ansible_task, packages, edit, field):
    stack_name = info_of(Main.before)["metadata"]["stack_name"]
    writes = len(heat_writes(lab, stack_name))
    request = nw_request(packages)
    edit(request)
    result = change(ansible_task, os.path.join(packages, NEW), Main.name, request)
    assert result.get("failed") and field in result["msg"], result.get("msg")
    assert len(heat_writes(lab, stack_name)) == writes


def test_unknown_package_is_refused(lab, ansible_task, packages, tmp_path):
    stack_name = info_of(Main.before)["metadata"]["stack_name"]
    writes = len(heat_writes(lab, stack_name))
    missing = str(tmp_path / "no-such-package")
    result = change(ansible_task, missing, Main.name, nw_request(packages))
    assert result.get("failed") and missing in result["msg"], result.get("msg")
    assert len(heat_writes(lab, stack_name)) == writes


def test_check_mode_shows_the_plan_and_preview_and_writes_nothing(lab, ansible_task, packages):
    stack_name = info_of(Main.before)["metadata"]["stack_name"]
    writes = len(heat_writes(lab, stack_name))
    result = change(ansible_task, os.path.join(packages, NEW), Main.name, nw_request(packages), check=True, diff=True)
    assert not result.get("failed"), result.get("msg")
    plan = result["plan"]
    assert result["changed"] and plan["updates"] == 2 and [step["vnfc"] for step in plan["steps"]] == ["VDU1-0", "VDU2-0"]
    assert plan["summary"]["resized"] == ["VDU2-0"] and plan["summary"]["rebuilt"] == ["VDU1-0"] and not plan["summary"]["replaced"]
    vdu1 = [entry for entry in plan["vnfcs"] if entry["name"] == "VDU1-0"][0]
    kinds = {(change["kind"], change.get("cp")) for change in vdu1["changes"]}
    assert ("port_moved", "VDU1_CP1") in kinds and ("cp_added", "VDU1_CP4") in kinds
    assert plan["virtual_links"]["added"] == ["internalVL3"] and plan["virtual_links"]["removed"] == ["internalVL2"]
    assert "internalVL3" in plan["preview"]["added"] and "internalVL2" in plan["preview"]["deleted"]
    assert result["diff"]["after"]["vnfdId"] == nw_request(packages)["vnfdId"]
    assert len(heat_writes(lab, stack_name)) == writes


def test_change_moves_cp_resizes_vdu2_and_swaps_internal_vls(lab, admin_conn, ansible_task, packages):
    before = info_of(Main.before)
    stack_name = before["metadata"]["stack_name"]
    updates = len(stack_updates(lab, stack_name))
    request = nw_request(packages, extensions={"a": 1, "nested": {"x": 1, "y": 2}}, vnfConfigurableProperties={"list": [1, 2, 3]})
    Main.result = result = change(ansible_task, os.path.join(packages, NEW), Main.name, request)
    assert not result.get("failed"), result.get("msg")
    assert result["changed"] and result["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    assert result["vnf_lcm_op_occ"]["operation"] == "CHANGE_VNFPKG"
    assert len(stack_updates(lab, stack_name)) - updates == 2
    after = info_of(result)
    # Same servers: VDU2 resized, VDU1 rebuilt (its image changed), none replaced.
    assert servers(after) == servers(before)
    vdu1, vdu2 = (admin_conn.compute.get_server(servers(after)[vdu]) for vdu in ("VDU1", "VDU2"))
    assert (vdu2.flavor["original_name"], vdu2.status) == ("m1.small", "ACTIVE")
    assert (vdu1.flavor["original_name"], vdu1.status) == ("m1.tiny", "ACTIVE")
    # The VNFC metadata follows: VDU2's new flavour, VDU1's new image.
    metadata = {item["vduId"]: item["metadata"] for item in after["vnfcResourceInfo"]}
    assert metadata["VDU2"]["flavor"] == "m1.small" and admin_conn.image.find_image(metadata["VDU1"]["image-VDU1-0"]).id == vdu1.image["id"]
    assert_conforms(result)
    vdu1_nets = ports_by_network(admin_conn, vdu1.id)
    assert "net1" in vdu1_nets and vdu1_nets.count("net0") == 1  # VDU1_CP1 on net1, VDU1_CP4 on net0
    assert ports_by_network(admin_conn, vdu2.id).count("net0") == 2  # VDU2_CP1 and VDU2_CP4
    assert internal_nets(admin_conn, stack_name) == ["internalVL1", "internalVL3"]
    cps = {item["vduId"]: {cp["cpdId"] for cp in item["vnfcCpInfo"]} for item in after["vnfcResourceInfo"]}
    assert {"VDU1_CP1", "VDU1_CP4"} <= cps["VDU1"] and "VDU2_CP4" in cps["VDU2"]
    # VDU1_CP1's port: on net1, attached to the VDU1 server, and in the record's ext-net1.
    links = {link["id"]: link for link in after["extVirtualLinkInfo"]}
    # An extLinkPort names its external CP (extCpInfo), which names the CP of the VNFD.
    cpd_of = {item["id"]: item["cpdId"] for item in after["extCpInfo"]}
    cp1 = [port for port in links["ext-net1"]["extLinkPorts"] if cpd_of[port["cpInstanceId"]] == "VDU1_CP1"][0]
    port = admin_conn.network.get_port(cp1["id"])
    assert (admin_conn.network.get_network(port.network_id).name, port.device_id) == ("net1", vdu1.id)
    assert links["ext-net1"]["resourceHandle"]["resourceId"] == "net1"
    instance = result["vnf_instance"]
    assert instance["vnfdId"] == request["vnfdId"] and instance["vnfdId"] != Main.before["vnf_instance"]["vnfdId"]
    occ = result["vnf_lcm_op_occ"]
    changed = {link["id"]: link for link in occ["changedExtConnectivity"]}
    assert any(cpd_of[port["cpInstanceId"]] == "VDU1_CP1" for port in changed["ext-net1"]["extLinkPorts"])
    assert occ["modificationsTriggeredByVnfPkgChange"]["vnfdId"] == request["vnfdId"]
    affected = {item["vduId"]: item["changeType"] for item in occ["resourceChanges"]["affectedVnfcs"]}
    assert affected == {"VDU1": "MODIFIED", "VDU2": "MODIFIED"}
    vls = {item["vnfVirtualLinkDescId"]: item["changeType"] for item in occ["resourceChanges"]["affectedVirtualLinks"]}
    assert vls["internalVL3"] == "ADDED" and vls["internalVL2"] == "REMOVED"
    assert any(item["changeType"] == "ADDED" and cpd_of[item["extCpInstanceId"]] == "VDU1_CP1" for item in occ["resourceChanges"]["affectedExtLinkPorts"])
    # The record is kept in the stack: vnf_info reads the same back.
    listed = ansible_task("vnf_info", {"cloud": CLOUD, "vnf_instance_name": Main.name})["vnf_instances"][0]
    assert listed["vnfdId"] == request["vnfdId"] and listed["instantiatedVnfInfo"]["extVirtualLinkInfo"] == after["extVirtualLinkInfo"]


def test_rerun_sends_no_stack_update(lab, ansible_task, packages):
    stack_name = info_of(Main.result)["metadata"]["stack_name"]
    writes = len(heat_writes(lab, stack_name))
    request = nw_request(packages, extensions={"a": 1, "nested": {"x": 1, "y": 2}}, vnfConfigurableProperties={"list": [1, 2, 3]})
    result = change(ansible_task, os.path.join(packages, NEW), Main.name, request)
    assert not result.get("failed"), result.get("msg")
    assert result["changed"] is False and result["plan"]["updates"] == 0
    assert result["api_calls"]["heat_write"] == 0 and len(heat_writes(lab, stack_name)) == writes


def test_merge_patch_of_instance_fields(lab, ansible_task, packages):
    stack_name = info_of(Main.result)["metadata"]["stack_name"]
    updates = len(stack_updates(lab, stack_name))
    extra_vim = {"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3", "interfaceInfo": {"endpoint": keystone_url(lab)},
                 "accessInfo": {"region": "RegionOne", "username": "nfv", "password": "never-stored"}}
    request = nw_request(packages, extensions={"a": None, "nested": {"y": 3, "z": 4}}, vnfConfigurableProperties={"list": [9]},
                         vimConnectionInfo={"extra": extra_vim})
    result = change(ansible_task, os.path.join(packages, NEW), Main.name, request)
    assert not result.get("failed"), result.get("msg")
    instance = result["vnf_instance"]
    assert instance["extensions"] == {"nested": {"x": 1, "y": 3, "z": 4}}
    assert instance["vnfConfigurableProperties"] == {"list": [9]}
    assert "password" not in instance["vimConnectionInfo"]["extra"].get("accessInfo", {})
    assert instance["vimConnectionInfo"]["extra"]["vimType"] == "ETSINFV.OPENSTACK_KEYSTONE.V_3"
    assert "never-stored" not in json.dumps(result)
    # Only the record changed: no stack update.
    assert result["changed"] and len(stack_updates(lab, stack_name)) == updates
    removed = change(ansible_task, os.path.join(packages, NEW), Main.name, dict(request, vimConnectionInfo={"extra": None}, extensions={}))
    assert not removed.get("failed"), removed.get("msg")
    assert "extra" not in (removed["vnf_instance"].get("vimConnectionInfo") or {})
    assert removed["vnf_instance"]["extensions"] == {"nested": {"x": 1, "y": 3, "z": 4}}


class Hooked:
    name = "vnf-hook-" + uuid.uuid4().hex[:6]
    before = None


def test_failing_hook_then_rollback_restores_everything(lab, admin_conn, ansible_task, packages, created, tmp_path_factory):
    work = tmp_path_factory.mktemp("hooks")
    fault, log = work / "fault", work / "calls.log"
    fault.write_text("on")
    Hooked.before = instantiated(ansible_task, created, packages, Hooked.name)
    before = info_of(Hooked.before)
    stack_name = before["metadata"]["stack_name"]
    stack_before = stack_of(admin_conn, before)
    nets_before = internal_nets(admin_conn, stack_name)
    record_before = relabelled(Hooked.before["vnf_instance"], labels(admin_conn))
    params = {"lcm-operation-coordinate-new-vnf": hook_file(work, "new.yml", fault, log),
              "lcm-operation-coordinate-old-vnf": hook_file(work, "old.yml", log=log)}
    failed = change(ansible_task, os.path.join(packages, NEW), Hooked.name, nw_request(packages, params=params))
    assert failed.get("failed") and "VDU2 coordination refused" in failed["msg"], failed.get("msg")
    assert failed["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP"
    assert [step["vnfc"] for step in failed["progress"]["steps"]] == ["VDU1-0", "VDU2-0"]
    assert admin_conn.compute.get_server(servers(before)["VDU2"]).flavor["original_name"] == "m1.small"
    calls = log.read_text().splitlines()
    # The hook saw VDU1 moved to net1, then refused VDU2.
    assert [line.split()[0] for line in calls] == ["VDU1-0", "VDU2-0"] and "net1" in calls[0]

    rolled = op_occ(ansible_task, Hooked.name, "rollback")
    assert not rolled.get("failed"), rolled.get("msg")
    assert rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK"
    # The old-VNF hook ran for each VNFC going back, VDU2 first.
    assert [line.split()[:2] for line in log.read_text().splitlines()[2:]] == [["VDU2-0", "rollback=True"], ["VDU1-0", "rollback=True"]]
    assert stack_of(admin_conn, before) == stack_before
    assert internal_nets(admin_conn, stack_name) == nets_before
    assert admin_conn.compute.get_server(servers(before)["VDU2"]).flavor["original_name"] == "m1.tiny"
    assert sorted(ports_by_network(admin_conn, servers(before)["VDU1"])).count("net1") == 0
    # The record, field by field: the same, but for the ids of the ports and nets Neutron had to create again.
    record_after = relabelled(rolled["vnf_instance"], labels(admin_conn))
    for key in sorted(set(record_before) | set(record_after)):
        if key != "instantiatedVnfInfo":
            assert record_after.get(key) == record_before.get(key), key
    for key in sorted(set(record_before["instantiatedVnfInfo"]) | set(record_after["instantiatedVnfInfo"])):
        assert record_after["instantiatedVnfInfo"].get(key) == record_before["instantiatedVnfInfo"].get(key), key

    fault.unlink()
    done = change(ansible_task, os.path.join(packages, NEW), Hooked.name, nw_request(packages, params=params))
    assert not done.get("failed"), done.get("msg")
    assert done["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    assert admin_conn.compute.get_server(servers(before)["VDU2"]).flavor["original_name"] == "m1.small"


class ScaleUp:
    name = "vnf-up-" + uuid.uuid4().hex[:6]


@pytest.fixture(scope="module")
def scale_up_package(packages, tmp_path_factory):
    """userdata_standard with VDU2's flavour m1.small: the seed's scale-up case."""
    path = repackaged(os.path.join(packages, OLD), tmp_path_factory.mktemp("pkg") / "userdata_standard_vdu2_small")
    df = path / "Definitions" / "v2_sample3_df_simple.yaml"
    head, vdu2 = df.read_text().split("    VDU2:\n", 1)
    df.write_text(head + "    VDU2:\n" + vdu2.replace("requested_additional_capability_name: m1.tiny", "requested_additional_capability_name: m1.small", 1))
    return str(path)


def test_scale_up_touches_only_vdu2(lab, admin_conn, ansible_task, packages, created, scale_up_package):
    before = info_of(instantiated(ansible_task, created, packages, ScaleUp.name))
    stack = admin_conn.orchestration.find_stack(before["metadata"]["stack_name"])
    seen = {event.id for event in admin_conn.orchestration.stack_events(stack, nested_depth=3)}
    request = {"vnfdId": vnfd_id(scale_up_package), "additionalParams": {"upgrade_type": "RollingUpdate", "vdu_params": [{"vdu_id": "VDU2"}]}}
    result = change(ansible_task, scale_up_package, ScaleUp.name, request)
    assert not result.get("failed"), result.get("msg")
    assert result["plan"]["summary"]["resized"] == ["VDU2-0"] and result["plan"]["updates"] == 1
    assert servers(info_of(result)) == servers(before)
    assert admin_conn.compute.get_server(servers(before)["VDU2"]).flavor["original_name"] == "m1.small"
    events = [event for event in admin_conn.orchestration.stack_events(stack, nested_depth=3) if event.id not in seen]
    updated = {event.resource_name for event in events if event.resource_status.startswith("UPDATE")}
    # VDU2's server is updated (resized); nothing of VDU1 is: not its server, ports or volume. (Heat walks
    # every nested stack on a stack update, so VDU1-0 itself shows an update in which nothing changes.)
    vdu1_parts = {"VDU1", "VDU1_CP1", "VDU1_CP2", "VDU1_CP3"}
    assert "VDU2" in updated and not updated & vdu1_parts, sorted(updated)


def test_failed_change_is_retried_to_completion(lab, admin_conn, ansible_task, packages, scale_up_package, tmp_path):
    fault = tmp_path / "fault"
    fault.write_text("on")
    hook = hook_file(tmp_path, "new.yml", fault)
    request = {"vnfdId": vnfd_id(os.path.join(packages, OLD)),
               "additionalParams": {"upgrade_type": "RollingUpdate", "vdu_params": [{"vdu_id": "VDU2"}], "lcm-operation-coordinate-new-vnf": hook}}
    failed = change(ansible_task, os.path.join(packages, OLD), ScaleUp.name, request)
    assert failed.get("failed") and failed["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP", failed.get("msg")
    fault.unlink()
    retried = op_occ(ansible_task, ScaleUp.name, "retry")
    assert not retried.get("failed"), retried.get("msg")
    occ = retried["vnf_lcm_op_occ"]
    assert (occ["id"], occ["operationState"]) == (failed["vnf_lcm_op_occ"]["id"], "COMPLETED")
    info = info_of(retried)
    assert retried["vnf_instance"]["vnfdId"] == request["vnfdId"]
    assert admin_conn.compute.get_server(servers(info)["VDU2"]).flavor["original_name"] == "m1.tiny"
