# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Drift of a VM-based VNF on the OpenStack lab: Tacker's userdata_standard changed behind the VNF manager's back with
the SDK, as an administrator would with the openstack CLI (VDU1's server resized and one of its ports detached; a
volume attached to VDU2's server, which boots from its own, and that server put in ERROR, as a failed compute host
leaves it), seen field by field by vnf_info with ``drift: true``, writing nothing. A volume of the record gone from its
server is the same comparison the other way (unit tests): Nova refuses to detach a boot volume."""

from __future__ import annotations

import uuid

import pytest

from ansible_collections.nfv.vnflcm.tests.integration.faults import wait_for
from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import CLOUD, REQUEST, heat_writes, info_of, instantiate

pytestmark = pytest.mark.tier2


def test_drift_of_a_vm_based_vnf_is_seen_field_by_field_and_reading_it_writes_nothing(lab, admin_conn, ansible_task, package, created):
    done = instantiate(ansible_task, package, "drift-" + uuid.uuid4().hex[:6], REQUEST)
    assert not done.get("failed"), done.get("msg")
    info = info_of(done)
    stack_name = info["metadata"]["stack_name"]
    created.append(stack_name)
    by_id = {"cloud": CLOUD, "vnf_instance_id": done["vnf_instance"]["id"], "drift": True}
    clean = ansible_task("vnf_info", by_id)
    assert clean.get("failed") is not True, clean.get("msg")
    assert [(item["drifted"], item["compared"], item["objects"]) for item in clean["drift"]] == [(0, "fields", [])]

    vnfcs = {item["vduId"]: item for item in info["vnfcResourceInfo"]}
    vdu1, vdu2 = vnfcs["VDU1"]["computeResource"]["resourceId"], vnfcs["VDU2"]["computeResource"]["resourceId"]
    compute = admin_conn.compute
    # VDU1: resized, and the port of its last CP detached.
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
    finally:
        compute.reset_server_state(vdu2, "active")
        compute.delete_volume_attachment(vdu2, volume, ignore_missing=True)
        wait_for(lambda: storage.get_volume(volume).status == "available", "the volume detached", timeout=120, sleep=1)
        storage.delete_volume(volume)
    assert seen.get("failed") is not True, seen.get("msg")
    assert len(heat_writes(lab, stack_name)) == writes
    report = seen["drift"][0]
    found = {(item["kind"], item["id"]): item for item in report["objects"]}
    assert sorted(found) == sorted([("Server", vdu1), ("Port", port), ("Volume", volume), ("Server", vdu2)]), report
    assert found[("Server", vdu1)]["fields"] == [{"path": "flavor", "expected": "m1.tiny", "live": "m1.medium"}]
    assert (found[("Port", port)]["status"], found[("Port", port)]["cp"]) == ("missing", cp["cpdId"])
    assert found[("Volume", volume)]["status"] == "unexpected" and found[("Volume", volume)]["vdu"] == "VDU2"
    assert found[("Server", vdu2)]["fields"] == [{"path": "status", "expected": "ACTIVE", "live": "ERROR"}]
    # The record is as it was: reading drift changes nothing.
    assert seen["vnf_instances"][0]["instantiatedVnfInfo"] == clean["vnf_instances"][0]["instantiatedVnfInfo"]
