# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The SOL003 conformance checker (tests/integration/sol003_conformance.py) the lab tests use: what it accepts and refuses."""

from __future__ import annotations

import copy

import pytest

from ansible_collections.nfv.vnflcm.tests.integration.sol003_conformance import (
    assert_conforms,
    result_problems,
    vnf_instance_problems,
    vnf_lcm_op_occ_problems,
)

SELF = "https://127.0.0.1:6443/api/v1/namespaces/t/secrets/vnflcm-i-1"
INSTANCE = {
    "id": "i-1", "vnfdId": "d-1", "vnfProvider": "Company", "vnfProductName": "Sample", "vnfSoftwareVersion": "1.0", "vnfdVersion": "1.0",
    "vnfInstanceName": "cnf1", "instantiationState": "INSTANTIATED", "metadata": {"namespace": "t"},
    "vimConnectionInfo": {"vim1": {"vimType": "kubernetes"}},
    "instantiatedVnfInfo": {
        "flavourId": "simple", "vnfState": "STARTED", "scaleStatus": [{"aspectId": "vdu1_aspect", "scaleLevel": 1}],
        "vnfcResourceInfo": [{"id": "c-1", "vduId": "VDU1", "computeResource": {"resourceId": "vdu1-abc", "vimLevelResourceType": "Deployment"}}],
        "vnfcInfo": [{"id": "VDU1-c-1", "vduId": "VDU1", "vnfcResourceInfoId": "c-1", "vnfcState": "STARTED"}],
    },
    "_links": {"self": {"href": SELF}, "scale": {"href": "nfv.vnflcm:vnf_scale?vnf_instance_id=i-1"},
               "scaleToLevel": {"href": "nfv.vnflcm:vnf_scale_to_level?vnf_instance_id=i-1"},
               "heal": {"href": "nfv.vnflcm:vnf_heal?vnf_instance_id=i-1"}, "terminate": {"href": "nfv.vnflcm:vnf_terminate?vnf_instance_id=i-1"}},
}
OP_OCC = {
    "id": "o-1", "operationState": "FAILED_TEMP", "stateEnteredTime": "2026-11-22T05:00:01Z", "startTime": "2026-11-22T05:00:00+00:00",
    "vnfInstanceId": "i-1", "operation": "SCALE", "isAutomaticInvocation": False, "isCancelPending": False,
    "operationParams": {"type": "SCALE_OUT", "aspectId": "vdu1_aspect"}, "error": {"status": 500, "detail": "timed out"},
    "resourceChanges": {"affectedVnfcs": [{"id": "c-2", "vduId": "VDU1", "changeType": "ADDED", "computeResource": {"resourceId": "x"}}]},
    "_links": {"self": {"href": SELF + "#vnfLcmOpOcc=o-1"}, "vnfInstance": {"href": SELF},
               "retry": {"href": "nfv.vnflcm:vnf_lcm_op_occ?vnf_lcm_op_occ_id=o-1&action=retry"},
               "fail": {"href": "nfv.vnflcm:vnf_lcm_op_occ?vnf_lcm_op_occ_id=o-1&action=fail"}},
}


def changed(document, path, value):
    """A copy of ``document`` with ``path`` (dotted) set to ``value``, or removed when ``value`` is ``...``."""
    result = copy.deepcopy(document)
    *parents, last = path.split(".")
    target = result
    for key in parents:
        target = target[int(key)] if isinstance(target, list) else target[key]
    if value is ...:
        del target[last]
    else:
        target[last] = value
    return result


def test_conformant_documents_pass():
    assert vnf_instance_problems(INSTANCE) == [] and vnf_lcm_op_occ_problems(OP_OCC) == []
    assert assert_conforms({"vnf_instance": INSTANCE, "vnf_lcm_op_occ": OP_OCC}) == 2
    assert assert_conforms({"vnf_instances": [INSTANCE], "vnf_lcm_op_occs": [OP_OCC, changed(OP_OCC, "lease", {"status": "live"})]}) == 3
    assert assert_conforms({"vnf_instance": None, "changed": False}) == 0


