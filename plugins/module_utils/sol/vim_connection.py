# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""VimConnectionInfo (SOL003): the VIM types it names (vimType, as Tacker spells them), and what a record may keep of it.

A record (Kubernetes Secret, Heat stack metadata) is read by whoever may read Secrets in the namespace or the project's
stacks: it never keeps a VIM's credential. An operation that needs one takes it from the request of its own run.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.args import masked_secrets, without_secret_keys
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.schema import field_path

OPENSTACK_VIM_TYPES = ("ETSINFV.OPENSTACK_KEYSTONE.V_3", "ETSINFV.OPENSTACK_KEYSTONE.v_3", "OPENSTACK_KEYSTONE.V_3")
# Tacker v2's Helm-chart CNFs: a Kubernetes VIM reached through Helm.
HELM_VIM_TYPE = "ETSINFV.HELM.V_3"
KUBERNETES_VIM_TYPES = ("kubernetes", "ETSINFV.KUBERNETES.V_1", HELM_VIM_TYPE)
HELM_CHART_PATH_PARAM = "helm_chart_path"


def is_helm_request(request):
    """True when a request is for a Helm-chart CNF: a vimConnectionInfo entry of vimType ETSINFV.HELM.V_3, or an
    ``additionalParams.helm_chart_path`` (Tacker's two signals). ``vimConnectionInfo`` may be SOL003's map or v1's list."""
    request = request if isinstance(request, dict) else {}
    connections = request.get("vimConnectionInfo") or {}
    vims = connections.values() if isinstance(connections, dict) else connections if isinstance(connections, list) else ()
    if any(isinstance(vim, dict) and vim.get("vimType") == HELM_VIM_TYPE for vim in vims):
        return True
    params = request.get("additionalParams")
    return isinstance(params, dict) and params.get(HELM_CHART_PATH_PARAM) is not None


def is_openstack_vim(vim):
    return (vim or {}).get("vimType") in OPENSTACK_VIM_TYPES


# The port a URL without one dials.
DEFAULT_PORTS = {"http": 80, "https": 443}


def normalised_url(url, keystone=False):
    """``scheme://host:port/path`` of an http(s) URL as two are compared: host in lower case, the scheme's port written
    out, no user info (a credential), query or trailing slash; for Keystone (``keystone``) a last ``/v3`` dropped, which
    keystoneauth finds either way. None when ``url`` is not an http(s) URL with a host. Pure."""
    if not isinstance(url, str):
        return None
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    host = "[{0}]".format(parts.hostname) if ":" in parts.hostname else parts.hostname.lower()
    path = parts.path.rstrip("/")
    if keystone and path.lower().endswith("/v3"):
        path = path[:-3].rstrip("/")
    return "{0}://{1}:{2}{3}".format(scheme, host, port or DEFAULT_PORTS[scheme], path)


def check_vim_endpoints(request, vim_types, server, connection, keystone=False, what="module options"):
    """Refuse a request whose vimConnectionInfo names a VIM other than ``server``, the one the module connects to (as
    ``connection`` says: which options gave it), before anything is written: an instance has one VIM, and its record
    names the one its resources are on.

    Compared: the ``interfaceInfo.endpoint`` of each entry of a type in ``vim_types`` or of none (a merge patch's entry
    of the instance's VIM), as normalised_url makes them (``keystone``: OpenStack's Keystone). The error names the field
    and both servers, without their user info. Nothing is compared when ``server`` is unknown. Pure.
    """
    expected = normalised_url(server, keystone)
    connections = (request or {}).get("vimConnectionInfo") if isinstance(request, dict) else None
    if expected is None or not connections:
        return
    pairs = connections.items() if isinstance(connections, dict) else enumerate(connections)
    for vim_id, vim in pairs:
        if not isinstance(vim, dict) or vim.get("vimType", vim_types[0]) not in vim_types:
            continue
        interface = vim.get("interfaceInfo")
        endpoint = interface.get("endpoint") if isinstance(interface, dict) else None
        if endpoint is None:
            continue
        field = field_path(field_path("request.vimConnectionInfo", vim_id), "interfaceInfo") + ".endpoint"
        named = normalised_url(endpoint, keystone)
        if named is None:
            raise ValidationError(what, field, "is not an http(s) URL with a host")
        if named != expected:
            raise ValidationError(what, field, "names {0}, but the module connects to {1} ({2}): one VIM per instance, the one "
                                  "the module connects to".format(named, expected, connection))


def recordable_vim(vim):
    """A vimConnectionInfo entry as a record keeps it: accessInfo without its secrets (dropped, at any depth),
    interfaceInfo with any secret in it (a URL's password) masked."""
    kept = dict(vim)
    if "accessInfo" in kept:
        kept["accessInfo"] = without_secret_keys(kept["accessInfo"] or {})
    if "interfaceInfo" in kept:
        kept["interfaceInfo"] = masked_secrets(kept["interfaceInfo"])
    return kept


def recordable_vims(connections):
    """A vimConnectionInfo map as a record keeps it: every entry without secrets (a null entry of a merge patch stays)."""
    return {vim_id: recordable_vim(vim) if isinstance(vim, dict) else vim for vim_id, vim in connections.items()}


def without_vim_secrets(value):
    """``value`` with every vimConnectionInfo in it (an instance's, and those of the requests its op occs and kept data
    hold; a map, or Tacker v1's list) as a record keeps it. Pure."""
    if isinstance(value, list):
        return [without_vim_secrets(item) for item in value]
    if not isinstance(value, dict):
        return value
    result = {}
    for key, item in value.items():
        if key == "vimConnectionInfo" and isinstance(item, dict):
            result[key] = recordable_vims(item)
        elif key == "vimConnectionInfo" and isinstance(item, list):
            result[key] = [recordable_vim(vim) if isinstance(vim, dict) else vim for vim in item]
        else:
            result[key] = without_vim_secrets(item)
    return result
