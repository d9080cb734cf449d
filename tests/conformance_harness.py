"""Replay harness for the adrkit-mcp behavioural conformance pack.

The pack (``tests/conformance/``) records, scenario by scenario, what the
reference implementation ``@adrkit/mcp`` 0.8.0 answers on stdio.  Each
scenario is one server process working on one fresh copy of one corpus; this
module replays the scenario against a candidate server command and compares
every answer with the recording, using the pack's comparison rules (see
``tests/conformance/README.md``).

Used by ``tests/test_conformance.py``; it can also be run by hand::

    python3 tests/conformance_harness.py --server "python3 adrkit_mcp.py" [--only 'search-*']

Standard library only; Python 3.9+.
"""

import argparse
import base64
import binascii
import fnmatch
import json
import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PACK_DIR = os.path.join(HERE, "conformance")
DEFAULT_TIMEOUT = 10.0

SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"

# Rule 3: finding rules whose message text comes from the schema or YAML
# library.  For these the message only has to be a string; everything else
# (rule, severity, path, id, field, pattern) is compared exactly.  Every other
# rule -- the fixed templates listed in the pack README and anything unknown --
# is compared exactly, message included.
LIBRARY_MESSAGE_RULES = frozenset(
    [
        "required-field",
        "invalid-type",
        "invalid-enum-value",
        "invalid-format",
        "invalid-size",
        "unique-items",
        "frontmatter-parse",
        "frontmatter-fence",
        "file-read",
    ]
)
LIBRARY_MESSAGE_PREFIXES = ("contract-",)

# Rule 6: the only handshake result fields compared (besides the presence of
# capabilities.tools and, rule 8, of the serverInfo _meta entry).
HANDSHAKE_FIELDS = ("protocolVersion", "supportedVersions", "resultType", "ttlMs", "cacheScope")

# Rule 7: tool fields that are not compared in tools/list.
TOOLS_LIST_IGNORED = frozenset(["title", "description", "outputSchema"])

FS_STEP_KEYS = ("write", "delete", "mkdir", "symlink")

# Variables of the server's own configuration are not inherited from the
# environment running the tests: a developer's ADRKIT_MCP_DIR would otherwise
# change what the default-layout scenarios see.
SERVER_ENV_PREFIX = "ADRKIT_MCP_"

_STEP_REF = re.compile(r"\$step\[(\d+)\]((?:\.[^.\[\]]+|\[\d+\])*)\Z")
_STEP_REF_TOKEN = re.compile(r"\.([^.\[\]]+)|\[(\d+)\]")
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")


# --------------------------------------------------------------------------- #
# Failures and formatting
# --------------------------------------------------------------------------- #


class Difference(Exception):
    """The first difference found; `where` is a JSON path or a channel name."""

    def __init__(self, where, detail):
        Exception.__init__(self, "%s: %s" % (where, detail))
        self.where = where
        self.detail = detail


class ScenarioFailure(AssertionError):
    """A scenario did not replay; the message names scenario, step, path, difference."""

    def __init__(self, scenario, step, where, detail):
        if step is None:
            location = "before the first step"
        elif step == "end":
            location = "after the last step"
        else:
            location = "step %d" % step
        AssertionError.__init__(self, "%s: %s %s: %s" % (scenario, location, where, detail))
        self.scenario = scenario
        self.step = step
        self.where = where
        self.detail = detail


def show(value, limit=200):
    """Render a value for a failure message: strings quoted, the rest as JSON."""
    if isinstance(value, str):
        text = repr(value)
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, sort_keys=True)
        except (TypeError, ValueError):
            text = repr(value)
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return text


def format_path(parts):
    """['result', 'items', 0, 'id'] -> 'result.items[0].id'."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += "[%d]" % part
        elif _IDENTIFIER.match(part):
            out += ("." if out else "") + part
        else:
            out += "[%s]" % json.dumps(part, ensure_ascii=False)
    return out or "(response)"


# --------------------------------------------------------------------------- #
# JSON helpers
# --------------------------------------------------------------------------- #


def json_kind(value):
    """JSON type of a decoded value; ints and floats are one kind, booleans another."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def json_equal(a, b):
    """Exact JSON equality: numbers by value (1 == 1.0), booleans are not numbers."""
    kind = json_kind(a)
    if kind != json_kind(b):
        return False
    if kind == "object":
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if kind == "array":
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    return a == b


