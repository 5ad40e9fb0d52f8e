# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Namespace resolution for a CNF, with Tacker's test_cnf_multi_ns package and synthetic manifests."""

from __future__ import annotations

import copy
import json
import os
import shutil

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import namespaces as ns
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import load_manifests
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ordering import sort_for_create
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

DEPLOYMENT_HAS_NS = "Files/kubernetes/deployment_has_namespace.yaml"
DEPLOYMENT_NO_NS = "Files/kubernetes/deployment_no_namespace.yaml"
NAMESPACE01 = "Files/kubernetes/namespace01.yaml"
NAMESPACE02 = "Files/kubernetes/namespace02.yaml"
RBAC = "rbac.authorization.k8s.io/v1"


def namespaces_of(plan):
    return [(r["object"]["kind"], r["object"]["metadata"].get("namespace")) for r in plan["manifests"]]


# --- the cases of Tacker's multi-namespace functional tests --------------------------------------

def test_request_namespace_rewrites_and_reports(multi_ns_manifests, discovery):
    manifests = multi_ns_manifests("deployment_has_namespace.yaml", "namespace01.yaml")
    before = copy.deepcopy(manifests)
    plan = ns.resolve_namespace("multi-namespace01", manifests, discovery, allow_cluster_scoped=True)
    assert (plan["namespace"], plan["reason"], plan["policy"]) == ("multi-namespace01", "request", "rewrite")
    assert plan["rewrites"] == [{
        "file": DEPLOYMENT_HAS_NS, "index": 0, "kind": "Deployment", "name": "vdu1",
        "field": "metadata.namespace", "from": "multi-namespace02", "to": "multi-namespace01",
    }]
    assert plan["cluster_scoped"] == [{"file": NAMESPACE01, "index": 0, "kind": "Namespace", "name": "multi-namespace01"}]
    assert (plan["warnings"], plan["creates_namespace"]) == ([], True)
    assert namespaces_of(plan) == [("Deployment", "multi-namespace01"), ("Namespace", None)]
    assert manifests == before  # the caller's records are untouched


def test_manifests_namespace_without_request(multi_ns_manifests, discovery):
    plan = ns.resolve_namespace(None, multi_ns_manifests("deployment_has_namespace.yaml", "namespace02.yaml"), discovery, allow_cluster_scoped=True)
    assert (plan["namespace"], plan["reason"], plan["rewrites"], plan["warnings"]) == ("multi-namespace02", "manifests", [], [])
    assert namespaces_of(plan) == [("Deployment", "multi-namespace02"), ("Namespace", None)]


def test_the_module_option_comes_after_the_request_and_before_the_manifests(multi_ns_manifests, discovery):
    manifests = multi_ns_manifests("deployment_has_namespace.yaml")
    plan = ns.resolve_namespace(None, manifests, discovery, option_namespace="tenant-a")
    assert (plan["namespace"], plan["reason"]) == ("tenant-a", "option")
    assert plan["rewrites"][0]["from"] == "multi-namespace02" and plan["rewrites"][0]["to"] == "tenant-a"
    assert ns.resolve_namespace("tenant-b", manifests, discovery, option_namespace="tenant-a")["reason"] == "request"
    with pytest.raises(ValidationError, match="namespace"):
        ns.resolve_namespace(None, manifests, discovery, option_namespace="Not_A_Name")


def test_default_namespace_when_nobody_names_one(multi_ns_manifests, discovery):
    plan = ns.resolve_namespace(None, multi_ns_manifests("deployment_no_namespace.yaml"), discovery)
    assert (plan["namespace"], plan["reason"], plan["rewrites"], plan["cluster_scoped"]) == ("default", "default", [], [])
    assert namespaces_of(plan) == [("Deployment", "default")]  # set explicitly, so the apply step needs no default of its own


def test_namespace_objects_do_not_name_the_vnf_namespace(multi_ns_manifests, discovery):
    plan = ns.resolve_namespace(None, multi_ns_manifests("namespace01.yaml", "deployment_no_namespace.yaml"), discovery, allow_cluster_scoped=True)
    assert (plan["namespace"], plan["reason"], plan["creates_namespace"]) == ("default", "default", False)
    assert plan["warnings"] == [NAMESPACE01 + " creates Namespace multi-namespace01, but the VNF's objects go to namespace default"]


