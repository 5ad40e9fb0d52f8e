# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A VNF instance's pods: listing them, replacing them (a bare Pod recreated under its name), and its VNFCs read from them.

A VNFC's id follows its pod (k8s/vnfc.py), so what is written here is what every Kubernetes driver's heal, container
update and change of package reports.
"""

from __future__ import annotations

import copy

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import VimError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.instance_objects import create_or_adopt
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ownership import INSTANCE_ID_LABEL, resource_selector
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.readiness import is_ready
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.vnfc import vdu_objects, vnfc_info, vnfc_resource_info
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.waiter import wait_gone

# Tacker v2's key in instantiatedVnfInfo.metadata: each VDU's workload as deployed (k8s/vnfc.py: vdu_objects).
VDU_RESES = "vdu_reses"
# The pods a ReplicaSet scaling in removes first: lower costs first, Kubernetes' default is 0 (PodDeletionCost).
DELETION_COST = "controller.kubernetes.io/pod-deletion-cost"
FIRST_TO_GO = "-1000"


def instance_pods(api, namespace, instance_id):
    """The pods of the instance (its labels), one LIST."""
    return api.list("v1", "Pod", namespace, resource_selector(instance_id))


# ---------------------------------------------------------------------------------------------
# Replacing pods.

def pods_replaced(api, namespace, targets):
    """Every replaced pod (vnfcResourceInfo entries) is gone, or for a bare Pod back with a new UID."""
    for item in targets:
        live = api.get("v1", "Pod", item["computeResource"]["resourceId"], namespace)
        if live is not None and live["metadata"].get("uid") == item["metadata"].get("podUid"):
            return False
    return True


def recreate_pod(api, old, new, deadline):
    """Create ``new`` under the name of the deleted pod ``old`` once that name is free (then :func:`wait_recreated`)."""
    wait_gone(api, [old], deadline)
    api.create(new)


def wait_recreated(api, pods, deadline):
    """Until every recreated bare Pod is there and ready.

    A deleter that does not check the UID (kwok finishes a deletion by name; a kubelet would not) can
    take a recreated pod when it comes late: such a pod is created again, until the deadline.
    """
    def back():
        ready = True
        for pod in pods:
            meta = pod["metadata"]
            live = api.get("v1", "Pod", meta["name"], meta.get("namespace"))
            if live is None:
                create_or_adopt(api, pod, (meta.get("labels") or {}).get(INSTANCE_ID_LABEL))
            ready = ready and live is not None and is_ready(live)
        return ready

    if pods:
        deadline.poll(back, "Pod {0} to be recreated".format(", ".join(pod["metadata"]["name"] for pod in pods)))


def prefer_deleting_added(api, namespace, before, live):
    """Mark the pods of ``live`` (vnfcResourceInfo read now) that ``before`` (the record's) does not have as those a
    ReplicaSet scaling in removes first: the rollback of a scale out then removes the pods the scale added and keeps the
    VNFCs the record had, as Tacker's tests expect. A ReplicaSet otherwise goes by readiness, then by age in powers of
    two, then at random: pods of close ages are a coin toss. Pods gone meanwhile are skipped."""
    known = {(item.get("metadata") or {}).get("podUid") for item in before or ()}
    for item in live or ():
        if item["metadata"].get("podUid") not in known:
            try:
                api.patch("v1", "Pod", item["computeResource"]["resourceId"], namespace, {"metadata": {"annotations": {DELETION_COST: FIRST_TO_GO}}})
            except VimError as error:
                if getattr(error, "status", None) != 404:
                    raise


def fresh_pod(live):
    """A bare Pod to recreate under its name: its spec and identity, not its runtime state."""
    meta = live["metadata"]
    spec = {key: value for key, value in live["spec"].items() if key != "nodeName"}
    keep = {key: meta[key] for key in ("name", "namespace", "labels", "annotations") if key in meta}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": keep, "spec": spec}


# ---------------------------------------------------------------------------------------------
# VNFCs: pods found through ownerReferences; a VNFC's id follows its pod.

def pods_and_owners(api, namespace, instance_id, vdus):
    """``(pods, owners)``: the instance's pods, and what they may belong to (its ReplicaSets, the workloads of ``vdus``),
    for k8s/vnfc.py to follow their ownerReferences. ``instance_id`` None: objects that carry no instance labels (a Helm
    release's), all of the namespace's, of which ownerReferences keep the VDUs' own."""
    selector = resource_selector(instance_id) if instance_id is not None else None
    pods = api.list("v1", "Pod", namespace, selector)
    owners = api.list("apps/v1", "ReplicaSet", namespace, selector)
    for record in vdus.values():
        obj = record["object"]
        if obj["kind"] not in ("Pod", "ReplicaSet"):
            live = api.get(obj["apiVersion"], obj["kind"], obj["metadata"]["name"], namespace)
            if live:
                owners.append(live)
    return pods, owners


def live_vnfc_info(api, instance_id, namespace, info, vdus, replaced=(), deployed=None, counts=None):
    """``info`` (instantiatedVnfInfo) with vnfcResourceInfo / vnfcInfo read from the live pods of ``vdus`` (k8s/vnfc.py vdu_records)
    and, when ``deployed`` (the manifests as deployed) is known, metadata.vdu_reses at ``counts`` (VDU id -> replicas).

    A pod that stays keeps its VNFC id; a new pod is a new VNFC with an id of its own (k8s/vnfc.py), as in Tacker v2:
    a heal, a container update or a change of package that replaces a pod reports its VNFC REMOVED and the new one
    ADDED. ``replaced``: VNFC ids whose pods the operation replaced; an entry of a record of an older version, which has
    no pod UID and is matched by pod name, never passes its id to the new pod of the same name (a bare Pod recreated, a
    StatefulSet's pod).
    """
    pods, owners = pods_and_owners(api, namespace, instance_id, vdus)
    info = copy.deepcopy(info or {})
    replaced = set(replaced)
    previous = [item for item in info.get("vnfcResourceInfo") or [] if item["id"] not in replaced or (item.get("metadata") or {}).get("podUid")]
    resources = vnfc_resource_info(vdus, pods, owners, previous, namespace)
    info["vnfcResourceInfo"] = resources
    info["vnfcInfo"] = vnfc_info(resources, info.get("vnfcInfo"))
    if deployed is not None:
        info.setdefault("metadata", {})[VDU_RESES] = vdu_objects(vdus, deployed, counts or {})
    return info
