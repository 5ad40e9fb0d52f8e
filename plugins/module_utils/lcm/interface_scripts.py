# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The VNFD's Vnflcm interface scripts (``instantiate_start`` ... ``modify_information_end``), run as Tacker v2 runs them.

A flavour's VNF node names, per Vnflcm operation, a Python artifact of the package. Tacker v2 runs the operation's
``<op>_start`` script before the operation acts and its ``<op>_end`` script after, both while the op occ is PROCESSING:
``python3 <script>`` with a dict pickled on stdin (:func:`script_input`); a non-zero exit fails the operation
(FAILED_TEMP). A retry runs both again; a rollback runs ``<op>_rollback_start`` and ``<op>_rollback_end``. The package is
the instance's current one (the new one for a change of package).

As Tacker's ``_exec_mgmt_driver_script``, a script may print a dict pickled on its stdout: its ``vnf_instance`` is applied
to the instance (what the script changed of what it was given: :func:`script_changes`), and its
``user_script_err_handling_data`` merged into the operation's, which every later script of the op occ is given (a retry
and a rollback too) and a failed op occ keeps in ``error.userScriptErrHandlingData``.

Here the scripts are package code running on the controller, so they run only when the user opted in with the module
option :data:`ALLOW_SCRIPTS` where the package was given (instantiate, change of package, modify with a package). The
record keeps the flavour's scripts (compressed) with that choice (:func:`for_package`): scale, heal and terminate,
which are not given the package, run them as Tacker does, from the package the instance was instantiated or changed
with. Without the opt-in the record keeps only which scripts the VNFD declares, and every plan says they are not run.

What a script is given differs from Tacker in two ways, both stated in the Tacker guide (docs/docsite/rst/tacker.rst): ``tmp_csar_dir`` holds the
flavour's interface scripts at their package paths, not the whole package (the package is not kept); the grant
request and grant are None, as there is no NFVO to grant. The request and instance carry no VIM credentials, and
the environment is PATH, HOME, the locale and PYTHONPATH only.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import io
import os
import pickle
import posixpath
import subprocess
import sys
import tempfile
import zlib

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import OperationTimeout, PackageError, ValidationError, VnfLcmError
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import PRIVATE, private_state
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.archive import normalize_relpath
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import without_vim_secrets

ALLOW_SCRIPTS = "allow_package_scripts"
INTERFACE = "Vnflcm"
# The private-state key of the record (common/record_store.py PrivateState).
KEY = "interface_scripts"
# Tacker's script method names: the operation in lower case, but for these (SOL001's Vnflcm operation names).
SCRIPT_NAMES = {occ.MODIFY_INFO: "modify_information", occ.CHANGE_EXT_CONN: "change_external_connectivity",
                occ.CHANGE_VNFPKG: "change_current_package"}
PHASES = ("start", "end")
ROLLBACK_PHASES = ("rollback_start", "rollback_end")
# What a script's pickled output may give back (anything else in it is ignored, as in Tacker).
RETURNED_INSTANCE, ERROR_HANDLING_DATA = "vnf_instance", "user_script_err_handling_data"
# What a script cannot change of the instance: its identity and its state are the operation's.
KEPT_FIELDS = ("id", "instantiationState", "_links")
# The most of a script's stdout that is read back.
MAX_OUTPUT_BYTES = 4 * 1024 * 1024
# What the record may keep of one flavour's scripts: the record is written whole at every step of an operation.
MAX_SCRIPT_BYTES = 256 * 1024
# The end of a script's output that goes into the error.
OUTPUT_TAIL = 2000
# The environment a script gets: enough to find Python and its packages, no credentials (OS_*, K8S_AUTH_*).
PASSED_ENVIRONMENT = ("PATH", "HOME", "LANG", "LC_ALL", "PYTHONPATH")
# Runs the script as ``python <script>`` would (its directory first on sys.path, __main__), with an alarm that ends
# it at the timeout even when the module's process was killed meanwhile (the module kills it itself otherwise).
RUNNER = (
    "import os, runpy, signal, sys\n"
    "script, timeout = sys.argv[1], int(sys.argv[2])\n"
    "sys.argv = [script]\n"
    "sys.path[0] = os.path.dirname(script)\n"
    "signal.alarm(timeout)\n"
    "runpy.run_path(script, run_name='__main__')\n"
)


class ScriptFailed(VnfLcmError):
    """The script exited non-zero: the reason is its exit code and the end of its output."""

    def __init__(self, hook, path, output):
        super().__init__("run", "{0}.{1} script {2}".format(INTERFACE, hook, path), output[-OUTPUT_TAIL:].strip())


def hook_name(operation, phase):
    """``scale_start``, ``modify_information_end``, ...: the VNFD's name of ``operation``'s script for ``phase``."""
    return "{0}_{1}".format(SCRIPT_NAMES.get(operation, operation.lower()), phase)


# ---------------------------------------------------------------------------------------------
# What the record keeps (pure but for reading the package)

