# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Harness for calling a module's main() in-process: set its arguments, catch its exit."""

from __future__ import annotations

import pytest

from ansible.module_utils import basic

try:
    from ansible.module_utils.testing import patch_module_args  # ansible-core >= 2.19
except ImportError:  # older cores only read _ANSIBLE_ARGS
    import json
    from contextlib import contextmanager

    from ansible.module_utils.common.text.converters import to_bytes

    @contextmanager
    def patch_module_args(args=None):
        old = basic._ANSIBLE_ARGS
        basic._ANSIBLE_ARGS = to_bytes(json.dumps({"ANSIBLE_MODULE_ARGS": args or {}}))
        try:
            yield
        finally:
            basic._ANSIBLE_ARGS = old


class ModuleExit(Exception):
    """exit_json or fail_json was called; result holds what the module returned."""

    def __init__(self, result, failed):
        super().__init__(result)
        self.result = result
        self.failed = failed


@pytest.fixture
def run_module(monkeypatch):
    """run_module(main, args) -> (result, failed)."""

    def exit_json(self, **kwargs):
        raise ModuleExit(kwargs, failed=False)

    def fail_json(self, **kwargs):
        raise ModuleExit(kwargs, failed=True)

    monkeypatch.setattr(basic.AnsibleModule, "exit_json", exit_json)
    monkeypatch.setattr(basic.AnsibleModule, "fail_json", fail_json)

    def run(main, args):
        with patch_module_args(args):
            with pytest.raises(ModuleExit) as caught:
                main()
        return caught.value.result, caught.value.failed

    return run
