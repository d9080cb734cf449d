"""The Python 3.9-3.14 interpreters the multi-Python tests run (tests/test_build.py, the release
recipe of tests/test_releasing.py), found the same way on every machine.

3.9 to 3.13 (MINORS) are required; 3.14 (OPTIONAL) is used where it is found and left out,
without a skip, where it is not (minors() is the list to run).

* $ADRKIT_TEST_PYTHONS, when set, names them: interpreter paths separated by os.pathsep (";" on
  Windows, ":" elsewhere).  It is then the whole list: nothing else is searched, each one is
  asked its version, and a version it lacks is reported as missing from it.  CI sets it:
  .github/workflows/ci.yml to where setup-python put each Python, .ci/run to pyenv's.
* Otherwise: pyenv's newest 3.X.Y ($PYENV_ROOT/versions, else ~/.pyenv/versions), else
  `python3.X` on the PATH, else the running interpreter for its own version.

A test that needs a version found nowhere skips with reason(minor) or too_few(...); CI's skip
policy (tools/check_skips.py) allows neither, so in CI a missing interpreter fails the job.
"""

import functools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional

MINORS = ("3.9", "3.10", "3.11", "3.12", "3.13")
OPTIONAL = ("3.14",)
VARIABLE = "ADRKIT_TEST_PYTHONS"
PYENV = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"


def version_of(python: Path) -> str:
    """'3.X' as the interpreter itself reports it."""
    result = subprocess.run([str(python), "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError("%s does not run: %s" % (python, result.stderr))
    return result.stdout.strip()


@functools.lru_cache(maxsize=None)
def named() -> Optional[Dict[str, Path]]:
    """{minor: interpreter} from $ADRKIT_TEST_PYTHONS (the first of each version), or None when
    it is not set."""
    value = os.environ.get(VARIABLE)
    if value is None:
        return None
    found = {}  # type: Dict[str, Path]
    for part in value.split(os.pathsep):
        if part.strip():
            found.setdefault(version_of(Path(part.strip())), Path(part.strip()))
    return found


def _pyenv(minor: str) -> Optional[Path]:
    found = []
    for path in PYENV.glob(minor + ".*"):
        if re.fullmatch(re.escape(minor) + r"\.\d+", path.name):
            python = path / "bin" / "python3"
            if os.access(str(python), os.X_OK):
                found.append((int(path.name.rsplit(".", 1)[1]), python))
    return max(found)[1] if found else None


@functools.lru_cache(maxsize=None)
def find(minor: str) -> Optional[Path]:
    """The interpreter of Python `minor` ('3.X'), or None."""
    listed = named()
    if listed is not None:
        return listed.get(minor)
    on_path = shutil.which("python" + minor)
    own = Path(sys.executable) if "%d.%d" % sys.version_info[:2] == minor else None
    return _pyenv(minor) or (Path(on_path) if on_path else None) or own


def minors() -> List[str]:
    """The versions to run: every required one, then each optional one that is found."""
    return list(MINORS) + [minor for minor in OPTIONAL if find(minor) is not None]


def found() -> List[Path]:
    """Every interpreter found, oldest version first."""
    return [python for python in (find(minor) for minor in minors()) if python is not None]


def where() -> str:
    if named() is not None:
        return "among %s" % VARIABLE
    return "under %s, on the PATH or running the tests (%s names them)" % (PYENV, VARIABLE)


def reason(minor: str) -> str:
    """Why a test of Python `minor` skips."""
    return "no Python %s %s" % (minor, where())


def too_few(what: str = "this test") -> str:
    """Why a test that needs two interpreters skips."""
    return "%s needs two Pythons 3.9-3.14, found %d %s" % (what, len(found()), where())
