"""Conformance of the Collation engine with JavaScript's `String.prototype.localeCompare`.

The vectors (tests/data/vectors/locale-compare.json) were recorded by running
tools/record_locale_compare.mjs under Bun 1.4.5 (ICU 78.3, Unicode 17.0); Node 20.20.2
(ICU 78.2) gives the same answer on every case.  Each list holds seeded random strings from
one alphabet, the order of a stable sort with localeCompare, the ties of that order and, for
the shorter lists, the sign of every pair; `singles` is the runtime's order of every code
point of the BMP and the SMP.

The engine is exact for every string outside one documented set (README, "Where we differ";
section 15 of adrkit_mcp.py): strings holding a CJK ideograph outside U+4E00..U+9FFF (the
Extensions and the compatibility blocks' unified ideographs) or a character canonically
equivalent to one.  Inside that domain every relation must hold; the strings outside it are
counted below, and so are the relations they change, so a change in either fails too.
"""
import json
import pathlib
import unicodedata

import pytest

import adrkit_mcp
from adrkit_mcp import LocaleCollation

VECTORS_PATH = pathlib.Path(__file__).resolve().parent / "data" / "vectors" / "locale-compare.json"
DATA = json.loads(VECTORS_PATH.read_text(encoding="utf-8"))
LISTS = [(group["id"], index, entry) for group in DATA["groups"] for index, entry in enumerate(group["lists"])]
LIST_IDS = ["%s-%d" % (group_id, index) for group_id, index, _ in LISTS]

# The Unified_Ideograph code points (Unicode 17) the engine orders by code point instead of by
# ICU's radical-stroke order: all but U+4E00..U+9FFF and the twelve at U+FA0E..U+FA29.
OUTSIDE_HAN = [(0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B81D), (0x2B820, 0x2CEAD),
               (0x2CEB0, 0x2EBE0), (0x2EBF0, 0x2EE5D), (0x30000, 0x3134A), (0x31350, 0x33479)]
# The documented departure, measured on the vectors: the strings outside the domain, and the
# relations of the recorded order (a string and the next one) that we get wrong, all of them
# between ideographs of the Extensions, which ICU 78 orders by radical-stroke and we by code point.
OUTSIDE_STRINGS = 76
OUTSIDE_WRONG = [
    ("astral-12", "\U000323bc", "\u340b\U0001f4a0s\U0001f5fe\u22fc\U00010431"),  # Ext J before Ext A
    ("astral-24", "\U000323b6", "\u340e"),                                        # Ext J before Ext A
]


