#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
---
module: vnf_delete
short_description: Delete a VNF instance identifier (ETSI NFV-SOL003 DELETE /vnf_instances/{id})
version_added: 0.1.0
description:
  - "Deletes a VNF instance identifier, as SOL003's C(DELETE /vnf_instances/{vnfInstanceId}) (Tacker's
    C(openstack vnflcm delete)): the instance's record goes, and with it its operation occurrences and
    everything else the collection keeps for it. There is no operation occurrence for it, as in SOL003."
  - "Only a C(NOT_INSTANTIATED) instance: an C(INSTANTIATED) one is refused, before anything is written, with a
    message to terminate it first (M(nfv.vnflcm.vnf_terminate), whose O(nfv.vnflcm.vnf_terminate#module:delete_instance)
    terminates and deletes in one task). Also refused: an instance with an unfinished operation (C(PROCESSING),
    C(ROLLING_BACK), C(FAILED_TEMP): retry, roll back or fail it with M(nfv.vnflcm.vnf_lcm_op_occ) first), and one
    whose record lists what an instantiate or a terminate that was failed left on the VIM and is still there (terminate
    deletes that)."
  - "Kubernetes: objects the record lists that are being deleted already, held by finalizers (a terminate that was
    failed names them), do not refuse it: nothing the collection does releases them. The identifier goes, and
    RV(left_behind) names them with their finalizers; they go once what holds them lets go."
  - An instance that does not exist (any more) is nothing to do (C(changed=false)), unless a claim of its name is left
    (below); RV(vnf_instance) is then null.
  - "By O(vnf_instance_name), when no instance has the name but an instantiate killed between its claim of the name
    and the instance's record left that claim (no instance, no op occ: only the claim), vnf_delete deletes the claim, so that
    the name is given up (a re-run of that instantiate would take it over instead): RV(name_claim) shows it, RV(plan)
    names it, check mode writes nothing, and a re-run is C(changed=false). While the claim's run may still write the
    record (the claim is younger than its grace, 60 s on Kubernetes, 300 s on OpenStack, and its runner is not known
    to be gone), this is refused, naming the name and that run, and nothing is written."
  - "Kubernetes: the record Secret C(vnflcm-<id>) and the rollback data Secret C(vnflcm-<id>-rollback) of the instance
    in its namespace, found by the instance's label, the record last (at the version read: an operation that wrote it
    meanwhile makes the delete fail, deleting nothing more)."
  - "OpenStack: the record lives in the instance's stack, which terminate deletes, so a terminated instance is
    already gone. A stack that still holds a record is deleted, and the module waits until it is gone."
  - "The VIM: O(vim_type), else the options only one VIM takes (O(cloud), O(auth), ... or O(kubeconfig),
    O(host), ...), else the environment (E(OS_CLOUD), E(K8S_AUTH_*)); Kubernetes when nothing says otherwise,
    and an error when both VIMs are given at the same step."
author:
  - nfv.vnflcm maintainers (@nfv-vnflcm)
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
- name: Terminate a CNF, then delete its identifier
  nfv.vnflcm.vnf_terminate:
    vnf_instance_name: cnf1
    namespace: tenant-a
    request:
      terminationType: GRACEFUL

- name: Delete the identifier of the terminated CNF
  nfv.vnflcm.vnf_delete:
    vnf_instance_name: cnf1
    namespace: tenant-a

- name: Delete a VM-based VNF's identifier on OpenStack, by id
  nfv.vnflcm.vnf_delete:
    vnf_instance_id: "{{ vnf1.vnf_instance.id }}"
    cloud: mycloud
"""

RETURN = r"""
vim_type:
  description: The VIM the operation went to, V(kubernetes) or V(openstack).
  returned: success
  type: str
  sample: kubernetes
plan:
  description: What goes (C(delete), a list of C(kind) and C(name), the record last) and the same as C(lines).
  returned: always
  type: dict
  sample: {operation: DELETE_IDENTIFIER, delete: [{kind: Secret, name: vnflcm-5c0d0e1f-rollback}, {kind: Secret, name: vnflcm-5c0d0e1f}]}
vnf_instance:
  description: The SOL003 VnfInstance as it was before its identifier was deleted; null when there was none.
  returned: always
  type: dict
left_behind:
  description: Kubernetes, objects of the VNF the record lists that are still there, being deleted but held by
    finalizers (also in RV(plan)).
  returned: when there are such objects
  type: list
  elements: str
  sample: ["ConfigMap/cm-1 (being deleted, held by finalizers example.com/hold)"]
deleted:
  description: What was deleted (empty in check mode and when there was nothing to delete).
  returned: always
  type: list
  elements: dict
name_claim:
  description: The claim of the name that no instance has, deleted (only planned, in check mode), as
    M(nfv.vnflcm.vnf_info) returns it (RV(nfv.vnflcm.vnf_info#module:name_claim)).
  returned: when the instance name selects a claim of it that no instance has
  type: dict
  sample: {vnfInstanceName: cnf1, status: runner gone, heldBy: {kind: Secret, name: vnflcm-name-0123456789abcdef01234567}}
api_calls:
  description: How many API reads and writes the operation made (Kubernetes), or HTTP calls to the OpenStack services
    (C(read), C(write), and C(heat_write) for writes to Heat).
  returned: always
  type: dict
  sample: {read: 2, write: 2}
"""

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.modules import module_main


def packed():
    """Never called: Ansible packs into this module's payload what its imports reach, and these are every driver's
    delete.py, of which module_main imports the one in use (lcm/modules.py)."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import delete as cnf
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import delete as vm
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import delete as helm
    return cnf, vm, helm


def main():
    module_main("delete", "delete.run_delete", {}, ("kubernetes", "openstack", "wait", "instance"), required_one_of=[("vnf_instance_id", "vnf_instance_name")])


if __name__ == "__main__":
    main()
