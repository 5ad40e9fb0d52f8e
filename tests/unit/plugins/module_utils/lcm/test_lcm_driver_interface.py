# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A driver is a session (lcm/instance_run.py's Session) and its planners: this toy one, a VIM kept in memory, runs the
generic operations (on_instance, lcm/delete.py's run_terminate and run_delete) as the Kubernetes and Heat drivers do."""

from __future__ import annotations

import copy
import functools

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, NotFoundError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import delete as identifier
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import instance_run
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ

PARAMS = {"vnf_instance_id": None, "vnf_instance_name": "toy", "wait": True, "wait_timeout": 30, "wait_sleep": 1}


class ToyStore(RecordStore):
    """Records in a dict, every write counted."""

    def __init__(self, *instances):
        self.records = {instance["id"]: Found(instance, [], 1) for instance in instances}
        self.writes = 0

    def find(self, instance_id=None, name=None):
        found = [record for record in self.records.values() if record.instance["id"] == instance_id or
                 (not instance_id and record.instance.get("vnfInstanceName") == name)]
        return copy.deepcopy(found[0]) if found else None

    def save(self, instance, op_occs, version):
        self.writes += 1
        self.records[instance["id"]] = Found(copy.deepcopy(instance), copy.deepcopy(op_occs), (version or 0) + 1)
        return (version or 0) + 1

    def delete(self, instance, version):
        self.writes += 1
        self.records.pop(instance["id"], None)

    def kept_for(self, instance):
        return [{"kind": "ToyRecord", "name": instance["id"]}]

    def delete_identifier(self, instance, version, timeout=None, kept=None):
        self.delete(instance, version)
        return kept

    def left_claim(self, name):
        return None

    def scope(self):
        return "the toy VIM"


class ToySession:
    """The toy driver's session: its client is the VIM's objects, a set of names."""

    driver = "toy"

    def __init__(self, store):
        self.objects = set()
        self.toy_store = store
        self.calls = {"read": 0, "write": 0}

    def store(self):
        return self.toy_store

    def where(self):
        return "in the toy VIM"

    def client(self):
        return self.objects

    def api_calls(self):
        return dict(self.calls)

    def plan(self, planner, store, found, request, waits, preview):
        return planner(self.objects, store, found, request, waits=waits)


def plan_scale(objects, store, found, request, waits=None, extra=None):
    instance, op_occs, version = found

    def execute(progress):
        objects.add("vnfc-{0}".format(len(objects)))
        return dict(instance, scaled=request["numberOfSteps"], extra=extra)

    return Operation(occ.SCALE, request, instance, {"lines": ["add a VNFC"]}, store, op_occs, version, execute=execute)


def plan_terminate(objects, store, found, request, waits=None):
    instance, op_occs, version = found

    def execute(progress):
        objects.clear()
        return dict(instance, instantiationState="NOT_INSTANTIATED")

    return Operation(occ.TERMINATE, request, instance, {"lines": ["delete every VNFC"]}, store, op_occs, version, execute=execute)


def toy(state="INSTANTIATED"):
    store = ToyStore({"id": "i-1", "vnfInstanceName": "toy", "instantiationState": state})
    return ToySession(store), store


def test_an_operation_runs_on_the_instance_the_params_select():
    session, store = toy()
    params = dict(PARAMS, request={"numberOfSteps": 1}, automatic_invocation=True)
    result = instance_run.on_instance(session, functools.partial(plan_scale, extra="bound"), params, name=occ.SCALE)
    assert result["changed"] and result["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    assert result["vnf_lcm_op_occ"]["isAutomaticInvocation"] is True
    assert result["vnf_instance"]["extra"] == "bound" and session.objects == {"vnfc-0"}
    assert result["api_calls"] == {"read": 0, "write": 0}
    assert store.find("i-1").op_occs[0]["operationState"] == "COMPLETED"


def test_check_mode_plans_and_writes_nothing():
    session, store = toy()
    result = instance_run.on_instance(session, plan_scale, dict(PARAMS, request={"numberOfSteps": 1}), check_mode=True, name=occ.SCALE)
    assert result["changed"] and result["plan"]["lines"] == ["add a VNFC"] and store.writes == 0 and not session.objects


def test_a_missing_instance_is_named_where_it_was_looked_for_or_nothing_to_do():
    session, store = toy()
    with pytest.raises(NotFoundError, match="VNF instance 'other' in the toy VIM"):
        instance_run.on_instance(session, plan_scale, dict(PARAMS, vnf_instance_name="other"), name=occ.SCALE)
    result = instance_run.on_instance(session, plan_scale, dict(PARAMS, vnf_instance_name="other"), missing_ok=True, name=occ.SCALE)
    assert result == {"changed": False, "vnf_instance": None, "plan": {"lines": ["Failed to find VNF instance 'other' in the toy VIM: not found"]},
                      "api_calls": {"read": 0, "write": 0}}


def test_an_unfinished_operation_is_named_before_planning():
    session, store = toy()
    store.records["i-1"].op_occs.append({"id": "o-1", "operation": occ.HEAL, "operationState": "FAILED_TEMP"})
    with pytest.raises(ConflictError, match="operation occurrence o-1 is FAILED_TEMP"):
        instance_run.on_instance(session, lambda *args, **kwargs: pytest.fail("planned"), PARAMS, name=occ.SCALE)


def test_terminate_then_delete_the_identifier_on_the_same_session():
    session, store = toy()
    session.objects.add("vnfc-0")
    result = identifier.run_terminate(session, plan_terminate, dict(PARAMS, delete_instance=True), lambda instance: [])
    assert result["vnf_lcm_op_occ"]["operationState"] == "COMPLETED" and not session.objects
    assert result["deleted"] == [{"kind": "ToyRecord", "name": "i-1"}] and store.records == {}
    again = identifier.run_terminate(session, plan_terminate, dict(PARAMS, delete_instance=True), lambda instance: [])
    assert again["changed"] is False and again["plan"]["lines"] == ["Failed to find VNF instance 'toy' in the toy VIM: not found"]


def test_delete_refuses_an_instantiated_instance_and_deletes_a_terminated_one():
    session, store = toy()
    with pytest.raises(ConflictError, match="it is INSTANTIATED"):
        identifier.run_delete(session, PARAMS, lambda instance: [])
    session, store = toy("NOT_INSTANTIATED")
    result = identifier.run_delete(session, PARAMS, lambda instance: [])
    assert result["changed"] and store.records == {} and result["api_calls"] == {"read": 0, "write": 0}


@pytest.mark.parametrize("driver", ["cnf", "vm"])
def test_each_driver_binds_its_planners_options_by_keyword(monkeypatch, driver):
    """A planner bound with functools.partial (modify's package) still gets ``waits`` where it wants it."""
    import importlib

    session_module = importlib.import_module("ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.{0}.session".format(driver))
    modify = importlib.import_module("ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.{0}.modify".format(driver))
    seen = {}
    monkeypatch.setattr(modify, "plan_modify", lambda *args, **kwargs: seen.update(args=args, kwargs=kwargs) or pytest.skip("planned"))
    _session, store = toy()
    if driver == "cnf":
        client = session_module.KubeSession("api", "default")
    else:
        from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.session import HeatVim

        client = HeatVim.__new__(HeatVim)
    monkeypatch.setattr(session_module, "connect", lambda params: client)
    monkeypatch.setattr(instance_run, "locate", lambda session, params: (store, store.find("i-1")))
    with pytest.raises(pytest.skip.Exception):
        modify.run_modify(dict(PARAMS, request={"vnfInstanceDescription": "d"}, package=None, delete_removed=False))
    assert seen["kwargs"]["waits"].timeout == 30 and seen["kwargs"]["package"] is None


TOY_SCALE = '''
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import instance_run
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ

SESSION = PLANNER = None  # the toy VIM in memory, set by the test


def run_scale(params, check_mode=False, diff_mode=False):
    return instance_run.on_instance(SESSION, PLANNER, params, check_mode, diff_mode, name=occ.SCALE)
'''


def test_a_driver_is_a_folder_of_lcm_and_its_entry_in_driver_of(monkeypatch, tmp_path):
    """What the modules run (lcm/modules.py run_module) for a driver that is only a folder and a driver_of entry."""
    import types

    from ansible_collections.nfv.vnflcm.plugins.module_utils import lcm
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import drivers, modules

    folder = tmp_path / "toy"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "scale.py").write_text(TOY_SCALE)
    monkeypatch.setattr(lcm, "__path__", list(lcm.__path__) + [str(tmp_path)])
    monkeypatch.setitem(drivers.DRIVER_VIMS, "toy", drivers.KUBERNETES)
    monkeypatch.setitem(drivers.VIM_DRIVERS, drivers.KUBERNETES, "toy")
    toy_scale = modules.run_of("toy", "scale.run_scale").__globals__
    session, store = toy()
    toy_scale.update(SESSION=session, PLANNER=plan_scale)
    module = types.SimpleNamespace(params=dict(PARAMS, request={"numberOfSteps": 2}, kubeconfig="/k"), check_mode=False, diff_mode=False,
                                   require=lambda *args: None)
    result = modules.run_module(module, "scale.run_scale")
    assert result["vim_type"] == "kubernetes" and result["vnf_instance"]["scaled"] == 2 and session.objects == {"vnfc-0"}
    assert store.find(None, "toy").op_occs[0]["operationState"] == "COMPLETED"


def test_an_instance_of_another_driver_on_the_same_vim_is_handed_over_before_anything_is_written(monkeypatch):
    """A Helm-chart CNF's record names its release: the CNF driver that finds it hands the operation over (run_module runs
    it again with the Helm driver), having written nothing."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import drivers

    session, store = toy()
    instance, op_occs, version = store.find(None, "toy")
    helm_record = dict(instance, instantiatedVnfInfo={"metadata": {"vnflcm": {drivers.HELM_RELEASE: {"release": "vnf1"}}}})
    store.records[instance["id"]] = Found(helm_record, op_occs, version)
    with pytest.raises(drivers.HandOver) as handed:
        instance_run.on_instance(session, plan_scale, dict(PARAMS, request={"numberOfSteps": 1}), name="SCALE")
    assert handed.value.driver == drivers.HELM and session.objects == set() and store.writes == 0
