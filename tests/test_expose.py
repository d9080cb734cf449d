"""`--expose resources,prompts` (ADR 0015): the decisions as MCP resources and prompts, on a real
server process in every protocol revision, every frame checked by the frame validator
(tests/frame_validator.py, through tests/_session.py) against the official schema of its revision.

Off by default: the same bytes as without the option (capabilities {"tools": {}}, -32601 for
every method below, the `{}` listen acknowledgement), proven by comparing transcripts with the
option absent, explicitly empty and given as an empty sequence to the embedding API.  On: every
resource listed and read, the template and its completion, every prompt, the error code of each
era, the cache hints of 2026-07-28, an edit between two reads, the bounds of a prompt, pagination,
and the command line, `config` and `doctor` around it.  The third-party clients drive the same
methods in tests/test_clients.py.
"""

import json
import os
import subprocess
import sys

import pytest

import _session as wire
import _support as support
from _session import LEGACY_REVS, MODERN, PV, CAPS

M = support.M
ERAS = LEGACY_REVS + (MODERN,)
UNTITLED = ("2024-11-05", "2025-03-26")
EXPOSED_METHODS = ("completion/complete", "prompts/get", "prompts/list", "resources/list",
                   "resources/read", "resources/templates/list")
DECIDERS = 'deciders: ["@team"]\n'


def affects(*patterns):
    return "affects:\n" + "".join('  - type: path\n    pattern: "%s"\n' % pattern for pattern in patterns)


def build_corpus(repo):
    """A small corpus with every status, relations both ways, a duplicated id, a federated
    replacement, a CRLF record with a pipe in its title, a broken file and an oversized one."""
    repo.record("0001-adopt-postgres.md", title="Adopt Postgres", status="accepted", date="2026-01-02",
                extra=DECIDERS + 'tags: [db, storage]\nsupersedes: ["0002"]\nrelatesTo: ["0003"]\n'
                + affects("src/db/**"), body="# Adopt Postgres\n\nWe use Postgres.\n")
    repo.record("0002-use-mysql.md", title="Use MySQL", status="superseded", date="2025-03-04",
                extra='supersededBy: "0001"\n' + affects("src/db/**"))
    repo.record("0003-pool-size.md", title="Pool size of ten", status="proposed",
                extra=affects("src/db/pool.ts"))
    repo.record("0004-use-mongodb.md", title="Use MongoDB", status="rejected", extra=affects("src/db/**"))
    repo.record("0005-old-layout.md", title="Old layout", status="deprecated", extra=affects("src/**"))
    repo.record("0006-first.md", title="First of two", status="proposed")
    repo.record("0006-second.md", title="Second of two", status="draft")
    repo.record("0007-moved-away.md", title="Moved to core", status="superseded",
                extra='supersededBy: "core:0100"\n')
    repo.record("0008-queue.md", title="Queue with | pipes and caf\u00e9", status="draft", newline="\r\n",
                extra=affects("src/queue/**"), body="Caf\u00e9 au lait.\n")
    repo.write("0099-broken.md", "no fence here\n")
    repo.write("0100-huge.md", support.record_text("0100", body="x" * (70 * 1024)))
    return repo


@pytest.fixture
def corpus(make_repo):
    return build_corpus(make_repo("corpus"))


def source_of(repo, name):
    with open(repo.adr_path(name), "rb") as handle:
        return handle.read().decode("utf-8")


class Client(object):
    """One server process spoken to in one era: ask(method, params) -> the frame."""

    def __init__(self, session, era):
        self.session, self.era, self.modern = session, era, era == MODERN
        self.next_id = 1
        if not self.modern:
            self.init = session.initialize(era)

    def ask(self, method, params=None):
        self.next_id += 1
        return self.session.call(self.next_id, method, params, modern=self.modern, timeout=30)

    def result(self, method, params=None):
        frame = self.ask(method, params)
        assert "result" in frame, frame
        return frame["result"]

    def error(self, method, params=None):
        frame = self.ask(method, params)
        assert "error" in frame, frame
        return frame["error"]

    def capabilities(self):
        if self.modern:
            return self.result("server/discover")["capabilities"]
        return self.init["result"]["capabilities"]


@pytest.fixture
def connect(open_session):
    def start(root, era, *extra, env=None):
        return Client(open_session(*extra, root=root, env=env), era)
    return start


def walk(client, method, key):
    """Every entry of a paginated list, following nextCursor."""
    items, params = [], {}
    while True:
        result = client.result(method, params)
        items += result[key]
        if "nextCursor" not in result:
            return items
        params = {"cursor": result["nextCursor"]}


