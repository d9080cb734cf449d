#!/usr/bin/env python3
"""What `adrkit-mcp hook` costs an agent on every tool call, beside a bare Python start.

An agent starts the hook command afresh for each tool call its entry selects, and VS Code, which
ignores matchers, for every tool call: reads, searches and shell commands included. So two costs
matter. An event for a tool that edits nothing must cost about what starting Python and reading
JSON costs (the .pyz answers it before shiv's bootstrap, PyYAML, pathspec, idna or the corpus:
ADR 0018). An edit pays the whole lookup: the module's imports and one get_decision_context over a
corpus parsed from scratch (the hook keeps no state between runs).

Each round runs, one after the other so that load on the machine falls on all of them alike:
  * the baseline, `python3 -c "import json,sys; json.load(sys.stdin)"`, on the edit event;
  * the hook on a Bash event (a tool that edits nothing), as the printed entry runs it
    (`hook --format claude`), on the smallest corpus, and as Codex's entry runs it (`--format
    codex`, whose gate reads the command: only an apply_patch run through the shell edits);
  * the hook on an Edit event, once per corpus size.
It prints the child's CPU time (user + system) and the wall time from spawn to exit, medians over
the rounds (min to max), and each median CPU as a multiple of the baseline's. The corpora are
bench/bench.py's (the same generator, seed and cache). One run per program before the rounds
unpacks the .pyz into a private SHIV_ROOT; it is reported apart ("first run").

    python3 bench/hook.py                              # dist/adrkit-mcp.pyz; 100, 1,000, 10,000 records
    python3 bench/hook.py --sizes 100 --runs 1 --program adrkit_mcp.py

It never asserts a time (machines are noisy); it exits 1 only if a run did not answer as the hook
must (JSON context for the edit, nothing for the Bash event, exit 0). Standard library only.
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
BASELINE = "import json,sys; json.load(sys.stdin)"


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


def pre_tool_use(root, tool):
    """Claude Code's PreToolUse event for an Edit of TARGET, or for a Bash command."""
    arguments = ({"file_path": os.path.join(root, TARGET), "old_string": "a", "new_string": "b"}
                 if tool == "Edit" else {"command": "git status", "description": "Show the status"})
    return json.dumps({
        "session_id": "bench", "transcript_path": "", "cwd": root, "permission_mode": "default",
        "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": arguments,
        "tool_use_id": "toolu_bench"}).encode("utf-8")


