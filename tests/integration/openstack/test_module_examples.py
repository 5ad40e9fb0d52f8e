# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tier 2: every OpenStack example of the modules' EXAMPLES, run as written on the lab: one VNF (vnf1) through one
lifecycle, one ansible-playbook run.

The examples' tasks are taken from the modules' EXAMPLES (``yaml.safe_load`` of each block) and run unchanged but for
what stands for the operator's environment (tests/integration/module_examples.py):

==========================================  ==============================================================================
in the examples                             here
==========================================  ==============================================================================
``/srv/packages/<name>``                    a folder of the test's: Tacker's packages (NFV_FIXTURES_DIR) by their names,
                                            ``userdata_standard.zip`` (that package zipped), ``vnf1-relabelled``
                                            (userdata_standard under the vnfdId the example names, as an NFVO onboards a
                                            copy) and ``userdata_standard_change_vnfpkg_nw`` as an NFVO would hold it:
                                            under a vnfdId of its own (Tacker's samples share one). The scripts the
                                            fixtures leave out are there as stand-ins of our own: the coordination task
                                            files and script the requests name (they log what they are given) and the
                                            VNFD's interface script (it fails the hook whose marker file the test sets)
``mycloud``                                 the lab's cloud (``nfvlab-admin``; clouds.yaml through OS_CLIENT_CONFIG_FILE)
waiting options                             ``module_defaults`` for ``group/nfv.vnflcm.vnflcm``
``lookup('ansible.builtin.file', ...)``     request files written the way Tacker's functional tests write them
                                            (sol_v2_common/paramgen.py), in the playbook's folder
``vnfc_password``                           a play variable (the operator's vault)
==========================================  ==============================================================================

The scenario: an instantiate of vnf1 whose end script fails is rolled back, then vnf1 is instantiated, listed, scaled out
and back to level 0, described and relabelled, two of its VNFCs healed; its change of package is read and planned,
tried with a coordination hook that refuses VDU1 (rolled back), made, and made again with Tacker's request and Python
scripts (which opts in to the package's interface scripts); its external connectivity is planned, changed while an
interface script fails (a marker file: FAILED_TEMP, rolled back) and changed; it is terminated and its identifier is gone.

VM operations take nearly all the time (about half a minute to two minutes each on 2 cores, more when the machine is
busy): each is an example, but for the two setup operations that are rolled back.
"""

from __future__ import annotations

import json
import os
import shutil
import uuid

import pytest

from ansible_collections.nfv.vnflcm.tests.integration.module_examples import Example, Setup, localize, problems, run_scenario, timings
from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import CLOUD, NEW, OLD, delete_stacks, relabel, stacks_of_instance

pytestmark = pytest.mark.tier2

NAME = "vnf1"
RELABELLED = "6b02a1b4-8c7e-4f61-9d0e-2f1c3e4d5a6b"
INSTANTIATE = ("vnf_instantiate", "Instantiate a VM-based VNF on OpenStack (Tacker's request works unchanged)")
MOVE = ("vnf_change_ext_conn", "Move VDU2's external CP to net1, on a given subnet with a fixed address")
CHANGE = ("vnf_change_pkg", "Change to the new package, VDU1 then VDU2, moving VDU1_CP1 to net1 and the new CP4s onto net0")
FAILED_TEMP = {"register": "examples_failed",
               "failed_when": "examples_failed.vnf_lcm_op_occ.operationState | default('') != 'FAILED_TEMP'"}
# A new-VNF coordination hook that refuses VDU1 (after its update): the change stops FAILED_TEMP.
REFUSE_VDU1 = """
- name: Refuse VDU1
  ansible.builtin.fail:
    msg: VDU1 coordination refused
  when: vnflcm_coordination.vnfc.vdu_id == 'VDU1'
"""
# Stand-ins for the coordination the package's requests name, logging what they are given (one JSON line per call).
HOOK = """
- name: Note the VNFC ({kind})
  ansible.builtin.lineinfile:
    path: {log}
    line: '{{{{ {{"hook": "{kind}", "vdu": vnflcm_coordination.vnfc.vdu_id, "rollback": vnflcm_coordination.rollback}} | to_json }}}}'
    create: true
"""
SAMPLE_SCRIPT = """import os
import pickle
import sys

given = pickle.load(sys.stdin.buffer)
if os.path.exists(os.path.join({markers!r}, given["operation"])):
    sys.stderr.write("marker file set: " + given["operation"] + " fails")
    sys.exit(1)
"""
SCRIPT = """import json
import pickle
import sys

vnfc_param = pickle.load(sys.stdin.buffer)
with open({log!r}, "a") as log:
    log.write(json.dumps({{"script": "coordinate_vnf.py", "cp_name": vnfc_param["cp_name"], "rollback": vnfc_param["is_rollback"]}}) + "\\n")
"""


def ip_config(subnet=None):
    address = {"type": "IPV4", "numDynamicAddresses": 1}
    if subnet:
        address["subnetId"] = subnet
    return {"cpProtocolData": [{"layerProtocol": "IP_OVER_ETHERNET", "ipOverEthernet": {"ipAddresses": [address]}}]}


def change_ext_conn_req(net_ids):
    """paramgen's change_ext_conn_min on the lab's networks: VDU2_CP1 to net1."""
    return {"extVirtualLinks": [{"id": "ext_vl_id_net1", "resourceId": net_ids["net1"], "extCps": [
        {"cpdId": "VDU2_CP1", "cpConfig": {"VDU2_CP1_1": ip_config()}}]}]}


def change_vnfpkg_req(vnfd, net_ids):
    """paramgen's sample5_change_vnfpkg for this VNF: the CP4s on net0, Tacker's coordination script for both VDUs, its
    user data class and a name for VDU1-0's server."""
    def vnfc_param(cp_name):
        return {"cp_name": cp_name, "username": "ubuntu", "password": "ubuntu"}

    return {
        "vnfdId": vnfd,
        "extVirtualLinks": [{"id": "ext_vl_id_net4", "resourceId": net_ids["net0"], "extCps": [
            {"cpdId": "VDU1_CP4", "cpConfig": {"VDU1_CP4_1": ip_config()}},
            {"cpdId": "VDU2_CP4", "cpConfig": {"VDU2_CP4_1": ip_config()}}]}],
        "additionalParams": {
            "upgrade_type": "RollingUpdate",
            "lcm-operation-coordinate-new-vnf": "./Scripts/coordinate_vnf.py",
            "lcm-operation-coordinate-old-vnf": "./Scripts/coordinate_vnf.py",
            "vdu_params": [
                {"vdu_id": "VDU1", "old_vnfc_param": vnfc_param("VDU1_CP1"), "new_vnfc_param": vnfc_param("VDU1_CP1")},
                {"vdu_id": "VDU2", "old_vnfc_param": vnfc_param("VDU2_CP1"), "new_vnfc_param": vnfc_param("VDU2_CP1")}],
            "lcm-operation-user-data": "./UserData/userdata_standard.py",
            "lcm-operation-user-data-class": "StandardUserData",
            "nfv": {"VDU": {"VDU1-0": {"name": "VDU1-a-001-change_vnfpkg"}}},
        },
    }


def op_occ(operation):
    def check(result):
        assert result["vnf_lcm_op_occ"]["operation"] == operation, result["vnf_lcm_op_occ"]
    return check


def zip_read(result):
    assert result["package"]["format"] == "zip" and list(result["package"]["vnfd"]["flavours"]) == ["simple"], result["package"]["format"]


def listed(result):
    assert NAME in [item["vnfInstanceName"] for item in result["vnf_instances"]], result["vnf_instances"]


def level(value):
    def check(result):
        status = result["vnf_instance"]["instantiatedVnfInfo"]["scaleStatus"]
        assert status == [{"aspectId": "VDU1_scale", "scaleLevel": value}], status
    return check


def described(result):
    instance = result["vnf_instance"]
    assert instance["vnfInstanceDescription"] == "VM-based VNF of team B" and instance["metadata"]["owner"] == "team-b", instance
    properties = [item.get("vnfcConfigurableProperties") for item in instance["instantiatedVnfInfo"]["vnfcInfo"]]
    assert {"role": "primary"} in properties, properties


def relabelled(result):
    assert result["vnf_instance"]["vnfdId"] == RELABELLED, result["vnf_instance"]["vnfdId"]


def volumes_replaced(result):
    assert result["vnf_lcm_op_occ"]["resourceChanges"]["affectedVirtualStorages"], result["vnf_lcm_op_occ"]["resourceChanges"]


def moves(*cps):
    def check(result):
        assert [move["cp"] for move in result["plan"]["moves"]] == list(cps) and result["plan"]["preview"], result["plan"]
    return check


def moved(result):
    cps = {link["id"]: [cp["cpdId"] for cp in link["currentVnfExtCpData"]] for link in result["vnf_lcm_op_occ"]["changedExtConnectivity"]}
    assert cps["ext-net1-vdu2"] == ["VDU2_CP1"], cps


def planned_change(result):
    assert result["plan"]["summary"]["resized"] == ["VDU2-0"] and "VDU1-0" not in str(result["plan"]["summary"]), result["plan"]["summary"]


def changed_package(result):
    assert result["vnf_instance"]["vnfdId"] != RELABELLED and "VDU1-0: port_moved VDU1_CP1 (net0 -> net1)" in result["plan"]["lines"], result["plan"]["lines"]
    assert result["plan"]["summary"]["rebuilt"] == ["VDU1-0"], result["plan"]["summary"]


def tackers_change(result):
    assert result["plan"]["summary"]["updated"] == ["VDU1-0", "VDU2-0"], result["plan"]["summary"]


def gone(result):
    assert result["vnf_instance"] is None and result["deleted"] == [], result


SCENARIO = [
    Example("vnf_package_info", "Read a zipped package for instantiation, one flavour only", changed=False, check=zip_read),
    # The zipped package's instantiate_end script (with_sample_script) fails, its marker file set, once Heat created the
    # stack: FAILED_TEMP, with its record in the stack. (A failure inside Heat's create, a port Neutron refuses, may come
    # before Heat made the record's resource: the run deletes its stack then and keeps nothing, no op occ to roll back.)
    Setup("make instantiate's end script fail", {"ansible.builtin.file": {"path": "{{ examples_markers }}/instantiate_end", "state": "touch"}}),
    Setup("instantiate vnf1 running the package's interface scripts: instantiate_end fails", like=INSTANTIATE,
          args={"package": "/srv/packages/userdata_standard.zip", "allow_package_scripts": True}, **FAILED_TEMP),
    Setup("let the end script pass", {"ansible.builtin.file": {"path": "{{ examples_markers }}/instantiate_end", "state": "absent"}}),
    Example("vnf_lcm_op_occ", "Roll back a failed instantiate on OpenStack (deletes its stack)", changed=True, state="ROLLED_BACK",
            check=op_occ("INSTANTIATE")),
    Example(*INSTANTIATE, changed=True, state="COMPLETED"),
    Example("vnf_info", "List the VNF instances of an OpenStack project", check=listed),
    Example("vnf_scale", "Scale a VM-based VNF out on OpenStack", changed=True, state="COMPLETED", check=level(1)),
    Example("vnf_scale_to_level", "Scale one aspect of a VM-based VNF on OpenStack back to level 0", changed=True, state="COMPLETED",
            check=level(0)),
    Example("vnf_modify", "On OpenStack, describe a VM-based VNF, merge its metadata and a VNFC's properties (the record only, no stack update)",
            changed=True, state="COMPLETED", check=described),
    Example("vnf_modify", "On OpenStack, move a VM-based VNF to a new VNFD that describes the same deployment (the record only)",
            changed=True, state="COMPLETED", check=relabelled),
    Example("vnf_heal", "Replace the server of one VNFC on OpenStack", changed=True, state="COMPLETED"),
    Example("vnf_heal", "Replace a VNFC's server and its Cinder volumes too (Tacker v2's all)", changed=True, state="COMPLETED",
            check=volumes_replaced),

    Example("vnf_change_pkg", "Read the new package (the requests below give its vnfdId)", changed=False),
    Example("vnf_change_pkg", "See what the change would do (plan and Heat's preview, nothing written)", changed=True, check=planned_change),
    Setup("change the package with a new-VNF hook that refuses VDU1", like=CHANGE,
          args={"request": {"additionalParams": {"lcm-operation-coordinate-new-vnf": "{{ playbook_dir }}/refuse_vdu1.yml"}}}, **FAILED_TEMP),
    Example("vnf_change_pkg", "Roll back a change that failed", changed=True, state="ROLLED_BACK", check=op_occ("CHANGE_VNFPKG")),
    Example(*CHANGE, changed=True, state="COMPLETED", check=changed_package),
    Example("vnf_change_pkg", "A Tacker v2 request and package as they are, running the package's Python coordination scripts",
            changed=True, state="COMPLETED", check=tackers_change),

    # From here on the instance runs the new package's interface scripts (the opt-in of Tacker's request): a marker file
    # makes change_external_connectivity_start fail, before anything is written.
    Example("vnf_change_ext_conn", "Show which CPs would move, and Heat's preview, without changing anything", check=moves("VDU2_CP1-0")),
    Setup("make the change's start script fail", {
        "ansible.builtin.file": {"path": "{{ examples_markers }}/change_external_connectivity_start", "state": "touch"}}),
    Setup("move VDU2's CP", like=MOVE, **FAILED_TEMP),
    Example("vnf_change_ext_conn", "Roll back a change that failed (FAILED_TEMP)", changed=True, state="ROLLED_BACK", check=op_occ("CHANGE_EXT_CONN")),
    Setup("let the start script pass", {"ansible.builtin.file": {"path": "{{ examples_markers }}/change_external_connectivity_start",
                                                                 "state": "absent"}}),
    Example(*MOVE, changed=True, state="COMPLETED", check=moved),

    Example("vnf_terminate", "Terminate a VM-based VNF on OpenStack, at once", changed=True, state="COMPLETED"),
    # The record went with the stack: nothing left to delete.
    Example("vnf_delete", "Delete a VM-based VNF's identifier on OpenStack, by id", changed=False, check=gone),
]


def build_packages(tacker_packages, folder, log, markers):
    """The packages folder (see the module's docstring); the change package's vnfdId."""
    folder.mkdir()
    for name in os.listdir(tacker_packages):
        if os.path.isdir(os.path.join(tacker_packages, name, "TOSCA-Metadata")):
            os.symlink(os.path.join(tacker_packages, name), folder / name)
    whole = folder.parent / "userdata_standard-whole"
    shutil.copytree(os.path.join(tacker_packages, OLD), whole)
    with_sample_script(whole, markers)
    shutil.make_archive(str(folder / OLD), "zip", str(whole))
    relabel(os.path.join(tacker_packages, OLD), folder / "vnf1-relabelled", RELABELLED)
    os.unlink(folder / NEW)
    new_id = str(uuid.uuid4())
    package = relabel(os.path.join(tacker_packages, NEW), folder / NEW, new_id)
    scripts = package / "Scripts"
    scripts.mkdir()
    for kind in ("new", "old"):
        (scripts / "coordinate_{0}_vnf.yml".format(kind)).write_text(HOOK.format(kind=kind, log=log))
    (scripts / "coordinate_vnf.py").write_text(SCRIPT.format(log=str(log)))
    with_sample_script(package, markers)
    return new_id


def with_sample_script(package, markers):
    """The VNFD's interface script (Scripts/sample_script.py), which allow_package_scripts runs too: it fails the hook
    (``change_external_connectivity_start``, ...) whose marker file is in ``markers``, as Tacker's fail file does."""
    (package / "Scripts").mkdir(exist_ok=True)
    (package / "Scripts" / "sample_script.py").write_text(SAMPLE_SCRIPT.format(markers=str(markers)))


def delete_vnf1(admin_conn):
    """Delete the stacks an interrupted run of vnf1 left, and wait until they are gone."""
    delete_stacks(admin_conn, list(filter(None, [admin_conn.orchestration.find_stack(name) for name in stacks_of_instance(admin_conn, NAME)])))


@pytest.fixture
def no_vnf1(lab, admin_conn):
    delete_vnf1(admin_conn)
    yield
    delete_vnf1(admin_conn)


def test_every_openstack_example_runs_as_written(lab, admin_conn, no_vnf1, tacker_packages, tmp_path):
    log = tmp_path / "coordination.jsonl"
    markers = tmp_path / "markers"
    markers.mkdir()
    new_id = build_packages(tacker_packages, tmp_path / "packages", log, markers)
    play = tmp_path / "play"
    play.mkdir()
    net_ids = {name: admin_conn.network.find_network(name).id for name in ("net0", "net1")}
    (play / "change_ext_conn_req.json").write_text(json.dumps(change_ext_conn_req(net_ids), indent=2))
    (play / "change_vnfpkg_req.json").write_text(json.dumps(change_vnfpkg_req(new_id, net_ids), indent=2))
    (play / "refuse_vdu1.yml").write_text(REFUSE_VDU1)
    password = "vnfc-" + uuid.uuid4().hex
    defaults = {"wait_timeout": 900}

    pairs, done = run_scenario(tmp_path, SCENARIO, defaults, {"vnfc_password": password, "examples_markers": str(markers)},
                               env={"OS_CLIENT_CONFIG_FILE": str(lab.clouds_yaml)},
                               localized=lambda task: localize(task, str(tmp_path / "packages"), cloud=CLOUD))
    print("\n".join("{0:6.1f} s  {1}".format(*item) for item in timings(pairs)[:12]))
    found = problems(pairs, done)
    assert not found, "\n".join(found)
    assert password not in (tmp_path / "results.jsonl").read_text()
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    # The refused change's rollback (VDU2, then VDU1 back: the old-VNF task file), the change (VDU1, VDU2: the new-VNF
    # task file), Tacker's (VDU1, VDU2: its script).
    assert calls == [
        {"hook": "old", "vdu": "VDU2", "rollback": True}, {"hook": "old", "vdu": "VDU1", "rollback": True},
        {"hook": "new", "vdu": "VDU1", "rollback": False}, {"hook": "new", "vdu": "VDU2", "rollback": False},
        {"script": "coordinate_vnf.py", "cp_name": "VDU1_CP1", "rollback": False},
        {"script": "coordinate_vnf.py", "cp_name": "VDU2_CP1", "rollback": False}], calls
