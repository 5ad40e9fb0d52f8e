"""Fixtures for tests against the local OpenStack lab (tools/lab/openstack).

The session uses a lab that is already running (found through
$NFV_OPENSTACK_LAB_DIR or the default state dir); otherwise it starts one and
stops it at the end (not under pytest-xdist: start the lab first there). The tier started is $NFV_OPENSTACK_LAB_TIER, else 2 when
a selected test is marked `tier2`, else 1.

A lab that is not installed skips the tests, or fails them when $CI is set
or NFV_LAB_REQUIRED=1: lab tests must never pass silently without a lab.
"""
import fcntl
import importlib.util
import io
import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from ansible_collections.nfv.vnflcm.tests.integration.openstack.heat_vnf import NEW, OLD, delete_stacks, repackaged

REPO = Path(__file__).resolve().parents[3]
LAB_PY = REPO / 'tools' / 'lab' / 'openstack' / 'lab.py'
TEMPLATES = Path(__file__).resolve().parent / 'templates'
STACK_TIMEOUT = int(os.environ.get('NFV_LAB_STACK_TIMEOUT', '300'))


def load_lab():
    spec = importlib.util.spec_from_file_location('openstack_lab', LAB_PY)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def lab_required():
    return bool(os.environ.get('CI')) or os.environ.get('NFV_LAB_REQUIRED') == '1'


def missing(reason):
    if lab_required():
        pytest.fail(f'{reason} (lab required: CI or NFV_LAB_REQUIRED=1 is set)', pytrace=False)
    pytest.skip(reason)


def pytest_configure(config):
    config.addinivalue_line('markers', 'tier2: needs the tier-2 OpenStack lab (Nova, Neutron, Cinder)')


# `make integration` runs these tests on 5 pytest-xdist workers (OPENSTACK_WORKERS) with --dist loadgroup: each group
# runs on one worker, its tests in file order. Four groups of about equal length (--durations, one test at a time:
# about 12 min each); the VM playbooks test's two drivers are split, as together they would be the longest. A module
# not named here is a group of its own, which the first worker to run short of tests takes (the fifth worker starts
# on them); the AutoScalingGroup change of package (a VNF of its own, about 7 min) is split from the rest of its
# module the same way.
XDIST_GROUPS = {
    'test_vnf_heat_change_pkg.py': 'change-pkg',
    'test_playbooks.py::test_every_playbook_on_a_vm_vnf[ansible-playbook]': 'playbooks',
    'test_role_molecule.py': 'playbooks',
    'test_vnf_heat_faults.py': 'faults',
    'test_vnf_heat_tacker_requests.py': 'faults',
    'test_vnf_heat_tacker_max.py': 'tacker-max',  # about 1 min, one VNF of its own
    # basic_lcms_max's template creates Cinder volume types of fixed names (VDU1-multi, VDU2-multi): one of its VNFs at
    # a time in the lab, so its tests share a worker (two on two workers met: "Volume Type VDU1-multi already exists").
    'test_vnf_heat_asg.py::test_max_package_fixed_address_changed_by_change_ext_conn': 'tacker-max',
    'test_vnf_heat_crash_sweep.py': 'tacker-max',  # the sampled crash sweep beside it
    # ... but for its instantiate and change-of-package cases, a group of their own (together they made the longest
    # group, 55 worker-min under load; the worker of each half counts the whole runs its cases need):
    'test_vnf_heat_crash_sweep.py::test_a_kill_after_the_kth_write_to_heat_is_recovered[instantiate-k1-retry]': 'sweep-b',
    'test_vnf_heat_crash_sweep.py::test_a_kill_after_the_kth_write_to_heat_is_recovered[instantiate-k2-retry]': 'sweep-b',
    'test_vnf_heat_crash_sweep.py::test_a_kill_after_the_kth_write_to_heat_is_recovered[instantiate-k3-retry]': 'sweep-b',
    'test_vnf_heat_crash_sweep.py::test_a_kill_after_the_kth_write_to_heat_is_recovered[change_pkg-k1-rollback]': 'sweep-b',
    'test_vnf_heat_crash_sweep.py::test_a_kill_after_the_kth_write_to_heat_is_recovered[change_pkg-k1-retry]': 'sweep-b',
    'test_vnf_heat_lifecycle.py': 'lifecycle',
    'test_playbooks.py::test_every_playbook_on_a_vm_vnf[ansible-runner]': 'lifecycle',
    'test_heat_nova_neutron.py': 'lifecycle',
    'test_vnf_heat_asg.py::test_min_package_change_rolls_the_group_members_one_at_a_time': 'asg-change',
    'test_vnf_heat_asg.py::test_min_package_scale_in_and_heal_killed_while_heat_updates_are_retried': 'asg-faults',
    'test_vnf_heat_create_failed.py': 'asg-faults',
}

