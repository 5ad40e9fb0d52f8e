# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Bad input writes nothing: a corpus of broken packages, requests, sizes, RBAC and API verdicts, each refused
with an error that names the field, file or object at fault, and not one write in the apiserver's audit log.

All cases run in one playbook (one ansible-playbook start); the audit log is read once for all of them.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import zipfile

import pytest
import yaml

from labk8s.audit import summarize
from labk8s.cluster import ADMIN_USER

DEF_DIR = "Files/kubernetes/"
NO_NS = DEF_DIR + "deployment_no_namespace.yaml"
HAS_NS = DEF_DIR + "deployment_has_namespace.yaml"
NS01 = DEF_DIR + "namespace01.yaml"
NEW_VNFD_ID = "b1bb0ce7-ebca-4fa7-95ed-000000000001"


def add_files(root, files, declare=True):
    """Write ``{relpath: text}`` into the package, listed in TOSCA.meta with their hashes when ``declare``."""
    meta = os.path.join(root, "TOSCA-Metadata", "TOSCA.meta")
    for relpath, text in files.items():
        path = os.path.join(root, relpath)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as handle:
            handle.write(text)
        if declare:
            with open(meta) as handle:
                current = handle.read().rstrip("\n")
            with open(meta, "w") as handle:
                handle.write(current + "\n\nName: {0}\nContent-Type: application/yaml\nAlgorithm: SHA-256\nHash: {1}\n".format(
                    relpath, hashlib.sha256(text.encode()).hexdigest()))
    return root


def configmap(name, value="v"):
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": {"key": value}}


def deployment(name, **spec):
    labels = {"app": name}
    body = {"replicas": 1, "selector": {"matchLabels": labels},
            "template": {"metadata": {"labels": labels}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}
    body.update(spec)
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name}, "spec": body}


# Nine levels of ten aliases each: a few hundred bytes that expand to 10^9 nodes.
ALIAS_BOMB = "\n".join(["a: &a [x, x, x, x, x, x, x, x, x, x]"]
                       + ["{0}: &{0} [{1}]".format(chr(98 + i), ", ".join(["*" + chr(97 + i)] * 10)) for i in range(8)]) + "\n"


