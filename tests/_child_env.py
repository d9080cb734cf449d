"""The environment of a child process that a test builds from nothing, the one helper for it.

Some tests start a program with only the few variables a GUI client passes (a short PATH, a
HOME, a locale), not with a copy of this process's environment.  On Windows such a child also
needs SYSTEMROOT: without it Python 3.9 and 3.10 stop before running a line ("Fatal Python
error: _Py_HashRandomization_Init"), and every host that starts a server passes it.  child_env()
builds such an environment and adds what Windows needs; tests/test_child_env.py fails when a
test, tool or benchmark builds one any other way.  Standard library only: bench/startup.py loads
this file by its path.
"""

import os
from typing import Dict, Mapping, Optional

# What a process on Windows cannot start without, taken from this process's environment.
WINDOWS_NEEDS = ("SYSTEMROOT",)
WINDOWS_DEFAULTS = {"SYSTEMROOT": r"C:\Windows"}


def child_env(variables: Optional[Mapping[str, object]] = None, **more: object) -> Dict[str, str]:
    """{name: str(value)} of `variables` and `more` (a value of None leaves the name out), plus
    the variables Windows needs (WINDOWS_NEEDS) wherever this process has them, and on Windows
    always.  Nothing else of this process's environment is carried over."""
    env = {}
    for source in (variables or {}, more):
        for name, value in source.items():
            if value is not None:
                env[name] = str(value)
    for name in WINDOWS_NEEDS:
        value = os.environ.get(name) or (WINDOWS_DEFAULTS[name] if os.name == "nt" else None)
        if value and name not in env:
            env[name] = value
    return env
