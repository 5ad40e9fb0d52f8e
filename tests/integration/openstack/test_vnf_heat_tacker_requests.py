# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tier 2: Tacker v2's own requests and Python coordination scripts, on Heat (userdata_standard -> _change_vnfpkg_nw).

The requests are written the way Tacker's functional tests write them (tacker/tests/functional/sol_v2_common/
paramgen.py: ``sample3_instantiate``, ``sample5_change_vnfpkg``, with managed links under fresh ids as in
``change_vnf_pkg_individual_vnfc_max``), and the change package carries Python coordination scripts of our own
that read their stdin as Tacker's samples do (``pickle.load(sys.stdin.buffer)``).

One VNF instance, in order: instantiated as Tacker would; its change refused without ``allow_package_scripts``
(nothing written); with it, a script that fails leaves the change FAILED_TEMP and the rollback restores the
stack; then the change completes, each VNFC's script given Tacker's input.
"""

from __future__ import annotations

import json
import os
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
    op_occ,
    record_of,
    repackaged,
    servers,
    stack_of,
    stack_updates,
    vnfd_id,
)

pytestmark = pytest.mark.tier2

# Tacker's samples name one script for both directions.
SCRIPT = "./Scripts/coordinate_vnf.py"
FAILING_SCRIPT = "./Scripts/coordinate_fail.py"


class Tacker:
    name = "vnf-tkr-" + uuid.uuid4().hex[:6]
    before = None
    stack_before = None


def ip_config(subnet=None):
    address = {"type": "IPV4", "numDynamicAddresses": 1}
    if subnet:
        address["subnetId"] = subnet
    return {"cpProtocolData": [{"layerProtocol": "IP_OVER_ETHERNET", "ipOverEthernet": {"ipAddresses": [address]}}]}


def sample3_instantiate(net_ids, subnet_ids, vim):
    """paramgen.sample3_instantiate: VDU1_CP1 and VDU2_CP1 on net1, internalVL1 on the NFVO's net_mgmt."""
    return {
        "flavourId": "simple",
        "instantiationLevelId": "instantiation_level_1",
        "extVirtualLinks": [{"id": "ext_vl_id_net1", "resourceId": net_ids["net1"], "extCps": [
            {"cpdId": "VDU1_CP1", "cpConfig": {"VDU1_CP1_1": ip_config()}},
            {"cpdId": "VDU2_CP1", "cpConfig": {"VDU2_CP1_1": ip_config(subnet_ids["subnet1"])}},
        ]}],
        "extManagedVirtualLinks": [{"id": "ext_managed_vl_1", "vnfVirtualLinkDescId": "internalVL1", "resourceId": net_ids["net_mgmt"]}],
        "vimConnectionInfo": {"vim1": vim},
        "additionalParams": {
            "lcm-operation-user-data": "./UserData/userdata_standard.py",
            "lcm-operation-user-data-class": "StandardUserData",
            "nfv": {"VDU": {"VDU1-0": {"name": "VDU1-a-001-instantiate"}, "VDU1-1": {"name": "VDU1-a-010-instantiate"},
                            "VDU1-2": {"name": "VDU1-a-011-instantiate"}}},
        },
    }


def vnfc_param(cp_name):
    return {"cp_name": cp_name, "username": "ubuntu", "password": "ubuntu"}


def sample5_change_vnfpkg(vnfd, net_ids, new_script=SCRIPT, old_script=SCRIPT):
    """paramgen.sample5_change_vnfpkg, with the managed link under a fresh id (paramgen's individual_vnfc_max)."""
    return {
        "vnfdId": vnfd,
        "extVirtualLinks": [{"id": "ext_vl_id_net4", "resourceId": net_ids["net0"], "extCps": [
            {"cpdId": "VDU1_CP4", "cpConfig": {"VDU1_CP4_1": ip_config()}},
            {"cpdId": "VDU2_CP4", "cpConfig": {"VDU2_CP4_1": ip_config()}},
        ]}],
        "extManagedVirtualLinks": [{"id": str(uuid.uuid4()), "vnfVirtualLinkDescId": "internalVL1", "vimConnectionId": "vim1",
                                    "resourceProviderId": "Company", "resourceId": net_ids["net_mgmt"],
                                    "extManagedMultisiteVirtualLinkId": str(uuid.uuid4())}],
        "additionalParams": {
            "upgrade_type": "RollingUpdate",
            "lcm-operation-coordinate-new-vnf": new_script,
            "lcm-operation-coordinate-old-vnf": old_script,
            "vdu_params": [
                {"vdu_id": "VDU1", "old_vnfc_param": vnfc_param("VDU1_CP1"), "new_vnfc_param": vnfc_param("VDU1_CP1")},
                {"vdu_id": "VDU2", "old_vnfc_param": vnfc_param("VDU2_CP1"), "new_vnfc_param": vnfc_param("VDU2_CP1")},
            ],
            "lcm-operation-user-data": "./UserData/userdata_standard.py",
            "lcm-operation-user-data-class": "StandardUserData",
            "nfv": {"VDU": {"VDU1-0": {"name": "VDU1-a-001-change_vnfpkg"}, "VDU1-1": {"name": "VDU1-a-010-change_vnfpkg"},
                            "VDU1-2": {"name": "VDU1-a-011-change_vnfpkg"}}},
        },
    }


