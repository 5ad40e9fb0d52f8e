# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Run every module with each credential form the way users and AWX run them, and find the secrets in what
they print: ansible-runner's artifacts, that is ansible-playbook's output at -vvvv with --diff in check mode (the
stdout artifact: ansible-runner runs ansible-playbook, its display callback prints what the default one does) and
the job events AWX stores."""

from __future__ import annotations

import base64
import json
import os
import sys
from pathlib import Path

import yaml

VERBOSITY = 4
# Every module of the action group: module_defaults for group/nfv.vnflcm.vnflcm gives them the credentials.
MODULES = ("vnf_package_info", "vnf_instantiate", "vnf_info", "vnf_scale", "vnf_heal", "vnf_modify", "vnf_change_pkg",
           "vnf_lcm_op_occ", "vnf_terminate", "vnf_scale_to_level", "vnf_delete", "vnf_change_ext_conn")


def every_module_tasks(args):
    """One task per module with the options of ``args[module]``, each templated from the variable ``secret_args``, so
    that no secret is a literal task argument (AWX gives them as extra vars or credentials)."""
    return [{"name": "{0} under test".format(module), "ignore_errors": True,
             "nfv.vnflcm." + module: {option: "{{{{ secret_args[{0!r}][{1!r}] }}}}".format(module, option) for option in args[module]}}
            for module in MODULES]


def write_playbook(path, forms, args):
    """One play per credential form: the form's connection options (the variable ``secret_forms``) for the whole action
    group, then every module with ``args`` (the variable ``secret_args``)."""
    plays = [{"name": "credential form {0}".format(form), "hosts": "localhost", "connection": "local", "gather_facts": False,
              "module_defaults": {"group/nfv.vnflcm.vnflcm": "{{{{ secret_forms[{0!r}] }}}}".format(form)},
              "tasks": every_module_tasks(args)} for form in forms]
    path.write_text(yaml.safe_dump(plays, sort_keys=False))
    return path


def module_environment(extra=None):
    env = {key: value for key, value in os.environ.items() if not key.startswith(("K8S_AUTH_", "OS_"))}
    env.update(ANSIBLE_LOCALHOST_WARNING="false", ANSIBLE_INVENTORY_UNPARSED_WARNING="false", ANSIBLE_PYTHON_INTERPRETER=sys.executable,
               ANSIBLE_NOCOLOR="1", ANSIBLE_FORCE_COLOR="0")
    env.update(extra or {})
    return env


def run_job(playbook, variables, work, envvars=None, check=True):
    """The same through ansible-runner, as AWX runs a job template (extra vars, environment from a credential):
    the artifacts directory (stdout, job_events/*.json, ...)."""
    import ansible_runner

    root = work / "job"
    (root / "inventory").mkdir(parents=True)
    (root / "inventory" / "hosts").write_text("localhost ansible_connection=local ansible_python_interpreter={0}\n".format(sys.executable))
    (root / "env").mkdir()
    (root / "env" / "extravars").write_text(json.dumps(variables))
    (root / "env" / "envvars").write_text(json.dumps(dict(envvars or {}, ANSIBLE_COLLECTIONS_PATH=os.environ["ANSIBLE_COLLECTIONS_PATH"])))
    (root / "env" / "cmdline").write_text("--check --diff" if check else "--diff")
    (root / "project").mkdir()
    (root / "project" / "secrets.yml").write_text(Path(playbook).read_text())
    saved = os.environ.copy()
    job_environment = module_environment({"PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")})
    try:
        os.environ.clear()
        os.environ.update(job_environment)
        run = ansible_runner.run(private_data_dir=str(root), playbook="secrets.yml", verbosity=VERBOSITY, quiet=True, timeout=1800)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    assert run.status in ("successful", "failed"), run.status
    artifacts = root / "artifacts"
    assert list(artifacts.glob("*/job_events/*.json")), "ansible-runner wrote no job events"
    # The inputs hold the secrets by design; only what the job produced is searched: the extra vars and the
    # environment, and ansible-runner's record of them (artifacts/<ident>/command: its command line and env).
    for name in ("extravars", "envvars"):
        (root / "env" / name).unlink()
    for command in artifacts.glob("*/command"):
        command.unlink()
    return artifacts


def encodings(secret):
    """A secret as it could appear: itself, its base64, its URL-safe base64."""
    raw = secret.encode("utf-8")
    return {secret, base64.b64encode(raw).decode("ascii"), base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")}


def leaks(secrets, output="", artifacts=None):
    """``[(label, where, context)]`` for every secret (any encoding) found in ``output`` or any file under ``artifacts``;
    the context is the text around the first hit, the secret itself replaced by <SECRET>."""
    places = [("ansible-playbook output", output)] if output else []
    for path in sorted(Path(artifacts).rglob("*")) if artifacts else ():
        if path.is_file():
            places.append((str(path.relative_to(artifacts)), path.read_text(errors="replace")))
    found = {}
    for label, secret in sorted(secrets.items()):
        for form in encodings(secret):
            for where, text in places:
                at = text.find(form)
                if at >= 0 and (label, where) not in found:
                    found[(label, where)] = text[max(0, at - 300):at + len(form) + 100].replace(form, "<SECRET>")
    return sorted((label, where, context) for (label, where), context in found.items())


def report(found):
    """What leaks() found, readable in a test failure."""
    return "\n".join("{0} in {1}:\n{2}\n".format(label, where, context) for label, where, context in found)


def task_results(artifacts):
    """``{task name: [result, ...]}`` from the job events: what each module answered."""
    results = {}
    events = sorted((json.loads(path.read_text()) for path in Path(artifacts).glob("*/job_events/*.json")), key=lambda event: event.get("counter", 0))
    for event in events:
        if event.get("event") in ("runner_on_ok", "runner_on_failed"):
            data = event["event_data"]
            # The job events of an ignored failure lack the result's "failed": the event says it.
            results.setdefault(data.get("task"), []).append(dict(data.get("res", {}), failed=event["event"] == "runner_on_failed"))
    return results


def run_without_leaks(secrets, forms, args, work):
    """Every module with every credential form, as one ansible-runner job; fails the test on any secret found in
    what it printed (ansible-playbook's output, the stdout artifact) or stored (the job events). Returns the job's
    ``task_results``. (A run of ansible-playbook itself beside it doubled the test's time and printed the same.)"""
    playbook = write_playbook(work / "secrets.yml", list(forms), args)
    variables = {"secret_forms": forms, "secret_args": args}
    artifacts = run_job(playbook, variables, work)
    output = "".join(path.read_text(errors="replace") for path in artifacts.glob("*/stdout"))
    assert output.count("under test") >= len(forms) * len(args), output[-3000:]
    found = leaks(secrets, artifacts=artifacts)
    assert not found, report(found)
    results = task_results(artifacts)
    # Every module took the credentials from module_defaults for the action group.
    assert not [result for each in results.values() for result in each if "Unsupported parameters" in str(result.get("msg"))]
    return results


def awx_job_without_leaks(secrets, args, work, envvars):
    """Every module as an AWX job whose credential is in its environment (``envvars``) and nowhere in the playbook;
    fails the test on any secret found in the job's artifacts. Returns its ``task_results``."""
    work.mkdir()
    playbook = write_playbook(work / "secrets.yml", ["awx"], args)
    artifacts = run_job(playbook, {"secret_forms": {"awx": {}}, "secret_args": args}, work, envvars=envvars)
    found = leaks(secrets, artifacts=artifacts)
    assert not found, report(found)
    return task_results(artifacts)
