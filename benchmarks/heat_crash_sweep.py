#!/usr/bin/env python3
"""The full crash sweep on Heat: for instantiate, scale, heal, change of package (2 VNFCs) and change_ext_conn, each k
in 1..N-1 and each recovery (retry; rollback where the operation has one), the module SIGKILLed right after its k-th
write to Heat's API (a counting proxy: stack creates, updates, deletes, marks and the record's signals), the documented
recovery, and the invariants (tests/integration/openstack/heat_crash_sweep.py). Prints a Markdown table: operation x k
x branch -> pass/fail, seconds; then each failure, with what the kill left and the problems found.

Not part of `make test` (about a minute a case). tests/integration/openstack/test_vnf_heat_crash_sweep.py runs a sample.

Run: make stage, then with ANSIBLE_COLLECTIONS_PATH set to the staged collections dir (see README.md) and a tier-2 lab up
  NFV_OPENSTACK_LAB_DIR=<its state dir> $(make -s venv-path)/bin/python benchmarks/heat_crash_sweep.py [--operations scale heal] [--ks 1 3] [--branches retry]
"""
from __future__ import annotations

import io
import os
import sys
import tempfile
from pathlib import Path

import openstack
from openstack import config as os_config

sys.path.insert(0, str(Path(__file__).resolve().parent))

from crash_sweep_run import print_table, sweep_arguments, sweep_cases, task_runner  # noqa: E402
from heat_instantiate import CLOUD, FIXTURES, lab_state  # noqa: E402

# Images of both packages (the lab's Nova is the fake driver: 1 KiB of zeros will do).
IMAGES = ("cirros-0.5.2-x86_64-disk", "VDU2-VirtualStorage-image", "VDU1-image", "VDU1-VirtualStorage-image")


def main():
    state = lab_state()
    from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_crash_sweep import OPERATIONS, ROLLBACK, HeatSweep
    from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import NEW, OLD, repackaged

    args = sweep_arguments(__doc__.split("\n")[0], OPERATIONS)
    os.environ["OS_CLIENT_CONFIG_FILE"] = str(state / "clouds.yaml")
    conn = openstack.connection.Connection(config=os_config.OpenStackConfig(config_files=[str(state / "clouds.yaml")]).get_one(CLOUD))
    for name in IMAGES:
        if conn.image.find_image(name) is None:
            conn.image.create_image(name=name, disk_format="raw", container_format="bare", visibility="public", data=io.BytesIO(b"\0" * 1024))
    created = []
    with tempfile.TemporaryDirectory(prefix="heat-crash-sweep-") as work:
        work = Path(work)
        (work / "runs").mkdir()
        packages = work / "packages"
        packages.mkdir()
        os.symlink(FIXTURES / OLD, packages / OLD)
        repackaged(str(FIXTURES / NEW), packages / NEW)
        sweep = HeatSweep(conn, task_runner(work / "runs"), str(packages), str(state / "clouds.yaml"), created)
        # Instances a passed rollback (or heal) left as they were are used again: one instantiate fewer a case.
        sweep.share = True
        try:
            cases = sweep_cases(sweep, args.operations, args.ks, args.branches, ROLLBACK)
        finally:
            stacks = [stack for stack in conn.orchestration.stacks() if stack.name in created]
            for stack in stacks:
                conn.orchestration.delete_stack(stack)
            for stack in stacks:
                conn.orchestration.wait_for_delete(stack, wait=600)
    return print_table(cases, args.json)


if __name__ == "__main__":
    sys.exit(main())
