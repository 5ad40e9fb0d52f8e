#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
---
module: vnf_instantiate
short_description: Create and instantiate a VNF (ETSI NFV-SOL003 InstantiateVnfRequest)
version_added: 0.1.0
description:
  - Creates a VNF instance from a VNF package and instantiates it, as SOL003's
    C(POST /vnf_instances) followed by C(POST /vnf_instances/{id}/instantiate).
  - "Kubernetes (CNF): the objects of the def files listed in C(additionalParams.lcm-kubernetes-def-files)
    are created in one namespace: C(additionalParams.namespace), else the one namespace the def
    files agree on, else C(default). Def files that name different namespaces without a request
    namespace are an error. Which kinds are namespaced comes from the cluster's API discovery;
    a kind the cluster does not serve is an error."
  - Objects are created in a stable kind order (Namespace, quotas, ServiceAccounts, Secrets,
    ConfigMaps, storage, RBAC, Services, workloads, ...) whatever the order of the def files,
    and the module waits until every workload is ready.
  - A VDU maps to the workload whose name is the VDU's C(name) property; its replicas come from
    the instantiation level, else the VDU's initial delta.
  - "Kubernetes, a Helm chart (a request with a C(vimConnectionInfo) entry of C(vimType) V(ETSINFV.HELM.V_3), or with
    C(additionalParams.helm_chart_path), as Tacker v2 sends it): the package's chart is rendered (C(helm template)) with
    C(additionalParams.helm_parameters) and each VDU's replica count at the instantiation level through its
    C(additionalParams.helm_value_names) key, every rendered object judged by the API server (server-side dry run), then
    installed (C(helm install)) as release C(vnf<instance id without dashes>) in C(additionalParams.namespace), else the
    O(namespace) option, the context's, C(default). See O(helm_binary)."
  - The VnfInstance record and its operation occurrences are kept in a Secret in the VNF's
    namespace, so any controller can run the next operation, and a user with rights in that
    namespace only can run them all.
  - Idempotent by O(vnf_instance_name) (or O(vnf_instance_id)); a second run with the same
    request changes nothing and writes nothing.
  - Everything is validated and planned before the first write; bad input changes nothing.
  - "The VIM: O(vim_type), else the request's C(vimConnectionInfo) when it names one VIM type (an entry of
    C(vimType) V(ETSINFV.OPENSTACK_KEYSTONE.V_3), Tacker's form: C(interfaceInfo.endpoint),
    C(accessInfo.username/password/project/projectDomain/userDomain/region)), else the options only one VIM
    takes (O(cloud), O(auth), ... or O(kubeconfig), O(host), ...), else the environment (E(OS_CLOUD),
    E(K8S_AUTH_*)); Kubernetes when nothing says otherwise, and an error when both VIMs are given at the
    same step. Module options win over C(accessInfo)."
  - "OpenStack (VM-based VNF): one Heat stack per VNF instance from the flavour's
    C(BaseHOT/<flavourId>/) template (nested templates from C(nested/)), in one of Tacker v2's two forms, told apart
    by the top template: one Heat resource per VNFC (StandardUserData: C(VDU1-0), C(VDU1-1), ... with the C(nfv)
    parameter indexed the same way), or (DefaultUserData, when the template has C(OS::Heat::AutoScalingGroup)
    resources) the template as it is, each scaling group's C(desired_capacity) from
    C([nfv, VDU, <VDU>, desired_capacity]) and the C(nfv) entries per VDU and CP; the group's members are the VNFCs.
    The stack's json parameter C(nfv) comes from the VNFD and the request: VNFC counts from the
    instantiation level (else the default level, else VduInitialDelta), C(computeFlavourId) from
    C(requested_additional_capability_name), C(vcImageId) from C(sw_image_data.name) resolved in Glance,
    CP networks and fixed IPs from C(extVirtualLinks) (or ports from C(extLinkPorts)); an
    C(extManagedVirtualLinks) entry replaces the template's own network (and subnets) of that VL;
    C(additionalParams.nfv) is merged last (RFC 7396)."
  - "OpenStack: networks, subnets, ports, images and flavours are looked up before the stack is created;
    an error names the request (or VNFD) field at fault. The module follows the stack's events until
    CREATE_COMPLETE; a failure leaves the operation FAILED_TEMP with Heat's reason (retry, roll back
    or fail it with M(nfv.vnflcm.vnf_lcm_op_occ))."
  - "OpenStack: the record lives in the VNF's stack (C(vnf-<instance id>), tagged C(vnflcm)), as the
    metadata of its resource C(vnflcm_record), an C(OS::Heat::WaitConditionHandle) that nothing uses and
    every other resource of the top template depends on, so Heat creates it first and deletes it last.
    It is written by signalling that resource, which is not a stack update: it works in any stack
    state, and it stays through every stack update. Passwords are never stored in it."
