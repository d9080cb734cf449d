"""Third-party MCP clients against the real server, every frame it writes validated.

Clients, pinned in tests/package.json + package-lock.json (installed by `npm ci`, which the
`node_modules` fixture runs when tests/node_modules is missing or older than the lock file) and
in requirements-dev.txt:

  * the official TypeScript SDK, @modelcontextprotocol/sdk 1.x: the legacy handshake;
  * the TypeScript v2 client, @modelcontextprotocol/client 2.x: versionNegotiation legacy, auto
    and pinned 2026-07-28, and `initialize` offering each 2025 revision;
  * the MCP Inspector CLI (@modelcontextprotocol/inspector --cli) in each --protocol-era;
  * fastmcp's Client in each of its modes.

Each lists the tools (exactly the four), calls every tool with valid arguments, sends an invalid
argument (isError true), walks a results cursor to its end and compares the walk with one large
page, and, where the client can open one, a subscriptions/listen with its acknowledgement.  The
server runs behind tests/frame_tap.py, which records every frame of every server process the
client starts (a dual-era client may start a probe process first); each transcript is then
checked by the project's frame validator (tests/frame_validator.py) against the official schema
of the revision each request was made in, and each server process must have exited 0.  Tests
skip, saying which tool is missing, only where node/npm are not on the PATH or fastmcp is not
installed (it needs Python 3.11+).
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import _support
import frame_validator  # tests/ is on sys.path (pytest rootdir insertion)

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
TAP = TESTS / "frame_tap.py"
DRIVER = TESTS / "clients" / "ts_client.mjs"
INSPECTOR = TESTS / "node_modules" / "@modelcontextprotocol" / "inspector" / "clients" / "launcher" / \
    "build" / "index.js"
SERVER_PYTHON = os.environ.get("ADRKIT_MCP_PYTHON") or sys.executable
MODULE = os.path.abspath(os.environ.get("ADRKIT_MCP_MODULE") or str(REPO / "adrkit_mcp.py"))
SERVER_COMMAND = _support.module_command(MODULE, SERVER_PYTHON)  # `python adrkit_mcp.py`, bytecode kept
TOOL_NAMES = ["get_decision", "get_decision_context", "list_superseded", "search_decisions"]
LEGACY_REVS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MODERN = "2026-07-28"

# Valid arguments for every tool on the 270-record corpus, and the outcome each must give.
CALLS = {
    "search_decisions": ({"query": "cache"}, "results"),
    "get_decision": ({"ref": "1013"}, "found"),
    "get_decision_context": ({"files": ["src/a.ts"]}, "matches"),
    "list_superseded": ({}, "entries"),
}
INVALID = {"name": "search_decisions", "arguments": {"query": "x", "bogus": 1}}
WALK = {"name": "search_decisions", "arguments": {"query": "cache"}}  # 27 results: 4 pages of 7


def matrix_line(client, mode, frames, listen):
    """One row of the client x mode matrix, printed for the record (pytest -s shows it)."""
    print("\nclient-matrix: %-10s %-26s pass  frames=%-4d listen=%s" % (client, mode, frames, listen))


@pytest.fixture(scope="session")
def node_modules(tmp_path_factory):
    """tests/node_modules from `npm ci`, installed here when missing or older than the lock (by
    one pytest-xdist worker at a time: test_workflows takes the same lock)."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        pytest.skip("node and npm are needed for the TypeScript clients and the Inspector CLI "
                    "(tests/package.json); %s not on PATH" % ("node" if not node else "npm"))
    marker = TESTS / "node_modules" / ".package-lock.json"
    lock = TESTS / "package-lock.json"
    with _support.run_lock(tmp_path_factory, "npm-ci"):
        if not marker.exists() or marker.stat().st_mtime < lock.stat().st_mtime:
            subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=str(TESTS), check=True,
                           stdout=sys.stderr, timeout=1200)
    return TESTS / "node_modules"


@pytest.fixture(scope="session")
def corpus(tmp_path_factory):
    """The conformance pack's 270-record corpus (with findings), as a Git worktree."""
    root = tmp_path_factory.mktemp("clients") / "repo"
    shutil.copytree(str(TESTS / "conformance" / "corpora" / "large"), str(root))
    (root / ".git").mkdir()
    return str(root)


