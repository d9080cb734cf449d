"""The four tools: input validation, outcomes, shapes, ordering, search, context, superseded.

Real record files in temporary repositories, tools called in process through
``call_tool``.  Limits, outcomes and summary lines are the ones of the seed
README and of the conformance pack (@adrkit/mcp 0.8.0).
"""

import os
import shutil

import pytest

import _support as support  # tests/ is on sys.path (pytest rootdir insertion)

M = support.M
record_text = support.record_text
all_findings = support.all_findings
NOTHING = support.NOTHING

TICKET = "\U0001f3ab"  # an astral character: two UTF-16 code units
SUMMARY_KEYS = ["id", "title", "status", "sourcePath"]


def is_tool_error(result):
    return result.get("isError") is True


def assert_input_error(result, field):
    """A tool execution error naming the field, and nothing else."""
    assert set(result) == {"content", "isError"}, result
    assert result["isError"] is True
    assert len(result["content"]) == 1 and result["content"][0]["type"] == "text"
    assert field in result["content"][0]["text"], result["content"][0]["text"]


# --------------------------------------------------------------------------- #
# Input validation: every limit of the seed README

def test_limits_table_matches_the_seed_readme():
    expected = {"query": (1, 256), "ref": (1, 128), "status": (1, 6), "scope": (1, 3), "tags": (1, 32),
                "tag": (1, 64), "files": (1, 256), "file": (1, 1024), "cursor": 4096}
    assert {key: M.LIMITS[key] for key in expected} == expected


def _tags(count, prefix="t"):
    return ["%s%d" % (prefix, n) for n in range(count)]


INVALID_ARGUMENTS = [
    # search_decisions
    ("search_decisions", NOTHING, "query"),
    ("search_decisions", {}, "query"),
    ("search_decisions", {"query": ""}, "query"),
    ("search_decisions", {"query": " "}, "query"),
    ("search_decisions", {"query": "\t\n "}, "query"),
    ("search_decisions", {"query": "\ufeff"}, "query"),
    ("search_decisions", {"query": "\u3000"}, "query"),
    ("search_decisions", {"query": "\u00a0\u2028\u205f"}, "query"),
    ("search_decisions", {"query": "a" * 257}, "query"),
    ("search_decisions", {"query": TICKET * 129}, "query"),
    ("search_decisions", {"query": TICKET * 128 + "a"}, "query"),
    ("search_decisions", {"query": 5}, "query"),
    ("search_decisions", {"query": None}, "query"),
    ("search_decisions", {"query": ["kiosk"]}, "query"),
    ("search_decisions", {"query": "k", "status": []}, "status"),
    ("search_decisions", {"query": "k", "status": ["accepted", "accepted"]}, "status"),
    ("search_decisions", {"query": "k", "status": ["approved"]}, "status"),
    ("search_decisions", {"query": "k", "status": "accepted"}, "status"),
    ("search_decisions", {"query": "k", "status": list(M.STATUSES) + ["draft"]}, "status"),
    ("search_decisions", {"query": "k", "status": [None]}, "status"),
    ("search_decisions", {"query": "k", "scope": []}, "scope"),
    ("search_decisions", {"query": "k", "scope": ["org", "org"]}, "scope"),
    ("search_decisions", {"query": "k", "scope": ["team"]}, "scope"),
    ("search_decisions", {"query": "k", "scope": ["component", "domain", "org", "org"]}, "scope"),
    ("search_decisions", {"query": "k", "tags": []}, "tags"),
    ("search_decisions", {"query": "k", "tags": _tags(33)}, "tags"),
    ("search_decisions", {"query": "k", "tags": [""]}, "tags"),
    ("search_decisions", {"query": "k", "tags": ["t" * 65]}, "tags"),
    ("search_decisions", {"query": "k", "tags": [TICKET * 33]}, "tags"),
    ("search_decisions", {"query": "k", "tags": ["kiosk", "kiosk"]}, "tags"),
    ("search_decisions", {"query": "k", "tags": [1]}, "tags"),
    ("search_decisions", {"query": "k", "tags": "kiosk"}, "tags"),
    ("search_decisions", {"query": "k", "limit": 0}, "limit"),
    ("search_decisions", {"query": "k", "limit": -1}, "limit"),
    ("search_decisions", {"query": "k", "limit": 101}, "limit"),
    ("search_decisions", {"query": "k", "limit": 1.5}, "limit"),
    ("search_decisions", {"query": "k", "limit": 2.5}, "limit"),
    ("search_decisions", {"query": "k", "limit": "5"}, "limit"),
    ("search_decisions", {"query": "k", "limit": None}, "limit"),
    ("search_decisions", {"query": "k", "limit": True}, "limit"),
    ("search_decisions", {"query": "k", "limit": 1e300}, "limit"),
    ("search_decisions", {"query": "k", "findingsLimit": 0}, "findingsLimit"),
    ("search_decisions", {"query": "k", "findingsLimit": 101}, "findingsLimit"),
    ("search_decisions", {"query": "k", "findingsLimit": 2.5}, "findingsLimit"),
    ("search_decisions", {"query": "k", "findingsLimit": "5"}, "findingsLimit"),
    ("search_decisions", {"query": "k", "findingsLimit": False}, "findingsLimit"),
    ("search_decisions", {"query": "k", "cursor": "A" * 4097}, "cursor"),
    ("search_decisions", {"query": "k", "cursor": TICKET * 2049}, "cursor"),
    ("search_decisions", {"query": "k", "cursor": 1}, "cursor"),
    ("search_decisions", {"query": "k", "cursor": None}, "cursor"),
    ("search_decisions", {"query": "k", "findingsCursor": "A" * 4097}, "findingsCursor"),
    ("search_decisions", {"query": "k", "findingsCursor": ["x"]}, "findingsCursor"),
    ("search_decisions", {"query": "k", "bogus": 1}, "bogus"),
    ("search_decisions", {"query": "k", "Query": "k"}, "Query"),
    ("search_decisions", {"query": "k", "_meta": {}}, "_meta"),
    # get_decision
    ("get_decision", NOTHING, "ref"),
    ("get_decision", {}, "ref"),
    ("get_decision", {"ref": ""}, "ref"),
    ("get_decision", {"ref": "0" * 129}, "ref"),
    ("get_decision", {"ref": "c" * 124 + ":0001"}, "ref"),
    ("get_decision", {"ref": "42"}, "ref"),
    ("get_decision", {"ref": "ADR-0001"}, "ref"),
    ("get_decision", {"ref": "Core:0001"}, "ref"),
    ("get_decision", {"ref": "-core:0001"}, "ref"),
    ("get_decision", {"ref": ":0001"}, "ref"),
    ("get_decision", {"ref": "core:"}, "ref"),
    ("get_decision", {"ref": "core:0001:0002"}, "ref"),
    ("get_decision", {"ref": " 0001"}, "ref"),
    ("get_decision", {"ref": "0001 "}, "ref"),
    ("get_decision", {"ref": "0001\n"}, "ref"),
    ("get_decision", {"ref": "01JBQ7R3X5M8N2P4T6V9W0YZKI"}, "ref"),
    ("get_decision", {"ref": "01JBQ7R3X5M8N2P4T6V9W0YZK"}, "ref"),
    ("get_decision", {"ref": "\uff10\uff10\uff10\uff11"}, "ref"),
    ("get_decision", {"ref": 1}, "ref"),
    ("get_decision", {"ref": None}, "ref"),
    ("get_decision", {"ref": "0001", "bogus": True}, "bogus"),
    ("get_decision", {"ref": "0001", "Ref": "0001"}, "Ref"),
    ("get_decision", {"ref": "0001", "limit": 0}, "limit"),
    ("get_decision", {"ref": "0001", "limit": 101}, "limit"),
    ("get_decision", {"ref": "0001", "limit": 2.5}, "limit"),
    ("get_decision", {"ref": "0001", "findingsLimit": 101}, "findingsLimit"),
    ("get_decision", {"ref": "0001", "cursor": 5}, "cursor"),
    ("get_decision", {"ref": "0001", "cursor": "A" * 4097}, "cursor"),
    ("get_decision", {"ref": "0001", "findingsCursor": "A" * 4097}, "findingsCursor"),
    # get_decision_context
    ("get_decision_context", NOTHING, "files"),
    ("get_decision_context", {}, "files"),
    ("get_decision_context", {"files": []}, "files"),
    ("get_decision_context", {"files": ["f%d" % n for n in range(257)]}, "files"),
    ("get_decision_context", {"files": [""]}, "files"),
    ("get_decision_context", {"files": ["a" * 1025]}, "files"),
    ("get_decision_context", {"files": [TICKET * 513]}, "files"),
    ("get_decision_context", {"files": ["/abs/path.ts"]}, "files"),
    ("get_decision_context", {"files": ["a/../b"]}, "files"),
    ("get_decision_context", {"files": [".."]}, "files"),
    ("get_decision_context", {"files": ["../x"]}, "files"),
    ("get_decision_context", {"files": ["a/.."]}, "files"),
    ("get_decision_context", {"files": ["a\\b"]}, "files"),
    ("get_decision_context", {"files": ["src\\app.ts"]}, "files"),
    ("get_decision_context", {"files": ["C:/x"]}, "files"),
    ("get_decision_context", {"files": ["c:"]}, "files"),
    ("get_decision_context", {"files": ["src/app.ts", "/etc/passwd"]}, "files"),
    ("get_decision_context", {"files": "src/app.ts"}, "files"),
    ("get_decision_context", {"files": [1]}, "files"),
    ("get_decision_context", {"files": None}, "files"),
    ("get_decision_context", {"files": ["x"], "bogus": 1}, "bogus"),
    ("get_decision_context", {"files": ["x"], "limit": 3.5}, "limit"),
    ("get_decision_context", {"files": ["x"], "findingsLimit": 0}, "findingsLimit"),
    ("get_decision_context", {"files": ["x"], "cursor": "A" * 4097}, "cursor"),
    # list_superseded
    ("list_superseded", {"query": "x"}, "query"),
    ("list_superseded", {"limit": 0}, "limit"),
    ("list_superseded", {"limit": "5"}, "limit"),
    ("list_superseded", {"findingsLimit": 2.5}, "findingsLimit"),
    ("list_superseded", {"cursor": 3}, "cursor"),
    ("list_superseded", {"findingsCursor": "A" * 4097}, "findingsCursor"),
]


