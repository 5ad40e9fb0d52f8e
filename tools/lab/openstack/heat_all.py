"""Heat engine and Heat API in one process.

Usage: python heat_all.py HOST PORT --config-file heat.conf

Heat 2025.x+ ships no heat-all, and its engine launcher always forks a worker.
With transport_url = fake:// the API and the engine must share one process,
so the engine service is started here directly, without a launcher.
"""
import signal
import sys
import threading
import time

from oslo_service import backend

backend.init_backend(backend.BackendType.THREADING)

from oslo_config import cfg  # noqa: E402
from oslo_log import log as logging  # noqa: E402

from heat import version  # noqa: E402
from heat.common import config  # noqa: E402
from heat.common import messaging  # noqa: E402
from heat.rpc import api as rpc_api  # noqa: E402

from wsgi_serve import QuietHandler, ThreadingWSGIServer, make_server, serialize_ast_parse  # noqa: E402

CONF = cfg.CONF


def serialize_sqlite_writes():
    """Make every SQLite transaction BEGIN IMMEDIATE and wait for the lock.

    Heat's engine threads open deferred transactions that later write; in WAL mode
    such an upgrade fails at once with "database is locked" when another thread
    committed in between (no busy wait applies), failing resources at random.
    """
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    @event.listens_for(Engine, 'connect')
    def on_connect(dbapi_conn, _record):
        if dbapi_conn.__class__.__module__.startswith('sqlite3'):
            dbapi_conn.execute('PRAGMA busy_timeout = 60000')

    # Runs before oslo.db's own listener, which then sees the flag and skips its BEGIN.
    @event.listens_for(Engine, 'begin', insert=True)
    def on_begin(conn):
        if conn.dialect.name == 'sqlite' and 'in_transaction' not in conn.info:
            conn.exec_driver_sql('BEGIN IMMEDIATE')
            conn.info['in_transaction'] = True


def serialize_keystone_calls():
    """Let one engine thread at a time call Keystone through Heat's client (trusts, stack domain users, tokens).

    Two stack creates at one moment (a trust for one, the stack domain user of a wait condition for the other) now
    and then sent the trust request with the stack domain admin's domain-scoped token, which Keystone refuses (HTTP
    403, identity:create_trust): the client is not safe in threads, and the engine runs in threads here.
    """
    import functools
    import inspect

    from heat.engine.clients.os.keystone import heat_keystoneclient

    lock = threading.RLock()  # re-entrant: the wrapper's methods call one another
    wrapper = heat_keystoneclient.KsClientWrapper

    def locked(method):
        @functools.wraps(method)
        def call(*args, **kwargs):
            with lock:
                return method(*args, **kwargs)
        return call

    for name, member in list(vars(wrapper).items()):
        if name.startswith('__'):
            continue
        if isinstance(member, property):
            setattr(wrapper, name, property(locked(member.fget)))
        elif inspect.isfunction(member):
            setattr(wrapper, name, locked(member))


def wake_rpc_listeners():
    """Hand an RPC message to the engine as soon as it is sent.

    oslo.messaging's fake driver (transport_url = fake://) has its listeners look for a message every 50 ms: every API
    call to the engine and every step of the convergence engine (one RPC cast a resource check) waited up to 50 ms
    for it, about 40 ms an API request. Here a delivery wakes the listeners at once; a listener still looks again at
    least every half second (its stop is not signalled).
    """
    from oslo_messaging._drivers import base, impl_fake

    arrived = threading.Condition()
    deliver = impl_fake.FakeExchange.deliver_message

    def deliver_message(self, *args, **kwargs):
        with arrived:
            deliver(self, *args, **kwargs)
            arrived.notify_all()

    @base.batch_poll_helper
    def poll(self, timeout=None):
        deadline = None if timeout is None else time.monotonic() + timeout
        with arrived:
            while not self._stopped.is_set():
                for target in self._targets:
                    exchange = self._exchange_manager.get_exchange(target.exchange)
                    ctxt, message, reply_q, requeue = exchange.poll(target, self._pool)
                    if message is not None:
                        return impl_fake.FakeIncomingMessage(ctxt, message, reply_q, requeue)
                remaining = 0.5 if deadline is None else deadline - time.monotonic()
                if remaining <= 0:
                    return None
                arrived.wait(min(remaining, 0.5))
        return None

    impl_fake.FakeExchange.deliver_message = deliver_message
    impl_fake.FakeListener.poll = poll