author:
  - nfv.vnflcm maintainers (@nfv-vnflcm)
options:
  package:
    description:
      - Path to the VNF package, a directory or a zip file (see M(nfv.vnflcm.vnf_package_info)).
    type: path
    required: true
  request:
    description:
      - The InstantiateVnfRequest body exactly as SOL003 (and Tacker) define it, camelCase keys,
        for example C(flavourId), C(instantiationLevelId), C(additionalParams) with
        C(lcm-kubernetes-def-files) and C(namespace), and C(vimConnectionInfo).
      - Tokens and passwords in C(vimConnectionInfo.*.accessInfo) are masked in all output.
      - "Kubernetes: every file in C(additionalParams.lcm-kubernetes-def-files) must be declared by the package
        (listed in TOSCA.meta or the file of a VNFD artifact, as Tacker requires); together they may hold at most
        1000 Kubernetes objects, each at most 1.5 MiB as compact JSON. Before the first write the API server
        judges every object (server-side dry run: RBAC, admission, quota, validation), and an object that
        exists and is not this instance's is refused."
      - "OpenStack: C(extVirtualLinks), C(extManagedVirtualLinks) and C(additionalParams.nfv) (a JSON
        Merge Patch of the stack's C(nfv) parameter) shape the stack, see the description."
      - "OpenStack: C(additionalParams.lcm-operation-user-data) / C(lcm-operation-user-data-class) may name Tacker's
        own class of the template's form (C(StandardUserData) or C(DefaultUserData)), which the module does built in;
        any other class is a package script that computes the stack: refused before anything is written unless
        O(allow_package_scripts=true) (or give its changes as C(additionalParams.nfv))."
      - The fields below are those most often set; the module validates the whole body itself against SOL003
        before anything is written, and an error names the field (C(extVirtualLinks[0].extCps[1].cpdId)).
    type: dict
    required: true
    suboptions:
      flavourId:
        description:
          - The deployment flavour of the VNFD to instantiate (C(tosca.nodes.nfv.VNF) C(flavour_id)).
        type: str
        required: true
      instantiationLevelId:
        description:
          - The instantiation level of the flavour; it sets each VDU's replicas (Kubernetes) or VNFC count (OpenStack).
          - When not set, the flavour's default level, else each VDU's initial delta.
        type: str
      extVirtualLinks:
        description:
          - "OpenStack: the external virtual links, each C(id), C(resourceId) (the Neutron network) and C(extCps):
            C(cpdId) and C(cpConfig) with C(cpProtocolData) (fixed IPs, subnets) or C(linkPortId) (a port of
            C(extLinkPorts))."
        type: list
        elements: dict
      extManagedVirtualLinks:
        description:
          - "OpenStack: networks the VNFM does not create, each C(id), C(vnfVirtualLinkDescId) (the VNFD's VL) and
            C(resourceId) (the Neutron network that replaces the template's own)."
        type: list
        elements: dict
      vimConnectionInfo:
        description:
          - The VIM connections, a map from id to C(vimType), C(interfaceInfo) and C(accessInfo) (or a list of them
            with an C(id)), as Tacker takes them. An entry of C(vimType) V(ETSINFV.OPENSTACK_KEYSTONE.V_3) selects
            OpenStack and, without O(cloud) or O(auth), gives the connection (C(interfaceInfo.endpoint),
            C(accessInfo.username), C(password), C(project), C(projectDomain), C(userDomain), C(region)).
          - "One VIM per instance: the C(interfaceInfo.endpoint) of an entry of the VIM in use (or of no C(vimType)) must
            name the server the module connects to: the API server of O(kubeconfig) or O(host), the Keystone of O(cloud)
            or O(auth). URLs are compared by scheme, host (any case), port (V(443) for https and V(80) for http when
            none is given) and path without its trailing slash, and for Keystone a last C(/v3) or none alike. Another
            server is refused before any write, the error naming the field and the server the module connects to
            (never a credential). Without O(cloud) and O(auth), an OpenStack module connects to the request's own.
            Tacker's request files are taken with their placeholders filled, as Tacker's paramgen fills them
            (C(https://K8S_API_HOST:6443): the API server's real URL)."
          - C(accessInfo) is never returned nor stored with its secrets, and its secrets are masked in all output.
        type: raw
      additionalParams:
        description:
          - Parameters of the VNF provider and the VNFM.
        type: dict
        suboptions:
          namespace:
            description:
              - "Kubernetes: the namespace of the CNF; else O(namespace), else the one namespace the def files agree
                on, else C(default)."
            type: str
          lcm-kubernetes-def-files:
            description:
              - "Kubernetes: the def files to create, paths inside the package (C(Files/kubernetes/deployment.yaml))."
            type: list
            elements: str
          nfv:
            description:
              - "OpenStack: a JSON Merge Patch (RFC 7396) of the stack's C(nfv) parameter (C(VDU), C(CP) sections),
                applied last."
            type: dict
      extensions:
        description:
          - The VNF's extensions, merged into C(VnfInstance.extensions) (JSON Merge Patch) when it is instantiated, as Tacker v2 does.
        type: dict
      vnfConfigurableProperties:
        description:
          - The VNF's configurable properties, merged into C(VnfInstance.vnfConfigurableProperties) (JSON Merge Patch) when it
            is instantiated, as Tacker v2 does; C(isAutohealEnabled) and C(isAutoscaleEnabled) allow the closed loop
            (the C(nfv.vnflcm.auto_heal) and C(nfv.vnflcm.auto_scale) playbooks).
        type: dict
      localizationLanguage:
        description:
          - The localization language of the VNF.
        type: str
  vnf_instance_name:
    description:
      - The name of the VNF instance (C(vnfInstanceName)); the key that makes re-runs idempotent.
      - At most 255 characters (Tacker's limit for C(vnfInstanceName)); a longer name is refused before anything is written.
      - Required unless O(create_request) has C(vnfInstanceName).
    type: str
    aliases: [name]
  create_request:
    description:
      - "The CreateVnfRequest of the VNF identifier (SOL003 5.5.2.3; Tacker's C(create.json) as it is): C(vnfdId) must
        be the package's VNFD; C(vnfInstanceName) and C(vnfInstanceDescription) are the instance's name and description
        (O(vnf_instance_name) and O(vnf_instance_description), when set too, must be the same); C(metadata) is the new
        instance's C(metadata)."
      - "It applies when the identifier is created. A later run that finds the instance checks it against the record
        and changes nothing: O(create_request.metadata) that differs from the instance's is a warning of the plan
        (M(nfv.vnflcm.vnf_modify) changes metadata)."
    type: dict
    suboptions:
      vnfdId:
        description: The VNFD of the instance, the package's C(descriptor_id).
        type: str
        required: true
      vnfInstanceName:
        description: The instance's name.
        type: str
      vnfInstanceDescription:
        description: The instance's description.
        type: str
      metadata:
        description: The instance's metadata (key-value pairs).
        type: dict
  vnf_instance_id:
    description:
      - The id to give a new VNF instance, or of the existing one. A UUID is generated when not set.
    type: str
    aliases: [id]
  vnf_instance_description:
    description:
      - The VNF instance's description (C(vnfInstanceDescription)), at most 1024 characters (Tacker's limit).
    type: str
  namespace:
    description:
      - "Kubernetes: the namespace of the CNF when the request names none. The namespace is, in this order: the
        request's C(additionalParams.namespace), this option, the one namespace the def files agree on, C(default);
        RV(plan.namespace_reason) says which (V(request), V(option), V(manifests), V(default))."
      - Every module of the action group takes it, so one C(module_defaults) block for C(group/nfv.vnflcm.vnflcm)
        serves a whole play. The OpenStack VIM ignores it.
    type: str
  namespace_policy:
    description:
      - What to do with a def file object that names another namespace than the resolved one.
      - V(rewrite) creates it in the resolved namespace and lists it in RV(plan.namespace_rewrites).
      - V(error) refuses the request before anything is written.
    type: str
    choices: [rewrite, error]
    default: rewrite
  allow_cluster_scoped:
    description:
      - Whether the def files may create cluster-scoped objects (Namespace, ClusterRole, ...).
        They are listed in RV(plan.cluster_scoped) either way; without this option they are refused.
    type: bool
    default: false
  allow_package_scripts:
    description:
      - "OpenStack: run the package user-data script the request names (C(additionalParams.lcm-operation-user-data),
        a Python file of the package, and C(lcm-operation-user-data-class), a class other than Tacker's own
        C(StandardUserData) / C(DefaultUserData)), as Tacker v2 does, to compute the stack's template, nested files and
        C(nfv) parameter. B(This runs the package's code on the host that runs the module), with that host's rights:
        enable it only for packages you trust as you trust a playbook."
      - "The class's C(instantiate(req, inst, grant_req, grant, tmp_csar_dir)) runs in a subprocess of the Python that
        runs the module, bounded by O(wait_timeout), as Tacker's C(userdata_main.py) runs it: C(tmp_csar_dir) is a
        private copy of the package (on C(sys.path), so the script imports the package's other modules), the other
        arguments are plain dicts in Tacker's shapes (the grant request has a C(COMPUTE) resource per VNFC and a
        C(STORAGE) one per volume; the grant has no C(vimAssets) or C(zones), as there is no NFVO, so a script takes
        flavours and images from the VNFD). The script gets no credentials (no C(accessInfo), an environment of
        E(PATH), E(HOME), the locale and E(PYTHONPATH) only). It returns Tacker's stack fields (C(template) and
        C(files) as YAML text, C(parameters.nfv)); they are checked, and Heat's preview judges the stack, before it
        is created. A script written for Tacker runs unchanged: Tacker's helper modules it imports
        (C(tacker.sol_refactored.common.common_script_utils), C(.vnf_instance_utils),
        C(tacker.sol_refactored.infra_drivers.openstack.userdata_utils), and the C(Vnfd) their C(get_vnfd) returns) are
        the collection's own versions, put on the script's path only; other modules it imports must be installed for
        that Python."
      - "Later operations do not run it: scale, heal and M(nfv.vnflcm.vnf_change_ext_conn) apply their built-in change
        to the stack as the script made it (what the script set for a VNFC stays while that VNFC does), and a request
        of theirs that names the script is refused. A change of package runs the new package's script with
        M(nfv.vnflcm.vnf_change_pkg)'s O(nfv.vnflcm.vnf_change_pkg#module:allow_package_scripts)."
      - Without it, a request that names such a script is refused before anything is written, and the message names
        this option.
      - "Both VIMs: run the VNFD's C(Vnflcm) interface scripts (a flavour's C(instantiate_start) ...
        C(modify_information_end), each a Python artifact of the package), as Tacker v2 runs them: the operation's
        C(<op>_start) script before its first write and C(<op>_end) after its last, both while the op occ is
        C(PROCESSING), as C(<python> <script>) with Tacker's input pickled on stdin (C(operation), C(request),
        C(vnf_instance), C(grant_request), C(grant_response), C(tmp_csar_dir)); a non-zero exit (or outliving
        O(wait_timeout)) fails the operation, C(FAILED_TEMP): a retry runs both again, a rollback neither. The record
        keeps the flavour's scripts with this choice, so scale, heal, terminate and modify run theirs too, until a change
        of package brings the new package's (with its own opt-in). The differences from Tacker: C(tmp_csar_dir) holds
        the interface scripts at their package paths, not the whole package; the grant request and grant are None (no
        NFVO); the request and instance carry no VIM credentials, and the environment is E(PATH), E(HOME), the locale
        and E(PYTHONPATH) only."
      - "Without it the VNFD's interface scripts do not run, a package that lacks them is read all the same, and the
        plan of every operation says which are not run (C(plan.interface_scripts)); the result's C(hooks_run) lists the scripts and end hook that ran."
    type: bool
    default: false
  reconcile:
    description:
      - "Kubernetes, CNFs of def files: when the instance is already instantiated as requested, repair its drift
        (what M(nfv.vnflcm.vnf_info)'s O(nfv.vnflcm.vnf_info#module:drift) reports): each changed object's def-file
        manifest is applied again by server-side apply (field manager C(nfv.vnflcm-drift), taking back only the fields
        the manifest sets, so defaults and fields others own stay), each missing one is created again, each object
        that carries the instance's id label but is not in the record is deleted. A workload's replicas are set back to
        the record's count, unless a HorizontalPodAutoscaler of the package scales it."
      - "ConfigMaps and Secrets are compared with, and restored from, O(package), which must be the instance's own
        (its C(vnfdId)); a workload that reads a key whose value is restored restarts (its pod template gets a new
        C(vnflcm.nfv/config-hash) annotation), no other: the selective-restart rules of M(nfv.vnflcm.vnf_modify)."
      - "The repair is an op occ of C(HEAL) with C(operationParams) V({cause: drift, additionalParams: {reconcile: true}}):
        should it stop half-way it is C(FAILED_TEMP), and M(nfv.vnflcm.vnf_lcm_op_occ) retries it (the drift is read
        again and repaired; with its C(package) option ConfigMaps and Secrets too) or fails it; a heal has no rollback.
        Check mode and diff mode show the repair (RV(plan.repair), the changed fields before and after) without making it."
      - "Without it, a re-run of an instance instantiated as requested writes nothing, and its plan says how many objects
        drifted (RV(plan.drift)) and lists them (RV(plan.drifted)). Helm-chart CNFs: refused."
      - "OpenStack: the VNFCs whose server, ports or volumes drifted are healed (their servers marked unhealthy, one
        stack update, as M(nfv.vnflcm.vnf_heal) does): a new server has the recorded flavour and image and is created on
        the recorded ports and volumes, so a port detached by hand is attached again, and one attached by hand is left
        detached with the old server; VNFCs that did not drift keep their servers. The plan lists C(plan.repair) (each
        drifted object, C(action: replace server)) and C(plan.replace); the same op occ, retry and fail as above."
    type: bool
    default: false
