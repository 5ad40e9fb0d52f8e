#!/usr/bin/env python3
"""The lifecycle of Tacker's DefaultUserData VNF (an AutoScalingGroup VDU): the collection's modules against Tacker's procedure on Heat.

Both run side by side on the same local OpenStack lab (tools/lab/openstack, tier 2), alternating which goes
first between rounds, with Tacker's basic_lcms_min (flavour simple, instantiation_level_1: VDU1 is
VDU1_scale_group with one member, VDU2 a plain server):
- module: vnf_instantiate, the same task again (re-run), vnf_scale SCALE_OUT and SCALE_IN of VDU1_scale by
  one step, vnf_heal of the VDU1 VNFC, vnf_terminate (FORCEFUL): one ansible-playbook task each;
- baseline, what Tacker v2 does on Heat, with the same template, files and nfv parameter (built by the
  collection's pure functions): stack create; scale out = PATCH of nfv with desired_capacity + 1; scale in =
  the newest member (a resource of the group's nested stack, found in the stack's resources listed with
  nested_depth=2) marked unhealthy, then PATCH with desired_capacity - 1; heal = the member marked unhealthy,
  then PATCH with no change; stack delete. Each waited for as `openstack stack ... --wait` does: polling
  the stack until its status ends.

Measured per step: wall time, the Heat API calls from Heat's own request log (reads / writes between two
offsets of <state>/log/heat.log), and the module's own `api_calls` (every OpenStack service it called). The lab
may be shared: a request on another stack is left out and counted as `others`; a request naming no stack (a
stack create, preview or listing) is counted, and as `unscoped` too, as it could be another user's when
`others` is not 0.

Run: make stage, then with ANSIBLE_COLLECTIONS_PATH set to the staged collections dir (see README.md)
  NFV_OPENSTACK_LAB_DIR=<state dir of a running tier-2 lab> $(make -s venv-path)/bin/python benchmarks/heat_asg_lifecycle.py [--rounds 3]
Results go to benchmarks/results/heat_asg_lifecycle-<date>.json.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

import openstack

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heat_change_pkg import ChangeBench  # noqa: E402
from heat_instantiate import CLOUD, FIXTURES, ROOT, Bench, HeatLog, ensure_images, lab_state, stats  # noqa: E402

PACKAGE = FIXTURES / "basic_lcms_min"
REQUEST = {"flavourId": "simple", "instantiationLevelId": "instantiation_level_1"}
VDU, ASPECT = "VDU1", "VDU1_scale"
UNHEALTHY_REASON = "benchmark baseline"
# Step pairs compared: module step -> baseline step (the re-run has no baseline: a stack create cannot be re-run).
PAIRS = (("instantiate", "create"), ("scale_out", "scale_out"), ("scale_in", "scale_in"), ("heal", "heal"), ("terminate", "delete"))
MODULE_STEPS = ("instantiate", "rerun", "scale_out", "scale_in", "heal", "terminate")
# A request line of Heat's API and the stack it names, if any (/stacks/<name or id>[/...]).
REQUEST_LINE = re.compile(r'"(GET|HEAD|POST|PATCH|PUT|DELETE) /v1/[^/\s]+(?:/stacks/([^/?\s]+))?')
UNSCOPED = ("preview",)


def same_stack(conn):
    """Template, files and the nfv of REQUEST as the module builds them, and the VNFC counts of the level."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import nfv_params
    from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import template as heat_template
    from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.form import form_of
    from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import with_record_resource
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import indexes_for
    from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

    with load_package(str(PACKAGE)) as package:
        template, files = heat_template.load_base_hot(package, REQUEST["flavourId"])
        flavour = package.flavour(REQUEST["flavourId"])
    form = form_of(template)
    counts = nfv_params.vnfc_counts(flavour, REQUEST["instantiationLevelId"])
    names = nfv_params.build_nfv(flavour, REQUEST, indexes_for(counts), form=form)
    images = {entry["vcImageId"]: None for entry in names["VDU"].values() if entry.get("vcImageId")}
    images = {name: conn.image.find_image(name, ignore_missing=False).id for name in images}

    def nfv_for(vdu_count):
        """The nfv parameter with VDU1 at ``vdu_count`` VNFCs (the group's desired_capacity)."""
        indexes = indexes_for(dict(counts, **{VDU: vdu_count}))
        return nfv_params.with_image_ids(nfv_params.build_nfv(flavour, REQUEST, indexes, form=form), images)

    stack_template = with_record_resource(form.stack_template(template, indexes_for(counts)))
    return stack_template, files, nfv_for, counts[VDU]


