# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""No credential given to the role is ever printed: every entry point (nfv.vnflcm.<operation>) runs with a distinct
secret in each place a credential can be, through ansible-playbook at -vvv with a log file (ANSIBLE_LOG_PATH) and as
an AWX job through ansible-runner at verbosity 3, and no output, log, artifact or job event holds any of them,
plain or base64. (Verbosity 0 prints less of the same, and the job events are the same at any verbosity: a job at 0
beside it took a third of the test's time and found nothing the other could not.)

The places: the request's vimConnectionInfo (accessInfo password and bearer_token, a password in the interfaceInfo
endpoint URL), change_vnfpkg's vdu_params (old and new VNFC password), the connection (an in-memory kubeconfig with
the tenant's token; a client certificate and key; for ansible-runner the token as AWX's bearer token credential
injects it) and an OpenStack connection (a clouds.yaml-style cloud with a password). Every LCM hook is set, so that
the hooks' variables (which carry the request) are passed too.

Each driver runs every entry point, a CNF's whole life: instantiate, info, modify, change_vnfpkg and change_ext_conn
(these two fail after their preamble and hooks ran), scale, scale_to_level, heal, op_occ (which finds nothing to act
on), terminate and delete. info also runs with the other connection forms."""

from __future__ import annotations

import base64
import os
import secrets
import time

import yaml

from ansible_collections.nfv.vnflcm.tests.integration.playbook_runs import (
    PlaybookDriver,
    RunnerDriver,
    bearer_token_inputs,
    kubernetes_bearer_token,
)
from ansible_collections.nfv.vnflcm.tests.integration.secret_leaks import leaks, report

INSTANCE = "role-secrets-cnf"
HOOKS = ("instantiate", "scale", "scale_to_level", "heal", "modify_information", "change_current_package", "change_external_connectivity",
         "terminate")
HOOK_TASKS = """- name: Hook ran
  ansible.builtin.debug:
    msg: "hook {{ vnf_lifecycle_hook_name }} of {{ vnf_lifecycle_hook_operation }} ({{ vnf_lifecycle_hook_phase }})"
