# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""VnfInstance records as Secrets in the VNF's namespace (see record.py for the format)."""

from __future__ import annotations

import datetime

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.name_claim import claim_time, left_claim, may_take_over
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.record import (
    name_claim_name,
    name_claim_secret,
    read_name_claim,
    read_record,
    read_rollback,
    rollback_name,
    rollback_secret,
    record_name,
    record_secret,
    record_selector_by_name,
    records_selector,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.namespaces import instance_namespace
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ownership import RECORD_LABEL, label_selector


class SecretRecordStore(RecordStore):
    """Records of one namespace. Writes carry resourceVersion: of two concurrent operations one gets a conflict."""

    def __init__(self, api, namespace):
        self.api = api
        self.namespace = namespace
        # {claim Secret name: resourceVersion} of the claims left_claim showed: drop_left_claim deletes only those versions.
        self.left_versions = {}

    def record_url(self, instance_id):
        """The API URL of the record Secret (``self`` of the instance in its ``_links``)."""
        return self.api.url("/api/v1/namespaces/{0}/secrets/{1}".format(self.namespace, record_name(instance_id)))

    def selector(self):
        return {"namespace": self.namespace}

    def scope(self):
        return "namespace " + self.namespace

    def find(self, instance_id=None, name=None):
        """``(instance, op_occs, version)`` by id or by vnfInstanceName, or None; two instances of one name is an error."""
        if instance_id:
            secret = self.api.get("v1", "Secret", record_name(instance_id), self.namespace)
            return read_record(secret) if secret else None
        found = [read_record(secret) for secret in self.api.list("v1", "Secret", self.namespace, record_selector_by_name(name))]
        found = [item for item in found if item[0].get("vnfInstanceName") == name]
        if len(found) > 1:
            raise ConflictError("find", "VNF instance {0!r} in namespace {1}".format(name, self.namespace),
                                "{0} instances have that name ({1}); give vnf_instance_id".format(len(found), ", ".join(item[0]["id"] for item in found)))
        return found[0] if found else None

    def list(self):
        return [read_record(secret) for secret in self.api.list("v1", "Secret", self.namespace, records_selector())]

    def save(self, instance, op_occs, version):
        secret = record_secret(instance, op_occs, self.namespace, version)
        if version is None:
            self.claim_name(instance, (op_occs or [{}])[0].get("id"))
        written = self.api.create(secret) if version is None else self.api.replace(secret)
        return written["metadata"]["resourceVersion"]

    def claim_name(self, instance, op_occ_id, now=None):
        """Claim the instance's name in the namespace before its record is first written: of two runs that create an
        instance of one name at once, the API server lets one create the claim; the other is refused here, having
        written nothing. A claim whose holder never wrote its record (a run killed in between, for CLAIM_GRACE_SECONDS)
        or was renamed since is taken over, conditionally on its resourceVersion."""
        if not instance.get("vnfInstanceName"):
            return
        now = now or datetime.datetime.now(datetime.timezone.utc)
        claim = name_claim_secret(instance, self.namespace, op_occ_id, claim_time(now))
        try:
            self.api.create(claim)
            return
        except ConflictError:
            live = self.api.get("v1", "Secret", claim["metadata"]["name"], self.namespace)
        if live is None:
            # Released in between (its instance deleted).
            self.api.create(claim)
        elif self.refuse_if_held(instance, live, now):
            self.api.replace(dict(claim, metadata=dict(claim["metadata"], resourceVersion=live["metadata"]["resourceVersion"])))

    def check_name_free(self, instance, now=None):
        """Before a new instance is planned further (a read only): ConflictError, as :meth:`claim_name` would raise it,
        when another run holds the name."""
        if instance.get("vnfInstanceName"):
            live = self.api.get("v1", "Secret", name_claim_name(instance["vnfInstanceName"]), self.namespace)
            if live is not None:
                self.refuse_if_held(instance, live, now or datetime.datetime.now(datetime.timezone.utc))

    def refuse_if_held(self, instance, live, now):
        """ConflictError when the claim ``live`` holds the name for another instance that has it or is being created;
        True when the claim may be taken over, False when it is this instance's own (a retry)."""
        return may_take_over(instance, read_name_claim(live), self._holder_name, now, CLAIM_GRACE_SECONDS, self.scope())

    def left_claim(self, name, now=None):
        if not name:
            return None
        live = self.api.get("v1", "Secret", name_claim_name(name), self.namespace)
        held = read_name_claim(live) if live is not None else None
        if held is None or held.get("vnfInstanceName") != name or (held.get("vnfInstanceId") and self.find(held["vnfInstanceId"])):
            return None
        self.left_versions[live["metadata"]["name"]] = live["metadata"]["resourceVersion"]
        return left_claim(name, held, now or datetime.datetime.now(datetime.timezone.utc), CLAIM_GRACE_SECONDS,
                          {"kind": "Secret", "name": live["metadata"]["name"]})

    def drop_left_claim(self, shown):
        name = shown["heldBy"]["name"]
        self.api.delete("v1", "Secret", name, self.namespace, resource_version=self.left_versions[name])
        return [dict(shown["heldBy"])]

    def _holder_name(self, instance_id):
        holder = self.find(instance_id)
        return holder[0].get("vnfInstanceName") if holder else None

    def delete(self, instance, version):
        self.api.delete("v1", "Secret", record_name(instance["id"]), self.namespace)

    def keep_rollback(self, instance, op_occ_id, document, merge=None):
        """The way back is a Secret beside the record (k8s/record.py rollback_secret), written now."""
        keep_rollback(self.api, instance, op_occ_id, document, merge)
        return instance

    def kept_rollback(self, instance, op_occ_id=None):
        return kept_rollback(self.api, instance, op_occ_id)

    def drop_rollback(self, instance):
        drop_rollback(self.api, instance)
        return instance

    def kept_for(self, instance):
        """The instance's Secrets of this collection (record, rollback data), found by label, the record last."""
        selector = label_selector(instance["id"]) + "," + RECORD_LABEL
        names = sorted(secret["metadata"]["name"] for secret in self.api.list("v1", "Secret", self.namespace, selector))
        record = record_name(instance["id"])
        return [{"kind": "Secret", "name": name} for name in names if name != record] + [{"kind": "Secret", "name": record}]

    def delete_identifier(self, instance, version, timeout=None, kept=None):
        """The rollback data first, then the record at the version read (a conflict if an operation wrote it since)."""
        kept = kept if kept is not None else self.kept_for(instance)
        for item in kept[:-1]:
            self.api.delete("v1", "Secret", item["name"], self.namespace)
        self.api.delete("v1", "Secret", kept[-1]["name"], self.namespace, resource_version=version)
        return kept


# A claim with no record behind it after this long was left by a run killed between the two creates.
CLAIM_GRACE_SECONDS = 60


def kept_rollback(api, instance, op_occ_id):
    """What :func:`keep_rollback` kept for op occ ``op_occ_id``; None when it kept nothing (the operation wrote nothing)."""
    secret = api.get("v1", "Secret", rollback_name(instance["id"]), instance_namespace(instance))
    return read_rollback(secret, op_occ_id) if secret is not None else None


def keep_rollback(api, instance, op_occ_id, document, merge=None):
    """Keep ``document``, the way back of op occ ``op_occ_id``, next to the record before its first write.

    A retry finds what the first attempt kept: it stays as it is, or ``merge(earlier, document)`` adds to it.
    """
    namespace = instance_namespace(instance)
    existing = api.get("v1", "Secret", rollback_name(instance["id"]), namespace)
    earlier = read_rollback(existing, op_occ_id) if existing is not None else None
    if earlier is not None:
        document = merge(earlier, document) if merge else earlier
        if document == earlier:
            return
    secret = rollback_secret(instance["id"], namespace, op_occ_id, document)
    if existing is None:
        api.create(secret)
    else:
        api.replace(dict(secret, metadata=dict(secret["metadata"], resourceVersion=existing["metadata"]["resourceVersion"])))


def drop_rollback(api, instance):
    """The operation ended (completed, rolled back or failed for good): its way back goes."""
    api.delete("v1", "Secret", rollback_name(instance["id"]), instance_namespace(instance))
