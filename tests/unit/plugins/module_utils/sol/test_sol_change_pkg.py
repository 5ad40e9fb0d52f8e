# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import change_pkg


class Package:
    def __init__(self, vnfd_id):
        self.vnfd = {"descriptor_id": vnfd_id, "provider": "Company", "product_name": "Sample VNF", "software_version": "1.0",
                     "descriptor_version": "1.0"}

    def to_dict(self):
        return {"vnfd": dict(self.vnfd)}


def test_the_current_package_must_be_the_one_the_instance_runs():
    change_pkg.check_current_package(Package("old-vnfd"), {"vnfdId": "old-vnfd"})
    with pytest.raises(ValidationError) as error:
        change_pkg.check_current_package(Package("new-vnfd"), {"vnfdId": "old-vnfd"})
    assert error.value.field == "current_package"
    assert "its VNFD is new-vnfd, not the instance's current one old-vnfd" in error.value.msg