def _case_id(case):
    tool, arguments, field = case
    if arguments is NOTHING:
        return "%s-no-arguments" % tool
    text = repr(arguments)
    return "%s-%s-%s" % (tool, field, text[:40] + ("...%d" % len(text) if len(text) > 40 else ""))


@pytest.mark.parametrize("tool, arguments, field", INVALID_ARGUMENTS,
                         ids=[_case_id(case) for case in INVALID_ARGUMENTS])
def test_invalid_arguments_are_tool_errors_naming_the_field(repo, tool, arguments, field):
    repo.record("0001-record.md")
    assert_input_error(repo.call(tool, arguments), field)


VALID_ARGUMENTS = [
    ("search_decisions", {"query": "\u001f"}),
    ("search_decisions", {"query": "\u0085"}),
    ("search_decisions", {"query": "\u200b"}),
    ("search_decisions", {"query": "a" * 256}),
    ("search_decisions", {"query": TICKET * 128}),
    ("search_decisions", {"query": " " * 255 + "a"}),
    ("search_decisions", {"query": "k", "status": list(M.STATUSES)}),
    ("search_decisions", {"query": "k", "scope": ["component", "domain", "org"]}),
    ("search_decisions", {"query": "k", "tags": _tags(32)}),
    ("search_decisions", {"query": "k", "tags": ["t" * 64]}),
    ("search_decisions", {"query": "k", "tags": [TICKET * 32]}),
    ("search_decisions", {"query": "k", "tags": ["Not A Slug", "KIOSK"]}),
    ("search_decisions", {"query": "k", "limit": 1}),
    ("search_decisions", {"query": "k", "limit": 100}),
    ("search_decisions", {"query": "k", "limit": 1.0}),
    ("search_decisions", {"query": "k", "limit": 2.0}),
    ("search_decisions", {"query": "k", "limit": 1e2}),
    ("search_decisions", {"query": "k", "findingsLimit": 1}),
    ("search_decisions", {"query": "k", "findingsLimit": 100.0}),
    ("get_decision", {"ref": "0" * 128}),
    ("get_decision", {"ref": "c" * 123 + ":0001"}),
    ("get_decision", {"ref": "01JBQ7R3X5M8N2P4T6V9W0YZKH"}),
    ("get_decision", {"ref": "01jbq7r3x5m8n2p4t6v9w0yzkh"}),
    ("get_decision", {"ref": "a-b-9:01JBQ7R3X5M8N2P4T6V9W0YZKH"}),
    ("get_decision", {"ref": "0001", "limit": 1.0}),
    ("get_decision_context", {"files": ["f%d" % n for n in range(256)]}),
    ("get_decision_context", {"files": ["a" * 1024]}),
    ("get_decision_context", {"files": [TICKET * 512]}),
    ("get_decision_context", {"files": ["..foo/bar", "1:/x", "./src/app.ts", "a/./b", ".hidden", "a//b", ".",
                                        "src/", "x" * 1024]}),
    ("get_decision_context", {"files": ["same", "same"]}),
    ("list_superseded", {}),
    ("list_superseded", NOTHING),
    ("list_superseded", {"limit": 100, "findingsLimit": 1}),
]


