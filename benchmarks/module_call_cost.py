#!/usr/bin/env python3
"""What one module call costs: its imports per module and VIM, and one read against kubernetes.core / openstack.cloud.

1. Imports. Every module of the collection is run as Ansible runs it, from its AnsiballZ file (built by
   ``ansible localhost -m <module>`` with ANSIBLE_KEEP_REMOTE_FILES, then run again directly), under
   ``python -X importtime``, for each VIM (Kubernetes lab; OpenStack lab when one is up), for two variants of the
   collection: ``before`` (a git revision, default HEAD, staged from ``git archive``) and ``current`` (the
   staged collection of ANSIBLE_COLLECTIONS_PATH). Per call: all import time, the kubernetes and openstacksdk
   packages' cumulative time (0 when not imported), the collection's own, ansible's own, and the process's wall
   and CPU time. Beside it, what the controller builds for each module, as ansible-playbook does (``module_common.
   modify_module``, a fresh process each): the AnsiballZ payload's bytes and the CPU time of its build, for both
   variants and for kubernetes.core's k8s_scale and k8s_info. A module that is not given an instance (scale, heal, ...) reads, finds none and fails: the
   imports are those of its VIM path all the same.
2. One read against the anchors, the same read on the same lab, from PyPI's ``ansible`` package (kubernetes.core,
   openstack.cloud), run by the same ansible-core and Python: ``nfv.vnflcm.vnf_info`` of a namespace holding one
   CNF against ``kubernetes.core.k8s_info`` of that namespace's record Secrets (label vnflcm.nfv/record), and
   ``nfv.vnflcm.vnf_info`` of the project against ``openstack.cloud.stack_info`` of the project. Measured twice:
   the module process alone (its AnsiballZ file) and a one-task ``ansible-playbook``; wall and CPU (user + sys of
   the process and everything it waited for), alternating, median of ``--rounds``.

The anchors' venv: ``${XDG_CACHE_HOME:-~/.cache}/nfv-vnflcm/anchors-venv``, created on first use with
``pip install --no-deps 'ansible>=12,<13'`` (collections only: its ansible_collections dir is added to the
collections path; the modules run on this Python, with its kubernetes and openstacksdk).

Run: make stage, then with ANSIBLE_COLLECTIONS_PATH set to the staged collections dir (see README.md)
  $(make -s venv-path)/bin/python benchmarks/module_call_cost.py [--rounds 9] [--import-rounds 3] [--before HEAD]
Needs the Kubernetes lab up ($NFV_LAB_STATE_DIR or the default state dir); the OpenStack part runs when the
OpenStack lab is up ($NFV_OPENSTACK_LAB_DIR or its default state dir). Results: benchmarks/results/module_call_cost-<date>.json.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools" / "lab" / "k8s"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from cnf_lease_cost import stage_revision  # noqa: E402
from labk8s.cluster import Lab  # noqa: E402
import ratios  # noqa: E402

FIXTURES = Path(os.environ.get("NFV_FIXTURES_DIR") or ROOT.parent / "shared" / "fixtures" / "tacker")
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "nfv-vnflcm"
ANCHORS_VENV = CACHE / "anchors-venv"
ANCHORS_PIN = "ansible>=12,<13"  # the newest PyPI ansible whose ansible-core installs on Python 3.11
OPENSTACK_STATE = Path(os.environ.get("NFV_OPENSTACK_LAB_DIR") or CACHE / "openstack-lab" / "state")
RECORD_LABEL = "vnflcm.nfv/record=vnf-instance"
IMPORT_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")
BIN = Path(sys.executable).parent


def anchors_collections() -> str:
    """The ansible_collections of PyPI's ansible package (kubernetes.core, openstack.cloud), installed once."""
    site = next(iter(sorted(ANCHORS_VENV.glob("lib/python*/site-packages"))), None)
    if site is None or not (site / "ansible_collections" / "kubernetes" / "core").is_dir():
        subprocess.run([sys.executable, "-m", "venv", str(ANCHORS_VENV)], check=True)
        subprocess.run([str(ANCHORS_VENV / "bin" / "pip"), "install", "-q", "--no-deps", ANCHORS_PIN], check=True)
        site = next(iter(sorted(ANCHORS_VENV.glob("lib/python*/site-packages"))))
    return str(site)


