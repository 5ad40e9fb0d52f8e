#!/usr/bin/env python3
"""The full crash sweep on Kubernetes: for each operation, each k in 1..N-1 and each recovery (retry; rollback where
the operation has one), the module SIGKILLed right after its k-th write to the API, the documented recovery, and
the invariants (tests/integration/k8s/crash_sweep.py). Prints a Markdown table: operation x k x branch -> pass/fail,
seconds; then each failure, with what the kill left (record and live objects) and the problems found.

Not part of `make test` (about 15 s a case). tests/integration/k8s/test_cnf_crash_sweep.py runs a sample.

Run: make stage, then with ANSIBLE_COLLECTIONS_PATH set to the staged collections dir (see README.md)
  $(make -s venv-path)/bin/python benchmarks/cnf_crash_sweep.py [--operations scale heal] [--ks 1 3] [--branches retry]
Always starts a private lab of its own (in a temporary directory) and stops it at the end.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cnf_instantiate import lab_binaries, private_lab  # noqa: E402
from labk8s.cluster import Lab  # noqa: E402
from labk8s.kubeapi import Api  # noqa: E402

for _path in os.environ.get("ANSIBLE_COLLECTIONS_PATH", "").split(os.pathsep):
    if _path and _path not in sys.path:
        sys.path.append(_path)

from ansible_collections.nfv.vnflcm.tests.integration.conftest import CALLBACK_PLUGINS, TASK_NAME, RunningTask  # noqa: E402
from ansible_collections.nfv.vnflcm.tests.integration.k8s.crash_sweep import OPERATIONS, ROLLBACK, Sweep, new_namespace_maker, packages  # noqa: E402


def task_runner(folder: Path):
    """``run(module, args, background=False)``: the ansible_task fixture's contract, one playbook per task."""
    counter = [0]

    def run(module, args, background=False):
        counter[0] += 1
        out, playbook = folder / "result-{0}.json".format(counter[0]), folder / "task-{0}.yml".format(counter[0])
        task = {"name": TASK_NAME, "nfv.vnflcm." + module: args, "register": "result", "ignore_errors": True}
        playbook.write_text(yaml.safe_dump([{"hosts": "localhost", "connection": "local", "gather_facts": False, "tasks": [task]}]))
        env = dict(os.environ, ANSIBLE_LOCALHOST_WARNING="false", ANSIBLE_INVENTORY_UNPARSED_WARNING="false",
                   ANSIBLE_PYTHON_INTERPRETER=sys.executable, ANSIBLE_CALLBACK_PLUGINS=CALLBACK_PLUGINS,
                   ANSIBLE_CALLBACKS_ENABLED="task_result", NFV_TASK_RESULT=str(out))
        process = subprocess.Popen([str(Path(sys.executable).parent / "ansible-playbook"), str(playbook)],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        running = RunningTask(process, out)
        return running if background else running.wait(timeout=900)

    return run


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--operations", nargs="*", default=list(OPERATIONS), choices=OPERATIONS)
    parser.add_argument("--ks", nargs="*", type=int, help="only these k (default: 1..N-1)")
    parser.add_argument("--branches", nargs="*", default=["retry", "rollback"], choices=["retry", "rollback"])
    parser.add_argument("--json", help="also write the cases to this file")
    args = parser.parse_args()
    bin_dir = lab_binaries(kubectl=False)
    fixtures = os.environ.get("NFV_FIXTURES_DIR") or str(Path(__file__).resolve().parents[1].parent / "shared" / "fixtures" / "tacker")
    cases = []
    with tempfile.TemporaryDirectory(prefix="crash-sweep-") as work:
        work = Path(work)
        with private_lab(Lab(work / "lab"), bin_dir) as lab:
            kube = Api(lab.kubeconfig)
            make, _made = new_namespace_maker(kube, "sweep")
            (work / "runs").mkdir()
            sweep = Sweep(kube, task_runner(work / "runs"), str(lab.kubeconfig),
                          packages(os.path.join(fixtures, "test_cnf_multi_ns"), work / "packages"), work, make)
            for operation in args.operations:
                writes = sweep.count(operation)["writes"]
                listed = ", ".join("{0}. {1} {2}/{3}".format(index, *write) for index, write in enumerate(writes, 1))
                print("{0}: N = {1}: {2}".format(operation, len(writes), listed), file=sys.stderr)
                for k in args.ks or range(1, len(writes)):
                    for branch in args.branches:
                        if branch == "rollback" and operation not in ROLLBACK:
                            continue
                        started = time.monotonic()
                        case = sweep.case(operation, k, branch)
                        case.seconds = time.monotonic() - started
                        verdict = "skip" if case.skipped else "pass" if case.passed else "FAIL"
                        print("{0} k={1} {2}: {3} {4:.1f} s".format(operation, k, branch, verdict, case.seconds), file=sys.stderr)
                        if not case.passed:
                            print("  held {0}; the kill left {1}; {2}".format(case.held, case.left, "; ".join(case.problems)), file=sys.stderr)
                        cases.append(case)
    print("| operation | k | branch | result | seconds |\n|---|---|---|---|---|")
    for case in cases:
        verdict = "skipped (k >= N)" if case.skipped else "pass" if case.passed else "**fail**"
        print("| {0} | {1} | {2} | {3} | {4:.1f} |".format(case.operation, case.k, case.branch, verdict, case.seconds))
    for case in cases:
        if not case.passed:
            found = "; ".join(case.problems)
            print("\n- {0} k={1} {2}: held {3}; the kill left {4}; {5}".format(case.operation, case.k, case.branch, case.held, case.left, found))
    if args.json:
        Path(args.json).write_text(json.dumps([case.__dict__ for case in cases], indent=1, default=str))
    return 1 if any(not case.passed for case in cases) else 0


if __name__ == "__main__":
    sys.exit(main())
