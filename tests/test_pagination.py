"""Pagination on both channels, the seven invalid-cursor reasons, and the corpus fingerprint.

Cursors are treated as opaque except where the conformance pack documents the
wire format (base64url JSON {v, scope, fp, qh, offset}); those cases edit a
cursor the module minted itself, as the pack's cursor-format scenarios do.
"""

import hashlib
import json
import os

import pytest

import _platforms as platforms  # why a test cannot hold on a platform

import _support as support  # tests/ is on sys.path (pytest rootdir insertion)

M = support.M
record_text = support.record_text
edit_cursor = support.edit_cursor
decode_cursor = support.decode_cursor
b64json = support.b64json

INVALID = {
    "decode-failed": "Cursor could not be decoded.",
    "version-unsupported": "Cursor version is not supported.",
    "wrong-channel": "Cursor does not belong to this tool channel.",
    "corpus-changed": "Corpus changed after this cursor was issued.",
    "query-mismatch": "Cursor was issued for different request parameters.",
    "cursor-not-applicable": "Cursor does not apply to this outcome.",
    "offset-out-of-range": "Cursor offset is outside the current result set.",
}


def assert_invalid_cursor(repo, reason, tool, arguments):
    result = repo.call(tool, arguments)
    assert "isError" not in result
    assert result["content"] == [{"type": "text", "text": INVALID[reason]}]
    structured = result["structuredContent"]
    assert set(structured) == {"corpusHealth", "result"}
    assert structured["result"] == {"outcome": "invalid-cursor", "reason": reason, "message": INVALID[reason]}


def test_invalid_cursor_message_table():
    assert M.INVALID_CURSOR_MESSAGES == INVALID


def _numbered(repo, count, broken=0, title="Kiosk record"):
    for number in range(1, count + 1):
        repo.record("%04d-record.md" % number, title="%s %d" % (title, number))
    for number in range(1, broken + 1):
        repo.write("%04d-broken.md" % (900 + number), "no fence %d\n" % number)


def walk(repo, tool, arguments, channel="cursor", key=None):
    """Follow one channel to its end; returns (pages of items, cursors seen)."""
    pages, cursors = [], []
    arguments = dict(arguments)
    while True:
        result = repo.result(tool, arguments)
        if channel == "cursor":
            pages.append(result[key])
            cursor = result["cursor"]
        else:
            pages.append(result["findings"]["items"])
            cursor = result["findings"]["cursor"]
        cursors.append(cursor)
        if cursor is None:
            return pages, cursors
        assert isinstance(cursor, str) and cursor
        arguments[channel] = cursor
        assert len(pages) < 50


# --------------------------------------------------------------------------- #
# Walks on every channel

def test_search_results_walk(repo):
    _numbered(repo, 5)
    pages, cursors = walk(repo, "search_decisions", {"query": "kiosk", "limit": 2}, key="items")
    assert [[item["id"] for item in page] for page in pages] == [["0001", "0002"], ["0003", "0004"], ["0005"]]
    assert cursors[-1] is None and all(cursors[:-1])
    everything = repo.result("search_decisions", query="kiosk", limit=100)["items"]
    assert [item for page in pages for item in page] == everything


def test_a_full_last_page_has_no_cursor(repo):
    _numbered(repo, 4)
    pages, cursors = walk(repo, "search_decisions", {"query": "kiosk", "limit": 2}, key="items")
    assert [len(page) for page in pages] == [2, 2]
    assert cursors[1] is None


def test_default_page_size_is_20(repo):
    _numbered(repo, 21, broken=21)
    result = repo.result("search_decisions", query="kiosk")
    assert len(result["items"]) == 20 and result["cursor"] is not None
    assert len(result["findings"]["items"]) == 20 and result["findings"]["cursor"] is not None