# ---------------------------------------------------------------------------
# Off by default: the same bytes as before
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("era", ERAS)
def test_off_declares_tools_only_and_knows_none_of_the_methods(connect, corpus, era):
    client = connect(corpus.root, era)
    assert client.capabilities() == {"tools": {}}
    for method in EXPOSED_METHODS:
        error = client.error(method, {"uri": "adrkit://decisions", "name": "adr-context"})
        assert error == {"code": -32601, "message": "Method not found: %s" % method}


TRANSCRIPT = [
    ("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": {"name": "t", "version": "1"}}, False),
    ("tools/list", None, False),
    ("tools/call", {"name": "get_decision_context", "arguments": {"files": ["src/db/pool.ts"]}}, False),
    ("tools/call", {"name": "get_decision", "arguments": {"ref": "0001"}}, False),
    ("resources/list", None, False),
    ("resources/read", {"uri": "adrkit://decisions/0001"}, False),
    ("resources/templates/list", None, False),
    ("prompts/list", None, False),
    ("prompts/get", {"name": "adr-context", "arguments": {"files": "src/db/pool.ts"}}, False),
    ("completion/complete", {"ref": {"type": "ref/prompt", "name": "explain-decision"},
                             "argument": {"name": "ref", "value": "0"}}, False),
    ("server/discover", {}, True),
    ("tools/list", {}, True),
    ("tools/call", {"name": "list_superseded", "arguments": {}}, True),
    ("resources/list", {}, True),
    ("prompts/get", {"name": "adr-check", "arguments": {"files": "src/db/pool.ts"}}, True),
    ("subscriptions/listen", {"notifications": {"toolsListChanged": True, "resourcesListChanged": True,
                                                "promptsListChanged": True,
                                                "resourceSubscriptions": ["adrkit://decisions"]}}, True),
]


def transcript_bytes(command, root, env=None):
    """The raw stdout lines answering TRANSCRIPT, one request at a time."""
    session = wire.Session(command, [] if root is None else ["--cwd", root], env=env)
    lines = []
    try:
        for number, (method, params, modern) in enumerate(TRANSCRIPT, 1):
            session.request(number, method, params, modern)
            line = session.lines.get(timeout=30)
            assert line is not None, session.stderr()
            session.checker.check_line(line)
            lines.append(line)
        assert session.checker.problems == [], session.checker.problems
        status, _ = session.close()
        assert status == 0, session.stderr()
    finally:
        session.kill()
    return lines


def test_off_is_byte_identical_absent_empty_and_through_the_embedding_api(server_command, corpus,
                                                                          server_module):
    absent = transcript_bytes(server_command, corpus.root)
    empty = transcript_bytes(server_command, corpus.root, env={"ADRKIT_MCP_EXPOSE": ""})
    embedded = transcript_bytes(
        [support.SERVER_PYTHON, "-c", support.with_cached_module(
            "import sys\nm = cached_module('adrkit_mcp', %r, CACHE)\n"
            "sys.exit(m.run_server(%r, None, 120000, expose=[]))\n" % (server_module, corpus.root))],
        None)
    assert absent == empty == embedded
    frames = [json.loads(line) for line in absent]
    assert frames[0]["result"]["capabilities"] == {"tools": {}}
    assert [frame["error"]["code"] for frame in frames[4:10]] == [-32601] * 6
    assert frames[10]["result"]["capabilities"] == {"tools": {}}
    assert [frame["error"]["code"] for frame in frames[13:15]] == [-32601] * 2
    assert frames[15]["params"]["notifications"] == {}  # the listen acknowledgement (ADR 0011)


def test_tool_results_are_the_same_bytes_with_the_option_on(server_command, corpus):
    """Tool answers never change with --expose (no resource links, no other text)."""
    def tool_lines(*extra):
        session = wire.Session(server_command, ["--cwd", corpus.root] + list(extra))
        try:
            session.initialize("2025-11-25")
            answers = []
            for number, (name, arguments) in enumerate(
                    [("get_decision", {"ref": "0001"}), ("get_decision_context", {"files": ["src/db/x.ts"]}),
                     ("list_superseded", {}), ("search_decisions", {"query": "use"}),
                     ("tools/list", None)], 1):
                if name == "tools/list":
                    session.request(number, name)
                else:
                    session.request(number, "tools/call", {"name": name, "arguments": arguments})
                answers.append(session.lines.get(timeout=30))
            assert session.close()[0] == 0
            return answers
        finally:
            session.kill()
    assert tool_lines() == tool_lines("--expose", "resources,prompts")


