# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A Helm CNF request checked against Tacker's Helm sample package: chart path, parameters, replica keys, counts."""

from __future__ import annotations

import copy
import io
import json
import os
import tarfile

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.helm import request as helm_request
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import sizing
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import is_helm_request

CHART = "Files/kubernetes/test-chart-0.1.0.tgz"


def load_request(helm_fixtures, name):
    with open(os.path.join(helm_fixtures, "requests", "test_helm", name + ".json")) as handle:
        return json.load(handle)


@pytest.fixture
def instantiate(helm_fixtures):
    return load_request(helm_fixtures, "helm_instantiate")


def with_params(request, **changes):
    """A copy of ``request`` with additionalParams entries set (None: removed)."""
    result = copy.deepcopy(request)
    for key, value in changes.items():
        if value is None:
            result["additionalParams"].pop(key, None)
        else:
            result["additionalParams"][key] = value
    return result


def refused(request, package_data, level=None, flavour="simple"):
    with pytest.raises(ValidationError) as caught:
        helm_request.helm_params(request, package_data, flavour, level)
    return caught.value


# ---------------------------------------------------------------------------------------------
# is_helm_request

def test_tacker_helm_instantiate_is_a_helm_request(instantiate):
    assert is_helm_request(instantiate)


def test_vim_type_alone_or_chart_path_alone_is_enough(instantiate):
    assert is_helm_request({"vimConnectionInfo": instantiate["vimConnectionInfo"]})
    assert is_helm_request({"additionalParams": {"helm_chart_path": CHART}})
    # Tacker v1's list form of vimConnectionInfo
    assert is_helm_request({"vimConnectionInfo": [{"id": "v", "vimType": "ETSINFV.HELM.V_3"}]})


@pytest.mark.parametrize("request_body", [
    None,
    {},
    {"flavourId": "simple", "additionalParams": {"lcm-kubernetes-def-files": ["Files/kubernetes/deployment.yaml"]}},
    {"vimConnectionInfo": {"vim1": {"vimType": "kubernetes"}}},
    {"vimConnectionInfo": {"vim1": {"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3"}}, "additionalParams": "x"},
    {"vimConnectionInfo": {"vim1": None}, "additionalParams": {"helm_chart_path": None}},
])
def test_other_requests_are_not_helm_requests(request_body):
    assert not is_helm_request(request_body)


# ---------------------------------------------------------------------------------------------
# helm_params: Tacker's functional test request

def test_tacker_request_gives_chart_parameters_keys_namespace_and_set_values(instantiate, package_data):
    params = helm_request.helm_params(instantiate, package_data, "simple")
    assert params.chart_path == CHART
    assert params.parameters == {"service.port": 8081, "service.type": "NodePort"}
    assert params.replica_keys == {"VDU1": "replicaCountVdu1", "VDU2": "replicaCountVdu2"}
    assert params.namespace == "default"
    # The default level, instantiation_level_1: one pod each.
    assert params.set_values == {"service.port": 8081, "service.type": "NodePort", "replicaCountVdu1": 1, "replicaCountVdu2": 1}


def test_a_read_package_is_taken_as_well_as_its_data(instantiate, package_data):
    class Package:  # what the driver holds: a VnfPackage (to_dict gives its data)
        def to_dict(self):
            return copy.deepcopy(package_data)
    assert helm_request.helm_params(instantiate, Package(), "simple") == helm_request.helm_params(instantiate, package_data, "simple")


@pytest.mark.parametrize("level, counts", [
    (None, (1, 1)),
    ("instantiation_level_1", (1, 1)),
    ("instantiation_level_2", (3, 3)),
])
def test_instantiation_levels_of_the_vnfd_size_the_vdus(instantiate, package_data, level, counts):
    values = helm_request.helm_params(instantiate, package_data, "simple", level).set_values
    assert (values["replicaCountVdu1"], values["replicaCountVdu2"]) == counts


def test_without_levels_the_initial_delta_sizes_the_vdus(instantiate, package_data):
    data = copy.deepcopy(package_data)
    flavour = data["vnfd"]["flavours"]["simple"]
    flavour["instantiation_levels"], flavour["default_instantiation_level"] = {}, None
    flavour["vdu_initial_delta"] = {"VDU1": 2}
    values = helm_request.helm_params(instantiate, data, "simple").set_values
    # VDU2: the VNFD says nothing, so the chart's own count stands (no value set).
    assert values == {"service.port": 8081, "service.type": "NodePort", "replicaCountVdu1": 2}


def test_unknown_level_and_flavour_are_refused(instantiate, package_data):
    assert refused(instantiate, package_data, "instantiation_level_9").field == "instantiationLevelId"
    assert refused(instantiate, package_data, flavour="complex").field == "flavourId"


