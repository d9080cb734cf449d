"""Side effects (issue 6, part 5): a whole session writes nothing and talks to nobody.

The server runs in a child interpreter started with a small bootstrap (``-c``)
that opens a log file, *then* installs a ``sys.addaudithook`` hook that
appends every audit event of interest to that already-open descriptor, then
imports the module under test and runs ``main()``.  A full session in each
era (and one process serving both) is driven through it, and the log must
show:

* no file opened for writing (``open`` with a write mode, or ``os.open``
  with O_WRONLY, O_RDWR, O_CREAT, O_TRUNC or O_APPEND) and no file-system
  mutation (remove, rename, mkdir, chmod, link, truncate, utime, ...);
* no ``socket.*`` event; no ``subprocess.Popen``, ``os.system``, ``os.exec*``,
  ``os.posix_spawn``, ``os.spawn*`` or ``os.fork``;
* nothing opened outside the repository root and the interpreter's own files
  (its prefixes and site-packages, which the child reports, and the module).

The child runs with ``-B`` so that the interpreter does not cache bytecode
(that would be the interpreter writing, not the server); the module's own bytecode is read, or
written once, in the test process's private folder (tests/_support.py, PYCACHE) before the hook
is installed.  ``os.open`` relative
to a directory descriptor is logged with its bare name: a relative name is
accepted only when it is a file of the ADR folder.

The corpus is a real Git repository (``git init`` and a commit): after every
session its ``git status --porcelain`` and a snapshot of every file (size,
mtime, SHA-256; ``.git`` included) must be unchanged.  The module under test
is ``$ADRKIT_MCP_MODULE`` when set (see tests/conftest.py).
"""

import hashlib
import json
import os
import shutil
import subprocess

import pytest

import _platforms as platforms  # why a test cannot hold on a platform

import _support as support  # tests/ is on sys.path (pytest rootdir insertion)
import _session as wire

record_text = support.record_text

BOOTSTRAP = r'''
import json, os, site, sys
log = os.open(os.environ["ADRKIT_AUDIT_LOG"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
module_path, cache, arguments = sys.argv[1], sys.argv[2], sys.argv[3:]
roots = [sys.prefix, sys.base_prefix, sys.exec_prefix]
try:
    roots += site.getsitepackages()
except AttributeError:
    pass
try:
    roots.append(site.getusersitepackages())
except AttributeError:
    pass
import importlib.util
own = [os.path.realpath(module_path), os.path.realpath(importlib.util.cache_from_source(module_path))]
os.write(log, (json.dumps({"roots": roots, "own": own}) + "\n").encode())
PREFIXES = ("open", "os.", "socket", "subprocess", "shutil", "ctypes", "urllib", "http", "ftplib",
            "smtplib", "poplib", "imaplib", "nntplib", "telnetlib", "webbrowser", "tempfile", "sqlite3",
            "mmap", "pty", "fcntl", "winreg", "msvcrt", "_winapi", "syslog", "resource", "signal")

def plain(value):
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value][:8]
    return repr(value)[:200]

def hook(event, args):
    if event.startswith(PREFIXES):
        try:
            os.write(log, (json.dumps([event, plain(args)]) + "\n").encode("utf-8", "surrogateescape"))
        except Exception:
            pass

# The module's code, kept compiled in the test process's own bytecode folder (-B alone would
# compile its 18,000 lines at every start); read before the hook, as the loader's reading is not
# the server's. Its import-time code and everything after run under the hook.
spec = importlib.util.spec_from_file_location("adrkit_mcp", module_path)
settings = sys.pycache_prefix, sys.dont_write_bytecode
sys.pycache_prefix, sys.dont_write_bytecode = cache, False
try:
    code = spec.loader.get_code("adrkit_mcp")
finally:
    sys.pycache_prefix, sys.dont_write_bytecode = settings
sys.addaudithook(hook)
module = importlib.util.module_from_spec(spec)
sys.modules["adrkit_mcp"] = module
exec(code, module.__dict__)
sys.exit(module.main(arguments))
'''

