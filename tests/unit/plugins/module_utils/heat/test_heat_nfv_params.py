# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import copy

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.nfv_params import (
    build_nfv,
    effective_links,
    effective_managed_links,
    fixed_ips_of,
    image_names,
    managed_networks,
    vnfc_counts,
    with_image_ids,
    with_image_names,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.template import expand_per_vnfc, unresolved_nfv_params

BEFORE = "userdata_standard"
LEVEL_1 = {"VDU1": 1, "VDU2": 1}
LEVEL_2 = {"VDU1": 2, "VDU2": 1}


@pytest.fixture
def flavour(flavour_and_hot):
    return flavour_and_hot(BEFORE)[0]


def test_counts_follow_the_instantiation_level(flavour):
    assert vnfc_counts(flavour, "instantiation_level_1") == LEVEL_1
    assert vnfc_counts(flavour, "instantiation_level_2") == LEVEL_2


def test_counts_default_to_the_default_level(flavour):
    assert vnfc_counts(flavour) == LEVEL_1


def test_counts_without_levels_use_the_initial_delta(flavour):
    flavour = dict(flavour, instantiation_levels={}, default_instantiation_level=None, vdu_initial_delta={"VDU1": 2})
    assert vnfc_counts(flavour) == {"VDU1": 2, "VDU2": 1}


def test_counts_of_an_unknown_level_name_the_field(flavour):
    with pytest.raises(ValidationError) as caught:
        vnfc_counts(flavour, "instantiation_level_9")
    assert caught.value.field == "instantiationLevelId"
    assert "instantiation_level_1, instantiation_level_2" in str(caught.value)


def test_counts_beyond_the_vdu_profile_are_refused(flavour):
    flavour = copy.deepcopy(flavour)
    flavour["instantiation_levels"]["instantiation_level_2"]["vdus"]["VDU1"] = 4
    with pytest.raises(ValidationError, match="gives VDU VDU1 4 instance.*outside 1..3"):
        vnfc_counts(flavour, "instantiation_level_2")


def test_instantiate_level_1(flavour, instantiate_request):
    assert build_nfv(flavour, instantiate_request, LEVEL_1) == {
        "VDU": {
            "VDU1-0": {"computeFlavourId": "m1.tiny", "vcImageId": "cirros-0.5.2-x86_64-disk"},
            "VDU2-0": {"computeFlavourId": "m1.tiny"},
            "VDU2-VirtualStorage-0": {"vcImageId": "VDU2-VirtualStorage-image"},
        },
        "CP": {
            "VDU1_CP1-0": {"network": "net0"},
            "VDU2_CP1-0": {"network": "net0", "fixed_ips": [{"subnet": "subnet0"}]},
        },
    }


def test_instantiate_level_2_has_an_entry_per_vnfc(flavour, instantiate_request):
    nfv = build_nfv(flavour, instantiate_request, LEVEL_2)
    assert sorted(nfv["VDU"]) == ["VDU1-0", "VDU1-1", "VDU2-0", "VDU2-VirtualStorage-0"]
    assert nfv["VDU"]["VDU1-1"] == {"computeFlavourId": "m1.tiny", "vcImageId": "cirros-0.5.2-x86_64-disk"}
    assert nfv["CP"]["VDU1_CP1-1"] == {"network": "net0"}


def test_nfv_answers_every_read_of_the_expanded_template_but_name_and_zone(flavour_and_hot, instantiate_request):
    flavour, template, _files = flavour_and_hot(BEFORE)
    nfv = build_nfv(flavour, instantiate_request, LEVEL_2)
    missing = unresolved_nfv_params(expand_per_vnfc(template, LEVEL_2), nfv)
    assert {tuple(path[2:]) for path in missing} == {
        ("VDU1-0", "locationConstraints"), ("VDU1-0", "name"), ("VDU1-1", "locationConstraints"), ("VDU1-1", "name")}


def test_image_ids_replace_image_names(flavour, instantiate_request):
    nfv = build_nfv(flavour, instantiate_request, LEVEL_1, image_ids={"VDU1": "id-1", "VDU2-VirtualStorage": "id-2"})
    assert nfv["VDU"]["VDU1-0"]["vcImageId"] == "id-1"
    assert nfv["VDU"]["VDU2-VirtualStorage-0"]["vcImageId"] == "id-2"


def test_ext_managed_virtual_links_give_the_vl_network(flavour, instantiate_request):
    instantiate_request["extManagedVirtualLinks"] = [{"id": "mgd-1", "vnfVirtualLinkDescId": "internalVL1", "resourceId": "net-mgd-1"}]
    nfv = build_nfv(flavour, instantiate_request, LEVEL_1)
    assert nfv["VL"] == {"internalVL1": {"network": "net-mgd-1"}}


@pytest.mark.parametrize("links, field, message", [
    ([{"vnfVirtualLinkDescId": "internalVL9", "resourceId": "n"}], "extManagedVirtualLinks[0].vnfVirtualLinkDescId", "unknown virtual link"),
    ([{"vnfVirtualLinkDescId": "internalVL1", "resourceId": "n"}, {"vnfVirtualLinkDescId": "internalVL1", "resourceId": "m"}],
     "extManagedVirtualLinks[1].vnfVirtualLinkDescId", r"given twice, by extManagedVirtualLinks\[0\] and extManagedVirtualLinks\[1\]"),
    ([{"vnfVirtualLinkDescId": "internalVL1"}], "extManagedVirtualLinks[0].resourceId", "missing"),
])
def test_bad_ext_managed_virtual_links_name_the_field(flavour, links, field, message):
    with pytest.raises(ValidationError, match=message) as caught:
        managed_networks(flavour, links)
    assert caught.value.field == field


def test_additional_params_nfv_is_merged_last(flavour, instantiate_request):
    instantiate_request["additionalParams"] = {"nfv": {
        "VDU": {"VDU1-0": {"name": "vdu1-a", "locationConstraints": "zone-a", "vcImageId": None}, "VDU2-0": {"computeFlavourId": "m1.large"}},
        "CP": {"VDU1_CP1-0": {"network": "net9"}},
    }}
    nfv = build_nfv(flavour, instantiate_request, LEVEL_1)
    assert nfv["VDU"]["VDU1-0"] == {"computeFlavourId": "m1.tiny", "name": "vdu1-a", "locationConstraints": "zone-a"}
    assert nfv["VDU"]["VDU2-0"] == {"computeFlavourId": "m1.large"}
    assert nfv["CP"]["VDU1_CP1-0"] == {"network": "net9"}
    assert nfv["CP"]["VDU2_CP1-0"] == {"network": "net0", "fixed_ips": [{"subnet": "subnet0"}]}


def test_additional_params_nfv_must_be_an_object(flavour, instantiate_request):
    instantiate_request["additionalParams"] = {"nfv": ["VDU"]}
    with pytest.raises(ValidationError) as caught:
        build_nfv(flavour, instantiate_request, LEVEL_1)
    assert caught.value.field == "additionalParams.nfv"


def test_a_cpd_id_not_in_the_vnfd_is_refused(flavour, instantiate_request):
    instantiate_request["extVirtualLinks"][0]["extCps"][0]["cpdId"] = "VDU9_CP1"
    with pytest.raises(ValidationError, match="unknown CP 'VDU9_CP1'") as caught:
        build_nfv(flavour, instantiate_request, LEVEL_1)
    assert caught.value.field == "extVirtualLinks[0].extCps[0].cpdId"


def test_a_cp_of_an_internal_vl_is_not_external(flavour, instantiate_request):
    instantiate_request["extVirtualLinks"][0]["extCps"][1]["cpdId"] = "VDU2_CP2"
    with pytest.raises(ValidationError, match="bound to the internal virtual link internalVL1") as caught:
        build_nfv(flavour, instantiate_request, LEVEL_1)
    assert caught.value.field == "extVirtualLinks[0].extCps[1].cpdId"


def test_a_cp_connected_twice_is_refused(flavour, instantiate_request):
    link = instantiate_request["extVirtualLinks"][0]
    instantiate_request["extVirtualLinks"].append(dict(link, id="again", extCps=[link["extCps"][0]]))
    with pytest.raises(ValidationError, match="already connected by extVirtualLinks\\[0\\].extCps\\[0\\]") as caught:
        build_nfv(flavour, instantiate_request, LEVEL_1)
    assert caught.value.field == "extVirtualLinks[1].extCps[0].cpdId"


def test_a_vdu_without_a_flavour_is_refused_unless_the_request_gives_one(flavour, instantiate_request):
    flavour = copy.deepcopy(flavour)
    flavour["vdus"]["VDU1"]["flavour"] = None
    with pytest.raises(ValidationError, match="VDU VDU1 has no Nova flavour") as caught:
        build_nfv(flavour, instantiate_request, LEVEL_1)
    assert caught.value.field == "additionalParams.nfv.VDU.VDU1-0.computeFlavourId"
    instantiate_request["additionalParams"] = {"nfv": {"VDU": {"VDU1-0": {"computeFlavourId": "m1.small"}}}}
    assert build_nfv(flavour, instantiate_request, LEVEL_1)["VDU"]["VDU1-0"]["computeFlavourId"] == "m1.small"


def test_ext_link_ports_give_a_port_per_vnfc(flavour, instantiate_request, ip_config):
    link = instantiate_request["extVirtualLinks"][0]
    link["extCps"][0]["cpConfig"] = {"a": ip_config(link_port="lp-a"), "b": ip_config(link_port="lp-b")}
    link["extLinkPorts"] = [{"id": "lp-a", "resourceHandle": {"resourceId": "port-a"}}, {"id": "lp-b", "resourceHandle": {"resourceId": "port-b"}}]
    nfv = build_nfv(flavour, instantiate_request, LEVEL_2)
    assert nfv["CP"]["VDU1_CP1-0"] == {"port": "port-a"}
    assert nfv["CP"]["VDU1_CP1-1"] == {"port": "port-b"}


def test_an_unknown_link_port_is_refused(flavour, instantiate_request, ip_config):
    instantiate_request["extVirtualLinks"][0]["extCps"][0]["cpConfig"] = {"a": ip_config(link_port="lp-x")}
    with pytest.raises(ValidationError, match="not one of the link's extLinkPorts") as caught:
        build_nfv(flavour, instantiate_request, LEVEL_1)
    assert caught.value.field == "extVirtualLinks[0].extCps[0].cpConfig.a.linkPortId"


@pytest.mark.parametrize("address, field_end, message", [
    ({"link_port": "lp-a"}, "linkPortId", "one port cannot serve every VNFC"),
    ({"fixed": ["10.0.0.5"]}, "cpProtocolData", "one fixed address cannot serve every VNFC"),
])
def test_one_port_or_fixed_address_for_several_vnfcs_is_refused(flavour, instantiate_request, ip_config, address, field_end, message):
    link = instantiate_request["extVirtualLinks"][0]
    link["extCps"][0]["cpConfig"] = {"a": ip_config(**address)}
    link["extLinkPorts"] = [{"id": "lp-a", "resourceHandle": {"resourceId": "port-a"}}]
    with pytest.raises(ValidationError, match=message) as caught:
        build_nfv(flavour, instantiate_request, LEVEL_2)
    assert caught.value.field == "extVirtualLinks[0].extCps[0].cpConfig.a." + field_end


def test_fixed_addresses_per_vnfc(flavour, instantiate_request, ip_config):
    instantiate_request["extVirtualLinks"][0]["extCps"][0]["cpConfig"] = {
        "a": ip_config(fixed=["10.0.0.5"], subnet="subnet0"), "b": ip_config(fixed=["10.0.0.6"])}
    nfv = build_nfv(flavour, instantiate_request, LEVEL_2)
    assert nfv["CP"]["VDU1_CP1-0"] == {"network": "net0", "fixed_ips": [{"ip_address": "10.0.0.5", "subnet": "subnet0"}]}
    assert nfv["CP"]["VDU1_CP1-1"] == {"network": "net0", "fixed_ips": [{"ip_address": "10.0.0.6"}]}


def test_fewer_cp_configs_than_vnfcs_is_refused(flavour, instantiate_request, ip_config):
    instantiate_request["extVirtualLinks"][0]["extCps"][0]["cpConfig"] = {"a": ip_config(), "b": ip_config()}
    with pytest.raises(ValidationError, match="2 cpConfig entries for 3 VNFCs") as caught:
        build_nfv(flavour, instantiate_request, {"VDU1": 3, "VDU2": 1})
    assert caught.value.field == "extVirtualLinks[0].extCps[0].cpConfig"


def test_fixed_ips_of_dynamic_addresses_without_subnet_is_empty(ip_config):
    assert fixed_ips_of(ip_config()) == []
    assert fixed_ips_of({}) == []


def test_a_vnf_ext_cp_without_vdu_has_one_unindexed_entry(flavour, instantiate_request, ip_config):
    flavour = copy.deepcopy(flavour)
    flavour["cps"]["VNF_CP1"] = {"type": "VnfExtCp", "vdu": None, "virtual_link": None}
    instantiate_request["extVirtualLinks"][0]["extCps"].append({"cpdId": "VNF_CP1", "cpConfig": {"c": ip_config()}})
    assert build_nfv(flavour, instantiate_request, LEVEL_2)["CP"]["VNF_CP1"] == {"network": "net0"}


def test_build_nfv_does_not_change_its_inputs(flavour, instantiate_request):
    instantiate_request["additionalParams"] = {"nfv": {"VDU": {"VDU1-0": {"name": "x"}}}}
    before = (copy.deepcopy(flavour), copy.deepcopy(instantiate_request))
    build_nfv(flavour, instantiate_request, LEVEL_1)
    assert (flavour, instantiate_request) == before


def test_image_names_are_per_vdu_or_storage(flavour_and_hot):
    assert image_names(flavour_and_hot(BEFORE)[0]) == {"VDU1": "cirros-0.5.2-x86_64-disk", "VDU2-VirtualStorage": "VDU2-VirtualStorage-image"}
    assert image_names(flavour_and_hot("userdata_standard_change_vnfpkg_nw")[0]) == {
        "VDU1": "VDU1-image", "VDU2-VirtualStorage": "cirros-0.5.2-x86_64-disk"}


def test_effective_links_replace_by_id_and_keep_the_rest():
    current = [{"id": "a", "resourceId": "net-a"}, {"id": "b", "resourceId": "net-b"}]
    requested = [{"id": "c", "resourceId": "net-c"}, {"id": "a", "resourceId": "net-a2"}]
    assert effective_links(current, requested) == [
        {"id": "a", "resourceId": "net-a2"}, {"id": "b", "resourceId": "net-b"}, {"id": "c", "resourceId": "net-c"}]
    assert effective_links(current, None) == current
    assert effective_links(None, requested) == requested


def test_effective_managed_links_replace_the_link_of_the_same_vl_whatever_its_id():
    current = [{"id": "ext_managed_vl_1", "vnfVirtualLinkDescId": "internalVL1", "resourceId": "net_mgmt"},
               {"id": "ext_managed_vl_2", "vnfVirtualLinkDescId": "internalVL2", "resourceId": "net-2"}]
    # Tacker's paramgen: a fresh id for every managed link of every request.
    requested = [{"id": "4a1f", "vnfVirtualLinkDescId": "internalVL3", "resourceId": "net-3"},
                 {"id": "9c2e", "vnfVirtualLinkDescId": "internalVL1", "resourceId": "net_mgmt"}]
    assert effective_managed_links(current, requested) == [requested[1], current[1], requested[0]]
    assert effective_managed_links(current, None) == current


def test_explicit_indexes_hand_out_cp_configs_in_order(flavour, instantiate_request, ip_config):
    instantiate_request["extVirtualLinks"][0]["extCps"][0]["cpConfig"] = {"a": ip_config(fixed=["10.0.0.5"]), "b": ip_config(fixed=["10.0.0.6"])}
    nfv = build_nfv(flavour, instantiate_request, {"VDU1": [0, 2], "VDU2": 1})
    assert sorted(nfv["VDU"]) == ["VDU1-0", "VDU1-2", "VDU2-0", "VDU2-VirtualStorage-0"]
    assert nfv["CP"]["VDU1_CP1-2"] == {"network": "net0", "fixed_ips": [{"ip_address": "10.0.0.6"}]}


def test_a_vdu_entry_replaced_by_a_non_object_has_no_flavour(flavour, instantiate_request):
    instantiate_request["additionalParams"] = {"nfv": {"VDU": {"VDU2-0": "m1.tiny"}}}
    with pytest.raises(ValidationError) as caught:
        build_nfv(flavour, instantiate_request, LEVEL_1)
    assert caught.value.field == "additionalParams.nfv.VDU.VDU2-0.computeFlavourId"


def test_the_record_names_images_as_tacker_gives_them_to_heat():
    """Heat gets Glance ids; the record's VNFC metadata gets the names back (Tacker without a grant gives Heat the
    names), but an entry the request's additionalParams.nfv set shows what the request gave, an id too."""
    named = {"VDU": {"VDU1-0": {"computeFlavourId": "m1.tiny", "vcImageId": "cirros"},
                     "VDU1-VirtualStorage-0": {"vcImageId": "cirros"},
                     "VDU2-0": {"vcImageId": "img-2"}, "VDU3-0": {"computeFlavourId": "m1.tiny"}},
             "CP": {"VDU1_CP1-0": {"network": "net0"}}}
    images = {"cirros": "img-1", "img-2": "img-2"}
    given = {"additionalParams": {"nfv": {"VDU": {"VDU2-0": {"vcImageId": "img-2"}}}}}
    deployed = with_image_ids(named, images)
    assert deployed["VDU"]["VDU1-0"]["vcImageId"] == "img-1"
    assert with_image_names(deployed, images, given) == named
    assert deployed["VDU"]["VDU1-0"]["vcImageId"] == "img-1"  # a copy: the stack's nfv as it was
    # An image no name was resolved to (a record older than the images map) stays as Heat has it.
    assert with_image_names(deployed, {}, {})["VDU"]["VDU1-0"]["vcImageId"] == "img-1"
