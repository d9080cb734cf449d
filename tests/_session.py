"""The stdio session of the tests: one real server process, every frame it writes checked.

`Session(command, args)` starts the server and checks each stdout line with the project's frame
validator (tests/frame_validator.py) against the official MCP schema of the revision the request
was made in (the copies in tests/data/mcp-schema/).  The fixtures `open_session`, `session` and
`hooked` (tests/conftest.py) start Sessions on an empty repository.

This is the one home of the wire helpers several test files share; a test file imports it as

    import _session as wire

(or `from _session import Session, META, ...`), never another test file.
"""

import functools
import json
import os
import queue
import signal
import subprocess
import time
from pathlib import Path

import _support as support  # tests/ is on sys.path (pytest rootdir insertion)
from frame_validator import (  # noqa: F401  (re-exported: the names test files use)
    ACKNOWLEDGED, ALLOWED_ERROR_CODES, CAPS, LEGACY_REVS, META, MODERN, NULL_ID_REVS, PV,
    RESULT_DEFS, SCHEMA_DIR, SERVER_INFO, SUBSCRIPTION_ID, FrameChecker, Schemas, id_key,
    modern_claim, official_schemas)

REPO = Path(__file__).resolve().parents[1]
# The interpreter that runs the server process: $ADRKIT_MCP_PYTHON, else the one running pytest.
SERVER_PYTHON = support.SERVER_PYTHON
TOOL_NAMES = ["get_decision", "get_decision_context", "list_superseded", "search_decisions"]
PING = b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n'


class Session(object):
    """One server process; frames are checked as they are received."""

    def __init__(self, command, args, env=None, stdout=subprocess.PIPE, sigint=signal.SIG_DFL):
        full_env = dict(os.environ)
        full_env.pop("ADRKIT_MCP_CWD", None)
        full_env.pop("ADRKIT_MCP_DIR", None)
        full_env.update(env or {})
        # The child starts with the SIGINT disposition a client in the foreground gives it, not
        # the one pytest inherited (a background job or nohup runs pytest with SIGINT ignored,
        # and an ignored SIGINT stays ignored in the server, as documented).
        self.proc = subprocess.Popen(list(command) + list(args), stdin=subprocess.PIPE, stdout=stdout,
                                     stderr=subprocess.PIPE, env=full_env,
                                     # No preexec_fn on Windows, where SIGINT comes only from a console.
                                     preexec_fn=(functools.partial(signal.signal, signal.SIGINT, sigint)
                                                 if os.name == "posix" else None))
        self.checker = FrameChecker()
        self.lines = queue.Queue()
        self.stderr_chunks = []
        self._threads = [support.pump_chunks(self.proc.stderr, self.stderr_chunks)]
        if stdout is subprocess.PIPE:
            self._threads.append(support.pump_lines(self.proc.stdout, self.lines))

    # -- sending ---------------------------------------------------------

    def send(self, msg):
        self.checker.sent(msg)
        self.write(json.dumps(msg, ensure_ascii=False).encode("utf-8") + b"\n")

    def send_raw(self, line):
        """Write raw bytes (a newline is added unless already there)."""
        try:
            self.checker.sent(json.loads(line.decode("utf-8")))
        except (ValueError, UnicodeDecodeError, RecursionError):
            pass
        self.write(line if line.endswith(b"\n") else line + b"\n")

    def write(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def request(self, rid, method, params=None, modern=False):
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if modern:
            params = dict(params or {}, _meta=dict(META))
        if params is not None:
            msg["params"] = params
        self.send(msg)

    def notify(self, method, params=None):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)

    def initialize(self, version="2025-11-25"):
        self.request(0, "initialize", {"protocolVersion": version, "capabilities": {},
                                       "clientInfo": {"name": "wire-tests", "version": "1"}})
        frame = self.recv()
        assert frame["result"]["protocolVersion"] == version, frame
        self.notify("notifications/initialized")
        return frame

    # -- receiving -------------------------------------------------------

    def recv(self, timeout=10.0):
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("no frame within %.1f s; stderr: %s" % (timeout, self.stderr()))
        assert line is not None, "stdout closed; stderr: %s" % self.stderr()
        frame = self.checker.check_line(line)
        assert not self.checker.problems, self.checker.problems
        return frame

    def call(self, rid, method, params=None, modern=False, timeout=10.0):
        self.request(rid, method, params, modern)
        frame = self.recv(timeout)
        assert isinstance(frame, dict) and frame.get("id") == rid and \
            type(frame.get("id")) is type(rid), frame
        return frame

    def error_code(self, rid, method, params=None, modern=False):
        frame = self.call(rid, method, params, modern)
        assert "error" in frame, frame
        return frame["error"]["code"]

    def no_frame(self, wait=0.4):
        try:
            line = self.lines.get(timeout=wait)
        except queue.Empty:
            return
        raise AssertionError("unexpected frame: %r" % (line,))

    def stderr(self):
        return b"".join(self.stderr_chunks).decode("utf-8", "replace")

    def close(self, timeout=5.0):
        """Close stdin (the shutdown signal); return (exit status, seconds)."""
        started = time.monotonic()
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        status = self.proc.wait(timeout=timeout)
        elapsed = time.monotonic() - started
        for t in self._threads:
            t.join(timeout=2)
        while True:  # frames written before the exit are still checked
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                break
            if line is not None:
                raise AssertionError("frame after the last expected one: %r" % (line,))
        assert not self.checker.problems, self.checker.problems
        return status, elapsed

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def unread(pipe):
    """Bytes written to a pipe that its reader has not taken yet (Linux FIONREAD)."""
    import fcntl
    import struct
    import termios
    return struct.unpack("i", fcntl.ioctl(pipe.fileno(), termios.FIONREAD, b"\0" * 4))[0]


def wait_for(path, timeout=5.0):
    """Whether `path` exists within `timeout` seconds (a hang guard: polls, returns early)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists():
            return True
        time.sleep(0.01)
    return False


def run_cli(command, args, env=None, stdin=b"", timeout=10):
    """Run the server command once with `stdin` as its input; the CompletedProcess (bytes)."""
    full_env = dict(os.environ)
    full_env.pop("ADRKIT_MCP_CWD", None)
    full_env.pop("ADRKIT_MCP_DIR", None)
    full_env.update(env or {})
    return subprocess.run(list(command) + list(args), input=stdin, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=full_env, timeout=timeout)