FORBIDDEN_PREFIXES = ("socket", "subprocess", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork",
                      "os.forkpty", "pty", "ctypes", "urllib", "http", "ftplib", "smtplib", "poplib", "imaplib",
                      "nntplib", "telnetlib", "webbrowser", "sqlite3", "tempfile", "shutil", "os.remove",
                      "os.unlink", "os.rename", "os.replace", "os.rmdir", "os.mkdir", "os.makedirs", "os.chmod",
                      "os.chown", "os.lchown", "os.link", "os.symlink", "os.truncate", "os.utime", "os.chflags",
                      "os.lchflags", "os.lchmod", "os.mkfifo", "os.mknod", "os.setxattr", "os.removexattr",
                      "os.putenv", "os.unsetenv", "os.kill", "os.killpg", "mmap", "syslog", "resource.setrlimit")
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


# ---------------------------------------------------------------------------
# A real Git repository and its snapshot
# ---------------------------------------------------------------------------

def git(root, *args):
    return subprocess.run(["git", "-C", root, "-c", "user.name=Side Effects", "-c", "user.email=se@example.com",
                           "-c", "commit.gpgsign=false", "--no-optional-locks"] + list(args),
                          check=True, capture_output=True, text=True).stdout


def snapshot(root):
    """(path, kind, size, mtime_ns, sha256) of every entry under root, .git included."""
    entries = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            full = os.path.join(dirpath, name)
            info = os.lstat(full)
            digest = None
            if os.path.isfile(full) and not os.path.islink(full):
                with open(full, "rb") as handle:
                    digest = hashlib.sha256(handle.read()).hexdigest()
            entries.append((os.path.relpath(full, root), info.st_mode, info.st_size, info.st_mtime_ns, digest))
    return entries


