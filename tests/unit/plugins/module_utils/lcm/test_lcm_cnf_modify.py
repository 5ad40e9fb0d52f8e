# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vnf_modify's container update around the pure planner: def files, deployed manifests, diffs, record."""

from __future__ import annotations

import base64

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.args import MASK as SECRET_MASK
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.restart import plan_container_update
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.modify import (
    container_update,
    modify_diff,
    new_def_files,
    plan_modify,
    replaced_pods,
    target_manifests,
    with_content,
    with_deployed,
    with_deployed_replicas,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.instance_objects import deployed_manifests
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Progress

K = "Files/kubernetes/"


def record(file, obj, index=0):
    return {"file": file, "index": index, "object": obj}


def configmap(name, data):
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "namespace": "ns"}, "data": data}


def secret(name, string_data):
    return {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": name, "namespace": "ns"}, "stringData": string_data}


def deployment(name, image, replicas=1, port=80, config="cm"):
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name, "namespace": "ns"},
            "spec": {"replicas": replicas, "template": {"spec": {"containers": [
                {"name": "app", "image": image, "ports": [{"containerPort": port}], "envFrom": [{"configMapRef": {"name": config}}]}]}}}}


def test_new_def_files_keep_what_the_package_still_has_and_add_the_listed_ones():
    stored = [K + "configmap_1.yaml", K + "deployment.yaml", K + "secret_1.yaml"]
    package = {K + "configmap_2.yaml", K + "deployment.yaml", K + "secret_2.yaml"}
    assert new_def_files(stored, [K + "configmap_2.yaml", "./" + K + "secret_2.yaml"], package) == \
        [K + "deployment.yaml", K + "configmap_2.yaml", K + "secret_2.yaml"]
    assert new_def_files(stored, None, package) == [K + "deployment.yaml"]
    with pytest.raises(ValidationError) as caught:
        new_def_files(stored, [K + "configmap_2.yaml", K + "nope.yaml"], package)
    assert "metadata.configmap_secret_paths[1]" in caught.value.msg


def test_deployed_manifests_never_hold_secret_or_configmap_content():
    records = [record(K + "s.yaml", secret("s", {"password": "hunter2"})), record(K + "c.yaml", configmap("c", {"k": "v"})),
               record(K + "d.yaml", deployment("d", "nginx"))]
    kept = deployed_manifests(records)
    assert "hunter2" not in str(kept) and "'k'" not in str(kept)
    assert kept[0]["object"] == {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "namespace": "ns"}}
    assert kept[2] == records[2]


def test_replicas_follow_the_scale_level_not_the_package():
    deployed = [record(K + "d.yaml", deployment("d", "nginx", replicas=3))]
    new = with_deployed_replicas([record(K + "d.yaml", deployment("d", "cirros", replicas=1))], deployed)
    assert new[0]["object"]["spec"]["replicas"] == 3
    plan = plan_container_update(deployed, new)
    assert not [item for item in plan["not_applied"] if item["path"] == "spec.replicas"]


def test_target_is_the_old_workload_with_new_images_only():
    deployed = deployed_manifests([record(K + "c1.yaml", configmap("cm", {"k": "1"})), record(K + "d.yaml", deployment("d", "nginx", port=80))])
    new = [record(K + "c2.yaml", configmap("cm", {"k": "2"})), record(K + "d.yaml", deployment("d", "cirros", port=180))]
    live = [configmap("cm", {"k": "1"})]
    plan = plan_container_update(deployed, new, live)
    target = target_manifests(deployed, new, plan)
    workload = [item for item in target if item["object"]["kind"] == "Deployment"][0]["object"]
    container = workload["spec"]["template"]["spec"]["containers"][0]
    assert container["image"] == "cirros" and container["ports"] == [{"containerPort": 80}]  # the port change is not applied
    assert [item["file"] for item in target if item["object"]["kind"] == "ConfigMap"] == [K + "c2.yaml"]
    assert all("data" not in item["object"] for item in target if item["object"]["kind"] == "ConfigMap")


