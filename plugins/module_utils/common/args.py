# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Option groups shared by the modules; each mirrors one doc fragment in plugins/doc_fragments.

The connection options have the names, aliases and environment variables of kubernetes.core 6.x
(``args_common.AUTH_ARG_SPEC`` and ``k8s/client.py``) and openstack.cloud 2.x
(``openstack_full_argument_spec``), so that ``module_defaults`` and AWX credentials written for
those collections carry over. The getting-started guide's "Connection options compared" table lists each one.
"""

from __future__ import annotations

import base64
import binascii
import re

# Options both anchors have, under the same name, each for its own VIM: here they apply to the VIM
# the module talks to (doc fragment `vim`). The aliases are the union of both anchors'.
VIM_SHARED_ARG_SPEC = {
    "vim_type": {"type": "str", "choices": ["kubernetes", "openstack"]},
    "validate_certs": {"type": "bool", "aliases": ["verify_ssl", "verify"]},
    "ca_cert": {"type": "path", "aliases": ["ssl_ca_cert", "cacert"]},
    "client_cert": {"type": "path", "aliases": ["cert_file", "cert"]},
    # openstack.cloud marks client_key no_log; kubernetes.core does not. The stricter one wins.
    "client_key": {"type": "path", "aliases": ["key_file", "key"], "no_log": True},
}

K8S_PROXY_HEADERS_SPEC = {
    "proxy_basic_auth": {"type": "str", "no_log": True},
    "basic_auth": {"type": "str", "no_log": True},
    "user_agent": {"type": "str"},
}

# kubernetes.core's AUTH_ARG_SPEC. The kubeconfig is not no_log (kubernetes.core 6 reverted that: it
# hid every value of the results that happened to equal a kubeconfig string); the secrets inside a
# kubeconfig dict are masked by value instead (kubeconfig_secrets below).
K8S_AUTH_ARG_SPEC = {
    "kubeconfig": {"type": "raw"},
    "context": {"type": "str"},
    "host": {"type": "str"},
    "api_key": {"type": "str", "no_log": True},
    "username": {"type": "str"},
    "password": {"type": "str", "no_log": True},
    "proxy": {"type": "str"},
    "no_proxy": {"type": "str"},
    "proxy_headers": {"type": "dict", "options": K8S_PROXY_HEADERS_SPEC},
    "persist_config": {"type": "bool"},
    "impersonate_user": {"type": "str"},
    "impersonate_groups": {"type": "list", "elements": "str"},
}

# The environment variables kubernetes.core reads for an option that is not set (its
# _create_auth_spec: K8S_AUTH_<option>, then K8S_AUTH_<kubernetes client attribute>). They are read
# when the client is built (k8s/client.py), as kubernetes.core does, not through the argument spec:
# the TLS options share their names with OpenStack's, and K8S_AUTH_SSL_CA_CERT must never reach
# openstacksdk.
K8S_AUTH_ENV = {
    "kubeconfig": ("K8S_AUTH_KUBECONFIG",),
    "context": ("K8S_AUTH_CONTEXT",),
    "host": ("K8S_AUTH_HOST",),
    "api_key": ("K8S_AUTH_API_KEY",),
    "username": ("K8S_AUTH_USERNAME",),
    "password": ("K8S_AUTH_PASSWORD",),
    "validate_certs": ("K8S_AUTH_VALIDATE_CERTS", "K8S_AUTH_VERIFY_SSL"),
    "ca_cert": ("K8S_AUTH_CA_CERT", "K8S_AUTH_SSL_CA_CERT"),
    "client_cert": ("K8S_AUTH_CLIENT_CERT", "K8S_AUTH_CERT_FILE"),
    "client_key": ("K8S_AUTH_CLIENT_KEY", "K8S_AUTH_KEY_FILE"),
    "proxy": ("K8S_AUTH_PROXY",),
    "no_proxy": ("K8S_AUTH_NO_PROXY",),
    "persist_config": ("K8S_AUTH_PERSIST_CONFIG",),
    "impersonate_user": ("K8S_AUTH_IMPERSONATE_USER",),
    "impersonate_groups": ("K8S_AUTH_IMPERSONATE_GROUPS",),
}
K8S_PROXY_HEADERS_ENV = {key: "K8S_AUTH_PROXY_HEADERS_" + key.upper() for key in K8S_PROXY_HEADERS_SPEC}

# openstack.cloud's openstack_full_argument_spec, less what is shared above and what the wait group
# has (wait, and timeout as an alias of wait_timeout). openstacksdk itself reads OS_CLOUD, OS_AUTH_URL
# and the other OS_* variables, and OS_CLIENT_CONFIG_FILE for clouds.yaml, when no cloud is given.
OPENSTACK_AUTH_ARG_SPEC = {
    "cloud": {"type": "raw"},
    "auth": {"type": "dict", "no_log": True},
    "auth_type": {"type": "str"},
    "region_name": {"type": "str"},
    "interface": {"type": "str", "default": "public", "choices": ["admin", "internal", "public"], "aliases": ["endpoint_type"]},
    "api_timeout": {"type": "int"},
    "sdk_log_path": {"type": "path"},
    "sdk_log_level": {"type": "str", "default": "INFO", "choices": ["INFO", "DEBUG"]},
}

WAIT_ARG_SPEC = {
    "wait": {"type": "bool", "default": True},
    # `timeout` is openstack.cloud's name for it.
    "wait_timeout": {"type": "int", "default": 600, "aliases": ["timeout"]},
    "wait_sleep": {"type": "int", "default": 2},
    "lease_seconds": {"type": "int", "default": 120},
    # The role's <operation>_end task file, run inside the operation (engine.act).
    "end_hook": {"type": "path"},
    # Not no_log, which would mask every string in it (an operation's name) wherever it appears: the secrets inside
    # (the request's) are masked by key, as the request's own are (common/module.py).
    "end_hook_vars": {"type": "dict", "no_log": False},
}

# Which VNF instance an operation is about, and where its record is kept.
INSTANCE_ARG_SPEC = {
    "vnf_instance_id": {"type": "str", "aliases": ["id"]},
    "vnf_instance_name": {"type": "str", "aliases": ["name"]},
    "namespace": {"type": "str"},
}

# Helm-chart CNFs (Tacker's ETSINFV.HELM.V_3): the helm to run, else helm on PATH (kubernetes.core.helm's binary_path).
HELM_ARG_SPEC = {
    "helm_binary": {"type": "path"},
}

ARG_GROUPS = {
    "kubernetes": dict(VIM_SHARED_ARG_SPEC, **K8S_AUTH_ARG_SPEC, **HELM_ARG_SPEC),
    "openstack": dict(VIM_SHARED_ARG_SPEC, **OPENSTACK_AUTH_ARG_SPEC),
    "wait": WAIT_ARG_SPEC,
    "instance": INSTANCE_ARG_SPEC,
}


def merge_arg_groups(argument_spec, groups):
    """Return the module's own spec with the named shared groups merged in (own options win)."""
    merged = {}
    for group in groups:
        merged.update(ARG_GROUPS[group])
    merged.update(argument_spec)
    return merged


