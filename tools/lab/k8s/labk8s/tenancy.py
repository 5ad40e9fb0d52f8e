"""A namespace-only user: a ServiceAccount bound to a namespaced Role, with a kubeconfig carrying its token."""
import time
from dataclasses import dataclass
from pathlib import Path

from .kubeapi import Api, ApiError, kubeconfig, write_kubeconfig

# Everything inside the namespace, nothing cluster-scoped: what a namespace admin typically gets.
DEFAULT_RULES = [{
    "apiGroups": ["", "apps", "batch", "autoscaling", "policy", "networking.k8s.io", "coordination.k8s.io",
                  "discovery.k8s.io", "events.k8s.io"],
    "resources": ["*"],
    "verbs": ["*"],
}]


@dataclass
class Tenant:
    namespace: str
    service_account: str
    username: str  # as the apiserver (and the audit log) sees it
    token: str
    kubeconfig: Path


def create_tenant(admin_kubeconfig: Path, namespace: str, kubeconfig_path: Path, *, service_account: str = "tenant",
                  rules: list[dict] | None = None, create_namespace: bool = True,
                  expiration_seconds: int = 3600, timeout: float = 30) -> Tenant:
    """Create (idempotently) the namespace, ServiceAccount, Role and RoleBinding; write and return the tenant kubeconfig."""
    api = Api(admin_kubeconfig)
    ns = f"/api/v1/namespaces/{namespace}"
    rbac = f"/apis/rbac.authorization.k8s.io/v1/namespaces/{namespace}"
    name = service_account
    if create_namespace:
        api.call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace",
                                                 "metadata": {"name": namespace}}, ok=(201, 409))
    api.call("POST", f"{ns}/serviceaccounts", {"apiVersion": "v1", "kind": "ServiceAccount",
                                               "metadata": {"name": name}}, ok=(201, 409))
    api.call("POST", f"{rbac}/roles", {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
                                       "metadata": {"name": name}, "rules": rules or DEFAULT_RULES}, ok=(201, 409))
    api.call("POST", f"{rbac}/rolebindings", {
        "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": {"name": name},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": name},
        "subjects": [{"kind": "ServiceAccount", "name": name, "namespace": namespace}]}, ok=(201, 409))
    tr = api.call("POST", f"{ns}/serviceaccounts/{name}/token", {
        "apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest",
        "spec": {"expirationSeconds": expiration_seconds}})
    token = tr["status"]["token"]
    # Pods need the namespace's default ServiceAccount (created by the controller-manager).
    deadline = time.monotonic() + timeout
    while api.request("GET", f"{ns}/serviceaccounts/default")[0] != 200:
        if time.monotonic() > deadline:
            raise ApiError(404, f"ServiceAccount {namespace}/default did not appear")
        time.sleep(0.1)
    username = f"system:serviceaccount:{namespace}:{name}"
    write_kubeconfig(Path(kubeconfig_path), kubeconfig(api.server, api.ca_pem, username, token=token, namespace=namespace))
    return Tenant(namespace, name, username, token, Path(kubeconfig_path))

