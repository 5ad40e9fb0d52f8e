# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""VDU workloads, replica counts from the VNFD, and vnfcResourceInfo from pods by ownerReferences."""

from __future__ import annotations

import copy

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import vnfc
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import sizing


@pytest.fixture(scope="module")
def flavour(multi_ns_package):
    return multi_ns_package.to_dict()["vnfd"]["flavours"]["simple"]


# --- VDUs and their workloads ----------------------------------------------------------------------

def test_vdus_map_to_workloads_by_name(flavour, multi_ns_manifests):
    manifests = multi_ns_manifests("namespace01.yaml", "deployment_has_namespace.yaml", "deployment_no_namespace.yaml")
    mapping = vnfc.vdu_workloads(flavour, manifests)
    assert list(mapping) == ["VDU1", "VDU2"]
    assert (mapping["VDU1"]["file"], mapping["VDU1"]["object"]["kind"]) == ("Files/kubernetes/deployment_has_namespace.yaml", "Deployment")
    assert mapping["VDU2"]["object"]["metadata"]["name"] == "vdu2"


def test_a_vdu_may_be_absent_from_the_def_files(flavour, multi_ns_manifests):
    assert list(vnfc.vdu_workloads(flavour, multi_ns_manifests("deployment_has_namespace.yaml"))) == ["VDU1"]


def test_a_vdu_with_two_workloads_is_an_error(flavour, k8s_record):
    manifests = [k8s_record("Deployment", "vdu1", api_version="apps/v1", file="a.yaml"),
                 k8s_record("Service", "vdu1", file="a.yaml", index=1),  # not a workload kind: no match
                 k8s_record("Pod", "vdu1", file="b.yaml")]
    with pytest.raises(ValidationError) as err:
        vnfc.vdu_workloads(flavour, manifests)
    assert "VDU VDU1 (name vdu1) matches more than one workload: Deployment vdu1 (a.yaml), Pod vdu1 (b.yaml)" in err.value.msg


# --- replica counts ----------------------------------------------------------------------------------

def test_initial_replicas_from_instantiation_levels(flavour):
    assert sizing.initial_replicas(flavour, "VDU1") == 1  # default level instantiation_level_1
    assert sizing.initial_replicas(flavour, "VDU1", "instantiation_level_2") == 3
    with pytest.raises(ValidationError) as err:
        sizing.initial_replicas(flavour, "VDU1", "instantiation_level_9")
    assert err.value.field == "instantiationLevelId"


def test_initial_replicas_falls_back_to_initial_delta_then_none():
    flavour = {"vdus": {"VDU1": {}, "VDU2": {}}, "instantiation_levels": {}, "vdu_initial_delta": {"VDU1": 2}}
    assert sizing.initial_replicas(flavour, "VDU1") == 2
    assert sizing.initial_replicas(flavour, "VDU2") is None  # the manifest's replicas stand


def test_initial_scale_status(flavour):
    assert sizing.initial_scale_status(flavour) == [{"aspectId": "vdu1_aspect", "scaleLevel": 0}, {"aspectId": "vdu2_aspect", "scaleLevel": 0}]
    assert [s["scaleLevel"] for s in sizing.initial_scale_status(flavour, "instantiation_level_2")] == [2, 2]


def test_replicas_for_each_level(flavour):
    assert [sizing.replicas_for(flavour, "vdu1_aspect", level) for level in (0, 1, 2)] == [{"VDU1": 1}, {"VDU1": 2}, {"VDU1": 3}]
    # The top level agrees with the instantiation level that reaches it.
    assert sizing.replicas_for(flavour, "vdu2_aspect", 2)["VDU2"] == sizing.initial_replicas(flavour, "VDU2", "instantiation_level_2")


@pytest.mark.parametrize("level", [-1, 3, "1", True])
def test_replicas_for_out_of_range(flavour, level):
    with pytest.raises(ValidationError) as err:
        sizing.replicas_for(flavour, "vdu1_aspect", level)
    assert err.value.field == "numberOfSteps"
    assert "outside 0..2" in err.value.msg


def test_replicas_for_unknown_aspect(flavour):
    with pytest.raises(ValidationError) as err:
        sizing.replicas_for(flavour, "nope", 1)
    assert err.value.field == "aspectId"
    assert "vdu1_aspect, vdu2_aspect" in err.value.msg


def scaling_flavour(step_deltas, deltas, max_instances=None, initial=1):
    profile = {} if max_instances is None else {"max_number_of_instances": max_instances}
    return {
        "vdus": {"VDU1": {"name": "vdu1", "vdu_profile": profile}},
        "vdu_initial_delta": {"VDU1": initial} if initial is not None else {},
        "scaling_aspects": {"a": {"max_scale_level": 5, "step_deltas": step_deltas, "vdus": {"VDU1": deltas}}},
    }


