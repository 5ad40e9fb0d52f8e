# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What the drivers of both VIMs (lcm/cnf/, lcm/vm/) share about a VNF instance and its operations."""

from __future__ import annotations

import copy

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.deadline import Deadline
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ValidationError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.name_claim import name_taken
from ansible_collections.nfv.vnflcm.plugins.module_utils.common import record_store
from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm import lease
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol import op_occ as occ

# sol/sizing.py and sol/validation.py are imported by the functions that use them: vnf_info, which imports this module
# for info_result, does without them (and without the schemas they import) on every call.

# Collection-private state inside instantiatedVnfInfo.metadata: what later operations need without the package (the
# flavour's sizing rules) and what terminate may delete. Its key is the record stores' (common/record_store.py), its
# layout each driver's (common/record_store.py PrivateState and lcm/<driver>/state.py).
PRIVATE = record_store.PRIVATE
private_state = record_store.private_state
# The private-state key of a CNF's VDU replicas (VDU id -> count; lcm/cnf/state.py KubernetesState).
VNFC_COUNTS = "vnfc_counts"


class Waits:
    """How an operation waits: ``enabled``, ``timeout`` and ``sleep`` seconds."""

    def __init__(self, enabled=True, timeout=600, sleep=2):
        self.enabled = enabled
        self.timeout = timeout
        self.sleep = sleep

    def deadline(self):
        return Deadline(self.timeout, self.sleep)


def vnfc_counts(instance):
    """VDU id -> VNFCs the record says the instance has: what a scale starts from (sol/sizing.py's count model). A VM-based
    VNF's record keeps its VNFC indexes, a CNF's its VDUs' replicas (a record of an older version: its VNFCs)."""
    private = private_state(instance)
    if isinstance(private.get("vnfcs"), dict):
        return {vdu_id: len(indexes) for vdu_id, indexes in private["vnfcs"].items()}
    if isinstance(private.get(VNFC_COUNTS), dict):
        return dict(private[VNFC_COUNTS])
    counts = {}
    for vnfc in (instance.get("instantiatedVnfInfo") or {}).get("vnfcResourceInfo") or []:
        counts[vnfc["vduId"]] = counts.get(vnfc["vduId"], 0) + 1
    return counts


def sizing_rules(flavour):
    """The part of the flavour that scale and heal need, kept in the record so they need no package."""
    keys = ("vdus", "scaling_aspects", "instantiation_levels", "default_instantiation_level", "vdu_initial_delta")
    return {key: copy.deepcopy(flavour.get(key)) for key in keys}


def level_diff(aspect_id, before, after):
    return {"before": {"scaleStatus": {aspect_id: before}}, "after": {"scaleStatus": {aspect_id: after}}}


def levels_diff(changes):
    """The diff of a scale to level from sizing.changed_levels' ``{aspect: (from, to)}``."""
    return {"before": {"scaleStatus": {aspect_id: levels[0] for aspect_id, levels in changes.items()}},
            "after": {"scaleStatus": {aspect_id: levels[1] for aspect_id, levels in changes.items()}}}


def with_scale_levels(scale_status, levels):
    """A scaleStatus list with the aspects of ``levels`` (aspect id -> level) at their new level."""
    result = [dict(item, scaleLevel=levels[item["aspectId"]]) if item["aspectId"] in levels else item for item in scale_status or []]
    known = {item["aspectId"] for item in result}
    return result + [{"aspectId": aspect_id, "scaleLevel": level} for aspect_id, level in sorted(levels.items()) if aspect_id not in known]