@pytest.mark.parametrize("tool, arguments", VALID_ARGUMENTS,
                         ids=["%s-%d" % (case[0], n) for n, case in enumerate(VALID_ARGUMENTS)])
def test_boundary_arguments_are_accepted(repo, tool, arguments):
    repo.record("0001-record.md")
    result = repo.call(tool, arguments)
    assert not is_tool_error(result), result
    assert result["structuredContent"]["result"]["outcome"] in (
        "results", "found", "not-found", "federated-log-unavailable", "matches", "entries")


@pytest.mark.parametrize("cursor", ["A" * 4096, TICKET * 2048], ids=["4096-ascii", "2048-astral"])
@pytest.mark.parametrize("key", ["cursor", "findingsCursor"])
def test_cursor_of_4096_code_units_is_checked_not_rejected(repo, cursor, key):
    result = repo.result("search_decisions", {"query": "k", key: cursor})
    assert result == {"outcome": "invalid-cursor", "reason": "decode-failed",
                      "message": "Cursor could not be decoded."}


def test_validation_happens_before_the_corpus_is_read(repo):
    shutil.rmtree(repo.adr_path())
    assert_input_error(repo.call("get_decision", ref="42"), "ref")
    assert_input_error(repo.call("list_superseded", bogus=1), "bogus")


def test_unknown_tool_raises(repo):
    with pytest.raises(M.UnknownToolError):
        repo.call("search", {"query": "x"})
    shutil.rmtree(repo.adr_path())
    with pytest.raises(M.UnknownToolError):
        repo.call("delete_decision", {})


# --------------------------------------------------------------------------- #
# Outcomes, shapes and summary lines

def test_search_result_shape(repo):
    repo.record("0007-adopt-postgres.md", title="Adopt Postgres", status="accepted",
                extra='deciders: ["@ana"]\n', body="We use postgres.\n")
    repo.write("0008-broken.md", "no fence\n")
    result = repo.call("search_decisions", query="postgres")
    assert result["content"] == [{"type": "text", "text": "Returned 1 decision result; 1 finding on this page."}]
    assert set(result) == {"content", "structuredContent"}
    structured = result["structuredContent"]
    assert set(structured) == {"corpusHealth", "result"}
    assert set(structured["corpusHealth"]) == {"fingerprint", "recordCount", "excludedCount"}
    assert (structured["corpusHealth"]["recordCount"], structured["corpusHealth"]["excludedCount"]) == (1, 1)
    fingerprint = structured["corpusHealth"]["fingerprint"]
    assert isinstance(fingerprint, str) and fingerprint
    assert structured["result"] == {
        "outcome": "results",
        "items": [{"id": "0007", "title": "Adopt Postgres", "status": "accepted",
                   "sourcePath": "docs/adr/0007-adopt-postgres.md", "matchedFields": ["body", "title"]}],
        "cursor": None,
        "findings": {"items": [{"rule": "frontmatter-fence", "severity": "error",
                                "message": "ADR files must start with a leading --- YAML frontmatter fence",
                                "path": "docs/adr/0008-broken.md", "field": "frontmatter"}],
                     "cursor": None},
    }


def test_empty_results_use_the_same_branch(repo):
    result = repo.call("search_decisions", query="nothing")
    assert result["content"][0]["text"] == "Returned 0 decision results; 0 findings on this page."
    assert result["structuredContent"]["result"] == {
        "outcome": "results", "items": [], "cursor": None, "findings": {"items": [], "cursor": None}}


def test_get_decision_found(repo):
    repo.record("0007-adopt-postgres.md", title="Adopt Postgres", status="accepted",
                extra='deciders: ["@ana"]\ntags: [database]\n', body="## Context\n...\n")
    result = repo.call("get_decision", ref="0007")
    assert result["content"][0]["text"] == 'Found decision "0007"; 0 findings on this page.'
    found = result["structuredContent"]["result"]
    assert set(found) == {"outcome", "decision", "findings"}
    decision = found["decision"]
    assert set(decision) == {"requestedRef", "id", "title", "status", "sourcePath", "frontmatter", "body"}
    assert decision["requestedRef"] == "0007"
    assert decision["sourcePath"] == "docs/adr/0007-adopt-postgres.md"
    assert decision["frontmatter"]["tags"] == ["database"]
    assert decision["body"] == "## Context\n...\n"
    assert found["findings"] == {"items": [], "cursor": None}


@pytest.mark.parametrize("ref", ["0999", "00007", "01jbq7r3x5m8n2p4t6v9w0yzkh"])
def test_get_decision_not_found_is_exact(repo, ref):
    repo.record("0007-seven.md")
    repo.record("0010-ulid.md", ident="01JBQ7R3X5M8N2P4T6V9W0YZKH")
    result = repo.call("get_decision", ref=ref)
    assert result["content"][0]["text"] == 'No local decision matches "%s"; 0 findings on this page.' % ref
    assert result["structuredContent"]["result"] == {
        "outcome": "not-found", "requestedRef": ref, "findings": {"items": [], "cursor": None}}