def test_non_uniform_step_deltas_repeat_the_last():
    flavour = scaling_flavour(["d1", "d2"], {"d1": 1, "d2": 3})
    assert [sizing.replicas_for(flavour, "a", level)["VDU1"] for level in range(4)] == [1, 2, 5, 8]


def test_replicas_beyond_the_vdu_maximum():
    with pytest.raises(ValidationError) as err:
        sizing.replicas_for(scaling_flavour(["d1"], {"d1": 2}, max_instances=4), "a", 2)
    assert err.value.field == "numberOfSteps"
    assert "needs 5 instances of VDU1, more than its maximum 4" in err.value.msg


def test_scale_base_without_initial_delta():
    flavour = scaling_flavour(["d1"], {"d1": 1}, initial=None)
    assert sizing.replicas_for(flavour, "a", 0) == {"VDU1": 1}
    flavour["vdus"]["VDU1"]["vdu_profile"]["min_number_of_instances"] = 2
    assert sizing.replicas_for(flavour, "a", 1) == {"VDU1": 3}


@pytest.mark.parametrize("step_deltas, deltas, text", [
    ([], {"d1": 1}, "has no step_deltas"),
    (["d1"], {"d2": 1}, "VDU VDU1 has no number_of_instances for delta d1 of scaling aspect a"),
])
def test_broken_deltas_are_package_errors(step_deltas, deltas, text):
    with pytest.raises(PackageError) as err:
        sizing.replicas_for(scaling_flavour(step_deltas, deltas), "a", 1)
    assert text in err.value.msg


def test_scale_level_after():
    assert sizing.scale_level_after(1, {"type": "SCALE_OUT"}) == 2
    assert sizing.scale_level_after(2, {"type": "SCALE_IN", "numberOfSteps": 2}) == 0


# --- pods of VDUs by ownerReferences -------------------------------------------------------------------

def owned(kind, name, uid, owner=None, created="2026-01-01T00:00:00Z", **metadata):
    refs = [] if owner is None else [{"apiVersion": "apps/v1", "kind": owner[0], "name": owner[1], "uid": owner[2], "controller": True}]
    meta = {"name": name, "uid": uid, "namespace": "tenant-a", "creationTimestamp": created, "ownerReferences": refs}
    meta.update(metadata)
    return {"kind": kind, "metadata": meta}


@pytest.fixture
def cluster(k8s_record):
    """VDU records of five kinds, and the live objects and pods they produced (plus pods that are not theirs)."""
    records = {
        "VDU1": k8s_record("Deployment", "vdu1", api_version="apps/v1"),
        "VDU2": k8s_record("StatefulSet", "vdu2", api_version="apps/v1"),
        "VDU3": k8s_record("DaemonSet", "vdu3", api_version="apps/v1"),
        "VDU4": k8s_record("ReplicaSet", "vdu4", api_version="apps/v1"),
        "VDU5": k8s_record("Pod", "vdu5"),
    }
    workloads = [
        owned("Deployment", "vdu1", "dep-1"),
        owned("ReplicaSet", "vdu1-5d8f", "rs-1", ("Deployment", "vdu1", "dep-1")),
        owned("ReplicaSet", "vdu1-old", "rs-0", ("Deployment", "vdu1", "dep-1")),
        owned("Deployment", "vdu1-canary", "dep-2"),
        owned("ReplicaSet", "vdu1-canary-77", "rs-2", ("Deployment", "vdu1-canary", "dep-2")),
        owned("StatefulSet", "vdu2", "sts-1"),
        owned("DaemonSet", "vdu3", "ds-1"),
        owned("ReplicaSet", "vdu4", "rs-4"),
    ]
    pods = [
        owned("Pod", "vdu1-5d8f-b", "pod-1b", ("ReplicaSet", "vdu1-5d8f", "rs-1"), created="2026-01-01T00:00:02Z"),
        owned("Pod", "vdu1-5d8f-a", "pod-1a", ("ReplicaSet", "vdu1-5d8f", "rs-1"), created="2026-01-01T00:00:01Z"),
        owned("Pod", "vdu1-old-x", "pod-1x", ("ReplicaSet", "vdu1-old", "rs-0"), deletionTimestamp="2026-01-01T00:00:03Z"),
        owned("Pod", "vdu1-canary-77-z", "pod-c", ("ReplicaSet", "vdu1-canary-77", "rs-2")),  # named like vdu1, owned by another
        owned("Pod", "vdu2-0", "pod-2", ("StatefulSet", "vdu2", "sts-1")),
        owned("Pod", "vdu3-q", "pod-3", ("DaemonSet", "vdu3", "ds-1")),
        owned("Pod", "vdu4-r", "pod-4", ("ReplicaSet", "vdu4", "rs-4")),
        owned("Pod", "vdu5", "pod-5"),
        owned("Pod", "vdu1", "pod-x"),  # a bare pod named like the Deployment VDU is not it
    ]
    for pod in pods:
        pod.pop("kind")  # list responses carry no kind per item
    return records, pods, workloads