def _js_numbers(value):
    """Integral floats as ints, as JavaScript's JSON.stringify writes them."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return int(value)
    if isinstance(value, list):
        return [_js_numbers(v) for v in value]
    if isinstance(value, dict):
        return {k: _js_numbers(v) for k, v in value.items()}
    return value


def compact_json(value):
    return json.dumps(_js_numbers(value), ensure_ascii=False, separators=(",", ":"))


def b64url_encode(text):
    return base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")


def b64url_decode(text):
    if not re.match(r"[A-Za-z0-9_-]*\Z", text):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class _DuplicateKey(ValueError):
    pass


def _no_duplicate_keys(pairs):
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise _DuplicateKey("duplicate key %r" % key)
        obj[key] = value
    return obj


def _reject_constant(name):
    raise ValueError("%s is not JSON" % name)


def parse_frame(raw):
    """Parse one stdout line (bytes, newline removed) strictly; raise Difference."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Difference("stdout", "line is not UTF-8: %r" % raw[:120])
    if text.strip() == "":
        raise Difference("stdout", "blank line %r (stdout must carry only JSON-RPC frames)" % text)
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=_reject_constant)
    except _DuplicateKey as exc:
        raise Difference("stdout", "frame has a %s: %s" % (exc, show(text)))
    except ValueError:
        raise Difference("stdout", "line is not JSON (stdout must carry only JSON-RPC frames): %s" % show(text))


def classify_frame(frame):
    """'response' or 'message' (server-initiated request/notification); raise otherwise."""
    if not isinstance(frame, dict):
        raise Difference("stdout", "frame is not a JSON object: %s" % show(frame))
    if frame.get("jsonrpc") != "2.0":
        raise Difference("stdout", 'frame lacks "jsonrpc": "2.0": %s' % show(frame))
    if "method" in frame:
        if not isinstance(frame["method"], str) or "result" in frame or "error" in frame:
            raise Difference("stdout", "malformed request/notification frame: %s" % show(frame))
        return "message"
    if ("result" in frame) == ("error" in frame):
        raise Difference("stdout", "frame is neither a response (id plus exactly one of result/error) nor a request: %s" % show(frame))
    if "id" not in frame:
        if "result" in frame:
            raise Difference("stdout", "result frame without an id: %s" % show(frame))
        return "response"  # an error for a request whose id could not be determined
    if json_kind(frame["id"]) not in ("string", "number", "null"):
        raise Difference("stdout", "response id is not a string, number or null: %s" % show(frame))
    return "response"


def response_matches(frame, expected_id):
    """Whether a response frame answers the request with `expected_id`."""
    if expected_id is None:
        # An id that could not be determined: `"id": null` or no id at all.
        return frame.get("id") is None
    return "id" in frame and json_equal(frame["id"], expected_id)


# --------------------------------------------------------------------------- #
# Substitution of the candidate's earlier answers into later requests
# --------------------------------------------------------------------------- #


def resolve_step_ref(ref, responses):
    match = _STEP_REF.match(ref)
    if not match:
        raise ValueError("malformed step reference %r in the scenario" % ref)
    index = int(match.group(1))
    if index not in responses:
        raise Difference("substitution", "%s: step %d has no response to refer to" % (ref, index))
    value = responses[index]
    for key, idx in _STEP_REF_TOKEN.findall(match.group(2)):
        if idx or (key.isdigit() and isinstance(value, list)):
            position = int(idx or key)
            if isinstance(value, list) and position < len(value):
                value = value[position]
                continue
        elif isinstance(value, dict) and key in value:
            value = value[key]
            continue
        raise Difference("substitution", "%s: the candidate's answer at step %d has no such value" % (ref, index))
    return value