def scaled_aspects(flavour, failed_op_occ, current_levels):
    """The aspects a SCALE or SCALE_TO_LEVEL op occ set out to change, from its request and the levels before it."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.sizing import changed_levels, target_scale_levels

    request = failed_op_occ.get("operationParams") or {}
    if failed_op_occ["operation"] == occ.SCALE:
        return [request.get("aspectId")]
    return sorted(changed_levels(current_levels, target_scale_levels(flavour, request, current_levels)))


def vnfc_changes(before, after_instance):
    """SOL003 resourceChanges.affectedVnfcs between two vnfcResourceInfo lists."""
    after = (after_instance.get("instantiatedVnfInfo") or {}).get("vnfcResourceInfo") or []
    old = {item["id"]: item for item in before}
    new = {item["id"]: item for item in after}
    changes = [dict(id=i, vduId=new[i]["vduId"], changeType="ADDED", computeResource=new[i]["computeResource"]) for i in new if i not in old]
    changes += [dict(id=i, vduId=old[i]["vduId"], changeType="REMOVED", computeResource=old[i]["computeResource"]) for i in old if i not in new]
    changes += [dict(id=i, vduId=new[i]["vduId"], changeType="MODIFIED", computeResource=new[i]["computeResource"])
                for i in new if i in old and old[i]["computeResource"] != new[i]["computeResource"]]
    return {"affectedVnfcs": changes}


def vnfc_notes(before_instance, after_instance, resource="server"):
    """What a record read again from the VIM says differently of the VNFCs: one line a VNFC found, gone or moved to
    another ``resource`` (a pod, a server)."""
    before = (before_instance.get("instantiatedVnfInfo") or {}).get("vnfcResourceInfo") or []
    notes = []
    for change in vnfc_changes(before, after_instance)["affectedVnfcs"]:
        what = {"ADDED": "found", "REMOVED": "gone", "MODIFIED": "its {0} changed".format(resource)}[change["changeType"]]
        notes.append("VNFC {0} of {1} ({2} {3}): {4}".format(change["id"], change["vduId"], resource, change["computeResource"].get("resourceId"), what))
    return notes


def count_notes(recorded, live, unit):
    """One line a VDU whose ``live`` count (VDU id -> count) differs from the ``recorded`` one, in ``unit`` (replicas, VNFCs)."""
    return ["{0}: {1} {2}, the record said {3}".format(vdu_id, count, unit, recorded.get(vdu_id))
            for vdu_id, count in sorted(live.items()) if count != recorded.get(vdu_id)]


def levels_at(flavour, scale_status, recorded, live, notes):
    """``scale_status`` with each aspect at the level its VDUs' ``live`` VNFC counts (VDU id -> count; a CNF's replicas)
    stand at, from the ``recorded`` counts; ``notes`` says what moved."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.sizing import level_of_counts

    status = []
    for item in scale_status:
        level = level_of_counts(flavour, item["aspectId"], item["scaleLevel"], recorded, live)
        if level is None:
            notes.append("{0}: its VDUs' counts match no scale level; level {1} kept".format(item["aspectId"], item["scaleLevel"]))
        elif level != item["scaleLevel"]:
            notes.append("{0}: scale level {1}, the record said {2}".format(item["aspectId"], level, item["scaleLevel"]))
            item = dict(item, scaleLevel=level)
        status.append(item)
    return status


def storage_changes(before, after_instance):
    """SOL003 resourceChanges.affectedVirtualStorages between two virtualStorageResourceInfo lists (a heal that replaced volumes)."""
    after = (after_instance.get("instantiatedVnfInfo") or {}).get("virtualStorageResourceInfo") or []
    old = {item["id"]: item for item in before}
    new = {item["id"]: item for item in after}
    changes = [dict(id=i, virtualStorageDescId=new[i]["virtualStorageDescId"], changeType="ADDED", storageResource=new[i]["storageResource"])
               for i in new if i not in old]
    changes += [dict(id=i, virtualStorageDescId=old[i]["virtualStorageDescId"], changeType="REMOVED", storageResource=old[i]["storageResource"])
                for i in old if i not in new]
    return {"affectedVirtualStorages": changes}


def waits(params):
    """The wait options of a module's params."""
    return Waits(params["wait"], params["wait_timeout"], params["wait_sleep"])


def info_result(found, now):
    """vnf_info's result from ``[(instance, op_occs)]``: a running op occ's lease says whether its runner is alive."""
    return {"changed": False, "vnf_instances": [instance for instance, _op_occs in found],
            "vnf_lcm_op_occs": [lease.with_status(item, now) for _instance, op_occs in found for item in op_occs]}


def retry_only(planner):
    """The resumer of HEAL and TERMINATE on either VIM, which SOL003 lets retry only (sol/op_occ.py refuses their rollback
    first): the operation re-planned from its operationParams against the stored record. ``options``: what the other
    resumers of the VIM take (the package, the module's params), not needed here."""
    def retry(client, store, found, failed_op_occ, event, waits=None, **options):
        return planner(client, store, found, failed_op_occ.get("operationParams") or {}, waits or Waits())
    return retry


class OnDemand:
    """An operation's driver (lcm/cnf/<operation>.py, lcm/vm/<operation>.py) for :func:`resumer_table`, imported by ``load()``
    when its ``plan_resume`` is first called: a retry or rollback needs the driver of one operation, and each imports much.
    ``load`` imports it with an import statement, so that Ansible still packs the driver into the module's payload."""

    def __init__(self, load):
        self.load = load

    def plan_resume(self, *args, **kwargs):
        return self.load().plan_resume(*args, **kwargs)


