# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the tier-2 tests of VM-based VNFs share: the base request, Heat's request log, Nova and Neutron reads.

Their fixtures (``lab``, ``package``) are in conftest.py.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import re
import shutil
import signal
import time
import uuid

import yaml

from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import RECORD_RESOURCE, name_tag
from ansible_collections.nfv.vnflcm.tests.integration.faults import wait_for

CLOUD = "nfvlab-admin"
OLD = "userdata_standard"
NEW = "userdata_standard_change_vnfpkg_nw"
# The seed's scale-up case changes only VDU2's flavour: VDU2's volume keeps the image it has (the new
# package names another one, which would re-create the volume and so the server).
KEEP_VOLUME_IMAGE = {"VDU": {"VDU2-VirtualStorage-0": {"vcImageId": "VDU2-VirtualStorage-image"}}}


def ip_config(subnet=None):
    address = {"type": "IPV4", "numDynamicAddresses": 1}
    if subnet:
        address["subnetId"] = subnet
    return {"cpProtocolData": [{"layerProtocol": "IP_OVER_ETHERNET", "ipOverEthernet": {"ipAddresses": [address]}}]}


# Done when 1: VDU1_CP1 and VDU2_CP1 on net0, VDU2_CP1 with a fixed subnet.
REQUEST = {
    "flavourId": "simple",
    "instantiationLevelId": "instantiation_level_1",
    "extVirtualLinks": [{
        "id": "ext-net0",
        "resourceId": "net0",
        "extCps": [
            {"cpdId": "VDU1_CP1", "cpConfig": {"VDU1_CP1_1": ip_config()}},
            {"cpdId": "VDU2_CP1", "cpConfig": {"VDU2_CP1_1": ip_config(subnet="net0-subnet")}},
        ],
    }],
}


def heat_log_lines(lab, text):
    """The lines of Heat's request log that contain ``text``, in order.

    The log holds every request of the lab's run (tens of MB by the end of a suite), and the tests ask it hundreds of
    times: the text is found by substring search over the bytes, and only the lines it is on are decoded.
    """
    log = (lab.state_dir / "log" / "heat.log").read_bytes()
    needle, lines, at = text.encode(), [], 0
    while True:
        found = log.find(needle, at)
        if found < 0:
            return lines
        start, end = log.rfind(b"\n", 0, found) + 1, log.find(b"\n", found)
        end = len(log) if end < 0 else end
        lines.append(log[start:end].decode(errors="replace"))
        at = end


def heat_writes(lab, stack_name):
    """Writes (POST/PATCH/PUT/DELETE) Heat logged for one stack: Heat's own request log (a preview writes nothing)."""
    pattern = re.compile(r'"(POST|PATCH|PUT|DELETE) /v1/[^/]+/stacks/{0}[/ ]'.format(re.escape(stack_name)))
    return [line for line in heat_log_lines(lab, "/stacks/" + stack_name) if pattern.search(line) and "/preview " not in line]


def keystone_url(lab, cloud=CLOUD):
    """The lab's Keystone URL as ``cloud`` names it: what a request's vimConnectionInfo names when the modules connect to ``cloud``."""
    return yaml.safe_load(lab.clouds_yaml.read_text())["clouds"][cloud]["auth"]["auth_url"]


def stack_updates(lab, stack_name):
    return [line for line in heat_writes(lab, stack_name) if '"PATCH ' in line or '"PUT ' in line]


def servers_of(conn, result):
    info = result["vnf_instance"]["instantiatedVnfInfo"]
    return {item["computeResource"]["resourceId"]: item for item in info["vnfcResourceInfo"]}


def server_gone(conn, server_id):
    server = conn.compute.find_server(server_id)
    # Heat ends a delete when Nova says DELETED, a moment before Nova stops listing the server.
    return server is None or server.status == "DELETED"


def ports_by_network(conn, server_id):
    return sorted(conn.network.get_network(port.network_id).name for port in conn.network.ports(device_id=server_id))


def stacks_named(conn, name):
    return [stack for stack in conn.orchestration.stacks() if stack.name == name]


