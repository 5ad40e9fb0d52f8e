# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""VnfInstance records as Secrets in the VNF's namespace (see record.py for the format)."""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.record import (
    read_record,
    record_name,
    record_secret,
    record_selector_by_name,
    records_selector,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import RecordStore


class SecretRecordStore(RecordStore):
    """Records of one namespace. Writes carry resourceVersion: of two concurrent operations one gets a conflict."""

    def __init__(self, api, namespace):
        self.api = api
        self.namespace = namespace

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
        written = self.api.create(secret) if version is None else self.api.replace(secret)
        return written["metadata"]["resourceVersion"]

    def delete(self, instance, version):
        self.api.delete("v1", "Secret", record_name(instance["id"]), self.namespace)
