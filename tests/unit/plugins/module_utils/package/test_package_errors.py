# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Broken packages fail with a message that names the file at fault."""

from __future__ import annotations

import os
import re
import zipfile

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package


def replace_in(path, old, new):
    with open(path) as handle:
        text = handle.read()
    assert old in text, "test setup: {0!r} not in {1}".format(old, path)
    with open(path, "w") as handle:
        handle.write(text.replace(old, new))


def load_error(path, operation=None):
    with pytest.raises(PackageError) as error:
        load_package(path, operation)
    return str(error.value)


@pytest.fixture(params=["directory", "zip"])
def as_format(request, zipped):
    """Loads a prepared package directory as it is or zipped, so each error is checked for both."""
    return (lambda directory: directory) if request.param == "directory" else zipped


def test_corrupted_hash(package_copy, as_format):
    root = package_copy("test_cnf_multi_ns")
    with open(os.path.join(root, "Files", "kubernetes", "namespace01.yaml"), "a") as handle:
        handle.write("  labels: {tampered: 'yes'}\n")
    message = load_error(as_format(root))
    assert message.startswith("Failed to read VNF package: ")
    assert "Files/kubernetes/namespace01.yaml" in message
    assert "SHA-256 hash mismatch" in message


def test_missing_kubernetes_def_file(package_copy, as_format):
    root = package_copy("test_cnf_multi_ns")
    os.remove(os.path.join(root, "Files", "kubernetes", "deployment_no_namespace.yaml"))
    message = load_error(as_format(root))
    assert "Files/kubernetes/deployment_no_namespace.yaml: listed in TOSCA.meta, but not in the package" in message


def test_missing_nested_heat_template(package_copy, as_format):
    root = package_copy("userdata_standard")
    os.remove(os.path.join(root, "BaseHOT", "simple", "nested", "VDU1.yaml"))
    message = load_error(as_format(root))
    assert "BaseHOT/simple/sample3.yaml" in message
    assert "VDU1.yaml, which is not in BaseHOT/simple/nested/" in message


def test_missing_top_heat_template(package_copy, as_format):
    root = package_copy("userdata_standard")
    os.remove(os.path.join(root, "BaseHOT", "simple", "sample3.yaml"))
    message = load_error(as_format(root))
    assert "BaseHOT/simple/" in message and "found none" in message


def test_heat_templates_missing_for_a_flavour(package_copy, as_format):
    root = package_copy("userdata_standard")
    os.rename(os.path.join(root, "BaseHOT", "simple"), os.path.join(root, "BaseHOT", "other"))
    message = load_error(as_format(root))
    assert "BaseHOT/simple/" in message and "none for flavour simple" in message


def test_missing_entry_definitions(package_copy, as_format):
    root = package_copy("userdata_standard")
    replace_in(os.path.join(root, "TOSCA-Metadata", "TOSCA.meta"), "Entry-Definitions: Definitions/v2_sample3_top.vnfd.yaml\n", "")
    message = load_error(as_format(root))
    assert "TOSCA-Metadata/TOSCA.meta" in message
    assert "Entry-Definitions is missing" in message


def test_entry_definitions_file_absent(package_copy, as_format):
    root = package_copy("userdata_standard")
    os.remove(os.path.join(root, "Definitions", "v2_sample3_top.vnfd.yaml"))
    message = load_error(as_format(root))
    assert "Definitions/v2_sample3_top.vnfd.yaml" in message and "Entry-Definitions names this file" in message


def test_missing_tosca_meta(package_copy, as_format):
    root = package_copy("test_cnf_multi_ns")
    os.remove(os.path.join(root, "TOSCA-Metadata", "TOSCA.meta"))
    message = load_error(as_format(root))
    assert "TOSCA-Metadata/TOSCA.meta: not found" in message


def test_missing_import(package_copy, as_format):
    root = package_copy("test_cnf_multi_ns")
    os.remove(os.path.join(root, "Definitions", "helloworld3_types.yaml"))
    message = load_error(as_format(root))
    assert "Definitions/helloworld3_top.vnfd.yaml" in message
    assert "imports Definitions/helloworld3_types.yaml, which is not in the package" in message


def test_an_import_loop_is_refused_naming_it(package_copy, as_format):
    root = package_copy("test_cnf_multi_ns")
    replace_in(os.path.join(root, "Definitions", "helloworld3_types.yaml"), "  - etsi_nfv_sol001_vnfd_types.yaml\n",
               "  - etsi_nfv_sol001_vnfd_types.yaml\n  - helloworld3_df_simple.yaml\n")
    message = load_error(as_format(root))
    assert "Definitions/helloworld3_df_simple.yaml" in message
    assert ("imports Definitions/helloworld3_types.yaml, which imports it back: Definitions/helloworld3_types.yaml -> "
            "Definitions/helloworld3_df_simple.yaml -> Definitions/helloworld3_types.yaml") in message


