# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Drift of a VM-based VNF read from Nova and Neutron (heat/drift.py compares): what vnf_info's ``drift`` reports, a
re-run of vnf_instantiate counts, and a repair (lcm/vm/heal.py) heals. Reads only."""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import NotFoundError
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.cloud import sdk_errors
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.drift import live_view, recorded_vnfcs, vnfc_drift
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import private_state


def instance_drift(conn, instance):
    """``{vnfInstanceId, vnfInstanceName, drifted, compared, objects}`` as on Kubernetes; each object a server, port or
    volume of a VNFC (``kind``, ``id``, ``vdu``, ``server``, ``status``, ``fields``). Reads: per VNFC its server and the
    ports attached to it."""
    objects = []
    for vnfc in recorded_vnfcs(instance, private_state(instance).get("images") or {}):
        objects += vnfc_drift(vnfc, live_view(server_of(conn, vnfc["server"])), attached_ports(conn, vnfc["server"]))
    return {"vnfInstanceId": instance["id"], "vnfInstanceName": instance.get("vnfInstanceName"), "drifted": len(objects), "compared": "fields",
            "objects": objects}


def server_of(conn, server_id):
    try:
        with sdk_errors("read", "server " + server_id):
            return conn.compute.get_server(server_id)
    except NotFoundError:
        return None


def attached_ports(conn, server_id):
    with sdk_errors("read", "the ports of server " + server_id):
        return {port.id for port in conn.network.ports(device_id=server_id)}
