#!/usr/bin/env python3
"""Change the current VNF package of a VM-based VNF: nfv.vnflcm.vnf_change_pkg against Tacker's procedure on Heat.

Both run side by side on the same local OpenStack lab (tools/lab/openstack, tier 2), alternating, for
N = 1, 2, 4 VNFCs changed. The new package is a copy of Tacker's userdata_standard with its own vnfdId
where VDU1 and VDU2 go from m1.tiny to m1.small (same images: each VNFC is a Nova resize, server kept).
Per round and size, two identical instances are made with the module (vnf_instantiate, plus vnf_scale
for N=4; not measured); then
- module: vnf_change_pkg on the first (one ansible-playbook task), then the same task again (re-run);
- baseline (what Tacker v2 does for a RollingUpdate): on the second, the same per-VNFC intermediate
  stacks (the collection's pure planner, from the stack as Heat has it), one PATCH per VNFC waiting
  for UPDATE_COMPLETE after each, then one final full PATCH with the whole new stack, sent although
  nothing differs, and waiting again.

Measured per run: wall time, Heat API calls from Heat's own request log (reads / writes, and stack
updates: PATCH/PUT that are not /preview), and the module's own `api_calls`.

Run: make stage, then with ANSIBLE_COLLECTIONS_PATH set to the staged collections dir (see README.md)
  NFV_OPENSTACK_LAB_DIR=<state dir of a running tier-2 lab> $(make -s venv-path)/bin/python benchmarks/heat_change_pkg.py [--rounds 2] [--sizes 1,2,4]
Results go to benchmarks/results/heat_change_pkg-<date>.json.
"""
from __future__ import annotations

import argparse
import copy
import datetime
import json
import os
import platform
import re
import shutil
import sys
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import openstack
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heat_instantiate import CLOUD, PACKAGE, REQUEST, ROOT, Bench, ensure_images, lab_state, stats  # noqa: E402
import ratios  # noqa: E402

UPDATE_LINE = re.compile(r'\[([^]]+)\] "(PATCH|PUT) (/v1/\S+)')
SMALL, TINY = "requested_additional_capability_name: m1.small", "requested_additional_capability_name: m1.tiny"
# N -> instantiation level, whether VDU1_scale goes out one step, the VDUs named in vdu_params.
SIZES = {
    1: ("instantiation_level_1", False, ["VDU2"]),
    2: ("instantiation_level_1", False, ["VDU1", "VDU2"]),
    4: ("instantiation_level_2", True, ["VDU1", "VDU2"]),
}


def vnfd_id(path: Path) -> str:
    meta = (path / "TOSCA-Metadata" / "TOSCA.meta").read_text()
    entry = [line.split(":", 1)[1].strip() for line in meta.splitlines() if line.startswith("Entry-Definitions")][0]
    return yaml.safe_load((path / entry).read_text())["topology_template"]["node_templates"]["VNF"]["properties"]["descriptor_id"]


def own_copy(source: Path, path: Path) -> Path:
    """A copy of the package ``source`` at ``path`` with a vnfdId of its own (Tacker's samples share theirs)."""
    shutil.copytree(source, path)
    old_id, new_id = vnfd_id(source), str(uuid.uuid4())
    for file in (path / "Definitions").glob("*.yaml"):
        file.write_text(file.read_text().replace(old_id, new_id))
    return path


def bench_package(work: Path) -> Path:
    """userdata_standard with a vnfdId of its own and VDU1, VDU2 on m1.small (was m1.tiny)."""
    path = own_copy(PACKAGE, work / "userdata_standard_small")
    df = path / "Definitions" / "v2_sample3_df_simple.yaml"
    text = df.read_text()
    if text.count(TINY) != 2:
        raise SystemExit("expected VDU1 and VDU2 on m1.tiny in " + str(df))
    df.write_text(text.replace(TINY, SMALL))
    return path


