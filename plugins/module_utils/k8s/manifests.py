# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Kubernetes objects an LCM request deploys: its def files, read from the package in request order.

A manifest record is ``{"file": relpath, "index": position in the file (0-based), "object": dict}``.
Records are what the namespace, ordering, ownership and VNFC helpers of this package work on.

A request may only use def files the package declares (as Tacker, which answers CnfDefinitionNotFound),
at most MAX_KUBERNETES_OBJECTS objects in all, each at most MAX_KUBERNETES_OBJECT_BYTES as JSON.

The review kinds (CREATE_ONLY_KINDS) are questions to the API server, not objects: it answers their create (their
``status``) and keeps nothing, so they need no name. They are set apart from the VNF's objects as they are read
(:func:`load_manifests`): nothing that owns, records, dry-runs or deletes objects ever sees them.
"""

from __future__ import annotations

import copy
import json
import posixpath

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.archive import unsafe_path_reason
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.limits import (
    MAX_KUBERNETES_OBJECT_BYTES,
    MAX_KUBERNETES_OBJECTS,
    over_limit,
)

INSTANTIATE_VNF_REQUEST = "InstantiateVnfRequest"
DEF_FILES_PARAM = "lcm-kubernetes-def-files"
DEF_FILES_FIELD = "additionalParams." + DEF_FILES_PARAM
# (API group, kind) of the objects the API server answers and does not store; Tacker v2 deploys them too.
CREATE_ONLY_KINDS = frozenset([
    ("authorization.k8s.io", "SubjectAccessReview"),
    ("authorization.k8s.io", "LocalSubjectAccessReview"),
    ("authorization.k8s.io", "SelfSubjectAccessReview"),
    ("authorization.k8s.io", "SelfSubjectRulesReview"),
    ("authentication.k8s.io", "TokenReview"),
    ("authentication.k8s.io", "SelfSubjectReview"),
])


def def_files_field(position=None):
    """``additionalParams.lcm-kubernetes-def-files`` or one entry of it (``...[position]``)."""
    return DEF_FILES_FIELD if position is None else "{0}[{1}]".format(DEF_FILES_FIELD, position)


def requested_def_files(request, what=INSTANTIATE_VNF_REQUEST):
    """The def file paths the request names, normalised, in request order.

    The list must be non-empty, hold package-relative paths, and name each file once
    (a file listed twice would create its objects twice).
    """
    params = request.get("additionalParams") or {}
    files = params.get(DEF_FILES_PARAM)
    if not isinstance(files, list) or not files:
        raise ValidationError(what, def_files_field(), "a non-empty list of Kubernetes def files in the package is required")
    seen = {}
    result = []
    for position, relpath in enumerate(files):
        if not isinstance(relpath, str) or not relpath.strip():
            raise ValidationError(what, def_files_field(position), "must be a package-relative file path, got {0!r}".format(relpath))
        reason = unsafe_path_reason(relpath)
        if reason:
            raise ValidationError(what, def_files_field(position), "{0}: {1}".format(relpath, reason))
        clean = posixpath.normpath(relpath.replace("\\", "/"))
        if clean in seen:
            raise ValidationError(what, def_files_field(position), "{0} is already listed at [{1}]".format(relpath, seen[clean]))
        seen[clean] = position
        result.append(clean)
    return result


def load_manifests(package, request, what=INSTANTIATE_VNF_REQUEST, create_only=None):
    """Manifest records for the request's def files, in request order (a file's objects in file order).

    ``package`` is a read VnfPackage; only files it recognised as Kubernetes def files, and declares in
    TOSCA.meta or as a VNFD artifact, are accepted. The records of review kinds go to the list ``create_only``, in
    package order; without the list, they are left out.
    """
    data = package.to_dict()
    known = set(data["kubernetes_def_files"])
    declared = declared_files(data)
    records = []
    for position, relpath in enumerate(requested_def_files(request, what)):
        check_def_file_usable(relpath, known, declared, what, position)
        for record in manifest_records(relpath, package.load_yaml_documents(relpath)):
            if not is_create_only(record["object"]):
                records.append(record)
            elif create_only is not None:
                create_only.append(record)
        check_object_count(len(records) + len(create_only or ()), relpath, what, position)
    return records


def is_create_only(obj):
    """A review kind (CREATE_ONLY_KINDS): its create is a question the API server answers, storing nothing."""
    group = (obj.get("apiVersion") or "").rpartition("/")[0]
    return (group, obj.get("kind")) in CREATE_ONLY_KINDS


def declared_files(package_data):
    """The files a package declares: listed in TOSCA.meta (Name:) or named by a VNFD artifact."""
    artifacts = package_data["vnfd"]["artifacts"].values()
    return set(package_data["meta"]["files"]) | {artifact["file"] for artifact in artifacts}


def check_def_file_usable(relpath, known, declared, what, position):
    if relpath not in known:
        raise ValidationError(what, def_files_field(position), "{0} is not a Kubernetes def file of the package (def files: {1})".format(
            relpath, ", ".join(sorted(known)) or "none"))
    if relpath not in declared:
        # Undeclared files have no verified hash: Tacker refuses them too (CnfDefinitionNotFound).
        raise ValidationError(what, def_files_field(position), "{0} is not declared by the package: it must be listed in TOSCA.meta "
                                                               "(a Name: entry) or be the file of a VNFD artifact".format(relpath))


def check_object_count(count, relpath, what, position):
    if count > MAX_KUBERNETES_OBJECTS:
        raise ValidationError(what, def_files_field(position), "{0} brings the request to {1} Kubernetes objects, more than the limit of "
                                                               "{2} per request".format(relpath, count, MAX_KUBERNETES_OBJECTS))


def manifest_records(relpath, documents):
    """Records for the documents of one def file; each must be a complete Kubernetes object the API server can store."""
    records = []
    for index, obj in enumerate(documents):
        check_manifest_object(obj, relpath, index)
        check_object_size(obj, relpath, index)
        records.append({"file": relpath, "index": index, "object": copy.deepcopy(obj)})
    return records


def check_object_size(obj, relpath, index):
    """etcd refuses a larger object, after the objects before it were created: refuse it before any is."""
    label = "document {0} ({1} {2})".format(index + 1, obj["kind"], (obj.get("metadata") or {}).get("name") or "")
    try:
        # default=str: the Kubernetes client sends YAML dates as ISO strings of the same length.
        text = json.dumps(obj, separators=(",", ":"), ensure_ascii=False, default=str)
    except (TypeError, ValueError) as exc:
        raise PackageError(relpath, "{0} cannot be sent as JSON: {1}".format(label, exc)) from exc
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_KUBERNETES_OBJECT_BYTES:
        raise PackageError(relpath, "{0} {1}".format(label, over_limit(
            size, MAX_KUBERNETES_OBJECT_BYTES, "one Kubernetes object as JSON (etcd's default request size)")))


def check_manifest_object(obj, relpath, index):
    """apiVersion, kind and metadata.name are what every later step identifies an object by (a review needs no name)."""
    if not isinstance(obj, dict):
        raise PackageError(relpath, "document {0} is not a Kubernetes object".format(index + 1))
    for field in ("apiVersion", "kind"):
        if not isinstance(obj.get(field), str) or not obj[field]:
            raise PackageError(relpath, "document {0}: {1} is required".format(index + 1, field))
    metadata = obj.get("metadata")
    if is_create_only(obj):
        if metadata is not None and not isinstance(metadata, dict):
            raise PackageError(relpath, "document {0} ({1}): metadata must be a mapping".format(index + 1, obj["kind"]))
        return
    if not isinstance(metadata, dict) or not isinstance(metadata.get("name"), str) or not metadata["name"]:
        raise PackageError(relpath, "document {0} ({1}): metadata.name is required".format(index + 1, obj["kind"]))
    namespace = metadata.get("namespace")
    if namespace is not None and (not isinstance(namespace, str) or not namespace):
        raise PackageError(relpath, "document {0} ({1} {2}): metadata.namespace must be a non-empty string".format(
            index + 1, obj["kind"], metadata["name"]))


def object_of(item):
    """The Kubernetes object of a manifest record, or the item itself when it is a plain object."""
    return item["object"] if isinstance(item, dict) and "object" in item and "kind" not in item else item


def kind_of(item):
    return object_of(item).get("kind")


def name_of(item):
    return (object_of(item).get("metadata") or {}).get("name")


def namespace_of(item):
    return (object_of(item).get("metadata") or {}).get("namespace")


def describe(item):
    """``Kind name``, with ``(file)`` for a record: how messages name an object."""
    text = " ".join(part for part in (kind_of(item), name_of(item)) if part)  # a review has no name
    if isinstance(item, dict) and "file" in item and "object" in item:
        text += " ({0})".format(item["file"])
    return text


def ref(obj):
    """How the record names a Kubernetes object: apiVersion, kind, name and namespace."""
    meta = obj["metadata"]
    return {"apiVersion": obj["apiVersion"], "kind": obj["kind"], "name": meta["name"], "namespace": meta.get("namespace")}


def identity(reference):
    """The least object that names what ``reference`` (a :func:`ref`) names: for waits, and for records that must not
    keep an object's content (a Secret's data)."""
    return {"apiVersion": reference["apiVersion"], "kind": reference["kind"],
            "metadata": {"name": reference["name"], "namespace": reference.get("namespace")}}
