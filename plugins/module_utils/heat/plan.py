# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What a stack update would change, per VNFC, computed from templates and parameters alone.

``stack_plan(current, desired)`` compares two ``(template, files, nfv)`` stacks the way Heat would see
them: each VNFC's server, ports and volumes with every ``get_param`` resolved (through the nested
template's parameters down to the nfv values). It is the basis of check mode and of the change of
VNF package; ``is_noop`` says that no stack update needs to be sent at all.
"""

from __future__ import annotations

import copy

from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.template import (
    NET_TYPE,
    NFV_PARAM,
    PORT_TYPE,
    SERVER_TYPE,
    SUBNET_TYPE,
    VL_SECTION,
    VOLUME_TYPE,
    intrinsic,
    is_template_file,
    lookup,
    rewrite,
    split_vnfc_name,
    vnfc_members,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.yaml_loader import parse_yaml

# Server properties Heat cannot change in place: a change re-creates the server.
REPLACING_SERVER_PROPERTIES = (
    "availability_zone",
    "block_device_mapping",
    "block_device_mapping_v2",
    "config_drive",
    "key_name",
    "personality",
    "scheduler_hints",
    "user_data",
    "user_data_format",
)
# Server properties the plan reports through their own change kinds.
OWN_KIND_PROPERTIES = ("flavor", "image", "networks")
# Strongest effect first: what a VNFC with several changes undergoes.
EFFECTS = ("replace", "rebuild", "resize", "update")


def stack_plan(current, desired):
    """The difference between two stacks, each ``(template, files, nfv)`` or a dict with those keys.

    Returns ``{"is_noop", "template_changed", "files_changed", "nfv_changed", "vnfcs", "virtual_links",
    "other_resources", "summary"}``; ``vnfcs`` lists each VNFC resource with its ``action``
    (add/remove/update/none), ``effect`` and ``changes`` (resize, rebuild, replace, port_moved, ...).
    """
    before, after = normalised_stack(current), normalised_stack(desired)
    files_changed = sorted(
        name for name in set(before["files"]) | set(after["files"])
        if _parsed_file(before["files"], name) != _parsed_file(after["files"], name)
    )
    template_changed = before["template"] != after["template"]
    nfv_changed = before["nfv"] != after["nfv"]
    vnfcs = vnfc_changes(before, after)
    plan = {
        "is_noop": not (template_changed or files_changed or nfv_changed),
        "template_changed": template_changed,
        "files_changed": files_changed,
        "nfv_changed": nfv_changed,
        "vnfcs": vnfcs,
        "virtual_links": named_changes(virtual_links(before), virtual_links(after)),
        "other_resources": named_changes(other_resources(before), other_resources(after)),
    }
    plan["summary"] = summarize(vnfcs)
    return plan


def normalised_stack(stack):
    """``{"template", "files", "nfv"}`` from such a dict or a ``(template, files, nfv)`` tuple."""
    if isinstance(stack, dict):
        template, files, nfv = stack.get("template"), stack.get("files"), stack.get("nfv")
    else:
        template, files, nfv = stack
    return {"template": template or {}, "files": files or {}, "nfv": nfv or {}}


def _parsed_file(files, name):
    """A nested template as data, so that a re-serialised but equal file is no change."""
    content = files.get(name)
    return parse_yaml(content, name) if isinstance(content, (str, bytes)) else content


def stack_resources(stack):
    return stack["template"].get("resources") or {}


# ---------------------------------------------------------------------------------------------
# Resolving get_param the way Heat does

def resolve(value, nfv, params=None):
    """``value`` with nfv reads (and, in a nested template, its parameters) replaced by their values.

    Reads that nothing provides are kept as they are, so the plan shows them; get_resource stays.
    """
    def replace(function, argument):
        if function != "get_param":
            return None
        path = argument if isinstance(argument, list) else [argument]
        if params is None and path and path[0] == NFV_PARAM:
            found, resolved = lookup(nfv, path[1:])
        elif params is not None and path and isinstance(path[0], str) and path[0] in params:
            found, resolved = lookup(params[path[0]], path[1:])
        else:
            found, resolved = False, None
        return copy.deepcopy(resolved) if found else None

    return rewrite(value, replace)


# ---------------------------------------------------------------------------------------------
# VNFCs

def vnfc_resources(template):
    """Name -> ``(vdu, index)`` of the per-VNFC resources (``VDU1-0``: a server or a nested template)."""
    found = {}
    for name, resource in (template.get("resources") or {}).items():
        vdu, index = split_vnfc_name(name)
        resource_type = resource.get("type") if isinstance(resource, dict) else None
        if index is not None and (resource_type == SERVER_TYPE or is_template_file(resource_type)):
            found[name] = (vdu, index)
    return found


def vnfc_view(stack, name):
    """One VNFC as Heat builds it: ``{"type", "servers", "ports", "volumes", "others"}`` with values resolved.

    Ports and volumes are keyed by their CP / storage name (without the VNFC index).
    """
    resources = stack_resources(stack)
    resource = resources[name]
    resource_type = resource.get("type")
    if is_template_file(resource_type):
        params = resolve(resource.get("properties") or {}, stack["nfv"])
        nested = _parsed_file(stack["files"], resource_type) or {}
        parts = {part: resolve(item, stack["nfv"], params) for part, item in (nested.get("resources") or {}).items()}
    else:
        parts = {split_vnfc_name(member)[0]: resolve(resources[member], stack["nfv"]) for member in vnfc_members(resources, name)}
    view = {"type": resource_type, "servers": {}, "ports": {}, "volumes": {}, "others": {}}
    bucket = {SERVER_TYPE: "servers", PORT_TYPE: "ports", VOLUME_TYPE: "volumes"}
    for part, item in parts.items():
        item_type = item.get("type") if isinstance(item, dict) else None
        view[bucket.get(item_type, "others")][part] = (item or {}).get("properties") or {}
    return view


def vnfc_changes(before, after):
    """Per VNFC resource (sorted by VDU and index): action, effect and changes."""
    old, new = vnfc_resources(before["template"]), vnfc_resources(after["template"])
    entries = []
    for name in sorted(set(old) | set(new), key=lambda item: (old.get(item) or new.get(item))):
        vdu, index = old.get(name) or new.get(name)
        entry = {"name": name, "vdu": vdu, "index": index}
        if name not in old:
            entry.update(action="add", effect="create", changes=[])
        elif name not in new:
            entry.update(action="remove", effect="delete", changes=[])
        else:
            changes = compare_vnfc(vnfc_view(before, name), vnfc_view(after, name))
            effect = strongest_effect(changes)
            entry.update(action="update" if changes else "none", effect=effect, changes=changes)
        entries.append(entry)
    return entries


def compare_vnfc(old, new):
    """The changes between two views of one VNFC, in a fixed order."""
    changes = []
    if old["type"] != new["type"]:
        changes.append({"kind": "template", "from": old["type"], "to": new["type"]})
    changes += _server_changes(old["servers"], new["servers"])
    changes += _volume_changes(old["volumes"], new["volumes"])
    changes += _port_changes(old["ports"], new["ports"])
    for name in _changed_names(old["others"], new["others"]):
        changes.append({"kind": "resource", "resource": name, "from": old["others"].get(name), "to": new["others"].get(name)})
    if not changes and old != new:
        changes.append({"kind": "update", "properties": []})
    return changes


def _changed_names(old, new):
    return sorted(name for name in set(old) | set(new) if old.get(name) != new.get(name))


def _server_changes(old, new):
    changes = []
    for name in _changed_names(old, new):
        if name not in old or name not in new:
            changes.append({"kind": "replace", "reason": "server {0} {1}".format(name, "added" if name in new else "removed")})
            continue
        before, after = old[name], new[name]
        if before.get("flavor") != after.get("flavor"):
            changes.append({"kind": "resize", "server": name, "from": before.get("flavor"), "to": after.get("flavor")})
        if before.get("image") != after.get("image"):
            changes.append({"kind": "rebuild", "server": name, "from": before.get("image"), "to": after.get("image")})
        others = [key for key in _changed_names(before, after) if key not in OWN_KIND_PROPERTIES]
        replacing = [key for key in others if key in REPLACING_SERVER_PROPERTIES]
        if replacing:
            changes.append({"kind": "replace", "server": name, "reason": "changed " + ", ".join(replacing)})
        in_place = [key for key in others if key not in REPLACING_SERVER_PROPERTIES]
        if in_place:
            changes.append({"kind": "update", "server": name, "properties": in_place})
    return changes


def _volume_changes(old, new):
    changes = []
    for name in _changed_names(old, new):
        if name not in old or name not in new:
            changes.append({"kind": "volume_added" if name in new else "volume_removed", "volume": name})
            continue
        before, after = old[name], new[name]
        if before.get("image") != after.get("image"):
            # A volume's image cannot change: Heat re-creates the volume and the server that uses it.
            changes.append({"kind": "replace", "volume": name, "reason": "image of volume {0} changed".format(name),
                            "from": before.get("image"), "to": after.get("image")})
        others = [key for key in _changed_names(before, after) if key != "image"]
        if others:
            changes.append({"kind": "volume_changed", "volume": name, "properties": others})
    return changes


def _port_changes(old, new):
    changes = []
    for name in _changed_names(old, new):
        if name not in old or name not in new:
            changes.append({"kind": "cp_added" if name in new else "cp_removed", "cp": name, "network": _attachment(new[name] if name in new else old[name])})
            continue
        before, after = old[name], new[name]
        if _attachment(before) != _attachment(after):
            changes.append({"kind": "port_moved", "cp": name, "from": _attachment(before), "to": _attachment(after)})
        if before.get("fixed_ips") != after.get("fixed_ips"):
            changes.append({"kind": "fixed_ips_changed", "cp": name, "from": before.get("fixed_ips"), "to": after.get("fixed_ips")})
        others = [key for key in _changed_names(before, after) if key not in ("network", "network_id", "fixed_ips")]
        if others:
            changes.append({"kind": "port_changed", "cp": name, "properties": others})
    return changes


def _attachment(port_properties):
    """Where a port is: a network id, or ``internal VL <name>`` for a network of the stack."""
    network = port_properties.get("network", port_properties.get("network_id"))
    function, argument = intrinsic(network)
    if function == "get_resource":
        return "internal VL {0}".format(argument)
    return network


def strongest_effect(changes):
    kinds = {change["kind"] for change in changes}
    for effect in EFFECTS:
        if effect in kinds:
            return effect
    return "update" if changes else "none"


def summarize(vnfcs):
    """VNFC names per outcome: added, removed, replaced, rebuilt, resized, updated (each sorted)."""
    summary = {"added": [], "removed": [], "replaced": [], "rebuilt": [], "resized": [], "updated": []}
    past = {"add": "added", "remove": "removed"}
    for entry in vnfcs:
        if entry["action"] in past:
            summary[past[entry["action"]]].append(entry["name"])
            continue
        kinds = {change["kind"] for change in entry["changes"]}
        for kind, key in (("replace", "replaced"), ("rebuild", "rebuilt"), ("resize", "resized")):
            if kind in kinds:
                summary[key].append(entry["name"])
        if entry["changes"] and not kinds & {"replace", "rebuild", "resize"}:
            summary["updated"].append(entry["name"])
    return {key: sorted(names) for key, names in summary.items()}


# ---------------------------------------------------------------------------------------------
# Virtual links and everything else

def virtual_links(stack):
    """VL name -> where it comes from: a network of the stack (with its subnets) or one the NFVO gave."""
    resources = stack_resources(stack)
    links = {}
    for name, resource in resources.items():
        if isinstance(resource, dict) and resource.get("type") == NET_TYPE:
            subnets = {
                subnet: resolve(resources[subnet].get("properties") or {}, stack["nfv"])
                for subnet in _subnets_of(resources, name)
            }
            links[name] = {"managed_by": "stack", "properties": resolve(resource.get("properties") or {}, stack["nfv"]), "subnets": subnets}
    for name, value in (stack["nfv"].get(VL_SECTION) or {}).items():
        links[name] = {"managed_by": "nfvo", "network": (value or {}).get("network")}
    return links


def _subnets_of(resources, net_name):
    return [
        name for name, resource in resources.items()
        if isinstance(resource, dict) and resource.get("type") == SUBNET_TYPE
        and intrinsic((resource.get("properties") or {}).get("network")) == ("get_resource", net_name)
    ]


def other_resources(stack):
    """Top-level resources that are neither VNFC parts nor internal VLs, resolved against nfv."""
    resources = stack_resources(stack)
    taken = set()
    for name in vnfc_resources(stack["template"]):
        taken.update(vnfc_members(resources, name))
    for name, resource in resources.items():
        if isinstance(resource, dict) and resource.get("type") == NET_TYPE:
            taken.add(name)
            taken.update(_subnets_of(resources, name))
    return {name: resolve(resource, stack["nfv"]) for name, resource in resources.items() if name not in taken}


def named_changes(old, new):
    """``{"added", "removed", "changed"}`` between two name -> value maps (``changed`` with from/to)."""
    return {
        "added": sorted(set(new) - set(old)),
        "removed": sorted(set(old) - set(new)),
        "changed": [{"name": name, "from": old[name], "to": new[name]} for name in sorted(set(old) & set(new)) if old[name] != new[name]],
    }


def plan_lines(plan):
    """The plan as short human-readable lines (for ``plan`` in module results)."""
    if plan["is_noop"]:
        return ["no change: the stack already has this template and these parameters"]
    lines = []
    for entry in plan["vnfcs"]:
        if entry["action"] == "none":
            continue
        if entry["action"] != "update":
            lines.append("{0}: {1}".format(entry["name"], entry["effect"]))
        for change in entry["changes"]:
            lines.append("{0}: {1}".format(entry["name"], describe_change(change)))
    links = plan["virtual_links"]
    lines += ["virtual link {0}: added".format(name) for name in links["added"]]
    lines += ["virtual link {0}: removed".format(name) for name in links["removed"]]
    lines += ["virtual link {0}: changed".format(change["name"]) for change in links["changed"]]
    others = plan["other_resources"]
    for key in ("added", "removed"):
        lines += ["resource {0}: {1}".format(name, key) for name in others[key]]
    lines += ["resource {0}: changed".format(change["name"]) for change in others["changed"]]
    return lines or ["stack parameters change without effect on VNFC resources"]


def describe_change(change):
    kind = change["kind"]
    subject = change.get("cp") or change.get("volume") or change.get("server") or change.get("resource") or ""
    text = "{0} {1}".format(kind, subject).strip()
    if "from" in change or "to" in change:
        text += " ({0} -> {1})".format(change.get("from"), change.get("to"))
    if change.get("network"):
        text += " on {0}".format(change["network"])
    if change.get("reason"):
        text += ": " + change["reason"]
    if change.get("properties"):
        text += ": " + ", ".join(change["properties"])
    return text
