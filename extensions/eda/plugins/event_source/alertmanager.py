# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""nfv.vnflcm.alertmanager: an event source that receives Alertmanager's webhook and emits closed-loop events."""

from __future__ import annotations

DOCUMENTATION = r"""
---
short_description: Receive Alertmanager webhooks and emit auto-heal and auto-scale events for VNF instances.
description:
  - An HTTP server that takes Alertmanager's webhook (payload version 4) and turns the firing alerts meant for
    VNF lifecycle management into events for a rulebook.
  - "An alert is taken when its labels carry C(receiver_type=tacker) (Tacker's Prometheus plugin labels, unchanged:
    C(function_type), C(vnf_instance_id), C(vnfc_info_id), C(auto_scale_type), C(aspect_id)) with a C(function_type)
    of the loop (C(auto_heal), C(auto_scale)), or C(nfv_vnflcm_function) (the same labels under this collection's
    names: C(nfv_vnflcm_function), C(nfv_vnflcm_vnf_instance_id), C(nfv_vnflcm_vnfc_info_id),
    C(nfv_vnflcm_auto_scale_type), C(nfv_vnflcm_aspect_id); they win when both are given)."
  - "Alerts not for the loop are ignored one by one, as Tacker's plugin does, and the rest of the body is acted on:
    resolved ones, other receivers' (no C(receiver_type=tacker) nor C(nfv_vnflcm_function)), and Tacker's other
    C(function_type)s (C(vnffm), C(vnfpm)). A malformed alert of the loop (an id missing, a wrong type or value) is
    dropped alone and reported with its index and field (for example C(alerts[2].labels.aspect_id)): Alertmanager
    does not send a body again after a 4xx, so one bad alert must not lose the others."
  - "A body that is not a JSON object, or whose C(alerts) is not a list, is refused with HTTP 400 and a JSON body
    C({error, field, reason}); nothing is emitted from it. A body larger than O(max_body_bytes), or with more alerts
    than O(max_alerts), gets HTTP 413. Any other body gets HTTP 200 and C({status: ok, accepted, duplicates, ignored,
    ignored_why, rejected, rejected_alerts}): C(ignored_why) counts the ignored alerts by why (C(resolved),
    C(not_for_the_loop), C(other_function_type)), C(rejected_alerts) lists the first 20 malformed ones
    C({index, field, reason}); the log says the same."
  - "auto_heal: the alerts of one VNF are gathered for O(heal_window) seconds from the first one (Tacker's timer), then
    leave as one event naming every VNFC asked for. auto_scale: one event per firing alert, at once."
  - "An alert seen before (same identity and C(startsAt): Alertmanager sends a firing alert again with every
    notification of its group) is not emitted again for O(dedup_window) seconds. The identity is the alert's label
    set, as Alertmanager defines it: its fingerprint is computed from the labels, so a sender whose C(fingerprint)
    does not follow them (Tacker's test bodies give different alerts one) loses no alert."
  - "Each event has one key, C(nfv_vnflcm), holding C(function_type), C(vnf_instance_id), C(vnfc_info_ids) (auto_heal),
    C(auto_scale_type) and C(aspect_id) (auto_scale), C(first_alert_at), C(source) (V(alertmanager)) and C(alerts), a
    list of C({fingerprint, startsAt, labels}) of the alerts it came from (at most 100). C(first_alert_at) is the
    earliest C(startsAt), in UTC to the second as op occs' times are."
  - "C(GET) on O(endpoint) followed by C(/health) answers C({status: ok}) once the server listens (no token needed),
    for readiness probes and tests."
  - Whether the instance allows it (C(isAutohealEnabled), C(isAutoscaleEnabled)), is INSTANTIATED, was healed
    already, or is busy is decided by the playbook the rulebook runs, not here.
options:
  host:
    description:
      - "The address to listen on. Any address but a loopback one (C(127.0.0.1), C(::1), C(localhost)) needs
        O(token): whoever reaches an open webhook could heal and scale every VNF the loop may touch."
    type: str
    default: 127.0.0.1
  port:
    description: The TCP port to listen on.
    type: int
    default: 5050
  endpoint:
    description: The path Alertmanager posts to (its C(webhook_configs[].url) path).
    type: str
    default: /alerts
  token:
    description:
      - When given, a request must carry C(Authorization Bearer <token>) (Alertmanager's C(http_config.authorization)
        with C(type Bearer) and C(credentials) or C(credentials_file)); others get HTTP 401 and nothing is done.
      - Required unless O(host) is a loopback address; the source does not start without it.
    type: str
  heal_window:
    description: Seconds during which the auto_heal alerts of one VNF are gathered into one event.
    type: float
    default: 30
  dedup_window:
    description: Seconds during which an alert already taken (same fingerprint and startsAt) is not taken again (at least O(heal_window)).
    type: float
    default: 3600
  max_body_bytes:
    description: The largest body accepted (bytes); a larger one gets HTTP 413.
    type: int
    default: 1048576
  max_alerts:
    description: The most alerts one body may hold; more gets HTTP 413.
    type: int
    default: 1000
  resume_interval:
    description:
      - "When more than 0, an event C({nfv_vnflcm: {function_type: resume, source: alertmanager}}) at the start and every
        this many seconds: the shipped rulebooks run the playbook nfv.vnflcm.closed_loop_resume on it, which takes over
        the loop's own op occs that a run left (a rulebook killed mid-heal), with no new alert."
    type: float
    default: 0
"""