def test_findings_walk(repo):
    _numbered(repo, 1, broken=5)
    pages, cursors = walk(repo, "search_decisions", {"query": "kiosk", "findingsLimit": 2}, channel="findingsCursor")
    paths = [[finding["path"] for finding in page] for page in pages]
    assert paths == [["docs/adr/0901-broken.md", "docs/adr/0902-broken.md"],
                     ["docs/adr/0903-broken.md", "docs/adr/0904-broken.md"],
                     ["docs/adr/0905-broken.md"]]


def test_both_channels_page_independently(repo):
    _numbered(repo, 3, broken=3)
    first = repo.result("search_decisions", query="kiosk", limit=1, findingsLimit=2)
    second = repo.result("search_decisions", query="kiosk", limit=1, findingsLimit=2,
                         cursor=first["cursor"], findingsCursor=first["findings"]["cursor"])
    assert [item["id"] for item in second["items"]] == ["0002"]
    assert [f["path"] for f in second["findings"]["items"]] == ["docs/adr/0903-broken.md"]
    assert second["findings"]["cursor"] is None and second["cursor"] is not None
    # Continuing only the primary channel restarts the findings channel.
    third = repo.result("search_decisions", query="kiosk", limit=1, findingsLimit=2, cursor=second["cursor"])
    assert [item["id"] for item in third["items"]] == ["0003"] and third["cursor"] is None
    assert [f["path"] for f in third["findings"]["items"]] == ["docs/adr/0901-broken.md", "docs/adr/0902-broken.md"]


def test_candidates_walk(repo):
    for number in range(24):
        repo.record("0500-option-%02d.md" % number, ident="0500")
    pages, cursors = walk(repo, "get_decision", {"ref": "0500", "limit": 7, "findingsLimit": 1}, key="candidates")
    assert [len(page) for page in pages] == [7, 7, 7, 3]
    assert [c["sourcePath"] for page in pages for c in page] == [
        "docs/adr/0500-option-%02d.md" % n for n in range(24)]


def test_context_walk_pages_one_flat_list_then_buckets(repo):
    for ident, status in (("0001", "accepted"), ("0002", "draft"), ("0003", "accepted"),
                          ("0004", "rejected"), ("0005", "proposed")):
        extra = 'affects:\n  - type: path\n    pattern: "src/**"\n'
        if status == "accepted":
            extra += 'deciders: ["@a"]\n'
        repo.record("%s-%s.md" % (ident, status), status=status, extra=extra)
    arguments = {"files": ["src/a.ts"], "limit": 2}
    first = repo.result("get_decision_context", arguments)
    assert ([e["id"] for e in first["governing"]], [e["id"] for e in first["activeProposals"]]) == (["0001"], ["0002"])
    second = repo.result("get_decision_context", dict(arguments, cursor=first["cursor"]))
    assert ([e["id"] for e in second["governing"]], [e["id"] for e in second["history"]]) == (["0003"], ["0004"])
    third = repo.result("get_decision_context", dict(arguments, cursor=second["cursor"]))
    assert [e["id"] for e in third["activeProposals"]] == ["0005"] and third["cursor"] is None


def test_superseded_walk(repo):
    repo.record("0001-target.md")
    for number in range(2, 7):
        repo.record("%04d-old.md" % number, status="superseded", extra='supersededBy: "0001"\n')
    pages, _ = walk(repo, "list_superseded", {"limit": 2}, key="items")
    assert [[item["id"] for item in page] for page in pages] == [["0002", "0003"], ["0004", "0005"], ["0006"]]


# --------------------------------------------------------------------------- #
# The cursor wire format (documented in the pack)

def test_cursor_wire_format(repo):
    repo.record("0500-a.md", ident="0500")
    repo.record("0500-b.md", ident="0500")
    structured = repo.structured("get_decision", ref="0500", limit=1)
    payload = decode_cursor(structured["result"]["cursor"])
    assert payload == {"v": 1, "scope": "get_decision.candidates", "fp": structured["corpusHealth"]["fingerprint"],
                       "qh": hashlib.sha256(b'["0500",1]').hexdigest(), "offset": 1}
    assert "=" not in structured["result"]["cursor"]
    assert M.query_shape_hash(["core:0501", 20]) == \
        "65e281f4a9cb64fac337d550515085108238d112b36c0a4706241ac2292d79d9"  # recorded in the pack
    assert M.encode_cursor("search.results", "f", "q", 3) == b64json(
        {"v": 1, "scope": "search.results", "fp": "f", "qh": "q", "offset": 3})


