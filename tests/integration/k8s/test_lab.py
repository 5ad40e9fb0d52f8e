"""The lab behaves like a real cluster for what the collection relies on."""
import datetime
import time
from pathlib import Path

import pytest
from kubernetes import client, watch
from kubernetes.client.rest import ApiException
from labk8s.audit import summarize
from labk8s.cluster import ADMIN_USER, COMPONENTS, Lab

TIMEOUT = 60
LABELS = {"app": "web"}


def wait_for(predicate, what, timeout=TIMEOUT):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout}s waiting for {what}")
        time.sleep(0.2)


def pod_ready(pod) -> bool:
    conds = {c.type: c.status for c in (pod.status.conditions or [])}
    return pod.status.phase == "Running" and conds.get("Ready") == "True"


def pod_template():
    return client.V1PodTemplateSpec(
        metadata=client.V1ObjectMeta(labels=LABELS),
        spec=client.V1PodSpec(containers=[client.V1Container(name="web", image="registry.example/web:1")]))


def deployment(name, replicas):
    return client.V1Deployment(
        metadata=client.V1ObjectMeta(name=name),
        spec=client.V1DeploymentSpec(replicas=replicas, selector=client.V1LabelSelector(match_labels=LABELS),
                                     template=pod_template()))


def ready_pods(core, ns):
    pods = core.list_namespaced_pod(ns, label_selector="app=web").items
    return [p for p in pods if pod_ready(p) and not p.metadata.deletion_timestamp]


@pytest.fixture
def admin(k8s_lab):
    with k8s_lab.client() as api_client:
        yield api_client


def wait_deployment_ready(apps, core, ns, name, replicas):
    def done():
        d = apps.read_namespaced_deployment(name, ns)
        s = d.status
        settled = (s.observed_generation == d.metadata.generation and s.updated_replicas == replicas
                   and s.ready_replicas == replicas and s.replicas == replicas)
        pods = core.list_namespaced_pod(ns, label_selector="app=web").items
        return settled and len(pods) == replicas and all(pod_ready(p) for p in pods) and pods
    return wait_for(done, f"deployment {name} with {replicas} ready pods")


def test_deployment_reaches_three_ready_pods(admin, k8s_namespace):
    apps, core = client.AppsV1Api(admin), client.CoreV1Api(admin)
    apps.create_namespaced_deployment(k8s_namespace, deployment("web", 3))
    pods = wait_deployment_ready(apps, core, k8s_namespace, "web", 3)
    assert len({p.metadata.uid for p in pods}) == 3
    assert all(p.spec.node_name for p in pods), "every pod is scheduled onto a node"


def test_daemonset_has_one_ready_pod_per_node(admin, k8s_namespace):
    apps, core = client.AppsV1Api(admin), client.CoreV1Api(admin)
    nodes = {n.metadata.name for n in core.list_node().items if not n.spec.unschedulable}
    assert len(nodes) >= 2
    apps.create_namespaced_daemon_set(k8s_namespace, client.V1DaemonSet(
        metadata=client.V1ObjectMeta(name="agent"),
        spec=client.V1DaemonSetSpec(selector=client.V1LabelSelector(match_labels=LABELS), template=pod_template())))

    def done():
        ds = apps.read_namespaced_daemon_set("agent", k8s_namespace).status
        pods = ready_pods(core, k8s_namespace)
        return ds.number_ready == len(nodes) and ds.desired_number_scheduled == len(nodes) and len(pods) == len(nodes)
    wait_for(done, "one ready daemonset pod per node")
    pods = ready_pods(core, k8s_namespace)
    assert sorted(p.spec.node_name for p in pods) == sorted(nodes)


