#!/usr/bin/env python3
"""How long `adrkit-mcp hook` keeps an agent's edit waiting: cold start plus one context lookup.

Claude Code starts the hook command afresh before every Edit, Write, MultiEdit or NotebookEdit,
so each answer pays a whole process start: the interpreter, the .pyz's imports and one
get_decision_context over a corpus parsed from scratch (the hook keeps no state between runs).
For each corpus size this runs the hook --runs times on the same PreToolUse event and prints
the wall time from spawn to exit and the CPU of the child, median (min to max), beside the
timeout the settings.json fragment gives it. The corpora are bench/bench.py's (the same
generator, seed and cache). One extra run per program, before the timed ones, unpacks the .pyz
into a private SHIV_ROOT and is reported apart.

    python3 bench/hook.py                              # dist/adrkit-mcp.pyz, 1,000 and 10,000 records
    python3 bench/hook.py --sizes 100 --runs 1 --program adrkit_mcp.py

It never asserts a time (machines are noisy); it exits 1 only if a run did not answer with the
hook JSON. Standard library only.
"""

import argparse
import importlib.util
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.dirname(HERE)
TARGET = "src/db/pool.ts"  # the file bench.py's get_decision_context calls ask about


def load_bench():
    spec = importlib.util.spec_from_file_location("adrkit_bench", os.path.join(HERE, "bench.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def contract_value(name):
    """A constant of the Contract section, read from the module's source (no import needed)."""
    with open(os.path.join(PROJECT, "adrkit_mcp.py"), encoding="utf-8") as handle:
        for line in handle:
            if line.startswith(name + " = "):
                return int(line.split("=", 1)[1].split("#", 1)[0].strip())
    raise KeyError(name)


def pre_tool_use(root):
    return json.dumps({
        "session_id": "bench", "transcript_path": "", "cwd": root, "permission_mode": "default",
        "hook_event_name": "PreToolUse", "tool_name": "Edit",
        "tool_input": {"file_path": os.path.join(root, TARGET), "old_string": "a", "new_string": "b"},
        "tool_use_id": "toolu_bench"}).encode("utf-8")


def run_once(argv, event, env):
    """(wall seconds, child CPU seconds, decisions named) of one hook run; raises if it failed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    child = subprocess.run(argv, input=event, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=env, timeout=600)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if child.returncode != 0 or child.stderr:
        raise RuntimeError("exit %d: %s" % (child.returncode, child.stderr.decode("utf-8", "replace")))
    text = json.loads(child.stdout)["hookSpecificOutput"]["additionalContext"]
    return wall, cpu, sum(1 for line in text.splitlines() if line.startswith("- ADR "))


def spread(values, scale=1000.0):
    numbers = sorted(value * scale for value in values)
    shown = ["{:,.0f}".format(number) for number in (statistics.median(numbers), numbers[0], numbers[-1])]
    if len(numbers) == 1:
        return "%s ms" % shown[0]
    return "%s ms (%s to %s)" % tuple(shown)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000", help="corpus sizes (default 1000,10000)")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per size (default 5)")
    parser.add_argument("--program", default=None,
                        help="the .pyz or adrkit_mcp.py to run (default: dist/adrkit-mcp.pyz)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter (default: this one)")
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "adrkit-bench-corpora"),
                        help="where bench.py's corpora are cached")
    options = parser.parse_args(argv)
    program = options.program or os.path.join(PROJECT, "dist", "adrkit-mcp.pyz")
    if not os.path.isfile(program):
        sys.stderr.write("bench/hook.py: %s does not exist (python3 build.py makes it)\n" % program)
        return 1
    bench = load_bench()
    sizes = [int(size) for size in options.sizes.split(",")]
    shiv_root = tempfile.mkdtemp(prefix="adrkit-hook-bench-")
    env = dict(os.environ, SHIV_ROOT=shiv_root)
    for name in ("ADRKIT_MCP_CWD", "ADRKIT_MCP_DIR", "CLAUDE_PROJECT_DIR"):
        env.pop(name, None)
    rows, failed = [], False
    try:
        for size in sizes:
            root = bench.ensure_corpus(size, bench.DEFAULT_SEED, options.cache)[0]
            argv = [options.python, program, "hook", "--cwd", root]
            event = pre_tool_use(root)
            try:
                first = run_once(argv, event, env)  # unpacks the .pyz on the first size
                runs = [run_once(argv, event, env) for _ in range(options.runs)]
            except (RuntimeError, ValueError, KeyError, subprocess.TimeoutExpired) as error:
                sys.stderr.write("bench/hook.py: %d records: the hook failed: %s\n" % (size, error))
                failed = True
                continue
            rows.append((size, first, runs))
    finally:
        shutil.rmtree(shiv_root, ignore_errors=True)
    limit = contract_value("HOOK_TIMEOUT_SECONDS")
    sys.stdout.write("adrkit-mcp hook, %s, Python %s, %d timed runs, event: Edit %s\n\n" % (
        os.path.relpath(program, PROJECT) if program.startswith(PROJECT) else program,
        "%d.%d.%d" % sys.version_info[:3] if options.python == sys.executable else options.python,
        options.runs, TARGET))
    sys.stdout.write("| records | spawn to answer, wall | CPU | first run | decisions named | timeout |\n")
    sys.stdout.write("|---|---|---|---|---|---|\n")
    for size, first, runs in rows:
        sys.stdout.write("| %s | %s | %s | %s | %d | %d s |\n" % (
            "{:,}".format(size), spread([run[0] for run in runs]), spread([run[1] for run in runs]),
            spread([first[0]]), runs[0][2], limit))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
