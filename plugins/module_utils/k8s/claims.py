# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The PersistentVolumeClaims a StatefulSet's volumeClaimTemplates made, and who deletes them when it goes (pure).

The StatefulSet controller creates, in the StatefulSet's namespace, one claim per template and pod ordinal, named
``<template name>-<statefulset name>-<ordinal>`` and labelled with the StatefulSet's ``selector.matchLabels``. They
outlive the StatefulSet unless its ``spec.persistentVolumeClaimRetentionPolicy.whenDeleted`` is ``Delete`` (the
controller then makes the StatefulSet their owner, and the garbage collector deletes them with it). Tacker v2's
terminate deletes them; so does this collection, unless the StatefulSet says ``whenDeleted: Retain`` itself.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.manifests import ref

# What terminate does with the claims of a StatefulSet.
DELETE = "delete"                    # no policy of its own: deleted, as Tacker does
DELETED_BY_KUBERNETES = "deleted by Kubernetes"   # whenDeleted: Delete: the garbage collector deletes them; we wait
KEEP = "keep"                        # whenDeleted: Retain: left, as the StatefulSet asks
# Where a claim reference (in a plan or a record) keeps what makes a live claim this StatefulSet's: the claims carry
# none of the instance's labels (the controller writes theirs), so a later terminate checks name and labels instead.
CLAIM_OF = "claimOf"


def claim_action(statefulset):
    """DELETE, DELETED_BY_KUBERNETES or KEEP, from the StatefulSet's own persistentVolumeClaimRetentionPolicy: give it as
    its manifest declares it, as the API server defaults the policy to ``Retain`` on every StatefulSet it stores."""
    policy = ((statefulset.get("spec") or {}).get("persistentVolumeClaimRetentionPolicy") or {}).get("whenDeleted")
    return {"Retain": KEEP, "Delete": DELETED_BY_KUBERNETES}.get(policy, DELETE)


def template_names(statefulset):
    return [template["metadata"]["name"] for template in (statefulset.get("spec") or {}).get("volumeClaimTemplates") or []
            if isinstance(template, dict) and (template.get("metadata") or {}).get("name")]


def ordinals(statefulset):
    """The ordinals of its pods: ``spec.ordinals.start`` (0 unless set) onwards, ``spec.replicas`` (1 unless set) of them."""
    spec = statefulset.get("spec") or {}
    start = (spec.get("ordinals") or {}).get("start") or 0
    replicas = spec.get("replicas")
    return range(start, start + (1 if replicas is None else replicas))


def claim_names(statefulset):
    """The names of the claims its templates give its current pods, template by template."""
    name = statefulset["metadata"]["name"]
    return ["{0}-{1}-{2}".format(template, name, ordinal) for template in template_names(statefulset) for ordinal in ordinals(statefulset)]


def is_claim_of(claim, statefulset):
    """Whether a live claim is one the StatefulSet's templates made: for one of its ordinals, or a higher one a scale in
    left (the controller keeps those unless ``whenScaled: Delete``), with the labels of its selector."""
    name = claim["metadata"]["name"]
    if name not in claim_names(statefulset):
        prefixes = ["{0}-{1}-".format(template, statefulset["metadata"]["name"]) for template in template_names(statefulset)]
        if not any(name.startswith(prefix) and name[len(prefix):].isdigit() for prefix in prefixes):
            return False
    selector = ((statefulset.get("spec") or {}).get("selector") or {}).get("matchLabels") or {}
    labels = claim["metadata"].get("labels") or {}
    return all(labels.get(key) == value for key, value in selector.items())


def claims_of(statefulset, claims):
    """Those of ``claims`` (live, of its namespace) that the StatefulSet made, in name order of its ordinals."""
    expected = claim_names(statefulset)
    found = [claim for claim in claims if is_claim_of(claim, statefulset)]
    return sorted(found, key=lambda claim: (claim["metadata"]["name"] not in expected, claim["metadata"]["name"]))


def claim_ref(claim, statefulset):
    """How a plan or a record names a claim of ``statefulset``: its ref, and what tells it is that StatefulSet's."""
    spec = statefulset.get("spec") or {}
    return dict(ref(dict(claim, apiVersion="v1", kind="PersistentVolumeClaim")), **{CLAIM_OF: {
        "statefulset": statefulset["metadata"]["name"], "templates": template_names(statefulset),
        "matchLabels": dict((spec.get("selector") or {}).get("matchLabels") or {})}})


def is_claim_named_by(claim, reference):
    """Whether a live claim is still the one ``reference`` (a :func:`claim_ref`) names."""
    owner = reference.get(CLAIM_OF)
    if not owner:
        return False
    statefulset = {"metadata": {"name": owner["statefulset"]},
                   "spec": {"replicas": 0, "volumeClaimTemplates": [{"metadata": {"name": name}} for name in owner.get("templates") or []],
                            "selector": {"matchLabels": owner.get("matchLabels") or {}}}}
    return claim["metadata"]["name"] == reference["name"] and is_claim_of(claim, statefulset)