extends_documentation_fragment:
  - nfv.vnflcm.kubernetes
  - nfv.vnflcm.openstack
  - nfv.vnflcm.vim
  - nfv.vnflcm.wait
  - nfv.vnflcm.attributes
attributes:
  check_mode:
    support: full
    details:
      - Returns the plan (objects, namespace decisions, rewrites) and writes nothing.
  diff_mode:
    support: full
requirements:
  - kubernetes >= 24.2.0 (Kubernetes VIM)
  - openstacksdk >= 1.0.0 (OpenStack VIM)
  - PyYAML
seealso:
  - module: nfv.vnflcm.vnf_info
  - module: nfv.vnflcm.vnf_scale
  - module: nfv.vnflcm.vnf_terminate
"""

EXAMPLES = r"""
# One scenario runs through the examples of all the modules: CNFs in namespace tenant-a and a VM-based VNF vnf1 on cloud
# mycloud, from packages in /srv/packages (Tacker's sample packages, by their names). The connection and waiting options
# (kubeconfig, wait_timeout, ...) are set once with module_defaults for group/nfv.vnflcm.vnflcm; request files are read
# from the playbook's folder.
- name: Show the plan first (the objects, in which namespace), writing nothing
  nfv.vnflcm.vnf_instantiate:
    package: /srv/packages/test_cnf_container_update_before
    vnf_instance_name: cnf1
    request:
      flavourId: simple
      instantiationLevelId: instantiation_level_1
      additionalParams:
        namespace: tenant-a
        lcm-kubernetes-def-files:
          - Files/kubernetes/configmap_1.yaml
          - Files/kubernetes/secret_1.yaml
          - Files/kubernetes/deployment.yaml
  check_mode: true
  register: cnf1_plan