def test_pods_follow_owner_chains(cluster):
    records, pods, workloads = cluster
    matched = [(vdu_id, pod["metadata"]["name"]) for vdu_id, pod in vnfc.vdu_of_pods(records, pods, workloads)]
    assert matched == [("VDU1", "vdu1-5d8f-a"), ("VDU1", "vdu1-5d8f-b"), ("VDU2", "vdu2-0"), ("VDU3", "vdu3-q"), ("VDU4", "vdu4-r"),
                       ("VDU5", "vdu5")]


def test_an_unlisted_owner_ends_the_chain(cluster):
    records, pods, workloads = cluster
    without_replicasets = [w for w in workloads if w["kind"] != "ReplicaSet"]
    assert "VDU1" not in [vdu_id for vdu_id, _pod in vnfc.vdu_of_pods(records, pods, without_replicasets)]


def test_owner_cycles_end(k8s_record):
    records = {"VDU1": k8s_record("Deployment", "vdu1", api_version="apps/v1")}
    workloads = [owned("ReplicaSet", "a", "uid-a", ("ReplicaSet", "b", "uid-b")), owned("ReplicaSet", "b", "uid-b", ("ReplicaSet", "a", "uid-a"))]
    pods = [owned("Pod", "p", "uid-p", ("ReplicaSet", "a", "uid-a"))]
    assert not vnfc.vdu_of_pods(records, pods, workloads)


def test_only_controller_references_count(k8s_record):
    records = {"VDU1": k8s_record("Deployment", "vdu1", api_version="apps/v1")}
    pod = owned("Pod", "p", "uid-p")
    pod["metadata"]["ownerReferences"] = [{"kind": "Deployment", "name": "vdu1", "uid": "dep-1"}]  # no controller: true
    assert not vnfc.vdu_of_pods(records, [pod], [owned("Deployment", "vdu1", "dep-1")])


def test_vnfc_resource_info(cluster):
    records, pods, workloads = cluster
    info = vnfc.vnfc_resource_info(records, pods, workloads, vim_connection_id="vim1")
    assert [(entry["id"], entry["vduId"], entry["computeResource"]["resourceId"]) for entry in info] == [
        ("pod-1a", "VDU1", "vdu1-5d8f-a"), ("pod-1b", "VDU1", "vdu1-5d8f-b"), ("pod-2", "VDU2", "vdu2-0"),
        ("pod-3", "VDU3", "vdu3-q"), ("pod-4", "VDU4", "vdu4-r"), ("pod-5", "VDU5", "vdu5")]
    assert info[0] == {
        "id": "pod-1a",
        "vduId": "VDU1",
        "computeResource": {"resourceId": "vdu1-5d8f-a", "vimLevelResourceType": "Deployment", "vimConnectionId": "vim1"},
        "metadata": {"namespace": "tenant-a", "podUid": "pod-1a", "workloadKind": "Deployment", "workloadName": "vdu1"},
    }
    assert vnfc.vnfc_resource_info(records, list(reversed(pods)), workloads, vim_connection_id="vim1") == info  # stable across reads


def test_ids_are_kept_from_the_previous_record(cluster):
    records, pods, workloads = cluster
    previous = [
        {"id": "kept-1a", "vduId": "VDU1", "computeResource": {"resourceId": "vdu1-5d8f-a"}, "metadata": {"podUid": "pod-1a"}},
        {"id": "gone", "vduId": "VDU1", "computeResource": {"resourceId": "vdu1-5d8f-gone"}, "metadata": {"podUid": "pod-gone"}},
        {"id": "by-name", "vduId": "VDU5", "computeResource": {"resourceId": "vdu5"}},  # older record without the pod UID
    ]
    info = vnfc.vnfc_resource_info(records, pods, workloads, previous=previous)
    ids = {entry["computeResource"]["resourceId"]: entry["id"] for entry in info}
    assert (ids["vdu1-5d8f-a"], ids["vdu1-5d8f-b"], ids["vdu5"]) == ("kept-1a", "pod-1b", "by-name")
    assert "gone" not in ids.values()


def test_a_replaced_pod_gets_a_new_id(cluster):
    records, pods, workloads = cluster
    first = vnfc.vnfc_resource_info(records, pods, workloads)
    healed = copy.deepcopy(pods)
    healed[7]["metadata"]["uid"] = "pod-5-new"  # the bare pod vdu5, deleted and created again
    second = vnfc.vnfc_resource_info(records, healed, workloads)
    assert [e["id"] for e in second if e["vduId"] == "VDU5"] == ["pod-5-new"]
    assert [e["id"] for e in second if e["vduId"] != "VDU5"] == [e["id"] for e in first if e["vduId"] != "VDU5"]


