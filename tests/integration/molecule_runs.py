# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Running a molecule scenario of extensions/molecule on a lab: ``molecule test -s <scenario>`` from the collection root."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

# The collection root: the checkout, or a staged copy that holds these tests.
COLLECTION_ROOT = Path(__file__).resolve().parents[2]
STEPS = ("cleanup", "syntax", "prepare", "converge", "idempotence", "verify")


def report(output):
    """The failed tasks with some context, then the end of molecule's output."""
    lines = output.splitlines()
    failed = [i for i, line in enumerate(lines) if "fatal:" in line or "FAILED!" in line]
    return "\n...\n".join(["\n".join(lines[max(0, i - 10):i + 10]) for i in failed[:3]] + [output[-3000:]])


def molecule_test(scenario, work_dir, env, timeout=1800):
    """Runs the whole test sequence of ``scenario`` with ``env`` added to this process's environment; asserts that
    every step succeeded and returns molecule's output."""
    if not os.environ.get("ANSIBLE_COLLECTIONS_PATH"):
        pytest.fail("ANSIBLE_COLLECTIONS_PATH is not set: run the integration tests with `make integration`")
    local = os.path.join(os.path.dirname(sys.executable), "molecule")
    env = dict(
        os.environ,
        # molecule keys its state by the project folder's name only: two clones called "main" would share
        # it (and its "already prepared" flag), so every run gets its own.
        MOLECULE_EPHEMERAL_DIRECTORY=str(Path(work_dir) / "molecule"),
        PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""),
        NO_COLOR="1",
        ANSIBLE_NOCOLOR="1",
        **env,
    )
    done = subprocess.run([local if os.path.exists(local) else "molecule", "test", "-s", scenario], cwd=str(COLLECTION_ROOT), env=env,
                          capture_output=True, text=True, check=False, timeout=timeout)
    output = done.stdout + done.stderr
    assert done.returncode == 0, report(output)
    for step in STEPS:
        # molecule's summary line, e.g. "vnf_lifecycle > verify: Executed: Successful" ("➜" on a terminal)
        assert re.search(r"{0} \S+ {1}: Executed: Successful".format(re.escape(scenario), step), output), report(output)
    return output