@pytest.mark.parametrize("tool, arguments, scope", [
    ("search_decisions", {"query": "kiosk", "limit": 1}, "search.results"),
    ("get_decision_context", {"files": ["src/a"], "limit": 1}, "context.results"),
    ("list_superseded", {"limit": 1}, "superseded.results"),
])
def test_primary_channel_scopes(repo, tool, arguments, scope):
    repo.record("0001-target.md", title="Kiosk target", extra='affects:\n  - type: path\n    pattern: "src/**"\n')
    for number in (2, 3):
        repo.record("%04d-old.md" % number, title="Kiosk old", status="superseded",
                    extra='supersededBy: "0001"\naffects:\n  - type: path\n    pattern: "src/**"\n')
    assert decode_cursor(repo.result(tool, arguments)["cursor"])["scope"] == scope


@pytest.mark.parametrize("tool, arguments, scope", [
    ("search_decisions", {"query": "x"}, "search.findings"),
    ("get_decision", {"ref": "0001"}, "get_decision.findings"),
    ("get_decision_context", {"files": ["x"]}, "context.findings"),
    ("list_superseded", {}, "superseded.findings"),
])
def test_findings_channel_scopes(repo, tool, arguments, scope):
    _numbered(repo, 1, broken=2)
    result = repo.result(tool, dict(arguments, findingsLimit=1))
    assert decode_cursor(result["findings"]["cursor"])["scope"] == scope


# --------------------------------------------------------------------------- #
# The seven invalid-cursor reasons

@pytest.fixture
def kiosk(repo):
    _numbered(repo, 5, broken=3)
    first = repo.result("search_decisions", query="kiosk", limit=2, findingsLimit=1)
    repo.cursor = first["cursor"]
    repo.findings_cursor = first["findings"]["cursor"]
    return repo


@pytest.mark.parametrize("cursor", [
    "%%%", "", "not-a-cursor", "e30", "bnVsbA", "W10", "eyJ2IjoxfQ", "bm90IGpzb24", "zz",
    b64json("search.results"), b64json([1, "search.results", "x", "x", 1]),
    b64json({"v": 1, "scope": "search.results", "fp": "x", "qh": "x"}),
], ids=["percent", "empty", "words", "empty-object", "null", "array", "missing-keys", "not-json",
        "bad-base64", "string", "array-of-fields", "no-offset"])
def test_decode_failed(kiosk, cursor):
    assert_invalid_cursor(kiosk, "decode-failed", "search_decisions", {"query": "kiosk", "limit": 2, "cursor": cursor})


@pytest.mark.parametrize("changes", [
    {"offset": 0}, {"offset": -5}, {"offset": 2.5}, {"offset": "2"}, {"offset": 2 ** 53}, {"offset": True},
    {"v": "1"}, {"fp": None}, {"scope": 3}, {"qh": ["x"]}, {"extra": 1},
], ids=lambda value: "-".join("%s=%r" % item for item in value.items()))
def test_decode_failed_on_edited_fields(kiosk, changes):
    cursor = edit_cursor(kiosk.cursor, **changes)
    assert_invalid_cursor(kiosk, "decode-failed", "search_decisions", {"query": "kiosk", "limit": 2, "cursor": cursor})


def _raw_cursor(cursor, old, new):
    """Edit the JSON text of a cursor (for values json.dumps cannot write: NaN, 1e400)."""
    text = json.dumps(decode_cursor(cursor), separators=(",", ":"))
    assert old in text
    return support.base64.urlsafe_b64encode(text.replace(old, new).encode("utf-8")).rstrip(b"=").decode("ascii")


