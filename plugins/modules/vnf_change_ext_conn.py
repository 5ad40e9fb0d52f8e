#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
---
module: vnf_change_ext_conn
short_description: Change the external connectivity of a VM-based VNF (ETSI NFV-SOL003 ChangeExtVnfConnectivityRequest)
version_added: 0.1.0
description:
  - "Connects external connection points of a VNF instance to other external virtual links, or gives them other
    fixed addresses or ports, as SOL003's C(POST /vnf_instances/{id}/change_ext_conn) and Tacker v2 on OpenStack.
    The operation occurrence is a V(CHANGE_EXT_CONN) one. The instance must be V(INSTANTIATED)."
  - "Each link of C(extVirtualLinks) replaces the instance's external link of the same C(id), or is added; a CP it
    lists leaves the link it was on (a link left without CPs is gone). Links the request does not name stay."
  - "Checked whole before any write, each error naming the field: the request (SOL003), every C(cpdId) an external
    CP of the instance's flavour (recorded at instantiation, no package needed), each CP once, no CP left without a
    link, the networks, subnets (on their link's network) and ports against the cloud, then Heat's preview. A CP of a
    VNFC whose server is in C(ERROR) is refused (Nova does not detach its ports, so the update and its rollback would
    both fail): heal it first (M(nfv.vnflcm.vnf_heal)). A retry of a V(FAILED_TEMP) change is not checked so."
  - "OpenStack only: ONE stack update (PATCH) of the C(nfv) parameter, template and nested files unchanged. Heat
    replaces the ports of the CPs whose network, fixed addresses or port change and re-attaches them to the same
    servers (server ids stay). Check mode shows which CPs move from where to where, and Heat's preview."
  - "Idempotent: when the CPs already are on the requested links with the requested addresses and the record says
    so, the module reports no change and sends no stack update (no operation occurrence either)."
  - "A failure (Heat's, say an address in use) leaves the operation occurrence V(FAILED_TEMP) with the instance's
    record unchanged: M(nfv.vnflcm.vnf_lcm_op_occ) rolls it back (a stack update back to the recorded CP
    parameters), retries it, or fails it."
  - "Kubernetes: refused before anything is read or written; a CNF's external connectivity is its package's
    Services (change them with M(nfv.vnflcm.vnf_change_pkg))."
author:
  - nfv.vnflcm maintainers (@nfv-vnflcm)
options:
  request:
    description:
      - The ChangeExtVnfConnectivityRequest body (SOL003 v3, as Tacker v2 takes it; a list-form C(cpConfig) of
        SOL003 v2.6.1 is taken too).
      - The module validates the body itself (SOL003), naming the field at fault.
    type: dict
    required: true
    suboptions:
      extVirtualLinks:
        description:
          - The external virtual links to connect CPs to (at least one), each an ExtVirtualLinkData as in
            M(nfv.vnflcm.vnf_instantiate) (C(id), C(resourceId) the network, C(extCps) with C(cpdId) and C(cpConfig),
            C(extLinkPorts)).
          - C(cpConfig.*.cpProtocolData[].ipOverEthernet.ipAddresses[]) with C(subnetId) and C(fixedAddresses) gives
            the CP's C(fixed_ips); C(linkPortId) naming an C(extLinkPorts) entry gives it that port.
        type: list
        elements: dict
        required: true
      vimConnectionInfo:
        description:
          - VIM connections, merged into the instance's C(vimConnectionInfo) as a JSON Merge Patch (a V(null)
            entry removes one); secrets are never recorded.
          - An C(interfaceInfo.endpoint) must name the server the module connects to, as for vnf_instantiate's
            C(vimConnectionInfo); another is refused before any write.
        type: dict
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
  - openstacksdk >= 1.0.0 (OpenStack VIM)
"""

EXAMPLES = r"""
- name: Move VDU2's external CP to net1, on a given subnet with a fixed address
  nfv.vnflcm.vnf_change_ext_conn:
    vnf_instance_name: vnf1
    cloud: mycloud
    request:
      extVirtualLinks:
        - id: ext-net1-vdu2
          resourceId: net1
          extCps:
            - cpdId: VDU2_CP1
              cpConfig:
                VDU2_CP1_1:
                  cpProtocolData:
                    - layerProtocol: IP_OVER_ETHERNET
                      ipOverEthernet:
                        ipAddresses:
                          - type: IPV4
                            subnetId: net1-subnet
                            fixedAddresses: [10.11.0.50]

- name: Show which CPs would move, and Heat's preview, without changing anything
  nfv.vnflcm.vnf_change_ext_conn:
    vnf_instance_name: vnf1
    cloud: mycloud
    request: "{{ lookup('ansible.builtin.file', 'change_ext_conn_req.json') | from_json }}"
  check_mode: true
  register: planned

- name: Roll back a change that failed (FAILED_TEMP)
  nfv.vnflcm.vnf_lcm_op_occ:
    vnf_instance_name: vnf1
    cloud: mycloud
    action: rollback
"""

RETURN = r"""
vim_type:
  description: The VIM the operation went to, always V(openstack).
  returned: success
  type: str
  sample: openstack
plan:
  description:
    - C(moves), per VNFC CP whose C(nfv) values change, C(from) and C(to) (C(network), C(fixed_ips) or C(port));
      C(ext_virtual_links), the instance's external links after the change; C(lines), the same in words.
    - In check mode (and diff mode) also C(preview), the resources Heat would add, delete, replace, update.
  returned: always
  type: dict
  sample:
    operation: CHANGE_EXT_CONN
    moves:
      - cp: VDU2_CP1-0
        from: {network: net0, fixed_ips: [{subnet: net0-subnet}]}
        to: {network: net1, fixed_ips: [{ip_address: 10.11.0.50, subnet: net1-subnet}]}
    lines: ["VDU2_CP1-0: net0 (a dynamic address on net0-subnet) -> net1 (10.11.0.50 on net1-subnet) (port replaced and re-attached to the same server)"]
vnf_instance:
  description:
    - The SOL003 VnfInstance after the operation (before it, in check mode), with its C(extVirtualLinkInfo) and
      C(vnfcResourceInfo) read back from Heat.
    - C(_links) as M(nfv.vnflcm.vnf_info) describes them.
  returned: always
  type: dict
vnf_lcm_op_occ:
  description:
    - The SOL003 VnfLcmOpOcc of the operation, with C(changedExtConnectivity) (the external links that changed)
      and C(resourceChanges.affectedExtLinkPorts).
    - C(_links) as M(nfv.vnflcm.vnf_info) describes them.
  returned: when something was done
  type: dict
api_calls:
  description:
    - HTTP calls to the OpenStack services (C(read), C(write), and C(heat_write) for writes to Heat).
  returned: always
  type: dict
  sample: {read: 14, write: 1, heat_write: 1}
"""

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.modules import module_main


def packed():
    """Never called: Ansible packs into this module's payload what its imports reach, and these are every driver's
    change_ext_conn.py, of which module_main imports the one in use (lcm/modules.py)."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import change_ext_conn as cnf
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import change_ext_conn as vm
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import change_ext_conn as helm
    return cnf, vm, helm


def main():
    module_main("change_ext_conn", "change_ext_conn.run_change_ext_conn", {"request": {"type": "dict", "required": True}},
                ("kubernetes", "openstack", "wait", "instance"),
                required_one_of=[("vnf_instance_id", "vnf_instance_name")])


if __name__ == "__main__":
    main()
