#!/usr/bin/env python3
"""Recorder of the CLI pack: the reference CLI's `lint`, `graph`, `new`, `explain` and `check` on
written corpora.

For each corpus below and each of its command lines, on a fresh copy of the corpus: run the
reference CLI in the corpus folder (or its `cwd` subfolder), record its exit status, stdout, stderr
and, when the run changed it, the file tree after it. The pack goes to tests/cli-pack/
(cases/<corpus>.json, MANIFEST.sha256); tests/_cli_pack.py describes the format,
tests/cli-pack/README.md what is recorded and normalised, and tests/test_cli_pack.py replays it
against this project's commands. Standard library only; not run by CI (the reference is not
installable from a package registry). The reference is built as tools/record_migrate_pack.py's
docstring says (github.com/mbeacom/adrkit at dc10ecc, @adrkit/cli 0.8.0, Bun 1.4.5).

  python3 tools/record_cli_pack.py \\
      --reference "/tmp/bunbin/node_modules/.bin/bun /tmp/adrkit-ref/packages/cli/src/index.ts"
  python3 tools/record_cli_pack.py --reference "..." --only lint-findings

  --reference CMD   the reference CLI's command line (shell-split); required
  --out DIR         where the pack goes (default: tests/cli-pack next to tools/)
  --only NAME       record only this corpus (repeatable); the other case files are kept
  --user NAME       the unprivileged account for the permission cases when the recorder runs as
                    root (default nobody; through `runuser -u NAME --`)
  --timeout S       seconds one reference run may take (default 120)
  --manifest-only   only rewrite MANIFEST.sha256 (after editing the pack README)

Adding a corpus: a function decorated with @corpus(name, description, features, args=[...]) that
returns {path: str | bytes | File | Link | Dir | Fifo}; each entry of `args` is one command line
(its first word the command). `cwd` runs them in a subfolder; `unprivileged` runs them as --user
on a copy that user owns. The runs get PATH, a scratch HOME, LANG=C.UTF-8 and TZ=UTC; the case
folder's absolute path is stored as `{root}`, and a file a run creates has its `date: <today>`
line stored as `date: {today}`.
"""

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
import _cli_pack as pack  # noqa: E402  (the pack's format lives with the tests that read it)
from _child_env import child_env  # noqa: E402

sys.path.insert(0, HERE)
from record_migrate_pack import Dir, File, Link, _entries_from_build, _remove, _write_manifest  # noqa: E402

DEFAULT_OUT = os.path.join(HERE, "..", "tests", "cli-pack")


class Fifo(object):
    """A named pipe in the corpus (POSIX)."""


CORPORA = []


def corpus(name, description, features, args, cwd="", unprivileged=False):
    def register(build):
        CORPORA.append(dict(name=name, description=description, features=features, args=args, cwd=cwd,
                            unprivileged=unprivileged, build=build))
        return build
    return register


def record(ident, title, status="proposed", date="2025-01-01", extra="", body="Body.\n", newline="\n",
           deciders=None):
    """An adrkit record: the fields given, then `extra` YAML lines, then the body."""
    lines = ["---"]
    if ident is not None:
        lines.append('id: "%s"' % ident)
    if title is not None:
        lines.append("title: %s" % json.dumps(title, ensure_ascii=False))
    if status is not None:
        lines.append("status: %s" % status)
    if date is not None:
        lines.append('date: "%s"' % date)
    if deciders is not None:
        lines.append("deciders: %s" % json.dumps(deciders))
    text = "\n".join(lines) + "\n" + extra + "---\n" + body
    return text.replace("\n", newline)


def adr(*pairs):
    return {"docs/adr/" + name: text for name, text in pairs}


def accepted(ident, title, extra=""):
    return record(ident, title, "accepted", deciders=["@alice"], extra=extra)


LINT = [["lint"], ["lint", "--json"]]
GRAPH = [["graph"], ["graph", "--format", "json"]]


# ---------------------------------------------------------------------------
# lint and graph
# ---------------------------------------------------------------------------

@corpus("clean", "Three valid records, a README, an index and the template: nothing to report",
        ["lint", "graph", "valid"], LINT + GRAPH + [["lint", "docs/adr"], ["lint", "docs/adr/0002-second.md"],
                                                    ["graph", "--format=dot"], ["lint", "--dir", "docs/adr/"]])
def _clean():
    files = adr(("0001-first.md", accepted("0001", "First decision")),
                ("0002-second.md", record("0002", "Second decision")),
                ("0003-third.md", record("0003", "Third decision", "draft")),
                ("README.md", "# Decisions\n"), ("index.md", "# Index\n"),
                ("0000-template.md", "# Template\n"), ("template.md", "# Template\n"))
    return files


@corpus("findings", "Records with every finding: fences, YAML errors, unknown keys, required fields, "
        "enums, formats, sizes, cross-field rules, duplicate ids, dangling references, conflicts, "
        "imports, encodings (BOM, CRLF, invalid UTF-8, NUL), empty files, skipped Markdown",
        ["lint", "graph", "findings", "encodings", "skipped"], LINT + GRAPH)
