"""Fuzzed corpora (issue 6, part 2): hostile repositories never fail a call.

Generated repositories -- random frontmatter and bodies, random bytes, BOMs,
CRLF, truncated fences, every violation of the frontmatter schema, YAML
anchors and alias bombs, pathological globs, a 10,000-record corpus -- are
read in-process through ``load_projection`` and ``call_tool`` (a handful also
through the real server process).  For every repository:

* no call raises, and every tool result is JSON (no NaN), validates against
  the tool's own outputSchema and can be framed;
* every record-named file ends either as a record or as findings about that
  file (never both, never neither), and recordCount + excludedCount is the
  number of such files;
* nothing that is not a record-named regular file is reported at all.

The random repositories come from the seeded generators of tests/_seeded.py,
from one fixed seed ("fuzz-corpora/corpora"): repository N is the same in
every run, in any order and under xdist.  A failure names the seed, the index
and the files (their repr, truncated); ``ADRKIT_FUZZ_INDEX`` runs that one
repository alone:

    ADRKIT_FUZZ_INDEX=123 python3 -m pytest -n 0 tests/test_fuzz_corpora.py::test_fuzz_corpora

The default run generates 1,000 repositories in the fuzz test on top of the
deterministic ones; scale it with ``ADRKIT_FUZZ_CORPORA``, e.g.

    ADRKIT_FUZZ_CORPORA=20000 python3 -m pytest tests/test_fuzz_corpora.py

The module under test is ``$ADRKIT_MCP_MODULE`` when set (see _support).
"""

import copy
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import tracemalloc

import pytest

import _support as support  # tests/ is on sys.path (pytest rootdir insertion)
import _session as wire
import _seeded as st  # the seeded strategies, under Hypothesis's names

M = support.M
record_text = support.record_text

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = json.load(open(os.path.join(HERE, "data", "adr.schema.json"), encoding="utf-8"))
CORPORA = int(os.environ.get("ADRKIT_FUZZ_CORPORA", "1000"))
MAX_SOURCE = 64 * 1024
COUNTS = {"corpora": 0, "files": 0, "records": 0, "excluded": 0, "calls": 0}

# Findings about the corpus as a whole (a record may carry them and stay a record).
CORPUS_RULES = ("unique-id", "import-incomplete", "accepted-conflictsWith")
TOOL_CALLS = [
    ("search_decisions", {"query": "a", "findingsLimit": 100, "limit": 100}),
    ("get_decision", {"ref": "0001", "findingsLimit": 100}),
    ("get_decision_context", {"files": ["src/db/pool.ts", "a" * 1024, "docs/adr/0001-x.md"], "findingsLimit": 100}),
    ("list_superseded", {"findingsLimit": 100}),
]


def is_corpus_rule(rule):
    return rule in CORPUS_RULES or rule.startswith("dangling-")


def output_validators():
    import jsonschema.validators
    return {name: jsonschema.validators.validator_for(schema)(schema)
            for name, schema in M.TOOL_OUTPUT_SCHEMAS.items()}


VALIDATORS = output_validators()


# ---------------------------------------------------------------------------
# Checking one repository
# ---------------------------------------------------------------------------

RECORD_NAME = re.compile(u"^[0-9]{4,}-[^\n\r\u2028\u2029]+\\.md$")


def candidates_of(repo):
    """Record-named regular files of the ADR folder (computed here, not by the reader)."""
    names = []
    for name in os.listdir(repo.adr_path()):
        full = repo.adr_path(name)
        if name != "0000-template.md" and RECORD_NAME.match(name) and os.path.isfile(full) \
                and not os.path.islink(full):
            names.append(repo.source_path(name))
    return set(names)