def declared(vnfd, flavour_id):
    """``{hook: package path}`` of the Python artifacts the flavour's Vnflcm interface names, e.g. ``{"scale_start":
    "Scripts/sample_script.py"}`` (a hook with no implementation, or one that is not an artifact of the package, runs
    nothing, as in Tacker)."""
    flavour = (vnfd.get("flavours") or {}).get(flavour_id) or {}
    hooks = {}
    for name, operation in sorted(((flavour.get("interfaces") or {}).get(INTERFACE) or {}).items()):
        implementation = (operation or {}).get("implementation")
        primary = implementation.get("primary") if isinstance(implementation, dict) else implementation
        artifact = (vnfd.get("artifacts") or {}).get(primary) if isinstance(primary, str) else None
        if artifact and isinstance(artifact.get("file"), str) and "://" not in artifact["file"] and artifact["file"].endswith(".py"):
            hooks[name] = artifact["file"]
    return hooks


def for_package(package, flavour_id, allowed, what):
    """What the record keeps of the flavour's interface scripts: ``{"allowed", "hooks", "files"}``, the files (compressed)
    only when ``allowed``. ValidationError, before anything is written, for a script the package lacks or too large a
    whole."""
    hooks = declared(package.to_dict()["vnfd"], flavour_id)
    files = {}
    if allowed:
        total = 0
        for path in sorted(set(hooks.values())):
            try:
                content = package.read_file(path)
            except VnfLcmError as error:
                users = ", ".join("{0}.{1}".format(INTERFACE, hook) for hook, used in sorted(hooks.items()) if used == path)
                raise ValidationError(what, ALLOW_SCRIPTS, "the package has no script {0} for {1}: {2}".format(path, users, error.reason))
            total += len(content)
            files[path] = {"sha256": hashlib.sha256(content).hexdigest(), "zlib": base64.b64encode(zlib.compress(content, 9)).decode("ascii")}
        if total > MAX_SCRIPT_BYTES:
            raise ValidationError(what, ALLOW_SCRIPTS, "the flavour's interface scripts have {0} bytes, more than the {1} a record keeps".format(
                total, MAX_SCRIPT_BYTES))
    return {"allowed": bool(allowed), "hooks": hooks, "files": files}


def recorded(instance):
    """The scripts the instance's record keeps (empty when it keeps none: not instantiated, or a record of an older version)."""
    return private_state(instance or {}).get(KEY) or {}


def with_scripts(instance, scripts):
    """A copy of ``instance`` whose record keeps ``scripts`` (an instance with instantiatedVnfInfo)."""
    result = copy.deepcopy(instance)
    result["instantiatedVnfInfo"].setdefault("metadata", {}).setdefault(PRIVATE, {})[KEY] = copy.deepcopy(scripts)
    return result


def plan_note(scripts, operation, phases=PHASES):
    """What the plan says of ``operation``'s scripts of ``phases``: ``{"run": [...]}`` or ``{"not_run": [...], "why": ...}``;
    None without any."""
    named = ["{0}.{1} ({2})".format(INTERFACE, hook_name(operation, phase), scripts["hooks"][hook_name(operation, phase)])
             for phase in phases if hook_name(operation, phase) in (scripts or {}).get("hooks", {})]
    if not named:
        return None
    if scripts.get("allowed"):
        return {"run": named}
    return {"not_run": named, "why": "the VNFD's scripts are the package's code; they run only when {0}: true was given with the "
                                     "package (instantiate, change of package, modify)".format(ALLOW_SCRIPTS)}


def plan_line(note):
    if not note:
        return None
    if "run" in note:
        return "runs the VNFD's interface scripts " + ", ".join(note["run"])
    return "does not run the VNFD's interface scripts " + ", ".join(note["not_run"]) + ": " + note["why"]


# ---------------------------------------------------------------------------------------------
# Running one

def visible_instance(instance):
    """The VnfInstance as a script reads it: no VIM credentials and none of this collection's private state."""
    inst = without_vim_secrets(copy.deepcopy(instance or {}))
    metadata = (inst.get("instantiatedVnfInfo") or {}).get("metadata")
    if isinstance(metadata, dict):
        metadata.pop(PRIVATE, None)
    return inst


def script_input(hook, request, instance, csar_dir, data=None):
    """What the script reads from stdin (``pickle.load(sys.stdin.buffer)``), as Tacker builds it; ``data``: the op occ's
    user_script_err_handling_data so far. At ``instantiate_start`` the instance has the request's vimConnectionInfo, as
    Tacker sets it before the script."""
    inst, req = visible_instance(instance), without_vim_secrets(copy.deepcopy(request or {}))
    if hook == hook_name(occ.INSTANTIATE, "start") and not inst.get("vimConnectionInfo") and req.get("vimConnectionInfo"):
        inst["vimConnectionInfo"] = copy.deepcopy(req["vimConnectionInfo"])
    return {"operation": hook, "request": req, "vnf_instance": inst, "grant_request": None, "grant_response": None,
            "tmp_csar_dir": csar_dir, ERROR_HANDLING_DATA: copy.deepcopy(data or {})}


