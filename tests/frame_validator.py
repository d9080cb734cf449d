#!/usr/bin/env python3
"""The project's frame validator: every frame the server writes, checked against the official MCP
JSON Schema of the revision it belongs to.

The schemas are the copies in tests/data/mcp-schema/<rev>/schema.json (see the README there);
they ship with the repository, so a check never depends on anything outside the clone.  Needs
jsonschema (a test requirement) and the standard library.

Which revision applies to a frame, in both eras:

* a response to a request whose params._meta claims the modern era
  (io.modelcontextprotocol/protocolVersion or .../clientCapabilities) is checked against
  2026-07-28, the per-request revision;
* a response to any other request is checked against the legacy revision that `initialize`
  negotiated on this process (2025-11-25 before any handshake), and the response to
  `initialize` itself against the revision it answers;
* an error whose id could not be read is checked against the process's revision (the
  negotiated one; 2026-07-28 when only modern requests came).  It says "id": null only in
  sessions at 2024-11-05 .. 2025-06-18, whose schemas require a string or integer id and so
  cannot express JSON-RPC's null: there the rest of the frame is validated with a placeholder.

Besides the schema, per frame: one JSON object per line ending in a newline, UTF-8, no raw
U+2028/U+2029; a response answers an outstanding request and has exactly one of result/error;
only the error codes this server uses; -32022 names the supported revision; -32002 answers
only a legacy resources/read and names its uri in data (a modern one says -32602); every modern
result says resultType "complete" and carries serverInfo in _meta, and a modern list or read of
corpus content (resources/list, resources/read) says ttlMs 0 and cacheScope "private"; a legacy
tool result carries no _meta, and no tool result carries a resource or resource link; a read
never answers with empty contents; batches are answered with arrays only at 2025-03-26; the only message the server
originates is the acknowledgement of an open modern subscriptions/listen; and the
structuredContent of a successful tools/call validates against the outputSchema the same
process declared for that tool in tools/list.

Two ways in:

* FrameChecker: feed it what the client sent (`sent`) and each stdout line (`check_line`) or
  parsed message (`check_message`); problems collect in `.problems`.  The stdio Session of the
  tests (tests/_session.py) does this for every frame it reads.
* check_transcript(path): a JSON-lines transcript of one server process as tests/frame_tap.py
  records it ({"dir": "c2s"|"s2c", "msg": ...} or {"dir": ..., "raw": "..."} for a line that was
  not JSON), e.g. what a third-party client exchanged with the server.  From the shell:

      python3 tests/frame_validator.py TRANSCRIPT.jsonl [...]

  prints each problem and `N frames checked, M problems`; exit status 1 when M > 0.
"""

import json
import os
import sys
from typing import Any, Dict, List, Optional, Tuple

SCHEMA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "mcp-schema")

MODERN = "2026-07-28"
LEGACY_REVS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
REVISIONS = LEGACY_REVS + (MODERN,)
LATEST_LEGACY = "2025-11-25"
NULL_ID_REVS = ("2024-11-05", "2025-03-26", "2025-06-18")
BATCH_REV = "2025-03-26"
PV = "io.modelcontextprotocol/protocolVersion"
CAPS = "io.modelcontextprotocol/clientCapabilities"
SERVER_INFO = "io.modelcontextprotocol/serverInfo"
SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId"
ACKNOWLEDGED = "notifications/subscriptions/acknowledged"
META = {PV: MODERN, CAPS: {}}
ALLOWED_ERROR_CODES = {-32700, -32600, -32601, -32602, -32603, -32022, -32002}
RESOURCE_NOT_FOUND = -32002
CORPUS_METHODS = ("resources/list", "resources/read")  # their modern results are never cacheable

# Methods whose result is not named "<Name>Request" -> "<Name>Result" in the schemas.
RESULT_DEFS = {"initialize": "InitializeResult", "ping": "EmptyResult", "tools/list": "ListToolsResult",
               "tools/call": "CallToolResult", "server/discover": "DiscoverResult",
               "subscriptions/listen": "SubscriptionsListenResult", "logging/setLevel": "EmptyResult"}


