#!/usr/bin/env python3
"""Where `make integration`'s time goes: the JUnit XML it keeps per part, summed per file (and, for the OpenStack part,
per pytest-xdist group: --dist loadgroup writes each test's group into its name, `<test>@<group>`).

    python3 tools/test_times.py [XML ...]     # default: ~/.cache/nfv-vnflcm/integration-times-*.xml

Each part: its tests' summed time (what its workers spent), then its files or groups longest first. The sums are of
test time (setup, call and teardown) and leave out a worker's start and its session fixtures' teardown.
"""

import collections
import glob
import os
import sys
import xml.etree.ElementTree as ET

def cases(path):
    """(file, test, group, seconds, failed) of each test case: --dist loadgroup names a test `<name>@<group>`; a test
    without one is its file's (--dist loadfile)."""
    for case in ET.parse(path).getroot().iter("testcase"):
        file_name = case.get("classname", "").rsplit(".", 1)[-1] + ".py"
        test_name, _, group = case.get("name", "").partition("@")
        failed = case.find("failure") is not None or case.find("error") is not None
        yield file_name, test_name, group or file_name, float(case.get("time") or 0), failed


def report(path):
    by_file = collections.Counter()
    by_group = collections.Counter()
    count, failed = 0, []
    for file_name, test_name, group, seconds, bad in cases(path):
        count += 1
        by_file[file_name] += seconds
        by_group[group] += seconds
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
    for path in paths:
        report(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
