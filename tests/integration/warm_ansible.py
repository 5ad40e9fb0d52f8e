# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""``ansible-playbook`` runs forked from a warm interpreter, one per pytest worker and set of Ansible settings.

Each run is still a whole ``ansible-playbook``: a process of its own, its command line parsed, its inventory, plays,
plugins and module payloads loaded, its exit code; what it no longer pays is what every start of the same command in
the same settings repeated: the interpreter's start and Ansible's imports (about 0.7 CPU-s), the configuration read,
and the AnsiballZ payload build of each module (0.3-0.6 CPU-s a module, now once a worker, as Ansible caches it in its
controller temporary directory, which the forks share). A run of the suite starts about 700 of them (640 tasks of
``ansible_task``, the rest plays and the role's playbooks).

A run goes to a warm process only when everything Ansible reads from its environment at start is what the warm process
read: every variable but those only a module or the tests' callbacks read while running (``RUN_TIME_VARIABLES``), and
the working directory (its ``ansible.cfg``). Anything else, and a warm process that cannot be reached, starts
ansible-playbook as before. ``start`` forks a run without waiting for it (``ansible_task(..., background=True)``, which
kill tests and crash sweeps interrupt): its pid is the ansible-playbook process whose descendants run the modules, as
with a run started cold. ``PlaybookDriver.start`` is never forked here: its tests signal a whole process group.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback

# Read by the module processes (which inherit the run's environment) or the tests' callbacks, never by Ansible's start.
RUN_TIME_VARIABLES = ("PYTEST_", "NFV_", "K8S_AUTH_", "KUBECONFIG", "OS_")
# Warm processes a pytest worker keeps at most (one per set of settings), unless more have runs in flight: a warm
# process stopped under a run it forked would lose that run's exit status.
MOST_WARM = 3
_STATUS = struct.Struct("!iq")  # (kind, value): kind 0 = the run's pid, 1 = its wait status


def _settings(env, cwd):
    return json.dumps([cwd, sorted((key, value) for key, value in env.items() if not key.startswith(RUN_TIME_VARIABLES))])


class _Warm:
    """A warm process: a Unix socket it forks a run for, on each connection."""

    def __init__(self, env, cwd):
        self.folder = tempfile.mkdtemp(prefix="warm-ansible-")
        self.path = os.path.join(self.folder, "socket")
        self.in_flight = 0  # runs forked and not yet seen to end (guarded by _lock)
        with open(os.path.join(self.folder, "log"), "wb") as log:
            self.process = subprocess.Popen([sys.executable, os.path.abspath(__file__), self.path], env=env, cwd=cwd,
                                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)

    def connect(self, deadline):
        while time.monotonic() < deadline and self.process.poll() is None:
            connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                connection.connect(self.path)
                return connection
            except OSError:
                connection.close()
                time.sleep(0.05)
        return None

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


_warm = {}
_lock = threading.Lock()


@atexit.register
def _stop_all():
    for warm in _warm.values():
        warm.stop()
    _warm.clear()


def _warm_for(env, cwd):
    key = _settings(env, cwd)
    with _lock:
        warm = _warm.get(key)
        if warm is None or warm.process.poll() is not None:
            idle = [other for other, kept in _warm.items() if kept.in_flight == 0]
            if warm is None and len(_warm) >= MOST_WARM and idle:
                _warm.pop(idle[0]).stop()
            warm = _warm[key] = _Warm(env, cwd)
        warm.in_flight += 1
        return warm


def run(argv, env, cwd=None, timeout=None, stderr_to_stdout=False):
    """``subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)`` for an
    ``ansible-playbook`` command line (``stderr=subprocess.STDOUT`` with ``stderr_to_stdout``), forked from the warm
    process of these settings when one can be reached."""
    started = start(argv, env, cwd, stderr_to_stdout)
    if started is None:
        return subprocess.run(argv, env=env, cwd=os.path.abspath(cwd or os.getcwd()), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT if stderr_to_stdout else subprocess.PIPE, text=True, timeout=timeout, check=False)
    try:
        out, err = started.communicate(timeout)
    except subprocess.TimeoutExpired:
        started.kill()
        started.wait(60)  # its end seen: the warm process has no run in flight left
        raise
    return subprocess.CompletedProcess(argv, started.returncode, out, err)


def start(argv, env, cwd=None, stderr_to_stdout=False):
    """An ``ansible-playbook`` run forked from the warm process of these settings, not waited for (a :class:`Started`),
    or None when no warm process can be reached."""
    cwd = os.path.abspath(cwd or os.getcwd())
    warm = _warm_for(env, cwd)
    connection = warm.connect(time.monotonic() + 60)
    if connection is None:
        _landed(warm)
        return None
    stdout, stderr = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    with open(os.devnull, "rb") as stdin:
        request = json.dumps({"argv": list(argv), "env": env, "cwd": cwd}).encode()
        socket.send_fds(connection, [struct.pack("!q", len(request)) + request],
                        [stdin.fileno(), stdout.fileno(), (stdout if stderr_to_stdout else stderr).fileno()])
    try:
        pid = _read_status(connection, 0)
    except BaseException:
        _landed(warm)
        raise
    return Started(argv, warm, connection, pid, stdout, stderr)


def _landed(warm):
    with _lock:
        warm.in_flight -= 1


class Started:
    """A run forked from a warm process, with what tests use of ``subprocess.Popen``: ``pid`` (the ansible-playbook
    process, whose descendants run the modules), ``poll``, ``wait``, ``communicate`` (text), ``returncode``, ``kill``.
    Its exit status comes over the connection from the warm process, its parent."""

    def __init__(self, argv, warm, connection, pid, stdout, stderr):
        self.args = argv
        self._warm = warm
        self.pid = pid
        self.returncode = None
        self._connection = connection
        self._files = (stdout, stderr)

    def poll(self):
        if self.returncode is None and select.select([self._connection], [], [], 0)[0]:
            self._ended(_read_status(self._connection, 1))
        return self.returncode

    def wait(self, timeout=None):
        if self.returncode is None:
            if not select.select([self._connection], [], [], timeout)[0]:
                raise subprocess.TimeoutExpired(self.args, timeout)
            self._ended(_read_status(self._connection, 1))
        return self.returncode

    def communicate(self, timeout=None):
        self.wait(timeout)
        return tuple(handle.read().decode("utf-8", "replace") for handle in self._files)

    def send_signal(self, signum):
        if self.returncode is None:
            os.kill(self.pid, signum)

    def kill(self):
        self.send_signal(signal.SIGKILL)

    def terminate(self):
        self.send_signal(signal.SIGTERM)

    def _ended(self, status):
        self.returncode = os.waitstatus_to_exitcode(status)
        _landed(self._warm)
        self._connection.close()
        for handle in self._files:
            handle.seek(0)


def _read_status(connection, kind):
    data = b""
    while len(data) < _STATUS.size:
        chunk = connection.recv(_STATUS.size - len(data))
        if not chunk:
            raise RuntimeError("the warm ansible-playbook process closed the connection")
        data += chunk
    got_kind, value = _STATUS.unpack(data)
    if got_kind != kind:
        raise RuntimeError("the warm ansible-playbook process answered out of order")
    return value


# ---- the warm process

# What a playbook run imports besides the command line's own modules (a miss only costs its import in the run).
PRELOAD = ("ansible.executor.task_queue_manager", "ansible.executor.process.worker", "ansible.executor.task_executor",
           "ansible.executor.module_common", "ansible.plugins.strategy.linear", "ansible.plugins.callback.default",
           "ansible.plugins.action.normal", "ansible.plugins.connection.local", "ansible.plugins.shell.sh",
           "ansible.plugins.inventory.host_list", "ansible.plugins.filter.core", "ansible.plugins.test.core",
           "ansible.vars.clean", "ansible.playbook.play", "ansible.template")


def _serve(path):
    """Fork a run for each connection; runs go side by side (the name-race tests start two at once)."""
    import importlib
    import selectors

    from ansible.cli import playbook
    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(16)
    wake_read, wake_write = os.pipe()
    for fd in (wake_read, wake_write):
        os.set_blocking(fd, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_args: None)
    signal.signal(signal.SIGTERM, lambda *_args: sys.exit(0))
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ)
    selector.register(wake_read, selectors.EVENT_READ)
    running = {}  # pid -> the connection its status goes to
    parent = os.getppid()
    while os.getppid() == parent:  # a pytest worker killed outright leaves no warm process behind
        for key, _events in selector.select(timeout=5):
            if key.fileobj is listener:
                connection, _address = listener.accept()
                request, fds = _receive(connection)
                pid = os.fork()
                if pid == 0:
                    signal.set_wakeup_fd(-1)
                    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                    for owned in (listener, connection, selector):
                        owned.close()
                    os.close(wake_read)
                    os.close(wake_write)
                    _run_in_child(playbook, request, fds)
                for fd in fds:
                    os.close(fd)
                running[pid] = connection
                _send(connection, 0, pid)
            else:
                os.read(wake_read, 4096)
                _reap(running)


def _receive(connection):
    message, fds, _flags, _address = socket.recv_fds(connection, 1 << 16, 3)
    size = struct.unpack("!q", message[:8])[0]
    while len(message) < 8 + size:
        message += connection.recv(8 + size - len(message))
    return json.loads(message[8:]), fds


def _send(connection, kind, value):
    try:
        connection.sendall(_STATUS.pack(kind, value))
    except OSError:
        pass  # the test went away: the run ends all the same


def _reap(running):
    while running:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        connection = running.pop(pid, None)
        if connection is not None:
            _send(connection, 1, status)
            connection.close()


def _run_in_child(playbook, request, fds):
    code = 1
    try:
        for target, fd in zip((0, 1, 2), fds):
            os.dup2(fd, target)
            os.close(fd)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = list(request["argv"])
        try:
            playbook.main(sys.argv)
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    except BaseException:  # pylint: disable=broad-except
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # pylint: disable=broad-except
                pass
        os._exit(code)


if __name__ == "__main__":
    _serve(sys.argv[1])