class Schemas(object):
    """The official schemas, one validator per (revision, definition), built on first use."""

    def __init__(self, folder: str = SCHEMA_DIR) -> None:
        import jsonschema.validators  # a test requirement; imported here so the CLI can say so
        self._validators = jsonschema.validators
        self.folder = folder
        self.docs: Dict[str, Dict[str, Any]] = {}
        self.cache: Dict[Tuple[str, str], Any] = {}
        self.methods: Dict[str, Dict[str, str]] = {}
        missing = [rev for rev in REVISIONS if not os.path.isfile(self.path(rev))]
        if missing:  # they are part of the repository: a missing one is a broken checkout
            raise FileNotFoundError("the MCP schemas of %s are missing under %s (they are part of "
                                    "the repository)" % (", ".join(missing), folder))

    def path(self, rev: str) -> str:
        return os.path.join(self.folder, rev, "schema.json")

    def doc(self, rev: str) -> Dict[str, Any]:
        if rev not in self.docs:
            with open(self.path(rev), encoding="utf-8") as handle:
                self.docs[rev] = json.load(handle)
        return self.docs[rev]

    def definitions(self, rev: str) -> Dict[str, Any]:
        document = self.doc(rev)
        return document.get("$defs", document.get("definitions", {}))

    def has(self, rev: str, name: str) -> bool:
        return name in self.definitions(rev)

    def result_def(self, rev: str, method: str) -> Optional[str]:
        """The definition of the result `method` gets in `rev`, or None when rev has no such request."""
        if rev not in self.methods:
            table = {}
            for name, definition in self.definitions(rev).items():
                if not name.endswith("Request") or not isinstance(definition, dict):
                    continue
                constant = definition.get("properties", {}).get("method", {}).get("const")
                result = name[:-len("Request")] + "Result"
                if isinstance(constant, str) and result in self.definitions(rev):
                    table[constant] = result
            self.methods[rev] = table
        name = RESULT_DEFS.get(method) or self.methods[rev].get(method)
        return name if name and self.has(rev, name) else None

    def errors(self, rev: str, name: str, instance: Any) -> List[str]:
        key = (rev, name)
        if key not in self.cache:
            document = self.doc(rev)
            defs = "$defs" if "$defs" in document else "definitions"
            root = dict(document)
            root["$ref"] = "#/%s/%s" % (defs, name)
            self.cache[key] = self._validators.validator_for(document)(root)
        return ["%s %s: %s" % (rev, name, error.message[:300]) for error in self.cache[key].iter_errors(instance)]


_SCHEMAS: List[Schemas] = []


def official_schemas() -> Schemas:
    """The Schemas of tests/data/mcp-schema, loaded once per process."""
    if not _SCHEMAS:
        _SCHEMAS.append(Schemas())
    return _SCHEMAS[0]


_OUTPUT_VALIDATORS: Dict[str, Any] = {}


def output_schema_errors(schema: Any, instance: Any) -> List[str]:
    """structuredContent against a tool's declared outputSchema (2020-12 unless it names its
    dialect; local references only, nothing is fetched).  One validator per distinct schema."""
    import jsonschema
    import jsonschema.validators
    key = json.dumps(schema, sort_keys=True)
    if key not in _OUTPUT_VALIDATORS:
        if not isinstance(schema, (dict, bool)):
            _OUTPUT_VALIDATORS[key] = "outputSchema is not a JSON Schema: %r" % (schema,)
        else:
            cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
            try:
                cls.check_schema(schema)
                _OUTPUT_VALIDATORS[key] = cls(schema)
            except jsonschema.SchemaError as error:
                _OUTPUT_VALIDATORS[key] = "outputSchema is not a valid schema: %s" % error.message[:300]
    validator = _OUTPUT_VALIDATORS[key]
    if isinstance(validator, str):
        return [validator]
    return ["structuredContent: %s" % error.message[:300] for error in validator.iter_errors(instance)]