"""
# ansible-runner's project has a playbook for each operation the playbook_runs driver knows; this one is added.
CHANGE_EXT_CONN_PROJECT = [{"name": "VNF change_ext_conn", "ansible.builtin.import_playbook": "nfv.vnflcm.change_ext_conn"}]


def new_secret(label):
    return "{0}-{1}".format(label.replace(" ", "-"), secrets.token_hex(10))


def kubeconfig(server, ca_data, user, namespace):
    return {"apiVersion": "v1", "kind": "Config", "current-context": "role-secrets",
            "clusters": [{"name": "lab", "cluster": {"server": server, "certificate-authority-data": ca_data}}],
            "contexts": [{"name": "role-secrets", "context": {"cluster": "lab", "user": "role-secrets", "namespace": namespace}}],
            "users": [{"name": "role-secrets", "user": user}]}


def entry_points(namespace, package, secret, hooks, server):
    """``[(operation, variables, expected status or None)]``: the entry points the test runs, in the order it runs them; the
    request's VIM entry names ``server``, the one the role connects to."""
    vim = {"vim1": {"vimType": "kubernetes",
                    "interfaceInfo": {"endpoint": server.replace("://", "://vim-user:{0}@".format(secret["interfaceInfo URL password"]), 1)},
                    "accessInfo": {"username": "vim-user", "password": secret["accessInfo password"],
                                   "bearer_token": secret["accessInfo bearer_token"]}}}
    record = {"vnf_lifecycle_instance_name": INSTANCE, "vnf_lifecycle_namespace": namespace, "vnf_lifecycle_wait_timeout": 120,
              "vnf_lifecycle_wait_sleep": 1, "vnf_lifecycle_hooks": hooks}
    return [
        ("instantiate", dict(record, vnf_lifecycle_package=package, vnf_lifecycle_request={
            "flavourId": "simple", "vimConnectionInfo": vim,
            "additionalParams": {"namespace": namespace, "lcm-kubernetes-def-files": ["Files/kubernetes/deployment_no_namespace.yaml"]}}),
         "successful"),
        ("info", record, "successful"),
        ("modify", dict(record, vnf_lifecycle_request={"vnfInstanceDescription": "role secrets", "vimConnectionInfo": vim}), "successful"),
        ("change_vnfpkg", dict(record, vnf_lifecycle_package=package, vnf_lifecycle_request={
            "vnfdId": "no-such-vnfd", "vimConnectionInfo": vim, "additionalParams": {"upgrade_type": "RollingUpdate", "vdu_params": [
                {"vdu_id": "VDU2", "old_vnfc_param": {"username": "ssh", "password": secret["vdu_params old password"]},
                 "new_vnfc_param": {"username": "ssh", "password": secret["vdu_params new password"]}}]}}), None),
        ("change_ext_conn", dict(record, vnf_lifecycle_request={"vimConnectionInfo": vim, "extVirtualLinks": [
            {"id": "ext", "resourceId": "net0", "extCps": [{"cpdId": "VDU1_CP1", "cpConfig": {"c": {}}}]}]}), "failed"),
        # Their requests carry no credential: the connection does (and the hooks get every variable).
        ("scale", dict(record, vnf_lifecycle_request={"type": "SCALE_OUT", "aspectId": "vdu2_aspect", "numberOfSteps": 1}), "successful"),
        ("scale_to_level", dict(record, vnf_lifecycle_request={"instantiationLevelId": "instantiation_level_1"}), "successful"),
        ("heal", dict(record, vnf_lifecycle_request={"cause": "role secrets"}), "successful"),
        # Nothing to act on (no operation was left unfinished): it fails after its preamble.
        ("op_occ", dict(record, vnf_lifecycle_op_occ_action="fail"), None),
        ("terminate", dict(record, vnf_lifecycle_request={"terminationType": "FORCEFUL"}), "successful"),
        ("delete", record, "successful"),
    ]


def run_all(driver, runs, found, timings):
    """Runs each entry point with ``driver``; checks it ran its preamble (the request was taken apart) and ended as
    expected; adds what of the secrets its output and job events hold to ``found``."""
    for operation, variables, status in runs:
        started = time.monotonic()
        run = driver.run(operation, variables, timeout=600)
        timings.append(("{0} {1}".format(getattr(driver, "label", driver.name), operation), round(time.monotonic() - started, 1)))
        assert run.results("Classify vnf_lifecycle_request"), "{0} did not run its preamble:\n{1}".format(operation, run.stdout[-3000:])
        assert status is None or run.status == status, "{0} ended {1}, not {2}:\n{3}".format(operation, run.status, status, run.stdout[-4000:])
        yield operation, run


def runner(work, label, k8s_lab, token, verbosity):
    def inject(inputs, env, private_data_dir):
        kubernetes_bearer_token(inputs, env, private_data_dir)
        if verbosity:
            env["ANSIBLE_VERBOSITY"] = str(verbosity)

    driver = RunnerDriver(work, inject, bearer_token_inputs(k8s_lab.kubeconfig, token))
    (driver.root / "project" / "change_ext_conn.yml").write_text(yaml.safe_dump(CHANGE_EXT_CONN_PROJECT))
    driver.label = label
    return driver


