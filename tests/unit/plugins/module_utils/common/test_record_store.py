# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The way back of an operation behind RecordStore: kept in the record by default (Heat), apart on Kubernetes."""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import PRIVATE, ROLLBACK_KEY, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.record import rollback_name
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.store import SecretRecordStore

INSTANCE = {"id": "i-1", "metadata": {"namespace": "ns"}, "instantiatedVnfInfo": {"metadata": {PRIVATE: {"flavour": {}}}}}


def test_by_default_the_record_keeps_the_way_back_for_its_next_checkpoint():
    store = RecordStore()
    kept = store.keep_rollback(INSTANCE, "o-1", {"previous": 1, "updated": ["VDU1-0"]})
    assert kept["instantiatedVnfInfo"]["metadata"][PRIVATE][ROLLBACK_KEY] == {"previous": 1, "updated": ["VDU1-0"]}
    assert ROLLBACK_KEY not in INSTANCE["instantiatedVnfInfo"]["metadata"][PRIVATE]
    assert store.kept_rollback(kept, "o-1")["previous"] == 1 and store.kept_rollback(INSTANCE) is None
    # A retry keeps the first attempt's, or merges.
    assert store.kept_rollback(store.keep_rollback(kept, "o-1", {"previous": 2}))["previous"] == 1
    merged = store.keep_rollback(kept, "o-1", {"previous": 2, "updated": []}, merge=lambda earlier, new: dict(new, updated=earlier["updated"]))
    assert store.kept_rollback(merged) == {"previous": 2, "updated": ["VDU1-0"]}
    assert store.drop_rollback(merged) == INSTANCE


class Secrets:
    def __init__(self):
        self.objects, self.calls = {}, []

    def get(self, api_version, kind, name, namespace):
        return self.objects.get((kind, name, namespace))

    def create(self, obj):
        self.calls.append("create")
        self.objects[(obj["kind"], obj["metadata"]["name"], obj["metadata"]["namespace"])] = dict(obj, metadata=dict(obj["metadata"], resourceVersion="1"))

    def replace(self, obj):
        self.calls.append("replace")
        self.objects[(obj["kind"], obj["metadata"]["name"], obj["metadata"]["namespace"])] = obj

    def delete(self, api_version, kind, name, namespace, **kwargs):
        self.calls.append("delete")
        self.objects.pop((kind, name, namespace), None)


def test_on_kubernetes_the_way_back_is_a_secret_beside_the_record_written_at_once():
    api = Secrets()
    store = SecretRecordStore(api, "ns")
    assert store.keep_rollback(INSTANCE, "o-1", {"config": []}) is INSTANCE
    assert ("Secret", rollback_name("i-1"), "ns") in api.objects and store.kept_rollback(INSTANCE, "o-1") == {"config": []}
    assert store.kept_rollback(INSTANCE, "o-2") is None
    assert store.drop_rollback(INSTANCE) is INSTANCE and api.objects == {} and api.calls == ["create", "delete"]