EXAMPLES = r"""
- name: Closed loop from Alertmanager
  hosts: localhost
  sources:
    - nfv.vnflcm.alertmanager:
        host: 127.0.0.1
        port: 5050
        endpoint: /alerts
        heal_window: 30
  rules:
    - name: Heal the VNFCs of one VNF
      condition: event.nfv_vnflcm.function_type == "auto_heal"
      action:
        run_playbook:
          name: nfv.vnflcm.auto_heal
"""

import asyncio
import hmac
import json
import logging
import pathlib
import sys
from typing import Any, Dict

from aiohttp import web

try:
    from ansible_collections.nfv.vnflcm.plugins.module_utils.common.listing import listed
    from ansible_collections.nfv.vnflcm.plugins.module_utils.eda.alerts import MAX_REPORTED, PayloadError, read_webhook
    from ansible_collections.nfv.vnflcm.plugins.module_utils.eda.gather import DEFAULT_DEDUP_WINDOW, DEFAULT_HEAL_WINDOW, EVENT_KEY, Gatherer, Pump
except ImportError:
    # ansible-rulebook runs a source file by its path: the collections tree it sits in is not importable by itself.
    _ROOT = pathlib.Path(__file__).resolve().parents[7]
    if _ROOT.joinpath("ansible_collections", "nfv", "vnflcm").is_dir() and str(_ROOT) not in sys.path:
        sys.path.append(str(_ROOT))
    from ansible_collections.nfv.vnflcm.plugins.module_utils.common.listing import listed
    from ansible_collections.nfv.vnflcm.plugins.module_utils.eda.alerts import MAX_REPORTED, PayloadError, read_webhook
    from ansible_collections.nfv.vnflcm.plugins.module_utils.eda.gather import DEFAULT_DEDUP_WINDOW, DEFAULT_HEAL_WINDOW, EVENT_KEY, Gatherer, Pump

LOGGER = logging.getLogger("nfv.vnflcm.alertmanager")
SOURCE = "alertmanager"
LOOPBACK = ("127.0.0.1", "::1", "localhost")
DEFAULTS = {"host": "127.0.0.1", "port": 5050, "endpoint": "/alerts", "token": None, "heal_window": DEFAULT_HEAL_WINDOW,
            "dedup_window": DEFAULT_DEDUP_WINDOW, "max_body_bytes": 1024 * 1024, "max_alerts": 1000, "resume_interval": 0}
