# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Coordination hooks: an Ansible task file run after each VNFC of a rolling update.

This is what Tacker's ``lcm-operation-coordinate-new-vnf`` / ``-old-vnf`` scripts are, as Ansible: the
task file (a path in the new package, or an absolute one) runs in a play on localhost, with the
variable ``vnflcm_coordination`` describing the VNFC (see :func:`hook_variables`). A module cannot
include tasks in the play that called it, so the hook runs in its own ``ansible-playbook``, the one
next to the Python that runs the module; it fails the operation when the play fails.

The task file's text is kept in the op occ's record, so a rollback or retry runs the same hook
without the package.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import OperationTimeout, ValidationError, VnfLcmError

NEW_VNF = "lcm-operation-coordinate-new-vnf"
OLD_VNF = "lcm-operation-coordinate-old-vnf"
TASK_FILE_SUFFIXES = (".yml", ".yaml")
# The end of the hook's output that goes into the error (enough for Ansible's failure message).
OUTPUT_TAIL = 2000


class HookFailed(VnfLcmError):
    """The task file failed for one VNFC: the reason is the end of ansible-playbook's output."""

    def __init__(self, hook, vnfc, output):
        super().__init__("run", "coordination hook {0} for VNFC {1}".format(hook, vnfc), output[-OUTPUT_TAIL:].strip())


def load_hooks(params, package, what):
    """``{param name: {"name", "tasks"}}`` of the hooks additionalParams names, each task file read now.

    A relative path is a file of the package (``package``: a VnfPackage); errors name the additionalParams key.
    """
    hooks = {}
    for key in (NEW_VNF, OLD_VNF):
        path = (params or {}).get(key)
        if path is None:
            continue
        field = "additionalParams.{0}".format(key)
        if not isinstance(path, str) or not path.endswith(TASK_FILE_SUFFIXES):
            raise ValidationError(what, field, "must name an Ansible task file (.yml or .yaml), got {0!r}".format(path))
        try:
            if os.path.isabs(path):
                with open(path, "rb") as handle:
                    content = handle.read()
            else:
                content = package.read_file(path)
        except OSError as error:
            raise ValidationError(what, field, "cannot read the task file: {0}: {1}".format(path, error.strerror))
        except VnfLcmError as error:
            raise ValidationError(what, field, "cannot read the task file: {0}".format(error.reason))
        hooks[key] = {"name": path, "tasks": content.decode("utf-8", "replace")}
    return hooks


def hook_variables(operation, instance_id, vnfc, vdu_param, rollback):
    """What the task file gets as ``vnflcm_coordination``.

    ``vnfc``: ``{"resource", "vdu_id", "server_id", "addresses"}``; ``vdu_param``: the request's
    vdu_params entry of the VNFC's VDU (``old_vnfc_param`` / ``new_vnfc_param``).
    """
    return {
        "operation": operation,
        "vnf_instance_id": instance_id,
        "rollback": rollback,
        "vnfc": vnfc,
        "old_vnfc_param": (vdu_param or {}).get("old_vnfc_param") or {},
        "new_vnfc_param": (vdu_param or {}).get("new_vnfc_param") or {},
    }


def playbook_command():
    """ansible-playbook of the Python running this module, else the one on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), "ansible-playbook")
    found = beside if os.access(beside, os.X_OK) else shutil.which("ansible-playbook")
    if not found:
        raise VnfLcmError("run", "coordination hooks", "ansible-playbook is neither next to {0} nor on PATH".format(sys.executable))
    return found


def run_hook(hook, variables, timeout, runner=subprocess.run):
    """Run the hook's task file for one VNFC; HookFailed with the end of its output when it fails."""
    with tempfile.TemporaryDirectory(prefix="vnflcm-hook-") as work:
        tasks = os.path.join(work, "hook.yml")
        with open(tasks, "w", encoding="utf-8") as handle:
            handle.write(hook["tasks"])
        play = [{"name": "coordination hook " + hook["name"], "hosts": "localhost", "connection": "local", "gather_facts": False,
                 "tasks": [{"ansible.builtin.include_tasks": tasks}]}]
        playbook = os.path.join(work, "play.yml")
        with open(playbook, "w", encoding="utf-8") as handle:
            json.dump(play, handle)
        # Extra vars in a file only the owner reads: vnfc params may carry passwords.
        extra = os.path.join(work, "vars.json")
        with open(os.open(extra, os.O_WRONLY | os.O_CREAT, 0o600), "w", encoding="utf-8") as handle:
            json.dump({"vnflcm_coordination": variables, "ansible_python_interpreter": sys.executable}, handle)
        command = [playbook_command(), "-i", "localhost,", playbook, "-e", "@" + extra]
        try:
            done = runner(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=max(1, timeout), check=False)
        except subprocess.TimeoutExpired:
            raise OperationTimeout("coordination hook {0} for VNFC {1}".format(hook["name"], variables["vnfc"]["resource"]), timeout)
    if done.returncode != 0:
        output = done.stdout.decode("utf-8", "replace") if isinstance(done.stdout, bytes) else str(done.stdout or "")
        raise HookFailed(hook["name"], variables["vnfc"]["resource"], output)
