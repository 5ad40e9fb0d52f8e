# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.drivers import CNF, DRIVER_VIMS, KUBERNETES, OPENSTACK, VM, driver_of, vim_of

OPENSTACK_VIM = {"vim1": {"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3", "interfaceInfo": {"endpoint": "http://k/v3"}}}


@pytest.mark.parametrize("params, expected", [
    ({"cloud": "nfvlab"}, OPENSTACK),
    ({"auth": {"auth_url": "http://k/v3"}}, OPENSTACK),
    ({"request": {"vimConnectionInfo": OPENSTACK_VIM}}, OPENSTACK),
    ({"request": {"vimConnectionInfo": [{"vimType": "ETSINFV.OPENSTACK_KEYSTONE.V_3"}]}}, OPENSTACK),
    ({"request": {"vimConnectionInfo": {"k": {"vimType": "kubernetes"}}}}, KUBERNETES),
    ({"kubeconfig": "/k"}, KUBERNETES),
    ({}, KUBERNETES),
])
def test_the_vim_comes_from_options_or_vim_connection_info(params, expected):
    assert vim_of(params) == expected


def test_an_openstack_request_with_kubernetes_options_is_ambiguous():
    with pytest.raises(ValidationError, match="vimConnectionInfo"):
        vim_of({"kubeconfig": "/k", "request": {"vimConnectionInfo": OPENSTACK_VIM}})


def test_each_module_names_its_operations_run_in_every_driver(monkeypatch):
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import instance_run
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import scale, session, terminate
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.modules import run_of
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import scale as vm_scale

    seen = []
    monkeypatch.setattr(session, "connect", lambda params: session.KubeSession("api", "default"))
    monkeypatch.setattr(instance_run, "on_instance", lambda kube, planner, params, check_mode, diff_mode, missing_ok=False, name=None:
                        seen.append((planner, missing_ok, name)))
    run_of(CNF, "scale.run_scale")({})
    run_of(CNF, "scale.run_scale_to_level")({})
    run_of(CNF, "terminate.run_terminate")({})
    assert seen == [(scale.plan_scale, False, "SCALE"), (scale.plan_scale_to_level, False, "SCALE_TO_LEVEL"),
                    (terminate.plan_terminate, True, "TERMINATE")]
    assert run_of(VM, "scale.run_scale") is vm_scale.run_scale and run_of(VM, "scale.run_scale_to_level") is vm_scale.run_scale_to_level


@pytest.mark.parametrize("params, driver", [({"cloud": "nfvlab"}, VM), ({"kubeconfig": "/k"}, CNF), ({}, CNF)])
def test_the_driver_is_the_one_of_the_vim(params, driver):
    assert driver_of(params, environ={}) == driver and DRIVER_VIMS[driver] == vim_of(params, environ={})


@pytest.mark.parametrize("option", ["request", "create_request"])
def test_every_request_a_module_takes_is_bounded_before_the_vim_is_chosen(option):
    from types import SimpleNamespace

    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.modules import run_module
    from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.schema import MAX_STRING_CHARS

    secret = "s" * (MAX_STRING_CHARS + 1)
    module = SimpleNamespace(params={option: {"vimConnectionInfo": {"v": {"accessInfo": {"password": secret}}}}})
    with pytest.raises(ValidationError) as raised:
        run_module(module, "nowhere.run_nothing")
    assert raised.value.field == option + ".vimConnectionInfo.v.accessInfo.password" and "sss" not in raised.value.msg


UNFINISHED = ({"id": "i1"}, [{"id": "o1", "operation": "TERMINATE", "operationState": "FAILED_TEMP"}], "7")


def refuses_before_planning(run):
    from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError

    with pytest.raises(ConflictError, match="start SCALE on VNF instance i1: operation occurrence o1 is FAILED_TEMP; retry, roll back or fail it first"):
        run({"request": {"type": "SCALE_OUT", "aspectId": "a"}}, False, False)