class StackLog(HeatLog):
    """Heat's request log, the requests on one's own stacks told apart from those on others' (the lab is shared)."""

    def calls_of(self, start: int, end: int, stacks) -> dict:
        """Requests between two offsets on the stacks whose name or id starts with one of ``stacks``, and those naming none."""
        with self.path.open("rb") as handle:
            handle.seek(start)
            text = handle.read(end - start).decode("utf-8", "replace")
        counts = {"read": 0, "write": 0, "unscoped": 0, "others": 0}
        for method, segment in REQUEST_LINE.findall(text):
            scoped = bool(segment) and segment not in UNSCOPED
            if scoped and not segment.startswith(tuple(stacks)):
                counts["others"] += 1
                continue
            counts["unscoped"] += not scoped
            counts["read" if method in ("GET", "HEAD") else "write"] += 1
        return counts


class AsgBench(Bench):
    # The baseline's wait for an update (polling the stack, as `openstack stack update --wait`).
    wait_update = ChangeBench.wait_update

    def __init__(self, state: Path, work: Path):
        super().__init__(state, work)
        self.log = StackLog(state)

    def measure(self, fn, stacks) -> dict:
        """As Bench.measure, counting the Heat requests on the stacks ``stacks()`` names once ``fn`` has run."""
        start, t0 = self.log.offset(), time.monotonic()
        extra = fn()
        took = time.monotonic() - t0
        time.sleep(0.5)  # let the last request line reach the log
        return dict(extra or {}, seconds=round(took, 2), heat_calls=self.log.calls_of(start, self.log.offset(), stacks()))

    # -- the collection ------------------------------------------------------------------------

    def module_step(self, module: str, name: str, **args) -> dict:
        result = self.task(module, dict(args, vnf_instance_name=name, cloud=CLOUD, wait_sleep=1, wait_timeout=600))
        return {"changed": result["changed"], "module_api_calls": result["api_calls"], "_instance": result.get("vnf_instance")}

    # -- Tacker's procedure --------------------------------------------------------------------

    def resources(self, path: str) -> list:
        """The stack's resources and those of its nested stacks (`openstack stack resource list -n 2`)."""
        return self.conn.orchestration.get(path + "/resources?nested_depth=2").json()["resources"]

    def mark_unhealthy(self, resource: dict):
        stack_link = next(link["href"] for link in resource["links"] if link["rel"] == "stack")
        url = "/stacks/" + stack_link.split("/stacks/", 1)[1] + "/resources/" + resource["resource_name"]
        self.conn.orchestration.patch(url, json={"mark_unhealthy": True, "resource_status_reason": UNHEALTHY_REASON})

    def patch(self, path: str, parameters: dict, before):
        self.conn.orchestration.patch(path, json={"parameters": parameters})
        return self.wait_update(path, before)

    def baseline_scale(self, path: str, nfv_for, count: int, before, remove: bool):
        """Tacker's scale of a group: on scale in, the newest members marked unhealthy first (so Heat removes them)."""
        from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.record import members_to_remove

        if remove:
            for member in members_to_remove(self.resources(path), {VDU: count}):
                self.mark_unhealthy(member)
        return self.patch(path, {"nfv": json.dumps(nfv_for(count))}, before)

    def baseline_heal(self, path: str, server_id: str, before):
        """Tacker's heal of a group member: the member (its nested stack) marked unhealthy, then an update with no change."""
        from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.record import heal_targets

        for resource in heal_targets(self.resources(path), {server_id}):
            self.mark_unhealthy(resource)
        return self.patch(path, {}, before)

    def vdu_servers(self, path: str) -> list:
        """Server ids of VDU1's members, oldest first (a check, not measured)."""
        from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.record import vnfc_parts

        parts = [vnfc for vnfc in vnfc_parts(self.resources(path)).values() if vnfc["vdu"] == VDU]
        return [item["physical_resource_id"] for vnfc in sorted(parts, key=lambda vnfc: vnfc["index"]) for item in vnfc["servers"].values()]


