# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Terminate of a CNF (lcm/cnf/terminate.py): the claims of its StatefulSets (k8s/claims.py), a deletion that makes no
progress (k8s/waiter.py), and what fail of a stuck terminate leaves, with an in-memory API."""

from __future__ import annotations

import copy

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.deadline import Deadline
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, OperationTimeout
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import claims
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ownership import ownership_labels
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.record import rollback_secret
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.store import SecretRecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.waiter import DeletionStalled, left_of, pod_grace, wait_deleted
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import delete as identifier
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import engine
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import delete as cnf_delete, terminate
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import Waits
from ansible_collections.nfv.vnflcm.tests.unit.fake_clock import FakeClock
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Progress

NS = "tenant-a"
VNF = "5c0d0e1f-0000-4000-8000-00000000feed"


def statefulset(name="vdu5", replicas=1, templates=("www",), policy=None, start=None, labels=None):
    spec = {"replicas": replicas, "selector": {"matchLabels": {"app": name}}, "serviceName": name,
            "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}},
            "volumeClaimTemplates": [{"metadata": {"name": template}, "spec": {"accessModes": ["ReadWriteOnce"]}} for template in templates]}
    if replicas is None:
        del spec["replicas"]
    if policy:
        spec["persistentVolumeClaimRetentionPolicy"] = {"whenDeleted": policy, "whenScaled": "Retain"}
    if start is not None:
        spec["ordinals"] = {"start": start}
    return {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": name, "namespace": NS, "labels": labels or ownership_labels(VNF)},
            "spec": spec}


def claim(name, app="vdu5", owner=None):
    """A claim as the StatefulSet controller makes it: the selector's labels, and the StatefulSet as owner under whenDeleted: Delete."""
    meta = {"name": name, "namespace": NS, "labels": {"app": app}, "finalizers": ["kubernetes.io/pvc-protection"]}
    if owner:
        meta["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": owner}]
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": meta, "spec": {}}


# ---------------------------------------------------------------------------------------------
# Which claims a StatefulSet made, and what terminate does with them.

def test_claim_names_are_template_statefulset_ordinal_for_each_replica():
    assert claims.claim_names(statefulset(replicas=2, templates=("www", "logs"))) == ["www-vdu5-0", "www-vdu5-1", "logs-vdu5-0", "logs-vdu5-1"]
    assert claims.claim_names(statefulset(replicas=None)) == ["www-vdu5-0"]
    assert claims.claim_names(statefulset(replicas=2, start=5)) == ["www-vdu5-5", "www-vdu5-6"]
    assert claims.claim_names(statefulset(replicas=0)) == []
    assert claims.claim_names(statefulset(templates=())) == []


def test_claims_of_a_statefulset_are_its_names_with_its_selector_labels_and_those_a_scale_in_left():
    live = [claim("www-vdu5-0"), claim("www-vdu5-3"), claim("www-vdu5-x-0"), claim("www-vdu5-1", app="other"), claim("data-vdu5-0"),
            claim("www-vdu6-0", app="vdu6")]
    assert [item["metadata"]["name"] for item in claims.claims_of(statefulset(replicas=1), live)] == ["www-vdu5-0", "www-vdu5-3"]


@pytest.mark.parametrize("policy, action", [(None, claims.DELETE), ("Retain", claims.KEEP), ("Delete", claims.DELETED_BY_KUBERNETES)])
def test_the_statefulsets_own_retention_policy_says_what_happens_to_its_claims(policy, action):
    assert claims.claim_action(statefulset(policy=policy)) == action


def test_a_claim_reference_still_recognises_its_claim_once_the_statefulset_is_gone():
    reference = claims.claim_ref(claim("www-vdu5-0"), statefulset())
    assert reference["name"] == "www-vdu5-0" and reference["kind"] == "PersistentVolumeClaim" and reference["namespace"] == NS
    assert claims.is_claim_named_by(claim("www-vdu5-0"), reference)
    assert not claims.is_claim_named_by(claim("www-vdu5-0", app="someone-else"), reference)
    assert not claims.is_claim_named_by(claim("www-vdu5-1"), reference)
    assert not claims.is_claim_named_by(claim("www-vdu5-0"), {"name": "www-vdu5-0"})


# ---------------------------------------------------------------------------------------------
# The plan and the deletes, on an in-memory API.

