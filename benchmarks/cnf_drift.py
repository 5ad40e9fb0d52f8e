#!/usr/bin/env python3
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A drift check of the 200-object CNF of cnf_instantiate.py: vnf_info with ``drift: true`` against a kubernetes.core.k8s
``state: present`` loop in check mode over the same def files (one task, ``loop`` over the files, what an Ansible user
would write to see what a re-apply would change) and ``kubectl diff -f <dir>`` (server-side, what an operator types).

Each round, each contender gets the CNF in a namespace of its own, deployed untimed (vnf_instantiate for vnf_info, which
needs its record; ``kubectl apply`` and wait for the others), then the same objects drifted by hand (an image, replicas,
a deleted Service); then its check is timed. Every contender's requests (reads, dry runs and writes) are counted from one audit log, wall
and CPU time of the child processes from the benchmark. The goal (issue "Drift"): ours within 1.5x the k8s loop.

Run: make stage, then with ANSIBLE_COLLECTIONS_PATH set to the staged collections dir (see README.md)
  $(make -s venv-path)/bin/python benchmarks/cnf_drift.py --rounds 3
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cnf_instantiate  # noqa: E402
from cnf_operations import requests_of, wall_of  # noqa: E402
from cnf_terminate import three_contenders  # noqa: E402
from module_call_cost import cpu_of  # noqa: E402



class DriftBench(cnf_instantiate.Bench):
    """cnf_instantiate's Bench with kubernetes.core on the collections path and the three contenders' checks."""

    def __init__(self, lab, kubectl: Path, package: dict, work: Path, wait_sleep: int, anchors: str):
        super().__init__(lab, kubectl, package, work, wait_sleep)
        self.env = dict(self.env, ANSIBLE_COLLECTIONS_PATH=self.env["ANSIBLE_COLLECTIONS_PATH"] + os.pathsep + anchors)

    def prepare(self, tool: str, namespace: str) -> dict:
        """The CNF deployed in ``namespace`` the way the contender's check expects it (vnf_instantiate for vnf_info, which
        needs its record; ``kubectl apply`` for the others, whose def files do not carry the instance's labels), then the
        same drift by hand (untimed)."""
        if tool == "vnflcm":
            self.module("vnf_instantiate", {"package": self.package["path"], "vnf_instance_name": "bench-" + namespace,
                                            "kubeconfig": str(self.lab.kubeconfig), "wait": True, "wait_timeout": 600, "wait_sleep": self.wait_sleep,
                                            "request": {"flavourId": "simple", "additionalParams": {
                                                "namespace": namespace, "lcm-kubernetes-def-files": self.package["def_files"]}}}, namespace)
        else:
            self.kubectl_apply(namespace)
        deployments = "/apis/apps/v1/namespaces/{0}/deployments".format(namespace)
        listed = sorted(self.api.call("GET", deployments)["items"], key=lambda item: item["metadata"]["name"])
        image, scaled = listed[0], listed[1]
        image["spec"]["template"]["spec"]["containers"][0]["image"] = "drifted:1"
        self.api.call("PUT", "{0}/{1}".format(deployments, image["metadata"]["name"]), image)
        scaled["spec"]["replicas"] = scaled["spec"]["replicas"] + 1
        self.api.call("PUT", "{0}/{1}".format(deployments, scaled["metadata"]["name"]), scaled)
        services = self.api.call("GET", "/api/v1/namespaces/{0}/services".format(namespace))["items"]
        self.api.call("DELETE", "/api/v1/namespaces/{0}/services/{1}".format(namespace, services[0]["metadata"]["name"]))
        return {"namespace": namespace}

    def drift(self, tool: str, namespace: str) -> dict:
        """The contender's check, timed: wall and CPU time, its requests from the audit log."""
        start = self.audit.mark()
        (extra, wall), cpu = cpu_of(lambda: wall_of(lambda: self.check(tool, namespace)))
        return dict(extra, wall_s=wall, cpu_s=round(cpu, 3), **requests_of(self.audit.events(start)))

    def check(self, tool: str, namespace: str) -> dict:
        kube = str(self.lab.kubeconfig)
        if tool == "vnflcm":
            result = self.module("vnf_info", {"vnf_instance_name": "bench-" + namespace, "namespace": namespace, "kubeconfig": kube,
                                              "drift": True}, namespace)
            found = result["drift"][0]
            return {"module_api_calls": result.get("api_calls"), "drifted": found["drifted"]}
        if tool == "k8s":
            files = [str(Path(self.package["path"]) / relpath) for relpath in self.package["def_files"]]
            result = self.playbook({"kubernetes.core.k8s": {"kubeconfig": kube, "namespace": namespace, "state": "present", "src": "{{ item }}"},
                                    "loop": files, "check_mode": True})
            return {"tasks": len(files), "changed_files": sum(1 for item in result.get("results") or [] if item.get("changed"))}
        calls = {}
        self.run_kubectl(["diff", "-f", str(Path(self.package["path"]) / "Files" / "kubernetes"), "--server-side", "--force-conflicts"],
                         namespace, calls, ok=(0, 1))
        return {"kubectl_requests": calls}


def main(argv=None) -> int:
    return three_contenders(argv, __doc__, "drift", DriftBench, ("vnf_info drift", "k8s check loop", "kubectl diff"),
                            ("wall_s", "cpu_s", "reads", "dry_runs", "writes", "api_calls"))

if __name__ == "__main__":
    sys.exit(main())
