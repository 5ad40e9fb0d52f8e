# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tacker v1 (SOL003 v2.6.1) request forms: list-form cpConfig converted, vnfcInfoModificationsDeleteIds refused with the v3 form."""

from __future__ import annotations

import copy
import json

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.modules import with_conversions
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import tacker_v1
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import validation as v

DYNAMIC = {"cpProtocolData": [{"layerProtocol": "IP_OVER_ETHERNET", "ipOverEthernet": {"ipAddresses": [{"type": "IPV4", "numDynamicAddresses": 1}]}}]}
FIXED = {"cpProtocolData": [{"layerProtocol": "IP_OVER_ETHERNET",
                             "ipOverEthernet": {"ipAddresses": [{"type": "IPV4", "fixedAddresses": ["10.0.0.5"], "subnetId": "sub-1"}]}}]}
# As Tacker v1's instantiate requests write it: cpConfig a list of VnfExtCpConfig.
V1_REQUEST = {
    "flavourId": "simple",
    "extVirtualLinks": [{"id": "net0", "resourceId": "net-0", "extCps": [
        {"cpdId": "VDU1_CP1", "cpConfig": [DYNAMIC]},
        {"cpdId": "VDU2_CP1", "cpConfig": [dict(FIXED, cpInstanceId="cp-vdu2-0"), dict(DYNAMIC, linkPortId="lp-1")]},
    ]}],
}


def test_list_form_becomes_the_v3_map_keyed_by_cp_instance_id_else_by_index():
    request = v.validate_instantiate_request(copy.deepcopy(V1_REQUEST))
    cps = request["extVirtualLinks"][0]["extCps"]
    assert cps[0]["cpConfig"] == {"VDU1_CP1_0": DYNAMIC}
    assert list(cps[1]["cpConfig"]) == ["cp-vdu2-0", "VDU2_CP1_1"]  # list order kept: configs go to VNFCs in order
    assert cps[1]["cpConfig"]["cp-vdu2-0"] == FIXED and cps[1]["cpConfig"]["VDU2_CP1_1"]["linkPortId"] == "lp-1"


def test_the_request_as_given_is_not_changed_and_v3_requests_are_untouched():
    given = copy.deepcopy(V1_REQUEST)
    v.validate_instantiate_request(given)
    assert given == V1_REQUEST
    v3 = {"flavourId": "simple", "extVirtualLinks": [{"id": "n", "resourceId": "r", "extCps": [{"cpdId": "VDU1_CP1", "cpConfig": {"a": DYNAMIC}}]}]}
    assert tacker_v1.upgrade_cp_configs(v3, "x") is v3 and tacker_v1.conversion_notes(v3) == []


def test_change_pkg_takes_the_list_form_too():
    body = {"vnfdId": "d", "extVirtualLinks": copy.deepcopy(V1_REQUEST["extVirtualLinks"])}
    request = v.validate_change_pkg_request(body)
    assert list(request["extVirtualLinks"][0]["extCps"][1]["cpConfig"]) == ["cp-vdu2-0", "VDU2_CP1_1"]


def test_a_cp_instance_id_given_twice_is_an_error_naming_the_entry():
    body = copy.deepcopy(V1_REQUEST)
    body["extVirtualLinks"][0]["extCps"][1]["cpConfig"][1]["cpInstanceId"] = "cp-vdu2-0"
    with pytest.raises(ValidationError) as raised:
        v.validate_instantiate_request(body)
    assert "extVirtualLinks[0].extCps[1].cpConfig[1].cpInstanceId" in raised.value.msg and "duplicate" in raised.value.msg


def test_an_entry_of_the_list_form_is_still_checked_and_an_empty_list_refused():
    body = copy.deepcopy(V1_REQUEST)
    body["extVirtualLinks"][0]["extCps"][0]["cpConfig"][0]["cpProtocolData"][0]["layerProtocol"] = "ETHERNET"
    with pytest.raises(ValidationError) as raised:
        v.validate_instantiate_request(body)
    assert "extVirtualLinks[0].extCps[0].cpConfig.VDU1_CP1_0.cpProtocolData[0].layerProtocol" in raised.value.msg
    body["extVirtualLinks"][0]["extCps"][0]["cpConfig"] = []
    with pytest.raises(ValidationError) as raised:
        v.validate_instantiate_request(body)
    assert "cpConfig" in raised.value.msg and "at least 1" in raised.value.msg


def test_the_plan_says_what_was_converted():
    result = with_conversions({"plan": {"lines": ["stack vnf-1: create"]}}, V1_REQUEST)
    assert result["plan"]["converted"] == [
        "extVirtualLinks[0].extCps[0].cpConfig: the list form (SOL003 v2.6.1, Tacker v1) taken as the v3 map keyed VDU1_CP1_0",
        "extVirtualLinks[0].extCps[1].cpConfig: the list form (SOL003 v2.6.1, Tacker v1) taken as the v3 map keyed cp-vdu2-0, VDU2_CP1_1"]
    assert result["plan"]["lines"][1:] == result["plan"]["converted"]
    assert "converted" not in with_conversions({"plan": {}}, {"vnfInstanceName": "x"})["plan"]


def test_vnfc_info_modifications_delete_ids_is_refused_with_the_v3_form():
    with pytest.raises(ValidationError) as raised:
        v.validate_vnf_info_modification_request({"vnfcInfoModificationsDeleteIds": ["vnfc-1"]})
    error = raised.value
    assert "vnfcInfoModificationsDeleteIds" in error.msg and "v3 removed it" in error.msg
    shown = json.loads(error.msg[error.msg.index("{"):])
    assert shown == {"vnfcInfoModifications": [{"id": "vnfc-1", "vnfcConfigurableProperties": {"<key>": None}}]}
    # The v3 form it shows is taken.
    v3 = {"vnfcInfoModifications": [{"id": "vnfc-1", "vnfcConfigurableProperties": {"key": None}}]}
    assert v.validate_vnf_info_modification_request(v3) == v3
