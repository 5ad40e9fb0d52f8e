# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tacker's DefaultUserData packages on the tier-2 lab: VDU1 is an OS::Heat::AutoScalingGroup, VDU2 a plain server.

basic_lcms_min: instantiate at level 2 (three VDU1 members), scale in (the newest member goes), scale out, heal one
member (a new server, the others kept), terminate (no server left); a scale in and a heal whose module is killed while
Heat updates, retried; the change of package, member by member. basic_lcms_max: instantiate at level 1 with a
fixed address on VDU2_CP2 (after a create that fails in Nova, rolled back), then ChangeExtVnfConnectivity gives that
port another fixed address (servers kept).
"""

from __future__ import annotations

import copy
import fcntl
import io
import os
import random
import re
import uuid

import pytest
import yaml

from ansible_collections.nfv.vnflcm.tests.integration.faults import wait_for
from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import (
    CLOUD,
    change,
    cp_config,
    first_vnfc_changed,
    heat_log_lines,
    heat_writes,
    info_of,
    instantiate,
    kill_when,
    net0_ports,
    repackaged,
    server_gone,
    stack_of,
    stack_updates,
    stacks_named,
    stacks_of_instance,
    vdu2_cp2,
    vnfd_id,
)

pytestmark = pytest.mark.tier2

# basic_lcms_max's VDU1 boots from a volume of this image (the other images are the ones userdata_standard names).
VOLUME_IMAGE = "VDU1-VirtualStorage-image"


@pytest.fixture(scope="module")
def volume_image(lab, admin_conn):
    if admin_conn.image.find_image(VOLUME_IMAGE) is None:
        admin_conn.image.create_image(name=VOLUME_IMAGE, disk_format="raw", container_format="bare", visibility="public",
                                      data=io.BytesIO(b"\0" * 1024))


def vdu_servers(result, vdu_id):
    """Server ids of a VDU's VNFCs, oldest member first."""
    items = [item for item in info_of(result)["vnfcResourceInfo"] if item["vduId"] == vdu_id]
    return [item["computeResource"]["resourceId"] for item in sorted(items, key=lambda item: item["metadata"]["index"])]


def member_of(conn, stack_name, server_id, mark=None):
    """The scaling group member (a resource of the group's nested stack) that holds server ``server_id``, marked
    unhealthy with the reason ``mark`` when given (as the module marks the members a scale in removes)."""
    stack = conn.orchestration.find_stack(stack_name)
    resources = conn.orchestration.get("/stacks/{0}/{1}/resources?nested_depth=2".format(stack.name, stack.id)).json()["resources"]
    owner = [item["parent_resource"] for item in resources if item["physical_resource_id"] == server_id][0]
    member = [item for item in resources if item["resource_name"] == owner][0]
    if mark:
        href = [link["href"] for link in member["links"] if link["rel"] == "stack"][0]
        url = "/stacks/" + href.split("/stacks/", 1)[1] + "/resources/" + owner
        response = conn.orchestration.patch(url, json={"mark_unhealthy": True, "resource_status_reason": mark})
        assert response.status_code == 200, response.text
    return member


def stack_ports_and_volumes(conn, stack_name):
    """Ids of the ports and volumes the stack's resources (nested included) hold."""
    stack = conn.orchestration.find_stack(stack_name)
    resources = conn.orchestration.get("/stacks/{0}/{1}/resources?nested_depth=2".format(stack.name, stack.id)).json()["resources"]
    return ([item["physical_resource_id"] for item in resources if item["resource_type"] == "OS::Neutron::Port"],
            [item["physical_resource_id"] for item in resources if item["resource_type"] == "OS::Cinder::Volume"])


def terminate(ansible_task, base):
    """vnf_terminate, after failing the op occ a test that stopped half-way may have left FAILED_TEMP (which blocks it)."""
    gone = ansible_task("vnf_terminate", dict(base, request={"terminationType": "FORCEFUL"}, delete_instance=True))
    if gone.get("failed"):
        ansible_task("vnf_lcm_op_occ", dict(base, action="fail"))
        gone = ansible_task("vnf_terminate", dict(base, request={"terminationType": "FORCEFUL"}, delete_instance=True))
    return gone


