# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What `make demo-vm` runs besides the modules, run as it runs it: tools/demo/demo_lab.py repackage copies a package
with a vnfdId of its own through the tests' helper (which imports the staged collection). No lab needed."""

from __future__ import annotations

import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def test_the_demos_repackage_gives_a_copy_a_vnfd_id_of_its_own(tacker_packages, tmp_path):
    source = os.path.join(tacker_packages, "userdata_standard_change_vnfpkg_nw")
    # A fresh Python, as the demo's command task starts it: the staged collection only through ANSIBLE_COLLECTIONS_PATH.
    done = subprocess.run([sys.executable, os.path.join(REPO, "tools", "demo", "demo_lab.py"), "repackage", source, str(tmp_path / "new")],
                          capture_output=True, text=True, check=False, cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["path"] == str(tmp_path / "new") and result["vnfd_id"] != result["source_vnfd_id"]
    assert os.path.isfile(os.path.join(result["path"], "TOSCA-Metadata", "TOSCA.meta"))
