"""lab.py itself: `down` leaves no process and no listening port behind, and a
second `up` of the same state dir (warm start) works. Uses its own tier-1 lab, which
also shows tier 1's stub provider templates at work (the rest of the OpenStack tests
run on the tier-2 lab, where Nova and Neutron are real)."""
import json
import os
import subprocess
import sys

from conftest import LAB_PY, RunningLab, Stacks, load_lab, load_template, missing
from test_heat_stack import nfv


def lab_cmd(env, *args):
    res = subprocess.run([sys.executable, str(LAB_PY), *args], env=env,
                         capture_output=True, text=True, timeout=600, check=False)
    assert res.returncode in (0, 3), f'lab.py {" ".join(args)}:\n{res.stdout}{res.stderr[-4000:]}'
    return res.stdout


def test_down_leaves_nothing_and_second_up_works(tmp_path):
    lab = load_lab()
    if not lab.installed(1):
        missing('OpenStack lab tier 1 is not installed: run `python3 tools/lab/openstack/lab.py install`')
    env = dict(os.environ, NFV_OPENSTACK_LAB_DIR=str(tmp_path / 'lab'))
    env.pop('LAB_TIER', None)
    try:
        for start in ('cold', 'warm'):
            lab_cmd(env, 'up')
            status = json.loads(lab_cmd(env, 'status', '--json'))
            assert status['ready'] and status['tier'] == 1, start
            pids = [p for group in status['processes'].values() for p in group]
            ports = list(status['ports'].values())
            assert pids and all(lab.port_open(p) for p in ports)
            if start == 'warm':
                stubs_record_properties(RunningLab(env['NFV_OPENSTACK_LAB_DIR'], 1))

            lab_cmd(env, 'down')
            alive = [p for p in pids if (lab.proc_stat(p) or (0, 'Z'))[1] not in 'ZX']
            assert alive == []
            assert [p for p in ports if lab.port_open(p)] == []
            assert json.loads(lab_cmd(env, 'status', '--json'))['ready'] is False
    finally:
        subprocess.run([sys.executable, str(LAB_PY), 'down'], env=env, capture_output=True, check=False)


def stubs_record_properties(tier1_lab):
    """The stubs keep what the template passed, readable via `show`."""
    stacks = Stacks(tier1_lab.connect('nfvlab'), 'stub-records-properties')
    try:
        stack = stacks.create(load_template('vdu_port.yaml'), {'nfv': nfv('m1.tiny', 'net0')})
        stacks.patch(stack, {'nfv': nfv('m1.small', 'net1')})
        out = stacks.outputs(stack)
        assert out['server_show']['flavor'] == 'm1.small'
        assert out['server_show']['image'] == 'cirros'
        # A List property reaches a provider template as a comma_delimited_list (flattened).
        assert out['port_id'] in str(out['server_show']['networks'])
        port = stacks.resource(stack, 'VDU1_CP1')
        assert port['resource_status'] == 'UPDATE_COMPLETE'
    finally:
        stacks.delete_all()
