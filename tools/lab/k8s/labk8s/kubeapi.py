"""Kubeconfig writing and a minimal API client (stdlib + PyYAML): the lab itself needs no kubernetes package."""
import base64
import http.client
import json
import os
import ssl
import tempfile
from pathlib import Path

import yaml


def kubeconfig(server: str, ca_pem: bytes, user: str, *, cert_pem: bytes | None = None,
               key_pem: bytes | None = None, token: str | None = None, namespace: str | None = None) -> dict:
    """A self-contained kubeconfig (credentials embedded, so it can be copied anywhere)."""
    creds = {"token": token} if token else {
        "client-certificate-data": base64.b64encode(cert_pem).decode(),
        "client-key-data": base64.b64encode(key_pem).decode(),
    }
    ctx = {"cluster": "nfv-lab", "user": user}
    if namespace:
        ctx["namespace"] = namespace
    return {
        "apiVersion": "v1", "kind": "Config", "preferences": {},
        "clusters": [{"name": "nfv-lab", "cluster": {
            "server": server, "certificate-authority-data": base64.b64encode(ca_pem).decode()}}],
        "users": [{"name": user, "user": creds}],
        "contexts": [{"name": user, "context": ctx}],
        "current-context": user,
    }


def write_kubeconfig(path: Path, cfg: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        yaml.safe_dump(cfg, f, sort_keys=False)


class ApiError(Exception):
    def __init__(self, status: int, body: str):
        super().__init__(f"HTTP {status}: {body[:500]}")
        self.status = status
        self.body = body


class Api:
    """Talks to the apiserver with the credentials of a kubeconfig file written by write_kubeconfig."""

    def __init__(self, kubeconfig_path: Path, timeout: float = 10):
        cfg = yaml.safe_load(Path(kubeconfig_path).read_text())
        cluster = cfg["clusters"][0]["cluster"]
        user = cfg["users"][0]["user"]
        self.server = cluster["server"]
        host, port = self.server.removeprefix("https://").rsplit(":", 1)
        self.host, self.port, self.timeout = host, int(port), timeout
        self.ca_pem = base64.b64decode(cluster["certificate-authority-data"])
        self.ctx = ssl.create_default_context(cadata=self.ca_pem.decode())
        self.headers = {"Accept": "application/json"}
        if "token" in user:
            self.headers["Authorization"] = "Bearer " + user["token"]
        else:
            # ssl wants files for the client certificate; keep them only while loading.
            with tempfile.TemporaryDirectory() as tmp:
                crt, key = Path(tmp, "c"), Path(tmp, "k")
                crt.write_bytes(base64.b64decode(user["client-certificate-data"]))
                key.write_bytes(base64.b64decode(user["client-key-data"]))
                self.ctx.load_cert_chain(crt, key)

    def request(self, method: str, path: str, body=None, headers=None):
        """Return (status, parsed body or text, response headers); never raises on HTTP errors."""
        conn = http.client.HTTPSConnection(self.host, self.port, context=self.ctx, timeout=self.timeout)
        try:
            hdrs = dict(self.headers, **(headers or {}))
            data = None
            if body is not None:
                data = json.dumps(body).encode()
                hdrs.setdefault("Content-Type", "application/json")
            conn.request(method, path, body=data, headers=hdrs)
            resp = conn.getresponse()
            raw = resp.read().decode()
            try:
                parsed = json.loads(raw)
            except ValueError:
                parsed = raw
            return resp.status, parsed, dict(resp.getheaders())
        finally:
            conn.close()

    def call(self, method: str, path: str, body=None, ok=(200, 201, 202)):
        status, parsed, _ = self.request(method, path, body)
        if status not in ok:
            raise ApiError(status, parsed if isinstance(parsed, str) else json.dumps(parsed))
        return parsed
