# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Which namespace a CNF lives in, and what that means for each of its manifests.

The namespace is ``additionalParams.namespace``, else the one namespace the namespaced manifests agree
on, else ``default``. Manifests naming another namespace are rewritten and reported (policy "rewrite")
or refused (policy "error"); nothing is changed silently. Whether a kind is namespaced comes from the
cluster (API discovery, passed in as ``namespaced``) or from a CustomResourceDefinition in the def
files, never from a hand-written list; a kind neither knows is an error.

The namespace is fixed at instantiation and kept in the VnfInstance's ``metadata.namespace``.
"""

from __future__ import annotations

import copy
import re

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import (
    DEF_FILES_FIELD,
    INSTANTIATE_VNF_REQUEST,
    describe,
    kind_of,
    name_of,
    namespace_of,
)

DEFAULT_NAMESPACE = "default"
NAMESPACE_FIELD = "additionalParams.namespace"
METADATA_NAMESPACE_FIELD = "metadata.namespace"

REASON_REQUEST = "request"
# The module's own namespace option (often a play's module_defaults for the whole action group).
REASON_OPTION = "option"
REASON_MANIFESTS = "manifests"
REASON_DEFAULT = "default"

POLICY_REWRITE = "rewrite"
POLICY_ERROR = "error"
POLICIES = (POLICY_REWRITE, POLICY_ERROR)

# RFC 1123 label: what the API server accepts as a namespace name.
_NAMESPACE_NAME = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_BINDING_KINDS = ("RoleBinding", "ClusterRoleBinding")


def resolve_namespace(request_namespace, manifests, namespaced, policy=POLICY_REWRITE, allow_cluster_scoped=False, what=INSTANTIATE_VNF_REQUEST,
                      option_namespace=None):
    """The namespace plan for a list of manifest records; raises ValidationError before anything is written.

    ``namespaced``: callable ``(apiVersion, kind) -> True | False | None`` or a dict keyed by
    ``(apiVersion, kind)`` (None or absent: the cluster does not serve that kind).
    ``option_namespace``: the module's namespace option, taken when the request names none (choose_namespace).

    Returns ``{"namespace", "reason", "policy", "creates_namespace", "rewrites", "cluster_scoped", "warnings", "manifests"}``:
    ``creates_namespace`` tells whether the def files hold the Namespace object itself; ``manifests``
    are new records with every namespaced object's ``metadata.namespace`` set to the resolved
    namespace (and cluster-scoped ones without a namespace); the inputs are not changed.
    """
    check_policy(policy, what)
    is_namespaced = scope_lookup(namespaced, manifests)
    scopes = classify_scopes(manifests, is_namespaced, what)
    namespace, reason = choose_namespace(request_namespace, manifests, scopes, what, option_namespace)
    changes = namespace_changes(manifests, scopes, namespace)
    if policy == POLICY_ERROR and changes:
        raise ValidationError(what, NAMESPACE_FIELD, "the VNF's namespace is {0} ({1}), but {2} (namespace policy {3!r})".format(
            namespace, describe_reason(reason), "; ".join(describe_change(change) for change in changes), POLICY_ERROR))
    cluster_scoped = [object_summary(record) for record, scope in zip(manifests, scopes) if not scope]
    if cluster_scoped and not allow_cluster_scoped:
        raise ValidationError(what, DEF_FILES_FIELD, "cluster-scoped objects need the user's permission (allow_cluster_scoped): {0}".format(
            "; ".join(describe_summary(summary) for summary in cluster_scoped)))
    placed = apply_namespace(manifests, scopes, namespace, changes)
    check_unique_objects(placed, what)
    return {
        "namespace": namespace,
        "reason": reason,
        "policy": policy,
        "creates_namespace": any(kind_of(record) == "Namespace" and name_of(record) == namespace for record in manifests),
        "rewrites": changes,
        "cluster_scoped": cluster_scoped,
        "warnings": unused_namespace_warnings(manifests, namespace),
        "manifests": placed,
    }


def check_unique_objects(records, what=INSTANTIATE_VNF_REQUEST):
    """One object per API group, kind, namespace and name across all def files (once namespaces are resolved): a second
    create of the same object would be taken for the first, and its content lost. The error names both places."""
    seen = {}
    for record in records:
        obj = record["object"]
        group = str(obj.get("apiVersion") or "").rpartition("/")[0]
        key = (group, kind_of(record), namespace_of(record), name_of(record))
        if key in seen:
            first = seen[key]
            raise ValidationError(what, DEF_FILES_FIELD, "{0} {1}{2} is defined twice: in {3} (document {4}) and in {5} (document {6}); "
                                  "a VNF has one object of a kind and name".format(
                                      key[1], key[3], "" if key[2] is None else " (namespace {0})".format(key[2]),
                                      first["file"], first["index"] + 1, record["file"], record["index"] + 1))
        seen[key] = record


def check_policy(policy, what=INSTANTIATE_VNF_REQUEST):
    if policy not in POLICIES:
        raise ValidationError(what, "namespace_policy", "must be one of {0}, got {1!r}".format(", ".join(POLICIES), policy))


def check_namespace_name(namespace, what=INSTANTIATE_VNF_REQUEST, field=NAMESPACE_FIELD):
    """A namespace name must be an RFC 1123 label (lower-case alphanumerics and '-', at most 63)."""
    if not isinstance(namespace, str) or len(namespace) > 63 or not _NAMESPACE_NAME.match(namespace):
        raise ValidationError(what, field, "{0!r} is not a valid namespace name (RFC 1123 label: lower-case letters, digits and '-', "
                                           "at most 63 characters)".format(namespace))
    return namespace


def scope_lookup(namespaced, manifests=()):
    """``(apiVersion, kind) -> True | False | None`` from the cluster's answer, else the def files' CRDs.

    A CustomResourceDefinition in the def files is created before its objects, so the cluster cannot
    know their kind yet; the CRD's ``spec.scope`` tells.
    """
    defined = custom_resource_scopes(manifests)

    def lookup(api_version, kind):
        answer = namespaced(api_version, kind) if callable(namespaced) else (namespaced or {}).get((api_version, kind))
        if answer is None:
            answer = defined.get((api_version, kind))
        return answer
    return lookup


def custom_resource_scopes(manifests):
    """``{(apiVersion, kind): namespaced}`` for the kinds the CustomResourceDefinitions among ``manifests`` define."""
    scopes = {}
    for record in manifests:
        obj = record["object"]
        if obj.get("kind") != "CustomResourceDefinition" or not str(obj.get("apiVersion", "")).startswith("apiextensions.k8s.io/"):
            continue
        spec = obj.get("spec") or {}
        kind = (spec.get("names") or {}).get("kind")
        versions = [version.get("name") for version in spec.get("versions") or [] if isinstance(version, dict)]
        versions += [spec["version"]] if spec.get("version") else []  # apiextensions.k8s.io/v1beta1
        for version in versions:
            if kind and spec.get("group") and version:
                scopes[("{0}/{1}".format(spec["group"], version), kind)] = spec.get("scope", "Namespaced") == "Namespaced"
    return scopes


def classify_scopes(manifests, is_namespaced, what=INSTANTIATE_VNF_REQUEST):
    """True (namespaced) / False (cluster-scoped) per record; kinds nobody knows are one error naming them all."""
    scopes = []
    unknown = []
    for record in manifests:
        obj = record["object"]
        answer = is_namespaced(obj["apiVersion"], obj["kind"])
        if answer is None:
            unknown.append("{0}: kind {1} (apiVersion {2})".format(record["file"], obj["kind"], obj["apiVersion"]))
        elif not isinstance(answer, bool):
            raise ValueError("namespaced({0!r}, {1!r}) must answer True, False or None, not {2!r}".format(obj["apiVersion"], obj["kind"], answer))
        scopes.append(answer)
    if unknown:
        raise ValidationError(what, DEF_FILES_FIELD, "the cluster does not serve {0}; install the API (CRD) first or fix the def file".format(
            "; ".join(unknown)))
    return scopes


def choose_namespace(request_namespace, manifests, scopes, what=INSTANTIATE_VNF_REQUEST, option_namespace=None):
    """``(namespace, reason)``: the request's, else the module's namespace option, else the one the namespaced
    manifests name, else default."""
    if request_namespace is not None:
        return check_namespace_name(request_namespace, what), REASON_REQUEST
    if option_namespace is not None:
        return check_namespace_name(option_namespace, "module options", "namespace"), REASON_OPTION
    named = {}
    for record, scope in zip(manifests, scopes):
        if scope and namespace_of(record):
            named.setdefault(namespace_of(record), []).append(describe(record))
    if len(named) > 1:
        listing = "; ".join("{0} in {1}".format(", ".join(objects), namespace) for namespace, objects in named.items())
        raise ValidationError(what, NAMESPACE_FIELD, "not given, and the def files name different namespaces: {0}; "
                                                     "a VNF lives in one namespace, so set {1}".format(listing, NAMESPACE_FIELD))
    if named:
        return check_namespace_name(next(iter(named)), what, DEF_FILES_FIELD), REASON_MANIFESTS
    return DEFAULT_NAMESPACE, REASON_DEFAULT


def describe_reason(reason):
    return {
        REASON_REQUEST: "from " + NAMESPACE_FIELD,
        REASON_OPTION: "from the module's namespace option, as the request names none",
        REASON_MANIFESTS: "named by the def files",
        REASON_DEFAULT: "the default, as neither the request nor the def files name one",
    }[reason]


def object_summary(record):
    return {"file": record["file"], "index": record["index"], "kind": kind_of(record), "name": name_of(record)}


def describe_summary(summary):
    return "{0} {1} ({2})".format(summary["kind"], summary["name"], summary["file"])


def namespace_changes(manifests, scopes, namespace):
    """Every place a namespaced manifest names a namespace other than ``namespace``.

    Besides ``metadata.namespace``, that is a (Cluster)RoleBinding subject for a ServiceAccount the def
    files create: the binding would otherwise grant rights to an account that does not exist.
    """
    own_accounts = {name_of(record) for record, scope in zip(manifests, scopes) if scope and kind_of(record) == "ServiceAccount"}
    changes = []
    for record, scope in zip(manifests, scopes):
        if scope and namespace_of(record) not in (None, namespace):
            changes.append(change_entry(record, METADATA_NAMESPACE_FIELD, namespace_of(record), namespace))
        for index, subject in binding_subjects(record):
            if subject.get("kind") == "ServiceAccount" and subject.get("name") in own_accounts and subject.get("namespace") not in (None, namespace):
                changes.append(change_entry(record, "subjects[{0}].namespace".format(index), subject["namespace"], namespace))
    return changes


def binding_subjects(record):
    if kind_of(record) not in _BINDING_KINDS:
        return []
    return [(index, subject) for index, subject in enumerate(record["object"].get("subjects") or []) if isinstance(subject, dict)]


def change_entry(record, field, old, new):
    entry = object_summary(record)
    entry.update({"field": field, "from": old, "to": new})
    return entry


def describe_change(change):
    return "{0} {1} ({2}) {3} is {4}".format(change["kind"], change["name"], change["file"], change["field"], change["from"])


def apply_namespace(manifests, scopes, namespace, changes):
    """New records: namespaced objects in ``namespace``, cluster-scoped ones without any (the API ignores it)."""
    subject_fixes = {(change["file"], change["index"], change["field"]) for change in changes}
    result = []
    for record, scope in zip(manifests, scopes):
        record = copy.deepcopy(record)
        metadata = record["object"].setdefault("metadata", {})
        if scope:
            metadata["namespace"] = namespace
        else:
            metadata.pop("namespace", None)
        for index, subject in binding_subjects(record):
            if (record["file"], record["index"], "subjects[{0}].namespace".format(index)) in subject_fixes:
                subject["namespace"] = namespace
        result.append(record)
    return result


def unused_namespace_warnings(manifests, namespace):
    """A Namespace object the VNF does not live in is still created: worth telling, not refusing."""
    return ["{0} creates Namespace {1}, but the VNF's objects go to namespace {2}".format(record["file"], name_of(record), namespace)
            for record in manifests if kind_of(record) == "Namespace" and name_of(record) != namespace]


def instance_namespace(instance):
    """The namespace a VNF instance was instantiated in (``metadata.namespace``), or None before that."""
    return ((instance or {}).get("metadata") or {}).get("namespace")


def with_namespace(instance, namespace):
    """A copy of ``instance`` that records ``namespace`` in its metadata."""
    result = copy.deepcopy(instance)
    result.setdefault("metadata", {})["namespace"] = namespace
    return result


def check_namespace_unchanged(record_namespace, request_namespace, what="VnfInfoModificationRequest", field=METADATA_NAMESPACE_FIELD):
    """The namespace is fixed at instantiation; a later request may repeat it but never redirect it.

    ``request_namespace`` None means the request does not mention it. Returns the namespace to use.
    """
    if request_namespace is not None and request_namespace != record_namespace:
        raise ValidationError(what, field, "the VNF instance lives in namespace {0!r}; it is fixed at instantiation and cannot become {1!r}".format(
            record_namespace, request_namespace))
    return record_namespace


def check_modification_keeps_namespace(instance, request, what="VnfInfoModificationRequest"):
    """A VnfInfoModificationRequest's metadata patch may not change or remove ``metadata.namespace``."""
    patch = request.get("metadata")
    record_namespace = instance_namespace(instance)
    if not isinstance(patch, dict) or "namespace" not in patch or record_namespace is None:
        return record_namespace
    if patch["namespace"] is None:
        raise ValidationError(what, METADATA_NAMESPACE_FIELD, "the VNF instance lives in namespace {0!r}; the record of it cannot be removed".format(
            record_namespace))
    return check_namespace_unchanged(record_namespace, patch["namespace"], what, METADATA_NAMESPACE_FIELD)
