# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""nfv.vnflcm.vnfc_watcher: an event source that watches the pods of the recorded CNFs and emits heal events."""

from __future__ import annotations

DOCUMENTATION = r"""
---
short_description: Watch the VNFCs of VNF instances and emit auto-heal events when their pods or servers fail.
description:
  - Needs no Prometheus. On Kubernetes (O(vim_type=kubernetes), the default) it follows the VNF instance records
    this collection keeps (Secrets labelled as records) and the pods of their namespaces with the Kubernetes watch
    API; when a watch breaks it lists again and watches again, with a bounded backoff.
  - "A VNFC is the pod its record names (C(vnfcResourceInfo[].metadata.podUid)). It is reported when that pod is
    deleted or terminating, has ended (phase Failed or Succeeded), or has not been Ready for O(grace_period) seconds.
    A fault is checked again on a fresh read of the record and the pod before it is reported, and is reported once
    per pod."
  - "Instances that are not INSTANTIATED are left alone, and so are instances with an operation running (an op occ
    STARTING, or PROCESSING or ROLLING_BACK with a live lease): a heal, scale or package change replaces pods itself.
    An op occ whose runner is gone or whose lease expired does not hold the watcher back; the playbook the rulebook
    runs takes it over."
  - "The faults of one VNF are gathered for O(heal_window) seconds from the first one and leave as one event, as
    nfv.vnflcm.alertmanager emits them: one key, C(nfv_vnflcm), holding C(function_type) (V(auto_heal)),
    C(vnf_instance_id), C(vnfc_info_ids) (C(vnfcInfo) ids of the record), C(first_alert_at) (when the first fault was
    seen), C(source) (V(watcher)) and C(alerts), one C({fingerprint, startsAt, labels}) per fault, whose labels are
    C(vnf_instance_id), C(vnfc_info_id), C(namespace), C(pod), C(pod_uid) and C(reason) (V(deleted), V(ended) or
    V(not ready))."
  - On Kubernetes it reads Secrets and pods (C(list), C(watch), C(get)) in the namespaces it watches.
  - "On OpenStack (O(vim_type=openstack), or when O(cloud) or O(auth) is given) it polls every O(interval) seconds the
    records of the project's VNF stacks and the project's servers. A VNFC whose server is in ERROR or SHUTOFF, or gone,
    is reported once the record is read again unchanged and the server again in fault; the labels of its alert are
    C(vnf_instance_id), C(vnfc_info_id), C(server_id) and C(reason) (V(error), V(shutoff) or V(gone))."
options:
  vim_type:
    description: Where the VNFs run.
    type: str
    choices: [kubernetes, openstack]
    default: kubernetes
  interval:
    description: OpenStack only; seconds between two polls of the records and servers.
    type: float
    default: 30
  namespace:
    description: The namespace to watch (records and pods). Mutually exclusive with O(namespaces) and O(all_namespaces).
    type: str
  namespaces:
    description: The namespaces to watch.
    type: list
    elements: str
  all_namespaces:
    description:
      - Watch the records and pods of every namespace (needs cluster-wide read access to Secrets and pods).
      - When none of O(namespace), O(namespaces) and O(all_namespaces) is given, the kubeconfig context's namespace
        is watched, else C(default).
    type: bool
    default: false
  grace_period:
    description: Seconds a recorded pod may stay not Ready before it is reported.
    type: float
    default: 60
  heal_window:
    description: Seconds during which the faults of one VNF are gathered into one event.
    type: float
    default: 30
  drift_interval:
    description:
      - "Kubernetes: every this many seconds, also read the drift of each INSTANTIATED CNF of def files (one whose
        record keeps its deployed manifests) that no operation is working on, as M(nfv.vnflcm.vnf_info) with
        C(drift=true) reads it (one LIST per kind, a server-side apply in dry run per object; nothing stored), and emit
        one event per VNF whose drift is new or changed since it was last reported: C(nfv_vnflcm) holding
        C(function_type) (V(drift)), C(vnf_instance_id), C(vnf_instance_name), C(namespace), C(drifted), C(objects)
        (each C(kind), C(name), C(status) and the C(paths) of its changed fields, never their values),
        C(first_alert_at) and C(source) (V(watcher)). The rulebook C(nfv.vnflcm.drift) repairs or reports it."
      - "It then also reads the instances' objects (C(list), C(get)) and needs the right to C(patch) them (a dry run
        stores nothing). V(0): drift is not read."
    type: float
    default: 0
  watch_timeout:
    description: Seconds after which each watch is ended by the API server and the source lists and watches again.
    type: int
    default: 300
  max_backoff:
    description: The longest wait (seconds) between attempts when the API server cannot be reached.
    type: float
    default: 30
  kubeconfig:
    description: Path to a kubeconfig file, or its content as a dictionary (E(K8S_AUTH_KUBECONFIG), then E(KUBECONFIG), C(~/.kube/config), in-cluster).
    type: raw
  context:
    description: The kubeconfig context to use (E(K8S_AUTH_CONTEXT)).
    type: str
  host:
    description: The URL of the API server (E(K8S_AUTH_HOST)).
    type: str
  api_key:
    description: A bearer token for the API server (E(K8S_AUTH_API_KEY)).
    type: str
  validate_certs:
    description: Whether to verify the API server's certificate (E(K8S_AUTH_VERIFY_SSL)).
    type: bool
  ca_cert:
    description: A CA bundle for the API server's certificate (E(K8S_AUTH_SSL_CA_CERT)).
    type: path
  client_cert:
    description: A client certificate (E(K8S_AUTH_CERT_FILE)).
    type: path
  client_key:
    description: The client certificate's key (E(K8S_AUTH_KEY_FILE)).
    type: path
  cloud:
    description: OpenStack only; a cloud of C(clouds.yaml) by name, or its settings as a dictionary (as the collection's modules take it).
    type: raw
  auth:
    description: OpenStack only; the authentication dictionary (C(auth_url), C(username), ...) as openstack.cloud takes it.
    type: dict
  region_name:
    description: OpenStack only; the region.
    type: str
notes:
  - The other connection options of the collection's modules (C(username), C(password), C(proxy), C(no_proxy),
    C(proxy_headers), C(persist_config), C(impersonate_user), C(impersonate_groups)) and their E(K8S_AUTH_*)
    variables are read the same way; so are OpenStack's C(auth_type), C(interface) and C(api_timeout), and E(OS_CLOUD)
    and the E(OS_*) variables when neither O(cloud) nor O(auth) is given with O(vim_type=openstack).
"""

