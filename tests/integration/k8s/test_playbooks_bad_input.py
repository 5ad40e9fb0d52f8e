# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A bad vnf_lifecycle_request stops the instantiate playbook before its first write, with an error that names the
variable and says what is wrong, and never shows the request's text (it may hold a credential): 0 writes in the
apiserver's audit log."""

from __future__ import annotations

import json
import os

from ansible_collections.nfv.vnflcm.tests.integration.playbook_runs import PlaybookDriver, expect

SECRET = "s3cret-in-a-request-file"
# Nine levels of ten-fold aliases: 10**9 nodes if expanded, in a few hundred bytes.
ALIAS_BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    "{0}: &{0} [{1}]\n".format(chr(ord("b") + level), ", ".join(["*" + chr(ord("a") + level)] * 10)) for level in range(8))


def test_bad_requests_are_refused_before_any_write(k8s_tenant, k8s_audit, tacker_packages, tmp_path):
    files = tmp_path / "requests"
    files.mkdir()
    cases = {
        "alias bomb": ("bomb.yaml", ALIAS_BOMB, "aliases expanded the file has more than"),
        "malformed YAML": ("bad.yaml", 'flavourId: simple\naccessInfo:\n  password: "{0}\n  more: ['.format(SECRET), "malformed YAML at line"),
        "not one object": ("list.json", json.dumps([{"flavourId": "simple"}]), "must hold one JSON/YAML object"),
        "oversized": ("big.json", json.dumps({"flavourId": "simple", "pad": "x" * (1024 * 1024)}), "a request file may have"),
    }
    requests = {name: str(files / file) for name, (file, _text, _error) in cases.items()}
    for name, (file, text, _error) in cases.items():
        (files / file).write_text(text)
    requests["missing file"], cases["missing file"] = str(files / "none.json"), (None, None, "is no file")
    requests["broken JSON text"], cases["broken JSON text"] = '{"flavourId": "simple",', (None, None, "is not valid JSON")

    driver = PlaybookDriver(tmp_path / "cli", {"kubeconfig": str(k8s_tenant.kubeconfig)})
    package = os.path.join(tacker_packages, "test_cnf_multi_ns")
    start = k8s_audit.mark()
    for name, request in requests.items():
        run = expect(driver.run("instantiate", {"vnf_lifecycle_instance_name": "bad-input", "vnf_lifecycle_package": package,
                                                "vnf_lifecycle_request": request}), "failed")
        assert "vnf_lifecycle_request" in run.stdout and cases[name][2] in run.stdout, (name, run.stdout[-3000:])
        assert SECRET not in run.stdout, name
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []


def test_without_a_plan_in_check_mode_the_operation_still_refuses_bad_input_before_any_write(k8s_tenant, k8s_audit, tacker_packages, tmp_path):
    """Without hooks the role runs no plan in check mode before the operation: the operation's module finds the instance
    and validates the request itself, so an unknown instance, an unknown aspect or a request that is no object still
    end with an error that names what is wrong, and 0 writes."""
    driver = PlaybookDriver(tmp_path / "cli", {"kubeconfig": str(k8s_tenant.kubeconfig)})
    record = {"vnf_lifecycle_instance_name": "plan-free", "vnf_lifecycle_namespace": k8s_tenant.namespace}
    expect(driver.run("instantiate", dict(record, vnf_lifecycle_package=os.path.join(tacker_packages, "test_cnf_multi_ns"), vnf_lifecycle_request={
        "flavourId": "simple", "additionalParams": {"namespace": k8s_tenant.namespace,
                                                    "lcm-kubernetes-def-files": ["Files/kubernetes/deployment_no_namespace.yaml"]}})))
    cases = {
        "unknown instance": (dict(record, vnf_lifecycle_instance_name="nobody", vnf_lifecycle_request={"type": "SCALE_OUT", "aspectId": "vdu2_aspect"}),
                             "Failed to find VNF instance 'nobody' in namespace " + k8s_tenant.namespace),
        "unknown aspect": (dict(record, vnf_lifecycle_request={"type": "SCALE_OUT", "aspectId": "no_such_aspect"}), "no_such_aspect"),
        "not an object": (dict(record, vnf_lifecycle_request=["SCALE_OUT"]), "vnf_lifecycle_request must be a dict"),
    }
    start = k8s_audit.mark()
    for name, (variables, error) in cases.items():
        run = expect(driver.run("scale", variables), "failed")
        assert error in run.stdout, (name, run.stdout[-3000:])
    assert k8s_audit.writes(start, user=k8s_tenant.username) == []