def js_characters(text):
    """The string's characters as JavaScript iterates them: pairs joined, lone surrogates kept."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def outside_han(cp):
    return any(low <= cp <= high for low, high in OUTSIDE_HAN)


def in_domain(text):
    for ch in js_characters(text):
        if 0xD800 <= ord(ch) <= 0xDFFF:
            continue
        if any(outside_han(ord(part)) for part in unicodedata.normalize("NFD", ch)):
            return False
    return True


def relations(strings, order, ties, keep):
    """The recorded total preorder restricted to the kept indices: (order, ties) of the kept ones."""
    kept_order, kept_ties, chain, started = [], [], True, False
    for position, index in enumerate(order):
        if position:
            chain = chain and ties[position - 1] == "1"
        if index in keep:
            if started:
                kept_ties.append("1" if chain else "0")
            kept_order.append(index)
            started, chain = True, True
    return kept_order, "".join(kept_ties)


def ours(strings, indices):
    """Our stable order of the given indices and its ties."""
    keys = {index: LocaleCollation.key(strings[index]) for index in indices}
    order = sorted(indices, key=keys.__getitem__)
    ties = "".join("1" if keys[a] == keys[b] else "0" for a, b in zip(order, order[1:]))
    return order, ties


def test_vector_file_is_complete():
    assert DATA["format"] == "adrkit-vectors/locale-compare@1"
    assert DATA["runtime"]["name"] == "bun" and DATA["runtime"]["version"] == "1.4.5"
    assert DATA["runtime"]["icu"].startswith("78.") and DATA["runtime"]["unicode"] == "17.0"
    assert DATA["collator"]["locale"] == "en-US" and DATA["collator"]["sensitivity"] == "variant"
    assert sum(len(entry["strings"]) for _, _, entry in LISTS) == DATA["caseCount"]


def test_the_engine_orders_by_code_point_exactly_the_declared_ideographs():
    data = adrkit_mcp._lc_data()
    assert [tuple(pair) for pair in data.ext] == OUTSIDE_HAN


@pytest.mark.parametrize("entry", [entry for _, _, entry in LISTS], ids=LIST_IDS)
def test_list_inside_the_domain(entry):
    strings = entry["strings"]
    keep = {index for index, text in enumerate(strings) if in_domain(text)}
    expected = relations(strings, entry["order"], entry["ties"], keep)
    assert ours(strings, sorted(keep)) == expected
    if "signs" in entry:
        signs = iter(entry["signs"])
        for i in range(len(strings)):
            for j in range(i + 1, len(strings)):
                sign = next(signs)
                if i in keep and j in keep:
                    assert "<=>"[LocaleCollation.compare(strings[i], strings[j]) + 1] == sign, (strings[i], strings[j])


def test_every_ascii_list_is_inside_the_domain():
    for group_id, _, entry in LISTS:
        if group_id in ("ascii", "ascii-near", "ascii-pairs", "path", "ulid"):
            assert all(in_domain(text) for text in entry["strings"])
    pairs = [entry for group_id, _, entry in LISTS if group_id == "ascii-pairs"]
    assert len(pairs) == 1 and len(pairs[0]["strings"]) == 128 and len(pairs[0]["signs"]) == 128 * 127 // 2


def test_the_departure_outside_the_domain_is_what_is_documented():
    outside, wrong = 0, []
    for list_id, (_, _, entry) in zip(LIST_IDS, LISTS):
        strings = entry["strings"]
        outside += sum(1 for text in strings if not in_domain(text))
        keys = [LocaleCollation.key(text) for text in strings]
        rank = {index: position for position, index in enumerate(sorted(range(len(strings)), key=keys.__getitem__))}
        for position, (a, b) in enumerate(zip(entry["order"], entry["order"][1:])):
            if (entry["ties"][position] == "1") != (keys[a] == keys[b]) or rank[a] > rank[b]:
                wrong.append((list_id, strings[a], strings[b]))
    assert outside == OUTSIDE_STRINGS
    assert wrong == OUTSIDE_WRONG


def test_single_code_points():
    singles = DATA["singles"]
    order = [cp for first, count in singles["runs"] for cp in range(first, first + count)]
    assert sorted(order) == list(range(singles["first"], singles["last"] + 1))
    keep = {cp for cp in order if in_domain(chr(cp))}
    strings = {cp: chr(cp) for cp in keep}
    expected = relations(strings, order, singles["ties"], keep)
    keys = {cp: LocaleCollation.key(text) for cp, text in strings.items()}
    got = sorted(keep, key=keys.__getitem__)
    assert got == expected[0]
    assert "".join("1" if keys[a] == keys[b] else "0" for a, b in zip(got, got[1:])) == expected[1]


# ---- the door ---------------------------------------------------------------------------------

EXAMPLE = [" ", "_", "-", ".", "/", "~", "0", "a", "\uff41", "A", "B", "docs/adr-b", "docs/adr/0001",
           "docs/adr/x.md", "e", "\u00e9", "f", "ss", "\u00df", "Z", "\u03b1", "\u03a9", "\u044f", "\u4e2d"]


def test_the_brief_example_is_sorted():
    assert sorted(reversed(EXAMPLE), key=LocaleCollation.key) == EXAMPLE


@pytest.mark.parametrize("a, b", [
    ("\u00e9", "e\u0301"),                  # canonical equivalence
    ("a\u0301\u0316", "a\u0316\u0301"),     # canonical order of marks
    ("a\u0000b", "ab"),                     # completely ignorable
    ("", "\u200b"),
    ("\u0f73", "\u0f71\u0f72"),             # a Tibetan vowel ICU always decomposes
    ("\uac00", "\u1100\u1161"),             # a Hangul syllable and its jamo
])
def test_equal_strings_have_equal_keys(a, b):
    assert LocaleCollation.key(a) == LocaleCollation.key(b)
    assert LocaleCollation.compare(a, b) == 0


@pytest.mark.parametrize("a, b", [("a", "A"), ("A", "b"), ("", "a"), ("l", "l\u00b7"), ("ss", "\u00df"),
                                  ("\ud800", "\ud801"), ("\U0010ffff", "\ufffd"), ("\ufffd", "\uffff")])
def test_compare_is_a_sign(a, b):
    assert LocaleCollation.compare(a, b) == -1
    assert LocaleCollation.compare(b, a) == 1


def test_a_surrogate_pair_is_one_character():
    assert LocaleCollation.key("\ud83d\ude00") == LocaleCollation.key("\U0001f600")


def test_the_printable_ascii_weights_written_out_are_the_tables():
    """Printable ASCII is sorted from weights written in the module, without decoding the table
    (a CLI run that sorts ASCII paths saves the decode): they must be the table's own."""
    data = adrkit_mcp._lc_data()
    assert adrkit_mcp._LC_ASCII_PRIMARY == data.ascii_primary
    assert adrkit_mcp._LC_ASCII_TERTIARY == data.ascii_tertiary
    assert adrkit_mcp._LC_ASCII_COMMON == data.common_text
