# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Change of the current VNF package of a VM-based VNF on Heat (SOL003 ChangeCurrentVnfPkgRequest).

Planning is whole before the first write: the request against the new VNFD, the cloud's flavours,
images and networks, the hooks' task files, and the stack the new package gives (heat/change_pkg.py).
The writes are stack PATCHes, one per VNFC of the ``vdu_params`` VDUs, each followed by the
coordination hook; on the DefaultUserData form a scaling group member is PATCHed in its group's own
stack, and one update of the whole stack follows (heat/change_pkg_groups.py). The record of a
FAILED_TEMP change keeps the stack from before and the change itself (``change`` in the private
state), so rollback and retry need neither the package nor the request: rollback walks the VNFCs
back one at a time (old-VNF hook after each), retry goes on from the stack as it is.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Optional

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.args import masked_secrets
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, OperationTimeout, PackageError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import ROLLBACK_KEY, Found, RecordStore, without_rollback
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import change_pkg, change_pkg_groups, nfv_params, user_data, user_data_policy
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import template as heat_template
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.cloud import sdk_errors
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.plan import plan_lines, stack_plan
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.form import form_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.instantiated_info import owner_stack, vnfc_parts
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import with_record_resource
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import coordination, interface_scripts
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import PRIVATE, Waits, private_state
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import waits as waits_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import engine, instance_run
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.session import HeatVim
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.shared import (
    check_connectivity,
    check_flavours,
    load_form,
    located_stack,
    recorded_flavour,
    refreshed,
    refuse_servers_in_error,
    resolve_images,
    stack_nfv,
    update_preview_summary,
    update_stack,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.state import VmState
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import change_pkg as sol_change_pkg
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.merge_patch import merge_patch
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED, require_instantiation_state, vnfd_identity

WHAT = sol_change_pkg.WHAT
# vnf_lcm_op_occ's option: a rollback without the old-VNF coordination hook (one that keeps failing must not block it).
SKIP_COORDINATION = "skip_coordination"


def run_change_pkg(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    """vnf_change_pkg on OpenStack: the new package (and the current one, when given) read, and closed, while the change is planned."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package, optional_package
    from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.change_pkg import ROLLOUT, SIDE_BY_SIDE

    if params.get(ROLLOUT) == SIDE_BY_SIDE:
        raise ValidationError(occ.CHANGE_VNFPKG, ROLLOUT, "side_by_side is for Kubernetes: on OpenStack the VNFCs of vdu_params change one at a time")
    vim = session.connect(params)
    store, found = instance_run.locate(vim, params)
    engine.require_idle(store, found, occ.CHANGE_VNFPKG, check_mode=check_mode)
    with load_package(params["package"]) as package, optional_package(params.get("current_package")) as current:
        operation = plan_change_pkg(vim, store, found, package, params["request"], waits_of(params), preview=check_mode or diff_mode,
                                    allow_scripts=params.get("allow_package_scripts"), current_package=current)
    return instance_run.with_api_calls(engine.run(operation, check_mode, diff_mode, settings=engine.settings_of(params)), vim)


def plan_change_pkg(vim: HeatVim, store: RecordStore, found: Found, package: Any, request: Optional[dict], waits: Optional[Waits] = None,
                    preview: bool = False, allow_scripts: bool = False, current_package: Any = None) -> Operation:
    """Plan the change of ``found``'s instance to ``package`` (a VnfPackage); an engine.Operation.

    ``current_package``: the instance's current package (a VnfPackage, checked by its vnfdId), where the old-VNF coordination
    hook is read, as Tacker reads it; without it, the new package must have that hook.

    ``allow_scripts``: the user's opt-in to the package's Python scripts: coordination scripts (coordination.ALLOW_SCRIPTS),
    a user-data script (heat/user_data.py), whose ``change_vnfpkg`` then gives the stack the change goes to, and the VNFD's
    interface scripts (lcm/interface_scripts.py).
    """
    waits = waits or Waits()
    instance = found[0]
    require_instantiation_state(instance, INSTANTIATED, occ.CHANGE_VNFPKG)
    private: VmState = private_state(instance)
    new_vnfd = package.to_dict()["vnfd"]
    # A re-run after success finds the instance on the new package already: its current_package was the one before. The
    # option is checked once the plan shows there is something to do (a re-run that changes nothing is changed: false).
    rerun = current_package is not None and vnfd_identity(new_vnfd)["vnfdId"] == instance.get("vnfdId")
    if current_package is not None and not rerun:
        sol_change_pkg.check_current_package(current_package, instance)
    flavour_id = instance["instantiatedVnfInfo"]["flavourId"]
    try:
        base_template, files = heat_template.load_base_hot(package, flavour_id)
    except PackageError as error:
        raise ValidationError(WHAT, "vnfdId", "the new package cannot be deployed on OpenStack: {0}".format(error.msg))
    form, old_form = load_form(base_template, WHAT), form_of(private["base_template"])
    if form.name != old_form.name:
        raise ValidationError(WHAT, "vnfdId", "the new package's BaseHOT is of the {0} form, the instance's stack of the {1} form: "
                                              "a change of package keeps the form".format(form.name, old_form.name))
    script = user_data_policy.script_of(request, form, WHAT, occ.CHANGE_VNFPKG, allow_scripts)
    request = change_pkg.validate_change_pkg(request, instance, new_vnfd, base_template, private["request"])
    # Both hooks' text is read now and kept in the job (the record), so a rollback in a later call needs neither package.
    hooks = coordination.load_hooks(request["additionalParams"], package, WHAT, allow_scripts, current=current_package,
                                    current_option=sol_change_pkg.CURRENT_PACKAGE)
    coordination.check_script_params(hooks, request["additionalParams"]["vdu_params"], WHAT)
    flavour = package.flavour(flavour_id)
    # Tacker's placeholder port (dummy-id): an extLinkPorts resourceId the change's additionalParams.nfv.CP replaces on
    # every CP it serves is not looked up; the nfv.CP ports are.
    nfv_patch = (request.get("additionalParams") or {}).get("nfv")
    counts = {vdu_id: len(indexes) for vdu_id, indexes in (private["vnfcs"] or {}).items()}
    placeholders = nfv_params.ports_set_by_nfv(flavour, request.get("extVirtualLinks") or [], counts, nfv_patch, WHAT, form)
    port_lines = check_connectivity(vim, request, WHAT, nfv_patch, placeholders)
    named = change_pkg.desired_stack(flavour, base_template, files, request, private["request"], private["vnfcs"], form=form)
    flavors = check_flavours(vim, named["nfv"], request, WHAT)
    images = resolve_images(vim, named["nfv"], flavour, request, what=WHAT)
    desired = dict(named, nfv=nfv_params.with_image_ids(named["nfv"], images))
    effective = change_pkg.effective_request(private["request"], request, sol_change_pkg.new_flavour(new_vnfd, instance))
    made = None
    if script:
        desired = scripted_change(vim, package, script, request, instance, old_form, waits)
        check_flavours(vim, desired["nfv"], request, WHAT, known=flavors)
        made = {"script": script["path"], "class": script["class"], "stack": {"template": desired["template"], "nfv": desired["nfv"]},
                "request": effective, "vnfcs": private["vnfcs"]}
    new_private: VmState = {
        "flavour": recorded_flavour(flavour),
        "base_template": base_template,
        "request": effective,
        "instantiation": private.get("instantiation"),
        "vnfcs": private["vnfcs"],
        "images": images,
        interface_scripts.KEY: interface_scripts.for_package(package, flavour_id, allow_scripts, WHAT),
    }
    if made:
        new_private["user_data"] = made
    job = {
        "vdu_params": request["additionalParams"]["vdu_params"],
        "hooks": hooks,
        "desired": desired,
        "private": json_copy(new_private),
        "identity": vnfd_identity(new_vnfd),
        "fields": sol_change_pkg.merged_instance_fields(instance, request),
    }
    operation = change_operation(vim, store, found, request, job, waits, preview)
    if rerun and operation.changed:
        sol_change_pkg.check_current_package(current_package, instance)
    if operation.changed:
        operation.plan["lines"] = operation.plan["lines"] + port_lines
    return operation


def scripted_change(vim, package, script, request, instance, old_form, waits):
    """``{"template", "files", "nfv"}`` of the stack the package user-data script's ``change_vnfpkg`` gives: its fields as they
    are when it says ``existing: False``, else merged into the stack as Heat has it (Tacker's way)."""
    inst = user_data.tacker_instance(instance, old_form, PRIVATE)
    vdu_ids = [item["vdu_id"] for item in request["additionalParams"]["vdu_params"]]
    arguments = user_data.change_vnfpkg_arguments(request, inst, instance["instantiatedVnfInfo"]["flavourId"], vdu_ids,
                                                  "change-vnfpkg-" + instance["id"])
    fields = user_data.run_script(package, script, "change_vnfpkg", arguments, waits.timeout, WHAT)
    where = "the result of package user-data script {0} ({1}.change_vnfpkg)".format(script["path"], script["class"])
    if not fields["existing"]:
        if fields["template"] is None or fields["nfv"] is None:
            raise ValidationError(WHAT, "additionalParams." + user_data_policy.USER_DATA,
                                  where + " says existing: false without a template and an nfv parameter")
        return {"template": with_record_resource(fields["template"]), "files": fields["files"] or {}, "nfv": fields["nfv"]}
    stack = located_stack(instance)
    template = vim.stacks.template(stack)
    if fields["template"] is not None:
        template = with_record_resource(merge_patch(template, fields["template"]))
    files = heat_template.used_files(template, dict(vim.stacks.files(stack), **(fields["files"] or {})))
    return {"template": template, "files": files, "nfv": merge_patch(stack_nfv(vim, stack), fields["nfv"] or {})}


def json_copy(value):
    """``value`` as the record will give it back (tuples become lists), so that re-runs compare equal."""
    return json.loads(json.dumps(value))


def current_stack(vim, stack):
    """The stack as Heat has it: template, the nested files it uses, the nfv parameter, and the members of its scaling
    groups (DefaultUserData), which a change of package updates in the groups' own stacks."""
    template = vim.stacks.template(stack)
    return {"template": template, "files": heat_template.used_files(template, vim.stacks.files(stack)), "nfv": stack_nfv(vim, stack),
            "members": group_members(vim, stack, form_of(template))}


def group_members(vim, stack, form):
    """``[{"name", "vdu", "group", "group_stack", "server", "properties"}]``: each scaling group member, oldest first per
    VDU, with its group's nested stack and its properties as that stack's template has them."""
    if not form.groups:
        return []
    parts = vnfc_parts(vim.stacks.resources(stack))
    members, templates = [], {}
    for name, part in sorted(parts.items(), key=lambda item: (item[1]["vdu"], item[1]["index"])):
        if not part["group"]:
            continue
        nested = owner_stack(part["resource"])
        if nested["id"] not in templates:
            templates[nested["id"]] = vim.stacks.template(nested)
        definition = (templates[nested["id"]].get("resources") or {}).get(name) or {}
        server = next(iter(part["servers"].values()), {})
        members.append({"name": name, "vdu": part["vdu"], "group": part["group"], "group_stack": nested,
                        "server": server.get("physical_resource_id"), "properties": definition.get("properties") or {}})
    return members


def update_member(vim, stack, step, waits, progress):
    """Set one scaling group member's properties in its group's nested stack (a PATCH of that stack alone)."""
    nested = step["group_stack"]
    template = vim.stacks.template(nested)
    definition = (template.get("resources") or {}).get(step["vnfc"])
    if not isinstance(definition, dict):
        raise ConflictError("update", "member {0} of {1}".format(step["vnfc"], step["group"]), "the scaling group no longer has it; roll back or fail")
    definition["properties"] = copy.deepcopy(step["properties"])
    # The nested stack keeps its files (a PATCH merges them); the new nested templates come with the last update.
    update_stack(vim, nested, template, None, waits, progress, files={})
    progress["stack"] = stack


def changed_instance(instance, job):
    """The VnfInstance attributes the change sets (before instantiatedVnfInfo is read back from the stack)."""
    result = without_rollback(instance)
    result.update(copy.deepcopy(job["identity"]))
    for field in sol_change_pkg.MERGED_FIELDS:
        result.pop(field, None)
    result.update(copy.deepcopy(job["fields"]))
    return result


def record_is_current(instance, job):
    """True when the record already says what the change would write (a re-run after success)."""
    private: VmState = private_state(instance)
    expected = changed_instance(instance, job)
    same_fields = all(instance.get(key) == expected.get(key) for key in tuple(job["identity"]) + sol_change_pkg.MERGED_FIELDS)
    same_private = all(json_copy(private.get(key)) == json_copy(job["private"][key]) for key in job["private"])
    return same_fields and same_private and ROLLBACK_KEY not in private


def vdu_ids_of(job):
    return [vdu_param["vdu_id"] for vdu_param in job["vdu_params"]]


def change_operation(vim, store, found, request, job, waits, preview=False, previous=None):
    """The Operation that takes the stack from what it is now to ``job["desired"]``, VNFC by VNFC.

    ``previous``: the stack before the op occ began (a retry passes the one the record kept).
    """
    instance, op_occs, version = found
    stack = located_stack(instance)
    current = current_stack(vim, stack)
    form = form_of(job["desired"]["template"])
    first_plan = previous is None
    previous = previous or current
    check_script_addresses(previous, job)
    if form.groups:
        plan = change_pkg_groups.change_plan(current, job["desired"], vdu_ids_of(job), form, current["members"])
    else:
        plan = change_pkg.change_plan(current, job["desired"], vdu_ids_of(job))
    target = plan.pop("target")
    changed = not plan["is_noop"] or not record_is_current(instance, job)
    plan.update(operation=occ.CHANGE_VNFPKG, vnf_instance_id=instance["id"], stack_name=stack["stack_name"], vnfd_id=job["identity"]["vnfdId"],
                hooks=sorted(hook["name"] for hook in job["hooks"].values()))
    if not changed:
        plan["lines"] = ["no change: the stack and the record already have this package"]
    if not plan["is_noop"] and first_plan:
        # A retry goes on as before: it may have left the server in ERROR itself (a failed rebuild), and its rollback is the way out.
        refuse_servers_in_error(vim, instance, [step["vnfc"] for step in plan["steps"]], "change the package of")
    if not plan["is_noop"]:
        # Heat's verdict on the whole change before its first update.
        shown = update_preview_summary(vim.stacks.preview_update(stack, target["template"], target["files"], {"nfv": target["nfv"]}))
        if preview:
            plan["preview"] = shown
    hook = job["hooks"].get(coordination.NEW_VNF)

    def execute(progress):
        # Stored in the record: vnfc params' passwords masked (a retry or rollback hook gets the mask).
        change = {"previous": previous, "job": masked_secrets(job), "updated": [], "coordinated": []}
        if previous is not current:
            change.update({key: value for key, value in (store.kept_rollback(instance) or {}).items() if key in ("updated", "coordinated")})
        # Recorded before the first update (the record keeps the way back, common/record_store.py): should this process
        # die, retry and rollback know where it started.
        progress.checkpoint(store.keep_rollback(store.drop_rollback(instance), progress["op_occ_id"], change))
        last = roll(vim, stack, previous, job["desired"], instance["id"], job, hook, waits, progress, change, rollback=False)
        if form.groups and not stack_plan(last, target)["is_noop"]:
            # The rest of the new package at once: group definitions, members' CPs, nested templates.
            update_stack(vim, stack, target["template"], target["nfv"], waits, progress, files=target["files"])
            last = target
        result = refreshed(vim, changed_instance(instance, job), stack, job["private"], last["nfv"])
        old_info, new_info = instance["instantiatedVnfInfo"], result["instantiatedVnfInfo"]
        whole = rolled_plan(previous, last, change, form)
        progress.resource_changes = change_pkg.resource_changes(old_info, new_info, whole)
        progress.op_occ_fields = {"changedExtConnectivity": change_pkg.changed_ext_connectivity(old_info, new_info),
                                  "modificationsTriggeredByVnfPkgChange": sol_change_pkg.modifications_triggered(instance, result)}
        return result

    diff = {"before": {key: instance.get(key) for key in job["identity"]}, "after": dict(job["identity"], stack=plan["summary"])}
    # The new package's interface scripts (a record of an older version kept none).
    return Operation(occ.CHANGE_VNFPKG, masked_secrets(request), instance, plan, store, op_occs, version, changed=changed, execute=execute, diff=diff,
                     scripts=job["private"].get(interface_scripts.KEY))


def roll(vim, stack, base, desired, instance_id, job, hook, waits, progress, change, rollback):
    """Move the VNFCs of the job's VDUs from their form in ``base`` to the one in ``desired``, one stack PATCH each,
    the hook after each.

    Rollback goes through the VDUs in reverse order.
    ``change["updated"]`` / ``["coordinated"]`` say which VNFCs were PATCHed and which passed the hook in
    this op occ, so a retry runs the hook of a VNFC whose PATCH went through but whose hook failed. A retry
    counts its steps from the stack the op occ began with (``base``) and sends again the step of every VNFC not
    recorded as updated: Heat may hold its template while its update was cut off or failed.
    Returns the stack as it was left.
    """
    vdu_ids = vdu_ids_of(job)[::-1] if rollback else vdu_ids_of(job)
    form = form_of(desired["template"])
    if form.groups:
        # Backwards on rollback: the last member moved goes back first.
        ordered = change_pkg_groups.rolling_steps(base, desired, vdu_ids, form, base["members"][::-1] if rollback else base["members"])
        order = [step["vnfc"] for step in ordered]
    else:
        ordered, order = change_pkg.rolling_steps(base, desired, vdu_ids), change_pkg.vnfc_order(base, desired, vdu_ids)
    steps = {step["vnfc"]: step for step in ordered}
    done = progress.setdefault("steps", [])
    last = base
    for name in order:
        step = steps.get(name)
        if step is not None and name in change["updated"]:
            last = step["stack"]
        elif step is not None:
            if step.get("group"):
                update_member(vim, stack, step, waits, progress)
            else:
                update_stack(vim, stack, step["stack"]["template"], step["stack"]["nfv"], waits, progress, files=step["stack"]["files"])
            last = step["stack"]
            change["updated"].append(name)
            done.append({"vnfc": name, "summary": step_summary(step), "rollback": rollback})
            progress.checkpoint()
        if hook and name in change["updated"] and name not in change["coordinated"]:
            vdu_id = step["vdu"] if step and step.get("vdu") else heat_template.split_vnfc_name(name)[0]
            vdu_param = next((item for item in job["vdu_params"] if item["vdu_id"] == vdu_id), {})
            coordinate(vim, stack, name, hook, vdu_param, instance_id, waits.timeout, rollback)
            change["coordinated"].append(name)
            progress.checkpoint()
    return last


def step_summary(step):
    if "plan" in step:
        return step["plan"]["summary"]
    return {"updated": [step["vnfc"]], "changes": step["changes"]}


def rolled_plan(previous, last, change, form):
    """What the op occ reports as changed per VNFC: the stack plan, or on the DefaultUserData form the VNFCs updated."""
    if form.groups:
        return {"vnfcs": [{"name": name, "action": "update"} for name in change["updated"]]}
    return stack_plan(previous, last)


def coordinate(vim, stack, name, hook, vdu_param, instance_id, timeout, rollback):
    """Run the coordination hook for the VNFC ``name``; its failure says how to roll back without the hooks."""
    try:
        run_coordination(vim, stack, name, hook, vdu_param, instance_id, timeout, rollback)
    except (coordination.HookFailed, OperationTimeout) as error:
        # A hook that keeps failing must not block the way back: a rollback can leave the hooks out.
        error.add_reason("the op occ is FAILED_TEMP: retry it, or roll it back (nfv.vnflcm.vnf_lcm_op_occ action=rollback; add {0}: true "
                         "to roll back without running the coordination hooks)".format(SKIP_COORDINATION))
        raise


def run_coordination(vim, stack, name, hook, vdu_param, instance_id, timeout, rollback):
    """Run the coordination hook for the VNFC ``name``: a task file with ``vnflcm_coordination``, a script with Tacker's input."""
    if coordination.is_script(hook):
        vnfc_param = vdu_param.get(coordination.vnfc_param_key(rollback)) or {}
        address = vnfc_address(vim, stack, name, vnfc_param.get("cp_name"), hook)
        coordination.run_script(hook, name, coordination.script_input(vnfc_param, address, rollback), timeout)
        return
    variables = coordination.hook_variables(occ.CHANGE_VNFPKG, instance_id, vnfc_details(vim, stack, name), vdu_param, rollback)
    coordination.run_hook(hook, variables, timeout)


def check_script_addresses(previous, job):
    """Before any write: each VNFC a script runs for has the resource its cp_name names, found as the hook will find it
    (heat/change_pkg.py's cp_resource) in the stack the hook sees.

    The new-VNF hook sees the VNFC in its new form (on the DefaultUserData form the stack keeps its structure until the
    last update: members and plain servers roll by properties and nfv); the old-VNF hook (rollback) the old one.
    """
    new_form = previous if form_of(job["desired"]["template"]).groups else job["desired"]
    for key, stack, rollback in ((coordination.NEW_VNF, new_form, False), (coordination.OLD_VNF, previous, True)):
        hook = job["hooks"].get(key)
        if coordination.is_script(hook):
            change_pkg.check_address_resources(stack, job["vdu_params"], coordination.vnfc_param_key(rollback), hook["name"])


def vnfc_address(vim, stack, name, cp_name, hook):
    """The address Tacker gives a script as ssh_ip: the floating IP of the VNFC's resource ``cp_name``, else its first fixed IP."""
    item = change_pkg.cp_resource(vim.stacks.resources(stack), name, cp_name)
    if item is None:
        raise coordination.HookFailed(hook["name"], name, "the stack has no resource {0} of this VNFC to give its address as ssh_ip".format(cp_name))
    address = resource_address(vim, item)
    if address:
        return address
    raise coordination.HookFailed(hook["name"], name, "{0} ({1}) has no IP address to give as ssh_ip".format(cp_name, item.get("resource_type")))


def resource_address(vim, item):
    """floating_ip_address of a floating IP, else the first fixed IP of a port (what Tacker reads from Heat's attributes)."""
    resource_id = item.get("physical_resource_id")
    if not resource_id:
        return None
    with sdk_errors("read", "{0} {1}".format(item.get("resource_type"), resource_id)):
        if item.get("resource_type") == change_pkg.FLOATING_IP_TYPE:
            return vim.conn.network.get_ip(resource_id).floating_ip_address
        if item.get("resource_type") == heat_template.PORT_TYPE:
            fixed_ips = vim.conn.network.get_port(resource_id).fixed_ips or []
            return fixed_ips[0].get("ip_address") if fixed_ips else None
    return None


def vnfc_details(vim, stack, name):
    """What a hook learns about a VNFC: its stack resource, VDU, server id, Nova addresses and ports per CP."""
    parts = vnfc_parts(vim.stacks.resources(stack)).get(name) or {"servers": {}, "ports": {}}
    server_id = next((item["physical_resource_id"] for item in parts["servers"].values()), None)
    addresses = {}
    if server_id:
        with sdk_errors("read", "server " + server_id):
            server = vim.conn.compute.get_server(server_id)
        addresses = copy.deepcopy(server.addresses or {})
    return {"resource": name, "vdu_id": heat_template.split_vnfc_name(name)[0], "server_id": server_id, "addresses": addresses,
            "ports": {cp: item["physical_resource_id"] for cp, item in sorted(parts["ports"].items())}}


# ---------------------------------------------------------------------------------------------
# Retry / rollback of a FAILED_TEMP change

def plan_resume(vim: HeatVim, store: RecordStore, found: Found, failed_op_occ: dict, event: str, waits: Optional[Waits],
                skip_coordination: bool = False, package: Any = None) -> Operation:
    """Retry goes on from the stack as it is, rollback walks it back: both from the change the record keeps. ``package``:
    the new package, for the retry of a change stopped before it recorded that (then it wrote nothing to the stack)."""
    instance = found[0]
    change = store.kept_rollback(instance)
    if not change:
        return plan_unwritten_resume(vim, store, found, failed_op_occ, event, waits, package)
    if event == "retry":
        return change_operation(vim, store, found, failed_op_occ.get("operationParams") or {}, change["job"], waits, previous=change["previous"])
    return rollback_operation(vim, store, found, failed_op_occ, change, waits, skip_coordination)


def plan_unwritten_resume(vim: HeatVim, store: RecordStore, found: Found, failed_op_occ: dict, event: str, waits: Optional[Waits],
                          package: Any) -> Operation:
    """A change stopped between its op occ and the change's data, its first two record writes (a kill, a lost
    connection): nothing was written to the stack. Rollback has nothing to undo but the op occ; retry plans the change
    again from the request the op occ recorded and ``package``, which it needs."""
    instance, op_occs, version = found
    request = failed_op_occ.get("operationParams") or {}
    if event == "retry":
        if package is None:
            raise ValidationError("vnf_lcm_op_occ", "package", "CHANGE_VNFPKG operation occurrence {0} stopped before it wrote to the stack, "
                                  "so its retry plans it again: give the new package (or roll it back: nothing to undo)".format(failed_op_occ["id"]))
        return plan_change_pkg(vim, store, found, package, request, waits)
    plan = {"operation": occ.CHANGE_VNFPKG, "vnf_instance_id": instance["id"], "rollback": True,
            "lines": ["nothing to roll back: the change stopped before it wrote to the stack; only the op occ changes"]}
    return Operation(occ.CHANGE_VNFPKG, request, instance, plan, store, op_occs, version, changed=False)


def rollback_operation(vim, store, found, failed_op_occ, change, waits, skip_coordination=False):
    """Walk the VNFCs back to the stack from before the change (old-VNF hook after each, unless ``skip_coordination``),
    then the record."""
    instance, op_occs, version = found
    stack = located_stack(instance)
    current = current_stack(vim, stack)
    previous, job = change["previous"], change["job"]
    form = form_of(previous["template"])
    if form.groups:
        whole = change_pkg_groups.change_plan(current, previous, vdu_ids_of(job)[::-1], form, current["members"][::-1])
        lines = whole["lines"]
    else:
        whole = stack_plan(current, previous)
        lines = plan_lines(whole)
    plan = {"operation": occ.CHANGE_VNFPKG, "vnf_instance_id": instance["id"], "stack_name": stack["stack_name"], "rollback": True,
            "vnfcs": whole["vnfcs"], "summary": whole["summary"], "lines": lines}
    hook = job["hooks"].get(coordination.OLD_VNF)
    if hook and skip_coordination:
        plan["lines"] = plan["lines"] + ["coordination hook {0} not run ({1}: true)".format(hook["name"], SKIP_COORDINATION)]
        plan["coordination_skipped"] = hook["name"]
        hook = None
    before = without_rollback(instance)

    def execute(progress):
        state = {"updated": [], "coordinated": []}
        last = roll(vim, stack, current, previous, instance["id"], job, hook, waits, progress, state, rollback=True)
        settled = vim.stacks.wait_settled(stack, waits.timeout)
        if not stack_plan(last, previous)["is_noop"] or not settled["stack_status"].endswith("_COMPLETE"):
            # Whatever no VNFC step restored (a resource of no VNFC), or a failed update left: the previous stack, exactly.
            update_stack(vim, stack, previous["template"], previous["nfv"], waits, progress, files=previous["files"])
        result = refreshed(vim, before, stack, private_state(before), previous["nfv"])
        changed = rolled_plan(current, previous, state, form)
        progress.resource_changes = change_pkg.resource_changes(instance["instantiatedVnfInfo"], result["instantiatedVnfInfo"], changed)
        return result

    return Operation(occ.CHANGE_VNFPKG, failed_op_occ.get("operationParams") or {}, instance, plan, store, op_occs, version, execute=execute)