# ---------------------------------------------------------------------------------------------
# What one test owns. The tier-2 tests run side by side in the same projects, so a test checks its own
# stacks and servers, never a list of the whole project taken before and after.

def kill_when(admin_conn, stack_name, done):
    """SIGKILL the module that runs the stack's op occ once ``done(instance)`` holds; that op occ."""
    stack_id = admin_conn.orchestration.find_stack(stack_name, ignore_missing=False).id

    def ready():
        found = record_of(admin_conn, stack_name, stack_id)
        occ = found[1][0] if found and found[1] else None
        return occ if occ and occ.get("lease") and occ["operationState"] == "PROCESSING" and done(found[0]) else None

    occ = wait_for(ready, "the op occ to reach the point of the kill", timeout=300, sleep=0.5)
    os.kill(occ["lease"]["pid"], signal.SIGKILL)
    return occ


def kill_while_heat_creates(admin_conn, task, name, created):
    """SIGKILL the instantiate ``task`` of instance ``name`` once its record is in the stack Heat creates (the stack is added
    to ``created``): ``(stack name, its op occ)``."""
    def stack_recorded():
        found = [stack_name for stack_name, stack_id in sorted(stack_ids_of_instance(admin_conn, name).items())
                 if record_of(admin_conn, stack_name, stack_id)]
        return found[0] if found else None

    stack_name = wait_for(stack_recorded, "the record in the new stack", timeout=300, sleep=0.5)
    created.append(stack_name)
    occ = kill_when(admin_conn, stack_name, lambda instance: True)
    task.wait()
    return stack_name, occ


def first_vnfc_changed(instance):
    """True once a change of package in progress has updated its first VNFC (the record's ``change.updated``)."""
    change_data = instance["instantiatedVnfInfo"]["metadata"]["vnflcm"].get("change") or {}
    return len(change_data.get("updated") or []) >= 1


def record_of(conn, stack_name, stack_id=None):
    """``(instance, op_occs)`` as the stack's record resource holds it, or None (no such stack, or no record yet).
    Given the stack's id (a listing has it, a poll keeps it) it is one request; by name alone, three (find, its redirect, read)."""
    if stack_id is None:
        stack = conn.orchestration.find_stack(stack_name)
        if stack is None:
            return None
        stack_id = stack.id
    response = conn.orchestration.get("/stacks/{0}/{1}/resources/{2}/metadata".format(stack_name, stack_id, RECORD_RESOURCE))
    entry = (response.json().get("metadata") or {}).get("record") if response.status_code == 200 else None
    if not entry:
        return None
    data = json.loads(entry["data"])
    return data["vnfInstance"], data["vnfLcmOpOccs"]


def stacks_of_instance(conn, name):
    """Names of the stacks of instance ``name``: tagged with its name (from the create on, record or not) or whose record names it."""
    return sorted(stack_ids_of_instance(conn, name))


def stack_ids_of_instance(conn, name):
    """``{name: id}`` of the stacks of instance ``name`` (as stacks_of_instance finds them): the ids save record_of a lookup."""
    stacks = {stack.name: stack.id for stack in conn.orchestration.stacks(tags=name_tag(name))}
    for stack in conn.orchestration.stacks():
        if stack.name.startswith("vnf-") and stack.name not in stacks:
            found = record_of(conn, stack.name, stack.id)
            if found and found[0].get("vnfInstanceName") == name:
                stacks[stack.name] = stack.id
    return stacks


def volumes_seen(conn):
    """Each volume of the lab with its status and the servers its attachments name: what a failed stack delete met."""
    return ["{0} {1} attached to {2}".format(volume.id, volume.status, [item.get("server_id") for item in volume.attachments or []])
            for volume in conn.block_storage.volumes(details=True, all_projects=True)]


