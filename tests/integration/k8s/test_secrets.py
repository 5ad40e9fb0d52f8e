# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""No Kubernetes credential is ever printed: every module, every credential form kubernetes.core users give,
at -vvvv with --diff in check mode, as an AWX job through ansible-runner: ansible-playbook's output and the job events.

Forms that really authenticate on the lab: a ServiceAccount token (host + api_key), a client certificate
inside an in-memory kubeconfig, an exec plugin (with a secret in its env) that prints the token, and the
K8S_AUTH_* environment of an AWX Kubernetes credential. Forms the lab refuses (it has neither OIDC nor basic
auth) must fail without printing theirs: an OIDC auth-provider (client-secret, id-token, refresh-token) and
username/password."""

from __future__ import annotations

import base64
import gzip
import json
import os
import secrets
import sys
import time

import yaml

from ansible_collections.nfv.vnflcm.tests.integration.secret_leaks import awx_job_without_leaks, run_without_leaks


INSTANCE = "secrets-cnf"
EXEC_PLUGIN = """import json, os, sys
if not os.environ.get("NFV_EXEC_SECRET"):
    sys.exit("the exec plugin did not get its environment")
with open(sys.argv[1]) as handle:
    token = handle.read().strip()
print(json.dumps({"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential", "status": {"token": token}}))
"""


def fake_jwt(payload):
    def part(value):
        return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")
    return "{0}.{1}.{2}".format(part({"alg": "RS256", "typ": "JWT"}), part(payload), secrets.token_urlsafe(32))


def kubeconfig(server, ca_data, user, namespace):
    return {"apiVersion": "v1", "kind": "Config", "current-context": "secrets",
            "clusters": [{"name": "lab", "cluster": {"server": server, "certificate-authority-data": ca_data}}],
            "contexts": [{"name": "secrets", "context": {"cluster": "lab", "user": "secrets", "namespace": namespace}}],
            "users": [{"name": "secrets", "user": user}]}


def module_args(package, namespace, access_secrets, server):
    """The args of each module; the request's VIM entry names ``server`` (the one the modules connect to), with a password."""
    endpoint = server.replace("://", "://vim-user:{0}@".format(access_secrets["url_password"]), 1)
    request = {"flavourId": "simple",
               "additionalParams": {"namespace": namespace, "lcm-kubernetes-def-files": ["Files/kubernetes/deployment_no_namespace.yaml"]},
               # Tacker's Kubernetes VIM entry: its credentials must never be printed either.
               "vimConnectionInfo": {"vim1": {"vimType": "kubernetes",
                                              "interfaceInfo": {"endpoint": endpoint},
                                              "accessInfo": {"bearer_token": access_secrets["bearer_token"], "username": "vim-user",
                                                             "password": access_secrets["password"]}}}}
    instance = {"vnf_instance_name": INSTANCE, "namespace": namespace}
    return {
        "vnf_package_info": {"path": package},
        "vnf_instantiate": {"vnf_instance_name": INSTANCE, "package": package, "request": request},
        "vnf_info": instance,
        "vnf_scale": dict(instance, request={"type": "SCALE_OUT", "aspectId": "vdu2_aspect"}),
        "vnf_heal": dict(instance, request={}),
        "vnf_modify": dict(instance, request={"vnfInstanceDescription": "secrets",
                                              "vimConnectionInfo": request["vimConnectionInfo"]}),
        "vnf_change_pkg": dict(instance, package=package, request={"vnfdId": "x", "additionalParams": {
            "upgrade_type": "RollingUpdate",
            "vdu_params": [{"vdu_id": "VDU2", "new_vnfc_param": {"username": "ssh", "password": access_secrets["vnfc_password"]}}]}}),
        "vnf_lcm_op_occ": dict(instance, action="retry"),
        "vnf_terminate": dict(instance, request={"terminationType": "FORCEFUL"}),
        "vnf_scale_to_level": dict(instance, request={"scaleInfo": [{"aspectId": "vdu2_aspect", "scaleLevel": 1}]}),
        "vnf_delete": instance,
        # Refused on Kubernetes: the refusal must not print the request's credentials either.
        "vnf_change_ext_conn": dict(instance, request={"vimConnectionInfo": request["vimConnectionInfo"], "extVirtualLinks": [
            {"id": "ext", "resourceId": "net0", "extCps": [{"cpdId": "VDU1_CP1", "cpConfig": {"c": {}}}]}]}),
    }