def test_min_package_scales_heals_and_terminates_through_its_scaling_group(lab, admin_conn, ansible_task, tacker_packages):
    name = "vnf-asg-" + uuid.uuid4().hex[:6]
    package = os.path.join(tacker_packages, "basic_lcms_min")
    base = {"cloud": CLOUD, "vnf_instance_name": name, "wait_timeout": 600}
    request = {"flavourId": "simple", "instantiationLevelId": "instantiation_level_2"}
    # A package user-data script other than Tacker's own class of this form is refused before anything is written.
    scripted = dict(request, additionalParams={"lcm-operation-user-data": "./UserData/mine.py", "lcm-operation-user-data-class": "MyUserData"})
    refused = instantiate(ansible_task, package, name, scripted)
    assert refused.get("failed") and "additionalParams.lcm-operation-user-data: './UserData/mine.py'" in refused["msg"], refused.get("msg")
    planned = instantiate(ansible_task, package, name, request, check=True)
    assert not planned.get("failed") and planned["changed"], planned.get("msg")
    assert "VDU1_scale_group: create (OS::Heat::AutoScalingGroup)" in planned["plan"]["lines"]
    assert planned["plan"]["nfv"]["VDU"]["VDU1"]["desired_capacity"] == 3
    assert stacks_of_instance(admin_conn, name) == []
    try:
        done = instantiate(ansible_task, package, name, request)
        assert not done.get("failed"), done.get("msg")
        info = info_of(done)
        stack_name = info["metadata"]["stack_name"]
        vdu1, vdu2 = vdu_servers(done, "VDU1"), vdu_servers(done, "VDU2")
        assert len(vdu1) == 3 and len(vdu2) == 1
        assert {item["metadata"].get("scalingGroup") for item in info["vnfcResourceInfo"]} == {"VDU1_scale_group", None}
        assert all(admin_conn.compute.get_server(server).status == "ACTIVE" for server in vdu1 + vdu2)
        assert info["scaleStatus"] == [{"aspectId": "VDU1_scale", "scaleLevel": 2}]

        # The same request again: nothing to do, no Heat write.
        writes = len(heat_writes(lab, stack_name))
        again = instantiate(ansible_task, package, name, request)
        assert not again.get("failed") and again["changed"] is False, again.get("msg")
        assert len(heat_writes(lab, stack_name)) == writes

        # Scale in: the newest member goes (marked unhealthy, then the group shrinks), in one stack update.
        updates = len(stack_updates(lab, stack_name))
        scale = dict(base, request={"type": "SCALE_IN", "aspectId": "VDU1_scale", "numberOfSteps": 1})
        planned = ansible_task("vnf_scale", scale, check=True)
        assert not planned.get("failed"), planned.get("msg")
        assert planned["plan"]["lines"][0] == "VDU1_scale_group: desired_capacity 3 -> 2"
        assert planned["plan"]["lines"][1].endswith("(server {0})".format(vdu1[-1]))
        scaled_in = ansible_task("vnf_scale", scale)
        assert not scaled_in.get("failed"), scaled_in.get("msg")
        assert vdu_servers(scaled_in, "VDU1") == vdu1[:2] and server_gone(admin_conn, vdu1[-1])
        assert vdu_servers(scaled_in, "VDU2") == vdu2
        assert len(stack_updates(lab, stack_name)) == updates + 1
        assert [item["changeType"] for item in scaled_in["vnf_lcm_op_occ"]["resourceChanges"]["affectedVnfcs"]] == ["REMOVED"]

        # A scale in killed between its marks and its update leaves a member marked: the next update takes the mark
        # back (here a scale out), so Heat does not re-create that member.
        member_of(admin_conn, stack_name, vdu1[0], mark="removed by nfv.vnflcm (scale in)")
        # Scale out: a new member, the others kept.
        scaled_out = ansible_task("vnf_scale", dict(base, request={"type": "SCALE_OUT", "aspectId": "VDU1_scale", "numberOfSteps": 1}))
        assert not scaled_out.get("failed"), scaled_out.get("msg")
        now = vdu_servers(scaled_out, "VDU1")
        assert len(now) == 3 and now[:2] == vdu1[:2] and now[2] not in vdu1
        assert info_of(scaled_out)["scaleStatus"] == [{"aspectId": "VDU1_scale", "scaleLevel": 2}]

        # Heal the oldest member: Heat re-creates that member only; its VNFC record follows the new server.
        oldest = [item for item in info_of(scaled_out)["vnfcInfo"] if item["vnfcResourceInfoId"] == now[0]][0]
        healed = ansible_task("vnf_heal", dict(base, request={"vnfcInstanceId": [oldest["id"]]}))
        assert not healed.get("failed"), healed.get("msg")
        after = vdu_servers(healed, "VDU1")
        assert now[0] not in after and set(now[1:]) <= set(after) and len(after) == 3 and server_gone(admin_conn, now[0])
        assert vdu_servers(healed, "VDU2") == vdu2
        changes = {item["changeType"] for item in healed["vnf_lcm_op_occ"]["resourceChanges"]["affectedVnfcs"]}
        assert changes == {"ADDED", "REMOVED"}
    finally:
        gone = terminate(ansible_task, base)
    assert not gone.get("failed"), gone.get("msg")
    assert stacks_named(admin_conn, stack_name) == []
    assert all(server_gone(admin_conn, server) for server in after + vdu2)


