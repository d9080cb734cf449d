"""The repository stands alone: the suite needs nothing beside the clone and keeps its own house.

* Every file copied into tests/data/ (the official MCP schemas, the reference vectors, the ADR
  frontmatter schema) has the SHA-256 and size recorded in tests/data/MANIFEST.sha256, so a
  silent edit fails (the conformance pack has its own manifest, checked by test_conformance.py).
* No test, tool, benchmark or CI step names a path outside the clone (the workplace's `../shared`
  folder in particular).
* One home for test helpers: no file in tests/ imports a test file (test_*.py, conftest.py);
  shared helpers live in the support modules (_support.py, _session.py, _containment.py,
  _handshake.py, frame_validator.py, conformance_harness.py).
* The project's frame validator (tests/frame_validator.py) checks each frame against the revision
  it belongs to, in both eras, and catches what it is there to catch.
"""

import ast
import json
import os
import re

import pytest

import _support as support
import frame_validator as fv  # tests/ is on sys.path (pytest rootdir insertion)

TESTS = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(TESTS)
DATA = os.path.join(TESTS, "data")
MANIFEST = os.path.join(DATA, "MANIFEST.sha256")
# Files under tests/data written here (not copies): the manifest itself, the two licence notes and
# the hook output schema written from Claude Code's hooks reference (ADR 0013).
OWN_DATA_FILES = {"MANIFEST.sha256", "mcp-schema/README.md", "registry/LICENSE-NOTE.md",
                  "claude-code-hook-output.schema.json"}


def test_copied_data_files_keep_their_recorded_bytes():
    recorded = support.read_manifest(MANIFEST)
    found = set()
    for dirpath, dirnames, filenames in os.walk(DATA):
        dirnames.sort()
        for name in filenames:
            found.add(os.path.relpath(os.path.join(dirpath, name), DATA).replace(os.sep, "/"))
    assert sorted(set(recorded) - found) == [], "files in the manifest that are missing"
    assert sorted(found - set(recorded) - OWN_DATA_FILES) == [], \
        "copied files without a recorded SHA-256 (add them to tests/data/MANIFEST.sha256)"
    changed = ["%s: recorded %s (%d bytes), found %s (%d bytes)"
               % ((path,) + recorded[path] + support.file_digest(os.path.join(DATA, path)))
               for path in sorted(recorded) if support.file_digest(os.path.join(DATA, path)) != recorded[path]]
    assert changed == [], "copied files whose bytes changed:\n" + "\n".join(changed)


def test_every_protocol_revision_has_its_schema_and_the_note_names_its_hash():
    recorded = support.read_manifest(MANIFEST)
    with open(os.path.join(DATA, "mcp-schema", "README.md"), encoding="utf-8") as handle:
        note = handle.read()
    for rev in fv.REVISIONS:
        digest, _ = recorded["mcp-schema/%s/schema.json" % rev]
        assert "| %s | `%s` |" % (rev, digest) in note, rev
    assert "mcp-schema/LICENSE" in recorded
    with open(os.path.join(REPO, "NOTICE"), encoding="utf-8") as handle:
        assert "tests/data/mcp-schema/" in handle.read()


# ---- nothing outside the clone ----------------------------------------------------------------

OUTSIDE = [
    re.compile(r"\.\.[\\/]+shared\b"),                               # ../shared/...
    re.compile(r"""["']\.\.["']\s*[,)/]\s*["']shared["']"""),         # REPO / ".." / "shared"
    re.compile(r"\bparents\[[2-9]\]"),                                # above the repository root
    re.compile(r"/work/(?:shared|main|notes|wt-)"),                   # this workplace's folders
    re.compile(r"(?:REPO|PROJECT|ROOT)\w*\s*/\s*[\"']\.\.[\"']"),     # REPO / ".."
]
SCANNED = ["tests", "tools", "bench", ".ci", "build.py"]
NOT_SCANNED = ("tests/conformance/", "tests/data/", "tests/node_modules/")


