#!/usr/bin/env python3
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Terminate of the 200-object CNF of cnf_instantiate.py: vnf_terminate against a kubernetes.core.k8s ``state: absent``
loop over the same def files (one task, ``loop`` over the files, ``wait: true``) and ``kubectl delete -f <dir> --wait``.

Each round, each contender gets the CNF in a namespace of its own, deployed untimed (vnf_instantiate for vnf_terminate,
which needs its record; ``kubectl apply`` and wait for the others); then its delete is timed until every object is gone.
Every contender's requests (reads, watches and writes) are counted from one audit log (a private lab whose audit
policy records the admin's reads too), wall and CPU time of the child processes from the benchmark.

Run: make stage, then with ANSIBLE_COLLECTIONS_PATH set to the staged collections dir (see README.md)
  $(make -s venv-path)/bin/python benchmarks/cnf_terminate.py --rounds 3
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cnf_instantiate  # noqa: E402
from cnf_instantiate import (ROOT, cell, generate_package, kubectl_version, lab_binaries, loadavg, machine, private_lab,  # noqa: E402
                             run_rounds, summarize_phases, write_report)
from cnf_operations import ReadAuditedLab, requests_of, wall_of  # noqa: E402
from module_call_cost import anchors_collections, collection_version, cpu_of  # noqa: E402

TOOLS = ("vnflcm", "k8s", "kubectl")  # ours, a kubernetes.core.k8s loop over the def files, kubectl (terminate: absent, delete)


class TerminateBench(cnf_instantiate.Bench):
    """cnf_instantiate's Bench with kubernetes.core on the collections path and the three contenders' deletes."""

    def __init__(self, lab, kubectl: Path, package: dict, work: Path, wait_sleep: int, anchors: str):
        super().__init__(lab, kubectl, package, work, wait_sleep)
        self.env = dict(self.env, ANSIBLE_COLLECTIONS_PATH=self.env["ANSIBLE_COLLECTIONS_PATH"] + os.pathsep + anchors)

    def prepare(self, tool: str, namespace: str) -> dict:
        """The CNF deployed in ``namespace`` the way the contender's delete expects it (untimed)."""
        if tool == "vnflcm":
            self.vnflcm_in(namespace)
        else:
            self.kubectl_apply(namespace)
        return {"namespace": namespace}

    def vnflcm_in(self, namespace: str) -> None:
        args = {"package": self.package["path"], "vnf_instance_name": "bench-" + namespace, "kubeconfig": str(self.lab.kubeconfig),
                "wait": True, "wait_timeout": 600, "wait_sleep": self.wait_sleep,
                "request": {"flavourId": "simple", "additionalParams": {
                    "namespace": namespace, "lcm-kubernetes-def-files": self.package["def_files"]}}}
        self.module("vnf_instantiate", args, namespace)

    def terminate(self, tool: str, namespace: str) -> dict:
        """The contender's delete of the CNF, waited for: wall and CPU time, its requests from the audit log."""
        start = self.audit.mark()
        (extra, wall), cpu = cpu_of(lambda: wall_of(lambda: self.delete(tool, namespace)))
        left = self.left(namespace)
        if left:
            raise SystemExit("{0} left {1} objects in {2}: {3}".format(tool, len(left), namespace, ", ".join(left[:10])))
        return dict(extra, wall_s=wall, cpu_s=round(cpu, 3), **requests_of(self.audit.events(start)))

    def delete(self, tool: str, namespace: str) -> dict:
        kube = str(self.lab.kubeconfig)
        if tool == "vnflcm":
            result = self.module("vnf_terminate", {"vnf_instance_name": "bench-" + namespace, "namespace": namespace, "kubeconfig": kube,
                                                   "request": {"terminationType": "FORCEFUL"}, "wait_timeout": 600}, namespace)
            return {"module_api_calls": result.get("api_calls")}
        if tool == "k8s":
            files = [str(Path(self.package["path"]) / relpath) for relpath in self.package["def_files"]]
            self.playbook({"kubernetes.core.k8s": {"kubeconfig": kube, "namespace": namespace, "state": "absent", "src": "{{ item }}",
                                                   "wait": True, "wait_timeout": 600}, "loop": files})
            return {"tasks": len(files)}
        calls = {}
        self.run_kubectl(["delete", "-f", str(Path(self.package["path"]) / "Files" / "kubernetes"), "--wait=true"], namespace, calls)
        return {"kubectl_requests": calls}

    def left(self, namespace: str) -> list[str]:
        """The package's objects still in ``namespace`` (the benchmark's own check, after the contender's end)."""
        found = []
        for path in ("/api/v1/namespaces/{0}/configmaps", "/api/v1/namespaces/{0}/secrets", "/api/v1/namespaces/{0}/services",
                     "/api/v1/namespaces/{0}/serviceaccounts", "/apis/apps/v1/namespaces/{0}/deployments",
                     "/apis/apps/v1/namespaces/{0}/statefulsets", "/apis/apps/v1/namespaces/{0}/daemonsets",
                     "/apis/rbac.authorization.k8s.io/v1/namespaces/{0}/roles",
                     "/apis/rbac.authorization.k8s.io/v1/namespaces/{0}/rolebindings"):
            for item in self.api.call("GET", path.format(namespace))["items"]:
                name = item["metadata"]["name"]
                if name.startswith("app") and "token" not in name:
                    found.append("{0}/{1}".format(path.rsplit("/", 1)[1], name))
        return found


