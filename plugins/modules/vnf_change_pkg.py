#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
---
module: vnf_change_pkg
short_description: Change the current VNF package of a VNF (ETSI NFV-SOL003 ChangeCurrentVnfPkgRequest)
version_added: 0.1.0
description:
  - Moves an instantiated VNF from its package to a new one, as SOL003's C(POST /vnf_instances/{id}/change_vnfpkg)
    with Tacker v2's rolling update, on OpenStack Heat (a VM-based VNF) or on Kubernetes (a CNF).
  - "B(On OpenStack Heat), what changes: the flavour of a VDU (Nova resize, the server id is kept), its image (rebuild, the
    id is kept; a new boot volume image re-creates the server, and the plan says so), external CPs
    (a port moved to another network or subnet, added or removed), internal VLs and CPs (the new
    package's networks, subnets and ports). The new package's BaseHOT and nested templates are applied."
  - "Plan first: the request is checked against the new VNFD and the cloud (flavours, images,
    networks, subnets; every new external CP needs a network), the new stack is built, and the plan
    says per VNFC and per resource what happens (C(plan.vnfcs), C(plan.summary): resized, rebuilt,
    replaced, added, removed; C(plan.virtual_links)). Check mode returns it with Heat's preview of
    the update and writes nothing. A VNFC the change updates whose server is in C(ERROR) is refused (Nova neither
    detaches its ports nor resizes it, so its update and the rollback would both fail): heal it first
    (M(nfv.vnflcm.vnf_heal)). A retry of a V(FAILED_TEMP) change is not checked so."
  - "Rolling update: the VNFCs of each C(additionalParams.vdu_params) VDU are updated one at a time,
    one stack PATCH each; VDUs not named keep their resources. After each VNFC, the coordination hook
    C(additionalParams.lcm-operation-coordinate-new-vnf) runs, if given."
  - "A package of Tacker's DefaultUserData form (a scalable VDU is an C(OS::Heat::AutoScalingGroup)) rolls as Tacker
    does: each member of a named VDU's group gets the new flavour and images (its C(flavor) and C(image-*) properties)
    in a PATCH of the group's own nested stack, a plain server VDU gets its nfv entries in a PATCH of the stack, the
    hook after each; then one update of the whole stack brings the rest (group definitions, members' CPs, nested
    templates). A VDU not named in C(vdu_params) that the new package changes is changed by that last update, all its
    VNFCs at once and with no hook, as Tacker does; a line of C(plan.warnings) says so. The new package must be of the
    instance's form."
  - "Coordination hooks are Ansible task files (a path in the new package, for the old-VNF hook in the instance's current
    package when O(current_package) is given; or an absolute path), Tacker's
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
    exactly, and the record), retry (goes on from where it failed), or fail. A hook that keeps failing never blocks
    the rollback: M(nfv.vnflcm.vnf_lcm_op_occ)'s O(nfv.vnflcm.vnf_lcm_op_occ#module:skip_coordination=true) leaves it
    out, as the hook's failure message says."
  - "C(vimConnectionInfo), C(extensions), C(vnfConfigurableProperties) and C(additionalParams.nfv) are
    JSON Merge Patches (RFC 7396): a key set to null is removed, objects are merged, arrays replaced."
  - "Re-running a change that succeeded sends no stack update and reports C(changed=false)."
  - "B(On Kubernetes), the new package's def files (C(additionalParams.lcm-kubernetes-def-files), required) are
    deployed in the instance's stored namespace, whatever namespace they name, with the instance's ownership labels.
    They are compared with what is deployed: objects only in the new files are created, objects gone from them
    deleted (the Namespace that holds the instance's record never is), objects in both updated when their manifest
    differs in any field. ConfigMaps and Secrets are compared by content with the live ones; a workload that reads
    a changed key restarts even when its own manifest is the same, and only then (as in the container update of
    M(nfv.vnflcm.vnf_modify))."
  - "Each VDU's workload is the one the new VNFD names; a VDU may move to a workload of another name or kind (the new
    one is created and ready before the old one is deleted). Its pod count stays what the instance's scale level
    gives under the new VNFD; a level the new VNFD does not allow is refused (scale first)."
  - "The VDUs named in C(additionalParams.vdu_params) roll one after the other in that order, each rollout waited
    for (the workload's own C(maxUnavailable)/C(maxSurge) keep it available), then the coordination hook runs once
    per pod of the VDU (C(vnflcm_coordination.vnfc): C(pod), C(pod_uid), C(pod_ip), C(workload), C(namespace); a
    Python script gets the pod IP as C(ssh_ip)). VDUs not named keep their workload as deployed; VDUs the new VNFD
    adds roll after the named ones; workloads of VDUs it removes are deleted at the end."
  - "Every write is judged by the API server (server-side dry run) before the first one. Check mode returns the
    plan (C(plan.steps), C(plan.summary), C(plan.lines)); diff mode shows each object before and after (Secret
    values masked)."
  - "Before its first write the change keeps its steps and the objects as they were in a Secret next to the record.
    A failure (a rollout that does not finish within O(wait_timeout), a refused write, the module killed) leaves the
    op occ FAILED_TEMP; M(nfv.vnflcm.vnf_lcm_op_occ) retries the same steps (each can run again), or rolls back:
    every object back as it was (a workload's previous pod template, so a rollout that never finished keeps its
    old pods), created objects deleted, deleted ones created again, no package needed. The record changes only when
    the change is done."
  - "Pods that a Deployment, StatefulSet or DaemonSet (with a rolling update) does not replace by itself (bare Pods,
    ReplicaSets, C(OnDelete)) cannot change their pod template in a change of package: the plan refuses it, and
    M(nfv.vnflcm.vnf_modify) updates their images and configuration (the container update). Use the container update
    for new images and ConfigMap/Secret content within the same def files; use this module when the def files
    themselves change (new names, new or removed objects, any other field)."
