#!/usr/bin/env python3
"""Fleet throughput: N CNFs through instantiate, scale, heal and terminate in one ansible-playbook run, at several forks.

The fleet is the inventory of tests/integration/k8s/fleet.py: one host per VNF instance (Tacker's test_cnf_multi_ns,
Deployment vdu2), each in a namespace of its own named in its host variables. One playbook imports the collection's
playbooks instantiate, scale (SCALE_OUT vdu2_aspect), heal (every VNFC) and terminate (FORCEFUL) on group ``fleet``:
the role's sequences with their plan (check mode), the operation and the read-back (vnf_info) of every instance.

Per forks value (default 1, 4, 8, 16), each on a fresh set of namespaces: the run's wall time, instances/min (N
through the whole lifecycle per minute), CPU seconds of ansible-playbook and everything it ran (its workers and the
module processes: RUSAGE_CHILDREN) and of the lab (kube-apiserver, etcd, controller-manager, scheduler, kwok: /proc),
per operation (4 per instance), and the CPU use against the cores (what bounds it): ours (ansible and the lab), and
the whole machine's (anything else running shows as the difference). Then ``two at once``: the fleet
instantiated, then two ansible-playbook runs started together over the same instances, each scale then heal, then
terminate: how many host operations failed, each failure checked to be a clean conflict (the other run's op occ held
the instance, or its write of the record came first), and every instance's record checked against the cluster
(replicas, pods, scale level, no op occ left running): ``lost`` counts the instances where they differ.

``--vim openstack``: VM-based VNFs on the tier-2 OpenStack lab ($NFV_OPENSTACK_LAB_DIR or its default state dir),
Tacker's userdata_standard at instantiation level 1 (VDU1-0 and VDU2-0 on net0), scaled out one step of VDU1_scale
(VDU1-1), terminated: 3 servers per instance, so the lab's quota of 10 servers allows 3 instances. A heal of every
VNFC needs as many servers again at once (Heat creates a VNFC's new server before it deletes the old one): leave it
out there (``--operations instantiate,scale,terminate``) or run fewer instances. The lab's CPU is that of all its
services' process groups. After the run nothing of an instance may be left (its stack, which holds its record, and so
its servers): ``lost`` counts those with a stack left, which are then deleted. No run of two at once here.

Run: make stage, then with ANSIBLE_COLLECTIONS_PATH set to the staged collections dir (see README.md)
  $(make -s venv-path)/bin/python benchmarks/fleet_lifecycle.py [--instances 24] [--forks 1,4,8,16] [--overlap-forks 8]
  $(make -s venv-path)/bin/python benchmarks/fleet_lifecycle.py --vim openstack --instances 3 --forks 3,1 --operations instantiate,scale,terminate
Needs the Kubernetes lab up ($NFV_LAB_STATE_DIR or the default state dir) and Tacker's packages ($NFV_FIXTURES_DIR,
else ../shared/fixtures/tacker beside the clone). Results: benchmarks/results/fleet_lifecycle[-openstack]-<date>.json.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools" / "lab" / "k8s"))

from labk8s.cluster import Lab  # noqa: E402
import ratios  # noqa: E402

COLLECTIONS = os.environ.get("ANSIBLE_COLLECTIONS_PATH", "")
for entry in COLLECTIONS.split(os.pathsep):
    if entry and entry not in sys.path:
        sys.path.insert(0, entry)
try:
    from ansible_collections.nfv.vnflcm.tests.integration.k8s.fleet import (  # noqa: E402
        MODULE_TASKS, REQUESTS, create_namespaces, fleet_hosts, inventory, record_against_live)
except ImportError as error:
    raise SystemExit("run with ANSIBLE_COLLECTIONS_PATH on the staged collection (make stage): {0}".format(error))

FIXTURES = Path(os.environ.get("NFV_FIXTURES_DIR") or ROOT.parent / "shared" / "fixtures" / "tacker")
LAB_COMPONENTS = ("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok")
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "nfv-vnflcm"
OPENSTACK_STATE = Path(os.environ.get("NFV_OPENSTACK_LAB_DIR") or CACHE / "openstack-lab" / "state")
OPENSTACK_CLOUD = "nfvlab-admin"
# Tacker's userdata_standard at level 1 (tests/integration/openstack/heat_vnf.py): VDU1_CP1 and VDU2_CP1 on net0.
VM_REQUESTS = {
    "instantiate": {"flavourId": "simple", "instantiationLevelId": "instantiation_level_1", "extVirtualLinks": [{
        "id": "ext-net0", "resourceId": "net0", "extCps": [
            {"cpdId": "VDU1_CP1", "cpConfig": {"VDU1_CP1_1": {"cpProtocolData": [{"layerProtocol": "IP_OVER_ETHERNET", "ipOverEthernet": {
                "ipAddresses": [{"type": "IPV4", "numDynamicAddresses": 1}]}}]}}},
            {"cpdId": "VDU2_CP1", "cpConfig": {"VDU2_CP1_1": {"cpProtocolData": [{"layerProtocol": "IP_OVER_ETHERNET", "ipOverEthernet": {
                "ipAddresses": [{"type": "IPV4", "numDynamicAddresses": 1, "subnetId": "net0-subnet"}]}}]}}}]}]},
    "scale": {"type": "SCALE_OUT", "aspectId": "VDU1_scale"},
    "heal": {},
    "terminate": {"terminationType": "FORCEFUL"},
}
OPERATIONS = ("instantiate", "scale", "heal", "terminate")
# The CNF's def file and its pods' label (tests/integration/k8s/fleet.py), for the kubernetes.core contender.
DEF_FILE = REQUESTS["instantiate"]["additionalParams"]["lcm-kubernetes-def-files"][0]
POD_LABEL = "app=webserver"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# A clean refusal of the second of two operations on one instance (the lease of the first, or its record write).
CONFLICT = re.compile(r"^Failed to start [A-Z_]+ on VNF instance .* is (STARTING|PROCESSING): .*wait for it to end"
                      r"|^Failed to update Secret [a-z0-9-]+/vnflcm-[a-f0-9-]+: .*the object has been modified.*\(HTTP 409\)$")

# Each host's result of each operation's module task, as JSON lines (ansible-core has no such callback).
HOST_EVENTS = '''
import json
import os

from ansible.plugins.callback import CallbackBase


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "aggregate"
    CALLBACK_NAME = "host_events"
    CALLBACK_NEEDS_ENABLED = True

    def _event(self, result, failed):
        res = result._result
        line = {"host": result._host.get_name(), "task": result.task_name, "failed": failed, "msg": str(res.get("msg", ""))[:400]}
        with open(os.environ["NFV_HOST_EVENTS"], "a") as handle:
            handle.write(json.dumps(line) + "\\n")

    def v2_runner_on_ok(self, result):
        self._event(result, False)

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._event(result, True)
'''


def process_cpu(pids=None, groups=None) -> dict:
    """``{pid: CPU seconds used so far}`` of the processes ``pids``, or of every process of the process groups
    ``groups`` (with the children they reaped)."""
    found = {}
    for entry in os.listdir("/proc") if groups else [str(pid) for pid in pids or ()]:
        try:
            fields = Path("/proc/{0}/stat".format(entry)).read_text().rsplit(")", 1)[1].split()
        except (OSError, ValueError, IndexError):
            continue
        if groups is None or int(fields[2]) in groups:
            found[int(entry)] = sum(int(value) for value in fields[11:15]) / CLOCK_TICKS
    return found


def cpu_between(before: dict, after: dict) -> float:
    """CPU seconds used between two process_cpu() readings; a process started in between (a lab component restarted
    by another test) counts from its start, one that ended in between is not counted."""
    return sum(seconds - before.get(pid, 0) for pid, seconds in after.items())


def machine_cpu() -> float:
    """CPU seconds the whole machine has been busy (every process, ours or not), from /proc/stat."""
    fields = [int(value) for value in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / CLOCK_TICKS  # all but idle and iowait


def kubernetes_lab_cpu(lab: Lab) -> dict:
    return process_cpu(pids=[lab.pid(name) for name in LAB_COMPONENTS if lab.pid(name)])


def openstack_lab_cpu() -> dict:
    groups = {pid for pid, _start in json.loads((OPENSTACK_STATE / "pids.json").read_text()).values()}
    return process_cpu(groups=groups)


class Fleet:
    """CNFs on the Kubernetes lab, one namespace each, through the collection's playbooks (the role)."""

    requests = REQUESTS
    env = {}
    module_tasks = MODULE_TASKS

    def __init__(self, lab: Lab, work: Path, wait_sleep: int):
        self.lab, self.work, self.kube = lab, work, lab.api()
        (work / "callbacks").mkdir(parents=True, exist_ok=True)
        (work / "callbacks" / "host_events.py").write_text(HOST_EVENTS)
        self.extravars = {"target": "fleet", "vnf_lifecycle_connection": self.connection(),
                          "vnf_lifecycle_package": str(FIXTURES / self.package),
                          "vnf_lifecycle_wait_timeout": 900, "vnf_lifecycle_wait_sleep": wait_sleep}
        self.runs = 0

    package = "test_cnf_multi_ns"

    def connection(self):
        return {"kubeconfig": str(self.lab.kubeconfig)}

    def lab_cpu(self) -> dict:
        return kubernetes_lab_cpu(self.lab)

    def hosts(self, count: int, prefix: str) -> dict:
        hosts = fleet_hosts(count, prefix)
        create_namespaces(self.kube, [variables["vnf_lifecycle_namespace"] for variables in hosts.values()])
        return hosts

    def delete(self, hosts: dict) -> None:
        names = [variables["vnf_lifecycle_namespace"] for variables in hosts.values()]
        for name in names:
            self.kube.request("DELETE", "/api/v1/namespaces/" + name)
        deadline = time.monotonic() + 300
        while any(self.kube.request("GET", "/api/v1/namespaces/" + name)[0] == 200 for name in names) and time.monotonic() < deadline:
            time.sleep(1)

    def start(self, hosts: dict, operations, forks: int):
        """An ansible-playbook run of ``operations`` over ``hosts``, started; ``finish`` it."""
        self.runs += 1
        tag = "run{0}".format(self.runs)
        (self.work / (tag + "-inventory.yml")).write_text(yaml.safe_dump(inventory(hosts)))
        (self.work / (tag + "-play.yml")).write_text(yaml.safe_dump(self.plays(operations)))
        (self.work / (tag + "-extravars.json")).write_text(json.dumps(self.extravars))
        events = self.work / (tag + "-events.jsonl")
        env = {key: value for key, value in os.environ.items() if not key.startswith(("K8S_AUTH_", "OS_"))}
        env.update(self.env)
        env.update(ANSIBLE_CALLBACK_PLUGINS=str(self.work / "callbacks"), ANSIBLE_CALLBACKS_ENABLED="host_events", NFV_HOST_EVENTS=str(events),
                   ANSIBLE_FORKS=str(forks), ANSIBLE_LOCALHOST_WARNING="false", ANSIBLE_HOST_KEY_CHECKING="false")
        log = (self.work / (tag + ".log")).open("w")
        process = subprocess.Popen([str(Path(sys.executable).parent / "ansible-playbook"), "-i", str(self.work / (tag + "-inventory.yml")),
                                    "-e", "@" + str(self.work / (tag + "-extravars.json")), str(self.work / (tag + "-play.yml"))],
                                   stdout=log, stderr=subprocess.STDOUT, env=env)
        return process, events, log

    def plays(self, operations) -> list:
        return [{"name": "VNF " + operation, "ansible.builtin.import_playbook": "nfv.vnflcm." + operation,
                 "vars": {"vnf_lifecycle_request": self.requests[operation]}} for operation in operations]

    def finish(self, started, operations) -> dict:
        process, events, log = started
        process.wait()
        log.close()
        lines = [json.loads(line) for line in events.read_text().splitlines()] if events.exists() else []
        outcome = {}
        for operation in operations:
            ran = [line for line in lines if line["task"].startswith(self.module_tasks[operation])]
            failed = [line for line in ran if line["failed"]]
            outcome[operation] = {"ok": len(ran) - len(failed), "failed": len(failed),
                                  "conflicts": sum(1 for line in failed if CONFLICT.search(line["msg"])),
                                  "other_errors": sorted({line["msg"][:200] for line in failed if not CONFLICT.search(line["msg"])})}
        # Any other task that failed on a host (the role's checks, its read-back), by task.
        others = {}
        for line in lines:
            if line["failed"] and not any(line["task"].startswith(self.module_tasks[operation]) for operation in operations):
                entry = others.setdefault(line["task"], {"hosts": 0, "messages": []})
                entry["hosts"] += 1
                if len(entry["messages"]) < 3:
                    entry["messages"].append(line["msg"][:300])
        return {"rc": process.returncode, "operations": outcome, "other_failed_tasks": others}

    def measured(self, run):
        """``run()`` with its wall time, the CPU of everything it started, and the lab's CPU."""
        cpu_before, lab_before, machine_before = resource.getrusage(resource.RUSAGE_CHILDREN), self.lab_cpu(), machine_cpu()
        began = time.monotonic()
        result = run()
        wall = time.monotonic() - began
        cpu_after, lab_after, machine_after = resource.getrusage(resource.RUSAGE_CHILDREN), self.lab_cpu(), machine_cpu()
        cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
        return dict(result, wall_s=round(wall, 1), ansible_cpu_s=round(cpu, 1), lab_cpu_s=round(cpu_between(lab_before, lab_after), 1),
                    machine_busy_of_cores=round((machine_after - machine_before) / (wall * os.cpu_count()), 2))

    def check(self, hosts: dict) -> dict:
        """Every instance's record against the cluster: how many differ, and how."""
        differing = {}
        for host, variables in hosts.items():
            _instance, _op_occs, differences = record_against_live(self.kube, variables["vnf_lifecycle_namespace"])
            if differences and differences != ["no record"]:
                differing[host] = differences
        return {"instances_checked": len(hosts), "lost": len(differing), "differences": differing}


