# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The VDUs of a Helm chart's rendered manifest (``helm template`` / ``helm get manifest``): their workloads and counts.

Tacker v2's rule (infra_drivers/kubernetes/helm.py, ``_select_vdu_reses``): a workload (Pod, Deployment, ReplicaSet,
DaemonSet, StatefulSet) belongs to the VDU whose ``properties.name`` is the workload's name up to its last dash: a
chart names it ``<vdu name>-{{ .Release.Name }}``, and Tacker's release names (cli.tacker_release_name) have no dash.
A workload named exactly as the VDU also belongs to it (Tacker's Kubernetes driver rule; its Helm driver would read
``vdu1`` as ``vdu``). Unlike Tacker, which keeps the last of two claimants and ignores a VDU without a workload, each
VDU must have exactly one, and one workload cannot answer to two VDUs. Pure: the documents are given.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import describe, kind_of, name_of, namespace_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.vnfc import SCALABLE_KINDS
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.def_files import WORKLOAD_KINDS
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import INSTANTIATE_VNF_REQUEST


def vdu_names_of_workload(name):
    """The VDU names a workload's name answers to: itself, and itself up to its last dash (``vdu1-vnf0a1b`` -> ``vdu1``)."""
    names = [name]
    if "-" in name:
        names.append(name.rpartition("-")[0])
    return names


def check_release_namespace(documents, namespace, chart, what=INSTANTIATE_VNF_REQUEST):
    """Refuse a rendered object placed in a namespace other than the release's: the release (and this VNF's record)
    is one namespace, and the chart must not write elsewhere. Objects without a namespace go to the release's (or are
    cluster-scoped). Checked on the rendered chart, before anything is written."""
    for document in documents:
        placed = namespace_of(document)
        if placed is not None and placed != namespace:
            raise ValidationError(what, chart, "{0} is placed in namespace {1}, not the release's namespace {2}".format(
                describe(document), placed, namespace))


def workloads_by_vdu(documents, vdus, namespace, chart, what=INSTANTIATE_VNF_REQUEST):
    """VDU id -> its workload object among the rendered ``documents``, for every VDU of ``vdus`` (a flavour's ``vdus``:
    VDU id -> ``{"name": properties.name, ...}``). ``chart`` (its package path) names the chart in errors; objects in a
    namespace other than ``namespace`` are refused first (:func:`check_release_namespace`)."""
    check_release_namespace(documents, namespace, chart, what)
    vdu_ids_by_name = {}
    for vdu_id, vdu in sorted(vdus.items()):
        vdu_ids_by_name.setdefault((vdu or {}).get("name"), []).append(vdu_id)
    claims = {vdu_id: [] for vdu_id in vdus}
    for document in documents:
        name = name_of(document)
        if kind_of(document) not in WORKLOAD_KINDS or not isinstance(name, str) or not name:
            continue
        claimants = [vdu_id for vdu_name in vdu_names_of_workload(name) for vdu_id in vdu_ids_by_name.get(vdu_name, ())]
        if len(claimants) > 1:
            raise ValidationError(what, chart, "{0} answers to more than one VDU: {1}".format(describe(document), ", ".join(sorted(claimants))))
        if claimants:
            claims[claimants[0]].append(document)
    result = {}
    for vdu_id, found in sorted(claims.items()):
        vdu_name = (vdus[vdu_id] or {}).get("name")
        if not found:
            raise ValidationError(what, chart, "VDU {0} (name {1}) has no workload in the chart: a {2} named {1} or {1}-<release> is "
                                               "expected".format(vdu_id, vdu_name, "/".join(WORKLOAD_KINDS)))
        if len(found) > 1:
            raise ValidationError(what, chart, "VDU {0} (name {1}) matches more than one workload: {2}".format(
                vdu_id, vdu_name, ", ".join(describe(document) for document in found)))
        result[vdu_id] = found[0]
    return result


def replicas_of(workload):
    """The pods a rendered workload asks for: ``spec.replicas`` of a Deployment, ReplicaSet or StatefulSet (1 when
    left out, Kubernetes' default), 1 for a bare Pod, None for a DaemonSet (one pod per node, not a count)."""
    kind = kind_of(workload)
    if kind in SCALABLE_KINDS:
        replicas = (workload.get("spec") or {}).get("replicas")
        return 1 if replicas is None else replicas
    if kind == "Pod":
        return 1
    return None


def replica_mismatches(workloads, wanted):
    """VDU id -> ``(rendered, wanted)`` for each VDU whose rendered workload (:func:`workloads_by_vdu`) does not ask for
    the count the VNFM wants (``wanted``: VDU id -> count; None or absent: anything goes). A DaemonSet has no count to
    compare. A chart that ignores its replica value, or a VDU left out of helm_value_names, shows up here."""
    mismatches = {}
    for vdu_id, workload in sorted(workloads.items()):
        count = wanted.get(vdu_id)
        rendered = replicas_of(workload)
        if count is not None and rendered is not None and rendered != count:
            mismatches[vdu_id] = (rendered, count)
    return mismatches
