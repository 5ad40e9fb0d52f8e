# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Coordination hooks: what runs after each VNFC of a rolling update.

``additionalParams.lcm-operation-coordinate-new-vnf`` / ``-old-vnf`` name them (a path in a package, or an absolute
one). As in Tacker v2, the new-VNF hook is a file of the new package and the old-VNF hook (it runs on rollback, for the
VNFCs going back to the old package) a file of the instance's current package; when that package is not given, the
old-VNF hook is read from the new package if it has it (Tacker's packages carry both). Two kinds:

- An Ansible task file (``.yml``/``.yaml``), the native hook: it runs in a play on localhost, with the variable
  ``vnflcm_coordination`` describing the VNFC (see :func:`hook_variables`). A module cannot include tasks in
  the play that called it, so the hook runs in its own ``ansible-playbook``, the one next to the Python that
  runs the module; it fails the operation when the play fails.
- A Python script (``.py``), as Tacker v2 runs them: only when the user opts in (:data:`ALLOW_SCRIPTS`), as
  it is the package's code running on the controller. It runs as ``<python> <script>`` (the Python that runs
  the module), is given on stdin what Tacker gives it (:func:`script_input`, pickled, read with
  ``pickle.load(sys.stdin.buffer)``), and fails the operation when it exits non-zero (or outlives the timeout).

The hook's text is kept in the op occ's record (a script with the opt-in it ran under), so a rollback or
retry runs the same hook without the package.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
import tempfile

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import OperationTimeout, ValidationError, VnfLcmError

NEW_VNF = "lcm-operation-coordinate-new-vnf"
OLD_VNF = "lcm-operation-coordinate-old-vnf"
TASK_FILE_SUFFIXES = (".yml", ".yaml")
SCRIPT_SUFFIX = ".py"
# The module option without which a Python coordination script is refused (before any write).
ALLOW_SCRIPTS = "allow_package_scripts"
# The end of the hook's output that goes into the error (enough for Ansible's failure message).
OUTPUT_TAIL = 2000


class HookFailed(VnfLcmError):
    """The hook failed for one VNFC: the reason is the end of its output."""

    def __init__(self, hook, vnfc, output):
        super().__init__("run", "coordination hook {0} for VNFC {1}".format(hook, vnfc), output[-OUTPUT_TAIL:].strip())


def load_hooks(params, package, what, allow_scripts=False, current=None, current_option=None):
    """``{param name: hook}`` of the hooks additionalParams names, each file read now.

    A task file gives ``{"name", "tasks"}``; a Python script ``{"name", "script", "allowed_by"}``, and only with
    ``allow_scripts`` (else ValidationError saying which option runs it). A relative path is a file of the
    new package (``package``: a VnfPackage), for the old-VNF hook of ``current`` (the instance's current package)
    when given; errors name the additionalParams key. ``current_option``: the module option that gives ``current``,
    named when the old-VNF hook is missing from the new package and no current package was given.
    """
    hooks = {}
    for key in (NEW_VNF, OLD_VNF):
        path = (params or {}).get(key)
        if path is None:
            continue
        field = "additionalParams.{0}".format(key)
        python_script = isinstance(path, str) and path.endswith(SCRIPT_SUFFIX)
        if not isinstance(path, str) or not (python_script or path.endswith(TASK_FILE_SUFFIXES)):
            raise ValidationError(what, field, "must name an Ansible task file (.yml or .yaml) or a Python script (.py), got {0!r}".format(path))
        if python_script and not allow_scripts:
            raise ValidationError(what, field, "{0} is a Python script: it is the package's code and runs on this controller only with "
                                               "the module option {1}: true (or give an Ansible task file)".format(path, ALLOW_SCRIPTS))
        kind = "script" if python_script else "task file"
        hint = ""
        if key == OLD_VNF and current is None and current_option:
            # Tacker reads it from the package the instance runs: without that package, only a new one that has it will do.
            hint = ("; the old-VNF hook is read from the instance's current package, as Tacker reads it, and the new package does not "
                    "have it: give the current package as the module option {0}".format(current_option))
        content = _read(path, current if key == OLD_VNF and current is not None else package, what, field, kind, hint)
        if python_script:
            hooks[key] = {"name": path, "script": content, "allowed_by": ALLOW_SCRIPTS}
        else:
            hooks[key] = {"name": path, "tasks": content}
    return hooks


def _read(path, package, what, field, kind, hint=""):
    try:
        if os.path.isabs(path):
            with open(path, "rb") as handle:
                content = handle.read()
        else:
            content = package.read_file(path)
    except OSError as error:
        raise ValidationError(what, field, "cannot read the {0}: {1}: {2}".format(kind, path, error.strerror))
    except VnfLcmError as error:
        raise ValidationError(what, field, "cannot read the {0}: {1}{2}".format(kind, error.reason, hint))
    return content.decode("utf-8", "replace")


def is_script(hook):
    return "script" in (hook or {})


def vnfc_param_key(rollback):
    """The vdu_params member a hook of this direction reads (Tacker: old_vnfc_param when rolling back)."""
    return "old_vnfc_param" if rollback else "new_vnfc_param"


