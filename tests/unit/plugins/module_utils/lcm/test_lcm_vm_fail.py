# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""``fail`` of a VM-based VNF's op occ reads the stack again (lcm/vm/resume.py as_live): the record says what runs."""

from __future__ import annotations

import json
import os

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import OperationTimeout
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import template as heat_template
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import PRIVATE, Waits, vnfc_counts
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import heal as vm_heal, resume as vm_resume, session as vm_session
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package
from ansible_collections.nfv.vnflcm.tests.unit.plugins.module_utils.heat.fake_heat import FakeConn, FakeStacks

SERVER = "OS::Nova::Server"


def vnfc(name, server, status="CREATE_COMPLETE", reason=""):
    """A top-level VNFC as StandardUserData makes it: a nested template ``<VDU>-<idx>`` holding the server ``<VDU>``."""
    vdu = name.split("-")[0]
    return [{"resource_name": name, "resource_type": vdu + ".yaml", "physical_resource_id": "nested-" + server,
             "resource_status": status, "resource_status_reason": reason,
             "links": [{"rel": "stack", "href": "http://heat.test/v1/p/stacks/vnf-i-1/s-1"}]},
            {"resource_name": vdu, "resource_type": SERVER, "physical_resource_id": server, "parent_resource": name}]


class LiveStacks(FakeStacks):
    """A stack whose resources and status the test sets: what Heat shows after the killed run's update."""

    def __init__(self, resources, status="UPDATE_COMPLETE"):
        super().__init__()
        self.live, self.status = resources, status

    def get(self, stack):
        return {"stack_name": stack["stack_name"], "id": stack["id"], "stack_status": self.status,
                "parameters": {"nfv": json.dumps({"VDU": {"VDU1-1": {"computeFlavourId": "m1.tiny"}}})}}

    def wait_settled(self, stack, timeout):
        if self.status.endswith("_IN_PROGRESS"):
            raise OperationTimeout("the operation in progress on stack", timeout)
        return self.get(stack)

    def resources(self, stack, nested_depth=2):
        return self.live


@pytest.fixture
def recorded(fixtures_dir):
    """An INSTANTIATED record at scale level 0: VDU1-0 on server srv-1, VDU2-0 on srv-2."""
    with load_package(os.path.join(fixtures_dir, "userdata_standard")) as package:
        base, _files = heat_template.load_base_hot(package, "simple")
        flavour = package.flavour("simple")
    private = {"flavour": flavour, "base_template": base, "request": {"flavourId": "simple"}, "vnfcs": {"VDU1": [0], "VDU2": [0]}, "images": {}}
    vnfcs = [{"id": server, "vduId": vdu, "computeResource": {"resourceId": server, "vimLevelResourceType": SERVER}, "metadata": {"stackResource": vdu + "-0"}}
             for vdu, server in (("VDU1", "srv-1"), ("VDU2", "srv-2"))]
    return {"id": "i-1", "vnfInstanceName": "v", "instantiationState": "INSTANTIATED", "instantiatedVnfInfo": {
        "flavourId": "simple", "scaleStatus": [{"aspectId": "VDU1_scale", "scaleLevel": 0}], "vnfcResourceInfo": vnfcs,
        "vnfcInfo": [{"id": "{0}-{1}".format(item["vduId"], item["id"]), "vduId": item["vduId"], "vnfcResourceInfoId": item["id"]} for item in vnfcs],
        "metadata": {"stack_id": "s-1", "stack_name": "vnf-i-1", "nfv": {}, PRIVATE: private}}}


def vim_on(stacks):
    vim = vm_session.HeatVim.__new__(vm_session.HeatVim)
    vim.stacks, vim.conn, vim.vim_id = stacks, FakeConn(), None
    return vim


def test_a_scale_whose_update_heat_finished_is_recorded_at_its_new_level(recorded):
    stacks = LiveStacks(vnfc("VDU1-0", "srv-1") + vnfc("VDU1-1", "srv-3") + vnfc("VDU2-0", "srv-2"))
    result, notes = vm_resume.as_live(vim_on(stacks), recorded, Waits())
    info = result["instantiatedVnfInfo"]
    assert sorted(item["id"] for item in info["vnfcResourceInfo"]) == ["srv-1", "srv-2", "srv-3"]
    assert info["scaleStatus"] == [{"aspectId": "VDU1_scale", "scaleLevel": 1}]
    assert vnfc_counts(result) == {"VDU1": 2, "VDU2": 1}
    assert info["metadata"]["nfv"] == {"VDU": {"VDU1-1": {"computeFlavourId": "m1.tiny"}}}
    assert notes == ["VDU1: 2 VNFCs, the record said 1", "VDU1_scale: scale level 1, the record said 0", "VNFC srv-3 of VDU1 (server srv-3): found"]
    assert stacks.writes == []


def test_a_heal_whose_update_replaced_the_server_names_the_new_one_and_takes_back_no_other_mark(recorded):
    other = vnfc("VDU2-0", "srv-2", "CHECK_FAILED", "marked by the operator")
    stacks = LiveStacks(vnfc("VDU1-0", "srv-9") + other)
    result, notes = vm_resume.as_live(vim_on(stacks), recorded, Waits())
    assert [item["id"] for item in result["instantiatedVnfInfo"]["vnfcResourceInfo"]] == ["srv-9", "srv-2"]
    assert result["instantiatedVnfInfo"]["scaleStatus"] == [{"aspectId": "VDU1_scale", "scaleLevel": 0}]
    assert notes == ["VNFC srv-9 of VDU1 (server srv-9): found", "VNFC srv-1 of VDU1 (server srv-1): gone"]
    assert stacks.writes == []


def test_a_heal_failed_before_its_update_takes_its_mark_back(recorded):
    marked = vnfc("VDU1-0", "srv-1", "CHECK_FAILED", vm_heal.HEAL_REASON)
    stacks = LiveStacks(marked + vnfc("VDU2-0", "srv-2"))
    result, notes = vm_resume.as_live(vim_on(stacks), recorded, Waits())
    assert stacks.writes == [("mark_unhealthy", marked[0], vm_heal.HEAL_REASON)]
    assert notes == ["VDU1-0: its mark for replacement taken back"]
    assert [item["id"] for item in result["instantiatedVnfInfo"]["vnfcResourceInfo"]] == ["srv-1", "srv-2"]


def test_a_stack_still_updating_is_read_as_it_is_and_said_so(recorded):
    marked = vnfc("VDU1-0", "srv-1", "CHECK_FAILED", vm_heal.HEAL_REASON)
    stacks = LiveStacks(marked + vnfc("VDU2-0", "srv-2"), status="UPDATE_IN_PROGRESS")
    _result, notes = vm_resume.as_live(vim_on(stacks), recorded, Waits(timeout=1))
    # Heat takes no mark during an update: it stays, and the note says the stack was still changing.
    assert stacks.writes == [] and notes == ["stack vnf-i-1 was UPDATE_IN_PROGRESS when read"]