def collection_version(site: str, name: str) -> str:
    manifest = Path(site) / "ansible_collections" / name.replace(".", "/") / "MANIFEST.json"
    return json.loads(manifest.read_text())["collection_info"]["version"]


# What a run of ansible-playbook does once per module on the controller: find the module_utils its imports reach
# (parsing each of them) and pack them with the module into the AnsiballZ payload. One fresh process per build.
BUILD = """
import json, os, sys, time
from ansible.executor import module_common
from ansible.plugins.loader import init_plugin_loader, module_loader
from ansible.template import Templar
init_plugin_loader(os.environ["ANSIBLE_COLLECTIONS_PATH"].split(os.pathsep))
path = module_loader.find_plugin_with_context(sys.argv[1]).plugin_resolved_path
began = time.process_time()
built = module_common.modify_module(module_name=sys.argv[1], module_path=path, module_args={}, templar=Templar(loader=None),
                                    task_vars={"ansible_python_interpreter": sys.executable})
print(json.dumps({"build_cpu_s": time.process_time() - began, "payload_bytes": len(built.b_module_data)}))
"""


def parse_importtime(text: str) -> dict:
    """Totals of a ``-X importtime`` log, in seconds: all imports, kubernetes, openstack (cumulative), own and ansible (self)."""
    total = nfv = ansible = 0
    packages = {"kubernetes": 0, "openstack": 0}
    for line in text.splitlines():
        found = IMPORT_LINE.match(line)
        if not found:
            continue
        own, cumulative, name = int(found.group(1)), int(found.group(2)), found.group(4)
        total += own
        if name in packages:
            packages[name] += cumulative
        if name.startswith("ansible_collections.nfv.vnflcm"):
            nfv += own
        elif name.startswith("ansible.") or name == "ansible":
            ansible += own
    return {"imports_s": total / 1e6, "kubernetes_s": packages["kubernetes"] / 1e6, "openstacksdk_s": packages["openstack"] / 1e6,
            "collection_own_s": nfv / 1e6, "ansible_own_s": ansible / 1e6}


def timed(command: list[str], env: dict) -> dict:
    """Run ``command``; its wall time, CPU time (user + sys of it and all it waited for), rc and output."""
    began = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    stdout, stderr = process.communicate()
    wall = time.monotonic() - began
    # communicate() reaped it: its rusage is in RUSAGE_CHILDREN of this process, taken around each run.
    return {"wall_s": wall, "rc": process.returncode, "stdout": stdout.decode(errors="replace"), "stderr": stderr.decode(errors="replace")}


def cpu_of(run) -> tuple[dict, float]:
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = run()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return result, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