def test_a_vdu_left_out_of_helm_value_names_keeps_the_chart_count(instantiate, package_data):
    # Tacker sets only the replica values it is given; VDU2 runs what the chart says (replicaCountVdu2: 1).
    request = with_params(instantiate, helm_value_names={"VDU1": {"replica": "replicaCountVdu1"}})
    params = helm_request.helm_params(request, package_data, "simple", "instantiation_level_2")
    assert params.replica_keys == {"VDU1": "replicaCountVdu1"}
    assert params.set_values == {"service.port": 8081, "service.type": "NodePort", "replicaCountVdu1": 3}


def test_namespace_and_helm_parameters_are_optional(instantiate, package_data):
    params = helm_request.helm_params(with_params(instantiate, namespace=None, helm_parameters=None), package_data, "simple")
    assert params.namespace is None
    assert params.parameters == {}
    assert params.set_values == {"replicaCountVdu1": 1, "replicaCountVdu2": 1}


def test_the_request_is_not_changed(instantiate, package_data):
    before = copy.deepcopy(instantiate)
    params = helm_request.helm_params(instantiate, package_data, "simple", "instantiation_level_2")
    params.set_values["x"] = 1
    params.parameters["y"] = 2
    assert instantiate == before


# ---------------------------------------------------------------------------------------------
# helm_chart_path

@pytest.mark.parametrize("chart_path, says", [
    (None, "is required"),
    ("", "is required"),
    ("   ", "is required"),
    (42, "is required"),
    ("../test-chart-0.1.0.tgz", "outside the package"),
    ("Files/../../test-chart-0.1.0.tgz", "outside the package"),
    ("/Files/kubernetes/test-chart-0.1.0.tgz", "absolute path"),
    ("C:/charts/test-chart-0.1.0.tgz", "absolute path"),
    ("Files/kubernetes/test-chart", "not a packaged Helm chart"),
    ("Definitions/sample_cnf_top.vnfd.yaml", "not a packaged Helm chart"),
    ("Files/kubernetes/test-chart-0.1.1.tgz", "not a file the package declares"),
    ("test-chart-0.1.0.tgz", "not a file the package declares"),
])
def test_bad_chart_paths_are_refused(instantiate, package_data, chart_path, says):
    error = refused(with_params(instantiate, helm_chart_path=chart_path), package_data)  # None: left out
    assert error.field == "additionalParams.helm_chart_path"
    assert says in error.reason


def test_chart_path_is_normalised(instantiate, package_data):
    request = with_params(instantiate, helm_chart_path="Files/./kubernetes//test-chart-0.1.0.tgz")
    assert helm_request.helm_params(request, package_data, "simple").chart_path == CHART


def test_a_chart_listed_but_absent_is_refused(instantiate, package_data):
    data = copy.deepcopy(package_data)
    data["meta"]["files"][CHART]["verified"] = False
    error = refused(instantiate, data)
    assert error.field == "additionalParams.helm_chart_path" and "not in it" in error.reason


def test_a_chart_declared_as_a_present_artifact_is_taken(instantiate, package_data):
    data = copy.deepcopy(package_data)
    del data["meta"]["files"][CHART]
    data["vnfd"]["artifacts"]["chart"] = {"file": CHART, "present": True, "node": "VNF"}
    assert helm_request.helm_params(instantiate, data, "simple").chart_path == CHART
    data["vnfd"]["artifacts"]["chart"]["present"] = False
    assert "not in it" in refused(instantiate, data).reason


def test_no_additional_params_is_refused(instantiate, package_data):
    request = copy.deepcopy(instantiate)
    del request["additionalParams"]
    assert refused(request, package_data).field == "additionalParams"


# ---------------------------------------------------------------------------------------------
# helm_value_names

@pytest.mark.parametrize("value_names, field", [
    (None, "additionalParams.helm_value_names"),
    ({}, "additionalParams.helm_value_names"),
    (["VDU1"], "additionalParams.helm_value_names"),
    ({"VDU3": {"replica": "replicaCountVdu3"}}, "additionalParams.helm_value_names.VDU3"),
    ({"VDU1": "replicaCountVdu1"}, "additionalParams.helm_value_names.VDU1"),
    ({"VDU1": {}}, "additionalParams.helm_value_names.VDU1"),
    ({"VDU1": {"replicas": "replicaCountVdu1"}}, "additionalParams.helm_value_names.VDU1"),
    ({"VDU1": {"replica": "replicaCountVdu1", "image": "image.tag"}}, "additionalParams.helm_value_names.VDU1"),
    ({"VDU1": {"replica": ""}}, "additionalParams.helm_value_names.VDU1.replica"),
    ({"VDU1": {"replica": 3}}, "additionalParams.helm_value_names.VDU1.replica"),
    ({"VDU1": {"replica": "a=b"}}, "additionalParams.helm_value_names.VDU1.replica"),
    ({"VDU1": {"replica": "a b"}}, "additionalParams.helm_value_names.VDU1.replica"),
    ({"VDU1": {"replica": "count"}, "VDU2": {"replica": "count"}}, "additionalParams.helm_value_names.VDU2.replica"),
])
def test_bad_helm_value_names_are_refused(instantiate, package_data, value_names, field):
    assert refused(with_params(instantiate, helm_value_names=value_names), package_data).field == field  # None: left out


