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
"""
