"""k8s/lean_import.py: a process that imports the client the collection's way loads a few of its modules, and every
name of the package still resolves. Each case runs in a new interpreter: this one has kubernetes imported already."""

import subprocess
import sys
import textwrap

import pytest

import kubernetes

PREPARE = "from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import lean_import; lean_import.prepare()\n"


def run(code):
    result = subprocess.run([sys.executable, "-c", PREPARE + textwrap.dedent(code)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_collection_client_loads_a_few_modules():
    out = run("""
        import sys
        from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import api, client
        client.build_api_client({"host": "https://10.0.0.1:6443", "api_key": "token"})
        print(sum(1 for name in sys.modules if name.startswith("kubernetes")))
    """)
    assert int(out) < 40  # the whole import is over 800


def test_host_and_token_load_no_kubeconfig_code():
    # kubernetes.config (and the yaml, oauthlib, requests_oauthlib and google-auth it imports) only with a kubeconfig.
    out = run("""
        import sys
        from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import api, client
        client.build_api_client({"host": "https://10.0.0.1:6443", "api_key": "token"})
        print(sorted(name for name in ("kubernetes.config", "yaml", "oauthlib", "requests_oauthlib") if name in sys.modules))
        client.build_api_client({"kubeconfig": {
            "current-context": "t", "clusters": [{"name": "c", "cluster": {"server": "https://10.0.0.1:6443"}}],
            "users": [{"name": "u", "user": {"token": "t"}}], "contexts": [{"name": "t", "context": {"cluster": "c", "user": "u"}}]}})
        print("kubernetes.config" in sys.modules)
    """)
    assert out.split("\n")[:2] == ["[]", "True"]


@pytest.mark.parametrize("code", [
    "from kubernetes import client; assert client.V1Pod.__name__ == 'V1Pod' and client.CoreV1Api.__name__ == 'CoreV1Api'",
    "from kubernetes import watch, dynamic, config; assert watch.Watch and dynamic.DynamicClient and config.load_kube_config",
    "import kubernetes.client.models as m; assert m.V1ConfigMap.__name__ == 'V1ConfigMap'",
    # The ApiClient finds a model class by its name when it deserializes a typed answer.
    "from kubernetes import client; assert client.ApiClient()._ApiClient__deserialize({'metadata': {'name': 'x'}}, 'V1Pod').metadata.name == 'x'",
])
def test_every_name_still_resolves(code):
    run(code)


def test_nothing_is_replaced_once_kubernetes_is_imported():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s import lean_import
    lean_import.prepare()
    assert sys.modules["kubernetes"] is kubernetes and sys.modules["kubernetes.client"] is kubernetes.client
