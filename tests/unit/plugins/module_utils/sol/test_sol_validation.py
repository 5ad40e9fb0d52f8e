# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Request validation: structure, SOL003 semantics and package-aware checks."""

from __future__ import annotations

import copy

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import validation as v


def failure(function, *args, **kwargs):
    with pytest.raises(ValidationError) as raised:
        function(*args, **kwargs)
    return raised.value


EXT_VIRTUAL_LINK = {
    "id": "ext-vl-1",
    "resourceId": "net-1",
    "vimConnectionId": "vim1",
    "extCps": [
        {"cpdId": "VDU1_CP1", "cpConfig": {"cfg1": {"cpProtocolData": [{"layerProtocol": "IP_OVER_ETHERNET"}]}}},
        {"cpdId": "VDU2_CP1", "cpConfig": {"cfg1": {
            "linkPortId": "lp-1",
            "cpProtocolData": [{
                "layerProtocol": "IP_OVER_ETHERNET",
                "ipOverEthernet": {
                    "macAddress": "fa:16:3e:00:00:01",
                    "segmentationId": "1000",
                    "ipAddresses": [
                        {"type": "IPV4", "fixedAddresses": ["10.0.0.5"], "subnetId": "sub-1"},
                        {"type": "IPV6", "numDynamicAddresses": 1},
                        {"type": "IPV4", "addressRange": {"minAddress": "10.0.0.10", "maxAddress": "10.0.0.20"}},
                    ],
                },
            }],
        }}},
    ],
    "extLinkPorts": [{"id": "lp-1", "resourceHandle": {"resourceId": "port-1", "vimLevelResourceType": "OS::Neutron::Port"}}],
}


def full_instantiate_request():
    return {
        "flavourId": "simple",
        "instantiationLevelId": "instantiation_level_2",
        "extVirtualLinks": [copy.deepcopy(EXT_VIRTUAL_LINK)],
        "extManagedVirtualLinks": [{"id": "mvl-1", "vnfVirtualLinkDescId": "internalVL1", "resourceId": "net-2"}],
        "vimConnectionInfo": {"vim1": {"vimId": "v", "vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3"}},
        "localizationLanguage": "en",
        "additionalParams": {"anything": {"goes": [1]}},
        "extensions": {},
        "vnfConfigurableProperties": {"isAutoscaleEnabled": True},
    }


# --- InstantiateVnfRequest -------------------------------------------------------------------

def test_tacker_kubernetes_instantiate_request_is_accepted_unchanged(instantiate_request, vnfd):
    original = copy.deepcopy(instantiate_request)
    assert v.validate_instantiate_request(instantiate_request, vnfd) == original
    assert instantiate_request == original


def test_full_instantiate_request_is_accepted(vnfd):
    request = full_instantiate_request()
    assert v.validate_instantiate_request(request, vnfd) == request


def test_tacker_v1_list_vim_connection_info_is_normalised_to_map():
    request = {"flavourId": "simple", "vimConnectionInfo": [
        {"id": "vim1", "vimId": "a", "vimType": "openstack"},
        {"id": "vim2", "vimId": "b", "vimType": "kubernetes", "accessInfo": {"bearer_token": "t"}},
    ]}
    result = v.validate_instantiate_request(request)
    assert result["vimConnectionInfo"] == {
        "vim1": {"vimId": "a", "vimType": "openstack"},
        "vim2": {"vimId": "b", "vimType": "kubernetes", "accessInfo": {"bearer_token": "t"}},
    }


def test_normalise_vim_connection_info():
    assert v.normalise_vim_connection_info([{"id": "x", "vimType": "kubernetes"}]) == {"x": {"vimType": "kubernetes"}}
    assert v.normalise_vim_connection_info({"x": {"vimType": "kubernetes"}}) == {"x": {"vimType": "kubernetes"}}
    assert failure(v.normalise_vim_connection_info, [{"id": "x"}]).field == "vimConnectionInfo.x.vimType"


def mutate(request, path, value):
    """Set (or with value ``DELETE`` remove) the member at a path of keys / indexes."""
    node = request
    for key in path[:-1]:
        node = node[key]
    if value is DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return request


DELETE = object()