def id_key(value: Any) -> str:
    """A hashable key that keeps 1 and "1" apart (JSON-RPC ids are typed)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # 1e2 on the wire is the integer id 100
    return json.dumps(value, sort_keys=True)


def modern_claim(msg: Any) -> bool:
    """Whether a request's _meta claims the modern (per-request) era."""
    params = msg.get("params") if isinstance(msg, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    return isinstance(meta, dict) and (PV in meta or CAPS in meta)


class FrameChecker(object):
    """Checks each server frame of one process against the revision of the request it answers
    (see the module docstring); problems collect in `.problems`."""

    def __init__(self, schemas: Optional[Schemas] = None) -> None:
        self.schemas = schemas or official_schemas()
        self.pending: Dict[str, List[Tuple[Optional[str], bool, Any]]] = {}
        self.legacy_rev: Optional[str] = None
        self.modern_seen = False
        self.output_schemas: Dict[str, Any] = {}
        self.problems: List[str] = []

    # -- what the client sent ---------------------------------------------

    def sent(self, msg: Any) -> None:
        for m in msg if isinstance(msg, list) else [msg]:
            if not isinstance(m, dict) or "id" not in m:
                continue
            modern = modern_claim(m)
            self.modern_seen = self.modern_seen or modern
            method = m.get("method") if isinstance(m.get("method"), str) else None
            self.pending.setdefault(id_key(m["id"]), []).append((method, modern, m.get("params")))

    def session_rev(self) -> str:
        if self.legacy_rev:
            return self.legacy_rev
        return MODERN if self.modern_seen else LATEST_LEGACY

    # -- what the server wrote --------------------------------------------

    def check_line(self, line: bytes) -> Any:
        """One stdout line (bytes, with its newline): the parsed frame, or None when it is not JSON."""
        problems = []
        if not line.endswith(b"\n"):
            problems.append("frame does not end with a newline: %r" % line[:80])
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            self.problems.append("stdout line is not UTF-8: %s" % exc)
            return None
        if u"\u2028" in text or u"\u2029" in text:
            problems.append("raw U+2028/U+2029 in a frame")
        try:
            frame = json.loads(text)
        except ValueError:
            self.problems.append("stdout line is not JSON: %r" % text[:120])
            return None
        self.problems += problems
        self.check_message(frame)
        return frame

    def check_message(self, frame: Any) -> None:
        """One parsed frame (an object, or an array answering a batch)."""
        problems = []
        if isinstance(frame, list):
            rev = self.session_rev()
            if rev != BATCH_REV:
                problems.append("batch answer outside a %s session" % BATCH_REV)
            for element in frame:
                problems += self.check_frame(element, in_batch=True)
            if rev == BATCH_REV:
                placeholder = [dict(f, id=0) if isinstance(f, dict) and f.get("id", 0) is None else f
                               for f in frame]
                problems += self.schemas.errors(rev, "JSONRPCBatchResponse", placeholder)
        else:
            problems += self.check_frame(frame)
        self.problems += problems

    def check_frame(self, frame: Any, in_batch: bool = False) -> List[str]:
        problems: List[str] = []
        if not isinstance(frame, dict) or frame.get("jsonrpc") != "2.0":
            return ["not a JSON-RPC 2.0 object: %r" % (frame,)]
        if frame.get("method") == ACKNOWLEDGED and "id" not in frame:
            return self.check_acknowledgement(frame)
        if "method" in frame:
            return ["the server sent a request or notification: %r" % (frame,)]
        if ("result" in frame) == ("error" in frame):
            return ["a response needs exactly one of result/error: %r" % (frame,)]
        rid = frame.get("id", None)
        method, modern, params = None, False, None
        if rid is not None:
            waiting = self.pending.get(id_key(rid))
            if not waiting:
                return ["response id %r matches no outstanding request" % (rid,)]
            method, modern, params = waiting.pop(0)
            if not waiting:
                del self.pending[id_key(rid)]
            rev = MODERN if modern else self.session_rev()
            if method == "initialize" and not modern and isinstance(frame.get("result"), dict):
                self.legacy_rev = frame["result"].get("protocolVersion")
                rev = self.legacy_rev
                if rev not in LEGACY_REVS:
                    return ["initialize answered with protocolVersion %r" % (rev,)]
        else:
            rev = self.session_rev()
            if "id" in frame and rev not in NULL_ID_REVS and not in_batch:
                problems.append("id null in a %s session (omit it instead)" % rev)
            if "id" not in frame and rev in NULL_ID_REVS:
                problems.append("id omitted in a %s session (JSON-RPC says null)" % rev)
        if "error" in frame:
            code = frame["error"].get("code") if isinstance(frame["error"], dict) else None
            if code not in ALLOWED_ERROR_CODES:
                problems.append("unexpected error code %r" % (code,))
            if code == -32022:
                supported = frame["error"].get("data", {}).get("supported")
                if supported != [MODERN]:
                    problems.append("-32022 data.supported is %r" % (supported,))
            if code == RESOURCE_NOT_FOUND:
                problems += self.check_not_found(frame["error"], method, modern, params)
        else:
            result = frame["result"]
            if not isinstance(result, dict):
                return problems + ["result is not an object: %r" % (result,)]
            if modern:
                if result.get("resultType") != "complete":
                    problems.append("modern result without resultType complete")
                if not isinstance(result.get("_meta"), dict) or SERVER_INFO not in result["_meta"]:
                    problems.append("modern result without _meta serverInfo")
            elif method == "tools/call" and "_meta" in result:
                problems.append("legacy tool result carries _meta")
            problems += self.check_exposed(method, modern, result)
            if method == "tools/list":
                self.absorb_tools(result)
            elif method == "tools/call":
                problems += self.check_structured(params, result)
        if method == "subscriptions/listen" and "result" in frame:
            if frame["result"].get("_meta", {}).get(SUBSCRIPTION_ID) != rid:
                problems.append("listen result not tagged with its subscription id")
        checked = dict(frame, id=0) if frame.get("id", 0) is None else frame
        if "error" in frame:
            name = None
            if frame["error"].get("code") == -32022 and self.schemas.has(rev, "UnsupportedProtocolVersionError"):
                name = "UnsupportedProtocolVersionError"
            name = name or ("JSONRPCErrorResponse" if self.schemas.has(rev, "JSONRPCErrorResponse")
                            else "JSONRPCError")
            problems += self.schemas.errors(rev, name, checked)
        else:
            envelope = "JSONRPCResultResponse" if self.schemas.has(rev, "JSONRPCResultResponse") \
                else "JSONRPCResponse"
            problems += self.schemas.errors(rev, envelope, checked)
            result_def = self.schemas.result_def(rev, method) if method is not None else None
            if result_def:
                problems += self.schemas.errors(rev, result_def, frame["result"])
            elif method is not None:
                problems.append("answered %r, which has no result in revision %s" % (method, rev))
        return problems

    def check_not_found(self, error: Dict[str, Any], method: Optional[str], modern: bool,
                        params: Any) -> List[str]:
        """-32002 is the 2025 revisions' resource-not-found: a legacy resources/read only, data.uri."""
        if method != "resources/read" or modern:
            return ["-32002 answers %s%s, not a legacy resources/read" % (method, " (modern)" if modern else "")]
        uri = params.get("uri") if isinstance(params, dict) else None
        data = error.get("data")
        if not isinstance(data, dict) or data.get("uri") != uri:
            return ["-32002 without data.uri %r: %r" % (uri, data)]
        return []

    def check_exposed(self, method: Optional[str], modern: bool, result: Dict[str, Any]) -> List[str]:
        """Corpus content is never cacheable; a read is never empty; a tool result links nothing."""
        problems = []
        if modern and method in CORPUS_METHODS and (result.get("ttlMs"), result.get("cacheScope")) != (0, "private"):
            problems.append("modern %s with cache hints %r/%r, not 0/private"
                            % (method, result.get("ttlMs"), result.get("cacheScope")))
        if method == "resources/read" and not result.get("contents"):
            problems.append("resources/read answered with no contents")
        if method == "tools/call":
            kinds = [item.get("type") for item in result.get("content") or [] if isinstance(item, dict)]
            if "resource" in kinds or "resource_link" in kinds:
                problems.append("a tool result carries a resource or resource link: %r" % (kinds,))
        return problems

    def absorb_tools(self, result: Dict[str, Any]) -> None:
        """Remember each listed tool's outputSchema (for the tools/call results that follow)."""
        for tool in result.get("tools") or []:
            if isinstance(tool, dict) and isinstance(tool.get("name"), str) and "outputSchema" in tool:
                self.output_schemas[tool["name"]] = tool["outputSchema"]

    def check_structured(self, params: Any, result: Dict[str, Any]) -> List[str]:
        """A successful call of a tool with a declared outputSchema returns content that fits it."""
        name = params.get("name") if isinstance(params, dict) else None
        if result.get("isError") is True or name not in self.output_schemas:
            return []
        if "structuredContent" not in result:
            return ["tool %r declares an outputSchema, its result has no structuredContent" % (name,)]
        return ["tool %r: %s" % (name, problem)
                for problem in output_schema_errors(self.output_schemas[name], result["structuredContent"])]

    def check_acknowledgement(self, frame: Dict[str, Any]) -> List[str]:
        """The one notification we send: it must name an open modern listen."""
        problems = []
        sid = frame.get("params", {}).get("_meta", {}).get(SUBSCRIPTION_ID)
        waiting = self.pending.get(id_key(sid), []) if sid is not None else []
        if not any(method == "subscriptions/listen" and modern for method, modern, _ in waiting):
            problems.append("acknowledgement for no open modern listen: %r" % (frame,))
        problems += self.schemas.errors(MODERN, "SubscriptionsAcknowledgedNotification", frame)
        return problems


def check_transcript(path: str, schemas: Optional[Schemas] = None) -> Tuple[int, List[str]]:
    """(server frames checked, problems) for one process's transcript (see the module docstring)."""
    checker = FrameChecker(schemas)
    frames = 0
    problems: List[str] = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            entry = json.loads(line)
            where = "%s:%d" % (os.path.basename(path), number)
            if entry.get("dir") == "c2s":
                if "msg" in entry:
                    checker.sent(entry["msg"])
                continue
            if entry.get("dir") != "s2c":
                raise ValueError("%s: not a transcript entry: %r" % (where, entry))
            frames += 1
            if "msg" not in entry:
                problems.append("%s: stdout line is not JSON: %r" % (where, entry.get("raw", "")[:120]))
                continue
            checker.problems = []
            checker.check_message(entry["msg"])
            problems += ["%s: %s" % (where, problem) for problem in checker.problems]
    return frames, problems


def main(argv: List[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        sys.stdout.write("usage: frame_validator.py TRANSCRIPT.jsonl [...]\n")
        return 0 if argv else 2
    total = failed = 0
    for path in argv:
        frames, problems = check_transcript(path)
        total += frames
        failed += len(problems)
        for problem in problems:
            sys.stdout.write(problem + "\n")
    sys.stdout.write("%d frames checked, %d problems\n" % (total, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