def instance_servers(instance: dict) -> list:
    items = [item for item in instance["instantiatedVnfInfo"]["vnfcResourceInfo"] if item["vduId"] == VDU]
    return [item["computeResource"]["resourceId"] for item in sorted(items, key=lambda item: item["metadata"]["index"])]


def expect(condition: bool, what: str):
    if not condition:
        raise SystemExit("unexpected: " + what)


def module_side(bench: AsgBench, name: str) -> dict:
    entry = {}
    known = {}

    def run(module, args):
        result = bench.module_step(module, name, **args)
        known.setdefault("stack", "vnf-" + result["_instance"]["id"])
        return result

    def step(key, module, **args):
        entry[key] = bench.measure(lambda: run(module, args), lambda: [known["stack"]])
        return entry[key].pop("_instance")

    instance = step("instantiate", "vnf_instantiate", package=str(PACKAGE), request=REQUEST)
    first = instance_servers(instance)
    step("rerun", "vnf_instantiate", package=str(PACKAGE), request=REQUEST)
    expect(entry["rerun"]["changed"] is False, "the re-run changed something")
    out = instance_servers(step("scale_out", "vnf_scale", request={"type": "SCALE_OUT", "aspectId": ASPECT, "numberOfSteps": 1}))
    expect(len(out) == len(first) + 1 and out[:len(first)] == first, "module scale out: {0} -> {1}".format(first, out))
    instance = step("scale_in", "vnf_scale", request={"type": "SCALE_IN", "aspectId": ASPECT, "numberOfSteps": 1})
    expect(instance_servers(instance) == first, "module scale in kept {0}, expected {1}".format(instance_servers(instance), first))
    vnfc = [item["id"] for item in instance["instantiatedVnfInfo"]["vnfcInfo"] if item["vnfcResourceInfoId"] == first[0]]
    healed = instance_servers(step("heal", "vnf_heal", request={"vnfcInstanceId": vnfc}))
    expect(len(healed) == len(first) and first[0] not in healed, "module heal: {0} -> {1}".format(first, healed))
    step("terminate", "vnf_terminate", request={"terminationType": "FORCEFUL"})
    return entry


def baseline_side(bench: AsgBench, name: str, stack) -> dict:
    template, files, nfv_for, count = stack
    entry = {}
    created = {}
    first_stack = (template, files, nfv_for(count))

    def create():
        created.update(bench.stack_create(name, first_stack))

    entry["create"] = bench.measure(create, lambda: [name, created["stack_id"]])
    path = "/stacks/{0}/{1}".format(name, created["stack_id"])
    mine = [name, created["stack_id"]]
    first = bench.vdu_servers(path)
    updated = [None]  # the stack's updated_time after the last update: a new one marks the end of the next

    def scale(target, remove):
        updated[0] = bench.baseline_scale(path, nfv_for, target, updated[0], remove)

    def heal(server):
        updated[0] = bench.baseline_heal(path, server, updated[0])

    entry["scale_out"] = bench.measure(lambda: scale(count + 1, False), lambda: mine)
    out = bench.vdu_servers(path)
    expect(len(out) == len(first) + 1 and out[:len(first)] == first, "baseline scale out: {0} -> {1}".format(first, out))
    entry["scale_in"] = bench.measure(lambda: scale(count, True), lambda: mine)
    expect(bench.vdu_servers(path) == first, "baseline scale in kept {0}, expected {1}".format(bench.vdu_servers(path), first))
    entry["heal"] = bench.measure(lambda: heal(first[0]), lambda: mine)
    healed = bench.vdu_servers(path)
    expect(len(healed) == len(first) and first[0] not in healed, "baseline heal: {0} -> {1}".format(first, healed))
    entry["delete"] = bench.measure(lambda: bench.stack_delete(name), lambda: mine)
    return entry


def clean_up(bench: AsgBench, module_name: str, baseline_name: str):
    """Whatever a failed round left: the module's instance (terminated) and the baseline's stack."""
    try:
        bench.task("vnf_terminate", {"vnf_instance_name": module_name, "cloud": CLOUD, "request": {"terminationType": "FORCEFUL"},
                                     "delete_instance": True, "wait_timeout": 600})
    except SystemExit as error:
        print("clean-up of {0} failed: {1}".format(module_name, error), file=sys.stderr)
    if bench.conn.orchestration.find_stack(baseline_name) is not None:
        bench.stack_delete(baseline_name)


