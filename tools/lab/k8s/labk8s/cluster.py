"""Start, check and stop the lab: etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok.

Everything listens on 127.0.0.1 on ports picked at start. Each process is started in its own
session, its PID recorded in <state>/pids, and stopped only by that PID."""
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import time
import urllib.request
from pathlib import Path

from . import build, pki
from .kubeapi import Api, ApiError, kubeconfig, write_kubeconfig
from .paths import state_dir

COMPONENTS = ("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok")
NODES = ("kwok-node-0", "kwok-node-1", "kwok-node-2")
ADMIN_USER = "nfv-lab-admin"
CLIENTS = {  # kubeconfig name: (CN, O); the identities kubeadm gives these components
    "admin": (ADMIN_USER, "system:masters"),
    "controller-manager": ("system:kube-controller-manager", None),
    "scheduler": ("system:kube-scheduler", None),
    "kwok": ("nfv-lab-kwok", "system:masters"),
}
# Write verbs at Metadata level; a fixed-name marker GET lets the audit helper find "now" in the log.
AUDIT_MARKER = "nfv-lab-audit-marker"
AUDIT_POLICY = {
    "apiVersion": "audit.k8s.io/v1", "kind": "Policy", "omitStages": ["RequestReceived"],
    "rules": [
        {"level": "Metadata", "verbs": ["get"],
         "resources": [{"group": "", "resources": ["configmaps"], "resourceNames": [AUDIT_MARKER]}]},
        {"level": "Metadata", "verbs": ["create", "update", "patch", "delete", "deletecollection"]},
        {"level": "None"},
    ],
}


class LabError(RuntimeError):
    pass