def stack_updates(log, start: int, since: float) -> list:
    """Stack updates Heat logged after offset ``start`` (PATCH/PUT request lines, previews left out): when
    each came, in seconds after the wall-clock time ``since`` (the log has whole seconds)."""
    with log.path.open("rb") as handle:
        handle.seek(start)
        text = handle.read().decode("utf-8", "replace")
    return [round(datetime.datetime.strptime(match.group(1), "%d/%b/%Y %H:%M:%S").timestamp() - since, 1)
            for match in UPDATE_LINE.finditer(text) if not match.group(3).endswith("/preview")]


class ChangeBench(Bench):
    def __init__(self, state: Path, work: Path, package: Path):
        super().__init__(state, work)
        self.package = package
        self.new_vnfd_id = vnfd_id(package)
        from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import template as heat_template
        from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

        # Tacker has the package onboarded already: read once, outside the measurement.
        with load_package(str(package)) as loaded:
            self.base_template, self.base_files = heat_template.load_base_hot(loaded, "simple")
            self.flavour = loaded.flavour("simple")

    def measure(self, fn) -> dict:
        start, since, t0 = self.log.offset(), time.time(), time.monotonic()
        extra = fn()
        took = time.monotonic() - t0
        time.sleep(0.5)  # let the last request line reach the log
        updates = stack_updates(self.log, start, since)
        return dict(extra or {}, seconds=round(took, 2), heat_calls=self.log.calls(start), stack_updates=len(updates), stack_updates_at_s=updates)

    def request(self, vdu_ids) -> dict:
        return {"vnfdId": self.new_vnfd_id, "additionalParams": {"upgrade_type": "RollingUpdate", "vdu_params": [{"vdu_id": vdu} for vdu in vdu_ids]}}

    # -- setup, not measured ------------------------------------------------------------------

    def clone(self, sub: str) -> "ChangeBench":
        """The same bench with a work dir of its own, so that two tasks can run at once."""
        other = copy.copy(self)
        other.work = self.work / sub
        other.work.mkdir(exist_ok=True)
        return other

    def create(self, name: str, level: str, scale: bool) -> dict:
        request = dict(copy.deepcopy(REQUEST), instantiationLevelId=level)
        result = self.task("vnf_instantiate", {"package": str(PACKAGE), "vnf_instance_name": name, "request": request, "cloud": CLOUD,
                                               "wait_sleep": 1, "wait_timeout": 900})
        if scale:
            result = self.task("vnf_scale", {"vnf_instance_name": name, "cloud": CLOUD, "wait_sleep": 1, "wait_timeout": 900,
                                             "request": {"type": "SCALE_OUT", "aspectId": "VDU1_scale", "numberOfSteps": 1}})
        return result["vnf_instance"]

    def servers(self, instance: dict) -> dict:
        """server id -> (VDU, flavor name, status), from Nova."""
        result = {}
        for item in instance["instantiatedVnfInfo"]["vnfcResourceInfo"]:
            server = self.conn.compute.get_server(item["computeResource"]["resourceId"])
            result[server.id] = (item["vduId"], server.flavor["original_name"], server.status)
        return result

    # -- the two sides ------------------------------------------------------------------------

    def module_change(self, name: str, vdu_ids) -> dict:
        result = self.task("vnf_change_pkg", {"package": str(self.package), "vnf_instance_name": name, "request": self.request(vdu_ids),
                                              "cloud": CLOUD, "wait_sleep": 1, "wait_timeout": 900})
        return {"changed": result["changed"], "plan_updates": result["plan"]["updates"], "module_api_calls": result["api_calls"],
                "_instance": result["vnf_instance"]}

    def tacker_change(self, instance: dict, vdu_ids) -> dict:
        """Tacker v2's RollingUpdate on Heat: one PATCH per VNFC, then a final full PATCH, each waited for."""
        from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import change_pkg
        from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import template as heat_template

        t0 = time.monotonic()
        metadata = instance["instantiatedVnfInfo"]["metadata"]
        private = metadata["vnflcm"]
        heat = self.conn.orchestration
        path = "/stacks/{0}/{1}".format(metadata["stack_name"], metadata["stack_id"])
        stack = heat.get(path).json()["stack"]
        template, files = heat.get(path + "/template").json(), heat.get(path + "/files").json()
        nfv = stack["parameters"]["nfv"]
        current = {"template": template, "files": heat_template.used_files(template, files), "nfv": json.loads(nfv) if isinstance(nfv, str) else nfv}
        request = self.request(vdu_ids)
        args = (self.flavour, self.base_template, self.base_files, request, private["request"], private["vnfcs"])
        by_name = change_pkg.desired_stack(*args)
        names = {entry["vcImageId"] for entry in (by_name["nfv"].get("VDU") or {}).values() if (entry or {}).get("vcImageId")}
        images = {name: self.conn.image.find_image(name, ignore_missing=False).id for name in sorted(names)}
        desired = change_pkg.desired_stack(*args, image_ids=images)
        steps = change_pkg.rolling_steps(current, desired, vdu_ids)
        target = change_pkg.target_stack(current, desired, vdu_ids)
        planned = time.monotonic() - t0
        last, took = stack["updated_time"], []
        for step in [item["stack"] for item in steps] + [target]:
            t1 = time.monotonic()
            heat.patch(path, json={"template": step["template"], "files": step["files"], "parameters": {"nfv": json.dumps(step["nfv"])}})
            last = self.wait_update(path, last)
            took.append(round(time.monotonic() - t1, 2))
        return {"vnfcs": [item["vnfc"] for item in steps], "plan_seconds": round(planned, 3), "update_seconds": took}

    def wait_update(self, path: str, before):
        """Poll the stack (as `openstack stack update --wait`) until this update is complete; its updated_time."""
        heat = self.conn.orchestration
        deadline = time.monotonic() + 900
        while time.monotonic() < deadline:
            stack = heat.get(path).json()["stack"]
            status = stack["stack_status"]
            # A status from before this update (same updated_time) is not this update's end.
            if not status.endswith("IN_PROGRESS") and stack["updated_time"] != before:
                if status != "UPDATE_COMPLETE":
                    raise SystemExit("baseline update of {0}: {1} {2}".format(path, status, stack.get("stack_status_reason")))
                return stack["updated_time"]
            time.sleep(1)
        raise SystemExit("baseline update of {0} did not end".format(path))