def _findings():
    return adr(
        ("0001-no-fence.md", "# Just a heading\n"),
        ("0002-unterminated.md", "---\nid: \"0002\"\ntitle: Never closed\n"),
        ("0003-bad-yaml.md", "---\nid: \"0003\"\ntitle: [unclosed\n---\nBody\n"),
        ("0004-unknown-key.md", record("0004", "Unknown key", extra="colour: blue\nnested:\n  a: 1\n")),
        ("0005-missing-fields.md", "---\nid: \"0005\"\n---\nBody\n"),
        ("0006-bad-enum.md", record("0006", "Bad status", "maybe")),
        ("0007-bad-date.md", record("0007", "Bad date", date="2025-13-45")),
        ("0008-short-title.md", record("0008", "ab")),
        ("0009-superseded-alone.md", record("0009", "Superseded alone", "superseded")),
        ("0010-successor-not-superseded.md", record("0010", "Has a successor", extra='supersededBy: "0001"\n')),
        ("0011-accepted-nobody.md", record("0011", "Accepted by nobody", "accepted")),
        ("0012-agent-accepted.md", record("0012", "Agent accepted", "accepted", deciders=["@bob"],
                                          extra="provenance:\n  authoredBy: agent\n")),
        ("0013-one-way-auto.md", record("0013", "One way door on auto", deciders=["@bob"],
                                        extra="reversibility: one-way-door\nreview:\n  tier: auto\n")),
        ("0014-duplicate.md", record("0014", "First of a pair")),
        ("0014-duplicate-too.md", record("0014", "Second of a pair")),
        ("0015-dangling.md", record("0015", "Dangling references",
                                    extra='supersedes: ["0099"]\nrelatesTo: ["0098"]\nconflictsWith: ["0097"]\n')),
        ("0016-accepted-conflict.md", accepted("0016", "Accepted with a conflict", 'conflictsWith: ["0017"]\n')),
        ("0017-conflicted.md", record("0017", "Conflicted")),
        ("0018-imported.md", record("0018", "Imported without deciders", "accepted",
                                    extra="provenance:\n  authoredBy: human\n  importedFrom:\n    sourceKind: madr\n"
                                          "    sourceRef: doc/adr/0018.md\n    fingerprint: abc\n")),
        ("0036-imported-bad.md", record("0036", "Imported with a bad source", "accepted",
                                        extra="provenance:\n  importedFrom:\n    sourceKind: scroll\n")),
        ("0019-duplicate-deciders.md", record("0019", "Duplicate deciders", deciders=["@a", "@a"])),
        ("0020-bom.md", b"\xef\xbb\xbf" + record("0020", "Byte order mark").encode("utf-8")),
        ("0021-crlf.md", record("0021", "Windows line ends", newline="\r\n")),
        ("0022-invalid-utf8.md", record("0022", "Invalid \udcff UTF-8").encode("utf-8", "surrogateescape")),
        ("0023-empty.md", ""),
        ("0024-nul.md", record("0024", "A NUL in the body", body="A NUL \u0000 byte\n")),
        ("0025-bad-id.md", record("id-with-letters", "A bad id")),
        ("0026-list-frontmatter.md", "---\n- a\n- b\n---\nBody\n"),
        ("0027-scalar-frontmatter.md", "---\njust text\n---\n"),
        ("0028-null-frontmatter.md", "---\n---\nBody\n"),
        ("0029-wrong-types.md", record("0029", "Wrong types", extra="tags: notalist\ndeciders: 7\n")),
        ("misnamed.md", record("0030", "Misnamed")),
        ("1-too-short.md", record("0031", "Too few digits")),
        ("0032-upper.MD", record("0032", "Upper case suffix")),
        (".hidden.md", record("0033", "Hidden")),
        ("nested/0034-nested.md", record("0034", "Nested")),
        ("nested/deeper/notes.md", "# Notes\n"),
        ("nested/README.md", "# Nested readme\n"),
        (".dotfolder/0035-in-dot.md", record("0035", "In a dot folder")),
        ("a/b/c/d/e/f/g/h/i/deep.md", "# Nine deep\n"),
        ("a/b/c/d/e/f/g/h/eight.md", "# Eight deep\n"),
        ("notes.txt", "not markdown\n"),
    )


@corpus("links-and-pipes", "Symlinks to records and folders (never read by discovery), a dangling link, "
        "a FIFO named like a record, a folder named like a record",
        ["lint", "graph", "symlinks", "fifo"],
        LINT + GRAPH + [["lint", "docs/adr/0002-link.md", "--json"], ["lint", "docs/adr/0004-fifo.md"],
                        ["lint", "docs/adr/0005-folder.md"], ["lint", "docs/adr/0006-dangling.md"]])
def _links():
    files = adr(("0001-real.md", record("0001", "A real record")),
                ("0002-link.md", Link("0001-real.md")),
                ("0003-outside-link.md", Link("../../elsewhere/0003-outside.md")),
                ("0004-fifo.md", Fifo()),
                ("0005-folder.md/0007-inside.md", record("0007", "Inside a folder named like a record")),
                ("0006-dangling.md", Link("missing.md")),
                ("linked-folder", Link("../../elsewhere")),
                ("skipped-link.md", Link("0001-real.md")))
    files["elsewhere/0003-outside.md"] = record("0003", "Outside the folder")
    files["elsewhere/loose.md"] = "# Loose\n"
    return files


