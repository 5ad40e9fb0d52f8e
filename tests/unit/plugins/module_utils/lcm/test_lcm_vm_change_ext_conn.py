# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""ChangeExtVnfConnectivity on Heat: what is planned before any write (no cloud: stacks and networks in memory)."""

from __future__ import annotations

import copy
import json
import os
import types

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import change_ext_conn
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import template as heat_template
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import HeatRecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import engine
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import change_ext_conn as vm_change_ext_conn, session as vm_session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import PRIVATE
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

from ansible_collections.nfv.vnflcm.tests.unit.plugins.module_utils.heat.fake_heat import FakeCompute, FakeStacks


def ip_config(subnet=None, fixed=None):
    address = {"type": "IPV4"}
    if subnet:
        address["subnetId"] = subnet
    if fixed:
        address["fixedAddresses"] = fixed
    else:
        address["numDynamicAddresses"] = 1
    return {"cpProtocolData": [{"layerProtocol": "IP_OVER_ETHERNET", "ipOverEthernet": {"ipAddresses": [address]}}]}


CURRENT = [{"id": "ext-net0", "resourceId": "net0", "extCps": [
    {"cpdId": "VDU1_CP1", "cpConfig": {"VDU1_CP1_1": ip_config()}},
    {"cpdId": "VDU2_CP1", "cpConfig": {"VDU2_CP1_1": ip_config(subnet="net0-subnet")}},
]}]
TO_NET1 = {"extVirtualLinks": [{"id": "ext-net1", "resourceId": "net1", "extCps": [
    {"cpdId": "VDU2_CP1", "cpConfig": {"VDU2_CP1_1": ip_config(subnet="net1-subnet", fixed=["10.11.0.50"])}}]}]}


class FakeNetwork:
    """Neutron's finders for the lab's two networks and their subnets."""

    NETWORKS = {"net0": "n0", "net1": "n1"}
    SUBNETS = {"net0-subnet": "n0", "net1-subnet": "n1"}

    def find_network(self, name, ignore_missing=True):
        return types.SimpleNamespace(id=self.NETWORKS[name]) if name in self.NETWORKS else None

    def find_subnet(self, name, ignore_missing=True):
        return types.SimpleNamespace(id=name, network_id=self.SUBNETS[name]) if name in self.SUBNETS else None

    def find_port(self, name, ignore_missing=True):
        return None


@pytest.fixture
def instantiated(fixtures_dir):
    """An INSTANTIATED userdata_standard record (VDU1-0, VDU2-0, both external CPs on net0), in a fake stack."""
    with load_package(os.path.join(fixtures_dir, "userdata_standard")) as package:
        base, _files = heat_template.load_base_hot(package, "simple")
        flavour = package.flavour("simple")
    request = {"flavourId": "simple", "extVirtualLinks": CURRENT}
    private = {"flavour": flavour, "base_template": base, "request": request, "vnfcs": {"VDU1": [0], "VDU2": [0]}, "images": {}}
    instance = {"id": "i-1", "vnfInstanceName": "v", "instantiationState": "INSTANTIATED", "instantiatedVnfInfo": {
        "flavourId": "simple", "vnfcResourceInfo": [], "vnfcInfo": [], "extVirtualLinkInfo": [],
        "metadata": {"stack_id": "s-1", "stack_name": "vnf-i-1", PRIVATE: private}}}
    stacks = FakeStacks()
    store = HeatRecordStore(stacks, stacks.add("vnf-i-1", "s-1", ["vnflcm"]))
    version = store.save(instance, [], None)
    stacks.writes.clear()
    vim = vm_session.HeatVim.__new__(vm_session.HeatVim)
    vim.stacks, vim.conn, vim.vim_id = stacks, types.SimpleNamespace(network=FakeNetwork()), None
    return vim, stacks, store, (instance, [], version)


def test_moving_a_cp_plans_one_nfv_update_and_check_mode_writes_nothing(instantiated):
    vim, stacks, store, found = instantiated
    operation = vm_change_ext_conn.plan_change_ext_conn(vim, store, found, TO_NET1, preview=True)
    assert operation.name == "CHANGE_EXT_CONN" and operation.changed
    assert operation.plan["moves"] == [{"cp": "VDU2_CP1-0", "from": {"network": "net0", "fixed_ips": [{"subnet": "net0-subnet"}]},
                                        "to": {"network": "net1", "fixed_ips": [{"ip_address": "10.11.0.50", "subnet": "net1-subnet"}]}}]
    assert operation.plan["lines"] == ["VDU2_CP1-0: net0 (a dynamic address on net0-subnet) -> net1 (10.11.0.50 on net1-subnet) "
                                       "(port replaced and re-attached to the same server)"]
    assert [link["id"] for link in operation.plan["ext_virtual_links"]] == ["ext-net0", "ext-net1"]
    assert stacks.previews == 1
    result = engine.run(operation, check_mode=True, diff_mode=True)
    assert result["changed"] and stacks.writes == []
    assert result["diff"]["after"]["nfv_cp"]["VDU2_CP1-0"]["network"] == "net1"


