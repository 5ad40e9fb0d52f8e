"""A stack whose top template takes the json parameter `nfv` is created, PATCHed and PUT
through a real Heat. On the tier-2 lab the template drives the real Nova and Neutron; on
tier 1 stub provider templates stand in for them (test_lab_lifecycle.py checks the stubs)."""
import json

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
