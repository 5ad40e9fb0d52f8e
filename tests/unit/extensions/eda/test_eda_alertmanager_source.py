# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The nfv.vnflcm.alertmanager event source over HTTP: a real server on 127.0.0.1 (a free port), a real client."""

from __future__ import annotations

import asyncio
import functools
import json

import aiohttp
import pytest

from ansible_collections.nfv.vnflcm.extensions.eda.plugins.event_source import alertmanager
from ansible_collections.nfv.vnflcm.plugins.module_utils.eda.gather import Gatherer
from ansible_collections.nfv.vnflcm.tests.unit.fake_clock import FakeClock
from ansible_collections.nfv.vnflcm.tests.unit.plugins.module_utils.eda.test_eda_gather import body, heal_alert, scale_alert

WINDOW = 0.3


def run_source(exchange, clock=None, **args):
    """Start the source, run ``await exchange(post, get, queue)``, stop it; returns the exchange's answer. With ``clock``,
    the source's windows follow it, not the wall clock: a busy machine cannot end a window between two posts."""
    if clock is not None:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(alertmanager, "Gatherer", functools.partial(Gatherer, clock=clock))
            return run_source(exchange, **args)

    async def scenario():
        queue = asyncio.Queue()
        opts = alertmanager.options(dict({"host": "127.0.0.1", "port": 0, "heal_window": WINDOW}, **args))
        started = asyncio.get_running_loop().create_future()
        server = asyncio.ensure_future(alertmanager.serve(queue, opts, started))
        port = await asyncio.wait_for(started, 10)
        base = "http://127.0.0.1:{0}".format(port)
        try:
            async with aiohttp.ClientSession() as session:
                async def post(payload, headers=None, raw=None, path="/alerts"):
                    data = raw if raw is not None else json.dumps(payload).encode("utf-8")
                    async with session.post(base + path, data=data, headers=headers or {}) as response:
                        is_json = response.content_type == "application/json"
                        return response.status, (await response.json()) if is_json else await response.text()

                async def get(path):
                    async with session.get(base + path) as response:
                        return response.status, await response.json()

                return await exchange(post, get, queue)
        finally:
            server.cancel()
            with pytest.raises(asyncio.CancelledError):
                await server
    return asyncio.run(scenario())


async def events_after_window(queue, expected, timeout=10.0):
    """The events the source puts on ``queue``: the ``expected`` ones awaited (a busy machine ends a window late), then one
    more window for any extra one."""
    loop = asyncio.get_running_loop()
    deadline, events = loop.time() + timeout, []
    while len(events) < expected:
        try:
            events.append(await asyncio.wait_for(queue.get(), max(0.0, deadline - loop.time())))
        except asyncio.TimeoutError:
            break
    await asyncio.sleep(WINDOW + 0.2)
    return events + drain(queue)


def drain(queue):
    events = []
    while not queue.empty():
        events.append(queue.get_nowait())
    return events


def test_health_answers_once_listening():
    async def exchange(post, get, queue):
        return await get("/alerts/health")
    assert run_source(exchange) == (200, {"status": "ok"})


def test_hundred_alerts_one_heal_event_after_the_window():
    clock = FakeClock()

    async def exchange(post, get, queue):
        # One VNFC, 100 alerts: same labels, each firing at its own time (a new alert each, as Alertmanager sees it).
        answers = [await post(body(*[heal_alert(starts="2026-01-02T03:{0:02d}:{1:02d}Z".format(batch, n)) for n in range(25)]))
                   for batch in range(4)]
        assert queue.empty()
        clock.sleep(WINDOW)
        return answers, await events_after_window(queue, 1)
    answers, events = run_source(exchange, clock=clock)
    assert answers == [(200, {"status": "ok", "accepted": 25, "duplicates": 0, "ignored": 0, "ignored_why": {}, "rejected": 0, "rejected_alerts": []})] * 4
    [event] = events
    assert event["nfv_vnflcm"]["vnfc_info_ids"] == ["VDU1-a"] and len(event["nfv_vnflcm"]["alerts"]) == 100


