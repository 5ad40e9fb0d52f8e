# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The layouts of the drivers' private state in the record (common/record_store.py PrivateState, lcm/<driver>/state.py):
each extends the keys every driver keeps, and names the keys the code reads and writes through constants."""

from __future__ import annotations

import typing

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import ROLLBACK_KEY, PrivateState
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import interface_scripts
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.state import CnfState, KubernetesState
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import VNFC_COUNTS
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.drivers import HELM_RELEASE
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm.state import HelmRelease, HelmState
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.state import VmState

LAYOUTS = {
    "cnf": (CnfState, {"resources", "vnfc_counts", "deployed"}),
    "helm": (HelmState, {"resources", "vnfc_counts", HELM_RELEASE}),
    "vm": (VmState, {"base_template", "request", "vnfcs", "images", "user_data"}),
}


@pytest.mark.parametrize("driver", sorted(LAYOUTS))
def test_each_drivers_layout_is_every_drivers_keys_and_its_own(driver):
    layout, own = LAYOUTS[driver]
    # total=False: a record of an older version may lack any key, and the code reads them with .get where it may.
    assert layout.__optional_keys__ == layout.__annotations__.keys() == PrivateState.__annotations__.keys() | own
    assert typing.get_type_hints(layout)


def test_the_keys_the_code_names_by_constant_are_in_the_layouts():
    assert {ROLLBACK_KEY, interface_scripts.KEY} <= PrivateState.__optional_keys__
    assert VNFC_COUNTS in KubernetesState.__optional_keys__
    assert HELM_RELEASE in HelmState.__optional_keys__ and typing.get_type_hints(HelmState)[HELM_RELEASE] is HelmRelease
