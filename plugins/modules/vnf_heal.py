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
    module waits for the replacements. A VNFC's id follows its pod, as in Tacker v2: each healed VNFC is
    replaced by a new one with a new id (C(resourceChanges.affectedVnfcs) lists the old one REMOVED and the
    new one ADDED, and C(vnfcInfo) follows); the other VNFCs keep theirs. A retry of a heal left FAILED_TEMP
    (M(nfv.vnflcm.vnf_lcm_op_occ)) heals the VNFCs it named that the record still has and leaves alone a pod
    a first attempt already replaced."
  - Healing always replaces resources, so a re-run heals again.
  - "The VIM: O(vim_type), else the options only one VIM takes (O(cloud), O(auth), ... or O(kubeconfig),
    O(host), ...), else the environment (E(OS_CLOUD), E(K8S_AUTH_*)); Kubernetes when nothing says otherwise,
    and an error when both VIMs are given at the same step."
  - "OpenStack: the server of each named VNFC (all VNFCs when none is named) is marked unhealthy in its
    (nested) stack and the stack is updated, so Heat replaces it: the server id changes and the record
    follows (vnfcResourceInfo and vnfcInfo ids are derived from the server id, as in Tacker v2). A member of an
    C(OS::Heat::AutoScalingGroup) is marked unhealthy as a whole: Heat re-creates its server, ports and volume."
  - "OpenStack, C(additionalParams.all: true) (Tacker v2's parameter): the volumes of each healed VNFC
    (C(storageResourceIds), the Cinder volumes of its VirtualStorage) are marked unhealthy too, so Heat creates
    new ones (new volume ids, the old ones deleted; the record's C(virtualStorageResourceInfo) follows, and the op
    occ lists them in C(resourceChanges.affectedVirtualStorages)); without it, or C(false), the volumes are kept and
    attached to the new server. The plan lists every volume to be replaced. Healing the whole VNF (no
    C(vnfcInstanceId)) with C(all: true) replaces every server and volume in the stack, which keeps its networks,
    ports and the record; Tacker v2 deletes and re-creates the whole stack instead."
  - "Kubernetes, C(additionalParams.all): taken, and the heal is the same without it: a pod has no storage of
    its own here, PersistentVolumeClaims belong to the VNF and are kept (the plan says so). Healing the whole VNF
    replaces the pod of every VNFC; the other objects (Services, ConfigMaps, PersistentVolumeClaims) stay, where
    Tacker v2 terminates and instantiates the CNF again."
author:
  - nfv.vnflcm maintainers (@nfv-vnflcm)
options:
  request:
    description:
      - The HealVnfRequest body; C(vnfcInstanceId) lists C(vnfcInfo) ids of the instance.
      - When not given, every VNFC is healed.
      - The module validates the body itself (SOL003), naming the field at fault.
    type: dict
    suboptions:
      vnfcInstanceId:
        description:
          - The VNFCs to heal, C(instantiatedVnfInfo.vnfcInfo[].id) of the instance (M(nfv.vnflcm.vnf_info) returns
            them). All VNFCs when not given.
        type: list
        elements: str
      cause:
        description:
          - Why, kept in the operation occurrence.
        type: str
      additionalParams:
        description:
          - Parameters for the VNFM, kept in the operation occurrence.
          - "C(all) (boolean, Tacker v2): also replace the storage of the healed VNFCs (OpenStack: their Cinder volumes;
            Kubernetes: nothing more, see the description). Anything but a boolean is refused, naming C(additionalParams.all)."
          - "C(reconcile) (boolean, the collection's own): repair the VNF's drift as its record says (what
            M(nfv.vnflcm.vnf_instantiate)'s O(nfv.vnflcm.vnf_instantiate#module:reconcile) does). Kubernetes, CNFs of def
            files: without the package, so a ConfigMap's or Secret's content is not compared nor restored, a missing one
            is reported in C(plan.not_repaired); the plan lists C(plan.repair) and C(plan.restart). OpenStack: the VNFCs
            that drifted are healed, the others kept. Name no VNFC with it. The closed loop's playbook
            C(nfv.vnflcm.drift) repairs this way. No drift: C(changed=false). Helm-chart CNFs: refused."
        type: dict
extends_documentation_fragment:
  - nfv.vnflcm.automatic_invocation
  - nfv.vnflcm.instance
  - nfv.vnflcm.kubernetes
  - nfv.vnflcm.openstack
  - nfv.vnflcm.vim
  - nfv.vnflcm.wait
  - nfv.vnflcm.attributes
  - nfv.vnflcm.attributes.no_diff
requirements:
  - kubernetes >= 24.2.0 (Kubernetes VIM)
  - openstacksdk >= 1.0.0 (OpenStack VIM)
"""

EXAMPLES = r"""
- name: Heal one VNFC
  nfv.vnflcm.vnf_heal:
    vnf_instance_name: cnf1
    namespace: tenant-a
    request:
      vnfcInstanceId:
        - "{{ cnf1.vnf_instance.instantiatedVnfInfo.vnfcInfo[0].id }}"

- name: Replace the server of one VNFC on OpenStack
  nfv.vnflcm.vnf_heal:
    vnf_instance_name: vnf1
    cloud: mycloud
    request:
      vnfcInstanceId: ["{{ vnf1.vnf_instance.instantiatedVnfInfo.vnfcInfo[0].id }}"]

- name: Replace a VNFC's server and its Cinder volumes too (Tacker v2's all)
  nfv.vnflcm.vnf_heal:
    vnf_instance_name: vnf1
    cloud: mycloud
    request:
      vnfcInstanceId: ["{{ vnf1.vnf_instance.instantiatedVnfInfo.vnfcInfo[1].id }}"]
      additionalParams: {all: true}

- name: Heal the whole VNF (every VNFC)
  nfv.vnflcm.vnf_heal:
    vnf_instance_name: cnf1
    namespace: tenant-a
    request: {cause: restart everything}

- name: Repair what drifted in cnf1 as its record says, replacing no VNFC (nothing to do when nothing drifted)
  nfv.vnflcm.vnf_heal:
    vnf_instance_name: cnf1
    namespace: tenant-a
    request:
      cause: drift seen by hand
      additionalParams: {reconcile: true}
"""

RETURN = r"""
vim_type:
  description: The VIM the operation went to, V(kubernetes) or V(openstack).
  returned: success
  type: str
  sample: openstack
plan:
  description:
    - The VNFCs whose pods (Kubernetes) or servers (OpenStack) are replaced; on OpenStack each one's C(volumes) to be
      replaced too (C(additionalParams.all)), also in C(lines).
  returned: always
  type: dict
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
    heal.py, of which module_main imports the one in use (lcm/modules.py)."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import heal as cnf
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import heal as vm
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import heal as helm
    return cnf, vm, helm


def main():
    module_main("heal", "heal.run_heal", {"automatic_invocation": {"type": "bool", "default": False}, "request": {"type": "dict"}},
                ("kubernetes", "openstack", "wait", "instance"),
                required_one_of=[("vnf_instance_id", "vnf_instance_name")])


if __name__ == "__main__":
    main()