class FakeKube:
    """Objects by (kind, namespace, name). A delete removes an object at once unless it has finalizers (then it is marked
    deleted and stays); deleting a StatefulSet lets the garbage collector take the claims it owns."""

    def __init__(self, *objects):
        self.objects, self.version, self.deletes, self.lists, self.missed_deletes = {}, 0, [], 0, []
        for obj in objects:
            self.put(copy.deepcopy(obj))

    def put(self, obj):
        self.version += 1
        obj["metadata"]["resourceVersion"] = str(self.version)
        self.objects[(obj["kind"], obj["metadata"].get("namespace"), obj["metadata"]["name"])] = obj

    def get(self, api_version, kind, name, namespace=None):
        self.gets = getattr(self, "gets", 0) + 1
        return copy.deepcopy(self.objects.get((kind, namespace, name)))

    def list(self, api_version, kind, namespace=None, label_selector=None):
        return self.listing(api_version, kind, namespace, label_selector)[0]

    def listing(self, api_version, kind, namespace=None, label_selector=None):
        self.lists += 1
        return [copy.deepcopy(obj) for (k, ns, _name), obj in self.objects.items() if k == kind and ns == namespace], str(self.version)

    def delete(self, api_version, kind, name, namespace=None, propagation="Background", grace_seconds=None, resource_version=None):
        obj = self.objects.get((kind, namespace, name))
        if obj is None:
            self.missed_deletes.append("{0}/{1}".format(kind, name))
            return False
        self.deletes.append("{0}/{1}".format(kind, name))
        if kind == "StatefulSet":
            for key, other in list(self.objects.items()):
                if any(ref["name"] == name for ref in other["metadata"].get("ownerReferences") or []):
                    del self.objects[key]
        if obj["metadata"].get("finalizers"):
            obj["metadata"]["deletionTimestamp"] = "2026-11-26T12:00:00Z"
            self.put(obj)
        else:
            del self.objects[(kind, namespace, name)]
        return True

    def release(self, kind, name, namespace=NS):
        """What the holder of an object's finalizers does: clear them (the object goes if it is being deleted)."""
        obj = self.objects[(kind, namespace, name)]
        obj["metadata"]["finalizers"] = []
        if obj["metadata"].get("deletionTimestamp"):
            del self.objects[(kind, namespace, name)]


def ref(obj):
    return {"apiVersion": obj["apiVersion"], "kind": obj["kind"], "name": obj["metadata"]["name"], "namespace": obj["metadata"].get("namespace")}


def config_map(name, finalizers=()):
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "namespace": NS, "labels": ownership_labels(VNF),
                                                                  "finalizers": list(finalizers)}}


def instance(*objects, state="INSTANTIATED"):
    """An instantiated record listing ``objects``, deployed as they are."""
    private = {"resources": [ref(obj) for obj in objects], "deployed": [{"file": "f.yaml", "index": 0, "object": obj} for obj in objects]}
    return {"id": VNF, "vnfInstanceName": "cnf", "instantiationState": state, "metadata": {"namespace": NS},
            "instantiatedVnfInfo": {"flavourId": "simple", "vnfcResourceInfo": [{"id": "vnfc-1", "vduId": "VDU5", "computeResource": {}}],
                                    "metadata": {"namespace": NS, "vnflcm": private}}}


def planned(kube, record, request=None, waits=None):
    return terminate.plan_terminate(kube, SecretRecordStore(kube, NS), (record, [], 1), request or {"terminationType": "FORCEFUL"}, waits or Waits(sleep=0))


def test_terminate_deletes_the_claims_of_a_statefulset_without_a_policy_after_it_and_lists_them_in_the_plan():
    sts = statefulset(replicas=2)
    kube = FakeKube(sts, claim("www-vdu5-0"), claim("www-vdu5-1"), claim("www-other-0", app="other"))
    operation = planned(kube, instance(sts))
    # After the StatefulSet, highest ordinal first (as a StatefulSet scales in): the delete order is the create order reversed.
    assert [(item["kind"], item["name"]) for item in operation.plan["delete"]] == [
        ("StatefulSet", "vdu5"), ("PersistentVolumeClaim", "www-vdu5-1"), ("PersistentVolumeClaim", "www-vdu5-0")]
    assert [(item["name"], item["action"]) for item in operation.plan["volume_claims"]] == [("www-vdu5-0", "delete"), ("www-vdu5-1", "delete")]
    assert kube.deletes == []
    kube.objects[("PersistentVolumeClaim", NS, "www-vdu5-0")]["metadata"]["finalizers"] = []
    kube.objects[("PersistentVolumeClaim", NS, "www-vdu5-1")]["metadata"]["finalizers"] = []
    result = operation.execute(Progress())
    assert kube.deletes == ["StatefulSet/vdu5", "PersistentVolumeClaim/www-vdu5-1", "PersistentVolumeClaim/www-vdu5-0"]
    assert result["instantiationState"] == "NOT_INSTANTIATED" and "instantiatedVnfInfo" not in result
    assert ("PersistentVolumeClaim", NS, "www-other-0") in kube.objects


