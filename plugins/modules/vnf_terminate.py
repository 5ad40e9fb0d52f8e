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
  - "While an operation of the instance is unfinished (C(PROCESSING), C(ROLLING_BACK) or C(FAILED_TEMP)), terminate
    is refused with what to do: retry, roll back or fail it with M(nfv.vnflcm.vnf_lcm_op_occ) (one whose runner is
    gone is recorded C(FAILED_TEMP) on the way). Kubernetes: after an instantiate that was failed (C(fail), not
    rolled back), the instance is NOT_INSTANTIATED but its record lists what that instantiate may have created;
    terminate deletes those of them that carry the instance's label; the same after a terminate that was failed."
  - "Kubernetes: the PersistentVolumeClaims the volumeClaimTemplates of its StatefulSets made go too, after the
    StatefulSets, as Tacker v2 deletes them: C(<template name>-<statefulset name>-<ordinal>) in the StatefulSet's
    namespace, with the labels of its selector (the claims carry the StatefulSet controller's labels, not the
    instance's). A StatefulSet whose def file sets C(spec.persistentVolumeClaimRetentionPolicy.whenDeleted) is
    obeyed: V(Retain) keeps its claims, V(Delete) lets Kubernetes delete them with it (terminate only waits until they
    are gone). RV(plan) lists each claim in C(volume_claims) with what happens to it and why; those terminate deletes
    are in C(delete) too."
  - "Kubernetes: a deletion that cannot progress does not wait out O(wait_timeout). When none of the objects waited
    for has gone or changed for 30 seconds (plus the grace period the deleted pods may take) while one of them is held
    by finalizers (one that no controller removes, say), the terminate stops C(FAILED_TEMP), its error naming each
    object still there with its finalizers. Release what holds them, then retry it with M(nfv.vnflcm.vnf_lcm_op_occ)
    (C(action=retry)); or fail it (C(action=fail)): the instance is then NOT_INSTANTIATED, without VNFCs, its record
    listing the objects still there, and M(nfv.vnflcm.vnf_delete) deletes its identifier, naming those still held
    in its C(left_behind). A terminate of such an instance deletes those of them it can."
  - "By O(vnf_instance_name), when no instance has the name but an instantiate killed before its record left a claim
    of it, the terminate deletes that claim as M(nfv.vnflcm.vnf_delete) does (RV(name_claim)), and refuses, writing
    nothing, while the claim's run may still write the record."
  - "The VIM: O(vim_type), else the options only one VIM takes (O(cloud), O(auth), ... or O(kubeconfig),
    O(host), ...), else the environment (E(OS_CLOUD), E(K8S_AUTH_*)); Kubernetes when nothing says otherwise,
    and an error when both VIMs are given at the same step."
  - "OpenStack: C(GRACEFUL) first stops the servers (waiting up to C(gracefulTerminationTimeout)
    seconds), C(FORCEFUL) does not; then the stack is deleted and the module waits until it is gone.
    The record lives in the stack, so it goes with it; the result still returns the final VnfInstance
    and op occ."
author:
  - nfv.vnflcm maintainers (@nfv-vnflcm)
