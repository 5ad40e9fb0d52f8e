#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
---
module: vnf_scale
short_description: Scale a VNF by aspect (ETSI NFV-SOL003 ScaleVnfRequest)
version_added: 0.1.0
description:
  - Scales a VNF instance out or in by C(numberOfSteps) steps of a scaling aspect, as SOL003's
    C(POST /vnf_instances/{id}/scale).
  - The new scale level must lie within 0 and the aspect's C(max_scale_level); otherwise the
    module fails before any change.
  - "Kubernetes: each VDU the aspect scales gets one C(spec.replicas) patch (its initial count
    plus the aspect's deltas), then the module waits until the workloads are ready and records
    the new VNFCs. The namespace is the one stored at instantiation."
  - A scale always changes the level, so re-running the same task scales again, as SOL003
    defines; use check mode to see the plan first.
  - "The VIM: O(vim_type), else the options only one VIM takes (O(cloud), O(auth), ... or O(kubeconfig),
    O(host), ...), else the environment (E(OS_CLOUD), E(K8S_AUTH_*)); Kubernetes when nothing says otherwise,
    and an error when both VIMs are given at the same step."
  - "OpenStack: the stack is updated (PATCH, existing parameters kept) with one more C(<VDU>-<index>)
    resource per added VNFC (the next free index), or without the newest ones on scale-in; the record's
    VNFCs follow. Check mode shows what Heat would add or delete (a stack update preview)."
  - "OpenStack, a VDU that is an C(OS::Heat::AutoScalingGroup) (Tacker's DefaultUserData): the update sets the
    group's C(desired_capacity); on scale-in the newest members are first marked unhealthy, so that Heat removes
    those (as Tacker chooses them). The plan names the members that go."
author:
  - nfv.vnflcm maintainers (@nfv-vnflcm)
options:
  request:
    description:
      - The ScaleVnfRequest body, C(type) (V(SCALE_OUT) or V(SCALE_IN)), C(aspectId) and
        C(numberOfSteps) (default 1).
      - The module validates the body itself (SOL003), naming the field at fault.
    type: dict
    required: true
    suboptions:
      type:
        description:
          - Whether to add (V(SCALE_OUT)) or remove (V(SCALE_IN)) VNFCs.
        type: str
        required: true
        choices: [SCALE_OUT, SCALE_IN]
      aspectId:
        description:
          - The scaling aspect of the VNFD's flavour (C(tosca.policies.nfv.ScalingAspects)).
        type: str
        required: true
      numberOfSteps:
        description:
          - How many steps of the aspect; the new level must lie within 0 and the aspect's C(max_scale_level).
        type: int
        default: 1
      additionalParams:
        description:
          - Parameters for the VNFM, kept in the operation occurrence.
        type: dict
extends_documentation_fragment:
  - nfv.vnflcm.automatic_invocation
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
- name: Scale out one step
  nfv.vnflcm.vnf_scale:
    vnf_instance_name: cnf1
    namespace: tenant-a
    request:
      type: SCALE_OUT
      aspectId: vdu1_aspect
      numberOfSteps: 1

- name: Scale a CNF made from a Helm chart (a helm upgrade of the VDU's replica value, the other values kept)
  nfv.vnflcm.vnf_scale:
    vnf_instance_name: helm1
    namespace: tenant-a
    request:
      type: SCALE_OUT
      aspectId: vdu2_aspect

- name: Scale a VM-based VNF out on OpenStack
  nfv.vnflcm.vnf_scale:
    vnf_instance_name: vnf1
    cloud: mycloud
    request:
      type: SCALE_OUT
      aspectId: VDU1_scale
"""

RETURN = r"""
vim_type:
  description: The VIM the operation went to, V(kubernetes) or V(openstack).
  returned: success
  type: str
  sample: openstack
plan:
  description: The aspect, its level before and after, and the replicas per VDU.
  returned: always
  type: dict
  sample:
    aspect_id: vdu1_aspect
    from_level: 0
    to_level: 1
    replicas: {VDU1: {kind: Deployment, name: vdu1, replicas: 2}}
vnf_instance:
  description:
    - The SOL003 VnfInstance after the operation (before it, in check mode).
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
  sample: {read: 8, write: 3}
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
    module_main("scale", "scale.run_scale", {"automatic_invocation": {"type": "bool", "default": False}, "request": {"type": "dict", "required": True}},
                ("kubernetes", "openstack", "wait", "instance"),
                required_one_of=[("vnf_instance_id", "vnf_instance_name")])


if __name__ == "__main__":
    main()