- name: Instantiate a CNF into the namespace the request names
  nfv.vnflcm.vnf_instantiate:
    package: /srv/packages/test_cnf_container_update_before
    vnf_instance_name: cnf1
    request:
      flavourId: simple
      instantiationLevelId: instantiation_level_1
      additionalParams:
        namespace: tenant-a
        lcm-kubernetes-def-files:
          - Files/kubernetes/configmap_1.yaml
          - Files/kubernetes/secret_1.yaml
          - Files/kubernetes/deployment.yaml
  register: cnf1

- name: Repair what was changed in cnf1 behind the VNF manager's back (the same package and request; nothing to do when nothing drifted)
  nfv.vnflcm.vnf_instantiate:
    package: /srv/packages/test_cnf_container_update_before
    vnf_instance_name: cnf1
    request:
      flavourId: simple
      instantiationLevelId: instantiation_level_1
      additionalParams:
        namespace: tenant-a
        lcm-kubernetes-def-files:
          - Files/kubernetes/configmap_1.yaml
          - Files/kubernetes/secret_1.yaml
          - Files/kubernetes/deployment.yaml
    reconcile: true
  register: cnf1_repair

- name: Use a request file written for Tacker, its placeholders filled (its vimConnectionInfo is recorded without its token)
  nfv.vnflcm.vnf_instantiate:
    package: /srv/packages/test_instantiate_cnf_resources
    vnf_instance_name: cnf2
    namespace: tenant-a  # the request names none
    request: "{{ lookup('ansible.builtin.file', 'error_handling_instantiate.json') | from_json }}"

