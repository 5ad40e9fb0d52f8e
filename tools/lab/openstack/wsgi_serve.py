"""Serve an OpenStack WSGI app on host:port with a threaded wsgiref server.

Usage: python wsgi_serve.py HOST PORT MODULE:ATTR [APP ARGS...]
The service's config is passed through its own environment variables
(OS_KEYSTONE_CONFIG_FILES, OS_NOVA_CONFIG_DIR, ...) or, for apps that parse
sys.argv (cinder), as APP ARGS.
"""
import ast
import importlib
import socketserver
import sys
import threading
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server


class ThreadingWSGIServer(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    def address_string(self):
        return self.client_address[0]


def serialize_ast_parse():
    """Let one thread at a time build AST objects.

    CPython 3.11 keeps the AST builder's recursion depth per interpreter, not per
    thread: two threads parsing at once (Heat's engine threads literal_eval every
    sync point) can fail with "SystemError: AST constructor recursion depth
    mismatch", which ends that resource's check and leaves its stack IN_PROGRESS
    until the stack's timeout.
    """
    parse, lock = ast.parse, threading.RLock()  # re-entrant: a finalizer run mid-parse may parse too

    def locked_parse(*args, **kwargs):
        with lock:
            return parse(*args, **kwargs)

    ast.parse = locked_parse


def keystone_token_per_request():
    """Keep the token Keystone's AuthContextMiddleware validated per thread.

    The middleware stores it on itself (``self.token``), one object every thread
    shares: under a threaded server a request can be authorized with another
    request's token (seen: the admin's project-scoped ``create_endpoint`` refused
    as made "with domain scope", holding Heat's domain token). wsgiref starts a
    thread per request, so per thread is per request.
    """
    from keystone.server.flask.request_processing.middleware import auth_context

    tokens = threading.local()
    auth_context.AuthContextMiddleware.token = property(
        lambda self: getattr(tokens, 'token', None),
        lambda self, token: setattr(tokens, 'token', token))


def main():
    serialize_ast_parse()
    host, port, target = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if target.startswith('keystone.'):
        keystone_token_per_request()
    # oslo.config parses sys.argv when the app module is imported: hide ours.
    sys.argv = [sys.argv[0]] + sys.argv[4:]
    module, attr = target.split(':')
    app = getattr(importlib.import_module(module), attr)
    httpd = make_server(host, port, app, ThreadingWSGIServer, QuietHandler)
    print(f'serving {target} on http://{host}:{port}', flush=True)
    httpd.serve_forever()


if __name__ == '__main__':
    main()