def _scanned_files():
    for entry in SCANNED:
        top = os.path.join(REPO, entry)
        if os.path.isfile(top):
            yield entry
            continue
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if d not in ("node_modules", "__pycache__"))
            for name in sorted(filenames):
                rel = os.path.relpath(os.path.join(dirpath, name), REPO).replace(os.sep, "/")
                if not rel.startswith(NOT_SCANNED) and not name.endswith((".pyc", ".lock")) \
                        and name != "package-lock.json" and rel != "tests/test_standalone.py":
                    yield rel


def test_no_test_tool_benchmark_or_ci_step_reads_outside_the_clone():
    hits = []
    for rel in _scanned_files():
        with open(os.path.join(REPO, rel), encoding="utf-8", errors="replace") as handle:
            for number, line in enumerate(handle, 1):
                if any(pattern.search(line) for pattern in OUTSIDE):
                    hits.append("%s:%d: %s" % (rel, number, line.strip()[:160]))
    assert hits == [], "paths outside the clone:\n" + "\n".join(hits)


def test_the_outside_patterns_catch_what_they_are_for():
    for line in ['SCHEMA_DIR = (REPO / ".." / "shared" / "mcp-schema").resolve()',
                 "see ../shared/MCP-WIRE.md", "/work/shared/tools/validate_frames.py",
                 "Path(__file__).resolve().parents[2]", 'PROJECT / ".." / "sibling"']:
        assert any(pattern.search(line) for pattern in OUTSIDE), line
    for line in ['pattern: "shared/**"', "Path(__file__).resolve().parents[1]", "mobile-shared/theme.ts"]:
        assert not any(pattern.search(line) for pattern in OUTSIDE), line


# ---- one home for test helpers ----------------------------------------------------------------

def _imported_modules(path):
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.lineno, node.module
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) \
                in ("import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant):
            yield node.lineno, str(node.args[0].value)


def _is_test_module(name):
    top = name.split(".")[0]
    return top == "conftest" or (top.startswith("test_") and os.path.isfile(os.path.join(TESTS, top + ".py")))


def test_no_file_in_tests_imports_a_test_file():
    offenders = []
    for name in sorted(os.listdir(TESTS)):
        if name.endswith(".py"):
            for line, module in _imported_modules(os.path.join(TESTS, name)):
                if _is_test_module(module):
                    offenders.append("tests/%s:%d imports %s" % (name, line, module))
    assert offenders == [], "move what they share into a support module:\n" + "\n".join(offenders)


def test_the_import_scan_sees_every_form(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import test_wire as wire\nfrom test_containment import FdSpy\n"
                      "import importlib\nm = importlib.import_module('test_layers')\n"
                      "import _session\nfrom frame_validator import FrameChecker\n", encoding="utf-8")
    assert [module for _, module in _imported_modules(str(sample)) if _is_test_module(module)] == \
        ["test_wire", "test_containment", "test_layers"]


# ---- the frame validator ------------------------------------------------------------------------

PV, CAPS, SERVER_INFO = fv.PV, fv.CAPS, fv.SERVER_INFO
OUTPUT_SCHEMA = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"],
                 "additionalProperties": False}
TOOL = {"name": "count", "description": "Counts.", "inputSchema": {"type": "object"},
        "outputSchema": OUTPUT_SCHEMA}
STAMP = {SERVER_INFO: {"name": "adrkit-mcp", "version": "1"}}


def c2s(rid, method, params=None, modern=False):
    params = dict(params or {})
    if modern:
        params["_meta"] = {PV: fv.MODERN, CAPS: {}}
    return {"dir": "c2s", "msg": {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}}


def s2c(rid, result=None, error=None):
    msg = {"jsonrpc": "2.0", "id": rid}
    msg.update({"error": error} if error is not None else {"result": result})
    return {"dir": "s2c", "msg": msg}


