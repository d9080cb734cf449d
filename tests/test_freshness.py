"""Freshness of the stat-validated parse cache (ADR 0010), its gate, and engine failures.

Every test runs the real loader on real files in a temporary repository. Two things are
injected, never the file system: the loader's clock (``_wall_clock_ns``), moved forward to
stand for "this call happens seconds after the files were written", and, for engine
failures and blocked loads, a wrapper around a real engine function. Spies wrap the real
``_read_candidate`` to tell which files a call opened. Threads are ordered with events;
timeouts are hang guards only.

The soak at the end spawns the real server and compares each of its answers with a cold
in-process reader's answer on the same bytes. ``ADRKIT_SOAK_SECONDS`` (default 4) and
``ADRKIT_SOAK_RECORDS`` (default 60) make it a long run; ``ADRKIT_SOAK_REPORT`` names a file
that receives its figures (answers, VmRSS/VmHWM curve).
"""

import json
import os
import random
import shutil
import subprocess
import sys
import threading
import time

import pytest

import _support as support
from _support import M, record_text

HANG = 30  # seconds: a hang guard, never a measurement
LATER_NS = 10 * 10 ** 9  # "the call happens 10 s after the writes": every older file is settled


@pytest.fixture
def later(monkeypatch):
    """The loader's clock runs 10 s ahead: files written before a call are settled for it."""
    monkeypatch.setattr(M, "_wall_clock_ns", lambda: time.time_ns() + LATER_NS)


@pytest.fixture
def reads(monkeypatch):
    """Names of the candidates each load opened (the real _read_candidate, observed)."""
    opened = []
    real = M._read_candidate

    def spy(dir_fd, dir_path, name):
        opened.append(name)
        return real(dir_fd, dir_path, name)

    monkeypatch.setattr(M, "_read_candidate", spy)
    return opened


def next_tick(path):
    """Return once the file system stamps a later ctime than `path` has (no sleep).

    With the clock moved forward, an edit must not share a timestamp tick with the
    write before it, exactly as a real edit made 2 s later would not.
    """
    before = os.stat(path).st_ctime_ns
    probe = path + ".tick"
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        with open(probe, "w") as handle:
            handle.write("x")
        stamped = os.stat(probe).st_ctime_ns
        os.remove(probe)
        if stamped > before:
            return
    raise AssertionError("the file system clock did not move")


ALL = ["0001-record.md", "0002-record.md", "0003-record.md"]


def reread(*changed):
    """What a later load opens: only the changed files where stat-validated reuse exists (POSIX),
    every file where it does not (Windows, where `_STAT_REUSE` is off: st_ctime is the birth time
    there; ADRKIT_TEST_FORCE_PATHS=windows gives the same here)."""
    return sorted(changed) if M._STAT_REUSE else ALL


def corpus(repo):
    for number, body in ((1, "Alpha body.\n"), (2, "Bravo body.\n"), (3, "Carol body.\n")):
        repo.record("%04d-record.md" % number, body=body)


def body_of(repo, ref):
    return repo.result("get_decision", ref=ref)["decision"]["body"]


def rewrite_same_size_and_mtime(path, old, new):
    """Edit in place (same inode), same size, then put the old atime and mtime back."""
    info = os.stat(path)
    with open(path, "rb") as handle:
        data = handle.read()
    changed = data.replace(old, new)
    assert len(changed) == len(data) and changed != data
    with open(path, "r+b") as handle:
        handle.write(changed)
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (info.st_ino, info.st_size, info.st_mtime_ns)
    return info


# --------------------------------------------------------------------------- #
# Reuse, and the racy window

def test_settled_files_are_not_opened_again(repo, later, reads):
    corpus(repo)
    first = repo.fingerprint()
    assert sorted(reads) == ["0001-record.md", "0002-record.md", "0003-record.md"]
    del reads[:]
    assert repo.fingerprint() == first
    assert sorted(reads) == reread()
    if M._STAT_REUSE:
        assert repo.projection() is repo.projection()  # nothing read: the same projection
    else:  # every file read again; the answer is still the same
        assert repo.projection().fingerprint == repo.projection().fingerprint


