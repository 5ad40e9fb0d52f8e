"""Lab set-up steps that talk to the APIs (run with the lab venv's python).

    register.py keystone LAB_JSON   users, roles, projects, services, endpoints
    register.py compute LAB_JSON    (tier 2) wait for the fake hypervisor, then create
                                    flavours, an image, a volume type and networks net0/net1

Idempotent: a warm start runs it again and only fixes what changed (endpoint ports).
"""
import io
import json
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import openstack

PASSWORD = 'secret'
REGION = 'RegionOne'
HOST = '127.0.0.1'
NODE = 'nfvlab'  # lab.py's: the fake hypervisor's host and node name
# service user -> (service type, service name, path after host:port)
SERVICES = {
    'heat': ('orchestration', 'heat', '/v1/%(tenant_id)s'),
    'placement': ('placement', 'placement', ''),
    'glance': ('image', 'glance', ''),
    'neutron': ('network', 'neutron', ''),
    'nova': ('compute', 'nova', '/v2.1'),
    'cinder': ('block-storage', 'cinder', '/v3/%(project_id)s'),
}
FLAVORS = {'m1.tiny': (1, 512, 1), 'm1.small': (1, 2048, 20), 'm1.medium': (2, 4096, 40)}
NETWORKS = {'net0': '10.10.0.0/24', 'net1': '10.11.0.0/24'}
# Neutron hands out .2-.199 on its own; .200-.254 only when a port asks for the address, so a test that
# sets a fixed address never finds it taken by a port of a test running beside it.
DYNAMIC_HOSTS = (2, 199)


def allocation_pools(cidr):
    prefix = cidr.rsplit('.', 1)[0]
    return [{'start': f'{prefix}.{DYNAMIC_HOSTS[0]}', 'end': f'{prefix}.{DYNAMIC_HOSTS[1]}'}]


def connect(info):
    url = f'http://{HOST}:{info["ports"]["keystone"]}/v3'
    # The catalog may still hold last start's ports: reach Keystone directly.
    return openstack.connect(cloud='nfvlab-admin', identity_endpoint_override=url)


def ensure(find, create, name, **attrs):
    return find(name) or create(name=name, **attrs)


def keystone(info):
    conn = connect(info)
    idn = conn.identity
    ports = info['ports']
    default = idn.find_domain('Default')
    roles = {r: ensure(idn.find_role, idn.create_role, r)
             for r in ('admin', 'member', 'reader', 'service', 'heat_stack_owner', 'heat_stack_user')}
    service = ensure(lambda n: idn.find_project(n, domain_id=default.id), idn.create_project,
                     'service', domain_id=default.id)
    demo = ensure(lambda n: idn.find_project(n, domain_id=default.id), idn.create_project,
                  'demo', domain_id=default.id)

    def user(name, project=None):
        return ensure(lambda n: idn.find_user(n, domain_id=default.id), idn.create_user, name,
                      domain_id=default.id, password=PASSWORD,
                      default_project_id=project.id if project else None)

    def grant(u, role, project=None, domain=None):
        if project:
            idn.assign_project_role_to_user(project, u, roles[role])
        else:
            idn.assign_domain_role_to_user(domain, u, roles[role])

    demo_user = user('demo', demo)
    for role in ('member', 'reader', 'heat_stack_owner'):
        grant(demo_user, role, project=demo)
    admin = idn.find_user('admin', domain_id=default.id)
    grant(admin, 'admin', project=demo)

    heat_domain = ensure(idn.find_domain, idn.create_domain, 'heat',
                         description='Heat stack user projects')
    heat_domain_admin = ensure(lambda n: idn.find_user(n, domain_id=heat_domain.id),
                               idn.create_user, 'heat_domain_admin',
                               domain_id=heat_domain.id, password=PASSWORD)
    grant(heat_domain_admin, 'admin', domain=heat_domain)

    wanted = ['heat'] + (['placement', 'glance', 'neutron', 'nova', 'cinder'] if info['tier'] == 2 else [])
    for name in wanted:
        u = user(name, service)
        for role in ('admin', 'service'):
            grant(u, role, project=service)
        stype, sname, path = SERVICES[name]
        endpoint(idn, stype, sname, f'http://{HOST}:{ports[name]}{path}')
    endpoint(idn, 'identity', 'keystone', f'http://{HOST}:{ports["keystone"]}/v3/')