def returned_output(stdout):
    """The dict a script printed pickled on its stdout, as Tacker reads it: ``{}`` when there is none (no output, or output
    that is not a pickled dict: a script may print anything). Unpickled with no class but Python's own types allowed."""
    if not stdout or len(stdout) > MAX_OUTPUT_BYTES:
        return {}
    try:
        output = _PlainUnpickler(io.BytesIO(stdout)).load()
    except Exception:  # noqa: B902 - whatever a script printed that is not a pickle is its own business, as in Tacker
        return {}
    return output if isinstance(output, dict) else {}


class _PlainUnpickler(pickle.Unpickler):
    """Only built-in containers and scalars: a script's output must not make this process import or call anything."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError("{0}.{1} is not allowed".format(module, name))


def script_changes(given, returned):
    """``{field: value}`` of what a script changed of the instance it was ``given`` (its ``vnf_instance`` back): the
    top-level fields, and instantiatedVnfInfo's and its metadata's one by one, so that what the script never saw (the
    record's private state) stays; a field it removed is None. The instance's id and state are never the script's."""
    if not isinstance(returned, dict):
        return {}
    changes = _changed(given, returned, KEPT_FIELDS + ("instantiatedVnfInfo",))
    info, given_info = returned.get("instantiatedVnfInfo"), given.get("instantiatedVnfInfo") or {}
    if isinstance(info, dict):
        nested = _changed(given_info, info, ("metadata",))
        metadata, given_metadata = info.get("metadata"), given_info.get("metadata") or {}
        if isinstance(metadata, dict):
            nested.update({"metadata." + key: value for key, value in _changed(given_metadata, metadata, (PRIVATE,)).items()})
        if nested:
            changes["instantiatedVnfInfo"] = nested
    return changes


def _changed(given, returned, skipped):
    changes = {key: copy.deepcopy(value) for key, value in returned.items() if key not in skipped and given.get(key) != value}
    changes.update({key: None for key in given if key not in skipped and key not in returned})
    return changes


def with_script_changes(instance, changes):
    """``instance`` with ``changes`` (:func:`script_changes`) applied."""
    if not changes:
        return instance
    result = copy.deepcopy(instance)
    for key, value in changes.items():
        if key == "instantiatedVnfInfo":
            info = result.setdefault("instantiatedVnfInfo", {})
            for field, item in value.items():
                target, name = (info.setdefault("metadata", {}), field[len("metadata."):]) if field.startswith("metadata.") else (info, field)
                _put(target, name, item)
        else:
            _put(result, key, value)
    return result


def _put(target, key, value):
    if value is None:
        target.pop(key, None)
    else:
        target[key] = value


def run(scripts, operation, phase, request, instance, timeout, data=None, runner=subprocess.run):
    """Run ``operation``'s script of ``phase`` when the record keeps one that was allowed; returns ``(hook, changes)``, the
    hook run (None when none ran) and what it changed of the instance (:func:`script_changes`). ``data``: the op occ's
    user_script_err_handling_data (a dict), updated in place with what the script gives back, also when it fails.

    ScriptFailed when it exits non-zero, OperationTimeout when it outlives ``timeout`` (it is killed).
    """
    hook = hook_name(operation, phase)
    path = (scripts or {}).get("hooks", {}).get(hook)
    if not path or not scripts.get("allowed") or path not in scripts.get("files", {}):
        return None, {}
    data = {} if data is None else data
    with tempfile.TemporaryDirectory(prefix="vnflcm-vnflcm-script-") as work:
        csar_dir = os.path.join(work, "csar")
        for relpath, kept in scripts["files"].items():
            target = os.path.join(csar_dir, *_safe(relpath).split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(os.open(target, os.O_WRONLY | os.O_CREAT, 0o600), "wb") as handle:
                handle.write(zlib.decompress(base64.b64decode(kept["zlib"])))
        script = os.path.join(csar_dir, *_safe(path).split("/"))
        environment = {key: os.environ[key] for key in PASSED_ENVIRONMENT if key in os.environ}
        given = script_input(hook, request, instance, csar_dir, data)
        try:
            done = runner([sys.executable, "-c", RUNNER, script, str(int(max(1, timeout)) + 1)], input=pickle.dumps(given), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=max(1, timeout),
                          check=False, cwd=work, env=environment)
        except subprocess.TimeoutExpired:
            raise OperationTimeout("{0}.{1} script {2}".format(INTERFACE, hook, path), timeout)
    output = returned_output(done.stdout)
    if isinstance(output.get(ERROR_HANDLING_DATA), dict):
        data.update(output[ERROR_HANDLING_DATA])
    if done.returncode != 0:
        printed = "\n".join(_text(part) for part in (done.stderr, done.stdout if not output else b"") if part)
        raise ScriptFailed(hook, path, "exit code {0}: {1}".format(done.returncode, printed[-(OUTPUT_TAIL - 100):].strip()))
    return hook, script_changes(given["vnf_instance"], output.get(RETURNED_INSTANCE))


def _safe(relpath):
    try:
        return normalize_relpath(posixpath.normpath(relpath))
    except PackageError as error:
        raise ValidationError("record", KEY, error.reason)


def _text(output):
    return output.decode("utf-8", "replace") if isinstance(output, bytes) else str(output)
