# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The role's result step (tasks/steps/result.yml), played by ansible-playbook on localhost with made-up results:
what it keeps and what it refuses, with no VIM."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

COLLECTIONS = Path(__file__).resolve().parents[6]  # .../collections (ansible_collections/nfv/vnflcm/tests/unit/roles)
SCALED = {"changed": True, "vnf_instance": {"id": "a", "instantiationState": "INSTANTIATED", "instantiatedVnfInfo": {
    "vnfcResourceInfo": [{"id": "x"}], "vnfcInfo": [{"id": "y"}]}}, "vnf_lcm_op_occ": {"id": "o", "operationState": "COMPLETED"}}


def play(tmp_path, result, operation="scale", before=(), **variables):
    """Plays steps/result.yml after the tasks ``before``; returns (rc, the facts it kept, the output)."""
    out = tmp_path / "kept.json"
    tasks = list(before) + [
        {"ansible.builtin.include_role": {"name": "nfv.vnflcm.vnf_lifecycle", "tasks_from": "steps/result"},
         "vars": dict(variables, vnf_lifecycle__operation=operation, vnf_lifecycle_result=result)},
        {"ansible.builtin.copy": {"dest": str(out), "content": "{{ {'instance': vnf_lifecycle_vnf_instance, "
                                                               "'op_occ': vnf_lifecycle_lcm_op_occ} | to_json }}"}}]
    playbook = tmp_path / "play.yml"
    playbook.write_text(yaml.safe_dump([{"hosts": "localhost", "connection": "local", "gather_facts": False, "tasks": tasks}]))
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=str(COLLECTIONS), ANSIBLE_LOCALHOST_WARNING="false",
               ANSIBLE_INVENTORY_UNPARSED_WARNING="false")
    done = subprocess.run([str(Path(sys.executable).parent / "ansible-playbook"), str(playbook)], capture_output=True, text=True,
                          env=env, check=False, timeout=120)
    return done.returncode, json.loads(out.read_text()) if out.exists() else None, done.stdout


def test_the_operation_s_result_is_kept_and_shown(tmp_path):
    rc, kept, output = play(tmp_path, SCALED)
    assert rc == 0, output
    assert kept == {"instance": SCALED["vnf_instance"], "op_occ": SCALED["vnf_lcm_op_occ"]}
    assert "SCALE of VNF instance a: changed" in output


def test_a_read_back_an_earlier_entry_point_registered_on_the_host_is_not_taken(tmp_path):
    earlier = {"name": "an earlier entry point's read-back", "ansible.builtin.set_fact": {
        "vnf_lifecycle__after": {"vnf_instances": [], "vnf_lcm_op_occs": []}}}
    rc, kept, output = play(tmp_path, SCALED, before=[earlier])
    assert rc == 0, output
    assert kept["instance"]["id"] == "a"


@pytest.mark.parametrize("operation, result, message", [
    ("scale", dict(SCALED, vnf_instance=dict(SCALED["vnf_instance"], instantiatedVnfInfo={"vnfcResourceInfo": []})),
     "Failed to verify the scale of VNF instance 'a': stored state INSTANTIATED (reported INSTANTIATED), 0 VNFC(s)"),
    ("terminate", SCALED, "Failed to verify the termination of VNF instance 'a': it is still INSTANTIATED"),
])
def test_a_result_that_does_not_hold_fails_with_what_is_wrong(tmp_path, operation, result, message):
    rc, _kept, output = play(tmp_path, result, operation)
    assert rc != 0 and message in output, output
    assert play(tmp_path, result, operation, vnf_lifecycle_verify=False)[0] == 0


def test_an_instance_that_is_not_there_keeps_nothing(tmp_path):
    rc, kept, output = play(tmp_path, {"changed": False, "vnf_instance": None}, "terminate")
    assert rc == 0 and kept == {"instance": {}, "op_occ": {}}, output