def endpoint(idn, stype, name, url):
    svc = next((s for s in idn.services() if s.type == stype), None) \
        or idn.create_service(name=name, type=stype, is_enabled=True)
    for iface in ('public', 'internal', 'admin'):
        ep = next(iter(idn.endpoints(service_id=svc.id, interface=iface)), None)
        if ep is None:
            idn.create_endpoint(service_id=svc.id, interface=iface, url=url, region_id=REGION)
        elif ep.url != url:
            idn.update_endpoint(ep, url=url)


def compute(info, nova_manage):
    conn = connect(info)
    deadline = time.monotonic() + 300
    # The fake hypervisor registers some seconds after nova-compute starts; on a warm
    # start the old record is there at once, so wait for a report from this start.
    wait_service(conn.compute.services, 'nova-compute', info['starting'], deadline)
    # The compute node's record exists once placement has its resource provider; nova-api lists it as a hypervisor only
    # once discover_hosts has mapped its host (on a cold start: a warm one has the mapping).
    while not list(conn.placement.resource_providers(name=NODE)):
        if time.monotonic() > deadline:
            sys.exit('nova-compute made no resource provider')
        time.sleep(1)
    subprocess.run([nova_manage, '--config-file', nova_conf(info), 'cell_v2', 'discover_hosts'],
                   check=True, capture_output=True)
    while not list(conn.compute.hypervisors()):
        if time.monotonic() > deadline:
            sys.exit('no hypervisor appeared')
        time.sleep(1)
    for name, (vcpus, ram, disk) in FLAVORS.items():
        if not conn.compute.find_flavor(name):
            conn.compute.create_flavor(name=name, vcpus=vcpus, ram=ram, disk=disk, is_public=True)
    if not conn.image.find_image('cirros'):
        conn.image.create_image(name='cirros', disk_format='raw', container_format='bare',
                                visibility='public', data=io.BytesIO(b'\0' * 1024 * 1024))
    if not conn.block_storage.find_type('fake'):
        conn.block_storage.create_type(name='fake', is_public=True,
                                       extra_specs={'volume_backend_name': 'fake'})
    # Owned by the demo project (its members may then set fixed IPs on ports), shared for others.
    demo = conn.identity.find_project('demo', domain_id='default')
    for name, cidr in NETWORKS.items():
        net = conn.network.find_network(name) or conn.network.create_network(
            name=name, shared=True, project_id=demo.id)
        subnet = conn.network.find_subnet(f'{name}-subnet')
        if not subnet:
            conn.network.create_subnet(name=f'{name}-subnet', network_id=net.id, ip_version=4,
                                       cidr=cidr, project_id=demo.id, allocation_pools=allocation_pools(cidr))
        elif subnet.allocation_pools != allocation_pools(cidr):  # a lab state from before the pools
            conn.network.update_subnet(subnet, allocation_pools=allocation_pools(cidr))
    wait_service(conn.block_storage.services, 'cinder-volume', info['starting'], deadline)


def wait_service(services, binary, since, deadline):
    while True:
        for svc in services():
            updated = svc.updated_at and datetime.fromisoformat(svc.updated_at.rstrip('Z'))
            if (svc.binary == binary and svc.state == 'up' and updated
                    and updated.replace(tzinfo=timezone.utc).timestamp() >= since):
                return
        if time.monotonic() > deadline:
            sys.exit(f'{binary} did not report since this start')
        time.sleep(1)


def nova_conf(info):
    return str(Path(info['state_dir']) / 'etc' / 'nova' / 'nova.conf')


def main():
    step, info_file = sys.argv[1], Path(sys.argv[2])
    info = json.loads(info_file.read_text())
    info['state_dir'] = str(info_file.parent)
    if step == 'keystone':
        keystone(info)
    elif step == 'compute':
        compute(info, str(Path(sys.executable).parent / 'nova-manage'))
    else:
        sys.exit(f'unknown step {step}')


if __name__ == '__main__':
    main()
