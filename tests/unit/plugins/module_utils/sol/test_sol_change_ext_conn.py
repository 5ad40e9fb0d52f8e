# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""ChangeExtVnfConnectivityRequest: validation against the instance's flavour, and the links after it."""

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.change_ext_conn import (
    links_after,
    validate_change_ext_conn_request,
    vim_connections_after,
)

FLAVOUR = {"cps": {"VDU1_CP1": {"vdu": "VDU1"}, "VDU2_CP1": {"vdu": "VDU2"}, "VDU1_CP2": {"vdu": "VDU1", "virtual_link": "internalVL1"}}}
INSTANCE = {"id": "i-1", "instantiationState": "INSTANTIATED", "instantiatedVnfInfo": {"flavourId": "simple"}}


def link(link_id, network, *cpd_ids):
    return {"id": link_id, "resourceId": network, "extCps": [{"cpdId": cpd_id, "cpConfig": {cpd_id + "_1": {}}} for cpd_id in cpd_ids]}


def test_a_valid_request_is_normalised():
    request = validate_change_ext_conn_request({"extVirtualLinks": [link("e1", "net1", "VDU1_CP1")]}, INSTANCE, FLAVOUR)
    assert request["extVirtualLinks"][0]["extCps"][0]["cpdId"] == "VDU1_CP1"


@pytest.mark.parametrize("body, field", [
    ({}, "extVirtualLinks"),
    ({"extVirtualLinks": []}, "extVirtualLinks"),
    ({"extVirtualLinks": [link("e1", "net1", "VDU9_CP1")]}, "extVirtualLinks[0].extCps[0].cpdId"),
    ({"extVirtualLinks": [link("e1", "net1", "VDU1_CP2")]}, "extVirtualLinks[0].extCps[0].cpdId"),
    ({"extVirtualLinks": [link("e1", "net1", "VDU1_CP1"), link("e2", "net0", "VDU2_CP1", "VDU1_CP1")]}, "extVirtualLinks[1].extCps[1].cpdId"),
    ({"extVirtualLinks": [link("e1", "net1", "VDU1_CP1"), link("e1", "net0", "VDU2_CP1")]}, "extVirtualLinks[1].id"),
    ({"extVirtualLinks": [link("e1", "net1", "VDU1_CP1")], "flavourId": "x"}, "flavourId"),
    ({"extVirtualLinks": [dict(link("e1", "net1", "VDU1_CP1"), vimConnectionId="nope")], "vimConnectionInfo": {"vim1": {"vimType": "openstack"}}},
     "extVirtualLinks[0].vimConnectionId"),
])
def test_bad_requests_name_the_field(body, field):
    with pytest.raises(ValidationError) as error:
        validate_change_ext_conn_request(body, INSTANCE, FLAVOUR)
    assert error.value.field == field or error.value.msg.find(field) >= 0, error.value.msg


def test_an_unknown_cp_lists_the_flavours_cps():
    with pytest.raises(ValidationError, match=r"extVirtualLinks\[0\].extCps\[0\].cpdId: unknown CP 'VDU9_CP1' in flavour simple"):
        validate_change_ext_conn_request({"extVirtualLinks": [link("e1", "net1", "VDU9_CP1")]}, INSTANCE, FLAVOUR)


def test_only_an_instantiated_instance():
    with pytest.raises(ConflictError, match="NOT_INSTANTIATED"):
        validate_change_ext_conn_request({"extVirtualLinks": [link("e1", "net1", "VDU1_CP1")]},
                                         {"id": "i-1", "instantiationState": "NOT_INSTANTIATED"}, FLAVOUR)


def test_a_cp_moves_and_its_emptied_link_goes():
    current = [link("e0", "net0", "VDU1_CP1"), link("e2", "net2", "VDU2_CP1")]
    after = links_after(current, {"extVirtualLinks": [link("e1", "net1", "VDU1_CP1")]})
    assert [(item["id"], [cp["cpdId"] for cp in item["extCps"]]) for item in after] == [("e2", ["VDU2_CP1"]), ("e1", ["VDU1_CP1"])]


def test_a_link_of_the_same_id_is_replaced_in_place_and_others_stay():
    current = [link("e0", "net0", "VDU1_CP1", "VDU2_CP1")]
    after = links_after(current, {"extVirtualLinks": [link("e0", "net1", "VDU1_CP1", "VDU2_CP1")]})
    assert after == [link("e0", "net1", "VDU1_CP1", "VDU2_CP1")]
    moved_one = links_after(current, {"extVirtualLinks": [link("e1", "net1", "VDU2_CP1")]})
    assert [(item["id"], [cp["cpdId"] for cp in item["extCps"]]) for item in moved_one] == [("e0", ["VDU1_CP1"]), ("e1", ["VDU2_CP1"])]


def test_replacing_a_link_cannot_leave_one_of_its_cps_unconnected():
    current = [link("e0", "net0", "VDU1_CP1", "VDU2_CP1")]
    with pytest.raises(ValidationError, match=r"extVirtualLinks\[0\].extCps: .*VDU2_CP1"):
        links_after(current, {"extVirtualLinks": [link("e0", "net1", "VDU1_CP1")]})


def test_vim_connections_are_merged_as_a_patch():
    instance = {"vimConnectionInfo": {"a": {"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3"}, "b": {"vimType": "x"}}}
    assert vim_connections_after(instance, {}) == instance["vimConnectionInfo"]
    assert vim_connections_after(instance, {"vimConnectionInfo": {"b": None}}) == {"a": {"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3"}}
    assert vim_connections_after({"vimConnectionInfo": {"b": {"vimType": "x"}}}, {"vimConnectionInfo": {"b": None}}) is None
