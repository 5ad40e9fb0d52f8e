# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The layout of the CNF driver's private state in the record (``instantiatedVnfInfo.metadata[PRIVATE]``,
common/record_store.py), key by key; the Helm driver's (lcm/helm/state.py) shares its Kubernetes keys.

Types only: the code reads and writes these keys by name, as plain dicts (the record is JSON).
"""

from __future__ import annotations

from typing import Dict, List

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import PrivateState


class KubernetesState(PrivateState, total=False):
    """What both Kubernetes drivers (this one and lcm/helm/) keep besides every driver's keys (PrivateState). Their
    stores keep an operation's way back in a Secret beside the record (k8s/store.py), never under ``change``."""

    # The objects of the VNF as the record names them (k8s/manifests.py ref): written by instantiate and change of package
    # (while they run too, with every object they may create), modify (its ConfigMaps/Secrets) and a failed terminate (those
    # still there); read by terminate and vnf_delete (what to delete or report), shared.py vdu_records_of (the VDUs'
    # workloads) and a change of package (what its rollback goes back to). Helm: written by instantiate, read by none.
    resources: List[dict]
    # VNFC_COUNTS (lcm/common.py): VDU id -> its workload's replicas: written by instantiate, change of package and scale
    # (lcm/scaling.py with_counts), read by lcm/common.py vnfc_counts (what scale, resume and a change of package start from).
    vnfc_counts: Dict[str, int]


class CnfState(KubernetesState, total=False):
    """The CNF driver's private state: KubernetesState and the manifests it deployed."""

    # The def files' manifest records as deployed (k8s/instance_objects.py deployed_manifests: a ConfigMap's or Secret's
    # identity only): written by instantiate, change of package and modify's container update; read by those two (what
    # the new package changes), heal (a bare Pod as deployed), terminate (a StatefulSet's claim templates) and shared.py
    # refresh_vnfcs (metadata.vdu_reses). A record of an older version has none: a change of package or a container
    # update is refused then.
    deployed: List[dict]