def test_racy_files_are_read_on_every_call(repo, reads):
    corpus(repo)  # just written: inside the 2 s window of the real clock
    first = repo.fingerprint()
    del reads[:]
    assert repo.fingerprint() == first
    assert sorted(reads) == ["0001-record.md", "0002-record.md", "0003-record.md"]


def test_rewrite_inside_the_racy_window_is_seen(repo, reads):
    corpus(repo)
    assert body_of(repo, "0002") == "Bravo body.\n"
    # No tick is awaited: size, mtime and perhaps even ctime are unchanged; the window decides.
    rewrite_same_size_and_mtime(repo.adr_path("0002-record.md"), b"Bravo", b"BRAVO")
    del reads[:]
    assert body_of(repo, "0002") == "BRAVO body.\n"
    assert "0002-record.md" in reads


def test_touch_to_an_old_mtime_after_a_same_size_edit_is_seen(repo, later, reads):
    corpus(repo)
    path = repo.adr_path("0002-record.md")
    touch_old(path)
    assert body_of(repo, "0002") == "Bravo body.\n"
    del reads[:]
    assert body_of(repo, "0002") == "Bravo body.\n"
    assert sorted(reads) == reread()  # settled: reused without opening
    del reads[:]
    next_tick(path)
    info = rewrite_same_size_and_mtime(path, b"Bravo", b"BRAVO")
    touch_old(path)
    after = os.stat(path)
    assert (after.st_size, after.st_mtime_ns, after.st_mode) == (info.st_size, info.st_mtime_ns, info.st_mode)
    assert after.st_ctime_ns != info.st_ctime_ns
    assert body_of(repo, "0002") == "BRAVO body.\n"
    assert sorted(reads) == reread("0002-record.md")


def touch_old(path):
    """`touch -d` to 2001-01-01 (os.utime where there is no touch)."""
    if shutil.which("touch"):
        subprocess.run(["touch", "-d", "2001-01-01 00:00:00", path], check=True)
    else:
        os.utime(path, (978307200, 978307200))


def test_replacement_by_rename_is_seen(repo, later, reads):
    corpus(repo)
    path = repo.adr_path("0003-record.md")
    assert body_of(repo, "0003") == "Carol body.\n"
    next_tick(path)
    info = os.stat(path)
    staging = repo.adr_path("staging.tmp")
    with open(staging, "w") as handle:
        handle.write(record_text("0003", body="CAROL body.\n"))
    os.utime(staging, ns=(info.st_atime_ns, info.st_mtime_ns))
    os.replace(staging, path)
    assert os.stat(path).st_size == info.st_size
    del reads[:]
    assert body_of(repo, "0003") == "CAROL body.\n"
    assert sorted(reads) == reread("0003-record.md")


def test_a_file_swapped_for_another_inode_with_the_same_stat_fields_is_seen(repo, later, reads):
    corpus(repo)
    path, other = repo.adr_path("0001-record.md"), repo.adr_path("spare.txt")
    with open(other, "w") as handle:
        handle.write(record_text("0001", body="ALPHA body.\n"))
    assert body_of(repo, "0001") == "Alpha body.\n"
    info = os.stat(path)
    os.utime(other, ns=(info.st_atime_ns, info.st_mtime_ns))
    os.chmod(other, info.st_mode & 0o7777)
    os.rename(path, repo.adr_path("moved.txt"))
    os.rename(other, path)
    swapped = os.stat(path)
    assert (swapped.st_size, swapped.st_mtime_ns, swapped.st_mode) == (info.st_size, info.st_mtime_ns, info.st_mode)
    assert swapped.st_ino != info.st_ino
    del reads[:]
    assert body_of(repo, "0001") == "ALPHA body.\n"
    assert sorted(reads) == reread("0001-record.md")


