# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Independent calls made a few at a time (common/pool.py) give what a loop making them one by one gives."""

from __future__ import annotations

import threading
import time

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common import activity, pool
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.deadline import retry_budget, retry_seconds
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError, VimError


class InFlight:
    """Counts the calls running at once; each call sleeps longer the earlier its item, so results come back out of order."""

    def __init__(self):
        self.lock = threading.Lock()
        self.now = self.most = 0
        self.threads = set()

    def __call__(self, item):
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
            self.threads.add(threading.get_ident())
        time.sleep(0.02 * (1 + (20 - item) % 5))
        with self.lock:
            self.now -= 1
        return item * 10


def test_results_come_in_input_order_with_no_more_calls_at_once_than_workers():
    calls = InFlight()
    assert pool.run_all(calls, range(20), workers=4) == [item * 10 for item in range(20)]
    assert 1 < calls.most <= 4
    assert threading.get_ident() not in calls.threads


def test_no_items_and_one_item_need_no_thread():
    calls = InFlight()
    assert pool.run_all(calls, []) == []
    assert pool.run_all(calls, [3]) == [30]
    assert calls.threads == {threading.get_ident()}


def test_the_first_failure_in_input_order_is_raised_as_it_was_raised_even_when_a_later_one_ends_first():
    early = ValidationError("InstantiateVnfRequest", "Files/kubernetes/a.yaml", "refused")

    def call(item):
        if item == 1:
            time.sleep(0.2)
            raise early
        if item == 2:
            raise VimError("create", "ConfigMap ns/b", "forbidden")
        return item

    with pytest.raises(ValidationError) as caught:
        pool.run_all(call, range(4), workers=4)
    assert caught.value is early
    assert "Files/kubernetes/a.yaml" in str(caught.value)


def test_after_a_failure_no_call_that_has_not_started_is_made():
    started = []

    def call(item):
        started.append(item)
        if item == 0:
            raise VimError("create", "Secret ns/s0", "quota exceeded")
        # Long enough for the failing worker to record its failure even when the machine is busy (0.1 s once was not).
        time.sleep(1)
        return item

    with pytest.raises(VimError):
        pool.run_all(call, range(50), workers=2)
    assert set(started) <= {0, 1}


def test_settle_gives_every_outcome_so_that_the_caller_can_record_what_was_done():
    all_started = threading.Barrier(3, timeout=5)

    def call(item):
        all_started.wait()
        if item == 1:
            raise VimError("create", "Secret ns/s1", "quota exceeded")
        return item

    outcomes = pool.settle(call, range(3), workers=3)
    assert [outcome.result for outcome in outcomes if outcome.error is None] == [0, 2]
    assert isinstance(outcomes[1].error, VimError)


def test_worker_threads_retry_within_the_callers_budget():
    with retry_budget(5):
        budgets = pool.run_all(lambda item: retry_seconds(30), range(8), workers=4)
    assert all(0 < seconds <= 5 for seconds in budgets)
    assert pool.run_all(lambda item: retry_seconds(30), range(8), workers=4) == [30] * 8


def test_an_error_not_of_the_collection_reaches_the_caller_as_it_is_naming_the_call_it_failed_in():
    def call(item):
        activity.note("create", "Deployment ns/vdu{0}".format(item))
        if item == 3:
            raise KeyError("spec")
        return item

    activity.note("read", "Secret ns/record")
    with pytest.raises(KeyError):
        pool.run_all(call, range(6), workers=3)
    assert activity.last_step() == "create Deployment ns/vdu3"
    activity.forget()


def test_call_each_makes_calls_of_no_argument():
    assert pool.call_each([lambda: 1, lambda: 2, lambda: 3]) == [1, 2, 3]
