"""SIGTERM and SIGINT stop the server whichever thread the kernel hands them to (issue 16, ADR 0012).

* Every thread the server starts blocks both signals, so a process-directed signal can only reach
  the main thread; read from /proc, on Linux.
* The signal delivered to each thread in turn (`signal.pthread_kill`) while a call is in flight
  and stdin stays open: exit 0, complete frames, no traceback.  A thread that blocks the signal
  would keep a thread-directed one pending for ever, so this half runs the server as on a
  platform without `pthread_sigmask` (the driver removes it), where the kernel may pick any
  thread: then the main thread's sliced wait is what ends the process.
* A SIGINT the parent ignored stays ignored; `create_server(...).start()` in a non-main thread
  installs no handler and leaves the embedder's signals to the embedder.
* Randomized trials, both eras, SIGTERM and SIGINT at the moments a client sends them.  A short
  form runs in the suite; ADRKIT_SIGNAL_TRIALS=500 runs the long form, ADRKIT_SIGNAL_SEED=N
  replays one (every failure names its seed).

Time limits are hang guards only (Popen.wait(timeout=...)); nothing here measures a duration,
and the sleeps in the trials are the client's timing (the input of the race), not synchronisation.
"""

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time

import pytest

import _platforms as platforms  # why a test cannot hold on a platform
import _session as wire
import _support as support

HANG_GUARD_S = 20  # far above the 0.1 s the main thread's wait slices allow
SIGNALS = {"SIGTERM": signal.SIGTERM, "SIGINT": signal.SIGINT}
LINUX_PROC = os.path.isdir("/proc/self/task")

pytestmark = platforms.SIGNALS  # Windows has neither pthread_sigmask nor pthread_kill


# ---------------------------------------------------------------------------
# The driver: the real server (main() in the main thread) plus one thread that plays the kernel
# ---------------------------------------------------------------------------

DRIVER = r'''
import importlib.util, json, os, signal, sys, threading, time
MODULE, ROOT, TARGET, SIGNAME, MODE = sys.argv[1:6]
block = signal.pthread_sigmask
if MODE == "unmasked":
    del signal.pthread_sigmask  # a platform without signal masks: the kernel may pick any thread
m = cached_module("adrkit_mcp", MODULE, CACHE)  # tests/_support.py's LOAD_CACHED

in_flight = threading.Event()
busy = []
held = threading.Event()  # never set: the warm-up stays in its load, like one of a large corpus
real_load, real_call_tool = m.load_projection, m.call_tool


def load_projection(config):
    if threading.current_thread().name == "adrkit-warmup":
        held.wait()
    return real_load(config)


def call_tool(config, name, arguments, should_stop):
    if name != "test_hold":
        return real_call_tool(config, name, arguments, should_stop)
    busy.append(threading.current_thread().name)
    in_flight.set()
    while not should_stop():  # a tool at work, asking at every record boundary
        time.sleep(0.005)
    raise m.CallCancelled()


m.load_projection, m.call_tool = load_projection, call_tool


def blocked(thread):
    """Does the thread block SIGTERM and SIGINT?  (Linux: SigBlk in /proc; else None)"""
    try:
        with open("/proc/self/task/%d/status" % thread.native_id) as status:
            fields = dict(line.split(":", 1) for line in status if ":" in line)
    except OSError:
        return None
    mask = int(fields["SigBlk"].strip(), 16)
    return all(mask >> (number - 1) & 1 for number in (signal.SIGTERM, signal.SIGINT))


def kernel():
    if not in_flight.wait(60):
        sys.stderr.write("DRIVER no call in flight\n")
        os._exit(97)
    threads = {t.name: t for t in threading.enumerate()}
    idle = sorted(n for n in threads if n.startswith("adrkit-mcp-tool-") and n not in busy)
    roles = {"main": "MainThread", "reader": "adrkit-mcp-reader", "busy-worker": busy[0],
             "idle-worker": idle[0], "deadlines": "adrkit-mcp-deadlines", "warmup": "adrkit-warmup"}
    # The main thread blocks both while it starts the reader (_start_thread, ADR 0012), and the
    # reader may admit the call before the main thread, on a busy machine, runs again to restore
    # its mask: wait for it to leave that window (a main thread that never unblocks fails below).
    until = time.monotonic() + 10
    while blocked(threads["MainThread"]) and time.monotonic() < until:
        time.sleep(0.001)
    report = {role: blocked(threads[name]) for role, name in roles.items() if name in threads}
    sys.stderr.write("DRIVER %s\n" % json.dumps({"blocked": report, "target": TARGET}))
    sys.stderr.flush()
    number = getattr(signal, SIGNAME)
    if TARGET == "process":
        os.kill(os.getpid(), number)  # as a client does: the kernel picks a thread
    else:
        signal.pthread_kill(threads[roles[TARGET]].ident, number)


block(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})  # the driver's own thread takes none
threading.Thread(target=kernel, name="driver-kernel", daemon=True).start()
block(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
sys.exit(m.main(["--cwd", ROOT, "--request-timeout-ms", "600000"]))
'''