def test_the_same_connectivity_again_is_no_change(instantiated):
    vim, stacks, store, found = instantiated
    operation = vm_change_ext_conn.plan_change_ext_conn(vim, store, found, {"extVirtualLinks": CURRENT})
    assert operation.changed is False and operation.plan["lines"] == ["no change: the external CPs already are on the requested links"]
    result = engine.run(operation)
    assert result["changed"] is False and stacks.writes == [] and "vnf_lcm_op_occ" not in result


@pytest.mark.parametrize("edit, field", [
    (lambda links: links[0]["extCps"][0].update(cpdId="VDU7_CP1"), "extVirtualLinks[0].extCps[0].cpdId"),
    (lambda links: links[0].update(resourceId="net9"), "extVirtualLinks[0].resourceId"),
    (lambda links: links[0]["extCps"][0]["cpConfig"]["VDU2_CP1_1"]["cpProtocolData"][0]["ipOverEthernet"]["ipAddresses"][0].update(
        subnetId="net0-subnet"), "extVirtualLinks[0].extCps[0].cpConfig.VDU2_CP1_1.cpProtocolData[0].ipOverEthernet.ipAddresses[0].subnetId"),
    (lambda links: links[0]["extCps"][0]["cpConfig"]["VDU2_CP1_1"].update(linkPortId="p9"), "extVirtualLinks[0].extCps[0].cpConfig.VDU2_CP1_1.linkPortId"),
])
def test_bad_input_names_the_field_before_any_write(instantiated, edit, field):
    vim, stacks, store, found = instantiated
    request = copy.deepcopy(TO_NET1)
    edit(request["extVirtualLinks"])
    with pytest.raises(ValidationError) as error:
        vm_change_ext_conn.plan_change_ext_conn(vim, store, found, request)
    assert field in error.value.msg
    assert stacks.writes == []


def test_rollback_updates_the_stack_back_to_the_recorded_cps(instantiated):
    vim, stacks, store, found = instantiated
    failed = {"id": "o-1", "operation": "CHANGE_EXT_CONN", "operationParams": TO_NET1}
    # What the failed update left in Heat: VDU2_CP1 on net1.
    left = vm_change_ext_conn.plan_change_ext_conn(vim, store, found, TO_NET1).diff["after"]["nfv_cp"]
    stacks.get = lambda stack: {"parameters": {"nfv": json.dumps({"CP": left})}}
    operation = vm_change_ext_conn.plan_resume(vim, store, found, failed, "rollback")
    assert operation.changed and operation.plan["rollback"]
    assert [(move["cp"], move["from"]["network"], move["to"]["network"]) for move in operation.plan["moves"]] == [("VDU2_CP1-0", "net1", "net0")]
    assert stacks.writes == []
    retry = vm_change_ext_conn.plan_resume(vim, store, found, failed, "retry")
    assert [move["cp"] for move in retry.plan["moves"]] == ["VDU2_CP1-0"]


@pytest.mark.parametrize("in_error, refused", [("srv-2", True), ("srv-1", False)])
def test_a_server_in_error_whose_cp_moves_is_refused_before_any_write_but_not_on_retry(instantiated, in_error, refused):
    """Nova does not detach the ports of a server in ERROR: the update would fail midway, and its rollback the same way."""
    vim, stacks, store, found = instantiated
    found[0]["instantiatedVnfInfo"]["vnfcResourceInfo"] = [
        {"id": "srv-{0}".format(n), "vduId": "VDU{0}".format(n), "computeResource": {"resourceId": "srv-{0}".format(n)},
         "metadata": {"stackResource": "VDU{0}-0".format(n), "index": 0}} for n in (1, 2)]
    vim.conn.compute = FakeCompute({in_error: "ERROR"})
    if refused:
        with pytest.raises(ConflictError) as error:
            vm_change_ext_conn.plan_change_ext_conn(vim, store, found, TO_NET1)
        assert "the server of VNFC VDU2-0 (server srv-2) is in ERROR" in error.value.msg and stacks.writes == []
    else:
        assert vm_change_ext_conn.plan_change_ext_conn(vim, store, found, TO_NET1).changed
    failed = {"id": "o-1", "operation": "CHANGE_EXT_CONN", "operationParams": TO_NET1}
    assert vm_change_ext_conn.plan_resume(vim, store, found, failed, "retry").changed