@pytest.fixture
def tap(tmp_path, corpus):
    """(command, folder): the server behind frame_tap.py, its transcripts landing in folder."""
    folder = tmp_path / "frames"
    folder.mkdir()
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"folder": str(folder),
                                "command": SERVER_COMMAND + ["--cwd", corpus]}), encoding="utf-8")
    return [sys.executable, str(TAP), str(plan)], folder


def validated_frames(folder):
    """Validate every transcript in folder; returns the number of server frames checked."""
    transcripts = sorted(folder.glob("*.jsonl"))
    assert transcripts, "the client started no server"
    frames = 0
    for transcript in transcripts:
        checked, problems = frame_validator.check_transcript(str(transcript))
        assert not problems, "\n".join(problems[:40])
        assert checked > 0, "%s: the server wrote no frame" % transcript.name
        frames += checked
        status = transcript.with_suffix(".status")
        assert status.exists() and status.read_text().strip() == "0", \
            "server behind %s: exit status %r" % (transcript.name, status.exists() and status.read_text())
    return frames


def negotiated(folder):
    """The revisions the transcripts show: initialize answers, or modern when _meta was used."""
    revisions = set()
    for transcript in folder.glob("*.jsonl"):
        for line in transcript.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            msg = entry.get("msg")
            if not isinstance(msg, dict):
                continue
            if entry["dir"] == "s2c" and isinstance(msg.get("result"), dict) and \
                    "protocolVersion" in msg["result"] and "serverInfo" in msg["result"]:
                revisions.add(msg["result"]["protocolVersion"])
            if entry["dir"] == "c2s" and msg.get("method") == "tools/call" and \
                    "io.modelcontextprotocol/protocolVersion" in (msg.get("params") or {}).get("_meta", {}):
                revisions.add(msg["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"])
    return revisions


def check_answers(tools, calls, invalid, walk):
    """The checks every client must pass, on what it reports."""
    assert tools == TOOL_NAMES
    for name, (_, outcome) in CALLS.items():
        assert calls[name]["isError"] is False and calls[name]["outcome"] == outcome, calls[name]
    assert invalid["isError"] is True and "bogus" in invalid["text"], invalid
    walked, large = walk["walked"], walk["large"]
    assert walk["pages"] >= 2 and walk["largeCursor"] is None
    assert walked == large and len({tuple(item) for item in walked}) == len(walked) > 7


# ---------------------------------------------------------------------------
# The TypeScript SDK 1.x and the v2 client
# ---------------------------------------------------------------------------

