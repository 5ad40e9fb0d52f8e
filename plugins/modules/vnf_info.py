#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
---
module: vnf_info
short_description: Read VNF instances and their operation occurrences
version_added: 0.1.0
description:
  - Returns the SOL003 VnfInstance records (and their VnfLcmOpOcc history) kept next to the VNFs.
  - With O(vnf_instance_id) or O(vnf_instance_name), that instance; otherwise every instance of
    the namespace. An empty list when there is none.
author:
  - nfv.vnflcm maintainers (@nfv-vnflcm)
extends_documentation_fragment:
  - nfv.vnflcm.instance
  - nfv.vnflcm.kubernetes
  - nfv.vnflcm.attributes
  - nfv.vnflcm.attributes.info_module
requirements:
  - kubernetes >= 24.2.0
"""

EXAMPLES = r"""
- name: All VNF instances of a namespace
  nfv.vnflcm.vnf_info:
    namespace: tenant-a
  register: vnfs

- name: One instance
  nfv.vnflcm.vnf_info:
    vnf_instance_name: cnf1
    namespace: tenant-a
"""

RETURN = r"""
vnf_instances:
  description: SOL003 VnfInstance documents.
  returned: always
  type: list
  elements: dict
vnf_lcm_op_occs:
  description: Their recent VnfLcmOpOcc documents, newest first per instance.
  returned: always
  type: list
  elements: dict
"""

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import runner


def main():
    runner.kubernetes_module_main(runner.info, {}, ("kubernetes", "instance"))


if __name__ == "__main__":
    main()
