# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
# Options for waiting on a lifecycle operation.

from __future__ import annotations


class ModuleDocFragment:
    DOCUMENTATION = r"""
options:
  wait:
    description:
      - Whether to wait until the operation has finished on the VIM.
    type: bool
    default: true
  wait_timeout:
    description:
      - How many seconds to wait at most. On timeout the module fails and its result still
        carries what had been done.
      - C(timeout) is openstack.cloud's name for it (whose default is 180); kubernetes.core calls it O(wait_timeout)
        too (default 120).
    type: int
    default: 600
    aliases: [timeout]
  wait_sleep:
    description:
      - Seconds between two checks while waiting.
      - On Kubernetes a wait watches the object and sees each change at once; it reads the object again after
        O(wait_sleep) seconds only when a watch breaks, so where watches keep failing it polls every O(wait_sleep) seconds.
      - On OpenStack a wait follows the stack's events, reading them a quarter of a second after the change was asked,
        then at intervals that double up to 2 seconds (Heat has no watch); O(wait_sleep) does not change that.
    type: int
    default: 2
  lease_seconds:
    description:
      - How long the lease this run takes on its operation occurrence lasts. The module renews it every
        third of that time while it works; a later run that finds it expired (or the runner's process
        gone from the same machine) knows that nobody will finish the operation, records it
        C(FAILED_TEMP), and M(nfv.vnflcm.vnf_lcm_op_occ) can then retry, roll it back or fail it.
      - Shorter leases let a later run take over sooner after a killed job; longer ones tolerate a VIM
        that is unreachable for longer. Clocks of the machines that run operations on one VNF must be
        synchronised (NTP).
    type: int
    default: 120
  end_hook:
    description:
      - "An Ansible task file run as the operation's last step, after the VNFD's C(<operation>_end) interface script and
        while its operation occurrence is still C(PROCESSING): when it fails (or outlives O(wait_timeout)) the
        operation fails, C(FAILED_TEMP), and M(nfv.vnflcm.vnf_lcm_op_occ) can retry it (running the hook again) or roll
        it back. A rollback runs no hook."
      - It runs in a play of its own on localhost (C(ansible-playbook) next to the Python that runs the module), as
        coordination hooks do, with the variables of O(end_hook_vars) and C(vnf_lifecycle_hook_vnf_instance) (the
        instance as the operation leaves it) and C(vnf_lifecycle_hook_lcm_op_occ) (the op occ, C(PROCESSING)). The
        play's own variables and inventory are not visible to it.
      - The role nfv.vnflcm.vnf_lifecycle passes its C(<operation>_end) hooks here.
    type: path
  end_hook_vars:
    description:
      - Extra variables for O(end_hook). The credentials in them (the request's) are masked in the module's output
        as those of the request are.
    type: dict
"""

    # For the modules that only read (vnf_info, vnf_package_info): the same options, accepted so that
    # module_defaults of the action group, which hold them for the operations, apply to every module, as
    # openstack.cloud's info modules take wait and timeout.
    READ_ONLY = r"""
options:
  wait:
    description:
      - Not used by this module, which only reads. Accepted so that C(module_defaults) for the
        C(group/nfv.vnflcm.vnflcm) action group may hold the waiting options of the operations.
    type: bool
    default: true
  wait_timeout:
    description:
      - Not used by this module (see O(wait)).
    type: int
    default: 600
    aliases: [timeout]
  wait_sleep:
    description:
      - Not used by this module (see O(wait)).
    type: int
    default: 2
  lease_seconds:
    description:
      - Not used by this module (see O(wait)).
    type: int
    default: 120
  end_hook:
    description:
      - Not used by this module (see O(wait)).
    type: path
  end_hook_vars:
    description:
      - Not used by this module (see O(wait)).
    type: dict
"""