# ---------------------------------------------------------------------------
# Capabilities and the listen acknowledgement
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("era", ERAS)
@pytest.mark.parametrize("parts", ["resources,prompts", "resources", "prompts"])
def test_capabilities_follow_the_parts_and_the_revision(connect, corpus, era, parts):
    client = connect(corpus.root, era, "--expose", parts)
    expected = {"tools": {}}
    expected.update({part: {} for part in parts.split(",")})
    if era != "2024-11-05":
        expected["completions"] = {}
    assert client.capabilities() == expected
    served = {"resources": ("resources/list", "resources/read", "resources/templates/list"),
              "prompts": ("prompts/list", "prompts/get")}
    for part, methods in served.items():
        if part not in parts:
            for method in methods:
                assert client.error(method, {"uri": "adrkit://decisions", "name": "adr-context"})["code"] == -32601


def test_the_listen_acknowledgement_stays_empty_with_the_option_on(connect, corpus):
    client = connect(corpus.root, MODERN, "--expose", "resources,prompts")
    client.session.request(7, "subscriptions/listen", {"notifications": {
        "toolsListChanged": True, "resourcesListChanged": True, "promptsListChanged": True,
        "resourceSubscriptions": ["adrkit://decisions", "adrkit://decisions/0001"]}}, modern=True)
    acknowledgement = client.session.recv()
    assert acknowledgement["method"] == wire.ACKNOWLEDGED
    assert acknowledgement["params"]["notifications"] == {}
    client.session.notify("notifications/cancelled", {"requestId": 7})
    client.session.no_frame()


# ---------------------------------------------------------------------------
# Resources
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("era", ERAS)
def test_every_resource_is_listed_and_reads_back(connect, corpus, era):
    client = connect(corpus.root, era, "--expose", "resources")
    resources = walk(client, "resources/list", "resources")
    uris = [resource["uri"] for resource in resources]
    # The two lists, then every record whose id is its own: 0006 (two records), the broken and
    # the oversized file have none.
    assert uris == ["adrkit://decisions", "adrkit://superseded"] + [
        "adrkit://decisions/%s" % ident for ident in ("0001", "0002", "0003", "0004", "0005", "0007", "0008")]
    titled = era not in UNTITLED
    files = {"0001": "0001-adopt-postgres.md", "0002": "0002-use-mysql.md", "0003": "0003-pool-size.md",
             "0004": "0004-use-mongodb.md", "0005": "0005-old-layout.md", "0007": "0007-moved-away.md",
             "0008": "0008-queue.md"}
    for resource in resources:
        assert resource["mimeType"] == "text/markdown"
        assert ("title" in resource) == titled
        contents = client.result("resources/read", {"uri": resource["uri"]})["contents"]
        assert len(contents) == 1 and contents[0]["uri"] == resource["uri"]
        assert contents[0]["mimeType"] == "text/markdown"
        ident = resource["uri"].rsplit("/", 1)[1]
        if ident in files:
            text = source_of(corpus, files[ident])
            assert contents[0]["text"] == text  # the file as it is on disk, CRLF and all
            assert resource["size"] == len(text.encode("utf-8"))
            assert resource["name"] == ident
            assert ("annotations" in resource) == titled
    first = resources[2]
    if titled:
        assert first["title"] == "0001 Adopt Postgres"
        assert first["description"] == "accepted decision of 2026-01-02; tags: db, storage."
        assert first["annotations"] == {"lastModified": "2026-01-02T00:00:00Z"}
    else:
        assert first["description"] == "0001 Adopt Postgres: accepted decision of 2026-01-02; tags: db, storage."


def test_the_index_and_the_superseded_list(connect, corpus):
    client = connect(corpus.root, "2025-11-25", "--expose", "resources")
    index = client.result("resources/read", {"uri": "adrkit://decisions"})["contents"][0]["text"]
    rows = [line for line in index.splitlines() if line.startswith("| 0")]
    assert [row.split(" | ")[0][2:] for row in rows] == ["0001", "0002", "0003", "0004", "0005", "0006",
                                                         "0006", "0007", "0008"]
    assert "| 0001 | Adopt Postgres | accepted | 2026-01-02 | docs/adr/0001-adopt-postgres.md |" in rows
    assert "| 0008 | Queue with \\| pipes and caf\u00e9 | draft |" in index
    assert index.startswith("# Decision records\n\n9 records in docs/adr,")
    superseded = client.result("resources/read", {"uri": "adrkit://superseded"})["contents"][0]["text"]
    rows = [line for line in superseded.splitlines() if line.startswith("| 0")]
    assert [row.split(" | ")[0][2:] for row in rows] == ["0002", "0004", "0005", "0007"]
    assert rows[0].endswith('| ADR 0001 "Adopt Postgres" (accepted) |')
    assert rows[1].endswith("| rejected | 2025-01-01 | docs/adr/0004-use-mongodb.md | - |")
    assert rows[3].endswith("| core:0100 in another decision log |")


