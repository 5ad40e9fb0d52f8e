# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A package user-data script of its own (not Tacker's classes) on the tier-2 lab, basic_lcms_min with UserData/mine.py.

Refused without allow_package_scripts; with it, a script that hangs or fails is a clear error and no stack; the
script computes the stack (VDU2 on a flavour of its choosing); a scale applies its built-in change to that stack (the
script's flavour stays); a change of package runs the new package's script (VDU2 resized, its server kept). A script
written for Tacker (importing Tacker's helper modules) runs on the collection's own versions of them; its instantiate
killed while Heat creates the stack is retried to the end, and a modify of the instance's vnfdId killed in the VNFD's
modify_information_start script is retried with the new package (refused without it) and, killed again, rolled back.
"""

from __future__ import annotations

import json
import os
import shutil
import uuid

import pytest

from ansible_collections.nfv.vnflcm.tests.integration.faults import wait_for
from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import (
    CLOUD,
    change,
    heat_writes,
    info_of,
    instantiate,
    keystone_url,
    kill_when,
    kill_while_heat_creates,
    record_of,
    repackaged,
    stack_of,
    stack_updates,
    stacks_of_instance,
    vnfd_id,
)
from ansible_collections.nfv.vnflcm.tests.integration.openstack.test_vnf_heat_asg import terminate, vdu_servers
from ansible_collections.nfv.vnflcm.tests.unit.plugins.module_utils.heat.tacker_script import TACKER_SCRIPT

pytestmark = pytest.mark.tier2

# Self-contained (no Tacker import): the top template and VDU1.yaml as the package has them, VDU1's capacity from the
# grant request's COMPUTE resources (as Tacker's get_param_capacity counts them), VDU2 on m1.small where the VNFD says
# m1.tiny. Its change_vnfpkg returns only what changes, merged into the stack as Tacker merges it.
SCRIPT = '''
import os
import time


class MyUserData:
    @staticmethod
    def instantiate(req, inst, grant_req, grant, tmp_csar_dir):
        print("stack of", inst["id"], "from", inst["vnfdId"])
        base = os.path.join(tmp_csar_dir, "BaseHOT", req["flavourId"])
        with open(os.path.join(base, "sample2.yaml")) as top, open(os.path.join(base, "nested", "VDU1.yaml")) as nested:
            template, vdu1 = top.read(), nested.read()
        count = len([res for res in grant_req["addResources"] if res["type"] == "COMPUTE" and res["resourceTemplateId"] == "VDU1"])
        image = "cirros-0.5.2-x86_64-disk"
        nfv = {"VDU": {"VDU1": {"computeFlavourId": "m1.tiny", "vcImageId": image, "desired_capacity": count},
                       "VDU2": {"computeFlavourId": "m1.small", "vcImageId": image}}}
        return {"template": template, "files": {"VDU1.yaml": vdu1}, "parameters": {"nfv": nfv}}

    @staticmethod
    def change_vnfpkg(req, inst, grant_req, grant, tmp_csar_dir):
        resized = [res["resourceTemplateId"] for res in grant_req["removeResources"] if res["type"] == "COMPUTE"]
        return {"parameters": {"nfv": {"VDU": {vdu: {"computeFlavourId": "m1.medium"} for vdu in resized}}}}


class Hangs:
    @staticmethod
    def instantiate(req, inst, grant_req, grant, tmp_csar_dir):
        time.sleep(600)


class Fails:
    @staticmethod
    def instantiate(req, inst, grant_req, grant, tmp_csar_dir):
        raise RuntimeError("no flavour in my table for " + req["flavourId"])
'''


# The VNFD's Vnflcm interface script (basic_lcms_min: instantiate_start/_end, terminate_start/_end, ...), which runs with the same
# opt-in: it logs each operation and fails the one the test marks.
INTERFACE_SCRIPT = """
import os, pickle, sys
operation = pickle.load(sys.stdin.buffer)["operation"]
with open(os.path.join({marks!r}, "log"), "a") as log:
    log.write(operation + "\\n")
if os.path.exists(os.path.join({marks!r}, "fail-" + operation)):
    sys.exit("the test made " + operation + " fail")
"""


# Tacker's way on top: the stack as Tacker's helpers make it (VDU1's flavour and image from the VNFD, its capacity from
# the grant request), and VDU2 on m1.small, which only this script says.
TACKER_STYLE = TACKER_SCRIPT + '''

class Resized(UserData):
    @staticmethod
    def instantiate(req, inst, grant_req, grant, tmp_csar_dir):
        fields = UserData.instantiate(req, inst, grant_req, grant, tmp_csar_dir)
        inst_utils.json_merge_patch(fields["parameters"]["nfv"], {"VDU": {"VDU2": {"computeFlavourId": "m1.small"}}})
        return fields
'''


def scripted(source, path):
    """A copy of basic_lcms_min with a vnfdId of its own, UserData/mine.py and its interface script (logging next to the copy)."""
    repackaged(source, path)
    (path / "UserData").mkdir()
    (path / "UserData" / "mine.py").write_text(SCRIPT)
    (path / "Scripts").mkdir()
    (path / "Scripts" / "sample_script.py").write_text(INTERFACE_SCRIPT.format(marks=str(path.parent)))
    return path


def interface_runs(package):
    log = os.path.join(os.path.dirname(package), "log")
    return open(log).read().split() if os.path.exists(log) else []


def with_script(request, name="MyUserData"):
    return dict(request, additionalParams={"lcm-operation-user-data": "./UserData/mine.py", "lcm-operation-user-data-class": name})


def flavours(conn, server_ids):
    return [conn.compute.get_server(server).flavor["original_name"] for server in server_ids]


def test_a_package_script_runs_only_when_allowed_and_later_operations_keep_what_it_set(lab, admin_conn, ansible_task, tacker_packages, tmp_path):
    name = "vnf-ud-" + uuid.uuid4().hex[:6]
    package = str(scripted(os.path.join(tacker_packages, "basic_lcms_min"), tmp_path / "mine"))
    base = {"cloud": CLOUD, "vnf_instance_name": name, "wait_timeout": 600}
    # Tacker's VIM connection in the request, with a password: the stack's record (which the project reads) must not
    # keep it, nor the script get it (the connection itself is the cloud's, whose Keystone it names: module options win).
    password = "vim-password-" + uuid.uuid4().hex
    vims = {"vim1": {"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3", "interfaceInfo": {"endpoint": keystone_url(lab)},
                     "accessInfo": {"username": "tacker", "password": password, "project": "demo", "region": "RegionOne"}}}
    request = with_script({"flavourId": "simple", "instantiationLevelId": "instantiation_level_1", "vimConnectionInfo": vims})
    allowed = {"args": {"allow_package_scripts": True}}

    # Not allowed: refused, and the message names the option. Allowed but hanging or failing: a clear error. No stack.
    refused = instantiate(ansible_task, package, name, request)
    assert refused.get("failed") and "allow_package_scripts: true" in refused["msg"], refused.get("msg")
    hangs = instantiate(ansible_task, package, name, with_script(request, "Hangs"), args={"allow_package_scripts": True, "wait_timeout": 5})
    assert hangs.get("failed") and "UserData/mine.py (Hangs.instantiate): timed out after 5s" in hangs["msg"], hangs.get("msg")
    fails = instantiate(ansible_task, package, name, with_script(request, "Fails"), **allowed)
    assert fails.get("failed") and "RuntimeError: no flavour in my table for simple" in fails["msg"], fails.get("msg")
    assert stacks_of_instance(admin_conn, name) == [] and interface_runs(package) == []

    # The VNFD's instantiate_end script failing: the stack is there, the op occ FAILED_TEMP; the rollback (which runs no
    # script) deletes the stack.
    (tmp_path / "fail-instantiate_end").write_text("")
    failed = instantiate(ansible_task, package, name, request, **allowed)
    assert failed.get("failed") and "Vnflcm.instantiate_end script Scripts/sample_script.py" in failed["msg"], failed.get("msg")
    assert failed["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP" and len(stacks_of_instance(admin_conn, name)) == 1
    rolled = ansible_task("vnf_lcm_op_occ", dict(base, action="rollback"))
    assert not rolled.get("failed") and rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK", rolled.get("msg")
    assert stacks_of_instance(admin_conn, name) == [] and interface_runs(package) == ["instantiate_start", "instantiate_end"]
    (tmp_path / "fail-instantiate_end").unlink()

    # Check mode: the script's stack in the plan, Heat's preview, nothing created.
    planned = instantiate(ansible_task, package, name, request, check=True, **allowed)
    assert not planned.get("failed") and planned["plan"]["user_data"] == "UserData/mine.py (MyUserData.instantiate)", planned.get("msg")
    assert planned["plan"]["nfv"]["VDU"]["VDU2"]["computeFlavourId"] == "m1.small"
    assert stacks_of_instance(admin_conn, name) == []
    try:
        done = instantiate(ansible_task, package, name, request, **allowed)
        assert not done.get("failed"), done.get("msg")
        assert done["hooks_run"] == ["instantiate_start", "instantiate_end"] and interface_runs(package)[-2:] == done["hooks_run"]
        stack_name = info_of(done)["metadata"]["stack_name"]
        assert password not in json.dumps(record_of(admin_conn, stack_name))
        vdu1, vdu2 = vdu_servers(done, "VDU1"), vdu_servers(done, "VDU2")
        assert flavours(admin_conn, vdu1 + vdu2) == ["m1.tiny", "m1.small"]
        writes = len(heat_writes(lab, stack_name))
        again = instantiate(ansible_task, package, name, request, **allowed)
        assert not again.get("failed") and again["changed"] is False, again.get("msg")
        assert len(heat_writes(lab, stack_name)) == writes

        # A scale request naming the script is refused; without it, the built-in scale of that stack: one more VDU1
        # member, VDU2 kept on the script's flavour (not updated at all).
        scale = dict(base, request={"type": "SCALE_OUT", "aspectId": "VDU1_scale"})
        named = ansible_task("vnf_scale", dict(scale, request=with_script(scale["request"])))
        assert named.get("failed") and "runs one only where the operation is given the package" in named["msg"], named.get("msg")
        scaled = ansible_task("vnf_scale", scale)
        assert not scaled.get("failed"), scaled.get("msg")
        now = vdu_servers(scaled, "VDU1")
        assert len(now) == 2 and now[0] == vdu1[0] and vdu_servers(scaled, "VDU2") == vdu2
        assert flavours(admin_conn, now + vdu2) == ["m1.tiny", "m1.tiny", "m1.small"]
        nfv = stack_of(admin_conn, info_of(scaled))["nfv"]
        assert nfv["VDU"]["VDU2"]["computeFlavourId"] == "m1.small" and nfv["VDU"]["VDU1"]["desired_capacity"] == 2

        # A change of package to the same package under another vnfdId, its script resizing the VDU of vdu_params:
        # VDU2 on m1.medium, its server kept; VDU1 untouched.
        target = str(scripted(os.path.join(tacker_packages, "basic_lcms_min"), tmp_path / "mine-v2"))
        updates = len(stack_updates(lab, stack_name))
        params = dict(with_script({})["additionalParams"], upgrade_type="RollingUpdate", vdu_params=[{"vdu_id": "VDU2"}])
        changed = change(ansible_task, target, name, {"vnfdId": vnfd_id(target), "additionalParams": params}, **allowed)
        assert not changed.get("failed") and changed["vnf_lcm_op_occ"]["operationState"] == "COMPLETED", changed.get("msg")
        assert vdu_servers(changed, "VDU2") == vdu2 and vdu_servers(changed, "VDU1") == now
        assert flavours(admin_conn, now + vdu2) == ["m1.tiny", "m1.tiny", "m1.medium"]
        assert len(stack_updates(lab, stack_name)) == updates + 1
        assert changed["vnf_instance"]["vnfdId"] == vnfd_id(target)
    finally:
        gone = terminate(ansible_task, base)
    assert not gone.get("failed"), gone.get("msg")
    assert stacks_of_instance(admin_conn, name) == []
    # The terminate ran the interface script of the package the instance has now (mine-v2's; both copies log to one file).
    assert interface_runs(target)[-2:] == ["terminate_start", "terminate_end"]
    shutil.rmtree(tmp_path / "mine", ignore_errors=True)


def test_a_script_written_for_tacker_runs_on_the_collections_helpers(admin_conn, ansible_task, tacker_packages, tmp_path):
    name = "vnf-udt-" + uuid.uuid4().hex[:6]
    package = repackaged(os.path.join(tacker_packages, "basic_lcms_min"), tmp_path / "tacker-style")
    (package / "UserData").mkdir()
    (package / "UserData" / "userdata.py").write_text(TACKER_STYLE)
    (package / "Scripts").mkdir()
    (package / "Scripts" / "sample_script.py").write_text("# the VNFD's Vnflcm interface script, which the opt-in also runs: nothing to do\n")
    base = {"cloud": CLOUD, "vnf_instance_name": name, "wait_timeout": 600}
    request = {"flavourId": "simple", "instantiationLevelId": "instantiation_level_1",
               "additionalParams": {"lcm-operation-user-data": "./UserData/userdata.py", "lcm-operation-user-data-class": "Misnamed"}}
    allowed = {"args": {"allow_package_scripts": True}}

    # A helper the collection's tacker modules do not have: the script named, Python's reason, no stack.
    misnamed = instantiate(ansible_task, str(package), name, request, **allowed)
    assert misnamed.get("failed") and "UserData/userdata.py (Misnamed.instantiate)" in misnamed["msg"], misnamed.get("msg")
    assert "cannot import name 'get_param_flavour' from 'tacker.sol_refactored.common.common_script_utils'" in misnamed["msg"]
    assert "this collection's versions of Tacker's script helpers" in misnamed["msg"]
    assert stacks_of_instance(admin_conn, name) == []

    request["additionalParams"]["lcm-operation-user-data-class"] = "Resized"
    try:
        done = instantiate(ansible_task, str(package), name, request, **allowed)
        assert not done.get("failed"), done.get("msg")
        nfv = stack_of(admin_conn, info_of(done))["nfv"]
        image = "cirros-0.5.2-x86_64-disk"
        assert nfv["VDU"] == {"VDU1": {"desired_capacity": 1, "computeFlavourId": "m1.tiny", "vcImageId": image},
                              "VDU2": {"computeFlavourId": "m1.small", "vcImageId": image}}
        assert flavours(admin_conn, vdu_servers(done, "VDU1") + vdu_servers(done, "VDU2")) == ["m1.tiny", "m1.small"]
    finally:
        gone = terminate(ansible_task, base)
    assert not gone.get("failed"), gone.get("msg")
    assert stacks_of_instance(admin_conn, name) == []


# The VNFD's interface script of the killed modify: it holds ``<operation>`` while the test's file ``hold-<operation>``
# is there, after saying so (``hold-<operation>.reached``), and logs the operations it ran.
HOLDING_SCRIPT = """
import os, pickle, sys, time
operation = pickle.load(sys.stdin.buffer)["operation"]
with open(os.path.join({marks!r}, "log"), "a") as log:
    log.write(operation + "\\n")
hold = os.path.join({marks!r}, "hold-" + operation)
if os.path.exists(hold):
    open(hold + ".reached", "w").close()
    deadline = time.monotonic() + 300
    while os.path.exists(hold) and time.monotonic() < deadline:
        time.sleep(0.2)
"""


def tacker_style(tacker_packages, path, interface_script):
    package = repackaged(os.path.join(tacker_packages, "basic_lcms_min"), path)
    (package / "UserData").mkdir()
    (package / "UserData" / "userdata.py").write_text(TACKER_STYLE)
    (package / "Scripts").mkdir()
    (package / "Scripts" / "sample_script.py").write_text(interface_script)
    return package


def killed_in(ansible_task, admin_conn, stack_name, marks, operation, module, args):
    """Run ``module`` in the background, SIGKILL it while the VNFD's ``operation`` script holds; its op occ."""
    hold, reached = marks / ("hold-" + operation), marks / ("hold-" + operation + ".reached")
    hold.write_text("")
    task = ansible_task(module, args, background=True)
    try:
        wait_for(reached.exists, operation + " to hold", timeout=300, sleep=0.2)
        occ = kill_when(admin_conn, stack_name, lambda instance: True)
        task.wait()
    finally:
        hold.unlink()
        reached.unlink(missing_ok=True)
    return occ


def test_a_killed_tacker_style_instantiate_is_retried_and_a_killed_modify_of_its_vnfd_id_retried_and_rolled_back(
        lab, admin_conn, ansible_task, tacker_packages, tmp_path, created):
    name = "vnf-udk-" + uuid.uuid4().hex[:6]
    script = HOLDING_SCRIPT.format(marks=str(tmp_path))
    package = tacker_style(tacker_packages, tmp_path / "tacker-style", script)
    twin = repackaged(package, tmp_path / "tacker-style-twin")  # the same deployment under another vnfdId
    base = {"cloud": CLOUD, "vnf_instance_name": name, "wait_timeout": 600}
    request = {"flavourId": "simple", "instantiationLevelId": "instantiation_level_1",
               "additionalParams": {"lcm-operation-user-data": "./UserData/userdata.py", "lcm-operation-user-data-class": "Resized"}}

    # Killed once the record is in the stack Heat creates: the retry (no package) completes that stack, the one there is.
    task = instantiate(ansible_task, str(package), name, request, background=True, args={"allow_package_scripts": True})
    stack_name, killed = kill_while_heat_creates(admin_conn, task, name, created)
    try:
        retried = ansible_task("vnf_lcm_op_occ", dict(base, action="retry"))
        assert not retried.get("failed"), retried.get("msg")
        assert retried["vnf_lcm_op_occ"]["id"] == killed["id"] and retried["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
        assert stacks_of_instance(admin_conn, name) == [stack_name]
        assert flavours(admin_conn, vdu_servers(retried, "VDU1") + vdu_servers(retried, "VDU2")) == ["m1.tiny", "m1.small"]
        old_id, new_id = vnfd_id(str(package)), vnfd_id(str(twin))
        modify = dict(base, package=str(twin), request={"vnfdId": new_id})

        # A modify of vnfdId killed in its modify_information_start script: nothing of the record changed. A retry
        # without the package is refused asking for it (the record still unchanged); with it, the modify completes.
        record = record_of(admin_conn, stack_name)[0]
        occ = killed_in(ansible_task, admin_conn, stack_name, tmp_path, "modify_information_start", "vnf_modify", modify)
        assert record_of(admin_conn, stack_name)[0] == record
        bare = ansible_task("vnf_lcm_op_occ", dict(base, action="retry"))
        assert bare.get("failed") and "{0!r} is a new VNFD: give its package (option package)".format(new_id) in bare["msg"], bare.get("msg")
        assert record_of(admin_conn, stack_name)[0]["vnfdId"] == old_id
        done = ansible_task("vnf_lcm_op_occ", dict(base, action="retry", package=str(twin)))
        assert not done.get("failed"), done.get("msg")
        assert done["vnf_lcm_op_occ"]["id"] == occ["id"] and done["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
        assert done["vnf_instance"]["vnfdId"] == new_id and record_of(admin_conn, stack_name)[0]["vnfdId"] == new_id

        # Killed again on the way back: the rollback ends it ROLLED_BACK with the record as it was, no script run.
        back = dict(base, package=str(package), request={"vnfdId": old_id})
        occ = killed_in(ansible_task, admin_conn, stack_name, tmp_path, "modify_information_start", "vnf_modify", back)
        runs = interface_runs(str(package))
        rolled = ansible_task("vnf_lcm_op_occ", dict(base, action="rollback"))
        assert not rolled.get("failed"), rolled.get("msg")
        assert rolled["vnf_lcm_op_occ"]["id"] == occ["id"] and rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK"
        assert record_of(admin_conn, stack_name)[0]["vnfdId"] == new_id and interface_runs(str(package)) == runs
    finally:
        gone = terminate(ansible_task, base)
    assert not gone.get("failed"), gone.get("msg")
    assert stacks_of_instance(admin_conn, name) == []
