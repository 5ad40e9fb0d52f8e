# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""sol/links.py: the _links of VnfInstance and VnfLcmOpOcc documents."""

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import links
from ansible_collections.nfv.vnflcm.tests.integration.sol003_conformance import vnf_instance_problems, vnf_lcm_op_occ_problems

RECORD = "https://127.0.0.1:6443/api/v1/namespaces/tenant-a/secrets/vnflcm-i-1"
WHERE = {"namespace": "tenant-a"}
IDENTITY = {"vnfdId": "d-1", "vnfProvider": "Company", "vnfProductName": "Sample", "vnfSoftwareVersion": "1.0", "vnfdVersion": "1.0"}


def instance(state, **extra):
    document = dict(IDENTITY, id="i-1", vnfInstanceName="cnf 1", instantiationState=state, **extra)
    if state == "INSTANTIATED":
        document["instantiatedVnfInfo"] = {"flavourId": "simple", "vnfState": "STARTED"}
    return document


def op_occ(state, operation="SCALE"):
    document = {"id": "o-1", "operationState": state, "stateEnteredTime": "2026-11-22T05:00:00Z", "startTime": "2026-11-22T05:00:00Z",
                "vnfInstanceId": "i-1", "operation": operation, "isAutomaticInvocation": False, "isCancelPending": False}
    if state in ("FAILED_TEMP", "FAILED"):
        document["error"] = {"status": 500, "detail": "boom"}
    return document


def test_an_instantiated_instance_links_itself_to_its_record_and_its_tasks_to_their_modules():
    found = links.instance_links(instance("INSTANTIATED"), RECORD, WHERE)
    assert found == {
        "self": {"href": RECORD},
        "terminate": {"href": "nfv.vnflcm:vnf_terminate?vnf_instance_id=i-1&namespace=tenant-a"},
        "scale": {"href": "nfv.vnflcm:vnf_scale?vnf_instance_id=i-1&namespace=tenant-a"},
        "scaleToLevel": {"href": "nfv.vnflcm:vnf_scale_to_level?vnf_instance_id=i-1&namespace=tenant-a"},
        "heal": {"href": "nfv.vnflcm:vnf_heal?vnf_instance_id=i-1&namespace=tenant-a"},
    }


def test_a_not_instantiated_instance_links_instantiate_only_by_id_and_name_quoted():
    found = links.instance_links(instance("NOT_INSTANTIATED"), "http://heat:8004/v1/p/stacks/vnf-i-1")
    assert found == {"self": {"href": "http://heat:8004/v1/p/stacks/vnf-i-1"},
                     "instantiate": {"href": "nfv.vnflcm:vnf_instantiate?vnf_instance_id=i-1&vnf_instance_name=cnf%201"}}


@pytest.mark.parametrize("state", ["STARTING", "PROCESSING", "COMPLETED", "FAILED", "ROLLING_BACK", "ROLLED_BACK"])
def test_an_op_occ_not_failed_temp_links_itself_and_its_instance_only(state):
    assert links.op_occ_links(op_occ(state), RECORD, WHERE) == {"self": {"href": RECORD + "#vnfLcmOpOcc=o-1"}, "vnfInstance": {"href": RECORD}}


@pytest.mark.parametrize("operation, actions", [
    ("SCALE", ["retry", "rollback", "fail"]),
    ("SCALE_TO_LEVEL", ["retry", "rollback", "fail"]),
    ("INSTANTIATE", ["retry", "rollback", "fail"]),
    ("MODIFY_INFO", ["retry", "rollback", "fail"]),
    ("CHANGE_VNFPKG", ["retry", "rollback", "fail"]),
    ("HEAL", ["retry", "fail"]),
    ("TERMINATE", ["retry", "fail"]),
    ("OPERATE", ["fail"]),
])
def test_a_failed_temp_op_occ_links_the_actions_the_collection_allows_for_its_operation(operation, actions):
    found = links.op_occ_links(op_occ("FAILED_TEMP", operation), RECORD, WHERE)
    assert sorted(found) == sorted(["self", "vnfInstance"] + actions)
    for action in actions:
        assert found[action]["href"] == "nfv.vnflcm:vnf_lcm_op_occ?vnf_instance_id=i-1&namespace=tenant-a&vnf_lcm_op_occ_id=o-1&action=" + action


def test_documents_get_links_on_a_copy_and_none_stays_none():
    original = instance("INSTANTIATED")
    linked = links.with_instance_links(original, RECORD, WHERE)
    assert "_links" not in original and linked["_links"]["self"] == {"href": RECORD}
    assert links.with_instance_links(None, RECORD) is None and links.with_op_occ_links(None, RECORD) is None
    assert links.with_op_occ_links(op_occ("COMPLETED"), RECORD)["_links"]["vnfInstance"] == {"href": RECORD}


def test_task_uri_leaves_out_empty_options_and_quotes_the_rest():
    assert links.task_uri("vnf_heal", [("vnf_instance_id", "a b&c"), ("namespace", None), ("x", "")]) == "nfv.vnflcm:vnf_heal?vnf_instance_id=a%20b%26c"
    assert links.task_uri("vnf_info", []) == "nfv.vnflcm:vnf_info"


@pytest.mark.parametrize("state", ["INSTANTIATED", "NOT_INSTANTIATED"])
def test_linked_instances_conform_to_sol003(state):
    assert vnf_instance_problems(links.with_instance_links(instance(state), RECORD, WHERE)) == []


@pytest.mark.parametrize("state", ["STARTING", "PROCESSING", "COMPLETED", "FAILED_TEMP", "FAILED", "ROLLING_BACK", "ROLLED_BACK"])
@pytest.mark.parametrize("operation", ["INSTANTIATE", "SCALE", "SCALE_TO_LEVEL", "HEAL", "TERMINATE", "MODIFY_INFO", "CHANGE_VNFPKG"])
def test_linked_op_occs_conform_to_sol003(state, operation):
    assert vnf_lcm_op_occ_problems(links.with_op_occ_links(op_occ(state, operation), RECORD, WHERE)) == []
