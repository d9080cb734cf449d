"""Faults (issue 6, part 4): the real server process under hostile conditions.

* stdin closed in the middle of a request (a partial line, a partial
  oversized line, a call in flight): exit 0 at once, nothing half-answered;
* the client gone (EPIPE) while a large response is being written: exit 1
  with one line on stderr, promptly, even though stdin is still open;
* SIGTERM in the middle of a call, of a blocked write, of a long line: exit 0;
* a request line over the 1 MiB cap: -32600 with the id omitted (null in the
  older sessions whose schema needs an id), read in bounded memory -- a 10 MB
  or 100 MB line must not grow the peak RSS (VmHWM) by more than 4 MiB -- and
  the connection keeps serving;
* 10,000 pipelined requests, written from a thread while the answers are
  read: every one answered exactly once, in bounded memory;
* files rewritten on every call while calls run: every answer agrees with
  one version of each file (title and body carry the same version).

Long runs: ``ADRKIT_FUZZ_CHURN_SECONDS`` sets how long the files churn for
each of the two rewrite styles (default 6; the issue's one-minute run is
``ADRKIT_FUZZ_CHURN_SECONDS=60``).
Linux only where /proc is needed.  The module under test is
``$ADRKIT_MCP_MODULE`` when set (see tests/conftest.py).
"""

import json
import os
import queue
import signal
import subprocess
import threading
import time

import pytest

import _platforms as platforms  # why a test cannot hold on a platform

import _support as support  # tests/ is on sys.path (pytest rootdir insertion)
import _session as wire

record_text = support.record_text

PROC = os.path.exists("/proc/self/status")
needs_proc = pytest.mark.skipif(not PROC, reason="needs Linux /proc to read VmHWM/VmRSS")
CHURN_SECONDS = float(os.environ.get("ADRKIT_FUZZ_CHURN_SECONDS", "6"))  # per rewrite style
CAP = 1024 * 1024
INIT = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "faults", "version": "1"}}
SURVIVED = {"faults": 0}

def memory_kib(pid, key="VmHWM"):
    with open("/proc/%d/status" % pid) as handle:
        for line in handle:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise AssertionError("no %s in /proc/%d/status" % (key, pid))


def line(msg):
    return json.dumps(msg, separators=(",", ":")).encode("utf-8") + b"\n"


def request(rid, method, params=None, modern=False):
    msg = {"jsonrpc": "2.0", "id": rid, "method": method}
    if modern:
        params = dict(params or {}, _meta=dict(wire.META))
    if params is not None:
        msg["params"] = params
    return line(msg)


def tool(rid, name, arguments, modern=False):
    return request(rid, "tools/call", {"name": name, "arguments": arguments}, modern)


