#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
---
module: vnf_package_info
short_description: Read an ETSI NFV VNF package (CSAR) and return its VNFD as data
version_added: 0.1.0
description:
  - Reads a VNF package given as a directory or a zip file (CSAR, ETSI NFV-SOL004).
  - Parses C(TOSCA-Metadata/TOSCA.meta), the VNFD with all its imports, and the artifacts
    (Kubernetes def files, Heat BaseHOT templates).
  - Verifies the SHA-256 and SHA-512 hashes that C(TOSCA.meta) lists for the files present.
  - A hash mismatch, a missing def file, a missing C(Entry-Definitions), malformed YAML or a zip
    member outside the package is an error naming the file. A listed artifact that is absent
    and not needed (for example a management-driver script that a VNFM injects at build time)
    is a warning.
  - Runs on the controller or target host; it never contacts a VIM. It accepts the connection
    and waiting options of both VIMs only so that C(module_defaults) for the C(group/nfv.vnflcm.vnflcm)
    action group apply to every module of the collection; it ignores them (secrets in them are still
    masked in its output).
author:
  - nfv.vnflcm maintainers (@nfv-vnflcm)
options:
  path:
    description:
      - Path to the VNF package, a directory or a C(.zip)/C(.csar) file.
    type: path
    required: true
  flavour_id:
    description:
      - Return only this deployment flavour of the VNFD.
      - An unknown flavour is an error that lists the flavours the VNFD has.
    type: str
  operation:
    description:
      - The lifecycle operation the package is read for. Artifacts that this operation needs
        must be present; others that are missing only give a warning.
      - When not given, only def files and templates must be present.
    type: str
    choices: [instantiate, scale, heal, modify, change_vnfpkg, terminate]
  namespace:
    description:
      - Not used (a package has no namespace). Taken so that one C(module_defaults) block for
        C(group/nfv.vnflcm.vnflcm) that sets it serves every module of the collection.
    type: str
extends_documentation_fragment:
  - nfv.vnflcm.kubernetes
  - nfv.vnflcm.openstack
  - nfv.vnflcm.vim
  - nfv.vnflcm.wait.read_only
  - nfv.vnflcm.attributes
  - nfv.vnflcm.attributes.info_module
requirements:
  - PyYAML
seealso:
  - name: ETSI GS NFV-SOL 004
    description: VNF package and TOSCA.meta format.
    link: https://www.etsi.org/deliver/etsi_gs/NFV-SOL/001_099/004/
  - name: ETSI GS NFV-SOL 001
    description: The TOSCA-based VNFD.
    link: https://www.etsi.org/deliver/etsi_gs/NFV-SOL/001_099/001/
"""

EXAMPLES = r"""
# One scenario runs through the examples of all the modules: CNFs in namespace tenant-a and a VM-based VNF vnf1 on cloud
# mycloud, from packages in /srv/packages (Tacker's sample packages, by their names).
- name: Read a CNF package
  nfv.vnflcm.vnf_package_info:
    path: /srv/packages/test_cnf_container_update_before
  register: pkg

- name: Show the VDUs of the "simple" flavour and their Kubernetes resource names
  ansible.builtin.debug:
    msg: "{{ pkg.package.vnfd.flavours.simple.vdus | dict2items | map(attribute='value.name') | list }}"

- name: Read a zipped package for instantiation, one flavour only
  nfv.vnflcm.vnf_package_info:
    path: /srv/packages/userdata_standard.zip
    flavour_id: simple
    operation: instantiate
  register: vm_pkg
"""

RETURN = r"""
package:
  description: The package as data.
  returned: success
  type: dict
  contains:
    format:
      description: How the package was given.
      type: str
      sample: directory
    path:
      description: The package path as given.
      type: str
      sample: /srv/packages/sample_cnf
    meta:
      description: C(TOSCA.meta) content, with the per-file hash blocks under C(files).
      type: dict
    vnfd:
      description:
        - The VNFD, with C(descriptor_id), C(provider), C(product_name), C(software_version),
          C(descriptor_version) and C(flavours).
        - Each flavour has C(vdus), C(virtual_storages), C(cps), C(virtual_links),
          C(scaling_aspects), C(instantiation_levels), C(vdu_initial_delta), C(interfaces)
          and C(base_hot).
      type: dict
      sample:
        descriptor_id: b1bb0ce7-ebca-4fa7-95ed-4840d70a1177
        provider: Company
        product_name: Sample VNF
        flavours:
          simple:
            vdus:
              VDU1:
                name: vdu1-update
    kubernetes_def_files:
      description: Kubernetes def files found in the package.
      type: list
      elements: str
      sample: [Files/kubernetes/deployment.yaml]
    kubernetes_resources:
      description: One entry per object in the Kubernetes def files.
      type: list
      elements: dict
      sample:
        - file: Files/kubernetes/deployment.yaml
          api_version: apps/v1
          kind: Deployment
          name: vdu1-update
          namespace: null
    warnings:
      description: Non-fatal findings, also shown as Ansible warnings.
      type: list
      elements: str
"""

from ansible_collections.nfv.vnflcm.plugins.module_utils.common import code_cache

# Before the imports below: what they reach is compiled once per version of the collection, not on every run.
code_cache.use()

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import PackageError, VnfLcmError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.module import VnfLcmModule
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.package_info import describe_package
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import HAS_YAML, YAML_IMPORT_ERROR


def main():
    module = VnfLcmModule(
        argument_spec={
            "path": {"type": "path", "required": True},
            "flavour_id": {"type": "str"},
            "operation": {"type": "str", "choices": ["instantiate", "scale", "heal", "modify", "change_vnfpkg", "terminate"]},
            "namespace": {"type": "str"},
        },
        arg_groups=("kubernetes", "openstack", "wait"),
        supports_check_mode=True,
    )
    module.require("PyYAML", HAS_YAML, YAML_IMPORT_ERROR)
    try:
        package, warnings = describe_package(module.params["path"], module.params["flavour_id"], module.params["operation"])
    except VnfLcmError as error:
        module.fail_from_error(error)
    except Exception as error:  # noqa: B902 - never a raw traceback, whatever a package holds
        module.fail_from_error(PackageError(module.params["path"], "{0}: {1}".format(type(error).__name__, error)))
    for warning in warnings:
        module.warn(warning)
    module.exit_json(changed=False, package=package)


if __name__ == "__main__":
    main()
