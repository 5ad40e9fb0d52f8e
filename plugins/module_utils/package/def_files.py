# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The deployment files a VNF package carries besides its VNFD.

Kubernetes: manifests under Files/kubernetes/ (or elsewhere when TOSCA.meta lists them), whose workload
objects are the VDUs, matched by VDU name as Tacker does. OpenStack: BaseHOT/<flavour_id>/ holds one
top Heat template and its nested/ templates, which the top template uses as resource types.
"""

from __future__ import annotations

import posixpath

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError

KUBERNETES_DIR = "Files/kubernetes/"
BASE_HOT_DIR = "BaseHOT/"
# Folders whose YAML files are never Kubernetes manifests.
NOT_KUBERNETES_DIRS = ("Definitions/", "TOSCA-Metadata/", BASE_HOT_DIR)
# Kinds whose object can be a VDU (Tacker's CNF support).
WORKLOAD_KINDS = ("Pod", "Deployment", "ReplicaSet", "DaemonSet", "StatefulSet")


def is_yaml_name(name):
    return name.lower().endswith((".yaml", ".yml"))


def kubernetes_candidates(present, listed):
    """``(certain, possible)``: YAML files under Files/kubernetes/, and other listed YAML files that may be manifests.

    A Helm chart's source folder (one holding a Chart.yaml, as Tacker's Helm packages ship beside the chart's .tgz) is
    not searched: its Chart.yaml, values and Go templates are not Kubernetes manifests."""
    charts = tuple(sorted(posixpath.dirname(name) + "/" for name in present if posixpath.basename(name) == "Chart.yaml"))
    certain = sorted(name for name in present if name.startswith(KUBERNETES_DIR) and is_yaml_name(name) and not name.startswith(charts))
    possible = sorted(
        name for name in listed
        if name in present and name not in certain and is_yaml_name(name) and not name.startswith(NOT_KUBERNETES_DIRS + charts)
    )
    return certain, possible


def is_manifest_list(documents):
    return bool(documents) and all(isinstance(doc, dict) and doc.get("kind") and doc.get("apiVersion") for doc in documents)


def check_manifests(documents, where):
    """Every document of a Kubernetes def file must be an object with apiVersion and kind."""
    if not documents:
        raise PackageError(where, "Kubernetes def file has no objects")
    for index, doc in enumerate(documents, start=1):
        if not isinstance(doc, dict) or not doc.get("kind") or not doc.get("apiVersion"):
            raise PackageError(where, "document {0} is not a Kubernetes object (apiVersion and kind are required)".format(index))


def kubernetes_resources(vdus, manifests):
    """VDU id -> the workload objects named like the VDU, from ``{relpath: [objects]}``."""
    resources = {}
    for vdu_id, vdu in vdus.items():
        matches = [
            {"file": relpath, "kind": obj["kind"], "name": obj["metadata"]["name"], "namespace": obj["metadata"].get("namespace")}
            for relpath, objects in manifests.items()
            for obj in objects
            if obj.get("kind") in WORKLOAD_KINDS and isinstance(obj.get("metadata"), dict) and obj["metadata"].get("name") == vdu.get("name")
        ]
        if matches:
            resources[vdu_id] = matches
    return resources


def base_hot_layout(present, flavour_id, describe):
    """``{"template", "nested"}`` for BaseHOT/<flavour_id>/, or None when the flavour has no Heat templates."""
    folder = "{0}{1}/".format(BASE_HOT_DIR, flavour_id)
    files = [name for name in present if name.startswith(folder)]
    if not files:
        return None
    tops = sorted(name for name in files if "/" not in name[len(folder):] and is_yaml_name(name))
    if len(tops) != 1:
        found = ", ".join(tops) if tops else "none"
        raise PackageError(describe(folder), "expected exactly one top Heat template (*.yaml) here, found {0}".format(found))
    nested = sorted(name for name in files if name.startswith(folder + "nested/") and is_yaml_name(name))
    return {"template": tops[0], "nested": nested}


def check_hot_references(template_path, template, layout, describe):
    """Each resource type that names a template file must be among the flavour's templates.

    Heat receives the nested templates keyed by file name, so a type "VDU1.yaml" must be nested/VDU1.yaml.
    """
    available = {posixpath.basename(name) for name in layout["nested"]}
    resources = (template or {}).get("resources") if isinstance(template, dict) else None
    for resource_name, resource in (resources or {}).items():
        resource_type = (resource or {}).get("type") if isinstance(resource, dict) else None
        if isinstance(resource_type, str) and is_yaml_name(resource_type) and posixpath.basename(resource_type) not in available:
            raise PackageError(describe(template_path), "resource {0} uses template {1}, which is not in {2}".format(
                resource_name, resource_type, posixpath.dirname(layout["template"]) + "/nested/"))