author:
  - nfv.vnflcm maintainers (@nfv-vnflcm)
options:
  package:
    description:
      - Path to the new VNF package (a CSAR directory, or a C(.zip)/C(.csar) file). Its VNFD's
        C(descriptor_id) must be the request's C(vnfdId), and it must have the instance's flavour.
    type: path
    required: true
  current_package:
    description:
      - "OpenStack: path to the instance's current VNF package (a CSAR directory, or a C(.zip)/C(.csar) file), the one
        it was instantiated with or last changed to: its VNFD's C(descriptor_id) must be the instance's C(vnfdId), else
        the change is refused before anything is written."
      - "As Tacker v2 does, C(additionalParams.lcm-operation-coordinate-old-vnf) (a relative path) is read from this
        package and C(lcm-operation-coordinate-new-vnf) from O(package). Without it, the old-VNF hook is read from
        O(package) when that package has it (Tacker's sample packages carry both), else the change is refused before
        anything is written, saying to give this option."
      - "Both hooks are read when the change is planned and kept in the record (a script with the
        O(allow_package_scripts) opt-in it was read under), so a rollback in a later M(nfv.vnflcm.vnf_lcm_op_occ) call
        needs neither package."
      - Refused on Kubernetes, where both hooks are read from O(package).
    type: path
  request:
    description:
      - "The ChangeCurrentVnfPkgRequest body, as Tacker v2 takes it: C(vnfdId), C(extVirtualLinks) (only the
        links that change: a CP listed here leaves the link it was on), C(extManagedVirtualLinks),
        C(vimConnectionInfo) (a map), C(extensions), C(vnfConfigurableProperties), and C(additionalParams)
        with C(upgrade_type) (V(RollingUpdate), required), C(vdu_params) (a list of C(vdu_id) with optional
        C(old_vnfc_param) / C(new_vnfc_param)), C(lcm-operation-coordinate-new-vnf),
        C(lcm-operation-coordinate-old-vnf), C(nfv) (OpenStack) and C(lcm-kubernetes-def-files) (Kubernetes)."
      - On Kubernetes, C(extVirtualLinks) and C(extManagedVirtualLinks) are refused (the def files say how a CNF is reached).
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
          - An C(interfaceInfo.endpoint) must name the server the module connects to, as for vnf_instantiate's
            C(vimConnectionInfo); another is refused before any write.
        type: dict
      additionalParams:
        description:
          - "C(upgrade_type) (V(RollingUpdate), required), C(vdu_params) (a list of C(vdu_id) with optional
            C(old_vnfc_param) / C(new_vnfc_param); their passwords are masked in all output and in the record),
            C(lcm-operation-coordinate-new-vnf), C(lcm-operation-coordinate-old-vnf), C(nfv) (OpenStack: a JSON Merge
            Patch of the stack's C(nfv) parameter) and C(lcm-kubernetes-def-files) (Kubernetes, required there: the new
            package's def files to deploy, in order)."
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
        C(cp_name), and C(is_rollback). As Tacker, C(cp_name) is looked up in the stack that holds the VNFC's server (its
        nested stack, or the top stack for a server of the top template, such as the plain C(VDU2) of Tacker's
        AutoScalingGroup form); every VNFC of C(vdu_params) is checked that way before anything is written. A non-zero
        exit fails the operation (C(FAILED_TEMP)) with the end of its output; retry and rollback work as with task files."
      - "Modules the script imports must be installed for that Python (Tacker's samples import C(paramiko),
        C(oslo_log) or Tacker itself)."
      - "Without it, a request that names a Python script is refused before anything is written. The record keeps
        the script's text and this opt-in, so M(nfv.vnflcm.vnf_lcm_op_occ) retries and rolls back without it."
      - Ansible task files (C(.yml)) never need it.
      - "Both VIMs: the new package's VNFD C(Vnflcm) interface scripts run from this change on, as described for
        M(nfv.vnflcm.vnf_instantiate)'s O(nfv.vnflcm.vnf_instantiate#module:allow_package_scripts) (this change runs the
        new package's C(change_current_package_start) / C(_end), as Tacker does). Without it, they do not run and the plan says so."
      - "OpenStack: it also runs the new package's user-data script the request names (C(additionalParams.lcm-operation-user-data)
        and a C(lcm-operation-user-data-class) other than Tacker's own C(StandardUserData) / C(DefaultUserData)): its
        C(change_vnfpkg(req, inst, grant_req, grant, tmp_csar_dir)) gives the stack the change goes to (its fields as they
        are when it returns C(existing: false), else merged into the stack as it is, as Tacker does), then the VNFCs of
        C(vdu_params) move to it one at a time as usual. It runs as described for
        M(nfv.vnflcm.vnf_instantiate)'s O(nfv.vnflcm.vnf_instantiate#module:allow_package_scripts) (a subprocess, a copy of
        the package, the collection's versions of Tacker's helper modules, no credentials, bounded by
        O(wait_timeout)); the grant request removes and adds each VNFC of C(vdu_params). Without a script in the
        request, the new package's stack is built in, and what a script of the old package set is replaced."
    type: bool
    default: false
  rollout:
    description:
      - "Kubernetes: how the workloads of the VDUs in C(vdu_params) change. V(one_at_a_time) (as Tacker v2's
        C(RollingUpdate)): a VDU's workload is updated, its rollout waited for (and, where it moves to a workload of
        another name, the old one deleted and waited for) before the next VDU's starts. V(side_by_side): every VDU's
        workload is written at once, then all their rollouts are waited for together (then the old workloads deleted
        together), as C(kubectl apply) of them all does: the change takes about as long as its slowest VDU, but
        several VDUs can be mid-rollout at the same time (each keeps its own update strategy, e.g. C(maxUnavailable))."
      - "V(side_by_side) is refused with a coordination hook (C(lcm-operation-coordinate-new-vnf) /
        C(-old-vnf)), which runs after each VDU, and on OpenStack, where the VNFCs change one at a time."
      - "The choice is kept with the operation: its retry and rollback (M(nfv.vnflcm.vnf_lcm_op_occ)) roll the same way."
    type: str
    choices: [one_at_a_time, side_by_side]
    default: one_at_a_time
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
  - kubernetes >= 24.2.0 (Kubernetes VIM)
