#!/usr/bin/env python3
"""Start-up of dist/adrkit-mcp.pyz on every Python 3.9-3.14 present, after a first run by another
interpreter (the situation of a user whose clients run different Pythons).

    python3 bench/startup.py                      # dist/adrkit-mcp.pyz, 5 runs per Python
    python3 bench/startup.py --pyz other.pyz --runs 9 --json startup.json
    python3 bench/startup.py --python /usr/bin/python3.11 --python /opt/py313/bin/python3

For each Python named by --python, else each found (pyenv's newest 3.9.x ... 3.14.x, else
python3.9 ... python3.14 on PATH), with only a short PATH, a HOME and a locale in its environment
(plus what Windows needs, tests/_child_env.py),
in a fresh private cache: another Python runs the .pyz once (it unpacks it and compiles its own
bytecode); then this Python starts it once ("first start": it adds its own bytecode, once) and
--runs more times ("later starts").  Each start is timed from spawn to the `initialize` answer
(bench.py's client), and after its first start the cache must not change any more.  The table
gives the first start and the median (min to max) of the later starts, in ms.  Standard library
only; it never asserts a time.  Exits 1 if a server failed to answer or wrote on a later start.
"""

import argparse
import importlib.util
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from typing import Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.dirname(HERE)
MINORS = ("3.9", "3.10", "3.11", "3.12", "3.13", "3.14")


def _load(name: str, path: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = _load("adrkit_bench", os.path.join(HERE, "bench.py"))
child_env = _load("adrkit_child_env", os.path.join(PROJECT, "tests", "_child_env.py")).child_env


def find_pythons() -> List[Tuple[str, str]]:
    """[(minor, interpreter)] for each Python 3.9-3.14 present."""
    versions = os.path.join(os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv"),
                            "versions")
    found = []
    for minor in MINORS:
        best = None
        if os.path.isdir(versions):
            for name in os.listdir(versions):
                match = re.fullmatch(re.escape(minor) + r"\.(\d+)", name)
                python = os.path.join(versions, name, "bin", "python3")
                if match and os.access(python, os.X_OK):
                    if best is None or int(match.group(1)) > best[0]:
                        best = (int(match.group(1)), python)
        python = best[1] if best else shutil.which("python" + minor)
        if python:
            found.append((minor, python))
    return found


def named_pythons(paths: List[str]) -> List[Tuple[str, str]]:
    """[(minor, interpreter)] for the interpreters named by --python, each asked its version."""
    named = {}
    for python in paths:
        minor = subprocess.run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                               stdout=subprocess.PIPE, universal_newlines=True, check=True,
                               timeout=120).stdout.strip()
        named.setdefault(minor, python)
    return [(minor, named[minor]) for minor in MINORS if minor in named]


def snapshot(root: str) -> Dict[str, Tuple[int, int]]:
    state = {}
    for folder, _, files in os.walk(root):
        for name in files:
            info = os.lstat(os.path.join(folder, name))
            state[os.path.join(folder, name)] = (info.st_size, info.st_mtime_ns)
    return state


def first_answer_ms(python: str, pyz: str, env: Dict[str, str], repo: str) -> float:
    """Spawn to the `initialize` answer, in ms; raises bench.ServerFailed."""
    server = bench.Server([python, pyz, "--cwd", repo], env, 60.0, "startup")
    server.start()
    try:
        rid = server.new_id()
        server.write([bench.first_request("legacy", rid)])
        (answered, response), = server.wait_for([rid])
        if "result" not in response:
            raise bench.ServerFailed("initialize failed: %r" % (response,))
        return (answered - server.t_spawn) * 1000
    finally:
        server.close()


def measure(minor: str, python: str, other: str, pyz: str, runs: int, repo: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="adrkit-startup-") as home:
        env = child_env(PATH=os.defpath, HOME=home, LANG="C.UTF-8",
                        XDG_CACHE_HOME=os.path.join(home, "cache"))
        first_run_by = first_answer_ms(other, pyz, env, repo)  # unpacks, with other's bytecode
        first = first_answer_ms(python, pyz, env, repo)  # adds this Python's bytecode, once
        state = snapshot(home)
        later = [first_answer_ms(python, pyz, env, repo) for _ in range(runs)]
        wrote = snapshot(home) != state
    return {"python": minor, "interpreter": python, "unpacked_by": other,
            "unpacking_ms": first_run_by, "first_start_ms": first, "later_starts_ms": later,
            "later_median_ms": statistics.median(later), "later_starts_wrote": wrote}


def table(rows: List[dict]) -> str:
    lines = ["| Python | unpacked by | first start | later starts: median (min to max) |",
             "|---|---|---|---|"]
    for row in rows:
        later = row["later_starts_ms"]
        lines.append("| %s | %s | %.0f ms | %.0f ms (%.0f to %.0f)%s |" % (
            row["python"], row["unpacked_by_minor"], row["first_start_ms"],
            row["later_median_ms"], min(later), max(later),
            " WROTE" if row["later_starts_wrote"] else ""))
    return "\n".join(lines)


def parse_args(argv: Optional[List[str]]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pyz", default=os.path.join(PROJECT, "dist", "adrkit-mcp.pyz"))
    parser.add_argument("--runs", type=int, default=5, help="later starts per Python")
    parser.add_argument("--json", help="also write the measurements to this file")
    parser.add_argument("--python", action="append", default=[], metavar="PATH",
                        help="an interpreter to measure (repeatable); default: those found")
    return parser.parse_args(argv)


def main(argv: Optional[List[str]] = None) -> int:
    args = parse_args(argv)
    if not os.path.isfile(args.pyz):
        sys.stderr.write("startup.py: %s does not exist: run python3 build.py\n" % args.pyz)
        return 1
    pythons = named_pythons(args.python) if args.python else find_pythons()
    if len(pythons) < 2:
        sys.stderr.write("startup.py: needs two Pythons 3.9-3.14; found %r\n" % pythons)
        return 1
    rows = []
    with tempfile.TemporaryDirectory(prefix="adrkit-startup-repo-") as repo:
        os.mkdir(os.path.join(repo, ".git"))
        os.makedirs(os.path.join(repo, "docs", "adr"))
        for index, (minor, python) in enumerate(pythons):
            other_minor, other = pythons[index - 1] if index else pythons[-1]
            try:
                row = measure(minor, python, other, os.path.abspath(args.pyz), args.runs, repo)
            except bench.ServerFailed as error:
                sys.stderr.write("startup.py: Python %s: %s\n" % (minor, error))
                return 1
            row["unpacked_by_minor"] = other_minor
            rows.append(row)
            bench.log("Python %s: first start %.0f ms, later median %.0f ms"
                      % (minor, row["first_start_ms"], row["later_median_ms"]))
    print(table(rows))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(rows, handle, indent=2)
    return 1 if any(row["later_starts_wrote"] for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
