"""Differential tests for the line-based YAML fast path (_yaml_fast_load).

The fast path must either decline (raise _YamlFastDecline) or return exactly
what the full pure-Python path returns: same types (int/float/bool/None),
same key order, NaN and -0.0 kept apart.  It is checked on every vector
source, every frontmatter block of the conformance corpora and docs/adr,
every record of a generated bench corpus, and on thousands of generated
and mutated documents.  It must also accept the typical frontmatter shapes,
or it would not help.

The generated documents come from the seeded generators of tests/_seeded.py,
one fixed seed per test: every run of a test draws the same 2,000 documents,
in any order and under xdist.  A failure names the seed, the example's index
and the document, and the command that runs that example alone
($ADRKIT_FUZZ_INDEX, _seeded.check_each).
"""

import json
import math
import pathlib
import random
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import adrkit_mcp as m  # noqa: E402
import _seeded as seeded  # noqa: E402

def FAST(source):
    """The line-based fast path alone; LookupError where it declines."""
    return m.FrontmatterYaml.load(source, "fast")


def FULL(source):
    return m.FrontmatterYaml.load(source, "full")


DECLINE = LookupError


# -- comparison -------------------------------------------------------------


def identical(a, b):
    """Strict structural equality: exact types, key order, NaN, -0.0."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        if math.isnan(a):
            return math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, dict):
        return list(a) == list(b) and all(identical(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(identical(x, y) for x, y in zip(a, b))
    return a == b


def check(source):
    """None if the fast path declines or agrees; else a description.

    Returns "accepted" / "declined" on agreement so callers can count.
    """
    try:
        fast = FAST(source)
    except DECLINE:
        return "declined"
    try:
        full = FULL(source)
    except m.FrontmatterYaml.Error as error:
        raise AssertionError("fast path accepted %r, full path fails %s/%s" % (source, error.stage, error.code))
    assert identical(fast, full), "%r: fast %r != full %r" % (source, fast, full)
    return "accepted"


# -- sources ----------------------------------------------------------------


def vector_sources():
    data = json.loads((ROOT / "tests" / "data" / "vectors" / "yaml.json").read_text(encoding="utf-8"))
    return [case["source"] for group in data["groups"] for case in group["cases"]]


def frontmatter_blocks(paths):
    blocks = []
    for path in paths:
        if not path.is_file():
            continue
        source = path.read_bytes().decode("utf-8", "replace")
        try:
            blocks.append(m.split_frontmatter(source)[0])
        except m.FenceError:
            pass
    return blocks


def conformance_blocks():
    return frontmatter_blocks(sorted((ROOT / "tests" / "conformance" / "corpora").rglob("*.md")))


def docs_adr_blocks():
    return frontmatter_blocks(sorted((ROOT / "docs" / "adr").glob("*.md")))


def bench_blocks():
    import bench

    files = bench.generate_corpus(1000, 1729)  # [(relative path, bytes)]
    return [m.split_frontmatter(data.decode("utf-8"))[0] for _, data in files]


def run_all(sources):
    outcomes = [check(source) for source in sources]
    return outcomes.count("accepted"), len(outcomes)


# -- corpora ----------------------------------------------------------------


def test_vectors_agree():
    accepted, total = run_all(vector_sources())
    assert total >= 500
    assert accepted >= 150  # the vectors are mostly edge cases; many are simple


def test_conformance_corpora_agree():
    accepted, total = run_all(conformance_blocks())
    assert total >= 400
    assert accepted / total >= 0.9, (accepted, total)


def test_docs_adr_agree_and_accepted():
    accepted, total = run_all(docs_adr_blocks())
    assert total >= 1
    assert accepted / total >= 0.9, (accepted, total)


def test_bench_corpus_agrees_and_accepted():
    accepted, total = run_all(bench_blocks())
    assert total == 1000
    assert accepted / total >= 0.9, (accepted, total)


TYPICAL = """\
id: "0007"
title: Adopt Postgres for the index
status: accepted
date: 2026-01-15
deciders: ["@alice", team:platform]
tags: [database, storage]
supersedes:
  - "0003"
