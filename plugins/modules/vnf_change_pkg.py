#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
---
module: vnf_change_pkg
short_description: Change the current VNF package of a VM-based VNF (ETSI NFV-SOL003 ChangeCurrentVnfPkgRequest)
version_added: 0.1.0
description:
  - Moves an instantiated VM-based VNF on OpenStack Heat from its package to a new one, as SOL003's
    C(POST /vnf_instances/{id}/change_vnfpkg) with Tacker v2's rolling update.
  - "What changes: the flavour of a VDU (Nova resize, the server id is kept), its image (rebuild, the
    id is kept; a new boot volume image re-creates the server, and the plan says so), external CPs
    (a port moved to another network or subnet, added or removed), internal VLs and CPs (the new
    package's networks, subnets and ports). The new package's BaseHOT and nested templates are applied."
  - "Plan first: the request is checked against the new VNFD and the cloud (flavours, images,
    networks, subnets; every new external CP needs a network), the new stack is built, and the plan
    says per VNFC and per resource what happens (C(plan.vnfcs), C(plan.summary): resized, rebuilt,
    replaced, added, removed; C(plan.virtual_links)). Check mode returns it with Heat's preview of
    the update and writes nothing."
  - "Rolling update: the VNFCs of each C(additionalParams.vdu_params) VDU are updated one at a time,
    one stack PATCH each; VDUs not named keep their resources. After each VNFC, the coordination hook
    C(additionalParams.lcm-operation-coordinate-new-vnf) runs, if given."
  - "Coordination hooks are Ansible task files (a path in the new package, or an absolute path), Tacker's
    coordinate scripts as Ansible. Each runs in its own C(ansible-playbook) on localhost with the variable
    C(vnflcm_coordination): C(operation), C(vnf_instance_id), C(rollback), C(vnfc) (C(resource), C(vdu_id),
    C(server_id), C(addresses) as Nova gives them, C(ports) per CP), C(old_vnfc_param), C(new_vnfc_param).
    A failing hook fails the operation. The task file's text is kept in the record, so a rollback or retry
    runs the same hook without the package; passwords in the vnfc params are masked there."
  - "A hook that names a Python script (C(.py), as Tacker v2's C(./Scripts/coordinate_vnf.py)) is the package's
    own code: it is refused, before anything is written, unless O(allow_package_scripts=true). See that option
    for how it runs."
  - "Failure leaves the op occ FAILED_TEMP with the stack and the record describing what was done; use
    M(nfv.vnflcm.vnf_lcm_op_occ) to roll back (the VNFCs that were changed go back one at a time, the
    C(lcm-operation-coordinate-old-vnf) hook after each, then the stack's previous template, files and nfv
    exactly, and the record), retry (goes on from where it failed), or fail."
  - "C(vimConnectionInfo), C(extensions), C(vnfConfigurableProperties) and C(additionalParams.nfv) are
    JSON Merge Patches (RFC 7396): a key set to null is removed, objects are merged, arrays replaced."
  - "Re-running a change that succeeded sends no stack update and reports C(changed=false)."
  - Kubernetes VNFs change their package with M(nfv.vnflcm.vnf_modify) (a new C(vnfdId) and C(package)).
  - The module runs on OpenStack only. It takes the Kubernetes options too, so that C(module_defaults) for the
    C(group/nfv.vnflcm.vnflcm) action group apply to every module of the collection; when they select the
    Kubernetes VIM (see O(vim_type)) it fails before it connects, saying so.
author:
  - nfv.vnflcm maintainers (@nfv-vnflcm)
