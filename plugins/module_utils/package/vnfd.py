# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Turn loaded TOSCA definitions into the VNFD facts LCM needs: descriptor, flavours, VDUs, CPs, VLs, policies.

Tacker-style VNFDs split the descriptor in a top file (the ``VNF`` node with descriptor_id etc.),
a types file (``company.provider.VNF`` whose property defaults carry the same values) and one
file per deployment flavour (``substitution_mappings`` with the flavour_id, node_templates, policies).
Single-file VNFDs are read too.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.tosca import concrete_properties, requirement_targets

VNF = "tosca.nodes.nfv.VNF"
VDU = "tosca.nodes.nfv.Vdu.Compute"
STORAGE_TYPES = ("tosca.nodes.nfv.Vdu.VirtualBlockStorage", "tosca.nodes.nfv.Vdu.VirtualObjectStorage", "tosca.nodes.nfv.Vdu.VirtualFileStorage")
VDU_CP = "tosca.nodes.nfv.VduCp"
EXT_CP = "tosca.nodes.nfv.VnfExtCp"
VIRTUAL_LINK = "tosca.nodes.nfv.VnfVirtualLink"
SCALING_ASPECTS = "tosca.policies.nfv.ScalingAspects"
VDU_SCALING_DELTAS = "tosca.policies.nfv.VduScalingAspectDeltas"
INSTANTIATION_LEVELS = "tosca.policies.nfv.InstantiationLevels"
VDU_INSTANTIATION_LEVELS = "tosca.policies.nfv.VduInstantiationLevels"
VDU_INITIAL_DELTA = "tosca.policies.nfv.VduInitialDelta"
DESCRIPTOR_FIELDS = ("descriptor_id", "descriptor_version", "provider", "product_name", "software_version", "vnfm_info")
# Policies that define aspects and levels are read before the per-VDU policies that refer to them.
POLICY_ORDER = (SCALING_ASPECTS, INSTANTIATION_LEVELS, VDU_SCALING_DELTAS, VDU_INSTANTIATION_LEVELS, VDU_INITIAL_DELTA)


def parse_vnfd(definitions, describe):
    """The ``vnfd`` part of a package; ``describe(relpath)`` names a file for error messages."""
    types = definitions.types
    top_vnf = find_vnf_node(definitions.documents[0][1].get("topology_template") or {}, types)
    flavour_sources = find_flavour_templates(definitions, types)
    vnf_type = (top_vnf or {}).get("type") or first_substituted_type(flavour_sources)
    descriptor = descriptor_properties(types, vnf_type, top_vnf, flavour_sources)
    if not descriptor.get("descriptor_id"):
        raise PackageError(describe(definitions.entry), "no descriptor_id in the VNF node or in the defaults of its type")
    vnfd = {field: descriptor.get(field) for field in DESCRIPTOR_FIELDS}
    vnfd["vnfm_info"] = list(descriptor.get("vnfm_info") or [])
    vnfd["flavours"] = {}
    vnfd["artifacts"] = {}
    if top_vnf:
        vnfd["artifacts"].update(node_artifacts("VNF", top_vnf, definitions.entry, is_vnf=True))
    for relpath, template in flavour_sources:
        flavour = FlavourParser(relpath, template, types, describe).parse(top_vnf)
        if flavour["flavour_id"] in vnfd["flavours"]:
            raise PackageError(describe(relpath), "flavour {0} is defined twice".format(flavour["flavour_id"]))
        vnfd["artifacts"].update(flavour.pop("artifacts"))
        vnfd["flavours"][flavour["flavour_id"]] = flavour
    return vnfd


def find_vnf_node(template, types):
    """The template's node derived from tosca.nodes.nfv.VNF, or None."""
    for node in (template.get("node_templates") or {}).values():
        if isinstance(node, dict) and types.is_a(node.get("type"), VNF):
            return node
    return None


def find_flavour_templates(definitions, types):
    """``(relpath, topology_template)`` for each deployment flavour.

    A flavour is a template with substitution_mappings; a VNFD without any is a single-file VNFD whose
    entry template is its only flavour.
    """
    substituted = [(relpath, tpl) for relpath, tpl in definitions.templates() if isinstance(tpl.get("substitution_mappings"), dict)]
    if substituted:
        return substituted
    entry_template = definitions.documents[0][1].get("topology_template") or {}
    nodes = entry_template.get("node_templates") or {}
    if any(types.is_a((node or {}).get("type"), VDU) for node in nodes.values()):
        return [(definitions.entry, entry_template)]
    return []


