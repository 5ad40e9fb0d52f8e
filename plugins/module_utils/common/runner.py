# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Which process runs an operation, and whether it still runs: what an op occ's lease (lcm/lease.py) and a name's
claim (common/name_claim.py) record of their runner, so that a later run can tell a dead runner from a live one."""

from __future__ import annotations

import os
import socket
import uuid


def _read(path):
    try:
        with open(path) as handle:
            return handle.read().strip()
    except OSError:
        return None


def process_start(pid):
    """The start time of process ``pid`` (clock ticks since boot), or None when there is no such process."""
    stat = _read("/proc/{0}/stat".format(pid))
    if not stat:
        return None
    # The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    return stat.rsplit(")", 1)[-1].split()[19]


def _pid_namespace(pid="self"):
    try:
        return os.readlink("/proc/{0}/ns/pid".format(pid))
    except OSError:
        return None


def this_runner():
    """The identity of this process as a lease records it."""
    return {"runId": str(uuid.uuid4()), "host": socket.gethostname(), "pid": os.getpid(),
            "bootId": _read("/proc/sys/kernel/random/boot_id"), "pidNamespace": _pid_namespace(),
            "processStart": process_start(os.getpid())}


def runner_is_gone(lease):
    """True when the lease's runner was a process of this machine (same boot, same pid namespace) that no longer runs.

    None when that cannot be told from here (another machine or container): then only the expiry counts.
    """
    here = this_runner()
    if not lease or any(lease.get(key) != here[key] for key in ("host", "bootId", "pidNamespace")) or not here["bootId"]:
        return None
    started = process_start(lease.get("pid"))
    return started is None or started != lease.get("processStart")
