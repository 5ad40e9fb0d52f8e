#!/usr/bin/env python3
"""Helm 3 for the Helm-chart CNF lab tests, built from its Go module like the Kubernetes lab's binaries.

  build     build the binary once per pin set (cached outside the repository, keyed by gomod/go.mod and go.sum)
  bin-path  print the binary's path (built or not; NFV_HELM_BIN when set)

As a library (tests): :func:`build` and :func:`find_binary`.

Cache: $NFV_VNFLCM_CACHE/helm-lab, else ${XDG_CACHE_HOME:-~/.cache}/nfv-vnflcm/helm-lab.
Helm 3 (not 4): Tacker v2's Helm driver (vimType ETSINFV.HELM.V_3) runs Helm 3's install/upgrade/rollback/uninstall;
Helm 4 changes their defaults (server-side apply, wait semantics).
"""
import argparse
import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

GOMOD_DIR = Path(__file__).resolve().parent / "gomod"
MODULE = "helm.sh/helm/v3"
PACKAGE = MODULE + "/cmd/helm"


def cache_root() -> Path:
    base = os.environ.get("NFV_VNFLCM_CACHE")
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        base = os.path.join(xdg, "nfv-vnflcm")
    return Path(base) / "helm-lab"


def required_version(module: str) -> str:
    match = re.search(r"^\s*(?:require\s+)?" + re.escape(module) + r"\s+(v\S+)", (GOMOD_DIR / "go.mod").read_text(), re.M)
    if not match:
        raise RuntimeError(f"{module} is not required in {GOMOD_DIR / 'go.mod'}")
    return match.group(1)


def version() -> str:
    return required_version(MODULE)


def ldflags() -> str:
    """What Helm's Makefile sets: the version (else `helm version` prints only "v3.22"), and the Kubernetes version that
    `helm template` and `helm lint` assume without a cluster, derived as the Makefile does from client-go's (v0.N -> 1.N)."""
    client_go = required_version("k8s.io/client-go").lstrip("v").split(".")
    major, minor = str(int(client_go[0]) + 1), client_go[1]
    flags = ["-s", "-w", f"-X {MODULE}/internal/version.version={version()}", f"-X {MODULE}/internal/version.gitTreeState=clean"]
    for package in ("pkg/lint/rules", "pkg/chartutil"):
        flags += [f"-X {MODULE}/{package}.k8sVersionMajor={major}", f"-X {MODULE}/{package}.k8sVersionMinor={minor}"]
    return " ".join(flags)


def go_env() -> dict:
    root = cache_root()
    return dict(os.environ, GOMODCACHE=str(root / "gomod"), GOCACHE=str(root / "gocache"), GOTOOLCHAIN="local",
                CGO_ENABLED="0", GOFLAGS="-mod=readonly")


def cache_key() -> str:
    try:
        out = subprocess.run(["go", "env", "GOVERSION", "GOOS", "GOARCH"], capture_output=True, text=True, check=True).stdout.split()
    except FileNotFoundError:
        raise RuntimeError("go is not installed (Helm is built from the Go module proxy)") from None
    digest = hashlib.sha256((GOMOD_DIR / "go.mod").read_bytes() + (GOMOD_DIR / "go.sum").read_bytes()).hexdigest()[:8]
    return f"helm-{version()}_{out[0]}_{out[1]}-{out[2]}_{digest}"


def bin_path(key: str | None = None) -> Path:
    override = os.environ.get("NFV_HELM_BIN")
    if override and key is None:
        return Path(override)
    return cache_root() / (key or cache_key()) / "bin" / "helm"


def find_binary() -> Path | None:
    """The built binary for the current pins, or None (NFV_HELM_BIN names one built elsewhere)."""
    override = os.environ.get("NFV_HELM_BIN")
    path = Path(override) if override else bin_path()
    return path if path.exists() and (override or (path.parent / ".complete").exists()) else None


def build(force: bool = False, log=sys.stderr) -> Path:
    """Build once per key, under a lock (parallel test workers and make jobs wait for one build); the binary's path.
    With NFV_HELM_BIN set, that binary is used as it is (nothing is built)."""
    override = os.environ.get("NFV_HELM_BIN")
    if override:
        if not Path(override).exists():
            raise RuntimeError(f"NFV_HELM_BIN names {override}, which does not exist")
        return Path(override)
    key = cache_key()
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    final = bin_path(key).parent
    with open(root / "build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (final / ".complete").exists() and not force:
            print(f"helm up to date: {final / 'helm'}", file=log)
            return final / "helm"
        partial = final.with_name("bin.partial")
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        env = go_env()
        start = time.monotonic()
        print(f"building helm ({key}) into {final}", file=log, flush=True)
        subprocess.run(["go", "mod", "download"], cwd=GOMOD_DIR, env=env, check=True)
        subprocess.run(["go", "build", "-trimpath", "-buildvcs=false", "-ldflags=" + ldflags(), "-o", str(partial) + "/", PACKAGE],
                       cwd=GOMOD_DIR, env=env, check=True)
        printed = subprocess.run([str(partial / "helm"), "version", "--short"], check=True, capture_output=True, text=True,
                                 env=dict(os.environ, HELM_CONFIG_HOME=str(partial / ".config"), HELM_CACHE_HOME=str(partial / ".cache"),
                                          HELM_DATA_HOME=str(partial / ".data"))).stdout.strip()
        shutil.rmtree(partial / ".config", ignore_errors=True)
        shutil.rmtree(partial / ".cache", ignore_errors=True)
        shutil.rmtree(partial / ".data", ignore_errors=True)
        if not printed.startswith(version()):
            raise RuntimeError(f"the built helm says it is {printed!r}, not {version()}")
        (partial / ".complete").write_text(f"{key}\n{printed}\nbuild seconds: {time.monotonic() - start:.0f}\n")
        shutil.rmtree(final, ignore_errors=True)
        partial.rename(final)
        print(f"built {printed} in {time.monotonic() - start:.0f}s: {final / 'helm'}", file=log)
        return final / "helm"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="helm_lab.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("build", help="build the binary (cached, reused)").add_argument("--force", action="store_true")
    sub.add_parser("bin-path", help="print the binary's path for the pinned version")
    args = parser.parse_args(argv)
    try:
        if args.cmd == "build":
            build(force=args.force)
        else:
            print(bin_path())
    except (RuntimeError, subprocess.CalledProcessError) as exc:
        print(f"helm_lab.py {args.cmd}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