def test_get_decision_ambiguous(repo):
    repo.record("0501-\uff21pi-naming.md", ident="0501", title="Name APIs plainly", status="accepted",
                extra='deciders: ["@ana"]\n')
    repo.record("0501-\U0001f600-naming.md", ident="0501", title="Allow emoji in API names", status="rejected")
    result = repo.call("get_decision", ref="0501", findingsLimit=1)
    assert result["content"][0]["text"] == \
        'Returned 2 candidates for ambiguous local ref "0501"; 1 finding on this page.'
    ambiguous = result["structuredContent"]["result"]
    assert set(ambiguous) == {"outcome", "requestedRef", "candidates", "cursor", "findings"}
    assert ambiguous["requestedRef"] == "0501"
    assert ambiguous["cursor"] is None
    assert ambiguous["candidates"] == [
        {"id": "0501", "title": "Allow emoji in API names", "status": "rejected",
         "sourcePath": "docs/adr/0501-\U0001f600-naming.md"},
        {"id": "0501", "title": "Name APIs plainly", "status": "accepted",
         "sourcePath": "docs/adr/0501-\uff21pi-naming.md"},
    ]
    one = repo.call("get_decision", ref="0501", limit=1, findingsLimit=1)
    assert one["content"][0]["text"] == 'Returned 1 candidate for ambiguous local ref "0501"; 1 finding on this page.'


@pytest.mark.parametrize("ref, log, ident", [
    ("core:0007", "core", "0007"), ("ops:0001", "ops", "0001"),
    ("a-b-9:01JBQ7R3X5M8N2P4T6V9W0YZKH", "a-b-9", "01JBQ7R3X5M8N2P4T6V9W0YZKH")])
def test_get_decision_federated_ref_is_never_resolved(repo, ref, log, ident):
    repo.record("0007-local-seven.md")
    repo.record("0001-local-one.md")
    result = repo.call("get_decision", ref=ref)
    assert result["content"][0]["text"] == \
        'Named-log federation is unavailable for "%s"; 0 findings on this page.' % ref
    assert result["structuredContent"]["result"] == {
        "outcome": "federated-log-unavailable", "requestedRef": ref, "log": log, "id": ident,
        "findings": {"items": [], "cursor": None}}


def test_relation_refs_are_verbatim_and_one_hop(repo):
    repo.record("0001-first.md", status="superseded", extra='supersededBy: "0002"\n')
    repo.record("0002-second.md", status="superseded", extra='supersededBy: "0003"\nsupersedes: ["0001"]\n')
    repo.record("0003-third.md", status="accepted",
                extra='deciders: ["@a"]\nsupersedes: ["0002"]\nrelatesTo: ["core:0009", "0001"]\n'
                      'conflictsWith: ["0001", "0001"]\naffects:\n  - type: path\n    pattern: "src/**"\n')
    frontmatter = repo.result("get_decision", ref="0003")["decision"]["frontmatter"]
    assert frontmatter["supersedes"] == ["0002"]
    assert frontmatter["relatesTo"] == ["core:0009", "0001"]
    assert frontmatter["conflictsWith"] == ["0001", "0001"]
    entry = repo.result("get_decision_context", files=["src/a.ts"])["governing"][0]
    assert entry["relations"] == {"supersedes": ["0002"], "supersededBy": None,
                                  "relatesTo": ["core:0009", "0001"], "conflictsWith": ["0001", "0001"]}
    entries = repo.result("list_superseded")["items"]
    # 0001 -> 0002 is reported as resolved to 0002 itself, not followed on to 0003.
    assert entries[0]["supersededBy"] == {"resolved": True, "target": {
        "id": "0002", "title": "A decision worth keeping", "status": "superseded",
        "sourcePath": "docs/adr/0002-second.md"}}


# --------------------------------------------------------------------------- #
# Ordering: (id, sourcePath) in UTF-16 code-unit order, whatever the file order

def test_results_are_ordered_by_id_then_source_path(repo):
    files = [
        ("0100-z.md", "0100"), ("0099-late-file.md", "0010"), ("00009-five-digits.md", "00009"),
        ("0500-\uff21.md", "0500"), ("0500-\U0001f600.md", "0500"), ("0500-b.md", "0500"),
        ("0001-ulid.md", "01JBQ7R3X5M8N2P4T6V9W0YZKH"), ("0002-numeric.md", "0200"),
    ]
    for name, ident in reversed(files):
        repo.record(name, ident=ident)
    items = repo.result("search_decisions", query="body", limit=100)["items"]
    assert [(item["id"], item["sourcePath"][len("docs/adr/"):]) for item in items] == [
        ("00009", "00009-five-digits.md"),
        ("0010", "0099-late-file.md"),
        ("0100", "0100-z.md"),
        ("01JBQ7R3X5M8N2P4T6V9W0YZKH", "0001-ulid.md"),
        ("0200", "0002-numeric.md"),
        ("0500", "0500-b.md"),
        ("0500", "0500-\U0001f600.md"),
        ("0500", "0500-\uff21.md"),
    ]
    projection = repo.projection()
    assert [record.id for record in projection.records] == [item["id"] for item in items]
    assert len(projection.by_id["0500"]) == 3


# --------------------------------------------------------------------------- #
# search_decisions