class Caller:
    """Builds and runs module calls with one collections path and environment."""

    def __init__(self, work: Path, collections: str, env: dict):
        self.work, self.collections = work, collections
        work.mkdir(parents=True, exist_ok=True)
        self.env = dict(env, ANSIBLE_COLLECTIONS_PATH=collections, ANSIBLE_LOCALHOST_WARNING="false",
                        ANSIBLE_INVENTORY_UNPARSED_WARNING="false", ANSIBLE_PYTHON_INTERPRETER=sys.executable)
        self.count = 0

    def ansiballz(self, module: str, args: dict, check: bool = False) -> Path:
        """The AnsiballZ file Ansible runs for this call (its arguments inside), kept from one ad-hoc run."""
        self.count += 1
        remote = self.work / "remote-{0}".format(self.count)
        command = [str(BIN / "ansible"), "localhost", "-m", module, "-a", json.dumps(args)] + (["--check"] if check else [])
        subprocess.run(command, env=dict(self.env, ANSIBLE_KEEP_REMOTE_FILES="1", ANSIBLE_REMOTE_TMP=str(remote)),
                       capture_output=True, check=False)
        found = sorted(remote.glob("*/AnsiballZ_*.py"))
        if not found:
            raise SystemExit("no AnsiballZ file for {0} {1}".format(module, args))
        return found[0]

    def build(self, module: str) -> dict:
        """CPU time of building the module's AnsiballZ payload on the controller, and the payload's size."""
        done = subprocess.run([sys.executable, "-c", BUILD, module], capture_output=True, text=True, env=self.env, check=True)
        return json.loads(done.stdout)

    def run_ansiballz(self, path: Path, importtime: bool = False) -> dict:
        command = [sys.executable] + (["-X", "importtime"] if importtime else []) + [str(path)]
        result, cpu = cpu_of(lambda: timed(command, self.env))
        out = {"wall_s": round(result["wall_s"], 3), "cpu_s": round(cpu, 3)}
        try:
            answer = json.loads(result["stdout"])
            out["failed"] = bool(answer.get("failed"))
            if answer.get("failed"):
                out["msg"] = str(answer.get("msg"))[:160]
        except ValueError:
            out["failed"], out["msg"] = True, (result["stdout"] + result["stderr"])[-300:]
        if importtime:
            out.update({key: round(value, 4) for key, value in parse_importtime(result["stderr"]).items()})
        return out

    def playbook(self, module: str, args: dict) -> dict:
        """One task through ansible-playbook: wall and CPU of the whole run."""
        self.count += 1
        playbook = self.work / "play-{0}.yml".format(self.count)
        playbook.write_text(json.dumps([{"hosts": "localhost", "connection": "local", "gather_facts": False,
                                         "tasks": [{"name": "call", module: args}]}]))
        result, cpu = cpu_of(lambda: timed([str(BIN / "ansible-playbook"), str(playbook)], self.env))
        if result["rc"]:
            raise SystemExit("ansible-playbook {0} failed:\n{1}".format(module, result["stdout"][-3000:]))
        return {"wall_s": round(result["wall_s"], 3), "cpu_s": round(cpu, 3)}


def module_calls(vim: str, connection: dict, namespace: str | None) -> dict:
    """Per module, ``(arguments, check mode)`` of a call on this VIM that needs no instance of its own."""
    absent = dict(connection, vnf_instance_name="absent-vnf", **({"namespace": namespace} if namespace else {}))
    if vim == "kubernetes":
        package = str(FIXTURES / "test_cnf_multi_ns")
        instantiate = {"flavourId": "simple", "additionalParams": {
            "namespace": namespace, "lcm-kubernetes-def-files": ["Files/kubernetes/deployment_no_namespace.yaml"]}}
    else:
        package = str(FIXTURES / "userdata_standard")
        instantiate = {"flavourId": "simple", "instantiationLevelId": "instantiation_level_1"}
    return {
        "vnf_info": (dict(connection, **({"namespace": namespace} if namespace else {})), False),
        "vnf_instantiate": (dict(connection, vim_type=vim, package=package, vnf_instance_name="call-cost", request=instantiate), True),
        "vnf_scale": (dict(absent, request={"type": "SCALE_OUT", "aspectId": "vdu1_aspect"}), False),
        "vnf_scale_to_level": (dict(absent, request={"instantiationLevelId": "instantiation_level_2"}), False),
        "vnf_heal": (dict(absent, request={}), False),
        "vnf_terminate": (dict(absent, request={"terminationType": "FORCEFUL"}), False),
        "vnf_delete": (dict(absent), False),
        "vnf_change_ext_conn": (dict(absent, request={"extVirtualLinks": []}), False),
        "vnf_modify": (dict(absent, request={"vnfInstanceName": "renamed"}), False),
        "vnf_lcm_op_occ": (dict(absent, action="retry"), False),
        "vnf_change_pkg": (dict(absent, package=package, request={"vnfdId": "00000000-0000-0000-0000-000000000000"}), False),
        "vnf_package_info": ({"path": package}, False),
    }


