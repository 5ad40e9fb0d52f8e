# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tacker's placeholder extLinkPorts (``dummy-id``) whose real port additionalParams.nfv.CP.<cp>.port names."""

from __future__ import annotations

import types

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.nfv_params import build_nfv, ports_set_by_nfv
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.shared import check_connectivity

LEVEL_1 = {"VDU1": 1, "VDU2": 1}


class FakeNetwork:
    """find_network / find_port / find_subnet over known names; every lookup is recorded."""

    def __init__(self, ports=("real-port",)):
        self.ports = set(ports)
        self.looked_up = []

    def _find(self, kind, known, name):
        self.looked_up.append((kind, name))
        return types.SimpleNamespace(id=name, network_id="net0") if name in known else None

    def find_network(self, name, ignore_missing=True):
        return self._find("network", {"net0"}, name)

    def find_subnet(self, name, ignore_missing=True):
        return self._find("subnet", {"subnet0"}, name)

    def find_port(self, name, ignore_missing=True):
        return self._find("port", self.ports, name)


def vim_with(network):
    return types.SimpleNamespace(conn=types.SimpleNamespace(network=network))


@pytest.fixture
def flavour(flavour_and_hot):
    return flavour_and_hot("userdata_standard")[0]


@pytest.fixture
def tacker_request(instantiate_request, ip_config):
    """paramgen's form: VDU2_CP1 on an extLinkPort whose resourceId is ``dummy-id``, the real port in nfv.CP."""
    link = instantiate_request["extVirtualLinks"][0]
    link["extCps"][1]["cpConfig"] = {"VDU2_CP1_1": ip_config(link_port="lp-2")}
    link["extLinkPorts"] = [{"id": "lp-2", "resourceHandle": {"resourceId": "dummy-id"}}]
    instantiate_request["additionalParams"] = {"nfv": {"CP": {"VDU2_CP1-0": {"port": "real-port"}}}}
    return instantiate_request


def placeholders_of(flavour, request):
    return ports_set_by_nfv(flavour, request["extVirtualLinks"], LEVEL_1, request["additionalParams"]["nfv"])


def test_the_placeholder_is_not_looked_up_and_the_plan_names_the_port_used(flavour, tacker_request):
    network = FakeNetwork()
    placeholders = placeholders_of(flavour, tacker_request)
    assert placeholders == {"dummy-id": ["VDU2_CP1-0"]}
    lines = check_connectivity(vim_with(network), tacker_request, nfv_patch=tacker_request["additionalParams"]["nfv"], placeholders=placeholders)
    assert ("port", "dummy-id") not in network.looked_up and ("port", "real-port") in network.looked_up
    assert lines == ["VDU2_CP1-0: port real-port (additionalParams.nfv.CP.VDU2_CP1-0.port; "
                     "extVirtualLinks[0].extLinkPorts[0].resourceHandle.resourceId 'dummy-id' is not used)"]
    # What the stack gets: the real port, merged last.
    assert build_nfv(flavour, tacker_request, LEVEL_1)["CP"]["VDU2_CP1-0"] == {"port": "real-port"}


def test_a_missing_nfv_cp_port_is_refused_naming_that_field(flavour, tacker_request):
    tacker_request["additionalParams"]["nfv"]["CP"]["VDU2_CP1-0"]["port"] = "no-such-port"
    with pytest.raises(ValidationError, match="port 'no-such-port' does not exist") as caught:
        check_connectivity(vim_with(FakeNetwork()), tacker_request, nfv_patch=tacker_request["additionalParams"]["nfv"],
                           placeholders=placeholders_of(flavour, tacker_request))
    assert caught.value.field == "additionalParams.nfv.CP.VDU2_CP1-0.port"


def test_without_the_nfv_port_the_placeholder_is_looked_up_as_before(flavour, tacker_request):
    del tacker_request["additionalParams"]
    assert ports_set_by_nfv(flavour, tacker_request["extVirtualLinks"], LEVEL_1, None) == {}
    with pytest.raises(ValidationError, match="port 'dummy-id' does not exist") as caught:
        check_connectivity(vim_with(FakeNetwork()), tacker_request)
    assert caught.value.field == "extVirtualLinks[0].extLinkPorts[0].resourceHandle.resourceId"


def test_a_port_that_serves_a_cp_nfv_does_not_replace_is_looked_up(flavour, tacker_request):
    # The nfv patch names a port for another CP: dummy-id still serves VDU2_CP1-0.
    tacker_request["additionalParams"]["nfv"]["CP"] = {"VDU1_CP1-0": {"port": "real-port"}}
    assert placeholders_of(flavour, tacker_request) == {}
    with pytest.raises(ValidationError, match="port 'dummy-id' does not exist"):
        check_connectivity(vim_with(FakeNetwork()), tacker_request, nfv_patch=tacker_request["additionalParams"]["nfv"],
                           placeholders=placeholders_of(flavour, tacker_request))


def test_an_nfv_cp_port_that_is_no_string_is_refused_naming_the_field(flavour, tacker_request):
    tacker_request["additionalParams"]["nfv"]["CP"]["VDU2_CP1-0"]["port"] = 42
    with pytest.raises(ValidationError, match="must be the id or name of a Neutron port") as caught:
        check_connectivity(vim_with(FakeNetwork()), tacker_request, nfv_patch=tacker_request["additionalParams"]["nfv"])
    assert caught.value.field == "additionalParams.nfv.CP.VDU2_CP1-0.port"
