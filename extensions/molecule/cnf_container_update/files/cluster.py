# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the scenario needs from the cluster besides the collection's modules, through the Kubernetes
client the collection requires anyway (no kubectl, no other collection):

  cluster.py KUBECONFIG namespace-present NAMESPACE   the namespace, with its default ServiceAccount
  cluster.py KUBECONFIG namespace-absent NAMESPACE    deleted, and gone
  cluster.py KUBECONFIG hold-pods NAMESPACE           a ResourceQuota of no pods, enforced: no new pod can start
  cluster.py KUBECONFIG release-pods NAMESPACE        that quota deleted
  cluster.py KUBECONFIG snapshot NAMESPACE            the namespace's pods by controller (UID, images), workload
                                                      templates' images, ConfigMap data, and Secret data as SHA-256
                                                      digests (a value is never printed)

Prints one JSON object; ``changed`` says whether the call wrote anything.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time

from kubernetes import client, config
from kubernetes.client.rest import ApiException

QUOTA = "molecule-hold-pods"
TIMEOUT = 180


def wait_for(check, what):
    """Poll ``check`` until it is truthy (the API has no watch for 'quota enforced' or 'namespace gone')."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise SystemExit("timed out after {0} s waiting for {1}".format(TIMEOUT, what))
        time.sleep(0.2)


def found(read):
    try:
        return read()
    except ApiException as error:
        if error.status == 404:
            return None
        raise


def namespace_present(core, namespace):
    changed = found(lambda: core.read_namespace(namespace)) is None
    if changed:
        core.create_namespace({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespace}})
    # Pods are refused until the ServiceAccount controller has made the default account.
    wait_for(lambda: found(lambda: core.read_namespaced_service_account("default", namespace)), "the default ServiceAccount of " + namespace)
    return {"changed": changed}


def namespace_absent(core, namespace):
    changed = found(lambda: core.read_namespace(namespace)) is not None
    if changed:
        found(lambda: core.delete_namespace(namespace))
        wait_for(lambda: found(lambda: core.read_namespace(namespace)) is None, "namespace {0} to be deleted".format(namespace))
    return {"changed": changed}


def hold_pods(core, namespace):
    changed = found(lambda: core.read_namespaced_resource_quota(QUOTA, namespace)) is None
    if changed:
        core.create_namespaced_resource_quota(namespace, {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": QUOTA},
                                                          "spec": {"hard": {"pods": "0"}}})
    # Admission enforces a quota only once the quota controller has filled in its status.
    wait_for(lambda: (core.read_namespaced_resource_quota(QUOTA, namespace).status.hard or {}).get("pods") == "0", "the pod quota to be enforced")
    return {"changed": changed}


def release_pods(core, namespace):
    return {"changed": found(lambda: core.delete_namespaced_resource_quota(QUOTA, namespace)) is not None}


def controller(meta, replicasets):
    """(kind, name) of a pod's controller, a Deployment for a ReplicaSet a Deployment owns; ("Pod", name) for a bare pod."""
    ref = next((item for item in meta.owner_references or [] if item.controller), None)
    if ref is None:
        return "Pod", meta.name
    parent = replicasets.get(ref.uid)
    if ref.kind == "ReplicaSet" and parent is not None:
        owner = next((item for item in parent.metadata.owner_references or [] if item.controller), None)
        if owner is not None:
            return owner.kind, owner.name
    return ref.kind, ref.name


def snapshot(core, apps, namespace):
    replicasets = apps.list_namespaced_replica_set(namespace).items
    by_uid = {item.metadata.uid: item for item in replicasets}
    pods = {}
    for pod in core.list_namespaced_pod(namespace).items:
        if pod.metadata.deletion_timestamp:
            continue
        kind, name = controller(pod.metadata, by_uid)
        pods.setdefault("{0}/{1}".format(kind, name), {})[pod.metadata.name] = {
            "uid": pod.metadata.uid, "images": [container.image for container in pod.spec.containers]}
    templates = {}
    for kind, items in (("Deployment", apps.list_namespaced_deployment(namespace).items), ("DaemonSet", apps.list_namespaced_daemon_set(namespace).items),
                        ("ReplicaSet", [item for item in replicasets if not item.metadata.owner_references])):
        for item in items:
            templates["{0}/{1}".format(kind, item.metadata.name)] = [container.image for container in item.spec.template.spec.containers]
    configmaps = {item.metadata.name: item.data or {} for item in core.list_namespaced_config_map(namespace).items
                  if item.metadata.name != "kube-root-ca.crt"}
    secrets = {item.metadata.name: {key: hashlib.sha256(value.encode()).hexdigest() for key, value in (item.data or {}).items()}
               for item in core.list_namespaced_secret(namespace).items if item.type == "Opaque"}
    return {"changed": False, "pods": pods, "templates": templates, "configmaps": configmaps, "secrets": secrets}


def main():
    kubeconfig, action, namespace = sys.argv[1:4]
    # An empty kubeconfig: the client's default (~/.kube/config).
    api = config.new_client_from_config(config_file=kubeconfig or None)
    core, apps = client.CoreV1Api(api), client.AppsV1Api(api)
    actions = {
        "namespace-present": lambda: namespace_present(core, namespace),
        "namespace-absent": lambda: namespace_absent(core, namespace),
        "hold-pods": lambda: hold_pods(core, namespace),
        "release-pods": lambda: release_pods(core, namespace),
        "snapshot": lambda: snapshot(core, apps, namespace),
    }
    if action not in actions:
        raise SystemExit("unknown action {0!r}: one of {1}".format(action, ", ".join(actions)))
    print(json.dumps(actions[action](), sort_keys=True))


if __name__ == "__main__":
    main()