THREADS = ["main", "reader", "busy-worker", "idle-worker", "deadlines", "warmup"]


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    path = tmp_path_factory.mktemp("signals") / "signal_driver.py"
    path.write_text(support.with_cached_module(DRIVER), encoding="utf-8")
    return str(path)


def _default_sigint():
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # as a client in the foreground starts us


def drive(server_module, driver, root, target, signame, mode):
    """Run one driver process through a call in flight to its signal; (status, stdout, stderr)."""
    proc = subprocess.Popen([support.SERVER_PYTHON, driver, server_module, root, target, signame, mode],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=_default_sigint)
    requests = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize",
         "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                    "clientInfo": {"name": "signal-tests", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "test_hold", "arguments": {}}},
    ]
    proc.stdin.write(b"".join(json.dumps(r).encode() + b"\n" for r in requests))
    proc.stdin.flush()  # and stdin stays open
    try:
        status = proc.wait(timeout=HANG_GUARD_S)
    except subprocess.TimeoutExpired:
        status = "hung"
        proc.kill()
        proc.wait()
    out, err = proc.stdout.read(), proc.stderr.read().decode("utf-8", "replace")
    proc.stdin.close()
    proc.stdout.close()
    proc.stderr.close()
    return status, out, err


def complete_frames(out):
    """Every stdout line one whole JSON-RPC message; the frames."""
    assert not out or out.endswith(b"\n"), "torn last frame: %r" % out[-200:]
    frames = [json.loads(line) for line in out.splitlines()]
    assert all(isinstance(f, (dict, list)) for f in frames), frames
    return frames


def driver_report(err):
    lines = [line[len("DRIVER "):] for line in err.splitlines() if line.startswith("DRIVER ")]
    assert lines, err
    return json.loads(lines[0])


@pytest.mark.parametrize("signame", sorted(SIGNALS))
@pytest.mark.parametrize("target", THREADS)
def test_the_signal_delivered_to_each_thread_ends_the_server(server_module, driver, repo_root, target, signame):
    """pthread_kill on one thread while a call runs and stdin stays open, signal masks absent."""
    status, out, err = drive(server_module, driver, repo_root, target, signame, "unmasked")
    assert status == 0, (status, err)
    frames = complete_frames(out)
    assert [f.get("id") for f in frames] == [0], frames  # the handshake; the held call unanswered
    assert "Traceback" not in err, err
    assert driver_report(err)["target"] == target


@pytest.mark.parametrize("signame", sorted(SIGNALS))
def test_every_server_thread_blocks_the_signals_and_the_kernel_picks_the_main_thread(
        server_module, driver, repo_root, signame):
    """The real masks: each thread the server started blocks both; kill(pid) ends it with 0."""
    status, out, err = drive(server_module, driver, repo_root, "process", signame, "masked")
    assert status == 0, (status, err)
    assert [f.get("id") for f in complete_frames(out)] == [0]
    assert "Traceback" not in err, err
    blocked = driver_report(err)["blocked"]
    assert set(blocked) == set(THREADS), blocked
    if not LINUX_PROC:
        pytest.skip("the masks of other threads are read from /proc")
    assert blocked == dict({role: True for role in THREADS}, main=False), blocked