@corpus("lint-paths", "lint with paths: files, folders, a missing file, a file outside the ADR folder, "
        "the same file twice, `.`, an absolute-looking relative path, a folder with misnamed Markdown, "
        "--dir with paths (checked only when given)",
        ["lint", "paths", "dir"],
        [["lint", "docs/adr/0001-one.md", "docs/adr/0001-one.md"], ["lint", "missing.md"],
         ["lint", "missing.md", "--json"], ["lint", "other/0009-other.md", "docs/adr"],
         ["lint", "other"], ["lint", "other", "--json"], ["lint", "."], ["lint", "docs"],
         ["lint", "docs/adr/../adr/0002-two.md"], ["lint", "notes.md"],
         ["lint", "docs/adr/0001-one.md", "--dir", "nowhere"], ["lint", "docs/adr/0001-one.md", "--dir=nowhere"],
         ["lint", "docs/adr/0001-one.md", "--dir", "other"], ["lint", "--", "--json"],
         ["lint", "docs/adr/0001-one.md", "--dir", ""], ["lint", "--dir", ""],
         ["lint", "docs/adr/0001-one.md", "--", "--dir", "nowhere"]])
def _lint_paths():
    files = adr(("0001-one.md", record("0001", "One")), ("0002-two.md", record("0002", "Two", "accepted")),
                ("stray.md", "# Stray\n"))
    files["other/0009-other.md"] = record("0009", "Other folder")
    files["other/loose.md"] = "# Loose\n"
    files["other/sub/deeper.md"] = "# Deeper\n"
    files["notes.md"] = "# Not a record\n"
    files["0005-top.md"] = record("0005", "At the top")
    return files


@corpus("graph-relations", "Every relation (supersedes, supersededBy, relatesTo, conflictsWith), edges to "
        "missing ids dropped, an edge given twice, titles with quotes, backslashes, newlines and CR, "
        "ULIDs in both cases, ids in localeCompare order",
        ["graph", "lint", "relations", "ordering"], GRAPH + [["lint", "--json"]])
def _graph_relations():
    return adr(
        ("0001-old.md", record("0001", 'The "old" way', "superseded", extra='supersededBy: "0002"\n')),
        ("0002-new.md", accepted("0002", "The new way \\ with a backslash",
                                 'supersedes: ["0001", "0404"]\nrelatesTo: ["0003", "0003x"]\n')),
        ("0003-related.md", record("0003", "Line one\nline two", extra='relatesTo: ["0002"]\nconflictsWith: ["0004"]\n')),
        ("0004-conflict.md", record("0004", "Carriage\rreturn", extra='conflictsWith: ["0003", "0404"]\n')),
        ("0005-ulid-upper.md", record("01ARZ3NDEKTSV4RRFFQ69G5FAV", "An upper-case ULID",
                                      extra='relatesTo: ["01arz3ndektsv4rrffq69g5fav"]\n')),
        ("0006-ulid-lower.md", record("01arz3ndektsv4rrffq69g5fav", "A lower-case ULID")),
        ("0007-unicode.md", record("0007", "Caf\u00e9 \u00e9t\u00e9 \u2014 \U0001F680 rocket")),
        ("10000-big.md", record("10000", "Five digits")),
        ("0010-ten.md", record("0010", "Ten")),
        ("0011-duplicate.md", record("0010", "Ten again")),
    )


@corpus("odd-names", "Names that are not UTF-8 (read by the reference as U+FFFD, then not found), with a "
        "newline, U+2028, combining marks, emoji and upper case; a title holding a lone surrogate (a YAML "
        "escape), written as U+FFFD by the runtime",
        ["lint", "graph", "names", "encodings"], LINT + GRAPH)
def _odd_names():
    return adr(("0001-\udcff.md", record("0001", "Not UTF-8 in the name")),
               ("\udcfe-notes.md", "# Notes\n"),
               ("0002-\udce2\udc82.md", record("0002", "A cut sequence")),
               ("0003-a\nb.md", record("0003", "A newline in the name")),
               ("0004-a\u2028b.md", record("0004", "A line separator in the name")),
               ("0005-cafe\u0301.md", record("0005", "Combining mark")),
               ("0005-caf\u00e9.md", record("0006", "Precomposed")),
               ("0007-\U0001F680.md", record("0007", "Emoji name")),
               ("0008-UPPER.md", record("0008", "Upper case name")),
               ("0009-lone.md", '---\nid: "0009"\ntitle: "Lone \\ud800 half"\nstatus: draft\ndate: "2025-01-01"\n---\n'),
               ("0010-astral.md", record("0010", "Astral \U0001F680 title")))


# ---------------------------------------------------------------------------
# The ADR folder: missing, a file, empty, elsewhere
# ---------------------------------------------------------------------------

@corpus("corpus-dir", "The ADR folder missing, a file, empty, given with a trailing slash, `..`, a symlink "
        "to a folder elsewhere, outside the folder the command runs in",
        ["lint", "graph", "new", "dir", "usage"],
        [["lint", "--dir", "nowhere"], ["lint", "--dir", "nowhere", "--json"], ["graph", "--dir", "nowhere"],
         ["lint", "--dir", "file.md"], ["graph", "--dir", "file.md"], ["lint", "--dir", "empty"],
         ["graph", "--dir", "empty", "--format", "json"], ["lint", "--dir", "docs/adr/"],
         ["lint", "--dir", "missing/../docs/adr"], ["lint", "--dir", "linked"], ["graph", "--dir", "linked"],
         ["lint", "--dir", "nowhere/deeper"], ["lint", "--dir", "docs/adr/0001-one.md"],
         ["lint", "--dir", "."], ["graph", "--dir", ""]])