def med(values):
    return round(statistics.median(values), 3)


def import_costs(callers: dict, vims: dict, rounds: int) -> dict:
    """``{variant: {vim: {module: medians}}}`` of the AnsiballZ runs under -X importtime."""
    out = {}
    for vim, (connection, namespace) in vims.items():
        calls = module_calls(vim, connection, namespace)
        for module, (args, check) in calls.items():
            if module == "vnf_package_info" and vim != "kubernetes":
                continue  # no VIM: measured once
            files = {name: caller.ansiballz("nfv.vnflcm." + module, args, check) for name, caller in callers.items()}
            for name, caller in callers.items():
                runs = [caller.run_ansiballz(files[name], importtime=True) for _ in range(rounds)]
                entry = {key: med([run[key] for run in runs]) for key in runs[0] if key.endswith("_s")}
                entry["failed"] = runs[-1]["failed"]
                if runs[-1].get("msg"):
                    entry["msg"] = runs[-1]["msg"]
                label = "none" if module == "vnf_package_info" else vim
                out.setdefault(name, {}).setdefault(label, {})[module] = entry
                print("imports {0:8} {1:10} {2:18} {3}".format(name, label, module, entry), file=sys.stderr)
    return out


def build_costs(callers: dict, anchored: "Caller", rounds: int) -> dict:
    """``{variant: {module: {payload_bytes, build_cpu_s}}}``: what the controller builds for every module of the collection,
    and for the kubernetes.core modules the one-step scale and the read are weighed against (variant ``anchor``);
    build CPU the median of ``rounds`` fresh builds, the variants alternating."""
    modules = sorted("nfv.vnflcm." + path.stem for path in (ROOT / "plugins" / "modules").glob("vnf_*.py"))
    sides = [(name, caller, modules) for name, caller in callers.items()] + [("anchor", anchored, ["kubernetes.core.k8s_scale",
                                                                                                   "kubernetes.core.k8s_info"])]
    runs = {}
    for number in range(rounds):
        for name, caller, names in (sides if number % 2 == 0 else sides[::-1]):
            for module in names:
                runs.setdefault(name, {}).setdefault(module, []).append(caller.build(module))
    out = {name: {module: {"payload_bytes": built[0]["payload_bytes"], "build_cpu_s": med([run["build_cpu_s"] for run in built])}
                  for module, built in per_module.items()} for name, per_module in runs.items()}
    print("builds: {0}".format(json.dumps(out)), file=sys.stderr)
    return out


def anchor_costs(pairs: dict, rounds: int) -> dict:
    """Per VIM, ours (current and before) against the anchor: the module process alone, a one-task ansible-playbook
    and the controller's build of the payload, alternating. ``pairs``: ``{vim: {side: (caller, module, args)}}``."""
    out = {}
    for vim, sides in pairs.items():
        files = {side: caller.ansiballz(module, args) for side, (caller, module, args) in sides.items()}
        for side, path in files.items():
            probe = sides[side][0].run_ansiballz(path)
            if probe["failed"]:
                raise SystemExit("{0} {1} failed: {2}".format(vim, side, probe.get("msg")))
        runs = {side: {"process": [], "playbook": [], "build": []} for side in sides}
        for number in range(rounds):
            order = list(sides) if number % 2 == 0 else list(sides)[::-1]
            for side in order:
                caller, module, args = sides[side]
                runs[side]["process"].append(caller.run_ansiballz(files[side]))
                runs[side]["playbook"].append(caller.playbook(module, args))
                runs[side]["build"].append(caller.build(module))
        summary = {}
        for side in sides:
            summary[side] = {"module": sides[side][1], "payload_bytes": runs[side]["build"][0]["payload_bytes"],
                             "build_cpu_s": med([run["build_cpu_s"] for run in runs[side]["build"]])}
            for how in ("process", "playbook"):
                for metric in ("wall_s", "cpu_s"):
                    values = [run[metric] for run in runs[side][how]]
                    summary[side]["{0}_{1}".format(how, metric)] = med(values)
                    summary[side]["{0}_{1}_range".format(how, metric)] = [min(values), max(values)]
        anchor = summary["anchor"]
        for side in ("ours", "before"):
            summary["ratio" if side == "ours" else "ratio_before"] = {
                key: round(summary[side][key] / anchor[key], 2) for key in summary[side] if key.endswith("_s") and anchor[key]}
        out[vim] = {"summary": summary, "runs": runs}
        print("anchor {0}: {1}".format(vim, json.dumps(summary)), file=sys.stderr)
    return out