def test_vnfc_info_keeps_configured_properties(cluster):
    records, pods, workloads = cluster
    resources = vnfc.vnfc_resource_info(records, pods, workloads)
    previous = [{"id": "VDU1-pod-1a", "vduId": "VDU1", "vnfcResourceInfoId": "pod-1a", "vnfcConfigurableProperties": {"k": "v"}}]
    info = vnfc.vnfc_info(resources, previous)
    assert info[0] == {"id": "VDU1-pod-1a", "vduId": "VDU1", "vnfcResourceInfoId": "pod-1a", "vnfcState": "STARTED",
                       "vnfcConfigurableProperties": {"k": "v"}}
    assert "vnfcConfigurableProperties" not in info[1]
    assert len(info) == len(resources)


# --- replicas on the workload manifests ----------------------------------------------------------------

@pytest.mark.parametrize("kind, count, replicas", [
    ("Deployment", 3, 3), ("ReplicaSet", 2, 2), ("StatefulSet", 0, 0), ("Deployment", None, "unchanged"),
    ("DaemonSet", 4, "unchanged"), ("Pod", 1, "unchanged"),
])
def test_with_replicas(kind, count, replicas, k8s_record):
    record = k8s_record(kind, "vdu1", api_version="apps/v1", spec={"replicas": "unchanged"})
    result = vnfc.with_replicas(record, count)
    assert result["object"]["spec"]["replicas"] == replicas
    assert record["object"]["spec"]["replicas"] == "unchanged"


def test_a_bare_pod_cannot_have_more_instances(k8s_record):
    with pytest.raises(ValidationError) as err:
        vnfc.with_replicas(k8s_record("Pod", "vdu1", file="pod.yaml"), 2)
    assert "Pod vdu1 (pod.yaml) is a single pod, but the VNFD asks for 2 instances" in err.value.msg


def test_initial_replicas_applied_to_the_fixture(flavour, multi_ns_manifests):
    records = vnfc.vdu_workloads(flavour, multi_ns_manifests("deployment_has_namespace.yaml"))
    scaled = vnfc.with_replicas(records["VDU1"], sizing.initial_replicas(flavour, "VDU1", "instantiation_level_2"))
    assert scaled["object"]["spec"]["replicas"] == 3


def test_check_scalable(flavour, k8s_record):
    vnfc.check_scalable({"VDU1": k8s_record("Deployment", "vdu1", api_version="apps/v1")}, "vdu1_aspect", flavour)
    vnfc.check_scalable({}, "vdu1_aspect", flavour)  # VDU not deployed: nothing to scale, nothing wrong
    for kind in ("Pod", "DaemonSet"):
        with pytest.raises(ValidationError) as err:
            vnfc.check_scalable({"VDU1": k8s_record(kind, "vdu1")}, "vdu1_aspect", flavour)
        assert err.value.field == "aspectId"


# --- Tacker's vdu_reses: each VDU's workload as deployed ---------------------------------------------

def test_vdu_objects_are_the_deployed_workloads_at_their_counts(k8s_record):
    deployment = k8s_record("Deployment", "vdu1", api_version="apps/v1", spec={"replicas": 1, "template": {"spec": {}}})
    deployment["object"]["status"] = {"replicas": 1}  # a def file exported from a cluster: not the VDU's object
    deployment["object"]["metadata"].update(managedFields=[{"manager": "x"}], resourceVersion="9", labels={"tacker_vnf_instance_id": "vnf-1"})
    daemonset = k8s_record("DaemonSet", "vdu2", api_version="apps/v1", spec={"template": {"spec": {}}})
    pod = k8s_record("Pod", "vdu3", spec={"containers": []})
    secret = k8s_record("Secret", "vdu4", data={"password": "c2VjcmV0"})
    vdus = {"VDU1": deployment, "VDU2": daemonset, "VDU3": pod, "VDU4": secret, "VDU5": k8s_record("Deployment", "gone", api_version="apps/v1")}
    before = copy.deepcopy(deployment)
    objects = vnfc.vdu_objects(vdus, [deployment, daemonset, pod, secret], {"VDU1": 3, "VDU2": 2, "VDU3": 1})
    assert list(objects) == ["VDU1", "VDU2", "VDU3"]  # a Secret is never a VDU's object; a workload not deployed has none
    assert objects["VDU1"] == {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "vdu1", "labels": {"tacker_vnf_instance_id": "vnf-1"}},
                               "spec": {"replicas": 3, "template": {"spec": {}}}}
    assert objects["VDU2"]["spec"] == {"template": {"spec": {}}}  # one pod per node: no replicas
    assert objects["VDU3"] == pod["object"]
    assert deployment == before
