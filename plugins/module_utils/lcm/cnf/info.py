# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vnf_info of CNFs: the records of the session's namespace (``namespace``, else the context's, else default), and with
``drift`` what differs between each instantiated one's live objects and its record (k8s/drift.py)."""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import drift
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.claims import CLAIM_OF
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import kind_of, name_of, object_of, ref
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.vnfc import vdu_objects, vdu_records
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import private_state, vnfc_counts
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.info import records_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED

# Their content is not in the record (a Secret's data must never be): only whether they are there.
CONTENT_NOT_RECORDED = ("ConfigMap", "Secret")


def run_info(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """One instance or all; ``drift``: each instantiated one's drift."""
    kube = session.connect(params)
    result = records_of(params, kube.store())
    if params.get("drift"):
        result["drift"] = [instance_drift(kube.api, instance) for instance in result["vnf_instances"]
                           if instance.get("instantiationState") == INSTANTIATED]
    return result


def instance_drift(api, instance):
    """``{vnfInstanceId, vnfInstanceName, drifted, compared, objects}``: each object of the record that is missing or
    changed (its fields), and each unexpected one (k8s/drift.py), with its def file and VDU where it has them.
    ``compared``: ``fields``, or ``presence`` for a record that keeps no deployed manifests (a Helm chart's CNF, a record
    of an older version), whose objects are only looked for."""
    state = private_state(instance)
    vdus = vdu_records(state.get("resources"), (state.get("flavour") or {}).get("vdus"))
    vdu_of = {(kind_of(record), name_of(record)): vdu_id for vdu_id, record in vdus.items()}
    workloads = {(kind_of(obj), name_of(obj)): obj for obj in vdu_objects(vdus, state.get("deployed"), vnfc_counts(instance)).values()}
    deployed = {(kind_of(record), name_of(record)): record for record in state.get("deployed") or ()}
    autoscaled = drift.autoscaled([object_of(record) for record in deployed.values()])
    # A StatefulSet's claims are its controller's, which makes them again.
    references = [item for item in state.get("resources") or () if not item.get(CLAIM_OF)]
    live, unexpected = drift.live_objects(api, instance["id"], references)
    objects = []
    for item in references:
        key = (item["kind"], item["name"])
        entry = dict(item)
        if (deployed.get(key) or {}).get("file"):
            entry["file"] = deployed[key]["file"]
        if key in vdu_of:
            entry["vdu"] = vdu_of[key]
        obj = live.get((item["apiVersion"], item["kind"], item.get("namespace"), item["name"]))
        if obj is None:
            objects.append(dict(entry, status=drift.MISSING))
            continue
        manifest = workloads.get(key) or object_of(deployed.get(key) or {})
        if not manifest or item["kind"] in CONTENT_NOT_RECORDED:
            continue
        found = drift.object_drift(api, manifest, obj, ("spec.replicas",) if key in autoscaled else ())
        if found:
            objects.append(dict(entry, **found))
    objects += [dict(ref(obj), status=drift.UNEXPECTED) for obj in unexpected]
    return {"vnfInstanceId": instance["id"], "vnfInstanceName": instance.get("vnfInstanceName"), "drifted": len(objects),
            "compared": "fields" if deployed else "presence", "objects": objects}
