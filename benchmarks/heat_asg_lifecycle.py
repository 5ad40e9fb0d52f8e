#!/usr/bin/env python3
"""The lifecycle of Tacker's DefaultUserData VNF (an AutoScalingGroup VDU): the collection's modules against Tacker's procedure on Heat.

Both run side by side on the same local OpenStack lab (tools/lab/openstack, tier 2), alternating which goes
first between rounds, with Tacker's basic_lcms_min (flavour simple, instantiation_level_1: VDU1 is
VDU1_scale_group with one member, VDU2 a plain server):
- module: vnf_instantiate, the same task again (re-run), vnf_scale SCALE_OUT and SCALE_IN of VDU1_scale by
  one step, vnf_heal of the VDU1 VNFC, vnf_change_pkg (RollingUpdate of VDU1) to a copy of the package with its
  own vnfdId, VDU1 on flavour m1.tiny.2g and image cirros, the same task again (change re-run), vnf_terminate
  (FORCEFUL): one ansible-playbook task each;
- baseline, what Tacker v2 does on Heat, with the same template, files and nfv parameter (built by the
  collection's pure functions): stack create; scale out = PATCH of nfv with desired_capacity + 1; scale in =
  the newest member (a resource of the group's nested stack, found in the stack's resources listed with
  nested_depth=2) marked unhealthy, then PATCH with desired_capacity - 1; heal = the member marked unhealthy,
  then PATCH with no change; change of package = Tacker's RollingUpdate of a group's members
  (_change_vnfpkg_rolling_update_user_data_default): per VDU1 member, the group's nested stack template with
  the member's flavor and image-VDU1 set to the new ones, PATCHed to that nested stack, then one PATCH of the
  top stack with the new package's template, files and nfv; stack delete. Each waited for as
  `openstack stack ... --wait` does: polling the stack until its status ends;
- with --anchor, openstack.cloud (PyPI's ansible package, module_call_cost.anchors_collections), what an Ansible user
  would write without this collection: one `openstack.cloud.stack` task each (state present, wait) with the same
  template (written to files, its nested templates beside it) and nfv: create; scale out and scale in = the nfv with
  desired_capacity + 1 / - 1 (Heat picks the member to remove); change of package = the new package's template and
  nfv; delete = state absent. No heal: openstack.cloud has no way to mark a resource unhealthy.

Measured per step: wall time, the Heat API calls from Heat's own request log (reads / writes between two
offsets of <state>/log/heat.log), and the module's own `api_calls` (every OpenStack service it called). The lab
may be shared: a request on another stack is left out and counted as `others`; a request naming no stack (a
stack create, preview or listing) is counted, and as `unscoped` too, as it could be another user's when
`others` is not 0.

Run: make stage, then with ANSIBLE_COLLECTIONS_PATH set to the staged collections dir (see README.md)
  NFV_OPENSTACK_LAB_DIR=<state dir of a running tier-2 lab> $(make -s venv-path)/bin/python benchmarks/heat_asg_lifecycle.py [--rounds 3]
Results go to benchmarks/results/heat_asg_lifecycle-<date>.json.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import sys
import tempfile
import time
import uuid
from pathlib import Path

import openstack

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heat_change_pkg import ChangeBench, own_copy, vnfd_id  # noqa: E402
from heat_instantiate import CLOUD, FIXTURES, ROOT, Bench, HeatLog, ensure_images, lab_state, stats  # noqa: E402
import ratios  # noqa: E402

PACKAGE = FIXTURES / "basic_lcms_min"
REQUEST = {"flavourId": "simple", "instantiationLevelId": "instantiation_level_1"}
VDU, ASPECT = "VDU1", "VDU1_scale"
UNHEALTHY_REASON = "benchmark baseline"
# Step pairs compared: module step -> baseline step (the re-runs have no baseline: Tacker has no re-run of an operation).
# openstack.cloud (--anchor) has the baseline's steps but heal.
PAIRS = (("instantiate", "create"), ("scale_out", "scale_out"), ("scale_in", "scale_in"), ("heal", "heal"), ("change_pkg", "change_pkg"),
         ("terminate", "delete"))
MODULE_STEPS = ("instantiate", "rerun", "scale_out", "scale_in", "heal", "change_pkg", "change_rerun", "terminate")
# The new package's VDU1: a flavour of the same disk as m1.tiny (Nova refuses a rebuild's image against a larger
# disk in the same update) and another image; VDU2 unchanged. (name, vcpus, ram MB, disk GB)
NEW_FLAVOUR, NEW_IMAGE = ("m1.tiny.2g", 1, 2048, 1), "cirros"
# A request line of Heat's API and the stack it names, if any (/stacks/<name or id>[/...]).
REQUEST_LINE = re.compile(r'"(GET|HEAD|POST|PATCH|PUT|DELETE) /v1/[^/\s]+(?:/stacks/([^/?\s]+))?')
UNSCOPED = ("preview",)


def same_stack(conn, package=PACKAGE):
    """Template, files and the nfv of REQUEST as the module builds them from ``package``, and the VNFC counts of the level."""
    from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import nfv_params
    from ansible_collections.nfv.vnflcm.plugins.module_utils.heat import template as heat_template
    from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.form import form_of
    from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.store import with_record_resource
    from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.vm.shared import indexes_for
    from ansible_collections.nfv.vnflcm.plugins.module_utils.package.reader import load_package

    with load_package(str(package)) as loaded:
        template, files = heat_template.load_base_hot(loaded, REQUEST["flavourId"])
        flavour = loaded.flavour(REQUEST["flavourId"])
    form = form_of(template)
    counts = nfv_params.vnfc_counts(flavour, REQUEST["instantiationLevelId"])
    names = nfv_params.build_nfv(flavour, REQUEST, indexes_for(counts), form=form)
    images = {entry["vcImageId"]: None for entry in names["VDU"].values() if entry.get("vcImageId")}
    images = {name: conn.image.find_image(name, ignore_missing=False).id for name in images}

    def nfv_for(vdu_count):
        """The nfv parameter with VDU1 at ``vdu_count`` VNFCs (the group's desired_capacity)."""
        indexes = indexes_for(dict(counts, **{VDU: vdu_count}))
        return nfv_params.with_image_ids(nfv_params.build_nfv(flavour, REQUEST, indexes, form=form), images)

    stack_template = with_record_resource(form.stack_template(template, indexes_for(counts)))
    return stack_template, files, nfv_for, counts[VDU]


def new_package(work: Path) -> Path:
    """basic_lcms_min with a vnfdId of its own, VDU1 on NEW_FLAVOUR and booted from NEW_IMAGE (VDU2 as it was)."""
    path = own_copy(PACKAGE, work / "basic_lcms_min_vdu1_new")
    df = path / "Definitions" / "v2_sample2_df_simple.yaml"
    vdu1, vdu2 = df.read_text().split("    VDU2:\n", 1)
    changed = vdu1.replace("name: cirros-0.5.2-x86_64-disk", "name: " + NEW_IMAGE, 1)
    changed = changed.replace("requested_additional_capability_name: m1.tiny\n", "requested_additional_capability_name: {0}\n".format(NEW_FLAVOUR[0]), 1)
    if changed.count(NEW_IMAGE) != 1 or changed.count(NEW_FLAVOUR[0]) != 1:
        raise SystemExit("expected VDU1 on m1.tiny and cirros-0.5.2-x86_64-disk in " + str(df))
    df.write_text(changed + "    VDU2:\n" + vdu2)
    return path


def ensure_flavour(conn) -> bool:
    """NEW_FLAVOUR made (as admin) when the lab has none; True when made here."""
    name, vcpus, ram, disk = NEW_FLAVOUR
    if conn.compute.find_flavor(name) is not None:
        return False
    conn.compute.create_flavor(name=name, vcpus=vcpus, ram=ram, disk=disk, is_public=True)
    return True


class StackLog(HeatLog):
    """Heat's request log, the requests on one's own stacks told apart from those on others' (the lab is shared)."""

    def calls_of(self, start: int, end: int, stacks) -> dict:
        """Requests between two offsets on the stacks whose name or id starts with one of ``stacks``, and those naming none."""
        with self.path.open("rb") as handle:
            handle.seek(start)
            text = handle.read(end - start).decode("utf-8", "replace")
        counts = {"read": 0, "write": 0, "unscoped": 0, "others": 0}
        for method, segment in REQUEST_LINE.findall(text):
            scoped = bool(segment) and segment not in UNSCOPED
            if scoped and not segment.startswith(tuple(stacks)):
                counts["others"] += 1
                continue
            counts["unscoped"] += not scoped
            counts["read" if method in ("GET", "HEAD") else "write"] += 1
        return counts


class AsgBench(Bench):
    # The baseline's wait for an update (polling the stack, as `openstack stack update --wait`).
    wait_update = ChangeBench.wait_update

    def __init__(self, state: Path, work: Path):
        super().__init__(state, work)
        self.log = StackLog(state)
        self.anchors = None  # the anchors' collections dir, with --anchor

    def measure(self, fn, stacks) -> dict:
        """As Bench.measure, counting the Heat requests on the stacks ``stacks()`` names once ``fn`` has run."""
        start, t0 = self.log.offset(), time.monotonic()
        extra = fn()
        took = time.monotonic() - t0
        time.sleep(0.5)  # let the last request line reach the log
        return dict(extra or {}, seconds=round(took, 2), heat_calls=self.log.calls_of(start, self.log.offset(), stacks()))

    # -- the collection ------------------------------------------------------------------------

    def module_step(self, module: str, name: str, **args) -> dict:
        result = self.task(module, dict(args, vnf_instance_name=name, cloud=CLOUD, wait_sleep=1, wait_timeout=600))
        return {"changed": result["changed"], "module_api_calls": result["api_calls"], "_instance": result.get("vnf_instance")}

    # -- openstack.cloud -----------------------------------------------------------------------

    def anchor_stack(self, name: str, stack, state="present") -> dict:
        """One openstack.cloud.stack task (one ansible-playbook): ``stack`` (template, files, nfv) written to files."""
        from module_call_cost import anchors_collections

        self.anchors = self.anchors or anchors_collections()
        args = {"name": name, "cloud": CLOUD, "state": state, "wait": True, "timeout": 600}
        if state == "present":
            template, files, nfv = stack
            folder = self.work / "anchor-{0}".format(self.runs + 1)
            for relative, text in files.items():
                (folder / relative).parent.mkdir(parents=True, exist_ok=True)
                (folder / relative).write_text(text)
            (folder / "top.yaml").write_text(json.dumps(template))
            args.update(template=str(folder / "top.yaml"), parameters={"nfv": json.dumps(nfv)}, rollback=False)
        env = dict(self.env, ANSIBLE_COLLECTIONS_PATH=os.pathsep.join([self.anchors] + self.env.get("ANSIBLE_COLLECTIONS_PATH", "").split(os.pathsep)))
        return self.task("openstack.cloud.stack", args, env=env)

    # -- Tacker's procedure --------------------------------------------------------------------

    def resources(self, path: str) -> list:
        """The stack's resources and those of its nested stacks (`openstack stack resource list -n 2`)."""
        return self.conn.orchestration.get(path + "/resources?nested_depth=2").json()["resources"]

    def mark_unhealthy(self, resource: dict):
        stack_link = next(link["href"] for link in resource["links"] if link["rel"] == "stack")
        url = "/stacks/" + stack_link.split("/stacks/", 1)[1] + "/resources/" + resource["resource_name"]
        self.conn.orchestration.patch(url, json={"mark_unhealthy": True, "resource_status_reason": UNHEALTHY_REASON})

    def patch(self, path: str, parameters: dict, before):
        self.conn.orchestration.patch(path, json={"parameters": parameters})
        return self.wait_update(path, before)

    def baseline_scale(self, path: str, nfv_for, count: int, before, remove: bool):
        """Tacker's scale of a group: on scale in, the newest members marked unhealthy first (so Heat removes them)."""
        from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.instantiated_info import members_to_remove

        if remove:
            for member in members_to_remove(self.resources(path), {VDU: count}):
                self.mark_unhealthy(member)
        return self.patch(path, {"nfv": json.dumps(nfv_for(count))}, before)

    def baseline_heal(self, path: str, server_id: str, before):
        """Tacker's heal of a group member: the member (its nested stack) marked unhealthy, then an update with no change."""
        from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.instantiated_info import heal_targets

        for resource in heal_targets(self.resources(path), {server_id}):
            self.mark_unhealthy(resource)
        return self.patch(path, {}, before)

    def baseline_change(self, path: str, new_stack, count: int, before):
        """Tacker's RollingUpdate of the group's members: each member's flavor and image-VDU1 set in the group's
        nested stack (one PATCH of that stack, waited for), then one PATCH of the top stack with the new package."""
        from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.instantiated_info import vnfc_parts

        template, files, nfv_for, _ = new_stack
        nfv = nfv_for(count)
        wanted = {"flavor": nfv["VDU"][VDU]["computeFlavourId"], "image-" + VDU: nfv["VDU"][VDU]["vcImageId"]}
        heat = self.conn.orchestration
        members = sorted((part for part in vnfc_parts(self.resources(path)).values() if part["vdu"] == VDU), key=lambda part: part["index"])
        for part in members:
            link = next(link["href"] for link in part["resource"]["links"] if link["rel"] == "stack")
            nested = "/stacks/" + link.split("/stacks/", 1)[1]
            nested_template = heat.get(nested + "/template").json()
            nested_template["resources"][part["resource"]["resource_name"]]["properties"].update(wanted)
            # Its updated_time now, so that the wait tells this update's end from the last one's.
            nested_before = heat.get(nested).json()["stack"]["updated_time"]
            heat.patch(nested, json={"template": nested_template})
            self.wait_update(nested, nested_before)
        heat.patch(path, json={"template": template, "files": files, "parameters": {"nfv": json.dumps(nfv)}})
        return self.wait_update(path, before)

    def vdu_flavours_and_images(self, server_ids) -> list:
        """(flavour name, image id) of each server, from Nova (a check, not measured)."""
        servers = [self.conn.compute.get_server(server) for server in server_ids]
        return [(server.flavor["original_name"], server.image["id"]) for server in servers]

    def vdu_servers(self, path: str) -> list:
        """Server ids of VDU1's members, oldest first (a check, not measured)."""
        from ansible_collections.nfv.vnflcm.plugins.module_utils.heat.instantiated_info import vnfc_parts

        parts = [vnfc for vnfc in vnfc_parts(self.resources(path)).values() if vnfc["vdu"] == VDU]
        return [item["physical_resource_id"] for vnfc in sorted(parts, key=lambda vnfc: vnfc["index"]) for item in vnfc["servers"].values()]


def instance_servers(instance: dict) -> list:
    items = [item for item in instance["instantiatedVnfInfo"]["vnfcResourceInfo"] if item["vduId"] == VDU]
    return [item["computeResource"]["resourceId"] for item in sorted(items, key=lambda item: item["metadata"]["index"])]


def expect(condition: bool, what: str):
    if not condition:
        raise SystemExit("unexpected: " + what)


def change_request(package: Path) -> dict:
    return {"vnfdId": vnfd_id(package), "additionalParams": {"upgrade_type": "RollingUpdate", "vdu_params": [{"vdu_id": VDU}]}}


def expect_changed(bench: AsgBench, who: str, before: list, after: list, new_image_id: str):
    """The VDU1 servers kept (same ids), on the new flavour and image."""
    expect(after == before, "{0} change of package: servers {1} -> {2}".format(who, before, after))
    found = bench.vdu_flavours_and_images(after)
    expect(found == [(NEW_FLAVOUR[0], new_image_id)] * len(after), "{0} change of package: flavours and images {1}".format(who, found))


def module_side(bench: AsgBench, name: str, package: Path, new_image_id: str) -> dict:
    entry = {}
    known = {}

    def run(module, args):
        result = bench.module_step(module, name, **args)
        known.setdefault("stack", "vnf-" + result["_instance"]["id"])
        return result

    def step(key, module, **args):
        entry[key] = bench.measure(lambda: run(module, args), lambda: [known["stack"]])
        return entry[key].pop("_instance")

    instance = step("instantiate", "vnf_instantiate", package=str(PACKAGE), request=REQUEST)
    first = instance_servers(instance)
    step("rerun", "vnf_instantiate", package=str(PACKAGE), request=REQUEST)
    expect(entry["rerun"]["changed"] is False, "the re-run changed something")
    out = instance_servers(step("scale_out", "vnf_scale", request={"type": "SCALE_OUT", "aspectId": ASPECT, "numberOfSteps": 1}))
    expect(len(out) == len(first) + 1 and out[:len(first)] == first, "module scale out: {0} -> {1}".format(first, out))
    instance = step("scale_in", "vnf_scale", request={"type": "SCALE_IN", "aspectId": ASPECT, "numberOfSteps": 1})
    expect(instance_servers(instance) == first, "module scale in kept {0}, expected {1}".format(instance_servers(instance), first))
    vnfc = [item["id"] for item in instance["instantiatedVnfInfo"]["vnfcInfo"] if item["vnfcResourceInfoId"] == first[0]]
    healed = instance_servers(step("heal", "vnf_heal", request={"vnfcInstanceId": vnfc}))
    expect(len(healed) == len(first) and first[0] not in healed, "module heal: {0} -> {1}".format(first, healed))
    changed = step("change_pkg", "vnf_change_pkg", package=str(package), request=change_request(package))
    expect(entry["change_pkg"]["changed"] is True, "the change of package changed nothing")
    expect_changed(bench, "module", healed, instance_servers(changed), new_image_id)
    step("change_rerun", "vnf_change_pkg", package=str(package), request=change_request(package))
    expect(entry["change_rerun"]["changed"] is False and entry["change_rerun"]["heat_calls"]["write"] == 0,
           "the change re-run: changed {0}, {1} Heat writes".format(entry["change_rerun"]["changed"], entry["change_rerun"]["heat_calls"]["write"]))
    step("terminate", "vnf_terminate", request={"terminationType": "FORCEFUL"})
    return entry


def baseline_side(bench: AsgBench, name: str, stack, new_stack, new_image_id: str) -> dict:
    template, files, nfv_for, count = stack
    entry = {}
    created = {}
    first_stack = (template, files, nfv_for(count))

    def create():
        created.update(bench.stack_create(name, first_stack))

    entry["create"] = bench.measure(create, lambda: [name, created["stack_id"]])
    path = "/stacks/{0}/{1}".format(name, created["stack_id"])
    mine = [name, created["stack_id"]]
    first = bench.vdu_servers(path)
    updated = [None]  # the stack's updated_time after the last update: a new one marks the end of the next

    def scale(target, remove):
        updated[0] = bench.baseline_scale(path, nfv_for, target, updated[0], remove)

    def heal(server):
        updated[0] = bench.baseline_heal(path, server, updated[0])

    def change():
        updated[0] = bench.baseline_change(path, new_stack, count, updated[0])

    entry["scale_out"] = bench.measure(lambda: scale(count + 1, False), lambda: mine)
    out = bench.vdu_servers(path)
    expect(len(out) == len(first) + 1 and out[:len(first)] == first, "baseline scale out: {0} -> {1}".format(first, out))
    entry["scale_in"] = bench.measure(lambda: scale(count, True), lambda: mine)
    expect(bench.vdu_servers(path) == first, "baseline scale in kept {0}, expected {1}".format(bench.vdu_servers(path), first))
    entry["heal"] = bench.measure(lambda: heal(first[0]), lambda: mine)
    healed = bench.vdu_servers(path)
    expect(len(healed) == len(first) and first[0] not in healed, "baseline heal: {0} -> {1}".format(first, healed))
    entry["change_pkg"] = bench.measure(change, lambda: mine)
    expect_changed(bench, "baseline", healed, bench.vdu_servers(path), new_image_id)
    entry["delete"] = bench.measure(lambda: bench.stack_delete(name), lambda: mine)
    return entry


def anchor_side(bench: AsgBench, name: str, stack, new_stack, new_image_id: str) -> dict:
    template, files, nfv_for, count = stack
    entry = {}
    mine = [name]

    def present(which, vdu_count):
        result = bench.anchor_stack(name, (which[0], which[1], which[2](vdu_count)))
        mine[1:] = [result["stack"]["id"]]

    entry["create"] = bench.measure(lambda: present(stack, count), lambda: mine)
    path = "/stacks/{0}/{1}".format(name, mine[1])
    first = bench.vdu_servers(path)
    entry["scale_out"] = bench.measure(lambda: present(stack, count + 1), lambda: mine)
    expect(len(bench.vdu_servers(path)) == len(first) + 1, "openstack.cloud scale out: {0} -> {1}".format(first, bench.vdu_servers(path)))
    entry["scale_in"] = bench.measure(lambda: present(stack, count), lambda: mine)
    kept = bench.vdu_servers(path)
    expect(len(kept) == len(first), "openstack.cloud scale in: {0} -> {1}".format(first, kept))
    entry["change_pkg"] = bench.measure(lambda: present(new_stack, count), lambda: mine)
    expect_changed(bench, "openstack.cloud", kept, bench.vdu_servers(path), new_image_id)
    entry["delete"] = bench.measure(lambda: bench.anchor_stack(name, None, state="absent"), lambda: mine)
    return entry


def clean_up(bench: AsgBench, module_name: str, baseline_name: str):
    """Whatever a failed round left: the module's instance (terminated) and the baseline's stack."""
    try:
        bench.task("vnf_terminate", {"vnf_instance_name": module_name, "cloud": CLOUD, "request": {"terminationType": "FORCEFUL"},
                                     "delete_instance": True, "wait_timeout": 600})
    except SystemExit as error:
        print("clean-up of {0} failed: {1}".format(module_name, error), file=sys.stderr)
    if bench.conn.orchestration.find_stack(baseline_name) is not None:
        bench.stack_delete(baseline_name)


def one_round(bench: AsgBench, stack, change, number: int, anchor: bool = False) -> dict:
    """``change``: the new package's path, its stack (as ``same_stack`` gives it) and the Glance id of NEW_IMAGE."""
    package, new_stack, new_image_id = change
    tag = uuid.uuid4().hex[:6]
    module_name, baseline_name, anchor_name = "bench-asg-m-" + tag, "bench-asg-b-" + tag, "bench-asg-a-" + tag
    contenders = ["module", "baseline"] + (["anchor"] if anchor else [])
    order = contenders[number % len(contenders):] + contenders[:number % len(contenders)]
    entry = {"order": order}
    finished = False
    try:
        for who in order:
            if who == "module":
                entry[who] = module_side(bench, module_name, package, new_image_id)
            elif who == "anchor":
                entry[who] = anchor_side(bench, anchor_name, stack, new_stack, new_image_id)
            else:
                entry[who] = baseline_side(bench, baseline_name, stack, new_stack, new_image_id)
        finished = True
    finally:
        if not finished:
            clean_up(bench, module_name, baseline_name)
            if bench.conn.orchestration.find_stack(anchor_name) is not None:
                bench.stack_delete(anchor_name)
    return entry


def summarise(rounds) -> dict:
    summary = {"module": {}, "baseline": {}, "ratio_seconds_module_to_baseline": {}}
    anchored = "anchor" in rounds[0]
    sides = (("module", MODULE_STEPS), ("baseline", [pair[1] for pair in PAIRS]))
    if anchored:
        summary.update(anchor={}, ratio_seconds_module_to_anchor={})
        sides += (("anchor", [pair[1] for pair in PAIRS if pair[1] != "heal"]),)
    for who, steps in sides:
        for key in steps:
            runs = [r[who][key] for r in rounds]
            summary[who][key] = {"seconds": stats([run["seconds"] for run in runs]),
                                 "heat_reads": stats([run["heat_calls"]["read"] for run in runs]),
                                 "heat_writes": stats([run["heat_calls"]["write"] for run in runs]),
                                 "heat_unscoped": stats([run["heat_calls"]["unscoped"] for run in runs]),
                                 "heat_others": stats([run["heat_calls"]["others"] for run in runs])}
            if who == "module":
                calls = [run["module_api_calls"] for run in runs]
                summary[who][key]["module_api_calls"] = {name: stats([c.get(name, 0) for c in calls]) for name in sorted(set().union(*calls))}
                summary[who][key]["changed"] = sorted({run["changed"] for run in runs})
    for ours, theirs in PAIRS:
        summary["ratio_seconds_module_to_baseline"][ours] = stats([r["module"][ours]["seconds"] / r["baseline"][theirs]["seconds"] for r in rounds])
    total = [sum(r["module"][ours]["seconds"] for ours, _ in PAIRS) / sum(r["baseline"][theirs]["seconds"] for _, theirs in PAIRS) for r in rounds]
    summary["ratio_seconds_module_to_baseline"]["lifecycle"] = stats(total)
    for ours, theirs in PAIRS if anchored else ():
        if theirs != "heal":
            summary["ratio_seconds_module_to_anchor"][ours] = stats([r["module"][ours]["seconds"] / r["anchor"][theirs]["seconds"] for r in rounds])
    return summary


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    parser.add_argument("--anchor", action="store_true", help="openstack.cloud.stack tasks as a third contender")
    args = parser.parse_args(argv)
    state = lab_state()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as work:
        bench = AsgBench(state, Path(work))
        ensure_images(bench.conn)
        stack = same_stack(bench.conn)
        package = new_package(Path(work))
        change_req = change_request(package)
        made_flavour = ensure_flavour(bench.conn)
        rounds = []
        try:
            change = (package, same_stack(bench.conn, package), bench.conn.image.find_image(NEW_IMAGE, ignore_missing=False).id)
            for number in range(args.rounds):
                entry = one_round(bench, stack, change, number, args.anchor)
                rounds.append(entry)
                print(json.dumps(entry), flush=True)
        finally:
            if made_flavour:
                bench.conn.compute.delete_flavor(bench.conn.compute.find_flavor(NEW_FLAVOUR[0]))
    summary = summarise(rounds)
    stamp = datetime.datetime.now(datetime.timezone.utc)
    report = {"benchmark": "heat_asg_lifecycle", "date": stamp.isoformat(), "rounds": args.rounds, "package": "basic_lcms_min",
              "request": REQUEST, "scale": {"aspectId": ASPECT, "numberOfSteps": 1},
              "change_pkg": {"package": "basic_lcms_min, VDU1 m1.tiny -> {0}, cirros-0.5.2-x86_64-disk -> {1}".format(NEW_FLAVOUR[0], NEW_IMAGE),
                             "request": change_req},
              "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "load_before": load_before, "load_after": os.getloadavg()},
              "openstacksdk": openstack.version.__version__, "summary": summary, "runs": rounds}
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "heat_asg_lifecycle-{0}.json".format(stamp.strftime("%Y-%m-%d"))
    path.write_text(json.dumps(report, indent=1) + "\n")
    print("step         module_s  baseline_s  ratio (min-max)       heat r/w module  heat r/w baseline")
    for ours, theirs in PAIRS:
        mine, base, ratio = summary["module"][ours], summary["baseline"][theirs], summary["ratio_seconds_module_to_baseline"][ours]
        print("{0:12} {1:8}  {2:10}  {3} ({4}-{5})  {6}/{7}  {8}/{9}".format(
            ours, mine["seconds"]["median"], base["seconds"]["median"], ratio["median"], ratio["min"], ratio["max"],
            mine["heat_reads"]["median"], mine["heat_writes"]["median"], base["heat_reads"]["median"], base["heat_writes"]["median"]))
    for ours, theirs in PAIRS if args.anchor else ():
        if theirs != "heal":
            anchor, ratio = summary["anchor"][theirs], summary["ratio_seconds_module_to_anchor"][ours]
            print("{0:12} openstack.cloud {1} s, ours/openstack.cloud {2} ({3}-{4}), heat r/w {5}/{6}".format(
                ours, anchor["seconds"]["median"], ratio["median"], ratio["min"], ratio["max"], anchor["heat_reads"]["median"],
                anchor["heat_writes"]["median"]))
    for key in ("rerun", "change_rerun"):
        rerun = summary["module"][key]
        print("{0:12} {1:8}  changed {2}, heat {3}/{4}".format(key, rerun["seconds"]["median"], rerun["changed"], rerun["heat_reads"]["median"],
                                                               rerun["heat_writes"]["median"]))
    print("written", path)
    ratios.regenerate(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
