# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tacker's sample packages read the same way as a directory and as a zip, with the facts LCM relies on."""

from __future__ import annotations

import json
import os

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package


def load_both_ways(fixtures_dir, zipped, name):
    """``(directory_dict, zip_dict)`` of one sample package."""
    directory = os.path.join(fixtures_dir, name)
    with load_package(directory) as from_dir, load_package(zipped(directory)) as from_zip:
        return from_dir.to_dict(), from_zip.to_dict()


def test_directory_and_zip_read_the_same(fixtures_dir, zipped, package_name):
    from_dir, from_zip = load_both_ways(fixtures_dir, zipped, package_name)
    assert (from_dir["format"], from_zip["format"]) == ("directory", "zip")
    for key in ("meta", "vnfd", "kubernetes_def_files", "warnings"):
        assert from_dir[key] == from_zip[key], key
    json.dumps(from_dir)  # plain data only


def test_every_listed_file_that_is_present_is_verified(fixtures_dir, package_name):
    with load_package(os.path.join(fixtures_dir, package_name)) as package:
        data = package.to_dict()
    for relpath, entry in data["meta"]["files"].items():
        present = os.path.isfile(os.path.join(fixtures_dir, package_name, relpath))
        assert entry["verified"] is present, relpath


def test_wrapped_zip_is_read(fixtures_dir, zipped):
    """Archives that put everything in one top folder are common; they read like the flat ones."""
    with load_package(zipped(os.path.join(fixtures_dir, "test_cnf_multi_ns"), prefix="pkg/")) as package:
        assert package.to_dict()["vnfd"]["descriptor_id"] == "b1bb0ce7-ebca-4fa7-95ed-4840d70a8993"


def test_userdata_standard(fixtures_dir):
    with load_package(os.path.join(fixtures_dir, "userdata_standard")) as package:
        data = package.to_dict()
        flavour = package.flavour("simple")
    vnfd = data["vnfd"]
    assert data["meta"]["entry_definitions"] == "Definitions/v2_sample3_top.vnfd.yaml"
    assert data["meta"]["created_by"] == "Onboarding portal"
    assert (vnfd["descriptor_id"], vnfd["provider"], vnfd["product_name"]) == ("b1bb0ce7-ebca-4fa7-95ed-4840d7000000", "Company", "Sample VNF")
    assert (vnfd["software_version"], vnfd["descriptor_version"], vnfd["vnfm_info"]) == ("1.0", "1.0", ["Tacker"])
    assert list(vnfd["flavours"]) == ["simple"]
    assert flavour["description"] == "A simple flavour"
    assert flavour["vdus"]["VDU1"]["flavour"] == "m1.tiny"
    assert flavour["vdus"]["VDU2"]["flavour"] == "m1.tiny"
    assert flavour["vdus"]["VDU1"]["sw_image_data"]["name"] == "cirros-0.5.2-x86_64-disk"
    assert flavour["vdus"]["VDU1"]["boot_storage"] is None
    # VDU2 boots from its volume, which carries the image.
    assert flavour["vdus"]["VDU2"]["virtual_storages"] == ["VDU2-VirtualStorage"]
    assert flavour["vdus"]["VDU2"]["boot_storage"] == "VDU2-VirtualStorage"
    assert flavour["vdus"]["VDU2"]["sw_image_data"]["name"] == "VDU2-VirtualStorage-image"
    assert flavour["virtual_storages"]["VDU2-VirtualStorage"]["size_of_storage"] == "1 GB"
    assert flavour["vdus"]["VDU1"]["virtual_compute"]["virtual_memory"]["virtual_mem_size"] == "512 MB"
    assert flavour["vdus"]["VDU1"]["vdu_profile"] == {"min_number_of_instances": 1, "max_number_of_instances": 3}
    assert flavour["cps"]["VDU1_CP1"] == {
        "type": "VduCp", "vdu": "VDU1", "virtual_link": None, "external_virtual_link": None, "internal_virtual_link": None,
        "layer_protocols": ["ipv4"], "order": 0, "exposed_as": ["virtual_link_external1_1"],
    }
    assert flavour["cps"]["VDU2_CP3"]["virtual_link"] == "internalVL2"
    assert flavour["virtual_links"]["internalVL1"]["layer_protocols"] == ["ipv4"]
    assert flavour["scaling_aspects"]["VDU1_scale"]["max_scale_level"] == 2
    assert flavour["scaling_aspects"]["VDU1_scale"]["vdus"] == {"VDU1": {"delta_1": 1}}
    assert flavour["instantiation_levels"]["instantiation_level_2"]["vdus"] == {"VDU1": 2, "VDU2": 1}
    assert flavour["instantiation_levels"]["instantiation_level_2"]["scale_info"] == {"VDU1_scale": {"scale_level": 1}}
    assert flavour["default_instantiation_level"] == "instantiation_level_1"
    assert flavour["vdu_initial_delta"] == {"VDU1": 1, "VDU2": 1}
    assert flavour["interfaces"]["Vnflcm"]["instantiate_start"] == {"implementation": "sample-script", "inputs": {}}
    assert flavour["base_hot"] == {
        "template": "BaseHOT/simple/sample3.yaml",
        "nested": ["BaseHOT/simple/nested/VDU1.yaml", "BaseHOT/simple/nested/VDU2.yaml"],
    }
    assert data["kubernetes_def_files"] == []


