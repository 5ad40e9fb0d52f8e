"""What the crash sweeps of both VIMs share (cnf_crash_sweep.py, heat_crash_sweep.py): the module runner, the loop over
operation x k x branch, and the table they print. Needs the staged collection importable (ANSIBLE_COLLECTIONS_PATH)."""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import yaml

for _path in os.environ.get("ANSIBLE_COLLECTIONS_PATH", "").split(os.pathsep):
    if _path and _path not in sys.path:
        sys.path.append(_path)

from ansible_collections.nfv.vnflcm.tests.integration.conftest import CALLBACK_PLUGINS, TASK_NAME, RunningTask  # noqa: E402


def sweep_arguments(description, operations):
    """The command line both sweeps take: ``--operations``, ``--ks``, ``--branches``, ``--json``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--operations", nargs="*", default=list(operations), choices=operations)
    parser.add_argument("--ks", nargs="*", type=int, help="only these k (default: 1..N-1)")
    parser.add_argument("--branches", nargs="*", default=["retry", "rollback"], choices=["retry", "rollback"])
    parser.add_argument("--json", help="also write the cases to this file")
    return parser.parse_args()


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


def sweep_cases(sweep, operations, ks, branches, rollback):
    """Every case of ``operations`` (k in ``ks``, else 1..N-1; each branch, rollback only where the operation is in
    ``rollback``), progress on stderr: the cases."""
    cases = []
    for operation in operations:
        writes = sweep.count(operation)["writes"]
        listed = ", ".join("{0}. {1}".format(index, " ".join(str(part) for part in write)) for index, write in enumerate(writes, 1))
        print("{0}: N = {1}: {2}".format(operation, len(writes), listed), file=sys.stderr)
        for k in ks or range(1, len(writes)):
            for branch in branches:
                if branch == "rollback" and operation not in rollback:
                    continue
                started = time.monotonic()
                case = sweep.case(operation, k, branch)
                case.seconds = time.monotonic() - started
                verdict = "skip" if case.skipped else "pass" if case.passed else "FAIL"
                print("{0} k={1} {2}: {3} {4:.1f} s".format(operation, k, branch, verdict, case.seconds), file=sys.stderr)
                if not case.passed:
                    print("  held {0}; the kill left {1}; {2}".format(case.held, case.left, "; ".join(case.problems)), file=sys.stderr)
                cases.append(case)
    return cases


def print_table(cases, json_path=None):
    """The Markdown table operation x k x branch -> pass/fail, seconds; then each failure. 1 when one failed, else 0."""
    print("| operation | k | branch | result | seconds |\n|---|---|---|---|---|")
    for case in cases:
        verdict = "skipped (k >= N)" if case.skipped else "pass" if case.passed else "**fail**"
        print("| {0} | {1} | {2} | {3} | {4:.1f} |".format(case.operation, case.k, case.branch, verdict, case.seconds))
    for case in cases:
        if not case.passed:
            found = "; ".join(case.problems)
            print("\n- {0} k={1} {2}: held {3}; the kill left {4}; {5}".format(case.operation, case.k, case.branch, case.held, case.left, found))
    print("\n{0} cases, {1:.0f} s".format(len(cases), sum(case.seconds for case in cases)))
    if json_path:
        Path(json_path).write_text(json.dumps([case.__dict__ for case in cases], indent=1, default=str))
    return 1 if any(not case.passed for case in cases) else 0