def run_ts(node_modules, command, client, mode, listen):
    scenario = {"client": client, "mode": mode, "command": command, "invalid": INVALID, "walk": WALK,
                "calls": {name: arguments for name, (arguments, _) in CALLS.items()}, "listen": listen}
    run = subprocess.run(["node", str(DRIVER), json.dumps(scenario)], cwd=str(TESTS),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")[-4000:]
    return json.loads(run.stdout.decode("utf-8").strip().splitlines()[-1])


def test_typescript_sdk_1x_legacy_handshake(node_modules, tap):
    command, folder = tap
    report = run_ts(node_modules, command, "sdk", {}, listen=False)
    check_answers(report["tools"], report["calls"], report["invalid"], report["walk"])
    assert negotiated(folder) == {"2025-11-25"}
    matrix_line("ts-sdk-1", "legacy", validated_frames(folder), "n/a (no listen in 1.x)")


V2_MODES = [("legacy", {"versionNegotiation": "legacy"}, "2025-11-25"),
            ("auto", {"versionNegotiation": "auto"}, MODERN),
            ("pin-" + MODERN, {"versionNegotiation": {"pin": MODERN}}, MODERN)] + \
           [("initialize-" + rev, {"versionNegotiation": "legacy", "initialize": rev}, rev)
            for rev in LEGACY_REVS]


@pytest.mark.parametrize("label,mode,revision", V2_MODES, ids=[label for label, _, _ in V2_MODES])
def test_typescript_v2_client(node_modules, tap, label, mode, revision):
    command, folder = tap
    modern = revision == MODERN
    report = run_ts(node_modules, command, "v2", mode, listen=modern)
    check_answers(report["tools"], report["calls"], report["invalid"], report["walk"])
    assert report["protocolVersion"] == revision
    assert negotiated(folder) == {revision}
    if modern:  # the listen is acknowledged honouring nothing, and closes when the client cancels
        assert report["listen"] == {"opened": True, "honored": {}, "closed": "local"}, report["listen"]
    matrix_line("ts-v2", label, validated_frames(folder), "acknowledged" if modern else "n/a (legacy)")


# ---------------------------------------------------------------------------
# The MCP Inspector CLI
# ---------------------------------------------------------------------------

def inspector(command, era, method, tool=None, arguments=None):
    """One Inspector CLI run (it starts one server per run); returns its JSON result."""
    args = ["node", str(INSPECTOR), "--cli", "--protocol-era", era, "--format", "json", "-q",
            "--method", method]
    if tool is not None:
        args += ["--tool-name", tool, "--tool-args-json", json.dumps(arguments)]
    run = subprocess.run(args + command, cwd=str(TESTS), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         timeout=120)
    output = run.stdout.decode("utf-8", "replace").strip()
    assert output, run.stderr.decode("utf-8", "replace")[-2000:]
    answer = json.loads(output.splitlines()[-1])
    assert "result" in answer, answer
    # Exit 5 is the CLI's "the tool returned isError: true"; anything else non-zero is a failure.
    assert run.returncode == (5 if answer["result"].get("isError") else 0), (run.returncode, answer)
    return answer["result"]


def inspector_walk(command, era):
    walked, cursor, pages = [], None, 0
    while True:
        arguments = dict(WALK["arguments"], limit=7)
        if cursor is not None:
            arguments["cursor"] = cursor
        outcome = inspector(command, era, "tools/call", WALK["name"], arguments)["structuredContent"]["result"]
        walked += [[item["id"], item["sourcePath"]] for item in outcome["items"]]
        cursor, pages = outcome["cursor"], pages + 1
        if cursor is None:
            break
    large = inspector(command, era, "tools/call", WALK["name"], dict(WALK["arguments"], limit=100))
    large = large["structuredContent"]["result"]
    return {"pages": pages, "walked": walked, "largeCursor": large["cursor"],
            "large": [[item["id"], item["sourcePath"]] for item in large["items"]]}


@pytest.mark.parametrize("era,revision", [("legacy", "2025-11-25"), ("auto", MODERN), ("modern", MODERN)])
def test_inspector_cli(node_modules, tap, era, revision):
    command, folder = tap
    tools = [tool["name"] for tool in inspector(command, era, "tools/list")["tools"]]
    calls = {}
    for name, (arguments, _) in CALLS.items():
        result = inspector(command, era, "tools/call", name, arguments)
        calls[name] = {"isError": result.get("isError", False) is True,
                       "outcome": result["structuredContent"]["result"]["outcome"]}
    invalid = inspector(command, era, "tools/call", INVALID["name"], INVALID["arguments"])
    invalid = {"isError": invalid.get("isError") is True, "text": invalid["content"][0]["text"]}
    check_answers(tools, calls, invalid, inspector_walk(command, era))
    assert negotiated(folder) == {revision}
    matrix_line("inspector", era, validated_frames(folder), "n/a (the CLI has no listen method)")


# ---------------------------------------------------------------------------
# fastmcp's Client
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("mode,revision", [("legacy", "2025-11-25"), ("auto", MODERN), (MODERN, MODERN)])
def test_fastmcp_client(tap, mode, revision):
    fastmcp = pytest.importorskip("fastmcp", reason="fastmcp (a dev requirement for Python 3.11+) "
                                  "is not installed")
    anyio = pytest.importorskip("anyio", reason="anyio (installed with fastmcp, Python 3.11+) is "
                                "not installed")
    from fastmcp.client.transports import StdioTransport
    from mcp.client.subscriptions import listen
    command, folder = tap

    async def structured_call(client, name, arguments):
        return await client.call_tool(name, arguments, raise_on_error=False)

    async def walk(client):
        walked, cursor, pages = [], None, 0
        while True:
            arguments = dict(WALK["arguments"], limit=7)
            if cursor is not None:
                arguments["cursor"] = cursor
            outcome = (await structured_call(client, WALK["name"], arguments)).structured_content["result"]
            walked += [[item["id"], item["sourcePath"]] for item in outcome["items"]]
            cursor, pages = outcome["cursor"], pages + 1
            if cursor is None:
                break
        large = await structured_call(client, WALK["name"], dict(WALK["arguments"], limit=100))
        large = large.structured_content["result"]
        return {"pages": pages, "walked": walked, "largeCursor": large["cursor"],
                "large": [[item["id"], item["sourcePath"]] for item in large["items"]]}

    async def scenario():
        transport = StdioTransport(command=command[0], args=command[1:], keep_alive=False)
        async with fastmcp.Client(transport, mode=mode) as client:
            assert client.protocol_version == revision
            tools = [tool.name for tool in await client.list_tools()]
            calls = {}
            for name, (arguments, _) in CALLS.items():
                result = await structured_call(client, name, arguments)
                calls[name] = {"isError": result.is_error, "outcome": result.structured_content["result"]["outcome"]}
            invalid = await structured_call(client, INVALID["name"], INVALID["arguments"])
            invalid = {"isError": invalid.is_error, "text": invalid.content[0].text}
            check_answers(tools, calls, invalid, await walk(client))
            if revision != MODERN:
                return "n/a (legacy)"
            # fastmcp's Client has no listen() of its own: its session takes the SDK's listen driver.
            async with listen(client.session, tools_list_changed=True) as subscription:
                assert not subscription.honored.tools_list_changed
            return "acknowledged"

    listened = anyio.run(scenario)
    assert negotiated(folder) == {revision}
    matrix_line("fastmcp", mode, validated_frames(folder), listened)


# ---------------------------------------------------------------------------
# --expose resources,prompts (ADR 0015): every client lists and reads every resource, lists the
# template and completes its id, lists the prompts and gets each, and meets the error code of its
# era for a missing resource and an unknown prompt; the official Python SDK also in each mode,
# with an edit between two reads.  Every frame validated, as above.
# ---------------------------------------------------------------------------

import hashlib  # noqa: E402


EXPOSE_PLAN = {
    "complete": {"ref": {"type": "ref/resource", "uri": "adrkit://decisions/{id}"},
                 "argument": {"name": "id", "value": "10"}},
    "prompts": {"adr-context": {"files": "src/a.ts"},
                "adr-check": {"files": "src/a.ts,zone-1/b.ts", "plan": "Cache the forecasts."},
                "explain-decision": {"ref": "1013"}},
    "missing": "adrkit://decisions/9999",
    "calls": False,
}


def digest(text):
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@pytest.fixture
def exposed_tap(tmp_path, corpus):
    """tap, with the server started with --expose resources,prompts."""
    folder = tmp_path / "frames"
    folder.mkdir()
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"folder": str(folder), "command": SERVER_COMMAND + [
        "--cwd", corpus, "--expose", "resources,prompts"]}), encoding="utf-8")
    return [sys.executable, str(TAP), str(plan)], folder


