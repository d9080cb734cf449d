"""Shared helpers for the unit tests of the corpus reader and the four tools.

* ``M`` is the module under test: ``$ADRKIT_MCP_MODULE`` when set (a build or
  a mutant, loaded under a private module name, never as ``adrkit_mcp``), else
  ``adrkit_mcp.py`` from the repository root.
* ``Repo`` is a real repository root on disk (a ``.git`` directory or a
  linked-worktree ``.git`` file, an ADR folder, real record files) plus small
  wrappers around ``call_tool``.
* ``run_unprivileged`` runs a function in a forked child that has dropped
  root privileges, which is the only way to make ``chmod 000`` mean something
  when the suite runs as root; ``run_main`` runs the module's command line in
  this process (or that child), as text or (``as_process``) as the bytes and
  status a process would give; ``working_directory`` puts the folder back.
* ``pump_lines`` and ``pump_chunks`` read a child's stdout and stderr in
  daemon threads (the one pair of pipe pumps the wire tests use).
* ``module_command`` is how a test starts the module as a process: through
  tests/_launch.py, which keeps its bytecode in this process's ``PYCACHE``
  folder (a script's never is: each start would compile 18,900 lines);
  ``script_command`` is the script path itself (`python3 adrkit_mcp.py`),
  for the few tests that prove that path as users configure it.

Python 3.9+, standard library and pytest only (and filelock, for run_lock).
"""

import atexit
import base64
import hashlib
import importlib.util
import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import warnings

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULE_PATH = os.path.join(REPO_ROOT, "adrkit_mcp.py")


def pump_lines(stream, lines):
    """Start a daemon thread that puts each line of `stream` on the queue `lines`, then None at
    EOF; returns the thread. For a child's stdout, read line by line as frames arrive."""
    def pump():
        for line in iter(stream.readline, b""):
            lines.put(line)
        lines.put(None)
    thread = threading.Thread(target=pump, daemon=True)
    thread.start()
    return thread


def pump_chunks(stream, chunks):
    """Start a daemon thread that appends to the list `chunks` whatever `stream` holds, as it
    arrives, until EOF; returns the thread. For a child's stderr: read1 returns what the pipe
    holds now, where read(4096) would wait for 4,096 bytes or EOF, and a test waiting for a line
    on the stderr of a running server would never see it."""
    def pump():
        for chunk in iter(lambda: stream.read1(4096), b""):
            chunks.append(chunk)
    thread = threading.Thread(target=pump, daemon=True)
    thread.start()
    return thread