def run_once(argv, event, env, expect):
    """(wall seconds, child CPU seconds, decisions named) of one run; raises if it failed.
    expect: "context" (the hook's JSON), "nothing" (empty stdout) or "any" (the baseline)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    child = subprocess.run(argv, input=event, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=env, timeout=600)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if child.returncode != 0 or child.stderr:
        raise RuntimeError("exit %d: %s" % (child.returncode, child.stderr.decode("utf-8", "replace")))
    if expect == "nothing" and child.stdout:
        raise RuntimeError("answered an event for a tool that edits nothing: %r" % child.stdout[:200])
    if expect != "context":
        return wall, cpu, 0
    text = json.loads(child.stdout)["hookSpecificOutput"]["additionalContext"]
    return wall, cpu, sum(1 for line in text.splitlines() if line.startswith("- ADR "))


def spread(values, scale=1000.0):
    numbers = sorted(value * scale for value in values)
    shown = ["{:,.0f}".format(number) for number in (statistics.median(numbers), numbers[0], numbers[-1])]
    if len(numbers) == 1:
        return "%s ms" % shown[0]
    return "%s ms (%s to %s)" % tuple(shown)


def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,1000,10000", help="corpus sizes (default 100,1000,10000)")
    parser.add_argument("--runs", type=int, default=9, help="timed rounds (default 9)")
    parser.add_argument("--program", default=None,
                        help="the .pyz or adrkit_mcp.py to run (default: dist/adrkit-mcp.pyz)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter (default: this one)")
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "adrkit-bench-corpora"),
                        help="where bench.py's corpora are cached")
    return parser.parse_args(argv)


def cases(options, program, bench):
    """(label, records, argv, event, expect) of every timed row, the baseline first."""
    sizes = [int(size) for size in options.sizes.split(",")]
    roots = {size: bench.ensure_corpus(size, bench.DEFAULT_SEED, options.cache)[0] for size in sizes}
    smallest = roots[sizes[0]]
    hook = [options.python, program, "hook", "--format", "claude", "--dir", "docs/adr", "--cwd"]
    rows = [("bare python3 -c \"%s\"" % BASELINE, None, [options.python, "-c", BASELINE],
             pre_tool_use(smallest, "Edit"), "any"),
            ("Bash (edits nothing)", sizes[0], hook + [smallest], pre_tool_use(smallest, "Bash"), "nothing"),
            # Codex's entry also selects Bash (an apply_patch run through the shell is an edit): the
            # gate reads the command before it answers that this one edits nothing.
            ("Bash through the Codex entry (edits nothing)", sizes[0],
             [word if word != "claude" else "codex" for word in hook] + [smallest],
             pre_tool_use(smallest, "Bash"), "nothing")]
    rows += [("Edit", size, hook + [roots[size]], pre_tool_use(roots[size], "Edit"), "context")
             for size in sizes]
    return rows


def measure(rows, runs, env):
    """{row index: (first run, [timed runs])}; the rounds interleave the rows."""
    results = {}
    for index, (label, size, argv, event, expect) in enumerate(rows):
        results[index] = (run_once(argv, event, env, expect), [])  # unpacks the .pyz at the first hook
    for _ in range(runs):
        for index, (label, size, argv, event, expect) in enumerate(rows):
            results[index][1].append(run_once(argv, event, env, expect))
    return results


def report(options, program, rows, results):
    limit = contract_value("HOOK_TIMEOUT_SECONDS")
    sys.stdout.write("adrkit-mcp hook, %s, Python %s, %d timed rounds, edited file %s\n\n" % (
        os.path.relpath(program, PROJECT) if program.startswith(PROJECT) else program,
        "%d.%d.%d" % sys.version_info[:3] if options.python == sys.executable else options.python,
        options.runs, TARGET))
    sys.stdout.write("| event | records | CPU | x bare | spawn to answer, wall | first run | "
                     "decisions named | timeout |\n")
    sys.stdout.write("|---|---|---|---|---|---|---|---|\n")
    base = statistics.median(run[1] for run in results[0][1])
    for index, (label, size, argv, event, expect) in enumerate(rows):
        first, runs = results[index]
        cpu = statistics.median(run[1] for run in runs)
        sys.stdout.write("| %s | %s | %s | %.2f | %s | %s | %s | %s |\n" % (
            label, "" if size is None else "{:,}".format(size), spread([run[1] for run in runs]),
            cpu / base if base else float("nan"), spread([run[0] for run in runs]), spread([first[0]]),
            runs[0][2] if expect == "context" else "", "" if size is None else "%d s" % limit))


def main(argv=None):
    options = parse(argv)
    program = options.program or os.path.join(PROJECT, "dist", "adrkit-mcp.pyz")
    if not os.path.isfile(program):
        sys.stderr.write("bench/hook.py: %s does not exist (python3 build.py makes it)\n" % program)
        return 1
    shiv_root = tempfile.mkdtemp(prefix="adrkit-hook-bench-")
    env = dict(os.environ, SHIV_ROOT=shiv_root)
    for name in ("ADRKIT_MCP_CWD", "ADRKIT_MCP_DIR", "CLAUDE_PROJECT_DIR"):
        env.pop(name, None)
    try:
        rows = cases(options, program, load_bench())
        results = measure(rows, options.runs, env)
    except (RuntimeError, ValueError, KeyError, subprocess.TimeoutExpired) as error:
        sys.stderr.write("bench/hook.py: the hook failed: %s\n" % error)
        return 1
    finally:
        shutil.rmtree(shiv_root, ignore_errors=True)
    report(options, program, rows, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