@pytest.mark.parametrize("path, value, field, reason", [
    (("flavourId",), DELETE, "flavourId", "is required"),
    (("flavourId",), 5, "flavourId", "must be a string, got integer"),
    (("instantiationLevelId",), ["x"], "instantiationLevelId", "must be a string"),
    (("extVirtualLinks",), "x", "extVirtualLinks", "must be an array, got string"),
    (("extVirtualLinks", 0, "resourceId"), DELETE, "extVirtualLinks[0].resourceId", "is required"),
    (("extVirtualLinks", 0, "id"), DELETE, "extVirtualLinks[0].id", "is required"),
    (("extVirtualLinks", 0, "extCps"), [], "extVirtualLinks[0].extCps", "at least 1"),
    (("extVirtualLinks", 0, "extCps", 1, "cpdId"), DELETE, "extVirtualLinks[0].extCps[1].cpdId", "is required"),
    (("extVirtualLinks", 0, "extCps", 1, "cpdId"), 7, "extVirtualLinks[0].extCps[1].cpdId", "must be a string"),
    # A list is Tacker v1's form (test_sol_tacker_v1.py); anything else that is no object is refused.
    (("extVirtualLinks", 0, "extCps", 1, "cpConfig"), "cfg1", "extVirtualLinks[0].extCps[1].cpConfig", "must be an object"),
    (("extVirtualLinks", 0, "extCps", 1, "cpConfig"), [], "extVirtualLinks[0].extCps[1].cpConfig", "must have at least 1 item(s)"),
    (("extVirtualLinks", 0, "extCps", 1, "cpConfig", "cfg1", "cpProtocolData", 0, "layerProtocol"), "IP",
     "extVirtualLinks[0].extCps[1].cpConfig.cfg1.cpProtocolData[0].layerProtocol", "must be one of IP_OVER_ETHERNET"),
    (("extVirtualLinks", 0, "extCps", 1, "cpConfig", "cfg1", "cpProtocolData", 0, "ipOverEthernet", "ipAddresses", 1, "type"), "IPV5",
     "extVirtualLinks[0].extCps[1].cpConfig.cfg1.cpProtocolData[0].ipOverEthernet.ipAddresses[1].type", "must be one of IPV4, IPV6"),
    (("extVirtualLinks", 0, "extCps", 1, "cpConfig", "cfg1", "cpProtocolData", 0, "ipOverEthernet", "ipAddresses", 0, "fixedAddresses"),
     "10.0.0.5", "extVirtualLinks[0].extCps[1].cpConfig.cfg1.cpProtocolData[0].ipOverEthernet.ipAddresses[0].fixedAddresses", "must be an array"),
    (("extVirtualLinks", 0, "extCps", 1, "cpConfig", "cfg1", "cpProtocolData", 0, "ipOverEthernet", "ipAddresses", 1, "numDynamicAddresses"),
     "1", "extVirtualLinks[0].extCps[1].cpConfig.cfg1.cpProtocolData[0].ipOverEthernet.ipAddresses[1].numDynamicAddresses", "must be an integer"),
    (("extVirtualLinks", 0, "extLinkPorts", 0, "resourceHandle", "resourceId"), DELETE,
     "extVirtualLinks[0].extLinkPorts[0].resourceHandle.resourceId", "is required"),
    (("extManagedVirtualLinks", 0, "vnfVirtualLinkDescId"), DELETE, "extManagedVirtualLinks[0].vnfVirtualLinkDescId", "is required"),
    (("extManagedVirtualLinks", 0, "resourceId"), DELETE, "extManagedVirtualLinks[0].resourceId", "is required"),
    (("vimConnectionInfo", "vim1", "vimType"), DELETE, "vimConnectionInfo.vim1.vimType", "is required"),
    (("vimConnectionInfo", "vim1", "accessInfo"), "token", "vimConnectionInfo.vim1.accessInfo", "must be an object"),
    (("vimConnectionInfo",), "vim1", "vimConnectionInfo", "must be an object or an array"),
    (("localizationLanguage",), 1, "localizationLanguage", "must be a string"),
    (("additionalParams",), [], "additionalParams", "must be an object"),
    (("extensions",), "x", "extensions", "must be an object"),
    (("vnfConfigurableProperties",), 1, "vnfConfigurableProperties", "must be an object"),
])
def test_instantiate_request_errors_name_the_field(path, value, field, reason):
    error = failure(v.validate_instantiate_request, mutate(full_instantiate_request(), path, value))
    assert error.field == field
    assert reason in str(error)
    assert str(error).startswith("Failed to validate InstantiateVnfRequest: {0}: ".format(field))


