# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A counting HTTP proxy in front of Heat's API, to stop a module at an exact write (the Heat side of
tests/integration/k8s/write_gate.py).

The lab's Heat is plain HTTP: the module reaches it through the proxy with a cloud dict whose
``orchestration_endpoint_override`` is the proxy's URL (``cloud()``; ``endpoint``: Heat's, as the catalog has it); Keystone, Nova, Neutron stay direct. The
proxy counts the writes (POST, PUT, PATCH, DELETE: stack creates, updates and deletes, resource signals, which is
how the record is written (heat/store.py), and marks unhealthy); previews write nothing and pass uncounted.

``hold_after=k``: writes 1..k go through; the (k+1)-th is held, never sent to Heat, until ``release()``, then
answered 503, so exactly k were applied while the test SIGKILLs the module:

    with HeatWriteGate(heat_endpoint, hold_after=k) as gate:
        task = ansible_task(module, dict(args, cloud=gate.cloud(cloud)), background=True)
        if gate.held.wait(60):
            os.kill(module_process(task.process.pid, module), signal.SIGKILL)
            task.wait()
            gate.release()
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

WRITES = ("POST", "PUT", "PATCH", "DELETE")
HOLD_LIMIT = 120
# Headers http.client sets itself, or that describe one hop only.
HOP_HEADERS = {"connection", "keep-alive", "transfer-encoding", "content-length", "proxy-connection", "upgrade"}


def describe(method, path, body):
    """``(method, what)`` of a write: its path without the project and stack ids (``stacks/<name>/resources/x/signal``);
    a create as ``stacks/<the new stack's name>``."""
    parts = [part for part in path.split("?", 1)[0].split("/") if part][2:]  # v1/<project>/...
    if len(parts) >= 3 and parts[0] == "stacks" and len(parts[2]) == 36 and parts[2].count("-") == 4:
        del parts[2]
    if parts == ["stacks"] and method == "POST":
        try:
            parts.append(json.loads(body or b"{}").get("stack_name") or "?")
        except ValueError:
            parts.append("?")
    return method, "/".join(parts)


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a client killed while its request was held


class HeatWriteGate:
    """The proxy: ``writes`` lists the writes passed in order as ``(method, path)``; ``held`` is set when the first
    write is held; ``denied`` lists the held ones."""

    # After release, a write still arriving this long is denied too: one the killed process had sent on another
    # connection before it died. Later ones are another process's (the recovery's) and pass.
    STRAGGLERS = 1.0

    def __init__(self, endpoint, hold_after=None):
        target = urlsplit(endpoint)
        self.target = (target.hostname, target.port)
        self.endpoint_path = target.path
        self.hold_after = hold_after
        self.writes, self.denied = [], []
        self.lock = threading.Lock()
        self.held, self.released = threading.Event(), threading.Event()
        self.released_at = None
        self.server = QuietServer(("127.0.0.1", 0), self._handler())

    @property
    def url(self):
        """Heat's endpoint (the project's), through the proxy."""
        return "http://127.0.0.1:{0}{1}".format(self.server.server_address[1], self.endpoint_path)

    def cloud(self, cloud):
        """A cloud dict (as clouds.yaml has it) whose Heat is this proxy. With an override the SDK skips the version
        discovery only when it is told the version."""
        return dict(cloud, orchestration_endpoint_override=self.url, orchestration_api_version="1")

    def decide(self, method, path, body=b""):
        """True to pass the request on; False once released (a straggler of the killed process); blocks when held."""
        if method not in WRITES or "/preview" in path:
            return True
        with self.lock:
            if self.released_at is not None:
                return time.monotonic() > self.released_at + self.STRAGGLERS
            self.writes.append(describe(method, path, body))
            if self.hold_after is None or len(self.writes) <= self.hold_after:
                return True
            self.denied.append(self.writes.pop())
        self.held.set()
        self.released.wait(HOLD_LIMIT)
        return False

    def release(self):
        with self.lock:
            self.released_at = time.monotonic()
        self.released.set()

    def _handler(self):
        gate = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _relay(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if not gate.decide(self.command, self.path, body):
                    self.send_response(503)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                upstream = http.client.HTTPConnection(*gate.target, timeout=300)
                try:
                    # The Host header passes as it is: Heat builds its links with it, so they name the proxy.
                    upstream.request(self.command, self.path, body=body or None,
                                     headers={key: value for key, value in self.headers.items() if key.lower() not in HOP_HEADERS})
                    response = upstream.getresponse()
                    data = response.read()
                finally:
                    upstream.close()
                self.send_response(response.status, response.reason)
                for key, value in response.getheaders():
                    if key.lower() not in HOP_HEADERS:
                        self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = _relay  # noqa: N815 - names http.server calls

            def log_message(self, *args):
                pass

        return Handler

    def __enter__(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.release()
        time.sleep(max(0.0, self.released_at + self.STRAGGLERS - time.monotonic()))
        self.server.shutdown()
        self.server.server_close()


def first_write_of(writes, predicate):
    """The 1-based index of the first write that ``predicate(method, path)`` holds for, or None."""
    return next((index for index, (method, path) in enumerate(writes, 1) if predicate(method, path)), None)


def record_write(writes):
    """The first write of the record: a signal to its resource."""
    return first_write_of(writes, lambda method, path: path.endswith("/resources/vnflcm_record/signal"))


def stack_writes(writes):
    """The 1-based indexes of the writes to the VNF's stack itself (create, updates, marks, delete): not the record's
    signals, not the name claim's stack."""
    return [index for index, (_method, path) in enumerate(writes, 1) if not path.endswith("/signal") and "vnflcm-name-" not in path]


def write_kind(write):
    """What a write is, in words: "record" (a signal to the record), "claim" / "unclaim" (the name claim's stack
    created / deleted), "create", "update", "delete" (the VNF's stack), "mark" (a resource marked unhealthy)."""
    method, path = write
    if path.endswith("/signal"):
        return "record"
    if "vnflcm-name-" in path:
        return "claim" if method == "POST" else "unclaim"
    if "/resources/" in path:
        return "mark"
    return {"POST": "create", "PATCH": "update", "PUT": "update", "DELETE": "delete"}[method]
