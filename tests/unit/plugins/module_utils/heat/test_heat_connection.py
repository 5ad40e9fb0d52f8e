# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""openstack.connect arguments from the connection options (openstack.cloud semantics)."""

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import cloud
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.cloud import connection_options


def test_tls_and_timeout_options_become_openstacksdk_arguments():
    params = {"cloud": "lab", "validate_certs": False, "ca_cert": "/ca", "client_cert": "/c", "client_key": "/k",
              "api_timeout": 30, "region_name": "R", "interface": "internal", "auth_type": "v3token"}
    assert connection_options(params) == {"cloud": "lab", "verify": False, "cacert": "/ca", "cert": "/c", "key": "/k",
                                          "api_timeout": 30, "region_name": "R", "interface": "internal", "auth_type": "v3token"}


def test_no_cloud_leaves_os_environment_to_openstacksdk():
    # Nothing but the interface: openstack.connect() then reads OS_CLOUD / OS_* and clouds.yaml itself.
    assert connection_options({"interface": "public"}) == {"interface": "public"}


def test_a_cloud_dict_is_completed_by_the_options():
    params = {"cloud": {"auth": {"auth_url": "u"}, "region_name": "R"}, "validate_certs": False}
    assert connection_options(params) == {"auth": {"auth_url": "u"}, "region_name": "R", "verify": False, "interface": "public"}


@pytest.mark.parametrize("params, option", [
    ({"cloud": {"region_name": "R1"}, "region_name": "R2"}, "region_name"),
    ({"cloud": {"verify": True}, "validate_certs": False}, "validate_certs"),
    ({"cloud": {"interface": "admin"}, "interface": "internal"}, "interface"),
])
def test_a_cloud_dict_and_an_option_that_disagree_are_an_error(params, option):
    with pytest.raises(ValidationError, match="option {0} sets it differently".format(option)):
        connection_options(params)


def test_the_same_value_twice_is_no_conflict():
    assert connection_options({"cloud": {"region_name": "R"}, "region_name": "R"})["region_name"] == "R"


def test_connect_hides_what_openstacksdk_resolved_and_the_token(monkeypatch):
    from ansible_collections.nfv.vnflcm.plugins.module_utils.common import module

    class Config:
        config = {"auth": {"password": "from-clouds-yaml"}, "region_name": "R"}

    class Conn:
        config = Config()

        def authorize(self):
            return "gAAAAA-keystone-token"

    class FakeSdk:
        @staticmethod
        def connect(**kwargs):
            assert kwargs["api_timeout"] == cloud.API_TIMEOUT
            return Conn()

    monkeypatch.setattr(cloud, "openstack", FakeSdk)
    monkeypatch.setattr(module, "_RUNTIME_SECRETS", set())
    cloud.connect({"cloud": "lab"})
    assert {"from-clouds-yaml", "gAAAAA-keystone-token"} <= module._RUNTIME_SECRETS


def test_sdk_log_path_enables_openstacksdk_logging(monkeypatch, tmp_path):
    calls = []

    class FakeSdk:
        @staticmethod
        def enable_logging(**kwargs):
            calls.append(kwargs)

    monkeypatch.setattr(cloud, "openstack", FakeSdk)
    cloud.enable_sdk_logging(None, "DEBUG")
    cloud.enable_sdk_logging(str(tmp_path / "sdk.log"), "DEBUG")
    cloud.enable_sdk_logging(str(tmp_path / "sdk.log"), "INFO")
    assert calls == [{"debug": True, "http_debug": True, "path": str(tmp_path / "sdk.log")},
                     {"debug": False, "http_debug": False, "path": str(tmp_path / "sdk.log")}]