def updating(admin_conn, stack_name):
    return admin_conn.orchestration.find_stack(stack_name).status == "UPDATE_IN_PROGRESS"


def group_servers(admin_conn, stack_name):
    """Server ids of the stack's VDU1 scaling group members, as Heat has them now (the update settled)."""
    stack = admin_conn.orchestration.find_stack(stack_name)
    resources = admin_conn.orchestration.get("/stacks/{0}/{1}/resources?nested_depth=2".format(stack.name, stack.id)).json()["resources"]
    return sorted(item["physical_resource_id"] for item in resources
                  if item["resource_type"] == "OS::Nova::Server" and item["resource_name"] == "VDU1" and item["physical_resource_id"])


def test_min_package_scale_in_and_heal_killed_while_heat_updates_are_retried(lab, admin_conn, ansible_task, tacker_packages):
    name = "vnf-asgk-" + uuid.uuid4().hex[:6]
    package = os.path.join(tacker_packages, "basic_lcms_min")
    base = {"cloud": CLOUD, "vnf_instance_name": name, "wait_timeout": 600}
    try:
        done = instantiate(ansible_task, package, name, {"flavourId": "simple", "instantiationLevelId": "instantiation_level_2"})
        assert not done.get("failed"), done.get("msg")
        stack_name = info_of(done)["metadata"]["stack_name"]
        vdu1 = vdu_servers(done, "VDU1")

        # Scale in, the module killed once Heat updates: the retry ends it; the newest member is the one gone.
        task = ansible_task("vnf_scale", dict(base, request={"type": "SCALE_IN", "aspectId": "VDU1_scale"}), background=True)
        occ = kill_when(admin_conn, stack_name, lambda _instance: updating(admin_conn, stack_name))
        task.wait()
        retried = ansible_task("vnf_lcm_op_occ", dict(base, action="retry"))
        assert not retried.get("failed"), retried.get("msg")
        assert (retried["vnf_lcm_op_occ"]["id"], retried["vnf_lcm_op_occ"]["operationState"]) == (occ["id"], "COMPLETED")
        assert vdu_servers(retried, "VDU1") == vdu1[:2] and server_gone(admin_conn, vdu1[2])
        assert info_of(retried)["scaleStatus"] == [{"aspectId": "VDU1_scale", "scaleLevel": 1}]

        # Heal of the oldest member, killed once Heat updates: the retry marks nothing more (that server is gone) and
        # ends the update; the member Heat re-created is kept, the other member untouched.
        oldest = [item["id"] for item in info_of(retried)["vnfcInfo"] if item["vnfcResourceInfoId"] == vdu1[0]]
        task = ansible_task("vnf_heal", dict(base, request={"vnfcInstanceId": oldest}), background=True)
        occ = kill_when(admin_conn, stack_name, lambda _instance: updating(admin_conn, stack_name))
        task.wait()
        wait_for(lambda: not updating(admin_conn, stack_name), "the heal's stack update to end", timeout=300, sleep=1)
        recreated = group_servers(admin_conn, stack_name)
        assert vdu1[0] not in recreated and vdu1[1] in recreated and len(recreated) == 2
        healed = ansible_task("vnf_lcm_op_occ", dict(base, action="retry"))
        assert not healed.get("failed"), healed.get("msg")
        assert (healed["vnf_lcm_op_occ"]["id"], healed["vnf_lcm_op_occ"]["operationState"]) == (occ["id"], "COMPLETED")
        assert sorted(vdu_servers(healed, "VDU1")) == recreated and group_servers(admin_conn, stack_name) == recreated
    finally:
        gone = terminate(ansible_task, base)
    assert not gone.get("failed"), gone.get("msg")
    assert stacks_named(admin_conn, stack_name) == []


