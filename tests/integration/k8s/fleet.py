# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A fleet of CNFs on the Kubernetes lab, one inventory host per VNF instance: what the sliced-job test and the fleet
benchmark (benchmarks/fleet_lifecycle.py) share.

Every instance is Tacker's test_cnf_multi_ns with its Deployment vdu2 (VDU2: 1 to 3 pods, vdu2_aspect up to level 2) in
a namespace of its own, named in its host's variables; the requests name ``{{ vnf_lifecycle_namespace }}``, which each
host resolves to its own (Jinja in extra vars, as an AWX job template's extra vars allow).
"""

from __future__ import annotations

import sys
import time

from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_faults import record

DEF_FILE = "Files/kubernetes/deployment_no_namespace.yaml"
ASPECT = "vdu2_aspect"
HOST_NAMESPACE = "{{ vnf_lifecycle_namespace }}"
REQUESTS = {
    "instantiate": {"flavourId": "simple", "additionalParams": {"namespace": HOST_NAMESPACE, "lcm-kubernetes-def-files": [DEF_FILE]}},
    "scale": {"type": "SCALE_OUT", "aspectId": ASPECT},
    "heal": {},  # every VNFC
    "terminate": {"terminationType": "FORCEFUL"},
}
# The role's tasks that run each operation's module (roles/vnf_lifecycle/tasks/sequences/*.yml).
MODULE_TASKS = {"instantiate": "Create and instantiate ", "scale": "Scale the VNF instance", "heal": "Heal the VNF instance",
                "terminate": "Terminate the VNF instance"}
NAMESPACE_ADMIN = [{"apiGroups": ["", "apps"], "resources": ["*"], "verbs": ["*"]}]


def fleet_hosts(count, prefix):
    """``{host: its variables}``: instance ``<prefix>-NN`` in namespace ``<prefix>-NN``."""
    return {"cnf-{0:03d}".format(index): {"vnf_lifecycle_instance_name": "{0}-{1:03d}".format(prefix, index),
                                          "vnf_lifecycle_namespace": "{0}-{1:03d}".format(prefix, index)} for index in range(count)}


def awx_slices(hosts, count):
    """The hosts of each slice job, as AWX cuts a sliced job's inventory (awx/main/models/inventory.py,
    get_script_data): the enabled hosts sorted by name, slice k (from 1) gets ``sorted[k-1::count]``."""
    ordered = sorted(hosts)
    return [ordered[number::count] for number in range(count)]


def inventory(hosts):
    """An inventory with these hosts in group ``fleet``: each a VNF instance, run on the execution node itself."""
    return {"all": {"children": {"fleet": {"hosts": {
        name: dict(variables, ansible_connection="local", ansible_python_interpreter=sys.executable) for name, variables in hosts.items()}}}}}


def create_namespaces(kube, namespaces, operator=None):
    """The namespaces, each with its default ServiceAccount; with ``operator`` (``(namespace, name)`` of a
    ServiceAccount), a Role and RoleBinding making that ServiceAccount admin of each namespace."""
    for namespace in namespaces:
        kube.call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespace}})
    if operator:
        home, name = operator
        kube.call("POST", "/api/v1/namespaces/{0}/serviceaccounts".format(home), {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": name}})
        for namespace in namespaces:
            rbac = "/apis/rbac.authorization.k8s.io/v1/namespaces/{0}".format(namespace)
            kube.call("POST", rbac + "/roles", {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": name},
                                                "rules": NAMESPACE_ADMIN})
            kube.call("POST", rbac + "/rolebindings", {
                "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": {"name": name},
                "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": name},
                "subjects": [{"kind": "ServiceAccount", "name": name, "namespace": home}]})
    # Pods need the namespace's default ServiceAccount, which the controller-manager creates.
    deadline = time.monotonic() + 60
    for namespace in namespaces:
        while kube.request("GET", "/api/v1/namespaces/{0}/serviceaccounts/default".format(namespace))[0] != 200:
            if time.monotonic() > deadline:
                raise AssertionError("namespace {0} got no default ServiceAccount".format(namespace))
            time.sleep(0.1)


def operator_token(kube, home, name):
    return kube.call("POST", "/api/v1/namespaces/{0}/serviceaccounts/{1}/token".format(home, name),
                     {"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest", "spec": {"expirationSeconds": 3600}})["status"]["token"]


def record_against_live(kube, namespace):
    """``(instance, op occs, differences)``: the instance's record against the cluster (its Deployment's replicas, its
    pods, no op occ left running). ``differences`` is empty when they agree; a terminated instance has nothing left."""
    found = record(kube, namespace)
    if found is None:
        return None, [], ["no record"]
    instance, op_occs = found
    differences = ["op occ {0} ({1}) is {2}".format(occ["id"], occ["operation"], occ["operationState"])
                   for occ in op_occs if occ["operationState"] not in ("COMPLETED", "FAILED", "ROLLED_BACK")]
    status, deployment, _headers = kube.request("GET", "/apis/apps/v1/namespaces/{0}/deployments/vdu2".format(namespace))
    pods = sorted(pod["metadata"]["name"] for pod in kube.call("GET", "/api/v1/namespaces/{0}/pods".format(namespace))["items"]
                  if not pod["metadata"].get("deletionTimestamp"))
    if instance["instantiationState"] == "NOT_INSTANTIATED":
        if status == 200 or pods:
            differences.append("terminated, but the Deployment ({0}) or pods ({1}) are left".format(status, pods))
        return instance, op_occs, differences
    info = instance["instantiatedVnfInfo"]
    level = next(item["scaleLevel"] for item in info["scaleStatus"] if item["aspectId"] == ASPECT)
    recorded = sorted(item["computeResource"]["resourceId"] for item in info["vnfcResourceInfo"])
    replicas = deployment["spec"]["replicas"] if status == 200 else None
    if not replicas == level + 1 == len(recorded):
        differences.append("replicas {0}, scale level {1}, recorded VNFCs {2}".format(replicas, level, len(recorded)))
    if recorded != pods:
        differences.append("recorded pods {0}, live pods {1}".format(recorded, pods))
    return instance, op_occs, differences