RESUME = "resume"


def options(args):
    """The source's options with their defaults; a wrong one is a ValueError before anything listens."""
    result = dict(DEFAULTS)
    result.update({key: value for key, value in (args or {}).items() if value is not None})
    for name in ("port", "max_body_bytes", "max_alerts", "heal_window", "dedup_window", "resume_interval"):
        result[name] = from_text(result[name], int if name in ("port", "max_body_bytes", "max_alerts") else float)
    unknown = sorted(set(result) - set(DEFAULTS))
    if unknown:
        raise ValueError("nfv.vnflcm.alertmanager: unknown option(s) {0}".format(", ".join(unknown)))
    for name in ("port", "max_body_bytes", "max_alerts"):
        if isinstance(result[name], bool) or not isinstance(result[name], int) or result[name] < 0:
            raise ValueError("nfv.vnflcm.alertmanager: {0} must be a non-negative integer".format(name))
    for name in ("heal_window", "dedup_window", "resume_interval"):
        if isinstance(result[name], bool) or not isinstance(result[name], (int, float)) or result[name] < 0:
            raise ValueError("nfv.vnflcm.alertmanager: {0} must be a non-negative number of seconds".format(name))
    if not isinstance(result["endpoint"], str) or not result["endpoint"].startswith("/"):
        raise ValueError("nfv.vnflcm.alertmanager: endpoint must be a path starting with /")
    result["endpoint"] = result["endpoint"].rstrip("/") or "/"
    if result["token"] in ("", "None"):  # a rulebook's default(None) renders as text
        result["token"] = None
    if result["token"] is None and not is_loopback(result["host"]):
        raise ValueError("nfv.vnflcm.alertmanager: listening on {0} needs a token (closed_loop_webhook_token): whoever reaches an "
                         "open webhook could heal and scale any VNF; give one, or listen on 127.0.0.1".format(result["host"]))
    return result


def is_loopback(host):
    """Whether ``host`` is a loopback address (127.0.0.0/8, ::1, localhost)."""
    host = str(host or "").strip().strip("[]").lower()
    return host in LOOPBACK or host.startswith("127.")


def from_text(value, kind):
    """A number given as text (a rulebook variable from the environment) as a number; anything else unchanged."""
    if isinstance(value, str):
        try:
            return kind(value)
        except ValueError:
            return value
    return value


def _answer(status, body):
    return web.json_response(body, status=status)


def webhook_answer(accepted, duplicates, ignored, rejected):
    """The JSON answer to a body read: counts, why alerts were ignored, the first MAX_REPORTED malformed ones."""
    return {"status": "ok", "accepted": accepted, "duplicates": duplicates, "ignored": sum(ignored.values()),
            "ignored_why": dict(sorted(ignored.items())), "rejected": len(rejected), "rejected_alerts": rejected[:MAX_REPORTED]}


def answer_text(answer):
    """The answer as one log line."""
    why = ", ".join("{0} {1}".format(count, reason) for reason, count in answer["ignored_why"].items())
    shown = ["alerts[{0}]".format(item["index"]) for item in answer["rejected_alerts"]]
    hidden = answer["rejected"] - len(shown)
    dropped = "{0}{1}".format(listed(shown), " and {0} more".format(hidden) if hidden > 0 else "")
    return "{0} alert(s) taken, {1} already seen, {2} ignored{3}, {4} malformed and dropped{5}".format(
        answer["accepted"], answer["duplicates"], answer["ignored"], " ({0})".format(why) if why else "", answer["rejected"],
        " ({0})".format(dropped) if answer["rejected"] else "")