class ModuleFleet(Fleet):
    """The same CNFs, the collection's modules as plain tasks (what a play without the role runs)."""

    module_tasks = {"instantiate": "vnf_instantiate", "scale": "vnf_scale", "heal": "vnf_heal", "terminate": "vnf_terminate"}

    def plays(self, operations) -> list:
        named = {"vnf_instance_name": "{{ vnf_lifecycle_instance_name }}", "namespace": "{{ vnf_lifecycle_namespace }}",
                 "wait": True, "wait_timeout": "{{ vnf_lifecycle_wait_timeout }}", "wait_sleep": "{{ vnf_lifecycle_wait_sleep }}"}
        tasks = {
            "instantiate": dict(named, package="{{ vnf_lifecycle_package }}", request=self.requests["instantiate"]),
            "scale": dict(named, request=self.requests["scale"]),
            "heal": dict(named, request=self.requests["heal"]),
            "terminate": dict(named, request=self.requests["terminate"]),
        }
        return [{"name": "VNF " + operation, "hosts": "fleet", "gather_facts": False,
                 "module_defaults": {"group/nfv.vnflcm.vnflcm": "{{ vnf_lifecycle_connection }}"},
                 "tasks": [{"name": self.module_tasks[operation], "nfv.vnflcm." + self.module_tasks[operation]: tasks[operation]}]}
                for operation in operations]


