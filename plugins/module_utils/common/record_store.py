# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The interface both VIMs' record stores implement (k8s/store.py, heat/store.py) and the engine uses.

It lives below the VIM packages so that neither needs the engine (lcm/) to define a store.
"""

from __future__ import annotations

import copy
from typing import Any, Callable, List, NamedTuple, Optional, TypedDict

# The key of instantiatedVnfInfo.metadata that holds a driver's private record state, and in it, where a store that keeps
# an operation's way back in the record keeps it (the key a change of package on Heat has always used).
PRIVATE = "vnflcm"
ROLLBACK_KEY = "change"


class PrivateState(TypedDict, total=False):
    """The keys of the private state (``instantiatedVnfInfo.metadata[PRIVATE]``) every driver keeps; each driver's own
    layout adds its keys to these: lcm/cnf/state.py (Kubernetes manifests), lcm/helm/state.py (Helm charts),
    lcm/vm/state.py (OpenStack Heat). No SOL003 reader needs any of it; interface scripts are given the record without it."""

    # The flavour's sizing rules (lcm/common.py sizing_rules; Heat's adds what rebuilds its stack): written by
    # instantiate and change of package, read by scale, heal, their resumes and closed_loop.py's alerts, which have no package.
    flavour: dict
    # What made the instantiate the one it was (its flavour, level and the driver's inputs): written by instantiate (Kubernetes'
    # change of package rewrites its defFiles), read by a re-run of instantiate (the same request: no change) and by
    # Kubernetes' change of package (its level sizes the new VDUs).
    instantiation: dict
    # The VNFD's interface scripts and whether they may run (lcm/interface_scripts.py KEY, for_package): written by
    # instantiate and change of package (kept by a failed Kubernetes terminate's record), read by the engine for each operation.
    interface_scripts: dict
    # ROLLBACK_KEY: the way back of the operation in progress (a change of package's), where a store keeps it in the
    # record (RecordStore.keep_rollback's default: Heat's store; Kubernetes' stores keep it in a Secret beside the record).
    change: dict


class Found(NamedTuple):
    """A record as a store reads it: the VnfInstance, its op occs (newest first) and the version a save must name."""

    instance: dict
    op_occs: List[dict]
    version: Any


class RecordStore:
    """Where a VIM keeps VnfInstance records: each a :class:`Found`."""

    def find(self, instance_id=None, name=None):
        """The record (:class:`Found`) of the instance with this id (else name), or None."""
        raise NotImplementedError

    def save(self, instance, op_occs, version):
        """Write the record; ``version`` None creates it. Returns the new version; ConflictError if another writer won."""
        raise NotImplementedError

    def claim_name(self, instance, op_occ_id):
        """Claim the name ``instance`` is about to have (a new instance's, or a rename's) for op occ ``op_occ_id``, before
        the record is written with it; ConflictError when another run or instance holds it (common/name_claim.py)."""
        raise NotImplementedError

    def check_name_free(self, instance):
        """Reads only: ConflictError, as :meth:`claim_name` would raise it, when another run holds ``instance``'s name."""
        raise NotImplementedError

    def left_claim(self, name):
        """The claim of ``name`` whose instance has no record, as common/name_claim.py ``left_claim`` shows it (an
        instantiate killed between the two), or None. Reads only."""
        raise NotImplementedError

    def drop_left_claim(self, shown):
        """Delete the claim :meth:`left_claim` gave as ``shown``, only as it was read then (ConflictError when another
        run took it over since)."""
        raise NotImplementedError

    def scope(self):
        """Where one name is one instance, in words (``namespace cnf-a``)."""
        raise NotImplementedError

    def delete(self, instance, version):
        """The record is gone with what the operation deleted (its namespace, its stack): the engine after a terminate."""
        raise NotImplementedError

    def kept_for(self, instance):
        """Everything this store keeps for the instance, the record last: ``[{"kind", "name"}]``, what deleting its identifier removes."""
        raise NotImplementedError

    def delete_identifier(self, instance, version, timeout=None, kept=None):
        """Delete the instance's identifier: ``kept``, what :meth:`kept_for` gave the plan (read again when None), the
        record, with its op occ history, last, so that an interrupted delete leaves a record a re-run finds. Returns
        what went; ConflictError if another writer won."""
        raise NotImplementedError

    def keep_rollback(self, instance: dict, op_occ_id: str, document: dict,
                      merge: Optional[Callable[[dict, dict], dict]] = None) -> dict:
        """Keep ``document``, the way back of op occ ``op_occ_id`` (a container update's, a change of package's), before the
        operation's first write to the VIM. A retry finds what the first attempt kept: it stays, or ``merge(earlier,
        document)`` replaces it. Returns the instance to record: this default keeps the way back in the record's private
        state, for the operation's next checkpoint to write; a store that keeps it apart writes it now and returns
        ``instance`` as it is."""
        earlier = self.kept_rollback(instance, op_occ_id)
        if earlier is not None:
            document = merge(earlier, document) if merge else earlier
        return with_rollback(instance, document)

    def kept_rollback(self, instance: dict, op_occ_id: Optional[str] = None) -> Optional[dict]:
        """What :meth:`keep_rollback` kept (of op occ ``op_occ_id``: the record keeps one operation's at a time), or None."""
        return private_state(instance).get(ROLLBACK_KEY)

    def drop_rollback(self, instance: dict) -> dict:
        """The operation ended (completed, rolled back or failed for good): its way back goes. Returns the instance to record."""
        return without_rollback(instance)

    def record_url(self, instance_id):
        """The URL of the VIM object that holds (or will hold) the record: the ``self`` link of the instance
        (sol/links.py). None: this store cannot say, and its documents are returned without ``_links``."""
        return None

    def selector(self):
        """Module options that, with ``vnf_instance_id``, find the record (Kubernetes: ``namespace``): for task links."""
        return {}


def private_state(instance: dict) -> PrivateState:
    """The driver's private state in the record (what no SOL003 reader needs), {} when there is none."""
    return ((instance.get("instantiatedVnfInfo") or {}).get("metadata") or {}).get(PRIVATE) or {}


def with_rollback(instance: dict, document: dict) -> dict:
    result = copy.deepcopy(instance)
    result["instantiatedVnfInfo"]["metadata"][PRIVATE][ROLLBACK_KEY] = document
    return result


def without_rollback(instance: dict) -> dict:
    """The record without the way back of an operation in progress."""
    result = copy.deepcopy(instance)
    result["instantiatedVnfInfo"]["metadata"][PRIVATE].pop(ROLLBACK_KEY, None)
    return result
