#!/usr/bin/env python3
"""Local OpenStack lab: Keystone + Heat (tier 1), plus Nova, Neutron, Glance,
Placement and Cinder with fake back ends (tier 2), all on 127.0.0.1.

    lab.py install|up|down|status|env [--tier 1|2]

Runs with any Python 3.9+ (stdlib only); the services run from the lab venv.
See README.md beside this file.
"""
import argparse
import fcntl
import hashlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = Path(os.environ.get('XDG_CACHE_HOME') or Path.home() / '.cache') / 'nfv-vnflcm' / 'openstack-lab'
PIN_FILES = ['upper-constraints.txt', 'requirements-tier1.txt', 'requirements-tier2.txt',
             'fakes/pyproject.toml', 'fakes/nfvlab_fakemech.py', 'fakes/nfvlab_fakecinder.py']
# libmariadb-dev and pkg-config build mysqlclient: the services' database driver in C (PyMySQL parses
# every result in Python).
APT_PACKAGES = ['rabbitmq-server', 'mariadb-server', 'libmariadb-dev', 'pkg-config']
RABBIT_SERVER = '/usr/lib/rabbitmq/bin/rabbitmq-server'
PASSWORD = 'secret'
REGION = 'RegionOne'
CLOUD = 'nfvlab'
HOST = '127.0.0.1'
NODE = 'nfvlab'
START_TIMEOUT = float(os.environ.get('NFV_LAB_START_TIMEOUT', '240'))


def log(msg):
    print(f'[openstack-lab] {msg}', file=sys.stderr, flush=True)


class LabError(Exception):
    pass


# --------------------------------------------------------------------------- paths

def venv_key():
    h = hashlib.sha256(f'{sys.version_info[0]}.{sys.version_info[1]}'.encode())
    for name in PIN_FILES:
        h.update((HERE / name).read_bytes())
    return h.hexdigest()[:12]


def venv_dir():
    return Path(os.environ.get('NFV_LAB_VENV') or CACHE / venv_key())


def state_dir():
    return Path(os.environ.get('NFV_OPENSTACK_LAB_DIR') or CACHE / 'state')


def installed(tier):
    return (venv_dir() / f'.tier{tier}').exists() and (tier == 1 or apt_ready())


def apt_ready():
    return (Path(RABBIT_SERVER).exists() and shutil.which('mariadbd') is not None
            and shutil.which('mariadb_config') is not None and shutil.which('pkg-config') is not None)


# --------------------------------------------------------------------------- install

def run(cmd, **kw):
    kw.setdefault('check', True)
    return subprocess.run([str(c) for c in cmd], **kw)


def install(tier):
    venv = venv_dir()
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / 'install.lock', 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if tier == 2 and not apt_ready():
            apt_install()
        if installed(tier):
            log(f'tier {tier} already installed in {venv}')
            return
        t0 = time.monotonic()
        if not (venv / 'bin' / 'python').exists():
            run([sys.executable, '-m', 'venv', venv])
        reqs = ['-r', HERE / 'requirements-tier1.txt']
        tmp = Path(tempfile.mkdtemp(prefix='nfvlab-'))
        if tier == 2:
            # Built from a copy: an in-tree build would leave build/ and egg-info in the repo.
            shutil.copytree(HERE / 'fakes', tmp / 'fakes')
            reqs += ['-r', HERE / 'requirements-tier2.txt', tmp / 'fakes']
        log(f'pip install into {venv} (tier {tier})')
        try:
            run([venv / 'bin' / 'python', '-m', 'pip', 'install', '-q', '--disable-pip-version-check',
                 '-c', HERE / 'upper-constraints.txt', *reqs])
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        for t in range(1, tier + 1):
            (venv / f'.tier{t}').touch()
        log(f'installed tier {tier} in {time.monotonic() - t0:.0f} s')


def apt_install():
    sudo = [] if os.geteuid() == 0 else ['sudo', '-n']
    install_cmd = [*sudo, 'apt-get', 'install', '-y', '-q', '--no-install-recommends', *APT_PACKAGES]
    env = dict(os.environ, DEBIAN_FRONTEND='noninteractive')
    log('apt-get install ' + ' '.join(APT_PACKAGES))
    if run(install_cmd, env=env, check=False, stdout=subprocess.DEVNULL).returncode != 0:
        run([*sudo, 'apt-get', 'update', '-q'], env=env, stdout=subprocess.DEVNULL)
        run(install_cmd, env=env, stdout=subprocess.DEVNULL)


# --------------------------------------------------------------------------- processes

def proc_stat(pid):
    """(pgrp, state, starttime) of a live process, or None."""
    try:
        data = Path(f'/proc/{pid}/stat').read_text()
    except OSError:
        return None
    fields = data[data.rindex(')') + 2:].split()
    return int(fields[2]), fields[0], fields[19]


def rss_mb(pids):
    total = 0
    for pid in pids:
        try:
            for line in Path(f'/proc/{pid}/status').read_text().splitlines():
                if line.startswith('VmRSS:'):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total // 1024


def group_members(pgid):
    """Live (non-zombie) processes of a process group."""
    pids = []
    for entry in os.listdir('/proc'):
        if entry.isdigit():
            st = proc_stat(int(entry))
            if st and st[0] == pgid and st[1] not in 'ZX':
                pids.append(int(entry))
    return pids