def test_unknown_vdu_error_lists_the_flavour_vdus(instantiate, package_data):
    error = refused(with_params(instantiate, helm_value_names={"VDU3": {"replica": "replicaCountVdu3"}}), package_data)
    assert "VDU3 is not a VDU of flavour simple (VDUs: VDU1, VDU2)" in error.reason


def test_a_vm_vdu_cannot_be_a_chart_workload(instantiate, package_data):
    data = copy.deepcopy(package_data)
    data["vnfd"]["flavours"]["simple"]["vdus"]["VDU2"]["sw_image_data"] = {"name": "cirros"}
    error = refused(instantiate, data)
    assert error.field == "additionalParams.helm_value_names.VDU2" and "not a container VDU" in error.reason


# ---------------------------------------------------------------------------------------------
# helm_parameters and namespace

@pytest.mark.parametrize("parameters, field", [
    (["service.port=8081"], "additionalParams.helm_parameters"),
    ("service.port=8081", "additionalParams.helm_parameters"),
    ({"service": {"port": 8081}}, "additionalParams.helm_parameters.service"),
    ({"ports": [80, 443]}, "additionalParams.helm_parameters.ports"),
    ({"service.port": None}, "additionalParams.helm_parameters.service.port"),
    ({"ratio": float("nan")}, "additionalParams.helm_parameters.ratio"),
    ({"ratio": float("inf")}, "additionalParams.helm_parameters.ratio"),
    ({"a=b": 1}, "additionalParams.helm_parameters"),
    ({"a,b": 1}, "additionalParams.helm_parameters"),
    ({"": 1}, "additionalParams.helm_parameters"),
    ({"replicaCountVdu1": 2}, "additionalParams.helm_parameters.replicaCountVdu1"),
])
def test_bad_helm_parameters_are_refused(instantiate, package_data, parameters, field):
    assert refused(with_params(instantiate, helm_parameters=parameters), package_data).field == field


def test_scalar_helm_parameters_keep_their_types(instantiate, package_data):
    parameters = {"service.port": 8081, "service.type": "NodePort", "enabled": True, "ratio": 0.5, "image.tag": "1.16", "list[0]": "x"}
    params = helm_request.helm_params(with_params(instantiate, helm_parameters=parameters), package_data, "simple")
    assert params.parameters == parameters
    assert {key: params.set_values[key] for key in parameters} == parameters


@pytest.mark.parametrize("namespace", ["Default", "a_b", "-a", "", 7, "x" * 64])
def test_bad_namespace_is_refused(instantiate, package_data, namespace):
    assert refused(with_params(instantiate, namespace=namespace), package_data).field == "additionalParams.namespace"


# ---------------------------------------------------------------------------------------------
# scaled_set_values, with the repo's sizing of Tacker's scale requests

def test_scale_out_then_in_of_tacker_functional_test(helm_fixtures, instantiate, package_data):
    flavour = package_data["vnfd"]["flavours"]["simple"]
    keys = helm_request.helm_params(instantiate, package_data, "simple").replica_keys
    current = {"VDU1": 1, "VDU2": 1}
    scale_out = load_request(helm_fixtures, "helm_scale_out")  # vdu2_aspect, 2 steps
    counts = sizing.counts_after(flavour, scale_out["aspectId"], 0, sizing.scale_level_after(0, scale_out), current)
    assert helm_request.scaled_set_values(keys, counts, current) == {"replicaCountVdu2": 3}
    current.update(counts)
    scale_in = load_request(helm_fixtures, "helm_scale_in")  # vdu2_aspect, 1 step
    counts = sizing.counts_after(flavour, scale_in["aspectId"], 2, sizing.scale_level_after(2, scale_in), current)
    assert helm_request.scaled_set_values(keys, counts, current) == {"replicaCountVdu2": 2}


