#!/usr/bin/env python3
"""Where `make integration`'s time goes: the JUnit XML it keeps per part, summed per file (and, for the OpenStack part,
per pytest-xdist group as tests/integration/openstack/conftest.py's XDIST_GROUPS makes them).

    python3 tools/test_times.py [XML ...]     # default: ~/.cache/nfv-vnflcm/integration-times-*.xml

Each part: its tests' summed time (what its workers spent), then its files or groups longest first. The sums are of
test time (setup, call and teardown) and leave out a worker's start and its session fixtures' teardown.
"""

import ast
import collections
import glob
import os
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
OPENSTACK_CONFTEST = os.path.join(HERE, "..", "tests", "integration", "openstack", "conftest.py")


def xdist_groups():
    """XDIST_GROUPS of the OpenStack conftest, read without importing it (it needs pytest and the staged collection)."""
    tree = ast.parse(open(OPENSTACK_CONFTEST).read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "XDIST_GROUPS":
            return ast.literal_eval(node.value)
    return {}


def group_of(file_name, test_name, groups):
    return groups.get(f"{file_name}::{test_name}") or groups.get(file_name) or file_name


def cases(path):
    """(file, test, group or None, seconds, failed) of each test case; --dist loadgroup names a test `<name>@<group>`."""
    for case in ET.parse(path).getroot().iter("testcase"):
        file_name = case.get("classname", "").rsplit(".", 1)[-1] + ".py"
        test_name, _, group = case.get("name", "").partition("@")
        failed = case.find("failure") is not None or case.find("error") is not None
        yield file_name, test_name, group or None, float(case.get("time") or 0), failed


def report(path, groups):
    by_file = collections.Counter()
    by_group = collections.Counter()
    count, failed = 0, []
    for file_name, test_name, group, seconds, bad in cases(path):
        count += 1
        by_file[file_name] += seconds
        by_group[group or group_of(file_name, test_name, groups)] += seconds
        if bad:
            failed.append(f"{file_name}::{test_name}")
    total = sum(by_file.values())
    print(f"{os.path.basename(path)}: {count} tests, {total / 60:.1f} worker-min"
          + (f", {len(failed)} failed: {', '.join(failed)}" if failed else ""))
    rows = by_group if "openstack" in os.path.basename(path) else by_file
    for name, seconds in rows.most_common():
        print(f"  {seconds / 60:6.1f} min  {name}")


def main(argv):
    paths = argv or sorted(glob.glob(os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
                                                  "nfv-vnflcm", "integration-times-*.xml")))
    if not paths:
        print("no JUnit XML: run `make integration` first")
        return 1
    groups = xdist_groups()
    for path in paths:
        report(path, groups)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
