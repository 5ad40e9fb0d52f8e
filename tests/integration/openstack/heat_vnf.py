# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the tier-2 tests of VM-based VNFs share: the base request, Heat's request log, Nova and Neutron reads.

Their fixtures (``lab``, ``package``) are in conftest.py.
"""

from __future__ import annotations

import re

CLOUD = "nfvlab-admin"


def ip_config(subnet=None):
    address = {"type": "IPV4", "numDynamicAddresses": 1}
    if subnet:
        address["subnetId"] = subnet
    return {"cpProtocolData": [{"layerProtocol": "IP_OVER_ETHERNET", "ipOverEthernet": {"ipAddresses": [address]}}]}


# Done when 1: VDU1_CP1 and VDU2_CP1 on net0, VDU2_CP1 with a fixed subnet.
REQUEST = {
    "flavourId": "simple",
    "instantiationLevelId": "instantiation_level_1",
    "extVirtualLinks": [{
        "id": "ext-net0",
        "resourceId": "net0",
        "extCps": [
            {"cpdId": "VDU1_CP1", "cpConfig": {"VDU1_CP1_1": ip_config()}},
            {"cpdId": "VDU2_CP1", "cpConfig": {"VDU2_CP1_1": ip_config(subnet="net0-subnet")}},
        ],
    }],
}


def heat_writes(lab, stack_name):
    """Writes (POST/PATCH/PUT/DELETE) Heat logged for one stack: Heat's own request log (a preview writes nothing)."""
    log = (lab.state_dir / "log" / "heat.log").read_text(errors="replace")
    pattern = r'"(POST|PATCH|PUT|DELETE) /v1/[^/]+/stacks/{0}[/ ]'.format(re.escape(stack_name))
    return [line for line in log.splitlines() if re.search(pattern, line) and "/preview " not in line]


def stack_updates(lab, stack_name):
    return [line for line in heat_writes(lab, stack_name) if '"PATCH ' in line or '"PUT ' in line]


def servers_of(conn, result):
    info = result["vnf_instance"]["instantiatedVnfInfo"]
    return {item["computeResource"]["resourceId"]: item for item in info["vnfcResourceInfo"]}


def ports_by_network(conn, server_id):
    return sorted(conn.network.get_network(port.network_id).name for port in conn.network.ports(device_id=server_id))


def stacks_named(conn, name):
    return [stack for stack in conn.orchestration.stacks() if stack.name == name]


def instantiate(ansible_task, package, name, request, **extra):
    return ansible_task("vnf_instantiate", dict({"package": package, "vnf_instance_name": name, "request": request, "cloud": CLOUD,
                                                 "wait_timeout": 600}, **extra.pop("args", {})), **extra)