def edit_cursor(cursor, changes):
    if not isinstance(cursor, str):
        raise Difference("substitution", "$cursor_edit: the candidate's cursor is not a string: %s" % show(cursor))
    try:
        payload = json.loads(b64url_decode(cursor).decode("utf-8"))
    except (ValueError, binascii.Error, UnicodeDecodeError) as exc:
        raise Difference("substitution", "$cursor_edit: cursor %s is not base64url JSON (%s)" % (show(cursor), exc))
    if not isinstance(payload, dict):
        raise Difference("substitution", "$cursor_edit: cursor %s does not decode to an object" % show(cursor))
    if not isinstance(changes, dict):
        raise ValueError("$cursor_edit 'set' must be an object")
    payload.update(changes)
    return b64url_encode(compact_json(payload))


def substitute(value, responses):
    """Resolve "$step[N].path", {"$b64json": v} and {"$cursor_edit": {...}} in a request."""
    if isinstance(value, str):
        return resolve_step_ref(value, responses) if value.startswith("$step[") else value
    if isinstance(value, list):
        return [substitute(item, responses) for item in value]
    if isinstance(value, dict):
        if len(value) == 1 and "$b64json" in value:
            return b64url_encode(compact_json(substitute(value["$b64json"], responses)))
        if len(value) == 1 and "$cursor_edit" in value:
            spec = substitute(value["$cursor_edit"], responses)
            return edit_cursor(spec.get("from"), spec.get("set", {}))
        return {key: substitute(item, responses) for key, item in value.items()}
    return value


# --------------------------------------------------------------------------- #
# Comparison (rules 1-9 of the pack README)
# --------------------------------------------------------------------------- #


