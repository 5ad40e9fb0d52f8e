"""Every operation against its peer: the first table of benchmarks/README.md and results/ratios.svg, from the result files.

ROWS below names, for each row, the result file (in benchmarks/results) and the field its ratio comes from (or how it
is computed from two figures of that file); the words are typed here, the figures all come from the JSON. A row whose
figure is in no result file stays in the table with a note and is left out of the plot.

    python3 benchmarks/ratios.py      # writes results/ratios.svg, prints the Markdown table

The benchmarks call regenerate() after writing their result file. To put a new run in the table and the plot, name its
file in the rows it measures (SOURCES and ROWS), then paste the printed table into the README.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from xml.sax.saxutils import escape

RESULTS = Path(__file__).resolve().parent / "results"
SVG = RESULTS / "ratios.svg"

# The result files the table is built from, with the command line that wrote each.
OPS = "cnf_operations-2026-11-27-five-rounds.json"
INSTANTIATE = "cnf_instantiate-2026-12-02.json"
CHANGE_PKG = "cnf_change_pkg-2026-11-27-side_by_side.json"
FLEET_1_16 = "fleet_lifecycle-2026-11-27-forks-1-16.json"
FLEET_4_8 = "fleet_lifecycle-2026-11-27.json"
HEAT = "heat_asg_lifecycle-2026-11-27-anchor.json"
HELM = "helm_operations-2026-11-30.json"
CALL = "module_call_cost-2026-11-30.json"
SOURCES = {
    OPS: "cnf_operations.py --rounds 5",
    INSTANTIATE: "cnf_instantiate.py --rounds 3",
    CHANGE_PKG: "cnf_change_pkg.py --rounds 3 --rollout side_by_side",
    FLEET_1_16: "fleet_lifecycle.py --instances 8 --forks 1,16 --overlap-forks 0 --contenders role,kubernetes.core",
    FLEET_4_8: "fleet_lifecycle.py --instances 8 --forks 8,4 --overlap-forks 0",
    HEAT: "heat_asg_lifecycle.py --rounds 2 --anchor",
    HELM: "helm_operations.py --rounds 3",
    CALL: "module_call_cost.py --rounds 5 --import-rounds 3 --before HEAD",
}


def at(*keys):
    """A getter: the value at ``keys`` (dict keys, in turn) of a result file."""
    def get(data):
        for key in keys:
            data = data[key]
        return data
    return get


def spread(*keys):
    """A ratio getter: (median, min, max) of the stats at ``keys`` (the benchmarks' {"median", "min", "max"})."""
    get = at(*keys)

    def ratio(data):
        stats = get(data)
        return stats["median"], stats["min"], stats["max"]
    return ratio


def difference(minuend, subtrahend):
    """A getter: one figure of the file less another (e.g. our median seconds less the peer's)."""
    return lambda data: minuend(data) - subtrahend(data)


def change_less_start(data):
    """cnf_change_pkg: the change's wall ratio less ``ansible-playbook``'s own start.

    Derived: (our median wall - the no-op playbook's median wall) / kubectl's median wall, from summary.change.wall_s
    and summary.ansible_overhead_s (the file has the plain ratio only).
    """
    wall = data["summary"]["change"]["wall_s"]
    return (wall["vnflcm"]["median"] - data["summary"]["ansible_overhead_s"]["median"]) / wall["kubectl"]["median"]


def fleet(forks, key):
    """A getter: the role's ``key`` over kubernetes.core's at ``forks``, from the file's list "lifecycle".

    Derived: one run per contender and forks value, so one figure and no range; the file keeps the same two ratios,
    rounded, as text in the role's "ratio_to_kubernetes_core" ("wall, CPU").
    """
    def ratio(data):
        entry = {(item["contender"], item["forks"]): item for item in data["lifecycle"]}
        return entry[("role", forks)][key] / entry[("kubernetes.core", forks)][key]
    return ratio


def single(get):
    """A ratio getter of one figure (median, min and max alike): a ratio the file has no range for."""
    def ratio(data):
        value = get(data)
        return value, value, value
    return ratio


def fleet_wall(forks):
    """A ratio getter: the fleet's wall time, the role over kubernetes.core (wall_s), one run: no range."""
    return single(fleet(forks, "wall_s"))


def call(metric):
    """A ratio getter: module_call_cost's vnf_info over k8s_info (anchor.kubernetes.ratio.<metric>), a ratio of two
    medians: no range."""
    return single(at("anchor", "kubernetes", "ratio", metric))


def ops(operation, metric, *rest):
    """A getter into cnf_operations' summary: summary.<operation>.<metric>...; ratio getters end in "ratio"."""
    return (spread if rest[-1:] == ("ratio",) else at)("summary", operation, metric, *rest)


def helm(operation, metric, *rest):
    """A getter into helm_operations' summary: summary.<operation>.<metric>...; ratio getters end in "ratio"."""
    return (spread if rest[-1:] == ("ratio",) else at)("summary", operation, metric, *rest)


def helm_profile(operation, key):
    """A getter: our median of profile.<operation>.vnflcm.<key> less kubernetes.core's (the profile round's helm timings)."""
    return difference(at("profile", operation, "vnflcm", key, "median"), at("profile", operation, "kcore", key, "median"))


K8S = "Kubernetes: one-task playbook against kubernetes.core (cnf_operations.py)"
HELM_GROUP = "Helm-chart CNF: one-task playbook against kubernetes.core.helm (helm_operations.py)"
KUBECTL = "Kubernetes: against kubectl, a reference"
FLEET = "Fleet of 8 CNFs: the role's playbooks against a kubernetes.core fleet (fleet_lifecycle.py)"
HEAT_GROUP = "OpenStack Heat: against openstack.cloud (heat_asg_lifecycle.py --anchor)"
CALL_GROUP = "A module call's start-up: vnf_info against k8s_info (module_call_cost.py)"

# One row per operation: group (of the plot), operation, peer, file, ratio (a getter giving median, min, max of
# ours / peer, wall time; None: no figure), values (getters for the {names} of cell and note; {low} and {high} are the
# ratio's min and max), cell (appended to the ratio in the table), note ("where it stands"), plot and plot_peer
# (shorter labels for the plot), left_out (why a row without a figure is not plotted, under the plot).
ROWS = [
    dict(group=K8S, operation="instantiate (CNF, 3 objects)", peer="`kubernetes.core.k8s`, `wait`", file=OPS,
         ratio=ops("instantiate", "wall_s", "ratio"), note="under"),
    dict(group=K8S, operation="info", peer="`k8s_info`", file=OPS, ratio=ops("info", "wall_s", "ratio"),
         values=dict(ours=ops("info", "reads", "vnflcm", "median"), theirs=ops("info", "reads", "kcore", "median"),
                     cpu=ops("info", "cpu_s", "ratio", "median")),
         note="on par: {ours} reads (the record, then its pods) against {theirs}; CPU {cpu:.2f}"),
    dict(group=K8S, operation="scale to level", peer="`k8s_scale`, `wait`", file=OPS, ratio=ops("scale_to_level", "wall_s", "ratio"),
         note="under"),
    dict(group=K8S, operation="scale one step", peer="`k8s_scale`, `wait`", file=OPS, ratio=ops("scale", "wall_s", "ratio"), note="under"),
    dict(group=K8S, operation="heal one VNFC", peer="`k8s` absent of the pod + `k8s_info` `wait`", file=OPS,
         ratio=ops("heal", "wall_s", "ratio"), note="under", plot_peer="k8s absent of the pod + k8s_info wait"),
    dict(group=K8S, operation="change of image (`vnf_modify`)", peer="`k8s` apply, `wait`", file=OPS, ratio=ops("modify", "wall_s", "ratio"),
         note="under"),
    # over by: our median wall seconds less kubernetes.core's (summary.terminate.wall_s); the parts of it were measured
    # apart, on a private lab (README, cnf_operations.py), and are in no result file.
    dict(group=K8S, operation="terminate", peer="`k8s` absent, `wait`", file=OPS, ratio=ops("terminate", "wall_s", "ratio"),
         values=dict(over=difference(ops("terminate", "wall_s", "vnflcm", "median"), ops("terminate", "wall_s", "kcore", "median"))),
         note="over by {over:.1f} s: Foreground deletion (VNFCs gone when it ends, about 0.1 s), the op occ's record writes and "
              "the ownership GET of each object (about 0.1 s), start-up (0.15 s more CPU); see `cnf_operations.py` below"),
    # Helm: the wall ratios from summary.<operation>.wall_s.ratio; "start" is the profile round's time before the first helm
    # call, ours less the peer's (ansible-playbook's start, the module's payload and imports, its connection and plan).
    dict(group=HELM_GROUP, operation="Helm install (Tacker's test_helm_instantiate, 2 VDUs)", peer="`kubernetes.core.helm` present, `wait`",
         file=HELM, ratio=helm("install", "wall_s", "ratio"),
         values=dict(cpu=helm("install", "cpu_s", "ratio", "median"), start=helm_profile("install", "before_first_helm_s"),
                     wait=at("profile", "install", "kcore", "by_command", "upgrade", "wall_s", "median")),
         note="under: the peer's `helm upgrade --install --wait` polls every 2 s (Helm 3), {wait:.1f} s of its run; ours installs "
              "without `--wait` and watches the pods. CPU {cpu:.2f}x: start-up ({start:.1f} s more before the first helm call)",
         plot="Helm install", plot_peer="kubernetes.core.helm present, wait"),
    dict(group=HELM_GROUP, operation="Helm change of package (chart 0.1.1, `vnf_change_pkg`)", peer="`kubernetes.core.helm` present, the new chart, `wait`",
         file=HELM, ratio=helm("upgrade", "wall_s", "ratio"),
         values=dict(cpu=helm("upgrade", "cpu_s", "ratio", "median"), start=helm_profile("upgrade", "before_first_helm_s")),
         note="under while the peer's 2 s poll waits once; when its first check finds the new pods ready, over (an earlier, "
              "busier run: see `helm_operations.py` below). CPU {cpu:.2f}x",
         plot="Helm change of package", plot_peer="kubernetes.core.helm present, new chart, wait"),
    dict(group=HELM_GROUP, operation="Helm terminate (`vnf_terminate`)", peer="`kubernetes.core.helm` absent, `wait`",
         file=HELM, ratio=helm("uninstall", "wall_s", "ratio"),
         values=dict(cpu=helm("uninstall", "cpu_s", "ratio", "median"), start=helm_profile("uninstall", "before_first_helm_s"),
                     with_delete=at("summary", "uninstall", "wall_s_with_delete_ratio", "median"),
                     over=difference(helm("uninstall", "wall_s", "vnflcm", "median"), helm("uninstall", "wall_s", "kcore", "median")),
                     ours=helm("uninstall", "writes", "vnflcm", "median"), theirs=helm("uninstall", "writes", "kcore", "median")),
         cell="; {with_delete:.2f} with the `vnf_delete` after it",
         note="over by {over:.2f} s: start-up ({start:.1f} s more before the first helm call: payload, imports, connection, the "
              "record's reads) and the record's writes ({ours:.0f} writes against {theirs:.0f}); helm's calls take less than the peer's",
         plot="Helm terminate", plot_peer="kubernetes.core.helm absent, wait"),
    # The 1.4 s is summary.ansible_overhead_s; the module's start and plan (1.1 s) and the API work (0.37x) come from a
    # profile of the module's process on the same lab (README, cnf_instantiate.py), in no result file.
    dict(group=KUBECTL, operation="instantiate, 200 objects", peer="`kubectl apply` + `kubectl wait` (reference)", file=INSTANTIATE,
         ratio=spread("summary", "first", "wall_s", "ratio"), values=dict(start=at("summary", "ansible_overhead_s", "median")),
         note="over: `ansible-playbook`'s start ({start:.1f} s with a no-op task), which kubectl does not pay, and the module's start and "
              "plan; less the former 0.84x (1.35 on 2026-11-27, before the collection's code was compiled once); the API work itself is "
              "0.37x kubectl's, and both end when the cluster has made the pods ready",
         plot_peer="kubectl apply + kubectl wait"),
    dict(group=KUBECTL, operation="change of package, 4 Deployments, `rollout: side_by_side`", peer="`kubectl apply` + `rollout status` (reference)",
         file=CHANGE_PKG, ratio=spread("summary", "change", "wall_s", "ratio"),
         values=dict(less=change_less_start, ours=at("summary", "change", "watch_min_total_ready", "vnflcm", "median"),
                     theirs=at("summary", "change", "watch_min_total_ready", "kubectl", "median")),
         cell="; {less:.2f} less `ansible-playbook`'s start",
         note="over by `ansible-playbook`'s start and the module's; as many pods stay ready as with kubectl (at the lowest {ours} of 16, kubectl {theirs})",
         plot="change of package, 4 Deployments, side by side", plot_peer="kubectl apply + rollout status"),
    dict(group=FLEET, operation="fleet of 8 CNFs, the playbooks, forks 1", peer="a kubernetes.core fleet", file=FLEET_1_16,
         ratio=fleet_wall(1), values=dict(cpu=fleet(1, "ansible_cpu_s_per_op")),
         note="under: the role's waits are watched, kubernetes.core's heal polls every second, one host after the other; "
              "CPU per operation {cpu:.2f}x the peer's", plot="fleet, forks 1"),
    dict(group=FLEET, operation="the same, forks 4", peer="a kubernetes.core fleet", file=FLEET_4_8,
         ratio=fleet_wall(4), values=dict(cpu=fleet(4, "ansible_cpu_s_per_op")),
         note="within the 1.5x asked; CPU per operation {cpu:.2f}x (a run before one payload per operation)", plot="fleet, forks 4"),
    dict(group=FLEET, operation="the same, forks 8", peer="a kubernetes.core fleet", file=FLEET_4_8,
         ratio=fleet_wall(8), values=dict(cpu=fleet(8, "ansible_cpu_s_per_op")),
         note="within the 1.5x asked; CPU per operation {cpu:.2f}x (the same run)", plot="fleet, forks 8"),
    dict(group=FLEET, operation="the same, forks 16", peer="a kubernetes.core fleet", file=FLEET_1_16,
         ratio=fleet_wall(16), values=dict(cpu=fleet(16, "ansible_cpu_s_per_op")),
         note="on par; CPU per operation {cpu:.2f}x", plot="fleet, forks 16"),
    # The same read on the same lab (one namespace's instances / its record Secrets); "before": the same run's figures of
    # the tree before the bytecode cache (anchor.kubernetes.ratio_before).
    dict(group=CALL_GROUP, operation="one read, the module's process (its AnsiballZ file)", peer="`kubernetes.core.k8s_info`",
         file=CALL, ratio=call("process_wall_s"), values=dict(before=at("anchor", "kubernetes", "ratio_before", "process_wall_s")),
         note="under: the collection's code compiled once and kept, not on every call (before: {before:.2f}); medians of 5",
         plot="one read, module process", plot_peer="k8s_info, module process"),
    dict(group=CALL_GROUP, operation="one read, a one-task `ansible-playbook`", peer="`kubernetes.core.k8s_info`",
         file=CALL, ratio=call("playbook_wall_s"), values=dict(before=at("anchor", "kubernetes", "ratio_before", "playbook_wall_s")),
         note="under (before: {before:.2f}); `ansible-playbook`'s own start and the payload's build are on both sides",
         plot="one read, one-task playbook", plot_peer="k8s_info, one-task playbook"),
    # over by: the module's median seconds less openstack.cloud's (summary.module.instantiate, summary.anchor.create).
    dict(group=HEAT_GROUP, operation="Heat instantiate (basic_lcms_min, level 1)", peer="`openstack.cloud.stack` `state: present`, `wait`",
         file=HEAT, ratio=spread("summary", "ratio_seconds_module_to_anchor", "instantiate"),
         values=dict(over=difference(at("summary", "module", "instantiate", "seconds", "median"), at("summary", "anchor", "create", "seconds", "median")),
                     ours=at("summary", "module", "instantiate", "heat_writes", "median"),
                     theirs=at("summary", "anchor", "create", "heat_writes", "median")),
         note="over by {over:.1f} s: Heat's preview of the stack before the first write (the whole plan checked) and the record's "
              "writes (name claim, two record signals: {ours:.0f} Heat writes against {theirs:.0f})",
         plot="Heat instantiate", plot_peer="openstack.cloud.stack present, wait"),
    dict(group=HEAT_GROUP, operation="Heat scale out", peer="the same task with `desired_capacity` + 1", file=HEAT,
         ratio=spread("summary", "ratio_seconds_module_to_anchor", "scale_out"),
         note="not settled in two rounds ({low:.2f} and {high:.2f}: Heat's own update time varies by seconds on this lab)",
         plot_peer="stack task, desired_capacity + 1"),
    dict(group=HEAT_GROUP, operation="Heat scale in", peer="the same task with `desired_capacity` − 1", file=HEAT,
         ratio=spread("summary", "ratio_seconds_module_to_anchor", "scale_in"), note="under",
         plot_peer="stack task, desired_capacity − 1"),
    # No figure: openstack.cloud cannot mark a resource unhealthy, so the benchmark has no anchor step for heal; only
    # against Tacker's procedure by hand (summary.ratio_seconds_module_to_baseline.heal).
    dict(group=HEAT_GROUP, operation="Heat heal one VNFC", peer="– (openstack.cloud cannot mark a resource unhealthy)", file=HEAT, ratio=None,
         values=dict(tacker=at("summary", "ratio_seconds_module_to_baseline", "heal", "median")),
         note="no peer, not plotted; against Tacker's procedure by hand {tacker:.2f}",
         left_out="no peer: openstack.cloud cannot mark a resource unhealthy; against Tacker's procedure by hand {tacker:.2f}×"),
    dict(group=HEAT_GROUP, operation="Heat change of package (flavour and image of VDU1)", peer="the same task with the new package's template and `nfv`",
         file=HEAT, ratio=spread("summary", "ratio_seconds_module_to_anchor", "change_pkg"),
         values=dict(ours=at("summary", "module", "change_pkg", "heat_writes", "median"),
                     theirs=at("summary", "anchor", "change_pkg", "heat_writes", "median")),
         note="over by the preview and the record's writes ({ours:.0f} Heat writes against {theirs:.0f}), and it rolls VNFC by VNFC "
              "(here one), where the peer replaces at once",
         plot="Heat change of package", plot_peer="stack task, the new package's template"),
    dict(group=HEAT_GROUP, operation="Heat terminate", peer="`openstack.cloud.stack` `state: absent`", file=HEAT,
         ratio=spread("summary", "ratio_seconds_module_to_anchor", "terminate"), note="under"),
]


def load(name, cache):
    if name not in cache:
        cache[name] = json.loads((RESULTS / name).read_text())
    return cache[name]


def evaluate(rows=ROWS):
    """Each row with its figures: ratio (median, min, max) or None, values, and why a figure is missing (error)."""
    cache, out = {}, []
    for row in rows:
        entry = dict(row, figures=None, error=None)
        try:
            data = load(row["file"], cache)
            entry["figures"] = row["ratio"](data) if row["ratio"] else None
            values = {name: get(data) for name, get in row.get("values", {}).items()}
            if entry["figures"]:
                values.update(low=entry["figures"][1], high=entry["figures"][2])
            entry["values"] = values
        except OSError:
            entry.update(figures=None, values={}, error="no file results/{0}".format(row["file"]))
        except KeyError as error:
            entry.update(figures=None, values={}, error="no field {0} in results/{1}".format(error, row["file"]))
        except (ValueError, TypeError, ZeroDivisionError) as error:
            entry.update(figures=None, values={}, error="{0} in results/{1}".format(error, row["file"]))
        out.append(entry)
    return out


def fill(text, values):
    """``text`` with its {name:format} fields from ``values``; a field with no value is shown as "?"."""
    def one(match):
        name, spec = match.group(1), match.group(2) or ""
        return format(values[name], spec) if name in values else "?"
    return re.sub(r"\{(\w+)(?::([^}]*))?\}", one, text)


def ratio_text(figures, bold="**"):
    median, low, high = figures
    text = "{0}{1:.2f}{0}".format(bold, median)
    if "{0:.2f}".format(low) != "{0:.2f}".format(high):
        text += " [{0:.2f}–{1:.2f}]".format(low, high)
    return text


def markdown(entries):
    """The README's table: operation, peer, ours / peer (wall), where it stands, source."""
    lines = ["| operation | peer | ours / peer (wall) | where it stands | source |", "|---|---|---|---|---|"]
    previous = None
    for entry in entries:
        if entry["figures"]:
            cell = ratio_text(entry["figures"]) + fill(entry.get("cell", ""), entry["values"])
        elif entry["error"]:
            cell = "– (not in the results: {0})".format(entry["error"])
        else:
            cell = "–"
        source = "same" if entry["file"] == previous else "`{0}` (`results/{1}`)".format(SOURCES[entry["file"]], entry["file"])
        previous = entry["file"]
        lines.append("| {0} | {1} | {2} | {3} | {4} |".format(entry["operation"], entry["peer"], cell, fill(entry["note"], entry["values"]), source))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# The plot: a horizontal bar per row with a figure, grouped, a line at 1.0x

WIDTH, LEFT, SCALE_W, ROW_H, GROUP_H = 960, 370, 410, 36, 32
VALUE_X = LEFT + SCALE_W + 30
FONT = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"
UNDER, OVER, INK, GREY, GRID = "#3a78b5", "#e08a2c", "#222222", "#666666", "#e4e4e4"


def plain(text):
    return escape(text.replace("`", ""))


def svg(entries):
    """The SVG text: a bar per row with a ratio, whiskers min–max, the values in a column; rows without one named below."""
    plotted = [entry for entry in entries if entry["figures"]]
    left_out = [entry for entry in entries if not entry["figures"]]
    top = max([entry["figures"][2] for entry in plotted] + [1.5])
    top = int(top * 2 + 0.999) / 2.0  # the axis ends at the next 0.5 above the largest whisker

    def x_of(value):
        return LEFT + SCALE_W * value / top

    groups = []
    for entry in plotted:
        if not groups or groups[-1][0] != entry["group"]:
            groups.append((entry["group"], []))
        groups[-1][1].append(entry)
    chart_top = 88
    chart_bottom = chart_top + sum(GROUP_H + ROW_H * len(rows) for _, rows in groups)
    height = chart_bottom + 36 + 20 * len(left_out) + 14
    ticks = [0.5 * i for i in range(int(top / 0.5) + 1)]

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" font-family="{2}">'.format(WIDTH, height, FONT),
           '<rect width="100%" height="100%" fill="#ffffff"/>',
           '<text x="16" y="28" font-size="18" font-weight="bold" fill="{0}">Wall time of each operation against its peer: ours / peer</text>'.format(INK),
           '<text x="16" y="50" font-size="13" fill="{0}">Median of the rounds, whisker min–max (none: one run). Left of 1× the collection '
           'is faster, right of it slower.</text>'.format(GREY)]
    for tick in ticks:
        bold = ' font-weight="bold"' if tick == 1.0 else ""
        out.append('<text x="{0:.1f}" y="{1}" font-size="12" fill="{2}" text-anchor="middle"{3}>{4}</text>'.format(
            x_of(tick), chart_top - 8, INK if bold else GREY, bold, "1× = peer" if tick == 1.0 else "{0:g}×".format(tick)))
    out.append('<text x="{0}" y="{1}" font-size="12" fill="{2}">ours / peer</text>'.format(VALUE_X, chart_top - 8, GREY))

    y = chart_top
    for group, rows in groups:
        out.append('<text x="16" y="{0}" font-size="13" font-weight="bold" fill="{1}">{2}</text>'.format(y + 21, INK, plain(group)))
        out.append('<line x1="16" y1="{0}" x2="{1}" y2="{0}" stroke="#bdbdbd"/>'.format(y + GROUP_H - 2, WIDTH - 16))
        y += GROUP_H
        bottom = y + ROW_H * len(rows)
        for tick in ticks:  # the grid of this group's rows, the 1× line over the bars is drawn after them
            out.append('<line x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2}" stroke="{3}"/>'.format(x_of(tick), y, bottom, GREY if tick == 0 else GRID))
        for entry in rows:
            median, low, high = entry["figures"]
            middle = y + ROW_H / 2
            label, peer = entry.get("plot", entry["operation"]), entry.get("plot_peer", entry["peer"])
            out.append('<text x="{0}" y="{1:.1f}" font-size="13" fill="{2}" text-anchor="end">{3}</text>'.format(LEFT - 12, middle - 2, INK, plain(label)))
            out.append('<text x="{0}" y="{1:.1f}" font-size="11" fill="{2}" text-anchor="end">vs {3}</text>'.format(LEFT - 12, middle + 12, GREY, plain(peer)))
            out.append('<rect x="{0}" y="{1:.1f}" width="{2:.1f}" height="16" fill="{3}"/>'.format(
                LEFT, middle - 8, x_of(median) - LEFT, UNDER if median < 1.0 else OVER))
            spread_text = ""
            if "{0:.2f}".format(low) != "{0:.2f}".format(high):
                out.append('<g stroke="{0}" stroke-width="1.5"><line x1="{1:.1f}" y1="{3:.1f}" x2="{2:.1f}" y2="{3:.1f}"/>'
                           '<line x1="{1:.1f}" y1="{4:.1f}" x2="{1:.1f}" y2="{5:.1f}"/><line x1="{2:.1f}" y1="{4:.1f}" x2="{2:.1f}" y2="{5:.1f}"/></g>'.format(
                               INK, x_of(low), x_of(high), middle, middle - 5, middle + 5))
                spread_text = '<tspan dx="6" fill="{0}">[{1:.2f}–{2:.2f}]</tspan>'.format(GREY, low, high)
            out.append('<text x="{0}" y="{1:.1f}" font-size="13" fill="{2}"><tspan font-weight="bold">{3:.2f}×</tspan>{4}</text>'.format(
                VALUE_X, middle + 4.5, INK, median, spread_text))
            y += ROW_H
        out.append('<line x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2}" stroke="{3}" stroke-width="2"/>'.format(x_of(1.0), y - ROW_H * len(rows), y, INK))

    y = chart_bottom + 28
    out.append('<rect x="16" y="{0}" width="12" height="12" fill="{1}"/><text x="34" y="{2}" font-size="12" fill="{3}">under the peer</text>'.format(
        y - 10, UNDER, y, INK))
    out.append('<rect x="136" y="{0}" width="12" height="12" fill="{1}"/><text x="154" y="{2}" font-size="12" fill="{3}">over the peer</text>'.format(
        y - 10, OVER, y, INK))
    out.append('<text x="258" y="{0}" font-size="12" fill="{1}">Whole runs on 2 shared cores; figures from benchmarks/results/*.json, '
               'drawn by benchmarks/ratios.py.</text>'.format(y, GREY))
    for entry in left_out:
        y += 20
        reason = entry["error"] or fill(entry.get("left_out", entry["note"]), entry["values"])
        out.append('<text x="16" y="{0}" font-size="12" fill="{1}">Not plotted: {2}, {3}</text>'.format(y, GREY, plain(entry["operation"]), plain(reason)))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def regenerate(written=None):
    """Write results/ratios.svg from ROWS; after a benchmark, say whether its new file ``written`` is in the table."""
    entries = evaluate()
    SVG.write_text(svg(entries))
    print("written:", SVG)
    for entry in entries:
        if entry["error"]:
            print("ratios: {0}: {1}".format(entry["operation"], entry["error"]), file=sys.stderr)
    if written is not None and Path(written).name not in SOURCES:
        benchmark = Path(written).name.split("-")[0]
        named = sorted(name for name in SOURCES if name.split("-")[0] == benchmark)
        if named:
            print("ratios: the table reads {0}; to plot {1}, name it in SOURCES and ROWS of benchmarks/ratios.py".format(
                ", ".join(named), Path(written).name))
    return entries


def main():
    entries = regenerate()
    print()
    print(markdown(entries), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