options:
  request:
    description:
      - The TerminateVnfRequest body, C(terminationType) V(GRACEFUL) (default) or V(FORCEFUL),
        and C(gracefulTerminationTimeout) in seconds (the pods' grace period).
      - The module validates the body itself (SOL003), naming the field at fault.
    type: dict
    suboptions:
      terminationType:
        description:
          - V(GRACEFUL) lets the VNFCs stop (pods' grace period, servers stopped first on OpenStack); V(FORCEFUL) does not.
        type: str
        choices: [GRACEFUL, FORCEFUL]
      gracefulTerminationTimeout:
        description:
          - Seconds a V(GRACEFUL) termination gives the VNFCs to stop.
        type: int
      additionalParams:
        description:
          - Parameters for the VNFM, kept in the operation occurrence.
        type: dict
  delete_instance:
    description:
      - "After a successful terminate, also delete the VNF instance identifier in the same task, as
        M(nfv.vnflcm.vnf_delete) does (SOL003 C(DELETE /vnf_instances/{id}), Tacker's C(openstack vnflcm delete)
        after C(terminate)): the record, its operation occurrences and what the collection keeps for the
        instance go. RV(vnf_lcm_op_occ) is still the terminate's."
      - Nothing is deleted when the terminate fails. A re-run, when the instance is gone, changes nothing.
      - In check mode RV(plan) adds C(delete_identifier), what would go after the terminate.
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
  - kubernetes >= 24.2.0 (Kubernetes VIM)
  - openstacksdk >= 1.0.0 (OpenStack VIM)
"""

EXAMPLES = r"""
- name: Terminate gracefully
  nfv.vnflcm.vnf_terminate:
    vnf_instance_name: cnf1
    namespace: tenant-a
    request:
      terminationType: GRACEFUL
      gracefulTerminationTimeout: 30

- name: Terminate a CNF and delete its identifier in one task
  nfv.vnflcm.vnf_terminate:
    vnf_instance_name: cnf2
    namespace: tenant-a
    delete_instance: true

- name: Terminate a CNF; an object held by a finalizer nobody removes ends it FAILED_TEMP, naming the object
  nfv.vnflcm.vnf_terminate:
    vnf_instance_name: cnf3
    namespace: tenant-a
    request:
      terminationType: FORCEFUL
  register: terminated
  ignore_errors: true

- name: End that terminate; the instance is NOT_INSTANTIATED, its record listing what is still there
  nfv.vnflcm.vnf_lcm_op_occ:
    vnf_instance_name: cnf3
    namespace: tenant-a
    action: fail
  when: terminated is failed

- name: Delete the identifier; left_behind names the objects still held
  nfv.vnflcm.vnf_delete:
    vnf_instance_name: cnf3
    namespace: tenant-a

- name: Terminate a CNF made from a Helm chart (helm uninstall, its objects waited gone) and delete its identifier
  nfv.vnflcm.vnf_terminate:
    vnf_instance_name: helm1
    namespace: tenant-a
    request:
      terminationType: FORCEFUL
    delete_instance: true

- name: Terminate a VM-based VNF on OpenStack, at once
  nfv.vnflcm.vnf_terminate:
    vnf_instance_name: vnf1
    cloud: mycloud
    request:
      terminationType: FORCEFUL
"""

RETURN = r"""
vim_type:
  description: The VIM the operation went to, V(kubernetes) or V(openstack).
  returned: success
  type: str
  sample: openstack
plan:
  description:
    - The objects to delete, in deletion order (C(delete)).
    - "Kubernetes: C(volume_claims), the claims of the StatefulSets' volumeClaimTemplates, each with C(name),
      C(namespace), C(statefulset), C(action) (V(delete), V(deleted by Kubernetes) or V(keep)) and C(why)."
    - "Kubernetes: C(rollback_data), only when a container update or a change of package was killed after its end
      record and left the data kept for its rollback: the Secret that terminate deletes."
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
left_behind:
  description: With O(delete_instance) (Kubernetes), the objects the record listed that are still there, being deleted
    but held by finalizers, as M(nfv.vnflcm.vnf_delete) returns them.
  returned: when O(delete_instance) is true and such objects are left
  type: list
  elements: str
deleted:
  description: With O(delete_instance), what deleting the identifier removed after the terminate (Kubernetes the
    record and rollback Secrets; empty when the record went with the terminate, its namespace or its stack); the
    claim of the name deleted (RV(name_claim)).
  returned: when O(delete_instance) is true, or a claim of the name was deleted
  type: list
  elements: dict
name_claim:
  description: When O(vnf_instance_name) finds no instance but a claim of that name a killed instantiate left, the
    claim the terminate deleted (in check mode, would delete); its fields are those of
    RV(nfv.vnflcm.vnf_info#module:name_claim).
  returned: when such a claim was found
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
    terminate.py, of which module_main imports the one in use (lcm/modules.py)."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import terminate as cnf
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import terminate as vm
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import terminate as helm
    return cnf, vm, helm


def main():
    module_main("terminate", "terminate.run_terminate", {"request": {"type": "dict"}, "delete_instance": {"type": "bool", "default": False}},
                ("kubernetes", "openstack", "wait", "instance"),
                required_one_of=[("vnf_instance_id", "vnf_instance_name")])


if __name__ == "__main__":
    main()
