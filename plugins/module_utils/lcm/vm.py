# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""VM-based VNF lifecycle on OpenStack Heat: one stack per VNF instance, one Heat resource per VNFC.

Each ``plan_*`` validates everything (request, VNFD, and the cloud's networks, subnets, ports,
images and flavours), plans, and returns an engine.Operation; the stack writes happen only in the
operation's ``execute``, which engine.run calls (never in check mode). Shared with the Kubernetes
side: request validation (sol/), the op-occ engine, the scaling arithmetic and the record helpers.
"""

from __future__ import annotations

import copy
import json

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import (
    ConflictError,
    NotFoundError,
    OperationTimeout,
    PackageError,
    ValidationError,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import nfv_params, user_data
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import template as heat_template
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.cloud import CallCounter, recordable_vims, sdk_errors
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.form import form_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.plan import plan_lines, stack_plan
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.record import build_instantiated_info, heal_targets, marked_members, members_to_remove
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.stack import Stacks
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import HeatRecordStore, stack_name, stack_tags, with_record_resource
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import (
    PRIVATE,
    Waits,
    level_diff,
    levels_diff,
    private_state,
    sizing_rules,
    storage_changes,
    vnfc_changes,
    with_scale_levels,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.engine import Operation
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.merge_patch import rebase
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.schema import field_path
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.sizing import (
    changed_levels,
    initial_scale_status,
    replicas_at_levels,
    replicas_for,
    scale_level_after,
    target_scale_levels,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import (
    HEAL_VNF_REQUEST,
    INSTANTIATE_VNF_REQUEST,
    SCALE_VNF_REQUEST,
    SCALE_VNF_TO_LEVEL_REQUEST,
    heals_storage,
    validate_heal_request,
    validate_instantiate_request,
    validate_scale_request,
    validate_scale_to_level_request,
    validate_terminate_request,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import current_scale_levels, new_vnf_instance, require_instantiation_state

INSTANTIATED = "INSTANTIATED"
NOT_INSTANTIATED = "NOT_INSTANTIATED"
# The flavour parts later operations need to rebuild the stack without the package.
FLAVOUR_KEYS = ("vdus", "cps", "virtual_links", "virtual_storages")
HEAL_REASON = "healed by nfv.vnflcm (HealVnfRequest)"
SCALE_IN_REASON = "removed by nfv.vnflcm (scale in)"


class HeatVim:
    """An OpenStack cloud as the driver uses it: the SDK connection, its stacks, and the call counter."""

    def __init__(self, conn, vim_id=None, vim=None):
        self.conn = conn
        self.stacks = Stacks(conn)
        self.counter = CallCounter(conn)
        self.vim_id = vim_id
        self.vim = vim


# ---------------------------------------------------------------------------------------------
# The stack a VNF instance gets

def desired_stack(private, indexes, image_ids):
    """``(template, nfv)`` for VNFCs ``indexes`` (VDU -> list of indexes), from the record's private state.

    On a stack a package user-data script made (``private["user_data"]``), the built-in change from what the script was
    given to what is asked now is applied to the stack as the script made it (as Tacker merges an operation's fields into
    the stack): what the script set for a VNFC stays while that VNFC does; VNFCs added later get the built-in entries.
    """
    template, nfv = built_in_stack(private, indexes, image_ids)
    made = private.get("user_data")
    if made:
        before_template, before_nfv = built_in_stack(dict(private, request=made["request"]), made["vnfcs"], image_ids)
        template, nfv = rebase(made["stack"]["template"], before_template, template), rebase(made["stack"]["nfv"], before_nfv, nfv)
    return template, nfv


def built_in_stack(private, indexes, image_ids):
    """``(template, nfv)`` as this collection builds them (Tacker's StandardUserData / DefaultUserData)."""
    flavour, request = private["flavour"], private["request"]
    managed = [link["vnfVirtualLinkDescId"] for link in request.get("extManagedVirtualLinks") or []]
    form = form_of(private["base_template"])
    template = with_record_resource(form.stack_template(private["base_template"], indexes, managed))
    nfv = nfv_params.build_nfv(flavour, request, indexes, form=form)
    return template, nfv_params.with_image_ids(nfv, image_ids)


def indexes_for(counts):
    return {vdu_id: list(range(count)) for vdu_id, count in counts.items()}


def rescaled(indexes, counts):
    """VNFC indexes after a scale: new VNFCs get the next free index, scale-in removes the newest (highest)."""
    result = {}
    for vdu_id, current in indexes.items():
        current = sorted(current)
        wanted = counts.get(vdu_id, len(current))
        while len(current) < wanted:
            current.append((current[-1] + 1) if current else 0)
        result[vdu_id] = current[:wanted]
    return result


# ---------------------------------------------------------------------------------------------
# Checking the request against the cloud (before anything is written)

def resolve_images(vim, nfv, flavour, request, cache=None, what=INSTANTIATE_VNF_REQUEST):
    """Glance image id per image name the nfv parameter uses; ValidationError names where the name came from."""
    patch = ((request.get("additionalParams") or {}).get("nfv") or {}).get("VDU") or {}
    names = nfv_params.image_names(flavour)
    found = dict(cache or {})
    for key, entry in sorted((nfv.get("VDU") or {}).items()):
        name = (entry or {}).get("vcImageId")
        if not name or name in found:
            continue
        with sdk_errors("find", "image {0!r}".format(name)):
            image = vim.conn.image.find_image(name, ignore_missing=True)
        if image is None:
            if "vcImageId" in (patch.get(key) or {}):
                source, field = what, "additionalParams.nfv.VDU.{0}.vcImageId".format(key)
            else:
                vdu = heat_template.split_vnfc_name(key)[0]
                source, field = "VNF package", "{0}.sw_image_data.name".format(vdu if vdu in names else key)
            raise ValidationError(source, field, "image {0!r} does not exist in Glance".format(name))
        found[name] = image.id
    return found


def check_flavours(vim, nfv, request, what=INSTANTIATE_VNF_REQUEST):
    patch = ((request.get("additionalParams") or {}).get("nfv") or {}).get("VDU") or {}
    checked = set()
    for key, entry in sorted((nfv.get("VDU") or {}).items()):
        flavor = (entry or {}).get("computeFlavourId")
        if not flavor or flavor in checked:
            continue
        with sdk_errors("find", "flavor {0!r}".format(flavor)):
            exists = vim.conn.compute.find_flavor(flavor, ignore_missing=True) is not None
        if not exists:
            if "computeFlavourId" in (patch.get(key) or {}):
                source, field = what, "additionalParams.nfv.VDU.{0}.computeFlavourId".format(key)
            else:
                source, field = "VNF package", "{0}.requested_additional_capability_name".format(heat_template.split_vnfc_name(key)[0])
            raise ValidationError(source, field, "Nova flavor {0!r} does not exist".format(flavor))
        checked.add(flavor)


def check_connectivity(vim, request, what=INSTANTIATE_VNF_REQUEST):
    """Networks, subnets and ports the request names must exist (and a subnet must be on its link's network)."""
    network = vim.conn.network
    for index, link in enumerate(request.get("extVirtualLinks") or []):
        path = field_path("extVirtualLinks", index)
        net = _find(network.find_network, link.get("resourceId"), field_path(path, "resourceId"), "network", what)
        for port_index, port in enumerate(link.get("extLinkPorts") or []):
            port_path = field_path(field_path(field_path(path, "extLinkPorts"), port_index), "resourceHandle.resourceId")
            _find(network.find_port, (port.get("resourceHandle") or {}).get("resourceId"), port_path, "port", what)
        for cp_index, ext_cp in enumerate(link.get("extCps") or []):
            cp_path = field_path(field_path(path, "extCps"), cp_index)
            for config_id, config in (ext_cp.get("cpConfig") or {}).items():
                config_path = field_path(field_path(cp_path, "cpConfig"), config_id)
                for proto_index, protocol in enumerate(config.get("cpProtocolData") or []):
                    addresses = (protocol.get("ipOverEthernet") or {}).get("ipAddresses") or []
                    for address_index, address in enumerate(addresses):
                        if not address.get("subnetId"):
                            continue
                        subnet_path = "{0}.cpProtocolData[{1}].ipOverEthernet.ipAddresses[{2}].subnetId".format(config_path, proto_index, address_index)
                        subnet = _find(network.find_subnet, address["subnetId"], subnet_path, "subnet", what)
                        if subnet.network_id != net.id:
                            raise ValidationError(what, subnet_path, "subnet {0!r} is not on network {1!r}".format(
                                address["subnetId"], link.get("resourceId")))
    for index, managed in enumerate(request.get("extManagedVirtualLinks") or []):
        _find(network.find_network, managed.get("resourceId"), field_path(field_path("extManagedVirtualLinks", index), "resourceId"), "network", what)


def _find(finder, name_or_id, field, kind, what):
    if not name_or_id:
        raise ValidationError(what, field, "the {0} is missing".format(kind))
    with sdk_errors("find", "{0} {1!r}".format(kind, name_or_id)):
        found = finder(name_or_id, ignore_missing=True)
    if found is None:
        raise ValidationError(what, field, "{0} {1!r} does not exist".format(kind, name_or_id))
    return found


# ---------------------------------------------------------------------------------------------
# Instantiate

def load_flavour_hot(package, flavour_id):
    try:
        return heat_template.load_base_hot(package, flavour_id)
    except PackageError as error:
        raise ValidationError(INSTANTIATE_VNF_REQUEST, "flavourId", "flavour {0!r} cannot be deployed on OpenStack: {1}".format(
            flavour_id, error.reason))


def load_form(base_template, what=INSTANTIATE_VNF_REQUEST):
    try:
        return form_of(base_template)
    except PackageError as error:
        raise ValidationError(what, "flavourId", "the flavour's BaseHOT cannot be deployed: {0}".format(error.reason))


def instantiation_summary(request):
    """What makes two instantiate requests the same one (for idempotent re-runs)."""
    keys = ("flavourId", "instantiationLevelId", "extVirtualLinks", "extManagedVirtualLinks", "additionalParams")
    return {key: request.get(key) for key in keys}


def plan_instantiate(vim, package, name, request, description=None, instance_id=None, waits=None, preview=False, allow_scripts=False):
    """Create (when needed) and instantiate a VM-based VNF: one Heat stack from the flavour's BaseHOT.

    ``allow_scripts``: the user's opt-in to a package user-data script the request names (heat/user_data.py).
    """
    waits = waits or Waits()
    vnfd = package.to_dict()["vnfd"]
    request = validate_instantiate_request(request, vnfd)
    flavour_id = request["flavourId"]
    base_template, files = load_flavour_hot(package, flavour_id)
    flavour = package.flavour(flavour_id)
    store = HeatRecordStore(vim.stacks)
    found = store.find(instance_id, name)
    instance, op_occs, version = found or (new_vnf_instance(vnfd, name, description, instance_id=instance_id), [], None)
    wanted = instantiation_summary(request)
    if instance.get("instantiationState") == INSTANTIATED:
        return already_instantiated(instance, wanted, store, op_occs, version)

    level_id = request.get("instantiationLevelId")
    indexes = indexes_for(nfv_params.vnfc_counts(flavour, level_id))
    check_connectivity(vim, request)
    private = {"flavour": dict(sizing_rules(flavour), **{key: copy.deepcopy(flavour.get(key)) for key in FLAVOUR_KEYS}),
               "base_template": base_template, "request": request, "instantiation": wanted, "vnfcs": indexes}
    form = load_form(base_template)
    script = user_data.script_of(request, form, INSTANTIATE_VNF_REQUEST, "INSTANTIATE", allow_scripts)
    names_nfv = nfv_params.build_nfv(private["flavour"], request, indexes, form=form)
    check_flavours(vim, names_nfv, request)
    private["images"] = resolve_images(vim, names_nfv, flavour, request)
    template, nfv = desired_stack(private, indexes, private["images"])
    if script:
        template, files, nfv = scripted_stack(package, script, request, instance, private, indexes, files, waits)
        check_flavours(vim, nfv, request)
    name_of_stack = stack_name(instance["id"])
    plan = {
        "operation": "INSTANTIATE",
        "vnf_instance_id": instance["id"],
        "stack_name": name_of_stack,
        "resources": {key: value.get("type") for key, value in sorted(template["resources"].items())},
        "nfv": nfv,
        "unresolved_nfv_params": heat_template.unresolved_nfv_params(template, nfv),
        "warnings": list(package.warnings),
        "lines": ["{0}: create ({1})".format(key, value.get("type")) for key, value in sorted(template["resources"].items())],
    }
    if script:
        plan["user_data"] = "{0} ({1}.instantiate)".format(script["path"], script["class"])
        plan["lines"].insert(0, "stack fields computed by the package user-data script " + plan["user_data"])
    # Heat's verdict on the whole stack before anything is created (it checks flavours, images, networks).
    shown = preview_summary(vim.stacks.preview_create(name_of_stack, template, files, {"nfv": nfv}))
    if preview:
        plan["preview"] = shown
    orphans = list(store.orphans)
    plan["lines"] += ["stack {0}: delete (left without a record by an interrupted instantiate)".format(item["stack_name"]) for item in orphans]
    vim_connection = request.get("vimConnectionInfo") or {}

    def execute(progress):
        for orphan in orphans:
            vim.stacks.delete(orphan)
            vim.stacks.wait_deleted(orphan, waits.timeout)
        stack = vim.stacks.create(name_of_stack, template, files, {"nfv": nfv}, stack_tags(instance), timeout_mins(waits))
        progress["stack"] = stack
        # The record goes into the stack at once: should this process die now, a later run finds both.
        store.attach(stack)
        metadata = {PRIVATE: private, "nfv": nfv, "stack_id": stack["id"], "stack_name": stack["stack_name"]}
        progress.checkpoint(dict(instance, instantiatedVnfInfo={"flavourId": flavour_id, "metadata": metadata}))
        vim.stacks.wait(stack, "CREATE", None, waits.timeout, progress)
        result = dict(instance, instantiationState=INSTANTIATED)
        if vim_connection:
            result["vimConnectionInfo"] = recordable_vims(vim_connection)
        result["instantiatedVnfInfo"] = {"flavourId": flavour_id, "vnfState": "STARTED",
                                         "scaleStatus": initial_scale_status(flavour, level_id),
                                         "maxScaleLevels": max_scale_levels(flavour)}
        result = refreshed(vim, result, stack, private, nfv)
        progress["resourceChanges"] = vnfc_changes([], result)
        return result

    diff = {"before": {"instantiationState": instance.get("instantiationState")},
            "after": {"instantiationState": INSTANTIATED, "stack": name_of_stack, "resources": plan["resources"], "nfv": nfv}}
    return Operation("INSTANTIATE", request, instance, plan, store, op_occs, version, execute=execute, diff=diff)


def scripted_stack(package, script, request, instance, private, indexes, files, waits):
    """``(template, files, nfv)`` the package user-data script's ``instantiate`` returns; ``private`` keeps what later
    operations need to apply their built-in changes to that stack (:func:`desired_stack`)."""
    arguments = user_data.instantiate_arguments(request, instance, private["flavour"], indexes, "instantiate-" + instance["id"])
    fields = user_data.run_script(package, script, "instantiate", arguments, waits.timeout, INSTANTIATE_VNF_REQUEST)
    where = "the result of package user-data script {0} ({1}.instantiate)".format(script["path"], script["class"])
    if fields["template"] is None or fields["nfv"] is None:
        raise ValidationError(INSTANTIATE_VNF_REQUEST, "additionalParams." + user_data.USER_DATA, where + " has no template or no nfv parameter")
    if heat_template.NFV_PARAM not in (fields["template"].get("parameters") or {}):
        raise ValidationError(INSTANTIATE_VNF_REQUEST, "additionalParams." + user_data.USER_DATA, where + ": its template does not take the nfv parameter")
    template = with_record_resource(fields["template"])
    private["user_data"] = {"script": script["path"], "class": script["class"], "stack": {"template": template, "nfv": fields["nfv"]},
                            "request": copy.deepcopy(request), "vnfcs": copy.deepcopy(indexes)}
    return template, files if fields["files"] is None else fields["files"], fields["nfv"]


def already_instantiated(instance, wanted, store, op_occs, version):
    done = private_state(instance).get("instantiation")
    if done != wanted:
        raise ConflictError("instantiate", "VNF instance {0}".format(instance["id"]),
                            "it is already INSTANTIATED with another request; terminate it first, or use vnf_scale / vnf_heal")
    metadata = instance["instantiatedVnfInfo"].get("metadata") or {}
    plan = {"operation": "INSTANTIATE", "vnf_instance_id": instance["id"], "stack_name": metadata.get("stack_name"),
            "lines": ["no change: already instantiated as requested"]}
    return Operation("INSTANTIATE", {}, instance, plan, store, op_occs, version, changed=False)


def max_scale_levels(flavour):
    return [{"aspectId": aspect_id, "scaleLevel": aspect.get("max_scale_level") or 0}
            for aspect_id, aspect in sorted((flavour.get("scaling_aspects") or {}).items())]


def timeout_mins(waits):
    return max(1, -(-int(waits.timeout) // 60))


def preview_summary(preview):
    """``name (type)`` of each resource a stack preview shows, nested stacks flattened."""
    found = []

    def walk(items, prefix):
        for item in items:
            if isinstance(item, list):
                walk(item, prefix)
            elif isinstance(item, dict):
                found.append("{0}{1} ({2})".format(prefix, item.get("resource_name"), item.get("resource_type")))
    walk(preview.get("resources") or [], "")
    return sorted(found)


def update_preview_summary(changes):
    """Resource names per kind of change (added, deleted, replaced, updated, unchanged) of a stack update preview."""
    summary = {}
    for kind, items in sorted((changes or {}).items()):
        names = []
        pending = list(items or [])
        while pending:
            item = pending.pop()
            if isinstance(item, list):
                pending.extend(item)
            elif isinstance(item, dict):
                names.append(item.get("resource_name"))
        summary[kind] = sorted(name for name in names if name)
    return summary


def refreshed(vim, instance, stack, private, nfv):
    """``instance`` with instantiatedVnfInfo read from the stack's resources, and the record's private state."""
    resources = vim.stacks.resources(stack)
    info = copy.deepcopy(instance.get("instantiatedVnfInfo") or {})
    configured = {item["id"]: item["vnfcConfigurableProperties"] for item in info.get("vnfcInfo") or [] if "vnfcConfigurableProperties" in item}
    info.update(build_instantiated_info(resources, private["flavour"], private["request"], nfv, vim.vim_id))
    # What vnf_modify set on a VNFC stays while the VNFC does (a replaced server is a new VNFC, as in Tacker v2).
    for item in info.get("vnfcInfo") or []:
        if item["id"] in configured:
            item["vnfcConfigurableProperties"] = configured[item["id"]]
    info["metadata"] = {"stack_id": stack["id"], "stack_name": stack["stack_name"], "nfv": nfv, PRIVATE: private}
    return dict(instance, instantiatedVnfInfo=info)


def stack_nfv(vim, stack):
    """The nfv parameter as Heat has it now."""
    nfv = ((vim.stacks.get(stack) or {}).get("parameters") or {}).get("nfv") or {}
    return json.loads(nfv) if isinstance(nfv, str) else nfv


def located_stack(instance):
    metadata = (instance.get("instantiatedVnfInfo") or {}).get("metadata") or {}
    if not metadata.get("stack_id"):
        raise NotFoundError("the Heat stack of VNF instance {0}".format(instance["id"]))
    return {"stack_name": metadata["stack_name"], "id": metadata["stack_id"]}


# ---------------------------------------------------------------------------------------------
# Stack updates shared by scale, heal and their retries

def update_stack(vim, stack, template, nfv, waits, progress, files=None):
    """PATCH the stack (template, files and nfv; what is not sent keeps its value) and follow its events.

    A template sent without ``files`` keeps the stack's nested templates. An update that an interrupted run
    sent may still be in progress: it is let end first, or its end would be taken for this one's.
    """
    vim.stacks.wait_settled(stack, waits.timeout)
    marker = vim.stacks.last_event_id(stack)
    if template is not None and files is None:
        files = vim.stacks.files(stack)
    vim.stacks.patch(stack, template, files, {"nfv": nfv} if nfv is not None else {}, timeout_mins(waits))
    progress["stack"] = stack
    return vim.stacks.wait(stack, "UPDATE", marker, waits.timeout, progress)


def refuse_scripts(request, private, what, operation):
    """A request of an operation that is not given the package may name the form's built-in class only (heat/user_data.py)."""
    if user_data.names_script(request):
        user_data.script_of(request, form_of(private["base_template"]), what, operation)


def stack_description(private, indexes):
    template, nfv = desired_stack(private, indexes, private.get("images") or {})
    return {"template": template, "files": {}, "nfv": nfv}


# ---------------------------------------------------------------------------------------------
# Scale

def plan_scale(vim, store, found, request, waits=None, preview=False):
    """Scale an aspect by ``numberOfSteps`` within 0..max_scale_level: adds or removes ``<VDU>-<idx>`` resources."""
    waits = waits or Waits()
    instance, op_occs, version = found
    require_instantiation_state(instance, INSTANTIATED, "SCALE")
    private = private_state(instance)
    levels = current_scale_levels(instance)
    request = validate_scale_request(request, private["flavour"], levels)
    refuse_scripts(request, private, SCALE_VNF_REQUEST, "SCALE")
    aspect_id = request["aspectId"]
    level = scale_level_after(levels.get(aspect_id, 0), request)
    indexes = rescaled(private["vnfcs"], replicas_for(private["flavour"], aspect_id, level))
    levels_plan = {"aspect_id": aspect_id, "from_level": levels.get(aspect_id, 0), "to_level": level}
    return _scale_operation(vim, store, found, request, waits, {aspect_id: level}, indexes, levels_plan, preview,
                            diff=level_diff(aspect_id, levels.get(aspect_id, 0), level))


def plan_scale_to_level(vim, store, found, request, waits=None, preview=False):
    """Scale to absolute levels (an instantiation level or per-aspect levels): one stack update with the VNFCs of every
    aspect whose level changes; nothing to do (no stack update) when every aspect is already at its target."""
    waits = waits or Waits()
    instance, op_occs, version = found
    require_instantiation_state(instance, INSTANTIATED, "SCALE_TO_LEVEL")
    private = private_state(instance)
    levels = current_scale_levels(instance)
    request = validate_scale_to_level_request(request)
    refuse_scripts(request, private, SCALE_VNF_TO_LEVEL_REQUEST, "SCALE_TO_LEVEL")
    changes = changed_levels(levels, target_scale_levels(private["flavour"], request, levels))
    levels_plan = {"from_levels": {aspect_id: pair[0] for aspect_id, pair in changes.items()},
                   "to_levels": {aspect_id: pair[1] for aspect_id, pair in changes.items()}}
    if not changes:
        plan = dict(levels_plan, operation="SCALE_TO_LEVEL", vnf_instance_id=instance["id"], lines=["no change: already at the requested scale levels"])
        return Operation("SCALE_TO_LEVEL", request, instance, plan, store, op_occs, version, changed=False)
    indexes = rescaled(private["vnfcs"], replicas_at_levels(private["flavour"], levels_plan["to_levels"]))
    return _scale_operation(vim, store, found, request, waits, levels_plan["to_levels"], indexes, levels_plan, preview,
                            name="SCALE_TO_LEVEL", diff=levels_diff(changes))


def _scale_operation(vim, store, found, request, waits, to_levels, indexes, levels_plan, preview=False, name="SCALE", diff=None):
    """The stack update to VNFCs ``indexes`` that brings the aspects of ``to_levels`` to their levels (SCALE, SCALE_TO_LEVEL
    and their rollbacks, which restore the recorded VNFCs and change no level)."""
    instance, op_occs, version = found
    private = private_state(instance)
    stack = located_stack(instance)
    before, after = stack_description(private, private["vnfcs"]), stack_description(private, indexes)
    change = stack_plan(before, after)
    plan = dict(levels_plan, operation=name, vnf_instance_id=instance["id"], stack_name=stack["stack_name"], vnfcs=indexes,
                summary=change["summary"], lines=plan_lines(change))
    counts = {vdu_id: len(values) for vdu_id, values in indexes.items()}
    groups = form_of(private["base_template"]).groups
    if groups:
        # The groups' own lines say more than "resource <group>: changed".
        shown = {"resource {0}: changed".format(group) for group in groups.values()}
        plan["lines"] = group_lines(instance, groups, private["vnfcs"], counts) + [line for line in plan["lines"] if line not in shown]
    # Heat's verdict on the update before it is sent.
    changes = vim.stacks.preview_update(stack, after["template"], vim.stacks.files(stack), {"nfv": after["nfv"]})
    if preview:
        plan["preview"] = changes

    def execute(progress):
        old = instance["instantiatedVnfInfo"].get("vnfcResourceInfo") or []
        if groups:
            # Heat removes unhealthy members first when a group shrinks: mark the ones to go (read afresh, as a retry may follow a kill,
            # once an update an interrupted run sent has ended).
            vim.stacks.wait_settled(stack, waits.timeout)
            resources = vim.stacks.resources(stack)
            going = members_to_remove(resources, counts)
            # A scale in killed between its marks and its update left marks that this update (a rollback) must not act on.
            for member in marked_members(resources, SCALE_IN_REASON):
                if member not in going:
                    vim.stacks.mark_unhealthy(member, SCALE_IN_REASON, unhealthy=False)
            for member in going:
                vim.stacks.mark_unhealthy(member, SCALE_IN_REASON)
        update_stack(vim, stack, after["template"], after["nfv"], waits, progress)
        result = copy.deepcopy(instance)
        result["instantiatedVnfInfo"]["scaleStatus"] = with_scale_levels(result["instantiatedVnfInfo"].get("scaleStatus"), to_levels)
        result = refreshed(vim, result, stack, dict(private, vnfcs=indexes), after["nfv"])
        progress["resourceChanges"] = vnfc_changes(old, result)
        return result

    return Operation(name, request, instance, plan, store, op_occs, version, execute=execute, diff=diff)


def group_lines(instance, groups, current, counts):
    """Plan lines of a scale in DefaultUserData: each group's new capacity and the members (newest first) it loses."""
    lines = []
    vnfcs = (instance.get("instantiatedVnfInfo") or {}).get("vnfcResourceInfo") or []
    for vdu_id, group in sorted(groups.items()):
        before, after = len(current.get(vdu_id) or []), counts.get(vdu_id, 0)
        if before == after:
            continue
        lines.append("{0}: desired_capacity {1} -> {2}".format(group, before, after))
        members = sorted((item for item in vnfcs if (item.get("metadata") or {}).get("scalingGroup") == group), key=lambda item: item["metadata"]["index"])
        lines += ["{0}: remove member {1} (server {2})".format(group, item["metadata"]["stackResource"], item["id"]) for item in members[after:]]
    return lines


# ---------------------------------------------------------------------------------------------
# Heal

def plan_heal(vim, store, found, request, waits=None, preview=False):
    """Replace the servers of the named VNFCs (all VNFCs when none is named), with additionalParams.all their volumes too:
    mark them unhealthy, then update the stack."""
    waits = waits or Waits()
    instance, op_occs, version = found
    require_instantiation_state(instance, INSTANTIATED, "HEAL")
    request = validate_heal_request(request or {}, instance)
    refuse_scripts(request, private_state(instance), HEAL_VNF_REQUEST, "HEAL")
    info = instance["instantiatedVnfInfo"]
    by_vnfc = {item["id"]: item for item in info.get("vnfcInfo") or []}
    resources = {item["id"]: item for item in info.get("vnfcResourceInfo") or []}
    chosen = request.get("vnfcInstanceId") or sorted(by_vnfc)
    targets = [resources[by_vnfc[vnfc_id]["vnfcResourceInfoId"]] for vnfc_id in chosen]
    stack = located_stack(instance)
    private = private_state(instance)
    plan = {"operation": "HEAL", "vnf_instance_id": instance["id"], "stack_name": stack["stack_name"],
            "replace": [{"vnfc": vnfc_id, "server": item["computeResource"]["resourceId"], "resource": item["metadata"].get("stackResource")}
                        for vnfc_id, item in zip(chosen, targets)]}
    # additionalParams.all (Tacker v2): the VNFCs' volumes are replaced too; without it they are kept and re-attached.
    storage = {item["id"]: item for item in info.get("virtualStorageResourceInfo") or []} if heals_storage(request) else {}
    for entry, item in zip(plan["replace"], targets):
        entry["volumes"] = [{"volume": volume_id, "storage": storage[volume_id].get("virtualStorageDescId")}
                            for volume_id in item.get("storageResourceIds") or [] if volume_id in storage]
    plan["lines"] = ["{0}: replace server {1}".format(item["resource"], item["server"]) for item in plan["replace"]]
    plan["lines"] += ["{0}: replace volume {1} ({2})".format(item["resource"], volume["volume"], volume["storage"])
                      for item in plan["replace"] for volume in item["volumes"]]
    server_ids = {item["computeResource"]["resourceId"] for item in targets}
    volume_ids = {volume["volume"] for item in plan["replace"] for volume in item["volumes"]}

    def execute(progress):
        marked = progress.setdefault("marked_unhealthy", [])
        # A retry may follow a run killed during its update: Heat takes marks once that update has ended.
        vim.stacks.wait_settled(stack, waits.timeout)
        for resource in heal_targets(vim.stacks.resources(stack), server_ids, volume_ids):
            vim.stacks.mark_unhealthy(resource, HEAL_REASON)
            marked.append(resource["physical_resource_id"])
        update_stack(vim, stack, None, None, waits, progress)
        result = refreshed(vim, instance, stack, private, instance["instantiatedVnfInfo"]["metadata"]["nfv"])
        progress["resourceChanges"] = vnfc_changes(info.get("vnfcResourceInfo") or [], result)
        if volume_ids:
            progress["resourceChanges"].update(storage_changes(info.get("virtualStorageResourceInfo") or [], result))
        return result

    return Operation("HEAL", request, instance, plan, store, op_occs, version, execute=execute)


# ---------------------------------------------------------------------------------------------
# Terminate

def plan_terminate(vim, store, found, request, waits=None, preview=False):
    """Delete the stack and wait until it is gone; GRACEFUL first stops the servers (up to gracefulTerminationTimeout)."""
    waits = waits or Waits()
    instance, op_occs, version = found
    request = validate_terminate_request(request or {"terminationType": "GRACEFUL"})
    # Not instantiated, but its record names a stack: what an instantiate that was failed (not rolled back) left.
    leftover = instance.get("instantiationState") != INSTANTIATED and ((instance.get("instantiatedVnfInfo") or {}).get("metadata") or {}).get("stack_id")
    if instance.get("instantiationState") != INSTANTIATED and not leftover:
        plan = {"operation": "TERMINATE", "vnf_instance_id": instance["id"], "lines": ["no change: not instantiated"]}
        return Operation("TERMINATE", request, instance, plan, store, op_occs, version, changed=False)
    stack = located_stack(instance)
    servers = [item["computeResource"]["resourceId"] for item in instance["instantiatedVnfInfo"].get("vnfcResourceInfo") or []]
    graceful = request["terminationType"] == "GRACEFUL"
    plan = {"operation": "TERMINATE", "vnf_instance_id": instance["id"], "stack_name": stack["stack_name"],
            "termination_type": request["terminationType"], "stop_servers": servers if graceful else [],
            "lines": ["stack {0}: delete{1}".format(stack["stack_name"], " (not instantiated: what a failed instantiate left)" if leftover else "")]}

    def execute(progress):
        if graceful:
            stop_servers(vim, servers, request.get("gracefulTerminationTimeout", waits.timeout), progress)
        progress.release_record()
        vim.stacks.delete(stack)
        vim.stacks.wait_deleted(stack, waits.timeout)
        result = {key: value for key, value in instance.items() if key not in ("instantiatedVnfInfo", "vimConnectionInfo")}
        result["instantiationState"] = NOT_INSTANTIATED
        # The record lives in the stack, so it goes with it; the result still reports the final state.
        progress["delete_record"] = True
        progress["resourceChanges"] = vnfc_changes(instance["instantiatedVnfInfo"].get("vnfcResourceInfo") or [], result)
        return result

    return Operation("TERMINATE", request, instance, plan, store, op_occs, version, execute=execute,
                     diff={"before": {"instantiationState": instance.get("instantiationState"), "stack": stack["stack_name"]},
                           "after": {"instantiationState": NOT_INSTANTIATED}})


def stop_servers(vim, server_ids, timeout, progress):
    """Ask Nova to shut the servers down and give them ``timeout`` seconds; servers that do not stop are deleted anyway."""
    compute = vim.conn.compute
    stopping = []
    for server_id in server_ids:
        with sdk_errors("stop", "server " + server_id):
            server = compute.find_server(server_id, ignore_missing=True)
            if server is not None and server.status == "ACTIVE":
                compute.stop_server(server_id)
                stopping.append(server_id)
    progress["stopped"] = stopping
    end_wait = Waits(timeout=timeout, sleep=1).deadline()
    try:
        end_wait.poll(lambda: all(_status(compute, server_id) in ("SHUTOFF", None) for server_id in stopping), "servers to stop")
    except OperationTimeout:
        progress.setdefault("warnings", []).append("servers did not stop within {0}s; deleting them anyway".format(timeout))


def _status(compute, server_id):
    with sdk_errors("read", "server " + server_id):
        server = compute.find_server(server_id, ignore_missing=True)
    return server.status if server is not None else None


# ---------------------------------------------------------------------------------------------
# Retry / rollback of a FAILED_TEMP op occ

def plan_resume(vim, store, found, failed_op_occ, event, waits=None):
    """The operation that carries out ``event`` ("retry" or "rollback") for a FAILED_TEMP op occ of this instance.

    Retry re-plans from the op occ's operationParams against the stored record; rollback of INSTANTIATE
    deletes the stack, of SCALE and SCALE_TO_LEVEL restores the previous VNFCs. HEAL and TERMINATE can only be retried.
    """
    waits = waits or Waits()
    instance, op_occs, version = found
    operation = failed_op_occ["operation"]
    params = failed_op_occ.get("operationParams") or {}
    if operation == "INSTANTIATE":
        return _resume_instantiate(vim, store, found, params, event, waits)
    if event == "retry":
        planner = {"SCALE": plan_scale, "SCALE_TO_LEVEL": plan_scale_to_level, "HEAL": plan_heal, "TERMINATE": plan_terminate}.get(operation)
        if planner is None:
            raise ConflictError("retry", "{0} operation occurrence {1}".format(operation, failed_op_occ["id"]), "this collection cannot retry it on OpenStack")
        if operation == "SCALE":
            # The record still has the levels from before the failed scale: re-plan from them.
            return plan_scale(vim, store, found, params, waits)
        return planner(vim, store, found, params, waits)
    if operation in ("SCALE", "SCALE_TO_LEVEL"):
        # The record still has the VNFCs and levels from before the failed scale: the stack goes back to them.
        private = private_state(instance)
        levels = current_scale_levels(instance)
        if operation == "SCALE":
            aspect_id = params.get("aspectId")
            levels_plan = {"aspect_id": aspect_id, "from_level": levels.get(aspect_id, 0), "to_level": levels.get(aspect_id, 0)}
        else:
            levels_plan = {"to_levels": levels}
        return _scale_operation(vim, store, found, params, waits, {}, private["vnfcs"], levels_plan, name=operation)
    raise ConflictError("roll back", "{0} operation occurrence {1}".format(operation, failed_op_occ["id"]),
                        "SOL003 allows no rollback of {0}; retry it or fail it".format(operation))


def _resume_instantiate(vim, store, found, params, event, waits):
    instance, op_occs, version = found
    metadata = (instance.get("instantiatedVnfInfo") or {}).get("metadata") or {}
    private = metadata.get(PRIVATE)
    if not metadata.get("stack_id") or not private:
        raise ConflictError(event, "INSTANTIATE of VNF instance {0}".format(instance["id"]), "no stack was created; fail it and instantiate again")
    stack = {"stack_name": metadata["stack_name"], "id": metadata["stack_id"]}
    if event == "rollback":
        plan = {"operation": "INSTANTIATE", "vnf_instance_id": instance["id"], "lines": ["stack {0}: delete (rollback)".format(stack["stack_name"])]}

        def rollback(progress):
            progress.release_record()
            vim.stacks.delete(stack)
            vim.stacks.wait_deleted(stack, waits.timeout)
            progress["delete_record"] = True
            result = {key: value for key, value in instance.items() if key != "instantiatedVnfInfo"}
            return dict(result, instantiationState=NOT_INSTANTIATED)

        return Operation("INSTANTIATE", params, instance, plan, store, op_occs, version, execute=rollback)
    described = stack_description(private, private["vnfcs"])
    plan = {"operation": "INSTANTIATE", "vnf_instance_id": instance["id"], "lines": ["stack {0}: update (retry)".format(stack["stack_name"])]}
    flavour = private["flavour"]
    vim.stacks.preview_update(stack, described["template"], vim.stacks.files(stack), {"nfv": described["nfv"]})

    def retry(progress):
        update_stack(vim, stack, described["template"], described["nfv"], waits, progress)
        result = dict(instance, instantiationState=INSTANTIATED)
        result["instantiatedVnfInfo"] = {"flavourId": params.get("flavourId"), "vnfState": "STARTED",
                                         "scaleStatus": initial_scale_status(flavour, params.get("instantiationLevelId")),
                                         "maxScaleLevels": max_scale_levels(flavour)}
        result = refreshed(vim, result, stack, private, described["nfv"])
        progress["resourceChanges"] = vnfc_changes([], result)
        return result

    return Operation("INSTANTIATE", params, instance, plan, store, op_occs, version, execute=retry)