def _corpus_dir():
    files = adr(("0001-one.md", record("0001", "One")), ("stray.md", "# Stray\n"))
    files["file.md"] = "# A file\n"
    files["empty"] = Dir()
    files["linked"] = Link("elsewhere/adr")
    files["elsewhere/adr/0007-far.md"] = record("0007", "Far away")
    files["0100-top-level.md"] = record("0100", "At the top level")
    return files


@corpus("outside-cwd", "Run in a subfolder with --dir outside it: display paths start with ../",
        ["lint", "graph", "dir"], [args + ["--dir", "../docs/adr"] for args in LINT + GRAPH] + [["lint", "../docs/adr/0001-one.md"]],
        cwd="work")
def _outside():
    files = adr(("0001-one.md", record("0001", "One")), ("0002-two.md", record("0002", "Two", extra="bogus: 1\n")),
                ("loose.md", "# Loose\n"))
    files["work/README.md"] = "# Work\n"
    return files


# ---------------------------------------------------------------------------
# new
# ---------------------------------------------------------------------------

@corpus("new-titles", "new: titles of every shape (accents, no ASCII, 2, 3, 120 and 121 UTF-16 units, "
        "emoji, several words, spaces around, quotes and backslashes, a newline inside), --status, --json",
        ["new", "slug", "status", "json"],
        [["new", "Use PostgreSQL for orders"], ["new", "Use", "several", "words", "--json"],
         ["new", "  Spaces around  "], ["new", "Caf\u00e9 d\u00e9j\u00e0 vu \u00c5ngstr\u00f6m"],
         ["new", "\u65e5\u672c\u8a9e\u306e\u30bf\u30a4\u30c8\u30eb"], ["new", "ab"], ["new", "abc"],
         ["new", "x" * 120], ["new", "x" * 121], ["new", "\U0001F680" * 60], ["new", "\U0001F680" * 61],
         ["new", 'Quotes "double" and \\ backslash: yes'], ["new", "line one\nline two"],
         ["new", "Tab\tinside"], ["new", "A" + "-" * 100 + "B" * 10], ["new", "b" * 79 + "--" + "c" * 5],
         ["new", "Status", "--status", "proposed"], ["new", "Status", "--status", "accepted"],
         ["new", "Status", "--status", "superseded"], ["new", "Status", "--status", "bogus"],
         ["new", "Status", "--status", ""], ["new", "Status", "--status=rejected", "--json"],
         ["new", "Status", "--status", "Draft"], ["new", "Ligature \ufb01 and \u2460 circled"],
         ["new", "#"], ["new", "\u00a0\u2003 Wide spaces \u3000"], ["new", "--", "--json"],
         ["new", "Title: with colon # and hash"], ["new", "null"], ["new", "yes"]])
def _new_titles():
    return adr(("0001-existing.md", record("0001", "Existing")), ("0009-nine.md", record("0009", "Nine")),
               ("README.md", "# Decisions\n"))


@corpus("new-ids", "new: the next id from the records' names only (not links, folders, misnamed files), "
        "an existing name (a dangling link, a folder) refused with exit 1, a missing ADR folder created",
        ["new", "ids", "exists", "dir"],
        [["new", "Use the next id"], ["new", "Taken by a link"], ["new", "Taken by a folder"],
         ["new", "Into a new folder", "--dir", "fresh/adr"], ["new", "Into the top", "--dir", "."],
         ["new", "Into a file", "--dir", "docs/adr/0003-file-like.md"], ["new", "Empty dir", "--dir", ""],
         ["new", "Beside", "--dir", "other", "--json"]])
def _new_ids():
    files = adr(("0003-file-like.md", record("0003", "Three")), ("0002-b.md", record("0002", "Two")),
                ("0004-taken-by-a-link.md", Link("nowhere.md")), ("0900-linked.md", Link("0003-file-like.md")),
                ("0800-dir.md/x.md", "# x\n"), ("99-short.md", "# short\n"), ("5000-misnamed.txt", "x\n"))
    files["docs/adr/0004-taken-by-a-folder.md"] = Dir()
    files["docs/adr/0008-taken-by-a-folder.md/keep.md"] = "# keep\n"
    files["other/12-x.md"] = "# twelve\n"
    return files


@corpus("new-big-ids", "new: the next id past 2**53 and past 1e21 (a JavaScript number's text)",
        ["new", "ids"], [["new", "Past the big one", "--json"]])
def _new_big():
    return adr(("99999999999999999999-big.md", record("0001", "Big")))


@corpus("new-exponent-id", "new: a next id that prints in exponent form is refused by the schema",
        ["new", "ids", "usage"], [["new", "Past the exponent"]])
def _new_exponent():
    return adr(("1000000000000000000000-huge.md", record("0001", "Huge")))


# ---------------------------------------------------------------------------
# Help and usage errors
# ---------------------------------------------------------------------------

HELP_ARGS = []
for _command in ("lint", "graph", "new", "explain", "check"):
    HELP_ARGS += [[_command, "--help"], [_command, "-h"], [_command, "x", "--help"], [_command, "--", "--help"],
                  [_command, "--bogus", "--help"], [_command, "--dir", "--help"]]