- name: Tacker's two requests as they are, create.json (name, description, metadata) then the InstantiateVnfRequest
  nfv.vnflcm.vnf_instantiate:
    package: /srv/packages/test_instantiate_cnf_resources
    namespace: tenant-a
    create_request: "{{ lookup('ansible.builtin.file', 'create.json') | from_json }}"
    request: "{{ lookup('ansible.builtin.file', 'min_sample_instantiate.json') | from_json }}"

- name: Instantiate a CNF from its package's Helm chart, as Tacker's ETSINFV.HELM.V_3 request asks (helm on PATH, else helm_binary)
  nfv.vnflcm.vnf_instantiate:
    package: /srv/packages/test_helm_instantiate
    vnf_instance_name: helm1
    request:
      flavourId: simple
      vimConnectionInfo:
        vim1:
          vimId: cluster1
          vimType: ETSINFV.HELM.V_3
      additionalParams:
        namespace: tenant-a
        helm_chart_path: Files/kubernetes/test-chart-0.1.0.tgz
        helm_parameters:
          service.port: 8081
          service.type: NodePort
        # The chart value that holds each VDU's replica count: what a scale upgrades.
        helm_value_names:
          VDU1:
            replica: replicaCountVdu1
          VDU2:
            replica: replicaCountVdu2
  register: helm1

