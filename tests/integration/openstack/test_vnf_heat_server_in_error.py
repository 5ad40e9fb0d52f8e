# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tier 2: a change that meets a server in ERROR (a failed compute host leaves it so; Nova's reset-state here). Nova
refuses to detach its ports or resize it (HTTP 409), so Heat's update of that VNFC fails midway, and its rollback the
same way: the op occ would be left FAILED_TEMP with both ways out failing. Both changes that re-plug or resize a VNFC
refuse it before any write, naming the VNFC; once healed, the same change goes through."""

from __future__ import annotations

import os
import uuid

import pytest

from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import (
    CLOUD, NEW, OLD, REQUEST, change, cp_config, heat_writes, info_of, instantiate, nw_request)

pytestmark = pytest.mark.tier2


def test_a_change_meeting_a_server_in_error_is_refused_before_any_write_until_it_is_healed(lab, admin_conn, ansible_task, packages, created):
    name = "in-error-" + uuid.uuid4().hex[:6]
    done = instantiate(ansible_task, os.path.join(packages, OLD), name, dict(REQUEST))
    assert not done.get("failed"), done.get("msg")
    stack_name = info_of(done)["metadata"]["stack_name"]
    created.append(stack_name)
    info = done["vnf_instance"]["instantiatedVnfInfo"]
    vnfc = [item for item in info["vnfcInfo"] if item["vduId"] == "VDU1"][0]
    server = vnfc["vnfcResourceInfoId"]
    admin_conn.compute.reset_server_state(server, "error")
    writes = len(heat_writes(lab, stack_name))

    to_net1 = {"vnf_instance_name": name, "cloud": CLOUD, "wait_timeout": 600, "request": {"extVirtualLinks": [
        {"id": "ext-net1", "resourceId": "net1", "extCps": [{"cpdId": "VDU1_CP1", "cpConfig": {"VDU1_CP1_1": cp_config("net1-subnet")}}]}]}}
    refused = [ansible_task("vnf_change_ext_conn", to_net1),
               change(ansible_task, os.path.join(packages, NEW), name, nw_request(packages))]
    for result in refused:
        assert result.get("failed") and "the server of VNFC VDU1-0 (server {0}) is in ERROR".format(server) in result["msg"], result.get("msg")
        assert "Heal it first" in result["msg"] and "vnf_lcm_op_occ" not in result
    assert len(heat_writes(lab, stack_name)) == writes and admin_conn.compute.get_server(server).status == "ERROR"

    healed = ansible_task("vnf_heal", {"cloud": CLOUD, "vnf_instance_name": name, "wait_timeout": 600, "request": {"vnfcInstanceId": [vnfc["id"]]}})
    assert not healed.get("failed") and healed["vnf_lcm_op_occ"]["operationState"] == "COMPLETED", healed.get("msg")
    changed = change(ansible_task, os.path.join(packages, NEW), name, nw_request(packages))
    assert not changed.get("failed") and changed["vnf_lcm_op_occ"]["operationState"] == "COMPLETED", changed.get("msg")
    assert all(admin_conn.compute.get_server(item["computeResource"]["resourceId"]).status == "ACTIVE"
               for item in changed["vnf_instance"]["instantiatedVnfInfo"]["vnfcResourceInfo"])