def test_typo_flavor_id_is_caught_by_default():
    error = failure(v.validate_instantiate_request, {"flavorId": "simple"})
    assert error.field == "flavorId"
    assert "did you mean flavourId?" in str(error)


def test_typo_in_nested_typed_object_is_caught():
    request = full_instantiate_request()
    request["extVirtualLinks"][0]["extCps"][0]["cpdID"] = "x"
    assert failure(v.validate_instantiate_request, request).field == "extVirtualLinks[0].extCps[0].cpdID"


def test_non_strict_passes_unknown_fields_through():
    result = v.validate_instantiate_request({"flavourId": "simple", "vendorField": 1}, strict=False)
    assert result == {"flavourId": "simple", "vendorField": 1}


def test_additional_params_and_extensions_are_free_form():
    request = {"flavourId": "simple", "additionalParams": {"flavorId": 1}, "extensions": {"x": None}}
    assert v.validate_instantiate_request(request) == request


def test_unknown_flavour_lists_known_ones(vnfd):
    error = failure(v.validate_instantiate_request, {"flavourId": "huge"}, vnfd)
    assert error.field == "flavourId"
    assert "'huge'" in str(error) and "complex, simple" in str(error)


def test_unknown_instantiation_level(vnfd):
    error = failure(v.validate_instantiate_request, {"flavourId": "simple", "instantiationLevelId": "level_9"}, vnfd)
    assert error.field == "instantiationLevelId"
    assert "instantiation_level_1, instantiation_level_2" in str(error)


def test_ext_cp_not_in_flavour(vnfd):
    request = full_instantiate_request()
    request["extVirtualLinks"][0]["extCps"][1]["cpdId"] = "VDU9_CP1"
    error = failure(v.validate_instantiate_request, request, vnfd)
    assert error.field == "extVirtualLinks[0].extCps[1].cpdId"
    assert "VDU9_CP1" in str(error) and "flavour simple" in str(error)


def test_ext_cp_of_another_flavour_is_rejected(vnfd):
    request = full_instantiate_request()
    request["flavourId"] = "complex"
    del request["instantiationLevelId"], request["extManagedVirtualLinks"]
    assert failure(v.validate_instantiate_request, request, vnfd).field == "extVirtualLinks[0].extCps[1].cpdId"


def test_managed_vl_not_in_flavour(vnfd):
    request = full_instantiate_request()
    request["extManagedVirtualLinks"][0]["vnfVirtualLinkDescId"] = "internalVL9"
    error = failure(v.validate_instantiate_request, request, vnfd)
    assert error.field == "extManagedVirtualLinks[0].vnfVirtualLinkDescId"
    assert "internalVL1, internalVL2" in str(error)


def test_link_must_reference_a_known_vim_connection():
    request = full_instantiate_request()
    request["extVirtualLinks"][0]["vimConnectionId"] = "vim9"
    error = failure(v.validate_instantiate_request, request)
    assert error.field == "extVirtualLinks[0].vimConnectionId"


def test_link_may_reference_a_vim_connection_of_the_instance(instance):
    request = full_instantiate_request()
    request["vimConnectionInfo"] = {"vim2": {"vimType": "kubernetes"}}
    assert v.validate_instantiate_request(request, instance=instance)["extVirtualLinks"][0]["vimConnectionId"] == "vim1"


def test_vim_connection_reference_is_unchecked_without_any_vim_connection():
    request = full_instantiate_request()
    del request["vimConnectionInfo"]
    v.validate_instantiate_request(request)


# --- CreateVnfRequest --------------------------------------------------------------------------

def test_create_request():
    request = {"vnfdId": "d", "vnfInstanceName": "n", "vnfInstanceDescription": "x", "metadata": {"k": "v"}}
    assert v.validate_create_request(request) == request


