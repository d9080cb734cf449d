"""Wire-layer tests: stdio framing, JSON-RPC, both MCP eras, cancellation,
timeouts, lifecycle, the command line and the embedding API.

Every test drives the real server process (or, for the embedding API, the
module loaded in-process) and every frame the server writes in a protocol
test is validated against the official JSON Schema of the revision the
request was made in (tests/data/mcp-schema/<rev>/schema.json, checked by the project's frame
validator, tests/frame_validator.py).

Which module is tested: $ADRKIT_MCP_MODULE if set, else adrkit_mcp.py at the
repository root.  Tests
that need a slow or misbehaving tool run the module through a small wrapper
that patches `call_tool` with test tools (names starting "test_"); the wire
layer looks `call_tool` up at call time, so this works for the real module.
$ADRKIT_MCP_PYTHON picks the interpreter that runs the server process.

The MUSTs of the wire checklist (the MCP specification's requirements for a dual-era stdio
server, by section: 1 framing, 2 JSON-RPC, 3 legacy lifecycle, 4 modern era, 5 choosing the era,
6 tools, 7 cancellation) map to tests named test_m_<section>_* (SHOULDs: test_s_<section>_*).
"""

import fnmatch
import functools  # noqa: F401  (kept for tests merged from other branches)
import json
import shutil
import os
import queue  # noqa: F401
import signal
import subprocess
import sys  # noqa: F401
import threading
import time  # noqa: F401
from pathlib import Path  # noqa: F401

import pytest

import _platforms as platforms  # why a test cannot hold on a platform

import _support as support  # tests/ is on sys.path (pytest rootdir insertion)
import conformance_harness as harness

# The stdio Session, the frame validator's constants and the small helpers live in tests/_session.py
# (the one home of the helpers several test files share); the fixtures open_session, session and
# hooked, and server_module, server_command, hooked_command, repo_root, marks and module, live in
# tests/conftest.py.
from _session import (  # noqa: F401  (every name test_wire.py defined before the move)
    ACKNOWLEDGED, ALLOWED_ERROR_CODES, CAPS, LEGACY_REVS, META, MODERN, NULL_ID_REVS, PING, PV, REPO,
    RESULT_DEFS, SCHEMA_DIR, SERVER_INFO, SERVER_PYTHON, SUBSCRIPTION_ID, TOOL_NAMES, FrameChecker,
    Schemas, Session, id_key, modern_claim, official_schemas, run_cli, unread as _unread, wait_for)


def test_official_schemas_are_in_the_repository():
    """Every protocol test validates frames with these; they ship with the repository."""
    schemas = official_schemas()
    for rev in ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", MODERN):
        assert schemas.has(rev, "JSONRPCResponse") or schemas.has(rev, "JSONRPCResultResponse"), rev


# ---------------------------------------------------------------------------
# §1 stdio framing
# ---------------------------------------------------------------------------

def test_m_1_each_message_is_one_json_line_ending_in_newline(hooked):
    """Frames are single lines of UTF-8 JSON; strings with newlines, U+2028,
    non-ASCII and lone surrogates cannot break a frame or the writer."""
    s = hooked()
    for rid, text in enumerate([u"line one\nline two\r\n", u"sep\u2028par\u2029end",
                                u"d\u00e9cision \u2014 \u00fc \U0001F3AB"], 1):
        frame = s.call(rid, "tools/call", {"name": "test_echo", "arguments": {"text": text}})
        assert frame["result"]["content"][0]["text"] == text
    s.send_raw(b'{"jsonrpc":"2.0","id":9,"method":"tools/call",'
               b'"params":{"name":"test_echo","arguments":{"text":"\\ud800lone"}}}')
    frame = s.recv()
    assert frame["id"] == 9 and frame["result"]["content"][0]["text"] == u"\ud800lone"
    assert s.close()[0] == 0


def test_m_1_input_is_split_on_newline_only(session):
    """U+2028/U+2029 (and a lone CR) inside a line never split it."""
    rid = u"a\u2028b\u2029c"
    line = json.dumps({"jsonrpc": "2.0", "id": rid, "method": "ping"}, ensure_ascii=False)
    session.send_raw(line.encode("utf-8"))
    assert session.recv() == {"jsonrpc": "2.0", "id": rid, "result": {}}
    session.send_raw(b'{"jsonrpc":"2.0",\r"id":2,"method":"ping"}')
    assert session.recv()["id"] == 2