def delete_stacks(conn, stacks, timeout=600, attempts=3):
    """Delete ``stacks`` and wait until each is gone. A stack Heat fails to delete never leaves the list by itself: its
    delete is sent again (``attempts`` in all), then it is reported at once with what it met instead of waited on."""
    sent = {stack.id: 1 for stack in stacks}
    for stack in stacks:
        conn.orchestration.delete_stack(stack)
    deadline = time.monotonic() + timeout
    failed = []
    while sent and time.monotonic() < deadline:
        time.sleep(2)
        for stack_id in list(sent):
            current = conn.orchestration.find_stack(stack_id)
            if current is None or current.status == "DELETE_COMPLETE":
                del sent[stack_id]
            elif current.status == "DELETE_FAILED" and sent[stack_id] < attempts:
                conn.orchestration.delete_stack(current)
                sent[stack_id] += 1
            elif current.status == "DELETE_FAILED":
                failed.append("{0}: {1}".format(current.name, current.status_reason))
                del sent[stack_id]
    assert not failed and not sent, ("stacks not deleted", failed, sorted(sent), volumes_seen(conn))


def servers_owned_by_stacks(conn):
    """Ids of the OS::Nova::Server resources of the project's stacks, nested stacks included."""
    owned = set()
    for stack in conn.orchestration.stacks():
        response = conn.orchestration.get("/stacks/{0}/{1}/resources?nested_depth=5".format(stack.name, stack.id))
        if response.status_code == 404:  # deleted meanwhile
            continue
        owned.update(resource["physical_resource_id"] for resource in response.json()["resources"]
                     if resource["resource_type"] == "OS::Nova::Server" and resource["physical_resource_id"])
    return owned


def servers_no_stack_owns(conn, settle_seconds=120):
    """Servers of the project that no stack owns: what a delete or a rollback would leave behind.

    Servers are listed before stacks, so a server that another test's stack creates meanwhile is owned. A server
    whose stack is being deleted can drop out of Heat's resources before Nova has deleted it: such servers go
    away, a leftover stays, so the candidates are listed again until none is left or ``settle_seconds`` pass.
    """
    deadline = time.monotonic() + settle_seconds
    left = None
    while True:
        servers = {server.id for server in conn.compute.servers()}
        unowned = servers - servers_owned_by_stacks(conn)
        left = unowned if left is None else left & unowned
        if not left or time.monotonic() > deadline:
            return sorted(left)
        time.sleep(5)


def instantiate(ansible_task, package, name, request, **extra):
    return ansible_task("vnf_instantiate", dict({"package": package, "vnf_instance_name": name, "request": request, "cloud": CLOUD,
                                                 "wait_timeout": 600}, **extra.pop("args", {})), **extra)


# ---------------------------------------------------------------------------------------------
# The change of VNF package (userdata_standard -> userdata_standard_change_vnfpkg_nw)

def vnfd_id(path):
    with open(os.path.join(path, "TOSCA-Metadata", "TOSCA.meta"), encoding="utf-8") as handle:
        entry = [line.split(":", 1)[1].strip() for line in handle if line.startswith("Entry-Definitions")][0]
    with open(os.path.join(path, entry), encoding="utf-8") as handle:
        return yaml.safe_load(handle)["topology_template"]["node_templates"]["VNF"]["properties"]["descriptor_id"]


def relabel(source, path, vnfd):
    """A copy of the package at ``source`` under the vnfdId ``vnfd``."""
    shutil.copytree(source, path)
    old_id = vnfd_id(source)
    for name in os.listdir(path / "Definitions"):
        file = path / "Definitions" / name
        file.write_text(file.read_text().replace(old_id, vnfd))
    return path


def nw_request(packages, **extra):
    """The issue's case: VDU1_CP1 moves to net1, the new package's VDU1_CP4 / VDU2_CP4 go on net0; VDU1 then VDU2."""
    request = {
        "vnfdId": vnfd_id(os.path.join(packages, NEW)),
        "extVirtualLinks": [
            {"id": "ext-net1", "resourceId": "net1", "extCps": [{"cpdId": "VDU1_CP1", "cpConfig": {"VDU1_CP1_1": ip_config()}}]},
            {"id": "ext-net0-cp4", "resourceId": "net0", "extCps": [
                {"cpdId": "VDU1_CP4", "cpConfig": {"VDU1_CP4_1": ip_config()}},
                {"cpdId": "VDU2_CP4", "cpConfig": {"VDU2_CP4_1": ip_config()}},
            ]},
        ],
        "additionalParams": {"upgrade_type": "RollingUpdate", "vdu_params": [{"vdu_id": "VDU1"}, {"vdu_id": "VDU2"}],
                             "nfv": copy.deepcopy(KEEP_VOLUME_IMAGE)},
    }
    request["additionalParams"].update(extra.pop("params", {}))
    request.update(extra)
    return request


