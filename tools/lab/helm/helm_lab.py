#!/usr/bin/env python3
"""Helm 3 for the Helm-chart CNF lab tests, built from its Go module like the Kubernetes lab's binaries.

  build     build the binary once per pin set (cached outside the repository, keyed by gomod/go.mod and go.sum)
  bin-path  print the binary's path (built or not; NFV_HELM_BIN when set)

As a library (tests): :func:`build` and :func:`find_binary`.

Cache: $NFV_VNFLCM_CACHE/helm-lab, else ${XDG_CACHE_HOME:-~/.cache}/nfv-vnflcm/helm-lab.
Helm 3 (not 4): Tacker v2's Helm driver (vimType ETSINFV.HELM.V_3) runs Helm 3's install/upgrade/rollback/uninstall;
Helm 4 changes their defaults (server-side apply, wait semantics).
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import gobuild  # noqa: E402  (tools/lab/gobuild.py)

MODULE = "helm.sh/helm/v3"
HELM = gobuild.GoBinary("helm", Path(__file__).resolve().parent / "gomod", MODULE, MODULE + "/cmd/helm", "NFV_HELM_BIN")


def version() -> str:
    return HELM.version()


def ldflags() -> str:
    """What Helm's Makefile sets: the version (else `helm version` prints only "v3.22"), and the Kubernetes version that
    `helm template` and `helm lint` assume without a cluster, derived as the Makefile does from client-go's (v0.N -> 1.N)."""
    client_go = HELM.required_version("k8s.io/client-go").lstrip("v").split(".")
    major, minor = str(int(client_go[0]) + 1), client_go[1]
    flags = ["-s", "-w", f"-X {MODULE}/internal/version.version={version()}", f"-X {MODULE}/internal/version.gitTreeState=clean"]
    for package in ("pkg/lint/rules", "pkg/chartutil"):
        flags += [f"-X {MODULE}/{package}.k8sVersionMajor={major}", f"-X {MODULE}/{package}.k8sVersionMinor={minor}"]
    return " ".join(flags)


def says_its_version(binary: Path) -> str:
    """``helm version --short`` of the new binary, in a throwaway home; an error unless it is the pinned version."""
    home = binary.parent
    printed = subprocess.run([str(binary), "version", "--short"], check=True, capture_output=True, text=True,
                             env=dict(os.environ, HELM_CONFIG_HOME=str(home / ".config"), HELM_CACHE_HOME=str(home / ".cache"),
                                      HELM_DATA_HOME=str(home / ".data"))).stdout.strip()
    for folder in (".config", ".cache", ".data"):
        shutil.rmtree(home / folder, ignore_errors=True)
    if not printed.startswith(version()):
        raise RuntimeError(f"the built helm says it is {printed!r}, not {version()}")
    return printed


def find_binary() -> Path | None:
    """The built binary for the current pins, or None (NFV_HELM_BIN names one built elsewhere)."""
    return HELM.find_binary()


def build(force: bool = False, log=sys.stderr) -> Path:
    """Build once per key (cached, under a lock); with NFV_HELM_BIN set, that binary is used as it is."""
    return HELM.build(ldflags(), says_its_version, force=force, log=log)


def main(argv=None) -> int:
    return gobuild.main("helm_lab.py", __doc__, build, HELM.bin_path, argv)


if __name__ == "__main__":
    sys.exit(main())