def first_substituted_type(flavour_sources):
    for _relpath, template in flavour_sources:
        node_type = (template.get("substitution_mappings") or {}).get("node_type")
        if node_type:
            return node_type
    return None


def descriptor_properties(types, vnf_type, top_vnf, flavour_sources):
    """Type defaults, overridden by the flavours' VNF nodes, overridden by the top VNF node."""
    values = types.property_defaults(vnf_type) if vnf_type else {}
    for _relpath, template in flavour_sources:
        values.update(concrete_properties((find_vnf_node(template, types) or {}).get("properties")))
    values.update(concrete_properties((top_vnf or {}).get("properties")))
    return values


def node_artifacts(node_name, node, defined_in, is_vnf):
    """Artifacts of one node template.

    The VNF node's artifacts keep their own names because Vnflcm operations refer to them by name;
    other nodes' artifacts (e.g. each VDU's ``sw_image``) are prefixed with the node name to stay unique.
    """
    found = {}
    for name, spec in (node.get("artifacts") or {}).items():
        spec = spec if isinstance(spec, dict) else {"file": spec}
        key = name if is_vnf else "{0}.{1}".format(node_name, name)
        found[key] = {
            "file": spec.get("file"),
            "type": spec.get("type"),
            "description": spec.get("description"),
            "node": node_name,
            "defined_in": defined_in,
        }
    return found


def short_type(types, node_type, candidates):
    """The last segment of the first of ``candidates`` that ``node_type`` derives from."""
    for candidate in candidates:
        if types.is_a(node_type, candidate):
            return candidate.rsplit(".", 1)[-1]
    return None


def vdu_flavour_name(virtual_compute):
    """requested_additional_capability_name, the compute flavour Tacker asks the VIM for."""
    capabilities = virtual_compute.get("requested_additional_capabilities") or {}
    for capability in capabilities.values():
        if isinstance(capability, dict) and capability.get("requested_additional_capability_name"):
            return capability["requested_additional_capability_name"]
    return None


def policy_items(policies):
    """``(name, policy)`` pairs from a TOSCA 1.2 list of one-key maps, or a plain map."""
    if isinstance(policies, dict):
        return list(policies.items())
    items = []
    for entry in policies or []:
        if isinstance(entry, dict):
            items.extend(entry.items())
    return items


