# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The interface both VIMs' record stores implement (k8s/store.py, heat/store.py) and the engine uses.

It lives below the VIM packages so that neither needs the engine (lcm/) to define a store.
"""

from __future__ import annotations


class RecordStore:
    """Where a VIM keeps VnfInstance records: ``(instance, op_occs newest first, version)``."""

    def find(self, instance_id=None, name=None):
        """The record of the instance with this id (else name), or None."""
        raise NotImplementedError

    def save(self, instance, op_occs, version):
        """Write the record; ``version`` None creates it. Returns the new version; ConflictError if another writer won."""
        raise NotImplementedError

    def delete(self, instance, version):
        raise NotImplementedError
