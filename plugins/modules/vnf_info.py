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
  - "By O(vnf_instance_name), when no instance has the name: RV(vnf_instances) is empty, and RV(name_claim) shows
    the claim of the name an instantiate killed before its record left, if there is one (who made it, and whether its
    run is gone). M(nfv.vnflcm.vnf_delete) or M(nfv.vnflcm.vnf_terminate) by that name deletes it."
  - "The VIM: O(vim_type), else the options only one VIM takes (O(cloud), O(auth), ... or O(kubeconfig),
    O(host), ...), else the environment (E(OS_CLOUD), E(K8S_AUTH_*)); Kubernetes when nothing says otherwise,
    and an error when both VIMs are given at the same step."
  - "OpenStack: instances are read from the records kept in the project's stacks tagged C(vnflcm)."
  - "OpenStack: the record lives in the VNF's stack (C(vnf-<instance id>), tagged C(vnflcm)), as the
    metadata of its resource C(vnflcm_record), an C(OS::Heat::WaitConditionHandle) that nothing uses and
    every other resource of the top template depends on, so Heat creates it first and deletes it last.
    It is written by signalling that resource, which is not a stack update: it works in any stack
    state, and it stays through every stack update. Passwords are never stored in it."
options:
  drift:
    description:
      - "Kubernetes: also read what differs between each instantiated instance's live objects and what its record says
        they are (RV(drift)), writing nothing: a field a def file sets that someone changed (C(kubectl edit), C(kubectl
        set image), C(kubectl scale)), an object of the record that is gone, an object that carries the instance's
        id label (C(vnflcm.nfv/instance-id)) that the record does not name and no controller owns."
      - "What an object should be is the API server's answer to a server-side apply of its def file's manifest in dry
        run (field manager C(nfv.vnflcm-drift)), with the namespace and labels the instance gave it and the replicas of
        its VDU's VNFCs as the record counts them. So the defaults the API server adds are not drift, nor are fields the
        manifest does not set (an annotation a controller adds, a label added by hand). The replicas of a workload that
        a HorizontalPodAutoscaler of the package scales are the autoscaler's, not drift; any other writer of replicas
        (C(kubectl scale), another controller) is drift."
      - "ConfigMaps and Secrets are looked for, not compared: their content is not kept in the record (a Secret's
        never is), only in the package, which a re-run of M(nfv.vnflcm.vnf_instantiate) has: its plan compares them
        too, and its O(nfv.vnflcm.vnf_instantiate#module:reconcile) repairs the drift. A Secret's values never appear:
        they are masked."
      - "An instance whose record keeps no deployed manifests (a Helm chart's CNF, a record of an older version) has
        its objects looked for only (C(compared: presence))."
      - "Reads: one LIST per kind of the record by the instance's id label (C(vnflcm.nfv/instance-id)), and a dry-run apply per object compared,
        which needs the right to patch the object, though a dry run stores nothing (a user that may only read gets the API
        server's refusal)."
      - "OpenStack: per VNFC of the record, its server as Nova sees it (gone: C(missing); its flavour or image not the
        ones the stack's C(nfv) parameter gave it, or in C(ERROR) or C(SHUTOFF): C(changed), with the fields
        C(flavor), C(image), C(status)), the ports attached to it (Neutron's C(device_id)) against its C(vnfcCpInfo)
        (a port detached or deleted: C(missing); another one attached: C(unexpected)), its attached volumes against
        its C(storageResourceIds) the same way. Each object: C(kind) (V(Server), V(Port), V(Volume)), C(id), C(vdu),
        C(server), C(status), C(fields). Reads: per VNFC one server and one port list; no write."
    type: bool
    default: false
author:
  - nfv.vnflcm maintainers (@nfv-vnflcm)
extends_documentation_fragment:
  - nfv.vnflcm.instance
  - nfv.vnflcm.kubernetes
  - nfv.vnflcm.openstack
  - nfv.vnflcm.vim
  - nfv.vnflcm.wait.read_only
  - nfv.vnflcm.attributes
  - nfv.vnflcm.attributes.info_module
requirements:
  - kubernetes >= 24.2.0 (Kubernetes VIM)
  - openstacksdk >= 1.0.0 (OpenStack VIM)
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

- name: What changed behind the VNF manager's back
  nfv.vnflcm.vnf_info:
    vnf_instance_name: cnf1
    namespace: tenant-a
    drift: true
  register: seen

- name: Say what drifted
  ansible.builtin.debug:
    msg: "{{ item.vnfInstanceName }}: {{ item.drifted }} drifted {{ item.objects | map(attribute='name') | join(', ') }}"
  loop: "{{ seen.drift }}"

- name: List the VNF instances of an OpenStack project
  nfv.vnflcm.vnf_info:
    cloud: mycloud
  register: vnfs
"""

RETURN = r"""
vim_type:
  description: The VIM the operation went to, V(kubernetes) or V(openstack).
  returned: success
  type: str
  sample: openstack
vnf_instances:
  description:
    - SOL003 VnfInstance documents.
    - "C(_links) (SOL003): C(self), the API URL of the VIM object that holds the instance's record (its Kubernetes
      Secret, its Heat stack); C(instantiate), C(scale), C(scaleToLevel), C(heal) and C(terminate) where its
      C(instantiationState) allows them, each C(nfv.vnflcm:<module>?<options>): the module and the options that select
      the instance. Derived when returned, never stored."
  returned: always
  type: list
  elements: dict
vnf_lcm_op_occs:
  description:
    - Their recent VnfLcmOpOcc documents, newest first per instance.
    - "A C(PROCESSING) or C(ROLLING_BACK) one has C(lease) (not a SOL003 attribute): the run that holds it (C(runId),
      C(host), C(pid), C(startedAt)), until when (C(expiresAt), renewed while it works), and C(status): V(live),
      V(expired), or V(runner gone) (its process has exited on this machine), with C(statusReason). An op occ whose
      runner is gone is taken over by the next call (see M(nfv.vnflcm.vnf_lcm_op_occ))."
    - "C(_links) (SOL003): C(self) (the record's URL and C(#vnfLcmOpOcc=<id>)), C(vnfInstance) (the instance's
      C(self)), and for a C(FAILED_TEMP) one C(fail), C(retry) and C(rollback) (where the operation has them), each
      C(nfv.vnflcm:vnf_lcm_op_occ?...&action=<action>)."
  returned: always
  type: list
  elements: dict
