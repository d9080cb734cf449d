"""Fixtures shared by the test files (helpers live in _support.py)."""

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import _support as support  # tests/ is on sys.path (pytest rootdir insertion)
from _session import Session


# ---------------------------------------------------------------------------
# $ADRKIT_SKIP_REPORT=FILE: every skipped test and its reason, one JSON object per line, written
# at the end of the run.  .ci/run and the CI workflow judge it with tools/check_skips.py (their
# one skip policy) while running exactly the README's test command.
# ---------------------------------------------------------------------------

_SKIPS = []


def pytest_runtest_logreport(report):
    _record_skip(report)


def pytest_collectreport(report):  # a whole module skipped at collection
    _record_skip(report)


def _record_skip(report):
    if not report.skipped:
        return
    if hasattr(report, "wasxfail"):
        reason = "xfail: %s" % report.wasxfail
    elif isinstance(report.longrepr, tuple) and len(report.longrepr) == 3:
        reason = str(report.longrepr[2])
        if reason.startswith("Skipped: "):
            reason = reason[len("Skipped: "):]
    else:
        reason = str(report.longrepr)
    _SKIPS.append({"test": report.nodeid, "when": getattr(report, "when", "collect"), "reason": reason})


def pytest_sessionfinish(session):
    # Under pytest-xdist the workers' reports reach these hooks in the controlling process too (a
    # module skipped at collection once, though every worker collects it): the controller writes
    # the file, the workers do not.
    target = os.environ.get("ADRKIT_SKIP_REPORT")
    if target and not support.XDIST_WORKER:
        import json
        with open(target, "w", encoding="utf-8") as handle:
            for skip in _SKIPS:
                handle.write(json.dumps(skip) + "\n")


@pytest.fixture(autouse=True)
def _cwd_kept(request):
    """Every test leaves the working directory where it found it: a test that changes it and
    lets its tmp_path go leaves later tests (and the programs they start) in a deleted folder."""
    here = os.getcwd()
    yield
    try:
        now = os.getcwd()
    except OSError:
        now = None
    if now != here:
        os.chdir(here)
        pytest.fail("%s left the working directory at %s (it was %s)" % (request.node.nodeid, now, here),
                    pytrace=False)


@pytest.fixture
def repo(tmp_path):
    """An empty repository root with a .git directory and docs/adr."""
    return support.Repo(tmp_path / "repo")


@pytest.fixture
def make_repo(tmp_path):
    """A factory of repository roots under tmp_path: make_repo(name, **Repo options)."""
    def make(name="repo", **options):
        return support.Repo(tmp_path / name, **options)
    return make


@pytest.fixture
def public_tmp():
    """A folder every user can traverse (tmp_path's parents are 0700), removed afterwards."""
    path = tempfile.mkdtemp(prefix="adrkit-unit-")
    os.chmod(path, 0o755)
    yield path
    for dirpath, dirnames, _ in os.walk(path):
        for name in dirnames:
            full = os.path.join(dirpath, name)
            if not os.path.islink(full):
                os.chmod(full, stat.S_IRWXU)
    shutil.rmtree(path, ignore_errors=True)


# ---------------------------------------------------------------------------
# The server under test, as a process (shared by the wire, fault, containment, side-effect and
# fuzz tests). Which module: $ADRKIT_MCP_MODULE if set, else adrkit_mcp.py at the repository
# root; $ADRKIT_MCP_PYTHON picks the interpreter that runs the server process, started through
# tests/_launch.py (support.module_command: the script path, bytecode kept). hooked_command
# runs the module through a small wrapper that patches `call_tool` with test tools (names
# starting "test_"); the wire layer looks `call_tool` up at call time.
# ---------------------------------------------------------------------------

HOOKS = r'''
import os, sys, time
m = cached_module("adrkit_mcp", MODULE, CACHE)
real_call_tool = m.call_tool
real_run_subcommand = m.run_subcommand
MARKS = os.environ.get("WIRE_TEST_MARKS")

def mark(name):
    if MARKS:
        open(os.path.join(MARKS, name), "w").close()

def text(t):
    return {"content": [{"type": "text", "text": t}]}

def hooked(config, name, arguments, should_stop):
    if name == "test_slow":  # checks should_stop at every "record boundary"
        mark("started-%s" % arguments.get("tag", ""))
        deadline = time.monotonic() + float(arguments.get("seconds", 10))
        while time.monotonic() < deadline:
            if should_stop():
                mark("stopped-%s" % arguments.get("tag", ""))
                raise m.CallCancelled()
            time.sleep(0.005)
        mark("finished-%s" % arguments.get("tag", ""))
        return text("slow done")
    if name == "test_stubborn":  # never looks at should_stop
        mark("started-%s" % arguments.get("tag", ""))
        time.sleep(float(arguments.get("seconds", 1)))
        mark("finished-%s" % arguments.get("tag", ""))
        return text("stubborn done")
    if name == "test_echo":
        return text(arguments["text"])
    if name == "test_crash":
        raise RuntimeError("a bug in a tool")
    if name == "test_nan":
        result = text("nan")
        result["structuredContent"] = {"x": float("nan")}
        return result
    if name == "test_print":
        print("stray output from a tool")
        return text("printed")
    if name == "test_bad_result":
        return ["not", "a", "result"]
    return real_call_tool(config, name, arguments, should_stop)

def subcommand(name, argv):
    sys.stdout.write("SUBCOMMAND %s %s\n" % (name, json.dumps(argv)))
    return 7

import json
m.call_tool = hooked
m.run_subcommand = subcommand
sys.exit(m.main())
'''


