# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vnf_lcm_op_occ for every driver: retry, roll back or fail a FAILED_TEMP op occ of the instance the options select,
written once against the driver's session (lcm/instance_run.py). A driver's resume.py says what differs: which package a
resume reads again, the resumer of each operation, and the record a fail leaves.

Kept apart from instance_run.py: only vnf_lcm_op_occ carries the package reader this imports.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Optional, Tuple

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import engine, instance_run
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import Waits, waits


def run_resume(session: instance_run.Session, params: dict, package_of: Callable[[dict, str, dict, dict], Optional[str]],
               plan_resume: Callable[..., engine.Operation], as_failed: Callable[[Any, Any, dict, dict, Waits], Tuple[Optional[dict], Iterable[str]]],
               check_mode: bool = False, diff_mode: bool = False) -> dict:
    """``package_of(params, event, failed_op_occ, instance)``: the package the resume reads again (a path, or None);
    ``plan_resume(client, store, found, failed_op_occ, event, waits, package=, params=)``: the operation that carries out
    the retry or rollback; ``as_failed(client, store, instance, failed_op_occ, waits)``: ``(instance, notes)``, the record a
    fail leaves (None: as it is)."""
    store, found = instance_run.locate(session, params)
    event = params["action"]
    client = session.client()

    def plan(failed, record):
        from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import optional_package

        # Planning reads all it needs of the package: it is closed before the operation runs.
        with optional_package(package_of(params, event, failed, record[0])) as package:
            return plan_resume(client, store, record, failed, event, waits(params), package=package, params=params)

    result = engine.act_on_op_occ(store, found, params.get("vnf_lcm_op_occ_id"), event, plan, check_mode, diff_mode,
                                  lambda failed: as_failed(client, store, found[0], failed, waits(params)), force=params.get("force"),
                                  settings=engine.settings_of(params))
    return instance_run.with_api_calls(result, session)