@pytest.mark.parametrize("old, new, reason", [
    ('"offset":2', '"offset":NaN', "decode-failed"),
    ('"offset":2', '"offset":1e400', "decode-failed"),
    ('"offset":2', '"offset":-0', "decode-failed"),
    ('"v":1', '"v":true', "decode-failed"),
    ('"v":1', '"v":null', "decode-failed"),
    ('"v":1', '"v":1e400', "version-unsupported"),
    ('"v":1', '"v":1.0', None),
    ('"offset":2', '"offset":2.0', None),
    ('"offset":2', '"offset":2e0', None),
    ('"v":1', '"v":1,"v":1', None),                      # duplicate keys: the last one wins
], ids=["nan-offset", "infinite-offset", "negative-zero", "boolean-v", "null-v", "infinite-v", "float-v",
        "float-offset", "exponent-offset", "duplicate-key"])
def test_cursor_json_edge_cases(kiosk, old, new, reason):
    cursor = _raw_cursor(kiosk.cursor, old, new)
    arguments = {"query": "kiosk", "limit": 2, "cursor": cursor}
    if reason is not None:
        assert_invalid_cursor(kiosk, reason, "search_decisions", arguments)
    else:
        assert [item["id"] for item in kiosk.result("search_decisions", arguments)["items"]] == ["0003", "0004"]


def test_offset_may_be_any_positive_safe_integer(kiosk):
    result = kiosk.result("search_decisions", query="kiosk", limit=2, cursor=edit_cursor(kiosk.cursor, offset=3))
    assert [item["id"] for item in result["items"]] == ["0004", "0005"]
    result = kiosk.result("search_decisions", query="kiosk", limit=2, cursor=edit_cursor(kiosk.cursor, offset=4))
    assert [item["id"] for item in result["items"]] == ["0005"] and result["cursor"] is None


@pytest.mark.parametrize("version", [2, 0, 99, 1.5])
def test_version_unsupported(kiosk, version):
    cursor = edit_cursor(kiosk.cursor, v=version)
    assert_invalid_cursor(kiosk, "version-unsupported", "search_decisions",
                          {"query": "kiosk", "limit": 2, "cursor": cursor})


def test_version_is_checked_before_scope(kiosk):
    cursor = b64json({"v": 2, "scope": "nonsense", "fp": "x", "qh": "x", "offset": 1})
    assert_invalid_cursor(kiosk, "version-unsupported", "search_decisions", {"query": "kiosk", "cursor": cursor})


def test_wrong_channel(kiosk):
    assert_invalid_cursor(kiosk, "wrong-channel", "list_superseded", {"cursor": kiosk.cursor})
    assert_invalid_cursor(kiosk, "wrong-channel", "search_decisions",
                          {"query": "kiosk", "limit": 2, "cursor": kiosk.findings_cursor})
    assert_invalid_cursor(kiosk, "wrong-channel", "search_decisions",
                          {"query": "kiosk", "findingsLimit": 1, "findingsCursor": kiosk.cursor})
    assert_invalid_cursor(kiosk, "wrong-channel", "get_decision",
                          {"ref": "0001", "findingsLimit": 1, "findingsCursor": kiosk.findings_cursor})
    assert_invalid_cursor(kiosk, "wrong-channel", "get_decision_context",
                          {"files": ["x"], "findingsLimit": 1, "findingsCursor": kiosk.findings_cursor})


def test_scope_is_checked_before_the_fingerprint(kiosk):
    cursor = b64json({"v": 1, "scope": "get_decision.findings", "fp": "x", "qh": "x", "offset": 1})
    assert_invalid_cursor(kiosk, "wrong-channel", "search_decisions", {"query": "kiosk", "cursor": cursor})


