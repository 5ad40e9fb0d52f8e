# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Drift of a CNF of def files, found: what differs between its live objects and what its record (and its package, for
ConfigMaps and Secrets, when given) say they are (k8s/drift.py compares one object). For vnf_info's ``drift`` and a
re-run of vnf_instantiate; lcm/cnf/reconcile.py repairs it. Reads only: vnf_info carries this, not the repair.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.pool import run_all
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import drift as k8s_drift
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.claims import CLAIM_OF
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import kind_of, name_of, object_of, ref
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.vnfc import vdu_objects, vdu_records
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import private_state, vnfc_counts

# Their content is not in the record (a Secret's data must never be): only whether they are there, unless the package
# that holds it is given.
CONTENT_NOT_RECORDED = ("ConfigMap", "Secret")


def instance_drift(api, instance, config_manifests=None):
    """``{vnfInstanceId, vnfInstanceName, drifted, compared, objects}``: each object of the record that is missing or
    changed (its fields), and each unexpected one (k8s/drift.py), with its def file and VDU where it has them.
    ``compared``: ``fields``, or ``presence`` for a record that keeps no deployed manifests (a Helm chart's CNF, a record
    of an older version), whose objects are only looked for."""
    return drift_report(instance, found_drift(api, instance, config_manifests))


def drift_report(instance, found):
    """The report of :func:`found_drift`'s answer."""
    objects = [item["entry"] for item in found]
    return {"vnfInstanceId": instance["id"], "vnfInstanceName": instance.get("vnfInstanceName"), "drifted": len(objects),
            "compared": "fields" if private_state(instance).get("deployed") else "presence", "objects": objects}


def found_drift(api, instance, config_manifests=None):
    """Each drifted object: ``{"entry": its report entry, "manifest": the object as it should be (None: not known, such
    as a ConfigMap's content without its package), "live": the live object (None: missing), "expected": the API server's
    dry-run answer (changed only)}``. ``config_manifests``: ``{(kind, name): labelled manifest}`` of the package's
    ConfigMaps and Secrets, compared like the rest when given."""
    state = private_state(instance)
    vdus = vdu_records(state.get("resources"), (state.get("flavour") or {}).get("vdus"))
    vdu_of = {(kind_of(record), name_of(record)): vdu_id for vdu_id, record in vdus.items()}
    deployed = {(kind_of(record), name_of(record)): record for record in state.get("deployed") or ()}
    manifests = {key: object_of(record) for key, record in deployed.items() if key[0] not in CONTENT_NOT_RECORDED}
    manifests.update({(kind_of(obj), name_of(obj)): obj for obj in vdu_objects(vdus, state.get("deployed"), vnfc_counts(instance)).values()})
    manifests.update(config_manifests or {})
    autoscaled = k8s_drift.autoscaled(list(manifests.values()))
    for key in autoscaled & set(manifests):
        manifests[key] = k8s_drift.without_replicas(manifests[key])
    # A StatefulSet's claims are its controller's, which makes them again.
    references = [item for item in state.get("resources") or () if not item.get(CLAIM_OF)]
    live, unexpected = k8s_drift.live_objects(api, instance["id"], references)
    found, compared = [], []
    for item in references:
        key = (item["kind"], item["name"])
        entry = dict(item)
        if (deployed.get(key) or {}).get("file"):
            entry["file"] = deployed[key]["file"]
        if key in vdu_of:
            entry["vdu"] = vdu_of[key]
        drifted = {"entry": entry, "manifest": manifests.get(key), "live": live.get((item["apiVersion"], item["kind"], item.get("namespace"), item["name"]))}
        if drifted["live"] is None:
            entry["status"] = k8s_drift.MISSING
            found.append(drifted)
        elif drifted["manifest"]:
            compared.append(drifted)

    def compare(drifted):
        key = (drifted["entry"]["kind"], drifted["entry"]["name"])
        drifted["expected"], fields = k8s_drift.object_drift(api, drifted["manifest"], drifted["live"], ("spec.replicas",) if key in autoscaled else ())
        drifted["entry"].update(fields or {})
        return drifted if fields else None

    # The dry runs store nothing: they are made side by side (common/pool.py).
    found += [drifted for drifted in run_all(compare, compared) if drifted]
    order = {(item["kind"], item["name"]): index for index, item in enumerate(references)}
    found.sort(key=lambda drifted: order[(drifted["entry"]["kind"], drifted["entry"]["name"])])
    found += [{"entry": dict(ref(obj), status=k8s_drift.UNEXPECTED), "manifest": None, "live": obj} for obj in unexpected]
    return found