def one_round(bench: ChangeBench, size: int, number: int) -> dict:
    level, scale, vdu_ids = SIZES[size]
    tag = uuid.uuid4().hex[:6]
    module_name, baseline_name = "bench-chg-m-" + tag, "bench-chg-b-" + tag
    names = (module_name, baseline_name)
    with ThreadPoolExecutor(2) as pool:  # setup, not measured: both at once
        made = list(pool.map(lambda name: bench.clone(name).create(name, level, scale), names))
    instances = dict(zip((module_name, baseline_name), made))
    vnfcs = len([item for item in made[0]["instantiatedVnfInfo"]["vnfcResourceInfo"] if item["vduId"] in vdu_ids])
    if vnfcs != size:
        raise SystemExit("size {0}: the instance has {1} VNFCs of {2}".format(size, vnfcs, vdu_ids))
    order = ["module", "baseline"] if number % 2 == 0 else ["baseline", "module"]
    entry = {"size": size, "order": order}
    try:
        for who in order:
            if who == "module":
                entry["module"] = bench.measure(lambda: bench.module_change(module_name, vdu_ids))
                instances[module_name] = entry["module"].pop("_instance")
                entry["module_rerun"] = bench.measure(lambda: bench.module_change(module_name, vdu_ids))
                entry["module_rerun"].pop("_instance")
            else:
                entry["baseline"] = bench.measure(lambda: bench.tacker_change(instances[baseline_name], vdu_ids))
        # Both must end the same: the named VDUs resized (servers kept, ACTIVE), the others untouched.
        for who, name in (("module", module_name), ("baseline", baseline_name)):
            servers = bench.servers(instances[name])
            wanted = {server: (vdu, "m1.small" if vdu in vdu_ids else "m1.tiny", "ACTIVE") for server, (vdu, _, _) in servers.items()}
            if servers != wanted:
                raise SystemExit("{0} ended with {1}, expected {2}".format(who, servers, wanted))
            entry[who]["servers_ok"] = True
    finally:
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(lambda name: bench.clone(name).module_terminate(name), names))
    return entry