@pytest.mark.parametrize("title, query, matches", [
    ("Use a \uff2b\uff29\uff2f\uff33\uff2b shell", "kiosk", True),
    ("Use a kiosk shell", "\uff2b\uff29\uff2f\uff33\uff2b", True),
    ("Use a kiosk shell", "KIOSK", True),
    ("Sync o\ufb03ce files", "office", True),
    ("Sync office files", "\ufb01le", True),
    ("Fail over the \u0130stanbul region", "istanbul", False),
    ("Fail over the \u0130stanbul region", "\u0130stanbul", True),
    ("Fail over the \u0130stanbul region", "i\u0307stanbul", True),
    ("Normalise Stra\u00dfe names", "strasse", False),
    ("Normalise Stra\u00dfe names", "stra\u00dfe", True),
    ("Normalise Stra\u00dfe names", "STRA\u1e9eE", True),
    ("Normalise STRASSE names", "stra\u00dfe", False),
    ("Call the cache \u03a3\u039f\u03a6\u039f\u03a3", "\u03c3\u03bf\u03c6\u03bf\u03c2", True),
    ("Call the cache \u03a3\u039f\u03a6\u039f\u03a3", "\u03a3\u039f\u03a6\u039f\u03a3", True),
    ("Call the cache \u03a3\u039f\u03a6\u039f\u03a3", "\u03c3\u03bf\u03c6\u03bf\u03c3", False),
    ("Print \u039f\u0394\u039f\u03a3 on signs", "\u03bf\u03b4\u03bf\u03c2", True),
    ("Serve caf\u00e9 menus", "cafe\u0301", True),
    ("Serve cafe\u0301 menus", "caf\u00e9", True),
    ("Use a \u216b-hour clock", "xii", True),
    ("Use a XII-hour clock", "\u216b", True),
    ("Report temperature in \u212aelvin", "kelvin", True),
    ("Report temperature in kelvin", "\u212a", True),
    ("Multi\u00a0word names", "multi word", True),
    ("Multi word names", "multi\u00a0word", True),
    ("Print " + TICKET + " tickets", TICKET, True),
    ("Handle \u01c5 digraphs", "d\u017e", True),
    ("Handle \u01c5 digraphs", "\u01c4", True),
    ("Show fares per km\u00b2", "km2", True),
    ("Show fares per km2", "km\u00b2", True),
    ("Open a \u2460 priority lane", "1 priority", True),
    ("Keep spacing marks like \u00a8 intact", "\u00a8", True),
    ("Keep the spaces. Always", "spaces.\u00a0", True),
    ("Use a kiosk shell", "  kiosk  ", True),
    ("Use a kiosk shell", "\ufeffkiosk\u3000", True),
    ("Use a kiosk shell", "\u001fkiosk", False),
    ("Use a kiosk shell", "\u0085kiosk", False),
], ids=lambda value: None)
def test_search_normalisation(repo, title, query, matches):
    repo.record("0001-title.md", title=title, body="unrelated\n")
    items = repo.result("search_decisions", query=query)["items"]
    assert [item["matchedFields"] for item in items] == ([["title"]] if matches else [])


def test_untrimmed_control_characters_match_literally(repo):
    repo.record("0722-separators.md", title="Strip unit separators",
                body="Some feeds carry \u001f unit separators and \u0085 next-line marks.\n")
    for query in ("\u001f", "\u0085"):
        items = repo.result("search_decisions", query=query)["items"]
        assert [(item["id"], item["matchedFields"]) for item in items] == [("0722", ["body"])]


def test_lone_surrogates_in_a_query_do_not_crash(repo):
    repo.record("0700-kiosk.md", title="Use a kiosk shell")
    assert repo.result("search_decisions", query="\ud800kiosk")["items"] == []
    assert [item["id"] for item in repo.result("search_decisions", query="kiosk\udfab")["items"]] == []


def test_substring_search_works_on_code_units(repo):
    # JavaScript strings are UTF-16: the reference's includes() finds the high
    # surrogate of U+1F3AB inside "\U0001f3ab" (a request can carry a lone
    # surrogate as a JSON escape, e.g. {"query": "\\ud83c"}).
    repo.record("0710-tickets.md", title="Print " + TICKET + " tickets", body="plain\n")
    items = repo.result("search_decisions", query="\ud83c")["items"]
    assert [(item["id"], item["matchedFields"]) for item in items] == [("0710", ["title"])]


def test_matched_fields_are_in_the_fixed_order(repo):
    repo.record("0709-receipt-footer.md", title="Receipt 0709 footer", extra="tags: [receipt-0709]\n",
                body="Footer text for 0709.\n")
    repo.record("0710-other.md", title="Other", extra="tags: [misc]\n", body="Mentions 0709 only here.\n")
    items = repo.result("search_decisions", query="0709")["items"]
    assert [(item["id"], item["matchedFields"]) for item in items] == [
        ("0709", ["body", "id", "tag", "title"]), ("0710", ["body"])]


def test_search_reads_only_body_id_tags_and_title(repo):
    repo.record("0001-elsewhere.md", title="Plain title", body="Plain body.\n",
                extra='deciders: ["@zebra-keeper"]\ndomain: zebra-domain\naffects:\n  - type: path\n'
                      '    pattern: "zebra/**"\nexternalRefs:\n  - type: doc\n    url: "https://zebra.example/"\n')
    assert repo.result("search_decisions", query="zebra")["items"] == []
    assert repo.result("search_decisions", query="0001")["items"][0]["matchedFields"] == ["id"]


def test_tags_match_by_substring(repo):
    repo.record("0714-contactless.md", title="Take contactless", extra="tags: [payments, kiosk]\n", body="x\n")
    assert repo.result("search_decisions", query="PAY")["items"][0]["matchedFields"] == ["tag"]


def _status_corpus(repo):
    specs = [("0001", "accepted", "org", "kiosk, payments"), ("0002", "draft", "component", "kiosk"),
             ("0003", "proposed", None, "kiosk, cash"), ("0004", "rejected", "domain", "kiosk, payments, cash"),
             ("0005", "superseded", "org", "payments"), ("0006", "deprecated", "domain", "")]
    for ident, status, scope, tags in specs:
        extra = "tags: [%s]\n" % tags
        if scope:
            extra += "scope: %s\n" % scope
        if status == "accepted":
            extra += 'deciders: ["@a"]\n'
        if status == "superseded":
            extra += 'supersededBy: "0001"\n'
        repo.record("%s-%s.md" % (ident, status), title="Kiosk decision %s" % ident, status=status, extra=extra)


def _ids(repo, **arguments):
    arguments.setdefault("query", "kiosk")
    return [item["id"] for item in repo.result("search_decisions", arguments)["items"]]


def test_search_includes_every_status(repo):
    _status_corpus(repo)
    assert _ids(repo) == ["0001", "0002", "0003", "0004", "0005", "0006"]


@pytest.mark.parametrize("arguments, expected", [
    ({"status": ["accepted"]}, ["0001"]),
    ({"status": ["rejected", "superseded", "deprecated"]}, ["0004", "0005", "0006"]),
    ({"scope": ["component"]}, ["0002", "0003"]),          # a missing scope is "component"
    ({"scope": ["org", "domain"]}, ["0001", "0004", "0005", "0006"]),
    ({"tags": ["kiosk"]}, ["0001", "0002", "0003", "0004"]),
    ({"tags": ["kiosk", "payments"]}, ["0001", "0004"]),    # all-of
    ({"tags": ["payments", "kiosk", "cash"]}, ["0004"]),
    ({"tags": ["KIOSK"]}, []),                             # tags compare exactly
    ({"tags": ["kios"]}, []),
    ({"tags": ["kiosk", "no-such-tag"]}, []),
    ({"status": ["accepted", "rejected"], "scope": ["org"], "tags": ["payments"]}, ["0001"]),
    ({"status": ["draft", "proposed"], "scope": ["component", "domain", "org"]}, ["0002", "0003"]),
], ids=lambda value: None)
def test_search_filters(repo, arguments, expected):
    _status_corpus(repo)
    assert _ids(repo, **arguments) == expected