@pytest.fixture
def packages(tacker_packages, tmp_path):
    """Broken or unusual copies of test_cnf_multi_ns, by name."""
    source = os.path.join(tacker_packages, "test_cnf_multi_ns")

    def copy_of(name):
        root = str(tmp_path / name)
        shutil.copytree(source, root)
        return root

    made = {"good": source, "missing": str(tmp_path / "no-such-package")}
    made["no_meta"] = copy_of("no_meta")
    os.remove(os.path.join(made["no_meta"], "TOSCA-Metadata", "TOSCA.meta"))
    made["broken_vnfd"] = copy_of("broken_vnfd")
    with open(os.path.join(made["broken_vnfd"], "Definitions", "helloworld3_df_simple.yaml"), "a") as handle:
        handle.write("\n  bad: [unclosed\n")
    made["broken_def"] = add_files(copy_of("broken_def"), {DEF_DIR + "broken.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x\n"})
    made["alias_bomb"] = add_files(copy_of("alias_bomb"), {DEF_DIR + "bomb.yaml": ALIAS_BOMB})
    made["huge_file"] = copy_of("huge_file")
    with open(os.path.join(made["huge_file"], DEF_DIR, "huge.yaml"), "w") as handle:
        handle.write(yaml.safe_dump(configmap("huge")) + "# " + "x" * (50 * 1024 * 1024) + "\n")
    made["huge_object"] = add_files(copy_of("huge_object"), {DEF_DIR + "big.yaml": yaml.safe_dump(configmap("big", "x" * (2 * 1024 * 1024)))})
    made["undeclared"] = add_files(copy_of("undeclared"), {DEF_DIR + "extra.yaml": yaml.safe_dump(configmap("extra"))}, declare=False)
    made["too_many"] = add_files(copy_of("too_many"), {DEF_DIR + "many.yaml": yaml.safe_dump_all([configmap("m{0}".format(i)) for i in range(1001)])})
    made["unknown_kind"] = add_files(copy_of("unknown_kind"), {DEF_DIR + "widget.yaml": yaml.safe_dump(
        {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}})})
    made["cluster_role"] = add_files(copy_of("cluster_role"), {DEF_DIR + "clusterrole.yaml": yaml.safe_dump(
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "vnflcm-corpus-reader"},
         "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}]})})
    made["invalid"] = add_files(copy_of("invalid"), {DEF_DIR + "invalid.yaml": yaml.safe_dump(deployment("invalid", replicas=-1))})
    made["configmaps"] = add_files(copy_of("configmaps"), {DEF_DIR + "cms.yaml": yaml.safe_dump_all([configmap("corpus-a"), configmap("taken")])})
    # One ConfigMap in two def files: the second create's content would be lost.
    made["same_object"] = add_files(copy_of("same_object"), {DEF_DIR + "conf-a.yaml": yaml.safe_dump(configmap("conf", "a")),
                                                             DEF_DIR + "conf-b.yaml": yaml.safe_dump(configmap("conf", "b"))})
    made["import_loop"] = copy_of("import_loop")
    types = os.path.join(made["import_loop"], "Definitions", "helloworld3_types.yaml")
    with open(types) as handle:
        text = handle.read()
    with open(types, "w") as handle:
        handle.write(text.replace("  - etsi_nfv_sol001_vnfd_types.yaml\n", "  - etsi_nfv_sol001_vnfd_types.yaml\n  - helloworld3_df_simple.yaml\n", 1))
    made["zip"] = str(tmp_path / "broken.zip")
    with zipfile.ZipFile(made["zip"], "w") as archive:
        archive.writestr("TOSCA-Metadata/TOSCA.meta", "not: [a tosca meta")
    # A new package for a change of containers that lacks the def file of the running VDU (vdu2).
    made["without_vdu2"] = copy_of("without_vdu2")
    os.remove(os.path.join(made["without_vdu2"], NO_NS))
    meta = os.path.join(made["without_vdu2"], "TOSCA-Metadata", "TOSCA.meta")
    with open(meta) as handle:
        blocks = handle.read().split("\n\n")
    with open(meta, "w") as handle:
        handle.write("\n\n".join(block for block in blocks if NO_NS not in block))
    top = os.path.join(made["without_vdu2"], "Definitions", "helloworld3_top.vnfd.yaml")
    with open(top) as handle:
        text = handle.read()
    with open(top, "w") as handle:
        handle.write(text.replace("b1bb0ce7-ebca-4fa7-95ed-4840d70a8993", NEW_VNFD_ID))
    made["two_namespaces"] = add_files(copy_of("two_namespaces"), {DEF_DIR + "in_ns01.yaml": yaml.safe_dump(
        dict(deployment("other"), metadata={"name": "other", "namespace": "multi-namespace01"}))})
    return made


def request(def_files, namespace=None, **extra):
    params = {"lcm-kubernetes-def-files": def_files}
    if namespace:
        params["namespace"] = namespace
    return dict({"flavourId": "simple", "additionalParams": params}, **extra)


def test_bad_input_is_refused_with_a_clear_error_and_writes_nothing(ansible_task, ansible_play, k8s_lab, kube, k8s_namespace,
                                                                    k8s_tenant, packages, k8s_audit):
    ns = k8s_namespace
    admin = {"kubeconfig": str(k8s_lab.kubeconfig), "wait_timeout": 60, "wait_sleep": 1}
    tenant = {"kubeconfig": str(k8s_tenant.kubeconfig), "wait_timeout": 60, "wait_sleep": 1}
    # What the cases act on: an instance of the package, a quota of no ConfigMaps in a second namespace, a foreign ConfigMap.
    done = ansible_task("vnf_instantiate", dict(admin, package=packages["good"], vnf_instance_name="corpus", request=request([NO_NS], ns)))
    assert not done.get("failed"), done.get("msg")
    vnfc = done["vnf_instance"]["instantiatedVnfInfo"]["vnfcInfo"][0]["id"]
    kube.call("POST", "/api/v1/namespaces/{0}/configmaps".format(ns), {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "taken"}})
    quota_ns = ns + "-q"
    kube.call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": quota_ns}})
    try:
        kube.call("POST", "/api/v1/namespaces/{0}/resourcequotas".format(quota_ns), {
            "apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "no-configmaps"}, "spec": {"hard": {"count/configmaps": "0"}}})
        wait_quota(kube, quota_ns)
        run_corpus(ansible_play, k8s_audit, admin, tenant, k8s_tenant, ns, quota_ns, packages, vnfc)
    finally:
        kube.request("DELETE", "/api/v1/namespaces/" + quota_ns)


def wait_quota(kube, namespace):
    import time
    for _attempt in range(60):
        if (kube.call("GET", "/api/v1/namespaces/{0}/resourcequotas/no-configmaps".format(namespace)).get("status") or {}).get("hard"):
            return
        time.sleep(0.5)
    raise AssertionError("the quota was not taken up")


def run_corpus(ansible_play, k8s_audit, admin, tenant, k8s_tenant, ns, quota_ns, packages, vnfc):
    def inst(package, req, name="corpus-new", auth=admin, **options):
        return dict(auth, package=packages[package], vnf_instance_name=name, request=req, **options)

    where = dict(admin, namespace=ns, vnf_instance_name="corpus")
    with open(admin["kubeconfig"]) as handle:
        server = yaml.safe_load(handle)["clusters"][0]["cluster"]["server"]
    elsewhere = "request.vimConnectionInfo.vim1.interfaceInfo.endpoint: names {0}, but the module connects to " + server + " ("
    cases = [
        # (case, module, args, words the error must contain)
        ("package path missing", "vnf_instantiate", inst("missing", request([NO_NS], ns)), "no-such-package"),
        ("no TOSCA.meta", "vnf_instantiate", inst("no_meta", request([NO_NS], ns)), "TOSCA-Metadata/TOSCA.meta"),
        ("broken VNFD", "vnf_instantiate", inst("broken_vnfd", request([NO_NS], ns)), "helloworld3_df_simple.yaml"),
        ("broken def file", "vnf_instantiate", inst("broken_def", request([DEF_DIR + "broken.yaml"], ns)), "broken.yaml"),
        ("YAML alias bomb", "vnf_instantiate", inst("alias_bomb", request([DEF_DIR + "bomb.yaml"], ns)), "bomb.yaml"),
        ("50 MB def file", "vnf_instantiate", inst("huge_file", request([DEF_DIR + "huge.yaml"], ns)), "huge.yaml"),
        ("object over 1.5 MiB", "vnf_instantiate", inst("huge_object", request([DEF_DIR + "big.yaml"], ns)), "ConfigMap big"),
        ("undeclared def file", "vnf_instantiate", inst("undeclared", request([DEF_DIR + "extra.yaml"], ns)), "is not declared by the package"),
        ("over 1000 objects", "vnf_instantiate", inst("too_many", request([DEF_DIR + "many.yaml"], ns)), "more than the limit of 1000"),
        ("zip that is no CSAR", "vnf_instantiate", inst("zip", request([NO_NS], ns)), "TOSCA.meta"),
        ("def file not in the package", "vnf_instantiate", inst("good", request([DEF_DIR + "nope.yaml"], ns)), "lcm-kubernetes-def-files[0]"),
        ("def file outside the package", "vnf_instantiate", inst("good", request(["../x.yaml"], ns)), "outside the package"),
        ("def file listed twice", "vnf_instantiate", inst("good", request([NO_NS, NO_NS], ns)), "lcm-kubernetes-def-files[1]"),
        ("one object in two def files", "vnf_instantiate", inst("same_object", request([DEF_DIR + "conf-a.yaml", DEF_DIR + "conf-b.yaml"], ns)),
         "ConfigMap conf (namespace {0}) is defined twice: in Files/kubernetes/conf-a.yaml (document 1) and in "
         "Files/kubernetes/conf-b.yaml (document 1)".format(ns)),
        ("VNFD import loop", "vnf_instantiate", inst("import_loop", request([NO_NS], ns)),
         "Definitions/helloworld3_types.yaml -> Definitions/helloworld3_df_simple.yaml -> Definitions/helloworld3_types.yaml"),
        ("a VNFD file as def file", "vnf_instantiate", inst("good", request(["Definitions/helloworld3_df_simple.yaml"], ns)),
         "lcm-kubernetes-def-files[0]"),
        ("no def files", "vnf_instantiate", inst("good", {"flavourId": "simple", "additionalParams": {"namespace": ns}}), "lcm-kubernetes-def-files"),
        ("unknown flavour", "vnf_instantiate", inst("good", dict(request([NO_NS], ns), flavourId="nope")), "flavourId"),
        ("unknown level", "vnf_instantiate", inst("good", request([NO_NS], ns, instantiationLevelId="nope")), "instantiationLevelId"),
        ("unknown request field", "vnf_instantiate", inst("good", request([NO_NS], ns, bogus=1)), "bogus"),
        ("a password of 1 MiB in accessInfo", "vnf_instantiate", inst("good", request([NO_NS], ns, vimConnectionInfo={"vim1": {
            "vimType": "kubernetes", "interfaceInfo": {"endpoint": server}, "accessInfo": {"password": "p" * (1024 * 1024)}}})),
         "request.vimConnectionInfo.vim1.accessInfo.password: is 1048576 characters long, more than the limit of 65536"),
        # One VIM per instance: the request's is the one the module connects to, or nothing is done (no credential named).
        ("a VIM endpoint other than the kubeconfig's server", "vnf_instantiate", inst("good", request([NO_NS], ns, vimConnectionInfo={"vim1": {
            "vimType": "kubernetes", "interfaceInfo": {"endpoint": "https://vim-user:url-pw@K8S_API_HOST:6443"}}})),
         elsewhere.format("https://k8s_api_host:6443")),
        ("name of 300 characters", "vnf_instantiate", inst("good", request([NO_NS], ns), name="n" * 300), "vnf_instance_name"),
        ("description of 1100 characters", "vnf_instantiate", inst("good", request([NO_NS], ns), vnf_instance_description="d" * 1100),
         "vnf_instance_description"),
        ("namespace that does not exist", "vnf_instantiate", inst("good", request([NO_NS], "no-such-namespace")), "no-such-namespace"),
        ("namespace that is no name", "vnf_instantiate", inst("good", request([NO_NS], "Bad_Namespace")), "Bad_Namespace"),
        ("def files in two namespaces", "vnf_instantiate", inst("two_namespaces", request([HAS_NS, DEF_DIR + "in_ns01.yaml"])),
         "multi-namespace01"),
        ("another namespace refused by policy", "vnf_instantiate", inst("good", request([HAS_NS], ns), namespace_policy="error"),
         "multi-namespace02"),
        ("cluster-scoped without allowing it", "vnf_instantiate", inst("good", request([NS01, NO_NS], ns)), "Namespace"),
        ("unknown kind", "vnf_instantiate", inst("unknown_kind", request([DEF_DIR + "widget.yaml"], ns)), "Widget"),
        ("already instantiated otherwise", "vnf_instantiate", inst("good", request([HAS_NS], ns), name="corpus"), "already INSTANTIATED"),
        ("RBAC: a ClusterRole a namespaced account may not create", "vnf_instantiate",
         inst("cluster_role", request([DEF_DIR + "clusterrole.yaml", NO_NS], k8s_tenant.namespace), auth=tenant, allow_cluster_scoped=True),
         "ClusterRole vnflcm-corpus-reader (Files/kubernetes/clusterrole.yaml)"),
        ("quota: no ConfigMaps allowed", "vnf_instantiate", inst("configmaps", request([DEF_DIR + "cms.yaml"], quota_ns)), "exceeded quota"),
        ("admission: invalid replicas", "vnf_instantiate", inst("invalid", request([DEF_DIR + "invalid.yaml"], ns)),
         "Deployment invalid (Files/kubernetes/invalid.yaml)"),
        ("someone else's object", "vnf_instantiate", inst("configmaps", request([DEF_DIR + "cms.yaml"], ns)),
         "ConfigMap taken (Files/kubernetes/cms.yaml): it already exists and does not belong"),
        ("scale beyond the maximum", "vnf_scale", dict(where, request={"type": "SCALE_OUT", "aspectId": "vdu2_aspect", "numberOfSteps": 9}),
         "numberOfSteps"),
        ("scale of an unknown aspect", "vnf_scale", dict(where, request={"type": "SCALE_OUT", "aspectId": "nope"}), "aspectId"),
        ("heal of an unknown VNFC", "vnf_heal", dict(where, request={"vnfcInstanceId": ["nope"]}), "vnfcInstanceId"),
        ("terminate of an unknown type", "vnf_terminate", dict(where, request={"terminationType": "SOMETIMES"}), "terminationType"),
        ("new vnfdId without its package", "vnf_modify", dict(where, request={"vnfdId": "another"}), "package"),
        ("new package without the running VDU's def file", "vnf_modify",
         dict(where, package=packages["without_vdu2"], request={"vnfdId": NEW_VNFD_ID}),
         "the new package has no def file Files/kubernetes/deployment_no_namespace.yaml, which holds Deployment vdu2 of VDU VDU2"),
        ("a VIM endpoint elsewhere in a modification", "vnf_modify", dict(where, request={"vimConnectionInfo": {"vim1": {
            "interfaceInfo": {"endpoint": server.rsplit(":", 1)[0]}}}}), elsewhere.format(server.rsplit(":", 1)[0] + ":443")),
        ("name of 300 characters in a modification", "vnf_modify", dict(where, request={"vnfInstanceName": "n" * 300}), "vnfInstanceName"),
        ("an op occ that does not exist", "vnf_lcm_op_occ", dict(where, action="retry", vnf_lcm_op_occ_id="nope"), "nope"),
        ("retry of a completed op occ", "vnf_lcm_op_occ", dict(where, action="rollback"), "only a FAILED_TEMP operation"),
    ]
    assert len(cases) >= 30
    start = k8s_audit.mark()
    results = ansible_play([(name, module, args) for name, module, args, _words in cases])
    writes = k8s_audit.writes(start, user=ADMIN_USER) + k8s_audit.writes(start, user=k8s_tenant.username)
    assert summarize(writes) == []
    for name, _module, _args, words in cases:
        result = results[name]
        assert result.get("failed") is True, (name, result)
        assert result["msg"].startswith("Failed to ") and words in result["msg"], (name, result["msg"])
        assert "url-pw" not in result["msg"] and "Traceback" not in result["msg"] and "vnf_lcm_op_occ" not in result or name.startswith("retry"), (name, result)