def test_no_credential_is_printed_in_any_form(k8s_lab, k8s_tenant, ansible_task, tacker_packages, collections_path, tmp_path):
    admin = yaml.safe_load(k8s_lab.kubeconfig.read_text())
    server = admin["clusters"][0]["cluster"]["server"]
    ca_data = admin["clusters"][0]["cluster"]["certificate-authority-data"]
    admin_user = admin["users"][0]["user"]
    ca_file = tmp_path / "ca.crt"
    ca_file.write_bytes(base64.b64decode(ca_data))
    token_file = tmp_path / "token"
    token_file.write_text(k8s_tenant.token)
    plugin = tmp_path / "exec_plugin.py"
    plugin.write_text(EXEC_PLUGIN)
    namespace = k8s_tenant.namespace
    package = os.path.join(tacker_packages, "test_cnf_multi_ns")

    # An instance to act on, so that the plans of scale, heal, modify and terminate hold real data.
    done = ansible_task("vnf_instantiate", {"kubeconfig": str(k8s_lab.kubeconfig), "package": package, "vnf_instance_name": INSTANCE,
                                            "request": {"flavourId": "simple", "additionalParams": {
                                                "namespace": namespace, "lcm-kubernetes-def-files": ["Files/kubernetes/deployment_no_namespace.yaml"]}}})
    assert done.get("failed") is not True, done.get("msg")

    secret = {
        "tenant token": k8s_tenant.token,
        "client-key-data": admin_user["client-key-data"],
        "client key (PEM)": base64.b64decode(admin_user["client-key-data"]).decode(),
        "oidc client-secret": "oidc-client-secret-" + secrets.token_hex(12),
        "oidc id-token": fake_jwt({"iss": "https://127.0.0.1:1", "sub": "someone", "exp": int(time.time()) + 86400}),
        "oidc refresh-token": "oidc-refresh-" + secrets.token_hex(12),
        "exec env value": "exec-env-" + secrets.token_hex(12),
        "basic auth password": "basic-" + secrets.token_hex(12),
        "accessInfo bearer_token": "vim-bearer-" + secrets.token_hex(12),
        "accessInfo password": "vim-password-" + secrets.token_hex(12),
        "interfaceInfo URL password": "vim-url-" + secrets.token_hex(12),
        "vdu_params password": "vnfc-password-" + secrets.token_hex(12),
    }
    forms = {
        "token": {"host": server, "api_key": k8s_tenant.token, "ca_cert": str(ca_file)},
        "client certificate": {"kubeconfig": kubeconfig(server, ca_data, {"client-certificate-data": admin_user["client-certificate-data"],
                                                                          "client-key-data": admin_user["client-key-data"]}, namespace)},
        "oidc auth-provider": {"kubeconfig": kubeconfig(server, ca_data, {"auth-provider": {"name": "oidc", "config": {
            "client-id": "kubernetes", "client-secret": secret["oidc client-secret"], "id-token": secret["oidc id-token"],
            "refresh-token": secret["oidc refresh-token"], "idp-issuer-url": "https://127.0.0.1:1"}}}, namespace)},
        "exec plugin": {"kubeconfig": kubeconfig(server, ca_data, {"exec": {
            "apiVersion": "client.authentication.k8s.io/v1", "command": sys.executable, "args": [str(plugin), str(token_file)],
            "env": [{"name": "NFV_EXEC_SECRET", "value": secret["exec env value"]}], "interactiveMode": "Never"}}, namespace)},
        "basic auth": {"host": server, "username": "admin", "password": secret["basic auth password"], "ca_cert": str(ca_file)},
    }
    args = module_args(package, namespace, {"url_password": secret["interfaceInfo URL password"], "bearer_token": secret["accessInfo bearer_token"],
                                            "password": secret["accessInfo password"], "vnfc_password": secret["vdu_params password"]}, server)
    results = run_without_leaks(secret, forms, args, tmp_path)

    # The forms the lab accepts really authenticated: vnf_info found the instance with each of them.
    info = results["vnf_info under test"]
    found = [result.get("vnf_instances", [{}])[0].get("vnfInstanceName") if not result.get("failed") else result.get("msg") for result in info]
    assert found[:2] == [INSTANCE, INSTANCE] and found[3] == INSTANCE, found
    # And the others failed on authentication, not on anything else.
    assert info[2]["failed"] and info[4]["failed"], found

    # AWX's Kubernetes credential: K8S_AUTH_* in the job's environment, no connection option in the playbook.
    awx = {"K8S_AUTH_HOST": server, "K8S_AUTH_API_KEY": k8s_tenant.token, "K8S_AUTH_SSL_CA_CERT": str(ca_file), "K8S_AUTH_VERIFY_SSL": "true"}
    info = awx_job_without_leaks(secret, args, tmp_path / "awx", awx)["vnf_info under test"]
    assert info[0]["vnf_instances"][0]["vnfInstanceName"] == INSTANCE, info


