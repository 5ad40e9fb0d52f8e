# -*- coding: utf-8 -*-
# Copyright: (c) 2026, nfv.vnflcm contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Import the kubernetes client without the package ``__init__`` files that import all of it.

``import kubernetes.client.rest`` runs ``kubernetes/__init__.py`` and ``kubernetes/client/__init__.py`` first, which
import every API class, every model (about 750 modules) and the dynamic, watch and stream clients: most of a module's
start-up time, for an ApiClient and a Configuration. prepare() puts stand-ins for those three packages in
``sys.modules`` that import a name the first time it is read, from the same files: ``kubernetes.client.V1Pod``,
``from kubernetes import watch`` and the ApiClient's deserializing by model name work as before.

It does nothing when kubernetes is already imported (the stand-ins would hide what is there) or is not installed
(the import that follows fails as it always did), and it falls back to the whole import when the package's layout is
not the one it knows (a name the code below reads is not among the package's exports).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys
import types

# The lines of the generated __init__ files that export a name: "from kubernetes.client.x import Name".
EXPORT = re.compile(r"^from (kubernetes\.client\.[\w.]+) import (\w+)\s*$", re.M)
VERSION = re.compile(r"^__version__ = [\"']([^\"']+)[\"']", re.M)
PACKAGES = ("kubernetes", "kubernetes.client", "kubernetes.client.models")
NEEDED = ("ApiClient", "Configuration")


def prepare():
    if "kubernetes" in sys.modules:
        return
    try:
        spec = importlib.util.find_spec("kubernetes")
    except (ImportError, ValueError):
        return
    if spec is None or not spec.submodule_search_locations:
        return
    root = list(spec.submodule_search_locations)[0]
    client = os.path.join(root, "client")
    models = os.path.join(client, "models")
    paths = (root, client, models)
    try:
        sources = [init_source(path) for path in paths]
    except OSError:
        return
    exports = [exports_of(source) for source in sources]
    if not all(name in exports[1] for name in NEEDED):
        return
    for name, path, source, exported in zip(PACKAGES, paths, sources, exports):
        sys.modules[name] = stand_in(name, path, exported, VERSION.search(source))


def init_source(package_dir):
    with open(os.path.join(package_dir, "__init__.py")) as handle:
        return handle.read()


def exports_of(source):
    return {name: module for module, name in EXPORT.findall(source)}


def stand_in(name, path, exported, version):
    """A package module whose attributes are imported when first read: an exported name from its module, else the
    subpackage or submodule of that name."""
    package = types.ModuleType(name)
    package.__path__ = [path]
    package.__file__ = os.path.join(path, "__init__.py")
    package.__package__ = name
    if version:
        package.__version__ = version.group(1)  # kubernetes.dynamic reads it

    def __getattr__(attribute):
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        if attribute in exported:
            value = getattr(importlib.import_module(exported[attribute]), attribute)
        else:
            try:
                value = importlib.import_module(name + "." + attribute)
            except ImportError:
                raise AttributeError("module {0!r} has no attribute {1!r}".format(name, attribute)) from None
        setattr(package, attribute, value)
        return value

    package.__getattr__ = __getattr__
    return package
