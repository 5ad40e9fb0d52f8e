# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tier 2: every playbook of the collection on a VM-based VNF, once through ansible-playbook (``cloud`` as
vnf_lifecycle_connection, OS_CLIENT_CONFIG_FILE on the lab's clouds.yaml) and once as an AWX job template through
ansible-runner (the clouds.yaml AWX's OpenStack credential injects, found through OS_CLIENT_CONFIG_FILE alone).

One VNF of Tacker's userdata_standard (level 1) per driver: instantiate, info, a change to
userdata_standard_change_vnfpkg_nw whose coordination hook refuses VDU2, recovered with the op_occ playbook, terminate.
Through ansible-playbook the VNF is also scaled out and in and healed, and the failed change is rolled back and then
done again; as a job template it is retried to completion (scale and heal run through ansible-runner on Kubernetes:
tier-2 time is what the suite's wall time is made of)."""

from __future__ import annotations

import json
import os
import uuid

import pytest

from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import CLOUD, NEW, OLD, REQUEST, nw_request, server_gone, servers
from ansible_collections.nfv.vnflcm.tests.integration.openstack.test_vnf_heat_change_pkg import hook_file
from ansible_collections.nfv.vnflcm.tests.integration.playbook_runs import (
    PlaybookDriver,
    RunnerDriver,
    expect,
    openstack_clouds_yaml,
)

pytestmark = pytest.mark.tier2


@pytest.fixture(params=["ansible-playbook", "ansible-runner"])
def driver(request, lab, tmp_path):
    if request.param == "ansible-playbook":
        return PlaybookDriver(tmp_path / "cli", {"cloud": CLOUD}, env={"OS_CLIENT_CONFIG_FILE": str(lab.clouds_yaml)})
    auth = json.loads(lab.clouds_yaml.read_text())["clouds"][CLOUD]
    inputs = {"host": auth["auth"]["auth_url"], "username": auth["auth"]["username"], "password": auth["auth"]["password"],
              "project": auth["auth"]["project_name"], "project_domain_name": auth["auth"]["project_domain_name"],
              "domain": auth["auth"]["user_domain_name"], "region": auth["region_name"], "verify_ssl": True}
    # No connection variable: the injected OS_CLIENT_CONFIG_FILE alone selects OpenStack and its one cloud, as in AWX.
    return RunnerDriver(tmp_path / "awx", openstack_clouds_yaml, inputs)


def flavour(admin_conn, server_id):
    return admin_conn.compute.get_server(server_id).flavor["original_name"]


def test_every_playbook_on_a_vm_vnf(driver, lab, admin_conn, packages, created, tmp_path):
    name = "vnf-pb-" + uuid.uuid4().hex[:6]
    record = {"vnf_lifecycle_instance_name": name, "vnf_lifecycle_wait_timeout": 600}
    run = driver.run("instantiate", dict(record, vnf_lifecycle_package=os.path.join(packages, OLD), vnf_lifecycle_request=REQUEST))
    done = run.result("Create and instantiate " + name)
    if done.get("vnf_instance", {}).get("instantiatedVnfInfo"):
        created.append(done["vnf_instance"]["instantiatedVnfInfo"]["metadata"]["stack_name"])
    expect(run)
    assert done["changed"] and done["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    first = servers(done["vnf_instance"]["instantiatedVnfInfo"])
    assert sorted(first) == ["VDU1", "VDU2"] and all(admin_conn.compute.get_server(server).status == "ACTIVE" for server in first.values())

    listed = expect(driver.run("info", record)).result("Read the VNF instances")
    assert [item["id"] for item in listed["vnf_instances"]] == [done["vnf_instance"]["id"]]

    whole_sequence = isinstance(driver, PlaybookDriver)
    after_heal = first
    if whole_sequence:
        after_heal = scale_and_heal(driver, record, admin_conn, first)

    # The coordination hook refuses VDU2 (after VDU1 changed): the job fails, the op_occ job recovers it.
    fault = tmp_path / "fault"
    fault.write_text("on")
    hooks = {"lcm-operation-coordinate-new-vnf": hook_file(tmp_path, "new.yml", fault)}
    change = dict(record, vnf_lifecycle_package=os.path.join(packages, NEW), vnf_lifecycle_request=nw_request(packages, params=hooks))
    failed_run = expect(driver.run("change_vnfpkg", change), "failed")
    failed = failed_run.result("Change the current VNF package")
    assert failed["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP" and "VDU2 coordination refused" in failed["msg"], failed.get("msg")
    assert failed["vnf_lcm_op_occ"]["id"] in failed_run.stdout
    if whole_sequence:
        rolled = expect(driver.run("op_occ", dict(record, vnf_lifecycle_op_occ_action="rollback"))).result("Rollback the operation occurrence")
        assert (rolled["vnf_lcm_op_occ"]["id"], rolled["vnf_lcm_op_occ"]["operationState"]) == (failed["vnf_lcm_op_occ"]["id"], "ROLLED_BACK")
        assert rolled["vnf_instance"]["vnfdId"] == done["vnf_instance"]["vnfdId"] and flavour(admin_conn, after_heal["VDU2"]) == "m1.tiny"
        fault.unlink()
        changed = expect(driver.run("change_vnfpkg", change)).result("Change the current VNF package")
    else:
        fault.unlink()
        changed = expect(driver.run("op_occ", dict(record, vnf_lifecycle_op_occ_action="retry"))).result("Retry the operation occurrence")
        assert changed["vnf_lcm_op_occ"]["id"] == failed["vnf_lcm_op_occ"]["id"]
    assert changed["vnf_lcm_op_occ"]["operationState"] == "COMPLETED" and changed["vnf_instance"]["vnfdId"] == change["vnf_lifecycle_request"]["vnfdId"]
    assert servers(changed["vnf_instance"]["instantiatedVnfInfo"]) == after_heal and flavour(admin_conn, after_heal["VDU2"]) == "m1.small"

    gone = expect(driver.run("terminate", dict(record, vnf_lifecycle_request={"terminationType": "FORCEFUL"}))).result("Terminate the VNF instance")
    assert gone["changed"] and gone["vnf_instance"]["instantiationState"] == "NOT_INSTANTIATED"
    assert all(server_gone(admin_conn, server) for server in after_heal.values())


def scale_and_heal(driver, record, admin_conn, first):
    """VDU1 out to 2 and back in to 1, then its VNFC healed: the servers after the heal by VDU."""
    for kind, count in (("SCALE_OUT", 2), ("SCALE_IN", 1)):
        scaled = expect(driver.run("scale", dict(record, vnf_lifecycle_request={"type": kind, "aspectId": "VDU1_scale"})))
        scaled = scaled.result("Scale the VNF instance")
        vdu1 = [item["computeResource"]["resourceId"] for item in scaled["vnf_instance"]["instantiatedVnfInfo"]["vnfcResourceInfo"]
                if item["vduId"] == "VDU1"]
        assert scaled["vnf_lcm_op_occ"]["operationState"] == "COMPLETED" and len(vdu1) == count, kind
        assert all(admin_conn.compute.get_server(server).status == "ACTIVE" for server in vdu1)
    vnfc = [item for item in scaled["vnf_instance"]["instantiatedVnfInfo"]["vnfcInfo"] if item["vduId"] == "VDU1"][0]
    healed = expect(driver.run("heal", dict(record, vnf_lifecycle_request={"vnfcInstanceId": [vnfc["id"]]}))).result("Heal the VNF instance")
    after_heal = servers(healed["vnf_instance"]["instantiatedVnfInfo"])
    assert healed["vnf_lcm_op_occ"]["operationState"] == "COMPLETED" and after_heal["VDU1"] != vnfc["vnfcResourceInfoId"]
    assert server_gone(admin_conn, vnfc["vnfcResourceInfoId"]) and after_heal["VDU2"] == first["VDU2"]
    return after_heal