@pytest.mark.parametrize("path, value, expected", [
    ("vnfdId", ..., "vnf_instance.vnfdId: required, missing"),
    ("_links", ..., "vnf_instance._links: required, missing"),
    ("instantiationState", "GONE", "vnf_instance.instantiationState: 'GONE' is not one of"),
    ("instantiatedVnfInfo", ..., "vnf_instance.instantiatedVnfInfo: required when INSTANTIATED"),
    ("instantiatedVnfInfo.vnfState", "RUNNING", "vnf_instance.instantiatedVnfInfo.vnfState: 'RUNNING' is not one of"),
    ("instantiatedVnfInfo.scaleStatus.0.scaleLevel", -1, "scaleStatus[0].scaleLevel: must be an integer >= 0"),
    ("instantiatedVnfInfo.vnfcResourceInfo.0.computeResource", {}, "vnfcResourceInfo[0].computeResource.resourceId: required, missing"),
    ("vimConnectionInfo.vim1.accessInfo", {"password": "x"}, "vimConnectionInfo.vim1.accessInfo: a VIM's credentials are never returned"),
    ("plan", {}, "vnf_instance.plan: not a SOL003 attribute"),
    ("_links.self", ..., "vnf_instance._links.self: required, missing"),
    ("_links.self", {"href": "not a uri"}, "vnf_instance._links.self: must be {\"href\": URI}"),
    ("_links.scale", {"href": "x:y", "rel": "scale"}, "vnf_instance._links.scale: must be {\"href\": URI}"),
    ("_links.instantiate", {"href": "nfv.vnflcm:vnf_instantiate"}, "vnf_instance._links.instantiate: only present when NOT_INSTANTIATED"),
    ("_links.heal", ..., "vnf_instance._links.heal: missing: the collection has this operation"),
    ("_links.restart", {"href": "x:y"}, "vnf_instance._links.restart: not a SOL003 link"),
])
def test_instance_problems_name_the_attribute(path, value, expected):
    found = vnf_instance_problems(changed(INSTANCE, path, value))
    assert any(expected in problem for problem in found), found


def test_a_not_instantiated_instance_may_not_link_instantiated_tasks_and_must_link_instantiate():
    bare = changed(changed(INSTANCE, "instantiationState", "NOT_INSTANTIATED"), "instantiatedVnfInfo", ...)
    found = vnf_instance_problems(bare)
    assert "vnf_instance._links.scale: only present when INSTANTIATED, the instance is NOT_INSTANTIATED" in found
    assert any(problem.startswith("vnf_instance._links.instantiate: missing") for problem in found)
    assert vnf_instance_problems(bare, collection=False) == [problem for problem in found if "missing: the collection" not in problem]


@pytest.mark.parametrize("path, value, expected", [
    ("operationState", "DONE", "vnf_lcm_op_occ.operationState: 'DONE' is not one of"),
    ("operation", "RESTART", "vnf_lcm_op_occ.operation: 'RESTART' is not one of"),
    ("startTime", "2026-11-22 05:00:00", "vnf_lcm_op_occ.startTime: '2026-11-22 05:00:00' is not an RFC 3339 date-time"),
    ("isCancelPending", "no", "vnf_lcm_op_occ.isCancelPending: must be a boolean"),
    ("error", ..., "vnf_lcm_op_occ.error: required when FAILED_TEMP"),
    ("error", {"detail": "x"}, "vnf_lcm_op_occ.error.status: required, missing"),
    ("cancelMode", "NOW", "vnf_lcm_op_occ.cancelMode: 'NOW' is not one of"),
    ("resourceChanges.affectedVnfcs.0.changeType", "GROWN", "affectedVnfcs[0].changeType: 'GROWN' is not one of"),
    ("_links.vnfInstance", ..., "vnf_lcm_op_occ._links.vnfInstance: required, missing"),
    ("_links.fail", ..., "vnf_lcm_op_occ._links.fail: missing: the collection can fail"),
    ("_links.heal", {"href": "x:y"}, "vnf_lcm_op_occ._links.heal: not a SOL003 link"),
    ("startedBy", "me", "vnf_lcm_op_occ.startedBy: not a SOL003 attribute"),
])
def test_op_occ_problems_name_the_attribute(path, value, expected):
    found = vnf_lcm_op_occ_problems(changed(OP_OCC, path, value))
    assert any(expected in problem for problem in found), found


