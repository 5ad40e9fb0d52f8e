# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Package user-data scripts: when one is refused, what it is given, and how it runs (a real subprocess)."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import OperationTimeout, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import user_data, user_data_policy
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import template as heat_template
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.form import form_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

MINE = {"lcm-operation-user-data": "./UserData/mine.py", "lcm-operation-user-data-class": "MyUserData"}

# A script as a package would carry it, with no Tacker import: the top template as it is, VDU1's capacity from the
# grant request (Tacker's get_param_capacity), and a print that must not be taken for the result.
SCRIPT = '''
import os
import yaml


class MyUserData:
    @staticmethod
    def instantiate(req, inst, grant_req, grant, tmp_csar_dir):
        print("computing the stack of", inst["id"])
        base = os.path.join(tmp_csar_dir, "BaseHOT", req["flavourId"])
        with open(os.path.join(base, "sample2.yaml")) as handle:
            template = handle.read()
        with open(os.path.join(base, "nested", "VDU1.yaml")) as handle:
            nested = handle.read()
        count = len([res for res in grant_req["addResources"] if res["type"] == "COMPUTE" and res["resourceTemplateId"] == "VDU1"])
        nfv = {"VDU": {"VDU1": {"computeFlavourId": "m1.tiny", "vcImageId": "cirros", "desired_capacity": count},
                       "VDU2": {"computeFlavourId": "m1.small", "vcImageId": "cirros"}},
               "seen": {"env": sorted(key for key in os.environ if key.startswith("OS_")), "access": [
                   "accessInfo" in vim for vim in (req.get("vimConnectionInfo") or {}).values()]}}
        return {"template": template, "files": {"VDU1.yaml": nested}, "parameters": {"nfv": nfv}}

    @staticmethod
    def change_vnfpkg(req, inst, grant_req, grant, tmp_csar_dir):
        return {"parameters": {"nfv": {"VDU": {"VDU2": {"computeFlavourId": grant_req["dstVnfdId"]}}}}}

    @staticmethod
    def hangs(req, inst, grant_req, grant, tmp_csar_dir):
        import time
        time.sleep(60)

    @staticmethod
    def fails(req, inst, grant_req, grant, tmp_csar_dir):
        raise RuntimeError("no such flavour in my table")

    @staticmethod
    def odd(req, inst, grant_req, grant, tmp_csar_dir):
        return {"template": "heat_template_version: 2013-05-23\\nresources: {}\\n", "environment": {}}
'''


@pytest.fixture
def scripted_package(fixtures_dir, tmp_path):
    """basic_lcms_min with UserData/mine.py (the script above), as a directory."""
    path = tmp_path / "basic_lcms_min"
    shutil.copytree(os.path.join(fixtures_dir, "basic_lcms_min"), path)
    (path / "UserData").mkdir()
    (path / "UserData" / "mine.py").write_text(SCRIPT)
    with load_package(str(path)) as package:
        yield package


@pytest.fixture
def min_form(fixtures_dir):
    with load_package(os.path.join(fixtures_dir, "basic_lcms_min")) as package:
        return form_of(heat_template.load_base_hot(package, "simple")[0])


@pytest.mark.parametrize("params, field, text", [
    (MINE, "additionalParams.lcm-operation-user-data", "allow_package_scripts: true"),
    ({"lcm-operation-user-data": "./UserData/userdata_standard.py", "lcm-operation-user-data-class": "StandardUserData"},
     "additionalParams.lcm-operation-user-data-class", "does not fit the flavour's BaseHOT"),
    ({"lcm-operation-user-data-class": "MyUserData"}, "additionalParams.lcm-operation-user-data", "needs both"),
])
def test_a_script_is_refused_before_anything_unless_allowed_or_built_in(min_form, params, field, text):
    with pytest.raises(ValidationError) as raised:
        user_data_policy.script_of({"additionalParams": params}, min_form, "InstantiateVnfRequest", "INSTANTIATE")
    assert raised.value.field == field and text in raised.value.reason


def test_tackers_own_class_of_the_form_is_done_built_in(min_form):
    builtin = {"lcm-operation-user-data": "./UserData/x.py", "lcm-operation-user-data-class": "DefaultUserData"}
    assert user_data_policy.script_of({"additionalParams": builtin}, min_form, "x", "SCALE") is None
    assert user_data_policy.script_of({}, min_form, "x", "INSTANTIATE") is None


def test_an_allowed_script_runs_only_where_the_package_is_given(min_form):
    found = user_data_policy.script_of({"additionalParams": MINE}, min_form, "x", "INSTANTIATE", allow_scripts=True)
    assert found == {"path": "UserData/mine.py", "class": "MyUserData"}
    for operation in ("SCALE", "SCALE_TO_LEVEL", "HEAL", "CHANGE_EXT_CONN"):
        with pytest.raises(ValidationError, match="runs one only where the operation is given the package"):
            user_data_policy.script_of({"additionalParams": MINE}, min_form, "x", operation, allow_scripts=True)
    with pytest.raises(ValidationError) as raised:
        user_data_policy.script_of({"additionalParams": dict(MINE, **{"lcm-operation-user-data": "UserData/../../x.py"})}, min_form, "x", "INSTANTIATE", True)
    assert raised.value.field == "additionalParams.lcm-operation-user-data"


