# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Schemas of the SOL003 (v3, as accepted by Tacker v2) data types used in LCM requests.

Keys are camelCase exactly as on the wire. Only the typed part is described; KeyValuePairs
(additionalParams, extensions, accessInfo, ...) are free-form by design of SOL003.
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.schema import (
    boolean,
    integer,
    key_value_pairs,
    list_of,
    map_of,
    string,
    struct,
)

IP_ADDRESS_TYPES = ("IPV4", "IPV6")
LAYER_PROTOCOLS = ("IP_OVER_ETHERNET", "IP_FOR_VIRTUAL_CP")
SCALE_TYPES = ("SCALE_OUT", "SCALE_IN")
TERMINATION_TYPES = ("FORCEFUL", "GRACEFUL")

RESOURCE_HANDLE = {
    "vimConnectionId": string(),
    "resourceProviderId": string(),
    "resourceId": string(required=True),
    "vimLevelResourceType": string(),
}

IP_ADDRESS_RANGE = {
    "minAddress": string(required=True),
    "maxAddress": string(required=True),
}

IP_ADDRESS_DATA = {
    "type": string(required=True, enum=IP_ADDRESS_TYPES),
    "fixedAddresses": list_of(string()),
    "numDynamicAddresses": integer(minimum=0),
    "addressRange": struct(IP_ADDRESS_RANGE),
    "subnetId": string(),
}

IP_OVER_ETHERNET_ADDRESS_DATA = {
    "macAddress": string(),
    "segmentationId": string(),
    "ipAddresses": list_of(struct(IP_ADDRESS_DATA)),
}

VIRTUAL_CP_ADDRESS_DATA = {
    "type": string(required=True, enum=IP_ADDRESS_TYPES),
    "loadBalancerIp": string(),
}

CP_PROTOCOL_DATA = {
    "layerProtocol": string(required=True, enum=LAYER_PROTOCOLS),
    "ipOverEthernet": struct(IP_OVER_ETHERNET_ADDRESS_DATA),
    "virtualCpAddress": struct(VIRTUAL_CP_ADDRESS_DATA),
}

VNF_EXT_CP_CONFIG = {
    "parentCpConfigId": string(),
    "linkPortId": string(),
    "createExtLinkPort": boolean(),
    "cpProtocolData": list_of(struct(CP_PROTOCOL_DATA)),
}

VNF_EXT_CP_DATA = {
    "cpdId": string(required=True),
    "cpConfig": map_of(struct(VNF_EXT_CP_CONFIG), required=True, min_items=1),
}

EXT_LINK_PORT_DATA = {
    "id": string(required=True),
    "resourceHandle": struct(RESOURCE_HANDLE, required=True),
    "trunkResourceId": string(),
}

EXT_VIRTUAL_LINK_DATA = {
    "id": string(required=True),
    "vimConnectionId": string(),
    "resourceProviderId": string(),
    "resourceId": string(required=True),
    "extCps": list_of(struct(VNF_EXT_CP_DATA), required=True, min_items=1),
    "extLinkPorts": list_of(struct(EXT_LINK_PORT_DATA)),
}

VNF_LINK_PORT_DATA = {
    "vnfLinkPortId": string(required=True),
    "resourceHandle": struct(RESOURCE_HANDLE, required=True),
}

EXT_MANAGED_VIRTUAL_LINK_DATA = {
    "id": string(required=True),
    "vnfVirtualLinkDescId": string(required=True),
    "vimConnectionId": string(),
    "resourceProviderId": string(),
    "resourceId": string(required=True),
    "vnfLinkPort": list_of(struct(VNF_LINK_PORT_DATA)),
    "extManagedMultisiteVirtualLinkId": string(),
}

VIM_CONNECTION_INFO = {
    "vimId": string(),
    "vimType": string(required=True),
    "interfaceInfo": key_value_pairs(),
    "accessInfo": key_value_pairs(),
    "extra": key_value_pairs(),
}

# SOL003 v3 (Tacker v2) sends a map keyed by id; SOL003 v2 (Tacker v1) a list of items with "id".
VIM_CONNECTION_INFO_MAP = map_of(struct(VIM_CONNECTION_INFO), list_key="id")
# In modification requests the map is a JSON Merge Patch: a null entry removes that connection.
VIM_CONNECTION_INFO_PATCH = map_of(struct(VIM_CONNECTION_INFO), list_key="id", nullable=True)

