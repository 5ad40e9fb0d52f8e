# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The record of a VNF instance, kept as one Secret in the VNF's namespace.

The Secret ``vnflcm-<instance id>`` holds ``{"vnfInstance": ..., "opOccs": [newest first]}`` as
gzip-compressed JSON under ``data.record``. Callers read and write it; writes pass the
``resourceVersion`` they read, so of two concurrent operations only one can win. The same input
always gives the same bytes, so an unchanged record means an unchanged Secret.
"""

from __future__ import annotations

import base64
import binascii
import copy
import gzip
import json
import re
import zlib

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError, VnfLcmError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.runner import this_runner
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.namespaces import check_namespace_name, instance_namespace
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ownership import (
    INSTANCE_ID_LABEL,
    INSTANCE_NAME_HASH_LABEL,
    MANAGED_BY,
    MANAGED_BY_LABEL,
    RECORD_LABEL,
    RECORD_LABEL_VALUE,
    format_selector,
    name_hash,
    ownership_labels,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import without_vim_secrets

RECORD_NAME_PREFIX = "vnflcm-"
ROLLBACK_NAME_SUFFIX = "-rollback"
ROLLBACK_LABEL_VALUE = "rollback"
# The Secret that holds a name for one instance (store.claim_name): created before the record, deleted with it.
NAME_CLAIM_PREFIX = RECORD_NAME_PREFIX + "name-"
NAME_CLAIM_LABEL_VALUE = "name-claim"
RECORD_KEY = "record"
FORMAT_ANNOTATION = "vnflcm.nfv/record-format"
FORMAT_VERSION = "1"
DEFAULT_MAX_OP_OCCS = 20
# A Secret holds at most 1 MiB; leave room for metadata.
MAX_DATA_BYTES = 1024 * 1024 - 16 * 1024
_NAME_PART = re.compile(r"^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")


def record_name(instance_id):
    """The record Secret's name for an instance id; ids that cannot be part of an object name are refused, not mangled."""
    ownership_labels(instance_id)  # the id is also a label value
    if not _NAME_PART.match(instance_id):
        raise ValidationError("VNF instance", "id", "{0!r} cannot name a Kubernetes object (lower-case letters, digits, '-' and '.')".format(instance_id))
    return RECORD_NAME_PREFIX + instance_id


def record_labels(instance):
    labels = ownership_labels(instance["id"])
    labels[INSTANCE_NAME_HASH_LABEL] = name_hash(instance.get("vnfInstanceName") or "")
    labels[RECORD_LABEL] = RECORD_LABEL_VALUE
    return labels


def records_selector():
    """All VNF instance records (for listing instances in a namespace)."""
    return format_selector({MANAGED_BY_LABEL: MANAGED_BY, RECORD_LABEL: RECORD_LABEL_VALUE})


def record_selector_by_name(instance_name):
    """The records of instances called ``instance_name`` (names are not unique: expect zero or more)."""
    return format_selector({MANAGED_BY_LABEL: MANAGED_BY, RECORD_LABEL: RECORD_LABEL_VALUE, INSTANCE_NAME_HASH_LABEL: name_hash(instance_name)})


def newest_op_occs(op_occs, limit=DEFAULT_MAX_OP_OCCS):
    """The ``limit`` most recently started op occs, newest first (ties keep their given order)."""
    ordered = sorted(op_occs or [], key=lambda occ: occ.get("startTime") or "", reverse=True)
    return [copy.deepcopy(occ) for occ in ordered[:limit]]


def encode_record(instance, op_occs):
    """The record's data: readable by whoever may read Secrets in the namespace, so never with a VIM's credential."""
    return encode_document({"vnfInstance": without_vim_secrets(instance), "opOccs": without_vim_secrets(op_occs)})


def encode_document(document):
    """base64 of the gzip of canonical JSON; gzip's mtime is fixed so equal documents give equal bytes."""
    text = json.dumps(document, sort_keys=True, separators=(",", ":"))
    return base64.b64encode(gzip.compress(text.encode("utf-8"), mtime=0)).decode("ascii")


def record_secret(instance, op_occs, namespace, resource_version=None, max_op_occs=DEFAULT_MAX_OP_OCCS):
    """The record Secret manifest for ``instance`` and its newest op occs, in ``namespace``.

    Oldest op occs are dropped further if the record would not fit in a Secret; the newest one is always kept.
    """
    check_namespace_name(namespace, "VNF instance record", "namespace")
    recorded = instance_namespace(instance)
    if recorded is not None and recorded != namespace:
        raise ValidationError("VNF instance record", "namespace", "instance {0} lives in namespace {1!r}, not {2!r}".format(
            instance.get("id"), recorded, namespace))
    kept = newest_op_occs(op_occs, max_op_occs)
    data = encode_record(instance, kept)
    while len(data) > MAX_DATA_BYTES and len(kept) > 1:
        kept = kept[:-1]
        data = encode_record(instance, kept)
    if len(data) > MAX_DATA_BYTES:
        raise VnfLcmError("store", "VNF instance record {0}".format(instance.get("id")), "{0} bytes do not fit in a Secret".format(len(data)))
    metadata = {
        "name": record_name(instance["id"]),
        "namespace": namespace,
        "labels": record_labels(instance),
        "annotations": {FORMAT_ANNOTATION: FORMAT_VERSION},
    }
    if resource_version is not None:
        metadata["resourceVersion"] = str(resource_version)
    return {"apiVersion": "v1", "kind": "Secret", "type": "Opaque", "metadata": metadata, "data": {RECORD_KEY: data}}


