# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""fail of a CNF operation reads the record again from the cluster: replicas, scale levels, VNFCs (lcm/cnf/resume.py as_live).
With Tacker's test_instantiate_cnf_resources VNFD: VDU2 (Deployment vdu2) at vdu2_aspect level 1 has 2 VNFCs, maximum 3."""

from __future__ import annotations

import os

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import resume
from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

NS = "ns1"


@pytest.fixture(scope="module")
def flavour(fixtures_dir):
    with load_package(os.path.join(fixtures_dir, "test_instantiate_cnf_resources")) as package:
        return package.flavour("simple")


def instance(flavour, pods):
    vnfcs = [{"id": "vnfc-" + pod, "vduId": "VDU2", "computeResource": {"vimLevelResourceType": "Deployment", "resourceId": pod}}
             for pod in pods]
    return {"id": "i1", "instantiationState": "INSTANTIATED", "vnfInstanceName": "x",
            "instantiatedVnfInfo": {"flavourId": "simple", "scaleStatus": [{"aspectId": "vdu2_aspect", "scaleLevel": 1}],
                                    "vnfcResourceInfo": vnfcs,
                                    "metadata": {"namespace": NS, "vnflcm": {
                                        "flavour": flavour, "vnfc_counts": {"VDU2": 2},
                                        "resources": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "vdu2", "namespace": NS}]}}}}


class Cluster:
    def __init__(self, replicas):
        self.replicas = replicas

    def get(self, api_version, kind, name, namespace=None):
        if self.replicas is None:
            return None
        return {"apiVersion": api_version, "kind": kind, "metadata": {"name": name, "namespace": namespace}, "spec": {"replicas": self.replicas}}


def live_pods(*pods):
    def refresh(api, record, vdus=None, replaced=()):
        info = dict(record["instantiatedVnfInfo"], vnfcResourceInfo=[
            {"id": "vnfc-" + pod, "vduId": "VDU2", "computeResource": {"vimLevelResourceType": "Deployment", "resourceId": pod}} for pod in pods])
        return dict(record, instantiatedVnfInfo=info)
    return refresh


def test_a_scale_out_stopped_after_its_patch_is_recorded_at_the_level_its_replicas_stand_at(monkeypatch, flavour):
    monkeypatch.setattr(resume, "refresh_vnfcs", live_pods("p1", "p2", "p3"))
    result, notes = resume.as_live(Cluster(3), instance(flavour, ["p1", "p2"]))
    info = result["instantiatedVnfInfo"]
    assert info["scaleStatus"] == [{"aspectId": "vdu2_aspect", "scaleLevel": 2}]
    assert info["metadata"]["vnflcm"]["vnfc_counts"]["VDU2"] == 3 and len(info["vnfcResourceInfo"]) == 3
    assert notes == ["VDU2: 3 replicas, the record said 2", "vdu2_aspect: scale level 2, the record said 1",
                     "VNFC vnfc-p3 of VDU2 (pod p3): found"]


def test_a_heal_stopped_after_its_pod_delete_records_the_pod_that_runs(monkeypatch, flavour):
    monkeypatch.setattr(resume, "refresh_vnfcs", live_pods("p1", "p9"))
    result, notes = resume.as_live(Cluster(2), instance(flavour, ["p1", "p2"]))
    assert result["instantiatedVnfInfo"]["scaleStatus"] == [{"aspectId": "vdu2_aspect", "scaleLevel": 1}]
    assert notes == ["VNFC vnfc-p9 of VDU2 (pod p9): found", "VNFC vnfc-p2 of VDU2 (pod p2): gone"]


def test_replicas_no_level_gives_keep_the_level_and_say_so(monkeypatch, flavour):
    monkeypatch.setattr(resume, "refresh_vnfcs", live_pods())
    result, notes = resume.as_live(Cluster(7), instance(flavour, []))
    assert result["instantiatedVnfInfo"]["scaleStatus"] == [{"aspectId": "vdu2_aspect", "scaleLevel": 1}]
    assert "vdu2_aspect: its VDUs' counts match no scale level; level 1 kept" in notes
    assert notes[-1] == "VDU2: 0 pods for 7 replicas when read"


def test_a_fail_with_waits_reads_the_pods_again_until_each_vdu_has_its_replicas(monkeypatch, flavour):
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.common import Waits

    reads = iter([live_pods("p1"), live_pods("p1"), live_pods("p1", "p9")])

    def refresh(*args, **kwargs):
        return next(reads)(*args, **kwargs)

    monkeypatch.setattr(resume, "refresh_vnfcs", refresh)
    result, notes = resume.as_live(Cluster(2), instance(flavour, ["p1", "p2"]), Waits(True, 5, 0.01))
    assert [vnfc["computeResource"]["resourceId"] for vnfc in result["instantiatedVnfInfo"]["vnfcResourceInfo"]] == ["p1", "p9"]
    assert not any("when read" in note for note in notes)
