# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The collection's playbooks (``nfv.vnflcm.<operation>``) run the two ways they are run for real.

``PlaybookDriver``: ``ansible-playbook nfv.vnflcm.<operation> -e @vars.json``, the connection given as
``vnf_lifecycle_connection``. ``RunnerDriver``: an AWX job template launch through ``ansible-runner``: a private
data dir with a project whose playbooks import the collection's, an inventory, the job's extra vars, and the
credential injected as AWX's credential types inject it (``kubernetes_bearer_token``, ``openstack_clouds_yaml``).

Both answer a ``PlaybookRun``: the job status and the results of each task (AWX's job events), and can start a
job in the background in a process group of its own, which ``cancel_like_awx`` stops as a job cancel does.
"""

from __future__ import annotations

import base64
import json
import os
import signal
import subprocess
import sys
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ansible_collections.nfv.vnflcm.tests.integration import warm_ansible
from ansible_collections.nfv.vnflcm.tests.integration.secret_leaks import leaks, module_environment

OPERATIONS = ("instantiate", "scale", "scale_to_level", "heal", "terminate", "delete", "modify", "change_vnfpkg", "op_occ", "info")
# The cloud name AWX's OpenStack credential writes into the clouds.yaml it injects (awx/main/models/credential/injectors.py).
AWX_OPENSTACK_CLOUD = "devstack"

# ansible-playbook has no callback in ansible-core that writes each task's result: this one writes them as the job
# events ansible-runner writes (one JSON object a line), so that both drivers answer the same.
EVENTS_CALLBACK = '''
import json
import os

from ansible.plugins.callback import CallbackBase


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "aggregate"
    CALLBACK_NAME = "task_events"
    CALLBACK_NEEDS_ENABLED = True

    def _event(self, event, result):
        res = json.loads(self._dump_results(getattr(result, "result", None) or result._result))
        with open(os.environ["NFV_TASK_EVENTS"], "a") as handle:
            handle.write(json.dumps({"event": event, "event_data": {"task": result.task_name, "res": res}}) + "\\n")

    def v2_runner_on_ok(self, result):
        self._event("runner_on_ok", result)

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._event("runner_on_failed", result)

    def v2_runner_on_skipped(self, result):
        self._event("runner_on_skipped", result)
'''


def venv_bin(name):
    return os.path.join(os.path.dirname(sys.executable), name)


@dataclass
class PlaybookRun:
    """A finished run: ``status`` (successful, failed, canceled), ``rc``, the job ``events`` and the output."""
    status: str
    rc: int
    events: list = field(default_factory=list)
    stdout: str = ""

    def results(self, task):
        """Every result of the task named ``task`` (``failed`` set from the event, as AWX's events lack it)."""
        return [dict(event["event_data"].get("res") or {}, failed=event["event"] == "runner_on_failed") for event in self.events
                if event.get("event") in ("runner_on_ok", "runner_on_failed") and event["event_data"].get("task") == task]

    def result(self, task):
        """The one result of the task named ``task``."""
        found = self.results(task)
        assert len(found) == 1, "task {0!r} ran {1} times:\n{2}".format(task, len(found), self.stdout[-4000:])
        return found[0]


def expect(run, status="successful"):
    assert run.status == status, "the job ended {0} (rc {1}), not {2}:\n{3}".format(run.status, run.rc, status, run.stdout[-6000:])
    return run


class Started:
    """A job running in the background in a process group of its own; ``finish()`` gives its PlaybookRun.

    ``in_container``: the job runs as in an execution environment's container, which ends with everything in it
    when the job ends (ansible-runner's kill_container() on a cancel)."""

    def __init__(self, process, collect, in_container=False):
        self.process = process
        self.collect = collect
        self.in_container = in_container

    def finish(self, timeout=1800):
        stdout = self.process.communicate(timeout=timeout)[0]
        return self.collect(self.process.returncode, stdout)


def process_start(pid):
    """The start time of process ``pid`` (it tells a process from a later one with the same pid), or None."""
    try:
        with open("/proc/{0}/stat".format(pid)) as handle:
            return handle.read().rsplit(")", 1)[-1].split()[19]
    except OSError:
        return None


def descendants(pid):
    """``{pid: start time}`` of every process below ``pid``, from /proc."""
    children = {}
    for entry in os.listdir("/proc"):
        try:
            with open("/proc/{0}/stat".format(entry)) as handle:
                children.setdefault(int(handle.read().rsplit(")", 1)[-1].split()[1]), []).append(int(entry))
        except (OSError, ValueError, IndexError):
            continue
    found, todo = {}, [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found[child] = process_start(child)
            todo.append(child)
    return found


def cancel_like_awx(started, grace=10, timeout=120):
    """Cancel a job as AWX does: SIGINT to the job's process group, SIGTERM after ``grace`` seconds if it is still
    there (SIGKILL at the very end, so that a test never leaves a job running). Returns the signals sent.

    ansible-runner answers the SIGINT by killing ansible-playbook's process group, and ends the job's container.
    Ansible's worker processes run in sessions of their own and outlive that group: for a job ``in_container``,
    what is left of the job is then killed, as the container's end kills it."""
    job = descendants(started.process.pid) if started.in_container else {}
    sent = []
    for signum, wait in ((signal.SIGINT, grace), (signal.SIGTERM, timeout), (signal.SIGKILL, timeout)):
        if started.process.poll() is not None:
            break
        os.killpg(started.process.pid, signum)
        sent.append(signum)
        try:
            started.process.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            continue
    for pid, start in job.items():
        if start is not None and process_start(pid) == start:
            os.kill(pid, signal.SIGKILL)
    return sent


class PlaybookDriver:
    """``ansible-playbook nfv.vnflcm.<operation> -e @vars.json`` with ``connection`` as ``vnf_lifecycle_connection``
    and ``env`` added to a clean environment (no K8S_AUTH_* / OS_* of the caller)."""

    name = "ansible-playbook"

    def __init__(self, work, connection, env=None):
        self.work = Path(work)
        self.work.mkdir(parents=True, exist_ok=True)
        self.connection = connection
        self.env = dict(env or {})
        callbacks = self.work / "callback_plugins"
        callbacks.mkdir(exist_ok=True)
        (callbacks / "task_events.py").write_text(EVENTS_CALLBACK)
        self.callbacks = callbacks

    def _job(self, operation, variables):
        """The command line, the environment and the collector of a run."""
        ident = uuid.uuid4().hex[:8]
        extravars = self.work / "{0}-{1}.json".format(operation, ident)
        extravars.write_text(json.dumps(dict(variables, vnf_lifecycle_connection=self.connection)))
        events = self.work / "{0}-{1}.events".format(operation, ident)
        env = module_environment(dict(self.env, ANSIBLE_CALLBACK_PLUGINS=str(self.callbacks), ANSIBLE_CALLBACKS_ENABLED="task_events",
                                      NFV_TASK_EVENTS=str(events), ANSIBLE_COLLECTIONS_PATH=os.environ["ANSIBLE_COLLECTIONS_PATH"]))

        def collect(rc, stdout):
            lines = events.read_text().splitlines() if events.exists() else []
            status = "successful" if rc == 0 else "canceled" if rc < 0 else "failed"
            return PlaybookRun(status, rc, [json.loads(line) for line in lines], stdout)

        return [venv_bin("ansible-playbook"), "-i", "localhost,", "-e", "@" + str(extravars), "nfv.vnflcm." + operation], env, collect

    def start(self, operation, variables):
        argv, env, collect = self._job(operation, variables)
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, start_new_session=True)
        return Started(process, collect)

    def run(self, operation, variables, timeout=1800):
        """A run to its end, forked from a warm interpreter (tests/integration/warm_ansible.py): nothing signals it."""
        argv, env, collect = self._job(operation, variables)
        done = warm_ansible.run(argv, env, timeout=timeout, stderr_to_stdout=True)
        return collect(done.returncode, done.stdout)


def bearer_token_inputs(admin_kubeconfig, token):
    """The inputs of an AWX Kubernetes bearer token credential for the cluster of ``admin_kubeconfig``."""
    cluster = yaml.safe_load(Path(admin_kubeconfig).read_text())["clusters"][0]["cluster"]
    return {"host": cluster["server"], "bearer_token": token, "verify_ssl": True,
            "ssl_ca_cert": base64.b64decode(cluster["certificate-authority-data"]).decode()}


def kubernetes_bearer_token(inputs, env, private_data_dir):
    """What AWX's "OpenShift or Kubernetes API Bearer Token" credential type injects: K8S_AUTH_HOST, K8S_AUTH_API_KEY,
    K8S_AUTH_VERIFY_SSL, and the CA certificate as a file under the job's env/ named by K8S_AUTH_SSL_CA_CERT."""
    env["K8S_AUTH_HOST"] = inputs["host"]
    env["K8S_AUTH_API_KEY"] = inputs["bearer_token"]
    if inputs.get("verify_ssl") and inputs.get("ssl_ca_cert"):
        env["K8S_AUTH_VERIFY_SSL"] = "True"
        env["K8S_AUTH_SSL_CA_CERT"] = private_file(private_data_dir, inputs["ssl_ca_cert"])
    else:
        env["K8S_AUTH_VERIFY_SSL"] = "False"


def openstack_clouds_yaml(inputs, env, private_data_dir):
    """What AWX's OpenStack credential type injects: a clouds.yaml with the one cloud ``devstack`` under the job's
    env/, named by OS_CLIENT_CONFIG_FILE (AWX sets no OS_CLOUD: the job names the cloud)."""
    auth = {"auth_url": inputs["host"], "username": inputs["username"], "password": inputs["password"], "project_name": inputs["project"]}
    if inputs.get("project_domain_name"):
        auth["project_domain_name"] = inputs["project_domain_name"]
    if inputs.get("domain"):
        auth["domain_name"] = inputs["domain"]
    cloud = {"auth": auth, "verify": inputs.get("verify_ssl", True)}
    if inputs.get("region"):
        cloud["region_name"] = inputs["region"]
    env["OS_CLIENT_CONFIG_FILE"] = private_file(private_data_dir, yaml.safe_dump({"clouds": {AWX_OPENSTACK_CLOUD: cloud}}))


def private_file(private_data_dir, content):
    handle, path = tempfile.mkstemp(dir=os.path.join(private_data_dir, "env"))
    with os.fdopen(handle, "w") as out:
        out.write(content)
    os.chmod(path, 0o660)
    return path


class RunnerDriver:
    """An AWX job template launch through ``ansible-runner run`` (the process AWX's execution node runs): a private
    data dir with ``project/<operation>.yml`` importing ``nfv.vnflcm.<operation>``, ``inventory/hosts`` with localhost,
    the job's extra vars in ``env/extravars`` and the environment in ``env/envvars``, into which ``injector(inputs, env,
    private_data_dir)`` puts the credential. ``extravars`` are the job template's own (e.g. vnf_lifecycle_connection)."""

    name = "ansible-runner"

    def __init__(self, work, injector, inputs, extravars=None):
        self.root = Path(work) / "job"
        (self.root / "inventory").mkdir(parents=True, exist_ok=True)
        (self.root / "inventory" / "hosts").write_text("localhost ansible_connection=local ansible_python_interpreter={0}\n".format(sys.executable))
        (self.root / "env").mkdir(exist_ok=True)
        (self.root / "project").mkdir(exist_ok=True)
        for operation in OPERATIONS:
            (self.root / "project" / (operation + ".yml")).write_text(yaml.safe_dump(
                [{"name": "VNF " + operation, "ansible.builtin.import_playbook": "nfv.vnflcm." + operation}]))
        env = {"ANSIBLE_COLLECTIONS_PATH": os.environ["ANSIBLE_COLLECTIONS_PATH"]}
        injector(inputs, env, str(self.root))
        (self.root / "env" / "envvars").write_text(yaml.safe_dump(env))
        self.extravars = dict(extravars or {})

    def start(self, operation, variables):
        ident = "{0}-{1}".format(operation, uuid.uuid4().hex[:8])
        (self.root / "env" / "extravars").write_text(json.dumps(dict(variables, **self.extravars)))
        # The execution environment: ansible-playbook of this Python on PATH, no credential but the injected one.
        env = module_environment({"PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")})
        process = subprocess.Popen([venv_bin("ansible-runner"), "run", str(self.root), "-p", operation + ".yml", "--ident", ident],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, start_new_session=True)

        def collect(rc, output):
            artifacts = self.root / "artifacts" / ident
            status_file = artifacts / "status"
            status = status_file.read_text().strip() if status_file.exists() else "canceled" if rc < 0 else "failed"
            events = sorted((json.loads(path.read_text()) for path in (artifacts / "job_events").glob("*.json")),
                            key=lambda event: event.get("counter", 0))
            stdout = (artifacts / "stdout").read_text(errors="replace") if (artifacts / "stdout").exists() else output
            return PlaybookRun(status, rc, events, stdout)

        return Started(process, collect, in_container=True)

    def run(self, operation, variables, timeout=1800):
        return self.start(operation, variables).finish(timeout)

    def leaks(self, secrets):
        """What of ``secrets`` (label -> value) the jobs' artifacts hold (secret_leaks.leaks): ansible-runner's record of
        its command line and environment (artifacts/<ident>/command) holds the credential by design and is left out."""
        for command in (self.root / "artifacts").glob("*/command"):
            command.unlink()
        return leaks(secrets, artifacts=self.root / "artifacts")