def test_crlf_blank_and_whitespace_lines_are_tolerated(session):
    session.write(b"\n\r\n   \t \n")
    session.send_raw(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\r\n')
    assert session.recv() == {"jsonrpc": "2.0", "id": 1, "result": {}}
    session.no_frame(0.2)


@platforms.FIONREAD
def test_split_and_coalesced_writes(session):
    session.checker.sent({"id": 1, "method": "ping"})
    session.checker.sent({"id": 2, "method": "ping"})
    session.write(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n')
    assert [session.recv()["id"], session.recv()["id"]] == [1, 2]
    session.checker.sent({"id": 3, "method": "ping"})
    session.write(b'{"jsonrpc":"2.0","i')
    assert support.wait_until(lambda: _unread(session.proc.stdin) == 0), "the half line was not read"
    session.write(b'd":3,"method":"ping"}\n')
    assert session.recv()["id"] == 3


def test_unterminated_last_line_is_not_a_message(open_session):
    """Our choice (spec silent): a tail without its newline at EOF is dropped."""
    s = open_session()
    s.write(b'{"jsonrpc":"2.0","id":1,"method":"ping"}')
    status, _ = s.close()
    assert status == 0


def test_m_1_stdout_carries_only_protocol_frames(hooked):
    """Something print()ed inside a tool lands on stderr, never on stdout."""
    s = hooked()
    frame = s.call(1, "tools/call", {"name": "test_print", "arguments": {}})
    assert frame["result"]["content"][0]["text"] == "printed"
    assert s.close()[0] == 0
    assert "stray output from a tool" in s.stderr()


def test_s_1_exit_promptly_on_stdin_eof(open_session):
    s = open_session()
    s.initialize()
    status, _ = s.close()  # close() waits at most 5 s: a hang guard
    assert status == 0
    assert s.stderr() == ""


def test_s_1_exit_on_eof_abandons_in_flight_calls_quietly(hooked, marks):
    """stdin EOF is the shutdown: exit 0, nothing on stderr, the call unanswered."""
    s = hooked()
    s.initialize()
    s.request(1, "tools/call", {"name": "test_slow", "arguments": {"seconds": 10}})
    assert wait_for(marks / "started-")
    status, _ = s.close()  # close() waits at most 5 s: a hang guard
    assert status == 0
    assert s.stderr() == ""
    assert not (marks / "finished-").exists()


def test_s_1_epipe_exits_nonzero_with_one_line_on_stderr(server_command, repo_root):
    proc = subprocess.Popen(server_command + ["--cwd", repo_root], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        proc.stdout.close()  # the client stops reading: the next write gets EPIPE
        proc.stdin.write(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n')
        proc.stdin.flush()
        status = proc.wait(timeout=10)  # EPIPE ends it with stdin still open (hang guard)
        err = proc.stderr.read().decode("utf-8", "replace")
    finally:
        if proc.poll() is None:
            proc.kill()
    assert status != 0
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err


def test_line_over_cap_is_refused_and_serving_continues(open_session):
    """A line over 1 MiB gets -32600 (no id before a handshake); a 1 MB line is fine."""
    s = open_session()
    big = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"' + b"x" * 1000000 + b'"}}'
    s.send_raw(big)
    assert s.recv() == {"jsonrpc": "2.0", "id": 1, "result": {}}
    huge = b'{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"' + b"x" * (1024 * 1024) + b'"}}'
    s.write(huge + b"\n")
    frame = s.recv()
    assert frame["error"]["code"] == -32600 and "id" not in frame
    assert s.call(3, "ping")["result"] == {}


def _peak_rss_kib(pid):
    with open("/proc/%d/status" % pid) as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise AssertionError("no VmHWM")


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux /proc")
def test_ten_megabyte_line_is_read_in_bounded_memory(open_session):
    s = open_session()
    s.call(1, "ping")
    before = _peak_rss_kib(s.proc.pid)
    s.write(b'{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"')
    block = b"y" * (1024 * 1024)
    for _ in range(10):
        s.write(block)
    s.write(b'"}}\n')
    frame = s.recv()
    assert frame["error"]["code"] == -32600
    assert s.call(3, "ping")["result"] == {}
    grown = _peak_rss_kib(s.proc.pid) - before
    assert grown < 4 * 1024, "peak RSS grew by %d KiB for a 10 MiB line" % grown
    assert s.close()[0] == 0


# ---------------------------------------------------------------------------
# §2 JSON-RPC 2.0
# ---------------------------------------------------------------------------

def test_m_2_ids_are_echoed_with_their_type(session):
    for rid in ["abc", 0, -7, 5, "5", 9007199254740993, ""]:
        frame = session.call(rid, "ping")
        assert frame["result"] == {}
    session.send_raw(b'{"jsonrpc":"2.0","id":1e2,"method":"ping"}')
    frame = session.recv()
    assert frame["id"] == 100 and type(frame["id"]) is int


def test_m_2_ids_5_and_string_5_are_different_requests(hooked):
    s = hooked()
    s.request(5, "tools/call", {"name": "test_slow", "arguments": {"seconds": 0.3}})
    s.request("5", "tools/call", {"name": "test_slow", "arguments": {"seconds": 0.1}})
    ids = [s.recv()["id"], s.recv()["id"]]
    assert sorted(ids, key=repr) == sorted([5, "5"], key=repr)


def test_m_2_one_response_per_request_result_xor_error(session):
    """Checked on every frame by FrameChecker; here a mixed sequence."""
    session.call(1, "ping")
    session.call(2, "nope")
    session.call(3, "tools/list")
    session.no_frame(0.2)


def test_m_2_notifications_are_never_answered(session):
    session.notify("notifications/initialized")
    session.notify("notifications/unknown", {"x": 1})
    session.notify("notifications/cancelled", {"requestId": 42})
    session.notify("notifications/cancelled")
    session.notify("ping")
    session.notify("tools/list", {"_meta": dict(META)})
    session.notify("notifications/unknown", {"_meta": {PV: "1900-01-01", CAPS: {}}})
    session.no_frame(0.4)
    assert session.call(1, "ping")["result"] == {}


def test_m_2_response_shaped_input_is_never_answered(session):
    session.send_raw(b'{"jsonrpc":"2.0","id":7,"result":{}}')
    session.send_raw(b'{"jsonrpc":"2.0","id":8,"error":{"code":-32601,"message":"x"}}')
    session.send_raw(b'{"jsonrpc":"2.0","error":{"code":-32700,"message":"x"}}')
    session.checker.pending.clear()
    session.no_frame(0.3)
    assert session.call(1, "ping")["result"] == {}


PARSE_ERROR_LINES = [
    ("garbage", b"garbage"),
    ("truncated", b'{"jsonrpc":"2.0","id":2,'),
    ("invalid-utf8-outside", b'\xff{"jsonrpc":"2.0","id":2,"method":"ping"}'),
    ("invalid-utf8-inside", b'{"jsonrpc":"2.0","id":2,"method":"ping","params":{"q":"\xff\xfe"}}'),
    ("bom", b'\xef\xbb\xbf{"jsonrpc":"2.0","id":2,"method":"ping"}'),
    ("nan", b'{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":NaN}}'),
    ("deep-array", b"[" * 10000 + b"]" * 10000),
    ("deep-object", b'{"a":' * 10000 + b"1" + b"}" * 10000),
]


def test_parse_error_is_answered_with_32700(session):
    """Unparsable lines get -32700 (the reference stays silent: J01, J02, F10);
    invalid UTF-8 anywhere, a BOM, NaN and nesting deeper than the parser
    allows are parse errors too.  The connection keeps serving after each."""
    for rid, (case, line) in enumerate(PARSE_ERROR_LINES, 1):
        session.send_raw(line)
        frame = session.recv()
        assert frame["error"]["code"] == -32700 and "id" not in frame, case
        assert session.call(rid, "ping")["result"] == {}, case


INVALID_REQUEST_LINES = [
    ("no-jsonrpc", b'{"id":1,"method":"ping"}', 1),
    ("jsonrpc-1.0", b'{"jsonrpc":"1.0","id":1,"method":"ping"}', 1),
    ("method-number", b'{"jsonrpc":"2.0","id":1,"method":5}', 1),
    ("method-number-notification", b'{"jsonrpc":"2.0","method":1,"params":"bar"}', None),
    ("id-null", b'{"jsonrpc":"2.0","id":null,"method":"ping"}', None),
    ("id-fractional", b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}', None),
    ("id-object", b'{"jsonrpc":"2.0","id":{},"method":"ping"}', None),
    ("id-bool", b'{"jsonrpc":"2.0","id":true,"method":"ping"}', None),
    ("params-string", b'{"jsonrpc":"2.0","id":1,"method":"ping","params":"bar"}', 1),
    ("params-null", b'{"jsonrpc":"2.0","id":1,"method":"ping","params":null}', 1),
    ("no-method", b'{"jsonrpc":"2.0","id":1}', 1),
    ("empty-object", b"{}", None),
    ("empty-array", b"[]", None),
    ("scalar", b"42", None),
    ("string", b'"ping"', None),
]


def test_invalid_request_is_answered_with_32600(session):
    """Structurally invalid messages get -32600 (the reference is silent: J03-J11,
    J16-J18); the id is echoed when it is a legal id, else omitted before a
    handshake.  The connection keeps serving after each."""
    for rid, (case, line, echo) in enumerate(INVALID_REQUEST_LINES, 100):
        session.send_raw(line)
        frame = session.recv()
        assert frame["error"]["code"] == -32600, case
        if echo is None:
            assert "id" not in frame, case
        else:
            assert frame["id"] == echo, case
        assert session.call(rid, "ping")["result"] == {}, case


def test_m_2_unknown_method_is_32601(session):
    session.initialize()
    for rid, method in enumerate(["foo/bar", "", "resources/list", "prompts/list", "logging/setLevel",
                                  "completion/complete", "server/discover"], 1):
        assert session.error_code(rid, method) == -32601


def test_m_2_bad_params_are_32602(session):
    session.initialize()
    session.send_raw(b'{"jsonrpc":"2.0","id":1,"method":"ping","params":[1,2]}')
    assert session.recv()["error"]["code"] == -32602
    assert session.error_code(2, "tools/call", {"arguments": {}}) == -32602
    assert session.error_code(3, "tools/call", {"name": 5}) == -32602
    assert session.error_code(4, "tools/call", {"name": "list_superseded", "arguments": "x"}) == -32602
    assert session.error_code(5, "tools/call", {"name": "list_superseded", "arguments": None}) == -32602
    assert session.error_code(6, "tools/call", {"name": "list_superseded", "arguments": [1]}) == -32602
    assert session.error_code(7, "tools/call") == -32602


def test_internal_errors_are_32603(hooked):
    s = hooked()
    assert s.error_code(1, "tools/call", {"name": "test_crash", "arguments": {}}) == -32603
    assert s.error_code(2, "tools/call", {"name": "test_nan", "arguments": {}}) == -32603
    assert s.error_code(3, "tools/call", {"name": "test_bad_result", "arguments": {}}) == -32603
    assert s.call(4, "ping")["result"] == {}
    assert s.close()[0] == 0
    assert "Traceback" not in s.stderr()


@pytest.mark.parametrize("version,null_id", [
    ("2024-11-05", True), ("2025-03-26", True), ("2025-06-18", True), ("2025-11-25", False)])
def test_unknown_id_error_is_null_only_in_older_sessions(open_session, version, null_id):
    s = open_session()
    s.initialize(version)
    s.send_raw(b"garbage")
    frame = s.recv()
    assert frame["error"]["code"] == -32700
    if null_id:
        assert "id" in frame and frame["id"] is None
    else:
        assert "id" not in frame


def test_unknown_id_error_omits_id_in_modern_sessions(session):
    session.call(1, "tools/list", modern=True)
    session.send_raw(b'{"jsonrpc":"2.0","method":1,"params":"bar"}')
    frame = session.recv()
    assert frame["error"]["code"] == -32600 and "id" not in frame


def test_m_2_error_codes_are_integers_outside_the_reserved_range(session):
    """FrameChecker allows only -32700/-32600/-32601/-32602/-32603/-32022."""
    session.call(1, "foo")
    session.call(2, "tools/list", {"_meta": {PV: "1900-01-01", CAPS: {}}})
    session.send_raw(b"x")
    frame = session.recv()
    assert isinstance(frame["error"]["code"], int)


def test_batch_is_answered_with_an_array_in_2025_03_26(hooked):
    s = hooked()
    s.initialize("2025-03-26")
    s.send([{"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            {"jsonrpc": "2.0", "id": 2, "method": "ping"},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
             "params": {"name": "test_slow", "arguments": {"seconds": 0.2}}},
            {"jsonrpc": "2.0", "id": 4, "method": "initialize",
             "params": {"protocolVersion": "2025-03-26", "capabilities": {}}},
            {"jsonrpc": "2.0", "id": None, "method": "ping"}])
    frames = s.recv()
    assert isinstance(frames, list)
    by_id = {json.dumps(f.get("id")): f for f in frames}
    assert set(by_id) == {"1", "2", "3", "4", "null"}
    assert by_id["2"]["result"] == {} and by_id["3"]["result"]["content"][0]["text"] == "slow done"
    assert by_id["4"]["error"]["code"] == -32600  # initialize MUST NOT be in a batch
    assert by_id["null"]["error"]["code"] == -32600
    s.send([{"jsonrpc": "2.0", "method": "notifications/initialized"}])
    s.no_frame(0.3)
    s.send_raw(b"[]")
    frame = s.recv()
    assert frame["error"]["code"] == -32600 and frame["id"] is None


@pytest.mark.parametrize("version", [None, "2024-11-05", "2025-06-18", "2025-11-25", "modern"])
def test_batch_is_rejected_outside_2025_03_26(open_session, version):
    s = open_session()
    if version == "modern":
        s.call(1, "tools/list", modern=True)
    elif version:
        s.initialize(version)
    s.send_raw(b'[{"jsonrpc":"2.0","id":7,"method":"ping"}]')
    frame = s.recv()
    assert isinstance(frame, dict) and frame["error"]["code"] == -32600
    assert frame.get("id", "absent") == (None if version in NULL_ID_REVS else "absent")
    s.no_frame(0.2)


def test_m_2_no_server_to_client_requests(hooked):
    """FrameChecker fails on any frame with a method; exercise every path once."""
    s = hooked()
    s.initialize()
    s.call(1, "tools/list")
    s.call(2, "tools/call", {"name": "list_superseded", "arguments": {}})
    s.call(3, "tools/call", {"name": "list_superseded", "arguments": {}}, modern=True)
    s.call(4, "server/discover", modern=True)
    assert s.close()[0] == 0


# ---------------------------------------------------------------------------
# §3 legacy lifecycle
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("asked,answered", [
    ("2024-11-05", "2024-11-05"), ("2025-03-26", "2025-03-26"), ("2025-06-18", "2025-06-18"),
    ("2025-11-25", "2025-11-25"), ("1999-01-01", "2025-11-25"), ("2026-07-28", "2025-11-25")])
def test_m_3_initialize_negotiates_the_version(session, asked, answered):
    frame = session.call(1, "initialize", {"protocolVersion": asked, "capabilities": {},
                                           "clientInfo": {"name": "t", "version": "1"}})
    result = frame["result"]
    assert result["protocolVersion"] == answered
    assert result["serverInfo"]["name"] and result["serverInfo"]["version"]
    assert "tools" in result["capabilities"]


def test_m_3_capabilities_declare_only_tools_without_list_changed(session):
    frame = session.call(1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                           "clientInfo": {"name": "t", "version": "1"}})
    assert frame["result"]["capabilities"] == {"tools": {}}
    discover = session.call(2, "server/discover", modern=True)
    assert discover["result"]["capabilities"] == {"tools": {}}


def test_m_3_ping_is_answered_before_and_after_initialize(session):
    assert session.call(1, "ping")["result"] == {}
    session.initialize()
    assert session.call(2, "ping")["result"] == {}
    assert session.call(3, "ping", {})["result"] == {}


@pytest.mark.parametrize("params", [None, {}, {"protocolVersion": 2025, "capabilities": {}},
                                    {"protocolVersion": "2025-11-25"},
                                    {"protocolVersion": "2025-11-25", "capabilities": []},
                                    {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": "x"}])
def test_malformed_initialize_is_32602(session, params):
    """The reference answers -32603 with a validation dump (L07, L08); invalid params are -32602."""
    assert session.error_code(1, "initialize", params) == -32602


def test_requests_before_initialize_are_served_as_legacy(session):
    """Our choice (implementation-defined): tools/list and tools/call work pre-handshake."""
    frame = session.call(1, "tools/list")
    assert [t["name"] for t in frame["result"]["tools"]] == TOOL_NAMES
    assert "resultType" not in frame["result"]
    frame = session.call(2, "tools/call", {"name": "list_superseded"})
    assert "isError" not in frame["result"] and "_meta" not in frame["result"]


def test_second_initialize_renegotiates(session):
    session.initialize("2025-11-25")
    frame = session.call(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}})
    assert frame["result"]["protocolVersion"] == "2025-06-18"


# ---------------------------------------------------------------------------
# §4 modern era
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("meta", [
    {CAPS: {}},
    {PV: MODERN},
    {PV: 20260728, CAPS: {}},
    {PV: MODERN, CAPS: "none"},
    {PV: MODERN, CAPS: None},
], ids=["no-version", "no-capabilities", "version-number", "capabilities-string", "capabilities-null"])
def test_m_4_missing_or_malformed_meta_keys_are_32602(session, meta):
    assert session.error_code(1, "tools/list", {"_meta": meta}) == -32602


def test_m_4_client_info_is_optional(session):
    frame = session.call(1, "tools/list", {"_meta": {PV: MODERN, CAPS: {}}})
    assert frame["result"]["resultType"] == "complete"
    frame = session.call(2, "tools/list", {"_meta": {PV: MODERN, CAPS: {},
                                                     "io.modelcontextprotocol/clientInfo": {"name": "x",
                                                                                           "version": "1"},
                                                     "com.example/extra": 1}})
    assert frame["result"]["resultType"] == "complete"


def test_m_4_every_request_is_judged_on_its_own_meta(session):
    """After a valid modern request, a claim of 1900-01-01 or 2025-11-25 still gets
    -32022 (the reference serves them: M24, M36) and a missing _meta -32602."""
    session.call(1, "tools/call", {"name": "list_superseded", "arguments": {}}, modern=True)
    for rid, version in [(2, "1900-01-01"), (3, "2025-11-25"), (4, "2099-01-01")]:
        frame = session.call(rid, "tools/call", {"name": "list_superseded", "arguments": {},
                                                 "_meta": {PV: version, CAPS: {}}})
        assert frame["error"]["code"] == -32022
        assert frame["error"]["data"] == {"supported": [MODERN], "requested": version}
    assert session.error_code(5, "tools/list") == -32602
    assert session.error_code(6, "tools/list", {"_meta": {PV: MODERN}}) == -32602
    assert "result" in session.call(7, "tools/list", modern=True)


def test_m_4_unsupported_version_on_the_first_request_is_32022(session):
    frame = session.call(1, "tools/list", {"_meta": {PV: "1900-01-01", CAPS: {}}})
    assert frame["error"]["code"] == -32022
    assert frame["error"]["data"] == {"supported": [MODERN], "requested": "1900-01-01"}
    frame = session.call(2, "server/discover", {"_meta": {PV: "2099-01-01", CAPS: {}}})
    assert frame["error"]["data"]["requested"] == "2099-01-01"
    # an unknown version is judged before the rest of the envelope
    assert session.error_code(3, "tools/list", {"_meta": {PV: "2099-01-01"}}) == -32022


def test_m_4_server_discover(session):
    result = session.call(1, "server/discover", modern=True)["result"]
    assert result["supportedVersions"] == [MODERN]
    assert result["capabilities"] == {"tools": {}}
    assert result["resultType"] == "complete"
    assert result["ttlMs"] == 300000 and result["cacheScope"] == "public"
    assert result["_meta"][SERVER_INFO]["name"]
    again = session.call(2, "server/discover", modern=True)["result"]
    assert again == result


def test_m_4_supported_is_a_subset_of_supported_versions(session):
    discover = session.call(1, "server/discover", modern=True)["result"]
    error = session.call(2, "tools/list", {"_meta": {PV: "1900-01-01", CAPS: {}}})["error"]
    assert set(error["data"]["supported"]) <= set(discover["supportedVersions"])


def test_m_4_every_modern_result_has_result_type_and_server_info(session):
    """FrameChecker checks this on every modern result; here one of each."""
    for rid, method, params in [(1, "server/discover", None), (2, "tools/list", None),
                                (3, "tools/call", {"name": "list_superseded", "arguments": {}}),
                                (4, "tools/call", {"name": "search_decisions",
                                                   "arguments": {"query": "x", "bogus": 1}})]:
        result = session.call(rid, method, params, modern=True)["result"]
        assert result["resultType"] == "complete"
        assert set(result["_meta"][SERVER_INFO]) >= {"name", "version"}
    assert result["isError"] is True


def test_m_4_tools_list_has_cache_hints_and_a_stable_order(session):
    session.initialize()  # first, so the legacy answer can be compared below
    first = session.call(1, "tools/list", modern=True)["result"]
    assert first["ttlMs"] == 300000 and first["cacheScope"] == "public"
    names = [t["name"] for t in first["tools"]]
    assert names == TOOL_NAMES == sorted(TOOL_NAMES, key=lambda n: n.encode("utf-16-be"))
    assert "nextCursor" not in first
    second = session.call(2, "tools/list", modern=True)["result"]
    assert second == first
    legacy = session.call(3, "tools/list")["result"]
    assert legacy == {"tools": first["tools"]}


@pytest.mark.parametrize("method", ["ping", "logging/setLevel", "initialize", "resources/subscribe",
                                    "resources/list", "foo/bar"])
def test_m_4_removed_and_unknown_methods_with_modern_meta_are_32601(session, method):
    assert session.error_code(1, method, {"level": "info", "protocolVersion": "2025-11-25",
                                          "capabilities": {}}, modern=True) == -32601


def test_invalid_cursor_is_32602(session):
    """Pagination SHOULD: the reference returns the full list for a bogus cursor (L19, M19)."""
    session.initialize()
    assert session.error_code(1, "tools/list", {"cursor": "bogus"}) == -32602
    assert session.error_code(2, "tools/list", {"cursor": "bogus"}, modern=True) == -32602


def test_m_4_no_log_notifications(session):
    """Nothing but responses is ever written (FrameChecker rejects notifications)."""
    session.call(1, "tools/call", {"name": "search_decisions", "arguments": {"query": "x"},
                                   "_meta": dict(META, **{"io.modelcontextprotocol/logLevel": "debug",
                                                          "progressToken": "p1"})})
    session.no_frame(0.3)


# ---------------------------------------------------------------------------
# §5 choosing the era
# ---------------------------------------------------------------------------

def test_m_5_plain_initialize_after_modern_requests_is_32022(session):
    session.call(1, "tools/list", modern=True)
    frame = session.call(2, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                           "clientInfo": {"name": "t", "version": "1"}})
    assert frame["error"]["code"] == -32022
    assert frame["error"]["data"] == {"supported": [MODERN], "requested": "2025-11-25"}


def test_m_5_initialize_after_only_a_discover_probe_is_accepted(session):
    session.call(1, "server/discover", modern=True)
    frame = session.call(2, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                           "clientInfo": {"name": "t", "version": "1"}})
    assert frame["result"]["protocolVersion"] == "2025-11-25"
    assert "resultType" not in session.call(3, "tools/list")["result"]