class Comparator:
    """Compares the answers of one scenario; owns its fingerprint bijection."""

    def __init__(self):
        self.fp_expected_to_got = {}
        self.fp_got_to_expected = {}

    # -- exact comparison with per-path hooks ------------------------------ #
    def walk(self, exp, got, path, hooks=None):
        if hooks:
            pattern = tuple("*" if isinstance(p, int) else p for p in path)
            hook = hooks.get(pattern)
            if hook is not None:
                hook(exp, got, path)
                return
        kind = json_kind(exp)
        if kind != json_kind(got):
            raise Difference(format_path(path), "expected %s, got %s" % (show(exp), show(got)))
        if kind == "object":
            for key in exp:
                if key not in got:
                    raise Difference(format_path(path + [key]), "missing (expected %s)" % show(exp[key]))
            for key in got:
                if key not in exp:
                    raise Difference(format_path(path + [key]), "unexpected key (got %s)" % show(got[key]))
            for key in exp:
                self.walk(exp[key], got[key], path + [key], hooks)
        elif kind == "array":
            try:
                for index, (e, g) in enumerate(zip(exp, got)):
                    self.walk(e, g, path + [index], hooks)
            except Difference as diff:
                if len(exp) != len(got):
                    diff = Difference(diff.where, "%s (and %s has %d items, expected %d)" % (diff.detail, format_path(path), len(got), len(exp)))
                raise diff
            if len(exp) != len(got):
                extra = got[len(exp)] if len(got) > len(exp) else exp[len(got)]
                raise Difference(
                    format_path(path),
                    "expected %d items, got %d (first %s item: %s)"
                    % (len(exp), len(got), "unexpected" if len(got) > len(exp) else "missing", show(extra)),
                )
        elif exp != got:
            raise Difference(format_path(path), "expected %s, got %s" % (show(exp), show(got)))

    # -- hooks ------------------------------------------------------------- #
    @staticmethod
    def _present_only(exp, got, path):
        """Rule 8: the serverInfo _meta entry must exist; its value is not compared."""

    def _fingerprint(self, exp, got, path):
        """Rule 1: fingerprints map one-to-one between expectation and candidate."""
        if not isinstance(exp, str):
            self.walk(exp, got, path)
            return
        if not isinstance(got, str):
            raise Difference(format_path(path), "expected a fingerprint string, got %s" % show(got))
        earlier = self.fp_expected_to_got.get(exp)
        if earlier is not None and earlier != got:
            raise Difference(
                format_path(path),
                "the corpus is in a state that earlier produced fingerprint %s, got %s" % (show(earlier), show(got)),
            )
        other = self.fp_got_to_expected.get(got)
        if other is not None and other != exp:
            raise Difference(
                format_path(path),
                "got fingerprint %s, which an earlier, different corpus state already produced" % show(got),
            )
        self.fp_expected_to_got[exp] = got
        self.fp_got_to_expected[got] = exp

    @staticmethod
    def _cursor(exp, got, path):
        """Rule 2: cursors are opaque; only null versus a non-empty string must agree."""
        if exp is None:
            if got is not None:
                raise Difference(format_path(path), "expected null (no further page), got %s" % show(got))
        elif not isinstance(got, str) or got == "":
            raise Difference(format_path(path), "expected a cursor (non-empty string), got %s" % show(got))

    def _finding(self, exp, got, path):
        """Rule 3: exact, except that library-worded messages only need to be strings."""
        rule = exp.get("rule") if isinstance(exp, dict) else None
        library = isinstance(rule, str) and (rule in LIBRARY_MESSAGE_RULES or rule.startswith(LIBRARY_MESSAGE_PREFIXES))
        if not library or not isinstance(got, dict) or "message" not in exp:
            self.walk(exp, got, path)
            return
        if "message" in got and not isinstance(got["message"], str):
            raise Difference(format_path(path + ["message"]), "expected a string, got %s" % show(got["message"]))
        self.walk(exp, dict(got, message=exp["message"]) if "message" in got else got, path)

    def _tool(self, exp, got, path):
        """Rule 7: title, description and outputSchema of a tool are not compared."""
        if isinstance(exp, dict) and isinstance(got, dict):
            exp = {k: v for k, v in exp.items() if k not in TOOLS_LIST_IGNORED}
            got = {k: v for k, v in got.items() if k not in TOOLS_LIST_IGNORED}
        self.walk(exp, got, path)

    # -- per response ------------------------------------------------------ #
    def compare(self, method, exp, got):
        """Compare one response frame (already known to answer the awaited id)."""
        if "error" in exp:
            self._compare_error(exp["error"], got)
            return
        if "result" not in got:
            raise Difference("error" if "error" in got else "result", "expected a result, got %s" % show(got))
        exp_r, got_r = exp["result"], got["result"]
        if not isinstance(exp_r, dict) or not isinstance(got_r, dict):
            self.walk(exp_r, got_r, ["result"])
            return
        meta = {("result", "_meta", SERVER_INFO_KEY): self._present_only}
        if method in ("initialize", "server/discover"):
            self._compare_handshake(exp_r, got_r)
        elif method == "tools/list":
            hooks = dict(meta)
            hooks[("result", "tools", "*")] = self._tool
            self.walk(exp_r, got_r, ["result"], hooks)
        elif method == "tools/call":
            self._compare_tool_result(exp_r, got_r, meta)
        else:
            self.walk(exp_r, got_r, ["result"], meta)

    def _compare_error(self, exp_err, got):
        """Rule 5: only the code (and data for -32022); message must be a string."""
        if "error" not in got:
            raise Difference("result", "expected a JSON-RPC error with code %s, got a result %s" % (show(exp_err.get("code")), show(got.get("result"))))
        err = got["error"]
        if not isinstance(err, dict):
            raise Difference("error", "expected an error object, got %s" % show(err))
        code = err.get("code")
        if json_kind(code) != "number" or (isinstance(code, float) and not code.is_integer()):
            raise Difference("error.code", "expected an integer code, got %s" % show(code))
        if not isinstance(err.get("message"), str):
            raise Difference("error.message", "expected a string, got %s" % show(err.get("message")))
        if err["code"] != exp_err.get("code"):
            raise Difference("error.code", "expected %s, got %s (message %s)" % (show(exp_err.get("code")), show(err["code"]), show(err["message"])))
        if exp_err.get("code") == -32022:
            if "data" not in err:
                raise Difference("error.data", "missing (expected %s)" % show(exp_err.get("data")))
            self.walk(exp_err.get("data"), err["data"], ["error", "data"])

    def _require_server_info(self, exp_r, got_r):
        """Rule 8 on results that are otherwise compared only in part."""
        emeta = exp_r.get("_meta")
        if isinstance(emeta, dict) and SERVER_INFO_KEY in emeta:
            gmeta = got_r.get("_meta")
            if not isinstance(gmeta, dict) or SERVER_INFO_KEY not in gmeta:
                raise Difference(format_path(["result", "_meta", SERVER_INFO_KEY]), "missing (modern-era results must carry it)")

    def _compare_handshake(self, exp_r, got_r):
        """Rule 6."""
        for key in HANDSHAKE_FIELDS:
            if key in exp_r and key not in got_r:
                raise Difference(format_path(["result", key]), "missing (expected %s)" % show(exp_r[key]))
            if key in got_r and key not in exp_r:
                raise Difference(format_path(["result", key]), "unexpected key (got %s)" % show(got_r[key]))
            if key in exp_r:
                self.walk(exp_r[key], got_r[key], ["result", key])
        ecaps, gcaps = exp_r.get("capabilities"), got_r.get("capabilities")
        want_tools = isinstance(ecaps, dict) and "tools" in ecaps
        has_tools = isinstance(gcaps, dict) and "tools" in gcaps
        if want_tools != has_tools:
            raise Difference("result.capabilities.tools", "expected it %s, got capabilities %s" % ("present" if want_tools else "absent", show(gcaps)))
        self._require_server_info(exp_r, got_r)

    def _compare_tool_result(self, exp_r, got_r, meta):
        if exp_r.get("isError") is True:
            # Rule 4: only isError and content[0].type are compared.
            if got_r.get("isError") is not True:
                raise Difference("result.isError", "expected true (a tool error), got %s; result %s" % (show(got_r.get("isError")), show(got_r)))
            content = got_r.get("content")
            first = content[0] if isinstance(content, list) and content else None
            if not isinstance(first, dict) or first.get("type") != "text":
                raise Difference("result.content[0].type", "expected 'text', got content %s" % show(content))
            self._require_server_info(exp_r, got_r)
            return
        if got_r.get("isError") is True and "isError" not in exp_r:
            content = got_r.get("content")
            text = content[0].get("text") if isinstance(content, list) and content and isinstance(content[0], dict) else None
            raise Difference("result.isError", "unexpected tool error (got true; text %s)" % show(text, 400))
        hooks = dict(meta)
        sc = ("result", "structuredContent")
        hooks[sc + ("corpusHealth", "fingerprint")] = self._fingerprint
        hooks[sc + ("result", "cursor")] = self._cursor
        hooks[sc + ("result", "findings", "cursor")] = self._cursor
        hooks[sc + ("result", "findings", "items", "*")] = self._finding
        self.walk(exp_r, got_r, ["result"], hooks)