@pytest.mark.parametrize("era", ERAS)
def test_unknown_ambiguous_and_federated_ids_are_not_found_in_the_code_of_the_era(connect, corpus, era):
    client = connect(corpus.root, era, "--expose", "resources")
    code = -32602 if era == MODERN else -32002
    cases = {
        "adrkit://decisions/0042": 'no decision record has the id "0042"',
        "adrkit://decisions/0006": 'the id "0006" is claimed by 2 records',
        "adrkit://decisions/core%3A0001": '"core:0001" names the decision log "core"',
        "adrkit://decisions/0100": 'no decision record has the id "0100"',  # over 64 KiB: never read
        "adrkit://decisions/0099": 'no decision record has the id "0099"',  # not a record
        "adrkit://decisions/../../etc/passwd": "no decision record",
        "file:///etc/passwd": "is not adrkit://decisions",
        "adrkit://decision": "is not adrkit://decisions",
    }
    for uri, words in cases.items():
        error = client.error("resources/read", {"uri": uri})
        assert error["code"] == code and error["data"] == {"uri": uri}, error
        assert error["message"].startswith("Resource not found: ") and words in error["message"], error
    for params in ({}, {"uri": 7}):
        error = client.error("resources/read", params)
        assert error["code"] == -32602 and "needs a string uri" in error["message"]


def test_a_record_edited_between_two_reads_shows_the_edit(connect, corpus):
    for era in ("2025-11-25", MODERN):
        client = connect(corpus.root, era, "--expose", "resources")
        first = client.result("resources/read", {"uri": "adrkit://decisions/0003"})
        path = corpus.record("0003-pool-size.md", title="Pool size of twenty (%s)" % era, status="proposed",
                             extra=affects("src/db/pool.ts"))
        second = client.result("resources/read", {"uri": "adrkit://decisions/0003"})
        assert second["contents"][0]["text"] == source_of(corpus, "0003-pool-size.md")
        assert second["contents"][0]["text"] != first["contents"][0]["text"]
        assert "Pool size of twenty (%s)" % era in second["contents"][0]["text"]
        listed = [r for r in walk(client, "resources/list", "resources") if r["uri"].endswith("/0003")]
        assert listed[0]["size"] == os.path.getsize(path)
        if era == MODERN:
            assert (second["ttlMs"], second["cacheScope"]) == (0, "private")


def test_modern_cache_hints(connect, corpus):
    client = connect(corpus.root, MODERN, "--expose", "resources,prompts")
    for method, params, hint in (("resources/list", {}, (0, "private")),
                                 ("resources/read", {"uri": "adrkit://decisions"}, (0, "private")),
                                 ("resources/read", {"uri": "adrkit://decisions/0001"}, (0, "private")),
                                 ("resources/templates/list", {}, (300000, "public")),
                                 ("prompts/list", {}, (300000, "public")),
                                 ("prompts/get", {"name": "explain-decision", "arguments": {"ref": "0001"}}, None),
                                 ("completion/complete", {"ref": {"type": "ref/prompt", "name": "explain-decision"},
                                                          "argument": {"name": "ref", "value": ""}}, None)):
        result = client.result(method, params)
        assert result["resultType"] == "complete"
        assert result["_meta"][wire.SERVER_INFO]["name"] == "adrkit-mcp"
        if hint is None:
            assert "ttlMs" not in result and "cacheScope" not in result
        else:
            assert (result["ttlMs"], result["cacheScope"]) == hint


