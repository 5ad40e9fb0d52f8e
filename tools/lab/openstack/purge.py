#!/usr/bin/env python3
"""Delete what earlier test runs left in the running OpenStack lab: every stack of the projects the tests use (demo and
admin, through the clouds nfvlab and nfvlab-admin), then every server.

`make integration` runs it on a lab it has just started itself (its warm databases keep what a killed run left: stacks
with their server groups and volume types, whose fixed names, e.g. VDU1-multi, then fail the next run's stacks). A
stack whose delete fails on a volume left "reserved" for a server Nova no longer has (a boot from volume cut short when
the stack's create failed: Cinder then refuses the volume's delete for good) is deleted again once those reservations
are released. Last, the rows the services only marked deleted (stacks with their events and templates, servers with
their actions) are purged: the databases outlive the runs, and each run's leftovers made the next one's queries slower.
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


# Cinder's attachments API (its microversion 3.27): a reservation Nova made for a server it no longer has.
ATTACHMENTS = {"OpenStack-API-Version": "volume 3.27"}


def release_reserved_volumes(conn):
    """Delete the attachments of volumes held for servers Nova no longer has; how many were deleted."""
    servers = {server.id for server in conn.compute.servers(all_projects=True)}
    released = 0
    for volume in conn.block_storage.volumes(all_projects=True):
        if volume.status not in ("reserved", "attaching", "detaching"):
            continue
        listed = conn.block_storage.get(f"/attachments?all_tenants=1&volume_id={volume.id}", headers=ATTACHMENTS)
        for attachment in listed.json().get("attachments", []):
            if attachment.get("instance") not in servers:
                conn.block_storage.delete(f"/attachments/{attachment['id']}", headers=ATTACHMENTS)
                released += 1
    return released


# The services' own purges of rows marked deleted (heat: stacks deleted, with their events, resources and templates;
# nova: instances deleted, with their actions, faults and info caches): (command, its configuration, arguments, the
# exit codes that mean success; nova-manage archive_deleted_rows exits 1 when it archived rows, 0 when there were none).
PURGES = (("heat-manage", "heat/heat.conf", ("purge_deleted", "-g", "days", "0"), (0,)),
          ("nova-manage", "nova/nova.conf", ("db", "archive_deleted_rows", "--purge", "--all-cells", "--until-complete"), (0, 1)))


def purge_deleted_rows():
    """Run the services' purges; the errors of those that failed."""
    services, failed = lab.Lab(2), []
    for command, conf, args, ok in PURGES:
        try:
            services.manage(command, "--config-file", services.etc / conf, *args, ok=ok)
        except lab.LabError as error:
            failed.append(str(error)[-300:])
    return failed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=600)
    timeout = parser.parse_args(argv).timeout
    projects = [connection("nfvlab"), connection("nfvlab-admin")]
    conn = projects[1]

    def stacks():
        """The top-level stacks of both projects, by id (an admin may be shown another project's too)."""
        return {stack.id: (each, stack) for each in projects for stack in each.orchestration.stacks()}.values()

    def delete_stacks(listed):
        """Delete the stacks listed; the names of those whose delete failed."""
        for each, stack in listed:
            each.orchestration.delete_stack(stack, ignore_missing=True)
        wait_until("stacks", lambda: {stack.name for _, stack in stacks() if stack.status != "DELETE_FAILED"}, timeout)
        return [stack.name for _, stack in stacks()]

    found = list(stacks())
    failed = delete_stacks(found)
    if failed and release_reserved_volumes(conn):
        failed = delete_stacks(stacks())
    servers = list(conn.compute.servers(all_projects=True))
    for server in servers:
        conn.compute.delete_server(server, ignore_missing=True, force=True)
    wait_until("servers", lambda: {server.id for server in conn.compute.servers(all_projects=True)}, timeout)
    unpurged = purge_deleted_rows()
    print(f"purge: {len(found)} stacks and {len(servers)} servers left by earlier runs deleted"
          + (f"; stacks whose delete failed: {failed}" if failed else "")
          + (f"; rows marked deleted not purged: {unpurged}" if unpurged else "; rows marked deleted purged"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