def test_search_sees_invalid_records_only_as_findings(repo):
    repo.record("0001-valid.md", title="Kiosk valid")
    repo.record("0002-invalid.md", title="Kiosk invalid", status="approved")
    result = repo.result("search_decisions", query="kiosk")
    assert [item["id"] for item in result["items"]] == ["0001"]
    assert support.rules_of(result["findings"]["items"]) == ["invalid-enum-value"]


# --------------------------------------------------------------------------- #
# get_decision_context

def _affects(*matchers):
    lines = ["affects:"]
    for matcher in matchers:
        lines.append("  - type: %s" % matcher[0])
        lines.append('    pattern: "%s"' % matcher[1])
        for key, value in matcher[2:]:
            lines.append("    %s: %s" % (key, value))
    return "\n".join(lines) + "\n"


def test_context_matches_paths_through_the_registered_pathspec_pattern_type(repo):
    """The product looks the "picomatch" type up in pathspec's registry on every
    call and matches through its Pattern interface: replace the registered type
    and the answer of get_decision_context changes."""
    import pathspec
    import pathspec.util

    repo.record("0001-docs.md", status="accepted", extra='deciders: ["@a"]\n' + _affects(("path", "docs")))
    governing = lambda: [entry["id"] for entry in  # noqa: E731
                         repo.result("get_decision_context", files=["docs/guide.md"])["governing"]]
    # picomatch: "docs" is that one path, not a folder.
    assert governing() == []
    registered = pathspec.util.lookup_pattern("picomatch")
    assert registered is M.picomatch_pattern_type()
    # Gitignore semantics: "docs" also covers everything below a folder of that name.
    pathspec.util.register_pattern("picomatch", pathspec.util.lookup_pattern("gitignore"), override=True)
    try:
        assert governing() == ["0001"]
    finally:
        pathspec.util.register_pattern("picomatch", registered, override=True)
    assert governing() == []


def test_context_buckets(repo):
    for ident, status in (("0001", "accepted"), ("0002", "draft"), ("0003", "proposed"),
                          ("0004", "rejected"), ("0005", "superseded"), ("0006", "deprecated")):
        extra = _affects(("path", "src/**"))
        if status == "accepted":
            extra += 'deciders: ["@a"]\n'
        if status == "superseded":
            extra += 'supersededBy: "0001"\n'
        repo.record("%s-%s.md" % (ident, status), status=status, extra=extra)
    repo.record("0007-elsewhere.md", extra=_affects(("path", "docs/**")))
    result = repo.call("get_decision_context", files=["src/app.ts"])
    assert result["content"][0]["text"] == \
        "Returned 6 context matches: 1 governing, 2 active proposals, 3 historical; 0 findings on this page."
    matches = result["structuredContent"]["result"]
    assert set(matches) == {"outcome", "governing", "activeProposals", "history", "cursor", "findings"}
    assert [entry["id"] for entry in matches["governing"]] == ["0001"]
    assert [entry["id"] for entry in matches["activeProposals"]] == ["0002", "0003"]
    assert [entry["id"] for entry in matches["history"]] == ["0004", "0005", "0006"]
    entry = matches["history"][1]
    assert entry == {"id": "0005", "title": "A decision worth keeping", "status": "superseded",
                     "sourcePath": "docs/adr/0005-superseded.md",
                     "firedMatchers": [{"type": "path", "pattern": "src/**"}],
                     "relations": {"supersedes": [], "supersededBy": "0001", "relatesTo": [], "conflictsWith": []}}


def test_context_summary_line_singulars(repo):
    repo.record("0001-gov.md", status="accepted", extra='deciders: ["@a"]\n' + _affects(("path", "src/**")))
    repo.record("0002-prop.md", extra=_affects(("path", "src/**")))
    repo.record("0003-inert.md", extra=_affects(("data", "warehouse.orders")))
    result = repo.call("get_decision_context", files=["src/x"])
    assert result["content"][0]["text"] == \
        "Returned 2 context matches: 1 governing, 1 active proposal, 0 historical; 1 finding on this page."
    result = repo.call("get_decision_context", files=["nothing"])
    assert result["content"][0]["text"] == \
        "Returned 0 context matches: 0 governing, 0 active proposals, 0 historical; 1 finding on this page."


def test_negated_matcher_suppresses_the_record(repo):
    repo.record("0209-generate-api-clients.md", status="accepted",
                extra='deciders: ["@a"]\n' + _affects(("path", "src/**"),
                                                      ("path", "src/generated/**", ("negate", "true"))))
    repo.record("0218-freeze-legacy.md", status="accepted",
                extra='deciders: ["@a"]\n' + _affects(("path", "legacy/**", ("negate", "true"))))

    def fired(*files):
        result = repo.result("get_decision_context", files=list(files))
        return [(entry["id"], entry["firedMatchers"]) for entry in result["governing"]]

    assert fired("src/app.ts") == [("0209", [{"type": "path", "pattern": "src/**"}])]
    assert fired("src/app.ts", "src/generated/client.ts") == []
    assert fired("src/generated/client.ts") == []
    assert fired("legacy/old.ts") == []                    # a negated-only record never fires
    assert fired("legacy/old.ts", "src/app.ts") == [("0209", [{"type": "path", "pattern": "src/**"}])]


