# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Tacker helper modules a package user-data script imports (heat/tacker_compat), run as a script runs them: in a
subprocess whose path has the tree user_data writes, against Tacker's basic_lcms_max package."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import user_data
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package
from ansible_collections.nfv.vnflcm.tests.unit.plugins.module_utils.heat.tacker_script import TACKER_SCRIPT

# basic_lcms_max's external connections, as Tacker's functional tests give them (ids shortened).
EXT_VLS = [
    {"id": "ext-1", "resourceId": "net-1", "extCps": [
        {"cpdId": "VDU1_CP1", "cpConfig": {"c1": {"cpProtocolData": [{"layerProtocol": "IP_OVER_ETHERNET", "ipOverEthernet": {
            "ipAddresses": [{"type": "IPV4", "numDynamicAddresses": 1, "subnetId": "subnet-1"}]}}]}}},
        {"cpdId": "VDU2_CP2", "cpConfig": {"c2": {"cpProtocolData": [{"layerProtocol": "IP_OVER_ETHERNET", "ipOverEthernet": {
            "ipAddresses": [{"type": "IPV4", "fixedAddresses": ["10.10.0.102"], "subnetId": "subnet-1"},
                            {"type": "IPV6", "numDynamicAddresses": 1, "subnetId": "subnet-2"}]}}]}}}]},
    {"id": "ext-2", "resourceId": "net-2", "extCps": [{"cpdId": "VDU1_CP2", "cpConfig": {"c3": {"cpProtocolData": [
        {"layerProtocol": "IP_OVER_ETHERNET", "ipOverEthernet": {"ipAddresses": [{"type": "IPV4", "subnetId": "subnet-3"}]}}]}}}]},
]
MANAGED = [{"id": "m-1", "vnfVirtualLinkDescId": "internalVL1", "resourceId": "managed-net-1"}]


@pytest.fixture
def max_package(fixtures_dir, tmp_path):
    """basic_lcms_max with UserData/userdata.py (the script above), as a directory."""
    path = tmp_path / "basic_lcms_max"
    shutil.copytree(os.path.join(fixtures_dir, "basic_lcms_max"), path)
    (path / "UserData").mkdir()
    (path / "UserData" / "userdata.py").write_text(TACKER_SCRIPT)
    return path


@pytest.fixture
def helpers(tmp_path):
    """The tree user_data puts on a script's path."""
    path = tmp_path / "lib"
    path.mkdir()
    user_data.write_tacker_helpers(str(path))
    return path


def in_script(helpers, code, **values):
    """What ``code`` (with the keyword values as JSON-decoded names) sets ``out`` to, run as a script runs: a subprocess
    with the helpers' tree on PYTHONPATH and nothing of the collection."""
    source = "import json, sys\n" + "".join("{0} = json.loads({1!r})\n".format(name, json.dumps(value)) for name, value in values.items())
    source += code + "\nprint(json.dumps(out))\n"
    done = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True, env={"PYTHONPATH": str(helpers), "PATH": os.environ["PATH"]},
                          check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_helpers_are_a_tacker_tree_for_scripts_only(helpers):
    files = sorted(os.path.relpath(os.path.join(root, name), str(helpers)) for root, _dirs, names in os.walk(str(helpers)) for name in names)
    assert files == ["tacker/__init__.py", "tacker/sol_refactored/__init__.py", "tacker/sol_refactored/common/__init__.py",
                     "tacker/sol_refactored/common/common_script_utils.py", "tacker/sol_refactored/common/vnf_instance_utils.py",
                     "tacker/sol_refactored/common/vnfd_utils.py", "tacker/sol_refactored/infra_drivers/__init__.py",
                     "tacker/sol_refactored/infra_drivers/openstack/__init__.py",
                     "tacker/sol_refactored/infra_drivers/openstack/userdata_utils.py"]
    assert importlib.util.find_spec("tacker") is None  # the collection's own process never sees them as tacker