@pytest.mark.parametrize("skew", ["file-in-the-future", "our-clock-behind"])
def test_clock_skew_into_the_future_is_never_settled(repo, monkeypatch, reads, skew):
    corpus(repo)
    path = repo.adr_path("0002-record.md")
    if skew == "file-in-the-future":  # a file stamped by a machine whose clock runs ahead
        monkeypatch.setattr(M, "_wall_clock_ns", lambda: time.time_ns() + LATER_NS)
        future = time.time_ns() + 365 * 86400 * 10 ** 9
        os.utime(path, ns=(future, future))
    else:  # every stamp is in the future of a clock an hour behind
        monkeypatch.setattr(M, "_wall_clock_ns", lambda: time.time_ns() - 3600 * 10 ** 9)
    assert body_of(repo, "0002") == "Bravo body.\n"
    del reads[:]
    assert body_of(repo, "0002") == "Bravo body.\n"
    assert "0002-record.md" in reads
    rewrite_same_size_and_mtime(path, b"Bravo", b"BRAVO")
    assert body_of(repo, "0002") == "BRAVO body.\n"


def test_without_a_change_time_every_file_is_read(repo, later, reads, monkeypatch):
    monkeypatch.setattr(M, "_STAT_REUSE", False)  # what Windows gets: st_ctime is the birth time
    corpus(repo)
    repo.fingerprint()
    del reads[:]
    repo.fingerprint()
    assert sorted(reads) == ["0001-record.md", "0002-record.md", "0003-record.md"]


def test_a_reused_file_changed_before_a_later_read_is_corpus_changed(repo, later):
    corpus(repo)
    repo.fingerprint()
    first, third = repo.adr_path("0001-record.md"), repo.adr_path("0003-record.md")
    next_tick(third)
    with open(third, "a") as handle:  # changed: the load will read it, after reusing 0001
        handle.write("more\n")
    boundaries = []

    def should_stop():
        boundaries.append(None)
        if len(boundaries) == 3:  # 0001 and 0002 reused, 0003 about to be read
            with open(first, "a") as handle:
                handle.write("grown\n")
        return False

    with pytest.raises(M.CorpusUnavailable) as caught:
        M.load_projection(repo.config, should_stop)
    assert caught.value.reason == "corpus-changed-during-load"
    assert "grown" in body_of(repo, "0001")


def test_deleted_and_recreated_with_the_same_bytes_and_mtime_is_read(repo, later, reads):
    corpus(repo)
    path = repo.adr_path("0002-record.md")
    repo.fingerprint()
    next_tick(path)
    info = os.stat(path)
    with open(path, "rb") as handle:
        data = handle.read()
    os.remove(path)
    assert "0002" not in [r["id"] for r in repo.result("list_superseded")["items"]]
    with open(path, "wb") as handle:
        handle.write(data.replace(b"Bravo", b"BRAVO"))
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    del reads[:]
    assert body_of(repo, "0002") == "BRAVO body.\n"
    assert sorted(reads) == reread("0002-record.md")


# --------------------------------------------------------------------------- #
# Engine failures: the file's finding, one stderr line per content, never memoised

def test_an_engine_failure_is_a_finding_and_one_stderr_line(repo, later, monkeypatch, capsys):
    corpus(repo)
    repo.record("0004-boom.md", body="BOOM here.\n")
    real, attempts, broken = M.validate_frontmatter, [], [True]

    def failing(value):
        if broken[0] and isinstance(value, dict) and value.get("id") == "0004":
            attempts.append(None)
            raise RuntimeError("injected engine fault")
        return real(value)

    monkeypatch.setattr(M, "validate_frontmatter", failing)
    path = "docs/adr/0004-boom.md"
    for _ in range(3):
        findings = [f for f in support.all_findings(repo) if f.get("path") == path]
        assert findings == [{"rule": "file-read", "severity": "error", "path": path,
                             "message": "RuntimeError: injected engine fault"}]
    assert len(attempts) == 3  # retried on every call, even though the file is settled
    lines = [line for line in capsys.readouterr().err.splitlines() if path in line]
    assert lines == ["adrkit-mcp: engine failure reading %s: RuntimeError: injected engine fault" % path]
    broken[0] = False  # the engine is fixed: the same bytes now give the record
    assert body_of(repo, "0004") == "BOOM here.\n"
    assert capsys.readouterr().err == ""


