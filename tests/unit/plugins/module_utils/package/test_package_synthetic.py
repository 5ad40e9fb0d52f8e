# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A tiny package built in the test: SHA-512 digests, a single-file VNFD, external CPs, operation inputs."""

from __future__ import annotations

import os

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package


@pytest.mark.parametrize("algorithm", ["SHA-512", "sha-512", "SHA-384", "Sha-256"])
def test_digests_are_verified_whatever_the_case(small_package, zipped, algorithm):
    root = small_package(algorithm)
    for path in (root, zipped(root)):
        with load_package(path) as package:
            files = package.to_dict()["meta"]["files"]
        assert files["Files/kubernetes/web.yaml"]["algorithm"] == algorithm
        assert files["Files/kubernetes/web.yaml"]["verified"] is True
        assert files["Scripts/setup.py"]["verified"] is True


def test_sha512_mismatch_names_the_file(small_package):
    root = small_package("SHA-512")
    with open(os.path.join(root, "Scripts", "setup.py"), "a") as handle:
        handle.write("print('changed')\n")
    with pytest.raises(PackageError, match=r"Scripts/setup\.py: SHA-512 hash mismatch"):
        load_package(root)


def test_unsupported_algorithm(small_package):
    root = small_package("SHA-512")
    meta = os.path.join(root, "TOSCA-Metadata", "TOSCA.meta")
    with open(meta) as handle:
        text = handle.read()
    with open(meta, "w") as handle:
        handle.write(text.replace("Algorithm: SHA-512", "Algorithm: MD5", 1))
    with pytest.raises(PackageError, match=r"TOSCA-Metadata/TOSCA\.meta: line \d+: Files/kubernetes/web\.yaml: unsupported Algorithm 'MD5'"):
        load_package(root)


def test_single_file_vnfd(small_package):
    with load_package(small_package()) as package:
        data = package.to_dict()
    vnfd = data["vnfd"]
    # descriptor_id from the type's default, provider from its only valid value, the rest from the node.
    assert (vnfd["descriptor_id"], vnfd["provider"], vnfd["product_name"]) == ("small-0001", "Example", "Small")
    assert (vnfd["software_version"], vnfd["descriptor_version"], vnfd["vnfm_info"]) == ("2.0", "3.1", ["Tacker"])
    flavour = vnfd["flavours"]["tiny"]
    assert flavour["description"] == "the tiny flavour"
    assert flavour["vdus"]["web"]["flavour"] is None
    assert flavour["vdus"]["web"]["sw_image_data"] is None
    assert flavour["cps"]["web_cp"]["vdu"] == "web"
    assert flavour["cps"]["web_cp"]["virtual_link"] == "net"
    assert flavour["cps"]["ext_cp"] == {
        "type": "VnfExtCp", "vdu": None, "virtual_link": None, "external_virtual_link": None, "internal_virtual_link": "net",
        "layer_protocols": ["ipv4"], "order": None, "exposed_as": [],
    }
    assert flavour["virtual_links"]["net"]["description"] == "the only network"
    assert flavour["interfaces"]["Vnflcm"] == {
        "instantiate_start": {"implementation": "setup-hook", "inputs": {}},
        "heal_start": {"implementation": {"primary": "setup-hook"}, "inputs": {"retries": 2}},
    }
    assert vnfd["artifacts"]["setup-hook"]["file"] == "Scripts/setup.py"
    assert vnfd["artifacts"]["setup-hook"]["present"] is True
    assert flavour["kubernetes_resources"] == {
        "web": [{"file": "Files/kubernetes/web.yaml", "kind": "Deployment", "name": "web", "namespace": "small"}],
    }
    assert data["kubernetes_def_files"] == ["Files/kubernetes/web.yaml"]
    assert data["warnings"] == []


def test_missing_hook_script_is_an_error_only_for_its_operation(small_package):
    root = small_package()
    os.remove(os.path.join(root, "Scripts", "setup.py"))
    with load_package(root, operation="terminate") as package:
        assert package.warnings == [
            "Scripts/setup.py: listed in TOSCA.meta and declared as artifact setup-hook (used by Vnflcm.heal_start, Vnflcm.instantiate_start), "
            "but not in the package"
        ]
    for operation in ("instantiate", "heal"):
        with pytest.raises(PackageError, match="Scripts/setup.py: .*; operation {0} needs it".format(operation)):
            load_package(root, operation=operation)


def test_unlisted_kubernetes_file_is_a_warning(small_package):
    root = small_package()
    with open(os.path.join(root, "Files", "kubernetes", "extra.yaml"), "w") as handle:
        handle.write("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: extra\n")
    with load_package(root) as package:
        assert package.to_dict()["kubernetes_def_files"] == ["Files/kubernetes/extra.yaml", "Files/kubernetes/web.yaml"]
        assert package.warnings == ["Files/kubernetes/extra.yaml: Kubernetes def file is not listed in TOSCA.meta, so its hash is not verified "
                                    "and no LCM request can use it"]


def test_unlisted_kubernetes_file_declared_as_artifact_is_usable(small_package):
    """A VNFD artifact declares a file as well as TOSCA.meta does (Tacker accepts both for def files)."""
    root = small_package()
    vnfd = os.path.join(root, "Definitions", "small.yaml")
    with open(vnfd) as handle:
        text = handle.read().replace("file: ../Scripts/setup.py", "file: ../Files/kubernetes/extra.yaml")
    with open(vnfd, "w") as handle:
        handle.write(text)
    with open(os.path.join(root, "Files", "kubernetes", "extra.yaml"), "w") as handle:
        handle.write("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: extra\n")
    with load_package(root) as package:
        assert "Files/kubernetes/extra.yaml: Kubernetes def file is not listed in TOSCA.meta, so its hash is not verified" in package.warnings


def test_load_yaml_documents_names_file_and_line(small_package):
    root = small_package()
    with open(os.path.join(root, "Files", "notes.yaml"), "w") as handle:
        handle.write("a: 1\n---\nb: [2\n")
    with load_package(root) as package:
        assert package.load_yaml_documents("Files/kubernetes/web.yaml")[1]["kind"] == "ConfigMap"
        with pytest.raises(PackageError, match=r"Files/notes\.yaml: malformed YAML at line 4"):
            package.load_yaml_documents("Files/notes.yaml")