def test_rollout_restart_replaces_every_pod(admin, k8s_namespace):
    apps, core = client.AppsV1Api(admin), client.CoreV1Api(admin)
    ns = k8s_namespace
    apps.create_namespaced_deployment(ns, deployment("web", 3))
    old_uids = {p.metadata.uid for p in wait_deployment_ready(apps, core, ns, "web", 3)}
    old_rs = [rs.metadata.name for rs in apps.list_namespaced_replica_set(ns).items]
    assert len(old_rs) == 1

    # What `kubectl rollout restart` does.
    now = datetime.datetime.now(datetime.timezone.utc).isoformat()
    apps.patch_namespaced_deployment("web", ns, {"spec": {"template": {"metadata": {
        "annotations": {"kubectl.kubernetes.io/restartedAt": now}}}}})
    new_pods = wait_deployment_ready(apps, core, ns, "web", 3)

    assert len(new_pods) == 3
    assert not old_uids & {p.metadata.uid for p in new_pods}, "every pod was replaced"
    assert all(p.metadata.annotations.get("kubectl.kubernetes.io/restartedAt") == now for p in new_pods)
    wait_for(lambda: apps.read_namespaced_replica_set(old_rs[0], ns).status.replicas == 0, "old ReplicaSet at 0")
    old = apps.read_namespaced_replica_set(old_rs[0], ns)
    assert old.spec.replicas == 0
    new_rs = [rs for rs in apps.list_namespaced_replica_set(ns).items if rs.metadata.name != old_rs[0]]
    assert len(new_rs) == 1 and new_rs[0].status.ready_replicas == 3


def test_bare_pod_recreated_under_same_name_gets_new_uid(admin, k8s_namespace):
    core = client.CoreV1Api(admin)
    ns = k8s_namespace
    body = client.V1Pod(metadata=client.V1ObjectMeta(name="solo", labels=LABELS), spec=pod_template().spec)
    first = core.create_namespaced_pod(ns, body).metadata.uid
    wait_for(lambda: pod_ready(core.read_namespaced_pod("solo", ns)), "pod Ready")
    core.delete_namespaced_pod("solo", ns)

    def gone():
        try:
            core.read_namespaced_pod("solo", ns)
        except ApiException as exc:
            return exc.status == 404
        return False
    wait_for(gone, "pod deleted")
    second = core.create_namespaced_pod(ns, body).metadata.uid
    pod = wait_for(lambda: (p := core.read_namespaced_pod("solo", ns)) and pod_ready(p) and p, "recreated pod Ready")
    assert second != first
    assert pod.metadata.uid == second


def test_statefulset_pods_become_ready_in_order(admin, k8s_namespace):
    apps, core = client.AppsV1Api(admin), client.CoreV1Api(admin)
    ns = k8s_namespace
    rv = core.list_namespaced_pod(ns).metadata.resource_version
    apps.create_namespaced_stateful_set(ns, client.V1StatefulSet(
        metadata=client.V1ObjectMeta(name="db"),
        spec=client.V1StatefulSetSpec(replicas=2, service_name="db", selector=client.V1LabelSelector(match_labels=LABELS),
                                      template=pod_template())))
    # A watch from before the create sees events in etcd order, so the order check is exact.
    events, ready = [], set()
    w = watch.Watch()
    for ev in w.stream(core.list_namespaced_pod, ns, resource_version=rv, timeout_seconds=TIMEOUT):
        pod = ev["object"]
        events.append((ev["type"], pod.metadata.name, pod_ready(pod)))
        if pod_ready(pod):
            ready.add(pod.metadata.name)
        if ready == {"db-0", "db-1"}:
            w.stop()
    assert ready == {"db-0", "db-1"}, f"not all ready in time: {events}"
    first_db1 = next(i for i, e in enumerate(events) if e[1] == "db-1")
    first_db0_ready = next(i for i, e in enumerate(events) if e[1] == "db-0" and e[2])
    assert first_db0_ready < first_db1, f"db-1 was created before db-0 was Ready: {events}"
    sts = wait_for(lambda: (s := apps.read_namespaced_stateful_set("db", ns)).status.ready_replicas == 2 and s,
                   "statefulset status")
    assert sts.status.replicas == 2