def test_the_grant_request_has_a_compute_resource_per_vnfc_and_no_secret_leaves(fixtures_dir):
    with load_package(os.path.join(fixtures_dir, "basic_lcms_max")) as package:
        flavour = package.flavour("simple")
    request = {"flavourId": "simple", "vimConnectionInfo": {"v": {"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3", "accessInfo": {"password": "s"}}}}
    req, inst, grant_req, grant = user_data.instantiate_arguments(request, {"id": "i-1", "vnfdId": "d"}, flavour, {"VDU1": [0, 1], "VDU2": [0]}, "o-1")
    computes = [res["resourceTemplateId"] for res in grant_req["addResources"] if res["type"] == "COMPUTE"]
    assert computes == ["VDU1", "VDU1", "VDU2"]
    assert [res["resourceTemplateId"] for res in grant_req["addResources"] if res["type"] == "STORAGE"] == ["VDU1-VirtualStorage"] * 2 + ["VDU2-VirtualStorage"]
    assert "password" not in json.dumps([req, inst, grant_req, grant])
    assert [item["resourceDefinitionId"] for item in grant["addResources"]] == [res["id"] for res in grant_req["addResources"]]
    again = user_data.instantiate_arguments(request, {"id": "i-1", "vnfdId": "d"}, flavour, {"VDU1": [0, 1], "VDU2": [0]}, "o-1")
    assert again[2] == grant_req  # a re-run gives the script the same input


def test_an_allowed_script_computes_the_stack_in_a_subprocess_without_credentials(scripted_package, monkeypatch):
    monkeypatch.setenv("OS_PASSWORD", "secret")
    script = {"path": "UserData/mine.py", "class": "MyUserData"}
    request = {"flavourId": "simple", "vimConnectionInfo": {"v": {"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3", "accessInfo": {"password": "s"}}}}
    arguments = user_data.instantiate_arguments(request, {"id": "i-1", "vnfdId": "d"}, scripted_package.flavour("simple"), {"VDU1": [0, 1], "VDU2": [0]}, "o")
    fields = user_data.run_script(scripted_package, script, "instantiate", arguments, 30, "InstantiateVnfRequest")
    assert fields["nfv"]["VDU"]["VDU1"]["desired_capacity"] == 2 and fields["nfv"]["VDU"]["VDU2"]["computeFlavourId"] == "m1.small"
    assert fields["nfv"]["seen"] == {"env": [], "access": [False]}
    assert "VDU1_scale_group" in fields["template"]["resources"] and fields["template"]["heat_template_version"] == "2013-05-23"
    assert "VDU1.yaml" in fields["files"] and fields["existing"] is True


@pytest.mark.parametrize("method, error, text", [
    ("fails", user_data.ScriptFailed, "RuntimeError: no such flavour in my table"),
    ("hangs", OperationTimeout, "timed out after 1s"),
    ("odd", ValidationError, "fields this collection does not pass to Heat: environment"),
    ("missing", user_data.ScriptFailed, "has no attribute 'missing'"),
])
def test_a_script_that_fails_hangs_or_returns_what_heat_does_not_take_is_a_clear_error(scripted_package, method, error, text):
    script = {"path": "UserData/mine.py", "class": "MyUserData"}
    # 1 s only for the one that hangs: a script's start alone took more on a loaded machine.
    timeout = 1 if method == "hangs" else 60
    with pytest.raises(error) as raised:
        user_data.run_script(scripted_package, script, method, [{}, {}, {}, {}], timeout, "InstantiateVnfRequest")
    assert text in raised.value.msg and "not the rest of Tacker" not in raised.value.msg


def test_a_script_the_package_does_not_have_is_named(scripted_package):
    with pytest.raises(ValidationError, match="the package has no file UserData/other.py"):
        user_data.run_script(scripted_package, {"path": "UserData/other.py", "class": "X"}, "instantiate", [{}, {}, {}, {}], 5, "x")


@pytest.mark.parametrize("fields, text", [
    ([], "list, not a dict"),
    ({"parameters": {"other": 1}}, "parameters other than 'nfv'"),
    ({"parameters": {"nfv": "{not json"}}, "not JSON"),
    ({"template": "a: [b"}, "cannot be read"),
    ({"template": "a: b"}, "not a Heat template"),
    ({"files": {"x.yaml": 3}}, "not a mapping of file names"),
    ({"existing": "no"}, "not a boolean"),
])
def test_what_a_script_returns_is_checked(fields, text):
    with pytest.raises(ValidationError, match=text):
        user_data.checked_fields(fields, "script", "InstantiateVnfRequest")


def test_a_change_of_package_gives_the_named_vdus_vnfcs_to_remove_and_add(min_form):
    inst = {"id": "i-1", "vnfdId": "old", "instantiatedVnfInfo": {
        "flavourId": "simple", "metadata": {"nfv": {}, "vnflcm": {"secret": 1}},
        "vnfcResourceInfo": [{"id": "s-1", "vduId": "VDU1", "computeResource": {"resourceId": "s-1"}, "metadata": {"index": 0}},
                             {"id": "s-2", "vduId": "VDU2", "computeResource": {"resourceId": "s-2"}, "metadata": {}}]}}
    view = user_data.tacker_instance(inst, min_form, "vnflcm")
    assert "vnflcm" not in view["instantiatedVnfInfo"]["metadata"] and "vdu_idx" not in view["instantiatedVnfInfo"]["vnfcResourceInfo"][0]["metadata"]
    _req, _inst, grant_req, _grant = user_data.change_vnfpkg_arguments({"vnfdId": "new", "additionalParams": {}}, view, "simple", ["VDU1"], "o")
    assert grant_req["dstVnfdId"] == "new" and grant_req["operation"] == "CHANGE_VNFPKG"
    assert [res["resource"]["resourceId"] for res in grant_req["removeResources"]] == ["s-1"]
    assert [res["resourceTemplateId"] for res in grant_req["addResources"]] == ["VDU1"]
