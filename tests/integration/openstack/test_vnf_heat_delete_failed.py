# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tier 2: a terminate whose stack delete Heat fails. VDU2's volume (a multiattach volume type in Tacker's package) is
also attached to a server outside the stack, so Cinder refuses to delete it and the stack ends DELETE_FAILED after
every resource that depends on the volume is gone. The record's resource, which every other resource depends on, is
still there: the op occ is FAILED_TEMP with Heat's reason and the instance is found as before. Once the server that
held the volume is gone, a retry deletes the stack and the record with it, leaving nothing."""

from __future__ import annotations

import uuid

import pytest

from ansible_collections.nfv.vnflcm.tests.integration.faults import wait_for
from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import (
    CLOUD,
    info_of,
    instantiated,
    op_occ,
    record_of,
    servers,
    stacks_named,
)

pytestmark = pytest.mark.tier2


def attached_to(conn, server_id):
    """The volumes one of whose attachments names ``server_id``."""
    return [volume for volume in conn.block_storage.volumes(details=True, all_projects=True)
            if any(item.get("server_id") == server_id for item in volume.attachments or [])]


def test_a_terminate_whose_stack_delete_fails_keeps_its_record_and_a_retry_ends_it(lab, admin_conn, ansible_task, packages, created):
    name = "delete-failed-" + uuid.uuid4().hex[:6]
    info = info_of(instantiated(ansible_task, created, packages, name))
    stack_name = info["metadata"]["stack_name"]
    (volume,) = attached_to(admin_conn, servers(info)["VDU2"])
    compute = admin_conn.compute
    holder = compute.create_server(name="holder-" + name, flavor_id=compute.find_flavor("m1.tiny").id,
                                   image_id=admin_conn.image.find_image("cirros").id, networks=[{"uuid": admin_conn.network.find_network("net0").id}])
    try:
        compute.wait_for_server(holder, wait=300)
        compute.create_volume_attachment(holder, volume_id=volume.id)
        wait_for(lambda: attached_to(admin_conn, holder.id), "the volume attached to the holder", timeout=120, sleep=1)

        failed = ansible_task("vnf_terminate", {"cloud": CLOUD, "vnf_instance_name": name, "request": {"terminationType": "FORCEFUL"},
                                                "wait_timeout": 300})
        assert failed.get("failed") and "Failed to delete stack " + stack_name in failed["msg"], failed.get("msg")
        assert "could not be recorded" not in failed["msg"], failed["msg"]
        assert failed["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP" and failed["vnf_lcm_op_occ"]["operation"] == "TERMINATE"
        assert [stack.status for stack in stacks_named(admin_conn, stack_name)] == ["DELETE_FAILED"]
        assert record_of(admin_conn, stack_name)[1][0]["operationState"] == "FAILED_TEMP"
        found = ansible_task("vnf_info", {"cloud": CLOUD, "vnf_instance_name": name})["vnf_instances"]
        assert [item["instantiationState"] for item in found] == ["INSTANTIATED"]
    finally:
        compute.delete_server(holder)
        compute.wait_for_delete(holder, wait=300)
    wait_for(lambda: admin_conn.block_storage.get_volume(volume.id).status == "available", "the volume to be free", timeout=120, sleep=1)

    retried = op_occ(ansible_task, name, "retry")
    assert not retried.get("failed"), retried.get("msg")
    assert retried["vnf_lcm_op_occ"]["operationState"] == "COMPLETED" and retried["vnf_lcm_op_occ"]["operation"] == "TERMINATE"
    assert stacks_named(admin_conn, stack_name) == []
    assert ansible_task("vnf_info", {"cloud": CLOUD, "vnf_instance_name": name})["vnf_instances"] == []