def test_scale_to_level_sets_only_the_counts_that_change(instantiate, package_data):
    flavour = package_data["vnfd"]["flavours"]["simple"]
    keys = helm_request.helm_params(instantiate, package_data, "simple").replica_keys
    current_levels = {"vdu1_aspect": 0, "vdu2_aspect": 2}
    current = {"VDU1": 1, "VDU2": 3}
    targets = sizing.target_scale_levels(flavour, {"instantiationLevelId": "instantiation_level_2"}, current_levels)
    counts = sizing.counts_at_levels(flavour, sizing.changed_levels(current_levels, targets), current)
    assert helm_request.scaled_set_values(keys, counts, current) == {"replicaCountVdu1": 3}
    # Without the current counts, every count given is set.
    assert helm_request.scaled_set_values(keys, {"VDU1": 3, "VDU2": 3}) == {"replicaCountVdu1": 3, "replicaCountVdu2": 3}


def test_scaling_a_vdu_without_replica_key_is_refused(instantiate, package_data):
    keys = {"VDU1": "replicaCountVdu1"}
    with pytest.raises(ValidationError) as caught:
        helm_request.scaled_set_values(keys, {"VDU2": 2}, {"VDU2": 1})
    assert caught.value.field == "aspectId" and "VDU2 has no replica value key" in caught.value.reason
    with pytest.raises(ValidationError) as caught:
        helm_request.scaled_set_values(keys, {"VDU2": 2}, {"VDU2": 1}, what="ScaleVnfToLevelRequest", where="instantiationLevelId")
    assert caught.value.field == "instantiationLevelId"
    # A VDU whose count stays needs no key.
    assert helm_request.scaled_set_values(keys, {"VDU1": 2, "VDU2": 1}, {"VDU1": 1, "VDU2": 1}) == {"replicaCountVdu1": 2}


def test_the_package_as_shipped_reads_with_no_manifest_from_the_charts_source(package_data):
    # Files/kubernetes/test-chart/ (Chart.yaml, values.yaml, Go templates) is the chart's source, not def files.
    assert package_data["kubernetes_def_files"] == []


def chart_tgz(*entries):
    """A gzipped tar of ``(name, kind, data)`` entries; kind: file, dir, symlink, hardlink."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, kind, data in entries:
            info = tarfile.TarInfo(name)
            if kind == "file":
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
                continue
            info.type = {"dir": tarfile.DIRTYPE, "symlink": tarfile.SYMTYPE, "hardlink": tarfile.LNKTYPE}[kind]
            info.linkname = data.decode() if data else ""
            archive.addfile(info)
    return buffer.getvalue()


GOOD_CHART = [("test-chart", "dir", b""), ("test-chart/Chart.yaml", "file", b"name: test-chart\n"), ("test-chart/templates/a.yaml", "file", b"x: 1\n")]


def test_a_chart_archive_as_helm_package_makes_it_passes():
    helm_request.check_chart_archive(chart_tgz(*GOOD_CHART), "Files/kubernetes/c.tgz")


@pytest.mark.parametrize("extra, reason", [
    (("test-chart/templates/passwd", "symlink", b"/etc/passwd"), "'test-chart/templates/passwd' is a link or special file"),
    (("test-chart/templates/b.yaml", "hardlink", b"test-chart/Chart.yaml"), "is a link or special file"),
    (("test-chart/../../evil.yaml", "file", b"x"), "points outside the chart"),
    (("/etc/evil.yaml", "file", b"x"), "points outside the chart"),
    (("other/evil.yaml", "file", b"x"), "outside the chart's folder 'test-chart'"),
])
def test_a_chart_archive_entry_that_is_a_link_or_outside_the_chart_is_refused_naming_it(extra, reason):
    with pytest.raises(ValidationError, match="additionalParams.helm_chart_path") as caught:
        helm_request.check_chart_archive(chart_tgz(*(GOOD_CHART + [extra])), "Files/kubernetes/c.tgz")
    assert reason in str(caught.value) and "Files/kubernetes/c.tgz" in str(caught.value)


@pytest.mark.parametrize("content, reason", [(b"not a tarball", "not a packaged Helm chart"), (chart_tgz(), "empty archive")])
def test_what_is_not_a_chart_archive_is_refused(content, reason):
    with pytest.raises(ValidationError, match=reason):
        helm_request.check_chart_archive(content, "Files/kubernetes/c.tgz")


def test_a_chart_bigger_unpacked_than_helm_reads_is_refused(monkeypatch):
    monkeypatch.setattr(helm_request, "MAX_CHART_BYTES", 10)
    with pytest.raises(ValidationError, match="more than 0 MiB unpacked"):
        helm_request.check_chart_archive(chart_tgz(*GOOD_CHART), "Files/kubernetes/c.tgz")
