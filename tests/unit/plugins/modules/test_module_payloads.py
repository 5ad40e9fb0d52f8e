# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What each module's AnsiballZ payload carries of the collection, found by Ansible's own finder: its operation's code
on either VIM (the VIM is chosen at run time), and no other operation's.

Ansible builds, sends, unpacks and compiles the payload on every call, and packs every module_util a module's imports
can reach, function-level imports included: one import of a dispatch that reaches every operation would put them all
in every module.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ansible_collections.nfv.vnflcm.plugins.module_utils.lcm.drivers import DRIVER_VIMS

COLLECTION = Path(__file__).resolve().parents[4]
MODULES = COLLECTION / "plugins" / "modules"
PREFIX = "ansible_collections/nfv/vnflcm/plugins/module_utils/"

# One process, as ansible-playbook builds them (the plugin loader is global state).
FINDER = """
import datetime, inspect, io, json, os, sys, zipfile
from ansible.executor import module_common
from ansible.plugins.loader import init_plugin_loader
init_plugin_loader([sys.argv[1]])
accepted = inspect.signature(module_common.recursive_finder).parameters
out = {}
for path in sys.argv[2:]:
    name = os.path.basename(path)[:-3]
    payload = zipfile.ZipFile(io.BytesIO(), "w")
    kwargs = {}
    if "extension_manager" in accepted:  # ansible-core >= 2.19: a datetime
        from ansible._internal._ansiballz._builder import ExtensionManager
        kwargs.update(extension_manager=ExtensionManager(), date_time=datetime.datetime(2020, 1, 1))
    elif "date_time" in accepted:  # before: zipfile's tuple
        kwargs["date_time"] = (2020, 1, 1, 0, 0, 0)
    with open(path, "rb") as handle:
        module_common.recursive_finder(name, "ansible_collections.nfv.vnflcm.plugins.modules." + name, handle.read(), payload, **kwargs)
    out[name] = payload.namelist()
print(json.dumps(out))
"""

# The operation files of each VIM (lcm/cnf/<operation>.py, lcm/vm/<operation>.py) a module may carry: its own, and those
# whose code its operation runs too (a change of package rolls as a container update does; terminate with
# delete_instance deletes the identifier): pod replacement is k8s/pods.py's, so modify does not carry heal. vnf_lcm_op_occ resumes every
# operation: it carries them all.
OPERATIONS = ("instantiate", "scale", "heal", "terminate", "delete", "modify", "change_pkg", "change_ext_conn", "resume", "info")
CARRIES = {
    "vnf_instantiate": {"instantiate", "heal"},  # a repair of drift on OpenStack heals the VNFCs that drifted
    "vnf_scale": {"scale"},
    "vnf_scale_to_level": {"scale"},
    "vnf_heal": {"heal"},
    "vnf_terminate": {"terminate", "delete"},
    "vnf_delete": {"delete"},
    "vnf_modify": {"modify"},
    "vnf_change_pkg": {"change_pkg", "modify"},
    "vnf_change_ext_conn": {"change_ext_conn"},
    "vnf_lcm_op_occ": set(OPERATIONS) - {"info"},
    "vnf_info": {"info"},
    "vnf_package_info": set(),
}
# Only the operations that read a package carry the reader.
READS_PACKAGE = {"vnf_instantiate", "vnf_modify", "vnf_change_pkg", "vnf_lcm_op_occ", "vnf_package_info"}
# Only those that run a package user-data script on Heat carry its runner and the Tacker helper modules it ships.
RUNS_SCRIPTS = {"vnf_instantiate", "vnf_change_pkg", "vnf_lcm_op_occ"}


@pytest.fixture(scope="module")
def payloads():
    """``{module: set of the collection's module_utils it packs, as lcm/cnf/scale ...}``."""
    modules = sorted(str(path) for path in MODULES.glob("vnf_*.py"))
    done = subprocess.run([sys.executable, "-c", FINDER, str(COLLECTION.parents[2])] + modules, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)), check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout)
    return {name: {path[len(PREFIX):-len(".py")] for path in files if path.startswith(PREFIX) and not path.endswith("__init__.py")}
            for name, files in found.items()}


def test_every_module_is_pinned(payloads):
    assert set(payloads) == set(CARRIES)


@pytest.mark.parametrize("module", sorted(CARRIES))
def test_a_module_carries_its_operation_on_both_vims_and_no_other(payloads, module):
    carried = {name.split("/")[-1] for name in payloads[module] if name.startswith(("lcm/cnf/", "lcm/vm/"))} & set(OPERATIONS)
    assert carried == CARRIES[module], sorted(payloads[module])
    if module == "vnf_package_info":
        return
    # The driver is chosen at run time: every driver's run of the operation is in the payload (lcm/modules.py imports
    # it by name, and only the module's own ``packed`` puts it there).
    own = {"vnf_lcm_op_occ": "resume"}.get(module, module[len("vnf_"):].replace("_to_level", ""))
    assert {"lcm/{0}/{1}".format(driver, own) for driver in DRIVER_VIMS} <= payloads[module]


def test_every_module_packs_its_run_in_every_driver(payloads):
    # A driver's file a module does not pack would be found missing only when a playbook runs it on that driver.
    for path in sorted(MODULES.glob("vnf_*.py")):
        run = re.search(r'module_main\(\s*"\w+", "(\w+)\.(\w+)"', path.read_text())
        if run is None:
            continue
        for driver in DRIVER_VIMS:
            assert "lcm/{0}/{1}".format(driver, run.group(1)) in payloads[path.stem], (path.stem, driver)
            assert "def {0}(".format(run.group(2)) in (COLLECTION / "plugins/module_utils/lcm" / driver / (run.group(1) + ".py")).read_text()


@pytest.mark.parametrize("module", sorted(CARRIES))
def test_only_the_operations_that_read_a_package_carry_the_reader(payloads, module):
    assert ("package/reader" in payloads[module]) is (module in READS_PACKAGE)


@pytest.mark.parametrize("module", sorted(CARRIES))
def test_only_the_operations_that_run_user_data_scripts_carry_their_runner(payloads, module):
    assert ("heat/user_data" in payloads[module]) is (module in RUNS_SCRIPTS)
    assert any(name.startswith("heat/tacker_compat/") for name in payloads[module]) is (module in RUNS_SCRIPTS)


def test_the_dispatch_reaches_no_operation(payloads):
    # lcm/modules.py, lcm/instance_run.py and the drivers' sessions are in every LCM module: none of them may import an operation.
    scale = payloads["vnf_scale"]
    assert {"lcm/modules", "lcm/instance_run", "lcm/cnf/session", "lcm/vm/session"} <= scale
    assert not scale & {"lcm/cnf/resume", "lcm/vm/resume", "lcm/vm/change_pkg", "heat/change_pkg", "k8s/package_change"}