def test_m_5_initialize_with_modern_meta_is_32601(session):
    assert session.error_code(1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                                "clientInfo": {"name": "t", "version": "1"}},
                              modern=True) == -32601


def test_m_5_modern_request_in_a_legacy_session_gets_a_modern_answer(session):
    """Never a legacy shape for a modern-stamped request (the reference does that: L33, L32)."""
    session.initialize()
    result = session.call(1, "tools/list", modern=True)["result"]
    assert result["resultType"] == "complete" and result["ttlMs"] == 300000
    assert session.call(2, "server/discover", modern=True)["result"]["supportedVersions"] == [MODERN]
    frame = session.call(3, "tools/list", {"_meta": {PV: "2025-11-25", CAPS: {}}})
    assert frame["error"]["code"] == -32022
    assert "resultType" not in session.call(4, "tools/list")["result"]  # the legacy session goes on


def test_m_5_discover_without_meta_is_legacy_traffic(session):
    assert session.error_code(1, "server/discover") == -32601


# ---------------------------------------------------------------------------
# §6 tools (the wire part)
# ---------------------------------------------------------------------------

def test_m_6_tools_list_shape(session):
    session.initialize()
    tools = session.call(1, "tools/list")["result"]["tools"]
    assert [t["name"] for t in tools] == TOOL_NAMES
    for tool in tools:
        assert tool["inputSchema"]["type"] == "object"
        assert tool["annotations"]["readOnlyHint"] is True


