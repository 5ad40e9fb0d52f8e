# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Build a Kubernetes API client from the shared connection options (kubernetes.core semantics)."""

from __future__ import annotations

import os
import traceback

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import VimError

try:
    from kubernetes import client as k8s_client
    from kubernetes import config as k8s_config
    from kubernetes.config.config_exception import ConfigException

    HAS_KUBERNETES = True
    KUBERNETES_IMPORT_ERROR = None
except ImportError:
    HAS_KUBERNETES = False
    KUBERNETES_IMPORT_ERROR = traceback.format_exc()

AUTH_OPTIONS = ("kubeconfig", "context", "host", "api_key", "validate_certs", "ca_cert", "client_cert", "client_key")


def connection_options(params):
    """The connection options out of a module's params (the rest of params is not the client's business)."""
    return {name: params.get(name) for name in AUTH_OPTIONS}


def build_api_client(options):
    """An ``ApiClient`` and the kubeconfig context's namespace (or None).

    A kubeconfig (path or dict) is loaded first, as kubernetes.core does; explicit options override
    it. With neither kubeconfig nor host, the in-cluster config, then ~/.kube/config is tried.
    """
    configuration = k8s_client.Configuration()
    namespace = None
    kubeconfig = options.get("kubeconfig")
    try:
        if kubeconfig or not options.get("host"):
            namespace = _load_kubeconfig(configuration, kubeconfig, options.get("context"))
    except (ConfigException, OSError) as error:
        raise VimError("load", "kubeconfig", str(error)) from error
    _apply_overrides(configuration, options)
    return k8s_client.ApiClient(configuration), namespace


def _load_kubeconfig(configuration, kubeconfig, context):
    if isinstance(kubeconfig, dict):
        loader = k8s_config.kube_config.KubeConfigLoader(config_dict=kubeconfig, active_context=context)
    else:
        path = os.path.expanduser(kubeconfig or os.environ.get("KUBECONFIG", "~/.kube/config"))
        if not kubeconfig and not os.path.exists(path) and "KUBERNETES_SERVICE_HOST" in os.environ:
            k8s_config.load_incluster_config(client_configuration=configuration)
            return _incluster_namespace()
        loader = k8s_config.kube_config._get_kube_config_loader(filename=path, active_context=context)
    loader.load_and_set(configuration)
    return (loader.current_context.get("context") or {}).get("namespace")


def _incluster_namespace():
    path = "/var/run/secrets/kubernetes.io/serviceaccount/namespace"
    if os.path.exists(path):
        with open(path) as handle:
            return handle.read().strip() or None
    return None


def _apply_overrides(configuration, options):
    if options.get("host"):
        configuration.host = options["host"]
    if options.get("api_key"):
        configuration.api_key = {"authorization": "Bearer " + options["api_key"]}
    if options.get("validate_certs") is not None:
        configuration.verify_ssl = options["validate_certs"]
    for option, attribute in (("ca_cert", "ssl_ca_cert"), ("client_cert", "cert_file"), ("client_key", "key_file")):
        if options.get(option):
            setattr(configuration, attribute, options[option])
