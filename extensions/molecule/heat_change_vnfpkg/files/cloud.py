# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the scenario reads from the cloud besides the collection's modules, through the openstacksdk the
collection requires anyway (no other collection); the cloud from clouds.yaml (OS_CLIENT_CONFIG_FILE):

  cloud.py CLOUD servers SERVER_ID...   each server's flavour, status, and the networks of its ports (sorted)
  cloud.py CLOUD stacks STACK_NAME      the stacks of that name, with their status

Prints one JSON object.
"""

from __future__ import annotations

import json
import sys

import openstack


def servers(conn, server_ids):
    result = {}
    for server_id in server_ids:
        server = conn.compute.get_server(server_id)
        networks = sorted(conn.network.get_network(port.network_id).name for port in conn.network.ports(device_id=server_id))
        result[server_id] = {"flavor": server.flavor["original_name"], "status": server.status, "networks": networks}
    return result


def stacks(conn, name):
    return {stack.id: stack.status for stack in conn.orchestration.stacks() if stack.name == name}


def main():
    cloud, action, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    actions = {"servers": servers, "stacks": lambda conn, names: stacks(conn, names[0])}
    if action not in actions:
        raise SystemExit("unknown action {0!r}: one of {1}".format(action, ", ".join(actions)))
    print(json.dumps(actions[action](openstack.connect(cloud=cloud), args), sort_keys=True))


if __name__ == "__main__":
    main()
