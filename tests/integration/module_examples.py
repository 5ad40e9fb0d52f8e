# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The modules' EXAMPLES run as written against a lab: what the Kubernetes and the OpenStack test share.

An example is one task of a module's ``EXAMPLES`` block (``yaml.safe_load`` of it is a list of tasks). A lab test lists
a scenario: the examples of every module in one lifecycle, each run against the state the one before left, with setup
tasks of its own between them where an example needs a state no example leaves (an operation FAILED_TEMP, a killed
runner). The whole scenario is one ``ansible-playbook`` run; a callback writes every task's result.

An example's task is run unchanged but for what stands for "your environment" (:func:`localize`):

- ``/srv/packages/<name>``: the test's packages folder, holding Tacker's package of that name (NFV_FIXTURES_DIR), a
  zip of it (``<name>.zip``) or a package the test builds;
- ``tenant-a``: the test's namespace; ``mycloud``: the lab's cloud (clouds.yaml, found through OS_CLIENT_CONFIG_FILE);
- connection and waiting options: ``module_defaults`` for ``group/nfv.vnflcm.vnflcm`` (the play's);
- request and hook files an example reads with ``lookup('ansible.builtin.file', ...)`` or names by ``playbook_dir``: in
  the playbook's folder, where the lookup looks first;
- variables the examples expect from the operator's inventory or vault: play variables.

Run as a script, this file is also the setup tasks' helper (``python module_examples.py <command> ...``, see
:func:`main`): what a setup does to the lab that no module does (a ResourceQuota that holds pods, a finalizer, a signal
to an operation's runner).
"""

from __future__ import annotations

import ast
import base64
import copy
import gzip
import json
import os
import re
import signal
import subprocess
import sys
import time

import yaml

COLLECTION_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODULES_DIR = os.path.join(COLLECTION_ROOT, "plugins", "modules")
PACKAGES = "/srv/packages/"
NAMESPACE = "tenant-a"
CLOUD = "mycloud"
SETUP = "setup: "

# The callback that writes each task's result, as ``register`` keeps it, one JSON line per task in the order they ran.
CALLBACK = '''
import json
import os
import time

from ansible.plugins.callback import CallbackBase
from ansible.vars.clean import strip_internal_keys

DOCUMENTATION = """
name: examples_results
type: aggregate
short_description: each task's result as a JSON line (tests only)
description: [Each task's result, written to $NFV_EXAMPLES_RESULTS.]
"""


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "aggregate"
    CALLBACK_NAME = "examples_results"
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self):
        super().__init__()
        self.index = -1
        self.started = time.monotonic()
        self.active = False

    def v2_playbook_on_start(self, playbook):
        # Only the scenario's playbook: the coordination hooks' own ansible-playbook runs inherit the environment.
        self.active = os.path.realpath(playbook._file_name) == os.path.realpath(os.environ["NFV_EXAMPLES_PLAYBOOK"])

    def v2_playbook_on_task_start(self, task, is_conditional):
        self.index += 1
        self.started = time.monotonic()

    def save(self, result, status, ignored=False):
        if not self.active:
            return
        registered = strip_internal_keys(json.loads(json.dumps(result._result, default=str)))
        registered.pop("invocation", None)
        line = {"index": self.index, "name": result._task.get_name(), "status": status, "ignored": ignored,
                "seconds": round(time.monotonic() - self.started, 1), "result": registered}
        with open(os.environ["NFV_EXAMPLES_RESULTS"], "a", encoding="utf-8") as handle:
            handle.write(json.dumps(line) + "\\n")

    def v2_runner_on_ok(self, result):
        self.save(result, "ok")

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self.save(result, "failed", ignored=ignore_errors)

    def v2_runner_on_skipped(self, result):
        self.save(result, "skipped")

    def v2_runner_on_unreachable(self, result):
        self.save(result, "failed")
'''


# ---------------------------------------------------------------------------------------------
# The examples

def examples_block(path):
    """The text of the ``EXAMPLES`` constant of a module file (read with ast: the module is not imported)."""
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read(), path)
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(target, ast.Name) and target.id == "EXAMPLES" for target in node.targets):
            return ast.literal_eval(node.value)
    return None


def module_names(modules_dir=MODULES_DIR):
    return sorted(name[:-3] for name in os.listdir(modules_dir) if name.endswith(".py") and not name.startswith("_"))


def load_examples(modules_dir=MODULES_DIR):
    """``{module: [task, ...]}``: each module's EXAMPLES, parsed."""
    return {name: yaml.safe_load(examples_block(os.path.join(modules_dir, name + ".py")) or "") for name in module_names(modules_dir)}


def example_task(examples, module, name):
    found = [task for task in examples[module] if task.get("name") == name]
    assert len(found) == 1, "{0}: {1} examples named {2!r}".format(module, len(found), name)
    return copy.deepcopy(found[0])


def localize(value, packages, namespace=None, cloud=None):
    """``value`` with the stand-ins for the operator's environment replaced (see the module's docstring)."""
    if isinstance(value, dict):
        return {key: localize(item, packages, namespace, cloud) for key, item in value.items()}
    if isinstance(value, list):
        return [localize(item, packages, namespace, cloud) for item in value]
    if not isinstance(value, str):
        return value
    value = value.replace(PACKAGES, packages.rstrip("/") + "/")
    if namespace:
        value = re.sub(r"\b{0}\b".format(re.escape(NAMESPACE)), namespace, value)
    if cloud:
        value = re.sub(r"\b{0}\b".format(re.escape(CLOUD)), cloud, value)
    return value


# ---------------------------------------------------------------------------------------------
# Scenarios

class Example:
    """An example of ``module``'s EXAMPLES, by its name, and what its run must show.

    ``failed``: the task fails (an example with ignore_errors that shows a failure); ``changed``: its ``changed``;
    ``state``: its ``vnf_lcm_op_occ.operationState``; ``check(result)``: more assertions on its result.
    """

    def __init__(self, module, name, changed=None, failed=False, state=None, check=None):
        self.module = module
        self.name = name
        self.changed = changed
        self.failed = failed
        self.state = state
        self.check = check

    def __repr__(self):
        return "{0}: {1}".format(self.module, self.name)

    def task(self, examples, localized):
        return localized(example_task(examples, self.module, self.name))


class Setup:
    """A task of the test's own between examples: it brings the VIM or an instance to the state the next example needs.

    ``task``, or ``like=(module, example name)``: that example's module and arguments (not its name, register or other
    keywords), ``args`` merged into them (dicts merged, anything else replaced), and ``keys`` (task keywords) added.
    """

    def __init__(self, name, task=None, like=None, args=None, **keys):
        self.name = name
        self.body = task
        self.like = like
        self.args = args or {}
        self.keys = keys

    def __repr__(self):
        return SETUP + self.name

    def task(self, examples, localized):
        if self.like:
            example = example_task(examples, *self.like)
            action = next(key for key in example if "." in key)
            body = dict({action: merged(example[action], copy.deepcopy(self.args))}, **copy.deepcopy(self.keys))
        else:
            body = copy.deepcopy(self.body)
        return dict({"name": SETUP + self.name}, **localized(body))


def merged(base, changes):
    """``base`` with ``changes`` merged in: dicts key by key, anything else replaced."""
    if not isinstance(base, dict) or not isinstance(changes, dict):
        return changes
    out = dict(base)
    for key, value in changes.items():
        out[key] = merged(base.get(key), value) if key in base else value
    return out


def referenced(scenario):
    """``[(module, example name)]`` of a scenario's examples."""
    return [(entry.module, entry.name) for entry in scenario if isinstance(entry, Example)]


def helper(*argv):
    """A setup task's ``ansible.builtin.command`` argv: this file run as a script (play variables ``examples_python`` and
    ``examples_helper``) with ``argv``, whose items may be Jinja expressions."""
    return ["{{ examples_python }}", "{{ examples_helper }}"] + [str(item) for item in argv]


def run_scenario(workdir, scenario, module_defaults, play_vars=None, env=None, localized=None, examples=None, timeout=3600):
    """Run the scenario in one ansible-playbook from ``workdir / "play"`` (which holds the request files): ``[(entry, record)]``,
    a record being the task's ``status`` (ok, failed, skipped), ``ignored``, ``seconds`` and registered ``result`` (None for an
    entry the play did not reach). Also the playbook's stdout and stderr, for messages."""
    examples = examples or load_examples()
    localized = localized or (lambda task: task)
    play_dir = workdir / "play"
    play_dir.mkdir(exist_ok=True)
    callbacks = workdir / "callbacks"
    callbacks.mkdir(exist_ok=True)
    (callbacks / "examples_results.py").write_text(CALLBACK)
    results = workdir / "results.jsonl"
    if results.exists():
        results.unlink()
    tasks = [entry.task(examples, localized) for entry in scenario]
    variables = dict({"examples_python": sys.executable, "examples_helper": os.path.abspath(__file__)}, **(play_vars or {}))
    play = {"name": "every module's examples", "hosts": "localhost", "connection": "local", "gather_facts": False,
            "module_defaults": {"group/nfv.vnflcm.vnflcm": module_defaults}, "vars": variables, "tasks": tasks}
    playbook = play_dir / "examples.yml"
    playbook.write_text(yaml.safe_dump([play], sort_keys=False, width=200))
    run_env = dict(os.environ, ANSIBLE_LOCALHOST_WARNING="false", ANSIBLE_INVENTORY_UNPARSED_WARNING="false",
                   ANSIBLE_PYTHON_INTERPRETER=sys.executable, ANSIBLE_CALLBACK_PLUGINS=str(callbacks),
                   ANSIBLE_CALLBACKS_ENABLED="examples_results", NFV_EXAMPLES_RESULTS=str(results), NFV_EXAMPLES_PLAYBOOK=str(playbook),
                   ANSIBLE_DEPRECATION_WARNINGS="false", **(env or {}))
    done = subprocess.run([os.path.join(os.path.dirname(sys.executable), "ansible-playbook"), str(playbook)], cwd=str(play_dir),
                          capture_output=True, text=True, env=run_env, check=False, timeout=timeout)
    records = {}
    if results.exists():
        for line in results.read_text().splitlines():
            record = json.loads(line)
            records[record["index"]] = record
    return [(entry, records.get(index)) for index, entry in enumerate(scenario)], done


def problems(pairs, done):
    """What the run got wrong, one line each: an entry not reached, a setup that failed, an example that did not do what
    its scenario entry says."""
    found = []
    for entry, record in pairs:
        if record is None:
            found.append("{0!r}: not reached (the play stopped before it)".format(entry))
            continue
        result = record["result"]
        failed = record["status"] == "failed"
        if isinstance(entry, Setup):
            if failed and not record["ignored"]:
                found.append("{0!r}: failed: {1}".format(entry, result.get("msg")))
            continue
        if record["status"] == "skipped":
            found.append("{0!r}: skipped".format(entry))
            continue
        if failed != entry.failed:
            found.append("{0!r}: {1}: {2}".format(entry, "failed" if failed else "did not fail", result.get("msg")))
            continue
        if entry.changed is not None and result.get("changed") is not entry.changed:
            found.append("{0!r}: changed is {1}, not {2}".format(entry, result.get("changed"), entry.changed))
        state = (result.get("vnf_lcm_op_occ") or {}).get("operationState")
        if entry.state is not None and state != entry.state:
            found.append("{0!r}: op occ {1}, not {2}: {3}".format(entry, state, entry.state, result.get("msg")))
        if entry.check is not None:
            try:
                entry.check(result)
            except AssertionError as error:
                found.append("{0!r}: {1}".format(entry, error))
    if found and done.returncode != 0:
        found.append("ansible-playbook rc={0}; end of its output:\n{1}\n{2}".format(done.returncode, done.stdout[-4000:], done.stderr[-2000:]))
    return found


def timings(pairs):
    """``[(seconds, entry)]`` of the entries that ran, longest first: what the scenario's time goes to."""
    return sorted(((record["seconds"], repr(entry)) for entry, record in pairs if record), reverse=True)


# ---------------------------------------------------------------------------------------------
# The setup tasks' helper (run as a script by ansible-playbook)

RECORD_SELECTOR = "vnflcm.nfv%2Frecord%3Dvnf-instance"


def _kube(kubeconfig):
    sys.path.insert(0, os.environ["NFV_LAB_TOOLS_DIR"])
    from labk8s.kubeapi import Api  # noqa: E402  (tools/lab/k8s, found through NFV_LAB_TOOLS_DIR)

    return Api(kubeconfig)


def k8s_record(kube, namespace, name):
    """``(instance, op_occs)`` of the CNF named ``name`` in ``namespace``, from its record Secret, or None."""
    path = "/api/v1/namespaces/{0}/secrets?labelSelector={1}".format(namespace, RECORD_SELECTOR)
    for item in kube.call("GET", path)["items"]:
        document = json.loads(gzip.decompress(base64.b64decode(item["data"]["record"])))
        if document["vnfInstance"].get("vnfInstanceName") == name:
            return document["vnfInstance"], document["opOccs"]
    return None


def wait(condition, what, timeout=120, sleep=0.05):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise SystemExit("timed out after {0}s waiting for {1}".format(timeout, what))
        time.sleep(sleep)


def signal_runner(kube, namespace, name, signum):
    """Once the CNF's newest op occ is PROCESSING with a lease, send ``signum`` to the module process the lease names."""
    def running():
        found = k8s_record(kube, namespace, name)
        occ = found[1][0] if found and found[1] else None
        return occ if occ and occ.get("lease") and occ["operationState"] == "PROCESSING" else None

    occ = wait(running, "an op occ of {0} PROCESSING with a lease".format(name))
    os.kill(occ["lease"]["pid"], signum)
    return {"pid": occ["lease"]["pid"], "operation": occ["operation"], "op_occ": occ["id"]}


def hold_pods(kube, namespace, count):
    """A ResourceQuota of ``count`` pods (taken up before it returns): workloads get no more pods; ``None`` removes it."""
    path = "/api/v1/namespaces/{0}/resourcequotas".format(namespace)
    if count is None:
        kube.request("DELETE", path + "/hold-pods")
        wait(lambda: kube.request("GET", path + "/hold-pods")[0] == 404, "the quota to go")
        return {"quota": None}
    kube.call("POST", path, {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "hold-pods"}, "spec": {"hard": {"pods": str(count)}}})
    wait(lambda: (kube.call("GET", path + "/hold-pods").get("status") or {}).get("hard"), "the quota to be taken up")
    return {"quota": count}


def finalizer(kube, namespace, kind_path, name, add):
    """Add (or remove) the finalizer ``examples.nfv/hold`` on an object: ``kind_path`` as ``api/v1/configmaps``."""
    group, plural = kind_path.rsplit("/", 1)
    path = "/{0}/namespaces/{1}/{2}/{3}".format(group, namespace, plural, name)
    value = ["examples.nfv/hold"] if add else None
    status, body, _headers = kube.request("PATCH", path, {"metadata": {"finalizers": value}}, headers={"Content-Type": "application/merge-patch+json"})
    if status != 200 and (add or status != 404):
        raise SystemExit("PATCH {0}: {1} {2}".format(path, status, body))
    return {"finalizers": value, "status": status}


def main(argv):
    """``k8s-signal KUBECONFIG NAMESPACE NAME SIGNAL``, ``k8s-hold-pods KUBECONFIG NAMESPACE COUNT|none``,
    ``k8s-finalizer KUBECONFIG NAMESPACE KIND_PATH NAME add|remove``, ``kill PID``: a JSON line on stdout."""
    command, args = argv[0], argv[1:]
    if command == "k8s-signal":
        out = signal_runner(_kube(args[0]), args[1], args[2], getattr(signal, args[3]))
    elif command == "k8s-hold-pods":
        out = hold_pods(_kube(args[0]), args[1], None if args[2] == "none" else int(args[2]))
    elif command == "k8s-finalizer":
        out = finalizer(_kube(args[0]), args[1], args[2], args[3], args[4] == "add")
    elif command == "kill":
        try:
            os.kill(int(args[0]), signal.SIGKILL)
            out = {"killed": int(args[0])}
        except ProcessLookupError:
            out = {"killed": None}
    else:
        raise SystemExit("unknown command " + command)
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1:])
