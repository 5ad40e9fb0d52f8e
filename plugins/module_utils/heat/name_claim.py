# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""One instance name, one instance in a project's Heat stacks, even when two runs create it at once.

The claim is a stack with no resources named after the instance name (``vnflcm-name-<hash>``, the instance's name tag),
tagged with the claiming run and instance. Heat refuses a second stack of a name, but only by looking before it inserts:
two creates at one moment both get in (on the lab, 3 pairs of 5). So a run looks again after its create: alone, it goes
on; beside other claims, the claim of the lowest stack id stays once the others are gone and the others withdraw. One
that saw none beside it may have gone on meanwhile: it holds its claim until its record holds the name, and the run
that stays looks for such a record after its claim (heat/store.py). Of two runs one goes on, never both. A claim lives
only while its instance is being created (or renamed): from the record's first write the record itself, found by name,
holds the name, and the claim is deleted. A claim whose run died first is taken over once it is older than the time an
instantiate gets to write its record, or at once when its runner, named by its tags, was a process of this machine
that has exited (as on Kubernetes: a re-run of an instantiate killed before its record need not wait).
"""

from __future__ import annotations

from ansible_collections.nfv.vnflcm.plugins.module_utils.common.errors import ConflictError
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.name_claim import may_take_over, name_held
from ansible_collections.nfv.vnflcm.plugins.module_utils.common.runner import this_runner

CLAIM_TAG = "vnflcm-claim"
RUN_TAG = "vnflcm-run-"
INSTANCE_TAG = "vnflcm-instance-"
# The runner's identity (common/runner.py), a tag a field: Heat keeps tags of up to 80 characters without commas, and a
# stack list shows tags, not the template's description.
RUNNER_TAGS = (("host", "vnflcm-runner-host-"), ("bootId", "vnflcm-runner-boot-"), ("pidNamespace", "vnflcm-runner-pidns-"),
               ("pid", "vnflcm-runner-pid-"), ("processStart", "vnflcm-runner-start-"))
TAG_LIMIT = 80
CLAIM_TEMPLATE = {"heat_template_version": "2015-04-30", "description": "nfv.vnflcm: the name of a VNF instance being created"}
ATTEMPTS = 3
# How long the claim that stays waits for those Heat let in beside it to go (one that went on holds its claim until
# its record is written: seconds).
OUTLAST_POLLS = 360  # every 0.25 s: 90 s
# How long a claim may be old before it counts as left by a dead run (a record comes within seconds of the claim).
GRACE_SECONDS = 300
WHERE = "the Heat stacks of this project"


def runner_tags(runner):
    """The tags that name ``runner`` (common/runner.py), [] when there is none or it does not fit in tags (then only
    the age of what it made counts)."""
    if not runner or any(runner.get(key) is None for key, _prefix in RUNNER_TAGS):
        return []
    tags = [prefix + str(runner[key]) for key, prefix in RUNNER_TAGS]
    return tags if all(len(tag) <= TAG_LIMIT and "," not in tag for tag in tags) else []


def read_runner(tags):
    """The runner ``tags`` name, or None when they name none (all of it)."""
    runner = {}
    for tag in tags or ():
        for key, prefix in RUNNER_TAGS:
            if tag.startswith(prefix):
                runner[key] = tag[len(prefix):]
    if len(runner) != len(RUNNER_TAGS) or not runner["pid"].isdigit():
        return None
    return dict(runner, pid=int(runner["pid"]))


def claim_tags(instance_id, op_occ_id, runner=None):
    return [CLAIM_TAG, RUN_TAG + (op_occ_id or "unknown"), INSTANCE_TAG + instance_id] + runner_tags(runner)


def read_claim(stack):
    """``{"vnfInstanceId", "vnfLcmOpOccId", "claimedAt", "runner"}`` of a claim stack (as Heat lists it); ``runner`` only
    when the claim names all of it."""
    held = {"claimedAt": stack.get("creation_time")}
    for tag in stack.get("tags") or ():
        if tag.startswith(RUN_TAG):
            held["vnfLcmOpOccId"] = tag[len(RUN_TAG):]
        elif tag.startswith(INSTANCE_TAG):
            held["vnfInstanceId"] = tag[len(INSTANCE_TAG):]
    runner = read_runner(stack.get("tags"))
    if runner:
        held["runner"] = runner
    return held


def live_claims(stacks, stack_name, besides=None):
    """The claim stacks of this name that Heat does not delete (a deleted one still lists for a moment), but ``besides``."""
    return [stack for stack in stacks.list(name=stack_name)
            if stack["stack_name"] == stack_name and not (stack.get("stack_status") or "").startswith("DELETE")
            and stack["id"] != (besides or {}).get("id")]


class NameClaims:
    """Claims in one project's stacks (``stacks``: heat.stack.Stacks); ``holder_name(instance_id)``: the name the
    record of that instance has, None when it has no record."""

    def __init__(self, stacks, holder_name):
        self.stacks = stacks
        self.holder_name = holder_name

    def check_free(self, instance, stack_name):
        """ConflictError, as :meth:`claim` would raise it, when another run holds the name (a read only)."""
        for claim in live_claims(self.stacks, stack_name):
            self._refuse_if_held(instance, claim)

    def claim(self, instance, op_occ_id, stack_name):
        """The claim stack made for ``instance`` (``{"stack_name", "id"}``); ConflictError when another run holds the name."""
        tags = claim_tags(instance["id"], op_occ_id, this_runner())
        for _attempt in range(ATTEMPTS):
            mine = self.stacks.create_unless_exists(stack_name, CLAIM_TEMPLATE, tags)
            if mine is None:
                # Another claim: refused while it holds the name; one left by a dead run (or an earlier try of this
                # instance) goes, and the create is tried again.
                for claim in live_claims(self.stacks, stack_name):
                    self._refuse_if_held(instance, claim)
                    self.stacks.delete(claim)
                    self.stacks.wait_deleted(claim, GRACE_SECONDS)
                continue
            others = live_claims(self.stacks, stack_name, besides=mine)
            if others and not self._outlasts(mine, others, stack_name):
                self.release(mine)
                raise name_held(instance["vnfInstanceName"], WHERE, read_claim(min(others, key=lambda claim: claim["id"])))
            return mine
        raise ConflictError("create", "VNF instance {0!r} in {1}".format(instance["vnfInstanceName"], WHERE),
                            "its name was claimed again each of {0} times a claim left by an ended run was taken over".format(ATTEMPTS))

    def _outlasts(self, mine, others, stack_name):
        """Heat let claims of one name in beside ours. The claim of the lowest stack id stays, once the others are gone:
        the others withdraw at once, unless one of them saw none beside it and goes on; then it goes once its record
        holds the name, which the caller checks for next. True when ours stays."""
        if mine["id"] > min(claim["id"] for claim in others):
            return False
        for _poll in range(OUTLAST_POLLS):
            self.stacks.pause()
            if not live_claims(self.stacks, stack_name, besides=mine):
                return True
        return False

    def release(self, claim):
        """The claim goes (no wait: Heat deletes a stack without resources at once)."""
        self.stacks.delete(claim)

    def _refuse_if_held(self, instance, claim):
        may_take_over(instance, read_claim(claim), self.holder_name, self.stacks.now(), GRACE_SECONDS, WHERE)
