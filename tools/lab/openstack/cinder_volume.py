"""cinder-volume as the lab runs it: its process launcher looks for an exited worker every second.

Usage: python cinder_volume.py --config-file cinder.conf

cinder-volume always starts its backend in a worker process under oslo.service's ProcessLauncher, whose parent looks
for an exited child every 10 ms (``wait_interval``): 2.4 % of a core on the lab, idle or not. A second is plenty for
the one worker of a lab, which is never expected to exit.
"""
import sys

from cinder.cmd import volume  # first: it monkey-patches eventlet, as the cinder-volume command does

from oslo_service.backend._eventlet import service  # noqa: E402

WAIT_INTERVAL_SECONDS = 1.0

# __init__(self, conf, wait_interval=0.01, restart_method='reload'): only wait_interval changes.
service.ProcessLauncher.__init__.__defaults__ = (WAIT_INTERVAL_SECONDS,) + service.ProcessLauncher.__init__.__defaults__[1:]

if __name__ == '__main__':
    sys.exit(volume.main())
