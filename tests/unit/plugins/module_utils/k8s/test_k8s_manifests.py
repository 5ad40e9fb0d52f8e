# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Def files of an InstantiateVnfRequest read from the package into manifest records."""

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import manifests as m


def request_for(*files):
    return {"flavourId": "simple", "additionalParams": {"lcm-kubernetes-def-files": list(files)}}


def test_records_follow_request_order(multi_ns_package):
    records = m.load_manifests(multi_ns_package, request_for("Files/kubernetes/namespace02.yaml", "Files/kubernetes/deployment_has_namespace.yaml"))
    assert [(r["file"], r["index"], r["object"]["kind"]) for r in records] == [
        ("Files/kubernetes/namespace02.yaml", 0, "Namespace"),
        ("Files/kubernetes/deployment_has_namespace.yaml", 0, "Deployment"),
    ]
    assert records[1]["object"]["metadata"] == {"name": "vdu1", "namespace": "multi-namespace02"}


def test_records_are_copies(multi_ns_package):
    request = request_for("Files/kubernetes/namespace01.yaml")
    first = m.load_manifests(multi_ns_package, request)
    first[0]["object"]["metadata"]["name"] = "changed"
    assert m.load_manifests(multi_ns_package, request)[0]["object"]["metadata"]["name"] == "multi-namespace01"


def test_paths_are_normalised(multi_ns_package):
    records = m.load_manifests(multi_ns_package, request_for("./Files/kubernetes/../kubernetes/namespace01.yaml"))
    assert records[0]["file"] == "Files/kubernetes/namespace01.yaml"


def test_file_not_in_package_names_the_entry(multi_ns_package):
    with pytest.raises(ValidationError) as err:
        m.load_manifests(multi_ns_package, request_for("Files/kubernetes/namespace01.yaml", "Files/kubernetes/missing.yaml"))
    assert err.value.field == "additionalParams.lcm-kubernetes-def-files[1]"
    assert "Files/kubernetes/missing.yaml is not a Kubernetes def file" in err.value.msg
    assert "Files/kubernetes/namespace01.yaml" in err.value.msg  # the known ones are listed


def test_a_package_file_that_is_no_def_file_is_refused(multi_ns_package):
    with pytest.raises(ValidationError) as err:
        m.load_manifests(multi_ns_package, request_for("Definitions/helloworld3_df_simple.yaml"))
    assert err.value.field == "additionalParams.lcm-kubernetes-def-files[0]"


@pytest.mark.parametrize("params, field, text", [
    ({}, "additionalParams.lcm-kubernetes-def-files", "non-empty list"),
    ({"lcm-kubernetes-def-files": []}, "additionalParams.lcm-kubernetes-def-files", "non-empty list"),
    ({"lcm-kubernetes-def-files": "a.yaml"}, "additionalParams.lcm-kubernetes-def-files", "non-empty list"),
    ({"lcm-kubernetes-def-files": ["a.yaml", 3]}, "additionalParams.lcm-kubernetes-def-files[1]", "package-relative file path"),
    ({"lcm-kubernetes-def-files": ["/etc/passwd"]}, "additionalParams.lcm-kubernetes-def-files[0]", "absolute path"),
    ({"lcm-kubernetes-def-files": ["../x.yaml"]}, "additionalParams.lcm-kubernetes-def-files[0]", "outside the package"),
    ({"lcm-kubernetes-def-files": ["a.yaml", "./a.yaml"]}, "additionalParams.lcm-kubernetes-def-files[1]", "already listed at [0]"),
])
def test_requested_def_files_errors(params, field, text):
    with pytest.raises(ValidationError) as err:
        m.requested_def_files({"additionalParams": params})
    assert err.value.field == field
    assert text in err.value.msg
    assert err.value.msg.startswith("Failed to validate InstantiateVnfRequest: ")


def test_requested_def_files_other_request_type():
    with pytest.raises(ValidationError) as err:
        m.requested_def_files({}, what="ChangeCurrentVnfPkgRequest")
    assert err.value.msg.startswith("Failed to validate ChangeCurrentVnfPkgRequest")


@pytest.mark.parametrize("document, text", [
    ("not an object", "document 2 is not a Kubernetes object"),
    ({"kind": "Pod", "metadata": {"name": "a"}}, "document 2: apiVersion is required"),
    ({"apiVersion": "v1", "metadata": {"name": "a"}}, "document 2: kind is required"),
    ({"apiVersion": "v1", "kind": "Pod"}, "document 2 (Pod): metadata.name is required"),
    ({"apiVersion": "v1", "kind": "Pod", "metadata": {"generateName": "a-"}}, "metadata.name is required"),
    ({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a", "namespace": ""}}, "metadata.namespace must be a non-empty string"),
])
def test_manifest_records_name_the_file(document, text):
    good = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}
    with pytest.raises(PackageError) as err:
        m.manifest_records("Files/kubernetes/bad.yaml", [good, document])
    assert err.value.path == "Files/kubernetes/bad.yaml"
    assert text in err.value.msg


def test_accessors_accept_records_and_objects():
    obj = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "svc", "namespace": "ns"}}
    record = {"file": "f.yaml", "index": 0, "object": obj}
    for item in (obj, record):
        assert (m.kind_of(item), m.name_of(item), m.namespace_of(item)) == ("Service", "svc", "ns")
    assert m.describe(record) == "Service svc (f.yaml)"
    assert m.describe(obj) == "Service svc"