# How often the engine checks a resource it is creating, updating or deleting (Heat's task runner: every second). Each
# check of a server is a Nova GET that costs Nova and Neutron about 130 ms of CPU (Nova asks Neutron for the server's
# ports and security groups); on the lab's 2 cores, busy with the tests, a server takes 10-45 s to build, resize or
# rebuild, and Heat's server GETs were about 3,000 of Nova's 7,500 requests in a run of the suite. A resource's checks
# start FIRST_STEP_SECONDS apart and double up to MOST_STEP_SECONDS apart: a change done in a second is seen after one,
# a 26 s build is checked 8 times rather than 13 at 2 s. A nested stack's checks are reads of Heat's own database, and
# their delay would add up level by level (a scaling group, its members, their servers): every STEP_SECONDS as before.
STEP_SECONDS = 2
FIRST_STEP_SECONDS = 1
MOST_STEP_SECONDS = 4


def check_resources_less_often():
    from heat.engine import scheduler

    # __call__(self, wait_time=1, timeout=None, ...): only the first default changes.
    defaults = scheduler.TaskRunner.__call__.__defaults__
    scheduler.TaskRunner.__call__.__defaults__ = (STEP_SECONDS,) + defaults[1:]
    sleep = scheduler.TaskRunner._sleep

    def checks_a_service(runner):
        from heat.engine import resource
        from heat.engine.resources import stack_resource

        owner = getattr(runner._task, '__self__', None)
        return isinstance(owner, resource.Resource) and not isinstance(owner, stack_resource.StackResource)

    def _sleep(self, wait_time):
        # wait_time is 0 before the first check and STEP_SECONDS between checks, unless the caller chose its own.
        if wait_time == STEP_SECONDS and checks_a_service(self):
            wait_time = self._lab_step = min(getattr(self, '_lab_step', FIRST_STEP_SECONDS / 2) * 2, MOST_STEP_SECONDS)
        sleep(self, wait_time)

    scheduler.TaskRunner._sleep = _sleep


# How long the engine keeps a flavor once Nova found it. Heat looks each flavor up again (by id, else a 404 and a list of
# every flavor to find it by name) at every validation, preview, create and update of a server, for its id and to check
# the image fits it: flavor requests were about 5,000 of Nova's 11,000 in a run of the suite, two thirds of them Heat's.
# Its own cache (resource_finder_cache) would also keep networks, subnets and failed lookups, which the tests create and
# delete as they go; the lab's flavors are only ever added.
FLAVOR_SECONDS = 300


def remember_flavors():
    from heat.engine.clients.os import nova

    get = nova.NovaClientPlugin.get_flavor  # what find_flavor_by_name_or_id and the server's validation call
    found = {}  # (project, name or id) -> (flavor, until); a lookup that fails is not kept

    def get_flavor(self, flavor_identifier):
        key = (self.context.project_id, flavor_identifier)
        flavor, until = found.get(key, (None, 0))
        if time.monotonic() >= until:
            flavor = get(self, flavor_identifier)
            found[key] = (flavor, time.monotonic() + FLAVOR_SECONDS)
        return flavor

    nova.NovaClientPlugin.get_flavor = get_flavor


def discover_cinder_extensions_once():
    """cinderclient scans every entry of sys.path for extension modules each time Heat makes a Cinder client (once a
    request context): the same answer every time, a few percent of the engine's CPU."""
    import functools

    from cinderclient import client

    client.discover_extensions = functools.lru_cache(maxsize=None)(client.discover_extensions)


def main():
    host, port, rest = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    serialize_ast_parse()
    serialize_sqlite_writes()
    logging.register_options(CONF)
    CONF(rest, project='heat', prog='heat-api',
         version=version.version_info.version_string())
    logging.setup(CONF, 'heat-all')
    config.set_config_defaults()
    wake_rpc_listeners()
    check_resources_less_often()
    remember_flavors()
    discover_cinder_extensions_once()
    messaging.setup()
    from heat.engine import service as engine  # registers the engine's options
    serialize_keystone_calls()
    config.startup_sanity_check()

    srv = engine.EngineService(CONF.host, rpc_api.ENGINE_TOPIC)
    srv.start()

    app = config.load_paste_app('heat-api')
    httpd = make_server(host, port, app, ThreadingWSGIServer, QuietHandler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    print(f'heat-all serving on http://{host}:{port}', flush=True)

    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    stop.wait()
    httpd.shutdown()
    srv.stop()


if __name__ == '__main__':
    main()