@pytest.mark.parametrize("body, field", [
    ({}, "vnfdId"),
    ({"vnfdId": 1}, "vnfdId"),
    ({"vnfdId": "d", "vnfInstanceName": 1}, "vnfInstanceName"),
    ({"vnfdId": "d", "metadata": "m"}, "metadata"),
    ({"vnfdId": "d", "vnfdid": "e"}, "vnfdid"),
])
def test_create_request_errors(body, field):
    assert failure(v.validate_create_request, body).field == field


# --- VnfInfoModificationRequest ----------------------------------------------------------------

def test_modification_request_normalises_vim_connection_info():
    request = {
        "vnfInstanceName": "n", "vnfInstanceDescription": "d", "vnfdId": "x", "vnfConfigurableProperties": {"a": None},
        "metadata": {"m": 1}, "extensions": {"e": 1}, "vimConnectionInfo": [{"id": "vim2", "vimType": "kubernetes"}],
        "vimConnectionInfoDeleteIds": ["vim1"], "vnfcInfoModifications": [{"id": "c", "vnfcConfigurableProperties": {"p": 1}}],
    }
    result = v.validate_vnf_info_modification_request(request)
    assert result["vimConnectionInfo"] == {"vim2": {"vimType": "kubernetes"}}


@pytest.mark.parametrize("body, field", [
    ({}, None),
    ({"vnfInstanceName": 5}, "vnfInstanceName"),
    ({"vimConnectionInfoDeleteIds": "vim1"}, "vimConnectionInfoDeleteIds"),
    ({"vimConnectionInfoDeleteIds": [1]}, "vimConnectionInfoDeleteIds[0]"),
    ({"vnfcInfoModifications": [{"id": "c"}]}, "vnfcInfoModifications[0].vnfcConfigurableProperties"),
    ({"vimConnectionInfo": {"vim1": {"vimType": "k"}}, "vimConnectionInfoDeleteIds": ["vim1"]}, "vimConnectionInfoDeleteIds[0]"),
    ({"flavourId": "simple"}, "flavourId"),
])
def test_modification_request_errors(body, field):
    assert failure(v.validate_vnf_info_modification_request, body).field == field


# --- Name and description lengths (Tacker's: 255 and 1024 characters) --------------------------

def test_the_documented_name_lengths():
    assert (v.MAX_VNF_INSTANCE_NAME_LENGTH, v.MAX_VNF_INSTANCE_DESCRIPTION_LENGTH) == (255, 1024)


@pytest.mark.parametrize("validator, base", [
    (v.validate_create_request, {"vnfdId": "d"}),
    (v.validate_vnf_info_modification_request, {}),
])
def test_names_and_descriptions_up_to_their_limits_are_accepted(validator, base):
    body = dict(base, vnfInstanceName="n" * 255, vnfInstanceDescription="d" * 1024)
    assert validator(body) == body


@pytest.mark.parametrize("validator, base, what", [
    (v.validate_create_request, {"vnfdId": "d"}, "CreateVnfRequest"),
    (v.validate_vnf_info_modification_request, {}, "VnfInfoModificationRequest"),
])
@pytest.mark.parametrize("field, value, limit", [
    ("vnfInstanceName", "\u00e9" * 256, 255),
    ("vnfInstanceDescription", "d" * 1025, 1024),
])
def test_names_and_descriptions_over_their_limits_are_refused(validator, base, what, field, value, limit):
    error = failure(validator, dict(base, **{field: value}))
    assert error.field == field
    assert error.msg == "Failed to validate {0}: {1}: is {2} characters long, more than the limit of {3}".format(what, field, len(value), limit)


# --- ChangeCurrentVnfPkgRequest ----------------------------------------------------------------

def test_tacker_change_vnfpkg_request_is_accepted_unchanged(change_pkg_request, new_vnfd, instance):
    original = copy.deepcopy(change_pkg_request)
    assert v.validate_change_pkg_request(change_pkg_request, new_vnfd, instance) == original


