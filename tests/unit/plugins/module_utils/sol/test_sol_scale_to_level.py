# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""ScaleVnfToLevelRequest: its validation and the target levels it gives, against a flavour's sizing rules."""

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import levels_diff, scaled_aspects, with_scale_levels
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import sizing
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import validate_scale_to_level_request

# Two aspects, one VDU each; level_big puts a at 2 and leaves b out (so b goes to 0).
FLAVOUR = {
    "vdus": {"VDU1": {"vdu_profile": {"max_number_of_instances": 4}}, "VDU2": {}},
    "vdu_initial_delta": {"VDU1": 1, "VDU2": 1},
    "scaling_aspects": {
        "a": {"max_scale_level": 3, "step_deltas": ["d1"], "vdus": {"VDU1": {"d1": 1}}},
        "b": {"max_scale_level": 2, "step_deltas": ["d1"], "vdus": {"VDU2": {"d1": 2}}},
    },
    "instantiation_levels": {"level_small": {"scale_info": {"a": {"scale_level": 0}, "b": {"scale_level": 1}}},
                             "level_big": {"scale_info": {"a": {"scale_level": 2}}}},
    "default_instantiation_level": "level_small",
}
CURRENT = {"a": 0, "b": 1}


def field_of(body):
    with pytest.raises(ValidationError) as err:
        sizing.target_scale_levels(FLAVOUR, validate_scale_to_level_request(body), CURRENT)
    return err.value.field


def test_an_instantiation_level_sets_every_aspect_absent_ones_to_zero():
    request = validate_scale_to_level_request({"instantiationLevelId": "level_big"})
    assert sizing.target_scale_levels(FLAVOUR, request, CURRENT) == {"a": 2, "b": 0}


def test_scale_info_sets_the_aspects_it_names_and_keeps_the_others():
    request = validate_scale_to_level_request({"scaleInfo": [{"aspectId": "a", "scaleLevel": 3}]})
    assert sizing.target_scale_levels(FLAVOUR, request, CURRENT) == {"a": 3, "b": 1}


def test_only_the_changed_aspects_are_scaled_and_their_replicas_follow():
    changes = sizing.changed_levels(CURRENT, {"a": 2, "b": 1})
    assert changes == {"a": (0, 2)}
    assert sizing.counts_at_levels(FLAVOUR, changes, {"VDU1": 1, "VDU2": 3}) == {"VDU1": 3}
    assert sizing.changed_levels(CURRENT, dict(CURRENT)) == {}


@pytest.mark.parametrize("body, field", [
    ({}, "instantiationLevelId"),
    ({"instantiationLevelId": "level_big", "scaleInfo": []}, "instantiationLevelId"),
    ({"instantiationLevelId": "level_9"}, "instantiationLevelId"),
    ({"scaleInfo": [{"aspectId": "nope", "scaleLevel": 1}]}, "scaleInfo[0].aspectId"),
    ({"scaleInfo": [{"aspectId": "b", "scaleLevel": 0}, {"aspectId": "a", "scaleLevel": 4}]}, "scaleInfo[1].scaleLevel"),
    ({"scaleInfo": [{"aspectId": "a", "scaleLevel": 1}, {"aspectId": "a", "scaleLevel": 2}]}, "scaleInfo[1].aspectId"),
    ({"scaleInfo": [{"aspectId": "a", "scaleLevel": -1}]}, "scaleInfo[0].scaleLevel"),
    ({"scaleInfo": [{"aspectId": "a"}]}, "scaleInfo[0].scaleLevel"),
    ({"scaleInfo": [{"aspectId": "a", "scaleLevel": 1}], "numberOfSteps": 1}, "numberOfSteps"),
])
def test_a_bad_request_names_its_field(body, field):
    assert field_of(body) == field


def test_a_level_beyond_a_vdu_maximum_names_the_level():
    flavour = dict(FLAVOUR, vdus={"VDU1": {"vdu_profile": {"max_number_of_instances": 2}}, "VDU2": {}})
    with pytest.raises(ValidationError) as err:
        sizing.counts_at_levels(flavour, {"a": (0, 2)}, {"VDU1": 1})
    assert err.value.field == "scaleLevel" and "more than its maximum 2" in err.value.msg


def test_the_record_gets_the_new_levels():
    status = [{"aspectId": "a", "scaleLevel": 0}, {"aspectId": "b", "scaleLevel": 1}]
    assert with_scale_levels(status, {"a": 2}) == [{"aspectId": "a", "scaleLevel": 2}, {"aspectId": "b", "scaleLevel": 1}]
    assert levels_diff({"a": (0, 2)}) == {"before": {"scaleStatus": {"a": 0}}, "after": {"scaleStatus": {"a": 2}}}


def test_a_rollback_restores_the_aspects_the_failed_operation_changes():
    by_level = {"operation": "SCALE_TO_LEVEL", "operationParams": {"instantiationLevelId": "level_big"}}
    assert scaled_aspects(FLAVOUR, by_level, CURRENT) == ["a", "b"]
    by_aspect = {"operation": "SCALE_TO_LEVEL", "operationParams": {"scaleInfo": [{"aspectId": "b", "scaleLevel": 2}]}}
    assert scaled_aspects(FLAVOUR, by_aspect, CURRENT) == ["b"]
    assert scaled_aspects(FLAVOUR, {"operation": "SCALE", "operationParams": {"aspectId": "a"}}, CURRENT) == ["a"]
