# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The layout of the VM driver's private state in the record (``instantiatedVnfInfo.metadata[PRIVATE]``,
common/record_store.py), key by key: what rebuilds the instance's stack without the package.

Types only: the code reads and writes these keys by name, as plain dicts (the record is JSON). An operation's record
after it is built by shared.py ``refreshed``, which puts the state beside the stack's id, name and ``nfv`` parameter.
"""

from __future__ import annotations

from typing import Dict, List

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import PrivateState


class VmState(PrivateState, total=False):
    """The VM driver's private state. Its ``flavour`` is shared.py recorded_flavour (the sizing rules, and the VDUs, CPs,
    virtual links and storages the stack is built from); its ``instantiation``, the request's fields a re-run compares
    (instantiate.py instantiation_summary); ``change`` (ROLLBACK_KEY), a change of package's way back while it runs
    (change_pkg.py: the stack before it, its job, the VNFCs updated and coordinated so far)."""

    # The flavour's top BaseHOT template (parsed): written by instantiate and change of package; read by every stack rebuild
    # (shared.py built_in_stack), by the check of a request's user-data class (shared.py refuse_scripts: its form), scale
    # (the form's groups), change of package (the form stays) and modify (a new package must deploy the same).
    base_template: dict
    # The InstantiateVnfRequest the stack follows (its external links, additionalParams.nfv): written by instantiate,
    # rewritten by change of package and change of external connectivity; read by every stack rebuild, shared.py refreshed
    # (the record's CPs) and heat/change_pkg.py (the connectivity a change of package starts from).
    request: dict
    # VDU id -> the indexes of its VNFCs (stack resources <VDU>-<index>): written by instantiate, scale and a fail (resume.py:
    # read back from the stack); read by lcm/common.py vnfc_counts and every stack rebuild.
    vnfcs: Dict[str, List[int]]
    # Image name -> the Glance image id it was resolved to (shared.py resolve_images): written by instantiate and change of
    # package, read by every stack rebuild (shared.py stack_description), which then needs no Glance.
    images: Dict[str, str]
    # Only on a stack a package user-data script made (heat/user_data.py): the script's path and class, the stack it
    # returned (``template``, ``nfv``) and the ``request`` and ``vnfcs`` it was given. Written by instantiate and change
    # of package, read by shared.py desired_stack (a later operation's built-in change is applied to that stack).
    user_data: dict
