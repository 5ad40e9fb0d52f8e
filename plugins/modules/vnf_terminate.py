#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
---
module: vnf_terminate
short_description: Terminate a VNF (ETSI NFV-SOL003 TerminateVnfRequest)
version_added: 0.1.0
description:
  - Terminates a VNF instance, as SOL003's C(POST /vnf_instances/{id}/terminate).
  - "Kubernetes: deletes, in reverse kind order, the objects this instance created, and only
    those (each must carry the instance's ownership label), then waits until they are gone.
    When that includes the VNF's namespace, the instance record goes with it."
  - The record stays, NOT_INSTANTIATED, otherwise. A re-run changes nothing, also when the
    instance (or its namespace) is gone; RV(vnf_instance) is then null.
author:
  - nfv.vnflcm maintainers (@nfv-vnflcm)
options:
  request:
    description:
      - The TerminateVnfRequest body, C(terminationType) V(GRACEFUL) (default) or V(FORCEFUL),
        and C(gracefulTerminationTimeout) in seconds (the pods' grace period).
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
    support: full
requirements:
  - kubernetes >= 24.2.0
"""

EXAMPLES = r"""
- name: Terminate gracefully
  nfv.vnflcm.vnf_terminate:
    vnf_instance_name: cnf1
    namespace: tenant-a
    request:
      terminationType: GRACEFUL
      gracefulTerminationTimeout: 30
"""

RETURN = r"""
plan:
  description: The objects to delete, in deletion order.
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

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import plan_terminate
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.runner import instance_module_main


def main():
    instance_module_main(plan_terminate, {"request": {"type": "dict"}}, missing_ok=True)


if __name__ == "__main__":
    main()
