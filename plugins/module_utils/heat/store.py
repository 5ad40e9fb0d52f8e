# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""VnfInstance records kept in the VNF's own Heat stack.

Each VNF instance is one stack, named ``vnf-<instance id>`` (as Tacker names them) and tagged
``vnflcm`` and ``vnflcm-name-<hash of the instance name>``, so it is found by id (the name) or by
instance name (the tag) without any other database.

The record (the VnfInstance and its recent VnfLcmOpOccs) is the metadata of one resource of the top
template, ``vnflcm_record``, an ``OS::Heat::WaitConditionHandle`` that nothing else uses and every other resource
depends on (Heat creates it first and deletes it last, so a failed create or delete keeps it). It is written
by signalling that resource (``POST .../resources/vnflcm_record/signal``), which is not a stack
update: it works in every stack state (also after a failed create or update, where a stack update
would re-attempt the failed resources), costs one call, and the metadata stays through every stack
update because the resource itself never changes. ``openstack stack resource metadata show <stack>
vnflcm_record`` shows it. The record's ``version`` counter detects a concurrent writer.

Before the stack exists (the op occ of an instantiate is PROCESSING before the create), the record is
kept in memory; the driver :meth:`attach`-es the stack as soon as Heat has accepted the create and
writes the record into it at once, while the rest of the stack is still being created. A stack of
ours without a record is what an instantiate leaves when its process dies in between:
:meth:`find` lists such stacks in :attr:`orphans` (once done, or old, or when their tags name a runner of this
machine that has exited), and the next instantiate of that name deletes them.
"""

from __future__ import annotations

import datetime
import hashlib
import json

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError, RecordUnwritable, VimError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.name_claim import left_claim, name_taken
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.record_store import Found, RecordStore
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.runner import runner_is_gone
from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.name_claim import (
    GRACE_SECONDS,
    WHERE,
    NameClaims,
    live_claims,
    read_claim,
    read_runner,
    runner_tags,
)
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.op_occ import FAILED_TEMP, TERMINAL_STATES
from ansible_collections.nfv.vnflcm.plugins.module_utils.sol.vim_connection import without_vim_secrets

RECORD_RESOURCE = "vnflcm_record"
RECORD_TYPE = "OS::Heat::WaitConditionHandle"
SIGNAL_ID = "record"
TAG = "vnflcm"
STACK_PREFIX = "vnf-"
# Signals are handled asynchronously by the engine: how often to look for a write to show (every 0.25 s)
# before signalling again, and for how long in all (a stack being created takes its signals once the
# record resource exists).
READ_BACK_ATTEMPTS = 12
SIGNAL_SECONDS = 90
# A stack of ours still creating without a record after this long lost its runner (the record comes within seconds),
# as a name claim that old did.
ORPHAN_AFTER_SECONDS = GRACE_SECONDS
# An op occ in one of these ended: a claim still held when it is saved had no record to hand the name to.
ENDED_STATES = TERMINAL_STATES | {FAILED_TEMP}


def stack_name(instance_id):
    return STACK_PREFIX + instance_id


def name_tag(name):
    """A tag for the instance name: Heat tags cannot hold every character a name may have."""
    return "vnflcm-name-" + hashlib.sha256(name.encode("utf-8")).hexdigest()[:24]


def stack_tags(instance, runner=None):
    """The tags of the instance's stack; with the ``runner`` that creates it: should it die before the record is in
    the stack, a later run of this machine tells at once that the stack waits for nothing (:func:`is_orphan`)."""
    tags = [TAG]
    if instance.get("vnfInstanceName"):
        tags.append(name_tag(instance["vnfInstanceName"]))
    return tags + runner_tags(runner)


def with_record_resource(template):
    """The top template plus the record's resource, which nothing references (so Heat never updates it) and every
    other resource depends on: Heat creates it first and deletes it last, so a create or a delete that fails on any
    resource (a volume still attached, a port in use) leaves the record in place to say so."""
    result = dict(template)
    resources = {}
    for name, resource in (template.get("resources") or {}).items():
        if name != RECORD_RESOURCE and isinstance(resource, dict):
            resource = dict(resource, depends_on=_after_the_record(resource.get("depends_on")))
        resources[name] = resource
    resources[RECORD_RESOURCE] = {"type": RECORD_TYPE}
    result["resources"] = resources
    return result


def _after_the_record(depends_on):
    names = [depends_on] if isinstance(depends_on, str) else list(depends_on or [])
    return names if RECORD_RESOURCE in names else names + [RECORD_RESOURCE]


def encode(instance, op_occs, version):
    """The record as the stack keeps it: readable by the whole project, so never with a VIM's password or token."""
    record = {"version": version, "vnfInstance": without_vim_secrets(instance), "vnfLcmOpOccs": without_vim_secrets(op_occs)}
    return json.dumps(record, sort_keys=True, separators=(",", ":"))


