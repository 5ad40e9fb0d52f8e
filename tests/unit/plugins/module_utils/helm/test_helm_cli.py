# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Helm CLI layer with a fake runner: argv, the temporary kubeconfig, versions, --set escaping, names, errors."""

from __future__ import annotations

import json
import os
import stat

import pytest
import yaml

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError, VimError
from ansible_collections.nfv.vnflcm.plugins.module_utils.helm import cli
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.client import connection_options

TOKEN = "eyJhbGciOiJSUzI1NiJ9.c2VjcmV0LXBheWxvYWQtb2YtdGhlLXRva2Vu.c2lnbmF0dXJlLXBhcnQ"
PASSWORD = "pa55-w0rd-never-shown"
BINARY = cli.HelmBinary("/opt/helm/bin/helm", "v3.22.0", (3, 22, 0))

RELEASE_JSON = {
    "name": "vnf1234", "namespace": "cnf", "version": 2,
    "info": {"first_deployed": "2026-11-29T05:00:00Z", "last_deployed": "2026-11-29T05:01:00Z", "deleted": "",
             "description": "Upgrade complete", "status": "deployed", "notes": "x"},
    "chart": {"metadata": {"name": "test-chart", "version": "0.1.0", "appVersion": "1.16.0"}, "templates": []},
    "config": {"db": {"password": PASSWORD}}, "manifest": "---\nkind: Deployment\n",
}
MANIFEST = """---
# Source: test-chart/templates/serviceaccount.yaml
apiVersion: v1
kind: ServiceAccount
metadata:
  name: sa
---
# Source: test-chart/templates/deployment_vdu1.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: vdu1-vnf1234
spec:
  replicas: 2
"""
KUBECONFIG = {
    "apiVersion": "v1", "kind": "Config", "current-context": "lab",
    "clusters": [{"name": "c", "cluster": {"server": "https://127.0.0.1:6443", "certificate-authority": "pki/ca.crt"}}],
    "users": [{"name": "u", "user": {"client-certificate": "pki/admin.crt", "client-key": "/abs/admin.key"}}],
    "contexts": [{"name": "lab", "context": {"cluster": "c", "user": "u"}},
                 {"name": "other", "context": {"cluster": "c", "user": "u", "namespace": "x"}}],
}


