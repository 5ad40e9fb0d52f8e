"""Offline stand-in for pip's get-pip.py, which ansible-test downloads from a host we cannot reach.

ansible-test runs the cached script as ``python get_pip.py <pip install options> pip==X`` inside a
fresh, empty virtual environment. We bootstrap the interpreter's bundled pip (ensurepip) and then
let that pip install the requested packages from the configured index (PyPI).
"""

import subprocess
import sys

# get-pip.py options that pip itself does not know.
GET_PIP_ONLY = {"--no-setuptools", "--no-wheel"}


def main():
    subprocess.check_call([sys.executable, "-m", "ensurepip", "--default-pip"], stdout=subprocess.DEVNULL)
    args = [arg for arg in sys.argv[1:] if arg not in GET_PIP_ONLY]
    if args and args[0] != "install":
        args.insert(0, "install")
    return subprocess.call([sys.executable, "-m", "pip"] + args)


if __name__ == "__main__":
    sys.exit(main())