def test_get_vnfd_reads_the_package_as_tackers_vnfd_class_does(helpers, max_package):
    out = in_script(helpers, '''
from tacker.sol_refactored.infra_drivers.openstack import userdata_utils
vnfd = userdata_utils.get_vnfd("d", csar)
hot = vnfd.get_base_hot("simple")
out = {"vdus": sorted(vnfd.get_vdu_nodes("simple")), "storages": sorted(vnfd.get_storage_nodes("simple")),
       "vls": sorted(vnfd.get_virtual_link_nodes("simple")), "cps": sorted(vnfd.get_vdu_cps("simple", "VDU1")),
       "images": vnfd.get_sw_image("simple"), "flavor": vnfd.get_compute_flavor("simple", "VDU2"),
       "top": sorted(hot["template"]["resources"])[:3], "files": sorted(hot["files"]), "none": vnfd.get_base_hot("other"),
       "level": vnfd.get_default_instantiation_level("simple"), "num": vnfd.get_vdu_num("simple", "VDU1", "instantiation_level_2"),
       "delta": vnfd.get_scale_vdu_and_num("simple", "VDU1_scale"), "max": vnfd.get_max_scale_level("simple", "VDU1_scale"),
       "storage": vnfd.get_vdu_storages(vnfd.get_vdu_nodes("simple")["VDU1"]), "affinity": vnfd.get_affinity_targets("simple"),
       "unknown": vnfd.get_vnfd_flavour("other")}
''', csar=str(max_package))
    assert out["vdus"] == ["VDU1", "VDU2"] and out["storages"] == ["VDU1-VirtualStorage", "VDU2-VirtualStorage"]
    assert out["vls"] == ["internalVL1", "internalVL2", "internalVL3"] and out["cps"] == ["VDU1_CP1", "VDU1_CP2", "VDU1_CP3", "VDU1_CP4", "VDU1_CP5"]
    assert out["images"] == {"VDU1-VirtualStorage": "VDU1-VirtualStorage-image", "VDU2-VirtualStorage": "VDU2-VirtualStorage-image"}
    assert out["flavor"] == "m1.tiny" and out["files"] == ["VDU1.yaml"] and out["none"] == {} and out["unknown"] is None
    assert out["level"] == "instantiation_level_1" and out["num"] == 3 and out["delta"] == {"VDU1": 1} and out["max"] == 2
    assert out["storage"] == ["VDU1-VirtualStorage"] and out["affinity"] == [[["VDU1", "VDU2"], "zone"]]


def test_the_vdu_and_cp_parameters_come_from_the_grant_first_then_the_vnfd_and_request(helpers, max_package):
    inst = {"instantiatedVnfInfo": {"vnfcResourceInfo": [{"vduId": "VDU1"}, {"vduId": "VDU1"}, {"vduId": "VDU2"}],
                                    "extVirtualLinkInfo": [{"resourceHandle": {"resourceId": "net-9"}, "currentVnfExtCpData": EXT_VLS[1]["extCps"]}]}}
    grant_req = {"addResources": [{"id": "a", "type": "COMPUTE", "resourceTemplateId": "VDU1"}, {"id": "b", "type": "STORAGE", "resourceTemplateId": "VDU1"}],
                 "removeResources": [{"id": "r", "type": "COMPUTE", "resourceTemplateId": "VDU2"}]}
    zoned = {"zones": [{"id": "z", "zoneId": "nova-2"}], "addResources": [{"resourceDefinitionId": "a", "zoneId": "z"}],
             "vimAssets": {"computeResourceFlavours": [{"vnfdVirtualComputeDescId": "VDU2", "vimFlavourId": "f-9"}],
                           "softwareImages": [{"vnfdSoftwareImageId": "VDU1-VirtualStorage", "vimSoftwareImageId": "img-9"}]}}
    out = in_script(helpers, '''
from tacker.sol_refactored.common import common_script_utils as u
vnfd = u.get_vnfd("d", csar)
out = {"flavor": [u.get_param_flavor("VDU2", "simple", vnfd, g) for g in ({}, zoned)],
       "image": [u.get_param_image("VDU1-VirtualStorage", "simple", vnfd, g) for g in ({}, zoned)],
       "no_fallback": u.get_param_image("VDU2-VirtualStorage", "simple", vnfd, {}, fallback_vnfd=False),
       "zone": [u.get_param_zone("VDU1", grant_req, g) for g in ({}, zoned)] + [u.get_param_zone("VDU2", grant_req, zoned)],
       "zone_by_vnfc": [u.get_param_zone_by_vnfc("a", zoned), u.get_param_zone_by_vnfc("b", zoned), u.get_param_zone_by_vnfc("a", {})],
       "capacity": [u.get_param_capacity(vdu, inst, grant_req) for vdu in ("VDU1", "VDU2")],
       "current": u.get_current_capacity("VDU1", inst),
       "network": [u.get_param_network(cp, {}, req) for cp in ("VDU1_CP1", "VDU1_CP2", "VDU1_CP3")],
       "granted_network": u.get_param_network("VDU1_CP1", {"extVirtualLinks": [dict(req["extVirtualLinks"][0], resourceId="net-g")]}, req),
       "fixed_ips": [u.get_param_fixed_ips(cp, {}, req) for cp in ("VDU2_CP2", "VDU1_CP3")],
       "from_inst": [u.get_param_network_from_inst("VDU1_CP2", inst), u.get_param_fixed_ips_from_inst("VDU1_CP2", inst),
                     u.get_param_network_from_inst("VDU1_CP1", inst)]}
''', csar=str(max_package), zoned=zoned, grant_req=grant_req, inst=inst, req={"extVirtualLinks": EXT_VLS})
    assert out["flavor"] == ["m1.tiny", "f-9"] and out["image"] == ["VDU1-VirtualStorage-image", "img-9"] and out["no_fallback"] is None
    assert out["zone"] == [None, "nova-2", None] and out["zone_by_vnfc"] == ["nova-2", None, None]
    assert out["capacity"] == [3, 0] and out["current"] == 2
    assert out["network"] == ["net-1", "net-2", None] and out["granted_network"] == "net-g"
    assert out["fixed_ips"] == [[{"ip_address": "10.10.0.102", "subnet": "subnet-1"}, {"subnet": "subnet-2"}], None]
    assert out["from_inst"] == ["net-9", [{"subnet": "subnet-3"}], None]