def read_record(secret):
    """The record (common/record_store.py's Found; its version the resourceVersion) of a record Secret, as the API returns it."""
    metadata = (secret or {}).get("metadata") or {}
    what = "VNF instance record {0}/{1}".format(metadata.get("namespace"), metadata.get("name"))
    version = (metadata.get("annotations") or {}).get(FORMAT_ANNOTATION, FORMAT_VERSION)
    if version != FORMAT_VERSION:
        raise VnfLcmError("read", what, "record format {0!r} is not supported (expected {1!r})".format(version, FORMAT_VERSION))
    document = decode_record(((secret or {}).get("data") or {}).get(RECORD_KEY), what)
    instance, op_occs = document.get("vnfInstance"), document.get("opOccs")
    if not isinstance(instance, dict) or not instance.get("id") or not isinstance(op_occs, list):
        raise VnfLcmError("read", what, "data.{0} must hold a vnfInstance with an id and a list of opOccs".format(RECORD_KEY))
    labelled = (metadata.get("labels") or {}).get(INSTANCE_ID_LABEL)
    if labelled is not None and labelled != instance["id"]:
        raise VnfLcmError("read", what, "it is labelled for instance {0} but holds instance {1}".format(labelled, instance["id"]))
    return Found(instance, op_occs, metadata.get("resourceVersion"))


def decode_record(data, what):
    """The JSON document in ``data.record``; every way it can be damaged is a clear error."""
    if not isinstance(data, str) or not data:
        raise VnfLcmError("read", what, "data.{0} is missing".format(RECORD_KEY))
    try:
        compressed = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise VnfLcmError("read", what, "data.{0} is not base64: {1}".format(RECORD_KEY, exc)) from None
    try:
        text = gzip.decompress(compressed).decode("utf-8")
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as exc:
        raise VnfLcmError("read", what, "data.{0} is not gzip-compressed UTF-8: {1}".format(RECORD_KEY, exc)) from None
    try:
        document = json.loads(text)
    except ValueError as exc:
        raise VnfLcmError("read", what, "data.{0} is not JSON: {1}".format(RECORD_KEY, exc)) from None
    if not isinstance(document, dict):
        raise VnfLcmError("read", what, "data.{0} must be a JSON object".format(RECORD_KEY))
    return document


# ---------------------------------------------------------------------------------------------
# Rollback data: what an operation replaced (ConfigMap/Secret content included), kept next to the
# record while its op occ may still be rolled back, and never part of any result.

def rollback_name(instance_id):
    return record_name(instance_id) + ROLLBACK_NAME_SUFFIX


def rollback_secret(instance_id, namespace, op_occ_id, document):
    """The Secret holding the rollback ``document`` of op occ ``op_occ_id``."""
    labels = ownership_labels(instance_id)
    labels[RECORD_LABEL] = ROLLBACK_LABEL_VALUE
    data = encode_document({"opOccId": op_occ_id, "rollback": without_vim_secrets(document)})
    if len(data) > MAX_DATA_BYTES:
        raise VnfLcmError("store", "rollback data of VNF instance {0}".format(instance_id), "{0} bytes do not fit in a Secret".format(len(data)))
    return {"apiVersion": "v1", "kind": "Secret", "type": "Opaque", "data": {RECORD_KEY: data},
            "metadata": {"name": rollback_name(instance_id), "namespace": namespace, "labels": labels,
                         "annotations": {FORMAT_ANNOTATION: FORMAT_VERSION}}}


def read_rollback(secret, op_occ_id):
    """The rollback document of op occ ``op_occ_id`` from its Secret; None if the Secret belongs to another op occ."""
    metadata = (secret or {}).get("metadata") or {}
    document = decode_record(((secret or {}).get("data") or {}).get(RECORD_KEY),
                             "rollback data {0}/{1}".format(metadata.get("namespace"), metadata.get("name")))
    return document.get("rollback") if document.get("opOccId") == op_occ_id else None


# ---------------------------------------------------------------------------------------------
# Name claims: one (namespace, vnfInstanceName), one instance id. A Secret's name is unique in its namespace, so of
# two creates of one claim the API server refuses the second.

def name_claim_name(instance_name):
    return NAME_CLAIM_PREFIX + name_hash(instance_name)


def name_claim_secret(instance, namespace, op_occ_id, claimed_at):
    """The claim of ``instance``'s name, made by op occ ``op_occ_id`` at ``claimed_at`` (ISO 8601)."""
    name = instance["vnfInstanceName"]
    labels = ownership_labels(instance["id"])
    labels[INSTANCE_NAME_HASH_LABEL] = name_hash(name)
    labels[RECORD_LABEL] = NAME_CLAIM_LABEL_VALUE
    # The runner: a later run that finds no record behind the claim and its runner gone takes it over without waiting.
    claim = {"vnfInstanceId": instance["id"], "vnfInstanceName": name, "vnfLcmOpOccId": op_occ_id, "claimedAt": claimed_at,
             "runner": this_runner()}
    return {"apiVersion": "v1", "kind": "Secret", "type": "Opaque", "data": {RECORD_KEY: encode_document(claim)},
            "metadata": {"name": name_claim_name(name), "namespace": namespace, "labels": labels,
                         "annotations": {FORMAT_ANNOTATION: FORMAT_VERSION}}}


def read_name_claim(secret):
    """``{"vnfInstanceId", "vnfInstanceName", "vnfLcmOpOccId", "claimedAt", "runner"}`` of a claim Secret."""
    metadata = (secret or {}).get("metadata") or {}
    return decode_record(((secret or {}).get("data") or {}).get(RECORD_KEY), "name claim {0}/{1}".format(metadata.get("namespace"), metadata.get("name")))