@pytest.mark.parametrize("era", ERAS)
def test_the_template_and_its_completion(connect, corpus, era):
    client = connect(corpus.root, era, "--expose", "resources")
    templates = client.result("resources/templates/list")["resourceTemplates"]
    assert [template["uriTemplate"] for template in templates] == ["adrkit://decisions/{id}"]
    assert ("title" in templates[0]) == (era not in UNTITLED)
    ref = {"type": "ref/resource", "uri": "adrkit://decisions/{id}"}
    completion = client.result("completion/complete", {"ref": ref, "argument": {"name": "id", "value": "000"}})
    # 0006 is claimed by two records: its resource cannot be read, so it is not offered.
    assert completion["completion"] == {"values": ["0001", "0002", "0003", "0004", "0005", "0007", "0008"],
                                        "total": 7, "hasMore": False}
    completion = client.result("completion/complete", {"ref": ref, "argument": {"name": "id", "value": "0007"}})
    assert completion["completion"]["values"] == ["0007"]
    for params, words in (({"ref": ref, "argument": {"name": "uri", "value": ""}}, "has no argument"),
                          ({"ref": {"type": "ref/resource", "uri": "adrkit://decisions"},
                            "argument": {"name": "id", "value": ""}}, "is not a prompt or resource template"),
                          ({"ref": {"type": "ref/prompt", "name": "adr-context"},
                            "argument": {"name": "files", "value": ""}}, "is not a prompt"),  # prompts are off
                          ({"ref": ref}, "needs a ref"),
                          ({"ref": {"type": "ref/other"}, "argument": {"name": "id", "value": ""}}, "needs a ref")):
        error = client.error("completion/complete", params)
        assert error["code"] == -32602 and words in error["message"], error
    for params in ({"cursor": "x"},):
        assert client.error("resources/templates/list", params)["code"] == -32602


def test_pagination_of_a_large_corpus(connect, make_repo):
    repo = make_repo("large")
    for number in range(1, 1051):
        repo.record("%04d-r.md" % number, title="Record %d" % number)
    client = connect(repo.root, MODERN, "--expose", "resources,prompts")
    first = client.result("resources/list", {})
    assert len(first["resources"]) == 1000 and isinstance(first["nextCursor"], str)
    second = client.result("resources/list", {"cursor": first["nextCursor"]})
    assert len(second["resources"]) == 52 and "nextCursor" not in second
    assert second["resources"][-1]["uri"] == "adrkit://decisions/1050"
    for cursor in ("not a cursor", first["nextCursor"][:-3]):
        error = client.error("resources/list", {"cursor": cursor})
        assert error["code"] == -32602 and error["message"].startswith("Invalid params: Cursor")
    repo.record("1051-r.md", title="One more")
    error = client.error("resources/list", {"cursor": first["nextCursor"]})
    assert error == {"code": -32602, "message": "Invalid params: Corpus changed after this cursor was issued."}
    ref = {"type": "ref/prompt", "name": "explain-decision"}
    completion = client.result("completion/complete", {"ref": ref, "argument": {"name": "ref", "value": "1"}})
    assert completion["completion"]["total"] == 52 and len(completion["completion"]["values"]) == 52
    completion = client.result("completion/complete", {"ref": ref, "argument": {"name": "ref", "value": "0"}})
    assert completion["completion"] == {"values": ["%04d" % n for n in range(1, 101)], "total": 999,
                                        "hasMore": True}
    index = client.result("resources/read", {"uri": "adrkit://decisions"})["contents"][0]["text"]
    assert len(index.encode("utf-8")) <= 64 * 1024
    assert index.rstrip("\n").splitlines()[-1].endswith(
        "more not shown (this list stops at 64 KiB): search_decisions and resources/list reach every record.")


# ---------------------------------------------------------------------------
# Prompts
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("era", ERAS)
def test_the_prompts_are_listed(connect, corpus, era):
    client = connect(corpus.root, era, "--expose", "prompts")
    prompts = client.result("prompts/list")["prompts"]
    assert [prompt["name"] for prompt in prompts] == ["adr-check", "adr-context", "explain-decision"]
    assert [[(a["name"], a["required"]) for a in prompt["arguments"]] for prompt in prompts] == [
        [("files", True), ("plan", False)], [("files", True)], [("ref", True)]]
    assert all(("title" in prompt) == (era not in UNTITLED) for prompt in prompts)
    assert "complies, departs, supersedes, unreconciled, re-proposes-rejected" in prompts[0]["description"]
    assert client.error("prompts/list", {"cursor": "abc"})["code"] == -32602


def embedded(result):
    return [message["content"]["resource"] for message in result["messages"][1:]]