def check_repo(repo, calls=TOOL_CALLS):
    """The invariants of every repository; returns the projection."""
    projection = M.load_projection(repo.config)
    candidates = candidates_of(repo)
    records = [record.path for record in projection.records]
    record_paths = set(records)
    assert len(records) == len(record_paths) <= len(candidates)
    assert record_paths <= candidates, record_paths - candidates
    excluded = candidates - record_paths
    per_file = {}
    for finding in projection.findings:
        assert set(finding) >= {"rule", "severity", "message"}, finding
        path = finding.get("path")
        assert path in candidates, "a finding about a file that is not a candidate: %r" % (finding,)
        if not is_corpus_rule(finding["rule"]):
            per_file.setdefault(path, []).append(finding["rule"])
    assert set(per_file) == excluded, (
        "files that are neither records nor findings: %r; records with file findings: %r"
        % (sorted(excluded - set(per_file)), sorted(set(per_file) - excluded)))
    health = projection.health()
    assert health["recordCount"] + health["excludedCount"] == len(candidates)
    json.dumps(projection.findings, allow_nan=False)  # findings are plain JSON
    for tool, arguments in calls:
        result = M.call_tool(repo.config, tool, dict(arguments))
        COUNTS["calls"] += 1
        assert "isError" not in result, result
        structured = result["structuredContent"]
        errors = [error.message for error in VALIDATORS[tool].iter_errors(structured)]
        assert not errors, (tool, errors[:3])
        json.dumps(result, allow_nan=False)  # plain JSON: no NaN, no Python-only values
        if structured["result"]["outcome"] != "corpus-unavailable":
            assert structured["corpusHealth"]["recordCount"] == len(record_paths)
    COUNTS["corpora"] += 1
    COUNTS["files"] += len(candidates)
    COUNTS["records"] += len(record_paths)
    COUNTS["excluded"] += len(excluded)
    return projection


class Workspace(object):
    """Fresh repositories under one folder, removed as soon as they are checked."""

    def __init__(self, base):
        self.base = str(base)
        self.number = 0

    def repo(self, files):
        self.number += 1
        repo = support.Repo(os.path.join(self.base, "r%d" % self.number))
        for name, data in files.items():
            repo.write(name, data)
        return repo

    def check(self, files, calls=TOOL_CALLS):
        repo = self.repo(files)
        try:
            return check_repo(repo, calls)
        finally:
            shutil.rmtree(repo.root, ignore_errors=True)


@pytest.fixture
def workspace(tmp_path):
    return Workspace(tmp_path)


def outcome_of(projection, path):
    """'record', or the sorted per-file rules of an excluded file."""
    if any(record.path == path for record in projection.records):
        return "record"
    return sorted(f["rule"] for f in projection.findings if f.get("path") == path and not is_corpus_rule(f["rule"]))


# ---------------------------------------------------------------------------
# Every violation of the frontmatter schema, derived from the schema itself
# ---------------------------------------------------------------------------

STRING_SAMPLES = ["0001", "@alice", "team:core", "alice@example.com", "0.1.0", "database", "a-b",
                  "2025-01-01", "2025-01-01T00:00:00Z", "https://example.com/x", "text"]


def sample(schema):
    """A small valid instance of a schema node."""
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object":
        return {key: sample(schema["properties"][key]) for key in schema.get("required", [])}
    if kind == "array":
        return []
    if kind == "boolean":
        return True
    if kind in ("number", "integer"):
        return schema.get("minimum", 0)
    if kind == "string":
        if schema.get("format") == "date-time":
            return "2025-01-01T00:00:00Z"
        if schema.get("format") == "uri":
            return "https://example.com/x"
        for candidate in STRING_SAMPLES:
            if (not schema.get("pattern") or re.search(schema["pattern"], candidate)) and \
                    schema.get("minLength", 0) <= len(candidate) <= schema.get("maxLength", 10 ** 9):
                return candidate
        raise AssertionError("no sample for %r" % (schema,))
    raise AssertionError("no sample for %r" % (schema,))


WRONG_TYPE = {"string": 5, "array": "not-a-list", "object": ["not", "an", "object"], "boolean": "true",
              "number": "1", "integer": "1"}