def tacker_vim(lab):
    """vimConnectionInfo as Tacker takes it, for the lab's admin project (what CLOUD names)."""
    auth = yaml.safe_load(lab.clouds_yaml.read_text())["clouds"][CLOUD]["auth"]
    return {"vimId": str(uuid.uuid4()), "vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3", "interfaceInfo": {"endpoint": auth["auth_url"]},
            "accessInfo": {"username": auth["username"], "region": "RegionOne", "password": auth["password"], "project": auth["project_name"],
                           "projectDomain": auth["project_domain_name"], "userDomain": auth["user_domain_name"]}}


@pytest.fixture(scope="module")
def net_ids(admin_conn):
    """The ids Tacker's paramgen looks up: the lab's net0 / net1 and a net_mgmt of this module.

    Requested before ``created`` by the first test, so it is deleted after the stacks that use it.
    """
    mgmt = admin_conn.network.create_network(name="net_mgmt-" + uuid.uuid4().hex[:6])
    admin_conn.network.create_subnet(network_id=mgmt.id, ip_version=4, cidr="192.168.44.0/24")
    ids = {name: admin_conn.network.find_network(name).id for name in ("net0", "net1")}
    ids["net_mgmt"] = mgmt.id
    yield ids
    admin_conn.network.delete_network(mgmt.id)


@pytest.fixture(scope="module")
def scripted(packages, tmp_path_factory):
    """The change package with coordination scripts of our own: ``(package, calls log)``.

    coordinate_vnf.py appends what it read from stdin to the log, as JSON; coordinate_fail.py always fails,
    as Tacker's FailScript does (exception text on stderr, exit 1).
    """
    work = tmp_path_factory.mktemp("tacker")
    log = work / "calls.jsonl"
    path = repackaged(os.path.join(packages, NEW), work / "userdata_standard_change_vnfpkg_nw_scripts")
    (path / "Scripts").mkdir()
    main = ("\nif __name__ == '__main__':\n    try:\n        main()\n        os._exit(0)\n    except Exception as ex:\n"
            "        sys.stderr.write(str(ex))\n        sys.stderr.flush()\n        os._exit(1)\n")
    (path / "Scripts" / "coordinate_vnf.py").write_text(
        "import json\nimport os\nimport pickle\nimport sys\n\n\ndef main():\n    vnfc_param = pickle.load(sys.stdin.buffer)\n"
        "    with open({0!r}, 'a') as log:\n"
        "        log.write(json.dumps({{'input': vnfc_param, 'script': os.path.basename(__file__)}}) + '\\n')\n".format(str(log)) + main)
    # The VNFD's interface script, which the same opt-in runs (it does nothing here).
    (path / "Scripts" / "sample_script.py").write_text("import pickle\nimport sys\n\npickle.load(sys.stdin.buffer)\n")
    (path / "Scripts" / "coordinate_fail.py").write_text(
        "import os\nimport pickle\nimport sys\n\n\ndef main():\n    vnfc_param = pickle.load(sys.stdin.buffer)\n"
        "    raise Exception('coordination refused for ' + vnfc_param['cp_name'])\n" + main)
    return str(path), log


def calls(log):
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def address_on(admin_conn, server_id, network_id):
    """The fixed IP of the server's port on a network: what Tacker gives a script as ssh_ip for that CP."""
    ports = list(admin_conn.network.ports(device_id=server_id, network_id=network_id))
    assert len(ports) == 1, ports
    return ports[0].fixed_ips[0]["ip_address"]


def test_instantiate_as_tacker(lab, admin_conn, ansible_task, packages, net_ids, created):
    subnet1 = admin_conn.network.find_subnet("net1-subnet").id
    request = sample3_instantiate(net_ids, {"subnet1": subnet1}, tacker_vim(lab))
    # No cloud option: the VIM is the request's vimConnectionInfo, as for Tacker.
    result = ansible_task("vnf_instantiate", {"package": os.path.join(packages, OLD), "vnf_instance_name": Tacker.name, "request": request,
                                              "wait_timeout": 600})
    assert not result.get("failed"), result.get("msg")
    info = info_of(result)
    created.append(info["metadata"]["stack_name"])
    Tacker.before = result
    Tacker.stack_before = stack_of(admin_conn, info)
    managed = info["extManagedVirtualLinkInfo"]
    assert [(link["id"], link["vnfVirtualLinkDescId"], link["networkResource"]["resourceId"]) for link in managed] == [
        ("ext_managed_vl_1", "internalVL1", net_ids["net_mgmt"])]
    assert "password" not in json.dumps(result["vnf_instance"]["vimConnectionInfo"])
    # Nor does the stored record (what anyone who may read the project's stacks reads) hold the VIM password.
    stored = record_of(admin_conn, info["metadata"]["stack_name"])
    assert stored and request["vimConnectionInfo"]["vim1"]["accessInfo"]["password"] not in json.dumps(stored)