class Lab:
    def __init__(self, state: Path | None = None):
        self.dir = Path(state) if state else state_dir()
        self.logs = self.dir / "logs"
        self.pids = self.dir / "pids"
        self.pki = self.dir / "pki"
        self.kubeconfig = self.dir / "admin.kubeconfig"
        self.audit_log = self.logs / "audit.log"
        self._procs: dict[str, subprocess.Popen] = {}

    # ---- state ----
    def state(self) -> dict:
        try:
            return json.loads((self.dir / "state.json").read_text())
        except (OSError, ValueError):
            return {}

    def pid(self, name: str) -> int | None:
        try:
            pid = int((self.pids / f"{name}.pid").read_text())
        except (OSError, ValueError):
            return None
        # Only a live process whose command line names this state dir is ours. The command line
        # reads empty for a moment while a just-spawned child is still inside execve.
        for _ in range(50):
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
            except OSError:
                return None
            if cmdline or not _alive(pid):
                break
            time.sleep(0.02)
        return pid if f"{self.dir}/" in cmdline else None

    def log_tail(self, name: str, lines: int = 40) -> str:
        try:
            text = (self.logs / f"{name}.log").read_text(errors="replace").splitlines()
        except OSError:
            return ""
        return "\n".join(text[-lines:])

    def all_log_tails(self, lines: int = 25) -> str:
        return "\n".join(f"----- {n}.log -----\n{self.log_tail(n, lines)}" for n in COMPONENTS)

    def api(self) -> Api:
        return Api(self.kubeconfig)

    # ---- start ----
    def up(self, bin_dir: Path | None = None, timeout: float = 120, log=None) -> float:
        """Start the lab (fresh state); return seconds taken. Raises LabError with log tails on failure."""
        bin_dir = Path(bin_dir) if bin_dir else build.find_bin_dir()
        if not bin_dir:
            raise LabError(f"lab binaries are not built (expected {build.bin_dir()}); run: tools/lab/k8s/lab.py build")
        start = time.monotonic()
        for attempt in (1, 2):
            try:
                self._start(bin_dir, time.monotonic() + timeout, log)
                break
            except LabError as exc:
                # A port picked at start can be taken before the component binds it, e.g. as the
                # local port of an outgoing connection; new ports fix that.
                if attempt == 2 or "address already in use" not in str(exc):
                    raise
                _say(log, "a picked port was taken meanwhile; starting again with new ports")
        took = time.monotonic() - start
        _say(log, f"lab up in {took:.1f}s; KUBECONFIG={self.kubeconfig}")
        return took

    def _start(self, bin_dir: Path, deadline: float, log) -> None:
        start = time.monotonic()
        self.down(quiet=True)
        if self.dir.is_dir() and any(self.dir.iterdir()) and not (self.dir / "state.json").exists():
            raise LabError(f"{self.dir} is not empty and holds no lab state; refusing to wipe it")
        shutil.rmtree(self.dir, ignore_errors=True)
        for d in (self.logs, self.pids, self.pki):
            d.mkdir(parents=True)
        ports = _free_ports(["etcd", "etcd_peer", "apiserver", "controller_manager", "scheduler"])
        self._write_config(ports)
        (self.dir / "state.json").write_text(json.dumps({"ports": ports, "bin_dir": str(bin_dir)}, indent=1))
        try:
            for name, (args, ready) in self._components(bin_dir, ports).items():
                self._spawn(name, args)
                self._wait(name, ready, deadline)
                _say(log, f"{name} ready ({time.monotonic() - start:.1f}s)")
            api = self.api()
            for node in NODES:
                api.call("POST", "/api/v1/nodes", _node(node), ok=(201, 409))
            self._wait("kwok", lambda: self._nodes_ready(api), deadline, what="nodes Ready with leases")
            self._wait("kube-controller-manager", lambda: _exists(api, "/api/v1/namespaces/default/serviceaccounts/default")
                       and _exists(api, "/api/v1/namespaces/default/configmaps/kube-root-ca.crt"), deadline,
                       what="default ServiceAccount and kube-root-ca.crt")
            self._canary(api, deadline)
        except Exception as exc:
            tails = self.all_log_tails()
            self.down(quiet=True)
            raise LabError(f"lab failed to start: {exc}\n{tails}") from exc

    def _components(self, bin_dir: Path, ports: dict) -> dict:
        """name: (command line, readiness check), in start order."""
        return {
            "etcd": (self._etcd_args(bin_dir, ports), lambda: _http_ok(f"http://127.0.0.1:{ports['etcd']}/readyz")),
            "kube-apiserver": (self._apiserver_args(bin_dir, ports), self._apiserver_ready),
            "kube-controller-manager": (self._kcm_args(bin_dir, ports), lambda: _https_ok(ports["controller_manager"])),
            "kube-scheduler": (self._scheduler_args(bin_dir, ports), lambda: _https_ok(ports["scheduler"])),
            "kwok": (self._kwok_args(bin_dir), lambda: True),  # `up` then waits for the nodes
        }

    def _write_config(self, ports: dict) -> None:
        pki.create(self.pki, CLIENTS)
        ca = (self.pki / "ca.crt").read_bytes()
        server = f"https://127.0.0.1:{ports['apiserver']}"
        for name in CLIENTS:
            cfg = kubeconfig(server, ca, CLIENTS[name][0], cert_pem=(self.pki / f"{name}.crt").read_bytes(),
                             key_pem=(self.pki / f"{name}.key").read_bytes())
            write_kubeconfig(self.dir / f"{name}.kubeconfig", cfg)
        (self.dir / "audit-policy.json").write_text(json.dumps(AUDIT_POLICY, indent=1))
        (self.dir / "kwok-home").mkdir()

    def _etcd_args(self, b: Path, p: dict) -> list[str]:
        peer = f"http://127.0.0.1:{p['etcd_peer']}"
        client = f"http://127.0.0.1:{p['etcd']}"
        return [str(b / "etcd"), "--name=lab", f"--data-dir={self.dir}/etcd",
                f"--listen-client-urls={client}", f"--advertise-client-urls={client}",
                f"--listen-peer-urls={peer}", f"--initial-advertise-peer-urls={peer}",
                f"--initial-cluster=lab={peer}", "--unsafe-no-fsync", "--auto-compaction-retention=1",
                "--quota-backend-bytes=2147483648", "--log-level=warn"]

    def _apiserver_args(self, b: Path, p: dict) -> list[str]:
        k = self.pki
        return [str(b / "kube-apiserver"), f"--etcd-servers=http://127.0.0.1:{p['etcd']}",
                "--bind-address=127.0.0.1", f"--secure-port={p['apiserver']}",
                # Loopback advertise address only works without an endpoint reconciler.
                "--advertise-address=127.0.0.1", "--endpoint-reconciler-type=none",
                f"--cert-dir={self.dir}/apiserver",
                f"--tls-cert-file={k}/apiserver.crt", f"--tls-private-key-file={k}/apiserver.key",
                f"--client-ca-file={k}/ca.crt", "--authorization-mode=Node,RBAC",
                "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
                f"--service-account-key-file={k}/sa.pub", f"--service-account-signing-key-file={k}/sa.key",
                f"--service-cluster-ip-range={pki.SERVICE_CIDR}",
                "--allow-privileged=true", "--enable-admission-plugins=NodeRestriction", "--profiling=false",
                f"--audit-policy-file={self.dir}/audit-policy.json", f"--audit-log-path={self.audit_log}",
                # blocking: the event is written before the response is sent, so a test sees its writes at once.
                "--audit-log-mode=blocking", "--audit-log-format=json",
                "--audit-log-maxsize=4096",  # no rotation: the audit helper works with offsets
                # On SIGTERM, end the open watches (else the HTTP server waits for them up to 60 s,
                # and `down`/`restart` end in SIGKILL after 15 s).
                "--shutdown-watch-termination-grace-period=2s", "--v=1"]

    def _component_common(self, kcfg: str, port: int) -> list[str]:
        kc = f"{self.dir}/{kcfg}.kubeconfig"
        return [f"--kubeconfig={kc}", f"--authentication-kubeconfig={kc}", f"--authorization-kubeconfig={kc}",
                "--bind-address=127.0.0.1", f"--secure-port={port}", f"--cert-dir={self.dir}/{kcfg}-serving",
                "--authorization-always-allow-paths=/healthz,/readyz,/livez,/metrics",
                "--leader-elect=false", "--v=1"]

    def _kcm_args(self, b: Path, p: dict) -> list[str]:
        return [str(b / "kube-controller-manager"), *self._component_common("controller-manager", p["controller_manager"]),
                "--use-service-account-credentials=true", f"--service-account-private-key-file={self.pki}/sa.key",
                f"--root-ca-file={self.pki}/ca.crt", f"--cluster-signing-cert-file={self.pki}/ca.crt",
                f"--cluster-signing-key-file={self.pki}/ca.key", "--controllers=*"]

    def _scheduler_args(self, b: Path, p: dict) -> list[str]:
        return [str(b / "kube-scheduler"), *self._component_common("scheduler", p["scheduler"])]

    def _kwok_args(self, b: Path) -> list[str]:
        # No --server-address/--node-port: kwok would serve on 0.0.0.0.
        return [str(b / "kwok"), f"--kubeconfig={self.dir}/kwok.kubeconfig", f"--config={b}/kwok-stages.yaml",
                "--manage-all-nodes=true", "--node-lease-duration-seconds=40", "--node-ip=127.0.0.1",
                "--cidr=10.244.0.0/16"]

    def _spawn(self, name: str, args: list[str]) -> None:
        env = dict(os.environ)
        if name == "kwok":
            env["HOME"] = str(self.dir / "kwok-home")  # kwok always reads ~/.kwok/kwok.yaml too
        with open(self.logs / f"{name}.log", "ab") as out:
            proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                    start_new_session=True, env=env, cwd=self.dir)
        self._procs[name] = proc
        (self.pids / f"{name}.pid").write_text(f"{proc.pid}\n")

    def _wait(self, name: str, ready, deadline: float, what: str = "ready") -> None:
        while True:
            proc = self._procs[name]
            if proc.poll() is not None:
                raise LabError(f"{name} exited with code {proc.returncode}")
            try:
                if ready():
                    return
            except (OSError, ApiError, ssl.SSLError):
                pass
            if time.monotonic() > deadline:
                raise LabError(f"timed out waiting for {name}: {what}")
            time.sleep(0.2)

    def _apiserver_ready(self) -> bool:
        status, body, _ = self.api().request("GET", "/readyz")
        return status == 200 and body == "ok"

    @staticmethod
    def _nodes_ready(api: Api) -> bool:
        for node in NODES:
            obj = api.call("GET", f"/api/v1/nodes/{node}")
            conds = {c["type"]: c["status"] for c in obj.get("status", {}).get("conditions", [])}
            if conds.get("Ready") != "True" or not _exists(api, f"/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/{node}"):
                return False
        return True

    def _canary(self, api: Api, deadline: float) -> None:
        """A pod must be scheduled and made Ready: proves scheduler and kwok work together."""
        path = "/api/v1/namespaces/default/pods"
        api.call("POST", path, {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "lab-canary"},
                                "spec": {"containers": [{"name": "c", "image": "canary"}]}})

        def ready():
            pod = api.call("GET", f"{path}/lab-canary")
            conds = {c["type"]: c["status"] for c in pod.get("status", {}).get("conditions", [])}
            return pod["status"].get("phase") == "Running" and conds.get("Ready") == "True"

        self._wait("kwok", ready, deadline, what="canary pod Running and Ready")
        api.call("DELETE", f"{path}/lab-canary", {"gracePeriodSeconds": 0})

    # ---- stop / status ----
    def down(self, quiet: bool = False, log=None) -> None:
        """Stop every recorded process (reverse order) by PID; TERM, then KILL after 15 s."""
        for name in reversed(COMPONENTS):
            pid = self.stop_component(name)
            if pid and not quiet:
                _say(log, f"stopped {name} (pid {pid})")
        shutil.rmtree(self.dir / "etcd", ignore_errors=True)

    # ---- one component (fault injection) ----
    def stop_component(self, name: str, sig: int = signal.SIGTERM, timeout: float = 15) -> int | None:
        """Stop one component by its recorded PID (sig, then SIGKILL after timeout); return that PID, or
        None if it was not running. Its state (etcd data, audit log, certificates) stays."""
        proc = self._procs.pop(name, None)
        pid = proc.pid if proc and proc.poll() is None else self.pid(name)
        if pid:
            _stop(pid, timeout, sig)
            if proc:
                proc.wait()
        (self.pids / f"{name}.pid").unlink(missing_ok=True)
        return pid

    def start_component(self, name: str, timeout: float = 60) -> None:
        """Start a stopped component again with the command line, ports and certificates `up` gave it
        (logs appended), and wait until it is ready (kwok: until the nodes are Ready)."""
        state = self.state()
        if not state:
            raise LabError(f"no lab state in {self.dir}; run `lab.py up` first")
        if self.pid(name):
            raise LabError(f"{name} is already running (pid {self.pid(name)})")
        args, ready = self._components(Path(state["bin_dir"]), state["ports"])[name]
        if name == "kwok":
            # A new kwok manages a node only once it holds the node's lease, and the stopped one's lease
            # would block it for its whole 40 s: hand the nodes over by deleting those leases.
            api = self.api()
            for node in NODES:
                api.request("DELETE", f"/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/{node}")
            ready = (lambda: self._nodes_ready(api))
        deadline = time.monotonic() + timeout
        while True:
            log_at = (self.logs / f"{name}.log").stat().st_size if (self.logs / f"{name}.log").exists() else 0
            self._spawn(name, args)
            try:
                self._wait(name, ready, deadline)
                return
            except LabError as exc:
                with open(self.logs / f"{name}.log", "rb") as f:
                    f.seek(log_at)
                    new_log = f.read().decode(errors="replace")
                # Its port may have been taken while it was down (as the local port of a connection).
                if "address already in use" in new_log and time.monotonic() + 1 < deadline:
                    self.stop_component(name)
                    time.sleep(0.5)
                    continue
                self.stop_component(name)
                raise LabError(f"{name} did not start again: {exc}\n{new_log[-3000:]}") from exc

    def restart(self, name: str = "kube-apiserver", down_seconds: float = 0.0, sig: int = signal.SIGTERM,
                timeout: float = 60, restart_controllers: bool = False) -> float:
        """Stop a running component by its PID (sig: SIGTERM, or SIGKILL for a crash), keep it down for
        down_seconds, start it again as `up` did and wait until it is ready (the apiserver: /readyz).
        Return the seconds from the signal until ready again.

        restart_controllers (apiserver only): then also restart the controller-manager, the scheduler
        and kwok, whose client-go backoff otherwise grows with each outage (see README)."""
        if name not in COMPONENTS:
            raise LabError(f"unknown component {name!r}; one of {', '.join(COMPONENTS)}")
        if not self.pid(name):
            raise LabError(f"{name} is not running")
        start = time.monotonic()
        self.stop_component(name, sig=sig)
        time.sleep(down_seconds)
        self.start_component(name, timeout=timeout)
        took = time.monotonic() - start
        if restart_controllers and name == "kube-apiserver":
            for other in ("kube-controller-manager", "kube-scheduler", "kwok"):
                self.stop_component(other)
                self.start_component(other, timeout=timeout)
        return took

    def status(self) -> dict[str, str]:
        ports = self.state().get("ports", {})
        checks = {
            "etcd": lambda: _http_ok(f"http://127.0.0.1:{ports['etcd']}/readyz"),
            "kube-apiserver": self._apiserver_ready,
            "kube-controller-manager": lambda: _https_ok(ports["controller_manager"]),
            "kube-scheduler": lambda: _https_ok(ports["scheduler"]),
            "kwok": lambda: self._nodes_ready(self.api()),
        }
        out = {}
        for name in COMPONENTS:
            pid = self.pid(name)
            if not pid:
                out[name] = "stopped"
                continue
            try:
                healthy = checks[name]()
            except Exception:  # noqa: BLE001 - any failure means unhealthy
                healthy = False
            out[name] = f"{'ready' if healthy else 'NOT READY'} (pid {pid})"
        return out

    def is_up(self) -> bool:
        return all(v.startswith("ready") for v in self.status().values())

    def rss_kib(self) -> int:
        total = 0
        for name in COMPONENTS:
            pid = self.pid(name)
            if pid:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        return total


