# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""module_defaults for group/nfv.vnflcm.vnflcm with the OpenStack connection and the waiting options: every module of
the collection takes them and reaches Heat with them. Tier 1 is enough: no VNF is created (the tier-2 playbook tests
run whole lifecycles with the same defaults through the role)."""

from __future__ import annotations

import os

from ansible_collections.nfv.vnflcm.tests.integration.module_defaults_play import failure_of, run_with_group_defaults
from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import CLOUD, OLD, REQUEST

ABSENT = "defaults-vnf-absent"


def test_every_module_runs_with_the_groups_defaults(openstack_lab, tacker_packages, tmp_path):
    package = os.path.join(tacker_packages, OLD)
    defaults = {"cloud": CLOUD, "interface": "public", "wait": True, "timeout": 300, "wait_sleep": 1, "lease_seconds": 60}
    where = {"vnf_instance_name": ABSENT}
    tasks = [
        ("vnf_package_info", {"path": package}),
        ("vnf_info", {}),
        ("vnf_scale", dict(where, request={"type": "SCALE_OUT", "aspectId": "VDU1_scale"})),
        ("vnf_heal", dict(where, request={})),
        ("vnf_modify", dict(where, request={"vnfInstanceDescription": "set through module_defaults"})),
        ("vnf_change_pkg", dict(where, package=package, request={"vnfdId": "x", "additionalParams": {"upgrade_type": "RollingUpdate"}})),
        ("vnf_lcm_op_occ", dict(where, action="retry")),
        ("vnf_terminate", dict(where, request={"terminationType": "FORCEFUL"})),
        ("vnf_delete", where),
        # Check mode: the plan and Heat's preview, no stack.
        ("vnf_instantiate", {"package": package, "vnf_instance_name": ABSENT, "request": REQUEST}, "check"),
    ]
    results = run_with_group_defaults(tmp_path, defaults, tasks, env={"OS_CLIENT_CONFIG_FILE": str(openstack_lab.clouds_yaml)})
    by_module = {task[0]: result for task, result in zip(tasks, results)}

    assert not failure_of(by_module["vnf_package_info"]) and not failure_of(by_module["vnf_info"])
    assert ABSENT not in [item["vnfInstanceName"] for item in by_module["vnf_info"]["vnf_instances"]]
    assert by_module["vnf_info"]["vim_type"] == "openstack"
    for module, result in by_module.items():
        # Each reached Heat with the defaults: an absent instance is the module's own finding, not an argument error.
        message = failure_of(result)
        assert not message or message.startswith("Failed to"), "{0}: {1}".format(module, message)
    assert by_module["vnf_terminate"].get("changed") is False
    assert by_module["vnf_delete"].get("changed") is False and not failure_of(by_module["vnf_delete"])
