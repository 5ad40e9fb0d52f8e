#!/usr/bin/env python3
"""Alertmanager for the closed-loop lab tests and demo, built from its Go module like the Kubernetes lab's binaries.

  build     build the binary once per pin set (cached outside the repository, keyed by gomod/go.mod and go.sum)
  bin-path  print the binary's path (built or not)

As a library (tests, the demo): :func:`build`, :class:`Alertmanager` (start on 127.0.0.1 with a webhook route to a
URL, wait until /-/ready answers, stop by PID), :func:`post_alerts` (what Prometheus does: POST /api/v2/alerts), and
:class:`Rulebook` (ansible-rulebook running one of the collection's rulebooks, stopped by its process group).

Cache: $NFV_VNFLCM_CACHE/alertmanager-lab, else ${XDG_CACHE_HOME:-~/.cache}/nfv-vnflcm/alertmanager-lab.
v0.31.1 is the newest release whose module carries its web UI's assets: from v0.32 the UI is embedded from
ui/app/dist, a build output of npm that the module zip does not hold, so `go build` of the module fails.
"""
import datetime
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import gobuild  # noqa: E402  (tools/lab/gobuild.py)

MODULE = "github.com/prometheus/alertmanager"
ALERTMANAGER = gobuild.GoBinary("alertmanager", Path(__file__).resolve().parent / "gomod", MODULE, MODULE + "/cmd/alertmanager", "NFV_ALERTMANAGER_BIN")


def version() -> str:
    return ALERTMANAGER.version()


def runs(binary: Path) -> str:
    subprocess.run([str(binary), "--version"], check=True, capture_output=True)
    return version()


def find_binary() -> Path | None:
    """The built binary for the current pins, or None (NFV_ALERTMANAGER_BIN names one built elsewhere)."""
    return ALERTMANAGER.find_binary()


def build(force: bool = False, log=sys.stderr) -> Path:
    """Build once per key (cached, under a lock); with NFV_ALERTMANAGER_BIN set, that binary is used as it is."""
    ldflags = f"-s -w -X github.com/prometheus/common/version.Version={version().lstrip('v')}"
    return ALERTMANAGER.build(ldflags, runs, force=force, log=log)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def webhook_config(url: str, group_wait: str = "1s", group_interval: str = "1s", repeat_interval: str = "1h", token: str | None = None) -> dict:
    """One route, grouping by instance and VNFC so that each VNFC's alerts leave together, to a webhook at ``url``; with
    ``token``, Alertmanager sends it as the webhook's bearer token (http_config.authorization, as the guide shows)."""
    webhook = {"url": url, "send_resolved": False, "max_alerts": 0}
    if token:
        webhook["http_config"] = {"authorization": {"type": "Bearer", "credentials": token}}
    return {
        "route": {"receiver": "nfv-vnflcm", "group_by": ["vnf_instance_id", "nfv_vnflcm_vnf_instance_id", "alertname"],
                  "group_wait": group_wait, "group_interval": group_interval, "repeat_interval": repeat_interval},
        "receivers": [{"name": "nfv-vnflcm", "webhook_configs": [webhook]}],
    }


