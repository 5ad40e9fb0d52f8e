# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tier 2: the LCM modules on the OpenStack lab with Tacker's userdata_standard package, run through ansible-playbook.

Nova, Neutron, Cinder and Glance are real services here (Nova with its fake driver), so what the tests
read back from them is what Heat really built. The lifecycle tests run in file order on one VNF
instance (instantiate, re-run, scale, heal, terminate); the others use their own instances.
The package's VDU2 needs a Cinder volume type (admin only), so the modules run as the lab's admin.
"""

from __future__ import annotations

import copy
import uuid

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import normalised_url
from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import (
    CLOUD,
    REQUEST,
    heat_writes,
    instantiate,
    keystone_url,
    op_occ,
    ports_by_network,
    server_gone,
    servers_of,
    stack_of,
    stack_updates,
    stacks_named,
    stacks_of_instance,
)
from ansible_collections.nfv.vnflcm.tests.integration.playbook_runs import PlaybookDriver, expect
from ansible_collections.nfv.vnflcm.tests.integration.sol003_conformance import assert_conforms

pytestmark = pytest.mark.tier2


class Flow:
    """State the ordered lifecycle tests hand on."""
    name = "vnf-lcm-" + uuid.uuid4().hex[:6]
    result = None


def test_check_mode_plans_and_creates_nothing(lab, admin_conn, ansible_task, package):
    result = instantiate(ansible_task, package, Flow.name, REQUEST, check=True, diff=True)
    assert not result.get("failed"), result.get("msg")
    plan = result["plan"]
    assert {"VDU1-0", "VDU2-0", "internalVL1", "internalVL2", "vnflcm_record"} <= set(plan["resources"])
    assert plan["nfv"]["VDU"]["VDU1-0"]["computeFlavourId"] == "m1.tiny"
    assert plan["nfv"]["CP"]["VDU2_CP1-0"] == {"network": "net0", "fixed_ips": [{"subnet": "net0-subnet"}]}
    assert any(line.startswith("VDU1 (OS::Nova::Server)") or "VDU1 (OS::Nova::Server)" in line for line in plan["preview"])
    assert result["diff"]["after"]["instantiationState"] == "INSTANTIATED"
    assert stacks_named(admin_conn, plan["stack_name"]) == []
    assert "secret" not in str(result)


def test_instantiate_level_1(lab, admin_conn, ansible_task, package):
    result = instantiate(ansible_task, package, Flow.name, REQUEST)
    assert not result.get("failed"), result.get("msg")
    assert result["changed"] and result["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    Flow.result = result
    assert_conforms(result)
    info = result["vnf_instance"]["instantiatedVnfInfo"]
    by_vdu = {item["vduId"]: item for item in info["vnfcResourceInfo"]}
    assert sorted(item["vduId"] for item in info["vnfcResourceInfo"]) == ["VDU1", "VDU2"]
    vdu1 = admin_conn.compute.get_server(by_vdu["VDU1"]["computeResource"]["resourceId"])
    vdu2 = admin_conn.compute.get_server(by_vdu["VDU2"]["computeResource"]["resourceId"])
    # VDU1's template takes its name from nfv (none given: Heat names it <stack>-VDU1-0-...-VDU1); VDU2's is fixed.
    assert (vdu1.name.endswith("-VDU1-0-") or "-VDU1-0-" in vdu1.name, vdu1.status, vdu1.flavor["original_name"]) == (True, "ACTIVE", "m1.tiny")
    assert (vdu2.name, vdu2.status) == ("VDU2", "ACTIVE")
    stack_name = info["metadata"]["stack_name"]
    nets = {net.name: net for net in admin_conn.network.networks()}
    internal = {name for name in nets if name.startswith(stack_name + "-internalVL")}
    assert len(internal) == 2
    for server in (vdu1, vdu2):
        names = ports_by_network(admin_conn, server.id)
        assert names.count("net0") == 1 and sum(name.startswith(stack_name + "-internalVL") for name in names) == 2 and len(names) == 3
    vdu2_net0 = [port for port in admin_conn.network.ports(device_id=vdu2.id) if port.network_id == nets["net0"].id][0]
    assert vdu2_net0.fixed_ips[0]["subnet_id"] == admin_conn.network.find_subnet("net0-subnet").id
    assert {cp["cpdId"] for cp in by_vdu["VDU1"]["vnfcCpInfo"]} == {"VDU1_CP1", "VDU1_CP2", "VDU1_CP3"}
    assert by_vdu["VDU2"]["storageResourceIds"] and info["virtualStorageResourceInfo"]
    ext_ports = {port["id"] for port in info["extVirtualLinkInfo"][0]["extLinkPorts"]}
    assert vdu2_net0.id in ext_ports and len(ext_ports) == 2
    # As Tacker v2 links them: VDU2's net0 port is external CP cp-<port id>, with the request's cpConfig, and its VNFC CP
    # names it back; the CPs on internal VLs name their vnfLinkPorts.
    ext_cps = {item["id"]: item for item in info["extCpInfo"]}
    vdu2_cp1 = [cp for cp in by_vdu["VDU2"]["vnfcCpInfo"] if cp["cpdId"] == "VDU2_CP1"][0]
    ext_cp = ext_cps["cp-" + vdu2_net0.id]
    assert (vdu2_cp1["vnfExtCpId"], ext_cp["extLinkPortId"], ext_cp["associatedVnfcCpId"], ext_cp["cpConfigId"]) == (
        ext_cp["id"], vdu2_net0.id, vdu2_cp1["id"], "VDU2_CP1_1")
    assert ext_cp["cpProtocolInfo"][0]["ipOverEthernet"]["ipAddresses"][0]["subnetId"] == "net0-subnet" and len(ext_cps) == 2
    link_ports = {port["id"] for link in info["vnfVirtualLinkResourceInfo"] for port in link["vnfLinkPorts"]}
    assert sorted(cp["vnfLinkPortId"] in link_ports for item in info["vnfcResourceInfo"] for cp in item["vnfcCpInfo"]
                  if "vnfExtCpId" not in cp) == [True] * 4
    # Tacker v2's VNFC metadata: the nested stack holding the server, the index, the flavour and image from nfv.
    metadata = by_vdu["VDU1"]["metadata"]
    assert (metadata["vdu_idx"], metadata["flavor"], metadata["stackResource"]) == (0, "m1.tiny", "VDU1-0")
    assert metadata["stack_id"] != info["metadata"]["stack_id"] and admin_conn.image.find_image(metadata["image-VDU1-0"]).id == vdu1.image["id"]
    assert sorted(link["vnfVirtualLinkDescId"] for link in info["vnfVirtualLinkResourceInfo"]) == ["internalVL1", "internalVL2"]
    assert info["scaleStatus"] == [{"aspectId": "VDU1_scale", "scaleLevel": 0}]
    # The record is kept with the stack: vnf_info reads it back from Heat.
    listed = ansible_task("vnf_info", {"cloud": CLOUD, "vnf_instance_name": Flow.name})
    assert [item["id"] for item in listed["vnf_instances"]] == [result["vnf_instance"]["id"]]
    assert listed["vnf_instances"][0]["instantiatedVnfInfo"]["vnfcResourceInfo"] == info["vnfcResourceInfo"]
    # SOL003 _links: self is the stack that holds the record.
    assert assert_conforms(listed) == 2 and "/stacks/{0}".format(stack_name) in listed["vnf_instances"][0]["_links"]["self"]["href"]


def test_rerun_changes_nothing(lab, ansible_task, package):
    stack_name = Flow.result["vnf_instance"]["instantiatedVnfInfo"]["metadata"]["stack_name"]
    writes = len(heat_writes(lab, stack_name))
    result = instantiate(ansible_task, package, Flow.name, REQUEST)
    assert not result.get("failed"), result.get("msg")
    assert result["changed"] is False
    assert result["api_calls"]["heat_write"] == 0
    assert len(heat_writes(lab, stack_name)) == writes


def test_modify_changes_the_record_only(lab, admin_conn, ansible_task):
    stack_name = Flow.result["vnf_instance"]["instantiatedVnfInfo"]["metadata"]["stack_name"]
    stack_id = Flow.result["vnf_instance"]["instantiatedVnfInfo"]["metadata"]["stack_id"]
    updated_time = admin_conn.orchestration.get_stack(stack_id).updated_at
    updates, signals = len(stack_updates(lab, stack_name)), len(heat_writes(lab, stack_name))
    renamed = Flow.name + "-renamed"
    request = {"vnfInstanceName": renamed, "metadata": {"owner": "team-b", "tier": None}}
    modified = ansible_task("vnf_modify", {"cloud": CLOUD, "vnf_instance_name": Flow.name, "request": request}, diff=True)
    assert not modified.get("failed"), modified.get("msg")
    assert modified["changed"] and modified["vnf_lcm_op_occ"]["operation"] == "MODIFY_INFO"
    assert modified["vnf_lcm_op_occ"]["operationState"] == "COMPLETED" and modified["diff"]["after"]["vnfInstanceName"] == renamed
    # The record is read back from the stack, by the new name (the stack's tag still names the old one).
    listed = ansible_task("vnf_info", {"cloud": CLOUD, "vnf_instance_name": renamed})["vnf_instances"]
    assert [(item["id"], item["vnfInstanceName"], item["metadata"].get("owner")) for item in listed] == [
        (Flow.result["vnf_instance"]["id"], renamed, "team-b")]
    # Written by signalling the record resource: no stack update, no other write.
    assert len(stack_updates(lab, stack_name)) == updates and admin_conn.orchestration.get_stack(stack_id).updated_at == updated_time
    assert all("/resources/vnflcm_record/signal" in line for line in heat_writes(lab, stack_name)[signals:])
    writes = len(heat_writes(lab, stack_name))
    again = ansible_task("vnf_modify", {"cloud": CLOUD, "vnf_instance_name": renamed, "request": request})
    assert not again.get("failed") and again["changed"] is False and again["api_calls"]["heat_write"] == 0, again.get("msg")
    assert len(heat_writes(lab, stack_name)) == writes
    refused = ansible_task("vnf_modify", {"cloud": CLOUD, "vnf_instance_name": renamed, "request": {"vnfdId": "another-vnfd"}})
    assert refused.get("failed") and "vnfdId" in refused["msg"] and "vnf_change_pkg" in refused["msg"]
    back = ansible_task("vnf_modify", {"cloud": CLOUD, "vnf_instance_name": renamed, "request": {"vnfInstanceName": Flow.name}})
    assert not back.get("failed") and back["vnf_instance"]["vnfInstanceName"] == Flow.name, back.get("msg")
    assert all("/resources/vnflcm_record/signal" in line for line in heat_writes(lab, stack_name)[writes:])
    assert len(stack_updates(lab, stack_name)) == updates


def test_scale_out_beyond_and_in(lab, admin_conn, ansible_task):
    stack_name = Flow.result["vnf_instance"]["instantiatedVnfInfo"]["metadata"]["stack_name"]
    base = {"cloud": CLOUD, "vnf_instance_name": Flow.name}
    out = ansible_task("vnf_scale", dict(base, request={"type": "SCALE_OUT", "aspectId": "VDU1_scale", "numberOfSteps": 1}))
    assert not out.get("failed"), out.get("msg")
    vdu1 = [item for item in servers_of(admin_conn, out).values() if item["vduId"] == "VDU1"]
    assert len(vdu1) == 2 and {item["metadata"]["stackResource"] for item in vdu1} == {"VDU1-0", "VDU1-1"}
    assert all(admin_conn.compute.get_server(item["computeResource"]["resourceId"]).status == "ACTIVE" for item in vdu1)
    assert out["vnf_instance"]["instantiatedVnfInfo"]["scaleStatus"][0]["scaleLevel"] == 1

    updates = len(stack_updates(lab, stack_name))
    beyond = ansible_task("vnf_scale", dict(base, request={"type": "SCALE_OUT", "aspectId": "VDU1_scale", "numberOfSteps": 2}))
    assert beyond.get("failed") and "numberOfSteps" in beyond["msg"]
    assert len(stack_updates(lab, stack_name)) == updates

    # Back in by scale to level (the same stack update a SCALE_IN makes): instantiation_level_1 puts VDU1_scale at 0.
    to_level = dict(base, request={"instantiationLevelId": "instantiation_level_1"})
    writes = len(heat_writes(lab, stack_name))
    planned = ansible_task("vnf_scale_to_level", to_level, check=True)
    assert not planned.get("failed"), planned.get("msg")
    assert planned["plan"]["to_levels"] == {"VDU1_scale": 0} and planned["plan"]["summary"]["removed"] == ["VDU1-1"]
    assert len(heat_writes(lab, stack_name)) == writes
    scale_in = ansible_task("vnf_scale_to_level", to_level)
    assert not scale_in.get("failed"), scale_in.get("msg")
    assert scale_in["vnf_lcm_op_occ"]["operation"] == "SCALE_TO_LEVEL" and scale_in["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    assert [item["changeType"] for item in scale_in["vnf_lcm_op_occ"]["resourceChanges"]["affectedVnfcs"]] == ["REMOVED"]
    assert scale_in["vnf_instance"]["instantiatedVnfInfo"]["scaleStatus"] == [{"aspectId": "VDU1_scale", "scaleLevel": 0}]
    left = [item for item in servers_of(admin_conn, scale_in).values() if item["vduId"] == "VDU1"]
    assert [item["metadata"]["stackResource"] for item in left] == ["VDU1-0"]
    newest = [item for item in vdu1 if item["metadata"]["stackResource"] == "VDU1-1"][0]["computeResource"]["resourceId"]
    assert server_gone(admin_conn, newest)
    # Absolute, so a re-run (here as per-aspect levels) is no change: no stack update, no Heat write.
    updates = len(stack_updates(lab, stack_name))
    again = ansible_task("vnf_scale_to_level", dict(base, request={"scaleInfo": [{"aspectId": "VDU1_scale", "scaleLevel": 0}]}))
    assert not again.get("failed") and again["changed"] is False and again["api_calls"]["heat_write"] == 0, again.get("msg")
    assert len(stack_updates(lab, stack_name)) == updates
    Flow.result = scale_in


def cp_config(subnet, fixed=None):
    address = {"type": "IPV4", "subnetId": subnet}
    address.update({"fixedAddresses": fixed} if fixed else {"numDynamicAddresses": 1})
    return {"cpProtocolData": [{"layerProtocol": "IP_OVER_ETHERNET", "ipOverEthernet": {"ipAddresses": [address]}}]}


@pytest.fixture
def full_network(admin_conn):
    """A network whose subnet has one address, already taken: a port Heat creates there fails in Neutron, mid-update."""
    network = admin_conn.network.create_network(name="extconn-full-" + uuid.uuid4().hex[:6])
    subnet = admin_conn.network.create_subnet(network_id=network.id, ip_version=4, cidr="10.12.0.0/29", gateway_ip="10.12.0.1",
                                              allocation_pools=[{"start": "10.12.0.2", "end": "10.12.0.2"}])
    taken = admin_conn.network.create_port(network_id=network.id, fixed_ips=[{"subnet_id": subnet.id}])
    yield network, subnet
    admin_conn.network.delete_port(taken)
    for port in admin_conn.network.ports(network_id=network.id):
        admin_conn.network.delete_port(port)
    admin_conn.network.delete_network(network)


def test_change_ext_conn_rolled_back_then_done_and_rerun(lab, admin_conn, ansible_task, full_network, tmp_path):
    info = Flow.result["vnf_instance"]["instantiatedVnfInfo"]
    stack_name = info["metadata"]["stack_name"]
    server_ids = sorted(servers_of(admin_conn, Flow.result))
    by_vdu = {item["vduId"]: item["computeResource"]["resourceId"] for item in info["vnfcResourceInfo"]}
    base = {"cloud": CLOUD, "vnf_instance_name": Flow.name, "wait_timeout": 600}
    network, subnet = full_network

    # Unknown CP: refused naming the field, before any write.
    writes = len(heat_writes(lab, stack_name))
    bad = ansible_task("vnf_change_ext_conn", dict(base, request={"extVirtualLinks": [
        {"id": "ext-net1", "resourceId": "net1", "extCps": [{"cpdId": "VDU9_CP1", "cpConfig": {"c1": cp_config("net1-subnet")}}]}]}))
    assert bad.get("failed") and "extVirtualLinks[0].extCps[0].cpdId" in bad["msg"], bad.get("msg")
    assert len(heat_writes(lab, stack_name)) == writes
    # A VIM connection to a Keystone other than the cloud's: refused naming the field and the Keystone in use, no write.
    moved = [{"id": "ext-net1", "resourceId": "net1", "extCps": [{"cpdId": "VDU1_CP1", "cpConfig": {"c1": cp_config("net1-subnet")}}]}]
    other_vim = {"vimConnectionInfo": vim_connection("https://keystone.example/v3"), "extVirtualLinks": moved}
    elsewhere = ansible_task("vnf_change_ext_conn", dict(base, request=other_vim))
    assert elsewhere.get("failed") and "vim1.interfaceInfo.endpoint: names https://keystone.example:443, but the module connects to " \
        + normalised_url(keystone_url(lab), keystone=True) + " (the cloud option" in elsewhere["msg"], elsewhere.get("msg")
    assert len(heat_writes(lab, stack_name)) == writes

    # VDU1's CP to net1 and VDU2's to a subnet with no free address: Neutron refuses the second port mid-update.
    failing = {"extVirtualLinks": [
        {"id": "ext-net1", "resourceId": "net1", "extCps": [{"cpdId": "VDU1_CP1", "cpConfig": {"c1": cp_config("net1-subnet")}}]},
        {"id": "ext-full", "resourceId": network.id, "extCps": [{"cpdId": "VDU2_CP1", "cpConfig": {"c2": cp_config(subnet.id)}}]}]}
    planned = ansible_task("vnf_change_ext_conn", dict(base, request=failing), check=True)
    assert not planned.get("failed"), planned.get("msg")
    assert [move["cp"] for move in planned["plan"]["moves"]] == ["VDU1_CP1-0", "VDU2_CP1-0"] and planned["plan"]["preview"]
    assert len(heat_writes(lab, stack_name)) == writes
    failed = ansible_task("vnf_change_ext_conn", dict(base, request=failing))
    assert failed.get("failed") and failed["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP", failed.get("msg")
    assert failed["vnf_lcm_op_occ"]["operation"] == "CHANGE_EXT_CONN" and "rollback" in failed["vnf_lcm_op_occ"]["_links"]
    rolled = op_occ(ansible_task, Flow.name, "rollback")
    assert not rolled.get("failed"), rolled.get("msg")
    assert rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK"
    assert [(move["cp"], move["to"]["network"]) for move in rolled["plan"]["moves"]] == [("VDU1_CP1-0", "net0"), ("VDU2_CP1-0", "net0")]
    assert sorted(servers_of(admin_conn, rolled)) == server_ids
    for server_id in server_ids:
        assert "net0" in ports_by_network(admin_conn, server_id) and "net1" not in ports_by_network(admin_conn, server_id)
    assert rolled["vnf_instance"]["instantiatedVnfInfo"]["extVirtualLinkInfo"][0]["id"] == "ext-net0"

    # VDU2's CP to net1 with a fixed address (outside the lab's dynamic range, so no port of another test holds it):
    # its port is replaced and re-attached, the servers stay.
    to_net1 = {"extVirtualLinks": [{"id": "ext-net1", "resourceId": "net1", "extCps": [
        {"cpdId": "VDU2_CP1", "cpConfig": {"c2": cp_config("net1-subnet", fixed=["10.11.0.201"])}}]}]}
    moved = ansible_task("vnf_change_ext_conn", dict(base, request=to_net1))
    assert not moved.get("failed") and moved["vnf_lcm_op_occ"]["operationState"] == "COMPLETED", moved.get("msg")
    assert_conforms(moved)
    assert sorted(servers_of(admin_conn, moved)) == server_ids
    assert ports_by_network(admin_conn, by_vdu["VDU2"]).count("net1") == 1 and "net0" not in ports_by_network(admin_conn, by_vdu["VDU2"])
    assert ports_by_network(admin_conn, by_vdu["VDU1"]).count("net0") == 1
    net1_port = [port for port in admin_conn.network.ports(device_id=by_vdu["VDU2"]) if port.network_id == admin_conn.network.find_network("net1").id][0]
    assert net1_port.fixed_ips[0]["subnet_id"] == admin_conn.network.find_subnet("net1-subnet").id
    # The package's VDU2 template reads the CP's subnet, not its address: the address is in the nfv parameter Heat keeps.
    nfv = stack_of(admin_conn, moved["vnf_instance"]["instantiatedVnfInfo"])["nfv"]
    assert nfv["CP"]["VDU2_CP1-0"] == {"network": "net1", "fixed_ips": [{"ip_address": "10.11.0.201", "subnet": "net1-subnet"}]}
    links = {link["id"]: link for link in moved["vnf_instance"]["instantiatedVnfInfo"]["extVirtualLinkInfo"]}
    assert sorted(links) == ["ext-net0", "ext-net1"] and net1_port.id in {port["resourceHandle"]["resourceId"] for port in links["ext-net1"]["extLinkPorts"]}
    assert [link["id"] for link in moved["vnf_lcm_op_occ"]["changedExtConnectivity"]] == ["ext-net0", "ext-net1"]

    # Again, through the role's playbook: nothing to do, no stack update, no hook.
    updates = len(stack_updates(lab, stack_name))
    driver = PlaybookDriver(tmp_path / "cli", {"cloud": CLOUD}, env={"OS_CLIENT_CONFIG_FILE": str(lab.clouds_yaml)})
    run = expect(driver.run("change_ext_conn", {"vnf_lifecycle_instance_name": Flow.name, "vnf_lifecycle_request": to_net1}))
    again = run.result("Change the external connectivity of the VNF instance")
    assert again["changed"] is False and again["api_calls"]["heat_write"] == 0 and "vnf_lcm_op_occ" not in again
    assert len(stack_updates(lab, stack_name)) == updates
    Flow.result = moved


def test_heal_vdu1_then_terminate(lab, admin_conn, ansible_task):
    base = {"cloud": CLOUD, "vnf_instance_name": Flow.name}
    info = Flow.result["vnf_instance"]["instantiatedVnfInfo"]
    vnfc = [item for item in info["vnfcInfo"] if item["vduId"] == "VDU1"][0]
    vdu2_before = [item for item in info["vnfcInfo"] if item["vduId"] == "VDU2"][0]["vnfcResourceInfoId"]
    healed = ansible_task("vnf_heal", dict(base, request={"vnfcInstanceId": [vnfc["id"]]}))
    assert not healed.get("failed"), healed.get("msg")
    after = healed["vnf_instance"]["instantiatedVnfInfo"]
    new_vdu1 = [item for item in after["vnfcResourceInfo"] if item["vduId"] == "VDU1"][0]["id"]
    assert new_vdu1 != vnfc["vnfcResourceInfoId"]
    assert admin_conn.compute.get_server(new_vdu1).status == "ACTIVE"
    assert server_gone(admin_conn, vnfc["vnfcResourceInfoId"])
    assert [item for item in after["vnfcResourceInfo"] if item["vduId"] == "VDU2"][0]["id"] == vdu2_before

    # Tacker v2's additionalParams.all: VDU2's VirtualStorage volume is replaced with its server.
    vdu2 = [item for item in after["vnfcResourceInfo"] if item["vduId"] == "VDU2"][0]
    old_volumes = vdu2["storageResourceIds"]
    assert old_volumes and admin_conn.block_storage.get_volume(old_volumes[0]).status == "in-use"
    vdu2_vnfc = [item for item in after["vnfcInfo"] if item["vduId"] == "VDU2"][0]["id"]
    with_storage = ansible_task("vnf_heal", dict(base, request={"vnfcInstanceId": [vdu2_vnfc], "additionalParams": {"all": True}}))
    assert not with_storage.get("failed"), with_storage.get("msg")
    assert "VDU2-0: replace volume {0} (VDU2-VirtualStorage)".format(old_volumes[0]) in with_storage["plan"]["lines"]
    after = with_storage["vnf_instance"]["instantiatedVnfInfo"]
    new_vdu2 = [item for item in after["vnfcResourceInfo"] if item["vduId"] == "VDU2"][0]
    assert new_vdu2["id"] != vdu2["id"] and admin_conn.compute.get_server(new_vdu2["id"]).status == "ACTIVE"
    assert new_vdu2["storageResourceIds"] and not set(new_vdu2["storageResourceIds"]) & set(old_volumes)
    assert [item["id"] for item in after["virtualStorageResourceInfo"]] == new_vdu2["storageResourceIds"]
    assert admin_conn.block_storage.get_volume(new_vdu2["storageResourceIds"][0]).status == "in-use"
    assert all(admin_conn.block_storage.find_volume(volume, ignore_missing=True) is None for volume in old_volumes)
    changes = with_storage["vnf_lcm_op_occ"]["resourceChanges"]["affectedVirtualStorages"]
    assert sorted((item["changeType"], item["id"]) for item in changes) == [("ADDED", new_vdu2["storageResourceIds"][0]), ("REMOVED", old_volumes[0])]
    assert [item for item in after["vnfcResourceInfo"] if item["vduId"] == "VDU1"][0]["id"] == new_vdu1

    stack_name = after["metadata"]["stack_name"]
    servers = [item["id"] for item in after["vnfcResourceInfo"]]
    ports = [port.id for server in servers for port in admin_conn.network.ports(device_id=server)]
    lab_nets = sorted(net.id for net in admin_conn.network.networks(name="net0")) + sorted(net.id for net in admin_conn.network.networks(name="net1"))
    # Deleting the identifier of an INSTANTIATED instance is refused (SOL003), and Heat gets no write.
    writes_before = len(heat_writes(lab, stack_name))
    refused = ansible_task("vnf_delete", base)
    assert refused.get("failed") is True and "terminate it first" in refused["msg"], refused.get("msg")
    assert len(heat_writes(lab, stack_name)) == writes_before and len(stacks_named(admin_conn, stack_name)) == 1
    # A terminate with bad input names the field and writes nothing.
    for request, field in (({"terminationType": "SOFT"}, "terminationType"),
                           ({"terminationType": "FORCEFUL", "gracefulTerminationTimeout": 30}, "gracefulTerminationTimeout")):
        bad = ansible_task("vnf_terminate", dict(base, request=request))
        assert bad.get("failed") is True and field in bad["msg"], bad.get("msg")
    assert len(heat_writes(lab, stack_name)) == writes_before and len(stacks_named(admin_conn, stack_name)) == 1
    done = ansible_task("vnf_terminate", dict(base, request={"terminationType": "GRACEFUL", "gracefulTerminationTimeout": 30}))
    assert not done.get("failed"), done.get("msg")
    assert done["vnf_instance"]["instantiationState"] == "NOT_INSTANTIATED"
    assert stacks_named(admin_conn, stack_name) == []
    assert all(server_gone(admin_conn, server) for server in servers)
    assert all(admin_conn.network.find_port(port) is None for port in ports)
    assert not [net for net in admin_conn.network.networks() if net.name.startswith(stack_name)]
    assert sorted(net.id for net in admin_conn.network.networks(name="net0")) + sorted(net.id for net in admin_conn.network.networks(name="net1")) == lab_nets
    again = ansible_task("vnf_terminate", base)
    assert again["changed"] is False and not again.get("failed")
    # The record lived in the stack: after the terminate, the identifier is already gone; nothing stays.
    deleted = ansible_task("vnf_delete", base)
    assert not deleted.get("failed") and deleted["changed"] is False and deleted["vnf_instance"] is None, deleted.get("msg")
    assert deleted["api_calls"]["heat_write"] == 0
    assert ansible_task("vnf_info", dict(base))["vnf_instances"] == []
    assert stacks_named(admin_conn, stack_name) == []


def test_level_2_with_managed_internal_vl(lab, admin_conn, ansible_task, package):
    name = "vnf-lcm-l2-" + uuid.uuid4().hex[:6]
    network = admin_conn.network.create_network(name=name + "-vl1")
    admin_conn.network.create_subnet(network_id=network.id, ip_version=4, cidr="192.168.33.0/24")
    request = copy.deepcopy(REQUEST)
    request["instantiationLevelId"] = "instantiation_level_2"
    request["extManagedVirtualLinks"] = [{"id": "mvl1", "vnfVirtualLinkDescId": "internalVL1", "resourceId": network.id}]
    try:
        result = instantiate(ansible_task, package, name, request)
        assert not result.get("failed"), result.get("msg")
        info = result["vnf_instance"]["instantiatedVnfInfo"]
        assert sorted(item["vduId"] for item in info["vnfcResourceInfo"]) == ["VDU1", "VDU1", "VDU2"]
        stack_name = info["metadata"]["stack_name"]
        own = sorted(net.name for net in admin_conn.network.networks() if net.name.startswith(stack_name))
        assert not [net for net in own if "-internalVL1-" in net] and len([net for net in own if "-internalVL2-" in net]) == 1
        on_vl1 = {port.device_id for port in admin_conn.network.ports(network_id=network.id)}
        assert on_vl1 == {item["id"] for item in info["vnfcResourceInfo"]}
        vl1 = [link for link in info["vnfVirtualLinkResourceInfo"] if link["vnfVirtualLinkDescId"] == "internalVL1"][0]
        assert vl1["networkResource"]["resourceId"] == network.id and len(vl1["vnfLinkPorts"]) == 3
    finally:
        done = ansible_task("vnf_terminate", {"cloud": CLOUD, "vnf_instance_name": name, "request": {"terminationType": "FORCEFUL"},
                                              "delete_instance": True})
        assert not done.get("failed"), done.get("msg")
        # The record went with the stack: the identifier is gone with the terminate.
        assert done["deleted"] == [] and ansible_task("vnf_info", {"cloud": CLOUD, "vnf_instance_name": name})["vnf_instances"] == []
        admin_conn.network.delete_network(network.id)


@pytest.mark.parametrize("change, field", [
    (lambda r: r.update(flavourId="nope"), "flavourId"),
    (lambda r: r["extVirtualLinks"][0]["extCps"][0].update(cpdId="VDU9_CP1"), "extVirtualLinks[0].extCps[0].cpdId"),
    (lambda r: r["extVirtualLinks"][0].update(resourceId="no-such-net"), "extVirtualLinks[0].resourceId"),
    (lambda r: r["extVirtualLinks"][0]["extCps"][1]["cpConfig"]["VDU2_CP1_1"]["cpProtocolData"][0]["ipOverEthernet"]["ipAddresses"][0].update(
        subnetId="no-such-subnet"), "subnetId"),
    (lambda r: r.update(additionalParams={"nfv": {"VDU": {"VDU1-0": {"vcImageId": "no-such-image"}}}}), "additionalParams.nfv.VDU.VDU1-0.vcImageId"),
    (lambda r: r.update(additionalParams={"nfv": {"VDU": {"VDU1-0": {"computeFlavourId": "no-such-flavor"}}}}),
     "additionalParams.nfv.VDU.VDU1-0.computeFlavourId: Nova flavor 'no-such-flavor' does not exist"),
    (lambda r: r.update(vimConnectionInfo=vim_connection("http://127.0.0.1:1/v3", password="p" * (1024 * 1024))),
     "request.vimConnectionInfo.vim1.accessInfo.password: is 1048576 characters long, more than the limit of 65536"),
    # One VIM per instance: a Keystone other than the cloud's (the module connects to the cloud option's).
    (lambda r: r.update(vimConnectionInfo=vim_connection("http://vim-user:url-pw@Keystone.example:5000/v3/")),
     "request.vimConnectionInfo.vim1.interfaceInfo.endpoint: names http://keystone.example:5000, but the module connects to http://127.0.0.1:"),
])
def test_bad_input_is_refused_before_any_stack(lab, admin_conn, ansible_task, package, change, field):
    request = copy.deepcopy(REQUEST)
    change(request)
    name = "vnf-lcm-bad-" + uuid.uuid4().hex[:6]
    result = instantiate(ansible_task, package, name, request)
    assert result.get("failed") and field in result["msg"], result.get("msg")
    assert "url-pw" not in result["msg"] and "vnf_lcm_op_occ" not in result, result
    # The stack is an instance's first write (its record is in it): none, no write.
    assert stacks_of_instance(admin_conn, name) == []


def vim_connection(endpoint, password="vim-password"):
    return {"vim1": {"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3", "interfaceInfo": {"endpoint": endpoint},
                     "accessInfo": {"username": "tacker", "password": password, "project": "admin", "region": "RegionOne"}}}


def test_missing_image_and_missing_basehot(lab, admin_conn, ansible_task, package, tmp_path):
    # A BaseHOT missing for the flavour: a copy of the package without BaseHOT/simple.
    import shutil
    copied = tmp_path / "userdata_standard"
    shutil.copytree(package, copied)
    shutil.rmtree(copied / "BaseHOT")
    names = ["vnf-lcm-bad-" + uuid.uuid4().hex[:6] for _attempt in range(2)]
    result = instantiate(ansible_task, str(copied), names[0], REQUEST)
    assert result.get("failed") and "flavourId" in result["msg"] and "BaseHOT" in result["msg"], result.get("msg")
    # An image Glance lacks, named by the VNFD.
    vnfd = copied / "Definitions" / "v2_sample3_df_simple.yaml"
    shutil.copytree(package + "/BaseHOT", copied / "BaseHOT")
    vnfd.write_text(vnfd.read_text().replace("name: cirros-0.5.2-x86_64-disk", "name: no-such-image-in-glance"))
    result = instantiate(ansible_task, str(copied), names[1], REQUEST)
    assert result.get("failed") and "VDU1.sw_image_data.name" in result["msg"], result.get("msg")
    assert [stacks_of_instance(admin_conn, name) for name in names] == [[], []]


def test_failed_create_is_failed_temp_with_heats_reason_then_rolled_back(lab, admin_conn, ansible_task, package):
    name = "vnf-lcm-fail-" + uuid.uuid4().hex[:6]
    request = copy.deepcopy(REQUEST)
    # A subnet of another network, given through additionalParams.nfv (not checked up front): Neutron refuses the port.
    request["additionalParams"] = {"nfv": {"CP": {"VDU2_CP1-0": {"fixed_ips": [{"subnet": "net1-subnet"}]}}}}
    result = instantiate(ansible_task, package, name, request)
    assert result.get("failed")
    occ = result["vnf_lcm_op_occ"]
    assert occ["operationState"] == "FAILED_TEMP"
    assert "Failed to create stack" in occ["error"]["detail"] and "VDU2_CP1" in occ["error"]["detail"], occ["error"]
    # The FAILED_TEMP op occ and the instance as recorded with it.
    assert assert_conforms(result) == 2 and sorted(occ["_links"]) == ["fail", "retry", "rollback", "self", "vnfInstance"]
    assert result["vnf_instance"]["id"] == occ["vnfInstanceId"]
    listed = ansible_task("vnf_info", {"cloud": CLOUD, "vnf_instance_name": name})
    assert_conforms(listed)
    assert [item["operationState"] for item in listed["vnf_lcm_op_occs"]] == ["FAILED_TEMP"]
    stack_name = "vnf-" + occ["vnfInstanceId"]
    assert len(stacks_named(admin_conn, stack_name)) == 1
    # vnf_lcm_op_occ on OpenStack: rollback deletes the stack (and the record it holds).
    done = ansible_task("vnf_lcm_op_occ", {"cloud": CLOUD, "vnf_instance_name": name, "action": "rollback"})
    assert done.get("failed") is not True, done.get("msg")
    assert done["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK" and done["vim_type"] == "openstack"
    assert_conforms(done)
    assert stacks_named(admin_conn, stack_name) == []
