#!/usr/bin/env python3
"""What recoverable operations cost: the 200-object instantiate of cnf_instantiate.py, this tree against a
baseline revision (by default the main before the lease and the server-side dry run), side by side.

Three variants run alternately on the same local Kubernetes lab, each round into fresh namespaces:
``baseline`` (the baseline revision's collection), ``current`` (this tree, default lease of 120 s, which
an instantiate of this size never needs to renew), and ``current, lease 6 s`` (renewed every 2 s, to show
what a renewal costs). Per run: wall time, writes from the apiserver's audit log (admin user; a dry run
stores nothing and is counted apart), the writes of the record Secret among them, and the module's reads.

Run: make stage, then with ANSIBLE_COLLECTIONS_PATH set to the staged collections dir (see README.md)
  $(make -s venv-path)/bin/python benchmarks/cnf_lease_cost.py [--rounds 3] [--objects 200] [--baseline dc5abfe]
A lab that is up in $NFV_LAB_STATE_DIR (or the default state dir) is used, else a private one is started
and stopped. Results go to benchmarks/results/cnf_lease_cost-<date>.json.
"""
from __future__ import annotations

import argparse
import datetime
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cnf_instantiate import ROOT, Bench, generate_package, lab_binaries, lab_up, machine, run_rounds, write_report  # noqa: E402
from labk8s.audit import is_dry_run  # noqa: E402
from labk8s.cluster import ADMIN_USER  # noqa: E402


def stage_revision(revision: str, dest: Path) -> Path:
    """The collection at ``revision`` as an ansible_collections tree; returns the collections dir."""
    target = dest / "ansible_collections" / "nfv" / "vnflcm"
    target.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return dest


class Variant:
    def __init__(self, bench: Bench, name: str, collections: str, options: dict):
        self.bench, self.name, self.options = bench, name, options
        self.env = dict(bench.env, ANSIBLE_COLLECTIONS_PATH=collections)

    def run(self, namespace: str) -> dict:
        bench = self.bench
        args = {"package": bench.package["path"], "vnf_instance_name": "bench-cnf", "kubeconfig": str(bench.lab.kubeconfig),
                "wait": True, "wait_timeout": 600, "wait_sleep": bench.wait_sleep,
                "request": {"flavourId": "simple", "additionalParams": {
                    "namespace": namespace, "lcm-kubernetes-def-files": bench.package["def_files"]}}}
        args.update(self.options)
        saved, bench.env = bench.env, self.env
        start = bench.audit.mark()
        began = time.monotonic()
        try:
            result = bench.playbook({"nfv.vnflcm.vnf_instantiate": args})
        finally:
            bench.env = saved
        wall = time.monotonic() - began
        events = bench.audit.writes(start, user=ADMIN_USER, dry_runs=True)
        writes = [ev for ev in events if not is_dry_run(ev)]
        record = [ev for ev in writes if ev.get("objectRef", {}).get("resource") == "secrets"
                  and ev.get("objectRef", {}).get("name", "").startswith("vnflcm-")]
        return {"wall_s": round(wall, 3), "writes": len(writes), "record_writes": len(record), "dry_runs": len(events) - len(writes),
                "reads": result["api_calls"]["read"], "changed": result["changed"]}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--objects", type=int, default=200)
    p.add_argument("--wait-sleep", type=int, default=1)
    p.add_argument("--baseline", default="dc5abfe", help="git revision to compare with (default: main before the lease)")
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = p.parse_args(argv)
    bin_dir = lab_binaries()
    current = os.environ["ANSIBLE_COLLECTIONS_PATH"]
    with tempfile.TemporaryDirectory(prefix="lease-bench-") as tmp:
        work = Path(tmp)
        package = generate_package(work / "package", args.objects)
        baseline = stage_revision(args.baseline, work / "baseline")
        with lab_up(work, bin_dir) as (lab, _):
            bench = Bench(lab, bin_dir / "kubectl", package, work, args.wait_sleep)
            # namespace suffix -> variant (its name, with blanks, keys the results)
            variants = {"baseline": Variant(bench, "baseline", str(baseline), {}), "current": Variant(bench, "current", current, {}),
                        "lease-6s": Variant(bench, "current, lease 6 s", current, {"lease_seconds": 6})}
            stamp = datetime.datetime.now(datetime.timezone.utc)

            def run(number, key, namespace, entry):
                variant = variants[key]
                entry[variant.name] = variant.run(namespace)
                print("round {0} {1:20} {2}".format(number + 1, variant.name, entry[variant.name]), file=sys.stderr)

            rounds = run_rounds(bench, args.rounds, "lease-" + stamp.strftime("%H%M%S"), variants, run, record_order=False)
    summary = {}
    for variant in variants.values():
        runs = [entry[variant.name] for entry in rounds]
        summary[variant.name] = {metric: statistics.median(run[metric] for run in runs)
                                 for metric in ("wall_s", "writes", "record_writes", "dry_runs", "reads")}
        summary[variant.name]["wall_ratio_to_baseline"] = round(statistics.median(
            entry[variant.name]["wall_s"] / entry["baseline"]["wall_s"] for entry in rounds), 3)
    print("\n{0:20} {1:>8} {2:>7} {3:>14} {4:>9} {5:>6} {6:>16}".format(
        "variant", "wall_s", "writes", "record writes", "dry runs", "reads", "wall / baseline"))
    for name, values in summary.items():
        print("{0:20} {1:>8.2f} {2:>7.0f} {3:>14.0f} {4:>9.0f} {5:>6.0f} {6:>16.2f}".format(
            name, values["wall_s"], values["writes"], values["record_writes"], values["dry_runs"], values["reads"],
            values["wall_ratio_to_baseline"]))
    write_report(args.out, "cnf_lease_cost", stamp, baseline=args.baseline, machine=machine(),
                 package={k: v for k, v in package.items() if k in ("objects", "workloads")},
                 settings={"rounds": args.rounds, "module_wait_sleep": args.wait_sleep}, summary=summary, rounds=rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
