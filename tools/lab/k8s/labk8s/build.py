"""Build the lab binaries from the Go module proxy into a cache keyed by every version."""
import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from .paths import GOMOD_DIR, cache_root

BINARIES = ("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok", "kubectl")
PACKAGES = (
    "./cmd/etcd",
    "k8s.io/kubernetes/cmd/kube-apiserver",
    "k8s.io/kubernetes/cmd/kube-controller-manager",
    "k8s.io/kubernetes/cmd/kube-scheduler",
    "sigs.k8s.io/kwok/cmd/kwok",
    "k8s.io/kubernetes/cmd/kubectl",  # for side-by-side benchmarks only
)
# Same set kwokctl writes: nodes become Ready and keep a lease, pods become Ready and are
# deleted at once. kwok v0.8.0 has no built-in default stages any more.
STAGE_FILES = (
    "node/fast/node-initialize.yaml",
    "node/heartbeat-with-lease/node-heartbeat-with-lease.yaml",
    "pod/fast/pod-ready.yaml",
    "pod/fast/pod-complete.yaml",
    "pod/fast/pod-delete.yaml",
)


def versions() -> dict:
    """Pinned versions, read from the committed wrapper go.mod (the single source of truth)."""
    text = (GOMOD_DIR / "go.mod").read_text()
    out = {}
    for name, mod in (("k8s", "k8s.io/kubernetes"), ("etcd", "go.etcd.io/etcd/server/v3"), ("kwok", "sigs.k8s.io/kwok")):
        m = re.search(r"^\s*" + re.escape(mod) + r"\s+(v\S+)", text, re.M)
        if not m:
            raise RuntimeError(f"{mod} is not required in {GOMOD_DIR / 'go.mod'}")
        out[name] = m.group(1)
    return out


def go_env() -> dict:
    root = cache_root()
    env = dict(os.environ)
    env.update(
        GOMODCACHE=str(root / "gomod"),
        GOCACHE=str(root / "gocache"),
        GOTOOLCHAIN="local",
        CGO_ENABLED="0",
        GOFLAGS="-mod=readonly",
    )
    return env


def go_version() -> str:
    try:
        out = subprocess.run(["go", "env", "GOVERSION", "GOOS", "GOARCH"], capture_output=True, text=True, check=True)
    except FileNotFoundError:
        raise RuntimeError("go is not installed (the lab is built from the Go module proxy)") from None
    ver, goos, goarch = out.stdout.split()
    return f"{ver}_{goos}-{goarch}"


def cache_key() -> str:
    v = versions()
    digest = hashlib.sha256((GOMOD_DIR / "go.mod").read_bytes() + (GOMOD_DIR / "go.sum").read_bytes()).hexdigest()[:8]
    return f"k8s-{v['k8s']}_etcd-{v['etcd']}_kwok-{v['kwok']}_{go_version()}_{digest}"


def bin_dir(key: str | None = None) -> Path:
    return cache_root() / (key or cache_key()) / "bin"


def find_bin_dir() -> Path | None:
    """The built bin dir for the current pins, or None. Does not need go when NFV_LAB_BIN_DIR is set."""
    override = os.environ.get("NFV_LAB_BIN_DIR")
    d = Path(override) if override else bin_dir()
    return d if (d / ".complete").exists() else None


def _ldflags(k8s_version: str) -> str:
    major, minor = k8s_version.lstrip("v").split(".")[:2]
    flags = ["-s", "-w"]
    for pkg in ("k8s.io/component-base/version", "k8s.io/client-go/pkg/version"):
        flags += [
            f"-X {pkg}.gitVersion={k8s_version}",
            f"-X {pkg}.gitMajor={major}",
            f"-X {pkg}.gitMinor={minor}",
            f"-X {pkg}.gitTreeState=clean",
            f"-X {pkg}.buildDate=1970-01-01T00:00:00Z",
        ]
    return " ".join(flags)


def build(force: bool = False, log=sys.stderr) -> Path:
    """Build (once per key, under a lock) and return the bin dir."""
    key = cache_key()
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    final = bin_dir(key)
    with open(root / "build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (final / ".complete").exists() and not force:
            print(f"lab binaries up to date: {final}", file=log)
            return final
        partial = final.with_name("bin.partial")
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        v = versions()
        env = go_env()
        start = time.monotonic()
        print(f"building lab binaries ({key}) into {final}", file=log, flush=True)
        cmd = ["go", "build", "-trimpath", "-buildvcs=false", "-tags=selinux,notest",
               "-ldflags=" + _ldflags(v["k8s"]), "-o", str(partial) + "/", *PACKAGES]
        subprocess.run(["go", "mod", "download"], cwd=GOMOD_DIR, env=env, check=True)
        subprocess.run(cmd, cwd=GOMOD_DIR, env=env, check=True)
        stage_root = Path(env["GOMODCACHE"]) / f"sigs.k8s.io/kwok@{v['kwok']}/kustomize/stage"
        with open(partial / "kwok-stages.yaml", "w") as out:
            for name in STAGE_FILES:
                out.write("---\n" + (stage_root / name).read_text().strip() + "\n")
        for name in BINARIES:
            args = ["version", "--client"] if name == "kubectl" else ["--version"]
            subprocess.run([str(partial / name), *args], check=True, capture_output=True)
        (partial / ".complete").write_text(f"{key}\nbuild seconds: {time.monotonic() - start:.0f}\n")
        shutil.rmtree(final, ignore_errors=True)
        partial.rename(final)
        print(f"built in {time.monotonic() - start:.0f}s: {final}", file=log)
        return final