def test_malformed_vnfd_yaml_names_file_and_line(package_copy, as_format):
    root = package_copy("test_cnf_multi_ns")
    replace_in(os.path.join(root, "Definitions", "helloworld3_df_simple.yaml"), "        name: vdu2\n", "        name: [vdu2\n")
    message = load_error(as_format(root))
    assert "Definitions/helloworld3_df_simple.yaml: malformed YAML at line" in message
    line = int(re.search(r"at line (\d+)", message).group(1))
    with open(os.path.join(root, "Definitions", "helloworld3_df_simple.yaml")) as handle:
        lines = handle.read().splitlines()
    # The parser notices the unclosed "[" on the next line at the latest.
    assert "name: [vdu2" in lines[line - 1] or "name: [vdu2" in lines[line - 2]


def test_malformed_kubernetes_def_file(small_package, as_format):
    root = small_package(manifest="apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n data: {}\n")
    message = load_error(as_format(root))
    assert "Files/kubernetes/web.yaml: malformed YAML at line 5" in message


def test_kubernetes_def_file_without_kind(small_package, as_format):
    root = small_package(manifest="apiVersion: v1\nmetadata:\n  name: a\n")
    message = load_error(as_format(root))
    assert "Files/kubernetes/web.yaml: document 1 is not a Kubernetes object" in message


def test_policy_with_unknown_aspect(package_copy, as_format):
    root = package_copy("test_cnf_multi_ns")
    replace_in(os.path.join(root, "Definitions", "helloworld3_df_simple.yaml"), "aspect: vdu2_aspect", "aspect: vdu9_aspect")
    message = load_error(as_format(root))
    assert "Definitions/helloworld3_df_simple.yaml" in message
    assert "policy vdu2_scaling_aspect_deltas refers to scaling aspect vdu9_aspect, which is not defined" in message


def test_cp_bound_to_unknown_vdu(package_copy, as_format):
    root = package_copy("userdata_standard")
    replace_in(os.path.join(root, "Definitions", "v2_sample3_df_simple.yaml"), "- virtual_binding: VDU2\n        - virtual_link: internalVL2",
               "- virtual_binding: VDU9\n        - virtual_link: internalVL2")
    message = load_error(as_format(root))
    assert "Definitions/v2_sample3_df_simple.yaml: VDU2_CP3: requirement virtual_binding refers to VDU9" in message


@pytest.mark.parametrize("member", ["../evil.sh", "Files/../../evil.sh", "/etc/evil.sh", "C:/evil.sh"])
def test_zip_with_a_path_outside_the_package(fixtures_dir, zipped, member):
    archive = zipped(os.path.join(fixtures_dir, "test_cnf_multi_ns"), extra_members=[(member, b"echo owned\n")])
    message = load_error(archive)
    assert "unsafe zip member name" in message and os.path.basename(archive) in message
    assert member in message


def test_not_a_zip(tmp_path):
    path = tmp_path / "package.zip"
    path.write_bytes(b"this is not an archive")
    message = load_error(str(path))
    assert str(path) in message and "not a readable zip file" in message


def test_no_such_package(tmp_path):
    message = load_error(str(tmp_path / "absent"))
    assert "absent: no such file or directory" in message


def test_zip_is_read_in_memory(fixtures_dir, zipped, tmp_path):
    """Reading a zip leaves nothing behind on disk next to it."""
    archive = zipped(os.path.join(fixtures_dir, "userdata_standard"))
    before = sorted(os.listdir(str(tmp_path)))
    with load_package(archive) as package:
        package.to_dict()
    assert sorted(os.listdir(str(tmp_path))) == before
    with zipfile.ZipFile(archive) as handle:
        assert "TOSCA-Metadata/TOSCA.meta" in handle.namelist()


def test_zip_with_a_file_twice(fixtures_dir, zipped):
    archive = zipped(os.path.join(fixtures_dir, "test_cnf_multi_ns"), extra_members=[("Files//kubernetes/namespace01.yaml", b"kind: x\n")])
    message = load_error(archive)
    assert "Files/kubernetes/namespace01.yaml" in message and "appears more than once" in message


def test_damaged_zip_member_names_the_file(fixtures_dir, zipped):
    archive = zipped(os.path.join(fixtures_dir, "test_cnf_multi_ns"))
    with zipfile.ZipFile(archive) as handle:
        info = handle.getinfo("Files/kubernetes/namespace01.yaml")
        offset = info.header_offset + 30 + len(info.filename) + len(info.extra)
        size = info.compress_size
    with open(archive, "r+b") as handle:
        handle.seek(offset)
        damaged = bytes(byte ^ 0xFF for byte in handle.read(size))
        handle.seek(offset)
        handle.write(damaged)
    message = load_error(archive)
    assert "Files/kubernetes/namespace01.yaml" in message