def test_namespaced_service_account_is_confined(k8s_lab, admin, k8s_namespace, k8s_tenant):
    other = f"{k8s_namespace[:50]}-other"
    client.CoreV1Api(admin).create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=other)))
    try:
        with k8s_lab.client(k8s_tenant.kubeconfig) as tenant_client:
            apps, core = client.AppsV1Api(tenant_client), client.CoreV1Api(tenant_client)
            apps.create_namespaced_deployment(k8s_namespace, deployment("web", 1))
            wait_for(lambda: apps.read_namespaced_deployment("web", k8s_namespace).status.ready_replicas == 1,
                     "tenant deployment ready")

            with pytest.raises(ApiException) as exc:
                apps.create_namespaced_deployment(other, deployment("web", 1))
            assert exc.value.status == 403
            with pytest.raises(ApiException) as exc:
                core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=f"{other}-x")))
            assert exc.value.status == 403
            with pytest.raises(ApiException) as exc:
                core.list_node()
            assert exc.value.status == 403
    finally:
        client.CoreV1Api(admin).delete_namespace(other)


def test_audit_counts_writes_exactly(k8s_lab, admin, k8s_namespace, k8s_tenant, k8s_audit):
    ns = k8s_namespace
    start = k8s_audit.mark()
    with k8s_lab.client(k8s_tenant.kubeconfig) as tenant_client:
        core = client.CoreV1Api(tenant_client)
        cm = client.V1ConfigMap(metadata=client.V1ObjectMeta(name="a", labels={"t": "1"}), data={"k": "1"})
        core.create_namespaced_config_map(ns, cm)
        core.read_namespaced_config_map("a", ns)  # reads are not writes
        core.patch_namespaced_config_map("a", ns, {"data": {"k": "2"}})
        current = core.read_namespaced_config_map("a", ns)
        current.data["k"] = "3"
        core.replace_namespaced_config_map("a", ns, current)
        core.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="b", labels={"t": "1"})))
        core.delete_namespaced_config_map("a", ns)
        core.delete_collection_namespaced_config_map(ns, label_selector="t=1")
        with pytest.raises(ApiException) as exc:
            core.create_namespaced_config_map("default", cm)
        assert exc.value.status == 403
    # Writes by another user in the same window must not be counted for the tenant.
    client.CoreV1Api(admin).create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="c")))

    got = summarize(k8s_audit.writes(start, user=k8s_tenant.username))
    assert got == [
        ("create", "configmaps", ns, "a", 201),
        ("patch", "configmaps", ns, "a", 200),
        ("update", "configmaps", ns, "a", 200),
        ("create", "configmaps", ns, "b", 201),
        ("delete", "configmaps", ns, "a", 200),
        ("deletecollection", "configmaps", ns, None, 200),
        ("create", "configmaps", "default", None, 403),  # denied before the name is known
    ]
    assert len(k8s_audit.writes(start, user=k8s_tenant.username, succeeded_only=True)) == 6
    assert len(k8s_audit.writes(start, user=k8s_tenant.username, namespace="default")) == 1
    admin_writes = summarize(k8s_audit.writes(start, namespace=ns, user=ADMIN_USER))
    assert admin_writes == [("create", "configmaps", ns, "c", 201)]

    # Only reads since a new mark: zero writes.
    mark = k8s_audit.mark()
    with k8s_lab.client(k8s_tenant.kubeconfig) as tenant_client:
        client.CoreV1Api(tenant_client).list_namespaced_config_map(ns)
    assert k8s_audit.writes(mark, user=k8s_tenant.username) == []


def test_down_leaves_nothing_behind_and_up_works_again(k8s_lab, tmp_path):
    lab = Lab(tmp_path / "lab")
    bin_dir = k8s_lab.lab.state()["bin_dir"]
    try:
        lab.up(bin_dir)
        ports = lab.state()["ports"].values()
        pids = [lab.pid(n) for n in COMPONENTS]
        assert all(pids)
        lab.down()
        assert not [p for p in pids if Path(f"/proc/{p}").exists()], "a lab process survived down"
        assert not _listening(ports), "a lab port is still listening"
        lab.up(bin_dir)
        assert lab.is_up()
    finally:
        lab.down()


def _listening(ports) -> list[int]:
    """Ports among `ports` that some process listens on (from /proc/net/tcp, state 0A = LISTEN)."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            if state == "0A":
                found.add(int(local.rsplit(":", 1)[1], 16))
    return sorted(found & set(ports))
