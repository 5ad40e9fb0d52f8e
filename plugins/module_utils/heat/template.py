# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Heat templates of a deployment flavour, shaped the way the stack receives them.

A flavour's BaseHOT has one top template that takes a single json parameter ``nfv`` and reads
``get_param: [nfv, VDU, <VDU>, ...]`` / ``[nfv, CP, <CP>, ...]``; its VDUs are usually resources
whose type is a nested template (``VDU1.yaml``). One Heat resource per VNFC (Tacker's
StandardUserData) means the VDU resource becomes ``<VDU>-0``, ``<VDU>-1`` ... and every nfv path
it reads gets the same index (``[nfv, VDU, VDU1-0, computeFlavourId]``).

Everything here is pure: templates are plain dicts and are never changed in place.
"""

from __future__ import annotations

import copy
import datetime
import posixpath

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.yaml_loader import decode_text, parse_yaml

NFV_PARAM = "nfv"
# Sections of the nfv parameter that hold one entry per VNFC (and so get the VNFC's index).
INDEXED_SECTIONS = ("VDU", "CP")
# Section this collection adds for networks the NFVO manages (extManagedVirtualLinks).
VL_SECTION = "VL"
SERVER_TYPE = "OS::Nova::Server"
NET_TYPE = "OS::Neutron::Net"
SUBNET_TYPE = "OS::Neutron::Subnet"
PORT_TYPE = "OS::Neutron::Port"
VOLUME_TYPE = "OS::Cinder::Volume"
# Resources that belong to one server when they sit in the top template beside it: a port, volume
# or floating IP can serve one VNFC only, so they are copied per VNFC together with the server.
PER_VNFC_TYPES = (
    PORT_TYPE,
    VOLUME_TYPE,
    "OS::Cinder::VolumeAttachment",
    "OS::Neutron::FloatingIP",
    "OS::Neutron::FloatingIPAssociation",
)
INTRINSICS = ("get_resource", "get_attr", "get_param")


def vnfc_name(name, index):
    """``VDU1`` and 0 -> ``VDU1-0``: the resource and nfv key of one VNFC (Tacker's naming)."""
    return "{0}-{1}".format(name, index)


def vnfc_indexes(count):
    """The VNFC indexes of a VDU: ``2`` -> ``[0, 1]``; an explicit list (gaps left by scale-in) is kept, sorted."""
    if isinstance(count, int):
        return list(range(count))
    return sorted(set(count))


def split_vnfc_name(name):
    """``VDU1-0`` -> ``("VDU1", 0)``; a name without a numeric suffix -> ``(name, None)``."""
    base, sep, index = name.rpartition("-")
    if sep and base and index.isdigit():
        return base, int(index)
    return name, None


def is_template_file(resource_type):
    return isinstance(resource_type, str) and resource_type.lower().endswith((".yaml", ".yml"))


# ---------------------------------------------------------------------------------------------
# Loading

def load_base_hot(package, flavour_id):
    """``(template, files)`` of a flavour: the top template as a dict, nested templates as text.

    ``files`` is keyed the way the templates name them in ``type:`` (Heat looks them up there), and
    also by file name, as Tacker sends them.
    """
    layout = package.flavour(flavour_id).get("base_hot")
    if not layout:
        raise PackageError(package.path, "flavour {0} has no Heat templates (BaseHOT/{0}/)".format(flavour_id))
    template = _top_template(package, layout["template"])
    by_name = {posixpath.basename(relpath): relpath for relpath in layout["nested"]}
    texts = {name: decode_text(package.read_file(relpath), relpath) for name, relpath in sorted(by_name.items())}
    files = dict(texts)
    referencing = [template] + [parse_yaml(text, by_name[name]) for name, text in texts.items()]
    for document in referencing:
        for reference in sorted(template_file_references(document)):
            name = posixpath.basename(reference)
            if name in texts:
                files[reference] = texts[name]
    return template, files


def _top_template(package, relpath):
    documents = package.load_yaml_documents(relpath)
    template = documents[0] if len(documents) == 1 else None
    if not isinstance(template, dict) or not isinstance(template.get("resources"), dict):
        raise PackageError(relpath, "not a Heat template (a single YAML document with resources)")
    parameters = template.get("parameters") or {}
    if NFV_PARAM not in parameters:
        raise PackageError(relpath, "the top Heat template must take the json parameter {0!r}".format(NFV_PARAM))
    return dates_as_text(template)


def dates_as_text(value):
    """YAML reads ``2013-05-23`` as a date; Heat's own loader keeps it text (heat_template_version)."""
    if isinstance(value, dict):
        return {key: dates_as_text(item) for key, item in value.items()}
    if isinstance(value, list):
        return [dates_as_text(item) for item in value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    return value


def template_file_references(template):
    """The resource types of a template that name template files (``VDU1.yaml``), a scaling group's members' included."""
    resources = template.get("resources") if isinstance(template, dict) else None
    found = set()
    for resource in (resources or {}).values():
        if not isinstance(resource, dict):
            continue
        properties = resource.get("properties") if isinstance(resource.get("properties"), dict) else {}
        # OS::Heat::AutoScalingGroup makes its members of ``resource``, OS::Heat::ResourceGroup of ``resource_def``.
        for definition in (resource, properties.get("resource"), properties.get("resource_def")):
            if isinstance(definition, dict) and is_template_file(definition.get("type")):
                found.add(definition["type"])
    return found


def used_files(template, files):
    """The part of ``files`` that ``template`` uses, directly or through nested templates.

    A stack PATCH adds files but never removes one, so a stack's files may hold templates it no
    longer uses; they make no difference to Heat, and none to the plans.
    """
    used = {}
    pending = list(template_file_references(template))
    while pending:
        name = pending.pop()
        if name in used or name not in files:
            continue
        used[name] = files[name]
        content = files[name]
        pending.extend(template_file_references(parse_yaml(content, name) if isinstance(content, (str, bytes)) else content))
    return used


# ---------------------------------------------------------------------------------------------
# Walking intrinsic functions

def intrinsic(value):
    """``(function, argument)`` when ``value`` is ``{get_resource|get_attr|get_param: argument}``."""
    if isinstance(value, dict) and len(value) == 1:
        (key, argument), = value.items()
        if key in INTRINSICS:
            return key, argument
    return None, None


def rewrite(value, replace):
    """A copy of ``value`` where each intrinsic call is replaced by ``replace(function, argument)``.

    ``replace`` returns the new node, or None to keep the call as it is.
    """
    function, argument = intrinsic(value)
    if function is not None:
        replaced = replace(function, argument)
        return copy.deepcopy(value) if replaced is None else replaced
    if isinstance(value, dict):
        return {key: rewrite(item, replace) for key, item in value.items()}
    if isinstance(value, list):
        return [rewrite(item, replace) for item in value]
    return copy.deepcopy(value)


def calls(value, function):
    """The arguments of every ``function`` call inside ``value``, in document order."""
    found = []

    def collect(name, argument):
        if name == function:
            found.append(argument)

    _visit(value, collect)
    return found


def _visit(value, visitor):
    function, argument = intrinsic(value)
    if function is not None:
        visitor(function, argument)
        if function == "get_attr":
            _visit(argument, visitor)
        return
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for item in children:
        _visit(item, visitor)


def referenced_resources(resource):
    """Names of the resources a resource refers to: get_resource, get_attr and depends_on."""
    names = [arg for arg in calls(resource, "get_resource") if isinstance(arg, str)]
    names += [arg[0] for arg in calls(resource, "get_attr") if isinstance(arg, list) and arg and isinstance(arg[0], str)]
    depends_on = resource.get("depends_on") if isinstance(resource, dict) else None
    names += [depends_on] if isinstance(depends_on, str) else list(depends_on or [])
    return set(names)


def nfv_reads(value):
    """Every ``get_param: [nfv, ...]`` path inside ``value`` (as lists)."""
    return [
        list(path) for path in calls(value, "get_param")
        if isinstance(path, list) and len(path) > 1 and path[0] == NFV_PARAM
    ]


def lookup(nfv, path):
    """``(True, value)`` for the value at ``path`` ([section, key, ...]) inside ``nfv``, else ``(False, None)``."""
    current = nfv
    for step in path:
        if isinstance(current, dict) and step in current:
            current = current[step]
        elif isinstance(current, list) and isinstance(step, int) and -len(current) <= step < len(current):
            current = current[step]
        elif isinstance(current, list) and isinstance(step, str) and step.isdigit() and int(step) < len(current):
            current = current[int(step)]
        else:
            return False, None
    return True, current


def unresolved_nfv_params(template, nfv):
    """The nfv paths the template reads that ``nfv`` does not provide (sorted, without duplicates).

    Heat turns such a read into an empty string: harmless for an optional property (a server name or
    zone), a late and obscure failure for a network or flavour. Callers can warn or fail up front.
    """
    missing = set()
    for path in nfv_reads(template.get("resources") or {}):
        found, value = lookup(nfv, path[1:])
        if not found or value is None:
            missing.add(tuple(str(step) for step in path))
    return [list(path) for path in sorted(missing)]


# ---------------------------------------------------------------------------------------------
# One resource per VNFC

def vnfc_members(resources, root):
    """The top-level resources that make up one VNFC of ``root``, in template order.

    ``root`` itself, plus the ports, volumes and floating IPs linked to it (either way, transitively).
    Networks, server groups and the like are shared and stay single.
    """
    members = {root}
    grew = True
    while grew:
        grew = False
        for name, resource in resources.items():
            if name in members or not _is_per_vnfc(resource):
                continue
            refs = referenced_resources(resource)
            linked = refs & members or any(name in referenced_resources(resources[member]) for member in members)
            if linked:
                members.add(name)
                grew = True
    return [name for name in resources if name in members]


def _is_per_vnfc(resource):
    return isinstance(resource, dict) and resource.get("type") in PER_VNFC_TYPES


def expand_per_vnfc(template, counts):
    """A copy of ``template`` with each VDU resource (and its own ports/volumes) once per VNFC.

    ``counts`` maps VDU id to its number of VNFCs (or to their indexes); ``VDU1: 2`` turns resource
    ``VDU1`` into ``VDU1-0`` and ``VDU1-1``, rewrites ``[nfv, VDU|CP, X, ...]`` reads inside them to ``X-<idx>``
    and their references to each other to the indexed names. A count of 0 removes the VDU.
    """
    resources = template.get("resources") or {}
    groups = _vnfc_groups(resources, counts)
    owner = {member: vdu for vdu, members in groups.items() for member in members}
    _check_no_outside_references(template, owner)
    expanded = {}
    for name, resource in resources.items():
        vdu = owner.get(name)
        if vdu is None:
            expanded[name] = copy.deepcopy(resource)
            continue
        for index in vnfc_indexes(counts[vdu]):
            expanded[vnfc_name(name, index)] = index_resource(resource, set(groups[vdu]), index)
    result = copy.deepcopy(template)
    result["resources"] = expanded
    return result


def _vnfc_groups(resources, counts):
    groups = {}
    claimed = {}
    for vdu in counts:
        if vdu not in resources:
            raise PackageError(None, "the top Heat template has no resource for VDU {0}".format(vdu))
        groups[vdu] = vnfc_members(resources, vdu)
        for member in groups[vdu]:
            if member in claimed:
                raise PackageError(None, "Heat resource {0} is linked to both VDU {1} and VDU {2}; a VNFC cannot share it".format(
                    member, claimed[member], vdu))
            claimed[member] = vdu
    return groups


def _check_no_outside_references(template, owner):
    """Nothing outside a VDU's resources may refer to them: after expansion the name no longer exists."""
    places = [("resource " + name, resource) for name, resource in (template.get("resources") or {}).items() if name not in owner]
    places += [("output " + name, output) for name, output in (template.get("outputs") or {}).items()]
    for place, value in places:
        refs = sorted(referenced_resources(value) & set(owner)) if isinstance(value, dict) else []
        if refs:
            raise PackageError(None, "{0} of the top Heat template refers to {1}, which becomes one resource per VNFC".format(
                place, ", ".join(refs)))


def index_resource(resource, members, index):
    """One VNFC's copy of a VDU resource: nfv reads and references to ``members`` get ``-<index>``."""
    def replace(function, argument):
        if function == "get_param" and _is_indexed_read(argument):
            path = list(argument)
            path[2] = vnfc_name(path[2], index)
            return {function: path}
        if function == "get_resource" and argument in members:
            return {function: vnfc_name(argument, index)}
        if function == "get_attr" and isinstance(argument, list) and argument and argument[0] in members:
            return {function: [vnfc_name(argument[0], index)] + copy.deepcopy(argument[1:])}
        return None

    copied = rewrite(resource, replace)
    depends_on = copied.get("depends_on")
    if isinstance(depends_on, str):
        copied["depends_on"] = vnfc_name(depends_on, index) if depends_on in members else depends_on
    elif isinstance(depends_on, list):
        copied["depends_on"] = [vnfc_name(name, index) if name in members else name for name in depends_on]
    return copied


def _is_indexed_read(path):
    return isinstance(path, list) and len(path) >= 4 and path[0] == NFV_PARAM and path[1] in INDEXED_SECTIONS and isinstance(path[2], str)


# ---------------------------------------------------------------------------------------------
# Networks the NFVO manages (extManagedVirtualLinks)

def use_external_networks(template, vl_ids):
    """A copy of ``template`` where the internal VLs ``vl_ids`` are networks given in the nfv parameter.

    The VL's OS::Neutron::Net and its subnets are dropped and ``{get_resource: <VL>}`` becomes
    ``{get_param: [nfv, VL, <VL>, network]}``, so the network id lives in the parameters (and a later
    change of it is a parameter change, not a template change).
    """
    resources = template.get("resources") or {}
    dropped = set()
    for vl_id in vl_ids:
        if vl_id not in resources:
            raise PackageError(None, "the top Heat template has no resource for virtual link {0}".format(vl_id))
        dropped.add(vl_id)
        dropped.update(name for name, resource in resources.items() if _is_subnet_of(resource, vl_id))

    def replace(function, argument):
        if function == "get_resource" and argument in vl_ids:
            return {"get_param": [NFV_PARAM, VL_SECTION, argument, "network"]}
        return None

    kept = {name: rewrite(resource, replace) for name, resource in resources.items() if name not in dropped}
    _check_no_dangling(kept, dropped)
    result = copy.deepcopy(template)
    result["resources"] = kept
    return result


def _is_subnet_of(resource, vl_id):
    if not isinstance(resource, dict) or resource.get("type") != SUBNET_TYPE:
        return False
    network = (resource.get("properties") or {}).get("network")
    return intrinsic(network) == ("get_resource", vl_id)


def _check_no_dangling(resources, dropped):
    for name, resource in resources.items():
        dangling = sorted(referenced_resources(resource) & dropped)
        if dangling:
            raise PackageError(None, "Heat resource {0} refers to {1}, which an externally managed network replaces".format(
                name, ", ".join(dangling)))


def build_stack_template(template, counts, external_vl_ids=()):
    """The template a stack gets: one resource per VNFC, NFVO-managed VLs read from the nfv parameter, and every
    user of a network of the stack created after that network's subnets."""
    expanded = expand_per_vnfc(template, counts)
    return after_subnets(use_external_networks(expanded, list(external_vl_ids)) if external_vl_ids else expanded)


def after_subnets(template):
    """``template`` with each resource that refers to a network of the stack depending on that network's subnets.

    Heat orders a port or a server after the subnets of its network, but not a nested template or a scaling group
    that is given the network (Tacker's samples pass ``{get_resource: <net>}`` to one): the ports inside could be
    created before the subnet, with no address, and Nova then refuses them ("requires a FixedIP").
    """
    resources = template.get("resources") or {}
    subnets = {}
    for name, resource in resources.items():
        if isinstance(resource, dict) and resource.get("type") == SUBNET_TYPE:
            function, network = intrinsic((resource.get("properties") or {}).get("network"))
            if function == "get_resource" and isinstance(network, str) and (resources.get(network) or {}).get("type") == NET_TYPE:
                subnets.setdefault(network, []).append(name)
    reached = {subnet: _reached_from(resources, subnet) for names in subnets.values() for subnet in names}
    changed = {}
    for name, resource in resources.items():
        if not isinstance(resource, dict) or resource.get("type") in (SUBNET_TYPE, PORT_TYPE, SERVER_TYPE):
            continue  # Heat orders these itself
        wanted = sorted(subnet for net in referenced_resources(resource) for subnet in subnets.get(net, ()) if name not in reached[subnet])
        depends_on = resource.get("depends_on")
        names = [depends_on] if isinstance(depends_on, str) else list(depends_on or [])
        missing = [subnet for subnet in wanted if subnet not in names]
        if missing:
            changed[name] = dict(resource, depends_on=names + missing)
    if not changed:
        return template
    return dict(template, resources={name: changed.get(name, resource) for name, resource in resources.items()})


def _reached_from(resources, start):
    """Names of the resources ``start`` refers to, directly or not (a dependency on one of them would be a loop)."""
    seen, todo = set(), [start]
    while todo:
        for name in referenced_resources(resources.get(todo.pop()) or {}):
            if name not in seen and name in resources:
                seen.add(name)
                todo.append(name)
    return seen