def openstack_up() -> bool:
    lab = OPENSTACK_STATE / "clouds.yaml"
    if not lab.exists():
        return False
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "lab" / "openstack" / "lab.py"), "status"], capture_output=True, check=False)
    return done.returncode == 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=9, help="calls per side against the anchors")
    parser.add_argument("--import-rounds", type=int, default=3, help="-X importtime runs per module, VIM and variant")
    parser.add_argument("--before", default="HEAD", help="git revision of the 'before' variant")
    parser.add_argument("--no-openstack", action="store_true")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = parser.parse_args(argv)
    current = os.environ.get("ANSIBLE_COLLECTIONS_PATH")
    if not current:
        raise SystemExit("ANSIBLE_COLLECTIONS_PATH is not set: run `make stage` and point it at the staged collections dir")
    lab = Lab()
    if not lab.is_up():
        raise SystemExit("the Kubernetes lab is not up: tools/lab/k8s/lab.py up")
    anchors = anchors_collections()
    stamp = datetime.datetime.now(datetime.timezone.utc)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("K8S_AUTH_", "OS_"))}
    with_openstack = not args.no_openstack and openstack_up()
    if with_openstack:
        env["OS_CLIENT_CONFIG_FILE"] = str(OPENSTACK_STATE / "clouds.yaml")
    api = lab.api()
    namespace = "call-cost-" + stamp.strftime("%H%M%S")
    api.call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespace}})
    kube = {"kubeconfig": str(lab.kubeconfig)}
    cloud = {"cloud": "nfvlab"}
    with tempfile.TemporaryDirectory(prefix="call-cost-") as tmp:
        work = Path(tmp)
        before = str(stage_revision(args.before, work / "before"))
        callers = {"before": Caller(work / "b", before, env), "current": Caller(work / "c", current, env)}
        anchored = Caller(work / "a", current + os.pathsep + anchors, env)
        before_anchored = Caller(work / "ba", before + os.pathsep + anchors, env)
        try:
            # One CNF in the namespace, so that both sides of the Kubernetes read find one record.
            anchored.playbook("nfv.vnflcm.vnf_instantiate", dict(kube, package=str(FIXTURES / "test_cnf_multi_ns"), vnf_instance_name="call-cost",
                                                                 request={"flavourId": "simple", "additionalParams": {
                                                                     "namespace": namespace,
                                                                     "lcm-kubernetes-def-files": ["Files/kubernetes/deployment_no_namespace.yaml"]}}))
            vims = {"kubernetes": (kube, namespace)}
            pairs = {"kubernetes": {"ours": (anchored, "nfv.vnflcm.vnf_info", dict(kube, namespace=namespace)),
                                    "before": (before_anchored, "nfv.vnflcm.vnf_info", dict(kube, namespace=namespace)),
                                    "anchor": (anchored, "kubernetes.core.k8s_info", dict(kube, kind="Secret", namespace=namespace,
                                                                                          label_selectors=[RECORD_LABEL]))}}
            if with_openstack:
                vims["openstack"] = (cloud, None)
                pairs["openstack"] = {"ours": (anchored, "nfv.vnflcm.vnf_info", dict(cloud)),
                                      "before": (before_anchored, "nfv.vnflcm.vnf_info", dict(cloud)),
                                      "anchor": (anchored, "openstack.cloud.stack_info", dict(cloud))}
            builds = build_costs(callers, anchored, args.import_rounds)
            imports = import_costs(callers, vims, args.import_rounds)
            anchor = anchor_costs(pairs, args.rounds)
        finally:
            api.request("DELETE", "/api/v1/namespaces/" + namespace)
    report = {"benchmark": "module_call_cost", "date": stamp.isoformat(timespec="seconds"), "before": args.before,
              "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "system": platform.platform(),
                          "load_average": os.getloadavg()},
              "anchors": {"ansible_package": ANCHORS_PIN, "kubernetes.core": collection_version(anchors, "kubernetes.core"),
                          "openstack.cloud": collection_version(anchors, "openstack.cloud")},
              "settings": {"rounds": args.rounds, "import_rounds": args.import_rounds, "openstack": with_openstack},
              "builds": builds, "imports": imports, "anchor": {vim: value["summary"] for vim, value in anchor.items()},
              "anchor_runs": {vim: value["runs"] for vim, value in anchor.items()}}
    print_tables(report)
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "module_call_cost-{0}.json".format(stamp.strftime("%Y-%m-%d"))
    path.write_text(json.dumps(report, indent=1) + "\n")
    print("written:", path)
    ratios.regenerate(path)
    return 0