def test_corpus_changed(kiosk):
    kiosk.record("0099-added-later.md", title="Unrelated")
    assert_invalid_cursor(kiosk, "corpus-changed", "search_decisions", {"query": "kiosk", "limit": 2,
                                                                         "cursor": kiosk.cursor})
    assert_invalid_cursor(kiosk, "corpus-changed", "search_decisions", {"query": "other", "findingsLimit": 1,
                                                                         "findingsCursor": kiosk.findings_cursor})
    # The fingerprint is checked before the query shape.
    assert_invalid_cursor(kiosk, "corpus-changed", "search_decisions", {"query": "them", "limit": 9,
                                                                         "cursor": kiosk.cursor})
    os.remove(kiosk.adr_path("0099-added-later.md"))
    assert kiosk.result("search_decisions", query="kiosk", limit=2, cursor=kiosk.cursor)["items"][0]["id"] == "0003"


@pytest.mark.parametrize("arguments", [
    {"query": "kios"}, {"query": "kiosk", "limit": 3}, {"query": "kiosk", "status": ["proposed"]},
    {"query": "kiosk", "scope": ["component"]}, {"query": "kiosk", "tags": ["x"]},
], ids=["query", "limit", "status", "scope", "tags"])
def test_query_mismatch(kiosk, arguments):
    arguments = dict({"limit": 2}, **arguments)
    arguments["cursor"] = kiosk.cursor
    assert_invalid_cursor(kiosk, "query-mismatch", "search_decisions", arguments)


def test_findings_cursor_is_bound_to_findings_limit_only(kiosk):
    other_query = kiosk.result("search_decisions", query="zebra", findingsLimit=1,
                               findingsCursor=kiosk.findings_cursor)
    assert [f["path"] for f in other_query["findings"]["items"]] == ["docs/adr/0902-broken.md"]
    assert_invalid_cursor(kiosk, "query-mismatch", "search_decisions",
                          {"query": "kiosk", "findingsLimit": 2, "findingsCursor": kiosk.findings_cursor})


@pytest.mark.parametrize("query", ["KIOSK", "  kiosk\u3000", "\ufeffKiosk", "\uff2b\uff29\uff2f\uff33\uff2b"])
def test_normalised_equal_queries_share_cursors(kiosk, query):
    result = kiosk.result("search_decisions", query=query, limit=2, cursor=kiosk.cursor)
    assert [item["id"] for item in result["items"]] == ["0003", "0004"]


def test_filter_order_and_file_order_do_not_change_the_query_shape(repo):
    for number in range(1, 6):
        repo.record("%04d-record.md" % number, title="Kiosk %d" % number, status="accepted" if number % 2 else "draft",
                    extra='deciders: ["@a"]\ntags: [ops, mesh]\nscope: org\n'
                          'affects:\n  - type: path\n    pattern: "src/**"\n')
    first = repo.result("search_decisions", query="kiosk", limit=2, status=["accepted", "draft"],
                        tags=["ops", "mesh"], scope=["org", "component"])
    again = repo.result("search_decisions", query="kiosk", limit=2, status=["draft", "accepted"],
                        tags=["mesh", "ops"], scope=["component", "org"], cursor=first["cursor"])
    assert [item["id"] for item in again["items"]] == ["0003", "0004"]
    files = ["src/b.ts", "src/a.ts"]
    context = repo.result("get_decision_context", files=files, limit=2)
    again = repo.result("get_decision_context", files=["src/a.ts", "src/b.ts", "src/a.ts"], limit=2,
                        cursor=context["cursor"])
    assert [e["id"] for e in again["governing"] + again["activeProposals"]] == ["0003", "0004"]
    assert_invalid_cursor(repo, "query-mismatch", "get_decision_context",
                          {"files": ["src/a.ts"], "limit": 2, "cursor": context["cursor"]})


def test_context_findings_cursor_is_bound_to_the_file_set(repo):
    repo.record("0001-inert.md", extra="affects:\n  - type: data\n    pattern: a\n  - type: data\n    pattern: b\n")
    first = repo.result("get_decision_context", files=["x", "y"], findingsLimit=1)
    again = repo.result("get_decision_context", files=["y", "x"], findingsLimit=1,
                        findingsCursor=first["findings"]["cursor"])
    assert [f["pattern"] for f in again["findings"]["items"]] == ["b"]
    assert_invalid_cursor(repo, "query-mismatch", "get_decision_context",
                          {"files": ["x"], "findingsLimit": 1, "findingsCursor": first["findings"]["cursor"]})


