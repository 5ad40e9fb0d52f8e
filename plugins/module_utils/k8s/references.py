# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Which ConfigMaps and Secrets a workload's pods use, and which images they run (pure).

A reference is ``{"kind": "ConfigMap"|"Secret", "name", "key", "via", "container", "init"}``:
``key`` is the one key a keyRef or a volume item reads, None when the pod reads the whole object
(envFrom, a volume without items, imagePullSecrets); ``via`` is env, envFrom, volume, projected or
imagePullSecrets; ``container`` is None for pod-level uses (volumes, imagePullSecrets).
Literal env values, fieldRefs and resourceFieldRefs are not references and are skipped.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import kind_of, name_of, object_of

CONFIG_KINDS = ("ConfigMap", "Secret")
CONTAINER_LISTS = ("initContainers", "containers")
# Where each workload kind keeps the spec of its pods.
POD_SPEC_PATHS = {
    "Pod": ("spec",),
    "Deployment": ("spec", "template", "spec"),
    "ReplicaSet": ("spec", "template", "spec"),
    "DaemonSet": ("spec", "template", "spec"),
    "StatefulSet": ("spec", "template", "spec"),
    "Job": ("spec", "template", "spec"),
    "CronJob": ("spec", "jobTemplate", "spec", "template", "spec"),
}
WORKLOAD_KINDS = tuple(POD_SPEC_PATHS)
# env[].valueFrom / envFrom[] / volume source field -> the kind it names.
_KEY_REFS = (("configMapKeyRef", "ConfigMap"), ("secretKeyRef", "Secret"))
_FROM_REFS = (("configMapRef", "ConfigMap"), ("secretRef", "Secret"))
# A volume's secret source names its Secret in secretName; a projected one uses name.
_VOLUME_SOURCES = (("configMap", "ConfigMap", "name"), ("secret", "Secret", "secretName"))
_PROJECTED_SOURCES = (("configMap", "ConfigMap", "name"), ("secret", "Secret", "name"))


def object_key(obj):
    """``(kind, name)``: how the planner names an object (a VNF lives in one namespace)."""
    return kind_of(obj), name_of(obj)


def pod_spec_of(obj):
    """The pod spec of a workload (or of a manifest record's workload); None for other kinds or when absent."""
    obj = object_of(obj)
    current = obj
    for key in POD_SPEC_PATHS.get(obj.get("kind"), ()):
        current = current.get(key) if isinstance(current, dict) else None
    return current if isinstance(current, dict) and obj.get("kind") in POD_SPEC_PATHS else None


def dicts(value):
    """The dict items of a list field (None, a non-list or malformed items are tolerated, not fatal)."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def named_containers(pod_spec, lists=CONTAINER_LISTS):
    """``[(list name, container)]`` for the named containers of the pod spec, init containers first."""
    return [(field, container) for field in lists for container in dicts((pod_spec or {}).get(field))
            if isinstance(container.get("name"), str)]


def reference(kind, name, via, key=None, container=None, init=False):
    return {"kind": kind, "name": name, "key": key, "via": via, "container": container, "init": init}


def container_references(container, init):
    """References of one container's env and envFrom."""
    result = []
    name = container.get("name")
    for entry in dicts(container.get("env")):
        value_from = entry.get("valueFrom")
        for field, kind in _KEY_REFS:
            ref = value_from.get(field) if isinstance(value_from, dict) else None
            if isinstance(ref, dict) and ref.get("name"):
                result.append(reference(kind, ref["name"], "env", ref.get("key"), name, init))
    for entry in dicts(container.get("envFrom")):
        for field, kind in _FROM_REFS:
            ref = entry.get(field)
            if isinstance(ref, dict) and ref.get("name"):
                result.append(reference(kind, ref["name"], "envFrom", None, name, init))
    return result


def source_references(source, kinds, via):
    """References of a volume (or projected) source: one per listed item key, else one for the whole object."""
    result = []
    for field, kind, name_field in kinds:
        ref = source.get(field)
        if not isinstance(ref, dict) or not ref.get(name_field):
            continue
        keys = [item.get("key") for item in dicts(ref.get("items")) if item.get("key")]
        result.extend(reference(kind, ref[name_field], via, key) for key in keys or [None])
    return result


def volume_references(pod_spec):
    result = []
    for volume in dicts(pod_spec.get("volumes")):
        result.extend(source_references(volume, _VOLUME_SOURCES, "volume"))
        projected = volume.get("projected")
        for source in dicts(projected.get("sources") if isinstance(projected, dict) else None):
            result.extend(source_references(source, _PROJECTED_SOURCES, "projected"))
    return result


def config_references(pod_spec):
    """Every ConfigMap/Secret reference of a pod spec: containers, initContainers, volumes, imagePullSecrets.

    Ephemeral containers are left out on purpose: they are never restarted (see ephemeral_containers).
    """
    if not isinstance(pod_spec, dict):
        return []
    result = []
    for field, container in named_containers(pod_spec):
        result.extend(container_references(container, field == "initContainers"))
    result.extend(volume_references(pod_spec))
    result.extend(reference("Secret", item["name"], "imagePullSecrets") for item in dicts(pod_spec.get("imagePullSecrets")) if item.get("name"))
    return result


def container_images(pod_spec):
    """``{("containers"|"initContainers", container name): image}`` of a pod spec."""
    return {(field, container["name"]): container.get("image") for field, container in named_containers(pod_spec)}


def ephemeral_containers(pod_spec):
    """``[{"name", "image", "references"}]`` of the pod's ephemeral containers (only live pods have them)."""
    return [{"name": container["name"], "image": container.get("image"), "references": container_references(container, False)}
            for _field, container in named_containers(pod_spec, ("ephemeralContainers",))]


def reference_index(workloads):
    """``{(kind, name) of a ConfigMap/Secret: sorted [(kind, name) of the workloads using it]}``, built in one pass.

    ``workloads``: objects or manifest records; kinds without a pod spec are skipped.
    """
    return index_of({object_key(workload): references_by_config(pod_spec_of(workload)) for workload in workloads})


def index_of(references):
    """The reference index from ``{workload key: references_by_config() of it}`` (computed once by the caller)."""
    index = {}
    for workload, configs in references.items():
        for config in configs:
            index.setdefault(config, []).append(workload)
    return {config: sorted(users) for config, users in index.items()}


def references_by_config(pod_spec):
    """``{(kind, name): [references]}`` for one pod spec: what a workload reads from each ConfigMap/Secret."""
    grouped = {}
    for ref in config_references(pod_spec):
        grouped.setdefault((ref["kind"], ref["name"]), []).append(ref)
    return grouped