def test_an_unfinished_op_occ_is_named_before_a_kubernetes_plan(monkeypatch):
    # A plan drawn on what a killed terminate half deleted would fail with the VIM's words (a dry run's 404).
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import instance_run
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import scale, session

    monkeypatch.setattr(session, "connect", lambda params: session.KubeSession("api", "default"))
    monkeypatch.setattr(instance_run, "locate", lambda kube, params: ("store", UNFINISHED))
    monkeypatch.setattr(scale, "plan_scale", lambda *args: pytest.fail("planned"))
    refuses_before_planning(scale.run_scale)


def test_an_unfinished_op_occ_is_named_before_a_heat_plan(monkeypatch):
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import instance_run
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import scale, session

    monkeypatch.setattr(session, "connect", lambda params: "vim")
    monkeypatch.setattr(instance_run, "locate", lambda vim, params: ("store", UNFINISHED))
    monkeypatch.setattr(scale, "plan_scale", lambda *args, **kwargs: pytest.fail("planned"))
    refuses_before_planning(scale.run_scale)


def test_side_by_side_rollout_is_refused_on_openstack_before_the_cloud_is_reached(monkeypatch):
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import change_pkg, session

    monkeypatch.setattr(session, "connect", lambda params: pytest.fail("connected"))
    with pytest.raises(ValidationError) as refused:
        change_pkg.run_change_pkg({"rollout": "side_by_side", "package": "/nowhere", "request": {}})
    assert "rollout" in str(refused.value) and "Kubernetes" in str(refused.value)


NFV = "ansible_collections.nfv.vnflcm.plugins.module_utils."


