// record_locale_compare.mjs: records what String.prototype.localeCompare answers, as the
// vectors of the Collation engine (tests/data/vectors/locale-compare.json).
//
// Run with Bun (the runtime the reference pack uses) or Node, from the repository root:
//     bun tools/record_locale_compare.mjs [--out PATH] [--seed N]
//     node tools/record_locale_compare.mjs --out /tmp/node.json   # to compare runtimes
// The runtime, its ICU and Unicode versions (process.versions) and the collator's resolved
// options are written into the file.  Everything else is a function of the seed: the strings
// come from a small xorshift generator, never from Math.random.
//
// For every list the file holds the strings, the order a stable sort with localeCompare gives
// (Array.prototype.sort is stable, so equal strings keep their places), whether each string of
// that order compares equal to the one before it, and, for the shorter lists, the sign of every
// pair (i < j).  The sorted order and its ties determine every pairwise answer, because
// localeCompare is a total preorder.

import { writeFileSync } from "node:fs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : fallback;
};
const OUT = option("--out", "tests/data/vectors/locale-compare.json");
const SEED = Number(option("--seed", "20260807"));

let state = SEED >>> 0 || 1;
function random() {
  // xorshift32, then a float in [0, 1)
  state ^= state << 13; state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5; state >>>= 0;
  return state / 4294967296;
}
const pick = (items) => items[Math.floor(random() * items.length)];
const int = (low, high) => low + Math.floor(random() * (high - low + 1));

function range(low, high) {
  const out = [];
  for (let c = low; c <= high; c++) out.push(String.fromCodePoint(c));
  return out;
}
const chars = (text) => Array.from(text);

const ASCII = range(0, 0x7f);
const PRINTABLE = range(0x20, 0x7e);
const LOWER = chars("abcdefghijklmnopqrstuvwxyz");
const UPPER = chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ");
const DIGITS = chars("0123456789");
const PATH_CHARS = [...LOWER, ...DIGITS, ...chars("-_.-_"), ...UPPER.slice(0, 8)];
const CROCKFORD = chars("0123456789ABCDEFGHJKMNPQRSTVWXYZ");
const LATIN = [...range(0xc0, 0x17f), ...range(0x180, 0x24f), ...range(0x1e00, 0x1eff),
  ...chars("æÆßœŒĳĲøØðÐþÞłŁđĐħĦŋŊſ"), ...chars("ﬀﬁﬂﬃﬄﬅﬆ"), ...range(0x2c60, 0x2c7f), ...range(0xa720, 0xa7ff)];
const GREEK = [...range(0x370, 0x3ff), ...range(0x1f00, 0x1fff)];
const CYRILLIC = [...range(0x400, 0x52f), ...range(0x2de0, 0x2dff), ...range(0xa640, 0xa69f)];
const PUNCT = [...range(0x2000, 0x206f), ...range(0x20a0, 0x20c1), ...range(0x2100, 0x21ff), ...range(0x2200, 0x22ff),
  ...range(0x2300, 0x23ff), ...range(0x2500, 0x25ff), ...range(0x2600, 0x27bf), ...range(0x3000, 0x303f),
  ...range(0xfe30, 0xfe6f), ...range(0xff00, 0xffef), ...range(0xfff0, 0xffff), ...range(0xa0, 0xbf)];
const SCRIPTS = [...range(0x591, 0x5f4), ...range(0x600, 0x6ff), ...range(0x900, 0x97f), ...range(0x980, 0x9ff),
  ...range(0xe00, 0xe7f), ...range(0xe80, 0xeff), ...range(0xf00, 0xfda), ...range(0x10a0, 0x10ff),
  ...range(0x1100, 0x11ff), ...range(0x1200, 0x137f), ...range(0x3040, 0x30ff), ...range(0x3130, 0x318f),
  ...range(0xac00, 0xac80), ...range(0xd700, 0xd7ff), ...range(0x4e00, 0x4e80), ...range(0x9f00, 0x9fff),
  ...range(0xf900, 0xfaff), ...range(0xaa80, 0xaadf), ...range(0x1980, 0x19df)];