EXAMPLES = r"""
- name: Heal VM-based VNFs whose servers fail
  hosts: localhost
  sources:
    - nfv.vnflcm.vnfc_watcher:
        vim_type: openstack
        cloud: mycloud
        interval: 30
  rules:
    - name: Heal the VNFCs of one VNF
      condition: event.nfv_vnflcm.function_type == "auto_heal"
      action:
        run_playbook:
          name: nfv.vnflcm.auto_heal

- name: Heal CNFs whose pods fail, without Prometheus
  hosts: localhost
  sources:
    - nfv.vnflcm.vnfc_watcher:
        namespaces: [cnf-a, cnf-b]
        grace_period: 60
        heal_window: 30
  rules:
    - name: Heal the VNFCs of one VNF
      condition: event.nfv_vnflcm.function_type == "auto_heal"
      action:
        run_playbook:
          name: nfv.vnflcm.auto_heal
"""

import asyncio
import datetime
import json
import logging
import pathlib
import sys
import threading
import time
from typing import Any, Dict

try:
    from ansible_collections.nfv.vnflcm.plugins.module_utils.eda.gather import DEFAULT_HEAL_WINDOW, Gatherer, Pump
except ImportError:
    # ansible-rulebook runs a source file by its path: the collections tree it sits in is not importable by itself.
    _ROOT = pathlib.Path(__file__).resolve().parents[7]
    if _ROOT.joinpath("ansible_collections", "nfv", "vnflcm").is_dir() and str(_ROOT) not in sys.path:
        sys.path.append(str(_ROOT))
    from ansible_collections.nfv.vnflcm.plugins.module_utils.eda.gather import DEFAULT_HEAL_WINDOW, Gatherer, Pump
from ansible_collections.nfv.vnflcm.plugins.module_utils.eda.alerts import AUTO_HEAL, format_time
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.record import read_record, record_name, records_selector
from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.vnfc_faults import FaultTracker
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.lease import LIVE, lease_status
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.drivers import vim_of
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ

LOGGER = logging.getLogger("nfv.vnflcm.vnfc_watcher")
SOURCE = "watcher"
# Without a change, look again this often (an unconfirmed fault is proposed again).
IDLE_LOOK_SECONDS = 5
OWN_OPTIONS = {"namespace": None, "namespaces": None, "all_namespaces": False, "grace_period": 60, "heal_window": DEFAULT_HEAL_WINDOW,
               "watch_timeout": 300, "max_backoff": 30, "interval": 30, "drift_interval": 0}
