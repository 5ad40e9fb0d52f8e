# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tier 2: the vnf_lifecycle role's molecule scenario extensions/molecule/heat_change_vnfpkg on the OpenStack lab:
userdata_standard instantiated, then changed to userdata_standard_change_vnfpkg_nw."""

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.tests.integration.molecule_runs import molecule_test
from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import CLOUD

pytestmark = pytest.mark.tier2


def test_molecule_heat_change_vnfpkg(lab, packages, tmp_path):
    # lab: the images the packages name are in Glance; packages: the change package under its own vnfdId.
    env = {"OS_CLIENT_CONFIG_FILE": str(lab.clouds_yaml), "OS_CLOUD": CLOUD, "NFV_HEAT_PACKAGES": packages}
    molecule_test("heat_change_vnfpkg", tmp_path, env)
