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

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cnf_instantiate import lab_binaries, private_lab  # noqa: E402
from labk8s.cluster import Lab  # noqa: E402
from labk8s.kubeapi import Api  # noqa: E402

from crash_sweep_run import print_table, sweep_arguments, sweep_cases, task_runner  # noqa: E402
from ansible_collections.nfv.vnflcm.tests.integration.k8s.crash_sweep import OPERATIONS, ROLLBACK, Sweep, new_namespace_maker, packages  # noqa: E402


def main():
    args = sweep_arguments(__doc__.split("\n")[0], OPERATIONS)
    bin_dir = lab_binaries(kubectl=False)
    fixtures = os.environ.get("NFV_FIXTURES_DIR") or str(Path(__file__).resolve().parents[1].parent / "shared" / "fixtures" / "tacker")
    with tempfile.TemporaryDirectory(prefix="crash-sweep-") as work:
        work = Path(work)
        with private_lab(Lab(work / "lab"), bin_dir) as lab:
            kube = Api(lab.kubeconfig)
            make, _made = new_namespace_maker(kube, "sweep")
            (work / "runs").mkdir()
            sweep = Sweep(kube, task_runner(work / "runs"), str(lab.kubeconfig),
                          packages(os.path.join(fixtures, "test_cnf_multi_ns"), work / "packages"), work, make)
            cases = sweep_cases(sweep, args.operations, args.ks, args.branches, ROLLBACK)
    return print_table(cases, args.json)


if __name__ == "__main__":
    sys.exit(main())