OPENSTACK_OPTIONS = ("cloud", "auth", "auth_type", "region_name", "interface", "api_timeout")


def options(args):
    """The source's own options with defaults, and the connection options (the modules' names); ValueError if wrong."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.client import AUTH_OPTIONS
    args = {key: value for key, value in (args or {}).items() if value is not None}
    try:
        # The modules' rule (the options only one VIM takes), without the environment: a rulebook says what it watches.
        vim_type = vim_of(args, environ={})
    except ValidationError as error:
        raise ValueError("nfv.vnflcm.vnfc_watcher: {0}".format(error.msg)) from None
    args.pop("vim_type", None)
    if vim_type not in ("kubernetes", "openstack"):
        raise ValueError("nfv.vnflcm.vnfc_watcher: vim_type must be kubernetes or openstack")
    allowed = set(AUTH_OPTIONS) if vim_type == "kubernetes" else {"validate_certs", "ca_cert", "client_cert", "client_key"} | set(OPENSTACK_OPTIONS)
    unknown = sorted(set(args) - set(OWN_OPTIONS) - allowed)
    if unknown:
        raise ValueError("nfv.vnflcm.vnfc_watcher: unknown option(s) {0}".format(", ".join(unknown)))
    result = dict(OWN_OPTIONS)
    result.update({key: value for key, value in args.items() if key in OWN_OPTIONS})
    if sum(1 for name in ("namespace", "namespaces", "all_namespaces") if result[name]) > 1:
        raise ValueError("nfv.vnflcm.vnfc_watcher: give one of namespace, namespaces and all_namespaces")
    names = result["namespaces"]
    if names is not None and (not isinstance(names, list) or not all(isinstance(item, str) and item for item in names)):
        raise ValueError("nfv.vnflcm.vnfc_watcher: namespaces must be a list of namespace names")
    for name in ("grace_period", "heal_window", "watch_timeout", "max_backoff", "interval", "drift_interval"):
        if isinstance(result[name], str):
            try:
                result[name] = float(result[name])
            except ValueError:
                pass
        if isinstance(result[name], bool) or not isinstance(result[name], (int, float)) or result[name] < 0:
            raise ValueError("nfv.vnflcm.vnfc_watcher: {0} must be a non-negative number of seconds".format(name))
    if vim_type == "openstack" and any(result[name] for name in ("namespace", "namespaces", "all_namespaces")):
        raise ValueError("nfv.vnflcm.vnfc_watcher: namespaces are for vim_type kubernetes")
    if vim_type == "openstack" and result["drift_interval"]:
        raise ValueError("nfv.vnflcm.vnfc_watcher: drift_interval: drift is read on Kubernetes only")
    result["vim_type"] = vim_type
    connection = {key: value for key, value in args.items() if key in allowed}
    return result, connection


def operation_running(op_occs, now=None):
    """Whether an operation is working on the instance: STARTING, or running with a live lease."""
    now = now or datetime.datetime.now(datetime.timezone.utc)
    for op_occ in op_occs:
        if op_occ.get("operationState") == occ.STARTING or lease_status(op_occ, now)[0] == LIVE:
            return True
    return False


def heal_request(fault):
    """The Gatherer's request for a confirmed fault (what an alert would have asked)."""
    names = ("vnf_instance_id", "vnfc_info_id", "namespace", "pod", "pod_uid", "server_id", "reason")
    labels = {key: str(fault[key] or "") for key in names if key in fault}
    resource = fault.get("server_id") or fault.get("pod_uid") or fault.get("pod")
    return {"function_type": AUTO_HEAL, "vnf_instance_id": fault["vnf_instance_id"], "vnfc_info_id": fault["vnfc_info_id"],
            "fingerprint": "watcher:{0}:{1}".format(resource, fault["reason"].replace(" ", "_")),
            "startsAt": format_time(fault["seen_at"]), "started": fault["seen_at"], "labels": labels}


