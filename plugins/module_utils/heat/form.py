# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The two shapes of BaseHOT that Tacker v2 deploys, told apart by the top template itself.

- StandardUserData: a VDU is one resource (a server, or a nested template holding it) that the stack gets
  once per VNFC (``VDU1-0``, ``VDU1-1`` ...); the nfv entries are indexed the same way.
- DefaultUserData: a scalable VDU is an ``OS::Heat::AutoScalingGroup`` whose ``desired_capacity`` is read
  from ``[nfv, VDU, <VDU>, desired_capacity]`` and whose members (nested stacks) are the VNFCs; any other
  VDU is a single resource. The template is deployed as it is and the nfv entries are per VDU and CP.

A flavour uses one form; a template with any AutoScalingGroup is DefaultUserData. Pure.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.template import (
    NFV_PARAM,
    build_stack_template,
    intrinsic,
    vnfc_indexes,
    vnfc_name,
)

STANDARD = "StandardUserData"
DEFAULT = "DefaultUserData"
SCALING_GROUP_TYPE = "OS::Heat::AutoScalingGroup"
CAPACITY = "desired_capacity"


class Form:
    """How VNFCs map onto a stack: ``groups`` is VDU id -> its AutoScalingGroup resource (DefaultUserData only)."""

    def __init__(self, name, groups=None):
        self.name = name
        self.groups = dict(groups or {})

    @property
    def per_vnfc(self):
        return self.name == STANDARD

    def keys(self, name, count, vdu_id):
        """The nfv keys of ``name`` (a VDU, storage or CP of VDU ``vdu_id``) for ``count`` VNFCs of that VDU."""
        indexes = vnfc_indexes(count)
        if self.per_vnfc:
            return [vnfc_name(name, index) for index in indexes]
        # A scaling group reads its entries even at capacity 0.
        return [name] if indexes or vdu_id in self.groups else []

    def capacity(self, vdu_id, count):
        """The entry a scaling group's VDU adds to its nfv VDU entry."""
        return {CAPACITY: len(vnfc_indexes(count))} if vdu_id in self.groups else {}

    def stack_template(self, template, counts, external_vl_ids=()):
        """The template the stack gets: expanded per VNFC (StandardUserData), else as it is; managed VLs swapped in."""
        return build_stack_template(template, counts if self.per_vnfc else {}, external_vl_ids)


STANDARD_FORM = Form(STANDARD)


def form_of(template):
    """The Form of a top template: DefaultUserData when it has AutoScalingGroups, else StandardUserData."""
    groups = {}
    for name, resource in sorted((template.get("resources") or {}).items()):
        if not isinstance(resource, dict) or resource.get("type") != SCALING_GROUP_TYPE:
            continue
        function, path = intrinsic((resource.get("properties") or {}).get(CAPACITY))
        if function != "get_param" or not isinstance(path, list) or len(path) != 4 or path[0] != NFV_PARAM or path[1] != "VDU" or path[3] != CAPACITY:
            raise PackageError(None, "AutoScalingGroup {0} of the top Heat template must read its desired_capacity from "
                                     "[nfv, VDU, <VDU>, desired_capacity]".format(name))
        if path[2] in groups:
            raise PackageError(None, "AutoScalingGroups {0} and {1} both scale VDU {2}".format(groups[path[2]], name, path[2]))
        groups[path[2]] = name
    return Form(DEFAULT, groups) if groups else STANDARD_FORM
