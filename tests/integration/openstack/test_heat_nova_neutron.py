"""Tier 2: stack PATCHes really resize a Nova server and really move a Neutron port
(Nova's fake driver, Neutron ML2 with an agent-less binding driver, Cinder's fake driver)."""
import pytest

from conftest import load_template

pytestmark = pytest.mark.tier2


def nfv(flavor, network, image='cirros'):
    return {'VDU': {'VDU1': {'computeFlavourId': flavor, 'vcImageId': image},
                    'VDU1-VirtualStorage': {'vcImageId': image, 'volumeType': 'fake'}},
            'CP': {'VDU1_CP1': {'network': network}}}


def flavor_name(server):
    return server.flavor.get('original_name') or server.flavor.get('name')


def server_ports(conn, server_id):
    return [(p.id, conn.network.get_network(p.network_id).name, p.status, p.binding_vif_type)
            for p in conn.network.ports(device_id=server_id)]


def test_patch_resizes_server_and_moves_port(tier2_lab, stacks, admin_conn):
    stack = stacks.create(load_template('vdu_port.yaml'), {'nfv': nfv('m1.tiny', 'net0')})
    out = stacks.outputs(stack)
    server_id, port_id = out['vdu1_id'], out['port_id']
    server = admin_conn.compute.get_server(server_id)
    assert (server.status, flavor_name(server)) == ('ACTIVE', 'm1.tiny')
    assert server_ports(admin_conn, server_id) == [(port_id, 'net0', 'ACTIVE', 'ovs')]

    # Flavour change by PATCH: a real resize of the same server (Heat confirms it).
    before = stacks.event_ids(stack)
    stacks.patch(stack, {'nfv': nfv('m1.small', 'net0')})
    server = admin_conn.compute.get_server(server_id)
    assert (server.id, server.status, flavor_name(server)) == (server_id, 'ACTIVE', 'm1.small')
    assert ('UPDATE', 'COMPLETE') in stacks.resource_events(stack, 'VDU1', after=before)

    # Network change by PATCH: Heat replaces the port and swaps the server's interface.
    stacks.patch(stack, {'nfv': nfv('m1.small', 'net1')})
    out = stacks.outputs(stack)
    assert out['vdu1_id'] == server_id
    assert out['port_id'] != port_id
    assert server_ports(admin_conn, server_id) == [(out['port_id'], 'net1', 'ACTIVE', 'ovs')]
    assert [i.port_id for i in admin_conn.compute.server_interfaces(server_id)] == [out['port_id']]
    assert admin_conn.network.find_port(port_id) is None
    server = admin_conn.compute.get_server(server_id)
    assert (server.status, flavor_name(server)) == ('ACTIVE', 'm1.small')


def test_volume_booted_server_resized_by_patch(tier2_lab, stacks, admin_conn):
    stack = stacks.create(load_template('vdu_volume.yaml'), {'nfv': nfv('m1.tiny', 'net0')})
    out = stacks.outputs(stack)
    server_id, volume_id = out['vdu1_id'], out['volume_id']
    volume = admin_conn.block_storage.get_volume(volume_id)
    assert volume.status == 'in-use'
    assert volume.is_bootable
    assert volume.volume_type == 'fake'
    assert [a['server_id'] for a in volume.attachments] == [server_id]
    server = admin_conn.compute.get_server(server_id)
    assert (server.status, flavor_name(server)) == ('ACTIVE', 'm1.tiny')
    assert not server.image.get('id')  # booted from the volume, not from an image

    stacks.patch(stack, {'nfv': nfv('m1.small', 'net0')})
    server = admin_conn.compute.get_server(server_id)
    assert (server.id, server.status, flavor_name(server)) == (server_id, 'ACTIVE', 'm1.small')
    volume = admin_conn.block_storage.get_volume(volume_id)
    assert (volume.status, [a['server_id'] for a in volume.attachments]) == ('in-use', [server_id])