@pytest.mark.parametrize("path, value, field", [
    (("vnfdId",), DELETE, "vnfdId"),
    (("vnfdId",), None, "vnfdId"),
    (("extVirtualLinks",), "x", "extVirtualLinks"),
    (("extManagedVirtualLinks", 0, "id"), DELETE, "extManagedVirtualLinks[0].id"),
    (("additionalParams", "upgrade_type"), "BlueGreen", "additionalParams.upgrade_type"),
    (("additionalParams", "vdu_params"), {"vdu_id": "VDU1"}, "additionalParams.vdu_params"),
    (("additionalParams", "vdu_params", 0, "vdu_id"), DELETE, "additionalParams.vdu_params[0].vdu_id"),
    (("additionalParams", "vdu_params", 0, "vdu_id"), 1, "additionalParams.vdu_params[0].vdu_id"),
    (("additionalParams", "vdu_params", 0, "new_vnfc_param"), "x", "additionalParams.vdu_params[0].new_vnfc_param"),
    (("additionalParams", "lcm-operation-coordinate-new-vnf"), 1, "additionalParams.lcm-operation-coordinate-new-vnf"),
    (("extensions",), [], "extensions"),
    (("flavourId",), "simple", "flavourId"),
])
def test_change_pkg_request_errors(change_pkg_request, path, value, field):
    error = failure(v.validate_change_pkg_request, mutate(change_pkg_request, path, value))
    assert error.field == field


def test_change_pkg_additional_params_allow_other_keys(change_pkg_request):
    change_pkg_request["additionalParams"]["vendor_option"] = True
    v.validate_change_pkg_request(change_pkg_request)


def test_change_pkg_vdu_not_in_instance(change_pkg_request, instance):
    change_pkg_request["additionalParams"]["vdu_params"][0]["vdu_id"] = "VDU7"
    error = failure(v.validate_change_pkg_request, change_pkg_request, None, instance)
    assert error.field == "additionalParams.vdu_params[0].vdu_id"
    assert "VDU1, VDU2" in str(error) and instance["id"] in str(error)


def test_change_pkg_vdu_not_in_new_vnfd(change_pkg_request, new_vnfd, instance):
    del new_vnfd["flavours"]["simple"]["vdus"]["VDU1"]
    error = failure(v.validate_change_pkg_request, change_pkg_request, new_vnfd, instance)
    assert error.field == "additionalParams.vdu_params[0].vdu_id"
    assert "new VNFD" in str(error)


def test_change_pkg_vnfd_id_must_match_new_package(change_pkg_request, vnfd, instance):
    error = failure(v.validate_change_pkg_request, change_pkg_request, vnfd, instance)
    assert error.field == "vnfdId"


def test_change_pkg_new_vnfd_must_keep_the_instance_flavour(change_pkg_request, new_vnfd, instance):
    del new_vnfd["flavours"]["simple"]
    error = failure(v.validate_change_pkg_request, change_pkg_request, new_vnfd, instance)
    assert error.field == "vnfdId"
    assert "flavour 'simple'" in str(error)


def test_change_pkg_ext_cp_checked_against_new_flavour(change_pkg_request, new_vnfd, instance):
    change_pkg_request["extVirtualLinks"][0]["extCps"][0]["cpdId"] = "OLD_CP"
    assert failure(v.validate_change_pkg_request, change_pkg_request, new_vnfd, instance).field == "extVirtualLinks[0].extCps[0].cpdId"


# --- ScaleVnfRequest ---------------------------------------------------------------------------

def test_scale_request_defaults_number_of_steps():
    assert v.validate_scale_request({"type": "SCALE_OUT", "aspectId": "VDU1_scale"}) == {
        "type": "SCALE_OUT", "aspectId": "VDU1_scale", "numberOfSteps": 1}


@pytest.mark.parametrize("body, field, reason", [
    ({"aspectId": "a"}, "type", "is required"),
    ({"type": "SCALE_UP", "aspectId": "a"}, "type", "must be one of SCALE_OUT, SCALE_IN"),
    ({"type": "SCALE_OUT"}, "aspectId", "is required"),
    ({"type": "SCALE_OUT", "aspectId": "a", "numberOfSteps": 0}, "numberOfSteps", "at least 1"),
    ({"type": "SCALE_OUT", "aspectId": "a", "numberOfSteps": "2"}, "numberOfSteps", "must be an integer"),
    ({"type": "SCALE_OUT", "aspectId": "a", "additionalParams": 1}, "additionalParams", "must be an object"),
])
def test_scale_request_errors(body, field, reason):
    error = failure(v.validate_scale_request, body)
    assert error.field == field and reason in str(error)