class Procs:
    """Processes started by the lab, each the leader of its own process group."""

    def __init__(self, state):
        self.file = state / 'pids.json'
        self.data = json.loads(self.file.read_text()) if self.file.exists() else {}

    def save(self):
        if self.file.parent.exists():
            self.file.write_text(json.dumps(self.data, indent=1))

    def ours(self, name):
        """Live pids of the recorded group `name` (checks the leader's start time)."""
        pid, start = self.data[name]
        members = group_members(pid)
        st = proc_stat(pid)
        if st and st[2] != start and pid in members:
            return []  # pid reused by an unrelated process
        return members

    def alive(self, name):
        return name in self.data and bool(self.ours(name))

    def start(self, name, cmd, logs, env=None, cwd=None):
        out = open(logs / f'{name}.log', 'ab')
        p = subprocess.Popen([str(c) for c in cmd], stdout=out, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, env=env, cwd=cwd, start_new_session=True)
        out.close()
        self.data[name] = [p.pid, proc_stat(p.pid)[2]]
        self.save()
        return p

    def stop_all(self, timeout=10):
        names = [n for n in reversed(list(self.data)) if self.ours(n)]
        # Services first, then RabbitMQ/epmd/MariaDB, so that nothing hangs on a gone broker.
        infra = [n for n in names if n in ('rabbitmq', 'epmd', 'mariadb')]
        for batch in ([n for n in names if n not in infra], infra):
            for n in batch:
                signal_group(self.data[n][0], signal.SIGTERM)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and any(self.ours(n) for n in batch):
                time.sleep(0.2)
            for n in batch:
                if self.ours(n):
                    log(f'{n} ignored SIGTERM for {timeout} s: SIGKILL')
                    signal_group(self.data[n][0], signal.SIGKILL)
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and any(self.ours(n) for n in batch):
                time.sleep(0.1)
        left = {n: self.ours(n) for n in self.data if self.ours(n)}
        if left:
            raise LabError(f'processes still running: {left}')
        self.data = {}
        self.save()


def signal_group(pgid, sig):
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        pass


# --------------------------------------------------------------------------- helpers

def ephemeral_ports():
    """The kernel's range for bind(0) and outgoing connections (Linux; the usual default elsewhere)."""
    try:
        low, high = Path('/proc/sys/net/ipv4/ip_local_port_range').read_text().split()
        return range(int(low), int(high) + 1)
    except (OSError, ValueError):
        return range(32768, 61000)


def free_port():
    """A free port below the ephemeral range: a port picked by bind(0) is free only until somebody else's
    bind(0) or outgoing connection takes it (the Kubernetes lab starts side by side with this one)."""
    low = ephemeral_ports().start
    while True:
        port = random.randrange(max(1024, low - 12000), low)
        if port_free(port):
            return port


def port_free(port):
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((HOST, port))
            return True
        except OSError:
            return False


def port_open(port):
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex((HOST, port)) == 0


def http_ready(url):
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status < 500
    except urllib.error.HTTPError as e:
        return e.code < 500
    except (OSError, ValueError):
        return False


def wait_for(what, check, procs, names, timeout=START_TIMEOUT):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        dead = [n for n in names if not procs.alive(n)]
        if dead:
            raise LabError(f'{", ".join(dead)} exited while waiting for {what}')
        time.sleep(0.3)
    raise LabError(f'timed out after {timeout:.0f} s waiting for {what}')


def copy_into(src, dst_dir):
    dst_dir.mkdir(parents=True, exist_ok=True)
    shutil.copy(src, dst_dir)


def write_ini(path, sections):
    lines = []
    for section, opts in sections.items():
        lines.append(f'[{section}]')
        lines += [f'{k} = {v}' for k, v in opts.items()]
        lines.append('')
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('\n'.join(lines))


def rotate_logs(folder):
    """Each start writes fresh logs; the last start's are kept as ``<name>.log.1``. The state folder outlives the runs,
    and tests read Heat's request log whole: grown over many runs (hundreds of MB) it slowed every later run."""
    for path in folder.glob('*.log'):
        path.replace(path.with_name(path.name + '.1'))


def show_logs(state, names, lines=30):
    for f in [state / 'log' / f'{n}{suffix}.log' for n in names for suffix in ('', '-app')]:
        if f.exists():
            tail = f.read_text(errors='replace').splitlines()[-lines:]
            print(f'----- {f} (last {len(tail)} lines)', file=sys.stderr)
            print('\n'.join(tail), file=sys.stderr)


# --------------------------------------------------------------------------- the lab

SERVICES = {1: ['keystone', 'heat'],
            2: ['placement', 'glance', 'neutron', 'nova', 'cinder']}