class FlavourParser:
    """Parses one deployment-flavour topology template."""

    def __init__(self, relpath, template, types, describe):
        self.relpath = relpath
        self.template = template
        self.types = types
        self.where = describe(relpath)
        self.nodes = {name: node for name, node in (template.get("node_templates") or {}).items() if isinstance(node, dict)}

    def parse(self, top_vnf):
        vnf_name, vnf_node = self._vnf_node()
        flavour = {
            "flavour_id": self._flavour_id(vnf_node),
            "description": self._description(vnf_node),
            "vdus": {},
            "virtual_storages": self._storages(),
            "cps": {},
            "virtual_links": self._virtual_links(),
            "scaling_aspects": {},
            "instantiation_levels": {},
            "default_instantiation_level": None,
            "vdu_initial_delta": {},
            "interfaces": self._interfaces(top_vnf, vnf_node),
            "artifacts": self._artifacts(vnf_name),
        }
        flavour["vdus"] = self._vdus(flavour["virtual_storages"])
        flavour["cps"] = self._cps(flavour)
        self._apply_policies(flavour)
        return flavour

    def _nodes_of(self, *bases):
        """Node templates whose type derives from any of ``bases``, in template order."""
        return {name: node for name, node in self.nodes.items() if any(self.types.is_a(node.get("type"), base) for base in bases)}

    def _vnf_node(self):
        for name, node in self._nodes_of(VNF).items():
            return name, node
        return None, {}

    def _flavour_id(self, vnf_node):
        mapped = ((self.template.get("substitution_mappings") or {}).get("properties") or {}).get("flavour_id")
        own = concrete_properties(vnf_node.get("properties")).get("flavour_id")
        default = self.types.property_defaults(vnf_node.get("type")).get("flavour_id") if vnf_node else None
        flavour_id = mapped or own or default
        if not flavour_id:
            raise PackageError(self.where, "cannot tell the flavour_id: set substitution_mappings.properties.flavour_id")
        return str(flavour_id)

    def _description(self, vnf_node):
        own = concrete_properties(vnf_node.get("properties")).get("flavour_description")
        if own is None and vnf_node:
            own = self.types.property_defaults(vnf_node.get("type")).get("flavour_description")
        return own if own is not None else self.template.get("description")

    def _interfaces(self, top_vnf, vnf_node):
        """Vnflcm operations of the top and the flavour VNF nodes (the flavour's win)."""
        interfaces = {}
        for node in (top_vnf or {}, vnf_node):
            for interface, definition in (node.get("interfaces") or {}).items():
                for op_name, operation in interface_operations(definition).items():
                    interfaces.setdefault(interface, {})[op_name] = normalize_operation(operation)
        return interfaces

    def _artifacts(self, vnf_name):
        artifacts = {}
        for name, node in self.nodes.items():
            artifacts.update(node_artifacts(name, node, self.relpath, is_vnf=(name == vnf_name)))
        return artifacts

    def _storages(self):
        storages = {}
        for name, node in self._nodes_of(*STORAGE_TYPES).items():
            props = node.get("properties") or {}
            data = props.get("virtual_block_storage_data") or props.get("virtual_object_storage_data") or props.get("virtual_file_storage_data") or {}
            storages[name] = {
                "type": short_type(self.types, node.get("type"), STORAGE_TYPES),
                "size_of_storage": data.get("size_of_storage") or data.get("max_size_of_storage"),
                "sw_image_data": props.get("sw_image_data"),
                "storage_data": data,
            }
        return storages

    def _vdus(self, storages):
        vdus = {}
        for name, node in self._nodes_of(VDU).items():
            props = node.get("properties") or {}
            virtual_compute = ((node.get("capabilities") or {}).get("virtual_compute") or {}).get("properties") or {}
            storage_ids = requirement_targets(node, "virtual_storage")
            self._check_refs(name, "virtual_storage", storage_ids, storages)
            sw_image, boot = props.get("sw_image_data"), None
            if not sw_image:
                # Boot from volume: the image belongs to the first attached storage that has one.
                boot = next((sid for sid in storage_ids if storages[sid]["sw_image_data"]), None)
                sw_image = storages[boot]["sw_image_data"] if boot else None
            vdus[name] = {
                "name": props.get("name"),
                "description": props.get("description"),
                "vdu_profile": props.get("vdu_profile") or {},
                "virtual_compute": virtual_compute,
                "flavour": vdu_flavour_name(virtual_compute),
                "sw_image_data": sw_image,
                "virtual_storages": storage_ids,
                "boot_storage": boot,
            }
        return vdus

    def _virtual_links(self):
        links = {}
        for name, node in self._nodes_of(VIRTUAL_LINK).items():
            props = node.get("properties") or {}
            connectivity = props.get("connectivity_type") or {}
            links[name] = {
                "description": props.get("description"),
                "layer_protocols": list(connectivity.get("layer_protocols") or []),
                "connectivity_type": connectivity,
                "vl_profile": props.get("vl_profile") or {},
            }
        return links

    def _cps(self, flavour):
        exposed = self._exposed_requirements()
        cps = {}
        for name, node in self._nodes_of(VDU_CP, EXT_CP).items():
            props = node.get("properties") or {}
            cps[name] = {
                "type": short_type(self.types, node.get("type"), (EXT_CP, VDU_CP)) or "Cp",
                "vdu": self._single_ref(name, node, "virtual_binding", flavour["vdus"]),
                "virtual_link": self._single_ref(name, node, "virtual_link", flavour["virtual_links"]),
                "external_virtual_link": self._single_ref(name, node, "external_virtual_link", None),
                "internal_virtual_link": self._single_ref(name, node, "internal_virtual_link", None),
                "layer_protocols": list(props.get("layer_protocols") or []),
                "order": props.get("order"),
                "exposed_as": exposed.get(name, []),
            }
        return cps

    def _exposed_requirements(self):
        """CP name -> the substitution_mappings requirements that expose it as an external connection point."""
        exposed = {}
        for requirement, mapping in ((self.template.get("substitution_mappings") or {}).get("requirements") or {}).items():
            if isinstance(mapping, list) and mapping:
                exposed.setdefault(mapping[0], []).append(requirement)
        return exposed

    def _single_ref(self, name, node, requirement, known):
        targets = requirement_targets(node, requirement)
        if known is not None:
            self._check_refs(name, requirement, targets, known)
        return targets[0] if targets else None

    def _check_refs(self, name, requirement, targets, known):
        for target in targets:
            if target not in known:
                raise PackageError(self.where, "{0}: requirement {1} refers to {2}, which is not defined in this flavour".format(name, requirement, target))

    def _apply_policies(self, flavour):
        policies = [(name, policy) for name, policy in policy_items(self.template.get("policies")) if isinstance(policy, dict)]
        for base in POLICY_ORDER:
            for name, policy in policies:
                if self.types.is_a(policy.get("type"), base):
                    POLICY_HANDLERS[base](self, flavour, name, policy.get("properties") or {}, policy.get("targets") or [])

    def _vdu_targets(self, flavour, policy_name, targets):
        for target in targets:
            if target not in flavour["vdus"]:
                raise PackageError(self.where, "policy {0} targets {1}, which is not a VDU of this flavour".format(policy_name, target))
        return targets

    def _known(self, kind, known, value, policy_name):
        if value not in known:
            raise PackageError(self.where, "policy {0} refers to {1} {2}, which is not defined (known: {3})".format(
                policy_name, kind, value, ", ".join(sorted(known)) or "none"))
        return known[value]

    def _scaling_aspects(self, flavour, _name, props, _targets):
        for aspect_id, aspect in (props.get("aspects") or {}).items():
            flavour["scaling_aspects"][aspect_id] = {
                "name": aspect.get("name"),
                "description": aspect.get("description"),
                "max_scale_level": aspect.get("max_scale_level"),
                "step_deltas": list(aspect.get("step_deltas") or []),
                "vdus": {},
            }

    def _instantiation_levels(self, flavour, name, props, _targets):
        for level_id, level in (props.get("levels") or {}).items():
            scale_info = level.get("scale_info") or {}
            for aspect_id in scale_info:
                self._known("scaling aspect", flavour["scaling_aspects"], aspect_id, name)
            flavour["instantiation_levels"][level_id] = {"description": level.get("description"), "scale_info": scale_info, "vdus": {}}
        default = props.get("default_level")
        if default is not None:
            self._known("instantiation level", flavour["instantiation_levels"], default, name)
        flavour["default_instantiation_level"] = default

    def _vdu_scaling_deltas(self, flavour, name, props, targets):
        aspect = self._known("scaling aspect", flavour["scaling_aspects"], props.get("aspect"), name)
        deltas = {delta_id: (delta or {}).get("number_of_instances") for delta_id, delta in (props.get("deltas") or {}).items()}
        for vdu in self._vdu_targets(flavour, name, targets):
            aspect["vdus"][vdu] = dict(deltas)

    def _vdu_instantiation_levels(self, flavour, name, props, targets):
        for level_id, level in (props.get("levels") or {}).items():
            entry = self._known("instantiation level", flavour["instantiation_levels"], level_id, name)
            for vdu in self._vdu_targets(flavour, name, targets):
                entry["vdus"][vdu] = (level or {}).get("number_of_instances")

    def _vdu_initial_delta(self, flavour, name, props, targets):
        for vdu in self._vdu_targets(flavour, name, targets):
            flavour["vdu_initial_delta"][vdu] = (props.get("initial_delta") or {}).get("number_of_instances")


POLICY_HANDLERS = {
    SCALING_ASPECTS: FlavourParser._scaling_aspects,
    INSTANTIATION_LEVELS: FlavourParser._instantiation_levels,
    VDU_SCALING_DELTAS: FlavourParser._vdu_scaling_deltas,
    VDU_INSTANTIATION_LEVELS: FlavourParser._vdu_instantiation_levels,
    VDU_INITIAL_DELTA: FlavourParser._vdu_initial_delta,
}


def interface_operations(definition):
    """Operations of an interface, written directly (TOSCA 1.2, as Tacker does) or under ``operations:`` (TOSCA 1.3)."""
    definition = definition or {}
    if isinstance(definition.get("operations"), dict):
        return definition["operations"]
    return {name: operation for name, operation in definition.items() if name not in ("type", "inputs", "notifications")}


def normalize_operation(operation):
    """``{"implementation", "inputs"}`` from an operation in short (``op: artifact``) or long form."""
    if not isinstance(operation, dict):
        return {"implementation": operation, "inputs": {}}
    return {"implementation": operation.get("implementation"), "inputs": operation.get("inputs") or {}}