def legacy(version="2025-06-18", call_result=None):
    """A clean legacy session at `version`: initialize, tools/list, tools/call."""
    call_result = call_result or {"content": [{"type": "text", "text": "1"}], "structuredContent": {"n": 1}}
    return [c2s(0, "initialize", {"protocolVersion": version, "capabilities": {},
                                  "clientInfo": {"name": "t", "version": "1"}}),
            s2c(0, {"protocolVersion": version, "capabilities": {"tools": {}},
                    "serverInfo": {"name": "adrkit-mcp", "version": "1"}}),
            {"dir": "c2s", "msg": {"jsonrpc": "2.0", "method": "notifications/initialized"}},
            c2s(1, "tools/list"), s2c(1, {"tools": [TOOL]}),
            c2s(2, "tools/call", {"name": "count", "arguments": {}}), s2c(2, call_result)]


def modern(list_result=None):
    """A clean modern exchange: tools/list and tools/call, each stamped in _meta."""
    list_result = list_result or dict({"tools": [TOOL], "resultType": "complete", "ttlMs": 0,
                                       "cacheScope": "public"}, _meta=STAMP)
    return [c2s(1, "tools/list", modern=True), s2c(1, list_result),
            c2s(2, "tools/call", {"name": "count", "arguments": {}}, modern=True),
            s2c(2, {"content": [{"type": "text", "text": "1"}], "structuredContent": {"n": 1},
                    "resultType": "complete", "_meta": STAMP})]


def problems(tmp_path, entries):
    path = tmp_path / "transcript.jsonl"
    path.write_text("".join(json.dumps(entry) + "\n" for entry in entries), encoding="utf-8")
    frames, found = fv.check_transcript(str(path))
    assert frames == sum(1 for entry in entries if entry["dir"] == "s2c")
    return found


@pytest.mark.parametrize("version", fv.LEGACY_REVS)
def test_validator_passes_a_clean_legacy_session(tmp_path, version):
    assert problems(tmp_path, legacy(version)) == []


def test_validator_passes_a_clean_modern_exchange(tmp_path):
    assert problems(tmp_path, modern()) == []


def test_validator_checks_structured_content_against_the_declared_output_schema(tmp_path):
    found = problems(tmp_path, legacy(call_result={"content": [], "structuredContent": {"n": "one"}}))
    assert len(found) == 1 and "outputSchema" not in found[0] and "'one' is not of type 'integer'" in found[0]
    found = problems(tmp_path, legacy(call_result={"content": [{"type": "text", "text": "x"}]}))
    assert len(found) == 1 and "has no structuredContent" in found[0]
    # A tool error need not fit the outputSchema.
    assert problems(tmp_path, legacy(call_result={"content": [{"type": "text", "text": "no"}],
                                                  "isError": True})) == []


def test_validator_judges_each_response_by_the_era_of_its_request(tmp_path):
    bare = {"tools": [TOOL]}  # a legacy answer: no resultType, no cache hints, no stamp
    found = problems(tmp_path, modern(list_result=bare))
    assert any("resultType" in problem for problem in found)
    assert any("2026-07-28 ListToolsResult" in problem for problem in found), found
    # The same answer to the same request without the modern _meta claim is a fine legacy answer.
    assert problems(tmp_path, [c2s(1, "tools/list"), s2c(1, bare)]) == []


def test_validator_follows_the_revision_initialize_negotiated(tmp_path):
    # An error whose id could not be read: null in 2024-11-05 .. 2025-06-18, omitted from 2025-11-25.
    unknown = {"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": None,
                                     "error": {"code": -32700, "message": "Parse error"}}}
    assert problems(tmp_path, legacy("2025-06-18") + [unknown]) == []
    found = problems(tmp_path, legacy("2025-11-25") + [unknown])
    assert len(found) == 1 and "id null in a 2025-11-25 session" in found[0]
    # Batches are answered with arrays only in a 2025-03-26 session.
    batch = {"dir": "s2c", "msg": [{"jsonrpc": "2.0", "id": 9, "result": {}}]}
    ping = {"dir": "c2s", "msg": [{"jsonrpc": "2.0", "id": 9, "method": "ping"}]}
    assert problems(tmp_path, legacy("2025-03-26") + [ping, batch]) == []
    assert any("batch answer outside" in p for p in problems(tmp_path, legacy("2025-11-25") + [ping, batch]))