@pytest.fixture
def package_with_second_namespace(fixtures_dir, tmp_path):
    """test_cnf_multi_ns plus a def file whose Deployment names multi-namespace01."""
    root = str(tmp_path / "pkg")
    shutil.copytree(os.path.join(fixtures_dir, "test_cnf_multi_ns"), root)
    with open(os.path.join(root, DEPLOYMENT_NO_NS)) as source:
        text = source.read().replace("name: vdu2\n", "name: vdu2\n  namespace: multi-namespace01\n")
    with open(os.path.join(root, "Files/kubernetes/deployment_ns01.yaml"), "w") as target:
        target.write(text)
    with open(os.path.join(root, "TOSCA-Metadata", "TOSCA.meta"), "a") as meta:
        meta.write("\n\nName: Files/kubernetes/deployment_ns01.yaml\nContent-Type: application/yaml\n")
    with load_package(root) as package:
        yield package


def test_def_files_that_disagree_are_an_error(package_with_second_namespace, discovery):
    request = {"additionalParams": {"lcm-kubernetes-def-files": [DEPLOYMENT_HAS_NS, "Files/kubernetes/deployment_ns01.yaml"]}}
    manifests = load_manifests(package_with_second_namespace, request)
    with pytest.raises(ValidationError) as err:
        ns.resolve_namespace(None, manifests, discovery)
    assert err.value.field == "additionalParams.namespace"
    for text in ("Deployment vdu1 ({0}) in multi-namespace02".format(DEPLOYMENT_HAS_NS),
                 "Deployment vdu2 (Files/kubernetes/deployment_ns01.yaml) in multi-namespace01", "set additionalParams.namespace"):
        assert text in err.value.msg
    # A request namespace settles it: both are rewritten and reported.
    plan = ns.resolve_namespace("vnf-a", manifests, discovery)
    assert [(change["name"], change["from"]) for change in plan["rewrites"]] == [("vdu1", "multi-namespace02"), ("vdu2", "multi-namespace01")]


def test_reverse_order_still_creates_the_namespace_first(multi_ns_manifests, discovery):
    plan = ns.resolve_namespace("multi-namespace01", multi_ns_manifests("deployment_has_namespace.yaml", "namespace01.yaml"), discovery,
                                allow_cluster_scoped=True)
    assert [r["object"]["kind"] for r in sort_for_create(plan["manifests"])] == ["Namespace", "Deployment"]


def test_policy_error_refuses_a_foreign_namespace(multi_ns_manifests, discovery):
    manifests = multi_ns_manifests("deployment_has_namespace.yaml", "namespace01.yaml")
    with pytest.raises(ValidationError) as err:
        ns.resolve_namespace("multi-namespace01", manifests, discovery, policy="error", allow_cluster_scoped=True)
    assert err.value.field == "additionalParams.namespace"
    assert "Deployment vdu1 ({0}) metadata.namespace is multi-namespace02".format(DEPLOYMENT_HAS_NS) in err.value.msg
    assert "namespace policy 'error'" in err.value.msg


def test_policy_error_accepts_agreeing_manifests(multi_ns_manifests, discovery):
    plan = ns.resolve_namespace("multi-namespace02", multi_ns_manifests("deployment_has_namespace.yaml", "deployment_no_namespace.yaml"),
                                discovery, policy="error")
    assert namespaces_of(plan) == [("Deployment", "multi-namespace02"), ("Deployment", "multi-namespace02")]


def test_cluster_scoped_objects_need_permission(multi_ns_manifests, discovery):
    with pytest.raises(ValidationError) as err:
        ns.resolve_namespace("multi-namespace01", multi_ns_manifests("deployment_has_namespace.yaml", "namespace01.yaml"), discovery)
    assert err.value.field == "additionalParams.lcm-kubernetes-def-files"
    assert "Namespace multi-namespace01 ({0})".format(NAMESPACE01) in err.value.msg
    assert "allow_cluster_scoped" in err.value.msg


# --- RBAC, discovery, custom resources ------------------------------------------------------------

