"""A stack whose top template takes the json parameter `nfv` is created, PATCHed and PUT
through a real Heat. On tier 1, stub provider templates stand in for Nova and Neutron;
on tier 2 the same template drives the real services."""
import json

import pytest

from conftest import load_template


def nfv(flavor, network='net0', image='cirros'):
    return {'VDU': {'VDU1': {'computeFlavourId': flavor, 'vcImageId': image}},
            'CP': {'VDU1_CP1': {'network': network}}}


def test_create_patch_put_outputs(stacks):
    template = load_template('vdu_port.yaml')
    stack = stacks.create(template, {'nfv': nfv('m1.tiny'), 'greeting': 'created'})
    out = stacks.outputs(stack)
    assert out['flavor'] == 'm1.tiny'
    assert out['greeting'] == 'created'
    server_id = out['vdu1_id']
    assert server_id and out['port_id']

    # PATCH (existing semantics): only nfv is sent, `greeting` keeps its value.
    before = stacks.event_ids(stack)
    stacks.patch(stack, {'nfv': nfv('m1.small')})
    out = stacks.outputs(stack)
    assert out['flavor'] == 'm1.small'
    assert out['greeting'] == 'created'
    assert out['vdu1_id'] == server_id
    assert ('UPDATE', 'COMPLETE') in stacks.resource_events(stack, 'VDU1', after=before)
    assert stacks.resource(stack, 'VDU1')['resource_status'] == 'UPDATE_COMPLETE'
    assert stacks.resource(stack, 'note')['resource_status'] == 'CREATE_COMPLETE'
    params = stacks.get(stack)['parameters']
    assert json.loads(params['nfv'])['VDU']['VDU1']['computeFlavourId'] == 'm1.small'

    # PUT: parameters not sent go back to their defaults.
    before = stacks.event_ids(stack)
    stacks.put(stack, template, {'nfv': nfv('m1.medium')})
    out = stacks.outputs(stack)
    assert out['flavor'] == 'm1.medium'
    assert out['greeting'] == 'hello'
    assert out['vdu1_id'] == server_id
    assert ('UPDATE', 'COMPLETE') in stacks.resource_events(stack, 'VDU1', after=before)


def test_stub_records_properties(openstack_lab, stacks):
    """Tier 1 only: the stubs keep what the template passed, readable via `show`."""
    if openstack_lab.tier != 1:
        pytest.skip('the stubs are used on tier 1 only')
    stack = stacks.create(load_template('vdu_port.yaml'), {'nfv': nfv('m1.tiny', 'net0')})
    stacks.patch(stack, {'nfv': nfv('m1.small', 'net1')})
    out = stacks.outputs(stack)
    assert out['server_show']['flavor'] == 'm1.small'
    assert out['server_show']['image'] == 'cirros'
    # A List property reaches a provider template as a comma_delimited_list (flattened).
    assert out['port_id'] in str(out['server_show']['networks'])
    port = stacks.resource(stack, 'VDU1_CP1')
    assert port['resource_status'] == 'UPDATE_COMPLETE'