def test_python_scripts_are_refused_without_the_opt_in_and_nothing_is_written(lab, ansible_task, net_ids, scripted):
    package, log = scripted
    stack_name = info_of(Tacker.before)["metadata"]["stack_name"]
    writes = len(heat_writes(lab, stack_name))
    result = change(ansible_task, package, Tacker.name, sample5_change_vnfpkg(vnfd_id(package), net_ids))
    assert result.get("failed"), result
    # The managed link under a fresh id passed (it used to be "internalVL1 is given twice"); the script is what stops it.
    assert "additionalParams.lcm-operation-coordinate-new-vnf: ./Scripts/coordinate_vnf.py is a Python script" in result["msg"], result["msg"]
    assert "allow_package_scripts: true" in result["msg"]
    assert len(heat_writes(lab, stack_name)) == writes and calls(log) == []


def test_a_failing_script_fails_the_change_and_rollback_restores_the_stack(lab, admin_conn, ansible_task, net_ids, scripted):
    package, log = scripted
    before = info_of(Tacker.before)
    request = sample5_change_vnfpkg(vnfd_id(package), net_ids, new_script=FAILING_SCRIPT)
    failed = change(ansible_task, package, Tacker.name, request, args={"allow_package_scripts": True})
    assert failed.get("failed") and failed["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP", failed.get("msg")
    assert ("coordination hook ./Scripts/coordinate_fail.py for VNFC VDU1-0: exit code 1: coordination refused for VDU1_CP1"
            in failed["msg"]), failed["msg"]
    assert [step["vnfc"] for step in failed["progress"]["steps"]] == ["VDU1-0"]

    # No option: the record keeps the scripts and the opt-in they were given.
    rolled = op_occ(ansible_task, Tacker.name, "rollback")
    assert not rolled.get("failed"), rolled.get("msg")
    assert rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK"
    assert stack_of(admin_conn, before) == Tacker.stack_before
    # The old-VNF script ran after each VNFC step back (VDU2 first; its step carries the template's description
    # back), with Tacker's rollback input: old_vnfc_param, the address of its cp_name, is_rollback. The record never
    # keeps passwords: the rollback script gets the mask in their place.
    rollback = calls(log)
    assert [call["input"]["cp_name"] for call in rollback] == ["VDU2_CP1", "VDU1_CP1"]
    for call, vdu in zip(rollback, ("VDU2", "VDU1")):
        expected = dict(vnfc_param(vdu + "_CP1"), password="VALUE_SPECIFIED_IN_NO_LOG_PARAMETER",
                        ssh_ip=address_on(admin_conn, servers(before)[vdu], net_ids["net1"]), is_rollback=True)
        assert call == {"input": expected, "script": "coordinate_vnf.py"}
    assert admin_conn.compute.get_server(servers(before)["VDU2"]).flavor["original_name"] == "m1.tiny"


def test_the_change_runs_each_vnfcs_script_with_tackers_input(lab, admin_conn, ansible_task, net_ids, scripted):
    package, log = scripted
    before = info_of(Tacker.before)
    stack_name = before["metadata"]["stack_name"]
    updates = len(stack_updates(lab, stack_name))
    seen = len(calls(log))
    request = sample5_change_vnfpkg(vnfd_id(package), net_ids)
    result = change(ansible_task, package, Tacker.name, request, args={"allow_package_scripts": True})
    assert not result.get("failed"), result.get("msg")
    assert result["vnf_lcm_op_occ"]["operationState"] == "COMPLETED" and len(stack_updates(lab, stack_name)) - updates == 2
    after = info_of(result)
    ids = servers(after)
    # The request as Tacker writes it: VDU2's boot volume takes the new package's image, so its server is re-created
    # (the plan says so); VDU1 keeps its server.
    assert result["plan"]["summary"]["replaced"] == ["VDU2-0"] and ids["VDU1"] == servers(before)["VDU1"]
    assert admin_conn.compute.get_server(ids["VDU2"]).flavor["original_name"] == "m1.small"
    # VDU1, then VDU2: each script given its new_vnfc_param, the address of its cp_name (VDUx_CP1, on net1) and is_rollback.
    assert calls(log)[seen:] == [
        {"input": dict(vnfc_param(vdu + "_CP1"), ssh_ip=address_on(admin_conn, ids[vdu], net_ids["net1"]), is_rollback=False),
         "script": "coordinate_vnf.py"} for vdu in ("VDU1", "VDU2")]
    # One managed link for internalVL1, under the request's id, on the same network; internalVL3 is the stack's own.
    managed = after["extManagedVirtualLinkInfo"]
    assert [(link["id"], link["vnfVirtualLinkDescId"], link["networkResource"]["resourceId"]) for link in managed] == [
        (request["extManagedVirtualLinks"][0]["id"], "internalVL1", net_ids["net_mgmt"])]
    vls = {link["vnfVirtualLinkDescId"] for link in after["vnfVirtualLinkResourceInfo"]}
    assert vls == {"internalVL1", "internalVL3"}
