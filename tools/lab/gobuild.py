"""A binary the labs build from its Go module (Alertmanager, Helm): one cache layout, one locked build.

Cache: $NFV_VNFLCM_CACHE/<name>-lab, else ${XDG_CACHE_HOME:-~/.cache}/nfv-vnflcm/<name>-lab; in it the Go module and
build caches and one folder per key (the pinned version, the Go toolchain and platform, a digest of go.mod and go.sum)
whose ``bin/.complete`` says that the build finished. An environment variable names a binary built elsewhere instead.
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


def cache_base() -> Path:
    """The collection's cache: NFV_VNFLCM_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/nfv-vnflcm."""
    base = os.environ.get("NFV_VNFLCM_CACHE")
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        base = os.path.join(xdg, "nfv-vnflcm")
    return Path(base)


class GoBinary:
    """``name``'s binary, built from ``package`` of ``module`` as pinned in ``gomod_dir``; ``override_env`` names a
    variable that points at a binary built elsewhere."""

    def __init__(self, name: str, gomod_dir: Path, module: str, package: str, override_env: str):
        self.name = name
        self.gomod_dir = gomod_dir
        self.module = module
        self.package = package
        self.override_env = override_env

    def cache_root(self) -> Path:
        return cache_base() / (self.name + "-lab")

    def required_version(self, module: str) -> str:
        """The version go.mod requires of ``module``."""
        match = re.search(r"^\s*(?:require\s+)?" + re.escape(module) + r"\s+(v\S+)", (self.gomod_dir / "go.mod").read_text(), re.M)
        if not match:
            raise RuntimeError(f"{module} is not required in {self.gomod_dir / 'go.mod'}")
        return match.group(1)

    def version(self) -> str:
        return self.required_version(self.module)

    def go_env(self) -> dict:
        root = self.cache_root()
        return dict(os.environ, GOMODCACHE=str(root / "gomod"), GOCACHE=str(root / "gocache"), GOTOOLCHAIN="local",
                    CGO_ENABLED="0", GOFLAGS="-mod=readonly")

    def cache_key(self) -> str:
        try:
            out = subprocess.run(["go", "env", "GOVERSION", "GOOS", "GOARCH"], capture_output=True, text=True, check=True).stdout.split()
        except FileNotFoundError:
            raise RuntimeError(f"go is not installed ({self.name} is built from the Go module proxy)") from None
        digest = hashlib.sha256((self.gomod_dir / "go.mod").read_bytes() + (self.gomod_dir / "go.sum").read_bytes()).hexdigest()[:8]
        return f"{self.name}-{self.version()}_{out[0]}_{out[1]}-{out[2]}_{digest}"

    def override(self) -> Path | None:
        value = os.environ.get(self.override_env)
        return Path(value) if value else None

    def bin_path(self, key: str | None = None) -> Path:
        """Where the binary is (built or not): the override when set, else the cache's folder for ``key``."""
        if key is None and self.override():
            return self.override()
        return self.cache_root() / (key or self.cache_key()) / "bin" / self.name

    def find_binary(self) -> Path | None:
        """The built binary for the current pins (or the override), or None."""
        path = self.bin_path()
        return path if path.exists() and (self.override() or (path.parent / ".complete").exists()) else None

    def build(self, ldflags: str, check, force: bool = False, log=sys.stderr) -> Path:
        """Build once per key, under a lock (parallel test workers and make jobs wait for one build); the binary's
        path. ``check(binary)`` runs the new binary and returns what it says of itself (raises if it is not the
        pinned one). With the override set, that binary is used as it is."""
        override = self.override()
        if override:
            if not override.exists():
                raise RuntimeError(f"{self.override_env} names {override}, which does not exist")
            return override
        key = self.cache_key()
        root = self.cache_root()
        root.mkdir(parents=True, exist_ok=True)
        final = self.bin_path(key).parent
        with open(root / "build.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if (final / ".complete").exists() and not force:
                print(f"{self.name} up to date: {final / self.name}", file=log)
                return final / self.name
            partial = final.with_name("bin.partial")
            shutil.rmtree(partial, ignore_errors=True)
            partial.mkdir(parents=True)
            env = self.go_env()
            start = time.monotonic()
            print(f"building {self.name} ({key}) into {final}", file=log, flush=True)
            subprocess.run(["go", "mod", "download"], cwd=self.gomod_dir, env=env, check=True)
            subprocess.run(["go", "build", "-trimpath", "-buildvcs=false", "-ldflags=" + ldflags, "-o", str(partial) + "/", self.package],
                           cwd=self.gomod_dir, env=env, check=True)
            printed = check(partial / self.name)
            (partial / ".complete").write_text(f"{key}\n{printed}\nbuild seconds: {time.monotonic() - start:.0f}\n")
            shutil.rmtree(final, ignore_errors=True)
            partial.rename(final)
            print(f"built {printed} in {time.monotonic() - start:.0f}s: {final / self.name}", file=log)
            return final / self.name


def main(prog: str, doc: str, build, bin_path, argv=None) -> int:
    """A lab's command line: ``build [--force]`` runs ``build(force=)``, ``bin-path`` prints ``bin_path()``."""
    parser = argparse.ArgumentParser(prog=prog, description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
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
        print(f"{prog} {args.cmd}: {exc}", file=sys.stderr)
        return 1
    return 0
