"""subscriptions/listen (2026-07-28), admission while 64 calls run, and SIGTERM during the exit.

Every test drives the real server process; every frame it writes is checked by the frame
validator (tests/frame_validator.py, through tests/_session.py) against the official schema of
the revision its request spoke.
"""

import os
import signal
import time

import pytest

import _platforms as platforms  # why a test cannot hold on a platform
import _support as support

from _session import META, MODERN, REPO, Session, wait_for

LISTEN = "subscriptions/listen"
ACKNOWLEDGED = "notifications/subscriptions/acknowledged"
SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId"
SERVER_INFO = "io.modelcontextprotocol/serverInfo"
TOOLS_CHANGED = {"toolsListChanged": True}


@pytest.fixture(scope="module")
def server_command():
    module = os.environ.get("ADRKIT_MCP_MODULE") or str(REPO / "adrkit_mcp.py")  # as conftest's server_module
    return support.module_command(os.path.abspath(module))


@pytest.fixture
def repo_root(repo):
    """conftest's empty repository (a .git folder and docs/adr), as a path."""
    return repo.root


@pytest.fixture
def start(server_command, hooked_command, repo_root, tmp_path):
    """start(hooked=False) -> a Session on the shared empty repository; killed afterwards."""
    sessions = []
    marks = tmp_path / "marks"
    marks.mkdir()

    def run(hooked=False):
        command, env = server_command, None
        if hooked:
            command, env = hooked_command, {"WIRE_TEST_MARKS": str(marks)}
        session = Session(command, ["--cwd", repo_root], env=env)
        session.marks = marks
        sessions.append(session)
        return session
    yield run
    for session in sessions:
        session.kill()


def listen(session, rid, notifications=None):
    """Open a listen and return its acknowledgement (which must come first)."""
    session.request(rid, LISTEN, {"notifications": TOOLS_CHANGED if notifications is None
                                  else notifications}, modern=True)
    frame = session.recv()
    assert frame["method"] == ACKNOWLEDGED and "id" not in frame, frame
    assert frame["params"]["_meta"][SUBSCRIPTION_ID] == rid
    assert type(frame["params"]["_meta"][SUBSCRIPTION_ID]) is type(rid)
    return frame


def test_listen_is_acknowledged_with_nothing_honoured_and_ends_silently_on_cancel(start):
    s = start()
    ack = listen(s, 7, {"toolsListChanged": True, "promptsListChanged": True,
                        "resourceSubscriptions": ["file:///x"]})
    # No listChanged capability, so no type is honoured: every requested one is omitted.
    assert ack["params"]["notifications"] == {}
    assert s.call(8, "tools/list", modern=True)["result"]["tools"]  # the stream holds nothing up
    s.notify("notifications/cancelled", {"requestId": 7, "_meta": dict(META)})
    assert s.call(9, "server/discover", modern=True)["result"]["capabilities"] == {"tools": {}}
    status, _ = s.close()  # and no frame for listen 7, ever
    assert status == 0, s.stderr()


@platforms.SIGNALS
def test_several_listens_at_once_and_sigterm_completes_the_open_ones(start):
    s = start()
    for rid in ("a", 2, 3):
        listen(s, rid)
    s.notify("notifications/cancelled", {"requestId": 2})
    assert s.call(4, "tools/list", modern=True)["id"] == 4
    s.proc.send_signal(signal.SIGTERM)
    closed = {}
    for _ in range(2):
        frame = s.recv()
        assert frame["result"]["resultType"] == "complete", frame
        assert frame["result"]["_meta"][SUBSCRIPTION_ID] == frame["id"]
        assert SERVER_INFO in frame["result"]["_meta"]
        closed[frame["id"]] = frame
    assert sorted(closed, key=str) == [3, "a"]
    assert s.proc.wait(timeout=10) == 0
    status, _ = s.close()  # nothing after the two results, nothing for the cancelled listen
    assert status == 0 and s.stderr() == ""


def test_stdin_eof_closes_open_listens_without_a_response(start):
    s = start()
    listen(s, 1)
    status, _ = s.close()
    assert status == 0, s.stderr()


def test_listen_in_a_legacy_session_or_without_meta_is_unknown(start):
    s = start()
    assert s.error_code(1, LISTEN, {"notifications": TOOLS_CHANGED}) == -32601  # undecided, no claim
    s.initialize()
    assert s.error_code(2, LISTEN, {"notifications": TOOLS_CHANGED}) == -32601
    listen(s, 3)  # a modern-stamped request is judged on its own _meta, session or not (ADR 0002)
    status, _ = s.close()
    assert status == 0, s.stderr()


@pytest.mark.parametrize("params,code", [
    ({"notifications": TOOLS_CHANGED, "_meta": {"io.modelcontextprotocol/protocolVersion": "2099-01-01",
                                                "io.modelcontextprotocol/clientCapabilities": {}}}, -32022),
    ({"notifications": TOOLS_CHANGED, "_meta": {"io.modelcontextprotocol/protocolVersion": MODERN}}, -32602),
    ({"_meta": dict(META)}, -32602),
    ({"notifications": {"toolsListChanged": "yes"}, "_meta": dict(META)}, -32602),
    ({"notifications": {"resourceSubscriptions": [1]}, "_meta": dict(META)}, -32602),
], ids=["unsupported-version", "no-capabilities", "no-filter", "flag-not-boolean", "uri-not-string"])
def test_listen_follows_the_meta_rules_of_every_modern_request(start, params, code):
    s = start()
    assert s.error_code(1, LISTEN, params) == code
    status, _ = s.close()
    assert status == 0, s.stderr()


