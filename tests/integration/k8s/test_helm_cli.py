# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Helm CLI layer (module_utils/helm/cli.py) with the lab's Helm (tools/lab/helm) against the Kubernetes lab.

Tacker's Helm chart (tacker-helm/test_helm_instantiate, test-chart-0.1.0.tgz) goes through Tacker's sequence: install,
upgrade with --reuse-values, rollback, uninstall, as a ServiceAccount limited to the test's namespace, connected with
host, api_key and ca_cert (the layer writes them into a temporary kubeconfig, never into argv).
"""

from __future__ import annotations

import os
import time

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.helm import cli
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.client import connection_options

from labk8s.kubeapi import Api  # tools/lab/k8s, on the path by tests/integration/k8s/conftest.py


INSTANCE_ID = "6a2b6f5e-0e0e-4c1e-9b5e-1f2e3d4c5b6a"


@pytest.fixture
def chart(tacker_helm):
    """The chart of Tacker's Helm package (the tacker_helm fixture)."""
    path = os.path.join(tacker_helm, "test_helm_instantiate", "Files", "kubernetes", "test-chart-0.1.0.tgz")
    if not os.path.isfile(path):
        pytest.fail("Tacker's Helm chart not found at {0}".format(path), pytrace=False)
    return path


@pytest.fixture
def helm_home(tmp_path):
    """Helm's cache, configuration and data folders inside the test's tmp_path (nothing written to ~)."""
    return {"HELM_CACHE_HOME": str(tmp_path / "helm-cache"), "HELM_CONFIG_HOME": str(tmp_path / "helm-config"),
            "HELM_DATA_HOME": str(tmp_path / "helm-data")}


def deployments(kube, namespace):
    items = kube.call("GET", f"/apis/apps/v1/namespaces/{namespace}/deployments")["items"]
    return {item["metadata"]["name"]: item["spec"]["replicas"] for item in items}


def release_secrets(kube, namespace):
    items = kube.call("GET", f"/api/v1/namespaces/{namespace}/secrets?labelSelector=owner%3Dhelm")["items"]
    return sorted(item["metadata"]["name"] for item in items)


def test_tacker_chart_lifecycle(helm_binary, chart, helm_home, k8s_tenant, kube, tmp_path):
    start = time.monotonic()
    namespace = k8s_tenant.namespace
    tenant_api = Api(k8s_tenant.kubeconfig)
    (tmp_path / "ca.crt").write_bytes(tenant_api.ca_pem)
    options = connection_options({"host": tenant_api.server, "api_key": k8s_tenant.token, "ca_cert": str(tmp_path / "ca.crt")}, environ={})
    calls = []

    def recording_runner(argv, env, timeout):
        calls.append(list(argv))
        return cli.run_helm(argv, env, timeout)

    helm = cli.HelmClient(helm_binary, options, env=helm_home, runner=recording_runner)
    release = cli.tacker_release_name(INSTANCE_ID)
    assert helm_binary.version_info >= cli.MIN_HELM

    # template: Tacker's VDUs, and --set values that Helm's parser would otherwise split or retype.
    # (the chart quotes the image in YAML's double quotes, where a backslash is an escape: it goes in an annotation.)
    rendered = helm.template(chart, release, namespace, set_values={"replicaCountVdu1": 2, "image.tag": "{a,b}=c",
                                                                    "podAnnotations.note": "x\\y,z", "podAnnotations.api-token": "annotation-secret"})
    objects = {(doc["kind"], doc["metadata"]["name"]): doc for doc in rendered}
    vdu1, vdu2 = objects[("Deployment", "vdu1-" + release)], objects[("Deployment", "vdu2-" + release)]
    assert (vdu1["spec"]["replicas"], vdu2["spec"]["replicas"]) == (2, 1)
    assert vdu1["spec"]["template"]["spec"]["containers"][0]["image"] == "nginx:{a,b}=c"
    assert vdu1["spec"]["template"]["metadata"]["annotations"] == {"note": "x\\y,z", "api-token": "annotation-secret"}

    # install (waited) into the tenant's namespace.
    installed = helm.install(chart, release, namespace, set_values={"replicaCountVdu1": 2}, wait=True, timeout=60)
    assert (installed.name, installed.namespace, installed.revision, installed.status) == (release, namespace, 1, "deployed")
    assert deployments(kube, namespace) == {"vdu1-" + release: 2, "vdu2-" + release: 1}

    # upgrade with --reuse-values: vdu1's 2 stays.
    upgraded = helm.upgrade(chart, release, namespace, set_values={"replicaCountVdu2": 3}, wait=True, timeout=60)
    assert (upgraded.revision, upgraded.status) == (2, "deployed")
    assert deployments(kube, namespace) == {"vdu1-" + release: 2, "vdu2-" + release: 3}
    history = helm.history(release, namespace)
    assert [(entry.revision, entry.status) for entry in history] == [(1, "superseded"), (2, "deployed")]
    assert history[0].chart == "test-chart-0.1.0"

    # rollback to revision 1: a revision 3 with revision 1's values.
    helm.rollback(release, 1, namespace, wait=True, timeout=60)
    status = helm.status(release, namespace)
    assert (status.revision, status.status, cli.is_pending(status)) == (3, "deployed", False)
    assert deployments(kube, namespace) == {"vdu1-" + release: 2, "vdu2-" + release: 1}
    manifest = {(doc["kind"], doc["metadata"]["name"]): doc for doc in helm.get_manifest(release, namespace)}
    assert manifest[("Deployment", "vdu2-" + release)]["spec"]["replicas"] == 1
    assert helm.get_manifest(release, namespace, revision=2)[-1]["kind"] in ("Deployment", "Service", "ServiceAccount")
    assert release_secrets(kube, namespace) == ["sh.helm.release.v1.{0}.v{1}".format(release, n) for n in (1, 2, 3)]

    # uninstall, waited: nothing of the release is left.
    helm.uninstall(release, namespace, wait=True, timeout=60)
    assert deployments(kube, namespace) == {}
    assert release_secrets(kube, namespace) == []
    assert not helm.release_exists(release, namespace)
    with pytest.raises(cli.HelmReleaseNotFound):
        helm.history(release, namespace)

    # Every call reached the cluster through a kubeconfig file; the token and the annotation's value never in argv.
    assert calls and all("--kubeconfig" in argv for argv in calls if argv[1] != "template")
    assert not any(k8s_tenant.token in item or "annotation-secret" in item for argv in calls for item in argv)
    assert time.monotonic() - start < 60


def test_missing_helm_is_a_clear_error(tmp_path):
    with pytest.raises(ValidationError) as error:
        cli.find_helm(str(tmp_path / "no-helm-here"))
    assert error.value.field == "helm_binary"
    assert str(error.value) == "Failed to validate Helm: helm_binary: {0} is not an executable file".format(tmp_path / "no-helm-here")
    with pytest.raises(ValidationError, match="helm_binary: no helm found on PATH; install Helm v3.8.0 or later"):
        cli.find_helm(environ={"PATH": str(tmp_path)})


def test_an_old_helm_is_refused(tmp_path):
    # A helm that says it is 3.7 (a script: only the pinned Helm is built here), asked as find_helm asks the real one.
    wrapper = tmp_path / "helm"
    wrapper.write_text("#!/bin/sh\necho v3.7.2\n")
    wrapper.chmod(0o755)
    with pytest.raises(ValidationError, match=r"is Helm 'v3.7.2'; Helm 3, v3.8.0 or later, is needed"):
        cli.find_helm(str(wrapper))