const MARKS = [...range(0x300, 0x36f), ...range(0x483, 0x489), ...range(0x591, 0x5bd), ...range(0x610, 0x61a),
  ...range(0x64b, 0x65f), ...range(0x93c, 0x94d), ...range(0xe31, 0xe3a), ...range(0xe47, 0xe4e),
  ...range(0xf71, 0xf84), ...range(0x1ab0, 0x1aeb), ...range(0x1dc0, 0x1dff), ...range(0x20d0, 0x20f0),
  ...range(0xfe20, 0xfe2f), ...chars("\u00b7\u0306\u0308\u0301\u0300\u0323\u0327\u0328\u031b\u0345")];
const CONTRACTION_STARTS = [...chars("Ll\u0418\u0438\u0e40\u0e41\u0e42\u0e43\u0e44\u0ec0\u0ec1\u0ec2\u0ec3\u0ec4"),
  ...chars("\u0fb2\u0fb3\u0f71\uaab5\uaab6\uaab9\uaabb\uaabc\u19b5\u19b6\u19b7\u19ba\u0627\u0648\u064a\u0b47\u0bc6"),
  ...chars("\u0cc6\u0dd9\u0d46\u09c7\u1025\u1b05\u1b07\u1b09\u1b0b\u1b0d\u1b11\u1b3a\u1b3c\u1b3e\u1b3f\u1b42\ufdd1"),
  ...chars("\u{11131}\u{11132}\u{11347}\u{114b9}\u{115b8}\u{115b9}\u{11935}\u{1611e}\u{16121}\u{16d63}")];
const CONTRACTION_NEXT = [...chars("\u00b7\u0306\u0e01\u0e02\u0e07\u0e2e\u0e81\u0e82\u0ea5\u0f71\u0f72\u0f74\u0f80"),
  ...chars("\u0f81\u0f73\u0f75\uaa80\uaa81\uaaaf\u1980\u1981\u19ab\u0653\u0654\u0655\u0b3e\u0b56\u0b57\u0bbe\u0bd7"),
  ...chars("\u0cc2\u0cd5\u0cd6\u0dca\u0dcf\u0ddf\u0d3e\u0d57\u09be\u09d7\u102e\u1b35\u0041\u0061\u03a9\u042f\u4e00"),
  ...chars("\u{11127}\u{1133e}\u{11357}\u{114b0}\u{114ba}\u{114bd}\u{115af}\u{11930}\u{1611e}\u{1611f}\u{16d67}")];
const ASTRAL = [...range(0x1f300, 0x1f5ff), ...range(0x1f600, 0x1f64f), ...range(0x1f900, 0x1f9ff),
  ...range(0x1d400, 0x1d4ff), ...range(0x10400, 0x1044f), ...range(0x10330, 0x1034a), ...range(0x1e900, 0x1e95f),
  ...range(0x12000, 0x1203f), ...range(0x17000, 0x1703f), ...range(0x16fe0, 0x16ff6), ...range(0x1f100, 0x1f1ff),
  ...range(0xe0000, 0xe007f), ...range(0xe0100, 0xe01ef), ...range(0xeffe0, 0xf0010), ...range(0x10fff0, 0x10ffff),
  ...range(0x20000, 0x2000f), ...range(0x2a6d0, 0x2a6df), ...range(0x323b0, 0x323bf), ...range(0x3400, 0x340f)];
const SURROGATE_BITS = ["\ud800", "\udbff", "\udc00", "\udfff", "\ud83d", "\ude00", "\ud83d\ude00", "\ude00\ud83d",
  "\ud800\udc00", "\udbff\udfff", "a", "-", "z", "\ufffd", "\uffff"];
const IGNORABLE = [...range(0, 0x1f), ...range(0x7f, 0x9f), ...chars("\u00ad\u200b\u200c\u200d\u200e\u2060\ufeff"),
  ...range(0xfe00, 0xfe0f), ...range(0xe0001, 0xe0001)];

