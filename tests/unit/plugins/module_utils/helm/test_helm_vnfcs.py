# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The VDUs of Tacker's sample chart as Helm renders it (written out here: no helm binary), their workloads and counts."""

from __future__ import annotations

import copy
import json
import os

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.helm import vnfcs
from ansible_collections.nfv.vnflcm.plugins.module_utils.helm.cli import tacker_release_name
from ansible_collections.nfv.vnflcm.plugins.module_utils.helm.request import helm_params

CHART = "Files/kubernetes/test-chart-0.1.0.tgz"
RELEASE = tacker_release_name("6f0e4c7a-2b1d-4e3f-9a8b-1c2d3e4f5a6b")
# test-chart's values.yaml, as far as its templates read it.
CHART_VALUES = {"replicaCountVdu1": 1, "replicaCountVdu2": 1, "image.repository": "nginx", "image.pullPolicy": "IfNotPresent",
                "image.tag": "", "serviceAccount.create": True, "service.type": "ClusterIP", "service.port": 80}


def render_test_chart(release=RELEASE, set_values=None):
    """What ``helm template <release> test-chart-0.1.0.tgz --set ...`` prints for Tacker's test-chart, parsed: the
    templates under Files/kubernetes/test-chart/templates/ worked out by hand (_helpers.tpl's names and labels, no
    nameOverride / fullnameOverride, no namespace in any template). Order: Helm's install order (ServiceAccount,
    Service, then the Deployments by name)."""
    values = dict(CHART_VALUES, **(set_values or {}))
    # test-chart.fullname: the release name when it contains the chart name, else "<release>-test-chart".
    fullname = release if "test-chart" in release else "{0}-test-chart".format(release)
    selector = {"app.kubernetes.io/name": "test-chart", "app.kubernetes.io/instance": release}
    labels = dict({"helm.sh/chart": "test-chart-0.1.0"}, **selector, **{"app.kubernetes.io/version": "1.16.0", "app.kubernetes.io/managed-by": "Helm"})
    documents = []
    if values["serviceAccount.create"]:
        documents.append({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": fullname, "labels": labels}})
    ports = [{"port": values["service.port"], "targetPort": "http", "protocol": "TCP", "name": "http"}]
    documents.append({"apiVersion": "v1", "kind": "Service", "metadata": {"name": fullname, "labels": labels},
                      "spec": {"type": values["service.type"], "ports": ports, "selector": selector}})
    images = {"vdu1": "{0}:{1}".format(values["image.repository"], values["image.tag"] or "1.16.0"), "vdu2": "nginx"}
    for vdu in ("vdu1", "vdu2"):
        documents.append({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "{0}-{1}".format(vdu, release), "labels": labels},
            "spec": {"replicas": values["replicaCount" + vdu.capitalize()], "selector": {"matchLabels": selector},
                     "template": {"metadata": {"labels": selector},
                                  "spec": {"serviceAccountName": fullname, "securityContext": {},
                                           "containers": [{"name": "test-chart", "securityContext": {}, "image": images[vdu],
                                                           "imagePullPolicy": values["image.pullPolicy"],
                                                           "ports": [{"name": "http", "containerPort": 80, "protocol": "TCP"}],
                                                           "resources": {}}]}}}})
    return documents


@pytest.fixture(scope="module")
def vdus(package_data):
    return package_data["vnfd"]["flavours"]["simple"]["vdus"]


@pytest.fixture(scope="module")
def instantiate(helm_fixtures):
    with open(os.path.join(helm_fixtures, "requests", "test_helm", "helm_instantiate.json")) as handle:
        return json.load(handle)


def refused(documents, vdus, namespace="default"):
    with pytest.raises(ValidationError) as caught:
        vnfcs.workloads_by_vdu(documents, vdus, namespace, CHART)
    return caught.value


def test_the_hand_render_follows_the_chart_templates(helm_fixtures):
    # Guard for render_test_chart: the names and value keys it assumes are the chart's.
    templates = os.path.join(helm_fixtures, "test_helm_instantiate", "Files", "kubernetes", "test-chart", "templates")
    for vdu in ("vdu1", "vdu2"):
        with open(os.path.join(templates, "deployment_{0}.yaml".format(vdu))) as handle:
            text = handle.read()
        assert "name: {0}-{{{{ .Release.Name }}}}".format(vdu) in text
        assert "replicas: {{{{ .Values.replicaCount{0} }}}}".format(vdu.capitalize()) in text
        assert "namespace" not in text


# ---------------------------------------------------------------------------------------------
# workloads_by_vdu

def test_each_vdu_of_the_sample_has_its_deployment(vdus):
    workloads = vnfcs.workloads_by_vdu(render_test_chart(), vdus, "default", CHART)
    assert {vdu_id: (obj["kind"], obj["metadata"]["name"]) for vdu_id, obj in workloads.items()} == {
        "VDU1": ("Deployment", "vdu1-" + RELEASE), "VDU2": ("Deployment", "vdu2-" + RELEASE)}


def test_the_release_name_does_not_matter_when_it_has_no_dash(vdus):
    workloads = vnfcs.workloads_by_vdu(render_test_chart("myrelease"), vdus, "default", CHART)
    assert workloads["VDU1"]["metadata"]["name"] == "vdu1-myrelease"


def test_a_release_name_with_a_dash_hides_the_vdus(vdus):
    # Tacker's rule cuts the name at its last dash: "vdu1-my-release" reads as VDU name "vdu1-my".
    error = refused(render_test_chart("my-release"), vdus)
    assert error.field == CHART and "VDU VDU1 (name vdu1) has no workload" in error.reason


def test_a_workload_named_as_the_vdu_is_its_workload(vdus):
    documents = render_test_chart()
    documents[2]["metadata"]["name"] = "vdu1"
    assert vnfcs.workloads_by_vdu(documents, vdus, "default", CHART)["VDU1"]["metadata"]["name"] == "vdu1"


@pytest.mark.parametrize("kind", ["Pod", "ReplicaSet", "DaemonSet", "StatefulSet"])
def test_every_workload_kind_can_be_a_vdu(vdus, kind):
    documents = render_test_chart()
    documents[3]["kind"] = kind
    assert vnfcs.workloads_by_vdu(documents, vdus, "default", CHART)["VDU2"]["kind"] == kind


def test_other_kinds_with_a_vdu_like_name_are_not_workloads(vdus):
    documents = render_test_chart() + [
        {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "vdu1-svc"}},
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "vdu2-config"}},
        {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "vdu1-init"}},
    ]
    workloads = vnfcs.workloads_by_vdu(documents, vdus, "default", CHART)
    assert [obj["kind"] for obj in workloads.values()] == ["Deployment", "Deployment"]