- name: Instantiate a VM-based VNF on OpenStack (Tacker's request works unchanged)
  nfv.vnflcm.vnf_instantiate:
    package: /srv/packages/userdata_standard
    vnf_instance_name: vnf1
    cloud: mycloud
    request:
      flavourId: simple
      instantiationLevelId: instantiation_level_1
      extVirtualLinks:
        - id: ext-net0
          resourceId: net0
          extCps:
            - cpdId: VDU1_CP1
              cpConfig:
                VDU1_CP1_1:
                  cpProtocolData:
                    - layerProtocol: IP_OVER_ETHERNET
                      ipOverEthernet:
                        ipAddresses:
                          - type: IPV4
                            numDynamicAddresses: 1
            # The package's VDU2 template puts this port on a subnet: the request names it.
            - cpdId: VDU2_CP1
              cpConfig:
                VDU2_CP1_1:
                  cpProtocolData:
                    - layerProtocol: IP_OVER_ETHERNET
                      ipOverEthernet:
                        ipAddresses:
                          - type: IPV4
                            numDynamicAddresses: 1
                            subnetId: net0-subnet
  register: vnf1
"""

RETURN = r"""
vim_type:
  description: The VIM the operation went to, V(kubernetes) or V(openstack).
  returned: success
  type: str
  sample: openstack
vnf_instance:
  description:
    - The SOL003 VnfInstance after the operation (before it, in check mode).
    - C(_links) as M(nfv.vnflcm.vnf_info) describes them.
  returned: always
  type: dict
  sample:
    id: 5f1c0a39-35bd-4b0a-b2b8-a3a8f1f1e3f4
    vnfInstanceName: cnf1
    instantiationState: INSTANTIATED
    metadata:
      namespace: tenant-a
vnf_lcm_op_occ:
  description:
    - The SOL003 VnfLcmOpOcc of the operation.
    - C(_links) as M(nfv.vnflcm.vnf_info) describes them.
  returned: when something was done
  type: dict
  sample:
    operation: INSTANTIATE
    operationState: COMPLETED
answers:
  description: "Kubernetes: each review of RV(plan.ask) with the API server's answer, its C(status) (for example
    C(allowed) of a SubjectAccessReview)."
  returned: when the instantiate asked reviews
  type: list
  elements: dict
  sample:
    - kind: LocalSubjectAccessReview
      file: Files/kubernetes/local-subject-access-review.yaml
      namespace: tenant-a
      status:
        allowed: true