def test_the_template_helpers_and_json_merge_patch(helpers, max_package):
    out = in_script(helpers, '''
from tacker.sol_refactored.common import common_script_utils as u
from tacker.sol_refactored.common import vnf_instance_utils as inst_utils
from tacker.sol_refactored.infra_drivers.openstack import userdata_utils
top = u.get_vnfd("d", csar).get_base_hot("simple")["template"]
nfv = userdata_utils.init_nfv_dict(top)
import copy
by_request = copy.deepcopy(top)
u.apply_ext_managed_vls(by_request, {"extManagedVirtualLinks": managed}, {})
by_inst = copy.deepcopy(top)
u.apply_ext_managed_vls_from_inst(by_inst, {"instantiatedVnfInfo": {"extManagedVirtualLinkInfo": [
    {"vnfVirtualLinkDescId": "internalVL1", "networkResource": {"resourceId": "managed-net-1"}}]}})
out = {"nfv": nfv, "same": by_request == by_inst, "resources": sorted(by_request["resources"]),
       "net3": by_request["resources"]["VDU1_scale_group"]["properties"]["resource"]["properties"]["net3"],
       "patched": inst_utils.json_merge_patch({"a": {"b": 1, "c": 2}, "d": 3}, {"a": {"b": None, "e": {"f": 4}}, "d": [1]}),
       "replaced": inst_utils.json_merge_patch({"a": 1}, "x"), "vim": inst_utils.select_vim_info({"v": {"vimId": "1"}}),
       "abstract": sorted(userdata_utils.AbstractUserData.__abstractmethods__)}
''', csar=str(max_package), managed=MANAGED)
    assert out["nfv"]["VDU"]["VDU1"] == {"desired_capacity": None, "computeFlavourId": None, "locationConstraints": None}
    assert out["nfv"]["VDU"]["VDU1-VirtualStorage"] == {"vcImageId": None}
    assert out["nfv"]["CP"]["VDU2_CP2"] == {"network": None, "fixed_ips": {"0": {"ip_address": None, "subnet": None}, "1": {"subnet": None}}}
    assert out["same"] and "internalVL1" not in out["resources"] and "internalVL1_subnet" not in out["resources"]
    assert "internalVL2" in out["resources"] and out["net3"] == "managed-net-1"
    assert out["patched"] == {"a": {"c": 2, "e": {"f": 4}}, "d": [1]} and out["replaced"] == "x" and out["vim"] == {"vimId": "1"}
    assert out["abstract"] == ["change_ext_conn", "heal", "instantiate", "scale"]


def test_a_script_written_for_tacker_runs_unchanged(max_package):
    script = {"path": "UserData/userdata.py", "class": "UserData"}
    request = {"flavourId": "simple", "extVirtualLinks": EXT_VLS, "extManagedVirtualLinks": MANAGED,
               "additionalParams": {"nfv": {"VDU": {"VDU2": {"computeFlavourId": "m1.small"}}}}}
    with load_package(str(max_package)) as package:
        arguments = user_data.instantiate_arguments(request, {"id": "i-1", "vnfdId": "d"}, package.flavour("simple"), {"VDU1": [0, 1], "VDU2": [0]}, "o")
        fields = user_data.run_script(package, script, "instantiate", arguments, 30, "InstantiateVnfRequest")
    vdus, cps = fields["nfv"]["VDU"], fields["nfv"]["CP"]
    assert vdus["VDU1"] == {"desired_capacity": 2, "computeFlavourId": "m1.tiny", "locationConstraints": None}
    assert vdus["VDU2"]["computeFlavourId"] == "m1.small" and vdus["VDU2-VirtualStorage"]["vcImageId"] == "VDU2-VirtualStorage-image"
    assert cps["VDU1_CP1"] == {"network": "net-1", "fixed_ips": [{"subnet": "subnet-1"}]} and cps["VDU1_CP2"]["network"] == "net-2"
    assert cps["VDU2_CP2"]["fixed_ips"] == [{"ip_address": "10.10.0.102", "subnet": "subnet-1"}, {"subnet": "subnet-2"}]
    assert "internalVL1" not in fields["template"]["resources"] and "VDU1.yaml" in fields["files"]


@pytest.mark.parametrize("name, reason", [
    ("Misnamed", "cannot import name 'get_param_flavour' from 'tacker.sol_refactored.common.common_script_utils'"),
    ("Conductor", "No module named 'tacker.sol_refactored.conductor'"),
])
def test_a_script_importing_what_the_helpers_do_not_have_is_named(max_package, name, reason):
    with load_package(str(max_package)) as package:
        with pytest.raises(user_data.ScriptFailed) as raised:
            user_data.run_script(package, {"path": "UserData/userdata.py", "class": name}, "instantiate", [{}, {}, {}, {}], 30, "x")
    assert "UserData/userdata.py ({0}.instantiate)".format(name) in raised.value.msg and reason in raised.value.msg
    assert raised.value.msg.endswith("not the rest of Tacker)")