def test_workloads_of_no_vdu_are_ignored(vdus):
    documents = render_test_chart() + [{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "sidecar-" + RELEASE}}]
    assert sorted(vnfcs.workloads_by_vdu(documents, vdus, "default", CHART)) == ["VDU1", "VDU2"]


def test_a_vdu_without_workload_is_refused_naming_the_vdu_and_the_chart(vdus):
    documents = [document for document in render_test_chart() if document["metadata"]["name"] != "vdu2-" + RELEASE]
    error = refused(documents, vdus)
    assert error.field == CHART
    assert "VDU VDU2 (name vdu2) has no workload in the chart" in error.reason
    assert CHART in str(error)


def test_two_workloads_of_one_vdu_are_refused(vdus):
    documents = render_test_chart() + [{"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "vdu1-other"}}]
    error = refused(documents, vdus)
    assert error.field == CHART
    assert "VDU VDU1 (name vdu1) matches more than one workload: Deployment vdu1-{0}, StatefulSet vdu1-other".format(RELEASE) in error.reason


def test_a_workload_answering_two_vdus_is_refused():
    vdus = {"VDU1": {"name": "db"}, "VDU2": {"name": "db-main"}}
    documents = [{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "db-main"}},
                 {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "db-x"}}]
    error = refused(documents, vdus)
    assert "Deployment db-main answers to more than one VDU: VDU1, VDU2" in error.reason