def test_get_decision_findings_cursor_is_not_bound_to_the_ref(repo):
    repo.record("0500-a.md", ident="0500")
    repo.record("0500-b.md", ident="0500")
    repo.record("0503-unique.md")
    repo.write("0900-broken.md", "no fence\n")
    first = repo.result("get_decision", ref="0503", findingsLimit=2)
    assert first["findings"]["cursor"] is not None
    across = repo.result("get_decision", ref="0500", findingsLimit=2, findingsCursor=first["findings"]["cursor"])
    assert across["outcome"] == "ambiguous-local-id"
    assert support.rules_of(across["findings"]["items"]) == ["unique-id"]
    federated = repo.result("get_decision", ref="core:0500", findingsLimit=2,
                            findingsCursor=first["findings"]["cursor"])
    assert federated["outcome"] == "federated-log-unavailable"


def test_cursor_not_applicable(repo):
    repo.record("0501-a.md", ident="0501")
    repo.record("0501-b.md", ident="0501")
    first = repo.structured("get_decision", ref="0501", limit=1)
    cursor = first["result"]["cursor"]
    os.remove(repo.adr_path("0501-b.md"))                       # 0501 is unique now: found
    assert_invalid_cursor(repo, "corpus-changed", "get_decision", {"ref": "0501", "limit": 1, "cursor": cursor})
    fingerprint = repo.structured("get_decision", ref="0501")["corpusHealth"]["fingerprint"]
    rebound = edit_cursor(cursor, fp=fingerprint)
    assert_invalid_cursor(repo, "cursor-not-applicable", "get_decision", {"ref": "0501", "limit": 1, "cursor": rebound})
    # query-mismatch is reported before cursor-not-applicable
    assert_invalid_cursor(repo, "query-mismatch", "get_decision", {"ref": "0501", "limit": 2, "cursor": rebound})
    os.remove(repo.adr_path("0501-a.md"))                       # not-found
    fingerprint = repo.structured("get_decision", ref="0501")["corpusHealth"]["fingerprint"]
    assert_invalid_cursor(repo, "cursor-not-applicable", "get_decision",
                          {"ref": "0501", "limit": 1, "cursor": edit_cursor(cursor, fp=fingerprint)})
    federated = b64json({"v": 1, "scope": "get_decision.candidates", "fp": fingerprint,
                         "qh": M.query_shape_hash(["core:0501", 20]), "offset": 1})
    assert_invalid_cursor(repo, "cursor-not-applicable", "get_decision", {"ref": "core:0501", "cursor": federated})


def test_offset_out_of_range(repo):
    for number in range(24):
        repo.record("0500-option-%02d.md" % number, ident="0500")
    first = repo.result("get_decision", ref="0500", limit=5)
    last = repo.result("get_decision", ref="0500", limit=5, cursor=edit_cursor(first["cursor"], offset=23))
    assert len(last["candidates"]) == 1 and last["cursor"] is None
    for offset in (24, 100000):
        assert_invalid_cursor(repo, "offset-out-of-range", "get_decision",
                              {"ref": "0500", "limit": 5, "cursor": edit_cursor(first["cursor"], offset=offset)})


def test_findings_offset_out_of_range(repo):
    _numbered(repo, 1, broken=3)
    first = repo.result("list_superseded", findingsLimit=1)
    last = repo.result("list_superseded", findingsLimit=1,
                       findingsCursor=edit_cursor(first["findings"]["cursor"], offset=2))
    assert last["findings"]["cursor"] is None
    assert_invalid_cursor(repo, "offset-out-of-range", "list_superseded",
                          {"findingsLimit": 1, "findingsCursor": edit_cursor(first["findings"]["cursor"], offset=3)})


