#!/usr/bin/env python3
"""Instantiate Tacker's userdata_standard VNF: nfv.vnflcm.vnf_instantiate against a plain Heat stack create.

Both run side by side on the same local OpenStack lab (tools/lab/openstack, tier 2), alternating,
with the same template, nested files and `nfv` parameter (built by the collection's own pure
functions, so the baseline is exactly what `openstack stack create --wait -t <top> -e ... --parameter
nfv=<json>` would send). The baseline waits like `openstack stack create --wait`: it polls the
stack until CREATE_COMPLETE. Then the module runs again on its instance (the idempotent re-run).

Measured per run: wall time, and the Heat API calls from Heat's own request log (every request line
between two offsets of <state>/log/heat.log, split into reads and writes), plus the module's own
`api_calls` (every OpenStack service it called).

Run: make stage, then with ANSIBLE_COLLECTIONS_PATH set to the staged collections dir (see README.md)
  NFV_OPENSTACK_LAB_DIR=<state dir of a running tier-2 lab> $(make -s venv-path)/bin/python benchmarks/heat_instantiate.py [--rounds 3]
Results go to benchmarks/results/heat_instantiate-<date>.json.
"""
from __future__ import annotations

import argparse
import datetime
import io
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import openstack
import yaml

import ratios

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(os.environ.get("NFV_FIXTURES_DIR") or ROOT.parent / "shared" / "fixtures" / "tacker")
PACKAGE = FIXTURES / "userdata_standard"
CLOUD = "nfvlab-admin"
IMAGES = ("cirros-0.5.2-x86_64-disk", "VDU2-VirtualStorage-image")
REQUEST_LINE = re.compile(r'"(GET|HEAD|POST|PATCH|PUT|DELETE) /v1/')


def address(subnet=None):
    entry = {"type": "IPV4", "numDynamicAddresses": 1}
    if subnet:
        entry["subnetId"] = subnet
    return {"cpProtocolData": [{"layerProtocol": "IP_OVER_ETHERNET", "ipOverEthernet": {"ipAddresses": [entry]}}]}


REQUEST = {"flavourId": "simple", "instantiationLevelId": "instantiation_level_1", "extVirtualLinks": [{
    "id": "ext-net0", "resourceId": "net0", "extCps": [
        {"cpdId": "VDU1_CP1", "cpConfig": {"c1": address()}},
        {"cpdId": "VDU2_CP1", "cpConfig": {"c2": address("net0-subnet")}}]}]}


class HeatLog:
    """Heat's request log: what was requested between two offsets."""

    def __init__(self, state: Path):
        self.path = state / "log" / "heat.log"

    def offset(self) -> int:
        return self.path.stat().st_size

    def calls(self, start: int) -> dict:
        with self.path.open("rb") as handle:
            handle.seek(start)
            text = handle.read().decode("utf-8", "replace")
        methods = [match.group(1) for match in REQUEST_LINE.finditer(text)]
        writes = sum(method not in ("GET", "HEAD") for method in methods)
        return {"read": len(methods) - writes, "write": writes}


