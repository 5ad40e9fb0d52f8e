# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Read-only driver behind vnf_package_info: the package as data, plus what its def files declare."""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package


def describe_package(path, flavour_id=None, operation=None):
    """Return (package dict, warnings) for the CSAR at ``path``.

    ``flavour_id`` keeps only that deployment flavour; an unknown one is an error naming the
    flavours the VNFD has.
    """
    with load_package(path, operation=operation) as package:
        data = package.to_dict()
        data["kubernetes_resources"] = list_kubernetes_resources(package, data["kubernetes_def_files"])
    if flavour_id is not None:
        flavours = data["vnfd"]["flavours"]
        if flavour_id not in flavours:
            raise ValidationError("vnf_package_info options", "flavour_id",
                                  "unknown flavour '{0}'; the VNFD has: {1}".format(flavour_id, ", ".join(sorted(flavours)) or "none"))
        data["vnfd"]["flavours"] = {flavour_id: flavours[flavour_id]}
    return data, list(data.get("warnings", []))


def list_kubernetes_resources(package, def_files):
    """One entry per object in the Kubernetes def files, in file order."""
    resources = []
    for def_file in def_files:
        for document in package.load_yaml_documents(def_file):
            if not isinstance(document, dict):
                continue
            metadata = document.get("metadata") or {}
            resources.append({
                "file": def_file,
                "api_version": document.get("apiVersion"),
                "kind": document.get("kind"),
                "name": metadata.get("name"),
                "namespace": metadata.get("namespace"),
            })
    return resources