options:
  package:
    description:
      - Path to the new VNF package (a CSAR directory, or a C(.zip)/C(.csar) file). Its VNFD's
        C(descriptor_id) must be the request's C(vnfdId), and it must have the instance's flavour.
    type: path
    required: true
  request:
    description:
      - "The ChangeCurrentVnfPkgRequest body, as Tacker v2 takes it: C(vnfdId), C(extVirtualLinks) (only the
        links that change: a CP listed here leaves the link it was on), C(extManagedVirtualLinks),
        C(vimConnectionInfo) (a map), C(extensions), C(vnfConfigurableProperties), and C(additionalParams)
        with C(upgrade_type) (V(RollingUpdate), required), C(vdu_params) (a list of C(vdu_id) with optional
        C(old_vnfc_param) / C(new_vnfc_param)), C(lcm-operation-coordinate-new-vnf),
        C(lcm-operation-coordinate-old-vnf) and C(nfv)."
      - The fields below are those most often set; the module validates the whole body itself (SOL003, Tacker v2)
        before anything is written, naming the field at fault.
    type: dict
    required: true
    suboptions:
      vnfdId:
        description:
          - The VNFD of O(package) (its C(descriptor_id)).
        type: str
        required: true
      extVirtualLinks:
        description:
          - "The external virtual links that change, each C(id), C(resourceId) (the Neutron network) and C(extCps):
            C(cpdId) and C(cpConfig) with C(cpProtocolData) (fixed IPs, subnets). A CP listed here leaves the link
            it was on."
        type: list
        elements: dict
      extManagedVirtualLinks:
        description:
          - "Networks the VNFM does not create, each C(id), C(vnfVirtualLinkDescId) (the VNFD's VL) and
            C(resourceId) (the Neutron network that replaces the template's own)."
        type: list
        elements: dict
      vimConnectionInfo:
        description:
          - A JSON Merge Patch of the instance's VIM connections (a map). Secrets in C(accessInfo) are masked in all
            output and never stored.
        type: dict
      additionalParams:
        description:
          - "C(upgrade_type) (V(RollingUpdate), required), C(vdu_params) (a list of C(vdu_id) with optional
            C(old_vnfc_param) / C(new_vnfc_param); their passwords are masked in all output and in the record),
            C(lcm-operation-coordinate-new-vnf), C(lcm-operation-coordinate-old-vnf) and C(nfv) (a JSON Merge
            Patch of the stack's C(nfv) parameter)."
        type: dict
        required: true
  allow_package_scripts:
    description:
      - "Run the Python coordination scripts the request names (C(lcm-operation-coordinate-new-vnf) /
        C(-old-vnf) ending in C(.py)), as Tacker v2 does. B(This runs the package's code on the host that
        runs the module), with that host's rights: enable it only for packages you trust as you trust a playbook."
      - "Each script runs as C(<python> <script>) with the Python that runs the module, in a private temporary
        directory (only the script file itself: it cannot import other files of the package), after each VNFC's
        update, bounded by O(wait_timeout). On stdin it gets what Tacker gives it, pickled (the script reads it with
        C(pickle.load) from C(sys.stdin.buffer)): the VDU's C(new_vnfc_param) (C(old_vnfc_param) for the rollback
        script) plus C(ssh_ip), the floating IP, else the first fixed IP, of the VNFC's resource named by its
        C(cp_name), and C(is_rollback). A non-zero exit fails the operation (C(FAILED_TEMP)) with the end of its
        output; retry and rollback work as with task files."
      - "Modules the script imports must be installed for that Python (Tacker's samples import C(paramiko),
        C(oslo_log) or Tacker itself)."
      - "Without it, a request that names a Python script is refused before anything is written. The record keeps
        the script's text and this opt-in, so M(nfv.vnflcm.vnf_lcm_op_occ) retries and rolls back without it."
      - Ansible task files (C(.yml)) never need it.
    type: bool
    default: false
extends_documentation_fragment:
  - nfv.vnflcm.instance
  - nfv.vnflcm.kubernetes
  - nfv.vnflcm.openstack
  - nfv.vnflcm.vim
  - nfv.vnflcm.wait
  - nfv.vnflcm.attributes
  - nfv.vnflcm.attributes.full
requirements:
  - openstacksdk >= 1.0.0
notes:
  - C(wait_timeout) applies to each stack update and to each hook.
  - VDUs not named in C(vdu_params) keep their current form; a later scale or heal builds every VNFC
    from the new package.