USAGE_ARGS = [
    ["lint", "--bogus"], ["lint", "--json=1"], ["lint", "--json="], ["lint", "--dir"], ["lint", "--dir", "--json"],
    ["lint", "-x"], ["lint", "-abc"], ["lint", "--=x"], ["lint", "--no-json"], ["lint", "--dir", "-"],
    ["lint", "--JSON"], ["lint", "--format", "json"], ["lint", "-\U0001F600"],
    ["graph", "extra"], ["graph", "--format", "svg"], ["graph", "--format"], ["graph", "--format="],
    ["graph", "--format", "JSON"], ["graph", "--json"], ["graph", "x", "--format", "svg"],
    ["graph", "--format", "dot", "--format", "json"], ["graph", "--", "x"],
    ["new"], ["new", "   "], ["new", "--status"], ["new", "--json"], ["new", "x", "--status", "--json"],
    ["new", "--title", "x"], ["new", "Valid title", "--bogus"], ["new", "", ""],
    ["explain"], ["explain", "a", "b"], ["explain", ""], ["explain", "--json"], ["explain", "a", "--bogus"],
    ["explain", "--dir"], ["explain", "--", "--json"], ["check", "--bogus"], ["check", "--json=x"],
    ["check", "--dir"], ["check", "--", "--json"],
]


@corpus("help-and-usage", "Each command's --help and -h (anywhere, even after --), and usage errors: "
        "Node's parseArgs messages, the commands' own",
        ["help", "usage", "exit-status"], HELP_ARGS + USAGE_ARGS)
def _help():
    return adr(("0001-one.md", record("0001", "One")))


# ---------------------------------------------------------------------------
# explain and check: source markers (the reference's packages/core/src/markers)
# ---------------------------------------------------------------------------