def decode(metadata):
    """The record (common/record_store.py's Found) in the handle's metadata, or None when nothing was written yet."""
    entry = (metadata or {}).get(SIGNAL_ID)
    if not entry or not entry.get("data"):
        return None
    data = json.loads(entry["data"])
    return Found(data["vnfInstance"], data.get("vnfLcmOpOccs") or [], data["version"])


class HeatRecordStore(RecordStore):
    """Records in the stacks of one project (``stacks``: a heat.stack.Stacks)."""

    def __init__(self, stacks, stack=None):
        self.stacks = stacks
        self.stack = stack
        self.pending = None
        self.orphans = []
        self.listed = {}
        self.claims = NameClaims(stacks, self._holder_name)
        self.claim = None

    def record_url(self, instance_id):
        """The URL of the instance's stack, which holds the record (``self`` of the instance in its ``_links``).

        By name and id once the stack is known (found, listed or created); by name alone before (Heat redirects a
        name to its stack).
        """
        name = stack_name(instance_id)
        if self.stack and self.stack.get("stack_name") == name:
            return self.stacks.url(self.stack)
        return self.stacks.url(self.listed.get(name) or {"stack_name": name})

    def find(self, instance_id=None, name=None):
        """``(instance, op_occs, version)`` of the instance with this id (else name), or None; sets :attr:`stack`.

        Stacks of that name that hold no record and no longer wait for one go to :attr:`orphans`.
        """
        self.orphans = []
        hit = self._lookup(instance_id, name, self.orphans)
        if hit is None:
            return None
        self.stack = hit[1]
        return hit[0]

    def _lookup(self, instance_id, name, orphans=None):
        """``(record, stack)`` of the instance with this id (else name), or None; orphan stacks seen go to ``orphans``."""
        for stack in self._candidates(instance_id, name):
            found = decode(self.stacks.resource_metadata(stack, RECORD_RESOURCE))
            if found is None and orphans is not None and is_orphan(stack, self.stacks.now()):
                orphans.append({"stack_name": stack["stack_name"], "id": stack["id"], "stack_status": stack.get("stack_status")})
            if found and (instance_id in (None, found[0]["id"])) and (instance_id or found[0].get("vnfInstanceName") == name):
                return found, {"stack_name": stack["stack_name"], "id": stack["id"]}
        return self._renamed(name) if name and not instance_id else None

    def _renamed(self, name):
        """The record named ``name`` by vnf_modify: its stack keeps the tag of the name it was created with, as a new tag
        would take a stack update. Only records are matched here, so no stack of another name is taken for an orphan."""
        tagged = name_tag(name)
        for stack in self.stacks.list(tags=TAG):
            if tagged in (stack.get("tags") or ()) or (stack.get("stack_status") or "").startswith("DELETE"):
                continue
            found = decode(self.stacks.resource_metadata(stack, RECORD_RESOURCE))
            if found and found[0].get("vnfInstanceName") == name:
                return found, {"stack_name": stack["stack_name"], "id": stack["id"]}
        return None

    def _candidates(self, instance_id, name):
        if instance_id:
            stack = self.stacks.find(stack_name(instance_id))
            return [stack] if stack else []
        if name:
            return self.stacks.list(tags=name_tag(name))
        return []

    def list(self):
        """Every record of the project: ``[(instance, op_occs, version)]``."""
        records = []
        for stack in self.stacks.list(tags=TAG):
            if stack["stack_status"].startswith("DELETE"):
                continue
            found = decode(self.stacks.resource_metadata(stack, RECORD_RESOURCE))
            if found:
                records.append(found)
                self.listed[stack["stack_name"]] = {"stack_name": stack["stack_name"], "id": stack["id"]}
        return records

    def save(self, instance, op_occs, version):
        """Write the record; version 0 stands for "kept in memory, not in a stack yet"."""
        if self.stack is None:
            # The stack (and so the record's home) is created by the operation itself; until then the name is claimed.
            if version is None:
                self.claim_name(instance, (op_occs or [{}])[0].get("id"))
            elif op_occs and op_occs[0].get("operationState") in ENDED_STATES:
                self._release_claim()
            self.pending = (instance, op_occs)
            return 0 if version is None else version
        current = decode(self.stacks.resource_metadata(self.stack, RECORD_RESOURCE))
        current_version = current[2] if current else 0
        if version is not None and current_version != version:
            raise ConflictError("save", "the record of VNF instance {0}".format(instance["id"]),
                                "another operation wrote it meanwhile (version {0}, expected {1})".format(current_version, version))
        new_version = current_version + 1
        self._write(instance, op_occs, new_version)
        self._release_claim()
        return new_version

    def claim_name(self, instance, op_occ_id):
        """Claim the name ``instance`` is about to have (created, or renamed) until the record has it (heat/name_claim.py);
        ConflictError when another run holds it or, claimed, another record has it already (one came in meanwhile)."""
        name = instance.get("vnfInstanceName")
        if not name or self.claim is not None:
            return
        self.claim = self.claims.claim(instance, op_occ_id, name_tag(name))
        holder = self._lookup(None, name)
        if holder is not None and holder[0][0]["id"] != instance["id"]:
            self._release_claim()
            raise name_taken(name, self.scope(), holder[0][0]["id"], renaming=self.stack is not None)

    def check_name_free(self, instance):
        """Before a new instance is planned further (reads only): ConflictError when another run holds the name."""
        if instance.get("vnfInstanceName"):
            self.claims.check_free(instance, name_tag(instance["vnfInstanceName"]))

    def scope(self):
        return WHERE

    def _holder_name(self, instance_id):
        hit = self._lookup(instance_id, None)
        return hit[0][0].get("vnfInstanceName") if hit else None

    def _release_claim(self):
        """The record holds the name now (or the run ended without one): the claim goes. Should Heat refuse, the claim
        stays and is taken over later, as one of a dead run: nothing for the operation to fail on."""
        claim, self.claim = self.claim, None
        if claim is not None:
            try:
                self.claims.release(claim)
            except VimError:
                pass

    def release_left_claim(self, instance):
        """The claim of the instance's name made by the run that created it, left when that run died between the
        record's first write and the claim's delete: it goes (the record holds the name). For the run that resumes it."""
        if instance.get("vnfInstanceName"):
            for claim in live_claims(self.stacks, name_tag(instance["vnfInstanceName"])):
                if read_claim(claim).get("vnfInstanceId") == instance["id"]:
                    self.claims.release(claim)

    def left_claim(self, name):
        if not name:
            return None
        for claim in sorted(live_claims(self.stacks, name_tag(name)), key=lambda stack: stack["id"]):
            held = read_claim(claim)
            if not (held.get("vnfInstanceId") and self._lookup(held["vnfInstanceId"], None)):
                return left_claim(name, held, self.stacks.now(), GRACE_SECONDS,
                                  {"kind": "OS::Heat::Stack", "name": claim["stack_name"], "id": claim["id"]})
        return None

    def drop_left_claim(self, shown):
        """By its stack id: a claim another run made since (taking this one over) is another stack."""
        claim = {"stack_name": shown["heldBy"]["name"], "id": shown["heldBy"]["id"]}
        self.claims.release(claim)
        return [dict(shown["heldBy"])]

    def attach(self, stack):
        """The stack exists now (Heat accepted its create): the next save writes the record into it."""
        self.stack = {"stack_name": stack["stack_name"], "id": stack["id"]}
        self.pending = None

    def detach(self):
        """The stack attached cannot hold the record (:class:`RecordUnwritable`): the record is kept in memory again."""
        self.stack = None

    def _write(self, instance, op_occs, version):
        state = op_occs[0]["operationState"] if op_occs else instance.get("instantiationState")
        details = {"id": SIGNAL_ID, "status": "SUCCESS", "data": encode(instance, op_occs, version),
                   "reason": "vnflcm record v{0} {1}".format(version, state)}
        what = "the record of VNF instance {0}".format(instance["id"])
        if version == 1:
            # Into a stack being created: a signal that meets the record resource while Heat creates it can stall
            # the whole create (convergence), so the first one waits until that resource is complete.
            self.stacks.retrying(SIGNAL_SECONDS, "resource {0} of stack {1} to be created".format(RECORD_RESOURCE, self.stack["stack_name"]),
                                 self._record_resource_ready)

        def signalled():
            # Heat answers a signal before its engine handles it, and the engine drops a signal to a record
            # resource that a stack being created has not made yet: send again until the record shows.
            self.stacks.signal(self.stack, RECORD_RESOURCE, details)
            for _attempt in range(READ_BACK_ATTEMPTS):
                written = decode(self.stacks.resource_metadata(self.stack, RECORD_RESOURCE))
                if written and written[2] >= version:
                    return True
                self.stacks.pause()
            return False

        self.stacks.retrying(SIGNAL_SECONDS, "Heat to store {0}".format(what), signalled)

    def _record_resource_ready(self):
        status = self.stacks.resource_status(self.stack, RECORD_RESOURCE)
        if status.endswith("_FAILED"):
            raise RecordUnwritable("save", "the record of stack {0}".format(self.stack["stack_name"]),
                                   "its resource {0} is {1}".format(RECORD_RESOURCE, status))
        if status.endswith("_COMPLETE") and not status.startswith(("INIT", "DELETE")):
            return True
        # A create that failed before Heat made the record resource never will: say Heat's reason now, not a timeout.
        current = self.stacks.get(self.stack)
        if current["stack_status"].endswith("_FAILED"):
            raise RecordUnwritable("save", "the record of stack {0}".format(self.stack["stack_name"]),
                                   "the stack is {0} before its resource {1} was made: {2}".format(
                                       current["stack_status"], RECORD_RESOURCE, current.get("stack_status_reason")))
        return False

    def delete(self, instance, version):
        """The record goes with its stack: the driver deletes the stack; nothing else to remove."""
        self.stack = None

    def kept_for(self, instance):
        """The record's stack (found by :meth:`find`): the op occ history, rollback data included, is in the record."""
        return [{"kind": "OS::Heat::Stack", "name": self.stack["stack_name"]}] if self.stack else []

    def delete_identifier(self, instance, version, timeout=600, kept=None):
        """Delete the record's stack and wait until it is gone (the caller made sure it holds no VNF resource any more)."""
        kept = kept if kept is not None else self.kept_for(instance)
        if self.stack:
            current = decode(self.stacks.resource_metadata(self.stack, RECORD_RESOURCE))
            if current and current[2] != version:
                raise ConflictError("delete", "the record of VNF instance {0}".format(instance["id"]),
                                    "another operation wrote it meanwhile (version {0}, expected {1})".format(current[2], version))
            self.stacks.delete_until_gone(self.stack, timeout)
            self.stack = None
        return kept


def is_orphan(stack, now):
    """A stack of ours without a record: deleted or failed, done, or creating for longer than a record takes to come,
    or made by a runner of this machine that has exited."""
    status = stack.get("stack_status") or ""
    if status.startswith("DELETE"):
        return False
    if status != "CREATE_IN_PROGRESS":
        return True
    created = stack.get("creation_time")
    return bool(created) and (now - parse_heat_time(created)).total_seconds() > ORPHAN_AFTER_SECONDS or runner_is_gone(read_runner(stack.get("tags"))) is True


def parse_heat_time(text):
    """Heat's creation_time (``2026-11-22T05:00:00Z`` or without the Z), as an aware UTC datetime."""
    return datetime.datetime.strptime(text.rstrip("Z")[:19], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=datetime.timezone.utc)
