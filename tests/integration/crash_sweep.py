# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What both VIMs' crash sweeps share (k8s/crash_sweep.py, openstack/heat_crash_sweep.py): one case's outcome, the
module process to kill under ansible-playbook, the kill itself once a write gate holds the write after the k-th.

A gate has ``held`` (an Event, set when it holds a write), ``denied`` (the writes held) and ``release()`` (deny them):
k8s/write_gate.py's admission webhook, openstack/heat_write_gate.py's HTTP proxy.
"""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass, field


@dataclass
class Case:
    """One operation x k x branch: ``passed``, or what failed (``problems``) and what the kill left (``left``)."""
    operation: str
    k: int
    branch: str
    passed: bool = False
    skipped: bool = False
    seconds: float = 0.0
    problems: list = field(default_factory=list)
    left: str = ""
    held: tuple = ()


def kill_when_held(task, gate, module):
    """SIGKILL the ``module`` run by ``task`` (the ansible_task fixture's background task) once ``gate`` holds a write,
    then deny what it holds: True; False when the task ended first (the operation has no (k+1)-th write)."""
    while not gate.held.wait(0.1):
        if task.process.poll() is not None:
            break
    if not gate.held.is_set():
        task.wait()
        return False
    pid = module_process(task.process.pid, module)
    assert pid, "no {0} module process".format(module)
    os.kill(pid, signal.SIGKILL)
    task.wait()
    gate.release()
    return True


def differences(actual, expected):
    return ["{0}: {1!r}, expected {2!r}".format(key, actual.get(key), expected.get(key))
            for key in sorted(set(actual) | set(expected)) if actual.get(key) != expected.get(key)]


def module_process(root_pid, module):
    """The pid of the Python process running ``module`` (AnsiballZ_<module>.py) under ``root_pid`` (ansible-playbook), or None.

    The shells that start it name the file too, and so does the short-lived one that makes it executable (``chmod u+x``)
    before: the process wanted is a Python interpreter's, the one furthest down the tree."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/{0}/cmdline".format(entry), "rb") as handle:
                argv = handle.read().split(b"\0")
        except OSError:
            continue
        if not (os.path.basename(argv[0]).startswith(b"python") and any(arg.endswith("AnsiballZ_{0}.py".format(module).encode()) for arg in argv[1:])):
            continue
        chain = ancestors(int(entry))
        if root_pid in chain:
            found.append((len(chain), int(entry)))
    return max(found)[1] if found else None


def ancestors(pid):
    chain = []
    while pid > 1:
        try:
            with open("/proc/{0}/stat".format(pid)) as handle:
                pid = int(handle.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            break
        chain.append(pid)
    return chain
