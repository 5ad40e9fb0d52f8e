# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The Helm driver's pure parts: the rendered objects as placed, the kept chart's Secret, the record's release, and the
refusal of what it does not do yet."""

from __future__ import annotations

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError, VnfLcmError
from ansible_collections.nfv.vnflcm.plugins.module_utils.helm import cli, kept_chart
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import drivers
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm import change_pkg, chart
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.helm.instantiate import with_pending_release

INSTANCE_ID = "0c1d2e3f-0000-4000-8000-000000000001"


class FakeApi:
    """Secrets in a dict, every write counted."""

    def __init__(self):
        self.secrets, self.writes = {}, []

    def get(self, api_version, kind, name, namespace=None):
        return self.secrets.get((namespace, name))

    def create(self, obj, namespace=None, dry_run=False):
        meta = obj["metadata"]
        self.secrets[(meta["namespace"], meta["name"])] = dict(obj, metadata=dict(meta, resourceVersion="1"))
        self.writes.append(("create", meta["name"]))

    def replace(self, obj, dry_run=False):
        meta = obj["metadata"]
        self.secrets[(meta["namespace"], meta["name"])] = dict(obj, metadata=dict(meta, resourceVersion=str(int(meta["resourceVersion"]) + 1)))
        self.writes.append(("replace", meta["name"]))


def test_hooks_are_left_to_helm_and_namespaced_objects_placed_in_the_release_namespace():
    documents = [
        {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "vdu1"}},
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "test", "annotations": {"helm.sh/hook": "test"}}},
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "reader"}},
        {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "svc", "namespace": "ns1"}},
    ]
    placed = chart.placed(documents, "ns1", lambda api_version, kind: kind != "ClusterRole")
    assert [(obj["kind"], obj["metadata"].get("namespace")) for obj in placed] == [("Deployment", "ns1"), ("ClusterRole", None), ("Service", "ns1")]
    assert "namespace" not in documents[0]["metadata"]  # the rendered documents are not changed


def test_the_values_digest_keeps_no_value_and_tells_values_apart():
    digest = chart.values_digest({"db.password": "s3cret-value", "replicaCountVdu1": 1})
    assert "s3cret" not in digest and digest == chart.values_digest({"replicaCountVdu1": 1, "db.password": "s3cret-value"})
    assert digest != chart.values_digest({"db.password": "other", "replicaCountVdu1": 1})


def test_the_chart_is_kept_once_beside_the_record_and_read_back_by_its_digest():
    api = FakeApi()
    content = b"\x1f\x8b chart bytes"
    kept_chart.keep_chart(api, INSTANCE_ID, "ns1", content)
    kept_chart.keep_chart(api, INSTANCE_ID, "ns1", content)  # a retry: the same chart, no write
    assert api.writes == [("create", "vnflcm-" + INSTANCE_ID + "-chart")]
    secret = api.secrets[("ns1", "vnflcm-" + INSTANCE_ID + "-chart")]
    # The record's other Secrets' labels: it goes with the identifier, and is no record itself.
    assert secret["metadata"]["labels"]["vnflcm.nfv/record"] == "chart"
    assert kept_chart.kept_chart(api, INSTANCE_ID, "ns1", kept_chart.chart_digest(content)) == content
    kept_chart.keep_chart(api, INSTANCE_ID, "ns1", b"another chart")
    assert api.writes[-1][0] == "replace"
    with pytest.raises(VnfLcmError, match="does not hold the chart the release was installed from"):
        kept_chart.kept_chart(api, INSTANCE_ID, "ns1", kept_chart.chart_digest(content))


def test_a_chart_too_big_for_a_secret_is_refused_before_any_write():
    api = FakeApi()
    with pytest.raises(VnfLcmError, match="do not fit in a Secret"):
        kept_chart.keep_chart(api, INSTANCE_ID, "ns1", b"x" * (1024 * 1024))
    assert api.writes == []


def test_an_unfinished_instantiate_names_its_release_for_the_next_operation():
    workload = {"apiVersion": "apps/v1", "kind": "Deployment", "name": "vdu1", "namespace": "ns1"}
    state = {"release": "vnf0c1d", "namespace": "ns1", "vdus": {"VDU1": workload}}
    pending = with_pending_release({"id": INSTANCE_ID, "instantiationState": "NOT_INSTANTIATED"}, "simple", "ns1", state)
    assert chart.release_of(pending) == state
    assert drivers.instance_driver(pending, drivers.CNF) == drivers.HELM
    assert chart.recorded_workloads(pending)["VDU1"]["object"]["metadata"] == {"name": "vdu1", "namespace": "ns1"}


@pytest.mark.parametrize("option, value, reason", [("current_package", "/p", "OpenStack only"), ("rollout", "side_by_side", "one helm upgrade")])
def test_the_other_drivers_change_of_package_options_are_refused_before_the_package_is_read(option, value, reason):
    with pytest.raises(ValidationError, match=reason):
        change_pkg.run_change_pkg({option: value, "package": "/nowhere"})


def test_a_change_of_package_keeps_the_old_chart_beside_the_new_one():
    api = FakeApi()
    old, new = b"old chart", b"new chart"
    kept_chart.keep_chart(api, INSTANCE_ID, "ns1", old)
    kept_chart.keep_chart(api, INSTANCE_ID, "ns1", new, also=(kept_chart.chart_digest(old),))
    for content in (old, new):
        assert kept_chart.kept_chart(api, INSTANCE_ID, "ns1", kept_chart.chart_digest(content)) == content
    # The next change keeps the chart it leaves and the new one only.
    kept_chart.keep_chart(api, INSTANCE_ID, "ns1", b"third", also=(kept_chart.chart_digest(new),))
    assert sorted(kept_chart.read_charts(api.secrets[("ns1", kept_chart.chart_secret_name(INSTANCE_ID))])) == sorted(
        kept_chart.chart_digest(content) for content in (new, b"third"))


class PendingHelm:
    """A Helm whose release a killed helm left ``status``: it refuses upgrades while pending, as Helm does."""

    def __init__(self, status):
        self.status_now, self.calls = status, []

    def status(self, release, namespace):
        return release_at(3, self.status_now)

    def upgrade(self, path, release, namespace, set_values=None, reuse_values=True, timeout=None):
        self.calls.append(("upgrade", release))
        if cli.is_pending(self.status_now):
            raise cli.HelmError("upgrade", "another operation (install/upgrade/rollback) is in progress")
        if self.status_now == "failed":
            raise cli.HelmError("upgrade", "the chart does not render")
        return release_at(4, "deployed")

    def rollback(self, release, revision, namespace, timeout=None):
        self.calls.append(("rollback", revision))
        self.status_now = "deployed"


STATE = {"release": "vnfrel", "namespace": "ns1", "revision": 1}


def release_at(revision, status):
    return cli.Release("vnfrel", "ns1", revision, status, "c", "0.1.0", "", "", "", "")


def test_a_release_left_pending_by_a_killed_helm_is_rolled_back_to_the_recorded_revision_then_upgraded():
    helm = PendingHelm("pending-upgrade")
    assert chart.upgraded(helm, b"chart", STATE, {"replicas": 2}, 30).revision == 4
    assert helm.calls == [("upgrade", "vnfrel"), ("rollback", 1), ("upgrade", "vnfrel")]


def test_an_upgrade_that_fails_for_another_reason_is_not_retried():
    helm = PendingHelm("failed")
    with pytest.raises(cli.HelmError, match="does not render"):
        chart.upgraded(helm, b"chart", STATE, {}, 30)
    assert helm.calls == [("upgrade", "vnfrel")]