def test_with_content_keeps_the_live_metadata_and_folds_string_data():
    metadata = {"name": "s", "namespace": "ns", "resourceVersion": "7", "labels": {"a": "b"}}
    live = dict(secret("s", {}), data={"password": base64.b64encode(b"old").decode()}, metadata=metadata)
    live.pop("stringData")
    written = with_content(live, secret("s", {"password": "new"}))
    assert written["metadata"]["resourceVersion"] == "7" and written["metadata"]["labels"] == {"a": "b"}
    assert written["data"] == {"password": base64.b64encode(b"new").decode()} and "stringData" not in written


def update_of(deployed, new, live):
    plan = plan_container_update(deployed, new, live)
    return container_update(plan, [item["file"] for item in new], target_manifests(deployed, new, plan), new, live)


def test_diff_shows_configmap_data_and_masks_secret_values():
    deployed = deployed_manifests([record(K + "c.yaml", configmap("cm", {"k": "1"})), record(K + "s.yaml", secret("sec", {"p": "old-pass"}))])
    new = [record(K + "c.yaml", configmap("cm", {"k": "2"})), record(K + "s.yaml", secret("sec", {"p": "new-pass"}))]
    live = [configmap("cm", {"k": "1"}), dict(secret("sec", {}), data={"p": base64.b64encode(b"old-pass").decode()})]
    update = update_of(deployed, new, live)
    diff = modify_diff({"id": "x", "vnfdId": "a"}, {"id": "x", "vnfdId": "b"}, update)
    assert diff["before"]["vnfdId"] == "a" and diff["after"]["vnfdId"] == "b"
    assert diff["before"]["ConfigMap/cm"]["data"] == {"k": "1"} and diff["after"]["ConfigMap/cm"]["data"] == {"k": "2"}
    assert diff["after"]["Secret/sec"] == {"data": {"p": SECRET_MASK}}
    text = str(diff)
    assert "pass" not in text and base64.b64encode(b"new-pass").decode() not in text


def instance_with(deployed, files, resources=()):
    return {"id": "vnf-1", "vnfdId": "old", "instantiationState": "INSTANTIATED",
            "instantiatedVnfInfo": {"metadata": {"namespace": "ns", "lcm-kubernetes-def-files": files,
                                                 "vnflcm": {"deployed": deployed, "resources": list(resources)}}}}


def test_the_record_follows_the_update():
    deployed = deployed_manifests([record(K + "c1.yaml", configmap("cm", {"k": "1"})), record(K + "d.yaml", deployment("d", "nginx"))])
    new = [record(K + "c2.yaml", configmap("cm", {"k": "2"})), record(K + "n.yaml", configmap("cm-new", {"x": "1"})),
           record(K + "d.yaml", deployment("d", "cirros"))]
    instance = instance_with(deployed, [K + "c1.yaml", K + "d.yaml"], [{"apiVersion": "v1", "kind": "ConfigMap", "name": "cm", "namespace": "ns"}])
    update = update_of(deployed, new, [configmap("cm", {"k": "1"})])
    after = with_deployed(instance, update)
    assert after["instantiatedVnfInfo"]["metadata"]["lcm-kubernetes-def-files"] == [K + "c2.yaml", K + "n.yaml", K + "d.yaml"]
    assert [item["name"] for item in after["instantiatedVnfInfo"]["metadata"]["vnflcm"]["resources"]] == ["cm", "cm-new"]
    assert instance["instantiatedVnfInfo"]["metadata"]["lcm-kubernetes-def-files"] == [K + "c1.yaml", K + "d.yaml"]  # not changed in place


def test_replaced_pods_pairs_the_vnfcs_gone_with_the_new_ones_per_workload():
    def vnfc(uid, pod, workload="d", vdu="VDU1"):
        return {"id": uid, "vduId": vdu, "computeResource": {"resourceId": pod},
                "metadata": {"podUid": uid, "workloadKind": "Deployment", "workloadName": workload}}

    # A VNFC's id follows its pod: the replaced one is gone, its replacement a new VNFC.
    before = [vnfc("u1", "d-1"), vnfc("u2", "d-2"), vnfc("u5", "e-1", "e", "VDU2")]
    after = {"instantiatedVnfInfo": {"vnfcResourceInfo": [vnfc("u2", "d-2"), vnfc("u3", "d-3"), vnfc("u6", "e-2", "e", "VDU2")]}}
    assert replaced_pods(before, after) == [
        {"old_vnfc_id": "u1", "new_vnfc_id": "u3", "vdu_id": "VDU1", "workload": "Deployment/d", "old_pod": "d-1", "new_pod": "d-3"},
        {"old_vnfc_id": "u5", "new_vnfc_id": "u6", "vdu_id": "VDU2", "workload": "Deployment/e", "old_pod": "e-1", "new_pod": "e-2"}]