def stored_documents(kube, namespace):
    """The text of every record and rollback Secret of the collection in ``namespace``, decoded."""
    listed = kube.call("GET", "/api/v1/namespaces/{0}/secrets?labelSelector=app.kubernetes.io/managed-by%3Dnfv.vnflcm".format(namespace))
    return {item["metadata"]["name"]: gzip.decompress(base64.b64decode(item["data"]["record"])).decode() for item in listed["items"]}


def test_no_vim_credential_is_stored_in_the_record(k8s_lab, k8s_tenant, kube, ansible_task, tacker_packages):
    """Whoever may read Secrets in the namespace reads the record: it keeps the request's vimConnectionInfo without
    its credentials, in the instance and in every op occ's operationParams, and a re-run is still no change."""
    namespace = k8s_tenant.namespace
    package = os.path.join(tacker_packages, "test_cnf_multi_ns")
    secret = {"accessInfo bearer_token": "vim-bearer-" + secrets.token_hex(12), "accessInfo password": "vim-password-" + secrets.token_hex(12),
              "interfaceInfo URL password": "vim-url-" + secrets.token_hex(12)}
    args = module_args(package, namespace, {"url_password": secret["interfaceInfo URL password"], "bearer_token": secret["accessInfo bearer_token"],
                                            "password": secret["accessInfo password"], "vnfc_password": "unused-" + secrets.token_hex(4)},
                       yaml.safe_load(k8s_tenant.kubeconfig.read_text())["clusters"][0]["cluster"]["server"])
    auth = {"kubeconfig": str(k8s_tenant.kubeconfig), "wait_timeout": 120}
    for module in ("vnf_instantiate", "vnf_modify", "vnf_instantiate", "vnf_modify"):
        done = ansible_task(module, dict(auth, **args[module]))
        assert not done.get("failed"), done.get("msg")
    # The second instantiate and modify find the record as the first left it: nothing to write.
    assert done["changed"] is False, done.get("plan")
    stored = stored_documents(kube, namespace)
    assert "vnflcm-" + done["vnf_instance"]["id"] in stored and "vim-user" in "".join(stored.values())
    for label, value in secret.items():
        for form in (value, base64.b64encode(value.encode()).decode()):
            assert not any(form in text for text in stored.values()), "{0} is stored".format(label)
