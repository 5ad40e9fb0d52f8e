#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
---
module: vnf_lcm_op_occ
short_description: Retry, roll back or fail a FAILED_TEMP VNF LCM operation occurrence (ETSI NFV-SOL003)
version_added: 0.1.0
description:
  - Acts on an operation occurrence of a VNF instance that is C(FAILED_TEMP), as SOL003's
    C(POST /vnf_lcm_op_occs/{id}/retry), C(.../rollback) and C(.../fail) do.
  - "C(retry) plans the operation's request again against the recorded state and the VIM, and
    carries out what is still to do; the op occ goes on and ends C(COMPLETED) (or C(FAILED_TEMP)
    again)."
  - "Kubernetes: C(rollback) undoes what the operation did and ends C(ROLLED_BACK): INSTANTIATE deletes what it
    created (objects of its def files carrying the instance's labels; a Namespace it created
    stays); SCALE and SCALE_TO_LEVEL restore the replica counts of the recorded levels; MODIFY_INFO (a container
    update) restores the previous ConfigMaps, Secrets and images from the rollback data it kept,
    restarting the affected pods, and the record as before. HEAL and TERMINATE cannot be rolled back."
  - "Kubernetes, CHANGE_VNFPKG (M(nfv.vnflcm.vnf_change_pkg)): the change kept its steps and the objects as they
    were before its first write, so neither needs the package. C(retry) runs the same steps again (each one can),
    waiting for each rollout; C(rollback) puts every object it touched back as it was (ConfigMaps and Secrets
    first, then the VDUs in reverse order, each rollout waited for and the C(lcm-operation-coordinate-old-vnf) hook
    run per pod), deletes what it created and creates again what it deleted; the record never changed. C(fail)
    leaves the objects as they are; the record then lists the new ones too, so a terminate deletes them."
  - "OpenStack (the instance's Heat stack, chosen by O(cloud) or O(auth)): C(retry) plans the
    operation again from the request the op occ recorded (no package needed, but for a MODIFY_INFO that changed
    C(vnfdId): O(package)); C(rollback) of
    INSTANTIATE deletes the stack, of SCALE and SCALE_TO_LEVEL restores the previous VNFC count."
  - "OpenStack, CHANGE_VNFPKG (M(nfv.vnflcm.vnf_change_pkg)): the record keeps the stack from before the
    change and the change itself, so neither needs the package (but for a change stopped before it recorded that, and
    so before it wrote to the stack: its C(rollback) only ends the op occ, its C(retry) plans it again from the request
    the op occ recorded and O(package)). C(retry) goes on VNFC by VNFC from the stack
    as it is (running the coordination hook of a VNFC whose update went through but whose hook failed);
    C(rollback) walks the changed VNFCs back one at a time (the C(lcm-operation-coordinate-old-vnf) hook after
    each, with C(rollback=true); none with O(skip_coordination=true)) to the previous template, nested files and
    C(nfv), and restores the record."
  - C(fail) ends the op occ C(FAILED); the VIM is left as it is.
  - "Kubernetes: C(fail) reads the instance's VDUs again from the cluster and records them as they are, so the record
    says what runs wherever the operation stopped: each VDU's replicas, the scale levels they stand at, and its VNFCs
    (the live pods; it waits at most 60 seconds, within O(wait_timeout), for controllers to give each VDU its replicas'
    pods). The FAILED op occ's C(error.detail) lists what the re-read changed."
  - "OpenStack: C(fail) waits, within O(wait_timeout), for a stack update Heat still runs (the failed run's) to end, then
    reads the stack's resources again and records them as they are: the VNFCs and their servers, each VDU's VNFC
    indexes and the scale levels they stand at. A mark for replacement the failed heal or scale in left on a resource is
    taken back (no later update replaces it unasked); a change of package's data kept for its rollback is dropped. The
    FAILED op occ's C(error.detail) lists what the re-read changed."
  - "Kubernetes, TERMINATE: C(fail) also leaves the instance NOT_INSTANTIATED, without VNFCs, its record (its
    C(instantiatedVnfInfo) holds nothing else) listing the objects of the VNF still there: what a terminate stuck on
    objects held by finalizers (named in its error) could not delete. A later M(nfv.vnflcm.vnf_terminate) deletes those
    it can; M(nfv.vnflcm.vnf_delete) deletes the identifier, naming those still held in its C(left_behind) (they go
    once their finalizers are removed)."
  - "An op occ that is still C(PROCESSING) or C(ROLLING_BACK) (its module process was killed, its job
    cancelled, its connection lost) is taken over when its runner is gone: its lease expired, or its process
    has exited on this machine. It is recorded C(FAILED_TEMP) with that reason, then the action applies. While
    its lease is live the action is refused, unless O(force) is set."
  - An op occ already C(COMPLETED), C(ROLLED_BACK) or C(FAILED) by the same action is reported with
    C(changed=false); any other state is an error.
author:
  - nfv.vnflcm maintainers (@nfv-vnflcm)