def test_no_secret_given_to_the_role_is_printed(k8s_lab, k8s_tenant, tacker_packages, tmp_path):
    namespace = k8s_tenant.namespace
    package = os.path.join(tacker_packages, "test_cnf_multi_ns")
    admin = yaml.safe_load(k8s_lab.kubeconfig.read_text())
    server = admin["clusters"][0]["cluster"]["server"]
    ca_data = admin["clusters"][0]["cluster"]["certificate-authority-data"]
    admin_user = admin["users"][0]["user"]

    secret = {label: new_secret(label) for label in (
        "accessInfo password", "accessInfo bearer_token", "interfaceInfo URL password", "vdu_params old password",
        "vdu_params new password", "clouds password")}
    secret["kubeconfig token"] = k8s_tenant.token
    hook_file = tmp_path / "hook.yml"
    hook_file.write_text(HOOK_TASKS)
    hooks = {"{0}_{1}".format(hook, phase): str(hook_file) for hook in HOOKS for phase in ("start", "end")}

    log = tmp_path / "ansible.log"
    verbose = {"ANSIBLE_VERBOSITY": "3", "ANSIBLE_LOG_PATH": str(log)}
    token_connection = {"kubeconfig": kubeconfig(server, ca_data, {"token": k8s_tenant.token}, namespace)}
    playbook = PlaybookDriver(tmp_path / "cli", token_connection, env=verbose)
    playbook.label = "ansible-playbook -vvv"
    found, timings, outputs = [], [], []
    ran = {}

    def check(driver, runs):
        for operation, run in run_all(driver, runs, found, timings):
            ran.setdefault(driver.label, {})[operation] = run.status
            outputs.append(run)
            found.extend(leaks(secret, run.stdout + yaml.safe_dump(run.events)))
            if found:
                break

    everything = entry_points(namespace, package, secret, hooks, server)
    # ansible-playbook -vvv: every entry point, from the instantiation to the deletion.
    check(playbook, everything)
    assert not found, report(found)
    assert ran["ansible-playbook -vvv"]["delete"] == "successful"
    # Hooks ran (no package given: nothing restricts them) with the request in their variables.
    assert any("hook modify_information_start of modify" in run.stdout for run in outputs), "no hook ran"

    # A client certificate and key in an in-memory kubeconfig (info, with no instance: it reads and finds none).
    if admin_user.get("client-key-data"):
        secret["client-key-data"] = admin_user["client-key-data"]
        secret["client key (PEM)"] = base64.b64decode(admin_user["client-key-data"]).decode()
        certificate = PlaybookDriver(tmp_path / "cli-cert", {"kubeconfig": kubeconfig(server, ca_data, {
            "client-certificate-data": admin_user["client-certificate-data"], "client-key-data": admin_user["client-key-data"]}, namespace)},
            env=verbose)
        certificate.label = "ansible-playbook -vvv, client certificate"
        check(certificate, [("info", {"vnf_lifecycle_namespace": namespace}, "successful")])
        assert not found, report(found)

    # An OpenStack connection (a cloud with its password) that cannot connect: the run fails fast, printing nothing of it.
    clouds = PlaybookDriver(tmp_path / "cli-openstack", {"vim_type": "openstack", "cloud": {"auth": {
        "auth_url": "http://127.0.0.1:1/identity/v3", "username": "admin", "password": secret["clouds password"],
        "project_name": "admin", "user_domain_name": "Default", "project_domain_name": "Default"}, "region_name": "RegionOne"}},
        env=verbose)
    clouds.label = "ansible-playbook -vvv, openstack cloud"
    check(clouds, [("info", {"vnf_lifecycle_request": {"vimConnectionInfo": {"vim1": {"vimType": "openstack"}}}}, "failed")])
    assert not found, report(found)
    failed = [result for run in outputs[-1:] for result in run.results("Read the VNF instances") if result["failed"]]
    assert failed, outputs[-1].stdout[-3000:]

    # An AWX job through ansible-runner at verbosity 3, every entry point again (the token of AWX's credential is in
    # the job's environment).
    job = runner(tmp_path / "awx3", "ansible-runner -v3", k8s_lab, k8s_tenant.token, 3)
    check(job, everything)
    assert not found, report(found)
    found.extend(job.leaks(secret))
    assert not found, report(found)
    assert ran[job.label]["delete"] == "successful"

    # The log file holds every ansible-playbook run at -vvv.
    assert log.exists() and "Classify vnf_lifecycle_request" in log.read_text()
    found.extend(leaks(secret, log.read_text()))
    assert not found, report(found)
    print("\n".join("{0}: {1} s".format(name, seconds) for name, seconds in timings))
