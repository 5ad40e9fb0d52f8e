# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""VM-based VNF lifecycle on OpenStack Heat: one stack per VNF instance, one Heat resource per VNFC (or an AutoScalingGroup
member). What every operation shares; each operation plans in its own file beside this one (instantiate.py, scale.py,
heal.py, terminate.py, modify.py, change_pkg.py, change_ext_conn.py, delete.py), with its module's run
(``run_<operation>``: module params to a finished operation, on lcm/instance_run.py's shared steps); resume.py takes a FAILED_TEMP
op occ to its operation's resumer.

Each ``plan_*`` validates everything (request, VNFD, and the cloud's networks, subnets, ports,
images and flavours), plans, and returns an engine.Operation; the stack writes happen only in the
operation's ``execute``, which engine.run calls (never in check mode). Shared with the Kubernetes
side: request validation (sol/), the op-occ engine, the scaling arithmetic and the record helpers.
"""

from __future__ import annotations

import copy
import json

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, NotFoundError, PackageError, ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import nfv_params, user_data_policy
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import template as heat_template
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.cloud import sdk_errors
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.form import form_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.instantiated_info import build_instantiated_info
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import with_record_resource
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import PRIVATE, sizing_rules
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.state import VmState
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.merge_patch import rebase
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.schema import field_path
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import INSTANTIATE_VNF_REQUEST

# The flavour parts later operations need to rebuild the stack without the package.
FLAVOUR_KEYS = ("vdus", "cps", "virtual_links", "virtual_storages")


def recorded_flavour(flavour):
    """The part of a VNFD flavour the record keeps: what scale, heal and the stack rebuilds need without the package."""
    return dict(sizing_rules(flavour), **{key: copy.deepcopy(flavour.get(key)) for key in FLAVOUR_KEYS})


# ---------------------------------------------------------------------------------------------
# The stack a VNF instance gets

def desired_stack(private: VmState, indexes, image_ids):
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


def built_in_stack(private: VmState, indexes, image_ids):
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


def check_flavours(vim, nfv, request, what=INSTANTIATE_VNF_REQUEST, known=None):
    """Every computeFlavourId of ``nfv`` must be a Nova flavor (ValidationError naming the field). Returns the flavors
    found so far (ids and names), which a second check of the same operation (the stack a user-data script made) takes
    as ``known`` instead of listing Nova's flavors again."""
    patch = ((request.get("additionalParams") or {}).get("nfv") or {}).get("VDU") or {}
    for key, entry in sorted((nfv.get("VDU") or {}).items()):
        flavor = (entry or {}).get("computeFlavourId")
        if not flavor:
            continue
        if known is None:
            # One listing for every flavour named, where a find costs three requests (by id, the list, the match).
            with sdk_errors("list", "Nova flavors"):
                known = set(name for found in vim.conn.compute.flavors(details=False) for name in (found.id, found.name))
        if flavor not in known:
            # Not listed: perhaps a private flavor that only its id finds.
            with sdk_errors("find", "flavor {0!r}".format(flavor)):
                if vim.conn.compute.find_flavor(flavor, ignore_missing=True) is not None:
                    known.add(flavor)
                    continue
            if "computeFlavourId" in (patch.get(key) or {}):
                source, field = what, "additionalParams.nfv.VDU.{0}.computeFlavourId".format(key)
            else:
                source, field = "VNF package", "{0}.requested_additional_capability_name".format(heat_template.split_vnfc_name(key)[0])
            raise ValidationError(source, field, "Nova flavor {0!r} does not exist".format(flavor))
    return known


def check_connectivity(vim, request, what=INSTANTIATE_VNF_REQUEST, nfv_patch=None, placeholders=None, patch_source=None):
    """Networks, subnets and ports the request names must exist (and a subnet must be on its link's network).

    ``nfv_patch``: the additionalParams.nfv the stack gets (of ``patch_source``, ``what`` when not given); every port its
    CP section names must exist. ``placeholders`` (nfv_params.ports_set_by_nfv): extLinkPorts resourceIds that patch
    replaces on every CP they serve, Tacker's ``dummy-id``, which are never used and so not looked up. Returns the plan
    lines saying which port such a CP uses.
    """
    network = vim.conn.network
    placeholders = placeholders or {}
    cp_patch = (nfv_patch or {}).get("CP") if isinstance(nfv_patch, dict) else None
    lines = []
    for key, entry in sorted((cp_patch or {}).items()):
        if isinstance(entry, dict) and entry.get("port") is not None:
            field = "additionalParams.nfv.CP.{0}.port".format(key)
            if not isinstance(entry["port"], str):
                raise ValidationError(patch_source or what, field, "must be the id or name of a Neutron port")
            _find(network.find_port, entry["port"], field, "port", patch_source or what)
    for index, link in enumerate(request.get("extVirtualLinks") or []):
        path = field_path("extVirtualLinks", index)
        net = _find(network.find_network, link.get("resourceId"), field_path(path, "resourceId"), "network", what)
        for port_index, port in enumerate(link.get("extLinkPorts") or []):
            port_path = field_path(field_path(field_path(field_path(path, "extLinkPorts"), port_index), "resourceHandle"), "resourceId")
            resource_id = (port.get("resourceHandle") or {}).get("resourceId")
            if resource_id and resource_id in placeholders:
                lines += ["{0}: port {1} (additionalParams.nfv.CP.{0}.port; {2} {3!r} is not used)".format(key, cp_patch[key]["port"], port_path, resource_id)
                          for key in placeholders[resource_id]]
                continue
            _find(network.find_port, resource_id, port_path, "port", what)
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
    return list(dict.fromkeys(lines))


def _find(finder, name_or_id, field, kind, what):
    if not name_or_id:
        raise ValidationError(what, field, "the {0} is missing".format(kind))
    with sdk_errors("find", "{0} {1!r}".format(kind, name_or_id)):
        found = finder(name_or_id, ignore_missing=True)
    if found is None:
        raise ValidationError(what, field, "{0} {1!r} does not exist".format(kind, name_or_id))
    return found


def load_form(base_template, what=INSTANTIATE_VNF_REQUEST):
    try:
        return form_of(base_template)
    except PackageError as error:
        raise ValidationError(what, "flavourId", "the flavour's BaseHOT cannot be deployed: {0}".format(error.reason))


# ---------------------------------------------------------------------------------------------
# Reading and describing the stack

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


def refreshed(vim, instance, stack, private: VmState, nfv, resources=None):
    """``instance`` with instantiatedVnfInfo read from the stack's resources (``resources`` when they were just read),
    and the record's private state."""
    resources = vim.stacks.resources(stack) if resources is None else resources
    info = copy.deepcopy(instance.get("instantiatedVnfInfo") or {})
    configured = {item["id"]: item["vnfcConfigurableProperties"] for item in info.get("vnfcInfo") or [] if "vnfcConfigurableProperties" in item}
    # The VNFCs' image-<VDU> metadata names each image as Tacker records it: the name, not the Glance id Heat was given.
    shown_nfv = nfv_params.with_image_names(nfv, private.get("images") or {}, private["request"])
    info.update(build_instantiated_info(resources, private["flavour"], private["request"], shown_nfv, vim.vim_id))
    # What vnf_modify set on a VNFC stays while the VNFC does (a replaced server is a new VNFC, as in Tacker v2).
    for item in info.get("vnfcInfo") or []:
        if item["id"] in configured:
            item["vnfcConfigurableProperties"] = configured[item["id"]]
    info["metadata"] = {"stack_id": stack["id"], "stack_name": stack["stack_name"], "nfv": nfv, PRIVATE: private}
    return dict(instance, instantiatedVnfInfo=info)


# Nova's status of a server whose host failed or whose last action did: Nova then refuses to detach its ports, resize it or
# move its CPs (HTTP 409), so a stack update that replaces, resizes or re-plugs it fails, and so would its rollback.
IN_ERROR = "ERROR"


def server_status(compute, server_id):
    """A server's Nova status, None once it is gone."""
    with sdk_errors("read", "server " + server_id):
        server = compute.find_server(server_id, ignore_missing=True)
    return server.status if server is not None else None


def refuse_servers_in_error(vim, instance, vnfc_names, action):
    """Refuse, before the first write, an ``action`` that updates the VNFCs ``vnfc_names`` (stack resource names) when a
    server of one is in ERROR: Heat's update would fail on it midway (Nova refuses the port detach or the resize) and the
    rollback on it the same way. A heal replaces it (it deletes a server in ERROR first); then the action goes through."""
    servers = {(item.get("metadata") or {}).get("stackResource"): item["computeResource"]["resourceId"]
               for item in (instance.get("instantiatedVnfInfo") or {}).get("vnfcResourceInfo") or []}
    in_error = [(name, servers[name]) for name in vnfc_names if name in servers and server_status(vim.conn.compute, servers[name]) == IN_ERROR]
    if in_error:
        named = ", ".join("{0} (server {1})".format(name, server) for name, server in in_error)
        raise ConflictError(action, "VNF instance {0}".format(instance["id"]),
                            "the server of VNFC {0} is in ERROR: Nova neither detaches its ports nor resizes it, so the stack "
                            "update would fail on it, and its rollback too. Heal it first (vnf_heal replaces it), then run this "
                            "again; nothing was written".format(named))


def stack_nfv(vim, stack):
    """The nfv parameter as Heat has it now."""
    return nfv_of(vim.stacks.get(stack))


def nfv_of(stack):
    """The nfv parameter of a stack as Heat shows it (``GET /stacks/<name>/<id>``)."""
    nfv = ((stack or {}).get("parameters") or {}).get("nfv") or {}
    return json.loads(nfv) if isinstance(nfv, str) else nfv


def located_stack(instance):
    metadata = (instance.get("instantiatedVnfInfo") or {}).get("metadata") or {}
    if not metadata.get("stack_id"):
        raise NotFoundError("the Heat stack of VNF instance {0}".format(instance["id"]))
    return {"stack_name": metadata["stack_name"], "id": metadata["stack_id"]}


# ---------------------------------------------------------------------------------------------
# Stack updates shared by the operations and their retries

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


def refuse_scripts(request, private: VmState, what, operation):
    """A request of an operation that is not given the package may name the form's built-in class only (heat/user_data_policy.py)."""
    if user_data_policy.names_script(request):
        user_data_policy.script_of(request, form_of(private["base_template"]), what, operation)


def stack_description(private: VmState, indexes):
    template, nfv = desired_stack(private, indexes, private.get("images") or {})
    return {"template": template, "files": {}, "nfv": nfv}
