# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every VnfInstance and VnfLcmOpOcc a whole CNF lifecycle returns conforms to SOL003 (sol003_conformance.py), _links included.

Run by a namespaced ServiceAccount: instantiate (check mode, then for real), scale out, scale to level, heal, modify, a scale
held FAILED_TEMP by a pod quota (cnf_faults.block_pods) and rolled back, vnf_info along the way, terminate. The links
point at the record Secret of the instance (self, vnfInstance) and at the modules that act on it (getting-started guide, "Links").
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_faults import block_pods, unblock_pods
from ansible_collections.nfv.vnflcm.tests.integration.k8s.cnf_packages import MULTI_NS_VNFD_ID, build_package, config_map, def_files, deployment
from ansible_collections.nfv.vnflcm.tests.integration.sol003_conformance import assert_conforms

FILES = {
    "config.yaml": [config_map("cm-vdu1", {"mode": "a"})],
    "vdu1.yaml": [deployment("vdu1", "app:1.0", env_key=("cm-vdu1", "mode"))],
    "vdu2.yaml": [deployment("vdu2", "app:1.0")],
}


def test_every_document_of_a_cnf_lifecycle_conforms_to_sol003_with_links(ansible_task, kube, k8s_namespace, k8s_tenant, tacker_packages, tmp_path):
    ns = k8s_namespace
    package = build_package(os.path.join(tacker_packages, "test_cnf_multi_ns"), str(tmp_path / "pkg"), MULTI_NS_VNFD_ID, FILES)
    auth = {"kubeconfig": str(k8s_tenant.kubeconfig), "wait_timeout": 120, "wait_sleep": 1}
    request = {"flavourId": "simple", "additionalParams": {"lcm-kubernetes-def-files": def_files(FILES), "namespace": ns}}
    checked = []

    def task(module, args, check=False, failed=False):
        result = ansible_task(module, args, check=check)
        assert bool(result.get("failed")) is failed, result.get("msg")
        checked.append(assert_conforms(result))
        return result

    planned = task("vnf_instantiate", dict(auth, package=package, vnf_instance_name="cnf", request=request), check=True)
    assert planned["vnf_instance"]["instantiationState"] == "NOT_INSTANTIATED" and "instantiate" in planned["vnf_instance"]["_links"]
    done = task("vnf_instantiate", dict(auth, package=package, vnf_instance_name="cnf", request=request))
    instance_id = done["vnf_instance"]["id"]
    links = done["vnf_instance"]["_links"]
    record = links["self"]["href"]
    assert urlsplit(record).scheme == "https" and urlsplit(record).path == "/api/v1/namespaces/{0}/secrets/vnflcm-{1}".format(ns, instance_id)
    assert done["vnf_lcm_op_occ"]["_links"]["vnfInstance"] == {"href": record}
    assert links["scale"] == {"href": "nfv.vnflcm:vnf_scale?vnf_instance_id={0}&namespace={1}".format(instance_id, ns)}
    assert sorted(links) == ["heal", "scale", "scaleToLevel", "self", "terminate"]
    # The self link is where the record is.
    assert kube.call("GET", urlsplit(record).path)["metadata"]["labels"]
    # As Tacker v2 on Kubernetes: pods have no CP and the VNF no external CP; the VNFC metadata is the collection's own.
    info = done["vnf_instance"]["instantiatedVnfInfo"]
    assert "extCpInfo" not in info and not any(item.get("vnfcCpInfo") for item in info["vnfcResourceInfo"])
    assert {tuple(sorted(item["metadata"])) for item in info["vnfcResourceInfo"]} == {("namespace", "podUid", "workloadKind", "workloadName")}
    where = dict(auth, vnf_instance_id=instance_id, namespace=ns)
    task("vnf_instantiate", dict(auth, package=package, vnf_instance_name="cnf", request=request))

    task("vnf_scale", dict(where, request={"type": "SCALE_OUT", "aspectId": "vdu1_aspect"}), check=True)
    task("vnf_scale", dict(where, request={"type": "SCALE_OUT", "aspectId": "vdu1_aspect"}))
    level_0 = task("vnf_scale_to_level", dict(where, request={"scaleInfo": [{"aspectId": "vdu1_aspect", "scaleLevel": 0}]}))
    # A VNFC of the record as it is now: which of the scale out's pods the scale in removed is the ReplicaSet's choice.
    vnfc = level_0["vnf_instance"]["instantiatedVnfInfo"]["vnfcInfo"][0]
    task("vnf_heal", dict(where, request={"vnfcInstanceId": [vnfc["id"]]}))
    modified = task("vnf_modify", dict(where, request={"vnfInstanceDescription": "links checked", "metadata": {"tier": "gold"}}))
    assert modified["vnf_lcm_op_occ"]["operation"] == "MODIFY_INFO"

    # A scale out that cannot get its pods: FAILED_TEMP, with retry, rollback and fail links.
    block_pods(kube, ns)
    try:
        stuck = task("vnf_scale", dict(where, wait_timeout=5, request={"type": "SCALE_OUT", "aspectId": "vdu1_aspect"}), failed=True)
        failed = stuck["vnf_lcm_op_occ"]
        assert failed["operationState"] == "FAILED_TEMP" and sorted(failed["_links"]) == ["fail", "retry", "rollback", "self", "vnfInstance"]
        rollback = "nfv.vnflcm:vnf_lcm_op_occ?vnf_instance_id={0}&namespace={1}&vnf_lcm_op_occ_id={2}&action=rollback"
        assert failed["_links"]["rollback"] == {"href": rollback.format(instance_id, ns, failed["id"])}
        listed = task("vnf_info", dict(auth, namespace=ns))
        assert listed["vnf_lcm_op_occs"][0]["_links"]["rollback"] == failed["_links"]["rollback"]
        rolled = task("vnf_lcm_op_occ", dict(where, vnf_lcm_op_occ_id=failed["id"], action="rollback"))
        assert rolled["vnf_lcm_op_occ"]["operationState"] == "ROLLED_BACK" and sorted(rolled["vnf_lcm_op_occ"]["_links"]) == ["self", "vnfInstance"]
    finally:
        unblock_pods(kube, ns)

    listed = task("vnf_info", dict(auth, namespace=ns))
    assert len(listed["vnf_instances"]) == 1 and len(listed["vnf_lcm_op_occs"]) == 6
    task("vnf_info", dict(auth, namespace=ns, vnf_instance_id=instance_id))
    task("vnf_terminate", where, check=True)
    gone = task("vnf_terminate", where)
    assert gone["vnf_instance"]["instantiationState"] == "NOT_INSTANTIATED" and "instantiate" in gone["vnf_instance"]["_links"]
    assert sum(checked) >= 30, checked
