"""Conformance of the package-pattern parser with node-semver 7.8.5.

The vectors (tests/data/vectors/semver-range.json) were produced by running the
reference's parsePackagePattern and semver 7.8.5's validRange / satisfies.  The
server only decides whether a range is valid (package matchers are inert), so
the `satisfies` probes of the vectors are not checked: nothing runs satisfies.
"""
import json
import pathlib

import pytest

import _support as support  # tests/ is on sys.path (pytest rootdir insertion)

import adrkit_mcp
from adrkit_mcp import JS, parse_package_pattern

# The door, parse_package_pattern, returns the range as written; the
# normalisation validRange computes on the way is only visible behind it.
semver_valid_range = adrkit_mcp._semver_valid_range

VECTORS_PATH = pathlib.Path(__file__).resolve().parent / "data" / "vectors" / "semver-range.json"
DATA = json.loads(VECTORS_PATH.read_text(encoding="utf-8"))
CASES = [(group["id"], case) for group in DATA["groups"] for case in group["cases"]]
CASE_IDS = ["%s-%d" % (group_id, index) for index, (group_id, _) in enumerate(CASES)]
RANGED_CASES = [(case_id, case) for case_id, (_, case) in zip(CASE_IDS, CASES) if "normalized" in case]


def test_vector_file_is_complete():
    assert DATA["library"] == {"name": "semver", "version": "7.8.5"}
    assert len(CASES) == DATA["caseCount"]


@pytest.mark.parametrize("case", [case for _, case in CASES], ids=CASE_IDS)
def test_parse_package_pattern(case):
    assert parse_package_pattern(case["pattern"]) == case["parsed"]


@pytest.mark.parametrize(
    "case", [case for _, case in RANGED_CASES], ids=[case_id for case_id, _ in RANGED_CASES])
def test_valid_range_normalisation(case):
    assert semver_valid_range(case["parsed"]["range"]) == case["normalized"]


# --- js_trim: the exact ECMAScript whitespace set ---------------------------

JS_TRIMMED = (
    ["\t", "\n", "\x0b", "\x0c", "\r", " ", "\xa0", "\u1680"]
    + [chr(code) for code in range(0x2000, 0x200B)]
    + ["\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff"]
)
# Characters Python's str.strip() or str.isspace() treat differently, and
# near neighbours of the set, none of which JS trims.
JS_KEPT = (
    [chr(code) for code in range(0x1C, 0x20)]
    + ["\x85", "\u180e", "\u200b", "\u200c", "\u200d", "\u2060", "\x00", "\x08", "\x0e", "\u1fff", "\u202e"]
)


@pytest.mark.parametrize("char", JS_TRIMMED, ids=["U+%04X" % ord(c) for c in JS_TRIMMED])
def test_js_trim_removes(char):
    assert JS.trim(char) == ""
    assert JS.trim(char + "a" + char) == "a"
    assert JS.trim(char * 3 + "a b" + char * 2) == "a b"
    # Only the ends are trimmed.
    assert JS.trim("a" + char + "b") == "a" + char + "b"


@pytest.mark.parametrize("char", JS_KEPT, ids=["U+%04X" % ord(c) for c in JS_KEPT])
def test_js_trim_keeps(char):
    assert JS.trim(char) == char
    assert JS.trim(char + "a" + char) == char + "a" + char
    assert JS.trim(" " + char + " ") == char


def test_js_trim_whole_bmp():
    trimmed = set(JS_TRIMMED)
    for code in range(0x10000):
        char = chr(code)
        expected = "" if char in trimmed else char
        assert JS.trim(char) == expected, "U+%04X" % code


def test_js_trim_leaves_astral_and_lone_surrogates():
    for char in ["\U0001F600", "\ud800", "\udfff"]:
        assert JS.trim(" " + char + "\u3000") == char


# --- parse_package_pattern shape -------------------------------------------

def test_parse_package_pattern_shapes():
    assert parse_package_pattern("react") == {"name": "react"}
    assert parse_package_pattern("@scope/pkg") == {"name": "@scope/pkg"}
    assert parse_package_pattern("@scope/pkg@ ^1.2 ") == {"name": "@scope/pkg", "range": "^1.2"}
    assert parse_package_pattern(" react @1") == {"name": " react ", "range": "1"}
    assert parse_package_pattern("react@") is None
    assert parse_package_pattern("react@latest") is None
    assert parse_package_pattern("   ") is None


# --- hostile input: node-semver caps versions, not ranges -------------------

SIZE = 64 * 1024


def _repeat(unit):
    return (unit * (SIZE // len(unit) + 1))[:SIZE]


HOSTILE = {
    "v-run": _repeat("v"),
    "v-run-then-junk": _repeat("v")[:-1] + "Q",
    "v-run-then-digit": _repeat("v")[:-1] + "1",
    "eq-space-run": _repeat("= "),
    "lt-space-run": _repeat("< "),
    "ws-v-lt": _repeat(" " + "v" * 500 + " <1"),
    "or-bars": _repeat("|"),
    "or-empty": _repeat("||"),
    "or-ones": _repeat("1 || "),
    "spaces-ones": _repeat("1 "),
    "digits": _repeat("1"),
    "dots": _repeat("1."),
    "hyphens": _repeat("1 - "),
    "stars": _repeat("*"),
    "xs": _repeat("x"),
    "carets": _repeat("^ "),
    "gte": _repeat(">= "),
    "prerelease": "1.2.3-" + _repeat("a."),
    "build": "1.2.3+" + _repeat("b"),
    "ideographic-space": _repeat("\u3000"),
}


@pytest.mark.parametrize("text", list(HOSTILE.values()), ids=list(HOSTILE))
def test_hostile_ranges_finish_quickly(text):
    def work():
        semver_valid_range(text)
        parse_package_pattern("pkg@" + text)
    # Typically well under 0.1 s; the hang guard only catches a runaway blow-up.
    support.hang_guard(work, 30, "the hostile range")


def test_long_ranges_are_not_capped():
    # node-semver limits each version to 256 characters but not the range.
    # Alternatives are not deduplicated (checked against node: 13108 of them).
    alternatives = _repeat("1 || ").count("1")
    assert semver_valid_range(_repeat("1 || ")) == "||".join([">=1.0.0 <2.0.0-0"] * alternatives)
    assert semver_valid_range("v" * 5000 + "1") == ">=1.0.0 <2.0.0-0"
    assert semver_valid_range("1.2.3+" + "b" * 5000) == "1.2.3"
    # ...while a single version may have at most 256 characters.
    assert semver_valid_range("1.2.3-" + "a" * 250) == "1.2.3-" + "a" * 250
    assert semver_valid_range("1.2.3-" + "a" * 251) is None