def change(ansible_task, package, name, request, **extra):
    args = {"package": package, "vnf_instance_name": name, "request": request, "cloud": CLOUD, "wait_timeout": 600}
    args.update(extra.pop("args", {}))
    return ansible_task("vnf_change_pkg", args, **extra)


def op_occ(ansible_task, name, action):
    return ansible_task("vnf_lcm_op_occ", {"vnf_instance_name": name, "cloud": CLOUD, "action": action, "wait_timeout": 600})


def info_of(result):
    return result["vnf_instance"]["instantiatedVnfInfo"]


def servers(info):
    return {item["vduId"]: item["computeResource"]["resourceId"] for item in info["vnfcResourceInfo"]}


def stack_of(admin_conn, info):
    """Template, nfv and the nested templates the template uses, as Heat has them (a PATCH never removes a file)."""
    stack = {"stack_name": info["metadata"]["stack_name"], "id": info["metadata"]["stack_id"]}
    path = "/stacks/{0}/{1}".format(stack["stack_name"], stack["id"])
    orchestration = admin_conn.orchestration
    parameters = orchestration.get(path).json()["stack"]["parameters"]
    template, files = orchestration.get(path + "/template").json(), orchestration.get(path + "/files").json()
    used = {resource["type"] for resource in template["resources"].values() if resource["type"].endswith(".yaml")}
    return {"template": template, "files": {name: files[name] for name in used},
            "nfv": json.loads(parameters["nfv"]) if isinstance(parameters["nfv"], str) else parameters["nfv"]}


def repackaged(source, path):
    """A copy of the package at ``source`` with a vnfdId of its own (Tacker's samples share one), as a Path."""
    shutil.copytree(source, path)
    old_id, new_id = vnfd_id(source), str(uuid.uuid4())
    for name in os.listdir(path / "Definitions"):
        file = path / "Definitions" / name
        file.write_text(file.read_text().replace(old_id, new_id))
    return path


def instantiated(ansible_task, created, packages, name):
    result = instantiate(ansible_task, os.path.join(packages, OLD), name, REQUEST)
    assert not result.get("failed"), result.get("msg")
    created.append(info_of(result)["metadata"]["stack_name"])
    return result


# ---------------------------------------------------------------------------------------------
# Tacker's basic_lcms_max (DefaultUserData): VDU2_CP1-1 / VDU2_CP1-2 are ports the request gives

@contextlib.contextmanager
def net0_ports(conn, prefix, count):
    """``count`` ports of net0 made for a test (extLinkPorts), deleted when it leaves: their ids."""
    network = conn.network.find_network("net0")
    ports = [conn.network.create_port(network_id=network.id, name="{0}-{1}-{2}".format(prefix, uuid.uuid4().hex[:6], index))
             for index in range(1, count + 1)]
    try:
        yield [port.id for port in ports]
    finally:
        for port in ports:
            conn.network.delete_port(port, ignore_missing=True)


def cp_config(subnet, fixed=None):
    address = {"type": "IPV4", "subnetId": subnet}
    address.update({"fixedAddresses": fixed} if fixed else {"numDynamicAddresses": 1})
    return {"cpProtocolData": [{"layerProtocol": "IP_OVER_ETHERNET", "ipOverEthernet": {"ipAddresses": [address]}}]}


def vdu2_cp2(fixed):
    """VDU2_CP2 reads two fixed_ips entries: a fixed address on net1's subnet, and a dynamic one."""
    config = cp_config("net1-subnet", [fixed])
    config["cpProtocolData"] += cp_config("net1-subnet")["cpProtocolData"]
    return {"cpdId": "VDU2_CP2", "cpConfig": {"VDU2_CP2_1": config}}
