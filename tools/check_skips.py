#!/usr/bin/env python3
"""The one skip policy of CI: which skipped tests a run may have, for .ci/run and
.github/workflows/ci.yml alike.

    ADRKIT_SKIP_REPORT=skips.jsonl python3 -m pytest -q    # tests/conftest.py writes the report
    python3 tools/check_skips.py skips.jsonl                # counts each reason; exit 1 on any other

Run it with the interpreter that ran the tests: an entry may hold only on some platforms
(sys.platform) or below some Python version, and this script judges by its own.  A skip whose
reason is not allowed here fails the run, so a test that stops running anywhere shows up at once.
Allowed are:
  * a platform mark, `not_on(<platform>, reason=...)` (tests/_platforms.py, listed in
    docs/PORTABILITY.md): the test cannot hold on the platform that runs it;
  * a missing tool (node and npm, npx, git) or a client library that does not install on the
    running Python (fastmcp below 3.11, the mcp SDK below 3.10);
  * a facility the platform does not have (Linux's /proc, FIFOs and fcntl on Windows, a POSIX
    shell for hooks), only where it is missing;
  * a migrate pack case recorded as root (`modes`) when another user runs it;
  * a strict expected failure of the migrate pack, an open mismatch with the reference listed in
    tests/migrate-pack/README.md and in docs/differences.md, "Where we differ" (strict: should it
    start to pass, the run fails until its line is removed).
Not allowed, among others: an interpreter of tests/_pythons.py not found (CI names them all),
a dev requirement not installed, root's workarounds failing.
Exit status: 0 every skip allowed, 1 some skip not allowed, 2 no readable report.
"""

import json
import sys
from typing import Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

Where = Tuple[str, Tuple[int, int]]  # (sys.platform, (major, minor)) of the run


class Allowed(NamedTuple):
    prefix: str                        # the start of the skip reason
    holds: Callable[[Where], bool]     # on which runs it may skip
    why: str


def anywhere(where: Where) -> bool:
    return True


def on(*platforms: str) -> Callable[[Where], bool]:
    return lambda where: where[0] in platforms


def off(*platforms: str) -> Callable[[Where], bool]:
    return lambda where: where[0] not in platforms


def below(major: int, minor: int) -> Callable[[Where], bool]:
    return lambda where: where[1] < (major, minor)


ALLOWED = [
    Allowed("not on ", anywhere, "a platform mark: conftest.py skips it on the platform it names"),
    Allowed("node and npm are needed", anywhere, "a missing tool (tests/test_clients.py)"),
    Allowed("npx is not on PATH", anywhere, "a missing tool (tests/test_bundle.py)"),
    Allowed("git is not installed", anywhere, "a missing tool (tests/test_side_effects.py)"),
    Allowed("fastmcp (a dev requirement for Python 3.11+)", below(3, 11),
            "fastmcp needs Python 3.11 (tests/test_clients.py)"),
    Allowed("anyio (installed with fastmcp, Python 3.11+)", below(3, 11),
            "comes with fastmcp (tests/test_clients.py)"),
    Allowed("mcp (the official SDK client, a dev requirement for Python 3.10+)", below(3, 10),
            "the mcp SDK needs Python 3.10 (tests/test_wire.py)"),
    Allowed("anyio (installed with mcp, Python 3.10+)", below(3, 10),
            "comes with the mcp SDK (tests/test_wire.py)"),
    Allowed("Claude Code runs hook commands in a POSIX shell", on("win32"),
            "no POSIX shell on Windows (tests/test_hook.py)"),
    Allowed("could not import 'fcntl'", on("win32"), "no fcntl on Windows (tests/test_build.py)"),
    Allowed("no FIFOs", on("win32"), "no os.mkfifo on Windows (test_reader.py, test_containment.py)"),
    Allowed("needs /proc/self/fd", off("linux"), "Linux's /proc (test_containment.py, test_portability.py)"),
    Allowed("needs Linux /proc", off("linux"), "Linux's /proc (test_faults.py, test_wire.py)"),
    Allowed("the masks of other threads are read from /proc", off("linux"),
            "Linux's /proc (tests/test_signals.py)"),
    Allowed("recorded as root: ", anywhere,
            "a migrate pack case recorded as root, run by another user (tests/test_migrate_pack.py)"),
    Allowed("xfail: open mismatch: ", anywhere,
            "a documented open mismatch of the migrate pack, a strict xfail (tests/test_migrate_pack.py)"),
]


def this_run() -> Where:
    return sys.platform, (sys.version_info[0], sys.version_info[1])


def allowed(reason: str, where: Where) -> Optional[Allowed]:
    """The entry that allows a skip with this reason on this run, or None."""
    for entry in ALLOWED:
        if reason.startswith(entry.prefix) and entry.holds(where):
            return entry
    return None


def judge(skips: Sequence[Dict[str, str]], where: Where) -> Tuple[List[str], List[str]]:
    """(a line per reason with its count, a line per skip not allowed)."""
    counts = {}  # type: Dict[str, int]
    refused = []
    for skip in skips:
        counts[skip["reason"]] = counts.get(skip["reason"], 0) + 1
        if allowed(skip["reason"], where) is None:
            refused.append("NOT ALLOWED: %s: %s" % (skip["test"], skip["reason"]))
    lines = ["skipped %d: %s" % (count, reason) for reason, count in sorted(counts.items())]
    return lines or ["skipped nothing"], refused


def main(argv: Optional[List[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        sys.stderr.write("usage: check_skips.py REPORT (the file $ADRKIT_SKIP_REPORT named)\n")
        return 2
    try:
        with open(args[0], encoding="utf-8") as handle:
            skips = [json.loads(line) for line in handle if line.strip()]
    except (OSError, ValueError) as error:
        sys.stderr.write("check_skips.py: no readable skip report (tests/conftest.py writes it "
                         "where $ADRKIT_SKIP_REPORT says): %s\n" % error)
        return 2
    where = this_run()
    lines, refused = judge(skips, where)
    print("\n".join(lines + refused))
    if refused:
        sys.stderr.write("check_skips.py: %d skip(s) on %s, Python %d.%d, are not allowed by "
                         "tools/check_skips.py\n" % ((len(refused), where[0]) + where[1]))
        return 1
    print("check_skips.py: %d skip(s), each allowed on %s, Python %d.%d"
          % ((len(skips), where[0]) + where[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
