"""Fuzzed frames against long-lived server processes (issue 6, part 1).

The seeded generators of tests/_seeded.py draw request lines -- random and
mutated JSON-RPC messages of both protocol eras, tool arguments at and just
past every documented limit, wrong types, huge numbers, deep nesting, invalid
UTF-8, NUL bytes, U+2028 inside strings, CRLF and blank lines -- and the tests
write them to ONE real server process per kind of session, started once per
module:

* ``legacy``  an ``initialize`` session at 2025-11-25 (errors without a
              readable id omit the id);
* ``batch``   an ``initialize`` session at 2025-03-26 (JSON-RPC batches are
              answered with arrays; errors without a readable id say null);
* ``modern``  pinned to 2026-07-28 by a first stateless request.

Each example is one chunk of bytes (usually one line; a mutation may add
line breaks) followed by a sentinel request.  An oracle derived from JSON-RPC
2.0 and MCP (not from the server's code) says what each line deserves:

* a request (``jsonrpc`` "2.0", a string ``method``, an id that is a string
  or an integer, params absent or structured) -> exactly one response
  carrying its id, result xor error;
* a notification or a response-shaped message -> nothing;
* anything else (unparsable, not UTF-8, over the 1 MiB cap, not a request
  object) -> exactly one error, -32700/-32600, with the id when it was
  readable and without one (or null in older sessions) otherwise;
* a batch -> one array of answers in a 2025-03-26 session, else one -32600.

Every frame is validated by the project's frame validator
(tests/frame_validator.py, through tests/_session.py) against the official
schema of the revision of the request it answers (the copies in
tests/data/mcp-schema/<rev>/schema.json).  After every
example the process must still be running and nothing on stdout or stderr
may look like a Python traceback.

Runs are reproducible in any order and under xdist: each fuzz test draws from
its own fixed seed (e.g. "fuzz-frames/messages/legacy"), and example number N
of a seed is the same whatever ran before it.  A failure names the test, the
seed, the index and the input (its repr, truncated); to run that one example
again, alone, set ``ADRKIT_FUZZ_INDEX`` and select the test:

    ADRKIT_FUZZ_INDEX=1234 python3 -m pytest -n 0 'tests/test_fuzz_frames.py::test_fuzz_messages[legacy]'

There is no shrinking: a failing input is reported as drawn (most are short:
strings of a dozen characters, a dozen leaves per JSON value).  The default run
tries at least 10,000 frames in total; for a long run scale it with
``ADRKIT_FUZZ_EXAMPLES``, the total number of examples for the file, e.g.

    ADRKIT_FUZZ_EXAMPLES=200000 python3 -m pytest tests/test_fuzz_frames.py

The module under test is ``$ADRKIT_MCP_MODULE`` when set (see tests/conftest.py).
"""

import json
import math
import os
import queue
import time

import pytest

import _support as support  # tests/ is on sys.path (pytest rootdir insertion)
import _session as wire
import _seeded as st  # the seeded strategies, under Hypothesis's names

# The session-scoped fixtures server_module and server_command (honouring $ADRKIT_MCP_MODULE
# and $ADRKIT_MCP_PYTHON) come from tests/conftest.py.

BUDGET = int(os.environ.get("ADRKIT_FUZZ_EXAMPLES", "10000"))
LINE_CAP = 1024 * 1024
MODERN = wire.MODERN
PV, CAPS = wire.PV, wire.CAPS
GOOD_META = {PV: MODERN, CAPS: {}}
ANONYMOUS_CODES = (-32700, -32600)
TOOL_NAMES = ("get_decision", "get_decision_context", "list_superseded", "search_decisions")
STATUSES = ("draft", "proposed", "accepted", "rejected", "superseded", "deprecated")
SCOPES = ("component", "domain", "org")
LEGACY_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
LATEST_LEGACY = "2025-11-25"

