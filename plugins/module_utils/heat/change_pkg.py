# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Change of the current VNF package of a VM-based VNF (one Heat stack): the pure planning part.

Tacker v2 StandardUserData semantics: the new package's BaseHOT is applied with one Heat resource per
VNFC; the VNFCs of the VDUs named in ``additionalParams.vdu_params`` are moved to their new form one at
a time (RollingUpdate), VNFCs of other VDUs keep their current resources and nfv values.

Stacks are ``{"template", "files", "nfv"}`` dicts (``heat.plan`` also takes tuples). Nothing here calls
the cloud: the caller reads the current stack, resolves image names, and PATCHes each step.
"""

from __future__ import annotations

import copy

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import private_state
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import nfv_params
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.change_pkg_groups import member_definition
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.form import STANDARD_FORM
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import template as heat_template
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import with_record_resource
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.plan import (
    normalised_stack,
    plan_lines,
    stack_plan,
    stack_resources,
    vnfc_resources,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.yaml_loader import parse_yaml
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.change_pkg import WHAT, new_flavour, validate_rolling_update


# ---------------------------------------------------------------------------------------------
# Validation (everything is checked before the first stack write)

def validate_change_pkg(request, instance, new_vnfd, new_template=None, current_request=None):
    """The normalised request, or ValidationError naming the field at fault.

    On top of ``sol.validation`` (schema, vnfdId, cpdIds and vdu_ids known): upgrade_type must be given
    and be RollingUpdate, vdu_params must name each VDU once, and every external CP the new templates
    read must end up on a network (``new_template``: the new top template, before per-VNFC expansion).
    ``current_request`` is the connectivity the instance has now (the record's private request).
    """
    request = validate_rolling_update(request, instance, new_vnfd)
    flavour = new_flavour(new_vnfd, instance)
    # The request's own managed links first, so that an error names the request's indexes, not the merged list's.
    nfv_params.managed_networks(flavour, request.get("extManagedVirtualLinks") or [], WHAT)
    if current_request is None:
        current_request = private_state(instance).get("request") or {}
    links = effective_connectivity(current_request, request, flavour)
    # cp_params checks each effective link against the new flavour (a CP connected twice, or internal).
    nfv_params.cp_params(flavour, links["extVirtualLinks"], {vdu: 1 for vdu in flavour.get("vdus") or {}}, WHAT)
    if new_template is not None:
        _check_new_cps_connected(new_template, flavour, links["extVirtualLinks"])
    return request


def _check_new_cps_connected(template, flavour, ext_virtual_links):
    """An external CP the new top template reads ([nfv, CP, <cp>, ...]) needs a network from extVirtualLinks."""
    connected = {ext_cp.get("cpdId") for link in ext_virtual_links for ext_cp in link.get("extCps") or []}
    cps = flavour.get("cps") or {}
    read = sorted({path[2] for path in heat_template.nfv_reads(template.get("resources") or {}) if len(path) > 2 and path[1] == "CP"})
    for cp_id in read:
        cp = cps.get(cp_id)
        if cp is not None and not cp.get("virtual_link") and cp_id not in connected:
            raise ValidationError(WHAT, "extVirtualLinks", "CP {0} of the new VNFD has no network: give it an extCps entry (cpdId {0})".format(cp_id))


# ---------------------------------------------------------------------------------------------
# Connectivity after the change

def effective_connectivity(current_request, request, flavour):
    """extVirtualLinks / extManagedVirtualLinks the new stack is built from.

    SOL003: the request lists only what changes. A CP the request connects leaves the link it was on
    (a moved port); a CP or VL the new flavour no longer has (or has made internal) is dropped; links
    left without CPs disappear. External links with the same id are replaced (``nfv_params.effective_links``),
    managed links of the same VL whatever their id (``nfv_params.effective_managed_links``).
    """
    cps = flavour.get("cps") or {}
    requested = request.get("extVirtualLinks") or []
    moved = {ext_cp.get("cpdId") for link in requested for ext_cp in link.get("extCps") or []}
    kept = []
    for link in current_request.get("extVirtualLinks") or []:
        ext_cps = [ext_cp for ext_cp in link.get("extCps") or []
                   if ext_cp.get("cpdId") not in moved and ext_cp.get("cpdId") in cps and not cps[ext_cp["cpdId"]].get("virtual_link")]
        if ext_cps:
            kept.append(dict(link, extCps=ext_cps))
    virtual_links = flavour.get("virtual_links") or {}
    managed = [link for link in current_request.get("extManagedVirtualLinks") or [] if link.get("vnfVirtualLinkDescId") in virtual_links]
    return {
        "extVirtualLinks": nfv_params.effective_links(kept, requested),
        "extManagedVirtualLinks": nfv_params.effective_managed_links(managed, request.get("extManagedVirtualLinks") or []),
    }


def effective_request(current_request, request, flavour):
    """The instantiate-like request the new stack corresponds to (what the record keeps afterwards)."""
    result = {key: copy.deepcopy(value) for key, value in current_request.items() if key not in ("extVirtualLinks", "extManagedVirtualLinks")}
    result.update(copy.deepcopy(effective_connectivity(current_request, request, flavour)))
    nfv_patch = (request.get("additionalParams") or {}).get("nfv")
    result["additionalParams"] = {"nfv": copy.deepcopy(nfv_patch)} if nfv_patch is not None else {}
    return result


# ---------------------------------------------------------------------------------------------
# The stack the new package gives

def new_counts(flavour, current_indexes):
    """VDU -> VNFC indexes in the new stack: the instance's own (a change of package does not scale).

    VDUs of the new flavour the instance has no VNFC of get none (Tacker creates no VNFC either).
    """
    return {vdu_id: list(current_indexes.get(vdu_id) or []) for vdu_id in sorted(flavour.get("vdus") or {})}


def desired_stack(flavour, base_template, files, request, current_request, current_indexes, image_ids=None, form=STANDARD_FORM):
    """``{"template", "files", "nfv"}`` of the whole stack in the new package's form.

    ``base_template`` / ``files``: the new flavour's BaseHOT (``template.load_base_hot``) of the template form ``form``;
    ``image_ids`` maps image names of the new VNFD to Glance ids. additionalParams.nfv of the change is merged last.
    """
    counts = new_counts(flavour, current_indexes)
    wanted = effective_request(current_request, request, flavour)
    managed = [link["vnfVirtualLinkDescId"] for link in wanted.get("extManagedVirtualLinks") or []]
    try:
        template = form.stack_template(base_template, counts, managed)
    except PackageError as error:
        raise ValidationError(WHAT, "vnfdId", "the new package cannot be deployed on this stack: {0}".format(error.reason))
    nfv = nfv_params.build_nfv(flavour, wanted, counts, what=WHAT, form=form)
    # The record's resource goes on: it is what keeps the record through every update.
    return {"template": with_record_resource(template), "files": copy.deepcopy(files), "nfv": nfv_params.with_image_ids(nfv, image_ids or {})}


# ---------------------------------------------------------------------------------------------
# Rolling update: one VNFC at a time

def vnfc_order(current, desired, vdu_ids):
    """The VNFC resource names of ``vdu_ids`` in update order: VDUs as named, then by index."""
    found = {}
    for stack in (current, desired):
        for name, (vdu, index) in vnfc_resources(normalised_stack(stack)["template"]).items():
            found[name] = (vdu, index)
    position = {vdu: rank for rank, vdu in enumerate(vdu_ids)}
    return sorted((name for name, (vdu, _index) in found.items() if vdu in position), key=lambda name: (position[found[name][0]], found[name][1]))


def intermediate_stack(current, desired, switched):
    """The stack where the VNFCs ``switched`` have their desired form and every other VNFC its current one.

    Shared resources (nets, subnets, server groups) come in their desired form as soon as a switched
    VNFC needs them, stay in their current form while only unswitched VNFCs need them, and go when
    nobody does. Resources no VNFC uses take the desired form. nfv entries follow the same rule.
    """
    before, after = normalised_stack(current), normalised_stack(desired)
    old_res, new_res = stack_resources(before), stack_resources(after)
    switched = set(switched)
    old_vnfcs, new_vnfcs = vnfc_resources(before["template"]), vnfc_resources(after["template"])
    keep = [name for name in old_vnfcs if name not in switched]
    take = [name for name in new_vnfcs if name in switched]
    old_members = _members(old_res, keep)
    new_members = _members(new_res, take)
    all_new, all_old = _members(new_res, new_vnfcs), _members(old_res, old_vnfcs)
    new_shared = _shared_closure(new_res, new_members, all_new)
    old_shared = _shared_closure(old_res, old_members, all_old)
    # Neither a VNFC part nor used by one (the record resource, say): nothing to roll.
    used = all_new | _shared_closure(new_res, all_new, all_new)
    standalone = [name for name in new_res if name not in used]
    from_new = [name for name in new_res if name in new_members or name in new_shared or name in standalone]
    from_old = [name for name in old_res if (name in old_members or name in old_shared) and name not in from_new]
    resources = {name: copy.deepcopy(new_res[name]) for name in from_new}
    resources.update({name: copy.deepcopy(old_res[name]) for name in from_old})
    template = {key: copy.deepcopy(value) for key, value in after["template"].items() if key != "resources"}
    template["resources"] = resources
    files = _step_files([new_res[name] for name in from_new], after["files"], [old_res[name] for name in from_old], before["files"])
    nfv = _step_nfv(before, after, [new_res[name] for name in from_new], [old_res[name] for name in from_old], keep, take)
    return {"template": template, "files": files, "nfv": nfv}


def target_stack(current, desired, vdu_ids):
    """The desired stack restricted to the VDUs ``vdu_ids``: what the last rolling step sends."""
    return intermediate_stack(current, desired, vnfc_order(current, desired, vdu_ids))


def rolling_steps(current, desired, vdu_ids):
    """``[{"vnfc", "stack", "plan"}]``: one stack update per VNFC of ``vdu_ids`` whose switch changes the stack.

    Each step switches one more VNFC to its desired form; ``plan`` is ``stack_plan`` from the previous
    step. A VNFC already in its desired form gives no step, so a re-run after success has none.
    """
    steps = []
    previous = normalised_stack(current)
    switched = []
    for name in vnfc_order(current, desired, vdu_ids):
        switched.append(name)
        stack = intermediate_stack(current, desired, switched)
        plan = stack_plan(previous, stack)
        if plan["is_noop"]:
            continue
        steps.append({"vnfc": name, "stack": stack, "plan": plan})
        previous = stack
    return steps


def _members(resources, vnfcs):
    members = set()
    for name in vnfcs:
        members.update(heat_template.vnfc_members(resources, name))
    return members


def _shared_closure(resources, roots, per_vnfc):
    """Shared resources ``roots`` use, transitively, plus those that hang on them (a subnet on its net)."""
    needed = set()
    pending = set().union(*[heat_template.referenced_resources(resources[name]) for name in roots]) if roots else set()
    while True:
        while pending:
            name = pending.pop()
            if name in needed or name in per_vnfc or name not in resources:
                continue
            needed.add(name)
            pending.update(heat_template.referenced_resources(resources[name]))
        hanging = {name for name, resource in resources.items()
                   if name not in needed and name not in per_vnfc and heat_template.referenced_resources(resource) & needed}
        if not hanging:
            return needed
        pending = hanging


def _step_files(new_parts, new_files, old_parts, old_files):
    """Nested templates the step's resources use, each from the package its resource comes from; a name both use is
    the new package's, as Tacker v2's update gives Heat the new package's files (see :func:`kept_vdus_taking_templates`)."""
    files = {}
    for parts, source in ((new_parts, new_files), (old_parts, old_files)):
        pending = [resource.get("type") for resource in parts if isinstance(resource, dict) and heat_template.is_template_file(resource.get("type"))]
        while pending:
            name = pending.pop()
            if name not in source or name in files:
                continue
            files[name] = source[name]
            pending.extend(heat_template.template_file_references(_parsed(source[name], name)))
    return files


def kept_vdus_taking_templates(current, desired, vdu_ids):
    """``{VDU: [nested template, ...]}``: VDUs not in ``vdu_ids`` whose VNFCs keep their resources but use a nested
    template (by name) that the new package changes and a rolled VNFC also uses. Heat has one file per name, so, as
    with Tacker v2 (whose stack update sends the new package's files), those VNFCs take the new template with the
    update that brings it: in place, not one at a time and with no coordination script, their nfv values (image,
    flavour) as deployed."""
    before = normalised_stack(current)
    target = target_stack(current, desired, vdu_ids)
    old_res = stack_resources(before)
    found = {}
    for name, (vdu, _index) in sorted(vnfc_resources(before["template"]).items()):
        if vdu in vdu_ids:
            continue
        used = _step_files([], {}, [old_res[member] for member in heat_template.vnfc_members(old_res, name)], before["files"])
        changed = sorted(file for file in used if file in target["files"] and _parsed(target["files"][file], file) != _parsed(used[file], file))
        if changed:
            found.setdefault(vdu, set()).update(changed)
    return {vdu: sorted(files) for vdu, files in found.items()}


def _parsed(content, name):
    return parse_yaml(content, name) if isinstance(content, (str, bytes)) else content


def _step_nfv(before, after, new_parts, old_parts, keep, take):
    """nfv entries: a VNFC's own (VDU/CP keys it reads) follow the VNFC; shared ones follow their readers."""
    old_res, new_res = stack_resources(before), stack_resources(after)
    owner = {}
    for resources, names in ((old_res, vnfc_resources(before["template"])), (new_res, vnfc_resources(after["template"]))):
        for name in names:
            for path in _reads([resources[member] for member in heat_template.vnfc_members(resources, name)]):
                if path[0] in heat_template.INDEXED_SECTIONS:
                    owner.setdefault(path, set()).add(name)
    read_new, read_old = set(_reads(new_parts)), set(_reads(old_parts))
    nfv = {}
    keys = {(section, key) for stack in (before, after) for section, entries in stack["nfv"].items() if isinstance(entries, dict) for key in entries}
    for section, key in sorted(keys):
        path = (section, key)
        if path in owner:
            source = after if owner[path] & set(take) else before if owner[path] & set(keep) else after
        else:
            source = after if path in read_new else before if path in read_old else after
        entries = source["nfv"].get(section)
        if isinstance(entries, dict) and key in entries:
            nfv.setdefault(section, {})[key] = copy.deepcopy(entries[key])
    # Sections that are not maps of entries are taken whole from the new form.
    for section, value in after["nfv"].items():
        if not isinstance(value, dict):
            nfv[section] = copy.deepcopy(value)
    return nfv


def _reads(resources):
    """``(section, key)`` of every nfv read inside ``resources``."""
    return [(path[1], path[2]) for path in heat_template.nfv_reads(list(resources)) if len(path) > 2 and isinstance(path[2], str)]


# ---------------------------------------------------------------------------------------------
# Coordination scripts

# Resources whose address a coordination script is given as ssh_ip (Tacker reads floating_ip_address, else fixed_ips).
FLOATING_IP_TYPE = "OS::Neutron::FloatingIP"
ADDRESS_TYPES = (heat_template.PORT_TYPE, FLOATING_IP_TYPE)


def cp_resource(resources, vnfc, cp_name):
    """The resource named by ``cp_name`` whose address a coordination script of VNFC ``vnfc`` gets as ssh_ip, or None.

    ``resources``: the stack's resources as Heat lists them (nested ones with their ``parent_resource``), or as
    :func:`planned_resources` says Heat will. As Tacker, ``cp_name`` is looked up in the stack that holds the VNFC's
    server: the VNFC's own nested stack (a nested VNFC template, a scaling group member), else, for a server of the top
    template, the top stack (with the VNFC's index, ``VDU1_CP1-0`` beside ``VDU1-0``; as it is, ``VDU2_CP1`` beside a plain
    ``VDU2``). The one lookup both the plan's check and the hook use.
    """
    nested = [item for item in resources if item.get("parent_resource") == vnfc and item["resource_name"] == cp_name]
    if nested:
        return nested[0]
    own = next((item for item in resources if item["resource_name"] == vnfc and not item.get("parent_resource")), None)
    if own is None or own.get("resource_type") != heat_template.SERVER_TYPE:
        return None
    index = heat_template.split_vnfc_name(vnfc)[1]
    name = cp_name if index is None else heat_template.vnfc_name(cp_name, index)
    return next((item for item in resources if not item.get("parent_resource") and item["resource_name"] == name), None)


def planned_resources(stack):
    """``stack``'s resources as Heat lists them once it runs this template: ``[{"resource_name", "resource_type",
    "parent_resource"}]``, the top template's, those of each nested VNFC template, and those of each scaling group member
    ``stack["members"]`` names (lcm/vm/change_pkg.py's current_stack) from its group's member template."""
    members = stack.get("members") or [] if isinstance(stack, dict) else []
    stack = normalised_stack(stack)
    resources = stack_resources(stack)
    listed = []

    def add(name, resource_type, owner):
        listed.append({"resource_name": name, "resource_type": resource_type, "parent_resource": owner})
        if heat_template.is_template_file(resource_type):
            for part, item in ((_parsed(stack["files"].get(resource_type), resource_type) or {}).get("resources") or {}).items():
                listed.append({"resource_name": part, "resource_type": (item or {}).get("type"), "parent_resource": name})

    for name, resource in resources.items():
        add(name, (resource or {}).get("type") if isinstance(resource, dict) else None, None)
    for member in members:
        add(member["name"], member_definition(resources.get(member["group"])).get("type"), member["group"])
    return listed


def planned_vnfcs(stack, vdu_id):
    """The VNFCs of VDU ``vdu_id`` in ``stack``: per-VNFC resources (``VDU1-0``), a plain server named as the VDU
    (DefaultUserData), the scaling group members ``stack["members"]`` lists."""
    resources = stack_resources(normalised_stack(stack))
    names = sorted(name for name, (vdu, _index) in vnfc_resources(normalised_stack(stack)["template"]).items() if vdu == vdu_id)
    if isinstance(resources.get(vdu_id), dict) and resources[vdu_id].get("type") == heat_template.SERVER_TYPE:
        names.append(vdu_id)
    members = stack.get("members") or [] if isinstance(stack, dict) else []
    return names + [member["name"] for member in members if member.get("vdu") == vdu_id]


def check_address_resources(stack, vdu_params, param_key, hook_name):
    """Every VNFC of a vdu_params VDU in ``stack`` has the port or floating IP its ``param_key``.cp_name names.

    That resource's address is what a coordination script is given as ssh_ip, found by :func:`cp_resource` as the hook
    will find it. ValidationError naming the vdu_params entry otherwise.
    """
    listed = planned_resources(stack)
    for position, vdu_param in enumerate(vdu_params):
        cp_name = (vdu_param.get(param_key) or {}).get("cp_name")
        for name in planned_vnfcs(stack, vdu_param.get("vdu_id")):
            found = cp_resource(listed, name, cp_name)
            if found is None or found.get("resource_type") not in ADDRESS_TYPES:
                ports = sorted(heat_template.split_vnfc_name(item["resource_name"])[0] if not item.get("parent_resource") else item["resource_name"]
                               for item in listed if item.get("resource_type") == heat_template.PORT_TYPE
                               and cp_resource(listed, name, heat_template.split_vnfc_name(item["resource_name"])[0]) is item)
                field = "additionalParams.vdu_params[{0}].{1}.cp_name".format(position, param_key)
                raise ValidationError(WHAT, field, "VNFC {0} has no port or floating IP {1} whose address the coordination script {2} "
                                                   "would be given (ssh_ip); CPs of the VNFC: {3}".format(
                                                       name, cp_name, hook_name, ", ".join(ports) or "none"))


# ---------------------------------------------------------------------------------------------
# The plan

def change_plan(current, desired, vdu_ids):
    """What the change does: overall per VNFC / per resource, the rolling steps, and the number of updates.

    ``current``: the stack as it is (template, files, nfv); ``desired``: ``desired_stack(...)``.
    """
    target = target_stack(current, desired, vdu_ids)
    overall = stack_plan(current, target)
    steps = rolling_steps(current, desired, vdu_ids)
    lines = plan_lines(overall)
    warnings = []
    if not overall["is_noop"]:
        lines += ["{0} stack update(s), one VNFC at a time: {1}".format(len(steps), ", ".join(step["vnfc"] for step in steps))]
        warnings = ["{0} (not in vdu_params): its VNFCs take the new package's {1} with the update that brings it, as Tacker v2 "
                    "does: Heat updates them in place, not one at a time and with no coordination script; their images and flavours "
                    "stay as deployed".format(vdu, ", ".join(files))
                    for vdu, files in sorted(kept_vdus_taking_templates(current, desired, vdu_ids).items())]
    return {
        "is_noop": overall["is_noop"],
        "warnings": warnings,
        "updates": len(steps),
        "vdu_ids": list(vdu_ids),
        "vnfcs": overall["vnfcs"],
        "virtual_links": overall["virtual_links"],
        "other_resources": overall["other_resources"],
        "summary": overall["summary"],
        "steps": [{"vnfc": step["vnfc"], "lines": plan_lines(step["plan"]), "summary": step["plan"]["summary"]} for step in steps],
        "lines": lines,
        "target": target,
    }


def tacker_update_count(n_vnfcs):
    """Stack updates Tacker v2 sends for a RollingUpdate of ``n_vnfcs`` VNFCs.

    One PATCH per VNFC (each with the new form of that VNFC only) plus a final full update with the
    new package's template and nfv, sent even when nothing differs. ``change_plan``'s ``updates``
    counts only the steps that change the stack, and is 0 for a re-run.
    """
    return n_vnfcs + 1


# ---------------------------------------------------------------------------------------------
# What the op occ reports (SOL003 VnfLcmOpOcc of a CHANGE_VNFPKG)

def resource_changes(old_info, new_info, plan):
    """resourceChanges: affectedVnfcs (ADDED / REMOVED / MODIFIED), affectedVirtualLinks, affectedExtLinkPorts.

    A VNFC is MODIFIED when the plan updates its stack resource (a resize or rebuild keeps its id).
    """
    updated = {entry["name"] for entry in plan.get("vnfcs") or [] if entry["action"] == "update"}
    old = {item["id"]: item for item in old_info.get("vnfcResourceInfo") or []}
    new = {item["id"]: item for item in new_info.get("vnfcResourceInfo") or []}
    vnfcs = []
    for change, items, ids in (("ADDED", new, [i for i in new if i not in old]), ("REMOVED", old, [i for i in old if i not in new]),
                               ("MODIFIED", new, [i for i in new if i in old and (new[i].get("metadata") or {}).get("stackResource") in updated])):
        vnfcs += [{"id": i, "vduId": items[i]["vduId"], "changeType": change, "computeResource": items[i]["computeResource"]} for i in ids]
    return {
        "affectedVnfcs": vnfcs,
        "affectedVirtualLinks": _affected_links(old_info.get("vnfVirtualLinkResourceInfo") or [], new_info.get("vnfVirtualLinkResourceInfo") or []),
        "affectedExtLinkPorts": _affected_ports(old_info.get("extVirtualLinkInfo") or [], new_info.get("extVirtualLinkInfo") or []),
    }


def _affected_links(old_links, new_links):
    old = {link["vnfVirtualLinkDescId"]: link for link in old_links}
    new = {link["vnfVirtualLinkDescId"]: link for link in new_links}
    changes = []
    for vl_id in sorted(set(old) | set(new)):
        if vl_id in old and vl_id in new:
            if _port_ids(old[vl_id].get("vnfLinkPorts")) == _port_ids(new[vl_id].get("vnfLinkPorts")):
                continue
            added = _port_ids(new[vl_id].get("vnfLinkPorts")) - _port_ids(old[vl_id].get("vnfLinkPorts"))
            change, link = "LINK_PORT_ADDED" if added else "LINK_PORT_REMOVED", new[vl_id]
        else:
            change, link = ("ADDED", new[vl_id]) if vl_id in new else ("REMOVED", old[vl_id])
        changes.append({"id": link["id"], "vnfVirtualLinkDescId": vl_id, "changeType": change, "networkResource": link["networkResource"]})
    return changes


def _port_ids(ports):
    return {port["id"] for port in ports or []}


def _affected_ports(old_links, new_links):
    old = {port["id"]: port for link in old_links for port in link.get("extLinkPorts") or []}
    new = {port["id"]: port for link in new_links for port in link.get("extLinkPorts") or []}
    changes = [{"id": i, "changeType": "ADDED", "extCpInstanceId": new[i].get("cpInstanceId"), "resourceHandle": new[i]["resourceHandle"]}
               for i in sorted(new) if i not in old]
    changes += [{"id": i, "changeType": "REMOVED", "extCpInstanceId": old[i].get("cpInstanceId"), "resourceHandle": old[i]["resourceHandle"]}
                for i in sorted(old) if i not in new]
    return changes


def changed_ext_connectivity(old_info, new_info):
    """extVirtualLinkInfo entries that differ after the change (new ones included), as SOL003 reports them."""
    old = {link["id"]: link for link in old_info.get("extVirtualLinkInfo") or []}
    return [copy.deepcopy(link) for link in new_info.get("extVirtualLinkInfo") or [] if old.get(link["id"]) != link]
