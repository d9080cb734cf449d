"""Hostile globs must not cause catastrophic backtracking, nor a quadratic one.

Each hostile case runs in a child process with a generous time limit: a
polynomial matcher finishes in a few milliseconds, an exponential one (Python's
re on these patterns, or V8) would not finish at all.  The limit is far above
the expected time so a noisy machine cannot make the test flaky; it is a hang
guard, so it cannot see a quadratic regression.  The growth itself is checked
by counting: the engine's NFA counts the instructions it executes
(_GlobMachine.run), and the backtracking shapes are matched against inputs
that double in length, the counts asserted to double too, deterministically.
"""
import json
import pathlib
import subprocess
import sys
import textwrap

import pytest

import _support as support

ROOT = pathlib.Path(__file__).resolve().parents[1]

A_RUN = "a" * 1024
A_SEGMENTS = ("a/" * 512)[:1024]

# (pattern, path); no path contains a "b" or ends in ".ts", so only the
# negated extglob matches.
HOSTILE = [
    ("a*a*a*a*a*a*a*a*a*a*a*a*b", A_RUN),
    ("a*a*a*a*a*a*a*a*a*a*a*a*b", A_SEGMENTS),
    ("**/a*/**/a*/**/a*/**/b", A_SEGMENTS),
    ("**/a*/**/a*/**/a*/**/b", A_RUN),
    ("*/**/*/**/*/**/*/**/b", A_SEGMENTS),
    ("+(+(a))b", A_RUN),
    ("*(a|aa)*b", A_RUN),
    ("+(a|aa)b", A_RUN),
    ("*(a)*(a)*(a)*(a)b", A_RUN),
    ("+(a)+(a)+(a)+(a)b", A_RUN),
    ("@(a|a)*@(a|a)*@(a|a)*b", A_RUN),
    ("{a,a}" * 20 + "b", A_RUN),
    ("(a|a)" * 12 + "b", A_RUN),
    ("!(*a*a*a*a*b)", A_RUN),
    ("**/*a*a*a*a*a*b", A_SEGMENTS),
    ("[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*b", A_RUN),
    ("**/*.ts", A_SEGMENTS),
    ("**/*.ts", "a" * 4096),
]

RUNNER = support.with_cached_module(textwrap.dedent("""
    import json, pathlib, sys, time
    root = pathlib.Path(sys.argv[1])
    PicomatchPattern = cached_module("adrkit_mcp", str(root / "adrkit_mcp.py"), CACHE).picomatch_pattern_type()
    pattern, path = json.loads(sys.stdin.read())
    start = time.perf_counter()
    result = PicomatchPattern(pattern).match_paths([path])
    print(json.dumps([result[0], result[1], time.perf_counter() - start]))
"""))


@pytest.mark.parametrize("pattern,path", HOSTILE,
                         ids=["hostile-%d" % i for i in range(len(HOSTILE))])
def test_hostile_glob_finishes_quickly(pattern, path):
    completed = subprocess.run(
        [sys.executable, "-c", RUNNER, str(ROOT)],
        input=json.dumps([pattern, path]), capture_output=True, text=True,
        timeout=60,  # a hang guard: a polynomial matcher needs milliseconds
    )
    assert completed.returncode == 0, completed.stderr
    matched, bad_pattern, _ = json.loads(completed.stdout)
    assert bad_pattern is None
    assert matched is pattern.startswith("!(")  # the child's timeout is the hang guard


def test_re_engine_is_only_used_within_its_step_bound():
    """Python's re serves a candidate only when its worst case is bounded."""
    from adrkit_mcp import picomatch_pattern_type
    PicomatchPattern = picomatch_pattern_type()
    # Nested quantifiers over branching bodies never go to re.
    assert PicomatchPattern("+(a|b)*(c|d)x").regex._re_max_length == -1
    # A typical pattern uses re for typical paths, and not for huge ones.
    typical = PicomatchPattern("**/*.ts").regex
    assert 100 <= typical._re_max_length < 4096