def three_contenders(argv, doc: str, phase: str, make_bench, headers: tuple, metrics=("wall_s", "cpu_s", "reads", "writes", "api_calls")) -> int:
    """The main of a benchmark of one ``phase`` of the 200-object CNF, ours against the two peers of TOOLS, medians over
    rounds: ``make_bench(lab, kubectl, package, work, wait_sleep, anchors)`` has ``prepare(tool, namespace)`` and
    ``<phase>(tool, namespace)``; ``headers``: the three contenders' column titles."""
    p = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--objects", type=int, default=200)
    p.add_argument("--wait-sleep", type=int, default=1, help="the module's wait_sleep")
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = p.parse_args(argv)
    bin_dir = lab_binaries()
    anchors = anchors_collections()
    stamp = datetime.datetime.now(datetime.timezone.utc)
    load_before = loadavg()
    with tempfile.TemporaryDirectory(prefix="cnf-{0}-bench-".format(phase)) as tmp:
        work = Path(tmp)
        package = generate_package(work / "package", args.objects)
        with private_lab(ReadAuditedLab(work / "lab"), bin_dir) as lab:
            bench = make_bench(lab, bin_dir / "kubectl", package, work, args.wait_sleep, anchors)

            def run(number, tool, namespace, entry):
                entry[tool][phase] = getattr(bench, phase)(tool, namespace)
                print("round {0} {1:15} {2}".format(number + 1, tool, entry[tool][phase]), file=sys.stderr)

            rounds = run_rounds(bench, args.rounds, phase[:5] + "-" + stamp.strftime("%H%M%S"), TOOLS, run, prepare=bench.prepare,
                                record_loadavg=True)
    summary = summarize_phases(rounds, (phase,), metrics, TOOLS)
    for peer in TOOLS[1:]:
        # Ours against each peer, per round (summarize_phases makes a ratio for two tools only).
        pair = summarize_phases(rounds, (phase,), metrics, ("vnflcm", peer))
        for metric in metrics:
            summary[phase][metric]["ratio_to_" + peer] = pair[phase][metric]["ratio"]
    row = "{0:10} {1:>20} {2:>20} {3:>20} {4:>16} {5:>16}"
    print("\n" + row.format("metric", *headers, "ours/k8s", "ours/kubectl"))
    for metric in metrics:
        m = summary[phase][metric]
        fmt = "{:.2f}" if metric.endswith("_s") else "{:.0f}"
        print(row.format(metric, *[cell(m.get(tool), fmt) for tool in TOOLS], cell(m.get("ratio_to_k8s"), "{:.2f}"),
                         cell(m.get("ratio_to_kubectl"), "{:.2f}")))
    write_report(args.out, "cnf_" + phase, stamp, machine=machine(load_before), kubectl=kubectl_version(bin_dir),
                 kubernetes_core=collection_version(anchors, "kubernetes.core"),
                 package={k: v for k, v in package.items() if k in ("objects", "workloads")},
                 settings={"rounds": args.rounds, "module_wait_sleep": args.wait_sleep, "lab_nodes": bench.nodes},
                 summary=summary, rounds=rounds)
    return 0


def main(argv=None) -> int:
    return three_contenders(argv, __doc__, "terminate", TerminateBench, ("vnf_terminate", "k8s absent loop", "kubectl delete"))

if __name__ == "__main__":
    sys.exit(main())
