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
author:
  - nfv.vnflcm maintainers (@nfv-vnflcm)
options:
  request:
    description:
      - The ScaleVnfRequest body, C(type) (V(SCALE_OUT) or V(SCALE_IN)), C(aspectId) and
        C(numberOfSteps) (default 1).
    type: dict
    required: true
extends_documentation_fragment:
  - nfv.vnflcm.instance
  - nfv.vnflcm.kubernetes
  - nfv.vnflcm.wait
  - nfv.vnflcm.attributes
attributes:
  check_mode:
    support: full
  diff_mode:
    support: full
requirements:
  - kubernetes >= 24.2.0
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
"""

RETURN = r"""
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
  description: The SOL003 VnfInstance after the operation (before it, in check mode).
  returned: always
  type: dict
vnf_lcm_op_occ:
  description: The SOL003 VnfLcmOpOcc of the operation, with C(resourceChanges.affectedVnfcs).
  returned: when something was done
  type: dict
api_calls:
  description: How many Kubernetes API reads and writes the operation made.
  returned: always
  type: dict
  sample: {read: 8, write: 3}
"""

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import plan_scale
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.runner import instance_module_main


def main():
    instance_module_main(plan_scale, {"request": {"type": "dict", "required": True}})


if __name__ == "__main__":
    main()