class CoreFleet(Fleet):
    """The same Deployment per namespace with kubernetes.core, as an Ansible user would write its lifecycle: apply the
    def file and wait, k8s_scale with wait, delete each pod with wait then wait for the Deployment ready, delete with wait."""

    module_tasks = {"instantiate": "k8s apply", "scale": "k8s_scale", "heal": "k8s_info wait", "terminate": "k8s absent"}

    def __init__(self, lab: Lab, work: Path, wait_sleep: int):
        super().__init__(lab, work, wait_sleep)
        from module_call_cost import anchors_collections

        self.env = {"ANSIBLE_COLLECTIONS_PATH": os.pathsep.join(filter(None, [COLLECTIONS, anchors_collections()]))}

    def plays(self, operations) -> list:
        where = {"kubeconfig": "{{ vnf_lifecycle_connection.kubeconfig }}", "namespace": "{{ vnf_lifecycle_namespace }}"}
        waiting = {"wait": True, "wait_timeout": "{{ vnf_lifecycle_wait_timeout }}", "wait_sleep": "{{ vnf_lifecycle_wait_sleep }}"}
        def_file = "{{ vnf_lifecycle_package }}/" + DEF_FILE
        tasks = {
            "instantiate": [{"name": "k8s apply", "kubernetes.core.k8s": dict(where, state="present", src=def_file, **waiting)}],
            "scale": [{"name": "k8s_scale", "kubernetes.core.k8s_scale": dict(where, kind="Deployment", name="vdu2", replicas=2, **waiting)}],
            # Every pod deleted by name (a delete by label selector with wait would wait for the new pods to go too).
            "heal": [{"name": "k8s_info pods", "kubernetes.core.k8s_info": dict(where, kind="Pod", label_selectors=[POD_LABEL]),
                      "register": "pods"},
                     {"name": "k8s delete the pods", "kubernetes.core.k8s": dict(where, state="absent", kind="Pod", name="{{ item.metadata.name }}",
                                                                                 **waiting),
                      "loop": "{{ pods.resources }}", "loop_control": {"label": "{{ item.metadata.name }}"}},
                     {"name": "k8s_info wait", "kubernetes.core.k8s_info": dict(where, kind="Deployment", name="vdu2", **waiting)}],
            "terminate": [{"name": "k8s absent", "kubernetes.core.k8s": dict(where, state="absent", src=def_file, **waiting)}],
        }
        return [{"name": "CNF " + operation, "hosts": "fleet", "gather_facts": False, "tasks": tasks[operation]} for operation in operations]