# Every project's quotas, well above the services' defaults (Nova: 10 instances, 20 cores; Cinder: 10
# volumes; Neutron: 10 routers): the tier-2 tests run side by side in the same projects, and a quota
# error would only hide what a test checks. Nova's fake driver uses no real memory or disk.
QUOTAS = {
    # Server groups too: each VNF of Tacker's userdata packages makes one (its nfvi_node_affinity), and the default 10
    # is less than the OpenStack tests' workers side by side hold at once.
    'nova': {'instances': 60, 'cores': 120, 'ram': 245760, 'server_groups': 60, 'server_group_members': 60},
    # Else Cinder's default quota class, in its database, wins over these.
    'cinder': {'quota_volumes': 60, 'quota_snapshots': 60, 'quota_gigabytes': 3000,
               'use_default_quota_class': 'false'},
    'neutron': {'quota_network': 200, 'quota_subnet': 200, 'quota_port': 1000, 'quota_router': 50,
                'quota_security_group': 100, 'quota_security_group_rule': 1000},
}
PORT_NAMES = {1: ['keystone', 'heat'],
              2: ['placement', 'glance', 'neutron', 'nova', 'cinder', 'rabbitmq', 'rabbit_dist', 'epmd']}


class Lab:
    def __init__(self, tier, state=None):
        self.tier = tier
        self.state = state or state_dir()
        self.venv = venv_dir()
        self.bin = self.venv / 'bin'
        self.etc = self.state / 'etc'
        self.data = self.state / 'data'
        self.logs = self.state / 'log'
        self.info_file = self.state / 'lab.json'
        self.info = json.loads(self.info_file.read_text()) if self.info_file.exists() else {}
        self.procs = None
        self.ports = {}

    # ---- state

    def save(self, **kw):
        self.info.update(kw)
        self.info_file.write_text(json.dumps(self.info, indent=1))

    def url(self, name):
        return f'http://{HOST}:{self.ports[name]}'

    def db(self, name):
        if self.tier == 1:
            return f'sqlite:///{self.data}/{name}.sqlite'
        sock = self.state / 'mariadb' / 'mysqld.sock'
        return f'mysql+mysqldb://root@localhost/{name}?unix_socket={sock}&charset=utf8'

    def choose_ports(self):
        old = self.info.get('ports', {})
        for name in [p for t in range(1, self.tier + 1) for p in PORT_NAMES[t]]:
            port = old.get(name)
            reusable = port and port not in ephemeral_ports() and port_free(port)
            self.ports[name] = port if reusable else free_port()
        # Distinct even if the OS handed out a just-freed port twice.
        if len(set(self.ports.values())) != len(self.ports):
            return self.choose_ports()

    # ---- commands

    def up(self):
        running = running_lab(self.state)
        if running:
            if running.info.get('tier', 1) >= self.tier:
                log(f'already running (tier {running.info["tier"]}) in {self.state}')
                return running
            raise LabError(f'a tier-{running.info["tier"]} lab is running in {self.state}: '
                           'run `lab.py down` first')
        if not installed(self.tier):
            install(self.tier)
        t0 = time.monotonic()
        Procs(self.state).stop_all()  # leftovers of a lab that is no longer whole
        if (self.info.get('venv') != str(self.venv) or self.info.get('tier') != self.tier
                or not self.info.get('initialized')):
            # Other pins, another tier or a first start that failed: start from empty databases.
            shutil.rmtree(self.state, ignore_errors=True)
            self.info = {}
        for d in (self.etc, self.data, self.logs):
            d.mkdir(parents=True, exist_ok=True)
        rotate_logs(self.logs)
        self.procs = Procs(self.state)
        self.choose_ports()
        self.save(tier=self.tier, venv=str(self.venv), ports=self.ports, ready=False,
                  starting=time.time())
        fresh = not self.info.get('initialized')
        try:
            self.write_configs()
            if self.tier == 2:
                self.start_infra()
            if fresh:
                self.init_keystone()
            self.start_wsgi('keystone', 'keystone.wsgi.api:application',
                            OS_KEYSTONE_CONFIG_FILES=self.etc / 'keystone' / 'keystone.conf')
            self.wait_http('keystone', self.url('keystone') + '/')
            if fresh:
                self.init_dbs()
            elif self.tier == 2:
                self.update_cell()
            if fresh or self.info.get('registered_ports') != self.ports:
                self.register()
                self.save(registered_ports=self.ports)
            self.start_services()
            if self.tier == 2:
                self.wait_compute()
            self.write_clouds()
        except BaseException:
            log(f'start failed; logs are in {self.logs}')
            show_logs(self.state, list(self.procs.data))
            self.procs.stop_all()
            raise
        self.save(initialized=True, ready=True, started=time.time())
        log(f'tier {self.tier} up in {time.monotonic() - t0:.0f} s ({"cold" if fresh else "warm"})')
        return self

    def down(self):
        procs = Procs(self.state)
        procs.stop_all()
        if self.info_file.exists():
            self.save(ready=False)
        listening = [f'{n}:{p}' for n, p in self.info.get('ports', {}).items() if port_open(p)]
        if listening:
            raise LabError(f'ports still listening after stop: {", ".join(listening)}')

    # ---- configuration

    def authtoken(self, user):
        return {'www_authenticate_uri': self.url('keystone') + '/v3',
                'auth_url': self.url('keystone'), 'auth_type': 'password',
                'username': user, 'password': PASSWORD, 'project_name': 'service',
                'user_domain_name': 'Default', 'project_domain_name': 'Default',
                'service_token_roles_required': 'true', 'memcached_servers': ''}

    def service_auth(self, user):
        return {'auth_type': 'password', 'auth_url': self.url('keystone'), 'username': user,
                'password': PASSWORD, 'project_name': 'service', 'user_domain_name': 'Default',
                'project_domain_name': 'Default', 'region_name': REGION}

    def policy(self, service):
        """An [oslo_policy] section naming files that exist (empty: the code's default rules, as without them).
        oslo.policy looks for a missing policy file again on every check, through every configuration directory:
        several percent of Neutron's CPU time on the lab."""
        (self.etc / service / 'policy.d').mkdir(parents=True, exist_ok=True)
        (self.etc / service / 'policy.yaml').write_text('{}\n')
        return {'policy_file': self.etc / service / 'policy.yaml', 'policy_dirs': self.etc / service / 'policy.d'}

    def write_configs(self):
        e, d, lg = self.etc, self.data, self.logs
        lock = {'lock_path': d / 'lock'}
        write_ini(e / 'keystone' / 'keystone.conf', {
            'oslo_policy': self.policy('keystone'),
            'DEFAULT': {'log_file': lg / 'keystone-app.log'},
            'database': {'connection': self.db('keystone')},
            'token': {'provider': 'fernet', 'expiration': 86400},
            # bcrypt's default cost makes every user creation and login slow on 2 cores.
            'identity': {'password_hash_rounds': 4},
            # Without a cache every token validation reads the database again (most of Keystone's CPU time).
            'cache': {'enabled': 'true', 'backend': 'dogpile.cache.memory'},
            'fernet_tokens': {'key_repository': e / 'keystone' / 'fernet-keys'},
            'fernet_receipts': {'key_repository': e / 'keystone' / 'fernet-keys'},
            'credential': {'key_repository': e / 'keystone' / 'credential-keys'},
        })
        # Tier 1 runs Heat's legacy engine: convergence on SQLite leaves stacks stuck.
        (e / 'heat').mkdir(parents=True, exist_ok=True)
        copy_into(self.venv / 'etc' / 'heat' / 'api-paste.ini', e / 'heat')
        heat_default = {
            'log_file': lg / 'heat-app.log',
            'convergence_engine': 'true' if self.tier == 2 else 'false',
            'transport_url': 'fake://', 'host': NODE, 'num_engine_workers': 1,
            'region_name_for_services': REGION,
            'stack_domain_admin': 'heat_domain_admin', 'stack_domain_admin_password': PASSWORD,
            'stack_user_domain_name': 'heat',
            'heat_metadata_server_url': f'http://{HOST}:8000',
            'heat_waitcondition_server_url': f'http://{HOST}:8000/v1/waitcondition',
            'environment_dir': e / 'heat' / 'environment.d',
            'template_dir': e / 'heat' / 'templates',
        }
        write_ini(e / 'heat' / 'heat.conf', {
            'oslo_policy': self.policy('heat'),
            'DEFAULT': heat_default,
            'database': {'connection': self.db('heat')},
            'paste_deploy': {'api_paste_config': e / 'heat' / 'api-paste.ini'},
            'oslo_messaging_notifications': {'driver': 'noop'},
            'clients_keystone': {'auth_uri': self.url('keystone')},
            'trustee': {k: v for k, v in self.service_auth('heat').items()
                        if k not in ('project_name', 'project_domain_name', 'region_name')},
            'keystone_authtoken': self.authtoken('heat'),
            'oslo_concurrency': lock,
        })
        self.write_heat_environment()
        if self.tier == 1:
            return
        write_ini(e / 'placement' / 'placement.conf', {
            'oslo_policy': self.policy('placement'),
            'DEFAULT': {'log_file': lg / 'placement-app.log'},
            'api': {'auth_strategy': 'keystone'},
            'placement_database': {'connection': self.db('placement')},
            'keystone_authtoken': self.authtoken('placement'),
        })
        copy_into(self.venv / 'etc' / 'glance' / 'glance-api-paste.ini', e / 'glance')
        write_ini(e / 'glance' / 'glance-api.conf', {
            'oslo_policy': self.policy('glance'),
            'DEFAULT': {'log_file': lg / 'glance-app.log', 'enabled_backends': 'fs:file'},
            'glance_store': {'default_backend': 'fs'},
            'fs': {'filesystem_store_datadir': d / 'images'},
            'os_glance_staging_store': {'filesystem_store_datadir': d / 'glance-staging'},
            'os_glance_tasks_store': {'filesystem_store_datadir': d / 'glance-tasks'},
            'database': {'connection': self.db('glance')},
            'paste_deploy': {'flavor': 'keystone', 'config_file': e / 'glance' / 'glance-api-paste.ini'},
            'keystone_authtoken': self.authtoken('glance'),
            'oslo_concurrency': lock,
        })
        copy_into(self.venv / 'etc' / 'neutron' / 'api-paste.ini', e / 'neutron')
        write_ini(e / 'neutron' / 'neutron.conf', {
            'oslo_policy': self.policy('neutron'),
            'DEFAULT': {'log_file': lg / 'neutron-app.log', 'core_plugin': 'ml2',
                        # Without the router plugin Heat's server `addresses` is silently null.
                        'service_plugins': 'router', 'auth_strategy': 'keystone',
                        # No agents: nothing to talk to over RPC.
                        'transport_url': 'fake://', 'api_workers': 1, 'rpc_workers': 0,
                        'rpc_state_report_workers': 0, 'api_paste_config': e / 'neutron' / 'api-paste.ini',
                        'notify_nova_on_port_status_changes': 'false',
                        'notify_nova_on_port_data_changes': 'false',
                        'dhcp_agent_notification': 'false'},
            'database': {'connection': self.db('neutron')},
            'oslo_concurrency': lock,
            'keystone_authtoken': self.authtoken('neutron'),
            'nova': self.service_auth('nova'),
            'quotas': QUOTAS['neutron'],
        })
        write_ini(e / 'neutron' / 'ml2_conf.ini', {
            'ml2': {'type_drivers': 'flat,vxlan', 'tenant_network_types': 'vxlan',
                    'mechanism_drivers': 'nfvlab_fake', 'extension_drivers': 'port_security'},
            'ml2_type_flat': {'flat_networks': '*'},
            'ml2_type_vxlan': {'vni_ranges': '1:1000'},
        })
        rabbit = f'rabbit://guest:guest@{HOST}:{self.ports["rabbitmq"]}/'
        copy_into(self.venv / 'etc' / 'nova' / 'api-paste.ini', e / 'nova')
        write_ini(e / 'nova' / 'nova.conf', {
            'oslo_policy': self.policy('nova'),
            # The single-node fake keeps a stable node identity (state_path/compute_id),
            # without which nova-compute refuses its second start.
            'DEFAULT': {'transport_url': rabbit, 'compute_driver': 'fake.FakeDriverWithoutFakeNodes',
                        'host': NODE, 'my_ip': HOST, 'state_path': d / 'nova',
                        'instances_path': d / 'nova' / 'instances',
                        # One compute host: resize must be allowed to land on it.
                        'allow_resize_to_same_host': 'true',
                        'vif_plugging_is_fatal': 'false', 'vif_plugging_timeout': 0},
            'api': {'auth_strategy': 'keystone'},
            'wsgi': {'api_paste_config': e / 'nova' / 'api-paste.ini'},
            'api_database': {'connection': self.db('nova_api')},
            'database': {'connection': self.db('nova_cell1')},
            'oslo_concurrency': lock,
            'conductor': {'workers': 1},
            # register.py maps the one compute host (nova-manage cell_v2 discover_hosts) once it is up; a periodic
            # discovery would only query the database every few seconds for good (2.5 % of a core every 2 s).
            'scheduler': {'workers': 1},
            'oslo_messaging_notifications': {'driver': 'noop'},
            'glance': {'region_name': REGION},
            'cinder': {'os_region_name': REGION, **self.service_auth('cinder')},
            'keystone_authtoken': self.authtoken('nova'),
            'placement': self.service_auth('placement'),
            'neutron': {**self.service_auth('neutron'), 'service_metadata_proxy': 'false'},
            # Cinder lets only Nova (a service token) delete its attachments, e.g. on resize.
            'service_user': {**self.service_auth('nova'), 'send_service_user_token': 'true'},
            'vnc': {'enabled': 'false'},
            'quota': QUOTAS['nova'],
        })
        copy_into(self.venv / 'etc' / 'cinder' / 'api-paste.ini', e / 'cinder')
        copy_into(self.venv / 'etc' / 'cinder' / 'resource_filters.json', e / 'cinder')
        for sub in ('nova', 'cinder', 'images', 'lock'):
            (d / sub).mkdir(parents=True, exist_ok=True)
        write_ini(e / 'cinder' / 'cinder.conf', {
            'oslo_policy': self.policy('cinder'),
            'DEFAULT': {'transport_url': rabbit, 'host': NODE, 'my_ip': HOST,
                        'state_path': d / 'cinder', 'auth_strategy': 'keystone',
                        'api_paste_config': e / 'cinder' / 'api-paste.ini',
                        'enabled_backends': 'fake', 'default_volume_type': 'fake',
                        'glance_api_servers': self.url('glance'), 'osapi_volume_workers': 1,
                        'resource_query_filters_file': e / 'cinder' / 'resource_filters.json',
                        # The fake backend reports no capabilities, so volume types that ask for one
                        # (Tacker's samples use multiattach) would find no backend; there is only one.
                        'scheduler_default_filters': 'AvailabilityZoneFilter,CapacityFilter',
                        **QUOTAS['cinder']},
            # Cinder's own test driver (no block device), able to create volumes from images.
            'fake': {'volume_driver': 'nfvlab_fakecinder.FakeVolumeDriver',
                     'volume_backend_name': 'fake'},
            'database': {'connection': self.db('cinder')},
            'oslo_concurrency': lock,
            'oslo_messaging_notifications': {'driver': 'noop'},
            'keystone_authtoken': self.authtoken('cinder'),
            'nova': self.service_auth('nova'),
            'coordination': {'backend_url': f'file://{d / "cinder-coordination"}'},
        })

    def write_heat_environment(self):
        """Tier 1 maps Nova/Neutron types to stub provider templates (global environment)."""
        env_dir = self.etc / 'heat' / 'environment.d'
        tpl_dir = self.etc / 'heat' / 'templates'
        shutil.rmtree(env_dir, ignore_errors=True)
        env_dir.mkdir(parents=True)
        tpl_dir.mkdir(parents=True, exist_ok=True)
        if self.tier != 1:
            return
        registry = []
        for rtype, stub in (('OS::Nova::Server', 'stub_server.yaml'),
                            ('OS::Neutron::Port', 'stub_port.yaml')):
            if not (HERE / 'stubs' / stub).exists():
                continue  # only while gen_stubs.py has not been run
            shutil.copy(HERE / 'stubs' / stub, tpl_dir / stub)
            registry.append(f'  "{rtype}": "file://{tpl_dir / stub}"')
        (env_dir / 'stubs.yaml').write_text('resource_registry:\n' + '\n'.join(registry) + '\n')

    # ---- infrastructure (tier 2)

    def start_infra(self):
        my = self.state / 'mariadb'
        if not (my / 'data' / 'mysql').exists():
            (my / 'data').mkdir(parents=True, exist_ok=True)
            run(['mariadb-install-db', '--no-defaults', '--user=root', f'--datadir={my / "data"}',
                 '--auth-root-authentication-method=normal', '--skip-test-db'],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.procs.start('mariadb', [
            'mariadbd', '--no-defaults', '--user=root', f'--datadir={my / "data"}',
            f'--socket={my / "mysqld.sock"}', f'--pid-file={my / "mysqld.pid"}',
            '--skip-networking', '--skip-log-bin', '--innodb-buffer-pool-size=64M',
            '--innodb-flush-log-at-trx-commit=2', '--skip-name-resolve', '--max-connections=500',
            f'--tmpdir={my}'], self.logs)
        # A private epmd on its own port, so that no stray daemon outlives the lab.
        erl_env = dict(os.environ, ERL_EPMD_PORT=str(self.ports['epmd']), ERL_EPMD_ADDRESS=HOST)
        self.procs.start('epmd', ['epmd', '-address', HOST, '-port', self.ports['epmd']],
                         self.logs, env=erl_env)
        rb = self.state / 'rabbitmq'
        (rb / 'home').mkdir(parents=True, exist_ok=True)
        (rb / 'rabbitmq.conf').write_text(
            f'loopback_users = none\nlisteners.tcp.default = {HOST}:{self.ports["rabbitmq"]}\n')
        (rb / 'enabled_plugins').write_text('[].\n')
        self.rabbit_env = dict(
            erl_env, HOME=str(rb / 'home'), RABBITMQ_NODENAME='rabbit@localhost',
            RABBITMQ_NODE_IP_ADDRESS=HOST, RABBITMQ_NODE_PORT=str(self.ports['rabbitmq']),
            RABBITMQ_DIST_PORT=str(self.ports['rabbit_dist']),
            RABBITMQ_MNESIA_BASE=str(rb / 'mnesia'), RABBITMQ_LOG_BASE=str(self.logs),
            RABBITMQ_ENABLED_PLUGINS_FILE=str(rb / 'enabled_plugins'),
            RABBITMQ_CONFIG_FILE=str(rb / 'rabbitmq'))
        wait_for('epmd', lambda: port_open(self.ports['epmd']), self.procs, ['epmd'], 30)
        self.procs.start('rabbitmq', [RABBIT_SERVER], self.logs, env=self.rabbit_env, cwd=rb)
        wait_for('MariaDB', lambda: self.mysql('SELECT 1', check=False).returncode == 0,
                 self.procs, ['mariadb'], 60)
        for name in ('keystone', 'heat', 'placement', 'glance', 'neutron', 'nova_api',
                     'nova_cell0', 'nova_cell1', 'cinder'):
            self.mysql(f'CREATE DATABASE IF NOT EXISTS {name} CHARACTER SET utf8mb4')
        wait_for('RabbitMQ', lambda: port_open(self.ports['rabbitmq']), self.procs, ['rabbitmq'])

    def mysql(self, sql, check=True):
        return run(['mariadb', '--no-defaults', '-S', self.state / 'mariadb' / 'mysqld.sock',
                    '-uroot', '-e', sql], check=check, capture_output=True, text=True)

    # ---- databases and keystone

    def manage(self, *cmd, ok=(0,)):
        """Run a service's command from the lab venv (``ok``: the exit codes that mean success); its stdout."""
        t0 = time.monotonic()
        out = run([self.bin / cmd[0], *cmd[1:]], check=False, capture_output=True, text=True)
        if out.returncode not in ok:
            raise LabError(f'{" ".join(map(str, cmd))} failed:\n{out.stdout}{out.stderr}')
        words = [str(c) for c in cmd if not str(c).startswith('-') and '/' not in str(c)]
        log(f'{" ".join(words)} ({time.monotonic() - t0:.0f} s)')
        return out.stdout

    def sqlite_wal(self, name):
        # A threaded server on SQLite hits "database is locked" without WAL.
        if self.tier == 1:
            import sqlite3
            with sqlite3.connect(self.data / f'{name}.sqlite') as c:
                c.execute('PRAGMA journal_mode=WAL')

    def init_keystone(self):
        conf = ['--config-file', self.etc / 'keystone' / 'keystone.conf']
        self.manage('keystone-manage', *conf, 'db_sync')
        self.sqlite_wal('keystone')
        for cmd in ('fernet_setup', 'credential_setup'):
            self.manage('keystone-manage', *conf, cmd, '--keystone-user', 'root',
                        '--keystone-group', 'root')
        url = self.url('keystone') + '/v3/'
        self.manage('keystone-manage', *conf, 'bootstrap', '--bootstrap-password', PASSWORD,
                    '--bootstrap-region-id', REGION, '--bootstrap-admin-url', url,
                    '--bootstrap-internal-url', url, '--bootstrap-public-url', url)

    def init_dbs(self):
        e = self.etc
        heat = [('heat-manage', '--config-file', e / 'heat' / 'heat.conf', 'db_sync')]
        if self.tier == 1:
            self.manage(*heat[0])
            self.sqlite_wal('heat')
            return
        nova = ['--config-file', e / 'nova' / 'nova.conf']
        rabbit = f'rabbit://guest:guest@{HOST}:{self.ports["rabbitmq"]}/'
        chains = [
            heat + [('placement-manage', '--config-file', e / 'placement' / 'placement.conf', 'db', 'sync'),
                    ('glance-manage', '--config-file', e / 'glance' / 'glance-api.conf', 'db_sync'),
                    ('cinder-manage', '--config-file', e / 'cinder' / 'cinder.conf', 'db', 'sync')],
            [('neutron-db-manage', '--config-file', e / 'neutron' / 'neutron.conf',
              '--config-file', e / 'neutron' / 'ml2_conf.ini', 'upgrade', 'heads')],
            [('nova-manage', *nova, 'api_db', 'sync'),
             ('nova-manage', *nova, 'cell_v2', 'map_cell0', '--database_connection', self.db('nova_cell0')),
             ('nova-manage', *nova, 'cell_v2', 'create_cell', '--name', 'cell1', '--verbose',
              '--database_connection', self.db('nova_cell1'), '--transport-url', rabbit),
             ('nova-manage', *nova, 'db', 'sync')],
        ]
        # Independent migrations run side by side (MariaDB): about a minute saved on a cold start.
        with ThreadPoolExecutor(len(chains)) as pool:
            outs = list(pool.map(lambda chain: [self.manage(*cmd) for cmd in chain], chains))
        self.save(cell1=outs[2][2].strip().splitlines()[-1], cell1_rabbit=rabbit)

    def update_cell(self):
        """Point cell1 at this start's RabbitMQ port if it changed."""
        rabbit = f'rabbit://guest:guest@{HOST}:{self.ports["rabbitmq"]}/'
        if self.info.get('cell1_rabbit') != rabbit:
            self.manage('nova-manage', '--config-file', self.etc / 'nova' / 'nova.conf', 'cell_v2',
                        'update_cell', '--cell_uuid', self.info['cell1'], '--transport-url', rabbit)
            self.save(cell1_rabbit=rabbit)

    def register(self):
        """Keystone users, services and endpoints (kept in line with this start's ports)."""
        self.write_clouds()
        t0 = time.monotonic()
        out = run([self.bin / 'python', HERE / 'register.py', 'keystone', self.info_file],
                  check=False, capture_output=True, text=True, env=self.client_env())
        if out.returncode != 0:
            raise LabError(f'keystone registration failed:\n{out.stdout}{out.stderr}')
        log(f'keystone registration ({time.monotonic() - t0:.0f} s)')

    def client_env(self):
        env = dict(os.environ, OS_CLIENT_CONFIG_FILE=str(self.state / 'clouds.yaml'))
        for k in ('OS_CLOUD', 'OS_AUTH_URL', 'OS_USERNAME', 'OS_PASSWORD', 'OS_PROJECT_NAME'):
            env.pop(k, None)
        return env

    # ---- services

    def start_wsgi(self, name, app, args=(), **env):
        full_env = dict(os.environ, **{k: str(v) for k, v in env.items()})
        self.procs.start(name, [self.bin / 'python', HERE / 'wsgi_serve.py', HOST, self.ports[name],
                                app, *args], self.logs, env=full_env)

    def wait_http(self, name, url):
        t0 = time.monotonic()
        wait_for(name, lambda: http_ready(url), self.procs, [name])
        log(f'{name} answers on {url} ({time.monotonic() - t0:.1f} s)')

    def start_services(self):
        """Start all API services and daemons at once, then wait for each API."""
        e = self.etc
        apis = ['heat']
        if self.tier == 2:
            nova = ['--config-file', e / 'nova' / 'nova.conf']
            cinder = ['--config-file', e / 'cinder' / 'cinder.conf']
            for svc in ('conductor', 'scheduler', 'compute'):
                self.procs.start(f'nova-{svc}', [self.bin / f'nova-{svc}', *nova], self.logs)
            self.procs.start('cinder-scheduler', [self.bin / 'cinder-scheduler', *cinder], self.logs)
            self.procs.start('cinder-volume', [self.bin / 'python', HERE / 'cinder_volume.py', *cinder], self.logs)
            self.start_wsgi('placement', 'placement.wsgi.api:application',
                            OS_PLACEMENT_CONFIG_DIR=e / 'placement')
            self.start_wsgi('glance', 'glance.wsgi.api:application', OS_GLANCE_CONFIG_DIR=e / 'glance',
                            OS_GLANCE_CONFIG_FILES='glance-api.conf')
            self.start_wsgi('neutron', 'neutron.wsgi.api:application', OS_NEUTRON_CONFIG_DIR=e / 'neutron',
                            OS_NEUTRON_CONFIG_FILES='neutron.conf;ml2_conf.ini')
            self.start_wsgi('nova', 'nova.wsgi.osapi_compute:application', OS_NOVA_CONFIG_DIR=e / 'nova')
            self.start_wsgi('cinder', 'cinder.wsgi.api:application', args=cinder)
            apis += ['placement', 'glance', 'neutron', 'nova', 'cinder']
        self.procs.start('heat', [self.bin / 'python', HERE / 'heat_all.py', HOST, self.ports['heat'],
                                  '--config-file', e / 'heat' / 'heat.conf'], self.logs)
        for name in apis:
            self.wait_http(name, self.url(name) + '/')

    def wait_compute(self):
        """Wait for the fake hypervisor, map it into cell1, create flavours, image, networks."""
        t0 = time.monotonic()
        nova_services = ['nova-conductor', 'nova-scheduler', 'nova-compute']
        out = run([self.bin / 'python', HERE / 'register.py', 'compute', self.info_file],
                  check=False, capture_output=True, text=True, env=self.client_env(),
                  timeout=START_TIMEOUT)
        if out.returncode != 0:
            raise LabError(f'tier-2 resources failed:\n{out.stdout}{out.stderr}')
        for n in nova_services + ['cinder-scheduler', 'cinder-volume']:
            if not self.procs.alive(n):
                raise LabError(f'{n} exited')
        log(f'compute ready and resources created ({time.monotonic() - t0:.0f} s)')

    def write_clouds(self):
        auth = self.url('keystone') + '/v3'

        def cloud(user, project):
            return {'auth': {'auth_url': auth, 'username': user, 'password': PASSWORD,
                             'project_name': project, 'user_domain_name': 'Default',
                             'project_domain_name': 'Default'},
                    'region_name': REGION, 'identity_api_version': 3, 'interface': 'public'}

        clouds = {'clouds': {CLOUD: cloud('demo', 'demo'), f'{CLOUD}-admin': cloud('admin', 'admin')}}
        # JSON is valid YAML: no YAML library needed here.
        (self.state / 'clouds.yaml').write_text(json.dumps(clouds, indent=2) + '\n')

    # ---- status

    def status(self):
        procs = Procs(self.state)
        rows = {n: procs.ours(n) for n in procs.data}
        return {'state_dir': str(self.state), 'tier': self.info.get('tier'),
                'ready': bool(self.info.get('ready')) and bool(rows) and all(rows.values()),
                'rss_mb': rss_mb([p for pids in rows.values() for p in pids]),
                'ports': self.info.get('ports', {}), 'processes': rows,
                'clouds_yaml': str(self.state / 'clouds.yaml'), 'venv': self.info.get('venv')}


def running_lab(state=None):
    """The lab running in `state` with all its processes alive and Keystone answering, or None."""
    state = state or state_dir()
    lab = Lab(1, state)
    if not lab.info.get('ready'):
        return None
    st = lab.status()
    if not st['ready']:
        return None
    lab.tier, lab.ports = lab.info['tier'], lab.info['ports']
    if not http_ready(lab.url('keystone') + '/v3'):
        return None
    return lab


# --------------------------------------------------------------------------- CLI

def env_lines(state):
    return [f'export OS_CLIENT_CONFIG_FILE={state / "clouds.yaml"}', f'export OS_CLOUD={CLOUD}',
            f'export NFV_OPENSTACK_LAB_DIR={state}']


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('command', choices=['install', 'up', 'down', 'status', 'env', 'venv'])
    p.add_argument('--tier', type=int, choices=[1, 2],
                   default=int(os.environ.get('LAB_TIER', '1')))
    p.add_argument('--state-dir', type=Path, help='default: $NFV_OPENSTACK_LAB_DIR or the cache')
    p.add_argument('--clean', action='store_true', help='down: also remove the state dir')
    p.add_argument('--json', action='store_true', help='status: print JSON')
    a = p.parse_args(argv)
    state = (a.state_dir or state_dir()).resolve()
    state.parent.mkdir(parents=True, exist_ok=True)
    lock = open(state.parent / f'.{state.name}.lock', 'w')
    try:
        if a.command in ('up', 'down'):
            fcntl.flock(lock, fcntl.LOCK_EX)  # one start or stop of a state dir at a time
        lab = Lab(a.tier, state)
        if a.command == 'install':
            install(a.tier)
        elif a.command == 'venv':
            print(venv_dir())
        elif a.command == 'up':
            lab.up()
            print('\n'.join(env_lines(state)))
        elif a.command == 'down':
            lab.down()
            if a.clean:
                shutil.rmtree(state, ignore_errors=True)
            log('stopped')
        elif a.command == 'status':
            st = lab.status()
            if a.json:
                print(json.dumps(st, indent=1))
            else:
                print(f'state dir: {st["state_dir"]}\ntier: {st["tier"]}  ready: {st["ready"]}'
                      f'  RSS: {st["rss_mb"]} MB')
                for name, pids in st['processes'].items():
                    port = st['ports'].get(name, '')
                    print(f'  {name:18} {"running " + str(pids) if pids else "stopped"} {port}')
            return 0 if st['ready'] else 3
        elif a.command == 'env':
            print('\n'.join(env_lines(state)))
    except (LabError, subprocess.CalledProcessError) as e:
        log(f'error: {e}')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