@pytest.fixture
def corpus(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = str(tmp_path / "repo")
    os.makedirs(root)
    git(root, "init", "-q")
    repo = support.Repo(root, git=None, check=False)
    repo.record("0001-adopt-postgres.md", title="Adopt Postgres", status="accepted",
                extra='deciders: ["@alice"]\ntags: ["database"]\naffects:\n  - {type: path, pattern: "src/db/**"}\n',
                body="We use postgres.\n")
    repo.record("0002-use-mysql.md", title="Use MySQL", status="superseded", extra='supersededBy: "0001"\n')
    for number in range(3, 30):  # enough records for a second page
        repo.record("%04d-filler.md" % number, title="Filler %d" % number, body="postgres filler\n")
    repo.write("0099-broken.md", "no fence\n")
    repo.write("0098-bomb.md", "---\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [" + ", ".join(["*a"] * 10) + "]\n"
               "c: [" + ", ".join(["*b"] * 10) + "]\n---\n")
    os.symlink("0001-adopt-postgres.md", repo.adr_path("0097-link.md"))
    with open(os.path.join(root, "README.md"), "w") as handle:
        handle.write("A repository.\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "corpus")
    assert M_check(repo)
    return repo


def M_check(repo):
    return support.M.check_roots(support.M.CorpusConfig(repo.root, "docs/adr")) is None


# ---------------------------------------------------------------------------
# Running one audited session
# ---------------------------------------------------------------------------

def legacy_session(s, version="2025-11-25"):
    s.initialize(version)
    s.call(1, "ping")
    s.call(2, "tools/list")
    first = s.call(3, "tools/call", {"name": "search_decisions", "arguments": {"query": "postgres", "limit": 5}})
    cursor = first["result"]["structuredContent"]["result"]["cursor"]
    s.call(4, "tools/call", {"name": "search_decisions", "arguments": {"query": "postgres", "limit": 5,
                                                                       "cursor": cursor}})
    s.call(5, "tools/call", {"name": "get_decision", "arguments": {"ref": "0001"}})
    s.call(6, "tools/call", {"name": "get_decision_context", "arguments": {"files": ["src/db/pool.ts"]}})
    s.call(7, "tools/call", {"name": "list_superseded", "arguments": {"findingsLimit": 100}})
    s.call(8, "tools/call", {"name": "search_decisions", "arguments": {"query": ""}})
    s.call(9, "tools/call", {"name": "nope", "arguments": {}})
    s.call(10, "resources/list")
    s.send_raw(b"not json")
    s.recv()
    s.notify("notifications/cancelled", {"requestId": 99})


def modern_session(s):
    s.call(21, "server/discover", modern=True)
    s.call(22, "tools/list", modern=True)
    for rid, (name, arguments) in enumerate([
            ("search_decisions", {"query": "postgres"}), ("get_decision", {"ref": "0002"}),
            ("get_decision_context", {"files": ["src/db/x.sql"]}), ("list_superseded", {})], start=23):
        s.call(rid, "tools/call", {"name": name, "arguments": arguments}, modern=True)
    s.call(30, "ping", modern=True)


SESSIONS = {
    "legacy": lambda s: legacy_session(s),
    "legacy-2024-11-05": lambda s: legacy_session(s, "2024-11-05"),
    "modern": modern_session,
    "both-eras": lambda s: (legacy_session(s), modern_session(s)),
}


def run_audited(module, repo, tmp_path, drive, extra=()):
    log_path = str(tmp_path / ("audit-%d.log" % len(os.listdir(str(tmp_path)))))
    neutral = tmp_path / "cwd"
    neutral.mkdir(exist_ok=True)
    command = [wire.SERVER_PYTHON, "-B", "-c", BOOTSTRAP, module, support.PYCACHE]
    session = wire.Session(command, ["--cwd", repo.root] + list(extra), env={"ADRKIT_AUDIT_LOG": log_path})
    try:
        drive(session)
        status, _ = session.close()
    finally:
        session.kill()
    assert status == 0, session.stderr()
    assert "Traceback" not in session.stderr()
    with open(log_path, encoding="utf-8", errors="surrogateescape") as handle:
        lines = [json.loads(text) for text in handle if text.strip()]
    header, events = lines[0], lines[1:]
    assert events, "the audit hook logged nothing: it did not run"
    return header, events


def within(path, roots):
    real = os.path.realpath(path)
    return any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in roots)


def judge(header, events, repo, nested=False):
    """The problems in an audit log; `nested`: files in the ADR folder's subfolders may be opened
    by name too (`--from madr` reads the whole tree, descriptor by descriptor)."""
    roots = [os.path.realpath(root) for root in header["roots"]] + [os.path.realpath(repo.root)]
    adr_names = set(os.listdir(repo.adr_path()))
    if nested:
        adr_names |= {name for _, folders, files in os.walk(repo.adr_path()) for name in folders + files}
    problems = []
    for event, args in events:
        if event.startswith(FORBIDDEN_PREFIXES):
            problems.append("forbidden event %s %r" % (event, args))
            continue
        if event != "open":
            continue
        path, mode, flags = (list(args) + [None, None, None])[:3]
        if isinstance(mode, str) and any(char in mode for char in "wax+"):
            problems.append("opened for writing: %r mode %r" % (path, mode))
        if isinstance(flags, int) and flags & WRITE_FLAGS:
            problems.append("opened with write flags: %r flags %#o" % (path, flags))
        if isinstance(path, int):
            continue  # an already-open descriptor
        if not os.path.isabs(path):
            if path not in adr_names:
                problems.append("relative open of %r (not a file of the ADR folder)" % path)
            continue
        if os.path.realpath(path) in header["own"]:
            continue  # the module and its bytecode cache
        if not within(path, roots):
            problems.append("opened outside the root and the interpreter: %r" % path)
    return problems


@platforms.SYMLINKS
@pytest.mark.parametrize("name", sorted(SESSIONS))
def test_a_full_session_writes_nothing_and_stays_inside(server_module, corpus, tmp_path, name):
    status_before = git(corpus.root, "status", "--porcelain", "--ignored")
    files_before = snapshot(corpus.root)
    header, events = run_audited(server_module, corpus, tmp_path, SESSIONS[name])
    assert not judge(header, events, corpus), judge(header, events, corpus)[:20]
    opened = [args[0] for event, args in events if event == "open" and isinstance(args[0], str)]
    assert any(path.endswith("0001-adopt-postgres.md") for path in opened), "no record was read: %r" % opened[:20]
    assert snapshot(corpus.root) == files_before
    assert git(corpus.root, "status", "--porcelain", "--ignored") == status_before


@platforms.SYMLINKS
def test_a_from_madr_session_writes_nothing_and_stays_inside(server_module, corpus, tmp_path):
    """`--from madr` reads every folder under the ADR folder and renders migrated texts: in memory.
    A canary outside, reachable only through symlinks inside, is never opened."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "0500-canary.md").write_text("# Canary\n\n* Status: accepted\n", encoding="utf-8")
    corpus.write("0100-use-kafka.md", "# Use Kafka\n\n* Status: Accepted\n* Date: 2024-01-02\n\n## Context\n\npostgres\n")
    corpus.write("record-decisions.md", "# 1. Record decisions\n\nDate: 2023-01-01\n\n## Status\n\nAccepted\n")
    os.makedirs(corpus.adr_path("nested", "deeper"))
    corpus.write(os.path.join("nested", "deeper", "0200-nested.md"), "# Nested\n\n## Status\n\nProposed\n")
    os.symlink(str(outside), corpus.adr_path("linked-folder"))
    os.symlink(str(outside / "0500-canary.md"), corpus.adr_path("0501-linked-canary.md"))
    git(corpus.root, "add", "-A")
    git(corpus.root, "commit", "-q", "-m", "madr sources")
    status_before = git(corpus.root, "status", "--porcelain", "--ignored")
    files_before = snapshot(corpus.root)
    canary_before = snapshot(str(outside))
    header, events = run_audited(server_module, corpus, tmp_path, SESSIONS["both-eras"],
                                 extra=["--from", "madr"])
    assert not judge(header, events, corpus, nested=True), judge(header, events, corpus, nested=True)[:20]
    opened = [args[0] for event, args in events if event == "open" and isinstance(args[0], str)]
    assert "0200-nested.md" in opened and "record-decisions.md" in opened, opened[:40]
    assert not any("canary" in path for path in opened), opened
    assert snapshot(corpus.root) == files_before
    assert snapshot(str(outside)) == canary_before
    assert git(corpus.root, "status", "--porcelain", "--ignored") == status_before


@platforms.SYMLINKS
def test_a_session_with_a_timeout_and_cancellation(server_module, corpus, tmp_path):
    """The deadline and worker threads add nothing either."""
    def drive(s):
        s.initialize()
        for rid in range(1, 30):
            s.request(rid, "tools/call", {"name": "search_decisions", "arguments": {"query": "filler"}})
            if rid % 2:
                s.notify("notifications/cancelled", {"requestId": rid})
        s.request(100, "ping")
        # Every call not cancelled concludes (an answer or a -32603 timeout after 50 ms); a
        # cancelled one may be answered or not: all fine here.
        waiting = set(range(2, 30, 2)) | {100}
        while waiting:
            waiting.discard(s.recv().get("id"))
        while not s.lines.empty():
            s.recv()
    files_before = snapshot(corpus.root)
    header, events = run_audited(server_module, corpus, tmp_path, drive, extra=["--request-timeout-ms", "50"])
    # Cancelled calls may or may not be answered: drain whatever came.
    assert not judge(header, events, corpus)
    assert snapshot(corpus.root) == files_before


@platforms.SYMLINKS
def test_the_audit_hook_catches_a_write(server_module, corpus, tmp_path):
    """The judge itself works: a deliberate write, socket and subprocess are all reported."""
    fake = [["open", [os.path.join(corpus.root, "x"), "w", os.O_WRONLY | os.O_CREAT]],
            ["open", ["/etc/passwd", "r", os.O_RDONLY]],
            ["open", ["relative.txt", "r", os.O_RDONLY]],
            ["socket.__new__", [None, 2, 1, 0]],
            ["subprocess.Popen", ["git", ["git", "status"], None, None]],
            ["os.system", ["true"]],
            ["os.rename", ["a", "b", -1, -1]]]
    header = {"roots": [], "own": ["/nowhere/adrkit_mcp.py"]}
    for event in fake:
        assert judge(header, [event], corpus), event
    assert not judge(header, [["open", [corpus.adr_path("0001-adopt-postgres.md"), "r", os.O_RDONLY]],
                              ["open", ["0001-adopt-postgres.md", None, os.O_RDONLY]]], corpus)