def test_terminate_removes_the_rollback_data_a_killed_run_left_after_its_end_record():
    kept = rollback_secret(VNF, NS, "occ-of-a-completed-update", {"secrets": {"s1": {"password": "c2VjcmV0"}}})
    sts = statefulset(templates=())
    kube = FakeKube(sts, kept)
    operation = planned(kube, instance(sts))
    assert operation.plan["rollback_data"].startswith("deleted: Secret " + kept["metadata"]["name"])
    operation.execute(Progress())
    assert kube.deletes == ["StatefulSet/vdu5", "Secret/" + kept["metadata"]["name"]] and not kube.objects


def test_a_terminate_with_no_rollback_data_left_sends_no_delete_for_it():
    sts = statefulset(templates=())
    kube = FakeKube(sts)
    operation = planned(kube, instance(sts))
    assert "rollback_data" not in operation.plan
    operation.execute(Progress())
    assert kube.deletes == ["StatefulSet/vdu5"] and kube.missed_deletes == []


def test_a_statefulset_that_retains_its_claims_keeps_them_and_the_plan_says_why():
    sts = statefulset(policy="Retain")
    kube = FakeKube(sts, claim("www-vdu5-0"))
    operation = planned(kube, instance(sts))
    assert [item["kind"] for item in operation.plan["delete"]] == ["StatefulSet"]
    assert operation.plan["volume_claims"][0]["action"] == "keep" and "whenDeleted: Retain" in operation.plan["volume_claims"][0]["why"]
    operation.execute(Progress())
    assert kube.deletes == ["StatefulSet/vdu5"] and ("PersistentVolumeClaim", NS, "www-vdu5-0") in kube.objects


def test_the_policy_is_the_def_files_as_the_api_server_says_retain_for_a_statefulset_that_says_nothing():
    declared = statefulset()
    kube = FakeKube(statefulset(policy="Retain"), claim("www-vdu5-0"))
    operation = planned(kube, instance(declared))
    assert [(item["name"], item["action"]) for item in operation.plan["volume_claims"]] == [("www-vdu5-0", "delete")]


def test_claims_kubernetes_deletes_are_waited_for_not_deleted():
    sts = statefulset(policy="Delete")
    kube = FakeKube(sts, claim("www-vdu5-0", owner="vdu5"))
    operation = planned(kube, instance(sts))
    assert [item["kind"] for item in operation.plan["delete"]] == ["StatefulSet"]
    assert operation.plan["volume_claims"][0]["action"] == "deleted by Kubernetes"
    operation.execute(Progress())
    assert kube.deletes == ["StatefulSet/vdu5"] and ("PersistentVolumeClaim", NS, "www-vdu5-0") not in kube.objects


def test_a_retry_after_the_statefulset_went_still_finds_its_claims_from_the_record():
    sts = statefulset()
    kube = FakeKube(claim("www-vdu5-0"))
    operation = planned(kube, instance(sts))
    assert [(item["kind"], item["name"]) for item in operation.plan["delete"]] == [("StatefulSet", "vdu5"), ("PersistentVolumeClaim", "www-vdu5-0")]


def test_without_statefulset_templates_no_claim_is_listed():
    cm = config_map("cm")
    kube = FakeKube(cm)
    operation = planned(kube, instance(cm))
    assert "volume_claims" not in operation.plan and kube.lists == 0


# ---------------------------------------------------------------------------------------------
# A deletion that makes no progress is named within the no-progress window, not at the timeout.


def watching(kube, clock):
    """``kube`` with a watch that sees no change: it ends at its timeout."""
    def watch(*args, timeout_seconds=60, **kwargs):
        clock.sleep(timeout_seconds)
        yield from ()

    kube.watch = watch
    return kube


def test_an_object_held_by_a_finalizer_is_named_with_it_once_nothing_progressed_for_the_window():
    clock = FakeClock()
    kube = FakeKube(config_map("held", finalizers=["example.com/hold"]), config_map("free"))
    kube.delete("v1", "ConfigMap", "held", NS)
    kube.delete("v1", "ConfigMap", "free", NS)
    objects = [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "namespace": NS}} for name in ("held", "free")]
    with pytest.raises(DeletionStalled) as stalled:
        wait_deleted(watching(kube, clock), objects, Deadline(600, 2, clock=clock, sleeper=clock.sleep), no_progress_seconds=30, clock=clock)
    assert 30 <= clock.now < 40
    assert stalled.value.left == [{"apiVersion": "v1", "kind": "ConfigMap", "name": "held", "namespace": NS, "deleting": True,
                                   "finalizers": ["example.com/hold"]}]
    assert stalled.value.msg == ("Failed to delete ConfigMap held: no progress for 30 s: ConfigMap held is being deleted, held by "
                                 "finalizers example.com/hold")


