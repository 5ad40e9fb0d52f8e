# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Network faults for the lab tests: a TCP proxy between a client and a lab API that can cut connections.

    with TcpProxy("127.0.0.1", apiserver_port) as proxy:
        kubeconfig_via(proxy, lab.kubeconfig, tmp_path / "via-proxy.kubeconfig")
        ...                                  # the client under test uses the new kubeconfig
        proxy.drop()                         # reset every open connection now
        proxy.refuse(2)                      # for 2 s, reset every new connection (a server that is down)
        trigger = proxy.drop_after(50_000)   # reset a connection after 50 kB more of its server bytes
        trigger = proxy.drop_when(lambda c: c.from_server and c.server_bytes < 50_000 <= c.server_bytes + len(c.data))
        trigger = proxy.hold_when(lambda c: c.from_server and c.client_bytes >= 150_000)
        ...                                  # a 150 kB request is applied, its answer withheld; then
        proxy.drop()                         # the client sees a reset: the answer is lost
        trigger.wait(5)                      # True once it fired
        proxy.stats()

The proxy only moves bytes (TLS passes through: the client's TLS session is with the real server,
whose certificate has 127.0.0.1 as IP SAN). One background thread runs a selector loop over the
listening socket and every connection; the controls hand their work to that thread, so they are
thread-safe, and return once it is done. "Reset" means close with SO_LINGER 0: the peer gets a
TCP RST (ECONNRESET, or an unexpected TLS EOF) instead of an orderly end.

OpenStack (not needed so far): the lab's APIs are plain HTTP; point one service of a cloud at the
proxy with openstacksdk's ``<service>_endpoint_override`` in clouds.yaml (e.g.
``orchestration_endpoint_override: http://127.0.0.1:<proxy port>/v1/%(project_id)s``), or per
``openstack.connect(..., orchestration_endpoint_override=...)``; Keystone stays direct.
"""

from __future__ import annotations

import dataclasses
import fcntl
import os
import queue
import selectors
import socket
import struct
import termios
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import yaml

CONNECT_TIMEOUT = 3.0  # to the target; a target that is down refuses at once on 127.0.0.1
CONTROL_TIMEOUT = 10.0  # a control waits this long for the proxy thread
BUFSIZE = 65536


def wait_for(condition, what, timeout=60, sleep=0.1):
    """``condition()`` until it is truthy (its value is returned); fails the test after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, "timed out after {0}s waiting for {1}".format(timeout, what)
        time.sleep(sleep)


