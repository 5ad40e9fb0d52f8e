# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The one module wrapper: shared option groups merged once, errors turned into fail_json once."""

from __future__ import annotations

import os
import traceback

from ansible.module_utils.basic import AnsibleModule, missing_required_lib

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.args import (
    is_secret_key, merge_arg_groups, no_log_strings, sensitive_values, without_secret_keys)

# Options whose values may hold a secret that no_log on the option cannot see: a kubeconfig or cloud
# dict, a SOL003 request (vimConnectionInfo.accessInfo, vdu_params), a proxy URL with a password.
OPTIONS_WITH_SECRETS = ("kubeconfig", "cloud", "auth", "request", "proxy", "proxy_headers", "end_hook_vars")
# Environment variables the clients read credentials from (K8S_AUTH_API_KEY, OS_PASSWORD, ...).
CREDENTIAL_ENV_PREFIXES = ("K8S_AUTH_", "OS_")

# Credentials the clients resolve at run time (a kubeconfig file's token, a clouds.yaml password, a
# Keystone token): masked in whatever the module returns, as the options' own secrets are.
_RUNTIME_SECRETS = set()


def hide_in_output(*values):
    """Never print these values (nor their base64) in a result or an error of this module run."""
    _RUNTIME_SECRETS.update(no_log_strings(str(value) for value in values if value))


def is_credential_variable(name):
    # K8S_AUTH_PROXY_HEADERS_BASIC_AUTH holds "user:password".
    return is_secret_key(name) or name.endswith("BASIC_AUTH")


def option_secrets(params):
    """What no_log on the options cannot see: secrets inside their values, and in the credential variables."""
    secrets = set()
    for option in OPTIONS_WITH_SECRETS:
        secrets |= sensitive_values(params.get(option))
    secrets |= {value for name, value in os.environ.items() if name.startswith(CREDENTIAL_ENV_PREFIXES) and is_credential_variable(name)}
    secrets |= sensitive_values(os.environ.get("K8S_AUTH_PROXY"))
    return no_log_strings(secrets)


class SecretMaskingModule(AnsibleModule):
    """AnsibleModule masking the secrets inside option values from the moment it reads its arguments: an
    argument error (an unknown option, a wrong type) fails inside AnsibleModule() and prints them too."""

    def _load_params(self):
        super()._load_params()
        self.no_log_values.update(option_secrets(self.params))


class VnfLcmModule:
    """A thin proxy around AnsibleModule.

    ``arg_groups`` names the shared option groups the module takes ("kubernetes", "openstack",
    "wait"); they are documented by the doc fragments of the same names.
    """

    def __init__(self, argument_spec, arg_groups=(), **kwargs):
        self._module = SecretMaskingModule(argument_spec=merge_arg_groups(argument_spec, arg_groups), **kwargs)

    @property
    def params(self):
        return self._module.params

    @property
    def check_mode(self):
        return self._module.check_mode

    @property
    def diff_mode(self):
        return self._module._diff

    def warn(self, message):
        self._module.warn(message)

    def require(self, library, present, import_error=None):
        """Fail cleanly when an optional Python library is missing."""
        if not present:
            self._module.fail_json(msg=missing_required_lib(library), exception=import_error)

    def exit_json(self, **result):
        self._module.no_log_values.update(_RUNTIME_SECRETS)
        self._module.exit_json(**without_credentials(result))

    def fail_from_error(self, error):
        """The only way a collection error leaves a module: message plus any partial result."""
        self._module.no_log_values.update(_RUNTIME_SECRETS)
        result = without_credentials(dict(error.result))
        result.pop("msg", None)
        result.pop("changed", None)
        self._module.fail_json(msg=error.msg, changed=bool(error.result.get("changed")),
                               exception=traceback.format_exc(), **result)


def without_credentials(value):
    """``value`` with every ``accessInfo`` without its secrets (keys that name a password, token, secret, ... at any
    depth), and left out when nothing else is in it: in a response, SOL003 lets accessInfo hold no security-sensitive
    attribute, and Tacker v2 returns the rest (username, project, region)."""
    if isinstance(value, dict):
        result = {}
        for key, item in value.items():
            if key == "accessInfo" and isinstance(item, dict):
                item = without_secret_keys(item)
                if item:
                    result[key] = item
            elif key != "accessInfo":
                result[key] = without_credentials(item)
        return result
    if isinstance(value, list):
        return [without_credentials(item) for item in value]
    return value