options:
  action:
    description:
      - What to do with the op occ.
    type: str
    required: true
    choices: [retry, rollback, fail]
  vnf_lcm_op_occ_id:
    description:
      - The op occ's id. Default is the instance's newest op occ.
    type: str
  force:
    description:
      - "Take over a C(PROCESSING) or C(ROLLING_BACK) op occ whose lease is still live (see O(lease_seconds)):
        it is recorded C(FAILED_TEMP), and the run that held it stops at its next record write."
      - "Only for a run you know is gone (a hung job, a host that will not come back): two runs must never act on
        one VNF at once."
    type: bool
    default: false
  skip_coordination:
    description:
      - "OpenStack, C(rollback) of a CHANGE_VNFPKG only: walk the VNFCs back without running the
        C(lcm-operation-coordinate-old-vnf) hook (the plan says it is not run). For a hook that keeps failing (a VNFC
        that cannot be reached, a script's error the failed change already showed): the way back is never blocked by it.
        The hook's failure message says so."
      - Refused with any other action or operation, and on Kubernetes.
    type: bool
    default: false
  package:
    description:
      - The VNF package the operation used; on Kubernetes, needed to retry INSTANTIATE, to retry a
        MODIFY_INFO that changed C(vnfdId) (a rollback of INSTANTIATE uses the objects its record lists), and to
        retry a CHANGE_VNFPKG that stopped before its first write.
      - On OpenStack, needed only to retry a MODIFY_INFO that changed C(vnfdId) (the new VNFD's package, checked
        again against what is deployed, as M(nfv.vnflcm.vnf_modify) checks it), and a CHANGE_VNFPKG that stopped before
        it wrote to the stack (the new package); the other operations ignore it.
    type: path
  delete_removed:
    description:
      - For a retried MODIFY_INFO, as in M(nfv.vnflcm.vnf_modify).
    type: bool
    default: false
  namespace_policy:
    description:
      - For a retried INSTANTIATE, as in M(nfv.vnflcm.vnf_instantiate).
    type: str
    choices: [rewrite, error]
    default: rewrite
  allow_cluster_scoped:
    description:
      - For a retried INSTANTIATE, as in M(nfv.vnflcm.vnf_instantiate).
    type: bool
    default: false
extends_documentation_fragment:
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
- name: Roll back the failed container update of cnf1
  nfv.vnflcm.vnf_lcm_op_occ:
    vnf_instance_name: cnf1
    namespace: tenant-a
    action: rollback

- name: Roll back a failed instantiate on OpenStack (deletes its stack)
  nfv.vnflcm.vnf_lcm_op_occ:
    cloud: mycloud
    vnf_instance_name: vnf1
    action: rollback

- name: Take over an instantiate whose job was killed (its runner is gone), and roll it back
  nfv.vnflcm.vnf_lcm_op_occ:
    vnf_instance_name: cnf2
    namespace: tenant-a
    action: rollback

- name: Or retry a failed instantiate, once the cause is fixed (its retry needs the package)
  nfv.vnflcm.vnf_lcm_op_occ:
    vnf_instance_name: cnf2
    namespace: tenant-a
    action: retry
    package: /srv/packages/test_instantiate_cnf_resources

- name: Fail an operation whose runner hangs on a host that will not come back, without waiting for its lease
  nfv.vnflcm.vnf_lcm_op_occ:
    vnf_instance_name: cnf1
    namespace: tenant-a
    action: fail
    force: true

- name: End a terminate stuck on an object held by a finalizer; the instance goes NOT_INSTANTIATED listing what is left
  nfv.vnflcm.vnf_lcm_op_occ:
    vnf_instance_name: cnf3
    namespace: tenant-a
    action: fail
"""

RETURN = r"""
plan:
  description: What the retry or rollback does (absent for C(fail)).
  returned: for retry and rollback
  type: dict
vnf_instance:
  description:
    - The SOL003 VnfInstance after the action.
    - C(_links) as M(nfv.vnflcm.vnf_info) describes them.
  returned: always
  type: dict
vnf_lcm_op_occ:
  description:
    - The SOL003 VnfLcmOpOcc after the action.
    - C(_links) as M(nfv.vnflcm.vnf_info) describes them.
  returned: always
  type: dict
vim_type:
  description: The VIM of the instance, V(kubernetes) or V(openstack).
  returned: always
  type: str
  sample: openstack
api_calls:
  description: How many VIM API reads and writes the action made.
  returned: always
  type: dict
  sample: {read: 12, write: 5}
"""

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.modules import module_main


def packed():
    """Never called: Ansible packs into this module's payload what its imports reach, and these are every driver's
    resume.py, of which module_main imports the one in use (lcm/modules.py)."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import resume as cnf
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import resume as vm
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import resume as helm
    return cnf, vm, helm


def main():
    module_main("op_occ", "resume.run_resume", {
        "action": {"type": "str", "required": True, "choices": ["retry", "rollback", "fail"]},
        "vnf_lcm_op_occ_id": {"type": "str"},
        "force": {"type": "bool", "default": False},
        "package": {"type": "path"},
        "delete_removed": {"type": "bool", "default": False},
        "namespace_policy": {"type": "str", "choices": ["rewrite", "error"], "default": "rewrite"},
        "allow_cluster_scoped": {"type": "bool", "default": False},
        "skip_coordination": {"type": "bool", "default": False},
    }, ("kubernetes", "openstack", "wait", "instance"), required_one_of=[("vnf_instance_id", "vnf_instance_name")])


if __name__ == "__main__":
    main()