# Examples per fuzz test: the budget is shared by the nine fuzz tests
# below (raw and message tests run in three sessions, argument tests in two,
# the batch test in one), rounded up so the total is never below it.
FUZZ_TESTS = 9
PER_TEST = max(1, -(-BUDGET // FUZZ_TESTS))

COUNTS = {"fuzzed": 0, "frames": 0, "examples": 0, "requests": 0, "notifications": 0, "errors": 0, "batches": 0}
# fuzzed: generated examples checked; examples: chunks exchanged (the edge lines too);
# frames: non-blank lines written; requests: answers owed with an id; notifications: notifications
# and response-shaped messages (never answered); errors: answers owed without an id; batches: arrays.


def fuzz(strategy, seed, check, count=PER_TEST):
    """check(value) for `count` examples of `strategy` drawn from `seed` (_seeded.check_each:
    only example $ADRKIT_FUZZ_INDEX when set; a failure names the seed, the index and the input)."""
    COUNTS["fuzzed"] += st.check_each(strategy, count, seed, check)


def dice(low, high):
    """A fair roll in [low, high], for the branch choices and small counts below, which are
    shares: st.integers gives most of its draws to the ends of the range and small values."""
    return st.sampled_from(range(low, high + 1))


# ---------------------------------------------------------------------------
# A JSON writer that can emit tokens json.dumps cannot (huge numbers, 1e2)
# ---------------------------------------------------------------------------

class Raw(object):
    """A JSON token written verbatim (e.g. 1e400, 1.0, a 5000-digit integer)."""

    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return "Raw(%r)" % self.text


def dump(value, ascii_only=False):
    """JSON text of a generated value (Raw tokens verbatim)."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=ascii_only) + ":" + dump(v, ascii_only)
                              for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(dump(v, ascii_only) for v in value) + "]"
    if isinstance(value, float) and not math.isfinite(value):
        return "1e400" if value > 0 else "-1e400"
    return json.dumps(value, ensure_ascii=ascii_only)


def encode(value, ascii_only=False):
    # A lone surrogate written raw has no UTF-8 form: surrogatepass writes the
    # (invalid) CESU-8 bytes, which a server must refuse as not UTF-8.
    return dump(value, ascii_only).encode("utf-8", "surrogatepass")


# ---------------------------------------------------------------------------
# The oracle: what each line deserves, from JSON-RPC 2.0 and MCP alone
# ---------------------------------------------------------------------------

def _no_constants(name):
    raise ValueError("%s is not JSON" % name)


def parse(piece):
    """The JSON value of a line, or raise ValueError when it is not a JSON text in UTF-8."""
    text = piece.decode("utf-8")  # UnicodeDecodeError is a ValueError
    return json.loads(text, parse_constant=_no_constants)


def mcp_id(value):
    """The id key of a legal MCP request id (string or integer), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (str, int)):
        return wire.id_key(value)
    if isinstance(value, float) and value.is_integer():
        return wire.id_key(value)
    return None


class Pool(object):
    """The answers one channel (top level, or the inside of batch arrays) owes."""

    def __init__(self):
        self.requests = {}   # id key -> count: each must get exactly one answer with that id
        self.invalid_ids = {}  # id key -> count: one error each, with the id or anonymous
        self.anonymous = 0   # errors that cannot carry an id

    def owed(self):
        return sum(self.requests.values()) + sum(self.invalid_ids.values()) + self.anonymous

    @staticmethod
    def bump(table, key):
        table[key] = table.get(key, 0) + 1


class Expectation(object):
    def __init__(self):
        self.top = Pool()
        self.inner = Pool()
        self.arrays = 0
        self.cancelled = set()  # ids named by a notifications/cancelled in this example
        self.silent = 0  # notifications and response-shaped messages: never answered
        # Only tools/call is answered off the reader thread; every other answer is
        # written before the sentinel's, so once the sentinel is answered nothing
        # else can be on its way unless a tool call is.
        self.asynchronous = False

    def top_owed(self):
        return self.top.owed()


class Oracle(object):
    """Classifies the lines of one example; tracks the negotiated legacy revision."""

    def __init__(self, era, revision):
        self.era = era            # "legacy" or "modern"
        self.revision = revision  # the legacy revision in force (None when modern)

    def expect(self, chunk):
        expectation = Expectation()
        pieces = chunk.split(b"\n")
        assert pieces[-1] == b"", "every example chunk ends with a newline"
        for piece in pieces[:-1]:
            self.line(piece, expectation)
        return expectation

    def line(self, piece, exp):
        if len(piece) > LINE_CAP:
            exp.top.anonymous += 1
            return
        if not piece.strip(b" \t\r"):
            return  # blank lines are skipped silently
        try:
            value = parse(piece)
        except (ValueError, RecursionError):
            exp.top.anonymous += 1
            return
        if isinstance(value, list):
            if not value or self.era != "legacy" or self.revision != "2025-03-26":
                exp.top.anonymous += 1
                return
            owed_before = exp.inner.owed()
            for item in value:
                if isinstance(item, list):
                    exp.inner.anonymous += 1
                else:
                    self.message(item, exp, exp.inner, in_batch=True)
            if exp.inner.owed() > owed_before:
                exp.arrays += 1
            return
        self.message(value, exp, exp.top, in_batch=False)

    def message(self, msg, exp, pool, in_batch):
        if not isinstance(msg, dict):
            pool.anonymous += 1
            return
        if "method" not in msg:
            if "result" in msg or "error" in msg:
                exp.silent += 1
                return  # a response: never answered
            self.invalid(msg, pool)
            return
        params = msg.get("params")
        if msg.get("jsonrpc") != "2.0" or not isinstance(msg["method"], str) or \
                ("params" in msg and not isinstance(params, (dict, list))):
            self.invalid(msg, pool)
            return
        if "id" not in msg:
            if msg["method"] == "notifications/cancelled" and isinstance(params, dict):
                key = mcp_id(params.get("requestId"))
                if key is not None:
                    exp.cancelled.add(key)
            exp.silent += 1
            return  # a notification: never answered
        key = mcp_id(msg["id"])
        if key is None:
            pool.anonymous += 1
            return
        Pool.bump(pool.requests, key)
        if msg["method"] == "tools/call":
            exp.asynchronous = True
        if msg["method"] == "initialize" and not in_batch and self.era == "legacy":
            self.negotiate(params)

    @staticmethod
    def invalid(msg, pool):
        key = mcp_id(msg["id"]) if "id" in msg else None
        if key is None:
            pool.anonymous += 1
        else:
            Pool.bump(pool.invalid_ids, key)

    def negotiate(self, params):
        """Version negotiation (MCP lifecycle, MUST): a well-formed legacy initialize sets the revision."""
        if not isinstance(params, dict) or wire.modern_claim({"params": params}):
            return
        requested = params.get("protocolVersion")
        if not isinstance(requested, str) or not isinstance(params.get("capabilities"), dict):
            return
        if "clientInfo" in params and not isinstance(params["clientInfo"], dict):
            return
        self.revision = requested if requested in LEGACY_VERSIONS else LATEST_LEGACY


# ---------------------------------------------------------------------------
# One long-lived server process per kind of session
# ---------------------------------------------------------------------------

class Peer(object):
    """A wire.Session plus the example loop: write a chunk, collect and judge its answers."""

    def __init__(self, command, root, kind):
        self.kind = kind
        self.era = "modern" if kind == "modern" else "legacy"
        self.base_revision = {"legacy": "2025-11-25", "batch": "2025-03-26"}.get(kind)
        self.session = wire.Session(command, ["--cwd", root])
        self.sentinels = 0
        self.stderr_seen = 0
        self.reset()

    @property
    def checker(self):
        return self.session.checker

    def reset(self):
        """Bring the session back to its base state (a fuzzed initialize may renegotiate)."""
        self.checker.pending.clear()
        if self.era == "legacy":
            if self.checker.legacy_rev != self.base_revision:
                self.session.initialize(self.base_revision)
        elif not self.checker.modern_seen:
            frame = self.session.call("pin", "tools/list", modern=True)
            assert "result" in frame, frame
        self.checker.pending.clear()

    def sentinel(self):
        self.sentinels += 1
        rid = "sentinel-%d" % self.sentinels
        if self.era == "modern":
            return rid, {"jsonrpc": "2.0", "id": rid, "method": "server/discover",
                         "params": {"_meta": dict(GOOD_META)}}
        return rid, {"jsonrpc": "2.0", "id": rid, "method": "ping"}

    def register(self, chunk):
        """Tell the frame checker about every parsable message (so it can validate the answers)."""
        for piece in chunk.split(b"\n"):
            if len(piece) > LINE_CAP or not piece.strip(b" \t\r"):
                continue
            try:
                value = parse(piece)
            except (ValueError, RecursionError):
                continue
            self.checker.sent(value)

    def exchange(self, chunk, timeout=20.0):
        """Write one example chunk plus a sentinel; check every answer it gets."""
        if not chunk.endswith(b"\n"):
            chunk += b"\n"
        self.reset()
        oracle = Oracle(self.era, self.checker.legacy_rev if self.era == "legacy" else None)
        exp = oracle.expect(chunk)
        self.register(chunk)
        sentinel_id, sentinel = self.sentinel()
        self.checker.sent(sentinel)
        self.session.write(chunk + json.dumps(sentinel).encode("utf-8") + b"\n")

        lenient = any(key in exp.cancelled for key in list(exp.top.requests) + list(exp.inner.requests))
        top, arrays, seen_sentinel = [], [], False
        deadline = time.monotonic() + timeout
        grace_until = None
        while True:
            if seen_sentinel and len(arrays) >= exp.arrays and len(top) >= exp.top_owed():
                break
            if seen_sentinel and not exp.asynchronous:
                break  # everything owed was due before the sentinel: judge what came
            if seen_sentinel and lenient:
                # A cancelled call may be answered or not: wait briefly for it.
                grace_until = grace_until or time.monotonic() + 0.5
                if time.monotonic() >= grace_until:
                    break
            wait = (grace_until or deadline) - time.monotonic()
            try:
                line = self.session.lines.get(timeout=max(0.01, wait))
            except queue.Empty:
                if grace_until is not None:
                    break
                raise AssertionError(
                    "%s: no answer within %.0f s to %r\nowed %d top-level, %d arrays; got %r\nstderr: %s"
                    % (self.kind, timeout, chunk[:300], exp.top_owed(), exp.arrays, top, self.tail()))
            assert line is not None, "%s: stdout closed after %r; stderr: %s" % (
                self.kind, chunk[:300], self.tail())
            assert b"Traceback" not in line, line[:300]
            frame = self.checker.check_line(line)
            assert not self.checker.problems, "%s: %s\nfor %r" % (self.kind, self.checker.problems, chunk[:300])
            if isinstance(frame, list):
                arrays.append(frame)
            elif isinstance(frame, dict) and frame.get("id") == sentinel_id:
                seen_sentinel = True
            else:
                top.append(frame)
        self.judge(exp.top, top, exp.cancelled, chunk, in_batch=False)
        assert len(arrays) == exp.arrays, "%s: %d batch answers for %d batches: %r for %r" % (
            self.kind, len(arrays), exp.arrays, arrays, chunk[:300])
        self.judge(exp.inner, [frame for array in arrays for frame in array], exp.cancelled, chunk,
                   in_batch=True)
        self.alive(chunk)
        COUNTS["examples"] += 1
        COUNTS["frames"] += sum(1 for piece in chunk.split(b"\n")[:-1] if piece.strip(b" \t\r"))
        COUNTS["requests"] += sum(exp.top.requests.values()) + sum(exp.inner.requests.values())
        COUNTS["errors"] += exp.top.anonymous + exp.inner.anonymous
        COUNTS["batches"] += exp.arrays
        COUNTS["notifications"] += exp.silent
        if lenient:
            COUNTS["racing-cancels"] = COUNTS.get("racing-cancels", 0) + 1
        return top, arrays

    def judge(self, pool, frames, cancelled, chunk, in_batch):
        where = "%s%s" % (self.kind, " (batch)" if in_batch else "")
        by_id, anonymous = {}, []
        for frame in frames:
            assert isinstance(frame, dict), "%s: not an object: %r" % (where, frame)
            if frame.get("id") is None:
                anonymous.append(frame)
            else:
                by_id.setdefault(wire.id_key(frame["id"]), []).append(frame)
        owed_anonymous = pool.anonymous
        for key, answers in by_id.items():
            requests = pool.requests.get(key, 0)
            invalid = pool.invalid_ids.get(key, 0)
            low = 0 if key in cancelled else requests
            assert low <= len(answers) <= requests + invalid, \
                "%s: %d answers with id %s, expected %d request(s) and %d invalid: %r for %r" % (
                    where, len(answers), key, requests, invalid, answers, chunk[:300])
            owed_anonymous += invalid - max(0, len(answers) - requests)
        for key in set(pool.requests) - set(by_id):
            assert key in cancelled, "%s: request %s was never answered: %r" % (where, key, chunk[:300])
        for key in set(pool.invalid_ids) - set(by_id):
            owed_anonymous += pool.invalid_ids[key]
        assert len(anonymous) == owed_anonymous, \
            "%s: %d errors without an id, expected %d: %r for %r" % (
                where, len(anonymous), owed_anonymous, anonymous, chunk[:300])
        for frame in anonymous:
            assert "error" in frame and frame["error"]["code"] in ANONYMOUS_CODES, (where, frame)

    def tail(self):
        return self.session.stderr()[-2000:]

    def alive(self, chunk=b""):
        assert self.session.proc.poll() is None, "%s: the server exited (%s) after %r; stderr: %s" % (
            self.kind, self.session.proc.returncode, chunk[:300], self.tail())
        err = self.session.stderr()
        assert "Traceback" not in err[self.stderr_seen:], err[self.stderr_seen:][-3000:]
        self.stderr_seen = max(0, len(err) - 20)

    def close(self):
        status, _ = self.session.close()
        err = self.session.stderr()
        assert status == 0, "exit status %s; stderr: %s" % (status, err[-2000:])
        assert "Traceback" not in err, err[-3000:]


@pytest.fixture(scope="module")
def fuzz_root(tmp_path_factory):
    """A small corpus whose answers exercise escaping, findings and every outcome."""
    repo = support.Repo(tmp_path_factory.mktemp("fuzz-frames") / "repo")
    repo.record("0001-adopt-postgres.md", title="Adopt Postgres \u2028 for \u2029 storage", status="accepted",
                extra='deciders: ["@alice"]\ntags: ["database", "storage"]\n'
                      'affects:\n  - {type: path, pattern: "src/db/**"}\n  - {type: path, pattern: "a*a*a*b"}\n'
                      '  - {type: package, pattern: "left-pad@^1"}\n',
                body="Body with a NUL \x00, a line separator \u2028 and \U0001F600.\r\n")
    repo.record("0002-use-mysql.md", title="Use MySQL", status="superseded",
                extra='supersededBy: "0001"\ntags: ["database"]\n')
    repo.record("0003-maybe-redis.md", title="Maybe Redis", status="proposed",
                extra='supersedes: ["0099"]\naffects:\n  - {type: path, pattern: "src/**/*.ts"}\n')
    repo.record("0003-duplicate-id.md", title="Duplicate id", status="rejected")
    repo.write("0004-broken.md", "---\nid: [unclosed\n---\n")
    repo.write("0005-no-fence.md", "no fence at all\n")
    return repo.root


@pytest.fixture(scope="module")
def peers(server_command, fuzz_root):
    started = {}

    def get(kind):
        if kind not in started:
            started[kind] = Peer(server_command, fuzz_root, kind)
        return started[kind]
    yield get
    for peer in started.values():
        try:
            peer.close()
        finally:
            peer.session.kill()


# ---------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------

SPECIALS = "\u2028\u2029\x00\r\n\t\"\\/\x7f\u00e9\ufeff\U0001F600\u0301"
LONE = ("\ud800", "\udbff", "\udc00", "\udfff")

texts = st.one_of(
    st.text(max_size=12),
    st.text(alphabet=st.sampled_from(SPECIALS + "ab /.-*"), max_size=12),
    st.tuples(st.text(max_size=4), st.sampled_from(LONE), st.text(max_size=4)).map("".join),
    st.sampled_from(["", " ", "0001", "0042", "core:12", "x" * 300, "\u2028", "\x00"]),
)

HUGE_NUMBERS = [Raw("1e400"), Raw("-1e400"), Raw("1" + "0" * 30), Raw("-" + "9" * 25), Raw("1e2"),
                Raw("1.0"), Raw("-0"), Raw("0.5"), Raw("4.9e-324"), Raw("1" + "0" * 5000),
                2 ** 53, 2 ** 53 + 1, 2 ** 63, -2 ** 63 - 1, 2 ** 64]
numbers = st.one_of(st.integers(), st.floats(allow_nan=False, allow_infinity=False),
                    st.sampled_from(HUGE_NUMBERS))
scalars = st.one_of(st.none(), st.booleans(), numbers, texts)
json_values = st.recursive(scalars, lambda children: st.one_of(
    st.lists(children, max_size=4), st.dictionaries(texts, children, max_size=4)), max_leaves=12)

ids = st.one_of(
    st.integers(min_value=-5, max_value=2 ** 40), st.text(max_size=8), texts,
    st.sampled_from([0, -1, "", "5", 5, 2 ** 53 + 1, 2 ** 64, Raw("1e2"), Raw("7.0"), Raw("1e400"),
                     Raw("1" + "0" * 40), 1.5, None, True, False, [], {}, [1], {"a": 1}, "x" * 2000,
                     "\u2028", "\ud800", "\x00"]),
)

METHODS = ("initialize", "ping", "tools/list", "tools/call", "server/discover", "notifications/initialized",
           "notifications/cancelled", "notifications/progress", "notifications/roots/list_changed",
           "logging/setLevel", "resources/list", "resources/read", "prompts/list", "subscriptions/listen",
           "completion/complete", "sampling/createMessage", "", "PING", "tools/call ", "tools/call\u2028",
           "rpc.discover", "initialize\x00")
methods = st.one_of(st.sampled_from(METHODS), texts)

metas = st.one_of(
    st.just(dict(GOOD_META)),
    st.just({PV: MODERN, CAPS: {}, "io.modelcontextprotocol/clientInfo": {"name": "fuzz", "version": "1"}}),
    st.builds(lambda v, c: {PV: v, CAPS: c},
              st.one_of(st.sampled_from(LEGACY_VERSIONS + ("1900-01-01", MODERN + " ", "", "2026-07-29")), scalars),
              st.one_of(st.just({}), json_values)),
    st.builds(lambda v: {PV: v}, st.one_of(st.just(MODERN), scalars)),
    st.builds(lambda c: {CAPS: c}, json_values),
    st.dictionaries(texts, json_values, max_size=3),
    st.builds(lambda t: {"progressToken": t}, json_values),
)


def with_meta(params, meta):
    if meta is None:
        return params
    params = dict(params)
    params["_meta"] = meta
    return params


# -- tool arguments near every limit ----------------------------------------

def sized_text(length, kind):
    """A string of about `length` code points, of one character family."""
    unit = {"ascii": "a", "space": " ", "astral": "\U0001F600", "ls": "\u2028", "nul": "\x00",
            "mixed": "a\u2028\U0001F600 \x00\u00e9"}[kind]
    return (unit * (length // len(unit) + 1))[:length]


BOUNDS = (0, 1, 2, 63, 64, 65, 127, 128, 129, 255, 256, 257, 1023, 1024, 1025)
bounded_texts = st.one_of(
    st.builds(sized_text, st.sampled_from(BOUNDS), st.sampled_from(["ascii", "space", "astral", "ls", "nul", "mixed"])),
    texts)

# The ref pattern: (log:)? then 4+ digits or a 26-character Crockford ULID.
refs = st.one_of(
    st.builds(lambda n: "0" * n, st.sampled_from([3, 4, 5, 127, 128, 129])),
    st.sampled_from(["0001", "0003", "9999", "core:0001", "a-b:0042", "01ARZ3NDEKTSV4RRFFQ69G5FAV",
                     "01arz3ndektsv4rrffq69g5fav", "0001\n", " 0001", "Core:0001", "core:", ":0001",
                     "ILOU0000000000000000000000", "x" * 128, "log:" + "1" * 124, "log:" + "1" * 125]),
    bounded_texts)

PATH_SHAPES = ("plain", "leading-slash", "dotdot", "drive", "backslash", "nul", "ls", "dot-segment",
               "empty-segment", "glob-chars", "deep", "unicode")


def make_path(length, shape):
    base = {"plain": "src/db/pool.ts", "leading-slash": "/etc/passwd", "dotdot": "src/../../etc/passwd",
            "drive": "C:/Windows/win.ini", "backslash": "src\\db\\pool.ts", "nul": "src/\x00/x",
            "ls": "src/\u2028/x", "dot-segment": "./src/./db", "empty-segment": "src//db",
            "glob-chars": "src/**/[a-z]*{a,b}?.ts", "deep": "a/" * 40 + "b", "unicode": "src/caf\u00e9/\U0001F600"}[shape]
    if length <= len(base):
        return base[:max(length, 0)]
    return base + ("a" * (length - len(base)))


def make_files(count, length, shape):
    return [make_path(length, shape) for _ in range(count)]


files_lists = st.one_of(
    st.builds(make_files, st.sampled_from([0, 1, 2, 255, 256, 257]), st.sampled_from([0, 1, 14, 1023, 1024, 1025]),
              st.sampled_from(PATH_SHAPES)),
    st.lists(bounded_texts, max_size=4),
    json_values)


def make_tags(count, length):
    return [("t%d-" % i + "a" * 70)[:length] if length else "" for i in range(count)]


tag_lists = st.one_of(
    st.builds(make_tags, st.sampled_from([0, 1, 31, 32, 33]), st.sampled_from([0, 1, 63, 64, 65])),
    st.lists(st.one_of(texts, st.sampled_from(["database", "Database", "database"])), max_size=4),
    json_values)
status_lists = st.one_of(st.lists(st.sampled_from(STATUSES + ("Accepted", "", "unknown")), max_size=8),
                         json_values)
scope_lists = st.one_of(st.lists(st.sampled_from(SCOPES + ("team", "")), max_size=5), json_values)
LIMIT_VALUES = [0, 1, 2, 20, 99, 100, 101, -1, 1.0, 1.5, 100.0, Raw("1e2"), Raw("1e400"), Raw("-0"),
                Raw("1" + "0" * 30), Raw("1" + "0" * 5000), 2 ** 53, 2 ** 63, True, False, "5", None, [], {}]
limits = st.one_of(st.sampled_from(LIMIT_VALUES), numbers)


def make_cursor(length, kind):
    if kind == "b64json":
        import base64
        text = json.dumps({"v": 1, "o": length, "f": "0" * 64, "q": "x"})
        return base64.urlsafe_b64encode(text.encode()).rstrip(b"=").decode()
    unit = {"b64": "QUJD", "junk": "!@#$", "astral": "\U0001F600"}[kind]
    return (unit * (length // len(unit) + 1))[:length]


cursors = st.one_of(
    st.builds(make_cursor, st.sampled_from([0, 1, 4095, 4096, 4097]), st.sampled_from(["b64", "junk", "astral"])),
    st.builds(make_cursor, st.integers(-5, 10 ** 6), st.just("b64json")),
    json_values)

FIELDS = {
    "query": bounded_texts, "ref": refs, "files": files_lists, "status": status_lists, "tags": tag_lists,
    "scope": scope_lists, "limit": limits, "findingsLimit": limits, "cursor": cursors, "findingsCursor": cursors,
}
ALLOWED = {
    "search_decisions": ("query", "status", "tags", "scope"),
    "get_decision": ("ref",),
    "get_decision_context": ("files",),
    "list_superseded": (),
}


@st.composite
def tool_arguments(draw):
    name = draw(st.one_of(st.sampled_from(TOOL_NAMES), st.sampled_from(["", "nope", "get_decision "]), texts))
    own = ALLOWED.get(name, ("query",))
    keys = list(own) + ["cursor", "limit", "findingsCursor", "findingsLimit"]
    arguments = {}
    for key in keys:
        if draw(dice(0, 3)):  # mostly present
            arguments[key] = draw(FIELDS[key])
    if draw(dice(0, 9)) == 0:  # a field of another tool, or an unknown one
        arguments[draw(st.one_of(st.sampled_from(sorted(FIELDS)), texts))] = draw(json_values)
    shape = draw(dice(0, 19))
    if shape == 0:
        arguments = draw(json_values)  # arguments that are not an object
    params = {"name": name}
    if shape != 1:
        params["arguments"] = arguments
    return params


@st.composite
def messages(draw, modern_bias):
    """A JSON-RPC-ish message: every member valid, missing, or of the wrong type."""
    method = draw(methods)
    msg = {}
    jsonrpc = draw(dice(0, 15))
    if jsonrpc:
        msg["jsonrpc"] = "2.0"
    else:
        choice = draw(st.one_of(st.sampled_from(["1.0", "2", 2.0, "2.0 ", None]), scalars, st.just("absent")))
        if choice != "absent":
            msg["jsonrpc"] = choice
    kind = draw(dice(0, 9))
    if kind < 7:
        msg["id"] = draw(ids)
    if draw(dice(0, 12)):
        msg["method"] = method
    else:
        msg["method"] = draw(st.one_of(scalars, st.just([method])))
    if method == "initialize":
        params = {"protocolVersion": draw(st.one_of(st.sampled_from(LEGACY_VERSIONS + (MODERN, "1999-01-01")),
                                                    scalars)),
                  "capabilities": draw(st.one_of(st.just({}), json_values)),
                  "clientInfo": draw(st.one_of(st.just({"name": "fuzz", "version": "1"}), json_values))}
        for key in list(params):
            if not draw(dice(0, 5)):
                del params[key]
    elif method == "tools/call":
        params = draw(tool_arguments())
    elif method == "notifications/cancelled":
        # Mostly ids that were never sent; sometimes one that a request of the same example may use.
        target = draw(dice(0, 9))
        params = {"requestId": draw(ids) if target == 0 else "never-sent-%d" % target, "reason": draw(texts)}
    elif method == "tools/list":
        params = draw(st.one_of(st.just({}), st.builds(lambda c: {"cursor": c}, cursors)))
    else:
        params = draw(st.one_of(st.just({}), st.dictionaries(texts, json_values, max_size=3)))
    meta_roll = draw(dice(0, 9))
    if meta_roll < modern_bias:
        params = with_meta(params, dict(GOOD_META))
    elif meta_roll < modern_bias + 2:
        params = with_meta(params, draw(metas))
    shape = draw(dice(0, 19))
    if shape == 0:
        pass  # no params at all
    elif shape == 1:
        msg["params"] = draw(st.one_of(scalars, st.lists(json_values, max_size=3)))
    else:
        msg["params"] = params
    extra = draw(dice(0, 14))
    if extra == 0:
        msg["result"] = draw(json_values)
    elif extra == 1:
        msg["error"] = draw(st.one_of(st.just({"code": -32600, "message": "x"}), json_values))
    elif extra == 2:
        msg[draw(texts)] = draw(json_values)
    if draw(dice(0, 6)) == 0:  # shuffle the member order
        msg = dict(reversed(list(msg.items())))
    return msg


def framed(body, prefix, suffix):
    return prefix + body + suffix + b"\n"


PREFIXES = [b"", b"", b"", b"\n", b"\r\n", b" \t", b"\n\n\r\n", b"\xef\xbb\xbf", b"   \n"]
SUFFIXES = [b"", b"", b"", b"\r", b" ", b"\t\r", b"\r\n", b"\n\n"]


@st.composite
def message_chunks(draw, modern_bias):
    msg = draw(messages(modern_bias))
    body = encode(msg, ascii_only=draw(st.booleans()))
    return framed(body, draw(st.sampled_from(PREFIXES)), draw(st.sampled_from(SUFFIXES)))


def templates():
    """Valid messages of both eras, the seeds of byte-level mutation."""
    call = {"name": "search_decisions", "arguments": {"query": "postgres", "limit": 5}}
    legacy = [
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "id": "a", "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
         "params": {"name": "get_decision_context", "arguments": {"files": ["src/db/pool.ts"]}}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "get_decision", "arguments": {"ref": "0001"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}},
        {"jsonrpc": "2.0", "id": 5, "method": "initialize",
         "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}},
    ]
    modern = []
    for msg in legacy:
        msg = dict(msg)
        msg["params"] = with_meta(msg.get("params", {}), dict(GOOD_META))
        modern.append(msg)
    modern.append({"jsonrpc": "2.0", "id": 6, "method": "server/discover", "params": {"_meta": dict(GOOD_META)}})
    return [encode(m) for m in legacy + modern] + [b'[{"jsonrpc":"2.0","id":7,"method":"ping"}]']


TEMPLATES = templates()
INTERESTING = [b"\x00", b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xe2\x80\xa8", b"\xe2\x80\xa9", b"\r", b"\n",
               b"\r\n", b"\xef\xbb\xbf", b"\\u0000", b"\\ud800", b"\\u2028", b'"', b"\\", b"{", b"}", b"[", b"]",
               b",", b":", b"1e400", b"null", b"-", b"0" * 30, b"\t", b" "]


@st.composite
def mutated_chunks(draw):
    roll = draw(dice(0, 9))
    if roll == 0:
        data = draw(st.binary(max_size=64))
    elif roll == 1:
        data = draw(st.text(max_size=40)).encode("utf-8")
    else:
        data = bytearray(draw(st.sampled_from(TEMPLATES)))
        for _ in range(draw(dice(1, 4))):
            if not data:
                data = bytearray(b"{}")
            position = draw(st.integers(0, len(data)))
            op = draw(dice(0, 5))
            if op == 0 and position < len(data):
                data[position] ^= 1 << draw(dice(0, 7))
            elif op == 1:
                del data[position:position + draw(dice(1, 8))]
            elif op == 2:
                data[position:position] = draw(st.one_of(st.sampled_from(INTERESTING), st.binary(min_size=1, max_size=4)))
            elif op == 3:
                end = draw(st.integers(position, len(data)))
                data[position:position] = data[position:end]
            elif op == 4:
                del data[position:]
            else:
                data[position:position + 1] = draw(st.sampled_from(INTERESTING))
        data = bytes(data)
    return framed(data, draw(st.sampled_from(PREFIXES)), draw(st.sampled_from(SUFFIXES)))


BATCH_PARAMS = [
    None, {}, [], 5, {"_meta": dict(GOOD_META)}, {"_meta": {PV: "1900-01-01", CAPS: {}}}, {"_meta": {PV: MODERN}},
    {"name": "search_decisions", "arguments": {"query": "postgres"}},
    {"name": "search_decisions", "arguments": {"query": ""}},
    {"name": "get_decision", "arguments": {"ref": "0003"}, "_meta": dict(GOOD_META)},
    {"name": "get_decision_context", "arguments": {"files": ["src/db/x.ts", "/abs"]}},
    {"name": "list_superseded"}, {"name": "nope", "arguments": {}}, {"name": "list_superseded", "arguments": []},
    {"protocolVersion": "2025-03-26", "capabilities": {}}, {"protocolVersion": "2024-11-05", "capabilities": {}},
    {"requestId": 1}, {"requestId": "never-sent"}, {"cursor": "bogus"},
]


def light_message(jsonrpc, rid, method, params, extra):
    msg = {"jsonrpc": jsonrpc} if jsonrpc is not None else {}
    if rid is not None:
        msg["id"] = rid[0]
    if method is not None:
        msg["method"] = method
    if params is not None:
        msg["params"] = params
    if extra:
        msg[extra[0]] = extra[1]
    return msg


# Batch elements are drawn from small tables of the members' interesting
# values (whole messages, member by member, are test_fuzz_messages' part).
light_messages = st.builds(
    light_message,
    st.sampled_from(["2.0", "2.0", "2.0", "1.0", None, 2]),
    st.one_of(st.none(), st.tuples(st.sampled_from([1, 2, 3, "1", "a", "\u2028", 1.0, 1.5, None, True, 2 ** 64]))),
    st.sampled_from(METHODS[:12] + (None, 7)),
    st.sampled_from(BATCH_PARAMS),
    st.sampled_from([None, None, None, ("result", {}), ("error", {"code": 1, "message": "m"}), ("x", 1)]))


@st.composite
def batch_chunks(draw):
    items = draw(st.lists(st.one_of(light_messages, light_messages, scalars, st.lists(scalars, max_size=2)),
                          max_size=6))
    return framed(encode(items, ascii_only=draw(st.booleans())), draw(st.sampled_from(PREFIXES)), b"")


# ---------------------------------------------------------------------------
# Deterministic edge lines (run in every session)
# ---------------------------------------------------------------------------

def deep(levels, inner=b"1"):
    return b"[" * levels + inner + b"]" * levels


def edge_lines():
    ping = b'{"jsonrpc":"2.0","id":"edge","method":"ping"}'
    pad = b'{"jsonrpc":"2.0","id":"pad","method":"ping","params":{"pad":"'
    at_cap = pad + b"x" * (LINE_CAP - len(pad) - 3) + b'"}}'
    assert len(at_cap) == LINE_CAP
    deep_object = b'{"a":' * 10000 + b"1" + b"}" * 10000
    return [
        ("deep-array-10000", deep(10000) + b"\n"),
        ("deep-object-10000", deep_object + b"\n"),
        ("deep-in-params-10000", b'{"jsonrpc":"2.0","id":"d","method":"ping","params":{"x":' + deep(10000) + b"}}\n"),
        ("deep-in-arguments-10000", b'{"jsonrpc":"2.0","id":"d2","method":"tools/call","params":{"name":'
                                    b'"search_decisions","arguments":{"query":' + deep(10000) + b"}}}\n"),
        ("unclosed-10000", b"[" * 10000 + b"\n"),
        ("nesting-200-in-arguments", b'{"jsonrpc":"2.0","id":"d3","method":"tools/call","params":{"name":'
                                     b'"search_decisions","arguments":{"query":"x","tags":' + deep(200) + b"}}}\n"),
        ("line-at-cap", at_cap + b"\n"),
        ("line-over-cap", at_cap + b" \n"),
        ("nul-only", b"\x00\n"),
        ("nul-in-string", ping[:-1] + b',"params":{"x":"a\x00b"}}\n'),
        ("escaped-nul", b'{"jsonrpc":"2.0","id":"a\\u0000b","method":"ping"}\n'),
        ("raw-u2028-in-id", '{"jsonrpc":"2.0","id":"a\u2028b","method":"ping"}\n'.encode("utf-8")),
        ("raw-u2028-between-tokens", '{"jsonrpc":"2.0",\u2028"id":1,"method":"ping"}\n'.encode("utf-8")),
        ("invalid-utf8-in-string", b'{"jsonrpc":"2.0","id":"\xff","method":"ping"}\n'),
        ("overlong-utf8", b'{"jsonrpc":"2.0","id":"\xc0\xaf","method":"ping"}\n'),
        ("cesu-surrogate", b'{"jsonrpc":"2.0","id":"\xed\xa0\x80","method":"ping"}\n'),
        ("lone-surrogate-escape-id", b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}\n'),
        ("bom", b"\xef\xbb\xbf" + ping + b"\n"),
        ("crlf", ping + b"\r\n"),
        ("cr-only-line", b"\r\n"),
        ("blank-lines", b"\n\n \t \r\n\n"),
        ("two-messages-one-chunk", ping + b"\n" + ping.replace(b"edge", b"edge2") + b"\r\n"),
        ("huge-integer-id", b'{"jsonrpc":"2.0","id":' + b"9" * 5000 + b',"method":"ping"}\n'),
        ("big-integer-id", b'{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}\n'),
        ("float-id", b'{"jsonrpc":"2.0","id":1e2,"method":"ping"}\n'),
        ("infinite-limit", b'{"jsonrpc":"2.0","id":"inf","method":"tools/call","params":{"name":"list_superseded",'
                           b'"arguments":{"limit":1e400}}}\n'),
        ("nan-token", b'{"jsonrpc":"2.0","id":"nan","method":"ping","params":{"x":NaN}}\n'),
        ("empty-batch", b"[]\n"),
        ("scalar", b"42\n"),
        ("string", b'"ping"\n'),
        ("null", b"null\n"),
    ]


EDGES = edge_lines()


# ---------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------

KINDS = ("legacy", "batch", "modern")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name, chunk", EDGES, ids=[name for name, _ in EDGES])
def test_edge_lines(peers, kind, name, chunk):
    peers(kind).exchange(chunk, timeout=60.0)


@pytest.mark.parametrize("kind", KINDS)
def test_fuzz_mutated_lines(peers, kind):
    fuzz(mutated_chunks(), "fuzz-frames/mutated/" + kind, peers(kind).exchange)


@pytest.mark.parametrize("kind", KINDS)
def test_fuzz_messages(peers, kind):
    bias = 6 if kind == "modern" else 1
    fuzz(message_chunks(bias), "fuzz-frames/messages/" + kind, peers(kind).exchange)


@pytest.mark.parametrize("kind", ("legacy", "modern"))
def test_fuzz_tool_arguments(peers, kind):
    peer = peers(kind)
    meta = dict(GOOD_META) if kind == "modern" else None

    def run(example):
        params, rid, ascii_only = example
        msg = {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": with_meta(params, meta)}
        line = encode(msg, ascii_only)
        top, _ = peer.exchange(line + b"\n")
        frame = top[0]
        try:
            parse(line)
            parsable = len(line) <= LINE_CAP
        except (ValueError, RecursionError):
            parsable = False
        if parsable and params.get("name") in TOOL_NAMES and isinstance(params.get("arguments", {}), dict):
            # A known tool with an argument object: a result, never a protocol error.
            assert "result" in frame, frame
    fuzz(st.tuples(tool_arguments(), st.integers(0, 2 ** 31), st.booleans()), "fuzz-frames/tool-arguments/" + kind,
         run)


def test_fuzz_batches(peers):
    fuzz(batch_chunks(), "fuzz-frames/batches", peers("batch").exchange)


FUZZ_TEST_NAMES = ("test_fuzz_mutated_lines", "test_fuzz_messages", "test_fuzz_tool_arguments",
                   "test_fuzz_batches")
FINISHED = set()  # node ids of the fuzz tests that have run in this session


@pytest.fixture(autouse=True)
def _count_finished_fuzz_tests(request):
    yield
    if request.node.originalname in FUZZ_TEST_NAMES:
        FINISHED.add(request.node.nodeid)


def test_the_budget_was_spent():
    """The default run tries at least ADRKIT_FUZZ_EXAMPLES frames.

    Always: the nine fuzz tests share the budget without rounding it down.  Each fuzz test that
    ran before this one (all nine in the file's order, where this test comes last; fewer in
    another order, pytest -p randomly, or a selection) must have checked its PER_TEST examples.
    """
    assert PER_TEST * FUZZ_TESTS >= BUDGET
    print("\nframes fuzz (%d of the %d fuzz tests ran before this one): %r" % (len(FINISHED), FUZZ_TESTS, COUNTS))
    if st.replaying():
        pytest.skip("ADRKIT_FUZZ_INDEX is set: one example per fuzz test")
    assert COUNTS["fuzzed"] == len(FINISHED) * PER_TEST, COUNTS
    assert COUNTS["examples"] >= COUNTS["fuzzed"], COUNTS  # exchanged with a server and judged
    if len(FINISHED) == FUZZ_TESTS:
        assert COUNTS["fuzzed"] >= BUDGET, COUNTS
