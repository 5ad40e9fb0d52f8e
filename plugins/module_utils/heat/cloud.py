# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The openstacksdk connection, and the one place that turns SDK errors into VimError.

A connection comes from the module's openstack.cloud-style options (``cloud``, ``auth``, ...) or
from a SOL003 ``vimConnectionInfo`` entry of type ``ETSINFV.OPENSTACK_KEYSTONE.V_3``, as Tacker
accepts it (``interfaceInfo.endpoint``, ``accessInfo.username/password/project/...``).
"""

from __future__ import annotations

import contextlib
import traceback

from ansible_collections.nfv.vnflcm.plugins.module_utils.common import activity
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.args import sensitive_values
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.module import hide_in_output
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, NotFoundError, ValidationError, VimError, VnfLcmError
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import is_openstack_vim

try:
    import openstack
    from openstack import exceptions as sdk_exceptions

    HAS_OPENSTACKSDK = True
    OPENSTACKSDK_IMPORT_ERROR = None
except ImportError:  # pragma: no cover - reported by the module through missing_required_lib
    openstack = None
    sdk_exceptions = None
    HAS_OPENSTACKSDK = False
    OPENSTACKSDK_IMPORT_ERROR = traceback.format_exc()

# accessInfo keys (Tacker) -> keystoneauth password plugin keys.
ACCESS_INFO_AUTH = (
    ("username", "username"),
    ("password", "password"),
    ("project", "project_name"),
    ("projectId", "project_id"),
    ("projectDomain", "project_domain_name"),
    ("userDomain", "user_domain_name"),
)


def openstack_vim(request):
    """The request's OpenStack vimConnectionInfo entry (the first one), or None."""
    connections = (request or {}).get("vimConnectionInfo") or {}
    items = connections.values() if isinstance(connections, dict) else connections
    return next((vim for vim in items if is_openstack_vim(vim)), None)


# Module options -> openstack.connect keyword arguments (openstack.cloud's openstack_cloud_from_module).
CONNECT_OPTIONS = (
    ("auth", "auth"),
    ("auth_type", "auth_type"),
    ("region_name", "region_name"),
    ("validate_certs", "verify"),
    ("ca_cert", "cacert"),
    ("client_cert", "cert"),
    ("client_key", "key"),
    ("api_timeout", "api_timeout"),
)


def connection_options(params, vim=None):
    """keyword arguments for ``openstack.connect`` from module params, else from a vimConnectionInfo entry.

    Module options win: they are how the controller reaches the cloud. ``vim`` fills in when they are absent.
    With neither ``cloud`` nor ``auth``, openstacksdk reads OS_CLOUD / OS_* and clouds.yaml itself.
    A ``cloud`` dict is completed by the other options; one that sets an option differently is an
    error (openstack.cloud refuses any option next to a cloud dict; a silent choice would be worse).
    """
    cloud = params.get("cloud")
    options = {"interface": params.get("interface") or "public"}
    given = {target: params[source] for source, target in CONNECT_OPTIONS if params.get(source) is not None}
    if isinstance(cloud, dict):
        for key, value in given.items():
            if key in cloud and cloud[key] != value:
                raise ValidationError("module options", "cloud",
                                      "the cloud dict sets {0} and the option {1} sets it differently: give it once".format(
                                          key, dict((t, s) for s, t in CONNECT_OPTIONS)[key]))
        if params.get("interface") not in (None, "public") and cloud.get("interface") not in (None, params["interface"]):
            raise ValidationError("module options", "cloud", "the cloud dict sets interface and the option interface sets it differently: give it once")
        options.update(cloud)
    elif cloud:
        options["cloud"] = cloud
    options.update(given)
    if not (cloud or params.get("auth")) and vim:
        options.update(vim_options(vim))
    return options


