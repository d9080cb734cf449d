#!/usr/bin/env node
// Records what yaml 2.9.0's `stringify(value, {lineWidth: 0, sortMapEntries: false})` returns,
// the call the reference's `adr migrate` makes to write a migrated record's frontmatter
// (packages/core/src/import/merge.ts, renderMigratedContent; the caller trims the result).
//
//     bun tools/record_yaml_stringify.mjs PATH/TO/node_modules/yaml [OUT.json]
//     node tools/record_yaml_stringify.mjs PATH/TO/node_modules/yaml [OUT.json]
//
// PATH is a directory holding the `yaml` package, version 2.9.0 (checked). OUT defaults to
// tests/data/vectors/yaml-stringify.json next to this script. The values come from a seeded
// generator (no Math.random), so Bun and Node write the same bytes; tests/test_vectors_yaml_stringify.py
// replays every case against FrontmatterYaml.stringify.
//
// Each case: {"value": ENCODED, "output": TEXT, "readsBack": BOOL[, "back": BACK]}. ENCODED is the value as JSON,
// with what JSON cannot carry tagged: a number that is -0, NaN, Infinity or -Infinity is
// {"$type": "number", "value": "-0" | "NaN" | "Infinity" | "-Infinity"}, and an object key that
// starts with "$" gets one more "$" in front (so "$type" is written "$$type"). Keys appear in the
// order stringify visits them (JS own-key order: integer-like keys first), as JSON.stringify
// writes them. Strings may hold lone surrogates (JSON's \udXXX escapes). readsBack says whether
// parseDocument(output, {strict: true, prettyErrors: false}).toJS(), as the reference reads
// frontmatter, gives back a value deeply equal to the input (Object.is for numbers, key order
// included); where it does not, BACK is what it gives instead: {"value": ENCODED} or
// {"error": "parse" | "toJS", "code": the first error's code or the thrown error's name}.

import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = '2.9.0';
const SEED = 20260512;
const OPTIONS = { lineWidth: 0, sortMapEntries: false };

const here = path.dirname(fileURLToPath(import.meta.url));
const packageDir = process.argv[2];
if (!packageDir) {
  process.stderr.write('usage: record_yaml_stringify.mjs YAML_PACKAGE_DIR [OUT.json]\n');
  process.exit(2);
}
const outPath = process.argv[3] ?? path.join(here, '..', 'tests', 'data', 'vectors', 'yaml-stringify.json');
const pkg = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
if (pkg.name !== 'yaml' || pkg.version !== VERSION) {
  process.stderr.write(`expected the yaml package ${VERSION}, found ${pkg.name} ${pkg.version}\n`);
  process.exit(2);
}
const YAML = createRequire(import.meta.url)(path.resolve(packageDir, 'dist', 'index.js'));

// -- a seeded generator ----------------------------------------------------------------------