def test_the_vnfcs_a_move_replugs_are_those_of_its_cps_vdu_and_index():
    cps = {"VDU1_CP1": {"vdu": "VDU1"}, "VDU2_CP1": {"vdu": "VDU2"}}
    resources = [{"vduId": vdu, "metadata": {"stackResource": name, "index": index}}
                 for vdu, name, index in (("VDU1", "VDU1-0", 0), ("VDU1", "VDU1-1", 1), ("VDU2", "VDU2-0", 0))]
    assert change_ext_conn.moved_vnfcs([{"cp": "VDU1_CP1-1"}], cps, resources) == ["VDU1-1"]
    assert change_ext_conn.moved_vnfcs([{"cp": "VDU1_CP1"}, {"cp": "VDU2_CP1-0"}], cps, resources) == ["VDU1-0", "VDU1-1", "VDU2-0"]


def test_moves_describe_ports_and_address_changes():
    moves = change_ext_conn.cp_moves({"CP": {"A-0": {"network": "n", "fixed_ips": [{"ip_address": "1.1.1.1"}]}, "B-0": {"network": "n"}}},
                                     {"CP": {"A-0": {"network": "n", "fixed_ips": [{"ip_address": "1.1.1.2"}]}, "B-0": {"port": "p"}}})
    assert change_ext_conn.move_lines(moves) == ["A-0: n (1.1.1.1) -> n (1.1.1.2) (addresses changed)",
                                                 "B-0: n -> port p (port replaced and re-attached to the same server)"]


def test_kubernetes_refuses_before_connecting():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.modules import run_of

    with pytest.raises(ValidationError, match="only for the OpenStack VIM: CNF external connectivity is the package's Services"):
        run_of("cnf", "change_ext_conn.run_change_ext_conn")({"kubeconfig": "/nowhere"})
    assert run_of("vm", "change_ext_conn.run_change_ext_conn") is vm_change_ext_conn.run_change_ext_conn


def test_a_placeholder_port_the_instances_nfv_cp_port_replaces_is_not_looked_up(instantiated):
    """Tacker's form: the link's extLinkPort is ``dummy-id``, the port is the one additionalParams.nfv.CP names."""
    vim, stacks, store, found = instantiated
    private = found[0]["instantiatedVnfInfo"]["metadata"][PRIVATE]
    private["request"]["additionalParams"] = {"nfv": {"CP": {"VDU2_CP1-0": {"port": "real-port"}}}}
    looked_up = []

    def find_port(name, ignore_missing=True):
        looked_up.append(name)
        return types.SimpleNamespace(id=name) if name == "real-port" else None

    vim.conn.network.find_port = find_port
    request = copy.deepcopy(TO_NET1)
    link = request["extVirtualLinks"][0]
    link["extCps"][0]["cpConfig"] = {"VDU2_CP1_1": dict(ip_config(), linkPortId="lp-1")}
    link["extLinkPorts"] = [{"id": "lp-1", "resourceHandle": {"resourceId": "dummy-id"}}]
    operation = vm_change_ext_conn.plan_change_ext_conn(vim, store, found, request)
    assert looked_up == ["real-port"] and stacks.writes == []
    assert operation.diff["after"]["nfv_cp"]["VDU2_CP1-0"] == {"port": "real-port"}
    assert operation.plan["lines"][-1] == ("VDU2_CP1-0: port real-port (additionalParams.nfv.CP.VDU2_CP1-0.port; "
                                           "extVirtualLinks[0].extLinkPorts[0].resourceHandle.resourceId 'dummy-id' is not used)")
    # The port named there no longer exists: refused, naming the field and where it comes from.
    private["request"]["additionalParams"]["nfv"]["CP"]["VDU2_CP1-0"]["port"] = "gone-port"
    with pytest.raises(ValidationError, match="port 'gone-port' does not exist") as error:
        vm_change_ext_conn.plan_change_ext_conn(vim, store, found, request)
    assert error.value.field == "additionalParams.nfv.CP.VDU2_CP1-0.port" and "InstantiateVnfRequest" in error.value.msg
