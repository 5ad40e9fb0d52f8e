# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Crash consistency at every write on Heat: an operation's module SIGKILLed right after its k-th write to Heat's API
(heat_write_gate.py: stack creates, updates, deletes, marks, and the record's signals), then the documented recovery,
then the invariants (the Heat side of tests/integration/k8s/crash_sweep.py).

A run through the gate only counting (``count``) gives N, the writes of a whole run, and the state it ends in;
``case`` then takes an instance in the state the operation starts from (a fresh one, or one a passed case left there),
lets k writes through, kills the module while the (k+1)-th is held, denies it, recovers (``vnf_lcm_op_occ`` retry or
rollback; a re-run of an instantiate that left no record; or ``fail``, which ends it where it stopped) and checks: the
op occ ended as chosen and none is left running; the record equals the live stack (its servers = the VNFCs, per VDU, with their flavours and images; the scale
level = VDU1's servers; each external CP's port on its link's network); a rollback leaves the state from before (the
same servers, by id), a retry the state of the whole run; nothing is orphaned (no second stack of the instance, no name
claim, no server, port or volume the stack had that no stack owns any more).

Heat goes on with an update the killed module started: the recovery waits for it (the module's own job).
"""

from __future__ import annotations

import copy
import os
import time
import uuid

import yaml

from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import name_tag
from ansible_collections.nfv.vnflcm.tests.integration.crash_sweep import Case, differences, kill_when_held
from ansible_collections.nfv.vnflcm.tests.integration.faults import wait_for
from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import (
    CLOUD,
    NEW,
    OLD,
    REQUEST,
    cp_config,
    nw_request,
    record_of,
    stack_ids_of_instance,
    stacks_of_instance,
)
from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_write_gate import HeatWriteGate, record_write, stack_writes

OPERATIONS = ("instantiate", "scale", "heal", "change_pkg", "change_ext_conn")
# The operations vnf_lcm_op_occ can roll back on Heat.
ROLLBACK = ("instantiate", "scale", "change_pkg", "change_ext_conn")
MODULES = {"instantiate": "vnf_instantiate", "scale": "vnf_scale", "heal": "vnf_heal", "change_pkg": "vnf_change_pkg",
           "change_ext_conn": "vnf_change_ext_conn"}
OP_OCCS = {"instantiate": "INSTANTIATE", "scale": "SCALE", "heal": "HEAL", "change_pkg": "CHANGE_VNFPKG", "change_ext_conn": "CHANGE_EXT_CONN"}
RUNNING = ("STARTING", "PROCESSING", "ROLLING_BACK")
OWNED_TYPES = ("OS::Nova::Server", "OS::Neutron::Port", "OS::Cinder::Volume")
# VDU1's servers at scale level 0 (VduInitialDelta), and one more a level (the aspect's delta).
VDU1_AT_LEVEL_0 = 1
SETTLE = 120


def link_network(link):
    """The network (id or name, as the request gave it) of an extVirtualLinkInfo entry."""
    return (link.get("resourceHandle") or {}).get("resourceId")


def own_network(network, stack_name):
    """A network's name free of the stack's: ``internalVL1`` for ``<stack name>-internalVL1-<random>``."""
    return network[len(stack_name) + 1:].rsplit("-", 1)[0] if network.startswith(stack_name + "-") else network


def instance_name():
    return "vnf-crash-" + uuid.uuid4().hex[:8]


class HeatSweep:
    """The sweep on the lab: ``run(module, args, background=False)`` runs one task (the ``ansible_task`` fixture's
    contract); ``admin_conn`` reads the project; ``packages`` holds OLD and NEW (the conftest fixture);
    ``created`` collects the stack names made, for the caller to delete."""

    def __init__(self, admin_conn, run, packages, clouds_yaml, created):
        self.conn, self.run, self.packages, self.created = admin_conn, run, packages, created
        self.cloud = yaml.safe_load(open(clouds_yaml).read())["clouds"][CLOUD]
        self.endpoint = admin_conn.orchestration.get_endpoint()
        self.counted = {}
        # The state of an instance as a fresh instantiate leaves it, ids aside: where a rollback (but an instantiate's)
        # and a heal end, and what an instantiate retried ends in.
        self.baseline = None
        # Instances (names) in the instantiated state the other operations start from: what a rolled back case or a
        # heal left; shared when ``share`` is set.
        self.reusable = []
        self.share = False
        # ``prepare(operation, name)``: what to do to the instance once its state before is taken, before the run (a
        # fault the operation meets, e.g. a server put in ERROR before a heal).
        self.prepare = None

    # -- instances and requests ------------------------------------------------------------------

    def instantiate_args(self, name):
        return {"package": os.path.join(self.packages, OLD), "vnf_instance_name": name, "request": copy.deepcopy(REQUEST),
                "cloud": CLOUD, "wait_timeout": 600}

    def fresh(self, operation):
        """The name of an instance where ``operation`` starts (none for an instantiate), set up without the gate."""
        if operation == "instantiate":
            return instance_name()
        if self.reusable:
            return self.reusable.pop()
        name = instance_name()
        done = self.run("vnf_instantiate", self.instantiate_args(name))
        assert not done.get("failed"), done.get("msg")
        self.created.append(done["vnf_instance"]["instantiatedVnfInfo"]["metadata"]["stack_name"])
        if self.baseline is None:
            self.baseline = self.settled(name)
        return name

    def operation_args(self, operation, name):
        if operation == "instantiate":
            return self.instantiate_args(name)
        args = {"vnf_instance_name": name, "cloud": CLOUD, "wait_timeout": 600}
        if operation == "scale":
            args["request"] = {"type": "SCALE_OUT", "aspectId": "VDU1_scale"}
        elif operation == "heal":
            instance = self.instance(name)[0]
            vnfc = [item for item in instance["instantiatedVnfInfo"]["vnfcInfo"] if item["vduId"] == "VDU1"][0]
            args["request"] = {"vnfcInstanceId": [vnfc["id"]]}
        elif operation == "change_pkg":
            args.update(package=os.path.join(self.packages, NEW), request=nw_request(self.packages))
        elif operation == "change_ext_conn":
            args["request"] = {"extVirtualLinks": [{"id": "ext-net1", "resourceId": "net1", "extCps": [
                {"cpdId": "VDU1_CP1", "cpConfig": {"VDU1_CP1_1": cp_config("net1-subnet")}}]}]}
        return args

    # -- reading the state ------------------------------------------------------------------------

    def instance(self, name):
        """``(instance, op_occs, stack name)`` of the record of ``name``, or (None, [], None)."""
        for stack_name, stack_id in sorted(stack_ids_of_instance(self.conn, name).items()):
            found = record_of(self.conn, stack_name, stack_id)
            if found and found[0].get("vnfInstanceName") == name:
                return found[0], found[1], stack_name
        return None, [], None

    def raw_resources(self, stack_name):
        """The resources of a stack and its nested stacks as Heat lists them ([] when it is gone)."""
        stack = self.conn.orchestration.find_stack(stack_name)
        if stack is None:
            return []
        response = self.conn.orchestration.get("/stacks/{0}/{1}/resources?nested_depth=5".format(stack.name, stack.id))
        return response.json()["resources"] if response.status_code == 200 else []

    def stack_resources(self, stack_name):
        """``[(resource type, resource name, physical id)]`` of a stack and its nested stacks ([] when it is gone)."""
        return [(item["resource_type"], item["resource_name"], item["physical_resource_id"]) for item in self.raw_resources(stack_name)
                if item["physical_resource_id"]]

    def marks(self, stack_name):
        """The resources marked for replacement (CHECK_FAILED): what the next stack update would replace unasked."""
        return [item["resource_name"] for item in self.raw_resources(stack_name) if item.get("resource_status") == "CHECK_FAILED"]

    def live_servers(self, stack_name):
        """``{server id: (VDU, flavour, image, sorted networks)}`` of the stack's servers that exist."""
        found = {}
        for kind, resource_name, physical in self.stack_resources(stack_name):
            if kind != "OS::Nova::Server":
                continue
            server = self.conn.compute.find_server(physical)
            if server is None:
                continue
            image = (server.image or {}).get("id")
            image = self.conn.image.find_image(image).name if image else "(volume)"
            networks = sorted(own_network(self.conn.network.get_network(port.network_id).name, stack_name)
                              for port in self.conn.network.ports(device_id=server.id))
            found[server.id] = (resource_name, server.flavor.get("original_name"), image, networks)
        return found

    def snapshot(self, name):
        """What the crash must not change unnoticed, free of ids that differ between instances: the record's state,
        VNFD, flavour, scale levels, VNFCs per VDU and external CPs' networks; the live servers per VDU (flavour,
        image, networks); the instance's stacks; the op occs still running."""
        instance, occs, stack_name = self.instance(name)
        stacks = stacks_of_instance(self.conn, name)
        state = {"instantiationState": None, "stacks": len(stacks), "claims": self.claims(name)}
        if instance is None:
            return state
        info = instance.get("instantiatedVnfInfo") or {}
        vnfcs = {}
        for vnfc in info.get("vnfcResourceInfo") or []:
            vnfcs[vnfc["vduId"]] = vnfcs.get(vnfc["vduId"], 0) + 1
        servers = sorted(value for value in self.live_servers(stack_name).values())
        state.update(instantiationState=instance["instantiationState"], vnfdId=instance["vnfdId"], flavourId=info.get("flavourId"),
                     vnfcs=vnfcs, levels={item["aspectId"]: item["scaleLevel"] for item in info.get("scaleStatus") or []},
                     extCps=sorted((link_network(link), len(link.get("extLinkPorts") or [])) for link in info.get("extVirtualLinkInfo") or []),
                     servers=servers, running=[occ["id"] for occ in occs if occ["operationState"] in RUNNING])
        return state

    def claims(self, name):
        """Name claim stacks of ``name`` left (heat/name_claim.py): there is none once the record has the name."""
        return len([stack for stack in self.conn.orchestration.stacks() if stack.name == name_tag(name)])

    def record_vs_live(self, name):
        """Where the record and the live stack disagree ([] when they agree): the VNFCs against the stack's servers
        (by id and VDU), VDU1's servers against the scale level, each external link's ports against the network."""
        instance, _occs, stack_name = self.instance(name)
        if instance is None or instance["instantiationState"] != "INSTANTIATED":
            return []
        info = instance["instantiatedVnfInfo"]
        live = self.live_servers(stack_name)
        problems = []
        recorded = sorted((vnfc["computeResource"]["resourceId"], vnfc["vduId"]) for vnfc in info.get("vnfcResourceInfo") or [])
        if recorded != sorted((server_id, value[0]) for server_id, value in live.items()):
            problems.append("VNFCs recorded {0} != live servers {1}".format(recorded, sorted(live)))
        for item in info.get("scaleStatus") or []:
            count = len([value for value in live.values() if value[0] == "VDU1"])
            if item["aspectId"] == "VDU1_scale" and count != VDU1_AT_LEVEL_0 + item["scaleLevel"]:
                problems.append("{0} at level {1} but {2} VDU1 servers".format(item["aspectId"], item["scaleLevel"], count))
        networks = {network.id: network.name for network in self.conn.network.networks()}
        for link in info.get("extVirtualLinkInfo") or []:
            for port in link.get("extLinkPorts") or []:
                found = self.conn.network.find_port(port["resourceHandle"]["resourceId"])
                if found is None or link_network(link) not in (found.network_id, networks.get(found.network_id)):
                    problems.append("ext link {0}: port {1} on {2}".format(
                        link["id"], port["resourceHandle"]["resourceId"], networks.get(found.network_id) if found else "(gone)"))
        return problems

    def orphans(self, seen):
        """Of the servers, ports and volumes ``seen`` in the instance's stacks, those that exist and no stack owns."""
        owned = set()
        for stack in self.conn.orchestration.stacks():
            owned.update(physical for kind, _name, physical in self.stack_resources(stack.name) if kind in OWNED_TYPES)
        lookups = {"OS::Nova::Server": self.conn.compute.find_server, "OS::Neutron::Port": self.conn.network.find_port,
                   "OS::Cinder::Volume": lambda volume: self.conn.block_storage.find_volume(volume, ignore_missing=True)}
        return sorted("{0} {1}".format(kind, physical) for kind, physical in seen if physical not in owned and lookups[kind](physical) is not None)

    def seen_resources(self, name):
        return {(kind, physical) for stack_name in stacks_of_instance(self.conn, name)
                for kind, _name, physical in self.stack_resources(stack_name) if kind in OWNED_TYPES}

    def settled(self, name):
        try:
            wait_for(lambda: not self.record_vs_live(name), "the stack to match the record", timeout=60, sleep=2)
        except AssertionError:
            pass
        return self.snapshot(name)

    # -- the sweep ----------------------------------------------------------------------------------

    def gated_args(self, args, gate):
        # A lease renewal is a write to the record too: the default lease (120 s) renews every 40 s, and on a busy lab
        # one came between a heal's marks and its update (Nova took that long to delete a server in ERROR), so the
        # k-th write of the killed run was not the counted run's. 900 s renews after every case's run has ended;
        # the recovery needs no expiry (a killed runner's process is gone: lcm/lease.py).
        return dict(args, cloud=gate.cloud(self.cloud), lease_seconds=900)

    def count(self, operation):
        """A whole run counted by the gate: ``{"writes": [...], "before": snapshot, "after": snapshot}`` (kept)."""
        if operation not in self.counted:
            name = self.fresh(operation)
            before = self.settled(name)
            with HeatWriteGate(self.endpoint) as gate:
                done = self.run(MODULES[operation], self.gated_args(self.operation_args(operation, name), gate))
            assert not done.get("failed"), done.get("msg")
            if operation == "instantiate":
                self.created.append(done["vnf_instance"]["instantiatedVnfInfo"]["metadata"]["stack_name"])
            self.counted[operation] = {"writes": list(gate.writes), "before": before, "after": self.settled(name)}
            if operation == "instantiate" and self.baseline is None:
                self.baseline = self.counted[operation]["after"]
            if self.share and operation in ("instantiate", "heal"):
                self.reusable.append(name)
        return self.counted[operation]

    def sampled_ks(self, operation):
        """k = 1, the last k (N - 1), right after the record's first write, and around the first write to the stack
        after it (the one the record's op occ covers)."""
        writes = self.count(operation)["writes"]
        ks = {1, len(writes) - 1}
        first_record = record_write(writes)
        if first_record:
            ks.add(first_record)
            after = [index for index in stack_writes(writes) if index > first_record]
            if after:
                ks.update((after[0] - 1, after[0]))
        return sorted(k for k in ks if 0 < k < len(writes))

    def case(self, operation, k, branch):
        """One kill at k and its recovery by ``branch`` ("retry", "rollback" or "fail")."""
        result = Case(operation, k, branch)
        started = time.monotonic()
        name = self.fresh(operation)
        args = self.operation_args(operation, name)
        before = self.settled(name)
        servers_before = sorted(self.live_servers(self.instance(name)[2])) if operation != "instantiate" else []
        if self.prepare:
            self.prepare(operation, name)
        seen = self.seen_resources(name)
        with HeatWriteGate(self.endpoint, hold_after=k) as gate:
            task = self.run(MODULES[operation], self.gated_args(args, gate), background=True)
            if not kill_when_held(task, gate, MODULES[operation]):
                result.skipped = result.passed = True
                result.seconds = time.monotonic() - started
                self.note_created(name)
                return result
            result.held = tuple(gate.denied)
        instance, occs, _stack_name = self.instance(name)
        seen |= self.seen_resources(name)
        result.left = "record: {0}; stacks {1}".format(
            "none" if instance is None else "{0}, op occ {1} {2}".format(
                instance["instantiationState"], occs[0]["operation"] if occs else "-", occs[0]["operationState"] if occs else "-"),
            stacks_of_instance(self.conn, name))
        result.problems = self.recover(operation, branch, name, args, instance, occs, before, servers_before, seen)
        self.note_created(name)
        result.passed = not result.problems
        result.seconds = time.monotonic() - started
        if result.passed and self.share and operation != "instantiate" and (branch == "rollback" or operation == "heal"):
            self.reusable.append(name)
        return result

    def note_created(self, name):
        """The instance's stacks, and a claim of its name a failed case left, go to ``created`` (deleted at the end)."""
        left = stacks_of_instance(self.conn, name) + ([name_tag(name)] if self.claims(name) else [])
        self.created.extend(stack for stack in left if stack not in self.created)

    def after(self, operation):
        """The state a whole run of ``operation`` ends in: a heal leaves an instance as it found it (ids aside), an
        instantiate as a fresh one; the others' from their counted run."""
        if operation == "heal" and operation not in self.counted:
            return None
        if operation == "instantiate" and operation not in self.counted and self.baseline is not None:
            return self.baseline
        return self.count(operation)["after"]

    def recover(self, operation, branch, name, args, instance, occs, before, servers_before, seen):
        """The documented recovery, then the invariants: the problems found ([] when none)."""
        if branch == "fail":
            return self.failed_as_live(name, occs, seen)
        problems = []
        ours = bool(occs) and occs[0]["operation"] == OP_OCCS[operation]
        completed = ours and occs[0]["operationState"] == "COMPLETED"
        if not ours:
            # Killed before its op occ was in a record (an instantiate before its stack): the recovery is a re-run.
            done = self.run(MODULES[operation], args)
            expected, expected_state = self.after(operation) or before, "COMPLETED"
        else:
            call = {"vnf_instance_name": name, "cloud": CLOUD, "action": branch, "wait_timeout": 600}
            if args.get("package"):
                call["package"] = args["package"]
            done = self.run("vnf_lcm_op_occ", call)
            expected = (self.after(operation) or before) if branch == "retry" or completed else before
            expected_state = "COMPLETED" if completed else {"retry": "COMPLETED", "rollback": "ROLLED_BACK"}[branch]
        if done.get("failed") and not completed:
            return ["recovery failed: {0}".format(str(done.get("msg"))[:400])]
        if operation == "instantiate" and expected is before:
            # Rolled back: the stack goes, and the record with it (heat/store.py).
            expected, expected_state = {"instantiationState": None, "stacks": 0, "claims": 0}, None
        _instance, occs, stack_name = self.instance(name)
        if expected_state and (not occs or occs[0]["operation"] != OP_OCCS[operation] or occs[0]["operationState"] != expected_state):
            head = occs[0] if occs else {}
            problems.append("op occ {0} {1}, expected {2}".format(head.get("operation"), head.get("operationState"), expected_state))
        try:
            wait_for(lambda: not differences(self.snapshot(name), expected) and not self.record_vs_live(name),
                     "the state expected", timeout=SETTLE, sleep=3)
        except AssertionError:
            problems.extend(differences(self.snapshot(name), expected) + self.record_vs_live(name))
        if branch == "rollback" and not completed and operation != "instantiate":
            now = sorted(self.live_servers(stack_name)) if stack_name else []
            if now != servers_before:
                problems.append("servers {0} after the rollback, {1} before".format(now, servers_before))
        problems.extend("orphaned: " + item for item in self.orphans(seen | self.seen_resources(name)))
        return problems

    def failed_as_live(self, name, occs, seen):
        """``fail`` ends the operation where the kill stopped it: its op occ FAILED, none running, the record = the live
        stack (servers by id and VDU, the scale level, external ports), no mark for replacement left, nothing orphaned."""
        if not occs or occs[0]["operationState"] not in RUNNING + ("FAILED_TEMP",):
            return ["no op occ left to fail: {0}".format(occs[0]["operationState"] if occs else "none")]
        done = self.run("vnf_lcm_op_occ", {"vnf_instance_name": name, "cloud": CLOUD, "action": "fail", "wait_timeout": 600})
        if done.get("failed"):
            return ["fail failed: {0}".format(str(done.get("msg"))[:400])]
        _instance, occs, stack_name = self.instance(name)
        state = self.snapshot(name)
        problems = [] if occs[0]["operationState"] == "FAILED" else ["op occ {0}, expected FAILED".format(occs[0]["operationState"])]
        if state["running"] or state["stacks"] != 1 or state["claims"]:
            problems.append("running {0}, stacks {1}, claims {2}".format(state["running"], state["stacks"], state["claims"]))
        problems.extend(self.record_vs_live(name))
        problems.extend("marked for replacement: " + item for item in self.marks(stack_name))
        problems.extend("orphaned: " + item for item in self.orphans(seen | self.seen_resources(name)))
        return problems