def test_primary_cursor_is_checked_before_the_findings_cursor(kiosk):
    assert_invalid_cursor(kiosk, "wrong-channel", "search_decisions",
                          {"query": "kiosk", "cursor": kiosk.findings_cursor, "findingsCursor": "zz"})
    assert_invalid_cursor(kiosk, "decode-failed", "search_decisions",
                          {"query": "kiosk", "limit": 2, "cursor": "zz", "findingsCursor": kiosk.cursor})


def test_get_decision_checks_its_primary_cursor_first_on_every_outcome(repo):
    repo.record("0500-a.md", ident="0500")
    repo.record("0500-b.md", ident="0500")
    repo.record("0503-unique.md")
    repo.write("0900-broken.md", "no fence\n")
    candidates = repo.result("get_decision", ref="0500", limit=1)["cursor"]
    findings = repo.result("get_decision", ref="0503", findingsLimit=1)["findings"]["cursor"]
    assert_invalid_cursor(repo, "wrong-channel", "get_decision", {"ref": "0503", "cursor": findings,
                                                                  "findingsCursor": "zz"})
    assert_invalid_cursor(repo, "query-mismatch", "get_decision", {"ref": "0503", "cursor": candidates})
    assert_invalid_cursor(repo, "query-mismatch", "get_decision", {"ref": "core:0500", "cursor": candidates})
    assert_invalid_cursor(repo, "decode-failed", "get_decision", {"ref": "core:0500", "cursor": "zz"})
    assert_invalid_cursor(repo, "decode-failed", "get_decision", {"ref": "0500", "findingsCursor": ""})


# --------------------------------------------------------------------------- #
# The fingerprint: equal corpora, equal fingerprints; any change, a new one

def _corpus(repo):
    repo.record("0001-first.md", title="First record", status="accepted", extra='deciders: ["@a"]\ntags: [ops]\n')
    repo.record("0002-second.md", title="Second record", extra='relatesTo: ["0001"]\n')
    repo.write("0003-broken.md", "no fence\n")


def test_equal_corpora_have_equal_fingerprints(make_repo):
    first, second = make_repo("one"), make_repo("two")
    _corpus(first)
    _corpus(second)
    assert first.fingerprint() == second.fingerprint()
    assert first.fingerprint() == first.fingerprint()
    for tool, arguments in (("search_decisions", {"query": "x"}), ("get_decision", {"ref": "0001"}),
                            ("get_decision_context", {"files": ["x"]}), ("list_superseded", {})):
        assert first.structured(tool, arguments)["corpusHealth"]["fingerprint"] == first.fingerprint()


def _mutations():
    def add_record(repo):
        repo.record("0004-new.md")

    def delete_record(repo):
        os.remove(repo.adr_path("0002-second.md"))

    def body_byte(repo):
        repo.record("0002-second.md", title="Second record", extra='relatesTo: ["0001"]\n', body="Body text!\n")

    def frontmatter_value(repo):
        repo.record("0002-second.md", title="Second record", extra='relatesTo: ["0001"]\ntags: [ops]\n')

    def rename(repo):
        os.rename(repo.adr_path("0002-second.md"), repo.adr_path("0002-renamed.md"))

    def add_broken(repo):
        repo.write("0005-broken.md", "no fence\n")

    def add_oversized(repo):
        repo.write("0006-huge.md", "x" * 70000)

    def change_a_finding(repo):
        repo.write("0003-broken.md", "---\nid: \"0003\"\n")   # fence-missing -> fence-unterminated

    def break_a_record(repo):
        repo.record("0002-second.md", title="Second record", status="approved")

    def duplicate_an_id(repo):
        repo.record("0007-copy.md", ident="0001", title="First record", status="accepted",
                    extra='deciders: ["@a"]\ntags: [ops]\n')

    return [add_record, delete_record, body_byte, frontmatter_value, rename, add_broken, add_oversized,
            change_a_finding, break_a_record, duplicate_an_id]


