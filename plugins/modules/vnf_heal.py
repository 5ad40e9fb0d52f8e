#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
---
module: vnf_heal
short_description: Heal VNFCs of a VNF (ETSI NFV-SOL003 HealVnfRequest)
version_added: 0.1.0
description:
  - Replaces the resources of the named VNFCs, as SOL003's C(POST /vnf_instances/{id}/heal).
  - "Kubernetes: the pod of each VNFC in C(vnfcInstanceId) (all VNFCs when the list is absent) is
    deleted; its controller starts a new one, and a bare Pod is recreated under its name. The
    module waits for the replacements; the VNFC ids stay, their resources change."
  - Healing always replaces resources, so a re-run heals again.
author:
  - nfv.vnflcm maintainers (@nfv-vnflcm)
options:
  request:
    description:
      - The HealVnfRequest body; C(vnfcInstanceId) lists C(vnfcInfo) ids of the instance.
      - When not given, every VNFC is healed.
    type: dict
extends_documentation_fragment:
  - nfv.vnflcm.instance
  - nfv.vnflcm.kubernetes
  - nfv.vnflcm.wait
  - nfv.vnflcm.attributes
attributes:
  check_mode:
    support: full
  diff_mode:
    support: none
requirements:
  - kubernetes >= 24.2.0
"""

EXAMPLES = r"""
- name: Heal one VNFC
  nfv.vnflcm.vnf_heal:
    vnf_instance_name: cnf1
    namespace: tenant-a
    request:
      vnfcInstanceId:
        - "{{ cnf1.vnf_instance.instantiatedVnfInfo.vnfcInfo[0].id }}"
"""

RETURN = r"""
plan:
  description: The VNFCs whose pods are replaced.
  returned: always
  type: dict
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

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import plan_heal
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.runner import instance_module_main


def main():
    instance_module_main(plan_heal, {"request": {"type": "dict"}})


if __name__ == "__main__":
    main()
