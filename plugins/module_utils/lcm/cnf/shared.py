# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the CNF operations on Kubernetes share: finding an instance, creating and deleting its objects, its VNFCs.

Each operation has a file of its own beside this one (instantiate.py, scale.py, heal.py, terminate.py, modify.py,
change_pkg.py, delete.py), with its module's run (``run_<operation>``: module params to a finished operation, on
runner.py's shared steps); resume.py takes a FAILED_TEMP op occ to its operation's resumer.
"""

from __future__ import annotations

import copy

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, NotFoundError, VimError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.claims import is_claim_named_by
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import describe, identity, ref
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.namespaces import instance_namespace
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ordering import delete_propagation
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.ownership import is_owned_by, resource_selector
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.store import SecretRecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.vnfc import vdu_objects, vnfc_info, vnfc_resource_info
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.waiter import NO_PROGRESS_SECONDS, pod_grace, wait_deleted
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import PRIVATE, private_state, vnfc_counts
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.def_files import WORKLOAD_KINDS

# Tacker v2's key in instantiatedVnfInfo.metadata: each VDU's workload as deployed (k8s/vnfc.py: vdu_objects).
VDU_RESES = "vdu_reses"


# ---------------------------------------------------------------------------------------------
# Finding an instance.

def locate(api, namespace, instance_id=None, name=None):
    """``(store, (instance, op_occs, version))`` of an existing instance; NotFoundError names where it looked."""
    store = SecretRecordStore(api, namespace)
    found = store.find(instance_id, name)
    if found is None:
        raise NotFoundError("VNF instance {0} in namespace {1}".format(instance_id or repr(name), namespace))
    return store, found


def recorded_resources(instance):
    """The objects the record says the instance has (or an unfinished instantiate may have created)."""
    return private_state(instance).get("resources") or []


def without_instantiated_info(instance):
    return {key: value for key, value in instance.items() if key not in ("instantiatedVnfInfo", "vimConnectionInfo")}


def with_pending_resources(instance, flavour_id, namespace, resources):
    """A NOT_INSTANTIATED instance whose record lists objects of the VNF that may be on the VIM: those an unfinished
    instantiate may have created, or those a terminate that was failed left. No VNFCs: its pods are gone or going."""
    return dict(instance, instantiatedVnfInfo={"flavourId": flavour_id, "metadata": {"namespace": namespace, PRIVATE: {"resources": resources}}})


def judged(what, record, write, *args, **kwargs):
    """``write(*args, **kwargs)``, a dry-run write the API server judges without storing anything; its refusal names
    the object (and def file) of ``record``."""
    try:
        return write(*args, **kwargs)
    except VimError as error:
        refused = VimError("validate", what, "{0}: the Kubernetes API refuses it (server-side dry run): {1}".format(describe(record), error.reason))
        refused.status = getattr(error, "status", None)
        raise refused from error


def deployed_manifests(records):
    """The manifest records as deployed, for a later container update to compare with a new package.

    ConfigMaps and Secrets keep only their identity: their content is read live, and Secret data
    must never reach the record (which every result shows).
    """
    return [dict(record, object=identity(ref(record["object"]))) if record["object"]["kind"] in ("ConfigMap", "Secret") else record
            for record in records]


def create_or_adopt(api, obj, instance_id, dry_run=False):
    """Create ``obj``; one that already exists is accepted only if this instance made it (a retry).

    Create first and read only on a conflict: a fresh instantiate then costs one call per object.
    """
    meta = obj["metadata"]
    try:
        return api.create(obj, dry_run=dry_run)
    except ConflictError:
        live = api.get(obj["apiVersion"], obj["kind"], meta["name"], meta.get("namespace"))
    if live is None or not is_owned_by(live, instance_id):
        raise ConflictError("create", describe(obj), "it already exists and does not belong to VNF instance {0}".format(instance_id))
    return live


def delete_owned(api, instance_id, resources, grace, waits, progress, awaited=()):
    """Delete those of ``resources`` (record references, in delete order) that are the instance's (its labels, or for a
    StatefulSet's claim what its reference names: k8s/claims.py); wait until they, and ``awaited`` (what Kubernetes
    deletes with them), are gone.

    A deletion that shows no progress for the no-progress window (k8s/waiter.py: NO_PROGRESS_SECONDS beyond the grace
    the deleted pods may take) while objects are held by finalizers ends in DeletionStalled naming them, not at the
    timeout.
    """
    deleted = progress.setdefault("deleted", [])
    allowance = 0
    for item in resources:
        live = api.get(item["apiVersion"], item["kind"], item["name"], item.get("namespace"))
        if live is None or not belongs(live, item, instance_id):
            continue
        api.delete(item["apiVersion"], item["kind"], item["name"], item.get("namespace"), propagation=delete_propagation(item["kind"]),
                   grace_seconds=grace)
        deleted.append(item)
        allowance = max(allowance, pod_grace(dict(live, kind=item["kind"]), grace))
    if waits.enabled:
        wait_deleted(api, [identity(item) for item in deleted + list(awaited)], waits.deadline(), NO_PROGRESS_SECONDS + allowance)
    return deleted


def belongs(live, item, instance_id):
    """Whether the live object ``item`` names is the instance's: its ownership labels, or for the claim of one of its
    StatefulSets (which carries the controller's labels, not ours) the StatefulSet's name pattern and selector labels."""
    return is_owned_by(live, instance_id) or is_claim_named_by(live, item)


# ---------------------------------------------------------------------------------------------
# VNFCs: pods found through ownerReferences; a VNFC's id follows its pod.

def vdu_records_of(instance):
    """VDU id -> a manifest-like record of its workload (its identity only), from the record's VDU/resource data."""
    state = private_state(instance)
    workloads = {item["name"]: item for item in state.get("resources") or [] if item["kind"] in WORKLOAD_KINDS}
    return {vdu_id: {"file": None, "index": 0, "object": identity(workloads[vdu.get("name")])}
            for vdu_id, vdu in ((state.get("flavour") or {}).get("vdus") or {}).items() if vdu.get("name") in workloads}


def refresh_vnfcs(api, instance, vdus=None, replaced=()):
    """``instance`` with vnfcResourceInfo / vnfcInfo read from the live pods, and metadata.vdu_reses from its record.

    A pod that stays keeps its VNFC id; a new pod is a new VNFC with an id of its own (k8s/vnfc.py), as in Tacker v2:
    a heal, a container update or a change of package that replaces a pod reports its VNFC REMOVED and the new one
    ADDED. ``replaced``: VNFC ids whose pods the operation replaced; an entry of a record of an older version, which has
    no pod UID and is matched by pod name, never passes its id to the new pod of the same name (a bare Pod recreated, a
    StatefulSet's pod). Every operation that changes a
    VDU's workload or count ends here, so vdu_reses follows them (a record of a version that kept no deployed
    manifests has none).
    """
    vdus = vdus if vdus is not None else vdu_records_of(instance)
    namespace = instance_namespace(instance)
    selector = resource_selector(instance["id"])
    pods = api.list("v1", "Pod", namespace, selector)
    owners = api.list("apps/v1", "ReplicaSet", namespace, selector)
    for record in vdus.values():
        obj = record["object"]
        if obj["kind"] not in ("Pod", "ReplicaSet"):
            live = api.get(obj["apiVersion"], obj["kind"], obj["metadata"]["name"], namespace)
            if live:
                owners.append(live)
    info = copy.deepcopy(instance.get("instantiatedVnfInfo") or {})
    replaced = set(replaced)
    previous = [item for item in info.get("vnfcResourceInfo") or [] if item["id"] not in replaced or (item.get("metadata") or {}).get("podUid")]
    resources = vnfc_resource_info(vdus, pods, owners, previous, namespace)
    info["vnfcResourceInfo"] = resources
    info["vnfcInfo"] = vnfc_info(resources, info.get("vnfcInfo"))
    deployed = private_state(instance).get("deployed")
    if deployed is not None:
        info.setdefault("metadata", {})[VDU_RESES] = vdu_objects(vdus, deployed, vnfc_counts(instance))
    return dict(instance, instantiatedVnfInfo=info)
