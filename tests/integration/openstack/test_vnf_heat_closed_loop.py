# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The closed loop on the OpenStack lab, real parts only: ansible-rulebook running the collection's rulebook
nfv.vnflcm.auto_heal_watcher, whose source nfv.vnflcm.vnfc_watcher polls the VNF stacks' records and the project's
servers (Tacker's server-notification path, without a notifier), and whose rule runs the playbook nfv.vnflcm.auto_heal
on a VM-based VNF. A server is put in ERROR as a failed compute host leaves it (Nova's reset-state). What the playbook
decides (auto-heal disabled, healed already, the heal limit) is the same on both VIMs: the Kubernetes tests show it."""

from __future__ import annotations

import uuid

import alertmanager_lab  # tools/lab/alertmanager, on the path by tests/integration/conftest.py
import pytest

from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import CLOUD, REQUEST, heat_writes, info_of, instantiate, record_of, server_gone

pytestmark = pytest.mark.tier2
HEAL_WINDOW = 2
POLL_INTERVAL = 2


def vm_vnf(ansible_task, package, created, heal):
    request = dict(REQUEST, vnfConfigurableProperties={"isAutohealEnabled": heal})
    done = instantiate(ansible_task, package, "closed-loop-" + uuid.uuid4().hex[:6], request)
    assert not done.get("failed"), done.get("msg")
    created.append(info_of(done)["metadata"]["stack_name"])
    return done["vnf_instance"]


def vdu1(instance):
    """(vnfcInfo id, server id) of the instance's VDU1 VNFC."""
    info = instance["instantiatedVnfInfo"]
    vnfc = [item for item in info["vnfcInfo"] if item["vduId"] == "VDU1"][0]
    resource = [item for item in info["vnfcResourceInfo"] if item["id"] == vnfc["vnfcResourceInfoId"]][0]
    return vnfc["id"], resource["computeResource"]["resourceId"]


def test_a_server_in_error_is_healed_by_the_watchers_rulebook(lab, admin_conn, ansible_task, package, created, tmp_path):
    healed = vm_vnf(ansible_task, package, created, True)
    vnfc, server = vdu1(healed)
    stack_name = info_of({"vnf_instance": healed})["metadata"]["stack_name"]
    admin_conn.compute.reset_server_state(server, "error")
    # Bad input to a heal of a server in ERROR: a clear error before anything is written (no Heat write, the server
    # not deleted).
    writes = len(heat_writes(lab, stack_name))
    refused = ansible_task("vnf_heal", {"cloud": CLOUD, "vnf_instance_id": healed["id"], "request": {"vnfcInstanceId": ["no-such-vnfc"]}})
    assert refused.get("failed") is True and "vnfcInstanceId" in refused["msg"], refused.get("msg")
    assert len(heat_writes(lab, stack_name)) == writes and admin_conn.compute.get_server(server).status == "ERROR"

    watcher = alertmanager_lab.Rulebook(tmp_path / "watcher", "nfv.vnflcm.auto_heal_watcher", {
        "closed_loop_connection": {"cloud": CLOUD, "wait_timeout": 600}, "closed_loop_watch_interval": POLL_INTERVAL,
        "closed_loop_heal_window": HEAL_WINDOW}).start()
    try:
        line = watcher.wait_line(r"auto_heal of VNF instance {0}: [^\"\r\n]*".format(healed["id"]), 0, timeout=300)
        assert "COMPLETED" in line, line
    finally:
        watcher.stop()

    instance, op_occs = record_of(admin_conn, stack_name)
    heals = [item for item in op_occs if item["operation"] == "HEAL"]
    assert [item["operationState"] for item in heals] == ["COMPLETED"], heals
    assert heals[0]["operationParams"]["vnfcInstanceId"] == [vnfc]
    assert heals[0]["operationParams"]["cause"].startswith("auto_heal (watcher)")
    # Nova does not detach the ports of a server in ERROR: the heal deleted it before Heat made the new one on its ports.
    new_server = vdu1(instance)[1]
    assert new_server != server and admin_conn.compute.get_server(new_server).status == "ACTIVE"
    assert server_gone(admin_conn, server)
