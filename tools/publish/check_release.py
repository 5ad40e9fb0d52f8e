"""Check the release `antsibull-changelog release --version VERSION` wrote into a throwaway copy of the collection.

Usage: check_release.py VERSION COLLECTION_DIR (run by `make changelog-check`, never on the clone itself).

What a correct release is here:
- changelogs/changelog.yaml has the release VERSION, and it lists every module of plugins/modules as a new
  module, with the modules' own short descriptions;
- every version_added (modules, their options, doc fragments) is VERSION or older: none announces a later one;
- CHANGELOG.rst has the release's section and names every module;
- the fragments of the release are gone from changelogs/fragments (antsibull-changelog moved them in).
"""

import ast
import re
import sys
from pathlib import Path

import yaml


def version_tuple(text):
    return tuple(int(part) for part in str(text).split("."))


def plain(text):
    """A description without the RST escapes and the final period antsibull-changelog adds."""
    return (text or "").replace("\\", "").rstrip(".")


def documentation(path):
    """A module's DOCUMENTATION as data."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(target, "id", None) == "DOCUMENTATION" for target in node.targets):
            return yaml.safe_load(node.value.value)
    raise SystemExit("{0}: no DOCUMENTATION".format(path))


def main(version, root):
    root = Path(root)
    problems = []
    modules = {path.stem: documentation(path) for path in sorted((root / "plugins" / "modules").glob("*.py")) if path.stem != "__init__"}

    for path in sorted((root / "plugins").rglob("*.py")):
        for found in re.findall(r"version_added:\s*['\"]?([0-9][0-9.]*)", path.read_text()):
            if version_tuple(found) > version_tuple(version):
                problems.append("{0}: version_added {1} is later than the release {2}".format(path.relative_to(root), found, version))

    changes = yaml.safe_load((root / "changelogs" / "changelog.yaml").read_text())
    release = (changes.get("releases") or {}).get(version)
    if not release:
        problems.append("changelogs/changelog.yaml has no release {0}".format(version))
        release = {}
    listed = {module["name"]: module for module in release.get("modules", [])}
    for name, doc in modules.items():
        if name not in listed:
            problems.append("release {0} does not list the new module {1} (its version_added is {2})".format(version, name, doc.get("version_added")))
        elif plain(listed[name].get("description")) != plain(doc.get("short_description")):
            problems.append("release {0} describes {1} as {2!r}".format(version, name, listed[name].get("description")))

    changelog = (root / "CHANGELOG.rst").read_text() if (root / "CHANGELOG.rst").exists() else ""
    if "v{0}".format(version) not in changelog:
        problems.append("CHANGELOG.rst has no v{0} section".format(version))
    problems += ["CHANGELOG.rst does not name {0}".format(name) for name in modules if name not in changelog]
    left = [path.name for path in (root / "changelogs" / "fragments").glob("*.y*ml")]
    if left:
        problems.append("fragments left out of the release: {0}".format(", ".join(sorted(left))))

    if not (release.get("changes") or {}).get("release_summary"):
        problems.append("release {0} has no release_summary".format(version))
    sections = sorted(key for key in (release.get("changes") or {}) if key != "release_summary")
    first = list(changes.get("releases") or {}) == [version]
    notes = []
    if first:
        # Nothing was released before: a fix or a break of the unreleased code tells users nothing. Reported, not
        # failed: those fragments are their authors' to fold into the release summary or the minor changes.
        for section in ("bugfixes", "breaking_changes", "deprecated_features", "removed_features"):
            for entry in (release.get("changes") or {}).get(section, []):
                notes.append("first release, {0}: {1}".format(section, entry.split(" - ")[0]))
    # New modules are listed from their version_added; a fragment must not announce them (ansible-test's changelog rule).
    for section, entries in (release.get("changes") or {}).items():
        for entry in entries if isinstance(entries, list) else []:
            if " new module" in entry:
                notes.append("a fragment announces a new module ({0}: {1}); the release lists it already".format(section, entry.split(" - ")[0]))
    print("changelog-check: release {0}: {1} new modules, fragments {2}, sections {3}".format(
        version, len(listed), len(release.get("fragments", [])), ", ".join(sections) or "none"))
    for note in notes:
        print("changelog-check: note: " + note)
    for problem in problems:
        print("changelog-check: " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