class Follower:
    """A local copy of one kind of object in one namespace (or all), kept by list then watch, in a thread.

    ``transform(obj)`` turns an object into what is kept (None: not kept); ``changed()`` is called on every change.
    """

    def __init__(self, what, list_call, kwargs, key, transform, changed, watch_timeout, max_backoff, api_client):
        self.what, self.list_call, self.kwargs = what, list_call, kwargs
        self.key, self.transform, self.changed = key, transform, changed
        self.watch_timeout, self.max_backoff = watch_timeout, max_backoff
        self.api_client = api_client
        self.objects = {}
        self.synced = False
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="vnfc-watcher " + what, daemon=True)
        self.watch = None

    def start(self):
        self.thread.start()

    def stop(self):
        self.stopping.set()
        if self.watch is not None:
            self.watch.stop()

    def snapshot(self):
        with self.lock:
            return list(self.objects.values())

    def _keep(self, objects, obj):
        kept = self.transform(obj)
        if kept is None:
            objects.pop(self.key(obj), None)
        else:
            objects[self.key(obj)] = kept

    def _run(self):
        from kubernetes import watch
        from kubernetes.client.rest import ApiException
        first_backoff = backoff = min(1.0, self.max_backoff)
        while not self.stopping.is_set():
            try:
                listing = self.api_client.sanitize_for_serialization(self.list_call(**self.kwargs, _request_timeout=60))
                objects = {}
                for obj in listing.get("items") or []:
                    self._keep(objects, obj)
                with self.lock:
                    self.objects, self.synced = objects, True
                self.changed()
                backoff = first_backoff
                self.watch = watch.Watch()
                since = listing["metadata"]["resourceVersion"]
                for event in self.watch.stream(self.list_call, resource_version=since, timeout_seconds=max(1, int(self.watch_timeout)),
                                               _request_timeout=self.watch_timeout + 30, **self.kwargs):
                    if self.stopping.is_set():
                        return
                    obj = event.get("raw_object") or {}
                    with self.lock:
                        if event["type"] == "DELETED":
                            self.objects.pop(self.key(obj), None)
                        elif event["type"] in ("ADDED", "MODIFIED"):
                            self._keep(self.objects, obj)
                    self.changed()
                # The API server ended the watch (watch_timeout): list and watch again.
            except ApiException as exc:
                if exc.status == 410:
                    continue
                LOGGER.warning("%s: %s; listing again in %.0f s", self.what, exc.reason or exc, backoff)
                self.stopping.wait(backoff)
                backoff = min(backoff * 2, self.max_backoff)
            except Exception as exc:  # a broken connection, an unreachable API server: try again, never die
                LOGGER.warning("%s: %s; listing again in %.0f s", self.what, exc, backoff)
                self.stopping.wait(backoff)
                backoff = min(backoff * 2, self.max_backoff)


def _uid_of(obj):
    return (obj.get("metadata") or {}).get("uid") or "{0}/{1}".format(obj["metadata"].get("namespace"), obj["metadata"].get("name"))


def _decoded_record(secret):
    """``(instance, op_occs)`` of a record Secret; a damaged record is reported and skipped, never fatal."""
    try:
        instance, op_occs, _version = read_record(secret)
        return instance, op_occs
    except Exception as exc:
        LOGGER.warning("skipping %s", exc)
        return None


class Watcher:
    """Followers of records and pods, the fault tracker, and the confirmations on fresh reads."""

    def __init__(self, core, api_client, namespaces, opts, changed):
        self.core = core
        self.opts = opts
        self.tracker = FaultTracker(opts["grace_period"])
        common = dict(key=_uid_of, changed=changed, watch_timeout=opts["watch_timeout"], max_backoff=opts["max_backoff"], api_client=api_client)
        self.followers = []
        for namespace in namespaces:
            if namespace is None:
                self.followers.append(Follower("records", core.list_secret_for_all_namespaces, {"label_selector": records_selector()},
                                               transform=_decoded_record, **common))
                self.followers.append(Follower("pods", core.list_pod_for_all_namespaces, {}, transform=lambda pod: pod, **common))
            else:
                self.followers.append(Follower("records in " + namespace, core.list_namespaced_secret,
                                               {"namespace": namespace, "label_selector": records_selector()}, transform=_decoded_record, **common))
                self.followers.append(Follower("pods in " + namespace, core.list_namespaced_pod, {"namespace": namespace},
                                               transform=lambda pod: pod, **common))
        self.api_client = api_client

    def start(self):
        for follower in self.followers:
            follower.start()

    def stop(self):
        for follower in self.followers:
            follower.stop()

    def synced(self):
        return all(follower.synced for follower in self.followers)

    def candidates(self, now, wall_now):
        records = [item for follower in self.followers if follower.what.startswith("records") for item in follower.snapshot()]
        pods = [item for follower in self.followers if follower.what.startswith("pods") for item in follower.snapshot()]
        return self.tracker.candidates(records, pods, operation_running, now, wall_now)

    def confirm(self, fault):
        """Blocking: read the record, then the pod, again; whether the fault stands."""
        from kubernetes.client.rest import ApiException
        namespace = fault["namespace"]
        try:
            secret = self.core.read_namespaced_secret(record_name(fault["vnf_instance_id"]), fault["record_namespace"], _request_timeout=30)
            instance, op_occs, _version = read_record(self.api_client.sanitize_for_serialization(secret))
        except ApiException as exc:
            if exc.status == 404:
                return False
            raise
        try:
            pod = self.api_client.sanitize_for_serialization(self.core.read_namespaced_pod(fault["pod"], namespace, _request_timeout=30))
        except ApiException as exc:
            if exc.status != 404:
                raise
            pod = None
        return self.tracker.confirm(fault, instance, op_occs, pod, operation_running)


