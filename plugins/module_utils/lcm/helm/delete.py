# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vnf_delete of a Helm-chart CNF's identifier (lcm/delete.py), refused while its record names a release that is still
installed (what a failed instantiate left: terminate uninstalls it)."""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import delete as identifier
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm.chart import release_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED


def run_delete(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    helm = session.connect(params)
    return identifier.run_delete(helm, params, left_release(helm), check_mode, diff_mode)


def left_release(helm):
    """``leftovers_of(instance)`` for lcm/delete.py: the release a NOT_INSTANTIATED instance's record names, if installed."""
    def leftovers_of(instance):
        state = release_of(instance)
        if instance.get("instantiationState") == INSTANTIATED or not state.get("release"):
            return identifier.Leftovers()
        if helm.helm.release_exists(state["release"], state.get("namespace")):
            return identifier.Leftovers(["Helm release {0}".format(state["release"])])
        return identifier.Leftovers()
    return leftovers_of
