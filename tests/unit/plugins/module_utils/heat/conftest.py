# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Shared fixtures for the Heat side: Tacker's StandardUserData sample packages and requests for them."""

from __future__ import annotations

import copy
import os

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import nfv_params
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import template as heat_template
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

BEFORE = "userdata_standard"
AFTER = "userdata_standard_change_vnfpkg_nw"
FLAVOUR = "simple"


def ip_config(subnet=None, fixed=None, link_port=None):
    """One cpConfig entry: a dynamic (or fixed) IPv4 address, optionally on a subnet or a given port."""
    address = {"type": "IPV4"}
    if fixed:
        address["fixedAddresses"] = list(fixed)
    else:
        address["numDynamicAddresses"] = 1
    if subnet:
        address["subnetId"] = subnet
    config = {"cpProtocolData": [{"layerProtocol": "IP_OVER_ETHERNET", "ipOverEthernet": {"ipAddresses": [address]}}]}
    if link_port:
        config["linkPortId"] = link_port
    return config


# VDU1_CP1 and VDU2_CP1 on net0; VDU2_CP1 with an address from a fixed subnet (what the templates read).
INSTANTIATE_REQUEST = {
    "flavourId": FLAVOUR,
    "instantiationLevelId": "instantiation_level_1",
    "extVirtualLinks": [
        {
            "id": "ext-net0",
            "resourceId": "net0",
            "extCps": [
                {"cpdId": "VDU1_CP1", "cpConfig": {"VDU1_CP1_1": ip_config()}},
                {"cpdId": "VDU2_CP1", "cpConfig": {"VDU2_CP1_1": ip_config(subnet="subnet0")}},
            ],
        }
    ],
}


@pytest.fixture(name="ip_config")
def ip_config_fixture():
    """``ip_config(subnet=None, fixed=None, link_port=None)``: builds one cpConfig entry."""
    return ip_config


@pytest.fixture
def instantiate_request():
    return copy.deepcopy(INSTANTIATE_REQUEST)


@pytest.fixture
def change_request():
    """The instantiate request's connectivity plus the new package's external CPs VDU1_CP4 and VDU2_CP4 on net0."""
    request = copy.deepcopy(INSTANTIATE_REQUEST)
    request["extVirtualLinks"][0]["extCps"] += [
        {"cpdId": "VDU1_CP4", "cpConfig": {"VDU1_CP4_1": ip_config()}},
        {"cpdId": "VDU2_CP4", "cpConfig": {"VDU2_CP4_1": ip_config()}},
    ]
    return request


@pytest.fixture
def package_path(fixtures_dir):
    return lambda name: os.path.join(fixtures_dir, name)


@pytest.fixture
def flavour_and_hot(package_path):
    """``flavour_and_hot(name)``: ``(flavour, template, files)`` of the simple flavour of a sample package."""
    def read(name):
        with load_package(package_path(name)) as package:
            template, files = heat_template.load_base_hot(package, FLAVOUR)
            return package.flavour(FLAVOUR), template, files
    return read


@pytest.fixture
def desired_stack(flavour_and_hot):
    """``desired_stack(name, request)``: the ``(template, files, nfv)`` a stack gets for a request."""
    def build(name, request):
        flavour, template, files = flavour_and_hot(name)
        counts = nfv_params.vnfc_counts(flavour, request.get("instantiationLevelId"))
        managed = [link["vnfVirtualLinkDescId"] for link in request.get("extManagedVirtualLinks") or []]
        return heat_template.build_stack_template(template, counts, managed), files, nfv_params.build_nfv(flavour, request, counts)
    return build