def test_a_listen_id_already_open_is_refused(start):
    s = start()
    listen(s, 5)
    assert s.error_code(5, LISTEN, {"notifications": {}}, modern=True) == -32600
    s.notify("notifications/cancelled", {"requestId": 5})
    listen(s, 5)  # a cancelled id may open a new stream
    status, _ = s.close()
    assert status == 0, s.stderr()


def test_at_most_64_listens_are_open_at_once(start):
    s = start()
    for rid in range(64):
        listen(s, rid)
    assert s.error_code(64, LISTEN, {"notifications": {}}, modern=True) == -32600
    s.notify("notifications/cancelled", {"requestId": 0})
    listen(s, 64)
    status, _ = s.close()
    assert status == 0, s.stderr()


def test_cancels_and_listens_get_through_while_64_calls_are_admitted(start):
    """The 65th call waits unadmitted; the reader keeps reading, so its cancel, a listen and a
    tools/list are all served, and a later call is admitted once a slot frees."""
    s = start(hooked=True)
    slow = {"name": "test_slow", "arguments": {"seconds": 120}}
    for rid in range(1, 65):
        s.request(rid, "tools/call", slow, modern=True)
    assert wait_for(s.marks / "started-")
    s.request(100, "tools/call", {"name": "test_echo", "arguments": {"text": "never"}}, modern=True)
    s.notify("notifications/cancelled", {"requestId": 100})
    s.request(101, "tools/call", {"name": "test_echo", "arguments": {"text": "admitted"}}, modern=True)
    listen(s, "listen")  # neither a slot nor a worker
    assert s.call(102, "tools/list", modern=True)["id"] == 102
    for rid in range(1, 65):
        s.notify("notifications/cancelled", {"requestId": rid})
    frame = s.recv(timeout=30)
    assert frame["id"] == 101 and frame["result"]["content"][0]["text"] == "admitted", frame
    status, _ = s.close()  # nothing for the 64 cancelled calls nor for call 100
    assert status == 0, s.stderr()


@platforms.SIGNALS
def test_a_client_past_the_waiting_room_is_held_back(start):
    """64 admitted and 16 waiting calls: the reader stops reading, so a tools/list behind them
    stays unread (the pipe holds the client back) while the process still ends on SIGTERM."""
    s = start(hooked=True)
    for rid in range(1, 65):
        s.request(rid, "tools/call", {"name": "test_slow", "arguments": {"seconds": 120}})
    assert wait_for(s.marks / "started-")  # serving, its signal handlers in place
    for rid in range(100, 116):
        s.request(rid, "tools/call", {"name": "test_echo", "arguments": {"text": "waiting"}})
    s.request(200, "tools/list")
    s.no_frame(wait=1.0)
    s.proc.send_signal(signal.SIGTERM)
    assert s.proc.wait(timeout=10) == 0, s.stderr()


class _Interrupted:
    """A server whose start() ends as the signal race ends it: the shutdown signal's exception
    raised inside a lock's acquire, and the `with` around it releasing the lock it no longer
    holds. The race itself cannot be scheduled; the next test runs the real one many times."""

    def __init__(self, chained):
        self.chained = chained

    def start(self):
        try:
            raise support.M._SignalShutdown(signal.SIGTERM) if self.chained else ValueError("no signal")
        except BaseException:
            raise RuntimeError("release unlocked lock")

    def close(self):
        pass


@pytest.mark.parametrize("chained, status, said", [(True, 0, ""), (False, 1, "stopped: RuntimeError")])
def test_an_error_raised_while_a_shutdown_signal_unwinds_is_the_signals_quiet_end(
        monkeypatch, capsys, chained, status, said):
    saved = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    monkeypatch.setattr(support.M, "create_server", lambda **_: _Interrupted(chained))
    try:
        assert support.M.run_server(None, None, 0) == status
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)
    assert said in capsys.readouterr().err


@platforms.SIGNALS
@pytest.mark.parametrize("delay_ms", [0, 1, 2, 5, 10, 20])
def test_sigterm_while_exiting_after_eof_still_exits_0(server_command, repo_root, delay_ms):
    """A client that closes stdin and then sends SIGTERM (the TypeScript v2 client's discovery
    probe does) must see status 0 whenever the signal lands.  The sleep is the client's timing,
    the input of the race; only the exit status is asserted."""
    for _ in range(5):
        s = Session(server_command, ["--cwd", repo_root])
        try:
            assert s.call(1, "ping")["result"] == {}
            s.proc.stdin.close()
            time.sleep(delay_ms / 1000.0)
            s.proc.send_signal(signal.SIGTERM)
            assert s.proc.wait(timeout=10) == 0, s.stderr()
        finally:
            s.kill()