def test_a_new_failing_content_is_reported_again(repo, monkeypatch, capsys):
    repo.record("0001-boom.md")
    real = M.FrontmatterYaml.load

    def failing(text):
        if "0001" in text:
            raise KeyError("injected")
        return real(text)

    monkeypatch.setattr(M.FrontmatterYaml, "load", staticmethod(failing))
    support.all_findings(repo)
    support.all_findings(repo)
    repo.record("0001-boom.md", title="Another title")
    support.all_findings(repo)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and all("KeyError" in line and "0001-boom.md" in line for line in lines), lines


# --------------------------------------------------------------------------- #
# Loads never block cancellation or the timeout; caches belong to one instance

class Blocker(object):
    """Wraps the real parse_record_file: parsing `name` blocks until released."""

    def __init__(self, monkeypatch, name):
        self.name, self.inside, self.release = name, threading.Event(), threading.Event()
        real = M.parse_record_file

        def parse(path, data):
            if path.endswith(self.name) and not self.release.is_set():
                self.inside.set()
                assert self.release.wait(HANG), "never released"
            return real(path, data)

        monkeypatch.setattr(M, "parse_record_file", parse)


def in_thread(function):
    outcome = []

    def run():
        try:
            outcome.append(("value", function()))
        except BaseException as error:  # reported to the test
            outcome.append(("error", error))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


def test_a_call_waiting_for_another_load_leaves_when_stopped(repo, monkeypatch):
    corpus(repo)
    blocker = Blocker(monkeypatch, "0002-record.md")
    first, first_outcome = in_thread(lambda: M.load_projection(repo.config))
    assert blocker.inside.wait(HANG)
    asked, stop = threading.Event(), threading.Event()

    def should_stop():
        asked.set()
        return stop.is_set()

    waiting, waiting_outcome = in_thread(lambda: M.load_projection(repo.config, should_stop))
    assert asked.wait(HANG)  # it is at the gate: the first load holds it
    stop.set()  # cancelled, or its deadline fired (both set the call's stop flag)
    waiting.join(HANG)
    assert not waiting.is_alive()
    assert waiting_outcome[0][0] == "error" and isinstance(waiting_outcome[0][1], M.CallCancelled)
    assert first.is_alive() and not first_outcome  # still loading: nobody waited for it
    blocker.release.set()
    first.join(HANG)
    assert first_outcome[0][0] == "value" and first_outcome[0][1].record_count == 3


class Peer(object):
    """The client side of an embedded server over two pipes."""

    def __init__(self, root, timeout_ms):
        self.server_in, self.client_out = os.pipe()
        self.client_in, self.server_out = os.pipe()
        self.reader = os.fdopen(self.client_in, "rb")
        self.handle = M.create_server(cwd=root, stdin=self.server_in, stdout=self.server_out,
                                      request_timeout_ms=timeout_ms)
        self.thread = threading.Thread(target=self.handle.start, daemon=True)
        self.thread.start()
        self.send({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
        assert self.recv()["id"] == "init"

    def send(self, message):
        os.write(self.client_out, json.dumps(message).encode() + b"\n")

    def call(self, rid, tool, arguments):
        self.send({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                   "params": {"name": tool, "arguments": arguments}})

    def recv(self):
        return json.loads(self.reader.readline())

    def close(self):
        self.handle.close()
        for fd in (self.client_out, self.server_in, self.server_out):
            try:
                os.close(fd)
            except OSError:
                pass
        self.thread.join(HANG)
        self.reader.close()


def test_calls_behind_a_blocked_load_time_out_and_cancel_without_loading(repo, monkeypatch):
    corpus(repo)
    blocker = Blocker(monkeypatch, "0002-record.md")  # the start-up warm-up blocks in it
    loads, real = [], M._load_projection_entered
    monkeypatch.setattr(M, "_load_projection_entered", lambda *a: loads.append(None) or real(*a))
    peer = Peer(repo.root, timeout_ms=2000)  # long enough for the cancellation to be read first
    try:
        assert blocker.inside.wait(HANG)
        peer.call(1, "list_superseded", {})
        peer.call(2, "search_decisions", {"query": "body"})
        peer.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}})
        answer = peer.recv()  # the timeout of call 1; call 2 is never answered
        assert answer["id"] == 1 and answer["error"]["code"] == -32603
        assert answer["error"]["data"] == {"timeoutMs": 2000}
        assert not blocker.release.is_set() and loads == [None]  # only the warm-up is loading
        blocker.release.set()
        peer.call(3, "get_decision", {"ref": "0002"})
        answer = peer.recv()
        assert answer["id"] == 3
        assert answer["result"]["structuredContent"]["result"]["decision"]["body"] == "Bravo body.\n"
        assert len(loads) == 2  # the warm-up and call 3: the stopped calls never loaded
    finally:
        blocker.release.set()
        peer.close()


