# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Which VIM a call goes to, and which driver (a folder of lcm/) runs it there, from its options alone: the one rule the
modules (lcm/modules.py) and the event sources (extensions/eda: vnfc_watcher, which watches a VIM and
every driver's instances on it) follow. Pure, and without Ansible's module code, which an event source does not have.

The VIM comes from ``vim_type``, the request's ``vimConnectionInfo``, the options only one VIM takes
(``cloud``, ``auth``, ... for OpenStack; ``kubeconfig``, ``host``, ... for Kubernetes), then the
environment (OS_CLOUD / OS_AUTH_URL / OS_CLIENT_CONFIG_FILE, K8S_AUTH_*); Kubernetes when nothing says otherwise. When two
of them at the same step disagree, it is an error: see vim_of.
"""

from __future__ import annotations

import os

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.args import K8S_AUTH_ENV, K8S_PROXY_HEADERS_ENV
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import private_state
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import KUBERNETES_VIM_TYPES, OPENSTACK_VIM_TYPES, is_helm_request

OPENSTACK = "openstack"
KUBERNETES = "kubernetes"
# Options (and the K8S_AUTH_* variables behind them) that only one VIM takes: setting one says which VIM
# is meant. validate_certs, ca_cert, client_cert and client_key apply to either VIM, so they say nothing.
KUBERNETES_SELECTORS = ("kubeconfig", "context", "host", "api_key", "username", "password", "proxy", "no_proxy",
                        "proxy_headers", "persist_config", "impersonate_user", "impersonate_groups")
OPENSTACK_SELECTORS = ("cloud", "auth", "auth_type", "region_name", "api_timeout", "sdk_log_path")
# What an openrc file (OS_AUTH_URL), a chosen cloud (OS_CLOUD) or an AWX OpenStack credential sets: AWX writes a
# clouds.yaml with one cloud and sets OS_CLIENT_CONFIG_FILE only, and openstacksdk then uses that one cloud.
OPENSTACK_ENVIRONMENT = ("OS_CLOUD", "OS_AUTH_URL", "OS_CLIENT_CONFIG_FILE")
AMBIGUOUS = "the VIM is ambiguous: {0}; set vim_type, or give the options of one VIM only"


def vim_of(params, environ=None):
    """``openstack`` or ``kubernetes`` for these module params; ValidationError when they do not say which.

    In order: ``vim_type``; the request's ``vimConnectionInfo`` when it names one VIM type; the options
    only one VIM takes; then the environment: K8S_AUTH_* (as options) or OS_CLOUD / OS_AUTH_URL /
    OS_CLIENT_CONFIG_FILE. Both VIMs
    at the same step is an error, never a choice.
    """
    environ = os.environ if environ is None else environ
    requested = requested_vims(params)
    chosen = params.get("vim_type")
    if chosen:
        if requested and chosen not in requested:
            raise ValidationError("module options", "vim_type", "{0}, but request.vimConnectionInfo names {1} VIMs only".format(
                chosen, " and ".join(sorted(requested))))
        return chosen
    given = {KUBERNETES: [name for name in KUBERNETES_SELECTORS if params.get(name) not in (None, "", [], {})],
             OPENSTACK: [name for name in OPENSTACK_SELECTORS if params.get(name) not in (None, "", {})]}
    if len(requested) == 1:
        (target,) = requested
        other = OPENSTACK if target == KUBERNETES else KUBERNETES
        if given[other] and not given[target]:
            raise ValidationError("module options", "request.vimConnectionInfo", "names a{0} {1} VIM, but {2} connection options are set ({3})".format(
                "n" if target == OPENSTACK else "", LABELS[target], LABELS[other], ", ".join(given[other])))
        return target
    if given[KUBERNETES] and given[OPENSTACK]:
        raise ValidationError("module options", "vim_type", AMBIGUOUS.format(
            "Kubernetes options ({0}) and OpenStack options ({1}) are both set".format(", ".join(given[KUBERNETES]), ", ".join(given[OPENSTACK]))))
    for target in (OPENSTACK, KUBERNETES):
        if given[target]:
            return target
    kubernetes_variables = [variable for name in KUBERNETES_SELECTORS for variable in K8S_AUTH_ENV.get(name, ())]
    from_environment = {KUBERNETES: [variable for variable in kubernetes_variables if environ.get(variable)],
                        OPENSTACK: [variable for variable in OPENSTACK_ENVIRONMENT if environ.get(variable)]}
    from_environment[KUBERNETES] += [variable for variable in K8S_PROXY_HEADERS_ENV.values() if environ.get(variable)]
    if from_environment[KUBERNETES] and from_environment[OPENSTACK]:
        raise ValidationError("module options", "vim_type", AMBIGUOUS.format("the environment has Kubernetes ({0}) and OpenStack ({1}) credentials".format(
            ", ".join(from_environment[KUBERNETES]), ", ".join(from_environment[OPENSTACK]))))
    return OPENSTACK if from_environment[OPENSTACK] else KUBERNETES


LABELS = {OPENSTACK: "OpenStack", KUBERNETES: "Kubernetes"}

# The drivers, each a folder of lcm/ with the same operation file names, and the VIM each runs on. Helm-chart CNFs share
# the Kubernetes VIM with manifest CNFs: driver_of tells them apart by the request, and a stored instance by its record
# (instance_driver).
CNF = "cnf"
VM = "vm"
HELM = "helm"
DRIVER_VIMS = {CNF: KUBERNETES, VM: OPENSTACK, HELM: KUBERNETES}
VIM_DRIVERS = {KUBERNETES: CNF, OPENSTACK: VM}
# The key of a record's private state (common/record_store.py) that holds an instance's Helm release (lcm/helm/state.py).
HELM_RELEASE = "helm"


class HandOver(Exception):
    """Raised by a driver that finds the instance it was to act on is another driver's (lcm/instance_run.py: locate):
    lcm/modules.py runs the operation again with ``driver``, before anything was written."""

    def __init__(self, driver):
        super().__init__(driver)
        self.driver = driver


def driver_of(params, environ=None):
    """The driver (a key of DRIVER_VIMS) that runs a call with these module params: Helm for a request that names a Helm
    chart or Tacker's ETSINFV.HELM.V_3 VIM, else the one of the VIM vim_of chooses. A call on a stored instance may be
    handed over to the instance's own driver (instance_driver)."""
    vim = vim_of(params, environ)
    if vim == KUBERNETES and is_helm_request(params.get("request")):
        return HELM
    return VIM_DRIVERS[vim]


def instance_driver(instance, driver):
    """The driver of a stored instance that ``driver`` found: Helm for one whose record holds a Helm release (instantiated,
    or being instantiated, from a chart), else ``driver`` (a record without one is any Kubernetes driver's: a terminated
    instance's, whose identifier vnf_terminate's delete_instance deletes next)."""
    return HELM if private_state(instance).get(HELM_RELEASE) else driver


def requested_vims(params):
    """The VIM types the request's vimConnectionInfo names (Tacker's vimType values)."""
    request = params.get("request")
    connections = request.get("vimConnectionInfo") if isinstance(request, dict) else None
    if not connections:
        return set()
    items = connections.values() if isinstance(connections, dict) else connections
    types = {(item or {}).get("vimType") for item in items if isinstance(item, dict) or item is None}
    found = set()
    if types & set(OPENSTACK_VIM_TYPES):
        found.add(OPENSTACK)
    if types & set(KUBERNETES_VIM_TYPES):
        found.add(KUBERNETES)
    return found