# The groups longest first (worker-minutes of a run, `python3 tools/test_times.py`): `make integration` passes
# --no-loadscope-reorder, so pytest-xdist hands the groups out in this order rather than by their number of tests,
# which put the one-test groups (the name race among them) last, running alone at the end. A group not named here
# comes after these, in file order.
LONGEST_FIRST = ('lifecycle', 'change-pkg', 'faults', 'sweep-b', 'playbooks', 'test_module_examples.py', 'tacker-max',
                 'test_vnf_heat_user_data.py', 'test_vnf_heat_coordination.py', 'test_vnf_heat_name_race.py', 'asg-change',
                 'asg-faults', 'test_vnf_heat_server_in_error.py', 'test_vnf_heat_closed_loop.py', 'test_vnf_heat_asg.py')


def xdist_group_of(item):
    marker = item.get_closest_marker('xdist_group')
    return marker.kwargs.get('name', marker.args[0] if marker.args else None)


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items):
    for item in items:
        if item.get_closest_marker('xdist_group') is None:
            name = item.nodeid.rsplit('/', 1)[-1]
            group = XDIST_GROUPS.get(name) or XDIST_GROUPS.get(name.split('::', 1)[0]) or name.split('::', 1)[0]
            item.add_marker(pytest.mark.xdist_group(group))
    rank = {group: index for index, group in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(xdist_group_of(item), len(rank)))  # stable: each group's own order is kept


class RunningLab:
    def __init__(self, state_dir, tier):
        self.state_dir = Path(state_dir)
        self.tier = tier
        self.clouds_yaml = self.state_dir / 'clouds.yaml'

    def connect(self, cloud='nfvlab'):
        import openstack
        from openstack import config as os_config
        cfg = os_config.OpenStackConfig(config_files=[str(self.clouds_yaml)])
        return openstack.connection.Connection(config=cfg.get_one(cloud))


@pytest.fixture(scope='session')
def openstack_lab(request):
    lab = load_lab()
    state = lab.state_dir()
    running = lab.running_lab(state)
    if running:
        yield RunningLab(state, running.info['tier'])
        return
    tier = int(os.environ.get('NFV_OPENSTACK_LAB_TIER') or 0) or (
        2 if any(i.get_closest_marker('tier2') for i in request.session.items) else 1)
    if not lab.installed(tier):
        missing(f'OpenStack lab tier {tier} is not installed: run '
                f'`python3 tools/lab/openstack/lab.py install --tier {tier}`')
    if os.environ.get('PYTEST_XDIST_WORKER'):
        # One worker's teardown would stop the lab under the others.
        missing(f'with pytest-xdist, start the lab first: `python3 tools/lab/openstack/lab.py up --tier {tier}`')
    cmd = [sys.executable, str(LAB_PY), 'up', '--tier', str(tier)]
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if res.returncode != 0:
        pytest.fail(f'`{" ".join(cmd)}` failed:\n{res.stdout}{res.stderr[-6000:]}', pytrace=False)
    try:
        yield RunningLab(state, tier)
    finally:
        subprocess.run([sys.executable, str(LAB_PY), 'down'], check=False)


