"""Record validation against the reference: every case of frontmatter.json.

Each case of tests/data/vectors/frontmatter.json (recorded from the reference like the other
vectors; tests/data/MANIFEST.sha256 pins its bytes) is one record file,
"---\\n" + source + "---\\n" + body, that the reference (@adrkit/core 0.8.0, zod
4.4.3, yaml 2.9.0) turned into a typed frontmatter (defaults filled in, keys in
JS order) or into findings.  Every case must agree exactly, with no list of
tolerated divergences:

* valid cases: a record whose frontmatter equals the expected one, key order
  and JSON number spelling included (`-0` is written `0`);
* invalid cases: no record, and the record-stage findings in the reference's
  order with equal rule, severity, field, id and pattern (present or absent
  alike), and the message where it is a fixed template.  For the few cases
  whose order the reference breaks by comparing zod's own message text
  (`tiesBrokenByMessage`) the tied findings may come in either order.

The bulk runs the module's real record reader (`parse_record_file`, then the
corpus order `sort_findings`).  A deterministic sample then goes end to end
through the real server process: each case is written as the only record of a
temporary git repository, `search_decisions` reports the findings and
`get_decision` the typed frontmatter, and every frame is validated against the
official MCP schema of the negotiated revision.
"""

import itertools
import json
import os
import pathlib
import shutil
import subprocess

import pytest

import _support as support  # tests/ is on sys.path (pytest rootdir insertion)
import _session as wire  # the schema-validating stdio session

M = support.M
DATA_PATH = pathlib.Path(__file__).resolve().parent / "data" / "vectors" / "frontmatter.json"
DATA = json.loads(DATA_PATH.read_text(encoding="utf-8"))
CASES = [case for group in DATA["groups"] for case in group["cases"]]
FIXED = frozenset(DATA["messageKinds"]["fixed"])
CORPUS_RULES = frozenset(DATA["excludedCorpusRules"])
COMPARED = ("rule", "severity", "field", "id", "pattern")
RECORD_PATH = "docs/adr/0001-x.md"
# Every SAMPLE_STEP-th case also runs through the server process, plus every
# case of the groups whose answer depends most on the wire (the typed output).
SAMPLE_STEP = 12
SAMPLE = [case for index, case in enumerate(CASES)
          if index % SAMPLE_STEP == 0 or case["id"].startswith("G-valid-records-")]


def record_bytes(case):
    text = "---\n" + case["source"] + "---\n" + case["body"]
    return text.encode("utf-8", "surrogatepass")


def compared(finding):
    """The fields the vectors pin down; the message only where it is a fixed template."""
    picked = {key: finding[key] for key in COMPARED if key in finding}
    if finding["rule"] in FIXED:
        picked["message"] = finding["message"]
    return picked


def same_json(got, want):
    """Equal as JSON values, object key order included; numbers by value, never bool for number."""
    if isinstance(want, dict):
        return isinstance(got, dict) and list(got) == list(want) and \
            all(same_json(got[key], want[key]) for key in want)
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and \
            all(same_json(a, b) for a, b in zip(got, want))
    if isinstance(want, bool) or want is None or isinstance(want, str):
        return type(got) is type(want) and got == want
    return isinstance(got, (int, float)) and not isinstance(got, bool) and got == want


def wire_text(value):
    """The JSON text a client receives (what JSON.stringify would write for the same value)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def check_findings(got, case):
    """Record-stage findings, in the reference's order."""
    want = [compared(finding) for finding in case["expect"]["findings"]]
    assert [compared(finding) for finding in got if finding["rule"] not in CORPUS_RULES] == want


