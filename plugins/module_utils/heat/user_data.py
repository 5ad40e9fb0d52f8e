# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Package user-data scripts: Tacker's ``additionalParams.lcm-operation-user-data`` / ``-class``.

Such a script is a Python class of the package whose static methods (``instantiate``, ``change_vnfpkg``, ...) return
the Heat stack's fields: ``{"template": <YAML text>, "files": {name: <YAML text>}, "parameters": {"nfv": {...}}}``.
The policy here:

- naming Tacker's own class of the BaseHOT's form (StandardUserData or DefaultUserData) is what this collection does
  built in: nothing runs;
- any other class is package code: it is refused, before anything is written, unless the user opts in with the module
  option ``allow_package_scripts``. Then, where the operation has the package (instantiate, change of package), it
  runs as Tacker v2 runs it: in a subprocess, its class's method called with Tacker's arguments ``(req, inst,
  grant_req, grant, tmp_csar_dir)`` as plain dicts and a copy of the package as ``tmp_csar_dir`` (on ``sys.path``),
  bounded by a timeout. Scale, heal and ChangeExtVnfConnectivity never run one: on a stack a script made, they
  apply the built-in change of the operation to the stack as the script left it (heat/stack rebase in lcm/vm/shared.py),
  as Tacker does for a request that names no script.

