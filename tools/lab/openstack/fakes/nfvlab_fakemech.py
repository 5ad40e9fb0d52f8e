"""ML2 mechanism driver that binds every port as OVS, with no agent.

Without it ML2 has nothing to bind with: ports end in binding_failed and
Nova's boot fails with PortBindingFailed.
"""
from neutron_lib.api.definitions import portbindings
from neutron_lib import constants
from neutron_lib.plugins.ml2 import api


class FakeMechanismDriver(api.MechanismDriver):

    def initialize(self):
        pass

    @property
    def connectivity(self):
        return portbindings.CONNECTIVITY_L2

    def bind_port(self, context):
        for segment in context.segments_to_bind:
            context.set_binding(
                segment[api.ID], portbindings.VIF_TYPE_OVS,
                {portbindings.CAP_PORT_FILTER: False, portbindings.OVS_HYBRID_PLUG: False},
                status=constants.PORT_STATUS_ACTIVE)
            return

    def check_vlan_transparency(self, context):
        return True
