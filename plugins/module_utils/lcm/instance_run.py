# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What every driver's run of an operation on an existing instance shares, written once against its Session: finding the
instance the params select, refusing while an earlier operation is unfinished, planning, running, counting API calls.

A driver's session (lcm/cnf/session.py, lcm/vm/session.py) is its connection to the VIM as the operations use it; the
operation files beside it hold only what differs.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Protocol, Tuple

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import NotFoundError
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import engine
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.drivers import HandOver, instance_driver
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import Waits, waits


class Session(Protocol):
    """A driver's connection to its VIM. ``driver``: the driver's name (a key of lcm/drivers.py's DRIVER_VIMS)."""

    driver: str

    def store(self) -> Any:
        """The record store (lcm/engine.py's RecordStore) of the instances this session reaches."""

    def where(self) -> str:
        """Where those records are, as a not-found error says it ("in namespace x")."""

    def client(self) -> Any:
        """What the driver's planners are given to reach the VIM (the Kubernetes API, the cloud)."""

    def api_calls(self) -> Dict[str, int]:
        """The API calls made so far, reads and writes: what the benchmarks compare."""

    def plan(self, planner: Callable[..., engine.Operation], store: Any, found: Tuple, request: Optional[dict], waits: Waits,
             preview: bool) -> engine.Operation:
        """``planner(client, store, found, request, waits=...)`` (the driver's plan_scale, plan_heal, ...) called with the
        session's client; ``preview``: check or diff mode, for a driver whose plan can show more then (a Heat stack update
        preview)."""


def automatic_invocation(params: dict) -> bool:
    """The modules' automatic_invocation option: the op occ is the VNFM's own doing (the closed loop's)."""
    return params.get("automatic_invocation") is True


def with_api_calls(result: dict, session: Session) -> dict:
    result["api_calls"] = session.api_calls()
    return result


def locate(session: Session, params: dict) -> Tuple[Any, Tuple]:
    """``(store, (instance, op_occs, version))`` of the instance the params select; NotFoundError names where it looked.
    An instance of another driver on the same VIM (a Helm-chart CNF found by the CNF driver) is handed over to it
    (lcm/drivers.py: HandOver)."""
    store = session.store()
    found = store.find(params.get("vnf_instance_id"), params.get("vnf_instance_name"))
    if found is None:
        wanted = params.get("vnf_instance_id") or repr(params.get("vnf_instance_name"))
        raise NotFoundError("VNF instance {0} {1}".format(wanted, session.where()))
    owner = instance_driver(found[0], session.driver)
    if owner != session.driver:
        raise HandOver(owner)
    return store, found


def on_instance(session: Session, planner: Callable[..., engine.Operation], params: dict, check_mode: bool = False, diff_mode: bool = False,
                *, name: str, missing_ok: bool = False) -> dict:
    """The run of ``planner`` on the instance the params select: ``name`` (SCALE, ...) is the operation, for the refusal
    while an earlier one is unfinished; ``missing_ok``: an instance that does not exist (any more) is nothing to do."""
    try:
        store, found = locate(session, params)
    except NotFoundError as error:
        if not missing_ok:
            raise
        return with_api_calls({"changed": False, "vnf_instance": None, "plan": {"lines": [error.msg]}}, session)
    engine.require_idle(store, found, name, check_mode=check_mode)
    settings = engine.settings_of(params)
    operation = session.plan(planner, store, found, params.get("request"), waits(params), check_mode or diff_mode)
    operation.automatic_invocation = automatic_invocation(params)
    return with_api_calls(engine.run(operation, check_mode, diff_mode, settings=settings), session)


def unclaimer(session: Session, params: dict) -> Optional[Tuple[Any, str]]:
    """``(store, name)``: where a run by name looks for its name's claim left without a record (lcm/delete.py); None by id."""
    name = params.get("vnf_instance_name")
    return None if params.get("vnf_instance_id") or not name else (session.store(), name)
