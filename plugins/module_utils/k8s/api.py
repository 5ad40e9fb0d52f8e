# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Kubernetes API as the LCM drivers use it: lazy discovery, CRUD on plain dicts, one error format.

Discovery asks only for the group versions the manifests use (one GET each), so a namespaced
ServiceAccount with no cluster-wide rights can use it, and an instantiate costs few calls.

Transient failures (a dropped connection, a TLS EOF, a timeout, an apiserver restarting, HTTP 429/5xx)
are retried with bounded backoff. Every call may be repeated safely: GET, PATCH (the same patch) and
DELETE are idempotent; a repeated create or conditional replace that answers 409 is checked against
the live object, which is accepted when it already holds what was sent (the first attempt went
through, only its answer was lost).
"""

from __future__ import annotations

import http.client
import json
import math
import threading
import time

from ansible_collections.nfv.vnflcm.plugins.module_utils.common import activity
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.deadline import retry_seconds
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, VimError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import lean_import

try:
    lean_import.prepare()
    from kubernetes.client.rest import ApiException
    from urllib3.exceptions import HTTPError as Urllib3Error
except ImportError:  # handled by the module's requirement check
    ApiException = None
    Urllib3Error = OSError


# Connect and read timeouts of one request: a peer that vanished must not hang an operation.
REQUEST_TIMEOUT = (10, 60)
# How long one call keeps retrying a transient failure (an apiserver restart takes a few seconds).
RETRY_SECONDS = 30
TRANSIENT_STATUS = frozenset((429, 500, 502, 503, 504))
DRY_RUN = [("dryRun", "All")]
# How much longer than its timeoutSeconds the client waits for a watch's next byte: the apiserver ends the watch at
# timeoutSeconds; only a peer that vanished without a word makes the client's own read timeout fire.
WATCH_READ_SLACK = 10


class WatchBroken(Exception):
    """A watch that ended before its timeout: a dropped connection, an HTTP error, an ERROR event. ``expired``: the
    resourceVersion it started from is too old (410 Gone), so the object must be read again before watching on."""

    def __init__(self, reason, expired=False):
        super().__init__(reason)
        self.expired = expired


def backoff(seconds=RETRY_SECONDS, clock=time.monotonic):
    """Delays before each retry (0.25 s doubling up to 4 s) until ``seconds`` have gone by."""
    end, delay = clock() + seconds, 0.25
    while clock() + delay < end:
        yield delay
        delay = min(delay * 2, 4.0)


class KubeApi:
    """CRUD on objects given as plain dicts (API camelCase), with an API-call counter."""

    def __init__(self, api_client, retry_seconds=RETRY_SECONDS, sleep=time.sleep, clock=time.monotonic):
        self._client = api_client
        self._discovered = {}
        self._retry_seconds = retry_seconds
        self._sleep = sleep
        self._clock = clock
        self.calls = {"read": 0, "write": 0, "dry_run": 0}
        self._calls_lock = threading.Lock()  # calls are made from worker threads too (common/pool.py)

    # --- discovery -------------------------------------------------------------------------
    def resource(self, api_version, kind):
        """``{"name": plural, "namespaced": bool}`` for a kind, or None when the cluster does not serve it."""
        if api_version not in self._discovered:
            self._discovered[api_version] = self._discover(api_version)
        return self._discovered[api_version].get(kind)

    def is_namespaced(self, api_version, kind):
        """True / False, or None for a kind the cluster does not know (the namespace planner's lookup)."""
        resource = self.resource(api_version, kind)
        return None if resource is None else resource["namespaced"]

    def _discover(self, api_version):
        path = "/api/v1" if api_version == "v1" else "/apis/" + api_version
        listing = self._call("GET", path, "discover", "API group " + api_version, missing_ok=True)
        if listing is None:
            return {}
        return {item["kind"]: {"name": item["name"], "namespaced": item["namespaced"]}
                for item in listing.get("resources", []) if "/" not in item["name"]}

    def path(self, api_version, kind, namespace=None, name=None):
        resource = self.resource(api_version, kind)
        if resource is None:
            raise VimError("find", "kind {0} ({1})".format(kind, api_version), "the cluster does not serve it")
        base = "/api/v1" if api_version == "v1" else "/apis/" + api_version
        parts = [base]
        if resource["namespaced"]:
            parts.append("namespaces/" + namespace)
        parts.append(resource["name"])
        if name:
            parts.append(name)
        return "/".join(parts)

    def url(self, path):
        """The full URL of an API path on this cluster (what a link to an object of it says)."""
        return self._client.configuration.host.rstrip("/") + path

    # --- CRUD ------------------------------------------------------------------------------
    def get(self, api_version, kind, name, namespace=None):
        """The live object, or None when it does not exist."""
        return self._call("GET", self.path(api_version, kind, namespace, name), "read", _what(kind, name, namespace), missing_ok=True)

    def namespace_exists(self, namespace):
        """True / False, or None when this user may not read namespaces (a namespaced ServiceAccount)."""
        try:
            return self.get("v1", "Namespace", namespace) is not None
        except VimError as error:
            if getattr(error, "status", None) == 403:
                return None
            raise

    def list(self, api_version, kind, namespace=None, label_selector=None):
        return self.listing(api_version, kind, namespace, label_selector)[0]

    def listing(self, api_version, kind, namespace=None, label_selector=None):
        """``(objects, resourceVersion)``: the kind's objects, and the list's resourceVersion, from which a watch of the
        kind tells every change after the list."""
        query = [("labelSelector", label_selector)] if label_selector else []
        listing = self._call("GET", self.path(api_version, kind, namespace), "list", kind + " objects", query=query)
        # List items leave out apiVersion and kind; callers get whole objects.
        items = [dict(item, apiVersion=api_version, kind=kind) for item in listing.get("items", [])]
        return items, (listing.get("metadata") or {}).get("resourceVersion")

    def watch(self, api_version, kind, namespace=None, name=None, label_selector=None, resource_version=None, timeout_seconds=60):
        """``(type, object)`` per change (ADDED, MODIFIED, DELETED) of the kind's objects in ``namespace`` (or of the one
        named) after ``resource_version``, for ``timeout_seconds`` at most; without a resourceVersion, the objects there
        now come first as ADDED. Counted as one read. Never retried: it raises WatchBroken when it breaks, and the
        caller reads the object again (a GET, with the retries of any call) before it watches on."""
        query = [("watch", "1"), ("allowWatchBookmarks", "true"), ("timeoutSeconds", str(max(1, math.ceil(timeout_seconds))))]
        if name:
            query.append(("fieldSelector", "metadata.name=" + name))
        if label_selector:
            query.append(("labelSelector", label_selector))
        if resource_version:
            query.append(("resourceVersion", str(resource_version)))
        what = _what(kind, name, namespace) if name else kind + " objects"
        path = self.path(api_version, kind, namespace)
        activity.note("watch", what)
        with self._calls_lock:
            self.calls["read"] += 1
        ends = self._clock() + timeout_seconds
        try:
            response = self._client.call_api(
                path, "GET", query_params=query, header_params={"Accept": "application/json"}, auth_settings=["BearerToken"],
                _preload_content=False, _return_http_data_only=True, _request_timeout=(REQUEST_TIMEOUT[0], timeout_seconds + WATCH_READ_SLACK))
        except ApiException as error:
            raise WatchBroken(api_error("watch", what, error).msg, expired=error.status == 410) from error
        except (Urllib3Error, OSError, http.client.HTTPException) as error:
            raise WatchBroken("{0}: {1}".format(type(error).__name__, error)) from error
        try:
            for line in _lines(response.stream()):
                event = json.loads(line)
                if event["type"] == "ERROR":
                    status = event.get("object") or {}
                    raise WatchBroken(status.get("message") or "an ERROR event", expired=status.get("code") == 410)
                if event["type"] != "BOOKMARK":
                    yield event["type"], dict(event["object"], apiVersion=api_version, kind=kind)
            if self._clock() < ends - 1:
                # Closed cleanly long before its timeout (a proxy that cuts long requests): as good as broken.
                raise WatchBroken("the watch ended before its timeout")
        except (Urllib3Error, OSError, http.client.HTTPException, ValueError, KeyError) as error:
            raise WatchBroken("{0}: {1}".format(type(error).__name__, error)) from error
        finally:
            # Left before its end (the caller has what it waited for): the connection, mid-stream, is not reusable.
            response.close()
            response.release_conn()

    def create(self, obj, namespace=None, dry_run=False):
        """POST; ``dry_run`` asks the apiserver for its verdict (validation, admission, RBAC, quota) without storing anything."""
        meta = obj["metadata"]
        path = self.path(obj["apiVersion"], obj["kind"], namespace or meta.get("namespace"))
        return self._call("POST", path, "create", _what(obj["kind"], meta["name"], namespace or meta.get("namespace")), body=obj,
                          dry_run=dry_run)

    def ask(self, obj, namespace=None, dry_run=False):
        """POST a review (manifests.CREATE_ONLY_KINDS): the API server's answer, the object with its ``status``; it stores
        nothing, so asking again is harmless. ``dry_run``: its verdict on the question (RBAC, validation) only."""
        path = self.path(obj["apiVersion"], obj["kind"], namespace)
        return self._call("POST", path, "ask", obj["kind"] + (" in namespace " + namespace if namespace else ""), body=obj, dry_run=dry_run)

    def replace(self, obj, dry_run=False):
        """PUT; ``metadata.resourceVersion`` in ``obj`` makes it conditional (a lost race is a ConflictError)."""
        meta = obj["metadata"]
        path = self.path(obj["apiVersion"], obj["kind"], meta.get("namespace"), meta["name"])
        return self._call("PUT", path, "update", _what(obj["kind"], meta["name"], meta.get("namespace")), body=obj, dry_run=dry_run)

    def patch(self, api_version, kind, name, namespace, patch, patch_type="application/merge-patch+json", dry_run=False):
        path = self.path(api_version, kind, namespace, name)
        return self._call("PATCH", path, "patch", _what(kind, name, namespace), body=patch, content_type=patch_type, dry_run=dry_run)

    def apply(self, obj, field_manager, dry_run=False):
        """Server-side apply of ``obj`` as ``field_manager``, taking the fields it sets from any other manager (force)."""
        meta = obj["metadata"]
        path = self.path(obj["apiVersion"], obj["kind"], meta.get("namespace"), meta["name"])
        return self._call("PATCH", path, "apply", _what(obj["kind"], meta["name"], meta.get("namespace")), body=obj,
                          query=[("fieldManager", field_manager), ("force", "true")], content_type="application/apply-patch+yaml",
                          dry_run=dry_run)

    def delete(self, api_version, kind, name, namespace=None, propagation="Background", grace_seconds=None, resource_version=None):
        """Delete; True when a delete was sent, False when the object was already gone.

        ``resource_version``: only that version of the object (a conflict when another writer changed it since).
        """
        body = {"kind": "DeleteOptions", "apiVersion": "v1", "propagationPolicy": propagation}
        if grace_seconds is not None:
            body["gracePeriodSeconds"] = grace_seconds
        if resource_version is not None:
            body["preconditions"] = {"resourceVersion": str(resource_version)}
        path = self.path(api_version, kind, namespace, name)
        return self._call("DELETE", path, "delete", _what(kind, name, namespace), body=body, missing_ok=True) is not None

    # --- transport -------------------------------------------------------------------------
    def _call(self, method, path, action, what, body=None, query=None, content_type=None, missing_ok=False, dry_run=False):
        activity.note(action + (" (dry run)" if dry_run else ""), what)
        with self._calls_lock:
            self.calls["dry_run" if dry_run else "read" if method == "GET" else "write"] += 1
        headers = {"Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = content_type or "application/json"
        query = list(query or []) + (DRY_RUN if dry_run else [])
        delays = backoff(retry_seconds(self._retry_seconds))
        retried = False
        while True:
            try:
                response = self._client.call_api(
                    path, method, query_params=query, header_params=headers, body=body, auth_settings=["BearerToken"],
                    _preload_content=False, _return_http_data_only=True, _request_timeout=REQUEST_TIMEOUT)
                return json.loads(response.data or b"null")
            except ApiException as error:
                if error.status == 404 and missing_ok:
                    return None
                if error.status == 409 and retried and not dry_run and method in ("POST", "PUT"):
                    live = self._already_written(path if method == "PUT" else path + "/" + body["metadata"]["name"], body, what)
                    if live is not None:
                        return live
                # Right after an outage an apiserver may answer 401/403 until its authorizers have loaded again.
                transient = error.status in TRANSIENT_STATUS or (retried and error.status in (401, 403))
                delay = next(delays, None) if transient else None
                if delay is None:
                    raise api_error(action, what, error) from error
            except (Urllib3Error, OSError, http.client.HTTPException) as error:  # a lost connection, below the kubernetes client
                delay = next(delays, None)
                if delay is None:
                    raise VimError(action, what, "the API server could not be reached ({0}): {1}".format(
                        type(error).__name__, str(error) or "connection lost")) from error
            retried = True
            self._sleep(delay)

    def _already_written(self, path, body, what):
        """The live object when it holds what ``body`` says (a repeated write whose first attempt went through), else None.

        Read with the retries of any call: the connection that lost the write's answer may fail this read too, and a
        write that went through must not be taken for another writer's (a run would give up an operation it holds)."""
        live = self._call("GET", path, "read", what, missing_ok=True)
        return live if holds(live, body) else None


def holds(live, body):
    """True when ``live`` has every field of ``body`` (metadata: its labels) as ``body`` has it."""
    if not isinstance(live, dict):
        return False
    labels = (live.get("metadata") or {}).get("labels") or {}
    if any(labels.get(key) != value for key, value in ((body.get("metadata") or {}).get("labels") or {}).items()):
        return False
    return all(live.get(key) == value for key, value in body.items() if key not in ("metadata", "status", "apiVersion", "kind"))


def api_error(action, what, error):
    """An ApiException as a collection error, with the API's own message as the reason."""
    reason = error.reason
    try:
        reason = json.loads(error.body).get("message") or reason
    except (TypeError, ValueError, AttributeError):
        pass
    reason = "{0} (HTTP {1})".format(reason, error.status)
    failure = ConflictError(action, what, reason) if error.status == 409 else VimError(action, what, reason)
    failure.status = error.status
    return failure


def _lines(chunks):
    """The lines of a streamed body, each as soon as its newline has come."""
    pending = b""
    for chunk in chunks:
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for line in lines:
            if line.strip():
                yield line
    if pending.strip():
        yield pending


def _what(kind, name, namespace):
    return "{0} {1}/{2}".format(kind, namespace, name) if namespace else "{0} {1}".format(kind, name)
