# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Change of the current VNF package on the DefaultUserData form (AutoScalingGroups): the pure planning part.

Tacker v2's RollingUpdate of this form, one VNFC at a time:
- a member of a VDU's scaling group gets the new flavour and images in its own definition: the group's nested
  stack is PATCHed with that member's ``flavor`` / ``image-*`` properties set (the properties its definition reads
  from ``[nfv, VDU, <VDU or storage>, computeFlavourId|vcImageId]``);
- a plain server VDU gets its nfv VDU and CP entries from the new package (a PATCH of the top stack's nfv);
- then one update of the top stack with the new template, files and nfv brings the rest (CPs of the members,
  the group definitions, new nested templates) at once. A member already in its new form is left as it is.

A VDU the request does not name that the new package changes is changed by that last update, all its VNFCs at once,
as Tacker v2 does: the plan warns (``unnamed_changing_vdus``). ``members`` lists the scaling group members as they are:
``[{"name", "vdu", "group", "group_stack", "server", "properties"}]`` (properties from the group's nested template).
"""

from __future__ import annotations

import copy

from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.plan import normalised_stack, plan_lines, resolve, stack_plan, stack_resources
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.template import NFV_PARAM, SERVER_TYPE, intrinsic, lookup, nfv_reads, vnfc_members

# The nfv VDU entries a member's own definition follows one member at a time (Tacker's flavor and image-*).
ROLLED_KEYS = ("computeFlavourId", "vcImageId")


def member_definition(group_resource):
    """The ``resource`` a scaling group makes its members of: ``{"type", "properties"}``."""
    return ((group_resource or {}).get("properties") or {}).get("resource") or {}


def member_properties(group_resource, nfv):
    """The member properties of ``group_resource`` that read a rolled nfv VDU entry, with their values in ``nfv``."""
    result = {}
    for key, value in sorted((member_definition(group_resource).get("properties") or {}).items()):
        function, path = intrinsic(value)
        if function == "get_param" and isinstance(path, list) and len(path) == 4 and path[:2] == [NFV_PARAM, "VDU"] and path[3] in ROLLED_KEYS:
            found, resolved = lookup(nfv, path[1:])
            if found:
                result[key] = copy.deepcopy(resolved)
    return result


def vdu_part(stack, form, vdu_id):
    """What makes up VDU ``vdu_id`` in ``stack``, resolved: its group (member definition and nested template) or its server with
    its ports and volumes; None when the stack has no such VDU."""
    stack = normalised_stack(stack)
    resources = stack_resources(stack)
    group = form.groups.get(vdu_id)
    if group in resources:
        definition = resolve(member_definition(resources[group]), stack["nfv"])
        return {"member": definition, "file": stack["files"].get(definition.get("type"))}
    if vdu_id in resources:
        return {name: resolve(resources[name], stack["nfv"]) for name in vnfc_members(resources, vdu_id)}
    return None


def unnamed_changing_vdus(current, desired, vdu_ids, form):
    """The VDUs (scaling group or plain server) the request does not name that change with the new package: as with
    Tacker v2, the last update (the new template, files and nfv at once) changes them, not one VNFC at a time."""
    vdus = set(form.groups) | {name for name, resource in stack_resources(normalised_stack(current)).items()
                               if isinstance(resource, dict) and resource.get("type") == SERVER_TYPE}
    return [vdu_id for vdu_id in sorted(vdus)
            if vdu_id not in vdu_ids and vdu_part(current, form, vdu_id) is not None
            and vdu_part(current, form, vdu_id) != vdu_part(desired, form, vdu_id)]


def server_nfv(stack, desired, vdu_id):
    """``stack``'s nfv with the VDU and CP entries the plain server ``vdu_id`` and its ports read taken from ``desired``."""
    resources = stack_resources(normalised_stack(desired))
    nfv = copy.deepcopy(normalised_stack(stack)["nfv"])
    for path in nfv_reads([resources[name] for name in vnfc_members(resources, vdu_id)]):
        if len(path) > 2 and path[1] in ("VDU", "CP"):
            found, value = lookup(desired["nfv"], path[1:3])
            if found:
                nfv.setdefault(path[1], {})[path[2]] = copy.deepcopy(value)
    return nfv


def rolling_steps(base, desired, vdu_ids, form, members):
    """``[{"vnfc", "vdu", "group"?, "group_stack"?, "properties"?, "stack", "changes"}]``: one update per VNFC whose form changes, in order.

    A member step sets the member's properties in its group's nested stack (``stack`` stays the top stack as it is);
    a server step is the top stack with the server's nfv entries from ``desired``.
    """
    steps = []
    last = normalised_stack(base)
    desired = normalised_stack(desired)
    new_resources = stack_resources(desired)
    for vdu_id in vdu_ids:
        group = form.groups.get(vdu_id)
        if group is not None:
            wanted = member_properties(new_resources.get(group), desired["nfv"])
            for member in [item for item in members if item["group"] == group]:
                changes = {key: [member["properties"].get(key), value] for key, value in wanted.items() if member["properties"].get(key) != value}
                if changes:
                    steps.append({"vnfc": member["name"], "vdu": vdu_id, "group": group, "group_stack": member["group_stack"],
                                  "properties": dict(member["properties"], **wanted), "stack": last, "changes": changes})
        elif vdu_id in new_resources and vdu_id in stack_resources(last):
            stack = dict(last, nfv=server_nfv(last, desired, vdu_id))
            changes = {key: [(last["nfv"].get(section) or {}).get(key), value] for section in ("VDU", "CP")
                       for key, value in (stack["nfv"].get(section) or {}).items() if (last["nfv"].get(section) or {}).get(key) != value}
            if changes:
                steps.append({"vnfc": vdu_id, "vdu": vdu_id, "stack": stack, "changes": changes})
                last = stack
    return steps


def step_line(step):
    """One step as the plan shows it."""
    what = ", ".join("{0} {1} -> {2}".format(key, before, after) for key, (before, after) in sorted(step["changes"].items()))
    if step.get("group"):
        return "{0}: member {1}: {2}".format(step["group"], step["vnfc"], what)
    return "{0}: {1}".format(step["vnfc"], what)


def change_plan(current, desired, vdu_ids, form, members):
    """What the change does on the DefaultUserData form, in the shape of ``heat.change_pkg.change_plan``.

    ``updates`` counts the member and server steps plus the last update of the whole stack when it changes anything.
    """
    steps = rolling_steps(current, desired, vdu_ids, form, members)
    last = steps[-1]["stack"] if steps else normalised_stack(current)
    overall = stack_plan(current, desired)
    final = not stack_plan(last, desired)["is_noop"]
    lines = [step_line(step) for step in steps]
    if final:
        lines.append("then one update of the whole stack to the new package: " + "; ".join(plan_lines(overall)))
    names = [step["vnfc"] for step in steps]
    vnfcs = [{"name": name, "action": "update", "effect": "update", "changes": []} for name in names]
    warnings = ["{0} (not in vdu_params) changes with the new package: the last update changes it, all its VNFCs at once and "
                "with no coordination script, as Tacker v2 does; name it in vdu_params to update its VNFCs one at a time".format(vdu_id)
                for vdu_id in unnamed_changing_vdus(current, desired, vdu_ids, form)] if final else []
    return {
        "is_noop": overall["is_noop"] and not steps,
        "warnings": warnings,
        "updates": len(steps) + (1 if final else 0),
        "vdu_ids": list(vdu_ids),
        "vnfcs": vnfcs,
        "virtual_links": overall["virtual_links"],
        "other_resources": overall["other_resources"],
        "summary": dict(overall["summary"], updated=sorted(names)),
        "steps": [{"vnfc": step["vnfc"], "lines": [step_line(step)], "summary": {"updated": [step["vnfc"]]}} for step in steps],
        "lines": lines or plan_lines(overall),
        "target": copy.deepcopy(desired),
    }