# ---------------------------------------------------------------------------------------------
# namespaces

def test_objects_in_the_release_namespace_or_none_are_taken(vdus):
    documents = render_test_chart()
    documents[2]["metadata"]["namespace"] = "cnf"
    documents.append({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "reader"}})
    assert sorted(vnfcs.workloads_by_vdu(documents, vdus, "cnf", CHART)) == ["VDU1", "VDU2"]


@pytest.mark.parametrize("index", [0, 1, 2])
def test_an_object_in_another_namespace_is_refused(vdus, index):
    documents = render_test_chart()
    documents[index]["metadata"]["namespace"] = "kube-system"
    error = refused(documents, vdus)
    assert error.field == CHART
    assert "is placed in namespace kube-system, not the release's namespace default" in error.reason
    with pytest.raises(ValidationError):
        vnfcs.check_release_namespace(documents, "default", CHART)
    vnfcs.check_release_namespace(documents[index:index + 1], "kube-system", CHART)


# ---------------------------------------------------------------------------------------------
# replica counts

@pytest.mark.parametrize("workload, count", [
    ({"kind": "Deployment", "spec": {"replicas": 3}}, 3),
    ({"kind": "Deployment", "spec": {"replicas": 0}}, 0),
    ({"kind": "Deployment", "spec": {}}, 1),
    ({"kind": "StatefulSet"}, 1),
    ({"kind": "ReplicaSet", "spec": {"replicas": 2}}, 2),
    ({"kind": "Pod", "spec": {"containers": []}}, 1),
    ({"kind": "DaemonSet", "spec": {}}, None),
    ({"kind": "Service", "spec": {}}, None),
])
def test_replicas_of(workload, count):
    assert vnfcs.replicas_of(workload) == count


def test_rendered_counts_follow_the_set_values_of_each_level(instantiate, package_data, vdus):
    for level, count in (("instantiation_level_1", 1), ("instantiation_level_2", 3)):
        params = helm_params(instantiate, package_data, "simple", level)
        workloads = vnfcs.workloads_by_vdu(render_test_chart(set_values=params.set_values), vdus, params.namespace, params.chart_path)
        assert {vdu_id: vnfcs.replicas_of(obj) for vdu_id, obj in workloads.items()} == {"VDU1": count, "VDU2": count}
        assert vnfcs.replica_mismatches(workloads, {"VDU1": count, "VDU2": count}) == {}


def test_a_count_the_chart_does_not_take_is_a_mismatch(vdus):
    # The chart rendered with its own values (VDU2 left out of helm_value_names, say) where the level wants 3.
    workloads = vnfcs.workloads_by_vdu(render_test_chart(set_values={"replicaCountVdu1": 3}), vdus, "default", CHART)
    assert vnfcs.replica_mismatches(workloads, {"VDU1": 3, "VDU2": 3}) == {"VDU2": (1, 3)}
    # A VDU the VNFD does not size, and a DaemonSet, have nothing to compare.
    assert vnfcs.replica_mismatches(workloads, {"VDU1": 3, "VDU2": None}) == {}
    daemon = copy.deepcopy(workloads)
    daemon["VDU2"]["kind"] = "DaemonSet"
    assert vnfcs.replica_mismatches(daemon, {"VDU1": 3, "VDU2": 3}) == {}


def test_vdu_names_of_workload():
    assert vnfcs.vdu_names_of_workload("vdu1-vnf0a1b") == ["vdu1-vnf0a1b", "vdu1"]
    assert vnfcs.vdu_names_of_workload("vdu1") == ["vdu1"]
    assert vnfcs.vdu_names_of_workload("my-vdu-vnf0a1b") == ["my-vdu-vnf0a1b", "my-vdu"]