@pytest.fixture(scope='session')
def tier2_lab(openstack_lab):
    if openstack_lab.tier < 2:
        missing(f'the running OpenStack lab in {openstack_lab.state_dir} is tier 1; '
                'stop it (`lab.py down`) and start tier 2 (`lab.py up --tier 2`)')
    return openstack_lab


@pytest.fixture(scope='session')
def conn(openstack_lab):
    """openstacksdk connection as the lab's demo user (project demo)."""
    return openstack_lab.connect('nfvlab')


@pytest.fixture(scope='session')
def admin_conn(openstack_lab):
    return openstack_lab.connect('nfvlab-admin')


@pytest.fixture
def stacks(conn, request):
    """Heat helper for one test: unique stack names, deleted at the end."""
    helper = Stacks(conn, request.node.name)
    yield helper
    helper.delete_all()


def load_template(name):
    return (TEMPLATES / name).read_text()


class StackError(AssertionError):
    pass


class Stacks:
    """Create/PATCH/PUT stacks and wait on their stack-level events.

    A 202 can come back before the stack leaves its previous *_COMPLETE state,
    so waiting on the status string can see the previous operation finish.
    Counting the stack's own terminal events before and after does not.
    """

    def __init__(self, conn, test_name):
        self.conn = conn
        self.prefix = 'nfvt-' + ''.join(c if c.isalnum() else '-' for c in test_name)[:30]
        self.created = []

    def unique_name(self):
        return f'{self.prefix}-{uuid.uuid4().hex[:6]}'

    def path(self, stack):
        return f'/stacks/{stack["stack_name"]}/{stack["id"]}'

    def get(self, stack):
        return self._json(self.conn.orchestration.get(self.path(stack)))['stack']

    def _json(self, resp, ok=(200, 201, 202)):
        if resp.status_code not in ok:
            raise StackError(f'Heat answered {resp.status_code}: {resp.text[:2000]}')
        try:
            return resp.json()
        except ValueError:  # PATCH/PUT answer 202 with no JSON body
            return {}

    def events(self, stack):
        """All events of the stack as dicts with `action` and `status` split out."""
        resp = self.conn.orchestration.get(self.path(stack) + '/events')
        events = self._json(resp)['events']
        for e in events:
            e['action'], e['status'] = e['resource_status'].split('_', 1)
        return events

    def event_ids(self, stack):
        return {e['id'] for e in self.events(stack)}

    def resource_events(self, stack, resource, after=()):
        """(action, status) of a resource's events not in `after` (a set of event ids)."""
        return {(e['action'], e['status']) for e in self.events(stack)
                if e['resource_name'] == resource and e['id'] not in after}

    def wait(self, stack, seen, action):
        """Wait for a terminal event of the stack itself that is not in `seen`."""
        deadline = time.monotonic() + STACK_TIMEOUT
        while time.monotonic() < deadline:
            new = [e for e in self.events(stack)
                   if e['physical_resource_id'] == stack['id'] and e['id'] not in seen
                   and e['status'] in ('COMPLETE', 'FAILED')]
            if new:
                st = self.get(stack)
                bad = [e['resource_status'] for e in new
                       if e['status'] != 'COMPLETE' or e['action'] != action]
                if bad:
                    raise StackError(f'{st["stack_name"]}: {bad}: {st.get("stack_status_reason")}')
                return st
            time.sleep(1)
        raise StackError(f'{stack["stack_name"]}: no {action} event after {STACK_TIMEOUT} s')

    def create(self, template, parameters=None, files=None, environment=None):
        body = {'stack_name': self.unique_name(), 'template': template,
                'parameters': _params(parameters), 'files': files or {},
                'environment': environment or {}, 'timeout_mins': 10}
        created = self._json(self.conn.orchestration.post('/stacks', json=body))['stack']
        stack = {'stack_name': body['stack_name'], 'id': created['id']}
        self.created.append(stack)
        return self.wait(stack, set(), 'CREATE')

    def patch(self, stack, parameters, **extra):
        """PATCH update: parameters not sent keep their values (`stack update --existing`)."""
        seen = self.event_ids(stack)
        self._json(self.conn.orchestration.patch(
            self.path(stack), json={'parameters': _params(parameters), **extra}))
        return self.wait(stack, seen, 'UPDATE')

    def put(self, stack, template, parameters=None, files=None, environment=None):
        seen = self.event_ids(stack)
        self._json(self.conn.orchestration.put(self.path(stack), json={
            'template': template, 'parameters': _params(parameters),
            'files': files or {}, 'environment': environment or {}}))
        return self.wait(stack, seen, 'UPDATE')

    def outputs(self, stack):
        return {o['output_key']: o.get('output_value') for o in self.get(stack)['outputs']}

    def resource(self, stack, name):
        resp = self.conn.orchestration.get(self.path(stack) + f'/resources/{name}')
        return self._json(resp)['resource']

    def delete_all(self):
        for stack in self.created:
            self.conn.orchestration.delete(self.path(stack))
        deadline = time.monotonic() + STACK_TIMEOUT
        names = {s['stack_name'] for s in self.created}
        # The name stays reserved until the stack leaves the list, not when find_stack says None.
        while names and time.monotonic() < deadline:
            listed = {s.name: s.status for s in self.conn.orchestration.stacks()}
            names &= set(listed)
            failed = [n for n in names if listed[n] == 'DELETE_FAILED']
            if failed:
                raise StackError(f'delete failed: {failed}')
            time.sleep(1)
        if names:
            raise StackError(f'stacks not deleted after {STACK_TIMEOUT} s: {sorted(names)}')