function text(length, alphabets) {
  let out = "";
  for (let i = 0; i < length; i++) out += pick(pick(alphabets));
  return out;
}
const word = (alphabet, low, high) => text(int(low, high), [alphabet]);

const makers = {
  "ascii": () => text(int(0, 40), [PRINTABLE, PRINTABLE, PRINTABLE, ASCII]),
  "ascii-near": () => {  // near-duplicates: case, punctuation and length differences
    const base = word([...LOWER, ...DIGITS, ...chars("-_. /")], 0, 8);
    return pick([base, base.toUpperCase(), base + pick(PRINTABLE), pick(PRINTABLE) + base,
      base.replace(/[a-z]/, (c) => c.toUpperCase()), base + "\u0000", base.replace(/-/g, "_")]);
  },
  "path": () => {
    const dir = pick(["docs/adr", "docs/adr", "docs/decisions", "adr", "doc/architecture/decisions", "docs/adr/sub"]);
    const stem = pick([
      () => String(int(0, 12000)).padStart(pick([1, 3, 4, 4, 5]), "0") + "-" + word(PATH_CHARS, 1, 24),
      () => pick(["ADR-", "adr-", "Adr_", ""]) + word([...UPPER, ...LOWER, ...DIGITS, "-"], 1, 12),
      () => word(PATH_CHARS, 1, 30),
      () => word([...PATH_CHARS, ...chars(" ()[]{}+,;=@#$%&'!~^`")], 1, 20),
    ])();
    return dir + "/" + stem + pick([".md", ".md", ".MD", ".markdown", "", ".md~"]);
  },
  "ulid": () => {
    if (random() < 0.3) return String(int(0, 99999)).padStart(pick([1, 4, 5]), "0");
    let id = text(26, [CROCKFORD]);
    if (random() < 0.5) id = Array.from(id, (c) => (random() < 0.4 ? c.toLowerCase() : c)).join("");
    return id;
  },
  "latin": () => text(int(0, 16), [LATIN, LATIN, LOWER, UPPER, chars(" -_./0123")]),
  "mixed": () => text(int(0, 14), [GREEK, CYRILLIC, PUNCT, SCRIPTS, LATIN, LOWER, ASCII, IGNORABLE]),
  "combining": () => {
    let out = "";
    const parts = int(1, 5);
    for (let i = 0; i < parts; i++) {
      out += pick([pick(CONTRACTION_STARTS), pick(LOWER), pick(UPPER), pick(SCRIPTS), pick(LATIN), pick(CYRILLIC)]);
      const marks = int(0, 4);
      for (let j = 0; j < marks; j++) out += pick([pick(MARKS), pick(MARKS), pick(CONTRACTION_NEXT)]);
      if (random() < 0.4) out += pick(CONTRACTION_NEXT);
    }
    return out;
  },
  "astral": () => text(int(0, 10), [ASTRAL, ASTRAL, LOWER, PUNCT]),
  "surrogates": () => text(int(0, 8), [SURROGATE_BITS]),
  "ignorable": () => text(int(0, 10), [IGNORABLE, LOWER, chars("-_. ")]),
};

const compare = (a, b) => a.localeCompare(b);
const sign = (n) => (n < 0 ? "<" : n > 0 ? ">" : "=");

function record(strings, withSigns) {
  const order = strings.map((_, i) => i).sort((i, j) => compare(strings[i], strings[j]));
  let ties = "";
  for (let k = 1; k < order.length; k++) ties += compare(strings[order[k - 1]], strings[order[k]]) === 0 ? "1" : "0";
  const entry = { strings, order, ties };
  if (withSigns) {
    let signs = "";
    for (let i = 0; i < strings.length; i++) for (let j = i + 1; j < strings.length; j++) signs += sign(compare(strings[i], strings[j]));
    entry.signs = signs;
  }
  return entry;
}