def violations(schema, path=()):
    """(path, value-or-DELETE, label) for every way to break this node of the schema."""
    out = []
    kind = schema.get("type")
    label = "/".join(str(p) for p in path) or "(root)"
    if kind in WRONG_TYPE and path:
        out.append((path, WRONG_TYPE[kind], "%s: type" % label))
        out.append((path, None, "%s: null" % label))
    if "enum" in schema:
        out.append((path, "not-in-the-enum", "%s: enum" % label))
    if kind == "string":
        if schema.get("pattern"):
            out.append((path, "?? no pattern matches this", "%s: pattern" % label))
        if "minLength" in schema and schema["minLength"] > 0:
            out.append((path, "x" * (schema["minLength"] - 1), "%s: minLength" % label))
        if "maxLength" in schema:
            out.append((path, "\U0001F600" * (schema["maxLength"] // 2 + 1), "%s: maxLength (UTF-16)" % label))
        if schema.get("format") in ("date", "date-time"):
            out.append((path, "2025-02-30" if schema["format"] == "date" else "2025-02-30T00:00:00Z",
                        "%s: format" % label))
        if schema.get("format") == "uri":
            out.append((path, "not a uri", "%s: format" % label))
    if kind in ("number", "integer"):
        if "minimum" in schema:
            out.append((path, schema["minimum"] - 1, "%s: minimum" % label))
        if "maximum" in schema:
            out.append((path, schema["maximum"] + 0.5, "%s: maximum" % label))
    if kind == "array":
        item = schema.get("items", {})
        if schema.get("uniqueItems"):
            one = sample(item)
            out.append((path, [one, copy.deepcopy(one)], "%s: uniqueItems" % label))
        for sub_path, value, sub_label in violations(item, path + (0,)):
            out.append((sub_path, value, sub_label))
    if kind == "object":
        if schema.get("additionalProperties") is False:
            out.append((path + ("zzUnknownKey",), "x", "%s: additionalProperties" % label))
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            out += violations(extra, path + ("anyKey",))
        for key in schema.get("required", []):
            out.append((path + (key,), DELETE, "%s/%s: required" % (label, key)))
        for key, sub in sorted(schema.get("properties", {}).items()):
            out += violations(sub, path + (key,))
    return out


DELETE = object()
BASE_RECORD = {"id": "0001", "title": "A valid base record", "status": "draft", "date": "2025-01-01"}


def materialise(record, path, value):
    """A copy of record with the value at path (parents created with valid samples)."""
    record = copy.deepcopy(record)
    node, schema = record, SCHEMA
    for step in path[:-1]:
        if isinstance(step, int):
            schema = schema["items"]
            if not node:
                node.append(sample(schema))
            node = node[0]
        else:
            sub = schema.get("properties", {}).get(step) or schema.get("additionalProperties") or {}
            if step not in node:
                node[step] = sample(sub) if sub.get("type") != "array" else []
            node, schema = node[step], sub
    last = path[-1]
    if value is DELETE:
        node.pop(last, None)
    elif isinstance(last, int):
        if node:
            node[0] = value
        else:
            node.append(value)
    else:
        node[last] = value
    return record


def as_yaml_flow(record):
    return json.dumps(record, ensure_ascii=False)


def as_yaml_block(value, indent=0):
    """Block-style YAML with every string double-quoted (a JSON string is a valid YAML one)."""
    pad = " " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        lines = []
        for key, item in value.items():
            if isinstance(item, (dict, list)) and item:
                lines.append("%s%s:\n%s" % (pad, json.dumps(key), as_yaml_block(item, indent + 2)))
            else:
                lines.append("%s%s: %s" % (pad, json.dumps(key), as_yaml_block(item, 0)))
        return "\n".join(lines)
    if isinstance(value, list):
        if not value:
            return "[]"
        lines = []
        for item in value:
            if isinstance(item, (dict, list)) and item:
                lines.append("%s-\n%s" % (pad, as_yaml_block(item, indent + 2)))
            else:
                lines.append("%s- %s" % (pad, as_yaml_block(item, 0)))
        return "\n".join(lines)
    return json.dumps(value, ensure_ascii=False)


def record_file(record, block=True, body="Body.\n"):
    text = as_yaml_block(record) if block else as_yaml_flow(record)
    return "---\n%s\n---\n%s" % (text, body)


VIOLATIONS = violations(SCHEMA)


def test_the_schema_walk_covers_every_field():
    fields = {path[0] for path, _, _ in VIOLATIONS if path}
    assert fields >= set(SCHEMA["properties"]), set(SCHEMA["properties"]) - fields
    assert len(VIOLATIONS) > 150


def test_every_schema_violation_is_a_finding(workspace):
    """Each violation, in block and flow style, excludes its record and names it in a finding."""
    base = record_file(dict(BASE_RECORD, id="0002"))
    wrong = []
    for block in (True, False):
        for path, value, label in VIOLATIONS:
            broken = materialise(BASE_RECORD, path, value)
            repo = workspace.repo({"0001-broken.md": record_file(broken, block), "0002-fine.md": base})
            try:
                projection = check_repo(repo, calls=TOOL_CALLS[:1])
                outcome = outcome_of(projection, "docs/adr/0001-broken.md")
                if outcome == "record" or outcome_of(projection, "docs/adr/0002-fine.md") != "record":
                    wrong.append((label, block, outcome))
            finally:
                shutil.rmtree(repo.root, ignore_errors=True)
    assert not wrong, wrong[:20]


CROSS_FIELD_BREAKS = [
    dict(BASE_RECORD, status="superseded"),
    dict(BASE_RECORD, supersededBy="0002"),
    dict(BASE_RECORD, status="accepted"),
    dict(BASE_RECORD, status="accepted", deciders=["@alice"], provenance={"authoredBy": "agent"}),
    dict(BASE_RECORD, reversibility="one-way-door", review={"tier": "auto"}),
]


def test_cross_field_violations_are_findings(workspace):
    for record in CROSS_FIELD_BREAKS:
        projection = workspace.check({"0001-broken.md": record_file(record)})
        assert outcome_of(projection, "docs/adr/0001-broken.md") != "record", record


# ---------------------------------------------------------------------------
# Alias bombs: refused like the reference (a file-read finding), in bounded time and memory
# ---------------------------------------------------------------------------

def billion_laughs(levels=9, width=9):
    lines = ['id: "0001"', 'title: "Billion laughs"', "status: draft", 'date: "2025-01-01"',
             'l0: &l0 "lol"']
    for level in range(1, levels + 1):
        lines.append("l%d: &l%d [%s]" % (level, level, ", ".join(["*l%d" % (level - 1)] * width)))
    return "---\n" + "\n".join(lines) + "\n---\nbody\n"


def bomb_files():
    return {
        "billion-laughs": billion_laughs(),
        "billion-laughs-wide": billion_laughs(levels=4, width=60),
        "block-style": "---\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b\n" + "".join("  - *a\n" for _ in range(10))
                       + "c: &c\n" + "".join("  - *b\n" for _ in range(10)) + "d:\n" + "".join("  - *c\n" for _ in range(10))
                       + "---\n",
        "mapping-bomb": "---\na: &a {k: v, l: w}\nb: &b {" + ", ".join("k%d: *a" % i for i in range(20)) + "}\n"
                        "c: &c {" + ", ".join("k%d: *b" % i for i in range(20)) + "}\nd: [" + ", ".join(["*c"] * 20) + "]\n---\n",
        "merge-bomb": "---\na: &a {k: v}\nb: &b {<<: [" + ", ".join(["*a"] * 20) + "]}\nc: &c [" + ", ".join(["*b"] * 40) + "]\n"
                      "d: [" + ", ".join(["*c"] * 40) + "]\n---\n",
        "keys-bomb": "---\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                     "? [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n: v\n---\n",
        "many-aliases": "---\na: &a x\nb: [" + ", ".join(["*a"] * 5000) + "]\n---\n",
    }


@pytest.mark.parametrize("name", sorted(bomb_files()))
def test_alias_bombs_are_refused_in_bounded_time_and_memory(workspace, name):
    data = bomb_files()[name]
    assert len(data.encode("utf-8")) <= MAX_SOURCE
    tracemalloc.start()
    try:
        projection = support.hang_guard(lambda: workspace.check(
            {"0001-bomb.md": data, "0002-fine.md": record_file(dict(BASE_RECORD, id="0002"))},
            calls=TOOL_CALLS[:1]), 60, name)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 1024 * 1024, "%s peaked at %d MiB" % (name, peak // (1024 * 1024))
    outcome = outcome_of(projection, "docs/adr/0001-bomb.md")
    assert outcome != "record"
    bomb = [f for f in projection.findings if f.get("path") == "docs/adr/0001-bomb.md"]
    if name.endswith("bomb") or name.startswith("billion"):
        # The reference's yaml library throws "Excessive alias count" from toJS, which
        # @adrkit/core reports as a file-read finding.
        assert [f["rule"] for f in bomb] == ["file-read"], bomb
        assert "alias" in bomb[0]["message"].lower(), bomb


# ---------------------------------------------------------------------------
# Pathological globs: linear time against 1024-character paths, end to end
# ---------------------------------------------------------------------------

HOSTILE_PATTERNS = ["a*" * 12 + "b", "**/a*/**/a*/**/a*/**/b", "*/**/*/**/*/**/*/**/b", "+(+(a))b", "*(a|aa)*b",
                    "+(a)+(a)+(a)+(a)b", "@(a|a)*@(a|a)*@(a|a)*b", "{a,a}" * 20 + "b", "!(*a*a*a*a*b)",
                    "**/*a*a*a*a*a*b", "[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*b", "a" * 500 + "*" * 200 + "b",
                    "*(*(*(a)))b", "?" * 1000 + "*b"]

GLOB_RUNNER = support.with_cached_module(textwrap.dedent("""
    import json, sys, time
    m = cached_module("adrkit_mcp_glob_probe", sys.argv[1], CACHE)  # bytecode kept
    config = m.CorpusConfig(sys.argv[2], "docs/adr")
    assert m.check_roots(config) is None
    out = []
    for files in json.loads(sys.stdin.read()):
        start = time.perf_counter()
        result = m.call_tool(config, "get_decision_context", {"files": files, "findingsLimit": 100})
        out.append([time.perf_counter() - start, result["structuredContent"]])
    print(json.dumps(out))
"""))


def hostile_paths(length, count=32):
    """`count` distinct paths of `length` characters that almost match every hostile pattern."""
    shapes = ["a" * length, ("a/" * length)[:length], "a" * (length - 1) + "/", ("ab" * length)[:length - 1] + "c"]
    paths = []
    for index in range(count):
        path = shapes[index % len(shapes)]
        position = (index * 7) % (length - 1)
        paths.append(path[:position] + ("a" if path[position] != "a" else "c") + path[position + 1:]
                     if index >= len(shapes) else path)
    return paths


def test_pathological_globs_stay_linear(tmp_path, server_module):
    """14 hostile matchers against 32 paths of 128 and of 1024 characters, through call_tool.

    A backtracking matcher never finishes the long paths: the child is killed after
    120 s, a hang guard (the seconds are not measured: a busy machine cannot fail it).
    """
    repo = support.Repo(tmp_path / "globs")
    for number, pattern in enumerate(HOSTILE_PATTERNS, start=1):
        repo.record("%04d-hostile.md" % number, status="accepted",
                    extra='deciders: ["@alice"]\naffects:\n  - {type: path, pattern: %s}\n' % json.dumps(pattern))
    batches = [hostile_paths(128), hostile_paths(1024)]
    assert all(len(path) == 1024 for path in batches[1])
    completed = subprocess.run([sys.executable, "-c", GLOB_RUNNER, server_module, repo.root],
                               input=json.dumps(batches), capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr[-3000:]
    _, (_, structured) = json.loads(completed.stdout)
    assert structured["result"]["outcome"] == "matches"
    assert structured["corpusHealth"]["recordCount"] == len(HOSTILE_PATTERNS)
    fired = {entry["firedMatchers"][0]["pattern"] for entry in structured["result"]["governing"]}
    assert fired == {"!(*a*a*a*a*b)"}, fired  # no path holds a "b": only the negated extglob matches


# ---------------------------------------------------------------------------
# Random repositories
# ---------------------------------------------------------------------------

KEYS = sorted(SCHEMA["properties"]) + ["<<", "zz", "", "id ", "ID", "0", "? complex"]
YAML_VALUES = [
    '"0001"', "0001", "1e3", "0x1F", "0o17", "true", "yes", "~", "null", "2025-01-01", "'single'", '"\\u2028"',
    '"\\ud800"', '"\\0"', "|\n  block\n  text", ">-\n  folded\n  text", "!!str 12", "!!binary aGVsbG8=",
    "!!timestamp 2025-01-01", "!!timestamp nope", "&anc value", "*anc", "*missing", "[a, b, [c]]", "{a: 1, b: [2]}",
    "- x", ":", "!custom x", "!!set {a, b}", "!!omap [a: 1]", ".inf", ".nan", "-.inf", "123456789012345678901234567890",
    "1_000", "0b101", "@alice", "`tick", "%percent", "[unclosed", "{unclosed", '"unclosed', "a: b: c", "\t- tab",
    "!!int x", "!!float 1", "!!map [a]", "!!seq {a: 1}", "<<: *anc", "- &a [*a]", "\u2028", "\x00", "\ufeff",
    "'it''s'", '"\\x41\\U0001F600"', "? [a, b]\n: c", "&a [*a]",
]
LINE_DECOR = ["", "", "", "  ", "\t", "    ", "# comment ", "- "]


def dice(low, high):
    """A fair roll in [low, high], for the branch choices and small counts below, which are
    shares: st.integers gives most of its draws to the ends of the range and small values."""
    return st.sampled_from(range(low, high + 1))


# The strategies are built once, here, not inside the draws.
DIRECTIVES = st.sampled_from(["%YAML 1.1", "%YAML 1.2", "%TAG ! tag:x,2024:", "%YAML 2.0", "---", "..."])
FRONTMATTER_KEYS = st.one_of(st.sampled_from(KEYS), st.text(max_size=6))
FRONTMATTER_VALUES = st.one_of(st.sampled_from(YAML_VALUES), st.text(max_size=12))
ANCHORS = st.sampled_from(["", "", "", "&anc ", "&x "])


@st.composite
def random_frontmatter(draw):
    lines = []
    if draw(dice(0, 9)) == 0:
        lines.append(draw(DIRECTIVES))
    for _ in range(draw(dice(0, 8))):
        decor = draw(st.sampled_from(LINE_DECOR))
        key = draw(FRONTMATTER_KEYS)
        value = draw(FRONTMATTER_VALUES)
        anchor = draw(ANCHORS)
        lines.append("%s%s: %s%s" % (decor, key, anchor, value))
    return "\n".join(lines)


record_ids = st.one_of(st.sampled_from(["0001", "0002", "0003", "00042", "01ARZ3NDEKTSV4RRFFQ69G5FAV"]),
                       st.text("0123456789", min_size=4, max_size=6), st.text(max_size=5))
titles = st.one_of(st.text(min_size=3, max_size=40), st.sampled_from(["abc", "x" * 120, "x" * 121, "\U0001F600" * 60,
                                                                        "a\u2028b\u2029c", "nul\x00inside"]))
refs = st.sampled_from(["0001", "0002", "0003", "0099", "core:0001", "01ARZ3NDEKTSV4RRFFQ69G5FAV"])
GLOBS = ["src/**", "**/*.ts", "a*a*a*a*b", "!(x)", "[", "/abs", "**", "", "src/{a,b}/*", "+(a|b)", "*(a"]
STATUSES = st.sampled_from(["draft", "proposed", "accepted", "rejected", "superseded", "deprecated"])
DATES = st.sampled_from(["2025-01-01", "2024-02-29", "2023-02-29", "2025-13-01"])
DECIDERS = st.lists(st.sampled_from(["@alice", "team:core", "bob@example.com", "nobody"]), max_size=3)
TAGS = st.lists(st.sampled_from(["database", "db", "ui", "Bad Tag", "database"]), max_size=3)
REF_LISTS = st.lists(refs, max_size=3)
AFFECT_TYPES = st.sampled_from(["path", "package", "entity", "api", "data", "resource"])
AFFECT_PATTERNS = st.one_of(st.sampled_from(GLOBS), st.text(max_size=10))
SOME_VIOLATION = st.sampled_from(VIOLATIONS)


@st.composite
def valid_ish_records(draw):
    """Mostly valid records: every field type right, values drawn near their edges."""
    status = draw(STATUSES)
    record = {"id": draw(record_ids), "title": draw(titles), "status": status,
              "date": draw(DATES)}
    if status == "accepted" or draw(st.booleans()):
        record["deciders"] = draw(DECIDERS)
    if status == "superseded" or draw(dice(0, 5)) == 0:
        record["supersededBy"] = draw(refs)
    if draw(st.booleans()):
        record["tags"] = draw(TAGS)
    for field in ("supersedes", "relatesTo", "conflictsWith"):
        if draw(dice(0, 3)) == 0:
            record[field] = draw(REF_LISTS)
    if draw(dice(0, 2)) == 0:
        record["affects"] = [{"type": draw(AFFECT_TYPES), "pattern": draw(AFFECT_PATTERNS)}
                             for _ in range(draw(dice(1, 3)))]
    if draw(dice(0, 4)) == 0:
        path, value, _ = draw(SOME_VIOLATION)
        record = materialise(record, path, value)
    return record


bodies = st.one_of(st.just("Body.\n"), st.text(max_size=80),
                   st.sampled_from(["", "---\n", "body with ---\n---\nmore", "\u2028\u2029", "\x00" * 3,
                                    "postgres " * 50, "# Title\r\n\r\nText\r\n"]))
BOMBS = st.sampled_from(list(bomb_files().values()))
SIZES = st.sampled_from([MAX_SOURCE - 1, MAX_SOURCE, MAX_SOURCE + 1])
DEPTHS = st.sampled_from([10, 799, 801, 2000])
FENCES = st.sampled_from(["", "---", "---\n", "---\r\n---\r\n", "--- \n---\n", "----\n---\n",
                          "\n---\nid: x\n---\n", "---\nid: \"0001\"\n", "---\nid: \"0001\"\n--", "---\r---\r"])
MARKS = st.sampled_from([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\x00"])
VALID_ISH_RECORDS = valid_ish_records()
RANDOM_FRONTMATTER = random_frontmatter()


@st.composite
def file_bytes(draw):
    kind = draw(dice(0, 19))
    if kind < 8:
        text = record_file(draw(VALID_ISH_RECORDS), block=draw(st.booleans()), body=draw(bodies))
    elif kind < 13:
        text = "---\n%s\n---\n%s" % (draw(RANDOM_FRONTMATTER), draw(bodies))
    elif kind < 14:
        return draw(st.binary(max_size=200))
    elif kind < 15:
        text = record_text(draw(record_ids), title=draw(titles), body=draw(bodies))
    elif kind < 16:
        text = draw(BOMBS)
    elif kind < 17:
        size = draw(SIZES)
        head = record_text("0001")
        text = head + "x" * (size - len(head.encode("utf-8")))
    elif kind < 18:
        depth = draw(DEPTHS)
        text = "---\n" + "[" * depth + "]" * draw(st.sampled_from([0, depth])) + "\n---\n"
    else:
        text = draw(FENCES)
    data = text.encode("utf-8", "surrogatepass")
    # Transformations: CRLF, a BOM, truncation, a flipped byte.
    if draw(dice(0, 5)) == 0:
        data = data.replace(b"\n", b"\r\n")
    if draw(dice(0, 7)) == 0:
        data = draw(MARKS) + data
    if data and draw(dice(0, 7)) == 0:
        data = data[:draw(st.integers(0, len(data)))]
    if data and draw(dice(0, 9)) == 0:
        position = draw(st.integers(0, len(data) - 1))
        data = data[:position] + bytes([data[position] ^ 0x80]) + data[position + 1:]
    return data


DECOYS = {"README.md": b"---\nid: \"0009\"\n---\n", "0000-template.md": record_text("0000").encode(),
          "notes.txt": b"x", ".0001-hidden.md": b"", "0001-not-a-record.markdown": b"x"}


NAMES = st.sampled_from(["a", "b-c", "caf\u00e9", "x y"])
DECOY_NAMES = st.sampled_from(sorted(DECOYS))
FILE_BYTES = file_bytes()


@st.composite
def corpora(draw):
    files = {}
    for index in range(draw(dice(1, 6))):
        name = "%04d-%s.md" % (draw(dice(1, 4)) + index * 10, draw(NAMES))
        files[name] = draw(FILE_BYTES)
    if draw(dice(0, 4)) == 0:
        decoy = draw(DECOY_NAMES)
        files[decoy] = DECOYS[decoy]
    return files


def test_fuzz_corpora(workspace):
    before = COUNTS["corpora"]
    # Each example is one repository's files (a failure shows them, cut to 1,500 characters).
    checked = st.check_each(corpora(), CORPORA, "fuzz-corpora/corpora", workspace.check, input_limit=1500)
    tried = COUNTS["corpora"] - before
    print("\ncorpora fuzz: %d repositories, totals %r" % (tried, COUNTS))
    assert tried == checked
    assert st.replaying() or tried >= CORPORA


# ---------------------------------------------------------------------------
# A 10,000-record corpus (generated once)
# ---------------------------------------------------------------------------

BIG = 10000


@pytest.fixture(scope="session")
def big_repo(tmp_path_factory):
    repo = support.Repo(tmp_path_factory.mktemp("big") / "repo")
    for number in range(1, BIG + 1):
        extra = 'supersededBy: "%04d"\n' % (number + 1) if number % 100 == 0 else ""
        repo.write("%05d-record.md" % number, record_text(
            "%05d" % number, title="Record %d" % number, status="superseded" if extra else "proposed",
            extra=extra, body="Body %d mentions postgres.\n" % number))
    repo.write("10001-broken.md", "no fence\n")
    return repo


def test_ten_thousand_records(big_repo):
    projection = support.hang_guard(lambda: check_repo(big_repo, calls=[
        ("search_decisions", {"query": "postgres", "limit": 100}),
        ("get_decision", {"ref": "05000"}),
        ("list_superseded", {"limit": 100}),
        ("get_decision_context", {"files": ["src/x.ts"] * 256}),
    ]), 300, "ten thousand records")
    assert projection.health()["recordCount"] == BIG
    assert projection.health()["excludedCount"] == 1
    page = M.call_tool(big_repo.config, "search_decisions", {"query": "postgres", "limit": 100})
    assert page["structuredContent"]["result"]["cursor"] is not None


# ---------------------------------------------------------------------------
# A handful of repositories through the real server process
# ---------------------------------------------------------------------------

HANDFUL = {
    "bombs": {"0001-%s.md" % name: data for name, data in bomb_files().items()},
    "bytes-and-boms": {"0001-bytes.md": bytes(range(256)), "0002-bom.md": b"\xef\xbb\xbf" + record_text("0002").encode(),
                       "0003-crlf.md": record_text("0003", newline="\r\n").encode(), "0004-fine.md": record_text("0004")},
    "fences": {"0001-a.md": "---\nid: \"0001\"\n", "0002-b.md": "", "0003-c.md": "--- \n---\n", "0004-d.md": "---\r---\r"},
    "violations": {"%04d-v.md" % (i + 1): record_file(materialise(BASE_RECORD, p, v)) for i, (p, v, _) in
                   enumerate(VIOLATIONS[:40])},
    "oversize": {"0001-big.md": record_text("0001") + "x" * MAX_SOURCE, "0002-u2028.md": record_text(
        "0002", title="line\u2028separator", body="\u2028\u2029\x00")},
}


@pytest.mark.parametrize("name", sorted(HANDFUL))
def test_corpora_through_the_real_process(tmp_path, server_command, name):
    repo = support.Repo(tmp_path / "repo")
    for file_name, data in HANDFUL[name].items():
        repo.write(file_name, data)
    expected = check_repo(repo)
    session = wire.Session(server_command, ["--cwd", repo.root])
    try:
        session.initialize()
        for number, (tool, arguments) in enumerate(TOOL_CALLS, start=1):
            frame = session.call(number, "tools/call", {"name": tool, "arguments": arguments})
            health = frame["result"]["structuredContent"]["corpusHealth"]
            assert health == expected.health(), (tool, health)
        frame = session.call(9, "tools/call", {"name": "list_superseded", "arguments": {}}, modern=True)
        assert frame["result"]["structuredContent"]["corpusHealth"] == expected.health()
        status, _ = session.close()
        assert status == 0
        assert "Traceback" not in session.stderr()
    finally:
        session.kill()