def test_two_servers_in_one_process_keep_their_own_caches(make_repo, monkeypatch):
    one, two = make_repo("one"), make_repo("two")
    one.record("0001-alpha.md")
    two.record("0001-bravo.md")
    parsed, real = [], M.parse_record_file
    monkeypatch.setattr(M, "parse_record_file", lambda path, data: parsed.append(path) or real(path, data))
    first, second = Peer(one.root, 0), Peer(two.root, 0)
    try:
        first.call(1, "list_superseded", {})
        assert first.recv()["id"] == 1
        second.call(1, "list_superseded", {})
        assert second.recv()["id"] == 1
        before = list(parsed)
        first.call(2, "get_decision", {"ref": "0001"})
        assert first.recv()["result"]["structuredContent"]["result"]["decision"]["sourcePath"].endswith("alpha.md")
        assert parsed == before  # the other server's loads evicted nothing
        assert sorted(parsed) == ["docs/adr/0001-alpha.md", "docs/adr/0001-bravo.md"]
    finally:
        first.close()
        second.close()


def test_tools_do_not_write_into_their_arguments(repo):
    corpus(repo)
    for tool, arguments in (("search_decisions", {"query": "body"}), ("get_decision", {"ref": "0001"}),
                            ("get_decision_context", {"files": ["a.ts"]}), ("list_superseded", {})):
        validate, run = M.TOOLS[tool]
        problems, args = validate(arguments)
        assert not problems
        snapshot = json.dumps(args, sort_keys=True)
        run(repo.projection(), args, lambda: False)
        assert json.dumps(args, sort_keys=True) == snapshot, tool


# --------------------------------------------------------------------------- #
# Soak: a real server under continuous calls while another thread edits the corpus

SOAK_TOOLS = [("search_decisions", {"query": "e", "limit": 100, "findingsLimit": 100}),
              ("list_superseded", {"limit": 100, "findingsLimit": 100}),
              ("get_decision_context", {"files": ["src/a.ts", "docs/x.md"], "limit": 100, "findingsLimit": 100}),
              ("get_decision", {"ref": "0003", "findingsLimit": 100})]


def soak_record(number, rng):
    extra = 'affects:\n  - type: path\n    pattern: "%s"\n' % rng.choice(["src/**", "docs/*.md", "lib/**"])
    if rng.random() < 0.3:
        extra += 'supersededBy: "%04d"\n' % rng.randint(1, 99)
    status = "superseded" if "supersededBy" in extra else rng.choice(["accepted", "proposed", "rejected"])
    body = "Record %d %s\n" % (number, "e" * rng.randint(0, 40))
    return record_text("%04d" % number, status=status, extra=extra, body=body)


class Writer(object):
    """Edits the corpus in bursts; `generation` is odd while an edit is under way."""

    def __init__(self, repo, count, seed):
        self.repo, self.count, self.rng = repo, count, random.Random(seed)
        self.generation, self.lock = 0, threading.Lock()
        self.verified, self.stop, self.edits = threading.Event(), threading.Event(), 0

    def edit(self):
        rng, number = self.rng, self.rng.randint(1, self.count)
        path = self.repo.adr_path("%04d-record.md" % number)
        kind = rng.choice(["in-place", "rewrite", "rename", "delete", "recreate", "broken"])
        if kind == "in-place" and os.path.exists(path):
            info = os.stat(path)
            with open(path, "r+b") as handle:
                handle.write(b"---\nid: \"%04d\"\ntitle: \"Edited %d\"" % (number, rng.randint(0, 9)))
            os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
        elif kind == "rename":
            staging = self.repo.adr_path("staging.tmp")
            with open(staging, "w") as handle:
                handle.write(soak_record(number, rng))
            os.replace(staging, path)
        elif kind == "delete" and os.path.exists(path):
            os.remove(path)
        elif kind == "broken":
            self.repo.write("%04d-record.md" % number, "---\nid: [unterminated\n---\n")
        else:
            self.repo.write("%04d-record.md" % number, soak_record(number, rng))

    def run(self):
        while not self.stop.is_set():
            self.verified.clear()
            for _ in range(self.rng.randint(1, 8)):
                with self.lock:
                    self.generation += 1
                self.edit()
                self.edits += 1
                with self.lock:
                    self.generation += 1
            while not self.verified.wait(0.5):  # quiet until one answer was compared
                if self.stop.is_set():
                    return


