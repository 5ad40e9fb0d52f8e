# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The VNF instance record Secret: build, read back, and every way stored data can be damaged."""

from __future__ import annotations

import base64
import gzip
import json
import os

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError, VnfLcmError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import record as rec
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.namespaces import with_namespace
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ownership import label_selector, name_hash, resource_selector
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.op_occ import new_op_occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import new_vnf_instance

INSTANCE_ID = "4a4e9b0e-6ab4-4fd5-aeb0-ab1a0b9e4e4c"


@pytest.fixture
def instance(multi_ns_package):
    vnfd = multi_ns_package.to_dict()["vnfd"]
    return with_namespace(new_vnf_instance(vnfd, name="web tier #1", instance_id=INSTANCE_ID), "tenant-a")


def op_occs(count):
    return [new_op_occ(INSTANCE_ID, "SCALE", {}, "2026-01-01T00:{0:02d}:00Z".format(minute), op_occ_id="occ-{0}".format(minute))
            for minute in range(count)]


def decoded(secret):
    return json.loads(gzip.decompress(base64.b64decode(secret["data"]["record"])))


def test_secret_shape(instance):
    secret = rec.record_secret(instance, op_occs(2), "tenant-a")
    assert (secret["apiVersion"], secret["kind"], secret["type"]) == ("v1", "Secret", "Opaque")
    assert secret["metadata"]["name"] == "vnflcm-" + INSTANCE_ID
    assert secret["metadata"]["namespace"] == "tenant-a"
    assert secret["metadata"]["labels"] == {
        "app.kubernetes.io/managed-by": "nfv.vnflcm",
        "vnflcm.nfv/instance-id": INSTANCE_ID,
        "vnflcm.nfv/instance-name-hash": name_hash("web tier #1"),
        "vnflcm.nfv/record": "vnf-instance",
    }
    assert "resourceVersion" not in secret["metadata"]
    assert list(secret["data"]) == ["record"]
    assert decoded(secret)["vnfInstance"] == instance


def test_selectors_find_the_record_and_only_it(instance):
    labels = rec.record_secret(instance, [], "tenant-a")["metadata"]["labels"]

    def matches(selector):
        for term in selector.split(","):
            if term.startswith("!"):
                if term[1:] in labels:
                    return False
            elif labels.get(term.split("=", 1)[0]) != term.split("=", 1)[1]:
                return False
        return True
    assert matches(rec.records_selector())
    assert matches(rec.record_selector_by_name("web tier #1"))
    assert not matches(rec.record_selector_by_name("web tier #2"))
    assert matches(label_selector(INSTANCE_ID))
    assert not matches(resource_selector(INSTANCE_ID))  # deleting the VNF's objects leaves the record alone


def test_roundtrip_keeps_the_newest_op_occs_newest_first(instance):
    secret = rec.record_secret(instance, op_occs(25), "tenant-a", resource_version=4711)
    assert secret["metadata"]["resourceVersion"] == "4711"
    got_instance, got_occs, version = rec.read_record(secret)
    assert got_instance == instance
    assert [occ["id"] for occ in got_occs] == ["occ-{0}".format(minute) for minute in range(24, 4, -1)]
    assert version == "4711"
    _instance, fewer, _version = rec.read_record(rec.record_secret(instance, op_occs(5), "tenant-a", max_op_occs=2))
    assert [occ["id"] for occ in fewer] == ["occ-4", "occ-3"]


def test_same_record_same_bytes(instance):
    first = rec.record_secret(instance, op_occs(3), "tenant-a")
    assert rec.record_secret(instance, list(reversed(op_occs(3))), "tenant-a") == first


def test_oversized_records_drop_old_op_occs(instance, monkeypatch):
    monkeypatch.setattr(rec, "MAX_DATA_BYTES", 4000)
    padded = op_occs(10)
    for occ in padded:
        occ["operationParams"] = {"noise": base64.b64encode(os.urandom(600)).decode("ascii")}  # does not compress away
    _instance, kept, _version = rec.read_record(rec.record_secret(instance, padded, "tenant-a"))
    assert 1 <= len(kept) < 10
    assert kept[0]["id"] == "occ-9"
    monkeypatch.setattr(rec, "MAX_DATA_BYTES", 100)
    with pytest.raises(VnfLcmError) as err:
        rec.record_secret(instance, padded, "tenant-a")
    assert "do not fit in a Secret" in err.value.msg