def test_m_6_unknown_tool_is_a_protocol_error(session):
    session.initialize()
    assert session.error_code(1, "tools/call", {"name": "no_such_tool", "arguments": {}}) == -32602
    assert session.error_code(2, "tools/call", {"name": "GET_DECISION", "arguments": {}}) == -32602
    assert session.error_code(3, "tools/call", {"name": "no_such_tool", "arguments": {}},
                              modern=True) == -32602


def test_m_6_arguments_may_be_absent_and_input_errors_are_results(session):
    session.initialize()
    result = session.call(1, "tools/call", {"name": "list_superseded"})["result"]
    assert "isError" not in result and result["content"][0]["type"] == "text"
    result = session.call(2, "tools/call", {"name": "search_decisions",
                                            "arguments": {"query": "x", "bogus": 1}})["result"]
    assert result["isError"] is True and result["content"][0]["type"] == "text"


def test_legacy_tool_results_carry_no_meta(session):
    session.initialize("2024-11-05")
    result = session.call(1, "tools/call", {"name": "list_superseded", "arguments": {}})["result"]
    assert "_meta" not in result and "resultType" not in result


# ---------------------------------------------------------------------------
# §7 cancellation; timeouts
# ---------------------------------------------------------------------------

def test_s_7_cancel_stops_the_work_and_suppresses_the_response(hooked, marks):
    s = hooked()
    s.initialize()
    s.request(1, "tools/call", {"name": "test_slow", "arguments": {"seconds": 10, "tag": "a"}})
    assert wait_for(marks / "started-a")
    s.notify("notifications/cancelled", {"requestId": 1, "reason": "user"})
    assert wait_for(marks / "stopped-a"), "the tool never saw should_stop()"
    s.no_frame(0.3)
    s.checker.pending.clear()
    assert s.call(2, "ping")["result"] == {}


