# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every Kubernetes example of the modules' EXAMPLES, run as written on the lab: one lifecycle, one ansible-playbook run.

The examples' tasks are taken from the modules' EXAMPLES (``yaml.safe_load`` of each block) and run unchanged but for
what stands for the operator's environment (tests/integration/module_examples.py):

==========================================  ==============================================================================
in the examples                             here
==========================================  ==============================================================================
``/srv/packages/<name>``                    Tacker's package ``<name>`` (NFV_FIXTURES_DIR), through a folder of links
``tenant-a``                                the test's namespace (k8s_namespace)
connection, waiting options                 ``module_defaults`` for ``group/nfv.vnflcm.vnflcm``: the namespace's own
                                            ServiceAccount's kubeconfig (k8s_tenant), ``wait_timeout``, ``wait_sleep``
``lookup('ansible.builtin.file', ...)``     Tacker's request files (requests/sol_kubernetes_v2/test_vnflcm_basic) in the
                                            playbook's folder, ``https://K8S_API_HOST:6443`` the lab's API server URL (as
                                            Tacker's paramgen fills it)
==========================================  ==============================================================================

The scenario: cnf1 (Tacker's container-update "before" package) is planned, instantiated, scaled, healed, updated to the
"after" package (a first attempt, while no new pod can start, is rolled back), failed while a heal of it hangs, then
terminated and deleted; cnf2 (test_instantiate_cnf_resources, Tacker's request file) is instantiated by a retry, after an
attempt whose runner was killed (rolled back) and one that failed, changes package (test_change_vnf_pkg_with_deployment),
and is terminated and deleted in one task; the instance Tacker's create.json names is renamed cnf3, and its terminate is
held by a finalizer; helm1 (Tacker's Helm-chart package, ``/srv/packages/test_helm_instantiate``, with the lab's helm on
PATH) is instantiated, scaled out and terminated.

Setup tasks between the examples bring about what no example does: a ResourceQuota that holds the namespace's pods (so
an operation waits, or times out, with a short wait_timeout of its own), an operation's runner killed or stopped while it
waits (through the lease in its op occ), a finalizer nobody removes. They use the lab's admin kubeconfig.
"""

from __future__ import annotations

import json
import os
import signal

from ansible_collections.nfv.vnflcm.tests.integration.module_examples import Example, Setup, helper, localize, problems, run_scenario, timings

REQUESTS = os.path.join("requests", "sol_kubernetes_v2", "test_vnflcm_basic")
REQUEST_FILES = ("create.json", "min_sample_instantiate.json", "error_handling_instantiate.json")
ADMIN = "{{ examples_admin_kubeconfig }}"
NS = "{{ examples_namespace }}"
HELM_PACKAGE = "test_helm_instantiate"
CNF2 = ("vnf_instantiate", "Use a request file written for Tacker, its placeholders filled (its vimConnectionInfo is recorded without its token)")
TACKER_ENDPOINT = "https://K8S_API_HOST:6443"
# The lab's API server URL, which fills TACKER_ENDPOINT in the request files (set by the test).
LAB_SERVER = {}
UPDATE = ("vnf_modify", "Update containers to a new package, restarting only the pods that need it")
# A setup operation that is to fail (a wait_timeout of its own, too short for pods that cannot start): FAILED_TEMP, or the
# setup task fails.
FAILED_TEMP = {"register": "examples_failed",
               "failed_when": "examples_failed.vnf_lcm_op_occ.operationState | default('') != 'FAILED_TEMP'"}


def hold_pods(count):
    """A ResourceQuota of ``count`` pods in the namespace (``none`` removes it): no new pod can start."""
    return {"ansible.builtin.command": {"argv": helper("k8s-hold-pods", ADMIN, NS, count)}, "changed_when": True}


def signal_runner(name, signum, **keys):
    """Once the CNF's op occ is PROCESSING, ``signum`` to the module process its lease names."""
    return dict({"ansible.builtin.command": {"argv": helper("k8s-signal", ADMIN, NS, name, signum)}, "changed_when": True}, **keys)


def finalizer(action):
    """A finalizer nobody removes, on cnf3's Pod (added, or removed again)."""
    return {"ansible.builtin.command": {"argv": helper("k8s-finalizer", ADMIN, NS, "api/v1/pods", "vdu1", action)}, "changed_when": True}


def op_occ(operation):
    def check(result):
        assert result["vnf_lcm_op_occ"]["operation"] == operation, result["vnf_lcm_op_occ"]
    return check


def instances(*names):
    def check(result):
        assert sorted(item["vnfInstanceName"] for item in result["vnf_instances"]) == sorted(names), result["vnf_instances"]
    return check


def no_drift(result):
    assert [(item["vnfInstanceName"], item["drifted"], item["compared"]) for item in result["drift"]] == [("cnf1", 0, "fields")], result["drift"]


def nothing_to_repair(result):
    assert result["plan"]["drift"] == "0 objects" and result["plan"]["repair"] == [], result["plan"]


def vdu_names(result):
    assert result["msg"][:2] == ["vdu1-update", "vdu2-update"], result["msg"]


def planned(result):
    assert result["plan"]["namespace_reason"] == "request" and result["vnf_instance"]["instantiationState"] == "NOT_INSTANTIATED", result["plan"]


def token_not_recorded(result):
    vim = result["vnf_instance"]["vimConnectionInfo"]["vim1"]
    assert "accessInfo" not in vim and vim["interfaceInfo"] == {"endpoint": LAB_SERVER["url"]}, vim


def created_as_tacker(result):
    instance = result["vnf_instance"]
    assert instance["vnfInstanceName"] == "test_instantiate_cnf_resources" and instance["metadata"]["dummy-key"] == "dummy-val", instance


def renamed(result):
    instance = result["vnf_instance"]
    assert instance["vnfInstanceName"] == "cnf3" and instance["metadata"]["owner"] == "team-b" and "dummy-key" not in instance["metadata"], instance


def level_2(result):
    levels = {item["aspectId"]: item["scaleLevel"] for item in result["vnf_instance"]["instantiatedVnfInfo"]["scaleStatus"]}
    assert levels == {"vdu1_aspect": 2, "vdu2_aspect": 2}, levels


def restarted(result):
    assert result["msg"] == ["vdu1-update"], result["msg"]


def new_package(result):
    assert result["vnf_instance"]["vnfdId"] == "616e3b0e-cde7-4f3a-bf0d-7e5cd0f3e3f1", result["vnf_instance"]["vnfdId"]
    assert result["plan"]["summary"]["update"] == ["Deployment/vdu2"], result["plan"]["summary"]


def deleted(result):
    assert any(item["name"] == "vnflcm-" + result["vnf_instance"]["id"] for item in result["deleted"]), result["deleted"]


def helm_release(result):
    vim = result["vnf_instance"]["vimConnectionInfo"]["vim1"]
    assert vim["vimType"] == "ETSINFV.HELM.V_3" and result["plan"]["chart"] == "Files/kubernetes/test-chart-0.1.0.tgz", (vim, result["plan"])


def vdu2_out(result):
    vdu2 = [item for item in result["vnf_instance"]["instantiatedVnfInfo"]["vnfcResourceInfo"] if item["vduId"] == "VDU2"]
    assert len(vdu2) == 2, vdu2


def left_behind(result):
    assert [item.split(" ")[0] for item in result["left_behind"]] == ["Pod/vdu1"], result["left_behind"]


SCENARIO = [
    Example("vnf_package_info", "Read a CNF package", changed=False),
    Example("vnf_package_info", "Show the VDUs of the \"simple\" flavour and their Kubernetes resource names", check=vdu_names),

    # cnf2: an instantiate whose runner is killed while it waits for pods (rolled back), then one that times out
    # (FAILED_TEMP), retried once pods can start again.
    Setup("hold the namespace's pods", hold_pods(0)),
    Setup("instantiate cnf2 in the background", like=CNF2, **{"async": 600, "poll": 0}),
    Setup("kill its runner", signal_runner("cnf2", "SIGKILL")),
    Example("vnf_lcm_op_occ", "Take over an instantiate whose job was killed (its runner is gone), and roll it back",
            changed=True, state="ROLLED_BACK", check=op_occ("INSTANTIATE")),
    Setup("instantiate cnf2 while no pod can start", like=CNF2, args={"wait_timeout": 3}, **FAILED_TEMP),
    Setup("let pods start", hold_pods("none")),
    Example("vnf_lcm_op_occ", "Or retry a failed instantiate, once the cause is fixed (its retry needs the package)",
            changed=True, state="COMPLETED", check=op_occ("INSTANTIATE")),

    Example("vnf_instantiate", "Show the plan first (the objects, in which namespace), writing nothing", changed=True, check=planned),
    Example("vnf_instantiate", "Instantiate a CNF into the namespace the request names", changed=True, state="COMPLETED"),
    # cnf2 is instantiated (by the retry) with this request: nothing to do.
    Example(*CNF2, changed=False, check=token_not_recorded),
    Example("vnf_instantiate", "Tacker's two requests as they are, create.json (name, description, metadata) then the InstantiateVnfRequest",
            changed=True, state="COMPLETED", check=created_as_tacker),
    Example("vnf_info", "All VNF instances of a namespace", check=instances("cnf1", "cnf2", "test_instantiate_cnf_resources")),
    Example("vnf_info", "One instance", check=instances("cnf1")),
    Example("vnf_info", "What changed behind the VNF manager's back", check=no_drift),
    Example("vnf_info", "Say what drifted"),
    Example("vnf_instantiate", "Repair what was changed in cnf1 behind the VNF manager's back (the same package and request; nothing to do when "
            "nothing drifted)", changed=False, check=nothing_to_repair),
    Example("vnf_scale", "Scale out one step", changed=True, state="COMPLETED"),
    Example("vnf_scale_to_level", "Scale a CNF to an instantiation level of its flavour", changed=True, state="COMPLETED", check=level_2),
    Example("vnf_heal", "Heal one VNFC", changed=True, state="COMPLETED"),
    Example("vnf_heal", "Heal the whole VNF (every VNFC)", changed=True, state="COMPLETED"),
    Example("vnf_heal", "Repair what drifted in cnf1 as its record says, replacing no VNFC (nothing to do when nothing drifted)", changed=False,
            check=nothing_to_repair),
    Example("vnf_modify", "Rename an instance and merge metadata", changed=True, state="COMPLETED", check=renamed),

    # cnf1's container update, first while no new pod can start: FAILED_TEMP, rolled back.
    Setup("hold the namespace's pods", hold_pods(0)),
    Setup("update cnf1's containers while no new pod can start", like=UPDATE, args={"wait_timeout": 3}, **FAILED_TEMP),
    Setup("let pods start", hold_pods("none")),
    Example("vnf_lcm_op_occ", "Roll back the failed container update of cnf1", changed=True, state="ROLLED_BACK",
            check=op_occ("MODIFY_INFO")),
    Example(*UPDATE, changed=True, state="COMPLETED"),
    Example("vnf_modify", "Show what restarted and why", check=restarted),
    Example("vnf_change_pkg", "Change a CNF's package with Tacker's request, VDU2's Deployment rolling to the new def file (a new image)",
            changed=True, state="COMPLETED", check=new_package),

    # A heal of cnf1 whose runner hangs (stopped) while it waits for pods that cannot start; killed once failed.
    Setup("hold the namespace's pods", hold_pods(0)),
    Setup("heal cnf1 in the background", {
        "nfv.vnflcm.vnf_heal": {"vnf_instance_name": "cnf1", "namespace": "tenant-a", "request": {}}, "async": 600, "poll": 0}),
    Setup("stop its runner", signal_runner("cnf1", "SIGSTOP", register="examples_stopped")),
    Example("vnf_lcm_op_occ", "Fail an operation whose runner hangs on a host that will not come back, without waiting for its lease",
            changed=True, state="FAILED", check=op_occ("HEAL")),
    Setup("kill the stopped runner", {"ansible.builtin.command": {"argv": helper("kill", "{{ (examples_stopped.stdout | from_json).pid }}")},
                                      "changed_when": True}),
    Setup("let pods start", hold_pods("none")),

    Example("vnf_terminate", "Terminate gracefully", changed=True, state="COMPLETED"),
    # cnf1 is terminated: nothing to do, then its identifier goes.
    Example("vnf_delete", "Terminate a CNF, then delete its identifier", changed=False),
    Example("vnf_delete", "Delete the identifier of the terminated CNF", changed=True, check=deleted),
    Example("vnf_terminate", "Terminate a CNF and delete its identifier in one task", changed=True, state="COMPLETED", check=deleted),

    # cnf3's Pod held by a finalizer nobody removes: its terminate stops FAILED_TEMP.
    Setup("hold cnf3's Pod with a finalizer", finalizer("add")),
    Example("vnf_terminate", "Terminate a CNF; an object held by a finalizer nobody removes ends it FAILED_TEMP, naming the object",
            failed=True, state="FAILED_TEMP"),
    Example("vnf_lcm_op_occ", "End a terminate stuck on an object held by a finalizer; the instance goes NOT_INSTANTIATED listing what is left",
            changed=True, state="FAILED", check=op_occ("TERMINATE")),
    # The same action on the same op occ, already FAILED: reported unchanged.
    Example("vnf_terminate", "End that terminate; the instance is NOT_INSTANTIATED, its record listing what is still there",
            changed=False, state="FAILED"),
    Example("vnf_terminate", "Delete the identifier; left_behind names the objects still held", changed=True, check=left_behind),
    Setup("release the finalizer", finalizer("remove")),

    # helm1, from Tacker's Helm-chart package, with the helm on PATH (the lab's).
    Example("vnf_instantiate", "Instantiate a CNF from its package's Helm chart, as Tacker's ETSINFV.HELM.V_3 request asks (helm on PATH, else helm_binary)",
            changed=True, state="COMPLETED", check=helm_release),
    Example("vnf_scale", "Scale a CNF made from a Helm chart (a helm upgrade of the VDU's replica value, the other values kept)",
            changed=True, state="COMPLETED", check=vdu2_out),
    Example("vnf_terminate", "Terminate a CNF made from a Helm chart (helm uninstall, its objects waited gone) and delete its identifier",
            changed=True, state="COMPLETED", check=deleted),
]


def test_every_kubernetes_example_runs_as_written(k8s_lab, k8s_tenant, tacker_packages, tacker_helm, helm_binary, tmp_path):
    from labk8s import kubeapi  # tools/lab/k8s (conftest.py puts it on the path); not imported with the SCENARIO

    namespace = k8s_tenant.namespace
    packages = tmp_path / "packages"
    packages.mkdir()
    for name in os.listdir(tacker_packages):
        if os.path.isdir(os.path.join(tacker_packages, name, "TOSCA-Metadata")):
            os.symlink(os.path.join(tacker_packages, name), packages / name)
    os.symlink(os.path.join(tacker_helm, HELM_PACKAGE), packages / HELM_PACKAGE)
    play = tmp_path / "play"
    play.mkdir()
    LAB_SERVER["url"] = kubeapi.Api(k8s_lab.kubeconfig).server
    for name in REQUEST_FILES:
        with open(os.path.join(tacker_packages, REQUESTS, name)) as handle:
            (play / name).write_text(handle.read().replace(TACKER_ENDPOINT, LAB_SERVER["url"]))
    defaults = {"kubeconfig": str(k8s_tenant.kubeconfig), "wait_timeout": 120, "wait_sleep": 1}
    play_vars = {"examples_admin_kubeconfig": str(k8s_lab.kubeconfig), "examples_namespace": namespace}
    env = {"NFV_LAB_TOOLS_DIR": os.path.dirname(os.path.dirname(os.path.abspath(kubeapi.__file__))),
           "PATH": os.path.dirname(helm_binary.path) + os.pathsep + os.environ.get("PATH", os.defpath)}

    pairs, done = run_scenario(tmp_path, SCENARIO, defaults, play_vars, env,
                               localized=lambda task: localize(task, str(packages), namespace=namespace))
    clean_up(pairs, kubeapi.Api(k8s_lab.kubeconfig), namespace)
    print("\n".join("{0:6.1f} s  {1}".format(*item) for item in timings(pairs)[:10]))
    found = problems(pairs, done)
    assert not found, "\n".join(found)


def clean_up(pairs, kube, namespace):
    """What a play that stopped half-way leaves: the runner it stopped (still stopped, so its PID is still its own), the
    finalizer on cnf3's Pod (the namespace could not go)."""
    records = {repr(entry): record for entry, record in pairs}
    stopped = records["setup: stop its runner"]
    if stopped and records["setup: kill the stopped runner"] is None:
        os.kill(json.loads(stopped["result"]["stdout"])["pid"], signal.SIGKILL)
    if records["setup: release the finalizer"] is None:
        kube.request("PATCH", "/api/v1/namespaces/{0}/pods/vdu1".format(namespace), {"metadata": {"finalizers": None}},
                     headers={"Content-Type": "application/merge-patch+json"})