def hang_guard(function, seconds, what="the call"):
    """function()'s value; fails when it has not returned after `seconds`.

    A hang guard, not a measurement: the limit is far above the expected time, so a
    slow or busy machine cannot fail the test, while a runaway computation still can.
    """
    outcome = {}

    def run():
        try:
            outcome["value"] = function()
        except BaseException as error:  # handed to the caller below
            outcome["error"] = error
    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise AssertionError("%s did not return within %s s (hang guard)" % (what, seconds))
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def wait_until(condition, seconds=10.0, interval=0.01):
    """Poll condition() until it is true; False when `seconds` pass first (a hang guard)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(interval)
    return bool(condition())


# The interpreter that runs the server process (pytest itself may run on
# another): e.g. ADRKIT_MCP_PYTHON=python3.9 checks the 3.9 floor.
SERVER_PYTHON = os.environ.get("ADRKIT_MCP_PYTHON") or sys.executable

# pytest-xdist (the suite runs in parallel by default: pyproject.toml's addopts): this process's
# worker name ("gw0", ...), or "" in the controlling process and in a run without workers.
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")


class run_lock(object):
    """`with run_lock(tmp_path_factory, name) as shared:` holds the file lock `name` of this test
    run and gives the folder every worker of the run shares (pytest's base folder of the run):
    what a session fixture makes once for all workers is made there, under the lock, by the first
    worker that needs it, and reused by the others.  Without workers, the run's base folder."""

    def __init__(self, tmp_path_factory, name):
        from filelock import FileLock
        base = tmp_path_factory.getbasetemp()
        self.shared = base.parent if XDIST_WORKER else base
        self.lock = FileLock(str(self.shared / (name + ".lock")))

    def __enter__(self):
        self.lock.acquire()
        return self.shared

    def __exit__(self, *exc_info):
        self.lock.release()
        return False


# The module as a process.  tests/_launch.py runs it exactly as `python MODULE` does, but keeps
# its bytecode, in PYCACHE: one folder per test process (each pytest-xdist worker has its own),
# removed when the process ends, so the repository and the user's caches stay as they were and
# PYTHONDONTWRITEBYTECODE (set in many CI environments) cannot make every start compile again.
LAUNCHER = os.path.join(REPO_ROOT, "tests", "_launch.py")
PYCACHE = tempfile.mkdtemp(prefix="adrkit-test-pycache-")


def _remove_pycache(owner=os.getpid()):
    if os.getpid() == owner:  # not in a forked child that happens to exit through atexit
        shutil.rmtree(PYCACHE, ignore_errors=True)


atexit.register(_remove_pycache)


def module_command(module=None, python=None):
    """The command that runs `module` (default: adrkit_mcp.py at the repository root) as
    `python module` would, with its bytecode kept; `python` defaults to SERVER_PYTHON."""
    return [python or SERVER_PYTHON, LAUNCHER, "--pycache", PYCACHE, str(module or MODULE_PATH)]


def script_command(module=None, python=None):
    """`python module`, the script path as users configure it (compiled at every start: only
    for the tests that prove that path)."""
    return [python or SERVER_PYTHON, str(module or MODULE_PATH)]


# What a wrapper script (tests/conftest.py's HOOKS, test_signals' driver) runs to load the module
# under a name of its own with its bytecode kept in the folder CACHE, as tests/_launch.py does:
# `m = cached_module(NAME, PATH, CACHE)`.  with_cached_module(body) is the script's text.
LOAD_CACHED = r'''
def cached_module(name, path, cache):
    import importlib.util, sys
    spec = importlib.util.spec_from_file_location(name, path)
    settings = sys.pycache_prefix, sys.dont_write_bytecode
    sys.pycache_prefix, sys.dont_write_bytecode = cache, False
    try:
        code = spec.loader.get_code(name)
    finally:
        sys.pycache_prefix, sys.dont_write_bytecode = settings
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    exec(code, module.__dict__)
    return module
'''


def with_cached_module(body):
    """A wrapper script's text: CACHE (this process's PYCACHE) and cached_module, then `body`."""
    return "CACHE = %r\n%s\n%s" % (PYCACHE, LOAD_CACHED, body)


def _load_module():
    """(module, is_a_stand_in).  Never puts a stand-in into sys.modules["adrkit_mcp"]:
    other test files decide what to do when the real module is missing."""
    override = os.environ.get("ADRKIT_MCP_MODULE")  # another copy: a build, a mutant
    if not override and os.path.isfile(MODULE_PATH):
        if REPO_ROOT not in sys.path:
            sys.path.insert(0, REPO_ROOT)
        import adrkit_mcp
        return adrkit_mcp, False
    path = override
    name = "_adrkit_mcp_under_test"
    if name in sys.modules:
        return sys.modules[name], True
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module, True


M, USING_DEV_BUILD = _load_module()

DEFAULT_DIR = "docs/adr"
NOTHING = object()  # "argument not given" (None is a meaningful value for tool arguments)


# --------------------------------------------------------------------------- #
# Record files

def read_manifest(path):
    """A MANIFEST.sha256 of copied files ("<sha256>  <size>  <path>" a line): {path: (sha256, size)}."""
    recorded = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            digest, size, name = line.rstrip("\n").split("  ", 2)
            recorded[name] = (digest, int(size))
    return recorded


def file_digest(path):
    """(sha256 hex, size) of a file's bytes, as a MANIFEST.sha256 records them."""
    with open(path, "rb") as handle:
        data = handle.read()
    return hashlib.sha256(data).hexdigest(), len(data)


def folder_digests(folder, manifest_name="MANIFEST.sha256"):
    """{'/'-separated path: file_digest} of every file under `folder` but its manifest: what a
    pack's MANIFEST.sha256 is checked against."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames.sort()
        for name in filenames:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, folder).replace(os.sep, "/")
            if rel != manifest_name:
                found[rel] = file_digest(full)
    return found


def record_text(ident, title="A decision worth keeping", status="proposed", date="2025-01-01",
                extra="", body="Body text.\n", newline="\n"):
    """The text of a record file: a fenced YAML block and a body.

    ``extra`` is appended verbatim to the YAML block (one or more full lines).
    Scalars are quoted so that any YAML 1.1 or 1.2 reader sees the same strings.
    """
    lines = ["---"]
    if ident is not None:
        lines.append('id: "%s"' % ident)
    if title is not None:
        lines.append("title: %s" % json.dumps(title, ensure_ascii=False))
    if status is not None:
        lines.append('status: "%s"' % status)
    if date is not None:
        lines.append('date: "%s"' % date)
    text = "\n".join(lines) + "\n" + extra
    if not text.endswith("\n"):
        text += "\n"
    text += "---\n" + body
    return text.replace("\n", newline) if newline != "\n" else text


class Repo(object):
    """A repository root in a temporary directory, with its ADR folder."""

    def __init__(self, root, adr_dir=DEFAULT_DIR, git="dir", check=True):
        self.root = str(root)
        self.adr_dir = adr_dir
        os.makedirs(self.root, exist_ok=True)
        if adr_dir is not None:
            os.makedirs(self.adr_path(), exist_ok=True)
        if git == "dir":
            os.makedirs(os.path.join(self.root, ".git"), exist_ok=True)
        elif git == "file":
            with open(os.path.join(self.root, ".git"), "w") as handle:
                handle.write("gitdir: /somewhere/else/.git/worktrees/x\n")
        self.config = M.CorpusConfig(self.root, adr_dir if adr_dir is not None else DEFAULT_DIR)
        if check:
            problem = M.check_roots(self.config)
            assert problem is None, problem

    # -- files --------------------------------------------------------------
    def adr_path(self, *names):
        return os.path.join(self.root, self.adr_dir, *names)

    def path(self, *names):
        return os.path.join(self.root, *names)

    def write(self, name, content):
        """Write a file in the ADR folder (str is UTF-8, no newline translation)."""
        full = self.adr_path(name)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        data = content.encode("utf-8") if isinstance(content, str) else content
        with open(full, "wb") as handle:
            handle.write(data)
        return full

    def record(self, name, ident=None, **fields):
        """Write a record file; the id defaults to the digits of its file name."""
        if ident is None:
            ident = name.split("-", 1)[0]
        return self.write(name, record_text(ident, **fields))

    def source_path(self, name):
        return "%s/%s" % (self.adr_dir, name)

    # -- calls --------------------------------------------------------------
    def call(self, tool, arguments=NOTHING, should_stop=None, **kwargs):
        """call_tool with ``arguments`` (a dict, or None for "no arguments"), else the kwargs."""
        if arguments is NOTHING:
            arguments = kwargs
        if should_stop is None:
            return M.call_tool(self.config, tool, arguments)
        return M.call_tool(self.config, tool, arguments, should_stop)

    def structured(self, tool, arguments=NOTHING, **kwargs):
        """structuredContent of a successful (non-error) tool call."""
        result = self.call(tool, arguments, **kwargs)
        assert "isError" not in result, result
        return result["structuredContent"]

    def result(self, tool, arguments=NOTHING, **kwargs):
        return self.structured(tool, arguments, **kwargs)["result"]

    def fingerprint(self):
        return self.structured("list_superseded")["corpusHealth"]["fingerprint"]

    def projection(self, should_stop=lambda: False):
        return M.load_projection(self.config, should_stop)


def all_findings(repo, tool="search_decisions", **arguments):
    """Every finding of one call (findingsLimit 100, the corpora here are small)."""
    if tool == "search_decisions":
        arguments.setdefault("query", "zzzz-no-such-text")
    if tool == "get_decision":
        arguments.setdefault("ref", "9999")
    if tool == "get_decision_context":
        arguments.setdefault("files", ["nothing/here.txt"])
    arguments["findingsLimit"] = 100
    page = repo.result(tool, arguments)["findings"]
    assert page["cursor"] is None, "more than 100 findings: use a smaller corpus"
    return page["items"]


def rules_of(findings):
    return [finding["rule"] for finding in findings]


def strip_message(finding):
    return {key: value for key, value in finding.items() if key != "message"}


# --------------------------------------------------------------------------- #
# Cursors (the documented wire format: base64url, no padding, of a JSON object)

def decode_cursor(cursor):
    return json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("utf-8"))


def b64json(value):
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return base64.urlsafe_b64encode(text.encode("utf-8")).rstrip(b"=").decode("ascii")


def edit_cursor(cursor, remove=(), **changes):
    payload = decode_cursor(cursor)
    payload.update(changes)
    for key in remove:
        payload.pop(key, None)
    return b64json(payload)


# --------------------------------------------------------------------------- #
# Privilege drop, for permission-based cases

NOBODY = 65534


class Unavailable(Exception):
    """The privilege drop is impossible here (reported as a skip by the caller)."""


UNPRIVILEGED_TIMEOUT = 600  # seconds: a hang guard for the forked child, far above its work


def run_unprivileged(function):
    """Run ``function()`` in a forked child running as uid/gid 65534; return its value.

    When the suite does not run as root, the function runs in-process: chmod
    is effective anyway.  Raises Unavailable when the drop cannot be made.

    The fork happens in a process with other threads (pytest-xdist's, a test's), which Python
    3.12+ warns about: a lock another thread held at the fork stays held in the child.  The
    child takes none of theirs (it runs ``function``, which writes to in-memory streams, pickles
    its answer to a pipe and leaves with os._exit), so the warning is filtered for this one
    fork; should the child hang all the same, the parent kills it after UNPRIVILEGED_TIMEOUT
    seconds and the test fails, saying so.
    """
    if os.geteuid() != 0:
        return function()
    if not hasattr(os, "fork"):
        raise Unavailable("os.fork is not available")
    # Codecs and modules load lazily from the interpreter's own files, which
    # uid 65534 may not be allowed to read (e.g. a pyenv under /root): load them now.
    for encoding in ("utf-8", "utf-16-be", "utf-16-le", "utf-16", "utf-32-be", "ascii", "latin-1", "idna"):
        "x".encode(encoding)
    # So do two of the module's libraries (ADR 0018): PyYAML when a text first takes the YAML
    # engine's full route (an anchor does), idna's tables at the first URL host with a joiner.
    M.FrontmatterYaml.load("loaded: &now yes\n")
    import idna.idnadata  # noqa: F401
    import idna.intranges  # noqa: F401
    read_end, write_end = os.pipe()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r".*use of fork\(\) may lead to deadlocks", category=DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # child: never returns into pytest
        status = 0
        try:
            os.close(read_end)
            try:
                os.setgroups([])
                os.setgid(NOBODY)
                os.setuid(NOBODY)
                outcome = ("ok", function())
            except PermissionError as error:
                outcome = ("unavailable", "cannot drop privileges: %s" % error)
            except BaseException as error:  # reported to the parent
                outcome = ("error", "%s: %s" % (type(error).__name__, error))
            with os.fdopen(write_end, "wb") as handle:
                pickle.dump(outcome, handle)
        except BaseException:
            status = 1
        os._exit(status)
    os.close(write_end)
    data = _read_until_eof(read_end, pid, UNPRIVILEGED_TIMEOUT)
    os.waitpid(pid, 0)
    if not data:
        raise AssertionError("the unprivileged child died without an answer")
    kind, value = pickle.loads(data)
    if kind == "unavailable":
        raise Unavailable(value)
    if kind == "error":
        raise AssertionError("unprivileged child raised %s" % value)
    return value


def _read_until_eof(fd, pid, seconds):
    """All `fd` gives until its end (then closed); after `seconds` without the end, kills the
    process `pid` and fails (a hang guard)."""
    import select
    chunks, deadline = [], time.monotonic() + seconds
    try:
        while True:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                raise AssertionError("the unprivileged child gave no answer within %d s and was killed (hang guard)"
                                     % seconds)
            chunk = os.read(fd, 65536)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        os.close(fd)


def run_main(args, cwd, hidden=(), as_process=False):
    """(status, stdout, stderr) of ``M.main(args)`` run by this process in ``cwd``: output
    captured as text, a SystemExit taken as the status (None 0, an int itself, else 1), the
    environment variables named in ``hidden`` unset for the run only. It leaves the working directory at ``cwd``; the caller goes
    back (``working_directory``), since a forked child that dropped root may not enter the old
    folder, which lies in a private one under CI (and needs no going back: it exits).

    With ``as_process``, what `python MODULE args` started here with pipes would show: stdout and
    stderr as bytes, written through streams with the encoding and error handlers such a child
    gets (``child_stdio``: under a UTF-8 locale a lone surrogate on stdout stops the run; under
    C.UTF-8 one that stands for an undecodable byte goes out as that byte; stderr escapes it)
    and the platform's newline translation
    ("\r\n" on Windows); `.buffer` writes land in the same bytes; stdin empty; sys.argv
    [module, *args]; main's value or a SystemExit's code taken as `sys.exit(code)` would (None
    0, an int itself, anything else written on stderr and 1). An exception main lets through
    still propagates (a process would print it and exit 1): the test fails either way."""
    import contextlib
    import io
    if as_process:
        (out_encoding, out_errors), (err_encoding, err_errors) = child_stdio()
        out = io.TextIOWrapper(io.BytesIO(), encoding=out_encoding, errors=out_errors, newline=None)
        err = io.TextIOWrapper(io.BytesIO(), encoding=err_encoding, errors=err_errors, newline=None)
        stdin = io.TextIOWrapper(io.BytesIO(b""), encoding=out_encoding, errors=out_errors)
    else:
        out, err, stdin = io.StringIO(), io.StringIO(), sys.stdin
    saved = {name: os.environ.pop(name) for name in hidden if name in os.environ}
    saved_argv, saved_stdin = sys.argv, sys.stdin
    os.chdir(str(cwd))
    try:
        if as_process:
            sys.argv, sys.stdin = [os.path.abspath(M.__file__)] + list(args), stdin
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = M.main(list(args))
            except SystemExit as stop:
                status = stop.code if as_process or isinstance(stop.code, int) else 0 if stop.code is None else 1
            if as_process:
                status = _exit_status(status, err)
    finally:
        os.environ.update(saved)
        sys.argv, sys.stdin = saved_argv, saved_stdin
    if not as_process:
        return status, out.getvalue(), err.getvalue()
    out.flush()
    err.flush()
    return status, out.buffer.getvalue(), err.buffer.getvalue()


def _exit_status(code, stderr):
    """The status a process ends with after `sys.exit(code)`, as the interpreter takes the code."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF if os.name == "posix" else code
    stderr.write("%s\n" % (code,))
    return 1


_CHILD_STDIO = []


def child_stdio():
    """((encoding, errors) of stdout, (encoding, errors) of stderr) of a Python process this
    interpreter starts here with pipes, asked of one such child once per test process: the locale,
    $PYTHONIOENCODING and UTF-8 mode decide them as they would for the module's process. Call it
    before dropping root (run_unprivileged): the child may not be allowed to start this Python."""
    if not _CHILD_STDIO:
        probe = subprocess.run(
            [sys.executable, "-c", "import sys; print(sys.stdout.encoding, sys.stdout.errors, "
                                   "sys.stderr.encoding, sys.stderr.errors)"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120, check=True)
        out_encoding, out_errors, err_encoding, err_errors = probe.stdout.decode("ascii").split()
        _CHILD_STDIO.append(((out_encoding, out_errors), (err_encoding, err_errors)))
    return _CHILD_STDIO[0]


class working_directory(object):
    """``with working_directory():`` puts the current working directory back on leaving."""

    def __enter__(self):
        self.here = os.getcwd()
        return self.here

    def __exit__(self, *exc_info):
        os.chdir(self.here)
        return False


# --- Git repositories and a teammate's PATH (the hook and team-config tests) -------------------

def git(*args, cwd):
    """Run git in `cwd` with a fixed identity; raises when it fails."""
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.org")
    subprocess.run(["git"] + list(args), cwd=str(cwd), env=env, check=True, timeout=60,
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def teammate_path(folder):
    """A PATH whose only python3 is a plain CPython with nothing installed that we need: the
    interpreter this virtual environment (if any) was made from, behind a wrapper script in
    `folder` (created here), then the system's default folders (git, sh)."""
    base = os.path.join(sys.base_prefix, "bin", "python3")
    interpreter = base if os.path.isfile(base) else sys.executable
    os.makedirs(str(folder))
    wrapper = os.path.join(str(folder), "python3")
    with open(wrapper, "w") as handle:
        handle.write('#!/bin/sh\nexec "%s" "$@"\n' % interpreter)
    os.chmod(wrapper, 0o755)
    return str(folder) + os.pathsep + os.defpath


def json_schema_validator(path):
    """A jsonschema validator for the schema file at `path`, of the draft its "$schema" names
    (draft-07 or 2020-12), after checking the schema itself; skips the test without jsonschema."""
    import pytest
    jsonschema = pytest.importorskip("jsonschema")
    with open(str(path), encoding="utf-8") as handle:
        schema = json.load(handle)
    cls = (jsonschema.Draft7Validator if "draft-07" in schema.get("$schema", "")
           else jsonschema.Draft202012Validator)
    cls.check_schema(schema)
    return cls(schema)


def spaced_repository(tmp_path_factory, prefix):
    """A new repository folder (with a .git directory) whose path has a space and a non-ASCII
    letter, as many real ones do."""
    top = tmp_path_factory.mktemp(prefix) / "our répo"
    os.makedirs(str(top / ".git"))
    return top
