"""Hostile globs must not cause catastrophic backtracking.

Each case runs in a child process with a generous time limit: a polynomial
matcher finishes in a few milliseconds, an exponential one (Python's re on
these patterns, or V8) would not finish at all.  The limit is far above the
expected time so a noisy machine cannot make the test flaky.
"""
import json
import pathlib
import subprocess
import sys
import textwrap

import pytest

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

RUNNER = textwrap.dedent("""
    import json, pathlib, sys, time
    root = pathlib.Path(sys.argv[1])
    sys.path.insert(0, str(root))
    from adrkit_mcp import PicomatchPattern
    pattern, path = json.loads(sys.stdin.read())
    start = time.perf_counter()
    result = PicomatchPattern(pattern).match_paths([path])
    print(json.dumps([result[0], result[1], time.perf_counter() - start]))
""")


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
    from adrkit_mcp import PicomatchPattern
    # Nested quantifiers over branching bodies never go to re.
    assert PicomatchPattern("+(a|b)*(c|d)x").regex._re_max_length == -1
    # A typical pattern uses re for typical paths, and not for huge ones.
    typical = PicomatchPattern("**/*.ts").regex
    assert 100 <= typical._re_max_length < 4096