# --------------------------------------------------------------------------- #
# One server process on one temporary repository root
# --------------------------------------------------------------------------- #


def copy_tree(src, dst):
    """Copy a corpus: bytes exactly, symlinks as symlinks, fresh (writable) modes."""
    os.makedirs(dst)
    for entry in sorted(os.scandir(src), key=lambda e: e.name):
        target = os.path.join(dst, entry.name)
        if entry.is_symlink():
            os.symlink(os.readlink(entry.path), target)
        elif entry.is_dir():
            copy_tree(entry.path, target)
        else:
            shutil.copyfile(entry.path, target)


class Session:
    def __init__(self, scenario, server_cmd, pack_dir, timeout):
        self.scenario = scenario
        self.server_cmd = list(server_cmd)
        self.pack_dir = pack_dir
        self.timeout = timeout
        self.tmp = os.path.realpath(tempfile.mkdtemp(prefix="adrkit-conformance-"))
        self.root = os.path.join(self.tmp, "repo")
        self.proc = None
        self.stdout_lines = queue.Queue()
        self.stdout_closed = False
        self.stderr_buf = bytearray()
        self.stderr_lock = threading.Lock()
        self.stdin_closed = False
        self.threads = []

    # -- repository ---------------------------------------------------------- #
    def with_root(self, text):
        return str(text).replace("{root}", self.root)

    def prepare(self):
        corpus = self.scenario.get("corpus")
        if corpus is None:
            os.makedirs(os.path.join(self.root, "docs", "adr"))
        else:
            source = os.path.join(self.pack_dir, "corpora", corpus)
            if not os.path.isdir(source):
                raise ValueError("corpus %r is not in %s" % (corpus, os.path.join(self.pack_dir, "corpora")))
            copy_tree(source, self.root)
        if self.scenario.get("git", True):
            os.makedirs(os.path.join(self.root, ".git"), exist_ok=True)
        for step in self.scenario.get("setup") or []:
            self.apply_fs_step(step)

    def repo_path(self, rel):
        path = os.path.normpath(os.path.join(self.root, self.with_root(rel)))
        if path != self.root and not path.startswith(self.root + os.sep):
            raise ValueError("step path %r leaves the repository root" % rel)
        return path

    def apply_fs_step(self, step):
        if "write" in step:
            spec = step["write"]
            path = self.repo_path(spec["path"])
            data = base64.b64decode(spec["content_b64"]) if "content_b64" in spec else spec["content"].encode("utf-8")
            parent = os.path.dirname(path)
            if not os.path.isdir(parent):
                os.makedirs(parent)
            with open(path, "wb") as handle:
                handle.write(data)
        elif "delete" in step:
            path = self.repo_path(step["delete"])
            if os.path.islink(path) or os.path.isfile(path):
                os.unlink(path)
            elif os.path.isdir(path):
                shutil.rmtree(path)
            elif os.path.lexists(path):
                os.unlink(path)
        elif "mkdir" in step:
            os.makedirs(self.repo_path(step["mkdir"]), exist_ok=True)
        elif "symlink" in step:
            spec = step["symlink"]
            path = self.repo_path(spec["path"])
            parent = os.path.dirname(path)
            if not os.path.isdir(parent):
                os.makedirs(parent)
            os.symlink(spec["target"], path)
        else:
            raise ValueError("unknown filesystem step %s" % show(step))

    # -- process ------------------------------------------------------------- #
    def start(self):
        argv = [self.with_root(token) for token in self.server_cmd]
        argv += [self.with_root(arg) for arg in self.scenario.get("args") or []]
        env = {k: v for k, v in os.environ.items() if not k.startswith(SERVER_ENV_PREFIX)}
        for key, value in (self.scenario.get("env") or {}).items():
            env[key] = self.with_root(value)
        kwargs = {}
        if os.name == "posix":
            kwargs["start_new_session"] = True  # so cleanup can end the whole process group
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, **kwargs
        )
        for target in (self._read_stdout, self._read_stderr):
            thread = threading.Thread(target=target, daemon=True)
            thread.start()
            self.threads.append(thread)

    def _read_stdout(self):
        stream = self.proc.stdout
        while True:
            line = stream.readline()
            if not line:
                break
            self.stdout_lines.put(line)
        self.stdout_lines.put(None)

    def _read_stderr(self):
        stream = self.proc.stderr
        while True:
            chunk = stream.read1(65536) if hasattr(stream, "read1") else stream.read(4096)
            if not chunk:
                break
            with self.stderr_lock:
                self.stderr_buf += chunk
                if len(self.stderr_buf) > 65536:
                    del self.stderr_buf[:-16384]

    def stderr_tail(self, limit=800):
        with self.stderr_lock:
            text = bytes(self.stderr_buf).decode("utf-8", "replace").strip()
        if not text:
            return ""
        return "; stderr: " + (text if len(text) <= limit else "..." + text[-limit:])

    def status_note(self):
        code = self.proc.poll() if self.proc else None
        return ("exit status %s" % code) if code is not None else "process still running"

    def send_line(self, text):
        # Requests are a few KiB at most and every request waits for its answer,
        # so this write cannot block on a full pipe.
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("request line is not encodable as UTF-8: %r" % text[:120])
        try:
            self.proc.stdin.write(data + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise Difference("stdin", "the server stopped reading (%s; %s)%s" % (exc, self.status_note(), self.stderr_tail()))

    def next_frame(self, deadline):
        """The next stdout frame, validated; None at end of stdout; queue.Empty on timeout."""
        if self.stdout_closed:
            return None
        line = self.stdout_lines.get(timeout=max(0.0, deadline - time.monotonic()))
        if line is None:
            self.stdout_closed = True
            return None
        if line.endswith(b"\n"):
            line = line[:-1]
        frame = parse_frame(line)
        return frame, classify_frame(frame)

    def await_response(self, expected_id):
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                item = self.next_frame(deadline)
            except queue.Empty:
                raise Difference("response", "no answer with id %s within %gs (%s)%s" % (show(expected_id), self.timeout, self.status_note(), self.stderr_tail()))
            if item is None:
                try:
                    self.proc.wait(timeout=1.0)
                except subprocess.TimeoutExpired:
                    pass
                raise Difference("response", "stdout closed before the answer with id %s (%s)%s" % (show(expected_id), self.status_note(), self.stderr_tail()))
            frame, kind = item
            if kind == "message":
                continue  # server-initiated requests and notifications are not part of the contract
            if response_matches(frame, expected_id):
                return frame
            raise Difference("response", "unexpected response while awaiting id %s: %s" % (show(expected_id), show(frame, 300)))

    def close_stdin(self):
        if not self.stdin_closed:
            self.stdin_closed = True
            try:
                self.proc.stdin.close()
            except (BrokenPipeError, OSError):
                pass

    def finish(self, expect_exit):
        """Close stdin, drain stdout (no response may follow), check the exit status."""
        self.close_stdin()
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                item = self.next_frame(deadline)
            except queue.Empty:
                break
            if item is None:
                break
            frame, kind = item
            if kind == "response":
                raise Difference("stdout", "response after stdin was closed: %s" % show(frame, 300))
        try:
            code = self.proc.wait(timeout=max(0.05, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            if expect_exit is not None:
                raise Difference("exit", "the server did not exit within %gs of stdin closing%s" % (self.timeout, self.stderr_tail()))
            return
        if expect_exit is not None and code != expect_exit:
            raise Difference("exit", "expected exit status %s, got %s%s" % (expect_exit, code, self.stderr_tail()))

    def cleanup(self):
        if self.proc is not None:
            if self.proc.poll() is None:
                try:
                    if os.name == "posix":
                        os.killpg(self.proc.pid, signal.SIGKILL)
                    else:
                        self.proc.kill()
                except (ProcessLookupError, PermissionError):
                    self.proc.kill()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            # The readers first meet the end of the pipes (the process is gone), then the pipes are
            # closed: closed under a reader still in read1, they made it raise ValueError.
            for thread in self.threads:
                thread.join(timeout=2)
            for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                try:
                    stream.close()
                except (OSError, ValueError):
                    pass
        shutil.rmtree(self.tmp, ignore_errors=True)


# --------------------------------------------------------------------------- #
# Scenario replay
# --------------------------------------------------------------------------- #


def request_method(message):
    if isinstance(message, dict) and isinstance(message.get("method"), str):
        return message["method"]
    return None


def encode_request(message):
    try:
        line = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
        line.encode("utf-8")
        return line
    except UnicodeEncodeError:  # lone surrogates can only travel escaped
        return json.dumps(message, ensure_ascii=True, separators=(",", ":"))


def run_scenario(scenario, server_cmd, pack_dir=PACK_DIR, timeout=DEFAULT_TIMEOUT):
    """Replay one scenario (a decoded scenario file); raise ScenarioFailure on the first difference."""
    name = scenario.get("name", "?")
    session = Session(scenario, server_cmd, pack_dir, timeout)
    comparator = Comparator()
    responses = {}
    index = None
    try:
        try:
            session.prepare()
            session.start()
        except (OSError, ValueError) as exc:
            raise ScenarioFailure(name, None, "harness", "could not set up or start the server: %s" % exc)
        closed = False
        for index, step in enumerate(scenario.get("steps", [])):
            if "send" in step or "send_raw" in step:
                if "send" in step:
                    message = substitute(step["send"], responses)
                    line = encode_request(message)
                else:
                    line = step["send_raw"]
                    try:
                        message = json.loads(line)
                    except ValueError:
                        message = None
                session.send_line(line)
                expect = step.get("expect")
                if expect is None:
                    continue
                frame = session.await_response(expect.get("id"))
                responses[index] = frame
                comparator.compare(request_method(message), expect, frame)
            elif any(key in step for key in FS_STEP_KEYS):
                session.apply_fs_step(step)
            elif step.get("close_stdin"):
                closed = True
                session.finish(step.get("expect_exit"))
            else:
                raise ValueError("unknown step %s" % show(step))
        if not closed:
            index = "end"
            session.finish(None)
    except Difference as diff:
        raise ScenarioFailure(name, index, diff.where, diff.detail)
    except (OSError, ValueError) as exc:
        raise ScenarioFailure(name, index, "harness", str(exc))
    finally:
        session.cleanup()


def scenario_names(pack_dir=PACK_DIR):
    folder = os.path.join(pack_dir, "scenarios")
    return sorted(n[: -len(".json")] for n in os.listdir(folder) if n.endswith(".json"))


def load_scenario(name, pack_dir=PACK_DIR):
    with open(os.path.join(pack_dir, "scenarios", name + ".json"), encoding="utf-8") as handle:
        return json.load(handle)


def default_server_command(repo_root=None):
    """The server command: $ADRKIT_MCP_SERVER (shell-split) or this interpreter on adrkit_mcp.py."""
    override = os.environ.get("ADRKIT_MCP_SERVER", "").strip()
    if override:
        return shlex.split(override)
    repo_root = repo_root or os.path.dirname(HERE)
    return [sys.executable, os.path.join(repo_root, "adrkit_mcp.py")]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", help="server command line (shell-split); default: $ADRKIT_MCP_SERVER or adrkit_mcp.py")
    parser.add_argument("--only", help="scenario name or shell-style pattern")
    parser.add_argument("--dir", default=PACK_DIR, help="pack folder holding corpora/ and scenarios/")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="per-step timeout in seconds")
    parser.add_argument("--jobs", type=int, default=1, help="scenarios run in parallel")
    args = parser.parse_args(argv)
    command = shlex.split(args.server) if args.server else default_server_command()
    names = [n for n in scenario_names(args.dir) if not args.only or fnmatch.fnmatchcase(n, args.only)]
    if not names:
        print("no scenario matched", file=sys.stderr)
        return 2
    results = [None] * len(names)

    def run(i):
        started = time.monotonic()
        try:
            run_scenario(load_scenario(names[i], args.dir), command, args.dir, args.timeout)
            results[i] = (True, "", time.monotonic() - started)
        except ScenarioFailure as failure:
            results[i] = (False, str(failure), time.monotonic() - started)

    pending = list(range(len(names)))
    lock = threading.Lock()

    def worker():
        while True:
            with lock:
                if not pending:
                    return
                i = pending.pop(0)
            run(i)

    workers = [threading.Thread(target=worker) for _ in range(max(1, args.jobs))]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    for name, (ok, detail, took) in zip(names, results):
        print(("PASS %s (%.2fs)" % (name, took)) if ok else ("FAIL %s (%.2fs)" % (detail, took)))
    failed = sum(1 for ok, _, _ in results if not ok)
    print("%d passed, %d failed" % (len(names) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