def test_namespace_must_match_the_instance(instance):
    with pytest.raises(ValidationError) as err:
        rec.record_secret(instance, [], "tenant-b")
    assert "lives in namespace 'tenant-a', not 'tenant-b'" in err.value.msg
    with pytest.raises(ValidationError):
        rec.record_secret(instance, [], "Not A Namespace")


@pytest.mark.parametrize("instance_id", ["Upper-Case", "under_score", "x" * 64])
def test_ids_that_cannot_name_a_secret(instance_id):
    with pytest.raises(ValidationError) as err:
        rec.record_name(instance_id)
    assert err.value.field == "id"


def damaged(data, **metadata):
    meta = {"name": "vnflcm-x", "namespace": "tenant-a", "resourceVersion": "1"}
    meta.update(metadata)
    secret = {"metadata": meta}
    if data is not None:
        secret["data"] = {"record": data}
    return secret


def b64(raw):
    return base64.b64encode(raw).decode("ascii")


@pytest.mark.parametrize("secret, text", [
    (damaged(None), "data.record is missing"),
    (damaged("%%%not base64"), "data.record is not base64"),
    (damaged(b64(b"plain, not gzip")), "data.record is not gzip-compressed UTF-8"),
    (damaged(b64(gzip.compress(b"\xff\xfe"))), "data.record is not gzip-compressed UTF-8"),
    (damaged(b64(gzip.compress(b"{broken"))), "data.record is not JSON"),
    (damaged(b64(gzip.compress(b"[1, 2]"))), "data.record must be a JSON object"),
    (damaged(b64(gzip.compress(b'{"vnfInstance": {}, "opOccs": []}'))), "must hold a vnfInstance with an id"),
    (damaged(b64(gzip.compress(b'{"vnfInstance": {"id": "a"}, "opOccs": {}}'))), "a list of opOccs"),
    (damaged(b64(gzip.compress(b'{"vnfInstance": {"id": "a"}, "opOccs": []}')), labels={"vnflcm.nfv/instance-id": "b"}),
     "labelled for instance b but holds instance a"),
    (damaged(b64(gzip.compress(b'{"vnfInstance": {"id": "a"}, "opOccs": []}')), annotations={"vnflcm.nfv/record-format": "9"}),
     "record format '9' is not supported"),
])
def test_damaged_records_are_clear_errors(secret, text):
    with pytest.raises(VnfLcmError) as err:
        rec.read_record(secret)
    assert err.value.msg.startswith("Failed to read VNF instance record tenant-a/vnflcm-x: ")
    assert text in err.value.msg


def test_read_record_without_resource_version():
    secret = damaged(b64(gzip.compress(b'{"vnfInstance": {"id": "a"}, "opOccs": []}')))
    del secret["metadata"]["resourceVersion"]
    assert rec.read_record(secret) == ({"id": "a"}, [], None)


def test_the_record_and_the_rollback_data_keep_no_vim_credential(instance):
    vim = {"vimType": "kubernetes", "interfaceInfo": {"endpoint": "https://127.0.0.1:6443"},
           "accessInfo": {"bearer_token": "tok-secret", "password": "pw-secret", "username": "admin"}}
    with_vim = dict(instance, vimConnectionInfo={"vim1": vim})
    occ = new_op_occ(INSTANCE_ID, "INSTANTIATE", {"vimConnectionInfo": {"vim1": vim}}, "2026-01-01T00:00:00Z", op_occ_id="occ-0")
    secret = rec.record_secret(with_vim, [occ], "tenant-a")
    rollback = rec.rollback_secret(INSTANCE_ID, "tenant-a", "occ-0", {"record": with_vim})
    for kept in (decoded(secret), decoded(rollback)):
        assert "tok-secret" not in json.dumps(kept) and "pw-secret" not in json.dumps(kept)
    assert decoded(secret)["vnfInstance"]["vimConnectionInfo"]["vim1"]["accessInfo"] == {"username": "admin"}