plan:
  description: What the operation does and why.
  returned: always
  type: dict
  contains:
    namespace:
      description: The namespace the VNF is instantiated in.
      type: str
    namespace_reason:
      description: Where the namespace came from, C(request), C(option) (O(namespace)), C(manifests) or C(default).
      type: str
    namespace_rewrites:
      description: Objects whose def file named another namespace.
      type: list
      elements: dict
    cluster_scoped:
      description: Cluster-scoped objects of the def files.
      type: list
      elements: dict
    create:
      description: The objects to create, in creation order.
      type: list
      elements: dict
    ask:
      description:
        - "Kubernetes: the def files' reviews (SubjectAccessReview, LocalSubjectAccessReview, SelfSubjectAccessReview,
          SelfSubjectRulesReview, TokenReview, SelfSubjectReview), in package order: C(kind), C(file), C(namespace)
          (a namespaced one is asked in the VNF's namespace). The API server answers them and keeps nothing, so they are
          not the VNF's objects: not recorded, not deleted at terminate. They are asked once the objects are created;
          check mode and a re-run of an instantiated CNF ask nothing."
      type: list
      elements: dict
    vdus:
      description: Each VDU's workload and its replicas.
      type: dict
    drift:
      description: "Kubernetes, a re-run of an instance instantiated as requested (and O(reconcile)): how many objects
        drifted, C(<N> objects) (C(not read: <reason>) when this user may not read it; the re-run does not fail for
        that)."
      type: str
      sample: 2 objects
    drifted:
      description: "Without O(reconcile): the drifted objects, as M(nfv.vnflcm.vnf_info)'s C(drift[].objects) shows them."
      type: list
      elements: dict
    repair:
      description: "O(reconcile): each drifted object with its C(action): C(apply) (its manifest applied again; its
        C(fields) are what changes), C(create) (missing), C(delete) (unexpected)."
      type: list
      elements: dict
      sample:
        - {kind: Deployment, name: vdu1, status: changed, action: apply,
           fields: [{path: "spec.template.spec.containers[0].image", expected: "app:1.0", live: "app:2.0"}]}
    restart:
      description: "O(reconcile): the workloads that read a restored ConfigMap or Secret key (C(reasons): which keys), restarted."
      type: list
      elements: dict
    not_repaired:
      description: "O(reconcile): drifted objects the repair cannot restore (a missing ConfigMap or Secret when
        O(package) is not the instance's), with a C(note)."
      type: list
      elements: dict
    stack_name:
      description: "OpenStack: the VNF's Heat stack, C(vnf-<instance id>)."
      type: str
    resources:
      description: "OpenStack: the top template's resources (name and type), one C(<VDU>-<index>) per VNFC
        (StandardUserData), or the template's own (DefaultUserData)."
      type: dict
    nfv:
      description: "OpenStack: the value of the stack's C(nfv) parameter (image names resolved to Glance ids)."
      type: dict
    preview:
      description: "OpenStack, check and diff mode: every resource Heat would create (a stack preview), nested ones included."
      type: list
      elements: str
    lines:
      description: The plan as short readable lines.
      type: list
      elements: str
api_calls:
  description: How many API reads and writes the operation made (Kubernetes), or HTTP calls to the OpenStack services
    (C(read), C(write), and C(heat_write) for writes to Heat).
  returned: always
  type: dict
  sample: {read: 10, write: 4}
"""

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.modules import module_main


def packed():
    """Never called: Ansible packs into this module's payload what its imports reach, and these are every driver's
    instantiate.py, of which module_main imports the one in use (lcm/modules.py)."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import instantiate as cnf
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import instantiate as vm
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import instantiate as helm
    return cnf, vm, helm


def main():
    module_main(
        "instantiate", "instantiate.run_instantiate",
        {
            "package": {"type": "path", "required": True},
            "request": {"type": "dict", "required": True},
            "vnf_instance_name": {"type": "str", "aliases": ["name"]},
            "create_request": {"type": "dict"},
            "vnf_instance_id": {"type": "str", "aliases": ["id"]},
            "vnf_instance_description": {"type": "str"},
            "namespace": {"type": "str"},
            "namespace_policy": {"type": "str", "default": "rewrite", "choices": ["rewrite", "error"]},
            "allow_cluster_scoped": {"type": "bool", "default": False},
            "allow_package_scripts": {"type": "bool", "default": False},
            "reconcile": {"type": "bool", "default": False},
        },
        ("kubernetes", "openstack", "wait"),
    )


if __name__ == "__main__":
    main()
