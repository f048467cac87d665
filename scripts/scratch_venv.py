"""Scratch virtualenvs for the scripts that compare us with Python tools from PyPI (cshogi, …).

`python_in(venv, packages)` makes the venv on first use, installs `packages` (pip requirement
strings, `name` or `name==version`) when any of them is missing or at another version, and
returns the venv's python: for scripts that run the tool in a child process.
`rerun_in(venv, packages)` does the same and then runs the calling script again inside the
venv (with the same arguments), unless it already runs there.

Imported by the scripts beside it (`import scratch_venv`: Python puts a script's own folder
first on its path); it is not a script itself.
"""

import os
import subprocess
import sys

# Exits 1 when a requirement (argv) is not installed, or not at the version it pins.
_PROBE = """
import importlib.metadata as m, sys
for spec in sys.argv[1:]:
    name, _, want = spec.partition("==")
    try:
        have = m.version(name)
    except m.PackageNotFoundError:
        sys.exit(1)
    if want and have != want:
        sys.exit(1)
"""


def _run(cmd):
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True)


def python_in(venv, packages):
    """The python of `venv`, made on first use, with `packages` installed."""
    venv = os.fspath(venv)
    py = os.path.join(venv, "bin", "python")
    if not os.path.exists(py):
        os.makedirs(os.path.dirname(os.path.abspath(venv)), exist_ok=True)
        _run([sys.executable, "-m", "venv", venv])
    if subprocess.run([py, "-c", _PROBE, *packages]).returncode != 0:
        _run([py, "-m", "pip", "install", "-q", *packages])
    return py


def rerun_in(venv, packages):
    """Runs the calling script again inside `venv` (see `python_in`), unless it runs there."""
    if os.path.realpath(sys.prefix) == os.path.realpath(os.fspath(venv)):
        return
    py = python_in(venv, packages)
    os.execv(py, [py, os.path.abspath(sys.argv[0]), *sys.argv[1:]])