class Raw(object):
    """A server process driven with raw bytes; stdout lines are collected by a thread."""

    def __init__(self, command, root, extra=(), env=None):
        env = dict(os.environ, **(env or {}))
        env.pop("ADRKIT_MCP_CWD", None)
        env.pop("ADRKIT_MCP_DIR", None)
        self.proc = subprocess.Popen(list(command) + ["--cwd", root] + list(extra), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self.lines = queue.Queue()
        self.err = []
        support.pump_chunks(self.proc.stderr, self.err)

    def start_reading(self):
        support.pump_lines(self.proc.stdout, self.lines)
        return self

    def write(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def frame(self, timeout=10.0):
        try:
            out = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("no frame within %.0f s; stderr: %s" % (timeout, self.stderr()))
        assert out is not None, "stdout closed; stderr: %s" % self.stderr()
        return json.loads(out.decode("utf-8"))

    def call(self, data, timeout=10.0):
        self.write(data)
        return self.frame(timeout)

    def stderr(self):
        return b"".join(self.err).decode("utf-8", "replace")

    def wait(self, timeout=10.0):  # a hang guard; the seconds are for messages only
        started = time.monotonic()
        status = self.proc.wait(timeout=timeout)
        return status, time.monotonic() - started

    def close_stdin(self):
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def spawn(server_command):
    started = []

    def make(root, extra=(), command=None, env=None):
        proc = Raw(command or server_command, root, extra, env)
        started.append(proc)
        return proc
    yield make
    for proc in started:
        proc.kill()


@pytest.fixture
def corpus(tmp_path):
    repo = support.Repo(tmp_path / "repo")
    for number in range(1, 6):
        repo.record("%04d-record.md" % number, title="Record %d" % number, body="postgres %d\n" % number)
    # A record just under the 64 KiB cap: its get_decision answer is a large frame.
    repo.record("0042-large.md", title="Large", body=("large body \u00e9\u2028 " * 4000)[:50000] + "\n")
    assert os.path.getsize(repo.adr_path("0042-large.md")) < 64 * 1024
    return repo


def blocked_writing(pid):
    """True when a thread of the process sleeps in a pipe write (Linux; True when unknown)."""
    try:
        tasks = os.listdir("/proc/%d/task" % pid)
        channels = []
        for task in tasks:
            with open("/proc/%d/task/%s/wchan" % (pid, task)) as handle:
                channels.append(handle.read().strip())
    except OSError:
        return True
    if any("pipe_write" in channel for channel in channels):
        return True
    return all(channel in ("", "0") for channel in channels)  # the kernel does not say


def survived():
    SURVIVED["faults"] += 1


def no_traceback(proc):
    assert "Traceback" not in proc.stderr(), proc.stderr()[-3000:]


# ---------------------------------------------------------------------------
# stdin closed mid-request
# ---------------------------------------------------------------------------

PARTIALS = {
    "half-a-line": b'{"jsonrpc":"2.0","id":1,"meth',
    "no-newline": b'{"jsonrpc":"2.0","id":1,"method":"ping"}',
    "crlf-cut": b'{"jsonrpc":"2.0","id":1,"method":"ping"}\r',
    "inside-a-string": b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_decisions","argu',
    "oversized-tail": b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"' + b"x" * (3 * CAP),
    "invalid-utf8-tail": b'{"jsonrpc":"2.0","id":"\xff\xfe',
}


@pytest.mark.parametrize("name", sorted(PARTIALS))
def test_stdin_closed_mid_request(spawn, corpus, name):
    proc = spawn(corpus.root).start_reading()
    assert proc.call(request(0, "initialize", INIT))["result"]["protocolVersion"] == "2025-11-25"
    assert proc.call(request(1, "ping"))["result"] == {}
    data = PARTIALS[name]
    for start in range(0, len(data), 65536):  # the partial line arrives in pieces
        proc.write(data[start:start + 65536])
    proc.close_stdin()
    status, elapsed = proc.wait()
    assert status == 0, (status, proc.stderr())
    assert proc.lines.get(timeout=2) is None, "the unterminated tail was answered"
    assert proc.stderr() == ""
    survived()


def test_stdin_closed_with_calls_in_flight(spawn, hooked_command, corpus, marks):
    proc = spawn(corpus.root, command=hooked_command, env={"WIRE_TEST_MARKS": str(marks)}).start_reading()
    proc.write(request(0, "initialize", INIT))
    proc.frame()
    for rid in range(1, 9):  # more calls than workers: some run, some wait
        proc.write(tool(rid, "test_slow", {"seconds": 10, "tag": str(rid)}))
    assert wire.wait_for(marks / "started-1")
    proc.write(b'{"jsonrpc":"2.0","id":99,"method":"pi')  # and a half-written request
    proc.close_stdin()
    status, elapsed = proc.wait()
    assert status == 0, status
    assert proc.lines.get(timeout=2) is None
    assert proc.stderr() == ""
    survived()


# ---------------------------------------------------------------------------
# The client goes away while a large answer is being written
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("modern", [False, True], ids=["legacy", "modern"])
def test_client_gone_while_a_large_response_is_written(spawn, corpus, modern):
    proc = spawn(corpus.root)  # stdout read for one answer only, then the pipe fills up
    proc.write(request(100, "ping"))
    assert json.loads(proc.proc.stdout.readline().decode("utf-8"))["id"] == 100
    for rid in range(40):  # 40 answers of more than 60 KB: far more than a pipe holds
        proc.write(tool(rid, "get_decision", {"ref": "0042"}, modern=modern))
    assert support.wait_until(lambda: blocked_writing(proc.proc.pid)), \
        "the server is not blocked on a full stdout pipe"
    assert proc.proc.poll() is None
    proc.proc.stdout.close()  # the client is gone: the blocked write fails with EPIPE
    status, elapsed = proc.wait(timeout=10)
    assert status == 1, (status, proc.stderr())
    err = proc.stderr()
    assert len(err.strip().splitlines()) == 1, err
    no_traceback(proc)
    survived()


def test_client_gone_before_the_answer_with_stdin_open(spawn, corpus):
    proc = spawn(corpus.root)
    proc.proc.stdout.close()
    proc.write(tool(1, "search_decisions", {"query": "postgres"}))
    status, elapsed = proc.wait(timeout=10)  # stdin stays open: the server must not hang
    assert status == 1
    no_traceback(proc)
    survived()


# ---------------------------------------------------------------------------
# SIGTERM mid-call
# ---------------------------------------------------------------------------

@platforms.SIGNALS
def test_sigterm_mid_call(spawn, hooked_command, corpus, marks):
    proc = spawn(corpus.root, command=hooked_command, env={"WIRE_TEST_MARKS": str(marks)}).start_reading()
    proc.write(request(0, "initialize", INIT))
    proc.frame()
    proc.write(tool(1, "test_slow", {"seconds": 30, "tag": "a"}))
    proc.write(tool(2, "test_stubborn", {"seconds": 30, "tag": "b"}))  # ignores should_stop
    assert wire.wait_for(marks / "started-a") and wire.wait_for(marks / "started-b")
    proc.proc.send_signal(signal.SIGTERM)
    status, elapsed = proc.wait()
    assert status == 0, (status, proc.stderr())
    no_traceback(proc)
    survived()


@platforms.SIGNALS
def test_sigterm_while_a_write_is_blocked(spawn, corpus):
    proc = spawn(corpus.root)  # stdout read for one answer only: then the server is serving
    proc.write(request(100, "ping"))
    assert json.loads(proc.proc.stdout.readline().decode("utf-8"))["id"] == 100
    for rid in range(40):
        proc.write(tool(rid, "get_decision", {"ref": "0042"}))
    assert support.wait_until(lambda: blocked_writing(proc.proc.pid))
    proc.proc.send_signal(signal.SIGTERM)
    status, elapsed = proc.wait()
    assert status == 0, (status, proc.stderr())
    no_traceback(proc)
    survived()


@platforms.SIGNALS
def test_sigterm_in_the_middle_of_a_long_line(spawn, corpus):
    proc = spawn(corpus.root).start_reading()
    proc.call(request(1, "ping"))
    proc.write(b'{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"' + b"z" * (5 * CAP))
    proc.proc.send_signal(signal.SIGTERM)
    status, elapsed = proc.wait()
    assert status == 0
    no_traceback(proc)
    survived()


# ---------------------------------------------------------------------------
# A line over the 1 MiB cap
# ---------------------------------------------------------------------------

SESSIONS = {
    "2025-11-25": (request(0, "initialize", INIT), False, False),
    "2024-11-05": (request(0, "initialize", dict(INIT, protocolVersion="2024-11-05")), False, True),
    "modern": (request(0, "tools/list", modern=True), True, False),
}


@needs_proc
@pytest.mark.parametrize("megabytes", [10, 100])
@pytest.mark.parametrize("session", sorted(SESSIONS))
def test_line_over_the_cap_is_refused_in_bounded_memory(spawn, corpus, session, megabytes):
    opening, modern, null_id = SESSIONS[session]
    proc = spawn(corpus.root).start_reading()
    assert "result" in proc.call(opening)
    assert "result" in proc.call(tool(1, "search_decisions", {"query": "postgres"}, modern=modern))
    before = memory_kib(proc.proc.pid)
    proc.write(b'{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"')
    block = b"y" * CAP
    for _ in range(megabytes):
        proc.write(block)
    # The end of the long line and the next request arrive in one write.
    proc.write(b'"}}\n' + tool(3, "search_decisions", {"query": "postgres"}, modern=modern))
    refused = proc.frame()
    assert refused["error"]["code"] == -32600, refused
    if null_id:
        assert refused["id"] is None, refused
    else:
        assert "id" not in refused, refused
    answered = proc.frame()
    assert answered["id"] == 3 and "result" in answered, answered
    grown = memory_kib(proc.proc.pid) - before
    assert grown < 4 * 1024, "peak RSS grew by %d KiB for a %d MB line" % (grown, megabytes)
    proc.close_stdin()
    assert proc.wait()[0] == 0
    no_traceback(proc)
    survived()


def test_line_of_exactly_the_cap_is_served(spawn, corpus):
    proc = spawn(corpus.root).start_reading()
    head = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"'
    data = head + b"x" * (CAP - len(head) - 3) + b'"}}'
    assert len(data) == CAP
    assert proc.call(data + b"\n")["result"] == {}
    assert proc.call(data + b" \n")["error"]["code"] == -32600  # one byte over
    assert proc.call(request(2, "ping"))["result"] == {}
    survived()


# ---------------------------------------------------------------------------
# 10,000 pipelined requests
# ---------------------------------------------------------------------------

def pipelined_requests(count, pad):
    """A mix of quick methods and tool calls; tool calls carry `pad` bytes of arguments."""
    files = ["src/%s/%d.ts" % ("p" * 90, n) for n in range(max(1, pad // 100))]
    for rid in range(count):
        kind = rid % 4
        if kind == 0:
            yield request(rid, "ping")
        elif kind == 1:
            yield tool(rid, "search_decisions", {"query": "postgres", "limit": 2})
        elif kind == 2:
            yield tool(rid, "get_decision_context", {"files": files})
        else:
            yield request(rid, "tools/list")


def run_pipelined(proc, count, pad, chunk=64):
    """Write `count` requests from a thread while reading; returns (answers by id, duplicates)."""
    failures = []

    def writer():
        try:
            batch = []
            for data in pipelined_requests(count, pad):
                batch.append(data)
                if len(batch) == chunk:
                    proc.write(b"".join(batch))
                    batch = []
            if batch:
                proc.write(b"".join(batch))
        except Exception as error:  # reported by the reader's assertions
            failures.append(error)
    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    seen, duplicates = {}, []
    deadline = time.monotonic() + 120
    while len(seen) < count:
        frame = proc.frame(timeout=max(1.0, deadline - time.monotonic()))
        rid = frame.get("id")
        if rid in seen:
            duplicates.append(rid)
        seen[rid] = frame
    thread.join(timeout=10)
    assert not failures, failures
    return seen, duplicates


PIPELINED = {}


def pipelined_session(spawn, corpus):
    """10,000 requests of ~4 KB written from a thread while the answers are read, on one server:
    what the two tests below check.  Run once per test run, by whichever of them comes first (so
    either passes alone or in any order)."""
    if "grown" not in PIPELINED:
        proc = spawn(corpus.root).start_reading()
        proc.call(request(-1, "initialize", INIT))
        proc.call(tool(-2, "search_decisions", {"query": "postgres"}))
        run_pipelined(proc, 400, pad=4000)  # warm up the allocator and the caches
        before = memory_kib(proc.proc.pid)
        count = 10000
        seen, duplicates = run_pipelined(proc, count, pad=4000)
        grown = memory_kib(proc.proc.pid) - before
        proc.close_stdin()
        status = proc.wait()[0]
        PIPELINED.update(
            duplicates=duplicates[:10], all_ids=sorted(seen) == list(range(count)),
            errors=[frame for frame in seen.values() if "error" in frame or "result" not in frame][:3],
            status=status, stderr=proc.stderr(), grown=grown)
    return PIPELINED


@needs_proc
def test_ten_thousand_pipelined_requests_are_all_answered(spawn, corpus):
    """Each answered exactly once, result xor error, and the server exits 0 at the end."""
    run = pipelined_session(spawn, corpus)
    assert not run["duplicates"], run["duplicates"]
    assert run["all_ids"]
    assert not run["errors"], run["errors"]
    assert run["status"] == 0, run["stderr"][-3000:]
    assert "Traceback" not in run["stderr"], run["stderr"][-3000:]
    survived()


@needs_proc
def test_ten_thousand_pipelined_requests_in_bounded_memory(spawn, corpus):
    """10,000 requests of ~4 KB are ~40 MB of input: a server that keeps or queues them all grows
    by tens of MB; a bounded one (in-flight limit, no retained deadlines) by almost nothing."""
    grown = pipelined_session(spawn, corpus)["grown"]
    assert grown < 16 * 1024, "peak RSS grew by %d KiB over 10,000 pipelined requests" % grown


@needs_proc
def test_finished_calls_do_not_stay_in_memory(spawn, corpus):
    """One call at a time, each with ~250 KB of arguments: memory must not follow the call count."""
    proc = spawn(corpus.root).start_reading()
    files = ["src/%d/%s" % (n, "q" * 1000) for n in range(250)]
    for rid in range(20):
        proc.call(tool(rid, "get_decision_context", {"files": files}))
    before = memory_kib(proc.proc.pid, "VmRSS")
    for rid in range(20, 220):
        frame = proc.call(tool(rid, "get_decision_context", {"files": files}))
        assert frame["id"] == rid and "result" in frame
    grown = memory_kib(proc.proc.pid, "VmRSS") - before
    assert grown < 16 * 1024, "RSS grew by %d KiB over 200 finished calls" % grown
    survived()


# ---------------------------------------------------------------------------
# Files changing on every call, under load
# ---------------------------------------------------------------------------

class Churn(object):
    """Rewrites every file as fast as it can until stopped; two styles of rewrite."""

    def __init__(self, repo, count, style, size):
        self.repo, self.count, self.style, self.size = repo, count, style, size
        self.version = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        for number in range(1, count + 1):
            repo.write("%04d-churn.md" % number, versioned(number, 0, size))

    def run(self):
        while not self.stop.is_set():
            self.version += 1
            for number in range(1, self.count + 1):
                path = self.repo.adr_path("%04d-churn.md" % number)
                data = versioned(number, self.version, self.size).encode("utf-8")
                if self.style == "replace":  # write a new file and rename it over the old one
                    staging = path + ".tmp"
                    with open(staging, "wb") as handle:
                        handle.write(data)
                    os.replace(staging, path)
                else:  # truncate and rewrite the same inode
                    with open(path, "wb") as handle:
                        handle.write(data)


def version_body(version, size):
    filler = ("filler line %d\n" % version) * max(0, size // 16)
    return "version %08d\n%sversion %08d\n" % (version, filler, version)


def versioned(number, version, size):
    """A record whose title and body both state the version; ~`size` bytes."""
    return record_text("%04d" % number, title="Version %08d" % version, body=version_body(version, size))


def check_consistent(frame, tally, size, whole):
    """Every answer shows one version of each file: whole (atomic replace), or a prefix of one
    version (a reader may catch a truncate-and-rewrite half way: that state existed on disk,
    but two versions must never be mixed)."""
    result = frame["result"]
    assert "isError" not in result, result
    structured = result["structuredContent"]["result"]
    if structured["outcome"] == "corpus-unavailable":
        assert structured["reason"] == "corpus-changed-during-load", structured
        tally["changed"] += 1
        return
    if structured["outcome"] == "not-found":
        assert not whole, structured
        # A truncate-and-rewrite caught empty (or cut inside the frontmatter): a fence or
        # parse finding for that file, never a record made of two versions.
        path = "docs/adr/%s-churn.md" % structured["requestedRef"]
        rules = [f["rule"] for f in structured["findings"]["items"] if f.get("path") == path]
        assert rules and set(rules) <= {"frontmatter-fence", "frontmatter-parse", "required-field",
                                        "invalid-type", "invalid-string", "invalid-value"}, structured
        tally["partial"] += 1
        return
    if structured["outcome"] == "found":
        decision = structured["decision"]
        version = int(decision["title"].split()[-1])
        expected = version_body(version, size)
        if whole:
            assert decision["body"] == expected, "torn answer: title %r, body %r...%r" % (
                decision["title"], decision["body"][:40], decision["body"][-40:])
        else:
            assert expected.startswith(decision["body"]), "two versions mixed: title %r, body %r...%r" % (
                decision["title"], decision["body"][:40], decision["body"][-40:])
            if decision["body"] != expected:
                tally["partial"] += 1
        tally["found"] += 1
    elif structured["outcome"] == "results":
        for item in structured["items"]:
            assert item["title"].startswith("Version "), item
        tally["results"] += 1
    else:
        raise AssertionError(structured)


@pytest.mark.parametrize("style", ["replace", "in-place"])
def test_files_changing_on_every_call_under_load(spawn, tmp_path, style):
    repo = support.Repo(tmp_path / "repo")
    churn = Churn(repo, count=4, style=style, size=20000)
    proc = spawn(repo.root).start_reading()
    proc.call(request(0, "initialize", INIT))
    tally = {"found": 0, "results": 0, "changed": 0, "partial": 0}
    churn.thread.start()
    deadline = time.monotonic() + CHURN_SECONDS
    rid = 0
    try:
        while time.monotonic() < deadline:
            burst = []
            for number in range(1, 5):  # four calls in flight at once: the workers race the writer
                rid += 1
                burst.append(tool(rid, "get_decision", {"ref": "%04d" % number}, modern=rid % 2 == 0))
            rid += 1
            burst.append(tool(rid, "search_decisions", {"query": "version", "limit": 10}))
            proc.write(b"".join(burst))
            for _ in burst:
                check_consistent(proc.frame(timeout=30), tally, churn.size, whole=style == "replace")
    finally:
        churn.stop.set()
        churn.thread.join(timeout=10)
    assert tally["found"] > 0, tally
    assert churn.version > 10, churn.version
    proc.close_stdin()
    assert proc.wait()[0] == 0
    no_traceback(proc)
    print("\nchurn (%s): %d versions, %r" % (style, churn.version, tally))
    survived()
