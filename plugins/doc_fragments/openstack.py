# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
# Options for connecting to an OpenStack cloud (same names and semantics as openstack.cloud).

from __future__ import annotations


class ModuleDocFragment:
    DOCUMENTATION = r"""
options:
  cloud:
    description:
      - The name of a cloud in C(clouds.yaml), or a dictionary with the whole cloud configuration.
      - When not given, the C(OS_CLOUD) and C(OS_*) environment variables are used.
      - Passwords and secrets inside a dictionary value are masked in all output.
    type: raw
  auth:
    description:
      - Authentication values (C(auth_url), C(username), C(password), C(project_name), ...) that
        override or complete those of O(cloud).
    type: dict
  auth_type:
    description:
      - The keystoneauth plugin to use, for example C(password) or C(v3applicationcredential).
    type: str
  region_name:
    description:
      - The region to use.
    type: str
  interface:
    description:
      - Which endpoint of the service catalog to use.
    type: str
    default: public
    choices: [admin, internal, public]
    aliases: [endpoint_type]
requirements:
  - openstacksdk >= 1.0.0
"""