def test_s_7_cancel_in_the_modern_era(hooked, marks):
    s = hooked()
    s.request(1, "tools/call", {"name": "test_slow", "arguments": {"seconds": 10, "tag": "m"}}, modern=True)
    assert wait_for(marks / "started-m")
    s.notify("notifications/cancelled", {"requestId": 1, "_meta": dict(META)})
    assert wait_for(marks / "stopped-m")
    s.no_frame(0.3)


def test_s_7_a_result_that_arrives_after_the_cancel_is_discarded(hooked, marks):
    s = hooked()
    s.request(1, "tools/call", {"name": "test_stubborn", "arguments": {"seconds": 0.4, "tag": "s"}})
    assert wait_for(marks / "started-s")
    s.notify("notifications/cancelled", {"requestId": 1})
    assert wait_for(marks / "finished-s")
    s.no_frame(0.3)


def test_s_7_unknown_finished_and_malformed_cancels_are_ignored(hooked):
    s = hooked()
    s.initialize()
    s.call(1, "ping")
    s.notify("notifications/cancelled", {"requestId": 1})  # finished
    s.notify("notifications/cancelled", {"requestId": 999})  # unknown
    s.notify("notifications/cancelled", {"requestId": None})
    s.notify("notifications/cancelled", {})
    s.notify("notifications/cancelled")
    s.request(2, "tools/call", {"name": "test_slow", "arguments": {"seconds": 0.3}})
    s.notify("notifications/cancelled", {"requestId": "2"})  # "2" is not 2
    assert s.recv(5)["result"]["content"][0]["text"] == "slow done"
    s.no_frame(0.2)