@pytest.mark.parametrize("scale_type, steps, current, ok", [
    ("SCALE_OUT", 1, 1, True),
    ("SCALE_OUT", 1, 2, False),
    ("SCALE_OUT", 2, 0, True),
    ("SCALE_OUT", 3, 0, False),
    ("SCALE_IN", 1, 1, True),
    ("SCALE_IN", 2, 1, False),
    ("SCALE_IN", 1, 0, False),
])
def test_scale_range(vnfd, scale_type, steps, current, ok):
    body = {"type": scale_type, "aspectId": "VDU1_scale", "numberOfSteps": steps}
    flavour = vnfd["flavours"]["simple"]
    if ok:
        v.validate_scale_request(body, flavour, {"VDU1_scale": current})
    else:
        error = failure(v.validate_scale_request, body, flavour, {"VDU1_scale": current})
        assert error.field == "numberOfSteps"
        assert "outside 0..2" in str(error)


def test_scale_missing_current_level_means_zero(vnfd):
    body = {"type": "SCALE_IN", "aspectId": "VDU1_scale"}
    assert failure(v.validate_scale_request, body, vnfd["flavours"]["simple"], None).field == "numberOfSteps"


def test_scale_unknown_aspect(vnfd):
    error = failure(v.validate_scale_request, {"type": "SCALE_OUT", "aspectId": "nope"}, vnfd["flavours"]["simple"], {})
    assert error.field == "aspectId"
    assert "VDU1_scale" in str(error)


# --- HealVnfRequest / TerminateVnfRequest ------------------------------------------------------

def test_heal_request(instance):
    body = {"vnfcInstanceId": ["VDU1-res-1"], "cause": "broken", "additionalParams": {"all": True}}
    assert v.validate_heal_request(body, instance) == body
    assert v.validate_heal_request({}) == {}


@pytest.mark.parametrize("body, field", [
    ({"vnfcInstanceId": "VDU1-res-1"}, "vnfcInstanceId"),
    ({"vnfcInstanceId": [1]}, "vnfcInstanceId[0]"),
    ({"cause": 1}, "cause"),
    ({"vnfcInstanceId": ["VDU1-res-1", "ghost"]}, "vnfcInstanceId[1]"),
])
def test_heal_request_errors(instance, body, field):
    assert failure(v.validate_heal_request, body, instance).field == field


@pytest.mark.parametrize("body", [
    {"terminationType": "FORCEFUL"},
    {"terminationType": "GRACEFUL"},
    {"terminationType": "GRACEFUL", "gracefulTerminationTimeout": 60, "additionalParams": {}},
])
def test_terminate_request(body):
    assert v.validate_terminate_request(body) == body


@pytest.mark.parametrize("body, field", [
    ({}, "terminationType"),
    ({"terminationType": "SOFT"}, "terminationType"),
    ({"terminationType": "GRACEFUL", "gracefulTerminationTimeout": "60"}, "gracefulTerminationTimeout"),
    ({"terminationType": "GRACEFUL", "gracefulTerminationTimeout": -1}, "gracefulTerminationTimeout"),
    ({"terminationType": "FORCEFUL", "gracefulTerminationTimeout": 60}, "gracefulTerminationTimeout"),
])
def test_terminate_request_errors(body, field):
    assert failure(v.validate_terminate_request, body).field == field


def test_change_pkg_vim_connection_info_is_a_merge_patch_null_removes_an_entry():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import validate_change_pkg_request
    request = validate_change_pkg_request({"vnfdId": "v", "vimConnectionInfo": {"old": None, "new": {"vimType": "kubernetes"}}})
    assert request["vimConnectionInfo"] == {"old": None, "new": {"vimType": "kubernetes"}}
    with pytest.raises(ValidationError) as error:
        validate_change_pkg_request({"vnfdId": "v", "vimConnectionInfo": {"bad": "text"}})
    assert error.value.field == "vimConnectionInfo.bad"