def _params(parameters):
    # json parameters travel as JSON text, as the heat client sends them.
    return {k: json.dumps(v) if isinstance(v, (dict, list)) else v
            for k, v in (parameters or {}).items()}


# ---------------------------------------------------------------------------------------------
# VM-based VNFs (tier 2): the lab with the images of Tacker's userdata_standard packages

# The images userdata_standard names, and the one its change package adds for VDU1.
IMAGES = ("cirros-0.5.2-x86_64-disk", "VDU2-VirtualStorage-image", "VDU1-image", "VDU1-VirtualStorage-image")


@pytest.fixture(scope="module")
def lab(tier2_lab, admin_conn):
    """The tier-2 lab with the Glance images the package's VDUs name, and the env the modules read clouds.yaml from."""
    # Workers side by side (pytest-xdist) would each create a missing image: two of a name make every lookup ambiguous.
    with open(tier2_lab.state_dir / "test-images.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for name in IMAGES:
            if admin_conn.image.find_image(name) is None:
                admin_conn.image.create_image(name=name, disk_format="raw", container_format="bare", visibility="public",
                                              data=io.BytesIO(b"\0" * 1024))
    previous = os.environ.get("OS_CLIENT_CONFIG_FILE")
    os.environ["OS_CLIENT_CONFIG_FILE"] = str(tier2_lab.clouds_yaml)
    yield tier2_lab
    if previous is None:
        os.environ.pop("OS_CLIENT_CONFIG_FILE", None)
    else:
        os.environ["OS_CLIENT_CONFIG_FILE"] = previous


@pytest.fixture
def package(tacker_packages):
    return os.path.join(tacker_packages, "userdata_standard")


@pytest.fixture(scope="module")
def created(admin_conn):
    """Stack names of the instances the tests create: deleted at the end (the modules of every test, side by side,
    share one project and its quotas: the lab raises them, see tools/lab/openstack/README.md)."""
    names = []
    yield names
    delete_stacks(admin_conn, [stack for stack in admin_conn.orchestration.stacks() if stack.name in names])


@pytest.fixture(scope="module")
def packages(tacker_packages, tmp_path_factory):
    """The sample packages, with the change package under its own vnfdId (as an NFVO onboards it)."""
    root = tmp_path_factory.mktemp("packages")
    os.symlink(os.path.join(tacker_packages, OLD), root / OLD)
    repackaged(os.path.join(tacker_packages, NEW), root / NEW)
    return str(root)