def test_validator_flags_protocol_mistakes(tmp_path):
    base = legacy()
    cases = [
        ({"dir": "s2c", "raw": "starting up..."}, "not JSON"),
        (s2c(77, {}), "matches no outstanding request"),
        ({"dir": "s2c", "msg": {"jsonrpc": "2.0", "method": "notifications/message", "params": {}}},
         "sent a request or notification"),
        ({"dir": "s2c", "msg": {"jsonrpc": "2.0", "id": 5, "result": {}, "error": {"code": 1}}},
         "exactly one of result/error"),
    ]
    for entry, expected in cases:
        found = problems(tmp_path, base + [c2s(5, "ping"), entry])
        assert any(expected in problem for problem in found), (expected, found)
    found = problems(tmp_path, base + [c2s(6, "ping"), s2c(6, error={"code": -32000, "message": "x"})])
    assert any("unexpected error code -32000" in problem for problem in found), found


def test_validator_runs_from_the_command_line(tmp_path, capsys):
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(entry) + "\n" for entry in legacy()), encoding="utf-8")
    assert fv.main([str(path)]) == 0
    assert capsys.readouterr().out.strip().endswith("3 frames checked, 0 problems")
    bad = legacy(call_result={"content": [], "structuredContent": {}})
    path.write_text("".join(json.dumps(entry) + "\n" for entry in bad), encoding="utf-8")
    assert fv.main([str(path)]) == 1
    assert "1 problems" in capsys.readouterr().out


def test_validator_checks_what_expose_serves(tmp_path):
    """-32002 only for a legacy resources/read with data.uri; corpus content never cacheable in
    2026-07-28; no empty read; no resource in a tool result (ADR 0015)."""
    read = c2s(5, "resources/read", {"uri": "adrkit://decisions/0042"})
    not_found = {"code": -32002, "message": "Resource not found", "data": {"uri": "adrkit://decisions/0042"}}
    assert problems(tmp_path, legacy() + [read, s2c(5, error=not_found)]) == []
    found = problems(tmp_path, legacy() + [read, s2c(5, error=dict(not_found, data={}))])
    assert any("-32002 without data.uri" in problem for problem in found), found
    modern_read = c2s(6, "resources/read", {"uri": "adrkit://decisions/0042"}, modern=True)
    found = problems(tmp_path, [modern_read, s2c(6, error=not_found)])
    assert any("not a legacy resources/read" in problem for problem in found), found
    assert problems(tmp_path, [modern_read, s2c(6, error=dict(not_found, code=-32602))]) == []
    contents = [{"uri": "adrkit://decisions", "mimeType": "text/markdown", "text": "# x"}]
    stamped = {"contents": contents, "resultType": "complete", "_meta": STAMP}
    assert problems(tmp_path, [modern_read, s2c(6, dict(stamped, ttlMs=0, cacheScope="private"))]) == []
    found = problems(tmp_path, [modern_read, s2c(6, dict(stamped, ttlMs=300000, cacheScope="public"))])
    assert any("not 0/private" in problem for problem in found), found
    found = problems(tmp_path, legacy() + [read, s2c(5, {"contents": []})])
    assert any("no contents" in problem for problem in found), found
    linked = {"content": [{"type": "text", "text": "1"}, {"type": "resource_link", "uri": "adrkit://decisions",
                                                         "name": "decisions"}], "structuredContent": {"n": 1}}
    found = problems(tmp_path, legacy(call_result=linked))
    assert any("resource or resource link" in problem for problem in found), found