@pytest.mark.parametrize("signame", sorted(SIGNALS))
def test_pthread_kill_on_the_main_thread_with_masks_in_place(server_module, driver, repo_root, signame):
    status, out, err = drive(server_module, driver, repo_root, "main", signame, "masked")
    assert status == 0, (status, err)
    assert [f.get("id") for f in complete_frames(out)] == [0]
    assert "Traceback" not in err, err


def blocked_writing(pid):
    """Is a thread of the process asleep in a pipe write (Linux wchan)?  True where unknown."""
    try:
        channels = []
        for task in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/wchan" % (pid, task)) as handle:
                channels.append(handle.read().strip())
    except OSError:
        return True
    return any("pipe_write" in channel for channel in channels) or all(c in ("", "0") for c in channels)


@pytest.mark.parametrize("signame", sorted(SIGNALS))
def test_a_listen_open_while_the_client_reads_nothing_does_not_hold_the_exit(server_command, repo_root,
                                                                             signame):
    """Shutdown owes each open listen a complete result; with stdout full (the reader blocked
    writing, holding the writer) it waits a bounded time for that write, then exits 0."""
    proc = subprocess.Popen(list(server_command) + ["--cwd", repo_root], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_default_sigint)
    try:
        def send(rid, method, params):
            message = {"jsonrpc": "2.0", "id": rid, "method": method, "params": dict(params, _meta=wire.META)}
            proc.stdin.write(json.dumps(message).encode("utf-8") + b"\n")
            proc.stdin.flush()
        send("listen", "subscriptions/listen", {"notifications": {}})
        assert json.loads(proc.stdout.readline())["method"] == "notifications/subscriptions/acknowledged"
        for rid in range(1, 300):  # far more answers than a pipe holds, never read
            send(rid, "tools/list", {})
        assert support.wait_until(lambda: blocked_writing(proc.pid), HANG_GUARD_S)
        proc.send_signal(SIGNALS[signame])
        assert proc.wait(timeout=HANG_GUARD_S) == 0
        assert b"Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                stream.close()
            except OSError:
                pass


# ---------------------------------------------------------------------------
# SIGINT ignored by the parent; an embedder's own signals
# ---------------------------------------------------------------------------

def test_a_sigint_the_parent_ignored_stays_ignored(hooked_command, repo_root, marks):
    s = wire.Session(hooked_command, ["--cwd", repo_root], env={"WIRE_TEST_MARKS": str(marks)},
                     sigint=signal.SIG_IGN)
    try:
        s.initialize()
        s.request(1, "tools/call", {"name": "test_slow", "arguments": {"seconds": 120, "tag": "a"}})
        assert support.wait_until(lambda: (marks / "started-a").exists(), 30)
        s.proc.send_signal(signal.SIGINT)  # discarded by the kernel: its disposition is SIG_IGN
        assert s.call(2, "ping")["result"] == {}
        assert s.proc.poll() is None
        s.proc.send_signal(signal.SIGTERM)
        assert s.proc.wait(timeout=HANG_GUARD_S) == 0, s.stderr()
        assert "Traceback" not in s.stderr()
    finally:
        s.kill()


EMBEDDER = r'''
import json, os, signal, sys, threading
MODULE, ROOT = sys.argv[1:3]
m = cached_module("adrkit_mcp", MODULE, CACHE)  # bytecode kept (tests/_support.py)

caught = threading.Event()
def mine(signum, frame):
    caught.set()
signal.signal(signal.SIGTERM, mine)
signal.signal(signal.SIGINT, mine)
inside_r, inside_w = os.pipe()
outside_r, outside_w = os.pipe()
handle = m.create_server(cwd=ROOT, stdin=inside_r, stdout=outside_w)
served = []
def serve():
    handle.start()
    served.append(True)
thread = threading.Thread(target=serve, name="embedder-serving")
thread.start()
os.write(inside_w, b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n')
answer = b""
while not answer.endswith(b"\n"):
    answer += os.read(outside_r, 4096)
threads = sorted(t.name for t in threading.enumerate())
handlers = [signal.getsignal(signal.SIGTERM) is mine, signal.getsignal(signal.SIGINT) is mine]
for number in (signal.SIGTERM, signal.SIGINT):
    caught.clear()
    os.kill(os.getpid(), number)  # the kernel may pick any thread that does not block it
    while not caught.wait(0.05):
        pass
handle.close()
thread.join(60)
print(json.dumps({"answer": json.loads(answer), "handlers": handlers, "threads": threads,
                  "served": served, "alive": thread.is_alive()}))
'''