def started_together(run, args, runs=2, timeout=300):
    """``run(dict(args))`` in ``runs`` threads released by one barrier: ``[(result or None, error text or None)]``.

    For races at the VIM's API: each run has its own client, as two module processes would; a collection error is
    the run's outcome, anything else fails the test.
    """
    from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import VnfLcmError

    barrier = threading.Barrier(runs)
    outcomes = [None] * runs

    def one(index):
        barrier.wait(timeout=30)
        try:
            outcomes[index] = (run(dict(args)), None)
        except VnfLcmError as error:
            outcomes[index] = (None, str(error))

    threads = [threading.Thread(target=one, args=(index,)) for index in range(runs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    assert all(outcomes), "a run raised what is not a collection error (see the thread's traceback): {0}".format(outcomes)
    return outcomes


@dataclasses.dataclass(frozen=True)
class Chunk:
    """What a drop_when/hold_when predicate sees: one chunk about to be forwarded, and its connection's
    totals so far. Predicates see the chunks of every connection (conn_id tells them apart)."""
    conn_id: int
    from_server: bool  # direction: server -> client (else client -> server)
    data: bytes  # the bytes of this chunk (ciphertext for TLS)
    client_bytes: int  # bytes forwarded client -> server on this connection before this chunk
    server_bytes: int  # bytes forwarded server -> client on this connection before this chunk


class Trigger:
    """A one-shot drop armed by drop_after/drop_when; ``fired`` is set once it has cut a connection."""

    def __init__(self):
        self.fired = threading.Event()
        self.conn_id: int | None = None  # the connection it cut
        self.error: Exception | None = None  # the predicate raised this (the trigger is then disarmed)
        self.hold = False  # withhold instead of reset
        self._check = None  # (Chunk, _Conn) -> None, or how many bytes of the chunk to deliver before the reset

    def wait(self, timeout: float) -> bool:
        return self.fired.wait(timeout)


class _Conn:
    def __init__(self, conn_id: int, client: socket.socket, server: socket.socket):
        self.id = conn_id
        self.client, self.server = client, server
        self.out = {client: bytearray(), server: bytearray()}  # bytes waiting to be sent to that socket
        self.eof = {client: False, server: False}  # that socket has sent its FIN
        self.shut = {client: False, server: False}  # we have sent our FIN to that socket
        self.held = {client: False, server: False}  # what that socket sends is withheld (hold_when)
        self.client_bytes = self.server_bytes = 0

    def peer(self, sock: socket.socket) -> socket.socket:
        return self.server if sock is self.client else self.client


class TcpProxy:
    """Forward <listen_host>:<port> to target_host:target_port; see the module docstring."""

    def __init__(self, target_host: str, target_port: int, listen_host: str = "127.0.0.1"):
        self.target = (target_host, int(target_port))
        self._listener = socket.create_server((listen_host, 0))
        self._listener.setblocking(False)
        self.host, self.port = self._listener.getsockname()[:2]
        self._wake_r, self._wake_w = socket.socketpair()
        for s in (self._wake_r, self._wake_w):
            s.setblocking(False)
        self._sel = selectors.DefaultSelector()
        self._sel.register(self._listener, selectors.EVENT_READ, "listen")
        self._sel.register(self._wake_r, selectors.EVENT_READ, "wake")
        self._calls: queue.Queue = queue.Queue()
        self._conns: dict[int, _Conn] = {}
        self._by_sock: dict[socket.socket, _Conn] = {}
        self._triggers: list[Trigger] = []
        self._refuse_until = 0.0
        self._next_id = 0
        self._stats = {"accepted": 0, "refused": 0, "upstream_failed": 0, "drops": 0,
                       "bytes_from_client": 0, "bytes_from_server": 0, "bytes_held": 0}
        self._stopping = False
        self._closed = False
        self._thread: threading.Thread | None = None

    # ---- lifecycle ----
    def start(self) -> TcpProxy:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"TcpProxy-{self.port}", daemon=True)
            self._thread.start()
        return self

    def close(self, timeout: float = 5.0) -> None:
        """Reset every open connection, stop the thread, close the listener. Idempotent."""
        if self._thread is None:
            self._teardown()
            return
        self._stopping = True
        self._wake()
        self._thread.join(timeout)
        if self._thread.is_alive():
            raise RuntimeError(f"TcpProxy thread of port {self.port} did not stop within {timeout}s")

    def __enter__(self) -> TcpProxy:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def url_for(self, scheme: str = "https", path: str = "") -> str:
        """E.g. https://127.0.0.1:<port>: the address clients use instead of the target's."""
        return f"{scheme}://{self.host}:{self.port}{path}"

    # ---- controls (any thread) ----
    def drop(self) -> int:
        """Reset every open connection now; return how many there were."""
        return self._call(self._drop_all)

    def refuse(self, seconds: float, drop_open: bool = True) -> None:
        """For `seconds` from now, reset each new connection right after accepting it (the server looks down).

        drop_open: also reset the open connections now (else a pooled keep-alive connection would
        go on working through the outage)."""
        def apply():
            self._refuse_until = time.monotonic() + seconds
            if drop_open:
                self._drop_all()
        self._call(apply)

    def refusing(self) -> bool:
        return time.monotonic() < self._refuse_until

    def drop_after(self, n_bytes_from_server: int) -> Trigger:
        """One shot: the first connection to get n_bytes_from_server more bytes from the server (counted
        from now; from its start for a newer connection) gets exactly that many, then is reset: the
        response is cut in the middle."""
        n = int(n_bytes_from_server)
        trigger = Trigger()

        def arm():
            base = {conn.id: conn.server_bytes for conn in self._conns.values()}

            def check(chunk: Chunk, conn: _Conn):
                seen = conn.server_bytes - base.get(conn.id, 0)
                return n - seen if chunk.from_server and seen + len(chunk.data) >= n else None
            trigger._check = check
            self._triggers.append(trigger)
        self._call(arm)
        return trigger

    def drop_when(self, predicate) -> Trigger:
        """One shot: before forwarding each chunk, call predicate(Chunk) (in the proxy thread; keep it
        quick); on the first True the chunk is not forwarded and its connection is reset.

        The predicate sees every connection, also old ones that are closing (a TLS close_notify is a
        server chunk too): test for a crossing, ``c.server_bytes < N <= c.server_bytes + len(c.data)``,
        not ``c.server_bytes > N``. With TLS the bytes are ciphertext: count bytes. Do not pick "the
        first server bytes once the client has sent N": a TLS 1.3 server sends its session tickets
        (about 1 kB) early but on its own schedule, and on a busy machine they can reach the proxy
        after N, so the reset would come before the server even read the request; use hold_when to
        lose an answer. With plain HTTP, content works too:
        ``lambda c: c.from_server and c.data.startswith(b"HTTP/1.1 201")``."""
        trigger = Trigger()
        trigger._check = lambda chunk, conn: 0 if predicate(chunk) else None
        self._call(lambda: self._triggers.append(trigger))
        return trigger

    def hold_when(self, predicate) -> Trigger:
        """One shot: like drop_when, but on the first True the chunk and everything after it in that
        direction of that connection are withheld (read and never forwarded, no FIN either); the
        connection stays open, so its client waits, until drop() resets it (or its client gives up).

        The deterministic way to lose the answer to an applied request, also with TLS:
        ``hold_when(lambda c: c.from_server and c.client_bytes >= N)`` with N past the client's TLS
        handshake (about 1.5 kB with a client certificate) and at most the end of the request; wait
        until the server shows the change, then drop(). Withholding a TLS 1.3 session ticket too is
        harmless (the client does not wait for it)."""
        trigger = Trigger()
        trigger.hold = True
        trigger._check = lambda chunk, conn: 0 if predicate(chunk) else None
        self._call(lambda: self._triggers.append(trigger))
        return trigger

    def disarm(self) -> None:
        """Forget the triggers that have not fired."""
        self._call(self._triggers.clear)

    def stats(self) -> dict:
        """accepted, refused (reset by refuse), upstream_failed (the target did not accept), drops
        (connections reset by drop/refuse/triggers), bytes_from_client, bytes_from_server (forwarded),
        bytes_held (withheld by hold_when), open (connections now)."""
        return self._call(lambda: dict(self._stats, open=len(self._conns)))

    # ---- the proxy thread ----
    def _call(self, fn):
        """Run fn in the proxy thread and return its result (directly once the thread has ended)."""
        if self._thread is None:
            raise RuntimeError("TcpProxy is not started (use it as a context manager or call start())")
        if not self._thread.is_alive():
            return fn()
        done, box = threading.Event(), {}
        self._calls.put((fn, done, box))
        self._wake()
        if not done.wait(CONTROL_TIMEOUT):
            raise RuntimeError(f"TcpProxy thread did not answer within {CONTROL_TIMEOUT}s")
        if "error" in box:
            raise box["error"]
        return box.get("value")

    def _wake(self) -> None:
        try:
            self._wake_w.send(b"x")
        except OSError:  # buffer full (a wake-up is pending anyway) or already closed
            pass

    def _run(self) -> None:
        try:
            while not self._stopping:
                for key, mask in self._sel.select(timeout=0.5):
                    if key.data == "listen":
                        self._accept()
                    elif key.data == "wake":
                        self._run_calls()
                    elif key.fileobj in self._by_sock:  # not closed by an earlier event of this round
                        self._pump(key.data, key.fileobj, mask)
        finally:
            self._teardown()
            self._run_calls()

    def _run_calls(self) -> None:
        try:
            while self._wake_r.recv(4096):
                pass
        except OSError:
            pass
        while True:
            try:
                fn, done, box = self._calls.get_nowait()
            except queue.Empty:
                return
            try:
                box["value"] = fn()
            except Exception as exc:  # noqa: BLE001 - handed to the caller
                box["error"] = exc
            done.set()

    def _accept(self) -> None:
        while True:
            try:
                client = self._listener.accept()[0]
            except OSError:  # BlockingIOError: nothing more to accept
                return
            self._stats["accepted"] += 1
            if self.refusing():
                self._stats["refused"] += 1
                _reset(client)
                continue
            try:
                server = socket.create_connection(self.target, timeout=CONNECT_TIMEOUT)
            except OSError:
                self._stats["upstream_failed"] += 1
                _reset(client)
                continue
            for s in (client, server):
                s.setblocking(False)
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._next_id += 1
            conn = _Conn(self._next_id, client, server)
            self._conns[conn.id] = conn
            for s in (client, server):
                self._by_sock[s] = conn
                self._sel.register(s, selectors.EVENT_READ, conn)

    def _pump(self, conn: _Conn, sock: socket.socket, mask: int) -> None:
        try:
            if mask & selectors.EVENT_WRITE:
                self._flush(conn, sock)
            if mask & selectors.EVENT_READ:
                self._read(conn, sock)
        except OSError:  # reset or broken on either side: pass it on as a reset
            self._close(conn, reset=True)
            return
        if conn.id not in self._conns:
            return
        if all(conn.eof.values()) and not any(conn.out.values()):
            self._close(conn, reset=False)
            return
        for s in (conn.client, conn.server):
            # Read from s while its peer's buffer is empty (backpressure) and s has not ended;
            # write to s while its own buffer holds bytes.
            events = (selectors.EVENT_READ if not conn.eof[s] and not conn.out[conn.peer(s)] else 0) \
                | (selectors.EVENT_WRITE if conn.out[s] else 0)
            key = self._sel.get_map().get(s)
            if not events:
                if key:
                    self._sel.unregister(s)
            elif not key:
                self._sel.register(s, events, conn)
            elif key.events != events:
                self._sel.modify(s, events, conn)

    def _read(self, conn: _Conn, sock: socket.socket) -> None:
        data = sock.recv(BUFSIZE)
        peer = conn.peer(sock)
        if not data:
            conn.eof[sock] = True
            self._flush(conn, peer)
            return
        if conn.held[sock]:
            self._stats["bytes_held"] += len(data)
            return
        from_server = sock is conn.server
        chunk = Chunk(conn.id, from_server, data, conn.client_bytes, conn.server_bytes)
        for trigger in list(self._triggers):
            try:
                keep = trigger._check(chunk, conn)
            except Exception as exc:  # noqa: BLE001 - a broken predicate disarms its trigger
                trigger.error = exc
                self._triggers.remove(trigger)
                continue
            if keep is None:
                continue
            self._triggers.remove(trigger)
            trigger.conn_id = conn.id
            if trigger.hold:
                conn.held[sock] = True
                self._stats["bytes_held"] += len(data)
                trigger.fired.set()
                return
            if keep > 0:  # deliver exactly that much of the chunk (the peer's buffer is empty: backpressure)
                self._count(conn, from_server, data[:keep])
                try:
                    peer.settimeout(CONNECT_TIMEOUT)
                    peer.sendall(data[:keep])
                    _drain(peer)
                except OSError:  # the client is gone already: nothing left to cut
                    pass
            self._close(conn, reset=True, dropped=True)
            trigger.fired.set()
            return
        self._count(conn, from_server, data)
        conn.out[peer] += data
        self._flush(conn, peer)

    def _count(self, conn: _Conn, from_server: bool, data: bytes) -> None:
        if from_server:
            conn.server_bytes += len(data)
            self._stats["bytes_from_server"] += len(data)
        else:
            conn.client_bytes += len(data)
            self._stats["bytes_from_client"] += len(data)

    def _flush(self, conn: _Conn, sock: socket.socket) -> None:
        buf = conn.out[sock]
        if buf:
            try:
                del buf[:sock.send(buf)]
            except (BlockingIOError, InterruptedError):
                pass
        # The other side has ended and all it sent is delivered: pass its FIN on (not when withheld).
        peer = conn.peer(sock)
        if not buf and conn.eof[peer] and not conn.held[peer] and not conn.shut[sock]:
            conn.shut[sock] = True
            sock.shutdown(socket.SHUT_WR)

    def _drop_all(self) -> int:
        conns = list(self._conns.values())
        for conn in conns:
            self._close(conn, reset=True, dropped=True)
        return len(conns)

    def _close(self, conn: _Conn, reset: bool, dropped: bool = False) -> None:
        if self._conns.pop(conn.id, None) is None:
            return
        self._stats["drops"] += dropped
        for s in (conn.client, conn.server):
            self._by_sock.pop(s, None)
            if s in self._sel.get_map():
                self._sel.unregister(s)
            if reset:
                _reset(s)
            else:
                s.close()

    def _teardown(self) -> None:
        if self._closed:
            return
        self._closed = True
        for conn in list(self._conns.values()):
            self._close(conn, reset=True)
        self._sel.close()
        for s in (self._listener, self._wake_r, self._wake_w):
            s.close()


def _drain(sock: socket.socket, timeout: float = 1.0) -> None:
    """Wait until the peer has acknowledged everything sent (a reset discards unacknowledged bytes)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0\0\0\0"))[0] == 0:
            return
        time.sleep(0.005)


def _reset(sock: socket.socket) -> None:
    """Close with SO_LINGER 0: the kernel sends RST instead of FIN and drops unsent data."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    sock.close()


def kubeconfig_via(proxy: TcpProxy, kubeconfig_path, out_path) -> Path:
    """Copy a kubeconfig, pointing every cluster whose server is the proxy's target at the proxy.

    The server certificate must be valid for the proxy's address (the lab's apiserver certificate
    has 127.0.0.1 as IP SAN). Written 0600 (it holds credentials); returns out_path."""
    cfg = yaml.safe_load(Path(kubeconfig_path).read_text())
    target_host, target_port = proxy.target
    changed = 0
    for entry in cfg.get("clusters") or []:
        url = urlsplit(entry["cluster"]["server"])
        if url.hostname in (target_host, "localhost" if target_host == "127.0.0.1" else target_host) \
                and (url.port or 443) == target_port:
            entry["cluster"]["server"] = urlunsplit(url._replace(netloc=f"{proxy.host}:{proxy.port}"))
            changed += 1
    if not changed:
        raise ValueError(f"no cluster in {kubeconfig_path} has the server {target_host}:{target_port}")
    out = Path(out_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        yaml.safe_dump(cfg, f, sort_keys=False)
    return out