@pytest.mark.parametrize("imported, absent", [
    ("lcm.modules", ("kubernetes", "openstack", NFV + "lcm.cnf.session", NFV + "lcm.vm.session")),
    # Scale, heal and terminate compile neither the reader nor the container update / change of package planners.
    ("lcm.cnf.scale", ("openstack", NFV + "package.reader", NFV + "lcm.cnf.modify", NFV + "lcm.cnf.change_pkg", NFV + "k8s.package_change")),
    ("lcm.cnf.terminate", ("openstack", NFV + "package.reader", NFV + "lcm.cnf.scale", NFV + "lcm.cnf.heal", NFV + "lcm.delete")),
    # The reader and the change-of-package planner wait for the operations that use them.
    ("lcm.vm.scale", ("kubernetes", NFV + "package.reader", NFV + "lcm.vm.change_pkg", NFV + "heat.change_pkg", NFV + "lcm.vm.heal")),
    ("lcm.vm.modify", ("kubernetes", NFV + "package.reader", NFV + "lcm.vm.change_pkg", NFV + "heat.change_pkg")),
])
def test_a_module_call_imports_only_the_client_library_of_its_vim(imported, absent):
    # A fresh interpreter: this one has imported both already.
    code = "import sys; import ansible_collections.nfv.vnflcm.plugins.module_utils.{0}; print(sorted(set({1!r}) & set(sys.modules)))".format(
        imported, absent)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def reachable_module_utils(module_file):
    """The collection's module_utils a module's imports reach, function-level ones included: what Ansible packs
    into its AnsiballZ payload (ansible.executor.module_common.recursive_finder walks every import the same way)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[5]
    prefix = "ansible_collections.nfv.vnflcm.plugins."
    seen, todo = set(), [module_file]
    while todo:
        tree = ast.parse((root / todo.pop()).read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(prefix):
                names = [node.module] + [node.module + "." + alias.name for alias in node.names]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names if alias.name.startswith(prefix)]
            for name in names:
                path = "plugins/" + name[len(prefix):].replace(".", "/") + ".py"
                if name not in seen and (root / path).exists():
                    seen.add(name)
                    todo.append(path)
    return {name[len(prefix + "module_utils."):] for name in seen}


def test_vnf_info_carries_the_record_stores_not_the_operations():
    # Ansible builds, sends, unpacks and compiles the payload on every call: the operations would double it.
    reached = reachable_module_utils("plugins/modules/vnf_info.py")
    assert {"lcm.info", "k8s.store", "heat.store"} <= reached
    drivers = {name for name in reached if name.startswith(("lcm.cnf.", "lcm.vm."))}
    # lcm/cnf/drift.py finds drift (vnf_info's drift option) and writes nothing; the repair is lcm/cnf/reconcile.py's.
    assert drivers == {"lcm.cnf.info", "lcm.cnf.drift", "lcm.cnf.session", "lcm.vm.info", "lcm.vm.drift", "lcm.vm.session"}, reached
    assert reached.isdisjoint({"lcm.vm.shared", "package.reader", "heat.change_pkg"}), reached


def test_vnf_info_imports_nothing_of_the_other_vim():
    code = ("import sys; from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import info; "
            "print(sorted(name for name in ('kubernetes', 'openstack', '{0}lcm.cnf.session', '{0}lcm.vm.session') if name in sys.modules))").format(NFV)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


KUBECONFIG = {"apiVersion": "v1", "kind": "Config", "current-context": "lab",
              "clusters": [{"name": "lab", "cluster": {"server": "https://127.0.0.1:40123"}}],
              "users": [{"name": "admin", "user": {"token": "tok-kubeconfig"}}],
              "contexts": [{"name": "lab", "context": {"cluster": "lab", "user": "admin"}}]}


def test_a_kubernetes_request_naming_another_api_server_is_refused_before_any_call():
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf import session
    request = {"vimConnectionInfo": {"vim1": {"vimType": "kubernetes", "interfaceInfo": {"endpoint": "https://K8S_API_HOST:6443"},
                                              "accessInfo": {"bearer_token": "tok-request"}}}}
    with pytest.raises(ValidationError) as raised:
        session.connect({"kubeconfig": KUBECONFIG, "request": request})
    message = str(raised.value)
    assert "request.vimConnectionInfo.vim1.interfaceInfo.endpoint: names https://k8s_api_host:6443, but the module connects to " \
           "https://127.0.0.1:40123 (the kubeconfig's server" in message and "tok-" not in message, message
    request["vimConnectionInfo"]["vim1"]["interfaceInfo"]["endpoint"] = "https://127.0.0.1:40123/"
    kube = session.connect({"kubeconfig": KUBECONFIG, "request": request})
    assert kube.api.calls["write"] == 0 and kube.namespace == "default"


def test_an_openstack_request_naming_another_keystone_than_the_cloud_is_refused(monkeypatch):
    import openstack
    from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import cloud
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm import session
    # The connection as openstacksdk builds it, without authenticating (no Keystone here).
    monkeypatch.setattr(cloud, "connect", lambda options: openstack.connect(load_yaml_config=False, load_envvars=False, **options))
    auth = {"auth_url": "http://keystone.lab:5000/v3", "username": "u", "password": "pw-auth", "project_name": "p"}
    request = {"vimConnectionInfo": {"vim1": dict(OPENSTACK_VIM["vim1"], accessInfo={"password": "pw-request"})}}
    with pytest.raises(ValidationError) as raised:
        session.connect({"auth": auth, "auth_type": "password", "request": request})
    message = str(raised.value)
    assert "request.vimConnectionInfo.vim1.interfaceInfo.endpoint: names http://k:80, but the module connects to http://keystone.lab:5000 " \
           "(the auth option; without cloud and auth the module connects to the request's)" in message and "pw-" not in message, message
    request["vimConnectionInfo"]["vim1"]["interfaceInfo"]["endpoint"] = "http://KEYSTONE.lab:5000/"
    assert session.connect({"auth": auth, "auth_type": "password", "request": request}).vim_id == "vim1"
    # Without cloud and auth, the connection is the request's: the same Keystone by construction.
    assert cloud.keystone_url(session.connect({"request": request}).conn) == "http://KEYSTONE.lab:5000/"
