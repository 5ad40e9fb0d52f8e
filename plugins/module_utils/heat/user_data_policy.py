# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Which package user-data script a request names (Tacker's ``additionalParams.lcm-operation-user-data`` / ``-class``),
and whether it may run: the policy heat/user_data.py describes, apart from the running.

Kept apart so that the operations that only refuse a script (scale, heal, ChangeExtVnfConnectivity) carry in their
AnsiballZ payload neither the script runner nor the Tacker helper modules it ships.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.form import DEFAULT, STANDARD
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.archive import normalize_relpath
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ

USER_DATA = "lcm-operation-user-data"
USER_DATA_CLASS = "lcm-operation-user-data-class"
# The module option without which a package script is refused (the one that also allows coordination scripts).
ALLOW_SCRIPTS = "allow_package_scripts"
# The methods of Tacker's AbstractUserData this collection calls: the operations that are given the package.
RUN_FOR = {occ.INSTANTIATE: "instantiate", occ.CHANGE_VNFPKG: "change_vnfpkg"}


def names_script(request):
    """Whether the request has either of the user-data keys."""
    params = (request or {}).get("additionalParams") or {}
    return USER_DATA in params or USER_DATA_CLASS in params


def script_of(request, form, what, operation, allow_scripts=False):
    """``{"path", "class"}`` of the package script the request names, to be run; None when it names none or the form's built-in class.

    Refused (ValidationError naming the field), before anything is written: only one of the two keys; Tacker's other built-in
    class; another class without ``allow_scripts``; another class for an operation that is not given the package.
    """
    if not names_script(request):
        return None
    params = request["additionalParams"]
    path, name = params.get(USER_DATA), params.get(USER_DATA_CLASS)
    if name == form.name:
        return None
    if name in (STANDARD, DEFAULT):
        reason = "{0} does not fit the flavour's BaseHOT, which is of the {1} form ({2})".format(name, form.name, _form_text(form))
        raise ValidationError(what, "additionalParams." + USER_DATA_CLASS, reason)
    if not isinstance(path, str) or not path or not isinstance(name, str) or not name:
        missing = USER_DATA if not isinstance(path, str) or not path else USER_DATA_CLASS
        raise ValidationError(what, "additionalParams." + missing, "a package user-data script needs both {0} and {1} (as Tacker does)".format(
            USER_DATA, USER_DATA_CLASS))
    if operation not in RUN_FOR:
        reason = ("{0!r} (class {1!r}) is a package user-data script; this collection runs one only where the operation is given the package "
                  "(instantiate, change of package): {2} applies its built-in change to the stack as the script made it, so leave these "
                  "parameters out (or name {3}, the BaseHOT's form)").format(path, name, operation, form.name)
        raise ValidationError(what, "additionalParams." + USER_DATA, reason)
    if not allow_scripts:
        reason = ("{0!r} (class {1!r}) is a package user-data script: the package's own code, run on this controller only with the "
                  "module option {2}: true; or give the changes it would make as additionalParams.nfv, or name {3} (the BaseHOT's form, "
                  "done built in)").format(path, name, ALLOW_SCRIPTS, form.name)
        raise ValidationError(what, "additionalParams." + USER_DATA, reason)
    try:
        clean = normalize_relpath(path.lstrip("./"), path)
    except PackageError as error:
        raise ValidationError(what, "additionalParams." + USER_DATA, error.reason)
    if not clean.endswith(".py"):
        raise ValidationError(what, "additionalParams." + USER_DATA, "must name a Python file of the package, got {0!r}".format(path))
    return {"path": clean, "class": name}


def _form_text(form):
    if form.per_vnfc:
        return "one Heat resource per VNFC"
    return "AutoScalingGroups {0}".format(", ".join(sorted(form.groups.values())))