def test_an_embedder_in_a_non_main_thread_keeps_its_own_signals(server_module, repo_root, tmp_path):
    """start() in a thread of the embedder installs no handler; the embedder's handlers see
    SIGTERM and SIGINT (the server's threads block them), and close() still ends start()."""
    script = tmp_path / "embedder.py"
    script.write_text(support.with_cached_module(EMBEDDER), encoding="utf-8")
    completed = subprocess.run([support.SERVER_PYTHON, str(script), server_module, repo_root],
                               capture_output=True, timeout=HANG_GUARD_S * 3, stdin=subprocess.DEVNULL,
                               preexec_fn=_default_sigint)
    assert completed.returncode == 0, completed.stderr.decode("utf-8", "replace")
    report = json.loads(completed.stdout)
    assert report["answer"] == {"jsonrpc": "2.0", "id": 1, "result": {}}
    assert report["handlers"] == [True, True]
    assert "adrkit-mcp-reader" in report["threads"]
    assert report["served"] == [True] and report["alive"] is False


def test_no_handler_is_installed_from_a_thread_that_is_not_the_main_one(module):
    """The server command's installer, run in another thread, installs nothing (and has nothing to restore)."""
    seen = []
    thread = threading.Thread(target=lambda: seen.append(module._install_signal_handlers()))
    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    thread.start()
    thread.join(HANG_GUARD_S)
    assert seen == [{}]
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)) == before


# ---------------------------------------------------------------------------
# Randomized trials: SIGTERM or SIGINT at the moments a client sends them, in both eras
# ---------------------------------------------------------------------------

TRIALS = int(os.environ.get("ADRKIT_SIGNAL_TRIALS", "12"))
MOMENTS = ("start", "before-answer", "between-frames", "in-flight", "listen", "corpus-load", "after-eof")
LARGE_CORPUS = 400  # records
# Where CPython reports a KeyboardInterrupt and carries on, in its own words: the check of the
# program path, and a callback of the import system (a weakref callback's exception is "ignored"),
# run while Python starts and the module imports its libraries. Before any handler of ours exists.
STARTUP_LOST = ("Failed checking if argv[0] is an import path entry", "Exception ignored in")
WORKERS = 4  # the server's tool workers: calls beyond them are admitted but wait


@pytest.fixture(scope="module")
def large_corpus(tmp_path_factory):
    """A repository whose load takes a while: LARGE_CORPUS records with some YAML to parse."""
    repo = support.Repo(tmp_path_factory.mktemp("large") / "repo")
    extra = "tags:\n" + "".join("  - tag-%d\n" % i for i in range(12))
    for number in range(1, LARGE_CORPUS + 1):
        repo.record("%04d-decision-%d.md" % (number, number), title="Decision %d about the wire" % number,
                    extra=extra, body="Some context.\n" * 20)
    return repo.root


def lost_in_start_up(stderr):
    """Did CPython report a KeyboardInterrupt and carry on (the signal lost, as documented)?"""
    return "KeyboardInterrupt" in stderr and any(words in stderr for words in STARTUP_LOST)


def handlers_installed(pid):
    """Is SIGTERM caught (/proc/PID/status SigCgt)?  The server installs it after SIGINT's."""
    try:
        with open("/proc/%d/status" % pid) as status:
            for line in status:
                if line.startswith("SigCgt:"):
                    return bool(int(line.split(":")[1], 16) >> (signal.SIGTERM - 1) & 1)
    except OSError:
        pass
    return False


