#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
---
module: vnf_modify
short_description: Modify a VNF instance's information; update a CNF's containers (ETSI NFV-SOL003 VnfInfoModificationRequest)
version_added: 0.1.0
description:
  - "Applies a VnfInfoModificationRequest, as SOL003's C(PATCH /vnf_instances/{id}) does.
    C(vnfInstanceName) (at most 255 characters), C(vnfInstanceDescription) (at most 1024) and C(vnfdId) are replaced; C(metadata),
    C(extensions), C(vnfConfigurableProperties) and C(vimConnectionInfo) are merged with JSON
    Merge Patch (RFC 7396: a key set to null is removed, objects are merged, arrays replaced);
    C(vimConnectionInfoDeleteIds) removes VIM connections."
  - "Container update: when C(vnfdId) changes on an instantiated CNF, the def files the instance
    was instantiated with are read from the new O(package) (the ones it still has, plus the
    ConfigMap/Secret files listed in C(metadata.configmap_secret_paths), which is optional) and
    only what a running pod sees changes: ConfigMaps and Secrets whose content (C(data),
    C(binaryData), a Secret's C(stringData)) differs from the live ones are updated, new ones
    created, and container images (containers and initContainers, matched by name) changed."
  - "Exactly the pods that read a changed key (C(env) keyRefs, C(envFrom), C(configMap)/C(secret)
    and projected volumes, C(imagePullSecrets)) or whose image changed restart, once per workload:
    a Deployment, DaemonSet or StatefulSet gets one pod-template patch (new images and a
    C(vnflcm.nfv/config-hash) annotation) and rolls out with its own strategy; a bare ReplicaSet's
    pods (and those of an C(OnDelete) DaemonSet/StatefulSet) are replaced after the same patch;
    a bare Pod is recreated under its name. A CronJob's job template is patched and nothing
    running restarts; a Job is reported only. Ephemeral containers are reported, not restarted."
  - "A VNFC's id follows its pod, as in Tacker v2: each pod the container update replaces is a new VNFC with a
    new id (C(resourceChanges.affectedVnfcs): the old one REMOVED, the new one ADDED). What
    C(vnfcInfoModifications) set for a VNFC (C(vnfcConfigurableProperties)) belongs to that VNFC and goes
    with it: the new one starts without any (set it again on its new id); the VNFCs whose pods stay keep theirs."
  - Every other change in the workload manifests (ports, literal env, resources, new or removed
    workloads ...) is not applied, as SOL003 defines the operation, and is listed under
    C(plan.container_update.not_applied).
  - Before its first write the module keeps what it replaces (ConfigMap/Secret content
    included) in the Secret C(vnflcm-<instance id>-rollback) of the VNF's namespace, so a
    FAILED_TEMP operation can be rolled back with M(nfv.vnflcm.vnf_lcm_op_occ). It is deleted
    when the operation completes, is rolled back or is failed; if the module is killed between the record
    of its end and that delete, M(nfv.vnflcm.vnf_terminate) deletes it with the VNF.
  - A re-run with nothing left to change changes nothing (C(changed=false)).
  - "The VIM: O(vim_type), else the options only one VIM takes (O(cloud), O(auth), ... or O(kubeconfig),
    O(host), ...), else the environment (E(OS_CLOUD), E(K8S_AUTH_*)); Kubernetes when nothing says otherwise,
    and an error when both VIMs are given at the same step."
  - "OpenStack (Heat): the record only. The same fields (C(vnfInstanceName), C(vnfInstanceDescription),
    C(metadata), C(extensions), C(vnfConfigurableProperties), C(vimConnectionInfo), C(vimConnectionInfoDeleteIds),
    C(vnfcInfoModifications)) change the VnfInstance kept in the instance's stack, which is written by
    signalling its record resource: no stack update, no server touched. The operation occurrence is
    C(MODIFY_INFO); a re-run with nothing left to change writes nothing."
  - "OpenStack: a C(vnfdId) other than the instance's, with its O(package), changes the record's C(vnfdId), C(vnfProvider),
    C(vnfProductName), C(vnfSoftwareVersion) and C(vnfdVersion) with no stack update, as Tacker v2's Modify does. Where the
    new package does not describe what is deployed (the instance's flavour in the new VNFD, with the same VDU ids, the same
    flavour as the record keeps it (VDUs with their Nova flavours and images, CPs, virtual links, storages, scaling aspects
    and instantiation levels), the same top Heat template as the one instantiated and the same nested templates as the
    stack's, both compared as parsed YAML), each difference is a line of C(plan.warnings): nothing deployed changes, later
    operations build from what is deployed, and a package that is to change it is M(nfv.vnflcm.vnf_change_pkg). A re-run
    with the same C(vnfdId) changes nothing."
  - "OpenStack: O(delete_removed) belongs to the container update, which is for CNFs only, and is refused. C(accessInfo)
    secrets of C(vimConnectionInfo) are never stored."
author:
  - nfv.vnflcm maintainers (@nfv-vnflcm)
options:
  request:
    description:
      - The VnfInfoModificationRequest body.
      - The fields below are those most often set; the module validates the whole body itself (SOL003), naming the
        field at fault.
    type: dict
    required: true
    suboptions:
      vnfInstanceName:
        description:
          - The new name of the instance, at most 255 characters.
        type: str
      vnfInstanceDescription:
        description:
          - The new description, at most 1024 characters.
        type: str
      vnfdId:
        description:
          - The VNFD of O(package); a new one on an instantiated CNF is the container update (see the description).
          - On OpenStack a new one changes the record only; where its O(package) does not describe what is deployed, the
            plan's warnings say how (see the description), and M(nfv.vnflcm.vnf_change_pkg) is what changes it.
        type: str
      metadata:
        description:
          - A JSON Merge Patch of C(VnfInstance.metadata). C(configmap_secret_paths) lists ConfigMap/Secret def files
            of the new package (Tacker's form; optional, they are found by content).
        type: dict
      extensions:
        description:
          - A JSON Merge Patch of C(VnfInstance.extensions).
        type: dict
      vnfConfigurableProperties:
        description:
          - A JSON Merge Patch of C(VnfInstance.vnfConfigurableProperties).
        type: dict
      vimConnectionInfo:
        description:
          - A JSON Merge Patch of the instance's VIM connections (an entry set to null is removed). Their C(accessInfo)
            is never returned nor stored with its secrets, and its secrets are masked in all output.
          - An C(interfaceInfo.endpoint) must name the server the module connects to, as for vnf_instantiate's
            C(vimConnectionInfo); another is refused before any write.
        type: raw
      vimConnectionInfoDeleteIds:
        description:
          - Ids of VIM connections to remove.
        type: list
        elements: str
  package:
    description:
      - The VNF package (CSAR directory or zip) of the new C(vnfdId); required when C(vnfdId) changes, on both VIMs.
      - On OpenStack it is only read; its VNFD identity goes to the record, its flavour and Heat templates are compared
        with what is deployed.
    type: path
  delete_removed:
    description:
      - Delete the ConfigMaps and Secrets the new package no longer has. Without it they are reported under
        C(plan.container_update.configmaps_secrets.removed) and left as they are.
      - One still used by a workload is an error, before anything is written.
      - Kubernetes only; refused on OpenStack when true.
    type: bool
    default: false
extends_documentation_fragment:
  - nfv.vnflcm.instance
  - nfv.vnflcm.kubernetes
  - nfv.vnflcm.openstack
  - nfv.vnflcm.vim
  - nfv.vnflcm.wait
  - nfv.vnflcm.attributes
attributes:
  check_mode:
    support: full
  diff_mode:
    support: full
    details: ConfigMap data before and after; Secret values are masked.
requirements:
  - kubernetes >= 24.2.0 (Kubernetes VIM)
  - openstacksdk >= 1.0.0 (OpenStack VIM)
"""

EXAMPLES = r"""
- name: Rename an instance and merge metadata
  nfv.vnflcm.vnf_modify:
    vnf_instance_name: test_instantiate_cnf_resources  # the name Tacker's create.json gave it
    namespace: tenant-a
    request:
      vnfInstanceName: cnf3
      metadata:
        owner: team-b
        dummy-key: null  # removed (RFC 7396)

- name: On OpenStack, describe a VM-based VNF, merge its metadata and a VNFC's properties (the record only, no stack update)
  nfv.vnflcm.vnf_modify:
    vnf_instance_name: vnf1
    cloud: mycloud
    request:
      vnfInstanceDescription: VM-based VNF of team B
      metadata: {owner: team-b}
      vnfcInfoModifications:
        - id: "{{ vnf1.vnf_instance.instantiatedVnfInfo.vnfcInfo[0].id }}"
          vnfcConfigurableProperties: {role: primary}

- name: On OpenStack, move a VM-based VNF to a new VNFD that describes the same deployment (the record only)
  nfv.vnflcm.vnf_modify:
    vnf_instance_name: vnf1
    cloud: mycloud
    package: /srv/packages/vnf1-relabelled
    request:
      vnfdId: 6b02a1b4-8c7e-4f61-9d0e-2f1c3e4d5a6b

- name: Update containers to a new package, restarting only the pods that need it
  nfv.vnflcm.vnf_modify:
    vnf_instance_name: cnf1
    namespace: tenant-a
    package: /srv/packages/test_cnf_container_update_after
    request:
      vnfdId: b1bb0ce7-ebca-4fa7-95ed-4840d70a8883
      metadata:
        configmap_secret_paths:
          - Files/kubernetes/configmap_2.yaml
          - Files/kubernetes/secret_2.yaml
  register: update

- name: Show what restarted and why
  ansible.builtin.debug:
    msg: "{{ update.plan.container_update.restart | map(attribute='name') | list }}"
"""

RETURN = r"""
plan:
  description:
    - The modifications and, for a container update, its plan.
    - C(container_update.restart) lists each restarted workload with its C(action) and C(reasons)
      (a ConfigMap/Secret with the keys read, or a container with its old and new image);
      C(untouched) the workloads that keep running; C(not_applied) every other manifest change;
      C(configmaps_secrets) the ConfigMaps/Secrets updated, created, unchanged, removed and deleted.
  returned: always
  type: dict
  sample:
    operation: MODIFY_INFO
    modifications: {vnfInstanceName: modify_vnf_after}
    container_update:
      restart:
        - kind: Deployment
          name: vdu1-update
          action: rollout
          reasons: [{type: config, kind: ConfigMap, name: cm-data, keys: [cmKey1.txt], via: [volume]}]
      untouched: [{kind: Deployment, name: deployment2-vdu6}]
      not_applied: [{kind: ReplicaSet, name: vdu2-update, path: "spec.template.spec.containers[nginx].ports[0].containerPort",
                     change: changed, old: 80, new: 180}]
replaced_pods:
  description:
    - Per pod replaced, the VNFC and pod before and the new VNFC and pod (a VNFC's id follows its pod); within a workload, the
      VNFCs gone and the new ones are paired in order, oldest first.
  returned: when containers were updated
  type: list
  elements: dict
  sample: [{old_vnfc_id: 6b1e..., new_vnfc_id: 9f02..., vdu_id: VDU1, workload: Deployment/vdu1-update, old_pod: vdu1-update-5d8-abcde,
            new_pod: vdu1-update-7c9-fghij}]
vnf_instance:
  description:
    - The SOL003 VnfInstance after the operation (before it, in check mode).
    - C(_links) as M(nfv.vnflcm.vnf_info) describes them.
  returned: always
  type: dict
vnf_lcm_op_occ:
  description:
    - The SOL003 VnfLcmOpOcc of the operation (MODIFY_INFO), with C(resourceChanges.affectedVnfcs).
    - C(_links) as M(nfv.vnflcm.vnf_info) describes them.
  returned: when something was done
  type: dict
diff:
  description: The modified attributes, and ConfigMap/Secret content (Secret values masked), before and after.
  returned: in diff mode
  type: dict
vim_type:
  description: The VIM the operation went to (V(kubernetes) or V(openstack)).
  returned: always
  type: str
  sample: kubernetes
api_calls:
  description: How many API reads and writes the operation made (Kubernetes; on OpenStack the calls per service).
  returned: always
  type: dict
  sample: {read: 20, write: 9}
"""

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.modules import module_main


def packed():
    """Never called: Ansible packs into this module's payload what its imports reach, and these are every driver's
    modify.py, of which module_main imports the one in use (lcm/modules.py)."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import modify as cnf
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import modify as vm
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import modify as helm
    return cnf, vm, helm


def main():
    spec = {"request": {"type": "dict", "required": True}, "package": {"type": "path"}, "delete_removed": {"type": "bool", "default": False}}
    module_main("modify", "modify.run_modify", spec, ("kubernetes", "openstack", "wait", "instance"),
                required_one_of=[("vnf_instance_id", "vnf_instance_name")])


if __name__ == "__main__":
    main()
