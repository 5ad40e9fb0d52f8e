# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""_links on what leaves the engine and vnf_info (engine.with_links), and the record URLs both VIMs' stores give."""

from __future__ import annotations

import datetime

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import OperationTimeout
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import HeatRecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.store import SecretRecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import info_result
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation, act_on_op_occ, run, with_links
from ansible_collections.nfv.vnflcm.tests.integration.sol003_conformance import assert_conforms
from ansible_collections.nfv.vnflcm.tests.unit.plugins.module_utils.heat.fake_heat import FakeStacks

NOW = datetime.datetime(2026, 11, 22, 5, 0, 0)
URL = "https://k8s.test/api/v1/namespaces/t/secrets/vnflcm-vnf-1"
IDENTITY = {"vnfdId": "d-1", "vnfProvider": "Company", "vnfProductName": "Sample", "vnfSoftwareVersion": "1.0", "vnfdVersion": "1.0"}


class LinkedStore(RecordStore):
    def __init__(self):
        self.writes = []

    def save(self, instance, op_occs, version):
        self.writes.append((instance, op_occs))
        return (version or 0) + 1

    def record_url(self, instance_id):
        return "https://k8s.test/api/v1/namespaces/t/secrets/vnflcm-" + instance_id

    def selector(self):
        return {"namespace": "t"}


def operation(store, execute=None, op_occs=()):
    instance = dict(IDENTITY, id="vnf-1", instantiationState="NOT_INSTANTIATED")
    done = dict(instance, instantiationState="INSTANTIATED", instantiatedVnfInfo={"flavourId": "simple", "vnfState": "STARTED"})
    return Operation("INSTANTIATE", {"flavourId": "simple"}, instance, {"lines": []}, store, op_occs, execute=execute or (lambda progress: done))


def test_check_mode_and_success_results_carry_links_and_the_records_do_not():
    store = LinkedStore()
    checked = run(operation(store), check_mode=True, now=lambda: NOW)
    assert checked["vnf_instance"]["_links"]["instantiate"]["href"] == "nfv.vnflcm:vnf_instantiate?vnf_instance_id=vnf-1&namespace=t"
    assert checked["vnf_instance"]["_links"]["self"] == {"href": URL}
    done = run(operation(store), now=lambda: NOW)
    assert assert_conforms(done) == 2
    assert done["vnf_instance"]["_links"]["scale"]["href"] == "nfv.vnflcm:vnf_scale?vnf_instance_id=vnf-1&namespace=t"
    assert done["vnf_lcm_op_occ"]["_links"] == {"self": {"href": URL + "#vnfLcmOpOcc=" + done["vnf_lcm_op_occ"]["id"]}, "vnfInstance": {"href": URL}}
    assert all("_links" not in instance and all("_links" not in item for item in op_occs) for instance, op_occs in store.writes)


def test_a_failure_result_links_its_failed_temp_op_occ_and_fail_acts_on_it():
    store = LinkedStore()

    def execute(progress):
        raise OperationTimeout("Deployment vdu1 to be ready", 5)

    with pytest.raises(OperationTimeout) as caught:
        run(operation(store, execute=execute), now=lambda: NOW)
    failed = caught.value.result["vnf_lcm_op_occ"]
    assert sorted(failed["_links"]) == ["fail", "retry", "rollback", "self", "vnfInstance"]
    assert failed["_links"]["rollback"]["href"].endswith("&vnf_lcm_op_occ_id={0}&action=rollback".format(failed["id"]))
    instance, op_occs = store.writes[-1]
    ended = act_on_op_occ(store, (instance, op_occs, 2), failed["id"], "fail", plan=None, now=lambda: NOW)
    assert ended["vnf_lcm_op_occ"]["operationState"] == "FAILED" and sorted(ended["vnf_lcm_op_occ"]["_links"]) == ["self", "vnfInstance"]
    assert_conforms(ended)


class UnreachableStore(LinkedStore):
    def record_url(self, instance_id):
        raise ConnectionError("catalog unreachable")


def test_a_failure_is_reported_as_it_is_when_its_links_cannot_be_made():
    def execute(progress):
        raise OperationTimeout("Deployment vdu1 to be ready", 5)

    with pytest.raises(OperationTimeout) as caught:
        run(operation(UnreachableStore(), execute=execute), now=lambda: NOW)
    assert caught.value.result["vnf_lcm_op_occ"]["operationState"] == "FAILED_TEMP" and "_links" not in caught.value.result["vnf_lcm_op_occ"]


def test_info_results_link_every_instance_and_op_occ():
    store = LinkedStore()
    done = run(operation(store), now=lambda: NOW)
    instance, op_occs = store.writes[-1]
    result = with_links(store, info_result([(instance, op_occs)], NOW))
    assert assert_conforms(result) == 2 and result["vnf_lcm_op_occs"][0]["id"] == done["vnf_lcm_op_occ"]["id"]


def test_a_store_that_gives_no_url_leaves_documents_as_they_are():
    result = {"vnf_instance": {"id": "vnf-1"}, "vnf_lcm_op_occ": None}
    assert with_links(RecordStore(), result) == result


class UrlApi:
    def url(self, path):
        return "https://127.0.0.1:6443" + path


def test_the_kubernetes_record_is_its_secret_and_the_namespace_selects_it():
    store = SecretRecordStore(UrlApi(), "tenant-a")
    assert store.record_url("i-1") == "https://127.0.0.1:6443/api/v1/namespaces/tenant-a/secrets/vnflcm-i-1"
    assert store.selector() == {"namespace": "tenant-a"}


def test_the_heat_record_is_its_stack_by_name_and_id_once_known():
    stacks = FakeStacks()
    store = HeatRecordStore(stacks)
    assert store.record_url("i-1") == "http://heat.test/v1/project/stacks/vnf-i-1"
    store.attach({"stack_name": "vnf-i-1", "id": "s-1"})
    assert store.record_url("i-1") == "http://heat.test/v1/project/stacks/vnf-i-1/s-1"
    assert store.record_url("i-2") == "http://heat.test/v1/project/stacks/vnf-i-2"
    assert store.selector() == {} and stacks.writes == []


def test_heat_records_listed_link_their_stacks_by_name_and_id():
    stacks = FakeStacks()
    HeatRecordStore(stacks, stacks.add("vnf-i-2", "s-2", ["vnflcm"])).save(dict(id="i-2", instantiationState="NOT_INSTANTIATED"), [], None)
    store = HeatRecordStore(stacks)
    assert [instance["id"] for instance, _occs, _version in store.list()] == ["i-2"]
    assert store.record_url("i-2") == "http://heat.test/v1/project/stacks/vnf-i-2/s-2"
