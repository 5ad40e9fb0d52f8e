# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The one module wrapper: shared option groups merged once, errors turned into fail_json once."""

from __future__ import annotations

import traceback

from ansible.module_utils.basic import AnsibleModule, missing_required_lib

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.args import merge_arg_groups, sensitive_values


class VnfLcmModule:
    """A thin proxy around AnsibleModule.

    ``arg_groups`` names the shared option groups the module takes ("kubernetes", "openstack",
    "wait"); they are documented by the doc fragments of the same names.
    """

    def __init__(self, argument_spec, arg_groups=(), **kwargs):
        self._module = AnsibleModule(argument_spec=merge_arg_groups(argument_spec, arg_groups), **kwargs)
        # In-memory kubeconfig / cloud dicts and SOL003 requests (vimConnectionInfo.accessInfo)
        # carry tokens that no_log on the option cannot see.
        for option in ("kubeconfig", "cloud", "request"):
            self._module.no_log_values.update(sensitive_values(self._module.params.get(option)))

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
        self._module.exit_json(**without_credentials(result))

    def fail_from_error(self, error):
        """The only way a collection error leaves a module: message plus any partial result."""
        result = without_credentials(dict(error.result))
        result.pop("msg", None)
        result.pop("changed", None)
        self._module.fail_json(msg=error.msg, changed=bool(error.result.get("changed")),
                               exception=traceback.format_exc(), **result)


def without_credentials(value):
    """``value`` without any ``accessInfo``: SOL003 never returns a VIM's credentials, and the
    record (which keeps them for later operations) must not leak them through results."""
    if isinstance(value, dict):
        return {key: without_credentials(item) for key, item in value.items() if key != "accessInfo"}
    if isinstance(value, list):
        return [without_credentials(item) for item in value]
    return value