# ---------------------------------------------------------------------------------------------
# Secrets inside option values (kubeconfig and cloud dicts, auth, requests): found by key, so that
# AnsibleModule.no_log_values masks them wherever they would appear in the output.

# Keys (lower case, '-' as '_') whose value is a credential wherever it sits: kubeconfig users
# (token, password, client-key-data, OIDC/azure/gcp auth-provider id-token, refresh-token,
# access-token, client-secret), clouds.yaml / auth (password, token, application_credential_secret),
# Tacker accessInfo (bearer_token, client_secret, password), vdu_params (password).
SECRET_KEY_WORDS = ("password", "passwd", "secret", "token", "api_key", "apikey", "passcode", "private_key")
SECRET_KEYS = frozenset(["client_key_data", "client_certificate_data", "certificate_authority_data", "key_data", "credential"])
# Keys that name secrets without being one.
NOT_SECRET_KEYS = frozenset(["token_file", "token_key", "token_type", "token_url", "token_endpoint", "password_file", "secret_ref",
                             "secret_name", "expiry_key"])
# An exec plugin's environment holds secrets and settings alike (AWS_SECRET_ACCESS_KEY, AWS_PROFILE):
# every value is masked, but not those too short to be a credential, which would mask every "1" or
# "on" of the results.
MIN_ENV_SECRET = 4
# A URL's user:password@ part (a proxy, an interfaceInfo endpoint).
URL_PASSWORD = re.compile(r"^[a-z][a-z0-9+.-]*://[^/@:\s]*:([^/@\s]+)@", re.IGNORECASE)
MASK = "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER"