CONTENDERS = {"role": Fleet, "modules": ModuleFleet, "kubernetes.core": CoreFleet}


class VmFleet(Fleet):
    """VM-based VNFs on the tier-2 OpenStack lab: each instance is a Heat stack, which holds its record."""

    requests = VM_REQUESTS
    package = "userdata_standard"
    env = {"OS_CLIENT_CONFIG_FILE": str(OPENSTACK_STATE / "clouds.yaml")}

    def connection(self):
        return {"cloud": OPENSTACK_CLOUD}

    def lab_cpu(self) -> dict:
        return openstack_lab_cpu()

    def hosts(self, count: int, prefix: str) -> dict:
        return {"vm-{0:03d}".format(index): {"vnf_lifecycle_instance_name": "{0}-{1:03d}".format(prefix, index)} for index in range(count)}

    def stacks_of(self, hosts: dict) -> dict:
        """``{host: names of the stacks left that carry its instance name's tag}``."""
        import openstack

        sys.path.insert(0, str(Path(COLLECTIONS.split(os.pathsep)[0])))
        from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import name_tag

        os.environ["OS_CLIENT_CONFIG_FILE"] = self.env["OS_CLIENT_CONFIG_FILE"]
        conn = openstack.connect(cloud=OPENSTACK_CLOUD)
        stacks = list(conn.orchestration.stacks())
        return {host: [stack.name for stack in stacks if name_tag(variables["vnf_lifecycle_instance_name"]) in (stack.tags or [])]
                for host, variables in hosts.items()}

    def delete(self, hosts: dict) -> None:
        """The stacks an instance left (its operations failed before terminate; check() has counted them), deleted."""
        import openstack

        conn = openstack.connect(cloud=OPENSTACK_CLOUD)
        left = {name for names in self.stacks_of(hosts).values() for name in names}
        for stack in list(conn.orchestration.stacks()):
            if stack.name in left:
                conn.orchestration.delete_stack(stack)
        deadline = time.monotonic() + 600
        while left & {stack.name for stack in conn.orchestration.stacks()} and time.monotonic() < deadline:
            time.sleep(5)

    def check(self, hosts: dict) -> dict:
        differing = {host: ["stack left: " + ", ".join(names)] for host, names in self.stacks_of(hosts).items() if names}
        return {"instances_checked": len(hosts), "lost": len(differing), "differences": differing}