def _sized(size, marker=b"// @adr 0001", terminator=b"\n"):
    """`size` bytes: a marker line, 71-byte lines, then filler without a line break."""
    line = marker + terminator
    if size < len(line):
        return line[:size]
    pad = b"x" * 70 + terminator
    body = line + pad * ((size - len(line)) // len(pad))
    return body + b"y" * (size - len(body))


def _governed():
    """Records of every status, reached by patterns (several per record) and by markers."""
    return adr(("0001-sync.md", accepted("0001", "Sync engine", 'affects:\n  - type: path\n    pattern: "src/**"\n'
                                         '  - type: path\n    pattern: "src/*.ts"\n  - type: path\n'
                                         '    pattern: "src/_*"\n  - type: path\n    pattern: "Src/**"\n'
                                         '  - type: path\n    pattern: "src/A*"\n  - type: path\n'
                                         '    pattern: "src/a*"\n  - type: path\n    pattern: "src/-*"\n'
                                         '  - type: package\n    pattern: "left-pad@^1"\n')),
               ("0002-queue.md", record("0002", "Queue proposal", extra='affects:\n  - type: path\n'
                                        '    pattern: "lib/**"\n')),
               ("0003-old-sync.md", record("0003", "Old sync", "superseded", extra='supersededBy: "0001"\n')),
               ("0004-rejected.md", record("0004", "Rejected idea", "rejected")),
               ("0005-deprecated.md", record("0005", "Deprecated way", "deprecated")),
               ("0006-draft.md", record("0006", "Draft thought", "draft", extra='affects:\n  - type: path\n'
                                        '    pattern: "src/**"\n  - type: path\n    pattern: "!src/skip/**"\n')),
               ("01ARZ3NDEKTSV4RRFFQ69G5FAV-ulid.md", record("01ARZ3NDEKTSV4RRFFQ69G5FAV", "A ULID record")))


MARKER_STYLES = {
    "src/styles.ts": b"// @adr 0001\n/* @adr 0002 */\n{/* @adr 0003 */}\n * @adr 0004\n# @adr 0005\n"
                     b"-- @adr 0006\n; @adr 0009\n% @adr 01ARZ3NDEKTSV4RRFFQ69G5FAV\n",
    "src/more.py": b'#!/usr/bin/env python3\n""" @adr 0001\n\'\'\' @adr 0002, 0003 ,0004\n\t#\t@adr\t0005\n'
                   b"x = 1  # @adr 0006\n//@adr 0004\n// @adr0004\n// @adrkit/core\n// @ADR 0004\n",
    "src/refs.ts": b"// @adr 0001 0002\n// @adr 01\n// @adr 0003, nope, 0004\n// @adr 00123x\n// @adr 0005,\n"
                   b"// @adr payments:0001, 0002\n// @adr A:0001\n// @adr -a:0001\n// @adr 0009:0002\n"
                   b"// @adr 01arz3ndektsv4rrffq69g5fav\n// @adr 0001\n",
    "src/fenced.ts": b"```\n// @adr 0001\n```\n// @adr 0002\n~~~\n// @adr 0003\n```\n// @adr 0004\n~~~\n"
                     b"````\n// @adr 0005\n```\n// @adr 0006\n````\n   ```js`x\n// @adr 0004\n    ```\n// @adr 0005\n",
    "docs/guide.md": b"# @adr 0001\n* @adr 0002\n<!-- @adr 0003 -->\n{/* @adr 0004 */}\n// @adr 0005\n"
                     b"```\n<!-- @adr 0006 -->\n```\n",
    "docs/page.MDX": b"{/* @adr 0001 */}\n<!-- @adr 0002 -->\n# @adr 0003\n",
    "docs/notes.markdown": b"<!-- @adr 0005 -->\n",
    "src/crlf.ts": b"// @adr 0001\r\n// @adr 0002\r\n\r// @adr 0003\r// @adr 0009\n",
    "src/bom.ts": b"\xef\xbb\xbf// @adr 0002\n",
    "src/two-boms.ts": b"\xef\xbb\xbf\xef\xbb\xbf// @adr 0002\n",
    "src/bom-fence.ts": b"\xef\xbb\xbf```\n// @adr 0001\n```\n// @adr 0002\n",
    "src/latin1.ts": b"\xff\xfe// @adr 0001\n\xe9t\xe9 // @adr 0002\n// @adr 0004\xff\n\xed\xa0\x80// @adr 0005\n",
    "src/nul.ts": b"\x00// @adr 0001\n// @adr 0006\x00\n",
    "src/empty.ts": b"",
    "src/plain.ts": b"export const x = 1;\n",
    "lib/queue.ts": b"// nothing declared here\n",
    "src/skip/a.ts": b"// @adr 0004\n",
}


@corpus("markers-styles", "explain and check over every comment introducer, markdown's own (<!--, {/*), "
        "fences, ref lists and logs, ULIDs, dangling ids, CRLF, lone CR, BOMs, invalid UTF-8, NUL; records "
        "of every status reached by patterns (firedMatchers in localeCompare order), markers or both",
        ["explain", "check", "markers", "encodings", "firedMatchers"],
        [["explain", path] for path in sorted(MARKER_STYLES)]
        + [["explain", path, "--json"] for path in sorted(MARKER_STYLES)]
        + [["explain", "src/Ab.ts"], ["explain", "./src/styles.ts", "--json"], ["explain", "lib/queue.ts", "--json"],
           ["check"] + sorted(MARKER_STYLES), ["check", "--json"] + sorted(MARKER_STYLES),
           ["check", "src/styles.ts", "./src/styles.ts", "src//styles.ts", "src/refs.ts", "src/refs.ts"],
           ["check", "--json", "src/styles.ts", "./src/styles.ts", "src/refs.ts", "docs/adr/0002-queue.md"],
           ["check", "src/plain.ts", "src/skip/a.ts", "--json"], ["check"], ["check", "--json"],
           ["check", "src/Ab.ts", "src/_x.ts", "Src/a.ts", "src/-x.ts", "src/ab.ts", "--json"]])
def _markers_styles():
    files = _governed()
    files.update(MARKER_STYLES)
    return files


WINDOW_SIZES = (0, 1, 12, 13, 8190, 8191, 8192, 8193, 8194, 9000, 16384, 100000)


def _window_files():
    files = {}
    for size in WINDOW_SIZES:
        files["src/lf-%06d.ts" % size] = _sized(size)
        files["src/cr-%06d.ts" % size] = _sized(size, terminator=b"\r")
        files["src/crlf-%06d.ts" % size] = _sized(size, terminator=b"\r\n")
    for offset in (-14, -13, -12, -1, 0, 1):
        head = b"x" * (8192 + offset - 13) + b"\n"
        files["src/edge%+03d.ts" % offset] = head + b"// @adr 0002\n" + b"z" * 50
        files["src/cut%+03d.ts" % offset] = head + b"// @adr 00021\n"
    files["src/no-newline.ts"] = b"// @adr 0001" + b"x" * 9000
    files["src/past-window.ts"] = b"// @adr 0001\n" + b"x\n" * 5000 + b"// @adr 0002\n"
    files["src/multibyte.ts"] = b"\xc3\xa9" * 4095 + b"\n// @adr 0002\n" + b"\xe2\x82\xac" * 10
    files["src/euro-cut.ts"] = b"\n" + b"\xe2\x82\xac" * 2731 + b"\n// @adr 0002\n"
    files["src/bom-big.ts"] = b"\xef\xbb\xbf// @adr 0002\n" + b"y" * 9000
    files["docs/big.md"] = b"<!-- @adr 0001 -->\n" + b"text\n" * 3000
    return files


@corpus("markers-window", "explain and check over files of every size class around the 8,192-byte header "
        "window (LF, CR, CRLF), a marker on the window's last complete line and on the line it severs, no "
        "line break at all, a marker past the window, multi-byte characters at the cut, a BOM",
        ["explain", "check", "markers", "window"],
        [["explain", path, "--json"] for path in sorted(_window_files())]
        + [["explain", path] for path in ("src/lf-008193.ts", "src/lf-100000.ts", "src/no-newline.ts",
                                          "src/past-window.ts", "src/edge+01.ts", "src/lf-008192.ts")]
        + [["check"] + sorted(_window_files()), ["check", "--json"] + sorted(_window_files())])
def _markers_window():
    files = _governed()
    files.update(_window_files())
    return files


SPECIAL_PATHS = ["src/real.ts", "src/link.ts", "src/dir-link/real.ts", "src/out-link.ts", "src/broken.ts",
                 "src", "src/", "src/pipe", "src/real.ts/x", "missing.ts", "src/missing/x.ts", "", ".", "..",
                 "../outside.ts", "src/../src/real.ts", "x/../src/real.ts", "a/../..", "/etc/hostname",
                 "src\\real.ts", "src/back\\slash.ts", "docs/adr/0001-sync.md", ".git/HEAD"]


@corpus("markers-special", "explain and check on paths that are not plain files: symlinks (to a file, as a "
        "folder component, out of the tree, broken), folders, a FIFO, a file under a file, missing files, "
        "paths leaving the tree or absolute, backslashes, a record, .git",
        ["explain", "check", "markers", "symlinks", "fifo", "out-of-tree"],
        [["explain", path] for path in SPECIAL_PATHS if path]
        + [["explain", path, "--json"] for path in SPECIAL_PATHS if path]
        + [["check"] + SPECIAL_PATHS, ["check", "--json"] + SPECIAL_PATHS])
def _markers_special():
    files = _governed()
    files["src/real.ts"] = b"// @adr 0002\n"
    files["src/back\\slash.ts"] = b"// @adr 0004\n"
    files["src/sub/real.ts"] = b"// @adr 0005\n"
    files["src/link.ts"] = Link("real.ts")
    files["src/dir-link"] = Link("sub")
    files["src/out-link.ts"] = Link("../../elsewhere/out.ts")
    files["src/broken.ts"] = Link("nowhere.ts")
    files["src/pipe"] = Fifo()
    files["elsewhere/out.ts"] = b"// @adr 0001\n"
    files[".git/HEAD"] = b"ref: refs/heads/main\n"
    return files


@corpus("markers-corpus-errors", "explain and check when the corpus has error findings: explain exits 1 "
        "(findings on stderr, the scan note on stdout); check fails only for a changed record with an error",
        ["explain", "check", "markers", "findings"],
        [["explain", "src/a.ts"], ["explain", "src/a.ts", "--json"], ["explain", "missing.ts"],
         ["explain", "src/big.ts"], ["explain", "src/big.ts", "--json"],
         ["check", "src/a.ts"], ["check", "src/a.ts", "--json"], ["check", "docs/adr/0007-broken.md"],
         ["check", "docs/adr/0007-broken.md", "--json"], ["check", "docs\\adr\\0007-broken.md", "--json"],
         ["check", "docs/adr/0002-queue.md", "docs/adr/0000-template.md", "docs/adr/README.md", "src/a.ts"],
         ["check", "./docs/adr/0007-broken.md"], ["check", "--dir", "docs/adr/", "docs/adr/0007-broken.md"],
         ["check", "--dir", "nowhere", "src/a.ts"], ["explain", "--dir", "nowhere", "src/a.ts"],
         ["check", "--dir", ".", "0007-broken.md"]])
def _markers_corpus_errors():
    files = _governed()
    files["docs/adr/0007-broken.md"] = record("0007", "Broken", "accepted")
    files["docs/adr/0008-bad-yaml.md"] = "---\nid: \"0008\"\ntitle: [oops\n---\n"
    files["docs/adr/0000-template.md"] = "# Template\n"
    files["src/a.ts"] = b"// @adr 0001, 0007, 0008\n"
    files["src/big.ts"] = _sized(20000, b"// @adr 0002")
    return files


@corpus("markers-capped", "check with more than 3,000 distinct paths: the first 3,000 in code-unit order are "
        "scanned, the rest skipped and reported (marker-scan-capped)",
        ["check", "markers", "cap"],
        [["check"] + ["f/%04d.ts" % n for n in range(3012, 0, -1)] + ["./f/0001.ts"],
         ["check", "--json"] + ["f/%04d.ts" % n for n in range(3003)]])
def _markers_capped():
    files = _governed()
    files["f/0001.ts"] = b"// @adr 0002\n"
    files["f/3001.ts"] = b"// @adr 0001\n"
    return files


@corpus("markers-unreadable", "explain and check as an unprivileged user: a file and a folder it may not read",
        ["explain", "check", "markers", "permissions"], unprivileged=True,
        args=[["explain", "src/secret.ts"], ["explain", "src/secret.ts", "--json"], ["explain", "locked/a.ts"],
              ["explain", "locked/gone.ts", "--json"], ["explain", "locked"],
              ["check", "src/secret.ts", "locked/a.ts", "locked/gone.ts", "src/open.ts"],
              ["check", "--json", "src/secret.ts", "locked/a.ts", "locked/gone.ts", "src/open.ts"]])
def _markers_unreadable():
    files = _governed()
    files["src/secret.ts"] = File(b"// @adr 0001\n", 0o000)
    files["src/open.ts"] = b"// @adr 0002\n"
    files["locked/a.ts"] = b"// @adr 0001\n"
    files["locked"] = Dir(0o000)
    return files


# ---------------------------------------------------------------------------
# Permissions (run as an unprivileged user)
# ---------------------------------------------------------------------------

@corpus("unreadable", "An unreadable ADR folder (not readable: exit 2), an unreadable record (a file-read "
        "finding), an unreadable subfolder and a folder given as a path that cannot be listed",
        ["permissions", "dir", "lint", "graph"], unprivileged=True,
        args=LINT + GRAPH + [["lint", "--dir", "locked"], ["graph", "--dir", "locked"],
                             ["lint", "locked"], ["lint", "locked", "--dir", "locked"],
                             ["lint", "docs/adr/0002-secret.md"], ["new", "Into a locked folder", "--dir", "locked"]])
def _unreadable():
    files = adr(("0001-open.md", record("0001", "Open")), ("0002-secret.md", File(record("0002", "Secret"), 0o000)),
                ("sub/inner.md", "# Inner\n"))
    files["docs/adr/sub"] = Dir(0o000)
    files["locked/0001-x.md"] = record("0001", "Locked")
    files["locked"] = Dir(0o000)
    return files


@corpus("read-only-folder", "new in a folder its user may not write: Node's EACCES message, exit 1",
        ["permissions", "new"], unprivileged=True, args=[["new", "Cannot write here"], ["new", "Nor here", "--dir", "ro/sub"]])
def _read_only():
    files = adr(("0001-one.md", record("0001", "One")))
    files["docs/adr"] = Dir(0o555)
    files["ro"] = Dir(0o555)
    return files


# ---------------------------------------------------------------------------
# Recording
# ---------------------------------------------------------------------------

def _entries(tree):
    """(entries, blobs) of a corpus's {path: content}, FIFOs included."""
    fifos = sorted(path for path, content in tree.items() if isinstance(content, Fifo))
    entries, blobs = _entries_from_build({path: content for path, content in tree.items()
                                          if not isinstance(content, Fifo)})
    entries = sorted(entries + [{"path": path, "type": "fifo"} for path in fifos], key=lambda entry: entry["path"])
    return entries, blobs


def _requirements(entries, unprivileged):
    needs = set()
    for entry in entries:
        if entry["type"] == "symlink":
            needs.add("symlinks")
        if entry["type"] == "fifo":
            needs.add("fifos")
        if entry["type"] in ("file", "dir") and int(entry["mode"], 8) not in (0o644, 0o755):
            needs.add("permissions")
    if unprivileged:
        needs.add("unprivileged")
    return sorted(needs)


class Recorder(object):
    def __init__(self, reference, user, timeout):
        self.reference = shlex.split(reference)
        self.timeout = timeout
        self.as_user = None
        if os.geteuid() == 0:
            import pwd
            self.as_user = pwd.getpwnam(user)
        self.home = tempfile.mkdtemp(prefix="adrkit-record-home-")
        os.chmod(self.home, 0o777)

    def run(self, root, cwd, args, unprivileged):
        command = self.reference + list(args)
        if unprivileged and self.as_user is not None:
            command = ["runuser", "-u", self.as_user.pw_name, "--"] + command
        env = child_env(PATH=os.environ.get("PATH", "/usr/bin:/bin"), HOME=self.home, LANG="C.UTF-8", TZ="UTC")
        process = subprocess.run(command, cwd=os.path.join(root, cwd) if cwd else root, env=env,
                                 stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 timeout=self.timeout)
        return process.returncode, _normalise(process.stdout, root), _normalise(process.stderr, root)

    def fresh(self, entries, blobs, unprivileged):
        return pack.fresh_case(entries, blobs, self.as_user if unprivileged else None)

    def record(self, spec):
        entries, blobs = _entries(spec["build"]())
        case = {"name": spec["name"], "description": spec["description"], "features": spec["features"],
                "requires": _requirements(entries, spec["unprivileged"]), "cwd": spec["cwd"], "tree": entries,
                "runs": []}
        for args in spec["args"]:
            base, root = self.fresh(entries, blobs, spec["unprivileged"])
            try:
                today = time.strftime("%Y-%m-%d", time.gmtime())
                status, stdout, stderr = self.run(root, spec["cwd"], args, spec["unprivileged"])
                after = pack.snapshot_tree(root, blobs)
            finally:
                _remove(base)
            run = {"args": list(args), "status": status, "stdout": stdout, "stderr": stderr}
            run.update(pack.stderr_kind(status, stderr))
            if after != entries:
                run["tree"] = pack.normalise_new_files(entries, after, blobs, today)
            case["runs"].append(run)
            print("  %-50s exit %d" % (" ".join(args)[:50], status))
        return pack.dump_case(case, blobs)


def _normalise(data, root):
    text = data.decode("utf-8")
    for spelling in sorted({root, os.path.realpath(root)}, key=len, reverse=True):
        text = text.replace(spelling, pack.ROOT_TOKEN)
    return text


def main(argv=None):
    parser = argparse.ArgumentParser(description="Record the reference CLI's commands on the pack's corpora")
    parser.add_argument("--reference")
    parser.add_argument("--out", default=DEFAULT_OUT)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--user", default="nobody")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--manifest-only", action="store_true")
    options = parser.parse_args(argv)
    if options.manifest_only:
        _write_manifest(options.out)
        return 0
    if not options.reference:
        parser.error("--reference is required (the reference CLI's command line)")
    names = [spec["name"] for spec in CORPORA]
    if len(set(names)) != len(names):
        parser.error("two corpora share a name")
    unknown = sorted(set(options.only) - set(names))
    if unknown:
        parser.error("no corpus named %s" % ", ".join(unknown))
    recorder = Recorder(options.reference, options.user, options.timeout)
    folder = os.path.join(options.out, pack.CASES)
    os.makedirs(folder, exist_ok=True)
    try:
        for spec in CORPORA:
            if options.only and spec["name"] not in options.only:
                continue
            print(spec["name"])
            text = recorder.record(spec)
            with open(os.path.join(folder, spec["name"] + ".json"), "w", encoding="ascii", newline="\n") as handle:
                handle.write(text)
    finally:
        shutil.rmtree(recorder.home, ignore_errors=True)
    if not options.only:
        for name in sorted(set(os.listdir(folder)) - {name + ".json" for name in names}):
            os.remove(os.path.join(folder, name))
    _write_manifest(options.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