def test_a_deletion_that_keeps_changing_is_progress_and_waits_until_the_timeout_which_names_what_is_left():
    clock = FakeClock()
    kube = FakeKube(config_map("busy", finalizers=["example.com/slow"]))
    kube.delete("v1", "ConfigMap", "busy", NS)
    getter = kube.get

    def changing(*args):
        kube.put(kube.objects[("ConfigMap", NS, "busy")])  # its holder keeps writing it
        return getter(*args)

    kube.get = changing
    objects = [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "busy", "namespace": NS}}]
    with pytest.raises(OperationTimeout) as timed_out:
        wait_deleted(watching(kube, clock), objects, Deadline(100, 2, clock=clock, sleeper=clock.sleep), no_progress_seconds=30, clock=clock)
    assert "still there: ConfigMap busy is being deleted, held by finalizers example.com/slow" in timed_out.value.msg


def test_objects_without_finalizers_are_never_called_held():
    clock = FakeClock()
    kube = FakeKube(config_map("undeleted"))
    objects = [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "undeleted", "namespace": NS}}]
    with pytest.raises(OperationTimeout, match="ConfigMap undeleted is not being deleted"):
        wait_deleted(watching(kube, clock), objects, Deadline(60, 2, clock=clock, sleeper=clock.sleep), no_progress_seconds=10, clock=clock)


def test_a_namespace_is_held_by_content_with_finalizers_not_by_its_own_kubernetes_finalizer():
    namespace = {"apiVersion": "v1", "kind": "Namespace", "spec": {"finalizers": ["kubernetes"]},
                 "metadata": {"name": NS, "deletionTimestamp": "2026-11-26T12:00:00Z"}, "status": {"phase": "Terminating", "conditions": []}}
    assert left_of(namespace)["finalizers"] == []
    namespace["status"]["conditions"] = [{"type": "NamespaceFinalizersRemaining", "status": "True",
                                          "message": "Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances"}]
    assert left_of(namespace)["finalizers"] == ["content: Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances"]


def test_the_window_grows_by_the_grace_the_deleted_pods_may_take():
    assert pod_grace(statefulset()) == 30
    sts = statefulset()
    sts["spec"]["template"]["spec"]["terminationGracePeriodSeconds"] = 120
    assert pod_grace(sts, grace_seconds=0) == 120
    assert pod_grace({"kind": "Pod", "spec": {"terminationGracePeriodSeconds": 60}}, grace_seconds=0) == 0
    assert pod_grace({"kind": "Pod", "spec": {"terminationGracePeriodSeconds": 60}}) == 60
    assert pod_grace(config_map("cm")) == 0


def test_a_stalled_terminate_says_what_to_do_next(monkeypatch):
    cm = config_map("held", finalizers=["example.com/hold"])
    kube = FakeKube(cm)
    operation = planned(kube, instance(cm))
    stalled = DeletionStalled([{"kind": "ConfigMap", "name": "held", "namespace": NS, "deleting": True, "finalizers": ["example.com/hold"]}], 30)

    def stalls(*args, **kwargs):
        raise stalled

    monkeypatch.setattr(terminate, "delete_owned", stalls)
    with pytest.raises(DeletionStalled) as raised:
        operation.execute(Progress())
    assert "ConfigMap held" in raised.value.msg and "example.com/hold" in raised.value.msg
    assert "action: fail" in raised.value.msg and "NOT_INSTANTIATED" in raised.value.msg and "vnf_delete" in raised.value.msg


# ---------------------------------------------------------------------------------------------
# fail of a stuck terminate: NOT_INSTANTIATED, the record listing what is still there; then delete reports it.

def test_fail_of_a_stuck_terminate_records_not_instantiated_listing_what_is_still_there():
    held, gone, sts = config_map("held", finalizers=["example.com/hold"]), config_map("gone"), statefulset()
    kube = FakeKube(held, claim("www-vdu5-0"))
    kube.delete("v1", "ConfigMap", "held", NS)
    record = terminate.record_after_fail(kube, instance(held, gone, sts))
    assert record["instantiationState"] == "NOT_INSTANTIATED" and "vimConnectionInfo" not in record
    info = record["instantiatedVnfInfo"]
    assert "vnfcResourceInfo" not in info and "scaleStatus" not in info
    assert [(item["kind"], item["name"]) for item in info["metadata"]["vnflcm"]["resources"]] == [
        ("ConfigMap", "held"), ("PersistentVolumeClaim", "www-vdu5-0")]