def test_m_7_initialize_is_never_cancelled(session):
    """initialize is answered before the next line is even read."""
    session.checker.sent({"id": 1, "method": "initialize"})
    session.write(b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
                  b'"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n'
                  b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}\n')
    assert session.recv()["result"]["protocolVersion"] == "2025-11-25"


def test_quick_methods_are_answered_while_a_tool_runs(hooked, marks):
    s = hooked()
    s.request(1, "tools/call", {"name": "test_slow", "arguments": {"seconds": 30}})
    assert wait_for(marks / "started-")
    assert s.call(2, "ping")["result"] == {}
    assert s.call(3, "tools/list")["id"] == 3
    assert s.call(4, "server/discover", modern=True)["id"] == 4
    assert not (marks / "finished-").exists()  # answered while the tool was still running
    s.notify("notifications/cancelled", {"requestId": 1})
    s.no_frame(0.2)


def test_request_timeout_answers_32603_with_timeout_ms(hooked, marks):
    s = hooked("--request-timeout-ms", "300")
    s.initialize()
    s.request(1, "tools/call", {"name": "test_slow", "arguments": {"seconds": 30, "tag": "t"}})
    frame = s.recv(20)  # a hang guard; the 30 s tool would not have finished by then
    assert frame["id"] == 1 and frame["error"]["code"] == -32603
    assert frame["error"]["data"] == {"timeoutMs": 300}
    assert not (marks / "finished-t").exists()
    assert wait_for(marks / "stopped-t"), "a timed-out call is stopped too"


def test_request_timeout_discards_the_late_result(hooked, marks):
    s = hooked("--request-timeout-ms=200")
    s.request(1, "tools/call", {"name": "test_stubborn", "arguments": {"seconds": 0.6, "tag": "late"}},
              modern=True)
    frame = s.recv(5)
    assert frame["error"]["code"] == -32603 and frame["error"]["data"] == {"timeoutMs": 200}
    assert wait_for(marks / "finished-late")
    s.no_frame(0.3)
    assert s.call(2, "tools/list", modern=True)["result"]["resultType"] == "complete"


def test_cancelled_request_is_not_answered_by_its_timeout(hooked, marks):
    s = hooked("--request-timeout-ms", "300")
    s.request(1, "tools/call", {"name": "test_stubborn", "arguments": {"seconds": 0.6, "tag": "c"}})
    assert wait_for(marks / "started-c")
    s.notify("notifications/cancelled", {"requestId": 1})
    s.no_frame(0.9)


def test_request_timeout_zero_disables_it(hooked):
    s = hooked("--request-timeout-ms", "0")
    frame = s.call(1, "tools/call", {"name": "test_slow", "arguments": {"seconds": 0.5}})
    assert frame["result"]["content"][0]["text"] == "slow done"


# ---------------------------------------------------------------------------
# Process lifecycle: signals
# ---------------------------------------------------------------------------

@platforms.SIGNALS
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
@pytest.mark.parametrize("busy", [False, True], ids=["idle", "busy"])
def test_signals_end_the_process_promptly_and_quietly(hooked, marks, signum, busy):
    s = hooked()
    s.initialize()
    if busy:
        s.request(1, "tools/call", {"name": "test_slow", "arguments": {"seconds": 10}})
        assert wait_for(marks / "started-")
    s.proc.send_signal(signum)
    status = s.proc.wait(timeout=10)  # a hang guard: the busy tool would run for 10 s
    assert status == 0
    assert s.stderr() == ""


@platforms.SIGNALS
def test_a_sigint_the_parent_ignores_stays_ignored(server_command, repo_root):
    s = Session(server_command, ["--cwd", repo_root], sigint=signal.SIG_IGN)
    try:
        s.initialize()
        s.proc.send_signal(signal.SIGINT)  # an ignored signal is discarded when it is sent
        assert s.call(2, "ping")["result"] == {}
        s.proc.send_signal(signal.SIGTERM)
        assert s.proc.wait(timeout=10) == 0
        assert s.stderr() == ""
    finally:
        s.kill()


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------



