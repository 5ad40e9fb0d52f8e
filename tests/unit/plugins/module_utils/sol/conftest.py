# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Shared SOL003 fixtures: a VNFD in the package reader's shape, an instance, Tacker request files."""

from __future__ import annotations

import copy

import pytest

VNFD = {
    "descriptor_id": "b1bb0ce7-ebca-4fa7-95ed-4840d70a1177",
    "provider": "Company",
    "product_name": "Sample VNF",
    "software_version": "1.0",
    "descriptor_version": "1.0",
    "flavours": {
        "simple": {
            "vdus": {"VDU1": {}, "VDU2": {}},
            "cps": {
                "VDU1_CP1": {"type": "VduCp"},
                "VDU2_CP1": {"type": "VduCp"},
                "VNF_CP1": {"type": "VnfExtCp"},
            },
            "virtual_links": {"internalVL1": {}, "internalVL2": {}},
            "scaling_aspects": {"VDU1_scale": {"max_scale_level": 2}},
            "instantiation_levels": {"instantiation_level_1": {}, "instantiation_level_2": {}},
            "default_instantiation_level": "instantiation_level_1",
        },
        "complex": {
            "vdus": {"VDU1": {}},
            "cps": {"VDU1_CP1": {"type": "VduCp"}},
            "virtual_links": {},
            "scaling_aspects": {},
            "instantiation_levels": {},
        },
    },
}

INSTANCE = {
    "id": "4a4e9b0e-6ab4-4fd5-aeb0-ab1a0b9e4e4c",
    "vnfdId": VNFD["descriptor_id"],
    "instantiationState": "INSTANTIATED",
    "vimConnectionInfo": {"vim1": {"vimId": "7dc3c839-bf15-45ac-8dff-fc5b95c2940e", "vimType": "kubernetes"}},
    "metadata": {"owner": "team-a", "tier": "gold"},
    "instantiatedVnfInfo": {
        "flavourId": "simple",
        "vnfState": "STARTED",
        "scaleStatus": [{"aspectId": "VDU1_scale", "scaleLevel": 1}],
        "vnfcResourceInfo": [
            {"id": "res-1", "vduId": "VDU1"},
            {"id": "res-2", "vduId": "VDU2"},
        ],
        "vnfcInfo": [
            {"id": "VDU1-res-1", "vduId": "VDU1", "vnfcResourceInfoId": "res-1", "vnfcState": "STARTED"},
            {"id": "VDU2-res-2", "vduId": "VDU2", "vnfcResourceInfoId": "res-2", "vnfcState": "STARTED",
             "vnfcConfigurableProperties": {"a": 1, "b": 2}},
        ],
    },
}

# Tacker v2 sample instantiate request for a Kubernetes VIM (instance_kubernetes.json).
TACKER_INSTANTIATE_KUBERNETES = {
    "flavourId": "simple",
    "instantiationLevelId": "instantiation_level_1",
    "additionalParams": {
        "lcm-kubernetes-def-files": ["Files/kubernetes/deployment.yaml"],
        "namespace": "ns1",
    },
    "vimConnectionInfo": {
        "vim1": {
            "vimId": "7dc3c839-bf15-45ac-8dff-fc5b95c2940e",
            "vimType": "kubernetes",
            "interfaceInfo": {"endpoint": "https://127.0.0.1:6443"},
            "accessInfo": {"bearer_token": "secret_token"},
        }
    },
}

# Tacker v2 rolling-update ChangeCurrentVnfPkgRequest.
TACKER_CHANGE_VNFPKG = {
    "vnfdId": "c6595341-a5bb-8246-53c4-7aeb843d60c5",
    "extVirtualLinks": [{
        "id": "ext_vl_id_net4",
        "resourceId": "1948231e-bbf0-4ff9-a692-40f8d6d5c90d",
        "extCps": [{
            "cpdId": "VDU1_CP1",
            "cpConfig": {
                "VDU1_CP1_1": {
                    "cpProtocolData": [{
                        "layerProtocol": "IP_OVER_ETHERNET",
                        "ipOverEthernet": {"ipAddresses": [{"type": "IPV4", "numDynamicAddresses": 1}]},
                    }]
                }
            },
        }],
    }],
    "extManagedVirtualLinks": [{
        "id": "ext_managed_vl_1",
        "vnfVirtualLinkDescId": "internalVL1",
        "resourceId": "1c6f7c41-c7c5-4e35-bc72-45ac5b7f4e89",
    }],
    "vimConnectionInfo": {
        "vim1": {
            "vimId": "ac2d2ece-5e44-47b8-90a8-0d3b4fa5c1a9",
            "vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3",
            "interfaceInfo": {"endpoint": "http://localhost/identity/v3"},
            "accessInfo": {"username": "nfv_user", "region": "RegionOne", "password": "devstack",
                           "project": "nfv", "projectDomain": "Default", "userDomain": "Default"},
        }
    },
    "additionalParams": {
        "upgrade_type": "RollingUpdate",
        "lcm-operation-coordinate-new-vnf": "./Scripts/coordinate_new_vnf.py",
        "lcm-operation-coordinate-old-vnf": "./Scripts/coordinate_old_vnf.py",
        "vdu_params": [{
            "vdu_id": "VDU1",
            "old_vnfc_param": {"cp_name": "VDU1_CP1", "username": "ubuntu", "password": "ubuntu"},
            "new_vnfc_param": {"cp_name": "VDU1_CP1", "username": "ubuntu", "password": "ubuntu"},
        }],
        "nfv": {"VDU": {"VDU1": {"computeFlavourId": "m1.tiny"}}},
    },
    "extensions": {"dummy-key": "dummy-val"},
    "vnfConfigurableProperties": {"dummy-key": "dummy-val"},
}


@pytest.fixture
def vnfd():
    return copy.deepcopy(VNFD)


@pytest.fixture
def new_vnfd():
    changed = copy.deepcopy(VNFD)
    changed["descriptor_id"] = TACKER_CHANGE_VNFPKG["vnfdId"]
    return changed


@pytest.fixture
def instance():
    return copy.deepcopy(INSTANCE)


@pytest.fixture
def instantiate_request():
    return copy.deepcopy(TACKER_INSTANTIATE_KUBERNETES)


@pytest.fixture
def change_pkg_request():
    return copy.deepcopy(TACKER_CHANGE_VNFPKG)