def test_userdata_standard_artifacts_are_resolved_against_the_vnfd_folder(fixtures_dir):
    with load_package(os.path.join(fixtures_dir, "userdata_standard")) as package:
        data = package.to_dict()
    script = data["vnfd"]["artifacts"]["sample-script"]
    assert script == {"file": "Scripts/sample_script.py", "type": "tosca.artifacts.Implementation.Python",
                      "description": "Sample script", "node": "VNF", "present": False}
    assert data["vnfd"]["artifacts"]["VDU2-VirtualStorage.sw_image"]["file"] == "Files/images/cirros-0.5.2-x86_64-disk.img"
    # Both are absent from the sample package: warnings when no operation needs them.
    assert any("Scripts/sample_script.py" in warning for warning in data["warnings"])
    assert any("Files/images/cirros-0.5.2-x86_64-disk.img" in warning for warning in data["warnings"])


def test_userdata_standard_change_vnfpkg_nw(fixtures_dir):
    with load_package(os.path.join(fixtures_dir, "userdata_standard_change_vnfpkg_nw")) as package:
        flavour = package.flavour("simple")
    assert flavour["vdus"]["VDU2"]["flavour"] == "m1.small"
    assert flavour["vdus"]["VDU1"]["flavour"] == "m1.tiny"
    assert flavour["vdus"]["VDU1"]["sw_image_data"]["name"] == "VDU1-image"
    assert flavour["cps"]["VDU2_CP4"]["exposed_as"] == ["virtual_link_external1_4"]
    assert sorted(flavour["virtual_links"]) == ["internalVL1", "internalVL3"]
    assert flavour["base_hot"]["template"] == "BaseHOT/simple/sample5.yaml"


def test_cnf_multi_ns(fixtures_dir):
    with load_package(os.path.join(fixtures_dir, "test_cnf_multi_ns")) as package:
        data = package.to_dict()
    flavour = data["vnfd"]["flavours"]["simple"]
    assert data["vnfd"]["descriptor_id"] == "b1bb0ce7-ebca-4fa7-95ed-4840d70a8993"
    assert {vdu_id: vdu["name"] for vdu_id, vdu in flavour["vdus"].items()} == {"VDU1": "vdu1", "VDU2": "vdu2"}
    assert flavour["scaling_aspects"]["vdu1_aspect"]["max_scale_level"] == 2
    assert flavour["scaling_aspects"]["vdu2_aspect"]["vdus"] == {"VDU2": {"delta_1": 1}}
    assert flavour["instantiation_levels"]["instantiation_level_2"] == {
        "description": "Largest size",
        "scale_info": {"vdu1_aspect": {"scale_level": 2}, "vdu2_aspect": {"scale_level": 2}},
        "vdus": {"VDU1": 3, "VDU2": 3},
    }
    assert flavour["base_hot"] is None
    assert flavour["kubernetes_resources"]["VDU1"] == [{
        "file": "Files/kubernetes/deployment_has_namespace.yaml", "kind": "Deployment", "name": "vdu1", "namespace": "multi-namespace02",
    }]
    assert data["kubernetes_def_files"] == [
        "Files/kubernetes/deployment_has_namespace.yaml", "Files/kubernetes/deployment_no_namespace.yaml",
        "Files/kubernetes/namespace01.yaml", "Files/kubernetes/namespace02.yaml",
    ]
    assert data["meta"]["files"]["Files/kubernetes/namespace01.yaml"]["algorithm"] == "SHA-256"
    assert data["warnings"] == []


