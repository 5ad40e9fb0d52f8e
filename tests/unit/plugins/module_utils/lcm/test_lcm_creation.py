# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The instance an instantiate creates: module options and a CreateVnfRequest (Tacker's create.json)."""

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import creation_fields, with_metadata_warning

VNFD = {"descriptor_id": "vnfd-1"}
CREATE = {"vnfdId": "vnfd-1", "vnfInstanceName": "a", "vnfInstanceDescription": "d", "metadata": {"k": "v"}}


def test_the_create_request_names_describes_and_gives_metadata():
    assert creation_fields({"create_request": CREATE}, VNFD) == ("a", "d", {"k": "v"})
    # The options may say the same again, and the request may leave them out.
    assert creation_fields({"create_request": CREATE, "vnf_instance_name": "a"}, VNFD) == ("a", "d", {"k": "v"})
    assert creation_fields({"create_request": {"vnfdId": "vnfd-1"}, "vnf_instance_name": "b"}, VNFD) == ("b", None, None)
    assert creation_fields({"vnf_instance_name": "b", "vnf_instance_description": "e"}, VNFD) == ("b", "e", None)


@pytest.mark.parametrize("params, field", [
    ({"create_request": dict(CREATE, vnfdId="vnfd-2")}, "vnfdId"),
    ({"create_request": CREATE, "vnf_instance_name": "b"}, "vnfInstanceName"),
    ({"create_request": CREATE, "vnf_instance_description": "e"}, "vnfInstanceDescription"),
    ({"create_request": {"vnfInstanceName": "a"}}, "vnfdId"),
    ({"create_request": dict(CREATE, metadata="x")}, "metadata"),
    ({"create_request": {"vnfdId": "vnfd-1"}}, "vnf_instance_name"),
    ({}, "vnf_instance_name"),
])
def test_a_create_request_the_options_or_the_package_contradict_is_refused_naming_the_field(params, field):
    with pytest.raises(ValidationError) as caught:
        creation_fields(params, VNFD)
    assert caught.value.field == field


class Planned:
    def __init__(self, metadata):
        self.instance = {"id": "i-1", "metadata": metadata}
        self.plan = {}


def test_a_later_run_warns_when_the_found_instance_has_other_metadata():
    assert with_metadata_warning(Planned({"k": "v", "namespace": "ns"}), {"k": "v"}).plan == {}
    assert with_metadata_warning(Planned({"k": "v"}), None).plan == {}
    warned = with_metadata_warning(Planned({"k": "w"}), {"k": "v"}).plan["warnings"]
    assert len(warned) == 1 and "VNF instance i-1" in warned[0] and "vnf_modify" in warned[0]