def resumer_table(instantiate, scale, heal, terminate, modify, change_pkg, change_ext_conn=None):
    """Operation -> resumer, for a VIM whose operations are the modules given (the same file names on both VIMs, each
    with its ``plan_resume``, or an :class:`OnDemand` of one); every operation of sol/op_occ.py's RETRYABLE that the VIM has."""
    table = {occ.INSTANTIATE: instantiate, occ.SCALE: scale, occ.SCALE_TO_LEVEL: scale, occ.HEAL: heal, occ.TERMINATE: terminate,
             occ.MODIFY_INFO: modify, occ.CHANGE_VNFPKG: change_pkg, occ.CHANGE_EXT_CONN: change_ext_conn}
    return {operation: module.plan_resume for operation, module in table.items() if module is not None}


def name_claimer(store, instance, modified):
    """A modification that renames the instance is refused at plan time when another instance has the new name or another
    run claims it. Returns ``claim(progress)``, which takes the new name before the record is written with it (both VIMs'
    stores: common/name_claim.py); it does nothing when the name stays."""
    name = modified.get("vnfInstanceName")
    if not name or name == instance.get("vnfInstanceName"):
        return lambda progress: None
    holder = store.find(None, name)
    if holder is not None and holder[0]["id"] != instance["id"]:
        raise name_taken(name, store.scope(), holder[0]["id"], renaming=True)
    store.check_name_free(modified)
    return lambda progress: store.claim_name(modified, progress.get("op_occ_id"))


def new_vnfd_of(instance, request, package):
    """The VNFD a validated VnfInfoModificationRequest moves the instance to (both VIMs): None while its vnfdId stays; a new
    vnfdId needs that VNFD's package (option package), whose descriptor_id apply_vnf_info_modification checks."""
    if "vnfdId" not in request or request["vnfdId"] == instance.get("vnfdId"):
        return None
    if package is None:
        from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import VNF_INFO_MODIFICATION_REQUEST

        raise ValidationError(VNF_INFO_MODIFICATION_REQUEST, "vnfdId", "{0!r} is a new VNFD: give its package (option package); a package that "
                              "changes what is deployed is applied with nfv.vnflcm.vnf_change_pkg".format(request["vnfdId"]))
    return package.to_dict()["vnfd"]


def creation_fields(params, vnfd):
    """``(name, description, metadata)`` of the instance an instantiate creates, from the module options and the
    CreateVnfRequest given as ``create_request`` (Tacker's create.json), which must agree with them and the package."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.validation import CREATE_VNF_REQUEST, validate_create_request

    name, description, body = params.get("vnf_instance_name"), params.get("vnf_instance_description"), params.get("create_request")
    request = validate_create_request(body) if body is not None else {}
    if request and request["vnfdId"] != vnfd.get("descriptor_id"):
        raise ValidationError(CREATE_VNF_REQUEST, "vnfdId", "{0!r} is not the VNFD of the package ({1!r})".format(request["vnfdId"], vnfd.get("descriptor_id")))
    for option, field, value in (("vnf_instance_name", "vnfInstanceName", name), ("vnf_instance_description", "vnfInstanceDescription", description)):
        if value is not None and request.get(field) not in (None, value):
            raise ValidationError(CREATE_VNF_REQUEST, field, "{0!r} is not what option {1} says ({2!r})".format(request[field], option, value))
    name = name if name is not None else request.get("vnfInstanceName")
    if not name:
        raise ValidationError("module options", "vnf_instance_name", "is required (or create_request.vnfInstanceName)")
    return name, description if description is not None else request.get("vnfInstanceDescription"), request.get("metadata")


def with_metadata_warning(operation, metadata):
    """A CreateVnfRequest applies when the identifier is created: the plan warns when the instance a later run found
    has other values for its metadata's keys (the instance's metadata has more: Kubernetes adds ``namespace``)."""
    kept = operation.instance.get("metadata") or {}
    if metadata is not None and any(kept.get(key) != value for key, value in metadata.items()):
        operation.plan.setdefault("warnings", []).append(
            "create_request.metadata is not the metadata of VNF instance {0}, created before: left as it is (nfv.vnflcm.vnf_modify "
            "changes it)".format(operation.instance["id"]))
    return operation
