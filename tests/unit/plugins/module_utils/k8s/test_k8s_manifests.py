# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Def files of an InstantiateVnfRequest read from the package into manifest records, and the bounds on them."""

from __future__ import annotations

import copy
import datetime
import json
import os

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import manifests as m
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.limits import MAX_KUBERNETES_OBJECT_BYTES, MAX_KUBERNETES_OBJECTS
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package


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


# ---------------------------------------------------------------------------------------------
# What a request may deploy: declared def files, a bounded number of objects, each storable by etcd.

class FakePackage:
    """What load_manifests reads of a VnfPackage: its data and the documents of its def files."""

    def __init__(self, files, listed=(), artifacts=None):
        self.files = files
        self.data = {
            "kubernetes_def_files": sorted(files),
            "meta": {"files": {name: {} for name in listed}},
            "vnfd": {"artifacts": {key: {"file": name} for key, name in (artifacts or {}).items()}},
        }

    def to_dict(self):
        return copy.deepcopy(self.data)

    def load_yaml_documents(self, relpath):
        return copy.deepcopy(self.files[relpath])


def config_maps(count, prefix="c"):
    return [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "{0}{1}".format(prefix, index)}} for index in range(count)]


def compact_size(obj):
    return len(json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


@pytest.mark.parametrize("name", ["test_cnf_multi_ns", "test_cnf_container_update_before", "test_cnf_container_update_after"])
def test_every_def_file_of_the_samples_is_declared_and_loads(fixtures_dir, name):
    with load_package(os.path.join(fixtures_dir, name)) as package:
        files = package.to_dict()["kubernetes_def_files"]
        records = m.load_manifests(package, request_for(*files))
    assert files and {record["file"] for record in records} == set(files)


def test_an_undeclared_def_file_is_refused(package_copy):
    """Tacker answers CnfDefinitionNotFound: a file neither in TOSCA.meta nor a VNFD artifact is not part of the package."""
    root = package_copy("test_cnf_multi_ns")
    with open(os.path.join(root, "Files", "kubernetes", "extra.yaml"), "w") as handle:
        handle.write("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n")
    with load_package(root) as package:
        for what in ("InstantiateVnfRequest", "VnfInfoModificationRequest"):
            with pytest.raises(ValidationError) as err:
                m.load_manifests(package, request_for("Files/kubernetes/namespace01.yaml", "Files/kubernetes/extra.yaml"), what)
            assert err.value.field == "additionalParams.lcm-kubernetes-def-files[1]"
            assert err.value.msg == (
                "Failed to validate {0}: additionalParams.lcm-kubernetes-def-files[1]: Files/kubernetes/extra.yaml is not declared by "
                "the package: it must be listed in TOSCA.meta (a Name: entry) or be the file of a VNFD artifact".format(what))


def test_a_def_file_declared_as_a_vnfd_artifact_is_accepted():
    package = FakePackage({"Files/kubernetes/a.yaml": config_maps(1)}, artifacts={"cnf-def": "Files/kubernetes/a.yaml"})
    assert [record["object"]["metadata"]["name"] for record in m.load_manifests(package, request_for("Files/kubernetes/a.yaml"))] == ["c0"]


def test_declared_files():
    data = FakePackage({}, listed=["Files/kubernetes/a.yaml"], artifacts={"x": "Scripts/x.py"}).to_dict()
    assert m.declared_files(data) == {"Files/kubernetes/a.yaml", "Scripts/x.py"}


def test_the_benchmark_size_request_loads():
    package = FakePackage({"Files/kubernetes/many.yaml": config_maps(200)}, listed=["Files/kubernetes/many.yaml"])
    assert len(m.load_manifests(package, request_for("Files/kubernetes/many.yaml"))) == 200


def test_objects_up_to_the_limit_load_and_one_more_is_refused():
    files = {"Files/kubernetes/a.yaml": config_maps(MAX_KUBERNETES_OBJECTS - 1, "a"), "Files/kubernetes/b.yaml": config_maps(1, "b")}
    package = FakePackage(files, listed=files)
    assert len(m.load_manifests(package, request_for(*sorted(files)))) == MAX_KUBERNETES_OBJECTS
    package.files["Files/kubernetes/b.yaml"] = config_maps(2, "b")
    with pytest.raises(ValidationError) as err:
        m.load_manifests(package, request_for(*sorted(files)))
    assert err.value.field == "additionalParams.lcm-kubernetes-def-files[1]"
    assert err.value.msg == ("Failed to validate InstantiateVnfRequest: additionalParams.lcm-kubernetes-def-files[1]: Files/kubernetes/b.yaml "
                             "brings the request to 1001 Kubernetes objects, more than the limit of 1000 per request")


def test_the_object_count_covers_the_sample_files(multi_ns_package, monkeypatch):
    monkeypatch.setattr(m, "MAX_KUBERNETES_OBJECTS", 2)
    with pytest.raises(ValidationError) as err:
        m.load_manifests(multi_ns_package, request_for(
            "Files/kubernetes/namespace01.yaml", "Files/kubernetes/namespace02.yaml", "Files/kubernetes/deployment_has_namespace.yaml"))
    assert err.value.field == "additionalParams.lcm-kubernetes-def-files[2]"
    assert "brings the request to 3 Kubernetes objects, more than the limit of 2 per request" in err.value.msg


def big_config_map(size, char="x"):
    """A ConfigMap whose compact JSON is ``size`` bytes (``char`` is one byte or two in UTF-8)."""
    obj = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "big"}, "data": {"blob": ""}}
    count, rest = divmod(size - compact_size(obj), len(char.encode("utf-8")))
    obj["data"]["blob"] = char * count + "x" * rest
    assert compact_size(obj) == size
    return obj


