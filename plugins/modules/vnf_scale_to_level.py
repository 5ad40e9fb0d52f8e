#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
---
module: vnf_scale_to_level
short_description: Scale a VNF to a level (ETSI NFV-SOL003 ScaleVnfToLevelRequest)
version_added: 0.1.0
description:
  - "Scales a VNF instance to absolute scale levels, as SOL003's C(POST /vnf_instances/{id}/scale_to_level):
    either to an instantiation level of its flavour (C(instantiationLevelId)) or to a level per scaling aspect
    (C(scaleInfo)). The operation occurrence is a V(SCALE_TO_LEVEL) one."
  - "The request is checked against the flavour recorded at instantiation before any change: an unknown
    instantiation level or aspect, or a level outside 0 and the aspect's C(max_scale_level) (or beyond a VDU's
    C(max_number_of_instances)), fails naming the field."
  - "The levels are absolute, so the module is idempotent: when every aspect already is at its target level,
    it reports no change and writes nothing (no operation occurrence either)."
  - "Kubernetes: each VDU of an aspect whose level changes gets one C(spec.replicas) patch, then the module
    waits until the workloads are ready and records the new VNFCs. The namespace is the one stored at instantiation."
  - "OpenStack: one stack update (PATCH, existing parameters kept) adds the C(<VDU>-<index>) resources of the
    VNFCs to add (the next free indexes) and removes the newest ones to remove. Check mode shows what Heat
    would add or delete (a stack update preview)."
  - "A failure leaves the operation occurrence V(FAILED_TEMP): M(nfv.vnflcm.vnf_lcm_op_occ) retries it, rolls it
    back to the levels from before, or fails it."
  - "The VIM: O(vim_type), else the options only one VIM takes (O(cloud), O(auth), ... or O(kubeconfig),
    O(host), ...), else the environment (E(OS_CLOUD), E(K8S_AUTH_*)); Kubernetes when nothing says otherwise,
    and an error when both VIMs are given at the same step."
author:
  - nfv.vnflcm maintainers (@nfv-vnflcm)
options:
  request:
    description:
      - The ScaleVnfToLevelRequest body, with exactly one of C(instantiationLevelId) and C(scaleInfo).
      - The module validates the body itself (SOL003), naming the field at fault.
    type: dict
    required: true
    suboptions:
      instantiationLevelId:
        description:
          - An instantiation level of the instance's flavour (C(tosca.policies.nfv.InstantiationLevels)); every
            scaling aspect goes to the level the instantiation level's C(scale_info) gives it, else to 0.
        type: str
      scaleInfo:
        description:
          - The target level of each aspect named; aspects not named keep their level.
        type: list
        elements: dict
        suboptions:
          aspectId:
            description:
              - A scaling aspect of the flavour (C(tosca.policies.nfv.ScalingAspects)), at most once in the list.
            type: str
            required: true
          scaleLevel:
            description:
              - The aspect's target level, within 0 and its C(max_scale_level).
            type: int
            required: true
      additionalParams:
        description:
          - Parameters for the VNFM, kept in the operation occurrence.
        type: dict
extends_documentation_fragment:
  - nfv.vnflcm.instance
  - nfv.vnflcm.kubernetes
  - nfv.vnflcm.openstack
  - nfv.vnflcm.vim
  - nfv.vnflcm.wait
  - nfv.vnflcm.attributes
  - nfv.vnflcm.attributes.full
requirements:
  - kubernetes >= 24.2.0 (Kubernetes VIM)
  - openstacksdk >= 1.0.0 (OpenStack VIM)
"""

EXAMPLES = r"""
- name: Scale a CNF to an instantiation level of its flavour
  nfv.vnflcm.vnf_scale_to_level:
    vnf_instance_name: cnf1
    namespace: tenant-a
    request:
      instantiationLevelId: instantiation_level_2

- name: Scale one aspect of a VM-based VNF on OpenStack back to level 0
  nfv.vnflcm.vnf_scale_to_level:
    vnf_instance_name: vnf1
    cloud: mycloud
    request:
      scaleInfo:
        - aspectId: VDU1_scale
          scaleLevel: 0
"""

RETURN = r"""
vim_type:
  description: The VIM the operation went to, V(kubernetes) or V(openstack).
  returned: success
  type: str
  sample: kubernetes
plan:
  description:
    - The aspects whose level changes (C(from_levels), C(to_levels)); on Kubernetes the replicas per VDU, on
      OpenStack the VNFC indexes per VDU and the resources Heat adds or deletes.
    - Both level maps are empty when there is nothing to do.
  returned: always
  type: dict
  sample:
    operation: SCALE_TO_LEVEL
    from_levels: {vdu1_aspect: 0}
    to_levels: {vdu1_aspect: 2}
    replicas: {VDU1: {kind: Deployment, name: vdu1, replicas: 3}}
vnf_instance:
  description:
    - The SOL003 VnfInstance after the operation (before it, in check mode), with its C(scaleStatus).
    - C(_links) as M(nfv.vnflcm.vnf_info) describes them.
  returned: always
  type: dict
vnf_lcm_op_occ:
  description:
    - The SOL003 VnfLcmOpOcc of the operation, with C(resourceChanges.affectedVnfcs).
    - C(_links) as M(nfv.vnflcm.vnf_info) describes them.
  returned: when something was done
  type: dict
api_calls:
  description: How many API reads and writes the operation made (Kubernetes), or HTTP calls to the OpenStack services
    (C(read), C(write), and C(heat_write) for writes to Heat).
  returned: always
  type: dict
  sample: {read: 6, write: 0}
"""

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.modules import module_main


def packed():
    """Never called: Ansible packs into this module's payload what its imports reach, and these are every driver's
    scale.py, of which module_main imports the one in use (lcm/modules.py)."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import scale as cnf
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import scale as vm
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import scale as helm
    return cnf, vm, helm


def main():
    module_main("scale_to_level", "scale.run_scale_to_level", {"request": {"type": "dict", "required": True}}, ("kubernetes", "openstack", "wait", "instance"),
                required_one_of=[("vnf_instance_id", "vnf_instance_name")])


if __name__ == "__main__":
    main()
