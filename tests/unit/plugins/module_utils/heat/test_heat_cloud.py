# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError, VimError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.cloud import (
    connection_options,
    openstack_vim,
    sdk_errors,
    vim_options,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import recordable_vim

VIM = {"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3", "interfaceInfo": {"endpoint": "http://keystone/v3"},
       "accessInfo": {"username": "nfv", "password": "pw", "project": "p", "projectDomain": "Default", "userDomain": "Default",
                      "region": "RegionOne"}}


def test_tacker_vim_connection_info_becomes_password_auth():
    assert vim_options(VIM) == {"auth_type": "password", "region_name": "RegionOne", "auth": {
        "auth_url": "http://keystone/v3", "username": "nfv", "password": "pw", "project_name": "p",
        "project_domain_name": "Default", "user_domain_name": "Default"}}


def test_module_options_win_over_vim_connection_info():
    assert connection_options({"cloud": "lab", "interface": "public"}, VIM) == {"cloud": "lab", "interface": "public"}
    assert connection_options({"cloud": {"auth": {"auth_url": "u"}}, "region_name": "R"}, None) == {
        "auth": {"auth_url": "u"}, "region_name": "R", "interface": "public"}
    assert connection_options({}, VIM)["auth"]["username"] == "nfv"


def test_the_record_never_keeps_the_password():
    assert "password" not in recordable_vim(VIM)["accessInfo"]
    assert VIM["accessInfo"]["password"] == "pw"


def test_openstack_vim_is_found_in_a_map_or_a_list():
    assert openstack_vim({"vimConnectionInfo": {"v": VIM}}) is VIM
    assert openstack_vim({"vimConnectionInfo": [{"vimType": "kubernetes"}, VIM]}) is VIM
    assert openstack_vim({}) is None


def test_endpoint_is_required():
    with pytest.raises(ValidationError, match="interfaceInfo.endpoint"):
        vim_options({"vimType": VIM["vimType"], "accessInfo": {}})


def test_sdk_errors_become_vim_errors():
    with pytest.raises(VimError, match="Failed to create stack s: boom"):
        with sdk_errors("create", "stack s"):
            raise RuntimeError("boom")