def vim_options(vim):
    """openstack.connect keyword arguments from a Tacker-style vimConnectionInfo entry."""
    interface = vim.get("interfaceInfo") or {}
    access = vim.get("accessInfo") or {}
    if not interface.get("endpoint"):
        raise ValidationError("vimConnectionInfo", "vimConnectionInfo.interfaceInfo.endpoint", "the Keystone URL is missing")
    auth = {"auth_url": interface["endpoint"]}
    auth.update((target, access[source]) for source, target in ACCESS_INFO_AUTH if access.get(source))
    options = {"auth_type": "password", "auth": auth}
    if access.get("region"):
        options["region_name"] = access["region"]
    if interface.get("skipCertificateVerification") or interface.get("skipCertificateHostnameCheck"):
        options["verify"] = False
    if interface.get("cacert"):
        options["cacert"] = interface["cacert"]
    return options


def keystone_url(conn):
    """The Keystone URL the connection authenticates at (None for an auth plugin without one)."""
    return (conn.config.get_auth_args() or {}).get("auth_url")


def connection_source(params):
    """Which options gave the connection, for an error that names the VIM the module connects to."""
    for option in ("cloud", "auth"):
        if params.get(option):
            return "the {0} option; without cloud and auth the module connects to the request's".format(option)
    return "the request's first OpenStack vimConnectionInfo entry"


# Seconds one API request may take when api_timeout is not set: a peer that vanished must not hang
# an operation (openstack.cloud passes nothing then, and requests waits for ever).
API_TIMEOUT = 120


def connect(options):
    """An authenticated openstacksdk Connection; VimError when keystone refuses.

    Whatever credentials openstacksdk resolved (clouds.yaml, secure.yaml, OS_* variables) and the
    Keystone token are masked in the module's output.
    """
    with sdk_errors("connect to", "the OpenStack cloud"):
        conn = openstack.connect(**dict({"api_timeout": API_TIMEOUT}, **options))
        hide_in_output(*sensitive_values(getattr(conn.config, "config", None) or {}))
        hide_in_output(conn.authorize())
    return conn


def enable_sdk_logging(log_path, log_level):
    """openstack.cloud's sdk_log_path / sdk_log_level: openstacksdk's log, HTTP requests included at DEBUG."""
    if log_path:
        debug = log_level == "DEBUG"
        openstack.enable_logging(debug=debug, http_debug=debug, path=log_path)


@contextlib.contextmanager
def sdk_errors(action, what):
    """The one place an SDK/API error becomes ``Failed to <action> <what>: <reason>``."""
    activity.note(action, what)
    try:
        yield
    except Exception as error:  # noqa: B902 - SDK, keystoneauth and requests errors all end here
        if isinstance(error, VnfLcmError):
            raise
        if sdk_exceptions is not None and isinstance(error, sdk_exceptions.NotFoundException):
            raise NotFoundError(what, reason_of(error)) from error
        if sdk_exceptions is not None and isinstance(error, sdk_exceptions.ConflictException):
            raise ConflictError(action, what, reason_of(error)) from error
        raise VimError(action, what, reason_of(error)) from error


def reason_of(error):
    """The server's explanation when there is one (Heat puts it in error.message), else the exception text."""
    details = getattr(error, "details", None)
    response = getattr(error, "response", None)
    if response is not None:
        try:
            body = response.json()
        except ValueError:
            body = None
        if isinstance(body, dict):
            inner = body.get("error") if isinstance(body.get("error"), dict) else body
            message = inner.get("message") or inner.get("explanation") or body.get("explanation")
            if message:
                return str(message).strip()
    return str(details or error).strip() or type(error).__name__


class CallCounter:
    """Counts the HTTP calls of a connection by kind (read/write) and service: what benchmarks and tests compare."""

    def __init__(self, conn):
        self.calls = {"read": 0, "write": 0, "heat_write": 0}
        self._heat = None
        try:
            self._heat = conn.orchestration.get_endpoint().rstrip("/")
        except Exception:  # noqa: B902 - counting must never break an operation
            self._heat = None
        session = getattr(conn.session, "session", None)
        if session is not None:
            session.hooks.setdefault("response", []).append(self._count)

    def _count(self, response, *args, **kwargs):
        method = response.request.method
        # A preview (POST /stacks/preview, PATCH .../preview) asks Heat what it would do: it writes nothing.
        write = method not in ("GET", "HEAD", "OPTIONS") and "/preview" not in response.request.url
        self.calls["write" if write else "read"] += 1
        if write and self._heat and response.request.url.startswith(self._heat):
            self.calls["heat_write"] += 1
        return response