def summarise(rounds) -> dict:
    summary = {}
    for key in ("module", "module_rerun", "baseline"):
        summary[key] = {"seconds": stats([r[key]["seconds"] for r in rounds]),
                        "heat_reads": stats([r[key]["heat_calls"]["read"] for r in rounds]),
                        "heat_writes": stats([r[key]["heat_calls"]["write"] for r in rounds]),
                        "stack_updates": stats([r[key]["stack_updates"] for r in rounds])}
    for key in ("module", "module_rerun"):
        calls = [r[key]["module_api_calls"] for r in rounds]
        summary[key]["module_api_calls"] = {name: stats([c.get(name, 0) for c in calls]) for name in sorted(set().union(*calls))}
        summary[key]["changed"] = sorted({r[key]["changed"] for r in rounds})
    summary["baseline"]["plan_seconds"] = stats([r["baseline"]["plan_seconds"] for r in rounds])
    summary["baseline"]["final_update_seconds"] = stats([r["baseline"]["update_seconds"][-1] for r in rounds])
    summary["ratio_seconds_module_to_baseline"] = round(summary["module"]["seconds"]["median"] / summary["baseline"]["seconds"]["median"], 2)
    return summary


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--sizes", default="1,2,4", help="VNFCs changed, among 1, 2, 4 (comma-separated)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",")]
    if not set(sizes) <= set(SIZES):
        parser.error("--sizes: among {0}".format(sorted(SIZES)))
    state = lab_state()
    with tempfile.TemporaryDirectory() as work:
        package = bench_package(Path(work))
        bench = ChangeBench(state, Path(work), package)
        ensure_images(bench.conn)
        results = {}
        for size in sizes:
            rounds = []
            for number in range(args.rounds):
                entry = one_round(bench, size, number)
                rounds.append(entry)
                print(json.dumps(entry), flush=True)
            results[size] = {"summary": summarise(rounds), "runs": rounds}
    stamp = datetime.datetime.now(datetime.timezone.utc)
    report = {"benchmark": "heat_change_pkg", "date": stamp.isoformat(), "rounds": args.rounds, "package": "userdata_standard, VDU1 and VDU2 m1.tiny -> m1.small",
              "sizes": {str(size): {"instantiationLevelId": SIZES[size][0], "scale_out_VDU1_scale": SIZES[size][1], "vdu_params": SIZES[size][2]}
                        for size in sizes},
              "request": REQUEST, "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "load": os.getloadavg()},
              "openstacksdk": openstack.version.__version__,
              "summary": {str(size): results[size]["summary"] for size in sizes}, "runs": {str(size): results[size]["runs"] for size in sizes}}
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "heat_change_pkg-{0}.json".format(stamp.strftime("%Y-%m-%d"))
    path.write_text(json.dumps(report, indent=1) + "\n")
    print("N  module_s  baseline_s  ratio  updates(module/baseline)  rerun_updates")
    for size in sizes:
        s = results[size]["summary"]
        print("{0}  {1:8}  {2:10}  {3:5}  {4}/{5}  {6}".format(size, s["module"]["seconds"]["median"], s["baseline"]["seconds"]["median"],
                                                             s["ratio_seconds_module_to_baseline"], s["module"]["stack_updates"]["median"],
                                                             s["baseline"]["stack_updates"]["median"], s["module_rerun"]["stack_updates"]["median"]))
    print("written", path)
    ratios.regenerate(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
