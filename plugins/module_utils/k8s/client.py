# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Build a Kubernetes API client from the shared connection options (kubernetes.core semantics)."""

from __future__ import annotations

import os
import traceback

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.args import K8S_AUTH_ARG_SPEC, K8S_AUTH_ENV, K8S_PROXY_HEADERS_ENV, VIM_SHARED_ARG_SPEC
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import VimError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.module import hide_in_output
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.pool import WORKERS
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import lean_import

# kubernetes.config (kubeconfig and in-cluster loading) is imported by _load_kubeconfig only: it brings yaml, oauthlib,
# requests_oauthlib and google-auth, which a call with host and a token never uses. What every call needs (the
# Configuration and the ApiClient with its transport) is imported here, so HAS_KUBERNETES still says whether it loads.
try:
    lean_import.prepare()
    from kubernetes.client import ApiClient, Configuration
    import urllib3

    HAS_KUBERNETES = True
    KUBERNETES_IMPORT_ERROR = None
except ImportError:
    HAS_KUBERNETES = False
    KUBERNETES_IMPORT_ERROR = traceback.format_exc()

# The options this client reads: kubernetes.core's connection options, and the TLS ones the VIMs share.
AUTH_OPTIONS = tuple(VIM_SHARED_ARG_SPEC) + tuple(K8S_AUTH_ARG_SPEC)
FALSE_STRINGS = ("0", "false", "no")


def connection_options(params, environ=None):
    """The connection options out of a module's params, completed from K8S_AUTH_* as kubernetes.core does.

    An option that is not set takes the first of its variables that is set (args.K8S_AUTH_ENV); a
    boolean is false for 0/false/no (any case), a list is comma-separated.
    """
    environ = os.environ if environ is None else environ
    options = {name: params.get(name) for name in AUTH_OPTIONS if name != "vim_type"}
    for name, variables in K8S_AUTH_ENV.items():
        if options.get(name) is not None:
            continue
        value = next((environ[variable] for variable in variables if environ.get(variable)), None)
        if value is not None:
            options[name] = from_environment(value, (VIM_SHARED_ARG_SPEC.get(name) or K8S_AUTH_ARG_SPEC[name])["type"])
    headers = {key: value for key, value in (options.get("proxy_headers") or {}).items() if value is not None}
    if not headers:
        headers = {key: environ[variable] for key, variable in K8S_PROXY_HEADERS_ENV.items() if environ.get(variable)}
    options["proxy_headers"] = headers or None
    return options


def from_environment(value, option_type):
    if option_type == "bool":
        return value.lower() not in FALSE_STRINGS
    if option_type == "list":
        return [item for item in value.split(",") if item]
    return value


def build_api_client(options):
    """An ``ApiClient`` and the kubeconfig context's namespace (or None).

    As kubernetes.core: ``host`` with ``api_key``, with ``username``/``password``, or with
    ``client_cert``/``client_key`` is enough on its own; otherwise a kubeconfig (path or dict) is loaded
    first and explicit options override it. With neither kubeconfig nor host, the in-cluster config,
    then ~/.kube/config is tried.
    """
    configuration = Configuration()
    namespace = None
    kubeconfig = options.get("kubeconfig")
    if kubeconfig or options.get("context") or not self_sufficient(options):
        namespace = _load_kubeconfig(configuration, kubeconfig, options.get("context"), options.get("persist_config"))
    _apply_overrides(configuration, options)
    # A connection per call in flight (common/pool.py): fewer, and urllib3 would open and drop extra ones.
    configuration.connection_pool_maxsize = max(configuration.connection_pool_maxsize or 0, WORKERS)
    client = ApiClient(configuration)
    _impersonate(client, options.get("impersonate_user"), options.get("impersonate_groups"))
    hide_in_output(*(configuration.api_key or {}).values())
    hide_in_output(*(value.split(" ", 1)[-1] for value in (configuration.api_key or {}).values()))
    return client, namespace


def self_sufficient(options):
    """Whether the options alone can authenticate to ``host`` (kubernetes.core's rule)."""
    def given(*names):
        return all(options.get(name) for name in names)
    return given("host", "api_key") or given("host", "username", "password") or given("host", "client_cert", "client_key")


def _load_kubeconfig(configuration, kubeconfig, context, persist_config=None):
    """Load the kubeconfig (or the in-cluster config) into ``configuration``; the context's namespace (or None)."""
    try:
        from kubernetes.config import incluster_config, kube_config
        from kubernetes.config.config_exception import ConfigException
    except ImportError as error:
        raise VimError("load", "kubeconfig", "the kubernetes library cannot load it: {0}".format(error)) from error
    try:
        if isinstance(kubeconfig, dict):
            loader = kube_config.KubeConfigLoader(config_dict=kubeconfig, active_context=context)
        else:
            path = os.path.expanduser(kubeconfig or os.environ.get("KUBECONFIG", "~/.kube/config"))
            if not kubeconfig and not os.path.exists(path) and "KUBERNETES_SERVICE_HOST" in os.environ:
                incluster_config.load_incluster_config(client_configuration=configuration)
                return _incluster_namespace()
            loader = kube_config._get_kube_config_loader(filename=path, active_context=context, persist_config=bool(persist_config))
        loader.load_and_set(configuration)
        return (loader.current_context.get("context") or {}).get("namespace")
    except (ConfigException, OSError) as error:
        raise VimError("load", "kubeconfig", str(error)) from error


def _incluster_namespace():
    path = "/var/run/secrets/kubernetes.io/serviceaccount/namespace"
    if os.path.exists(path):
        with open(path) as handle:
            return handle.read().strip() or None
    return None


def _apply_overrides(configuration, options):
    if options.get("host"):
        configuration.host = options["host"].rstrip("/")
    if options.get("api_key"):
        configuration.api_key = {"authorization": "Bearer " + options["api_key"]}
    elif options.get("username") and options.get("password"):
        # HTTP basic auth, as kubernetes.core means these options (the kubernetes client itself
        # ignores Configuration.username/password: it only sends the authorization api key).
        configuration.username, configuration.password = options["username"], options["password"]
        configuration.api_key = {"authorization": configuration.get_basic_auth_token()}
    if options.get("validate_certs") is not None:
        configuration.verify_ssl = options["validate_certs"]
    for option, attribute in (("ca_cert", "ssl_ca_cert"), ("client_cert", "cert_file"), ("client_key", "key_file"),
                              ("proxy", "proxy"), ("no_proxy", "no_proxy")):
        if options.get(option):
            setattr(configuration, attribute, options[option])
    if options.get("proxy_headers"):
        configuration.proxy_headers = urllib3.util.make_headers(**options["proxy_headers"])


class HeaderName(str):
    """A header name that is a distinct dict key each time, so that one header can be sent once per
    value (Impersonate-Group), as kubernetes.core does. urllib3 files headers under key.lower(): that
    must be the same object on every call, or the header would be lost."""

    _lower = None

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return self is not other

    def lower(self):
        if self._lower is None:
            lowered = str.lower(self)
            self._lower = self if str.__eq__(lowered, self) else HeaderName(lowered)
        return self._lower


def _impersonate(client, user, groups):
    if user:
        client.set_default_header("Impersonate-User", user)
    for group in groups or ():
        client.set_default_header(HeaderName("Impersonate-Group"), group)