@pytest.mark.parametrize("state", ["STARTING", "PROCESSING", "COMPLETED", "FAILED", "ROLLING_BACK", "ROLLED_BACK"])
def test_retry_rollback_and_fail_links_only_for_failed_temp(state):
    found = vnf_lcm_op_occ_problems(changed(OP_OCC, "operationState", state))
    assert "vnf_lcm_op_occ._links.retry: only present when FAILED_TEMP, the op occ is {0}".format(state) in found
    assert "vnf_lcm_op_occ._links.fail: only present when FAILED_TEMP, the op occ is {0}".format(state) in found


def test_cancel_link_only_while_the_operation_runs():
    completed = changed(changed(changed(OP_OCC, "operationState", "COMPLETED"), "error", ...), "_links", {
        "self": {"href": SELF + "#o-1"}, "vnfInstance": {"href": SELF}, "cancel": {"href": "x:cancel"}})
    assert vnf_lcm_op_occ_problems(completed) == [
        "vnf_lcm_op_occ._links.cancel: only present when STARTING or PROCESSING or ROLLING_BACK, the op occ is COMPLETED"]
    assert vnf_lcm_op_occ_problems(changed(completed, "operationState", "PROCESSING")) == []


def test_an_op_occ_links_to_its_instance_self():
    elsewhere = changed(OP_OCC, "_links.vnfInstance", {"href": "https://elsewhere/x"})
    found = result_problems({"vnf_instance": INSTANCE, "vnf_lcm_op_occ": elsewhere})
    assert found == ["vnf_lcm_op_occ._links.vnfInstance: 'https://elsewhere/x' is not its instance's self link {0!r}".format(SELF)]
    with pytest.raises(AssertionError, match="not SOL003 conformant"):
        assert_conforms({"vnf_instance": INSTANCE, "vnf_lcm_op_occ": elsewhere})


# An OpenStack instance: VNFC CPs on an external CP and on an internal VL's link port, linked both ways, with Tacker v2's metadata.
HEAT_INSTANCE = changed(changed(INSTANCE, "vimConnectionInfo", {"vim1": {"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3"}}), "instantiatedVnfInfo", {
    "flavourId": "simple", "vnfState": "STARTED",
    "vnfcResourceInfo": [{"id": "srv-1", "vduId": "VDU1", "computeResource": {"resourceId": "srv-1"},
                          "vnfcCpInfo": [{"id": "CP1-p1", "cpdId": "CP1", "vnfExtCpId": "cp-p1"}, {"id": "CP2-p2", "cpdId": "CP2", "vnfLinkPortId": "p2"}],
                          "metadata": {"creation_time": "2026-11-27T03:00:00Z", "stack_id": "s-1", "vdu_idx": 0, "flavor": "m1.tiny",
                                       "image-VDU1-0": "img"}}],
    "extCpInfo": [{"id": "cp-p1", "cpdId": "CP1", "extLinkPortId": "p1", "associatedVnfcCpId": "CP1-p1",
                   "cpProtocolInfo": [{"layerProtocol": "IP_OVER_ETHERNET"}]}],
    "extVirtualLinkInfo": [{"id": "ext", "resourceHandle": {"resourceId": "net0"}, "currentVnfExtCpData": [{"cpdId": "CP1"}],
                            "extLinkPorts": [{"id": "p1", "resourceHandle": {"resourceId": "p1"}, "cpInstanceId": "cp-p1"}]}],
    "vnfVirtualLinkResourceInfo": [{"id": "net-1", "vnfVirtualLinkDescId": "VL1", "networkResource": {"resourceId": "net-1"},
                                    "vnfLinkPorts": [{"id": "p2", "resourceHandle": {"resourceId": "p2"}, "cpInstanceId": "CP2-p2",
                                                      "cpInstanceType": "VNFC_CP"}]}],
})
VNFC_CP = "vnf_instance.instantiatedVnfInfo.vnfcResourceInfo[0].vnfcCpInfo"
EXT_CP = "vnf_instance.instantiatedVnfInfo.extCpInfo[0]"
METADATA = "vnf_instance.instantiatedVnfInfo.vnfcResourceInfo[0].metadata"


def test_an_openstack_instance_with_linked_cps_conforms():
    assert vnf_instance_problems(HEAT_INSTANCE) == []


