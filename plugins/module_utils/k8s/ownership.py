# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Labels that mark the objects this collection creates for a VNF instance.

Every object of an instance carries ``app.kubernetes.io/managed-by: nfv.vnflcm`` and
``vnflcm.nfv/instance-id: <id>``; pod templates carry them too, so pods are attributable to the
instance without guessing from names. The instance's record Secret also has
``vnflcm.nfv/record``, so selecting the VNF's own objects can leave the record out.

They also carry Tacker v2's ``tacker_vnf_instance_id: <id>`` (its Kubernetes driver's label, which its record's
``vdu_reses`` show), objects and pod templates alike; no selector of this collection uses it.
"""

from __future__ import annotations

import copy
import hashlib
import re

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import object_of

MANAGED_BY_LABEL = "app.kubernetes.io/managed-by"
MANAGED_BY = "nfv.vnflcm"
INSTANCE_ID_LABEL = "vnflcm.nfv/instance-id"
INSTANCE_NAME_HASH_LABEL = "vnflcm.nfv/instance-name-hash"
RECORD_LABEL = "vnflcm.nfv/record"
RECORD_LABEL_VALUE = "vnf-instance"
TACKER_INSTANCE_ID_LABEL = "tacker_vnf_instance_id"

# A non-empty label value: at most 63 characters, alphanumerics at both ends, '-', '_' and '.' inside.
_LABEL_VALUE = re.compile(r"^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$")
# Where a workload keeps the pod template(s) whose labels its pods get.
_POD_TEMPLATE_PATHS = {
    "Deployment": (("spec", "template"),),
    "ReplicaSet": (("spec", "template"),),
    "ReplicationController": (("spec", "template"),),
    "StatefulSet": (("spec", "template"),),
    "DaemonSet": (("spec", "template"),),
    "Job": (("spec", "template"),),
    "CronJob": (("spec", "jobTemplate"), ("spec", "jobTemplate", "spec", "template")),
}


def check_label_value(value, what="VNF instance", field="id"):
    if not isinstance(value, str) or len(value) > 63 or not _LABEL_VALUE.match(value):
        raise ValidationError(what, field, "{0!r} cannot be a Kubernetes label value (1 to 63 alphanumerics, '-', '_', '.')".format(value))
    return value


def ownership_labels(instance_id):
    """The labels every object of the instance carries."""
    return {MANAGED_BY_LABEL: MANAGED_BY, INSTANCE_ID_LABEL: check_label_value(instance_id)}


def name_hash(instance_name):
    """A label-safe stand-in for a vnfInstanceName (names may hold anything): the first 16 hex of its SHA-256."""
    return hashlib.sha256(str(instance_name).encode("utf-8")).hexdigest()[:16]


def label_object(obj, instance_id):
    """A copy of the object (or of a record's object) with the ownership labels on it and on its pod templates.

    Our labels win over same-named ones from the def file: the selectors below depend on them. On a pod template a
    ``tacker_vnf_instance_id`` the def file sets stays as it is: the workload's selector may match on it.
    """
    result = copy.deepcopy(object_of(obj))
    labels = ownership_labels(instance_id)
    add_labels(result, dict(labels, **{TACKER_INSTANCE_ID_LABEL: instance_id}))
    for path in _POD_TEMPLATE_PATHS.get(result.get("kind"), ()):
        template = nested_dict(result, path)
        if template is not None:
            add_labels(template, labels)
            template["metadata"]["labels"].setdefault(TACKER_INSTANCE_ID_LABEL, instance_id)
    return result


def without_new_template_label(obj, deployed):
    """``obj`` (labelled) whose pod templates lack the Tacker label where ``deployed``'s (an instance labelled before
    this collection added it) lack it and nothing else in them would change: a label alone never restarts pods."""
    kind = object_of(obj).get("kind")
    if kind not in _POD_TEMPLATE_PATHS or deployed is None:
        return obj
    result = copy.deepcopy(object_of(obj))
    for path in _POD_TEMPLATE_PATHS[kind]:
        template, before = nested_dict(result, path), nested_dict(object_of(deployed), path)
        if template is not None and before is not None and TACKER_INSTANCE_ID_LABEL not in template_labels(before):
            template_labels(template).pop(TACKER_INSTANCE_ID_LABEL, None)
    paths = _POD_TEMPLATE_PATHS[kind]
    if all(nested_dict(result, path) == nested_dict(object_of(deployed), path) for path in paths):
        return result
    return obj


def template_labels(template):
    return (template.get("metadata") or {}).get("labels") or {}


def label_record(record, instance_id):
    """A copy of a manifest record whose object is labelled."""
    result = dict(record)
    result["object"] = label_object(record["object"], instance_id)
    return result


def add_labels(obj, labels):
    obj.setdefault("metadata", {})
    if obj["metadata"].get("labels") is None:
        obj["metadata"]["labels"] = {}
    obj["metadata"]["labels"].update(labels)


def nested_dict(obj, path):
    current = obj
    for key in path:
        current = current.get(key) if isinstance(current, dict) else None
        if not isinstance(current, dict):
            return None
    return current


def format_selector(labels, absent=()):
    """A label selector string: ``key=value`` terms, then ``!key`` terms for labels that must be absent."""
    return ",".join(["{0}={1}".format(key, value) for key, value in sorted(labels.items())] + ["!" + key for key in absent])


def label_selector(instance_id):
    """Everything this collection created for the instance, its record Secret included."""
    return format_selector(ownership_labels(instance_id))


def resource_selector(instance_id):
    """The instance's VNF objects (pods included), without its record Secret."""
    return format_selector(ownership_labels(instance_id), absent=(RECORD_LABEL,))


def managed_selector():
    """Everything this collection manages, all instances."""
    return format_selector({MANAGED_BY_LABEL: MANAGED_BY})


def is_owned_by(obj, instance_id):
    """Whether an object (live or manifest) carries the instance's ownership labels."""
    labels = (object_of(obj).get("metadata") or {}).get("labels") or {}
    return labels.get(MANAGED_BY_LABEL) == MANAGED_BY and labels.get(INSTANCE_ID_LABEL) == instance_id
