#!/usr/bin/env python3
"""Local Kubernetes lab: etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kwok.

  build   build the binaries once per version set (cached outside the repository)
  up      start the lab (fresh state); prints the admin kubeconfig path
  down    stop every process the lab started (by recorded PID)
  status  health of each component; exit 1 unless all are ready
  restart stop one component (default kube-apiserver) by its PID, start it again, wait until ready
  env     shell exports for the running lab (eval "$(lab.py env)")

State dir: $NFV_LAB_STATE_DIR, else <cache root>/run.
Cache root: $NFV_VNFLCM_CACHE/k8s-lab, else ${XDG_CACHE_HOME:-~/.cache}/nfv-vnflcm/k8s-lab.
"""
import argparse
import shlex
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from labk8s import build  # noqa: E402
from labk8s.cluster import COMPONENTS, Lab, LabError  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="lab.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="build the binaries (cached, reused)")
    b.add_argument("--force", action="store_true", help="rebuild even if cached")
    u = sub.add_parser("up", help="start the lab")
    u.add_argument("--timeout", type=float, default=180)
    sub.add_parser("down", help="stop the lab")
    sub.add_parser("status", help="show component health")
    r = sub.add_parser("restart", help="restart one component (fault injection)")
    r.add_argument("component", nargs="?", default="kube-apiserver", choices=COMPONENTS)
    r.add_argument("--down-seconds", type=float, default=0.0, help="stay stopped this long")
    r.add_argument("--kill", action="store_true", help="SIGKILL (a crash) instead of SIGTERM")
    r.add_argument("--restart-controllers", action="store_true",
                   help="after the apiserver, restart controller-manager, scheduler and kwok (no client backoff)")
    sub.add_parser("env", help="print shell exports for the lab")
    sub.add_parser("bin-dir", help="print the bin dir for the pinned versions")
    args = p.parse_args(argv)
    lab = Lab()
    try:
        if args.cmd == "build":
            build.build(force=args.force)
        elif args.cmd == "bin-dir":
            print(build.bin_dir())
        elif args.cmd == "up":
            if lab.is_up():
                print(f"lab already up; KUBECONFIG={lab.kubeconfig}", file=sys.stderr)
                return 0
            lab.up(timeout=args.timeout, log=sys.stderr)
            print(f"resident memory of the lab: {lab.rss_kib() // 1024} MiB", file=sys.stderr)
        elif args.cmd == "down":
            lab.down(log=sys.stderr)
        elif args.cmd == "status":
            st = lab.status()
            for name, s in st.items():
                print(f"{name:24} {s}")
            if any(s != "stopped" for s in st.values()):
                print(f"{'rss':24} {lab.rss_kib() // 1024} MiB")
            return 0 if all(s.startswith("ready") for s in st.values()) else 1
        elif args.cmd == "restart":
            took = lab.restart(args.component, down_seconds=args.down_seconds,
                               sig=signal.SIGKILL if args.kill else signal.SIGTERM,
                               restart_controllers=args.restart_controllers)
            print(f"{args.component} restarted; unavailable for {took:.1f}s", file=sys.stderr)
        elif args.cmd == "env":
            print(f"export KUBECONFIG={shlex.quote(str(lab.kubeconfig))}")
            print(f"export NFV_LAB_STATE_DIR={shlex.quote(str(lab.dir))}")
    except (LabError, RuntimeError) as exc:
        print(f"lab.py {args.cmd}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