def test_vector_file_is_complete():
    assert DATA["format"] == "adrkit-vectors/frontmatter@1"
    assert DATA["library"] == {"zod": "4.4.3", "yaml": "2.9.0"}
    assert len(CASES) == DATA["caseCount"] == 4151
    assert len({case["id"] for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_record_reader(case):
    parsed = M.parse_record_file(RECORD_PATH, record_bytes(case))
    expect = case["expect"]
    if expect["valid"]:
        assert parsed.findings == []
        assert parsed.record is not None
        assert same_json(parsed.record.frontmatter, expect["frontmatter"]), parsed.record.frontmatter
        assert wire_text(parsed.record.frontmatter) == wire_text(expect["frontmatter"])
        assert parsed.record.body == case["body"]
    else:
        assert parsed.record is None
        assert all(finding["path"] == RECORD_PATH for finding in parsed.findings)
        check_findings(M.sort_findings(parsed.findings), case)


# ---------------------------------------------------------------------------
# End to end through the server process
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def served_repo(tmp_path_factory):
    """A temporary git repository with an empty docs/adr, and one server process over it."""
    root = tmp_path_factory.mktemp("vectors-repo")
    if shutil.which("git"):
        subprocess.run(["git", "init", "-q", str(root)], check=True)
    else:
        (root / ".git").mkdir()
    (root / "docs" / "adr").mkdir(parents=True)
    session = wire.Session(support.module_command(M.__file__), ["--cwd", str(root)])
    try:
        session.initialize()
        yield Served(root, session)
    finally:
        status, _ = session.close()
    assert status == 0, session.stderr()


class Served(object):
    """The repository and its server: write the one record, call a tool."""

    def __init__(self, root, session):
        self.root, self.session, self.ids = str(root), session, itertools.count(1)

    def write(self, data):
        with open(os.path.join(self.root, RECORD_PATH), "wb") as handle:
            handle.write(data)

    def call(self, tool, arguments):
        frame = self.session.call(next(self.ids), "tools/call", {"name": tool, "arguments": arguments})
        assert "error" not in frame and not frame["result"].get("isError"), frame
        return frame["result"]["structuredContent"]


@pytest.mark.parametrize("case", SAMPLE, ids=[case["id"] for case in SAMPLE])
def test_through_the_server(case, served_repo):
    served_repo.write(record_bytes(case))
    listed = served_repo.call("search_decisions", {"query": "no such text anywhere", "findingsLimit": 100})
    page = listed["result"]["findings"]
    assert page["cursor"] is None
    assert all(finding["path"] == RECORD_PATH for finding in page["items"])
    expect = case["expect"]
    assert listed["corpusHealth"]["recordCount"] == (1 if expect["valid"] else 0)
    if not expect["valid"]:
        check_findings(page["items"], case)
        return
    assert [f for f in page["items"] if f["rule"] not in CORPUS_RULES] == []
    found = served_repo.call("get_decision", {"ref": expect["frontmatter"]["id"]})["result"]
    assert found["outcome"] == "found", found
    assert found["decision"]["sourcePath"] == RECORD_PATH
    assert found["decision"]["body"] == case["body"]
    assert same_json(found["decision"]["frontmatter"], expect["frontmatter"])
    assert wire_text(found["decision"]["frontmatter"]) == wire_text(expect["frontmatter"])


# ---------------------------------------------------------------------------
# The two engine doors the schema relies on, beyond what the vectors show
# ---------------------------------------------------------------------------

def test_js_regex_means_what_javascript_means():
    not_space = M.JS.regex(r"^[^@\s]+$")
    assert not_space("a\u001cb") and not_space("a\u0085b") and not_space("a\u180eb")  # not JS \s
    assert not not_space("a\ufeffb") and not not_space("a\u3000b")  # JS \s
    assert not M.JS.regex(r"^a$")("a\n")  # JS $ never matches before a final newline
    assert M.JS.regex(r"^\d\w$")("1_") and not M.JS.regex(r"^\d$")("\u0661")  # ASCII \d \w
    assert not M.JS.regex(r"^.$")("\u2028") and M.JS.regex(r"^.$")("\x85")
    assert not M.JS.regex(r"^.$")("\U0001f600") and M.JS.regex(r"^..$")("\U0001f600")  # code units
    for source in (r"(?<=a)b", r"^\p{L}$", r"(a)\1", r"[\S]"):
        with pytest.raises(ValueError):
            M.JS.regex(source)


def test_js_trim_is_the_ecmascript_set():
    assert M.JS.trim("\ufeff\u3000 a \u2029\t") == "a"
    assert M.JS.trim("\x1ca\x85") == "\x1ca\x85" and M.JS.trim("\u200ba\u180e") == "\u200ba\u180e"


# `xn--abc-` (decodes to ASCII only) and `a\u05d0` (fails the Bidi rule) are rejected by the
# current UTS #46 and by the runtime the vectors were recorded with; Node 20 accepts both.
@pytest.mark.parametrize("url, valid", [
    ("http://example.com", True), ("http:example.com", True), ("http://", False),
    ("foo:", True), ("foo://", True), ("foo://a b", False), ("foo://h:65535", True), ("foo://h:65536", False),
    ("http://0x7f.1/", True), ("http://1.2.3.4.5/", False), ("http://256.0.0.1/", False), ("http://09/", False),
    ("http://[::1]:80/", True), ("http://[fe80::1%25eth0]/", False), ("http://[::1.2.3.04]/", False),
    ("http://xn--mnchen-3ya.de/", True), ("http://MÜNCHEN.de/", True), ("http://xn--abc-.com/", False),
    ("http://a\u05d0.com/", False), ("http://\u05d0\u05d1.com/", True), ("http://a\u200db.com/", False),
    ("http://%ef%bc%85.com/", False), ("http://\u00ad/", False), ("file://host:80/", False),
    ("file://C:/x", True), ("https://u@/", False), ("https://\ud800.com/", False), ("x://\ud800/", True),
])
def test_url_is_valid(url, valid):
    assert M.url_is_valid(url) is valid
