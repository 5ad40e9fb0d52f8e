"""Where the lab keeps its cache, binaries and run state."""
import os
from pathlib import Path

LAB_DIR = Path(__file__).resolve().parent.parent
GOMOD_DIR = LAB_DIR / "gomod"


def cache_root() -> Path:
    """Root of the lab's cache; NFV_VNFLCM_CACHE points it elsewhere (e.g. an empty dir for a cold build)."""
    base = os.environ.get("NFV_VNFLCM_CACHE")
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        base = os.path.join(xdg, "nfv-vnflcm")
    return Path(base) / "k8s-lab"


def state_dir() -> Path:
    """Run state of the lab (PKI, kubeconfigs, logs, PIDs); NFV_LAB_STATE_DIR overrides it."""
    override = os.environ.get("NFV_LAB_STATE_DIR")
    return Path(override) if override else cache_root() / "run"