class FakeRunner:
    """Records each call (argv, env, and the files argv names, read while they exist) and answers from a script."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.calls = []

    def __call__(self, argv, env, timeout):
        files = {}
        for item in argv:
            for part in [item] + item.split("=", 1)[1:]:
                if os.path.isfile(part):
                    files[part] = (open(part).read(), stat.S_IMODE(os.stat(part).st_mode))
        self.calls.append({"argv": list(argv), "env": dict(env), "timeout": timeout, "files": files})
        answer = self.answers.pop(0) if self.answers else cli.HelmRun(0, "", "")
        return answer if isinstance(answer, cli.HelmRun) else cli.HelmRun(0, answer, "")


def client(runner, params=None, environ=None, env=None):
    environ = {} if environ is None else environ
    return cli.HelmClient(BINARY, connection_options(params or {}, environ), env=env, runner=runner, environ=environ)


def flag(argv, name):
    return argv[argv.index(name) + 1]


def every_command(helm):
    """Each command once; the release JSON / history / manifest as output where it is parsed."""
    helm.runner.answers = [json.dumps(RELEASE_JSON), json.dumps(RELEASE_JSON), "", "", json.dumps(RELEASE_JSON), "[]", MANIFEST, MANIFEST]
    helm.install("chart.tgz", "vnf1234", "cnf", set_values={"replicaCountVdu1": 2, "db.password": PASSWORD}, values={"token": TOKEN})
    helm.upgrade("chart.tgz", "vnf1234", "cnf", set_values={"replicaCountVdu2": 3})
    helm.rollback("vnf1234", 1, "cnf")
    helm.uninstall("vnf1234", "cnf")
    helm.status("vnf1234", "cnf")
    helm.history("vnf1234", "cnf")
    helm.get_manifest("vnf1234", "cnf", revision=1)
    helm.template("chart.tgz", "vnf1234", "cnf", set_values={"api_key": TOKEN})


# ---------------------------------------------------------------------------------------------
# Nothing secret in argv

@pytest.mark.parametrize("params", [
    {"host": "https://10.0.0.1:6443", "api_key": TOKEN, "ca_cert": "/etc/ca.crt"},
    {"host": "https://10.0.0.1:6443", "username": "admin", "password": PASSWORD, "validate_certs": False},
    {"kubeconfig": dict(KUBECONFIG, users=[{"name": "u", "user": {"token": TOKEN}}])},
    {"kubeconfig": KUBECONFIG, "api_key": TOKEN},
])
def test_no_secret_in_any_argv(params, tmp_path):
    runner = FakeRunner()
    every_command(client(runner, params, environ={"HOME": str(tmp_path)}))
    assert len(runner.calls) == 8
    for call in runner.calls:
        joined = "\0".join(call["argv"])
        assert TOKEN not in joined and PASSWORD not in joined, call["argv"]
        assert not any(arg.startswith(("--kube-token", "--password", "--username")) for arg in call["argv"])
        assert TOKEN not in "\0".join(call["env"].values())


def test_token_from_the_environment_reaches_only_the_kubeconfig_file():
    runner = FakeRunner(json.dumps(RELEASE_JSON))
    helm = client(runner, environ={"K8S_AUTH_HOST": "https://k8s:6443", "K8S_AUTH_API_KEY": TOKEN, "HELM_KUBETOKEN": "stale-helm-token"})
    helm.status("vnf1234", "cnf")
    call = runner.calls[0]
    assert TOKEN not in " ".join(call["argv"])
    assert "HELM_KUBETOKEN" not in call["env"], "a HELM_KUBE* variable would override the options' cluster"
    written = yaml.safe_load(call["files"][flag(call["argv"], "--kubeconfig")][0])
    assert written["users"][0]["user"] == {"token": TOKEN}
    assert written["clusters"][0]["cluster"] == {"server": "https://k8s:6443"}


# ---------------------------------------------------------------------------------------------
# The kubeconfig helm gets

def test_kubeconfig_path_without_overrides_is_used_as_it_is():
    runner = FakeRunner(json.dumps(RELEASE_JSON))
    client(runner, {"kubeconfig": "~/lab/admin.kubeconfig", "context": "other", "impersonate_user": "alice",
                    "impersonate_groups": ["dev", "ops"]}, environ={}).status("vnf1234", "cnf")
    argv = runner.calls[0]["argv"]
    assert flag(argv, "--kubeconfig") == os.path.expanduser("~/lab/admin.kubeconfig")
    assert flag(argv, "--kube-context") == "other"
    assert flag(argv, "--kube-as-user") == "alice"
    assert [argv[i + 1] for i, item in enumerate(argv) if item == "--kube-as-group"] == ["dev", "ops"]
    assert runner.calls[0]["files"] == {}, "nothing is written when the user's kubeconfig serves as it is"


def test_no_connection_options_leave_helm_its_defaults():
    runner = FakeRunner(json.dumps(RELEASE_JSON))
    client(runner, {}, environ={"KUBECONFIG": "/somewhere/config"}).status("vnf1234", "cnf")
    argv = runner.calls[0]["argv"]
    assert "--kubeconfig" not in argv and "--kube-context" not in argv
    assert runner.calls[0]["env"]["KUBECONFIG"] == "/somewhere/config"


def test_temporary_kubeconfig_is_private_and_removed():
    runner = FakeRunner(json.dumps(RELEASE_JSON))
    client(runner, {"host": "https://10.0.0.1:6443/", "api_key": TOKEN, "ca_cert": "/etc/k8s/ca.crt"}).status("vnf1234", "cnf")
    call = runner.calls[0]
    path = flag(call["argv"], "--kubeconfig")
    text, mode = call["files"][path]
    assert mode == 0o600
    assert not os.path.exists(path) and not os.path.exists(os.path.dirname(path)), "removed after the call"
    config = yaml.safe_load(text)
    assert config["current-context"] == "nfv-vnflcm"
    assert config["clusters"] == [{"name": "nfv-vnflcm", "cluster": {"server": "https://10.0.0.1:6443", "certificate-authority": "/etc/k8s/ca.crt"}}]
    assert config["users"] == [{"name": "nfv-vnflcm", "user": {"token": TOKEN}}]
    assert config["contexts"] == [{"name": "nfv-vnflcm", "context": {"cluster": "nfv-vnflcm", "user": "nfv-vnflcm"}}]


def test_temporary_kubeconfig_is_removed_when_helm_fails():
    runner = FakeRunner(cli.HelmRun(1, "", "Error: Kubernetes cluster unreachable"))
    with pytest.raises(cli.HelmError):
        client(runner, {"host": "https://10.0.0.1:6443", "api_key": TOKEN}).status("vnf1234", "cnf")
    assert not os.path.exists(flag(runner.calls[0]["argv"], "--kubeconfig"))


def test_options_override_the_kubeconfig_file_of_the_option(tmp_path):
    (tmp_path / "config").write_text(yaml.safe_dump(KUBECONFIG))
    runner = FakeRunner(json.dumps(RELEASE_JSON))
    client(runner, {"kubeconfig": str(tmp_path / "config"), "context": "other", "api_key": TOKEN, "validate_certs": False}).status("vnf1234", "cnf")
    call = runner.calls[0]
    config = yaml.safe_load(call["files"][flag(call["argv"], "--kubeconfig")][0])
    assert "--kube-context" not in call["argv"], "the written file's current context is the one asked for"
    assert config["current-context"] == "other"
    cluster = config["clusters"][0]["cluster"]
    # client-go refuses a CA with insecure-skip-tls-verify; relative paths are made absolute against the file's folder.
    assert cluster == {"server": "https://127.0.0.1:6443", "insecure-skip-tls-verify": True}
    assert config["users"][0]["user"] == {"client-certificate": str(tmp_path / "pki/admin.crt"), "client-key": "/abs/admin.key", "token": TOKEN}


def test_overrides_apply_to_the_first_file_of_KUBECONFIG(tmp_path):
    (tmp_path / "config").write_text(yaml.safe_dump(KUBECONFIG))
    runner = FakeRunner(json.dumps(RELEASE_JSON))
    environ = {"KUBECONFIG": os.pathsep.join([str(tmp_path / "missing"), str(tmp_path / "config")])}
    client(runner, {"username": "admin", "password": PASSWORD, "client_cert": "/c.crt"}, environ=environ).status("vnf1234", "cnf")
    call = runner.calls[0]
    config = yaml.safe_load(call["files"][flag(call["argv"], "--kubeconfig")][0])
    assert config["current-context"] == "lab"
    assert config["clusters"][0]["cluster"]["certificate-authority"] == str(tmp_path / "pki/ca.crt")
    assert config["users"][0]["user"] == {"client-certificate": "/c.crt", "client-key": "/abs/admin.key", "username": "admin", "password": PASSWORD}


def test_relative_paths_of_a_kubeconfig_dict_are_made_absolute_against_the_working_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    kubeconfig = dict(KUBECONFIG, users=[{"name": "u", "user": {"exec": {"command": "./bin/get-token", "apiVersion": "x"}}}])
    path, context, config = cli.kubeconfig_plan({"kubeconfig": kubeconfig, "context": "lab"})
    assert (path, context) == (None, None)
    assert config["clusters"][0]["cluster"]["certificate-authority"] == str(tmp_path / "pki/ca.crt")
    assert config["users"][0]["user"]["exec"]["command"] == str(tmp_path / "bin/get-token")
    assert kubeconfig["users"][0]["user"]["exec"]["command"] == "./bin/get-token", "the option is not changed"


def test_a_context_that_is_not_there_is_refused(tmp_path):
    (tmp_path / "config").write_text(yaml.safe_dump(KUBECONFIG))
    with pytest.raises(ValidationError, match="context: no context 'nope'"):
        cli.kubeconfig_plan({"kubeconfig": str(tmp_path / "config"), "context": "nope", "api_key": TOKEN})


def test_proxy_goes_to_the_environment_and_proxy_headers_are_refused():
    runner = FakeRunner(json.dumps(RELEASE_JSON))
    client(runner, {"kubeconfig": "/k", "proxy": "http://user:" + PASSWORD + "@proxy:3128", "no_proxy": "localhost"}).status("vnf1234", "cnf")
    env = runner.calls[0]["env"]
    assert env["HTTPS_PROXY"].endswith("@proxy:3128") and env["NO_PROXY"] == "localhost"
    assert PASSWORD not in " ".join(runner.calls[0]["argv"])
    with pytest.raises(ValidationError, match="proxy_headers"):
        client(FakeRunner(), {"kubeconfig": "/k", "proxy_headers": {"basic_auth": "u:p"}}).status("vnf1234", "cnf")


def test_template_contacts_no_cluster():
    runner = FakeRunner(MANIFEST)
    docs = client(runner, {"host": "https://h:6443", "api_key": TOKEN}).template("chart.tgz", "vnf1234", "cnf", kube_version="1.36.0")
    argv = runner.calls[0]["argv"]
    assert argv[:5] == [BINARY.path, "template", "vnf1234", "chart.tgz", "--namespace"]
    assert "--kubeconfig" not in argv and flag(argv, "--kube-version") == "1.36.0"
    assert [(d["kind"], d["metadata"]["name"]) for d in docs] == [("ServiceAccount", "sa"), ("Deployment", "vdu1-vnf1234")]


# ---------------------------------------------------------------------------------------------
# argv of each command

def test_argv_of_each_command():
    assert cli.install_argv("vnf1", "c.tgz", "ns", ["--set", "a=1"], create_namespace=True, wait=True, timeout=120) == [
        "install", "vnf1", "c.tgz", "--namespace", "ns", "--output", "json", "--create-namespace", "--wait", "--timeout", "120s", "--set", "a=1"]
    assert cli.upgrade_argv("vnf1", "c.tgz", "ns") == [
        "upgrade", "vnf1", "c.tgz", "--namespace", "ns", "--output", "json", "--reuse-values", "--timeout", "300s"]
    assert "--reset-values" in cli.upgrade_argv("vnf1", "c.tgz", "ns", reuse_values=False)
    assert cli.rollback_argv("vnf1", 1, "ns") == ["rollback", "vnf1", "1", "--namespace", "ns", "--timeout", "300s"]
    assert cli.uninstall_argv("vnf1", "ns", timeout=60) == ["uninstall", "vnf1", "--namespace", "ns", "--wait", "--timeout", "60s"]
    assert cli.uninstall_argv("vnf1", "ns", wait=False, keep_history=True) == ["uninstall", "vnf1", "--namespace", "ns", "--timeout", "300s", "--keep-history"]
    assert cli.status_argv("vnf1", "ns", revision=2) == ["status", "vnf1", "--namespace", "ns", "--output", "json", "--revision", "2"]
    assert cli.get_manifest_argv("vnf1", "ns") == ["get", "manifest", "vnf1", "--namespace", "ns"]
    assert cli.history_argv("vnf1", "ns", max_revisions=5) == ["history", "vnf1", "--namespace", "ns", "--output", "json", "--max", "5"]


def test_values_go_in_a_private_file_and_the_process_gets_time_past_helms_timeout():
    runner = FakeRunner(json.dumps(RELEASE_JSON))
    client(runner, {"kubeconfig": "/k"}).install("c.tgz", "vnf1", "ns", values={"service": {"port": 8081}}, timeout=120)
    call = runner.calls[0]
    text, mode = call["files"][flag(call["argv"], "--values")]
    assert json.loads(text) == {"service": {"port": 8081}} and mode == 0o600
    assert call["timeout"] == 120 + cli.PROCESS_GRACE


@pytest.mark.parametrize("call, field", [
    (lambda: cli.install_argv("Vnf_1", "c", "ns"), "release"),
    (lambda: cli.install_argv("v" * 54, "c", "ns"), "release"),
    (lambda: cli.install_argv("vnf1", "--post-renderer=x", "ns"), "chart"),
    (lambda: cli.status_argv("vnf1", "NS"), "namespace"),
    (lambda: cli.rollback_argv("vnf1", 0, "ns"), "revision"),
    (lambda: cli.rollback_argv("vnf1", "1", "ns"), "revision"),
])
def test_bad_names_are_refused_before_helm_runs(call, field):
    with pytest.raises(ValidationError) as error:
        call()
    assert error.value.field == field


# ---------------------------------------------------------------------------------------------
# --set values

@pytest.mark.parametrize("value, escaped", [
    ("plain", "plain"),
    ("a,b", "a\\,b"),
    ("k=v,x=y", "k=v\\,x=y"),
    ("back\\slash", "back\\\\slash"),
    ("{a,b}", "\\{a\\,b}"),
    ("", ""),
])
def test_escape_set_value(value, escaped):
    assert cli.escape_set_value(value) == escaped


def test_set_values_keep_their_types_and_each_is_its_own_argv_item():
    written = {}

    def secret_file(value):
        written["/tmp/value-0"] = value
        return "/tmp/value-0"
    args = cli.set_value_args({"replicaCountVdu1": 2, "enabled": True, "gone": None, "service.type": "NodePort", "tag": "1,2",
                               "ratio": 0.5, "list": [1, "a"], "obj": {"x": 1}, "db.password": PASSWORD, "imagePullSecrets": ["n"]},
                              (3, 22, 0), secret_file)
    assert args == ["--set", "replicaCountVdu1=2", "--set", "enabled=true", "--set", "gone=null", "--set-string", "service.type=NodePort",
                    "--set-string", "tag=1\\,2", "--set-json", "ratio=0.5", "--set-json", 'list=[1,"a"]', "--set-json", 'obj={"x":1}',
                    "--set-file", "db.password=/tmp/value-0", "--set-json", 'imagePullSecrets=["n"]']
    assert written == {"/tmp/value-0": PASSWORD}


def test_set_value_errors():
    with pytest.raises(ValidationError, match="needs Helm v3.10.0 or later"):
        cli.set_value_args({"ratio": 0.5}, (3, 8, 2))
    with pytest.raises(ValidationError, match="not a value key"):
        cli.set_value_args({"a=b": 1})
    with pytest.raises(ValidationError, match="not a value key"):
        cli.set_value_args({"a,b": 1})
    with pytest.raises(ValidationError, match="set_values.when: a datetime"):
        import datetime
        cli.set_value_args({"when": datetime.datetime.now()})


def test_secret_set_value_is_written_to_a_private_file():
    runner = FakeRunner(json.dumps(RELEASE_JSON))
    client(runner, {"kubeconfig": "/k"}).upgrade("c.tgz", "vnf1", "ns", set_values={"db.password": PASSWORD})
    call = runner.calls[0]
    path = flag(call["argv"], "--set-file").split("=", 1)[1]
    assert call["files"][path] == (PASSWORD, 0o600)
    assert not os.path.exists(path)


# ---------------------------------------------------------------------------------------------
# Versions and the binary

@pytest.mark.parametrize("text, parsed", [
    ("v3.22.0", (3, 22, 0)), ("v3.8.1+g1234abc", (3, 8, 1)), ("3.9.0-rc.1\n", (3, 9, 0)), ("v4.3.1", (4, 3, 1)), ("garbage", None), ("", None),
])
def test_parse_version(text, parsed):
    assert cli.parse_version(text) == parsed


@pytest.mark.parametrize("found", ["v3.7.2", "v2.17.0", "v4.3.1", "nonsense"])
def test_too_old_or_not_helm_3_is_refused_naming_both_versions(found):
    with pytest.raises(ValidationError) as error:
        cli.check_version(found, "/usr/bin/helm")
    assert error.value.field == "helm_binary"
    assert repr(found) in str(error.value) and "v3.8.0 or later" in str(error.value)


def fake_helm(tmp_path, name="helm"):
    path = tmp_path / name
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return str(path)


def test_find_helm_reads_the_version_with_its_template(tmp_path):
    runner = FakeRunner("v3.22.0")
    found = cli.find_helm(fake_helm(tmp_path), runner=runner, environ={"HELM_KUBETOKEN": "x"})
    assert found == cli.HelmBinary(str(tmp_path / "helm"), "v3.22.0", (3, 22, 0))
    assert runner.calls[0]["argv"] == [str(tmp_path / "helm"), "version", "--template", "{{.Version}}"]
    assert runner.calls[0]["env"] == {}


def test_find_helm_on_path(tmp_path):
    fake_helm(tmp_path)
    found = cli.find_helm(runner=FakeRunner("v3.8.0"), environ={"PATH": str(tmp_path)})
    assert found.path == str(tmp_path / "helm") and found.version_info == (3, 8, 0)


def test_find_helm_missing(tmp_path):
    with pytest.raises(ValidationError) as error:
        cli.find_helm(runner=FakeRunner(), environ={"PATH": str(tmp_path)})
    assert error.value.field == "helm_binary" and "no helm found on PATH" in str(error.value)
    with pytest.raises(ValidationError, match="helm_binary: /nowhere/helm is not an executable file"):
        cli.find_helm("/nowhere/helm", runner=FakeRunner())


def test_find_helm_too_old(tmp_path):
    with pytest.raises(ValidationError, match="is Helm 'v3.6.3'; Helm 3, v3.8.0 or later, is needed"):
        cli.find_helm(fake_helm(tmp_path), runner=FakeRunner("v3.6.3"))


# ---------------------------------------------------------------------------------------------
# Names and states

def test_tacker_release_name():
    assert cli.tacker_release_name("6a2b6f5e-0e0e-4c1e-9b5e-1f2e3d4c5b6a") == "vnf6a2b6f5e0e0e4c1e9b5e1f2e3d4c5b6a"
    assert len(cli.tacker_release_name("6a2b6f5e-0e0e-4c1e-9b5e-1f2e3d4c5b6a")) == 35
    with pytest.raises(ValidationError) as error:
        cli.tacker_release_name("Not_A_UUID")
    assert error.value.field == "vnf_instance_id"


@pytest.mark.parametrize("status, pending", [
    ("pending-install", True), ("pending-upgrade", True), ("pending-rollback", True),
    ("deployed", False), ("failed", False), ("superseded", False), ("uninstalling", False), ("", False),
])
def test_is_pending(status, pending):
    assert cli.is_pending(status) is pending
    assert cli.is_pending(cli.parse_release(json.dumps(dict(RELEASE_JSON, info={"status": status})))) is pending


# ---------------------------------------------------------------------------------------------
# Output and errors

def test_parse_release_leaves_the_values_out():
    release = cli.parse_release(json.dumps(RELEASE_JSON))
    assert release == cli.Release("vnf1234", "cnf", 2, "deployed", "test-chart", "0.1.0", "1.16.0", "Upgrade complete",
                                  "2026-11-29T05:00:00Z", "2026-11-29T05:01:00Z")
    assert PASSWORD not in repr(release)


def test_parse_history():
    text = json.dumps([{"revision": 1, "updated": "t1", "status": "superseded", "chart": "test-chart-0.1.0", "app_version": "1.16.0",
                        "description": "Install complete"},
                       {"revision": 2, "updated": "t2", "status": "deployed", "chart": "test-chart-0.1.0", "app_version": "1.16.0",
                        "description": "Upgrade complete"}])
    assert [(r.revision, r.status) for r in cli.parse_history(text)] == [(1, "superseded"), (2, "deployed")]


def test_parse_errors_are_helm_errors():
    with pytest.raises(cli.HelmError, match="not JSON") as error:
        cli.parse_release('{"config": {"password": "' + PASSWORD + '"')
    assert PASSWORD not in str(error.value), "a release's output holds its values: never quoted"
    with pytest.raises(cli.HelmError, match="a JSON list, not a release"):
        cli.parse_release("[]")
    with pytest.raises(cli.HelmError, match="document 1 of its output is a str, not an object"):
        cli.parse_manifest("--- just a string\n", "template")
    with pytest.raises(cli.HelmError, match="malformed YAML"):
        cli.parse_manifest("a: [\n", "get manifest")


@pytest.mark.parametrize("text", [
    "Authorization: Bearer " + TOKEN,
    "the server rejected token " + TOKEN,
    'token: "abcdefgh12345"', "password=hunter2hunter2", '"client-secret": "shhhhhh1"',
    "Get https://admin:" + PASSWORD + "@10.0.0.1:6443/api: refused",
])
def test_scrub(text):
    scrubbed = cli.scrub(text)
    for secret in (TOKEN, PASSWORD, "abcdefgh12345", "hunter2hunter2", "shhhhhh1"):
        assert secret not in scrubbed
    assert cli.MASKED in scrubbed


def test_scrub_keeps_helms_ordinary_messages():
    text = 'Error: INSTALLATION FAILED: secrets "sh.helm.release.v1.vnf1.v1" already exists'
    assert cli.scrub(text) == text


def test_failure_carries_scrubbed_stderr_and_exit_code():
    stderr = "Error: Kubernetes cluster unreachable: Get \"https://h:6443/version\": Bearer " + TOKEN + " rejected, password " + PASSWORD
    runner = FakeRunner(cli.HelmRun(1, "", stderr))
    with pytest.raises(cli.HelmError) as error:
        client(runner, {"host": "https://h:6443", "username": "u", "password": PASSWORD}).install("c.tgz", "vnf1", "ns")
    assert isinstance(error.value, VimError)
    assert error.value.exit_code == 1 and error.value.command == "install"
    assert TOKEN not in str(error.value) and PASSWORD not in str(error.value) and PASSWORD not in error.value.stderr
    assert str(error.value).startswith("Failed to run helm install: exit code 1: Error: Kubernetes cluster unreachable")


def test_release_not_found():
    runner = FakeRunner(cli.HelmRun(1, "", "Error: release: not found"), cli.HelmRun(1, "", "Error: release: not found"))
    helm = client(runner, {"kubeconfig": "/k"})
    with pytest.raises(cli.HelmReleaseNotFound):
        helm.status("vnf1", "ns")
    assert helm.release_exists("vnf1", "ns") is False


def test_timeout_is_reported():
    runner = FakeRunner(cli.HelmRun(None, "", "client.go: waiting"))
    with pytest.raises(cli.HelmError, match="helm uninstall: stopped after its timeout") as error:
        client(runner, {"kubeconfig": "/k"}).uninstall("vnf1", "ns", timeout=5)
    assert error.value.exit_code is None


def test_run_helm_really_runs_and_stops_at_the_timeout(tmp_path):
    script = tmp_path / "slow"
    script.write_text("#!/bin/sh\necho out; echo err >&2; exec sleep 30\n")
    script.chmod(0o755)
    result = cli.run_helm([str(script)], env={"PATH": os.defpath}, timeout=1)
    assert result == cli.HelmRun(None, "out\n", "err\n")
