#!/usr/bin/env python3
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the demo needs from the local labs besides the collection's modules (which create no namespaces,
images or packages): each subcommand prints one JSON document.

  namespace-create NAME          a fresh, empty namespace (a leftover of an interrupted run is deleted first)
  namespace-delete NAME          delete it and wait until it is gone
  images NAME...                 the Glance images the packages' VNFDs name (1 KiB of zeros; the lab's Nova is fake)
  repackage SOURCE DEST          a copy of a package with a vnfdId of its own (as an NFVO onboards it)
  servers ID...                  flavour, status and networks of Nova servers, as Nova and Neutron have them
  delete-stack NAME              delete a Heat stack left by an interrupted run, and wait until it is gone

Kubernetes: $KUBECONFIG (the lab's admin). OpenStack: $OS_CLIENT_CONFIG_FILE, cloud $DEMO_CLOUD (default nfvlab-admin)
for reads, nfvlab-admin for the public images. Run with the collection venv's Python.
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TIMEOUT = 300


def wait_for(condition, what, timeout=TIMEOUT, sleep=0.5):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit("demo_lab: {0} after {1} s".format(what, timeout))
        time.sleep(sleep)


# ---------------------------------------------------------------------------------------------
# Kubernetes

def kube():
    sys.path.insert(0, str(REPO / "tools" / "lab" / "k8s"))
    from labk8s.kubeapi import Api  # the lab's own client: stdlib + PyYAML

    return Api(Path(os.environ["KUBECONFIG"]))


def namespace_delete(api, name):
    path = "/api/v1/namespaces/" + name
    status = api.request("DELETE", path)[0]
    wait_for(lambda: api.request("GET", path)[0] == 404, "namespace {0} still there".format(name))
    return status != 404


def namespace_create(name):
    api = kube()
    leftover = namespace_delete(api, name)
    api.call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}})
    # Pods are admitted only once the namespace has its default ServiceAccount.
    wait_for(lambda: api.request("GET", "/api/v1/namespaces/{0}/serviceaccounts/default".format(name))[0] == 200,
             "namespace {0} got no default ServiceAccount".format(name))
    return {"namespace": name, "leftover_deleted": leftover}


# ---------------------------------------------------------------------------------------------
# OpenStack

def cloud(name=None):
    import openstack

    return openstack.connect(cloud=name or os.environ.get("DEMO_CLOUD") or "nfvlab-admin")


def images(names):
    conn = cloud("nfvlab-admin")
    created = []
    for name in sorted(set(names)):
        if conn.image.find_image(name) is None:
            conn.image.create_image(name=name, disk_format="raw", container_format="bare", visibility="public",
                                    data=io.BytesIO(b"\0" * 1024))
            created.append(name)
    return {"images": sorted(set(names)), "created": created}


def repackage(source, dest):
    # The tests' helper: the same copy with a new descriptor_id, not a second implementation of it. It imports the staged
    # collection (make exports ANSIBLE_COLLECTIONS_PATH), as the tests do.
    for path in filter(None, os.environ.get("ANSIBLE_COLLECTIONS_PATH", "").split(os.pathsep)):
        if path not in sys.path:
            sys.path.append(path)
    spec = importlib.util.spec_from_file_location("heat_vnf", REPO / "tests" / "integration" / "openstack" / "heat_vnf.py")
    heat_vnf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(heat_vnf)
    path = heat_vnf.repackaged(source, Path(dest))
    return {"path": str(path), "vnfd_id": heat_vnf.vnfd_id(str(path)), "source_vnfd_id": heat_vnf.vnfd_id(source)}


def servers(ids):
    conn = cloud()
    networks = {}
    result = []
    for server_id in ids:
        server = conn.compute.get_server(server_id)
        nets = []
        for port in conn.network.ports(device_id=server_id):
            if port.network_id not in networks:
                networks[port.network_id] = conn.network.get_network(port.network_id).name
            nets.append(networks[port.network_id])
        result.append({"id": server_id, "name": server.name, "status": server.status,
                       "flavor": server.flavor.get("original_name") or server.flavor.get("id"), "networks": sorted(nets)})
    return {"servers": result}


def delete_stack(name):
    conn = cloud()
    stack = conn.orchestration.find_stack(name)
    if stack is None:
        return {"deleted": False}
    conn.orchestration.delete_stack(stack)
    conn.orchestration.wait_for_delete(stack, wait=TIMEOUT)
    return {"deleted": True}


def main(argv):
    if not argv:
        raise SystemExit(__doc__)
    command, args = argv[0], argv[1:]
    if command == "namespace-create" and len(args) == 1:
        result = namespace_create(args[0])
    elif command == "namespace-delete" and len(args) == 1:
        result = {"deleted": namespace_delete(kube(), args[0])}
    elif command == "images" and args:
        result = images(args)
    elif command == "repackage" and len(args) == 2:
        result = repackage(*args)
    elif command == "servers" and args:
        result = servers(args)
    elif command == "delete-stack" and len(args) == 1:
        result = delete_stack(args[0])
    else:
        raise SystemExit("demo_lab: unknown command or wrong arguments: {0}\n{1}".format(" ".join(argv), __doc__))
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
