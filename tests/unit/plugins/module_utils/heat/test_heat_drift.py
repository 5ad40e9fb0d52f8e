# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Drift of a VM-based VNF (heat/drift.py, lcm/vm/drift.py): servers, ports and volumes against the record."""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import drift
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.drift import instance_drift


def vnfc(server="s1", ports=("p1",), volumes=("v1",)):
    return {"id": server, "vduId": "VDU1", "computeResource": {"resourceId": server, "vimLevelResourceType": "OS::Nova::Server"},
            "storageResourceIds": list(volumes), "vnfcCpInfo": [{"id": "VDU1_CP1-" + port, "cpdId": "VDU1_CP1"} for port in ports],
            "metadata": {"flavor": "m1.tiny", "image-VDU1": "img-1"}}


INSTANCE = {"id": "vnf1", "vnfInstanceName": "vnf", "instantiationState": "INSTANTIATED",
            "instantiatedVnfInfo": {"vnfcResourceInfo": [vnfc(), vnfc("s2", ("p2",), ())]}}


def server(status="ACTIVE", flavor="m1.tiny", image="img-1", volumes=("v1",)):
    return {"status": status, "flavor": {"original_name": flavor, "vcpus": 1}, "image": {"id": image},
            "attached_volumes": [{"id": volume} for volume in volumes]}


class Port:
    def __init__(self, port_id):
        self.id = port_id


class Conn:
    """openstacksdk's compute.get_server and network.ports, from dicts."""

    def __init__(self, servers, ports):
        self.servers, self.port_ids = servers, ports
        self.compute, self.network = self, self

    def get_server(self, server_id):
        from openstack import exceptions
        if server_id not in self.servers:
            raise exceptions.NotFoundException("No Server found for " + server_id)
        return self.servers[server_id]

    def ports(self, device_id=None):
        return [Port(port_id) for port_id in self.port_ids.get(device_id, ())]


def test_as_recorded_nothing_drifted():
    report = instance_drift(Conn({"s1": server(), "s2": server(volumes=())}, {"s1": ["p1"], "s2": ["p2"]}), INSTANCE)
    assert (report["drifted"], report["compared"], report["objects"]) == (0, "fields", [])


def test_a_resized_server_in_error_a_detached_port_and_volume_and_a_server_gone():
    conn = Conn({"s1": server(status="ERROR", flavor="m1.large", volumes=("v9",))}, {"s1": ["p9"]})
    objects = instance_drift(conn, INSTANCE)["objects"]
    assert objects == [
        {"vdu": "VDU1", "kind": "Server", "id": "s1", "server": "s1", "status": "changed", "fields": [
            {"path": "flavor", "expected": "m1.tiny", "live": "m1.large"}, {"path": "status", "expected": "ACTIVE", "live": "ERROR"}]},
        {"vdu": "VDU1", "kind": "Port", "id": "p1", "cp": "VDU1_CP1", "server": "s1", "status": "missing"},
        {"vdu": "VDU1", "kind": "Port", "id": "p9", "server": "s1", "status": "unexpected"},
        {"vdu": "VDU1", "kind": "Volume", "id": "v1", "server": "s1", "status": "missing"},
        {"vdu": "VDU1", "kind": "Volume", "id": "v9", "server": "s1", "status": "unexpected"},
        {"vdu": "VDU1", "kind": "Server", "id": "s2", "server": "s2", "status": "missing"}]


def test_an_image_is_compared_only_when_the_server_boots_from_one():
    assert drift.vnfc_drift(drift.recorded_vnfcs(INSTANCE)[1], drift.live_view(server(image="img-2", volumes=())), {"p2"})[0]["fields"] == [
        {"path": "image", "expected": "img-1", "live": "img-2"}]
    from_volume = dict(server(volumes=()), image="")
    assert drift.vnfc_drift(drift.recorded_vnfcs(INSTANCE)[1], drift.live_view(from_volume), {"p2"}) == []


class Vim:
    """What lcm/vm/heal.py plans with: the connection (drift, the status of each server to replace)."""

    def __init__(self, conn):
        self.conn = conn
        conn.find_server = lambda server_id, ignore_missing=True: type("Server", (), {"status": conn.servers[server_id]["status"]})() \
            if server_id in conn.servers else None


def healable(instance):
    """INSTANCE as a record a heal plans from: its VNFCs, their ids, the stack."""
    info = dict(instance["instantiatedVnfInfo"], metadata={"stack_name": "vnf-vnf1", "stack_id": "st-1"})
    for item in info["vnfcResourceInfo"]:
        item["metadata"] = dict(item["metadata"], stackResource=item["id"] + "-res")
    info["vnfcInfo"] = [{"id": "c-" + item["id"], "vduId": item["vduId"], "vnfcResourceInfoId": item["id"]} for item in info["vnfcResourceInfo"]]
    return dict(instance, instantiatedVnfInfo=info)


def test_a_repair_heals_only_the_vnfcs_that_drifted_and_no_drift_is_nothing_to_do():
    import copy
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import heal
    from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import RECONCILE_REQUEST
    instance = healable(copy.deepcopy(INSTANCE))
    # s1 resized with a port attached by hand; s2 as recorded.
    vim = Vim(Conn({"s1": server(flavor="m1.large"), "s2": server(volumes=())}, {"s1": ["p1", "p7"], "s2": ["p2"]}))
    planned = heal.plan_heal(vim, None, (instance, [], "1"), RECONCILE_REQUEST)
    assert planned.changed and planned.request == RECONCILE_REQUEST
    assert [item["server"] for item in planned.plan["replace"]] == ["s1"] and planned.plan["drift"] == "2 objects"
    repairs = [(item["kind"], item["id"], item["action"]) for item in planned.plan["repair"]]
    assert repairs == [("Server", "s1", "replace server"), ("Port", "p7", "replace server")]
    calm = Vim(Conn({"s1": server(), "s2": server(volumes=())}, {"s1": ["p1"], "s2": ["p2"]}))
    idle = heal.plan_heal(calm, None, (instance, [], "1"), {"additionalParams": {"reconcile": True}})
    assert not idle.changed and (idle.plan["drift"], idle.plan["note"]) == ("0 objects", "no drift to repair")


def test_the_recorded_image_of_a_vnfc_is_read_under_its_nfv_key():
    # StandardUserData records image-VDU1-0 (with vdu_idx); a scaling group's member image-VDU1.
    indexed = vnfc()
    indexed["metadata"] = {"flavor": "m1.tiny", "vdu_idx": 0, "image-VDU1-0": "img-7"}
    assert drift.recorded_vnfcs({"instantiatedVnfInfo": {"vnfcResourceInfo": [indexed, vnfc()]}})[0]["image"] == "img-7"
    assert drift.recorded_vnfcs(INSTANCE)[0]["image"] == "img-1"