def is_secret_key(key):
    if not isinstance(key, str):
        return False
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", key).lower().replace("-", "_")
    if name in NOT_SECRET_KEYS:
        return False
    return name in SECRET_KEYS or any(word in name for word in SECRET_KEY_WORDS)


def without_secret_keys(value):
    """``value`` without the keys that name a secret (:func:`is_secret_key`), at any depth."""
    if isinstance(value, dict):
        return {key: without_secret_keys(item) for key, item in value.items() if not is_secret_key(key)}
    if isinstance(value, list):
        return [without_secret_keys(item) for item in value]
    return value


def is_env_secret(entry):
    return isinstance(entry, dict) and entry.get("value") is not None and len(str(entry["value"])) >= MIN_ENV_SECRET


def is_secret_leaf(key, item):
    return is_secret_key(key) and isinstance(item, (str, int)) and not isinstance(item, bool) and str(item) != ""


def with_secrets_replaced(value, replace):
    """A copy of ``value`` with every secret leaf ``secret`` replaced by ``replace(secret)`` (a string).

    A leaf is secret when its key says so (is_secret_key), when it is the ``value`` of an ``env`` entry
    (a kubeconfig exec plugin's environment: AWS keys, tokens), or when it is the password of a URL.
    """
    if isinstance(value, dict):
        replaced = {}
        for key, item in value.items():
            if is_secret_leaf(key, item):
                replaced[key] = replace(str(item))
            elif key == "env" and isinstance(item, list):
                replaced[key] = [dict(entry, value=replace(str(entry["value"]))) if is_env_secret(entry) else entry for entry in item]
            else:
                replaced[key] = with_secrets_replaced(item, replace)
        return replaced
    if isinstance(value, list):
        return [with_secrets_replaced(item, replace) for item in value]
    match = URL_PASSWORD.match(value) if isinstance(value, str) else None
    if match:
        return value[:match.start(1)] + replace(match.group(1)) + value[match.end(1):]
    return value


def sensitive_values(value):
    """Every secret leaf of a nested dict/list (for AnsibleModule.no_log_values)."""
    found = set()

    def collect(secret):
        found.add(secret)
        return secret
    with_secrets_replaced(value, collect)
    return found


def no_log_strings(secrets):
    """``secrets`` plus the forms they may take in output: base64 (a Secret's data, a basic-auth
    header) and, for the base64 ``*-data`` of a kubeconfig, the decoded text (a PEM key)."""
    strings = set()
    for secret in secrets:
        if not secret:
            continue
        strings.add(secret)
        strings.add(base64.b64encode(secret.encode("utf-8")).decode("ascii"))
        try:
            decoded = base64.b64decode(secret, validate=True).decode("utf-8")
        except (binascii.Error, ValueError, UnicodeDecodeError):
            continue
        # Short decodings of a word that happens to be base64 ("abcd") would mask unrelated text.
        if len(decoded) >= 16:
            strings.add(decoded)
    return strings


def masked_secrets(value, mask=MASK):
    """A copy of ``value`` with every secret leaf replaced by ``mask`` (for what is stored or returned)."""
    return with_secrets_replaced(value, lambda _secret: mask)
