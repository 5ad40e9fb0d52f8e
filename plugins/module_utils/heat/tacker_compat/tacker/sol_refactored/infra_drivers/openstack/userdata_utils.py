# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tacker v2's ``tacker.sol_refactored.infra_drivers.openstack.userdata_utils``, for package user-data scripts.

On the script subprocess's path only (see common/vnfd_utils). The base class a script's UserData class derives from,
and the same helpers as common_script_utils (Tacker keeps both modules; older scripts import this one).
"""

from __future__ import annotations

import abc

from ...common.common_script_utils import (
    apply_ext_managed_vls,
    apply_ext_managed_vls_from_inst,
    get_current_capacity,
    get_param_capacity,
    get_param_fixed_ips,
    get_param_fixed_ips_from_inst,
    get_param_flavor,
    get_param_image,
    get_param_network,
    get_param_network_from_inst,
    get_param_zone,
    get_param_zone_by_vnfc,
    get_vnfd,
    init_nfv_dict,
)

# This module's API as Tacker's scripts call it: the base class, and the helpers it shares with common_script_utils.
__all__ = ["AbstractUserData", "UserDataClassNotImplemented", "apply_ext_managed_vls", "apply_ext_managed_vls_from_inst", "get_current_capacity",
           "get_param_capacity", "get_param_fixed_ips", "get_param_fixed_ips_from_inst", "get_param_flavor", "get_param_image", "get_param_network",
           "get_param_network_from_inst", "get_param_zone", "get_param_zone_by_vnfc", "get_vnfd", "init_nfv_dict"]


class UserDataClassNotImplemented(NotImplementedError):
    """A method the script's class does not define (Tacker's sol_ex.UserDataClassNotImplemented)."""


class AbstractUserData(metaclass=abc.ABCMeta):
    """The base of a package's UserData class: static methods ``(req, inst, grant_req, grant, tmp_csar_dir)`` returning the
    stack's fields (``template``, ``files``, ``parameters``). This collection calls ``instantiate`` and ``change_vnfpkg``."""

    @staticmethod
    @abc.abstractmethod
    def instantiate(req, inst, grant_req, grant, tmp_csar_dir):
        raise UserDataClassNotImplemented()

    @staticmethod
    @abc.abstractmethod
    def scale(req, inst, grant_req, grant, tmp_csar_dir):
        raise UserDataClassNotImplemented()

    @staticmethod
    @abc.abstractmethod
    def change_ext_conn(req, inst, grant_req, grant, tmp_csar_dir):
        raise UserDataClassNotImplemented()

    @staticmethod
    @abc.abstractmethod
    def heal(req, inst, grant_req, grant, tmp_csar_dir):
        raise UserDataClassNotImplemented()