affects:
  - type: path
    pattern: "src/db/**"
  - type: package
    pattern: pg@^8
review:
  tier: async
  quorum: 2
"""


def test_typical_form_is_accepted():
    assert FAST(TYPICAL) == {
        "id": "0007",
        "title": "Adopt Postgres for the index",
        "status": "accepted",
        "date": "2026-01-15",
        "deciders": ["@alice", "team:platform"],
        "tags": ["database", "storage"],
        "supersedes": ["0003"],
        "affects": [{"type": "path", "pattern": "src/db/**"}, {"type": "package", "pattern": "pg@^8"}],
        "review": {"tier": "async", "quorum": 2},
    }
    assert check(TYPICAL) == "accepted"


def test_public_loader_uses_the_fast_path():
    """Typical frontmatter never needs the full path: the fast path alone reads it."""
    assert m.FrontmatterYaml.load(TYPICAL, "fast")["review"] == {"tier": "async", "quorum": 2}
    for source in docs_adr_blocks():
        m.FrontmatterYaml.load(source, "fast")


# -- hand-picked edges --------------------------------------------------------

EDGES = [
    "a:\n- x\nb: 1\n",
    "a:\n  - x\n  -  y\nb:\n",
    "s:\n- a:\n  - x\n  b: 1\n- c: 2\n",
    "s:\n  -   a: 1\n      b: 2\n",
    "s:\n  - a: 1\n   b: 2\n",
    "s:\n  - a: 1\n     b: 2\n",
    "s:\n- a:\n- x\n",
    "a:\n  b: 1\n# c\n  c: 2\n",
    "a:\n  b: 1\n    # c\n  c: 2\n",
    "a:\n  b: 1\n c: 2\n",
    "a:\n    b: 1\n  c: 2\n",
    "a: 1\n  b: 2\n",
    "a: x\n  y\n",
    "a:\n  - x\n    y\n",
    "k: a,b\nj: it's\nl: a#b\n",
    "k: [a, b,]\n", "k: [a, , b]\n", "k: [,]\n", "k: []\n", "k: [ ]  # c\n", "k: []x\n",
    "k: [a]#c\n", "k: [a] #c\n", "k: [a #c]\n", "k: [a:]\n", "k: [a: b]\n", "k: [a:b]\n",
    "k: [http://x]\n", "k: [-a, -1, .5, ~, null, 0x1F, 0o17, 1e3]\n", "k: [-]\n", "k: [- a]\n",
    "k: [\"a\":b]\n", "k: ['a''b', \"c'\"]\n", "k: [a, [b]]\n", "k: [a, {b: c}]\n",
    "k: x  \n", "k: x # c\n", "k: x# c\n", "k: \"x\"# c\n", "k: \"x\" # c\n", "k: 'x'#c\n", "k: 'x'  # c\n",
    "k: # c\n", "k: # c\n  a: 1\n", "k: #c\n  - 1\n",
    "k: -\n", "k: - a\n", "k: -a\n", "k: --a\n", "k: -.5\n", "k: -.inf\n", "k: -0\n", "k: +0\n",
    "k: ---\n", "k: ...\n", "---\nk: v\n", "k: v\n---\n", "k: v\n...\n", "%YAML 1.2\n---\nk: v\n",
    "k: ?x\n", "k: :x\n", "k: a:\n", "k: a: b\n", "k: a :\n", "k: a:b\n", "k: 1:2\n",
    "k: a]b\n", "k: {a: b}\n", "k: &a x\n", "k: *a\n", "k: !x y\n", "k: |\n  x\n", "k: >\n  x\n",
    "k: @x\n", "k: `x\n", "k: %x\n", "k: a%b\n", "k: a@b\n",
    "k: \"a\\tb\"\n", "k: \"a\\\"b\"\n", "k: 'a\\tb'\n", "k: \"a\n", "k: 'a\n", "k: \"a\" b\n",
    "k: 'it''s'\n", "k: ''\n", "k: \"\"\n", "k: ''''\n",
    "k: 0042\nn: ~\nf: .inf\nd: 2026-01-15\ny: yes\nz: -0\no: 0o17\nh: 0xFF\ne: 1e400\n",
    "k: .NaN\nl: .nan\nm: 1.50\nn: 1.\no: 1.0\np: 12345678901234567890\nq: 1_000\n",
    "k: true\nl: True\nm: TRUE\nn: tRUE\no: Null\np: NULL\nq: nULL\n",
    "null: 1\n", "true: 1\n", "True: x\n", "Null: x\n", "nulls: x\n", "truey: x\n",
    "1: a\nb: 2\n", "b: 1\n0: a\n", "__proto__: x\n", "constructor: 1\n", "a.b: 1\n", "a-b: 1\n", "_: 1\n",
    "a b: 1\n", "a : 1\n", "a:1\n", "\"a\": 1\n", "'a': 1\n", "? a\n: 1\n", ": a\n",
    "a: 1\na: 2\n", "a:\n  b: 1\n  b: 2\n", "s:\n  - a: 1\n    a: 2\n", "a: 1\nb:\n  a: 2\n",
    "a: 1\r\n", "a: 1\rb: 2\n", "a:\t1\n", "a:\n\tb: 1\n", "\ufeffa: 1\n", "a: \ufeff\n",
    "a: x\xa0\n", "a: \"x\xa0y\"\n", "a: x\x85y\n", "a: x\u2028y\n", "a: \u00e9\U0001F4B8\n",
    "a: \"\U0001F4B8\"\n", "a: \ufdd0\n", "a: \x7f\n", "a: \x01\n",
    "", "\n", "# only\n", "- a\n- b\n", "a\n", "[a]\n", "  a: 1\n  b: 2\n", "a: 1\n\n\n   \nb: 2\n",
    "a: 1", "a:", "a:\n  -\n", "a:\n  - - x\n", "a:\n  - a: 1\n  - - x\n",
    "k: " + "x" * 5000 + "\n", "k" * 1020 + ": v\n", "k" * 1030 + ": v\n", "s:\n- " + "k" * 1030 + ": v\n",
    "a:\n" + "".join(" " * i + "k:\n" for i in range(1, 60)),
]


@pytest.mark.parametrize("source", EDGES, ids=range(len(EDGES)))
def test_edges(source):
    check(source)


# -- generated and mutated documents ------------------------------------------

# Mostly keys and values of the accepted subset (so that acceptance is
# exercised in depth), plus a share of near misses and hostile text.
GOOD_KEYS = [
    "id", "title", "status", "date", "tags", "deciders", "affects", "type", "pattern", "review",
    "tier", "quorum", "a", "b", "c", "x_y", "a.b", "a-b", "_", "on", "yes", "y", "nulls", "truthy",
    "__proto__", "toString", "hasOwnProperty",
]
ODD_KEYS = [
    "null", "true", "True", "Null", "NULL", "false", "1", "01", "0x1", "4294967294", "4294967295",
    "-1", "a b", "a:b", "k#", "\u00e9", ".inf", "~",
]
GOOD_ATOMS = [
    "0042", "42", "-1", "+1", "-0", "0", "0.0", "-0.0", "1.50", "1.", ".5", "1e3", "1E-3", "1e400",
    "0x1F", "0xg", "0o17", "0o8", "017", ".inf", "-.Inf", "+.INF", ".nan", ".NaN", "~", "null", "Null",
    "NULL", "nULL", "true", "False", "TRUE", "yes", "no", "on", "off", "y", "n", "2026-01-15",
    "2026-01-15T10:00:00Z", "12:30", "1_000", "accepted", "draft", "@alice", "team:platform",
    "pg@^8", "src/db/**", "it's", "a,b", "a#b", "-a", "...", "caf\u00e9", "\U0001F4B8",
    "Adopt Postgres for the index", "Use X, not Y", "ENG-1234", "https://x.example/a?b=c", "",
]
ODD_ATOMS = [
    "**/*.{ts,tsx}", "a #b", "a: b", "a:", ":a", "?a", "--a", "-", "- a", "a]", "[a", "{a}", "&a",
    "*a", "!a", "|", ">", "%a", "`a", "'", '"', "a\\tb", "\\", "x\xa0y", "x\u2028y", "x\ty",
    "x\ry", "---", "https://x.example/a?b=c#d",
]
SAFE_ALPHABET = "abcXYZ019 -.:#,'_+/^()@~\u00e9"
ALPHABET = SAFE_ALPHABET + "\"\\[]{}&*!|>%`?\U0001F4B8\xa0\t\r\x85\u2028\ufeff\ufdd0"



def weighted(good, odd, weight):
    """An element of good (weight times as likely per element) or odd."""
    return seeded.sampled_from(good * weight + odd)


keys = weighted(GOOD_KEYS, ODD_KEYS, 12)
text_atoms = seeded.one_of(
    weighted(GOOD_ATOMS, ODD_ATOMS, 5),
    weighted(GOOD_ATOMS, ODD_ATOMS, 5),
    seeded.text(alphabet=SAFE_ALPHABET, max_size=8),
    seeded.text(alphabet=ALPHABET, max_size=6),
)
tree = seeded.recursive(
    text_atoms,
    lambda children: seeded.one_of(
        seeded.lists(children, max_size=3),
        # Mostly distinct keys: a duplicate anywhere makes the whole document decline.
        seeded.lists(seeded.tuples(keys, children), max_size=3, unique_by=lambda pair: pair[0]),
    ),
    max_leaves=8,
)
# A document's top-level pairs, and the random stream its rendering (and mutation) draws from.
documents = seeded.tuples(
    seeded.lists(seeded.tuples(keys, tree), min_size=1, max_size=6, unique_by=lambda pair: pair[0]),
    seeded.randoms(),
)


def render_scalar(text, rnd):
    style = rnd.random()
    if style < 0.55:
        return text
    if style < 0.8:
        return '"%s"' % text
    if style < 0.9:
        return "'%s'" % text.replace("'", "''")
    return "'%s'" % text


def render_flow(items, rnd):
    sep = rnd.choice([", ", ",", " , ", ",  "])
    return "[" + rnd.choice(["", " "]) + sep.join(render_scalar(i, rnd) for i in items) + rnd.choice(["", " "]) + "]"


def render_value(value, indent, rnd, out, head):
    """Append lines for `value`, the first one starting with `head`."""
    step = rnd.choice([2, 2, 2, 4, 1, 3])
    if isinstance(value, str):
        out.append(head + rnd.choice([" ", " ", "  "]) + render_scalar(value, rnd) + rnd.choice(["", "", "  ", " # c"]))
        return
    if isinstance(value, list) and value and isinstance(value[0], tuple):
        out.append(head)
        render_map(value, indent + step, rnd, out)
        return
    if isinstance(value, list) and (not value or all(isinstance(v, str) for v in value)) and rnd.random() < 0.5:
        out.append(head + " " + render_flow(value, rnd))
        return
    if not value:
        out.append(head + rnd.choice(["", " []", " {}"]))
        return
    out.append(head)
    column = indent if rnd.random() < 0.25 else indent + step
    render_seq(value, column, rnd, out)


def render_map(pairs, indent, rnd, out, first_prefix=None):
    for n, (key, value) in enumerate(pairs):
        prefix = first_prefix if (n == 0 and first_prefix is not None) else " " * indent
        render_value(value, indent, rnd, out, prefix + key + ":")


def render_seq(items, indent, rnd, out):
    for item in items:
        dash = " " * indent + "-" + rnd.choice([" ", " ", " ", "  ", "   "])
        if isinstance(item, list) and item and isinstance(item[0], tuple):
            render_map(item, indent + len(dash) - indent, rnd, out, first_prefix=dash)
        elif isinstance(item, str):
            out.append(dash + render_scalar(item, rnd) + rnd.choice(["", "", " # c"]))
        elif isinstance(item, list) and all(isinstance(v, str) for v in item):
            out.append(dash + render_flow(item, rnd))
        else:
            out.append(dash + "x")


def render(pairs, rnd):
    out = []
    render_map(pairs, 0, rnd, out)
    if rnd.random() < 0.2:
        out.insert(rnd.randrange(len(out) + 1), rnd.choice(["# comment", "  # indented", "", "   ", "#"]))
    return "\n".join(out) + ("\n" if rnd.random() < 0.95 else "")


MUTATION_CHARS = list("-:#,'\"\\[]{}&*!|>%@`? \t\r\n") + ["\xa0", "\ufeff", "\u2028", "\x85", "---\n", "...\n", " #c"]


def mutate(source, rnd):
    lines = source.split("\n")
    for _ in range(rnd.randint(1, 3)):
        kind = rnd.randrange(8)
        i = rnd.randrange(len(lines))
        line = lines[i]
        if kind == 0:  # insert a special character
            pos = rnd.randint(0, len(line))
            lines[i] = line[:pos] + rnd.choice(MUTATION_CHARS) + line[pos:]
        elif kind == 1 and line:  # delete a character
            pos = rnd.randrange(len(line))
            lines[i] = line[:pos] + line[pos + 1:]
        elif kind == 2:  # duplicate a line (duplicate keys, repeated items)
            lines.insert(i, line)
        elif kind == 3:  # shift indentation
            lines[i] = " " * rnd.randint(1, 3) + line if rnd.random() < 0.5 else line[rnd.randint(1, 3):] if line.startswith(" ") else line
        elif kind == 4:  # comment or blank line
            lines.insert(i, rnd.choice(["#x", " # x", "", "  ", "    #"]))
        elif kind == 5:  # trailing comment or spaces
            lines[i] = line + rnd.choice([" # x", "#x", "  ", " "])
        elif kind == 6 and i + 1 < len(lines):  # swap lines
            lines[i], lines[i + 1] = lines[i + 1], line
        elif kind == 7:  # glue or split a key from its value
            lines[i] = line.replace(": ", ":", 1) if rnd.random() < 0.5 else line.replace(":", " :", 1)
    return "\n".join(lines)


# The sources the two tests check: a drawn document rendered, and rendered then mutated (with
# the same random stream).  Each example is the source itself, so a failure shows it.
rendered = documents.map(lambda document: render(*document))
mutated = documents.map(lambda document: mutate(render(*document), document[1]))


def test_generated_documents():
    counts = {"accepted": 0, "declined": 0}

    def run(source):
        counts[check(source)] += 1

    seeded.check_each(rendered, 2000, "yaml-fast-path/generated-documents", run)
    print("fast path outcomes:", counts)
    if seeded.replaying():
        return
    assert sum(counts.values()) >= 1900
    # The generator is built to exercise acceptance, not only declines.
    assert counts["accepted"] >= 0.2 * sum(counts.values()), counts


def test_mutated_documents():
    counts = {"accepted": 0, "declined": 0}

    def run(source):
        counts[check(source)] += 1

    seeded.check_each(mutated, 2000, "yaml-fast-path/mutated-documents", run)
    print("fast path outcomes:", counts)
    if seeded.replaying():
        return
    assert sum(counts.values()) >= 1900
    assert counts["accepted"] >= 0.05 * sum(counts.values()), counts


def test_mutated_real_records():
    """Mutations of realistic records: near misses of the accepted subset."""
    sources = bench_blocks()[:200] + docs_adr_blocks() + [TYPICAL]
    rnd = random.Random(20260115)
    counts = {"accepted": 0, "declined": 0}
    for n in range(3000):
        counts[check(mutate(sources[n % len(sources)], rnd))] += 1
    print("fast path outcomes:", counts)
    assert counts["accepted"] >= 300, counts
