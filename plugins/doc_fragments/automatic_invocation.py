# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
# The option the closed loop sets on the operations it starts (vnf_heal, vnf_scale).

from __future__ import annotations


class ModuleDocFragment:
    DOCUMENTATION = r"""
options:
  automatic_invocation:
    description:
      - "Whether the VNFM starts this operation itself, not a user: the op occ's C(isAutomaticInvocation) (SOL003). The
        closed loop's playbooks (nfv.vnflcm.auto_heal, nfv.vnflcm.auto_scale) give V(true), as Tacker's Prometheus
        plugin does for its auto-heal and auto-scale; leave it V(false) for a request of your own."
    type: bool
    default: false
"""
