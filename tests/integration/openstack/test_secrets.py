# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""No OpenStack credential is ever printed: every module, every credential form openstack.cloud users give,
at -vvvv with --diff in check mode, as an AWX job through ansible-runner: ansible-playbook's output and the job events.

A Keystone user of its own (a random password) authenticates with a cloud dict (password), an application
credential and a token; an AWX OpenStack credential (OS_CLIENT_CONFIG_FILE + OS_CLOUD) and Tacker's
vimConnectionInfo.accessInfo carry the password too. Tier 1 (Keystone + Heat) is enough: the modules that
need Nova or Glance fail, and must fail without printing a secret."""

from __future__ import annotations

import json
import os
import secrets
import uuid

import pytest

from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import OLD, REQUEST
from ansible_collections.nfv.vnflcm.tests.integration.secret_leaks import awx_job_without_leaks, run_without_leaks


INSTANCE = "secrets-vnf"


@pytest.fixture
def keystone_user(openstack_lab, admin_conn):
    """A member of project demo with a random password, an application credential and a token; deleted afterwards."""
    import openstack

    identity = admin_conn.identity
    project = identity.find_project("demo", domain_id="default", ignore_missing=False)
    password = "os-password-" + secrets.token_hex(12)
    user = identity.create_user(name="nfv-secrets-" + uuid.uuid4().hex[:8], password=password, domain_id="default",
                                default_project_id=project.id)
    for role in ("member", "reader", "heat_stack_owner"):
        identity.assign_project_role_to_user(project, user, identity.find_role(role, ignore_missing=False))
    auth_url = admin_conn.config.config["auth"]["auth_url"]
    auth = {"auth_url": auth_url, "username": user.name, "password": password, "project_name": "demo",
            "user_domain_name": "Default", "project_domain_name": "Default"}
    region = admin_conn.config.get_region_name()
    conn = openstack.connect(auth=auth, auth_type="password", region_name=region)
    credential_secret = "app-cred-" + secrets.token_hex(12)
    try:
        credential_id = conn.identity.create_application_credential(user.id, name="nfv-secrets-" + uuid.uuid4().hex[:8], secret=credential_secret).id
    except openstack.exceptions.SDKException:
        # The lab's Keystone (SQLite) refuses to store one ("Duplicate entry": it writes a role of the credential
        # twice); the form is still run, with a credential that does not authenticate.
        credential_id = None
    token = conn.authorize()
    try:
        yield {"auth": auth, "region": region, "project_id": project.id, "application_credential": (credential_id, credential_secret),
               "token": token}
    finally:
        identity.delete_user(user, ignore_missing=True)


def module_args(package, access_password, endpoint):
    """The args of each module; the request's VIM entry names ``endpoint``, the Keystone the modules connect to."""
    request = dict(REQUEST, vimConnectionInfo={"vim1": {
        "vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3", "interfaceInfo": {"endpoint": endpoint},
        "accessInfo": {"username": "tacker", "password": access_password, "project": "demo", "projectDomain": "Default",
                       "userDomain": "Default", "region": "RegionOne"}}})
    instance = {"vnf_instance_name": INSTANCE}
    return {
        "vnf_package_info": {"path": package},
        "vnf_instantiate": dict(instance, package=package, request=request),
        "vnf_info": {},
        "vnf_scale": dict(instance, request={"type": "SCALE_OUT", "aspectId": "VDU1_scale"}),
        "vnf_heal": dict(instance, request={}),
        "vnf_modify": dict(instance, request={"vnfInstanceDescription": "secrets"}),
        "vnf_change_pkg": dict(instance, package=package, request={"vnfdId": "x", "additionalParams": {"upgrade_type": "RollingUpdate"}}),
        "vnf_lcm_op_occ": dict(instance, action="retry"),
        "vnf_terminate": dict(instance, request={"terminationType": "FORCEFUL"}),
        "vnf_scale_to_level": dict(instance, request={"scaleInfo": [{"aspectId": "VDU1_scale", "scaleLevel": 1}]}),
        "vnf_delete": instance,
        "vnf_change_ext_conn": dict(instance, request={"vimConnectionInfo": request["vimConnectionInfo"], "extVirtualLinks": [
            {"id": "ext-net1", "resourceId": "net1", "extCps": [{"cpdId": "VDU1_CP1", "cpConfig": {"c": {}}}]}]}),
    }


def test_no_credential_is_printed_in_any_form(keystone_user, tacker_packages, tmp_path):
    auth = keystone_user["auth"]
    credential_id, credential_secret = keystone_user["application_credential"]
    authenticates = {"password": True, "application credential": credential_id is not None, "token": True}
    credential_id = credential_id or uuid.uuid4().hex
    secret = {
        "password": auth["password"],
        "application credential secret": credential_secret,
        "keystone token": keystone_user["token"],
        "accessInfo password": "vim-password-" + secrets.token_hex(12),
    }
    region = {"region_name": keystone_user["region"]} if keystone_user["region"] else {}
    forms = {
        "password": {"cloud": dict({"auth": auth, "auth_type": "password"}, **region)},
        "application credential": dict({"auth_type": "v3applicationcredential", "auth": {
            "auth_url": auth["auth_url"], "application_credential_id": credential_id, "application_credential_secret": credential_secret}}, **region),
        "token": dict({"auth_type": "v3token",
                       "auth": {"auth_url": auth["auth_url"], "token": keystone_user["token"], "project_id": keystone_user["project_id"]}}, **region),
    }
    args = module_args(os.path.join(tacker_packages, OLD), secret["accessInfo password"], auth["auth_url"])
    results = run_without_leaks(secret, forms, args, tmp_path)
    # Each form that can authenticate did: vnf_info listed the project's VNF instances with it; the others failed.
    info = results["vnf_info under test"]
    assert [not result["failed"] for result in info] == [authenticates[form] for form in forms], [result.get("msg") for result in info]
    assert {result["vim_type"] for result in info if not result["failed"]} == {"openstack"}

    # AWX's OpenStack credential: a clouds.yaml named by OS_CLIENT_CONFIG_FILE and OS_CLOUD, no option in the playbook.
    clouds = tmp_path / "awx-clouds.yaml"
    clouds.write_text(json.dumps({"clouds": {"devstack": dict({"auth": auth}, **region)}}))
    info = awx_job_without_leaks(secret, args, tmp_path / "awx", {"OS_CLIENT_CONFIG_FILE": str(clouds), "OS_CLOUD": "devstack"})["vnf_info under test"]
    assert not info[0]["failed"] and info[0]["vim_type"] == "openstack", info[0].get("msg")
