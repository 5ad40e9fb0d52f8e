# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The deadline's polling: intervals from first_sleep doubling up to sleep, never past the deadline."""

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.deadline import Deadline
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import OperationTimeout
from fake_clock import FakeClock


def polled_sleeps(deadline, clock, answers):
    sleeps = []

    def sleeper(seconds):
        sleeps.append(seconds)
        clock.sleep(seconds)
    deadline._sleeper = sleeper
    answers = iter(answers)
    return deadline.poll(lambda: next(answers), "x"), sleeps


def test_a_poll_without_first_sleep_sleeps_the_interval_each_time():
    clock = FakeClock()
    value, sleeps = polled_sleeps(Deadline(60, 2.0, clock, clock.sleep), clock, [None, None, None, "done"])
    assert value == "done" and sleeps == [2.0, 2.0, 2.0]


def test_a_poll_with_first_sleep_doubles_its_interval_up_to_sleep():
    clock = FakeClock()
    value, sleeps = polled_sleeps(Deadline(60, 2.0, clock, clock.sleep, first_sleep=0.25), clock, [None] * 6 + ["done"])
    assert value == "done" and sleeps == [0.25, 0.5, 1.0, 2.0, 2.0, 2.0]


def test_a_first_sleep_longer_than_sleep_is_cut_to_sleep():
    assert Deadline(60, 1.0, FakeClock(), first_sleep=5).first_sleep == 1.0


def test_the_last_sleep_ends_at_the_deadline_and_the_poll_times_out_after_a_last_check():
    clock = FakeClock()
    checks = []

    def never():
        checks.append(clock())
        return None
    deadline = Deadline(1.0, 2.0, clock, clock.sleep, first_sleep=0.25)
    with pytest.raises(OperationTimeout):
        deadline.poll(never, "x")
    assert checks == [0.0, 0.25, 0.75, 1.0]