let state = SEED >>> 0;
function random() {
  // mulberry32
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const below = (n) => Math.floor(random() * n);
const pick = (items) => items[below(items.length)];
const chance = (p) => random() < p;

// An object built key by key, so that "__proto__" is an own key as JSON.parse makes it.
function objectOf(entries) {
  const out = {};
  for (const [key, value] of entries) {
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

// Pieces random strings are made of: plain text weighs most, then every character class the
// stringifier tests for (indicators, white space, line breaks, escapes, surrogates, markers).
const WORDS = ['a', 'b', 'x', 'id', 'key', 'value', 'Use', 'PostgreSQL', 'adr', '0042', 'e', 'E', 'o', 'x1f'];
const INDICATORS = ['-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`', '.', '~', '+', '\\', '/', '='];
const SPACES = [' ', ' ', '\t', '\n', '\n', '\r', '\r\n', '\n\n'];
const CONTROLS = ['\x00', '\x01', '\x07', '\x08', '\x0b', '\x0c', '\x0e', '\x1b', '\x1f', '\x7f', '\x80', '\x85', '\x9f'];
const UNICODE = ['\xa0', 'é', 'ü', 'ß', '中文', 'Ω', '\u2028', '\u2029', '\ufeff', '\ufffd', '\u{1F600}', '\u{10FFFF}', '\u200b'];
const SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff', '\ud83d', '\ude00'];
const SEQUENCES = ['---', '...', ': ', ' #', '\n ', ' \n', '\n\t', '- ', '? ', '%YAML', 'true', 'null', '1e3', '0x1f', '0o7', '.inf', '.nan', '~', '-0', '1.50'];

function piece() {
  const r = random();
  if (r < 0.40) return pick(WORDS);
  if (r < 0.55) return pick(INDICATORS);
  if (r < 0.70) return pick(SPACES);
  if (r < 0.76) return pick(CONTROLS);
  if (r < 0.84) return pick(UNICODE);
  if (r < 0.88) return pick(SURROGATES);
  if (r < 0.96) return pick(SEQUENCES);
  return String(below(1000));
}

function randomString(maxPieces) {
  const n = below(maxPieces + 1);
  let out = '';
  for (let i = 0; i < n; i += 1) out += piece();
  return out;
}

// Strings shaped like scalars of other types, and near misses.
function numericLike() {
  const sign = pick(['', '', '-', '+']);
  const digits = String(below(100000));
  const forms = [
    () => sign + digits,
    () => sign + '0' + digits,
    () => sign + digits + '.' + String(below(100)),
    () => sign + '.' + digits,
    () => sign + digits + '.',
    () => sign + digits + pick(['e', 'E']) + pick(['', '+', '-']) + String(below(400)),
    () => sign + '.' + digits + 'e' + String(below(9)),
    () => '0x' + below(1 << 30).toString(16) + pick(['', 'G', 'f']),
    () => '0o' + below(1 << 20).toString(8) + pick(['', '8']),
    () => '0b' + below(64).toString(2),
    () => sign + pick(['.inf', '.Inf', '.INF', '.iNf', 'inf', 'Infinity']),
    () => pick(['.nan', '.NaN', '.NAN', '.Nan', 'nan', 'NaN']),
    () => pick(['true', 'True', 'TRUE', 'tRUE', 'false', 'False', 'FALSE', 'yes', 'no', 'on', 'off', 'y', 'n']),
    () => pick(['null', 'Null', 'NULL', 'nULL', '~', '']),
    () => digits.slice(0, 2) + ':' + digits.slice(2, 4),
    () => '2026-0' + (1 + below(9)) + '-1' + below(10),
    () => sign + digits + '_' + digits,
    () => digits + ' ' + digits,
  ];
  return pick(forms)();
}

function randomNumber() {
  const r = random();
  if (r < 0.3) return below(100);
  if (r < 0.45) return -below(100000);
  if (r < 0.6) return Math.round(random() * 1e6) / 100;
  // Decimal text, not Math.pow: engines differ in pow's last bit, never in parsing.
  if (r < 0.7) return Number(`${(random() - 0.5).toFixed(below(17) + 1)}e${below(60) - 30}`);
  if (r < 0.8) return pick([0, -0, 1, -1, 0.5, 4, 1e21, 1e-7, 1e-6, 123456789012345680000, 2 ** 53, 2 ** 53 + 2, -(2 ** 31), 5e-324, 1.7976931348623157e308]);
  if (r < 0.9) return pick([NaN, Infinity, -Infinity]);
  return Number((random() * 10).toFixed(below(6)));
}

function randomScalar() {
  const r = random();
  if (r < 0.45) return randomString(8);
  if (r < 0.6) return numericLike();
  if (r < 0.75) return randomNumber();
  if (r < 0.85) return chance(0.5);
  if (r < 0.92) return null;
  return randomString(30);
}

function randomKey() {
  const r = random();
  if (r < 0.5) return pick(WORDS) + (chance(0.3) ? String(below(10)) : '');
  if (r < 0.6) return numericLike();
  if (r < 0.7) return String(below(20));
  if (r < 0.75) return pick(['', '__proto__', '$type', '$', 'constructor', '<<', '=', 'length']);
  return randomString(6);
}

function randomValue(depth) {
  const r = random();
  if (depth <= 0 || r < 0.5) return randomScalar();
  if (r < 0.75) {
    const n = below(5);
    const entries = [];
    const seen = new Set();
    for (let i = 0; i < n; i += 1) {
      const key = randomKey();
      if (seen.has(key)) continue;
      seen.add(key);
      entries.push([key, randomValue(depth - 1)]);
    }
    return objectOf(entries);
  }
  const n = below(5);
  const items = [];
  for (let i = 0; i < n; i += 1) items.push(randomValue(depth - 1));
  return items;
}

// -- hand-picked cases -----------------------------------------------------------------------

const EDGE_STRINGS = [
  // empty, white space, indicators at the start and alone
  '', ' ', '  ', '\t', 'a ', ' a', 'a\t', '\ta', '-', '?', ':', '- a', '? a', ': a', '-a', '?a', ':a',
  ',a', '[a', ']a', '{a', '}a', '#a', '&a', '*a', '!a', '|a', '>a', "'a", '"a', '%a', '@a', '`a',
  'a,b', 'a[b]', 'a{b}', 'a#b', 'a #b', 'a\t#b', 'a: b', 'a:b', 'a:', 'a:\tb', 'http://x', 'a:  b',
  "it's", 'say "hi"', `both ' and "`, "'", '"', `'"`, '\\', 'a\\nb', 'C:\\path',
  // the core schema's other types, which plain text would read back as
  'true', 'True', 'TRUE', 'tRUE', 'false', 'False', 'FALSE', 'yes', 'no', 'on', 'off', 'y', 'n',
  'null', 'Null', 'NULL', 'nULL', '~', '0', '00', '0001', '-0', '+0', '+1', '-1', '1_000', '0x1f',
  '0X1F', '0x', '0xg', '0o7', '0o8', '0O7', '0b101', '1.', '.5', '1.5', '-1.5e3', '1e3', '1E3',
  '1e+3', '1e', 'e3', '.e3', '.inf', '-.inf', '+.inf', '.Inf', '.INF', '.iNf', '.nan', '.NaN',
  '.NAN', '.Nan', 'inf', 'Infinity', 'NaN', '12:30', '2026-05-12', '1,000', '1 000',
  // document markers and directives
  '---', '...', '--- a', '... a', '---a', '....', '--', 'a\n---', 'a\n...', 'a\n--- b', '%YAML 1.2',
  'a\n%b', 'a\r---', 'a\u2028---', 'a\u2029...', 'a\x85---',
  // line breaks: block literals, chomping, indentation indicators, quoted fallbacks
  '\n', '\n\n', 'a\n', 'a\n\n', 'a\n\n\n', '\na', '\n\na', 'a\nb', 'a\n\nb', 'a\nb\n', 'a\nb\n\n',
  ' a\nb', '  a\nb', '\n a', '\n\n  a\nb', 'a\n b', 'a \nb', 'a\t\nb', 'a\n\tb', 'a\n ', 'a\n\t',
  'a\n \n', 'a\n  \nb', 'a\n#b', 'a\n- b', 'a\n: b', 'a: b\nc', 'a\n\n \n\nb\n', '\t\na', ' \n',
  '\n ', 'a\r\nb', 'a\rb', '- a\n- b', '|\na', '>\na', '"a"\nb', "'a'\nb", 'a\n"b', "a\n'b",
  'a"\n b', "a'\n b", 'a\u2028b', 'a\u2029b', 'a\x85b', '\ufeffa', 'a\ufeff', '\xa0a', 'a\xa0',
  // control characters, escapes, surrogates
  '\x00', '\x01', '\x07', '\x08', '\x09', '\x0b', '\x0c', '\x0d', '\x0e', '\x1b', '\x1f', '\x7f',
  '\x80', '\x85', '\x9f', '\xa0', 'a\x00b', 'a\x07\nb', '\x1b[0m', '\u2028', '\u2029', '\ufffe',
  '\uffff', '\ud800', '\udfff', 'a\ud800b', '\udc00\ud800', '\u{1F600}', 'a\u{1F600}\ud800',
  '\u{10FFFF}', 'a \n\x01', 'a  \n\x01b', '\x01\n\n\nb ',
  // long strings: no folding with lineWidth 0, and the 40-character multi-line double-quoted rule
  'x'.repeat(200), ('word '.repeat(40)).trim(), 'a\x01' + 'b'.repeat(36) + '\nc',
  'a\x01' + 'b'.repeat(37) + '\nc', 'a\x01' + 'b'.repeat(40) + '\n\n\nc\n', 'x'.repeat(45) + '\n ',
  'x'.repeat(45) + '\n\n  y\n ', 'x'.repeat(45) + ' \n\x01', '\x01' + 'y'.repeat(50) + '\n',
  'y'.repeat(50) + '\n\t', 'y'.repeat(50) + '\n\n \n', '- ' + 'z'.repeat(60) + '\n\x01',
];

const EDGE_NUMBERS = [
  0, -0, 1, -1, 7, 42, 0.5, -0.5, 0.1, 0.30000000000000004, 1.5, 4, 100, 1e20, 1e21, 1.5e21, 1e-6,
  1e-7, 1.25e-7, 123e-20, 2 ** 31, 2 ** 32, 2 ** 53, 2 ** 53 + 2, 2 ** 64, 1e300, 5e-324,
  1.7976931348623157e308, -1.7976931348623157e308, NaN, Infinity, -Infinity, 0.000001, 1234.5678,
  -123456789.125, 3.14159,
];

function keyOfLength(n, filler) {
  return filler.repeat(Math.ceil(n / filler.length)).slice(0, n);
}

function handGroups() {
  const groups = [];
  groups.push({
    id: 'strings-as-values',
    why: 'each hand-picked string as a map value: plain, single, double, block literal; implicit types; markers',
    values: EDGE_STRINGS.map((s) => objectOf([['v', s]])),
  });
  groups.push({
    id: 'strings-as-keys',
    why: 'each hand-picked string as a key (implicit key: never a block scalar, line breaks quoted)',
    values: EDGE_STRINGS.map((s) => objectOf([[s, 'x']])),
  });
  groups.push({
    id: 'strings-in-sequences',
    why: 'each hand-picked string as a sequence item, at the top and nested in a map',
    values: EDGE_STRINGS.map((s, i) => (i % 2 ? objectOf([['k', [s, 'b']]]) : objectOf([['k', objectOf([['n', [[s]]]])]]))),
  });
  groups.push({
    id: 'strings-nested',
    why: 'each hand-picked string two and three levels deep (indentation of block literals and folded double quotes)',
    values: EDGE_STRINGS.map((s) => objectOf([['a', objectOf([['b', s], [s || 'c', objectOf([['d', s]])]])]])),
  });
  groups.push({
    id: 'numbers',
    why: 'numbers as JS writes them (Number.prototype.toString, -0, .nan, .inf, -.inf), as values, items and nested',
    values: EDGE_NUMBERS.flatMap((n) => [objectOf([['n', n]]), objectOf([['l', [n, objectOf([['m', n]])]]])]),
  });
  const plainKey = keyOfLength(1024, 'k');
  groups.push({
    id: 'long-keys',
    why: 'a key whose written form is over 1024 UTF-16 units becomes an explicit key (? ...)',
    values: [1020, 1022, 1023, 1024, 1025, 1026, 1030, 2000].flatMap((n) => [
      objectOf([[keyOfLength(n, 'k'), 'v']]),
      objectOf([[keyOfLength(n - 2, 'k') + ': ', 'v']]),
      objectOf([[keyOfLength(n, 'ab\n'), 'v']]),
      objectOf([[keyOfLength(n - 1, 'k') + '\ud800', ['a', 'b']]]),
      objectOf([[keyOfLength(n, '\u{1F600}'), objectOf([['x', 1]])]]),
      objectOf([[keyOfLength(n, 'k'), []]]),
      objectOf([[keyOfLength(n, 'k'), {}]]),
      objectOf([[keyOfLength(n, 'k'), null]]),
      objectOf([[keyOfLength(n, 'k'), 'a\nb\n']]),
      objectOf([['outer', objectOf([[keyOfLength(n, 'k'), [objectOf([['a', 'b\n'], ['c', 1]])]]])]]),
      objectOf([['outer', [objectOf([[keyOfLength(n, 'k'), objectOf([['y', [1, [2]]]])]])]]]),
    ]).concat([objectOf([[plainKey, 'first'], ['short', 'second']])]),
  });
  groups.push({
    id: 'collections',
    why: 'empty and nested collections: [] and {}, lists of lists, lists of maps, maps in lists in maps, null items',
    values: [
      {}, [], objectOf([['a', []]]), objectOf([['a', {}]]), objectOf([['a', [[]]]]), objectOf([['a', [{}]]]),
      objectOf([['a', [[], {}, null, '']]]), objectOf([['a', [[1, 2], [3, [4, [5]]]]]]),
      objectOf([['a', [objectOf([['b', 1], ['c', [2]]]), objectOf([['d', objectOf([['e', null]])]])]]]),
      objectOf([['a', null], ['b', null]]), objectOf([['a', objectOf([['b', null]])]]),
      objectOf([['a', [null, null]]]), objectOf([['a', [[objectOf([['b', [objectOf([['c', 'd']])]]])]]]]),
      objectOf([['a', [objectOf([])]], ['b', [[]]]]), objectOf([['a', objectOf([['b', objectOf([['c', objectOf([['d', []]])]])]])]]),
      objectOf([['2', 'two'], ['1', 'one'], ['b', 'bee'], ['a', 'ay'], ['-1', 'minus'], ['01', 'zero-one']]),
      objectOf([['4294967294', 'max index'], ['4294967295', 'not an index'], ['10', 'ten']]),
      objectOf([['a', [true, false, null, 0, -0, '', ' ', '-', 'x: y']]]),
      objectOf([['deep', [[[[[[[[['bottom']]]]]]]]]]]),
    ],
  });
  groups.push({
    id: 'top-level',
    why: 'values other than a map at the top: a document-level scalar, list, block literal or marker string',
    values: [
      null, true, false, 0, -0, 1.5, NaN, Infinity, -Infinity, '', 'a', 'a b', '---', '...', '--- a', '%a',
      'a\n---\nb', 'a\nb', 'a\n', ' a\nb', 'a\n\n', '\n', 'true', '1', 'a: b', '\x01', 'x'.repeat(60) + '\n ',
      [], ['a', 'b'], [['a'], objectOf([['b', 'c']])], ['a\nb', '---', '...\nx', 'a\n---'],
      [objectOf([['---', 1], ['...', 2], ['%x', 3]])], objectOf([['---', 1], ['... x', 2], ['%x', 3]]),
      objectOf([['k', objectOf([['---', 1], ['--- x', 2]])]]), [['---', '--- x']],
    ],
  });
  const blanks = [''];
  const whitespace = [];
  for (let n = 1; n <= 5; n += 1) {
    for (const prefix of blanks.splice(0)) {
      for (const ch of [' ', '\t', '\n']) {
        blanks.push(prefix + ch);
        whitespace.push(objectOf([['v', prefix + ch]]));
      }
    }
  }
  groups.push({
    id: 'whitespace-only',
    why: 'every string of one to five spaces, tabs and line breaks as a value: a |+ block whose lines begin with a space does not read back (the spaces count as indentation)',
    values: whitespace,
  });
  groups.push({
    id: 'byte-order-mark',
    why: 'U+FEFF at the start of the first key is read back as a byte order mark and dropped; anywhere else it stays',
    values: [
      objectOf([['\ufeffa', 1]]), objectOf([['\ufeff', 1]]), objectOf([['a', 1], ['\ufeffb', 2]]),
      objectOf([['k', objectOf([['\ufeffa', 1]])]]), objectOf([['v', '\ufeff']]), objectOf([['v', 'a\n\ufeffb']]),
      objectOf([['v', ['\ufeff', '\ufeff\n']]]), objectOf([['\ufeff---', 1]]), objectOf([['\ufeff\ufeff', 1]]),
    ],
  });
  groups.push({
    id: 'frontmatter',
    why: 'values shaped like migrated ADR frontmatter (the importer\'s FRONTMATTER_ORDER, provenance, review, evaluation)',
    values: frontmatterValues(),
  });
  return groups;
}

function frontmatterValues() {
  const out = [];
  const titles = ['Use PostgreSQL', 'Adopt: event sourcing', "Don't use MongoDB", 'Use "quoted" names',
    'Decide #1 thing', '- leading dash', 'true', '2026', 'Título en español', 'Résumé: ça va?',
    'Move to k8s [beta]', '{braces}', '50% faster', '@handle rule', 'a\ttab', 'ends with colon:'];
  for (let i = 0; i < 60; i += 1) {
    const entries = [
      ['schemaVersion', '0.1.0'],
      ['id', String(1 + below(9999)).padStart(4, '0')],
      ['title', pick(titles)],
      ['status', pick(['draft', 'proposed', 'accepted', 'rejected', 'superseded', 'deprecated'])],
      ['date', '2026-0' + (1 + below(9)) + '-1' + below(10)],
    ];
    if (chance(0.3)) entries.push(['created', '2025-12-31']);
    entries.push(['deciders', chance(0.5) ? [] : ['@alice', 'team:platform', 'bob@example.com'].slice(0, 1 + below(3))]);
    entries.push(['consulted', []], ['informed', []]);
    entries.push(['tags', chance(0.5) ? [] : ['db', 'storage', 'k8s-1'].slice(0, 1 + below(3))]);
    entries.push(['scope', pick(['component', 'domain', 'org'])]);
    if (chance(0.3)) entries.push(['domain', pick(['payments', 'a: b', 'x\ny'])]);
    entries.push(['reversibility', 'unknown'], ['blastRadius', 'component'], ['supersedes', chance(0.7) ? [] : ['0001', 'payments:0012']]);
    if (chance(0.2)) entries.push(['supersededBy', '0043']);
    entries.push(['relatesTo', []], ['conflictsWith', []]);
    entries.push(['affects', chance(0.5) ? [] : [
      objectOf([['type', 'path'], ['pattern', pick(['src/**', '*.ts', '!dist/**', '**/[a-z]*.{js,ts}', '@scope/pkg', '#x'])], ['negate', chance(0.5)]]),
      objectOf([['type', 'package'], ['pattern', 'react@>=19'], ['negate', false], ['note', 'pinned: see "docs"']]),
    ]]);
    entries.push(['assertions', chance(0.8) ? [] : [objectOf([['id', 'no-mongo'], ['engine', 'grep'], ['expression', pick(['mongodb', '^import .*mongo', 'a|b', "x: 'y'"])], ['input', 'source'], ['severity', 'error']])]]);
    entries.push(['provenance', objectOf([['authoredBy', 'human'], ['importedFrom', objectOf([
      ['sourceKind', 'madr'], ['sourceRef', pick(['docs/decisions/0001-use-x.md', 'docs/decisions/0002 use: y.md', 'a#b.md'])],
      ['fingerprint', 'sha256:' + below(1 << 30).toString(16).padStart(8, '0').repeat(8)],
    ])]])]);
    if (chance(0.3)) {
      entries.push(['review', objectOf([['tier', 'arb'], ['slaDays', below(30)], ['quorum', 1 + below(3)], ['approvals', ['@alice']],
        ['objections', [objectOf([['by', '@bob'], ['summary', pick(['too slow', 'see: RFC 12', 'line one\nline two'])], ['resolved', false]])]]])]);
    }
    if (chance(0.3)) {
      entries.push(['evaluation', objectOf([['ranAt', '2026-05-12T10:00:00Z'], ['scores', objectOf([['clarity', below(5)], ['risk', pick([0, -0, 0.5, 3.25, 4])], ['10', 1], ['2', 2]])],
        ['confidence', pick([0, -0, 0.1, 0.75, 1])], ['escalate', chance(0.5)], ['escalationReasons', ['one-way-door']], ['deterministicFindings', []]])]);
    }
    entries.push(['externalRefs', chance(0.7) ? [] : [objectOf([['type', 'issue'], ['url', 'https://example.com/issues/1?a=b#c'], ['label', 'Issue #1']])]]);
    entries.push(['complianceControls', chance(0.7) ? [] : ['SOC2 CC8.1', 'ISO 27001 A.8.25']]);
    if (chance(0.2)) entries.push(['reviewBy', '2027-01-01']);
    out.push(objectOf(entries));
  }
  return out;
}

function randomGroups() {
  const groups = [];
  const strings = [];
  for (let i = 0; i < 900; i += 1) {
    const s = chance(0.15) ? randomString(40) : randomString(10);
    strings.push(objectOf([[pick(['v', 'title', 'note']), s]]));
  }
  groups.push({ id: 'random-string-values', why: 'seeded random strings over every character class, as values', values: strings });
  const keys = [];
  for (let i = 0; i < 500; i += 1) keys.push(objectOf([[randomString(8), randomScalar()]]));
  groups.push({ id: 'random-keys', why: 'seeded random strings as keys, with random scalar values', values: keys });
  const implicit = [];
  for (let i = 0; i < 300; i += 1) {
    const s = numericLike();
    implicit.push(chance(0.5) ? objectOf([['v', s]]) : objectOf([[s, s]]));
  }
  groups.push({ id: 'random-implicit-types', why: 'strings shaped like numbers, booleans and nulls of the core schema, and near misses', values: implicit });
  const numbers = [];
  for (let i = 0; i < 200; i += 1) numbers.push(objectOf([['n', randomNumber()], ['l', [randomNumber(), randomNumber()]]]));
  groups.push({ id: 'random-numbers', why: 'seeded random doubles: integers, fractions, tiny and huge magnitudes', values: numbers });
  const docs = [];
  for (let i = 0; i < 800; i += 1) {
    const n = 1 + below(5);
    const entries = [];
    const seen = new Set();
    for (let j = 0; j < n; j += 1) {
      const key = randomKey();
      if (seen.has(key)) continue;
      seen.add(key);
      entries.push([key, randomValue(4)]);
    }
    docs.push(objectOf(entries));
  }
  groups.push({ id: 'random-documents', why: 'seeded random maps nested up to five levels: maps, lists and scalars of every kind', values: docs });
  return groups;
}

// -- encoding, reading back, writing ---------------------------------------------------------

function encode(value) {
  if (typeof value === 'number') {
    if (Object.is(value, -0) || !Number.isFinite(value)) {
      return { $type: 'number', value: Object.is(value, -0) ? '-0' : String(value) };
    }
    return value;
  }
  if (Array.isArray(value)) return value.map(encode);
  if (value && typeof value === 'object') {
    return objectOf(Object.keys(value).map((key) => [key.startsWith('$') ? '$' + key : key, encode(value[key])]));
  }
  return value;
}

function deepSame(a, b) {
  if (typeof a === 'number' || typeof b === 'number') return Object.is(a, b);
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepSame(x, b[i]));
  if (a && typeof a === 'object') {
    if (!b || typeof b !== 'object' || Array.isArray(b) || Object.getPrototypeOf(b) !== Object.prototype) return false;
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k, i) => k === kb[i] && deepSame(a[k], b[k]));
  }
  return a === b;
}