class NoApi:
    """A planner that needs no VIM must not touch it."""

    def __getattr__(self, name):
        raise AssertionError("unexpected API call: " + name)


class Names:
    """The record store as a rename sees it: ``names`` maps each instance name of the namespace to its instance id."""

    def __init__(self, names=None):
        self.names = names or {}
        self.claimed = []

    def find(self, instance_id=None, name=None):
        return ({"id": self.names[name], "vnfInstanceName": name}, [], "1") if name in self.names else None

    def check_name_free(self, instance):
        pass

    def claim_name(self, instance, op_occ_id):
        self.claimed.append((instance["vnfInstanceName"], op_occ_id))

    def scope(self):
        return "namespace ns"


def test_information_only_modification_needs_no_vim_and_is_idempotent():
    instance = {"id": "vnf-1", "vnfdId": "d1", "vnfInstanceName": "a", "metadata": {"x": {"y": 1}}, "instantiationState": "NOT_INSTANTIATED"}
    store = Names({"a": "vnf-1"})
    operation = plan_modify(NoApi(), store, (instance, [], "1"), {"vnfInstanceName": "b", "metadata": {"x": {"y": None, "z": 2}}})
    assert operation.changed and operation.plan["modifications"] == {"vnfInstanceName": "b", "metadata": {"x": {"z": 2}}}
    done = operation.execute(Progress(op_occ_id="occ-1"))
    # The new name is claimed before the record is written with it.
    assert store.claimed == [("b", "occ-1")]
    again = plan_modify(NoApi(), store, (done, [], "2"), {"vnfInstanceName": "b", "metadata": {"x": {"y": None, "z": 2}}})
    assert again.changed is False


def test_a_rename_to_the_name_of_another_instance_is_refused_before_any_write():
    instance = {"id": "vnf-1", "vnfdId": "d1", "vnfInstanceName": "a", "instantiationState": "NOT_INSTANTIATED"}
    store = Names({"a": "vnf-1", "b": "vnf-2"})
    with pytest.raises(ConflictError, match="Failed to rename a VNF instance to 'b' in namespace ns: VNF instance vnf-2 has that name"):
        plan_modify(NoApi(), store, (instance, [], "1"), {"vnfInstanceName": "b"})
    assert store.claimed == []


def test_a_new_vnfd_needs_its_package():
    instance = {"id": "vnf-1", "vnfdId": "d1", "instantiationState": "INSTANTIATED"}
    with pytest.raises(ValidationError) as caught:
        plan_modify(NoApi(), None, (instance, [], "1"), {"vnfdId": "d2"})
    assert "vnfdId" in caught.value.msg and "package" in caught.value.msg


class FakePackage:
    def __init__(self, vnfd_id):
        self.vnfd_id = vnfd_id

    def to_dict(self):
        return {"vnfd": {"descriptor_id": self.vnfd_id, "provider": "p", "product_name": "n", "software_version": "1", "descriptor_version": "1"},
                "kubernetes_def_files": []}


def test_an_instance_without_deployed_manifests_is_refused_before_any_call():
    instance = {"id": "vnf-1", "vnfdId": "d1", "instantiationState": "INSTANTIATED",
                "instantiatedVnfInfo": {"metadata": {"namespace": "ns", "vnflcm": {}}}}
    with pytest.raises(ConflictError) as caught:
        plan_modify(NoApi(), None, (instance, [], "1"), {"vnfdId": "d2"}, FakePackage("d2"))
    assert "deployed manifests" in caught.value.msg