@pytest.fixture(scope="session")
def server_module(tmp_path_factory):
    """Path of the single-module server to test (see the module docstring)."""
    override = os.environ.get("ADRKIT_MCP_MODULE")
    if override:
        return str(Path(override).resolve())
    return str(Path(support.REPO_ROOT) / "adrkit_mcp.py")


# The server process as on Windows (ADRKIT_TEST_FORCE_PATHS=windows, below): no openat, no
# O_NOFOLLOW, no stat-validated reuse, everything else real.
WINDOWS_PATHS = r'''
import os, sys
m = cached_module("adrkit_mcp", MODULE, CACHE)

class WindowsLikeOs(object):
    supports_dir_fd = frozenset()

    def __getattr__(self, name):
        if name == "O_NOFOLLOW":
            raise AttributeError(name)
        return getattr(os, name)

    def open(self, path, flags, mode=0o777, *, dir_fd=None):
        if dir_fd is not None:
            raise NotImplementedError("dir_fd unavailable on this platform")
        return os.open(path, flags & ~os.O_NOFOLLOW, mode)

    def stat(self, path, *, dir_fd=None, follow_symlinks=True):
        if dir_fd is not None:
            raise NotImplementedError("dir_fd unavailable on this platform")
        return os.stat(path, follow_symlinks=follow_symlinks)

    def scandir(self, path="."):
        if isinstance(path, int):
            raise NotImplementedError("scandir of a descriptor unavailable on this platform")
        return os.scandir(path)

m.os = WindowsLikeOs()
m._STAT_REUSE = False
sys.exit(m.main())
'''


@pytest.fixture(scope="session")
def server_command(server_module, tmp_path_factory):
    if os.environ.get("ADRKIT_TEST_FORCE_PATHS") == "windows":
        path = tmp_path_factory.mktemp("forced") / "windows_paths_server.py"
        path.write_text(_wrapper(server_module, WINDOWS_PATHS), encoding="utf-8")
        return [support.SERVER_PYTHON, str(path)]
    return support.module_command(server_module)


@pytest.fixture(scope="session")
def hooked_command(server_module, tmp_path_factory):
    path = tmp_path_factory.mktemp("hooks") / "hooked_server.py"
    path.write_text(_wrapper(server_module, HOOKS), encoding="utf-8")
    return [support.SERVER_PYTHON, str(path)]


def _wrapper(module, body):
    """A wrapper script's text: `body` with MODULE, CACHE and cached_module (tests/_support.py)."""
    return "MODULE = %r\n%s" % (module, support.with_cached_module(body))


@pytest.fixture(scope="session")
def repo_root(tmp_path_factory):
    """A Git worktree root (a .git folder is enough) with an empty docs/adr."""
    root = tmp_path_factory.mktemp("repo")
    (root / ".git").mkdir()
    (root / "docs" / "adr").mkdir(parents=True)
    return str(root)


@pytest.fixture(scope="session")
def built_pyz(tmp_path_factory):
    """(path, build.py's report): the adrkit-mcp.pyz that `python3 build.py` makes, once per run,
    with adrkit-mcp.mcpb next to it; shared by the build, bundle and team-config tests, so treat
    both files as read-only (copy one before changing it).  $ADRKIT_TEST_MODULE builds another
    copy of the module (development).  Under pytest-xdist the first worker that needs it builds
    it, behind a file lock, in the folder the workers share; the others wait, then use it."""
    module = Path(os.environ.get("ADRKIT_TEST_MODULE") or Path(support.REPO_ROOT) / "adrkit_mcp.py")
    try:
        import shiv  # noqa: F401
    except ImportError:
        pytest.skip("shiv is not installed (python3 -m pip install -r requirements-dev.txt)")
    with support.run_lock(tmp_path_factory, "built-pyz") as shared:
        folder = shared / "built-pyz"
        target, report = folder / "adrkit-mcp.pyz", folder / "build-report.txt"
        if report.is_file():  # made by another worker of this run, completely (the report is last)
            return target, report.read_text(encoding="utf-8")
        folder.mkdir(exist_ok=True)
        result = subprocess.run(
            [sys.executable, os.path.join(support.REPO_ROOT, "build.py"), "--module", str(module.resolve()),
             "--output", str(target)],
            cwd=support.REPO_ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            universal_newlines=True, timeout=900)
        assert result.returncode == 0, result.stdout + result.stderr
        report.write_text(result.stdout, encoding="utf-8")
        return target, result.stdout