def print_tables(report: dict) -> None:
    builds = report["builds"]
    print("\n{0:32} {1:>22} {2:>18}".format("module", "payload bytes (bef→cur)", "build CPU s"))
    for module, entry in builds["current"].items():
        old = builds["before"].get(module) or {"payload_bytes": 0, "build_cpu_s": 0}
        sizes = "{0} → {1}".format(old["payload_bytes"], entry["payload_bytes"])
        print("{0:32} {1:>22} {2:>18}".format(module, sizes, "{0:.3f} → {1:.3f}".format(old["build_cpu_s"], entry["build_cpu_s"])))
    for module, entry in builds["anchor"].items():
        print("{0:32} {1:>22} {2:>18}".format(module, entry["payload_bytes"], "{0:.3f}".format(entry["build_cpu_s"])))
    print("\n{0:10} {1:18} {2:>22} {3:>22} {4:>22} {5:>18}".format("VIM", "module", "imports s (bef→cur)", "kubernetes s", "openstacksdk s", "CPU s"))
    before, current = report["imports"]["before"], report["imports"]["current"]
    for vim in current:
        for module, entry in current[vim].items():
            old = before[vim][module]
            print("{0:10} {1:18} {2:>22} {3:>22} {4:>22} {5:>18}".format(vim, module, *(
                "{0:.3f} → {1:.3f}".format(old[key], entry[key]) for key in ("imports_s", "kubernetes_s", "openstacksdk_s", "cpu_s"))))
    for vim, summary in report["anchor"].items():
        print("\n{0}: {1} (before, current) against {2}".format(vim, summary["ours"]["module"], summary["anchor"]["module"]))
        for key in ("process_wall_s", "process_cpu_s", "playbook_wall_s", "playbook_cpu_s", "build_cpu_s"):
            print("  {0:16} {1:>7.3f} {2:>7.3f} {3:>7.3f}  ratio {4} (before {5})".format(
                key, summary["before"][key], summary["ours"][key], summary["anchor"][key], summary["ratio"].get(key), summary["ratio_before"].get(key)))
        print("  payload bytes    {0:>7} {1:>7} {2:>7}".format(summary["before"]["payload_bytes"], summary["ours"]["payload_bytes"],
                                                             summary["anchor"]["payload_bytes"]))


if __name__ == "__main__":
    sys.exit(main())