@pytest.mark.parametrize("args", [
    ["--verbose"], ["--dir"], ["--cwd"], ["serve"], ["--cwd", "--dir", "x"], ["--cwd="],
    ["--request-timeout-ms", "soon"], ["--request-timeout-ms", "-5"], ["--request-timeout-ms=1.5"],
    ["--request-timeout-ms", "99999999999"], ["-x"], ["--"], ["--version=1"],
], ids=lambda a: " ".join(a) or "empty")
def test_cli_bad_flags_exit_2_with_usage_and_read_nothing(server_command, repo_root, args):
    done = run_cli(server_command, ["--cwd", repo_root] + args if args[0] != "--cwd" else args, stdin=PING)
    assert done.returncode == 2
    assert done.stdout == b""
    assert b"usage:" in done.stderr and b"Traceback" not in done.stderr


def test_cli_unusable_roots_exit_1_before_reading(server_command, tmp_path):
    plain = tmp_path / "plain"
    (plain / "docs" / "adr").mkdir(parents=True)
    good = tmp_path / "good"
    (good / ".git").mkdir(parents=True)
    (good / "docs" / "adr").mkdir(parents=True)
    (good / "notes.txt").write_text("x")
    cases = [["--cwd", str(tmp_path / "missing")], ["--cwd", str(plain)],
             ["--cwd", str(good / "notes.txt")], ["--cwd", str(good), "--dir", "no/such"],
             ["--cwd", str(good), "--dir", ".."], ["--cwd", str(good), "--dir", "notes.txt"]]
    for args in cases:
        done = run_cli(server_command, args, stdin=PING)
        assert done.returncode == 1, args
        assert done.stdout == b"", args
        err = done.stderr.decode()
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err


def test_cli_flags_win_over_environment_over_defaults(server_command, repo_root, tmp_path):
    bad = str(tmp_path / "missing")
    # env alone
    assert run_cli(server_command, [], env={"ADRKIT_MCP_CWD": repo_root}, stdin=PING).stdout.startswith(b"{")
    assert run_cli(server_command, [], env={"ADRKIT_MCP_CWD": bad}).returncode == 1
    # flag over env
    done = run_cli(server_command, ["--cwd", repo_root], env={"ADRKIT_MCP_CWD": bad}, stdin=PING)
    assert done.returncode == 0 and done.stdout.startswith(b"{")
    assert run_cli(server_command, ["--cwd", bad], env={"ADRKIT_MCP_CWD": repo_root}).returncode == 1
    # dir: env, then flag over env, then the default docs/adr
    assert run_cli(server_command, ["--cwd", repo_root], env={"ADRKIT_MCP_DIR": "nope"}).returncode == 1
    assert run_cli(server_command, ["--cwd", repo_root, "--dir", "docs/adr"],
                   env={"ADRKIT_MCP_DIR": "nope"}, stdin=PING).returncode == 0
    # default cwd: the working directory
    done = subprocess.run(server_command, input=PING, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          cwd=repo_root, timeout=10,
                          env={k: v for k, v in os.environ.items() if not k.startswith("ADRKIT_MCP_")})
    assert done.returncode == 0 and json.loads(done.stdout)["id"] == 1


def test_cli_equals_form_and_repeated_flags(server_command, repo_root):
    done = run_cli(server_command, ["--cwd=" + repo_root, "--dir=docs/adr", "--request-timeout-ms=5"],
                   stdin=PING)
    assert done.returncode == 0 and done.stdout == b'{"jsonrpc":"2.0","id":1,"result":{}}\n'
    done = run_cli(server_command, ["--dir", "nope", "--dir", "docs/adr", "--cwd", repo_root], stdin=PING)
    assert done.returncode == 0


def test_cli_version_and_help(server_command):
    done = run_cli(server_command, ["--version"])
    assert done.returncode == 0 and done.stderr == b""
    assert done.stdout.decode().split()[0] == "adrkit-mcp" and len(done.stdout.split()) == 2
    done = run_cli(server_command, ["--help"])
    text = done.stdout.decode()
    assert done.returncode == 0 and done.stderr == b""
    for needle in ["--cwd", "--dir", "--request-timeout-ms", "ADRKIT_MCP_CWD", "ADRKIT_MCP_DIR",
                   "config", "doctor", "call", "exit status", "2026-07-28"]:
        assert needle in text, needle
    assert run_cli(server_command, ["-h"]).stdout == done.stdout


def test_cli_subcommands_dispatch_to_the_core(hooked_command):
    for name in ("config", "doctor", "call"):
        done = run_cli(hooked_command, [name, "--x", "y"])
        assert done.returncode == 7
        assert done.stdout.decode() == "SUBCOMMAND %s [\"--x\", \"y\"]\n" % name


# ---------------------------------------------------------------------------
# The embedding API
# ---------------------------------------------------------------------------

def test_module_exports_only_the_lifecycle_api(module):
    assert "create_server" in module.__all__ and "main" in module.__all__


def test_create_server_touches_no_file_and_is_sealed(module, tmp_path):
    handle = module.create_server(cwd=str(tmp_path / "does-not-exist"), dir="nowhere")
    assert [n for n in dir(handle) if not n.startswith("_")] == ["close", "start"]
    with pytest.raises(AttributeError):
        handle.start = None
    with pytest.raises(AttributeError):
        handle.extra = 1
    with pytest.raises(ValueError):
        module.create_server(request_timeout_ms=-1)
    handle.close()
    with pytest.raises(RuntimeError):
        handle.start()


def test_start_raises_value_error_on_an_unusable_root(module, tmp_path):
    handle = module.create_server(cwd=str(tmp_path), stdin=0, stdout=1)
    with pytest.raises(ValueError) as caught:
        handle.start()
    assert caught.value.reason and str(caught.value)


class PipePeer(object):
    """The client side of an embedded server talking over two os.pipe()s."""

    def __init__(self):
        self.server_in, self.client_out = os.pipe()
        self.client_in, self.server_out = os.pipe()
        self.reader = os.fdopen(self.client_in, "rb")

    def send(self, msg):
        os.write(self.client_out, json.dumps(msg).encode() + b"\n")

    def recv(self):
        return json.loads(self.reader.readline())

    def close(self):
        for fd in (self.client_out, self.server_in, self.server_out):
            try:
                os.close(fd)
            except OSError:
                pass
        self.reader.close()


