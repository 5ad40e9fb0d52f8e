# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One (namespace, name), one instance: pairs of instantiates of one new name started together on the lab.

Each pair runs the Kubernetes path of vnf_instantiate (run_instantiate of lcm/cnf/instantiate.py, what the module runs once its
options are parsed) in two threads released by one barrier, each with its own API client, against the real API server: both find
no instance of the name and plan one, so both reach the record's first write. The name claim (k8s/store.py) lets one
through; the other must be refused before writing anything, saying which run creates the instance, or (when it came
later) find that instance. Threads rather than two ansible-playbook runs per pair: the race is at the API server, and
50 pairs of ansible-playbook starts would cost minutes of the suite for the same two requests.
"""

from __future__ import annotations

import os

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import VnfLcmError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.record import name_claim_name
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.instantiate import run_instantiate
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.modify import run_modify
from ansible_collections.nfv.vnflcm.tests.integration.faults import started_together

PAIRS = 50
NO_NS = "Files/kubernetes/deployment_no_namespace.yaml"
WITH_NS = "Files/kubernetes/deployment_has_namespace.yaml"  # another Deployment (its namespace is rewritten to the request's)


def params(kubeconfig, package, namespace, name, def_file=NO_NS):
    """vnf_instantiate's options as the module hands them to its run (its defaults included)."""
    return {"kubeconfig": kubeconfig, "package": package, "vnf_instance_name": name, "vnf_instance_id": None, "vnf_instance_description": None,
            "namespace": None, "namespace_policy": "rewrite", "allow_cluster_scoped": False, "allow_package_scripts": False,
            "request": {"flavourId": "simple", "additionalParams": {"namespace": namespace, "lcm-kubernetes-def-files": [def_file]}},
            "wait": False, "wait_timeout": 60, "wait_sleep": 1}


def test_of_two_instantiates_of_one_name_started_together_one_creates_it_the_other_writes_nothing(k8s_lab, kube, k8s_namespace, tacker_packages):
    package = os.path.join(tacker_packages, "test_cnf_multi_ns")
    spaces = ["{0}-{1}".format(k8s_namespace[:50], index) for index in range(PAIRS)]
    for space in spaces:
        kube.call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": space}})
    refused = found = 0
    try:
        for space in spaces:
            outcomes = started_together(run_instantiate, params(str(k8s_lab.kubeconfig), package, space, "racer"))
            records = kube.call("GET", "/api/v1/namespaces/{0}/secrets?labelSelector=vnflcm.nfv/record%3Dvnf-instance".format(space))["items"]
            # One record, one Deployment, both of one instance; the claim names it.
            assert len(records) == 1, (space, outcomes)
            winner = records[0]["metadata"]["labels"]["vnflcm.nfv/instance-id"]
            deployments = kube.call("GET", "/apis/apps/v1/namespaces/{0}/deployments".format(space))["items"]
            assert [item["metadata"]["labels"]["vnflcm.nfv/instance-id"] for item in deployments] == [winner], (space, outcomes)
            claim = kube.call("GET", "/api/v1/namespaces/{0}/secrets/{1}".format(space, name_claim_name("racer")))
            assert claim["metadata"]["labels"]["vnflcm.nfv/instance-id"] == winner
            succeeded = [result for result, _error in outcomes if result]
            assert succeeded and all(result["vnf_instance"]["id"] == winner for result in succeeded), (space, outcomes)
            assert any(result["changed"] for result in succeeded), outcomes
            for result, error in outcomes:
                if error is not None:
                    # Refused at the claim, or (a step later) by the winner's running operation: either says what to wait for.
                    assert ("instance 'racer' is being created by run" in error and winner in error) or "PROCESSING" in error, error
                    refused += 1
                elif not result["changed"]:
                    found += 1
        # A rename to the name another instance of the namespace has is refused before any write; to a free name, the
        # instance claims that name too (both claims go with its identifier).
        other = run_instantiate(params(str(k8s_lab.kubeconfig), package, spaces[0], "other", WITH_NS))["vnf_instance"]
        rename = dict(params(str(k8s_lab.kubeconfig), package, spaces[0], "other"), namespace=spaces[0], package=None, delete_removed=False,
                      request={"vnfInstanceName": "racer"})
        with pytest.raises(VnfLcmError, match="Failed to rename a VNF instance to 'racer' in namespace {0}: VNF instance .* has that name"
                                              .format(spaces[0])):
            run_modify(rename)
        assert run_modify(dict(rename, request={"vnfInstanceName": "other-2"}))["vnf_instance"]["vnfInstanceName"] == "other-2"
        claim = kube.call("GET", "/api/v1/namespaces/{0}/secrets/{1}".format(spaces[0], name_claim_name("other-2")))
        assert claim["metadata"]["labels"]["vnflcm.nfv/instance-id"] == other["id"]
    finally:
        for space in spaces:
            kube.request("DELETE", "/api/v1/namespaces/" + space)
    # Both ways of losing happen: mostly the claim (both planned before either wrote).
    assert refused + found == PAIRS and refused > 0, (refused, found)
