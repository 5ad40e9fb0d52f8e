# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tier 2: Tacker v2's basic_lcms_max requests on Heat: the placeholder port, and Modify of vnfdId.

Tacker's instantiate_vnf_max gives VDU2_CP1-2 an extLinkPort whose resourceId is ``dummy-id`` and names the real port in
``additionalParams.nfv.CP.VDU2_CP1-2.port``; its test_basic_max then modifies the instance's vnfdId (MODIFY_INFO, no VIM
change). One VNF instance, in order: an nfv.CP port that does not exist is refused (no stack); the instantiate with the
placeholder, killed while Heat creates the stack, is retried to the end on the real port; a copy of the package under
another vnfdId changes the record only (the stack not updated); so does a copy whose Heat template differs, as Tacker
takes it, the plan's warnings saying what differs.
"""

from __future__ import annotations

import json
import os
import random
import uuid

import pytest

from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import (
    CLOUD,
    cp_config,
    info_of,
    keystone_url,
    instantiate,
    kill_while_heat_creates,
    net0_ports,
    record_of,
    repackaged,
    stack_updates,
    stacks_of_instance,
    vdu2_cp2,
    vnfd_id,
)

pytestmark = pytest.mark.tier2
PACKAGE = "basic_lcms_max"


class Max:
    name = "vnf-tmax-" + uuid.uuid4().hex[:6]
    done = None


@pytest.fixture(scope="module")
def ports(admin_conn):
    """The real ports of VDU2_CP1-1 (an extLinkPort) and VDU2_CP1-2 (additionalParams.nfv), deleted after the stack."""
    with net0_ports(admin_conn, "tmax-lp", 2) as made:
        yield made


def max_request(ports, nfv_port):
    """paramgen.instantiate_vnf_max's connectivity on the lab's networks: VDU2_CP1-2's extLinkPort is Tacker's placeholder."""
    # A fixed address of its own in net1's range kept out of its allocation pool (10.11.0.200-254).
    fixed = "10.11.0.{0}".format(random.choice(range(210, 255)))
    net0 = {"id": "ext-net0", "resourceId": "net0",
            "extLinkPorts": [{"id": "lp1", "resourceHandle": {"resourceId": ports[0]}},
                             {"id": "lp2", "resourceHandle": {"resourceId": "dummy-id"}}],
            "extCps": [{"cpdId": "VDU1_CP1", "cpConfig": {"VDU1_CP1_1": cp_config("net0-subnet")}},
                       {"cpdId": "VDU2_CP1-1", "cpConfig": {"VDU2_CP1-1_1": {"linkPortId": "lp1"}}},
                       {"cpdId": "VDU2_CP1-2", "cpConfig": {"VDU2_CP1-2_1": {"linkPortId": "lp2"}}}]}
    net1 = {"id": "ext-net1", "resourceId": "net1",
            "extCps": [{"cpdId": "VDU1_CP2", "cpConfig": {"VDU1_CP2_1": cp_config("net1-subnet")}}, vdu2_cp2(fixed)]}
    return {"flavourId": "simple", "instantiationLevelId": "instantiation_level_1", "extVirtualLinks": [net0, net1],
            "additionalParams": {"nfv": {"CP": {"VDU2_CP1-2": {"port": nfv_port}}}}}


def test_instantiate_with_tackers_placeholder_port(lab, admin_conn, ansible_task, tacker_packages, ports, created):
    package = os.path.join(tacker_packages, PACKAGE)
    missing = "no-such-port-" + uuid.uuid4().hex[:6]
    refused = instantiate(ansible_task, package, Max.name, max_request(ports, missing))
    assert refused.get("failed") and "additionalParams.nfv.CP.VDU2_CP1-2.port" in refused["msg"], refused.get("msg")
    assert "port {0!r} does not exist".format(missing) in refused["msg"]
    assert stacks_of_instance(admin_conn, Max.name) == []
    planned = instantiate(ansible_task, package, Max.name, max_request(ports, ports[1]), check=True)
    assert not planned.get("failed"), planned.get("msg")
    assert any(line.startswith("VDU2_CP1-2: port {0} (additionalParams.nfv.CP.VDU2_CP1-2.port;".format(ports[1])) and "'dummy-id' is not used" in line
               for line in planned["plan"]["lines"]), planned["plan"]["lines"]
    # Killed while Heat creates the stack: the retry (from the record, no package, no lookup) completes it on the real port.
    task = instantiate(ansible_task, package, Max.name, max_request(ports, ports[1]), background=True)
    stack_name, killed = kill_while_heat_creates(admin_conn, task, Max.name, created)
    done = ansible_task("vnf_lcm_op_occ", {"cloud": CLOUD, "vnf_instance_name": Max.name, "action": "retry", "wait_timeout": 600})
    assert not done.get("failed"), done.get("msg")
    assert done["vnf_lcm_op_occ"]["id"] == killed["id"] and done["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    assert stacks_of_instance(admin_conn, Max.name) == [stack_name]
    Max.done = done
    vdu2 = [item["computeResource"]["resourceId"] for item in info_of(done)["vnfcResourceInfo"] if item["vduId"] == "VDU2"]
    assert len(vdu2) == 1
    assert set(ports) <= {port.id for port in admin_conn.network.ports(device_id=vdu2[0])}


def stack_state(admin_conn, stack_name):
    stack = admin_conn.orchestration.find_stack(stack_name)
    return stack.updated_at, stack.status


def modify(ansible_task, package, vnfd):
    return ansible_task("vnf_modify", {"cloud": CLOUD, "vnf_instance_name": Max.name, "package": package, "request": {"vnfdId": vnfd}})


def test_modify_of_vnfd_id_changes_the_record_only_and_a_package_that_differs_is_taken_with_warnings(
        lab, admin_conn, ansible_task, tacker_packages, tmp_path):
    if Max.done is None:
        pytest.skip("needs the instance test_instantiate_with_tackers_placeholder_port makes")
    stack_name = info_of(Max.done)["metadata"]["stack_name"]
    before, updates = stack_state(admin_conn, stack_name), len(stack_updates(lab, stack_name))
    same = repackaged(os.path.join(tacker_packages, PACKAGE), tmp_path / "same")
    new_id = vnfd_id(same)
    result = modify(ansible_task, str(same), new_id)
    assert not result.get("failed") and result["changed"], result.get("msg")
    assert result["vnf_lcm_op_occ"]["operation"] == "MODIFY_INFO" and result["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    assert result["vnf_instance"]["vnfdId"] == new_id and record_of(admin_conn, stack_name)[0]["vnfdId"] == new_id
    # No stack update: Heat's updated_time and status are as before, and Heat logged no PATCH/PUT of the stack.
    assert stack_state(admin_conn, stack_name) == before and len(stack_updates(lab, stack_name)) == updates
    again = modify(ansible_task, str(same), new_id)
    assert not again.get("failed") and again["changed"] is False, again.get("msg")

    other = repackaged(os.path.join(tacker_packages, PACKAGE), tmp_path / "other")
    top = other / "BaseHOT" / "simple" / "sample1.yaml"
    top.write_text(top.read_text().replace("Simple Base HOT for Sample VNF", "Simple Base HOT for Sample VNF, changed"))
    other_id = vnfd_id(other)
    # Taken as Tacker v2 takes it (test_basic_max's Modify names a package that differs from what is deployed): the
    # record's vnfdId only, the plan's warnings saying what differs; nothing deployed changes.
    recorded = record_of(admin_conn, stack_name)[0]
    taken = modify(ansible_task, str(other), other_id)
    assert not taken.get("failed") and taken["changed"], taken.get("msg")
    assert any("the top Heat template of flavour simple is not the one deployed" in warning and "vnf_change_pkg" in warning
               for warning in taken["plan"]["warnings"]), taken["plan"]
    now = record_of(admin_conn, stack_name)[0]
    assert now["vnfdId"] == other_id and now["instantiatedVnfInfo"] == recorded["instantiatedVnfInfo"]
    assert stack_state(admin_conn, stack_name) == before and len(stack_updates(lab, stack_name)) == updates


def vim2(endpoint):
    """paramgen.update_vnf_max's vim2 as test_basic_max's step 24 compares it (the request's entry without its password).
    Its endpoint, http://127.0.0.1/identity/v3, is the Keystone of Tacker's devstack: filled with the lab's, as every VIM
    a request names (one VIM per instance)."""
    return {"vimId": "ac2d2ece-5e49-4b15-b92d-b681e9c096d8", "vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3",
            "interfaceInfo": {"endpoint": endpoint},
            "accessInfo": {"username": "dummy_user", "region": "RegionOne", "project": "dummy_project",
                           "projectDomain": "Default", "userDomain": "Default"},
            "extra": {"dummy-key": "dummy-val"}}


def update_vnf_max(vnfd, vnfc_ids, endpoint):
    """paramgen.update_vnf_max: every attribute of a VnfInfoModificationRequest, vim2's password included."""
    dummy = {"dummy-key": "dummy-value"}
    entry = vim2(endpoint)
    entry["accessInfo"]["password"] = "dummy_password"
    return {"vnfInstanceName": "new name", "vnfInstanceDescription": "new description", "vnfdId": vnfd,
            "vnfConfigurableProperties": dict(dummy), "metadata": dict(dummy), "extensions": dict(dummy),
            "vimConnectionInfo": {"vim2": entry},
            "vnfcInfoModifications": [{"id": vnfc_id, "vnfcConfigurableProperties": dict(dummy)} for vnfc_id in vnfc_ids]}


def shown(ansible_task, selector):
    """Show VNF instance: the one instance vnf_info finds."""
    found = ansible_task("vnf_info", dict(selector))
    assert not found.get("failed") and len(found["vnf_instances"]) == 1, found.get("msg")
    return found["vnf_instances"][0]


def test_tackers_update_terminate_and_instantiate_again(lab, admin_conn, ansible_task, tacker_packages, ports, created, tmp_path):
    """test_basic_max's steps 23-28 as its assertions read: Update VNF with update_vnf_max, Show VNF instance (24),
    Terminate, Instantiate again with the first request, Terminate again. (Its step 26, an Update of the terminated
    identifier, has no identifier to update on Heat, where the record lives in the stack terminate deletes.)"""
    if Max.done is None:
        pytest.skip("needs the instance test_instantiate_with_tackers_placeholder_port makes")
    max_package = os.path.join(tacker_packages, PACKAGE)
    upd = repackaged(max_package, tmp_path / "upd")
    upd_id, max_id = vnfd_id(upd), vnfd_id(max_package)
    instance_id = Max.done["vnf_instance"]["id"]
    by_id = {"cloud": CLOUD, "vnf_instance_id": instance_id}

    # 23. The instance's VNFCs before: ids, VDUs and states, no configurable properties.
    vnfc_info = shown(ansible_task, by_id)["instantiatedVnfInfo"]["vnfcInfo"]
    assert len(vnfc_info) > 1
    vnfc_ids = [vnfc["id"] for vnfc in vnfc_info]
    for vnfc in vnfc_info:
        assert "id" in vnfc and "vduId" in vnfc and vnfc.get("vnfcState") is not None
        assert vnfc.get("vnfcConfigurableProperties") is None
    handles = [item["computeResource"] for item in info_of(Max.done)["vnfcResourceInfo"]]
    updated = ansible_task("vnf_modify", dict(by_id, package=str(upd), request=update_vnf_max(upd_id, vnfc_ids, keystone_url(lab))))
    assert not updated.get("failed") and updated["changed"], updated.get("msg")
    assert "dummy_password" not in json.dumps(updated)

    # 24. Show VNF instance.
    body = shown(ansible_task, by_id)
    assert body["instantiatedVnfInfo"]["vnfState"] == "STARTED"
    assert body["vnfdId"] == upd_id
    assert body["vnfInstanceName"] == "new name" and body["vnfInstanceDescription"] == "new description"
    dummy = {"dummy-key": "dummy-value"}
    assert body["metadata"] == dummy and body["extensions"] == dummy and body["vnfConfigurableProperties"] == dummy
    assert body["vimConnectionInfo"]["vim2"] == vim2(keystone_url(lab))
    # The VNFCs stay on the VIM they were on.
    assert [item["computeResource"] for item in body["instantiatedVnfInfo"]["vnfcResourceInfo"]] == handles
    vnfc_info = body["instantiatedVnfInfo"]["vnfcInfo"]
    assert [vnfc_info[0]["id"], vnfc_info[1]["id"]] == vnfc_ids[:2]
    assert vnfc_info[0]["vnfcConfigurableProperties"] == dummy and vnfc_info[1]["vnfcConfigurableProperties"] == dummy

    # 25. Terminate VNF (terminate_vnf_max): the stack is gone, and with it (on Heat) the identifier, which Tacker keeps
    # NOT_INSTANTIATED: its step 26, an Update of that identifier's vnfdId, has nothing to update here.
    stack_name = info_of(Max.done)["metadata"]["stack_name"]
    terminate = {"terminationType": "GRACEFUL", "gracefulTerminationTimeout": 5, "additionalParams": {"dummy-key": "dummy-val"}}
    done = ansible_task("vnf_terminate", dict(by_id, request=terminate, wait_timeout=600))
    assert not done.get("failed") and done["vnf_instance"]["instantiationState"] == "NOT_INSTANTIATED", done.get("msg")
    assert admin_conn.orchestration.find_stack(stack_name) is None
    assert ansible_task("vnf_info", dict(by_id))["vnf_instances"] == []

    # 27. Instantiate VNF again, with the first request and the package, by the instance's name; 28. Terminate VNF again.
    by_name = {"cloud": CLOUD, "vnf_instance_name": "new name"}
    again = ansible_task("vnf_instantiate", dict(by_name, package=max_package, request=max_request(ports, ports[1]), wait_timeout=600))
    assert not again.get("failed"), again.get("msg")
    created.append(info_of(again)["metadata"]["stack_name"])
    assert again["vnf_lcm_op_occ"]["operationState"] == "COMPLETED" and again["vnf_instance"]["vnfdId"] == max_id
    assert again["vnf_instance"]["instantiationState"] == "INSTANTIATED"
    done = ansible_task("vnf_terminate", dict(by_name, request=terminate, wait_timeout=600))
    assert not done.get("failed") and done["vnf_lcm_op_occ"]["operationState"] == "COMPLETED", done.get("msg")
    assert stacks_of_instance(admin_conn, "new name") == []