@pytest.mark.parametrize("era", ERAS)
def test_adr_context_groups_and_embeds_the_decisions_of_the_files(connect, corpus, era):
    client = connect(corpus.root, era, "--expose", "prompts")
    result = client.result("prompts/get", {"name": "adr-context",
                                           "arguments": {"files": " src/db/pool.ts , src/db/index.ts"}})
    assert [message["role"] for message in result["messages"]] == ["user"] * len(result["messages"])
    text = result["messages"][0]["content"]["text"]
    lines = text.splitlines()
    assert lines[0].startswith("Decision records (docs/adr) that concern src/db/pool.ts, src/db/index.ts.")
    order = [line.split(" ")[0].rstrip(":") if not line.startswith("- ADR") else line.split(" ")[2]
             for line in lines if line.startswith(("Binding", "In flight", "History", "Rejected", "- ADR"))]
    assert order == ["Binding", "0001", "In", "0003", "History", "0002", "0005", "Rejected", "0004"]
    assert '- ADR 0002 "Use MySQL" (superseded, docs/adr/0002-use-mysql.md); matched by path src/db/**; ' \
           'replaced by ADR 0001 "Adopt Postgres" (accepted)' in lines
    assert "Embedded below as resources: ADR 0001, ADR 0003, ADR 0004, ADR 0002, ADR 0005." in lines
    assert "The corpus has 5 findings." in text and "docs/adr/0100-huge.md: record-too-large" in text
    resources = embedded(result)
    assert [r["uri"] for r in resources] == ["adrkit://decisions/%s" % i for i in ("0001", "0003", "0004", "0002", "0005")]
    assert resources[0]["text"] == source_of(corpus, "0001-adopt-postgres.md")
    assert all(r["mimeType"] == "text/markdown" for r in resources)
    assert result["description"] == "1 binding, 1 in flight, 2 history, 1 rejected, for src/db/pool.ts, src/db/index.ts"


def test_adr_check_asks_for_one_verdict_per_binding_decision(connect, corpus):
    client = connect(corpus.root, MODERN, "--expose", "prompts")
    result = client.result("prompts/get", {"name": "adr-check", "arguments": {
        "files": "src/db/pool.ts", "plan": "Move the pool to MongoDB."}})
    text = result["messages"][0]["content"]["text"]
    assert text.startswith("Check the work on src/db/pool.ts against the decision records (docs/adr)")
    assert "The plan or change to check:\nMove the pool to MongoDB." in text
    assert "each exactly one of: complies, departs, supersedes, unreconciled, re-proposes-rejected" in text
    assert "No Binding decision" not in text
    elsewhere = client.result("prompts/get", {"name": "adr-check", "arguments": {"files": "src/queue/a.ts"}})
    text = elsewhere["messages"][0]["content"]["text"]
    assert "No Binding decision concerns these files" in text and "The plan or change" not in text
    assert [r["uri"] for r in embedded(elsewhere)] == ["adrkit://decisions/0008", "adrkit://decisions/0005"]
    assert embedded(elsewhere)[0]["text"] == source_of(corpus, "0008-queue.md")
    nothing = client.result("prompts/get", {"name": "adr-check", "arguments": {"files": "docs/readme.md"}})
    assert "No decision record concerns these files." in nothing["messages"][0]["content"]["text"]
    assert len(nothing["messages"]) == 1


def test_explain_decision_gives_the_relations_both_ways(connect, corpus):
    client = connect(corpus.root, "2025-06-18", "--expose", "prompts")
    result = client.result("prompts/get", {"name": "explain-decision", "arguments": {"ref": "0001"}})
    text = result["messages"][0]["content"]["text"]
    assert '- Supersedes: ADR 0002 "Use MySQL" (superseded)' in text
    assert '- Relates to: ADR 0003 "Pool size of ten" (proposed)' in text
    assert '- Named in the supersededBy of: ADR 0002 "Use MySQL" (superseded)' in text
    assert "- Conflicts with: none" in text
    assert [r["uri"] for r in embedded(result)] == ["adrkit://decisions/0001", "adrkit://decisions/0002",
                                                    "adrkit://decisions/0003"]
    moved = client.result("prompts/get", {"name": "explain-decision", "arguments": {"ref": "0007"}})
    assert "- Superseded by: core:0100 in another decision log" in moved["messages"][0]["content"]["text"]
    twice = client.result("prompts/get", {"name": "explain-decision", "arguments": {"ref": "0006"}})
    assert twice["messages"][0]["content"]["text"].startswith("The id 0006 is claimed by 2 records")
    assert [r["text"] for r in embedded(twice)] == [source_of(corpus, "0006-first.md"),
                                                    source_of(corpus, "0006-second.md")]
    completion = client.result("completion/complete", {"ref": {"type": "ref/prompt", "name": "explain-decision"},
                                                       "argument": {"name": "ref", "value": "0006"}})
    assert completion["completion"]["values"] == ["0006"]  # every id a prompt can explain