@pytest.fixture
def marks(tmp_path):
    folder = tmp_path / "marks"
    folder.mkdir()
    return folder


@pytest.fixture(scope="session")
def module(server_module):
    """The module loaded in-process, for the embedding API."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("adrkit_mcp_under_test", server_module)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ---------------------------------------------------------------------------
# Stdio sessions (tests/_session.py) on the empty repository repo_root.
# ---------------------------------------------------------------------------

@pytest.fixture
def open_session(server_command, repo_root):
    """start(*extra args, command=, env=, root=) -> a Session; every one is killed afterwards."""
    sessions = []

    def start(*extra, command=None, env=None, root=None):
        s = Session(command or server_command, ["--cwd", root or repo_root] + list(extra), env=env)
        sessions.append(s)
        return s
    yield start
    for s in sessions:
        s.kill()


@pytest.fixture
def session(open_session):
    """A Session that must end with exit status 0 when the test closes it (or at teardown)."""
    s = open_session()
    yield s
    status, _ = s.close()
    assert status == 0, s.stderr()


@pytest.fixture
def hooked(open_session, hooked_command, marks):
    """start(*extra args) -> a Session on the server with the test tools (see HOOKS)."""
    def start(*extra):
        return open_session(*extra, command=hooked_command, env={"WIRE_TEST_MARKS": str(marks)})
    return start


# ---------------------------------------------------------------------------
# Platforms (docs/PORTABILITY.md, "What the suite marks per platform").
#
# A test that cannot hold on a platform says so with `@pytest.mark.not_on("win32", reason=...)`
# (platform names as in sys.platform: win32, darwin, linux); it is skipped there, with the
# reason, and runs everywhere else.  ADRKIT_TEST_PLATFORM=win32 (or darwin) makes this machine
# apply another platform's marks, to list what CI skips there:
#     ADRKIT_TEST_PLATFORM=win32 python3 -m pytest -q -rs -m not_on
#
# ADRKIT_TEST_FORCE_PATHS=windows runs every in-process test with the module as it is on Windows:
# no openat (`dir_fd`), no O_NOFOLLOW (test_containment's FdSpy in its "neither" mode) and no
# stat-validated reuse (`_STAT_REUSE`, whose st_ctime is the birth time there).  Tests that check
# the native path itself carry `native_paths` and keep the real module.
# ---------------------------------------------------------------------------

TEST_PLATFORM = os.environ.get("ADRKIT_TEST_PLATFORM") or __import__("sys").platform
FORCE_PATHS = os.environ.get("ADRKIT_TEST_FORCE_PATHS", "")
PLATFORMS = ("win32", "darwin", "linux")


def pytest_configure(config):
    config.addinivalue_line("markers", "not_on(*platforms, reason): cannot hold on those platforms "
                                       "(sys.platform names); skipped there with the reason")
    config.addinivalue_line("markers", "native_paths: checks the module's native (openat, "
                                       "O_NOFOLLOW, stat reuse) reader path itself")
    if FORCE_PATHS not in ("", "windows"):
        raise pytest.UsageError("ADRKIT_TEST_FORCE_PATHS must be 'windows' or unset, not %r"
                                % FORCE_PATHS)


def pytest_collection_modifyitems(config, items):
    # The slow tests first (a stable sort keeps every other order): run in parallel, the longest
    # (test_releasing's two release builds, about two minutes) then overlap the many short ones
    # instead of starting last and leaving the other workers idle at the end.
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
    for item in items:
        for mark in item.iter_markers("not_on"):
            reason = mark.kwargs.get("reason")
            unknown = [name for name in mark.args if name not in PLATFORMS]
            if not reason or not mark.args or unknown:
                raise pytest.UsageError("%s: not_on needs platforms among %s and a reason"
                                        % (item.nodeid, ", ".join(PLATFORMS)))
            if TEST_PLATFORM in mark.args:
                item.add_marker(pytest.mark.skip(reason="not on %s: %s" % (TEST_PLATFORM, reason)))


@pytest.fixture(autouse=True)
def _forced_windows_paths(request, monkeypatch):
    if FORCE_PATHS == "windows" and request.node.get_closest_marker("native_paths") is None:
        import _containment
        monkeypatch.setattr(support.M, "os", _containment.FdSpy("neither"))
        monkeypatch.setattr(support.M, "_STAT_REUSE", False)
    yield
