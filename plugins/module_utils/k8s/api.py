# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Kubernetes API as the LCM drivers use it: lazy discovery, CRUD on plain dicts, one error format.

Discovery asks only for the group versions the manifests use (one GET each), so a namespaced
ServiceAccount with no cluster-wide rights can use it, and an instantiate costs few calls.
"""

from __future__ import annotations

import json

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, VimError

try:
    from kubernetes.client.rest import ApiException
except ImportError:  # handled by the module's requirement check
    ApiException = None


class KubeApi:
    """CRUD on objects given as plain dicts (API camelCase), with an API-call counter."""

    def __init__(self, api_client):
        self._client = api_client
        self._discovered = {}
        self.calls = {"read": 0, "write": 0}

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
        query = [("labelSelector", label_selector)] if label_selector else []
        listing = self._call("GET", self.path(api_version, kind, namespace), "list", kind + " objects", query=query)
        # List items leave out apiVersion and kind; callers get whole objects.
        return [dict(item, apiVersion=api_version, kind=kind) for item in listing.get("items", [])]

    def create(self, obj, namespace=None):
        meta = obj["metadata"]
        path = self.path(obj["apiVersion"], obj["kind"], namespace or meta.get("namespace"))
        return self._call("POST", path, "create", _what(obj["kind"], meta["name"], namespace or meta.get("namespace")), body=obj)

    def replace(self, obj):
        """PUT; ``metadata.resourceVersion`` in ``obj`` makes it conditional (a lost race is a ConflictError)."""
        meta = obj["metadata"]
        path = self.path(obj["apiVersion"], obj["kind"], meta.get("namespace"), meta["name"])
        return self._call("PUT", path, "update", _what(obj["kind"], meta["name"], meta.get("namespace")), body=obj)

    def patch(self, api_version, kind, name, namespace, patch, patch_type="application/merge-patch+json"):
        path = self.path(api_version, kind, namespace, name)
        return self._call("PATCH", path, "patch", _what(kind, name, namespace), body=patch, content_type=patch_type)

    def delete(self, api_version, kind, name, namespace=None, propagation="Background", grace_seconds=None):
        """Delete; True when a delete was sent, False when the object was already gone."""
        body = {"kind": "DeleteOptions", "apiVersion": "v1", "propagationPolicy": propagation}
        if grace_seconds is not None:
            body["gracePeriodSeconds"] = grace_seconds
        path = self.path(api_version, kind, namespace, name)
        return self._call("DELETE", path, "delete", _what(kind, name, namespace), body=body, missing_ok=True) is not None

    # --- transport -------------------------------------------------------------------------
    def _call(self, method, path, action, what, body=None, query=None, content_type=None, missing_ok=False):
        self.calls["read" if method == "GET" else "write"] += 1
        headers = {"Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = content_type or "application/json"
        try:
            response = self._client.call_api(
                path, method, query_params=query or [], header_params=headers, body=body,
                auth_settings=["BearerToken"], _preload_content=False, _return_http_data_only=True)
        except ApiException as error:
            if error.status == 404 and missing_ok:
                return None
            raise api_error(action, what, error) from error
        return json.loads(response.data or b"null")


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


def _what(kind, name, namespace):
    return "{0} {1}/{2}".format(kind, namespace, name) if namespace else "{0} {1}".format(kind, name)