def test_role_and_rolebinding_land_in_the_request_namespace(k8s_record, discovery):
    binding_subjects = [
        {"kind": "ServiceAccount", "name": "vnf-sa", "namespace": "tenant-old"},
        {"kind": "ServiceAccount", "name": "monitoring", "namespace": "observability"},  # not ours: left alone
        {"kind": "User", "name": "alice"},
    ]
    manifests = [
        k8s_record("ServiceAccount", "vnf-sa", "tenant-old", file="sa.yaml"),
        k8s_record("Role", "vnf-role", "tenant-old", api_version=RBAC, file="rbac.yaml", index=0, rules=[]),
        k8s_record("RoleBinding", "vnf-binding", None, api_version=RBAC, file="rbac.yaml", index=1, subjects=binding_subjects,
                   roleRef={"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "vnf-role"}),
    ]
    plan = ns.resolve_namespace("tenant-a", manifests, discovery)
    assert namespaces_of(plan) == [("ServiceAccount", "tenant-a"), ("Role", "tenant-a"), ("RoleBinding", "tenant-a")]
    assert [s.get("namespace") for s in plan["manifests"][2]["object"]["subjects"]] == ["tenant-a", "observability", None]
    assert [(c["kind"], c["field"], c["from"]) for c in plan["rewrites"]] == [
        ("ServiceAccount", "metadata.namespace", "tenant-old"),
        ("Role", "metadata.namespace", "tenant-old"),
        ("RoleBinding", "subjects[0].namespace", "tenant-old"),
    ]
    assert manifests[2]["object"]["subjects"][0]["namespace"] == "tenant-old"


def test_unknown_kinds_are_errors_never_skipped(k8s_record, discovery):
    manifests = [k8s_record("Deployment", "vdu1", api_version="apps/v1", file="a.yaml"),
                 k8s_record("Widget", "w", api_version="example.com/v1", file="b.yaml"),
                 k8s_record("Gadget", "g", api_version="example.com/v1", file="c.yaml")]
    with pytest.raises(ValidationError) as err:
        ns.resolve_namespace("ns1", manifests, discovery)
    assert err.value.field == "additionalParams.lcm-kubernetes-def-files"
    assert "b.yaml: kind Widget (apiVersion example.com/v1); c.yaml: kind Gadget (apiVersion example.com/v1)" in err.value.msg


def test_missing_comma_cannot_lose_role(k8s_record):
    """Scope comes from discovery per (apiVersion, kind), so a kind is never dropped by a list typo."""
    asked = []

    def namespaced(api_version, kind):
        asked.append((api_version, kind))
        return {"Role": True, "RoleBinding": True}.get(kind)
    manifests = [k8s_record("Role", "r", api_version=RBAC), k8s_record("RoleBinding", "rb", api_version=RBAC)]
    plan = ns.resolve_namespace("ns1", manifests, namespaced)
    assert asked == [(RBAC, "Role"), (RBAC, "RoleBinding")]
    assert namespaces_of(plan) == [("Role", "ns1"), ("RoleBinding", "ns1")]


def test_crd_in_the_def_files_gives_the_scope_of_its_kind(k8s_record, discovery):
    crd_spec = {"group": "example.com", "scope": "Namespaced", "names": {"kind": "Widget", "plural": "widgets"},
                "versions": [{"name": "v1", "served": True, "storage": True}, {"name": "v1beta1", "served": True}]}
    cluster_crd = dict(crd_spec, scope="Cluster", names={"kind": "Zone", "plural": "zones"})
    manifests = [
        k8s_record("CustomResourceDefinition", "widgets.example.com", api_version="apiextensions.k8s.io/v1", spec=crd_spec),
        k8s_record("CustomResourceDefinition", "zones.example.com", api_version="apiextensions.k8s.io/v1", spec=cluster_crd),
        k8s_record("Widget", "w1", "elsewhere", api_version="example.com/v1beta1"),
        k8s_record("Zone", "z1", api_version="example.com/v1"),
    ]
    plan = ns.resolve_namespace("ns1", manifests, discovery, allow_cluster_scoped=True)
    assert namespaces_of(plan) == [("CustomResourceDefinition", None), ("CustomResourceDefinition", None), ("Widget", "ns1"), ("Zone", None)]
    assert [c["kind"] for c in plan["cluster_scoped"]] == ["CustomResourceDefinition", "CustomResourceDefinition", "Zone"]
    assert [c["kind"] for c in plan["rewrites"]] == ["Widget"]


def test_discovery_wins_over_the_def_files(k8s_record):
    crd = k8s_record("CustomResourceDefinition", "widgets.example.com", api_version="apiextensions.k8s.io/v1",
                     spec={"group": "example.com", "scope": "Cluster", "names": {"kind": "Widget"}, "versions": [{"name": "v1"}]})
    lookup = ns.scope_lookup({("example.com/v1", "Widget"): True}, [crd])
    assert lookup("example.com/v1", "Widget") is True
    assert lookup("example.com/v2", "Widget") is None


def test_cluster_scoped_objects_lose_a_stray_namespace(k8s_record, discovery):
    manifests = [k8s_record("ClusterRole", "reader", "ns9", api_version=RBAC), k8s_record("ConfigMap", "c")]
    plan = ns.resolve_namespace(None, manifests, discovery, allow_cluster_scoped=True)
    assert (plan["namespace"], plan["reason"]) == ("default", "default")  # a cluster-scoped object's namespace does not count
    assert namespaces_of(plan) == [("ClusterRole", None), ("ConfigMap", "default")]


def test_bad_discovery_answers_are_programming_errors(k8s_record):
    with pytest.raises(ValueError):
        ns.resolve_namespace("ns1", [k8s_record("ConfigMap", "c")], lambda api_version, kind: "yes")


@pytest.mark.parametrize("name", ["Tenant-A", "a_b", "-a", "a" * 64, "", 5])
def test_invalid_request_namespace(name, k8s_record, discovery):
    with pytest.raises(ValidationError) as err:
        ns.resolve_namespace(name, [k8s_record("ConfigMap", "c")], discovery)
    assert err.value.field == "additionalParams.namespace"


def test_invalid_namespace_in_a_manifest(k8s_record, discovery):
    with pytest.raises(ValidationError) as err:
        ns.resolve_namespace(None, [k8s_record("ConfigMap", "c", "Bad_NS")], discovery)
    assert err.value.field == "additionalParams.lcm-kubernetes-def-files"


def test_unknown_policy(k8s_record, discovery):
    with pytest.raises(ValidationError) as err:
        ns.resolve_namespace("ns1", [k8s_record("ConfigMap", "c")], discovery, policy="ignore")
    assert err.value.field == "namespace_policy"


def test_plan_is_plain_data(multi_ns_manifests, discovery):
    plan = ns.resolve_namespace("multi-namespace01", multi_ns_manifests("deployment_has_namespace.yaml"), discovery)
    assert json.loads(json.dumps(plan)) == plan


# --- the namespace after instantiation -------------------------------------------------------------

def test_check_namespace_unchanged():
    assert ns.check_namespace_unchanged("tenant-a", None) == "tenant-a"
    assert ns.check_namespace_unchanged("tenant-a", "tenant-a") == "tenant-a"
    with pytest.raises(ValidationError) as err:
        ns.check_namespace_unchanged("tenant-a", "tenant-b")
    assert err.value.field == "metadata.namespace"
    assert "fixed at instantiation" in err.value.msg
    with pytest.raises(ValidationError) as err:
        ns.check_namespace_unchanged("tenant-a", "tenant-b", "ChangeCurrentVnfPkgRequest", "additionalParams.namespace")
    assert err.value.msg.startswith("Failed to validate ChangeCurrentVnfPkgRequest: additionalParams.namespace: ")


def test_instance_namespace_roundtrip():
    instance = {"id": "i1", "metadata": {"owner": "x"}}
    recorded = ns.with_namespace(instance, "tenant-a")
    assert ns.instance_namespace(recorded) == "tenant-a"
    assert recorded["metadata"] == {"owner": "x", "namespace": "tenant-a"}
    assert ns.instance_namespace(instance) is None
    assert ns.instance_namespace({"id": "i2"}) is None


@pytest.mark.parametrize("patch, ok", [
    ({"owner": "y"}, True),
    ({"namespace": "tenant-a"}, True),
    ({"namespace": "tenant-b"}, False),
    ({"namespace": None}, False),
])
def test_modification_cannot_redirect_the_namespace(patch, ok):
    instance = ns.with_namespace({"id": "i1"}, "tenant-a")
    request = {"metadata": patch}
    if ok:
        assert ns.check_modification_keeps_namespace(instance, request) == "tenant-a"
    else:
        with pytest.raises(ValidationError) as err:
            ns.check_modification_keeps_namespace(instance, request)
        assert err.value.field == "metadata.namespace"


def test_modification_before_instantiation_is_not_restricted():
    assert ns.check_modification_keeps_namespace({"id": "i1"}, {"metadata": {"namespace": "any"}}) is None


def test_one_object_defined_in_two_def_files_is_refused_naming_both(discovery, k8s_record):
    # The second create's 409 would be taken for this instance's own object: the second file's content would be lost.
    first = k8s_record("ConfigMap", "conf", file="Files/kubernetes/a.yaml", data={"k": "1"})
    second = k8s_record("ConfigMap", "conf", "tenant-a", file="Files/kubernetes/b.yaml", index=1, data={"k": "2"})
    with pytest.raises(ValidationError, match=r"ConfigMap conf \(namespace tenant-a\) is defined twice: in Files/kubernetes/a.yaml "
                                              r"\(document 1\) and in Files/kubernetes/b.yaml \(document 2\)"):
        ns.resolve_namespace("tenant-a", [first, second], discovery)
    # The same name in another kind is another object.
    other = k8s_record("Secret", "conf", file="Files/kubernetes/b.yaml", index=1)
    assert len(ns.resolve_namespace("tenant-a", [first, other], discovery)["manifests"]) == 2