VNFC_INFO_MODIFICATIONS = {
    "id": string(required=True),
    "vnfcConfigurableProperties": key_value_pairs(required=True),
}

CREATE_VNF_REQUEST = {
    "vnfdId": string(required=True),
    "vnfInstanceName": string(),
    "vnfInstanceDescription": string(),
    "metadata": key_value_pairs(),
}

INSTANTIATE_VNF_REQUEST = {
    "flavourId": string(required=True),
    "instantiationLevelId": string(),
    "extVirtualLinks": list_of(struct(EXT_VIRTUAL_LINK_DATA)),
    "extManagedVirtualLinks": list_of(struct(EXT_MANAGED_VIRTUAL_LINK_DATA)),
    "vimConnectionInfo": VIM_CONNECTION_INFO_MAP,
    "localizationLanguage": string(),
    "additionalParams": key_value_pairs(),
    "extensions": key_value_pairs(),
    "vnfConfigurableProperties": key_value_pairs(),
}

VNF_INFO_MODIFICATION_REQUEST = {
    "vnfInstanceName": string(),
    "vnfInstanceDescription": string(),
    "vnfdId": string(),
    # SOL003 v2 (Tacker v1) modified the package by id rather than by VNFD id.
    "vnfPkgId": string(),
    "vnfConfigurableProperties": key_value_pairs(),
    "metadata": key_value_pairs(),
    "extensions": key_value_pairs(),
    "vimConnectionInfo": VIM_CONNECTION_INFO_PATCH,
    "vimConnectionInfoDeleteIds": list_of(string()),
    "vnfcInfoModifications": list_of(struct(VNFC_INFO_MODIFICATIONS)),
}

CHANGE_CURRENT_VNF_PKG_REQUEST = {
    "vnfdId": string(required=True),
    "extVirtualLinks": list_of(struct(EXT_VIRTUAL_LINK_DATA)),
    "extManagedVirtualLinks": list_of(struct(EXT_MANAGED_VIRTUAL_LINK_DATA)),
    "vimConnectionInfo": VIM_CONNECTION_INFO_PATCH,
    "additionalParams": key_value_pairs(),
    "extensions": key_value_pairs(),
    "vnfConfigurableProperties": key_value_pairs(),
}

SCALE_VNF_REQUEST = {
    "type": string(required=True, enum=SCALE_TYPES),
    "aspectId": string(required=True),
    "numberOfSteps": integer(minimum=1, default=1),
    "additionalParams": key_value_pairs(),
}

SCALE_INFO = {
    "aspectId": string(required=True),
    "scaleLevel": integer(required=True, minimum=0),
}

# Exactly one of instantiationLevelId and scaleInfo (SOL003): checked by validation.validate_scale_to_level_request.
SCALE_VNF_TO_LEVEL_REQUEST = {
    "instantiationLevelId": string(),
    "scaleInfo": list_of(struct(SCALE_INFO)),
    "additionalParams": key_value_pairs(),
}

HEAL_VNF_REQUEST = {
    "vnfcInstanceId": list_of(string()),
    "cause": string(),
    "additionalParams": key_value_pairs(),
    "healScript": string(),
}

TERMINATE_VNF_REQUEST = {
    "terminationType": string(required=True, enum=TERMINATION_TYPES),
    "gracefulTerminationTimeout": integer(minimum=0),
    "additionalParams": key_value_pairs(),
}

# Semantic shape of ChangeCurrentVnfPkgRequest.additionalParams as Tacker v2's rolling update
# reads it; free-form in SOL003, so it is checked non-strictly by its own function.
CHANGE_PKG_ADDITIONAL_PARAMS = {
    "upgrade_type": string(enum=("RollingUpdate",)),
    "vdu_params": list_of(struct({
        "vdu_id": string(required=True),
        "old_vnfc_param": key_value_pairs(),
        "new_vnfc_param": key_value_pairs(),
    })),
    "lcm-operation-coordinate-new-vnf": string(),
    "lcm-operation-coordinate-old-vnf": string(),
    "nfv": key_value_pairs(),
}
