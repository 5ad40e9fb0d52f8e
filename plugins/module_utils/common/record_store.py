# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The interface both VIMs' record stores implement (k8s/store.py, heat/store.py) and the engine uses.

It lives below the VIM packages so that neither needs the engine (lcm/) to define a store.
"""

from __future__ import annotations

from typing import Any, List, NamedTuple


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

    def record_url(self, instance_id):
        """The URL of the VIM object that holds (or will hold) the record: the ``self`` link of the instance
        (sol/links.py). None: this store cannot say, and its documents are returned without ``_links``."""
        return None

    def selector(self):
        """Module options that, with ``vnf_instance_id``, find the record (Kubernetes: ``namespace``): for task links."""
        return {}