class Trial(object):
    """One server process, one client script, one signal; `outcome()` says what went wrong."""

    def __init__(self, rng, number, server_command, hooked_command, repo_root, large_corpus, marks):
        self.rng, self.number, self.marks = rng, number, marks
        self.era = rng.choice(("legacy", "modern"))
        self.signame = rng.choice(sorted(SIGNALS))
        self.moment = rng.choice([m for m in MOMENTS if m != "listen" or self.era == "modern"])
        self.calls = rng.randint(0, 6)
        self.modern = self.era == "modern"
        command = hooked_command if self.moment in ("in-flight", "listen", "after-eof") else server_command
        root = large_corpus if self.moment == "corpus-load" else repo_root
        # PYTHONFAULTHANDLER: a server that hangs is sent SIGABRT and its threads' stacks are kept.
        self.session = wire.Session(command, ["--cwd", root],
                                    env={"WIRE_TEST_MARKS": str(marks), "PYTHONFAULTHANDLER": "1"})
        self.early = True  # until the handlers are known to be in place
        self.listens = []

    def describe(self):
        return "trial %d: %s era, %s %s, %d calls" % (self.number, self.era, self.signame, self.moment, self.calls)

    def handshake(self):
        s = self.session
        if self.modern:
            assert s.call(0, "server/discover", modern=True)["result"]["supportedVersions"]
        else:
            s.initialize()

    def start_calls(self):
        s = self.session
        for index in range(self.calls):
            s.request(10 + index, "tools/call", {"name": "test_slow", "arguments": {
                "seconds": 600, "tag": "t%d" % index}}, modern=self.modern)
        running = min(self.calls, WORKERS)  # the others wait for a worker, admitted
        assert support.wait_until(lambda: len(list(self.marks.glob("started-t*"))) >= running,
                                  HANG_GUARD_S), "%s: no call started" % self.describe()

    def play(self):
        """The client's part, up to the signal."""
        s, rng, moment = self.session, self.rng, self.moment
        if moment == "start":
            time.sleep(rng.uniform(0, 0.05))
        else:
            if LINUX_PROC:
                self.early = not support.wait_until(lambda: handlers_installed(s.proc.pid), HANG_GUARD_S)
            if moment == "before-answer":
                if self.modern:
                    s.request(0, "tools/list", modern=True)
                else:
                    s.request(0, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                                "clientInfo": {"name": "signal-trials", "version": "1"}})
            else:
                self.handshake()
            if moment == "between-frames":
                sent = rng.randint(0, 4)
                for rid in range(1, sent + 1):
                    s.request(rid, rng.choice(("ping", "tools/list")), modern=self.modern)
                for _ in range(rng.randint(0, sent)):
                    s.recv()
            elif moment == "in-flight":
                self.start_calls()
            elif moment == "listen":
                for rid in range(rng.randint(1, 3)):
                    s.request("listen-%d" % rid, "subscriptions/listen", {"notifications": {}}, modern=True)
                    assert s.recv()["method"] == "notifications/subscriptions/acknowledged"
                    self.listens.append("listen-%d" % rid)
                self.start_calls()
            elif moment == "corpus-load":
                for rid in range(1, max(1, self.calls) + 1):
                    s.request(rid, "tools/call", {"name": "list_superseded", "arguments": {}}, modern=self.modern)
                time.sleep(rng.uniform(0, 0.05))
            elif moment == "after-eof":
                self.start_calls()
                s.proc.stdin.close()
                time.sleep(rng.uniform(0, 0.005))
        s.proc.send_signal(SIGNALS[self.signame])

    def stacks(self):
        """The stderr of a server that did not end, after SIGABRT (faulthandler writes every
        thread's stack), for the failure message."""
        s = self.session
        if hasattr(signal, "SIGABRT"):
            s.proc.send_signal(signal.SIGABRT)
            try:
                s.proc.wait(timeout=HANG_GUARD_S)
            except subprocess.TimeoutExpired:
                pass
            for thread in s._threads:
                thread.join(HANG_GUARD_S)
        return s.stderr()

    def outcome(self):
        """None when the trial ended as documented, else what went wrong."""
        s = self.session
        try:
            self.play()
        except AssertionError as error:
            return "the client's part failed: %s" % (str(error).splitlines() or [""])[0][:300]
        if self.moment == "start" and self.signame == "SIGINT":
            # Python's start-up may report the KeyboardInterrupt and carry on (STARTUP_LOST),
            # before any handler of ours exists: the signal is lost, as documented, and the
            # server serves until stdin closes.
            support.wait_until(lambda: s.proc.poll() is not None or lost_in_start_up(s.stderr()), HANG_GUARD_S)
            if s.proc.poll() is None and lost_in_start_up(s.stderr()):
                try:
                    self.handshake()  # the server answers (no ping in the modern era)
                except (AssertionError, KeyError) as error:
                    return "lost in start-up, then: %s" % (str(error).splitlines() or [""])[0][:300]
                s.proc.stdin.close()
        try:
            status = s.proc.wait(timeout=HANG_GUARD_S)
        except subprocess.TimeoutExpired:
            return "hung; stderr (the stacks after SIGABRT): %s" % self.stacks()[-3000:]
        for thread in s._threads:
            thread.join(HANG_GUARD_S)
        lines = []
        while not s.lines.empty():
            line = s.lines.get_nowait()
            if line is not None:
                lines.append(line)
        number = SIGNALS[self.signame]
        # Before the handlers exist, the default action: SIGTERM kills, SIGINT raises
        # KeyboardInterrupt (a traceback, then the process kills itself with SIGINT).
        # KeyboardInterrupt in the interpreter's own start-up ends it with status 1.
        allowed = {0, -number} if self.early else {0}
        if self.early and number == signal.SIGINT:
            allowed.add(1)
        if status not in allowed:
            return "exit status %s (allowed: %s); stderr: %s" % (status, sorted(allowed), s.stderr()[-500:])
        if "Traceback" in s.stderr() and not (self.early and (status != 0 or lost_in_start_up(s.stderr()))):
            return "a traceback on stderr: %s" % s.stderr()[-800:]
        closed = []
        for line in lines:
            if not line.endswith(b"\n"):
                return "a torn frame: %r" % line[-200:]
            try:
                frame = s.checker.check_line(line)
            except (AssertionError, ValueError) as error:
                return "not a frame: %r (%s)" % (line[-200:], error)
            if isinstance(frame, dict) and frame.get("id") in self.listens and "result" in frame:
                closed.append(frame["id"])
        if s.checker.problems:
            return "frames against the schema: %s" % s.checker.problems[:3]
        if sorted(closed) != sorted(self.listens):
            return "listens %s closed, expected %s" % (closed, self.listens)
        return None