def test_scale_at_once_and_duplicates_counted():
    async def exchange(post, get, queue):
        first = await post(body(scale_alert(), scale_alert(scale_type="SCALE_IN"), heal_alert(status="resolved")))
        again = await post(body(scale_alert(fingerprint="another")))
        return first, again, drain(queue)
    first, again, events = run_source(exchange)
    assert first == (200, {"status": "ok", "accepted": 2, "duplicates": 0, "ignored": 1, "ignored_why": {"resolved": 1}, "rejected": 0, "rejected_alerts": []})
    # The same labels and startsAt: the same alert, whatever fingerprint the sender gives.
    assert again == (200, {"status": "ok", "accepted": 0, "duplicates": 1, "ignored": 0, "ignored_why": {}, "rejected": 0, "rejected_alerts": []})
    assert [event["nfv_vnflcm"]["function_type"] for event in events] == ["auto_scale", "auto_scale"]


@pytest.mark.parametrize("raw, field", [
    (b"not json", ""),
    (b"[1, 2]", ""),
    (b'{"alerts": "x"}', "alerts"),
    (b"\xff\xfe", ""),
])
def test_malformed_bodies_are_refused(raw, field):
    async def exchange(post, get, queue):
        answer = await post(None, raw=raw)
        await asyncio.sleep(WINDOW + 0.2)
        return answer, drain(queue)
    (status, answer), events = run_source(exchange)
    assert status == 400 and answer["field"] == field and events == []


def test_one_bad_alert_is_dropped_alone():
    bad = scale_alert(fingerprint="bad", aspect="other")
    del bad["labels"]["aspect_id"]
    good = body(heal_alert(), scale_alert(fingerprint="good"), bad)

    async def exchange(post, get, queue):
        answer = await post(good)
        return answer, await events_after_window(queue, 2)
    (status, answer), events = run_source(exchange)
    assert status == 200 and answer["accepted"] == 2 and answer["rejected"] == 1
    assert answer["rejected_alerts"] == [{"index": 2, "field": "alerts[2].labels.aspect_id", "reason": "is required"}]
    assert sorted(event["nfv_vnflcm"]["function_type"] for event in events) == ["auto_heal", "auto_scale"]


def test_tacker_fm_and_pm_alerts_beside_a_heal():
    fm = {"status": "firing", "startsAt": "2026-01-02T03:00:00Z", "fingerprint": "fp",
          "labels": {"receiver_type": "tacker", "function_type": "vnffm", "vnf_instance_id": "vnf-1", "perceived_severity": "WARNING"}}
    pm = {"status": "firing", "startsAt": "2026-01-02T03:00:00Z", "fingerprint": "fp",
          "labels": {"receiver_type": "tacker", "function_type": "vnfpm", "job_id": "job-1", "metric": "VCpuUsageMeanVnf.x"}}
    other = {"status": "firing", "startsAt": "2026-01-02T03:00:00Z", "labels": {"alertname": "Watchdog"}}

    async def exchange(post, get, queue):
        answer = await post(body(fm, pm, other, heal_alert(fingerprint="fp")))
        return answer, await events_after_window(queue, 1)
    (status, answer), events = run_source(exchange)
    assert status == 200 and answer["accepted"] == 1 and answer["ignored"] == 3
    assert answer["ignored_why"] == {"not_for_the_loop": 1, "other_function_type": 2}
    [event] = events
    assert event["nfv_vnflcm"]["vnfc_info_ids"] == ["VDU1-a"]


def test_many_malformed_alerts_are_reported_bounded():
    bad = [scale_alert(aspect="") for _n in range(30)]

    async def exchange(post, get, queue):
        return await post(body(*bad))
    status, answer = run_source(exchange)
    assert status == 200 and answer["rejected"] == 30 and len(answer["rejected_alerts"]) == 20
    text = alertmanager.answer_text(answer)
    assert "alerts[19] and 10 more" in text and "alerts[20]" not in text


