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

import os
import random
import uuid

import pytest

from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import (
    CLOUD,
    cp_config,
    info_of,
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