@pytest.mark.parametrize("era", ["2025-11-25", MODERN])
def test_prompt_requests_that_cannot_be_answered_are_invalid_params(connect, corpus, era):
    client = connect(corpus.root, era, "--expose", "prompts")
    cases = [
        ({"name": "adr-review"}, "unknown prompt \"adr-review\""),
        ({}, "needs a string name"),
        ({"name": "adr-context"}, "needs the argument files"),
        ({"name": "adr-context", "arguments": {"files": " , "}}, "needs the argument files"),
        ({"name": "adr-context", "arguments": {"files": "a.ts", "plan": "x"}}, "has no argument \"plan\""),
        ({"name": "adr-context", "arguments": {"files": ["a.ts"]}}, "an object of strings"),
        ({"name": "adr-context", "arguments": {"files": "../secret.ts"}}, "files[0] must be a repo-relative"),
        ({"name": "adr-context", "arguments": {"files": ",".join("f%d" % n for n in range(300))}},
         "files must have 1 to 256 entries"),
        ({"name": "adr-check", "arguments": {"files": "a.ts", "plan": "x" * 9000}}, "plan must be at most 8192"),
        ({"name": "explain-decision", "arguments": {"ref": "0042"}}, 'no decision record has the id "0042"'),
        ({"name": "explain-decision", "arguments": {"ref": "core:0001"}}, "names another decision log"),
        ({"name": "explain-decision", "arguments": {"ref": "ADR-1"}}, "ref must be an ADR id"),
    ]
    for params, words in cases:
        error = client.error("prompts/get", params)
        assert error["code"] == -32602 and words in error["message"], (params, error)


def test_a_prompt_is_bounded_and_says_what_it_left_out(connect, make_repo):
    repo = make_repo("many")
    for number in range(1, 71):
        status = "accepted" if number <= 40 else "proposed"
        repo.record("%04d-r.md" % number, title="Record %d" % number, status=status,
                    extra=(DECIDERS if status == "accepted" else "") + affects("src/**"),
                    body="y" * (20 * 1024 if number == 3 else 100) + "\n")
    client = connect(repo.root, "2025-11-25", "--expose", "prompts")
    result = client.result("prompts/get", {"name": "adr-context", "arguments": {"files": "src/a.ts"}})
    text = result["messages"][0]["content"]["text"]
    listed = [line for line in text.splitlines() if line.startswith("- ADR")]
    assert len(listed) == 60
    assert "10 more decisions concern these files and are not listed: call get_decision_context" in text
    resources = embedded(result)
    assert len(resources) == 12
    assert sum(len(r["text"].encode("utf-8")) for r in resources) <= 192 * 1024
    assert "Named only (a prompt embeds at most 12 records, 192 KiB): ADR 0013," in text


def test_an_unusable_corpus_is_an_internal_error_with_its_reason(connect, corpus):
    client = connect(corpus.root, "2025-11-25", "--expose", "resources")
    os.rename(corpus.adr_path(), corpus.path("gone"))
    error = client.error("resources/list")
    assert error == {"code": -32603, "message": "Configured ADR directory was not found.",
                     "data": {"reason": "dir-not-found"}}


# ---------------------------------------------------------------------------
# The command line, config, doctor and the embedding API
# ---------------------------------------------------------------------------

def test_the_environment_gives_the_parts_and_the_flag_wins(connect, corpus):
    client = connect(corpus.root, "2025-11-25", env={"ADRKIT_MCP_EXPOSE": "prompts"})
    assert client.capabilities() == {"tools": {}, "prompts": {}, "completions": {}}
    client = connect(corpus.root, "2025-11-25", "--expose", "resources", env={"ADRKIT_MCP_EXPOSE": "prompts"})
    assert client.capabilities() == {"tools": {}, "resources": {}, "completions": {}}
    client = connect(corpus.root, "2025-11-25", "--expose", "prompts,resources,prompts")
    assert client.capabilities() == {"tools": {}, "prompts": {}, "resources": {}, "completions": {}}


