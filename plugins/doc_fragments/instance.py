# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
# Options that select a VNF instance.

from __future__ import annotations


class ModuleDocFragment:
    DOCUMENTATION = r"""
options:
  vnf_instance_id:
    description:
      - The id of the VNF instance (C(VnfInstance.id)).
      - One of O(vnf_instance_id) and O(vnf_instance_name) is required.
    type: str
    aliases: [id]
  vnf_instance_name:
    description:
      - The name of the VNF instance (C(vnfInstanceName)). It must be unique in its namespace.
      - At most 255 characters, Tacker's limit for C(vnfInstanceName); a C(vnfInstanceDescription)
        set by a request may have at most 1024.
    type: str
    aliases: [name]
  namespace:
    description:
      - The Kubernetes namespace the VNF instance lives in; its record is kept there, next to
        the VNF.
      - Defaults to the namespace of the kubeconfig context, else C(default).
      - Operations always act in the namespace stored at instantiation; this option only says
        where to find the record.
    type: str
"""
