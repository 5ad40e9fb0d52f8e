# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The event sources load as ansible-rulebook loads them: by file path (runpy), with no collection on sys.path."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

# The collection root: four folders above tests/unit/extensions/eda/.
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, os.pardir, os.pardir))
SOURCES = os.path.join(ROOT, "extensions", "eda", "plugins", "event_source")
LOAD = "import runpy, sys, inspect; found = runpy.run_path(sys.argv[1]); print(inspect.iscoroutinefunction(found['main']))"


@pytest.mark.parametrize("name", ["alertmanager", "vnfc_watcher"])
def test_loads_by_path(name, tmp_path):
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "ANSIBLE_COLLECTIONS_PATH")}
    done = subprocess.run([sys.executable, "-I", "-c", LOAD, os.path.join(SOURCES, name + ".py")], cwd=str(tmp_path), env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout.strip()) == (0, "True"), done.stderr


@pytest.mark.parametrize("name", ["alertmanager", "vnfc_watcher"])
def test_documentation_is_yaml(name):
    """ansible-doc (and galaxy-importer, which calls it) reads DOCUMENTATION and EXAMPLES as YAML: a description line that
    reads as a mapping (``O(token): whoever ...``) breaks the import of the whole collection."""
    import ast

    import yaml

    with open(os.path.join(SOURCES, name + ".py")) as handle:
        tree = ast.parse(handle.read())
    docs = {node.targets[0].id: node.value.value for node in tree.body if isinstance(node, ast.Assign) and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name) and node.targets[0].id in ("DOCUMENTATION", "EXAMPLES")}
    assert sorted(docs) == ["DOCUMENTATION", "EXAMPLES"]
    assert isinstance(yaml.safe_load(docs["DOCUMENTATION"]), dict)
    assert isinstance(yaml.safe_load(docs["EXAMPLES"]), list)
