# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tier 2: an instantiate whose stack Heat fails while creating it (Neutron refuses a port: a subnet of another network,
through additionalParams.nfv, which Heat's preview does not check). Every resource depends on the record's, so Heat
has made the record before the port fails: the op occ is FAILED_TEMP with Heat's reason, rolled back by
vnf_lcm_op_occ, nothing is left, and the name instantiates once the request is fixed. (A stack Heat fails before even
the record's resource, which keeps no op occ, is unit-tested: test_heat_store.py.)"""

from __future__ import annotations

import os
import uuid

import pytest

from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import CLOUD, OLD, REQUEST, info_of, instantiate, stacks_of_instance

pytestmark = pytest.mark.tier2

NEUTRON_REFUSES = "invalid subnet"


def test_a_create_heat_fails_after_the_record_is_failed_temp_and_rolled_back_leaving_nothing(lab, admin_conn, ansible_task, packages, created):
    name = "create-failed-" + uuid.uuid4().hex[:6]
    package = os.path.join(packages, OLD)
    refused_port = dict(REQUEST, additionalParams={"nfv": {"CP": {"VDU2_CP1-0": {"fixed_ips": [{"subnet": "net1-subnet"}]}}}})
    failed = instantiate(ansible_task, package, name, refused_port)
    assert failed.get("failed") and NEUTRON_REFUSES in failed["msg"], failed.get("msg")
    assert "another run" not in failed["msg"], failed["msg"]
    assert failed["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP", failed.get("vnf_lcm_op_occ")
    created.extend(stacks_of_instance(admin_conn, name))
    rolled = ansible_task("vnf_lcm_op_occ", {"cloud": CLOUD, "vnf_instance_name": name, "action": "rollback", "wait_timeout": 600})
    assert not rolled.get("failed") and rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK", rolled.get("msg")
    assert stacks_of_instance(admin_conn, name) == []

    done = instantiate(ansible_task, package, name, dict(REQUEST))
    assert not done.get("failed") and done["vnf_lcm_op_occ"]["operationState"] == "COMPLETED", done.get("msg")
    created.append(info_of(done)["metadata"]["stack_name"])
