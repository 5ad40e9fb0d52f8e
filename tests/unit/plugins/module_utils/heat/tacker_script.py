# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A package user-data script written for Tacker (it imports Tacker's helper modules), for the unit and lab tests."""

from __future__ import annotations

# Written as operators write theirs from Tacker's basic_lcms_max sample: the three helper modules, the VNFD's BaseHOT
# and every VDU/CP parameter from the helpers, the request's additionalParams.nfv merged last.
TACKER_SCRIPT = '''
import yaml

from tacker.sol_refactored.common import common_script_utils as utils
from tacker.sol_refactored.common import vnf_instance_utils as inst_utils
from tacker.sol_refactored.infra_drivers.openstack import userdata_utils


class UserData(userdata_utils.AbstractUserData):
    @staticmethod
    def instantiate(req, inst, grant_req, grant, tmp_csar_dir):
        vnfd = utils.get_vnfd(inst["vnfdId"], tmp_csar_dir)
        flavour_id = req["flavourId"]
        hot = vnfd.get_base_hot(flavour_id)
        top = hot["template"]
        nfv = utils.init_nfv_dict(top)
        for vdu, values in nfv.get("VDU", {}).items():
            if "computeFlavourId" in values:
                values["computeFlavourId"] = utils.get_param_flavor(vdu, flavour_id, vnfd, grant)
            if "vcImageId" in values:
                values["vcImageId"] = utils.get_param_image(vdu, flavour_id, vnfd, grant)
            if "locationConstraints" in values:
                values["locationConstraints"] = utils.get_param_zone(vdu, grant_req, grant)
            if "desired_capacity" in values:
                values["desired_capacity"] = utils.get_param_capacity(vdu, inst, grant_req)
        for cp, values in nfv.get("CP", {}).items():
            if "network" in values:
                values["network"] = utils.get_param_network(cp, grant, req)
            if "fixed_ips" in values:
                given = utils.get_param_fixed_ips(cp, grant, req) or []
                values["fixed_ips"] = [{key: given[index].get(key) for key in values["fixed_ips"][index]}
                                       for index in range(len(given)) if index in values["fixed_ips"]]
        utils.apply_ext_managed_vls(top, req, grant)
        for patch in (req.get("additionalParams", {}).get("nfv"), grant.get("additionalParams", {}).get("nfv")):
            if patch:
                nfv = inst_utils.json_merge_patch(nfv, patch)
        files = {name: yaml.safe_dump(value) for name, value in hot.get("files", {}).items()}
        return {"template": yaml.safe_dump(top), "parameters": {"nfv": nfv}, "files": files}


class Misnamed(userdata_utils.AbstractUserData):
    @staticmethod
    def instantiate(req, inst, grant_req, grant, tmp_csar_dir):
        from tacker.sol_refactored.common.common_script_utils import get_param_flavour
        return get_param_flavour


class Conductor(userdata_utils.AbstractUserData):
    @staticmethod
    def instantiate(req, inst, grant_req, grant, tmp_csar_dir):
        from tacker.sol_refactored.conductor import conductor_v2
        return conductor_v2
'''
