# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The vnf_lifecycle role's molecule scenario (extensions/molecule/vnf_lifecycle) on the Kubernetes lab."""

from __future__ import annotations

import os
import re
import subprocess
import sys

STEPS = ("cleanup", "syntax", "prepare", "converge", "idempotence", "verify")


def report(output):
    """The failed tasks with some context, then the end of molecule's output."""
    lines = output.splitlines()
    failed = [i for i, line in enumerate(lines) if "fatal:" in line or "FAILED!" in line]
    return "\n...\n".join(["\n".join(lines[max(0, i - 10):i + 10]) for i in failed[:3]] + [output[-3000:]])


def test_molecule_vnf_lifecycle(k8s_lab, tacker_packages, collections_path, collection_root, venv_tool, tmp_path):
    env = dict(
        os.environ,
        # molecule keys its state by the project folder's name only: two clones called "main" would share
        # it (and its "already prepared" flag), so every run gets its own.
        MOLECULE_EPHEMERAL_DIRECTORY=str(tmp_path / "molecule"),
        KUBECONFIG=str(k8s_lab.kubeconfig),
        K8S_AUTH_KUBECONFIG=str(k8s_lab.kubeconfig),
        ANSIBLE_COLLECTIONS_PATH=collections_path,
        NFV_FIXTURES_DIR=tacker_packages,
        PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""),
        NO_COLOR="1",
        ANSIBLE_NOCOLOR="1",
    )
    done = subprocess.run([venv_tool("molecule"), "test", "-s", "vnf_lifecycle"], cwd=str(collection_root), env=env,
                          capture_output=True, text=True, check=False, timeout=1200)
    output = done.stdout + done.stderr
    assert done.returncode == 0, report(output)
    for step in STEPS:
        # molecule's summary line, e.g. "vnf_lifecycle > verify: Executed: Successful" ("➜" on a terminal)
        assert re.search(r"vnf_lifecycle \S+ {0}: Executed: Successful".format(step), output), report(output)