The subprocess gets no credentials: the request and instance without vimConnectionInfo's accessInfo, and an
environment of PATH, HOME, the locale and PYTHONPATH only. What it returns is checked here (keys, sizes, YAML
bounds); Heat's preview judges the stack before it is created or updated.
"""

from __future__ import annotations

import copy
import inspect
import json
import os
import posixpath
import re
import subprocess
import sys
import tempfile
import uuid

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import OperationTimeout, PackageError, ValidationError, VnfLcmError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.tacker_compat.tacker.sol_refactored.common import (
    common_script_utils,
    vnf_instance_utils,
    vnfd_utils,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.tacker_compat.tacker.sol_refactored.infra_drivers.openstack import userdata_utils
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.template import NFV_PARAM, dates_as_text
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.user_data_policy import USER_DATA
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.limits import MAX_TEXT_FILE_BYTES, over_limit
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.yaml_loader import parse_yaml
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ

# What a script may return, as Tacker's infra driver reads it.
FIELDS = ("template", "files", "parameters", "existing")
# The script's JSON result, and the end of its output that goes into an error.
MAX_RESULT_BYTES = 4 * MAX_TEXT_FILE_BYTES
OUTPUT_TAIL = 2000
# The environment a script gets: enough to find Python and its packages, no credentials (OS_*, K8S_AUTH_*).
PASSED_ENVIRONMENT = ("PATH", "HOME", "LANG", "LC_ALL", "PYTHONPATH")
# Deterministic resource ids for the grant request: a re-run gives a script the same input.
GRANT_NAMESPACE = uuid.UUID("6f1f3f0e-2b0a-4c55-9a52-4b8e8e0d6a11")

# The collection's versions of the Tacker modules package scripts import (tacker.sol_refactored...): written, as source,
# into the script's private directory and put first on its path there, so that a script written for Tacker runs
# unchanged. Imported here so that Ansible ships them with the module; never importable as ``tacker`` in this process.
TACKER_HELPERS = (common_script_utils, vnf_instance_utils, vnfd_utils, userdata_utils)
TACKER_COMPAT = ".tacker_compat."
# A script that wants of ``tacker`` what those modules do not have (Python's own words), and what the error adds then.
TACKER_MISS = re.compile(r"(ImportError|ModuleNotFoundError|AttributeError): .*'tacker[.']")
TACKER_HINT = ("\n(the tacker modules a script gets are this collection's versions of Tacker's script helpers: common_script_utils, "
               "vnf_instance_utils and userdata_utils, with the functions Tacker's user-data scripts call, not the rest of Tacker)")

# Runs in the subprocess, as Tacker's userdata_main.py does, with JSON instead of pickle both ways (the result is
# data, and unpickling would let the script's output run code in the module's process). The script's own prints go
# to stderr, so that they cannot be taken for the result. The alarm ends it at the timeout even when the module's
# process was killed meanwhile (the module kills it itself otherwise).
RUNNER = r'''
import importlib
import json
import signal
import sys

given = json.load(sys.stdin)
signal.alarm(given["timeout"])
sys.stdout = sys.stderr
sys.path.insert(0, given["helpers"])
sys.path.append(given["csar_dir"])
module = importlib.import_module(given["module"])
method = getattr(getattr(module, given["class"]), given["method"])
fields = method(*given["args"])
with open(given["result"], "w", encoding="utf-8") as handle:
    json.dump(fields, handle, default=str)  # dates of a template returned as a dict (YAML's heat_template_version) as text
'''


class ScriptFailed(VnfLcmError):
    """The script exited non-zero: the reason is the end of its output (Python's traceback)."""

    def __init__(self, script, method, output):
        super().__init__("run", "package user-data script {0} ({1})".format(script, method), output[-OUTPUT_TAIL:].strip())


# ---------------------------------------------------------------------------------------------
# What the script is given: Tacker's arguments, as plain dicts (pure)

def without_secrets(document):
    """A copy of a request or VnfInstance without vimConnectionInfo's accessInfo (passwords, tokens)."""
    result = copy.deepcopy(document or {})
    connections = result.get("vimConnectionInfo")
    values = connections.values() if isinstance(connections, dict) else connections if isinstance(connections, list) else []
    for vim in values:
        if isinstance(vim, dict):
            vim.pop("accessInfo", None)
    return result


def tacker_instance(instance, form, private_key):
    """The VnfInstance as a Tacker script reads it: no private state, and on the per-VNFC form each VNFC's ``vdu_idx``."""
    inst = without_secrets(instance)
    info = inst.get("instantiatedVnfInfo")
    if isinstance(info, dict):
        (info.get("metadata") or {}).pop(private_key, None)
        for vnfc in info.get("vnfcResourceInfo") or []:
            metadata = vnfc.setdefault("metadata", {})
            if form.per_vnfc and "index" in metadata:
                metadata["vdu_idx"] = metadata["index"]
    return inst


def _resource_id(*parts):
    return str(uuid.uuid5(GRANT_NAMESPACE, "/".join(str(part) for part in parts)))


def _compute(res_id, vdu_id, resource=None):
    definition = {"id": res_id, "type": "COMPUTE", "resourceTemplateId": vdu_id}
    if resource is not None:
        definition["resource"] = copy.deepcopy(resource)
    return definition


def _storages(res_id, flavour, vdu_id):
    return [{"id": "{0}-{1}".format(storage_id, res_id), "type": "STORAGE", "resourceTemplateId": storage_id}
            for storage_id in (flavour.get("vdus") or {}).get(vdu_id, {}).get("virtual_storages") or []]


def grant_for(grant_request):
    """A grant without an NFVO: no vimAssets and no zones, so a script takes flavours and images from the VNFD."""
    return {"id": _resource_id("grant", grant_request["vnfLcmOpOccId"]), "vnfInstanceId": grant_request["vnfInstanceId"],
            "vnfLcmOpOccId": grant_request["vnfLcmOpOccId"],
            "addResources": [{"resourceDefinitionId": item["id"]} for item in grant_request.get("addResources") or []]}


def instantiate_arguments(request, instance, flavour, indexes, op_occ_id):
    """``(req, inst, grant_req, grant)`` of an instantiate: a COMPUTE resource per VNFC (and a STORAGE per volume), as Tacker grants."""
    add = []
    for vdu_id in sorted(indexes):
        for index in indexes[vdu_id]:
            res_id = _resource_id(instance["id"], vdu_id, index)
            add += [_compute(res_id, vdu_id)] + _storages(res_id, flavour, vdu_id)
    grant_request = {"vnfInstanceId": instance["id"], "vnfLcmOpOccId": op_occ_id, "vnfdId": instance.get("vnfdId"),
                     "flavourId": request.get("flavourId"), "operation": occ.INSTANTIATE, "isAutomaticInvocation": False,
                     "addResources": add, "additionalParams": copy.deepcopy(request.get("additionalParams") or {})}
    if request.get("instantiationLevelId"):
        grant_request["instantiationLevelId"] = request["instantiationLevelId"]
    inst = without_secrets(instance)
    inst["vimConnectionInfo"] = without_secrets(request).get("vimConnectionInfo") or {}
    return without_secrets(request), inst, grant_request, grant_for(grant_request)


def change_vnfpkg_arguments(request, inst, flavour_id, vdu_ids, op_occ_id):
    """``(req, inst, grant_req, grant)`` of a change of package (RollingUpdate): each VNFC of the named VDUs removed and added
    again, with its volumes, as Tacker grants it. ``inst``: ``tacker_instance(...)``."""
    info = inst.get("instantiatedVnfInfo") or {}
    storages = {item["id"]: item for item in info.get("virtualStorageResourceInfo") or []}
    add, remove = [], []
    for vnfc in info.get("vnfcResourceInfo") or []:
        if vnfc.get("vduId") not in vdu_ids:
            continue
        removed, added = _resource_id(op_occ_id, vnfc["id"], "remove"), _resource_id(op_occ_id, vnfc["id"], "add")
        remove.append(_compute(removed, vnfc["vduId"], vnfc.get("computeResource")))
        add.append(_compute(added, vnfc["vduId"]))
        for storage_id in vnfc.get("storageResourceIds") or []:
            storage = storages.get(storage_id) or {}
            name = storage.get("virtualStorageDescId")
            remove.append({"id": "{0}-{1}".format(name, removed), "type": "STORAGE", "resourceTemplateId": name,
                           "resource": copy.deepcopy(storage.get("storageResource"))})
            add.append({"id": "{0}-{1}".format(name, added), "type": "STORAGE", "resourceTemplateId": name})
    grant_request = {"vnfInstanceId": inst["id"], "vnfLcmOpOccId": op_occ_id, "vnfdId": inst.get("vnfdId"), "dstVnfdId": request.get("vnfdId"),
                     "flavourId": flavour_id, "operation": occ.CHANGE_VNFPKG, "isAutomaticInvocation": False,
                     "addResources": add, "removeResources": remove, "additionalParams": copy.deepcopy(request.get("additionalParams") or {})}
    return without_secrets(request), inst, grant_request, grant_for(grant_request)


# ---------------------------------------------------------------------------------------------
# Running it

def write_tacker_helpers(root):
    """The ``tacker`` package tree of :data:`TACKER_HELPERS` under ``root`` (an empty ``__init__.py`` at each level)."""
    for module in TACKER_HELPERS:
        parts = module.__name__.split(TACKER_COMPAT, 1)[1].split(".")
        directory = root
        for part in parts[:-1]:
            directory = os.path.join(directory, part)
            if not os.path.isdir(directory):
                os.mkdir(directory)
                open(os.path.join(directory, "__init__.py"), "w").close()
        with open(os.path.join(directory, parts[-1] + ".py"), "w", encoding="utf-8") as handle:
            # inspect reads the source through the module's loader: a file, or the zip Ansible ships a module in.
            handle.write(inspect.getsource(module))


def run_script(package, script, method, arguments, timeout, what, runner=subprocess.run):
    """The checked fields the script's ``<class>.<method>(*arguments, tmp_csar_dir)`` returns (see :func:`checked_fields`).

    ValidationError when the package has no such file; ScriptFailed when it exits non-zero; OperationTimeout when it outlives
    ``timeout`` seconds (it is killed). Nothing is written anywhere but a private temporary directory, removed at the end.
    """
    field = "additionalParams." + USER_DATA
    with tempfile.TemporaryDirectory(prefix="vnflcm-userdata-") as work:
        csar_dir = os.path.join(work, "csar")
        try:
            package.extract_to(csar_dir)
        except VnfLcmError as error:
            raise ValidationError(what, field, "cannot copy the package for its script: {0}".format(error.reason))
        if not os.path.isfile(os.path.join(csar_dir, *script["path"].split("/"))):
            raise ValidationError(what, field, "the package has no file {0}".format(script["path"]))
        runner_path, result, helpers = os.path.join(work, "runner.py"), os.path.join(work, "result.json"), os.path.join(work, "lib")
        with open(runner_path, "w", encoding="utf-8") as handle:
            handle.write(RUNNER)
        os.mkdir(helpers)
        write_tacker_helpers(helpers)
        given = {"csar_dir": csar_dir, "helpers": helpers, "module": posixpath.splitext(script["path"])[0].replace("/", "."), "class": script["class"],
                 "method": method, "args": list(arguments) + [csar_dir], "result": result, "timeout": int(max(1, timeout)) + 1}
        environment = {key: os.environ[key] for key in PASSED_ENVIRONMENT if key in os.environ}
        name = "package user-data script {0} ({1}.{2})".format(script["path"], script["class"], method)
        try:
            done = runner([sys.executable, runner_path], input=json.dumps(given).encode("utf-8"), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=max(1, timeout), check=False, cwd=work, env=environment)
        except subprocess.TimeoutExpired:
            raise OperationTimeout(name, timeout)
        if done.returncode != 0:
            output = "\n".join(_text(part) for part in (done.stderr, done.stdout) if part)
            hint = TACKER_HINT if TACKER_MISS.search(output) else ""
            raise ScriptFailed(script["path"], "{0}.{1}".format(script["class"], method), "exit code {0}: {1}{2}".format(
                done.returncode, output[-(OUTPUT_TAIL - 100 - len(hint)):].strip(), hint))
        size = os.path.getsize(result) if os.path.exists(result) else 0
        if not size:
            raise ScriptFailed(script["path"], "{0}.{1}".format(script["class"], method), "it returned nothing")
        if size > MAX_RESULT_BYTES:
            raise ValidationError(what, field, "the result of {0} {1}".format(name, over_limit(size, MAX_RESULT_BYTES, "a script's result")))
        with open(result, encoding="utf-8") as handle:
            fields = json.load(handle)
    return checked_fields(fields, name, what)


def checked_fields(fields, name, what):
    """``{"template": dict or None, "files": {name: text} or None, "nfv": dict or None, "existing": bool}`` from a script's result.

    ``existing`` (Tacker's flag, True unless the script says False) means the fields are merged into the stack as it is.
    ValidationError naming the script and the part at fault for anything else.
    """
    field = "additionalParams." + USER_DATA

    def refuse(reason):
        raise ValidationError(what, field, "{0} returned {1}".format(name, reason))

    if not isinstance(fields, dict):
        refuse("{0}, not a dict of stack fields".format(type(fields).__name__))
    unknown = sorted(set(fields) - set(FIELDS))
    if unknown:
        refuse("fields this collection does not pass to Heat: {0} (it takes {1})".format(", ".join(unknown), ", ".join(FIELDS)))
    parameters = fields.get("parameters") or {}
    if not isinstance(parameters, dict) or set(parameters) - {NFV_PARAM}:
        refuse("parameters other than {0!r}: the BaseHOT takes that one only".format(NFV_PARAM))
    nfv = parameters.get(NFV_PARAM)
    if isinstance(nfv, str):
        try:
            nfv = json.loads(nfv)
        except ValueError as error:
            refuse("an nfv parameter that is not JSON: {0}".format(error))
    if nfv is not None and not isinstance(nfv, dict):
        refuse("an nfv parameter that is not an object")
    template = fields.get("template")
    if template is not None:
        try:
            template = dates_as_text(parse_yaml(template, name + ": template") if isinstance(template, str) else template)
        except PackageError as error:
            refuse("a template that cannot be read: {0}".format(error.reason))
        if not isinstance(template, dict) or not isinstance(template.get("resources"), dict):
            refuse("a template that is not a Heat template (a mapping with resources)")
    files = fields.get("files")
    if files is not None:
        if not isinstance(files, dict) or not all(isinstance(key, str) and isinstance(value, (str, dict)) for key, value in files.items()):
            refuse("files that are not a mapping of file names to templates")
        files = {key: value if isinstance(value, str) else json.dumps(value) for key, value in files.items()}
    existing = fields.get("existing", True)
    if not isinstance(existing, bool):
        refuse("an 'existing' flag that is not a boolean")
    return {"template": template, "files": files, "nfv": nfv, "existing": existing}


def _text(output):
    return output.decode("utf-8", "replace") if isinstance(output, bytes) else str(output)