@pytest.fixture
def vdu2_ports(admin_conn):
    """The two ports Tacker's requests give VDU2_CP1-1 and VDU2_CP1-2 (extLinkPorts), deleted at the end."""
    with net0_ports(admin_conn, "asg-lp", 2) as ports:
        yield ports


def test_max_package_fixed_address_changed_by_change_ext_conn(lab, admin_conn, ansible_task, tacker_packages, volume_image, vdu2_ports):
    name = "vnf-asgx-" + uuid.uuid4().hex[:6]
    package = os.path.join(tacker_packages, "basic_lcms_max")
    base = {"cloud": CLOUD, "vnf_instance_name": name, "wait_timeout": 600}
    # Addresses of its own in net1's range kept out of its allocation pool (10.11.0.200-254; another test takes .201).
    first, second = ("10.11.0.{0}".format(host) for host in random.sample(range(210, 255), 2))
    net0_link = {"id": "ext-net0", "resourceId": "net0",
                 "extLinkPorts": [{"id": "lp1", "resourceHandle": {"resourceId": vdu2_ports[0]}},
                                  {"id": "lp2", "resourceHandle": {"resourceId": vdu2_ports[1]}}],
                 "extCps": [{"cpdId": "VDU1_CP1", "cpConfig": {"VDU1_CP1_1": cp_config("net0-subnet")}},
                            {"cpdId": "VDU2_CP1-1", "cpConfig": {"VDU2_CP1-1_1": {"linkPortId": "lp1"}}},
                            {"cpdId": "VDU2_CP1-2", "cpConfig": {"VDU2_CP1-2_1": {"linkPortId": "lp2"}}}]}
    net1_link = {"id": "ext-net1", "resourceId": "net1",
                 "extCps": [{"cpdId": "VDU1_CP2", "cpConfig": {"VDU1_CP2_1": cp_config("net1-subnet")}}, vdu2_cp2(first)]}
    request = {"flavourId": "simple", "instantiationLevelId": "instantiation_level_1", "extVirtualLinks": [net0_link, net1_link]}
    # A zone Nova does not have (given through additionalParams.nfv, not checked up front): the create fails in Heat,
    # the op occ is FAILED_TEMP with Heat's reason, and the rollback deletes the stack. Both VDUs get it, so that Nova
    # refuses both servers before it reserves their boot volumes: with one VDU refused, the other's boot from volume was
    # cut short by the failed create now and then, and Nova left its volume "reserved" for a server it no longer had,
    # which Cinder never lets be deleted (the rollback failed, and the VDU1-multi volume type it kept failed the next
    # basic_lcms_max VNF).
    zone = {"locationConstraints": "no-such-zone"}
    failing = dict(request, additionalParams={"nfv": {"VDU": {"VDU1": zone, "VDU2": zone}}})
    failed = instantiate(ansible_task, package, name, failing)
    assert failed.get("failed") and failed["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP", failed.get("msg")
    detail = failed["vnf_lcm_op_occ"]["error"]["detail"]
    assert "availability zone" in detail and ("VDU1" in detail or "VDU2" in detail), failed["vnf_lcm_op_occ"]["error"]
    rolled = ansible_task("vnf_lcm_op_occ", dict(base, action="rollback"))
    assert not rolled.get("failed") and rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK", rolled.get("msg")
    assert stacks_of_instance(admin_conn, name) == []
    try:
        done = instantiate(ansible_task, package, name, request)
        assert not done.get("failed"), done.get("msg")
        stack_name = info_of(done)["metadata"]["stack_name"]
        vdu1, vdu2 = vdu_servers(done, "VDU1"), vdu_servers(done, "VDU2")
        assert len(vdu1) == 1 and len(vdu2) == 1
        net1 = admin_conn.network.find_network("net1")

        def vdu2_net1_addresses():
            return sorted(address["ip_address"] for port in admin_conn.network.ports(device_id=vdu2[0], network_id=net1.id)
                          for address in port.fixed_ips)

        assert first in vdu2_net1_addresses()
        assert sorted(port.id for port in admin_conn.network.ports(device_id=vdu2[0]) if port.id in vdu2_ports) == sorted(vdu2_ports)

        # ChangeExtVnfConnectivity: VDU2_CP2 gets another fixed address; one stack update, the servers stay.
        updates = len(stack_updates(lab, stack_name))
        changed_link = copy.deepcopy(net1_link)
        changed_link["extCps"][1] = vdu2_cp2(second)
        moved = ansible_task("vnf_change_ext_conn", dict(base, request={"extVirtualLinks": [changed_link]}))
        assert not moved.get("failed") and moved["vnf_lcm_op_occ"]["operationState"] == "COMPLETED", moved.get("msg")
        assert [move["cp"] for move in moved["plan"]["moves"]] == ["VDU2_CP2"]
        # The port keeps two addresses: Neutron gives the dynamic entry (a subnet only) the address the port already
        # has on that subnet, so the old fixed one stays as the dynamic one.
        assert second in vdu2_net1_addresses() and len(vdu2_net1_addresses()) == 2
        nfv = stack_of(admin_conn, info_of(moved))["nfv"]
        assert nfv["CP"]["VDU2_CP2"]["fixed_ips"] == [{"ip_address": second, "subnet": "net1-subnet"}, {"subnet": "net1-subnet"}]
        assert vdu_servers(moved, "VDU1") == vdu1 and vdu_servers(moved, "VDU2") == vdu2
        assert len(stack_updates(lab, stack_name)) == updates + 1
        owned_ports, volumes = stack_ports_and_volumes(admin_conn, stack_name)
        assert len(volumes) == 2 and not set(vdu2_ports) & set(owned_ports)
    finally:
        gone = terminate(ansible_task, base)
    assert not gone.get("failed"), gone.get("msg")
    # Nothing of the stack is left in Nova, Neutron or Cinder; the ports the request gave (extLinkPorts) stay.
    assert stacks_named(admin_conn, stack_name) == [] and server_gone(admin_conn, vdu1[0]) and server_gone(admin_conn, vdu2[0])
    assert [port for port in owned_ports if admin_conn.network.find_port(port)] == []
    assert [volume for volume in volumes if admin_conn.block_storage.find_volume(volume)] == []
    assert all(admin_conn.network.find_port(port) for port in vdu2_ports)


# A flavour with m1.tiny's disk and more memory: Nova checks a rebuild's image against the disk of the flavour the
# server had before Heat's resize, so a resize to a larger disk and a new image in one update fail there.
UPGRADE_FLAVOR = ("m1.tiny.2g", 1, 2048, 1)


@pytest.fixture(scope="module")
def vdu1_upgrade_package(admin_conn, tacker_packages, tmp_path_factory):
    """basic_lcms_min with a vnfdId of its own, VDU1 on a larger flavour and booted from the image cirros (VDU2 as it was)."""
    name, vcpus, ram, disk = UPGRADE_FLAVOR
    lock = tmp_path_factory.getbasetemp().parent / "flavor.lock"
    with open(lock, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        if admin_conn.compute.find_flavor(name) is None:
            admin_conn.compute.create_flavor(name=name, vcpus=vcpus, ram=ram, disk=disk, is_public=True)
    path = repackaged(os.path.join(tacker_packages, "basic_lcms_min"), tmp_path_factory.mktemp("pkg") / "basic_lcms_min_vdu1_up")
    df = path / "Definitions" / "v2_sample2_df_simple.yaml"
    head, rest = df.read_text().split("    VDU2:\n", 1)
    head = head.replace("name: cirros-0.5.2-x86_64-disk", "name: cirros", 1)
    head = head.replace("requested_additional_capability_name: m1.tiny", "requested_additional_capability_name: " + name, 1)
    df.write_text(head + "    VDU2:\n" + rest)
    return str(path)


def member_hook(path, fail_for, fault, log):
    """A coordination hook that logs each call and fails for the member ``fail_for`` while ``fault`` exists."""
    line = "{{ vnflcm_coordination.vnfc.resource }} {{ vnflcm_coordination.vnfc.vdu_id }} rollback={{ vnflcm_coordination.rollback }}"
    tasks = [{"name": "log the call", "ansible.builtin.lineinfile": {"path": str(log), "create": True, "line": line}},
             {"name": "look for the fault", "ansible.builtin.stat": {"path": str(fault)}, "register": "fault"},
             {"name": "fail for one member while the fault is there", "ansible.builtin.fail": {"msg": "member coordination refused"},
              "when": "fault.stat.exists and vnflcm_coordination.vnfc.resource == '{0}'".format(fail_for)}]
    path.write_text(yaml.safe_dump(tasks))
    return str(path)


def group_stack_updates(lab, stack_name):
    """PATCHes Heat logged for the nested stack of the stack's scaling group VDU1_scale_group (named after the stack)."""
    pattern = re.compile(r'"PATCH /v1/[^/]+/stacks/{0}-VDU1_scale_group-[a-z0-9]+/'.format(re.escape(stack_name)))
    return [line for line in heat_log_lines(lab, "/stacks/{0}-VDU1_scale_group-".format(stack_name)) if pattern.search(line)]


def flavours_and_images(conn, server_ids):
    found = [conn.compute.get_server(server) for server in server_ids]
    return [(server.flavor["original_name"], conn.image.get_image(server.image["id"]).name, server.status) for server in found]


def test_min_package_change_rolls_the_group_members_one_at_a_time(lab, admin_conn, ansible_task, tacker_packages, vdu1_upgrade_package, tmp_path):
    name = "vnf-asgc-" + uuid.uuid4().hex[:6]
    package = os.path.join(tacker_packages, "basic_lcms_min")
    base = {"cloud": CLOUD, "vnf_instance_name": name, "wait_timeout": 600}
    fault, log = tmp_path / "fault", tmp_path / "calls.log"
    try:
        done = instantiate(ansible_task, package, name, {"flavourId": "simple", "instantiationLevelId": "instantiation_level_2"})
        assert not done.get("failed"), done.get("msg")
        before = info_of(done)
        stack_name = before["metadata"]["stack_name"]
        vdu1, vdu2 = vdu_servers(done, "VDU1"), vdu_servers(done, "VDU2")
        members = [item["metadata"]["stackResource"] for item in sorted((item for item in before["vnfcResourceInfo"] if item["vduId"] == "VDU1"),
                                                                        key=lambda item: item["metadata"]["index"])]
        old = ("m1.tiny", "cirros-0.5.2-x86_64-disk", "ACTIVE")
        assert flavours_and_images(admin_conn, vdu1 + vdu2) == [old] * 4
        stack_before = stack_of(admin_conn, before)
        hooks = {"lcm-operation-coordinate-new-vnf": member_hook(tmp_path / "new.yml", members[1], fault, log),
                 "lcm-operation-coordinate-old-vnf": member_hook(tmp_path / "old.yml", None, fault, log)}
        request = {"vnfdId": vnfd_id(vdu1_upgrade_package),
                   "additionalParams": dict(hooks, upgrade_type="RollingUpdate", vdu_params=[{"vdu_id": "VDU1"}])}

        # VDU2 named alone leaves VDU1, which the new package changes, to the last update, as Tacker does: the plan says so.
        writes = len(heat_writes(lab, stack_name))
        only_vdu2 = dict(request["additionalParams"], vdu_params=[{"vdu_id": "VDU2"}])
        warned = change(ansible_task, vdu1_upgrade_package, name, dict(request, additionalParams=only_vdu2), check=True)
        assert not warned.get("failed") and warned["changed"], warned.get("msg")
        assert any(warning.startswith("VDU1 (not in vdu_params) changes with the new package: the last update changes it")
                   for warning in warned["plan"]["warnings"]), warned["plan"]
        # Check mode: one step per member, then the whole stack; Heat's preview; nothing written.
        planned = change(ansible_task, vdu1_upgrade_package, name, request, check=True)
        assert not planned.get("failed") and planned["changed"], planned.get("msg")
        assert [step["vnfc"] for step in planned["plan"]["steps"]] == members and planned["plan"]["updates"] == 4
        assert len(heat_writes(lab, stack_name)) == writes

        # The hook refuses the second member: FAILED_TEMP after two members moved, the third untouched.
        fault.write_text("on")
        failed = change(ansible_task, vdu1_upgrade_package, name, request)
        assert failed.get("failed") and "member coordination refused" in failed["msg"], failed.get("msg")
        assert failed["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP"
        assert [step["vnfc"] for step in failed["progress"]["steps"]] == members[:2]
        new = (UPGRADE_FLAVOR[0], "cirros", "ACTIVE")
        assert flavours_and_images(admin_conn, vdu1 + vdu2) == [new, new, old, old]
        rolled = ansible_task("vnf_lcm_op_occ", dict(base, action="rollback"))
        assert not rolled.get("failed") and rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK", rolled.get("msg")
        # The old-VNF hook ran for each member going back, the last moved first.
        calls = [line.split()[0] + " " + line.split()[2] for line in log.read_text().splitlines()]
        assert calls == [members[0] + " rollback=False", members[1] + " rollback=False",
                         members[1] + " rollback=True", members[0] + " rollback=True"]
        assert flavours_and_images(admin_conn, vdu1 + vdu2) == [old] * 4
        assert stack_of(admin_conn, before) == stack_before
        assert info_of(rolled)["vnfcResourceInfo"] == before["vnfcResourceInfo"]
        assert rolled["vnf_instance"]["vnfdId"] == done["vnf_instance"]["vnfdId"]

        # Done again without the fault: a PATCH of the group's stack per member, then one of the whole stack; servers kept.
        fault.unlink()
        updates = len(stack_updates(lab, stack_name))
        nested = len(group_stack_updates(lab, stack_name))
        stack = admin_conn.orchestration.find_stack(stack_name)
        seen = {event.id for event in admin_conn.orchestration.stack_events(stack, nested_depth=3)}
        changed = change(ansible_task, vdu1_upgrade_package, name, request)
        assert not changed.get("failed") and changed["vnf_lcm_op_occ"]["operationState"] == "COMPLETED", changed.get("msg")
        assert (len(stack_updates(lab, stack_name)) - updates, len(group_stack_updates(lab, stack_name)) - nested) == (1, 3)
        assert vdu_servers(changed, "VDU1") == vdu1 and vdu_servers(changed, "VDU2") == vdu2
        assert flavours_and_images(admin_conn, vdu1 + vdu2) == [new, new, new, old]
        assert changed["vnf_instance"]["vnfdId"] == request["vnfdId"]
        modified = sorted(item["id"] for item in changed["vnf_lcm_op_occ"]["resourceChanges"]["affectedVnfcs"] if item["changeType"] == "MODIFIED")
        assert modified == sorted(vdu1)
        events = [event for event in admin_conn.orchestration.stack_events(stack, nested_depth=3) if event.id not in seen]
        updated = {event.resource_name for event in events if event.resource_status.startswith("UPDATE")}
        assert "VDU1" in updated and "VDU2" not in updated and "VDU2_CP1" not in updated, sorted(updated)

        # The same change again: nothing to do, no Heat write.
        writes = len(heat_writes(lab, stack_name))
        again = change(ansible_task, vdu1_upgrade_package, name, request)
        assert not again.get("failed") and again["changed"] is False, again.get("msg")
        assert len(heat_writes(lab, stack_name)) == writes

        # Back to the first package, the module killed once the first member is moved: the retry goes on to the end.
        back = {"vnfdId": done["vnf_instance"]["vnfdId"], "additionalParams": {"upgrade_type": "RollingUpdate", "vdu_params": [{"vdu_id": "VDU1"}]}}
        task = change(ansible_task, package, name, back, background=True)
        occ = kill_when(admin_conn, stack_name, first_vnfc_changed)
        task.wait()
        assert flavours_and_images(admin_conn, vdu1 + vdu2)[0] == old
        retried = ansible_task("vnf_lcm_op_occ", dict(base, action="retry"))
        assert not retried.get("failed"), retried.get("msg")
        assert (retried["vnf_lcm_op_occ"]["id"], retried["vnf_lcm_op_occ"]["operationState"]) == (occ["id"], "COMPLETED")
        assert flavours_and_images(admin_conn, vdu1 + vdu2) == [old] * 4
        assert vdu_servers(retried, "VDU1") == vdu1 and retried["vnf_instance"]["vnfdId"] == back["vnfdId"]
        assert stack_of(admin_conn, info_of(retried)) == stack_before
    finally:
        gone = terminate(ansible_task, base)
    assert not gone.get("failed"), gone.get("msg")
    assert all(server_gone(admin_conn, server) for server in vdu1 + vdu2)