def check_script_params(hooks, vdu_params, what):
    """A Python script is given the address of the CP its vnfc param names (``cp_name``): every VDU needs one.

    Tacker reads ``cp_name`` from ``new_vnfc_param`` (``old_vnfc_param`` for the rollback script).
    """
    for key, rollback in ((NEW_VNF, False), (OLD_VNF, True)):
        hook = hooks.get(key)
        if not is_script(hook):
            continue
        member = vnfc_param_key(rollback)
        for index, vdu_param in enumerate(vdu_params or []):
            cp_name = (vdu_param.get(member) or {}).get("cp_name")
            if not isinstance(cp_name, str) or not cp_name:
                field = "additionalParams.vdu_params[{0}].{1}.cp_name".format(index, member)
                raise ValidationError(what, field, "the coordination script {0} is given the address of this CP of VDU {1} as ssh_ip, "
                                                   "as Tacker gives it: name the CP".format(hook["name"], vdu_param.get("vdu_id")))


def script_input(vnfc_param, ssh_ip, rollback):
    """What a Python coordination script reads from stdin, as Tacker v2 builds it: the vnfc param plus ``ssh_ip``
    (the floating, else first fixed, address of its ``cp_name``) and ``is_rollback``."""
    return dict(vnfc_param or {}, ssh_ip=ssh_ip, is_rollback=rollback)


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
    vnfc = variables["vnfc"]["resource"]
    try:
        run_tasks("coordination hook " + hook["name"], hook["tasks"], {"vnflcm_coordination": variables}, timeout, runner)
    except TasksFailed as error:
        raise HookFailed(hook["name"], vnfc, error.reason)
    except OperationTimeout:
        raise OperationTimeout("coordination hook {0} for VNFC {1}".format(hook["name"], vnfc), timeout)


class TasksFailed(VnfLcmError):
    """A task file run by :func:`run_tasks` failed: the reason is the end of its output."""

    def __init__(self, name, output):
        super().__init__("run", name, output[-OUTPUT_TAIL:].strip())


def run_tasks(name, tasks, variables, timeout, runner=subprocess.run):
    """Run the task file text ``tasks`` in a play of its own on localhost with the extra vars ``variables``.

    TasksFailed (naming ``name``) with the end of its output when the play fails; OperationTimeout when it outlives ``timeout``.
    """
    with tempfile.TemporaryDirectory(prefix="vnflcm-hook-") as work:
        path = os.path.join(work, "hook.yml")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(tasks)
        play = [{"name": name, "hosts": "localhost", "connection": "local", "gather_facts": False,
                 "tasks": [{"ansible.builtin.include_tasks": path}]}]
        playbook = os.path.join(work, "play.yml")
        with open(playbook, "w", encoding="utf-8") as handle:
            json.dump(play, handle)
        # Extra vars in a file only the owner reads: they may carry passwords.
        extra = os.path.join(work, "vars.json")
        with open(os.open(extra, os.O_WRONLY | os.O_CREAT, 0o600), "w", encoding="utf-8") as handle:
            json.dump(dict(variables, ansible_python_interpreter=sys.executable), handle)
        command = [playbook_command(), "-i", "localhost,", playbook, "-e", "@" + extra]
        try:
            # In its own directory: the module's (the playbook's) may be gone by then, and ansible-playbook needs one.
            done = runner(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=max(1, timeout), check=False, cwd=work)
        except subprocess.TimeoutExpired:
            raise OperationTimeout(name, timeout)
    if done.returncode != 0:
        output = done.stdout.decode("utf-8", "replace") if isinstance(done.stdout, bytes) else str(done.stdout or "")
        raise TasksFailed(name, output)


def run_script(hook, vnfc, given, timeout, runner=subprocess.run):
    """Run a Python coordination script for the VNFC ``vnfc`` with ``given`` pickled on stdin, as Tacker does.

    HookFailed with its exit code and the end of its output when it exits non-zero; OperationTimeout when it
    outlives ``timeout`` (it is killed). A hook the record keeps without its opt-in is never run.
    """
    if hook.get("allowed_by") != ALLOW_SCRIPTS:
        raise HookFailed(hook["name"], vnfc, "a Python script runs only with {0}: true, and this one was not allowed".format(ALLOW_SCRIPTS))
    with tempfile.TemporaryDirectory(prefix="vnflcm-script-") as work:
        # Its own file name, as in the package (a script may log it); the directory is private to this run.
        script = os.path.join(work, os.path.basename(hook["name"]))
        with open(os.open(script, os.O_WRONLY | os.O_CREAT, 0o600), "w", encoding="utf-8") as handle:
            handle.write(hook["script"])
        try:
            done = runner([sys.executable, script], input=pickle.dumps(given), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=max(1, timeout), check=False, cwd=work)
        except subprocess.TimeoutExpired:
            raise OperationTimeout("coordination hook {0} for VNFC {1}".format(hook["name"], vnfc), timeout)
    if done.returncode != 0:
        output = "\n".join(_text(part) for part in (done.stderr, done.stdout) if part)
        raise HookFailed(hook["name"], vnfc, "exit code {0}: {1}".format(done.returncode, output[-(OUTPUT_TAIL - 100):].strip()))


def _text(output):
    return output.decode("utf-8", "replace") if isinstance(output, bytes) else str(output)