@pytest.mark.parametrize("mutate", _mutations(), ids=lambda function: function.__name__)
def test_any_change_gives_a_new_fingerprint(repo, mutate):
    _corpus(repo)
    before = repo.fingerprint()
    mutate(repo)
    assert repo.fingerprint() != before


def _non_changes():
    def readme(repo):
        repo.write("README.md", "# Decisions\n")

    def nested(repo):
        repo.write("drafts/0009-nested.md", record_text("0009"))

    def symlink(repo):
        os.symlink("0001-first.md", repo.adr_path("0010-linked.md"))

    def touch(repo):
        os.utime(repo.adr_path("0001-first.md"), ns=(10 ** 18, 10 ** 18))

    def relayout(repo):
        repo.write("0002-second.md", "---\n# same record, another layout\nrelatesTo:\n  - '0001'\n"
                                     "date: '2025-01-01'\nstatus: proposed\ntitle: 'Second record'\n"
                                     "id: '0002'\n---\nBody text.\n")

    def explicit_defaults(repo):
        repo.record("0002-second.md", title="Second record",
                    extra='relatesTo: ["0001"]\nscope: component\nschemaVersion: "0.1.0"\ntags: []\n')

    def outside_the_folder(repo):
        with open(repo.path("notes.md"), "w") as handle:
            handle.write(record_text("0011"))

    return [readme, nested, symlink, touch, relayout, explicit_defaults, outside_the_folder]


@pytest.mark.parametrize("change", [pytest.param(change, marks=platforms.SYMLINKS)
                                    if change.__name__ == "symlink" else change
                                    for change in _non_changes()],
                         ids=lambda function: function.__name__)
def test_same_corpus_keeps_its_fingerprint(repo, change):
    _corpus(repo)
    before = repo.fingerprint()
    change(repo)
    assert repo.fingerprint() == before


def test_same_size_same_mtime_rewrite_is_seen(repo):
    _corpus(repo)
    path = repo.adr_path("0002-second.md")
    before = repo.fingerprint()
    assert repo.result("get_decision", ref="0002")["decision"]["body"] == "Body text.\n"
    info = os.stat(path)
    with open(path, "rb") as handle:
        data = handle.read()
    changed = data.replace(b"Body text.", b"Body TEXT.")
    assert len(changed) == len(data) and changed != data
    with open(path, "r+b") as handle:  # in place: same inode
        handle.write(changed)
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (info.st_ino, info.st_size, info.st_mtime_ns)
    assert repo.fingerprint() != before
    assert repo.result("get_decision", ref="0002")["decision"]["body"] == "Body TEXT.\n"
    with open(path, "r+b") as handle:
        handle.write(data)
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert repo.fingerprint() == before
    assert repo.result("get_decision", ref="0002")["decision"]["body"] == "Body text.\n"


def test_restoring_the_bytes_restores_the_fingerprint(repo):
    _corpus(repo)
    before = repo.fingerprint()
    repo.record("0004-temporary.md")
    during = repo.fingerprint()
    os.remove(repo.adr_path("0004-temporary.md"))
    assert during != before
    assert repo.fingerprint() == before


def test_the_same_record_in_another_folder_is_another_corpus(make_repo):
    first, second = make_repo("one"), make_repo("two", adr_dir="records")
    _corpus(first)
    _corpus(second)
    assert first.fingerprint() != second.fingerprint()


def test_projection_exposes_the_health_numbers(repo):
    _corpus(repo)
    projection = repo.projection()
    health = repo.structured("list_superseded")["corpusHealth"]
    assert (projection.fingerprint, projection.record_count, projection.excluded_count) == (
        health["fingerprint"], health["recordCount"], health["excludedCount"])
    assert [record.path for record in projection.records] == ["docs/adr/0001-first.md", "docs/adr/0002-second.md"]
    assert projection.records[0].frontmatter["deciders"] == ["@a"]
    assert projection.records[1].body == "Body text.\n"
    assert support.rules_of(projection.findings) == ["frontmatter-fence"]
    assert json.loads(json.dumps(projection.findings)) == projection.findings
