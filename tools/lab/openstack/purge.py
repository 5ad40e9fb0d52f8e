#!/usr/bin/env python3
"""Delete what earlier test runs left in the running OpenStack lab: every stack of the projects the tests use (demo and
admin, through the clouds nfvlab and nfvlab-admin), then every server.

`make integration` runs it on a lab it has just started itself (its warm databases keep what a killed run left: stacks
with their server groups and volume types, whose fixed names, e.g. VDU1-multi, then fail the next run's stacks).
Needs openstacksdk (the collection venv) and the lab's clouds.yaml:

    python3 tools/lab/openstack/purge.py [--timeout 600]
"""

import argparse
import os
import sys
import time

import openstack
from openstack import config as os_config

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import lab  # noqa: E402


def connection(cloud):
    config = os_config.OpenStackConfig(config_files=[str(lab.state_dir() / "clouds.yaml")])
    return openstack.connection.Connection(config=config.get_one(cloud))


def wait_until(what, left, timeout):
    deadline = time.monotonic() + timeout
    while True:
        remaining = left()
        if not remaining:
            return
        if time.monotonic() > deadline:
            raise SystemExit(f"purge: {len(remaining)} {what} still there after {timeout} s: {sorted(remaining)[:10]}")
        time.sleep(2)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=600)
    timeout = parser.parse_args(argv).timeout
    projects = [connection("nfvlab"), connection("nfvlab-admin")]
    conn = projects[1]

    def stacks():
        """The top-level stacks of both projects, by id (an admin may be shown another project's too)."""
        return {stack.id: (each, stack) for each in projects for stack in each.orchestration.stacks()}.values()

    found = stacks()
    for each, stack in found:
        each.orchestration.delete_stack(stack, ignore_missing=True)
    wait_until("stacks", lambda: {stack.name for _, stack in stacks() if stack.status != "DELETE_FAILED"}, timeout)
    failed = [stack.name for _, stack in stacks()]
    servers = list(conn.compute.servers(all_projects=True))
    for server in servers:
        conn.compute.delete_server(server, ignore_missing=True, force=True)
    wait_until("servers", lambda: {server.id for server in conn.compute.servers(all_projects=True)}, timeout)
    print(f"purge: {len(found)} stacks and {len(servers)} servers left by earlier runs deleted"
          + (f"; stacks whose delete failed: {failed}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