class Alertmanager:
    """One Alertmanager process on 127.0.0.1 (no cluster gossip), in ``workdir``: config, data and log there."""

    def __init__(self, workdir, webhook_url: str, port: int | None = None, binary: Path | None = None, **timers):
        self.dir = Path(workdir)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.binary = binary or find_binary()
        if not self.binary:
            raise RuntimeError(f"alertmanager is not built; run `{sys.executable} {__file__} build` (or make lab-build)")
        self.config = webhook_config(webhook_url, **timers)
        self.process = None

    def start(self, timeout: float = 30) -> "Alertmanager":
        self.dir.mkdir(parents=True, exist_ok=True)
        (self.dir / "alertmanager.yml").write_text(yaml.safe_dump(self.config))
        self.log_path = self.dir / "alertmanager.log"
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [str(self.binary), f"--config.file={self.dir / 'alertmanager.yml'}", f"--storage.path={self.dir / 'data'}",
                 f"--web.listen-address=127.0.0.1:{self.port}", "--cluster.listen-address=", "--log.level=info"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, cwd=self.dir)
        (self.dir / "alertmanager.pid").write_text(str(self.process.pid))
        deadline = time.monotonic() + timeout
        while not self.ready():
            if self.process.poll() is not None or time.monotonic() > deadline:
                tail = self.log_path.read_text()[-2000:]
                self.stop()
                raise RuntimeError(f"alertmanager did not get ready on {self.url}:\n{tail}")
            time.sleep(0.1)
        return self

    def ready(self) -> bool:
        return _answers(self.url + "/-/ready")

    def stop(self) -> None:
        """SIGTERM by PID, SIGKILL after 10 s."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)

    def post_alerts(self, alerts: list) -> None:
        post_alerts(self.url, alerts)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def rfc3339(moment: datetime.datetime | None = None) -> str:
    moment = moment or datetime.datetime.now(datetime.timezone.utc)
    return moment.astimezone(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def alert(labels: dict, starts_at: str | None = None, annotations: dict | None = None) -> dict:
    """A firing alert as Prometheus posts it (``alertname`` defaults to NfvVnfcDown)."""
    return {"labels": dict({"alertname": "NfvVnfcDown"}, **labels), "annotations": annotations or {},
            "startsAt": starts_at or rfc3339(), "generatorURL": "http://prometheus.invalid/graph"}


def post_alerts(url: str, alerts: list) -> None:
    """POST /api/v2/alerts, as Prometheus sends firing alerts."""
    request = urllib.request.Request(url + "/api/v2/alerts", data=json.dumps(alerts).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        if response.status != 200:
            raise RuntimeError(f"alertmanager answered {response.status} to POST /api/v2/alerts")


def java_home() -> str:
    """JAVA_HOME, else the JDK of the java on PATH (ansible-rulebook's rule engine needs Java 17+)."""
    if os.environ.get("JAVA_HOME"):
        return os.environ["JAVA_HOME"]
    java = shutil.which("java")
    if not java:
        raise RuntimeError("java is not installed: ansible-rulebook needs Java 17+ (Debian: openjdk-17-jre-headless)")
    return str(Path(os.path.realpath(java)).parent.parent)


class Rulebook:
    """ansible-rulebook running one of the collection's rulebooks (``nfv.vnflcm.<name>``) with ``variables``, in a session
    of its own, its output in ``folder``/rulebook.log. The venv of ``python`` (default: this one) has ansible-rulebook,
    ansible-galaxy (which it looks collections up with) and ansible-playbook; the modules run with that Python.
    ``options``: more of ansible-rulebook's command line (``["-vv"]``)."""

    def __init__(self, folder, rulebook, variables, health_url=None, python=None, options=()):
        self.folder, self.rulebook, self.health_url, self.options = Path(folder), rulebook, health_url, list(options)
        self.python = python or sys.executable
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "inventory.yml").write_text(yaml.safe_dump({"all": {"hosts": {"localhost": {
            "ansible_connection": "local", "ansible_python_interpreter": self.python}}}}))
        (self.folder / "vars.yml").write_text(yaml.safe_dump(variables))
        self.log = self.folder / "rulebook.log"
        self.process = None

    def start(self, timeout: float = 90) -> "Rulebook":
        bin_dir = Path(self.python).parent
        if not (bin_dir / "ansible-rulebook").exists():
            raise RuntimeError(f"ansible-rulebook is not installed beside {self.python} (tests/requirements-dev.txt)")
        env = dict(os.environ, JAVA_HOME=java_home(), PATH=os.pathsep.join([str(bin_dir), os.environ.get("PATH", "")]),
                   ANSIBLE_LOCALHOST_WARNING="false", ANSIBLE_INVENTORY_UNPARSED_WARNING="false", ANSIBLE_NOCOLOR="1")
        with open(self.log, "ab") as out:
            command = [str(bin_dir / "ansible-rulebook"), "-r", self.rulebook, "-i", "inventory.yml", "--vars", "vars.yml"] + self.options
            self.process = subprocess.Popen(command, cwd=self.folder, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        deadline = time.monotonic() + timeout
        while self.health_url and not _answers(self.health_url):
            if self.process.poll() is not None:
                raise RuntimeError("ansible-rulebook exited:\n" + self.tail())
            if time.monotonic() > deadline:
                raise RuntimeError("the rulebook's webhook did not answer:\n" + self.tail())
            time.sleep(0.2)
        return self

    def offset(self) -> int:
        return self.log.stat().st_size if self.log.exists() else 0

    def output(self, since: int = 0) -> str:
        with open(self.log, "rb") as handle:
            handle.seek(since)
            return handle.read().decode(errors="replace")

    def wait_line(self, pattern: str, since: int, timeout: float = 120) -> str:
        """The first text after ``since`` matching ``pattern`` (the closed-loop playbooks' last task says what they did)."""
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise AssertionError("ansible-rulebook exited:\n" + self.tail())
            match = re.search(pattern, self.output(since))
            if match:
                return match.group(0)
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout}s waiting for {pattern!r} in the rulebook's output:\n" + self.tail())
            time.sleep(0.2)

    def tail(self, size: int = 6000) -> str:
        return self.output()[-size:] if self.log.exists() else ""

    def kill(self) -> None:
        """SIGKILL its process group (ansible-rulebook, the JVM, ansible-playbook); a module in a session of its own stays."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(30)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except (OSError, urllib.error.URLError):
        return False


def main(argv=None) -> int:
    return gobuild.main("alertmanager_lab.py", __doc__, build, ALERTMANAGER.bin_path, argv)


if __name__ == "__main__":
    sys.exit(main())
