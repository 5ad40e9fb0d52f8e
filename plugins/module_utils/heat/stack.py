# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Heat stacks over the orchestration REST API: create, preview, PATCH update, delete, and waits.

openstacksdk has no PATCH (``stack update --existing``) nor preview helper, so the calls go through
the SDK's orchestration adapter. Every call runs inside ``cloud.sdk_errors``.

Waits follow the stack's own events: a 202 can come back before the stack status leaves the previous
``*_COMPLETE``, so the status string alone could report the previous operation. The events listed
before the write are remembered, and the wait ends on a new terminal event of the stack itself.

Reads (and the record's signal, which writes the same data again when repeated) are retried with
bounded backoff when the connection fails or Heat answers 429/5xx; other writes are not repeated: a
stack update or create that may have gone through is for the operation's retry to judge.
"""

from __future__ import annotations

import datetime
import json
import time

from ansible_collections.nfv.vnflcm.plugins.module_utils.common import activity
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.deadline import Deadline, retry_seconds
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import OperationTimeout, VimError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.cloud import sdk_errors
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.instantiated_info import owner_stack

TERMINAL = ("COMPLETE", "FAILED")
TRANSIENT_STATUS = frozenset((429, 500, 502, 503, 504))
# How long one call keeps retrying a transient failure.
RETRY_SECONDS = 30
# A stack delete Heat failed on a resource still settling is sent again (Heat's own remedy): this many deletes in all,
# this many seconds apart.
DELETE_ATTEMPTS = 3
DELETE_RETRY_SECONDS = 5.0


def encode_parameters(parameters):
    """json parameters travel as JSON text, as the heat client sends them."""
    return {key: json.dumps(value, sort_keys=True) if isinstance(value, (dict, list)) else value for key, value in (parameters or {}).items()}


# A wait's first poll interval, doubled up to ``sleep``: a stack change that ends in a second (a scale of one server on
# a quiet engine, a settled stack) is seen within a quarter of a second, a long one is polled at ``sleep``.
FIRST_POLL_SECONDS = 0.25


class Stacks:
    """One project's stacks; ``stack`` arguments are dicts with ``stack_name`` and ``id``."""

    def __init__(self, conn, sleep=2.0, clock=time.monotonic, sleeper=time.sleep):
        self.conn = conn
        self._endpoint = None
        self.sleep = sleep
        self._clock = clock
        self._sleeper = sleeper

    @property
    def _api(self):
        return self.conn.orchestration

    @staticmethod
    def path(stack):
        return "/stacks/{0}/{1}".format(stack["stack_name"], stack["id"])

    def url(self, stack):
        """The orchestration API URL of ``stack`` (by name alone when it has no ``id``), from the service catalog."""
        if self._endpoint is None:
            self._endpoint = self._api.get_endpoint().rstrip("/")
        path = self.path(stack) if stack.get("id") else "/stacks/{0}".format(stack["stack_name"])
        return self._endpoint + path

    def _call(self, action, what, method, url, ok=(200, 201, 202, 204), repeatable=None, **kwargs):
        """One REST call; a repeatable one (GETs by default) is retried on transient failures."""
        activity.note(action, what)
        repeatable = method == "get" if repeatable is None else repeatable
        delay, end = 0.25, self._clock() + (retry_seconds(RETRY_SECONDS) if repeatable else 0)
        while True:
            try:
                with sdk_errors(action, what):
                    response = getattr(self._api, method)(url, **kwargs)
                if response.status_code not in TRANSIENT_STATUS or self._clock() + delay >= end:
                    break
            except VimError as error:
                if not is_transient(error) or self._clock() + delay >= end:
                    raise
            self._sleeper(delay)
            delay = min(delay * 2, 4.0)
        if response.status_code not in ok:
            raise VimError(action, what, _explain(response))
        if response.status_code == 204 or not response.content:
            return {}
        try:
            return response.json()
        except ValueError:  # PATCH/PUT answer 202 with an HTML body
            return {}

    # -- reads ---------------------------------------------------------------------------------

    def list(self, **filters):
        query = "&".join("{0}={1}".format(key, value) for key, value in sorted(filters.items()))
        return self._call("list", "Heat stacks", "get", "/stacks" + ("?" + query if query else ""))["stacks"]

    def find(self, name):
        """The stack called ``name`` (full detail), or None."""
        found = [stack for stack in self.list(name=name) if stack["stack_name"] == name]
        return self.get(found[0]) if found else None

    def get(self, stack):
        return self._call("read", "stack " + stack["stack_name"], "get", self.path(stack))["stack"]

    def template(self, stack):
        return self._call("read", "the template of stack " + stack["stack_name"], "get", self.path(stack) + "/template")

    def files(self, stack):
        return self._call("read", "the files of stack " + stack["stack_name"], "get", self.path(stack) + "/files")

    def resources(self, stack, nested_depth=2):
        """Every resource of the stack and of its nested stacks (``parent_resource`` names the owner). Not with_detail:
        Heat would read every server, port and volume from Nova, Neutron and Cinder for attributes nothing here reads."""
        url = "{0}/resources?nested_depth={1}".format(self.path(stack), nested_depth)
        return self._call("list", "the resources of stack " + stack["stack_name"], "get", url)["resources"]

    def events(self, stack, marker=None):
        """The stack's events (top level), oldest first, after the event ``marker``."""
        url = self.path(stack) + "/events?sort_dir=asc&limit=1000" + ("&marker=" + marker if marker else "")
        return self._call("list", "the events of stack " + stack["stack_name"], "get", url)["events"]

    def last_event_id(self, stack):
        url = self.path(stack) + "/events?sort_dir=desc&limit=1"
        events = self._call("list", "the events of stack " + stack["stack_name"], "get", url)["events"]
        return events[0]["id"] if events else None

    def resource_status(self, stack, resource):
        """``<ACTION>_<STATUS>`` of one top-level resource (``INIT_COMPLETE`` before Heat starts creating it)."""
        url = "{0}/resources/{1}".format(self.path(stack), resource)
        found = self._call("read", "resource {0} of stack {1}".format(resource, stack["stack_name"]), "get", url).get("resource") or {}
        return found.get("resource_status") or "INIT_COMPLETE"

    def resource_metadata(self, stack, resource):
        url = "{0}/resources/{1}/metadata".format(self.path(stack), resource)
        return self._call("read", "resource {0} of stack {1}".format(resource, stack["stack_name"]), "get", url).get("metadata") or {}

    def preview_create(self, name, template, files, parameters):
        body = {"stack_name": name, "template": template, "files": files, "parameters": encode_parameters(parameters)}
        return self._call("preview", "stack " + name, "post", "/stacks/preview", json=body)["stack"]

    def preview_update(self, stack, template, files, parameters):
        """What Heat would do (``resource_changes``: added, deleted, replaced, updated, unchanged) for a PATCH."""
        body = {"template": template, "files": files, "parameters": encode_parameters(parameters)}
        return self._call("preview", "the update of stack " + stack["stack_name"], "patch", self.path(stack) + "/preview",
                          json=body).get("resource_changes") or {}

    # -- writes --------------------------------------------------------------------------------

    def create(self, name, template, files, parameters, tags=(), timeout_mins=None):
        body = {"stack_name": name, "template": template, "files": files, "parameters": encode_parameters(parameters),
                "tags": ",".join(tags), "disable_rollback": True}
        if timeout_mins:
            body["timeout_mins"] = timeout_mins
        created = self._call("create", "stack " + name, "post", "/stacks", json=body)["stack"]
        return {"stack_name": name, "id": created["id"]}

    def create_unless_exists(self, name, template, tags=()):
        """Create a stack; None when Heat answers that one of this name exists (409)."""
        body = {"stack_name": name, "template": template, "tags": ",".join(tags), "disable_rollback": True}
        created = self._call("create", "stack " + name, "post", "/stacks", ok=(201, 409), json=body).get("stack")
        return {"stack_name": name, "id": created["id"]} if created else None

    def patch(self, stack, template=None, files=None, parameters=None, timeout_mins=None):
        """An update with PATCH semantics (``stack update --existing``): what is not sent keeps its value."""
        body = {"parameters": encode_parameters(parameters), "disable_rollback": True}
        if template is not None:
            body["template"] = template
            body["files"] = files or {}
        if timeout_mins:
            body["timeout_mins"] = timeout_mins
        self._call("update", "stack " + stack["stack_name"], "patch", self.path(stack), json=body)

    def delete(self, stack):
        self._call("delete", "stack " + stack["stack_name"], "delete", self.path(stack), ok=(200, 202, 204, 404))

    def signal(self, stack, resource, details):
        url = "{0}/resources/{1}/signal".format(self.path(stack), resource)
        self._call("signal", "resource {0} of stack {1}".format(resource, stack["stack_name"]), "post", url, repeatable=True, json=details)

    def mark_unhealthy(self, resource, reason, unhealthy=True):
        """Mark a (nested) resource CHECK_FAILED, so that the next stack update replaces it (how Heat heals);
        ``unhealthy=False`` takes the mark back (CHECK_COMPLETE)."""
        url = self.path(owner_stack(resource)) + "/resources/" + resource["resource_name"]
        self._call("mark unhealthy" if unhealthy else "mark healthy", "resource " + resource["resource_name"], "patch", url,
                   json={"mark_unhealthy": unhealthy, "resource_status_reason": reason})

    def pause(self, seconds=0.25):
        self._sleeper(seconds)

    def now(self):
        """The current time (UTC), to compare with Heat's timestamps."""
        return datetime.datetime.now(datetime.timezone.utc)

    def retrying(self, seconds, what, call):
        """``call()`` until it returns true without raising VimError, for up to ``seconds``."""
        deadline = self._deadline(seconds)
        failure = []

        def attempt():
            try:
                return call()
            except VimError as error:
                failure[:] = [error]
                return False

        try:
            return deadline.poll(attempt, what)
        except OperationTimeout:
            raise failure[0] if failure else VimError("wait for", what, "timed out after {0}s".format(seconds))

    # -- waits ---------------------------------------------------------------------------------

    def wait(self, stack, action, marker, timeout, progress=None):
        """Follow the stack's events after ``marker`` until the stack's own terminal event of ``action``.

        Returns the stack; VimError with Heat's reason when it FAILED, OperationTimeout when time runs out.
        ``progress["events"]`` collects ``"<resource> <status>: <reason>"`` lines as they come.
        """
        seen = progress.setdefault("events", []) if progress is not None else []
        cursor = [marker]

        def finished():
            for event in self.events(stack, cursor[0]):
                cursor[0] = event["id"]
                seen.append("{0} {1}: {2}".format(event["resource_name"], event["resource_status"], event.get("resource_status_reason") or ""))
                if event.get("physical_resource_id") != stack["id"] or event["resource_name"] != stack["stack_name"]:
                    continue
                event_action, _sep, status = event["resource_status"].partition("_")
                if status not in TERMINAL:
                    continue
                current = self.get(stack)
                if status == "FAILED" or event_action != action:
                    raise VimError(action.lower(), "stack " + stack["stack_name"], current.get("stack_status_reason") or event.get("resource_status_reason"))
                return current
            return None

        return self._deadline(timeout).poll(finished, "stack {0} to {1}".format(stack["stack_name"], action.lower()))

    def wait_settled(self, stack, timeout):
        """Until the stack is in no ``*_IN_PROGRESS`` state (one GET when it is not); returns the stack."""
        def settled():
            current = self.get(stack)
            return None if current["stack_status"].endswith("_IN_PROGRESS") else current

        return self._deadline(timeout).poll(settled, "the operation in progress on stack {0} to end".format(stack["stack_name"]))

    def delete_until_gone(self, stack, timeout):
        """Delete the stack and wait until it has left the list; VimError with Heat's reason when it stays DELETE_FAILED.

        Heat fails a delete when a resource is still settling: a volume Cinder still counts attached to a server Nova
        deleted while it booted (``Invalid volume: Volume status must be available ...``) is free a moment later, and
        Heat's remedy is to delete again. Up to DELETE_ATTEMPTS deletes, all within ``timeout``. A create or update still
        running (a killed run's) is let end first: a stack deleted while its servers boot from volumes can leave a volume
        that Cinder keeps ``reserved`` for a server Nova has deleted, which no delete frees. Should it not end in time,
        the stack is deleted all the same.
        """
        deadline = self._deadline(timeout)
        try:
            self.wait_settled(stack, deadline.remaining())
        except OperationTimeout:
            pass
        for attempt in range(1, DELETE_ATTEMPTS + 1):
            self.delete(stack)
            try:
                return self.wait_deleted(stack, deadline.remaining())
            except VimError:
                if attempt == DELETE_ATTEMPTS or deadline.remaining() <= DELETE_RETRY_SECONDS:
                    raise
            self._sleeper(DELETE_RETRY_SECONDS)

    def wait_deleted(self, stack, timeout):
        """Until the stack has left the list (its name stays reserved until then); VimError on DELETE_FAILED."""
        def gone():
            listed = [item for item in self.list(name=stack["stack_name"]) if item["id"] == stack["id"]]
            if listed and listed[0]["stack_status"] == "DELETE_FAILED":
                raise VimError("delete", "stack " + stack["stack_name"], listed[0].get("stack_status_reason"))
            return not listed

        self._deadline(timeout).poll(gone, "stack {0} to be deleted".format(stack["stack_name"]))

    def _deadline(self, timeout):
        return Deadline(timeout, self.sleep, self._clock, self._sleeper, first_sleep=FIRST_POLL_SECONDS)


def is_transient(error):
    """A failure worth repeating the call for: the connection failed, or the server answered 429/5xx."""
    cause = error.__cause__
    if cause is None:
        return False
    status = getattr(cause, "status_code", None) or getattr(cause, "http_status", None)
    return status in TRANSIENT_STATUS if status else True


def _explain(response):
    try:
        body = response.json()
    except ValueError:
        return "HTTP {0}: {1}".format(response.status_code, response.text[:500])
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict) and error.get("message"):
        return error["message"].strip()
    return "HTTP {0}: {1}".format(response.status_code, json.dumps(body)[:500])
