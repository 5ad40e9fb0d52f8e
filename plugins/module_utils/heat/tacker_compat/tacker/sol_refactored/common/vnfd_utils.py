# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The VNFD reader a package user-data script gets from ``get_vnfd(vnfd_id, csar_dir)``: Tacker v2's ``Vnfd`` methods.

This tree is put on the script subprocess's path only (heat/user_data.py writes it there), so that a script written
for Tacker (``from tacker.sol_refactored.common import vnfd_utils``) runs unchanged. It reads the package copy the
script is given: TOSCA-Metadata/TOSCA.meta, Definitions/*.yaml and BaseHOT/<flavour>/, with PyYAML's safe loader.
"""

from __future__ import annotations

import os

try:
    import yaml
except ImportError:  # only ever run where PyYAML is (the module's own Python); the collection never calls it
    yaml = None

COMPUTE = "tosca.nodes.nfv.Vdu.Compute"
STORAGE = "tosca.nodes.nfv.Vdu.VirtualBlockStorage"
YAML_ENDINGS = (".yaml", ".yml")


def _load(path):
    with open(path, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def _yaml_files(directory):
    """The YAML files of a directory, in name order (Tacker takes the directory's order, which is arbitrary)."""
    return [entry for entry in sorted(os.listdir(directory)) if entry.endswith(YAML_ENDINGS)]


class Vnfd:
    """A package's VNFD as Tacker's scripts query it: per flavour, from the Definitions file whose substitution_mappings name it."""

    def __init__(self, vnfd_id):
        self.vnfd_id = vnfd_id
        self.tosca_meta = {}
        self.definitions = {}
        self.vnfd_flavours = {}
        self.csar_dir = None

    def init_from_csar_dir(self, csar_dir):
        self.csar_dir = csar_dir
        self.init_vnfd()

    def init_vnfd(self):
        meta = os.path.join(self.csar_dir, "TOSCA-Metadata", "TOSCA.meta")
        if not os.path.isfile(meta):
            raise ValueError("the package at {0} has no TOSCA-Metadata/TOSCA.meta".format(self.csar_dir))
        self.tosca_meta = _load(meta) or {}
        definitions = os.path.join(self.csar_dir, "Definitions")
        for entry in _yaml_files(definitions):
            self.definitions[entry] = _load(os.path.join(definitions, entry))

    def get_vnfd_flavour(self, flavour_id):
        """The Definitions document of the flavour; None when no file defines it."""
        if flavour_id not in self.vnfd_flavours:
            for document in self.definitions.values():
                mappings = ((document or {}).get("topology_template") or {}).get("substitution_mappings") or {}
                if (mappings.get("properties") or {}).get("flavour_id") == flavour_id:
                    self.vnfd_flavours[flavour_id] = document
                    break
            else:
                return None
        return self.vnfd_flavours[flavour_id]

    def _topology(self, flavour_id):
        return (self.get_vnfd_flavour(flavour_id) or {}).get("topology_template") or {}

    def _node_templates(self, flavour_id):
        return self._topology(flavour_id).get("node_templates") or {}

    def get_nodes(self, flavour_id, node_type):
        return {name: node for name, node in self._node_templates(flavour_id).items() if node.get("type") == node_type}

    def get_vdu_nodes(self, flavour_id):
        return self.get_nodes(flavour_id, COMPUTE)

    def get_storage_nodes(self, flavour_id):
        return self.get_nodes(flavour_id, STORAGE)

    def get_virtual_link_nodes(self, flavour_id):
        return self.get_nodes(flavour_id, "tosca.nodes.nfv.VnfVirtualLink")

    def get_vducp_nodes(self, flavour_id):
        return self.get_nodes(flavour_id, "tosca.nodes.nfv.VduCp")

    def get_vdu_cps(self, flavour_id, vdu_name):
        """The VduCps bound to the VDU."""
        return [name for name, node in self.get_vducp_nodes(flavour_id).items()
                if any(req.get("virtual_binding") == vdu_name for req in node.get("requirements") or [])]

    def get_vdu_storages(self, vdu_node):
        return [req["virtual_storage"] for req in vdu_node.get("requirements") or [] if "virtual_storage" in req]

    def get_vl_name_from_cp(self, flavour_id, cp_data):
        for req in cp_data.get("requirements") or []:
            if "virtual_link" in req:
                return req["virtual_link"]
        return None

    def get_sw_image_data(self, flavour_id):
        """``{node name: sw_image_data}`` of the VDUs and volumes that have an image (with ``file``: its artifact's file)."""
        images = {}
        for name, node in self._node_templates(flavour_id).items():
            data = (node.get("properties") or {}).get("sw_image_data")
            if node.get("type") in (COMPUTE, STORAGE) and data:
                images[name] = dict(data)
                artifact = ((node.get("artifacts") or {}).get("sw_image") or {}).get("file")
                if artifact:
                    images[name]["file"] = artifact
        return images

    def get_sw_image(self, flavour_id):
        """``{node name: image name}``: the image a VDU or volume is created from, as the VNFD names it."""
        return {name: data["name"] for name, data in self.get_sw_image_data(flavour_id).items()}

    def get_compute_flavor(self, flavour_id, vdu_name):
        """The VDU's requested_additional_capability_name (the VIM flavour), or None."""
        capability = ((self._node_templates(flavour_id).get(vdu_name) or {}).get("capabilities") or {}).get("virtual_compute") or {}
        requested = (capability.get("properties") or {}).get("requested_additional_capabilities") or {}
        return (requested.get("properties") or {}).get("requested_additional_capability_name") or None

    def get_base_hot(self, flavour_id):
        """``{"template": top template, "files": {name: nested template}}`` of BaseHOT/<flavour>/ as dicts; {} without one."""
        hot = {}
        base = os.path.join(self.csar_dir, "BaseHOT", flavour_id)
        if not os.path.isdir(base):
            return hot
        tops = _yaml_files(base)
        if tops:
            hot["template"] = _load(os.path.join(base, tops[0]))
        nested = os.path.join(base, "nested")
        if os.path.isdir(nested):
            for entry in _yaml_files(nested):
                hot.setdefault("files", {})[entry] = _load(os.path.join(nested, entry))
        return hot

    def get_policy_values_by_type(self, flavour_id, policy_type):
        policies = self._topology(flavour_id).get("policies") or []
        if isinstance(policies, dict):
            policies = [policies]
        return [value for policy in policies for value in policy.values() if value.get("type") == policy_type]

    def get_default_instantiation_level(self, flavour_id):
        for policy in self.get_policy_values_by_type(flavour_id, "tosca.policies.nfv.InstantiationLevels"):
            return (policy.get("properties") or {}).get("default_level")
        return None

    def get_vdu_num(self, flavour_id, vdu_name, instantiation_level):
        for policy in self.get_policy_values_by_type(flavour_id, "tosca.policies.nfv.VduInstantiationLevels"):
            if vdu_name in (policy.get("targets") or []):
                levels = (policy.get("properties") or {}).get("levels") or {}
                return (levels.get(instantiation_level) or {}).get("number_of_instances")
        return 0

    def get_scale_info_from_inst_level(self, flavour_id, inst_level):
        for policy in self.get_policy_values_by_type(flavour_id, "tosca.policies.nfv.InstantiationLevels"):
            return (((policy.get("properties") or {}).get("levels") or {}).get(inst_level) or {}).get("scale_info") or {}
        return {}

    def _aspect(self, flavour_id, aspect_id):
        for policy in self.get_policy_values_by_type(flavour_id, "tosca.policies.nfv.ScalingAspects"):
            aspect = ((policy.get("properties") or {}).get("aspects") or {}).get(aspect_id)
            if aspect is not None:
                return aspect
        return None

    def get_max_scale_level(self, flavour_id, aspect_id):
        return (self._aspect(flavour_id, aspect_id) or {}).get("max_scale_level", 0)

    def get_scale_vdu_and_num(self, flavour_id, aspect_id):
        """``{vdu: instances per step}`` of the aspect (its first step delta, as Tacker takes uniform deltas)."""
        aspect = self._aspect(flavour_id, aspect_id)
        if not aspect or not aspect.get("step_deltas"):
            return {}
        delta, result = aspect["step_deltas"][0], {}
        for policy in self.get_policy_values_by_type(flavour_id, "tosca.policies.nfv.VduScalingAspectDeltas"):
            properties = policy.get("properties") or {}
            if properties.get("aspect") != aspect_id:
                continue
            number = ((properties.get("deltas") or {}).get(delta) or {}).get("number_of_instances")
            if number is None:
                raise ValueError("the VNFD's VduScalingAspectDeltas of {0} have no delta {1}".format(aspect_id, delta))
            result.update((vdu, number) for vdu in policy.get("targets") or [])
        return result

    def get_placement_groups(self, flavour_id):
        groups = self._topology(flavour_id).get("groups") or []
        if isinstance(groups, dict):
            groups = [groups]
        return {name: value.get("members") or [] for group in groups for name, value in group.items()
                if value.get("type") == "tosca.groups.nfv.PlacementGroup"}

    def _targets(self, flavour_id, rule_type):
        groups = self.get_placement_groups(flavour_id)
        result = []
        for policy in self.get_policy_values_by_type(flavour_id, rule_type):
            scope = (policy.get("properties") or {}).get("scope")
            if scope in ("zone", "nfvi_node"):
                members = [member for target in policy.get("targets") or [] for member in groups.get(target, [target])]
                result.append((members, scope))
        return result

    def get_affinity_targets(self, flavour_id):
        return self._targets(flavour_id, "tosca.policies.nfv.AffinityRule")

    def get_anti_affinity_targets(self, flavour_id):
        return self._targets(flavour_id, "tosca.policies.nfv.AntiAffinityRule")
