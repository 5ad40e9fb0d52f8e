"""Serve an OpenStack WSGI app on host:port with a threaded wsgiref server.

Usage: python wsgi_serve.py HOST PORT MODULE:ATTR [APP ARGS...]
The service's config is passed through its own environment variables
(OS_KEYSTONE_CONFIG_FILES, OS_NOVA_CONFIG_DIR, ...) or, for apps that parse
sys.argv (cinder), as APP ARGS.
"""
import importlib
import socketserver
import sys
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server


class ThreadingWSGIServer(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    def address_string(self):
        return self.client_address[0]


def main():
    host, port, target = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    # oslo.config parses sys.argv when the app module is imported: hide ours.
    sys.argv = [sys.argv[0]] + sys.argv[4:]
    module, attr = target.split(':')
    app = getattr(importlib.import_module(module), attr)
    httpd = make_server(host, port, app, ThreadingWSGIServer, QuietHandler)
    print(f'serving {target} on http://{host}:{port}', flush=True)
    httpd.serve_forever()


if __name__ == '__main__':
    main()
