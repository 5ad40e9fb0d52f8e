# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the tier-2 tests of VM-based VNFs share: the lab with the package's images, the base request, Heat's request log."""

from __future__ import annotations

import io
import os
import re

import pytest

CLOUD = "nfvlab-admin"
# The images userdata_standard names, and the one its change package adds for VDU1.
IMAGES = ("cirros-0.5.2-x86_64-disk", "VDU2-VirtualStorage-image", "VDU1-image")


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


@pytest.fixture(scope="module")
def lab(tier2_lab, admin_conn):
    """The tier-2 lab with the Glance images the package's VDUs name, and the env the modules read clouds.yaml from."""
    for name in IMAGES:
        if admin_conn.image.find_image(name) is None:
            admin_conn.image.create_image(name=name, disk_format="raw", container_format="bare", visibility="public",
                                          data=io.BytesIO(b"\0" * 1024))
    previous = os.environ.get("OS_CLIENT_CONFIG_FILE")
    os.environ["OS_CLIENT_CONFIG_FILE"] = str(tier2_lab.clouds_yaml)
    yield tier2_lab
    if previous is None:
        os.environ.pop("OS_CLIENT_CONFIG_FILE", None)
    else:
        os.environ["OS_CLIENT_CONFIG_FILE"] = previous


@pytest.fixture
def package(tacker_packages):
    return os.path.join(tacker_packages, "userdata_standard")


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