@pytest.fixture(scope="session")
def exposure(corpus):
    """What every client must see, computed in-process from the same corpus: the resource uris,
    the SHA-256 of each record's file, the completion and each prompt's text and embeddings."""
    module = _support.M
    config = module.CorpusConfig(corpus)
    assert module.check_roots(config) is None
    projection = module.load_projection(config)
    records = {}
    for record in projection.records:
        if len(projection.by_id[record.id]) == 1:
            with open(os.path.join(corpus, record.path), "rb") as handle:
                records["adrkit://decisions/" + record.id] = digest(handle.read().decode("utf-8", "replace"))
    complete = module.serve_exposed(config, "completion/complete", EXPOSE_PLAN["complete"], MODERN,
                                    ("resources",))["completion"]
    got = {}
    for name, arguments in EXPOSE_PLAN["prompts"].items():
        result = module.serve_exposed(config, "prompts/get", {"name": name, "arguments": arguments},
                                      MODERN, ("prompts",))
        got[name] = {"text": result["messages"][0]["content"]["text"],
                     "embedded": [["resource", m["content"]["resource"]["uri"], digest(m["content"]["resource"]["text"])]
                                  for m in result["messages"][1:]]}
    return {"records": records, "completion": complete, "got": got}


def check_exposed(report, exposure, revision):
    """The checks every client's report of the exposed methods must pass."""
    uris = ["adrkit://decisions", "adrkit://superseded"] + list(exposure["records"])
    assert report["resources"] == uris and len(uris) == 261
    for uri in uris:
        [(read_uri, mime, text_digest)] = report["reads"][uri]
        assert (read_uri, mime) == (uri, "text/markdown")
        assert text_digest == exposure["records"].get(uri, text_digest), uri
    assert report["templates"] == ["adrkit://decisions/{id}"]
    completion = report["completion"]
    assert (completion["values"], completion.get("total"), completion.get("hasMore")) == (
        exposure["completion"]["values"], exposure["completion"]["total"], exposure["completion"]["hasMore"])
    assert len(completion["values"]) == 96  # 1000..1099, less the four ids two records claim
    assert report["prompts"] == ["adr-check", "adr-context", "explain-decision"]
    assert report["got"] == exposure["got"]
    assert report["got"]["adr-check"]["embedded"] and report["got"]["explain-decision"]["embedded"]
    # What the client reports may be its own mapping (the TypeScript v2 client turns a -32002 with
    # data.uri into its ResourceNotFoundError, code -32602); the wire's code is checked apart.
    assert report["missing"] in (-32002, -32602), report["missing"]
    assert report["unknownPrompt"] == -32602


