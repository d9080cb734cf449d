#!/usr/bin/env python3
"""The reference CLI's commands and `--markers`, beside the reference (issue 30, item 7).

On bench/bench.py's corpus (the same generator, seed and cache) with SOURCES source files added
(deterministic; each declares one to three decisions in an `@adr` comment near its top, one names
a record the corpus lacks, a few run past the 8 KiB marker window), it times:

  * `lint`, `check <every source file>` and `check --json <...>`: our program and, when Bun and
    the reference's checkout are there, the reference CLI (`bun packages/cli/src/index.ts`), each
    run in the corpus root; CPU of the child (user + system, from os.wait4), wall time, and
    whether both printed the same bytes. The rounds interleave the programs, so load on the
    machine falls on both alike, and the ratio ours / reference is taken in each round.
  * get_decision_context over the source files through two real server processes, one started
    with `--markers` and one without, warm CPU per call of each (from /proc), the rounds
    alternating between them; the ratio with / without is taken in each round.

Each cell is the median over the rounds (min to max); the ratios are compared with the targets
(ours at most a third of the reference's CPU; --markers at most 1.2x without). It never asserts a
time (machines are noisy); it exits 1 only if a program failed (a non-zero exit other than lint's
or check's 1, or a server that did not answer).

    python3 bench/cli.py                       # 1,000 records, 50 source files, 5 rounds
    python3 bench/cli.py --records 30 --sources 5 --runs 1 --calls 2 --bun none   # a smoke run

Standard library only; CPU per call of the servers needs Linux /proc (reported as n/a elsewhere).
"""

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.dirname(HERE)
SOURCES_VERSION = 1
DEFAULT_BUN = "/tmp/bunbin/node_modules/.bin/bun"
DEFAULT_REFERENCE = "/tmp/adrkit-ref/packages/cli/src/index.ts"
COMMAND_TARGET = 1 / 3.0  # ours / the reference's CPU, each command
MARKERS_TARGET = 1.2  # get_decision_context with --markers / without