def test_fail_with_nothing_left_records_a_plain_not_instantiated_instance():
    kube = FakeKube()
    record = terminate.record_after_fail(kube, instance(config_map("gone")))
    assert record["instantiationState"] == "NOT_INSTANTIATED" and "instantiatedVnfInfo" not in record


class MemoryStore:
    def __init__(self):
        self.saved = []

    def save(self, instance, op_occs, version):
        self.saved.append((instance, op_occs))
        return version + 1

    def selector(self):
        return ""

    def record_url(self, instance_id):
        return None


def test_the_engine_records_what_on_fail_returns_with_the_failed_op_occ():
    failed = {"id": "occ-1", "vnfInstanceId": VNF, "operation": "TERMINATE", "operationState": "FAILED_TEMP",
              "startTime": "2026-11-26T12:00:00Z", "stateEnteredTime": "2026-11-26T12:00:00Z"}
    store = MemoryStore()
    left = {"id": VNF, "instantiationState": "NOT_INSTANTIATED"}
    failed["error"] = {"status": 500, "detail": "TERMINATE failed."}
    result = engine.act_on_op_occ(store, ({"id": VNF, "instantiationState": "INSTANTIATED"}, [failed], 1), None, "fail", None,
                                  on_fail=lambda op_occ: (left, ["VDU1: 2 replicas, the record said 3"]))
    assert result["vnf_lcm_op_occ"]["operationState"] == "FAILED" and store.saved[-1][0] == left
    assert result["vnf_lcm_op_occ"]["error"]["detail"] == ("TERMINATE failed. Failed; the record was read again from the VIM: "
                                                           "VDU1: 2 replicas, the record said 3.")
    kept = engine.act_on_op_occ(MemoryStore(), ({"id": VNF}, [failed], 1), None, "fail", None, on_fail=lambda op_occ: (None, ()))
    assert kept["vnf_instance"] == {"id": VNF} and kept["vnf_lcm_op_occ"]["error"]["detail"] == "TERMINATE failed."


def delete_with(kube, record):
    """vnf_delete's checks on a record, with the Kubernetes leftovers reader."""
    class Store:
        def kept_for(self, inst):
            return [{"kind": "Secret", "name": "vnflcm-" + VNF}]

    return identifier.plan_delete(Store(), (record, [], 1), cnf_delete.left_objects(kube)(record))


def test_delete_goes_on_past_objects_held_by_finalizers_naming_them_and_refuses_while_terminate_can_delete_some():
    held = config_map("held", finalizers=["example.com/hold"])
    kube = FakeKube(held, config_map("plain"))
    kube.delete("v1", "ConfigMap", "held", NS)
    record = terminate.record_after_fail(kube, instance(held, config_map("plain"), config_map("gone")))
    with pytest.raises(ConflictError, match="ConfigMap/plain.*terminate it first"):
        delete_with(kube, record)
    del kube.objects[("ConfigMap", NS, "plain")]
    plan = delete_with(kube, record)
    assert plan["left_behind"] == ["ConfigMap/held (being deleted, held by finalizers example.com/hold)"]
    assert any("left on the VIM" in line for line in plan["lines"])
    kube.release("ConfigMap", "held")
    assert "left_behind" not in delete_with(kube, record)


def test_the_objects_of_a_kind_are_listed_once_for_their_ownership_not_read_one_by_one():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.instance_objects import delete_owned

    owned = [config_map("cm{0}".format(index)) for index in range(20)]
    stranger = dict(config_map("cm-other"), metadata=dict(config_map("cm-other")["metadata"], labels={}))
    kube = FakeKube(*(owned + [stranger]))
    resources = [ref(obj) for obj in owned + [stranger]] + [ref(config_map("cm-gone"))]
    deleted = delete_owned(kube, VNF, resources, None, Waits(enabled=False), {})
    # One LIST for the ConfigMaps; what it does not show is not read again (a stranger's object is not deleted).
    assert kube.lists == 1 and getattr(kube, "gets", 0) == 0
    assert [item["name"] for item in deleted] == ["cm{0}".format(index) for index in range(20)]
    assert ("ConfigMap", NS, "cm-other") in kube.objects