def _say(log, msg: str) -> None:
    if log:
        print(msg, file=log, flush=True)


def _free_ports(names: list[str]) -> dict:
    socks = []
    try:
        for _ in names:
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return {n: s.getsockname()[1] for n, s in zip(names, socks)}
    finally:
        for s in socks:
            s.close()


def _http_ok(url: str) -> bool:
    with urllib.request.urlopen(url, timeout=2) as r:
        return r.status == 200


def _https_ok(port: int) -> bool:
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE  # self-signed serving cert of the component; health check only
    with urllib.request.urlopen(f"https://127.0.0.1:{port}/healthz", timeout=2, context=ctx) as r:
        return r.status == 200 and r.read() == b"ok"


def _exists(api: Api, path: str) -> bool:
    return api.request("GET", path)[0] == 200


def _node(name: str) -> dict:
    # kwok's documented node template without its NoSchedule taint, so workloads schedule as-is.
    res = {"cpu": "32", "memory": "256Gi", "pods": "110"}
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name,
                         "annotations": {"node.alpha.kubernetes.io/ttl": "0", "kwok.x-k8s.io/node": "fake"},
                         "labels": {"kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
                                    "kubernetes.io/arch": "amd64", "type": "kwok"}},
            "status": {"allocatable": res, "capacity": res}}


def _stop(pid: int, timeout: float = 15, sig: int = signal.SIGTERM) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        return
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if not _alive(pid):
            return
        time.sleep(0.1)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        return
    while _alive(pid):
        time.sleep(0.1)


def _alive(pid: int) -> bool:
    try:
        # Our children are reaped by init once we exit, so check for zombies too.
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    if state == "Z":
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass
        return False
    return True