class ServerPoller:
    """OpenStack: the project's records (its stacks) and servers, read every ``interval`` seconds (blocking calls)."""

    def __init__(self, conn):
        from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.stack import Stacks
        from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.vnfc_faults import ServerFaultTracker
        self.conn = conn
        self.stacks = Stacks(conn)
        self.tracker = ServerFaultTracker()

    def store(self):
        from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import HeatRecordStore
        return HeatRecordStore(self.stacks)

    def candidates(self, wall_now):
        records = self.store().list()
        statuses = {server.id: server.status for server in self.conn.compute.servers()}
        return self.tracker.candidates(records, statuses, operation_running, wall_now)

    def confirm(self, fault):
        """The record unchanged since the servers were listed (no operation came in between), and the server really
        in fault: read again."""
        from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.vnfc_faults import server_fault
        found = self.store().find(fault["vnf_instance_id"])
        if found is None or found[2] != fault["version"]:
            return False
        server = self.conn.compute.find_server(fault["server_id"], ignore_missing=True)
        return server_fault(server.status if server is not None else None) == fault["reason"]


async def poll_loop(poller, pump, interval, max_backoff=30):
    """Every ``interval`` seconds: the candidates, each confirmed, then handed to the pump; errors back off (bounded)."""
    first_backoff = backoff = min(1.0, max_backoff)
    while True:
        try:
            faults = await asyncio.to_thread(poller.candidates, datetime.datetime.now(datetime.timezone.utc))
            backoff = first_backoff
        except Exception as exc:  # an unreachable cloud: try again, never die
            LOGGER.warning("polling the cloud: %s; again in %.0f s", exc, backoff)
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, max_backoff)
            continue
        for fault in faults:
            try:
                confirmed = await asyncio.to_thread(poller.confirm, fault)
            except Exception as exc:
                LOGGER.warning("could not check %s of VNF %s again: %s", fault["vnfc_info_id"], fault["vnf_instance_id"], exc)
                continue
            if confirmed:
                LOGGER.info("VNFC %s of VNF %s: server %s %s", fault["vnfc_info_id"], fault["vnf_instance_id"], fault["server_id"], fault["reason"])
                poller.tracker.mark_reported(fault)
                await pump.add([heal_request(fault)])
        await asyncio.sleep(interval)


def namespaces_to_watch(opts, context_namespace):
    if opts["all_namespaces"]:
        return [None]
    if opts["namespaces"]:
        return sorted(set(opts["namespaces"]))
    return [opts["namespace"] or context_namespace or "default"]


async def watch_loop(watcher, pump, wake, clock=time.monotonic):
    """Look again on every change (and when a grace period ends); confirm each candidate, then hand it to the pump."""
    while True:
        # Cleared before looking, so that a change seen while looking brings the next look at once.
        wake.clear()
        if watcher.synced():
            for fault in watcher.candidates(clock(), datetime.datetime.now(datetime.timezone.utc)):
                try:
                    confirmed = await asyncio.to_thread(watcher.confirm, fault)
                except Exception as exc:
                    LOGGER.warning("could not check %s of VNF %s again: %s", fault["vnfc_info_id"], fault["vnf_instance_id"], exc)
                    continue
                if confirmed:
                    LOGGER.info("VNFC %s of VNF %s: pod %s/%s %s", fault["vnfc_info_id"], fault["vnf_instance_id"], fault["namespace"], fault["pod"],
                                fault["reason"])
                    watcher.tracker.mark_reported(fault)
                    await pump.add([heal_request(fault)])
        wait = watcher.tracker.seconds_to_next(clock()) if watcher.synced() else None
        try:
            await asyncio.wait_for(wake.wait(), timeout=max(wait, 0.05) if wait is not None else IDLE_LOOK_SECONDS)
        except asyncio.TimeoutError:
            pass