def test_token():
    async def exchange(post, get, queue):
        return [await post(body(scale_alert())),
                await post(body(scale_alert()), headers={"Authorization": "Bearer wrong"}),
                await post(body(scale_alert()), headers={"Authorization": "Basic s3cret"}),
                await post(body(scale_alert()), headers={"Authorization": "Bearer s3cret"}),
                await get("/alerts/health")], drain(queue)
    answers, events = run_source(exchange, token="s3cret")
    assert [answer[0] for answer in answers] == [401, 401, 401, 200, 200]
    assert len(events) == 1


def test_resume_events_at_the_start_and_every_interval():
    async def exchange(post, get, queue):
        first = await asyncio.wait_for(queue.get(), 5)
        second = await asyncio.wait_for(queue.get(), 5)
        return first, second
    first, second = run_source(exchange, resume_interval=0.2)
    assert first == second == {"nfv_vnflcm": {"function_type": "resume", "source": "alertmanager"}}

    async def none(post, get, queue):
        await asyncio.sleep(0.3)
        return drain(queue)
    assert run_source(none) == []


def test_token_required_off_loopback():
    with pytest.raises(ValueError, match="needs a token"):
        alertmanager.options({"host": "0.0.0.0"})
    with pytest.raises(ValueError, match="needs a token"):
        alertmanager.options({"host": "10.0.0.5", "token": "None"})
    assert alertmanager.options({"host": "0.0.0.0", "token": "s3cret"})["token"] == "s3cret"
    assert alertmanager.options({"host": "::1"})["token"] is None
    assert alertmanager.options({"host": "127.0.0.2", "token": ""})["token"] is None


def test_token_refuses_before_reading_nothing_done():
    async def exchange(post, get, queue):
        answer = await post(body(heal_alert()))
        await asyncio.sleep(WINDOW + 0.2)
        return answer, drain(queue)
    (status, _answer), events = run_source(exchange, token="s3cret")
    assert status == 401 and events == []


def test_body_size_bound():
    async def exchange(post, get, queue):
        big = body(*[heal_alert(vnfc="VDU1-{0}".format(n)) for n in range(40)])
        return await post(big), await post(body(scale_alert())), drain(queue)
    too_big, small, events = run_source(exchange, max_body_bytes=2000)
    assert too_big[0] == 413 and small[0] == 200 and len(events) == 1


def test_a_large_body_read_whole():
    # About 400 KB: it reaches the server in many reads.
    alerts = [heal_alert(vnfc="VDU1-{0}".format(n), fingerprint=str(n)) for n in range(1000)]
    for alert in alerts:
        alert["annotations"] = {"description": "x" * 200}

    async def exchange(post, get, queue):
        answer = await post(body(*alerts))
        return answer, await events_after_window(queue, 1)
    (status, answer), events = run_source(exchange)
    assert status == 200 and answer["accepted"] == 1000
    [event] = events
    assert len(event["nfv_vnflcm"]["vnfc_info_ids"]) == 1000 and len(event["nfv_vnflcm"]["alerts"]) == 100


def test_too_many_alerts():
    async def exchange(post, get, queue):
        return await post(body(*[scale_alert(aspect=str(n)) for n in range(3)])), drain(queue)
    (status, answer), events = run_source(exchange, max_alerts=2)
    assert status == 413 and answer["field"] == "alerts" and events == []


def test_custom_endpoint():
    async def exchange(post, get, queue):
        return await post(body(scale_alert()), path="/hook"), await get("/hook/health"), (await post(body(scale_alert()), path="/alerts"))[0]
    hook, health, elsewhere = run_source(exchange, endpoint="/hook/")
    assert (hook[0], health[0], elsewhere) == (200, 200, 404)


@pytest.mark.parametrize("args", [{"port": "x"}, {"heal_window": -1}, {"endpoint": "alerts"}, {"colour": "red"}, {"max_alerts": True}])
def test_bad_options(args):
    with pytest.raises(ValueError):
        alertmanager.options(args)


def test_defaults():
    opts = alertmanager.options({})
    assert (opts["host"], opts["port"], opts["endpoint"], opts["heal_window"], opts["token"]) == ("127.0.0.1", 5050, "/alerts", 30, None)


def test_numbers_given_as_text():
    opts = alertmanager.options({"port": "6000", "heal_window": "2.5"})
    assert (opts["port"], opts["heal_window"]) == (6000, 2.5)
