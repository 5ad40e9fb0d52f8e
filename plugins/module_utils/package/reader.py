# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Read a VNF package (CSAR directory or zip) into plain data: ``load_package(path).to_dict()``.

Reading checks what can be checked without a VIM: TOSCA.meta, the hash of every listed file that is
present, the VNFD and its imports, the Kubernetes def files and the BaseHOT templates. Files that are
listed or declared but absent are errors when a deployment needs them and warnings otherwise (Tacker's
test packages list a management driver that Tacker only adds when it builds the package).
"""

from __future__ import annotations

import contextlib
import copy
import os
import posixpath
import shutil

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError
from ansible_collections.nfv.vnflcm.plugins.module_utils.package import def_files
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.archive import TOSCA_META_PATH, normalize_relpath, open_source
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.tosca import load_definitions
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.tosca_meta import parse_tosca_meta, verify_file_hash
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.vnfd import parse_vnfd
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.yaml_loader import (  # HAS_YAML, YAML_IMPORT_ERROR: for modules
    HAS_YAML,
    YAML_IMPORT_ERROR,
    decode_text,
    parse_yaml,
    parse_yaml_documents,
)

__all__ = ("HAS_YAML", "YAML_IMPORT_ERROR", "VnfPackage", "load_package", "optional_package")

# Files a deployment cannot do without: absent means the package is broken, whatever the operation.
DEPLOYMENT_DIRS = ("Definitions/", def_files.KUBERNETES_DIR, def_files.BASE_HOT_DIR)
# Short names people use for the SOL003 operations, mapped to the Vnflcm operation prefix.
OPERATION_ALIASES = {
    "modify": "modify_information",
    "change_vnfpkg": "change_current_package",
    "change_ext_conn": "change_external_connectivity",
}


class VnfPackage:
    """A read VNF package. Keeps its source open so files can be read later; use ``close()`` or ``with``."""

    def __init__(self, source, data):
        self._source = source
        self._data = data

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def close(self):
        self._source.close()

    @property
    def path(self):
        return self._data["path"]

    @property
    def warnings(self):
        return list(self._data["warnings"])

    def to_dict(self):
        """Everything that was read, as plain JSON-able data (a copy)."""
        return copy.deepcopy(self._data)

    def flavour(self, flavour_id):
        """One deployment flavour's data; unknown ids raise an error listing the known ones."""
        flavours = self._data["vnfd"]["flavours"]
        if flavour_id not in flavours:
            raise PackageError(self.path, "the VNFD has no deployment flavour {0!r} (flavours: {1})".format(
                flavour_id, ", ".join(sorted(flavours)) or "none"))
        return copy.deepcopy(flavours[flavour_id])

    def read_file(self, relpath):
        """The bytes of a package file; paths that leave the package are refused."""
        return self._source.read(normalize_relpath(relpath, self._source.describe(relpath)))

    def extract_to(self, directory):
        """Copy every file of the package into ``directory`` (streamed, zip or not): the copy a package script is given."""
        for relpath in self._source.names():
            target = os.path.join(directory, *normalize_relpath(relpath, self._source.describe(relpath)).split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with self._source.open_stream(relpath) as source, open(target, "wb") as handle:
                shutil.copyfileobj(source, handle)

    def load_yaml_documents(self, relpath):
        """The non-empty YAML documents of a package file; errors name the file and the line."""
        clean = normalize_relpath(relpath, self._source.describe(relpath))
        return parse_yaml_documents(self.read_file(clean), self._source.describe(clean))


def load_package(path, operation=None):
    """Read and check the VNF package at ``path`` (a CSAR directory or a .zip/.csar file).

    ``operation`` (e.g. "instantiate", "modify_information") makes the absence of an artifact that the
    operation's Vnflcm hooks use an error rather than a warning.
    """
    source = open_source(path)
    try:
        return VnfPackage(source, PackageReader(source, operation).read(path))
    except BaseException:
        source.close()
        raise


def optional_package(path):
    """For a ``with`` block: the package at ``path`` (closed when the block ends), or None when no path is given."""
    return load_package(path) if path else contextlib.nullcontext()


class PackageReader:
    """One read of one package; collects warnings as it goes."""

    def __init__(self, source, operation):
        self.source = source
        self.operation = normalize_operation_name(operation)
        self.warnings = []
        self.present = set(source.names())

    def read(self, path):
        meta = self._read_meta()
        definitions = load_definitions(self.source, meta["entry_definitions"], self.warnings)
        vnfd = parse_vnfd(definitions, self.source.describe)
        self._resolve_artifacts(vnfd["artifacts"], meta["files"])
        manifests = self._read_kubernetes_def_files(meta["files"], {artifact["file"] for artifact in vnfd["artifacts"].values()})
        self._add_deployment_files(vnfd["flavours"], manifests)
        self._check_missing_files(meta["files"], vnfd)
        return {
            "path": path,
            "format": self.source.format,
            "meta": meta,
            "vnfd": vnfd,
            "kubernetes_def_files": sorted(manifests),
            "warnings": self.warnings,
        }

    def _read_meta(self):
        if TOSCA_META_PATH not in self.present:
            raise PackageError(self.source.describe(TOSCA_META_PATH), "not found; a CSAR needs TOSCA-Metadata/TOSCA.meta")
        where = self.source.describe(TOSCA_META_PATH)
        parsed = parse_tosca_meta(decode_text(self.source.read(TOSCA_META_PATH), where), where)
        meta = {key: parsed["header"].get(key) for key in ("tosca_meta_file_version", "csar_version", "created_by", "entry_definitions")}
        meta["entry_definitions"] = normalize_relpath(meta["entry_definitions"], where + " (Entry-Definitions)")
        meta["files"] = {}
        for name, entry in parsed["files"].items():
            relpath = normalize_relpath(name, "{0} (Name: {1})".format(where, name))
            meta["files"][relpath] = entry
            if relpath in self.present:
                with self.source.open_stream(relpath) as stream:
                    verify_file_hash(entry, stream, self.source.describe(relpath))
        return meta

    def _resolve_artifacts(self, artifacts, listed):
        for key, artifact in artifacts.items():
            defined_in = artifact.pop("defined_in")
            artifact["file"] = self._artifact_path(key, artifact["file"], defined_in, listed)
            artifact["present"] = artifact["file"] in self.present

    def _artifact_path(self, key, file_name, defined_in, listed):
        """Where an artifact file is: relative to the defining VNFD file (TOSCA), else to the package root.

        Tacker's packages use both ("../Scripts/x.py" from Definitions/, and "Scripts/x.py").
        """
        if not isinstance(file_name, str) or not file_name:
            raise PackageError(self.source.describe(defined_in), "artifact {0} has no file".format(key))
        if "://" in file_name:
            return file_name
        candidates = []
        for joined in (posixpath.join(posixpath.dirname(defined_in), file_name), file_name):
            try:
                candidates.append(normalize_relpath(joined))
            except PackageError:
                continue
        if not candidates:
            raise PackageError(self.source.describe(defined_in), "artifact {0} file {1} points outside the package".format(key, file_name))
        for candidate in candidates:
            if candidate in self.present or candidate in listed:
                return candidate
        return candidates[0]

    def _read_kubernetes_def_files(self, listed, artifact_files):
        """``{relpath: [objects]}`` for Files/kubernetes/ and for other listed YAML files that are manifests."""
        certain, possible = def_files.kubernetes_candidates(self.present, listed)
        manifests = {}
        for relpath in certain:
            documents = parse_yaml_documents(self.source.read(relpath), self.source.describe(relpath))
            def_files.check_manifests(documents, self.source.describe(relpath))
            manifests[relpath] = documents
        for relpath in possible:
            try:
                documents = parse_yaml_documents(self.source.read(relpath), self.source.describe(relpath))
            except PackageError:
                continue  # not ours to judge: only Kubernetes manifests must parse here
            if def_files.is_manifest_list(documents):
                manifests[relpath] = documents
        for relpath in manifests:
            if relpath not in listed:
                self.warnings.append("{0}: Kubernetes def file is not listed in TOSCA.meta, so its hash is not verified{1}".format(
                    relpath, "" if relpath in artifact_files else " and no LCM request can use it"))
        return manifests

    def _add_deployment_files(self, flavours, manifests):
        uses_heat = any(name.startswith(def_files.BASE_HOT_DIR) for name in self.present)
        for flavour_id, flavour in flavours.items():
            flavour["kubernetes_resources"] = def_files.kubernetes_resources(flavour["vdus"], manifests)
            layout = def_files.base_hot_layout(self.present, flavour_id, self.source.describe)
            if layout is None and uses_heat:
                raise PackageError(self.source.describe(def_files.BASE_HOT_DIR + flavour_id + "/"),
                                   "the package has Heat templates, but none for flavour {0}".format(flavour_id))
            if layout is not None:
                self._check_hot_templates(layout)
            flavour["base_hot"] = layout

    def _check_hot_templates(self, layout):
        for relpath in [layout["template"]] + layout["nested"]:
            template = parse_yaml(self.source.read(relpath), self.source.describe(relpath))
            def_files.check_hot_references(relpath, template, layout, self.source.describe)

    def _check_missing_files(self, listed, vnfd):
        usage = artifact_usage(vnfd["flavours"])
        reasons = {}
        for relpath in listed:
            if relpath not in self.present:
                reasons.setdefault(relpath, []).append("listed in TOSCA.meta")
        for key, artifact in vnfd["artifacts"].items():
            if not artifact["present"]:
                used_by = usage.get(key, [])
                reasons.setdefault(artifact["file"], []).append(
                    "declared as artifact {0}{1}".format(key, " (used by {0})".format(", ".join(used_by)) if used_by else ""))
        for relpath, why in sorted(reasons.items()):
            needed_by = self._needed_by(relpath, vnfd["artifacts"], usage)
            reason = "{0}, but not in the package".format(" and ".join(why))
            if needed_by:
                raise PackageError(self.source.describe(relpath), "{0}; {1} needs it".format(reason, needed_by))
            self.warnings.append("{0}: {1}".format(relpath, reason))

    def _needed_by(self, relpath, artifacts, usage):
        """What cannot run without ``relpath``, or None when its absence is only worth a warning."""
        if relpath.startswith(DEPLOYMENT_DIRS):
            return "deployment"
        if not self.operation:
            return None
        for key, artifact in artifacts.items():
            if artifact["file"] == relpath and any(hook_matches(hook, self.operation) for hook in usage.get(key, [])):
                return "operation " + self.operation
        return None


def normalize_operation_name(operation):
    if not operation:
        return None
    name = str(operation).strip().lower().replace("-", "_")
    return OPERATION_ALIASES.get(name, name)


def hook_matches(hook, operation):
    """True when an "Interface.op_name" hook belongs to ``operation`` (e.g. Vnflcm.instantiate_start)."""
    op_name = hook.split(".", 1)[-1]
    return op_name == operation or op_name.startswith(operation + "_")


def implementation_artifacts(implementation):
    """Artifact names an operation implementation uses: a name, or ``{primary, dependencies}``."""
    if isinstance(implementation, str):
        return [implementation]
    if isinstance(implementation, dict):
        names = [implementation.get("primary")] + list(implementation.get("dependencies") or [])
        return [name for name in names if isinstance(name, str)]
    return []


def artifact_usage(flavours):
    """Artifact name -> sorted "Interface.operation" hooks that use it, over all flavours."""
    usage = {}
    for flavour in flavours.values():
        for interface, operations in flavour["interfaces"].items():
            for op_name, operation in operations.items():
                for name in implementation_artifacts(operation["implementation"]):
                    hooks = usage.setdefault(name, [])
                    hook = "{0}.{1}".format(interface, op_name)
                    if hook not in hooks:
                        hooks.append(hook)
    return {name: sorted(hooks) for name, hooks in usage.items()}