drift:
  description:
    - "With O(drift): per instantiated instance, what differs between its live objects and its record."
    - "C(vnfInstanceId), C(vnfInstanceName); C(drifted), how many objects of C(objects); C(compared), V(fields) or
      V(presence) (its record keeps no manifests: objects looked for only); C(objects), each with C(apiVersion),
      C(kind), C(name), C(namespace), its def file C(file) and C(vdu) where it has them, and C(status): V(changed)
      (C(fields), each C(path), C(expected) and C(live); a Secret's values masked), V(missing) or V(unexpected)
      (it carries the instance's id label, no controller owns it, the record does not name it)."
  returned: when O(drift=true) on Kubernetes
  type: list
  elements: dict
  sample: [{vnfInstanceId: 5c0d0e1f-0000-4000-8000-00000000beef, vnfInstanceName: cnf1, drifted: 2, compared: fields,
            objects: [{apiVersion: apps/v1, kind: Deployment, name: vdu1, namespace: tenant-a, file: Files/kubernetes/deployment.yaml,
                       vdu: VDU1, status: changed, fields: [{path: "spec.template.spec.containers[0].image", expected: "nginx:1.27",
                       live: "nginx:1.28"}]},
                      {apiVersion: v1, kind: Service, name: vdu1-svc, namespace: tenant-a, file: Files/kubernetes/service.yaml, status: missing}]}]
name_claim:
  description:
    - "The claim of the name O(vnf_instance_name) that no instance has: what an instantiate killed after it claimed
      the name and before it wrote the instance's record left (Kubernetes a Secret C(vnflcm-name-<hash>), OpenStack a
      stack C(vnflcm-name-<hash>) with no resource)."
    - "C(vnfInstanceName); C(vnfInstanceId) and C(vnfLcmOpOccId), the instance and the run that claimed it;
      C(claimedAt); C(status): V(live) (its run may still write the record: less than the grace old, 60 s on
      Kubernetes, 300 s on OpenStack, and its runner not known to be gone), V(expired) or V(runner gone) (its
      process has exited on this machine), with C(statusReason); C(runner) (C(host), C(pid)) when the claim names it;
      C(heldBy), the VIM object (C(kind), C(name), and C(id) of a stack); C(note), all of it in one sentence."
  returned: when O(vnf_instance_name) selects no instance and a claim of that name is left without one
  type: dict
  sample: {vnfInstanceName: cnf1, vnfInstanceId: 5c0d0e1f-0000-4000-8000-00000000dead, vnfLcmOpOccId: 1f2e3d4c-0000-4000-8000-000000000001,
           claimedAt: "2026-11-28T10:00:00Z", status: runner gone, statusReason: its runner (pid 4242 on awx-ee-1) has exited,
           runner: {host: awx-ee-1, pid: 4242}, heldBy: {kind: Secret, name: vnflcm-name-0123456789abcdef01234567},
           note: "claimed by run 1f2e3d4c-0000-4000-8000-000000000001 (VNF instance 5c0d0e1f-0000-4000-8000-00000000dead, since
           2026-11-28T10:00:00Z), gone, no instance: its runner (pid 4242 on awx-ee-1) has exited"}
"""

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.modules import module_main


def packed():
    """Never called: Ansible packs into this module's payload what its imports reach, and these are every driver's
    info.py, of which module_main imports the one in use (lcm/modules.py)."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import info as cnf
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import info as vm
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import info as helm
    return cnf, vm, helm


def main():
    module_main("info", "info.run_info", {"drift": {"type": "bool", "default": False}}, ("kubernetes", "openstack", "instance", "wait"))


if __name__ == "__main__":
    main()