// How the reference reads the output back as frontmatter: {value} or {error: stage, code}.
function readBack(output) {
  const doc = YAML.parseDocument(output, { strict: true, prettyErrors: false });
  if (doc.errors.length > 0) return { error: 'parse', code: doc.errors[0].code };
  try {
    return { value: doc.toJS() };
  } catch (error) {
    return { error: 'toJS', code: error.name };
  }
}

function record(value) {
  const output = YAML.stringify(value, OPTIONS);
  const back = readBack(output);
  const same = 'value' in back && deepSame(back.value, value);
  const out = { value: encode(value), output, readsBack: same };
  if (!same) out.back = 'value' in back ? { value: encode(back.value) } : back;
  return out;
}

const groups = handGroups().concat(randomGroups()).map((group) => ({
  id: group.id,
  why: group.why,
  cases: group.values.map(record),
}));
const caseCount = groups.reduce((sum, group) => sum + group.cases.length, 0);

const header = {
  format: 'adrkit-vectors/yaml-stringify@1',
  generator: 'tools/record_yaml_stringify.mjs',
  seed: SEED,
  library: { name: 'yaml', version: VERSION },
  options: OPTIONS,
  semantics: 'stringify(value, {lineWidth: 0, sortMapEntries: false}) as renderMigratedContent of @adrkit/core calls it (the caller trims the end); output is the untrimmed text. readsBack: parseDocument(output, {strict: true, prettyErrors: false}).toJS() deep-equals value; back: what it gives otherwise. Values use the encoding described at the top of the generator.',
  caseCount,
};
let text = '{\n';
for (const [key, value] of Object.entries(header)) text += `  ${JSON.stringify(key)}: ${JSON.stringify(value)},\n`;
text += '  "groups": [\n';
groups.forEach((group, gi) => {
  text += `    {\n      "id": ${JSON.stringify(group.id)},\n      "why": ${JSON.stringify(group.why)},\n      "cases": [\n`;
  text += group.cases.map((c) => '        ' + JSON.stringify(c)).join(',\n');
  text += `\n      ]\n    }${gi < groups.length - 1 ? ',' : ''}\n`;
});
text += '  ]\n}\n';
writeFileSync(outPath, text);
process.stdout.write(`${caseCount} cases, ${groups.length} groups -> ${outPath}\n`);