const groups = [];
const WHY = {
  "ascii": "printable ASCII and control characters, lengths 0 to 40",
  "ascii-near": "ASCII strings that differ only in case, punctuation, a trailing NUL or one character",
  "path": "ADR-folder-like paths: numbered and named files, extensions, punctuation in names",
  "ulid": "decimal ids and 26-character Crockford base32 ULIDs, some with lower-case letters",
  "latin": "Latin-1 and Latin Extended letters with accents, expansions (ae, sharp s, oe, ij) and ligatures",
  "mixed": "Greek, Cyrillic, punctuation and symbols, Hebrew, Arabic, Indic, Thai, Lao, Tibetan, Georgian, Hangul, kana, Han",
  "combining": "base letters and contraction starters followed by combining marks in any order (FCD, discontiguous contractions)",
  "astral": "supplementary characters: emoji, mathematical letters, scripts, tags, variation selectors, unassigned, Han extensions",
  "surrogates": "lone high and low surrogates, reversed and valid pairs",
  "ignorable": "control, format and variation-selector characters between letters",
};
const PLAN = { "ascii": [60, 50], "ascii-near": [40, 30], "path": [60, 40], "ulid": [40, 40], "latin": [60, 30],
  "mixed": [60, 30], "combining": [80, 30], "astral": [40, 30], "surrogates": [30, 20], "ignorable": [30, 20] };
for (const [id, [lists, size]] of Object.entries(PLAN)) {
  const group = { id, why: WHY[id], lists: [] };
  for (let n = 0; n < lists; n++) {
    const strings = [];
    for (let k = 0; k < size; k++) strings.push(makers[id]());
    group.lists.push(record(strings, size <= 30));
  }
  groups.push(group);
}

// Every pair of ASCII characters, as one list of the 128 one-character strings with all signs.
groups.unshift({ id: "ascii-pairs", why: "all 128 ASCII characters, every pair", lists: [record(ASCII, true)] });

// The runtime's order of single code points: the BMP (surrogates included) and the SMP.
const singles = [];
for (let c = 0; c < 0x20000; c++) singles.push(String.fromCodePoint(c));
const singleOrder = singles.map((_, i) => i).sort((i, j) => compare(singles[i], singles[j]));
const runs = [];
let ties = "";
for (let k = 0; k < singleOrder.length; k++) {
  const c = singleOrder[k];
  const last = runs[runs.length - 1];
  if (last && last[0] + last[1] === c) last[1] += 1; else runs.push([c, 1]);
  if (k > 0) ties += compare(singles[singleOrder[k - 1]], singles[c]) === 0 ? "1" : "0";
}

const caseCount = groups.reduce((sum, group) => sum + group.lists.reduce((s, list) => s + list.strings.length, 0), 0);
const versions = process.versions;
const out = {
  format: "adrkit-vectors/locale-compare@1",
  generator: "tools/record_locale_compare.mjs",
  seed: SEED,
  runtime: { name: versions.bun ? "bun" : "node", version: versions.bun || versions.node, icu: versions.icu,
    unicode: versions.unicode, cldr: versions.cldr || null },
  collator: new Intl.Collator().resolvedOptions(),
  semantics: "a.localeCompare(b) with no locale or options. For each list: order = the indices of a stable sort "
    + "with localeCompare; ties[k-1] = '1' when the strings at order[k-1] and order[k] compare equal; signs (shorter "
    + "lists) = the sign of strings[i].localeCompare(strings[j]) for i < j, row by row, as '<', '=', '>'. singles: "
    + "the stable order of the one-code-point strings U+0000..U+1FFFF (lone surrogates for U+D800..U+DFFF) as runs "
    + "[first code point, count] of consecutive code points, with ties as above.",
  caseCount,
  groups,
  singles: { first: 0, last: 0x1ffff, runs, ties },
};
writeFileSync(OUT, JSON.stringify(out, null, 0).replace(/\{"id"/g, "\n{\"id\"").replace(/\{"strings"/g, "\n{\"strings\"") + "\n");
console.log(`${OUT}: ${caseCount} strings in ${groups.reduce((s, g) => s + g.lists.length, 0)} lists, ${runs.length} runs of singles (${out.runtime.name} ${out.runtime.version}, ICU ${versions.icu}, Unicode ${versions.unicode})`);
