# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""check_flavours: one listing of Nova's flavors for every flavour an operation names, shared with its second check."""

from __future__ import annotations

import types

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import shared as vm_shared


class Compute:
    def __init__(self, listed, private=()):
        self.listed, self.private, self.calls = listed, set(private), []

    def flavors(self, details=True):
        self.calls.append("list")
        return [types.SimpleNamespace(id="id-" + name, name=name) for name in self.listed]

    def find_flavor(self, name, ignore_missing=True):
        self.calls.append("find " + name)
        return types.SimpleNamespace(id=name) if name in self.private else None


def vim(compute):
    return types.SimpleNamespace(conn=types.SimpleNamespace(compute=compute))


def nfv(**flavours):
    return {"VDU": {vdu: {"computeFlavourId": flavour} for vdu, flavour in flavours.items()}}


def test_a_second_check_given_what_the_first_found_lists_nothing_again():
    compute = Compute(["m1.tiny", "m1.small"], private=["private-id"])
    known = vm_shared.check_flavours(vim(compute), nfv(VDU1="m1.tiny", VDU2="id-m1.small"), {})
    vm_shared.check_flavours(vim(compute), nfv(VDU1="m1.small", VDU2="private-id"), {}, known=known)
    assert compute.calls == ["list", "find private-id"]


def test_a_flavour_nova_does_not_have_names_the_request_field():
    compute = Compute(["m1.tiny"])
    request = {"additionalParams": {"nfv": {"VDU": {"VDU1": {"computeFlavourId": "m1.huge"}}}}}
    with pytest.raises(ValidationError, match=r"additionalParams\.nfv\.VDU\.VDU1\.computeFlavourId.*m1\.huge"):
        vm_shared.check_flavours(vim(compute), nfv(VDU1="m1.huge"), request)