def one_round(bench: AsgBench, stack, number: int) -> dict:
    tag = uuid.uuid4().hex[:6]
    module_name, baseline_name = "bench-asg-m-" + tag, "bench-asg-b-" + tag
    order = ["module", "baseline"] if number % 2 == 0 else ["baseline", "module"]
    entry = {"order": order}
    finished = False
    try:
        for who in order:
            entry[who] = module_side(bench, module_name) if who == "module" else baseline_side(bench, baseline_name, stack)
        finished = True
    finally:
        if not finished:
            clean_up(bench, module_name, baseline_name)
    return entry


def summarise(rounds) -> dict:
    summary = {"module": {}, "baseline": {}, "ratio_seconds_module_to_baseline": {}}
    for who, steps in (("module", MODULE_STEPS), ("baseline", [pair[1] for pair in PAIRS])):
        for key in steps:
            runs = [r[who][key] for r in rounds]
            summary[who][key] = {"seconds": stats([run["seconds"] for run in runs]),
                                 "heat_reads": stats([run["heat_calls"]["read"] for run in runs]),
                                 "heat_writes": stats([run["heat_calls"]["write"] for run in runs]),
                                 "heat_unscoped": stats([run["heat_calls"]["unscoped"] for run in runs]),
                                 "heat_others": stats([run["heat_calls"]["others"] for run in runs])}
            if who == "module":
                calls = [run["module_api_calls"] for run in runs]
                summary[who][key]["module_api_calls"] = {name: stats([c.get(name, 0) for c in calls]) for name in sorted(set().union(*calls))}
                summary[who][key]["changed"] = sorted({run["changed"] for run in runs})
    for ours, theirs in PAIRS:
        summary["ratio_seconds_module_to_baseline"][ours] = stats([r["module"][ours]["seconds"] / r["baseline"][theirs]["seconds"] for r in rounds])
    total = [sum(r["module"][ours]["seconds"] for ours, _ in PAIRS) / sum(r["baseline"][theirs]["seconds"] for _, theirs in PAIRS) for r in rounds]
    summary["ratio_seconds_module_to_baseline"]["lifecycle"] = stats(total)
    return summary


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = parser.parse_args(argv)
    state = lab_state()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as work:
        bench = AsgBench(state, Path(work))
        ensure_images(bench.conn)
        stack = same_stack(bench.conn)
        rounds = []
        for number in range(args.rounds):
            entry = one_round(bench, stack, number)
            rounds.append(entry)
            print(json.dumps(entry), flush=True)
    summary = summarise(rounds)
    stamp = datetime.datetime.now(datetime.timezone.utc)
    report = {"benchmark": "heat_asg_lifecycle", "date": stamp.isoformat(), "rounds": args.rounds, "package": "basic_lcms_min",
              "request": REQUEST, "scale": {"aspectId": ASPECT, "numberOfSteps": 1},
              "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "load_before": load_before, "load_after": os.getloadavg()},
              "openstacksdk": openstack.version.__version__, "summary": summary, "runs": rounds}
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "heat_asg_lifecycle-{0}.json".format(stamp.strftime("%Y-%m-%d"))
    path.write_text(json.dumps(report, indent=1) + "\n")
    print("step         module_s  baseline_s  ratio (min-max)       heat r/w module  heat r/w baseline")
    for ours, theirs in PAIRS:
        mine, base, ratio = summary["module"][ours], summary["baseline"][theirs], summary["ratio_seconds_module_to_baseline"][ours]
        print("{0:12} {1:8}  {2:10}  {3} ({4}-{5})  {6}/{7}  {8}/{9}".format(
            ours, mine["seconds"]["median"], base["seconds"]["median"], ratio["median"], ratio["min"], ratio["max"],
            mine["heat_reads"]["median"], mine["heat_writes"]["median"], base["heat_reads"]["median"], base["heat_writes"]["median"]))
    rerun = summary["module"]["rerun"]
    print("rerun        {0:8}  changed {1}, heat {2}/{3}".format(rerun["seconds"]["median"], rerun["changed"], rerun["heat_reads"]["median"],
                                                                  rerun["heat_writes"]["median"]))
    print("written", path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
