# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""vnf_delete on Kubernetes: the instance's identifier, with its record and what the collection keeps for it
(lcm/delete.py), once nothing of the instance is left."""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import VimError
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.instance_objects import belongs
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import delete as identifier
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import session
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.shared import recorded_resources
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vnf_instance import INSTANTIATED


def run_delete(params: dict, check_mode: bool = False, diff_mode: bool = False) -> dict:
    kube = session.connect(params)
    return identifier.run_delete(kube, params, left_objects(kube.api), check_mode, diff_mode)


def left_objects(api):
    """``leftovers_of(instance)`` for lcm/delete.py: what the record of a NOT_INSTANTIATED instance lists (what an
    instantiate or a terminate that was failed left) that is still there and the instance's, as delete.Leftovers:
    those being deleted already (held by finalizers, mostly) apart, as only their holder can release them. An object
    that cannot be read counts as there."""
    def leftovers_of(instance):
        if instance.get("instantiationState") == INSTANTIATED:
            return []
        blocking, held = [], []
        for item in recorded_resources(instance):
            name = "{0}/{1}".format(item.get("kind"), item.get("name"))
            try:
                live = api.get(item["apiVersion"], item["kind"], item["name"], item.get("namespace"))
            except VimError:
                blocking.append(name)
                continue
            if live is None or not belongs(live, item, instance["id"]):
                continue
            meta = live["metadata"]
            if not meta.get("deletionTimestamp"):
                blocking.append(name)
            elif meta.get("finalizers"):
                held.append("{0} (being deleted, held by finalizers {1})".format(name, ", ".join(meta["finalizers"])))
            else:
                held.append("{0} (being deleted)".format(name))
        return identifier.Leftovers(blocking, held)
    return leftovers_of
