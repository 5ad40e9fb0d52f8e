#!/usr/bin/env python3
"""Print the unit test files that reach ansible-core: those that import ``ansible`` or ``ansible.*`` themselves, through
their conftest.py files, or through the collection's code they import (followed file by file, by their AST).

`make matrix` runs these on each other ansible-core: the rest test the collection's own logic, on the same Python
and the same pinned libraries whatever the core, so a run per core would repeat the main run byte for byte.

Usage: core_dependent_tests.py [ROOT]   (ROOT: the collection's tree, default: this clone)
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PREFIX = "ansible_collections.nfv.vnflcm."


def module_file(root, dotted):
    """The file of the collection's module ``dotted`` (``plugins.module_utils.x``), or None."""
    base = root.joinpath(*dotted.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def imports_of(root, path):
    """(reaches ansible-core directly, the collection's files it imports) of one file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = path.relative_to(root).parent.parts
    names, files = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: level 1 is the file's own package, 2 its parent, ...
                module = ".".join(package[:len(package) - node.level + 1] + ((node.module,) if node.module else ()))
                names.append(PREFIX + module)
                names.extend(PREFIX + module + "." + alias.name for alias in node.names)
            elif node.module:
                names.append(node.module)
                names.extend(node.module + "." + alias.name for alias in node.names)
    reaches_core = any(name == "ansible" or name.startswith("ansible.") for name in names)
    for name in names:
        if name.startswith(PREFIX):
            found = module_file(root, name[len(PREFIX):])
            if found:
                files.add(found)
    return reaches_core, files


def reaches_core(root, start, known):
    """Whether ``start`` or anything of the collection it imports imports ansible-core."""
    todo, seen = [start], set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        if path not in known:
            known[path] = imports_of(root, path)
        direct, files = known[path]
        if direct:
            return True
        todo.extend(files - seen)
    return False


def core_dependent(root):
    known = {}
    found = []
    for test in sorted((root / "tests" / "unit").rglob("test_*.py")):
        conftests = [folder / "conftest.py" for folder in [test.parent, *test.parent.parents]
                     if (folder / "conftest.py").is_file() and root in folder.parents]
        if any(reaches_core(root, path, known) for path in [test, *conftests]):
            found.append(str(test.relative_to(root)))
    return found


if __name__ == "__main__":
    print("\n".join(core_dependent(Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]).resolve())))
