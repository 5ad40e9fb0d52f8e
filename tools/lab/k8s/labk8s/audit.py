"""Count the API write calls a test made, from the apiserver's audit log (JSON lines).

The apiserver runs with --audit-log-mode=blocking, so an event is in the file before its response
is sent. On top of that, mark() and writes() bracket the test with marker requests of our own and
wait until the marker's event (found by its Audit-Id response header) is in the file: the window is
exact even if the backend ever became asynchronous.

    audit = AuditLog.for_lab(lab)
    start = audit.mark()
    ...                                   # the code under test
    assert audit.writes(start, user=tenant.username) == []
"""
import json
import time
from pathlib import Path

from .kubeapi import Api

WRITE_VERBS = frozenset({"create", "update", "patch", "delete", "deletecollection"})
MARKER_PATH = "/api/v1/namespaces/default/configmaps/nfv-lab-audit-marker"  # see cluster.AUDIT_POLICY


class AuditLog:
    def __init__(self, path: Path, api: Api, timeout: float = 10):
        self.path = Path(path)
        self.api = api
        self.timeout = timeout
        self._scanned = 0  # markers only move forward: search from the last one

    @classmethod
    def for_lab(cls, lab) -> "AuditLog":
        return cls(lab.audit_log, lab.api())

    def mark(self) -> int:
        """Make a marker request; return the log offset just after its event."""
        status, _, headers = self.api.request("GET", MARKER_PATH)
        audit_id = next((v for k, v in headers.items() if k.lower() == "audit-id"), None)
        if status != 404 or not audit_id:
            raise RuntimeError(f"audit marker request failed: HTTP {status}, Audit-Id {audit_id!r}")
        needle = f'"auditID":"{audit_id}"'.encode()
        deadline = time.monotonic() + self.timeout
        while True:
            with open(self.path, "rb") as f:
                f.seek(self._scanned)
                data = f.read()
            at = data.find(needle)
            end = data.find(b"\n", at) if at >= 0 else -1
            if end >= 0:  # the whole line is written
                self._scanned += end + 1
                return self._scanned
            if time.monotonic() > deadline:
                raise TimeoutError(f"audit marker {audit_id} not in {self.path} after {self.timeout}s")
            time.sleep(0.05)

    def events(self, start: int, end: int | None = None) -> list[dict]:
        """All events between two offsets (end: a fresh marker, i.e. everything up to now)."""
        if end is None:
            end = self.mark()
        with open(self.path, "rb") as f:
            f.seek(start)
            data = f.read(end - start)
        return [json.loads(line) for line in data.splitlines() if line.strip()]

    def writes(self, start: int, *, user: str | None = None, namespace: str | None = None,
               succeeded_only: bool = False, end: int | None = None, dry_runs: bool = False) -> list[dict]:
        """Write calls (create/update/patch/delete/deletecollection) since start, optionally filtered.

        Every attempted write counts (also denied or failed ones) unless succeeded_only is set. A
        server-side dry run (``?dryRun=All``) stores nothing, so it is no write unless dry_runs is set.
        """
        out = []
        for ev in self.events(start, end):
            if ev.get("verb") not in WRITE_VERBS or ev.get("stage") != "ResponseComplete":
                continue
            if not dry_runs and is_dry_run(ev):
                continue
            if user is not None and ev.get("user", {}).get("username") != user:
                continue
            if namespace is not None and ev.get("objectRef", {}).get("namespace") != namespace:
                continue
            code = ev.get("responseStatus", {}).get("code", 0)
            if succeeded_only and not 200 <= code < 300:
                continue
            out.append(ev)
        return out


def is_dry_run(event: dict) -> bool:
    query = event.get("requestURI", "").partition("?")[2]
    return any(part.lower() == "dryrun=all" for part in query.split("&"))


def summarize(events: list[dict]) -> list[tuple]:
    """(verb, resource[/subresource], namespace, name, code) per event, for readable assertions."""
    out = []
    for ev in events:
        ref = ev.get("objectRef", {})
        res = ref.get("resource", "") + ("/" + ref["subresource"] if ref.get("subresource") else "")
        out.append((ev.get("verb"), res, ref.get("namespace"), ref.get("name"),
                    ev.get("responseStatus", {}).get("code")))
    return out
