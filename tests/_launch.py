"""`python tests/_launch.py [--pycache FOLDER] MODULE ARGS...` runs MODULE as `python MODULE ARGS...`
would, with its bytecode cached.

Python never keeps bytecode for a script: every `python3 adrkit_mcp.py` compiles the 18,900-line
module afresh (about 0.3 s), and the suite starts it thousands of times.  This launcher runs the
module's code the way the script path does (a fresh `__main__` module whose `__file__` is MODULE,
registered in sys.modules; sys.argv[0] MODULE; MODULE's folder first on sys.path instead of this
one's), but takes the code from importlib's source loader, which keeps the compiled module.  With
--pycache the bytecode is kept in FOLDER (as PYTHONPYCACHEPREFIX would), whatever -B or
PYTHONDONTWRITEBYTECODE say, and the repository's own folders stay untouched; tests/_support.py
gives each test process a private FOLDER.  Everything the module itself imports afterwards is
cached, or not, as the interpreter's settings say.  The server cannot tell the difference:
`__name__` is "__main__" and nothing of it looks at how it was started.  A few tests still run the
script path itself, where that is what they prove (tests/_support.py, script_command).

Standard library only, any Python 3.9+ (the multi-Python tests run it on each).
"""

import os
import sys
import types
from importlib.machinery import SourceFileLoader


def launch() -> None:
    args = sys.argv[1:]
    cache = None
    if args[:1] == ["--pycache"] and len(args) >= 2:
        cache, args = args[1], args[2:]
    if not args:
        sys.exit("usage: python tests/_launch.py [--pycache FOLDER] MODULE [ARGS...]")
    path = args[0]
    sys.argv[:] = args
    if sys.path and os.path.realpath(sys.path[0]) == os.path.dirname(os.path.realpath(__file__)):
        sys.path[0] = os.path.dirname(os.path.realpath(path))  # the script's folder, as for a script
    settings = sys.pycache_prefix, sys.dont_write_bytecode
    if cache:
        sys.pycache_prefix, sys.dont_write_bytecode = cache, False
    try:
        code = SourceFileLoader("__main__", path).get_code("__main__")
    finally:
        sys.pycache_prefix, sys.dont_write_bytecode = settings
    main = types.ModuleType("__main__")
    main.__file__ = path
    sys.modules["__main__"] = main
    exec(code, main.__dict__)


if __name__ == "__main__":
    launch()
