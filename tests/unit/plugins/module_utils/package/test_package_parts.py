# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The building blocks of the package reader: paths, TOSCA.meta, TOSCA imports and types."""

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.archive import normalize_relpath
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.def_files import kubernetes_candidates
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.tosca import TypeRegistry, import_file_name, is_concrete, requirement_targets
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.tosca_meta import parse_tosca_meta


@pytest.mark.parametrize("relpath,expected", [
    ("Definitions/a.yaml", "Definitions/a.yaml"),
    ("Definitions/../Scripts/x.py", "Scripts/x.py"),
    ("./Files//kubernetes/a.yaml", "Files/kubernetes/a.yaml"),
    ("Files\\kubernetes\\a.yaml", "Files/kubernetes/a.yaml"),
])
def test_normalize_relpath(relpath, expected):
    assert normalize_relpath(relpath) == expected


@pytest.mark.parametrize("relpath", ["../x", "a/../../x", "/etc/passwd", "\\\\server\\share", "C:\\x", ".", ""])
def test_normalize_relpath_refuses_escapes(relpath):
    with pytest.raises(PackageError):
        normalize_relpath(relpath)


def test_parse_tosca_meta():
    text = (
        "TOSCA-Meta-File-Version: 1.0\r\nCreated-By: someone\r\nCSAR-Version: 1.1\r\nEntry-Definitions: Definitions/top.yaml\r\n"
        "\r\n# a comment\r\nName: Files/a.yaml\r\nContent-Type: application/yaml\r\nAlgorithm: SHA-512\r\nHash: ABC\r\n"
        "\r\n\r\nName: Scripts/b.py\r\nContent-Type: text/x-python\r\n"
    )
    parsed = parse_tosca_meta(text, "TOSCA.meta")
    assert parsed["header"] == {"tosca_meta_file_version": "1.0", "created_by": "someone", "csar_version": "1.1", "entry_definitions": "Definitions/top.yaml"}
    assert parsed["files"] == {
        "Files/a.yaml": {"content_type": "application/yaml", "algorithm": "SHA-512", "hash": "ABC", "verified": False},
        "Scripts/b.py": {"content_type": "text/x-python", "algorithm": None, "hash": None, "verified": False},
    }


@pytest.mark.parametrize("text,message", [
    ("", "file is empty"),
    ("TOSCA-Meta-File-Version: 1.0\n", "Entry-Definitions is missing"),
    ("Entry-Definitions: a.yaml\nnot a key value line\n", "line 2: expected 'Key: value'"),
    ("Entry-Definitions: a.yaml\n\nName: x\nAlgorithm: SHA-256\n", "line 3: x needs both Algorithm and Hash"),
    ("Entry-Definitions: a.yaml\n\nName: x\n\nName: x\n", "line 5: x is listed twice"),
])
def test_parse_tosca_meta_errors(text, message):
    with pytest.raises(PackageError, match="TOSCA.meta: " + message):
        parse_tosca_meta(text, "TOSCA.meta")


@pytest.mark.parametrize("item,expected", [
    ("types.yaml", "types.yaml"),
    ({"file": "types.yaml", "namespace_prefix": "x"}, "types.yaml"),
    ({"my_types": {"file": "types.yaml"}}, "types.yaml"),
    ({"my_types": "types.yaml"}, "types.yaml"),
    ({"a": 1, "b": 2}, None),
])
def test_import_file_name(item, expected):
    assert import_file_name(item) == expected


def test_type_registry():
    documents = [("a.yaml", {"node_types": {
        "base": {"properties": {"p": {"default": 1}, "q": {"constraints": [{"valid_values": ["only"]}]}, "r": {"constraints": [{"valid_values": [1, 2]}]}}},
        "child": {"derived_from": "base", "properties": {"p": {"default": 2}}},
        "loop1": {"derived_from": "loop2"},
        "loop2": {"derived_from": "loop1"},
    }})]
    types = TypeRegistry(documents)
    assert types.chain("child") == ["child", "base"]
    assert types.is_a("child", "base") and not types.is_a("base", "child")
    assert types.property_defaults("child") == {"p": 2, "q": "only"}
    assert types.chain("loop1") == ["loop1", "loop2"]


def test_requirement_targets_and_functions():
    node = {"requirements": [{"virtual_binding": "VDU1"}, {"virtual_link": {"node": "VL1"}}, {"virtual_link": "VL2"}]}
    assert requirement_targets(node, "virtual_link") == ["VL1", "VL2"]
    assert requirement_targets(node, "virtual_storage") == []
    assert not is_concrete({"get_input": "selected_flavour"})
    assert is_concrete({"a": 1}) and is_concrete("simple")


def test_reader_exports_the_yaml_flags_modules_need():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.package import reader
    assert reader.HAS_YAML is True and reader.YAML_IMPORT_ERROR is None
    assert set(reader.__all__) == {"HAS_YAML", "YAML_IMPORT_ERROR", "VnfPackage", "load_package", "optional_package"}


def test_a_helm_charts_source_folder_holds_no_def_files():
    present = {"Files/kubernetes/deployment.yaml", "Files/kubernetes/chart.tgz", "Files/kubernetes/chart/Chart.yaml",
               "Files/kubernetes/chart/values.yaml", "Files/kubernetes/chart/templates/deployment.yaml",
               "Files/other/chart2/Chart.yaml", "Files/other/chart2/templates/svc.yaml", "Files/other/svc.yaml"}
    listed = {"Files/other/chart2/templates/svc.yaml", "Files/other/svc.yaml"}
    assert kubernetes_candidates(present, listed) == (["Files/kubernetes/deployment.yaml"], ["Files/other/svc.yaml"])
