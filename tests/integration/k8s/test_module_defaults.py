# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""module_defaults for group/nfv.vnflcm.vnflcm with the Kubernetes connection and the waiting options: every module
of the collection runs a CNF's lifecycle with them (a namespaced ServiceAccount's kubeconfig)."""

from __future__ import annotations

import os

from ansible_collections.nfv.vnflcm.tests.integration.module_defaults_play import failure_of, run_with_group_defaults


def test_every_module_runs_with_the_groups_defaults(k8s_tenant, tacker_packages, tmp_path):
    namespace = k8s_tenant.namespace
    package = os.path.join(tacker_packages, "test_cnf_multi_ns")
    defaults = {"kubeconfig": str(k8s_tenant.kubeconfig), "validate_certs": True, "wait": True, "wait_timeout": 300,
                "wait_sleep": 1, "lease_seconds": 60, "namespace": namespace}
    # The namespace too comes from the group's defaults: every module takes it (vnf_instantiate as the CNF's namespace,
    # the request naming none).
    where = {"vnf_instance_name": "defaults-cnf"}
    tasks = [
        ("vnf_package_info", {"path": package}),
        ("vnf_instantiate", {"package": package, "vnf_instance_name": "defaults-cnf", "request": {
            "flavourId": "simple",
            "additionalParams": {"lcm-kubernetes-def-files": ["Files/kubernetes/deployment_no_namespace.yaml"]}}}),
        ("vnf_info", where),
        ("vnf_scale", dict(where, request={"type": "SCALE_OUT", "aspectId": "vdu2_aspect"})),
        ("vnf_heal", dict(where, request={})),
        ("vnf_modify", dict(where, request={"vnfInstanceDescription": "set through module_defaults"})),
        # Nothing failed, so there is no operation occurrence to retry: nothing to do.
        ("vnf_lcm_op_occ", dict(where, action="retry")),
        # The change of package is OpenStack-only for now: the module says so.
        ("vnf_change_pkg", dict(where, package=package, request={"vnfdId": "x"})),
        ("vnf_terminate", dict(where, request={"terminationType": "FORCEFUL"})),
        ("vnf_delete", where),
    ]
    results = run_with_group_defaults(tmp_path, defaults, tasks)
    by_module = {task[0]: result for task, result in zip(tasks, results)}

    for module in ("vnf_package_info", "vnf_instantiate", "vnf_info", "vnf_scale", "vnf_heal", "vnf_modify", "vnf_lcm_op_occ",
                   "vnf_terminate", "vnf_delete"):
        assert not failure_of(by_module[module]), "{0}: {1}".format(module, failure_of(by_module[module]))
    assert by_module["vnf_instantiate"]["vnf_instance"]["metadata"]["namespace"] == namespace
    assert by_module["vnf_instantiate"]["plan"]["namespace_reason"] == "option"
    assert [item["vnfInstanceName"] for item in by_module["vnf_info"]["vnf_instances"]] == ["defaults-cnf"]
    assert by_module["vnf_modify"]["vnf_instance"]["vnfInstanceDescription"] == "set through module_defaults"
    assert by_module["vnf_terminate"]["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    assert by_module["vnf_delete"]["changed"] is True and by_module["vnf_delete"]["vnf_instance"]["vnfInstanceName"] == "defaults-cnf"
    assert by_module["vnf_lcm_op_occ"]["changed"] is False
    assert failure_of(by_module["vnf_change_pkg"]).startswith("Failed to")
