# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import copy

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import vnf_instance as vi
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.merge_patch import merge_patch, merge_patch_diff
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import validate_vnf_info_modification_request


def test_new_vnf_instance(vnfd):
    metadata = {"owner": "team-a"}
    instance = vi.new_vnf_instance(vnfd, "vnf-1", "first", metadata, instance_id="id-1")
    assert instance == {
        "id": "id-1",
        "vnfdId": vnfd["descriptor_id"],
        "vnfProvider": "Company",
        "vnfProductName": "Sample VNF",
        "vnfSoftwareVersion": "1.0",
        "vnfdVersion": "1.0",
        "vnfInstanceName": "vnf-1",
        "vnfInstanceDescription": "first",
        "metadata": {"owner": "team-a"},
        "instantiationState": "NOT_INSTANTIATED",
    }
    instance["metadata"]["owner"] = "changed"
    assert metadata == {"owner": "team-a"}


def test_new_vnf_instance_minimal_gets_a_uuid(vnfd):
    instance = vi.new_vnf_instance(vnfd)
    assert len(instance["id"]) == 36
    assert "vnfInstanceName" not in instance and "metadata" not in instance


def test_new_vnf_instance_accepts_names_up_to_tackers_limits(vnfd):
    instance = vi.new_vnf_instance(vnfd, "n" * 255, "d" * 1024)
    assert (len(instance["vnfInstanceName"]), len(instance["vnfInstanceDescription"])) == (255, 1024)


@pytest.mark.parametrize("name, description, field, text", [
    ("n" * 256, None, "vnf_instance_name", "is 256 characters long, more than the limit of 255"),
    ("n", "d" * 1025, "vnf_instance_description", "is 1025 characters long, more than the limit of 1024"),
])
def test_new_vnf_instance_refuses_longer_names_naming_the_module_option(vnfd, name, description, field, text):
    with pytest.raises(ValidationError) as raised:
        vi.new_vnf_instance(vnfd, name, description)
    assert raised.value.field == field
    assert str(raised.value) == "Failed to validate module options: {0}: {1}".format(field, text)


@pytest.mark.parametrize("key", ["descriptor_id", "provider", "product_name", "software_version", "descriptor_version"])
def test_new_vnf_instance_needs_vnfd_identity(vnfd, key):
    del vnfd[key]
    with pytest.raises(ValidationError) as raised:
        vi.new_vnf_instance(vnfd)
    assert raised.value.field == key


def test_require_instantiation_state(instance):
    vi.require_instantiation_state(instance, vi.INSTANTIATED, "scale")
    with pytest.raises(ConflictError) as raised:
        vi.require_instantiation_state(instance, vi.NOT_INSTANTIATED, "instantiate")
    assert str(raised.value) == "Failed to instantiate VNF instance {0}: it is INSTANTIATED, must be NOT_INSTANTIATED".format(instance["id"])


def test_current_scale_levels(instance, vnfd):
    assert vi.current_scale_levels(instance) == {"VDU1_scale": 1}
    assert vi.current_scale_levels(vi.new_vnf_instance(vnfd)) == {}


def test_apply_modification(instance):
    request = validate_vnf_info_modification_request({
        "vnfInstanceName": "renamed",
        "metadata": {"tier": None, "region": "eu"},
        "extensions": {"e": 1},
        "vimConnectionInfo": [{"id": "vim2", "vimType": "kubernetes"}],
        "vimConnectionInfoDeleteIds": ["vim1"],
        "vnfcInfoModifications": [{"id": "VDU2-res-2", "vnfcConfigurableProperties": {"a": None, "c": 3}}],
    })
    before = copy.deepcopy(instance)
    modified = vi.apply_vnf_info_modification(instance, request)
    assert instance == before
    assert modified["vnfInstanceName"] == "renamed"
    assert modified["metadata"] == {"owner": "team-a", "region": "eu"}
    assert modified["extensions"] == {"e": 1}
    assert modified["vimConnectionInfo"] == {"vim2": {"vimType": "kubernetes"}}
    vnfc = modified["instantiatedVnfInfo"]["vnfcInfo"][1]
    assert vnfc["vnfcConfigurableProperties"] == {"b": 2, "c": 3}
    # the rollback record restores the instance
    assert merge_patch(modified, merge_patch_diff(modified, instance)) == instance


def test_apply_modification_merges_vim_connection_info_entries(instance):
    request = {"vimConnectionInfo": {"vim1": {"accessInfo": {"bearer_token": "new", "region": "r1"}}}}
    modified = vi.apply_vnf_info_modification(instance, request)
    # Merged into the entry; the token, a VIM credential, is never kept (sol/vim_connection.py).
    assert modified["vimConnectionInfo"]["vim1"] == {
        "vimId": "7dc3c839-bf15-45ac-8dff-fc5b95c2940e", "vimType": "kubernetes", "accessInfo": {"region": "r1"}}


def test_apply_modification_unknown_vnfc(instance):
    request = {"vnfcInfoModifications": [{"id": "ghost", "vnfcConfigurableProperties": {}}]}
    with pytest.raises(ValidationError) as raised:
        vi.apply_vnf_info_modification(instance, request)
    assert raised.value.field == "vnfcInfoModifications[0].id"


def test_apply_modification_with_new_vnfd_refreshes_identity(instance, new_vnfd):
    new_vnfd["software_version"] = "2.0"
    modified = vi.apply_vnf_info_modification(instance, {"vnfdId": new_vnfd["descriptor_id"]}, new_vnfd)
    assert modified["vnfdId"] == new_vnfd["descriptor_id"]
    assert modified["vnfSoftwareVersion"] == "2.0"


def test_apply_modification_with_mismatched_vnfd(instance, new_vnfd):
    with pytest.raises(ValidationError) as raised:
        vi.apply_vnf_info_modification(instance, {"vnfdId": "other"}, new_vnfd)
    assert raised.value.field == "vnfdId"


def test_cp_protocol_info_reports_what_the_cp_protocol_data_asked():
    data = {"layerProtocol": "IP_OVER_ETHERNET", "ipOverEthernet": {
        "macAddress": "fa:16:3e:00:00:01", "segmentationId": "100",
        "ipAddresses": [{"type": "IPV6", "addressRange": {"minAddress": "fd00::1", "maxAddress": "fd00::9"}, "numDynamicAddresses": 2}]}}
    assert vi.cp_protocol_info(data) == {"layerProtocol": "IP_OVER_ETHERNET", "ipOverEthernet": {
        "macAddress": "fa:16:3e:00:00:01", "segmentationId": "100",
        "ipAddresses": [{"type": "IPV6", "isDynamic": True, "addressRange": {"minAddress": "fd00::1", "maxAddress": "fd00::9"}}]}}
    assert vi.ext_cp_id("port-1") == "cp-port-1"


def test_an_instantiate_request_merges_its_configurable_properties_and_extensions_into_the_instance():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import with_instantiate_fields

    instance = {"id": "i", "vnfConfigurableProperties": {"isAutoscaleEnabled": True, "dropped": 1}}
    request = {"flavourId": "simple", "vnfConfigurableProperties": {"isAutohealEnabled": True, "dropped": None}, "extensions": {"e": "x"}}
    merged = with_instantiate_fields(instance, request)
    assert merged["vnfConfigurableProperties"] == {"isAutoscaleEnabled": True, "isAutohealEnabled": True}
    assert merged["extensions"] == {"e": "x"}
    assert instance["vnfConfigurableProperties"] == {"isAutoscaleEnabled": True, "dropped": 1}  # the input is left as it was
    assert with_instantiate_fields(instance, {"flavourId": "simple"}) == instance