INERT_MESSAGES = [
    ("api", "GET /orders/{id}", "affects-unresolvable", "info",
     'api matcher "GET /orders/{id}" has no backing snapshot in this phase and is inert.'),
    ("data", "warehouse.orders", "affects-unresolvable", "info",
     'data matcher "warehouse.orders" has no backing snapshot in this phase and is inert.'),
    ("entity", "component:default/checkout", "affects-unresolvable", "info",
     'Entity matcher "component:default/checkout" has no catalog snapshot and is inert.'),
    ("package", "@bramble/ui", "affects-unresolvable", "info",
     'Package matcher "@bramble/ui" requires a changed-dependency snapshot and is inert.'),
    ("package", "@bramble/ui@^2.1.0", "affects-unresolvable", "info",
     'Package matcher "@bramble/ui@^2.1.0" requires a changed-dependency snapshot and is inert.'),
    ("package", "left-pad", "affects-unresolvable", "info",
     'Package matcher "left-pad" requires a changed-dependency snapshot and is inert.'),
    ("package", "react@>=19", "affects-unresolvable", "info",
     'Package matcher "react@>=19" requires a changed-dependency snapshot and is inert.'),
    ("resource", "aws_lambda_function.checkout", "affects-unresolvable", "info",
     'resource matcher "aws_lambda_function.checkout" has no backing snapshot in this phase and is inert.'),
    ("package", "foo@not a range", "affects-bad-pattern", "warn",
     'Package matcher "foo@not a range" must be "name" or "name@<valid semver range>".'),
    ("package", "lodash@", "affects-bad-pattern", "warn",
     'Package matcher "lodash@" must be "name" or "name@<valid semver range>".'),
    ("path", "/etc/bramble/*.conf", "affects-bad-pattern", "warn",
     'Path matcher "/etc/bramble/*.conf" must be repo-relative and must not start with "/".'),
]


def _inert_corpus(repo):
    matchers = [(kind, pattern) for kind, pattern, _, _, _ in INERT_MESSAGES]
    matchers.append(("path", "/etc/bramble/*.conf"))  # listed twice: reported twice
    matchers.append(("path", "etc/**"))
    repo.record("0213-inert.md", status="proposed", extra=_affects(*matchers))


def _expected_inert_findings():
    findings = []
    for kind, pattern, rule, severity, message in INERT_MESSAGES:
        findings.append({"rule": rule, "severity": severity, "message": message, "id": "0213",
                         "path": "docs/adr/0213-inert.md", "field": "affects.%s" % kind, "pattern": pattern})
    findings.append(dict(findings[-1]))
    return M.sort_findings(findings)


@pytest.mark.parametrize("files", [["nothing/matches/here.txt"], ["etc/bramble/shop.conf"], ["src/a", "b"]])
def test_inert_and_bad_matchers_report_on_every_call(repo, files):
    _inert_corpus(repo)
    result = repo.result("get_decision_context", files=files, findingsLimit=100)
    expected = _expected_inert_findings()
    assert result["findings"]["items"] == expected
    assert [(f["rule"], f["pattern"]) for f in expected][:3] == [
        ("affects-bad-pattern", "/etc/bramble/*.conf"), ("affects-bad-pattern", "/etc/bramble/*.conf"),
        ("affects-bad-pattern", "foo@not a range")]


def test_matcher_findings_belong_to_the_context_tool_only(repo):
    _inert_corpus(repo)
    assert all_findings(repo, "search_decisions") == []
    assert all_findings(repo, "list_superseded") == []
    assert all_findings(repo, "get_decision") == []


def test_context_findings_merge_corpus_and_matcher_findings(repo):
    repo.record("0001-inert.md", extra=_affects(("data", "warehouse.orders")))
    repo.write("0002-broken.md", "no fence\n")
    rules = support.rules_of(all_findings(repo, "get_decision_context"))
    assert rules == ["affects-unresolvable", "frontmatter-fence"]


def test_matchers_qualified_with_another_repo_are_skipped(repo):
    repo.record("0215-share-with-mobile.md", status="accepted",
                extra='deciders: ["@a"]\n' + _affects(
                    ("path", "src/**", ("repo", '"bramble-mobile"')),
                    ("package", "react-native@0.76", ("repo", '"bramble-mobile"')),
                    ("entity", "component:default/app", ("repo", '"bramble-mobile"')),
                    ("path", "mobile-shared/**")))
    assert repo.result("get_decision_context", files=["src/app.ts"])["governing"] == []
    fired = repo.result("get_decision_context", files=["src/app.ts", "mobile-shared/theme.ts"])["governing"]
    assert [entry["firedMatchers"] for entry in fired] == [[{"type": "path", "pattern": "mobile-shared/**"}]]
    assert all_findings(repo, "get_decision_context") == []


def test_fired_matchers_are_unique_and_in_the_references_localecompare_order(repo):
    # The reference sorts firedMatchers with localeCompare (type, then pattern): punctuation
    # before letters, case a tie-break after the letters, `**` before `**/`. The expected order
    # is what Bun 1.4.5's localeCompare gives for these patterns (issue 30, item 6).
    repo.record("0222-design-tokens.md", status="accepted",
                extra='deciders: ["@a"]\n' + _affects(
                    ("path", "web/**/*.css"), ("path", "web/**", ("note", "all of it")), ("path", "web/**"),
                    ("path", "x/\uff21*"), ("path", "x/" + "\U0001f600" + "*"), ("path", "Web/**"),
                    ("path", "web/_*"), ("path", "web/a*"), ("path", "web/B*"), ("path", "web/-*"),
                    ("path", "web/*.css")))
    files = ["web/a/site.css", "web/index.html", "x/\uff21bc", "x/\U0001f600bc", "Web/x", "web/_x", "web/ab",
             "web/Bc", "web/-x", "web/site.css"]
    entry = repo.result("get_decision_context", files=files)["governing"][0]
    assert [fired["pattern"] for fired in entry["firedMatchers"]] == [
        "web/_*", "web/-*", "web/*.css", "web/**", "Web/**", "web/**/*.css", "web/a*", "web/B*",
        "x/\U0001f600*", "x/\uff21*"]


def test_given_paths_are_compared_never_opened(repo):
    repo.record("0001-src.md", extra=_affects(("path", "src/**")))
    os.makedirs(repo.path("src"))
    fifo = repo.path("src", "pipe.ts")
    if hasattr(os, "mkfifo"):
        os.mkfifo(fifo)  # opening it would block the call forever
    result = repo.result("get_decision_context", files=["src/pipe.ts", "src/does-not-exist.ts"])
    assert [entry["id"] for entry in result["activeProposals"]] == ["0001"]