def make_app(pump, opts):
    """The aiohttp application: POST ``endpoint`` for alerts, GET ``endpoint``/health for readiness."""
    token = str(opts["token"]) if opts["token"] is not None else None
    max_bytes = opts["max_body_bytes"]

    async def receive(request):
        if token:
            given = request.headers.get("Authorization", "")
            scheme, _space, credentials = given.partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(credentials.strip().encode("utf-8"), token.encode("utf-8")):
                return web.json_response({"error": "unauthorized"}, status=401, headers={"WWW-Authenticate": "Bearer"})
        if request.content_length is not None and request.content_length > max_bytes:
            return _answer(413, {"error": "body too large", "field": "", "reason": "more than {0} bytes".format(max_bytes)})
        try:
            raw = await request.read()  # the whole body, or HTTPRequestEntityTooLarge past client_max_size
        except web.HTTPRequestEntityTooLarge:
            return _answer(413, {"error": "body too large", "field": "", "reason": "more than {0} bytes".format(max_bytes)})
        try:
            try:
                body = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as exc:
                raise PayloadError("", "the body is not JSON: {0}".format(exc)) from None
            requests, ignored, rejected = read_webhook(body, opts["max_alerts"])
        except PayloadError as exc:
            LOGGER.warning("refused a webhook body from %s: %s", request.remote, exc)
            return _answer(exc.status, exc.as_json())
        duplicates = await pump.add(requests)
        answer = webhook_answer(len(requests) - duplicates, duplicates, ignored, rejected)
        # A dropped alert is a sender's fault to fix: said at the rulebook's default verbosity.
        LOGGER.log(logging.WARNING if rejected else logging.INFO, "webhook from %s: %s", request.remote, answer_text(answer))
        for item in answer["rejected_alerts"]:
            LOGGER.warning("webhook from %s: dropped alerts[%d]: %s: %s", request.remote, item["index"], item["field"], item["reason"])
        return _answer(200, answer)

    async def health(request):
        return _answer(200, {"status": "ok"})

    app = web.Application(client_max_size=max_bytes)
    app.router.add_post(opts["endpoint"], receive)
    app.router.add_get((opts["endpoint"] if opts["endpoint"] != "/" else "") + "/health", health)
    return app


async def serve(queue, opts, started=None):
    """Listen until cancelled; ``started`` (a future) gets the port actually bound (``port: 0`` picks one)."""
    pump = Pump(Gatherer(SOURCE, opts["heal_window"], opts["dedup_window"]), queue, LOGGER)
    runner = web.AppRunner(make_app(pump, opts), access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, opts["host"], opts["port"])
        await site.start()
        port = runner.addresses[0][1] if runner.addresses else opts["port"]
        LOGGER.info("listening on %s:%s%s", opts["host"], port, opts["endpoint"])
        if started is not None and not started.done():
            started.set_result(port)
        resumer = asyncio.ensure_future(resume_events(queue, opts["resume_interval"]))
        try:
            await pump.run()
        finally:
            resumer.cancel()
    finally:
        await runner.cleanup()


async def resume_events(queue, interval):
    """A resume event at once, then every ``interval`` seconds (none when it is 0): the rulebook's playbook takes over
    the loop's own op occs a run left."""
    if not interval:
        return
    while True:
        LOGGER.info("emit resume (every %s s)", interval)
        await queue.put({EVENT_KEY: {"function_type": RESUME, "source": SOURCE}})
        await asyncio.sleep(interval)


async def main(queue: asyncio.Queue, args: Dict[str, Any]) -> None:
    """The entry point ansible-rulebook calls."""
    await serve(queue, options(args))


if __name__ == "__main__":
    # Try it by hand: python alertmanager.py, then post a webhook body to http://127.0.0.1:5050/alerts.

    class PrintQueue:
        async def put(self, event):
            print(json.dumps(event), flush=True)

    logging.basicConfig(level=logging.INFO)
    asyncio.run(main(PrintQueue(), {"host": "127.0.0.1", "heal_window": 2}))