def wire_errors(folder):
    """{(method, code)} of every error the server answered in the transcripts."""
    found = set()
    for transcript in folder.glob("*.jsonl"):
        methods = {}
        for line in transcript.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            msg = entry.get("msg")
            if not isinstance(msg, dict) or "id" not in msg:
                continue
            key = json.dumps(msg["id"])
            if entry["dir"] == "c2s" and "method" in msg:
                methods[key] = msg["method"]
            elif entry["dir"] == "s2c" and isinstance(msg.get("error"), dict):
                found.add((methods.get(key), msg["error"]["code"]))
    return found


def check_wire_errors(folder, revision):
    """The missing resource is -32002 (data.uri, checked by the validator) before 2026-07-28 and
    -32602 from it; the unknown prompt -32602; nothing else failed."""
    expected = {("resources/read", -32602 if revision == MODERN else -32002), ("prompts/get", -32602)}
    assert wire_errors(folder) == expected


def finish_exposed(report, exposure, folder, revision, client, label):
    """The report, the wire's error codes, the revision of every transcript, every frame valid."""
    check_exposed(report, exposure, revision)
    check_wire_errors(folder, revision)
    assert negotiated_any(folder) == {revision}
    matrix_line(client, label + " --expose", validated_frames(folder), "n/a")


def check_capabilities(capabilities, revision):
    assert capabilities.get("resources") == {} and capabilities.get("prompts") == {}, capabilities
    assert ("completions" in capabilities) == (revision != "2024-11-05"), capabilities


def test_typescript_sdk_1x_resources_and_prompts(node_modules, exposed_tap, exposure):
    command, folder = exposed_tap
    scenario_report = run_ts_exposed(node_modules, command, "sdk", {})
    check_capabilities(scenario_report["capabilities"], "2025-11-25")
    finish_exposed(scenario_report["expose"], exposure, folder, "2025-11-25", "ts-sdk-1", "legacy")


@pytest.mark.parametrize("label,mode,revision", V2_MODES, ids=[label for label, _, _ in V2_MODES])
def test_typescript_v2_client_resources_and_prompts(node_modules, exposed_tap, exposure, label, mode, revision):
    command, folder = exposed_tap
    scenario_report = run_ts_exposed(node_modules, command, "v2", mode)
    assert scenario_report["protocolVersion"] == revision
    check_capabilities(scenario_report["capabilities"], revision)
    finish_exposed(scenario_report["expose"], exposure, folder, revision, "ts-v2", label)