@pytest.mark.parametrize("pattern, path, fires", [
    ("src/**", "src", True),                      # ** matches the directory itself
    ("src/**", "src/a/b.ts", True),
    ("*.config.js", "sub/webpack.config.js", False),
    ("**/*.env", "config/.env", False),            # dot segments need a dotted pattern
    (".github/workflows/*.yml", ".github/workflows/ci.yml", True),
    ("migrations/[!0-9]*.sql", "migrations/!notes.sql", True),   # [!...] is not negation here:
    ("migrations/[!0-9]*.sql", "migrations/readme.sql", False),  # a class of "!" and digits
    ("apps/{web,admin}/pages/**", "apps/admin/pages/x.tsx", True),
    ("!src/**", "docs/a.ts", False),              # a leading ! is literal, not a negation
    ("!src/**", "!src/a.ts", True),
], ids=lambda value: None)
def test_path_matching_samples(repo, pattern, path, fires):
    # A few picomatch cases through the whole tool; the full grammar is covered by
    # the vectors of tests/data/vectors/picomatch.json.
    repo.record("0001-glob.md", extra=_affects(("path", pattern)))
    result = repo.result("get_decision_context", files=[path])
    assert [entry["id"] for entry in result["activeProposals"]] == (["0001"] if fires else [])


# --------------------------------------------------------------------------- #
# list_superseded

def test_list_superseded_target_states(repo):
    repo.record("0100-cron.md", status="superseded", extra='supersededBy: "0101"\n')
    repo.record("0101-workflow-engine.md", status="accepted", extra='deciders: ["@a"]\n',
                title="Schedule jobs with a workflow engine")
    repo.record("0105-ftp.md", status="superseded", extra='supersededBy: "0199"\n')
    repo.record("0106-pin-by-tag.md", status="superseded", extra='supersededBy: "0110"\n')
    repo.record("0107-copy-lint.md", status="superseded", extra='supersededBy: "core:0007"\n')
    repo.record("0108-vendor-cli.md", status="superseded", extra='supersededBy: "platform-tools:0101"\n')
    repo.record("0110-blue-green.md")
    repo.record("0110-canaries.md")
    repo.record("0115-self.md", status="superseded", extra='supersededBy: "0115"\n', title="Record deploy freezes")
    repo.record("0116-semantic-release.md", status="superseded", extra='supersededBy: "0100"\n')
    result = repo.call("list_superseded", findingsLimit=100)
    assert result["content"][0]["text"] == "Returned 7 superseded decision entries; 8 findings on this page."
    entries = result["structuredContent"]["result"]
    assert set(entries) == {"outcome", "items", "cursor", "findings"}
    items = entries["items"]
    assert [item["id"] for item in items] == ["0100", "0105", "0106", "0107", "0108", "0115", "0116"]
    assert all(set(item) == set(SUMMARY_KEYS + ["supersededBy"]) for item in items)
    states = {item["id"]: item["supersededBy"] for item in items}
    assert states["0100"] == {"resolved": True, "target": {
        "id": "0101", "title": "Schedule jobs with a workflow engine", "status": "accepted",
        "sourcePath": "docs/adr/0101-workflow-engine.md"}}
    assert states["0105"] == {"resolved": False, "targetRef": "0199", "reason": "dangling"}
    assert states["0106"] == {"resolved": False, "targetRef": "0110", "reason": "ambiguous", "candidateCount": 2}
    assert states["0107"] == {"resolved": False, "targetRef": "core:0007", "reason": "federated-unavailable",
                              "log": "core", "id": "0007"}
    assert states["0108"] == {"resolved": False, "targetRef": "platform-tools:0101",
                              "reason": "federated-unavailable", "log": "platform-tools", "id": "0101"}
    assert states["0115"]["target"]["id"] == "0115"
    assert states["0116"] == {"resolved": True, "target": {
        "id": "0100", "title": "A decision worth keeping", "status": "superseded",
        "sourcePath": "docs/adr/0100-cron.md"}}
    derived = [f for f in entries["findings"]["items"] if f["rule"].startswith("superseded-target-")]
    assert derived == [
        {"rule": "superseded-target-ambiguous", "severity": "warn", "id": "0106",
         "message": 'supersededBy target "0110" resolves to 2 local records; '
                    'see get_decision("0110") for the full candidate list'},
        {"rule": "superseded-target-federated-unavailable", "severity": "info", "id": "0107",
         "message": 'supersededBy target "core:0007" is a log-qualified ref; '
                    'named-log federation is not available in this phase'},
        {"rule": "superseded-target-federated-unavailable", "severity": "info", "id": "0108",
         "message": 'supersededBy target "platform-tools:0101" is a log-qualified ref; '
                    'named-log federation is not available in this phase'},
    ]
    assert support.rules_of(entries["findings"]["items"]) == [
        "dangling-supersededBy", "dangling-supersededBy", "dangling-supersededBy",
        "superseded-target-ambiguous", "superseded-target-federated-unavailable",
        "superseded-target-federated-unavailable", "unique-id", "unique-id"]
    # The derived findings exist only in list_superseded.
    assert not [f for f in all_findings(repo) if f["rule"].startswith("superseded-target-")]


def test_list_superseded_singular_and_empty(repo):
    repo.record("0001-only.md")
    result = repo.call("list_superseded")
    assert result["content"][0]["text"] == "Returned 0 superseded decision entries; 0 findings on this page."
    repo.record("0002-old.md", status="superseded", extra='supersededBy: "0001"\n')
    result = repo.call("list_superseded")
    assert result["content"][0]["text"] == "Returned 1 superseded decision entry; 0 findings on this page."


def test_excluded_superseded_records_are_not_listed(repo):
    repo.record("0111-retire-staging.md", status="superseded")               # no supersededBy
    repo.record("0112-two-ci.md", status="accepted", extra='deciders: ["@a"]\nsupersededBy: "0111"\n')
    result = repo.result("list_superseded", findingsLimit=100)
    assert result["items"] == []
    assert support.rules_of(result["findings"]["items"]) == [
        "superseded-requires-supersededBy", "supersededBy-requires-superseded-status"]


# --------------------------------------------------------------------------- #
# The summary line cap

def test_summary_lines_are_capped_at_512_code_units():
    text = M.render_summary("found", id="9" * 600, findings=0)
    assert text == ('Found decision "' + "9" * 600)[:512]
    short = M.render_summary("results", items=1, findings=1)
    assert short == "Returned 1 decision result; 1 finding on this page."
