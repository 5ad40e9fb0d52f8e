# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Option groups shared by the modules; each mirrors one doc fragment in plugins/doc_fragments."""

from __future__ import annotations

from ansible.module_utils.basic import env_fallback

# Same names, aliases and K8S_AUTH_* fallbacks as kubernetes.core, so module_defaults carry over.
K8S_AUTH_ARG_SPEC = {
    "kubeconfig": {"type": "raw", "fallback": (env_fallback, ["K8S_AUTH_KUBECONFIG"])},
    "context": {"type": "str", "fallback": (env_fallback, ["K8S_AUTH_CONTEXT"])},
    "host": {"type": "str", "fallback": (env_fallback, ["K8S_AUTH_HOST"])},
    "api_key": {"type": "str", "no_log": True, "fallback": (env_fallback, ["K8S_AUTH_API_KEY"])},
    "validate_certs": {"type": "bool", "aliases": ["verify_ssl"], "fallback": (env_fallback, ["K8S_AUTH_VERIFY_SSL"])},
    "ca_cert": {"type": "path", "aliases": ["ssl_ca_cert"], "fallback": (env_fallback, ["K8S_AUTH_SSL_CA_CERT"])},
    "client_cert": {"type": "path", "aliases": ["cert_file"], "fallback": (env_fallback, ["K8S_AUTH_CERT_FILE"])},
    "client_key": {"type": "path", "aliases": ["key_file"], "no_log": False, "fallback": (env_fallback, ["K8S_AUTH_KEY_FILE"])},
}

# As openstack.cloud: `cloud` is a clouds.yaml entry name or a full cloud dict.
OPENSTACK_AUTH_ARG_SPEC = {
    "cloud": {"type": "raw"},
    "auth": {"type": "dict", "no_log": True},
    "auth_type": {"type": "str"},
    "region_name": {"type": "str"},
    "interface": {"type": "str", "default": "public", "choices": ["admin", "internal", "public"], "aliases": ["endpoint_type"]},
}

WAIT_ARG_SPEC = {
    "wait": {"type": "bool", "default": True},
    "wait_timeout": {"type": "int", "default": 600},
    "wait_sleep": {"type": "int", "default": 2},
    "lease_seconds": {"type": "int", "default": 120},
}

# Which VNF instance an operation is about, and where its record is kept.
INSTANCE_ARG_SPEC = {
    "vnf_instance_id": {"type": "str", "aliases": ["id"]},
    "vnf_instance_name": {"type": "str", "aliases": ["name"]},
    "namespace": {"type": "str"},
}

ARG_GROUPS = {
    "kubernetes": K8S_AUTH_ARG_SPEC,
    "openstack": OPENSTACK_AUTH_ARG_SPEC,
    "wait": WAIT_ARG_SPEC,
    "instance": INSTANCE_ARG_SPEC,
}

# Keys of an in-memory kubeconfig or cloud dict whose values are secrets.
SENSITIVE_KEYS = frozenset(
    ["token", "password", "client-key-data", "api_key", "application_credential_secret", "secret", "bearer_token", "access-token",
     "client_secret"]
)


def merge_arg_groups(argument_spec, groups):
    """Return the module's own spec with the named shared groups merged in (own options win)."""
    merged = {}
    for group in groups:
        merged.update(ARG_GROUPS[group])
    merged.update(argument_spec)
    return merged


def sensitive_values(value):
    """Every secret-looking leaf in a nested dict/list (for AnsibleModule.no_log_values)."""
    found = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key in SENSITIVE_KEYS and isinstance(item, str) and item:
                found.add(item)
            else:
                found |= sensitive_values(item)
    elif isinstance(value, list):
        for item in value:
            found |= sensitive_values(item)
    return found


def masked_secrets(value, mask="VALUE_SPECIFIED_IN_NO_LOG_PARAMETER"):
    """A copy of ``value`` with every secret-looking leaf replaced by ``mask`` (for what is stored or returned)."""
    if isinstance(value, dict):
        return {key: mask if key in SENSITIVE_KEYS and isinstance(item, str) and item else masked_secrets(item, mask) for key, item in value.items()}
    if isinstance(value, list):
        return [masked_secrets(item, mask) for item in value]
    return value
