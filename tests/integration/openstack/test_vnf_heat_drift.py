# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Drift of a VM-based VNF on the OpenStack lab: Tacker's userdata_standard changed behind the VNF manager's back with
the SDK, as an administrator would with the openstack CLI (a VDU1 server rebuilt on another image, resized and one of
its ports detached; another VDU1 server deleted; a volume attached to VDU2's server, which boots from its own, and that
server put in ERROR, as a failed compute host leaves it), seen field by field by vnf_info with ``drift: true``, writing nothing, then repaired by
``reconcile: true``: the drifted VNFCs healed, the ones that did not drift kept. A volume of the record gone from its
server is the same comparison the other way (unit tests): Nova refuses to detach a boot volume."""

from __future__ import annotations

import uuid

import pytest

from ansible_collections.nfv.vnflcm.tests.integration.faults import wait_for
from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import CLOUD, REQUEST, heat_writes, info_of, instantiate, relabel
from ansible_collections.nfv.vnflcm.tests.integration.playbook_runs import PlaybookDriver, expect

pytestmark = pytest.mark.tier2


def test_drift_of_a_vm_based_vnf_is_seen_field_by_field_then_repaired_on_request(lab, admin_conn, ansible_task, package, created, tmp_path):
    name = "drift-" + uuid.uuid4().hex[:6]
    request = dict(REQUEST, instantiationLevelId="instantiation_level_2")  # a second VDU1 VNFC, which no one touches
    done = instantiate(ansible_task, package, name, request)
    assert not done.get("failed"), done.get("msg")
    info = info_of(done)
    stack_name = info["metadata"]["stack_name"]
    created.append(stack_name)
    by_id = {"cloud": CLOUD, "vnf_instance_id": done["vnf_instance"]["id"], "drift": True}
    clean = ansible_task("vnf_info", by_id)
    assert clean.get("failed") is not True, clean.get("msg")
    assert [(item["drifted"], item["compared"], item["objects"]) for item in clean["drift"]] == [(0, "fields", [])]

    # A third VDU1 VNFC, whose server is deleted by hand.
    out = ansible_task("vnf_scale", {"cloud": CLOUD, "vnf_instance_name": name, "request": {"type": "SCALE_OUT", "aspectId": "VDU1_scale"}})
    assert not out.get("failed"), out.get("msg")
    info = info_of(out)
    vnfcs = {item["metadata"]["stackResource"]: item for item in info["vnfcResourceInfo"]}
    assert sorted(vnfcs) == ["VDU1-0", "VDU1-1", "VDU1-2", "VDU2-0"]
    untouched = vnfcs.pop("VDU1-1")["computeResource"]["resourceId"]
    gone = vnfcs.pop("VDU1-2")["computeResource"]["resourceId"]
    vnfcs = {item["vduId"]: item for item in vnfcs.values()}
    vdu1, vdu2 = vnfcs["VDU1"]["computeResource"]["resourceId"], vnfcs["VDU2"]["computeResource"]["resourceId"]
    compute = admin_conn.compute
    clean = ansible_task("vnf_info", by_id)
    compute.delete_server(gone)
    wait_for(lambda: compute.find_server(gone, ignore_missing=True) is None, "VDU1-2 deleted", timeout=120, sleep=1)
    # VDU1: rebuilt on another image, resized, and the port of its last CP detached.
    recorded_image = compute.get_server(vdu1).image["id"]
    compute.rebuild_server(vdu1, admin_conn.image.find_image("VDU1-image").id)
    wait_for(lambda: compute.get_server(vdu1).status == "ACTIVE" and compute.get_server(vdu1).image["id"] != recorded_image,
             "the rebuild of VDU1", timeout=300, sleep=1)
    compute.resize_server(vdu1, compute.find_flavor("m1.medium").id)
    wait_for(lambda: compute.get_server(vdu1).status == "VERIFY_RESIZE", "the resize of VDU1", timeout=300, sleep=1)
    compute.confirm_server_resize(vdu1)
    wait_for(lambda: compute.get_server(vdu1).status == "ACTIVE", "VDU1 active again", timeout=300, sleep=1)
    cp = sorted(vnfcs["VDU1"]["vnfcCpInfo"], key=lambda item: item["cpdId"])[-1]
    port = cp["id"][len(cp["cpdId"]) + 1:]
    compute.delete_server_interface(port, server=vdu1)
    wait_for(lambda: port not in {item.id for item in admin_conn.network.ports(device_id=vdu1)}, "the port detached", timeout=120, sleep=1)
    # VDU2: a volume attached by hand, then its server in ERROR.
    storage = admin_conn.block_storage
    volume = storage.create_volume(size=1, name="drift-" + uuid.uuid4().hex[:6]).id
    try:
        wait_for(lambda: storage.get_volume(volume).status == "available", "the volume", timeout=120, sleep=1)
        compute.create_volume_attachment(vdu2, volume=volume)
        wait_for(lambda: volume in {item["id"] for item in compute.get_server(vdu2).attached_volumes}, "the volume attached", timeout=120, sleep=1)
        compute.reset_server_state(vdu2, "error")
        writes = len(heat_writes(lab, stack_name))
        seen = ansible_task("vnf_info", by_id)
        assert seen.get("failed") is not True, seen.get("msg")
        assert len(heat_writes(lab, stack_name)) == writes
        report = seen["drift"][0]
        found = {(item["kind"], item["id"]): item for item in report["objects"]}
        assert sorted(found) == sorted([("Server", vdu1), ("Port", port), ("Volume", volume), ("Server", vdu2), ("Server", gone)]), report
        assert [field["path"] for field in found[("Server", vdu1)]["fields"]] == ["flavor", "image"]
        assert found[("Server", vdu1)]["fields"][0] == {"path": "flavor", "expected": "m1.tiny", "live": "m1.medium"}
        assert found[("Server", gone)]["status"] == "missing"
        assert (found[("Port", port)]["status"], found[("Port", port)]["cp"]) == ("missing", cp["cpdId"])
        assert found[("Volume", volume)]["status"] == "unexpected" and found[("Volume", volume)]["vdu"] == "VDU2"
        assert found[("Server", vdu2)]["fields"] == [{"path": "status", "expected": "ACTIVE", "live": "ERROR"}]
        # The record is as it was: reading drift changes nothing.
        assert seen["vnf_instances"][0]["instantiatedVnfInfo"] == clean["vnf_instances"][0]["instantiatedVnfInfo"]

        # A plain re-run says how much drifted and writes nothing; check mode shows the repair and writes nothing.
        again = instantiate(ansible_task, package, name, request)
        assert not again.get("failed") and again["changed"] is False and again["plan"]["drift"] == "5 objects", again.get("msg")
        # Refused before any write: another package (naming ``package``), a repair naming a VNFC (naming vnfcInstanceId).
        other = instantiate(ansible_task, str(relabel(package, tmp_path / "other", str(uuid.uuid4()))), name, request, args={"reconcile": True})
        assert other.get("failed") and "package: reconcile restores VNF instance" in other["msg"], other.get("msg")
        named = ansible_task("vnf_heal", {"cloud": CLOUD, "vnf_instance_name": name, "request": {
            "vnfcInstanceId": [info["vnfcInfo"][0]["id"]], "additionalParams": {"reconcile": True}}})
        assert named.get("failed") and "vnfcInstanceId" in named["msg"] and "name no VNFC" in named["msg"], named.get("msg")
        planned = instantiate(ansible_task, package, name, request, check=True, args={"reconcile": True})
        assert not planned.get("failed") and planned["changed"] is True, planned.get("msg")
        assert sorted(item["server"] for item in planned["plan"]["replace"]) == sorted([vdu1, vdu2, gone])
        assert {item["action"] for item in planned["plan"]["repair"]} == {"replace server"} and len(planned["plan"]["repair"]) == 5
        assert len(heat_writes(lab, stack_name)) == writes

        # reconcile: a HEAL of the two drifted VNFCs; the VNF is as its record says again, the third VNFC kept.
        repaired = instantiate(ansible_task, package, name, request, args={"reconcile": True})
        assert not repaired.get("failed"), repaired.get("msg")
        op_occ = repaired["vnf_lcm_op_occ"]
        assert (op_occ["operation"], op_occ["operationState"]) == ("HEAL", "COMPLETED")
        assert op_occ["operationParams"] == {"cause": "drift", "additionalParams": {"reconcile": True}}
        after = {item["metadata"]["stackResource"]: item["computeResource"]["resourceId"] for item in info_of(repaired)["vnfcResourceInfo"]}
        assert after["VDU1-1"] == untouched and not {vdu1, vdu2, gone} & set(after.values()) and len(after) == 4
        assert compute.get_server(after["VDU1-0"]).flavor["original_name"] == "m1.tiny"
        assert compute.get_server(after["VDU1-0"]).image["id"] == recorded_image and compute.get_server(after["VDU1-2"]).status == "ACTIVE"
        assert port in {item.id for item in admin_conn.network.ports(device_id=after["VDU1-0"])}
        wait_for(lambda: storage.get_volume(volume).status == "available", "the volume left detached", timeout=120, sleep=1)
        assert [item["drifted"] for item in ansible_task("vnf_info", by_id)["drift"]] == [0]
        # Again through the role's entry point: nothing to repair, nothing written, no hook.
        writes = len(heat_writes(lab, stack_name))
        driver = PlaybookDriver(tmp_path / "cli", {"cloud": CLOUD}, env={"OS_CLIENT_CONFIG_FILE": str(lab.clouds_yaml)})
        run = expect(driver.run("instantiate", {"vnf_lifecycle_instance_name": name, "vnf_lifecycle_package": package,
                                                "vnf_lifecycle_request": request, "vnf_lifecycle_reconcile": True}))
        role = run.result("Create and instantiate " + name)
        assert role["changed"] is False and role["plan"]["drift"] == "0 objects" and "vnf_lcm_op_occ" not in role
        assert len(heat_writes(lab, stack_name)) == writes
    finally:
        if compute.find_server(vdu2, ignore_missing=True) is not None:
            compute.reset_server_state(vdu2, "active")
            compute.delete_volume_attachment(vdu2, volume, ignore_missing=True)
        wait_for(lambda: storage.get_volume(volume).status == "available", "the volume detached", timeout=120, sleep=1)
        storage.delete_volume(volume)
