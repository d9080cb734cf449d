"""CI's one skip policy, tools/check_skips.py: what it allows and refuses, on which platform and
Python, and that .ci/run and .github/workflows/ci.yml both judge the run's skips by it (and by
nothing else), from the report tests/conftest.py writes where $ADRKIT_SKIP_REPORT says.
"""

import ast
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

PROJECT = Path(__file__).resolve().parent.parent
TOOL = PROJECT / "tools" / "check_skips.py"
CI_RUN = PROJECT / ".ci" / "run"
CI_YML = PROJECT / ".github" / "workflows" / "ci.yml"
LINUX_313, WINDOWS_39, MAC_310 = ("linux", (3, 13)), ("win32", (3, 9)), ("darwin", (3, 10))


@pytest.fixture(scope="module")
def policy():
    spec = importlib.util.spec_from_file_location("adrkit_check_skips", str(TOOL))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def verdicts(policy, reason):
    return [policy.allowed(reason, where) is not None for where in (LINUX_313, WINDOWS_39, MAC_310)]


@pytest.mark.parametrize("reason,linux,windows,mac", [
    ("not on win32: creating a symlink needs administrator rights", True, True, True),
    ("node and npm are needed for the TypeScript clients", True, True, True),
    ("fastmcp (a dev requirement for Python 3.11+) is not installed", False, True, True),
    ("mcp (the official SDK client, a dev requirement for Python 3.10+) is not installed",
     False, True, False),
    ("could not import 'fcntl': No module named 'fcntl'", False, True, False),
    ("needs /proc/self/fd to resolve descriptors", False, True, True),
    ("no FIFOs on this platform", False, True, False),
    ("no Python 3.10 among ADRKIT_TEST_PYTHONS", False, False, False),
    ("needs two Pythons 3.9-3.14, found 1", False, False, False),
    ("shiv is not installed (python3 -m pip install -r requirements-dev.txt)", False, False, False),
    ("running as root without unshare: cannot make a read-only HOME", False, False, False),
    ("known divergence: anything", False, False, False),
    ("xfail: open mismatch: the reference joins every YAML error", True, True, True),
    ("xfail: flaky on this machine", False, False, False),
])
def test_each_reason_is_allowed_only_where_it_can_hold(policy, reason, linux, windows, mac):
    assert verdicts(policy, reason) == [linux, windows, mac]


def test_the_verdict_counts_each_reason_and_names_each_refused_test(policy):
    skips = [{"test": "a::x", "reason": "not on win32: no"}, {"test": "a::y", "reason": "not on win32: no"},
             {"test": "b::z", "reason": "shiv is not installed"}]
    lines, refused = policy.judge(skips, WINDOWS_39)
    assert lines == ["skipped 2: not on win32: no", "skipped 1: shiv is not installed"]
    assert refused == ["NOT ALLOWED: b::z: shiv is not installed"]
    assert policy.judge([], LINUX_313) == (["skipped nothing"], [])


def run_tool(*args):
    return subprocess.run([sys.executable, str(TOOL)] + [str(arg) for arg in args],
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=60)


def test_the_command_fails_on_a_refused_skip_and_on_a_missing_report(tmp_path):
    report = tmp_path / "skips.jsonl"
    report.write_text(json.dumps({"test": "t::a", "when": "setup", "reason": "not on x: y"}) + "\n",
                      encoding="utf-8")
    done = run_tool(report)
    assert done.returncode == 0 and "skipped 1: not on x: y" in done.stdout, done.stdout + done.stderr
    report.write_text(json.dumps({"test": "t::b", "when": "setup", "reason": "no Python 3.9 here"})
                      + "\n", encoding="utf-8")
    done = run_tool(report)
    assert done.returncode == 1 and "NOT ALLOWED: t::b: no Python 3.9 here" in done.stdout
    assert run_tool(tmp_path / "absent.jsonl").returncode == 2
    report.write_text("", encoding="utf-8")
    assert "skipped nothing" in run_tool(report).stdout


def test_every_allowed_reason_is_one_the_suite_gives(policy):
    """No stale entry: each prefix is written in a test (pytest itself writes 'could not import',
    conftest.py the platform marks' 'not on <platform>: ')."""
    strings = set()  # every string literal of tests/*.py (adjacent literals are one in the AST)
    for path in sorted((PROJECT / "tests").glob("*.py")):
        if path.name != Path(__file__).name:
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    strings.add(node.value)
    for entry in policy.ALLOWED:
        if entry.prefix.startswith("could not import "):
            assert re.search(r"'(\w+)'", entry.prefix).group(1) in strings, entry  # importorskip's
        elif entry.prefix == "not on ":
            assert "not on %s: %s" in strings  # tests/conftest.py's platform marks
        elif entry.prefix.startswith("xfail: "):  # tests/conftest.py's prefix for an xfail's reason
            assert any(string.startswith(entry.prefix[len("xfail: "):]) for string in strings), entry
        else:
            assert any(string.startswith(entry.prefix) for string in strings), entry


def test_ci_run_and_the_workflow_judge_skips_by_this_policy_alone():
    script = CI_RUN.read_text(encoding="utf-8")
    assert "ADRKIT_SKIP_REPORT=" in script and "tools/check_skips.py" in script
    assert "MISSING_TOOL_REASONS" not in script and "startswith(prefix" not in script
    (job,) = yaml.safe_load(CI_YML.read_text(encoding="utf-8"))["jobs"].values()
    steps = job["steps"]
    tests = [step for step in steps if "pytest" in str(step.get("run", ""))]
    assert len(tests) == 1 and "ADRKIT_SKIP_REPORT" in tests[0]["env"]
    report = tests[0]["env"]["ADRKIT_SKIP_REPORT"]
    after = steps[steps.index(tests[0]) + 1]
    assert "tools/check_skips.py" in after["run"]
    assert report.replace("${{ runner.temp }}", "$RUNNER_TEMP") in after["run"]
    assert os.path.basename(report) == "skips.jsonl"