# The backtracking shapes: `a*a*...b`, nested and negated extglobs, long `**` chains, braces.
# (pattern, kind of candidate): "run" is "aaa...", "segments" is "a/a/a/...".
GROWTH_SHAPES = [
    ("a*a*a*a*a*a*a*a*a*a*a*a*b", "run"),
    ("a*a*a*a*a*a*a*a*a*a*a*a*b", "segments"),
    ("[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*b", "run"),
    ("**/a*/**/a*/**/a*/**/b", "segments"),
    ("**/a*/**/a*/**/a*/**/b", "run"),
    ("*/**/*/**/*/**/*/**/b", "segments"),
    ("**/**/**/**/**/**/**/**/b", "segments"),
    ("**/*a*a*a*a*a*b", "segments"),
    ("**/*.ts", "segments"),
    ("**/*.ts", "run"),
    ("+(+(a))b", "run"),
    ("*(a|aa)*b", "run"),
    ("*(a)*(a)*(a)*(a)b", "run"),
    ("+(a)+(a)+(a)+(a)b", "run"),
    ("@(a|a)*@(a|a)*@(a|a)*b", "run"),
    ("+(*(a)|+(a))b", "run"),
    ("!(*a*a*a*a*b)", "run"),
    ("!(+(a))b", "run"),
    ("@(!(a)|a)*b", "run"),
    ("{a,a}" * 20 + "b", "run"),
    ("{a,aa}*{a,aa}*{a,aa}*b", "run"),
    ("{a..z}*{a..z}*b", "run"),
    ("(a|a)" * 12 + "b", "run"),
]
LENGTHS = [128, 256, 512, 1024, 2048]


def _candidate(kind, length):
    return "a" * length if kind == "run" else ("a/" * length)[:length]


@pytest.mark.parametrize("pattern,kind", GROWTH_SHAPES,
                         ids=["growth-%d" % i for i in range(len(GROWTH_SHAPES))])
def test_hostile_glob_work_grows_linearly(pattern, kind):
    """Steps for lengths 128..2048: each doubling at most doubles them (plus a little).

    A quadratic matcher would multiply them by about 4 per doubling, an exponential one
    would not finish; the counts are exact, so the bound is tight and never flaky."""
    from adrkit_mcp import picomatch_pattern_type
    PicomatchPattern = picomatch_pattern_type()
    machine = PicomatchPattern(pattern).regex._built_machine()
    counts = []
    for length in LENGTHS:
        matched, steps = machine.run(_candidate(kind, length))
        # nothing holds a "b": only a wholly negated extglob matches
        assert matched is (pattern.startswith("!(") and pattern.endswith(")")), (pattern, length)
        counts.append(steps)
    for (short, long_), (few, many) in zip(zip(LENGTHS, LENGTHS[1:]), zip(counts, counts[1:])):
        assert many <= 2.125 * few + 64, "%r: %d steps at %d units, %d at %d (%s)" % (
            pattern, few, short, many, long_, counts)


def test_the_step_count_sees_quadratic_work():
    """The measure is not blind: the same counter over a search that restarts at every
    position without sharing what it learnt (a matcher gone quadratic) grows fourfold."""
    from adrkit_mcp import picomatch_pattern_type
    PicomatchPattern = picomatch_pattern_type()
    machine = PicomatchPattern("a*a*b").regex._built_machine()
    counts = []
    for length in (256, 512):
        text = "a" * length
        # one run per start position instead of one run over all of them
        counts.append(sum(machine.run(text[start:])[1] for start in range(length)))
    assert counts[1] >= 3.5 * counts[0], counts


def test_a_regex_past_the_ports_limits_is_refused_only_where_a_candidate_reaches_it():
    """ADR 0004: a glob whose regex nests lookarounds past the port's limit becomes an invalid
    glob once a candidate reaches its regex, then for every later one; a candidate its leading
    literal text turns away never reaches it (the machine is built on first use, ADR 0018), and
    the reference, which has no limit, does not match such a candidate either."""
    from adrkit_mcp import picomatch_pattern_type
    PicomatchPattern = picomatch_pattern_type()
    deep = "src/" + "!(" * 120 + "a" + ")" * 120
    shallow = "src/" + "!(" * 60 + "a" + ")" * 60
    spec = PicomatchPattern(deep)
    assert spec.include is True and spec.match_file("lib/x.ts") is None
    with pytest.raises(Exception, match="beyond this port's limits: lookarounds nested too deeply"):
        spec.match_file("src/b")
    assert spec.match_file("lib/x.ts") is None  # still turned away before the regex
    with pytest.raises(Exception, match="beyond this port's limits"):
        spec.match_file("src/c")  # refused again, not built again
    assert PicomatchPattern(shallow).match_file("src/b") is None  # within the limits: it runs