def run_ts_exposed(node_modules, command, client, mode):
    scenario = {"client": client, "mode": mode, "command": command, "calls": {}, "listen": False,
                "expose": EXPOSE_PLAN}
    run = subprocess.run(["node", str(DRIVER), json.dumps(scenario)], cwd=str(TESTS),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")[-4000:]
    return json.loads(run.stdout.decode("utf-8").strip().splitlines()[-1])


def negotiated_any(folder):
    """negotiated(), also from requests other than tools/call (the exposed methods)."""
    revisions = set()
    for transcript in folder.glob("*.jsonl"):
        for line in transcript.read_text(encoding="utf-8").splitlines():
            msg = json.loads(line).get("msg")
            if not isinstance(msg, dict):
                continue
            result = msg.get("result")
            if isinstance(result, dict) and "protocolVersion" in result and "serverInfo" in result:
                revisions.add(result["protocolVersion"])
            meta = (msg.get("params") or {}).get("_meta") if isinstance(msg.get("params"), dict) else None
            if msg.get("method", "").startswith(("resources/", "prompts/")) and isinstance(meta, dict) \
                    and "io.modelcontextprotocol/protocolVersion" in meta:
                revisions.add(meta["io.modelcontextprotocol/protocolVersion"])
    return revisions


def inspector_json(command, era, method, *options):
    """One Inspector CLI run: (exit status, its last JSON line: on stdout, or on stderr for an error)."""
    args = ["node", str(INSPECTOR), "--cli", "--protocol-era", era, "--format", "json", "-q",
            "--method", method] + list(options)
    # "--" ends a variadic option (--prompt-args) before the server command.
    run = subprocess.run(args + ["--"] + command, cwd=str(TESTS), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, timeout=120)
    output = run.stdout.decode("utf-8", "replace").strip() or run.stderr.decode("utf-8", "replace").strip()
    assert output, (run.returncode, run.stderr)
    return run.returncode, json.loads(output.splitlines()[-1])


@pytest.mark.parametrize("era,revision", [("legacy", "2025-11-25"), ("auto", MODERN), ("modern", MODERN)])
def test_inspector_cli_resources_and_prompts(node_modules, exposed_tap, exposure, era, revision):
    command, folder = exposed_tap
    status, listed = inspector_json(command, era, "resources/list")
    assert status == 0
    uris = [resource["uri"] for resource in listed["result"]["resources"]]
    assert uris == ["adrkit://decisions", "adrkit://superseded"] + list(exposure["records"])
    for uri in uris[:3] + uris[-1:]:
        status, read = inspector_json(command, era, "resources/read", "--uri", uri)
        [contents] = read["result"]["contents"]
        assert status == 0 and contents["uri"] == uri and contents["mimeType"] == "text/markdown"
        assert digest(contents["text"]) == exposure["records"].get(uri, digest(contents["text"]))
    status, missing = inspector_json(command, era, "resources/read", "--uri", EXPOSE_PLAN["missing"])
    assert status != 0 and "Resource not found" in missing["error"]["message"], missing
    status, unknown = inspector_json(command, era, "prompts/get", "--prompt-name", "adr-review")
    assert status != 0 and "unknown prompt" in unknown["error"]["message"], unknown
    status, templates = inspector_json(command, era, "resources/templates/list")
    assert [t["uriTemplate"] for t in templates["result"]["resourceTemplates"]] == ["adrkit://decisions/{id}"]
    status, prompts = inspector_json(command, era, "prompts/list")
    assert [p["name"] for p in prompts["result"]["prompts"]] == ["adr-check", "adr-context", "explain-decision"]
    for name, arguments in EXPOSE_PLAN["prompts"].items():
        pairs = ["%s=%s" % item for item in arguments.items()]
        status, got = inspector_json(command, era, "prompts/get", "--prompt-name", name, "--prompt-args", *pairs)
        messages = got["result"]["messages"]
        assert status == 0 and messages[0]["content"]["text"] == exposure["got"][name]["text"]
        assert [["resource", m["content"]["resource"]["uri"], digest(m["content"]["resource"]["text"])]
                for m in messages[1:]] == exposure["got"][name]["embedded"]
    check_wire_errors(folder, revision)
    assert negotiated_any(folder) == {revision}
    matrix_line("inspector", era + " --expose", validated_frames(folder), "n/a")


async def python_report(client, kind):
    """The TypeScript driver's report, from the official Python SDK's Client ("sdk") or fastmcp's."""
    import mcp_types as types
    report = {"resources": [], "reads": {}}
    if kind == "fastmcp":
        report["resources"] = [str(resource.uri) for resource in await client.list_resources()]
        templates = await client.list_resource_templates()
    else:
        cursor = None
        while True:
            page = await client.list_resources(cursor=cursor)
            report["resources"] += [str(resource.uri) for resource in page.resources]
            cursor = page.next_cursor
            if cursor is None:
                break
        templates = (await client.list_resource_templates()).resource_templates
    for uri in report["resources"]:
        read = await client.read_resource(uri)
        contents = read if kind == "fastmcp" else read.contents
        report["reads"][uri] = [(str(c.uri), c.mime_type, digest(c.text)) for c in contents]
    report["templates"] = [template.uri_template for template in templates]
    plan = EXPOSE_PLAN["complete"]
    completion = await client.complete(types.ResourceTemplateReference(**plan["ref"]), plan["argument"])
    completion = completion if kind == "fastmcp" else completion.completion
    report["completion"] = {"values": completion.values, "total": completion.total, "hasMore": completion.has_more}
    prompts = await client.list_prompts()
    report["prompts"] = [prompt.name for prompt in (prompts if kind == "fastmcp" else prompts.prompts)]
    report["got"] = {}
    for name, arguments in EXPOSE_PLAN["prompts"].items():
        got = await client.get_prompt(name, arguments)
        report["got"][name] = {"text": got.messages[0].content.text, "embedded": [
            [m.content.type, str(m.content.resource.uri), digest(m.content.resource.text)] for m in got.messages[1:]]}
    report["missing"] = await error_code(client.read_resource(EXPOSE_PLAN["missing"]))
    report["unknownPrompt"] = await error_code(client.get_prompt("adr-review", {}))
    return report


async def error_code(awaitable):
    try:
        await awaitable
    except Exception as error:  # the client's own exception type: MCPError, or fastmcp's
        code = getattr(error, "code", None)
        error_data = getattr(error, "error", None)
        return code if code is not None else getattr(error_data, "code", repr(error))
    return None


PYTHON_MODES = [("legacy", "2025-11-25"), ("auto", MODERN), (MODERN, MODERN)]


@pytest.mark.parametrize("mode,revision", PYTHON_MODES)
@pytest.mark.parametrize("kind", ["sdk", "fastmcp"])
def test_python_clients_resources_and_prompts(exposed_tap, exposure, kind, mode, revision):
    """The official Python SDK's Client ("sdk") and fastmcp's, each in each of its modes."""
    package = "mcp" if kind == "sdk" else "fastmcp"
    library = pytest.importorskip(package, reason="%s (a dev requirement for Python 3.11+) is not "
                                  "installed" % package)
    anyio = pytest.importorskip("anyio", reason="anyio (installed with %s) is not installed" % package)
    command, folder = exposed_tap

    def connect():
        if kind == "sdk":
            return library.Client(library.StdioServerParameters(command=command[0], args=command[1:]), mode=mode)
        from fastmcp.client.transports import StdioTransport
        return library.Client(StdioTransport(command=command[0], args=command[1:], keep_alive=False), mode=mode)

    async def scenario():
        async with connect() as client:
            assert client.protocol_version == revision
            if kind == "sdk" and mode != MODERN:  # a pinned client adopts without asking anything
                check_capabilities(client.server_capabilities.model_dump(exclude_none=True), revision)
            return await python_report(client, kind)

    finish_exposed(anyio.run(scenario), exposure, folder, revision,
                   "python-sdk" if kind == "sdk" else "fastmcp", mode)


@pytest.mark.parametrize("mode,revision", PYTHON_MODES)
def test_python_sdk_sees_a_record_edited_between_two_reads(tmp_path, mode, revision):
    """The SDK caches what 2026-07-28 results allow; a read and a list of corpus content allow
    nothing (ttlMs 0, private), so an edit between two reads shows in the second."""
    mcp = pytest.importorskip("mcp", reason="the official Python SDK (mcp) is not installed")
    anyio = pytest.importorskip("anyio", reason="anyio (installed with mcp) is not installed")
    repo = _support.Repo(tmp_path / "repo")
    repo.record("0001-a.md", title="First wording")
    folder = tmp_path / "frames"
    folder.mkdir()
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"folder": str(folder), "command": SERVER_COMMAND + [
        "--cwd", repo.root, "--expose", "resources"]}), encoding="utf-8")
    uri = "adrkit://decisions/0001"

    async def scenario():
        server = mcp.StdioServerParameters(command=sys.executable, args=[str(TAP), str(plan)])
        async with mcp.Client(server, mode=mode) as client:
            before = (await client.read_resource(uri)).contents[0].text
            listed = (await client.list_resources()).resources
            repo.record("0001-a.md", title="Second, longer wording")
            after = (await client.read_resource(uri)).contents[0].text
            relisted = (await client.list_resources()).resources
            return before, after, listed[-1].size, relisted[-1].size

    before, after, size_before, size_after = anyio.run(scenario)
    assert "First wording" in before and "Second, longer wording" in after
    with open(repo.adr_path("0001-a.md"), encoding="utf-8") as handle:
        assert after == handle.read()
    assert size_after == len(after.encode("utf-8")) != size_before
    assert negotiated_any(folder) == {revision}
    matrix_line("python-sdk", mode + " staleness", validated_frames(folder), "n/a")
