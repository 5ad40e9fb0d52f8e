# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Shared fixtures for the VNF package reader tests: Tacker's sample packages, copies and zips of them."""

from __future__ import annotations

import hashlib
import os
import textwrap
import zipfile

import pytest

PACKAGE_NAMES = (
    "test_cnf_multi_ns",
    "test_cnf_container_update_before",
    "test_cnf_container_update_after",
    "userdata_standard",
    "userdata_standard_change_vnfpkg_nw",
)


def pytest_generate_tests(metafunc):
    """Tests that take ``package_name`` run once per sample package."""
    if "package_name" in metafunc.fixturenames:
        metafunc.parametrize("package_name", PACKAGE_NAMES)


def zip_directory(source, target, prefix="", extra_members=()):
    """Zip ``source`` into ``target``; ``prefix`` wraps members in a folder, ``extra_members`` are (name, bytes)."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for current, _dirs, files in os.walk(source):
            for name in sorted(files):
                full = os.path.join(current, name)
                archive.write(full, prefix + os.path.relpath(full, source).replace(os.sep, "/"))
        for name, data in extra_members:
            archive.writestr(name, data)
    return str(target)


@pytest.fixture
def zipped(tmp_path):
    """``zipped(directory, prefix="", extra_members=())``: the path of a zip of ``directory`` in tmp_path."""
    def make(directory, prefix="", extra_members=()):
        target = tmp_path / (os.path.basename(directory.rstrip("/")) + ".zip")
        return zip_directory(directory, str(target), prefix, extra_members)
    return make


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as handle:
        handle.write(textwrap.dedent(text).lstrip("\n"))


def meta_block(root, relpath, algorithm):
    with open(os.path.join(root, relpath), "rb") as handle:
        digest = hashlib.new(algorithm.replace("-", "").lower(), handle.read()).hexdigest()
    return "Name: {0}\nContent-Type: application/yaml\nAlgorithm: {1}\nHash: {2}\n".format(relpath, algorithm, digest)


SMALL_VNFD = """
tosca_definitions_version: tosca_simple_yaml_1_2
description: single-file VNFD
node_types:
  tosca.nodes.nfv.VNF:
    derived_from: tosca.nodes.Root
  tosca.nodes.nfv.Vdu.Compute:
    derived_from: tosca.nodes.Root
  tosca.nodes.nfv.Cp:
    derived_from: tosca.nodes.Root
  tosca.nodes.nfv.VduCp:
    derived_from: tosca.nodes.nfv.Cp
  tosca.nodes.nfv.VnfExtCp:
    derived_from: tosca.nodes.nfv.Cp
  tosca.nodes.nfv.VnfVirtualLink:
    derived_from: tosca.nodes.Root
  example.SmallVNF:
    derived_from: tosca.nodes.nfv.VNF
    properties:
      descriptor_id:
        type: string
        default: small-0001
      provider:
        type: string
        constraints: [ valid_values: [ Example ] ]
      flavour_id:
        type: string
        default: tiny
topology_template:
  description: the tiny flavour
  node_templates:
    VNF:
      type: example.SmallVNF
      properties:
        product_name: Small
        software_version: '2.0'
        descriptor_version: '3.1'
        vnfm_info: [ Tacker ]
      interfaces:
        Vnflcm:
          instantiate_start: setup-hook
          heal_start:
            implementation:
              primary: setup-hook
            inputs:
              retries: 2
      artifacts:
        setup-hook:
          type: tosca.artifacts.Implementation.Python
          file: ../Scripts/setup.py
    web:
      type: tosca.nodes.nfv.Vdu.Compute
      properties:
        name: web
        description: web server
        vdu_profile: { min_number_of_instances: 1, max_number_of_instances: 2 }
    web_cp:
      type: tosca.nodes.nfv.VduCp
      properties: { layer_protocols: [ ipv4 ], order: 0 }
      requirements:
        - virtual_binding: { node: web }
        - virtual_link: net
    ext_cp:
      type: tosca.nodes.nfv.VnfExtCp
      properties: { layer_protocols: [ ipv4 ] }
      requirements:
        - internal_virtual_link: net
    net:
      type: tosca.nodes.nfv.VnfVirtualLink
      properties:
        description: the only network
        connectivity_type: { layer_protocols: [ ipv4 ] }
"""

SMALL_MANIFEST = """
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: small
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: web-config
"""


@pytest.fixture
def small_package(tmp_path):
    """``small_package(algorithm="SHA-512", vnfd=..., manifest=...)``: a tiny synthetic CNF package with a single-file VNFD."""
    def make(algorithm="SHA-512", vnfd=SMALL_VNFD, manifest=SMALL_MANIFEST):
        root = str(tmp_path / "small")
        write(os.path.join(root, "Definitions", "small.yaml"), vnfd)
        write(os.path.join(root, "Files", "kubernetes", "web.yaml"), manifest)
        write(os.path.join(root, "Scripts", "setup.py"), "print('hello')\n")
        header = "TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nCreated-By: tests\nEntry-Definitions: Definitions/small.yaml\n"
        blocks = [meta_block(root, "Files/kubernetes/web.yaml", algorithm), meta_block(root, "Scripts/setup.py", algorithm)]
        write(os.path.join(root, "TOSCA-Metadata", "TOSCA.meta"), "\n".join([header] + blocks))
        return root
    return make