@pytest.mark.parametrize("name,descriptor_id,config_files", [
    ("test_cnf_container_update_before", "b1bb0ce7-ebca-4fa7-95ed-4840d70a7774", ["configmap_1.yaml", "secret_1.yaml"]),
    ("test_cnf_container_update_after", "b1bb0ce7-ebca-4fa7-95ed-4840d70a8883", ["configmap_2.yaml", "secret_2.yaml"]),
])
def test_cnf_container_update(fixtures_dir, name, descriptor_id, config_files):
    with load_package(os.path.join(fixtures_dir, name)) as package:
        data = package.to_dict()
        documents = package.load_yaml_documents("Files/kubernetes/deployment.yaml")
    flavour = data["vnfd"]["flavours"]["simple"]
    assert data["vnfd"]["descriptor_id"] == descriptor_id
    assert {vdu_id: vdu["name"] for vdu_id, vdu in flavour["vdus"].items()} == {
        "VDU1": "vdu1-update", "VDU2": "vdu2-update", "VDU3": "env-test", "VDU4": "volume-test",
        "VDU5": "daemonset-vdu5", "VDU6": "deployment2-vdu6", "VDU7": "env-test2", "VDU8": "volume-test2",
    }
    kinds = {vdu_id: [match["kind"] for match in matches] for vdu_id, matches in flavour["kubernetes_resources"].items()}
    assert kinds == {"VDU1": ["Deployment"], "VDU2": ["ReplicaSet"], "VDU3": ["Pod"], "VDU4": ["Pod"],
                     "VDU5": ["DaemonSet"], "VDU6": ["Deployment"], "VDU7": ["Pod"], "VDU8": ["Pod"]}
    assert flavour["scaling_aspects"]["vdu1_aspect"]["vdus"] == {"VDU1": {"delta_1": 1}}
    assert flavour["interfaces"]["Vnflcm"]["modify_information_start"]["implementation"] == "mgmt-container-update"
    # The management driver is listed and declared, but Tacker adds it only when it builds the package.
    assert data["vnfd"]["artifacts"]["mgmt-container-update"]["file"] == "Scripts/container_update_mgmt.py"
    assert data["vnfd"]["artifacts"]["mgmt-container-update"]["present"] is False
    assert data["meta"]["files"]["Scripts/container_update_mgmt.py"]["verified"] is False
    assert len(data["warnings"]) == 1 and "Scripts/container_update_mgmt.py" in data["warnings"][0]
    for config_file in config_files:
        assert "Files/kubernetes/" + config_file in data["kubernetes_def_files"]
    assert documents[0]["metadata"]["name"] == "vdu1-update"


def test_missing_artifact_needed_by_the_operation_is_an_error(fixtures_dir):
    path = os.path.join(fixtures_dir, "test_cnf_container_update_before")
    with pytest.raises(PackageError) as error:
        load_package(path, operation="modify_information")
    assert "Scripts/container_update_mgmt.py" in str(error.value)
    assert "modify_information_start" in str(error.value)
    # Operations that do not use the management driver only warn.
    with load_package(path, operation="instantiate") as package:
        assert len(package.warnings) == 1


def test_operation_alias(fixtures_dir):
    with pytest.raises(PackageError, match="container_update_mgmt.py"):
        load_package(os.path.join(fixtures_dir, "test_cnf_container_update_after"), operation="modify")


def test_unknown_flavour_lists_the_known_ones(fixtures_dir):
    with load_package(os.path.join(fixtures_dir, "test_cnf_multi_ns")) as package:
        with pytest.raises(PackageError, match="no deployment flavour 'complex' \\(flavours: simple\\)"):
            package.flavour("complex")


@pytest.mark.parametrize("relpath", ["../userdata_standard/TOSCA-Metadata/TOSCA.meta", "/etc/hostname", "Files/../../x"])
def test_read_file_refuses_paths_outside_the_package(fixtures_dir, zipped, relpath):
    directory = os.path.join(fixtures_dir, "test_cnf_multi_ns")
    for path in (directory, zipped(directory)):
        with load_package(path) as package:
            with pytest.raises(PackageError):
                package.read_file(relpath)


def test_read_file_from_zip(fixtures_dir, zipped):
    directory = os.path.join(fixtures_dir, "test_cnf_multi_ns")
    with load_package(zipped(directory)) as package:
        data = package.read_file("Files/kubernetes/namespace01.yaml")
        with pytest.raises(PackageError, match="Files/kubernetes/absent.yaml"):
            package.read_file("Files/kubernetes/absent.yaml")
    with open(os.path.join(directory, "Files", "kubernetes", "namespace01.yaml"), "rb") as handle:
        assert data == handle.read()
