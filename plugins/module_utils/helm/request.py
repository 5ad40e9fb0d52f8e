# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What a Helm-chart CNF request asks for (Tacker v2's vimType ETSINFV.HELM.V_3), checked against its package.

An InstantiateVnfRequest for a Helm CNF names, in ``additionalParams``:

- ``helm_chart_path``: the chart, a ``.tgz`` file of the package (Tacker joins it to the package folder);
- ``helm_parameters``: chart values to set (``{"service.port": 8081}``, keys in Helm's dotted ``--set`` form);
- ``helm_value_names``: ``{VDU id: {"replica": value key}}``, the chart value that holds each VDU's replica count;
- ``namespace`` (optional): the release's namespace.

As in Tacker, the install sets ``helm_parameters`` plus, for each VDU named in ``helm_value_names``, its replica count
at the instantiation level; a VDU left out of ``helm_value_names`` keeps the chart's own count at instantiation, and a
scale that would change its count is refused (Tacker's HelmParameterNotFound). Pure: nothing here runs helm.
"""

from __future__ import annotations

import io
import math
import posixpath
import re
import tarfile
import zlib
from typing import NamedTuple

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.namespaces import check_namespace_name
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.archive import unsafe_path_reason
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.sizing import initial_replicas
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import INSTANTIATE_VNF_REQUEST, SCALE_VNF_REQUEST
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import HELM_CHART_PATH_PARAM

CHART_PATH_PARAM = HELM_CHART_PATH_PARAM
PARAMETERS_PARAM = "helm_parameters"
VALUE_NAMES_PARAM = "helm_value_names"
NAMESPACE_PARAM = "namespace"
REPLICA = "replica"
CHART_SUFFIX = ".tgz"
# Values helm_parameters may hold: what ``--set`` / ``--set-string`` carry as one value (lists and maps are not flat).
SCALAR_TYPES = (str, int, float, bool)
# The --set key rule of cli.check_set_key: '=' and ',' would end the key; dots nest and [n] indexes, as Helm reads them.
VALUE_KEY = re.compile(r"^[^=,\s]+$")


class HelmParams(NamedTuple):
    """What an instantiate asks Helm for. ``set_values`` is the dict HelmClient.install/template take."""
    chart_path: str            # package-relative, normalised
    parameters: dict           # helm_parameters as given (flat, scalar values)
    replica_keys: dict         # VDU id -> the chart value key of its replica count
    namespace: str | None      # None: the request names none
    set_values: dict           # parameters + each VDU's replica count at the instantiation level


def field(name):
    return "additionalParams." + name


def helm_params(request, package, flavour_id, instantiation_level_id=None, what=INSTANTIATE_VNF_REQUEST):
    """The checked Helm side of an InstantiateVnfRequest (see :class:`HelmParams`); errors name the field at fault.

    ``package`` is a read VnfPackage (package/reader.py) or its ``to_dict()``; ``flavour_id`` and
    ``instantiation_level_id`` (None: the flavour's default level) choose the replica counts.
    """
    data = package if isinstance(package, dict) else package.to_dict()
    flavours = data["vnfd"]["flavours"]
    if flavour_id not in flavours:
        raise ValidationError(what, "flavourId", "{0!r} is not a deployment flavour of the VNFD (flavours: {1})".format(
            flavour_id, ", ".join(sorted(flavours)) or "none"))
    flavour = flavours[flavour_id]
    params = request.get("additionalParams")
    if not isinstance(params, dict):
        raise ValidationError(what, "additionalParams", "a Helm CNF needs {0} and {1}".format(field(CHART_PATH_PARAM), field(VALUE_NAMES_PARAM)))
    chart_path = checked_chart_path(params.get(CHART_PATH_PARAM), data, what)
    parameters = checked_parameters(params.get(PARAMETERS_PARAM), what)
    replica_keys = checked_replica_keys(params.get(VALUE_NAMES_PARAM), flavour, what)
    namespace = checked_namespace(params.get(NAMESPACE_PARAM), what)
    counts = {vdu_id: initial_replicas(flavour, vdu_id, instantiation_level_id, what) for vdu_id in replica_keys}
    return HelmParams(chart_path, parameters, replica_keys, namespace, instantiation_set_values(parameters, replica_keys, counts, what))


def checked_chart_path(chart_path, package_data, what=INSTANTIATE_VNF_REQUEST):
    """The chart's normalised package path: a ``.tgz`` inside the package that the package declares and holds.

    Declared means listed in TOSCA.meta (its hash then checked when the package was read) or the file of a VNFD
    artifact, as for Kubernetes def files; Tacker only joins the path to the package folder and lets helm fail.
    """
    name = field(CHART_PATH_PARAM)
    if not isinstance(chart_path, str) or not chart_path.strip():
        raise ValidationError(what, name, "the package path of the Helm chart (.tgz) is required, got {0!r}".format(chart_path))
    reason = unsafe_path_reason(chart_path)
    if reason:
        raise ValidationError(what, name, "{0}: {1}".format(chart_path, reason))
    clean = posixpath.normpath(chart_path.replace("\\", "/"))
    if not clean.endswith(CHART_SUFFIX):
        raise ValidationError(what, name, "{0} is not a packaged Helm chart (a {1} file, as helm package makes)".format(chart_path, CHART_SUFFIX))
    listed = package_data["meta"]["files"].get(clean)
    artifacts = [artifact for artifact in package_data["vnfd"]["artifacts"].values() if artifact.get("file") == clean]
    if listed is None and not artifacts:
        raise ValidationError(what, name, "{0} is not a file the package declares: it must be listed in TOSCA.meta (a Name: entry) "
                                          "or be the file of a VNFD artifact".format(chart_path))
    # A listed file that is present has its hash verified; an artifact knows whether its file is present.
    present = bool(listed and listed.get("verified")) or any(artifact.get("present") for artifact in artifacts)
    if not present:
        raise ValidationError(what, name, "{0} is declared by the package but not in it (or TOSCA.meta lists it without a hash)".format(chart_path))
    return clean


def checked_parameters(parameters, what=INSTANTIATE_VNF_REQUEST):
    """helm_parameters: a flat map of Helm value keys to scalar values (absent: none)."""
    name = field(PARAMETERS_PARAM)
    if parameters is None:
        return {}
    if not isinstance(parameters, dict):
        raise ValidationError(what, name, "must be a map of chart value keys to values, got a {0}".format(type(parameters).__name__))
    for key, value in parameters.items():
        check_value_key(key, name, what)
        # NaN and infinity have no JSON form, which is how Helm is given a float (--set-json).
        if not isinstance(value, SCALAR_TYPES) or (isinstance(value, float) and not math.isfinite(value)):
            raise ValidationError(what, "{0}.{1}".format(name, key), "must be a string, a finite number or a boolean, got {0}".format(
                "null" if value is None else repr(value) if isinstance(value, float) else "a " + type(value).__name__))
    return dict(parameters)


def checked_replica_keys(value_names, flavour, what=INSTANTIATE_VNF_REQUEST):
    """helm_value_names as VDU id -> replica value key. Required and non-empty, as Tacker checks; each VDU must be a
    container VDU of the flavour (a properties.name, no VM image), each entry exactly ``{"replica": key}``, and no two
    VDUs may share a key (one value cannot hold two counts)."""
    name = field(VALUE_NAMES_PARAM)
    if not isinstance(value_names, dict) or not value_names:
        raise ValidationError(what, name, "a map of VDU id to {{\"replica\": chart value key}} is required, got {0!r}".format(value_names))
    vdus = flavour.get("vdus") or {}
    keys, owners = {}, {}
    for vdu_id, entry in value_names.items():
        where = "{0}.{1}".format(name, vdu_id)
        vdu = vdus.get(vdu_id)
        if vdu is None:
            raise ValidationError(what, where, "{0} is not a VDU of flavour {1} (VDUs: {2})".format(
                vdu_id, flavour.get("flavour_id"), ", ".join(sorted(vdus)) or "none"))
        if not isinstance(vdu.get("name"), str) or not vdu["name"] or vdu.get("sw_image_data"):
            raise ValidationError(what, where, "{0} is not a container VDU (it needs a properties.name and no sw_image_data)".format(vdu_id))
        if not isinstance(entry, dict) or set(entry) != {REPLICA}:
            raise ValidationError(what, where, "must be {{\"replica\": chart value key}}, got {0!r}".format(entry))
        key = check_value_key(entry[REPLICA], where + "." + REPLICA, what)
        if key in owners:
            raise ValidationError(what, where + "." + REPLICA, "{0} already holds the replicas of {1}".format(key, owners[key]))
        owners[key] = vdu_id
        keys[vdu_id] = key
    return keys


def checked_namespace(namespace, what=INSTANTIATE_VNF_REQUEST):
    return None if namespace is None else check_namespace_name(namespace, what, field(NAMESPACE_PARAM))


def check_value_key(key, where, what):
    if not isinstance(key, str) or not VALUE_KEY.match(key):
        raise ValidationError(what, where, "{0!r} is not a chart value key Helm can set (no '=', ',' or white space)".format(key))
    return key


def instantiation_set_values(parameters, replica_keys, counts, what=INSTANTIATE_VNF_REQUEST):
    """helm_parameters plus ``{replica key: count}`` for each VDU the VNFD sizes (a None count leaves the chart's own).

    A helm_parameters key that is also a replica key is refused: Tacker silently lets the count win, which hides the
    request's mistake (the VNFD, not helm_parameters, sizes a VDU).
    """
    values = dict(parameters)
    for vdu_id, key in replica_keys.items():
        if key in parameters:
            reason = "{0} is the replica count of {1} ({2}), which the VNFD sizes".format(key, vdu_id, field(VALUE_NAMES_PARAM))
            raise ValidationError(what, "{0}.{1}".format(field(PARAMETERS_PARAM), key), reason)
        if counts.get(vdu_id) is not None:
            values[key] = counts[vdu_id]
    return values


def scaled_set_values(replica_keys, counts, current=None, what=SCALE_VNF_REQUEST, where="aspectId"):
    """``{replica key: count}`` for a scale or scale to level: ``counts`` is VDU id -> its count after the operation
    (sol/sizing.py's counts_after / counts_at_levels), ``current`` VDU id -> its count now (None: every VDU of
    ``counts`` is set). A VDU whose count changes and has no replica key is refused, as Tacker's HelmParameterNotFound;
    ``where`` names the request field that asked for the change."""
    values = {}
    for vdu_id, count in sorted(counts.items()):
        if current is not None and current.get(vdu_id) == count:
            continue
        if vdu_id not in replica_keys:
            raise ValidationError(what, where, "{0} has no replica value key in the instantiation's {1}, so Helm cannot scale it to {2}".format(
                vdu_id, field(VALUE_NAMES_PARAM), count))
        values[replica_keys[vdu_id]] = count
    return values


# What helm itself reads of a packaged chart (its loader's limits): 100 MiB decompressed in all.
MAX_CHART_BYTES = 100 * 1024 * 1024
MAX_CHART_ENTRIES = 10000


def check_chart_archive(content, chart_path, what=INSTANTIATE_VNF_REQUEST):
    """Refuse a chart archive Helm should not be given, naming the entry: one that is not a gzipped tar, an entry that is
    not a file or folder (a symlink or hard link could stand for a file outside the chart), an absolute one or one with
    ``..``, entries outside one top folder (helm package's layout), more than helm reads. The archive is only read."""
    name = field(CHART_PATH_PARAM)
    top, total = None, 0
    try:
        with tarfile.open(fileobj=io.BytesIO(content), mode="r:gz") as archive:
            for count, entry in enumerate(archive, 1):
                where = "{0}: entry {1!r}".format(chart_path, entry.name)
                if count > MAX_CHART_ENTRIES:
                    raise ValidationError(what, name, "{0}: more than {1} entries".format(chart_path, MAX_CHART_ENTRIES))
                if not (entry.isfile() or entry.isdir()):
                    raise ValidationError(what, name, "{0} is a link or special file, not a file of the chart".format(where))
                parts = entry.name.replace("\\", "/").split("/")
                if entry.name.startswith("/") or ".." in parts:
                    raise ValidationError(what, name, "{0} points outside the chart".format(where))
                if top is None:
                    top = parts[0]
                elif parts[0] != top:
                    raise ValidationError(what, name, "{0} is outside the chart's folder {1!r}".format(where, top))
                total += entry.size
                if total > MAX_CHART_BYTES:
                    raise ValidationError(what, name, "{0}: more than {1} MiB unpacked".format(chart_path, MAX_CHART_BYTES >> 20))
    except (tarfile.TarError, EOFError, OSError, zlib.error) as error:
        raise ValidationError(what, name, "{0} is not a packaged Helm chart (a gzipped tar): {1}".format(chart_path, error)) from error
    if top is None:
        raise ValidationError(what, name, "{0} is an empty archive".format(chart_path))