def memory_kib(pid):
    fields = {}
    with open("/proc/%d/status" % pid) as handle:
        for line in handle:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0])
    return fields


def test_soak_every_answer_equals_a_cold_readers(make_repo):
    seconds = float(os.environ.get("ADRKIT_SOAK_SECONDS", "4"))
    count = int(os.environ.get("ADRKIT_SOAK_RECORDS", "60"))
    repo = make_repo("soak")
    rng = random.Random(13)
    for number in range(1, count + 1):
        repo.write("%04d-record.md" % number, soak_record(number, rng))
    proc = subprocess.Popen(support.module_command(python=sys.executable) + ["--cwd", repo.root],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    writer = Writer(repo, count, seed=7)
    figures = {"answers": 0, "compared": 0, "during_edits": 0, "changed_during_load": 0, "memory": []}
    try:
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "soak", "version": "1"}}
        }).encode() + b"\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["id"] == 0
        thread = threading.Thread(target=writer.run, daemon=True)
        thread.start()
        soak_loop(proc, repo, writer, figures, seconds)
    finally:
        writer.stop.set()
        proc.stdin.close()
        proc.wait(HANG)
        report_soak(figures, writer)
    assert proc.returncode == 0, proc.stderr.read()
    assert figures["compared"] > 0 and writer.edits > 0
    check_memory_is_flat(figures["memory"], seconds)


def soak_loop(proc, repo, writer, figures, seconds):
    started = last_sample = time.monotonic()
    rid = 0
    while time.monotonic() - started < seconds:
        rid += 1
        tool, arguments = SOAK_TOOLS[rid % len(SOAK_TOOLS)]
        with writer.lock:
            before = writer.generation
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                                     "params": {"name": tool, "arguments": arguments}}).encode() + b"\n")
        proc.stdin.flush()
        line = proc.stdout.readline()
        assert line, "the server did not answer call %d" % rid
        answer = json.loads(line)
        assert answer["id"] == rid and "result" in answer, answer
        figures["answers"] += 1
        cold = M.call_tool(M.CorpusConfig(repo.root, "docs/adr"), tool, dict(arguments))
        with writer.lock:
            after = writer.generation
        warm = answer["result"]["structuredContent"]
        if before == after and before % 2 == 0:
            assert warm == json.loads(json.dumps(cold["structuredContent"])), (tool, rid)
            figures["compared"] += 1
            writer.verified.set()
        else:
            figures["during_edits"] += 1
            if warm["result"].get("reason") == "corpus-changed-during-load":
                figures["changed_during_load"] += 1
        if time.monotonic() - last_sample >= min(10.0, seconds / 4):
            last_sample = time.monotonic()
            figures["memory"].append((round(last_sample - started, 1), memory_kib(proc.pid)))
    figures["memory"].append((round(time.monotonic() - started, 1), memory_kib(proc.pid)))


def check_memory_is_flat(samples, seconds):
    """After the first minute VmHWM grows by at most 10 % (only meaningful in a long run)."""
    if seconds < 120:
        return
    settled = [memory for at, memory in samples if at >= 60]
    assert settled[-1]["VmHWM"] <= settled[0]["VmHWM"] * 1.10, samples


def report_soak(figures, writer):
    figures["edits"] = writer.edits
    target = os.environ.get("ADRKIT_SOAK_REPORT")
    if target:
        with open(target, "w") as handle:
            json.dump(figures, handle, indent=1)