@pytest.mark.parametrize("args,env,words", [
    (["--expose", "tools"], {}, "argument --expose: takes prompts or resources"),
    (["--expose="], {}, "needs a non-empty value"),
    (["--expose", "resources,"], {}, "(got '')"),
    ([], {"ADRKIT_MCP_EXPOSE": "everything"}, "$ADRKIT_MCP_EXPOSE takes prompts or resources"),
    (["doctor", "--expose", "x"], {}, "argument --expose"),
    (["config", "claude-code", "--hook", "--expose", "prompts"], {}, "the hook serves no resources"),
    (["call", "get_decision", '{"ref": "0001"}', "--expose", "prompts"], {}, "unrecognized arguments"),
])
def test_a_bad_expose_is_a_usage_error(server_command, corpus, args, env, words):
    run = wire.run_cli(server_command, args + ["--cwd", corpus.root], env=env)
    assert run.returncode == 2, run
    assert words in run.stderr.decode("utf-8"), run.stderr
    assert run.stdout == b""


def test_config_passes_the_option_to_every_client(server_command, corpus):
    def snippets(*extra, env=None):
        run = wire.run_cli(server_command, ["config", "--all", "--cwd", corpus.root] + list(extra), env=env)
        assert run.returncode == 0, run.stderr
        return json.loads(run.stdout.decode("utf-8"))
    plain, exposed = snippets(), snippets("--expose", "prompts,resources")
    assert snippets(env={"ADRKIT_MCP_EXPOSE": ""}) == plain
    assert snippets(env={"ADRKIT_MCP_EXPOSE": "resources,prompts"}) == exposed
    assert set(plain) == set(exposed) and len(plain) == 12

    def entry_of(snippet):
        """(the server entry, the key of its argument list) in any client's shape."""
        for key in ("mcpServers", "servers", "mcp_servers", "context_servers", "mcp"):
            if key in snippet:
                servers = snippet[key]
                entry = servers[0] if isinstance(servers, list) else servers["adrkit"]
                return entry, "args" if "args" in entry else "command"  # opencode: one list
        raise AssertionError(snippet)
    for client, snippet in plain.items():
        entry, key = entry_of(snippet)
        other, other_key = entry_of(exposed[client])
        assert key == other_key and "--expose" not in entry[key]
        assert other == dict(entry, **{key: entry[key] + ["--expose", "prompts,resources"]}), client


def test_doctor_checks_what_the_option_serves(server_command, corpus, tmp_path):
    plain = wire.run_cli(server_command, ["doctor", "--cwd", corpus.root], timeout=120)
    exposed = wire.run_cli(server_command, ["doctor", "--cwd", corpus.root, "--expose", "resources,prompts"],
                           timeout=120)
    plain_text, exposed_text = plain.stdout.decode("utf-8"), exposed.stdout.decode("utf-8")
    assert "--expose" not in plain_text and "resources/list" not in plain_text
    assert exposed.returncode == plain.returncode
    for label in ("legacy handshake (2025-11-25)", "modern server/discover (2026-07-28)"):
        assert "ok    %s with --expose prompts,resources: 9 resources listed, adrkit://decisions read, " \
               "3 prompts listed\n" % label in exposed_text, exposed_text
    assert plain_text.splitlines()[:-1] == [line for line in exposed_text.splitlines()[:-1]
                                            if "with --expose" not in line]
    assert exposed_text.splitlines()[-1] == plain_text.splitlines()[-1].replace(
        " would work.", " --expose prompts,resources would work.")


def test_the_embedding_api_checks_the_parts(module):
    module.create_server(expose=("resources",))
    module.create_server(expose=["prompts", "resources"])
    for bad in ("resources", ("tools",), 7):
        with pytest.raises(ValueError):
            module.create_server(expose=bad)


def test_exposed_requests_in_a_2025_03_26_batch(open_session, corpus):
    """They ride the tool-call machinery, so a batch waits for them and answers as one array."""
    session = open_session("--expose", "resources,prompts", root=corpus.root)
    session.initialize("2025-03-26")
    session.send([{"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": "adrkit://decisions/0001"}},
                  {"jsonrpc": "2.0", "id": 2, "method": "prompts/list"},
                  {"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": "adrkit://decisions/0042"}},
                  {"jsonrpc": "2.0", "id": 4, "method": "tools/list"}])
    frames = {frame["id"]: frame for frame in session.recv(timeout=30)}
    assert frames[1]["result"]["contents"][0]["text"] == source_of(corpus, "0001-adopt-postgres.md")
    assert len(frames[2]["result"]["prompts"]) == 3
    assert frames[3]["error"]["code"] == -32002
    assert len(frames[4]["result"]["tools"]) == 4
    assert session.close()[0] == 0