@pytest.mark.parametrize("path, value, expected", [
    ("instantiatedVnfInfo.vnfcResourceInfo.0.vnfcCpInfo.0.vnfExtCpId", "cp-x", VNFC_CP + "[0].vnfExtCpId: 'cp-x' is no extCpInfo id"),
    ("instantiatedVnfInfo.vnfcResourceInfo.0.vnfcCpInfo.1.vnfLinkPortId", "p9", VNFC_CP + "[1].vnfLinkPortId: 'p9' is no link port"),
    ("instantiatedVnfInfo.vnfcResourceInfo.0.vnfcCpInfo.1.vnfLinkPortId", ..., VNFC_CP + "[1]: connected to nothing"),
    ("instantiatedVnfInfo.extCpInfo", [], "instantiatedVnfInfo.extCpInfo: 1..N: absent when there is no external CP, never empty"),
    ("instantiatedVnfInfo.extCpInfo.0.cpdId", ..., EXT_CP + ".cpdId: required, missing"),
    ("instantiatedVnfInfo.extCpInfo.0.extLinkPortId", "p9", EXT_CP + ".extLinkPortId: 'p9' is no extLinkPorts id"),
    ("instantiatedVnfInfo.extCpInfo.0.associatedVnfcCpId", "CP9", EXT_CP + ".associatedVnfcCpId: 'CP9' is no vnfcCpInfo id"),
    ("instantiatedVnfInfo.extCpInfo.0.associatedVnfcCpId", "CP2-p2", EXT_CP + ".associatedVnfcCpId: its vnfcCpInfo does not name this extCpInfo"),
    ("instantiatedVnfInfo.extCpInfo.0.associatedVnfVirtualLinkId", "VL9", EXT_CP + ".associatedVnfVirtualLinkId: 'VL9' is no vnfVirtualLinkResourceInfo"),
    ("instantiatedVnfInfo.extCpInfo.0.cpProtocolInfo.0.layerProtocol", "MPLS", EXT_CP + ".cpProtocolInfo[0].layerProtocol: 'MPLS' is not one of"),
    ("instantiatedVnfInfo.extVirtualLinkInfo.0.extLinkPorts.0.cpInstanceId", "CP1-p1", "extLinkPorts[0].cpInstanceId: 'CP1-p1' is no extCpInfo id"),
    ("instantiatedVnfInfo.extVirtualLinkInfo.0.currentVnfExtCpData", ..., "extVirtualLinkInfo[0].currentVnfExtCpData: required, missing"),
    ("instantiatedVnfInfo.extVirtualLinkInfo.0.currentVnfExtCpData", [], "extVirtualLinkInfo[0].currentVnfExtCpData: must list at least one"),
    ("instantiatedVnfInfo.extVirtualLinkInfo.0.currentVnfExtCpData.0.cpdId", ..., "currentVnfExtCpData[0].cpdId: required, missing"),
    ("instantiatedVnfInfo.vnfVirtualLinkResourceInfo.0.vnfLinkPorts.0.cpInstanceId", "x", "vnfLinkPorts[0].cpInstanceId: 'x' is no vnfcCpInfo id"),
    ("instantiatedVnfInfo.vnfcResourceInfo.0.metadata.stack_id", ..., METADATA + ".stack_id: required, missing"),
    ("instantiatedVnfInfo.vnfcResourceInfo.0.metadata.vdu_idx", ..., METADATA + ".vdu_idx: required, missing"),
    ("instantiatedVnfInfo.vnfcResourceInfo.0.metadata.image-VDU1-0", ..., METADATA + ": no image-<VDU> entry"),
    ("instantiatedVnfInfo.vnfcResourceInfo.0.metadata.creation_time", "yesterday", METADATA + ".creation_time: 'yesterday' is not an RFC 3339"),
])
def test_cp_links_and_openstack_metadata_problems_name_the_attribute(path, value, expected):
    found = vnf_instance_problems(changed(HEAT_INSTANCE, path, value))
    assert any(expected in problem for problem in found), found


def test_a_scaling_group_member_has_its_parent_instead_of_vdu_idx_and_kubernetes_needs_no_openstack_metadata():
    member = changed(changed(HEAT_INSTANCE, "instantiatedVnfInfo.vnfcResourceInfo.0.metadata.vdu_idx", ...),
                     "instantiatedVnfInfo.vnfcResourceInfo.0.metadata.parent_stack_id", "g-1")
    assert vnf_instance_problems(member) == [METADATA + ".parent_resource_name: required, missing"]
    assert vnf_instance_problems(INSTANCE) == []