def test_an_object_at_the_etcd_limit_loads():
    records = m.manifest_records("Files/kubernetes/big.yaml", [big_config_map(MAX_KUBERNETES_OBJECT_BYTES)])
    assert records[0]["object"]["metadata"]["name"] == "big"


@pytest.mark.parametrize("char", ["x", "\u00e9"])
def test_an_object_over_the_etcd_limit_names_file_document_kind_and_name(char):
    """The limit is on bytes: two-byte characters count twice."""
    good = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "small"}}
    with pytest.raises(PackageError) as err:
        m.manifest_records("Files/kubernetes/big.yaml", [good, big_config_map(MAX_KUBERNETES_OBJECT_BYTES + 2, char)])
    assert err.value.path == "Files/kubernetes/big.yaml"
    assert err.value.msg == ("Failed to read VNF package: Files/kubernetes/big.yaml: document 2 (ConfigMap big) is 1.5 MiB (1572866 bytes), "
                             "more than the 1.5 MiB (1572864 bytes) limit of one Kubernetes object as JSON (etcd's default request size)")


def test_an_oversized_object_is_refused_through_load_manifests():
    package = FakePackage({"Files/kubernetes/big.yaml": [big_config_map(MAX_KUBERNETES_OBJECT_BYTES + 1)]}, listed=["Files/kubernetes/big.yaml"])
    with pytest.raises(PackageError, match="Files/kubernetes/big.yaml: document 1 \\(ConfigMap big\\) is 1.5 MiB"):
        m.load_manifests(package, request_for("Files/kubernetes/big.yaml"))


def test_yaml_dates_are_measured_as_the_strings_they_are_sent_as():
    obj = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"day": datetime.date(2026, 1, 2)}}
    assert m.manifest_records("f.yaml", [obj])[0]["object"]["data"]["day"] == datetime.date(2026, 1, 2)


def test_an_object_that_cannot_be_json_is_refused():
    obj = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {datetime.date(2026, 1, 2): "a"}}
    with pytest.raises(PackageError) as err:
        m.manifest_records("Files/kubernetes/c.yaml", [obj])
    assert "Files/kubernetes/c.yaml: document 1 (ConfigMap c) cannot be sent as JSON: keys must be str" in err.value.msg


def test_reviews_need_no_name_and_are_set_apart_in_package_order(fixtures_dir):
    """Tacker's test_instantiate_cnf_resources deploys the review kinds: questions the API server answers, not objects."""
    files = ["Files/kubernetes/local-subject-access-review.yaml", "Files/kubernetes/deployment.yaml",
             "Files/kubernetes/self-subject-access-review_and_self-subject-rule-review.yaml", "Files/kubernetes/subject-access-review.yaml",
             "Files/kubernetes/token-review.yaml"]
    with load_package(os.path.join(fixtures_dir, "test_instantiate_cnf_resources")) as package:
        reviews = []
        records = m.load_manifests(package, request_for(*files), create_only=reviews)
        assert [record["object"]["kind"] for record in records] == ["Deployment"]
        assert [(record["object"]["kind"], record["file"]) for record in reviews] == [
            ("LocalSubjectAccessReview", files[0]), ("SelfSubjectAccessReview", files[2]), ("SelfSubjectRulesReview", files[2]),
            ("SubjectAccessReview", files[3]), ("TokenReview", files[4])]
        # Without the list (modify, change of package), they are left out.
        assert [record["object"]["kind"] for record in m.load_manifests(package, request_for(*files))] == ["Deployment"]
    assert m.is_create_only({"apiVersion": "authorization.k8s.io/v1", "kind": "SubjectAccessReview"})
    assert not m.is_create_only({"apiVersion": "v1", "kind": "SubjectAccessReview"})
    with pytest.raises(PackageError, match="metadata must be a mapping"):
        m.manifest_records("f.yaml", [{"apiVersion": "authentication.k8s.io/v1", "kind": "TokenReview", "metadata": "x"}])
