# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One count model for both VIMs, Tacker's: a scale moves each VDU's current count by the deltas of its steps, within
the VDU's min/max; a change of package keeps the counts. With Tacker's own test_instantiate_cnf_resources VNFD, whose
instantiation level gives VDU2 2 VNFCs at vdu2_aspect level 1 (initial delta 2, delta 1, maximum 3)."""

from __future__ import annotations

import os

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import vnfc_counts
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import sizing


@pytest.fixture(scope="module")
def flavour(fixtures_dir):
    with load_package(os.path.join(fixtures_dir, "test_instantiate_cnf_resources")) as package:
        return package.flavour("simple")


def test_instantiate_takes_the_instantiation_level_and_its_scale_status(flavour):
    assert sizing.initial_replicas(flavour, "VDU2") == 2
    assert {item["aspectId"]: item["scaleLevel"] for item in sizing.initial_scale_status(flavour)}["vdu2_aspect"] == 1


def test_tackers_error_handling_scale_out_goes_from_2_to_3(flavour):
    # Counted from level 0 (initial delta 2 + 2 deltas) level 2 would need 4, over the maximum 3: Tacker counts from the VNFCs there are.
    assert sizing.counts_after(flavour, "vdu2_aspect", 1, 2, {"VDU2": 2}) == {"VDU2": 3}


def test_scale_in_and_out_are_symmetric_and_bounded_by_min_and_max(flavour):
    assert sizing.counts_after(flavour, "vdu2_aspect", 2, 1, {"VDU2": 3}) == {"VDU2": 2}
    assert sizing.counts_after(flavour, "vdu2_aspect", 1, 0, {"VDU2": 2}) == {"VDU2": 1}
    with pytest.raises(ValidationError, match="fewer than its minimum 1"):
        sizing.counts_after(flavour, "vdu2_aspect", 1, 0, {"VDU2": 1})
    with pytest.raises(ValidationError, match="more than its maximum 3"):
        sizing.counts_after(flavour, "vdu2_aspect", 1, 2, {"VDU2": 3})
    with pytest.raises(ValidationError) as error:
        sizing.counts_after(flavour, "vdu2_aspect", 2, 3, {"VDU2": 3})
    assert error.value.field == "numberOfSteps" and "outside 0..2" in error.value.msg


def test_scale_to_level_moves_the_counts_with_the_levels(flavour):
    changes = sizing.changed_levels({"vdu2_aspect": 1}, {"vdu2_aspect": 2})
    assert sizing.counts_at_levels(flavour, changes, {"VDU2": 2}) == {"VDU2": 3}


def test_a_vdu_without_a_current_count_starts_from_its_count_at_the_level(flavour):
    assert sizing.counts_after(flavour, "vdu2_aspect", 0, 1, {}) == {"VDU2": 3}


def test_a_change_of_package_keeps_the_counts_within_the_new_profile(flavour):
    counts, notes = sizing.kept_counts(flavour, {"VDU1": 1, "VDU2": 2}, {"VDU3": 1})
    assert counts["VDU2"] == 2 and counts["VDU3"] == 1 and notes[0] == "VDU3: 1 VNFCs (new in this VNFD)"
    counts, notes = sizing.kept_counts(flavour, {"VDU1": 4, "VDU2": 2}, {})
    assert counts["VDU1"] == 1 and "VDU1: 4 -> 1 VNFCs (the new VNFD's maximum)" in notes


def test_the_record_gives_the_current_counts_on_both_vims():
    vm = {"instantiatedVnfInfo": {"metadata": {"vnflcm": {"vnfcs": {"VDU1": [0, 1], "VDU2": [0]}}}}}
    cnf = {"instantiatedVnfInfo": {"metadata": {"vnflcm": {"vnfc_counts": {"VDU2": 2}}}}}
    older = {"instantiatedVnfInfo": {"vnfcResourceInfo": [{"vduId": "VDU2"}, {"vduId": "VDU2"}, {"vduId": "VDU1"}]}}
    assert vnfc_counts(vm) == {"VDU1": 2, "VDU2": 1}
    assert vnfc_counts(cnf) == {"VDU2": 2}
    assert vnfc_counts(older) == {"VDU2": 2, "VDU1": 1}


def test_the_level_a_vdus_live_count_stands_at_is_found_from_the_recorded_level_and_counts(flavour):
    # Recorded at level 1 with 2 VNFCs; a scale out killed after its replicas patch left 3: level 2.
    assert sizing.level_of_counts(flavour, "vdu2_aspect", 1, {"VDU2": 2}, {"VDU2": 3}) == 2
    assert sizing.level_of_counts(flavour, "vdu2_aspect", 1, {"VDU2": 2}, {"VDU2": 2}) == 1
    assert sizing.level_of_counts(flavour, "vdu2_aspect", 1, {"VDU2": 2}, {"VDU2": 1}) == 0
    # No level gives 7 (the maximum is 3), and a count of none of its VDUs says nothing.
    assert sizing.level_of_counts(flavour, "vdu2_aspect", 1, {"VDU2": 2}, {"VDU2": 7}) is None
    assert sizing.level_of_counts(flavour, "vdu2_aspect", 1, {"VDU2": 2}, {"VDU1": 3}) == 1