def same_stack(conn):
    """The template, files and nfv the module builds for REQUEST (the collection's pure functions)."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import nfv_params
    from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import template as heat_template
    from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import with_record_resource
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.shared import indexes_for
    from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

    with load_package(str(PACKAGE)) as package:
        template, files = heat_template.load_base_hot(package, "simple")
        flavour = package.flavour("simple")
    indexes = indexes_for(nfv_params.vnfc_counts(flavour, REQUEST["instantiationLevelId"]))
    images = {name: conn.image.find_image(name).id for name in IMAGES}
    nfv = nfv_params.with_image_ids(nfv_params.build_nfv(flavour, REQUEST, indexes), images)
    return with_record_resource(heat_template.build_stack_template(template, indexes)), files, nfv


class Bench:
    def __init__(self, state: Path, work: Path):
        self.log = HeatLog(state)
        self.work = work
        self.env = dict(os.environ, OS_CLIENT_CONFIG_FILE=str(state / "clouds.yaml"), ANSIBLE_LOCALHOST_WARNING="false",
                        ANSIBLE_INVENTORY_UNPARSED_WARNING="false", ANSIBLE_PYTHON_INTERPRETER=sys.executable)
        os.environ["OS_CLIENT_CONFIG_FILE"] = self.env["OS_CLIENT_CONFIG_FILE"]
        self.conn = openstack.connect(cloud=CLOUD)
        self.runs = 0

    def measure(self, fn) -> dict:
        start, t0 = self.log.offset(), time.monotonic()
        extra = fn()
        took = time.monotonic() - t0
        time.sleep(0.5)  # let the last request line reach the log
        return dict(extra or {}, seconds=round(took, 2), heat_calls=self.log.calls(start))

    def task(self, module: str, args: dict, env: dict | None = None) -> dict:
        """One ansible-playbook task of ``module`` (a module of this collection, or a fully qualified name); its result."""
        self.runs += 1
        out = self.work / "result-{0}.json".format(self.runs)
        book = self.work / "task-{0}.yml".format(self.runs)
        book.write_text(yaml.safe_dump([{"hosts": "localhost", "connection": "local", "gather_facts": False, "tasks": [
            {"name": "task", module if "." in module else "nfv.vnflcm." + module: args, "register": "result"},
            {"name": "save", "ansible.builtin.copy": {"content": "{{ result | to_json }}", "dest": str(out)}}]}]))
        done = subprocess.run([str(Path(sys.executable).parent / "ansible-playbook"), str(book)], env=env or self.env, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit("ansible-playbook failed:\n" + done.stdout[-3000:])
        return json.loads(out.read_text())

    def module_instantiate(self, name: str):
        result = self.task("vnf_instantiate", {"package": str(PACKAGE), "vnf_instance_name": name, "request": REQUEST, "cloud": CLOUD,
                                               "wait_sleep": 1})
        return {"changed": result["changed"], "module_api_calls": result["api_calls"]}

    def module_terminate(self, name: str):
        self.task("vnf_terminate", {"vnf_instance_name": name, "cloud": CLOUD, "request": {"terminationType": "FORCEFUL"}})

    def stack_create(self, name: str, stack):
        template, files, nfv = stack
        heat = self.conn.orchestration
        body = {"stack_name": name, "template": template, "files": files, "parameters": {"nfv": json.dumps(nfv)}, "disable_rollback": True}
        created = heat.post("/stacks", json=body).json()["stack"]
        path = "/stacks/{0}/{1}".format(name, created["id"])
        while True:
            status = heat.get(path).json()["stack"]["stack_status"]
            if not status.endswith("IN_PROGRESS"):
                break
            time.sleep(1)
        if status != "CREATE_COMPLETE":
            raise SystemExit("baseline stack {0}: {1}".format(name, status))
        return {"stack_id": created["id"]}

    def stack_delete(self, name: str):
        stack = self.conn.orchestration.find_stack(name)
        self.conn.orchestration.delete_stack(stack)
        self.conn.orchestration.wait_for_delete(stack, wait=600)


def lab_state() -> Path:
    """The running tier-2 lab's state dir; the staged collection importable (ANSIBLE_COLLECTIONS_PATH)."""
    for path in filter(None, os.environ.get("ANSIBLE_COLLECTIONS_PATH", "").split(os.pathsep)):
        sys.path.append(path)
    state = Path(os.environ.get("NFV_OPENSTACK_LAB_DIR") or Path.home() / ".cache" / "nfv-vnflcm" / "openstack-lab" / "state")
    if not (state / "clouds.yaml").exists():
        raise SystemExit("no running OpenStack lab in {0}: `lab.py up --tier 2` first".format(state))
    return state


def ensure_images(conn):
    """The Glance images userdata_standard names (1 KiB of zeros: the lab's Nova is the fake driver)."""
    for name in IMAGES:
        if conn.image.find_image(name) is None:
            conn.image.create_image(name=name, disk_format="raw", container_format="bare", visibility="public", data=io.BytesIO(b"\0" * 1024))


def stats(values):
    return {"median": round(statistics.median(values), 2), "min": round(min(values), 2), "max": round(max(values), 2)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = parser.parse_args(argv)
    state = lab_state()
    with tempfile.TemporaryDirectory() as work:
        bench = Bench(state, Path(work))
        ensure_images(bench.conn)
        stack = same_stack(bench.conn)
        rounds = []
        for number in range(args.rounds):
            tag = uuid.uuid4().hex[:6]
            module_name, baseline_name = "bench-vnf-" + tag, "bench-stack-" + tag
            order = ["module", "baseline"] if number % 2 == 0 else ["baseline", "module"]
            entry = {}
            for who in order:
                if who == "module":
                    entry["module"] = bench.measure(lambda: bench.module_instantiate(module_name))
                    entry["module_rerun"] = bench.measure(lambda: bench.module_instantiate(module_name))
                else:
                    entry["baseline"] = bench.measure(lambda: bench.stack_create(baseline_name, stack))
            bench.module_terminate(module_name)
            bench.stack_delete(baseline_name)
            rounds.append(entry)
            print(json.dumps(entry))
    summary = {key: {"seconds": stats([r[key]["seconds"] for r in rounds]),
                     "heat_reads": stats([r[key]["heat_calls"]["read"] for r in rounds]),
                     "heat_writes": stats([r[key]["heat_calls"]["write"] for r in rounds])}
               for key in ("module", "module_rerun", "baseline")}
    summary["ratio_seconds_module_to_baseline"] = round(summary["module"]["seconds"]["median"] / summary["baseline"]["seconds"]["median"], 2)
    stamp = datetime.datetime.now(datetime.timezone.utc)
    report = {"benchmark": "heat_instantiate", "date": stamp.isoformat(), "rounds": args.rounds, "package": "userdata_standard",
              "request": REQUEST, "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "load": os.getloadavg()},
              "openstacksdk": openstack.version.__version__, "summary": summary, "runs": rounds}
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "heat_instantiate-{0}.json".format(stamp.strftime("%Y-%m-%d"))
    path.write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(summary, indent=1))
    print("written", path)
    ratios.regenerate(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