async def drift_loop(watcher, reader, queue, interval):
    """Every ``interval`` seconds once the records are listed: the drift events of the watched records, put on ``queue``."""
    while True:
        if watcher.synced():
            records = [item for follower in watcher.followers if follower.what.startswith("records") for item in follower.snapshot()]
            events, errors = await asyncio.to_thread(reader.tracker.events, records, operation_running, reader.read,
                                                     datetime.datetime.now(datetime.timezone.utc), SOURCE)
            for instance_id, error in errors:
                LOGGER.warning("could not read the drift of VNF %s: %s", instance_id, error)
            for event in events:
                body = event["nfv_vnflcm"]
                LOGGER.info("VNF %s: drift of %d object(s) (%s)", body["vnf_instance_id"], body["drifted"],
                            ", ".join("{0} {1} {2}".format(item["kind"], item["name"], item["status"]) for item in body["objects"]))
                await queue.put(event)
        await asyncio.sleep(interval)


class DriftReader:
    """The drift of an instance, read as vnf_info reads it (lcm/cnf/drift.py), and what was reported (eda/drift.py)."""

    def __init__(self, api_client):
        from ansible_collections.nfv.vnflcm.plugins.module_utils.eda.drift import DriftTracker
        from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.api import KubeApi
        self.api = KubeApi(api_client)
        self.tracker = DriftTracker()

    def read(self, instance):
        from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.cnf.drift import instance_drift
        return instance_drift(self.api, instance)


async def main(queue: asyncio.Queue, args: Dict[str, Any]) -> None:
    """The entry point ansible-rulebook calls."""
    opts, connection = options(args)
    if opts["vim_type"] == "openstack":
        await main_openstack(queue, opts, connection)
        return
    from kubernetes import client as k8s_client
    from kubernetes.client import rest as k8s_rest
    from ansible_collections.nfv.vnflcm.plugins.module_utils.k8s.client import build_api_client, connection_options
    api_client, context_namespace = build_api_client(connection_options(connection))
    namespaces = namespaces_to_watch(opts, context_namespace)
    # Each watch holds a connection the whole time: room for all of them, and for the confirmations' reads.
    needed = 2 * len(namespaces) + 4 + (8 if opts["drift_interval"] else 0)
    if (api_client.configuration.connection_pool_maxsize or 0) < needed:
        api_client.configuration.connection_pool_maxsize = needed
        api_client.rest_client = k8s_rest.RESTClientObject(api_client.configuration)
    loop = asyncio.get_running_loop()
    wake = asyncio.Event()
    watcher = Watcher(k8s_client.CoreV1Api(api_client), api_client, namespaces, opts, lambda: loop.call_soon_threadsafe(wake.set))
    pump = Pump(Gatherer(SOURCE, opts["heal_window"]), queue, LOGGER)
    LOGGER.info("watching the VNFCs of %s", "every namespace" if namespaces == [None] else ", ".join(namespaces))
    watcher.start()
    pumping = asyncio.ensure_future(pump.run())
    drifting = asyncio.ensure_future(drift_loop(watcher, DriftReader(api_client), queue, opts["drift_interval"])) if opts["drift_interval"] else None
    try:
        await watch_loop(watcher, pump, wake)
    finally:
        watcher.stop()
        pumping.cancel()
        if drifting is not None:
            drifting.cancel()


async def main_openstack(queue, opts, connection):
    from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import cloud
    conn = await asyncio.to_thread(cloud.connect, cloud.connection_options(connection))
    pump = Pump(Gatherer(SOURCE, opts["heal_window"]), queue, LOGGER)
    LOGGER.info("polling the servers of the VNFs of the OpenStack project every %s s", opts["interval"])
    pumping = asyncio.ensure_future(pump.run())
    try:
        await poll_loop(ServerPoller(conn), pump, opts["interval"], opts["max_backoff"])
    finally:
        pumping.cancel()


if __name__ == "__main__":
    # Try it by hand: python vnfc_watcher.py <namespace> (kubeconfig from KUBECONFIG or ~/.kube/config).

    class PrintQueue:
        async def put(self, event):
            print(json.dumps(event), flush=True)

    logging.basicConfig(level=logging.INFO)
    asyncio.run(main(PrintQueue(), {"namespace": sys.argv[1] if len(sys.argv) > 1 else None, "heal_window": 2, "grace_period": 10}))
