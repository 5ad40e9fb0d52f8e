"""Fixtures for tests against the local Kubernetes lab (tools/lab/k8s).

k8s_lab (session): uses a lab that is already up in $NFV_LAB_STATE_DIR (or the default state dir,
e.g. after `lab.py up`), else starts a private one and stops it at the end of the session.
If the binaries are not built, tests fail when $CI is set or NFV_LAB_REQUIRED=1, else they skip.
"""
import os
import re
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest


def _lab_dir() -> Path:
    """tools/lab/k8s of the checkout, also when the tests run from a staged copy inside it."""
    if os.environ.get("NFV_LAB_TOOLS_DIR"):
        return Path(os.environ["NFV_LAB_TOOLS_DIR"])
    for parent in Path(__file__).resolve().parents:
        if (parent / "tools" / "lab" / "k8s" / "labk8s").is_dir():
            return parent / "tools" / "lab" / "k8s"
    raise RuntimeError("tools/lab/k8s not found above this file; set NFV_LAB_TOOLS_DIR")


LAB_DIR = _lab_dir()
sys.path.insert(0, str(LAB_DIR))

from labk8s import build  # noqa: E402
from labk8s.audit import AuditLog  # noqa: E402
from labk8s.cluster import Lab  # noqa: E402
from labk8s.kubeapi import Api  # noqa: E402
from labk8s.tenancy import Tenant, create_tenant  # noqa: E402


@dataclass
class LabHandle:
    lab: Lab
    kubeconfig: Path
    owned: bool  # started by this session (and stopped at its end)

    def client(self, kubeconfig: Path | None = None):
        """A kubernetes.client.ApiClient for the admin (or the given kubeconfig)."""
        from kubernetes import config

        return config.new_client_from_config(config_file=str(kubeconfig or self.kubeconfig))


def _lab_required() -> bool:
    return bool(os.environ.get("CI")) or os.environ.get("NFV_LAB_REQUIRED") == "1"


def _unavailable(reason: str):
    if _lab_required():
        pytest.fail(f"Kubernetes lab required (CI or NFV_LAB_REQUIRED=1) but {reason}", pytrace=False)
    pytest.skip(f"Kubernetes lab not available: {reason}")


# `make integration` runs these files on pytest-xdist workers, a file to a worker (--dist loadfile), handed out in
# collection order (--no-loadscope-reorder: pytest-xdist would order them by their number of tests): the longest files
# first (worker-minutes of a run, `python3 tools/test_times.py`: 5-10 min each under load), so that no worker is left
# running one of them alone at the end.
LONGEST_FIRST = ("test_tacker_cnf_flows.py", "test_role_secrets.py", "test_cnf_container_update.py", "test_role_molecule.py",
                 "test_cnf_change_pkg.py", "test_secrets.py", "test_closed_loop.py", "test_playbooks.py", "test_cnf_faults.py",
                 "test_helm_lifecycle.py", "test_cnf_lifecycle.py", "test_cnf_crash_sweep.py", "test_cnf_interface_scripts.py", "test_cnf_scale_to_level.py",
                 "test_cnf_kills.py", "test_module_examples.py", "test_cnf_bad_input.py")


def pytest_collection_modifyitems(items):
    rank = {name: index for index, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: each file's own order is kept


@pytest.fixture(scope="session")
def k8s_lab(tmp_path_factory):
    running = Lab()
    if running.is_up():
        yield LabHandle(running, running.kubeconfig, owned=False)
        return
    try:
        bin_dir = build.find_bin_dir()
    except RuntimeError as exc:  # e.g. go missing
        _unavailable(str(exc))
    if not bin_dir:
        _unavailable(f"binaries are not built; run `{LAB_DIR}/lab.py build` (about 10 min, once per machine)")
    lab = Lab(tmp_path_factory.mktemp("k8s-lab"))
    lab.up(bin_dir)  # raises with the components' log tails on failure
    try:
        yield LabHandle(lab, lab.kubeconfig, owned=True)
    finally:
        lab.down(quiet=True)


@pytest.fixture
def k8s_namespace(k8s_lab, request):
    """A fresh namespace (with its default ServiceAccount) per test, deleted afterwards."""
    api = Api(k8s_lab.kubeconfig)
    base = re.sub(r"[^a-z0-9-]+", "-", request.node.name.lower()).strip("-")[:40].strip("-")
    name = f"{base}-{uuid.uuid4().hex[:6]}"
    api.call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}})
    deadline = time.monotonic() + 30
    while api.request("GET", f"/api/v1/namespaces/{name}/serviceaccounts/default")[0] != 200:
        assert time.monotonic() < deadline, f"namespace {name} got no default ServiceAccount"
        time.sleep(0.1)
    yield name
    api.request("DELETE", f"/api/v1/namespaces/{name}")


@pytest.fixture
def k8s_tenant(k8s_lab, k8s_namespace, tmp_path) -> Tenant:
    """A ServiceAccount limited (by a Role) to the test namespace, with its own kubeconfig."""
    return create_tenant(k8s_lab.kubeconfig, k8s_namespace, tmp_path / "tenant.kubeconfig", create_namespace=False)


@pytest.fixture
def k8s_audit(k8s_lab) -> AuditLog:
    return AuditLog.for_lab(k8s_lab.lab)


@pytest.fixture(scope="session")
def tacker_helm(tacker_packages):
    """Tacker's Helm fixtures, beside its other sample packages (NFV_FIXTURES_DIR): ../tacker-helm, with its package
    test_helm_instantiate and, under requests/test_helm, the request bodies of its Helm functional test."""
    path = os.path.join(os.path.dirname(tacker_packages), "tacker-helm")
    if not os.path.isdir(path):
        pytest.fail("Tacker's Helm fixtures not found at {0} (tacker-helm beside NFV_FIXTURES_DIR)".format(path), pytrace=False)
    return path


@pytest.fixture(scope="session")
def helm_binary():
    """The lab's Helm (tools/lab/helm beside tools/lab/k8s: NFV_HELM_BIN, else the one `make lab-build` built), as the
    collection's find_helm checks it."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.helm.cli import find_helm

    helm_dir = LAB_DIR.parent / "helm"
    if str(helm_dir) not in sys.path:
        sys.path.insert(0, str(helm_dir))
    import helm_lab

    path = helm_lab.find_binary()
    if not path:
        pytest.fail("helm is not built: run `make lab-build-helm` (tools/lab/helm/helm_lab.py build)", pytrace=False)
    return find_helm(str(path))


@pytest.fixture
def kube(k8s_lab):
    """The lab's admin API (labk8s.kubeapi.Api)."""
    return Api(k8s_lab.kubeconfig)


@pytest.fixture
def collections_path():
    path = os.environ.get("ANSIBLE_COLLECTIONS_PATH")
    if not path:
        pytest.fail("ANSIBLE_COLLECTIONS_PATH is not set: run the integration tests with `make integration`")
    return path


@pytest.fixture
def collection_root():
    """The collection root (the checkout, or a staged copy that holds these tests)."""
    return Path(__file__).resolve().parents[3]


@pytest.fixture
def venv_tool():
    """``venv_tool(name)``: a console script of the Python that runs the tests, else the one on PATH."""

    def find(name):
        local = os.path.join(os.path.dirname(sys.executable), name)
        return local if os.path.exists(local) else name

    return find
