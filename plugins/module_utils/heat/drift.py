# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Drift of a VM-based VNF: what differs between its VNFCs' servers, ports and volumes as Nova, Neutron and Cinder see
them and what its record says (``vnfcResourceInfo``: the server, its flavour and image as the stack's nfv parameter gave
them, its CPs' ports, its volumes). Pure: the live view comes in as plain dicts (:func:`live_view`).

Statuses as on Kubernetes (k8s/drift.py): ``changed`` (with the fields: ``flavor``, ``image``, ``status`` when the
server is in ERROR or SHUTOFF), ``missing`` (a server gone; a port or volume of the record no longer attached to its
server), ``unexpected`` (a port or volume attached to the server that the record does not name).
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.template import vnfc_name
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.vnfc_faults import FAULT_STATUSES

CHANGED, MISSING, UNEXPECTED = "changed", "missing", "unexpected"
SERVER, PORT, VOLUME = "Server", "Port", "Volume"
EXPECTED_STATUS = "ACTIVE"


def recorded_vnfcs(instance, images=None):
    """``[{vdu, server, flavor, image, ports: {port id: cp id}, volumes}]`` of the record, one per vnfcResourceInfo.

    The record names a VNFC's image as the nfv parameter does, by name; Nova shows the id. ``images``: the ids of those
    names the instantiate resolved in Glance (a name it lacks is not compared); None: the record's value is the id."""
    found = []
    for item in (instance.get("instantiatedVnfInfo") or {}).get("vnfcResourceInfo") or []:
        meta = item.get("metadata") or {}
        ports = {}
        for cp in item.get("vnfcCpInfo") or []:
            prefix = "{0}-".format(cp.get("cpdId"))
            if str(cp.get("id", "")).startswith(prefix):
                ports[cp["id"][len(prefix):]] = cp["cpdId"]
        # Keyed as the nfv parameter is: per VNFC (image-VDU1-0) but for a scaling group's member (image-VDU1).
        key = item.get("vduId") if meta.get("vdu_idx") is None else vnfc_name(item.get("vduId"), meta["vdu_idx"])
        image = meta.get("image-{0}".format(key))
        image = image if images is None else images.get(image)
        found.append({"vdu": item.get("vduId"), "server": (item.get("computeResource") or {}).get("resourceId"), "flavor": meta.get("flavor"),
                      "image": image, "ports": ports, "volumes": list(item.get("storageResourceIds") or ())})
    return found


def live_view(server):
    """What drift compares of an openstacksdk Server (or its dict): status, the flavour's names, the image id, the
    attached volumes' ids. None: the server is gone."""
    if server is None:
        return None
    data = server.to_dict() if hasattr(server, "to_dict") else dict(server)
    flavor = data.get("flavor") or {}
    image = data.get("image") or {}
    return {"status": data.get("status"), "flavor": {flavor.get(key) for key in ("original_name", "name", "id") if flavor.get(key)},
            "image": image.get("id") if isinstance(image, dict) else None,
            "volumes": sorted(item.get("id") for item in data.get("attached_volumes") or () if item.get("id"))}


def vnfc_drift(vnfc, live, port_ids):
    """The drifted objects of one VNFC: ``live`` its server's :func:`live_view`, ``port_ids`` the ids of the ports
    attached to it (Neutron's ``device_id``)."""
    base = {"vdu": vnfc["vdu"], "server": vnfc["server"]}
    if live is None:
        return [dict(base, kind=SERVER, id=vnfc["server"], status=MISSING)]
    fields = []
    if vnfc["flavor"] and vnfc["flavor"] not in live["flavor"]:
        fields.append({"path": "flavor", "expected": vnfc["flavor"], "live": sorted(live["flavor"])[0] if live["flavor"] else None})
    if vnfc["image"] and live["image"] and vnfc["image"] != live["image"]:
        fields.append({"path": "image", "expected": vnfc["image"], "live": live["image"]})
    if str(live["status"]).upper() in FAULT_STATUSES:
        fields.append({"path": "status", "expected": EXPECTED_STATUS, "live": live["status"]})
    found = [dict(base, kind=SERVER, id=vnfc["server"], status=CHANGED, fields=fields)] if fields else []
    found += [dict(base, kind=PORT, id=port_id, cp=cp_id, status=MISSING) for port_id, cp_id in sorted(vnfc["ports"].items()) if port_id not in port_ids]
    found += [dict(base, kind=PORT, id=port_id, status=UNEXPECTED) for port_id in sorted(port_ids) if port_id not in vnfc["ports"]]
    found += [dict(base, kind=VOLUME, id=volume_id, status=MISSING) for volume_id in vnfc["volumes"] if volume_id not in live["volumes"]]
    found += [dict(base, kind=VOLUME, id=volume_id, status=UNEXPECTED) for volume_id in live["volumes"] if volume_id not in vnfc["volumes"]]
    return found