notes:
  - C(wait_timeout) applies to each stack update, to each rollout and to each hook.
  - "VDUs not named in C(vdu_params) keep their current form (on OpenStack's DefaultUserData form, the last update changes
    them, as Tacker does; on its StandardUserData form, they take a nested template the new package changes that a rolled
    VNFC uses too: C(plan.warnings) says which); on OpenStack a later scale or heal builds every VNFC from the new
    package, on Kubernetes the next change of package can roll them."
"""

EXAMPLES = r"""
- name: Read the new package (the requests below give its vnfdId)
  nfv.vnflcm.vnf_package_info:
    path: /srv/packages/userdata_standard_change_vnfpkg_nw
  register: new_pkg

- name: See what the change would do (plan and Heat's preview, nothing written)
  nfv.vnflcm.vnf_change_pkg:
    vnf_instance_name: vnf1
    cloud: mycloud
    package: /srv/packages/userdata_standard_change_vnfpkg_nw
    request:
      vnfdId: "{{ new_pkg.package.vnfd.descriptor_id }}"
      extVirtualLinks:
        - id: ext-net0-cp4
          resourceId: net0
          extCps:
            - cpdId: VDU1_CP4
              cpConfig:
                VDU1_CP4_1:
                  cpProtocolData:
                    - layerProtocol: IP_OVER_ETHERNET
                      ipOverEthernet: {ipAddresses: [{type: IPV4, numDynamicAddresses: 1}]}
            - cpdId: VDU2_CP4
              cpConfig:
                VDU2_CP4_1:
                  cpProtocolData:
                    - layerProtocol: IP_OVER_ETHERNET
                      ipOverEthernet: {ipAddresses: [{type: IPV4, numDynamicAddresses: 1}]}
      additionalParams: {upgrade_type: RollingUpdate, vdu_params: [{vdu_id: VDU2}]}
  check_mode: true
  register: change_plan

- name: Change to the new package, VDU1 then VDU2, moving VDU1_CP1 to net1 and the new CP4s onto net0
  nfv.vnflcm.vnf_change_pkg:
    vnf_instance_name: vnf1
    cloud: mycloud
    package: /srv/packages/userdata_standard_change_vnfpkg_nw
    request:
      vnfdId: "{{ new_pkg.package.vnfd.descriptor_id }}"
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
        - id: ext-net0-cp4
          resourceId: net0
          extCps:
            - cpdId: VDU1_CP4
              cpConfig:
                VDU1_CP4_1:
                  cpProtocolData:
                    - layerProtocol: IP_OVER_ETHERNET
                      ipOverEthernet: {ipAddresses: [{type: IPV4, numDynamicAddresses: 1}]}
            - cpdId: VDU2_CP4
              cpConfig:
                VDU2_CP4_1:
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

- name: Change a CNF's package with Tacker's request, VDU2's Deployment rolling to the new def file (a new image)
  nfv.vnflcm.vnf_change_pkg:
    vnf_instance_name: cnf2
    namespace: tenant-a
    package: /srv/packages/test_change_vnf_pkg_with_deployment
    request:
      vnfdId: 616e3b0e-cde7-4f3a-bf0d-7e5cd0f3e3f1
      additionalParams:
        upgrade_type: RollingUpdate
        lcm-kubernetes-def-files:
          - Files/new_kubernetes/new_deployment.yaml
        vdu_params:
          - vdu_id: VDU2
    wait_timeout: 300
  register: cnf_change

- name: Roll back a change that failed
  nfv.vnflcm.vnf_lcm_op_occ:
    vnf_instance_name: vnf1
    cloud: mycloud
    action: rollback
"""

RETURN = r"""
vim_type:
  description: The VIM the operation went to (V(openstack) or V(kubernetes)).
  returned: success
  type: str
  sample: openstack
plan:
  description:
    - What the change does. C(vnfcs) lists each VNFC resource with its C(action) and C(changes) (resize,
      rebuild, replace, port_moved, cp_added, ...); C(summary) the VNFC names per outcome; C(virtual_links)
      the internal VLs added, removed, changed; C(steps) one entry per stack update (one VNFC each);
      C(updates) their number; C(preview) Heat's update preview (check and diff mode); C(warnings) what a VDU not in
      vdu_params takes from the new package; C(lines) all of it as text.
    - "On Kubernetes: C(steps) in the order they run (C(prepare): ConfigMaps, Secrets, Services, ... created or
      updated; one step per VDU, with C(moved) when its workload changes name or kind; C(finish): other workloads,
      then deletions), each with its C(actions) (C(do): create, update, restart, content or delete; C(kind),
      C(name), C(reasons) why pods restart, C(changes) the manifest paths that differ); C(summary) the objects per
      action; C(kept_vdus) the VDUs not named in vdu_params; C(lines) all of it as text."
  returned: always
  type: dict
  sample:
    updates: 2
    summary: {added: [], removed: [], replaced: [], rebuilt: [VDU1-0], resized: [VDU2-0], updated: []}
    lines: ["VDU2-0: resize m1.tiny -> m1.small", "2 stack update(s), one VNFC at a time: VDU1-0, VDU2-0"]
