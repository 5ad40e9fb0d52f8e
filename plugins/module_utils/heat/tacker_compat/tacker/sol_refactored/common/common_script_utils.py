# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Tacker v2's helpers for package scripts (``tacker.sol_refactored.common.common_script_utils``), for user-data scripts.

On the script subprocess's path only (see vnfd_utils). The arguments are Tacker's, as plain dicts: ``req`` (the
operation's request), ``inst`` (the VnfInstance), ``grant_req`` and ``grant``. The grant this collection gives has no
vimAssets nor zones (there is no NFVO), so flavours and images come from the VNFD and zones are None. Tacker's
subscription helpers (check_subsc_auth, get_http_auth_handle) need its configuration and are not here.
"""

from __future__ import annotations

from . import vnfd_utils


def get_vnfd(vnfd_id, csar_dir):
    """The package's VNFD (:class:`vnfd_utils.Vnfd`) from the directory the script is given as ``tmp_csar_dir``."""
    vnfd = vnfd_utils.Vnfd(vnfd_id)
    vnfd.init_from_csar_dir(csar_dir)
    return vnfd


def _get_params(node, found):
    """Every ``get_param`` argument under ``node``."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "get_param":
                found.append(value)
            else:
                _get_params(value, found)
    elif isinstance(node, list):
        for value in node:
            _get_params(value, found)
    return found


def init_nfv_dict(hot_template):
    """The skeleton of the ``nfv`` parameter the template's resources read: ``{get_param: [nfv, A, B, C]}`` gives
    ``{"A": {"B": {"C": None}}}``. Only paths of at least three keys below ``nfv``; list indexes (fixed_ips' 0) are keys."""
    nfv = {}
    for resource in (hot_template.get("resources") or {}).values():
        for path in _get_params(resource.get("properties") or {}, []):
            if not isinstance(path, list) or len(path) < 4 or path[0] != "nfv":
                continue
            parent = nfv
            for key in path[1:-1]:
                parent = parent.setdefault(key, {})
            parent[path[-1]] = None
    return nfv


def get_param_flavor(vdu_name, flavour_id, vnfd, grant):
    """The VDU's flavour: the grant's vimAssets first, else the VNFD's requested_additional_capability_name (None if neither)."""
    for asset in (grant.get("vimAssets") or {}).get("computeResourceFlavours") or []:
        if asset.get("vnfdVirtualComputeDescId") == vdu_name:
            return asset["vimFlavourId"]
    return vnfd.get_compute_flavor(flavour_id, vdu_name)


def get_param_image(vdu_name, flavour_id, vnfd, grant, fallback_vnfd=True):
    """The VDU's (or volume's) image: the grant's vimAssets first, else (``fallback_vnfd``) the VNFD's sw_image_data name."""
    for asset in (grant.get("vimAssets") or {}).get("softwareImages") or []:
        if asset.get("vnfdSoftwareImageId") == vdu_name:
            return asset["vimSoftwareImageId"]
    if fallback_vnfd:
        return vnfd.get_sw_image(flavour_id).get(vdu_name)
    return None


def _zoned(grant):
    """The grant's addResources when it gives zones (this collection's grant never does)."""
    return (grant.get("addResources") or []) if grant.get("zones") else []


def _zone(grant, granted):
    for zone in grant.get("zones") or []:
        if zone.get("id") == granted.get("zoneId"):
            return zone.get("zoneId")
    return None


def get_param_zone(vdu_name, grant_req, grant):
    """The zone the grant gives the VDU's first added resource that has one; None without zones."""
    templates = {res["id"]: res.get("resourceTemplateId") for res in grant_req.get("addResources") or []}
    for granted in _zoned(grant):
        if "zoneId" in granted and templates.get(granted.get("resourceDefinitionId")) == vdu_name:
            return _zone(grant, granted)
    return None


def get_param_zone_by_vnfc(res_id, grant):
    """The zone the grant gives the resource of that id (a VNFC's grant request resource); None without one."""
    for granted in _zoned(grant):
        if granted.get("resourceDefinitionId") == res_id:
            return _zone(grant, granted) if "zoneId" in granted else None
    return None


def get_current_capacity(vdu_name, inst):
    """How many VNFCs of the VDU the instance has."""
    vnfcs = (inst.get("instantiatedVnfInfo") or {}).get("vnfcResourceInfo") or []
    return len([vnfc for vnfc in vnfcs if vnfc.get("vduId") == vdu_name])


def _computes(resources, vdu_name):
    return len([res for res in resources or [] if res.get("type") == "COMPUTE" and res.get("resourceTemplateId") == vdu_name])


def get_param_capacity(vdu_name, inst, grant_req):
    """The VDU's VNFC count after the operation: the current one, plus the grant request's added, less its removed COMPUTEs."""
    return (get_current_capacity(vdu_name, inst) + _computes(grant_req.get("addResources"), vdu_name)
            - _computes(grant_req.get("removeResources"), vdu_name))


def _fixed_ips_of(ext_cp):
    """``[{"ip_address", "subnet"}]`` of an extCp's cpConfig (the first fixed address of each ipAddresses entry)."""
    fixed_ips = []
    for config in (ext_cp.get("cpConfig") or {}).values():
        for protocol in config.get("cpProtocolData") or []:
            for address in (protocol.get("ipOverEthernet") or {}).get("ipAddresses") or []:
                entry = {}
                if address.get("fixedAddresses"):
                    entry["ip_address"] = str(address["fixedAddresses"][0])
                if "subnetId" in address:
                    entry["subnet"] = address["subnetId"]
                if entry:
                    fixed_ips.append(entry)
    return fixed_ips


def _ext_cp(cp_name, grant, req):
    """``(ext virtual link, extCp)`` of the CP, the grant's extVirtualLinks first, then the request's; (None, None)."""
    for link in (grant.get("extVirtualLinks") or []) + (req.get("extVirtualLinks") or []):
        for ext_cp in link.get("extCps") or []:
            if ext_cp.get("cpdId") == cp_name:
                return link, ext_cp
    return None, None


def get_param_network(cp_name, grant, req):
    """The network (resourceId of the external virtual link) of the CP; None when no link names it."""
    link = _ext_cp(cp_name, grant, req)[0]
    return link["resourceId"] if link else None


def get_param_fixed_ips(cp_name, grant, req):
    """The CP's fixed IPs from its extCp (see :func:`_fixed_ips_of`); None when no link names it."""
    ext_cp = _ext_cp(cp_name, grant, req)[1]
    return _fixed_ips_of(ext_cp) if ext_cp else None


def _inst_ext_cp(cp_name, inst):
    for link in (inst.get("instantiatedVnfInfo") or {}).get("extVirtualLinkInfo") or []:
        for ext_cp in link.get("currentVnfExtCpData") or []:
            if ext_cp.get("cpdId") == cp_name:
                return link, ext_cp
    return None, None


def get_param_network_from_inst(cp_name, inst):
    """The CP's network as the instance has it (extVirtualLinkInfo); None when it has none."""
    link = _inst_ext_cp(cp_name, inst)[0]
    return link["resourceHandle"]["resourceId"] if link else None


def get_param_fixed_ips_from_inst(cp_name, inst):
    """The CP's fixed IPs as the instance has them; None when it has none."""
    ext_cp = _inst_ext_cp(cp_name, inst)[1]
    return _fixed_ips_of(ext_cp) if ext_cp else None


def _replace_get_resource(node, reference, network_id):
    if isinstance(node, dict):
        for key, value in node.items():
            if value == reference:
                node[key] = network_id
            else:
                _replace_get_resource(value, reference, network_id)


def _apply_ext_managed_vls(hot_dict, managed):
    """For each ``{"vnfVirtualLinkDescId", "resourceId"}``: the template's network of that name and its subnets removed,
    and every ``{get_resource: <name>}`` replaced by the given network (the HOT, not the VNFD, is read)."""
    resources = hot_dict.get("resources") or {}
    for link in managed:
        name, network_id = link["vnfVirtualLinkDescId"], link["resourceId"]
        reference = {"get_resource": name}
        dropped = [res_name for res_name, resource in resources.items()
                   if res_name == name or (resource.get("type") == "OS::Neutron::Subnet"
                                           and ((resource.get("properties") or {}).get("network") or {}) == reference)]
        for resource in resources.values():
            _replace_get_resource(resource, reference, network_id)
        for res_name in dropped:
            resources.pop(res_name)


def apply_ext_managed_vls(hot_dict, req, grant):
    """The grant's then the request's extManagedVirtualLinks applied to the template (in place)."""
    _apply_ext_managed_vls(hot_dict, (grant.get("extManagedVirtualLinks") or []) + (req.get("extManagedVirtualLinks") or []))


def apply_ext_managed_vls_from_inst(hot_dict, inst):
    """The instance's extManagedVirtualLinkInfo applied to the template (in place)."""
    managed = (inst.get("instantiatedVnfInfo") or {}).get("extManagedVirtualLinkInfo") or []
    _apply_ext_managed_vls(hot_dict, [{"vnfVirtualLinkDescId": link["vnfVirtualLinkDescId"],
                                       "resourceId": link["networkResource"]["resourceId"]} for link in managed])