def lifecycle(fleet: Fleet, count: int, forks: int, stamp: str, steps=OPERATIONS) -> dict:
    hosts = fleet.hosts(count, "fleet-{0}-f{1}".format(stamp, forks))
    try:
        result = fleet.measured(lambda: fleet.finish(fleet.start(hosts, steps, forks), steps))
        result.update(fleet.check(hosts))
    finally:
        fleet.delete(hosts)
    operations = count * len(steps)
    cores = os.cpu_count()
    result.update(forks=forks, instances=count, instances_per_min=round(count * 60 / result["wall_s"], 2),
                  ansible_cpu_s_per_op=round(result["ansible_cpu_s"] / operations, 2), lab_cpu_s_per_op=round(result["lab_cpu_s"] / operations, 2),
                  cpu_use_of_cores=round((result["ansible_cpu_s"] + result["lab_cpu_s"]) / (result["wall_s"] * cores), 2))
    return result


def two_at_once(fleet: Fleet, count: int, forks: int, stamp: str) -> dict:
    """The fleet instantiated, then two runs of scale + heal at once over the same instances, checked, then terminated."""
    hosts = fleet.hosts(count, "fleet-{0}-two".format(stamp))
    racing = ("scale", "heal")
    try:
        setup = fleet.finish(fleet.start(hosts, ("instantiate",), forks), ("instantiate",))

        def both():
            first, second = fleet.start(hosts, racing, forks), fleet.start(hosts, racing, forks)
            return {"runs": [fleet.finish(first, racing), fleet.finish(second, racing)]}

        result = fleet.measured(both)
        result["instantiate"] = setup["operations"]["instantiate"]
        result.update(fleet.check(hosts))
        result["terminate"] = fleet.finish(fleet.start(hosts, ("terminate",), forks), ("terminate",))["operations"]["terminate"]
    finally:
        fleet.delete(hosts)
    attempted = sum(run["operations"][operation]["ok"] + run["operations"][operation]["failed"] for run in result["runs"] for operation in racing)
    failed = [run["operations"][operation] for run in result["runs"] for operation in racing]
    result.update(forks_each=forks, instances=count, host_operations=attempted, succeeded=sum(item["ok"] for item in failed),
                  conflicts=sum(item["conflicts"] for item in failed), other_errors=sum(len(item["other_errors"]) for item in failed),
                  other_failed_tasks=sum(entry["hosts"] for run in result["runs"] for entry in run["other_failed_tasks"].values()))
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--vim", choices=("kubernetes", "openstack"), default="kubernetes")
    parser.add_argument("--instances", type=int, default=24)
    parser.add_argument("--forks", default="1,4,8,16")
    parser.add_argument("--overlap-forks", type=int, default=8, help="forks of each of the two runs at once (0: skip)")
    parser.add_argument("--wait-sleep", type=int, default=1)
    parser.add_argument("--operations", default=",".join(OPERATIONS),
                        help="the lifecycle, in order (on the OpenStack lab without heal: Heat creates a VNFC's new server "
                             "before it deletes the old one, so a heal of every VNFC needs that much more server quota)")
    parser.add_argument("--contenders", default=",".join(CONTENDERS),
                        help="Kubernetes: the playbooks (role), the modules as plain tasks, kubernetes.core; each forks value runs them "
                             "one after the other, the order turning from one forks value to the next")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = parser.parse_args(argv)
    lab = Lab()
    if not lab.is_up():
        raise SystemExit("the Kubernetes lab is not up: tools/lab/k8s/lab.py up")
    stamp = datetime.datetime.now(datetime.timezone.utc)
    tag = stamp.strftime("%H%M%S")
    results = {"lifecycle": [], "two_at_once": None}
    with tempfile.TemporaryDirectory(prefix="fleet-bench-") as tmp:
        names = ["vm"] if args.vim == "openstack" else [name for name in args.contenders.split(",") if name]
        fleets = {name: (VmFleet if args.vim == "openstack" else CONTENDERS[name])(lab, Path(tmp) / name.replace(".", "-"), args.wait_sleep)
                  for name in names}
        fleet = fleets.get("role") or next(iter(fleets.values()))
        for turn, forks in enumerate(int(value) for value in args.forks.split(",") if value):
            for name in names[turn % len(names):] + names[:turn % len(names)]:
                entry = dict(lifecycle(fleets[name], args.instances, forks, "{0}{1}".format(tag, name[0]), tuple(args.operations.split(","))),
                             contender=name)
                results["lifecycle"].append(entry)
                print("{0} forks {1:2}: {2}".format(name, forks, json.dumps({key: value for key, value in entry.items() if key != "differences"})),
                      file=sys.stderr)
        if args.overlap_forks and args.vim == "kubernetes" and "role" in fleets:
            results["two_at_once"] = two_at_once(fleet, args.instances, args.overlap_forks, tag)
            print("two at once: {0}".format(json.dumps(results["two_at_once"])), file=sys.stderr)
    peers = {entry["forks"]: entry for entry in results["lifecycle"] if entry["contender"] == "kubernetes.core"}
    print("\n{0:>16} {1:>5} {2:>8} {3:>14} {4:>16} {5:>13} {6:>12} {7:>14} {8:>6} {9:>6} {10:>14}".format(
        "contender", "forks", "wall s", "instances/min", "ansible CPU/op", "lab CPU/op", "ours/cores", "machine/cores", "failed", "lost",
        "wall, CPU / k8s"))
    for entry in sorted(results["lifecycle"], key=lambda item: (item["forks"], item["contender"])):
        peer = peers.get(entry["forks"])
        ratio = "{0:.2f}, {1:.2f}".format(entry["wall_s"] / peer["wall_s"], entry["ansible_cpu_s_per_op"] / peer["ansible_cpu_s_per_op"]) if peer else "-"
        entry["ratio_to_kubernetes_core"] = ratio
        print("{0:>16} {1:>5} {2:>8} {3:>14} {4:>16} {5:>13} {6:>12} {7:>14} {8:>6} {9:>6} {10:>14}".format(
            entry["contender"], entry["forks"], entry["wall_s"], entry["instances_per_min"], entry["ansible_cpu_s_per_op"], entry["lab_cpu_s_per_op"],
            entry["cpu_use_of_cores"], entry.get("machine_busy_of_cores"), sum(item["failed"] for item in entry["operations"].values()), entry["lost"],
            ratio))
    if results["two_at_once"]:
        two = results["two_at_once"]
        print("two runs at once (forks {0} each): {1} host operations, {2} succeeded, {3} clean conflicts, {4} other errors, "
              "{5} other failed tasks, {6} of {7} instances differ from their record".format(
                  two["forks_each"], two["host_operations"], two["succeeded"], two["conflicts"], two["other_errors"],
                  two["other_failed_tasks"], two["lost"], two["instances_checked"]))
    report = {"benchmark": "fleet_lifecycle", "date": stamp.isoformat(timespec="seconds"),
              "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "system": platform.platform(),
                          "load_average_at_end": os.getloadavg()},
              "settings": {"vim": args.vim, "contenders": names, "instances": args.instances, "forks": args.forks,
                           "overlap_forks": args.overlap_forks, "wait_sleep": args.wait_sleep,
                           "operations": args.operations.split(",")}, **results}
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "fleet_lifecycle{0}-{1}.json".format("-openstack" if args.vim == "openstack" else "", stamp.strftime("%Y-%m-%d"))
    path.write_text(json.dumps(report, indent=1) + "\n")
    print("written:", path)
    ratios.regenerate(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
