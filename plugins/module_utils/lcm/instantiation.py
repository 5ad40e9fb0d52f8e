# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vnf_instantiate's run on any driver: the package is read, and closed, while the driver plans the operation.

Apart from lcm/instance_run.py, which every module carries: only the modules that read a package carry the reader.
"""

from __future__ import annotations

from typing import Callable

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError, VimError
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import engine, instance_run
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import creation_fields, with_metadata_warning


def run_instantiate(session: instance_run.Session, params: dict, plan: Callable[..., engine.Operation], check_mode: bool = False,
                    diff_mode: bool = False) -> dict:
    """``plan(package, name, description, metadata)``: the driver's plan of the instance the module options create."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

    with load_package(params["package"]) as package:
        name, description, metadata = creation_fields(params, package.to_dict()["vnfd"])
        operation = plan(package, name, description, metadata)
    operation = with_metadata_warning(operation, metadata)
    return instance_run.with_api_calls(engine.run(operation, check_mode, diff_mode, settings=engine.settings_of(params)), session)


def check_package_of(instance, vnfd_id):
    """A repair restores the instance as its own package says: another package is refused."""
    if vnfd_id != instance.get("vnfdId"):
        raise ValidationError("module options", "package", "reconcile restores VNF instance {0} as its package (vnfdId {1}) says; this package's "
                              "vnfdId is {2}: give that package, or change the instance's package with vnf_change_pkg".format(
                                  instance["id"], instance.get("vnfdId"), vnfd_id))


def refuse_reconcile(params: dict, driver: str) -> None:
    """``reconcile`` repairs the drift of CNFs of def files and of VM-based VNFs: refused, before any connection, for
    ``driver``'s VNFs."""
    if params.get("reconcile"):
        raise ValidationError("module options", "reconcile", "drift is repaired for CNFs of Kubernetes def files and VM-based VNFs only, "
                              "not for {0} yet".format(driver))


def drift_in_plan(plan, read):
    """A re-run's plan says how many objects drifted (``plan.drift``, ``plan.drifted``) as ``read()`` reports them; drift
    that cannot be read (a user who may not read a kind) is said so, as the re-run does not fail for it. Returns the line
    that says what ``reconcile: true`` would do, or None."""
    try:
        report = read()
    except VimError as error:
        plan["drift"] = "not read: {0}".format(error.reason)
        return None
    plan["drift"] = "{0} objects".format(report["drifted"])
    if not report["drifted"]:
        return None
    plan["drifted"] = report["objects"]
    return "drift: {0} objects (reconcile: true repairs them)".format(report["drifted"])