vnf_instance:
  description:
    - The SOL003 VnfInstance after the change (before it, in check mode).
    - C(_links) as M(nfv.vnflcm.vnf_info) describes them.
  returned: always
  type: dict
vnf_lcm_op_occ:
  description:
    - The VnfLcmOpOcc (CHANGE_VNFPKG), with C(resourceChanges) (C(affectedVnfcs), C(affectedVirtualLinks),
      C(affectedExtLinkPorts)), C(changedExtConnectivity) and C(modificationsTriggeredByVnfPkgChange).
    - C(_links) as M(nfv.vnflcm.vnf_info) describes them.
  returned: when something was done
  type: dict
progress:
  description: On failure, what was done (OpenStack C(steps) and Heat C(events); Kubernetes C(done), one line per write);
    the op occ is FAILED_TEMP.
  returned: failure
  type: dict
api_calls:
  description: HTTP calls to the OpenStack services (C(read), C(write), and C(heat_write) for writes to Heat), or to the Kubernetes
    API (C(read), C(write), C(dry_run)).
  returned: always
  type: dict
  sample: {read: 30, write: 5, heat_write: 5}
"""

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.modules import module_main


def packed():
    """Never called: Ansible packs into this module's payload what its imports reach, and these are every driver's
    change_pkg.py, of which module_main imports the one in use (lcm/modules.py)."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import change_pkg as cnf
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import change_pkg as vm
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import change_pkg as helm
    return cnf, vm, helm


def main():
    spec = {"package": {"type": "path", "required": True}, "current_package": {"type": "path"}, "request": {"type": "dict", "required": True},
            "allow_package_scripts": {"type": "bool", "default": False},
            "rollout": {"type": "str", "choices": ["one_at_a_time", "side_by_side"], "default": "one_at_a_time"}}
    module_main("change_pkg", "change_pkg.run_change_pkg", spec, ("kubernetes", "openstack", "wait", "instance"),
                required_one_of=[("vnf_instance_id", "vnf_instance_name")])


if __name__ == "__main__":
    main()
