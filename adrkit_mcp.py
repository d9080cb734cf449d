# SPDX-License-Identifier: Apache-2.0
# Copyright the adrkit-mcp contributors. Licensed under the Apache License, Version 2.0:
# see LICENSE and NOTICE (the projects whose behaviour this module reproduces).
"""adrkit-mcp: a local, read-only MCP server over one Git-backed corpus of decision records.

A coding agent asks it "has this been decided?", "what governs these files?" and "what
replaced this?" -- rejected and superseded decisions included -- through four tools. No
model calls, no network, no writes: it reads Markdown files with typed YAML frontmatter
and answers with structured JSON, exactly as the Node @adrkit/mcp 0.8.0 does.

Two floors (docs/ARCHITECTURE.md; `python3 tools/sections.py` prints the line ranges;
tests/test_layers.py checks this list against the section headers). The product, in the order a
request flows through it:

  1. Wire        protocol constants; the stdin chunk reader and the frame writer; one line
                 -> one JSON-RPC message (decode, parse, id)
  2. Era         the rules of each protocol era: the 2025 `initialize` negotiation, the
                 2026-07-28 `_meta` envelope and stamps, capabilities, listen acknowledgements
  3. Dispatch    one stdio connection: splits stdin into lines (1 MiB each at most), decides
                 each request's era, runs methods and tool calls on workers (cancellation,
                 timeouts, batches, listens); signals; the embedding API; serving
  4. Contract    what several sections share: limits, outcomes, messages, summary templates,
                 UTF-16 helpers, the hook formats
  5. Tools       each tool with its schemas, texts, validator and pure function, then the
                 tool table; with --expose, resources, prompts and completions
  6. Projection  the corpus as one call sees it: roots, listing, stat-validated reuse;
                 with --from madr, the folder as `migrate --from madr` would leave it
  7. Importer    MADR and Nygard records -> migrated texts, ids and findings (ADR 0017)
  8. Reader      one file -> a Record or findings: fence, YAML, the typed schema
                 and a source file's `@adr` markers, read from its header window only
  9. Schema      the typed frontmatter v0.1.0 and its five cross-field rules
 10. Commands    the command line (one argparse parser): serve and `call`, the usage and help
                 texts, the flags every command shares, `main`
 11. Doctor      `doctor`: the set-up checked end to end, each problem with its fix
 12. Config      `config`: a client's configuration snippet and the hook entries
 13. Hook        `hook`: one agent event -> the decisions governing the files it edits
 14. Migrate     `migrate --from madr`, the reference CLI's `adr migrate`
 15. Reference CLI  the reference CLI's `lint`, `graph`, `new`, `explain` and `check`
                 (read as Node's parseArgs reads them)
 16. PR check    `pr-check`, the pull-request gate (ADR 0021, the only network code)

The compatibility engines below it, each entered only through its one door (an engine may span
several sections, its parts; they share its privates, and its door is still one):

 17. JS text     ECMAScript trim, code units, regexes; Node's parseArgs   door: JS
 18. Globs parser   picomatch 4.0.5 path globs: glob -> JavaScript regex source
 19. Globs regex    JavaScript regular expressions (V8, no flags, Annex B syntax)
 20. Globs engines  the two matchers and the product's path matcher   door: picomatch_pattern_type
 21. YAML scanner   yaml 2.9.0 frontmatter reading: types, errors, the scanner
 22. YAML parser    events, the node graph, scalar resolution
 23. YAML composer  events -> node graph -> JS values (Document.toJS)
 24. YAML writer    stringify (Document -> text, lineWidth 0)
 25. YAML loader    the entry point and the line-based fast path   door: FrontmatterYaml
 26. Semver      node-semver 7.8.5 ranges          door: parse_package_pattern
 27. URL         WHATWG `new URL()` validity       door: url_is_valid
 28. Collation   ICU root collation, en-US         door: LocaleCollation (JS localeCompare)

Embedders use `create_server`; the command line is `main`.
"""

from __future__ import annotations

__version__ = "0.1.0"

import argparse
import base64
import binascii
import bisect
import collections
import copy
import errno
import functools
import hashlib
import heapq
import io
import itertools
import json
import math
import os
import re
import signal
import stat
import sys
import threading
import time
import unicodedata
import urllib.parse
from typing import (
    TYPE_CHECKING, Any, Callable, Dict, FrozenSet, Iterable, Iterator, List, Mapping, NamedTuple, NoReturn,
    Optional, Sequence, Set, Tuple, TypedDict, TypeVar, Union, cast
)
# queue, shlex, subprocess and zipfile are imported where they are used: the serve loop, doctor
# and config need them, an agent's hook run does not (ADR 0018).

# The three runtime dependencies; the .pyz carries all of them. A clear sentence beats a traceback.
# They are only looked for here: the globs engine imports pathspec when its door is first asked
# for a pattern type (picomatch_pattern_type), the YAML engine imports PyYAML when its full route
# first runs (_yaml_bind_pyyaml), the URL check imports idna at its first joiner, so a run that
# needs none of them (`lint`, a hook's quiet event) does not pay for them (ADRs 0004 and 0018).
try:
    import importlib.util
    for _needed in ("yaml", "pathspec", "idna"):
        if importlib.util.find_spec(_needed) is None:
            raise ImportError("No module named %r" % _needed)
except ImportError as _missing:
    _hint = ("adrkit-mcp needs PyYAML, pathspec and idna (%s). Install them with: python3 -m pip install "
             "PyYAML==6.0.3 pathspec==1.1.1 idna==3.20 -- or run the self-contained dist/adrkit-mcp.pyz"
             % _missing)
    if __name__ == "__main__":
        sys.stderr.write("adrkit-mcp: %s\n" % _hint)
        sys.exit(1)
    raise ImportError(_hint) from None

__all__ = ["create_server", "main"]


# ---------------------------------------------------------------------------
# 1. Wire: protocol constants
# ---------------------------------------------------------------------------

# The one per-request revision we implement.  `server/discover` advertises it
# in `supportedVersions` and every -32022 names it in `data.supported`: those
# two lists must agree (clients retry with a version taken from either), and
# they name the versions a client may put in `_meta`, which is only this one.
MODERN_VERSION = "2026-07-28"
MODERN_VERSIONS = (MODERN_VERSION,)
LATEST_LEGACY_VERSION = "2025-11-25"

META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"

DEFAULT_REQUEST_TIMEOUT_MS = 120000
# threading waits overflow somewhere past this; nobody needs 25 days.
MAX_REQUEST_TIMEOUT_MS = 2 ** 31 - 1

# JSON-RPC 2.0 and MCP error codes.
_PARSE_ERROR = -32700
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

ENV_CWD = "ADRKIT_MCP_CWD"
ENV_DIR = "ADRKIT_MCP_DIR"
ENV_FROM = "ADRKIT_MCP_FROM"
ENV_MARKERS = "ADRKIT_MCP_MARKERS"


class _Absent:
    """Marks a missing member, where None would mean JSON null."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<absent>"


ABSENT = _Absent()


# ---------------------------------------------------------------------------
# 1. Wire: frames
# ---------------------------------------------------------------------------

class RpcError(Exception):
    """A JSON-RPC error answer, raised anywhere inside request handling."""

    def __init__(self, code: int, message: str, data: Any = ABSENT) -> None:
        Exception.__init__(self, message)
        self.code = code
        self.message = message
        self.data = data

    def to_json(self) -> Dict[str, Any]:
        error = {"code": self.code, "message": self.message}
        if self.data is not ABSENT:
            error["data"] = self.data
        return error


def result_frame(request_id: Any, result: Any) -> Dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def error_frame(request_id: Any, error: RpcError) -> Dict[str, Any]:
    """An error response; request_id ABSENT leaves the member out."""
    frame: Dict[str, Any] = {"jsonrpc": "2.0"}
    if request_id is not ABSENT:
        frame["id"] = request_id
    frame["error"] = error.to_json()
    return frame


def _dump_json(value: Any, ascii_only: bool) -> str:
    return json.dumps(value, ensure_ascii=ascii_only, separators=(",", ":"), allow_nan=False)


def _encode_frame(frame: Any) -> bytes:
    """Compact UTF-8 JSON plus the newline that ends a stdio message.

    json.dumps escapes every control character, so no raw newline can end up
    inside a frame.  U+2028/U+2029 are legal raw in JSON, but they are escaped
    anyway for clients that split lines the way str.splitlines does.  A lone
    surrogate (a request may carry one as a \\ud800 escape and a tool may echo
    it) has no UTF-8 form; then the frame is written all-ASCII, where it
    survives as an escape.  NaN and infinities raise ValueError: they are not
    JSON.
    """
    text = _dump_json(frame, ascii_only=False)
    text = text.replace(u"\u2028", u"\\u2028").replace(u"\u2029", u"\\u2029")
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = _dump_json(frame, ascii_only=True).encode("ascii")
    return data + b"\n"


def _encode_or_replace(frame: Dict[str, Any]) -> bytes:
    """Encode a frame; a response that cannot be encoded becomes -32603."""
    try:
        return _encode_frame(frame)
    except (ValueError, TypeError, RecursionError) as exc:
        if not isinstance(frame, dict) or "id" not in frame:
            raise
        diagnose("could not encode the answer to request %s: %s" % (describe_id(frame["id"]), exc))
        return _encode_frame(error_frame(frame["id"], RpcError(INTERNAL_ERROR, "Internal error")))


def describe_id(request_id: Any) -> str:
    try:
        return _dump_json(request_id, ascii_only=True)[:80]
    except (ValueError, TypeError):
        return "?"


class FrameWriter:
    """Serialises frames onto the output, one whole line at a time.

    Every thread that answers (the reader for quick methods, workers for tool
    calls, the deadline thread for timeouts) goes through here, so a lock keeps
    lines from interleaving.  After `stop()` nothing more is written: stdin EOF
    abandons in-flight requests, and a late answer must not trickle out.  A
    failed write (EPIPE: the client went away) stops the writer and is
    reported once through `on_failure`.
    """

    def __init__(self, write_bytes: Callable[[bytes], None],
                 on_failure: Callable[[BaseException], None]) -> None:
        self._write_bytes = write_bytes
        self._on_failure = on_failure
        self._lock = threading.Lock()
        self._open = True

    def stop(self) -> None:
        # No lock: a write blocked on a full pipe must not block shutdown.
        self._open = False

    def send(self, frame: Optional[Dict[str, Any]]) -> None:
        """Write one frame; None (nothing to answer) is ignored."""
        if frame is None or not self._open:
            return
        self._write(_encode_or_replace(frame))

    def send_batch(self, frames: List[Dict[str, Any]]) -> None:
        """Write the array answering a batch (2025-03-26 sessions only)."""
        if not frames or not self._open:
            return
        try:
            data = _encode_frame(frames)
        except (ValueError, TypeError, RecursionError):
            parts = [_encode_or_replace(frame)[:-1] for frame in frames]
            data = b"[" + b",".join(parts) + b"]\n"
        self._write(data)

    def _write(self, data: bytes) -> None:
        failure = None
        with self._lock:
            if not self._open:
                return
            try:
                self._write_bytes(data)
            except (OSError, ValueError) as exc:  # ValueError: a closed file object
                self._open = False
                failure = exc
        if failure is not None:
            self._on_failure(failure)


def output_writer(stream: Any) -> Callable[[bytes], None]:
    """A function writing all of a bytes object to `stream` (None: fd 1)."""
    if stream is None:
        stream = 1
    if isinstance(stream, int):
        fd = stream

        def write_fd(data: bytes) -> None:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        return write_fd
    if isinstance(stream, io.TextIOBase):
        stream = cast(io.TextIOWrapper, stream).buffer  # text streams carry their bytes underneath
    flush = getattr(stream, "flush", None)

    def write_stream(data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = stream.write(view)
            if written is None or written >= len(view):
                break
            view = view[written:]
        if flush is not None:
            flush()
    return write_stream


def input_reader(stream: Any) -> Callable[[int], bytes]:
    """A function returning the next chunk of input bytes (b"" at EOF).

    The process's own stdin is read with os.read on fd 0 rather than through
    sys.stdin.buffer: the buffered reader holds a lock while it blocks, and
    a daemon thread parked in it at interpreter exit can abort the process
    ("could not acquire lock ... at interpreter shutdown").  Other streams
    are read with read1, which returns as soon as any bytes are there.
    """
    if stream is None:
        stream = 0
    if isinstance(stream, int):
        fd = stream
        return lambda size: os.read(fd, size)
    if isinstance(stream, io.TextIOBase):
        stream = cast(io.TextIOWrapper, stream).buffer
    read1 = getattr(stream, "read1", None)
    return read1 if read1 is not None else stream.read


# ---------------------------------------------------------------------------
# 1. Wire: lines and messages
# ---------------------------------------------------------------------------


def parse_line(line: bytes) -> Any:
    """Decode and parse one line; raises RpcError(-32700) when it is not JSON."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RpcError(_PARSE_ERROR, "Parse error: the line is not valid UTF-8 (byte %d)" % exc.start)
    try:
        return json.loads(text, parse_constant=reject_constant)
    except RecursionError:
        # Valid JSON nested deeper than the parser's recursion limit.  The
        # text could not be parsed, so this is a parse error (-32700) rather
        # than an invalid request: no id could be read from it either.
        raise RpcError(_PARSE_ERROR, "Parse error: the JSON text is nested too deeply")
    except ValueError as exc:  # JSONDecodeError, NaN/Infinity, huge integers
        raise RpcError(_PARSE_ERROR, "Parse error: %s" % (str(exc).split("\n")[0][:200],))


def answered_request_id(value: Any) -> Any:
    """The JSON-RPC id as answered, or ABSENT when it is not a legal MCP id.

    MCP ids are strings or integers, never null.  JSON numbers such as 1e2 or
    1.0 have no fractional part and count as integers (JSON Schema agrees), so
    they are echoed as the integer; 1.5 is refused.  Booleans are not numbers.
    """
    if isinstance(value, bool):
        return ABSENT
    if isinstance(value, (str, int)):
        return value
    if isinstance(value, float) and value.is_integer():  # False for NaN and infinities
        return int(value)
    return ABSENT


def id_key(request_id: Any) -> Tuple[bool, Any]:
    """Dictionary key that keeps the request 5 apart from the request "5"."""
    return (type(request_id) is str, request_id)


# ---------------------------------------------------------------------------
# 2. Era: which protocol a request speaks
# ---------------------------------------------------------------------------
#
# A process starts undecided.  `initialize` (without the modern claim) opens
# a legacy session at the negotiated revision.  A request whose
# params._meta carries the modern keys is judged on that _meta alone and, when
# valid, served per 2026-07-28 -- also inside a legacy session, because a
# stateless request needs no session and answering it in the legacy shape
# would be wrong for the schema it asked for.  The first valid modern request
# other than the `server/discover` probe pins an undecided process to the
# modern era: from then on a request without the claim is missing its required
# _meta (-32602), and a plain `initialize` gets -32022 naming the supported
# versions.  A discover probe alone pins nothing, so a dual-era client may
# still fall back to `initialize`.

ERA_UNDECIDED = "undecided"
ERA_LEGACY = "legacy"
ERA_MODERN = "modern"


def has_modern_claim(params: Any) -> bool:
    """True when params._meta carries either required 2026-07-28 key.

    Pre-2026 clients put nothing under the io.modelcontextprotocol/ prefix in
    a request's _meta, so either key is a claim; a claim missing the other key
    is a broken modern request (-32602), not a legacy one.
    """
    if not isinstance(params, dict):
        return False
    meta = params.get("_meta")
    return isinstance(meta, dict) and (
        META_PROTOCOL_VERSION in meta or META_CLIENT_CAPABILITIES in meta)

_UNSUPPORTED_PROTOCOL_VERSION = -32022


def unsupported_version(requested: str) -> RpcError:
    return RpcError(
        _UNSUPPORTED_PROTOCOL_VERSION,
        "Unsupported protocol version: %s" % requested,
        {"supported": list(MODERN_VERSIONS), "requested": requested})


def check_modern_envelope(params: Dict[str, Any]) -> None:
    """Validate a claimed request's _meta; raise -32602 / -32022 when wrong.

    The version is looked at before anything else in the envelope: what a
    request must carry is defined by its revision, and a client speaking an
    unknown revision should hear -32022 (and retry with ours) rather than a
    complaint about keys its revision may not have.
    """
    meta = params["_meta"]
    if META_PROTOCOL_VERSION not in meta:
        raise RpcError(INVALID_PARAMS, "Invalid params: _meta lacks %s" % META_PROTOCOL_VERSION)
    version = meta[META_PROTOCOL_VERSION]
    if not isinstance(version, str):
        raise RpcError(INVALID_PARAMS, "Invalid params: _meta %s must be a string" % META_PROTOCOL_VERSION)
    if version not in MODERN_VERSIONS:
        raise unsupported_version(version)
    if not isinstance(meta.get(META_CLIENT_CAPABILITIES), dict):
        raise RpcError(INVALID_PARAMS, "Invalid params: _meta %s must be an object"
                        % META_CLIENT_CAPABILITIES)


def _server_info() -> Dict[str, str]:
    return {"name": SERVER_NAME, "version": SERVER_VERSION}

NO_COMPLETIONS_REVISIONS = ("2024-11-05",)


def server_capabilities(expose: Sequence[str] = (), revision: str = MODERN_VERSION) -> Dict[str, Any]:
    """The server's capabilities: `tools`, and what --expose adds (ADR 0015).

    No `listChanged` anywhere: the four tools never change, and no resource or prompt list
    change is ever announced (a client re-lists; corpus results are never cacheable), so no
    notification is ever sent and no capability may promise one.  No `subscribe`, no logging.
    Without --expose this is `{"tools": {}}`, as it always was.
    """
    capabilities: Dict[str, Any] = {"tools": {}}
    for part in EXPOSE_PARTS:
        if part in expose:
            capabilities[part] = {}
    if expose and revision not in NO_COMPLETIONS_REVISIONS:
        capabilities["completions"] = {}  # the template's id, explain-decision's ref
    return capabilities

_META_SERVER_INFO = "io.modelcontextprotocol/serverInfo"


def stamp_modern(result: Mapping[str, Any]) -> Dict[str, Any]:
    """Every 2026-07-28 result says it is complete and who answered it."""
    stamped = dict(result)
    stamped["resultType"] = "complete"
    meta = stamped.get("_meta")
    meta = dict(meta) if isinstance(meta, dict) else {}
    meta[_META_SERVER_INFO] = _server_info()
    stamped["_meta"] = meta
    return stamped


# subscriptions/listen (2026-07-28, basic/patterns/subscriptions).  The
# acknowledgement's `notifications` "reflects the subset the server agreed to
# honor.  Notification types the server does not support are omitted", and the
# schema adds: "Only includes notification types the server actually supports;
# if the client requested an unsupported type (e.g., `promptsListChanged` when
# the server has no prompts), it is omitted from this set."  Our `tools`
# capability has no `listChanged` ("Whether this server supports notifications
# for changes to the tool list"), because the four tools never change: we do
# not support notifications/tools/list_changed, so `toolsListChanged` is
# omitted, not honoured vacuously (that would contradict the capability).
# Prompts and resources, when --expose serves them (ADR 0015), declare no
# `listChanged` and no `subscribe` either, so `promptsListChanged`,
# `resourcesListChanged` and `resourceSubscriptions` are omitted as well.
# Every acknowledgement is therefore `"notifications": {}` and nothing ever
# follows it (ADR 0011).
_LISTEN_FILTER_FLAGS = ("toolsListChanged", "promptsListChanged", "resourcesListChanged")


def listen_filter(params: Dict[str, Any]) -> Dict[str, Any]:
    """The subset of a listen's filter that we honour (none); -32602 when malformed."""
    requested = params.get("notifications")
    if not isinstance(requested, dict):
        raise RpcError(INVALID_PARAMS, "Invalid params: subscriptions/listen needs a notifications object")
    for flag in _LISTEN_FILTER_FLAGS:
        if flag in requested and not isinstance(requested[flag], bool):
            raise RpcError(INVALID_PARAMS, "Invalid params: notifications.%s must be a boolean" % flag)
    uris = requested.get("resourceSubscriptions", [])
    if not isinstance(uris, list) or not all(isinstance(uri, str) for uri in uris):
        raise RpcError(INVALID_PARAMS, "Invalid params: notifications.resourceSubscriptions must be "
                        "an array of strings")
    return {}

_META_SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId"


def listen_acknowledgement(request_id: Any, honoured: Dict[str, Any]) -> Dict[str, Any]:
    """The first message of a listen's stream, tagged with its subscription id."""
    return {"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
            "params": {"notifications": honoured, "_meta": {_META_SUBSCRIPTION_ID: request_id}}}


def listen_closure(request_id: Any) -> Dict[str, Any]:
    """The complete result that ends a listen when the server ends it (SIGTERM, close())."""
    return result_frame(request_id, stamp_modern({"_meta": {_META_SUBSCRIPTION_ID: request_id}}))

# Revisions negotiated through `initialize`, oldest first.  A client asking
# for anything else (including 2026-07-28, which has no handshake) is offered
# the newest one, as the lifecycle page recommends.
_LEGACY_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")


def negotiate_legacy(params: Any, expose: Sequence[str] = ()) -> Tuple[str, Dict[str, Any]]:
    """The `initialize` answer, or -32602 when the request is malformed."""
    if not isinstance(params, dict):
        raise RpcError(INVALID_PARAMS, "Invalid params: initialize needs params")
    requested = params.get("protocolVersion")
    if not isinstance(requested, str):
        raise RpcError(INVALID_PARAMS, "Invalid params: initialize needs a string protocolVersion")
    if not isinstance(params.get("capabilities"), dict):
        raise RpcError(INVALID_PARAMS, "Invalid params: initialize needs a capabilities object")
    client_info = params.get("clientInfo", ABSENT)
    if client_info is not ABSENT and not isinstance(client_info, dict):
        raise RpcError(INVALID_PARAMS, "Invalid params: clientInfo must be an object")
    version = requested if requested in _LEGACY_VERSIONS else LATEST_LEGACY_VERSION
    return version, {
        "protocolVersion": version,
        "capabilities": server_capabilities(expose, version),
        "serverInfo": _server_info(),
    }


# ---------------------------------------------------------------------------
# 3. Dispatch: the threads we start, and the signals they never take
# ---------------------------------------------------------------------------

# SIGTERM and SIGINT end the server command (ADR 0012).  CPython runs a Python
# signal handler only in the main thread, and only once that thread runs
# bytecode again, while the kernel hands a process-directed signal to any
# thread that does not block it.  So every thread the server starts blocks
# both (where pthread_sigmask exists), leaving the main thread as the only one
# the kernel can pick, and the main thread waits in slices of this length, so
# a signal that reached another thread all the same (Windows, which has no
# signal masks; a thread someone else started) still has its handler run.
_SIGNAL_POLL_S = 0.1

# How long shutdown waits for the complete results of open listens to be written.
_CLOSING_WRITES_S = 1.0

_SHUTDOWN_SIGNALS = frozenset(getattr(signal, name) for name in ("SIGTERM", "SIGINT") if hasattr(signal, name))


class _SignalsBlocked:
    """`with _SignalsBlocked():` SIGTERM and SIGINT blocked in this thread, then the old mask.

    A thread started inside inherits the mask, so it blocks both from its first
    instruction; a signal that arrives meanwhile stays pending and is delivered
    when the mask is restored.  Does nothing where pthread_sigmask is missing.
    """

    __slots__ = ("_previous",)

    def __enter__(self) -> "_SignalsBlocked":
        mask = getattr(signal, "pthread_sigmask", None)
        self._previous = None if mask is None or not _SHUTDOWN_SIGNALS \
            else mask(signal.SIG_BLOCK, _SHUTDOWN_SIGNALS)
        return self

    def __exit__(self, *exc_info: Any) -> None:
        if self._previous is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self._previous)


def _start_thread(target: Callable[[], None], name: str) -> threading.Thread:
    """Start a daemon thread of the server, SIGTERM and SIGINT blocked in it.

    Daemon: at stdin EOF the process exits without waiting for a tool call
    that is still running (it is abandoned, not answered).
    """
    thread = threading.Thread(target=target, name=name, daemon=True)
    with _SignalsBlocked():
        thread.start()
    return thread


# ---------------------------------------------------------------------------
# 3. Dispatch: tool calls, deadlines, batches
# ---------------------------------------------------------------------------

class _ToolCall:
    """One tools/call on its way through a worker.

    Exactly one of three things concludes it -- its result, a cancellation,
    or its deadline -- and only the first counts: `done` flips under the lock,
    and whatever comes later (a result after a timeout, say) is dropped.
    """

    __slots__ = ("request_id", "name", "arguments", "modern", "reply", "stopped", "done", "lock", "deadline",
                 "admitted", "work")

    def __init__(self, request_id: Any, name: str, arguments: Dict[str, Any], modern: bool,
                 reply: Callable[[Any], None],
                 work: Optional[Callable[[ShouldStop], Dict[str, Any]]] = None) -> None:
        self.request_id = request_id
        self.name = name
        self.arguments = arguments
        self.modern = modern
        self.reply = reply
        # A request of --expose (ADR 0015) rides the same slots, deadline and cancellation:
        # work(should_stop) gives its result; `name` is then its method.
        self.work = work
        self.stopped = self.done = False
        self.lock = threading.Lock()
        self.deadline: Optional[_DeadlineEntry] = None  # its entry in _Deadlines, cancelled once the call concludes
        self.admitted = False  # holds one of the _MAX_IN_FLIGHT slots (else it is waiting)

    def should_stop(self) -> bool:
        # Handed to the core, which asks at every record boundary.
        return self.stopped


# A deadline: [when, order, callback], a list so that cancel() can clear its callback in place.
_DeadlineEntry = List[Any]


class _Deadlines:
    """One daemon thread firing callbacks at monotonic deadlines."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._heap: List[_DeadlineEntry] = []
        self._order = itertools.count()
        self._thread: Optional[threading.Thread] = None
        self._closed = False
        self._cancelled = 0

    def add(self, when: float, callback: Callable[[], None]) -> _DeadlineEntry:
        """Schedule `callback`; returns the entry to hand to `cancel`."""
        entry = [when, next(self._order), callback]
        with self._cond:
            if self._closed:
                return entry
            heapq.heappush(self._heap, entry)
            if self._thread is None:
                self._thread = _start_thread(self._run, "adrkit-mcp-deadlines")
            self._cond.notify()
        return entry

    def cancel(self, entry: _DeadlineEntry) -> None:
        """Forget a deadline that no longer matters: a finished call must not stay referenced
        (arguments and all) until its timeout would have fired."""
        with self._cond:
            if entry[2] is None:
                return
            entry[2] = None
            self._cancelled += 1
            if self._cancelled > 64 and 2 * self._cancelled > len(self._heap):
                self._heap = [kept for kept in self._heap if kept[2] is not None]
                heapq.heapify(self._heap)
                self._cancelled = 0

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._heap = []
            self._cond.notify()

    def _run(self) -> None:
        with self._cond:
            while not self._closed:
                if not self._heap:
                    self._cond.wait()
                    continue
                delay = self._heap[0][0] - time.monotonic()
                if delay > 0:
                    self._cond.wait(delay)
                    continue
                callback = heapq.heappop(self._heap)[2]
                if callback is None:  # cancelled
                    self._cancelled = max(0, self._cancelled - 1)
                    continue
                self._cond.release()
                try:
                    callback()
                except Exception as exc:  # never let the timer die
                    diagnose("deadline callback failed: %r" % (exc,))
                finally:
                    self._cond.acquire()


class _BatchCollector:
    """Gathers the answers to one batch and writes them as one array.

    Each element reports once (None for a notification or a cancelled call);
    when the last has reported, the answers go out together.  A batch of
    notifications only is answered with nothing at all.
    """

    _UNSET = object()

    def __init__(self, size: int, send_batch: Callable[[List[Dict[str, Any]]], None]) -> None:
        self._slots: List[Any] = [self._UNSET] * size  # frames, None, or _UNSET
        self._left = size
        self._send_batch = send_batch
        self._lock = threading.Lock()

    def sink(self, index: int) -> Callable[[Optional[Dict[str, Any]]], None]:
        return lambda frame: self._fill(index, frame)

    def _fill(self, index: int, frame: Optional[Dict[str, Any]]) -> None:
        with self._lock:
            if self._slots[index] is not self._UNSET:
                return
            self._slots[index] = frame
            self._left -= 1
            if self._left:
                return
            frames = [f for f in self._slots if f is not None]
        self._send_batch(frames)


# ---------------------------------------------------------------------------
# 3. Dispatch: one stdio connection
# ---------------------------------------------------------------------------

# The only revision whose receivers must accept JSON-RPC batches.
_BATCH_VERSION = "2025-03-26"

# Revisions whose schema requires an `id` on every error response.  When the
# id of a broken request cannot be known, JSON-RPC 2.0 says `"id": null`, so
# sessions at these revisions get that; 2025-11-25 and later forbid null but
# let the id be left out, which is what every other situation gets.
_NULL_ID_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18")

# Cache hints for the two results that never change while the process lives
# (the tool catalogue and the discovery answer carry no corpus content).
_CACHE_TTL_MS = 300000

_CACHE_SCOPE = "public"

# Request lines longer than this are refused without being held in memory.
# The largest legal tools/call (256 paths of 1024 code units) fits easily
# unless every character is written as a \\uXXXX escape.
_MAX_LINE_BYTES = 1024 * 1024

_READ_CHUNK_BYTES = 64 * 1024

# Tool calls run on this many worker threads, so one slow call does not hold
# up the next.  The core's call_tool must therefore be thread-safe.
_TOOL_WORKERS = 4

# At most this many tool calls are admitted (queued or running) at once.  A
# call beyond them waits unadmitted in a small waiting room (no deadline yet,
# no worker), and the reader goes on reading, so a `notifications/cancelled`
# still gets through; only when the waiting room is full too does the reader
# stop reading until a call concludes.  A client that pipelines thousands of
# calls is thus held back by the pipe instead of growing our memory with their
# arguments.  Listens (`subscriptions/listen`) are neither admitted nor waiting.
_MAX_IN_FLIGHT = 64

_MAX_WAITING = 16

# Open listens cost one small entry each; this many at once is plenty for any client
# (each listens to every type we could ever send), and memory stays bounded.
_MAX_LISTENS = 64

_INVALID_REQUEST = -32600

_METHOD_NOT_FOUND = -32601

# What a handler returns when its answer will be sent later (a tool call).
_PENDING = object()

EXPOSE_METHODS: Dict[str, Tuple[Tuple[str, ...], Optional[str]]] = {
    # method: (the parts that serve it, its 2026-07-28 cache hint: "static", "corpus" or none)
    "completion/complete": (("prompts", "resources"), None),
    "prompts/get": (("prompts",), None),
    "prompts/list": (("prompts",), "static"),
    "resources/list": (("resources",), "corpus"),
    "resources/read": (("resources",), "corpus"),
    "resources/templates/list": (("resources",), "static"),
}

# Whatever holds corpus content is stale at once and never shared: a record edited between two
# reads must show the edit, also to a client that caches by default (the Python SDK does).
CORPUS_CACHE_TTL_MS = 0

CORPUS_CACHE_SCOPE = "private"

class _Connection:
    """Serves one stdio connection: a reader thread, tool workers, a timer.

    The reader thread splits input into lines, parses them, and answers
    every quick method itself (initialize, ping, tools/list, server/discover,
    errors), so those are answered at once even while tools run.  tools/call
    goes to a small pool of worker threads; the deadline thread answers calls
    that overrun the request timeout.  `serve()` blocks until stdin ends,
    `shutdown()` is called, or the output breaks.
    """

    def __init__(self, config: CorpusConfig, read_chunk: Callable[[int], bytes],
                 write_bytes: Callable[[bytes], None], request_timeout_ms: int,
                 expose: Iterable[str] = ()) -> None:
        import queue
        self._config = config
        self._expose = tuple(expose)  # the parts of --expose served (ADR 0015); () by default
        self._read_chunk = read_chunk
        self._writer = FrameWriter(write_bytes, self._output_failed)
        self._timeout_ms = request_timeout_ms
        self._era = ERA_UNDECIDED
        self._legacy_version: Optional[str] = None
        self._lock = threading.Lock()
        self._in_flight: Dict[Tuple[bool, Any], List[_ToolCall]] = {}
        self._calls: queue.Queue = queue.Queue()
        self._workers: List[threading.Thread] = []
        self._deadlines = _Deadlines()
        self._room = threading.Condition(self._lock)  # signalled when a call concludes or we end
        self._admitted = 0  # calls holding a slot, at most _MAX_IN_FLIGHT
        self._waiting: collections.deque = collections.deque()  # unadmitted calls, in order
        self._listens: Dict[Tuple[bool, Any], Tuple[Any, threading.Event]] = {}  # open: (id, acknowledged)
        self._ended = threading.Event()
        self._end_reason: Optional[str] = None
        self._end_error: Optional[BaseException] = None

    # -- lifecycle ---------------------------------------------------------

    def serve(self) -> None:
        _start_thread(self._read_loop, "adrkit-mcp-reader")
        try:
            if threading.current_thread() is threading.main_thread():
                # The thread that runs signal handlers: it wakes in slices so a
                # handler runs even when its signal landed elsewhere (ADR 0012).
                while not self._ended.wait(_SIGNAL_POLL_S):
                    pass
            else:
                self._ended.wait()  # no handler runs here; shutdown() sets the event
        finally:
            self.shutdown("closed")
        if self._end_reason in ("output-failed", "input-failed") and self._end_error is not None:
            raise self._end_error

    def shutdown(self, reason: str, error: Optional[BaseException] = None) -> None:
        """End the connection; the first reason given is the one kept."""
        with self._lock:
            if self._end_reason is not None:
                return
            self._end_reason = reason
            self._end_error = error
            abandoned = [call for calls in self._in_flight.values() for call in calls]
            self._in_flight = {}
            self._waiting.clear()
            # A listen ended by the server (SIGTERM, close()) SHOULD get a complete result
            # first; one ended by the transport (EOF, a broken pipe) gets nothing.
            closing = list(self._listens.values()) if reason == "closed" else []
            self._listens = {}
            self._room.notify_all()
        if closing:
            # A thread of its own writes them, each once its acknowledgement is out (it may
            # be on its way as we end), and is waited for at most a second: a client that
            # reads nothing (a full pipe, or another thread's write blocked on it, holding
            # the writer) must not keep the process from ending.
            closer = _start_thread(lambda: self._close_listens(closing), "adrkit-mcp-closing")
            closer.join(_CLOSING_WRITES_S)
        self._writer.stop()
        for call in abandoned:
            with call.lock:
                call.done = True
            call.stopped = True
        self._deadlines.close()
        for _ in self._workers:
            self._calls.put(None)
        self._ended.set()

    def _close_listens(self, closing: List[Tuple[Any, threading.Event]]) -> None:
        for request_id, acknowledged in closing:
            acknowledged.wait()  # bounded by shutdown's join: this thread is a daemon
            self._writer.send(listen_closure(request_id))

    def _output_failed(self, exc: BaseException) -> None:
        self.shutdown("output-failed", exc)

    # -- reading -----------------------------------------------------------

    def _read_loop(self) -> None:
        try:
            self._read_lines()
        except Exception as exc:  # a bug here must still end the connection
            diagnose("reader failed: %r" % (exc,))
            self.shutdown("input-failed", exc)

    def _read_lines(self) -> None:
        """Split the input on b"\\n" (and nothing else) into request lines.

        A line longer than _MAX_LINE_BYTES is not kept: its bytes are dropped
        as they arrive until its newline, then it is refused with -32600, so
        memory stays bounded by the cap plus one chunk.  An unterminated tail
        at EOF is not a message and is dropped.
        """
        pending = bytearray()
        discarding = False
        while not self._ended.is_set():
            try:
                chunk = self._read_chunk(_READ_CHUNK_BYTES)
            except OSError as exc:
                self.shutdown("input-failed", exc)
                return
            if not chunk:
                self.shutdown("eof")
                return
            start = 0
            while True:
                newline = chunk.find(b"\n", start)
                if newline < 0:
                    if not discarding:
                        if len(pending) + len(chunk) - start > _MAX_LINE_BYTES:
                            del pending[:]
                            discarding = True
                        else:
                            pending += chunk[start:]
                    break
                piece = chunk[start:newline]
                start = newline + 1
                if discarding:
                    discarding = False
                    self._refuse_oversized_line()
                elif len(pending) + len(piece) > _MAX_LINE_BYTES:
                    del pending[:]
                    self._refuse_oversized_line()
                elif pending:
                    pending += piece
                    line = bytes(pending)
                    del pending[:]
                    self._handle_line(line)
                else:
                    self._handle_line(piece)
                if self._ended.is_set():
                    return

    def _refuse_oversized_line(self) -> None:
        self._writer.send(self._anonymous_error(RpcError(
            _INVALID_REQUEST, "Invalid Request: the line exceeds %d bytes" % _MAX_LINE_BYTES)))

    def _handle_line(self, line: bytes) -> None:
        if not line.strip(b" \t\r"):
            return  # blank lines (and a CR left by CRLF input) are not messages
        try:
            message = parse_line(line)
        except RpcError as err:
            self._writer.send(self._anonymous_error(err))
            return
        if isinstance(message, list):
            self._handle_batch(message)
            return
        outcome = self._handle_message(message, self._writer.send, in_batch=False)
        if outcome is not _PENDING:
            self._writer.send(outcome)

    def _anonymous_error(self, err: RpcError, in_batch: bool = False) -> Dict[str, Any]:
        """An error for a request whose id could not be read (see _NULL_ID_VERSIONS)."""
        null_id = in_batch or (self._era == ERA_LEGACY and self._legacy_version in _NULL_ID_VERSIONS)
        return error_frame(None if null_id else ABSENT, err)

    # -- messages ----------------------------------------------------------

    def _handle_batch(self, items: List[Any]) -> None:
        if not items:
            self._writer.send(self._anonymous_error(RpcError(
                _INVALID_REQUEST, "Invalid Request: empty batch")))
            return
        if self._era != ERA_LEGACY or self._legacy_version != _BATCH_VERSION:
            self._writer.send(self._anonymous_error(RpcError(
                _INVALID_REQUEST, "Invalid Request: batches are only part of protocol revision %s"
                % _BATCH_VERSION)))
            return
        collector = _BatchCollector(len(items), self._writer.send_batch)
        for index, item in enumerate(items):
            sink = collector.sink(index)
            if isinstance(item, list):
                outcome = self._anonymous_error(RpcError(
                    _INVALID_REQUEST, "Invalid Request: nested batch"), in_batch=True)
            else:
                outcome = self._handle_message(item, sink, in_batch=True)
            if outcome is not _PENDING:
                sink(outcome)

    def _handle_message(self, message: Any, reply: Callable[[Any], None], in_batch: bool) -> Any:
        """Answer one message: a frame, None (no answer), or _PENDING.

        With _PENDING the answer goes to `reply` later, exactly once (None
        there too when a cancellation swallowed it).
        """
        if not isinstance(message, dict):
            return self._anonymous_error(RpcError(
                _INVALID_REQUEST, "Invalid Request: a message must be a JSON object"), in_batch)
        if "method" not in message:
            if "result" in message or "error" in message:
                return None  # a response: never answered
            return self._invalid(message, "no method", in_batch)
        if message.get("jsonrpc") != "2.0":
            return self._invalid(message, 'jsonrpc must be "2.0"', in_batch)
        method = message["method"]
        if not isinstance(method, str):
            return self._invalid(message, "method must be a string", in_batch)
        params = message.get("params", ABSENT)
        if params is not ABSENT and not isinstance(params, (dict, list)):
            return self._invalid(message, "params must be an object", in_batch)
        if "id" not in message:
            if isinstance(params, dict):
                self._handle_notification(method, params)
            return None  # notifications are never answered, known or not
        request_id = answered_request_id(message["id"])
        if request_id is ABSENT:
            return self._invalid(message, "id must be a string or an integer", in_batch)
        if params is ABSENT:
            params = None
        try:
            if isinstance(params, list):
                raise RpcError(INVALID_PARAMS, "Invalid params: params must be an object")
            outcome = self._handle_request(request_id, method, params, reply, in_batch)
        except RpcError as err:
            return error_frame(request_id, err)
        except Exception as exc:  # a bug: answer it rather than go quiet
            diagnose("internal error in %s: %s: %s" % (method[:80], type(exc).__name__, exc))
            return error_frame(request_id, RpcError(INTERNAL_ERROR, "Internal error"))
        if outcome is _PENDING:
            return _PENDING
        return result_frame(request_id, outcome)

    def _invalid(self, message: Dict[str, Any], why: str, in_batch: bool) -> Dict[str, Any]:
        err = RpcError(_INVALID_REQUEST, "Invalid Request: %s" % why)
        request_id = answered_request_id(message.get("id")) if "id" in message else ABSENT
        if request_id is ABSENT:
            return self._anonymous_error(err, in_batch)
        return error_frame(request_id, err)

    def _handle_notification(self, method: str, params: Dict[str, Any]) -> None:
        if method == "notifications/cancelled":
            request_id = answered_request_id(params.get("requestId"))
            if request_id is not ABSENT:
                self._cancel(request_id)
        # notifications/initialized and everything else: nothing to do.

    def _handle_request(self, request_id: Any, method: str, params: Optional[Dict[str, Any]],
                        reply: Callable[[Any], None], in_batch: bool) -> Any:
        """The result of a request (or _PENDING); raises RpcError."""
        if isinstance(params, dict) and has_modern_claim(params):
            return self._handle_modern(request_id, method, params, reply)
        if self._era == ERA_MODERN:
            if method == "initialize":
                requested = params.get("protocolVersion") if isinstance(params, dict) else None
                if not isinstance(requested, str):
                    raise RpcError(INVALID_PARAMS, "Invalid params: initialize needs a string protocolVersion")
                raise unsupported_version(requested)
            raise RpcError(INVALID_PARAMS, "Invalid params: request lacks the required _meta "
                            "(%s, %s) of protocol revision %s"
                            % (META_PROTOCOL_VERSION, META_CLIENT_CAPABILITIES, MODERN_VERSION))
        return self._handle_legacy(request_id, method, params, reply, in_batch)

    def _handle_modern(self, request_id: Any, method: str, params: Dict[str, Any],
                       reply: Callable[[Any], None]) -> Any:
        check_modern_envelope(params)
        if method != "server/discover" and self._era == ERA_UNDECIDED:
            self._era = ERA_MODERN
        if method == "server/discover":
            return stamp_modern({
                "supportedVersions": list(MODERN_VERSIONS),
                "capabilities": server_capabilities(self._expose),
                "ttlMs": _CACHE_TTL_MS,
                "cacheScope": _CACHE_SCOPE,
            })
        if method == "tools/list":
            result = self._list_tools(params)
            result["ttlMs"] = _CACHE_TTL_MS
            result["cacheScope"] = _CACHE_SCOPE
            return stamp_modern(result)
        if method == "tools/call":
            return self._start_tool_call(request_id, params, True, reply)
        if method == "subscriptions/listen":
            return self._open_listen(request_id, params, reply)
        if self._serves(method):
            return self._start_exposed(request_id, method, params, MODERN_VERSION, reply)
        # initialize, ping and logging/setLevel were removed in 2026-07-28.
        raise RpcError(_METHOD_NOT_FOUND, "Method not found: %s" % method[:80])

    def _handle_legacy(self, request_id: Any, method: str, params: Optional[Dict[str, Any]],
                       reply: Callable[[Any], None], in_batch: bool) -> Any:
        if method == "initialize":
            if in_batch:
                raise RpcError(_INVALID_REQUEST, "Invalid Request: initialize must not be part of a batch")
            version, result = negotiate_legacy(params, self._expose)
            # A second initialize renegotiates, as the reference does; the
            # spec leaves it open.
            self._era = ERA_LEGACY
            self._legacy_version = version
            return result
        if method == "ping":
            return {}
        if method == "tools/list":
            return self._list_tools(params)
        if method == "tools/call":
            return self._start_tool_call(request_id, params, False, reply)
        if self._serves(method):
            return self._start_exposed(request_id, method, params, self._legacy_version or LATEST_LEGACY_VERSION,
                                       reply)
        # Also logging/setLevel, and resources/*, prompts/*, completion/complete without --expose.
        raise RpcError(_METHOD_NOT_FOUND, "Method not found: %s" % method[:80])

    def _list_tools(self, params: Optional[Dict[str, Any]]) -> Dict[str, Any]:
        cursor = params.get("cursor") if isinstance(params, dict) else None
        if cursor is not None:
            # All four tools fit on one page, so no cursor was ever issued.
            raise RpcError(INVALID_PARAMS, "Invalid params: unknown cursor")
        return {"tools": tool_definitions()}

    # -- tool calls --------------------------------------------------------

    def _start_tool_call(self, request_id: Any, params: Optional[Dict[str, Any]], modern: bool,
                         reply: Callable[[Any], None]) -> Any:
        if not isinstance(params, dict) or not isinstance(params.get("name"), str):
            raise RpcError(INVALID_PARAMS, "Invalid params: tools/call needs a string name")
        arguments = params.get("arguments", ABSENT)
        if arguments is ABSENT:
            arguments = {}
        elif not isinstance(arguments, dict):
            raise RpcError(INVALID_PARAMS, "Invalid params: tools/call arguments must be an object")
        return self._enqueue(_ToolCall(request_id, params["name"], arguments, modern, reply))

    def _serves(self, method: str) -> bool:
        """Whether --expose serves `method` (ADR 0015); never without it."""
        parts = EXPOSE_METHODS.get(method, ((), None))[0]
        return any(part in self._expose for part in parts)

    def _start_exposed(self, request_id: Any, method: str, params: Any, revision: str,
                       reply: Callable[[Any], None]) -> Any:
        """A request of --expose: computed on a worker, like a tool call, as the Tools section
        says (serve_exposed); a 2026-07-28 result gets its cache hint and stamp here."""
        config, expose, modern = self._config, self._expose, revision == MODERN_VERSION
        request_params = params if isinstance(params, dict) else {}

        def work(should_stop: ShouldStop) -> Dict[str, Any]:
            result = serve_exposed(config, method, request_params, revision, expose, should_stop)
            if not modern:
                return result
            hint = EXPOSE_METHODS[method][1]
            if hint is not None:
                result["ttlMs"], result["cacheScope"] = (
                    (_CACHE_TTL_MS, _CACHE_SCOPE) if hint == "static" else (CORPUS_CACHE_TTL_MS, CORPUS_CACHE_SCOPE))
            return stamp_modern(result)
        return self._enqueue(_ToolCall(request_id, method, {}, modern, reply, work))

    def _enqueue(self, call: _ToolCall) -> Any:
        """Admit a call (or seat it in the waiting room) and hand it to the workers: _PENDING."""
        with self._room:
            if self._end_reason is not None:
                return _PENDING  # shutting down: never answered
            self._in_flight.setdefault(id_key(call.request_id), []).append(call)
            if self._admitted < _MAX_IN_FLIGHT:
                self._admitted += 1
                call.admitted = True
            else:
                self._waiting.append(call)
        if call.admitted:
            self._admit(call)
        self._hold_back()
        return _PENDING

    def _hold_back(self) -> None:
        """Stop reading while the waiting room is full; a concluding call or the end frees it.

        Only here does the reader wait, so until the room fills it goes on reading,
        and `notifications/cancelled` reaches admitted and waiting calls alike.
        """
        with self._room:
            while len(self._waiting) >= _MAX_WAITING and self._end_reason is None:
                self._room.wait()

    def _admit(self, call: _ToolCall) -> None:
        """Hand an admitted call to the workers, its deadline starting now."""
        with self._lock:
            if not self._workers and self._end_reason is None:
                for number in range(_TOOL_WORKERS):
                    self._workers.append(_start_thread(self._work, "adrkit-mcp-tool-%d" % number))
        if self._timeout_ms > 0:
            call.deadline = self._deadlines.add(time.monotonic() + self._timeout_ms / 1000.0,
                                                lambda: self._time_out(call))
        self._calls.put(call)

    def _open_listen(self, request_id: Any, params: Dict[str, Any], reply: Callable[[Any], None]) -> Any:
        """subscriptions/listen: acknowledge, then hold the stream open without a worker.

        It stays open until a `notifications/cancelled` names it (then nothing more is
        sent for it), the transport closes (nothing either), or the server ends it
        (shutdown sends its complete result).  No slot, no worker, no deadline.
        """
        honoured = listen_filter(params)
        with self._lock:
            if self._end_reason is not None:
                return _PENDING
            if id_key(request_id) in self._listens:
                raise RpcError(_INVALID_REQUEST, "Invalid Request: subscription %s is already open"
                                % describe_id(request_id))
            if len(self._listens) >= _MAX_LISTENS:
                raise RpcError(_INVALID_REQUEST, "Invalid Request: %d subscriptions are open already; "
                                "cancel one first" % _MAX_LISTENS)
            acknowledged = threading.Event()
            self._listens[id_key(request_id)] = (request_id, acknowledged)
        try:
            reply(listen_acknowledgement(request_id, honoured))
        finally:
            acknowledged.set()  # only now may a closing result follow: the acknowledgement comes first
        return _PENDING

    def _work(self) -> None:
        while True:
            call = self._calls.get()
            if call is None:
                return
            if not call.done:
                self._conclude(call, self._run_tool(call))

    def _run_tool(self, call: _ToolCall) -> Optional[Dict[str, Any]]:
        """The frame answering a call (None when it was stopped)."""
        label = call.name[:80] if call.work is not None else "tools/call %s" % call.name[:80]
        try:
            if call.work is not None:
                return result_frame(call.request_id, call.work(call.should_stop))
            result = call_tool(self._config, call.name, call.arguments, call.should_stop)
        except CallCancelled:
            if call.stopped:
                return None
            diagnose("%s reported a cancellation nobody asked for" % label)
            return error_frame(call.request_id, RpcError(INTERNAL_ERROR, "Internal error"))
        except UnknownToolError:
            return error_frame(call.request_id, RpcError(
                INVALID_PARAMS, "Tool %s not found" % call.name[:200]))
        except ExposeRefusal as refusal:
            return error_frame(call.request_id, _exposed_error(refusal, call.modern))
        except Exception as exc:
            diagnose("internal error in %s: %s: %s" % (label, type(exc).__name__, exc))
            return error_frame(call.request_id, RpcError(INTERNAL_ERROR, "Internal error"))
        if not isinstance(result, dict) or not isinstance(result.get("content"), list):
            diagnose("tools/call %s returned no CallToolResult" % call.name[:80])
            return error_frame(call.request_id, RpcError(INTERNAL_ERROR, "Internal error"))
        return result_frame(call.request_id, stamp_modern(result) if call.modern else result)

    def _conclude(self, call: _ToolCall, frame: Optional[Dict[str, Any]]) -> None:
        """Settle a call once: answer it (frame) or silence it (None)."""
        with call.lock:
            if call.done:
                return
            call.done = True
        call.stopped = True
        if call.deadline is not None:
            self._deadlines.cancel(call.deadline)
            call.deadline = None
        successor = None
        with self._room:
            calls = self._in_flight.get(id_key(call.request_id))
            if calls is not None and call in calls:
                calls.remove(call)
                if not calls:
                    del self._in_flight[id_key(call.request_id)]
            if not call.admitted:
                if call in self._waiting:
                    self._waiting.remove(call)
            elif self._waiting and self._end_reason is None:
                successor = self._waiting.popleft()  # the slot passes on, in arrival order
                successor.admitted = True
            else:
                self._admitted -= 1
            self._room.notify_all()
        if successor is not None:
            self._admit(successor)
        call.reply(frame)

    def _cancel(self, request_id: Any) -> None:
        """notifications/cancelled: stop the call (or end the listen) and never answer it.

        Unknown and finished ids find nothing and are ignored, as are the
        quick methods, which are answered before the next line is read.
        """
        with self._lock:
            calls = list(self._in_flight.get(id_key(request_id), ()))
            self._listens.pop(id_key(request_id), None)  # a listen ends silently: no response
        for call in calls:
            self._conclude(call, None)

    def _time_out(self, call: _ToolCall) -> None:
        timeout_ms = self._timeout_ms
        self._conclude(call, error_frame(call.request_id, RpcError(
            INTERNAL_ERROR, "Request timed out after %d ms" % timeout_ms, {"timeoutMs": timeout_ms})))

# A resources/read of a resource that does not exist, before 2026-07-28 (later: -32602).
_RESOURCE_NOT_FOUND = -32002


def _exposed_error(refusal: ExposeRefusal, modern: bool) -> RpcError:
    """The JSON-RPC error of a refused --expose request, in its era (ADR 0015)."""
    if refusal.kind == "not-found":
        return RpcError(INVALID_PARAMS if modern else _RESOURCE_NOT_FOUND, refusal.message,
                         refusal.data if refusal.data is not None else ABSENT)
    if refusal.kind == "unavailable":
        return RpcError(INTERNAL_ERROR, refusal.message, refusal.data if refusal.data is not None else ABSENT)
    return RpcError(INVALID_PARAMS, refusal.message)


# ---------------------------------------------------------------------------
# 3. Dispatch: the embedding API
# ---------------------------------------------------------------------------

class _UnusableConfigError(ValueError):
    """start() on a root or ADR folder that cannot serve (a ValueError)."""

    def __init__(self, reason: str, message: str, detail: Optional[str] = None) -> None:
        ValueError.__init__(self, message)
        self.reason = reason
        self.message = message
        self.detail = detail or message  # the path and the fix, for stderr


def _check_timeout(request_timeout_ms: Any) -> int:
    if isinstance(request_timeout_ms, bool) or not isinstance(request_timeout_ms, int) \
            or not 0 <= request_timeout_ms <= MAX_REQUEST_TIMEOUT_MS:
        raise ValueError("request_timeout_ms must be an integer from 0 (no timeout) to %d"
                         % MAX_REQUEST_TIMEOUT_MS)
    return request_timeout_ms


def _check_expose(expose: Iterable[str]) -> Tuple[str, ...]:
    """The parts of --expose as a sorted tuple; ValueError for anything but EXPOSE_PARTS."""
    try:
        parts = [] if isinstance(expose, (str, bytes)) else list(expose)
    except TypeError:
        parts = []
    if not parts and expose:  # a string ("resources,prompts") or no sequence at all
        raise ValueError("expose must be a sequence of part names drawn from %s, such as %r"
                         % (", ".join(EXPOSE_PARTS), EXPOSE_PARTS))
    unknown = [part for part in parts if part not in EXPOSE_PARTS]
    if unknown:
        raise ValueError("expose: unknown part %r (the parts are: %s)" % (unknown[0], ", ".join(EXPOSE_PARTS)))
    return tuple(part for part in EXPOSE_PARTS if part in parts)


class _Server:
    """The state behind a handle from create_server."""

    def __init__(self, cwd: Optional[str], adr_dir: Optional[str], stdin: Any, stdout: Any,
                 request_timeout_ms: int, expose: Tuple[str, ...] = (), source: Optional[str] = None,
                 markers: bool = False) -> None:
        self.cwd, self.adr_dir = cwd, adr_dir  # None: the working directory, docs/adr
        self.source = source
        self.markers = markers
        self.stdin, self.stdout = stdin, stdout
        self.request_timeout_ms = request_timeout_ms
        self.expose = expose
        self.lock = threading.Lock()
        self.state = "new"
        self.connection: Optional[_Connection] = None

    def start(self) -> None:
        with self.lock:
            if self.state == "closed":
                raise RuntimeError("this adrkit-mcp server was closed")
            if self.state != "new":
                raise RuntimeError("this adrkit-mcp server was already started")
            self.state = "starting"
        try:
            config = CorpusConfig(root=os.getcwd() if self.cwd is None else self.cwd,
                                  adr_dir=DEFAULT_ADR_DIR if self.adr_dir is None else self.adr_dir,
                                  source=self.source, markers=self.markers)
            problem = check_roots(config)
            if problem is not None:
                usual = usual_adr_folder(config.root, config.adr_dir) if problem[0] == "dir-not-found" else None
                raise _UnusableConfigError(problem[0], problem[1], corpus_unavailable_text(
                    problem[0], config.root, config.adr_dir, usual))
            connection = _Connection(config, input_reader(self.stdin), output_writer(self.stdout),
                                     self.request_timeout_ms, self.expose)
        except BaseException:
            with self.lock:
                if self.state == "starting":
                    self.state = "new"  # a fixed configuration may be started again
            raise
        with self.lock:
            if self.state == "closed":
                return  # close() won the race: nothing to serve
            self.state = "serving"
            self.connection = connection
        try:
            with _SignalsBlocked():  # the warm-up thread inherits the mask (ADR 0012)
                start_background_warmup(config)
        except Exception as exc:  # warming up is an optimisation only
            diagnose("background warm-up failed: %r" % (exc,))
        connection.serve()

    def close(self) -> None:
        with self.lock:
            self.state = "closed"
            connection = self.connection
        if connection is not None:
            connection.shutdown("closed")


class _ServerHandle:
    """The sealed handle create_server returns: start() and close(), nothing else."""

    __slots__ = ("_server",)
    _server: _Server

    def __init__(self, server: _Server) -> None:
        object.__setattr__(self, "_server", server)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("adrkit-mcp server handles are read-only")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("adrkit-mcp server handles are read-only")

    def __repr__(self) -> str:
        return "<adrkit-mcp server %s>" % self._server.state

    def start(self) -> None:
        """Check the configuration, then serve one connection until it ends.

        Blocks (like socketserver's serve_forever) until the input reaches
        EOF or close() is called from another thread, then returns None.
        Raises ValueError (with a `reason` attribute) when the root or ADR
        folder cannot serve, before anything is read; raises the OSError when
        the output breaks (EPIPE: the client went away).  To serve in the
        background, run start() in a thread of your own.

        Signals stay the embedder's: start() installs no signal handler (the
        adrkit-mcp command installs its own around it), from the main thread
        or any other.  The threads it starts block SIGTERM and SIGINT, so the
        kernel hands those to one of the embedder's threads; run in the main
        thread, start() wakes every 0.1 s, so a Python handler of the
        embedder runs promptly (and may call close(), or raise to unwind).
        """
        self._server.start()

    def close(self) -> None:
        """Stop serving: start() returns, in-flight calls are dropped unanswered.

        Safe from any thread, idempotent, and final (a closed server cannot
        be started).  The reader thread may stay blocked on the input until
        it yields bytes or EOF; it is a daemon thread and answers nothing more.
        """
        self._server.close()


def create_server(cwd: Optional[str] = None, dir: Optional[str] = None, stdin: Any = None,
                  stdout: Any = None,
                  request_timeout_ms: int = DEFAULT_REQUEST_TIMEOUT_MS,
                  expose: Iterable[str] = (),
                  source: Optional[str] = None, markers: bool = False) -> "_ServerHandle":
    """Create an adrkit-mcp stdio server for one repository; touches no file.

    cwd      repository root, a Git worktree (default: the working directory
             at start()); environment variables are the command line's
             business and are not read here.
    dir      the ADR folder, relative to cwd and inside it (default docs/adr).
    stdin    where requests come from: a binary stream, or a file descriptor
             (default: the process's stdin).
    stdout   where frames go: a binary stream, or a file descriptor (default:
             the process's stdout).  Nothing else is ever written to it.
    request_timeout_ms
             a tool call still running after this long is answered with
             -32603 (data.timeoutMs) and its late result dropped; 0 disables.
    expose   what else to serve besides the tools: "resources" (the decisions as
             MCP resources), "prompts" (adr-context, adr-check, explain-decision),
             both or neither (the default: capabilities {"tools": {}} and -32601
             for those methods, as without the option); ADR 0015.
    source   None: the folder holds adrkit records; "madr": read it as
             `adrkit-mcp migrate --from madr` would leave it, writing nothing
             (ADR 0017).
    markers  True: get_decision_context and the context prompts also name the
             decisions a file declares in an `@adr` marker of its first 8,192
             bytes (`declaredBy`); off by default (ADR 0020).

    Returns a handle with exactly start() and close().
    """
    if source is not None and source not in SOURCE_FORMATS:
        raise ValueError("source must be None or one of %s" % ", ".join(SOURCE_FORMATS))
    return _ServerHandle(_Server(cwd, dir, stdin, stdout, _check_timeout(request_timeout_ms),
                                 _check_expose(expose), source, bool(markers)))


# ---------------------------------------------------------------------------
# 3. Dispatch: the server command (its command line is parsed in the Commands section)
# ---------------------------------------------------------------------------

class _SignalShutdown(BaseException):
    """Raised in the main thread by SIGTERM/SIGINT to unwind start()."""


def _on_shutdown_signal(signum: int, frame: Any) -> None:
    # Ignore further signals so the unwinding cannot be interrupted again.
    for name in ("SIGTERM", "SIGINT"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    raise _SignalShutdown(signum)


def _install_signal_handlers() -> Dict[int, Any]:
    """Route SIGTERM/SIGINT to a quiet exit; returns the previous handlers."""
    previous: Dict[int, Any] = {}
    if threading.current_thread() is not threading.main_thread():
        return previous  # only the main thread may set handlers
    # SIGINT first: once SIGTERM is caught (/proc/PID/status SigCgt), both are.
    for name in ("SIGINT", "SIGTERM"):
        number = getattr(signal, name, None)
        # A signal the parent chose to ignore (nohup, `cmd &`) stays ignored.
        if number is not None and signal.getsignal(number) != signal.SIG_IGN:
            previous[number] = signal.signal(number, _on_shutdown_signal)
    return previous


def _unwinding_a_signal(err: BaseException) -> bool:
    """Whether `err` was raised while a shutdown signal's exception unwound the main thread: the
    handler may raise inside a lock's acquire (Condition.wait taking its lock back), and the
    `with` around it then releases a lock it does not hold ("release unlocked lock"). That is
    the signal's quiet end, not a failure (ADR 0012)."""
    seen: Optional[BaseException] = err
    while seen is not None:
        if isinstance(seen, _SignalShutdown):
            return True
        seen = seen.__context__
    return False


def _ignore_late_signals(handled: Iterable[int]) -> None:
    """After serving, keep SIGTERM/SIGINT from killing the exiting process.

    Restoring the default action here would let a SIGTERM that lands while the
    process winds down (a client escalating just after closing stdin) end it
    with status -15, and Python's finalisation resets a Python-level handler to
    the default action anyway.  Only an ignored signal stays harmless until the
    exit, so the signals we handled are ignored from here on: main() is the
    process's command, and embedders use create_server.
    """
    for number in handled:
        try:
            signal.signal(number, signal.SIG_IGN)
        except (ValueError, TypeError, OSError):
            pass


def run_server(cwd: Optional[str], adr_dir: Optional[str], request_timeout_ms: int,
               expose: Iterable[str] = (), source: Optional[str] = None, markers: bool = False) -> int:
    """Serve stdio until stdin closes or SIGTERM/SIGINT; the server command's exit status.

    None for cwd or adr_dir means the default (the working directory, docs/adr); `expose` is
    create_server's (ADR 0015). Once the
    server has stopped, SIGTERM and SIGINT stay ignored (see _ignore_late_signals): a signal
    during the exit must not turn status 0 into a kill.
    """
    try:
        return _serve(cwd, adr_dir, request_timeout_ms, expose, source, markers)
    except _SignalShutdown:
        # SIGTERM/SIGINT is how clients escalate after closing stdin: a
        # normal, quiet end, even when it lands in the middle of cleaning up.
        return 0


def _serve(cwd: Optional[str], adr_dir: Optional[str], request_timeout_ms: int, expose: Iterable[str],
           source: Optional[str], markers: bool = False) -> int:
    server = create_server(cwd=cwd, dir=adr_dir, request_timeout_ms=request_timeout_ms, expose=expose,
                           source=source, markers=markers)
    # Frames go to fd 1 directly; anything print()ed by accident lands on
    # stderr instead of corrupting the protocol stream.
    real_stdout = sys.stdout
    previous_handlers: Dict[int, Any] = {}
    try:
        sys.stdout = sys.stderr
        previous_handlers = _install_signal_handlers()
        server.start()
    except _UnusableConfigError as err:
        diagnose(err.detail)
        return 1
    except Exception as err:
        if _unwinding_a_signal(err):
            raise _SignalShutdown() from None
        if isinstance(err, OSError):
            diagnose("stopped: cannot use stdio (%s); the client has probably gone away"
                      % (err.strerror or err,))
        else:
            diagnose("stopped: %s: %s" % (type(err).__name__, err))
        return 1
    finally:
        server.close()
        sys.stdout = real_stdout
        _ignore_late_signals(previous_handlers)
    return 0


# ---------------------------------------------------------------------------
# 4. Contract: what several sections share: limits, outcomes, messages, texts, schemas
# ---------------------------------------------------------------------------
#
# What several sections share is defined in this one section: change a number or a sentence
# here and it changes everywhere. What one section alone uses lives in that section, just
# before its first user: each tool's texts beside the tool, each command's beside the command.

# The shapes the product passes around, named once for the type hints.
class _FindingCore(TypedDict):
    rule: str                                  # the finding's rule, e.g. "dangling-supersedes"
    severity: str                              # "error", "warn" or "info"
    message: str


class Finding(_FindingCore, total=False):
    """One finding, as the tools, resources and commands report it (sort_findings' order)."""

    id: str                                    # the record's id (or the raw id of an invalid one)
    path: str                                  # the file's display path
    field: str                                 # the field or part of the file: "supersedes", "marker", ...
    pattern: str                               # the affects pattern or marker ref it is about


class CorpusHealth(TypedDict):
    """structuredContent.corpusHealth: which projection of the corpus an answer comes from."""

    fingerprint: str
    recordCount: int
    excludedCount: int


ShouldStop = Callable[[], bool]                # polled between records: True once cancelled

SERVER_NAME = "adrkit-mcp"
SERVER_VERSION = __version__  # the one version literal, at the top of the module
DEFAULT_ADR_DIR = "docs/adr"

MAX_SOURCE_BYTES = 64 * 1024          # a record file larger than this is never read whole
PAGE_DEFAULT, PAGE_MIN, PAGE_MAX = 20, 1, 100
LIMITS: Dict[str, Any] = {  # (min, max) pairs; cursor and text are single caps
    "query": (1, 256),                # UTF-16 code units, non-empty after trim
    "ref": (1, 128),
    "status": (1, 6),
    "scope": (1, 3),
    "tags": (1, 32),
    "tag": (1, 64),
    "files": (1, 256),
    "file": (1, 1024),
    "cursor": 4096,
    "text": 512,                      # summary line cap, in UTF-16 code units
}

# Source markers (`@adr <id>` in a comment near a file's top; the reference's ADR-0021). A file's
# header is its first MARKER_WINDOW_BYTES, cut back to the last complete line; one scan reads at
# most one byte more (to see that the file goes on). `check` scans at most MARKER_SCAN_FILE_CAP
# distinct paths (the first in code-unit order) and lists the others as skipped.
MARKER_WINDOW_BYTES = 8192
MARKER_STATES = ("scanned", "absent", "unreadable", "out-of-tree")
# With --markers, get_decision_context's validated arguments carry the root to scan under this
# key (never a client's: the validator keeps only the schema's fields).
MARKERS_ARGUMENT = "_markersRoot"

STATUSES = ("draft", "proposed", "accepted", "rejected", "superseded", "deprecated")
SCOPES = ("component", "domain", "org")

CORPUS_UNAVAILABLE_MESSAGES = {
    "root-not-found": "Configured repository root was not found.",
    "root-not-directory": "Configured repository root is not a directory.",
    "root-not-readable": "Configured repository root is not readable.",
    "root-not-git": "Configured repository root is not a Git worktree.",
    "dir-not-found": "Configured ADR directory was not found.",
    "dir-not-directory": "Configured ADR directory is not a directory.",
    "dir-not-readable": "Configured ADR directory is not readable.",
    "dir-outside-root": "Configured ADR directory resolves outside the repository root.",
    "corpus-changed-during-load": "Corpus changed while it was being loaded; retry the call.",
}

# Finding templates whose wording is part of the contract (the conformance
# pack compares them to the letter).
FINDING_MESSAGES = {
    "record-stat-error": "ADR candidate could not be read to validate its size and was excluded from this response",
    "record-too-large": "ADR source exceeds the 64 KiB maximum and was excluded from this response",
    "fence-missing": "ADR files must start with a leading --- YAML frontmatter fence",
    "fence-unterminated": "ADR frontmatter is missing its closing --- fence",
    "unique-id": 'ADR id "{id}" is used by multiple records: {paths}',
    "dangling": 'Reference "{ref}" in {field} does not resolve to a record in the corpus',
    "accepted-conflictsWith": 'Accepted ADR declares a known conflict with "{ref}"',
    "import-incomplete": "Imported accepted decision has no deciders; provenance explains the gap, "
                         "but it should be backfilled when known",
    "unknown-key": 'Unknown frontmatter field "{field}" is not allowed',
    "path-leading-slash": 'Path matcher "{pattern}" must be repo-relative and must not start with "/".',
    "path-invalid-glob": 'Path matcher "{pattern}" is not a valid glob pattern.',
    "package-bad": 'Package matcher "{pattern}" must be "name" or "name@<valid semver range>".',
    "package-inert": 'Package matcher "{pattern}" requires a changed-dependency snapshot and is inert.',
    "entity-inert": 'Entity matcher "{pattern}" has no catalog snapshot and is inert.',
    "other-inert": '{type} matcher "{pattern}" has no backing snapshot in this phase and is inert.',
    "superseded-target-federated-unavailable":
        'supersededBy target "{ref}" is a log-qualified ref; named-log federation is not available in this phase',
    "superseded-target-ambiguous":
        'supersededBy target "{ref}" resolves to {count} local records; '
        'see get_decision("{ref}") for the full candidate list',
    "dangling-marker": 'Source marker "@adr {ref}" in {path}:{line} does not resolve to a record in the corpus',
    "marker-unresolvable": 'Source marker "@adr {ref}" in {path}:{line} names another decision log '
                           'and is inert against this corpus',
    "marker-scan-capped": "Marker scan reached the {limit}-file cap and skipped {shown}{more}",
}

# The importer (`migrate --from madr`, `--from madr`): the reference's sentences, to the letter.
ADR_SCHEMA_VERSION = "0.1.0"          # what the schema section checks, and what migrate writes

# `migrate` and `--from`: the formats the importer reads, and runMigrate's usage errors (the
# reference CLI's sentences; ADR-0008 is the reference's record of migration being one-way).
SOURCE_FORMATS = ("madr",)
MIGRATE_MESSAGES = {
    "positional": "adr migrate does not accept positional arguments",
    "from-missing": "adr migrate requires --from madr; non-MADR sources and round-trip sync are "
                    "unsupported in this phase (ADR-0008)",
    "from-unsupported": "adr migrate --from {source} is not supported yet; only --from madr is "
                        "available, and round-trip sync is unsupported (ADR-0008)",
    "dir-not-found": "Corpus directory not found: '{dir}'.",
    "dir-not-readable": "Corpus directory not readable: '{dir}'.",
    "cwd-unusable": "adrkit-mcp migrate: --cwd {cwd} is not a folder to run in",
    # Ours: the reference rewrites a file in place, which a kill can leave half-written; migrate
    # writes a new file beside it and renames it over the old one, which needs a writable folder.
    "folder-closed": "adrkit-mcp migrate: cannot replace {path}: its folder {folder} takes no new "
                     "file ({error}), and migrate writes each file whole, as a new file renamed over "
                     "the old one; make the folder writable and run again",
}
# How Node (libuv) words the errors a file operation meets, by errno name.
NODE_ERROR_TEXTS = {
    "EACCES": "permission denied", "EPERM": "operation not permitted",
    "ENOENT": "no such file or directory", "ENOTDIR": "not a directory",
    "EISDIR": "illegal operation on a directory", "ELOOP": "too many symbolic links encountered",
    "EMFILE": "too many open files", "ENFILE": "file table overflow",
    "ENOSPC": "no space left on device", "EROFS": "read-only file system", "EIO": "i/o error",
    "EBUSY": "resource busy or locked", "EEXIST": "file already exists",
    "ENAMETOOLONG": "name too long", "EINVAL": "invalid argument", "ETXTBSY": "text file is busy",
}
# The sentences of their usage errors and refusals (runGraph, runNew, runExplain, createAdr's
# ScaffoldError), and the corpus folder's (corpusDirectoryUsageError), to the letter.
CLI_MESSAGES = {
    "graph-positional": "adr graph does not accept positional arguments",
    "graph-format": "adr graph --format must be dot or json",
    "new-title-missing": "adr new requires a title",
    "explain-path": "adr explain requires exactly one path",
    "dir-not-found": MIGRATE_MESSAGES["dir-not-found"],
    "dir-not-readable": MIGRATE_MESSAGES["dir-not-readable"],
    "title-ascii": "Title must contain at least one ASCII letter or digit",
    "status-invalid": 'Invalid status "{status}"',
    "status-needs-fields": 'adr new cannot scaffold status "{status}" without additional required fields',
    "title-length": "Title must be between 3 and 120 characters",
    "title-lines": "Title must fit on a single line",
    "exists": "Refusing to overwrite existing ADR file {path}",
    # Ours: --cwd must name a folder; the reference has no --cwd.
    "cwd-unusable": "adrkit-mcp {command}: --cwd {cwd} is not a folder to run in",
    "cwd-empty": "Option '--cwd' needs a non-empty value",
}

def node_error(error: OSError, syscall: str, path: str, destination: Optional[str] = None) -> str:
    """An OSError as Node words it: `EACCES: permission denied, open '/path'`, or for a rename
    `..., rename '/a' -> '/b'`."""
    code = errno.errorcode.get(error.errno or 0, "UNKNOWN")
    text = NODE_ERROR_TEXTS.get(code, (error.strerror or "unknown error").lower())
    target = "" if destination is None else " -> '%s'" % destination
    return "%s: %s, %s '%s'%s" % (code, text, syscall, path, target)

# The fix for each reason a root or ADR folder cannot be used: said after the path, on stderr by
# the server, `call` and `hook`, and on doctor's FAIL line (the protocol answers keep the
# reference's sentence alone).
CORPUS_UNAVAILABLE_FIXES = {
    "root-not-found": "pass the repository's path with --cwd (or $ADRKIT_MCP_CWD); a client "
                      "started from another folder needs it absolute",
    "root-not-directory": "--cwd must name the repository folder, not a file in it",
    "root-not-readable": "give this user read and search permission on the folder",
    "root-not-git": "point --cwd at the top of a Git work tree (the folder that holds .git)",
    "dir-not-found": "create the folder, or pass the right one with --dir (relative to the root; "
                     "or $ADRKIT_MCP_DIR)",
    "dir-not-directory": "--dir must name a folder",
    "dir-not-readable": "give this user read and search permission on the ADR folder",
    "dir-outside-root": "keep the ADR folder inside the repository (a symlink may not leave it)",
    "corpus-changed-during-load": "run it again",
}


def corpus_unavailable_text(reason: str, root: str, adr_dir: str, usual: Optional[str] = None) -> str:
    """The reference's sentence for an unusable root or ADR folder, then the path it is about
    and the fix (and, for a missing folder, the usual folder that holds Markdown, if any)."""
    where = os.path.abspath(root)
    if reason.startswith("dir-"):
        where = "%s (the ADR folder %s of the root %s)" % (os.path.normpath(
            adr_dir if os.path.isabs(adr_dir) else os.path.join(where, adr_dir)), adr_dir, where)
    text = "%s: %s; fix: %s" % (CORPUS_UNAVAILABLE_MESSAGES[reason].rstrip("."), where,
                                CORPUS_UNAVAILABLE_FIXES.get(reason, "check the configuration"))
    if usual is not None:
        text += "; the records seem to be in %s: try --dir %s" % (usual, usual)
    return text

# The cross-field rules of the frontmatter: (rule name, message, field path).
CROSS_FIELD_RULES = {
    "superseded-requires-supersededBy":
        ('status "superseded" requires supersededBy', ("supersededBy",)),
    "supersededBy-requires-superseded-status":
        ('supersededBy is set but status is not "superseded"', ("status",)),
    "accepted-requires-decider-unless-imported":
        ("an accepted decision must name at least one decider, unless it was imported", ("deciders",)),
    "agent-accepted-requires-ratifier":
        ('a machine-originated record cannot reach "accepted" without a named human ratifier',
         ("provenance", "ratifiedBy")),
    "one-way-door-disallows-auto":
        ("one-way-door decisions may not take the auto-approve fast path", ("review", "tier")),
}


# What a record file is called: NNNN-slug.md directly in the ADR folder (the reference's
# RECORD_FILE_PATTERN, `.` being JavaScript's), and the conventional documentation beside records
# (isConventionalNonRecordFileName), which is never a record nor a migration candidate.
RECORD_FILE_NAME = re.compile(r"[0-9]{4,}-[^\n\r\u2028\u2029]+\.md\Z")
TEMPLATE_FILE_NAME = "0000-template.md"
_NON_RECORD_NAMES = frozenset(("readme.md", "index.md", "contributing.md", "template.md"))


def is_record_file_name(name: str) -> bool:
    return name != TEMPLATE_FILE_NAME and RECORD_FILE_NAME.match(name) is not None


def is_conventional_name(name: str) -> bool:
    """The ADR folder's README, index, CONTRIBUTING or template (any case), or 0000-template.md."""
    return name == TEMPLATE_FILE_NAME or name.lower() in _NON_RECORD_NAMES


def plural(count: int, one: str, many: str) -> str:
    return one if count == 1 else many
ADR_REF_PATTERN = r"^(([a-z0-9][a-z0-9-]*):)?([0-9]{4,}|[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26})$"


# --- The coding-agent hook (`adrkit-mcp hook`, ADRs 0013 and 0018) -----------------------------
#
# One command answers seven agents, each in its own shape (ADR 0018 cites every source). An agent
# runs it with one JSON event on stdin; when the decisions concern the file the event edits, it
# prints that agent's context answer. Context only: never a permission decision, never a block,
# never a non-zero exit. HOOK_FORMATS describes each agent as plain data, read twice: by the
# module, and by the early gate build.py copies into the .pyz entry point together with
# hook_gate, so an event for a tool that edits nothing is answered before anything else loads.
#
#   marks    keys (dotted, `.0` indexes a list) every event of the agent carries: the detection;
#            `not`, keys no event of the agent carries (Copilot CLI and Cursor run
#            .claude/settings.json entries with their own events, which carry a `timestamp` or
#            `workspace_roots` Claude Code never sends)
#   event    where the event name is, and `events` the names that mean "about to edit" (or "just
#            edited", where only that event can carry context); copilot's camelCase payloads carry
#            no name: its postToolUse is the one with a toolResult, resultType "success"
#   tool     where the tool name is; `input`, where its arguments are (an object, or JSON text)
#   tools    the editing tools, each with the places its paths may be in the arguments, tried in
#            turn (the first present answers): `field` (a path or a file:// URI), a list of objects
#            `list[].field`, a patch's text `patch:field` (every file it names; `patch:` alone: the
#            arguments are the patch itself), or a shell command `shell:field`, an edit only when
#            it runs apply_patch (Codex intercepts `apply_patch <<'EOF'` run through its shell)
#   when     (optional) per tool, argument values that make the call an edit; any other value is
#            quiet (Copilot CLI's str_replace_editor also views files: `command` "view")
#   base     where a relative path starts (the first key present; else the root)
#   root     the repository root when neither --cwd nor ADRKIT_MCP_CWD says it (first key
#            present, then `root_env`, then the working directory)
#   answer   the output: `hookSpecificOutput` {hookEventName, additionalContext}, or one field
#            holding the text (cline's with "cancel": false beside it)
#   neutral  what to print when there is nothing to say, where the agent reads no output as an
#            error or as a decision, or shows the hook's stderr when stdout is empty (Gemini CLI:
#            hookRunner.ts parses stderr then and shows it as a systemMessage); "" prints nothing

HOOK_FORMATS: Dict[str, Dict[str, Any]] = {
    "claude": {
        "agent": "Claude Code", "marks": ["tool_name"], "not": ["timestamp", "workspace_roots"],
        "event": "hook_event_name", "events": ["PreToolUse"], "tool": "tool_name",
        "input": "tool_input",
        "tools": {"Edit": ["file_path"], "MultiEdit": ["file_path"],
                  "NotebookEdit": ["notebook_path"], "Write": ["file_path"]},
        "base": ["cwd"], "root": ["cwd"], "root_env": ["CLAUDE_PROJECT_DIR"],
        "answer": "hookSpecificOutput", "neutral": ""},
    "codex": {
        "agent": "Codex CLI", "marks": ["tool_name"], "not": [], "event": "hook_event_name",
        "events": ["PreToolUse"], "tool": "tool_name", "input": "tool_input",
        "tools": {"Bash": ["shell:command"], "apply_patch": ["patch:command"]},
        "base": ["cwd"], "root": ["cwd"], "root_env": [],
        "answer": "hookSpecificOutput", "neutral": ""},
    "vscode": {
        "agent": "VS Code", "marks": ["tool_name"], "not": [], "event": "hook_event_name",
        "events": ["PreToolUse"], "tool": "tool_name", "input": "tool_input",
        "tools": {"apply_patch": ["patch:input"], "create_file": ["filePath"],
                  "edit_notebook_file": ["filePath"], "insert_edit_into_file": ["filePath"],
                  "multi_replace_string_in_file": ["replacements[].filePath"],
                  "replace_string_in_file": ["filePath"]},
        "base": ["cwd"], "root": ["cwd"], "root_env": [],
        "answer": "hookSpecificOutput", "neutral": ""},
    "copilot": {
        "agent": "GitHub Copilot CLI", "marks": ["toolName", "toolResult"], "not": [],
        "event": "toolResult.resultType", "events": ["success"], "tool": "toolName",
        "input": "toolArgs",
        "tools": {"apply_patch": ["patch:", "patch:input", "patch:patch"], "create": ["path"],
                  "edit": ["path"], "str_replace_editor": ["path"]},
        "when": {"str_replace_editor": {"command": ["create", "edit", "insert", "str_replace"]}},
        "base": ["cwd"], "root": ["cwd"], "root_env": [],
        "answer": "additionalContext", "neutral": ""},
    "gemini": {
        "agent": "Gemini CLI", "marks": ["tool_name"], "not": [], "event": "hook_event_name",
        "events": ["AfterTool"], "tool": "tool_name", "input": "tool_input",
        "tools": {"replace": ["file_path"], "write_file": ["file_path"]},
        "base": ["cwd"], "root": ["cwd"], "root_env": ["GEMINI_PROJECT_DIR"],
        "answer": "hookSpecificOutput", "neutral": "{}"},
    "cursor": {
        "agent": "Cursor", "marks": ["tool_name", "workspace_roots"], "not": [],
        "event": "hook_event_name", "events": ["postToolUse"], "tool": "tool_name",
        "input": "tool_input",
        "tools": {"Delete": ["file_path"], "Write": ["file_path"]},
        "base": ["cwd", "workspace_roots.0"], "root": ["workspace_roots.0"], "root_env": [],
        "answer": "additional_context", "neutral": "{}"},
    "cline": {
        "agent": "Cline", "marks": ["hookName", "preToolUse"], "not": [], "event": "hookName",
        "events": ["PreToolUse"], "tool": "preToolUse.toolName", "input": "preToolUse.parameters",
        "tools": {"apply_patch": ["patch:input", "patch:"], "editor": ["path"],
                  "new_rule": ["path"], "replace_in_file": ["path"], "write_to_file": ["path"]},
        "base": ["workspaceRoots.0"], "root": ["workspaceRoots.0"], "root_env": [],
        "answer": "contextModification", "neutral": "{\"cancel\": false}"},
}
HOOK_FORMAT_NAMES = ("claude", "codex", "vscode", "copilot", "gemini", "cursor", "cline")
HOOK_TIMEOUT_SECONDS = 30          # every printed entry's timeout; measured cold at 10,000 records: README


# --- Resources, prompts and completions (`--expose`, ADR 0015) -----------------
#
# Off by default: without --expose the server declares the `tools` capability alone and answers
# every method below with -32601, byte for byte as before. On, the decisions are also MCP
# resources a client can attach, and prompts whose text is computed from the corpus. Every limit
# and every sentence a client sees through them is here.

EXPOSE_PARTS = ("prompts", "resources")

DECISIONS_URI = "adrkit://decisions"


# --- One ordering rule for the whole server ---------------------------------

def utf16_key(text: str) -> bytes:
    """Sort key giving UTF-16 code-unit order (JS `<`), never locale or code-point order.

    Code-point order differs from code-unit order only for astral characters
    versus U+E000..U+FFFF; big-endian UTF-16 bytes compare exactly like units.
    """
    return text.encode("utf-16-be", "surrogatepass")


def utf16_len(text: str) -> int:
    """String length as JavaScript counts it: astral characters count twice."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def utf16_slice(text: str, limit: int) -> str:
    """The first `limit` UTF-16 code units of `text` (JS `slice(0, limit)`)."""
    if utf16_len(text) <= limit:
        return text
    units = text.encode("utf-16-le", "surrogatepass")[: 2 * limit]
    return units.decode("utf-16-le", "surrogatepass")


def finding_sort_key(finding: Finding) -> Tuple[bytes, ...]:
    """The reference's finding order: (rule, id, pattern, path, field, message) by code unit."""
    return (utf16_key(finding["rule"]), utf16_key(finding.get("id", "")),
            utf16_key(finding.get("pattern", "")), utf16_key(finding.get("path", "")),
            utf16_key(finding.get("field", "")), utf16_key(finding["message"]))


def sort_findings(findings: Iterable[Finding]) -> List[Finding]:
    return sorted(findings, key=finding_sort_key)


def diagnose(text: str) -> None:
    """One line on stderr; stdout is reserved for protocol frames."""
    try:
        sys.stderr.write("%s: %s\n" % (SERVER_NAME, text))
        sys.stderr.flush()
    except Exception:  # a closed stderr must not take the server down
        pass


def reject_constant(name: str) -> Any:
    # json accepts NaN, Infinity and -Infinity by default; JSON does not.
    raise ValueError("%s is not a JSON value" % name)


class CallCancelled(Exception):
    """The client cancelled the call (or it timed out); its result must not be sent."""


JS_SAFE_INTEGER = 2 ** 53 - 1


def normalize_search_text(text: str) -> str:
    """trim (ECMAScript) -> NFKC -> full lower-casing: the one search normalisation."""
    return unicodedata.normalize("NFKC", JS.trim(text)).lower()


def stable_json(value: Any) -> str:
    """Deterministic compact JSON (sorted keys, ASCII): equal values give equal text."""
    return json.dumps(value, sort_keys=True, ensure_ascii=True, separators=(",", ":"))


# ---------------------------------------------------------------------------
# 5. Tools: argument validation, then one pure function per tool
# ---------------------------------------------------------------------------
#
# What the four tools share comes first (schema parts, argument checks, cursors); then each tool
# with its own input and output schemas, texts, validator and function; then the tool table that
# tools/list and tools/call read.

TOOL_ANNOTATIONS = {
    "readOnlyHint": True,
    "destructiveHint": False,
    "idempotentHint": True,
    "openWorldHint": False,
}


# --- The tools' schemas: the parts they share (tools/list publishes each exactly) -----------------

_JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _pagination_properties() -> Dict[str, Dict[str, Any]]:
    cursor = {"type": "string", "maxLength": LIMITS["cursor"]}
    limit = {"default": PAGE_DEFAULT, "type": "integer", "minimum": PAGE_MIN, "maximum": PAGE_MAX}
    return {"cursor": dict(cursor), "limit": dict(limit),
            "findingsCursor": dict(cursor), "findingsLimit": dict(limit)}


def _input_schema(properties: Dict[str, Any], required: List[str]) -> Dict[str, Any]:
    schema: Dict[str, Any] = {"type": "object", "$schema": _JSON_SCHEMA_DIALECT}
    props = dict(properties)
    props.update(_pagination_properties())
    schema["properties"] = props
    if required:
        schema["required"] = list(required)
    schema["additionalProperties"] = False
    return schema


def _string_array(min_items: int, max_items: int, items: Dict[str, Any]) -> Dict[str, Any]:
    return {"minItems": min_items, "maxItems": max_items, "type": "array", "items": items}

INVALID_CURSOR_MESSAGES = {
    "decode-failed": "Cursor could not be decoded.",
    "version-unsupported": "Cursor version is not supported.",
    "wrong-channel": "Cursor does not belong to this tool channel.",
    "corpus-changed": "Corpus changed after this cursor was issued.",
    "query-mismatch": "Cursor was issued for different request parameters.",
    "cursor-not-applicable": "Cursor does not apply to this outcome.",
    "offset-out-of-range": "Cursor offset is outside the current result set.",
}


def _output_schema(result_branches: List[Dict[str, Any]]) -> Dict[str, Any]:
    """structuredContent = {corpusHealth?, result}; result is one of the tool's outcome shapes."""
    string, integer = {"type": "string"}, {"type": "integer"}
    invalid_cursor = {"type": "object", "required": ["outcome", "reason", "message"], "properties": {
        "outcome": {"const": "invalid-cursor"}, "reason": {"enum": sorted(INVALID_CURSOR_MESSAGES)},
        "message": string}}
    unavailable = {"type": "object", "required": ["outcome", "reason", "message"], "properties": {
        "outcome": {"const": "corpus-unavailable"}, "reason": {"enum": sorted(CORPUS_UNAVAILABLE_MESSAGES)},
        "message": string}}
    return {
        "$schema": _JSON_SCHEMA_DIALECT,
        "type": "object",
        "required": ["result"],
        "properties": {
            "corpusHealth": {"type": "object", "required": ["fingerprint", "recordCount", "excludedCount"],
                             "properties": {"fingerprint": string, "recordCount": integer,
                                            "excludedCount": integer}},
            "result": {"oneOf": list(result_branches) + [invalid_cursor, unavailable]},
        },
    }


def _branch(outcome: str, **members: Any) -> Dict[str, Any]:
    properties = {"outcome": {"const": outcome}}
    properties.update(members)
    return {"type": "object", "required": sorted(properties), "properties": properties}


def _summary_schema(**extra: Any) -> Dict[str, Any]:
    properties = {"id": {"type": "string"}, "title": {"type": "string"},
                  "status": {"enum": list(STATUSES)}, "sourcePath": {"type": "string"}}
    properties.update(extra)
    return {"type": "object", "required": sorted(properties), "properties": properties}

_PAGE_SCHEMA = {"type": "object", "required": ["items", "cursor"], "properties": {
    "items": {"type": "array", "items": {"type": "object", "required": ["rule", "severity", "message"]}},
    "cursor": {"type": ["string", "null"]}}}

_CURSOR_SCHEMA = {"type": ["string", "null"]}


# --- Argument validation: the checks every tool shares (messages name field and rule) -------------


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_page_arguments(arguments: Dict[str, Any], problems: List[str], args: Dict[str, Any]) -> None:
    for key in ("limit", "findingsLimit"):
        value = arguments.get(key, PAGE_DEFAULT)
        if not _is_number(value) or value != value or value in (float("inf"), float("-inf")) \
                or int(value) != value:
            problems.append("%s must be an integer from %d to %d" % (key, PAGE_MIN, PAGE_MAX))
        elif not PAGE_MIN <= value <= PAGE_MAX:
            problems.append("%s must be an integer from %d to %d (got %s)" % (key, PAGE_MIN, PAGE_MAX, int(value)))
        else:
            args[key] = int(value)
    for key in ("cursor", "findingsCursor"):
        if key not in arguments:
            args[key] = None
            continue
        value = arguments[key]
        if not isinstance(value, str):
            problems.append("%s must be a string" % key)
        elif utf16_len(value) > LIMITS["cursor"]:
            problems.append("%s must be at most %d characters" % (key, LIMITS["cursor"]))
        else:
            args[key] = value


def _strict_arguments(tool: str, arguments: Any, allowed: Tuple[str, ...]) -> List[str]:
    """The common first step: an object with no unknown keys."""
    if not isinstance(arguments, dict):
        return ["arguments must be an object"]
    unknown = [key for key in arguments if key not in allowed]
    if unknown:
        return ["unknown argument%s %s (allowed: %s)" % (
            "" if len(unknown) == 1 else "s", ", ".join('"%s"' % k for k in unknown),
            ", ".join(allowed))]
    return []

_PAGE_KEYS = ("cursor", "limit", "findingsCursor", "findingsLimit")


def _check_string_list(arguments: Dict[str, Any], key: str, bounds: Tuple[int, int],
                       item_check: Callable[[Any], Optional[str]], problems: List[str],
                       required: bool = False) -> Optional[List[Any]]:
    if key not in arguments:
        if required:
            problems.append("%s is required" % key)
        return None
    value = arguments[key]
    low, high = bounds
    if not isinstance(value, list):
        problems.append("%s must be an array" % key)
        return None
    if not low <= len(value) <= high:
        problems.append("%s must have %d to %d entries (got %d)" % (key, low, high, len(value)))
    bad = False
    for index, item in enumerate(value):
        problem = item_check(item)
        if problem:
            problems.append("%s[%d] %s" % (key, index, problem))
            bad = True
    return None if bad else value


def _unique(key: str, values: Optional[List[Any]], problems: List[str]) -> None:
    if values is not None and len(set(values)) != len(values):
        problems.append("%s must not repeat an entry" % key)


def _enum_item(allowed: Sequence[str]) -> Callable[[Any], Optional[str]]:
    def check(item: Any) -> Optional[str]:
        if not isinstance(item, str) or item not in allowed:
            return "must be one of %s" % ", ".join(allowed)
        return None
    return check


def _bounded_string_item(low: int, high: int) -> Callable[[Any], Optional[str]]:
    def check(item: Any) -> Optional[str]:
        if not isinstance(item, str):
            return "must be a string"
        if not low <= utf16_len(item) <= high:
            return "must be %d to %d characters long" % (low, high)
        return None
    return check

Validated = Tuple[List[str], Dict[str, Any]]   # (input problems, the arguments as validated)


def _validator(tool: str, fields: Tuple[str, ...],
               check: Optional[Callable[[Dict[str, Any], List[str], Dict[str, Any]], None]] = None
               ) -> Callable[[Dict[str, Any]], Validated]:
    """A tool's argument validation: the strict key check first, then the tool's own fields
    (`check` appends problems and fills args), then the page arguments every tool takes."""
    def validate(arguments: Dict[str, Any]) -> Validated:
        problems = _strict_arguments(tool, arguments, fields + _PAGE_KEYS)
        args: Dict[str, Any] = {}
        if problems:
            return problems, args
        if check is not None:
            check(arguments, problems, args)
        _check_page_arguments(arguments, problems, args)
        return problems, args
    return validate


def _required_string(arguments: Dict[str, Any], key: str, problems: List[str]) -> Optional[str]:
    """The string argument `key`, or None after noting that it is missing or not a string."""
    value = arguments.get(key)
    if key not in arguments:
        problems.append("%s is required" % key)
    elif not isinstance(value, str):
        problems.append("%s must be a string" % key)
    else:
        return value
    return None


# --- Pagination: opaque, versioned cursors bound to corpus and query ------------------------------

_CURSOR_KEYS = frozenset(("v", "scope", "fp", "qh", "offset"))


class InvalidCursor(Exception):
    def __init__(self, reason: str) -> None:
        Exception.__init__(self, reason)
        self.reason = reason


def query_shape_hash(parts: List[Any]) -> str:
    """SHA-256 (hex) of the compact JSON array of the parameters a cursor is bound to."""
    text = json.dumps(parts, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def encode_cursor(scope: str, fingerprint: str, query_hash: str, offset: int) -> str:
    text = '{"v":1,"scope":%s,"fp":%s,"qh":%s,"offset":%d}' % (
        json.dumps(scope), json.dumps(fingerprint), json.dumps(query_hash), offset)
    return base64.urlsafe_b64encode(text.encode("utf-8")).rstrip(b"=").decode("ascii")


def _decode_cursor(cursor: str) -> Optional[Dict[str, Any]]:
    """The payload of a well-formed cursor, or None (decode-failed)."""
    try:
        raw = cursor.translate({ord("+"): "-", ord("/"): "_"}).rstrip("=")
        data = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4))
        payload = json.loads(data.decode("utf-8", "replace"), parse_constant=reject_constant)
    except (ValueError, TypeError, RecursionError, binascii.Error):
        return None
    if not isinstance(payload, dict) or set(payload) != _CURSOR_KEYS:
        return None
    offset = payload["offset"]
    if not (_is_number(payload["v"]) and isinstance(payload["scope"], str) and isinstance(payload["fp"], str)
            and isinstance(payload["qh"], str) and _is_number(offset)):
        return None
    if offset != offset or offset in (float("inf"), float("-inf")) or int(offset) != offset \
            or not 1 <= offset <= JS_SAFE_INTEGER:
        return None
    payload["offset"] = int(offset)
    return payload


def verify_cursor(cursor: str, scope: str, fingerprint: str, query_hash: str) -> int:
    """The offset a cursor resumes at, or InvalidCursor with the first failing check's reason."""
    payload = _decode_cursor(cursor)
    if payload is None:
        raise InvalidCursor("decode-failed")
    if payload["v"] != 1:
        raise InvalidCursor("version-unsupported")
    if payload["scope"] != scope:
        raise InvalidCursor("wrong-channel")
    if payload["fp"] != fingerprint:
        raise InvalidCursor("corpus-changed")
    if payload["qh"] != query_hash:
        raise InvalidCursor("query-mismatch")
    return payload["offset"]


def paginate(items: Sequence[Any], cursor: Optional[str], limit: int, scope: str, fingerprint: str,
             query_hash: str) -> Tuple[Sequence[Any], Optional[str]]:
    """One page of `items` and the cursor of the next page (None on the last page)."""
    offset = 0
    if cursor is not None:
        offset = verify_cursor(cursor, scope, fingerprint, query_hash)
        if offset >= len(items):
            raise InvalidCursor("offset-out-of-range")
    page = items[offset:offset + limit]
    end = offset + len(page)
    next_cursor = encode_cursor(scope, fingerprint, query_hash, end) if end < len(items) else None
    return page, next_cursor


def reject_inapplicable_cursor(cursor: Optional[str], scope: str, fingerprint: str,
                               query_hash: str) -> None:
    """A primary cursor sent for an outcome that has no primary channel."""
    if cursor is not None:
        verify_cursor(cursor, scope, fingerprint, query_hash)
        raise InvalidCursor("cursor-not-applicable")


def _invalid_cursor_result(reason: str) -> ToolAnswer:
    return ({"outcome": "invalid-cursor", "reason": reason, "message": INVALID_CURSOR_MESSAGES[reason]},
            render_summary("invalid-cursor", reason=reason))


def _page_of_findings(findings: Sequence[Finding], args: Dict[str, Any], fingerprint: str, scope: str,
                      query_parts: Any) -> Dict[str, Any]:
    items, cursor = paginate(findings, args["findingsCursor"], args["findingsLimit"], scope,
                             fingerprint, query_shape_hash(query_parts))
    return {"items": items, "cursor": cursor}


def _sorted_unique(values: Optional[Iterable[str]]) -> List[str]:
    return sorted(set(values or ()), key=utf16_key)


# --- get_decision: one record by its ref ----------------------------------------------------------

_GET_DECISION_INPUT = _input_schema(
    {"ref": {"type": "string", "maxLength": LIMITS["ref"][1], "pattern": ADR_REF_PATTERN}}, ["ref"])

_GET_DECISION_OUTPUT = _output_schema([
    _branch("found", decision=_summary_schema(requestedRef={"type": "string"}, frontmatter={"type": "object"},
                                              body={"type": "string"}), findings=_PAGE_SCHEMA),
    _branch("not-found", requestedRef={"type": "string"}, findings=_PAGE_SCHEMA),
    _branch("ambiguous-local-id", requestedRef={"type": "string"},
            candidates={"type": "array", "items": _summary_schema()}, cursor=_CURSOR_SCHEMA,
            findings=_PAGE_SCHEMA),
    _branch("federated-log-unavailable", requestedRef={"type": "string"}, log={"type": "string"},
            id={"type": "string"}, findings=_PAGE_SCHEMA),
])

_GET_DECISION_TEXTS = (
    "Get a decision by ref",
    'Fetch one architecture decision by its bare local id (e.g. "0042"). Returns the complete typed '
    "frontmatter and Markdown body, or an explicit not-found / ambiguous-local-id / "
    "federated-log-unavailable outcome. Relation refs are surfaced verbatim, never expanded.")

_ADR_REF = re.compile(r"(?:([a-z0-9][a-z0-9-]*):)?([0-9]{4,}|[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26})\Z")


def _check_ref_field(arguments: Dict[str, Any], problems: List[str], args: Dict[str, Any]) -> None:
    ref = _required_string(arguments, "ref", problems)
    if ref is None:
        pass
    elif utf16_len(ref) > LIMITS["ref"][1]:
        problems.append("ref must be at most %d characters long" % LIMITS["ref"][1])
    elif not _ADR_REF.match(ref):
        problems.append('ref must be an ADR id such as "0042" or a ULID, optionally prefixed '
                        'with a log name such as "core:0042"')
    else:
        args["ref"] = ref

validate_get_decision_arguments = _validator("get_decision", ("ref",), _check_ref_field)


def split_adr_ref(ref: str) -> Tuple[Optional[str], str]:
    """(log, id): a ref is log-qualified when it has a ':' after its first character."""
    index = ref.find(":")
    if index <= 0:
        return None, ref
    return ref[:index], ref[index + 1:]


def tool_get_decision(projection: Projection, args: Dict[str, Any],
                      should_stop: ShouldStop) -> ToolAnswer:
    ref, fp = args["ref"], projection.fingerprint
    log, local_id = split_adr_ref(ref)
    candidates_hash = query_shape_hash([ref, args["limit"]])
    scope = "get_decision.candidates"
    try:
        findings_page: Tuple[str, Optional[str]] = ("findings", None)
        try:
            findings = _page_of_findings(projection.findings, args, fp, "get_decision.findings",
                                         [args["findingsLimit"]])
        except InvalidCursor as error:
            findings_page = ("error", error.reason)
            findings = None
        bucket = [] if log is not None else projection.by_id.get(local_id, [])
        if log is None and len(bucket) > 1:
            items, cursor = paginate([record.summary() for record in bucket], args["cursor"], args["limit"],
                                     scope, fp, candidates_hash)
        else:
            reject_inapplicable_cursor(args["cursor"], scope, fp, candidates_hash)
        # The primary channel is judged before the findings channel.
        if findings_page[0] == "error":
            raise InvalidCursor(str(findings_page[1]))
    except InvalidCursor as error:
        return _invalid_cursor_result(error.reason)
    assert findings is not None  # only a findings cursor error leaves it None, and that returned above
    count = len(findings["items"])
    if log is not None:
        result = {"outcome": "federated-log-unavailable", "requestedRef": ref, "log": log, "id": local_id,
                  "findings": findings}
        return result, render_summary("federated-log-unavailable", ref=ref, findings=count)
    if len(bucket) > 1:
        result = {"outcome": "ambiguous-local-id", "requestedRef": ref, "candidates": items, "cursor": cursor,
                  "findings": findings}
        return result, render_summary("ambiguous-local-id", items=len(items), ref=ref, findings=count)
    if bucket:
        record = bucket[0]
        decision = {"requestedRef": ref}
        decision.update(record.summary())
        decision["frontmatter"] = record.frontmatter
        decision["body"] = record.body
        return ({"outcome": "found", "decision": decision, "findings": findings},
                render_summary("found", id=record.id, findings=count))
    return ({"outcome": "not-found", "requestedRef": ref, "findings": findings},
            render_summary("not-found", ref=ref, findings=count))


# --- get_decision_context: the records whose affects fire on the files ----------------------------

_GET_DECISION_CONTEXT_INPUT = _input_schema(
    {"files": _string_array(LIMITS["files"][0], LIMITS["files"][1],
                            {"type": "string", "minLength": LIMITS["file"][0],
                             "maxLength": LIMITS["file"][1]})}, ["files"])

_GET_DECISION_CONTEXT_OUTPUT = _output_schema([
    _branch("matches", cursor=_CURSOR_SCHEMA, findings=_PAGE_SCHEMA, **{
        bucket: {"type": "array", "items": _summary_schema(
            firedMatchers={"type": "array"}, relations={"type": "object"})}
        for bucket in ("governing", "activeProposals", "history")}),
])

_GET_DECISION_CONTEXT_TEXTS = (
    "Get decision context for files",
    "Given repo-relative logical file paths, report which decisions govern them (accepted), which "
    "active proposals touch them (draft, proposed), and which historical records once did, using "
    "the corpus's own affects matchers. The paths are compared against patterns only; they are "
    "never opened or read.")

_WINDOWS_DRIVE = re.compile(r"[a-zA-Z]:")


def _safe_path_item(item: Any) -> Optional[str]:
    problem = _bounded_string_item(*LIMITS["file"])(item)
    if problem:
        return problem
    if "\\" in item or item.startswith("/") or _WINDOWS_DRIVE.match(item) or ".." in item.split("/"):
        return 'must be a repo-relative POSIX path (no leading "/", no "..", no drive letter, no backslash)'
    return None


def _check_files_field(arguments: Dict[str, Any], problems: List[str], args: Dict[str, Any]) -> None:
    args["files"] = _check_string_list(arguments, "files", LIMITS["files"], _safe_path_item,
                                       problems, required=True)

validate_context_arguments = _validator("get_decision_context", ("files",), _check_files_field)

CONTEXT_BUCKETS = {"accepted": "governing", "draft": "activeProposals", "proposed": "activeProposals"}


# --markers: the scans get_decision_context keeps between calls, reused while a file's stat proves
# it unchanged by ADR 0010's rule (as a record's parse is); the Reader bounds how many.
_CONTEXT_MARKER_SCANS: Dict[Tuple[str, str], Tuple[Tuple[int, ...], "MarkerScan"]] = {}


def _reusable_identity(info: os.stat_result, started_ns: int) -> Optional[Tuple[int, ...]]:
    """A file's stat identity when a later call may reuse what was read from it, else None."""
    identity = stat_identity(info)
    return identity if projection_settled(identity, started_ns) else None


def context_entries(projection: Projection, files: List[str], should_stop: ShouldStop,
                    markers_root: Optional[str] = None) -> Tuple[List[Dict[str, Any]], List[Finding]]:
    """(entries, derived findings) of get_decision_context: every record whose affects fire on
    `files`, in record order, with its firedMatchers and relations.

    With `markers_root` (--markers, ADR 0020) also every record a file declares in an `@adr`
    marker of its header window, with `declaredBy` after its firedMatchers (empty when only the
    marker reaches it), and the markers that name no record here as findings."""
    # "Any path matches" does not depend on repeats: match each distinct path once, first
    # occurrence first (the order decides which path a throwing pattern meets first).
    candidates = list(dict.fromkeys(normalize_candidate_path(path) for path in files))
    entries: List[Dict[str, Any]] = []
    derived: List[Finding] = []
    declared: Dict[str, List[Dict[str, Any]]] = {}
    if markers_root is not None:
        scans = read_source_markers_batch(markers_root, files, _CONTEXT_MARKER_SCANS, _reusable_identity).scans
        matches, derived = resolve_markers(projection.records, [m for scan in scans for m in scan.markers])
        declared = dict(matches)
    verdicts: Dict[str, Tuple[bool, Optional[str]]] = {}
    for record in projection.records:
        if should_stop():
            raise CallCancelled()
        fired, findings = resolve_record_affects(record, candidates, should_stop, verdicts)
        derived.extend(findings)
        if fired or record.id in declared:
            entry = record.summary()
            entry["firedMatchers"] = fired
            if record.id in declared:
                entry["declaredBy"] = declared[record.id]
            entry["relations"] = record.relations()
            entries.append(entry)
    return entries, derived


def tool_get_decision_context(projection: Projection, args: Dict[str, Any],
                              should_stop: ShouldStop) -> ToolAnswer:
    files = args["files"]
    canonical_files = _sorted_unique(files)
    entries, derived = context_entries(projection, files, should_stop, args.get(MARKERS_ARGUMENT))
    fp = projection.fingerprint
    try:
        items, cursor = paginate(entries, args["cursor"], args["limit"], "context.results", fp,
                                 query_shape_hash([canonical_files, args["limit"]]))
        findings = _page_of_findings(sort_findings(projection.findings + derived), args, fp, "context.findings",
                                     [canonical_files, args["findingsLimit"]])
    except InvalidCursor as error:
        return _invalid_cursor_result(error.reason)
    buckets: Dict[str, List[Dict[str, Any]]] = {"governing": [], "activeProposals": [], "history": []}
    for entry in items:
        buckets[CONTEXT_BUCKETS.get(entry["status"], "history")].append(entry)
    result: Dict[str, Any] = {"outcome": "matches"}
    result.update(buckets)
    result["cursor"] = cursor
    result["findings"] = findings
    counts = {bucket: len(entries) for bucket, entries in buckets.items()}
    return result, render_summary("matches", findings=len(findings["items"]), **counts)


# --- list_superseded: every superseded record and its replacement ---------------------------------

_LIST_SUPERSEDED_INPUT = _input_schema({}, [])

_LIST_SUPERSEDED_OUTPUT = _output_schema([
    _branch("entries", cursor=_CURSOR_SCHEMA, findings=_PAGE_SCHEMA,
            items={"type": "array", "items": _summary_schema(supersededBy={
                "type": "object", "required": ["resolved"]})}),
])

_LIST_SUPERSEDED_TEXTS = (
    "List superseded decisions",
    "List every superseded decision with its direct local replacement state: resolved, dangling, "
    "ambiguous (candidateCount only) or federated-unavailable. Direct edges only: no transitive "
    "lineage, no embedded candidate arrays.")

validate_superseded_arguments = _validator("list_superseded", ())


def _superseded_by_state(record: Record,
                         by_id: Dict[str, List[Record]]) -> Tuple[Dict[str, Any], Optional[Finding]]:
    target_ref = record.frontmatter["supersededBy"]
    log, local_id = split_adr_ref(target_ref)
    finding: Finding
    if log is not None:
        finding = {"rule": "superseded-target-federated-unavailable", "severity": "info", "id": record.id,
                   "message": FINDING_MESSAGES["superseded-target-federated-unavailable"].format(ref=target_ref)}
        return {"resolved": False, "targetRef": target_ref, "reason": "federated-unavailable",
                "log": log, "id": local_id}, finding
    bucket = by_id.get(local_id, [])
    if len(bucket) == 1:
        return {"resolved": True, "target": bucket[0].summary()}, None
    if not bucket:
        return {"resolved": False, "targetRef": target_ref, "reason": "dangling"}, None
    finding = {"rule": "superseded-target-ambiguous", "severity": "warn", "id": record.id,
               "message": FINDING_MESSAGES["superseded-target-ambiguous"].format(ref=target_ref, count=len(bucket))}
    return {"resolved": False, "targetRef": target_ref, "reason": "ambiguous",
            "candidateCount": len(bucket)}, finding


def _superseded_entry(record: Record, by_id: Dict[str, List[Record]]) -> Dict[str, Any]:
    entry = record.summary()
    entry["supersededBy"] = _superseded_by_state(record, by_id)[0]
    return entry


def tool_list_superseded(projection: Projection, args: Dict[str, Any],
                         should_stop: ShouldStop) -> ToolAnswer:
    superseded, derived = [], []  # entries are built for the page only (see search)
    for record in projection.records:
        if should_stop():
            raise CallCancelled()
        if record.frontmatter["status"] != "superseded":
            continue
        superseded.append(record)
        finding = _superseded_by_state(record, projection.by_id)[1]
        if finding is not None:
            derived.append(finding)
    fp = projection.fingerprint
    try:
        page, cursor = paginate(range(len(superseded)), args["cursor"], args["limit"], "superseded.results", fp,
                                 query_shape_hash([args["limit"]]))
        findings = _page_of_findings(sort_findings(projection.findings + derived), args, fp, "superseded.findings",
                                     [args["findingsLimit"]])
    except InvalidCursor as error:
        return _invalid_cursor_result(error.reason)
    items = [_superseded_entry(superseded[index], projection.by_id) for index in page]
    result = {"outcome": "entries", "items": items, "cursor": cursor, "findings": findings}
    return result, render_summary("entries", items=len(items), findings=len(findings["items"]))


# --- search_decisions: a literal search over the corpus -------------------------------------------

_SEARCH_DECISIONS_INPUT = _input_schema({
    "query": {"type": "string", "minLength": LIMITS["query"][0], "maxLength": LIMITS["query"][1]},
    "status": _string_array(LIMITS["status"][0], LIMITS["status"][1],
                            {"type": "string", "enum": list(STATUSES)}),
    "tags": _string_array(LIMITS["tags"][0], LIMITS["tags"][1],
                          {"type": "string", "minLength": LIMITS["tag"][0], "maxLength": LIMITS["tag"][1]}),
    "scope": _string_array(LIMITS["scope"][0], LIMITS["scope"][1],
                           {"type": "string", "enum": list(SCOPES)}),
}, ["query"])

_SEARCH_DECISIONS_OUTPUT = _output_schema([
    _branch("results", cursor=_CURSOR_SCHEMA, findings=_PAGE_SCHEMA,
            items={"type": "array", "items": _summary_schema(matchedFields={
                "type": "array", "items": {"enum": ["body", "id", "tag", "title"]}})}),
])

_SEARCH_DECISIONS_TEXTS = (
    "Search decisions",
    "Search the decision corpus, superseded and rejected records included, by normalised literal "
    "substring over id, title, tags and Markdown body. Optional status/scope (any-of) and tags "
    "(all-of) filters are ANDed. Returns bounded summaries only: no ranking, no model, no body.")


def _check_search_fields(arguments: Dict[str, Any], problems: List[str], args: Dict[str, Any]) -> None:
    query = _required_string(arguments, "query", problems)
    if query is None:
        pass
    elif not LIMITS["query"][0] <= utf16_len(query) <= LIMITS["query"][1]:
        problems.append("query must be %d to %d characters long" % LIMITS["query"])
    elif not JS.trim(query):
        problems.append("query must not be empty after trimming whitespace")
    else:
        args["query"] = query
    for key, bounds, check in (("status", LIMITS["status"], _enum_item(STATUSES)),
                               ("tags", LIMITS["tags"], _bounded_string_item(*LIMITS["tag"])),
                               ("scope", LIMITS["scope"], _enum_item(SCOPES))):
        values = _check_string_list(arguments, key, bounds, check, problems)
        _unique(key, values, problems)
        args[key] = values

validate_search_arguments = _validator("search_decisions", ("query", "status", "tags", "scope"),
                                       _check_search_fields)


def tool_search_decisions(projection: Projection, args: Dict[str, Any],
                          should_stop: ShouldStop) -> ToolAnswer:
    needle = normalize_search_text(args["query"])
    status, scope, tags = args["status"], args["scope"], args["tags"]
    # Matches are kept as records and shared field tuples; only the page becomes dicts, so a
    # call leaves few objects for the garbage collector to chase through a large corpus.
    hits, hit_fields, lone_surrogate = [], [], LONE_SURROGATE.search(needle) is not None
    for record in projection.records:
        if should_stop():
            raise CallCancelled()
        frontmatter = record.frontmatter
        if status is not None and frontmatter["status"] not in status:
            continue
        if scope is not None and frontmatter["scope"] not in scope:
            continue
        if tags is not None and not all(tag in frontmatter["tags"] for tag in tags):
            continue
        fields = record.matched_field_names(needle, lone_surrogate)
        if fields:
            hits.append(record)
            hit_fields.append(fields)
    fp = projection.fingerprint
    try:
        page, cursor = paginate(range(len(hits)), args["cursor"], args["limit"], "search.results", fp,
                                 query_shape_hash([needle, _sorted_unique(status), _sorted_unique(tags),
                                                   _sorted_unique(scope), args["limit"]]))
        findings = _page_of_findings(projection.findings, args, fp, "search.findings", [args["findingsLimit"]])
    except InvalidCursor as error:
        return _invalid_cursor_result(error.reason)
    items = [dict(hits[index].summary(), matchedFields=list(hit_fields[index])) for index in page]
    result = {"outcome": "results", "items": items, "cursor": cursor, "findings": findings}
    return result, render_summary("results", items=len(items), findings=len(findings["items"]))


# --- The tool table: tools/list and tools/call over the four tools above --------------------------

# One row per tool: what its part above defines; the tables below read their column of it.
_TOOL_ROWS = {
    "get_decision": (_GET_DECISION_INPUT, _GET_DECISION_OUTPUT, _GET_DECISION_TEXTS,
                     validate_get_decision_arguments, tool_get_decision),
    "get_decision_context": (_GET_DECISION_CONTEXT_INPUT, _GET_DECISION_CONTEXT_OUTPUT,
                             _GET_DECISION_CONTEXT_TEXTS, validate_context_arguments,
                             tool_get_decision_context),
    "list_superseded": (_LIST_SUPERSEDED_INPUT, _LIST_SUPERSEDED_OUTPUT, _LIST_SUPERSEDED_TEXTS,
                        validate_superseded_arguments, tool_list_superseded),
    "search_decisions": (_SEARCH_DECISIONS_INPUT, _SEARCH_DECISIONS_OUTPUT, _SEARCH_DECISIONS_TEXTS,
                         validate_search_arguments, tool_search_decisions),
}
TOOL_INPUT_SCHEMAS = {name: row[0] for name, row in _TOOL_ROWS.items()}
TOOL_OUTPUT_SCHEMAS = {name: row[1] for name, row in _TOOL_ROWS.items()}
TOOL_TEXTS = {name: row[2] for name, row in _TOOL_ROWS.items()}
TOOLS = {name: (row[3], row[4]) for name, row in _TOOL_ROWS.items()}


def tool_definitions() -> List[Dict[str, Any]]:
    """The tools/list entries, in UTF-16 code-unit order of name."""
    tools = []
    for name in sorted(TOOL_INPUT_SCHEMAS, key=utf16_key):
        title, description = TOOL_TEXTS[name]
        tools.append({
            "name": name,
            "title": title,
            "description": description,
            "inputSchema": copy.deepcopy(TOOL_INPUT_SCHEMAS[name]),
            "outputSchema": copy.deepcopy(TOOL_OUTPUT_SCHEMAS[name]),
            "annotations": dict(TOOL_ANNOTATIONS),
        })
    return tools


class UnknownToolError(Exception):
    """tools/call named a tool that does not exist (a JSON-RPC -32602, not a tool result)."""


def check_roots(config: CorpusConfig) -> Optional[Tuple[str, str]]:
    """Validate the configured roots once, at start-up. None when usable, else (reason, message)."""
    try:
        roots = resolve_canonical_roots(config.root, config.adr_dir)
    except CorpusUnavailable as error:
        return error.reason, CORPUS_UNAVAILABLE_MESSAGES[error.reason]
    if config.expected_root is None:
        config.expected_root = roots[0]
    return None


class _StructuredCore(TypedDict):
    result: Dict[str, Any]                     # one of the tool's outcome shapes (TOOL_OUTPUT_SCHEMAS)


class StructuredContent(_StructuredCore, total=False):
    corpusHealth: CorpusHealth                 # absent when the corpus is unavailable


class TextContent(TypedDict):
    type: str                                  # "text"
    text: str


class _ToolResultCore(TypedDict):
    content: List[TextContent]                 # one text: the summary line, or the argument problems


class ToolResult(_ToolResultCore, total=False):
    """A tool call's CallToolResult: a structured answer, or isError for arguments it refused."""

    structuredContent: StructuredContent
    isError: bool

ToolAnswer = Tuple[Dict[str, Any], str]        # (structured result, its one-line summary)


def _findings_phrase(count: int) -> str:
    return "%d %s on this page." % (count, plural(count, "finding", "findings"))


def render_summary(kind: str, **facts: Any) -> str:
    """The deterministic one-line summary every tool result carries in content[0].text."""
    f = facts
    if kind == "results":
        text = "Returned %d decision %s; %s" % (
            f["items"], plural(f["items"], "result", "results"), _findings_phrase(f["findings"]))
    elif kind == "found":
        text = 'Found decision "%s"; %s' % (f["id"], _findings_phrase(f["findings"]))
    elif kind == "not-found":
        text = 'No local decision matches "%s"; %s' % (f["ref"], _findings_phrase(f["findings"]))
    elif kind == "ambiguous-local-id":
        text = 'Returned %d %s for ambiguous local ref "%s"; %s' % (
            f["items"], plural(f["items"], "candidate", "candidates"), f["ref"],
            _findings_phrase(f["findings"]))
    elif kind == "federated-log-unavailable":
        text = 'Named-log federation is unavailable for "%s"; %s' % (f["ref"], _findings_phrase(f["findings"]))
    elif kind == "matches":
        total = f["governing"] + f["activeProposals"] + f["history"]
        text = "Returned %d context %s: %d governing, %d active %s, %d historical; %s" % (
            total, plural(total, "match", "matches"), f["governing"], f["activeProposals"],
            plural(f["activeProposals"], "proposal", "proposals"), f["history"],
            _findings_phrase(f["findings"]))
    elif kind == "entries":
        text = "Returned %d superseded decision %s; %s" % (
            f["items"], plural(f["items"], "entry", "entries"), _findings_phrase(f["findings"]))
    elif kind == "invalid-cursor":
        text = INVALID_CURSOR_MESSAGES[f["reason"]]
    else:  # corpus-unavailable
        text = CORPUS_UNAVAILABLE_MESSAGES[f["reason"]]
    return utf16_slice(text, LIMITS["text"])


def call_tool(config: CorpusConfig, name: str, arguments: Optional[Dict[str, Any]],
              should_stop: ShouldStop = lambda: False) -> ToolResult:
    """Run one tool against a fresh projection of the corpus; returns a CallToolResult dict."""
    tool = TOOLS.get(name)
    if tool is None:
        raise UnknownToolError(name)
    validate, run = tool
    problems, args = validate(arguments if arguments is not None else {})
    if problems:
        return {"content": [{"type": "text", "text": "Invalid arguments for tool %s: %s" % (
            name, "; ".join(problems))}], "isError": True}
    if config.markers and name == "get_decision_context":
        args[MARKERS_ARGUMENT] = config.root
    try:
        projection = load_projection(config, should_stop)
    except CorpusUnavailable as error:
        outcome = {"outcome": "corpus-unavailable", "reason": error.reason,
                   "message": CORPUS_UNAVAILABLE_MESSAGES[error.reason]}
        return _tool_result(outcome, render_summary("corpus-unavailable", reason=error.reason), None)
    result, text = run(projection, args, should_stop)
    return _tool_result(result, text, projection.health())


def _tool_result(result: Dict[str, Any], text: str, health: Optional[CorpusHealth]) -> ToolResult:
    """The one envelope builder: summary text plus {corpusHealth?, result}."""
    structured: StructuredContent = (
        {"result": result} if health is None else {"corpusHealth": health, "result": result})
    return {"content": [{"type": "text", "text": text}], "structuredContent": structured}


# --- Affects resolution for one record ---------------------------------------

def normalize_candidate_path(path: str) -> str:
    """A changed path as the matcher sees it: '\\' -> '/', one leading './' dropped."""
    path = path.replace("\\", "/")
    return path[2:] if path.startswith("./") else path


@functools.lru_cache(maxsize=4096)
def _path_pattern(factory: Callable[[str], Any], pattern: str) -> Any:
    """The pattern object pathspec's registered "picomatch" type compiles."""
    return factory(pattern)


def _affects_finding(record: Record, matcher: Dict[str, Any], rule: str, severity: str,
                     message: str) -> Finding:
    return {"rule": rule, "severity": severity, "message": message, "id": record.id, "path": record.path,
            "field": "affects.%s" % matcher["type"], "pattern": matcher["pattern"]}


def _registered_pattern_type() -> Any:
    """The pattern type registered with pathspec as "picomatch" (ADR 0004): the globs engine's
    door registers its own on first use, and pathspec is imported then."""
    picomatch_pattern_type()
    import pathspec.util
    return pathspec.util.lookup_pattern("picomatch")


def _path_verdict(pattern: str, candidates: Sequence[str]) -> Tuple[bool, Optional[str]]:
    """(matched, message key of a bad pattern or None) of one path pattern against the candidates."""
    spec = _path_pattern(_registered_pattern_type(), pattern)
    if spec.include is None:  # pathspec's null operation: a pattern the reference rejects
        bad = getattr(spec, "bad_pattern", None)
        return False, "path-leading-slash" if bad == "leading-slash" else "path-invalid-glob"
    try:
        for candidate in candidates:
            if spec.match_file(candidate) is not None:
                return True, None
    except ValueError:  # the JS regex engine would throw here (its limits): an invalid glob
        return False, "path-invalid-glob"
    return False, None


def _evaluate_matcher(record: Record, matcher: Dict[str, Any], candidates: Sequence[str],
                      verdicts: Dict[str, Tuple[bool, Optional[str]]]) -> Tuple[bool, Optional[Finding]]:
    """(matched, finding or None) for one affects matcher against the candidate paths.

    `verdicts` holds the path verdicts of this call's candidates by pattern: records that
    share a pattern share its verdict, which depends on nothing else.
    """
    kind, pattern = matcher["type"], matcher["pattern"]
    if kind == "path":
        verdict = verdicts.get(pattern)
        if verdict is None:
            verdict = verdicts[pattern] = _path_verdict(pattern, candidates)
        if verdict[1] is not None:
            return False, _affects_finding(record, matcher, "affects-bad-pattern", "warn",
                                           FINDING_MESSAGES[verdict[1]].format(pattern=pattern))
        return verdict[0], None
    if kind == "package":
        if parse_package_pattern(pattern) is None:
            return False, _affects_finding(record, matcher, "affects-bad-pattern", "warn",
                                           FINDING_MESSAGES["package-bad"].format(pattern=pattern))
        return False, _affects_finding(record, matcher, "affects-unresolvable", "info",
                                       FINDING_MESSAGES["package-inert"].format(pattern=pattern))
    if kind == "entity":
        return False, _affects_finding(record, matcher, "affects-unresolvable", "info",
                                       FINDING_MESSAGES["entity-inert"].format(pattern=pattern))
    return False, _affects_finding(record, matcher, "affects-unresolvable", "info",
                                   FINDING_MESSAGES["other-inert"].format(type=kind, pattern=pattern))


def resolve_record_affects(record: "Record", candidates: List[str], should_stop: Callable[[], bool] = lambda: False,
                           verdicts: Optional[Dict[str, Tuple[bool, Optional[str]]]] = None
                           ) -> Tuple[List[Dict[str, str]], List[Finding]]:
    """(firedMatchers, findings) of one record; a matching negated matcher suppresses the record.

    Pass one `verdicts` dict to every record of a call to match each distinct pattern once.
    """
    verdicts = {} if verdicts is None else verdicts
    fired, findings, suppressed = {}, [], False
    for matcher in record.frontmatter["affects"]:
        if should_stop():  # a record may carry thousands of matchers: stop between them too
            raise CallCancelled()
        if matcher.get("repo"):
            continue  # qualified with another repository: not ours to resolve
        matched, finding = _evaluate_matcher(record, matcher, candidates, verdicts)
        if finding is not None:
            findings.append(finding)
        if matched:
            if matcher["negate"]:
                suppressed = True
            else:
                fired[(matcher["type"], matcher["pattern"])] = True
    if suppressed or not fired:
        return [], findings
    # The reference sorts them with localeCompare (type, then pattern); a stable sort keeps
    # first-seen order where localeCompare says 0 (canonically equivalent patterns).
    ordered = list(fired) if len(fired) == 1 else sorted(
        fired, key=lambda pair: (LocaleCollation.key(pair[0]), LocaleCollation.key(pair[1])))
    return [{"type": kind, "pattern": pattern} for kind, pattern in ordered], findings


# --- The reference CLI's explain and check: governing decisions, markers, the CheckOutcome ------
#
# packages/core/src/{check,markers/resolve.ts} and the CLI's runExplain/runCheck, as pure
# functions of (the lint of the corpus, the paths, the marker scans): resolveAffects (the same
# matcher as get_decision_context, records then in localeCompare order of id),
# toGoverningDecisions, resolveSourceMarkers, mergeSourceDeclarations, bucketDecisions and
# checkChanges. Every dict is built in the reference's key order: JSON.stringify keeps it.

_RECORD_BASENAME = re.compile("[0-9]{4,}-[^\n\r\u2028\u2029]+\\.md\\Z")


Fired = List[Tuple[str, List[Dict[str, str]]]]      # (record id, its firedMatchers), per match
Declared = List[Tuple[str, List[Dict[str, Any]]]]    # (record id, its declaredBy), per match


def _cli_affects(records: Sequence[Record], changed_files: Sequence[str]) -> Tuple[Fired, List[Finding]]:
    """resolveAffects: (id, firedMatchers) of every record whose affects fire, in localeCompare
    order of id (stable), and the findings of every matcher, sorted."""
    candidates = list(dict.fromkeys(normalize_candidate_path(path) for path in changed_files))
    matches: Fired = []
    findings: List[Finding] = []
    verdicts: Dict[str, Tuple[bool, Optional[str]]] = {}
    for record in records:
        fired, found = resolve_record_affects(record, candidates, verdicts=verdicts)
        findings.extend(found)
        if fired:
            matches.append((record.id, fired))
    matches.sort(key=lambda match: LocaleCollation.key(match[0]))
    return matches, sort_findings(findings)


def _governing_decisions(records: Sequence[Record], matches: Fired) -> List[Dict[str, Any]]:
    """toGoverningDecisions: status, title and successor from the last record of each id."""
    by_id = {record.id: record for record in records}
    decisions = []
    for record_id, fired in matches:
        found = by_id.get(record_id)
        frontmatter = found.frontmatter if found is not None else {}
        status = frontmatter.get("status", "draft")
        decision = {"recordId": record_id, "title": frontmatter.get("title", ""), "status": status,
                    "bucket": CONTEXT_BUCKETS.get(status, "history")}
        if frontmatter.get("supersededBy"):
            decision["supersededBy"] = frontmatter["supersededBy"]
        decision["firedMatchers"] = fired
        decisions.append(decision)
    return decisions


def _marker_finding(key: str, severity: str, marker: Dict[str, Any]) -> Finding:
    message = FINDING_MESSAGES[key].format(ref=marker["ref"], path=marker["path"], line=marker["line"])
    return {"rule": key, "severity": severity, "message": message, "path": marker["path"], "field": "marker",
            "pattern": marker["ref"]}


def resolve_markers(records: Sequence[Record],
                    markers: Iterable[Dict[str, Any]]) -> Tuple[Declared, List[Finding]]:
    """resolveSourceMarkers: (id, declaredBy) per record the markers name, in code-unit order of
    id, and the findings of the markers that name no record here (dangling, or another log)."""
    ids = set(record.id for record in records)
    by_record: Dict[str, List[Dict[str, Any]]] = {}
    findings: List[Finding] = []
    seen = set()
    for marker in markers:
        key = (marker["path"], marker["line"], marker["ref"])
        if key in seen:
            continue
        seen.add(key)
        if marker.get("log"):
            findings.append(_marker_finding("marker-unresolvable", "info", marker))
        elif marker["id"] not in ids:
            findings.append(_marker_finding("dangling-marker", "warn", marker))
        else:
            by_record.setdefault(marker["id"], []).append(
                {"path": marker["path"], "line": marker["line"], "ref": marker["ref"]})
    matches = [(record_id, sorted(declared, key=lambda d: (utf16_key(d["path"]), d["line"], utf16_key(d["ref"]))))
               for record_id, declared in by_record.items()]
    matches.sort(key=lambda match: utf16_key(match[0]))
    return matches, sort_findings(findings)


def merge_declarations(decisions: List[Dict[str, Any]], records: Sequence[Record],
                       marker_matches: Declared) -> List[Dict[str, Any]]:
    """mergeSourceDeclarations: `declaredBy` onto the decisions the markers name (after
    firedMatchers), marker-only decisions added with no firedMatchers; code-unit order of id
    then, or the decisions untouched when no marker matched."""
    if not marker_matches:
        return list(decisions)
    pending = dict(marker_matches)
    merged = []
    for decision in decisions:
        declared = pending.pop(decision["recordId"], None)
        merged.append(decision if declared is None else dict(decision, declaredBy=declared))
    marker_only = [dict(decision, declaredBy=pending[decision["recordId"]])
                   for decision in _governing_decisions(records, [(record_id, []) for record_id in pending])]
    return sorted(merged + marker_only, key=lambda decision: utf16_key(decision["recordId"]))


def bucket_decisions(decisions: Sequence[Dict[str, Any]]) -> Dict[str, List[Dict[str, Any]]]:
    """bucketDecisions: governing, activeProposals, history, each in the input's order."""
    buckets: Dict[str, List[Dict[str, Any]]] = {"governing": [], "activeProposals": [], "history": []}
    for decision in decisions:
        buckets[decision["bucket"]].append(decision)
    return buckets


def marker_scan_json(scan: MarkerScan) -> Dict[str, Any]:
    """The `markers` block of `explain --json`: the state, the window, the measured extent
    (only when the file was scanned) and the refs it declares."""
    shown: Dict[str, Any] = {"state": scan.state, "windowBytes": MARKER_WINDOW_BYTES}
    if scan.scanned_bytes is not None:
        shown["scannedBytes"] = scan.scanned_bytes
    if scan.file_bytes is not None:
        shown["fileBytes"] = scan.file_bytes
    shown["truncated"] = scan.truncated
    shown["declared"] = [{"ref": marker["ref"], "line": marker["line"]} for marker in scan.markers]
    return shown


def explain_outcome_of(records: Sequence[Record], corpus_findings: Sequence[Finding], path: str,
                       scan: MarkerScan) -> Dict[str, Any]:
    """What `explain <path> --json` prints: with an error in the corpus, no decisions and the
    corpus's findings; otherwise the decisions reaching `path` both ways and their findings."""
    markers = marker_scan_json(scan)
    if any(finding["severity"] == "error" for finding in corpus_findings):
        return {"path": path, "governedBy": [], "governing": [], "activeProposals": [], "history": [],
                "markers": markers, "findings": sort_findings(corpus_findings)}
    matches, findings = _cli_affects(records, [path])
    declared, marker_findings = resolve_markers(records, scan.markers)
    governed = merge_declarations(_governing_decisions(records, matches), records, declared)
    outcome: Dict[str, Any] = {"path": path, "governedBy": governed}
    outcome.update(bucket_decisions(governed))
    outcome["markers"] = markers
    outcome["findings"] = sort_findings(findings + marker_findings)
    return outcome


def _marker_scan_report(batch: MarkerBatch) -> Dict[str, Any]:
    """checkChanges' markerScan: the counts, then each state's paths in code-unit order."""
    lists: Dict[str, List[str]] = {"absent": [], "unreadable": [], "out-of-tree": [], "truncated": []}
    for scan in batch.scans:
        if scan.state in lists:
            lists[scan.state].append(scan.path)
        if scan.truncated:
            lists["truncated"].append(scan.path)
    counts = {"scanned": sum(1 for scan in batch.scans if scan.state == "scanned")}
    counts.update((name, len(paths)) for name, paths in lists.items())
    counts["skipped"] = len(batch.skipped)
    return {"totalCandidates": batch.total, "limit": batch.limit, "counts": counts,
            "absentPaths": sorted(lists["absent"], key=utf16_key),
            "unreadablePaths": sorted(lists["unreadable"], key=utf16_key),
            "outOfTreePaths": sorted(lists["out-of-tree"], key=utf16_key),
            "truncatedPaths": sorted(lists["truncated"], key=utf16_key),
            "skippedPaths": sorted(batch.skipped, key=utf16_key)}


def _capped_finding(report: Dict[str, Any]) -> List[Finding]:
    skipped = report["skippedPaths"]
    if not skipped:
        return []
    more = len(skipped) - 10
    message = FINDING_MESSAGES["marker-scan-capped"].format(
        limit=report["limit"], shown=", ".join(skipped[:10]),
        more=", and %d more (see markerScan.skippedPaths)" % more if more > 0 else "")
    return [{"rule": "marker-scan-capped", "severity": "warn", "message": message, "field": "marker"}]


def _check_dir(adr_dir: str) -> str:
    """normalizeDir: '/' separators, no trailing '/', and '' for a corpus at the root."""
    stripped = adr_dir.replace("\\", "/").rstrip("/")
    return "" if stripped == "." else stripped


def _is_record_path(path: str, adr_dir: str) -> bool:
    """A changed file that is a record of the corpus, by name alone (flat folder, NNNN-*.md)."""
    prefix = adr_dir + "/" if adr_dir else ""
    rest = path[len(prefix):]
    return (path.startswith(prefix) and rest != "" and "/" not in rest and rest != "0000-template.md"
            and _RECORD_BASENAME.match(rest) is not None)


def check_outcome(root: str, adr_dir: str, files: Sequence[str]) -> Dict[str, Any]:
    """The CheckOutcome `adrkit-mcp check --cwd ROOT --dir ADR_DIR FILES... --json` prints, as a
    dict (the reference's checkChanges after lintCorpus and readSourceMarkersBatch, run in `root`).
    OSError when the ADR folder cannot be listed (the command words it as the reference does)."""
    corpus = cli_lint_corpus(root, adr_dir)
    return check_outcome_of(corpus.records, corpus.findings, files, adr_dir, read_source_markers_batch(root, files))


def check_outcome_of(records: Sequence[Record], lint_findings: Sequence[Finding], changed_files: Sequence[str],
                     adr_dir: str, batch: Optional[MarkerBatch] = None) -> Dict[str, Any]:
    """checkChanges: the CheckOutcome `check --json` prints, from the lint of the corpus (records
    in code-unit order of id, findings), the changed files and, when given, their marker scans."""
    adr_dir = _check_dir(adr_dir)
    changed = sorted(set(path.replace("\\", "/") for path in changed_files), key=utf16_key)
    changed_records = [path for path in changed if _is_record_path(path, adr_dir)]
    matches, findings = _cli_affects(records, changed)
    declared, marker_findings = resolve_markers(
        records, [marker for scan in batch.scans for marker in scan.markers] if batch else [])
    governed = merge_declarations(_governing_decisions(records, matches), records, declared)
    changed_set = set(changed_records)
    record_findings = [finding for finding in lint_findings if finding.get("path") in changed_set]
    report = _marker_scan_report(batch) if batch is not None else None
    capped = _capped_finding(report) if report is not None else []
    outcome: Dict[str, Any] = {"changedFiles": changed, "governedBy": governed}
    outcome.update(bucket_decisions(governed))
    outcome["changedRecords"] = changed_records
    outcome["findings"] = sort_findings(findings + marker_findings + capped + record_findings)
    if report is not None:
        outcome["markerScan"] = report
    outcome["ok"] = not any(finding["severity"] == "error" for finding in record_findings)
    return outcome


# ---------------------------------------------------------------------------
# 5. Tools: decisions as resources, prompts and completions (`--expose`, ADR 0015)
# ---------------------------------------------------------------------------
#
# What resources/*, prompts/* and completion/complete compute: the request is validated before
# any file is read, then answered by pure functions of (projection, arguments). Dispatch owns the
# wire: which parts are served, the error code of each era, the cache hints and the stamp of a
# 2026-07-28 result. Tool results never change with --expose.

class ExposeRefusal(Exception):
    """A request of EXPOSE_METHODS refused: `kind` "invalid" (-32602), "not-found" (a resource:
    -32002 with data.uri before 2026-07-28, -32602 from it) or "unavailable" (-32603, data.reason)."""

    def __init__(self, kind: str, message: str, data: Optional[Dict[str, Any]] = None) -> None:
        Exception.__init__(self, message)
        self.kind = kind
        self.message = message
        self.data = data

EXPOSE_ERRORS = {
    "unknown-uri": "Resource not found: {uri} is not adrkit://decisions, adrkit://superseded or "
                   "adrkit://decisions/<id>",
    "unknown-id": 'Resource not found: no decision record has the id "{id}"',
    "ambiguous-id": 'Resource not found: the id "{id}" is claimed by {count} records ({paths}); '
                    "get_decision lists them",
    "federated-id": 'Resource not found: "{id}" names the decision log "{log}", and named-log '
                    "federation is not available",
    "no-uri": "Invalid params: resources/read needs a string uri",
    "no-cursor": "Invalid params: unknown cursor",
    "bad-cursor": "Invalid params: {message}",
    "no-name": "Invalid params: prompts/get needs a string name",
    "unknown-prompt": "Invalid params: unknown prompt {name} (the prompts are: {names})",
    "bad-arguments": "Invalid params: prompt arguments must be an object of strings",
    "unknown-argument": "Invalid params: prompt {name} has no argument {argument} (its arguments: "
                        "{names})",
    "missing-argument": "Invalid params: prompt {name} needs the argument {argument}",
    "bad-argument": "Invalid params: {problems}",
    "unknown-ref": 'Invalid params: no decision record has the id "{ref}"',
    "federated-ref": 'Invalid params: "{ref}" names another decision log; named-log federation is '
                     "not available",
    "bad-completion": "Invalid params: completion/complete needs a ref (type ref/prompt with a "
                      "name, or ref/resource with a uri) and an argument {{name, value}} of strings",
    "no-completion": "Invalid params: {target} is not a prompt or resource template of this server",
    "unknown-completion": "Invalid params: {target} has no argument {argument}",
}


def _refuse(kind: str, key: str, data: Optional[Dict[str, Any]] = None, **facts: Any) -> ExposeRefusal:
    return ExposeRefusal(kind, EXPOSE_ERRORS[key].format(**facts), data)


def _quoted(text: str) -> str:
    """A client's string inside a message: JSON-quoted, at most 80 code units of it."""
    return json.dumps(utf16_slice(text, 80), ensure_ascii=False)


def _inline(text: Any) -> str:
    """Text on one line of Markdown: whitespace runs as one space."""
    return " ".join(str(text).split())

# Revisions before 2025-06-18 have no `title` and no `annotations.lastModified`; 2024-11-05 has
# no `completions` capability (completion/complete itself exists there).
UNTITLED_REVISIONS = ("2024-11-05", "2025-03-26")


def serve_exposed(config: CorpusConfig, method: str, params: Dict[str, Any], revision: str,
                  expose: Sequence[str], should_stop: ShouldStop = lambda: False) -> Dict[str, Any]:
    """The result of a method of EXPOSE_METHODS that `expose` serves, for its params, in the
    shapes of `revision`, from the corpus as it is on disk now; ExposeRefusal otherwise."""
    titled = revision not in UNTITLED_REVISIONS
    if method in ("prompts/list", "resources/templates/list"):
        if params.get("cursor") is not None:  # one page: no cursor was ever issued
            raise _refuse("invalid", "no-cursor")
        if method == "prompts/list":
            return {"prompts": prompt_definitions(titled)}
        return {"resourceTemplates": [resource_template(titled)]}
    request = _EXPOSED_REQUESTS[method](params, expose)
    if method == "completion/complete" and request["ids"] is None:
        return _completion([])
    try:
        projection = load_projection(config, should_stop)
    except CorpusUnavailable as error:
        raise ExposeRefusal("unavailable", CORPUS_UNAVAILABLE_MESSAGES[error.reason],
                            {"reason": error.reason})
    if method == "resources/list":
        return resources_page(projection, request["cursor"], titled)
    if method == "resources/read":
        return read_resource(projection, request["uri"], config.adr_dir)
    if method == "prompts/get":
        if config.markers:
            request = dict(request, **{MARKERS_ARGUMENT: config.root})
        return render_prompt(projection, request, config.adr_dir, should_stop)
    return complete_argument(projection, request)


# --- The requests, validated before anything is read --------------------------

def _list_request(params: Dict[str, Any], expose: Sequence[str]) -> Dict[str, Any]:
    cursor = params.get("cursor")
    if cursor is not None and not isinstance(cursor, str):
        raise _refuse("invalid", "bad-cursor", message=INVALID_CURSOR_MESSAGES["decode-failed"])
    return {"cursor": cursor}


def _read_request(params: Dict[str, Any], expose: Sequence[str]) -> Dict[str, Any]:
    if not isinstance(params.get("uri"), str):
        raise _refuse("invalid", "no-uri")
    return {"uri": params["uri"]}

# The reference plugin's verdicts (packages/adapters/agent-plugin/commands/adr-check.md).
CHECK_VERDICTS = ("complies", "departs", "supersedes", "unreconciled", "re-proposes-rejected")

_FILES_ARGUMENT = ("files", "Repository-relative paths the work touches, separated by commas "
                            "(src/db/pool.ts,src/db/index.ts)", True)

PROMPTS = {  # name: (title, description, ((argument, description, required), ...))
    "adr-check": (
        "Check work against its decisions",
        "The decisions that concern the given files, embedded, and a request for one verdict per "
        "governing decision: " + ", ".join(CHECK_VERDICTS) + ".",
        (_FILES_ARGUMENT, ("plan", "The plan or change to check, in words (optional)", False))),
    "adr-context": (
        "Decisions for the files you will change",
        "The decisions that concern the given files, embedded and grouped Binding, In flight and "
        "History, with the rejected ones that match, to plan against before changing them.",
        (_FILES_ARGUMENT,)),
    "explain-decision": (
        "Explain a decision",
        "One decision record and the records it relates to, embedded, with its relations in both "
        "directions.",
        (("ref", 'The decision\'s id, such as "0042"', True),)),
}


def _prompt_request(params: Dict[str, Any], expose: Sequence[str]) -> Dict[str, Any]:
    """{"name", and each declared argument: its checked value or None}; -32602 otherwise."""
    name = params.get("name")
    if not isinstance(name, str):
        raise _refuse("invalid", "no-name")
    if name not in PROMPTS:
        raise _refuse("invalid", "unknown-prompt", name=_quoted(name), names=", ".join(sorted(PROMPTS)))
    arguments = params.get("arguments")
    arguments = {} if arguments is None else arguments
    if not isinstance(arguments, dict) or not all(isinstance(value, str) for value in arguments.values()):
        raise _refuse("invalid", "bad-arguments")
    names = [argument for argument, _, _ in PROMPTS[name][2]]
    for key in arguments:
        if key not in names:
            raise _refuse("invalid", "unknown-argument", name=name, argument=_quoted(key),
                          names=", ".join(names))
    request: Dict[str, Any] = {"name": name}
    for argument, _, required in PROMPTS[name][2]:
        value = arguments.get(argument, "").strip()  # a client may send "" for an argument not given
        if argument == "files" and not value.replace(",", " ").strip():
            value = ""  # commas and blanks name no file
        if not value and required:
            raise _refuse("invalid", "missing-argument", name=name, argument=argument)
        request[argument] = _PROMPT_ARGUMENTS[argument](value) if value else None
    return request


def _checked_as_a_tool_checks(check: Callable[[Dict[str, Any], List[str], Dict[str, Any]], None], key: str,
                              value: Any) -> Any:
    """A prompt argument checked by the tools' own field check, whose problems name the field."""
    problems: List[str] = []
    check({key: value}, problems, {})
    if problems:
        raise _refuse("invalid", "bad-argument", problems="; ".join(problems))
    return value


def _files_argument(value: str) -> List[str]:
    """The comma-separated files of a prompt, checked as get_decision_context checks them."""
    files = [path.strip() for path in re.split(r"[,\n]", value) if path.strip()]
    return _checked_as_a_tool_checks(_check_files_field, "files", files)

PROMPT_LIMITS = {
    "files": LIMITS["files"],        # entries of the comma-separated `files`, each a tool path
    "plan": 8192,                    # UTF-16 code units of adr-check's `plan`
    "listed": 60,                    # decision lines in one prompt
    "embedded": 12,                  # records embedded as resource content
    "embedded-bytes": 192 * 1024,    # their text, UTF-8
    "findings": 10,                  # corpus findings named
}


def _plan_argument(value: str) -> str:
    if utf16_len(value) > PROMPT_LIMITS["plan"]:
        raise _refuse("invalid", "bad-argument",
                      problems="plan must be at most %d characters long" % PROMPT_LIMITS["plan"])
    return value


_PROMPT_ARGUMENTS: Dict[str, Callable[[str], Any]] = {"files": _files_argument, "plan": _plan_argument,
                     "ref": functools.partial(_checked_as_a_tool_checks, _check_ref_field, "ref")}

DECISION_URI_PREFIX = DECISIONS_URI + "/"

DECISION_URI_TEMPLATE = DECISION_URI_PREFIX + "{id}"

# (ref type, prompt name or template, argument) whose values complete to decision ids.
COMPLETED_ARGUMENTS = (("ref/prompt", "explain-decision", "ref"),
                       ("ref/resource", DECISION_URI_TEMPLATE, "id"))


def _completion_request(params: Dict[str, Any], expose: Sequence[str]) -> Dict[str, Any]:
    """{"ids": "unique", "distinct" or None (nothing to complete), "value"}; -32602 otherwise."""
    ref, argument = params.get("ref"), params.get("argument")
    if not (isinstance(ref, dict) and isinstance(argument, dict)
            and isinstance(argument.get("name"), str) and isinstance(argument.get("value"), str)):
        raise _refuse("invalid", "bad-completion")
    kind: Any = ref.get("type")
    target = ref.get({"ref/prompt": "name", "ref/resource": "uri"}.get(kind, "type"))
    if kind not in ("ref/prompt", "ref/resource") or not isinstance(target, str):
        raise _refuse("invalid", "bad-completion")
    if kind == "ref/prompt":
        served = "prompts" in expose and target in PROMPTS
        names = [name for name, _, _ in PROMPTS[target][2]] if served else []
    else:
        served = "resources" in expose and target == DECISION_URI_TEMPLATE
        names = ["id"]
    if not served:
        raise _refuse("invalid", "no-completion", target=_quoted(target))
    if argument["name"] not in names:
        raise _refuse("invalid", "unknown-completion", target=_quoted(target),
                      argument=_quoted(argument["name"]))
    completed = (kind, target, argument["name"]) in COMPLETED_ARGUMENTS
    ids = None if not completed else "unique" if kind == "ref/resource" else "distinct"
    return {"ids": ids, "value": argument["value"]}


_EXPOSED_REQUESTS = {"completion/complete": _completion_request, "prompts/get": _prompt_request,
                     "resources/list": _list_request, "resources/read": _read_request}

RESOURCE_MIME_TYPE = "text/markdown"


# --- Resources -----------------------------------------------------------------

def _described(key: str, value: str, name: str, title: str, description: str, titled: bool) -> Dict[str, Any]:
    """A listed resource or template: name, title (from 2025-06-18), description, MIME type."""
    entry = {key: value, "name": name}
    if titled:
        entry["title"] = title
    entry["description"] = description
    entry["mimeType"] = RESOURCE_MIME_TYPE
    return entry

DECISION_TEMPLATE = ("decision", "Decision record by id",
                     "One decision record's Markdown file, frontmatter and body, as it is on disk.")


def resource_template(titled: bool) -> Dict[str, Any]:
    """The one template, adrkit://decisions/{id} (its id completes through completion/complete)."""
    return _described("uriTemplate", DECISION_URI_TEMPLATE, *DECISION_TEMPLATE, titled=titled)

EXPOSE_TEXTS = {
    "resource-title": "{id} {title}",
    "resource-description": "{status} decision of {date}; tags: {tags}.",
    "untitled-description": "{id} {title}: {status} decision of {date}; tags: {tags}.",
    "no-tags": "none",
    "index-head": "# Decision records\n\n{count} in {adr_dir}, in id order. Read one as "
                  "adrkit://decisions/<id> or with get_decision.\n\n"
                  "| id | title | status | date | file |\n|---|---|---|---|---|",
    "index-row": "| {id} | {title} | {status} | {date} | {path} |",
    "superseded-head": "# Superseded, rejected and deprecated decisions\n\n{count} in {adr_dir}, "
                       "in id order. Do not follow them; do not propose a rejected one again.\n\n"
                       "| id | title | status | date | file | replaced by |\n|---|---|---|---|---|---|",
    "superseded-row": "| {id} | {title} | {status} | {date} | {path} | {replacement} |",
    "not-replaced": "-",
    "rows-cut": "\n{count} more not shown (this list stops at {kib} KiB): search_decisions and "
                "resources/list reach every record.",
    "records": "{count} record",
    "records-plural": "{count} records",
    "ref-local": 'ADR {id} "{title}" ({status})',
    "ref-missing": "ADR {ref}, which is not in the records",
    "ref-ambiguous": "ADR {ref}, which {count} records claim",
    "ref-federated": "{ref} in another decision log",
    "line": '- ADR {id} "{title}" ({status}, {path}){detail}',
    "matched-by": "; matched by {matchers}",
    "declared-by": "; declared by {places}",
    "replaced-by": "; replaced by {replacement}",
    "group-binding": "Binding (accepted): follow these, or say plainly in the plan that you depart "
                     "from one, and why.",
    "group-in-flight": "In flight (draft, proposed): not binding; name any the work touches, and "
                       "never assume one will land.",
    "group-history": 'History (superseded, deprecated): no longer in force; this is where "we '
                     'already tried that" lives.',
    "group-rejected": "Rejected: the team decided against these; do not propose them again.",
    "group-none": "- none",
    "listed-cut": "{count} more decisions concern these files and are not listed: call "
                  "get_decision_context for all of them.",
    "embedded-list": "Embedded below as resources: {ids}.",
    "named-only": "Named only (a prompt embeds at most {records} records, {kib} KiB): {ids}; call "
                  "get_decision for them.",
    "findings-none": "The corpus has no findings: every record file was read and validated.",
    "findings": "The corpus has {count} {findings}. A record file that fails to parse or validate "
                "is left out of every answer, so treat \"nothing governs this\" as unverified "
                "while these stand:",
    "finding": "- {where}: {rule}: {message}",
    "findings-cut": "- and {count} more: run adrkit-mcp doctor for all of them.",
    "context-intro": "Decision records ({adr_dir}) that concern {files}. Read them before you plan "
                     "changes to these files, so the plan follows them rather than being "
                     "corrected at review time.",
    "context-none": "No decision record concerns these files.",
    "check-intro": "Check the work on {files} against the decision records ({adr_dir}) that "
                   "concern those files.",
    "check-plan": "The plan or change to check:\n{plan}",
    "check-ask": "Give one verdict per Binding decision, never one verdict for the whole change, "
                 "each exactly one of: {verdicts} (re-proposes-rejected when the work revives a "
                 "Rejected record). For every verdict other than complies, say what the decision "
                 "requires, what the work does instead (with path:line) and which resolution "
                 "applies: comply, justify the departure in the plan, or supersede the record. "
                 "In-flight decisions are not binding: name the ones the work depends on. Close "
                 "with the honest gaps: paths no decision concerns, affects matchers too coarse "
                 "to be conclusive, and the corpus findings above.",
    "check-no-binding": "No Binding decision concerns these files: say so, and still check the "
                        "work against the Rejected and In-flight ones.",
    "context-description": "{binding} binding, {in_flight} in flight, {history} history, "
                           "{rejected} rejected, for {files}",
    "explain-intro": 'Explain decision {id} ("{title}"): what it decided and why, whether it is '
                     "in force, and how it relates to the records named here.",
    "explain-facts": "Status {status}, dated {date}, in {path}.",
    "explain-ambiguous": 'The id {ref} is claimed by {count} records; each is explained below. Ids '
                         "must be unique: say which file should change its id.",
    "relations": "Relations:",
    "relation": "- {label}: {refs}",
    "relation-none": "none",
    "explain-description": '{id} "{title}" ({status}) and its relations',
}


def _record_resource(record: Record, titled: bool) -> Dict[str, Any]:
    fm = record.frontmatter
    facts = {"id": record.id, "title": _inline(fm["title"]), "status": fm["status"], "date": fm["date"],
             "tags": ", ".join(fm["tags"]) or EXPOSE_TEXTS["no-tags"]}
    entry = _described("uri", DECISION_URI_PREFIX + record.id, record.id,
                       EXPOSE_TEXTS["resource-title"].format(**facts),
                       EXPOSE_TEXTS["resource-description" if titled else "untitled-description"].format(**facts),
                       titled)
    entry["size"] = len(record.source().encode("utf-8", "surrogatepass"))
    if titled:
        entry["annotations"] = {"lastModified": fm["date"] + "T00:00:00Z"}
    return entry

RESOURCE_PAGE_SIZE = 1000            # resources/list entries per page: Claude Code reads one page

SUPERSEDED_URI = "adrkit://superseded"

STATIC_RESOURCES = (  # (uri, name, title, description)
    (DECISIONS_URI, "decisions", "Decision index",
     "Every decision record: id, title, status, date and file, as a Markdown table."),
    (SUPERSEDED_URI, "superseded", "Superseded, rejected and deprecated decisions",
     "The records no longer in force, and what replaced each superseded one."),
)


def resources_page(projection: Projection, cursor: Optional[str], titled: bool) -> Dict[str, Any]:
    """One page of resources/list: the index, the superseded list, then every record whose id is
    its own (an id two records claim has no resource: reading it could only fail)."""
    records = [record for record in projection.records if len(projection.by_id[record.id]) == 1]
    fixed = len(STATIC_RESOURCES)
    try:
        page, next_cursor = paginate(range(fixed + len(records)), cursor, RESOURCE_PAGE_SIZE,
                                     "resources.list", projection.fingerprint,
                                     query_shape_hash([RESOURCE_PAGE_SIZE]))
    except InvalidCursor as error:
        raise _refuse("invalid", "bad-cursor", message=INVALID_CURSOR_MESSAGES[error.reason])
    resources = [_described("uri", *STATIC_RESOURCES[index], titled=titled) if index < fixed
                 else _record_resource(records[index - fixed], titled) for index in page]
    result: Dict[str, Any] = {"resources": resources}
    if next_cursor is not None:
        result["nextCursor"] = next_cursor
    return result


def read_resource(projection: Projection, uri: str, adr_dir: str) -> Dict[str, Any]:
    """resources/read: the index, the superseded list, or one record's file as it was read."""
    if uri == DECISIONS_URI:
        text = decision_index(projection, adr_dir)
    elif uri == SUPERSEDED_URI:
        text = superseded_index(projection, adr_dir)
    elif uri.startswith(DECISION_URI_PREFIX):
        text = decision_record(projection, uri).source()
    else:
        raise _refuse("not-found", "unknown-uri", {"uri": uri}, uri=_quoted(uri))
    return {"contents": [{"uri": uri, "mimeType": RESOURCE_MIME_TYPE, "text": text}]}


def decision_record(projection: Projection, uri: str) -> Record:
    """The record adrkit://decisions/<id> names; not-found when no record, or several, or
    another decision log has that id."""
    ident = urllib.parse.unquote(uri[len(DECISION_URI_PREFIX):])
    log, local_id = split_adr_ref(ident)
    shown = utf16_slice(ident, LIMITS["ref"][1])
    if log is not None:
        raise _refuse("not-found", "federated-id", {"uri": uri}, id=shown, log=utf16_slice(log, 80))
    bucket = projection.by_id.get(local_id, [])
    if len(bucket) == 1:
        return bucket[0]
    if not bucket:
        raise _refuse("not-found", "unknown-id", {"uri": uri}, id=shown)
    raise _refuse("not-found", "ambiguous-id", {"uri": uri}, id=shown, count=len(bucket),
                  paths=", ".join(record.path for record in bucket))


def _cell(text: Any) -> str:
    return _inline(text).replace("|", "\\|")

RESOURCE_TEXT_MAX_BYTES = 64 * 1024  # the index and the superseded list stop at a whole row


def _bounded_rows(head: str, rows: List[str]) -> str:
    """head, then the rows that fit RESOURCE_TEXT_MAX_BYTES, then how many did not."""
    cut_size = len(EXPOSE_TEXTS["rows-cut"].format(count=len(rows), kib=RESOURCE_TEXT_MAX_BYTES // 1024))
    budget = RESOURCE_TEXT_MAX_BYTES - len(head.encode("utf-8", "surrogatepass")) - cut_size - 2
    lines, used = [head], 0
    for index, row in enumerate(rows):
        used += len(row.encode("utf-8", "surrogatepass")) + 1
        if used > budget:
            lines.append(EXPOSE_TEXTS["rows-cut"].format(count=len(rows) - index,
                                                         kib=RESOURCE_TEXT_MAX_BYTES // 1024))
            break
        lines.append(row)
    return "\n".join(lines) + "\n"


def _records_phrase(count: int) -> str:
    return EXPOSE_TEXTS["records" if count == 1 else "records-plural"].format(count=count)


def _row_facts(record: Record) -> Dict[str, Any]:
    fm = record.frontmatter
    return {"id": _cell(record.id), "title": _cell(fm["title"]), "status": fm["status"],
            "date": fm["date"], "path": _cell(record.path)}


def decision_index(projection: Projection, adr_dir: str) -> str:
    """adrkit://decisions: every record as a row of a Markdown table, at most 64 KiB."""
    rows = [EXPOSE_TEXTS["index-row"].format(**_row_facts(record)) for record in projection.records]
    head = EXPOSE_TEXTS["index-head"].format(count=_records_phrase(len(rows)), adr_dir=adr_dir)
    return _bounded_rows(head, rows)


def superseded_index(projection: Projection, adr_dir: str) -> str:
    """adrkit://superseded: the superseded, rejected and deprecated records, with what replaced
    each superseded one, at most 64 KiB."""
    rows = []
    for record in projection.records:
        status = record.frontmatter["status"]
        if status not in ("superseded", "rejected", "deprecated"):
            continue
        replacement = EXPOSE_TEXTS["not-replaced"]
        if status == "superseded":
            replacement = _cell(ref_phrase(record.frontmatter["supersededBy"], projection.by_id))
        rows.append(EXPOSE_TEXTS["superseded-row"].format(replacement=replacement, **_row_facts(record)))
    head = EXPOSE_TEXTS["superseded-head"].format(count=_records_phrase(len(rows)), adr_dir=adr_dir)
    return _bounded_rows(head, rows)


def ref_phrase(ref: str, by_id: Dict[str, List[Record]]) -> str:
    """A relation's target in words: its id, title and status when exactly one record has it."""
    log, local_id = split_adr_ref(ref)
    if log is not None:
        return EXPOSE_TEXTS["ref-federated"].format(ref=ref)
    bucket = by_id.get(local_id, [])
    if len(bucket) == 1:
        fm = bucket[0].frontmatter
        return EXPOSE_TEXTS["ref-local"].format(id=bucket[0].id, title=_inline(fm["title"]),
                                                status=fm["status"])
    if not bucket:
        return EXPOSE_TEXTS["ref-missing"].format(ref=ref)
    return EXPOSE_TEXTS["ref-ambiguous"].format(ref=ref, count=len(bucket))

COMPLETION_MAX_VALUES = 100          # the schema's cap on completion values


# --- Completions ---------------------------------------------------------------

def _completion(values: List[str]) -> Dict[str, Any]:
    shown = values[:COMPLETION_MAX_VALUES]
    return {"completion": {"values": shown, "total": len(values), "hasMore": len(values) > len(shown)}}


def complete_argument(projection: Projection, request: Dict[str, Any]) -> Dict[str, Any]:
    """Decision ids starting with the value (case aside), in id order: for the template only ids
    one record has, for explain-decision every id."""
    prefix = request["value"].lower()
    every = request["ids"] == "distinct"
    return _completion([ident for ident, records in projection.by_id.items()
                        if (every or len(records) == 1) and ident.lower().startswith(prefix)])


# --- Prompts: text computed from the corpus, records embedded as resources -------

def prompt_definitions(titled: bool) -> List[Dict[str, Any]]:
    """The prompts/list entries, in UTF-16 code-unit order of name."""
    prompts = []
    for name in sorted(PROMPTS, key=utf16_key):
        title, description, arguments = PROMPTS[name]
        entry: Dict[str, Any] = {"name": name}
        if titled:
            entry["title"] = title
        entry["description"] = description
        entry["arguments"] = [{"name": argument, "description": text, "required": required}
                              for argument, text, required in arguments]
        prompts.append(entry)
    return prompts


def render_prompt(projection: Projection, request: Dict[str, Any], adr_dir: str,
                  should_stop: ShouldStop = lambda: False) -> Dict[str, Any]:
    """prompts/get: a text message, then one message per embedded record (EmbeddedResource)."""
    if request["name"] == "explain-decision":
        return _explain_prompt(projection, request["ref"])
    return _context_prompt(projection, request, adr_dir, should_stop)


def _prompt_result(description: str, lines: List[str], embedded: List[Record]) -> Dict[str, Any]:
    messages = [{"role": "user", "content": {"type": "text", "text": "\n".join(lines)}}]
    for record in embedded:
        messages.append({"role": "user", "content": {"type": "resource", "resource": {
            "uri": DECISION_URI_PREFIX + record.id, "mimeType": RESOURCE_MIME_TYPE,
            "text": record.source()}}})
    return {"description": description, "messages": messages}


def _embedding(records: List[Record]) -> Tuple[List[Record], List[Record]]:
    """(embedded, named only): the records, in the order given, that fit PROMPT_LIMITS."""
    embedded: List[Record] = []
    named: List[Record] = []
    used = 0
    for record in records:
        size = len(record.source().encode("utf-8", "surrogatepass"))
        if len(embedded) < PROMPT_LIMITS["embedded"] and used + size <= PROMPT_LIMITS["embedded-bytes"]:
            embedded.append(record)
            used += size
        else:
            named.append(record)
    return embedded, named


def _embedding_lines(embedded: List[Record], named: List[Record]) -> List[str]:
    lines = []
    if embedded:
        lines.append(EXPOSE_TEXTS["embedded-list"].format(ids=", ".join("ADR " + r.id for r in embedded)))
    if named:
        lines.append(EXPOSE_TEXTS["named-only"].format(
            records=PROMPT_LIMITS["embedded"], kib=PROMPT_LIMITS["embedded-bytes"] // 1024,
            ids=", ".join("ADR " + record.id for record in named)))
    return lines


def _findings_lines(findings: List[Finding]) -> List[str]:
    """The corpus findings, errors first, at most PROMPT_LIMITS["findings"] of them named."""
    if not findings:
        return [EXPOSE_TEXTS["findings-none"]]
    rank = {"error": 0, "warn": 1}
    ordered = sorted(findings, key=lambda finding: rank.get(finding["severity"], 2))
    limit = PROMPT_LIMITS["findings"]
    lines = [EXPOSE_TEXTS["findings"].format(count=len(ordered),
                                             findings=plural(len(ordered), "finding", "findings"))]
    for finding in ordered[:limit]:
        lines.append(EXPOSE_TEXTS["finding"].format(
            where=finding.get("path") or finding.get("id") or "-", rule=finding["rule"],
            message=_inline(finding["message"])))
    if len(ordered) > limit:
        lines.append(EXPOSE_TEXTS["findings-cut"].format(count=len(ordered) - limit))
    return lines


def _entry_line(entry: Dict[str, Any], by_id: Dict[str, List[Record]]) -> str:
    """One decision of get_decision_context's answer, as a line of a prompt."""
    matchers = ", ".join("%s %s" % (fired["type"], fired["pattern"]) for fired in entry["firedMatchers"])
    detail = EXPOSE_TEXTS["matched-by"].format(matchers=matchers) if matchers else ""
    if "declaredBy" in entry:  # --markers (ADR 0020)
        detail += EXPOSE_TEXTS["declared-by"].format(places=", ".join(
            "%s:%d (@adr %s)" % (place["path"], place["line"], place["ref"]) for place in entry["declaredBy"]))
    if entry["status"] == "superseded" and entry["relations"]["supersededBy"]:
        detail += EXPOSE_TEXTS["replaced-by"].format(
            replacement=ref_phrase(entry["relations"]["supersededBy"], by_id))
    return EXPOSE_TEXTS["line"].format(id=entry["id"], title=_inline(entry["title"]), status=entry["status"],
                                       path=entry["sourcePath"], detail=detail)


def _group_lines(groups: Dict[str, List[Dict[str, Any]]], kept: List[Dict[str, Any]],
                 by_id: Dict[str, List[Record]]) -> List[str]:
    """Binding, In flight, History, Rejected: each heading, then its listed decisions."""
    listed = {entry["sourcePath"] for entry in kept}
    lines = []
    for group, members in groups.items():
        lines.append(EXPOSE_TEXTS["group-" + group])
        lines += [_entry_line(entry, by_id) for entry in members if entry["sourcePath"] in listed]
        if not members:
            lines.append(EXPOSE_TEXTS["group-none"])
    return lines

# The groups of adr-context and adr-check, in the order a prompt shows them, and the statuses in
# each; PROMPT_PRIORITY is the order in which they are kept and embedded when a bound cuts.
PROMPT_GROUPS = {"binding": ("accepted",), "in-flight": ("draft", "proposed"),
                 "history": ("superseded", "deprecated"), "rejected": ("rejected",)}

PROMPT_PRIORITY = ("binding", "in-flight", "rejected", "history")


def _context_prompt(projection: Projection, request: Dict[str, Any], adr_dir: str,
                    should_stop: ShouldStop) -> Dict[str, Any]:
    """adr-context and adr-check: get_decision_context's answer for the files, grouped, embedded."""
    files, check = request["files"], request["name"] == "adr-check"
    entries, derived = context_entries(projection, files, should_stop, request.get(MARKERS_ARGUMENT))
    group_of = {status: group for group, statuses in PROMPT_GROUPS.items() for status in statuses}
    groups = {group: [entry for entry in entries if group_of[entry["status"]] == group]
              for group in PROMPT_GROUPS}
    kept = [entry for group in PROMPT_PRIORITY for entry in groups[group]][:PROMPT_LIMITS["listed"]]
    by_path = {record.path: record for record in projection.records}
    embedded, named = _embedding([by_path[entry["sourcePath"]] for entry in kept])
    shown = ", ".join(files)
    lines = [EXPOSE_TEXTS["check-intro" if check else "context-intro"].format(files=shown, adr_dir=adr_dir)]
    if check and request["plan"]:
        lines += ["", EXPOSE_TEXTS["check-plan"].format(plan=request["plan"])]
    lines.append("")
    if entries:
        lines += _group_lines(groups, kept, projection.by_id)
        if len(entries) > len(kept):
            lines.append(EXPOSE_TEXTS["listed-cut"].format(count=len(entries) - len(kept)))
        lines += [""] + _embedding_lines(embedded, named)
    else:
        lines.append(EXPOSE_TEXTS["context-none"])
    lines += [""] + _findings_lines(sort_findings(projection.findings + derived))
    if check:
        lines += [""] + ([] if groups["binding"] else [EXPOSE_TEXTS["check-no-binding"]])
        lines.append(EXPOSE_TEXTS["check-ask"].format(verdicts=", ".join(CHECK_VERDICTS)))
    counts = {group.replace("-", "_"): len(members) for group, members in groups.items()}
    description = EXPOSE_TEXTS["context-description"].format(files=shown, **counts)
    return _prompt_result(utf16_slice(description, LIMITS["text"]), lines, embedded)


def _relation_refs(record: Record, field: str) -> List[str]:
    value = record.frontmatter.get(field)
    return list(value) if isinstance(value, list) else [value] if value else []

RELATION_LABELS = (  # (frontmatter field, the record's own refs, the records whose field names it)
    ("supersedes", "Supersedes", "Named in the supersedes of"),
    ("supersededBy", "Superseded by", "Named in the supersededBy of"),
    ("relatesTo", "Relates to", "Named in the relatesTo of"),
    ("conflictsWith", "Conflicts with", "Named in the conflictsWith of"),
)


def _relation_lines(record: Record, projection: Projection, related: List[Record]) -> List[str]:
    """The record's relations both ways, one line each; the records they reach go to `related`."""
    by_id, lines = projection.by_id, []
    for field, outward, _ in RELATION_LABELS:
        refs = _relation_refs(record, field)
        for ref in refs:
            log, local_id = split_adr_ref(ref)
            bucket = by_id.get(local_id, []) if log is None else []
            related.extend(bucket if len(bucket) == 1 else [])
        phrases = "; ".join(ref_phrase(ref, by_id) for ref in refs)
        lines.append(EXPOSE_TEXTS["relation"].format(label=outward, refs=phrases or EXPOSE_TEXTS["relation-none"]))
    for field, _, inward in RELATION_LABELS:
        others = [other for other in projection.records
                  if other is not record and record.id in _relation_refs(other, field)]
        related.extend(others)
        phrases = "; ".join(EXPOSE_TEXTS["ref-local"].format(
            id=other.id, title=_inline(other.frontmatter["title"]), status=other.frontmatter["status"])
            for other in others)
        lines.append(EXPOSE_TEXTS["relation"].format(label=inward, refs=phrases or EXPOSE_TEXTS["relation-none"]))
    return lines


def _explain_prompt(projection: Projection, ref: str) -> Dict[str, Any]:
    """explain-decision: the record (every record, for an id several claim) and its relations."""
    log, local_id = split_adr_ref(ref)
    if log is not None:
        raise _refuse("invalid", "federated-ref", ref=ref)
    bucket = projection.by_id.get(local_id, [])
    if not bucket:
        raise _refuse("invalid", "unknown-ref", ref=ref)
    lines: List[str] = []
    if len(bucket) > 1:
        lines += [EXPOSE_TEXTS["explain-ambiguous"].format(ref=ref, count=len(bucket)), ""]
    related: List[Record] = []
    for record in bucket:
        fm = record.frontmatter
        lines += [EXPOSE_TEXTS["explain-intro"].format(id=record.id, title=_inline(fm["title"])),
                  EXPOSE_TEXTS["explain-facts"].format(status=fm["status"], date=fm["date"], path=record.path),
                  EXPOSE_TEXTS["relations"]]
        lines += _relation_lines(record, projection, related) + [""]
    extra = [record for record in dict.fromkeys(related) if record not in bucket]
    embedded, named = _embedding(bucket + extra)
    lines += _embedding_lines(embedded, named)
    fm = bucket[0].frontmatter
    description = EXPOSE_TEXTS["explain-description"].format(id=bucket[0].id, title=_inline(fm["title"]),
                                                             status=fm["status"])
    return _prompt_result(utf16_slice(description, LIMITS["text"]), lines, embedded)


# ---------------------------------------------------------------------------
# 6. Projection: a fresh, consistent view of the corpus for every call
# ---------------------------------------------------------------------------

class CorpusUnavailable(Exception):
    def __init__(self, reason: str) -> None:
        Exception.__init__(self, reason)
        self.reason = reason


def _canonical_path(path: str, missing_reason: str, unreadable_reason: str) -> str:
    """realpath(path), raising CorpusUnavailable like Node's realpath error codes map."""
    try:
        os.stat(path)
    except FileNotFoundError:
        raise CorpusUnavailable(missing_reason)
    except OSError:  # ENOTDIR, EACCES, ELOOP...: like Node, every code but ENOENT is 'not readable'
        raise CorpusUnavailable(unreadable_reason)
    try:
        return os.path.realpath(path)
    except OSError:
        raise CorpusUnavailable(unreadable_reason)


def is_contained(parent: str, child: str) -> bool:
    """Path-segment containment of two canonical paths (never a bare string prefix)."""
    if parent == child:
        return True
    prefix = parent if parent.endswith(os.sep) else parent + os.sep
    return child.startswith(prefix)


def _require_directory(path: str, not_directory: str, missing: str, unreadable: str) -> None:
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise CorpusUnavailable(missing)
    except OSError:
        raise CorpusUnavailable(unreadable)
    if not stat.S_ISDIR(info.st_mode):
        raise CorpusUnavailable(not_directory)
    if not os.access(path, os.R_OK | os.X_OK):
        raise CorpusUnavailable(unreadable)


def resolve_canonical_roots(root: str, adr_dir: str) -> Tuple[str, str]:
    """(canonical root, canonical ADR dir), or CorpusUnavailable with the first failing reason."""
    root = os.path.abspath(root)
    canonical_root = _canonical_path(root, "root-not-found", "root-not-readable")
    _require_directory(canonical_root, "root-not-directory", "root-not-found", "root-not-readable")
    git_entry = os.path.join(canonical_root, ".git")
    try:
        os.stat(git_entry)
    except OSError:
        raise CorpusUnavailable("root-not-git")
    if not os.access(git_entry, os.R_OK):
        raise CorpusUnavailable("root-not-git")
    # Like Node's path.resolve: join, then collapse '.' and '..' lexically.
    wanted = adr_dir if os.path.isabs(adr_dir) else os.path.join(canonical_root, adr_dir)
    wanted = os.path.normpath(wanted)
    canonical_dir = _canonical_path(wanted, "dir-not-found", "dir-not-readable")
    _require_directory(canonical_dir, "dir-not-directory", "dir-not-found", "dir-not-readable")
    if not is_contained(canonical_root, canonical_dir):
        raise CorpusUnavailable("dir-outside-root")
    return canonical_root, canonical_dir


def markdown_count(folder: str) -> int:
    """How many Markdown files (README, index and template files aside) lie directly in folder;
    0 for a folder that is missing or cannot be listed."""
    try:
        names = os.listdir(folder)
    except OSError:
        return 0
    return sum(1 for name in names if name.lower().endswith(".md") and not is_conventional_name(name)
               and os.path.isfile(os.path.join(folder, name)))

# Where decision records usually live, in the order doctor and the start-up error look for them
# when the configured folder is missing or holds no Markdown (adr-tools, MADR, log4brains and
# adrkit layouts; ADR 0022).
USUAL_ADR_FOLDERS = ("docs/adr", "doc/adr", "docs/decisions", "docs/architecture/decisions",
                     "docs/adrs", "adr", "architecture/decisions")


def usual_adr_folder(root: str, adr_dir: str) -> Optional[str]:
    """The first of USUAL_ADR_FOLDERS, other than adr_dir, that holds Markdown directly under
    root: where the records probably are when adr_dir is missing or holds none."""
    configured = os.path.normpath(os.path.join(root, adr_dir))
    for folder in USUAL_ADR_FOLDERS:
        path = os.path.join(root, *folder.split("/"))
        if os.path.normpath(path) != configured and markdown_count(path):
            return folder
    return None


class Projection:
    """What one tool call sees: records in (id, sourcePath) order, findings, fingerprint."""

    __slots__ = ("records", "by_id", "findings", "fingerprint", "record_count", "excluded_count")

    def __init__(self, records: List[Record], findings: List[Finding], candidate_count: int) -> None:
        self.records = records
        self.by_id: Dict[str, List[Record]] = {}
        for record in records:
            self.by_id.setdefault(record.id, []).append(record)
        self.findings = findings
        self.record_count = len(records)
        self.excluded_count = candidate_count - len(records)
        digest = hashlib.sha256()
        for record in records:
            digest.update(record.digest)
        digest.update(stable_json([findings, self.record_count, self.excluded_count]).encode("ascii"))
        self.fingerprint = digest.hexdigest()

    def health(self) -> CorpusHealth:
        return {"fingerprint": self.fingerprint, "recordCount": self.record_count,
                "excludedCount": self.excluded_count}


# A file whose mtime or ctime is this close to (or after) the moment a load began is "racy":
# a later write could leave every stat field unchanged, so it is read and hashed again. No stat
# call reports a file system's timestamp granularity, so the window is fixed at 2 s, the coarsest
# granularity in use (FAT); ADR 0010 gives the reasoning.
RACY_WINDOW_NS = 2 * 10 ** 9

# Stat-validated reuse needs POSIX stat semantics: st_ctime is the inode change time, which no
# user can set back. On Windows st_ctime is the creation time, so there every file is read.
_STAT_REUSE = os.name == "posix"


def stat_identity(info: os.stat_result) -> Tuple[int, ...]:
    """What must be unchanged for a file to be the one read: device, inode, size, times, mode."""
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_mode)


def projection_settled(identity: Tuple[int, ...], load_started_ns: int) -> bool:
    """True when a file with this identity may be reused on a later call without reading it.

    Any later write, rename or chmod sets ctime to a moment after the load began, so the
    identity changes, unless that moment falls in the same timestamp tick as the old ctime:
    hence the racy window. Timestamps in the future (clock skew) are never settled.
    """
    mtime_ns, ctime_ns = identity[3], identity[4]
    return (_STAT_REUSE and identity[1] != 0 and ctime_ns > 0
            and max(mtime_ns, ctime_ns) < load_started_ns - RACY_WINDOW_NS)


class _Memo(NamedTuple):
    """One parsed file as the latest load saw it: its identity, content key and parse."""

    identity: Tuple[int, ...]
    settled: bool
    key: bytes
    parsed: ParsedFile


class RecordCache:
    """The parsed files of one corpus, owned by one CorpusConfig (one server instance).

    A file is reused without being read when its stat identity is unchanged and it was
    settled (not racy) when read; otherwise it is read and hashed, and parsed only when
    its bytes changed. Only the files of the latest load are kept, so memory follows the
    corpus on disk. Loads take turns through a gate that a waiting call leaves as soon
    as it is cancelled or times out. Engine failures are never memoised.
    """

    def __init__(self) -> None:
        # The latest load's memos: path -> _Memo, or with --from madr (subfolders..., name) -> _MadrMemo.
        self.memos: Dict[Any, Any] = {}
        self.last: Optional[Tuple[Any, Projection]] = None
        self.parses: Dict[Tuple[str, Any], ParsedFile] = {}  # --from madr: by path and content
        self.imports = MadrImport.Memo()  # --from madr: the importer's per-file work, between calls
        self.reported: Set[Tuple[str, bytes]] = set()  # content keys whose engine failure is already on stderr
        self._gate = threading.Condition(threading.Lock())
        self._busy = False

    def enter(self, should_stop: Callable[[], bool]) -> None:
        """Wait for this cache's turn to load; CallCancelled when the call stops meanwhile."""
        with self._gate:
            waited = False
            while self._busy:
                if should_stop():
                    raise CallCancelled()
                self._gate.wait(_GATE_POLL_S)
                waited = True
            if waited and should_stop():  # stopped while waiting: never start a load nobody reads
                raise CallCancelled()
            self._busy = True

    def leave(self) -> None:
        with self._gate:
            self._busy = False
            self._gate.notify_all()


# The clock a load's racy window is measured against (the file system stamps with wall time).
_wall_clock_ns = time.time_ns

# How often a call waiting for another call's load checks whether it was stopped.
_GATE_POLL_S = 0.05


# What reading one candidate gives: (bytes, stat identity), or (reason, detail) when it was not
# read: ("stat-error", None), ("file-read", message) or ("too-large", None or its capped prefix).
_ReadOutcome = Tuple[Union[bytes, str], Any]


def _read_candidate(dir_fd: Optional[int], dir_path: str, name: str,
                    large_prefix: bool = False) -> _ReadOutcome:
    """(bytes, identity) of one candidate, or (reason, detail): 'stat-error', 'too-large', 'file-read'.

    A file over MAX_SOURCE_BYTES is never read whole: its detail is None, or with
    `large_prefix` its first MAX_SOURCE_BYTES bytes up to the last complete line
    (_capped_prefix), which is what `--from madr` needs of it to number the folder.

    The file is opened without following symlinks and checked through its own
    descriptor, so what is read is the regular file that was examined. Where
    O_NOFOLLOW is missing (Windows), the entry is looked at first and opened
    only if it is a regular file, and the descriptor must then be that file.
    """
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    flags = os.O_RDONLY | nofollow | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    examined = None
    try:
        if not nofollow:
            examined = _lstat_candidate(dir_fd, dir_path, name)
            if examined is None or not stat.S_ISREG(examined.st_mode):
                return "stat-error", None
        if dir_fd is not None:
            fd = os.open(name, flags, dir_fd=dir_fd)
        else:
            fd = os.open(os.path.join(dir_path, name), flags)
    except OSError as error:
        # A file that exists as a regular file but cannot be opened is a read
        # failure (the reference's `file-read`); anything else failed the stat.
        info = _lstat_candidate(dir_fd, dir_path, name)
        if info is None or not stat.S_ISREG(info.st_mode):
            return "stat-error", None
        return "file-read", "%s: %s" % (error.strerror or "cannot open", name)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return "stat-error", None
        if examined is not None and stat_identity(info)[:2] != stat_identity(examined)[:2]:
            # Replaced between the look and the open. An editor's atomic save leaves the name on
            # the regular file just opened, which the native path reads too; a link swapped in
            # leaves a link there (the descriptor is its target): never read that.
            again = _lstat_candidate(dir_fd, dir_path, name)
            if (again is None or not stat.S_ISREG(again.st_mode)
                    or stat_identity(again)[:2] != stat_identity(info)[:2]):
                return "stat-error", None
        if info.st_size > MAX_SOURCE_BYTES:
            return "too-large", _capped_prefix(fd) if large_prefix else None
        # Read until st_size bytes are in, asking for one byte more: a file that grew or shrank
        # while read ends with another total, and the post-load identity check covers the rest.
        chunks, total = [], 0
        while total < info.st_size:
            chunk = os.read(fd, info.st_size + 1 - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as error:
        return "file-read", "%s: %s" % (error.strerror or "cannot read", name)
    finally:
        os.close(fd)
    if total != info.st_size:
        raise CorpusUnavailable("corpus-changed-during-load")
    return b"".join(chunks), stat_identity(info)


def _lstat_candidate(dir_fd: Optional[int], dir_path: str, name: str) -> Optional[os.stat_result]:
    """The candidate's own stat (symlinks not followed), or None when it cannot be taken."""
    try:
        if dir_fd is not None:
            return os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        return os.lstat(os.path.join(dir_path, name))
    except OSError:
        return None


def _list_candidates(canonical_dir: str, dir_fd: Optional[int]) -> List[str]:
    """Names of the regular files in the ADR dir that are named like records."""
    names = []
    try:
        with os.scandir(dir_fd if dir_fd is not None else canonical_dir) as entries:
            for entry in entries:
                if is_record_file_name(entry.name) and entry.is_file(follow_symlinks=False):
                    names.append(entry.name)
    except FileNotFoundError:
        raise CorpusUnavailable("dir-not-found")
    except OSError:
        raise CorpusUnavailable("dir-not-readable")
    return names


def _display_prefix(canonical_root: str, canonical_dir: str) -> str:
    """The repo-relative, '/'-separated ADR dir with a trailing '/' ('' when it is the root)."""
    relative = os.path.relpath(canonical_dir, canonical_root)
    return "" if relative == os.curdir else relative.replace(os.sep, "/") + "/"


def load_projection(config: "CorpusConfig", should_stop: Callable[[], bool] = lambda: False) -> "Projection":
    """Read the corpus as it is on disk now; reuse the parse of every file proven unchanged."""
    cache = config.cache
    cache.enter(should_stop)
    try:
        return _load_projection_entered(config, cache, should_stop)
    finally:
        cache.leave()


def open_directory(path: str) -> Optional[int]:
    if os.open not in os.supports_dir_fd or not hasattr(os, "O_DIRECTORY"):
        return None
    try:
        return os.open(path, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        raise CorpusUnavailable("dir-not-readable")


def _verified_roots(config: CorpusConfig) -> Tuple[str, str]:
    canonical_root, canonical_dir = resolve_canonical_roots(config.root, config.adr_dir)
    if config.expected_root is not None and canonical_root != config.expected_root:
        raise CorpusUnavailable("root-not-found")
    return canonical_root, canonical_dir


class _Load:
    """The state of one load: where it reads, what it found, and what it must re-check."""

    def __init__(self, cache: RecordCache, dir_fd: Optional[int], canonical_dir: str, prefix: str) -> None:
        self.cache = cache
        self.dir_fd, self.canonical_dir = dir_fd, canonical_dir  # where it reads
        self.prefix = prefix  # of every display path: the ADR folder, repo-relative
        self.started_ns = _wall_clock_ns()
        self.parsed: List[ParsedFile] = []
        self.pre_read_findings: List[Finding] = []
        self.checked: List[Tuple[str, Tuple[int, ...]]] = []
        self.recheck_upto = 0  # files checked before the latest read are checked again at the end
        self.memos: Dict[str, _Memo] = {}
        self.failed_keys: Set[Tuple[str, bytes]] = set()
        self.folder: Optional[Tuple[int, ...]] = None

    def take_all(self, names: List[str], should_stop: ShouldStop) -> None:
        """Account for every candidate: reuse a memo when proven unchanged, else read the file."""
        old, memos, prefix = self.cache.memos, self.memos, self.prefix
        parsed, checked = self.parsed, self.checked
        for name in names:
            if should_stop():
                raise CallCancelled()
            path = prefix + name
            if self.dir_fd is None and _folder_identity(self.canonical_dir) != self.folder:
                # No descriptor (Windows): every look goes through the path, so check it first.
                raise CorpusUnavailable("corpus-changed-during-load")
            memo = old.get(path)
            if memo is not None and memo.settled:
                info = _lstat_candidate(self.dir_fd, self.canonical_dir, name)
                if info is not None and stat_identity(info) == memo.identity:
                    memos[path] = memo
                    parsed.append(memo.parsed)
                    checked.append((name, memo.identity))
                    continue
            self._read(name, path, memo)

    def _read(self, name: str, path: str, memo: Optional[_Memo]) -> None:
        data, identity = _read_candidate(self.dir_fd, self.canonical_dir, name)
        if not isinstance(data, bytes):
            _read_outcome(data, identity, path, self.parsed, self.pre_read_findings)
        else:
            key = hashlib.sha256(data).digest()
            parsed = memo.parsed if memo is not None and memo.key == key else parse_record_file(path, data)
            if parsed.failure is None:
                self.memos[path] = _Memo(identity, projection_settled(identity, self.started_ns), key, parsed)
            else:
                self._engine_failed(path, key, parsed.failure)
            self.parsed.append(parsed)
            self.checked.append((name, identity))
        self.recheck_upto = len(self.checked)

    def _engine_failed(self, path: str, key: bytes, failure: str) -> None:
        """One stderr line per failing content; the finding is re-tried on every call."""
        self.failed_keys.add((path, key))
        if (path, key) not in self.cache.reported:
            diagnose("engine failure reading %s: %s" % (path, failure))

    def recheck(self) -> None:
        """Every file checked before the latest read must still be the one checked."""
        for name, identity in self.checked[:self.recheck_upto]:
            info = _lstat_candidate(self.dir_fd, self.canonical_dir, name)
            if info is None or not stat.S_ISREG(info.st_mode) or stat_identity(info) != identity:
                raise CorpusUnavailable("corpus-changed-during-load")

    def reused_everything(self) -> bool:
        return self.recheck_upto == 0 and not self.pre_read_findings


def _capped_prefix(fd: int) -> bytes:
    """The first MAX_SOURCE_BYTES bytes of an open file, cut after their last line end (LF or
    CR): never a part line, so a cut `---x` line cannot read as a closing fence."""
    chunks, total = [], 0
    while total < MAX_SOURCE_BYTES:
        chunk = os.read(fd, MAX_SOURCE_BYTES - total)
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    data = b"".join(chunks)
    return data[:max(data.rfind(b"\n"), data.rfind(b"\r")) + 1]


def _read_outcome(reason: str, detail: Any, path: str, parsed: List[ParsedFile],
                  pre_read: List[Finding]) -> None:
    """A candidate that was not read: a file-read finding among the parsed files, or a finding
    made before any read (record-stat-error, record-too-large)."""
    if reason == "file-read":
        parsed.append(ParsedFile(None, [{"rule": "file-read", "severity": "error", "message": detail,
                                          "path": path}]))
    else:
        rule = "record-stat-error" if reason == "stat-error" else "record-too-large"
        pre_read.append({"rule": rule, "severity": "error", "path": path, "message": FINDING_MESSAGES[rule]})


def _folder_identity(canonical_dir: str) -> Tuple[int, ...]:
    """(st_dev, st_ino) of the ADR folder's path itself: a link put in its place is not followed."""
    try:
        return stat_identity(os.lstat(canonical_dir))[:2]
    except OSError:
        raise CorpusUnavailable("corpus-changed-during-load")


def _load_projection_entered(config: CorpusConfig, cache: RecordCache, should_stop: ShouldStop) -> Projection:
    canonical_root, canonical_dir = _verified_roots(config)
    dir_fd = open_directory(canonical_dir)
    try:
        folder = _folder_identity(canonical_dir)
        if dir_fd is not None and stat_identity(os.fstat(dir_fd))[:2] != folder:
            raise CorpusUnavailable("corpus-changed-during-load")
        load = _Load(cache, dir_fd, canonical_dir, _display_prefix(canonical_root, canonical_dir))
        load.folder = folder
        if config.source == "madr":
            projection = _load_madr_projection(config, cache, should_stop, canonical_root,
                                               canonical_dir, dir_fd)
            if projection is not None:
                return projection
        names = _list_candidates(canonical_dir, dir_fd)
        # Every display path shares one prefix: the name decides. ASCII sorts alike either way.
        names.sort(key=None if all(map(str.isascii, names)) else utf16_key)
        load.take_all(names, should_stop)
        # Post-load revalidation: the same roots, and every file still the one we read.
        if _verified_roots(config) != (canonical_root, canonical_dir):
            raise CorpusUnavailable("corpus-changed-during-load")
        load.recheck()
    finally:
        if dir_fd is not None:
            os.close(dir_fd)
    cache.memos = load.memos
    cache.reported = load.failed_keys
    if load.reused_everything() and cache.last is not None and cache.last[0] == names:
        return cache.last[1]
    projection = _assemble(load.parsed, load.pre_read_findings, len(names))
    cache.last = (names, projection)
    return projection


def _assemble(parsed: List[ParsedFile], pre_read_findings: List[Finding], candidate_count: int) -> Projection:
    records = [entry.record for entry in parsed if entry.record is not None]
    findings = [finding for entry in parsed for finding in entry.findings]
    findings.extend(pre_read_findings)
    findings.extend(corpus_findings(records))
    records.sort(key=lambda record: (utf16_key(record.id), utf16_key(record.path)))
    return Projection(records, sort_findings(findings), candidate_count)


def corpus_findings(records: List[Record]) -> List[Finding]:
    """Findings about the corpus as a whole: import gaps, duplicate ids, dangling refs, conflicts."""
    findings: List[Finding] = []
    for record in records:
        fm = record.frontmatter
        if fm.get("provenance", {}).get("importedFrom") and fm["status"] == "accepted" and not fm["deciders"]:
            findings.append({"rule": "import-incomplete", "severity": "info",
                             "message": FINDING_MESSAGES["import-incomplete"], "path": record.path,
                             "id": record.id, "field": "deciders"})
    by_id: Dict[str, List[Record]] = {}
    for record in records:
        by_id.setdefault(record.id, []).append(record)
    for ident, duplicates in by_id.items():
        if len(duplicates) < 2:
            continue
        paths = ", ".join(sorted((record.path for record in duplicates), key=utf16_key))
        for record in duplicates:
            findings.append({"rule": "unique-id", "severity": "error",
                             "message": FINDING_MESSAGES["unique-id"].format(id=ident, paths=paths),
                             "path": record.path, "id": ident, "field": "id"})

    def dangling(record: Record, field: str, ref: str, severity: str) -> None:
        findings.append({"rule": "dangling-%s" % field, "severity": severity,
                         "message": FINDING_MESSAGES["dangling"].format(ref=ref, field=field),
                         "path": record.path, "id": record.id, "field": field})

    for record in records:
        fm = record.frontmatter
        for ref in fm["supersedes"]:
            if ref not in by_id:
                dangling(record, "supersedes", ref, "error")
        if fm.get("supersededBy") and fm["supersededBy"] not in by_id:
            dangling(record, "supersededBy", fm["supersededBy"], "error")
        for ref in fm["relatesTo"]:
            if ref not in by_id:
                dangling(record, "relatesTo", ref, "error")
        for ref in fm["conflictsWith"]:
            if ref not in by_id:
                dangling(record, "conflictsWith", ref, "warn")
            elif fm["status"] == "accepted":
                findings.append({"rule": "accepted-conflictsWith", "severity": "warn",
                                 "message": FINDING_MESSAGES["accepted-conflictsWith"].format(ref=ref),
                                 "path": record.path, "id": record.id, "field": "conflictsWith"})
    return findings


def start_background_warmup(config: CorpusConfig) -> threading.Thread:
    """Parse the corpus once in the background so the first question is answered from cache."""
    def warm() -> None:
        try:
            load_projection(config)
        except Exception:  # any failure is reported by the call that meets it, fresh
            pass
    thread = threading.Thread(target=warm, name="adrkit-warmup", daemon=True)
    thread.start()
    return thread


class CorpusConfig:
    """Where the corpus lives, as configured (flags, environment or defaults), and its cache.

    Each server instance builds its own config, so each owns its own RecordCache: two
    servers in one process never share or evict each other's parses.
    """

    __slots__ = ("root", "adr_dir", "expected_root", "cache", "source", "markers")

    def __init__(self, root: str, adr_dir: str = DEFAULT_ADR_DIR,
                 expected_root: Optional[str] = None, source: Optional[str] = None,
                 markers: bool = False) -> None:
        self.root = root
        self.adr_dir = adr_dir
        # True (--markers, ADR 0020): get_decision_context and its prompts also read the files'
        # `@adr` markers, at most their header window each.
        self.markers = markers
        # None: the folder holds adrkit records; "madr": read it as `migrate --from madr` leaves it.
        self.source = source
        # The canonical root seen at start-up; every call must find the same one.
        self.expected_root = expected_root
        self.cache = RecordCache()


# ---------------------------------------------------------------------------
# 6. Projection: `--from madr`, the corpus as `adr migrate --from madr` would leave it
# ---------------------------------------------------------------------------
#
# The reference's migrate reads every Markdown file under the ADR folder (subfolders included,
# symlinks never), gives each MADR or Nygard source an id that depends on the whole folder, and
# rewrites it with adrkit frontmatter. With `--from madr` a call sees the folder as that run
# would leave it, without writing: the walk below reads the candidates (the same containment
# and 64 KiB cap as every read), the Importer's door renders the migrated texts in memory, and
# the record files the server reads are those texts. A call reuses the last answer only when
# every candidate's stat proves it unchanged and settled (ADR 0010), since one new or edited
# file can change every other file's id.

# A folder being walked: its descriptor (None without dir_fd), path, subfolders below the ADR
# folder, and the (name, is a folder) entries still to visit.
_WalkFolder = Tuple[Optional[int], str, Tuple[str, ...], List[Tuple[str, bool]]]


class WalkFailed(Exception):
    """A folder under the ADR folder could not be listed: the reference then finds nothing."""


def walk_madr_candidates(path: str, visit: Callable[[Optional[int], str, Tuple[str, ...], str], None],
                         dir_fd: Optional[int] = None) -> List[str]:
    """Call visit(folder fd or None, folder path, subfolders, name) for every candidate under
    `path`, depth first, symlinks never followed; returns the names of the record files directly
    in `path` (regular files named like records: the id seed). WalkFailed when a folder cannot
    be listed or opened."""
    records: List[str] = []
    stack: List[_WalkFolder] = [(dir_fd, path, (), _walk_entries(dir_fd, path))]
    try:
        while stack:
            fd, folder, parts, entries = stack[-1]
            if not entries:
                stack.pop()
                if fd is not None and fd != dir_fd:
                    os.close(fd)
                continue
            name, is_dir = entries.pop()
            if is_dir:
                child_fd = _walk_open(fd, folder, name)
                child = os.path.join(folder, name)
                stack.append((child_fd, child, parts + (name,), _walk_entries(child_fd, child)))
                continue
            if not parts and is_record_file_name(name):
                records.append(name)
            if name.endswith(".md") and not is_conventional_name(name):
                visit(fd, folder, parts, name)
    except OSError as error:
        raise WalkFailed(str(error))
    finally:
        for fd, _, _, _ in stack:
            if fd is not None and fd != dir_fd:
                os.close(fd)
    return records


def _walk_entries(fd: Optional[int], folder: str) -> List[Tuple[str, bool]]:
    """(name, is a folder) of the folder's subfolders and regular files, symlinks left out."""
    found = []
    with os.scandir(fd if fd is not None else folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                found.append((entry.name, True))
            elif entry.is_file(follow_symlinks=False):
                found.append((entry.name, False))
    found.reverse()  # popped from the end: listing order
    return found


def _walk_open(fd: Optional[int], folder: str, name: str) -> Optional[int]:
    """A descriptor of the subfolder `name`, never through a symlink (None without dir_fd)."""
    if fd is None:
        return None
    flags = os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    return os.open(name, flags, dir_fd=fd)


def import_prefix(root: str, adr_dir: str) -> str:
    """The ADR folder as migrate's display paths spell it: relative to the root, resolved
    lexically like Node's path.resolve (not through symlinks), '/'-separated, '' for the root."""
    folder = os.path.normpath(os.path.join(root, adr_dir))
    relative = os.path.relpath(folder, root)
    return "" if relative == os.curdir else relative.replace(os.sep, "/") + "/"


class _MadrMemo(NamedTuple):
    """One candidate as the latest load read it: stat identity, whether settled, its outcome."""

    identity: Tuple[int, ...]
    settled: bool
    data: bytes


class _MadrLoad:
    """One `--from madr` load: the candidates read, each reused from the last load when its stat
    proves it unchanged, and what the run that would migrate them leaves on disk."""

    def __init__(self, cache: RecordCache, started_ns: int, should_stop: ShouldStop) -> None:
        self.cache, self.started_ns, self.should_stop = cache, started_ns, should_stop
        self.memos: Dict[Tuple[str, ...], _MadrMemo] = {}
        self.files: Dict[Tuple[str, ...], Any] = {}  # bytes, or (reason, detail)
        self.checked: List[Tuple[str, str, Tuple[int, ...]]] = []  # folder, name, identity
        self.recheck_upto = 0  # candidates checked before the latest read are checked again
        self.read_any = False  # False: every candidate was proven unchanged by its stat
        self.old = cache.memos

    def visit(self, fd: Optional[int], folder: str, parts: Tuple[str, ...], name: str) -> None:
        if self.should_stop():
            raise CallCancelled()
        key = parts + (name,) if parts else (name,)
        memo = self.old.get(key)
        if isinstance(memo, _MadrMemo) and memo.settled:
            info = _lstat_candidate(fd, folder, name)
            if info is not None and stat_identity(info) == memo.identity:
                self.memos[key] = memo
                self.files[key] = memo.data
                self.checked.append((folder, name, memo.identity))
                return
        self.read_any = True
        data, identity = _read_candidate(fd, folder, name, large_prefix=True)
        if isinstance(data, bytes):
            self.memos[key] = _MadrMemo(identity, projection_settled(identity, self.started_ns), data)
            self.checked.append((folder, name, identity))
            self.files[key] = data
        else:
            self.files[key] = (data, identity)
        self.recheck_upto = len(self.checked)

    def recheck(self) -> None:
        """Every candidate checked before the latest read must still be the one checked."""
        for folder, name, identity in self.checked[:self.recheck_upto]:
            try:
                info = os.lstat(os.path.join(folder, name))
            except OSError:
                raise CorpusUnavailable("corpus-changed-during-load")
            if stat_identity(info) != identity:
                raise CorpusUnavailable("corpus-changed-during-load")

    def migrated(self, prefix: str, record_names: List[str]) -> Dict[str, str]:
        """display path -> text, for each file the migrate run would rewrite (none at all when a
        candidate cannot be read: the reference's run then stops before writing anything)."""
        if any(not isinstance(data, bytes) and data[0] != "too-large" for data in self.files.values()):
            return {}
        # A file over the cap takes part through its capped prefix, which holds what decides its
        # outcome and id (fence, frontmatter, first heading) unless those lie past 64 KiB; the
        # text migrate would write for it is never served (the file stays `record-too-large`).
        files = [MadrImport.File(prefix + "/".join(key), key[-1], len(key) > 1,
                                 (data if isinstance(data, bytes) else data[1]).decode("utf-8", "replace"))
                 for key, data in self.files.items() if isinstance(data, bytes) or data[1] is not None]
        texts: Dict[str, str] = {}
        run = MadrImport.migrate(files, record_names, False, lambda file, name: False,
                                 lambda file, text, name: texts.__setitem__(file.path, text), self.cache.imports)
        if run.crashed is not None:
            diagnose("--from madr: the migrate run stops at a file it cannot convert (%s); "
                      "later files are read as they are" % run.crashed)
        return texts


def _load_madr_projection(config: CorpusConfig, cache: RecordCache, should_stop: ShouldStop,
                          canonical_root: str, canonical_dir: str,
                          dir_fd: Optional[int]) -> Optional[Projection]:
    """The `--from madr` load; None when a folder under the ADR folder cannot be listed, since
    the reference's migrate then finds nothing to do and the corpus reads as it is."""
    load = _MadrLoad(cache, _wall_clock_ns(), should_stop)
    try:
        names = walk_madr_candidates(canonical_dir, load.visit, dir_fd)
    except WalkFailed:
        return None
    names.sort(key=None if all(map(str.isascii, names)) else utf16_key)
    if _verified_roots(config) != (canonical_root, canonical_dir):
        raise CorpusUnavailable("corpus-changed-during-load")
    load.recheck()
    state = ("madr", frozenset(load.files), tuple(names))
    cache.memos = load.memos
    if not load.read_any and cache.last is not None and cache.last[0] == state:
        return cache.last[1]
    prefix = import_prefix(canonical_root, config.adr_dir)
    texts = load.migrated(prefix, names)
    parsed: List[ParsedFile] = []
    pre_read: List[Finding] = []
    parses: Dict[Tuple[str, Any], ParsedFile] = {}
    display = _display_prefix(canonical_root, canonical_dir)
    for name in names:
        data = load.files[(name,)]
        path = display + name
        if not isinstance(data, bytes):
            _read_outcome(data[0], data[1], path, parsed, pre_read)
            continue
        text = texts.get(prefix + name)
        key = (path, data if text is None else text)  # the bytes read, or the text migrate writes
        entry = cache.parses.get(key)
        if entry is None:
            source = data if text is None else JS.utf8(text)
            if len(source) > MAX_SOURCE_BYTES:
                _read_outcome("too-large", None, path, parsed, pre_read)
                continue
            entry = parse_record_file(path, source)
            if entry.failure is not None:
                diagnose("engine failure reading %s: %s" % (path, entry.failure))
        if entry.failure is None:
            parses[key] = entry
        parsed.append(entry)
    cache.parses = parses
    projection = _assemble(parsed, pre_read, len(names))
    cache.last = (state, projection)
    return projection


# ---------------------------------------------------------------------------
# 6. Projection: the corpus as the reference CLI's lintCorpus reads it (`lint`, `graph`, ...)
# ---------------------------------------------------------------------------
#
# The reference CLI reads the corpus otherwise than its server: no root, containment or size
# checks; display paths relative to the folder it runs in (normalizeDisplayPath); a path given on
# the command line read whatever it is (a symlink followed, a missing file a `file-read` finding,
# a folder read as an ADR folder); and the Markdown that discovery skips reported
# (`corpus-file-skipped`). Each file is parsed and validated by the Reader's door and the corpus
# findings are corpus_findings, as for the server. Door: cli_lint_corpus (lintCorpus with its
# `paths`); an ADR folder that cannot be listed raises its OSError (filename set), for the command
# to word as the reference does.

class CliCorpus(NamedTuple):
    """lintCorpus's result: files checked, findings (sorted), valid records (by id in code units,
    discovery order among equal ids)."""

    checked: int
    findings: List[Finding]
    records: List[Record]


def cli_resolve(cwd: str, path: str) -> str:
    """Node's path.resolve(cwd, path): absolute, `.` and `..` collapsed lexically."""
    return os.path.normpath(os.path.join(cwd, path))


def cli_display_path(path: str, cwd: str) -> str:
    """normalizeDisplayPath: relative to cwd, '/'-separated; the base name when it is cwd."""
    absolute = cli_resolve(cwd, path)
    if absolute.startswith(cwd + os.sep) and cwd == os.path.normpath(cwd):  # what relpath gives, cheaply
        relative = absolute[len(cwd) + 1:]
    else:
        try:
            relative = os.path.relpath(absolute, cwd)
        except ValueError:  # another drive (Windows): Node's relative() gives the absolute path
            relative = absolute
    return (os.path.basename(absolute) if relative == os.curdir else relative).replace(os.sep, "/")


def cli_entry_name(name: str) -> str:
    """A listed name as Node's readdir gives it: bytes that are not UTF-8 read as U+FFFD (a file
    so named is then not found under that name, as in the reference)."""
    if name.isascii() or not LONE_SURROGATE.search(name):
        return name
    return os.fsencode(name).decode("utf-8", "replace")


def cli_discover(folder: str, cwd: str) -> List[str]:
    """discoverAdrFiles: the regular files named like records directly in `folder` (absolute
    paths, by display path in code units); OSError when the folder cannot be listed."""
    with os.scandir(folder) as entries:
        names = [cli_entry_name(entry.name) for entry in entries if entry.is_file(follow_symlinks=False)]
    found = [os.path.join(folder, name) for name in names if is_record_file_name(name)]
    return sorted(found, key=lambda path: utf16_key(cli_display_path(path, cwd)))


def _cli_expand(paths: Sequence[str], folder: str, cwd: str) -> List[str]:
    """expandRecordInputs: the files a run checks, once each, by display path."""
    if not paths:
        return cli_discover(folder, cwd)
    expanded: List[str] = []
    for given in paths:
        absolute = cli_resolve(cwd, given)
        try:
            info = os.stat(absolute)
        except (OSError, ValueError):
            expanded.append(absolute)
            continue
        if stat.S_ISDIR(info.st_mode):
            try:
                expanded.extend(cli_discover(absolute, cwd))
            except OSError:  # then read as a file, which fails with the reference's message
                expanded.append(absolute)
        elif stat.S_ISREG(info.st_mode):
            expanded.append(absolute)
    return sorted(dict.fromkeys(expanded), key=lambda path: utf16_key(cli_display_path(path, cwd)))

CORPUS_SKIP_MAX_DEPTH = 8  # how deep lint looks for Markdown that discovery skips


def _cli_skipped(folder: str, depth: int, found: List[Tuple[str, str]]) -> None:
    """collectSkippedMarkdown: Markdown under `folder` that discovery does not read."""
    try:
        with os.scandir(folder) as listing:
            entries = list(listing)
    except OSError:
        return
    for entry in entries:
        name = cli_entry_name(entry.name)
        path = os.path.join(folder, name)
        if entry.is_dir(follow_symlinks=False):
            if not name.startswith(".") and depth < CORPUS_SKIP_MAX_DEPTH:
                _cli_skipped(path, depth + 1, found)
            continue
        if (not entry.is_file(follow_symlinks=False) or not name.endswith(".md")
                or name.startswith(".") or is_conventional_name(name)):
            continue
        if depth > 0:
            found.append((path, "nested"))
        elif not is_record_file_name(name):
            found.append((path, "filename"))

# What Node's readFile says of a folder it opened (the read fails, and names no path).
NODE_READ_DIRECTORY = "EISDIR: illegal operation on a directory, read"


def _cli_read(path: str, display: str) -> ParsedFile:
    """readFile + parseAdrFile + validateParsedAdr of one file: a ParsedFile."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        message = (NODE_READ_DIRECTORY if isinstance(error, IsADirectoryError)  # opened, then read
                   else node_error(error, "open", path))
        return ParsedFile(None, [{"rule": "file-read", "severity": "error", "message": message,
                                   "path": display}])
    parsed = parse_record_file(display, data)
    if parsed.failure is not None:
        diagnose("engine failure reading %s: %s" % (display, parsed.failure))
    return parsed

CORPUS_SKIPPED_MESSAGES = {
    "nested": "Markdown file is in a subdirectory of the corpus, and discovery reads only the top level "
              "of the corpus directory; move it to the corpus root as <id>-<slug>.md for it to be linted "
              "and enforced",
    "filename": "Markdown file in the corpus directory is not a discoverable ADR record and was skipped; "
                "rename it to <id>-<slug>.md (four or more leading digits) for it to be linted and enforced",
}


def cli_lint_corpus(cwd: str, adr_dir: str, paths: Sequence[str] = ()) -> CliCorpus:
    """lintCorpus({dir, paths, cwd}) of @adrkit/core 0.8.0: every file it checks, its findings
    and the valid records; OSError when the ADR folder (or a folder in `paths`) cannot be listed."""
    files = _cli_expand(list(paths), cli_resolve(cwd, adr_dir), cwd)
    records: List[Record] = []
    findings: List[Finding] = []
    for path in files:
        parsed = _cli_read(path, cli_display_path(path, cwd))
        findings.extend(parsed.findings)
        if parsed.record is not None:
            records.append(parsed.record)
    if paths:
        scanned = sorted({cli_resolve(cwd, given) for given in paths if os.path.isdir(cli_resolve(cwd, given))},
                         key=lambda path: utf16_key(cli_display_path(path, cwd)))
    else:
        scanned = [cli_resolve(cwd, adr_dir)]
    checked = set(files)
    for folder in scanned:
        found: List[Tuple[str, str]] = []
        _cli_skipped(folder, 0, found)
        for path, reason in sorted(found, key=lambda item: utf16_key(cli_display_path(item[0], cwd))):
            if path not in checked:
                findings.append({"rule": "corpus-file-skipped", "severity": "warn",
                                 "message": CORPUS_SKIPPED_MESSAGES[reason], "path": cli_display_path(path, cwd)})
    findings.extend(corpus_findings(records))
    records.sort(key=lambda record: utf16_key(record.id))
    return CliCorpus(len(files), sort_findings(findings), records)


# ---------------------------------------------------------------------------
# 7. Importer: MADR and Nygard records, as the reference's `adr migrate --from madr` writes them
# ---------------------------------------------------------------------------
#
# A port of @adrkit/core 0.8.0's importer (packages/core/src/import/: madr.ts, status.ts,
# classify.ts, fingerprint.ts, merge.ts, index.ts; ids and slugs from scaffold/new.ts), decision
# for decision: which files are records, their title, status, date and deciders read from MADR 2
# header bullets, MADR 3/4 frontmatter or Nygard `## Status` sections, the id each is given, the
# findings, and the exact text of every migrated file. It reads and writes nothing itself: its
# callers hand it the candidate files' texts, and it hands back, file by file and in the
# reference's order, the text to write and the name to move to.
#
# Door: MadrImport.migrate (one run of `adr migrate --from madr`), used by the Commands'
# `migrate` (which writes) and by the Projection's `--from madr` read-through (which keeps the
# texts in memory). The JavaScript regular expressions of the reference are spelled out below for
# Python's `re`: `^`/`$` with the m flag see all four JS line terminators, `.` stops at them, and
# `\s` is JavaScript's whitespace set.

class _MadrPatterns:
    """The reference's regular expressions, compiled on first use (the JS text engine's door,
    which gives JavaScript's whitespace set and flagless regexes, is defined further down)."""

    def __init__(self) -> None:
        line_end = "\n\r\u2028\u2029"
        space = "[%s]" % re.escape(JS.WHITESPACE)
        anything = "[^%s]" % line_end
        start = "(?:\\A|(?<=[%s]))" % line_end      # `^` under the m flag
        stop = "(?=[%s]|\\Z)" % line_end            # `$` under the m flag
        folded = re.IGNORECASE | re.ASCII            # the i flag without u: ASCII folding here
        # extractMadrTitle: /^#\s+(.+?)\s*#*\s*$/m
        self.title = re.compile("%s#%s+(%s+?)%s*#*%s*%s" % (start, space, anything, space, space, stop))
        # headerRegion: /^##[^\n]*$/m (header bullets are read only above the first `##` heading)
        self.first_section = re.compile("%s##" % start)
        # headerBulletValue: /^[ \t]*(?:[*+-][ \t]+)?\*{0,2}_{0,2}FIELD_{0,2}\*{0,2}[ \t]*:[ \t]*(.+)$/im
        self.bullet = {field: re.compile(
            "%s[ \\t]*(?:[*+\\-][ \\t]+)?\\*{0,2}_{0,2}%s_{0,2}\\*{0,2}[ \\t]*:[ \\t]*(%s+)%s"
            % (start, field, anything, stop), folded) for field in _MADR_FIELDS}
        # sectionValue: /^#{2,6}[ \t]+FIELD[ \t]*#*[ \t]*$/im, then the first non-empty line below.
        # Spelled to begin with the literal `##` and without the `^` (its caller checks the line
        # start), so that `re` skips to each `##` instead of trying the pattern at every position
        # of a long body; the i flag on the field name alone folds what the whole did.
        self.section = {field: re.compile("##[#]{0,4}[ \\t]+(?i:%s)[ \\t]*#*[ \\t]*%s" % (field, stop), re.ASCII)
                        for field in _MADR_FIELDS}
        # parseDeciders: value.split(/[,;]|\s+and\s+/)
        self.decider_split = re.compile("[,;]|%s+and%s+" % (space, space))
        # mapMadrStatus: /^superse(?:ded|des)\s+by\b/
        self.superseded_by = re.compile("superse(?:ded|des)%s+by\\b" % space, re.ASCII)
        self.identity = JS.regex(IDENTITY_SOURCE)
        self.id = JS.regex(ID_SOURCE)
        self.schema_version = JS.regex(SCHEMA_VERSION_SOURCE)


@functools.lru_cache(maxsize=None)
def _madr_patterns() -> _MadrPatterns:
    return _MadrPatterns()


_MADR_FIELDS = ("status", "date", "deciders")
_JS_LINE_ENDS = "\n\r\u2028\u2029"  # where `^` and `$` match under the m flag
_ASCII_LOWER = {code: code + 32 for code in range(ord("A"), ord("Z") + 1)}  # the i flag's folding here
_MADR_ANY_HEADING = re.compile("#{1,6}[ \\t]")
# cleanFieldValue's passes
_MADR_STRONG = re.compile(r"\*\*|__")
_MADR_LINK = re.compile(r"\[([^\[\]]*)\]\([^()]*\)")
_MADR_BRACKETS = re.compile(r"\A[\[<]+|[\]>]+\Z")
_MADR_TRAILING_STOP = re.compile(r"[.,;]+\Z")
_MADR_NUMBER = re.compile(r"\b([0-9]{4,})\b", re.ASCII)
_MADR_FILE_NUMBER = re.compile(r"([0-9]{4,})-", re.ASCII)     # fileNameId
_MADR_LEADING_NUMBER = re.compile(r"([0-9]+)-", re.ASCII)     # nextSequentialId
_MADR_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})\Z", re.ASCII)
_MADR_SLUG_RUN = re.compile(r"[^a-z0-9]+")

# merge.ts: the keys copied from a source's own frontmatter, the fallbacks of the required lists
# and enums, the optional keys dropped when invalid, and the order the frontmatter is written in.
_MADR_COPY_KEYS = ("created", "deciders", "consulted", "informed", "tags", "scope", "domain",
                   "reversibility", "blastRadius", "supersedes", "supersededBy", "relatesTo",
                   "conflictsWith", "affects", "assertions", "review", "evaluation", "externalRefs",
                   "complianceControls", "reviewBy")
_MADR_FALLBACKS: Tuple[Tuple[str, Any], ...] = (
    ("deciders", []), ("consulted", []), ("informed", []), ("tags", []), ("scope", "component"),
    ("reversibility", "unknown"), ("blastRadius", "component"), ("supersedes", []),
    ("relatesTo", []), ("conflictsWith", []), ("affects", []), ("assertions", []),
    ("externalRefs", []), ("complianceControls", []))
_MADR_FALLBACK_KEYS = frozenset(key for key, _ in _MADR_FALLBACKS)
_MADR_REMOVABLE = frozenset(("created", "domain", "supersededBy", "review", "evaluation", "reviewBy"))
_MADR_ORDER = ("schemaVersion", "id", "title", "status", "date", "created", "deciders", "consulted",
               "informed", "tags", "scope", "domain", "reversibility", "blastRadius", "supersedes",
               "supersededBy", "relatesTo", "conflictsWith", "affects", "assertions", "provenance",
               "review", "evaluation", "externalRefs", "complianceControls", "reviewBy")
_MADR_AUTHORS = ("human", "agent", "agent-drafted")
_MADR_MERGE_ATTEMPTS = 20
_NOT_KEPT = object()  # what an _ImportMemo answers for what it does not hold


class _MadrCrash(Exception):
    """The reference's run stops here with an uncaught error: `message` is what it prints."""

    def __init__(self, message: str) -> None:
        Exception.__init__(self, message)
        self.message = message


class _MadrSkip(Exception):
    """mergeMadr's MadrMergeError: the file is skipped with these findings."""

    def __init__(self, findings: List[Finding]) -> None:
        Exception.__init__(self, "skipped")
        self.findings = findings


class _MadrFile(NamedTuple):
    """One candidate handed to the importer: where it is and what it holds.

    path    its display path, '/'-separated and relative to the folder migrate runs in
    name    its file name
    nested  True when it lies below the ADR folder rather than in it
    text    its bytes decoded as UTF-8, invalid sequences replaced (Node's readFile 'utf8')
    """

    path: str
    name: str
    nested: bool
    text: str


class _Source:
    """readMadrFile's answer for a file that reads as MADR."""

    __slots__ = ("file", "frontmatter", "body", "title", "fields", "fingerprint", "raw_id")

    def __init__(self, file: _MadrFile, frontmatter: Dict[str, Any], body: str, title: Optional[str],
                 fields: Dict[str, Any]) -> None:
        self.file, self.frontmatter, self.body, self.title = file, frontmatter, body, title
        self.fields = fields
        self.fingerprint = _madr_fingerprint(body)
        raw_id = frontmatter.get("id")
        self.raw_id = raw_id if isinstance(raw_id, str) and _madr_patterns().id(raw_id) else None


def _js_slice(text: str, count: int) -> str:
    """`text.slice(0, count)` in UTF-16 code units (an astral character may be cut in half)."""
    units = JS.code_units(text)
    if len(units) <= count:
        return text
    return units[:count].encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _madr_clean(value: str) -> str:
    """cleanFieldValue: the Markdown around a field value removed, the words kept."""
    value = _js_slice(value, 512).replace("`", "")
    value = _MADR_STRONG.sub("", value)
    value = _MADR_LINK.sub(lambda match: match.group(1), value)
    value = _MADR_BRACKETS.sub("", value)
    return JS.trim(_MADR_TRAILING_STOP.sub("", value, count=1))


def _madr_bullet(region: str, field: str) -> Optional[str]:
    match = _madr_patterns().bullet[field].search(region)
    value = _madr_clean(match.group(1)) if match else ""
    return value or None


def _madr_section(body: str, field: str) -> Optional[str]:
    pattern, position = _madr_patterns().section[field], 0
    while True:  # the first match that starts a line (`^` under the m flag)
        heading = pattern.search(body, position)
        if heading is None:
            return None
        if heading.start() == 0 or body[heading.start() - 1] in _JS_LINE_ENDS:
            break
        position = heading.start() + 1
    for line in body[heading.end():].split("\n"):
        if _MADR_ANY_HEADING.match(line):
            break
        value = _madr_clean(line)
        if value:
            return value
    return None


def _madr_body_fields(body: str) -> Dict[str, Any]:
    """extractMadrBodyFields: status, date and deciders from header bullets or sections."""
    patterns = _madr_patterns()
    first_section = patterns.first_section.search(body)
    region = body if first_section is None else body[:first_section.start()]
    folded = body.translate(_ASCII_LOWER)  # both patterns need the field's name: look for it first
    found: Dict[str, Optional[str]] = {}
    for field in _MADR_FIELDS:
        value = _madr_bullet(region, field) if field in folded else None
        found[field] = value if value is not None or field not in folded else _madr_section(body, field)
    fields: Dict[str, Any] = {key: found[key] for key in ("status", "date") if found[key] is not None}
    identities: List[str] = []
    unmapped: List[str] = []
    for entry in patterns.decider_split.split(found["deciders"] or ""):
        entry = JS.trim(entry)
        if entry:
            (identities if patterns.identity(entry) else unmapped).append(entry)
    if identities:
        fields["deciders"] = list(dict.fromkeys(identities))
    if unmapped:
        fields["decidersUnmapped"] = list(dict.fromkeys(unmapped))
    return fields


def _madr_title(frontmatter: Dict[str, Any], body: str) -> Optional[str]:
    """extractMadrTitle: a non-blank frontmatter title, else the first `# ` heading."""
    title = frontmatter.get("title")
    if isinstance(title, str) and JS.trim(title):
        return JS.trim(title)
    heading = _madr_patterns().title.search(body)
    return JS.trim(heading.group(1)) if heading else None


def _madr_fingerprint(body: str) -> str:
    """fingerprintSourceBody: SHA-256 of the body with its line ends normalised."""
    text = body.replace("\r\n", "\n").replace("\r", "\n").rstrip("\n") + "\n"
    return hashlib.sha256(JS.utf8(text)).hexdigest()


def _madr_read(memo: _ImportMemo, file: _MadrFile) -> Union[_Source, str]:
    """readMadrFile: a _Source, or the reason the file is not MADR (a string). An engine that
    fails unexpectedly makes the file not MADR, with the failure as the reason and on stderr
    (and it is not kept in the memo, so the next run tries again)."""
    found = memo.take("reads", file)
    if found is _NOT_KEPT:
        try:
            found = _madr_read_text(file)
        except Exception as error:  # a bug or a resource limit, not the file's fault
            return _madr_engine_failure(file, error)
        memo.keep("reads", file, found)
    return found


def _madr_engine_failure(file: _MadrFile, error: BaseException) -> str:
    failure = "%s: %s" % (type(error).__name__, error)
    diagnose("engine failure importing %s: %s" % (file.path, failure))
    return failure

IMPORT_EPOCH_DATE = "1970-01-01"      # the date of a source that declares none

IMPORT_MESSAGES = {
    "no-title": "File has no leading YAML frontmatter or top-level title",
    "no-usable-title": "MADR source is missing a usable title",
    "status-unrecognized": 'MADR status "{status}" is not recognized; using "proposed"',
    "status-missing": 'MADR status is missing; using "proposed"',
    "date-missing": 'MADR source declares no date; using "%s" as a placeholder \u2014 backfill the '
                    'real decision date' % IMPORT_EPOCH_DATE,
    "deciders-unmapped": "MADR source declares deciders that are not valid identities and were not "
                         "imported: {listed} \u2014 rewrite them as @handle, team:slug, or an email address",
    "no-valid-frontmatter": "Unable to produce valid frontmatter after removing invalid optional fields",
    "undiscoverable": "Migrated record is not discoverable: {reason}. Until it is, lint, check, "
                      "explain, graph, and queue will skip it",
    "undiscoverable-name": "its filename does not match <id>-<slug>.md (four or more leading digits) "
                           "\u2014 re-run with --rename, or rename it by hand",
    "undiscoverable-nested": "it is in a subdirectory of the corpus, and discovery reads only the top "
                             "level of the corpus directory \u2014 move it up, or point --dir at its "
                             "directory",
    # What the reference prints when `new Date(...)` of a date like 2024-13-01 throws (Bun's
    # wording; Node says "Invalid time value"), after which its run stops.
    "invalid-date": "Invalid Date",
    # Past 2**53 the reference's id counter stands still and its run never ends; ours stops here.
    "ids-exhausted": "cannot allocate an id after {id}: the next number is beyond what a "
                     "JavaScript number counts exactly",
}


def _madr_read_text(file: _MadrFile) -> Union[_Source, str]:
    text = file.text
    first_end = text.find("\n")
    first = text if first_end == -1 else text[:first_end]
    if (first[:-1] if first.endswith("\r") else first) == "---":
        try:
            yaml_text, body = split_frontmatter(text)
            data = FrontmatterYaml.load(yaml_text)
        except FenceError as error:
            return str(error)
        except FrontmatterYaml.Error as error:
            return error.message if error.stage == "parse" else "%s: %s" % (error.code, error.message)
        frontmatter = data if isinstance(data, dict) else {}
        return _Source(file, frontmatter, body, _madr_title(frontmatter, body), _madr_body_fields(body))
    title = _madr_title({}, text)
    if title is None:
        return IMPORT_MESSAGES["no-title"]
    return _Source(file, {}, text, title, _madr_body_fields(text))


def _madr_record(file: _MadrFile) -> Optional[Tuple[Dict[str, Any], str]]:
    """existingRecordsFromFiles: (frontmatter, body) when the file already is a valid record."""
    try:
        yaml_text, body = split_frontmatter(file.text)
        frontmatter, issues = validate_frontmatter(FrontmatterYaml.load(yaml_text))
    except (FenceError, FrontmatterYaml.Error):
        return None
    except Exception as error:  # the reference's loader is best-effort too; ours says so
        _madr_engine_failure(file, error)
        return None
    return None if frontmatter is None else (frontmatter, body)  # None: issues


def _import_finding(rule: str, path: str, message: str, ident: Optional[str] = None,
                    field: Optional[str] = None, severity: str = "warn") -> Finding:
    finding: Finding = {"rule": rule, "severity": severity, "message": message, "path": path}
    if ident is not None:
        finding["id"] = ident
    if field is not None:
        finding["field"] = field
    return finding


def _madr_status(value: Any, path: str, ident: str,
                 resolve_ref: Callable[[str], Optional[str]]) -> Tuple[str, Optional[str], List[Finding]]:
    """mapMadrStatus: (status, supersededBy or None, findings)."""
    raw = JS.trim(value) if isinstance(value, str) else ""
    normalized = raw.lower()
    if normalized in STATUSES:
        return normalized, None, []
    if raw and _madr_patterns().superseded_by.match(normalized):
        number = _MADR_NUMBER.search(normalized)
        resolved = resolve_ref(number.group(1)) if number else None
        if resolved is not None and resolved != ident:
            return "superseded", resolved, []
    message = (IMPORT_MESSAGES["status-unrecognized"].format(status=raw) if raw
               else IMPORT_MESSAGES["status-missing"])
    return "proposed", None, [_import_finding("import-status-unrecognized", path, message, ident, "status")]


_DAYS_IN_MONTH = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _madr_date(value: Any) -> Optional[str]:
    """dateFrom: a real YYYY-MM-DD date, else None; _MadrCrash where the reference's Date throws."""
    if getattr(value, "js_class", None) == "Date":
        return value.iso[:10] if value.iso is not None else None
    if not isinstance(value, str):
        return None
    text = JS.trim(value)
    match = _MADR_DATE.match(text)
    if match is None:
        return None
    year, month, day = (int(part) for part in match.groups())
    if not (1 <= month <= 12 and 1 <= day <= 31):
        # `new Date("YYYY-13-01T00:00:00.000Z").toISOString()` throws a RangeError.
        raise _MadrCrash(IMPORT_MESSAGES["invalid-date"])
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    # A day past the month's end rolls into the next month, which no longer reads the same.
    return text if day <= _DAYS_IN_MONTH[month - 1] + (month == 2 and leap) else None


def _madr_provenance(raw: Dict[str, Any], source_ref: str, fingerprint: str) -> Dict[str, Any]:
    """provenanceFrom: the source's provenance with an author and this import's origin."""
    given = raw.get("provenance")
    provenance = dict(given) if isinstance(given, dict) else {}
    if provenance.get("authoredBy") not in _MADR_AUTHORS:
        provenance["authoredBy"] = "human"
    origin = {"sourceKind": "madr", "sourceRef": source_ref, "fingerprint": fingerprint}
    earlier = provenance.get("importedFrom")
    if isinstance(earlier, dict) and isinstance(earlier.get("importedAt"), str):
        origin["importedAt"] = earlier["importedAt"]
    provenance["importedFrom"] = origin
    return provenance


def _madr_candidate(source: _Source, ident: str, source_ref: str, resolve_ref: Callable[[str], Optional[str]],
                    findings: List[Finding]) -> Dict[str, Any]:
    """initialCandidate: the frontmatter mergeMadr starts from, before validation."""
    raw, fields, path = source.frontmatter, source.fields, source.file.path
    ident = source.raw_id or ident
    title = source.title
    if not title or not 3 <= utf16_len(title) <= 120:
        raise _MadrSkip([_import_finding("import-not-madr", path, IMPORT_MESSAGES["no-usable-title"],
                                         ident, "title")])
    status_value = raw.get("status")
    status, superseded_by, status_findings = _madr_status(
        fields.get("status") if status_value is None else status_value, path, ident, resolve_ref)
    findings.extend(status_findings)
    candidate = {key: raw[key] for key in _MADR_COPY_KEYS if key in raw}
    schema_version = raw.get("schemaVersion")
    candidate["schemaVersion"] = (schema_version if isinstance(schema_version, str)
                                  and _madr_patterns().schema_version(schema_version)
                                  else ADR_SCHEMA_VERSION)
    candidate.update(id=ident, title=title, status=status)
    date = _madr_date(raw.get("date"))
    date = date if date is not None else _madr_date(raw.get("created"))
    date = date if date is not None else _madr_date(fields.get("date"))
    if date is None:
        findings.append(_import_finding("import-date-missing", path, IMPORT_MESSAGES["date-missing"],
                                        ident, "date"))
    candidate["date"] = date if date is not None else IMPORT_EPOCH_DATE
    if superseded_by is not None and "supersededBy" not in candidate:
        candidate["supersededBy"] = superseded_by
    if not isinstance(candidate.get("deciders"), list):
        if "deciders" in fields:
            candidate["deciders"] = list(fields["deciders"])
        if "decidersUnmapped" in fields:
            listed = ", ".join('"%s"' % entry for entry in fields["decidersUnmapped"])
            findings.append(_import_finding("import-deciders-unmapped", path,
                                            IMPORT_MESSAGES["deciders-unmapped"].format(listed=listed),
                                            ident, "deciders"))
    for key, fallback in _MADR_FALLBACKS:
        if candidate.get(key) is None:
            candidate[key] = list(fallback) if isinstance(fallback, list) else fallback
    candidate["provenance"] = _madr_provenance(raw, source_ref, source.fingerprint)
    return candidate


def _madr_validated(candidate: Dict[str, Any], path: str) -> Dict[str, Any]:
    """safeParseCandidate: drop or reset what fails validation until the frontmatter is valid."""
    working = dict(candidate)
    for _ in range(_MADR_MERGE_ATTEMPTS):
        frontmatter, issues = schema_issues(working)
        if frontmatter is not None:  # no issues
            return frontmatter
        changed = False
        for issue_path, _message in issues:
            top = issue_path[0] if issue_path else None
            if not isinstance(top, str):
                continue
            if top in _MADR_FALLBACK_KEYS:
                fallback = dict(_MADR_FALLBACKS)[top]
                working[top] = list(fallback) if isinstance(fallback, list) else fallback
                changed = True
            elif top in _MADR_REMOVABLE:
                working.pop(top, None)
                changed = True
            elif top == "provenance":
                working["provenance"] = candidate["provenance"]
                changed = True
        if not changed:
            ident = working.get("id") if isinstance(working.get("id"), str) else None
            raise _MadrSkip([_import_finding(
                "import-not-madr", path, message, ident,
                ".".join(str(part) for part in issue_path) if issue_path else "frontmatter")
                for issue_path, message in issues])
    ident = working.get("id") if isinstance(working.get("id"), str) else None
    raise _MadrSkip([_import_finding("import-not-madr", path, IMPORT_MESSAGES["no-valid-frontmatter"],
                                     ident, "frontmatter")])


def _madr_ordered(frontmatter: Dict[str, Any]) -> Dict[str, Any]:
    """orderedFrontmatter: the keys in the written order, then any others sorted by code unit."""
    output = {key: frontmatter[key] for key in _MADR_ORDER if key in frontmatter}
    for key in sorted(frontmatter, key=utf16_key):
        output.setdefault(key, frontmatter[key])
    provenance = frontmatter.get("provenance")
    if provenance is not None:
        ordered = {key: provenance[key] for key in ("authoredBy", "agent", "ratifiedBy", "sourceArtifact")
                   if key in provenance}
        origin = provenance.get("importedFrom")
        if origin is not None:
            ordered["importedFrom"] = {key: origin[key] for key in ("sourceKind", "sourceRef", "fingerprint")}
            if origin.get("importedAt"):
                ordered["importedFrom"]["importedAt"] = origin["importedAt"]
        output["provenance"] = ordered
    return output


def _madr_render(frontmatter: Dict[str, Any], body: str) -> str:
    """renderMigratedContent: the frontmatter as yaml 2.9.0 writes it, then the body unchanged."""
    text = FrontmatterYaml.stringify(_madr_ordered(frontmatter)).rstrip(JS.WHITESPACE)
    return "---\n%s\n---\n%s" % (text, body)


def _madr_slug(title: str) -> Optional[str]:
    """slugifyTitle, or None where it throws (no ASCII letter or digit)."""
    text = unicodedata.normalize("NFKD", title)
    text = "".join(char for char in text if not "\u0300" <= char <= "\u036f").lower()
    slug = _MADR_SLUG_RUN.sub("-", text).strip("-")
    if not slug:
        return None
    return _js_slice(slug, 80).rstrip("-")


def _madr_target_name(ident: str, title: Optional[str]) -> str:
    """discoverableFileName: `<id>-<slug>.md`, `<id>-record.md` when the title gives no slug."""
    slug = _madr_slug(title) if title else None
    return "%s-%s.md" % (ident, slug or "record")


class _Migration:
    """What one run reports: results, divergence and findings, in the reference's order.

    `crashed` is the message of the uncaught error that stopped the run (None when it ran to
    the end); the files committed before it keep their new text, as the reference's do.
    """

    __slots__ = ("results", "divergence", "findings", "crashed", "memo")

    def __init__(self, memo: _ImportMemo) -> None:
        self.memo: _ImportMemo = memo
        self.results: List[Dict[str, Any]] = []
        self.divergence: List[Dict[str, Any]] = []
        self.findings: List[Finding] = []
        self.crashed: Optional[str] = None


def _madr_seed(record_names: Iterable[str]) -> str:
    """nextSequentialId over the ADR folder's own record files: one past the highest number."""
    highest = 0.0
    for name in record_names:
        match = _MADR_LEADING_NUMBER.match(name)
        if match:
            highest = max(highest, float(match.group(1)))
    return JS.number_text(highest + 1).rjust(4, "0")


class _Allocator:
    """createIdAllocator: an updated record keeps its id, then the source's own id, then the
    file name's number while unused, then the next free number from the seed."""

    def __init__(self, seed: str, used: Iterable[str]) -> None:
        self.used = set(used)
        self.next = float(seed) if seed.isdigit() and seed.isascii() else 1.0

    def allocate(self, source: _Source, record_id: Optional[str]) -> str:
        if record_id is not None:
            return record_id
        if source.raw_id is not None:
            self.used.add(source.raw_id)
            return source.raw_id
        number = _MADR_FILE_NUMBER.match(source.file.name)
        if number and number.group(1) not in self.used:
            self.used.add(number.group(1))
            return number.group(1)
        while True:
            ident = JS.number_text(self.next).rjust(4, "0")
            following = self.next + 1
            if ident not in self.used:
                self.next = following
                self.used.add(ident)
                return ident
            if following == self.next:  # past 2**53 the count stands still: the reference spins
                raise _MadrCrash(IMPORT_MESSAGES["ids-exhausted"].format(id=ident))
            self.next = following


def _madr_existing(files: Sequence[_MadrFile], memo: _ImportMemo) -> List[Tuple[str, str, Dict[str, Any]]]:
    """existingRecordsFromFiles: (id, path, frontmatter) of every candidate already a valid record,
    in id order (localeCompare, stable)."""
    records = []
    for file in files:
        found = memo.take("records", file)
        parsed = memo.keep("records", file, _madr_record(file)) if found is _NOT_KEPT else found
        if parsed is not None:
            records.append((parsed[0]["id"], file.path, parsed[0]))
    return sorted(records, key=lambda record: memo.collation_key(record[0]))


def _madr_buckets(sources: List[_Source],
                  records: List[Tuple[str, str, Dict[str, Any]]]) -> Dict[str, Tuple[str, Optional[str]]]:
    """classifyReimport, as the CLI runs it (no edit detector, so never `diverged`):
    path -> (bucket, id of the record that came from it)."""
    by_ref: Dict[str, Tuple[str, Dict[str, Any]]] = {}
    for ident, _path, frontmatter in records:
        origin = frontmatter.get("provenance", {}).get("importedFrom")
        if origin and origin["sourceKind"] == "madr":
            by_ref.setdefault(origin["sourceRef"], (ident, origin))
    buckets: Dict[str, Tuple[str, Optional[str]]] = {}
    for source in sources:
        found = by_ref.get(source.file.path)
        if found is None:
            buckets[source.file.path] = ("new", None)
        else:
            same = found[1]["fingerprint"] == source.fingerprint
            buckets[source.file.path] = ("unchanged" if same else "updated", found[0])
    return buckets


def _madr_incomplete(records: List[Tuple[Dict[str, Any], str]]) -> List[Finding]:
    """validateImportIncomplete over (frontmatter, path) pairs, each (id, path) once."""
    findings, seen = [], set()
    for frontmatter, path in records:
        key = (frontmatter["id"], path)
        if key in seen:
            continue
        seen.add(key)
        if (frontmatter.get("provenance", {}).get("importedFrom") and frontmatter["status"] == "accepted"
                and not frontmatter["deciders"]):
            findings.append(_import_finding("import-incomplete", path, FINDING_MESSAGES["import-incomplete"],
                                            frontmatter["id"], "deciders", "info"))
    return findings


class _ImportMemo:
    """The per-file work of the latest run, for a caller that runs the import again and again
    over mostly unchanged files (the `--from madr` read-through). An entry is keyed by all it
    depends on: a read or a record check by the file (path, name, place, text); a merge also by
    the id the run gave the file and the path it ends at, and it holds the answers the run's
    superseded-by resolver gave it, so that it is used again only while they are the same. Only
    the latest run's entries are kept, and an engine failure is never kept."""

    __slots__ = ("old", "new")
    _TABLES = ("reads", "records", "merges", "keys")

    def __init__(self) -> None:
        self.old: Dict[str, Dict[Any, Any]] = {table: {} for table in self._TABLES}
        self.new: Dict[str, Dict[Any, Any]] = {table: {} for table in self._TABLES}

    def begin(self) -> None:
        self.new = {table: {} for table in self._TABLES}

    def end(self) -> None:
        """The run is over: what it used is what the next run may use."""
        self.old = self.new

    def take(self, table: str, key: Any) -> Any:
        """The latest run's entry (kept for this run too), or _NOT_KEPT."""
        value = self.old[table].get(key, _NOT_KEPT)
        if value is not _NOT_KEPT:
            self.new[table][key] = value
        return value

    def keep(self, table: str, key: Any, value: Any) -> Any:
        self.new[table][key] = value
        return value

    def collation_key(self, text: str) -> Any:
        """LocaleCollation.key(text), worked out once per text."""
        found = self.take("keys", text)
        return self.keep("keys", text, LocaleCollation.key(text)) if found is _NOT_KEPT else found


def _madr_merge(memo: _ImportMemo, source: _Source, ident: str, final_path: str,
                resolve_ref: Callable[[str], Optional[str]]) -> Tuple[Any, ...]:
    """mergeMadr, through the memo: ("ok", findings, frontmatter, text), ("skip", findings), or
    ("failed", error) when the YAML writer failed (never kept); _MadrCrash where the reference's
    run stops."""
    key = (source.file, ident, final_path)
    found = memo.take("merges", key)
    if found is not _NOT_KEPT and all(resolve_ref(ref) == answer for ref, answer in found[0]):
        return found[1]
    asked: List[Tuple[str, Optional[str]]] = []

    def resolve(ref: str) -> Optional[str]:
        answer = resolve_ref(ref)
        asked.append((ref, answer))
        return answer
    findings: List[Finding] = []
    try:
        candidate = _madr_candidate(source, ident, final_path, resolve, findings)
        frontmatter = _madr_validated(candidate, source.file.path)
    except _MadrSkip as skip:
        outcome: Tuple[Any, ...] = ("skip", skip.findings)
    else:
        try:
            outcome = ("ok", findings, frontmatter, _madr_render(frontmatter, source.body))
        except Exception as error:  # a bug or a resource limit of the writer, not the file's fault
            return ("failed", error)
    memo.keep("merges", key, (tuple(asked), outcome))
    return outcome


class MadrImport:
    """The importer's door: `migrate`, one run of the reference's `adr migrate --from madr`."""

    __slots__ = ()
    File = _MadrFile
    Memo = _ImportMemo

    @staticmethod
    def migrate(files: Sequence[_MadrFile], record_names: Iterable[str], rename: bool,
                exists: Callable[[_MadrFile, str], bool],
                commit: Callable[[_MadrFile, str, Optional[str]], None],
                memo: Optional[_ImportMemo] = None) -> _Migration:
        """Migrate `files` (every candidate under the ADR folder) as the reference does.

        record_names  the names of the record files directly in the ADR folder (the id seed)
        exists        whether a file of that name lies beside the file already (--rename)
        commit        called, in the reference's order, for each file whose text changes or that
                      moves: (file, new text, new name or None); the caller writes or keeps it
        memo          a MadrImport.Memo kept between runs over the same folder: each file's work
                      is done again only when something it depends on changed
        """
        run = _Migration(memo if memo is not None else _ImportMemo())
        run.memo.begin()
        try:
            _madr_run(run, sorted(files, key=lambda file: run.memo.collation_key(file.path)),
                      record_names, rename, exists, commit)
        except _MadrCrash as crash:
            run.crashed = crash.message
        finally:
            run.memo.end()
        return run


def _madr_run(run: _Migration, files: Sequence[_MadrFile], record_names: Iterable[str], rename: bool,
              exists: Callable[[_MadrFile, str], bool],
              commit: Callable[[_MadrFile, str, Optional[str]], None]) -> None:
    sources = []
    for file in files:
        read = _madr_read(run.memo, file)
        if isinstance(read, str):
            run.results.append({"path": file.path, "outcome": "skipped"})
            run.findings.append(_import_finding("import-not-madr", file.path, read))
        else:
            sources.append(read)
    records = _madr_existing(files, run.memo)
    buckets = _madr_buckets(sources, records)
    by_id = {ident: (path, frontmatter) for ident, path, frontmatter in records}
    allocator = _Allocator(_madr_seed(record_names),
                           [record[0] for record in records] + [s.raw_id for s in sources if s.raw_id])
    allocated = {source.file.path: allocator.allocate(source, buckets[source.file.path][1])
                 for source in sources if buckets[source.file.path][0] != "unchanged"}
    numbers: Dict[str, str] = {}
    for source in sources:
        number = _MADR_FILE_NUMBER.match(source.file.name)
        declared = source.raw_id or (number.group(1) if number else None)
        resolved = allocated.get(source.file.path) or buckets[source.file.path][1]
        if declared and declared not in numbers and resolved:
            numbers[declared] = resolved
    incomplete = []
    for source in sources:
        bucket, record_id = buckets[source.file.path]
        if bucket == "unchanged":
            run.results.append({"path": source.file.path, "outcome": "unchanged"})
            if record_id in by_id:
                incomplete.append((by_id[record_id][1], by_id[record_id][0]))
            continue
        _madr_write_one(run, source, bucket, allocated[source.file.path], numbers.get, rename, exists,
                        commit, incomplete)
    run.findings.extend(_madr_incomplete(incomplete))
    run.results.sort(key=lambda result: run.memo.collation_key(result["path"]))
    run.findings = sort_findings(run.findings)


def _madr_write_one(run: _Migration, source: _Source, bucket: str, ident: str,
                    resolve_ref: Callable[[str], Optional[str]], rename: bool,
                    exists: Callable[[_MadrFile, str], bool],
                    commit: Callable[[_MadrFile, str, Optional[str]], None],
                    incomplete: List[Tuple[Dict[str, Any], str]]) -> None:
    """One new or updated source: merge, commit, report (the loop body of migrateMadr)."""
    file = source.file
    needs_rename = not file.nested and not is_record_file_name(file.name)
    # The name is worked out only for a move: nothing else reads it.
    target = _madr_target_name(ident, source.title) if rename and needs_rename else file.name
    moving = rename and needs_rename and not (target != file.name and exists(file, target))
    final_path = (file.path[:len(file.path) - len(file.name)] + target) if moving else file.path
    merged = _madr_merge(run.memo, source, ident, final_path, resolve_ref)
    if merged[0] != "ok":  # skipped; or the YAML writer failed, and stderr says why
        run.results.append({"path": file.path, "outcome": "skipped"})
        run.findings.extend(merged[1] if merged[0] == "skip" else [_import_finding(
            "import-not-madr", file.path, _madr_engine_failure(file, merged[1]), ident, "frontmatter")])
        return
    _, findings, frontmatter, content = merged
    run.findings.extend(findings)
    if content != file.text or moving:
        commit(file, content, target if moving else None)
    if file.nested or (needs_rename and not moving):
        reason = IMPORT_MESSAGES["undiscoverable-nested" if file.nested else "undiscoverable-name"]
        run.findings.append(_import_finding("import-undiscoverable", file.path,
                                            IMPORT_MESSAGES["undiscoverable"].format(reason=reason),
                                            ident, "path"))
    result = {"path": file.path, "outcome": "updated" if bucket == "updated" else "migrated",
              "frontmatter": frontmatter}
    if moving:
        result["renamedTo"] = final_path
    run.results.append(result)
    incomplete.append((frontmatter, final_path))


# ---------------------------------------------------------------------------
# 8. Reader: one file -> a Record, or findings
# ---------------------------------------------------------------------------

class FenceError(Exception):
    pass


def split_frontmatter(source: str) -> Tuple[str, str]:
    """(yaml text, body) of a record; FenceError with the reference's message otherwise."""
    first_end = source.find("\n")
    first_line = source if first_end == -1 else source[:first_end]
    if (first_line[:-1] if first_line.endswith("\r") else first_line) != "---":
        raise FenceError(FINDING_MESSAGES["fence-missing"])
    if first_end == -1:
        raise FenceError(FINDING_MESSAGES["fence-unterminated"])
    line_start = first_end + 1
    while line_start <= len(source):
        next_newline = source.find("\n", line_start)
        line_end = len(source) if next_newline == -1 else next_newline
        line = source[line_start:line_end]
        if line.endswith("\r"):
            line = line[:-1]
        if line == "---":
            body_start = len(source) if next_newline == -1 else next_newline + 1
            return source[first_end + 1:line_start], source[body_start:]
        if next_newline == -1:
            break
        line_start = next_newline + 1
    raise FenceError(FINDING_MESSAGES["fence-unterminated"])


def parse_record_file(path: str, data: bytes) -> "ParsedFile":
    """Decode, split, parse and validate one record file: never raises, a broken file is a finding."""
    try:
        return _parse_record_file(path, data)
    except Exception as error:  # an engine bug or resource limit: the file's finding, and stderr
        failure = "%s: %s" % (type(error).__name__, error)
        return ParsedFile(None, [{"rule": "file-read", "severity": "error", "path": path,
                                   "message": failure}], failure)


def _parse_record_file(path: str, data: bytes) -> ParsedFile:
    source = data.decode("utf-8", "replace")
    try:
        yaml_text, body = split_frontmatter(source)
    except FenceError as error:
        return ParsedFile(None, [{"rule": "frontmatter-fence", "severity": "error", "message": str(error),
                                   "path": path, "field": "frontmatter"}])
    try:
        value = FrontmatterYaml.load(yaml_text)
    except FrontmatterYaml.Error as error:
        if error.stage == "parse":
            return ParsedFile(None, [{"rule": "frontmatter-parse", "severity": "error",
                                       "message": error.message, "path": path, "field": "frontmatter"}])
        return ParsedFile(None, [{"rule": "file-read", "severity": "error", "message": error.message,
                                   "path": path}])
    frontmatter, issues = validate_frontmatter(value)
    if frontmatter is None:  # issues
        raw_id = value.get("id") if isinstance(value, dict) else None
        return ParsedFile(None, [_issue_finding(issue, path, raw_id if isinstance(raw_id, str) else None)
                                  for issue in issues])
    return ParsedFile(Record(path, frontmatter, body, source[:len(source) - len(body)]), [])


def _issue_finding(issue: Tuple[str, Optional[str], str], path: str, raw_id: Optional[str]) -> Finding:
    rule, field, message = issue
    finding: Finding = {"rule": rule, "severity": "error", "message": message, "path": path}
    if raw_id is not None:
        finding["id"] = raw_id
    if field is not None:
        finding["field"] = field
    return finding


class Record:
    """One valid decision record: its typed frontmatter (defaults filled in) and its body.

    `head` is the file's text before the body (the fences and the YAML as written), so
    head + body is the file as read: what a resource read serves (ADR 0015).
    """

    __slots__ = ("path", "frontmatter", "body", "head", "id", "_digest", "_normalized")

    def __init__(self, path: str, frontmatter: Dict[str, Any], body: str, head: str = "") -> None:
        self.path = path
        self.frontmatter = frontmatter
        self.body = body
        self.head = head
        self.id = frontmatter["id"]
        self._normalized: Optional[Tuple[str, str, Tuple[str, ...], str]] = None
        self._digest: Optional[bytes] = None  # computed when the fingerprint first asks (the CLI never does)

    @property
    def digest(self) -> bytes:
        """What the fingerprint covers: path, parsed frontmatter (not its bytes: a re-serialised
        but equal frontmatter keeps the fingerprint) and body. Any deterministic encoding will
        do, since clients only compare fingerprints; the C JSON encoder is the cheap one."""
        if self._digest is None:
            digest = hashlib.sha256(self.path.encode("utf-8", "surrogatepass"))
            digest.update(b"\0" + stable_json(self.frontmatter).encode("ascii") + b"\0")
            digest.update(self.body.encode("utf-8", "surrogatepass"))
            self._digest = digest.digest()
        return self._digest

    def source(self) -> str:
        """The record's file as read (UTF-8, a malformed byte replaced by U+FFFD)."""
        return self.head + self.body

    def summary(self) -> Dict[str, Any]:
        fm = self.frontmatter
        return {"id": self.id, "title": fm["title"], "status": fm["status"], "sourcePath": self.path}

    def relations(self) -> Dict[str, Any]:
        fm = self.frontmatter
        return {"supersedes": list(fm["supersedes"]), "supersededBy": fm.get("supersededBy"),
                "relatesTo": list(fm["relatesTo"]), "conflictsWith": list(fm["conflictsWith"])}

    def matched_fields(self, needle: str, lone_surrogate: Optional[bool] = None) -> List[str]:
        """Which of body, id, tag, title contain the normalised needle (in that fixed order).

        `lone_surrogate`: whether the needle holds half of a surrogate pair (computed when None).
        """
        return list(self.matched_field_names(needle, lone_surrogate))

    def matched_field_names(self, needle: str, lone_surrogate: Optional[bool] = None) -> Tuple[str, ...]:
        """matched_fields as one of 16 shared tuples: a search allocates nothing per record."""
        body, ident, tags, title = self._normalized_fields()
        if lone_surrogate is None:
            lone_surrogate = LONE_SURROGATE.search(needle) is not None
        if lone_surrogate:
            # JS `includes` works on UTF-16 code units: half of an astral pair can match.
            body, ident, title = JS.code_units(body), JS.code_units(ident), JS.code_units(title)
            tags = tuple(JS.code_units(tag) for tag in tags)
        return _MATCHED_FIELDS[(needle in body) | (needle in ident) << 1
                               | any(needle in tag for tag in tags) << 2 | (needle in title) << 3]

    def _normalized_fields(self) -> Tuple[str, str, Tuple[str, ...], str]:
        """(body, id, tags, title) normalised for search, computed once per parsed record."""
        if self._normalized is None:
            fm = self.frontmatter
            self._normalized = (
                normalize_search_text(self.body), normalize_search_text(self.id),
                tuple(normalize_search_text(tag) for tag in fm["tags"]), normalize_search_text(fm["title"]))
        return self._normalized


_MATCHED_FIELDS = tuple(tuple(name for bit, name in enumerate(("body", "id", "tag", "title")) if mask >> bit & 1)
                        for mask in range(16))


class ParsedFile:
    """The outcome of reading one candidate: a Record, or findings, never both.

    `failure` is set when an engine raised unexpectedly (a bug or a resource
    limit, not the file's fault): "ExceptionType: message".
    """

    __slots__ = ("record", "findings", "failure")

    def __init__(self, record: Optional[Record], findings: List[Finding],
                 failure: Optional[str] = None) -> None:
        self.record = record
        self.findings = findings
        self.failure = failure


LONE_SURROGATE = re.compile("[\ud800-\udfff]")


# --- Source markers: `@adr <id>` in a file's header (the reference's ADR-0021) ---------------
#
# A source file may declare the decisions it lives under, one `@adr <ref>[, <ref>...]` comment
# line near its top. The reference's packages/core/src/markers/{read,scan}.ts, reproduced: the
# door is read_source_markers (one path) and read_source_markers_batch (check's bounded set);
# scan_marker_text is the pure grammar. Nothing here reads past the header window, follows a
# symlink, opens anything but a regular file beneath the root, or blocks on a FIFO.

class MarkerScan:
    """What one marker scan saw. `state`: scanned, absent, unreadable or out-of-tree.

    `markers`: {path, ref, id, [log], line} in file order. `scanned_bytes` and `file_bytes`
    are None unless the file was scanned (a file never opened has no extent).
    """

    __slots__ = ("path", "state", "markers", "truncated", "scanned_bytes", "file_bytes")

    def __init__(self, path: str, state: str, markers: Optional[List[Dict[str, Any]]] = None,
                 truncated: bool = False, scanned_bytes: Optional[int] = None,
                 file_bytes: Optional[int] = None) -> None:
        self.path = path
        self.state = state
        self.markers = markers or []
        self.truncated = truncated
        self.scanned_bytes = scanned_bytes
        self.file_bytes = file_bytes


# A kept scan: (what its file's stat was, the scan); an identity rule: (lstat, batch start) -> tuple.
MarkerMemo = Dict[Tuple[str, str], Tuple[Tuple[int, ...], MarkerScan]]
MarkerIdentity = Callable[[os.stat_result, int], Optional[Tuple[int, ...]]]


class MarkerBatch:
    """check's scans: the first MARKER_SCAN_FILE_CAP distinct paths, and the rest as skipped."""

    __slots__ = ("scans", "skipped", "limit", "total")

    def __init__(self, scans: List[MarkerScan], skipped: List[str], limit: int, total: int) -> None:
        self.scans = scans
        self.skipped = skipped
        self.limit = limit
        self.total = total


_MARKER_TOKEN = "@adr"
_MARKER_INTRODUCERS = ("//", "/*", "{/*", "*", "#", "--", ";", "%", "<!--", '"""', "'''")
_MARKDOWN_INTRODUCERS = ("{/*", "<!--")  # what markdown itself hides from its reader
_MARKDOWN_SUFFIXES = (".md", ".mdx", ".markdown")
# JS /^ {0,3}(`{3,}|~{3,})(.*)$/: `.` stops at the four line terminators, `$` is the very end.
_MARKER_FENCE = re.compile("^ {0,3}(`{3,}|~{3,})([^\n\r\u2028\u2029]*)\\Z")
_MARKER_LINE_BREAK = re.compile("\r\n|[\r\n]")
_MARKER_REF_CHARS = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz:-")
_MARKER_REF = re.compile(ADR_REF_PATTERN[:-1] + "\\Z")


def _marker_refs(rest: str) -> List[str]:
    """The refs of one `@adr` token: a comma continues the list, anything else ends it."""
    if not rest or rest[0] not in " \t":  # `@adrkit/core` is not a marker
        return []
    refs: List[str] = []
    cursor, size = 0, len(rest)
    while True:
        while cursor < size and rest[cursor] in " \t":
            cursor += 1
        start = cursor
        while cursor < size and rest[cursor] in _MARKER_REF_CHARS:
            cursor += 1
        token = rest[start:cursor]
        if not token or not _MARKER_REF.match(token):
            return refs
        refs.append(token)
        while cursor < size and rest[cursor] in " \t":
            cursor += 1
        if cursor >= size or rest[cursor] != ",":
            return refs
        cursor += 1


def _marker_start(line: str, introducers: Tuple[str, ...]) -> Optional[int]:
    """Where `@adr` starts when it is the first content of a comment leading the line."""
    lead = len(line) - len(line.lstrip(" \t"))
    for introducer in introducers:
        if not line.startswith(introducer, lead):
            continue
        start = lead + len(introducer)
        while start < len(line) and line[start] in " \t":
            start += 1
        if line.startswith(_MARKER_TOKEN, start):
            return start
    return None


def _marker_fence(line: str, fence: Optional[Tuple[str, int]]) -> Tuple[bool, Optional[Tuple[str, int]]]:
    """(is a fence line, the fence open after it): CommonMark-lite, as the reference's scanner."""
    found = _MARKER_FENCE.match(line)
    if found is None:
        return False, fence
    run, info = found.group(1), found.group(2)
    if fence is not None:
        closes = run[0] == fence[0] and len(run) >= fence[1] and JS.trim(info) == ""
        return True, None if closes else fence
    if run[0] == "`" and "`" in info:
        return True, None
    return True, (run[0], len(run))


def _marker_lines(text: str) -> Iterable[Tuple[int, str]]:
    """(0-based index, line) of the lines that may hold a marker or a fence, in order; lines are
    split at CRLF, CR or LF. Without a fence run in the text only the `@adr` lines are visited."""
    if ("`" in text and "``" in text) or ("~" in text and "~~" in text):  # one-character finds first: memchr
        for index, line in enumerate(_MARKER_LINE_BREAK.split(text)):
            if _MARKER_TOKEN in line or "``" in line or "~~" in line:
                yield index, line
        return
    index, counted, found = 0, 0, text.find(_MARKER_TOKEN)
    while found != -1:
        start = max(text.rfind("\n", 0, found), text.rfind("\r", 0, found)) + 1
        index += len(_MARKER_LINE_BREAK.findall(text, counted, start))
        ends = [end for end in (text.find("\n", found), text.find("\r", found)) if end != -1]
        end = min(ends) if ends else len(text)
        yield index, text[start:end]
        counted, found = start, text.find(_MARKER_TOKEN, end)


def scan_marker_text(text: str, path: str, truncated: bool = False) -> List[Dict[str, Any]]:
    """Every marker of a header window already cut to its bound, in order (pure; no I/O).

    `truncated`: the window stopped short of the file, so a severed last line is dropped.
    `path` is echoed onto each marker; its extension picks the comment introducers.
    """
    if truncated:
        text = text[:max(text.rfind("\n"), text.rfind("\r")) + 1]
    if _MARKER_TOKEN not in text:
        return []
    markdown = path.lower().endswith(_MARKDOWN_SUFFIXES)
    introducers = _MARKDOWN_INTRODUCERS if markdown else _MARKER_INTRODUCERS
    markers: List[Dict[str, Any]] = []
    fence: Optional[Tuple[str, int]] = None
    for index, line in _marker_lines(text):
        if index == 0 and line.startswith("\ufeff"):
            line = line[1:]
        is_fence, fence = _marker_fence(line, fence)
        if is_fence or fence is not None:
            continue
        start = _marker_start(line, introducers)
        if start is None:
            continue
        for ref in _marker_refs(line[start + len(_MARKER_TOKEN):]):
            colon = ref.find(":")
            marker: Dict[str, Any] = {"path": path, "ref": ref, "id": ref if colon <= 0 else ref[colon + 1:]}
            if colon > 0:
                marker["log"] = ref[:colon]
            marker["line"] = index + 1
            markers.append(marker)
    return markers


def _marker_path(path: str) -> str:
    """A caller's path as marker identity: '\\' is a separator only where the OS says so."""
    if os.sep == "\\":
        path = path.replace("\\", "/")
    start = 0
    while path.startswith("./", start):
        start += 2
    return path[start:]


def _marker_state(error: BaseException) -> str:
    """The state an I/O error leaves: a missing file (or parent) is absent, the rest unreadable."""
    return "absent" if getattr(error, "errno", None) in (errno.ENOENT, errno.ENOTDIR) else "unreadable"


def _marker_beneath(root: str, target: str) -> Optional[str]:
    """`target`'s path relative to `root` when it lies strictly beneath it (both resolved), else
    None: path arithmetic only."""
    if target.startswith(root + os.sep):  # the usual case: what relpath gives, without its two abspaths
        rel = target[len(root) + 1:]
    else:
        try:
            rel = os.path.relpath(target, root) if target != root else ""
        except ValueError:  # Windows: another drive
            return None
    inside = rel not in ("", ".", "..") and not os.path.isabs(rel) and not rel.startswith(".." + os.sep)
    return rel if inside else None


def _marker_is_absolute(path: str) -> bool:
    return os.path.isabs(path) or (os.sep == "\\" and path.startswith(("/", "\\")))


def _marker_root(root: str) -> Tuple[str, Optional[str], str]:
    """(root, its real path or None, the state every scan takes when the root has none)."""
    root = os.path.abspath(root)
    try:
        os.stat(root)
        return root, os.path.realpath(root), ""
    except (OSError, ValueError) as error:
        return root, None, _marker_state(error)


def _lstat_no_symlink(root: str, rel: str, folders: Optional[set[str]] = None) -> Optional[os.stat_result]:
    """lstat of every component of `rel` beneath `root`; None when one of them is a symlink.
    `folders`: the leading components this batch already found not to be links (skipped, added to)."""
    current, info = root, None
    segments = rel.split(os.sep)
    last = len(segments) - 1
    for index, segment in enumerate(segments):
        current = os.path.join(current, segment)
        if folders is not None and index < last and current in folders:
            continue
        info = os.lstat(current)
        if stat.S_ISLNK(info.st_mode):
            return None
        if folders is not None and index < last:
            folders.add(current)
    return info


_MARKER_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
                      | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0))


def _read_marker_window(candidate: str) -> Tuple[Optional[bytes], int]:
    """(at most MARKER_WINDOW_BYTES + 1 bytes, the size fstat gave), or (None, 0): not a regular file."""
    fd = os.open(candidate, _MARKER_OPEN_FLAGS)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None, 0
        chunks: List[bytes] = []
        wanted = MARKER_WINDOW_BYTES + 1
        while wanted > 0:
            chunk = os.read(fd, wanted)
            if not chunk:
                break
            chunks.append(chunk)
            wanted -= len(chunk)
        return b"".join(chunks), info.st_size
    finally:
        os.close(fd)

MARKER_SCAN_FILE_CAP = 3000


def _scan_marker_file(path: str, root: str, real_root: Optional[str], root_state: str,
                      folders: Optional[set[str]] = None, memo: Optional[MarkerMemo] = None,
                      identity: Optional[MarkerIdentity] = None, started_ns: int = 0) -> MarkerScan:
    path = _marker_path(path)
    if real_root is None:
        return MarkerScan(path, root_state or "unreadable")
    candidate = os.path.normpath(os.path.join(root, path))  # Node's path.resolve
    rel = None if _marker_is_absolute(path) else _marker_beneath(root, candidate)
    if rel is None:
        return MarkerScan(path, "out-of-tree")  # decided before any I/O
    try:
        info = _lstat_no_symlink(root, rel, folders)
        if info is None or not stat.S_ISREG(info.st_mode):
            return MarkerScan(path, "unreadable")
        proof = identity(info, started_ns) if memo is not None and identity is not None else None
        kept = memo.get((root, path)) if memo is not None and proof is not None else None
        if kept is not None and kept[0] == proof:
            return kept[1]  # its stat proves it the file scanned before
        # No component is a link, so the file's real path is the real root joined with `rel`,
        # which holds no `..`: beneath the real root by construction (the reference checks it
        # again; the answer cannot differ).
        data, size = _read_marker_window(candidate)
    except (OSError, ValueError) as error:
        return MarkerScan(path, _marker_state(error))
    if data is None:
        return MarkerScan(path, "unreadable")
    truncated = len(data) > MARKER_WINDOW_BYTES
    extent = len(data)
    if truncated:
        cut = data.rfind(b"\n", 0, MARKER_WINDOW_BYTES) + 1, data.rfind(b"\r", 0, MARKER_WINDOW_BYTES) + 1
        extent = max(cut)
    text = data[:extent].decode("utf-8", "replace")
    if text.startswith("\ufeff"):  # TextDecoder drops one BOM
        text = text[1:]
    scan = MarkerScan(path, "scanned", scan_marker_text(text, path, truncated), truncated, extent, size)
    if memo is not None and proof is not None:
        if len(memo) >= MARKER_SCAN_FILE_CAP:
            memo.clear()
        memo[(root, path)] = (proof, scan)
    return scan


def read_source_markers(root: str, path: str) -> MarkerScan:
    """The markers of one repo-relative `path` under `root`, as the reference's readSourceMarkers.

    Refused without I/O when the path leaves the root lexically (out-of-tree); a symlink in any
    component, a directory, FIFO or device is unreadable; a missing file is absent. Opens the
    file read-only and non-blocking and reads at most MARKER_WINDOW_BYTES + 1 bytes.
    """
    return _scan_marker_file(path, *_marker_root(root))


def read_source_markers_batch(root: str, paths: Sequence[str], memo: Optional[MarkerMemo] = None,
                              identity: Optional[MarkerIdentity] = None) -> MarkerBatch:
    """check's scans: distinct normalised paths in code-unit order, the first MARKER_SCAN_FILE_CAP
    scanned, the others returned as skipped (never dropped silently).

    `memo` and `identity` (the server's --markers): scans kept between batches by (root, path),
    reused while `identity(lstat, batch start ns)` gives back the tuple kept with them; it gives
    None for a file that must be read every time. At most MARKER_SCAN_FILE_CAP are kept."""
    candidates = sorted(set(_marker_path(path) for path in paths), key=utf16_key)
    selected = candidates[:MARKER_SCAN_FILE_CAP]
    prepared = _marker_root(root) if selected else ("", None, "")
    folders: set[str] = set()  # leading folders found not to be links, lstat'ed once per batch
    started_ns = time.time_ns()
    scans = [_scan_marker_file(path, *prepared, folders, memo, identity, started_ns) for path in selected]
    return MarkerBatch(scans, candidates[MARKER_SCAN_FILE_CAP:], MARKER_SCAN_FILE_CAP, len(candidates))


# ---------------------------------------------------------------------------
# 9. Schema: the typed frontmatter v0.1.0 and its five cross-field rules
# ---------------------------------------------------------------------------
#
# A small declarative validator that reproduces the reference's behaviour (Zod 4
# over the schema of shared/reference/adr.schema.json): the same issues, rule
# names and field paths, the same defaults filled in the same key order, and the
# same "abort" rule: a failed type or enum check stops the object-level
# refinements (the cross-field rules, uniqueness), a failed format or size check
# does not.

# The patterns the reference's schema runs, as JavaScript sources: zod 4.4.3's
# `date()` and `datetime({offset: true})`, and the schema's own `.regex(...)`s.
_ZOD_DATE = (r"(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29"
             r"|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)"
             r"|(?:02)-(?:0[1-9]|1\d|2[0-8])))")
_ZOD_TIME = r"(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?"
_ISO_DATE_SOURCE = "^" + _ZOD_DATE + "$"
_ISO_DATETIME_SOURCE = "^" + _ZOD_DATE + "T(?:" + _ZOD_TIME + r"(?:Z|([+-](?:[01]\d|2[0-3]):[0-5]\d)))$"
IDENTITY_SOURCE = r"^(@[A-Za-z0-9-]+|team:[a-z0-9-]+|[^@\s]+@[^@\s]+\.[^@\s]+)$"
_ADR_REF_SOURCE = r"^(([a-z0-9][a-z0-9-]*):)?([0-9]{4,}|[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26})$"
ID_SOURCE = r"^([0-9]{4,}|[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26})$"
_SLUG_SOURCE = r"^[a-z0-9][a-z0-9-]*$"
SCHEMA_VERSION_SOURCE = r"^\d+\.\d+\.\d+$"


# One schema issue: (zod's issue code, the path to the value, its message or detail).
_IssuePath = Tuple[Any, ...]
_Issue = Tuple[str, _IssuePath, Any]


class _Node:
    """A schema node; `check` appends (code, path, message) issues and returns the output value."""

    default: Optional[Callable[[], Any]] = None  # a factory for the value used when the key is absent
    optional = False

    def check(self, value: Any, path: _IssuePath, issues: List[_Issue]) -> Any:
        raise NotImplementedError  # each kind of node checks its own way

    def with_default(self, factory: Callable[[], Any]) -> _Node:
        self.default = factory
        return self

    def maybe(self) -> _Node:
        self.optional = True
        return self


# Issue codes whose failure stops the enclosing refinements (Zod's "abort").
_ABORTING = frozenset(("invalid_type", "invalid_value", "unrecognized_keys"))


_RECEIVED_NAMES = ((bool, "boolean"), ((int, float), "number"), (str, "string"), (list, "array"),
                   (dict, "object"), (bytes, "Buffer"))


def _received(value: Any) -> str:
    """How the reference names the type it received, in 'expected X, received Y'."""
    if value is None:
        return "null"
    if isinstance(value, float) and value != value:
        return "NaN"
    for kind, name in _RECEIVED_NAMES:  # bool before int: a bool is an int to Python
        if isinstance(value, kind):
            return name
    # The YAML door's value objects (Date, Map, Set) and _Missing name their JS class.
    return getattr(value, "js_class", "object")


_JS_OBJECT_CLASSES = ("Date", "Map", "Set")  # the YAML door's value objects


def _is_js_object(value: Any) -> bool:
    """zod's isObject: any JS object but an array (a mapping, Date, Map, Set or Buffer)."""
    return isinstance(value, (dict, bytes)) or getattr(value, "js_class", None) in _JS_OBJECT_CLASSES


def _own_keys(value: Any) -> List[str]:
    """The keys `for (key in value)` visits: a mapping's keys, a Buffer's indices, else none."""
    if isinstance(value, dict):
        return list(value)
    if isinstance(value, bytes):
        return [str(index) for index in range(len(value))]
    return []


_NO_LENGTH = object()


def _js_length(value: Any) -> Any:
    """`value.length` for zod's length checks; _NO_LENGTH when the value is nullish or has none."""
    if isinstance(value, str):
        return utf16_len(value)
    if isinstance(value, (list, bytes)):
        return len(value)
    if isinstance(value, dict):
        return value.get("length", _NO_LENGTH)  # a mapping's `length` key, whatever its value
    return _NO_LENGTH


def _js_number(value: Any) -> float:
    """JavaScript's ToNumber(ToPrimitive(value)), as a relational comparison applies it."""
    if value is None or isinstance(value, bool):
        return float(bool(value))
    if isinstance(value, (int, float)):
        return value
    if getattr(value, "js_class", None) == "Date":
        return _js_date_number(value.iso)
    return _js_string_number(_js_string(value))


def _js_date_number(iso: Optional[str]) -> float:
    """A Date's valueOf: milliseconds since the epoch of its ISO text (None: an invalid date, NaN)."""
    match = re.match(r"([+-]?\d+)-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.(\d\d\d)Z\Z", iso or "")
    if match is None:
        return float("nan")
    year, month, day, hour, minute, second, milli = (int(part) for part in match.groups())
    year -= month <= 2
    era_day = (year % 400) * 365 + (year % 400) // 4 - (year % 400) // 100 \
        + (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    days = (year // 400) * 146097 + era_day - 719468
    return float((((days * 24 + hour) * 60 + minute) * 60 + second) * 1000 + milli)


def _js_string(value: Any) -> str:
    """JavaScript's String(value) for the values a YAML document produces (Array join, objects)."""
    if value is None:
        return ""  # only reached inside an array, where join() writes null as ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer() and abs(value) < 1e21):
        return str(int(value))
    if isinstance(value, float):  # only ToNumber reads this text back, so repr's spelling is enough
        return "NaN" if value != value else "Infinity" if value == math.inf else "-Infinity" \
            if value == -math.inf else repr(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ",".join(_js_string(item) for item in value)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return "[object Object]"


_JS_NUMBER_TEXT = re.compile(r"[+-]?(?:Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\Z", re.ASCII)
_JS_RADIX_TEXT = re.compile(r"0(?:[xX][0-9A-Fa-f]+|[oO][0-7]+|[bB][01]+)\Z", re.ASCII)


def _js_string_number(text: str) -> float:
    """JavaScript's StringToNumber: trimmed decimal, Infinity, or unsigned 0x/0o/0b; else NaN."""
    text = JS.trim(text)
    if text == "":
        return 0.0
    if _JS_RADIX_TEXT.match(text):
        return float(int(text[2:], {"x": 16, "o": 8, "b": 2}[text[1].lower()]))
    if _JS_NUMBER_TEXT.match(text):
        return float(text.replace("Infinity", "inf"))
    return float("nan")


class _String(_Node):
    def __init__(self, min_length: Optional[int] = None, max_length: Optional[int] = None,
                 regex: Optional[str] = None, message: Optional[str] = None, fmt: Optional[str] = None) -> None:
        self.min_length, self.max_length = min_length, max_length
        self.regex, self.message, self.fmt = regex, message, fmt

    def check(self, value: Any, path: _IssuePath, issues: List[_Issue]) -> Any:
        is_string = isinstance(value, str)
        if not is_string:
            issues.append(("invalid_type", path, "Invalid input: expected string, received %s" % _received(value)))
        self._check_length(value, path, issues)
        if not is_string:
            return None
        if self.regex is not None and not JS.regex(self.regex)(value):
            issues.append(("invalid_format", path, self.message))
        if self.fmt == "date" and not JS.regex(_ISO_DATE_SOURCE)(value):
            issues.append(("invalid_format", path, "Invalid ISO date"))
        elif self.fmt == "datetime" and not JS.regex(_ISO_DATETIME_SOURCE)(value):
            issues.append(("invalid_format", path, "Invalid ISO datetime"))
        elif self.fmt == "url" and not url_is_valid(JS.trim(value)):
            issues.append(("invalid_format", path, "Invalid URL"))
        elif self.fmt == "url":
            return JS.trim(value)
        return value

    def _check_length(self, value: Any, path: _IssuePath, issues: List[_Issue]) -> None:
        """zod's min/max length checks: they run on any non-null value with a `length`, type error or not."""
        if self.min_length is None and self.max_length is None:
            return
        length = _js_length(value)
        if length is _NO_LENGTH:
            return
        if not isinstance(length, (int, float)) or isinstance(length, bool):
            length = _js_number(length)
        # zod words the bound by what the value is (getLengthableOrigin): a string, an array, else
        # "unknown" (a mapping with a `length` key), which has no unit.
        origin = "string" if isinstance(value, str) else "array" if isinstance(value, list) else None
        wording = ("expected %s to have %%s%%d %s" % (origin, "characters" if origin == "string" else "items")
                   if origin else "expected unknown to be %s%d")
        if self.min_length is not None and not length >= self.min_length:
            issues.append(("too_small", path, "Too small: " + wording % (">=", self.min_length)))
        if self.max_length is not None and not length <= self.max_length:
            issues.append(("too_big", path, "Too big: " + wording % ("<=", self.max_length)))


class _Number(_Node):
    def __init__(self, integer: bool = False, minimum: Optional[float] = None,
                 maximum: Optional[float] = None) -> None:
        self.integer, self.minimum, self.maximum = integer, minimum, maximum

    def check(self, value: Any, path: _IssuePath, issues: List[_Issue]) -> Any:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value \
                or value in (float("inf"), float("-inf")):
            issues.append(("invalid_type", path, "Invalid input: expected number, received %s" % _received(value)))
            return None
        if self.integer and int(value) != value:
            issues.append(("invalid_type", path, "Invalid input: expected int, received number"))
            return None
        if self.integer and value > JS_SAFE_INTEGER:
            issues.append(("too_big", path, "Too big: expected int to be <=%d" % JS_SAFE_INTEGER))
        elif self.integer and value < -JS_SAFE_INTEGER:
            issues.append(("too_small", path, "Too small: expected int to be >=%d" % -JS_SAFE_INTEGER))
        if self.minimum is not None and value < self.minimum:
            issues.append(("too_small", path, "Too small: expected number to be >=%s" % self.minimum))
        if self.maximum is not None and value > self.maximum:
            issues.append(("too_big", path, "Too big: expected number to be <=%s" % self.maximum))
        return 0 if value == 0 else value  # JSON.stringify writes -0 as 0


class _Boolean(_Node):
    def check(self, value: Any, path: _IssuePath, issues: List[_Issue]) -> Any:
        if not isinstance(value, bool):
            issues.append(("invalid_type", path, "Invalid input: expected boolean, received %s" % _received(value)))
            return None
        return value


class _Enum(_Node):
    def __init__(self, *values: str) -> None:
        self.values = values
        self.message = "Invalid option: expected one of %s" % "|".join('"%s"' % v for v in values)

    def check(self, value: Any, path: _IssuePath, issues: List[_Issue]) -> Any:
        if not isinstance(value, str) or value not in self.values:
            issues.append(("invalid_value", path, self.message))
            return None
        return value


class _Array(_Node):
    def __init__(self, item: _Node, unique: bool = False) -> None:
        self.item, self.unique = item, unique

    def check(self, value: Any, path: _IssuePath, issues: List[_Issue]) -> Any:
        if not isinstance(value, list):
            issues.append(("invalid_type", path, "Invalid input: expected array, received %s" % _received(value)))
            return None
        start = len(issues)
        output = [self.item.check(item, path + (index,), issues) for index, item in enumerate(value)]
        if self.unique and not _aborted(issues, start):
            if len(set(stable_json(item) for item in value)) != len(value):
                issues.append(("custom", path, "Items must be unique"))
        return output


class _Record(_Node):
    """z.record(z.string(), value): keys in the order the YAML reader gives (JS order)."""

    def __init__(self, value: _Node) -> None:
        self.value = value

    def check(self, value: Any, path: _IssuePath, issues: List[_Issue]) -> Any:
        if not isinstance(value, dict):
            issues.append(("invalid_type", path, "Invalid input: expected record, received %s" % _received(value)))
            return None
        return {key: self.value.check(item, path + (key,), issues) for key, item in value.items()
                if key != "__proto__"}  # zod skips it rather than let it replace the prototype


class _Object(_Node):
    """A strict object: shape keys in declaration order, unknown keys rejected."""

    def __init__(self, *fields: Tuple[str, _Node], **options: Any) -> None:
        self.fields = fields
        self.refinements = options.get("refinements", ())
        self.known = frozenset(name for name, _ in fields)

    def check(self, value: Any, path: _IssuePath, issues: List[_Issue]) -> Any:
        if not _is_js_object(value):
            issues.append(("invalid_type", path, "Invalid input: expected object, received %s" % _received(value)))
            return None
        start = len(issues)
        output = {}
        fields = value if isinstance(value, dict) else {}  # a Date, Map, Set or Buffer has none of ours
        for name, node in self.fields:
            if name in fields:
                output[name] = node.check(fields[name], path + (name,), issues)
            elif node.default is not None:
                output[name] = node.default()
            elif not node.optional:
                node.check(_MISSING, path + (name,), issues)
        # zod skips `__proto__`, which the YAML step keeps as an own key, when it looks for unknown keys.
        unknown = [key for key in _own_keys(value) if key not in self.known and key != "__proto__"]
        if unknown:
            issues.append(("unrecognized_keys", path, unknown))
        if self.refinements and not _aborted(issues, start):
            for rule, test in self.refinements:
                if not test(output):
                    message, field = CROSS_FIELD_RULES[rule]
                    issues.append(("custom", path + field, message))
        return output


class _Missing:
    """An absent key: reported as 'received undefined' (a required-field finding)."""

    js_class = "undefined"


_MISSING = _Missing()


def _aborted(issues: List[_Issue], start: int) -> bool:
    return any(issue[0] in _ABORTING for issue in issues[start:])


def _identity() -> _Node:
    return _String(regex=IDENTITY_SOURCE, message="Expected @handle, team:slug, or an email address")


def _adr_ref() -> _Node:
    return _String(regex=_ADR_REF_SOURCE, message="Expected an ADR id, optionally prefixed with a log name")


def _slug() -> _Node:
    return _String(regex=_SLUG_SOURCE, message="Invalid string: must match pattern /%s/" % _SLUG_SOURCE)


def _list() -> Callable[[], List[Any]]:
    return list


def _datetime() -> _Node:
    return _String(fmt="datetime").maybe()


_SEVERITY = ("error", "warn", "info")

FRONTMATTER_SCHEMA = _Object(
    ("schemaVersion", _String(regex=SCHEMA_VERSION_SOURCE,
                              message="Invalid string: must match pattern /%s/" % SCHEMA_VERSION_SOURCE)
     .with_default(lambda: ADR_SCHEMA_VERSION)),
    ("id", _String(regex=ID_SOURCE, message="Invalid string: must match pattern /%s/" % ID_SOURCE)),
    ("title", _String(min_length=3, max_length=120)),
    ("status", _Enum(*STATUSES)),
    ("date", _String(fmt="date")),
    ("created", _String(fmt="date").maybe()),
    ("deciders", _Array(_identity()).with_default(list)),
    ("consulted", _Array(_identity()).with_default(list)),
    ("informed", _Array(_identity()).with_default(list)),
    ("tags", _Array(_slug(), unique=True).with_default(list)),
    ("scope", _Enum(*SCOPES).with_default(lambda: "component")),
    ("domain", _String().maybe()),
    ("reversibility", _Enum("two-way-door", "one-way-door", "unknown").with_default(lambda: "unknown")),
    ("blastRadius", _Enum("component", "team", "cross-team", "org").with_default(lambda: "component")),
    ("supersedes", _Array(_adr_ref(), unique=True).with_default(list)),
    ("supersededBy", _adr_ref().maybe()),
    ("relatesTo", _Array(_adr_ref(), unique=True).with_default(list)),
    ("conflictsWith", _Array(_adr_ref()).with_default(list)),
    ("affects", _Array(_Object(
        ("type", _Enum("path", "entity", "package", "resource", "api", "data")),
        ("pattern", _String(min_length=1)),
        ("repo", _String().maybe()),
        ("negate", _Boolean().with_default(lambda: False)),
        ("note", _String().maybe()),
    )).with_default(list)),
    ("assertions", _Array(_Object(
        ("id", _slug()),
        ("description", _String().maybe()),
        ("engine", _Enum("rego", "jsonpath", "grep", "custom")),
        ("expression", _String().maybe()),
        ("expressionFile", _String().maybe()),
        ("input", _Enum("source", "iac-plan", "sbom", "openapi", "catalog", "custom")
         .with_default(lambda: "source")),
        ("severity", _Enum(*_SEVERITY)),
    )).with_default(list)),
    ("provenance", _Object(
        ("authoredBy", _Enum("human", "agent", "agent-drafted").with_default(lambda: "human")),
        ("agent", _Object(
            ("name", _String().maybe()),
            ("model", _String().maybe()),
            ("harness", _String().maybe()),
            ("runId", _String().maybe()),
        ).maybe()),
        ("ratifiedBy", _identity().maybe()),
        ("sourceArtifact", _String().maybe()),
        ("importedFrom", _Object(
            ("sourceKind", _Enum("madr", "agent-log", "plan-artifact", "other")),
            ("sourceRef", _String()),
            ("fingerprint", _String()),
            ("importedAt", _datetime()),
        ).maybe()),
    ).maybe()),
    ("review", _Object(
        ("tier", _Enum("auto", "async", "arb").maybe()),
        ("tierReason", _String().maybe()),
        ("queuedAt", _datetime()),
        ("slaDays", _Number(integer=True, minimum=0).maybe()),
        ("escalatedAt", _datetime()),
        ("decidedAt", _datetime()),
        ("quorum", _Number(integer=True, minimum=1).maybe()),
        ("approvals", _Array(_identity()).with_default(list)),
        ("objections", _Array(_Object(
            ("by", _identity()),
            ("summary", _String().maybe()),
            ("resolved", _Boolean().with_default(lambda: False)),
        )).with_default(list)),
    ).maybe()),
    ("evaluation", _Object(
        ("ranAt", _datetime()),
        ("evaluatorVersion", _String().maybe()),
        ("rubricVersion", _String().maybe()),
        ("scores", _Record(_Number(minimum=0, maximum=4)).maybe()),
        ("confidence", _Number(minimum=0, maximum=1).maybe()),
        ("escalate", _Boolean().maybe()),
        ("escalationReasons", _Array(_Enum(
            "one-way-door", "cost-threshold", "security-surface", "data-residency", "regulatory",
            "contradicts-accepted-adr", "low-confidence", "pass-disagreement", "agent-authored-production",
            "novel-no-precedent", "human-requested")).with_default(list)),
        ("deterministicFindings", _Array(_Object(
            ("rule", _String()),
            ("severity", _Enum(*_SEVERITY)),
            ("message", _String().maybe()),
            ("adr", _adr_ref().maybe()),
        )).with_default(list)),
    ).maybe()),
    ("externalRefs", _Array(_Object(
        ("type", _Enum("issue", "pr", "rfc", "incident", "doc", "meeting", "control", "other")),
        ("id", _String().maybe()),
        ("url", _String(fmt="url")),
        ("label", _String().maybe()),
    )).with_default(list)),
    ("complianceControls", _Array(_String(), unique=True).with_default(list)),
    ("reviewBy", _String(fmt="date").maybe()),
    refinements=(
        ("superseded-requires-supersededBy",
         lambda fm: fm["status"] != "superseded" or bool(fm.get("supersededBy"))),
        ("supersededBy-requires-superseded-status",
         lambda fm: not fm.get("supersededBy") or fm["status"] == "superseded"),
        ("accepted-requires-decider-unless-imported",
         lambda fm: fm["status"] != "accepted" or bool(fm["deciders"])
         or bool(fm.get("provenance", {}).get("importedFrom"))),
        ("agent-accepted-requires-ratifier",
         lambda fm: fm["status"] != "accepted"
         or fm.get("provenance", {}).get("authoredBy") not in ("agent", "agent-drafted")
         or bool(fm["provenance"].get("ratifiedBy"))),
        ("one-way-door-disallows-auto",
         lambda fm: not (fm["reversibility"] == "one-way-door" and fm.get("review", {}).get("tier") == "auto")),
    ),
)

_ISSUE_RULES = {"invalid_value": "invalid-enum-value", "invalid_format": "invalid-format",
                "too_small": "invalid-size", "too_big": "invalid-size"}
_CROSS_FIELD_BY_MESSAGE = {message: rule for rule, (message, _) in CROSS_FIELD_RULES.items()}


def validate_frontmatter(value: Any) -> Tuple[Optional[Dict[str, Any]], List[Tuple[str, Optional[str], str]]]:
    """(frontmatter with defaults, []) for a valid record, else (None, [(rule, field, message)]).

    `field` is the dotted path, None for the root itself (a non-mapping frontmatter); an
    unknown key that is the empty string keeps its field "" (a frontmatter of just `:`).
    """
    issues: List[Tuple[str, Tuple[Any, ...], Any]] = []
    output = FRONTMATTER_SCHEMA.check(value, (), issues)
    if not issues:
        return output, []
    findings: List[Tuple[str, Optional[str], str]] = []
    for code, path, detail in issues:
        field = ".".join(str(part) for part in path) if path else None
        if code == "unrecognized_keys":
            for key in detail:
                name = ".".join(str(part) for part in path + (key,))
                findings.append(("strict-unknown-key", name, FINDING_MESSAGES["unknown-key"].format(field=name)))
            continue
        if code == "custom":
            rule = _CROSS_FIELD_BY_MESSAGE.get(detail, "unique-items")
        elif code == "invalid_type":
            rule = "required-field" if detail.endswith("received undefined") else "invalid-type"
        else:
            rule = _ISSUE_RULES[code]
        findings.append((rule, field, detail))
    return None, findings


def schema_issues(value: Any) -> Tuple[Optional[Dict[str, Any]], List[Tuple[Tuple[Any, ...], str]]]:
    """zod's safeParse: (frontmatter with defaults, []) or (None, [(issue path, zod's message)]),
    the issues in zod's order (the importer drops or resets fields by their path)."""
    issues: List[Tuple[str, Tuple[Any, ...], Any]] = []
    output = FRONTMATTER_SCHEMA.check(value, (), issues)
    if not issues:
        return _zod_signed_zeros(output, value), []
    return None, [(path, _zod_unrecognized_message(detail) if code == "unrecognized_keys" else detail)
                  for code, path, detail in issues]


def _zod_signed_zeros(output: Any, value: Any) -> Any:
    """zod hands a number back as it was given, -0 included; the checks above write -0 as 0 (as
    JSON.stringify does in the server's answers), so the sign is put back where the input had -0.
    `migrate` writes what this returns, and yaml writes -0 as `-0`."""
    if isinstance(output, dict) and isinstance(value, dict):
        for key, item in output.items():
            if key in value:
                output[key] = _zod_signed_zeros(item, value[key])
    elif isinstance(output, list) and isinstance(value, list) and len(output) == len(value):
        for index, item in enumerate(output):
            output[index] = _zod_signed_zeros(item, value[index])
    elif (type(output) is int and output == 0 and isinstance(value, float) and value == 0
          and math.copysign(1.0, value) < 0):
        return value
    return output


def _zod_unrecognized_message(keys: List[str]) -> str:
    """zod 4's English message for an `unrecognized_keys` issue."""
    return "Unrecognized key%s: %s" % ("s" if len(keys) > 1 else "", ", ".join('"%s"' % key for key in keys))


# ---------------------------------------------------------------------------
# 10. Commands: the command line, one argparse parser for the server and its subcommands
# ---------------------------------------------------------------------------
#
# `adrkit-mcp [flags]` serves MCP on stdio; `adrkit-mcp call|doctor|config|hook|migrate ...` are for
# people and scripts (_SUBCOMMAND_HELP lists them; the usage line is built from it). One parser tree reads all of them, so every command treats flags alike: `--flag
# VALUE` and `--flag=VALUE`, no empty value, no flag taken as another flag's value (`--cwd --dir
# x`), no abbreviations; a command line that does not parse exits 2 with the usage on stderr.
# The subcommand comes first; a subcommand after server flags is refused rather than guessed.

_SERVER_USAGE = """adrkit-mcp [--cwd PATH] [--dir PATH] [--from madr] [--request-timeout-ms N] [--expose PARTS] [--markers]
       adrkit-mcp {%s} ...
       adrkit-mcp --help | --version"""

_SERVER_DESCRIPTION = """\
adrkit-mcp: read-only decision memory for coding agents, over MCP stdio.

A local Model Context Protocol server for one Git-backed corpus of
Architecture Decision Records (Markdown files with YAML frontmatter). It
offers four read-only tools: get_decision, get_decision_context,
list_superseded and search_decisions. No network, no model calls, no writes.
With --expose it also serves the decisions as MCP resources a client can
attach, and prompts (adr-context, adr-check, explain-decision) computed from
them.

It speaks JSON-RPC 2.0 on stdin/stdout, one message per line, in both MCP
protocol eras: the initialize handshake (revisions 2024-11-05, 2025-03-26,
2025-06-18, 2025-11-25) and the stateless 2026-07-28 (server/discover, _meta
on every request). stdout carries protocol frames only; diagnostics go to
stderr. Closing stdin stops the server. You normally do not run it by hand:
an MCP client starts it, e.g. with {"command": "adrkit-mcp", "args": ["--cwd",
"/path/to/repo"]}. `adrkit-mcp config` prints such snippets."""

_SERVER_EPILOG = """\
  --flag VALUE and --flag=VALUE both work; a value may not be empty. Flags
  win over the environment, which wins over the defaults.

subcommands (each has its own --help):
%s
environment (an empty variable counts as unset):
%s
exit status:
  0  stdin was closed (the normal shutdown), SIGTERM or SIGINT, --help, --version
     (a SIGINT the parent ignores, as nohup and `cmd &` do, stays ignored)
  1  the root or ADR folder cannot be used (checked before anything is read),
     or the client closed stdout while the server was answering
  2  a command-line error (unknown flag, missing or empty value, stray argument)
"""

_ENV_EXPOSE = "ADRKIT_MCP_EXPOSE"

# Every environment variable the program reads: name, what it stands for. The server's --help
# lists them all (a new one belongs here).
_ENVIRONMENT_HELP = (
    (ENV_CWD, "repository root, when --cwd is not given (server, call, doctor, config, hook; the "
               "folder lint, graph, new, explain, check and migrate run in)"),
    (ENV_DIR, "ADR folder, when --dir is not given (server, call, doctor, config, hook, lint, "
               "graph, new, explain, check)"),
    (ENV_FROM, "what --from gives (madr), when it is not given (server, call, doctor, config, "
                "hook; migrate reads only its own --from)"),
    (_ENV_EXPOSE, "what --expose gives (resources, prompts), when it is not given (server, doctor, "
                  "config)"),
    (ENV_MARKERS, "1, true, yes or on: what --markers gives, when it is not given (server, call, "
                   "doctor, config, hook; ADR 0020)"),
    ("GITHUB_EVENT_PATH", "pr-check: the pull request's event, set by GitHub Actions like the next five"),
    ("GITHUB_REPOSITORY", "pr-check: owner/name of the repository"),
    ("GITHUB_TOKEN", "pr-check: the token that lists the changed files and comments"),
    ("GITHUB_API_URL", "pr-check: the API the token is sent to (default https://api.github.com)"),
    ("GITHUB_STEP_SUMMARY", "pr-check: the job summary file the comment's Markdown is added to"),
    ("GITHUB_OUTPUT", "pr-check: the file its outputs (ok, comment) are written to"),
    ("CLAUDE_PROJECT_DIR", "hook: the root when neither --cwd, $%s nor the event names one "
                           "(GEMINI_PROJECT_DIR likewise)" % ENV_CWD),
    ("SHIV_ROOT", "the .pyz: where it unpacks its libraries (default: $XDG_CACHE_HOME/adrkit-mcp, "
                  "~/.cache/adrkit-mcp, or the platform's cache folder)"),
)


def _server_usage() -> str:
    """The server's usage: every subcommand of the table, in its order."""
    return _SERVER_USAGE % ",".join(name for name, _, _ in _SUBCOMMAND_HELP)


def _environment_help() -> str:
    import textwrap
    return "".join(textwrap.fill(meaning, 80, initial_indent="  %-19s " % name,
                                 subsequent_indent=" " * 22) + "\n"
                   for name, meaning in _ENVIRONMENT_HELP)

# The reference CLI's other commands (`lint`, `graph`, `new`, `explain`, `check`; @adrkit/cli
# 0.8.0, packages/cli/src/index.ts). Each one's help, printed by `adrkit-mcp <command> --help`, is
# the reference's COMMAND_USAGE with two changes (ADR 0019): the usage line names this program, and
# one option line says what --cwd does. Usage errors and messages are the reference's sentences,
# `adr` and all, as migrate's are.
_CWD_HELP = "Run in <path>, as cd <path> && adr {command} would (default: $ADRKIT_MCP_CWD, else .)"

CLI_HELP = {
    "lint": """Usage: adrkit-mcp lint [paths...] [options]

Validate the ADR corpus. With no paths, every discoverable record under --dir is checked.

Options:
  --dir <path>    ADR corpus directory (default: docs/adr)
  --cwd <path>    %s
  --json          Emit { checked, findings } as JSON
  --help          Show this help and exit

Exit codes: 0 = no error findings; 1 = one or more error findings;
2 = usage error (invalid invocation or unreachable corpus directory).
""" % _CWD_HELP.format(command="lint"),
    "new": """Usage: adrkit-mcp new <title> [options]

Scaffold a new ADR record.

Options:
  --status <status>   Initial status (default: draft)
  --dir <path>        ADR corpus directory (default: docs/adr)
  --cwd <path>        %s
  --json              Emit { id, path } as JSON
  --help              Show this help and exit

Exit codes: 0 = created; 1 = refused to overwrite an existing file; 2 = usage error.
""" % _CWD_HELP.format(command="new"),
    "graph": """Usage: adrkit-mcp graph [options]

Render the decision graph (supersedes, relatesTo, conflictsWith) for the corpus.

Options:
  --dir <path>            ADR corpus directory (default: docs/adr)
  --cwd <path>            %s
  --format dot|json       Output format (default: dot)
  --help                  Show this help and exit

Exit codes: 0 = rendered; 2 = usage error (invalid invocation or unreachable corpus directory).
""" % _CWD_HELP.format(command="graph"),
    "explain": """Usage: adrkit-mcp explain <path> [options]

Report which decisions govern one repo-relative path, and why.

A decision reaches a path in two directions. The record declares an "affects" pattern
that matches it ("via path: src/**"), or the file itself declares the record in a
comment ("declared by src/sync.ts:3 (@adr 0012)"). If <path> exists, at most its first
8192 bytes are scanned for dedicated "@adr <id>" comment lines -- the scan stops at the
last complete line inside that bound, and --json reports the extent it reached. A marker
naming a record the corpus does not have is reported as a dangling-marker warning.

Options:
  --dir <path>    ADR corpus directory (default: docs/adr)
  --cwd <path>    %s
  --json          Emit { path, governedBy, governing, activeProposals, history,
                  markers, findings }. Pattern matches carry "firedMatchers";
                  file declarations carry "declaredBy".
  --help          Show this help and exit

Exit codes: 0 = explained; 1 = corpus has error findings;
2 = usage error (invalid invocation or unreachable corpus directory).
""" % _CWD_HELP.format(command="explain"),
    "check": """Usage: adrkit-mcp check <files...> [options]

Report the decisions governing a set of changed files, and validate any changed records.

Options:
  --dir <path>    ADR corpus directory (default: docs/adr)
  --cwd <path>    %s
  --json          Emit the CheckOutcome as JSON
  --help          Show this help and exit

Exit codes: 0 = ok; 1 = a changed record has an error finding;
2 = usage error (invalid invocation or unreachable corpus directory).
""" % _CWD_HELP.format(command="check"),
}


# name, one line for the server's --help, what `adrkit-mcp <name> --help` adds.
_SUBCOMMAND_HELP = (
    ("config", "print the configuration snippet for an MCP client", """\
Prints on stdout the JSON to merge into that client's MCP configuration file;
where the file is, and warnings, go to stderr. Exit status: 0 on a snippet, 1
when the root is not a directory, 2 on a usage error."""),
    ("doctor", "check the root, the ADR folder and the records, then report", """\
Check, in plain sentences with the fix for each problem, everything an MCP
client needs: the Python version, the repository root and its .git, the ADR
directory, the records that load and the findings they raise, the Markdown
files that are not records, and a real handshake with a child server started
exactly as a client config would start it. The first line is the diagnosis.
When the folder is missing or holds no Markdown and a usual one does (doc/adr,
docs/decisions, docs/architecture/decisions, docs/adrs, adr,
architecture/decisions), it names the --dir to use; when the files are MADR or
Nygard (adr-tools) records, it leads with the two ways in (--from madr, or
migrate --from madr) and how many records each gives.

exit status:
  0  a client would work: records load and the child server answered
     (findings are reported, not failed on)
  1  a client would not work: the root or ADR folder cannot be used, the folder
     is missing or empty, no record loads, or the child server did not answer
  2  a command-line error"""),
    ("call", "run one tool call from the command line and print its result", """\
Run one tool once against the corpus and print its structured result as
indented JSON. Tools: get_decision, get_decision_context, list_superseded,
search_decisions. Exit status: 0 on a result, 1 on an input error (isError) or
an unusable corpus, 2 on a usage error.

example: adrkit-mcp call get_decision_context '{"files": ["src/db/pool.ts"]}'"""),
    ("hook", "a coding agent's hook: the decisions about the files it edits", """\
Reads one hook event on stdin from Claude Code, Codex CLI, VS Code, GitHub
Copilot CLI, Gemini CLI, Cursor or Cline (--format names the agent; without it
the event's fields tell), asks get_decision_context about the files the tool
edits and, when decisions concern them, prints that agent's hook answer whose
context names each one (accepted: follow it; rejected: do not propose it
again; superseded: what replaced it). It never blocks the tool and never asks
for permissions. An event for a tool that edits nothing gets no answer (or the
agent's neutral one) at once. The root is --cwd, else $ADRKIT_MCP_CWD, else the
event's folder (its cwd or workspace root), else the agent's project variable.
Exit status: 0 always, also for an event, path or corpus it cannot use (one
line on stderr) and for a usage error, since agents block or deny a tool on
other statuses. `adrkit-mcp config <agent> --hook` prints each agent's entry."""),
    ("migrate", "add adrkit frontmatter to MADR and Nygard records, as `adr migrate` does", """\
Migrate a MADR corpus in place, as the reference CLI's `adr migrate --from madr`
does, byte for byte: each MADR (2, 3, 4) or Nygard (adr-tools) record under the
ADR folder, subfolders included, gets adrkit frontmatter (id, title, status,
date, deciders, provenance) above its unchanged body; README, index,
CONTRIBUTING and template files are left alone. One-way and non-destructive:
each file is replaced whole, never half-written, and a second run reports it
unchanged. Without --rename, files not named NNNN-slug.md stay where they are
(and `--from madr` serves them as the server would after this run); with it,
each moves to <id>-<slug>.md unless that name is taken. Exit status: 0 when
the migration ran (findings are reported, not failed on), 1 when it stopped on
a file it could not read or convert, 2 on a usage error or an unreachable ADR
folder. Its messages and exit statuses are the reference CLI's, word for word:
the ADR they cite (ADR-0008) is a record of the adrkit project, not one of
adrkit-mcp's. --from is always given on the command line ($ADRKIT_MCP_FROM,
which the server and the other commands read, is not read here: migrate
writes)."""),
    ("lint", "validate the ADR folder's records, as `adr lint` does", CLI_HELP["lint"]),
    ("graph", "the decision graph in DOT or JSON, as `adr graph` prints it", CLI_HELP["graph"]),
    ("new", "write a new record from the template, as `adr new` does", CLI_HELP["new"]),
    ("explain", "which decisions govern one path, and why, as `adr explain` says", CLI_HELP["explain"]),
    ("check", "the decisions governing changed files, as `adr check` reports them", CLI_HELP["check"]),
    ("pr-check", "in a GitHub Actions job: the decisions governing a pull request", """\
What this repository's action.yml runs, as the reference's GitHub Action does:
list the pull request's changed files through the GitHub API, run `check` on
them, write the Markdown of the result to the job summary, and create or update
one comment on the pull request (the one whose first line is <!-- adrkit:ci -->).
It reads GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_TOKEN, GITHUB_API_URL,
GITHUB_STEP_SUMMARY and GITHUB_OUTPUT (outputs ok and comment); the token is
sent to $GITHUB_API_URL only (https, or http on a loopback address). A token
that may not comment (401, 403, 404) gets the comment into the job log instead.
Exit status: 0 when no changed ADR record has an error finding (and for an event
that is not a pull request), 1 when one has, or without a token, or on a GitHub
or network error (after the summary is written when there is one), 2 on a
usage error."""),
)


SUBCOMMANDS = tuple(sorted(name for name, _, _ in _SUBCOMMAND_HELP))

class _UsageError(Exception):
    """A command line that does not parse (exit status 2); `parser` gives the usage."""

    def __init__(self, parser: "argparse.ArgumentParser", message: str) -> None:
        Exception.__init__(self, message)
        self.parser = parser
        self.message = message


class _ParserExit(Exception):
    """--help or --version has printed its text: exit with this status."""

    def __init__(self, status: int) -> None:
        Exception.__init__(self, status)
        self.status = status


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so main() returns its status."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(self, message)

    def exit(self, status: int = 0, message: Optional[str] = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise _ParserExit(status)


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Descriptions as written; option help wrapped at 80 columns whatever the terminal."""

    def __init__(self, prog: str) -> None:
        argparse.RawDescriptionHelpFormatter.__init__(self, prog, max_help_position=26, width=80)


def _value(text: str) -> str:
    if not text:
        raise argparse.ArgumentTypeError("needs a non-empty value")
    return text


def _timeout_ms(text: str) -> int:
    if not (text.isdigit() and text.isascii()) or int(text) > MAX_REQUEST_TIMEOUT_MS:
        raise argparse.ArgumentTypeError("needs a whole number of milliseconds from 0 to %d"
                                         % MAX_REQUEST_TIMEOUT_MS)
    return int(text)


def _expose_parts(text: str) -> Tuple[str, ...]:
    """--expose resources,prompts (either alone): the parts, in EXPOSE_PARTS order."""
    parts = [part.strip() for part in _value(text).split(",")]
    unknown = [part for part in parts if part not in EXPOSE_PARTS]
    if unknown:
        raise argparse.ArgumentTypeError("takes %s, or both separated by a comma (got %r)"
                                         % (" or ".join(EXPOSE_PARTS), unknown[0]))
    return tuple(part for part in EXPOSE_PARTS if part in parts)


def _expose_check(options: Any) -> None:
    """--expose, else $ADRKIT_MCP_EXPOSE (empty counts as unset), else nothing (ADR 0015)."""
    if options.expose is None:
        value = os.environ.get(_ENV_EXPOSE) or ""
        try:
            options.expose = _expose_parts(value) if value else ()
        except argparse.ArgumentTypeError as error:
            options.parser.error("$%s %s" % (_ENV_EXPOSE, error))
    if options.expose and getattr(options, "hook", False):
        options.parser.error("--expose is for the server snippets: the hook serves no resources or prompts")


def hook_format_name(text: str) -> str:
    """hook --format: a HOOK_FORMATS name, or the agent id `config <agent> --hook` takes
    (claude-code, copilot-cli, ...), which names the same format."""
    return config_hook_agents[text][0] if text in config_hook_agents else text

MARKERS_ENV_VALUES = {"": False, "0": False, "false": False, "no": False, "off": False,
                      "1": True, "true": True, "yes": True, "on": True}


def _markers_check(options: Any) -> None:
    """--markers, else $ADRKIT_MCP_MARKERS: 1, true, yes or on turn it on; empty, 0, false, no or
    off leave it off; anything else is a usage error (ADR 0020)."""
    if options.markers:
        return
    value = (os.environ.get(ENV_MARKERS) or "").strip().lower()
    if value not in MARKERS_ENV_VALUES:
        options.parser.error("$%s takes 1, true, yes or on (or 0, false, no, off; got %r)"
                             % (ENV_MARKERS, os.environ.get(ENV_MARKERS)))
    options.markers = MARKERS_ENV_VALUES[value]


def _arguments_json(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(
            "the arguments are not JSON (%s); quote them for your shell, e.g. '{\"ref\": \"0001\"}'"
            % error) from None


def _new_parser(prog: str, usage: str, description: str, epilog: Optional[str] = None) -> _Parser:
    parser = _Parser(prog=prog, usage=usage, description=description, epilog=epilog,
                     formatter_class=_HelpFormatter, add_help=False, allow_abbrev=False)
    return parser


_ROOT_HELP = ("repository root: a directory with a .git entry (default: $%s, else the working "
              "directory)" % ENV_CWD)


class _Flag(NamedTuple):
    """One flag of the command line: its spellings and what argparse's add_argument is told."""

    names: Tuple[str, ...]
    settings: Dict[str, Any]


class _Command(NamedTuple):
    """One command: its usage line, positional arguments, flags (by name, or (name, help) where a
    command words a flag's help its own way), the function that runs it and the check that
    follows parsing."""

    usage: str
    positionals: Tuple[Tuple[str, Dict[str, Any]], ...]
    flags: Tuple[Any, ...]
    run: Optional[Callable[[Any], int]]
    check: Optional[Callable[[Any], None]] = None
    # True for a command of the reference CLI (lint, graph, new...): its command line is read as
    # the reference reads it (_reference_parse), its help is CLI_HELP's (ADR 0019).
    reference: bool = False


def _flags() -> Dict[str, _Flag]:
    """Every flag any command takes, each described once."""
    return {
        "cwd": _Flag(("--cwd",), dict(metavar="PATH", type=_value, help=_ROOT_HELP)),
        "dir": _Flag(("--dir",), dict(
            metavar="PATH", type=_value,
            help="ADR folder, relative to the root and inside it (default: $%s, else %s)"
                 % (ENV_DIR, DEFAULT_ADR_DIR))),
        "request-timeout-ms": _Flag(("--request-timeout-ms",), dict(
            metavar="N", type=_timeout_ms, default=DEFAULT_REQUEST_TIMEOUT_MS,
            help="answer a tool call still running after N ms with error -32603 and drop its "
                 "result; 0 disables (default: %d)" % DEFAULT_REQUEST_TIMEOUT_MS)),
        "version": _Flag(("--version",), dict(
            action="version", version="%s %s" % (SERVER_NAME, SERVER_VERSION),
            help="print the version and exit")),
        "list": _Flag(("--list",), dict(
            action="store_true", help="list the clients and where their configuration lives")),
        "all": _Flag(("--all",), dict(
            action="store_true",
            help="every client's snippet, as one JSON object keyed by client id")),
        "portable": _Flag(("--portable",), dict(
            action="store_true",
            help="a team config for the project-scoped clients (claude-code, vscode, cursor): the "
                 "program by its path inside the repository, python3 from PATH, no absolute path "
                 "of this machine (automatic when a .pyz inside the repository runs this)")),
        "hook": _Flag(("--hook",), dict(
            action="store_true",
            help="the agent's hook entry instead of its MCP server entry: the command (adrkit-mcp "
                 "hook) that tells the agent which decisions concern a file when it edits it, "
                 "for %s" % ", ".join(CONFIG_HOOK_AGENTS))),
        "format": _Flag(("--format",), dict(
            metavar="AGENT", choices=HOOK_FORMAT_NAMES, type=hook_format_name,
            help="the agent whose event arrives and whose answer to print: %s, or the id "
                 "`config` takes (%s) (default: told from the event's fields)"
                 % (", ".join(HOOK_FORMAT_NAMES), ", ".join(CONFIG_HOOK_AGENTS)))),
        "from": _Flag(("--from",), dict(
            metavar="FORMAT", type=_value, dest="source",
            help="read the ADR folder as `adrkit-mcp migrate --from FORMAT` would leave it, "
                 "writing nothing; FORMAT is madr (MADR 2-4 and Nygard/adr-tools Markdown) "
                 "(default: $%s, else the folder holds adrkit records)" % ENV_FROM)),
        "dry-run": _Flag(("--dry-run",), dict(
            action="store_true", help="report what would change without writing")),
        "rename": _Flag(("--rename",), dict(
            action="store_true",
            help="rename each migrated file to <id>-<slug>.md so corpus discovery can see it")),
        "json": _Flag(("--json",), dict(action="store_true", help="print the result as JSON")),
        "status": _Flag(("--status",), dict(metavar="STATUS", help="the new record's status (default: draft)")),
        "help": _Flag(("-h", "--help"), dict(action="help", help="print this help and exit")),
        "markers": _Flag(("--markers",), dict(
            action="store_true",
            help="also name the decisions a file declares in an `@adr <id>` comment of its first "
                 "8,192 bytes (get_decision_context's declaredBy, the context prompts, the hook); "
                 "reads that much of each file asked about (default: $%s=1, else off; ADR 0020)"
                 % ENV_MARKERS)),
        "expose": _Flag(("--expose",), dict(
            metavar="PARTS", type=_expose_parts,
            help="also serve the decisions as MCP resources and prompts: resources, prompts, or "
                 "resources,prompts (default: $%s, else neither; ADR 0015)" % _ENV_EXPOSE)),
    }


def _commands() -> Dict[str, _Command]:
    """The server ("") and each subcommand."""
    return {
        "": _Command(_server_usage(), (), ("cwd", "dir", "from", "request-timeout-ms", "expose", "markers",
                                         "version", "help"), None, check_source),
        "config": _Command(
            "adrkit-mcp config <client> [--cwd PATH] [--dir PATH] [--portable] [--expose PARTS] [--markers]\n"
            "       adrkit-mcp config <agent> --hook [--cwd PATH] [--dir PATH] [--portable] [--markers]\n"
            "       adrkit-mcp config --all [--cwd PATH] [--dir PATH] [--portable] [--expose PARTS] [--markers]\n"
            "       adrkit-mcp config --list",
            (("client", dict(nargs="?", help=argparse.SUPPRESS)),),
            ("list", "all", "portable", "hook",
             ("cwd", "repository root the server reads (default: $%s, else the working "
                     "directory; VS Code gets ${workspaceFolder} unless --cwd is given)" % ENV_CWD),
             "dir", "from", "expose", "markers", "help"),
            command_config, config_check),
        "doctor": _Command("adrkit-mcp doctor [--cwd PATH] [--dir PATH] [--from madr] [--expose PARTS] [--markers]",
                           (), ("cwd", "dir", "from", "expose", "markers", "help"), command_doctor, check_source),
        "call": _Command(
            "adrkit-mcp call <tool> '<json arguments>' [--cwd PATH] [--dir PATH] [--from madr] [--markers]",
            (("tool", dict(choices=sorted(TOOLS), metavar="tool",
                           help="one of: %s" % ", ".join(sorted(TOOLS)))),
             ("arguments", dict(type=_arguments_json, metavar="json arguments",
                                help="the tool's arguments as one JSON object"))),
            ("cwd", "dir", "from", "markers", "help"), command_call, check_source),
        "hook": _Command(
            "adrkit-mcp hook [--format AGENT] [--cwd PATH] [--dir PATH] [--from madr] [--markers] < event.json",
            (), ("format", ("cwd", "repository root (default: $%s, else the event's folder, else the "
                                   "agent's project variable)" % ENV_CWD), "dir", "from", "markers", "help"),
            command_hook, check_source),
        "migrate": _Command(
            "adrkit-mcp migrate --from madr [--cwd PATH] [--dir PATH] [--dry-run] [--rename] [--json]",
            (("extra", dict(nargs="*", help=argparse.SUPPRESS)),),
            # --from and --dir take an empty value, as the reference's parseArgs does.
            (("from", "the format the records are in: madr (MADR 2-4 and Nygard/adr-tools); "
                      "required, as in `adr migrate` ($%s is not read here)" % ENV_FROM, {"type": str}),
             ("cwd", "the folder to run in, as `cd PATH && adr migrate ...` would (default: "
                     "$%s, else the working directory)" % ENV_CWD),
             ("dir", None, {"type": str}), "dry-run", "rename", "json", "help"),
            command_migrate, migrate_check),
        "lint": _Command("adrkit-mcp lint [paths...] [--json] [--cwd PATH] [--dir PATH]", (),
                         ("json", "dir", "cwd"), command_lint, None, True),
        "graph": _Command("adrkit-mcp graph [--format dot|json] [--cwd PATH] [--dir PATH]", (),
                          ("dir", ("format", "dot or json (default: dot)", {"choices": None}), "cwd"),
                          command_graph, graph_check, True),
        "new": _Command("adrkit-mcp new <title> [--status S] [--json] [--cwd PATH] [--dir PATH]", (),
                        ("json", "dir", "status", "cwd"), command_new, new_check, True),
        "explain": _Command("adrkit-mcp explain <path> [--json] [--cwd PATH] [--dir PATH]", (),
                            ("json", "dir", "cwd"), command_explain, explain_check, True),
        "check": _Command("adrkit-mcp check <files...> [--json] [--cwd PATH] [--dir PATH]", (),
                          ("json", "dir", "cwd"), command_check, None, True),
        "pr-check": _Command("adrkit-mcp pr-check [--cwd PATH] [--dir PATH]", (),
                             ("cwd", "dir", "help"), command_pr_check),
    }


def _add_command(parser: _Parser, command: _Command) -> None:
    """Give `parser` the command's positional arguments and flags, as its table row says."""
    parser.usage = command.usage
    for name, settings in command.positionals:
        parser.add_argument(name, **settings)
    group = parser.add_argument_group("options")
    flags = _flags()
    for entry in command.flags:  # a name, or (name, help in the command's words, other settings)
        name, wording, changes = (tuple(entry) + (None, None))[:3] if isinstance(entry, tuple) \
            else (entry, None, None)
        flag = flags[name]
        settings = dict(flag.settings, **(changes or {}))
        if wording:
            settings["help"] = wording
        group.add_argument(*flag.names, **settings)
    parser.set_defaults(run=command.run, check=command.check, parser=parser)


def _command_line() -> _Parser:
    """The parser of `adrkit-mcp ...`, with one subparser per subcommand."""
    listing = "".join("  %-8s %s\n" % (name, summary) for name, summary, _ in _SUBCOMMAND_HELP)
    parser = _new_parser(SERVER_NAME, _server_usage(), _SERVER_DESCRIPTION,
                         _SERVER_EPILOG % (listing, _environment_help()))
    table = _commands()
    _add_command(parser, table[""])
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", prog=SERVER_NAME,
                                     parser_class=_Parser, help=argparse.SUPPRESS)
    for name, summary, description in _SUBCOMMAND_HELP:
        if name == "config":
            description = "clients: %s\n\n%s" % (
                ", ".join(client_id for client_id, _, _ in config_clients), description)
        sub = commands.add_parser(name, help=summary, description=description,
                                  formatter_class=_HelpFormatter, add_help=False,
                                  allow_abbrev=False)
        _add_command(sub, table[name])
    return parser


def _parse(args: List[str], subcommand: Optional[str]) -> Any:
    """The parsed command line (a Namespace), or the exit status when parsing ends the run."""
    parser = _command_line()
    try:
        options, extras = parser.parse_known_args(args)
        if extras:  # reported by the parser that owns the command, with its own usage
            options.parser.error("unrecognized arguments: %s" % " ".join(extras))
        if options.command != subcommand:
            parser.error("give the subcommand first: adrkit-mcp %s ..." % options.command)
        if options.check is not None:
            options.check(options)
        if "expose" in vars(options):  # a flag that the environment may give (ADR 0015)
            _expose_check(options)
        if "markers" in vars(options):  # and another (ADR 0020)
            _markers_check(options)
        return options
    except _ParserExit as done:
        return done.status
    except _UsageError as error:
        return _usage_error(error)

MIGRATE_PROG = "adrkit-mcp migrate"


def _usage_error(error: _UsageError) -> int:
    """Write a usage error: our usage line, the complaint, where help is; exit status 2."""
    prog = error.parser.prog
    message = _node_usage(error.message) if prog == MIGRATE_PROG else error.message
    sys.stderr.write("%s%s: error: %s\nTry '%s --help' for more information.\n"
                     % (error.parser.format_usage(), prog, message, prog))
    return 2


def _reference_parse(name: str, command: _Command, argv: List[str]) -> Any:
    """A reference command's command line, read as @adrkit/cli 0.8.0 reads it: `--help` or `-h`
    anywhere prints the command's help (exit 0); otherwise Node's util.parseArgs (strict) over
    the row's flags, then the row's check. The options (a Namespace), or the exit status."""
    if any(arg in ("--help", "-h") for arg in argv):
        sys.stdout.write(CLI_HELP[name])
        return 0
    parser = _new_parser("%s %s" % (SERVER_NAME, name), command.usage, "")
    flags, kinds, options = _flags(), {}, argparse.Namespace(command=name, parser=parser, argv=argv,
                                                             run=command.run)
    for entry in command.flags:
        flag = entry[0] if isinstance(entry, tuple) else entry
        boolean = flags[flag].settings.get("action") == "store_true"
        kinds[flag] = "boolean" if boolean else "string"
        setattr(options, flags[flag].settings.get("dest", flag.replace("-", "_")), False if boolean else None)
    try:
        try:
            values, options.positionals = JS.parse_args(argv, kinds)
        except JS.ParseArgsError as error:
            raise _UsageError(parser, str(error))
        for flag, value in values.items():
            setattr(options, flags[flag].settings.get("dest", flag.replace("-", "_")), value)
        if getattr(options, "cwd", None) == "":
            parser.error(CLI_MESSAGES["cwd-empty"])
        if command.check is not None:
            command.check(options)
    except _UsageError as error:
        return _usage_error(error)
    return options

# How the reference's parser (Node's util.parseArgs) words what argparse reports about migrate's
# command line: (argparse's message, as a pattern; Node's, with the pattern's groups).
NODE_USAGE_MESSAGES = (
    (r"argument (--[\w-]+): expected one argument\Z", "Option '{0} <value>' argument missing"),
    (r"unrecognized arguments: (-\S*)", "Unknown option '{0}'. To specify a positional argument "
                                         "starting with a '-', place it at the end of the command "
                                         "after '--', as in '-- \"{0}\""),
    (r"unrecognized arguments: ", MIGRATE_MESSAGES["positional"]),
    (r"argument (--[\w-]+): ignored explicit argument ", "Option '{0}' does not take an argument"),
)


def _node_usage(message: str) -> str:
    """An argparse complaint about `migrate`'s command line, in the words of the reference's
    parser (Node's util.parseArgs): a missing value, an unknown option, a value for a switch."""
    for pattern, template in NODE_USAGE_MESSAGES:
        match = re.match(pattern, message)
        if match:
            return template.format(*match.groups())
    return message


def location(options: Any) -> Tuple[Optional[str], Optional[str]]:
    """(root, ADR folder): the flag, else the environment (empty counts as unset), else None."""
    return (options.cwd or os.environ.get(ENV_CWD) or None,
            options.dir or os.environ.get(ENV_DIR) or None)


def unusable_text(reason: str, root: str, adr_dir: str) -> str:
    """What our commands say on stderr of a root or ADR folder they cannot use: the sentence,
    the path, the fix and, for a missing folder, the usual one that holds Markdown."""
    usual = usual_adr_folder(root, adr_dir) if reason == "dir-not-found" else None
    return corpus_unavailable_text(reason, root, adr_dir, usual)


def corpus_location(options: Any) -> Tuple[str, str]:
    """location with the defaults filled in: the working directory and docs/adr."""
    cwd, adr_dir = location(options)
    return cwd or os.getcwd(), adr_dir or DEFAULT_ADR_DIR


def main(argv: Optional[List[str]] = None) -> int:
    """The adrkit-mcp command; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in SUBCOMMANDS:
        return run_subcommand(args[0], args[1:])
    options = _parse(args, None)
    if isinstance(options, int):
        return options
    cwd, adr_dir = location(options)
    return run_server(cwd, adr_dir, options.request_timeout_ms, options.expose, source_format(options),
                      options.markers)


def run_subcommand(name: str, argv: List[str]) -> int:
    """`adrkit-mcp <name> ...` for a name in SUBCOMMANDS; returns the exit status."""
    command = _commands()[name]
    options = (_reference_parse(name, command, list(argv)) if command.reference
               else _parse([name] + list(argv), name))
    if isinstance(options, int):
        if name == "hook" and options == 2:  # agents block or deny on any other status
            return hook_usage_error(list(argv))
        return options
    return options.run(options)


def command_call(options: Any) -> int:
    """`adrkit-mcp call <tool> '<json arguments>'`: one tool call, its result as JSON on stdout."""
    cwd, adr_dir = corpus_location(options)
    tool, arguments = options.tool, options.arguments
    config = CorpusConfig(cwd, adr_dir, source=source_format(options), markers=options.markers)
    problem = check_roots(config)
    if problem is not None:
        sys.stderr.write("adrkit-mcp: %s\n" % unusable_text(problem[0], cwd, adr_dir))
        return 1
    result = call_tool(config, tool, arguments)
    if result.get("isError"):
        sys.stderr.write("adrkit-mcp: %s\n" % result["content"][0]["text"])
        return 1
    sys.stdout.write(json.dumps(result["structuredContent"], indent=2, ensure_ascii=False) + "\n")
    outcome = result["structuredContent"]["result"]["outcome"]
    return 1 if outcome == "corpus-unavailable" else 0


# ---------------------------------------------------------------------------
# 11. Doctor: `adrkit-mcp doctor`, what stands between a set-up and a working server
# ---------------------------------------------------------------------------


class _Report:
    """What doctor says, kept until the end so that its first line can be the diagnosis: the
    headline, the lead (what to do first), then one line per check, each with one label."""

    def __init__(self) -> None:
        self.failed = False
        self.first_failure = ""
        self.lead: List[str] = []
        self.lines: List[str] = []

    def ok(self, sentence: str) -> None:
        self.lines.append("ok    %s" % sentence)

    def note(self, sentence: str) -> None:
        self.lines.append("note  %s" % sentence)

    def line(self, text: str) -> None:
        self.lines.append(text)

    def fail(self, sentence: str, fix: str, headline: Optional[str] = None) -> None:
        """A FAIL line; `headline` is how the first line says it, when it says it otherwise."""
        if not self.failed:
            self.first_failure = headline or sentence
        self.failed = True
        self.lines.append("FAIL  %s\n      fix: %s" % (sentence, fix))

    def finish(self, headline: str, closing: str) -> int:
        """Print everything, the headline first; the exit status (1 when a check failed)."""
        verdict = "would not work" if self.failed else "would work"
        if self.failed and self.first_failure not in headline:
            headline += ", but %s" % self.first_failure
        sys.stdout.write("".join("%s\n" % line for line in
                                 ["doctor: a client %s: %s" % (verdict, headline)] + self.lead + self.lines))
        if self.failed:
            sys.stdout.write("A client would not work yet: fix the FAIL lines above.\n")
            return 1
        sys.stdout.write(closing)
        return 0


def server_launch_command() -> List[str]:
    """The absolute command a client config must run to start this server."""
    program = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if program.endswith(".pyz") and os.path.isfile(program):
        return [sys.executable, program]
    module_file = os.path.abspath(__file__)
    if os.path.isfile(module_file) and not module_file.endswith(".pyz"):
        if os.path.basename(program) == "adrkit-mcp" and os.path.isfile(program):
            return [program]
        return [sys.executable, module_file]
    return [sys.executable, program]


def command_doctor(options: Any) -> int:
    """`adrkit-mcp doctor`: check what a client needs, each problem with its fix; the first line
    is the diagnosis. Exit status 0 when a client would work (records load and a child server
    answers), 1 when it would not (an unusable root or folder, no record, no answer)."""
    cwd, adr_dir = corpus_location(options)
    report = _Report()
    _doctor_python(report)
    try:
        canonical_root, canonical_dir = resolve_canonical_roots(cwd, adr_dir)
    except CorpusUnavailable as error:
        return report.finish(_doctor_unusable(report, error.reason, cwd, adr_dir), "")
    report.ok("repository root %s has a .git entry" % canonical_root)
    report.ok("ADR directory %s is inside the root" % canonical_dir)
    source = source_format(options)
    try:
        projection = load_projection(CorpusConfig(cwd, adr_dir, canonical_root, source))
    except CorpusUnavailable as error:
        report.fail(CORPUS_UNAVAILABLE_MESSAGES[error.reason], "run doctor again")
        return report.finish("the records changed while doctor read them", "")
    outside = _markdown_outside_the_corpus(canonical_root, canonical_dir)
    madr = _doctor_madr(report, canonical_root, canonical_dir, adr_dir, source, projection, bool(outside))
    headline = _doctor_records(report, canonical_root, canonical_dir, adr_dir, projection, madr)
    _doctor_findings(report, canonical_root, projection, madr)
    if source is None:
        for path, why in outside:
            report.note("%s is not read as a record: %s" % (path, why))
    _doctor_handshake(report, options, canonical_root, adr_dir)
    if options.expose:  # ADR 0015
        _doctor_expose(report, options, canonical_root, adr_dir)
    _doctor_hook(report, options, canonical_root, adr_dir, projection)
    _doctor_markers(report, options, canonical_root, projection)
    return report.finish(headline, "A client configured with --cwd %s --dir %s would work.\n" % (
        canonical_root, " ".join([adr_dir] + config_args(options, None, None))))


def _doctor_python(report: "_Report") -> None:
    version = "%d.%d.%d" % sys.version_info[:3]
    if sys.version_info >= (3, 9):
        report.ok("Python %s at %s" % (version, sys.executable))
    else:
        report.fail("Python %s is too old" % version, "run the server with Python 3.9 or newer")


def _doctor_unusable(report: "_Report", reason: str, cwd: str, adr_dir: str) -> str:
    """The FAIL line of a root or ADR folder that cannot be used; the headline."""
    root = os.path.abspath(cwd)
    usual = usual_adr_folder(root, adr_dir) if reason == "dir-not-found" else None
    fix = CORPUS_UNAVAILABLE_FIXES.get(reason, "check the configuration")
    if usual is not None:
        fix = "the records seem to be in %s (%d Markdown %s): run adrkit-mcp doctor --dir %s" % (
            usual, markdown_count(os.path.join(root, usual)),
            plural(markdown_count(os.path.join(root, usual)), "file", "files"), usual)
    where = ("the ADR folder %s %s" % (adr_dir, _DOCTOR_UNUSABLE[reason]) if reason.startswith("dir-")
             else "the repository root %s %s" % (root, _DOCTOR_UNUSABLE[reason]))
    if reason == "dir-not-found":
        where += " in %s" % root
    headline = where + ("; your records seem to be in %s: add --dir %s" % (usual, usual) if usual else "")
    report.fail("%s (--cwd %s, --dir %s)" % (CORPUS_UNAVAILABLE_MESSAGES[reason], cwd, adr_dir), fix, headline)
    return headline


# doctor's first line on a root or ADR folder that cannot be used, after "the ... ROOT|DIR".
_DOCTOR_UNUSABLE = {
    "root-not-found": "does not exist", "root-not-directory": "is not a folder",
    "root-not-readable": "cannot be read by this user",
    "root-not-git": "is not the top of a Git work tree (it has no .git)",
    "dir-not-found": "does not exist", "dir-not-directory": "is not a folder",
    "dir-not-readable": "cannot be read by this user",
    "dir-outside-root": "leads outside the repository",
}


class _DoctorMadr(NamedTuple):
    """What doctor learnt of the MADR and Nygard files in the folder (no --from madr)."""

    paths: FrozenSet[str]   # the files the tools skip that read as MADR or Nygard records
    records: int            # records served with --from madr, and after migrate without --rename
    renamed: int            # records after migrate --rename


def _doctor_records(report: "_Report", canonical_root: str, canonical_dir: str, adr_dir: str,
                    projection: "Projection", madr: Optional[_DoctorMadr]) -> str:
    """The line on how many records load (a FAIL when none does); the headline."""
    count = projection.record_count
    if count:
        report.ok("%d %s; %d candidate %s excluded" % (
            count, plural(count, "record loads", "records load"), projection.excluded_count,
            plural(projection.excluded_count, "file is", "files are")))
        headline = "%d %s from %s" % (count, plural(count, "record loads", "records load"), adr_dir)
        listed = [finding for finding in projection.findings
                  if madr is None or finding.get("path") not in madr.paths]
        if listed:
            headline += " (%s)" % _findings_count(listed)
        if madr is not None:
            headline += "; %d more Markdown %s there read as MADR or Nygard records the tools skip " \
                        "(two ways in below)" % (len(madr.paths), plural(len(madr.paths), "file", "files"))
        return headline
    usual = usual_adr_folder(canonical_root, canonical_dir)
    markdown = markdown_count(canonical_dir)
    if madr is not None:
        what = "its Markdown reads as MADR or Nygard records, without adrkit frontmatter"
        fix = "take one of the two ways in above"
    elif markdown == 0 and not projection.excluded_count:
        what = "the folder holds no Markdown file"
        fix = "add a record (NNNN-slug.md with adrkit frontmatter; see docs/adr in adrkit-mcp's " \
              "repository for examples), or point --dir at the folder that holds them"
    else:
        what = "every candidate file has findings (below)"
        fix = "fix the findings below"
    if usual is not None and madr is None:
        fix = "the records seem to be in %s: run adrkit-mcp doctor --dir %s" % (usual, usual)
    headline = "no record loads from %s: %s" % (adr_dir, what) + (
        "; your records seem to be in %s: add --dir %s" % (usual, usual) if usual is not None and madr is None else "")
    report.fail("no record loads from %s: %s" % (adr_dir, what), fix, headline)
    return headline


def _findings_count(findings: List[Finding]) -> str:
    """'3 findings: 2 errors, 1 warning' by severity."""
    counts: Dict[str, int] = {}
    for finding in findings:
        counts[finding["severity"]] = counts.get(finding["severity"], 0) + 1
    return "%d %s: %s" % (len(findings), plural(len(findings), "finding", "findings"), ", ".join(
        "%d %s" % (counts[name], plural(counts[name], name, name + "s"))
        for name in ("error", "warning", "info") if name in counts))


# One label per finding line: the finding's own severity.
_DOCTOR_SEVERITY = {"error": "error", "warning": "warn", "info": "info"}


def _doctor_findings(report: "_Report", canonical_root: str, projection: "Projection",
                     madr: Optional[_DoctorMadr]) -> None:
    """The findings grouped by rule, each line with its file, field and bad value, then the fix.
    The findings of files that read as MADR or Nygard are counted, not listed (the two ways in
    say what to do with them)."""
    shown = [finding for finding in projection.findings
             if madr is None or finding.get("path") not in madr.paths]
    hidden = len(projection.findings) - len(shown)
    if hidden:
        report.note("%d %s on the MADR or Nygard files not listed: they are what such a file gives "
                    "without adrkit frontmatter" % (hidden, plural(hidden, "finding", "findings")))
    by_rule: Dict[Tuple[str, str], List[Finding]] = {}
    for finding in shown:
        by_rule.setdefault((finding["rule"], finding["severity"]), []).append(finding)
    values: Dict[str, Any] = {}
    for rule, severity in sorted(by_rule, key=lambda key: (utf16_key(key[0]), key[1])):
        group = by_rule[(rule, severity)]
        report.line("%-5s %d %s %s:" % (_DOCTOR_SEVERITY.get(severity, severity), len(group), rule,
                                        plural(len(group), "finding", "findings")))
        for finding in group[:20]:
            report.line("        %s" % _doctor_finding_line(canonical_root, finding, values))
        if len(group) > 20:
            report.line("        ... and %d more" % (len(group) - 20))
        report.line("      fix: %s" % _finding_fix(rule))


def _doctor_finding_line(canonical_root: str, finding: Finding, values: Dict[str, Any]) -> str:
    """'path: field = value: message' (field 'missing' when absent); the value read from the
    file's frontmatter as written."""
    where = finding.get("path") or finding.get("id") or ""
    field = finding.get("field")
    if not field or field == "frontmatter" or not finding.get("path"):
        return "%s: %s" % (where, finding["message"])
    path = finding["path"]
    if path not in values:
        values[path] = _doctor_frontmatter(canonical_root, path)
    value: Any = values[path]
    for part in field.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return "%s: %s missing: %s" % (where, field, finding["message"])
    shown = json.dumps(value, ensure_ascii=False, default=str)
    if len(shown) > 80:
        shown = shown[:77] + "..."
    return "%s: %s = %s: %s" % (where, field, shown, finding["message"])


def _doctor_frontmatter(canonical_root: str, path: str) -> Any:
    """A record file's frontmatter as a value, or None when it cannot be read or parsed."""
    try:
        with open(os.path.join(canonical_root, *path.split("/")), "rb") as handle:
            text = handle.read(MAX_SOURCE_BYTES + 1).decode("utf-8", "replace")
        return FrontmatterYaml.load(split_frontmatter(text)[0])
    except Exception:  # a value for the line only: the finding itself says what is wrong
        return None


_FINDING_FIXES = {
    "frontmatter-fence": "start the file with a line that is exactly --- (no BOM, no blank line, "
                         "no trailing space) and close the frontmatter with another --- line",
    "frontmatter-parse": "fix the YAML between the two --- lines (the message says where)",
    "file-read": "make the file readable, and check its YAML anchors and aliases",
    "record-too-large": "keep each record under 64 KiB: move long material to a linked document",
    "record-stat-error": "make the record a regular, readable file inside the ADR folder",
    "unique-id": "give each record its own id (and file number)",
    "strict-unknown-key": "remove or rename the field: schema v0.1.0 allows no other keys",
    "required-field": "add the missing field (id, title, status and date are required)",
    "import-incomplete": "add the deciders once they are known",
    "accepted-conflictsWith": "nothing to fix if the conflict is intended; otherwise resolve it",
    "affects-unresolvable": "nothing to fix: such matchers are inert on this server",
    "affects-bad-pattern": "write path globs relative to the repository root, package matchers as "
                           "name or name@<semver range>",
}


def _finding_fix(rule: str) -> str:
    if rule in _FINDING_FIXES:
        return _FINDING_FIXES[rule]
    if rule.startswith("dangling-"):
        return "point the reference at an existing record id, or remove it"
    if rule in CROSS_FIELD_RULES:
        return CROSS_FIELD_RULES[rule][0]
    return "correct the field named in each finding to match schema v0.1.0"


def _markdown_outside_the_corpus(canonical_root: str, canonical_dir: str,
                                 depth_limit: int = 8) -> List[Tuple[str, str]]:
    """Markdown files under the ADR dir that the tools silently skip, with the reason."""
    found = []

    def walk(folder: str, depth: int) -> None:
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: utf16_key(entry.name))
        except OSError:
            return
        for entry in entries:
            path = os.path.relpath(entry.path, canonical_root).replace(os.sep, "/")
            if entry.is_dir(follow_symlinks=False):
                if not entry.name.startswith(".") and depth < depth_limit:
                    walk(entry.path, depth + 1)
                continue
            if not entry.name.lower().endswith(".md"):
                continue
            if entry.is_symlink():
                found.append((path, "it is a symlink, and records must be regular files"))
            elif depth > 0:
                found.append((path, "it is in a subfolder; records live directly in the ADR directory"))
            elif entry.name.startswith("."):
                found.append((path, "it is a dotfile"))
            elif is_conventional_name(entry.name):
                found.append((path, "conventional documentation, not a record (as intended)"))
            elif not is_record_file_name(entry.name):
                found.append((path, "its name is not NNNN-slug.md (four or more digits, a dash, "
                                    "a slug, lower-case .md)"))
    walk(canonical_dir, 0)
    return found

# What doctor says of a folder whose Markdown reads as MADR or Nygard but not as adrkit records:
# the lead, then the two ways in, each with the records it gives (ADR 0017, ADR 0022).
DOCTOR_MADR_HINT = (
    "{count} Markdown {count_files} in {dir} read as MADR or Nygard (adr-tools) records, which the "
    "tools skip for want of adrkit frontmatter. Two ways in:")

DOCTOR_MADR_WAYS = (
    "  --from madr           serve them as they are, writing nothing: {records} {records_word} "
    "(`adrkit-mcp doctor --dir {dir} --from madr`, then `adrkit-mcp config <client> --dir {dir} "
    "--from madr`)",
    "  migrate --from madr   add the frontmatter to the files for good: {records} {records_word}"
    "{renamed} (`adrkit-mcp migrate --from madr --dir {dir} --dry-run` shows what it would do)",
)


def _doctor_madr(report: "_Report", canonical_root: str, canonical_dir: str, adr_dir: str,
                 source: Optional[str], projection: "Projection", outside: bool) -> Optional[_DoctorMadr]:
    """MADR and Nygard folders: without --from madr, the two ways in lead the report, each with
    the records it gives; with it, what `migrate --from madr` would report (the tools' answers
    stay the reference's). The MADR files found (None when there are none, or with --from madr)."""
    unfenced = any(finding["rule"] == "frontmatter-fence" for finding in projection.findings)
    if source is None and not (unfenced or outside):
        return None
    found = MigrateFolder(canonical_root, canonical_dir)
    try:
        names = walk_madr_candidates(canonical_dir, found.visit)
    except WalkFailed as error:
        report.note("the ADR folder's subfolders cannot all be listed (%s): migrate --from madr "
                    "would find nothing to migrate" % error)
        return None
    run = MadrImport.migrate(found.files, names, False, lambda file, name: False,
                             lambda file, text, name: None)
    converted = [result for result in run.results if result["outcome"] in ("migrated", "updated")]
    if source is None:
        madr = _doctor_madr_files(projection, converted)
        if not madr:
            return None
        seen = load_projection(CorpusConfig(canonical_root, adr_dir, canonical_root, "madr"))
        unnamed = sum(1 for result in converted if result["path"] in madr
                      and not is_record_file_name(result["path"].rsplit("/", 1)[-1]))
        renamed = " (%d with --rename, which names the files NNNN-slug.md)" % (seen.record_count + unnamed) \
            if unnamed else ""
        words = dict(count=len(madr), count_files=plural(len(madr), "file", "files"), dir=adr_dir,
                     records=seen.record_count, records_word=plural(seen.record_count, "record", "records"),
                     renamed=renamed)
        report.lead.append(DOCTOR_MADR_HINT.format(**words))
        report.lead.extend(way.format(**words) for way in DOCTOR_MADR_WAYS)
        return _DoctorMadr(frozenset(madr), seen.record_count, seen.record_count + unnamed)
    if run.crashed is not None:
        report.note("migrate --from madr would stop with %r; the files after that one are read as "
                    "they are" % run.crashed)
    report.ok("--from madr: %d of %d Markdown %s read as MADR or Nygard records"
              % (len(converted), len(run.results), plural(len(run.results), "file", "files")))
    for finding in run.findings:
        if finding["rule"] != "import-incomplete":
            report.note("migrate would report for %s: %s" % (finding["path"], finding["message"]))
    return None


def _doctor_madr_files(projection: "Projection", converted: List[Dict[str, Any]]) -> List[str]:
    """The files migrate would convert that the tools skip for want of adrkit frontmatter: no
    frontmatter at all (a fence finding), frontmatter without an id (MADR 3 and 4), or a name
    discovery does not read. A record with adrkit frontmatter and a finding is not one of them."""
    loaded = {record.path for record in projection.records}
    by_path: Dict[str, List[Finding]] = {}
    for finding in projection.findings:
        by_path.setdefault(finding.get("path") or "", []).append(finding)
    found = []
    for result in converted:
        path = result["path"]
        findings = by_path.get(path)
        if path in loaded:
            continue
        if findings is None or any(finding["rule"] == "frontmatter-fence"
                                   or (finding["rule"] == "required-field" and finding.get("field") == "id")
                                   for finding in findings):
            found.append(path)
    return found


def _doctor_handshake(report: _Report, options: argparse.Namespace, canonical_root: str, adr_dir: str) -> None:
    """Start a child server as a client config would and talk to it in both eras."""
    import subprocess
    command = server_launch_command() + config_args(options, canonical_root, adr_dir)
    modern_meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                   "io.modelcontextprotocol/clientCapabilities": {}}
    sessions = (
        ("legacy handshake (2025-11-25)", [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "adrkit-mcp-doctor", "version": SERVER_VERSION}}},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]),
        ("modern server/discover + tools/list (2026-07-28)", [
            {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": modern_meta}},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": modern_meta}}]),
    )
    for label, messages in sessions:
        payload = "".join(json.dumps(message) + "\n" for message in messages)
        try:
            child = subprocess.run(command, input=payload.encode("utf-8"), stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as error:
            report.fail("could not run %s: %s" % (" ".join(command), error),
                        "check that the interpreter and the program path exist and are executable")
            continue
        answers: Dict[Any, Dict[str, Any]] = {}
        for line in child.stdout.decode("utf-8", "replace").splitlines():
            _doctor_answer(line, answers)
        tools = answers.get(2, {}).get("result", {}).get("tools", [])
        if 1 in answers and "result" in answers[1] and len(tools) == len(TOOLS):
            report.ok("%s: the child server answered and lists %d tools" % (label, len(tools)))
        else:
            report.fail("%s failed (exit %s): %s" % (label, child.returncode,
                                                     child.stderr.decode("utf-8", "replace").strip()[:300]),
                        "run the command by hand to see why: %s" % " ".join(command))


def _doctor_answer(line: str, answers: Dict[Any, Dict[str, Any]]) -> None:
    """Keep a child server's answer (a JSON object with an id) under its id; skip anything else."""
    try:
        message = json.loads(line)
    except ValueError:
        return
    if isinstance(message, dict) and "id" in message:
        answers[message["id"]] = message


def _doctor_expose_requests(parts: Sequence[str]) -> List[Tuple[int, str, Dict[str, Any]]]:
    """(id, method, params) of what --expose serves: list the resources, read the index, list
    the prompts (ADR 0015)."""
    requests = []
    if "resources" in parts:
        requests += [(2, "resources/list", {}), (3, "resources/read", {"uri": DECISIONS_URI})]
    if "prompts" in parts:
        requests.append((4, "prompts/list", {}))
    return requests


def _doctor_expose(report: "_Report", options: Any, canonical_root: str, adr_dir: str) -> None:
    """Start a child server with --expose and, in both eras, list and read what it serves.

    Its answers come from workers, so stdin stays open until every one is in (60 s at most):
    a closed stdin would abandon them."""
    parts = options.expose
    shown = ",".join(parts)
    command = server_launch_command() + config_args(options, canonical_root, adr_dir)
    modern_meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                   "io.modelcontextprotocol/clientCapabilities": {}}
    requests = _doctor_expose_requests(parts)
    opening = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "adrkit-mcp-doctor", "version": SERVER_VERSION}}}
    for label, meta in (("legacy handshake (2025-11-25)", None),
                        ("modern server/discover (2026-07-28)", modern_meta)):
        messages = [opening] if meta is None else [
            {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta}}]
        messages += [{"jsonrpc": "2.0", "id": number, "method": method,
                      "params": dict(params, _meta=meta) if meta else params} for number, method, params in requests]
        answers, status, stderr = _doctor_exchange(command, messages)
        results = {number: answers.get(number, {}).get("result") or {} for number, _, _ in requests}
        if all(results.values()) and 1 in answers:
            found = []
            if "resources" in parts:
                found.append("%d resources listed, %s read" % (len(results[2].get("resources", ())), DECISIONS_URI))
            if "prompts" in parts:
                found.append("%d prompts listed" % len(results[4].get("prompts", ())))
            report.ok("%s with --expose %s: %s" % (label, shown, ", ".join(found)))
            continue
        errors = [answer["error"].get("message") for answer in answers.values() if "error" in answer]
        report.fail("%s with --expose %s failed (exit %s): %s" % (label, shown, status, (
            errors[0] if errors else stderr.strip())[:300]), "run the command by hand to see why: %s" % " ".join(command))


def _doctor_exchange(command: List[str],
                     messages: List[Dict[str, Any]]) -> Tuple[Dict[Any, Dict[str, Any]], Any, str]:
    """(answers by id, exit status, stderr) of a child server sent `messages`, stdin kept open until
    every request is answered or 60 s have passed (then the child is killed)."""
    import subprocess
    wanted = {message["id"] for message in messages if "id" in message}
    answers: Dict[Any, Dict[str, Any]] = {}
    try:
        child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as error:
        return answers, None, str(error)
    timer = threading.Timer(60, child.kill)
    timer.start()
    stdin, stdout, stderr = child.stdin, child.stdout, child.stderr
    assert stdin is not None and stdout is not None and stderr is not None  # all three are pipes
    try:
        stdin.write("".join(json.dumps(message) + "\n" for message in messages).encode("utf-8"))
        stdin.flush()
        while not wanted <= set(answers):
            line = stdout.readline()
            if not line:
                break
            _doctor_answer(line.decode("utf-8", "replace"), answers)
        stdin.close()
        said = stderr.read().decode("utf-8", "replace")
        return answers, child.wait(), said
    except OSError as error:
        child.kill()
        return answers, child.wait(), str(error)
    finally:
        timer.cancel()


def _doctor_hook_matches(matcher: object, tool: str, anchored: bool = False) -> bool:
    """Whether a hook entry's matcher selects `tool`, as Claude Code reads matchers (Copilot CLI
    anchors the regular expression: `anchored`)."""
    if matcher is None or matcher in ("", "*"):
        return True
    if not isinstance(matcher, str):
        return False
    if re.fullmatch(r"[A-Za-z0-9_|]+", matcher):  # plain names, exact, separated by |
        return tool in matcher.split("|")
    try:
        return (re.fullmatch if anchored else re.search)(matcher, tool) is not None
    except re.error:
        return False


class _DoctorHook(NamedTuple):
    """One adrkit-mcp hook entry found in an agent's hook file."""

    format: str       # the HOOK_FORMATS name it answers in
    where: str        # the file, relative to the root
    event: str        # the event it is listed under
    matcher: object   # its matcher (None: none)
    command: str      # the shell command (Cline: the executable file's path)
    cwd: str          # the folder the agent starts it in, relative to the root


# Where each agent keeps hook entries: (format, file or folder of *.json, events, nested groups).
_doctor_hook_files = (
    ("claude", ".claude/settings.json", ("PreToolUse",), True),
    ("claude", ".claude/settings.local.json", ("PreToolUse",), True),
    ("codex", ".codex/hooks.json", ("PreToolUse",), True),
    ("vscode", ".github/hooks", ("PreToolUse",), False),
    ("copilot", ".github/hooks", ("postToolUse",), False),
    ("gemini", ".gemini/settings.json", ("AfterTool",), True),
    ("cursor", ".cursor/hooks.json", ("postToolUse",), False),
)


def _doctor_is_ours(command: object) -> bool:
    return (isinstance(command, str) and re.search(r"adrkit[-_]mcp", command) is not None
            and re.search(r"(^|\s)hook(\s|$)", command) is not None)


def _doctor_hook_commands(fmt: str, where: str, settings: Any, events: Tuple[str, ...],
                          nested: bool) -> List[_DoctorHook]:
    """The adrkit-mcp hook entries of one parsed hook file."""
    found = []
    for event in events:
        for group in settings.get("hooks", {}).get(event, []):
            hooks = group.get("hooks", []) if nested else [group]
            for hook in hooks:
                command = hook.get("command") or hook.get("bash")
                if hook.get("type", "command") != "command" or not _doctor_is_ours(command):
                    continue
                named = re.search(r"--format[= ]([a-z]+)", command)
                found.append(_DoctorHook(named.group(1) if named else fmt, where, event,
                                         group.get("matcher") if nested else hook.get("matcher"),
                                         command, str(hook.get("cwd") or ".")))
    return found


def _doctor_hook_entries(report: "_Report", canonical_root: str) -> List[_DoctorHook]:
    """Every adrkit-mcp hook entry of the agents' hook files in the repository."""
    found: List[_DoctorHook] = []
    for fmt, place, events, nested in _doctor_hook_files:
        folder = os.path.join(canonical_root, *place.split("/"))
        names = ([place + "/" + name for name in sorted(os.listdir(folder)) if name.endswith(".json")]
                 if os.path.isdir(folder) else [place] if os.path.isfile(folder) else [])
        for where in names:
            try:
                with open(os.path.join(canonical_root, *where.split("/")), "rb") as handle:
                    settings = json.loads(handle.read().decode("utf-8"))
                found.extend(_doctor_hook_commands(fmt, where, settings, events, nested))
            except (OSError, ValueError, AttributeError, TypeError) as error:
                report.note("%s cannot be read as %s hook settings (%s)"
                            % (where, HOOK_FORMATS[fmt]["agent"], error))
    script = os.path.join(canonical_root, ".clinerules", "hooks", "PreToolUse")
    try:
        with open(script, "rb") as handle:
            if _doctor_is_ours(handle.read(1 << 16).decode("utf-8", "replace")):
                found.append(_DoctorHook("cline", ".clinerules/hooks/PreToolUse", "PreToolUse",
                                         None, script, "."))
    except OSError:
        pass
    return found


def _doctor_hook_unrun(entry: _DoctorHook, canonical_root: str) -> Optional[str]:
    """Why the entry's agent would not run it (for some edits), or None: a matcher that misses an
    editing tool (Copilot CLI anchors its regex, the others search), a VS Code entry in a Claude
    file without chat.useClaudeHooks (off by default), a Cline file that is not executable."""
    fmt = HOOK_FORMATS[entry.format]
    if entry.format == "vscode" and entry.where.startswith(".claude/"):
        try:
            with open(os.path.join(canonical_root, ".vscode", "settings.json"), "rb") as handle:
                switched = re.search(rb'"chat\.useClaudeHooks"\s*:\s*true', handle.read())
        except OSError:
            switched = None
        return None if switched else ("VS Code runs hooks of %s only with the setting "
                                      "chat.useClaudeHooks on (off by default)" % entry.where)
    if entry.format == "cline":
        return None if os.name == "nt" or os.access(entry.command, os.X_OK) else \
            "Cline would not run it: it is not executable (chmod +x %s)" % entry.where
    missed = [tool for tool in sorted(fmt["tools"]) if entry.format != "vscode"  # VS Code: no matchers
              and not _doctor_hook_matches(entry.matcher, tool, anchored=entry.format == "copilot")]
    return ("its matcher misses %s: %s would not run it for %s (config %s --hook prints one that "
            "covers them)" % (", ".join(missed), fmt["agent"], "them" if len(missed) > 1 else "it",
                              config_hook_ids[entry.format])) if missed else None


def _doctor_hook_settings(report: "_Report", canonical_root: str) -> List[_DoctorHook]:
    """Report the adrkit-mcp hook entries the repository holds, agent by agent."""
    entries = _doctor_hook_entries(report, canonical_root)
    for entry in entries:
        report.ok("%s hook in %s: %s %s" % (HOOK_FORMATS[entry.format]["agent"], entry.where,
                                            entry.event, json.dumps(entry.matcher)))
        unrun = _doctor_hook_unrun(entry, canonical_root)
        if unrun:
            report.note(unrun)
    if not entries:
        report.note("no adrkit-mcp hook in the repository's agent hook files: agents hear of "
                    "decisions only when they ask (adrkit-mcp config <agent> --hook prints the "
                    "entry for %s)" % ", ".join(CONFIG_HOOK_AGENTS))
    return entries


def _doctor_governed(projection: "Projection", files: List[str]) -> bool:
    validate, run = TOOLS["get_decision_context"]
    problems, args = validate({"files": files, "limit": PAGE_MAX})
    return not problems and bool(run(projection, args, lambda: False)[0]["governing"])


def _doctor_governed_file(canonical_root: str, projection: "Projection") -> Optional[str]:
    """A file of the repository that an accepted record governs: a literal pattern first, else
    the first of HOOK_DOCTOR_SCAN_FILES files (sorted walk, dot folders skipped), found by halving."""
    literal = sorted({m["pattern"] for record in projection.records
                      if record.frontmatter["status"] == "accepted"
                      for m in record.frontmatter["affects"]
                      if m["type"] == "path" and not m["negate"] and not m.get("repo")
                      and not re.search(r"[*?\[\]{}()!+@\\]", m["pattern"])}, key=utf16_key)
    for pattern in literal:
        if os.path.isfile(os.path.join(canonical_root, pattern)) and _doctor_governed(projection, [pattern]):
            return pattern
    files = [path for path in _doctor_first_files(canonical_root) if "\\" not in path]
    for start in range(0, len(files), LIMITS["files"][1]):
        batch = files[start:start + LIMITS["files"][1]]
        while batch and _doctor_governed(projection, batch):
            if len(batch) == 1:
                return batch[0]
            half = batch[:len(batch) // 2]
            batch = half if _doctor_governed(projection, half) else batch[len(batch) // 2:]
    return None

HOOK_DOCTOR_SCAN_FILES = 2000      # doctor looks for a governed file among this many


def _doctor_first_files(canonical_root: str) -> List[str]:
    """The repository's first HOOK_DOCTOR_SCAN_FILES files, '/'-separated, in sorted walk order,
    folders whose names start with a dot left out."""
    files: List[str] = []
    for folder, subfolders, names in os.walk(canonical_root):
        subfolders[:] = sorted(name for name in subfolders if not name.startswith("."))
        relative = os.path.relpath(folder, canonical_root).replace(os.sep, "/")
        files.extend(name if relative == "." else relative + "/" + name for name in sorted(names))
        if len(files) >= HOOK_DOCTOR_SCAN_FILES:
            break
    return files[:HOOK_DOCTOR_SCAN_FILES]


def _doctor_markers(report: _Report, options: Any, canonical_root: str, projection: "Projection") -> None:
    """How many of the repository's first files declare `@adr` markers, the dangling ones, and
    whether the server will say so (--markers, ADR 0020). Reads each file's header window only."""
    scans = read_source_markers_batch(canonical_root, _doctor_first_files(canonical_root)).scans
    markers = [marker for scan in scans for marker in scan.markers]
    declaring = sum(1 for scan in scans if scan.markers)
    if not declaring:
        if options.markers:
            report.note("--markers is on, but none of the first %d files declares an @adr marker" % len(scans))
        return
    report.ok("%d of the first %d files declare %d @adr %s" % (
        declaring, len(scans), len(markers), plural(len(markers), "marker", "markers")))
    ids = set(projection.by_id)
    dangling = [marker for marker in markers if not marker.get("log") and marker["id"] not in ids]
    if dangling:
        report.note("%d dangling (no record has the id): %s%s" % (len(dangling), ", ".join(
            "%s:%d @adr %s" % (marker["path"], marker["line"], marker["ref"]) for marker in dangling[:5]),
            ", ..." if len(dangling) > 5 else ""))
    if not options.markers:
        report.note("the server and the hook ignore them: give their entries --markers "
                    "(or set %s=1; ADR 0020)" % ENV_MARKERS)


def _doctor_event(fmt: str, root: str, target: str) -> Dict[str, Any]:
    """The agent's event for an edit of `target` (repository-relative), shaped as it sends one."""
    path = os.path.join(root, *target.split("/"))
    stamp = "2026-01-01T00:00:00.000Z"
    if fmt == "codex":
        patch = "*** Begin Patch\n*** Update File: %s\n@@\n-a\n+b\n*** End Patch\n" % target
        return {"session_id": "adrkit-mcp-doctor", "turn_id": "doctor", "transcript_path": None,
                "cwd": root, "hook_event_name": "PreToolUse", "model": "doctor",
                "permission_mode": "default", "tool_name": "apply_patch",
                "tool_input": {"command": patch}, "tool_use_id": "adrkit-mcp-doctor"}
    if fmt == "vscode":
        return {"timestamp": stamp, "hook_event_name": "PreToolUse", "session_id": "adrkit-mcp-doctor",
                "cwd": root, "tool_name": "replace_string_in_file", "tool_use_id": "adrkit-mcp-doctor",
                "tool_input": {"filePath": path, "oldString": "a", "newString": "b"}}
    if fmt == "copilot":
        return {"sessionId": "adrkit-mcp-doctor", "timestamp": 1767225600000, "cwd": root,
                "toolName": "edit", "toolArgs": json.dumps({"path": path, "old_str": "a", "new_str": "b"}),
                "toolResult": {"resultType": "success", "textResultForLlm": "edited"}}
    if fmt == "gemini":
        return {"session_id": "adrkit-mcp-doctor", "transcript_path": "", "cwd": root,
                "hook_event_name": "AfterTool", "timestamp": stamp, "tool_name": "replace",
                "tool_input": {"file_path": path, "old_string": "a", "new_string": "b"},
                "tool_response": {"llmContent": "edited", "returnDisplay": "edited"}}
    if fmt == "cursor":
        return {"conversation_id": "adrkit-mcp-doctor", "generation_id": "doctor",
                "hook_event_name": "postToolUse", "workspace_roots": [root], "tool_name": "Write",
                "tool_input": {"file_path": path, "content": ""}, "tool_output": "{}", "tool_use_id": "doctor",
                "cwd": root, "duration": 1}
    if fmt == "cline":
        return {"clineVersion": "doctor", "hookName": "PreToolUse", "timestamp": "1767225600000",
                "taskId": "adrkit-mcp-doctor", "workspaceRoots": [root], "userId": "doctor",
                "preToolUse": {"toolName": "write_to_file", "parameters": {"path": target, "content": ""}}}
    return {"session_id": "adrkit-mcp-doctor", "transcript_path": "", "cwd": root,
            "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Edit",
            "tool_input": {"file_path": path, "old_string": "", "new_string": ""},
            "tool_use_id": "adrkit-mcp-doctor"}


def _doctor_context(fmt: str, stdout: bytes) -> str:
    """The context text of the agent's answer on stdout; raises when there is none."""
    answer = json.loads(stdout.decode("utf-8"))
    kind = HOOK_FORMATS[fmt]["answer"]
    text = answer["hookSpecificOutput"]["additionalContext"] if kind == "hookSpecificOutput" else answer[kind]
    if not isinstance(text, str):
        raise TypeError("the context is not text")
    return text


def _doctor_hook_command(options: Any, entry: Optional[_DoctorHook], canonical_root: str,
                         adr_dir: str) -> Tuple[List[str], str, str]:
    """(command, label, folder it runs in): the configured entry as its agent runs it (a POSIX
    shell), else this program's own hook in Claude Code's format."""
    import shlex
    if entry is None or os.name != "posix":
        fmt = entry.format if entry is not None else "claude"
        command = (server_launch_command() + ["hook", "--format", fmt]
                   + config_args(options, canonical_root, adr_dir, hook=True))
        return command, "the hook", canonical_root
    folder = os.path.normpath(os.path.join(canonical_root, entry.cwd))
    label = "the configured %s hook (%s)" % (HOOK_FORMATS[entry.format]["agent"], entry.where)
    if entry.format == "cline":
        return [entry.command], label, folder
    line = entry.command
    if entry.format == "gemini":  # Gemini CLI writes the quoted project folder in for the name
        line = line.replace("$GEMINI_PROJECT_DIR", shlex.quote(canonical_root))
    return ["/bin/sh", "-c", line], label, folder


def _doctor_hook(report: "_Report", options: Any, canonical_root: str, adr_dir: str,
                 projection: "Projection") -> None:
    """Report the hook entries, then run each once on a governed file, as its agent would."""
    import subprocess
    entries: List[Optional[_DoctorHook]] = list(_doctor_hook_settings(report, canonical_root))
    target = _doctor_governed_file(canonical_root, projection)
    if target is None:
        report.note("no file of the repository is governed by an accepted decision: the hook was not run")
        return
    environment = dict(os.environ, CLAUDE_PROJECT_DIR=canonical_root, GEMINI_PROJECT_DIR=canonical_root)
    for entry in entries or [None]:
        fmt = entry.format if entry is not None else "claude"
        command, label, folder = _doctor_hook_command(options, entry, canonical_root, adr_dir)
        event = json.dumps(_doctor_event(fmt, canonical_root, target)).encode("utf-8")
        child = None
        try:
            child = subprocess.run(command, input=event, cwd=folder, env=environment,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   timeout=HOOK_TIMEOUT_SECONDS)
            lines = [line for line in _doctor_context(fmt, child.stdout).splitlines()
                     if line.startswith("- ADR ")]
        except (OSError, subprocess.TimeoutExpired, ValueError, KeyError, TypeError, AttributeError) as error:
            detail = child.stderr.decode("utf-8", "replace").strip()[:300] if child is not None else ""
            report.fail("%s gave no decision context for %s: %s" % (label, target, detail or error),
                        "run it by hand with a %s event on stdin: %s"
                        % (HOOK_FORMATS[fmt]["agent"], " ".join(command)))
            continue
        report.ok("%s answered for %s within its %d s limit: %d %s" % (
            label, target, HOOK_TIMEOUT_SECONDS, len(lines), plural(len(lines), "decision", "decisions")))


# ---------------------------------------------------------------------------
# 12. Config: client configuration printer, `adrkit-mcp config <client> [--cwd PATH] [--dir PATH]`,
# `adrkit-mcp config <agent> --hook`, `adrkit-mcp config --list`, `adrkit-mcp config --all`.
#
# Prints on stdout only what to merge into the client's own configuration file (JSON; TOML for
# Codex's config.toml; the executable file itself for Cline's hook); everything addressed to the
# person (where the file is, "merge, don't overwrite", warnings) goes to stderr. The command is
# absolute (the running interpreter plus the .pyz or module file, or the installed console
# script): GUI clients start servers without the login shell's PATH, and `spawn ... ENOENT` is the
# most common reason an MCP server never starts. The exception is a team config (a .pyz inside the
# repository, or --portable) for the project-scoped files: `python3` and the repository-relative
# program, with a note on what each teammate needs. What an entry passes after the program (--cwd,
# --dir, and any flag config carries into entries) comes from config_args alone.
#
# Server shapes, checked against each client's documentation (late 2026):
#   claude-desktop  {"mcpServers": {name: {command, args, env}}}
#                   modelcontextprotocol.io/docs/develop/connect-local-servers
#   claude-code     {"mcpServers": {name: {"type": "stdio", command, args, env}}} in .mcp.json
#                   code.claude.com/docs/en/mcp (project scope, .mcp.json)
#   vscode          {"servers": {name: {"type": "stdio", command, args}}} in .vscode/mcp.json,
#                   ${workspaceFolder} substituted by VS Code
#                   code.visualstudio.com/docs/agents/reference/mcp-configuration
#   cursor          {"mcpServers": {name: {command, args, env}}} in .cursor/mcp.json
#                   cursor.com/docs/mcp
#   copilot-cli     {"mcpServers": {name: {"type": "local", command, args, env, "tools": ["*"]}}}
#                   in ~/.copilot/mcp-config.json
#                   docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-mcp-servers
#   cline           {"mcpServers": {name: {command, args, env}}} in cline_mcp_settings.json
#                   docs.cline.bot/mcp/configuring-mcp-servers
#   continue        {"mcpServers": [{name, "type": "stdio", command, args}]} list in config.yaml
#                   docs.continue.dev/customize/deep-dives/mcp
#   codex           [mcp_servers.<name>] command, args (TOML) in ~/.codex/config.toml or a trusted
#                   project's .codex/config.toml; developers.openai.com/codex/mcp and the
#                   McpServerConfig of codex-rs/core/config.schema.json (openai/codex)
#   gemini          {"mcpServers": {name: {command, args}}} in .gemini/settings.json
#                   geminicli.com/docs/tools/mcp-server; schemas/settings.schema.json
#   windsurf        {"mcpServers": {name: {command, args}}} in ~/.codeium/windsurf/mcp_config.json
#                   docs.windsurf.com/windsurf/cascade/mcp
#   zed             {"context_servers": {name: {"source": "custom", command, args, env}}} in Zed's
#                   settings.json; zed.dev/docs/ai/mcp (docs/src/ai/mcp.md, zed-industries/zed)
#   opencode        {"mcp": {name: {"type": "local", "command": [program, args...], "cwd",
#                   "enabled"}}} in opencode.json; opencode.ai/docs/mcp-servers (McpLocalConfig,
#                   strict; "cwd" is the root, a field of the releases of mid-2026 on)
# Hook entries (`--hook`): the file and shape of each agent, in _config_hook_entry, ADR 0018.
# Stdlib only; every name here starts with _config_ except the entry point command_config.
# ---------------------------------------------------------------------------------------------

_config_server_name = "adrkit"

# id, display name, where its configuration lives (shown by --list and on stderr).
config_clients = (
    ("claude-desktop", "Claude Desktop",
     "claude_desktop_config.json: ~/Library/Application Support/Claude/ on macOS, "
     "%APPDATA%\\Claude\\ on Windows (Settings > Developer > Edit Config opens it)"),
    ("claude-code", "Claude Code",
     ".mcp.json at the repository root (project scope)"),
    ("vscode", "VS Code",
     ".vscode/mcp.json in the workspace (or the user mcp.json: command 'MCP: Open User "
     "Configuration')"),
    ("cursor", "Cursor",
     ".cursor/mcp.json in the project, or ~/.cursor/mcp.json for every project"),
    ("copilot-cli", "GitHub Copilot CLI",
     "~/.copilot/mcp-config.json ($COPILOT_HOME/mcp-config.json when COPILOT_HOME is set)"),
    ("cline", "Cline",
     "cline_mcp_settings.json (Cline > MCP Servers > Configure > Configure MCP Servers opens it)"),
    ("continue", "Continue",
     "~/.continue/config.yaml, in its mcpServers list (YAML accepts this JSON as it is)"),
    ("codex", "Codex CLI",
     "~/.codex/config.toml for every project, or .codex/config.toml in a trusted project (TOML)"),
    ("gemini", "Gemini CLI",
     ".gemini/settings.json in the project, or ~/.gemini/settings.json for every project"),
    ("windsurf", "Windsurf",
     "~/.codeium/windsurf/mcp_config.json (Cascade > MCP servers > View raw config opens it)"),
    ("zed", "Zed",
     "Zed's settings.json (~/.config/zed/settings.json, or .zed/settings.json in the project)"),
    ("opencode", "opencode",
     "opencode.json at the project root, or ~/.config/opencode/opencode.json"),
)

# The agents `--hook` serves: id -> (hook format, the file that holds the entry).
config_hook_agents = {
    "claude-code": ("claude", ".claude/settings.json (the team's, committed) or "
                              ".claude/settings.local.json (yours)"),
    "codex": ("codex", ".codex/hooks.json in the project (or ~/.codex/hooks.json)"),
    "vscode": ("vscode", ".github/hooks/adrkit-vscode.json in the workspace"),
    "copilot-cli": ("copilot", ".github/hooks/adrkit.json in the repository"),
    "gemini": ("gemini", ".gemini/settings.json in the project"),
    "cursor": ("cursor", ".cursor/hooks.json in the project"),
    "cline": ("cline", ".clinerules/hooks/PreToolUse, an executable file"),
}
CONFIG_HOOK_AGENTS = tuple(config_hook_agents)
config_hook_ids = {fmt: agent for agent, (fmt, _) in config_hook_agents.items()}
# Each agent's editing tools as its matcher reads them (HOOK_FORMATS' tools, so a tool added there
# is matched here): Codex and Gemini CLI search a regular expression, Copilot CLI anchors it.
_config_hook_matchers = {fmt: "|".join(sorted(HOOK_FORMATS[fmt]["tools"]))
                         for fmt in ("codex", "copilot", "gemini")}
_config_hook_matchers["codex"] = "^(%s)$" % _config_hook_matchers["codex"]
# VS Code's editing tools as its hook matcher: VS Code ignores matchers (it runs the entry for
# every tool), Copilot CLI, which also reads .github/hooks, applies it and never runs the entry.
_config_vscode_matcher = "|".join(sorted(HOOK_FORMATS["vscode"]["tools"]))


def config_check(options: Any) -> None:
    """Exactly one of a client id, --list, --all; a known client id; --hook with one agent."""
    chosen = [options.client is not None, options.list, options.all]
    if sum(chosen) != 1:
        options.parser.error("give exactly one of: a client id, --list, --all")
    ids = [client_id for client_id, _, _ in config_clients]
    if options.client is not None and options.client not in ids:
        options.parser.error("unknown client %r; the clients are: %s" % (options.client, ", ".join(ids)))
    if options.hook and options.client not in config_hook_agents:
        options.parser.error("--hook needs one of the agents: %s" % ", ".join(CONFIG_HOOK_AGENTS))
    check_source(options)


def config_args(options: Any, root: Optional[str], adr_dir: Optional[str],
                 hook: bool = False) -> List[str]:
    """What every printed server or hook entry passes after the program: --cwd ROOT and --dir DIR
    where the entry says them (None: they travel in env, or the starting folder says it), then the
    flags `config` carries into the entries: --from (servers and hooks; ADR 0017), --markers
    (servers and hooks; ADR 0020) and --expose (servers only; ADR 0015). The one place that
    builds them."""
    args = [] if root is None else ["--cwd", root]
    args += [] if adr_dir is None else ["--dir", adr_dir]
    source = source_format(options)
    args += [] if source is None else ["--from", source]
    args += ["--markers"] if getattr(options, "markers", False) else []
    expose = getattr(options, "expose", None)
    return args + (["--expose", ",".join(expose)] if expose and not hook else [])


def _config_launcher() -> Tuple[str, List[str], str]:
    """(command, leading arguments, how it was found) that start this very server again."""
    import zipfile
    executable = os.path.abspath(sys.executable) if sys.executable else ""
    argv0 = sys.argv[0] if sys.argv and sys.argv[0] not in ("", "-c", "-m") else ""
    started = os.path.abspath(argv0) if argv0 else ""
    if not executable:
        executable = "python3"  # an embedded interpreter: cannot do better, warned about below
    here = os.path.abspath(__file__) if "__file__" in globals() else ""
    # 1. A zipapp (the shiv .pyz): argv[0] is the archive itself.
    if started and os.path.isfile(started) and zipfile.is_zipfile(started):
        return executable, [started], "zipapp"
    marker = ".pyz" + os.sep
    if marker in here:  # imported straight from an archive that is not argv[0]
        return executable, [here[: here.index(marker) + 4]], "zipapp"
    # 2. This file run as a script, or with `python -m adrkit_mcp`.
    if started and here and os.path.isfile(started) and os.path.isfile(here):
        try:
            if os.path.samefile(started, here):
                return executable, [here], "module file"
        except OSError:
            pass
    # 3. An installed console script (pip, pipx, uv tool): a launcher next to its interpreter.
    if started and not started.endswith((".py", ".pyw")):
        for candidate in (started, started + ".exe"):
            if os.path.isfile(candidate):
                return candidate, [], "console script"
    # 4. Anything else (imported by another program): run the module file with this interpreter.
    return executable, [here] if here else ["-m", "adrkit_mcp"], "module file"


def _config_root(options: Any, for_vscode: bool) -> Optional[str]:
    value = location(options)[0]
    if value is None:
        return None if for_vscode else os.path.realpath(os.getcwd())
    return os.path.realpath(os.path.expanduser(str(value)))


def _config_snippet(options: Any, client_id: str, command: str, lead: List[str], root: Optional[str],
                    adr_dir: str) -> Dict[str, Any]:
    name = _config_server_name
    cli_args = lead + config_args(options, root or "${workspaceFolder}", adr_dir)
    env = {ENV_CWD: root or "", ENV_DIR: adr_dir}
    if client_id in ("claude-desktop", "cursor", "cline"):
        # GUI apps start servers from an arbitrary directory: the root travels in env.
        return {"mcpServers": {name: {"command": command, "args": lead + config_args(options, None, None),
                                      "env": env}}}
    if client_id == "claude-code":
        return {"mcpServers": {name: {"type": "stdio", "command": command, "args": cli_args,
                                      "env": {}}}}
    if client_id == "vscode":
        return {"servers": {name: {"type": "stdio", "command": command, "args": cli_args}}}
    if client_id == "copilot-cli":
        return {"mcpServers": {name: {"type": "local", "command": command, "args": cli_args,
                                      "env": {}, "tools": ["*"]}}}
    if client_id == "continue":
        return {"mcpServers": [{"name": name, "type": "stdio", "command": command,
                                "args": cli_args}]}
    if client_id == "opencode":  # its own "cwd" starts the server in the root
        return {"$schema": "https://opencode.ai/config.json", "mcp": {name: {
            "type": "local", "command": [command] + lead + config_args(options, None, adr_dir),
            "cwd": root or os.getcwd(), "enabled": True}}}
    return _config_other_snippet(client_id, command, cli_args)


def _config_other_snippet(client_id: str, command: str, cli_args: List[str]) -> Dict[str, Any]:
    """The clients added with the hooks (ADR 0018): Codex, Gemini CLI, Windsurf, Zed."""
    name = _config_server_name
    if client_id == "codex":  # printed as TOML by _config_toml
        return {"mcp_servers": {name: {"command": command, "args": cli_args}}}
    if client_id in ("gemini", "windsurf"):
        return {"mcpServers": {name: {"command": command, "args": cli_args}}}
    if client_id == "zed":  # "source": "custom" for releases whose settings are tagged by it
        return {"context_servers": {name: {"source": "custom", "command": command, "args": cli_args,
                                           "env": {}}}}
    raise KeyError(client_id)


def _config_toml_string(text: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, and DEL, which TOML forbids raw, escaped."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _config_toml(snippet: Dict[str, Any]) -> str:
    """Codex's [mcp_servers.<name>] table: string and string-list values, as TOML."""
    lines = []
    for table, entries in snippet.items():
        for name, entry in entries.items():
            lines.append("[%s.%s]" % (table, name))
            for key, value in entry.items():
                if isinstance(value, list):
                    value = "[" + ", ".join(_config_toml_string(item) for item in value) + "]"
                else:
                    value = _config_toml_string(value)
                lines.append("%s = %s" % (key, value))
    return "\n".join(lines) + "\n"


# Team configs: a .pyz (or the module file) committed in the repository, started by every
# teammate's editor. Only the project-scoped files travel with the repository; each client starts
# the server its own way: Claude Code from the project folder (it expands ${VAR} and
# ${VAR:-default}, none needed here), VS Code and Cursor from a folder of their choosing, with
# ${workspaceFolder} substituted in args.
_config_project_clients = ("claude-code", "vscode", "cursor")
_config_portable_python = "python3"


def _config_in_repository(lead: List[str], how: str, root: Optional[str]) -> Optional[str]:
    """The program's path relative to root, with / separators, when it lies inside root."""
    if root is None or how not in ("zipapp", "module file") or not lead or lead[0] == "-m":
        return None
    program = os.path.realpath(lead[0])
    inside = os.path.relpath(program, root)
    if inside.startswith(os.pardir) or os.path.isabs(inside):
        return None
    return inside.replace(os.sep, "/")


def _config_portable_snippet(options: Any, client_id: str, program: str, adr_dir: str) -> Dict[str, Any]:
    name = _config_server_name
    if client_id == "claude-code":  # started in the project folder: relative paths hold
        return {"mcpServers": {name: {"type": "stdio", "command": _config_portable_python,
                                      "args": [program] + config_args(options, None, adr_dir),
                                      "env": {}}}}
    args = ["${workspaceFolder}/" + program] + config_args(options, "${workspaceFolder}", adr_dir)
    if client_id == "vscode":
        return {"servers": {name: {"type": "stdio", "command": _config_portable_python,
                                   "args": args}}}
    if client_id == "cursor":
        return {"mcpServers": {name: {"command": _config_portable_python, "args": args}}}
    raise KeyError(client_id)


def _config_portable_notes(root: str, program: str, others: List[str]) -> List[str]:
    advice, warning = _config_commit_advice(root, program, "this file")
    notes = ["team config: %sit names no path of this machine. Every "
             "teammate needs Python 3.9 or newer on the editor's PATH as %s (an editor started "
             "from a desktop may not see the shell's PATH; on Windows write py or python "
             "instead)%s." % (advice, _config_portable_python,
                              "" if program.endswith(".pyz") else
                              ", plus PyYAML, pathspec and idna installed for it (the .pyz carries all three)")]
    if warning is not None:
        notes.append(warning)
    if others:
        notes.append("%s: per-user configuration, so the snippet keeps absolute paths"
                     % ", ".join(others))
    return notes


def _config_where(client_id: str) -> Tuple[str, str]:
    for known_id, display, where in config_clients:
        if known_id == client_id:
            return display, where
    raise KeyError(client_id)


def _config_merge_hint(client_id: str) -> str:
    if client_id == "vscode":
        return 'add the "%s" entry to the file\'s existing "servers" object' % _config_server_name
    if client_id == "continue":
        return 'append the entry to the existing "mcpServers" list'
    if client_id == "codex":
        return "add the [mcp_servers.%s] table to the file" % _config_server_name
    if client_id == "zed":
        return 'add the "%s" entry to the settings\' "context_servers" object' % _config_server_name
    if client_id == "opencode":
        return 'add the "%s" entry to the file\'s "mcp" object' % _config_server_name
    return 'add the "%s" entry to the file\'s existing "mcpServers" object' % _config_server_name


# What a client's entry needs besides merging it (printed for that client alone).
_config_client_notes = {
    "codex": "Codex reads a project's .codex/config.toml only once you trust the project.",
    "opencode": 'opencode asks before it starts a server of a project\'s opencode.json (opencode '
                'mcp approve adrkit). Its "cwd" field is newer than some releases, which refuse '
                'the file with it: there, drop "cwd" and put --cwd and the root after the program.',
}


def _config_warnings(command: str, lead: List[str], how: str, roots: List[str],
                     adr_dir: str) -> List[str]:
    notes = []
    if not os.path.isabs(command):
        notes.append("warning: could not find the absolute path of the Python interpreter; "
                     "replace %r with it" % command)
    if how == "zipapp":
        notes.append("note: the snippet starts %s; keep the .pyz at that path (or run this "
                     "again after moving it)" % lead[0])
    lowered = command.replace("\\", "/").lower()
    if "/uv/" in lowered and "archive-v" in lowered:
        notes.append("warning: %s lies in uv's cache, which can change; prefer `uv tool "
                     "install adrkit-mcp` or the .pyz" % command)
    for root in roots:
        if not os.path.isdir(os.path.join(root, ".git")) and not os.path.isfile(
                os.path.join(root, ".git")):
            notes.append("warning: %s has no .git: the server only serves the root of a Git "
                         "repository and will not start there; pass the repository's top folder "
                         "with --cwd" % root)
        target = adr_dir if os.path.isabs(adr_dir) else os.path.join(root, adr_dir)
        if not os.path.isdir(target):
            usual = usual_adr_folder(root, adr_dir)
            notes.append("warning: %s is not a directory yet: the server will refuse to start "
                         "until it exists%s" % (target, "; the records seem to be in %s: run "
                                                "config again with --dir %s" % (usual, usual) if usual else ""))
    return notes


def _config_write_json(value: object) -> None:
    sys.stdout.write(json.dumps(value, indent=2, ensure_ascii=True) + "\n")
    sys.stdout.flush()


def _config_say(line: str) -> None:
    sys.stderr.write("adrkit-mcp: %s\n" % line)


class _ConfigShell(str):
    """A word of a hook command already in shell syntax (a variable, a command substitution)."""


# How a hook entry starts a committed adrkit_mcp.py: `python3 -c LAUNCHER PATH hook ...` imports
# the file (under the name adrkit_mcp, whatever the file is called), so Python keeps its bytecode
# in __pycache__ beside it and later events load that; `python3 PATH` would run it as a script,
# which Python compiles from source every time (about 7x the .pyz's CPU per event; ADR 0022).
_config_module_launcher = (
    'import sys, importlib.util as u; p = sys.argv.pop(1); '
    's = u.spec_from_file_location("adrkit_mcp", p); m = u.module_from_spec(s); '
    'sys.modules["adrkit_mcp"] = m; s.loader.exec_module(m); sys.exit(m.main())')

# The files of the clients and agents that live in the repository, meant to be committed, and the
# per-user place for an entry that names paths of this machine.
_config_committed_files = {
    "claude-code": (".mcp.json", "your user scope (claude mcp add --scope user, kept in ~/.claude.json)"),
    "vscode": (".vscode/mcp.json", "the user mcp.json (command 'MCP: Open User Configuration')"),
    "cursor": (".cursor/mcp.json", "~/.cursor/mcp.json"),
    "codex": (".codex/config.toml", "~/.codex/config.toml"),
    "gemini": (".gemini/settings.json", "~/.gemini/settings.json"),
    "zed": (".zed/settings.json", "Zed's user settings.json"),
    "opencode": ("opencode.json", "~/.config/opencode/opencode.json"),
}


def _config_git_ignored(root: str, program: str) -> bool:
    """Whether Git ignores `program` (relative to root) there: a commit would leave it out. False
    when git cannot tell (not installed, not a work tree)."""
    import subprocess
    try:
        done = subprocess.run(["git", "-C", root, "check-ignore", "-q", "--", program],
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def _config_commit_advice(root: str, program: str, what: str) -> Tuple[str, Optional[str]]:
    """('commit <what> with <program>; ', None), or, when Git ignores the program, ('', the
    warning that a commit would leave it out and what to do instead)."""
    if _config_git_ignored(root, program):
        return "", ("warning: %s is ignored by Git in this repository (git check-ignore %s), so a "
                    "commit would leave it out and a teammate's clone would not find it: copy it to a "
                    "tracked place (for example tools/%s), commit that, and run config again with "
                    "the copy (or force-add it: git add -f %s)."
                    % (program, program, program.rsplit("/", 1)[-1], program))
    return "commit %s with %s; " % (what, program), None


def _config_machine_paths(client_ids: List[str], command: str, lead: List[str]) -> Optional[str]:
    """The warning for absolute entries meant for files that are committed, or None."""
    files = [_config_committed_files[client_id][0] for client_id in client_ids
             if client_id in _config_committed_files]
    if not files:
        return None
    places = "; ".join("for %s, %s" % (_config_committed_files[c][0], _config_committed_files[c][1])
                       for c in client_ids if c in _config_committed_files)
    return ("warning: %s %s meant to be committed, and this entry names paths of this machine (%s): "
            "a teammate's clone would not find them. Put it in the per-user file instead (%s), or "
            "copy the .pyz into the repository, commit it, and run config with it for a team entry "
            "with no path of this machine." % (", ".join(files), "is" if len(files) == 1 else "are",
                                               " ".join([command] + lead), places))


# The team form's repository root in each agent's hook command, as the shell sees it: Claude Code
# sets CLAUDE_PROJECT_DIR; Gemini CLI replaces $GEMINI_PROJECT_DIR in the command with the quoted
# project folder (so it stays unquoted here); Codex and Cursor run the command in the session's
# folder, which may be a subfolder: git says the root, as Codex's own documentation does; VS Code
# and Copilot CLI start it in the folder the entry's "cwd": "." names, the repository root; Cline's
# script finds the root from its own place, .clinerules/hooks/.
_config_hook_roots = {
    "claude": '"$CLAUDE_PROJECT_DIR"', "codex": '"$(git rev-parse --show-toplevel)"',
    "vscode": ".", "copilot": ".", "gemini": "$GEMINI_PROJECT_DIR",
    "cursor": '"$(git rev-parse --show-toplevel)"', "cline": '"$root"',
}

HOOK_COMMAND_GUARD = " || exit 0"  # ends every printed command: python3's own exit 2 (no such

                                   # file) blocks in Claude Code and Codex, and any non-zero exit
                                   # denies the tool in Copilot CLI and blocks it in Cline; where
                                   # the agent has a neutral answer, the guard prints it instead
HOOK_NEUTRAL_GUARD = " || printf '%%s\\n' %s"   # % the quoted neutral answer (printf exits 0)


def _config_hook_line(options: Any, fmt: str, command: str, lead: List[str], program: Optional[str],
                      root: str, adr_dir: str) -> str:
    """The shell command of an agent's hook entry, ending in HOOK_COMMAND_GUARD."""
    import shlex
    if program is not None:
        where = _config_hook_roots[fmt]
        prefix = "" if where == "." else where + "/"
        words = [_config_portable_python, _ConfigShell(prefix + shlex.quote(program))]
        if not program.endswith(".pyz"):  # imported, not run as a script: the bytecode is kept
            words[1:1] = ["-c", _config_module_launcher]
        root_word: str = _ConfigShell(where)
    else:
        words, root_word = [command] + lead, root
    words += ["hook", "--format", fmt] + config_args(options, root_word, adr_dir, hook=True)
    line = " ".join(word if isinstance(word, _ConfigShell) else shlex.quote(word) for word in words)
    neutral = HOOK_FORMATS[fmt]["neutral"]
    line += HOOK_NEUTRAL_GUARD % shlex.quote(neutral) if neutral else HOOK_COMMAND_GUARD
    if fmt == "cline":  # the executable file: it must print Cline's answer whatever happens
        return ("#!/bin/sh\n# adrkit-mcp: the decisions about a file before Cline edits it "
                "(adrkit-mcp config cline --hook).\n# Never blocks: it answers %s "
                "whatever happens, and exits 0.\n"
                'root=$(cd "$(dirname "$0")/../.." && pwd) || root=.\n'
                "%s\nexit 0\n" % (neutral, line))
    return line

HOOK_MATCHER = "Edit|Write|MultiEdit|NotebookEdit"   # Claude Code's matcher: exactly its edit tools


def _config_hook_entry(agent: str, line: str) -> object:
    """What to merge into the agent's hook file (ADR 0018 cites each shape's source)."""
    timeout = HOOK_TIMEOUT_SECONDS
    if agent == "claude-code":
        return {"hooks": {"PreToolUse": [{"matcher": HOOK_MATCHER, "hooks": [
            {"type": "command", "command": line, "timeout": timeout}]}]}}
    if agent == "codex":
        return {"hooks": {"PreToolUse": [{"matcher": _config_hook_matchers["codex"], "hooks": [
            {"type": "command", "command": line, "timeout": timeout,
             "statusMessage": "Reading the decision records"}]}]}}
    if agent == "vscode":
        return {"hooks": {"PreToolUse": [{"type": "command", "command": line, "cwd": ".",
                                          "matcher": _config_vscode_matcher, "timeout": timeout}]}}
    if agent == "copilot-cli":
        return {"version": 1, "hooks": {"postToolUse": [
            {"type": "command", "bash": line, "cwd": ".", "matcher": _config_hook_matchers["copilot"],
             "timeoutSec": timeout}]}}
    if agent == "gemini":
        return {"hooks": {"AfterTool": [{"matcher": _config_hook_matchers["gemini"], "hooks": [
            {"name": "adrkit-decisions", "type": "command", "command": line,
             "timeout": timeout * 1000,
             "description": "The decision records about the file just edited"}]}]}}
    if agent == "cursor":
        return {"version": 1, "hooks": {"postToolUse": [{"command": line}]}}
    raise KeyError(agent)


# What each agent's entry needs besides merging it: when the context arrives, and any switch.
_config_hook_notes = {
    "claude-code": "the context arrives before the edit (PreToolUse). Copilot CLI and (with "
                   "chat.useClaudeHooks on) VS Code run this file too; this entry answers their "
                   "events with nothing, at once: each hears the decisions through its own entry.",
    "codex": "the context arrives before the edit (PreToolUse on apply_patch, every file of the "
             "patch, and on Bash when it runs apply_patch, which Codex intercepts). Codex runs a "
             "project's hooks only once you trust them (/hooks).",
    "vscode": "the context arrives before the edit (PreToolUse). VS Code runs .github/hooks with no "
              "setting (chat.useHooks, on by default). It runs .claude/settings.json only with "
              "chat.useClaudeHooks on (off by default); there, for every tool, that entry answers "
              "VS Code's tools with nothing, at once.",
    "copilot-cli": "the context arrives just after the edit (postToolUse), appended to the tool's "
                   "result: Copilot CLI's preToolUse cannot carry context. It runs repository "
                   "hooks in a folder you trust.",
    "gemini": "the context arrives just after the edit (AfterTool), appended to the tool's result: "
              "BeforeTool cannot carry context. Gemini CLI asks before it runs a new project hook; "
              "its timeout is in milliseconds.",
    "cursor": "the context arrives just after the edit (postToolUse additional_context), for "
              "Cursor's editing tools Write and Delete.",
    "cline": "save it as .clinerules/hooks/PreToolUse, make it executable (chmod +x) and turn on "
             "Hooks in Cline's settings; Cline runs hooks on macOS and Linux only. The context "
             "reaches the model with its next request.",
}


def _config_hook(options: Any, agent: str, command: str, lead: List[str], program: Optional[str],
                 root: str, adr_dir: str) -> int:
    """`config <agent> --hook`: the entry of the agent's hook file (the file itself for Cline)."""
    fmt, where = config_hook_agents[agent]
    line = _config_hook_line(options, fmt, command, lead, program, root, adr_dir)
    if agent == "cline":
        sys.stdout.write(line)
        sys.stdout.flush()
    else:
        _config_write_json(_config_hook_entry(agent, line))
    _config_say("%s hooks: %s." % (HOOK_FORMATS[fmt]["agent"], where))
    if agent != "cline":
        _config_say("MERGE this into that file: add the entry to its event's list in the file's "
                    '"hooks" object; do not overwrite the file, which holds your other settings.')
    _config_say(_config_hook_notes[agent])
    if program is not None:
        advice, warning = _config_commit_advice(root, program, "it")
        _config_say("team config: %sit names no path of this machine. Every teammate needs "
                    "Python 3.9 or newer as %s on the PATH the agent sees (on Windows, write py or "
                    "python instead if there is no python3)%s."
                    % (advice, _config_portable_python,
                       "" if program.endswith(".pyz") else
                       ", plus PyYAML, pathspec and idna installed for it. The entry imports %s "
                       "rather than running it, so Python keeps its bytecode in __pycache__ beside "
                       "it and compiles it once, not on every event" % program))
        if warning is not None:
            _config_say(warning)
    else:
        _config_say("warning: the command names paths of this machine (%s), which a teammate's "
                    "clone would not find: keep the entry out of the files the repository commits "
                    "(for Claude Code, put it in .claude/settings.local.json), or copy the .pyz into "
                    "the repository, commit it and run this again with it for a team entry."
                    % " ".join([command] + lead))
    _config_say("the hook only adds context; it never blocks an edit and exits 0 whatever "
                "happens. Check it with adrkit-mcp doctor.")
    for note in _config_warnings(command, lead, "portable", [root], adr_dir):
        _config_say(note)
    return 0


def _config_print(options: Any, wanted: List[str], snippets: Dict[str, Dict[str, Any]]) -> None:
    """The snippets on stdout: one client's as its file takes it (TOML for Codex), or --all's
    object keyed by client id (Codex's table as JSON there)."""
    if options.all:
        _config_write_json(snippets)
        _config_say("codex's value is its config.toml table written as JSON: `adrkit-mcp config "
                    "codex` prints it as TOML.")
    elif wanted[0] == "codex":
        sys.stdout.write(_config_toml(snippets["codex"]))
        sys.stdout.flush()
    else:
        _config_write_json(snippets[wanted[0]])


def command_config(options: Any) -> int:
    """`adrkit-mcp config ...`: print the MCP client configuration for this server."""
    ids = [client_id for client_id, _, _ in config_clients]
    if options.list:
        width = max(len(client_id) for client_id in ids)
        for client_id, display, where in config_clients:
            sys.stdout.write("%s  %s: %s\n" % (client_id.ljust(width), display, where))
        return 0
    wanted = ids if options.all else [str(options.client)]
    adr_dir = location(options)[1] or DEFAULT_ADR_DIR
    root = _config_root(options, for_vscode=False)
    if root is not None and not os.path.isdir(root):
        sys.stderr.write("adrkit-mcp config: %s is not a directory; fix: pass the repository's "
                         "folder with --cwd (or $%s)\n" % (root, ENV_CWD))
        return 1
    command, lead, how = _config_launcher()
    program = _config_in_repository(lead, how, root)
    if options.portable and program is None:
        sys.stderr.write("adrkit-mcp config: --portable needs the program inside the repository "
                         "%s: copy %s into it (for example to tools/) and run config from there\n"
                         % (root, lead[0] if lead else command))
        return 1
    if how != "zipapp" and not options.portable:
        program = None  # a module file inside the root is portable on request only
    if options.hook:
        return _config_hook(options, wanted[0], command, lead, program, str(root), adr_dir)
    snippets = {}
    for client_id in wanted:
        client_root = _config_root(options, for_vscode=True) if client_id == "vscode" else root
        if program is not None and client_id in _config_project_clients:
            snippets[client_id] = _config_portable_snippet(options, client_id, program, adr_dir)
        else:
            snippets[client_id] = _config_snippet(options, client_id, command, lead, client_root, adr_dir)
    _config_print(options, wanted, snippets)
    _config_notes(options, wanted, program, command, lead, how, adr_dir)
    return 0


def _config_notes(options: Any, wanted: List[str], program: Optional[str], command: str,
                  lead: List[str], how: str, adr_dir: str) -> None:
    """Where each snippet goes, how to merge it, and the warnings, on stderr."""
    for client_id in wanted:
        display, where = _config_where(client_id)
        _config_say("%s: %s." % (display, where))
        if not options.all:
            _config_say("MERGE this into that file (%s); do not overwrite the file, which holds "
                        "your other servers and settings." % _config_merge_hint(client_id))
            if client_id in _config_client_notes:
                _config_say(_config_client_notes[client_id])
    if options.all:
        _config_say("each value above is a snippet to MERGE into that client's file (add the "
                    "\"%s\" entry next to the existing ones); never overwrite a whole file."
                    % _config_server_name)
    absolute = [c for c in wanted if program is None or c not in _config_project_clients]
    if program is not None and len(absolute) < len(wanted):
        for line in _config_portable_notes(str(_config_root(options, for_vscode=False)), program, absolute):
            _config_say(line)
    if absolute:
        _config_say("the command is absolute on purpose: GUI clients do not inherit your shell's "
                    "PATH (the usual cause of 'spawn ... ENOENT').")
        warning = _config_machine_paths(absolute, command, lead)
        if warning is not None:
            _config_say(warning)
    roots: List[str] = []
    for client_id in wanted:
        client_root = _config_root(options, for_vscode=client_id == "vscode")
        if client_root is not None and client_root not in roots:
            roots.append(client_root)
    for line in _config_warnings(command, lead, how if absolute else "portable", roots, adr_dir):
        _config_say(line)


# ---------------------------------------------------------------------------
# 13. Hook: the coding-agent hook, `adrkit-mcp hook` (ADRs 0013 and 0018)
# ---------------------------------------------------------------------------
#
# An agent runs the command with one JSON event on stdin: before an edit (Claude Code, Codex CLI,
# VS Code, Cline) or just after it, where only that event carries context to the model (Copilot
# CLI's postToolUse, Gemini CLI's AfterTool, Cursor's postToolUse). HOOK_FORMATS (Contract) says,
# for each agent, where the event name, the tool, its arguments and the paths are, and how the
# answer looks. `--format` names the agent (every printed entry does); without it hook_gate tells
# the agent from the event's fields. The paths become repository-relative, then the validator and
# pure function of get_decision_context answer on a fresh projection, exactly as a tool call would.
# The answer is context for the model and nothing else (ADR 0013): every outcome exits 0; an event
# for a tool that edits nothing gets the agent's neutral answer and no stderr line, anything else
# the hook cannot use gets the neutral answer and one stderr line.

HOOK_MAX_EVENT_BYTES = 8 * 1024 * 1024   # a Write of a bigger file gets no context (one stderr line)

# One line on stderr per refused input; "adrkit-mcp hook: " is put in front.
HOOK_REFUSALS = {
    "too-large": "the event is larger than %d bytes" % HOOK_MAX_EVENT_BYTES,
    "not-utf8": "the event is not UTF-8",
    "not-json": "the event is not JSON ({detail})",
    "not-object": "the event is not a JSON object",
    "unknown-event": "the event is none of the agents' edit events ({formats})",
    "wrong-event": "{field} is {value}; {agent} answers in {events}",
    "no-edit-event": "{field} is {value}, no agent's edit event ({events})",
    "no-input": "{field} is not a JSON object",
    "no-path": "{field} is missing, empty or not a string",
    "bad-patch": "{field} is not a patch ({detail})",
    "too-many-files": "the edit names {count} files, more than {limit}",
    "bad-cwd": "{field} is not an absolute path",
    "outside": "{path} lies outside the repository {root}",
    "corpus": "the corpus cannot be used: {message}",
    "invalid": "{message}",
    "failed": "unexpected {detail}",
}

class _HookRefusal(Exception):
    """An event, path or corpus the hook cannot use: one line on stderr, exit 0."""

    def __init__(self, key: str, **facts: Any) -> None:
        Exception.__init__(self, key)
        self.key = key
        self.facts = facts

    def line(self) -> str:
        return HOOK_REFUSALS[self.key].format(**self.facts)


def _hook_dig(value: Any, path: str) -> Any:
    """The value at a dotted path of the event ("a.b", "roots.0"), or None. JSON text met on the way
    down is parsed (Copilot CLI sends toolArgs as JSON text). Standard library only: build.py copies
    this function into the .pyz's entry point with hook_gate."""
    for key in path.split("."):
        if isinstance(value, str) and value[:1] == "{":
            try:
                value = json.loads(value)
            except ValueError:
                return None
        if isinstance(value, dict):
            value = value.get(key)
        elif isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        else:
            return None
    return value


def hook_gate(event: Any, forced: Optional[str], formats: Dict[str, Any],
              order: Sequence[str]) -> Tuple[Optional[str], str]:
    """(agent format, verdict) of one event, from HOOK_FORMATS alone.

    "edit": an editing tool of the agent (the caller reads its paths); "quiet": the agent's edit
    event for a tool that edits nothing (a shell command that runs no apply_patch, a call whose
    `when` values say it only reads, or arguments an adapter emptied: Cline passes a patch sent as
    bare text as `parameters: {}`); "foreign": not the forced format's event (another agent runs
    this entry, as VS Code, Copilot CLI and Cursor run the hook files they find); "wrong-event": the agent's event, but not one it can be answered in;
    "unknown": no agent's. Without a forced format the first agent in `order` whose marks, event
    and tool with one of its path places fit wins, else the first whose tool fits (its argument
    missing: the caller refuses it). Uses nothing of the module but _hook_dig: build.py copies
    both into the .pyz's entry point, which answers "quiet" and "foreign" before anything else is
    imported (ADR 0018).
    """
    quiet = wrong = unsure = None
    for name in ([forced] if forced else order):
        fmt = formats[name]
        if (not isinstance(event, dict) or any(_hook_dig(event, mark) is None for mark in fmt["marks"])
                or any(key in event for key in fmt["not"])):
            continue
        if _hook_dig(event, fmt["event"]) not in fmt["events"]:
            wrong = wrong or name
            continue
        tool = _hook_dig(event, fmt["tool"])
        places = fmt["tools"].get(tool) if isinstance(tool, str) else None
        arguments = _hook_dig(event, fmt["input"]) if places else None
        found = shells = 0
        for place in places or ():
            kind, _, field = place.rpartition(":")
            value = arguments if not field else _hook_dig(arguments, field.split("[]")[0])
            shells += kind == "shell"
            if kind == "shell" or (kind == "patch" and not field):  # text that must hold a patch
                found += (isinstance(value, str) and "*** Begin Patch" in value
                          and (kind != "shell" or "apply_patch" in value or "applypatch" in value))
            else:
                found += value is not None
        when = fmt.get("when", {}).get(tool, {}) if places else {}
        edits = all(_hook_dig(arguments, key) in values for key, values in when.items())
        if places is None or (not found and shells == len(places)) or arguments == {} or not edits:
            quiet = quiet or name
        elif forced or found:
            return name, "edit"
        else:  # its tool without its argument: a later agent's tool of the same name, or malformed
            unsure = unsure or name
    if unsure is not None:
        return unsure, "edit"
    if quiet is not None:
        return quiet, "quiet"
    if wrong is not None:
        return wrong, "wrong-event"
    return forced, "foreign" if forced else "unknown"


def _hook_shown(value: object) -> str:
    """A value of the event as one short line (JSON, at most 80 characters)."""
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 80 else text[:77] + "..."


def _hook_read_event(stream: Any) -> Any:
    """The event read from a binary stream (at most HOOK_MAX_EVENT_BYTES), parsed as JSON."""
    data = stream.read(HOOK_MAX_EVENT_BYTES + 1)
    if len(data) > HOOK_MAX_EVENT_BYTES:
        while stream.read(1 << 16):  # drain, so the agent's write never meets a closed pipe
            pass
        raise _HookRefusal("too-large")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise _HookRefusal("not-utf8") from None
    try:
        event = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise _HookRefusal("not-json", detail=str(error) or type(error).__name__) from None
    if not isinstance(event, dict):
        raise _HookRefusal("not-object")
    return event

HOOK_PATCH_HEADERS = ("*** Add File: ", "*** Delete File: ", "*** Update File: ")  # apply_patch

HOOK_PATCH_PREAMBLE = "*** Environment ID:"  # optional, right after *** Begin Patch (Codex, several


def _hook_patch_paths(text: str, field: str) -> List[str]:
    """Every path a patch in the apply_patch format names, in order: Add File, Update File (and its
    Move to), Delete File. Read as Codex's parser reads it (codex-rs/apply-patch/src/parser.rs):
    the whole text trimmed, an optional <<EOF heredoc around it, header lines trimmed, a Move to
    line only right after its Update File line; an added file's lines start with "+", an update's
    hunk runs to the next line that starts with "*" other than "*** End of File". An
    `*** Environment ID:` line may stand right after *** Begin Patch (streaming_parser.rs)."""
    lines = [line[:-1] if line.endswith("\r") else line for line in text.strip().split("\n")]
    if len(lines) >= 4 and lines[0] in ("<<EOF", "<<'EOF'", '<<"EOF"') and lines[-1].endswith("EOF"):
        lines = lines[1:-1]
    if len(lines) < 2 or lines[0].strip() != "*** Begin Patch" or lines[-1].strip() != "*** End Patch":
        raise _HookRefusal("bad-patch", field=field, detail="no *** Begin Patch ... *** End Patch")
    body, paths, index = lines[1:-1], [], 0
    if body and body[0].strip().startswith(HOOK_PATCH_PREAMBLE):
        index = 1
    while index < len(body):
        line = body[index].strip()
        header = next((h for h in HOOK_PATCH_HEADERS if line.startswith(h)), None)
        if header is None:
            raise _HookRefusal("bad-patch", field=field, detail="line %d is no file header" % (index + 2))
        paths.append(line[len(header):])
        index += 1
        if header == "*** Add File: ":
            while index < len(body) and body[index].startswith("+"):
                index += 1
        elif header == "*** Update File: ":
            if index < len(body) and body[index].startswith("*** Move to: "):
                paths.append(body[index][len("*** Move to: "):])
                index += 1
            while index < len(body) and not (body[index].startswith("*")
                                             and body[index].strip() != "*** End of File"):
                index += 1
    return paths

                                             # environments: codex-rs/apply-patch streaming_parser.rs)
HOOK_SHELL_PATCH = re.compile(r"\A\s*(?:cd\s+(?P<dir>'[^']*'|\"[^\"]*\"|[^\s;&|]+)\s*&&\s*)?"
                              r"(?:apply_patch|applypatch)\b")  # Codex's invocation.rs: [cd DIR &&] apply_patch


def _hook_shell_patch_paths(command: str, field: str) -> List[str]:
    """The paths of an apply_patch run through a shell, as Codex intercepts it
    (codex-rs/apply-patch/src/invocation.rs): `[cd DIR &&] apply_patch <<'EOF' ... EOF`, or the
    patch as its argument; DIR goes in front of each relative path. The patch is the text from
    the first *** Begin Patch to the last *** End Patch."""
    match = HOOK_SHELL_PATCH.match(command)
    start, end = command.find("*** Begin Patch"), command.rfind("*** End Patch")
    if match is None or start < 0 or end < start:
        raise _HookRefusal("bad-patch", field=field, detail="no apply_patch <<'EOF' ... EOF")
    folder = (match.group("dir") or "").strip("'\"")
    paths = _hook_patch_paths(command[start:end + len("*** End Patch")], field)
    return [os.path.join(folder, path) if folder else path for path in paths]


def _hook_arguments(event: Dict[str, Any], fmt: Dict[str, Any]) -> Any:
    """The tool's arguments: an object (JSON text parsed), or the text itself where the tool takes
    a bare patch (`patch:`)."""
    arguments = _hook_dig(event, fmt["input"])
    if isinstance(arguments, str) and arguments.lstrip()[:1] == "{":
        try:
            arguments = json.loads(arguments)
        except (ValueError, RecursionError):
            arguments = None
    if not isinstance(arguments, (dict, str)):
        raise _HookRefusal("no-input", field=fmt["input"])
    return arguments


def _hook_targets(event: Dict[str, Any], fmt: Dict[str, Any]) -> List[str]:
    """The paths the event's tool edits (or has edited), as the event gives them: from the first
    of the tool's places (HOOK_FORMATS) that the arguments hold."""
    arguments = _hook_arguments(event, fmt)
    places = fmt["tools"][_hook_dig(event, fmt["tool"])]
    paths: List[Any] = []
    named = places[0].rpartition(":")[2]
    where = "%s.%s" % (fmt["input"], named) if named else fmt["input"]
    for place in places:
        kind, _, field = place.rpartition(":")
        if not field:  # the arguments are the patch itself
            value = arguments if isinstance(arguments, str) else None
        else:
            value = arguments.get(field.partition("[]")[0]) if isinstance(arguments, dict) else None
        if value is None:
            continue
        where = "%s.%s" % (fmt["input"], field) if field else fmt["input"]
        if kind in ("patch", "shell"):
            if not isinstance(value, str):
                break
            paths = (_hook_patch_paths if kind == "patch" else _hook_shell_patch_paths)(value, where)
        elif "[]." in field:
            inner = field.partition("[].")[2]
            paths = [item.get(inner) if isinstance(item, dict) else None
                     for item in (value if isinstance(value, list) and value else [None])]
        else:
            paths = [value]
        break
    if not paths or any(not isinstance(path, str) or not path for path in paths):
        raise _HookRefusal("no-path", field=where)
    return list(dict.fromkeys(paths))


def _hook_first(event: Dict[str, Any], keys: Sequence[str], field_check: bool = True) -> Optional[str]:
    """The first of the event's keys that is present: an absolute path, or a refusal."""
    for key in keys:
        value = _hook_dig(event, key)
        if value is None:
            continue
        if field_check and not (isinstance(value, str) and os.path.isabs(value)):
            raise _HookRefusal("bad-cwd", field=key)
        return value
    return None


def _hook_location(options: Any, event: Dict[str, Any], fmt: Dict[str, Any]) -> Tuple[str, str, str]:
    """(root, ADR folder, folder that relative paths start from) for this event."""
    flag_root, adr_dir = location(options)
    base = _hook_first(event, fmt["base"])
    event_root = _hook_first(event, fmt["root"])
    environment = next((os.environ[name] for name in fmt["root_env"] if os.environ.get(name)), None)
    root = flag_root or event_root or environment or os.getcwd()
    return root, adr_dir or DEFAULT_ADR_DIR, base or os.path.abspath(root)


def _hook_repository_path(path: str, base: str, canonical_root: str) -> str:
    """`path` relative to the canonical root with / separators; refused when it lies outside.

    The folder is resolved (symlinks, /tmp -> /private/tmp), the name is kept: the file may not
    exist yet (Write creates it), and a symlink's own name is what the records' globs see.
    """
    scheme = re.match(r"([A-Za-z][A-Za-z0-9+.-]+):", path)
    if scheme is not None:  # a URI (VS Code's tools take file:// URIs in filePath)
        path = _hook_file_uri(path) if scheme.group(1).lower() == "file" else ""
        if not path:
            raise _HookRefusal("outside", path=_hook_shown(scheme.string), root=canonical_root)
    full = os.path.normpath(os.path.join(base, path))
    parent, name = os.path.split(full)
    try:
        inside = os.path.relpath(os.path.join(os.path.realpath(parent), name), canonical_root)
    except ValueError:  # another drive on Windows, or a NUL in the path
        inside = os.pardir
    if (not name or inside in (os.curdir, os.pardir) or inside.startswith(os.pardir + os.sep)
            or os.path.isabs(inside)):
        raise _HookRefusal("outside", path=_hook_shown(path), root=canonical_root)
    return inside.replace(os.sep, "/")


def _hook_file_uri(uri: str) -> str:
    """The local path of a file:// URI ("" for another host), percent-escapes decoded; on Windows
    the slash before a drive letter goes."""
    from urllib.parse import unquote, urlsplit
    parts = urlsplit(uri)
    if parts.netloc.lower() not in ("", "localhost"):
        return ""
    local = unquote(parts.path)
    return local[1:] if os.name == "nt" and re.match(r"/[A-Za-z]:", local) else local

HOOK_TITLE_LIMIT = 160             # characters of a title before it is cut with "..."


def _hook_title(title: str) -> str:
    title = " ".join(title.split())
    return title if len(title) <= HOOK_TITLE_LIMIT else title[:HOOK_TITLE_LIMIT - 3].rstrip() + "..."

HOOK_TEXTS = {
    "header": "Decision records ({adr_dir}) that concern {files}:",
    "more-files": "{shown} and {count} more",
    "left-out": "(Left out, outside the repository: {paths}.)",
    "accepted": '- ADR {id} "{title}" (accepted): it governs {which}; follow it.',
    "this-file": "this file",
    "these-files": "one or more of these files",
    "rejected": '- ADR {id} "{title}" (rejected): the team decided against this; do not propose '
                'it again.',
    "superseded": '- ADR {id} "{title}" (superseded): replaced by {replacement}; do not '
                  'follow this one.',
    "deprecated": '- ADR {id} "{title}" (deprecated): no longer in force; do not rely on it.',
    "proposed": '- ADR {id} "{title}" (proposed): not decided yet; do not treat it as settled.',
    "draft": '- ADR {id} "{title}" (draft): not decided yet; do not treat it as settled.',
    "replacement-local": 'ADR {id} "{title}" ({status})',
    "replacement-missing": "ADR {ref}, which is not in the records",
    "replacement-ambiguous": "ADR {ref}, which {count} records claim",
    "replacement-federated": "{ref} in another decision log",
    "cut": "{count} more not shown: call get_decision_context for all of them.",
    "more": "More decisions concern these files: call get_decision_context for all of them.",
    "footer": "Call get_decision with an id for the full record.",
}


def _hook_replacement(ref: Optional[str], projection: "Projection") -> str:
    """What replaced a superseded record, in words: the record's id and title when it is here."""
    if not ref:
        return HOOK_TEXTS["replacement-missing"].format(ref="(none named)")
    log, local_id = split_adr_ref(ref)
    if log is not None:
        return HOOK_TEXTS["replacement-federated"].format(ref=ref)
    bucket = projection.by_id.get(local_id, [])
    if len(bucket) == 1:
        return HOOK_TEXTS["replacement-local"].format(
            id=bucket[0].id, title=_hook_title(bucket[0].frontmatter["title"]),
            status=bucket[0].frontmatter["status"])
    if not bucket:
        return HOOK_TEXTS["replacement-missing"].format(ref=ref)
    return HOOK_TEXTS["replacement-ambiguous"].format(ref=ref, count=len(bucket))


def _hook_line(entry: Dict[str, Any], projection: "Projection", files: int) -> str:
    facts = {"id": entry["id"], "title": _hook_title(entry["title"]), "replacement": "",
             "which": HOOK_TEXTS["this-file" if files == 1 else "these-files"]}
    if entry["status"] == "superseded":
        facts["replacement"] = _hook_replacement(entry["relations"]["supersededBy"], projection)
    return HOOK_TEXTS[entry["status"]].format(**facts)


def _words(text: str) -> int:
    return len(text.split())

HOOK_HEADER_FILES = 5              # files the header names before "and N more"


def _hook_files_named(files: List[str]) -> str:
    shown = ", ".join(files[:HOOK_HEADER_FILES])
    if len(files) <= HOOK_HEADER_FILES:
        return shown
    return HOOK_TEXTS["more-files"].format(shown=shown, count=len(files) - HOOK_HEADER_FILES)

HOOK_WORD_LIMIT = 300              # words of the context text, footer included

HOOK_STATUS_ORDER = ("accepted", "rejected", "superseded", "deprecated", "proposed", "draft")


def hook_context_text(entries: List[Dict[str, Any]], files: List[str], more: bool,
                      projection: "Projection", adr_dir: str, left: Sequence[str] = ()) -> str:
    """The context text: one line per decision, accepted first, within HOOK_WORD_LIMIT; `left`,
    the paths of the edit left out as outside the repository, named after the header."""
    rank = {status: index for index, status in enumerate(HOOK_STATUS_ORDER)}
    ordered = sorted(entries, key=lambda entry: rank.get(entry["status"], len(rank)))
    header = HOOK_TEXTS["header"].format(adr_dir=adr_dir, files=_hook_files_named(files))
    if left:
        header += "\n" + HOOK_TEXTS["left-out"].format(paths=_hook_files_named(list(left)))
    footer = HOOK_TEXTS["footer"]
    budget = (HOOK_WORD_LIMIT - _words(header) - _words(footer)
              - _words(HOOK_TEXTS["cut"].format(count="100+")))
    lines, used = [header], 0
    for entry in ordered:
        line = _hook_line(entry, projection, len(files))
        if lines[1:] and used + _words(line) > budget:
            break
        lines.append(line)
        used += _words(line)
    rest = len(ordered) - (len(lines) - 1)
    if rest or more:
        lines.append(HOOK_TEXTS["cut"].format(count="%d%s" % (rest, "+" if more else "")))
    lines.append(footer)
    return "\n".join(lines)


def hook_output(name: str, event: Dict[str, Any], text: str) -> Dict[str, Any]:
    """The agent's answer that carries `text` to the model (HOOK_FORMATS' `answer`)."""
    fmt = HOOK_FORMATS[name]
    if fmt["answer"] == "hookSpecificOutput":
        return {"hookSpecificOutput": {"hookEventName": _hook_dig(event, fmt["event"]),
                                       "additionalContext": text}}
    if name == "cline":
        return {"cancel": False, fmt["answer"]: text}
    return {fmt["answer"]: text}


def _hook_files(options: Any, event: Dict[str, Any],
                fmt: Dict[str, Any]) -> Tuple[CorpusConfig, List[str], str, List[str]]:
    """(corpus, repository-relative files, ADR folder, the paths left out as outside the
    repository) of an edit event; refused when every path lies outside."""
    targets = _hook_targets(event, fmt)
    root, adr_dir, base = _hook_location(options, event, fmt)
    config = CorpusConfig(root, adr_dir, source=source_format(options), markers=options.markers)
    problem = check_roots(config)
    if problem is not None:
        raise _HookRefusal("corpus", message=unusable_text(problem[0], root, adr_dir))
    files: List[str] = []
    left: List[_HookRefusal] = []  # paths outside the repository, each left out on its own
    for target in targets:
        try:
            files.append(_hook_repository_path(target, base, str(config.expected_root)))
        except _HookRefusal as refusal:
            left.append(refusal)
    if not files:
        raise left[0]
    files = list(dict.fromkeys(files))
    if len(files) > LIMITS["files"][1]:
        raise _HookRefusal("too-many-files", count=len(files), limit=LIMITS["files"][1])
    return config, files, adr_dir, [refusal.facts["path"] for refusal in left]


def hook_answer(options: Any, event: Dict[str, Any], name: str) -> Optional[Dict[str, Any]]:
    """The agent's answer to an edit event, or None when no decision concerns its files."""
    config, files, adr_dir, left = _hook_files(options, event, HOOK_FORMATS[name])
    validate, run = TOOLS["get_decision_context"]  # the tool's own code path, as call_tool runs it
    problems, args = validate({"files": files, "limit": PAGE_MAX})
    if problems:
        raise _HookRefusal("invalid", message="; ".join(problems))
    if config.markers:  # the edited files' header windows, at most (ADR 0020)
        args[MARKERS_ARGUMENT] = config.root
    try:
        projection = load_projection(config)
    except CorpusUnavailable as error:
        raise _HookRefusal("corpus", message=CORPUS_UNAVAILABLE_MESSAGES[error.reason]) from None
    result = run(projection, args, lambda: False)[0]
    entries = result["governing"] + result["activeProposals"] + result["history"]
    if not entries:
        return None
    text = hook_context_text(entries, files, result["cursor"] is not None, projection, adr_dir, left)
    return hook_output(name, event, text)

# Auto-detection tries the formats in this order: the distinctive envelopes first; among the three
# that share Claude Code's envelope (codex, vscode, claude) the tool and its argument decide.
HOOK_DETECTION_ORDER = ("cline", "copilot", "cursor", "gemini", "codex", "vscode", "claude")


def _hook_classify(options: Any, event: Dict[str, Any]) -> Tuple[Optional[str], str]:
    """hook_gate on the Contract's table, the refusal of an event it cannot place."""
    name, verdict = hook_gate(event, options.format, HOOK_FORMATS, HOOK_DETECTION_ORDER)
    if verdict == "wrong-event":
        fmt = HOOK_FORMATS[str(name)]
        value = _hook_shown(_hook_dig(event, fmt["event"]))
        if options.format is None:
            fields: Dict[str, List[str]] = {}
            for other in HOOK_FORMATS.values():
                known = fields.setdefault(other["event"], [])
                known.extend(name for name in other["events"] if name not in known)
            raise _HookRefusal("no-edit-event", field=fmt["event"], value=value, events=", ".join(
                "%s %s" % (field, " or ".join(sorted(names))) for field, names in fields.items()))
        raise _HookRefusal("wrong-event", field=fmt["event"], agent=fmt["agent"], value=value,
                           events=" or ".join(fmt["events"]))
    if verdict == "unknown":
        raise _HookRefusal("unknown-event", formats=", ".join(HOOK_FORMAT_NAMES))
    return name, verdict


def _hook_say(stream: Any, text: str) -> None:
    try:
        stream.write(text)
        stream.flush()
    except (OSError, ValueError, AttributeError):
        pass  # nobody to speak to: still exit 0

HOOK_EXIT_STATUS = 0               # every outcome, usage errors included: never block, never deny


def hook_usage_error(argv: List[str]) -> int:
    """After the usage on stderr: the neutral answer of the agent --format names, if it names one,
    and HOOK_EXIT_STATUS, since Copilot CLI denies and Cline blocks the tool on any other status."""
    forced = None
    for index, word in enumerate(argv):
        if word.startswith("--format="):
            forced = word[len("--format="):]
        elif word == "--format" and index + 1 < len(argv):
            forced = argv[index + 1]
    forced = hook_format_name(forced) if forced is not None else None
    if forced in HOOK_FORMATS and HOOK_FORMATS[forced]["neutral"]:
        _hook_say(sys.stdout, HOOK_FORMATS[forced]["neutral"] + "\n")
    return HOOK_EXIT_STATUS

HOOK_REFUSAL_SUFFIX = "; no decision context given"


def command_hook(options: Any) -> int:
    """`adrkit-mcp hook`: answer one agent event; always exits HOOK_EXIT_STATUS (ADRs 0013, 0018)."""
    name = options.format
    answer = None
    try:
        event = _hook_read_event(sys.stdin.buffer)
        name, verdict = _hook_classify(options, event)
        if verdict == "edit":
            answer = hook_answer(options, event, str(name))
    except _HookRefusal as refusal:
        _hook_say(sys.stderr, "adrkit-mcp hook: %s%s\n" % (" ".join(refusal.line().split()),
                                                          HOOK_REFUSAL_SUFFIX))
    except Exception as error:  # never break the agent's session: say it in one line, exit 0
        detail = HOOK_REFUSALS["failed"].format(detail="%s: %s" % (type(error).__name__, error))
        _hook_say(sys.stderr, "adrkit-mcp hook: %s%s\n" % (" ".join(detail.split()), HOOK_REFUSAL_SUFFIX))
    if answer is not None:
        _hook_say(sys.stdout, json.dumps(answer, ensure_ascii=True) + "\n")
    elif name is not None and HOOK_FORMATS[name]["neutral"]:
        _hook_say(sys.stdout, HOOK_FORMATS[name]["neutral"] + "\n")
    return HOOK_EXIT_STATUS


# --- The .pyz entry point (build.py copies these out by name: ADRs 0005, 0018 and 0023) --------
#
# `python3 adrkit-mcp.pyz` starts in the archive's __main__.py, which Python compiles from source
# on every start: it holds the hook gate above and _pyz_hook_forced and _pyz_hook_early, and
# answers a hook event for a tool that edits nothing before anything else is read. Everything
# else goes on to _adrkit_start.py beside it (the rest of this part), compiled only when the gate
# hands over: where shiv's bootstrap unpacks the bundled packages (shiv's ~/.shiv fails with a
# read-only or missing HOME), the bytecode compiled once there, and a hook event run straight
# from a complete unpacked copy. These functions use only the standard library modules each file
# imports (json, sys; io, os, stat, sys) and each other: tests/test_build.py checks it.

_PYZ_APP = "adrkit-mcp"  # the cache folders' name
_PYZ_VENDORED = ("yaml", "pathspec", "idna")  # the packages build.py vendors (it checks this list)


def _pyz_hook_forced(argv: List[str]) -> Optional[str]:
    """The --format value of `hook`'s arguments, "" when there is none; None when the command line
    is not one the gate can read (the module then reports it)."""
    forced, index = "", 0
    while index < len(argv):
        word, value = argv[index], None
        for flag in ("--format", "--cwd", "--dir"):
            if word == flag and index + 1 < len(argv) and argv[index + 1] and not argv[index + 1].startswith("--"):
                value, index = argv[index + 1], index + 1
            elif word.startswith(flag + "=") and len(word) > len(flag) + 1:
                value = word[len(flag) + 1:]
            if value is not None:
                forced = value if flag == "--format" else forced
                break
        if value is None:
            return None
        index += 1
    return forced if forced in HOOK_FORMATS or not forced else None


def _pyz_hook_early() -> None:
    """`adrkit-mcp.pyz hook`: the agent's neutral answer to an event for a tool that edits nothing
    (or another agent's event), exit 0; any other event goes on to _pyz_hook_onward."""
    forced = _pyz_hook_forced(sys.argv[2:])
    stdin = sys.stdin.buffer
    data = stdin.read(HOOK_MAX_EVENT_BYTES + 1)
    if forced is not None and len(data) <= HOOK_MAX_EVENT_BYTES:
        try:
            event = json.loads(data.decode("utf-8"))
        except (ValueError, RecursionError):
            event = None
        if isinstance(event, dict):
            try:
                name, verdict = hook_gate(event, forced or None, HOOK_FORMATS, HOOK_DETECTION_ORDER)
            except Exception:  # the module meets it again and answers as it does for any failure
                name, verdict = None, "unknown"
            if verdict in ("quiet", "foreign"):
                neutral = HOOK_FORMATS[name]["neutral"] if name else ""
                if neutral:
                    sys.stdout.write(neutral + "\n")
                    sys.stdout.flush()
                sys.exit(0)
    __import__("_adrkit_start")._pyz_hook_onward(data, stdin)


def _pyz_sentinels() -> Tuple[str, ...]:
    """The files whose presence makes an unpacked copy complete, relative to its site-packages."""
    return ("adrkit_mcp.py",) + tuple(os.path.join(module, "__init__.py") for module in _PYZ_VENDORED)


def _pyz_roots() -> List[Tuple[str, bool]]:
    """(folder, shared) where the archive may unpack, in order: $XDG_CACHE_HOME/adrkit-mcp, else
    ~/.cache/adrkit-mcp (~/Library/Caches/adrkit-mcp on macOS, %LOCALAPPDATA%\\adrkit-mcp\\Cache,
    then the profile's temp folder, on Windows); then, shared, <tmp>/adrkit-mcp-<uid>."""
    roots = []
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if xdg and os.path.isabs(xdg):
        roots.append((os.path.join(xdg, _PYZ_APP), False))
    if os.name == "nt":
        local = os.environ.get("LOCALAPPDATA", "")
        if local and os.path.isabs(local):
            roots.append((os.path.join(local, _PYZ_APP, "Cache"), False))
        for var in ("TEMP", "TMP"):
            temp = os.environ.get(var, "")
            if temp and os.path.isabs(temp):
                roots.append((os.path.join(temp, _PYZ_APP), False))
    else:
        home = os.path.expanduser("~")
        if home and os.path.isabs(home):
            if sys.platform == "darwin":
                roots.append((os.path.join(home, "Library", "Caches", _PYZ_APP), False))
            else:
                roots.append((os.path.join(home, ".cache", _PYZ_APP), False))
        private = "%s-%d" % (_PYZ_APP, os.geteuid())
        temps = [os.environ.get(var, "") for var in ("TMPDIR", "TEMP", "TMP")]
        for temp in temps + ["/tmp", "/var/tmp"]:
            if temp and os.path.isabs(temp):
                roots.append((os.path.join(temp, private), True))
    unique = []
    seen = set()
    for root, shared in roots:
        key = os.path.normcase(os.path.abspath(root))
        if key not in seen:
            seen.add(key)
            unique.append((root, shared))
    return unique


def _pyz_private(path: str) -> bool:
    """Whether a folder in a shared temp dir is ours and nobody else can write it."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode) or st.st_mode & 0o022:
        return False
    return not hasattr(os, "geteuid") or st.st_uid == os.geteuid()


def _pyz_usable(root: str, shared: bool) -> bool:
    """Whether the archive can unpack into `root` (made if missing: mode 0700, private if shared)."""
    try:
        if shared:
            try:
                os.mkdir(root, 0o700)
            except FileExistsError:
                pass
            if not _pyz_private(root):
                return False
        else:
            os.makedirs(root, 0o700, exist_ok=True)
        return os.path.isdir(root) and os.access(root, os.W_OK | os.X_OK)
    except OSError:
        return False


def _pyz_complete(target: str) -> bool:
    """Whether the unpacked copy `target` holds every sentinel file."""
    site = os.path.join(target, "site-packages")
    return all(os.path.isfile(os.path.join(site, name)) for name in _pyz_sentinels())


def _pyz_compiled(site: str) -> bool:
    """Whether this interpreter's bytecode of every sentinel file is in the unpacked copy."""
    import importlib.util
    try:
        return all(os.path.isfile(importlib.util.cache_from_source(os.path.join(site, name)))
                   for name in _pyz_sentinels())
    except NotImplementedError:  # an interpreter without a bytecode cache: nothing to add
        return True


def _pyz_add_bytecode(target: str, file_lock: Any) -> None:
    """A copy unpacked by another Python holds that interpreter's bytecode only: the first run of
    this interpreter adds its own, once, under the unpacking lock (shiv's FileLock); its later
    runs write nothing."""
    site = os.path.join(target, "site-packages")
    if _pyz_compiled(site):
        return
    import compileall
    lock = os.path.join(os.path.dirname(target), ".%s_lock" % os.path.basename(target))
    try:
        with file_lock(lock):
            if not _pyz_compiled(site) and not compileall.compile_dir(site, quiet=2, workers=1):
                raise OSError("a file could not be compiled or written")
    except OSError as exc:
        sys.stderr.write(
            "adrkit-mcp: could not add Python %d.%d bytecode to %s: %s; every start compiles "
            "in memory instead.\n" % (sys.version_info[0], sys.version_info[1], site, exc))


class _PyzReplay(io.RawIOBase):
    """The bytes the gate read, then the rest of the real stdin: the module reads the event whole."""

    def __init__(self, head: bytes, rest: Any) -> None:
        self.head, self.rest = head, rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.head:
            count = min(len(buffer), len(self.head))
            buffer[:count], self.head = self.head[:count], self.head[count:]
            return count
        data = self.rest.read1(len(buffer)) if hasattr(self.rest, "read1") else self.rest.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)


def _pyz_hook_onward(data: bytes, stdin: Any) -> None:
    """The event the entry point read (`data`) and the rest of stdin go to the module, which reads
    the event whole; from the unpacked copy when it is complete, else through shiv's bootstrap."""
    sys.stdin = io.TextIOWrapper(io.BufferedReader(_PyzReplay(data, stdin)), encoding="utf-8")
    _pyz_hook_direct()


def _pyz_hook_direct() -> None:
    """The unpacked copy, looked for as _pyz_cache_path looks (without any write): when it is
    complete with this interpreter's bytecode, the module runs from it without shiv's bootstrap."""
    import json
    import zipimport
    try:
        environment = json.loads(zipimport.zipimporter(sys.argv[0]).get_data("environment.json"))
    except Exception:  # not the archive this was built into: shiv's bootstrap will say why
        return
    name = "%s_%s" % (os.path.basename(os.path.realpath(sys.argv[0])), environment.get("build_id"))
    root = os.environ.get("SHIV_ROOT") or environment.get("root")
    if root:
        targets = [os.path.join(os.path.expanduser(root), name)]
    else:
        targets = [os.path.join(place, name) for place, shared in _pyz_roots()
                   if not shared or _pyz_private(place)]
    for target in targets:
        site = os.path.join(target, "site-packages")
        if _pyz_complete(target) and _pyz_compiled(site):
            sys.path.insert(1, site)  # after the archive itself, as shiv puts it before the rest
            import adrkit_mcp
            sys.exit(adrkit_mcp.main())


def _pyz_cache_path(shiv: Any, original: Any, archive: Any, root_dir: Optional[str],
                    build_id: str) -> Any:
    """shiv's cache_path(archive, root_dir, build_id) for the archive: shiv's own (`original`)
    when $SHIV_ROOT is set, else the first complete copy in _pyz_roots' folders, else the first
    folder that can take one; exit 1 with a clear message when none can."""
    from pathlib import Path
    if root_dir:
        target = original(archive, root_dir, build_id)
        if not _pyz_complete(str(target)):
            return target
        _pyz_add_bytecode(str(target), shiv.FileLock)
        return Path(target)
    name = "%s_%s" % (os.path.basename(os.path.realpath(archive.filename)), build_id)
    roots = _pyz_roots()
    for root, shared in roots:
        target = os.path.join(root, name)
        if _pyz_complete(target) and (not shared or _pyz_private(root)):
            _pyz_add_bytecode(target, shiv.FileLock)
            return Path(target)
    for root, shared in roots:
        target = os.path.join(root, name)
        if os.path.lexists(target):
            if _pyz_complete(target) and (not shared or _pyz_private(root)):
                _pyz_add_bytecode(target, shiv.FileLock)  # another process has just unpacked it
                return Path(target)
            continue  # an incomplete or damaged copy: leave it alone, unpack elsewhere
        if _pyz_usable(root, shared):
            return Path(target)
    sys.stderr.write(
        "adrkit-mcp: found no writable directory to unpack its bundled packages into (tried: %s).\n"
        "Set SHIV_ROOT to a writable directory; it is written once, on the first run.\n"
        % ", ".join(root for root, _ in roots)
    )
    sys.exit(1)


def _pyz_extract(shiv: Any, original: Any, archive: Any, target_path: Any, compile_pyc: bool = False,
                 compile_workers: int = 0, force: bool = False) -> None:
    """shiv's extract_site_packages, run as shiv's own (`original`) with the bytecode compiled
    once, in this process (one worker: no process pool), so later starts import .pyc files; a
    failure is one clear line and exit 1."""
    try:
        original(archive, target_path, True, 1, force)
    except OSError as exc:
        sys.stderr.write(
            "adrkit-mcp: could not unpack its bundled packages into %s: %s\n"
            "Set SHIV_ROOT to a writable directory; it is written once, on the first run.\n"
            % (target_path, exc)
        )
        sys.exit(1)
    # Another interpreter may have held the lock and unpacked it first: add this one's bytecode.
    _pyz_add_bytecode(str(target_path), shiv.FileLock)


def _pyz_bootstrap() -> Any:
    """shiv's bootstrap module (`_bootstrap` in the archive), told to unpack where _pyz_cache_path
    says and as _pyz_extract does (ADR 0023: shiv 1.0.8 has no public way to choose either at
    run time); imported only here: a hook run that finds the unpacked copy complete never needs
    it."""
    import functools
    shiv = __import__("_bootstrap")
    setattr(shiv, "cache_path", functools.partial(_pyz_cache_path, shiv, shiv.cache_path))
    setattr(shiv, "extract_site_packages",
            functools.partial(_pyz_extract, shiv, shiv.extract_site_packages))
    return shiv


# ---------------------------------------------------------------------------
# 14. Migrate: `adrkit-mcp migrate --from madr`, the reference CLI's `adr migrate`
# ---------------------------------------------------------------------------
#
# Runs the Importer's door over the ADR folder as `cd ROOT && adr migrate --from madr --dir DIR`
# does (@adrkit/cli 0.8.0, runMigrate): the same candidates, results, findings, output bytes and
# exit statuses (0 ran; 2 usage or an unreachable folder; 1 where the reference stops on an
# uncaught error, with its message). Each file it reports is written whole or not at all: the new
# text goes to a temporary file in the same folder, which then replaces the old name (its
# permission bits kept); a move (--rename) never replaces a file that is already there.

SOURCE_UNSUPPORTED = ("{named} is not supported: the one format adrkit-mcp reads besides its own is "
                      "madr (MADR 2-4 and Nygard/adr-tools Markdown)")


def check_source(options: Any) -> None:
    """--from, else $ADRKIT_MCP_FROM, must name a format the importer reads."""
    value = options.source or os.environ.get(ENV_FROM) or None
    if value is not None and value not in SOURCE_FORMATS:
        named = ("--from %s" % value) if options.source else ("$%s=%s" % (ENV_FROM, value))
        options.parser.error(SOURCE_UNSUPPORTED.format(named=named))


def source_format(options: Any) -> Optional[str]:
    return options.source or os.environ.get(ENV_FROM) or None


def migrate_check(options: Any) -> None:
    """runMigrate's own usage errors, in its words."""
    if options.extra:
        options.parser.error(MIGRATE_MESSAGES["positional"])
    if not options.source:
        options.parser.error(MIGRATE_MESSAGES["from-missing"])
    if options.source not in SOURCE_FORMATS:
        options.parser.error(MIGRATE_MESSAGES["from-unsupported"].format(source=options.source))


class _MigrateStop(Exception):
    """A write migrate cannot make: the run stops here (exit 1) with this sentence."""


class MigrateFolder:
    """The candidates under the ADR folder, read whole, and what each is called."""

    def __init__(self, cwd: str, folder: str) -> None:
        self.cwd, self.folder = cwd, folder
        self.files: List[Any] = []
        self.where: Dict[str, str] = {}  # display path -> the folder it is in
        self.failures: Dict[str, str] = {}  # display path -> the error the read gave

    def visit(self, fd: Optional[int], folder: str, parts: Tuple[str, ...], name: str) -> None:
        path = os.path.join(folder, name)
        display = os.path.relpath(path, self.cwd).replace(os.sep, "/")
        self.where[display] = folder
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            handle = os.open(name, flags, dir_fd=fd) if fd is not None else os.open(path, flags)
            with os.fdopen(handle, "rb") as stream:
                data = stream.read()
        except OSError as error:
            self.failures[display] = node_error(error, "open", path)
            return
        self.files.append(MadrImport.File(display, name, bool(parts), data.decode("utf-8", "replace")))

    def exists(self, file: Any, name: str) -> bool:
        return os.path.exists(os.path.join(self.where[file.path], name))

    def commit(self, file: Any, text: str, name: Optional[str]) -> None:
        folder = self.where[file.path]
        if text != file.text:
            _replace_file(folder, file.name, JS.utf8(text))
        if name is None:
            return
        source, target = os.path.join(folder, file.name), os.path.join(folder, name)
        if os.path.exists(target):  # taken since the run looked (a dangling link is not a file)
            diagnose("migrate: not renamed, %s appeared beside %s during the run" % (name, file.path))
            return
        try:
            os.replace(source, target)
        except OSError as error:
            raise _MigrateStop(node_error(error, "rename", source, target))


def _replace_file(folder: str, name: str, data: bytes) -> None:
    """Give `folder/name` the content `data` at once: a new file beside it, then a rename over
    the name (never a write through a symlink), with the old file's permission bits (and owner,
    when root runs it). A hard link to the old file keeps the old content. _MigrateStop when the
    file cannot be replaced."""
    path = os.path.join(folder, name)
    follow = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        old = os.lstat(path)
        # The reference's writeFile opens the file itself for writing, so a file its user may not
        # write stops the run with EACCES: ask the same question (opened, closed, nothing written).
        os.close(os.open(path, os.O_WRONLY | follow))
    except OSError as error:
        raise _MigrateStop(node_error(error, "open", path))
    handle, temporary = _new_file_beside(folder, path, follow)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, stat.S_IMODE(old.st_mode))
        if hasattr(os, "geteuid") and os.geteuid() == 0:  # root keeps the file its owner's
            os.chown(temporary, old.st_uid, old.st_gid)
        os.replace(temporary, path)
    except BaseException as error:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if isinstance(error, OSError):  # a full disk, say: the old file is still whole
            raise _MigrateStop(node_error(error, "write", path))
        raise


def _new_file_beside(folder: str, path: str, follow: int) -> Tuple[int, str]:
    """(descriptor, path) of a new, empty, private file in `folder`, named never to be a candidate
    (not .md); _MigrateStop when the folder takes no new file."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | follow
    while True:
        temporary = os.path.join(folder, ".adrkit-migrate-%s.tmp" % binascii.hexlify(os.urandom(6)).decode())
        try:
            return os.open(temporary, flags, 0o600), temporary
        except FileExistsError:
            continue
        except OSError as error:
            raise _MigrateStop(MIGRATE_MESSAGES["folder-closed"].format(
                path=path, folder=folder, error=errno.errorcode.get(error.errno or 0, "error")))


def command_migrate(options: Any) -> int:
    """`adrkit-mcp migrate --from madr`: migrate the ADR folder in place, as `adr migrate` does."""
    given_cwd, given_dir = location(options)
    cwd = os.path.realpath(given_cwd or os.getcwd())
    if not os.path.isdir(cwd):
        sys.stderr.write("%s\n" % MIGRATE_MESSAGES["cwd-unusable"].format(cwd=given_cwd))
        return 2
    adr_dir = options.dir if options.dir == "" else given_dir or DEFAULT_ADR_DIR
    folder = os.path.normpath(os.path.join(cwd, adr_dir))
    try:  # readdir(dir) on the path as given: `missing/../docs/adr` is not found, as in the reference
        if not adr_dir:
            raise FileNotFoundError(adr_dir)  # readdir('') fails with ENOENT
        os.listdir(os.path.join(cwd, adr_dir))
    except (FileNotFoundError, NotADirectoryError):
        sys.stderr.write("%s\n" % MIGRATE_MESSAGES["dir-not-found"].format(dir=adr_dir))
        return 2
    except PermissionError:
        sys.stderr.write("%s\n" % MIGRATE_MESSAGES["dir-not-readable"].format(dir=adr_dir))
        return 2
    except OSError as error:
        sys.stderr.write("%s\n" % node_error(error, "scandir", folder))
        return 1
    found = MigrateFolder(cwd, folder)
    try:
        names = walk_madr_candidates(folder, found.visit, open_directory(folder))
    except (WalkFailed, CorpusUnavailable):
        found.files, found.failures, names = [], {}, []  # the reference then finds no candidate
    if found.failures:
        first = min(found.failures, key=LocaleCollation.key)
        sys.stderr.write("%s\n" % found.failures[first])
        return 1
    commit = (lambda file, text, name: None) if options.dry_run else found.commit
    try:
        run = MadrImport.migrate(found.files, names, options.rename, found.exists, commit)
    except _MigrateStop as stop:
        sys.stderr.write("%s\n" % stop)
        return 1
    if run.crashed is not None:
        sys.stderr.write("%s\n" % run.crashed)
        return 1
    sys.stdout.write(JS.json({"results": run.results, "divergence": run.divergence,
                              "findings": run.findings}) + "\n" if options.json
                     else migrate_report(run))
    return 0


def migrate_report(run: Any) -> str:
    """renderHumanMigrate: a line per file, the counts, the divergence, then the findings."""
    counts = dict.fromkeys(("migrated", "updated", "unchanged", "diverged", "skipped"), 0)
    lines = []
    for result in run.results:
        counts[result["outcome"]] += 1
        renamed = " -> %s" % result["renamedTo"] if "renamedTo" in result else ""
        lines.append("%s  %s%s\n" % (result["outcome"], result["path"], renamed))
    lines.append("summary: %s\n" % ", ".join("%s %d" % item for item in counts.items()))
    lines.append("Divergence (report only):\n")
    lines.extend(["  %s  sourceRef=%s\n" % (item["path"], item["sourceRef"]) for item in run.divergence]
                 or ["  none\n"])
    if run.findings:
        lines.append("Findings:\n")
        lines.extend(finding_line(finding) for finding in run.findings)
    return "".join(lines)


def finding_line(finding: Finding) -> str:
    """renderFinding: `  <severity> <rule>[ id][ field][ pattern]: <message>`."""
    extras = "".join(" %s" % value for value in (finding.get("id"), finding.get("field"), finding.get("pattern"))
                     if value)
    return "  %s %s%s: %s\n" % (finding["severity"], finding["rule"], extras, finding["message"])


# ---------------------------------------------------------------------------
# 15. Reference CLI: the reference CLI's `lint`, `graph`, `new`, `explain` and `check`
# ---------------------------------------------------------------------------
#
# Each runs as `cd CWD && adr <command> ...` does (@adrkit/cli 0.8.0, packages/cli/src/index.ts):
# the same stdout, --json bytes, stderr and exit statuses (0; 1 on an error finding, a file that
# exists or an error the reference does not catch, with its message; 2 on a usage error or an ADR
# folder that is missing or unreadable). The rows of _commands() say how each command line is
# read (_reference_parse); the corpus is the Projection's cli_lint_corpus; ADR 0019 says what
# differs. `new` writes its one file whole and never over another (_write_new_file).

def _say(stream: Any, text: str) -> None:
    """Write as the reference's runtime writes a string: a lone surrogate (a YAML escape in a
    title, say) becomes U+FFFD, where Python's strict encoder would stop the run."""
    stream.write(JS.utf8(text).decode("utf-8"))


def _reference_cwd(options: Any) -> Optional[str]:
    """The folder the command runs in, as the reference's process.cwd() would be there (symlinks
    resolved): --cwd, else $ADRKIT_MCP_CWD, else here. None, said on stderr, when it is none."""
    given = options.cwd or os.environ.get(ENV_CWD) or None
    cwd = os.path.realpath(given or os.getcwd())
    if not os.path.isdir(cwd):
        _say(sys.stderr, CLI_MESSAGES["cwd-unusable"].format(command=options.command, cwd=given) + "\n")
        return None
    return cwd


def _reference_dir(options: Any) -> str:
    """The ADR folder as given: --dir (even empty), else $ADRKIT_MCP_DIR, else docs/adr."""
    return options.dir if options.dir is not None else os.environ.get(ENV_DIR) or DEFAULT_ADR_DIR


def _reference_corpus(options: Any) -> Union[int, Tuple[str, str, Any]]:
    """(folder run in, ADR folder, the corpus as lintCorpus reads it) for graph, explain and
    check; or the exit status, its message written, when either folder cannot be used."""
    cwd = _reference_cwd(options)
    if cwd is None:
        return 2
    adr_dir = _reference_dir(options)
    try:
        return cwd, adr_dir, cli_lint_corpus(cwd, adr_dir)
    except OSError as error:
        return _reference_corpus_error(error, cwd, adr_dir)


def _reference_corpus_error(error: OSError, cwd: str, adr_dir: str) -> int:
    """handleCorpusDirectoryError: the ADR folder missing (or not a folder) or unreadable is a
    usage error (exit 2, the reference's sentence); any other failure is an error the reference
    does not catch (exit 1, Node's words for it)."""
    code = errno.errorcode.get(error.errno or 0, "")
    where = error.filename if isinstance(error.filename, str) else None
    if code in ("ENOENT", "ENOTDIR", "EACCES", "EPERM") and (
            where is None or cli_resolve(cwd, where) == cli_resolve(cwd, adr_dir)):
        kind = "dir-not-readable" if code in ("EACCES", "EPERM") else "dir-not-found"
        _say(sys.stderr, CLI_MESSAGES[kind].format(dir=adr_dir) + "\n")
        return 2
    _say(sys.stderr, node_error(error, "scandir", where if where is not None else adr_dir) + "\n")
    return 1


def _listing_failure(cwd: str, adr_dir: str) -> Optional[OSError]:
    """ensureCorpusDirectoryReadable: readdir(dir) as given, relative to cwd; its error, if any."""
    try:
        if not adr_dir:
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT))  # readdir('') fails so
        os.listdir(os.path.join(cwd, adr_dir))
    except OSError as error:
        error.filename = adr_dir
        return error
    return None


def _dir_given(options: Any) -> bool:
    """hasValueFlag(args, '--dir'): --dir before any `--` (or $ADRKIT_MCP_DIR, which stands in)."""
    for arg in options.argv:
        if arg == "--":
            break
        if arg == "--dir" or arg.startswith("--dir="):
            return True
    return bool(os.environ.get(ENV_DIR))

LINT_CORPUS_GROUP = "(corpus)"


def lint_findings_text(findings: List[Finding]) -> str:
    """renderHumanLint: the findings under their paths ("(corpus)" for none), paths in
    localeCompare order, each finding as renderFinding writes it."""
    groups: Dict[str, List[Finding]] = {}
    for finding in findings:
        groups.setdefault(finding.get("path") or LINT_CORPUS_GROUP, []).append(finding)
    return "".join(path + "\n" + "".join(finding_line(finding) for finding in groups[path])
                   for path in sorted(groups, key=LocaleCollation.key))

# lint's summary line, and the human lines of its findings (renderHumanLint: grouped by path).
LINT_SUMMARY = "checked {checked} records, {errors} errors, {warnings} warnings\n"


def command_lint(options: Any) -> int:
    """`adrkit-mcp lint [paths...]`: runLint, the corpus (or the paths) validated."""
    cwd = _reference_cwd(options)
    if cwd is None:
        return 2
    adr_dir = _reference_dir(options)
    if options.positionals and _dir_given(options):
        failure = _listing_failure(cwd, adr_dir)
        if failure is not None:
            return _reference_corpus_error(failure, cwd, adr_dir)
    try:
        corpus = cli_lint_corpus(cwd, adr_dir, options.positionals)
    except OSError as error:
        return _reference_corpus_error(error, cwd, adr_dir)
    findings = corpus.findings
    if options.json:
        _say(sys.stdout, JS.json({"checked": corpus.checked, "findings": findings}) + "\n")
    else:
        _say(sys.stderr, lint_findings_text(findings))
        _say(sys.stdout, LINT_SUMMARY.format(
            checked=corpus.checked, errors=sum(finding["severity"] == "error" for finding in findings),
            warnings=sum(finding["severity"] == "warn" for finding in findings)))
    return 1 if any(finding["severity"] == "error" for finding in findings) else 0


def graph_check(options: Any) -> None:
    if options.positionals:
        options.parser.error(CLI_MESSAGES["graph-positional"])
    if (options.format if options.format is not None else "dot") not in ("dot", "json"):
        options.parser.error(CLI_MESSAGES["graph-format"])


def decision_graph(records: List[Record]) -> Dict[str, Any]:
    """buildAdrGraph: nodes by id and edges by (from, to, kind), each in localeCompare order;
    an edge only between two ids the corpus holds, once."""
    ordered = sorted(records, key=lambda record: LocaleCollation.key(record.id))
    ids = {record.id for record in ordered}
    edges: Dict[Tuple[str, str, str], Dict[str, str]] = {}

    def edge(source: str, target: str, kind: str) -> None:
        if source in ids and target in ids:
            edges[(source, target, kind)] = {"from": source, "to": target, "kind": kind}
    for record in ordered:
        fm = record.frontmatter
        for ref in fm["supersedes"]:
            edge(record.id, ref, "supersedes")
        if fm.get("supersededBy"):
            edge(fm["supersededBy"], record.id, "supersedes")
        for ref in fm["relatesTo"]:
            edge(record.id, ref, "relatesTo")
        for ref in fm["conflictsWith"]:
            edge(record.id, ref, "conflictsWith")
    key = LocaleCollation.key
    return {"nodes": [{"id": record.id, "title": record.frontmatter["title"], "status": record.frontmatter["status"]}
                      for record in ordered],
            "edges": sorted(edges.values(), key=lambda item: (key(item["from"]), key(item["to"]), key(item["kind"])))}


def _dot_string(text: str) -> str:
    return '"%s"' % text.replace("\\", "\\\\").replace("\r", "\\n").replace("\n", "\\n").replace('"', '\\"')


def dot_graph(graph: Dict[str, Any]) -> str:
    """renderDotGraph: a `digraph adr`, left to right, a node per record, an edge per relation."""
    lines = ["digraph adr {", "  rankdir=LR;"]
    for node in graph["nodes"]:
        lines.append("  %s [label=%s, status=%s];" % (_dot_string(node["id"]), _dot_string(
            "%s: %s" % (node["id"], node["title"])), _dot_string(node["status"])))
    for item in graph["edges"]:
        lines.append("  %s -> %s [label=%s];" % (_dot_string(item["from"]), _dot_string(item["to"]),
                                                 _dot_string(item["kind"])))
    return "\n".join(lines + ["}"]) + "\n"


def command_graph(options: Any) -> int:
    """`adrkit-mcp graph [--format dot|json]`: runGraph, the valid records' relations."""
    loaded = _reference_corpus(options)
    if isinstance(loaded, int):
        return loaded
    corpus = loaded[2]
    graph = decision_graph(corpus.records)
    _say(sys.stdout, JS.json(graph) + "\n" if options.format == "json" else dot_graph(graph))
    return 0


def new_check(options: Any) -> None:
    if not JS.trim(" ".join(options.positionals)):
        options.parser.error(CLI_MESSAGES["new-title-missing"])


class _ScaffoldError(Exception):
    """createAdr's ScaffoldError: `usage` (exit 2) or `exists` (exit 1), with its message."""

    def __init__(self, code: str, message: str) -> None:
        Exception.__init__(self, message)
        self.code = code


def new_record_slug(title: str) -> str:
    """slugifyTitle: NFKD, combining marks dropped, lower case, runs of anything but a-z0-9 as one
    `-`, at most 80 characters; _ScaffoldError when nothing is left."""
    text = re.sub("[\u0300-\u036f]", "", unicodedata.normalize("NFKD", title)).lower()
    slug = re.sub("[^a-z0-9]+", "-", text).strip("-")
    if not slug:
        raise _ScaffoldError("usage", CLI_MESSAGES["title-ascii"])
    return slug[:80].rstrip("-")


def _next_record_id(folder: str, cwd: str) -> str:
    """nextSequentialId: one past the largest leading number of the records' names, as a
    JavaScript number prints, padded to four digits (0001 for a folder it cannot list)."""
    try:
        names = [os.path.basename(path) for path in cli_discover(folder, cwd)]
    except OSError:
        names = []
    highest = 0.0
    for name in names:
        match = re.match("[0-9]+-", name)
        if match:
            highest = max(highest, float(name[:match.end() - 1]))
    return JS.number_text(highest + 1).rjust(4, "0")

# The record `new` writes (renderAdrRecord): its frontmatter, then the reference's template body.
NEW_RECORD_TEXT = """---
schemaVersion: %(schema)s
id: "%(id)s"
title: %(title_json)s
status: %(status)s
date: %(date)s
deciders: []
tags: []
scope: component
reversibility: unknown
blastRadius: component
relatesTo: []
affects: []
provenance:
  authoredBy: human
---

# ADR-%(id)s: %(title)s

## Context

What forces are at play? What makes this a decision rather than a preference?
Why now \u2014 what changed?

State the problem, not the solution. If this section is a restatement of the
option you already picked, the record scores 2 at best on D1.

## Decision

What we are doing, in the active voice. "We will\u2026"

## Options considered

At least two genuine alternatives, including doing nothing. An option no
competent engineer would choose is a straw man and scores zero.

### Option A: <chosen>

| Dimension | Assessment |
|---|---|
| | |

### Option B: <alternative>

**Pros:**
**Cons:**

### Option C: Do nothing

## Trade-offs

What the chosen option costs. State the downsides as plainly as the benefits \u2014
a decision whose chosen option has no listed downsides is not a decision.

## Consequences

- Easier:
- Harder:
- **How we would know this was wrong:** a metric, a threshold, an exit
  condition, or a review date. This is the field that most separates records
  that stay alive from records that rot.
- Revisit if:

## Action items

1. [ ]
"""


def new_record(cwd: str, adr_dir: str, title: str, status: str, date: str) -> Tuple[str, str, str]:
    """createAdr without the write: (id, absolute path, text); _ScaffoldError as the reference's."""
    if status not in STATUSES:
        raise _ScaffoldError("usage", CLI_MESSAGES["status-invalid"].format(status=status))
    if status in ("accepted", "superseded"):
        raise _ScaffoldError("usage", CLI_MESSAGES["status-needs-fields"].format(status=status))
    if not 3 <= utf16_len(title) <= 120:
        raise _ScaffoldError("usage", CLI_MESSAGES["title-length"])
    if "\r" in title or "\n" in title:
        raise _ScaffoldError("usage", CLI_MESSAGES["title-lines"])
    ident = _next_record_id(cli_resolve(cwd, adr_dir), cwd)
    path = os.path.join(cli_resolve(cwd, adr_dir), "%s-%s.md" % (ident, new_record_slug(title)))
    _, issues = validate_frontmatter({
        "schemaVersion": ADR_SCHEMA_VERSION, "id": ident, "title": title, "status": status, "date": date,
        "deciders": [], "tags": [], "scope": "component", "reversibility": "unknown",
        "blastRadius": "component", "relatesTo": [], "affects": [], "provenance": {"authoredBy": "human"}})
    if issues:
        raise _ScaffoldError("usage", "; ".join(message for _, _, message in issues))
    text = NEW_RECORD_TEXT % {"schema": ADR_SCHEMA_VERSION, "id": ident, "title": title, "status": status,
                              "date": date, "title_json": JS.json(title)}
    return ident, path, text


def _write_new_file(path: str, data: bytes) -> None:
    """Create `path` holding `data`, whole or not at all, never over anything already there:
    the bytes go to a new file beside it, which is then hard-linked to the name (the link fails
    if the name exists) and unlinked. Where the file system has no hard links (or the folder
    takes no helper file), the name is created exclusively and written, as the reference's
    writeFile(..., {flag: 'wx'}) does. FileExistsError when the name exists; OSError as met."""
    folder = os.path.dirname(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    temporary = os.path.join(folder, ".adrkit-new-%s.tmp" % binascii.hexlify(os.urandom(6)).decode())
    try:
        handle = os.open(temporary, flags, 0o666)
    except OSError:
        handle = None
    if handle is not None:
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
            try:
                os.link(temporary, path)
                return
            except FileExistsError:
                raise
            except (OSError, AttributeError, NotImplementedError):
                pass  # no hard links here: the exclusive create below
        finally:
            try:
                os.unlink(temporary)
            except OSError:
                pass
    with os.fdopen(os.open(path, flags, 0o666), "wb") as stream:
        stream.write(data)


def command_new(options: Any) -> int:
    """`adrkit-mcp new <title>`: runNew, one record written from the template."""
    cwd = _reference_cwd(options)
    if cwd is None:
        return 2
    adr_dir = _reference_dir(options)
    status = options.status if options.status is not None else "draft"
    today = time.strftime("%Y-%m-%d", time.gmtime())  # todayIsoDate: the UTC date
    try:
        ident, path, text = new_record(cwd, adr_dir, JS.trim(" ".join(options.positionals)), status, today)
        display = cli_display_path(path, cwd)
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
        except OSError as error:
            raise _ScaffoldError("crash", node_error(error, "mkdir", os.path.dirname(path)))
        try:
            _write_new_file(path, JS.utf8(text))
        except FileExistsError:
            raise _ScaffoldError("exists", CLI_MESSAGES["exists"].format(path=display))
        except OSError as error:
            raise _ScaffoldError("crash", node_error(error, "open", path))
    except _ScaffoldError as error:
        _say(sys.stderr, "%s\n" % error)
        return 2 if error.code == "usage" else 1
    _say(sys.stdout, JS.json({"id": ident, "path": display}) + "\n" if options.json else display + "\n")
    return 0

# `explain` and `check` (the reference CLI's runExplain and renderHumanCheck), to the letter.
EXPLAIN_TEXTS = {
    "none": "No decision governs {path}.",
    "none-accepted": "No accepted decision governs {path}.",
    "governing": "Decisions governing {path}:",
    "proposals": "Active proposals (not yet binding):",
    "history": "Historical records (not binding):",
    "successor": " (superseded by {ref})",
    "note-absent": "Note: {path} is not a file in this working tree; no @adr markers were scanned.",
    "note-unreadable": "Note: {path} could not be read; no @adr markers were scanned.",
    "note-out-of-tree": "Note: {path} is not a repo-relative path inside this working tree; "
                        "no @adr markers were scanned.",
    "note-truncated": "Note: only the first {scanned} of {size} bytes of {path} were scanned for @adr markers.",
}


# --- `explain <path>` and `check <files...>`: the reference CLI's runExplain and runCheck -------

def _decision_group(heading: str, decisions: Sequence[Dict[str, Any]]) -> str:
    """renderDecisionGroup: the heading, then each decision with its `via` and `declared by` lines."""
    if not decisions:
        return ""
    lines = [heading]
    for decision in decisions:
        successor = (EXPLAIN_TEXTS["successor"].format(ref=decision["supersededBy"])
                     if decision.get("supersededBy") else "")
        lines.append("  %s  [%s] %s%s" % (decision["recordId"], decision["status"], decision["title"], successor))
        lines.extend("    via %s: %s" % (fired["type"], fired["pattern"]) for fired in decision["firedMatchers"])
        lines.extend("    declared by %s:%d (@adr %s)" % (declared["path"], declared["line"], declared["ref"])
                     for declared in decision.get("declaredBy", []))
    return "\n".join(lines) + "\n"


def marker_scan_note(scan: MarkerScan) -> str:
    """renderMarkerScanNote: one line when the file was not read, or not read to its end."""
    if scan.state in ("absent", "unreadable", "out-of-tree"):
        return EXPLAIN_TEXTS["note-" + scan.state].format(path=scan.path) + "\n"
    if scan.truncated and scan.scanned_bytes is not None and scan.file_bytes is not None:
        return EXPLAIN_TEXTS["note-truncated"].format(scanned=scan.scanned_bytes, size=scan.file_bytes,
                                                      path=scan.path) + "\n"
    return ""


def explain_check(options: Any) -> None:
    if len(options.positionals) != 1 or not options.positionals[0]:
        options.parser.error(CLI_MESSAGES["explain-path"])


def command_explain(options: Any) -> int:
    """`adrkit-mcp explain <path>`: runExplain, the decisions reaching one path both ways."""
    loaded = _reference_corpus(options)
    if isinstance(loaded, int):
        return loaded
    cwd, _, corpus = loaded
    path = options.positionals[0]
    scan = read_source_markers(cwd, path)  # before the corpus gate: the file says what it says
    outcome = explain_outcome_of(corpus.records, corpus.findings, path, scan)
    blocked = any(finding["severity"] == "error" for finding in corpus.findings)
    if options.json:
        sys.stdout.write(JS.json(outcome) + "\n")
    elif blocked:
        sys.stderr.write(lint_findings_text(outcome["findings"]))
        sys.stdout.write(marker_scan_note(scan))
    else:
        sys.stdout.write(explain_text(outcome, scan))
    return 1 if blocked else 0


def explain_text(outcome: Dict[str, Any], scan: MarkerScan) -> str:
    """runExplain's human output for a corpus without errors."""
    path, text = outcome["path"], ""
    if not outcome["governedBy"]:
        text += EXPLAIN_TEXTS["none"].format(path=path) + "\n"
    else:
        if not outcome["governing"]:
            text += EXPLAIN_TEXTS["none-accepted"].format(path=path) + "\n"
        else:
            text += _decision_group(EXPLAIN_TEXTS["governing"].format(path=path), outcome["governing"])
        text += _decision_group(EXPLAIN_TEXTS["proposals"], outcome["activeProposals"])
        text += _decision_group(EXPLAIN_TEXTS["history"], outcome["history"])
    text += marker_scan_note(scan)
    if outcome["findings"]:
        text += "Findings:\n" + "".join(finding_line(finding) for finding in outcome["findings"])
    return text


def _first_ten(paths: Sequence[str], more: str) -> str:
    """The first ten paths, then how many more (renderHumanCheck's lists)."""
    text = ", ".join(paths[:10])
    return text + (more % (len(paths) - 10) if len(paths) > 10 else "")

CHECK_TEXTS = {
    "none": "No decisions govern the changed files.",
    "none-accepted": "No accepted decisions govern the changed files.",
    "governing": "Decisions governing this change:",
    "proposals": "Active proposals touching this change (not yet binding):",
    "history": "Historical records that once covered this change (not binding):",
    "scan": "marker scan: {scanned} scanned, {absent} absent, {unreadable} unreadable, {out_of_tree} out-of-tree, "
            "{truncated} truncated, {skipped} skipped",
    "unavailable": "marker scan unavailable for: ",
    "truncated": "marker scan truncated (bytes scanned of total): ",
    "more-lists": ", and %d more (see --json for the complete lists)",
    "more-list": ", and %d more (see --json for the complete list)",
    "count": "checked: {governing} governing, {proposals} active proposals, {history} historical, "
             "{records} changed records, {errors} changed-record errors",
}


def check_text(outcome: Dict[str, Any], batch: MarkerBatch) -> str:
    """renderHumanCheck: the decisions by bucket, the marker scan, the findings, the count line."""
    text = ""
    if not outcome["governedBy"]:
        text += CHECK_TEXTS["none"] + "\n"
    else:
        text += (CHECK_TEXTS["none-accepted"] + "\n" if not outcome["governing"]
                 else _decision_group(CHECK_TEXTS["governing"], outcome["governing"]))
        text += _decision_group(CHECK_TEXTS["proposals"], outcome["activeProposals"])
        text += _decision_group(CHECK_TEXTS["history"], outcome["history"])
    report = outcome["markerScan"]
    if report["totalCandidates"] > 0:
        text += CHECK_TEXTS["scan"].format(out_of_tree=report["counts"]["out-of-tree"], **report["counts"]) + "\n"
        unavailable = (report["absentPaths"] + report["unreadablePaths"] + report["outOfTreePaths"]
                       + report["skippedPaths"])
        if unavailable:
            text += CHECK_TEXTS["unavailable"] + _first_ten(unavailable, CHECK_TEXTS["more-lists"]) + "\n"
        if report["truncatedPaths"]:
            extents = {scan.path: "%s %d/%d" % (scan.path, scan.scanned_bytes, scan.file_bytes)
                       for scan in batch.scans if scan.truncated and scan.scanned_bytes is not None
                       and scan.file_bytes is not None}
            labelled = [extents.get(path, path) for path in report["truncatedPaths"][:10]]
            text += CHECK_TEXTS["truncated"] + _first_ten(
                labelled + report["truncatedPaths"][10:], CHECK_TEXTS["more-list"]) + "\n"
    if outcome["findings"]:
        text += "Findings:\n" + lint_findings_text(outcome["findings"])
    errors = sum(1 for finding in outcome["findings"] if finding["severity"] == "error"
                 and finding.get("path") and finding["path"] in outcome["changedRecords"])
    return text + CHECK_TEXTS["count"].format(
        governing=len(outcome["governing"]), proposals=len(outcome["activeProposals"]),
        history=len(outcome["history"]), records=len(outcome["changedRecords"]), errors=errors) + "\n"


def command_check(options: Any) -> int:
    """`adrkit-mcp check <files...>`: runCheck, the CheckOutcome of a change (exit 1 when a
    changed record has an error finding)."""
    loaded = _reference_corpus(options)
    if isinstance(loaded, int):
        return loaded
    cwd, adr_dir, corpus = loaded
    batch = read_source_markers_batch(cwd, options.positionals)
    outcome = check_outcome_of(corpus.records, corpus.findings, options.positionals, adr_dir, batch)
    sys.stdout.write(JS.json(outcome) + "\n" if options.json else check_text(outcome, batch))
    return 0 if outcome["ok"] else 1


# ---------------------------------------------------------------------------
# 16. PR check: pull-request gates, `adrkit-mcp pr-check`, the reference's GitHub Action (ADR 0021)
# ---------------------------------------------------------------------------
#
# What `action.yml` runs on a pull request, as the reference's `packages/ci` Action does: list the
# pull request's changed files (GitHub REST, paginated), run `check` on them, render the outcome as
# the Markdown of comment.ts (`render_pr_comment`, byte for byte; tests/data/pr-comments holds the
# reference renderer's own output), write it to the job summary, then create or update the one
# comment that leads with PR_COMMENT_MARKER. Only this command touches the network, only with the
# token it is given, only at $GITHUB_API_URL (HTTPS, or plain HTTP on a loopback address); urllib is
# imported here and nowhere else. The server, the hook and every other command never do.

PR_COMMENT_MARKER = "<!-- adrkit:ci -->"  # the comment's identity: always its first line
_PR_HEADING = "### Decisions governing this change"
_PR_EMPTY = "No governing decisions for the changed files."
_PR_NO_ACCEPTED = ("No **accepted** decisions govern the changed files. Records below matched but "
                   "do not bind this change.")
_PR_PROPOSALS = ("#### Active proposals touching this change",
                 "These are not yet ratified and do not bind this change:")
_PR_HISTORY = ("#### Historical records that once covered this change",
               "These no longer bind this change, and are listed for context only:")
_PR_ERRORS = ("#### ⚠️ Validation errors on changed records",
              "These changed records fail validation and must be fixed:")
_PR_WARNINGS = "#### Warnings on changed records"
_PR_TRUNCATED_PR = ("This pull request changes more files than the GitHub API can list completely, "
                    "so the governing decisions could not be computed reliably for it. Split the "
                    "change into smaller PRs, or run `adr check` locally against the full diff.")
_PR_TRUNCATION_NOTICE = ("- …output truncated to fit GitHub’s comment size limit; run `adr check` "
                         "locally for the complete result.")
_PR_MAX_DECISIONS = 50        # records shown per list; the rest are counted
_PR_MAX_DECLARATIONS = 10     # `declared by` lines per record
_PR_MAX_BODY = 65536          # GitHub's comment limit, in UTF-16 code units
_PR_MAX_FIELD = 256           # a finding's field, and its message, are cut to these
_PR_MAX_MESSAGE = 1024
_PR_FILES_CAP = 3000          # GitHub lists at most this many files of a pull request
_PR_CONTROL = re.compile("[\x00-\x1f\x7f]")
_PR_BACKTICKS = re.compile("`+")


def _pr_code(value: str) -> str:
    """An inline code span `value` cannot leave: the fence outruns its backticks, controls escaped."""
    safe = _PR_CONTROL.sub(lambda match: "\\x%02x" % ord(match.group()), value)
    fence = "`" * (max([len(run) for run in _PR_BACKTICKS.findall(safe)] or [0]) + 1)
    pad = " " if safe.startswith("`") or safe.endswith("`") else ""
    return fence + pad + safe + pad + fence


def _pr_bounded(value: str, limit: int, label: str) -> str:
    if utf16_len(value) <= limit:
        return value
    suffix = "… [%s truncated]" % label
    return utf16_slice(value, max(0, limit - utf16_len(suffix))) + suffix


def _pr_finding_line(finding: Finding) -> str:
    where = _pr_code(finding["path"]) if finding.get("path") else "(corpus)"
    field = " (%s)" % _pr_code(_pr_bounded(finding["field"], _PR_MAX_FIELD, "field")) \
        if finding.get("field") else ""
    message = _pr_bounded(finding["message"], _PR_MAX_MESSAGE, "message")
    return "- %s — %s%s: %s" % (where, _pr_code(finding["rule"]), field, message)


def _pr_decision_lines(decision: Dict[str, Any], with_status: bool) -> List[str]:
    status = " _(%s)_" % decision["status"] if with_status else ""
    successor = " — superseded by **%s**" % decision["supersededBy"] \
        if decision.get("supersededBy") else ""
    lines = ["- **%s** — %s%s%s" % (decision["recordId"], decision["title"], status, successor)]
    for matcher in decision["firedMatchers"]:
        lines.append("  - via %s: %s" % (_pr_code(matcher["type"]), _pr_code(matcher["pattern"])))
    declarations = decision.get("declaredBy") or []
    for declaration in declarations[:_PR_MAX_DECLARATIONS]:
        lines.append("  - declared by %s (%s)" % (
            _pr_code("%s:%s" % (declaration["path"], declaration["line"])),
            _pr_code("@adr %s" % declaration["ref"])))
    remaining = len(declarations) - min(len(declarations), _PR_MAX_DECLARATIONS)
    if remaining > 0:
        lines.append("  - …and %d more declaration%s" % (remaining, "" if remaining == 1 else "s"))
    return lines


def _pr_decision_list(decisions: List[Dict[str, Any]], with_status: bool) -> List[str]:
    lines = [line for decision in decisions[:_PR_MAX_DECISIONS]
             for line in _pr_decision_lines(decision, with_status)]
    remaining = len(decisions) - len(decisions[:_PR_MAX_DECISIONS])
    if remaining > 0:
        lines.append("- …and %d more record%s" % (remaining, "" if remaining == 1 else "s"))
    return lines


def _pr_within_limit(lines: List[str]) -> str:
    """The lines joined; over the limit, whole lines dropped from the end, the marker always kept."""
    body = "\n".join(lines) + "\n"
    if utf16_len(body) <= _PR_MAX_BODY:
        return body
    budget = _PR_MAX_BODY - (utf16_len(_PR_TRUNCATION_NOTICE) + 2)
    kept, used = [PR_COMMENT_MARKER], utf16_len(PR_COMMENT_MARKER) + 1
    for line in lines[1:]:
        cost = utf16_len(line) + 1
        if used + cost > budget:
            break
        kept.append(line)
        used += cost
    return "\n".join(kept + ["", _PR_TRUNCATION_NOTICE]) + "\n"


def render_pr_comment(outcome: Dict[str, Any]) -> str:
    """The pull-request comment for a CheckOutcome (`adr check --json`), as comment.ts renders it:
    changed records' errors first, then the accepted decisions (or why there are none), active
    proposals, history and the changed records' warnings; at most 65,536 UTF-16 code units."""
    changed = set(outcome["changedRecords"])
    findings = [finding for finding in outcome["findings"] if finding.get("field") != "marker"
                and "path" in finding and finding["path"] in changed]
    errors = [finding for finding in findings if finding["severity"] == "error"]
    warnings = [finding for finding in findings if finding["severity"] == "warn"]
    lines = [PR_COMMENT_MARKER, "", _PR_HEADING, ""]
    if errors:
        lines += [_PR_ERRORS[0], "", _PR_ERRORS[1]] + [_pr_finding_line(f) for f in errors] + [""]
    if not outcome["governedBy"]:
        lines.append(_PR_EMPTY)
    elif not outcome["governing"]:
        lines.append(_PR_NO_ACCEPTED)
    else:
        lines += _pr_decision_list(outcome["governing"], False)
    for (heading, note), key in ((_PR_PROPOSALS, "activeProposals"), (_PR_HISTORY, "history")):
        if outcome[key]:
            lines += ["", heading, "", note] + _pr_decision_list(outcome[key], True)
    if warnings:
        lines += ["", _PR_WARNINGS, ""] + [_pr_finding_line(finding) for finding in warnings]
    return _pr_within_limit(lines)


def render_pr_truncated_notice() -> str:
    """The comment posted instead when GitHub could not list every changed file (3,000 or more)."""
    return "\n".join([PR_COMMENT_MARKER, "", _PR_HEADING, "", _PR_TRUNCATED_PR]) + "\n"


def pr_check_outcome(root: str, adr_dir: str, files: List[str],
                     marker_files: List[str]) -> Dict[str, Any]:
    """The CheckOutcome the reference Action computes: `check`'s (check_outcome_of) over every
    changed path, a rename's old name included, with the `@adr` markers of the files that still
    exist in the head (`marker_files`: a removed file takes no slot of the scan)."""
    try:
        corpus = cli_lint_corpus(root, adr_dir)
    except OSError as error:
        raise PullRequestCheckError("the ADR folder %s cannot be read: %s" % (
            adr_dir, error.strerror or error)) from None
    return check_outcome_of(corpus.records, corpus.findings, files, adr_dir,
                            read_source_markers_batch(root, marker_files))


class PullRequestCheckError(Exception):
    """Why `pr-check` could not finish: a GitHub answer, the network, or the environment."""

    def __init__(self, message: str, status: int = 0, headers: Optional[Dict[str, str]] = None):
        Exception.__init__(self, message)
        self.status = status
        self.headers = headers or {}


_PR_LOOPBACK = ("127.0.0.1", "::1", "localhost")
_PR_NEXT_LINK = re.compile(r'<([^<>]+)>;\s*rel="next"')
_PR_RATE_LIMIT = re.compile("rate limit", re.IGNORECASE)
_PR_REFUSED_APP = re.compile("not accessible by integration", re.IGNORECASE)


class GitHubPullRequest:
    """The five GitHub REST calls of the reference Action, for one pull request, on urllib: who the
    token is, the changed files and the comments (every page), create and update a comment. The
    token goes only to the API's own origin: redirects and `next` links elsewhere are refused."""

    def __init__(self, api_url: str, token: str, repository: str, number: int,
                 timeout: float = 30.0) -> None:
        parts = urllib.parse.urlsplit(api_url.rstrip("/"))
        if parts.scheme != "https" and not (parts.scheme == "http"
                                            and parts.hostname in _PR_LOOPBACK):
            raise PullRequestCheckError("$GITHUB_API_URL must be an https:// URL (or http:// on a "
                                        "loopback address), not %r" % api_url)
        self.origin = (parts.scheme, parts.netloc)
        self.base = api_url.rstrip("/")
        self.token = token
        owner, _, name = repository.partition("/")
        self.repo = "/repos/%s/%s" % (urllib.parse.quote(owner, safe=""),
                                      urllib.parse.quote(name, safe=""))
        self.number = number
        self.timeout = timeout

    def request(self, method: str, url: str,
                body: Optional[Dict[str, Any]] = None) -> Tuple[Any, Dict[str, str]]:
        """One call: (the JSON answer, its headers in lower case); any other status raises."""
        import urllib.error
        import urllib.request
        if (urllib.parse.urlsplit(url).scheme, urllib.parse.urlsplit(url).netloc) != self.origin:
            raise PullRequestCheckError("GitHub sent us to %s, outside $GITHUB_API_URL: refused, "
                                        "so the token goes nowhere else" % url)
        data = json.dumps(body).encode("ascii") if body is not None else None
        request = urllib.request.Request(url, data=data, method=method, headers={
            "Accept": "application/vnd.github.v3+json", "Authorization": "token " + self.token,
            "User-Agent": "adrkit-mcp/%s" % SERVER_VERSION})
        if data is not None:
            request.add_header("Content-Type", "application/json; charset=utf-8")
        opener = _pr_opener(self.origin)
        where = "%s %s" % (method, url[len(self.base):] or "/")
        try:
            with opener.open(request, timeout=self.timeout) as answer:
                headers = {key.lower(): value for key, value in answer.headers.items()}
                text = answer.read()
        except urllib.error.HTTPError as error:
            raise _pr_http_error(error, where) from None
        except (urllib.error.URLError, OSError) as error:
            raise PullRequestCheckError("%s: GitHub could not be reached at %s (%s)" % (
                where, self.base, getattr(error, "reason", error))) from None
        try:
            return (json.loads(text.decode("utf-8")) if text.strip() else None), headers
        except ValueError:
            raise PullRequestCheckError("%s: GitHub's answer is not JSON: %r" % (
                where, text[:80])) from None

    def pages(self, path: str) -> List[Any]:
        """Every item of a listing, 100 a page, following each `Link: <...>; rel="next"`."""
        items: List[Any] = []
        url, seen = "%s%s%s?per_page=100" % (self.base, self.repo, path), set()
        while url and url not in seen:
            seen.add(url)
            page, headers = self.request("GET", url)
            if not isinstance(page, list) or not all(isinstance(item, dict) for item in page):
                raise PullRequestCheckError("GET %s: GitHub's answer is not a list of objects"
                                            % url[len(self.base):])
            items.extend(page)
            found = _PR_NEXT_LINK.search(headers.get("link", ""))
            url = found.group(1) if found else ""
        return items

    def identity(self) -> Tuple[str, str]:
        """("login", name), ("app-installation", "") when refused as an app is, else ("unknown", "")."""
        try:
            user, _ = self.request("GET", self.base + "/user")
            login = user.get("login") if isinstance(user, dict) else None
            return ("login", login) if isinstance(login, str) and login else ("unknown", "")
        except PullRequestCheckError as error:
            if _PR_REFUSED_APP.search(str(error)):
                return "app-installation", ""
            if (error.status == 429 or error.headers.get("x-ratelimit-remaining") == "0"
                    or _PR_RATE_LIMIT.search(str(error))):
                return "unknown", ""
            return ("app-installation" if error.status == 403 else "unknown"), ""

    def changed_files(self) -> List[Dict[str, Any]]:
        return self.pages("/pulls/%d/files" % self.number)

    def comments(self) -> List[Dict[str, Any]]:
        return self.pages("/issues/%d/comments" % self.number)

    def create_comment(self, body: str) -> None:
        self.request("POST", "%s%s/issues/%d/comments" % (self.base, self.repo, self.number),
                     {"body": body})

    def update_comment(self, comment_id: int, body: str) -> None:
        self.request("PATCH", "%s%s/issues/comments/%d" % (self.base, self.repo, comment_id),
                     {"body": body})


def _pr_http_error(error: Any, where: str) -> PullRequestCheckError:
    """A GitHub error answer as a PullRequestCheckError: the status, GitHub's message, headers."""
    try:
        text = error.read().decode("utf-8", "replace")
    except OSError:
        text = ""
    try:
        answer = json.loads(text)
        message = answer.get("message") if isinstance(answer, dict) else None
    except ValueError:
        message = None
    headers = {key.lower(): value for key, value in (error.headers or {}).items()}
    return PullRequestCheckError("%s: GitHub answered %d: %s" % (
        where, error.code, message or text.strip()[:200] or error.reason), error.code, headers)


def _pr_opener(origin: Tuple[str, str]) -> Any:
    """A urllib opener that follows a redirect only within `origin`: the token goes nowhere else."""
    import urllib.request

    class SameOrigin(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any, newurl: str) -> Any:
            parts = urllib.parse.urlsplit(newurl)
            if (parts.scheme, parts.netloc) != origin:
                raise PullRequestCheckError("GitHub redirected us to %s, outside $GITHUB_API_URL: "
                                            "refused, so the token goes nowhere else" % newurl)
            return urllib.request.HTTPRedirectHandler.redirect_request(
                self, req, fp, code, msg, headers, newurl)
    return urllib.request.build_opener(SameOrigin())


def pr_own_comment(comments: List[Dict[str, Any]], identity: Tuple[str, str]) -> Optional[Dict[str, Any]]:
    """The last comment that is ours (findOwnComment): the marker anywhere and our login; for an
    app token, whose login is unknowable, a Bot author and the marker as the first line."""
    kind, login = identity
    own = None
    for comment in comments:
        body = comment.get("body") or ""
        user = comment.get("user") or {}
        if kind == "login":
            mine = PR_COMMENT_MARKER in body and user.get("login") == login
        else:
            mine = (kind == "app-installation" and user.get("type") == "Bot"
                    and re.split("\r\n|\n|\r", body, maxsplit=1)[0] == PR_COMMENT_MARKER)
        if mine:
            own = comment
    return own


def _pr_log(kind: str, message: str) -> None:
    """A line of the job log: plain for information, else a workflow command (notice, warning,
    error) whose text is escaped as @actions/core escapes it, so it stays one annotation."""
    if kind:
        message = "::%s::%s" % (kind, message.replace("%", "%25").replace("\r", "%0D")
                                .replace("\n", "%0A"))
    sys.stdout.flush()  # UTF-8 whatever the console's code page (the comment holds ⚠️ and —)
    sys.stdout.buffer.write(JS.utf8(message + "\n"))
    sys.stdout.buffer.flush()


def _pr_append(variable: str, text: str) -> None:
    """Append to the file GitHub names in $variable (the job summary, the step's outputs), if any."""
    path = os.environ.get(variable)
    if path:
        with open(path, "ab") as handle:
            handle.write(JS.utf8(text))


def _pr_upsert(api: GitHubPullRequest, body: str) -> str:
    """upsertMarkedComment: update our last marked comment in place, else create one."""
    comments = api.comments()
    kind, login = identity = api.identity()
    if kind == "unknown":
        _pr_log("warning", "adrkit: could not resolve the token identity, so an existing "
                "governing-decisions comment cannot be claimed; posting a new one instead.")
    else:
        _pr_log("", "adrkit: %s." % ("authenticated as %s" % login if kind == "login" else
                                     "an app installation token, whose login is not resolvable; "
                                     "matching on the marker and a bot author"))
    own = pr_own_comment(comments, identity)
    if own is not None:
        try:
            api.update_comment(int(own["id"]), body)
            return "updated"
        except PullRequestCheckError as error:
            if error.status != 404:
                raise
            _pr_log("warning", "adrkit: the prior governing-decisions comment was deleted between "
                    "listing and updating it; posting a new one instead.")
    api.create_comment(body)
    return "created"


def _pr_comment(api: GitHubPullRequest, body: str) -> str:
    """Post the body; a token that may not comment (401, 403, 404) puts it in the job log instead."""
    try:
        result = _pr_upsert(api, body)
    except PullRequestCheckError as error:
        if error.status not in (401, 403, 404):
            raise
        _pr_log("notice", "adrkit: no permission to comment on this PR (read-only token); posting "
                "the result to the job log instead.\n\n%s" % body)
        return "skipped"
    _pr_log("", "adrkit: %s the governing-decisions comment." % result)
    return result


def _pr_event() -> Dict[str, Any]:
    """The event that started the workflow ($GITHUB_EVENT_PATH), or {} outside GitHub Actions."""
    path = os.environ.get("GITHUB_EVENT_PATH")
    if not path:
        return {}
    try:
        with open(path, "rb") as handle:
            event = json.loads(handle.read().decode("utf-8"))
    except (OSError, ValueError) as error:
        raise PullRequestCheckError("the event file $GITHUB_EVENT_PATH (%s) cannot be read: %s"
                                    % (path, error)) from None
    return event if isinstance(event, dict) else {}


def _pr_changed(files: List[Dict[str, Any]]) -> Tuple[List[str], List[str]]:
    """extractChanges: (each file's path and, for a rename, its previous path; the paths that are
    not removed, whose markers are read), each sorted, once each."""
    paths, present = set(), set()
    for entry in files:
        if not isinstance(entry.get("filename"), str):
            raise PullRequestCheckError("GitHub listed a changed file without a filename: %r"
                                        % (entry,))
        paths.add(entry["filename"])
        if isinstance(entry.get("previous_filename"), str) and entry["previous_filename"]:
            paths.add(entry["previous_filename"])
        if entry.get("status") != "removed":
            present.add(entry["filename"])
    return sorted(paths, key=utf16_key), sorted(present, key=utf16_key)


def _pr_report_scan(outcome: Dict[str, Any]) -> None:
    scan = outcome.get("markerScan")
    if scan:
        counts = scan["counts"]
        _pr_log("", "adrkit: marker scan: %d scanned, %d absent, %d unreadable, %d out-of-tree, "
                "%d truncated, %d skipped." % tuple(counts[key] for key in (
                    "scanned", "absent", "unreadable", "out-of-tree", "truncated", "skipped")))
        if scan["skippedPaths"]:
            _pr_log("warning", "adrkit: marker scan reached the %d-file cap; skipped: %s"
                    % (scan["limit"], ", ".join(scan["skippedPaths"])))


def command_pr_check(options: Any) -> int:
    """`adrkit-mcp pr-check`: in a GitHub Actions job run for a pull request, what the reference's
    Action does (runAction), plus the job summary; exit 1 when a changed record has an error."""
    try:
        return _pr_check(options)
    except PullRequestCheckError as error:
        _pr_log("error", "adrkit: %s" % error)
        return 1


def _pr_check(options: Any) -> int:
    pull = _pr_event().get("pull_request")
    if not isinstance(pull, dict):
        _pr_log("", "adrkit: not a pull_request event; nothing to check.")
        return 0
    token = os.environ.get("GITHUB_TOKEN") or ""
    if not token:
        raise PullRequestCheckError("no token available; set the `token` input or GITHUB_TOKEN.")
    repository = os.environ.get("GITHUB_REPOSITORY") or ""
    if repository.count("/") != 1 or not isinstance(pull.get("number"), int):
        raise PullRequestCheckError("$GITHUB_REPOSITORY (%r) is not owner/name, or the event's "
                                    "pull_request has no number" % repository)
    api = GitHubPullRequest(os.environ.get("GITHUB_API_URL") or "https://api.github.com", token,
                            repository, pull["number"])
    files = api.changed_files()
    if len(files) >= _PR_FILES_CAP:
        _pr_log("warning", "adrkit: the PR changed-file list exceeded the provider cap and could "
                "not be obtained completely; governing decisions were not computed for this PR.")
        body, outcome = render_pr_truncated_notice(), None
    else:
        cwd, adr_dir = corpus_location(options)
        outcome = pr_check_outcome(cwd, adr_dir, *_pr_changed(files))
        _pr_report_scan(outcome)
        body = render_pr_comment(outcome)
    _pr_append("GITHUB_STEP_SUMMARY", body)
    result = _pr_comment(api, body)
    changed = outcome["changedRecords"] if outcome else []
    errors = [finding for finding in (outcome or {}).get("findings", [])
              if finding["severity"] == "error" and finding.get("path") in changed]
    _pr_append("GITHUB_OUTPUT", "ok=%s\ncomment=%s\n" % ("false" if errors else "true", result))
    if errors:
        _pr_log("error", "adrkit: %d changed ADR record(s) failed validation." % len(errors))
        return 1
    return 0


# ---------------------------------------------------------------------------
# 17. JS text: JavaScript's whitespace, trim, code units and regular expressions
# ---------------------------------------------------------------------------
#
# Reproduces three ECMAScript behaviours that Python spells differently:
#   * `String.prototype.trim` (`JS.trim`): it removes WhiteSpace and
#     LineTerminator, which is U+FEFF but not U+001C..U+001F, U+0085, U+180E
#     or U+200B; `str.strip()` differs in both directions.
#   * a regular expression literal without flags (`JS.regex`): the
#     source is rewritten so that `\s \S \d \D \w \W . ^ $` mean what they mean
#     in JavaScript (`\s` is the trim set, `\d \w` are ASCII, `.` stops at the
#     four line terminators, `$` only at the very end), and the text is matched
#     as UTF-16 code units, as V8 does without the `u` flag.
#   * string length (`utf16_len`, in the contract section): UTF-16 code units.
# Guarantee: a source using any other escape, a flag, a backreference or a
# lookbehind is refused when it is compiled (at import), never translated
# approximately; matching is linear in the text for the product's patterns.
# Equivalence is tested through the frontmatter vectors, which record what the
# reference's zod schema did with these very patterns, through the picomatch
# and semver vectors (the glob and semver engines trim, split and class their
# text through this door), and by the unit tests in
# tests/test_vectors_frontmatter.py and tests/test_vectors_semver.py.
# Door: the `JS` class; everything else here is private.

_JS_WHITESPACE = (
    "\t\n\x0b\x0c\r \xa0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_JS_ESCAPED_WHITESPACE = "".join("\\u%04x" % ord(ch) for ch in _JS_WHITESPACE)
# What each JS class escape means, as the body of a Python character class.
_JS_CLASS_ESCAPES = {"s": _JS_ESCAPED_WHITESPACE, "d": "0-9", "w": "A-Za-z0-9_"}
_JS_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _js_trim(text: str) -> str:
    """Trim `text` exactly like ECMAScript `String.prototype.trim`."""
    # str.strip with an explicit character set is a single C-level pass and,
    # unlike the argument-less form, does not touch U+001C-U+001F or U+0085.
    return text.strip(_JS_WHITESPACE)


@functools.lru_cache(maxsize=None)
def _js_regex(source: str) -> Callable[[str], bool]:
    """`RegExp.prototype.test` of the flagless JS regex `source`, as a Python predicate (cached)."""
    compiled = re.compile(_js_regex_translate(source))

    def test(text: str) -> bool:
        return compiled.search(_js_code_units(text)) is not None
    return test


def _js_code_units(text: str) -> str:
    """One Python character per UTF-16 code unit (astral characters become surrogate pairs)."""
    if text.isascii() or _JS_ASTRAL.search(text) is None:
        return text
    return _JS_ASTRAL.sub(_js_surrogate_pair, text)


def _js_number_text(value: float) -> str:
    """`Number.prototype.toString()` of a double: the shortest digits, JavaScript's layout."""
    if value != value:
        return "NaN"
    if value == math.inf:
        return "Infinity"
    if value == -math.inf:
        return "-Infinity"
    if value == 0:
        return "0"
    value = float(value)
    sign = "-" if value < 0 else ""
    text = repr(abs(value))
    # Decompose Python's shortest repr into digits and a decimal exponent.
    if "e" in text:
        mantissa, exponent_text = text.split("e")
        exponent = int(exponent_text)
    else:
        mantissa, exponent = text, 0
    if "." in mantissa:
        whole, frac = mantissa.split(".")
    else:
        whole, frac = mantissa, ""
    if frac == "0":
        frac = ""
    digits = (whole + frac).lstrip("0")
    point = len(whole) + exponent  # position of the decimal point
    if whole.strip("0") == "":
        # 0.000123 -> digits "123", point moves left by the leading zeros
        lead = len(frac) - len(frac.lstrip("0"))
        point = exponent - lead
    digits = digits.rstrip("0") or "0"
    k = len(digits)
    n = point
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    exp = n - 1
    mant = digits[0] + ("." + digits[1:] if k > 1 else "")
    return sign + mant + "e" + ("+" if exp >= 0 else "-") + str(abs(exp))


def _js_json(value: Any, indent: int, level: int = 0) -> str:
    """`JSON.stringify(value, null, indent)` of JSON-shaped data (dict order kept)."""
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = "\n" + " " * (indent * (level + 1))
        return "{" + ",".join(inner + _js_json_string(key) + ": " + _js_json(item, indent, level + 1)
                              for key, item in value.items()) + "\n" + " " * (indent * level) + "}"
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        inner = "\n" + " " * (indent * (level + 1))
        return "[" + ",".join(inner + _js_json(item, indent, level + 1) for item in value) + \
            "\n" + " " * (indent * level) + "]"
    if isinstance(value, str):
        return _js_json_string(value)
    if value is None or isinstance(value, bool):
        return "null" if value is None else "true" if value else "false"
    if isinstance(value, (int, float)):
        return _js_number_text(value) if value - value == 0 else "null"  # NaN and Infinity: null
    raise TypeError("not JSON data: %r" % (value,))


def _js_json_string(text: str) -> str:
    """JSON.stringify of a string: a lone surrogate is written as its \\uXXXX escape."""
    if _JS_JSON_PLAIN.fullmatch(text):  # nothing to escape: the common case, without json.dumps
        return '"' + text + '"'
    quoted = json.dumps(text, ensure_ascii=False)
    return _JS_LONE_SURROGATE.sub(lambda match: "\\u%04x" % ord(match.group()), quoted)


_JS_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_JS_JSON_PLAIN = re.compile('[^\x00-\x1f"\\\\\ud800-\udfff]*')  # what JSON.stringify writes as it is


def _js_surrogate_pair(match: re.Match[str]) -> str:
    offset = ord(match.group()) - 0x10000
    return chr(0xD800 + (offset >> 10)) + chr(0xDC00 + (offset & 0x3FF))


# `util.parseArgs` of Node 22 as Bun 1.4.5 runs it, in strict mode with positionals allowed and
# only long options (the reference CLI's parseCommandArgs). Arguments are read as UTF-16 code
# units: `-abc` is a group whose first unit is reported alone (Bun names it without its dash), a
# long option takes `--name=value` when its first `=` is at index 3 or later, and a string option
# takes the next argument whatever it is, then refuses one that looks like an option.

class _JsParseArgsError(Exception):
    """The message Node's parseArgs throws (ERR_PARSE_ARGS_*), to the letter."""


def _js_parse_args(args: List[str], options: Dict[str, str]) -> Tuple[Dict[str, Any], List[str]]:
    """(values, positionals); `options` maps each long name to "boolean" or "string"."""
    values: Dict[str, Union[bool, str, None]] = {}
    positionals: List[str] = []
    tokens: List[Tuple[str, str, Optional[str], bool]] = []
    index = 0
    while index < len(args):
        arg, index = args[index], index + 1
        units = _js_code_units(arg)
        if arg == "--":
            positionals.extend(args[index:])
            break
        if len(units) >= 2 and units[0] == "-" and units[1] != "-":
            if len(units) == 2:
                tokens.append((units[1], arg, None, False))
            else:  # a group of short options: Bun reports its first unit, without the dash
                tokens.append((units[1], units[1], None, False))
        elif len(units) > 2 and units.startswith("--"):
            if arg.find("=") > 2:
                name, _, given = arg[2:].partition("=")
                tokens.append((name, "--" + name, given, True))
            elif options.get(arg[2:]) == "string" and index < len(args):
                tokens.append((arg[2:], arg, args[index], False))
                index += 1
            else:
                tokens.append((arg[2:], arg, None, False))
        else:
            positionals.append(arg)
    for name, raw, value, inline in tokens:
        _js_parse_args_check(options, name, raw, value, inline)
        values[name] = True if options[name] == "boolean" else value
    return values, positionals


def _js_parse_args_check(options: Dict[str, str], name: str, raw: str, value: Optional[str],
                         inline: bool) -> None:
    if name not in options:
        raw = _JS_LONE_SURROGATE.sub("\ufffd", raw)  # the runtime writes a lone half as U+FFFD
        raise _JsParseArgsError(
            "Unknown option '%s'. To specify a positional argument starting with a '-', place it at "
            "the end of the command after '--', as in '-- %s" % (raw, _js_json_string(raw)))
    if options[name] == "string" and value is None:
        raise _JsParseArgsError("Option '--%s <value>' argument missing" % name)
    if options[name] == "boolean" and value is not None:
        raise _JsParseArgsError("Option '--%s' does not take an argument" % name)
    if not inline and value is not None and len(_js_code_units(value)) > 1 and value[0] == "-":
        raise _JsParseArgsError(
            "Option '%s' argument is ambiguous.\nDid you forget to specify the option argument for '%s'?\n"
            "To specify an option argument starting with a dash use '%s=-XYZ'." % (raw, raw, raw))


def _js_regex_translate(source: str) -> str:
    out = []
    index = 0
    in_class = False
    while index < len(source):
        ch = source[index]
        if ch == "\\":
            out.append(_js_regex_escape(source[index + 1:index + 2], in_class))
            index += 2
            continue
        if in_class:
            in_class = ch != "]"
            out.append("\\[" if ch == "[" else ch)
        elif ch == "[":
            in_class = True
            out.append(ch)
        elif ch == ".":
            out.append("[^\\n\\r\\u2028\\u2029]")
        elif ch == "$":
            out.append("\\Z")
        elif ch == "(" and source[index + 1:index + 2] == "?" and source[index + 2:index + 3] not in (":", "=", "!"):
            raise ValueError("JS.regex: unsupported group in %r" % source)
        else:
            out.append(ch)
        index += 1
    return "".join(out)


def _js_regex_escape(letter: str, in_class: bool) -> str:
    if letter in _JS_CLASS_ESCAPES:
        body = _JS_CLASS_ESCAPES[letter]
        return body if in_class else "[%s]" % body
    if letter.lower() in _JS_CLASS_ESCAPES and not in_class:
        return "[^%s]" % _JS_CLASS_ESCAPES[letter.lower()]
    if letter and not letter.isalnum():
        return "\\" + letter
    raise ValueError("JS.regex: unsupported escape \\%s" % letter)


class JS:
    """The door: ECMAScript string behaviours that Python spells differently."""

    __slots__ = ()
    WHITESPACE = _JS_WHITESPACE  # ECMAScript WhiteSpace + LineTerminator, as one string

    @staticmethod
    def trim(text: str) -> str:
        """`String.prototype.trim`: strips exactly WhiteSpace and LineTerminator."""
        return _js_trim(text)

    @staticmethod
    def code_units(text: str) -> str:
        """One character per UTF-16 code unit: astral characters become their surrogate pair."""
        return _js_code_units(text)

    @staticmethod
    def regex(source: str) -> Callable[[str], bool]:
        """`RegExp.prototype.test` of a flagless JS regex literal's source (compiled once)."""
        return _js_regex(source)

    @staticmethod
    def number_text(value: float) -> str:
        """`String(value)` of a JavaScript number: NaN, Infinity, or the shortest digits."""
        return _js_number_text(value)

    @staticmethod
    def json(value: Any, indent: int = 2) -> str:
        """`JSON.stringify(value, null, indent)` of dicts, lists, strings, numbers, booleans, None."""
        return _js_json(value, indent)

    ParseArgsError = _JsParseArgsError

    @staticmethod
    def parse_args(args: Sequence[str], options: Dict[str, str]) -> Tuple[Dict[str, Any], List[str]]:
        """`util.parseArgs({args, options, strict: true, allowPositionals: true})` (Node 22, as Bun
        1.4.5 runs it) over long options only, each "boolean" or "string": (values given,
        positionals); JS.ParseArgsError with Node's message when the arguments do not parse."""
        return _js_parse_args(list(args), options)

    @staticmethod
    def utf8(text: str) -> bytes:
        """Node's UTF-8 encoding of a string: a lone surrogate is written as U+FFFD."""
        return _JS_LONE_SURROGATE.sub("\ufffd", text).encode("utf-8")


# ---------------------------------------------------------------------------
# 18. Globs parser: path globs with the exact semantics of picomatch 4.0.5
# ---------------------------------------------------------------------------

"""Globs engine: picomatch 4.0.5 path globs, and V8's reading of the regexes they become.

Door: picomatch_pattern_type(), the pathspec pattern type registered as
"picomatch" (`match_file` for one normalised candidate, `match_paths` for the
reference's matchPathPattern), defined when first asked for.  Everything else in this section is private to it.

Guarantees: the reference's answer for every glob and path (picomatch with
{dot: false, nocase: false, nonegate: true} plus the wrapper's leading-slash,
dot-segment and "./" rules), in UTF-16 code units.  Time is polynomial: Python's
`re` runs only where a bound on its backtracking is under 2,000,000 steps for
the candidate's length; otherwise an NFA visits each (instruction, position)
state once per run, O(P x L) for P instructions and L code units, O(P x L^2)
with lookarounds (memoised per position); P <= 100,000.  Deliberate departure
(ADR 0004, README): a back-reference search stops after 1,000,000 states and a
regex beyond those limits is reported as an invalid glob, where V8 would
backtrack without bound.

Equivalence: tests/data/vectors/picomatch.json, 8,937 cases recorded from the
reference, through the door and on each engine alone
(tests/test_vectors_picomatch.py); hostile globs in tests/test_glob_linear.py.
"""

#
# The reference compiles every path pattern with
# picomatch(pattern, {dot: false, nocase: false, nonegate: true}).  picomatch
# turns the glob into the *source text of a JavaScript regular expression* and
# hands it to V8, so its behaviour is the sum of two things: the glob-to-regex
# translation (with all of its quirks) and V8's regex semantics (UTF-16 code
# units, Annex B syntax, variable-length lookbehind, size limits).  This
# section reproduces both:
#
# 1. _glob_make_source ports picomatch's makeRe and yields the same regex
#    source text, character for character.
# 2. _GlobRegex parses that text as V8 does (no flags) into a small syntax
#    tree; _GlobRegexSyntaxError marks sources V8 rejects, which picomatch
#    silently replaces by a regex that never matches.
# 3. Two engines match the tree and agree on every input: Python's re (C
#    speed) when a bound on its backtracking, computed from the tree and the
#    candidate's length, is small; otherwise a memoised NFA whose work is
#    polynomial (instructions x length per run), so hostile globs cannot cause
#    catastrophic backtracking.
#
# Strings are handled as sequences of UTF-16 code units: an astral character
# becomes its two surrogates before any of the above runs.


# ---------------------------------------------------------------------------
# 18. Globs parser: UTF-16 code units
# ---------------------------------------------------------------------------

# JavaScript strings (and regexes without the ``u`` flag) index UTF-16 code
# units, so an emoji is two "characters" to picomatch: the engine works on
# JS.code_units(text), one Python character per code unit (the JS text door).


# ---------------------------------------------------------------------------
# 18. Globs parser: picomatch 4.0.5: glob -> JavaScript regex source
# ---------------------------------------------------------------------------
#
# What follows mirrors picomatch's parse.js for the options the product uses
# (posix, dot:false, nonegate:true, every other option at its default).  The
# port keeps picomatch's token bookkeeping, including its odd corners
# (backtracking rebuilds from token values, negative paren counts, ...),
# because the vectors pin down the regex text those corners produce.

_GLOB_MAX_LENGTH = 65536
# Frames of picomatch's recursive escapeLast that fit on V8's stack (Node 20).
_GLOB_V8_MAX_RECURSION = 7849

_GLOB_DOT_LITERAL = "\\."
_GLOB_PLUS_LITERAL = "\\+"
_GLOB_SLASH_LITERAL = "\\/"
_GLOB_ONE_CHAR = "(?=.)"
_GLOB_QMARK = "[^/]"
_GLOB_NO_DOT = "(?!\\.)"
_GLOB_NO_DOT_SLASH = "(?!\\.{0,1}(?:\\/|$))"
_GLOB_QMARK_NO_DOT = "[^.\\/]"
_GLOB_STAR = "[^/]*?"
_GLOB_GLOBSTAR = "(?:(?:(?!(?:^|\\/)\\.).)*?)"

_GLOB_POSIX_CLASSES = {
    "alnum": "a-zA-Z0-9",
    "alpha": "a-zA-Z",
    "ascii": "\\x00-\\x7F",
    "blank": " \\t",
    "cntrl": "\\x00-\\x1F\\x7F",
    "digit": "0-9",
    "graph": "\\x21-\\x7E",
    "lower": "a-z",
    "print": "\\x20-\\x7E ",
    "punct": "\\-!\"#$%&'()\\*+,./:;<=>?@[\\]^_`{|}~",
    "space": " \\t\\r\\n\\v\\f",
    "upper": "A-Z",
    "word": "A-Za-z0-9_",
    "xdigit": "A-Fa-f0-9",
}

# picomatch replaces these whole patterns before parsing.
_GLOB_REPLACEMENTS = {"***": "*", "**/**": "**", "**/**/**": "**"}

# JavaScript's "." (no flags) stops at these line terminators.
_GLOB_JS_DOT = "[^\\n\\r\\u2028\\u2029]"

_GLOB_NON_SPECIAL_RE = re.compile(r"[^@!\[\].,$*+?^{}()|\\/]+")
_GLOB_REGEX_SPECIAL_RE = re.compile(r"[-*+?.^${}(|)\[\]]")
_GLOB_SPECIAL_RUN_RE = re.compile(r"(\\?)(([^A-Za-z0-9_])(\3*))")
_GLOB_BACKSLASH_RUN_RE = re.compile(r"\\+")
_GLOB_NO_FASTPATH_RE = re.compile(r"^[*!]|[/()\[\]{}\"]")
_GLOB_EXT_SUFFIX_RE = re.compile("^(" + _GLOB_JS_DOT + "*?)\\.([A-Za-z0-9_]+)\\Z")
_GLOB_NEGATE_REST_RE = re.compile(r"\.[^\\/.]+\Z")
_GLOB_ONLY_CLOSE_PARENS_RE = re.compile(r"\)+\Z")
_GLOB_SIMPLE_AT_RE = re.compile(r"@\([^\\()\[\]{}|]+\)\Z")
_GLOB_UNESCAPE_RE = re.compile(r"\\(" + _GLOB_JS_DOT + ")")
_GLOB_ONLY_STARS_RE = re.compile(r"[*?]+\Z")
_GLOB_PLAIN_BRANCH_BREAKERS = frozenset("?*+@!()[]{}")
_GLOB_LOOKAROUND_NAME_RE = re.compile(r"<(?:[!=]|[A-Za-z0-9_]+>)")


def _glob_escape_regex(text: str) -> str:
    return _GLOB_REGEX_SPECIAL_RE.sub(lambda m: "\\" + m.group(), text)


def _glob_escape_unclosed(text: str, char: str, count: int) -> str:
    """Escape *char* as picomatch does for *count* unclosed ``[``/``(``/``{``.

    picomatch calls its recursive escapeLast once per unclosed opener; each
    call escapes the last *char* not preceded by a backslash, recursing once
    per occurrence it skips.  Doing all calls in one backward pass keeps this
    linear.  The recursion depth is tracked too: past about 7,850 frames (the
    depth measured with Node 20's default stack) V8 throws, so picomatch
    rejects the pattern, and so does this port.
    """
    positions: List[int] = []
    passed = 0
    idx = len(text)
    while len(positions) < count:
        idx = text.rfind(char, 0, idx)
        if idx == -1:
            # The remaining calls find nothing after recursing through every
            # occurrence.
            passed += 1
            break
        if idx == 0 or text[idx - 1] != "\\":
            positions.append(idx)
        passed += 1
    if passed >= _GLOB_V8_MAX_RECURSION:
        raise ValueError("picomatch overflows the V8 stack on this pattern")
    pieces = []
    end = len(text)
    for idx in positions:  # right to left
        pieces.append(text[idx:end])
        end = idx
    pieces.append(text[:end])
    return "\\".join(reversed(pieces))


class _GlobRope:
    """Immutable text made of appended chunks (picomatch's state.output).

    picomatch appends to its output, cuts its tail and restores earlier
    snapshots of it.  As a chain of chunks each of these is cheap, where a
    Python str would be copied on every append (quadratic for 64 KiB globs).
    """

    __slots__ = ("prev", "chunk", "length")

    def __init__(self, prev: Optional[_GlobRope], chunk: str) -> None:
        self.prev = prev
        self.chunk = chunk
        self.length: int = len(chunk) + (prev.length if prev is not None else 0)

    def __add__(self, text: str) -> "_GlobRope":
        return _GlobRope(self, text) if text else self

    def __len__(self) -> int:
        return self.length

    def __bool__(self) -> bool:
        return self.length > 0

    def head(self, count: int) -> "_GlobRope":
        """The first *count* units (JS ``s.slice(0, count)``)."""
        count = max(count, 0)
        node = self
        while node.length > count:
            start = node.length - len(node.chunk)
            if start >= count:
                prev = node.prev
                assert prev is not None  # only the empty rope has none, and its length is 0
                node = prev
            else:
                return _GlobRope(node.prev, node.chunk[:count - start])
        return node

    def drop_tail(self, count: int) -> "_GlobRope":
        """JS ``s.slice(0, -count)``, where a count of 0 empties the text."""
        return self.head(self.length - count if count else 0)

    def __str__(self) -> str:
        chunks = []
        node: Optional[_GlobRope] = self
        while node is not None:
            chunks.append(node.chunk)
            node = node.prev
        return "".join(reversed(chunks))


_GLOB_EMPTY_ROPE = _GlobRope(None, "")


def _glob_split_top_level(text: str) -> List[str]:
    """Split an extglob body on top-level ``|`` (outside brackets/parens/quotes)."""
    parts = []
    bracket = paren = 0
    in_quote = False
    value = []
    escaped = False
    for ch in text:
        if escaped:
            value.append(ch)
            escaped = False
            continue
        if ch == "\\":
            value.append(ch)
            escaped = True
            continue
        if ch == '"':
            in_quote = not in_quote
            value.append(ch)
            continue
        if not in_quote:
            if ch == "[":
                bracket += 1
            elif ch == "]" and bracket > 0:
                bracket -= 1
            elif bracket == 0:
                if ch == "(":
                    paren += 1
                elif ch == ")" and paren > 0:
                    paren -= 1
                elif ch == "|" and paren == 0:
                    parts.append("".join(value))
                    value = []
                    continue
        value.append(ch)
    parts.append("".join(value))
    return parts


def _glob_is_plain_branch(branch: str) -> bool:
    escaped = False
    for ch in branch:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch in _GLOB_PLAIN_BRANCH_BREAKERS:
            return False
    return True


def _glob_normalize_simple_branch(branch: str) -> Optional[str]:
    value = JS.trim(branch)
    while _GLOB_SIMPLE_AT_RE.match(value):
        value = value[2:-1]
    if not _glob_is_plain_branch(value):
        return None
    return _GLOB_UNESCAPE_RE.sub(r"\1", value)


def _glob_has_repeated_char_prefix_overlap(branches: List[str]) -> bool:
    values = [v for v in map(_glob_normalize_simple_branch, branches) if v]
    for i, first in enumerate(values):
        for second in values[i + 1:]:
            char = first[0]
            if first != char * len(first) or second != char * len(second):
                continue
            if first == second or first.startswith(second) or second.startswith(first):
                return True
    return False


def _glob_parse_repeated_extglob(pattern: str, require_end: bool = True) -> Optional[Tuple[str, str, int]]:
    """(kind, body, index of the closing paren) for a leading ``+(...)`` or
    ``*(...)``, else None."""
    if len(pattern) < 2 or pattern[0] not in "+*" or pattern[1] != "(":
        return None
    bracket = paren = 0
    in_quote = False
    escaped = False
    for i in range(1, len(pattern)):
        ch = pattern[i]
        if escaped:
            escaped = False
            continue
        if ch == "\\":
            escaped = True
            continue
        if ch == '"':
            in_quote = not in_quote
            continue
        if in_quote:
            continue
        if ch == "[":
            bracket += 1
            continue
        if ch == "]" and bracket > 0:
            bracket -= 1
            continue
        if bracket > 0:
            continue
        if ch == "(":
            paren += 1
            continue
        if ch == ")":
            paren -= 1
            if paren == 0:
                if require_end and i != len(pattern) - 1:
                    return None
                return pattern[0], pattern[2:i], i
    return None


def _glob_star_extglob_sequence_chars(pattern: str) -> Optional[List[str]]:
    """Characters of a run like ``*(a)*(b)`` (each body one plain char)."""
    index = 0
    chars = []
    while index < len(pattern):
        found = _glob_parse_repeated_extglob(pattern[index:], False)
        if found is None or found[0] != "*":
            return None
        branches = [JS.trim(b) for b in _glob_split_top_level(found[1])]
        if len(branches) != 1:
            return None
        branch = _glob_normalize_simple_branch(branches[0])
        if not branch or len(branch) != 1:
            return None
        chars.append(branch)
        index += found[2] + 1
    return chars or None


def _glob_repeated_extglob_depth(pattern: str) -> int:
    depth = 0
    found = _glob_parse_repeated_extglob(JS.trim(pattern))
    while found is not None:
        depth += 1
        found = _glob_parse_repeated_extglob(JS.trim(found[1]))
    return depth


def _glob_analyze_repeated_extglob(body: str) -> Tuple[bool, Optional[str]]:
    """picomatch's ReDoS guard for ``+(...)``/``*(...)``: (risky, safe_output)."""
    branches = [JS.trim(b) for b in _glob_split_top_level(body)]
    if len(branches) > 1 and (
        "" in branches
        or any(_GLOB_ONLY_STARS_RE.match(b) for b in branches)
        or _glob_has_repeated_char_prefix_overlap(branches)
    ):
        return True, None
    safe_chars = []
    saw_star_sequence = False
    combinable = True
    for branch in branches:
        chars = _glob_star_extglob_sequence_chars(branch)
        if chars:
            saw_star_sequence = True
            safe_chars.extend(chars)
            continue
        literal = _glob_normalize_simple_branch(branch)
        if literal and len(literal) == 1:
            safe_chars.append(literal)
            continue
        combinable = False
        # picomatch's default maxExtglobRecursion is 0.
        if _glob_repeated_extglob_depth(branch) > 0:
            return True, None
    if not saw_star_sequence:
        return False, None
    if not combinable:
        return True, None
    unique = list(dict.fromkeys(safe_chars))
    if len(unique) == 1:
        return True, _glob_escape_regex(unique[0]) + "*"
    return True, "[" + "".join(_glob_escape_regex(c) for c in unique) + "]*"


def _glob_expand_range(args: List[str]) -> str:
    """A brace range such as ``{1..3}`` becomes the class ``[1-3]``."""
    args.sort()
    value = "[" + "-".join(args) + "]"
    if not _glob_rx_is_valid(value):
        return "..".join(_glob_escape_regex(a) for a in args)
    return value


class _GlobToken:
    """One picomatch token; attributes mirror the JS objects' fields."""

    __slots__ = (
        "type", "value", "output", "prev", "extglob", "star", "posix",
        "dots", "comma", "output_index", "tokens_index",
    )

    def __init__(self, type_: str, value: str, output: Optional[str] = None, extglob: bool = False) -> None:
        self.type = type_
        self.value = value
        # None stands for JavaScript's `undefined` (''/undefined differ).
        self.output = output
        self.prev: Optional[_GlobToken] = None
        self.extglob = extglob
        self.star = self.posix = self.dots = self.comma = False
        self.output_index = self.tokens_index = 0

    def text(self) -> str:
        return self.output if self.output is not None else self.value


class _GlobExtglob:
    """An open extglob: remembers where it started so `)` can close it."""

    __slots__ = ("type", "open", "close", "prev", "parens", "output",
                 "start_index", "tokens_index", "inner")
    # Set by _GlobParser.extglob_open right after construction.
    prev: _GlobToken
    parens: int
    output: _GlobRope
    start_index: int
    tokens_index: int

    _KINDS = {
        "!": ("negate", "(?:(?!(?:", "))" + _GLOB_STAR + ")"),
        "?": ("qmark", "(?:", ")?"),
        "+": ("plus", "(?:", ")+"),
        "*": ("star", "(?:", ")*"),
        "@": ("at", "(?:", ")"),
    }

    def __init__(self, char: str) -> None:
        self.type, self.open, self.close = self._KINDS[char]
        self.inner = ""


class _GlobParser:
    """Port of picomatch's ``parse(input, options)`` for the product's options."""

    def __init__(self, text: str, fastpaths: bool):
        self.fastpaths = fastpaths
        text = _GLOB_REPLACEMENTS.get(text, text)
        if len(text) > _GLOB_MAX_LENGTH:
            raise ValueError("pattern exceeds picomatch's maximum length")
        self.bos = _GlobToken("bos", "", "")
        self.tokens = [self.bos]
        self.prev = self.bos
        if text.startswith("./"):
            text = text[2:]
        self.input = text
        self.index = -1
        self.start = 0
        self.output = _GLOB_EMPTY_ROPE
        self.backtrack = False
        self.brackets = 0
        self.braces = 0
        self.parens = 0
        self.quotes = 0
        self.extglobs: List[_GlobExtglob] = []
        self.brace_stack: List[_GlobToken] = []
        self.stack: List[str] = []

    # -- small helpers named after picomatch's -------------------------------

    def peek(self, n: int = 1) -> Optional[str]:
        i = self.index + n
        return self.input[i] if 0 <= i < len(self.input) else None

    def advance(self) -> str:
        self.index += 1
        return self.input[self.index] if self.index < len(self.input) else ""

    def rest_starts_with(self, text: str) -> bool:
        """picomatch's ``remaining().startsWith(text)``, without the copy."""
        return self.input.startswith(text, self.index + 1)

    def eos(self) -> bool:
        return self.index == len(self.input) - 1

    def increment(self, kind: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        self.stack.append(kind)

    def decrement(self, kind: str) -> None:
        setattr(self, kind, getattr(self, kind) - 1)
        if self.stack:
            self.stack.pop()

    def append(self, value: str, output: Optional[str] = None) -> None:
        self.output += output if output is not None else value

    def push(self, tok: _GlobToken) -> None:
        prev = self.prev
        if prev.type == "globstar":
            is_brace = self.braces > 0 and tok.type in ("comma", "brace")
            is_extglob = tok.extglob or (bool(self.extglobs) and tok.type == "paren")
            if tok.type not in ("slash", "paren") and not is_brace and not is_extglob:
                # A `**` followed by anything but a separator is just a star.
                assert prev.output is not None  # a globstar token carries its regex text
                self.output = self.output.drop_tail(len(prev.output))
                prev.type = "star"
                prev.value = "*"
                prev.output = _GLOB_STAR
                self.output += prev.output
        if self.extglobs and tok.type != "paren":
            self.extglobs[-1].inner += tok.value
        if tok.value or tok.output:
            self.append(tok.value, tok.output)
        if prev.type == "text" and tok.type == "text":
            # Merging keeps the *value* of the new token, not its output: a
            # later rebuild (state.backtrack) therefore emits it unescaped.
            prev.output = (prev.output or prev.value) + tok.value
            prev.value += tok.value
            return
        tok.prev = prev
        self.tokens.append(tok)
        self.prev = tok

    def extglob_open(self, kind: str, char: str) -> None:
        ext = _GlobExtglob(char)
        ext.prev = self.prev
        ext.parens = self.parens
        ext.output = self.output
        ext.start_index = self.index
        ext.tokens_index = len(self.tokens)
        self.increment("parens")
        self.push(_GlobToken(kind, char, "" if self.output else _GLOB_ONE_CHAR))
        self.push(_GlobToken("paren", self.advance(), ext.open, extglob=True))
        self.extglobs.append(ext)

    def extglob_close(self, ext: _GlobExtglob) -> None:
        literal = self.input[ext.start_index:self.index + 1]
        body = self.input[ext.start_index + 2:self.index]
        risky, safe_output = _glob_analyze_repeated_extglob(body)
        if ext.type in ("plus", "star") and risky:
            if safe_output is not None:
                safe_output = ("" if ext.output else _GLOB_ONE_CHAR) + safe_output
            opener = self.tokens[ext.tokens_index]
            opener.type = "text"
            opener.value = literal
            opener.output = safe_output or _glob_escape_regex(literal)
            for tok in self.tokens[ext.tokens_index + 1:]:
                tok.value = ""
                tok.output = ""
            self.output = ext.output + opener.output
            self.backtrack = True
            self.push(_GlobToken("paren", ")", "", extglob=True))
            self.decrement("parens")
            return

        output = ext.close
        if ext.type == "negate":
            extglob_star = _GLOB_STAR
            if len(ext.inner) > 1 and "/" in ext.inner:
                extglob_star = _GLOB_GLOBSTAR
            rest = self.index + 1
            if (extglob_star != _GLOB_STAR or self.eos()
                    or _GLOB_ONLY_CLOSE_PARENS_RE.match(self.input, rest)):
                output = ")$))" + extglob_star
            if "*" in ext.inner and _GLOB_NEGATE_REST_RE.match(self.input, rest):
                # picomatch re-parses a plain extension after `!(*...)` so the
                # negative lookahead can include it (`!(*.d).ts`).
                expression = _GlobParser(self.input[rest:], fastpaths=False).run()
                output = ")" + expression + ")" + extglob_star + ")"
        self.push(_GlobToken("paren", ")", output, extglob=True))
        self.decrement("parens")

    # -- the main loop ---------------------------------------------------------

    def run(self) -> str:
        if self.fastpaths and not _GLOB_NO_FASTPATH_RE.search(self.input):
            return self.simple_fastpath()
        last = len(self.input) - 1
        while self.index != last:
            if self.index > last:
                # picomatch skips past the end here (a trailing run of 4+
                # backslashes, a posix class closing at the very end) and then
                # loops forever.  A pattern the reference cannot compile is
                # reported as invalid instead of hanging.
                raise ValueError("picomatch does not terminate on this pattern")
            self.step(self.advance())
        return self.finish()

    def simple_fastpath(self) -> str:
        """picomatch's regex-replace shortcut for globs without structure."""
        text = self.input
        saw_backslash = False

        def replace(m: re.Match[str]) -> str:
            nonlocal saw_backslash
            esc, chars, first, rest = m.group(1), m.group(2), m.group(3), m.group(4)
            if first == "\\":
                saw_backslash = True
                return m.group()
            if first == "?":
                if esc:
                    return esc + first + _GLOB_QMARK * len(rest)
                if m.start() == 0:
                    return _GLOB_QMARK_NO_DOT + _GLOB_QMARK * len(rest)
                return _GLOB_QMARK * len(chars)
            if first == ".":
                return _GLOB_DOT_LITERAL * len(chars)
            if first == "*":
                if esc:
                    return esc + first + (_GLOB_STAR if rest else "")
                return _GLOB_STAR
            return m.group() if esc else "\\" + m.group()

        output = _GLOB_SPECIAL_RUN_RE.sub(replace, text)
        if saw_backslash:
            output = _GLOB_BACKSLASH_RUN_RE.sub(
                lambda m: "\\\\" if len(m.group()) % 2 == 0 else "\\", output)
        return "^(?:" + output + ")$"

    def finish(self) -> str:
        output = str(self.output)
        # Unclosed openers become literal characters.
        if self.brackets > 0:
            output = _glob_escape_unclosed(output, "[", self.brackets)
        if self.parens > 0:
            output = _glob_escape_unclosed(output, "(", self.parens)
        if self.braces > 0:
            output = _glob_escape_unclosed(output, "{", self.braces)
        self.output = _GLOB_EMPTY_ROPE + output
        if self.prev.type in ("star", "bracket"):
            self.push(_GlobToken("maybe_slash", "", _GLOB_SLASH_LITERAL + "?"))
        if self.backtrack:
            return "".join(tok.text() for tok in self.tokens)
        return str(self.output)

    # -- one character of picomatch's parse loop, one method per token kind ----

    def step(self, value: str) -> None:
        if value == "\0":
            return
        if value == "\\":
            escaped = self._step_backslash(value)
            if escaped is None:
                return
            value = escaped
        if self.brackets > 0 and (value != "]" or self.prev.value in ("[", "[^")):
            self._step_inside_brackets(value)
        elif self.quotes == 1 and value != '"':
            value = _glob_escape_regex(value)
            self.prev.value += value
            self.append(value)
        elif value == "*":
            self.step_star(self.prev)
        else:
            getattr(self, self._STEPS.get(value, "_step_text"))(value)

    _STEPS = {
        '"': "_step_quote", "(": "_step_open_paren", ")": "_step_close_paren",
        "[": "_step_open_bracket", "]": "_step_close_bracket", "{": "_step_open_brace",
        "}": "_step_close_brace", "|": "_step_bar", ",": "_step_comma", "/": "_step_slash",
        ".": "_step_dot", "?": "_step_qmark", "!": "_step_bang", "+": "_step_plus",
        "@": "_step_at",
    }

    def _step_backslash(self, value: str) -> Optional[str]:
        """An escape; the escaped text, or None when it is already consumed."""
        nxt = self.peek()
        if nxt in ("/", ".", ";"):
            # The backslash is dropped; the next character is parsed as usual.
            return None
        if nxt is None:
            self.push(_GlobToken("text", "\\\\"))
            return None
        backslashes = _GLOB_BACKSLASH_RUN_RE.match(self.input, self.index)
        assert backslashes is not None  # step() is called on the backslash at self.index
        run = len(backslashes.group()) - 1
        if run > 2:
            # picomatch collapses long backslash runs.
            self.index += run
            if run % 2:
                value += "\\"
        value += self.advance()
        if self.brackets == 0:
            self.push(_GlobToken("text", value))
            return None
        return value

    def _step_inside_brackets(self, value: str) -> None:
        prev = self.prev
        if value == ":" and self._step_posix_class(prev):
            return
        if (value == "[" and self.peek() != ":") or (value == "-" and self.peek() == "]"):
            value = "\\" + value
        if value == "]" and prev.value in ("[", "[^"):
            value = "\\" + value
        prev.value += value
        self.append(value)

    def _step_posix_class(self, prev: _GlobToken) -> bool:
        """`[[:name:]` inside a bracket: True when it became a POSIX class."""
        inner = prev.value[1:]
        if "[" not in inner:
            return False
        prev.posix = True
        if ":" not in inner:
            return False
        idx = prev.value.rfind("[")
        posix = _GLOB_POSIX_CLASSES.get(prev.value[idx + 2:])
        if not posix:
            return False
        prev.value = prev.value[:idx] + posix
        self.backtrack = True
        self.advance()
        if not self.bos.output and self.tokens.index(prev) == 1:
            self.bos.output = _GLOB_ONE_CHAR
        return True

    def _step_quote(self, value: str) -> None:
        self.quotes = 0 if self.quotes == 1 else 1

    def _step_open_paren(self, value: str) -> None:
        self.increment("parens")
        self.push(_GlobToken("paren", value))

    def _step_close_paren(self, value: str) -> None:
        ext = self.extglobs[-1] if self.extglobs else None
        if ext is not None and self.parens == ext.parens + 1:
            self.extglob_close(self.extglobs.pop())
            return
        # `parens` may go negative here, exactly as in picomatch; a negative
        # count is truthy in JS, so later `)` are emitted unescaped.
        self.push(_GlobToken("paren", value, ")" if self.parens else "\\)"))
        self.decrement("parens")

    def _step_open_bracket(self, value: str) -> None:
        if self.input.find("]", self.index + 1) == -1:
            value = "\\" + value
        else:
            self.increment("brackets")
        self.push(_GlobToken("bracket", value))

    def _step_close_bracket(self, value: str) -> None:
        prev = self.prev
        if (prev.type == "bracket" and len(prev.value) == 1) or self.brackets == 0:
            self.push(_GlobToken("text", value, "\\" + value))
            return
        self.decrement("brackets")
        prev_value = prev.value[1:]
        if not prev.posix and prev_value[:1] == "^" and "/" not in prev_value:
            # A negated class must not match the path separator.
            value = "/" + value
        prev.value += value
        self.append(value)
        if _GLOB_REGEX_SPECIAL_RE.search(prev_value):
            return
        # A class of plain characters also matches its own literal text.
        escaped = _glob_escape_regex(prev.value)
        self.output = self.output.drop_tail(len(prev.value))
        prev.value = "(?:" + escaped + "|" + prev.value + ")"
        self.output += prev.value

    def _step_open_brace(self, value: str) -> None:
        self.increment("braces")
        tok = _GlobToken("brace", value, "(")
        tok.output_index = len(self.output)
        tok.tokens_index = len(self.tokens)
        self.brace_stack.append(tok)
        self.push(tok)

    def _step_close_brace(self, value: str) -> None:
        if not self.brace_stack:
            self.push(_GlobToken("text", value, value))
            return
        brace = self.brace_stack[-1]
        output = ")"
        if brace.dots:
            bounds: List[str] = []
            for tok in reversed(list(self.tokens)):
                self.tokens.pop()
                if tok.type == "brace":
                    break
                if tok.type != "dots":
                    bounds.insert(0, tok.value)
            output = _glob_expand_range(bounds)
            self.backtrack = True
        if not brace.comma and not brace.dots:
            # `{x}` without a comma or range is literal text.
            out = self.output.head(brace.output_index)
            later = self.tokens[brace.tokens_index:]
            brace.value = brace.output = "\\{"
            value = output = "\\}"
            self.output = out + "".join((t.output or t.value) for t in later)
        self.push(_GlobToken("brace", value, output))
        self.decrement("braces")
        self.brace_stack.pop()

    def _step_bar(self, value: str) -> None:
        self.push(_GlobToken("text", value))

    def _step_comma(self, value: str) -> None:
        output = value
        if self.brace_stack and self.stack and self.stack[-1] == "braces":
            self.brace_stack[-1].comma = True
            output = "|"
        self.push(_GlobToken("comma", value, output))

    def _step_slash(self, value: str) -> None:
        if self.prev.type == "dot" and self.index == self.start + 1:
            # A leading "./" (possibly repeated) is dropped.
            self.start = self.index + 1
            self.output = _GLOB_EMPTY_ROPE
            self.tokens.pop()
            self.prev = self.bos
            return
        self.push(_GlobToken("slash", value, _GLOB_SLASH_LITERAL))

    def _step_dot(self, value: str) -> None:
        prev = self.prev
        if self.braces > 0 and prev.type == "dot":
            if prev.value == ".":
                prev.output = _GLOB_DOT_LITERAL
            prev.type = "dots"
            assert prev.output is not None  # a dot token carries its regex text
            prev.output += value
            prev.value += value
            self.brace_stack[-1].dots = True
            return
        if self.braces + self.parens == 0 and prev.type not in ("bos", "slash"):
            self.push(_GlobToken("text", value, _GLOB_DOT_LITERAL))
            return
        self.push(_GlobToken("dot", value, _GLOB_DOT_LITERAL))

    def _step_qmark(self, value: str) -> None:
        prev = self.prev
        if prev.value != "(" and self.peek() == "(" and self.peek(2) != "?":
            self.extglob_open("qmark", value)
            return
        if prev.type == "paren":
            nxt = self.peek()
            output = value
            if (prev.value == "(" and (nxt is None or nxt not in "!=<:")) or (
                    nxt == "<" and not _GLOB_LOOKAROUND_NAME_RE.search(self.input, self.index + 1)):
                output = "\\" + value
            self.push(_GlobToken("text", value, output))
            return
        if prev.type in ("slash", "bos"):
            self.push(_GlobToken("qmark", value, _GLOB_QMARK_NO_DOT))
            return
        self.push(_GlobToken("qmark", value, _GLOB_QMARK))

    def _step_bang(self, value: str) -> None:
        if self.peek() == "(":
            third = self.peek(3)
            if self.peek(2) != "?" or third is None or third not in "!=<:":
                self.extglob_open("negate", value)
                return
        self._step_text(value)

    def _step_plus(self, value: str) -> None:
        prev = self.prev
        if self.peek() == "(" and self.peek(2) != "?":
            self.extglob_open("plus", value)
        elif prev.value == "(":
            self.push(_GlobToken("plus", value, _GLOB_PLUS_LITERAL))
        elif prev.type in ("bracket", "paren", "brace") or self.parens > 0:
            self.push(_GlobToken("plus", value))
        else:
            self.push(_GlobToken("plus", _GLOB_PLUS_LITERAL))

    def _step_at(self, value: str) -> None:
        if self.peek() == "(" and self.peek(2) != "?":
            self.push(_GlobToken("at", value, "", extglob=True))
            return
        self.push(_GlobToken("text", value))

    def _step_text(self, value: str) -> None:
        if value in ("$", "^"):
            value = "\\" + value
        more = _GLOB_NON_SPECIAL_RE.match(self.input, self.index + 1)
        if more:
            value += more.group()
            self.index += len(more.group())
        self.push(_GlobToken("text", value))

    def step_star(self, prev: _GlobToken) -> None:
        value = "*"
        if prev.type == "globstar" or prev.star:
            prev.type = "star"
            prev.star = True
            prev.value += value
            prev.output = _GLOB_STAR
            self.backtrack = True
            return

        if self.rest_starts_with("(") and self.peek(2) not in (None, "?"):
            self.extglob_open("star", value)
            return

        if prev.type == "star":
            self._step_globstar(prev)
            return

        tok = _GlobToken("star", value, _GLOB_STAR)
        if self.index == self.start or prev.type in ("slash", "dot"):
            if prev.type == "dot":
                guard = _GLOB_NO_DOT_SLASH
            else:
                guard = _GLOB_NO_DOT
            if self.peek() != "*":
                guard += _GLOB_ONE_CHAR
            self.output += guard
            assert prev.output is not None  # bos, a slash or a dot: each carries its regex text
            prev.output += guard
        self.push(tok)


    def _step_globstar(self, prev: _GlobToken) -> None:
        """A second star: `**`, a globstar where it fills a whole segment."""
        value = "*"
        prior = prev.prev
        # A star follows another token (bos at least), and carries its regex text.
        assert prior is not None and prev.output is not None
        before = prior.prev
        is_start = prior.type in ("slash", "bos")
        after_star = before is not None and before.type in ("star", "globstar")
        is_brace = self.braces > 0 and prior.type in ("comma", "brace")
        is_extglob = bool(self.extglobs) and prior.type in ("pipe", "paren")
        if not is_start and prior.type != "paren" and not is_brace and not is_extglob:
            # `**` glued to text is an ordinary star.
            self.push(_GlobToken("star", value, ""))
            return

        # Consecutive `/**` segments collapse into one globstar.
        while self.rest_starts_with("/**"):
            if self.peek(4) not in (None, "/"):
                break
            self.index += 3

        if prior.type == "bos" and self.eos():
            prev.type = "globstar"
            prev.value += value
            prev.output = _GLOB_GLOBSTAR
            self.output = _GLOB_EMPTY_ROPE + prev.output
            return

        if prior.type == "slash" and before is not None and before.type != "bos" and not after_star \
                and self.eos():
            # Trailing `/**` also matches the bare directory.
            assert prior.output is not None  # a slash token carries its regex text
            self.output = self.output.drop_tail(len(prior.output + prev.output))
            prior.output = "(?:" + prior.output
            prev.type = "globstar"
            prev.output = _GLOB_GLOBSTAR + "|$)"
            prev.value += value
            self.output += prior.output + prev.output
            return

        if prior.type == "slash" and before is not None and before.type != "bos" \
                and self.rest_starts_with("/"):
            assert prior.output is not None  # a slash token carries its regex text
            end = "|$" if self.peek(2) is not None else ""
            self.output = self.output.drop_tail(len(prior.output + prev.output))
            prior.output = "(?:" + prior.output
            prev.type = "globstar"
            prev.output = _GLOB_GLOBSTAR + _GLOB_SLASH_LITERAL + "|" + _GLOB_SLASH_LITERAL + end + ")"
            prev.value += value
            self.output += prior.output + prev.output
            self.advance()
            self.push(_GlobToken("slash", "/", ""))
            return

        if prior.type == "bos" and self.rest_starts_with("/"):
            prev.type = "globstar"
            prev.value += value
            prev.output = "(?:^|" + _GLOB_SLASH_LITERAL + "|" + _GLOB_GLOBSTAR + _GLOB_SLASH_LITERAL + ")"
            self.output = _GLOB_EMPTY_ROPE + prev.output
            self.advance()
            self.push(_GlobToken("slash", "/", ""))
            return

        self.output = self.output.drop_tail(len(prev.output))
        prev.type = "globstar"
        prev.output = _GLOB_GLOBSTAR
        prev.value += value
        self.output += prev.output


def _glob_fastpath_source(text: str) -> Optional[str]:
    """picomatch's ``parse.fastpaths`` for globs starting with ``.`` or ``*``."""
    text = _GLOB_REPLACEMENTS.get(text, text)
    if text.startswith("./"):
        text = text[2:]

    def create(s: str) -> Optional[str]:
        if s == "*":
            return _GLOB_NO_DOT + _GLOB_ONE_CHAR + _GLOB_STAR
        if s == ".*":
            return _GLOB_DOT_LITERAL + _GLOB_ONE_CHAR + _GLOB_STAR
        if s == "*.*":
            return _GLOB_NO_DOT + _GLOB_STAR + _GLOB_DOT_LITERAL + _GLOB_ONE_CHAR + _GLOB_STAR
        if s == "*/*":
            return (_GLOB_NO_DOT + _GLOB_STAR + _GLOB_SLASH_LITERAL + _GLOB_ONE_CHAR
                    + _GLOB_NO_DOT + _GLOB_STAR)
        if s == "**":
            return _GLOB_NO_DOT + _GLOB_GLOBSTAR
        prefix = "(?:" + _GLOB_NO_DOT + _GLOB_GLOBSTAR + _GLOB_SLASH_LITERAL + ")?"
        if s == "**/*":
            return prefix + _GLOB_NO_DOT + _GLOB_ONE_CHAR + _GLOB_STAR
        if s == "**/*.*":
            return (prefix + _GLOB_NO_DOT + _GLOB_STAR + _GLOB_DOT_LITERAL
                    + _GLOB_ONE_CHAR + _GLOB_STAR)
        if s == "**/.*":
            return prefix + _GLOB_DOT_LITERAL + _GLOB_ONE_CHAR + _GLOB_STAR
        m = _GLOB_EXT_SUFFIX_RE.match(s)
        if not m:
            return None
        source = create(m.group(1))
        if not source:
            return None
        return source + _GLOB_DOT_LITERAL + m.group(2)

    source = create(text)
    return source + _GLOB_SLASH_LITERAL + "?" if source else None


def _glob_make_source(pattern: str) -> str:
    """The regex source picomatch.makeRe builds (pattern in UTF-16 units).

    Raises ValueError where picomatch throws (empty or over-long pattern).
    """
    if not pattern:
        raise ValueError("Expected pattern to be a non-empty string")
    output = None
    if pattern[0] in ".*":
        if len(pattern) > _GLOB_MAX_LENGTH:
            raise ValueError("pattern exceeds picomatch's maximum length")
        output = _glob_fastpath_source(pattern)
    if not output:
        output = _GlobParser(pattern, fastpaths=True).run()
    return "^(?:" + output + ")$"


# ---------------------------------------------------------------------------
# 19. Globs regex: JavaScript regular expressions (V8, no flags, Annex B syntax)
# ---------------------------------------------------------------------------
#
# Syntax tree nodes are tuples whose first item is one of the kinds below.
# Character sets are tuples of inclusive (lo, hi) UTF-16 code unit ranges,
# sorted and merged.

_GLOB_RX_SET = 0        # (kind, ranges)
_GLOB_RX_SEQ = 1        # (kind, items)
_GLOB_RX_ALT = 2        # (kind, items)
_GLOB_RX_GROUP = 3      # (kind, child, capture_index)
_GLOB_RX_REPEAT = 4     # (kind, child, min, max or None, greedy, first_capture, last_capture)
_GLOB_RX_BOL = 5        # (kind,)
_GLOB_RX_EOL = 6        # (kind,)
_GLOB_RX_WORDB = 7      # (kind, negated)
_GLOB_RX_LOOK = 8       # (kind, child, behind, negated)
_GLOB_RX_BACKREF = 9    # (kind, capture_index)

# For annotations: a node (its items vary with its kind, as listed above), a character set, and
# what a fold over the tree yields (see _glob_rx_fold).
_GlobRxNode = Tuple[Any, ...]
_GlobRanges = Tuple[Tuple[int, int], ...]
if TYPE_CHECKING:  # a name for annotations only
    _GlobFolded = TypeVar("_GlobFolded")

_GLOB_MAX_UNIT = 0xFFFF
# V8 limits, measured with Node 20: captures per regex, and atoms in a run of
# text before compiling the regex fails.
_GLOB_V8_MAX_CAPTURES = 32767
_GLOB_V8_MAX_TEXT_RUN = 32768
# V8 clamps quantifier bounds here and treats a maximum this large as unbounded.
_GLOB_RX_INFINITY = 2 ** 31 - 1

_GLOB_WORD_RANGES = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
_GLOB_DIGIT_RANGES = ((0x30, 0x39),)
_GLOB_SPACE_RANGES = (
    (0x09, 0x0D), (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A),
    (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000),
    (0xFEFF, 0xFEFF),
)
_GLOB_LINE_TERMINATORS = ((0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029))
_GLOB_WORD_CHARS = frozenset(
    chr(c) for lo, hi in _GLOB_WORD_RANGES for c in range(lo, hi + 1))
_GLOB_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
_GLOB_BRACED_QUANTIFIER_RE = re.compile(r"\{([0-9]+)(,([0-9]*))?\}")
_GLOB_DIGITS_RE = re.compile("[0-9]+")


class _GlobRegexSyntaxError(ValueError):
    """The regex source would make V8 throw a SyntaxError."""


class _GlobTooComplexError(ValueError):
    """The regex needs a bigger NFA program than this port builds."""


def _glob_ranges_normalise(ranges: Iterable[Tuple[int, int]]) -> _GlobRanges:
    merged: List[List[int]] = []
    for lo, hi in sorted(ranges):
        if merged and lo <= merged[-1][1] + 1:
            if hi > merged[-1][1]:
                merged[-1][1] = hi
        else:
            merged.append([lo, hi])
    return tuple((lo, hi) for lo, hi in merged)


def _glob_ranges_invert(ranges: Iterable[Tuple[int, int]]) -> _GlobRanges:
    inverted: List[Tuple[int, int]] = []
    nxt = 0
    for lo, hi in ranges:
        if lo > nxt:
            inverted.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= _GLOB_MAX_UNIT:
        inverted.append((nxt, _GLOB_MAX_UNIT))
    return tuple(inverted)


_GLOB_DOT_RANGES = _glob_ranges_invert(_GLOB_LINE_TERMINATORS)
_GLOB_CLASS_ESCAPES = {
    "d": _GLOB_DIGIT_RANGES,
    "D": _glob_ranges_invert(_GLOB_DIGIT_RANGES),
    "s": _GLOB_SPACE_RANGES,
    "S": _glob_ranges_invert(_GLOB_SPACE_RANGES),
    "w": _GLOB_WORD_RANGES,
    "W": _glob_ranges_invert(_GLOB_WORD_RANGES),
}
_GLOB_CONTROL_ESCAPES = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}


def _glob_rx_scan_captures(source: str) -> Tuple[int, bool]:
    """Count capturing groups and spot named ones, as V8 does before parsing.

    Whether ``\\2`` is a back-reference or an octal escape, and whether ``\\k``
    is special, depends on groups anywhere in the pattern (even later ones).
    """
    count = 0
    named = False
    i = 0
    n = len(source)
    while i < n:
        ch = source[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":
            i += 1
            while i < n:
                c = source[i]
                i += 1
                if c == "\\":
                    i += 1
                elif c == "]":
                    break
            continue
        if ch == "(":
            if source.startswith("(?", i):
                if not source.startswith("(?<", i) or source[i + 3:i + 4] in ("=", "!"):
                    i += 1
                    continue
                named = True
            count += 1
        i += 1
    return count, named


def _glob_is_id_start(ch: str) -> bool:
    return ch in ("$", "_") or ch.isidentifier()


def _glob_is_id_part(ch: str) -> bool:
    return ch in ("$", "_", "\u200c", "\u200d") or ("a" + ch).isidentifier()


class _GlobRxFrame:
    """An open group while parsing: its alternatives so far."""

    __slots__ = ("kind", "capture", "behind", "negated", "alternatives",
                 "terms", "quantifiable", "first_capture", "term_first_capture")

    def __init__(self, kind: str, capture: int = 0, behind: bool = False, negated: bool = False,
                 first_capture: int = 0) -> None:
        self.kind = kind            # "group", "look" or "root"
        self.capture = capture      # capture index, 0 if non-capturing
        self.behind = behind
        self.negated = negated
        self.alternatives: List[List[_GlobRxNode]] = []
        self.terms: List[_GlobRxNode] = []
        # Whether the last term may take a quantifier.
        self.quantifiable = False
        # First capture index this group could enclose.
        self.first_capture = first_capture
        # First capture index the last term could enclose.
        self.term_first_capture = 0


class _GlobRxParser:
    """Parse V8 regex source (no flags) into a syntax tree, iteratively.

    Deeply nested groups must not exhaust Python's recursion limit, so the
    parser keeps its own stack of open groups.
    """

    def __init__(self, source: str):
        self.src = source
        self.pos = 0
        self.capture_total, self.has_named = _glob_rx_scan_captures(source)
        self.capture_count = 0
        self.names: Dict[str, int] = {}
        self.named_refs: List[str] = []
        # Facts the engines need, gathered here to spare extra tree walks.
        self.max_depth = 0
        self.has_backrefs = False
        self.max_count = 0
        self.max_text_run = 0

    def error(self, message: str) -> NoReturn:
        raise _GlobRegexSyntaxError(message)

    def peek(self, offset: int = 0) -> str:
        i = self.pos + offset
        return self.src[i] if i < len(self.src) else ""

    def parse(self) -> _GlobRxNode:
        root = _GlobRxFrame("root")
        stack = [root]
        src = self.src
        while True:
            frame = stack[-1]
            if self.pos >= len(src):
                if len(stack) > 1:
                    self.error("Unterminated group")
                break
            ch = src[self.pos]
            if ch == "|":
                self.pos += 1
                frame.alternatives.append(frame.terms)
                frame.terms = []
                frame.quantifiable = False
                continue
            if ch == ")":
                if len(stack) == 1:
                    self.error("Unmatched ')'")
                self.pos += 1
                stack.pop()
                node = self.close_frame(frame)
                parent = stack[-1]
                parent.terms.append(node)
                parent.term_first_capture = frame.first_capture
                # Lookbehinds take no quantifier; lookaheads do (Annex B).
                parent.quantifiable = not (frame.kind == "look" and frame.behind)
                if parent.quantifiable:
                    self.quantifier(parent)
                continue
            if ch == "(":
                stack.append(self.open_group())
                self.max_depth = max(self.max_depth, len(stack))
                continue
            node, quantifiable = self.atom()
            frame.terms.append(node)
            frame.term_first_capture = self.capture_count + 1
            frame.quantifiable = quantifiable
            if quantifiable:
                self.quantifier(frame)
        for name in self.named_refs:
            if name not in self.names:
                self.error("Invalid named capture referenced")
        if self.capture_count > _GLOB_V8_MAX_CAPTURES:
            self.error("Too many captures")
        tree = self.close_frame(root)
        return self.resolve_names(tree)

    def close_frame(self, frame: _GlobRxFrame) -> _GlobRxNode:
        alternatives = frame.alternatives + [frame.terms]
        for terms in alternatives:
            run = 0
            for term in terms:
                run = run + 1 if term[0] == _GLOB_RX_SET else 0
                self.max_text_run = max(self.max_text_run, run)
        branches = [t[0] if len(t) == 1 else (_GLOB_RX_SEQ, tuple(t)) for t in alternatives]
        body = branches[0] if len(branches) == 1 else (_GLOB_RX_ALT, tuple(branches))
        if frame.kind == "look":
            return (_GLOB_RX_LOOK, body, frame.behind, frame.negated)
        if frame.kind == "group":
            return (_GLOB_RX_GROUP, body, frame.capture)
        return body

    def open_group(self) -> _GlobRxFrame:
        src = self.src
        first = self.capture_count + 1
        if src.startswith("(?", self.pos):
            kind = src[self.pos + 2:self.pos + 3]
            if kind == ":":
                self.pos += 3
                return _GlobRxFrame("group", first_capture=first)
            if kind in ("=", "!"):
                self.pos += 3
                return _GlobRxFrame("look", negated=kind == "!", first_capture=first)
            if kind == "<":
                after = src[self.pos + 3:self.pos + 4]
                if after in ("=", "!"):
                    self.pos += 4
                    return _GlobRxFrame("look", behind=True, negated=after == "!",
                                        first_capture=first)
                self.pos += 3
                name = self.group_name()
                if name in self.names:
                    self.error("Duplicate capture group name")
                self.capture_count += 1
                self.names[name] = self.capture_count
                return _GlobRxFrame("group", capture=self.capture_count, first_capture=first)
            self.error("Invalid group")
        self.pos += 1
        self.capture_count += 1
        return _GlobRxFrame("group", capture=self.capture_count, first_capture=first)

    def group_name(self) -> str:
        """Read ``name>`` (V8 reads group names as full code points)."""
        name: List[str] = []
        src = self.src
        while True:
            if self.pos >= len(src):
                self.error("Invalid capture group name")
            ch = src[self.pos]
            self.pos += 1
            if "\ud800" <= ch <= "\udbff" and "\udc00" <= self.peek() <= "\udfff":
                ch = (ch + self.peek()).encode("utf-16-le", "surrogatepass").decode("utf-16-le")
                self.pos += 1
            elif ch == "\\" and self.peek() == "u":
                digits = src[self.pos + 1:self.pos + 5]
                if len(digits) != 4 or not set(digits) <= _GLOB_HEX_DIGITS:
                    self.error("Invalid Unicode escape")
                ch = chr(int(digits, 16))
                self.pos += 5
            if not name:
                if not _glob_is_id_start(ch):
                    self.error("Invalid capture group name")
            elif ch == ">":
                return "".join(name)
            elif not _glob_is_id_part(ch):
                self.error("Invalid capture group name")
            name.append(ch)

    def braced_quantifier(self) -> Optional[Tuple[int, Optional[int], int]]:
        """Parse ``{n}``, ``{n,}`` or ``{n,m}`` at pos; None if not one."""
        m = _GLOB_BRACED_QUANTIFIER_RE.match(self.src, self.pos)
        if not m:
            return None
        low = min(int(m.group(1)), _GLOB_RX_INFINITY)
        if m.group(2) is None:
            high = low
        elif m.group(3) == "":
            high = None
        else:
            high = min(int(m.group(3)), _GLOB_RX_INFINITY)
        return low, high, m.end()

    def quantifier(self, frame: _GlobRxFrame) -> None:
        high: Optional[int]
        ch = self.peek()
        if ch == "*":
            low, high, end = 0, None, self.pos + 1
        elif ch == "+":
            low, high, end = 1, None, self.pos + 1
        elif ch == "?":
            low, high, end = 0, 1, self.pos + 1
        elif ch == "{":
            braced = self.braced_quantifier()
            if braced is None:
                return  # Annex B: a `{` that is no quantifier is a literal.
            low, high, end = braced
            if high is not None and high < low:
                self.error("numbers out of order in {} quantifier")
        else:
            return
        self.pos = end
        greedy = True
        if self.peek() == "?":
            greedy = False
            self.pos += 1
        if high == _GLOB_RX_INFINITY:
            high = None
        self.max_count = max(self.max_count, low, high or 0)
        child = frame.terms.pop()
        # JS clears the captures inside a quantified atom on every iteration,
        # so the node remembers which capture indices it encloses.
        frame.terms.append((_GLOB_RX_REPEAT, child, low, high, greedy,
                            frame.term_first_capture, self.capture_count))
        frame.quantifiable = False

    def atom(self) -> Tuple[_GlobRxNode, bool]:
        """Parse one term at pos: (node, quantifiable), or None if no node."""
        src = self.src
        ch = src[self.pos]
        if ch == "^":
            self.pos += 1
            return (_GLOB_RX_BOL,), False
        if ch == "$":
            self.pos += 1
            return (_GLOB_RX_EOL,), False
        if ch in "*+?":
            self.error("Nothing to repeat")
        if ch == "{" and self.braced_quantifier() is not None:
            self.error("Nothing to repeat")
        if ch == ".":
            self.pos += 1
            return (_GLOB_RX_SET, _GLOB_DOT_RANGES), True
        if ch == "[":
            return (_GLOB_RX_SET, self.char_class()), True
        if ch == "\\":
            return self.atom_escape()
        self.pos += 1
        return (_GLOB_RX_SET, ((ord(ch), ord(ch)),)), True

    def atom_escape(self) -> Tuple[_GlobRxNode, bool]:
        src = self.src
        nxt = self.peek(1)
        if nxt == "":
            self.error("\\ at end of pattern")
        if nxt == "b" or nxt == "B":
            self.pos += 2
            return (_GLOB_RX_WORDB, nxt == "B"), False
        if nxt in _GLOB_CLASS_ESCAPES:
            self.pos += 2
            return (_GLOB_RX_SET, _GLOB_CLASS_ESCAPES[nxt]), True
        if "1" <= nxt <= "9":
            m = _GLOB_DIGITS_RE.match(src, self.pos + 1)
            assert m is not None  # nxt is a digit
            if int(m.group()) <= self.capture_total:
                self.pos = m.end()
                self.has_backrefs = True
                return (_GLOB_RX_BACKREF, int(m.group())), True
            if nxt in "89":
                self.pos += 2
                return (_GLOB_RX_SET, ((ord(nxt), ord(nxt)),)), True
        if nxt == "k" and self.has_named:
            self.pos += 2
            if self.peek() != "<":
                self.error("Invalid named reference")
            self.pos += 1
            name = self.group_name()
            self.named_refs.append(name)
            self.has_backrefs = True
            return (_GLOB_RX_BACKREF, name), True
        if nxt == "c":
            letter = self.peek(2)
            if letter and ("a" <= letter <= "z" or "A" <= letter <= "Z"):
                self.pos += 3
                return (_GLOB_RX_SET, ((ord(letter) & 0x1F, ord(letter) & 0x1F),)), True
            # Annex B: a backslash before a non-letter `c` is literal.
            self.pos += 1
            return (_GLOB_RX_SET, ((0x5C, 0x5C),)), True
        code = self.character_escape(in_class=False)
        return (_GLOB_RX_SET, ((code, code),)), True

    def character_escape(self, in_class: bool) -> int:
        """Decode ``\\x`` at pos (after class escapes were ruled out)."""
        src = self.src
        nxt = src[self.pos + 1]
        self.pos += 2
        if nxt in _GLOB_CONTROL_ESCAPES:
            return _GLOB_CONTROL_ESCAPES[nxt]
        if "0" <= nxt <= "7":
            # Annex B legacy octal: up to three digits, value below 256.
            value = ord(nxt) - 0x30
            if "0" <= self.peek() <= "7":
                value = value * 8 + ord(self.peek()) - 0x30
                self.pos += 1
                if value < 32 and "0" <= self.peek() <= "7":
                    value = value * 8 + ord(self.peek()) - 0x30
                    self.pos += 1
            return value
        if nxt in ("x", "u"):
            width = 2 if nxt == "x" else 4
            digits = src[self.pos:self.pos + width]
            if len(digits) == width and set(digits) <= _GLOB_HEX_DIGITS:
                self.pos += width
                return int(digits, 16)
            return ord(nxt)
        if nxt == "k" and in_class and self.has_named:
            self.error("Invalid escape")
        return ord(nxt)

    def class_atom(self) -> Tuple[int, Optional[_GlobRanges]]:
        """One class atom at pos: (code, None) or (-1, the ranges of a class escape)."""
        src = self.src
        ch = src[self.pos]
        if ch != "\\":
            self.pos += 1
            return ord(ch), None
        nxt = self.peek(1)
        if nxt == "":
            self.error("\\ at end of pattern")
        if nxt == "b":
            self.pos += 2
            return 0x08, None
        if nxt in _GLOB_CLASS_ESCAPES:
            self.pos += 2
            return -1, _GLOB_CLASS_ESCAPES[nxt]
        if nxt == "c":
            letter = self.peek(2)
            if letter and ("a" <= letter <= "z" or "A" <= letter <= "Z"
                           or "0" <= letter <= "9" or letter == "_"):
                self.pos += 3
                return ord(letter) & 0x1F, None
            self.pos += 1
            return 0x5C, None
        if nxt in "89":
            self.pos += 2
            return ord(nxt), None
        return self.character_escape(in_class=True), None

    def char_class(self) -> _GlobRanges:
        src = self.src
        self.pos += 1
        negated = self.peek() == "^"
        if negated:
            self.pos += 1
        ranges: List[Tuple[int, int]] = []
        while True:
            if self.pos >= len(src):
                self.error("Unterminated character class")
            if src[self.pos] == "]":
                self.pos += 1
                break
            first, first_set = self.class_atom()
            if self.peek() == "-":
                self.pos += 1
                if self.pos >= len(src):
                    self.error("Unterminated character class")
                if src[self.pos] == "]":
                    ranges.extend(first_set or ((first, first),))
                    ranges.append((0x2D, 0x2D))
                    continue
                second, second_set = self.class_atom()
                if first_set is not None or second_set is not None:
                    # Annex B: a dash next to \d and friends is literal.
                    ranges.extend(first_set or ((first, first),))
                    ranges.append((0x2D, 0x2D))
                    ranges.extend(second_set or ((second, second),))
                    continue
                if first > second:
                    self.error("Range out of order in character class")
                ranges.append((first, second))
            else:
                ranges.extend(first_set or ((first, first),))
        normalised = _glob_ranges_normalise(ranges)
        return _glob_ranges_invert(normalised) if negated else normalised

    def resolve_names(self, tree: _GlobRxNode) -> _GlobRxNode:
        """Replace named back-references by their capture indices."""
        if not self.named_refs:
            return tree
        names = self.names

        def rebuild(node: _GlobRxNode, kids: List[_GlobRxNode]) -> _GlobRxNode:
            kind = node[0]
            if kind == _GLOB_RX_BACKREF and isinstance(node[1], str):
                return (_GLOB_RX_BACKREF, names[node[1]])
            return _glob_rx_with_children(node, kids)

        return _glob_rx_fold(tree, rebuild)


def _glob_rx_children(node: _GlobRxNode) -> Tuple[_GlobRxNode, ...]:
    kind = node[0]
    if kind in (_GLOB_RX_SEQ, _GLOB_RX_ALT):
        return node[1]
    if kind in (_GLOB_RX_GROUP, _GLOB_RX_REPEAT, _GLOB_RX_LOOK):
        return (node[1],)
    return ()


def _glob_rx_with_children(node: _GlobRxNode, kids: Sequence[_GlobRxNode]) -> _GlobRxNode:
    kind = node[0]
    if kind in (_GLOB_RX_SEQ, _GLOB_RX_ALT):
        return (kind, tuple(kids))
    if kind in (_GLOB_RX_GROUP, _GLOB_RX_REPEAT, _GLOB_RX_LOOK):
        return (kind, kids[0]) + node[2:]
    return node


def _glob_rx_fold(root: _GlobRxNode, combine: Callable[[_GlobRxNode, List[_GlobFolded]], _GlobFolded],
                  into_lookarounds: bool = True) -> _GlobFolded:
    """Post-order fold ``combine(node, child_results)`` without recursion.

    With *into_lookarounds* False, lookaround nodes are folded as leaves.
    """
    results: List[_GlobFolded] = []
    stack = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if node[0] == _GLOB_RX_LOOK and not into_lookarounds:
            kids: Tuple[_GlobRxNode, ...] = ()
        else:
            kids = _glob_rx_children(node)
        if expanded:
            count = len(kids)
            if count:
                child_results = results[-count:]
                del results[-count:]
            else:
                child_results = []
            results.append(combine(node, child_results))
            continue
        stack.append((node, True))
        for kid in reversed(kids):
            stack.append((kid, False))
    return results[0]


class _GlobRegex:
    """A parsed regex: its tree plus facts the engines need.

    ``too_large`` mirrors V8, which compiles a regex on first use and throws
    "Regular expression too large" when one alternative holds 32,768
    consecutive single-unit atoms (literal characters, classes, dots).  A
    glob of 32K literal characters hits this, so the reference's matcher
    throws for it.
    """

    __slots__ = ("tree", "max_depth", "has_backrefs", "max_count", "anchored", "too_large")

    def __init__(self, source: str):
        parser = _GlobRxParser(source)
        self.tree = parser.parse()
        self.too_large = parser.max_text_run >= _GLOB_V8_MAX_TEXT_RUN
        # Groups nest at most max_depth deep; each may add a quantifier level.
        self.max_depth = 2 * parser.max_depth + 1
        self.has_backrefs = parser.has_backrefs
        self.max_count = parser.max_count
        self.anchored = _glob_rx_anchored(self.tree)


def _glob_rx_is_valid(source: str) -> bool:
    try:
        _GlobRxParser(source).parse()
    except _GlobRegexSyntaxError:
        return False
    return True


# ---------------------------------------------------------------------------
# 20. Globs engines: Engine 1: Python's re, when its backtracking is provably cheap
# ---------------------------------------------------------------------------
#
# A backtracking matcher explores at most one path per combination of choices
# (alternatives taken, iteration counts), so bounding those combinations
# bounds its work.  For every node we compute two polynomials in N (the
# candidate's length plus one): P, the number of distinct ways the node can
# be matched from one start position, and T, the steps needed to enumerate
# them all.  A quantifier over a body with a single way (a character class,
# `(?:(?!x).)`) adds one factor of N; a quantifier over a body with several
# ways makes the count exponential, and such regexes never use `re`.  At
# compile time we solve T(N) <= budget for the longest candidate `re` may
# take; longer candidates go to the NFA engine below.

_GLOB_RE_STEP_BUDGET = 2_000_000
_GLOB_POLY_MAX_DEGREE = 8
_GLOB_RE_MAX_DEPTH = 150
_GLOB_RE_MAX_LENGTH = 1 << 20
# A polynomial's coefficients, lowest degree first; None: over the budget (unbounded).
_GlobPoly = Optional[Tuple[int, ...]]


def _glob_poly_clip(poly: _GlobPoly) -> _GlobPoly:
    """Drop polynomials that exceed the budget for every N >= 1 (-> None)."""
    if poly is None or len(poly) - 1 > _GLOB_POLY_MAX_DEGREE:
        return None
    if sum(poly) > _GLOB_RE_STEP_BUDGET:
        return None
    return poly


def _glob_poly_add(p: _GlobPoly, q: _GlobPoly) -> _GlobPoly:
    if p is None or q is None:
        return None
    if len(p) < len(q):
        p, q = q, p
    return _glob_poly_clip(tuple(a + (q[i] if i < len(q) else 0) for i, a in enumerate(p)))


def _glob_poly_mul(p: _GlobPoly, q: _GlobPoly) -> _GlobPoly:
    if p is None or q is None:
        return None
    out = [0] * (len(p) + len(q) - 1)
    for i, a in enumerate(p):
        if a:
            for j, b in enumerate(q):
                out[i + j] += a * b
    return _glob_poly_clip(tuple(out))


def _glob_poly_eval(poly: Tuple[int, ...], x: int) -> int:
    total = 0
    for coefficient in reversed(poly):
        total = total * x + coefficient
    return total


_GLOB_POLY_ONE = (1,)
_GLOB_POLY_N_PLUS_ONE = (1, 1)


def _glob_rx_cost(node: _GlobRxNode, kids: List[Tuple[_GlobPoly, _GlobPoly]]) -> Tuple[_GlobPoly, _GlobPoly]:
    """(P, T) for *node* given its children's; None entries mean unbounded."""
    paths: _GlobPoly
    steps: _GlobPoly
    iteration_paths: _GlobPoly
    iteration_steps: _GlobPoly
    choices: Tuple[int, ...]
    kind = node[0]
    if kind in (_GLOB_RX_SET, _GLOB_RX_BOL, _GLOB_RX_EOL):
        return _GLOB_POLY_ONE, _GLOB_POLY_ONE
    if kind == _GLOB_RX_WORDB:
        return _GLOB_POLY_ONE, (4,)
    if kind == _GLOB_RX_GROUP:
        return kids[0]
    if kind == _GLOB_RX_LOOK:
        # Lookarounds are atomic: one way out, all their inner ways tried.
        paths, steps = kids[0]
        return _GLOB_POLY_ONE, _glob_poly_add(steps, paths)
    if kind == _GLOB_RX_SEQ:
        paths, steps = _GLOB_POLY_ONE, (0,)
        for kid_paths, kid_steps in kids:
            steps = _glob_poly_add(steps, _glob_poly_mul(paths, kid_steps))
            paths = _glob_poly_mul(paths, kid_paths)
        return paths, steps
    if kind == _GLOB_RX_ALT:
        paths, steps = (0,), (len(kids),)
        for kid_paths, kid_steps in kids:
            paths = _glob_poly_add(paths, kid_paths)
            steps = _glob_poly_add(steps, kid_steps)
        return paths, steps
    if kind == _GLOB_RX_REPEAT:
        low, high = node[2], node[3]
        kid_paths, kid_steps = kids[0]
        if kid_paths is None or kid_steps is None:
            return None, None
        if kid_paths == _GLOB_POLY_ONE:
            # One way per iteration: the only choice is when to stop, and past
            # the minimum every useful iteration consumes a character.
            if high is not None and high - low < 64:
                choices = (high - low + 1,)
            else:
                choices = _GLOB_POLY_N_PLUS_ONE
            # Every iteration costs a step, even one over an empty body.
            per_iteration = _glob_poly_add(kid_steps, _GLOB_POLY_ONE)
            mandatory = _glob_poly_mul((low,), per_iteration)
            optional = _glob_poly_mul(choices, per_iteration)
            return choices, _glob_poly_add(mandatory, optional)
        if high is None or high > 6:
            return None, None
        # A small bounded repeat of a branching body: expand it.
        paths, steps = (0,), (0,)
        iteration_paths, iteration_steps = _GLOB_POLY_ONE, (0,)
        for count in range(high + 1):
            if count >= low:
                paths = _glob_poly_add(paths, iteration_paths)
                steps = _glob_poly_add(steps, iteration_steps)
            iteration_steps = _glob_poly_add(iteration_steps, _glob_poly_mul(
                iteration_paths, _glob_poly_add(kid_steps, _GLOB_POLY_ONE)))
            iteration_paths = _glob_poly_mul(iteration_paths, kid_paths)
        return paths, steps
    raise _GlobTooComplexError("no cost model for this node")


def _glob_rx_fixed_width(node: _GlobRxNode, kids: List[Optional[int]]) -> Optional[int]:
    """Width in code units if every match of *node* has the same width."""
    kind = node[0]
    if kind == _GLOB_RX_SET:
        return 1
    if kind in (_GLOB_RX_BOL, _GLOB_RX_EOL, _GLOB_RX_WORDB, _GLOB_RX_LOOK):
        return 0
    widths = [kid for kid in kids if kid is not None]
    if len(widths) != len(kids):
        return None
    if kind == _GLOB_RX_GROUP:
        return widths[0]
    if kind == _GLOB_RX_SEQ:
        return sum(widths)
    if kind == _GLOB_RX_ALT:
        return widths[0] if len(set(widths)) == 1 else None
    if kind == _GLOB_RX_REPEAT and node[2] == node[3]:
        return node[2] * widths[0]
    return None


def _glob_py_char(code: int) -> str:
    ch = chr(code)
    if ch.isascii() and ch.isalnum():
        return ch
    return "\\x%02x" % code if code < 0x100 else "\\u%04x" % code


def _glob_py_set(ranges: _GlobRanges) -> str:
    if not ranges:
        # Candidates hold no astral characters (see JS.code_units), so this
        # class matches nothing, yet can take a quantifier like any class.
        return "[^\\x00-\\uffff]"
    if len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        return _glob_py_char(ranges[0][0])
    # Write whichever of the set and its complement is shorter: `[^/]` is
    # far cheaper for re to compile than the ranges around "/".
    complement = _glob_ranges_invert(ranges)
    negate = complement and len(complement) < len(ranges)
    parts = []
    for lo, hi in complement if negate else ranges:
        parts.append(_glob_py_char(lo) if lo == hi else _glob_py_char(lo) + "-" + _glob_py_char(hi))
    return ("[^" if negate else "[") + "".join(parts) + "]"


_GLOB_PY_WORD = "[0-9A-Z_a-z]"
_GLOB_PY_WORDB = "(?:(?<=%s)(?!%s)|(?<!%s)(?=%s))" % ((_GLOB_PY_WORD,) * 4)
_GLOB_PY_NOT_WORDB = "(?:(?<=%s)(?=%s)|(?<!%s)(?!%s))" % ((_GLOB_PY_WORD,) * 4)

# Fragment shapes: an atom may take a quantifier as is; a sequence must be
# grouped before a quantifier; an alternation also before concatenation.
_GLOB_PY_ATOM, _GLOB_PY_SEQ, _GLOB_PY_ALT = 0, 1, 2


def _glob_rx_to_python(node: _GlobRxNode, kids: List[Tuple[Optional[str], int]]) -> Tuple[Optional[str], int]:
    """(text, shape) of the Python regex for *node*; text None if impossible."""
    kind = node[0]
    if kind == _GLOB_RX_SET:
        return _glob_py_set(node[1]), _GLOB_PY_ATOM
    if kind == _GLOB_RX_BOL:
        return "\\A", _GLOB_PY_SEQ
    if kind == _GLOB_RX_EOL:
        return "\\Z", _GLOB_PY_SEQ
    if kind == _GLOB_RX_WORDB:
        return (_GLOB_PY_NOT_WORDB if node[1] else _GLOB_PY_WORDB), _GLOB_PY_SEQ
    texts = [text for text, _ in kids if text is not None]
    if kind == _GLOB_RX_BACKREF or len(texts) != len(kids):
        # JS back-references (empty when unset, reset per iteration) have
        # no Python equivalent; the NFA engine handles them.
        return None, _GLOB_PY_ATOM
    if kind == _GLOB_RX_GROUP:
        return kids[0]
    if kind == _GLOB_RX_LOOK:
        body = texts[0]
        if node[2]:
            if _glob_rx_fold(node[1], _glob_rx_fixed_width) is None:
                # Python lookbehinds need a fixed width; JS ones do not.
                return None, _GLOB_PY_ATOM
            opener = "(?<!" if node[3] else "(?<="
        else:
            opener = "(?!" if node[3] else "(?="
        return opener + body + ")", _GLOB_PY_SEQ
    if kind == _GLOB_RX_SEQ:
        text = "".join("(?:" + t + ")" if shape == _GLOB_PY_ALT else t
                       for t, (_, shape) in zip(texts, kids))
        return text, _GLOB_PY_SEQ
    if kind == _GLOB_RX_ALT:
        return "|".join(texts), _GLOB_PY_ALT
    low, high, greedy = node[2], node[3], node[4]
    text, shape = texts[0], kids[0][1]
    if shape != _GLOB_PY_ATOM:
        text = "(?:" + text + ")"
    if high is None:
        quantifier = "*" if low == 0 else "+" if low == 1 else "{%d,}" % low
    elif low == high:
        quantifier = "{%d}" % low
    else:
        quantifier = "?" if (low, high) == (0, 1) else "{%d,%d}" % (low, high)
    # A quantified atom needs a group before it takes another quantifier.
    return text + quantifier + ("" if greedy else "?"), _GLOB_PY_SEQ


def _glob_rx_anchored(tree: _GlobRxNode) -> bool:
    """True if every match must start at position 0 (each branch opens with ^)."""
    pending = [tree]
    while pending:
        node = pending.pop()
        while node[0] != _GLOB_RX_BOL:
            kind = node[0]
            if kind == _GLOB_RX_GROUP:
                node = node[1]
            elif kind == _GLOB_RX_SEQ and node[1]:
                node = node[1][0]
            elif kind == _GLOB_RX_ALT:
                pending.extend(node[1][1:])
                node = node[1][0]
            else:
                return False
    return True


def _glob_python_engine(regex: _GlobRegex) -> Tuple[Optional[Callable[[str], Any]], int]:
    """(match function, longest candidate it may take) or (None, -1)."""
    if regex.has_backrefs or regex.max_depth > _GLOB_RE_MAX_DEPTH:
        return None, -1
    tree, anchored = regex.tree, regex.anchored
    text, _ = _glob_rx_fold(tree, _glob_rx_to_python)
    if text is None:
        return None, -1
    paths, steps = _glob_rx_fold(tree, _glob_rx_cost)
    total = _glob_poly_add(steps, paths)
    if total is None:
        return None, -1
    if not anchored:
        total = _glob_poly_mul(total, (0, 1))  # `search` tries every start
        if total is None:
            return None, -1
    # Longest n with total(n + 1) <= budget (total grows with n).
    low, high = -1, _GLOB_RE_MAX_LENGTH
    while low < high:
        mid = (low + high + 1) // 2
        if _glob_poly_eval(total, mid + 1) <= _GLOB_RE_STEP_BUDGET:
            low = mid
        else:
            high = mid - 1
    if low < 0:
        return None, -1
    try:
        compiled = re.compile(text)
    except (re.error, RecursionError, OverflowError):
        return None, -1
    return (compiled.match if anchored else compiled.search), low


# ---------------------------------------------------------------------------
# 20. Globs engines: Engine 2: a memoised NFA, polynomial on every input
# ---------------------------------------------------------------------------
#
# The tree compiles to a small instruction program (Thompson construction).
# Matching explores (instruction, position) states depth first and never
# visits a state twice, so one run costs O(instructions x length) whatever
# the pattern.  A lookaround is a sub-program run from the current position
# (backwards for lookbehinds, as in JS); its answer is memoised per position.
# Back-references make a state depend on the captured text, so regexes with
# them keep the captures in the state and run under a step budget instead.

_GLOB_OP_IN = 0          # consume a unit in the frozenset a
_GLOB_OP_NOT_IN = 1      # consume a unit not in the frozenset a
_GLOB_OP_RANGES = 2      # consume a unit in the ranges (starts a, ends b)
_GLOB_OP_JMP = 3         # go to a
_GLOB_OP_SPLIT = 4       # try a, then b
_GLOB_OP_BOL = 5
_GLOB_OP_EOL = 6
_GLOB_OP_WORDB = 7       # word boundary; b is True for \B
_GLOB_OP_LOOK = 8        # run program a here; b is True for a negative lookaround
_GLOB_OP_MATCH = 9
_GLOB_OP_OPEN = 10       # captures only: remember where group a starts
_GLOB_OP_CLOSE = 11      # captures only: group a ends here
_GLOB_OP_RESET = 12      # captures only: forget groups a..b (new loop iteration)
_GLOB_OP_BACKREF = 13    # captures only: match the text of group a again

_GLOB_VM_MAX_PROGRAM = 100_000
# Counted repeats up to this count compile once, larger ones per length.
_GLOB_VM_EXPAND_COUNTS = 256
_GLOB_VM_MAX_LOOK_NESTING = 100
_GLOB_BACKREF_STEP_BUDGET = 1_000_000
_GLOB_LOOKAHEAD_RE_BUDGET = 10_000
_GLOB_SMALL_SET = 256
# One instruction (op, a, b): what a and b hold depends on op (see the list above). Captures: a
# (start, end, pending start) triple per group, -1 when unset (see _GlobCaptureRun).
_GlobInstruction = Tuple[int, Any, Any]
_GlobCaptures = Tuple[int, ...]


class _GlobMatchError(ValueError):
    """Running the regex throws, as it would in the reference.

    V8 throws while matching regexes beyond its limits (see _GlobRegex), and
    this port throws for regexes beyond its own: a program over the size cap,
    or a back-reference search over its step budget (back-references make
    matching NP-hard).  The reference reports a matcher that throws as an
    invalid glob, and so does PicomatchPattern.match_paths.
    """


class _GlobFragment:
    """A piece of program: instructions (op, a, b) with relative jumps."""

    __slots__ = ("size", "parts")

    def __init__(self, parts: List[Union[_GlobFragment, _GlobInstruction]]) -> None:
        size = 0
        for part in parts:
            size += part.size if isinstance(part, _GlobFragment) else 1
        if size > _GLOB_VM_MAX_PROGRAM:
            raise _GlobTooComplexError("regex program too large")
        self.size: int = size
        # Fragments nest instead of being copied, so building stays linear
        # however deep the regex nests.
        self.parts = parts


class _GlobProgram:
    # Two shortcuts for lookaround programs, which run at many positions:
    # `linear` lists the instructions of a program that only consumes a fixed
    # run of units (`(?!\.)`, `(?=.)`), checked in place; `fast` is a Python
    # re match function for a lookahead whose backtracking is bounded by a
    # constant (`(?!(?:^|\/)\.)` in every globstar).
    __slots__ = ("ops", "arg_a", "arg_b", "joins", "backward", "linear", "fast")
    # All set by _glob_vm_link; `fast` by _GlobMachine._compile as well.
    ops: List[int]
    arg_a: List[Any]
    arg_b: List[Any]
    joins: bytearray
    backward: bool
    linear: Optional[Tuple[Tuple[int, Any, Any], ...]]
    fast: Optional[Callable[[str, int], Any]]


class _GlobMachine:
    """The compiled NFA: program 0 is the regex, the others its lookarounds.

    A counted repeat X{m,M} compiles to copies of X.  When the counts are
    large, the program is specialised to the candidate's length L, which is
    exact: at most L iterations can consume text, the mandatory ones beyond
    L + 1 can only repeat an empty iteration, and optional empty iterations
    never succeed in JS.  Lengths are rounded up to powers of two so a few
    programs serve all candidates.
    """

    def __init__(self, regex: _GlobRegex):
        self.captures = regex.has_backrefs
        self.anchored = regex.anchored
        self._tree = regex.tree
        self._by_length: Dict[int, Tuple[List[_GlobProgram], int]] = {}
        self._length_dependent = regex.max_count > _GLOB_VM_EXPAND_COUNTS
        if not self._length_dependent:
            self._programs = self._build(None)

    def _build(self, length_cap: Optional[int]) -> Tuple[List[_GlobProgram], int]:
        """(programs, index of the main one); identical lookarounds shared."""
        programs: List[_GlobProgram] = []
        main = self._compile(programs, {}, self._tree, False, 0, length_cap)
        return programs, main

    def _compile(self, programs: List[_GlobProgram], known: Dict[Tuple[Any, ...], int], tree: _GlobRxNode,
                 backward: bool, depth: int, length_cap: Optional[int]) -> int:
        if depth > _GLOB_VM_MAX_LOOK_NESTING:
            raise _GlobTooComplexError("lookarounds nested too deeply")
        captures = self.captures

        def combine(node: _GlobRxNode, kids: List[_GlobFragment]) -> _GlobFragment:
            kind = node[0]
            if kind == _GLOB_RX_SET:
                return _GlobFragment([_glob_vm_set_instruction(node[1])])
            if kind == _GLOB_RX_BOL:
                return _GlobFragment([(_GLOB_OP_BOL, 0, 0)])
            if kind == _GLOB_RX_EOL:
                return _GlobFragment([(_GLOB_OP_EOL, 0, 0)])
            if kind == _GLOB_RX_WORDB:
                return _GlobFragment([(_GLOB_OP_WORDB, 0, node[1])])
            if kind == _GLOB_RX_BACKREF:
                return _GlobFragment([(_GLOB_OP_BACKREF, node[1], 0)])
            if kind == _GLOB_RX_LOOK:
                sub = self._compile(programs, known, node[1], node[2], depth + 1, length_cap)
                return _GlobFragment([(_GLOB_OP_LOOK, sub, node[3])])
            if kind == _GLOB_RX_GROUP:
                if captures and node[2]:
                    # OPEN/CLOSE store the boundary in either order, so the
                    # same code serves backward (lookbehind) matching.
                    return _GlobFragment([(_GLOB_OP_OPEN, node[2], 0), kids[0], (_GLOB_OP_CLOSE, node[2], 0)])
                return kids[0]
            if kind == _GLOB_RX_SEQ:
                return _GlobFragment(list(reversed(kids)) if backward else list(kids))
            if kind == _GLOB_RX_ALT:
                tail = kids[-1]
                for kid in reversed(kids[:-1]):
                    tail = _GlobFragment([(_GLOB_OP_SPLIT, 1, kid.size + 2), kid,
                                          (_GLOB_OP_JMP, tail.size + 1, 0), tail])
                return tail
            return _glob_vm_repeat(node, kids[0], captures, length_cap)

        fragment = _glob_rx_fold(tree, combine, into_lookarounds=False)
        program = _glob_vm_link(fragment, backward)
        # picomatch repeats the same few lookarounds; one program (and one
        # memo entry per position) serves all copies.
        key = (tuple(program.ops), tuple(program.arg_a), tuple(program.arg_b), backward)
        if key not in known:
            if depth and not backward and not captures and program.linear is None:
                program.fast = _glob_lookahead_re(tree)
            known[key] = len(programs)
            programs.append(program)
        return known[key]

    def programs_for(self, length: int) -> Tuple[List[_GlobProgram], int]:
        if not self._length_dependent:
            return self._programs
        cap = 64
        while cap < length:
            cap *= 2
        programs = self._by_length.get(cap)
        if programs is None:
            try:
                programs = self._build(cap)
            except _GlobTooComplexError as exc:
                raise _GlobMatchError(str(exc)) from exc
            self._by_length[cap] = programs
        return programs

    def accepts(self, text: str) -> bool:
        """Does the regex match somewhere in *text* (JS ``RegExp.test``)?"""
        return self.run(text)[0]

    def run(self, text: str) -> Tuple[bool, int]:
        """accepts(), and the steps it took: a measure of the work that needs no clock
        (states visited, for back-references; else instructions executed)."""
        programs, main = self.programs_for(len(text))
        starts = [0] if self.anchored else range(len(text), -1, -1)
        if self.captures:
            runner = _GlobCaptureRun(programs, text)
            return runner.run(main, starts, runner.empty_captures) is not None, runner.steps
        nfa = _GlobNfaRun(programs, text)
        return nfa.run(main, starts), nfa.steps


def _glob_vm_set_instruction(ranges: _GlobRanges) -> _GlobInstruction:
    size = sum(hi - lo + 1 for lo, hi in ranges)
    if size <= _GLOB_SMALL_SET:
        return (_GLOB_OP_IN, frozenset(chr(c) for lo, hi in ranges for c in range(lo, hi + 1)), 0)
    if _GLOB_MAX_UNIT + 1 - size <= _GLOB_SMALL_SET:
        excluded = _glob_ranges_invert(ranges)
        return (_GLOB_OP_NOT_IN, frozenset(chr(c) for lo, hi in excluded for c in range(lo, hi + 1)), 0)
    return (_GLOB_OP_RANGES, tuple(lo for lo, _ in ranges), tuple(hi for _, hi in ranges))


def _glob_vm_repeat(node: _GlobRxNode, body: _GlobFragment, captures: bool,
                    length_cap: Optional[int]) -> _GlobFragment:
    low, high, greedy, first_capture, last_capture = node[2:7]
    if captures and first_capture <= last_capture:
        body = _GlobFragment([(_GLOB_OP_RESET, first_capture, last_capture), body])
    optional = None if high is None else high - low
    if length_cap is not None:
        # See _GlobMachine: exact for candidates up to length_cap units.
        low = min(low, length_cap + 1)
        if optional is not None:
            optional = min(optional, length_cap)
    # Size check before building: counts may be as large as 2**31 - 1.
    needed = body.size * low + (body.size + 2 if optional is None else (body.size + 1) * optional)
    if needed > _GLOB_VM_MAX_PROGRAM:
        raise _GlobTooComplexError("regex program too large")
    parts: List[Union[_GlobFragment, _GlobInstruction]] = [body] * low
    if optional is None:
        enter, leave = 1, body.size + 2
        parts.append((_GLOB_OP_SPLIT, enter, leave) if greedy else (_GLOB_OP_SPLIT, leave, enter))
        parts.append(body)
        parts.append((_GLOB_OP_JMP, -(body.size + 1), 0))
    elif optional:
        tail = _GlobFragment([])
        for _ in range(optional):
            enter, leave = 1, body.size + tail.size + 1
            tail = _GlobFragment([(_GLOB_OP_SPLIT, enter, leave) if greedy else (_GLOB_OP_SPLIT, leave, enter),
                                  body, tail])
        parts.append(tail)
    return _GlobFragment(parts)


def _glob_vm_link(fragment: _GlobFragment, backward: bool) -> _GlobProgram:
    """Flatten a fragment into absolute-addressed instruction lists."""
    ops: List[int] = []
    arg_a: List[Any] = []
    arg_b: List[Any] = []
    stack = [iter(fragment.parts)]
    while stack:
        for part in stack[-1]:
            if isinstance(part, _GlobFragment):
                stack.append(iter(part.parts))
                break
            op, a, b = part
            if op == _GLOB_OP_JMP:
                a += len(ops)
            elif op == _GLOB_OP_SPLIT:
                a += len(ops)
                b += len(ops)
            ops.append(op)
            arg_a.append(a)
            arg_b.append(b)
        else:
            stack.pop()
    ops.append(_GLOB_OP_MATCH)
    arg_a.append(0)
    arg_b.append(0)
    joins = bytearray(len(ops))
    joins[0] = 1
    for pc, op in enumerate(ops):
        if op == _GLOB_OP_JMP:
            joins[arg_a[pc]] = 1
        elif op == _GLOB_OP_SPLIT:
            joins[arg_a[pc]] = 1
            joins[arg_b[pc]] = 1
    program = _GlobProgram()
    program.ops, program.arg_a, program.arg_b = ops, arg_a, arg_b
    program.joins = joins
    program.backward = backward
    program.fast = None
    consuming = ops[:-1]
    program.linear = None
    if all(op <= _GLOB_OP_RANGES for op in consuming):
        program.linear = tuple(zip(consuming, arg_a, arg_b))
    return program


def _glob_lookahead_re(body: _GlobRxNode) -> Optional[Callable[[str, int], Any]]:
    """re match function for a lookahead body of constant cost, else None."""
    text, _ = _glob_rx_fold(body, _glob_rx_to_python)
    if text is None:
        return None
    paths, steps = _glob_rx_fold(body, _glob_rx_cost)
    total = _glob_poly_add(steps, paths)
    if total is None or len(total) != 1 or total[0] > _GLOB_LOOKAHEAD_RE_BUDGET:
        return None
    try:
        return re.compile(text).match
    except (re.error, RecursionError, OverflowError):
        return None


def _glob_vm_linear_accepts(program: _GlobProgram, text: str, pos: int) -> bool:
    """Run a program of consuming instructions only, from *pos*."""
    linear = program.linear
    assert linear is not None  # the caller checks that the program has a linear form
    if program.backward:
        if pos < len(linear):
            return False
        units = text[pos - len(linear):pos][::-1]
    else:
        units = text[pos:pos + len(linear)]
        if len(units) < len(linear):
            return False
    return all(_glob_vm_unit_ok(op, a, b, ch) for (op, a, b), ch in zip(linear, units))


class _GlobNfaRun:
    """One candidate against a compiled program without captures.

    Lookaround answers are memoised per (program, position) for the run.
    """

    __slots__ = ("programs", "text", "memo", "steps")

    def __init__(self, programs: List[_GlobProgram], text: str) -> None:
        self.programs = programs
        self.text = text
        self.memo: Dict[Tuple[int, int], bool] = {}
        self.steps = 0  # instructions executed, lookarounds answered without the NFA as one each

    def run(self, index: int, starts: Iterable[int]) -> bool:
        """Does program *index* reach MATCH from any start?"""
        return _glob_nfa_search(self, self.programs[index], self.text, starts)

    def look(self, index: int, pos: int) -> bool:
        """Does lookaround program *index* match at *pos*?"""
        sub = self.programs[index]
        if sub.linear is not None:
            self.steps += 1
            return _glob_vm_linear_accepts(sub, self.text, pos)
        if sub.fast is not None:
            self.steps += 1  # a re match of constant cost (_GLOB_LOOKAHEAD_RE_BUDGET)
            # re's match(text, pos) keeps `\A` at the true start and lets
            # lookbehinds see before pos, as JS does.
            return sub.fast(self.text, pos) is not None
        key = (index, pos)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self.run(index, (pos,))
        return found


def _glob_nfa_search(nfa: _GlobNfaRun, program: _GlobProgram, text: str, starts: Iterable[int]) -> bool:
    """The hot loop of _GlobNfaRun.run, on locals only."""
    ops, arg_a, arg_b, joins = program.ops, program.arg_a, program.arg_b, program.joins
    backward = program.backward
    step = -1 if backward else 1
    n = len(text)
    width = n + 1
    seen = set()
    stack = [(0, pos) for pos in starts]
    steps = 0  # counted for tests/test_glob_linear.py: the work, without a clock
    while stack:
        pc, pos = stack.pop()
        while True:
            steps += 1
            # Only join points can be reached twice; checking just those keeps
            # the total work at O(instructions x positions).
            if joins[pc]:
                key = pc * width + pos
                if key in seen:
                    break
                seen.add(key)
            op = ops[pc]
            if op <= _GLOB_OP_RANGES:
                if backward:
                    if pos == 0:
                        break
                    ch = text[pos - 1]
                elif pos == n:
                    break
                else:
                    ch = text[pos]
                if op == _GLOB_OP_IN:
                    if ch not in arg_a[pc]:
                        break
                elif op == _GLOB_OP_NOT_IN:
                    if ch in arg_a[pc]:
                        break
                else:
                    code = ord(ch)
                    i = bisect.bisect_right(arg_a[pc], code) - 1
                    if i < 0 or code > arg_b[pc][i]:
                        break
                pos += step
                pc += 1
            elif op == _GLOB_OP_SPLIT:
                stack.append((arg_b[pc], pos))
                pc = arg_a[pc]
            elif op == _GLOB_OP_JMP:
                pc = arg_a[pc]
            elif op == _GLOB_OP_MATCH:
                nfa.steps += steps
                return True
            elif op == _GLOB_OP_LOOK:
                if nfa.look(arg_a[pc], pos) == arg_b[pc]:
                    break
                pc += 1
            elif _glob_vm_holds(op, arg_b[pc], text, pos):
                pc += 1
            else:
                break
    nfa.steps += steps
    return False


def _glob_vm_holds(op: int, negated: bool, text: str, pos: int) -> bool:
    """The zero-width assertions ^, $ and \\b / \\B at *pos*."""
    if op == _GLOB_OP_BOL:
        return pos == 0
    if op == _GLOB_OP_EOL:
        return pos == len(text)
    boundary = ((pos > 0 and text[pos - 1] in _GLOB_WORD_CHARS)
                != (pos < len(text) and text[pos] in _GLOB_WORD_CHARS))
    return boundary != negated


def _glob_vm_unit_ok(op: int, a: Any, b: Any, ch: str) -> bool:
    """Does a consuming instruction accept the code unit *ch*?"""
    if op == _GLOB_OP_IN:
        return ch in a
    if op == _GLOB_OP_NOT_IN:
        return ch not in a
    i = bisect.bisect_right(a, ord(ch)) - 1
    return i >= 0 and ord(ch) <= b[i]


class _GlobCaptureRun:
    """Backtracking search with JS capture semantics, for back-references.

    States are (instruction, position, captures).  Captures are a tuple of
    (start, end, pending start) per group, -1 when unset.  The search follows
    JS's priority order so a positive lookaround keeps the captures of its
    first match, as in JS.
    """

    def __init__(self, programs: List[_GlobProgram], text: str) -> None:
        self.programs = programs
        self.text = text
        self.steps = 0
        self.memo: Dict[Tuple[int, int, _GlobCaptures], Optional[_GlobCaptures]] = {}
        group_count = max((a for prog in programs
                           for op, a in zip(prog.ops, prog.arg_a)
                           if op in (_GLOB_OP_OPEN, _GLOB_OP_BACKREF)), default=0)
        self.empty_captures = (-1,) * (3 * (group_count + 1))

    def run(self, index: int, starts: Iterable[int], captures: _GlobCaptures) -> Optional[_GlobCaptures]:
        """Captures after the first match from *starts*, or None."""
        program = self.programs[index]
        ops, arg_a, arg_b = program.ops, program.arg_a, program.arg_b
        backward = program.backward
        seen = set()
        stack = [(0, pos, captures) for pos in reversed(list(starts))]
        while stack:
            pc, pos, caps = stack.pop()
            while True:
                state = (pc, pos, caps)
                if state in seen:
                    break
                seen.add(state)
                self.steps += 1
                if self.steps > _GLOB_BACKREF_STEP_BUDGET:
                    raise _GlobMatchError("back-reference search budget exhausted")
                op = ops[pc]
                if op == _GLOB_OP_SPLIT:
                    stack.append((arg_b[pc], pos, caps))
                    pc = arg_a[pc]
                    continue
                if op == _GLOB_OP_JMP:
                    pc = arg_a[pc]
                    continue
                if op == _GLOB_OP_MATCH:
                    return caps
                moved = self._step(op, arg_a[pc], arg_b[pc], pos, caps, backward)
                if moved is None:
                    break
                pos, caps = moved
                pc += 1
        return None

    def _step(self, op: int, a: Any, b: Any, pos: int, caps: _GlobCaptures,
              backward: bool) -> Optional[Tuple[int, _GlobCaptures]]:
        """(position, captures) after one instruction, or None where it fails."""
        text = self.text
        if op <= _GLOB_OP_RANGES:
            index = pos - 1 if backward else pos
            if not 0 <= index < len(text) or not _glob_vm_unit_ok(op, a, b, text[index]):
                return None
            return pos + (-1 if backward else 1), caps
        if op == _GLOB_OP_OPEN:
            slot = 3 * a
            return pos, caps[:slot + 2] + (pos,) + caps[slot + 3:]
        if op == _GLOB_OP_CLOSE:
            slot = 3 * a
            begin = caps[slot + 2]
            return pos, caps[:slot] + (min(begin, pos), max(begin, pos)) + caps[slot + 2:]
        if op == _GLOB_OP_RESET:
            first, last = 3 * a, 3 * b + 3
            return pos, caps[:first] + (-1,) * (last - first) + caps[last:]
        if op == _GLOB_OP_BACKREF:
            return self._backref(3 * a, pos, caps, backward)
        if op == _GLOB_OP_LOOK:
            key = (a, pos, caps)
            if key not in self.memo:
                self.memo[key] = self.run(a, (pos,), caps)
            inner = self.memo[key]
            if b:  # negative: must not match, keeps the captures
                return None if inner is not None else (pos, caps)
            return None if inner is None else (pos, inner)
        return (pos, caps) if _glob_vm_holds(op, b, text, pos) else None

    def _backref(self, slot: int, pos: int, caps: _GlobCaptures,
                 backward: bool) -> Optional[Tuple[int, _GlobCaptures]]:
        begin, end = caps[slot], caps[slot + 1]
        if begin < 0:
            return pos, caps  # an unset group matches the empty string, as in JS
        text = self.text
        piece = text[begin:end]
        if backward:
            return (pos - len(piece), caps) if text.endswith(piece, 0, pos) else None
        return (pos + len(piece), caps) if text.startswith(piece, pos) else None


# ---------------------------------------------------------------------------
# 20. Globs engines: The product's path matcher
# ---------------------------------------------------------------------------


def _glob_has_dot_segment(path: str) -> bool:
    """A "/" segment that starts with "." and is neither "." nor ".."."""
    if not path.startswith(".") and "/." not in path:
        return False
    return any(seg[:1] == "." and seg not in (".", "..") for seg in path.split("/"))


def _glob_normalise_candidate(path: str) -> str:
    """The reference's candidate: backslashes to "/", then one "./" dropped."""
    path = path.replace("\\", "/")
    return path[2:] if path.startswith("./") else path


def _glob_literal_prefix(tree: _GlobRxNode) -> str:
    """The text every match of the regex starts with: the literal code units right after its
    leading ^, through groups of one branch ("" when it does not start with ^). Surrogates end it,
    so that a str prefix test is a code-unit prefix test."""
    units: List[str] = []

    def walk(nodes: Sequence[_GlobRxNode]) -> bool:  # False at the first node that is not a plain literal
        for node in nodes:
            kind = node[0]
            if kind == _GLOB_RX_SET and len(node[1]) == 1 and node[1][0][0] == node[1][0][1] \
                    and not 0xD800 <= node[1][0][0] <= 0xDFFF:
                units.append(chr(node[1][0][0]))
            elif not ((kind == _GLOB_RX_GROUP and walk([node[1]]))
                      or (kind == _GLOB_RX_SEQ and walk(node[1]))):
                return False
        return True

    items = tree[1] if tree[0] == _GLOB_RX_SEQ else (tree,)
    if items and items[0][0] == _GLOB_RX_BOL:
        walk(items[1:])
    return "".join(units)


class _GlobPathMatcher:
    """One compiled path pattern (see PicomatchPattern).

    Three savings for a hook that compiles every pattern of the corpus for one file (ADR 0018):
    a candidate that does not start with the regex's leading literal text (`_prefix`) is refused
    before any engine runs, since the regex is anchored on that text and, without
    back-references, cannot throw once built; and both engines, Python's re and the NFA machine,
    are built when a candidate first reaches the regex, not with the pattern. The one answer this
    can change is for a regex past this port's own limits (ADR 0004): it is reported once a
    candidate reaches it, and a candidate the literal prefix turns away never does, just as the
    reference, which has no such limit, would not match it.
    """

    __slots__ = ("pattern", "bad_pattern", "_allows_dot", "_re_engine", "_regex", "_prefix",
                 "_nfa", "_exec_error")

    def __init__(self, pattern: str):
        self.pattern = pattern
        self.bad_pattern = None
        self._allows_dot = _glob_has_dot_segment(pattern)
        # (match function, longest candidate it may take), or (None, -1); None: not built yet.
        self._re_engine: Optional[Tuple[Optional[Callable[[str], Any]], int]] = (None, -1)
        self._regex: Optional[_GlobRegex] = None
        self._prefix = ""
        self._nfa: Optional[_GlobMachine] = None  # built on first use: see _built_machine
        # Set when running the regex must throw (_GlobMatchError); like the
        # reference, the error surfaces only if a candidate reaches the regex.
        self._exec_error = None
        if pattern.startswith("/"):
            self.bad_pattern = "leading-slash"
            return
        try:
            source = _glob_make_source(JS.code_units(pattern))
        except ValueError:
            self.bad_pattern = "invalid-glob"
            return
        try:
            regex = _GlobRegex(source)
        except _GlobRegexSyntaxError:
            # picomatch swallows V8's SyntaxError and uses a regex that never
            # matches; only its literal-equality shortcut can still succeed.
            return
        if regex.too_large:
            self._exec_error = "V8 reports the regular expression as too large"
            return
        self._regex, self._re_engine = regex, None
        if not regex.has_backrefs:
            self._prefix = _glob_literal_prefix(regex.tree)

    def _built_machine(self) -> _GlobMachine:
        """The NFA machine, built when a candidate first reaches the regex.

        Raises _GlobMatchError, then and for every later candidate, when the regex is past this
        port's limits (ADR 0004)."""
        machine = self._nfa
        if machine is None:
            assert self._regex is not None  # a regex that parsed and that V8 would run
            if self._exec_error is None:
                try:
                    machine = self._nfa = _GlobMachine(self._regex)
                except (_GlobTooComplexError, RecursionError) as exc:
                    self._exec_error = "regex beyond this port's limits: %s" % (exc,)
            if machine is None:
                raise _GlobMatchError(self._exec_error)
        return machine

    def _python_engine(self) -> Tuple[Optional[Callable[[str], Any]], int]:
        """Python's re engine for this regex, built on first use (see _glob_python_engine).

        The machine is built first: a regex past the port's limits is refused by either engine."""
        engine = self._re_engine
        if engine is None:
            assert self._regex is not None  # _re_engine is None only while a regex is kept
            self._built_machine()
            engine = self._re_engine = _glob_python_engine(self._regex)
        return engine

    @property
    def _re_match(self) -> Optional[Callable[[str], Any]]:
        return self._python_engine()[0]

    @property
    def _re_max_length(self) -> int:
        return self._python_engine()[1]

    def picomatch_is_match(self, candidate: str) -> bool:
        """picomatch's own isMatch for an already normalised candidate.

        Raises _GlobMatchError where running the regex throws.
        """
        if self.bad_pattern is not None or not candidate:
            return False
        if candidate == self.pattern:
            return True
        if self._exec_error is not None:
            raise _GlobMatchError(self._exec_error)
        if self._regex is None:
            return False  # no regex to run (picomatch's never-matching one)
        units = JS.code_units(candidate)
        re_match, max_length = self._python_engine()  # re_match is None exactly when max_length is -1
        if re_match is not None and len(units) <= max_length:
            return re_match(units) is not None
        return self._built_machine().accepts(units)

    def matches(self, candidate: str) -> bool:
        """The product's rule for one already normalised candidate.

        A candidate with a dot segment only matches a pattern that has one.
        Raises _GlobMatchError where running the regex throws.
        """
        if not self._allows_dot and _glob_has_dot_segment(candidate):
            return False
        prefix = self._prefix
        if prefix and not candidate.startswith(prefix) and candidate != self.pattern:
            return False
        # The common case, kept short: servers match thousands of patterns
        # against hundreds of paths per call.
        re_match, max_length = self._re_engine or self._python_engine()  # None exactly when -1
        if re_match is not None and 0 < len(candidate) <= max_length and candidate.isascii():
            return candidate == self.pattern or re_match(candidate) is not None
        return self.picomatch_is_match(candidate)


    # pathspec calls a RegexPattern's regex through `search` (and `match`).
    def search(self, candidate: str) -> Optional[str]:
        return candidate if self.matches(candidate) else None

    match = search

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _GlobPathMatcher) and other.pattern == self.pattern

    def __hash__(self) -> int:
        return hash(self.pattern)


@functools.lru_cache(maxsize=4096)
def _glob_compile(pattern: str) -> _GlobPathMatcher:
    """Compile *pattern* once; the server re-matches the same corpus patterns
    on every call, so compilation is cached per distinct pattern."""
    return _GlobPathMatcher(pattern)


_GLOB_PATTERN_TYPE: List[type] = []  # the one PicomatchPattern class, once defined


def picomatch_pattern_type() -> type:
    """The globs engine's door: the picomatch glob as a pathspec pattern type.

    The first call imports pathspec, defines the type and registers it with
    pathspec as "picomatch" (a run that matches no glob never loads pathspec);
    every call returns the same class:

        spec = picomatch_pattern_type()("src/**/*.ts")
        spec.include is None        # a pattern the reference rejects, and
        spec.bad_pattern            # why: "leading-slash" or "invalid-glob"
        spec.match_file("src/a.ts") # a RegexMatchResult, or None
        spec.match_paths(paths)     # (matched, bad_pattern), as matchPathPattern
    """
    if not _GLOB_PATTERN_TYPE:
        import pathspec.util
        _GLOB_PATTERN_TYPE.append(_glob_pattern_class())
        try:
            pathspec.util.register_pattern("picomatch", _GLOB_PATTERN_TYPE[0])
        except pathspec.util.AlreadyRegisteredError:
            # The module can be imported twice under different names (tests); the
            # first registration stays, and both classes behave identically.
            pass
    return _GLOB_PATTERN_TYPE[0]


def _glob_pattern_class() -> type:
    """The PicomatchPattern class, a pathspec.RegexPattern (imported here)."""
    import pathspec

    class PicomatchPattern(pathspec.RegexPattern):
        """A picomatch glob as a pathspec pattern (see picomatch_pattern_type).

        `match_file` takes a candidate already normalised (see `match_paths`) and
        applies the reference's whole rule, the dot-segment rule included; it
        raises ValueError where the reference's regex throws (an invalid glob).
        The "regex" handed to RegexPattern is this engine's compiled matcher,
        whose `search` runs it: the grammar cannot always be a Python regex (JS
        lookbehinds, back-references, and re's backtracking on hostile globs).
        """

        __slots__ = ("bad_pattern",)

        def __init__(self, pattern: Any, include: Optional[bool] = None) -> None:
            # *include* exists for RegexPattern.__copy__, which passes the compiled
            # matcher and its include flag back in; both follow from the pattern.
            if isinstance(pattern, str):
                matcher = _glob_compile(pattern)
            elif isinstance(pattern, _GlobPathMatcher):
                matcher = pattern
            else:
                raise TypeError("picomatch patterns must be str, not %s" % type(pattern).__name__)
            self.bad_pattern = matcher.bad_pattern
            # pathspec annotates *pattern* as str, bytes or re.Pattern but takes any
            # object with a `match` method as a compiled regex (hasattr check).
            super().__init__(cast(Any, matcher), None if self.bad_pattern else True)  # duck-typed regex
            self.pattern = matcher.pattern

        def match_paths(self, paths: Iterable[str]) -> Tuple[bool, Optional[str]]:
            """(matched, bad_pattern) exactly like the reference's matchPathPattern.

            Each path is normalised as the reference does (backslashes to "/",
            one leading "./" dropped; pathspec's own normalize_file would also
            strip a leading "/", which the reference does not).  bad_pattern is
            None, "leading-slash" or "invalid-glob" (also when the regex throws).
            """
            if self.bad_pattern is not None:
                return False, self.bad_pattern
            matcher = self.regex
            # __init__ (and RegexPattern.__copy__, through it) always stores one.
            assert isinstance(matcher, _GlobPathMatcher)
            try:
                for path in paths:
                    if matcher.matches(_glob_normalise_candidate(path)):
                        return True, None
            except _GlobMatchError:
                return False, "invalid-glob"
            return False, None

    return PicomatchPattern


# ---------------------------------------------------------------------------
# 21. YAML scanner: the frontmatter loader (YAML 1.2 core schema, JS `yaml` 2.9.0 semantics)
# ---------------------------------------------------------------------------

"""YAML engine: reproduces how yaml 2.9.0 reads frontmatter (parseDocument strict, then toJS),
and how the reference's importer has it write frontmatter (stringify, lineWidth 0).

Door: FrontmatterYaml.load(source, route="auto"), which returns JS-shaped
plain data or raises FrontmatterYaml.Error (stage "parse" or "toJS", the
library's first error code, a message); FrontmatterYaml.stringify(value),
the text `stringify(value, {lineWidth: 0, sortMapEntries: false})` returns
for a map of strings, numbers, booleans, nulls, lists and maps (untrimmed:
`adr migrate` trims it).  Everything else is private.

Guarantees: the library's value (numbers as doubles, JS own-key order, the
YAML 1.2 core schema, or its 1.1 schema under %YAML 1.1) or its first error,
quirks included.  Each stage reads forward without backtracking;
nesting deeper than 800 levels is refused as the library's stack overflow is,
and alias expansion is capped as in toJS (maxAliasCount 100).  Two routes: a
line-based fast path for plain frontmatter, which declines everything else to
the full path (our scanner, PyYAML's event parser subclassed, our composer and
converter; ADR 0003).  No C extension: a checkout and the .pyz run this code.
The writer gives the library's bytes, its three lossy writes included (they
read back as the library reads them), at any depth (a stack, not recursion);
a cycle (ValueError), a key that is not a str or a value of another type
(TypeError) is refused, never guessed.

Equivalence: tests/data/vectors/yaml.json, 573 cases recorded from the
library, through both routes (tests/test_vectors_yaml.py, with hostile-input
time bounds); the fast path equals the full path on every vector, on the
conformance and benchmark corpora and under a differential fuzz
(tests/test_yaml_fast_path.py); tests/test_yaml_quoted_cut.py pins the lexer's
quoted-scalar cut before a less-indented line (48 cases, both routes).
The writer: tests/data/vectors/yaml-stringify.json, 4,247 values written by
the library (tools/record_yaml_stringify.mjs; Bun and Node record the same
bytes), each output equal byte for byte and read back by `load` as the
library reads it; property tests write and read back generated values and
every string the other vector files load to (tests/test_vectors_yaml_stringify.py).
"""

#
# The reference product parses ADR frontmatter with the JavaScript library
# `yaml` 2.9.0:
#
#     doc = parseDocument(source, {strict: true, prettyErrors: false})
#     if doc.errors: fail (stage "parse", code of the first error)
#     value = doc.toJS()          # may throw (stage "toJS")
#
# PyYAML implements YAML 1.1, which differs in scalar resolution (yes/no,
# sexagesimal numbers, timestamps, octal `0123`, merge keys) and in a number
# of lexical rules (tabs, line breaks, comments, flow-context plain scalars).
# This section rebuilds the front half of PyYAML's pipeline so that its
# output matches the JS library:
#
#   _YamlScanner   a PyYAML-compatible token producer written against the
#                  YAML 1.2 lexical rules as the JS lexer applies them, which
#                  raises JS error codes where the JS library reports errors;
#   _YamlParser    PyYAML's event Parser adjusted for JS-style directive,
#                  document and property handling and JS error codes (its rules
#                  mixed ahead of PyYAML's Parser when PyYAML is first imported);
#   _YamlComposer  builds a small node graph from the parser's events, resolving
#                  scalars with the core (or, under %YAML 1.1, the 1.1) schema
#                  and enforcing unique keys;
#   _YamlToJS      converts the node graph the way `Document.toJS()` does,
#                  including JS key stringification, JS own-key order and the
#                  alias-expansion cap that refuses "billion laughs" input.
#
# Where the JS library reports several errors, the first one is what counts.
# Problems that do not stop the JS parser are therefore recorded (with the
# position at which the JS composer would meet them) and reported when the
# document is complete, unless a fatal error comes first.
#
# Before that full path, the simple frontmatter most records use is read by a
# line-based recogniser that declines anything else (see "Line-based fast
# path" below).  PyYAML's C extension is never used: it lexes YAML 1.1, and
# the .pyz ships without it.
#
# Errors surface as FrontmatterYaml.Error with `.stage`, `.code`, `.message`.


# ---------------------------------------------------------------------------
# 21. YAML scanner: Public types
# ---------------------------------------------------------------------------

if TYPE_CHECKING:  # PyYAML's names, for annotations and as _yaml_bind_pyyaml() binds them
    from yaml.events import (
        AliasEvent, DocumentEndEvent, DocumentStartEvent, MappingEndEvent, MappingStartEvent,
        ScalarEvent, SequenceEndEvent, SequenceStartEvent, StreamEndEvent
    )
    from yaml.tokens import (
        AliasToken, AnchorToken, BlockEndToken, BlockEntryToken, BlockMappingStartToken,
        BlockSequenceStartToken, DirectiveToken, DocumentEndToken, DocumentStartToken,
        FlowEntryToken, FlowMappingEndToken, FlowMappingStartToken, FlowSequenceEndToken,
        FlowSequenceStartToken, KeyToken, ScalarToken, StreamEndToken, StreamStartToken, TagToken,
        ValueToken
    )
    # The names _yaml_bind_pyyaml() binds at run time, as the type checker sees them.
    _YAML_NODE_END_TOKENS: Tuple[Any, ...]
    _YAML_ITEM_START_TOKENS: Tuple[Any, ...]


class _FrontmatterYamlError(Exception):
    """The YAML step failed the way the JS library fails.

    stage   "parse" (the document had errors) or "toJS" (conversion threw).
    code    parse stage: the JS error code of the first error, e.g.
            DUPLICATE_KEY, TAB_AS_INDENT, BAD_INDENT, MULTIPLE_DOCS;
            toJS stage: the JS error name, e.g. ReferenceError.
    message human-readable text (close to, but not guaranteed to equal,
            the JS library's wording).
    """

    def __init__(self, stage: str, code: str, message: str) -> None:
        Exception.__init__(self, message)
        self.stage = stage
        self.code = code
        self.message = message


class _YamlJSObject:
    """A JS object the door returns for a tagged value, equal by content."""

    __slots__: Tuple[str, ...] = ()  # each subclass names its one content slot
    # Unhashable, as the data model spells it (equal by content, like JS
    # objects compared deeply); typeshed types object.__hash__ as a method.
    __hash__: Optional[Callable[[], int]] = None  # type: ignore[assignment]

    def _content(self) -> Any:
        return getattr(self, self.__slots__[0])

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, _YamlJSObject) \
            and other._content() == self._content()

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __repr__(self) -> str:
        return "%s(%r)" % (type(self).__name__, self._content())


class _YamlDate(_YamlJSObject):
    """A JS Date from `!!timestamp` (or a %YAML 1.1 plain timestamp): `iso` is
    its `toISOString()` text (UTC, millisecond precision), None if invalid."""

    __slots__ = ("iso",)
    js_class = "Date"

    def __init__(self, iso: Optional[str]) -> None:
        self.iso = iso

    def __hash__(self) -> int:
        return hash(("YamlDate", self.iso))


class _YamlOrderedMap(_YamlJSObject):
    """A JS Map (from `!!omap`): `entries` is a list of (key, value) pairs."""

    __slots__ = ("entries",)
    js_class = "Map"

    def __init__(self, entries: Optional[List[Tuple[Any, Any]]] = None) -> None:
        self.entries = [] if entries is None else entries


class _YamlSet(_YamlJSObject):
    """A JS Set (from `!!set`): `items` is the list of members in order."""

    __slots__ = ("items",)
    js_class = "Set"

    def __init__(self, items: Optional[List[Any]] = None) -> None:
        self.items = [] if items is None else items


# ---------------------------------------------------------------------------
# 21. YAML scanner: Internal error plumbing
# ---------------------------------------------------------------------------


class _YamlSyntaxError(Exception):
    """A parse-stage error carrying the JS error code.

    `at`: when set, the JS library reports this error before any problem
    found inside the source after that offset (it checks the structure
    first), so such earlier-recorded problems must not take precedence.
    """

    def __init__(self, code: str, message: str, at: Optional[int] = None, pos: Optional[int] = None) -> None:
        Exception.__init__(self, message)
        self.code = code
        self.message = message
        self.at = at
        # Where the error is: problems in tokens scanned before this point
        # (but not yet consumed) still count as reported before it.
        self.pos = pos


class _YamlToJSError(Exception):
    """An error thrown while converting to plain data (JS toJS stage)."""

    def __init__(self, name: str, message: str) -> None:
        Exception.__init__(self, message)
        self.name = name
        self.message = message


# Deeper nesting than this is refused the way the JS library refuses it: its
# recursive composer overflows the call stack (around 800-950 levels in
# Node 20) and reports RESOURCE_EXHAUSTION at the parse stage.  Our composer
# and converter are iterative, so this cap is a policy, not a crash guard.
_YAML_MAX_DEPTH = 800

# `Document.toJS()` default: an alias whose expansion would exceed this many
# node visits throws "Excessive alias count ...".
_YAML_MAX_ALIAS_COUNT = 100

_YAML_MSG_COMMENT_SPACE = (
    "Comments must be separated from other tokens by white space characters"
)
_YAML_MSG_PROPS_SPACE = (
    "Tags and anchors must be separated from the next token by white space"
)
_YAML_MSG_TAB_INDENT = "Tabs are not allowed as indentation"
_YAML_MSG_MAP_COLUMN = "All mapping items must start at the same column"
_YAML_MSG_NEEDS_VALUE = "Implicit map keys need to be followed by map values"
_YAML_MSG_MULTILINE_KEY = "Implicit keys need to be on a single line"
_YAML_MSG_COMPACT_MAP = "Nested mappings are not allowed in compact mappings"


# ---------------------------------------------------------------------------
# 21. YAML scanner: Scanner
# ---------------------------------------------------------------------------

# Characters after which `-`, `?` and `:` act as indicators (besides the end
# of input).  YAML 1.2 has only LF and CRLF as line breaks; NEL, LS and PS are
# ordinary characters, unlike in PyYAML's YAML 1.1 scanner.
_YAML_BLANK = " \t\n\r"
_YAML_FLOW_CHARS = ",[]{}"
# An anchor or alias name runs until white space or a flow indicator.
_YAML_ANCHOR_RE = re.compile(r"[^ \t\n\r,\[\]{}]*")
# Tag characters as the JS lexer accepts them (URI characters and %XX).
_YAML_TAG_RE = re.compile(r"(?:[0-9A-Za-z\-#;/?:@&=+$_.!~*'()]|%[0-9A-Fa-f]{2})*")
# Where a plain scalar might stop: blanks and ':' (plus flow indicators in
# flow context); everything else is plain content.
_YAML_PLAIN_STOP_BLOCK = re.compile(r"[ \t\n\r:]")
_YAML_PLAIN_STOP_FLOW = re.compile(r"[ \t\n\r:,\[\]{}]")
# _YAML_NODE_END_TOKENS (tokens that complete a node, and could be a key or junk after one) and
# _YAML_ITEM_START_TOKENS (tokens that open a collection item before its content) are PyYAML's
# token classes: _yaml_bind_pyyaml() binds them with the classes.


# A PyYAML token or event (our scanner's tokens carry extra `_yaml_*` attributes). Code dispatches
# on `token.__class__` and reads the attributes of that class, which mypy does not narrow (see
# _YamlNode): to the checker both are Any.
_YamlToken = Any
_YamlEvent = Any


class _YamlSimpleKey:
    """A token that may turn out to be an implicit key (PyYAML's idea)."""

    __slots__ = ("token_number", "required", "index", "line", "start_line", "column", "tab", "inline")

    def __init__(self, token_number: int, required: bool, index: int, line: int, column: int, tab: bool,
                 inline: bool) -> None:
        self.token_number = token_number
        self.required = required
        self.index = index
        # `line` follows the end of the key's tokens; `start_line` stays.
        self.line = line
        self.start_line = line
        self.column = column
        # A tab was used as indentation right before this token.
        self.tab = tab
        # The token is the value of an implicit key on the same line.
        self.inline = inline


class _YamlScanner:
    """Turns YAML 1.2 text into PyYAML tokens.

    The token stream has PyYAML's shape (BLOCK-MAPPING-START, KEY, VALUE,
    BLOCK-END, ...), so PyYAML's Parser can consume it.  Token marks are plain
    character offsets: nothing downstream needs line/column objects, and
    creating them is a measurable share of the cost.

    The lexical decisions follow the JS lexer: where a plain or quoted scalar
    ends is decided by the "indentNext" rule, comments need preceding white
    space, tabs are separators but never indentation, only LF/CRLF break
    lines, anchors may contain any non-blank non-flow character, and `:`
    inside flow collections follows the JSON-compatible adjacency rule.
    """

    def __init__(self, text: str) -> None:
        # CRLF is a single line break in YAML 1.2; folding it to LF up front
        # keeps every later rule simple.  A lone CR stays an ordinary
        # character, as it is for the JS lexer.
        if "\r" in text:
            text = text.replace("\r\n", "\n")
        self._n = len(text)
        # NUL padding lets the scanner peek a few characters past the end
        # without bounds checks; real NULs are content, so end-of-input tests
        # compare positions with self._n instead.
        self._s = text + "\0\0\0\0"
        self._pos = 0
        self._line = 0
        self._line_start = 0
        # PyYAML scanner state (same meaning as in yaml.scanner.Scanner).
        self.done = False
        self.flow_level = 0
        # A deque: long flow collections used as keys keep many tokens
        # queued, and popping from the front of a list would be quadratic.
        self.tokens: collections.deque[_YamlToken] = collections.deque(
            [StreamStartToken(0, 0, encoding=None)])
        self.tokens_taken = 0
        self.indent = -1
        self.indents: List[int] = []
        # Kind ("map"/"seq") of each open block collection, parallel to the
        # indentation stack; error codes depend on it.
        self._kinds: List[Optional[str]] = []
        self._kind: Optional[str] = None
        # Indentation depths of mappings hit by the JS "empty item" quirk.
        self._impossible: Set[int] = set()
        self.allow_simple_key = True
        self.possible_simple_keys: Dict[int, _YamlSimpleKey] = {}
        self._key_min_level: Optional[int] = None
        # JS lexer state.
        self._in_document = False
        self._indent_next = 0
        self._indent_value = 0
        self._flow_key = False
        # Per open flow collection: (bracket, is_document_root).
        self._flow_stack: List[Tuple[str, bool]] = []
        self._collections_seen = False
        # Line bookkeeping for tab and compact-mapping rules.
        # True until the first non-indicator token of the line; `-`, `?`
        # and `:` at the start of a line keep it (JS "block-start").
        self._at_block_start = True
        # A tab was part of the white space right before the current token,
        # and whether that white space began the line.
        self._tab_pending = False
        self._tab_at_line_start = False
        # The previous token on this line is a block `-` or `?`.
        self._after_block_indicator = False
        self._line_indent = 0
        # Column of the last block `?`, so that its `:` is known explicit.
        self._explicit_key_column = -1
        self._inline_value_pos = -1
        self._inline_value_eol = -1
        self._last_token = None
        self._last_start = 0
        self._last_end = 0
        self._prev_token = None
        self._last_content = None
        self._content_before = None
        self._line_quirk = False
        self._line_quirk_pos = -1
        self._stale_key: Optional[_YamlSimpleKey] = None
        # A continuable error waiting for the next token (see _soft).
        self._soft_next: Optional[Tuple[str, str]] = None
        self._begin_line(0)

    if TYPE_CHECKING:  # the parser's, which the scanner always runs mixed with (_yaml_pipeline_class)
        def _yaml_record(self, code: str, message: str, pos: Optional[int] = None) -> None: ...

    # -- PyYAML scanner interface -------------------------------------------

    def check_token(self, *choices: type) -> bool:
        while self._need_more_tokens():
            self._fetch_more_tokens()
        if self.tokens:
            if not choices:
                return True
            return isinstance(self.tokens[0], choices)
        return False

    def peek_token(self) -> _YamlToken:
        while self._need_more_tokens():
            self._fetch_more_tokens()
        if self.tokens:
            return self.tokens[0]
        return None

    def get_token(self) -> _YamlToken:
        while self._need_more_tokens():
            self._fetch_more_tokens()
        if self.tokens:
            self.tokens_taken += 1
            return self.tokens.popleft()
        return None

    # -- helpers -------------------------------------------------------------

    def _error(self, code: str, message: str) -> NoReturn:
        """A fatal error: scanning cannot sensibly go on."""
        raise _YamlSyntaxError(code, message, None, self._pos)

    def _soft(self, code: str, message: str) -> None:
        """A continuable error belonging to the next token.

        The JS library reports such problems while composing the node the
        token belongs to; a token that ends up as stray junk is reported as
        "unexpected" instead.  So the error rides on the token and counts
        only once the parser consumes the token into a node.
        """
        if self._soft_next is None:
            self._soft_next = (code, message)

    def _soft_after(self, code: str, message: str) -> None:
        """A continuable error belonging to the token just scanned."""
        last = self._last_token
        if last is not None and any(t is last for t in self.tokens):
            if getattr(last, "_yaml_soft", None) is None:
                last._yaml_soft = (code, message)
        else:
            self._yaml_record(code, message, self._pos)

    def _empty_at(self, pos: int) -> bool:
        """True when `pos` is past the end or holds a blank (JS isEmpty)."""
        return pos >= self._n or self._s[pos] in _YAML_BLANK

    def _add(self, token: _YamlToken, start: int, end: int) -> None:
        if self._soft_next is not None:
            token._yaml_soft = self._soft_next
            self._soft_next = None
        self._prev_token = self._last_token
        if token.__class__ is not BlockEndToken:
            self._content_before = self._last_content
            self._last_content = token
        if self.possible_simple_keys:
            # A pending key candidate extends over the tokens that follow it
            # (properties, then the node itself).
            key = self.possible_simple_keys.get(self.flow_level)
            if key is not None:
                key.line = self._line
        self.tokens.append(token)
        self._last_token = token
        self._last_start = start
        self._last_end = end

    def _set_inline(self, pos: int) -> None:
        """Remember an implicit key's `:`: the rest of its line is the
        key's compact value (where the JS library forbids a mapping)."""
        self._inline_value_pos = pos
        eol = self._s.find("\n", pos, self._n)
        self._inline_value_eol = self._n if eol < 0 else eol

    def _inline_at(self, pos: int) -> bool:
        """Is `pos` on the line of the last implicit key's `:`, after it?"""
        return self._inline_value_pos < pos <= self._inline_value_eol

    def _advance_lines(self, start: int, end: int) -> None:
        """Account for line breaks inside a multi-line token."""
        count = self._s.count("\n", start, end)
        if count:
            self._line += count
            self._line_start = self._s.rfind("\n", start, end) + 1

    def _need_more_tokens(self) -> bool:
        if self.done:
            return False
        if not self.tokens:
            return True
        self._stale_possible_simple_keys()
        if self._next_possible_simple_key() == self.tokens_taken:
            return True
        return False

    def _next_possible_simple_key(self) -> Optional[int]:
        # Keys at lower flow levels were saved earlier, so the lowest level
        # holds the smallest token number; tracking that level keeps this
        # O(1) even inside deeply nested flow collections.
        level = self._key_min_level
        if level is None:
            return None
        return self.possible_simple_keys[level].token_number

    def _drop_key(self, level: int) -> Optional[_YamlSimpleKey]:
        key = self.possible_simple_keys.pop(level, None)
        if key is not None and level == self._key_min_level:
            keys = self.possible_simple_keys
            self._key_min_level = min(keys) if keys else None
        return key

    # -- simple keys ---------------------------------------------------------

    def _stale_possible_simple_keys(self) -> None:
        # Only block-context keys go stale, and only when a line break
        # follows them: the JS library reports over-long keys
        # (KEY_OVER_1024_CHARS) and keys spanning lines
        # (MULTILINE_IMPLICIT_KEY) once the `:` is found, and flow-mapping
        # keys may span lines.
        keys = self.possible_simple_keys
        if not keys:
            return
        key = keys.get(0)
        if key is None or key.line == self._line:
            return
        self._drop_key(0)
        self._stale_key = key
        if key.required:
            self._key_without_value(key)

    def _key_without_value(self, key: _YamlSimpleKey) -> None:
        """A token sits where a mapping key must be, but no `:` follows.

        The JS library still reads it as a key (and its value as empty) and
        reports "Implicit map keys need to be followed by map values" after
        the key itself.  A KEY token marked for that is inserted; the parser
        records the error when it moves on to the value.
        """
        if self._kind == "seq":
            # A non-entry at a sequence's column: the JS library hands it to
            # the parent mapping as a mis-indented key, or calls it junk
            # after the document's root sequence.
            if self._kinds and self._kinds[-1] == "map":
                self._error("BAD_INDENT", _YAML_MSG_MAP_COLUMN)
            self._error("UNEXPECTED_TOKEN", "Unexpected scalar at node end")
        token: _YamlToken = KeyToken(key.index, key.index)
        token._yaml_missing_value = True
        if key.tab:
            token._yaml_soft = ("TAB_AS_INDENT", _YAML_MSG_TAB_INDENT)
        elif key.line != key.start_line:
            token._yaml_soft = ("MULTILINE_IMPLICIT_KEY", _YAML_MSG_MULTILINE_KEY)
            token._yaml_soft_pos = self._content_start(key.token_number - self.tokens_taken)
        self.tokens.insert(key.token_number - self.tokens_taken, token)

    def _save_possible_simple_key(self) -> None:
        if not self.allow_simple_key:
            return
        required = not self.flow_level and self.indent == self._pos - self._line_start
        self._remove_possible_simple_key()
        level = self.flow_level
        if self._key_min_level is None or level < self._key_min_level:
            self._key_min_level = level
        self.possible_simple_keys[level] = _YamlSimpleKey(
            self.tokens_taken + len(self.tokens),
            required,
            self._pos,
            self._line,
            self._pos - self._line_start,
            self._tab_pending,
            self._inline_at(self._pos),
        )

    def _remove_possible_simple_key(self) -> None:
        key = self._drop_key(self.flow_level)
        if key is not None and key.required:
            # Another token follows the would-be key on its line.
            self._key_without_value(key)

    # -- indentation ---------------------------------------------------------

    def _content_start(self, index: int) -> int:
        """Start of the first non-property token queued from `index`."""
        for token in list(self.tokens)[index:]:
            if not isinstance(token, (AnchorToken, TagToken)):
                return token.start_mark
        return self._pos

    def _flow_key_token(self, index: int) -> bool:
        for token in list(self.tokens)[index:]:
            if not isinstance(token, (AnchorToken, TagToken)):
                return isinstance(token, (FlowSequenceStartToken, FlowMappingStartToken))
        return False

    def _unwind_indent(self, column: int) -> None:
        while self.indent > column:
            depth = len(self.indents)
            self.indent = self.indents.pop()
            self._kind = self._kinds.pop()
            token: _YamlToken = BlockEndToken(self._pos, self._pos)
            if depth in self._impossible:
                self._impossible.discard(depth)
                token._yaml_soft = ("IMPOSSIBLE", "Map comment with trailing content")
            self._add(token, self._pos, self._pos)

    def _add_indent(self, column: int, kind: str) -> bool:
        if self.indent < column:
            self.indents.append(self.indent)
            self._kinds.append(self._kind)
            self.indent = column
            self._kind = kind
            return True
        return False

    def _check_depth(self) -> None:
        if self.flow_level + len(self.indents) > _YAML_MAX_DEPTH:
            self._error("RESOURCE_EXHAUSTION", "Maximum call stack size exceeded")

    # -- whitespace, comments, line starts ------------------------------------

    def _scan_to_next_token(self) -> None:
        s = self._s
        n = self._n
        pos = self._pos
        self._tab_pending = False
        self._tab_at_line_start = False
        crossed = False
        while True:
            if pos == self._line_start and s[pos] == "\ufeff" and not self._in_document and pos < n:
                # A byte-order mark opening a line outside a document is not
                # content (the JS lexer drops it there).
                pos += 1
                self._line_start = pos
                self._begin_line(pos)
            start = pos
            while s[pos] == " " or s[pos] == "\t":
                pos += 1
            if pos > start and "\t" in s[start:pos]:
                self._tab_pending = True
                self._tab_at_line_start = start == self._line_start
            ch = s[pos]
            if ch == "#" and pos < n:
                if pos > self._line_start and s[pos - 1] not in " \t":
                    self._soft_after("MISSING_CHAR", _YAML_MSG_COMMENT_SPACE)
                end = s.find("\n", pos, n)
                pos = n if end < 0 else end
                ch = s[pos]
            if ch == "\n" and pos < n:
                pos += 1
                self._line += 1
                self._line_start = pos
                self._begin_line(pos)
                crossed = True
                continue
            break
        self._pos = pos
        if crossed and self.flow_level:
            self._check_flow_line()

    def _begin_line(self, pos: int) -> None:
        """JS parseLineStart bookkeeping for a fresh line."""
        s = self._s
        self._tab_pending = False
        self._tab_at_line_start = False
        self._after_block_indicator = False
        self._at_block_start = True
        if self.flow_level:
            return
        self.allow_simple_key = True
        indent = 0
        while s[pos + indent] == " ":
            indent += 1
        self._line_indent = indent
        self._indent_value = indent
        first = pos + indent
        # The JS lexer lowers the continuation indent on a less indented
        # line unless its first character is followed by a blank (which also
        # means single-character lines keep the old value; mirrored as is).
        if self._indent_next > indent and not self._empty_at(first + 1):
            self._indent_next = indent

    def _check_flow_line(self) -> None:
        """A new line inside a flow collection must stay indented."""
        s = self._s
        pos = self._pos
        start = self._line_start
        indent = 0
        while s[start + indent] == " ":
            indent += 1
        ch = s[pos] if pos < self._n else ""
        bad = indent < self._indent_next and ch != "#"
        if (
            not bad
            and indent == 0
            and pos == start
            and s[pos:pos + 3] in ("---", "...")
            and self._empty_at(pos + 3)
        ):
            bad = True
        if bad:
            at_end_marker = (
                indent == self._indent_next - 1
                and self.flow_level == 1
                and ch in ("]", "}")
            )
            if not at_end_marker:
                self._unterminated_flow()

    def _unterminated_flow(self) -> None:
        bracket, root = self._flow_stack[-1]
        name = "Flow sequence" if bracket == "[" else "Flow map"
        end = "]" if bracket == "[" else "}"
        if len(self._flow_stack) == 1 and root:
            self._error("MISSING_CHAR", "%s must end with a %s" % (name, end))
        self._error(
            "BAD_INDENT",
            "%s in block collection must be sufficiently indented and end with a %s"
            % (name, end),
        )

    def _check_tab_indent(self, block_collection: bool) -> None:
        """Tabs may separate tokens but never indent a block node.

        JS rules (resolveProps): a tab right before a token that starts a
        block collection is an error; so is a tab at the start of a line
        that is not indented more than the parent collection.
        """
        if not self._tab_pending:
            return
        if block_collection:
            self._soft("TAB_AS_INDENT", _YAML_MSG_TAB_INDENT)
        elif self._tab_at_line_start:
            parent = self.indent if self.indent > 0 else 0
            if self._line_indent <= parent:
                self._soft("TAB_AS_INDENT", _YAML_MSG_TAB_INDENT)

    def _check_tab_before_props(self) -> None:
        # Before an anchor or tag a tab counts as indentation at the start
        # of a line or right after a block `-` / `?`.
        if self._tab_pending and (self._tab_at_line_start or self._after_block_indicator):
            self._soft("TAB_AS_INDENT", _YAML_MSG_TAB_INDENT)

    # -- token dispatch --------------------------------------------------------

    def _fetch_more_tokens(self) -> None:
        self._scan_to_next_token()
        self._stale_possible_simple_keys()
        pos = self._pos
        column = pos - self._line_start
        if not self.flow_level:
            self._unwind_indent(column)
        s = self._s
        n = self._n
        if pos >= n:
            return self._fetch_stream_end()
        ch = s[pos]
        if not self.flow_level and column == self._line_indent and pos != self._line_quirk_pos:
            # First token of an indented line: did the previous line end
            # with a complete value?  (See _fetch_value, JS "empty item".)
            last = self._last_content
            self._line_quirk_pos = pos
            quirk = (
                column > 0
                and isinstance(last, _YAML_NODE_END_TOKENS)
                and not isinstance(self._content_before, KeyToken)
            )
            if quirk and isinstance(last, ScalarToken) and last.style in ("|", ">"):
                # A block scalar swallows its line break, so the JS parser
                # still sees the key's line -- unless the scalar was no
                # mapping value or blank/comment lines followed it.
                quirk = not isinstance(self._content_before, ValueToken) or (
                    "\n" in s[last.end_mark + 1:self._line_start]
                )
            self._line_quirk = quirk
        if column == 0:
            if ch == "%" and not self._in_document:
                return self._fetch_directive()
            if (ch == "-" or ch == ".") and s[pos:pos + 3] in ("---", "...") and self._empty_at(pos + 3):
                if self.flow_level:
                    self._unterminated_flow()
                return self._fetch_document_indicator(ch == "-")
        self._in_document = True
        nxt_empty = self._empty_at(pos + 1)
        if self.flow_level:
            return self._fetch_flow_token(ch, nxt_empty)
        if ch == "-" and nxt_empty:
            return self._fetch_block_entry()
        if ch == "?" and nxt_empty:
            return self._fetch_key()
        if ch == ":" and nxt_empty:
            return self._fetch_value()
        if ch == "[" or ch == "{":
            return self._fetch_flow_collection_start(ch)
        if ch == "]" or ch == "}":
            self._error(
                "UNEXPECTED_TOKEN",
                'Unexpected %s token in YAML stream: "%s"'
                % ("flow-seq-end" if ch == "]" else "flow-map-end", ch),
            )
        return self._fetch_common(ch)

    def _fetch_flow_token(self, ch: str, nxt_empty: bool) -> None:
        s = self._s
        pos = self._pos
        if ch == "[" or ch == "{":
            return self._fetch_flow_collection_start(ch)
        if ch == "]" or ch == "}":
            return self._fetch_flow_collection_end(ch)
        if ch == ",":
            return self._fetch_flow_entry()
        nxt = s[pos + 1]
        indicator_next = nxt_empty or nxt in _YAML_FLOW_CHARS
        if ch == ":" and (indicator_next or self._flow_key):
            if (
                self.flow_level not in self.possible_simple_keys
                and isinstance(self._last_token, _YAML_NODE_END_TOKENS)
                and self._prev_token.__class__ is ValueToken
            ):
                # `{a: b: c}` -- the JS parser builds a block mapping there.
                self._yaml_record(
                    "BLOCK_IN_FLOW",
                    "Block collections are not allowed within flow collections",
                    self._last_start,
                )
                raise _YamlSyntaxError(
                    "BLOCK_IN_FLOW", "Block collections are not allowed within flow collections"
                )
            return self._fetch_value()
        if ch == "?" and indicator_next:
            return self._fetch_key()
        if ch == "-" and indicator_next:
            # The JS parser starts a block sequence here, which is an error
            # inside a flow collection; the rest is read as flow content.
            self._yaml_record(
                "BLOCK_IN_FLOW", "Block collections are not allowed within flow collections", pos
            )
            self._pos = pos + 1
            return
        return self._fetch_common(ch)

    def _fetch_common(self, ch: str) -> None:
        """Tokens that look the same in block and flow context."""
        if ch == "*":
            return self._fetch_alias_or_anchor(AliasToken)
        if ch == "&":
            return self._fetch_alias_or_anchor(AnchorToken)
        if ch == "!":
            return self._fetch_tag()
        if ch == "'" or ch == '"':
            return self._fetch_quoted(ch == '"')
        if (ch == "|" or ch == ">") and not self.flow_level:
            return self._fetch_block_scalar(ch == ">")
        bad = None
        if ch == ",":
            bad = "flow indicator character ,"
        elif ch == "%":
            bad = "directive indicator character %"
        elif ch == "|" or ch == ">":
            bad = "block scalar indicator " + ch
        elif ch == "@" or ch == "`":
            bad = "reserved character " + ch
        if bad is not None:
            self._soft("BAD_SCALAR_START", "Plain value cannot start with " + bad)
        return self._fetch_plain()

    # -- stream / document -----------------------------------------------------

    def _fetch_stream_end(self) -> None:
        if self.flow_level:
            self._unterminated_flow()
        if self._tab_at_line_start and isinstance(self._last_token, (ValueToken, BlockEntryToken)):
            # A final tab-only line is taken as the indentation of the empty
            # node before it.
            self._yaml_record("TAB_AS_INDENT", _YAML_MSG_TAB_INDENT, self._pos)
        self._unwind_indent(-1)
        self._remove_possible_simple_key()
        self.allow_simple_key = False
        self.possible_simple_keys = {}
        self._key_min_level = None
        self._add(StreamEndToken(self._pos, self._pos), self._pos, self._pos)
        self.done = True

    def _fetch_directive(self) -> None:
        s = self._s
        n = self._n
        start = self._pos
        end = s.find("\n", start, n)
        if end < 0:
            end = n
        line = s[start:end]
        # The directive text stops before a comment that follows white space.
        cut = len(line)
        hash_at = line.find("#")
        while hash_at != -1:
            if hash_at > 0 and line[hash_at - 1] in " \t":
                cut = hash_at - 1
                break
            hash_at = line.find("#", hash_at + 1)
        # Split the way the JS Directives class does (trim, then tabs and
        # spaces only).
        parts = re.split(r"[ \t]+", line[:cut].strip(_YAML_JS_TRIM))
        name = parts[0]
        self._remove_possible_simple_key()
        self.allow_simple_key = False
        self._pos = end
        self._add(DirectiveToken(name, parts[1:], start, end), start, end)

    def _fetch_document_indicator(self, is_start: bool) -> None:
        self._unwind_indent(-1)
        self._remove_possible_simple_key()
        self.allow_simple_key = False
        start = self._pos
        self._pos = start + 3
        self._indent_next = 0
        self._indent_value = 0
        self._at_block_start = False
        self._tab_pending = False
        token: _YamlToken
        if is_start:
            self._in_document = True
            token = DocumentStartToken(start, start + 3)
        else:
            self._in_document = False
            token = DocumentEndToken(start, start + 3)
        self._add(token, start, start + 3)

    # -- block indicators ------------------------------------------------------

    def _note_block_indicator(self) -> None:
        """JS indentNext/indentValue updates for `-`, `?` and `:`."""
        if self.flow_level:
            return
        if self._at_block_start:
            self._indent_next = self._indent_value + 1
            s = self._s
            p = self._pos + 1
            while s[p] == " " or s[p] == "\t":
                p += 1
            self._indent_value += p - self._pos
        else:
            self._indent_next = self._indent_value + 1

    def _fetch_block_entry(self) -> None:
        pos = self._pos
        if not self.allow_simple_key or self._inline_at(pos):
            self._misplaced_block_indicator("seq")
        self._check_tab_indent(True)
        self._note_block_indicator()
        if self._add_indent(pos - self._line_start, "seq"):
            self._check_depth()
            self._collections_seen = True
            self._add(BlockSequenceStartToken(pos, pos), pos, pos)
        self.allow_simple_key = True
        self._remove_possible_simple_key()
        self._pos = pos + 1
        self._add(BlockEntryToken(pos, pos + 1), pos, pos + 1)
        self._after_block_indicator = True

    def _misplaced_block_indicator(self, kind: str) -> None:
        """`- x` or `? x` where no block collection may start."""
        last = self._last_token
        on_line = self._last_end >= self._line_start
        if isinstance(last, DocumentStartToken) and on_line:
            self._error(
                "MISSING_CHAR",
                "Block collection cannot start on same line with directives-end marker",
            )
        if kind == "seq" and (
            (isinstance(last, ValueToken) and on_line) or self._inline_at(self._pos)
        ):
            self._error("UNEXPECTED_TOKEN", "Unexpected block-seq-ind on same line with key")
        if isinstance(last, (AnchorToken, TagToken)) and on_line and kind == "seq":
            self._error("MISSING_CHAR", "Missing newline after block sequence props")
        if kind == "map" and self._inline_at(self._pos):
            # `a: ? b` -- a compact mapping as a same-line value.
            raise _YamlSyntaxError(
                "BLOCK_AS_IMPLICIT_KEY", _YAML_MSG_COMPACT_MAP, self._inline_value_pos
            )
        name = "seq-item-ind" if kind == "seq" else "explicit-key-ind"
        self._error("UNEXPECTED_TOKEN", "Unexpected %s at node end" % name)

    def _fetch_key(self) -> None:
        pos = self._pos
        if not self.flow_level:
            if not self.allow_simple_key or self._inline_at(pos):
                self._misplaced_block_indicator("map")
            self._check_tab_indent(True)
            self._explicit_key_column = pos - self._line_start
            self._note_block_indicator()
            if self._add_indent(pos - self._line_start, "map"):
                self._check_depth()
                self._collections_seen = True
                self._add(BlockMappingStartToken(pos, pos), pos, pos)
        self.allow_simple_key = not self.flow_level
        self._remove_possible_simple_key()
        self._pos = pos + 1
        self._add(KeyToken(pos, pos + 1), pos, pos + 1)
        self._after_block_indicator = not self.flow_level

    def _fetch_value(self) -> None:
        pos = self._pos
        level = self.flow_level
        key = self._drop_key(level)
        if key is not None:
            key_token: _YamlToken = KeyToken(key.index, key.index)
            if not level:
                # Reported before the key itself is composed (only the
                # first of these matters).
                if key.tab:
                    key_token._yaml_soft = ("TAB_AS_INDENT", _YAML_MSG_TAB_INDENT)
                elif key.inline:
                    # `: a: b` -- a mapping as a compact value.
                    key_token._yaml_soft = ("BLOCK_AS_IMPLICIT_KEY", _YAML_MSG_COMPACT_MAP)
                    key_token._yaml_soft_pos = self._inline_value_pos
                elif key.start_line != self._line:
                    key_token._yaml_soft = ("MULTILINE_IMPLICIT_KEY", _YAML_MSG_MULTILINE_KEY)
                    # (after any problem with the key's anchor or tag)
                    key_token._yaml_soft_pos = self._content_start(key.token_number - self.tokens_taken)
            self._check_simple_key(key)
            index = key.token_number - self.tokens_taken
            self.tokens.insert(index, key_token)
            if not level:
                if self._add_indent(key.column, "map"):
                    self._check_depth()
                    self._collections_seen = True
                    self.tokens.insert(index, BlockMappingStartToken(key.index, key.index))
                elif (
                    self._line_quirk
                    and key.index == self._line_quirk_pos
                    and self._flow_key_token(index + 1)
                ):
                    # JS parser quirk: a flow collection opening a later,
                    # indented line of a block mapping leaves an empty item
                    # behind, reported when the mapping is complete.
                    self._impossible.add(len(self.indents))
                self._set_inline(pos)
                self._indent_next = self._indent_value + 1
            self.allow_simple_key = False
        else:
            if not level:
                if not self.allow_simple_key:
                    if self._flow_value_as_key():
                        return
                    self._misplaced_value()
                if self._inline_at(pos):
                    # `: : x` -- a compact mapping as the value of `:`.
                    raise _YamlSyntaxError(
                        "BLOCK_AS_IMPLICIT_KEY", _YAML_MSG_COMPACT_MAP, self._inline_value_pos
                    )
                self._check_tab_indent(True)
                if self._deeper_value_indicator(pos):
                    return
                column = pos - self._line_start
                self._note_block_indicator()
                if self._add_indent(column, "map"):
                    self._check_depth()
                    self._collections_seen = True
                    self._add(BlockMappingStartToken(pos, pos), pos, pos)
                if self._explicit_key_column == column:
                    self._explicit_key_column = -1
                else:
                    # `: value` with an implicit (empty) key: what follows on
                    # this line is a compact value, as after `key:`.
                    self._set_inline(pos)
            self.allow_simple_key = not level
            self._remove_possible_simple_key()
        if level:
            self._flow_key = False
        self._at_block_start = False
        self._pos = pos + 1
        self._add(ValueToken(pos, pos + 1), pos, pos + 1)

    def _deeper_value_indicator(self, pos: int) -> bool:
        """A `:` line indented deeper than the mapping it belongs to.

        PyYAML would open a nested mapping; the JS parser instead gives the
        `:` to the current mapping: as the value of a pending explicit key,
        or (after a complete pair) as a new pair with an empty key.
        """
        column = pos - self._line_start
        if (
            column <= self.indent
            or self._kind != "map"
            or pos != self._line_start + self._line_indent
            or isinstance(self._last_token, (ValueToken, BlockMappingStartToken))
            or (
                isinstance(self._last_token, KeyToken)
                and self._explicit_key_column != self.indent
            )
        ):
            return False
        self._note_block_indicator()
        if self._explicit_key_column == self.indent:
            self._explicit_key_column = -1
        else:
            self._add(KeyToken(pos, pos), pos, pos)
            self._set_inline(pos)
        self.allow_simple_key = True
        self._at_block_start = False
        self._pos = pos + 1
        self._add(ValueToken(pos, pos + 1), pos, pos + 1)
        return True

    def _check_simple_key(self, key: _YamlSimpleKey) -> None:
        """JS checks on an implicit key once its `:` is found."""
        pos = self._pos
        if self.flow_level:
            if self._flow_stack[-1][0] == "[":
                # Single-pair mappings inside flow sequences.
                if key.start_line != self._line:
                    self._soft(
                        "MULTILINE_IMPLICIT_KEY",
                        "Implicit keys of flow sequence pairs need to be on a single line",
                    )
                if self._utf16_length(key.index, pos) > 1024:
                    self._soft(
                        "KEY_OVER_1024_CHARS",
                        "The : indicator must be at most 1024 chars after the start of "
                        "an implicit flow sequence key",
                    )
            return
        if self._utf16_length(key.index, pos) > 1024:
            self._soft(
                "KEY_OVER_1024_CHARS",
                "The : indicator must be at most 1024 chars after the start of an "
                "implicit block mapping key",
            )

    def _utf16_length(self, start: int, end: int) -> int:
        # JS measures the 1024-character limit in UTF-16 code units.
        length = end - start
        if length > 512:
            length += sum(1 for c in self._s[start:end] if ord(c) > 0xFFFF)
        return length

    def _flow_value_as_key(self) -> bool:
        """`a: [b]: c` -- the JS parser gives the `:` an empty key.

        After a flow collection that is itself a value on its key's line, the
        JS parser attaches a following `:` to the enclosing block mapping as a
        new pair with an empty (null) key.  Mirrored as is.
        """
        last = self._last_token
        if not isinstance(last, (FlowSequenceEndToken, FlowMappingEndToken)):
            return False
        if self._kind != "map" or self._last_end < self._line_start:
            return False
        if self._indent_value != self.indent:
            # Only when the collection sits at the mapping's own indent.
            return False
        pos = self._pos
        self._add(KeyToken(pos, pos), pos, pos)
        self.allow_simple_key = False
        self._at_block_start = False
        self._set_inline(pos)
        self._pos = pos + 1
        self._add(ValueToken(pos, pos + 1), pos, pos + 1)
        return True

    def _misplaced_value(self) -> None:
        """A block `:` where PyYAML's grammar allows no value indicator."""
        last = self._last_token
        on_line = self._last_end >= self._line_start
        if self._inline_at(self._pos):
            # `key: value: ...` -- a mapping as a compact (same-line) value.
            # The JS library reports it before looking into that value.
            if self._tab_pending:
                self._yaml_record("TAB_AS_INDENT", _YAML_MSG_TAB_INDENT, self._inline_value_pos)
            raise _YamlSyntaxError(
                "BLOCK_AS_IMPLICIT_KEY", _YAML_MSG_COMPACT_MAP, self._inline_value_pos
            )
        stale = self._stale_key
        last_number = self.tokens_taken + len(self.tokens) - 1
        if isinstance(last, _YAML_NODE_END_TOKENS):
            if stale is not None and stale.token_number == last_number and stale.inline:
                self._error("BLOCK_AS_IMPLICIT_KEY", _YAML_MSG_COMPACT_MAP)
            if self._inline_at(self._last_start):
                self._error("BLOCK_AS_IMPLICIT_KEY", _YAML_MSG_COMPACT_MAP)
            if on_line and self._doc_start_on_line():
                self._error(
                    "MISSING_CHAR",
                    "Block collection cannot start on same line with directives-end marker",
                )
            if "\n" in self._s[self._last_start:self._last_end]:
                self._error("MULTILINE_IMPLICIT_KEY", _YAML_MSG_MULTILINE_KEY)
        if isinstance(last, DocumentStartToken) and on_line:
            self._error(
                "MISSING_CHAR",
                "Block collection cannot start on same line with directives-end marker",
            )
        self._error("UNEXPECTED_TOKEN", "Unexpected map-value-ind at node end")

    def _doc_start_on_line(self) -> bool:
        s = self._s
        ls = self._line_start
        return ls + 3 <= self._n and s[ls:ls + 3] == "---" and self._empty_at(ls + 3)

    # -- flow collections -------------------------------------------------------

    def _fetch_flow_collection_start(self, ch: str) -> None:
        pos = self._pos
        if not self.flow_level and self.indent >= 0:
            # (At document level a tab before `[`/`{` is mere white space.)
            self._check_tab_indent(False)
        if self.flow_level and not self.allow_simple_key:
            # `[a {b}]`: the token before cannot be a key any more (a `:`
            # would have to come first); let the parser report the gap.
            self._drop_key(self.flow_level)
        self._save_possible_simple_key()
        root = not self.flow_level and self.indent == -1 and not self._collections_seen
        self._collections_seen = True
        self.flow_level += 1
        self._flow_stack.append((ch, root))
        self._check_depth()
        self.allow_simple_key = True
        self._flow_key = False
        self._at_block_start = False
        self._add_indicator(FlowSequenceStartToken if ch == "[" else FlowMappingStartToken, pos)

    def _add_indicator(self, token_class: type, pos: int) -> None:
        """A one-character indicator token at *pos*; scanning goes on after it."""
        self._pos = pos + 1
        self._add(token_class(pos, pos + 1), pos, pos + 1)

    def _fetch_flow_collection_end(self, ch: str) -> None:
        pos = self._pos
        self._remove_possible_simple_key()
        bracket = self._flow_stack[-1][0]
        if (bracket == "[") != (ch == "]"):
            # `[a}`: the JS library reports the collection as unterminated.
            self._unterminated_flow()
        self._flow_stack.pop()
        self.flow_level -= 1
        self.allow_simple_key = False
        self._flow_key = True
        self._add_indicator(FlowSequenceEndToken if ch == "]" else FlowMappingEndToken, pos)

    def _fetch_flow_entry(self) -> None:
        pos = self._pos
        self.allow_simple_key = True
        self._remove_possible_simple_key()
        self._flow_key = False
        self._pos = pos + 1
        self._add(FlowEntryToken(pos, pos + 1), pos, pos + 1)

    # -- anchors, aliases, tags ---------------------------------------------------

    def _after_props(self, pos: int) -> None:
        """An anchor or tag must be followed by white space (or , ] })."""
        s = self._s
        if pos < self._n and s[pos] not in _YAML_BLANK and (
            not self.flow_level or s[pos] not in ",]}"
        ):
            self._soft("MISSING_CHAR", _YAML_MSG_PROPS_SPACE)

    def _fetch_alias_or_anchor(self, token_class: type) -> None:
        if not self.flow_level:
            if token_class is AnchorToken:
                self._check_tab_before_props()
            else:
                self._check_tab_indent(False)
        self._save_possible_simple_key()
        self.allow_simple_key = False
        self._at_block_start = False
        start = self._pos
        name_run = _YAML_ANCHOR_RE.match(self._s, start + 1, self._n)
        assert name_run is not None  # a starred class matches, if only the empty string
        end = name_run.end()
        name = self._s[start + 1:end]
        if token_class is AnchorToken:
            self._after_props(end)
        # (The JS lexer leaves its flow-key flag alone for these.)
        self._pos = end
        self._add(token_class(name, start, end), start, end)

    def _fetch_tag(self) -> None:
        if not self.flow_level:
            self._check_tab_before_props()
        self._save_possible_simple_key()
        self.allow_simple_key = False
        self._at_block_start = False
        s = self._s
        n = self._n
        start = self._pos
        if s[start + 1] == "<" and start + 1 < n:
            end = start + 2
            while end < n and s[end] not in _YAML_BLANK and s[end] != ">":
                end += 1
            if end < n and s[end] == ">":
                end += 1
        else:
            tag_run = _YAML_TAG_RE.match(s, start + 1, n)
            assert tag_run is not None  # a starred group matches, if only the empty string
            end = tag_run.end()
        self._after_props(end)
        self._pos = end
        # The parser resolves the raw tag text against the %TAG handles.
        self._add(TagToken((None, s[start:end]), start, end), start, end)

    # -- scalars --------------------------------------------------------------

    def _continue_scalar(self, offset: int) -> int:
        """JS continueScalar: may a scalar go on at the line at `offset`?"""
        s = self._s
        if self._indent_next > 0:
            indent = 0
            while s[offset + indent] == " ":
                indent += 1
            p = offset + indent
            if (p < self._n and s[p] == "\n") or indent >= self._indent_next:
                return p
            return -1
        if s[offset:offset + 3] in ("---", "...") and self._empty_at(offset + 3):
            return -1
        return offset

    def _begin_flow_scalar(self) -> None:
        """What every plain or quoted scalar does first: it may be a key."""
        if not self.flow_level:
            self._check_tab_indent(False)
        self._save_possible_simple_key()
        self.allow_simple_key = False
        self._at_block_start = False

    def _fetch_plain(self) -> None:
        self._begin_flow_scalar()
        s = self._s
        n = self._n
        start = self._pos
        in_flow = self.flow_level > 0
        stop_re = _YAML_PLAIN_STOP_FLOW if in_flow else _YAML_PLAIN_STOP_BLOCK
        i = start
        end = start
        while True:
            m = stop_re.search(s, i, n)
            if m is None:
                if n > i:
                    end = n
                break
            j = m.start()
            if j > i:
                end = j
            ch = s[j]
            if ch == ":":
                after = j + 1
                if after >= n or s[after] in _YAML_BLANK or (in_flow and s[after] in _YAML_FLOW_CHARS):
                    break
                i = j + 1
                end = i
                continue
            if ch in _YAML_FLOW_CHARS:
                break
            # A blank: it ends the scalar before a comment or a flow
            # indicator; a line break may continue it.
            if ch == "\r":
                # A lone CR is content for the JS lexer.
                end = j + 1
            nxt = s[j + 1]
            if j + 1 < n and (nxt == "#" or (in_flow and nxt in _YAML_FLOW_CHARS)):
                break
            if ch == "\n":
                cont = self._continue_scalar(j + 1)
                if cont < 0:
                    break
                i = max(j + 1, cont - 1)
                continue
            i = j + 1
        raw = s[start:end]
        value = _yaml_fold_lines(raw) if "\n" in raw else raw
        self._pos = end
        self._advance_lines(start, end)
        if in_flow:
            self._flow_key = False
        self._add(ScalarToken(value, True, start, end), start, end)

    def _fetch_quoted(self, double: bool) -> None:
        self._begin_flow_scalar()
        s = self._s
        n = self._n
        start = self._pos
        quote = s[start]
        end = s.find(quote, start + 1, n)
        if double:
            while end != -1:
                k = 0
                while s[end - 1 - k] == "\\":
                    k += 1
                if k % 2 == 0:
                    break
                end = s.find(quote, end + 1, n)
        else:
            while end != -1 and end + 1 < n and s[end + 1] == "'":
                end = s.find(quote, end + 2, n)
        if end != -1:
            # Every line the quotes span must be indented enough; the first
            # line that is not cuts the scalar at the end of the line before
            # it (its CR excluded), wherever the closing quote was found.
            nl = s.find("\n", start, end)
            while nl != -1:
                cont = self._continue_scalar(nl + 1)
                if cont < 0:
                    break
                nl = s.find("\n", cont, end)
            if nl != -1:
                end = nl - (2 if s[nl - 1] == "\r" else 1)
        else:
            end = n - 1
        raw = s[start:end + 1]
        # As the JS library's composer decides it: the scalar is closed when
        # its text ends with the quote, even a quote of an escaped pair cut
        # off from its partner (`'Core:0001''` before an unindented line).
        closed = len(raw) > 1 and raw[-1] == quote
        inner = raw[1:-1] if len(raw) > 1 else ""
        if double:
            value = _yaml_double_quoted(inner, self._soft, raw[-1] if len(raw) > 1 else "")
        else:
            value = _yaml_fold_lines(inner) if "\n" in inner else inner
            if "''" in value:
                value = value.replace("''", "'")
        if not closed:
            self._soft("MISSING_CHAR", "Missing closing %squote" % quote)
        self._pos = end + 1
        self._advance_lines(start, end + 1)
        if self.flow_level:
            self._flow_key = True
        style = '"' if double else "'"
        self._add(ScalarToken(value, False, start, end + 1, style), start, end + 1)

    def _fetch_block_scalar(self, folded: bool) -> None:
        self._check_tab_indent(False)
        self.allow_simple_key = True
        self._remove_possible_simple_key()
        self._at_block_start = False
        s = self._s
        n = self._n
        start = self._pos
        chomp, explicit, body = self._block_scalar_header(start)
        root = self.indent == -1
        parent_indent = self._indent_next - 1 if self._indent_next > 0 else 0
        nl = self._block_scalar_end(body, chomp, explicit)
        source = s[body:min(nl + 1, n)] if nl >= body else ""
        trim_base = parent_indent + explicit if explicit else parent_indent
        value = _yaml_block_value(source, folded, chomp, explicit, trim_base, root, self._soft)
        after = min(nl + 1, n) if nl >= body else body
        self._pos = after
        self._advance_lines(start, after)
        if after > start and s[after - 1] == "\n":
            self._begin_line(after)
        # The token ends before its last line break, so that "same line"
        # tests against the following token see the break.
        token_end = after - 1 if after > start and s[after - 1] == "\n" else after
        self._add(ScalarToken(value, False, start, token_end, ">" if folded else "|"), start, token_end)

    def _block_scalar_header(self, start: int) -> Tuple[str, int, int]:
        """(chomp, explicit indentation, body offset) of the header at *start*."""
        s = self._s
        n = self._n
        # Header: the indicator characters up to a blank or `#`.
        j = start + 1
        while j < n and s[j] not in " \t\n\r#":
            j += 1
        header = s[start:j]
        chomp = ""
        explicit = 0
        bad = False
        for ch in header[1:]:
            if not chomp and (ch == "-" or ch == "+"):
                chomp = ch
            elif not explicit and ch in "123456789":
                explicit = int(ch)
            else:
                bad = True
        if bad:
            self._soft(
                "UNEXPECTED_TOKEN", "Block scalar header includes extra characters: " + header
            )
        p = j
        while s[p] == " " or s[p] == "\t":
            p += 1
        if p < n and s[p] == "#":
            if p == j:
                self._soft("MISSING_CHAR", _YAML_MSG_COMMENT_SPACE)
            eol = s.find("\n", p, n)
            p = n if eol < 0 else eol
        if p < n and s[p] != "\n":
            # Text after the header is a stray token inside the scalar.
            eol = s.find("\n", p, n)
            eol = n if eol < 0 else eol
            self._soft("UNEXPECTED_TOKEN", "Not a YAML token: " + s[p:eol])
            p = eol
        return chomp, explicit, (p + 1 if p < n else n)

    def _block_scalar_end(self, body: int, chomp: str, explicit: int) -> int:
        """Offset of the scalar's last line break (JS parseBlockScalar)."""
        s = self._s
        n = self._n
        nl = body - 1
        indent = 0
        i = body
        while i < n:
            ch = s[i]
            if ch == " ":
                indent += 1
            elif ch == "\n":
                nl = i
                indent = 0
            else:
                break
            i += 1
        if indent >= self._indent_next:
            if explicit:
                self._indent_next = explicit - 1 + (self._indent_next or 1)
            else:
                self._indent_next = indent
            while True:
                cont = self._continue_scalar(nl + 1)
                if cont < 0:
                    break
                nl = s.find("\n", cont, n)
                if nl < 0:
                    break
            if nl < 0:
                nl = n
        k = nl + 1
        while k < n and s[k] == " ":
            k += 1
        if k < n and s[k] == "\t":
            # Insufficiently indented lines starting with tabs are taken
            # into the scalar so that the indentation error is reported.
            while k < n and s[k] in " \t\n\r":
                k += 1
            return k - 1
        if chomp != "+":
            # Trailing blank lines that are not more indented are left out.
            while True:
                k = nl - 1
                last = k
                while k >= 0 and s[k] == " ":
                    k -= 1
                if k >= body and s[k] == "\n" and k + 1 + indent > last:
                    nl = k
                else:
                    break
        return nl


# ---------------------------------------------------------------------------
# 21. YAML scanner: Scalar text helpers (JS folding and escape rules)
# ---------------------------------------------------------------------------


def _yaml_fold_lines(source: str) -> str:
    """Fold a multi-line plain or single-quoted scalar (JS foldLines)."""
    lines = source.split("\n")
    res = lines[0].rstrip(" \t")
    sep = " "
    for mid in lines[1:-1]:
        text = mid.strip(" \t")
        if text:
            res += sep + text
            sep = " "
        elif sep == "\n":
            res += "\n"
        else:
            sep = "\n"
    return res + sep + lines[-1].lstrip(" \t")


_YAML_ESCAPES = {
    "0": "\0",
    "a": "\x07",
    "b": "\b",
    "e": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
    " ": " ",
    '"': '"',
    "/": "/",
    "\\": "\\",
    "\t": "\t",
}
_YAML_HEX_ESCAPE_LENGTH = {"x": 2, "u": 4, "U": 8}
_YAML_HEX_RE = re.compile(r"[0-9a-fA-F]+\Z")
_YAML_SURROGATE_PAIR_RE = re.compile("[\ud800-\udbff][\udc00-\udfff]")


def _yaml_join_surrogates(text: str) -> str:
    # `\uD83D\uDE00` forms one character in a JS (UTF-16) string; Python
    # strings hold code points, so a pair built from escapes is combined.
    # Lone surrogates stay as they are, as in JS.
    return _YAML_SURROGATE_PAIR_RE.sub(
        lambda m: chr(0x10000 + ((ord(m.group()[0]) - 0xD800) << 10) + (ord(m.group()[1]) - 0xDC00)),
        text,
    )


def _yaml_double_quoted(inner: str, on_error: Callable[[str, str], None], last: str = "") -> str:
    """Decode the text between double quotes (JS doubleQuotedValue).

    *last* is the scalar's final character (its closing quote when closed):
    like the JS decoder, an escape at the very end reads into it.
    """
    if "\\" not in inner and "\n" not in inner:
        return inner
    out = []
    i = 0
    n = len(inner)
    inner += last
    surrogate = False
    while i < n:
        ch = inner[i]
        if ch == "\n":
            # Fold: one break becomes a space, N breaks become N-1 newlines;
            # leading white space of the following lines is dropped.
            breaks = ""
            while i + 1 < n and inner[i + 1] in " \t\n":
                if inner[i + 1] == "\n":
                    breaks += "\n"
                i += 1
            out.append(breaks or " ")
        elif ch == "\\":
            i += 1
            nxt = inner[i] if i < len(inner) else ""
            if nxt in _YAML_ESCAPES and nxt:
                out.append(_YAML_ESCAPES[nxt])
            elif nxt == "\n":
                # An escaped line break joins the lines without a space.
                while i + 1 < n and inner[i + 1] in " \t":
                    i += 1
            elif nxt in _YAML_HEX_ESCAPE_LENGTH and nxt:
                length = _YAML_HEX_ESCAPE_LENGTH[nxt]
                digits = inner[i + 1:i + 1 + length]
                code = int(digits, 16) if len(digits) == length and _YAML_HEX_RE.match(digits) else -1
                if code < 0 or code > 0x10FFFF:
                    on_error("BAD_DQ_ESCAPE", "Invalid escape sequence \\" + nxt + digits)
                    out.append("\\" + nxt + digits)
                    i += length
                    i += 1
                    continue
                if 0xD800 <= code <= 0xDFFF:
                    surrogate = True
                out.append(chr(code))
                i += length
            else:
                on_error("BAD_DQ_ESCAPE", "Invalid escape sequence \\" + nxt)
                out.append("\\" + nxt)
        elif ch == " " or ch == "\t":
            # Trailing white space before a line break is not content.
            j = i
            while j + 1 < n and inner[j + 1] in " \t":
                j += 1
            if j + 1 >= n or inner[j + 1] != "\n":
                out.append(inner[i:j + 1])
            i = j
        else:
            out.append(ch)
        i += 1
    text = "".join(out)
    return _yaml_join_surrogates(text) if surrogate else text


def _yaml_block_value(source: str, folded: bool, chomp: str, explicit: int, trim_base: int, at_root: bool,
                      on_error: Callable[[str, str], None]) -> str:
    """Value of a literal/folded block scalar (JS resolveBlockScalar)."""
    if not source:
        return ""
    # Lines as (indent, content); the indent counts spaces only.
    lines = []
    for raw in source.split("\n"):
        stripped = raw.lstrip(" ")
        indent = len(raw) - len(stripped)
        if stripped.endswith("\r"):
            # JS drops the CR of a CRLF-style line end (even a lone one).
            stripped = stripped[:-1]
        lines.append((indent, stripped))
    # JS splits "a\n" into ["a", ""]: the final piece after the last break
    # is an (empty) line of its own.
    chomp_start = len(lines)
    for i in range(len(lines) - 1, -1, -1):
        if lines[i][1] == "":
            chomp_start = i
        else:
            break
    if chomp_start == 0:
        if chomp == "+" and lines:
            return "\n" * max(1, len(lines) - 1)
        return ""
    trim, content_start = _yaml_block_indent(lines, chomp_start, trim_base, explicit, at_root, on_error)
    for i in range(len(lines) - 1, chomp_start - 1, -1):
        if lines[i][0] > trim:
            chomp_start = i + 1
    parts = []
    for i in range(content_start):
        parts.append(" " * max(lines[i][0] - trim, 0) + "\n")
    _yaml_block_join(parts, lines[content_start:chomp_start], trim, folded, explicit, on_error)
    value = "".join(parts)
    if chomp == "+":
        tail = [("\n" + " " * max(lines[i][0] - trim, 0)) for i in range(chomp_start, len(lines))]
        value += "".join(tail)
        if not value.endswith("\n"):
            value += "\n"
    elif chomp != "-":
        value += "\n"
    return value


def _yaml_block_indent(lines: List[Tuple[int, str]], chomp_start: int, trim_base: int, explicit: int,
                       at_root: bool, on_error: Callable[[str, str], None]) -> Tuple[int, int]:
    """(indentation to trim, index of the first content line) of a block scalar."""
    trim = trim_base
    content_start = 0
    for i in range(chomp_start):
        indent, content = lines[i]
        if content == "":
            if not explicit and indent > trim:
                trim = indent
        else:
            if indent < trim:
                on_error(
                    "MISSING_CHAR",
                    "Block scalars with more-indented leading empty lines must use "
                    "an explicit indentation indicator",
                )
            if not explicit:
                trim = indent
            content_start = i
            if trim == 0 and not at_root:
                on_error("BAD_INDENT", "Block scalar values in collections must be indented")
            break
    return trim, content_start


def _yaml_block_join(parts: List[str], lines: List[Tuple[int, str]], trim: int, folded: bool, explicit: int,
                     on_error: Callable[[str, str], None]) -> None:
    """Append the content *lines* to *parts*, literal or folded."""
    sep = ""
    more_indented = False
    for indent, content in lines:
        if content and indent < trim:
            on_error(
                "BAD_INDENT",
                "Block scalar lines must not be less indented than their "
                + ("explicit indentation indicator" if explicit else "first line"),
            )
            indent = trim
        extra = " " * (indent - trim) if indent > trim else ""
        if not folded:
            parts.append(sep + extra + content)
            sep = "\n"
        elif indent > trim or content[:1] == "\t":
            if sep == " ":
                sep = "\n"
            elif not more_indented and sep == "\n":
                sep = "\n\n"
            parts.append(sep + extra + content)
            sep = "\n"
            more_indented = True
        elif content == "":
            if sep == "\n":
                parts.append("\n")
            else:
                sep = "\n"
        else:
            parts.append(sep + content)
            sep = " "
            more_indented = False


# ---------------------------------------------------------------------------
# 22. YAML parser: Parser (PyYAML's event parser with JS document/property/error rules)
# ---------------------------------------------------------------------------

# JS String.prototype.trim white space (used for directive lines).
_YAML_JS_TRIM = (
    " \t\n\v\f\r\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
    "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_YAML_VERSION_RE = re.compile(r"[0-9]+\.[0-9]+\Z")
_YAML_PERCENT_RUN_RE = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


def _yaml_decode_uri_component(text: str) -> str:
    """JS decodeURIComponent for tag suffixes (strict UTF-8)."""
    if "%" not in text:
        return text

    def decode(match: re.Match[str]) -> str:
        raw = bytes(int(h, 16) for h in match.group()[1:].split("%"))
        return raw.decode("utf-8")

    return _YAML_PERCENT_RUN_RE.sub(decode, text)


if TYPE_CHECKING:  # the type checker sees PyYAML's Parser; _yaml_bind_pyyaml() binds the rest
    from yaml.parser import Parser as _YamlPyParser
    _YamlParserBase = _YamlPyParser
else:
    _YamlParserBase = object  # PyYAML's Parser joins in _yaml_pipeline_class(), when it is imported


class _YamlParser(_YamlParserBase):
    """PyYAML's Parser, adjusted where the JS library decides differently.

    Mixed into the pure-Python pipeline together with _YamlScanner and PyYAML's
    Parser itself (the mixin arrangement PyYAML's own Loader classes use), in
    that order, so that these methods come first; _yaml_pipeline_class()
    builds it when PyYAML is first needed.
    """

    if TYPE_CHECKING:  # the scanner's, which the parser always runs mixed with (_yaml_pipeline_class)
        _s: str
        _n: int
        _pos: int
        _indent_value: int
        _last_start: int
        indent: int
        done: bool
        tokens: collections.deque[_YamlToken]

        def check_token(self, *choices: type) -> bool: ...
        def peek_token(self) -> _YamlToken: ...
        def _fetch_more_tokens(self) -> None: ...

    def __init__(self) -> None:
        _YamlPyParser.__init__(self)
        self.yaml_doc_version = None
        self._yaml_tags = {"!!": "tag:yaml.org,2002:"}
        self._yaml_docs = 0
        self._yaml_explicit_end = False
        self._yaml_last_taken = None
        self._yaml_missing_doc_start = False
        self._yaml_value_missing = False
        # Per open block mapping: did the latest value start on its key's
        # line?  (Decides between two JS error codes.)
        self._yaml_map_inline: List[bool] = []
        # Columns of the open indentless sequences (`key:\n- item`).
        self._yaml_indentless: List[int] = []
        # Continuable errors as (position, sequence, code, message).  The JS
        # library reports problems in the order it composes the document,
        # which is nearly source order; the position given with each error
        # is where the JS composer gets to it.
        self._yaml_errors: List[Tuple[int, int, str, str]] = []

    def _yaml_record(self, code: str, message: str, pos: Optional[int] = None) -> None:
        if pos is None:
            last = self._yaml_last_taken
            pos = last.start_mark if last is not None else self._pos
        self._yaml_errors.append((pos, len(self._yaml_errors), code, message))

    @property
    def _yaml_pending(self) -> Optional[Tuple[str, str, Optional[int]]]:
        """The continuable error the JS library would report first."""
        if not self._yaml_errors:
            return None
        pos, _seq, code, message = min(self._yaml_errors)
        return (code, message, pos)

    # Remember the previous token: several error codes depend on whether the
    # offending token shares a line with it.
    def get_token(self) -> _YamlToken:
        token = _YamlScanner.get_token(self)  # type: ignore[arg-type]  # self: the pipeline, a scanner too
        if token.__class__ is not BlockEndToken:
            # (BLOCK-END tokens carry the position of the next token.)
            self._yaml_last_taken = token
        soft = getattr(token, "_yaml_soft", None)
        if soft is not None:
            self._yaml_record(soft[0], soft[1], getattr(token, "_yaml_soft_pos", token.start_mark))
        if token.__class__ is KeyToken and getattr(token, "_yaml_missing_value", False):
            self._yaml_value_missing = True
        return token

    def _yaml_same_line(self, token: _YamlToken) -> bool:
        last = self._yaml_last_taken
        if last is None:
            return False
        return "\n" not in self._s[last.end_mark:token.start_mark]

    # -- documents -------------------------------------------------------------

    def parse_implicit_document_start(self) -> _YamlEvent:
        if self.check_token(DirectiveToken, DocumentStartToken, StreamEndToken):
            return self.parse_document_start()
        self._yaml_docs = 1
        token = self.peek_token()
        self.states.append(self.parse_document_end)
        # `...` alone: an empty document (the JS lexer opens one there).
        if self.check_token(DocumentEndToken):
            self.state = self.parse_document_content
        else:
            self.state = self.parse_block_node
        return DocumentStartEvent(token.start_mark, token.start_mark, explicit=False)

    def parse_document_start(self) -> _YamlEvent:
        if self._yaml_docs:
            return self._yaml_after_document()
        while self.check_token(DocumentEndToken):
            self.get_token()
        if self.check_token(StreamEndToken):
            token = self.get_token()
            self.state = None
            return StreamEndEvent(token.start_mark, token.end_mark)
        token = self.peek_token()
        self._yaml_process_directives()
        if not self.check_token(DocumentStartToken):
            if self.check_token(StreamEndToken):
                self._yaml_fail("MISSING_CHAR", "Missing directives-end indicator line")
            # Directives, then content without `---`: the document is read
            # anyway and the missing marker is reported after its errors.
            self._yaml_missing_doc_start = True
            self._yaml_docs = 1
            self.states.append(self.parse_document_end)
            self.state = self.parse_block_node
            return DocumentStartEvent(token.start_mark, token.start_mark, explicit=False)
        self._yaml_docs = 1
        end = self.get_token().end_mark
        self.states.append(self.parse_document_end)
        self.state = self.parse_document_content
        return DocumentStartEvent(token.start_mark, end, explicit=True)

    def _yaml_after_document(self) -> _YamlEvent:
        """Anything but the end of input after the first document."""
        try:
            if self.check_token(StreamEndToken):
                token = self.get_token()
                self.state = None
                return StreamEndEvent(token.start_mark, token.end_mark)
            token = self.peek_token()
            if isinstance(token, DirectiveToken):
                # Directives with no document after them are harmless.
                self._yaml_process_directives()
                if self.check_token(StreamEndToken):
                    token = self.get_token()
                    self.state = None
                    return StreamEndEvent(token.start_mark, token.end_mark)
            elif not isinstance(token, (DocumentStartToken, DocumentEndToken)):
                if not self._yaml_explicit_end or self._yaml_same_line(token):
                    # More content after the root node of the document.
                    self._yaml_fail(
                        "UNEXPECTED_TOKEN", "Unexpected %s at node end" % _yaml_token_name(token)
                    )
        except _YamlSyntaxError as error:
            # The JS library reports lexical trouble inside the second
            # document on that document, which is never looked at; what
            # the first document gets is MULTIPLE_DOCS.  Stray-token errors
            # are the exception: they land on the first document.
            if error.code == "UNEXPECTED_TOKEN" or error.code == "RESOURCE_EXHAUSTION":
                raise
        self._yaml_fail(
            "MULTIPLE_DOCS",
            "Source contains multiple documents; please use YAML.parseAllDocuments()",
        )

    def parse_document_end(self) -> _YamlEvent:
        token = self.peek_token()
        if self._yaml_missing_doc_start:
            self._yaml_fail("MISSING_CHAR", "Missing directives-end/doc-start indicator line")
        explicit = False
        if self.check_token(DocumentEndToken):
            token = self.get_token()
            explicit = True
        self._yaml_explicit_end = explicit
        self.state = self.parse_document_start
        return DocumentEndEvent(token.start_mark, token.end_mark, explicit=explicit)

    def _yaml_process_directives(self) -> bool:
        """Apply %YAML/%TAG the way the JS Directives class does."""
        found = False
        while self.check_token(DirectiveToken):
            token = self.get_token()
            found = True
            name = token.name
            parts = token.value
            if name == "%YAML":
                if len(parts) != 1:
                    self._yaml_record(
                        "BAD_DIRECTIVE", "%YAML directive should contain exactly one part"
                    )
                    continue
                version = parts[0]
                if version in ("1.1", "1.2"):
                    self.yaml_doc_version = version
                else:
                    # Other well-formed versions only warn (and change
                    # nothing); malformed ones are errors.
                    if not _YAML_VERSION_RE.match(version):
                        self._yaml_record("BAD_DIRECTIVE", "Unsupported YAML version " + version)
            elif name == "%TAG":
                if len(parts) != 2:
                    self._yaml_record(
                        "BAD_DIRECTIVE", "%TAG directive should contain exactly two parts"
                    )
                    if len(parts) < 2:
                        continue
                self._yaml_tags[parts[0]] = parts[1]
            # Unknown directives only warn.
        return found

    def _yaml_fail(self, code: str, message: str) -> NoReturn:
        pos = self.tokens[0].start_mark if self.tokens else self._pos
        raise _YamlSyntaxError(code, message, None, pos)

    def _yaml_fail_at_item(self, code: str, message: str) -> NoReturn:
        """A structural error at the start of a collection item.

        The JS library checks the item's properties (tabs, anchors, tags)
        before it reports where the item starts, so problems recorded on
        those leading tokens are reported first.
        """
        for token in self.tokens:
            soft = getattr(token, "_yaml_soft", None)
            if not isinstance(token, _YAML_ITEM_START_TOKENS):
                if soft is not None and soft[0] == "TAB_AS_INDENT":
                    self._yaml_record(soft[0], soft[1], token.start_mark)
                break
            if soft is not None:
                self._yaml_record(soft[0], soft[1], token.start_mark)
        self._yaml_fail(code, message)

    # -- nodes -------------------------------------------------------------------

    def _yaml_resolve_tag(self, source: str) -> Optional[str]:
        """JS Directives.tagName: tag text -> tag name (None if unusable)."""
        if source == "!":
            return "!"
        if source[1:2] == "<":
            verbatim = source[2:-1]
            if verbatim in ("!", "!!"):
                self._yaml_record(
                    "TAG_RESOLVE_FAILED",
                    "Verbatim tags aren't resolved, so %s is invalid." % source,
                )
                return None
            if not source.endswith(">"):
                self._yaml_record("TAG_RESOLVE_FAILED", "Verbatim tags must end with a >")
            return verbatim
        cut = source.rfind("!") + 1
        handle = source[:cut]
        suffix = source[cut:]
        if not suffix:
            self._yaml_record("TAG_RESOLVE_FAILED", "The %s tag has no suffix" % source)
        prefix = self._yaml_tags.get(handle)
        if prefix:
            try:
                return prefix + _yaml_decode_uri_component(suffix)
            except UnicodeDecodeError:
                self._yaml_record("TAG_RESOLVE_FAILED", "URIError: URI malformed")
                return None
        if handle == "!":
            return source
        self._yaml_record("TAG_RESOLVE_FAILED", "Could not resolve tag: " + source)
        return None

    def parse_node(self, block: bool = False, indentless_sequence: bool = False) -> _YamlEvent:
        token = self.peek_token()
        if isinstance(token, AliasToken):
            self.get_token()
            if not token.value:
                self._yaml_record("BAD_ALIAS", "Alias cannot be an empty string")
            self.state = self.states.pop()
            return AliasEvent(token.value, token.start_mark, token.end_mark)
        anchor = None
        tag_source = None
        start_mark = end_mark = token.start_mark
        # Properties, checked as they are read (as JS resolveProps does).
        while isinstance(token, (AnchorToken, TagToken)):
            self.get_token()
            end_mark = token.end_mark
            if isinstance(token, AnchorToken):
                if anchor is not None:
                    self._yaml_record("MULTIPLE_ANCHORS", "A node can have at most one anchor")
                anchor = token.value
            else:
                if tag_source is not None:
                    self._yaml_record("MULTIPLE_TAGS", "A node can have at most one tag")
                tag_source = token.value[1]
            token = self.peek_token()
        if isinstance(token, AliasToken):
            if not token.value:
                self._yaml_record("BAD_ALIAS", "Alias cannot be an empty string")
            self._yaml_record("ALIAS_PROPS", "An alias node must not specify any properties")
            self.get_token()
            self.state = self.states.pop()
            return AliasEvent(token.value, start_mark, token.end_mark)
        if isinstance(token, ScalarToken):
            self.get_token()
            # A scalar's own text is checked before its tag is resolved.
            tag = self._yaml_resolve_tag(tag_source) if tag_source is not None else None
            if (token.plain and tag is None) or tag == "!":
                flags = (True, False)
            elif tag is None:
                flags = (False, True)
            else:
                flags = (False, False)
            self.state = self.states.pop()
            return ScalarEvent(
                anchor, tag, flags, token.value, start_mark, token.end_mark, style=token.style
            )
        tag = self._yaml_resolve_tag(tag_source) if tag_source is not None else None
        implicit = tag is None or tag == "!"
        if indentless_sequence and isinstance(token, BlockEntryToken):
            self.state = self.parse_indentless_sequence_entry
            self._yaml_indentless.append(self._yaml_column(token.start_mark))
            return SequenceStartEvent(anchor, tag, implicit, start_mark, token.end_mark)
        if isinstance(token, FlowSequenceStartToken):
            self.state = self.parse_flow_sequence_first_entry
            return SequenceStartEvent(anchor, tag, implicit, start_mark, token.end_mark, flow_style=True)
        if isinstance(token, FlowMappingStartToken):
            self.state = self.parse_flow_mapping_first_key
            return MappingStartEvent(anchor, tag, implicit, start_mark, token.end_mark, flow_style=True)
        if block and isinstance(token, BlockSequenceStartToken):
            self.state = self.parse_block_sequence_first_entry
            return SequenceStartEvent(anchor, tag, implicit, start_mark, token.start_mark, flow_style=False)
        if block and isinstance(token, BlockMappingStartToken):
            self.state = self.parse_block_mapping_first_key
            return MappingStartEvent(anchor, tag, implicit, start_mark, token.start_mark, flow_style=False)
        if anchor is not None or tag_source is not None:
            # Properties on an empty node.
            self.state = self.states.pop()
            return ScalarEvent(anchor, tag, (implicit, False), "", start_mark, end_mark)
        if isinstance(token, FlowEntryToken):
            self._yaml_fail("UNEXPECTED_TOKEN", "Unexpected , in flow collection")
        self._yaml_fail("UNEXPECTED_TOKEN", "Unexpected %s token" % _yaml_token_name(token))

    def _yaml_column(self, offset: int) -> int:
        return offset - (self._s.rfind("\n", 0, offset) + 1)

    def _yaml_junk_after_node(self, token: _YamlToken) -> NoReturn:
        """Stray content after a node on its line.

        If a `:` follows later on the same line, the JS library reads the
        node and the junk as the key of a compact mapping instead; let the
        scanner run over the rest of the line to find out.
        """
        s = self._s
        eol = s.find("\n", token.start_mark, self._n)
        eol = self._n if eol < 0 else eol
        last = self._yaml_last_taken
        if isinstance(last, (FlowSequenceEndToken, FlowMappingEndToken)) and (
            self._indent_value == self.indent
        ):
            # The JS parser ends such a flow collection here and reports
            # the junk on it, whatever follows.
            self._yaml_fail(
                "UNEXPECTED_TOKEN", "Unexpected %s at node end" % _yaml_token_name(token)
            )
        try:
            while not self.done and self._pos <= eol and self._last_start <= eol:
                self._fetch_more_tokens()
        except _YamlSyntaxError as error:
            if error.code == "BLOCK_AS_IMPLICIT_KEY":
                raise
        self._yaml_fail("UNEXPECTED_TOKEN", "Unexpected %s at node end" % _yaml_token_name(token))

    # -- block collections --------------------------------------------------------

    def parse_block_sequence_entry(self) -> _YamlEvent:
        if self.check_token(BlockEntryToken):
            token = self.get_token()
            if not self.check_token(BlockEntryToken, BlockEndToken):
                self.states.append(self.parse_block_sequence_entry)
                return self.parse_block_node()
            self.state = self.parse_block_sequence_entry
            return self.process_empty_scalar(token.end_mark)
        if not self.check_token(BlockEndToken):
            token = self.peek_token()
            if self._yaml_same_line(token):
                self._yaml_junk_after_node(token)
            if self._yaml_column(token.start_mark) > self._yaml_column(self.marks[-1]):
                if isinstance(token, BlockSequenceStartToken):
                    self._yaml_fail_at_item(
                        "BAD_INDENT", "All sequence items must start at the same column"
                    )
                self._yaml_fail_at_item("MISSING_CHAR", "Sequence item without - indicator")
            if self.states and self.states[-1] in (
                self.parse_block_mapping_key,
                self.parse_block_mapping_value,
            ):
                # The JS parser hands the line to the parent mapping, where
                # it is a key at the wrong column.
                self._yaml_fail_at_item("BAD_INDENT", _YAML_MSG_MAP_COLUMN)
            self._yaml_fail(
                "UNEXPECTED_TOKEN", "Unexpected %s at node end" % _yaml_token_name(token)
            )
        return self._yaml_collection_end(SequenceEndEvent)

    def parse_indentless_sequence_entry(self) -> _YamlEvent:
        if not self.check_token(BlockEntryToken):
            token = self.peek_token()
            column = self._yaml_indentless.pop() if self._yaml_indentless else 0
            if (
                not isinstance(token, (KeyToken, ValueToken, BlockEndToken, StreamEndToken))
                and not self._yaml_same_line(token)
                and self._yaml_column(token.start_mark) > column
            ):
                # More indented than the `-` entries, yet no entry: the JS
                # parser takes it as an item missing its indicator.
                self._yaml_fail_at_item("MISSING_CHAR", "Sequence item without - indicator")
            self._yaml_indentless.append(column)
            event = _YamlPyParser.parse_indentless_sequence_entry(self)
            self._yaml_indentless.pop()
            return event
        return _YamlPyParser.parse_indentless_sequence_entry(self)

    def parse_block_mapping_first_key(self) -> _YamlEvent:
        self._yaml_map_inline.append(False)
        return _YamlPyParser.parse_block_mapping_first_key(self)

    def parse_block_mapping_value(self) -> _YamlEvent:
        if self._yaml_value_missing:
            self._yaml_value_missing = False
            last = self._yaml_last_taken
            pos = last.end_mark if last is not None else None
            self._yaml_record("MISSING_CHAR", _YAML_MSG_NEEDS_VALUE, pos)
        if self.check_token(ValueToken):
            token = self.get_token()
            following = self.peek_token()
            has_value = not isinstance(following, (KeyToken, ValueToken, BlockEndToken))
            if self._yaml_map_inline:
                self._yaml_map_inline[-1] = has_value and self._yaml_same_line(following)
            if has_value:
                self.states.append(self.parse_block_mapping_key)
                return self.parse_block_node_or_indentless_sequence()
            self.state = self.parse_block_mapping_key
            return self.process_empty_scalar(token.end_mark)
        # An explicit key without `:`: the pair has no value node at all.
        self.state = self.parse_block_mapping_key
        token = self.peek_token()
        return self._yaml_absent(token.start_mark)

    def _yaml_absent(self, mark: int) -> _YamlEvent:
        event = self.process_empty_scalar(mark)
        event.yaml_absent = True
        return event

    def parse_flow_mapping_empty_value(self) -> _YamlEvent:
        # `{a}`: no value node (JS Pair value null).
        self.state = self.parse_flow_mapping_key
        return self._yaml_absent(self.peek_token().start_mark)

    def parse_flow_mapping_value(self) -> _YamlEvent:
        if self.check_token(ValueToken):
            return _YamlPyParser.parse_flow_mapping_value(self)
        self.state = self.parse_flow_mapping_key
        return self._yaml_absent(self.peek_token().start_mark)

    def parse_flow_sequence_entry_mapping_value(self) -> _YamlEvent:
        if self.check_token(ValueToken):
            return _YamlPyParser.parse_flow_sequence_entry_mapping_value(self)
        self.state = self.parse_flow_sequence_entry_mapping_end
        return self._yaml_absent(self.peek_token().start_mark)

    def _yaml_mapping_key(self, ends: Tuple[type, ...], value_state: Callable[[], _YamlEvent],
                          parse_key: Callable[[], _YamlEvent]) -> _YamlEvent:
        """At a KEY token: the key node (or an empty one before *ends*).  At a
        VALUE token with no key (`: x`, `{: x}`): the JS library's null key."""
        if self.check_token(KeyToken):
            token = self.get_token()
            if not self.check_token(ValueToken, *ends):
                self.states.append(value_state)
                return parse_key()
            self.state = value_state
            return self.process_empty_scalar(token.end_mark)
        self.state = value_state
        return self.process_empty_scalar(self.peek_token().start_mark)

    def parse_block_mapping_key(self) -> _YamlEvent:
        if self.check_token(KeyToken, ValueToken):
            return self._yaml_mapping_key((KeyToken, BlockEndToken), self.parse_block_mapping_value,
                                          self.parse_block_node_or_indentless_sequence)
        if not self.check_token(BlockEndToken):
            token = self.peek_token()
            if isinstance(token, BlockEntryToken):
                # Mirrors how the JS parser attaches the stray `-`: right
                # below a same-line value of a top-level mapping it becomes
                # an error token used as a key, otherwise a sequence key.
                last = self._yaml_last_taken
                gap = self._s[last.end_mark:token.start_mark] if last is not None else ""
                if (
                    self._yaml_map_inline
                    and self._yaml_map_inline[-1]
                    and self._yaml_column(self.marks[-1]) == 0
                    and gap.count("\n") == 1
                ):
                    self._yaml_fail_at_item("MULTILINE_IMPLICIT_KEY", _YAML_MSG_MULTILINE_KEY)
                self._yaml_fail_at_item(
                    "BLOCK_AS_IMPLICIT_KEY", "A block sequence may not be used as an implicit map key"
                )
            if isinstance(token, BlockSequenceStartToken):
                self._yaml_fail_at_item(
                    "BLOCK_AS_IMPLICIT_KEY", "A block sequence may not be used as an implicit map key"
                )
            if (
                isinstance(token, ScalarToken)
                and token.style in ("|", ">")
                and not self._yaml_same_line(token)
                and self._yaml_column(token.start_mark) == self._yaml_column(self.marks[-1])
            ):
                # A block scalar where a key belongs: the JS library makes
                # it an (inevitably multi-line) implicit key.
                self._yaml_fail_at_item("MULTILINE_IMPLICIT_KEY", _YAML_MSG_MULTILINE_KEY)
            if isinstance(token, BlockMappingStartToken) or not self._yaml_same_line(token):
                self._yaml_fail_at_item("BAD_INDENT", _YAML_MSG_MAP_COLUMN)
            self._yaml_junk_after_node(token)
        if self._yaml_map_inline:
            self._yaml_map_inline.pop()
        return self._yaml_collection_end(MappingEndEvent)

    def _yaml_collection_end(self, event_class: type) -> _YamlEvent:
        """Take the end token and return to the enclosing state."""
        token = self.get_token()
        self.state = self.states.pop()
        self.marks.pop()
        return event_class(token.start_mark, token.end_mark)

    def _yaml_flow_separator(self, first: bool, what: str) -> None:
        """The `,` every flow item but the first needs."""
        if first:
            return
        if self.check_token(FlowEntryToken):
            self.get_token()
        else:
            self._yaml_fail("MISSING_CHAR", "Missing , or : between flow %s items" % what)

    # -- flow collections ---------------------------------------------------------

    def parse_flow_sequence_entry(self, first: bool = False) -> _YamlEvent:
        if not self.check_token(FlowSequenceEndToken):
            self._yaml_flow_separator(first, "sequence")
            if self.check_token(KeyToken):
                token = self.peek_token()
                self.state = self.parse_flow_sequence_entry_mapping_key
                return MappingStartEvent(None, None, True, token.start_mark, token.end_mark, flow_style=True)
            if self.check_token(ValueToken):
                # `[: x]` -- a single-pair mapping with an empty key.
                token = self.peek_token()
                self.state = self._yaml_flow_pair_empty_key
                return MappingStartEvent(None, None, True, token.start_mark, token.end_mark, flow_style=True)
            if not self.check_token(FlowSequenceEndToken):
                self.states.append(self.parse_flow_sequence_entry)
                return self.parse_flow_node()
        return self._yaml_collection_end(SequenceEndEvent)

    def _yaml_flow_pair_empty_key(self) -> _YamlEvent:
        self.state = self.parse_flow_sequence_entry_mapping_value
        return self.process_empty_scalar(self.peek_token().start_mark)

    def parse_flow_mapping_key(self, first: bool = False) -> _YamlEvent:
        if not self.check_token(FlowMappingEndToken):
            self._yaml_flow_separator(first, "map")
            if self.check_token(KeyToken, ValueToken):
                return self._yaml_mapping_key((FlowEntryToken, FlowMappingEndToken),
                                              self.parse_flow_mapping_value, self.parse_flow_node)
            if not self.check_token(FlowMappingEndToken):
                self.states.append(self.parse_flow_mapping_empty_value)
                return self.parse_flow_node()
        return self._yaml_collection_end(MappingEndEvent)


def _yaml_token_name(token: _YamlToken) -> str:
    """The JS library's name for a token type, for messages."""
    if isinstance(token, ScalarToken):
        if token.style == '"':
            return "double-quoted-scalar"
        if token.style == "'":
            return "single-quoted-scalar"
        if token.style in ("|", ">"):
            return "block-scalar"
        return "scalar"
    names = {
        AliasToken: "alias",
        AnchorToken: "anchor",
        TagToken: "tag",
        BlockEntryToken: "seq-item-ind",
        KeyToken: "explicit-key-ind",
        ValueToken: "map-value-ind",
        FlowEntryToken: "comma",
        FlowSequenceStartToken: "flow-seq-start",
        FlowSequenceEndToken: "flow-seq-end",
        FlowMappingStartToken: "flow-map-start",
        FlowMappingEndToken: "flow-map-end",
        DocumentStartToken: "doc-start",
        DocumentEndToken: "doc-end",
        DirectiveToken: "directive",
    }
    return names.get(type(token), "token")


# ---------------------------------------------------------------------------
# 22. YAML parser: Node graph
# ---------------------------------------------------------------------------


class _YamlScalar:
    __slots__ = ("value", "style", "source", "tagged", "fmt", "fraction", "anchor")

    def __init__(self, value: _YamlValue, style: Optional[str], source: str, tagged: Optional[str],
                 fmt: Optional[str] = None, fraction: int = 0) -> None:
        self.value = value  # the JS value
        self.style = style  # None (plain), '"', "'", '|', '>'
        self.source = source  # scalar text, kept for key stringification
        self.tagged = tagged  # the explicit tag name, or None
        self.fmt = fmt  # number format: 'HEX', 'OCT', 'EXP' or None
        self.fraction = fraction  # JS minFractionDigits (e.g. 2 for "1.50")
        self.anchor: Optional[str] = None


class _YamlSeq:
    __slots__ = ("items", "flow", "kind", "anchor", "tag")

    def __init__(self, flow: bool) -> None:
        self.items: List[Any] = []  # nodes; (key node, value node) pairs for 'omap' and 'pairs'
        self.flow = flow
        self.kind = "seq"  # 'seq', 'omap' or 'pairs'
        self.anchor: Optional[str] = None
        self.tag: Optional[str] = None


class _YamlMap:
    __slots__ = ("pairs", "flow", "kind", "anchor", "tag")

    def __init__(self, flow: bool) -> None:
        self.pairs: List[Tuple[_YamlNode, _YamlNode]] = []  # (key node, value node or None)
        self.flow = flow
        self.kind = "map"  # 'map' or 'set'
        self.anchor: Optional[str] = None
        self.tag: Optional[str] = None


class _YamlAlias:
    __slots__ = ("name", "target", "anchor")

    def __init__(self, name: str, target: _YamlNode) -> None:
        self.name = name
        self.target = target  # the latest node anchored `name` before it
        self.anchor: Optional[str] = None


# A node of the graph (one of the four classes above), or None for a missing value. The
# composer, converter and writers dispatch on `node.__class__ is ...`, a test mypy does not
# narrow, so to the checker a node is Any; functions that take one kind of node name it.
_YamlNode = Any
# A JS value as the library builds it: None, bool, int or float, str, bytes, list, dict, or a
# _YamlJSObject (arbitrary data by nature).
_YamlValue = Any
# A scalar's resolution: (JS value, number format or None, minFractionDigits); None: a string.
_YamlResolved = Optional[Tuple[_YamlValue, Optional[str], int]]


class _YamlMergeKey:
    """The `<<` key of the YAML 1.1 schema (a JS Symbol: never equal)."""

    __slots__ = ()


_YAML_NO_KEY = object()


# ---------------------------------------------------------------------------
# 22. YAML parser: Scalar resolution: YAML 1.2 core schema and the library's YAML 1.1 schema
# ---------------------------------------------------------------------------

# JS RegExp `$` matches only at the very end, hence \Z throughout.
_YAML_NULL_RE = re.compile(r"(?:~|[Nn]ull|NULL)?\Z")
_YAML_BOOL_RE = re.compile(r"(?:[Tt]rue|TRUE|[Ff]alse|FALSE)\Z")
_YAML_INT_OCT_RE = re.compile(r"0o[0-7]+\Z")
_YAML_INT_RE = re.compile(r"[-+]?[0-9]+\Z")
_YAML_INT_HEX_RE = re.compile(r"0x[0-9a-fA-F]+\Z")
_YAML_FLOAT_NAN_RE = re.compile(r"(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)\Z")
_YAML_FLOAT_EXP_RE = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+\Z")
_YAML_FLOAT_RE = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)\Z")

_YAML11_TRUE_RE = re.compile(r"(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)\Z")
_YAML11_FALSE_RE = re.compile(r"(?:N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)\Z")
_YAML11_INT_BIN_RE = re.compile(r"[-+]?0b[0-1_]+\Z")
_YAML11_INT_OCT_RE = re.compile(r"[-+]?0[0-7_]+\Z")
_YAML11_INT_RE = re.compile(r"[-+]?[0-9][0-9_]*\Z")
_YAML11_INT_HEX_RE = re.compile(r"[-+]?0x[0-9a-fA-F_]+\Z")
_YAML11_FLOAT_EXP_RE = re.compile(r"[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+\Z")
_YAML11_FLOAT_RE = re.compile(r"[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*\Z")
_YAML11_INT_TIME_RE = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\Z")
_YAML11_FLOAT_TIME_RE = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*\Z")
_YAML_TIMESTAMP_RE = re.compile(
    r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})"
    r"(?:(?:t|T|[ \t]+)([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2}(\.[0-9]+)?)"
    r"(?:[ \t]*(Z|[-+][012]?[0-9](?::[0-9]{2})?))?)?\Z"
)
# JS parseFloat: the longest decimal-literal prefix after leading white space.
_YAML_PARSE_FLOAT_RE = re.compile(
    r"[+-]?(?:Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)"
)

_YAML_TAG_PREFIX = "tag:yaml.org,2002:"


def _yaml_number(value: float) -> float:
    """A JS number as Python data: integral finite doubles become int."""
    if value != value or value in (math.inf, -math.inf):
        return value
    if value == 0:
        # Keep JS negative zero distinguishable.
        return value if math.copysign(1.0, value) < 0 else 0
    if value.is_integer():
        return int(value)
    return value


def _yaml_int_to_double(number: int) -> float:
    try:
        return float(number)
    except OverflowError:
        return math.inf if number > 0 else -math.inf


def _yaml_parse_float(text: str) -> float:
    """JS parseFloat (leading white space, longest valid prefix, else NaN)."""
    match = _YAML_PARSE_FLOAT_RE.match(text.lstrip(_YAML_JS_TRIM))
    if not match:
        return math.nan
    literal = match.group()
    if literal.endswith("Infinity"):
        return -math.inf if literal.startswith("-") else math.inf
    return float(literal)


def _yaml_parse_int(digits: str, radix: int) -> float:
    """JS parseInt for a digit string already stripped of sign and prefix."""
    if not digits:
        return math.nan
    if radix == 10:
        return float(digits)
    return _yaml_int_to_double(int(digits, radix))


def _yaml_min_fraction(text: str) -> int:
    # JS float.resolve keeps the written fraction width when it ends in 0.
    dot = text.find(".")
    if dot != -1 and text.endswith("0"):
        return len(text) - dot - 1
    return 0


_YAML_GO_ON = object()  # a resolution step that decided nothing: try the next tag


def _yaml_resolve_null(text: str, tag: Optional[str]) -> Any:  # a _YamlResolved or _YAML_GO_ON
    """The null step of both schemas: the null, None for a `!!null` that is none, else _YAML_GO_ON."""
    if tag is not None and tag != "null":
        return _YAML_GO_ON
    if _YAML_NULL_RE.match(text):
        return (None, None, 0)
    return None if tag else _YAML_GO_ON


def _yaml_special_float(text: str) -> float:
    """The value of a text _YAML_FLOAT_NAN_RE matched: NaN, or an infinity with its sign."""
    if text[-3:].lower() == "nan":
        return math.nan
    return -math.inf if text[0] == "-" else math.inf


def _yaml_resolve_core(text: str, tag: Optional[str] = None) -> _YamlResolved:
    """Core-schema resolution of a plain scalar (or a tagged scalar's text).

    With `tag` None: implicit resolution over all default tags.  With a tag
    name: only that tag's variants are tried (findScalarTagByName).  Returns
    a _YamlScalar-ready tuple (value, fmt, fraction) or None for "string".
    """
    null = _yaml_resolve_null(text, tag)
    if null is not _YAML_GO_ON:
        return null
    if tag is None or tag == "bool":
        if _YAML_BOOL_RE.match(text):
            return (text[0] in "tT", None, 0)
        if tag:
            return None
    if tag is None or tag == "int":
        if _YAML_INT_OCT_RE.match(text):
            return (_yaml_number(_yaml_int_to_double(int(text[2:], 8))), "OCT", 0)
        if _YAML_INT_RE.match(text):
            return (_yaml_number(float(text)), None, 0)
        if _YAML_INT_HEX_RE.match(text):
            return (_yaml_number(_yaml_int_to_double(int(text[2:], 16))), "HEX", 0)
        if tag:
            return None
    if _YAML_FLOAT_NAN_RE.match(text):
        return (_yaml_special_float(text), None, 0)
    if _YAML_FLOAT_EXP_RE.match(text):
        return (_yaml_number(float(text)), "EXP", 0)
    if _YAML_FLOAT_RE.match(text):
        return (_yaml_number(float(text)), None, _yaml_min_fraction(text))
    return None


def _yaml11_int(text: str, offset: int, radix: int) -> float:
    sign = text[0]
    if sign in "+-":
        offset += 1
    value = _yaml_parse_int(text[offset:].replace("_", ""), radix)
    return _yaml_number(-value if sign == "-" else value)


def _yaml11_sexagesimal(text: str) -> float:
    sign = text[0]
    body = text[1:] if sign in "+-" else text
    total = 0.0
    for part in body.replace("_", "").split(":"):
        total = total * 60 + (float(part) if part else 0.0)
    return _yaml_number(-total if sign == "-" else total)


def _yaml_resolve_11(text: str, tag: Optional[str] = None, at_key: bool = False) -> _YamlResolved:
    """The library's YAML 1.1 schema (used under a `%YAML 1.1` directive)."""
    null = _yaml_resolve_null(text, tag)
    if null is not _YAML_GO_ON:
        return null
    if tag is None or tag == "bool":
        if _YAML11_TRUE_RE.match(text):
            return (True, None, 0)
        if _YAML11_FALSE_RE.match(text):
            return (False, None, 0)
        if tag:
            return None
    if tag is None or tag == "int":
        if _YAML11_INT_BIN_RE.match(text):
            return (_yaml11_int(text, 2, 2), "BIN", 0)
        if _YAML11_INT_OCT_RE.match(text):
            return (_yaml11_int(text, 1, 8), "OCT", 0)
        if _YAML11_INT_RE.match(text):
            return (_yaml11_int(text, 0, 10), None, 0)
        if _YAML11_INT_HEX_RE.match(text):
            return (_yaml11_int(text, 2, 16), "HEX", 0)
        if tag:
            if _YAML11_INT_TIME_RE.match(text):
                return (_yaml11_sexagesimal(text), "TIME", 0)
            return None
    if tag is None or tag == "float":
        if _YAML_FLOAT_NAN_RE.match(text):
            return (_yaml_special_float(text), None, 0)
        if _YAML11_FLOAT_EXP_RE.match(text):
            return (_yaml_number(_yaml_parse_float(text.replace("_", ""))), "EXP", 0)
        if _YAML11_FLOAT_RE.match(text):
            return (_yaml_number(_yaml_parse_float(text.replace("_", ""))), None, 0)
        if tag:
            if _YAML11_FLOAT_TIME_RE.match(text):
                return (_yaml11_sexagesimal(text), "TIME", 0)
            return None
    if at_key and text == "<<":
        return (_YamlMergeKey(), None, 0)
    if _YAML11_INT_TIME_RE.match(text):
        return (_yaml11_sexagesimal(text), "TIME", 0)
    if _YAML11_FLOAT_TIME_RE.match(text):
        return (_yaml11_sexagesimal(text), "TIME", 0)
    if _YAML_TIMESTAMP_RE.match(text):
        return (_yaml_timestamp(text), None, 0)
    return None


# Days from 1970-01-01 (proleptic Gregorian) for a zero-based month that may
# overflow into following years, as JS MakeDay normalises it.
def _yaml_days_from_civil(year: int, month0: int, day: int) -> int:
    year += month0 // 12
    month = month0 % 12 + 1
    y = year - (1 if month <= 2 else 0)
    era = y // 400
    yoe = y - era * 400
    mp = (month + 9) % 12
    doy = (153 * mp + 2) // 5
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468 + day - 1


def _yaml_civil_from_days(days: int) -> Tuple[int, int, int]:
    days += 719468
    era = days // 146097
    doe = days - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    year = yoe + era * 400 + (1 if month <= 2 else 0)
    return year, month, day


def _yaml_iso_from_ms(ms: float) -> Optional[str]:
    """JS Date.prototype.toISOString; None when the time value is invalid."""
    if ms != ms or abs(ms) > 8.64e15:
        return None
    ms = int(ms)
    days, rest = divmod(ms, 86400000)
    year, month, day = _yaml_civil_from_days(days)
    hour, rest = divmod(rest, 3600000)
    minute, rest = divmod(rest, 60000)
    second, milli = divmod(rest, 1000)
    if 0 <= year <= 9999:
        year_text = "%04d" % year
    else:
        year_text = ("+" if year > 0 else "-") + "%06d" % abs(year)
    return "%s-%02d-%02dT%02d:%02d:%02d.%03dZ" % (
        year_text, month, day, hour, minute, second, milli,
    )


def _yaml_timestamp(text: str) -> Optional[_YamlDate]:
    """JS timestamp.resolve: a _YamlDate, or None when the text does not match."""
    match = _YAML_TIMESTAMP_RE.match(text)
    if not match:
        return None
    year, month, day = int(match.group(1)), int(match.group(2)), int(match.group(3))
    hour = int(match.group(4) or 0)
    minute = int(match.group(5) or 0)
    second = int(float(match.group(6))) if match.group(6) else 0
    fraction = match.group(7)
    milli = int((fraction + "00")[1:4]) if fraction else 0
    # Date.UTC maps years 0-99 to 1900-1999.
    if 0 <= year <= 99:
        year += 1900
    days = _yaml_days_from_civil(year, month - 1, day)
    ms: float = days * 86400000 + hour * 3600000 + minute * 60000 + second * 1000 + milli
    zone = match.group(8)
    if zone and zone != "Z":
        offset = _yaml11_sexagesimal(zone)
        if abs(offset) < 30:
            offset *= 60
        ms -= 60000 * offset
    return _YamlDate(_yaml_iso_from_ms(ms))


# Node's Buffer.from(text, 'base64'): white space and unknown characters are
# skipped, URL-safe letters accepted, decoding stops at '='.
_YAML_B64_ALPHABET = dict(
    (ch, index)
    for index, ch in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
)
_YAML_B64_ALPHABET["-"] = 62
_YAML_B64_ALPHABET["_"] = 63


def _yaml_base64(text: str) -> bytes:
    out = bytearray()
    acc = 0
    bits = 0
    for ch in text:
        if ch == "=":
            break
        code = _YAML_B64_ALPHABET.get(ch)
        if code is None:
            continue
        acc = (acc << 6) | code
        bits += 6
        if bits >= 8:
            bits -= 8
            out.append((acc >> bits) & 0xFF)
    return bytes(out)


def _yaml_resolve_tagged_scalar(text: str, tag: str, schema11: bool) -> _YamlResolved:
    """findScalarTagByName: (value, fmt, fraction), or None for a string."""
    if tag.startswith(_YAML_TAG_PREFIX):
        name = tag[len(_YAML_TAG_PREFIX):]
        if name == "str":
            return None
        if name in ("null", "bool", "int", "float"):
            if schema11:
                return _yaml_resolve_11(text, name)
            return _yaml_resolve_core(text, name)
        if name == "binary":
            return (_yaml_base64(text), None, 0)
        if name == "timestamp":
            date = _yaml_timestamp(text)
            if date is None:
                raise _YamlSyntaxError(
                    "TAG_RESOLVE_FAILED", "!!timestamp expects a date, starting with yyyy-mm-dd"
                )
            return (date, None, 0)
    # Unknown, local and collection tags leave the text as a string (the
    # JS library only warns).
    return None


# ---------------------------------------------------------------------------
# 23. YAML composer: Composer: events -> node graph
# ---------------------------------------------------------------------------


# First characters of plain scalars that may resolve to something other than
# a string (null, bool, numbers; in YAML 1.1 also yes/on/off, exponent-only
# floats like "e3" and the merge key "<<").
_YAML_CORE_FIRST_CHARS = "~nNtTfF0123456789+-."
_YAML11_FIRST_CHARS = _YAML_CORE_FIRST_CHARS + "yYoOeE<"


def _yaml_scalar_identity(node: _YamlNode) -> Optional[Tuple[Any, ...]]:
    """What JS `===` compares for duplicate-key detection, or None."""
    if node.__class__ is not _YamlScalar:
        return None
    value = node.value
    if value is None:
        return ("null",)
    if value is True or value is False:
        return ("bool", value)
    cls = value.__class__
    if cls is str:
        return ("str", value)
    if cls is int or cls is float:
        if value != value:
            return None  # NaN !== NaN
        return ("num", float(value))
    return None  # Dates, buffers and merge keys are objects


class _YamlComposer:
    """Builds the node graph from PyYAML events, with JS checks."""

    def __init__(self, events: Any, schema11_getter: Callable[[], bool], holder: _YamlParser) -> None:
        # `holder` collects continuable errors (_yaml_record/_yaml_pending).
        self._events = events
        self._schema11_getter = schema11_getter
        self._holder = holder
        self._record = holder._yaml_record
        self.schema11 = False

    def compose(self) -> _YamlNode:
        get_event = self._events.get_event
        event = get_event()  # StreamStart
        event = get_event()
        if event.__class__ is StreamEndEvent:
            return None
        self.schema11 = self._schema11_getter()
        root = self._compose_document(get_event)
        self._raise_pending()
        # Pull the next event so that a second document is reported.
        get_event()
        return root

    def _raise_pending(self) -> None:
        pending = self._holder._yaml_pending
        if pending is not None:
            raise _YamlSyntaxError(pending[0], pending[1])

    def _compose_document(self, get_event: Callable[[], Any]) -> _YamlNode:
        anchors: Dict[str, _YamlNode] = {}
        # Open collections, innermost last.  Frame: [node, its pending key
        # (or _YAML_NO_KEY), identities of its scalar keys so far, its tag,
        # a duplicate found in a flow map awaiting the pair's value].
        stack: List[List[Any]] = []
        root = None
        schema11 = self.schema11
        while True:
            event = get_event()
            cls = event.__class__
            if cls is ScalarEvent:
                if getattr(event, "yaml_absent", False):
                    node: _YamlNode = None  # a pair without a value node
                else:
                    at_key = (
                        bool(stack)
                        and stack[-1][1] is _YAML_NO_KEY
                        and stack[-1][0].__class__ is _YamlMap
                    )
                    node = self._scalar(event, schema11, at_key)
                    if event.anchor is not None:
                        node.anchor = event.anchor
                        anchors[event.anchor] = node
                        if not event.anchor:
                            self._record("BAD_ALIAS", "Anchor cannot be an empty string", event.end_mark)
            elif cls is AliasEvent:
                node = _YamlAlias(event.anchor, anchors.get(event.anchor))
            elif cls is SequenceStartEvent or cls is MappingStartEvent:
                if len(stack) >= _YAML_MAX_DEPTH:
                    raise _YamlSyntaxError("RESOURCE_EXHAUSTION", "Maximum call stack size exceeded")
                flow = bool(event.flow_style)
                node = _YamlSeq(flow) if cls is SequenceStartEvent else _YamlMap(flow)
                if event.anchor is not None:
                    # Registered before the children: an alias inside the
                    # collection refers to it (a circular structure).
                    node.anchor = event.anchor
                    anchors[event.anchor] = node
                stack.append([node, _YAML_NO_KEY, None, event.tag, None])
                continue
            elif cls is SequenceEndEvent or cls is MappingEndEvent:
                frame = stack.pop()
                node = frame[0]
                if frame[3] is not None:
                    node.tag = frame[3]
                    self._apply_collection_tag(node, frame[3], event.end_mark)
                if node.anchor == "":
                    self._record("BAD_ALIAS", "Anchor cannot be an empty string", event.end_mark)
            elif cls is DocumentEndEvent:
                return root
            else:
                raise _YamlSyntaxError("UNEXPECTED_TOKEN", "Unexpected event")
            # Attach the finished node to its parent.
            if not stack:
                root = node
                continue
            frame = stack[-1]
            parent = frame[0]
            if parent.__class__ is _YamlSeq:
                parent.items.append(node)
            elif frame[1] is _YAML_NO_KEY:
                identity = _yaml_scalar_identity(node)
                if identity is not None:
                    seen = frame[2]
                    if seen is None:
                        seen = frame[2] = set()
                    if identity in seen:
                        if parent.flow:
                            # Flow maps check keys once the pair is complete.
                            frame[4] = True
                        else:
                            self._record("DUPLICATE_KEY", "Map keys must be unique", event.start_mark)
                    seen.add(identity)
                frame[1] = node
            else:
                parent.pairs.append((frame[1], node))
                frame[1] = _YAML_NO_KEY
                if frame[4] is not None:
                    self._record("DUPLICATE_KEY", "Map keys must be unique", event.end_mark)
                    frame[4] = None

    def _scalar(self, event: ScalarEvent, schema11: bool, at_key: bool) -> _YamlScalar:
        text = event.value
        tag = event.tag
        style = event.style or None
        if tag is None:
            if style is None:
                # Fast path: most plain scalars cannot be anything but text.
                first = text[:1]
                if first and first not in (_YAML11_FIRST_CHARS if schema11 else _YAML_CORE_FIRST_CHARS):
                    return _YamlScalar(text, None, text, None)
                if schema11:
                    resolved = _yaml_resolve_11(text, None, at_key)
                else:
                    resolved = _yaml_resolve_core(text)
                if resolved is not None:
                    return _YamlScalar(resolved[0], None, text, None, resolved[1], resolved[2])
            return _YamlScalar(text, style, text, None)
        if tag == "!":
            return _YamlScalar(text, style, text, tag)
        try:
            resolved = _yaml_resolve_tagged_scalar(text, tag, schema11)
        except _YamlSyntaxError as error:
            self._record(error.code, error.message, event.end_mark)
            resolved = None
        if resolved is None:
            return _YamlScalar(text, style, text, tag)
        return _YamlScalar(resolved[0], style, text, tag, resolved[1], resolved[2])

    def _apply_collection_tag(self, node: _YamlNode, tag: str, pos: int) -> None:
        """composeCollection: known collection tags on maps and sequences."""
        if tag == "!":
            return
        if node.__class__ is _YamlMap:
            if tag == _YAML_TAG_PREFIX + "set":
                for _key, value in node.pairs:
                    if value is not None and not (
                        value.__class__ is _YamlScalar and value.value is None and not value.tagged
                    ):
                        self._record("TAG_RESOLVE_FAILED", "Set items must all have null values", pos)
                        return
                node.kind = "set"
            return
        if tag in (_YAML_TAG_PREFIX + "omap", _YAML_TAG_PREFIX + "pairs"):
            pairs = []
            for item in node.items:
                if item.__class__ is _YamlMap:
                    if len(item.pairs) > 1:
                        self._record(
                            "TAG_RESOLVE_FAILED", "Each pair must have its own sequence indicator", pos
                        )
                    if item.pairs:
                        pairs.append(item.pairs[0])
                    else:
                        pairs.append((_YamlScalar(None, None, "", None), None))
                else:
                    pairs.append((item, None))
            if tag.endswith("omap"):
                seen = set()
                for key, _value in pairs:
                    if key.__class__ is _YamlScalar:
                        marker = _yaml_map_key_marker(key.value)
                        if marker in seen:
                            self._record(
                                "TAG_RESOLVE_FAILED",
                                "Ordered maps must not include duplicate keys: %s"
                                % _yaml_js_string(key.value),
                                pos,
                            )
                        else:
                            seen.add(marker)
                node.kind = "omap"
            else:
                node.kind = "pairs"
            node.items = pairs


# ---------------------------------------------------------------------------
# 23. YAML composer: JS value conversion (Document.toJS)
# ---------------------------------------------------------------------------


def _yaml_js_string(value: _YamlValue) -> str:
    """JS String(value) for the primitives a scalar can hold."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return JS.number_text(value)
    if isinstance(value, str):
        return value
    return str(value)


_YAML_INDEX_KEY_RE = re.compile(r"(?:0|[1-9][0-9]{0,9})\Z")


def _yaml_is_index_key(key: str) -> bool:
    # Canonical array-index strings come first in JS own-key order.
    return (
        key[:1] in "0123456789"
        and key != ""
        and _YAML_INDEX_KEY_RE.match(key) is not None
        and int(key) <= 4294967294
    )


def _yaml_js_order(obj: Dict[str, _YamlValue]) -> None:
    """Reorder a dict in place into JS own-key order."""
    keys = [k for k in obj if _yaml_is_index_key(k)]
    if not keys:
        return
    items = list(obj.items())
    obj.clear()
    for key in sorted(keys, key=int):
        obj[key] = None
    for key, value in items:
        obj[key] = value


class _YamlAnchorData:
    __slots__ = ("alias_count", "count", "res", "done")

    def __init__(self) -> None:
        self.alias_count = 0
        self.count = 1
        self.res: _YamlValue = None
        self.done = False


class _YamlToJS:
    """Document.toJS: node graph -> Python data with JS semantics.

    Iterative (an explicit stack of frames, one per open collection), so
    nesting as deep as the composer allows cannot exhaust Python's stack.
    """

    def __init__(self, schema11: bool = False) -> None:
        self._anchors: Dict[int, _YamlAnchorData] = {}  # id(node) -> _YamlAnchorData
        self._schema11 = schema11

    # -- scalars and aliases (no children) ----------------------------------

    def _leaf(self, node: _YamlNode) -> _YamlValue:
        """The JS value of a scalar or alias node."""
        if node.__class__ is _YamlScalar:
            if node.anchor is not None:
                data = _YamlAnchorData()
                data.res = node.value
                data.done = True
                self._anchors[id(node)] = data
            return node.value
        return self._alias(node)

    def _begin(self, node: _YamlNode) -> List[Any]:
        """Create the container for a collection node (before its children,
        so that aliases inside it can refer to it) and return its frame."""
        result: _YamlValue
        if node.__class__ is _YamlSeq:
            kind = node.kind
            if kind == "seq":
                result = []
            elif kind == "pairs":
                result = []
            else:
                result = _YamlOrderedMap()
            items = node.items
        else:
            if node.kind == "set":
                kind = "set"
                result = _YamlSet()
            else:
                kind = "map"
                result = {}
            items = node.pairs
        if node.anchor is not None:
            data = _YamlAnchorData()
            data.res = result
            data.done = True
            self._anchors[id(node)] = data
        # frame: [kind, result, items, index, phase, key node, JS key, seen]
        return [kind, result, items, 0, 0, None, None, None]

    def convert(self, node: _YamlNode) -> _YamlValue:
        if node is None:
            return None
        cls = node.__class__
        if cls is _YamlScalar or cls is _YamlAlias:
            return self._leaf(node)
        stack = [self._begin(node)]
        # `incoming` carries a finished child's value to the frame on top.
        incoming = _YAML_NO_KEY
        while True:
            frame = stack[-1]
            child = self._step(frame, incoming)
            incoming = _YAML_NO_KEY
            if child is _YAML_NO_KEY:
                # Frame complete.
                stack.pop()
                result = frame[1]
                if frame[0] == "map":
                    _yaml_js_order(result)
                if not stack:
                    return result
                incoming = result
                continue
            if child is None:
                incoming = None
                continue
            cls = child.__class__
            if cls is _YamlScalar or cls is _YamlAlias:
                incoming = self._leaf(child)
            else:
                stack.append(self._begin(child))

    def _step(self, frame: List[Any], incoming: _YamlValue) -> _YamlNode:
        """Feed a finished child value to a frame; return the next child
        node to convert, None for a missing value, or _YAML_NO_KEY when the
        frame is complete."""
        kind, result, items, index, phase = frame[0], frame[1], frame[2], frame[3], frame[4]
        if kind == "seq":
            if incoming is not _YAML_NO_KEY:
                result.append(incoming)
            if index < len(items):
                frame[3] = index + 1
                return items[index]
            return _YAML_NO_KEY
        if kind == "set":
            if incoming is not _YAML_NO_KEY:
                marker = _yaml_map_key_marker(incoming)
                seen = frame[7]
                if seen is None:
                    seen = frame[7] = set()
                if marker not in seen:
                    seen.add(marker)
                    result.items.append(incoming)
            if index < len(items):
                frame[3] = index + 1
                return items[index][0]
            return _YAML_NO_KEY
        # Key/value collections (map, omap, pairs).  Phase 0: hand out the
        # next key; phase 1: the key's value arrived, hand out the pair's
        # value; phase 2: the value arrived, store the pair.
        if phase == 1:
            frame[6] = incoming
            frame[4] = 2
            return items[index][1]
        if phase == 2:
            self._store(kind, result, frame[5], frame[6], incoming, frame)
            index += 1
            frame[3] = index
            frame[5] = frame[6] = None
        while index < len(items):
            key = items[index][0]
            if kind == "map" and key.__class__ is _YamlScalar and key.value.__class__ is _YamlMergeKey:
                # YAML 1.1 `<<` merges instead of adding a pair.
                self._merge(result, items[index][1])
                index += 1
                frame[3] = index
                continue
            frame[4] = 1
            frame[5] = key
            return key
        return _YAML_NO_KEY

    def _store(self, kind: str, result: Any, key_node: _YamlNode, js_key: _YamlValue, js_value: _YamlValue,
               frame: List[Any]) -> None:
        if kind == "map":
            result[self._string_key(key_node, js_key)] = js_value
        elif kind == "pairs":
            single = {self._string_key(key_node, js_key): js_value}
            _yaml_js_order(single)
            result.append(single)
        else:  # omap -> JS Map
            marker = _yaml_map_key_marker(js_key)
            seen = frame[7]
            if seen is None:
                seen = frame[7] = set()
            if marker in seen:
                raise _YamlToJSError("Error", "Ordered maps must not include duplicate keys")
            seen.add(marker)
            result.entries.append((js_key, js_value))

    def _string_key(self, key_node: _YamlNode, js_key: _YamlValue) -> str:
        """addPairToJSMap's stringifyKey: the property name for a key."""
        cls = js_key.__class__
        if js_key is None:
            return ""
        if cls is str:
            return js_key
        if js_key is True:
            return "true"
        if js_key is False:
            return "false"
        if cls is int or cls is float:
            return JS.number_text(js_key)
        return _yaml_stringify_key(key_node, self._schema11)

    def _alias(self, node: _YamlAlias) -> _YamlValue:
        target = node.target
        if target is None:
            raise _YamlToJSError(
                "ReferenceError",
                "Unresolved alias (the anchor must be set before the alias): " + node.name,
            )
        data = self._anchors.get(id(target))
        if data is None:
            self.convert(target)
            data = self._anchors.get(id(target))
        if data is None or not data.done:
            raise _YamlToJSError("ReferenceError", "This should not happen: Alias anchor was not resolved?")
        data.count += 1
        if data.alias_count == 0:
            data.alias_count = self._alias_count(target)
        if data.count * data.alias_count > _YAML_MAX_ALIAS_COUNT:
            raise _YamlToJSError(
                "ReferenceError", "Excessive alias count indicates a resource exhaustion attack"
            )
        return data.res

    def _alias_count(self, node: _YamlNode) -> int:
        """getAliasCount: the largest expansion factor inside `node`."""
        best = 0
        stack = [node]
        anchors = self._anchors
        while stack:
            item = stack.pop()
            cls = item.__class__
            if item is None or cls is _YamlScalar:
                best = max(best, 1)  # (JS: a missing value counts as 1)
            elif cls is _YamlAlias:
                data = anchors.get(id(item.target)) if item.target is not None else None
                if data is not None:
                    best = max(best, data.count * data.alias_count)
            elif cls is _YamlSeq:
                if item.kind == "seq":
                    stack.extend(item.items)
                else:
                    for key, value in item.items:
                        stack.append(key)
                        stack.append(value)
            else:
                for key, value in item.pairs:
                    stack.append(key)
                    stack.append(value)
        return best

    def _merge(self, result: Dict[str, _YamlValue], value: _YamlNode) -> None:
        """YAML 1.1 `<<`: copy keys of the source map(s) that are missing."""
        source = value.target if value.__class__ is _YamlAlias else value
        if source is None:
            raise _YamlToJSError("Error", "Merge sources must be maps or map aliases")
        if source.__class__ is _YamlSeq and source.kind == "seq":
            for item in source.items:
                self._merge_one(result, item)
        else:
            self._merge_one(result, source)

    def _merge_one(self, result: Dict[str, _YamlValue], item: _YamlNode) -> None:
        source = item.target if item.__class__ is _YamlAlias else item
        if source.__class__ is not _YamlMap:
            raise _YamlToJSError("Error", "Merge sources must be maps or map aliases")
        for key, value in self._map_entries(source):
            prop = _yaml_js_property_key(key)
            if prop not in result:
                result[prop] = value

    def _map_entries(self, node: _YamlMap) -> List[Tuple[_YamlValue, _YamlValue]]:
        """YAMLMap.toJSON(_, ctx, Map): entries with unconverted JS keys."""
        entries: List[Tuple[_YamlValue, _YamlValue]] = []
        index: Dict[Any, int] = {}
        for key, value in node.pairs:
            if key.__class__ is _YamlScalar and key.value.__class__ is _YamlMergeKey:
                merged: Dict[str, _YamlValue] = {}
                self._merge(merged, value)
                for k, v in merged.items():
                    if k not in index:
                        index[k] = len(entries)
                        entries.append((k, v))
                continue
            js_key = self.convert(key)
            js_value = self.convert(value)
            marker = _yaml_map_key_marker(js_key)
            if marker in index:
                entries[index[marker]] = (js_key, js_value)
            else:
                index[marker] = len(entries)
                entries.append((js_key, js_value))
        return entries


def _yaml_js_property_key(value: _YamlValue) -> str:
    """JS ToPropertyKey for a merged key (merges copy JS Map keys)."""
    if isinstance(value, list):
        # Array.prototype.toString
        return ",".join("" if item is None else _yaml_js_property_key(item) for item in value)
    if isinstance(value, dict):
        return "[object Object]"
    if isinstance(value, _YamlOrderedMap):
        return "[object Map]"
    if isinstance(value, _YamlSet):
        return "[object Set]"
    if isinstance(value, _YamlDate):
        return value.iso or "Invalid Date"
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return _yaml_js_string(value)


def _yaml_map_key_marker(value: _YamlValue) -> Tuple[Any, ...]:
    if value is None or isinstance(value, (str, bool)):
        return (type(value).__name__, value)
    if isinstance(value, (int, float)):
        return ("nan",) if value != value else ("num", float(value))
    return ("id", id(value))


# -- key stringification --------------------------------------------------
#
# A JS object key must be a string, so the JS library stringifies collection
# keys (and alias keys whose value is a collection) as flow-style YAML.  The
# functions below follow its stringifier for the cases frontmatter can hold:
# node properties, flow collections (broken over lines beyond 80 columns),
# explicit `? ` keys, and the plain/quoted choice for strings.  Comments on
# key nodes are not reproduced.

_YAML_LINE_WIDTH = 80
_YAML_PLAIN_FORBIDDEN_RE = re.compile(
    r"^[\n\t ,\[\]{}#&*!|>'\"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$"
)
_YAML_FLOW_INDICATOR_RE = re.compile(r"[\[\]{},]")
_YAML_FORCE_DOUBLE_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_YAML_DOC_MARKER_RE = re.compile(r"(?:^|\n)(?:---|\.\.\.)(?:[\n\t ]|$)")


def _yaml_stringify_key(node: _YamlNode, schema11: bool = False) -> str:
    return _yaml_stringify(node, "", False, schema11)


def _yaml_tag_string(tag: str) -> str:
    """Directives.tagString with the default handles."""
    if tag.startswith(_YAML_TAG_PREFIX):
        suffix = tag[len(_YAML_TAG_PREFIX):]
        for ch, esc in (("!", "%21"), (",", "%2C"), ("[", "%5B"), ("]", "%5D"), ("{", "%7B"), ("}", "%7D")):
            suffix = suffix.replace(ch, esc)
        return "!!" + suffix
    return tag if tag.startswith("!") else "!<%s>" % tag


def _yaml_props(node: _YamlNode) -> str:
    props = []
    if node.anchor:
        props.append("&" + node.anchor)
    tag = getattr(node, "tagged", None) if node.__class__ is _YamlScalar else node.tag
    if tag:
        props.append(_yaml_tag_string(tag))
    return " ".join(props)


def _yaml_stringify(node: _YamlNode, indent: str, implicit_key: bool, schema11: bool) -> str:
    """stringify(): properties plus content, in flow context."""
    if node is None:
        return ""
    if node.__class__ is _YamlAlias:
        return "*" + node.name
    if node.__class__ is _YamlScalar:
        text = _yaml_stringify_scalar(node, implicit_key, schema11)
    else:
        text = _yaml_stringify_flow(node, indent, schema11)
    props = _yaml_props(node)
    if not props:
        return text
    if node.__class__ is _YamlScalar or text[:1] in ("{", "["):
        return props + " " + text
    return props + "\n" + indent + text


def _yaml_stringify_flow(node: _YamlNode, indent: str, schema11: bool) -> str:
    step = "  "
    item_indent = indent + step
    lines = []
    if node.__class__ is _YamlSeq and node.kind == "seq":
        start, end = "[", "]"
        for item in node.items:
            lines.append(_yaml_stringify(item, item_indent, False, schema11))
    else:
        if node.__class__ is _YamlSeq:
            start, end = "[", "]"
            pairs = node.items
            all_null = False
        else:
            start, end = "{", "}"
            pairs = node.pairs
            all_null = node.kind == "set" or all(v is None for _k, v in pairs)
        for key, value in pairs:
            lines.append(_yaml_stringify_pair(key, value, item_indent, all_null, schema11))
    if not lines:
        return start + end
    req_newline = any("\n" in line for line in lines)
    lines = [line + "," for line in lines[:-1]] + [lines[-1]]
    if not req_newline:
        width = sum(len(line) + 2 for line in lines) + 2
        req_newline = width > _YAML_LINE_WIDTH
    if req_newline:
        out = start
        for line in lines:
            out += ("\n" + step + indent + line) if line else "\n"
        return out + "\n" + indent + end
    return start + " " + " ".join(lines) + " " + end


def _yaml_stringify_pair(key: _YamlNode, value: _YamlNode, indent: str, all_null: bool,
                         schema11: bool) -> str:
    explicit = key is None or key.__class__ in (_YamlSeq, _YamlMap) or (
        key.__class__ is _YamlScalar and key.style in ("|", ">")
    )
    text = _yaml_stringify(key, indent + "  ", not explicit and not all_null, schema11)
    if all_null or value is None:
        if text == "":
            return "?"
        return "? " + text if explicit else text
    text = ("? %s\n%s:" % (text, indent)) if explicit else text + ":"
    value_text = _yaml_stringify(value, indent + "  ", False, schema11)
    sep = " "
    if not explicit and value.__class__ in (_YamlSeq, _YamlMap):
        if "\n" in value_text:
            sep = "\n" + indent + "  "
    elif value_text == "" or value_text[:1] == "\n":
        sep = ""
    return text + sep + value_text


def _yaml_stringify_scalar(node: _YamlScalar, implicit_key: bool, schema11: bool) -> str:
    value = node.value
    if value is None:
        return node.source if _YAML_NULL_RE.match(node.source) else "null"
    if value is True or value is False:
        if node.source and _YAML_BOOL_RE.match(node.source) and (node.source[0] in "tT") == value:
            return node.source
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return _yaml_flow_number(node)
    if not isinstance(value, str):
        return node.source
    style = node.style
    if style != '"' and _YAML_FORCE_DOUBLE_RE.search(value):
        style = '"'
    if style == '"':
        return _yaml_double_quoted_string(value)
    if style == "'":
        return _yaml_single_quoted_string(value, implicit_key)
    if style in ("|", ">"):
        return _yaml_quoted_string(value, implicit_key)
    return _yaml_plain_string(value, implicit_key, schema11)


def _yaml_plain_string(value: str, implicit_key: bool, schema11: bool) -> str:
    if (implicit_key and "\n" in value) or _YAML_FLOW_INDICATOR_RE.search(value):
        return _yaml_quoted_string(value, implicit_key)
    if not value or _YAML_PLAIN_FORBIDDEN_RE.search(value):
        return _yaml_quoted_string(value, implicit_key)
    if implicit_key and _YAML_DOC_MARKER_RE.search(value):
        return _yaml_quoted_string(value, implicit_key)
    # A plain string that would read back as another type gets quotes.
    resolve = _yaml_resolve_11 if schema11 else _yaml_resolve_core
    if resolve(value) is not None:
        return _yaml_quoted_string(value, implicit_key)
    return value


def _yaml_quoted_string(value: str, implicit_key: bool) -> str:
    if '"' in value and "'" not in value:
        return _yaml_single_quoted_string(value, implicit_key)
    return _yaml_double_quoted_string(value)


def _yaml_single_quoted_string(value: str, implicit_key: bool) -> str:
    if (implicit_key and "\n" in value) or re.search(r"[ \t]\n|\n[ \t]", value):
        return _yaml_double_quoted_string(value)
    return "'" + value.replace("'", "''").replace("\n", "\n\n") + "'"


# JSON.stringify's escapes, then the JS library's YAML spellings for some.
_YAML_DQ_ESCAPES = {
    '"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
    "\t": "\\t", "\0": "\\0", "\x07": "\\a", "\x0b": "\\v", "\x1b": "\\e",
}


def _yaml_double_quoted_string(value: str) -> str:
    out = ['"']
    for index, ch in enumerate(value):
        esc = _YAML_DQ_ESCAPES.get(ch)
        if esc is not None:
            out.append(esc)
        elif ch == " " and value[index + 1:index + 2] == "\n":
            # A space before a line break is escaped so it survives folding.
            out.append("\\ ")
        elif ord(ch) < 0x20:
            out.append("\\x%02x" % ord(ch))
        elif 0xD800 <= ord(ch) <= 0xDFFF:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _yaml_flow_number(node: _YamlScalar) -> str:
    value = node.value
    if value != value:
        return ".nan"
    if value in (math.inf, -math.inf):
        return ".inf" if value > 0 else "-.inf"
    fmt = node.fmt
    if fmt == "HEX" and isinstance(value, int) and value >= 0:
        return "0x%x" % value
    if fmt == "OCT" and isinstance(value, int) and value >= 0:
        return "0o%o" % value
    if fmt == "EXP":
        return _yaml_js_exponential(float(value))
    text = "-0" if (value == 0 and math.copysign(1.0, value) < 0) else JS.number_text(value)
    if node.fraction and "e" not in text:
        dot = text.find(".")
        if dot < 0:
            dot = len(text)
            text += "."
        text += "0" * (node.fraction - (len(text) - dot - 1))
    return text


def _yaml_js_exponential(value: float) -> str:
    """JS Number.prototype.toExponential() with no argument."""
    if value == 0:
        return "0e+0"
    sign = "-" if value < 0 else ""
    text = repr(abs(value))
    mantissa, _, exponent = text.partition("e")
    whole, _, frac = mantissa.partition(".")
    if frac == "0":
        frac = ""
    digits = whole + frac
    exp = int(exponent or 0) + len(whole) - 1
    stripped = digits.lstrip("0")
    exp -= len(digits) - len(stripped)
    digits = stripped.rstrip("0") or "0"
    mant = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return "%s%se%s%d" % (sign, mant, "+" if exp >= 0 else "-", abs(exp))


# ---------------------------------------------------------------------------
# 24. YAML writer: stringify (Document -> text, yaml 2.9.0 with lineWidth 0)
# ---------------------------------------------------------------------------
#
# `stringify(value, {lineWidth: 0, sortMapEntries: false})`, the call with
# which the reference's `adr migrate` writes a migrated record's frontmatter.
# The library first builds a Document (createNode: a map for an object, a
# sequence for an array, a scalar for the rest, no tags, no comments, no
# flow style) and then prints it.  Over such a document only these of its
# decisions can differ, and each is ported from the 2.9.0 source named:
#
#   stringifyDocument  the body, then one line break; no `---`, no directives;
#   stringifyCollection (block)  a map's pairs at its indent, a sequence's
#                      items as "- " at its indent + 2, an empty one as {} / [];
#   stringifyPair      `key: value`; a non-empty collection value on the next
#                      line at indent + 2; a key whose written form is over
#                      1024 UTF-16 units becomes explicit (`? key` / `: value`);
#   stringifyNumber    JSON.stringify of the double, "-0", .nan, .inf, -.inf;
#   stringifyString    plain, single quoted, double quoted (JSON escapes plus
#                      YAML's \0 \a \v \e, multi-line from 40 units on) or a
#                      block literal (chomping and indentation indicators).
#
# lineWidth 0 turns folding off (foldFlowLines returns its text; the block
# string is always literal, never folded).  Unreachable for a value, and so
# left out: tags, anchors and aliases (the importer's values are rebuilt by
# zod, so no object is shared; a cycle is refused), comments and spaceBefore,
# flow collections with items, allNullValues (a null value is a node, never
# missing), BLOCK_FOLDED and QUOTE_* scalar types (a created scalar has no
# type), folding, an empty block scalar (an empty string is quoted before)
# and a value written empty or from a line break (no value is).  A Python str is read as the JS string it stands for:
# adjacent surrogates pair up, as the loader pairs them.

_YAML_OUT_FORCE_DOUBLE_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_YAML_OUT_PLAIN_FORBIDDEN_RE = re.compile(
    r"\A[\n\t ,\[\]{}#&*!|>'\"%@`]|\A[?-]\Z|\A[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]\Z"
)
# containsDocumentMarker: /^(%|---|\.\.\.)/m, where JS's `^` also follows \r, U+2028 and U+2029.
_YAML_OUT_DOC_MARKER_RE = re.compile("(?:\\A|(?<=[\n\r\u2028\u2029]))(?:%|---|\\.\\.\\.)")
_YAML_OUT_BLOCK_QUOTED_RE = re.compile(r"\n[\t ]+\Z")
_YAML_OUT_SINGLE_REFUSED_RE = re.compile(r"[ \t]\n|\n[ \t]")
_YAML_OUT_BLOCK_END_NEWLINES_RE = re.compile(r"(?:\A|(?<!\n))\n+(?!\n|\Z)")
_YAML_OUT_NEWLINES_RE = re.compile(r"\n+")
# The core schema's tests a plain string must not pass (it would read back as another type).
_YAML_OUT_CORE_TESTS = (_YAML_NULL_RE, _YAML_BOOL_RE, _YAML_INT_OCT_RE, _YAML_INT_RE, _YAML_INT_HEX_RE,
                        _YAML_FLOAT_NAN_RE, _YAML_FLOAT_EXP_RE, _YAML_FLOAT_RE)
# All of them as one alternation: it matches exactly when one of them does, in one call.
_YAML_OUT_CORE_ANY_RE = re.compile("|".join("(?:%s)" % test.pattern for test in _YAML_OUT_CORE_TESTS))
_YAML_OUT_JSON_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
                          "\t": "\\t"}
# doubleQuotedString's YAML spellings of JSON's \uXXXX escapes; any other \u00XX becomes \xXX.
# (\N \_ \L \P never fire: JSON.stringify leaves U+0085, U+00A0, U+2028 and U+2029 raw.)
_YAML_OUT_DQ_SHORT = {"0000": "\\0", "0007": "\\a", "000b": "\\v", "001b": "\\e", "0085": "\\N",
                      "00a0": "\\_", "2028": "\\L", "2029": "\\P"}
_YAML_OUT_STEP = "  "  # indentStep: the default indent of 2
_YAML_OUT_KEY_LIMIT = 1024  # an implicit key's written length, in UTF-16 units
_YAML_OUT_DQ_MULTILINE = 40  # doubleQuotedMinMultiLineLength


def _yaml_out_units(text: str) -> int:
    """The length of a JS string: UTF-16 code units."""
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def _yaml_out_number(value: float) -> str:
    """stringifyNumber for a double (a Python int is the double it stands for)."""
    if not isinstance(value, float):
        value = _yaml_int_to_double(value)
    if value != value:
        return ".nan"
    if value in (math.inf, -math.inf):
        return ".inf" if value > 0 else "-.inf"
    if value == 0 and math.copysign(1.0, value) < 0:
        return "-0"
    return JS.number_text(value)


def _yaml_out_json(value: str) -> str:
    """JSON.stringify of a string (well-formed: a lone surrogate becomes \\udXXX)."""
    out = ['"']
    for ch in value:
        esc = _YAML_OUT_JSON_ESCAPES.get(ch)
        if esc is not None:
            out.append(esc)
        elif ch < " " or "\ud800" <= ch <= "\udfff":
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _yaml_out_double(value: str, indent: str, implicit_key: bool) -> str:
    """doubleQuotedString: JSON escapes re-spelled for YAML; long ones break at \\n."""
    json_text = _yaml_out_json(value)

    def at(i: int) -> str:  # JS json[i]: "" past the end
        return json_text[i] if i < len(json_text) else ""

    indent = indent or ("  " if _YAML_OUT_DOC_MARKER_RE.search(value) else "")
    one_line = implicit_key or _yaml_out_units(json_text) < _YAML_OUT_DQ_MULTILINE
    out, start, i = [], 0, 0
    while i < len(json_text):
        ch = json_text[i]
        if ch == " " and at(i + 1) == "\\" and at(i + 2) == "n":
            # A space before a line break is escaped so that folding keeps it.
            out.append(json_text[start:i] + "\\ ")
            i += 1
            start = i
            ch = "\\"
        if ch == "\\":
            following = at(i + 1)
            if following == "u":
                out.append(json_text[start:i])
                code = json_text[i + 2:i + 6]
                short = _YAML_OUT_DQ_SHORT.get(code)
                if short is None:
                    short = "\\x" + code[2:] if code[:2] == "00" else json_text[i:i + 6]
                out.append(short)
                i += 5
                start = i + 1
            elif following == "n" and not (one_line or at(i + 2) == '"'):
                # Folding eats the first line break, hence two; a space after one is escaped.
                out.append(json_text[start:i] + "\n\n")
                while at(i + 2) == "\\" and at(i + 3) == "n" and at(i + 4) != '"':
                    out.append("\n")
                    i += 2
                out.append(indent)
                if at(i + 2) == " ":
                    out.append("\\")
                i += 1
                start = i + 1
            else:
                i += 1
        i += 1
    return "".join(out) + json_text[start:] if start else json_text


def _yaml_out_single(value: str, indent: str, implicit_key: bool) -> str:
    """singleQuotedString: '' for ', a blank line per line break."""
    if (implicit_key and "\n" in value) or _YAML_OUT_SINGLE_REFUSED_RE.search(value):
        return _yaml_out_double(value, indent, implicit_key)
    indent = indent or ("  " if _YAML_OUT_DOC_MARKER_RE.search(value) else "")
    body = _YAML_OUT_NEWLINES_RE.sub(lambda m: m.group() + "\n" + indent, value.replace("'", "''"))
    return "'" + body + "'"


def _yaml_out_quoted(value: str, indent: str, implicit_key: bool) -> str:
    """quotedString: single quotes for text with " and no ', else double quotes."""
    if '"' in value and "'" not in value:
        return _yaml_out_single(value, indent, implicit_key)
    return _yaml_out_double(value, indent, implicit_key)


def _yaml_out_block(value: str, indent: str, force_indent: bool) -> str:
    """blockString, literal (lineWidth 0 never folds): |, chomping, indentation indicator."""
    if _YAML_OUT_BLOCK_QUOTED_RE.search(value):
        return _yaml_out_quoted(value, indent, False)
    indent = indent or ("  " if force_indent or _YAML_OUT_DOC_MARKER_RE.search(value) else "")
    end_start = len(value)
    while end_start > 0 and value[end_start - 1] in "\n\t ":
        end_start -= 1
    end = value[end_start:]
    end_nl = end.find("\n")
    if end_nl == -1:
        chomp = "-"  # strip
    elif value == end or end_nl != len(end) - 1:
        chomp = "+"  # keep
    else:
        chomp = ""  # clip
    if end:
        value = value[:-len(end)]
        if end[-1] == "\n":
            end = end[:-1]
        end = _YAML_OUT_BLOCK_END_NEWLINES_RE.sub(lambda m: m.group() + indent, end)
    start_with_space, start_end, start_nl = False, 0, -1
    while start_end < len(value) and value[start_end] in " \n":
        if value[start_end] == " ":
            start_with_space = True
        else:
            start_nl = start_end
        start_end += 1
    start = value[:start_nl + 1 if start_nl < start_end else start_end]
    if start:
        value = value[len(start):]
        start = _YAML_OUT_NEWLINES_RE.sub(lambda m: m.group() + indent, start)
    header = (("2" if indent else "1") if start_with_space else "") + chomp
    value = _YAML_OUT_NEWLINES_RE.sub(lambda m: m.group() + indent, value)
    return "|" + header + "\n" + indent + start + value + end


def _yaml_out_plain(value: str, indent: str, implicit_key: bool) -> str:
    """plainString: the value as it is, unless reading it back would change it."""
    if implicit_key and "\n" in value:
        return _yaml_out_quoted(value, indent, implicit_key)
    if _YAML_OUT_PLAIN_FORBIDDEN_RE.search(value):
        if implicit_key or "\n" not in value:
            return _yaml_out_quoted(value, indent, implicit_key)
        return _yaml_out_block(value, indent, False)
    if not implicit_key and "\n" in value:
        return _yaml_out_block(value, indent, False)
    if _YAML_OUT_DOC_MARKER_RE.search(value):
        if indent == "":
            return _yaml_out_block(value, indent, True)
        if implicit_key and indent == _YAML_OUT_STEP:
            return _yaml_out_quoted(value, indent, implicit_key)
    if _YAML_OUT_CORE_ANY_RE.match(value):
        return _yaml_out_quoted(value, indent, implicit_key)
    return value


def _yaml_out_string(value: str, indent: str, implicit_key: bool) -> str:
    """stringifyString for a created scalar: plain, unless a character forces double quotes."""
    value = _yaml_join_surrogates(value)  # a JS string pairs adjacent surrogates
    if _YAML_OUT_FORCE_DOUBLE_RE.search(value):
        return _yaml_out_double(value, indent, implicit_key)
    return _yaml_out_plain(value, indent, implicit_key)


def _yaml_out_scalar(value: _YamlValue, indent: str) -> str:
    """stringify() for a scalar at `indent` (never a key): null, true/false, a number or a string."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return _yaml_out_number(value)
    if isinstance(value, str):
        return _yaml_out_string(value, indent, False)
    raise TypeError("stringify: cannot write a %s" % type(value).__name__)


_YAML_OUT_DONE = object()  # a frame's items are all written


class _YamlOutFrame:
    """A non-empty map or sequence being written (stringifyBlockCollection): its lines so far
    and the head of the item under way, `key:` (stringifyPair) or `- `."""

    __slots__ = ("ident", "indent", "is_map", "items", "lines", "head", "value_below")

    def __init__(self, value: _YamlValue, indent: str) -> None:  # a non-empty dict or list
        self.ident = id(value)
        self.indent = indent
        self.is_map = isinstance(value, dict)
        self.items: Iterator[Any] = iter(value.items() if self.is_map else value)
        self.lines: List[str] = []
        self.head = "- "
        self.value_below = False  # a non-empty collection value starts on the next line

    def advance(self) -> _YamlValue:
        """The next item's value, its head made ready; _YAML_OUT_DONE after the last."""
        entry: Any = next(self.items, _YAML_OUT_DONE)
        if entry is _YAML_OUT_DONE or not self.is_map:
            return entry
        key, value = entry
        if not isinstance(key, str):
            raise TypeError("stringify: a mapping key must be a str, not %s" % type(key).__name__)
        key_text = _yaml_out_string(key, self.indent + _YAML_OUT_STEP, True)
        # Written longer than an implicit key may be, the key becomes explicit: `? key` / `: value`.
        explicit = _yaml_out_units(key_text) > _YAML_OUT_KEY_LIMIT
        self.head = "? %s\n%s:" % (key_text, self.indent) if explicit else key_text + ":"
        self.value_below = not explicit and isinstance(value, (dict, list)) and bool(value)
        return value

    def add(self, text: str) -> None:
        """Append the item under way, whose value was written as `text`."""
        if not self.is_map:
            line = "- " + text
        elif self.value_below:
            line = self.head + "\n" + self.indent + _YAML_OUT_STEP + text
        else:
            line = self.head + " " + text
        self.lines.append(line)


def _yaml_out_enter(value: _YamlValue, indent: str, stack: List[_YamlOutFrame],
                    path: Set[int]) -> Optional[str]:
    """The text of a scalar or an empty collection, or None after pushing a frame for a
    non-empty collection (`path` holds the ids of the collections being written)."""
    if not isinstance(value, (dict, list)):
        return _yaml_out_scalar(value, indent)
    if not value:
        return "{}" if isinstance(value, dict) else "[]"
    if id(value) in path:
        raise ValueError("stringify: the value contains itself")
    path.add(id(value))
    stack.append(_YamlOutFrame(value, indent))
    return None


def _yaml_stringify_value(value: _YamlValue) -> str:
    """stringify(value, {lineWidth: 0, sortMapEntries: false}): the document, then a line break.

    Depth-first with a stack of frames rather than recursion, so that any depth the loader
    accepts (800 levels) is written too; every item is written at its parent's indent + 2.
    """
    stack: List[_YamlOutFrame] = []  # the frames of the collections under way, innermost last
    path: Set[int] = set()
    text = _yaml_out_enter(value, "", stack, path)
    while stack:
        frame = stack[-1]
        if text is not None:
            frame.add(text)
        item = frame.advance()
        if item is _YAML_OUT_DONE:
            stack.pop()
            path.discard(frame.ident)
            text = ("\n" + frame.indent).join(frame.lines)
        else:
            text = _yaml_out_enter(item, frame.indent + _YAML_OUT_STEP, stack, path)
    assert text is not None  # the last frame closed with its lines' text
    return text + "\n"


# ---------------------------------------------------------------------------
# 25. YAML loader: Entry point
# ---------------------------------------------------------------------------


def _yaml_bind_pyyaml() -> None:
    """Bind PyYAML's token, event and parser classes, which the full route builds on, as globals.

    PyYAML is imported the first time a text takes the full route, not with the module: the fast
    path reads most frontmatter without it, and an agent's hook run is shorter by its import
    (ADR 0018). Binding them twice (two threads) binds the same classes.
    """
    global AliasEvent, DocumentEndEvent, DocumentStartEvent, MappingEndEvent, MappingStartEvent
    global ScalarEvent, SequenceEndEvent, SequenceStartEvent, StreamEndEvent, _YamlPyParser
    global AliasToken, AnchorToken, BlockEndToken, BlockEntryToken, BlockMappingStartToken
    global BlockSequenceStartToken, DirectiveToken, DocumentEndToken, DocumentStartToken
    global FlowEntryToken, FlowMappingEndToken, FlowMappingStartToken, FlowSequenceEndToken
    global FlowSequenceStartToken, KeyToken, ScalarToken, StreamEndToken, StreamStartToken, TagToken
    global ValueToken, _YAML_NODE_END_TOKENS, _YAML_ITEM_START_TOKENS
    from yaml.events import (
        AliasEvent, DocumentEndEvent, DocumentStartEvent, MappingEndEvent, MappingStartEvent,
        ScalarEvent, SequenceEndEvent, SequenceStartEvent, StreamEndEvent
    )
    from yaml.parser import Parser as _YamlPyParser
    from yaml.tokens import (
        AliasToken, AnchorToken, BlockEndToken, BlockEntryToken, BlockMappingStartToken,
        BlockSequenceStartToken, DirectiveToken, DocumentEndToken, DocumentStartToken,
        FlowEntryToken, FlowMappingEndToken, FlowMappingStartToken, FlowSequenceEndToken,
        FlowSequenceStartToken, KeyToken, ScalarToken, StreamEndToken, StreamStartToken, TagToken,
        ValueToken
    )
    _YAML_NODE_END_TOKENS = (ScalarToken, AliasToken, FlowSequenceEndToken, FlowMappingEndToken)
    _YAML_ITEM_START_TOKENS = (BlockMappingStartToken, BlockSequenceStartToken, KeyToken,
                               AnchorToken, TagToken, BlockEntryToken)


@functools.lru_cache(maxsize=None)
def _yaml_pipeline_class() -> type:
    """The full route's scanner and parser, mixed like PyYAML's Loader classes (built once)."""
    _yaml_bind_pyyaml()

    class _YamlPurePipeline(_YamlScanner, _YamlParser, _YamlPyParser):
        """Scanner + parser: our scanner and parser rules ahead of PyYAML's Parser."""

        def __init__(self, text: str) -> None:
            _YamlScanner.__init__(self, text)
            _YamlParser.__init__(self)

        def get_token(self) -> _YamlToken:
            return _YamlParser.get_token(self)

    return _YamlPurePipeline


def _yaml_compose_pure(source: str) -> Tuple[_YamlComposer, _YamlParser]:
    """Pure-Python path: (root node or None, pending-error holder)."""
    pipeline = _yaml_pipeline_class()(source)
    composer = _YamlComposer(pipeline, lambda: pipeline.yaml_doc_version == "1.1", pipeline)
    return composer, pipeline


def _yaml_convert(root: _YamlNode, schema11: bool) -> _YamlValue:
    if root is None:
        return None
    try:
        return _YamlToJS(schema11).convert(root)
    except _YamlToJSError as error:
        raise _FrontmatterYamlError("toJS", error.name, error.message)
    except RecursionError:
        # Only merge keys that pull in their own mapping (YAML 1.1) or
        # stringifying an extremely deep collection key recurse here; the
        # JS library overflows its stack the same way.
        raise _FrontmatterYamlError("toJS", "RangeError", "Maximum call stack size exceeded")


def _yaml_run(composer: _YamlComposer, holder: _YamlParser) -> _YamlValue:
    try:
        root = composer.compose()
    except _YamlSyntaxError as error:
        # Tokens scanned ahead of the parser, before the fatal error, would
        # have been composed (and their problems reported) first.
        if error.pos is not None:
            for token in getattr(holder, "tokens", ()):
                soft = getattr(token, "_yaml_soft", None)
                if soft is not None and token.start_mark < error.pos:
                    holder._yaml_record(soft[0], soft[1], token.start_mark)
        # The first continuable error precedes the fatal one, unless the
        # fatal one is reported ahead of everything after its position.
        pending = holder._yaml_pending
        if pending is not None and not (
            error.at is not None and pending[2] is not None and pending[2] > error.at
        ):
            raise _FrontmatterYamlError("parse", pending[0], pending[1])
        raise _FrontmatterYamlError("parse", error.code, error.message)
    except RecursionError:
        raise _FrontmatterYamlError(
            "parse", "RESOURCE_EXHAUSTION", "Maximum call stack size exceeded"
        )
    return _yaml_convert(root, composer.schema11)


def _yaml_load_pure_python(source: str) -> _YamlValue:
    """The pure-Python loader (always available)."""
    return _yaml_run(*_yaml_compose_pure(source))


# ---------------------------------------------------------------------------
# 25. YAML loader: Line-based fast path
# ---------------------------------------------------------------------------
#
# Nearly all ADR frontmatter is a handful of `key: value` lines, a few
# indented lists and small nested maps.  For that shape the general
# pipeline (scanner, event parser, composer, converter) is far more machinery
# than needed and costs about a millisecond a record in pure Python, which
# dominates a cold call over a large corpus.
#
# _yaml_fast_load recognises a strict subset line by line and builds the
# value directly, resolving every plain scalar with the same core-schema
# code the composer uses.  Anything outside the subset -- or anything it is
# not certain the full path reads the same way -- makes it decline, and the
# full path decides (including every error).  The subset:
#
#   * a root block mapping at column 0; nested block mappings and block
#     sequences, each at one consistent column (a sequence may also sit at
#     its key's own column, `key:` then `- item`);
#   * keys: plain `[A-Za-z_][A-Za-z0-9_.-]*` that resolve to strings, each
#     directly followed by `:` and a space or the end of the line, unique
#     within their mapping (so JS key order is insertion order: no key can
#     look like an array index);
#   * sequence items: a one-line value, or a compact mapping
#     (`- key: value` with its other keys under the first one);
#   * one-line values: plain scalars, single-quoted scalars, double-quoted
#     scalars without backslash escapes, and one-line flow sequences of
#     those (no nesting, no trailing comma);
#   * whole-line comments and blank lines anywhere, and a comment after a
#     one-line value (` #` after a plain scalar; one or more spaces and `#`
#     after a closing quote or `]`).
#
# Declined: tabs, CR, control and line-separator characters, a BOM or any
# JS white space other than the ASCII space, directives, document markers,
# anchors, aliases, tags, block scalars, multi-line scalars, flow mappings,
# explicit keys, a comment right after `key:` or inside a flow sequence,
# empty sequence items, nested compact sequences, duplicate keys, an empty
# document.  tests/test_yaml_fast_path.py checks that, whenever it accepts,
# the result equals the full path's.

class _YamlFastDecline(LookupError):
    """The source is outside the fast path's subset."""


# Characters whose treatment differs between readers or depends on context
# (white space, line breaks, printability); their presence anywhere declines.
_YAML_FAST_BAD_CHAR_RE = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
    "\ud800-\udfff\ufeff\ufffe\uffff]"
)
_YAML_FAST_KEY_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_.-]*):(?: +|\Z)")
# After a quoted scalar or a flow sequence: spaces, then maybe a comment
# (which needs white space before its `#`).
_YAML_FAST_AFTER_VALUE = r"(?: *\Z| +#.*\Z)"
_YAML_FAST_AFTER_VALUE_RE = re.compile(_YAML_FAST_AFTER_VALUE)
_YAML_FAST_DOUBLE_RE = re.compile(r'"([^"\\]*)"' + _YAML_FAST_AFTER_VALUE)
_YAML_FAST_SINGLE_RE = re.compile(r"'((?:[^']|'')*)'" + _YAML_FAST_AFTER_VALUE)
# A plain scalar may not start with an indicator; `-` is allowed only where
# it cannot be a sequence entry (`-1`, `-x`).  `?` and `:` starts, which
# YAML allows before a non-space, are left to the full path.
_YAML_FAST_PLAIN_BAD_FIRST = "-?:,[]{}#&*!|>'\"%@` "
_YAML_FAST_DASH_PLAIN_SECOND = frozenset("0123456789.ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
# Inside a one-line plain scalar: a comment, a mapping indicator or flow
# indicators (legal in block plain scalars, but rare enough to leave alone).
_YAML_FAST_PLAIN_BAD_RE = re.compile(r"[\[\]{}]| #|: |:\Z")
# One flow-sequence item and the `,` or `]` after it.
_YAML_FAST_FLOW_ITEM_RE = re.compile(
    r""" *(?:"([^"\\]*)"|'((?:[^']|'')*)'|((?:[^-?:,\[\]{}#&*!|>'"%@` ]|-[0-9A-Za-z.])[^,\[\]{}]*?)) *([,\]])"""
)
_YAML_FAST_EMPTY_FLOW_RE = re.compile(r"\[ *\]" + _YAML_FAST_AFTER_VALUE)
# The JS library limits an implicit key to 1024 characters before its `:`.
_YAML_FAST_MAX_KEY = 1000
# Far below the full path's nesting limit; real frontmatter nests 2-3 deep.
_YAML_FAST_MAX_DEPTH = 32


def _yaml_fast_plain(text: str) -> _YamlValue:
    """A one-line plain scalar (already stripped) as the composer reads it."""
    if text[0] in _YAML_CORE_FIRST_CHARS:
        resolved = _yaml_resolve_core(text)
        if resolved is not None:
            return resolved[0]
    return text


def _yaml_fast_flow_seq(text: str) -> List[_YamlValue]:
    """`[a, "b", 'c']` on one line, nothing but a comment after it."""
    if _YAML_FAST_EMPTY_FLOW_RE.match(text):
        return []
    items: List[_YamlValue] = []
    match_item = _YAML_FAST_FLOW_ITEM_RE.match
    pos = 1
    while True:
        match = match_item(text, pos)
        if match is None:
            raise _YamlFastDecline()
        double, single, plain, after = match.groups()
        if double is not None:
            items.append(double)
        elif single is not None:
            items.append(single.replace("''", "'"))
        else:
            if _YAML_FAST_PLAIN_BAD_RE.search(plain):
                raise _YamlFastDecline()
            items.append(_yaml_fast_plain(plain))
        pos = match.end()
        if after == "]":
            if not _YAML_FAST_AFTER_VALUE_RE.match(text, pos):
                raise _YamlFastDecline()
            return items


def _yaml_fast_inline(text: str) -> _YamlValue:
    """The value written on the same line as its key or `- ` (non-empty,
    leading spaces removed)."""
    first = text[0]
    if first == '"':
        match = _YAML_FAST_DOUBLE_RE.match(text)
        if match is None:
            raise _YamlFastDecline()
        return match.group(1)
    if first == "'":
        match = _YAML_FAST_SINGLE_RE.match(text)
        if match is None:
            raise _YamlFastDecline()
        return match.group(1).replace("''", "'")
    if first == "[":
        return _yaml_fast_flow_seq(text)
    if first in _YAML_FAST_PLAIN_BAD_FIRST and not (
        first == "-" and len(text) > 1 and text[1] in _YAML_FAST_DASH_PLAIN_SECOND
    ):
        raise _YamlFastDecline()
    comment = text.find(" #")
    if comment != -1:
        text = text[:comment]
    text = text.rstrip(" ")
    if _YAML_FAST_PLAIN_BAD_RE.search(text):
        raise _YamlFastDecline()
    return _yaml_fast_plain(text)


def _yaml_fast_is_entry(content: str) -> bool:
    return content[:2] == "- " or content == "-"


class _YamlFastReader:
    """Recursive descent over the significant lines (column, content)."""

    def __init__(self, columns: List[int], contents: List[str]) -> None:
        self.columns = columns
        self.contents = contents
        self.count = len(contents)

    def block_map(self, i: int, column: int, depth: int) -> Tuple[Dict[str, _YamlValue], int]:
        """The mapping whose keys sit at `column`, from line i; returns
        (dict, index of the first line after it)."""
        if depth > _YAML_FAST_MAX_DEPTH:
            raise _YamlFastDecline()
        columns, contents, count = self.columns, self.contents, self.count
        result: Dict[str, _YamlValue] = {}
        while i < count:
            at = columns[i]
            if at < column:
                break
            if at > column:
                # More indented than the keys but not a pending key's value:
                # a continuation line or an indentation error.
                raise _YamlFastDecline()
            content = contents[i]
            match = _YAML_FAST_KEY_RE.match(content)
            if match is None:
                raise _YamlFastDecline()
            key = match.group(1)
            if key in result or len(key) > _YAML_FAST_MAX_KEY:
                raise _YamlFastDecline()  # duplicates: the full path reports them
            if key[0] in _YAML_CORE_FIRST_CHARS and _yaml_resolve_core(key) is not None:
                raise _YamlFastDecline()  # `null:`, `true:` ... are not string keys
            rest = content[match.end():]
            i += 1
            if rest:
                result[key] = _yaml_fast_inline(rest)
            elif i < count and columns[i] > column:
                if _yaml_fast_is_entry(contents[i]):
                    result[key], i = self.block_seq(i, columns[i], depth + 1)
                else:
                    result[key], i = self.block_map(i, columns[i], depth + 1)
            elif i < count and columns[i] == column and _yaml_fast_is_entry(contents[i]):
                # A sequence may share its key's column.
                result[key], i = self.block_seq(i, column, depth + 1)
            else:
                result[key] = None
        return result, i

    def block_seq(self, i: int, column: int, depth: int) -> Tuple[List[_YamlValue], int]:
        """The sequence whose `-` entries sit at `column`, from line i."""
        if depth > _YAML_FAST_MAX_DEPTH:
            raise _YamlFastDecline()
        columns, contents, count = self.columns, self.contents, self.count
        items: List[_YamlValue] = []
        while i < count and columns[i] == column and _yaml_fast_is_entry(contents[i]):
            content = contents[i]
            rest = content[1:].lstrip(" ")
            if not rest or _yaml_fast_is_entry(rest):
                raise _YamlFastDecline()  # value on later lines, or `- - x`
            if _YAML_FAST_KEY_RE.match(rest):
                # `- key: value`: a mapping whose keys share the first key's
                # column.  Re-read this line as that key's line.
                key_column = column + len(content) - len(rest)
                columns[i] = key_column
                contents[i] = rest
                item, i = self.block_map(i, key_column, depth + 1)
            else:
                item = _yaml_fast_inline(rest)
                i += 1
            items.append(item)
        # A deeper line after the last entry continues a scalar or is an
        # error; the enclosing mapping declines on it.
        return items, i


def _yaml_fast_load(source: str) -> Dict[str, _YamlValue]:
    """The value of a simple document, or _YamlFastDecline."""
    if _YAML_FAST_BAD_CHAR_RE.search(source):
        raise _YamlFastDecline()
    columns: List[int] = []
    contents: List[str] = []
    for line in source.split("\n"):
        content = line.lstrip(" ")
        if content and content[0] != "#":
            columns.append(len(line) - len(content))
            contents.append(content)
    if not contents or columns[0] != 0 or _yaml_fast_is_entry(contents[0]):
        raise _YamlFastDecline()
    reader = _YamlFastReader(columns, contents)
    value, end = reader.block_map(0, 0, 0)
    if end != reader.count:
        raise _YamlFastDecline()
    return value


def _load_frontmatter_yaml(source: str, route: str = "auto") -> Any:
    """Parse frontmatter YAML as yaml 2.9.0 does.

    Returns plain Python data (str, bool, None, int/float as JS numbers,
    list, dict in JS own-key order; bytes and small value objects for the
    rare tagged values: a JS Date has `.iso`, a Map `.entries`, a Set
    `.items`; each names its class in `.js_class`).  Raises
    _FrontmatterYamlError.

    *route* picks the path: "auto" (the line-based fast path, and the full
    path where it declines), "full" (the full path only) or "fast" (the fast
    path only; raises LookupError where it declines).  Tests prove the two
    paths equal; the product always uses "auto".
    """
    if route != "full":
        try:
            return _yaml_fast_load(source)
        except _YamlFastDecline:
            if route == "fast":
                raise
    return _yaml_load_pure_python(source)


class FrontmatterYaml:
    """The YAML engine's door: `load` reads frontmatter as yaml 2.9.0 does, or raises `Error`;
    `stringify` writes a value as the reference's importer has yaml 2.9.0 write it."""

    __slots__ = ()
    Error = _FrontmatterYamlError  # .stage ("parse" or "toJS"), .code, .message

    @staticmethod
    def load(source: str, route: str = "auto") -> Any:
        """Plain JS-shaped data, or FrontmatterYaml.Error (see _load_frontmatter_yaml)."""
        return _load_frontmatter_yaml(source, route)

    @staticmethod
    def stringify(value: Any) -> str:
        """yaml 2.9.0's `stringify(value, {lineWidth: 0, sortMapEntries: false})`, untrimmed.

        *value*: None, bool, int or float (a JS number), str, list, or dict with str keys
        (written in its order), nested; anything else raises TypeError, a cycle ValueError.
        """
        return _yaml_stringify_value(value)


# ---------------------------------------------------------------------------
# 26. Semver: package patterns and semver ranges
# ---------------------------------------------------------------------------

"""Semver engine: the reference's parsePackagePattern over node-semver 7.8.5's validRange.

Door: parse_package_pattern(pattern) -> {"name"} / {"name", "range"} or None.
Everything else is private (package matchers are inert in the reference, so
only the validity of a range is ever needed: no satisfies, no ordering).

Guarantees: node-semver's strict-mode decision (no includePrerelease), through
its own pipeline of textual rewrites with its "safe" bounded regexes and its
256-character version limit; ranges themselves are not capped.  Every rewrite
is a regex pass with bounded repetition; 64 KiB hostile ranges are tested.

Equivalence: tests/data/vectors/semver-range.json, 510 cases recorded from the
reference (the parsed pattern, and validRange's normalised text through a
private helper), in tests/test_vectors_semver.py.
"""

#
# A port of what the reference server needs from node-semver 7.8.5: the
# `validRange` decision (strict mode, no includePrerelease) inside the
# reference's `parsePackagePattern` wrapper.
#
# The port follows node-semver's own pipeline step by step (whitespace
# collapse, "||" split, build strip, hyphen ranges, comparator/tilde/caret
# trims, caret/tilde/x-range/star rewrites, ">=0.0.0" removal, comparator
# parsing) because the normalised text and the accept/reject decision depend
# on the exact order of those textual rewrites, not only on the grammar.
#
# node-semver runs its regexes with JavaScript semantics.  Three differences
# from Python's `re` matter and are handled explicitly below:
#   * JS `\s` is a fixed set (the one `String.prototype.trim` strips); Python's
#     `\s` also matches U+001C-U+001F and U+0085 and misses U+FEFF.
#   * JS `\d` is ASCII only; Python's `\d` matches any Unicode digit.
#   * JS `$` (no multiline flag) matches only at the very end; Python's `$`
#     also matches before a final "\n".  We use `\A` / `\Z` instead.
# node-semver uses its "safe" regex variants (bounded `\s*`, `\d*` and
# identifier repetitions) everywhere in range parsing; the bounds change which
# inputs match, so they are reproduced exactly.
# ---------------------------------------------------------------------------

# ECMAScript WhiteSpace + LineTerminator: the set `String.prototype.trim`
# removes and the set the regex class `\s` matches (see _semver_WS_BODY).
_semver_JS_WHITESPACE = JS.WHITESPACE


# --- regex building blocks (JS semantics spelled out for Python's `re`) ----

# Body of a character class equal to JS `\s`.
_semver_WS_BODY = (
    "\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a"
    "\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
)
_semver_WS = "[" + _semver_WS_BODY + "]"

# node-semver's limits (internal/constants.js).
_semver_MAX_LENGTH = 256
_semver_MAX_SAFE_INTEGER = 9007199254740991
# "safe" regexes cap identifier repetition at MAX_LENGTH - 6.
_semver_MAX_SAFE_BUILD_LENGTH = _semver_MAX_LENGTH - 6

# In the "safe" variants `\d*` becomes `\d{0,256}`, `\d+` becomes `\d{1,256}`,
# `[a-zA-Z0-9-]*`/`+` get an upper bound of 250, and `\s*`/`\s+` are capped at
# a single character (input whitespace is collapsed before they run).
_semver_DIGITS_0 = "[0-9]{0,%d}" % _semver_MAX_LENGTH
_semver_DIGITS_1 = "[0-9]{1,%d}" % _semver_MAX_LENGTH
_semver_IDCHARS_0 = "[a-zA-Z0-9-]{0,%d}" % _semver_MAX_SAFE_BUILD_LENGTH
_semver_IDCHARS_1 = "[a-zA-Z0-9-]{1,%d}" % _semver_MAX_SAFE_BUILD_LENGTH
_semver_WS_OPT = _semver_WS + "?"  # safe form of `\s*`
_semver_WS_ONE = _semver_WS  # safe form of `\s+`

_semver_NUM_ID = "0|[1-9]" + _semver_DIGITS_0
_semver_NUM_ID_LOOSE = _semver_DIGITS_1
_semver_NONNUM_ID = _semver_DIGITS_0 + "[a-zA-Z-]" + _semver_IDCHARS_0

_semver_MAIN = "({0})\\.({0})\\.({0})".format(_semver_NUM_ID)
_semver_MAIN_LOOSE = "({0})\\.({0})\\.({0})".format(_semver_NUM_ID_LOOSE)

# Non-numeric identifiers go first so that "0a" is not cut after the "0".
_semver_PRE_ID = "(?:{0}|{1})".format(_semver_NONNUM_ID, _semver_NUM_ID)
_semver_PRE_ID_LOOSE = "(?:{0}|{1})".format(_semver_NONNUM_ID, _semver_NUM_ID_LOOSE)
_semver_PRERELEASE = "(?:-({0}(?:\\.{0})*))".format(_semver_PRE_ID)
_semver_PRERELEASE_LOOSE = "(?:-?({0}(?:\\.{0})*))".format(_semver_PRE_ID_LOOSE)

_semver_BUILD = "(?:\\+({0}(?:\\.{0})*))".format(_semver_IDCHARS_1)

_semver_FULL_PLAIN = "v?" + _semver_MAIN + _semver_PRERELEASE + "?" + _semver_BUILD + "?"
_semver_LOOSE_PLAIN = (
    "[v=" + _semver_WS_BODY + "]*" + _semver_MAIN_LOOSE
    + _semver_PRERELEASE_LOOSE + "?" + _semver_BUILD + "?"
)

_semver_GTLT = "((?:<|>)?=?)"
_semver_XRANGE_ID = _semver_NUM_ID + "|x|X|\\*"
_semver_XRANGE_PLAIN = (
    "[v=" + _semver_WS_BODY + "]*({0})"
    "(?:\\.({0})"
    "(?:\\.({0})"
    "(?:{1})?{2}?"
    ")?)?"
).format(_semver_XRANGE_ID, _semver_PRERELEASE, _semver_BUILD)

# Groups: 1 major, 2 minor, 3 patch, 4 prerelease, 5 build.
# Helpers for scanning with COMPARATOR_TRIM_RE in linear time (see below).
_semver_RUN_CHARS = frozenset("v=" + _semver_JS_WHITESPACE)
_semver_ID_START_CHARS = frozenset("0123456789xX*")
_semver_WS_CHARS = frozenset(_semver_JS_WHITESPACE)


class _SemverPatterns:
    """node-semver's regular expressions, compiled together on first use (see _semver_re): a
    corpus without package patterns, as most hook runs read, never pays for them."""

    def __init__(self) -> None:
        self.FULL = re.compile("\\A" + _semver_FULL_PLAIN + "\\Z")
        # Groups: 1 operator, 2 major, 3 minor, 4 patch, 5 prerelease, 6 build.
        self.XRANGE = re.compile(
            "\\A" + _semver_GTLT + _semver_WS_OPT + _semver_XRANGE_PLAIN + "\\Z")
        # Groups: 1 major, 2 minor, 3 patch, 4 prerelease, 5 build.
        self.TILDE = re.compile("\\A(?:~>?)" + _semver_XRANGE_PLAIN + "\\Z")
        self.CARET = re.compile("\\A(?:\\^)" + _semver_XRANGE_PLAIN + "\\Z")
        # `~ 1` -> `~1`, `^ 1` -> `^1`; group 1 is the whitespace kept in front.
        self.TILDE_TRIM = re.compile("(" + _semver_WS_OPT + ")(?:~>?)" + _semver_WS_ONE)
        self.CARET_TRIM = re.compile("(" + _semver_WS_OPT + ")(?:\\^)" + _semver_WS_ONE)
        # Groups: 1 operator, 2 version (the whole FULL_PLAIN text); or the empty string.
        self.COMPARATOR = re.compile(
            "\\A" + _semver_GTLT + _semver_WS_OPT + "(" + _semver_FULL_PLAIN + ")\\Z|\\A\\Z")
        # `> 1.2.3` -> `>1.2.3`: the replacement keeps groups 1, 2 and 3, dropping the
        # whitespace between the operator and the version.
        self.COMPARATOR_TRIM = re.compile(
            "(" + _semver_WS_OPT + ")" + _semver_GTLT + _semver_WS_OPT
            + "(" + _semver_LOOSE_PLAIN + "|" + _semver_XRANGE_PLAIN + ")")
        # Groups: 1 "from" (then 2-6 its parts), 7 "to" (then 8-12 its parts).
        self.HYPHEN = re.compile(
            "\\A" + _semver_WS_OPT + "(" + _semver_XRANGE_PLAIN + ")"
            + _semver_WS_ONE + "-" + _semver_WS_ONE
            + "(" + _semver_XRANGE_PLAIN + ")" + _semver_WS_OPT + "\\Z")
        self.STAR = re.compile("(<|>)?=?" + _semver_WS_OPT + "\\*")
        self.GTE0 = re.compile(
            "\\A" + _semver_WS_OPT + ">=" + _semver_WS_OPT + "0\\.0\\.0" + _semver_WS_OPT + "\\Z")
        # node-semver strips build metadata from each "||" alternative with the
        # *unbounded* BUILD pattern, so arbitrarily long build tags vanish.
        self.BUILD_STRIP = re.compile("\\+([a-zA-Z0-9-]+(?:\\.[a-zA-Z0-9-]+)*)")
        self.BUILD = re.compile(_semver_BUILD)
        # JS `/\s+/g`, used both for collapsing and for split(/\s+/).
        self.WS_RUN = re.compile(_semver_WS + "+")
        self.RUN = re.compile("[v=" + _semver_WS_BODY + "]*")
        self.TRIM_CANDIDATE = re.compile("[v=<>0-9xX*" + _semver_WS_BODY + "]")
        self.TRIM_EFFECT = re.compile("[<>=" + _semver_WS_BODY + "]" + _semver_WS)
        # Runs shorter than this cost a plain scan at most ~32 steps per position.
        self.LONG_RUN = re.compile("[v=" + _semver_WS_BODY + "]{32}")


@functools.lru_cache(maxsize=None)
def _semver_re() -> _SemverPatterns:
    """The one _SemverPatterns, compiled by the first call."""
    return _SemverPatterns()


_semver_NULL_SET_VALUE = "<0.0.0-0"


class _semver_Invalid(ValueError):
    """Raised where node-semver throws a TypeError for an invalid range."""


# --- versions -------------------------------------------------------------

class _semver_Version:
    """A parsed strict semver version (node-semver's SemVer class)."""

    __slots__ = ("major", "minor", "patch", "prerelease", "version")

    def __init__(self, text: str) -> None:
        # node checks the UTF-16 length; it can only exceed len(text) when the
        # text has astral characters, and those never match FULL anyway.
        if len(text) > _semver_MAX_LENGTH:
            raise _semver_Invalid("version is too long")
        match = _semver_re().FULL.match(JS.trim(text))
        if match is None:
            raise _semver_Invalid("invalid version")
        self.major = int(match.group(1))
        self.minor = int(match.group(2))
        self.patch = int(match.group(3))
        if (self.major > _semver_MAX_SAFE_INTEGER
                or self.minor > _semver_MAX_SAFE_INTEGER
                or self.patch > _semver_MAX_SAFE_INTEGER):
            raise _semver_Invalid("version component too large")
        prerelease_text = match.group(4)
        # The identifiers keep their text: numeric ones have no leading zeros
        # (the grammar forbids them), so node's number round-trip is identity.
        self.prerelease = prerelease_text.split(".") if prerelease_text else []
        self.version = "%d.%d.%d" % (self.major, self.minor, self.patch)
        if self.prerelease:
            self.version += "-" + prerelease_text


# --- comparators ----------------------------------------------------------

class _semver_Comparator:
    """One `<op><version>` test, or the match-anything comparator (value "")."""

    __slots__ = ("operator", "semver", "value")

    def __init__(self, text: str) -> None:
        text = " ".join(_semver_re().WS_RUN.split(JS.trim(text)))
        match = _semver_re().COMPARATOR.match(text)
        if match is None:
            raise _semver_Invalid("invalid comparator")
        operator = match.group(1) or ""
        self.operator = "" if operator == "=" else operator
        version_text = match.group(2)
        # None stands for node's Comparator.ANY.
        self.semver = _semver_Version(version_text) if version_text else None
        self.value = "" if self.semver is None else self.operator + self.semver.version

# --- textual rewrites (node-semver's classes/range.js helpers) -------------

def _semver_is_x(part: Optional[str]) -> bool:
    return not part or part.lower() == "x" or part == "*"


def _semver_next(number_text: str) -> str:
    """`+n + 1` as JS prints it, for every value that can still be valid.

    Anything above MAX_SAFE_INTEGER is rejected later when the comparator is
    parsed, whatever digits (or exponent form) JS would have produced.
    """
    return str(int(number_text) + 1)


def _semver_hyphen_replace(match: "re.Match") -> str:
    (from_text, from_major, from_minor, from_patch, _from_pre, _from_build,
     to_text, to_major, to_minor, to_patch, to_pre, _to_build) = match.groups()
    if _semver_is_x(from_major):
        low = ""
    elif _semver_is_x(from_minor):
        low = ">=%s.0.0" % from_major
    elif _semver_is_x(from_patch):
        low = ">=%s.%s.0" % (from_major, from_minor)
    else:
        # With or without a prerelease the lower bound is the text as written.
        low = ">=" + from_text

    if _semver_is_x(to_major):
        high = ""
    elif _semver_is_x(to_minor):
        high = "<%s.0.0-0" % _semver_next(to_major)
    elif _semver_is_x(to_patch):
        high = "<%s.%s.0-0" % (to_major, _semver_next(to_minor))
    elif to_pre:
        high = "<=%s.%s.%s-%s" % (to_major, to_minor, to_patch, to_pre)
    else:
        high = "<=" + to_text
    return JS.trim(low + " " + high)


def _semver_replace_caret(comp: str) -> str:
    return _semver_replace_partial(comp, True)


def _semver_replace_tilde(comp: str) -> str:
    return _semver_replace_partial(comp, False)


def _semver_replace_partial(comp: str, caret: bool) -> str:
    """node's replaceCaret / replaceTilde for one comparator."""
    patterns = _semver_re()
    match = (patterns.CARET if caret else patterns.TILDE).match(comp)
    if match is None:
        return comp
    major, minor, patch, pre = match.group(1, 2, 3, 4)
    if _semver_is_x(major):
        return ""
    if _semver_is_x(minor):
        return ">=%s.0.0 <%s.0.0-0" % (major, _semver_next(major))
    if _semver_is_x(patch):
        if caret and major != "0":
            return ">=%s.%s.0 <%s.0.0-0" % (major, minor, _semver_next(major))
        return ">=%s.%s.0 <%s.%s.0-0" % (major, minor, major, _semver_next(minor))
    low = "%s.%s.%s-%s" % (major, minor, patch, pre) if pre else "%s.%s.%s" % (major, minor, patch)
    # ^0.0.x pins the patch, ^0.x (and every ~) the minor, other ^ the major.
    if caret and major != "0":
        return ">=%s <%s.0.0-0" % (low, _semver_next(major))
    if caret and minor == "0":
        return ">=%s <%s.%s.%s-0" % (low, major, minor, _semver_next(patch))
    return ">=%s <%s.%s.0-0" % (low, major, _semver_next(minor))


def _semver_replace_xrange(comp: str) -> str:
    comp = JS.trim(comp)
    match = _semver_re().XRANGE.match(comp)
    if match is None:
        return comp
    operator, major, minor, patch = match.group(1, 2, 3, 4)
    # "x.1" and "1.x.2" are left as they are (and fail as comparators later).
    if (_semver_is_x(major) and not _semver_is_x(minor)) or (
            _semver_is_x(minor) and patch and not _semver_is_x(patch)):
        return comp
    major_is_x = _semver_is_x(major)
    minor_is_x = major_is_x or _semver_is_x(minor)
    any_x = minor_is_x or _semver_is_x(patch)
    if operator == "=" and any_x:
        operator = ""

    if major_is_x:
        # ">x" / "<x" admit nothing; every other spelling admits everything.
        return _semver_NULL_SET_VALUE if operator in (">", "<") else "*"
    if operator and any_x:
        minor = "0" if minor_is_x else minor
        patch = "0"
        suffix = ""
        if operator in (">", "<="):
            # >1 means >=2.0.0, >1.2 means >=1.3.0;
            # <=1 means <2.0.0-0, <=1.2 means <1.3.0-0.
            operator = ">=" if operator == ">" else "<"
            if minor_is_x:
                major = _semver_next(major)
            else:
                minor = _semver_next(minor)
        if operator == "<":
            suffix = "-0"
        return "%s%s.%s.%s%s" % (operator, major, minor, patch, suffix)
    if minor_is_x:
        return ">=%s.0.0 <%s.0.0-0" % (major, _semver_next(major))
    if any_x:
        return ">=%s.%s.0 <%s.%s.0-0" % (major, minor, major, _semver_next(minor))
    return comp


def _semver_each_word(text: str, rewrite: Callable[[str], str]) -> str:
    return " ".join(rewrite(word) for word in _semver_re().WS_RUN.split(text))


def _semver_parse_comparator(comp: str) -> str:
    """Turn one space-free word into plain comparators (node's parseComparator)."""
    patterns = _semver_re()
    comp = patterns.BUILD.sub("", comp, count=1)
    comp = _semver_each_word(JS.trim(comp), _semver_replace_caret)
    comp = _semver_each_word(JS.trim(comp), _semver_replace_tilde)
    comp = _semver_each_word(comp, _semver_replace_xrange)
    # A "*" is AND-ed with the rest, so it is simply dropped (first one only,
    # like JS `replace` with a non-global regex).
    return patterns.STAR.sub("", JS.trim(comp), count=1)


def _semver_comparator_trim_join(match: "re.Match") -> str:
    return match.group(1) + match.group(2) + match.group(3)


def _semver_comparator_trim(text: str) -> str:
    """Global replace of COMPARATOR_TRIM_RE by groups 1+2+3, in linear time.

    A plain `re.sub` tries a match at every position, and at each position
    inside a long run of "v", "=" and whitespace the pattern's `[v=\\s]*`
    scans to the end of that run: quadratic on hostile input.  Every match
    needs an identifier start (digit, x, X, *) right after such a run, and
    the only way past the run's end is a "<"/">" operator that a match
    starting on the run's last (whitespace) character can take.  So when a
    run does not end in an identifier start, no position inside it can start
    a match except possibly that last one, and we skip the rest; the result
    is the same as the leftmost-first scan JS performs.
    """
    patterns = _semver_re()
    if patterns.TRIM_EFFECT.search(text) is None:
        # A replacement only deletes a whitespace character that follows the
        # operator or the leading whitespace inside the match, so without a
        # whitespace character right after "<", ">", "=" or whitespace the
        # whole pass is the identity.
        return text
    if patterns.LONG_RUN.search(text) is None:
        # Without long runs the plain scan is cheap.
        return patterns.COMPARATOR_TRIM.sub(_semver_comparator_trim_join, text)
    pieces = []
    copied = 0
    position = 0
    length = len(text)
    while position < length:
        candidate = patterns.TRIM_CANDIDATE.search(text, position)
        if candidate is None:
            break
        position = candidate.start()
        if text[position] in _semver_RUN_CHARS:
            run = patterns.RUN.match(text, position)
            assert run is not None  # a starred class matches, if only the empty string
            run_end = run.end()
            if run_end >= length or text[run_end] not in _semver_ID_START_CHARS:
                if (run_end < length and text[run_end] in "<>"
                        and text[run_end - 1] in _semver_WS_CHARS):
                    # Only a match starting at the final whitespace can work.
                    position = run_end - 1
                else:
                    position = run_end
                    continue
        match = patterns.COMPARATOR_TRIM.match(text, position)
        if match is None:
            position += 1
            continue
        pieces.append(text[copied:position])
        pieces.append(_semver_comparator_trim_join(match))
        copied = position = match.end()
    if not pieces:
        return text
    pieces.append(text[copied:])
    return "".join(pieces)


def _semver_parse_set(text: str) -> List[_semver_Comparator]:
    """One "||" alternative to its comparators (node's Range#parseRange)."""
    patterns = _semver_re()
    # Strip build metadata so it cannot bleed into the version text.
    text = patterns.BUILD_STRIP.sub("", text)
    # `1.2.3 - 1.2.4` => `>=1.2.3 <=1.2.4`
    hyphen = patterns.HYPHEN.match(text)
    if hyphen is not None:
        text = _semver_hyphen_replace(hyphen)
    # `> 1.2.3 < 1.2.5` => `>1.2.3 <1.2.5`
    text = _semver_comparator_trim(text)
    # `~ 1.2.3` => `~1.2.3`, `^ 1.2.3` => `^1.2.3`
    text = patterns.TILDE_TRIM.sub(lambda m: m.group(1) + "~", text)
    text = patterns.CARET_TRIM.sub(lambda m: m.group(1) + "^", text)

    # Long inputs often repeat words; rewriting each distinct word once keeps
    # hostile ranges cheap without changing the result (the rewrite is pure).
    rewritten: Dict[str, str] = {}
    words = []
    for word in text.split(" "):
        done = rewritten.get(word)
        if done is None:
            done = rewritten[word] = _semver_parse_comparator(word)
        words.append(done)

    parsed: Dict[str, _semver_Comparator] = {}
    comparators = []
    for word in patterns.WS_RUN.split(" ".join(words)):
        comparator = parsed.get(word)
        if comparator is None:
            # `>=0.0.0` is the same as "*".
            plain = patterns.GTE0.sub("", JS.trim(word), count=1)
            comparator = parsed[word] = _semver_Comparator(plain)
        comparators.append(comparator)

    # One unsatisfiable comparator makes the whole alternative the null set;
    # otherwise drop duplicates (first position wins) and a redundant "*".
    by_value: Dict[str, _semver_Comparator] = {}
    for comparator in comparators:
        if comparator.value == _semver_NULL_SET_VALUE:
            return [comparator]
        by_value[comparator.value] = comparator
    if len(by_value) > 1:
        by_value.pop("", None)
    return list(by_value.values())


def _semver_parse_range(range_text: str) -> List[List[_semver_Comparator]]:
    """node-semver's `new Range(range_text)`; raises _semver_Invalid."""
    # Collapse whitespace first so the bounded regexes above are sufficient.
    raw = _semver_re().WS_RUN.sub(" ", JS.trim(range_text))
    alternatives = []
    parsed_alternatives: Dict[str, List[_semver_Comparator]] = {}
    for alternative in raw.split("||"):
        alternative = JS.trim(alternative)
        comparators = parsed_alternatives.get(alternative)
        if comparators is None:
            comparators = parsed_alternatives[alternative] = _semver_parse_set(alternative)
        if comparators:
            alternatives.append(comparators)
    if not alternatives:
        raise _semver_Invalid("invalid range")
    if len(alternatives) > 1:
        # Null-set alternatives add nothing, unless all of them are null sets;
        # a lone "*" alternative swallows all the others.
        first = alternatives[0]
        alternatives = [c for c in alternatives if c[0].value != _semver_NULL_SET_VALUE]
        if not alternatives:
            alternatives = [first]
        elif len(alternatives) > 1:
            for comparators in alternatives:
                if len(comparators) == 1 and comparators[0].value == "":
                    alternatives = [comparators]
                    break
    return alternatives


def _semver_valid_range(range_text: str) -> Optional[str]:
    """node-semver 7.8.5 `validRange(range_text)` (strict, no prereleases).

    Returns the normalised range (e.g. "^1.2" -> ">=1.2.0 <2.0.0-0"), "*"
    for a range that matches everything, or None when semver rejects it.
    """
    try:
        alternatives = _semver_parse_range(range_text)
    except _semver_Invalid:
        return None
    formatted = "||".join(
        " ".join(JS.trim(comparator.value) for comparator in comparators)
        for comparators in alternatives)
    return formatted or "*"


if TYPE_CHECKING:  # the door's result, as the type checker sees it (a plain dict at run time)
    from typing import TypedDict

    class _SemverName(TypedDict):
        name: str

    class _SemverPackagePattern(_SemverName, total=False):
        range: str  # present when the pattern names a range


def parse_package_pattern(pattern: str) -> Optional[_SemverPackagePattern]:
    """The reference's parsePackagePattern: "name" or "name@range".

    The split is at the last "@" unless that is the first character (a scoped
    name without a range).  The name is kept untrimmed but must not be blank;
    the range is JS-trimmed, must not be empty and must be a valid semver
    range.  The range is returned as written, not normalised.
    """
    split_at = pattern.rfind("@")
    has_range = split_at > 0
    name = pattern[:split_at] if has_range else pattern
    range_text = JS.trim(pattern[split_at + 1:]) if has_range else None
    if not JS.trim(name) or (has_range and not range_text):
        return None
    if range_text and _semver_valid_range(range_text) is None:
        return None
    if range_text:
        return {"name": name, "range": range_text}
    return {"name": name}


# ---------------------------------------------------------------------------
# 27. URL: validity under the WHATWG URL Standard
# ---------------------------------------------------------------------------
#
# Reproduces whether `new URL(text)` (no base URL) succeeds: the WHATWG URL
# Standard's basic URL parser as the JavaScript runtimes implement it (Node 22's
# Ada, Bun's WebKit parser), reduced to success or failure.  Covered: the
# scheme; the authority of special and non-special schemes (credentials, empty
# hosts, `\` as a separator only for special ones); `file:` hosts and drive
# letters; the port range for every scheme; IPv6 (the Standard's own parser,
# not `ipaddress`: no zone ids, no leading-zero IPv4 tails); IPv4 with hex,
# octal and short forms; opaque hosts and their forbidden code points; and
# domains through "domain to ASCII": percent-decoding, UTS #46 mapping with
# the `idna` package's table (non-transitional, no STD3 rules, no DNS length),
# NFC, Punycode, the label validity criteria, CheckJoiners (RFC 5892 ContextJ)
# and CheckBidi (RFC 5893).  Path, query and fragment never make it fail.
#
# Guarantee and test: `url_is_valid` gives the reference's answer for every
# URL of tests/data/vectors/frontmatter.json (group `url`, 513 cases, and the
# URLs of the random groups), which were recorded by running the reference
# under Bun 1.4.4 (tests/test_vectors_frontmatter.py).  Runtimes differ at the
# edges of Unicode domains: Node 20 uses an older UTS #46 table and no CheckBidi
# (ADR 0009).  Door: url_is_valid; everything else here is private.

_URL_SPECIAL_SCHEMES = frozenset(("ftp", "file", "http", "https", "ws", "wss"))
_URL_FORBIDDEN_HOST = frozenset("\x00\t\n\r #/:<>?@[\\]^|")
_URL_FORBIDDEN_DOMAIN = _URL_FORBIDDEN_HOST | frozenset("%\x7f") | frozenset(chr(c) for c in range(0x20))
_URL_C0_OR_SPACE = "".join(chr(c) for c in range(0x21))
_URL_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_URL_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_URL_PERCENT_BYTE = re.compile(rb"%([0-9A-Fa-f]{2})")
_URL_HEX = frozenset("0123456789abcdefABCDEF")
_URL_DIGITS = frozenset("0123456789")
_URL_RTL = frozenset(("R", "AL", "AN"))
_URL_BIDI_RTL_ALLOWED = frozenset(("R", "AL", "AN", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"))
_URL_BIDI_LTR_ALLOWED = frozenset(("L", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"))


def url_is_valid(text: str) -> bool:
    """Whether `new URL(text)` succeeds (the WHATWG URL parser, no base URL)."""
    text = _URL_LONE_SURROGATE.sub("\ufffd", text.encode("utf-16", "surrogatepass").decode("utf-16", "surrogatepass"))
    text = text.strip(_URL_C0_OR_SPACE).replace("\t", "").replace("\n", "").replace("\r", "")
    match = _URL_SCHEME.match(text)
    if match is None:
        return False
    scheme = match.group()[:-1].lower()
    rest = text[match.end():]
    if scheme == "file":
        return _url_file_ok(rest)
    if scheme in _URL_SPECIAL_SCHEMES:
        return _url_authority_ok(rest.lstrip("/\\"), True)
    if rest.startswith("//"):
        return _url_authority_ok(rest[2:], False)
    return True


def _url_file_ok(rest: str) -> bool:
    """file: the host between `//` and the next delimiter, unless it is a drive letter."""
    if rest[:1] not in ("/", "\\") or rest[1:2] not in ("/", "\\"):
        return True
    host = re.split(r"[/\\?#]", rest[2:], maxsplit=1)[0]
    if host == "" or (len(host) == 2 and host[0].isascii() and host[0].isalpha() and host[1] in ":|"):
        return True
    return _url_host_ok(host, True)


def _url_authority_ok(rest: str, special: bool) -> bool:
    """The authority state, host state and port state of the basic URL parser."""
    authority = re.split(r"[/\\?#]" if special else r"[/?#]", rest, maxsplit=1)[0]
    if "@" in authority:
        authority = authority.rsplit("@", 1)[1]
        if authority == "":
            return False
    host, port, inside = authority, "", False
    for index, ch in enumerate(authority):
        if ch == "[":
            inside = True
        elif ch == "]":
            inside = False
        elif ch == ":" and not inside:
            host, port = authority[:index], authority[index + 1:]
            if host == "":
                return False
            break
    if special and host == "":
        return False
    if port and (any(ch not in _URL_DIGITS for ch in port) or int(port) > 65535):
        return False
    return _url_host_ok(host, special)


def _url_host_ok(host: str, special: bool) -> bool:
    """The host parser: IPv6 in brackets, an opaque host, or a domain / IPv4 address."""
    if host.startswith("["):
        return host.endswith("]") and _url_ipv6_ok(host[1:-1])
    if not special:
        return not any(ch in _URL_FORBIDDEN_HOST for ch in host)
    raw = _URL_PERCENT_BYTE.sub(lambda m: bytes((int(m.group(1), 16),)), host.encode("utf-8"))
    ascii_domain = _url_domain_to_ascii(raw.decode("utf-8", "replace"))
    if ascii_domain is None:
        return False
    if _url_ends_in_number(ascii_domain):
        return _url_ipv4_ok(ascii_domain)
    return True


def _url_domain_to_ascii(domain: str) -> Optional[str]:
    """UTS #46 ToASCII as the URL Standard calls it; None on failure."""
    if domain.isascii() and not any(label[:4].lower() == "xn--" for label in domain.split(".")):
        result = domain.lower()
    else:
        mapped = _url_uts46_map(domain)
        if mapped is None:
            return None
        found = [_url_label_unicode(label) for label in mapped.split(".")]
        labels = [label for label in found if label is not None]
        if len(labels) != len(found) or not _url_bidi_ok(labels):
            return None
        result = ".".join(label if label.isascii() else "xn--" + label.encode("punycode").decode("ascii")
                          for label in labels)
    if result == "" or any(ch in _URL_FORBIDDEN_DOMAIN for ch in result):
        return None
    return result


def _url_uts46_map(domain: str) -> Optional[str]:
    """UTS #46 processing steps 1-2: map each code point by the table, then NFC; None if disallowed."""
    from idna import uts46data as table  # 240 kB: loaded on the first non-ASCII domain, not at start-up
    pieces = []
    for ch in domain:
        position = bisect.bisect_right(table.uts46_starts, ord(ch)) - 1
        status = chr(table.uts46_statuses[position])
        if status == "M":
            replacement = table.uts46_replacements[position]
            assert replacement is not None  # the table maps every "M" code point to text
            pieces.append(replacement)
        elif status in ("V", "D"):
            pieces.append(ch)
        elif status != "I":
            return None
    return unicodedata.normalize("NFC", "".join(pieces))


def _url_label_unicode(label: str) -> Optional[str]:
    """The Unicode form of one mapped label if it meets the validity criteria, else None."""
    if label.startswith("xn--"):
        if not label.isascii():
            return None
        try:
            label = label[4:].encode("ascii").decode("punycode")
        except (UnicodeError, ValueError, OverflowError):
            return None
        if label == "" or label.isascii() or unicodedata.normalize("NFC", label) != label:
            return None
    if label.isascii():
        return None if label.startswith("xn--") else label
    if label.startswith("xn--") or unicodedata.category(label[0]).startswith("M"):
        return None
    for index, ch in enumerate(label):
        if _url_uts46_map(ch) != ch:
            return None
        if ch in "\u200c\u200d" and not _url_joiner_ok(label, index):
            return None
    return label


def _url_joiner_ok(label: str, index: int) -> bool:
    """CheckJoiners: RFC 5892 appendix A.1 (ZWNJ) and A.2 (ZWJ)."""
    if index > 0 and unicodedata.combining(label[index - 1]) == 9:  # a virama before it
        return True
    if label[index] == "\u200d":
        return False
    before = [_url_joining_type(ch) for ch in reversed(label[:index])]
    after = [_url_joining_type(ch) for ch in label[index + 1:]]
    before = [kind for kind in before if kind != "T"][:1]
    after = [kind for kind in after if kind != "T"][:1]
    return before in (["L"], ["D"]) and after in (["R"], ["D"])


def _url_joining_type(ch: str) -> Optional[str]:
    from idna import idnadata, intranges  # imported at the first joiner, not at start-up
    for kind, ranges in idnadata.joining_types.items():
        if intranges.intranges_contain(ord(ch), ranges):
            return kind
    return None


def _url_bidi_ok(labels: List[str]) -> bool:
    """CheckBidi: in a domain with a right-to-left character, every label obeys RFC 5893's Bidi rule."""
    classes = [[unicodedata.bidirectional(ch) for ch in label] for label in labels]
    if not any(kind in _URL_RTL for kinds in classes for kind in kinds):
        return True
    return all(_url_bidi_label_ok(kinds) for kinds in classes if kinds)


def _url_bidi_label_ok(kinds: List[str]) -> bool:
    """RFC 5893 section 2, rules 1-6, over the bidi classes of one label."""
    endings: Tuple[str, ...]
    end = len(kinds)
    while end > 1 and kinds[end - 1] == "NSM":
        end -= 1
    if kinds[0] in ("R", "AL"):
        allowed, endings = _URL_BIDI_RTL_ALLOWED, ("R", "AL", "EN", "AN")
        if "EN" in kinds and "AN" in kinds:
            return False
    elif kinds[0] == "L":
        allowed, endings = _URL_BIDI_LTR_ALLOWED, ("L", "EN")
    else:
        return False
    return all(kind in allowed for kind in kinds) and kinds[end - 1] in endings


def _url_ends_in_number(domain: str) -> bool:
    parts = domain.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    last = parts[-1]
    return (last != "" and all(ch in _URL_DIGITS for ch in last)) or _url_ipv4_number(last) is not None


def _url_ipv4_number(part: str) -> Optional[int]:
    if part == "":
        return None
    radix = 10
    if part[:2] in ("0x", "0X"):
        radix, part = 16, part[2:]
    elif len(part) > 1 and part[0] == "0":
        radix, part = 8, part[1:]
    if part == "":
        return 0
    allowed = _URL_HEX if radix == 16 else frozenset("01234567") if radix == 8 else _URL_DIGITS
    if any(ch not in allowed for ch in part):
        return None
    return int(part, radix)


def _url_ipv4_ok(domain: str) -> bool:
    parts = domain.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    if len(parts) > 4:
        return False
    found = [_url_ipv4_number(part) for part in parts]
    numbers = [number for number in found if number is not None]
    if len(numbers) != len(found) or any(number > 255 for number in numbers[:-1]):
        return False
    return numbers[-1] < 256 ** (5 - len(numbers))


def _url_ipv6_ok(text: str) -> bool:
    """The URL Standard's IPv6 parser, reduced to success or failure."""
    pieces, compress, index, end = 0, False, 0, len(text)
    if text[:1] == ":":
        if text[1:2] != ":":
            return False
        index, pieces, compress = 2, 1, True
    while index < end:
        if pieces == 8:
            return False
        if text[index] == ":":
            if compress:
                return False
            index, pieces, compress = index + 1, pieces + 1, True
            continue
        length = 0
        while length < 4 and index < end and text[index] in _URL_HEX:
            index, length = index + 1, length + 1
        if index < end and text[index] == ".":
            if length == 0 or pieces > 6 or not _url_ipv6_tail_ok(text[index - length:]):
                return False
            pieces += 2
            break
        if index < end:
            if text[index] != ":":
                return False
            index += 1
            if index == end:
                return False
        pieces += 1
    return compress or pieces == 8


def _url_ipv6_tail_ok(text: str) -> bool:
    """The dotted IPv4 tail of an IPv6 address: four decimal parts, no leading zeros, each <= 255."""
    parts = text.split(".")
    if len(parts) != 4:
        return False
    for part in parts:
        if part == "" or any(ch not in _URL_DIGITS for ch in part) or (len(part) > 1 and part[0] == "0"):
            return False
        if int(part) > 255:
            return False
    return True


# ---------------------------------------------------------------------------
# 28. Collation: JavaScript's localeCompare (ICU root collation, en-US)
# ---------------------------------------------------------------------------

"""Collation engine: `a.localeCompare(b)` of Bun 1.4.5 and Node 20/22, default locale en-US.

Door: LocaleCollation (`key(text)`, a sort key whose order is localeCompare's, with equal
keys exactly where localeCompare returns 0, for Python's stable `sorted(key=...)`; and
`compare(a, b)`, the sign of a.localeCompare(b)).  Everything else here is private.

Reproduces `new Intl.Collator()` without options, which both runtimes build on ICU 78
(Unicode 17.0, UCA 17.0, CLDR 48 root collation): tertiary strength, alternate
non-ignorable, no numeric ordering, caseFirst off, normalisation on.  The weights are the
runtime's own: tools/gen_locale_collation.py reads coll/ucadata.icu out of the runtime's
executable (Bun 1.4.5 and Node 20.20.2 carry byte-identical copies) and ranks them; the
table below is that, range-encoded, zlib-compressed and in base85 (46 KB).  The algorithm
is ICU's CollationIterator: the FCD check, with NFD of the segments that fail it (Unicode 17
combining classes and decompositions from the same ICU, not Python's unicodedata); the 1,153
contractions of the root collation with discontiguous matching (UCA S2.1); Hangul syllables
as their jamo; implicit weights for unassigned code points and lone surrogates (a surrogate
pair is one character, as in JavaScript); three levels compared in turn (primary, secondary,
tertiary without the case bits).  The key is text: each level's weights, one or two
characters each, the levels joined by NUL.

Guarantee: exact for every string, on every Python, except strings holding one of the 80,992
CJK ideographs outside U+4E00..U+9FFF (Extensions A to J) or a character canonically
equivalent to one.  ICU 78 interleaves all Han ideographs by radical and stroke, a table of
22,800 runs; we rank the 21,004 ideographs of U+4E00..U+9FFF and U+FA0E..U+FA29 exactly and
order the others after them by code point, still a total order (README, "Where we differ").
Cost (bench/collation.py): the table is decoded on first use (0.1 to 0.2 s); a key is a
str.translate per level for text without combining marks or contraction pairs, so sorting
10,000 ADR paths takes about 0.1 s, and strings with marks take ICU's slower path.

Tested by tests/test_vectors_locale_compare.py against tests/data/vectors/locale-compare.json,
recorded with Bun 1.4.5 by tools/record_locale_compare.mjs (Node 20.20.2 agrees on every
case): the stable localeCompare order, ties and pairwise signs of seeded random lists from
ASCII, path-like, ULID-like, accented Latin, mixed-script, combining, astral, lone-surrogate
and ignorable alphabets; every pair of ASCII characters; and the order of every code point
of the BMP and the SMP.
"""

# BEGIN generated by tools/gen_locale_collation.py: do not edit by hand
# Source: icudt78l/coll/ucadata.icu of bun 1.4.5 (sha256 f5298e75de7c5388caeb9cf21a2fc4ad64b1796af4579b26ab6ece52489c1055),
# the same bytes as in node's ICU 78.2.0 (Unicode 17.0.0, UCA 17.0.0).
# explicit 44695, derived 2005, primaries 36432, secondaries 268, tertiaries 30, core_han 21004,
# ext_han 80992, contractions 1153, ccc 968, decompositions 2081
# 104036 bytes encoded, 36568 compressed, 45710 as base85.
_LC_TABLE = (
    "c-ri}2bfe<vN(S0-rL>N6MGn%neLt;3JQXVnN>{eu6fnnb=T~wyX&fJ&SD@9IR}v(6iFgckSHM0Ku|%FB1lq97{Khm>QtS3?"
    "ird{pKsrLzxRKB-%Qu3x+m00b?T%#@b)4P-0y$w#2v?p0K~v`YM>JwC`KoOmw@3|kKss{;TsPyTq`h#!3g^70u(UXL3~fkXS"
    "lNl!($ojlgKM02y+2md64ndk1?cB9>8J=wNZE)9$~nvEha>c3I?SNk`}Q!gAxXH7^E0v7!+B-TUr4cGH7LmlK`z5G_%rcp@S"
    "y~#I49A+}tjb@9t7OT?DR*GMt&maEid;k1(uYP|6@_5t}n8VNi!bia~}!krlk96`&!5R#rF((3(LrE4>z0@VJFZxLG=%3kn&"
    "|75E~-D7Uk@6ei8?7$gZSlVE)xWhm7hwUQctE5p~NX}#w&d|rHSxgSai?rkrzt>DB}LNlen7mDW}#n1Z@ZoXsx2{j1sbFZ}i"
    "4gelG4s;fu%O$x<!p`^iaEQKnoa_gc?9touFqF6dCnUQ56UqsXGFmC92j!j2SNICE90kYyu@c<GjZhp%TDhA*5`4<MxKkd$R"
    "#fgrko2vqTA8~6Tx8m(fa87Fy%Bs4M^V9N5^fsx)F7N&jHDML7*!+nmAGx>)<jpEDztdefH0Bb3>1?q4SoiEA3uE#%<*dKi#"
    "^;RVBoZ4Bd>#fNUZk2=hjq6Kq85|i7_sx@RaMi==N*i*MlDSCiGQG(j&sX#@Dh&eG~!pbtLdhppyjM;TkfAN$Tzy^6R#XfPW"
    "N3h_cA%FA>ORplZK?6?G|Nc{(aZJesjw26h1HhK(7#CLB$4E&k7ggi8$#tf0MJ3$4SYHpiyE3rvn%^1-wGcpUwyOq8NK+VWC"
    "hVI>@=U8*q#^%&$?rMMPbVpFc%ZA9_`F5s@vEegd0BUrsj^6w3ZDAYHoZ%}us2gOHlQ)oyopIyGV?ttRk`KxjX%|}-P6K>1x"
    "3B{S_EDyi`Ly|{lkT$zj!c;C#NWH&=@Cby*1QF2J52d{Oi1^rUm;VHV7LtUL8a<W4=i=)N4(vXM<<x{ZSb&|OjEii(RM+uV%"
    "=@G@%##%A%CIV*&$2vYF)MVt<fR3J<-XmbAZrSsC3qOy4p!$`6tN_+w6iazP~H_4pu`$Aa&%LvD#~5Zt?51n=bN$Lv@{v{k7"
    "3YGgzs|CinYYTYUutHjweqyaRt`9*2kr;l_AMqg25jc9F=V>tY?i=5i3`5D~U!7j?XsCE|r2?<65!iS|fUem4UbgK9+!$9!H"
    "eQmgi<xS=j@&WMGk0&mES$Dzemul$EVj(lXwcw%tA|eObEKBo?6VM07vJqQo5#$O*R@iFxIr1pEQqPTfnv|A<Fj_wV5MciC$"
    "{gv)5`z|=ZRs%xd0uJw5AjYEp1n!>&WhDDahug72zKn06t<!5<2uu9?;(LlCHgWD+ZZQm->8m8S80?ceLe9gI=#ow^IjZ%!@"
    "w^q@`tSE}ui)dVxk8)0~V(zdE7)p-XQMZf({Ghr1QaOqNc4&%IgF!Kanheqm>M%HxK?#ElgE9t3F{s5L#UP11BB;w)V+Kta9"
    "L+$!6){KzM5@DjmY1fk6EVbQ431&YoWZdSS}-_{K?Q@_R-DH(IDvr>Ph@ZsgF@@u$qX8Cj_Na3&fpZBe6UYXu}dR>Q_7%akO"
    "#|)ilrW_ncm@Y{Hu_+fLPBeQ~7o(gVVyq8Etr=xRJpF3?>7^j|49C873J>nBMYru)sSQT*M&5V6i<Cv<@&J#kqr!KWY!w&{)"
    "74(vket4SEqMp_d>{aTtZor*?~unyiczGKhzCEswv&@f(JYX!WCJNDJ|dPJ+`z!D8$Ml@U-_p^ilb$Uii_AeQ_X#&QYwytt8"
    ">9%xZc#7H2~OLWIA*TobG!eJLj1=~9glC{ChaG8`bC}q$bYPu?Mg_SGd6@q8{XRPu+!ovJOUFOmbf3ua%b1W>csuE}^bB7=K"
    "?QfR43=?HelwuHLP**crLZFa|&$eOew{5H#%GpzX6;{J3yIK!dYU>o>+RbCRC|Z0m#$ZB-WUpY*7!sao#a{q61dnPmpYs|9("
    "*EKMN;Q^XZt^81PFGr7A-9LP6}&JMK)g^2*pBj;m|>8oBa_rqq0}Q*gN<9wUh?^*%WX7f4bS#S9=B%v@oXwp(jt~*3vQ28GD"
    "PKBbDBIWvWTVLMXUgEmKQ&WK(PZBGtr)2R0L{>XBHzGadAnTIm5z=EzGm9c$MyCe@h*<lT^jB`=p%RUuDi0#@s5Yhp|&EY_A"
    "ryPAhAiNLT}_8gbN$#-I+i*j{F%w_8|0aG8HMacJJ`nO=p3***2dYJ`JZ4R-WT7C)n*3g6WTwRko4WyhMTCYDGw!nbiXDaf>"
    "ar_Et;m0A1YYyVaYyW7HO4VDJbS+3R43>GyrdciIWFdA?lv%=X4KM&R9>N%*Uh?CV6@$uDkg3@Y=|3M2oxf-8#BYM=r=Gts;"
    "veC`eO?5NXe6!iP(8B&?VGHae9<g+&=Y7^&B6?^^kpkiA)udFY8c5DWgKq`aHySWv!M7sBya1y(eb9?NB8NNn5_X=I`CVJR&"
    "Z>Kx&}Z}nqsG-_0gjW3qj_$JeL|L1((LP<0pk4@Y+snp44D;;ybB|!!{W&~g9X-^49;S3HiOm-e$C)F41UYt9M+4^W$Zi#7X"
    "}NtJMI@Ld664hLvt=*aDG4(DXG7o<L2Z7eBU!@$tfzJKm=43?jB?pR`e~RzG3(D6OhOyZ6hJ8vL5Lw310e4!~>T!jpzD89!F"
    "W==E++4zCvsK>?idxD{7I~Jizri;4y|j(o#tt$M8<RS>&E0TKGhPH_D`PFtFmV*0ToYJZsF4u%CKHfk2-&sK?+)izstkQA4h"
    "?BD>4*wg|GVfE;gWCUMJ)L@dgHb0vdo82p97jSOyLa0`Rm7~Ia_4hDBJxQoF(4DMxcAA<)NJjmc71`ji6!{8AHcdN~-PNE9U"
    "eULewE44OG;G8~SZ;CmU44-tZNt0x|FlaCpya-YbiIF^Oa7SR%8Yk{&(7k}%==FfBhb_fHV{6UnXtRLj@{%lqGE2p(WvUCMP"
    "D8FWs+%}3=Xszfc%|9&M9~b3&H9&F1}iWDd~R}<N~ot-_$^~?NaY(H(pEub7l#DuY=P9Cb9gF-oYt`-C<*u`pPxP{bumLZa-"
    "{S00JAT(y@yP1>QLD-?K|bcXJkt^Fe`Id{~e{Fj!aoaBv@P5<yByTQa9}f$y(8~z=f`5@{L>=)ObMp%>I5_CG5;$M4EYSxGv"
    "m7X0GDJ;{ZMwwLVcLmPk<0O*l?3hoff9=_2WO71&K+cY!?w_7vDlU~hqa1ojo!Phfw60|X8f_=LbgMsQf`B~>X{Gp=cl1*Wl"
    "J!S42~MtYXjMJmi>28*dVf6JH!Pbo=RQ}sYsZfzz`4Q=osdbK6|q>G)+-)`sdFNy4}ZLzUcR)DW!^m+!9LlZqeywafS*$nZa"
    "1@&0ay=pPBkzOSTxWeGg_*)@^nukb(JkUZJnJC0o{zEyUwE+fKNO^G6h)D~1Qfh3lz##&M3LGYIxWEwtM+zLpu}a^4L2E3tB"
    "r6+4z&*qb!qqJSU=Xd;mH~V%HRJr5!R6{}3t%<kVqU1bgu$gu{5^v|F!7HZ?lJ~{VsM4)76G(>f;6}kz`P-92vvy_53~By2P"
    "~_R<cO5u^fp-EQG>k_+%C(K&?e8DdV_pdcQ7JNWk>Lv7<3i%YF1?;Y9vc2QRN1M+FE-zL*#wWV67-Dm0FuIA5+^QAt#I9g91"
    "lr*}!Z+VC{t5s3$H8d?-PFW9<^u;P^iSYnCtZ^p{jug2mbuvbW<}y-<RFD}HY<n;Gb5iBP+`)+WsZ$aYGE#G_o1e`W9w2DdV"
    "}n!$ApZU}||=PIUL%iww=g#N~qzcctJgU1*=&Y**|!;S*m32ZO0t-zZZ+|P}0noy?;oWb3+cODOs#isB3-1nuM%QrvJyz=-P"
    "t-#6{?m=j~2w3n#Bp4~AoSmuGu9pbU0;8DOgRvPgqDCT8%K@Ww+j|hRWxzw}k`tPP2p2u&>$^__kE$bO2WE&gn*Fj%xcEqG-"
    "Sq-%(@@UB{L0c6&SG$!)!0NvXDfGz1!H3|Pi&A!w-%RaOo>k5Zywi$tBa3y5LX>DaNR&iyQf2<H6(IaQz3Atm3QRD#T>sbt@"
    "rt(tglZr=Bi-P2j5B9t^yax5c1AQtt8A8j<RJ9<NIhN7$r>2OVk=eGT3x<?S0yss)ZpXv>zx+mn#7AGfgp2+d^sJa}rVvw1W"
    "3Lz--c*og2sOE|KV*=LOD^a~wxm4N-dbWg;d=0Y`GUihFAmSaS*K2h`+qd3?-QgE;w3aYl-QzD1np+VxowNFf~!56I-FBPLa"
    "3B}L`=H>u4gO#MnGs-qFcNa71!&r5C#rYD{hUp2YA>Tu063VMIH$n<fecK@qJ8q;fvDsM5<Th6w!b|YtPvy3qBN)sGCOmx^G"
    "M@!`h+wUFCtf9`~d8#bI3-6D6hS3Jhc5Nm~gNax}Kn;$?vpRQ<HS~ohRK7~jXGuZfuq}cg)ZLZ5Ty`TXH*1@+oIHc`G3+imr"
    "Y9Nv;SL<!4=1HHj@2`6xM_UAC5x%+2~m<8UyO+<Gp#+e)k*kdz;cXrJSwTbS~)&d5&e8fG>61VG-p(^$0m^Y4X*)Jk+Zi+>u"
    "ko=eBgdAs)P4KFi}AAD9QN25pZ}pN$}ONz**n+^r2ZV4Kmw2&@ZcYF{#NIXU|jfH9OC!^Y|w~;&@2>3KG1>;~oQv^H`HQiVN"
    "lPY?<793^%Iv#~9}G!<jftriRPur8~Jy%w$z(tWMB~FE+AD)<8Ia!JrxJ)g57t%OzF20_6(xCyTkyjpC&xcRvd2#2K9F)Aaf"
    "q)$Y-HmrTVvMhbZ7F^8<>nBr)AEKlfVV10rcxx0yy;ALa?d`Mitu7DT!6iBpWS5rtdW7nOKxQjRBvP!BN+=I*1QUcX~3$7*1"
    "wabI6#|KG$>}>V<TY;I%M}yJb$6kt@k7&UyW_SyGnQS~QbN>q9y+yK6KKFbMK1I}m9v2E%O9d_yxLn{0fhz^B68N&fmqb&&k"
    "Cl@B_j8GUjIbfX_ZCASXTcA;PoBw(>8W&bB*{I3m2@!u?GywhO8j7RCykxF^tea{gI9%_*95K>xJKYwf$Idm!h_v7UiNnvW0"
    "ltCdaDBoUS6W{S{5nlg5!PfD*1txsMb6eE|gxqHEQh+(h6oYV0w*w>`^GXYN4opQEu3@(0T{UGY_KNBVsJb753>JW_IsYb%O"
    "IIcfxmajY7F>g?$V$Vg|Wv;Qys>hl1Eo@=0-~UD?W0;2v!19xux02Exe_VRR%ItZ9X;Mg6ceq@Ax@YL5)2%Z0Rho1Z8DPZs|"
    "%T>QnZUJ^s412!%IX|hosuFVp7w;1<_Bsbu1qfGt+VMAJmUk%w3i)UlYK1!HpEo4;}AZAVb@(j_0E6TRTpOvLZwgUzQENF{3"
    "kI8J?gz;*M-QIIZXFK;8H0h0Y)0VV)LAH~SJiGI9A#o2RXfu_@y(>6imq(e|ucbn|uaR-S1p}Fnd;w-L41En1^!L_j%wh<4$"
    "@js!{PLjjio{D<DUjlOQ@q||9m<San<pLJY$azO+)P?)Jq6aXdV#f&USv(D&dGLgHD=|_KE|43P5tMaQwB=>^t+Nj54@7;e>"
    "6!Wb<8U9{<S`&5c$a<{y*yT=kj^4bp}bmiNTqBIjt1oO>I(Xo`Ih%u_D!UtN%8iKbOyYtrg}9eU2pDdL!1crjPaJbR{~}zU*"
    "Db+jThMAeHPq?9Jrua-h?Tu7d?U{!WGs7&K=Eqyd9E!Il;nNn&K5D5tV0APSu;J4*=;E|JB9nM#TAlEd3g0)ARTGIks?D$%+"
    "#c@eJ5g4ECWX({A@-WE$)oYga!$x*Xl=S)q^o)U>WM&M|MV@890ZS5)+oR?cmzw3ZG8}tZoBhbnosrwyjTjC`W9Q4UTeag>9"
    "O&&r-3Dkv@lIWiRKBD6tIH^}rQZ^RurMSPPMfLY3l`W#y{FQSbG4)x@Q}N{hT5h&|R|0(}@^tV=V0KcXK@BVrg|)}$*a)07z"
    "-wQKjDPhLo%K&8B)G11<41vWnFu-IZ?;dtT3KD{%t$yK9V+lmJCZmL@nV9vVkUoO?Il8#L2j1RvoaVt9J^*Vq<M)kh-cxYx)"
    "g+%>sH-P{ukjwm>XWu4e3D9Yy+NW#rbQ-lD_I7pUGVwcON<ue4fdrwKTr-c3g1CqsTfWnKZLJvjSaOb)7O+2=Gk(Kv2bHdY|"
    "OpjSP;Wt`)C|EsPxb1)yh<85RPVf&2ylZ$-I1pC`J$2*YgaR+|KF7Py6`eZkIZJ<)J6>JK;RJ4X82&?77|c8XwMEX(sB$sQ;"
    "jo5$Yy^wm6rm(yvpWHJ8<DfuxF+JC}ie$QZ-y{9x;@6KaHi}{`;?D=ap4W{65D*hqIWwXu#@~o}Zl584sK{eWX#L~0#4$)8j"
    "fQk8#Et-OV!I}Zpc`2=iZBcRSW{WdvaW4VR)yERE#F@0zb-`}4^uUNd(h}|s#n}!X+jp8{R=9{YiM_-M@UVT7t%jAQn!)B!3"
    "<umUV5L}WhrHdA$ro8Cm}7?=YqksD5Nlb?>DAL(=D?J>T@}lwCdqwoeZi@tz}{dLNHSRFj{Fv&1J+e;1;D#pt!{C!PI!`9x}"
    "!t#SQ36bxESW_6u3*^ZeBj?^^y!&vqA}Br+e>F-utJ{O$$^wbmTSV^>rNYuHY`-<66CEOi{S|uF<Q79<Ljcw5*F<zD9W|$DT"
    "~<53Uw#PBVb@n`Iy2*6@_YD}=;FkhqYSrb>8W<M(ugh0lWWxeYMtWPPhfJZsIWzSYcRhL&#$2)Bx?+$!*Gf$s?1Ch%Q>+Xe0"
    "r_@2^2l+apxosojr5ZlX^(Dr*}iK~t5fzsYYgvD?4a94vG@E##fs3O5x9_tEH<d7hYJ>m0EwoDEp-GKvKVc4%5wL)?{HM4Dd"
    "%nl7BsHPtLBf|zf)2(NA&OE4cH&d<oC%8H=$G@|VrWBa|8H~~1DUiUHbUDwR+HMP}i&&taOMmJ0h}DaxgC!~k+H<UhE(cyr?"
    "ThSR#DfubVu7^?7G!u%D8rbwDeBxoAyhHC5INjZ%ppRf>=2(h!5)8YtB;>#lr?1eW4S{3)NfhMXl2D(Q%m>o74&gMX6-gO6C"
    "1|hCu3Q|nMLf#e<GI9aWt#H>OG=@!+EVPK~_O?5OjG})+-J!my432!-hFkk1|BKjV5h*FqO9^JFbyawC!Y#d(i#7zc}qu#-|"
    "cI0$}^!MTWnp57+2}g>q%C4TBOsAtbk`u3;cY-ha;^5v;34R0sZLEv0}Pf?NcQ@mfmE5V20z($T6MIR?~sxE$P)R-$^gFAXY"
    "Ch#lRyJPzgZQca&a)~q38O(kr_MI_lZRv#{~!kuWTY4%m8w1wqbXIokX$2CGxH?x$8>#dc`h{ck9Rlc!xy!%pXG10zhZfli#"
    "3Op*Vu1{m%NZrVHl79=CkSJ=%SOs6QmU~$(m{^C2DSZJu!)kd2CsV;o2^Gw2MMzB6)8A4|tl-ma6|7TLaC#X&<W^e^0}*DeS"
    "YMwg<4!Jj2TMbD#VZ&j^=;F#kUb3fCbkypFm^G6=Ik@BV@dHcZi2ZlmC+}hL`+AM;v^JttTfAp9G%DJa3Y+Wvn=99xuwwCW!"
    "N2b;ilw5emVP2^TGNwvl1rG5|Q?%Z#4$lGo5Fj%Ddib8}=D(X?>OYUZ}*^A%{7BB8R8NGjK{hK+L`zX|<~LU>lnf{qzgpI=X"
    "m)#n5HeQLhG8o4rck*9qS$NLm>wwW8h{u_gnpt6oYBb*}ti`%PIg0(<>R4w=cpk$0t%GTH(`iWfpsJZPtwSjrQo1YaXk#P{W"
    "b;Y5LQE2xIX68hGPx%lPkJ2|P)g-AU{Om+3`QW;26e2_C0x-fe^*H#gO3ave)bc?1_;Y>VPM;4e_P%}m0txRs3msinR&4R*{"
    ")Cl}47v}ZHX)X_aPejFlkg{h)t{cFw<mTgcL^xXPOMFaM-7C06a>6S=*Kkvl(z=YXQU;<kwA4Z%OzbM-v!5f4!4IvW&5*0}D"
    "<gV@_Ct5!&e1oxeK9Vf=3mz#T2B-;^+Bvjxy^$Qt(6+@PNzJTsX!{L>{OTf(V4Z#vY8SXf=aUcDVEEOC=C>#H?!PYE-Ey|ih"
    "ms6u0+agQaITr4s92UeE|Cwpt)wgfVA(8?c}tB(WhIng5+T)R_F0`XdDuGppD}c!U^?iqmn5xBg)pR0yoL@1pF+kg?b6mvsN"
    "`@YVewDTb`R3QEaH;TDd%SF#=O$zW$6l#LE0dSh9Avms41zn2TE;yDT;Ha9>5~*9WuT5bG$PMFKvW+oz{zWL-@Vbzr1iWm(9"
    "xa(AXjQ~G>PKff@@uUu!J778sF9?V3dqZIeLsAY6#g-Ex4q962^96Z7K^t*aGdz3?*!*-Nve8%T`hFmVommX(xXnSx-q@{v)"
    ";*95U8PEDBL%E5Yj~Hi6*#lTsNn<4z(Z{(^i^r{$gi3R$6o*Pns4{AeyV}bTcq4<SMCQ#FxYXxy^a4iDVo=IJv<XS*dImQ$X"
    "a*?{v-%9TEU$k)6c04EYtDvZk`UO5KFsG?L_;?J<oqBrh9Bh+Mq9Zf(N17{fgJ>Pboub7SRtttawnIKh%}J9KjKSJ@!Ul`cN"
    "N%8V0SmLY+@NADZ-45&H;a8TP(Eh?YQ52#|fcbr3iupo~jXd<-?Fz^)O40j=Xs5RXzZIHw>A2yMqLO-4)8JP<Ums;AIZuE~k"
    "rYZ8)A1h*3uBaGirX6C_6Bh~*U1&j^2powBDs<ss$^C09eX1+-SqMfZG|15j{}Mza$7`W&why89o7(#@=hd7WJ-{>+2o=SBR"
    "z=t5~Hv9QxmVjKAg$2RN{>nPVyAwT&DZ!vATpYc)#AIrkd$Oo8fU~+Q?q83gQ>dEK_#o+`QrrylwF#R~E-YXA4aUbMx9vd#B"
    "yUh7~;L!`sb{likUfzaft3EmK<Na3YRWJ~)G7QE@k<JliYZgOq%KcCrGzOJ)H_5$JrZ@U_Hf7jbOc~}g+W((Q3HK9>cEGQ0V"
    "C#@5oy9*=JBCo7zjilv5<7-apY0@eH(|Sk&>Rli(|qj~LUZ|RUxRiEp;7kS*M#k5Q0&PntdeE->2Xp<Opjf`@L9ad<B~Fzl}"
    "z#I3%U7=A3}}a_YMiYLqgM+9YJX96AJ7UG|8YV8%~7#SuO>mxyLRD$g4yLH<Xo3Aug4hzxW~4_<iq?&^shFec2I&MlOBfGHi"
    "*cE7|cvmR=Bbda`|^dT9=?s>m${ZzAfEZFM7|qa?TU61Ba?<_3pq-5Ton4AfR)*gHWjQWHxz^WIpz>UnrQ`Id#>sC6((4(iG"
    "|fQVLF-1vW38Q`@};9JwO(XS7T)(Q>*G~*MS9vw61bNO<-KgxjB8%?aQfM1}lSvU>U&NZE+J%`uh<&x0TG<~T6*hIGle#CM<"
    "72H~R06$_XNgS;v{}qZ@2Ue{v0Y$DNxE^MjT?jmO;im|@d?<>sD+)z%cI7}(9=md(sDNGhP*lXOLMW0n(B&(dx8Y&P+4L|(3"
    "3BJl*@EasgT9UEW`k}+bgMzPBl?a(-$V3WgYH6fhe7usy3?TVKMb+mjQTFK;X?FHn*srEn&JiQX-XvEP*Y+7lbR9__|%lVfK"
    "^Q?2)NahqJUvdDYkf~vho9--M0{3`zY&yZ#)Xo*Tuaa-EWHfEp%@X_a=026!#W%Zx;94=-w*sZRmbS+}j_8*t_iZ);+3<Yjp"
    "^PAa#X$0Rsw+1Ux7-7O<hvc)*E5^8#iRS`hG~(4v4Pg%%sGDA&H>>T7BQ?MX!8kFIyJKIZ=rB9Q4Ee?SLAm_&r}A;JnGEDaI"
    "9B*JGQLg$W1=-AN^#u8ynh_HYNb3=r;i122Ju!{&gLWFOL@KuN~gY>GYm4-l?vcDumc%KNnLxi!Nh>uPoK8P?kM0kY=D?@~y"
    "osrP3vmwkO!mJQsJrQ0H5h}YNp?#N7nW8%~AVe5RK8A$|(}?g~i0~p2<_iJdYY#j{s9;daAZZbsGbmwDN6#setllJ9jE94_v"
    ";s6_(8>xY0a`O?W~J9c2T$|*M>sMGw>g4SAQd8))6HeJ!^GwcN*L5(kYbQwP-F#fX$5G=pp_L)0<>n(%u26?4qm`)ha;14dk"
    "g-XguXhDmUX}ZO1LfAHK8*d#{#@kgXdFU)4utM08iH9ae5q$*Eqn<uge4WQ?yQZC(agW<EtLPKvD<JQR5(O&VALCqxtBeZ0R"
    "13pTp5x0PGao86)VHO&x%C&3VV?yJL96XddB|kv+7$i9!OFlLLqOZglnL41m7J@!0$-;dL>mvZ&whcxL$xUb6JRI3hgVz6k?"
    "16idpdsHy+#8i!xx_!|}s-5?o+>AyltV%^X&MKq<(f7FYQ37WZjykOmc=kyWt%>`}hEW)O4JT_KDlNGF?KZ#Y;oNOkfwCyfg"
    "FmEgKi?;;!vDcW+u&`bB$IW5|QZHvNcdd=0{*i2kt7Y5dT{|jma(}nL-k!GRWHyBnKF+zG;_-&U--9_@LMCB9-BR4)vB=L1="
    "T&3h?x)8Y``M}gS7Rqv^X>1|*ypOw0$l3fQWEihQ~mu^ULrq}vub>Le}P0TNF;fGeYG6D`1W^Jh<X;5)%IXbYcqO-zPK+|M&"
    "8yI(&a?PfX5lm7W#tTzZ`hicO7F~gmg(Bh5Gj~KITnZY&8PwD<=e7SuwL~HE{r2npZ2XYqS+Mdq>PZn)2st-?CZ+ze|hdaPS"
    "gqBd)~Sy1to*G&*w=$3cX)59z9U(Z2xpz4@PT6Dt;6zn`AuHLxOcfI=0&$4ZjNgSW@}SJ*_Y_>5QqViw3)rfu`ASR#5COl{8"
    "eL4G9AGoYV|5KF&_kY&d|=q&;7uqPejJmP-QO)ey@mLn!_NZ)!HLPzWAV7VNzUnBIV!`9fzpKOVYlw(#~CERv71+!Jsc@sjG"
    "`>B&^OJzUwwhg!J(8II9-C%ZDk<STH(^%=5fT(>~V2VUP)HbufFlwRWWZP|_&&S9XOQsHpx9(A^*=-J6S;Iu17T8rR7rZPx*"
    "7HL<yr|o)5G~|mB-f{{nK`oWG$G0Gotj)xvKuLf<rYf~56zQ9bh6cWmOcgV@e?$RW*EFx-#SX(*bUp%k@)4b`Dke#y@fo(vy"
    "$Hj7TQ0T(YNxbJ1C*cEt)^Ck}U0$D~l5(wA$ZPCg2phKOtmETe5UCW2Z7UR>IB`M%(e8KD;7X9UZrF)j7t;?K|g4iNv$zRti"
    "LNb5E5+{L1Gil5PjP9;A{!lGMKki*<=&jtGV+!o)n^Vj>eN4HNc8#$J@7oh)TIO~P*RvZbU;rIH!|R>h`5OJK})t-={9zTc9"
    "RzZ7^EgEhk6O_o6NxIo40M-pRmM!%I9CkXirVLr-mc+|>UD+c$;N3fVHvatIsEK{|H$cjRzmBQ~;R<VkVJ(0nmElGW(^-Z_p"
    "i!47a7&K!bjqwf(E7hed)hlJw(vsO{SnQl^@pwFgTdfh}R0ew_d|!!G_sr%NmnkdgVDURg{9Z2|46LAyt(@Iz)$*o@#cs-Cc"
    "Mn(}^XwjywEPxZXA2uxK=<YDaqFz1l<I4FR`ip^b3H41@q4l5b+~WkOq$u(QdE^-RqO*6R$`Uv%~rInvx}*W<tfj~c0+4`e@"
    "arG=2?CxM681QTQ+4v;+p~1$5oz%{>@7CItFjsex&FJN}83f^>x3XQzV@$L@<c&zVi9|9IF-IXUPdI$4afkrBZk!?M5;$k}b"
    "0(R!!Hjv?Coso)x>6uu|2NV^*`3_CCkADy%zL<@9-um7F9l=V)Yv>gieW>KOKWRu>n8sJd+mrwcs0h`+TD--@rd3#}rU<JvH"
    "0vAiCv48^UoTqYlXV<l5Bt7w;ypV+C0bo}14gos4n6S66^NxK?E?2n9EUoWzHr>z(ZCzo1S1FMKKmUygV#Uh=#A_$&N0Cdr3"
    "O!_>kbE0iyyWv%vb@zv#9&{)51G<O`>K(|wqNzUd5NmboA7J%ukz63_BT3BmbHmpOA)oi(A7cG@v7W~s5O`4FR|3Bl_>I7C<"
    "rIueTKhi+!3%arxYkaeO@MRFxgQ!c)=C}zAj)K=6!)iVB!V@R*&{f!v$~49zUh9R7cHZY)-?X`SmcmzY|k2u{R;2j1R!L}Jo"
    "JqZ>+@4EfkikQL_(Hv4$nMcQ816u>8!{WEvQqHz{L#eo-$W~(@>ROk4l+de0{g_?7o4;n3AKsAL^Ie2KRCG0gA$qhLaVGRO>"
    "U&1>iv#6OdEQH?KM%DOkiDw&&*Q=Rv|)oQwD{!1BpAH3Z9&zW^(+p32GLaPg4Tfhy1F6f#TsY=}$CC)%wa-$$D@eT?g5Al6A"
    ")63QYN>5slyH}Qh&|M99uw`gTLWI@eXxeYyMVs2JmZXMmtvy5KIqYfu<Tk0tCO%}=K34B3JYA+Ccu4j283>)c-f)4O_>VA|p"
    "yO&20jx`~}H6iQio;<MUS;qW5G2gGnarl9NFdt1g(%0oi%o@*nlQL4}g~~8-hj`uR88Y4Q4PFokE>YO=MFOJzpjy%*=5g>DV"
    "m*JDWPTu6D;*^!EfYhGkF0*G*B;u<lNX^zx(s^=e6az;`2sIyaH04fE{{xoGgKTM1)jj*%ccy!l82)@)o0l68JR_$$e^YhzI"
    "cA3b-7%I9|_QqCq|8Us@9N+*IMVzTLjjFLWW+X1LW~*EH_wBbLN>M@&fDkN9f{HvC!#{MgY%}UH`bbsWiF2%=6>cSRLcm6f<"
    "gtvK_0Qp_-0Gn=`NzipGBUqc>&;6XA&vVJH!v3=u{WVOWSTng}C8gr|rwDnuAZgr`G<NkkYQB1|U2#1LT`5uOVXW)NX&i10i"
    "SriTc#i7+!nm_vkFLhyBNY5kyA7eiDz{<;cL<@#V1qRRQ_RfsD0`>POD34Bt8s7hg96{0GMJynRRG<H=XsuI~=g{VqpTNR=z"
    "nYXJDRq1T0LR2NRDO>74B5}MBW13GYkT3B6Bkb8Y15d2&${wO&4|{<NNreV!A~SJbFam#q{r_1=m_N%9W{{7mAs_qSLc+&y8"
    "NzE6<mFJ1u1k>6X^A0>qd1-p#ZgH<+J}6+_dF8beclk}twO>Js|;b+lQ<^sz@MO1Ekwf1g@&+VG7^?fHiXfGkuYMgA#7QS%J"
    "@e73C?zG#8kf8Xi^zI0D}w}V1kStj)XD84Pg)Qu`|TSm)nu>*>*$N^eRTW;Z+mq_T}i~o#n>I*He&>15*qivv*Klb{HQcS70"
    "2&R+u>U%|^oB*@iHCH4<j7HiX_EAfd+xAs-tl(v2q4aW7CcykLBMI~Do(YO3L58<qOjP^qsc#$FFGwu0hV8j52dPB6T^9Zek"
    "H6X6>nz?OABAC=vH1jDiA3}3pO56!>)sUIA6i|8Y1ZVZZ|?21EC4!iQ8D3@IYP?XQEA}A_kS1}YN_&D2|JgC4SuHrM^Hg-SE"
    "`L8%lS1hh*z_1@=;-{nr&vys&xT4ak3#+`i7|}$x916c@&CvY{;n(6mfbgKWKSTJrxIaa>U)&!f{6yRzAlxVJ-3a%HdndwO;"
    "-=@Tw~PB7gxkcu72(_B-i&aIxHlr)#O{a=i{BC(P$TW>D!PxNsSxE>VOuw#xj4ubwqrMR(ptv%bLEXl)H3o#%g7fkL&2x(F<"
    "c<e_U$NOxJ}@ge1@A!7*4vF;TsJZewtwTOihOKCdo<eclU|osZ$wtl{WwvO8f179>ZY+#beip84kXg;gX9OJ~>o83>+?wH)}"
    "AQd53g`t@5GE58@akiS_?G!#R`X!?3YZ0Hbq-;hPwKcppQ_--QgeoFQM2WOzVAza+(W1A_^-Gwd@;l3D+iPH&GmM)J#x?x@|"
    "~zwQ;q;>roS?9c5Lhwp>M;>y*rM0<|lH7&OrI-=b*)`hUH8tX(@XN`3vtWsm`3G1M-wuH6Q*bl=I`%xBC-S5y5`(7}w2l>Rg"
    "cJC2k0vL{%;Dwl4G{A?7+UksmcP3;iJ;*HO8!;}TFZxPSdEHQAz34(kFS;ayB4KtHoS?DtSQfe)MVh#p!^p+dk}5=XrdpnFE"
    "ek#7>hU!UPv5J}XiUu}l58iZX10XNSZ6I`$rL2(2TTMEN_un=!ksY5h0MNM3W*$8;zId}kailTX3|=~gnoQE);|i${|xEckU"
    "mA>$V>T6kZG!X{)%q{(D8E$^A`Tlp})u<q5NpboC=vgA$~-P4U?4r4Klx0iFvi5JO<_0C?t9<l$Ss{7t(!9x+;uc7s|U3ttZ"
    "9XqaU9q^171`411wU%S%9cH~RFFB<`I=k(K{}xjz@u=Ro=xD335+4(W>_9fk5YB|2Y4jtL^UKr!TBsqm{Ha}?vpA~+)D>a6&"
    "l!s|fhSsh1jbY#we^0<jNs%Yr%JV>9U9HZomtG-;Mn2lbjT<5E}TSGd*)DsjHYi4OsB+a>G&sASMRU49}vMPa(3*l)fKZ8s8"
    "PpTk(r8q(A70R!V310x|&6LVC#jmQIbUz{t)dh;Bg|Ri|!l(u11L*4l^|hhOej~`#gz_Sl0x^kQ=2BJHW5N{^X#(k1RM(+af"
    "hB%H&?=$|Ih}KrW6CUGq(IRM87WrHgp0*JM(5K#4Ki_#4zp9J3kid!kAw0C3W*k*W<H#9ZBi{TU&cxYh!iVs6>Sr7;&L(9Rb"
    "Eem@(iSlbp7~DZKR9BW4t~y(LlvikHd41`a{q-xos6wYbkFZ?txKe082QZ>a_e~jv2#a%1Q3M*d4KSiy<>A+z-8Sm3leXT!l"
    "gkA(O`+Bap68r9vM|)yHPKS4HY6d@jW{SUL!K;~XgRXlXBz3M~r$78GMrdCRE0QKcY$G<$BMJRi+IxeegQ`4-n{A?%S9Py}U"
    "8Q|;>loh`yIW26i+*q)0S$%9M^(!b?AG>1%M$ovk{Euo^6W5Skttcr%ax{G*{3%RCp)ire;uu}svr|1HRwA4t2ZgGD7L%XSu"
    "4R2)?Y39`vS`aZxsSA}br4Tis{8-fxq(!@QAxy=E^~9}cmI#oDieUp`bEIzSa3GI_hH71<)F`QtYpL&-ahJ#q$qjdUUmOy@U"
    "n(QuH|U6dtFf;L`&wfM2s@~;F9`cmW1kWBxyC*vY`?}nChQZ9eMs0x8v6hpv3-JhDs|Ve!vruKF~KuTF(G33VnWQY#)P=xjt"
    "O~&K_(O!9+^;N*knR+h*MQEeu&erg!OMN0)#mIN?1Q=5h5W@pPPpo1!~(Bi)3g%2U2V!gkHVa&v$aYH+`VKyhr@p0GZ(~PoY"
    "q;&-CIWuGrU7U0n{)#bx)#Tpl^s<uJa1ad&$hDh5kz>pw=vONETQlt53yzyfUls9Y=ebQCwc(%fL5L;AuaFkO`P!zXZ0b=Ph"
    "|UKh#4ZaXIRu5j2r2I+1wcCSJDYN2DMGi{B#Vy8qj1Kra(8*XQ$b&|oU6jH}QW{|4~qs(duQ(T-cWTuLH9lF;_eBWX(`X*xB"
    "d-?pfi;8^aSs9nFgUq$;ssj~6`PFN0GZxF42JL})>jehKnRX`R8`-QF;03rl4ZG(TTz#$*9b8J7;5uOpv%s>+#jvRtg^Gh@4"
    "Jm#frJ=9eLPow1!<ro~+58=3E)GUKFtxoPhy4idZpt;^y637u8l_JVv<q*Zgw*Zitz7f1D~Hr5eR}79NX&VVYXqmB0X{vSgT"
    "Im&G;ELRdodUs+d{=X27L;Hk2L+jqqdGSoXj~a_(mIa!@WVG(X$VshLX<Q%*C`4qh2M&_a2JY9a4P6@fM-~12Q;2R*i8HF)9"
    "rc=bq^gg#J3x-w^sJOmwst&@0{ubw`}**ADqtZk&gwHwt|x(sv1cI>s}@3+NSL`fO>mdvOl(KDPsZRtz#*D>1T3I04B_?84)"
    "T`!$j>3q%Y&<Ix*@DQ-3?wu0j0Ah!fdsPFx{rF(ZO?lSM{IG&<b*u?a^Nz#yeP`{Q^qWWtmS>21Yu0sC{R7fEqxR_noIM+)-"
    "FGSdqou??Bi_$+IGIu~`hj4lyWX6g-`Vf6j=P8(n!XR@$DcC9q#&I%aZV&o<g~$(|+SahHRg1+N-W3#McQZ%W+Sm?~+Zr-wb"
    "1bc);vwDfYCplE!K;iw#ngu&vF(0Nmqb>ddjs6voD0!qgJn2df{y4*8e2rzVvQ{%>_v^uCv1Vn<`OnfV=oXkM`N=Ho2{{#=!"
    "iWpn74E=k2)(X0vL{%;2EZv5HWl)A!b-(Lfml2ggnC_6ABEEOeivJGNCxcsVW&i#OV@YeVIjo5T{Fo^~Dw;65@1;u)e?|#6z"
    "4e5!UBegn|&KOPF=Tsj9VTh|@*Fdcf%ueXu)>0UmA^9e*ak?q7r3_G#!D2iQd?j=hrsX3<gOcp6~acCf5{`-i-7lMC9|?fKR"
    "wtn5xr9WRbK6j4v?SM9#kk9{71&?kgV#cKC~z&uvM7(Sw<$i$DlYw6;Ume?ZhsR*Zuy9>hZ;{L*g#OLxv_ilvmiyOsLVwbo#"
    "B795SJrMR3_j8!m6tU{l7GXPaW8ZmzUH^c@P5j=(&Nj^Uq=%T@73jAnt&H9LlP`P}SMeFX=yR)u+1Fc+uI6e;UbR<WQit^!s"
    "RpwzUR`Nn3&BD!tA?4R#=@p8LYNz1&gp@1zNfV*>Umuy1Ru6?=^%r$p9Hs=(~4>p$zv<riI9P+z50dKp*p&~P)(7RS=ch$>r"
    "@-P$HMHZawk?(sCLz)Ev%V^-BL}t-N(ynF<u@!Ums*kIF|ra-Yn;xo)$P(&eR_?br&|{{8#Is{zKsA)Cc%T?%7RiXJ@;_!Vd"
    "Uhl#E*ycNPm0bp2S|(E2Cecj_gl#|Fzus)_!gcC5&RMkSljP!_{N*29W%=Ar0hC2POWbaWSwW;-kHsEDyJHY(yK4Bd4N9g1H"
    "Q`m0ELjp@+EuE-VelXF#2O?wy&RjxON3-qWgR=isO<O^a2)m<#hNrVo4pJjb}+~NUCuNm{u6#Qn)Lxb!c{9j&ttNuD$VF&|m"
    "*)K?Y*bavn)Wjm00G3(rDT2Npu`+i7AHa~a9VLv}lC`^C2~U9)q_q`YGlSv$rH33Q{G_cN#dtyW)7I@|D1F(^^emUpd<d$yt"
    "wz|9-C<S86VxQwgdBwJ${kAlD4WmK<g<Q2tS`3g4y9e6h1MCe5L+Kgqf18#HXIrr+bbnsaxL*k2%d^o_!bHDnZVbiutdQPYR"
    "fLeSM0+2&bRLz+h0dpVcj0o&ua&~D;La&Sk?cPMEI?=P|*~Kt8mQQZLUV>`_eYKw`-wK+Ht(?SJPcywR2K4FA+K$yW<dPRFk"
    "_+g&6G0@Cc#6DxTm#H@AvxS7lNcN}WckNS1+{8Y8x|o|guEK+by3aINRC9?_yh9o}1YB<qO9Axqokf#$eFKMb*n93E=Yy^fO"
    "?zvX4pd16I>7Q$!_z({41JD*M5`+<Gu0&`-}w&U;f5kmwy)``IrjLwSRnphVl?Z^s^AyLFOtdu);Gh_V3v-Q?SYk)yhLr<yZ"
    "kQITca>jWmJ!w&cm6~ztb?d;g_Co!Fz+&x~s~y2xv%*||iS6|x*%(3xx$^0(7q~&-TVnk6RSEw>jO|swM7Is|XruadV9P=K="
    "$#)g+asSZgz|PIz!OqVms-z6Mh<Jj+Yeq=$g^y#=2;fdLq?h~wyoOqdnY&aFq^O5#irw&n;z!;lR;K`dU~xqNHXCy`$1^iaI"
    ")O89i){DF(5nX3hM!qN32Os%6dqo;*i%Ikco+M47I<+bFJmc1cAl?`^Ap<RY7x%7pen)^nS|R>-iM*tM~D-*ijP2i*G_TkCY"
    "T;d#fa?b^4U$rFFJvMdYQ>y^@tlSK4nu-ouQ|mV??G^&Ql)D}|!R+-F^r<QV|{q|Tk!ja(q~jo=lDGGpnz*YCuj=6(F8)Ovd"
    "P)rka8Y8-eDtcOavPtiAL<u>RHV+%N!8dD9ntu@YLcsk!*ensvs%X78;%B|P=uCU7LNb7i~ey}6gYF72Ky}@EXh)^T+US}Yn"
    "{$LpcJ<^!9@PebG&5coT^CV={V4gC77LspL(_Qp?&>bGpCNISjr^5D#w$VX+?T|{_Bk+JUijgs~Xc|@8vKkBeVK(aWJVTyA8"
    "47G)qzf62^>N}cc?-px0ho0X-{-iQffV#kU5(CMd7Opnk@~^2SdX**T#Dlcz5D3503dPD@wYU^?`)Z=JC9xG26GEq!1jX=-n"
    "k0VbCCXS#AS_Dbk}@ZK*v#)wNh*wp{H|eu&Xg762aF(NYHac&hJ!<xq=I`HfK9#?5UVJwr3remchLXmUp}%S>0+MyembjP%1"
    "R96GQ28mN}U7<(tzF|M71Ps`(bH=37oR-`2p-jC4_T0o|V&X{4HO&8_lvEi7hXg%;Mlnr}U;%S1^v-wLYv=2!Er1y6&5OB{#"
    "w>5?t)J7x7e;oO;E(f0F-{G4#6X*J%C8Rw+W_K*h||0#w>x>r{+w_3Tdt0H2hH6HuXI8U415Btlvu=r2zJh@gWJ>%)q7O2M6"
    "jH>|X%5;@Yh%O$~>}pmQGu>rzzZ=rK^EoGSXZkabZa<{;=Xn9SGkqnVK1lB?@t`|1Q0N1YK2YfB&P<c|ry_lt#E))IF13<7G"
    "fw;<?={DXA9Q=;f;%T^ZJFC#-;wg1h+$jvM#<Tb;WISu<&fFNTlMZct`&b~g2!9!!#qfz%wA4{G#~wOFH}d7c#|akhQ#nX!l"
    "4qw5DYb3V)(|TvmVMzO*%}G=BMq`&Dhlx($ge{sR+N8Etjv*{Vm&-Rc^M)=GK7p6!HBW!h_=b0EaA>HQ#h8d#Qz7h;LLU<$!"
    "^UA3F=RBf>Ivru6X`I*L#!&WQl&yV-dUq_1YzHITlNT~|SRlI%VWuzU^_DxGoYCT{E)>3i9EU)XPd`A(ZYkFoP{NOu(~j%w-"
    "7;(i#?WAtVh!Zz%D5YkTzbu7Y%*!d4g&lKwO2uFx}B*J0h#+gO>=D_zf*$TtyN_qw#-yu8m=~?0%HNW(w?7RfhgT*(hhv}i>"
    "8zn({fK<ppEWphY5|x4UQgJUsxJ2A9A>@ZE+~Xh}G|se05He_%?kRC&f%lL)>51@wL~)Qdsm1*z&@rMk+j2`^!Esy;>8m(~^"
    "D*NR1GR}x;-;3+QQTDP5*Y$HIB+f<x+xddo)({D5%v-{PUJ1#a@ZM%^jRFknUuM5Y4!8P=K`0{#-Otvq}jf+dldDLa!$W|xA"
    ";VztbDDw*P(m0xYwZje0E+yCvGy_cFU#2UT{$`RkCoZW1NG@qqv=G63%T(8aaOnTsNk)>!!eUOW;Bvfk_DUmXq43tkvu*?mp"
    ";7p^_A#Qge^EF*{+QRda#}P82Z74ic7ZLRN~qBf8&^uqaxRTg1H?;ZTVO#Y}Rz#Diicc|8aH3nXu3*A0-ICgD)HB<F}5%O?3"
    "X-!dcNlKj@?ILLh+hrBi%+Y||hA}2Xp+_MlKlsFD>d@7FV$oDi50gmn&ynso4DLGi^*lUtQg^s-@IY8pUUXwhYqdyLkY@!mI"
    "U9!7`!yb|BDdDb!WHEb4K=KOyemNws;;-jJa)U(r7DmcL0=CKIMk(G+NZKIox6qvv_z=Gc&f*BpBv#7!WLHhB{z7hOWkck={"
    "ZP#Llj6qaRdzl{Z~>H^%`OZrym(~Fzf8t=uQgjYJR7_#*mXI0SF!6#@URiZr4e~Qiu*H!C$sY;h+o963n6|nyM71pH^e74nf"
    "T}8#@-W8va=?{k7idBh&N+bQ;1I!pV&y^>%@)yEIvitC^_P#?5qXx;X*|j60gNh{McEjC{5yJ>`XztQm8nR#P4S3JrKW|UDr"
    "VTN_JtkC-HzyBT2~To$R^`;sfP7jw$hO;>Ly%zn7i&g+uk1?>MH!A7dxZ&ElPf{4m7Fh!Y2rcpG*;2=S+diUUdfA$I-);xmP"
    "c14(>@xN#tf4-+>IB=MWsc?ra42^9y7_@%mr<C}$wgF$?$xN$IuFA+Bm2Jz$Bc^t&0Wh5ZpL&^^&Yy5!tMX4YELfk0z<HdpR"
    "7VN5vyh%8!t4`vk8tN!+suzhOj`<cU%Jq0Jaid(fQqKu|rvj^-^W{5A^LSl$)<aOqI@{4uxLZ7+6f9gTZfszMtHq5%yzqQ>U"
    "I2wn*!6=8`P*bi8e4z<kK(4)@HfQ$dT5s$BTh^cH@4u!I&otni79$#8{rypzl=KJB&`=Bly!4DXOx(r^>2i$#C-!K_^LC#e9"
    "XH}Sl9{Py(VMnIf09JQ!wWx=d<eqDB)LyaAd(ThFv!Wu3NMV(@X1vWoyy>h74n*IJ_iuQXG~Eo!pCszKH!OI%xx+3;i>6e<^"
    "fw?-%-~?5AAHF1<zuPa0X*g|x_BLf?t*JwhixuL=EC4qGl4n$mAe{9DnzP2wlFKBKjn{RI3NZSY!lT^H6dCx|LSC36%D%_AY"
    "*h+VB9eHy#Yfb{9?IuDZTWT03}gQrMZEWzYULdQ}|E)zPr7Ylt6`zezWOnxqO<TClC(8;}D=%2EmGAY628j<f<I>~i15Ml`?"
    "cL^O!Fu6zQ<mWY^zsh0Dqy&?1OZ-@B$!!upxwi;?Gy4hnxt9l+`yhEOyRL)e)$F<kk`rVo!xBs$#pBbFkZi=RR**c6U1vb@b"
    "apikOVexFbzN9mPXHs$UlBL<n)oVlV@mO^#!upIZu<8?;%atX1BojG7r%UnX(g`J4@qf%k3vF@JJ1Xu(OKMTOuw>FPE<Nqs%"
    "tZw`^Xf0G_Tfq+lhr_Fiv@-`Wy|(TB<ZW9s+sX5~Q>7NP}W!2&IuxWGQ)`X2hx2gi(>GUK#3Qm{2Fyk31PCwP&mXOeJ}Nsym"
    "O`458<#YW1)xsgQ-Id(=qA!>xzacz4i_$YT;ESCGgxJZ$Pj1l9cB!=AYn&{GrYt5{OTVU}W+kDMk1;Rc#;)OxOEb_J!Tp^I!"
    "hw?b*$ia~029SwujW;zB8s;?$y^;MGX$5BaN@-{Prl@e1wRtt39;K-ir8Y+p$x#8)O5EN|BQu-tjaQs)*Mfk&zY!fi`u+j%4"
    "Ab*isA|dfm;O{|&NQ_JPlXxVxcNiGf|G}z)X8jUKUTPReHGxox6?NGIU<zAM5h>o4jOr4)oCj#(702jgk3iQ|=ocX-609?5C"
    "K5`0)=V5^Ekc)GXKA?7Aay(LY}#@sBj~*Ixy6;5u!If|JjabjsG=fNu|ZZax{KA`{oSSEvU1^#WsO2NWl=CBt8vy+G(V`c_c"
    "B7*Lwz0fnV@z>y%}yiKW!v4dCm!{@oa@iEqY3mm(sjIsVR~?O~)<{1h+>sucYY$g6aflPSwoz+$<OX)YoZ7E_@@Xu&`6IAzx"
    "`kDK+`jUyTq+UTI?9%H3yOsAFDh(5>9pLJg~j8KOL%TS=-o+^h}NHln*jUO|=81-d09O)ne54cioLuTU&QSUJ`Wj@ln-x4K5"
    "T-$_uKA+`=hq^i@jHYID;1e~ibp)31r71H#r9#*?h4WU$vYjSD!D8sc(CNW>bLV2bs?#%&1G=aa!1VwI1eGdePnrUc$Xl^sm"
    "$fb!~Wt#c3nIn}<4!|s0TCPiH{AneqQmt+A%>|&f6~X+49%NSV%1sNtc7)UM3@t$Q!T%1dE%>MzsWl&3@A*_{*Kn-2=%q9t)"
    "uuAkv2Z?|IgKg!?N+sf)P(T@$ZX&xFIj7%EU8#{!KubpgRUGxdiEd)vp0%pod-iGT1A>X1ggfIL(5gPp!6x74BIsb7+dage3"
    "Dnn3$163ky4-*`Kl5s2|jA@f$TUO$!qBgWVdO&EYs&R`6~U$g}S->C7(X=*7~aP;Gf$3I*lJsCg-X2-kf7zpFf1!N>klnyn_"
    "vrw#!E|Yw@k$Jw8AE6le4`xtQ$p4rM+A!Q#B*Cbo<=$j)hRI_d8_@FDr~f&*kH@-Beb+Zzb{wtNrSd??_r*DxsL{e!2qoh6@"
    "bC5Xv{*CfnunExmPd1ZB4zSxM8#|1~0=ob}qW+~aJvTgD90}R&+Ohbw+Xpt(X03Uz7CJ~hBUsP~fmQ#SAwZ4h5n;5%=v0E6s"
    "jj`JpyPdJyRkoh$1J>@OSIu6SS7n>!@Ea@kw`w*apk9>}4)3$NZza`yEB%>qCasMr&%)|d^R3~}PVeW1%lnz(3Vvp|;%dI7s"
    "`*w_&9~!!W_t0T$&0<^T47<lN2L#$f<Ad#B6|++iY0~ZI4sFQMsla$5jrh&zaw<oN!uWFT65hX^tVK4lN%*;65Taj?A_F@_Y"
    "Rb<G*)`#NI8i2246QIF_8!zD<2`}HVOi(*$ELr3g20S;jv=+O(L(1@QsC69%Ov=V+<wK;u^;0oskV&#h%!3IlHi{E!)<>0xa"
    "U5R>TcCOl;1egh3q!DFzt^MON^ZR)B^KT3O*FKx+ogtn^yw;5E2`gd>x1bGt}0=q`oTMc^uVA%3P<+?yho6^1`zSvxJY45?O"
    "Frf*9uW2v?^=OQb3ODjM_%bsh>3eegz<64o;jB-4iQRP`(q_!8xST<K|-o9AKZDyFzzmqmJSdN&!DP|(&@$YZ@kOGZb#9twY"
    "hrk>@7@ot@T|kU4?kMc(esYenT|Zz$AaS-F644DytXU>PRw+Y7bxu%*k`nz*4uZ4ENe)+2W061w$kX2vRl<o;5@W?g-d7Dqz"
    "QT|N#$px*&JjFjHe?Hte18zW0d0CDB?cr@VnDJ?3`nNLfMl6<{-;a~NT$SqWQq+)mW6bK;~5-lLK>SW5q^mYF^|vhmdX1}uF"
    "7^w8%6P$XvS{}?+3)VA#xHF+uB}WolBZ1Z&-XLhx88$oN#Mk=#r$><{PC4<yxU#3wu%2p+7?+SFZ4^xsK0<4D6r}e$8#Cj|("
    "nfS3bbb#m~~YytF#oi;bI1F#?~9BfCEIB4#1bOC|N&sB@EKTlBg4=*7qB#E%d2>DKq@95Ld3T8gb*xxY5mwax@jc0-31v6`M"
    "2e5T6>)fN-P-m{XRADI88^)+N{o%mMoeq*H^Bv=eE;8&8*lY`^w>V)2R$OIX>jqx$t47kmk1!o>ne{N5gJm>8t)?29ad_|=E"
    "VJ@Dg*H-A27>dcqLfAJ|mip>hm+kt^1d}~7qfEE>=$(S;at;sakwyS-jskN!*WAg7TNWu1i_`|_xln8X_j=9cvVDylK9-K$v"
    "go&3j_4kISdM@qmrafWSfSq0I*Knd91H54BgXix%ZL1y;QY;vVuXWlhJ=5F^5&!O_b&!F=LF@Q&L<C3?}_9Abf!HGY67JQV$"
    "=kb0ns7^`1NdV9;JMwvkteJB7Ped3p{@|qT}eaZ7qOLd~kDf$o#ZhMq9XxC>)eh9_Di)xC`QL>P9~3{%ftuq{yUg21*A;)CY"
    "F}!qIXIe-yf(689K%Pl~Wu7$IF;iulNI5xX%c{Ya$B$D)zf(cVM)xm%zQ;2S}eFxSJ}6qNSoL-}q$gv&hUd#Zf|u|Q9qL}03"
    "*r=r*LaOF4C8oDZtdOB!04|RFn{Z=R)AXlpg`cT@G8E6Kj@*Sh7!FdyP|2&o+4Vi&9T2WUcMxoULM`1<(2D@Y5`4E_z#z96u"
    "t$PLcpGaVFn%>-_>j)J6j#VzV!cW?8uUtnSu-6UON0l>}NSqrbhWMeq^xm&eWWw{(A@{60^gfpd;cHA0$bP@^KlUbA48pIR@"
    "ztLklub)s19M8)Q#N+pV^Qk#rRRY}AkuqMAHN2cVddFUAQR-|@osre@fCR;Xr;%+ci>@uUh#Vpf)r7g=Uk?|NRCFx*Bfo+#!"
    "CU;ZIb6lBJwbZ{Y;3#jL%q<iMdMJYT_XQT+r{H#96G#G4499%hr<BThLqek@8xck#<UYV@)ocDbF3gA4PtT;6u~7px&>-WVf"
    "6dya^pK=iGU{!oIg5t%<EugV-TA=d@!i-Xq*z_=!e1%{mw^cVZfI({$!Z<nskC;GD>l&7YpjF^$7eF>LO;#rnN|-)S1c7!C;"
    "w7D>jtyrOTSN*n$7LB6{2iT1Jd6=^gp&_`Vqah>(O4|?#W+>ADLbs?ydU1K+)H#{!S_Q+8D7;H+5CHkv^3ZWL%Wr+-%>IEol"
    "a=l+B(T+JAvs!LzZ1;Gm+)s@*f`qmD%ljS=X?=;~7!vv|#lZRK7%G<^_M?wW=%(B~#ul@=BR~zt3$TbAHqQ_L3CvF6-xH@Xh"
    "#&t?@Ztwp>_5TF&y9t7IhnLXEf?JcKcC9Oqg;{8Nra4;$6Yny6ijYfdM3C8@XVyZO@!>D7aS6Rqb^WSFa)gS1X(IFGQ}?Q+y"
    "E=dmQO9UOk;`#SixbclOE{XdB3GjZqnWJa=zYH!2LUyyJTzDA+hV_AUhviiONqd%YK?5bOU|iLsYUt8nirpp1CkIbE?h5Y6V"
    "XTj*uR`*zVa=E%ZQF{U8FpaZwXHX7^wq(-Ta(#@6RxFi5&<X??!?Ke=m@c8&u%yr)D(4(Pj5B|PdncXDcXDDW9+#3TT>t#t!"
    "$33?#o1&LlRUR}gMo-aC^OZsBIQ8#^%q|`YNP?^9loxm(HS3+PJV49Xr!8%reg*p%<!tDeS+54CsK)i%nh9P3T&Rr|lk`Bt{"
    "^m%k66E%aJB<OoX4Jc9`ZM?A9)pg?s*t=_`1+<eF@!owL+*&9hUwPH7DzvL$*z^{Wr$(6WVx^`d<%4w+UuTT3CRX8K89h*)B"
    "qrn8Zu-rT7Y94b^}-t%r_rrJa24_bo~Q|y37+gA?Bk_UCWB%;BYQ>eaP<{qA^l{C94sBUEm*gvZndzwZ0WwSxk`Bmx2U*xtI"
    "3V9If6pg660(`KLYv!pz06k>pQt3?kHtnu6p&-{T3%II5TlbrG`o>gBWuBF}-maJzV<OC-z^-MerLg7nyuv`q=YfqcruEZS1"
    "skzWZ(hQ;vw&$JSpL+g2lvv$f6s@`;+&iSi0SR;G>(bfB9#no^^sAa;VW^FZ%#PnS4flTz0YIyy7$E1k|lfiKFfMDh2^q|jY"
    "gN_5Fd!lb;Suu^k9P5XRqlH__xlxu568*V1cuzBRss?>4j)sMKkH%yb`5^mb9>@3Htuz8z``N^50X{?cKIkzkDx#l6k;5u+m"
    "_vH$l2cgGWfrm<(RmS<@n>x(1+)b7@Q&&<t(dMZA%zzMI$n<qKU&wp}3uoae(we3pzE#r{wr|VeBCG52x<@V0Pop*q=C=@Gq"
    "H7Y$3yRL=*CSlkXh|YJ#)((Td%iL!sBhW-knOY^F+|L9yolrE<*JSZe5F!mT~r|+k6x{;i>R)7#g)h1D&dTfjhiBXEXuf_O|"
    "Hw_z*(XnkygxpFk5CtZ_tHo*KsON1Q@NBNl+x*SB(G()ljYxJ{Z%zp_tWLywD@u$oI>Wzn|S}?)Mrlb>FF+2Ek>`+Sn~glwp"
    "JVTlEapv3tE#Pe<KRpQ1=fiI|JCk7wW{fR|da;(c57@mA?6!)6F`TVt#hY?H1sX*y(^on7a;^;;Q{S|#!}p|sKSXY=&cQ@N7"
    "*Ii*G|X%_aJC@MEI9{{%m@lR%jL|`VEZsk^OO`(U1t+b7Dr!)4e(0UjtS@Z5S$`*ri>^9w78wD{D#8Jl@@ylJ+d(LCgUWQ{D"
    "hF{q_*l^}4wHD@&%7R}$_rOo6!scKTg)xx5%<i!HUPx{2uPFY%rzH@lZou)<XXOpxw=qe2j&sjA;53H(lRH+Cd3Z~t7*AYjM"
    "2uLiD#Cpt!d@z5syf}SJqhyrU_N{3opR0ec>U5_JE`bSm~0%GUVts)x2SXtJqyz~l8rya)ViK)t}REh7mTz4xheeYEd93dEO"
    "QY)gTqBTxn+F`zl{^Inv7=fZ@h?mxK43|wR|0{zAJrk?lMVl+cH^}iCDM0LkYTpl>^cDi<qaF<>g{+O(MMTDr)7078WxLWU_"
    "2$-difRRtaT^QQ|yAxGl2A{)Nl6jfv%=sm&!v0d|0%`-p-%<m6MhrV5$amPWcqf;;a87Vs@o2eq;ha}Q@hPTAQCU$U=n)nc*"
    "bvp8F1#jL2c9g9K!gtfM1GG^p*)Xe5|mdwtaj-LwA&kT|T*pCjP`UwqLqreas@o-=Klf-A5i>1?YQ5h;RGr1V|wEMV^dfaEH"
    "A$J}r(+_j7=a<8O!87##24K2->?Z}F-h1c&lUaeEoQJT*l91>-4_o~+1xC4Qs(g9suD@1XAS410qey5eDuYN9z37{wL3`@2u"
    "?b@G@BNyiEZ~+X^7sM<he;q3XztYD-=&xu1FZTDCwE!UacGnp@>_5Z(8k89%lLD9ni0mbwC_FI*osO9N9IfDHaL&Rg{uF15z"
    "scazIhi|Rd2)1e0Cd?_shsO1}XbRC`Fb`kO};NyI2wb@eW=<{TLxF;e1NP^B%1duAsht7fu%A#y$p4B<U$+_wN|P#&=}26Mf"
    "U;juvH!1g5ZK!3gM^;YGAULN~-hWL}2%11(sHo&oYL!lKXzEyZJIu~_VIxcm)OyDc&1@y!@3=U-v>&!fz&--<q7t$97bh%yf"
    "GEG>B!OvMbY-=_8saaxKY2hku=<T$xQ>!7l9I%?`GFzN5nG3Uf)03GiS)t<|iWUwAay@)I<FPMW~yQ3Zw!?1(TU=@7Ke6f=A"
    "ESa{s7!{W}E`QlUU!t|KZYpJ~#d$_zA183UzzG5;GMv}}qsT>#cHAUA-0l&$SK#{sKM=T2;D-V~;-VctMpi5qoX#0~ZKu@eh"
    "kAFopDY2-JDnx%z7u&GL>qZ@tZ+XywMYrT(cn(?u#85^<Zk5*sj*HuTuKwL1eOCTR;$##3Zr4I>?)4$rR97hPr~nhOwtyny3"
    ";;F3SiO?7y&I5AiXJaKd`Q4;|O?bN7`SpStOBf#Q|0av4Wt-R~Xq83CzF5^n;9H`$RWdW1v`Hy@tV`c%$JyV-qG4SimYU_OO"
    "JQ6D(EAlbZ#`u&WuJi!1{{viW<uW!^>%;WP@Y@5G8#ot%krj+rc#xly#_w;4LL$?JS4ZQ^@|>sNT@m1Hcq-OI7B#oJ<YTd{y"
    "@v@I=}{skQy@MDLX;5O!Wsa*$~{f8*GuD=K92!i{4Ys~80VLrE)xRLC1!l#34)OM@^8rS={q1P9~%1k6McUh!VHS|RfR|5+U"
    "^+4_Kz$=v3td)rIa(W;fI0RGaSmRa{K4keef(gAPrxP+P#!I;8E#C?DI$wP@hIFYCM9$XQ8?fOF6y~1#2OnptU{J~+X%U+<C"
    "}B{CL5e|!L6H@_r4^tdgH~2J3DBBBGb_CoI(S*=3{Qy(hdJI`0C`L;P<`xbEQp!hF`}isfmei0ra6LR9LFtnocO&s4B*V=v;"
    ")A$I&yI)@sYeXd>?NY*5!i<4X`*PC_-hvR*M(;)bp|Etj+z04kj0<6^m#SRRhVhdEk`QWRimqW2Fpl%6*_O2Fgd+N2dK_3I8"
    "*;NHQXYIa=0|$D*%e+=IRf`nXmZJ5yV$%=zC}Uv$(*PIy%?C}oheh|L+4FsQ>I#UR6=$O_)l3eb>2D=VA?Xw9IRm0k-SJkD%"
    "~Ba?8OBmW0V8`SF8FU9<SsZoO(WOXsSYQR_E(jbSfvhtR_@WA-|_mvu`F;9UO|B-S6#po~1@qfRJ1!XurdokOM^QRZ=f4Heq"
    "fLH&2U6d^Ft8J>{g%&Kv!vDR}`=#6eQrf?i_AjOVOKJa7+P{?cFQxrIR@!ZSeQ+~D3h?J*($~}X+7kLEo3Yp&*N<P9g)IBZE"
    "o#ra&h3R>%g*r9Ycg~ww4pA`&@<Upk_{qLsedOIF($Xsm*#Rpmp~)>E@*z}!eKzn34M!jX$0Zo%&Etm<};^p+E|I{3x%G(N$"
    "7@rD$wx}xkM&R6>(BAPUC3CYA`0x);Im7gnudFUrP9w68@!x|3^!>t~R0Ixp9EDMP|PT(HcJo!?6^;qXR!DI}UAJs$*uyp*u"
    "(KP&#x<q1c@3mZRUh?*g|d;vn0Ovo?p$=RcZ5PhhF6y=lJ_bA@$QsnpulJUMs>k6#(&(~Pnm+{LvH*KG%Dvvj2&KG{Sz75!;"
    ")zH6mtz5X#8%nKpv`D|a#b4`;|`%@#}&ycWvBw9I|N;Xz~xo_P=K7H@;N#7lw&Da^C_k+xfBF({FPb;#6qL5He%%R>Aqbr8$"
    "iY;Qa#~FhJof#(6_q>^1lXDsd(wf<jK9*znn_RCK8!IX9FF^q5OW|h>i}<R49uqSR@^mcWIP<LQ?QhCu+S3@Eqa#hRN|)jqN"
    "rhkCm`j#9RHic80FnU_Eg3SLsqnXA25iM%`;>1<HlvisSVqf<;F~c@BH_N1W4HWHu(m9uZ8cq@pKwX>X~9%Ibr8$DlMX!4Ls"
    "4G%l*OLIoWcm7zR;&NB7BO3PR&n~Cs^p^IXXfxP(Nh#-7a)2a%*D;+-)|hi<<@q;hm2Kej@Nwf%|#qbi-6RbpBg#*Lvju2dC"
    "+HJ`?!4z%K-T$swnb#|<c2VbV?6uEMlpZ@X_|miyg{jADm`{q)8a)KVPgm{*`)zaHp;YX|l>`i~wi>*Qy9R!Kg7;accz+0N8"
    "8x3H0r&CmL*)Y10o!IVjB8A{tZ^l}u+&AFX`_q!X{2l%oZoiwS>XIx0?O_I`^EbuvjQv^O6yn{st$mVvJHt@xx!2?Hq>G0%R"
    "gf|A59pSz2S;EthrhLrhDLJD*LQY1N^6~NBh+c@^dqsJ_zQ5cbnJC_eHkGS(u6j_+<7;^9(bp0x&z{A4g!5P`YXd3jEQiY<z"
    "XAR1tH;kwDS+)j4OKnl>+uYVEjudHA)AqvrVM_=pso06%x}zUTPw{hBQMu5D6s6ZY?WIK+g!%))CQo`rTDgPkSRhJAWHMbXI"
    "#eDx&H?KDWb~{;TzPWUJ7Kui?Z=E&*$9ev_U=htI*UTiGey2TO}3Z{_3i+6X*a8ul|=AKTQ3BF^==^$awaeqK}^l{1gt;?$q"
    "@yS4Z(Lnx7Qme`m8JS-Tm2UT^syVD|*{x|BptFBb=ueI$hbs*FA47Xgs*2DgX}dkAQ#KrX#J&={ht9~DdLk3zJ|<NUZ!_s1d"
    "HP24@v-9y~H(cMejebL=V-2KtrPuv61JwV)p(EWtC2c!E*aSweQVnfJ{Vyo-psAgi}c4Sr0d;JfPv#UMoPCMFj<HdHJ(+*pI"
    "@ed)wAR-LtU<i|lFg`?BL4>6t!k0w&EJWzs5eXeT8p2p2j0q7I5MgeJ@D>r?3=wt_VMmDYEfKy75oVyKR6MoP5S9^PNr>=15"
    "q5_NV>=NaokDyNVQz@<3K3R@2tDaN*>0T;fllxj&k7ON6XEp`p%R-{ar-WzG9@#|144w6<YQQfFpUV$g$OSaVZJ6{`}gKhW@"
    "c4N%U#?~EXqCau_^JHo-%H$-qiK!-4^wAx}411bU(kcT45=SqVZMmx8{t=8)0>rm|~F8T4V(Wui!<?3Jy@g^UDg>d?Z{rKx+"
    "ogEGAm$;I+9kSA<e8lGmDisMzkQFZ8ZJ#TzcWAB2h>@}Sdu9^Lw@U~A6gk_Tm7jJK^QvBz;?R4`z>vXHch%^8$1sKY=e1Q~6"
    "DG#tF86`&!5R#rF(z^|oX=ELc=(81H3`EX<$&h6nr=`gXPgW|EYi@3WY98AW6uy21Rib~Js{~PNUhDd$x#X5UN-XiFY6}m|3"
    "d;-@0c%R+qg(G$cMS`kzF^iMUV+)yGT>1V^bibkQgI3(m6ztNOw~*2?XfN&qP|=UWdPDKc4@h3;D{fU|TPX3qhxCrp#3mpew"
    "ULUkf}aN&oI_Ns){kOM!O^1PL5`jbtFGaP3S&6gPwmTv3}!g>1ih#AHF-SXLF##F$DiVav3o9u?34?s&f@+d4yhlx@Vt&l-}"
    "oq`*FDPSh6^CI)u6sd_MlR)BjpY8fMJP=JT8J)^T^0r$`2^;jaY?j0~Nh^O6TD$tKwlujpiDNqS{k|bv>RkIGcFxNalQ*=bV"
    "1{@eat01$8w8vCK^1uTre&f3F*KVeeQhEsvsCAGct|4x@6Gcm9Sv0PZPifGu@-31P-IO!HX%W|h1iMGIGSQ)8bz#|EED(;ZP"
    ";p1ydIJ{+MYq;n>Ur+G~nekl)jzy|G@C||~1%doGk$Bj6K;q;4yej>vsPGPv`5{8R@$8d|ZLKsnx;WmkIuYQj5iy92q-^#Gh"
    "aSS`iQrw2ito}K)oA5sWWr?7d%)y_M-aY#?hBGFLhhdtB{?{=4TB3e-h<xaIi|`^{RFe2yGWCLfBC)G10!&7YGlQD9_rsznc"
    "<Zs_d9M#*trG_+Z`*Vqysh*jgncv7y?3S|w0j@jKkPMx9~WTo?-rOihId5wkdB7%$_8|=+z|4y9D@&8ZsM5K2S1LdAG$j9)Y"
    "m?%j$4m`{6d_iE&R#@cL>mde7ZHT3Fn&oi^27Z*<uy;8akIvuNcr_>u5e3*z$P>Ta?e%ola54{^)YlUFhd1bq^s2r~8+p(wD"
    "CeYt!u&^imjCr?`)7OE&XqjqP%PotSP;A*h8i7n6HFf$8O`<h+(_5sn`&_W6=8#aNGLxEN!sKXNvNOhjD`FitE=RsO*&KO%S"
    "s`RLT;Sa6)$e{r0)I3sYJ?{nL};1;YKMz23PyK8{+NzE9}TAdiGyoJs&;7nbPAGR;YN$fl1+P2*F9XH>p3r;<B<T<YAY&;p9"
    "O(z#S&n`m`lb0dIZ$_h!Gkp;fW-M}hVi)s~At&b+XX|{Vy*=MO!g+#RgUF@qkT`x5rwp8}bCG&*E+*l&a>m~Z&V*a@oi1~b*"
    "maH@L5Yq6!f}h8Cz2RA8F${i44n0sHF74tfS)G4fUzBzO)<=NyV4VwP7XL3a1zMtX*zIy$Ni)8)ilJup5~T0Zd8BBb(Rx##W"
    "eRwO{(kc#IEG*dKr8Nb@aRlF)QWM!rA;J^1bEBi0gb;0?zj(2V94E%%ie93!M7kl$Vgd8^O8ZWT)47jI{T7x3S~LoZr*v<lO"
    "8!g^kJKDrTF4)2x=`)^RQb=b}c$Py(Fdn1k(%3Mfv+IQ}X0JK-s}xn`q=LsyTS31i#=;9%{3HxjWaqbO$u&h9Q4a8H*=q2o4"
    "ju&Dlcl;SYrd@uribs(>pt=#JzEVx&3KyzLjitMi>*Q%i|CU_*(Fm{<}Q1&MgB_EuED3wJDoHC@G?+nCZ8bB+ZrNm`Ra87AJ"
    "S;7o7!1B*=+}~5iP6y|4a89q|xPPGHX;4g_rEwguQ#e6Wnm9*+(-`9{)0r)Dmi9tl%X+yO`zg-IQ@|N<N`{<wfpcd^QsJE4p"
    "J93R{v3ZAUE{bhrwE+FJl)8GY+&C0E?*OIO|0!qI}_XdnHinl(UeoJ^(7tA(|Y<z)N_`$CobB%k5F5DvK@XN+74?%iX}qPV~"
    "eO!sFVH7b#T7qbbzx|L8P4H!8z^%?LSB#v?JxL{u2GKp&!XY4%H{N<uvA{nR695SN3qJt(AgPE9SUo>ef?}LU+e_x=}+sh8h"
    "pbc;{Sju15dIJGH<m&7-VhAEVl<qtmQG%<laF{eD6}enV%=8Q^R_qqb^)7`B%4&2aqi?Qm$V%clo8KVAgR4;Pg<IO;p&+_aO"
    "%9#=r!Z8|DJ&W!gUSBI~yQ*zZ`f~pfK?Qg+?xdjQoCV|r&+t2&pOn;jKzYQam-$I}SzgUbB^<RQN*nzMSy64dc)Qp^$Uqs@r"
    "MMVBJefc}~JhHBIJoQBPZju6+P=T*XI8H<?`J>TOl<Mz?*D;D8Ux%P=obC)+hoqtF;9_UvT6Aq%3+=)Acr}&HYIW7jiTf%OM"
    "><D<(-4d91_$$wai51pT}Un8J;UjX{;>l*)|xU~51hJJQ1$q9=Mfw#oue>@E2tu{svZG~YBMSs&R<cOEJIl9bjL4HIn8%2!8"
    "VN~EZw?wsY#$1!ANmx=iGp#<EW2dufdQDQKxmLEXJRl<0!1uKV67)%N@6#(;A$!TcQ?B1<)knGy><y5>=DZ>yC1+1m~)>Y7n"
    "_pB-jdmMelBsd>(_MX~Bj0RCUWyadV!;^1_DK`vo}L**Tj;<!myVtRw`A=xCIxeZd{z%)cYg8QTXvJl%&n0T=WrRX)Wz6dhJ"
    "&QB0L-)In{nFqgvDJVASH<oqy|s%a{Qrk3tg%^`mzX>uu%R`CDzcII(b6zBe~s?%rAoY@$5gmVD5#C<y|MkS~*iE+uMi6%Gk"
    "dUG|JxI~S~%`Z30u+Oj#tE|Jmud;*eASej3ufq-_;=(GTApX8@_4l1VOcIm)b3Y%Z`+d5rtE;P?s;)lFoHloUUs9uS3jM{n>"
    "h9OKx?^4H>&~+01z|V6#neM-k;~(<9R*3}_+*WAdqX|^a)a5vS%({3Ii~cc$4Gmr+WiBX5QHg<&HiE1%EN3e?P<^GSbBx&k4"
    "xxx&0S_w1=4J;z=ZXnbge^!?Im(8Xp^UKIdw%S){A@%vc&bBFWRroN4UeBe-uLYmv1=@FC;0wdpL%$*YC=g!E1a!WICarEi#"
    "o?;<kI`-I`mj8Tu-A4SUsI?rXEY337c7X|q>G@_n-4g+1#f3@Z{Py50QFnpf^If5A}R%8MShRLb1rd+7rgdt+}mdCnBZO;AV"
    "cuD~3^6M;EchI!&fbk7Z`0==i!(TZ+l<Q3dzQWuOG+?T7zC(J5jzZyzmVriD-<eAAi`Eua)oTjD}h@_KpE;k3`bxg;cBC&m1"
    "yp}0L;@d7WrSYWcA8#QSGCH`(?2=LBCUYv*&<qPMHhW_Q=95@64o#C|34<pRlPCX&ZZIo41)JW&hMU9TBWaFcj6aFeE|=Q?u"
    "55BNH@Qj2#)f8cYw3!uF$-hY`ng`zV>%4S%(*|KxBofUe1!GUKl>R(K29ANJhhqaf4<-B!)UhmmscCy>%Nu}&-zFe4aIHs#5"
    "3P9pZ^LP{OU$+pldbwm8n8Iz5BbQIr9o;I<MR-N>)k_!cX&iRK<k9TQ&B#4S(lejvMLwFZ*dhHyJ}(%5nW(MA@)olYQ3w%$l"
    "{&TQdrqPRl2wSIOPC1GaR0{t9`Qo^O3r+0)h>c@M#d>to&v^qrxi99-ueEhS~efOfI<hIvKM`O9&=_oEP46*QJ4n+M{!O#@{"
    "#za;9%!`EOveQiw2nWF>1rP6iKN<XjbFX|>am5hfnoEJSISBZMZFm_|UKUo9Q)S71KpnueSZ_%8ti{_eeH7(y<XpZ~@#rjDz"
    "9kYrI?p)9M{4hE{>&!El(dC%Oo%yfuCTGoKG4pfh$J4k>`5q3;gU);}ZoXyBx8pJ!Y89B<oVlaWT#~0P*TC$?Ep^XBg=RjgZ"
    "2_8SDrR4EbLyDBIR!BMB6AK}_s_Z3EQaX^;#ZlgtXcdB`uF!5ng#LtQn1sg(C+bTr04^JdS*{hB=yk^;mn|!ITK5ovLIzP#N"
    "uXWtVl-R`9H8`@ON{}YFu*D2BstyGwoxS89Zm3MeuzxZWnKV7t_P<UX?W<dz)hBGyHsk3Gx}-V$P!D9>()VYfQu{@r-p6@eX"
    "u=qu5@FGzTz6oDW`alm07Rmf2i01KVF0l>#$SI=@Z8l)#L^rr}633fYK?a{KFM>zKos%Di_UChOBsjFr=3cZwDm#C~hdy$yT"
    "|1~Mu%gS>e%RVwf^@f-cEUgoo5EjKr_a3S)n5U!n>f%Qy`A)_Ji1k_<UdPaZg?!{&YhPIC}qz*=s=C#aj6#7G4KqX4J52No4"
    "@G@I$Mnc3X*j|C{BXAW*Fhp<0X#6Vnm*Pq~+uG*WmzudNaV2wBVyK5XAC1LTl#Rpq<J#M3a*9ExZc@69jKKHl_UAPy$2f`}d"
    "I)3ee*7HDD>AF{;$~xBV>2`_-^|Rr!E8x3GVSy3lisipKVMwk%*;nE9ls^v@9dYDdAV1b&dG0@y@QbBp5C#h<^)6<bBp}P^^"
    "KgZt+)}rTzc`S-m#SFg<I>L@{UQfDW{$}n{%=Bpo7<An7XpqoWmVvE1o~D$w-aQiRYW0@$fc$y*U=Z0MIiRnN2|sbgU~k%ib"
    "7+U&sBSU*Jstpun`jx_waF9E>@g8Dp%GX)x;UZLHUzUf;y}ElkxG<L52NH5GNc2z4(13H%x)t3W&j>p?JRg!MDzQs8u%P8DJ"
    "j9!D!A%^w5P8sQ(T`F}~@ZBe$bOFw`$O)rm{p`shsL%QMG_oKiEF6)oE8)TY($)BZOZ}DTzEzaCzO(x-IQgPGNnP!2sEC%S@"
    "98;7q<6gl%=anK;W##u7VrD;zbqHq<`$L{thXU<`E}OtR5n~!V2e?(fx1=_tO5lPDjNHoQDjMaRcJQn_68<H?1TfFM?9A_C2"
    "IKKd0Y{`?R}V+dgrn&LPM!e1lQ4J2%-uQWR%=?sq}aI97CG{m<@}sVE+NOHa0xLPnK=V+Mjm_Gqb<*)Os%p04C~Kv>LV!JC)"
    "VFYcB4@8xRO_FR-sL{V{eXp*<ud*x}U*L!{yEO@5w+T`CKQ+(@nmS+Zi6r1|pws*wF(={spJO#OcXK<~)*rfwbqa{v4zEG4#"
    "%lA@By2VmqF6#v<oM;6Z4u3FxX_a0ii(3z`>WJW8O@^-<4p)OWF2fdZ^SuB$Lz8CWl7W@276K<4>4p*%&DVSo6P7MLzb)1#g"
    "<e+|qZ9?_e1ZJqeHH1ZU(EC|eetQTNC3+vfIL(>TtG91&-*|nR=AhbAEXjXX4lf%(vC&p@-%@}u4bleb@<C(6!(3v-iFOi-5"
    "VPNN&pGu(r<;vLP<gsrHy2I>Rfeb|pF@qZgY@9I5Faep2Iv$CHOA3-^PJuJ~it3sYR82>@y~QvT2WTJv_#WDqG`mrpJvgO2^"
    "vIL)N%YO#=z06lF}DOUvr{H{7>RKq@>G@E)O?1E=oO^R4%{~0k2RLk%|N&xryiH*?*|{@Y-Q488lzqOK)w%;3s{xQd_31oms"
    "K&INCVSd9#mpx8w&QW6s*WBN4Ofs$k&T6!dkw4Xu6eqL0s$mTIo+0B|Z8He$ttoMrLzA<h!Y#e1h{8-$pS%Zib&=A@62p5Qd"
    "T=7}=^nyLrr-pE&blYcO+`Wz64}{R8;d19^BuX16=jGUji~`Q|ImT$zyDsATUaXSvSg$K(v`962Vp<e5d8B?oi%tZ^3)z9iQ"
    "5+St_Fi$4rTT)OHjIpgl>6)VZ9UnQUF;*iR4ZMWgrO8@d|zfIQpmEos6Smjpv|FAc<%D>#v#HzwK2g}-L!R(yIcwlx%E?gH@"
    "*<LPQWy_pJs-VjMN`TMF?hfM|#5r<u?sK~DAal(#^7&zbk&h3H<o6Hdmpy75+=6j)m)}OKFW)O7-_6uWJ_og7KGxQ`&tE`OW"
    "1AV<{08}0IA!G1d~PxJVk6Hv;Z>P<_W3JqvAy)EM3r?~WMu2G%Vs6H)Lz!qUU-yW$5<cL^`cjt#WmMBZm3N}8<SW!!ntj-%2"
    "&8W@vcV3cjyVQ?<y&>v|rJM<*HuCv@m+<v8)8V<~wbo*d}9H<#^g}xdB^R`sjtM<zF>O*hh^0kEeY6yh~#FCkdW5Hdz=v`<("
    "l|5B~Td&eFuUhWu=^Eo^I?2cw&9XX8N|>m>HYP0H%)NcN)qs#fxch~9~#yfYFm+0-WSSend3kycxHfhpMT>Z;qRE&gqrtcMm"
    "C(Qb%eD3x^=UbMf|I^o*okbO%ZvG>_TEt~v`RtVbUR+qfpCh}eK8#d9;H-=@ui8=xb9UyrQ!WcHMur4}2YLg@Wg^ghwqpw}A"
    "9q1sp?T9*3mK^KizUW~IV?L|EpXWl2Ty<g2H$)-3qQ;(RUS-DzKHG!r@~Aks*Z#`oZhBuTF3790&5_~v@zdMc<mEPrC-P(yR"
    "L<9+4)8y1qQEAPN@Bez=?HP(8LI5f;Y(JhR#@A(b&gzZBD~r)38dUF4c|xP?OEs*sIpi1GW&c2n;fOBhr3smy&DM^NbV2$ai"
    "-FK%hl*RxWXH2^c_4{C9kx}BAfi0{MJh1n@E3yOMcxZ9<<4%P5jz#oo3~aiIU%UVr(OnGlp~hB$j+h<WDq2UjOaWo%QdzOZ>"
    "$qfA53e+GJP%qSZtj=aPX<$Xk~mw#hpFU9+QNHrd8`V?pC$F8M)Q>|b0rZtuW3<|bXv#QwPK6<4}#(snV_h>35rxw)vtcqn9"
    "3TzGHM>h&f##MXwwiLkDv-k!7^89s5+Ba!x8%pI<-fb&{^Cnb<1327Xxcf`;T&wIHO!;0~c^SLbvzY#9_kzWK4oC|KpIQLN2"
    "_5$m2Yh|-@c}f4Bs5Op{$?p?gcwAx372E%d^Y{;B-EUC$cNyzi1zg`7uJ3q=?6}UmaNW|#I_6r|s&TxgzlZA<%&#svw??|Vn"
    "BRAppR2LIM!8zu9mwyNhR575Yv)=%z<m#LeT%H)?vDC@Z+q~!WzGxF{k6J(FFnpvzebtvud)BuY{oUz{s-4k^V)A`-LU+37;"
    "Z1{|9My)M`gUk{ivy|i(JO1O}nSl;r{D+Z05pstW{!nU}JX~2{AFzs6lnq&_^!zG$v%+CjZwi5#}@T@QN0|NuO;CX5ZpAW^b"
    "l4dsiMuQ_qSadM6i^{LT8|p*Pwv<xlE$3#zka1vO!AAG*|qHPs^a<(#R(U;8KgjjJxS_R);26Ye3J)FQMnc6G}cF|CE9)&iR"
    "i*E*Iv-POKcFtByY^IuhXnRWHs+Z*g)n`h4^6K;p?h&JAUd6%7@Z{7U-uJS#YMt+=3>G6Xuh&-DY4R($3ByKUE#!sQ&%9J+N"
    "sAw1VHss!X><y2L<4H*#E3a`K{2zA|I~OYq+(kukcSWK6>b-Rh3i9#H)EuR3=;HZNnr|UZi|RCu+%M|Lule8a7KCk5<Q_2DR"
    "Tp!&#KQFo7x+I2aP4EJ#t@LWQ11-4Z<5sV^NHgT57$W9Du>li%|g4zIX5TKw=f*5?!l(JvHq4FU|nB%-u$Ym?JmJHj+>ZVm!"
    "FGgsTd~jm-)`4C(PrI#C3d)J?Eynb~5zcRO}wO#lLF<PdSgc4z9#ua5R^?Z&V)}!$aE<>*fSA0z7wIpM6jZ-1}#_Tir7^hKc"
    "P>e?kW5?H}9;+)5Iz$oNNMXXL8_O})Qj=NYR>@l-t8$ut<_Irhpso0=bTZbN)(BG1)Bqvlor6r$Sm+%MXPFUfIjY$M4u>Dpr"
    "2<?eam?<IfUjYlE&)_04q?skpyqD4Oes^CibFH6KRua^`v$1I4u*3S)jg6(++Tje&c!%i7%S-0zR^uA@QznjFhs(Zm`6>Ir}"
    "G0#<xFi!i?4=-r-SgYC-YUbNA&UH?W^KhhX^>wa`m@Z&e-`lQP-BDQMhQT7XY@)sRT}@hDdTQD7(Hdhe&)%}dKe*}yulC_S&"
    "sSe<kw&i8-_(F!o}Qq3z^@)nr#xSyY%L$Ik>ne5tIyTIXmp*9RsW=@(XFWw*Kub1@Q2mex+2ZY*0@K1v&Q|4t<cK;gZg4R&8"
    "KCu#@v8~yHp0aAK*zM2nWb6K|Jox26_n@7P0V+7piO2R!4QJqkN6-sowiF`>!2wdk!yI?{7S*Yn9KF+fV<^le-q0#myJqnWO"
    "6&{F{IGdTRZP*JJKtAu`1^PI}pz-~5|dw9vlyt-n__33sd@{IXfx7TUfjpAi}fU3JvPhN0IaOxNp6)7@8{ZbZ#=v8+s{|Lx9"
    "ut9LH@7fZ77OVdU99rzdXJNc#Q9;{B+_N6bmvR;3?Gdgm_OaJ%`4l@adTg%LsWa(rfpASS8y6mNYv0A<~UGZ1Ldvh+IQ-T`n"
    "f*R{ET`YF}WgoM8a0e>0pT3B-GoJi5#%-(ux?N7z0c9`!(*qv7;DG)w{hMbP_s<V_@`3~A{<~**>z^Lrio>^9#Y|$md|7!Xs"
    "rHU`*Gta-_7U3j05-S!AD>A6DlL4bD@99vKjwxNe2%uOC}?Xx%{ut==-{?5V>;ZnMvKV@=WgALWr|`==NJEn<;Wc&f189Bbm"
    "kQVza57xTE()@@7$`FvX4C;9lI<%77yhOXv5DWkGK9N52W}Cj?Dim-)CZDu?>X>e!KnUtU7o(ssn6(STCbq)@9iD@?&<;pRr"
    "|>v(sM+?CY2i)Lrt2-?)nQ_GfZ~sf(Xx?hoM%9DU>#_X|IZl6hn!cY~iKHF4L0i~M9sCQ1!mpHlhX;5V_%#}w4MVWpNc^|yT"
    "_y|gjcIewksI_9T^(e_K-ttOnwJD<ai?&plJ;Bj|l&1Idr(~iCcmou%F+gfjBg*}$%D(f$uX=~2$zU)U%t#LF<&9Ps$Zs>kx"
    "^W0>MXM&XZzc^XU^|TjUc;FhCHsvwf_d|JKav!wq#35L;#dz}J|5&>~J_oI8VC_ef{cqLUKK-#S*^jNgj$_dVcgxC4kmLu}&"
    "biFmQ;n@X9k=!zte@P}+WrHOXc`8ob4Av6!g}G|*6z63+HN>#*CgasRoB{z$B{Z^?a1$2yZ=9}9oQB-X5DY?@<*`)N6wUND*"
    "lASF0yvqDESTEi>)0E7>TltL_xc^$07Ss>a{rY+u!!zxo<y1o|BRP43w-Bcp?rQjZ$^E9Q%r`?TaVNopQ}pcvM@84I7Z?^qu"
    "&**4p*oMHQ^X&Q;hr=Xci5M}pb6S-TFWJ@!3ok6eNJ!J~)mjS}v^6@^1(9FcePAyGNjW1q10cvpEf(k!IfHP6Z)u-T!*uwIT"
    "ss*rCfF7myrt=%_VN`c~@L4UJlC*{*<<hTW=Jn|6Am9X|Tj2!mOSF!kHBo>=+Cz<^%YtR1??Un|k4i`wx%&KGU3T!Ng&`VL&"
    "J^yR%2i>vboi5U9UqKc96{kS&?SyLjP-^xx>R~a~$9{^sLra#UQdgjYKWl<#>$6hZXwv-{0Z!CMYhvRGT>3UtYKNDR2<O{@a"
    "=u{gp{cmoEz*eCwnfgla~T$M(C&M&o*}OTyb7m4GnEuV9^|$ON1jf?uiLFXid>IegYqH$p?31e>G+v}#C>0cS@2>Vs$t0#`I"
    "H{D+eNCdIqDNrw;q>TJFF*mjK_vbwD@SGT#jrfq7gq5Gmz~zdGQr4xgGXP4Gu-4_a81V*&7S$g2pPvB~IE3nE4&F9u6OSjen"
    "JsodIDs)JB2OeuuF>h0>N>hkbCR>>v`ny%3AHx*@ZJ4_o;QQah-=|2t{B1M8t!kHkf-LbVKf9<4o4-p=t2n6n-!`%9Oq%pf;"
    "xDQS-_3naG_=(VF!*L&gO`Ofku-#z5zGPtmbXqrm2<7w2wjCiQ>Qn)h*`zB-iM3fedvjvqh5m)qv6zeojJNMV9vEQS4^HDk9"
    "#1*0D4x_2dai!hmlkdYYavqv*E;1VrK8VameAU`DXoK@Oc*+TE{6Nb5iL~oe=*~BVjo;xJG=LO+8kF1!>$*v`?LzU}pfj|^#"
    "T}IlN5ScmIx(2w?2OxDcES%)r*hb0H0D7R<6e35hJ6Ibqfbx4DbMFSJN_bP->w_8C8)|yvA`Z|Cg0s}AH%Vz&<V(VT0=N6NP"
    "3#|e&lxsCC9nsuMqkn+YQp?@G})Pv`%*8B&eCUQSz~{05iWgv2`At9F0tN<L59^9)u_>T-cW-m(S#Vm)O1=2JArGK>n9S{${"
    "wqm--3$@&S8LniiYS<DkQ+H~0>F_XlCtVsO83B%P1&1j^q<`b^xXnt>+AHCLjai2hq}k#lh1AFS=XM~o=L05hR&QOv)U)mGq"
    "~^1=N($fy&3(6Zf-&o5Ev@cSI(4{@#Zieo7JG^|B-bdW*PdvMvCihQ|;hJUhaw_x)JSc_|2{Ch_1NGJabh9oH1RIHyvN~D?}"
    "gcXzPPr9Nwyy9*-;T52DCQBX1Lh(;Pssm`bQ!>!lu#DrKztH9Wy)AZ&f90LMDIB0t>HUz)DqK+ocAm!0#Yi_z-du@8yCEKch"
    "MMQXfwx?)-umm>faEXBUl2<<<MKxzwx10<@Hu(EDvEn52=5T{kV_Yod#(Tf9^`=B?vwYuNh?l9|LBdDsT^J)U*=(lqo*I;i@"
    "HCJhDV<n`X-L-hKB7R)i&fjO3~Ne>)xvh)^AQYcT-Njt6h)N{QS+E6P%pgsQ<N*n|%Y${&D=+sOC0T{c%$857Sw9WgOGH0?g"
    "F>Cvs=&xymmRNAsGvVl%70JAYNxtXw&+7WTKbuAkfCKQtQ@xbeA@{Wt8iaKAq&GoB_%S5y>pc||w7C*^-I<ds>MoV4zvnE!4"
    "Wd7*OSbJm@Y9h5(=F`wtSGlgx6-s^7Nh9RzUi1RNH_J=h<N$N{2#N@BO<)ai+-z{$BdfwRcMwC_9#80iX?r`_mx$ZtU*^~+^"
    "?83#PZYgIjF>40Pw?!BqIv*{5JFuU2^)F+!Xt|}UVMyDRSPZg$tmtOLQTglPmg_MFqrc5rfu`HOvCww|2!ye7)mqRSOTd*c`"
    "+?z{Y<PFAe_e>30vi_R`%`Qx!D8bVFam?+%2&cELIXc4q4zBV9Q?hv8^h2weotumlYYdg<8`m+6ZrpWv^#d-6rWV#5>~(LM~"
    "%|m*l=`Lp&wqra&KK7ihh^8tkTL|3p1$>;kJ8xE?4=HA1A;pXDpl_A}?o`Hw3|VjLh3n+_e~#7X|*>Pz0H2t#y7Nlg@eU7|w"
    "U#XraFd<Z*@1tVBkHj|;=G;Ot2RkNdtdSnhK;_-I$_tD#?cI7Xl#y+1>$vNMIgNKJj}Rp&sjoeOJQy6`?+*b*6^7WN8{9~s_"
    "MCbvg|C2g=+A&aA}{o4zr@>W@2jfeWmiDfGEW1m0jysPx|r6bWvyUOCQV2=NXODOM!`X190i>mS>U%Wl-aQ+1{(g9}5D7yb$"
    "9JYKuqN8PD19g|F(MPiQrEe<So8)aVUFE9pKvl`Qq`wTp{jg{gj)(povht^8SNH*?iEsJGJ?8r6Y7o|<G#(m6rjKW2ARjygi"
    "`M=Z5WF%=W!5!RcgzK~u=Zn_-<_62uktECfcd!4iV0X?N-}>u(ykec#dwrs7fQ58M$}`Iu;?LUGG;%OKlQb;<wvkq21neu$H"
    ";W^oXie$y=;G!zsIwCUqe18_n}tyPYYkgVh6;0U96jeJqu*93mcDM<A*b4o-DImDYtaCb28_UB;94v{&l$%N#%B#1spXKi_U"
    "^?%HpT~igCcm*Rj1Vy3KCf{kP7OPAEO`(?vyI53yhF&ENOK{Ifo2>igxig-EeclAT6r{(_qFcl#Aqe(AyXmf6LWWmp`M+rXm"
    "mUfo^RGWOr%?J5(u4zCJZJKt-3Y&|Mt(K}eom-%{E$)Vy+xf~fc8v9ZoTPxQn3pB~%4OlNk38qT`Ul(kY+qNvWZwy_l*b=th"
    "RbC0XaqW^VJ*C-4R*LOAu^77xi)Dhlr$W@hld%|H1-vetK6GDF?7P&qoifvSx5)S3?|Q$+9WJurUqDLd7$(!Yk<v_MvKT6@v"
    "lhn=K8jR-3VZf?nOk(&jIBdXVr%KgMgGwDPhmYr=6dq9H(X}9_584~L!RZfgag-cx%q89fPEXPkilDD6nVRrNxe>c4_kIhf&"
    "+(v<zi6Md)lQFta_sqi)FI0%lp<(BxEETCNq%3XN$exJ7ryR9*YHCk+`%w7VG6HOPUECX?(9*;RL6>1m%6OINBSF-7@_5T8L"
    "=gNlpNcN>C+pkRH;b4^A)kN-dMwAo}{u6@|XwGti`mCdxcpdS<>KO*bwQpJfsFD!`m|;xObrNfx+^NXO|dk5=-u;{5DYo_0D"
    "S^+(}B7@lVg<HO+uc{^PN#^EksggY?`9G-`rtLMr!jKN~?nA*N84jqT}QY2Y33Bf8EsvG(14#I}JJDjJ<Gcs24SlJ;QJa%=E"
    "$x*5EcZ%+^UR&nhTW3q>Apaq=YWXpEz07(#b;jcJb@C+M9Tjm5!8@yJ`%0PC9U!$ObFIG6di0W7(i>~}JK78z>TzsEEqT`+b"
    "{{{SFW<#yF{D(!kFb}pOsr?@sO8J`+Gc4I>x(sS8{$#2n1{<*=-;O&-*0C>LubS@!>T>lwQD;T?@y60ijmu2iEJCz4Mm$bU9"
    "MQ1+<!>s_J^@!Jc_WjqK>~~ZJLSwn~q`Ylu_97<`^vcoT%lU#WUN0)3s#SlQYbc_s-3hH^ql_hspMyIdZ}UIOO#b<W(7jQ~z"
    "CyowxGT5~<Lx*fZfBq#3ZTj(^L&l}ew`U3$SA@=&?LzZuqsPa0U_Nx##;;?_y`;A~8u?zM%ci*xS5j)@4K3-`DX!aX7M%k7Y"
    "3XWwUw-5f^FjVahzU^hPCqfG^NQy6V7u-hbhQ?_lDXq7~j60NMeu&(X@h>y0`wF7+AU||Eh>qkD?(!f@R(bfibw?sV~Zf$6f"
    "O0=Tk!iKi|$3DWgo)WE;Z9V+9Mq3)$?Gi1zX!AvO;G?qbqNNwvQHWv^Ve9B{E20r$wB;f@QleGS-o^_X+v8!hwXr=Z(Ms8NL"
    "Za<WRyDB;AM?>WP3&SsF^RBsNw{@S6T4KR%Ia;4Q>|0(;FH!>JmslP${mWRZOT<e)Gp=Tji`Of9ge6&%Dop+$CNt~QEAG(A5"
    "mG#eGpNnl>0EE&MEg%L|szuXhdC8?pQ?KQto&}-Ba#FMCB=WGNK+ScPgTuDfe+iy;AOUM7>k)lZg7H+?j~_rrf6yy_#~LMbt"
    "0l&PLQf<<3PkAmu)fXkf~nk7!WJeG$>%lq-3vnkrJRbwoo_u1!QkQ?6}9!&0tYM8i|AeMBQtu0up4Q?6q~qf)LkqR}Z=7SWi"
    "L>lD%0l<OSPxRmP>(fE|>8qtK5>lV?(l<OYRq?9X<XmZN+P+Fo64he}4lIS3b4wC2~i4KzJAc+o==pcy>lIS3b4wC2~i4KzJ"
    "Ac+o==pcy>lIS3b4wC2~i4KzJAc+o==pcy>lIS3b4wC2~i4KzJAc+o==pcy>lIS3b4wC2~i4KzJAc+o==pcy>lIS3b4wC2~i"
    "4J;Nstyhfi4KzJAc+o==pcy>lIS3b4wC2~i4KzJAc+o==pcy>lIS3b4wC2~i4KzJAc+o==pcy>lIS3b4wC2~i4KzJAc+o==p"
    "cy>lIS3b4wC2~i4KzJAc+o==pcy>lIS3b4wC2~i4KzJAc+o==pcy>dRnFq4hxA6lIS3b4wC2~i4KzJAc+o==pcy>lIS3b4wC"
    "2~i4KzJAc+o==pcy>lIS3b4wC2~i4KzJAc+o==pcy>lIS3b4wC2~i4KzJAc+o==pcy>lIS3b4wC2~i4KzJAc+o==pcy>lIS3"
    "b4wC2~i4J;Nt_}_li4KzJAc+o==pcy>lIS3b4wC2~i4KzJAc+o==pcy>lIS3b4wC2~i4KzJAc+o==pcy>lIS3b4wC2~i4KzJ"
    "Ac+o==pcy>lIS3b4wC2~i4KzJAc+o==pcy>lIS3b4wC2~i4KzJAc+o==pcy>dRmj3ma={QJTcum?M5To6H=SB8xv8xv>O{yh"
    "qN0PQOC3!A5m%AO^B#0?IuRlDeWdl)FthvMAS9yrbW~(?WRW5J?*APRGxM-BI=QLGb8GmcC#Ytm3Ffu>Ya9TBI=WNb0g}TcJ"
    "m^7HSJ!Hs9)O6kEnmzEr@79+AWM|VA?H;Xi(ZMj%aY&Es3Zi?UqI~B<+?(G&Jp&M>H($-iT;;+O3FaMB1&4XjIz08PS-udn="
    "-`X}2n(acQ?YqVZ`rDWVB!_jW`R({4>flhST&M3d9*oro&aF&tNnx+&(CUE!8DqAk1AZd7!{p0s;SX^GmmHze9eqJ1RVN1}Z"
    "s+DD>&B-%%!eI(jPqJ1RVN1}Zs+DD>&B-%%!eI(jPqJ1RVN1}Zs+DD>&B-%%!eI(jPqJ1RVN1}Zs+DD>&B-%%!eI(jPqJ1RV"
    "N1}Zs+DD>&B-%%!eWWb=xFyRzZlQf7+UIGh+P5zx+DD>&B-%%!eI(jPqJ1RVN1}Zs+DD>&B-%%!eI(jPqJ1RVN1}Zs+DD>&B"
    "-%%!eI(jPqJ1RVN1}Zs+DD>&B-%%!eI(jPqJ1RVN1}Zs+DD>&B-%%!eI(jPqJ1RVN1}bCEc>`6%RX+QeI(lFX_?x$KP1{mqJ"
    "1RVN1}Zs+DD>&B-%%!eI(jPqJ1RVN1}Zs+DD>&B-%%!eI(jPqJ1RVN1}Zs+DD>&B-%%!eI(jPqJ1RVN1}Zs+DD>&B-%%!eI("
    "jPqJ1RVN1}Zs+DD>&B-%%!eWWb=xFyRzZlQf7+UIGx+IJu%+DD>&B-%%!eI(jPqJ1RVN1}Zs+DD>&B-%%!eI(jPqJ1RVN1}Z"
    "s+DD>&B-%%!eI(jPqJ1RVN1}Zs+DD>&B-%%!eI(jPqJ1RVN1}Zs+DD>&B-%%!eI(jPqJ1RVN1}bCEc>`6%RX+QeI(lFX-#@s"
    "+HR8Qc+(S2?b%=Y=u}htMHrPdv!6>et=aLW?f{}s@e>m|5%O8(Qz3t$j3Zk=?T<Ver38H(r2`>VNtmiN(@&Q(Rq2_ghi9tNG"
    "ffZARHbK{9-gUfc;v|_CFtWQ9SEt~gsECH{ix=Xo7=_DA)1*f$+#6SSog^bo?2(z%81%z+?x@#&A7KBYL{`VB5I#;t0U@=ac"
    "@V|G2_-mRGM*XBPz?dcOvSPaqA-LoN?<T>XLCABI=rP8zbtLahoFQo^hKaD$lqr5%tKptr7LixNQ;j%DC+j_0G5*5%tNqoe}"
    "lTxXOrL&A43=^~<>35%tfwJrNDaxV;e#%(#6K4a&Iv5e?3`0})kZ+`)*3WZa>MhGtw<M8h)f-H3)~+~J5uWZZiZjm)?s5sk{"
    "Y_ahpeaUVo9CgVPgXl%xP6w$bhI~vjWj5`+5gp50`G)p}@6B0cm(K8Y~BhfPwJtNUG5<Mf)GZH-`(K8Y~BhfPwJtNUG5<Mf)"
    "GZH-`(K8Y~BhfPwJtNUG5<Mf)GZH-`(K8Y~BhfPwJtNUG5<Mf)GZH-`(K8Y~BhfPwJtNUG5<Mf)GZH-`(K8Y~^E6vM`!pnaM"
    "xtjVdPbsWBzi`oXC!(?qGu#}MxtjVdPbsWBzi`oXC!(?qGu#}MxtjVdPbsWBzi`oXC!(?qGu#}MxtjVdPbsWBzi`oXC!(?qG"
    "u#}MxtjVdPbsWBzi`oXC!(?qGu#}MxtjVdgf`KdUh@(dPbsWBzi`oXC!(?qGu#}MxtjVdPbsWBzi`oXC!(?qGu#}MxtjVdPb"
    "sWBzi`oXC!(?qGu#}MxtjVdPbsWBzi`oXC!(?qGu#}MxtjVdPbsWBzi`oXC!(?qGu#}MxtjVdPbsWBzoql{jD=^wcB4r)KQ|"
    "H5|v4`OQOya?UAUfMEfM_A<-d;=1J81B}DTj>MPMgiTX>lNTLA}EtP1HL^C(LlFiN?!mN0}FGFq(uFB#z;CHjQE%<O2w*$YI"
    "#qGgIvbY2I{VeVX{veA>!5?OE8Tg|t?gT!X#ht;&vbYQQcougBpUC2F;FDS09egT_%fTOKaS!n6Eba;ZB#V22&t!3L@TXba2"
    "mDzU_XVHL;#a}vvbZ1k^DOQUKA*({z+YtXKyb+~BOU~9oyCK}ZL+um+%}7cfZJv9P;mP!9tQ4^#lyiJvv>r!G>b=q%d&VBxK"
    "kF726xWlG2kv)JQmzFi^qYxW$}1$_bi?OF3;kL;2v2#3EVS_Cxd%s@f2`x<yn#c1Ig;Yvih&A{wu5h%Id$e`me11E35y?>c6"
    "u3udMzntN+UCzq0zTto|#j|H|sWvih&A{wu5h%Id$e`me11E35y?>c6u3udMzntN+UCzq0zTto|#j|H|sWvih&A{wu5h%Id$"
    "e`me11E35y?>c6u3udMzntN+UCzq0zTtp0nR8~I;BR{xdNe`WPwS^Za5|CQB$W%XZK{a051mDPV`^<P>2S62U()qiF6Us?TE"
    "R{xdNe`WPwS^Za5|CQB$W%XZK{a051mDPV`^<P>2S62U()qiF6Us?TER{xdNe`WPwS^Za5|CQB$W%XZK{a051mDPV`^<P>2S"
    "62U()qiF6-}CE{|3k^@zq0zTto|#j|H|sWvih&A{wu5h%Id$e`me11E35y?>c6u3udMzntN+UCzq0zTto|#j|H|sWvih&A{w"
    "u5h%Id$e`me11E35y?>c6u3udMzntN+UCzq0zTto|#j|H|sWvih&A{wu5h%Id$e`me11E35y?>c6u3udM!io*(%?jI91EtN+"
    "UCzq0zTto|#j|H|sWvih&A{wu5h%Id$e`me11E35y?>c6u3udMzntN+UCzq0zTto|#j|H|sWvih&A{wu5h%Id$e`me11E35y"
    "?>c6u3udMzntN+UCzq0zTto|#j|H|sWvih&A{wu5h%Id$e`me11E35y?>c8jpXJa?p_gjV0gZ9KX!f2@cU6zl=CG4nghvEK&"
    "-N<lCt}VYW3}4H$yYCOfb@{gRfiN6fVAnG&FS5%X3d1h7Y`gD<;i_78Hp7x)JBw)-7t0r)_^^E)d+LW_*r%@D`7pzJw&D?n_"
    "3btd8`z2;F>Gk}YuL#4`7y(b>|PBU+X;{I6iw`DhOegVfhWUoRN9Vwip6Pa$Fi16n%lL{hT+DGZAV`5(93Pl?}g#=uiCx8<z"
    "ZLa%2&d$`?YrJADQ-AyP9F!>ulw(!f?cO_7uZq*V#_L4#NZ2*&z%|uD3g$55v(n*uF1w>rHkX4_kMW9rgmZX6zdp-fX8ahoL"
    "vyF2CUw-)gtM$TGCB=YGNRwy^K&*>1CQp9#Yqx7mTbph0)pf-stRx1CN~<~=Ci6cQfwn4R*SFr4~RyN&I-`UyK#zWqw#3I7$"
    "v?SEn0c4oYFmbL2!(Y4YyoSm<G*1hHIs@{aRRyn)je|b4;oZb6po_L+J?S8_mKzxd2Z?oRnN!;FPgR>LabW;&`WZZ6}vlTBf"
    "pH0s8V8!5mU=OMQTb*707`Jajf!b^7&c^Jn#dW!-B(NV0;hvKAf!*7WFcffJp`=4#tNIhB0y+&KybsvR3M}au*iXjl@qoVL2"
    ")#=KJ6aD}2Y5%Jq%5#q1`%cgW>deCPJx}EJ7xnmDYWSv*s{TdrGQBaE4u`C@i5J~90eFjSPZBdO*jb{uF$tfVCO2F0<2Rg=^"
    "5A|?A=2VPt^)o2Ux98(krm1w(CV_LrL$ze)`{GychA*QQXm|Phi(7Yy)f<qlffGbLgJMfX}rsdjY*QS@%~1JGT0met{iH!G`"
    "q@>}Tw$JqMrxp9|w%h&!nOrGo=ILz}681=>urS_<f_d(HudDJ&Wi*nJAe0k7*Z?T4ZPc$IC31@<`IU59wTHcZ>$fgQo2U<2Y"
    "YKjrojfqk2C>Bzti_zzy-C|L2cFkXmw1Go1X9oT8y-g68}uJPEwF8Db+$GE_jJ|4#1CLn)}Ct~}5vd$(2_D#mGPDa!GR~UDm"
    "iaehP;~B4^41IY4U8V*03m&j`dSK@;QRf+O@#!$GM7)Uc;+cV+tOqZjjaIE7ben^&!14M7;xjy=d|qJpuo%Y?59A29;&t>E#"
    ")lRl=5RM~VPLoG7_d07%e1c@+5@}P`;Ggd`ZP7AG;Ygx5C$!c+iu$P-`Nzm=d`irZ;snRTHGqYkv4kFmbg8vSM|n@xLv3jEU"
    "t{(ciIt#?TXuD3MISa_A?y}$F<9`+jeU~`{md({WyRwKagYJ??V`RCdZZxR9%-Q?6Ox0<!>bHCkp!jeRYVcdJD-E)~!z1#k>"
    "P-UX!ppcoS)}E@8{sGEv!vgdOcW#fHv7#~eG`SHKP*Z}9PJ!-Fxfb-kE7EsQrvymEA~5GJ1ZSr~6cd{W{zV}iF}<ync_jR{^"
    "y{JF%P#{^3ew-rOn!!+$B#>P2_XET;GvlvU7ITFtu7fglGZ$2Kz^AN9Oya4ekiRVlRroi;}BIw*O?jZ5ZX~9&8J5yw>SQ^Ja"
    "J5^dN7Qztl%q$)Xp6y$dJEtkgo*4=w^e};ufLRKovNIS5cujL37iJiy9F}!zf#|%$vy<_d=^hU3h`$Tr4*Lv45Pna09<B!Nd"
    "Dp{xS;_uCGO0pa"
)
# END generated by tools/gen_locale_collation.py

# The FCD values of U+0F73, U+0F75 and U+0F81, which ICU always decomposes.
_LC_TIBETAN_VOWELS = ((129, 130), (129, 132))
_LC_SURROGATE = re.compile("[\ud800-\udfff]")
_LC_HANGUL_FIRST, _LC_HANGUL_LAST = 0xAC00, 0xD7A3


class LocaleCollation:
    """The door: the order of `String.prototype.localeCompare` (ICU 78 root collation, en-US)."""

    __slots__ = ()

    @staticmethod
    def key(text: str) -> str:
        """A sort key: key(a) < key(b) exactly when a.localeCompare(b) < 0, equal when it is 0."""
        return _lc_key(text)

    @staticmethod
    def compare(a: str, b: str) -> int:
        """The sign of a.localeCompare(b): -1, 0 or 1."""
        left, right = _lc_key(a), _lc_key(b)
        return (left > right) - (left < right)


# One collation element (primary, secondary, tertiary); the three levels' text of a string; a
# contraction's trie: suffix -> (the levels' text where the suffix completes one, longer ones?).
_LcElement = Tuple[int, int, int]
_LcWeights = Tuple[str, str, str]
_LcTrie = Dict[Tuple[int, ...], Tuple[Optional[_LcWeights], bool]]


class _LcData:
    """The decoded table (built on first use): weights, ideographs, normalisation, contractions."""

    def __init__(self) -> None:
        self.starts: List[int] = []
        self.counts: List[int] = []
        self.steps: List[int] = []
        self.elements: List[Tuple[_LcElement, ...]] = []
        self.core: Dict[int, int] = {}
        self.ext: List[Tuple[int, int]] = []
        self.ccc: Dict[int, int] = {}
        self.nfd: Dict[int, Tuple[int, ...]] = {}
        self.contractions: Dict[int, _LcTrie] = {}
        self.trailing: Set[int] = set()
        self.ext_base = 0
        self.common: Tuple[int, int] = (0, 0)
        self.lccc: Dict[int, int] = {}
        self.tccc: Dict[int, int] = {}
        self.levels = (_LcLevel(0, self), _LcLevel(1, self), _LcLevel(2, self))
        self.marks: FrozenSet[str] = frozenset()
        self.starters: FrozenSet[str] = frozenset()
        self.seconds: FrozenSet[str] = frozenset()
        self.common_text = ""
        self.ascii_primary: Dict[int, str] = {}
        self.ascii_tertiary = b""


class _LcLevel(dict[int, str]):  # a plain dict at run time (PEP 585 alias)
    """One level's weights per code point, as text for str.translate; filled on first sight."""

    def __init__(self, level: int, data: _LcData) -> None:
        super().__init__()
        self.level, self.data = level, data

    def __missing__(self, cp: int) -> str:
        weights = _lc_weights(self.data, cp)
        for level, part in zip(self.data.levels, weights):
            dict.__setitem__(level, cp, part)
        return weights[self.level]


def _lc_varints(blob: bytes) -> Iterator[int]:
    """The unsigned LEB128 numbers of the table, in order."""
    number = shift = 0
    for byte in blob:
        number |= (byte & 0x7F) << shift
        if byte & 0x80:
            shift += 7
        else:
            yield number
            number = shift = 0


def _lc_signed(number: int) -> int:
    return (number >> 1) if not number & 1 else -((number + 1) >> 1)


# Printable ASCII's weights (U+0020..U+007E: primary, then tertiary; the secondary is the common
# one), as _lc_data decodes them from the table: text of printable ASCII alone is sorted without
# decoding the table. tests/test_vectors_locale_compare.py checks them against the decoded table.
_LC_ASCII_PRIMARY = dict(zip(range(0x20, 0x7F), ("\x01" + chr(weight) for weight in (
    0x000b, 0x006c, 0x013e, 0x01cd, 0x1fb6, 0x01ce, 0x01ca, 0x013b, 0x0141, 0x0142, 0x01c2, 0x04da,
    0x0028, 0x0010, 0x0085, 0x01c7, 0x1fec, 0x1fed, 0x1fee, 0x1fef, 0x1ff0, 0x1ff1, 0x1ff2, 0x1ff3,
    0x1ff4, 0x1ff5, 0x0045, 0x003f, 0x04df, 0x04e0, 0x04e1, 0x0073, 0x01c1, 0x21f3, 0x2201, 0x220c,
    0x2216, 0x2224, 0x223b, 0x2244, 0x2253, 0x225f, 0x226c, 0x2273, 0x227e, 0x229a, 0x22a3, 0x22b5,
    0x22d3, 0x22df, 0x22e6, 0x2307, 0x231d, 0x232b, 0x2343, 0x234c, 0x2350, 0x2359, 0x2360, 0x0143,
    0x01c8, 0x0144, 0x02e8, 0x000e, 0x02e5, 0x21f3, 0x2201, 0x220c, 0x2216, 0x2224, 0x223b, 0x2244,
    0x2253, 0x225f, 0x226c, 0x2273, 0x227e, 0x229a, 0x22a3, 0x22b5, 0x22d3, 0x22df, 0x22e6, 0x2307,
    0x231d, 0x232b, 0x2343, 0x234c, 0x2350, 0x2359, 0x2360, 0x0145, 0x04e3, 0x0146, 0x04e5))))
_LC_ASCII_TERTIARY = bytes(0x20) + bytes((
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13,
    13, 13, 13, 13, 13, 13, 13, 16, 13, 13, 13, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2)) + bytes(0x81)
_LC_ASCII_COMMON = "\x01"


@functools.lru_cache(maxsize=None)
def _lc_data() -> _LcData:
    """Decode _LC_TABLE (the format of tools/gen_locale_collation.py, version 1)."""
    import zlib  # only the collation needs it, and only once
    numbers = _lc_varints(zlib.decompress(base64.b85decode("".join(_LC_TABLE.split()))))
    take = functools.partial(next, numbers)
    data = _LcData()
    if take() != 1:
        raise ValueError("collation table: unknown format")
    data.ext_base, secondary, tertiary = take(), take(), take()
    data.common = (secondary, tertiary)
    _lc_read_explicit(data, take)
    _lc_read_core(data, take)
    end = 0
    for _ in range(take()):
        low = end + take()
        end = low + take()
        data.ext.append((low, end))
    _lc_read_normalisation(data, take)
    _lc_read_contractions(data, take)
    printable = range(0x20, 0x7F)
    ascii_contraction = any(starter < 0x80 and max(suffix) < 0x80
                            for starter, trie in data.contractions.items() for suffix in trie)
    if ascii_contraction or any(len(_lc_weights(data, cp)[1]) != 1 for cp in printable):
        raise ValueError("collation table: printable ASCII is not one collation element per character")
    data.common_text = chr(secondary)
    data.ascii_primary = {cp: _lc_weights(data, cp)[0] for cp in printable}
    data.ascii_tertiary = bytes(ord(_lc_weights(data, cp)[2]) if cp in printable else 0 for cp in range(256))
    return data


def _lc_read_explicit(data: _LcData, take: Callable[[], int]) -> None:
    end = previous = 0
    for _ in range(take()):
        start = end + take()
        count, step, length = take(), take(), take()
        elements: List[_LcElement] = []
        for _ in range(length):
            primary = take()
            if primary:
                previous += _lc_signed(primary - 1)
            elements.append((previous if primary else 0, take(), take()))
        data.starts.append(start)
        data.counts.append(count)
        data.steps.append(step)
        data.elements.append(tuple(elements))
        end = start + count


def _lc_read_core(data: _LcData, take: Callable[[], int]) -> None:
    previous = end = 0
    for _ in range(take()):
        start = previous + _lc_signed(take())
        count = take()
        value = end + take()
        for offset in range(count):
            data.core[start + offset] = value + offset
        previous, end = start + count, value + count


def _lc_read_normalisation(data: _LcData, take: Callable[[], int]) -> None:
    end = 0
    for _ in range(take()):
        start = end + take()
        count, number = take(), take()
        for cp in range(start, start + count):
            data.ccc[cp] = number
        end = start + count
    cp = 0
    previous: Tuple[int, ...] = ()
    for _ in range(take()):
        cp += take()
        length = take()
        chars = []
        for index in range(length):
            base = previous[index] if index < len(previous) else cp
            chars.append(base + _lc_signed(take()))
        data.nfd[cp] = previous = tuple(chars)
    for cp in set(data.ccc) | set(data.nfd):
        decomposed = data.nfd.get(cp, (cp,))
        lead, trail = data.ccc.get(decomposed[0], 0), data.ccc.get(decomposed[-1], 0)
        if lead:
            data.lccc[cp] = lead
        if trail:
            data.tccc[cp] = trail
    data.marks = frozenset(chr(cp) for cp in data.lccc)


def _lc_read_contractions(data: _LcData, take: Callable[[], int]) -> None:
    for _ in range(take()):
        chars = tuple(take() for _ in range(take()))
        elements = tuple((take(), take(), take()) for _ in range(take()))
        trie = data.contractions.setdefault(chars[0], {})
        suffix = chars[1:]
        for length in range(1, len(suffix)):
            value, _ = trie.get(suffix[:length], (None, True))
            trie[suffix[:length]] = (value, True)
        _, more = trie.get(suffix, (None, False))
        trie[suffix] = (_lc_text(elements), more)
        if data.lccc.get(suffix[-1], 0):
            data.trailing.add(chars[0])
    data.starters = frozenset(chr(cp) for cp in data.contractions)
    data.seconds = frozenset(chr(suffix[0]) for trie in data.contractions.values() for suffix in trie)


def _lc_text(elements: Sequence[_LcElement]) -> _LcWeights:
    """Collation elements (primary, secondary, tertiary values) as the three levels' text."""
    primary = "".join(chr(1 + (p >> 15)) + chr(p & 0x7FFF) for p, _, _ in elements if p)
    return (primary, "".join(chr(s) for _, s, _ in elements if s),
            "".join(chr(t) for _, _, t in elements if t))


def _lc_weights(data: _LcData, cp: int) -> _LcWeights:
    """The three levels' text of one code point, as ICU looks it up (no context)."""
    index = bisect.bisect_right(data.starts, cp) - 1
    if index >= 0 and cp < data.starts[index] + data.counts[index]:
        offset = (cp - data.starts[index]) * data.steps[index]
        return _lc_text([(p + offset if p else 0, s, t) for p, s, t in data.elements[index]])
    if cp in data.nfd:
        return _lc_join(_lc_weights(data, part) for part in data.nfd[cp])
    if _LC_HANGUL_FIRST <= cp <= _LC_HANGUL_LAST:
        return _lc_join(_lc_weights(data, part) for part in _lc_jamo(cp))
    value = data.core.get(cp)
    if value is None:
        ext = bisect.bisect_right(data.ext, (cp, 0x110000)) - 1
        inside = ext >= 0 and data.ext[ext][0] <= cp <= data.ext[ext][1]
        value = data.ext_base + cp if inside else data.ext_base + 0x40001 + cp
    return _lc_text([(value,) + data.common])


def _lc_join(parts: Iterable[_LcWeights]) -> _LcWeights:
    primary, secondary, tertiary = zip(*parts)
    return "".join(primary), "".join(secondary), "".join(tertiary)


def _lc_jamo(cp: int) -> List[int]:
    index = cp - _LC_HANGUL_FIRST
    jamo = [0x1100 + index // 588, 0x1161 + (index % 588) // 28]
    return jamo + [0x11A7 + index % 28] if index % 28 else jamo


def _lc_key(text: str) -> str:
    if text.isascii() and text.isprintable():
        # Printable ASCII: one element per character, the common secondary weight for each.
        return (text.translate(_LC_ASCII_PRIMARY) + "\0" + _LC_ASCII_COMMON * len(text) + "\0"
                + text.encode("ascii").translate(_LC_ASCII_TERTIARY).decode("latin-1"))
    data = _lc_data()
    if not text.isascii() and _LC_SURROGATE.search(text) is not None:
        # JavaScript sees a surrogate pair as one character; a lone surrogate stays itself.
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    if data.marks.isdisjoint(text) and (data.starters.isdisjoint(text) or data.seconds.isdisjoint(text)):
        primary, secondary, tertiary = data.levels
        return text.translate(primary) + "\0" + text.translate(secondary) + "\0" + text.translate(tertiary)
    parts = _lc_elements(data, _lc_fcd(data, [ord(ch) for ch in text]))
    return "\0".join(_lc_join(parts) if parts else ("", "", ""))


def _lc_fcd(data: _LcData, cps: List[int]) -> List[int]:
    """ICU's FCD pass: a segment that fails the FCD check is replaced by its NFD."""
    out: List[int] = []
    start, count = 0, len(cps)
    while start < count:
        index, previous = start, 0
        while True:
            cp = cps[index]
            lead = data.lccc.get(cp, 0)
            if lead == 0 and index != start:  # a boundary before cp
                out.extend(cps[start:index])
                break
            if lead and (previous > lead or (lead, data.tccc.get(cp, 0)) in _LC_TIBETAN_VOWELS):
                index += 1
                while index < count and data.lccc.get(cps[index], 0):
                    index += 1
                out.extend(_lc_nfd(data, cps[start:index]))
                break
            previous = data.tccc.get(cp, 0)
            index += 1
            if index == count or previous == 0:  # a boundary after cp
                out.extend(cps[start:index])
                break
        start = index
    return out


def _lc_nfd(data: _LcData, cps: List[int]) -> List[int]:
    """Canonical decomposition and canonical ordering (Unicode 17, from the table)."""
    out: List[int] = []
    for cp in cps:
        if _LC_HANGUL_FIRST <= cp <= _LC_HANGUL_LAST:
            out.extend(_lc_jamo(cp))
        else:
            out.extend(data.nfd.get(cp, (cp,)))
    index = 0
    while index < len(out):
        end = index
        while end < len(out) and data.ccc.get(out[end], 0):
            end += 1
        if end > index + 1:
            out[index:end] = sorted(out[index:end], key=lambda cp: data.ccc[cp])
        index = end + 1
    return out


def _lc_elements(data: _LcData, cps: List[int]) -> List[_LcWeights]:
    """The levels' text of each unit of the string: characters, and contractions where they match."""
    out: List[_LcWeights] = []
    index = 0
    while index < len(cps):
        trie = data.contractions.get(cps[index])
        if trie is None:
            out.append(_lc_level_text(data, cps[index]))
            index += 1
        else:
            value, index, cps = _lc_contraction(data, cps, index, trie)
            out.extend(value)
    return out


def _lc_level_text(data: _LcData, cp: int) -> _LcWeights:
    primary, secondary, tertiary = data.levels
    return primary[cp], secondary[cp], tertiary[cp]


def _lc_contraction(data: _LcData, cps: List[int], start: int,
                    trie: _LcTrie) -> Tuple[List[_LcWeights], int, List[int]]:
    """ICU's nextCE32FromContraction: the longest contiguous match, then a discontiguous one."""
    matched: Tuple[int, ...] = ()
    state: Tuple[int, ...] = ()
    value, index, since = _lc_level_text(data, cps[start]), start + 1, 0
    while index < len(cps):
        state += (cps[index],)
        index += 1
        since += 1
        node = trie.get(state)
        if node is None:
            break
        if node[0] is not None:
            value, matched, since = node[0], state, 0
            if not node[1]:
                return [value], index, cps
    if since == 0:
        return [value], index, cps
    after = index - since
    if cps[start] in data.trailing and data.lccc.get(cps[after], 0):
        return _lc_discontiguous(data, cps, trie, value, matched, after)
    return [value], after, cps


def _lc_discontiguous(data: _LcData, cps: List[int], trie: _LcTrie, value: _LcWeights,
                      matched: Tuple[int, ...], index: int) -> Tuple[List[_LcWeights], int, List[int]]:
    """UCA S2.1.1-S2.1.3 as ICU does it: non-starters not blocked from the match may join it."""
    count = len(cps)
    if index + 1 >= count or not data.lccc.get(cps[index + 1], 0):
        return [value], index, cps
    skipped, kept, previous = [cps[index]], 0, data.tccc.get(cps[index], 0)
    position, since = index + 1, 1
    while True:
        cp = cps[position]
        position += 1
        since += 1
        node = trie.get(matched + (cp,)) if previous < data.lccc.get(cp, 0) else None
        if node is not None and node[0] is not None:
            value, since, kept = node[0], 0, len(skipped)
            if not node[1]:
                break
            matched += (cp,)
        else:
            skipped.append(cp)
            previous = data.tccc.get(cp, 0)
        if position == count or not data.lccc.get(cps[position], 0):
            break
    position -= since
    if not kept:
        return [value], position, cps
    # The marks skipped before the last match follow the contraction, then the rest of the text.
    return [value], 0, skipped[:kept] + cps[position:]


# The command line runs once every section above is defined (the engines included).
if __name__ == "__main__":
    sys.exit(main())
