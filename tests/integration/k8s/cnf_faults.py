# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the fault-injection tests on the Kubernetes lab share: a package of many objects, the record as
the apiserver holds it, holding an operation at a known point, and interrupting its module process."""

from __future__ import annotations

import base64
import gzip
import json
import os
import signal
from urllib.parse import quote

from ansible_collections.nfv.vnflcm.tests.integration.faults import wait_for
from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_packages import MULTI_NS_VNFD_ID, build_package

DEF_DIR = "Files/kubernetes/"
CONFIG_MAPS = 60
OWNED = "vnflcm.nfv/instance-id"
RECORD = "vnflcm.nfv/record=vnf-instance"
# The kinds a CNF of make_package has, by API path.
KINDS = {"configmaps": "/api/v1", "deployments": "/apis/apps/v1", "replicasets": "/apis/apps/v1", "pods": "/api/v1"}


def make_package(multi_ns, dest):
    """Tacker's test_cnf_multi_ns VNFD with CONFIG_MAPS ConfigMaps and the Deployment vdu1 (VDU1) reading one of them."""
    return build_package(multi_ns, dest, MULTI_NS_VNFD_ID, {
        "configmaps.yaml": [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm-{0:02d}".format(index)},
                             "data": {"key": "value-{0}".format(index)}} for index in range(CONFIG_MAPS)],
        "deployment.yaml": [{
            "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "vdu1"},
            "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "vdu1"}},
                     "template": {"metadata": {"labels": {"app": "vdu1"}},
                                  "spec": {"containers": [{"name": "c", "image": "nginx", "envFrom": [{"configMapRef": {"name": "cm-00"}}]}]}}}}],
    })


def instantiate_request(namespace):
    return {"flavourId": "simple", "additionalParams": {"namespace": namespace,
                                                        "lcm-kubernetes-def-files": [DEF_DIR + "configmaps.yaml", DEF_DIR + "deployment.yaml"]}}


def record(kube, namespace):
    """``(instance, op_occs)`` from the instance's record Secret (the one instance of the namespace), or None."""
    items = kube.call("GET", "/api/v1/namespaces/{0}/secrets?labelSelector={1}".format(namespace, quote(RECORD)))["items"]
    if not items:
        return None
    document = json.loads(gzip.decompress(base64.b64decode(items[0]["data"]["record"])))
    return document["vnfInstance"], document["opOccs"]


def head(kube, namespace):
    """The newest op occ of the namespace's instance, or None."""
    found = record(kube, namespace)
    return found[1][0] if found and found[1] else None


def owned(kube, namespace, instance_id=None):
    """``{kind: sorted names}`` of the objects carrying an instance's ownership label (any instance when no id)."""
    selector = OWNED + ("=" + instance_id if instance_id else "")
    result = {}
    for kind, base in KINDS.items():
        items = kube.call("GET", "{0}/namespaces/{1}/{2}?labelSelector={3}".format(base, namespace, kind, quote(selector)))["items"]
        names = sorted(item["metadata"]["name"] for item in items if not item["metadata"].get("deletionTimestamp"))
        if names:
            result[kind] = names
    return result


def block_pods(kube, namespace, count=0):
    """A ResourceQuota of ``count`` pods, taken up: workloads cannot get (more) pods, so an operation waits for them."""
    path = "/api/v1/namespaces/{0}/resourcequotas".format(namespace)
    kube.call("POST", path, {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "hold-pods"}, "spec": {"hard": {"pods": str(count)}}})
    wait_for(lambda: (kube.call("GET", path + "/hold-pods").get("status") or {}).get("hard"), "the quota to be taken up", timeout=30, sleep=0.2)


def unblock_pods(kube, namespace):
    kube.request("DELETE", "/api/v1/namespaces/{0}/resourcequotas/hold-pods".format(namespace))


def running_op_occ(kube, namespace, also=lambda: True):
    """Until the namespace's instance has a running op occ with a lease (and ``also()``): that op occ."""
    def found():
        occ = head(kube, namespace)
        return occ if occ and occ.get("lease") and occ["operationState"] in ("PROCESSING", "ROLLING_BACK") and also() else None
    return wait_for(found, "a running op occ with a lease", sleep=0.05)


def signal_runner(op_occ, signum):
    """Send ``signum`` to the module process that holds the op occ's lease (the lease names it)."""
    os.kill(op_occ["lease"]["pid"], signum)
    return op_occ["lease"]["pid"]


def kill_runner(op_occ):
    return signal_runner(op_occ, signal.SIGKILL)