def test_embedded_server_serves_until_eof(module, repo_root):
    peer = PipePeer()
    handle = module.create_server(cwd=repo_root, stdin=peer.server_in, stdout=peer.server_out)
    outcome = []
    thread = threading.Thread(target=lambda: outcome.append(handle.start()))
    thread.start()
    try:
        peer.send({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": META}})
        assert peer.recv()["result"]["supportedVersions"] == [MODERN]
        os.close(peer.client_out)  # EOF
        thread.join(5)
        assert not thread.is_alive() and outcome == [None]
    finally:
        handle.close()
        peer.close()


def test_embedded_close_from_another_thread_ends_start(module, repo_root):
    peer = PipePeer()
    handle = module.create_server(cwd=repo_root, dir="docs/adr", stdin=peer.server_in,
                                  stdout=peer.server_out, request_timeout_ms=0)
    thread = threading.Thread(target=handle.start)
    thread.start()
    try:
        peer.send({"jsonrpc": "2.0", "id": 1, "method": "ping"})
        assert peer.recv()["result"] == {}
        handle.close()
        thread.join(5)
        assert not thread.is_alive()
        handle.close()  # idempotent
        with pytest.raises(RuntimeError):
            handle.start()
    finally:
        peer.close()


def test_embedded_server_accepts_binary_streams(module, repo_root):
    import io
    requests = io.BytesIO(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n'
                          b'{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n')
    answers = io.BytesIO()
    module.create_server(cwd=repo_root, stdin=requests, stdout=answers).start()
    lines = answers.getvalue().split(b"\n")
    assert json.loads(lines[0]) == {"jsonrpc": "2.0", "id": 1, "result": {}}
    assert [t["name"] for t in json.loads(lines[1])["result"]["tools"]] == TOOL_NAMES


# ---------------------------------------------------------------------------
# The official Python SDK client
# ---------------------------------------------------------------------------

@pytest.fixture(scope="session")
def large_corpus_root(tmp_path_factory):
    """The conformance pack's 270-record corpus (with findings), as a Git worktree."""
    root = tmp_path_factory.mktemp("large") / "repo"
    shutil.copytree(str(REPO / "tests" / "conformance" / "corpora" / "large"), str(root))
    (root / ".git").mkdir()
    return str(root)


@pytest.mark.parametrize("mode", ["auto", "legacy", "2026-07-28"])
def test_official_sdk_client_in_every_mode(server_command, large_corpus_root, mode):
    """The official Python SDK client (mcp 2.3.0) in each of its modes: list the tools, call each
    tool, see an input error as isError and an unknown tool as -32602, walk both cursors."""
    mcp = pytest.importorskip("mcp", reason="mcp (the official SDK client, a dev requirement for "
                              "Python 3.10+) is not installed")
    anyio = pytest.importorskip("anyio", reason="anyio (installed with mcp, Python 3.10+) is not installed")
    expected_version = "2025-11-25" if mode == "legacy" else MODERN

    async def walk(client, tool, arguments, channel):
        """Follow one channel's cursor to its end; returns every item seen."""
        seen, cursor = [], None
        while True:
            page_arguments = dict(arguments, limit=7, findingsLimit=7)
            if cursor is not None:
                page_arguments["cursor" if channel == "results" else "findingsCursor"] = cursor
            result = await client.call_tool(tool, page_arguments)
            assert not result.is_error
            outcome = result.structured_content["result"]
            page = outcome["items"] if channel == "results" else outcome["findings"]["items"]
            cursor = outcome["cursor"] if channel == "results" else outcome["findings"]["cursor"]
            seen.extend(page)
            if cursor is None:
                return seen

    async def scenario():
        params = mcp.StdioServerParameters(command=server_command[0],
                                           args=server_command[1:] + ["--cwd", large_corpus_root])
        async with mcp.Client(params, mode=mode) as client:
            assert client.protocol_version == expected_version
            listed = await client.list_tools()
            assert [t.name for t in listed.tools] == TOOL_NAMES
            everything = await walk(client, "search_decisions", {"query": "e"}, "results")
            ids = [(item["id"], item["sourcePath"]) for item in everything]
            assert len(ids) > 20 and len(set(ids)) == len(ids)  # several pages, no repeats
            findings = await walk(client, "list_superseded", {}, "findings")
            assert len(findings) > 7
            found = await client.call_tool("get_decision", {"ref": everything[0]["id"]})
            assert found.structured_content["result"]["outcome"] in ("found", "ambiguous-local-id")
            context = await client.call_tool("get_decision_context", {"files": ["src/a.ts"]})
            assert context.structured_content["result"]["outcome"] == "matches"
            superseded = await client.call_tool("list_superseded", {})
            assert superseded.structured_content["corpusHealth"]["recordCount"] > 0
            result = await client.call_tool("search_decisions", {"query": "x", "bogus": 1})
            assert result.is_error
            with pytest.raises(mcp.MCPError) as caught:
                await client.call_tool("no_such_tool", {})
            assert caught.value.error.code == -32602

    anyio.run(scenario)


# ---------------------------------------------------------------------------
# The conformance pack's scenarios for this layer
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("pattern", ["startup-*", "handshake-*", "departure-*", "version-rejection-*",
                                     "raw-requests-*"])
def test_conformance_scenarios_of_the_wire_layer(server_command, pattern):
    """The recorded expectations for framing, eras and start-up (including the departures from
    the reference), replayed by the project's harness (tests/conformance_harness.py) against
    the server under test here ($ADRKIT_MCP_MODULE, $ADRKIT_MCP_PYTHON)."""
    names = [name for name in harness.scenario_names() if fnmatch.fnmatchcase(name, pattern)]
    assert names, "no scenario of tests/conformance/ matches %s" % pattern
    failures = []
    for name in names:
        try:
            harness.run_scenario(harness.load_scenario(name), server_command)
        except harness.ScenarioFailure as failure:
            failures.append(str(failure))
    assert not failures, "\n".join(failures)