def load_bench():
    spec = importlib.util.spec_from_file_location("adrkit_bench", os.path.join(HERE, "bench.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = load_bench()


# ---------------------------------------------------------------------------------------------
# The source files
# ---------------------------------------------------------------------------------------------


def source_files(count, records, seed):
    """[(relative path, bytes)] of `count` source files; pure and deterministic. Paths fall under
    the corpus's path matchers (src/<area>/, services/<service>/api/, packages/<name>/src/)."""
    rng = bench.Rng(seed * 7919 + count)
    files = []
    for index in range(count):
        kind = index % 3
        if kind == 0:
            folder = "src/%s" % rng.pick(bench.AREAS)
        elif kind == 1:
            folder = "services/%s/api" % rng.pick(bench.SERVICES)
        else:
            folder = "packages/%s/src" % rng.pick(bench.PACKAGES)
        path = "%s/module%02d.ts" % (folder, index)
        refs = ["%04d" % rng.between(1, records) for _ in range(rng.between(1, 3))]
        if index == count // 2:
            refs.append("%04d" % (records + 1))  # a dangling marker
        lines = ["// Copyright 2026 Example Corp.", "// SPDX-License-Identifier: Apache-2.0",
                 "// @adr %s" % ", ".join(refs), "", "import { pool } from \"../db/pool\";", ""]
        target = 600 + (rng.below(12000) if index % 7 else 9000)  # every seventh one outgrows 8 KiB
        size = sum(len(line) + 1 for line in lines)
        number = 0
        while size < target:
            line = "export function step%d(input: number): number { return input * %d + %d; }" % (
                number, rng.between(2, 99), rng.between(0, 999))
            lines.append(line)
            size += len(line) + 1
            number += 1
        files.append((path, ("\n".join(lines) + "\n").encode("utf-8")))
    return files


def ensure_cli_corpus(records, sources, seed, cache_dir):
    """(root, [source paths]): bench.py's corpus of `records` plus the source files, cached."""
    corpus, info, _ = bench.ensure_corpus(records, seed, cache_dir)
    key = "cli%d-g%d-n%d-f%d-s%d" % (SOURCES_VERSION, bench.GENERATOR_VERSION, records, sources, seed)
    root = os.path.join(cache_dir, key)
    marker = os.path.join(root, bench.CORPUS_MARKER)
    files = source_files(sources, records, seed)
    paths = [path for path, _ in files]
    try:
        with open(marker, encoding="utf-8") as handle:
            if json.load(handle).get("digest") == info["digest"]:
                return root, paths
    except (OSError, ValueError):
        pass
    tmp = tempfile.mkdtemp(prefix=key + ".tmp-", dir=cache_dir)
    try:
        os.makedirs(os.path.join(tmp, ".git"))
        shutil.copytree(os.path.join(corpus, bench.ADR_DIR), os.path.join(tmp, bench.ADR_DIR))
        for path, data in files:
            os.makedirs(os.path.join(tmp, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(tmp, path), "wb") as handle:
                handle.write(data)
        with open(os.path.join(tmp, bench.CORPUS_MARKER), "w", encoding="utf-8") as handle:
            json.dump({"digest": info["digest"], "sources": paths}, handle)
        shutil.rmtree(root, ignore_errors=True)
        os.rename(tmp, root)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return root, paths


# ---------------------------------------------------------------------------------------------
# The commands, ours beside the reference's
# ---------------------------------------------------------------------------------------------


def command_rows(root, paths):
    """(label, arguments) of each timed command: lint of the corpus, lint of as many records as
    there are source files (every n-th in name order), check of the source files."""
    names = sorted(name for name in os.listdir(os.path.join(root, bench.ADR_DIR)) if name.endswith(".md"))
    step = max(1, len(names) // max(1, len(paths)))
    records = ["docs/adr/" + name for name in names[::step][:len(paths)]]
    return [("lint", ["lint"]), ("lint <%d records>" % len(records), ["lint"] + records),
            ("check <%d files>" % len(paths), ["check"] + paths),
            ("check --json <%d files>" % len(paths), ["check", "--json"] + paths)]


def run_command(argv, root, timeout):
    """(CPU seconds or None, wall seconds, stdout) of one run; raises on an unexpected exit."""
    status, wall, cpu, out, err = bench.timed_run(argv, root, timeout)
    if status not in (0, 1):  # lint and check exit 1 on error findings: an answer all the same
        raise RuntimeError("%s exited %s: %s" % (" ".join(argv[:3]), status,
                                                 err.decode("utf-8", "replace")[-600:]))
    return cpu, wall, out


def measure_commands(programs, rows, root, runs, timeout):
    """{label: {program: [(cpu, wall)]}} and {label: same stdout}; one unmeasured run of each
    first (it writes our bytecode, and warms the disk cache for both)."""
    results = {label: {name: [] for name, _ in programs} for label, _ in rows}
    outputs = {label: {} for label, _ in rows}
    for label, arguments in rows:
        for name, program in programs:
            outputs[label][name] = run_command(program + arguments, root, timeout)[2]
    for _ in range(runs):
        for label, arguments in rows:
            for name, program in programs:
                cpu, wall, _ = run_command(program + arguments, root, timeout)
                results[label][name].append((cpu, wall))
    same = {label: len(set(outputs[label].values())) == 1 if len(programs) > 1 else None for label, _ in rows}
    return results, same


# ---------------------------------------------------------------------------------------------
# get_decision_context, with --markers and without, through two real servers
# ---------------------------------------------------------------------------------------------


def start_server(argv, root, timeout, label):
    server = bench.Server(argv, bench.child_env(root), timeout, label)
    server.start()
    rid = server.new_id()
    server.write([bench.first_request("legacy", rid)])
    server.wait_for([rid])
    server.write([{"jsonrpc": "2.0", "method": "notifications/initialized"}])
    return server


def context_call(server, paths):
    """One get_decision_context call; (decisions named, declaredBy entries) of its answer."""
    _, answer = server.request("tools/call", bench.call_params("legacy", "get_decision_context",
                                                                {"files": paths}))
    if bench.classify(answer)[0] != "ok":
        raise RuntimeError("get_decision_context failed: %s" % json.dumps(answer)[:600])
    result = answer["result"]["structuredContent"]["result"]
    entries = [entry for bucket in ("governing", "activeProposals", "history") for entry in result[bucket]]
    return len(entries), sum(1 for entry in entries if "declaredBy" in entry)


def measure_markers(program, root, paths, runs, calls, timeout):
    """{"plain"|"markers": [CPU ms per call per round]} and the answers' (named, declared)."""
    servers = {"plain": start_server(program + ["--cwd", root], root, timeout, "plain"),
               "markers": start_server(program + ["--cwd", root, "--markers"], root, timeout, "markers")}
    results = {side: [] for side in servers}
    shapes = {}
    try:
        for side, server in servers.items():
            for _ in range(3):  # warm: the corpus is read and memoised, the code paths run once
                shapes[side] = context_call(server, paths)
        for _ in range(runs):
            for side, server in servers.items():
                before = bench.cpu_snapshot(server.proc.pid)
                for _ in range(calls):
                    context_call(server, paths)
                spent = bench.cpu_delta_s(before, bench.cpu_snapshot(server.proc.pid))
                results[side].append(None if spent is None else spent * 1000 / calls)
    finally:
        for server in servers.values():
            server.close()
    return results, shapes


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------


def spread(values, unit):
    values = sorted(value for value in values if value is not None)
    if not values:
        return "n/a"
    middle = statistics.median(values)
    if len(values) == 1:
        return "%.1f %s" % (middle, unit)
    return "%.1f %s (%.1f to %.1f)" % (middle, unit, values[0], values[-1])


def ratio_cell(ratios, target):
    ratios = [ratio for ratio in ratios if ratio is not None]
    if not ratios:
        return "n/a", "n/a", "n/a"
    middle = statistics.median(ratios)
    shown = "%.2fx" % middle if len(ratios) == 1 else "%.2fx (%.2f to %.2f)" % (middle, min(ratios), max(ratios))
    return shown, "<= %.2fx" % target, "yes" if middle <= target else "no"


def report(options, root, paths, programs, rows, commands, same, markers, shapes, out):
    out.write("adrkit-mcp CLI bench: %s records, %d source files, %d rounds, Python %s, %s\n" % (
        "{:,}".format(options.records), len(paths), options.runs, "%d.%d.%d" % sys.version_info[:3],
        "load average %.2f %.2f %.2f" % os.getloadavg() if hasattr(os, "getloadavg") else ""))
    out.write("corpus: %s\n" % root)
    if len(programs) < 2:
        out.write("reference CLI: skipped (%s)\n" % options.skipped)
    out.write("\n| run | ours CPU | reference CPU | ours / reference | target | met | ours wall | "
              "reference wall | same output |\n")
    out.write("|---|---|---|---|---|---|---|---|---|\n")
    summary = {}
    for label, _ in rows:
        ours = commands[label]["ours"]
        theirs = commands[label].get("reference", [])
        ratios = [mine[0] / other[0] if mine[0] is not None and other[0] else None
                  for mine, other in zip(ours, theirs)]
        shown, target, met = ratio_cell(ratios, COMMAND_TARGET)
        out.write("| `%s` | %s | %s | %s | %s | %s | %s | %s | %s |\n" % (
            label, spread([cpu * 1000 for cpu, _ in ours if cpu is not None], "ms"),
            spread([cpu * 1000 for cpu, _ in theirs if cpu is not None], "ms"), shown, target, met,
            spread([wall * 1000 for _, wall in ours], "ms"), spread([wall * 1000 for _, wall in theirs], "ms"),
            {True: "yes", False: "no", None: ""}[same[label]]))
        summary[label] = {"ours_cpu_s": [cpu for cpu, _ in ours], "reference_cpu_s": [cpu for cpu, _ in theirs],
                          "ratios": ratios, "same_output": same[label]}
    out.write("\n| get_decision_context, %d files | CPU per call | with / without | target | met | "
              "decisions named | declaredBy |\n" % len(paths))
    out.write("|---|---|---|---|---|---|---|\n")
    ratios = [mine / plain if mine is not None and plain else None
              for mine, plain in zip(markers["markers"], markers["plain"])]
    shown, target, met = ratio_cell(ratios, MARKERS_TARGET)
    out.write("| without --markers | %s | | | | %d | %d |\n" % (
        spread(markers["plain"], "ms"), shapes["plain"][0], shapes["plain"][1]))
    out.write("| with --markers | %s | %s | %s | %s | %d | %d |\n" % (
        spread(markers["markers"], "ms"), shown, target, met, shapes["markers"][0], shapes["markers"][1]))
    summary["markers"] = {"plain_cpu_ms": markers["plain"], "markers_cpu_ms": markers["markers"], "ratios": ratios}
    return summary


def our_program(options, scratch):
    """Our command as installed: a .pyz run as a script (unpacked once into a private SHIV_ROOT),
    or adrkit_mcp.py imported as pip's entry point imports it, its bytecode kept in a private
    folder (run as a script, Python would compile the whole module on every start)."""
    os.environ["SHIV_ROOT"] = os.path.join(scratch, "shiv")
    os.environ["PYTHONPYCACHEPREFIX"] = os.path.join(scratch, "pycache")
    if options.program.endswith(".pyz"):
        return [options.python, options.program]
    folder, name = os.path.split(os.path.abspath(options.program))
    return [options.python, "-c", "import sys; sys.path.insert(0, %r); import %s; sys.exit(%s.main())" % (
        folder, name[:-3], name[:-3])]


def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=1000, help="records in the corpus (default 1000)")
    parser.add_argument("--sources", type=int, default=50, help="source files (default 50)")
    parser.add_argument("--runs", type=int, default=5, help="timed rounds (default 5)")
    parser.add_argument("--calls", type=int, default=20, help="context calls per server per round (default 20)")
    parser.add_argument("--program", default=os.path.join(PROJECT, "adrkit_mcp.py"),
                        help="our adrkit_mcp.py or adrkit-mcp.pyz (default: this checkout's adrkit_mcp.py)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter (default: this one)")
    parser.add_argument("--bun", default=os.environ.get("BUN", DEFAULT_BUN),
                        help="Bun, to run the reference CLI ('none' to skip it; default $BUN, else %s)" % DEFAULT_BUN)
    parser.add_argument("--reference", default=DEFAULT_REFERENCE,
                        help="the reference CLI's packages/cli/src/index.ts (default %s)" % DEFAULT_REFERENCE)
    parser.add_argument("--seed", type=int, default=bench.DEFAULT_SEED)
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "adrkit-bench-corpora"),
                        help="where the corpora are cached (bench.py's cache)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per run or call (default 300)")
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    return parser.parse_args(argv)


def main(argv=None):
    options = parse(argv)
    root, paths = ensure_cli_corpus(options.records, options.sources, options.seed, options.cache)
    scratch = tempfile.mkdtemp(prefix="adrkit-cli-bench-")
    ours = our_program(options, scratch)
    programs = [("ours", ours)]
    options.skipped = None
    if options.bun == "none":
        options.skipped = "--bun none"
    elif not (os.path.isfile(options.bun) and os.access(options.bun, os.X_OK)):
        options.skipped = "no Bun at %s" % options.bun
    elif not os.path.isfile(options.reference):
        options.skipped = "no reference CLI at %s" % options.reference
    else:
        programs.append(("reference", [options.bun, options.reference]))
    rows = command_rows(root, paths)
    try:
        commands, same = measure_commands(programs, rows, root, options.runs, options.timeout)
        markers, shapes = measure_markers(ours, root, paths, options.runs, options.calls, options.timeout)
    except (RuntimeError, bench.ServerFailed) as error:
        sys.stderr.write("bench/cli.py: %s\n" % error)
        return 1
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    summary = report(options, root, paths, programs, rows, commands, same, markers, shapes, sys.stdout)
    if options.json:
        with open(options.json, "w", encoding="utf-8") as handle:
            json.dump(summary, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
