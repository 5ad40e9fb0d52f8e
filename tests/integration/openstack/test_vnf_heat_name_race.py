# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One name, one instance in a project's Heat stacks: pairs of instantiates of one new name started together.

As on Kubernetes (k8s/test_cnf_name_race.py), each pair runs the OpenStack path of vnf_instantiate (run_instantiate of lcm/vm/instantiate.py) in
two threads released by one barrier, each with its own connection, against the lab's real Heat: both find no instance
of the name and plan one, so both reach the record's first write, where the name is claimed (heat/name_claim.py). Heat
lets two creates of one stack name in at once (the claim looks again after its create for that): the test holds 0
duplicates whatever Heat did. A pair creates a real stack (about 8 s on the lab), so the package is userdata_standard
with a BaseHOT of no server, and each pair's stack is deleted once checked (Heat's default quota is 100 stacks a
project, and the other tier-2 tests create theirs meanwhile).

The lab's Heat runs its engine in threads (tools/lab/openstack/heat_all.py), where two stack creates at one moment
could send a trust request with the stack domain admin's domain-scoped token, which Keystone refuses (HTTP 403; 3 of
about 150 creates before the lab serialised Heat's Keystone calls, 0 of 150 since). Should it happen, that run failed
before writing anything, as a run meeting any VIM error there does: it is counted apart.
"""

from __future__ import annotations

import os
import shutil
import uuid

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.args import merge_arg_groups
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import VnfLcmError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.name_claim import CLAIM_TAG
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import name_tag
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.instantiate import run_instantiate
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.modify import run_modify
from ansible_collections.nfv.vnflcm.tests.integration.faults import started_together
from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import CLOUD, REQUEST, delete_stacks, record_of

pytestmark = pytest.mark.tier2

# Each pair is a real race at the record's first write, checked whole (0 duplicates, no claim left, the loser names the
# winner); 50 pairs took a worker 27 minutes of the suite on a busy lab for no outcome 20 do not show.
PAIRS = 20
SERVERLESS_HOT = """heat_template_version: 2013-05-23
description: sample3 without servers (the race is at the record's first write, not in Nova)
parameters:
  nfv:
    type: json
resources:
  VDU1:
    type: OS::Heat::None
  VDU2:
    type: OS::Heat::None
"""


@pytest.fixture(scope="module")
def serverless_package(tacker_packages, tmp_path_factory):
    root = tmp_path_factory.mktemp("race") / "userdata_standard_serverless"
    shutil.copytree(os.path.join(tacker_packages, "userdata_standard"), root)
    shutil.rmtree(root / "BaseHOT" / "simple" / "nested")
    (root / "BaseHOT" / "simple" / "sample3.yaml").write_text(SERVERLESS_HOT)
    return str(root)


def params(package, name):
    """vnf_instantiate's options as the module hands them to its run (its defaults included)."""
    spec = merge_arg_groups({"allow_package_scripts": {"default": False}}, ("openstack", "wait"))
    result = {key: option.get("default") for key, option in spec.items()}
    result.update(package=package, request=REQUEST, vnf_instance_name=name, vnf_instance_id=None, vnf_instance_description=None,
                  namespace=None, cloud=CLOUD, wait_sleep=1)
    return result


def stack_of(admin_conn, name, outcomes=None):
    """The one stack of instance ``name`` (every stack of an instance is tagged with its name from its create on)."""
    stacks = [stack.name for stack in admin_conn.orchestration.stacks(tags=name_tag(name))]
    assert len(stacks) == 1, (name, stacks, outcomes)
    return stacks[0]


def test_of_two_instantiates_of_one_name_started_together_one_creates_it_the_other_writes_nothing(lab, admin_conn, serverless_package):
    run = uuid.uuid4().hex[:6]
    names = ["racer-{0}-{1}".format(run, index) for index in range(PAIRS)]
    refused = found = heat_refused = 0
    try:
        for name in names:
            outcomes = started_together(run_instantiate, params(serverless_package, name))
            # One stack, one record, of one instance; no claim left.
            stack = stack_of(admin_conn, name, outcomes)
            winner = record_of(admin_conn, stack)[0]
            assert winner["vnfInstanceName"] == name and stack == "vnf-" + winner["id"]
            claims = [stack for stack in admin_conn.orchestration.stacks(tags=CLAIM_TAG) if stack.name == name_tag(name)]
            assert all(stack.status.startswith("DELETE") for stack in claims), (name, claims)
            succeeded = [result for result, _error in outcomes if result]
            assert succeeded and all(result["vnf_instance"]["id"] == winner["id"] for result in succeeded), (name, outcomes)
            assert any(result["changed"] for result in succeeded), outcomes
            for result, error in outcomes:
                if error is not None and "Failed to create stack" in error and "HTTP 403" in error:
                    heat_refused += 1  # the lab's Heat (above): nothing was written
                elif error is not None:
                    # Refused at the claim, or (a step later) by the winner's record: either names the winner.
                    assert winner["id"] in error and ("instance {0!r} is being created by run".format(name) in error
                                                      or "has that name" in error or "PROCESSING" in error), error
                    refused += 1
                elif not result["changed"]:
                    found += 1
            if name not in names[:2]:  # the first two stay for the renames below
                admin_conn.orchestration.delete_stack(admin_conn.orchestration.find_stack(stack))
        # A rename to a name another instance has is refused before any write; to a free name it claims that name.
        first, second, renamed = names[0], names[1], names[0] + "-renamed"
        rename = dict(params(serverless_package, first), package=None, delete_removed=False, request={"vnfInstanceName": second})
        with pytest.raises(VnfLcmError, match="Failed to rename a VNF instance to {0!r} in the Heat stacks of this project: VNF "
                                              "instance .* has that name".format(second)):
            run_modify(rename)
        assert record_of(admin_conn, stack_of(admin_conn, first))[1][0]["operation"] == "INSTANTIATE"
        result = run_modify(dict(rename, request={"vnfInstanceName": renamed}))
        assert result["changed"] and result["vnf_instance"]["vnfInstanceName"] == renamed
        assert not [stack for stack in admin_conn.orchestration.stacks() if stack.name == name_tag(renamed) and not stack.status.startswith("DELETE")]
    finally:
        delete_stacks(admin_conn, [stack for stack in admin_conn.orchestration.stacks() if any(name_tag(name) in (stack.tags or ()) for name in names)])
    print("{0} pairs: {1} losers refused, {2} found the instance, {3} refused by Heat".format(PAIRS, refused, found, heat_refused))
    assert refused + found + heat_refused == PAIRS and refused > 0, (refused, found, heat_refused)
