# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One (namespace, vnfInstanceName), one instance: the name claim the record store makes before a record's first write."""

from __future__ import annotations

import copy
import datetime
import subprocess
import sys

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.record import RECORD_KEY, encode_document, name_claim_name, name_claim_secret, read_name_claim
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.store import CLAIM_GRACE_SECONDS, SecretRecordStore

NS = "tenant-a"
NOW = datetime.datetime(2026, 11, 26, 12, 0, 0, tzinfo=datetime.timezone.utc)


class Secrets:
    """The Secrets of one namespace as the API server keeps them: a create of an existing name and a replace at an old
    resourceVersion are conflicts."""

    def __init__(self):
        self.items, self.writes, self.version = {}, [], 0

    def _stored(self, obj):
        self.version += 1
        stored = copy.deepcopy(obj)
        stored["metadata"]["resourceVersion"] = str(self.version)
        self.items[obj["metadata"]["name"]] = stored
        return copy.deepcopy(stored)

    def create(self, obj, namespace=None, dry_run=False):
        if obj["metadata"]["name"] in self.items:
            raise ConflictError("create", "Secret " + obj["metadata"]["name"], "already exists (HTTP 409)")
        self.writes.append(("create", obj["metadata"]["name"]))
        return self._stored(obj)

    def replace(self, obj):
        live = self.items.get(obj["metadata"]["name"])
        if live is None or live["metadata"]["resourceVersion"] != obj["metadata"].get("resourceVersion"):
            raise ConflictError("replace", "Secret " + obj["metadata"]["name"], "the object has been modified (HTTP 409)")
        self.writes.append(("replace", obj["metadata"]["name"]))
        return self._stored(obj)

    def get(self, api_version, kind, name, namespace=None):
        return copy.deepcopy(self.items.get(name))

    def list(self, api_version, kind, namespace=None, label_selector=None):
        wanted = [term.partition("=") for term in label_selector.split(",")]
        return [copy.deepcopy(item) for item in self.items.values()
                if all(key in (item["metadata"].get("labels") or {}) and (not equals or item["metadata"]["labels"][key] == value)
                       for key, equals, value in wanted)]


def instance(instance_id, name="web"):
    return {"id": instance_id, "vnfInstanceName": name, "instantiationState": "NOT_INSTANTIATED", "metadata": {"namespace": NS}}


def occ(occ_id):
    return [{"id": occ_id, "operation": "INSTANTIATE", "operationState": "STARTING"}]


def test_of_two_runs_creating_one_name_the_second_writes_nothing_and_is_told_who_creates_it():
    api = Secrets()
    store = SecretRecordStore(api, NS)
    store.save(instance("id-1"), occ("occ-1"), None)
    assert api.writes == [("create", name_claim_name("web")), ("create", "vnflcm-id-1")]
    api.writes = []
    with pytest.raises(ConflictError) as refused:
        store.save(instance("id-2"), occ("occ-2"), None)
    assert "instance 'web' is being created by run occ-1 (VNF instance id-1" in str(refused.value)
    assert api.writes == [] and "vnflcm-id-2" not in api.items
    # Another name is another claim.
    store.save(instance("id-3", "db"), occ("occ-3"), None)
    assert store.find(name="web")[0]["id"] == "id-1" and store.find(name="db")[0]["id"] == "id-3"


def test_the_claim_of_a_run_killed_before_its_record_is_its_own_retry_and_anothers_after_the_grace():
    api = Secrets()
    store = SecretRecordStore(api, NS)
    api.create(name_claim_secret(instance("id-1"), NS, "occ-1", NOW.strftime("%Y-%m-%dT%H:%M:%SZ")))
    # The same instance again (a retry): its claim is taken as it is.
    store.claim_name(instance("id-1"), "occ-1", now=NOW)
    # Another instance while the claim is fresh: refused; once it is older than the grace, taken over.
    with pytest.raises(ConflictError, match="is being created by run occ-1"):
        store.claim_name(instance("id-2"), "occ-2", now=NOW + datetime.timedelta(seconds=CLAIM_GRACE_SECONDS - 1))
    store.claim_name(instance("id-2"), "occ-2", now=NOW + datetime.timedelta(seconds=CLAIM_GRACE_SECONDS + 1))
    assert read_name_claim(api.items[name_claim_name("web")])["vnfInstanceId"] == "id-2"


def test_the_claim_of_a_run_killed_before_its_record_is_taken_over_at_once_when_its_runner_is_gone_from_this_machine():
    api = Secrets()
    store = SecretRecordStore(api, NS)
    claim = name_claim_secret(instance("id-1"), NS, "occ-1", NOW.strftime("%Y-%m-%dT%H:%M:%SZ"))
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    gone = dict(read_name_claim(claim)["runner"], pid=child.pid)
    api.create(dict(claim, data={RECORD_KEY: encode_document(dict(read_name_claim(claim), runner=gone))}))
    store.claim_name(instance("id-2"), "occ-2", now=NOW + datetime.timedelta(seconds=1))
    assert read_name_claim(api.items[name_claim_name("web")])["vnfInstanceId"] == "id-2"


def test_the_claim_of_an_instance_renamed_since_is_taken_over_and_deleted_with_its_own_instance():
    api = Secrets()
    store = SecretRecordStore(api, NS)
    store.save(instance("id-1"), occ("occ-1"), None)
    found = store.find("id-1")
    store.save(dict(found[0], vnfInstanceName="renamed"), found[1], found[2])
    store.save(instance("id-2"), occ("occ-2"), None)
    assert read_name_claim(api.items[name_claim_name("web")])["vnfInstanceId"] == "id-2"
    # The claim is kept for the instance like its record: deleting the identifier deletes it, the record last.
    assert store.kept_for(instance("id-2")) == [{"kind": "Secret", "name": name_claim_name("web")}, {"kind": "Secret", "name": "vnflcm-id-2"}]
