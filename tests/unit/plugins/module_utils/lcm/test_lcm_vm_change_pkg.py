# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import copy

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import vm_change_pkg
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import PRIVATE

IDENTITY = {"vnfdId": "new", "vnfProvider": "Company", "vnfProductName": "Sample VNF", "vnfSoftwareVersion": "1.0", "vnfdVersion": "1.0"}


def instance(private, **fields):
    base = {"id": "i-1", "vnfdId": "old", "vnfProvider": "Company", "vnfProductName": "Sample VNF", "vnfSoftwareVersion": "1.0",
            "vnfdVersion": "1.0", "instantiationState": "INSTANTIATED",
            "instantiatedVnfInfo": {"flavourId": "simple", "metadata": {"nfv": {}, PRIVATE: private}}}
    base.update(fields)
    return base


def job(private, fields=None):
    return {"identity": dict(IDENTITY), "fields": fields or {}, "private": private, "vdu_params": [{"vdu_id": "VDU2"}], "hooks": {}}


PRIVATE_STATE = {"request": {"extVirtualLinks": []}, "vnfcs": {"VDU1": [0], "VDU2": [0]}, "base_template": {"resources": {}}}


def test_changed_instance_takes_the_new_identity_and_the_merged_fields():
    before = instance(copy.deepcopy(PRIVATE_STATE), extensions={"a": 1}, vnfConfigurableProperties={"p": 1})
    after = vm_change_pkg.changed_instance(before, job(PRIVATE_STATE, {"extensions": {"b": 2}}))
    assert after["vnfdId"] == "new" and after["extensions"] == {"b": 2}
    # A field the merge left empty is gone, as SOL003 omits it.
    assert "vnfConfigurableProperties" not in after
    assert before["vnfdId"] == "old"


def test_record_is_current_only_after_the_change_was_recorded():
    before = instance(copy.deepcopy(PRIVATE_STATE))
    assert not vm_change_pkg.record_is_current(before, job(PRIVATE_STATE))
    done = instance(copy.deepcopy(PRIVATE_STATE), **IDENTITY)
    assert vm_change_pkg.record_is_current(done, job(PRIVATE_STATE))
    # Tuples (from the package reader) and lists (from the record) compare equal.
    assert vm_change_pkg.record_is_current(done, job(dict(PRIVATE_STATE, request={"extVirtualLinks": ()})))
    assert not vm_change_pkg.record_is_current(done, job(dict(PRIVATE_STATE, vnfcs={"VDU1": [0]})))
    # A change still in the record (FAILED_TEMP) is never current.
    failed = vm_change_pkg.with_change(done, {"previous": {}})
    assert not vm_change_pkg.record_is_current(failed, job(PRIVATE_STATE))
    assert vm_change_pkg.without_change(failed) == done
