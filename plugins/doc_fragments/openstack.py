# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
# Options for connecting to an OpenStack cloud (same names, aliases and semantics as openstack.cloud).

from __future__ import annotations


class ModuleDocFragment:
    DOCUMENTATION = r"""
options:
  cloud:
    description:
      - The name of a cloud in C(clouds.yaml), or a dictionary with the whole cloud configuration (what a
        C(clouds.yaml) entry holds).
      - When neither this nor O(auth) is given, openstacksdk uses the E(OS_CLOUD) and E(OS_*) environment variables
        (E(OS_CLIENT_CONFIG_FILE) names the C(clouds.yaml) file, as an AWX OpenStack credential sets it).
      - "A dictionary is completed by the other options of this group; one that sets an option differently
        (C(region_name), C(verify) against O(validate_certs), ...) is an error. openstack.cloud refuses any option
        next to a cloud dictionary."
      - Passwords, tokens and secrets inside a dictionary value are masked in all output.
      - Selects the OpenStack VIM (see O(vim_type)).
    type: raw
  auth:
    description:
      - Authentication values for the auth plugin (O(auth_type)); for the default C(password) plugin C(auth_url),
        C(username), C(password), C(project_name) and the domains (C(user_domain_name), C(project_domain_name)).
        For C(v3applicationcredential), C(application_credential_id) and C(application_credential_secret); for
        C(v3token), C(token) and C(project_id).
      - They complete those of a named O(cloud) (openstacksdk merges them); next to a O(cloud) dictionary that has its
        own C(auth), a different one is an error.
      - Selects the OpenStack VIM.
    type: dict
  auth_type:
    description:
      - The keystoneauth plugin to use, for example V(password), V(v3applicationcredential) or V(v3token).
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
  api_timeout:
    description:
      - Seconds one API request may take.
      - When not set, 120 (openstack.cloud sets no limit then).
    type: int
  sdk_log_path:
    description:
      - Path of a file to write openstacksdk's log to. No log is written when not set.
      - At O(sdk_log_level=DEBUG) the log holds the HTTP requests; keystoneauth hides tokens and passwords in it, but
        treat the file as sensitive.
    type: path
  sdk_log_level:
    description:
      - The level of the log written to O(sdk_log_path).
    type: str
    default: INFO
    choices: [INFO, DEBUG]
notes:
  - "openstack.cloud's C(wait) and C(timeout) are this collection's C(wait) and C(wait_timeout) (which takes
    C(timeout) as an alias; its default is 600 seconds, openstack.cloud's 180), in the modules that wait."
  - Credentials are resolved by openstacksdk, from C(clouds.yaml) (and C(secure.yaml)), then E(OS_*) environment
    variables, then these options. Whatever it resolves, and the Keystone token, are masked in all output.
requirements:
  - openstacksdk >= 1.0.0
"""
