# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tier 2: operations on Heat that do not end normally. The module process is killed half-way through a
change of VNF package (after its first VNFC) and during an instantiate; Heat's connection is cut while a
scale waits. Each ends in a state vnf_lcm_op_occ recovers from: retry completes, rollback restores the
stack exactly (template, nested files, nfv, server ids), and nothing is left in Nova after a rollback, or
after a fail and a terminate.
"""

from __future__ import annotations

import contextlib
import os
import time
import uuid

import pytest
import yaml

from ansible_collections.nfv.vnflcm.tests.integration.faults import TcpProxy, wait_for
from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import (
    CLOUD,
    NEW,
    OLD,
    REQUEST,
    change,
    info_of,
    instantiate,
    first_vnfc_changed,
    instantiated,
    kill_when,
    kill_while_heat_creates,
    nw_request,
    op_occ,
    servers,
    servers_no_stack_owns,
    stack_of,
    stacks_named,
    stacks_of_instance,
    volumes_seen,
)

pytestmark = pytest.mark.tier2


class Killed:
    name = "vnf-kill-" + uuid.uuid4().hex[:6]
    before = None


def test_a_change_killed_after_its_first_vnfc_is_rolled_back_exactly(lab, admin_conn, ansible_task, packages, created):
    Killed.before = instantiated(ansible_task, created, packages, Killed.name)
    info = info_of(Killed.before)
    stack_name = info["metadata"]["stack_name"]
    stack_before = stack_of(admin_conn, info)
    task = change(ansible_task, os.path.join(packages, NEW), Killed.name, nw_request(packages), background=True)
    occ = kill_when(admin_conn, stack_name, first_vnfc_changed)
    task.wait()
    assert stack_of(admin_conn, info) != stack_before  # half changed
    shown = ansible_task("vnf_info", {"cloud": CLOUD, "vnf_instance_name": Killed.name})["vnf_lcm_op_occs"][0]
    assert shown["operationState"] == "PROCESSING" and shown["lease"]["status"] == "runner gone"

    rolled = op_occ(ansible_task, Killed.name, "rollback")
    assert not rolled.get("failed"), rolled.get("msg")
    assert rolled["vnf_lcm_op_occ"]["id"] == occ["id"] and rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK"
    assert stack_of(admin_conn, info) == stack_before
    assert servers(info_of(rolled)) == servers(info)
    assert rolled["vnf_instance"]["vnfdId"] == Killed.before["vnf_instance"]["vnfdId"]


def test_a_change_killed_after_its_first_vnfc_is_retried_to_the_end(lab, admin_conn, ansible_task, packages):
    info = info_of(Killed.before)
    task = change(ansible_task, os.path.join(packages, NEW), Killed.name, nw_request(packages), background=True)
    occ = kill_when(admin_conn, info["metadata"]["stack_name"], first_vnfc_changed)
    task.wait()
    retried = op_occ(ansible_task, Killed.name, "retry")
    assert not retried.get("failed"), retried.get("msg")
    assert retried["vnf_lcm_op_occ"]["id"] == occ["id"] and retried["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    after = info_of(retried)
    assert servers(after) == servers(info)  # resized and rebuilt, never replaced
    assert admin_conn.compute.get_server(servers(after)["VDU2"]).flavor["original_name"] == "m1.small"
    assert retried["vnf_instance"]["vnfdId"] == nw_request(packages)["vnfdId"]
    assert {cp["cpdId"] for cp in next(item for item in after["vnfcResourceInfo"] if item["vduId"] == "VDU2")["vnfcCpInfo"]} >= {"VDU2_CP4"}


def test_heat_connections_cut_while_a_scale_waits_are_ridden_out(lab, admin_conn, ansible_task):
    """The module reaches Heat through a proxy (a Keystone region of its own whose Heat endpoint is the proxy);
    once the update is sent, Heat resets every connection until the module has met it, and 3 s more, then every
    open connection is reset again and again."""
    endpoint = admin_conn.orchestration.get_endpoint()
    port = int(endpoint.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
    with TcpProxy("127.0.0.1", port) as proxy, region_via(admin_conn, "orchestration", port, proxy.port) as region:
        stack_name = info_of(Killed.before)["metadata"]["stack_name"]
        # The cloud as a dict: openstacksdk accepts a region only if the cloud's entry names it.
        cloud = dict(yaml.safe_load(lab.clouds_yaml.read_text())["clouds"][CLOUD], region_name=region)
        task = ansible_task("vnf_scale", {"cloud": cloud, "vnf_instance_name": Killed.name, "wait_timeout": 600,
                                          "request": {"type": "SCALE_OUT", "aspectId": "VDU1_scale"}}, background=True)

        def updating():
            assert task.process.poll() is None, task.wait()  # it must not have ended before its update
            return admin_conn.orchestration.find_stack(stack_name).status == "UPDATE_IN_PROGRESS"

        wait_for(updating, "the scale's stack update", timeout=300, sleep=0.2)
        # The refusal starts while the update runs and lasts until the module has met it: the module cannot see the
        # update end without a read through the proxy, however soon Heat ends it (a fixed 5 s once came too late).
        proxy.refuse(120)
        wait_for(lambda: proxy.stats()["refused"] > 0 or task.process.poll() is not None, "a refused connection", timeout=120)
        time.sleep(3)  # its retries meet the refusal too
        proxy.refuse(0, drop_open=False)
        assert proxy.stats()["refused"] > 0, (proxy.stats(), task.wait())
        for _round in range(5):
            proxy.drop()
            time.sleep(0.5)
        done = task.wait()
    assert not done.get("failed"), done.get("msg")
    assert done["vnf_lcm_op_occ"]["operationState"] == "COMPLETED"
    assert len([item for item in info_of(done)["vnfcResourceInfo"] if item["vduId"] == "VDU1"]) == 2


@contextlib.contextmanager
def region_via(admin_conn, service_type, port, proxy_port):
    """A Keystone region with RegionOne's endpoints, ``service_type``'s sent to the proxy port: its name."""
    identity = admin_conn.identity
    region = identity.create_region(id="vnflcm-proxy-" + uuid.uuid4().hex[:6])
    services = {service.id: service.type for service in identity.services()}
    created = []
    try:
        for endpoint in identity.endpoints(region_id="RegionOne"):
            url = endpoint.url
            if services.get(endpoint.service_id) == service_type:
                url = url.replace(":{0}/".format(port), ":{0}/".format(proxy_port))
            created.append(identity.create_endpoint(service_id=endpoint.service_id, interface=endpoint.interface, url=url, region_id=region.id))
        yield region.id
    finally:
        for endpoint in created:
            identity.delete_endpoint(endpoint)
        identity.delete_region(region)


def killed_instantiate(admin_conn, ansible_task, packages, created, name):
    """An instantiate of ``name`` whose module is SIGKILLed while Heat creates its stack: ``(stack name, its op occ)``."""
    task = instantiate(ansible_task, os.path.join(packages, OLD), name, REQUEST, background=True)
    return kill_while_heat_creates(admin_conn, task, name, created)


def test_an_instantiate_killed_while_heat_creates_is_rolled_back_leaving_nothing(lab, admin_conn, ansible_task, packages, created):
    name = "vnf-kill-inst-" + uuid.uuid4().hex[:6]
    stack_name, occ = killed_instantiate(admin_conn, ansible_task, packages, created, name)
    rolled = ansible_task("vnf_lcm_op_occ", {"cloud": CLOUD, "vnf_instance_name": name, "action": "rollback", "wait_timeout": 600})
    assert not rolled.get("failed"), (rolled.get("msg"), volumes_seen(admin_conn))
    assert rolled["vnf_lcm_op_occ"]["id"] == occ["id"] and rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK"
    assert stacks_named(admin_conn, stack_name) == [] and stacks_of_instance(admin_conn, name) == []
    assert servers_no_stack_owns(admin_conn) == []
    again = ansible_task("vnf_info", {"cloud": CLOUD, "vnf_instance_name": name})
    assert again["vnf_instances"] == []


def test_an_instantiate_killed_then_failed_is_terminated_leaving_nothing(lab, admin_conn, ansible_task, packages, created):
    name = "vnf-kill-fail-" + uuid.uuid4().hex[:6]
    stack_name, occ = killed_instantiate(admin_conn, ansible_task, packages, created, name)
    failed = ansible_task("vnf_lcm_op_occ", {"cloud": CLOUD, "vnf_instance_name": name, "action": "fail"})
    assert not failed.get("failed"), failed.get("msg")
    assert failed["vnf_lcm_op_occ"]["id"] == occ["id"] and failed["vnf_lcm_op_occ"]["operationState"] == "FAILED"
    # The instance is NOT_INSTANTIATED, but its stack is there: terminate deletes it, and the record with it.
    gone = ansible_task("vnf_terminate", {"cloud": CLOUD, "vnf_instance_name": name, "request": {"terminationType": "FORCEFUL"}, "wait_timeout": 600})
    assert not gone.get("failed"), gone.get("msg")
    assert gone["changed"] and "what a failed instantiate left" in gone["plan"]["lines"][0]
    assert stacks_named(admin_conn, stack_name) == [] and stacks_of_instance(admin_conn, name) == []
    assert servers_no_stack_owns(admin_conn) == []
    assert ansible_task("vnf_info", {"cloud": CLOUD, "vnf_instance_name": name})["vnf_instances"] == []