"""

EXAMPLES = r"""
- name: Change to the new package, VDU1 then VDU2, moving VDU1_CP1 to net1
  nfv.vnflcm.vnf_change_pkg:
    vnf_instance_name: vnf1
    cloud: mycloud
    package: /srv/packages/userdata_standard_change_vnfpkg_nw
    request:
      vnfdId: 70a1e5ae-6bd2-4ba7-8f46-2b4d1c6b7e55
      extVirtualLinks:
        - id: ext-net1
          resourceId: net1
          extCps:
            - cpdId: VDU1_CP1
              cpConfig:
                VDU1_CP1_1:
                  cpProtocolData:
                    - layerProtocol: IP_OVER_ETHERNET
                      ipOverEthernet: {ipAddresses: [{type: IPV4, numDynamicAddresses: 1}]}
      additionalParams:
        upgrade_type: RollingUpdate
        lcm-operation-coordinate-new-vnf: ./Scripts/coordinate_new_vnf.yml
        lcm-operation-coordinate-old-vnf: ./Scripts/coordinate_old_vnf.yml
        vdu_params:
          - vdu_id: VDU1
            new_vnfc_param: {cp_name: VDU1_CP1, username: ubuntu, password: "{{ vnfc_password }}"}
          - vdu_id: VDU2

- name: A Tacker v2 request and package as they are, running the package's Python coordination scripts
  nfv.vnflcm.vnf_change_pkg:
    vnf_instance_name: vnf1
    cloud: mycloud
    package: /srv/packages/userdata_standard_change_vnfpkg_nw
    request: "{{ lookup('ansible.builtin.file', 'change_vnfpkg_req.json') | from_json }}"
    # The request names ./Scripts/coordinate_vnf.py: the package's code, run on this host
    allow_package_scripts: true

- name: See what the change would do (plan and Heat's preview, nothing written)
  nfv.vnflcm.vnf_change_pkg:
    vnf_instance_name: vnf1
    cloud: mycloud
    package: /srv/packages/new
    request:
      vnfdId: "{{ new_vnfd_id }}"
      additionalParams: {upgrade_type: RollingUpdate, vdu_params: [{vdu_id: VDU2}]}
  check_mode: true
  register: change_plan

- name: Roll back a change that failed
  nfv.vnflcm.vnf_lcm_op_occ:
    vnf_instance_name: vnf1
    cloud: mycloud
    action: rollback
"""

RETURN = r"""
vim_type:
  description: The VIM the operation went to (V(openstack)).
  returned: success
  type: str
  sample: openstack
plan:
  description:
    - What the change does. C(vnfcs) lists each VNFC resource with its C(action) and C(changes) (resize,
      rebuild, replace, port_moved, cp_added, ...); C(summary) the VNFC names per outcome; C(virtual_links)
      the internal VLs added, removed, changed; C(steps) one entry per stack update (one VNFC each);
      C(updates) their number; C(preview) Heat's update preview (check and diff mode); C(lines) all of it as text.
  returned: always
  type: dict
  sample:
    updates: 2
    summary: {added: [], removed: [], replaced: [], rebuilt: [VDU1-0], resized: [VDU2-0], updated: []}
    lines: ["VDU2-0: resize m1.tiny -> m1.small", "2 stack update(s), one VNFC at a time: VDU1-0, VDU2-0"]
vnf_instance:
  description: The SOL003 VnfInstance after the change (before it, in check mode).
  returned: always
  type: dict
vnf_lcm_op_occ:
  description:
    - The VnfLcmOpOcc (CHANGE_VNFPKG), with C(resourceChanges) (C(affectedVnfcs), C(affectedVirtualLinks),
      C(affectedExtLinkPorts)), C(changedExtConnectivity) and C(modificationsTriggeredByVnfPkgChange).
  returned: when something was done
  type: dict
progress:
  description: On failure, what was done (C(steps), Heat C(events)); the op occ is FAILED_TEMP.
  returned: failure
  type: dict
api_calls:
  description: HTTP calls to the OpenStack services (C(read), C(write), and C(heat_write) for writes to Heat).
  returned: always
  type: dict
  sample: {read: 30, write: 5, heat_write: 5}
"""

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vim import module_main


def main():
    spec = {"package": {"type": "path", "required": True}, "request": {"type": "dict", "required": True},
            "allow_package_scripts": {"type": "bool", "default": False}}
    module_main("change_pkg", spec, ("kubernetes", "openstack", "wait", "instance"), required_one_of=[("vnf_instance_id", "vnf_instance_name")])


if __name__ == "__main__":
    main()
