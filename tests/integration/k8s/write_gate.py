# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Validating admission webhooks of the tests (HTTPS on 127.0.0.1), to stop a module at an exact API request.

``Webhook`` serves the AdmissionReviews and registers itself; ``decide(request)`` answers each one, and may keep the
apiserver (and so the caller) waiting. ``WriteGate`` counts a user's writes in one namespace and holds the one after
the k-th, so that the module can be killed with exactly k of its writes applied:

    with WriteGate(kube, namespace, folder, hold_after=k) as gate:
        task = ansible_task(module, args, background=True)
        if gate.held.wait(60):
            os.kill(module_process(task.process.pid, module), signal.SIGKILL)
            task.wait()
            gate.release()          # the held write(s) are denied: never applied

failurePolicy is Fail everywhere: a webhook that does not answer in time denies, it never lets a write through.
"""

from __future__ import annotations

import base64
import json
import re
import ssl
import subprocess
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from ansible_collections.nfv.vnflcm.tests.integration.faults import wait_for

WEBHOOKS = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations"
# The lab's admin: the user of the kubeconfig the tests give the modules (labk8s.cluster.ADMIN_USER).
ADMIN_USER = "nfv-lab-admin"
# The apiserver waits at most 30 s for an answer; a hold is answered before that.
TIMEOUT = 30
HOLD_LIMIT = 25


class QuietServer(ThreadingHTTPServer):
    """No traceback for an answer the apiserver no longer waits for (its caller was killed, so it gave up the request)."""

    def handle_error(self, request, client_address):
        pass


class Webhook:
    """A ValidatingWebhookConfiguration served by this process; subclasses answer in ``decide``."""

    def __init__(self, kube, namespace, folder, name):
        self.kube, self.namespace, self.name = kube, namespace, name
        self.seen = []
        key, cert = folder / (name + ".key"), folder / (name + ".crt")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                        "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(str(cert), str(key))
        self.server = QuietServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.ca_bundle = base64.b64encode(cert.read_bytes()).decode()

    def decide(self, request):
        """``(allowed, message)`` for one AdmissionReview request; may block (less than TIMEOUT)."""
        raise NotImplementedError

    def _handler(self):
        hook = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - the name http.server calls
                review = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                request = review["request"]
                hook.seen.append((request.get("name"), bool(request.get("dryRun"))))
                allowed, message = hook.decide(request)
                response = {"uid": request["uid"], "allowed": allowed}
                if not allowed:
                    response["status"] = {"code": 403, "message": message}
                body = json.dumps({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": response}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        return Handler

    def register(self, rules, object_selector=None, probe=None):
        """Register for ``rules`` in the namespace; return once the apiserver asks about ``probe()`` (a dry-run request
        the hook sees, whose name it returns): from then on it is in force."""
        hook = {"name": "gate.vnflcm-test.nfv", "admissionReviewVersions": ["v1"], "sideEffects": "None",
                "failurePolicy": "Fail", "timeoutSeconds": TIMEOUT,
                "clientConfig": {"url": "https://127.0.0.1:{0}/".format(self.server.server_address[1]), "caBundle": self.ca_bundle},
                "rules": rules, "namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": self.namespace}}}
        if object_selector:
            hook["objectSelector"] = object_selector
        self.kube.call("POST", WEBHOOKS, {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingWebhookConfiguration",
                                          "metadata": {"name": self.name}, "webhooks": [hook]})
        try:
            wait_for(lambda: (probe(), True) in self.seen, "the webhook to be asked", timeout=30, sleep=0.2)
        except BaseException:
            self.close()
            raise

    def close(self):
        self.kube.request("DELETE", WEBHOOKS + "/" + self.name)
        self.server.shutdown()
        self.server.server_close()


class WriteGate(Webhook):
    """Counts the writes (CREATE, UPDATE, DELETE; subresources too) of ``user`` in ``namespace``; dry runs and other
    users' writes (controllers, kwok, the scheduler) pass uncounted.

    ``hold_after=k``: writes 1..k pass; the (k+1)-th and any later one are held until ``release()``, then denied, so
    exactly k were applied. ``hold_after=None`` only counts. ``writes`` lists them in order as
    ``(operation, resource[/subresource], name)``; ``held`` is set when the first is held.
    """

    # After release, a write of the user still arriving this long is denied too: one the killed process had sent
    # on another connection before it died. Later ones are another process's (the recovery's) and pass.
    STRAGGLERS = 1.0

    def __init__(self, kube, namespace, folder, hold_after=None, user=ADMIN_USER):
        super().__init__(kube, namespace, folder, "gate-{0}-{1}".format(namespace, uuid.uuid4().hex[:6])[:63])
        self.hold_after, self.user = hold_after, user
        self.writes = []
        self.denied = []
        self.lock = threading.Lock()
        self.held, self.released = threading.Event(), threading.Event()
        self.released_at = None

    def decide(self, request):
        if request.get("dryRun") or request["userInfo"]["username"] != self.user:
            return True, ""
        resource = request["resource"]["resource"] + ("/" + request["subResource"] if request.get("subResource") else "")
        with self.lock:
            if self.released_at is not None and time.monotonic() > self.released_at + self.STRAGGLERS:
                return True, ""
            self.writes.append((request["operation"], resource, request.get("name") or (request.get("object") or {}).get("metadata", {}).get("name")))
            if self.hold_after is None or len(self.writes) <= self.hold_after:
                return True, ""
            self.denied.append(self.writes[-1])
        self.held.set()
        self.released.wait(HOLD_LIMIT)
        return False, "held by the test's write gate, then denied"

    def release(self):
        """Deny what is held (the module is gone)."""
        with self.lock:
            self.released_at = time.monotonic()
        self.released.set()

    def __enter__(self):
        def probe():
            name = "gate-probe-" + uuid.uuid4().hex[:6]
            self.kube.request("POST", "/api/v1/namespaces/{0}/configmaps?dryRun=All".format(self.namespace),
                              {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}})
            return name

        names = []
        self.register([{"operations": ["CREATE", "UPDATE", "DELETE"], "apiGroups": ["*"], "apiVersions": ["*"], "resources": ["*/*"],
                        "scope": "Namespaced"}], probe=lambda: names.append(probe()) or names[-1])
        return self

    def __exit__(self, *exc):
        self.release()
        if self.released_at is not None:
            time.sleep(max(0.0, self.released_at + self.STRAGGLERS - time.monotonic()))
        self.close()


RECORD_NAME = re.compile(r"^vnflcm-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def first_write_of(writes, pattern):
    """The 1-based index of the first write to a Secret whose name matches ``pattern``, or None."""
    for index, (_operation, resource, name) in enumerate(writes, 1):
        if resource == "secrets" and name and re.match(pattern, name):
            return index
    return None


def record_write(writes):
    return first_write_of(writes, RECORD_NAME)


def rollback_write(writes):
    return first_write_of(writes, RECORD_NAME.pattern[:-1] + "-rollback$")
