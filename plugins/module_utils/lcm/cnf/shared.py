# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the CNF operations on Kubernetes share: the objects and VNFCs of an instance's record (the objects' writes,
the pods and the VNFCs read from them are in k8s/instance_objects.py and k8s/pods.py, for every Kubernetes driver).

Each operation has a file of its own beside this one (instantiate.py, scale.py, heal.py, terminate.py, modify.py,
change_pkg.py, delete.py), with its module's run (``run_<operation>``: module params to a finished operation, on
lcm/instance_run.py's shared steps on session.py's connection); resume.py takes a FAILED_TEMP op occ to its operation's resumer.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.namespaces import instance_namespace
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.pods import live_vnfc_info
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.vnfc import vdu_records
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.state import CnfState
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import PRIVATE, private_state, vnfc_counts


# ---------------------------------------------------------------------------------------------
# The record's objects.

def recorded_resources(instance):
    """The objects the record says the instance has (or an unfinished instantiate may have created)."""
    return private_state(instance).get("resources") or []


def with_pending_resources(instance, flavour_id, namespace, resources):
    """A NOT_INSTANTIATED instance whose record lists objects of the VNF that may be on the VIM: those an unfinished
    instantiate may have created, or those a terminate that was failed left. No VNFCs: its pods are gone or going."""
    return dict(instance, instantiatedVnfInfo={"flavourId": flavour_id, "metadata": {"namespace": namespace, PRIVATE: {"resources": resources}}})


# ---------------------------------------------------------------------------------------------
# VNFCs: pods found through ownerReferences; a VNFC's id follows its pod.

def vdu_records_of(instance):
    """VDU id -> a manifest-like record of its workload (its identity only), from the record's VDU/resource data."""
    state: CnfState = private_state(instance)
    return vdu_records(state.get("resources"), (state.get("flavour") or {}).get("vdus"))


def refresh_vnfcs(api, instance, vdus=None, replaced=()):
    """``instance`` with its VNFCs read from the live pods (k8s/pods.py: live_vnfc_info), and metadata.vdu_reses from its
    record. Every operation that changes a VDU's workload or count ends here, so vdu_reses follows them (a record of a
    version that kept no deployed manifests has none)."""
    info = live_vnfc_info(api, instance["id"], instance_namespace(instance), instance.get("instantiatedVnfInfo"),
                          vdus if vdus is not None else vdu_records_of(instance), replaced, private_state(instance).get("deployed"),
                          vnfc_counts(instance))
    return dict(instance, instantiatedVnfInfo=info)