def test_randomized_signals_at_any_moment_end_the_server_with_0(server_command, hooked_command, repo_root,
                                                                 large_corpus, tmp_path):
    seed = int(os.environ.get("ADRKIT_SIGNAL_SEED") or random.SystemRandom().randrange(2 ** 32))
    rng = random.Random(seed)
    failures, moments = [], {}
    for number in range(TRIALS):
        marks = tmp_path / ("marks-%d" % number)
        marks.mkdir()
        trial = Trial(rng, number, server_command, hooked_command, repo_root, large_corpus, marks)
        try:
            problem = trial.outcome()
        finally:
            trial.session.kill()
            for thread in trial.session._threads:  # the pumps read to EOF before the pipes close
                thread.join(HANG_GUARD_S)
            for stream in (trial.session.proc.stdin, trial.session.proc.stdout, trial.session.proc.stderr):
                try:
                    stream.close()
                except OSError:
                    pass
        moments[trial.moment] = moments.get(trial.moment, 0) + 1
        if problem is not None:
            failures.append("%s: %s" % (trial.describe(), problem))
    hung = sum(1 for failure in failures if ": hung; " in failure)
    sys.stderr.write("signal trials: seed %d, %d trials %s, %d hung, %d failed\n"
                     % (seed, TRIALS, sorted(moments.items()), hung, len(failures)))
    assert not failures, "ADRKIT_SIGNAL_SEED=%d: %d of %d trials failed (%d hung):\n%s" % (
        seed, len(failures), TRIALS, hung, "\n".join(failures))
