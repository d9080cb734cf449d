#!/usr/bin/env python3
"""Recorder of the migrate pack: the reference CLI's `adr migrate --from madr` on written corpora.

For each corpus below (MADR 2 header bullets, MADR 3/4 frontmatter, Nygard / adr-tools sections,
every status, date, decider, title, name, encoding and folder shape the importer decides on)
and for each of its argument sets, on a fresh copy of the corpus: run the reference, record its
stdout, stderr, exit status and the whole file tree after it (bytes, permission bits, symlinks as
links), then run it a second time on that result and record the same again. The pack is
written to tests/migrate-pack/ (cases/<corpus>.json, MANIFEST.sha256); tests/_migrate_pack.py
describes the format, tests/migrate-pack/README.md what is recorded and normalised, and
tests/test_migrate_pack.py replays it against this project's `migrate`. Standard library only;
not run by CI, because the reference is not installable from a package registry.

Building the reference (nothing of it is committed; it makes no network calls at run time):

  1. Unpack the reference source outside this repository, e.g. from a clone or a mirror of
     github.com/mbeacom/adrkit (the pack was recorded at commit dc10ecc, @adrkit/cli 0.8.0):
         mkdir /tmp/adrkit-ref
         git -C /path/to/adrkit.git archive dc10ecc | tar -x -C /tmp/adrkit-ref
  2. Install Bun from the npm registry into a scratch folder of its own (the pack was recorded
     with Bun 1.4.5):
         mkdir /tmp/bunbin && cd /tmp/bunbin && npm install bun@1.4.5
  3. Install the reference's dependencies (its lockfile pins yaml 2.9.0 and zod 4.4.3):
         cd /tmp/adrkit-ref && /tmp/bunbin/node_modules/.bin/bun install
  4. The reference CLI then runs as
         /tmp/bunbin/node_modules/.bin/bun /tmp/adrkit-ref/packages/cli/src/index.ts migrate ...

Running it (from the repository root; the reference command is required, the recorder appends
the case's arguments, e.g. `migrate --from madr --rename`, and runs it in the case's folder):

  python3 tools/record_migrate_pack.py \\
      --reference "/tmp/bunbin/node_modules/.bin/bun /tmp/adrkit-ref/packages/cli/src/index.ts"
  python3 tools/record_migrate_pack.py --reference "..." --only titles --only dates

  --reference CMD   the reference CLI's command line (shell-split); required
  --out DIR         where the pack goes (default: tests/migrate-pack next to tools/)
  --only NAME       record only this corpus (repeatable); the other case files are kept
  --user NAME       the unprivileged account for the permission cases when the recorder runs as
                    root (default nobody; they run through `runuser -u NAME --`). Run as another
                    user, the recorder runs them as itself.
  --timeout S       seconds one reference run may take (default 300)
  --manifest-only   only rewrite MANIFEST.sha256 (after editing the pack README)

The runs get a fixed environment (PATH and HOME only, LANG=C.UTF-8, TZ=UTC); the reference's
output never depends on the clock. The case folder's absolute path, wherever it appears in
stdout or stderr (only inside error messages), is stored as `{root}`.
"""

import argparse
import hashlib
import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
import _migrate_pack as pack  # noqa: E402  (the pack's format lives with the tests that read it)
from _child_env import child_env  # noqa: E402  (what a child started from nothing needs)

DEFAULT_OUT = os.path.join(HERE, "..", "tests", "migrate-pack")

# ---------------------------------------------------------------------------
# Building blocks
# ---------------------------------------------------------------------------


class File(object):
    def __init__(self, data, mode=0o644):
        self.data = data.encode("utf-8") if isinstance(data, str) else data
        self.mode = mode


class Link(object):
    def __init__(self, target):
        self.target = target


class Dir(object):
    def __init__(self, mode=0o755):
        self.mode = mode


BASE = ["migrate", "--from", "madr"]
DEFAULT = [BASE]
STANDARD = [BASE, BASE + ["--json"], BASE + ["--rename"], BASE + ["--rename", "--json"],
            BASE + ["--dry-run"], BASE + ["--dry-run", "--rename", "--json"]]
LIGHT = [BASE, BASE + ["--rename", "--json"]]

CORPORA = []


def corpus(name, description, features, args=STANDARD, cwd="", unprivileged=False, prepare=None):
    """Register a corpus: the decorated function returns {path: str | bytes | File | Link | Dir}."""
    def register(build):
        CORPORA.append(dict(name=name, description=description, features=features, args=args,
                            cwd=cwd, unprivileged=unprivileged, prepare=prepare, build=build))
        return build
    return register


def adr(*paths_and_texts):
    """{docs/adr/<name>: text} for (name, text) pairs."""
    return {"docs/adr/" + name: text for name, text in paths_and_texts}


def madr2(title, status=None, date=None, deciders=None, bullet="*", context="Some context.",
          heading="#"):
    """A MADR 2.x record: a title, header bullets, then the sections."""
    lines = ["%s %s" % (heading, title), ""]
    for field, value in (("Status", status), ("Deciders", deciders), ("Date", date)):
        if value is not None:
            lines.append("%s %s: %s" % (bullet, field, value) if bullet else "%s: %s" % (field, value))
    lines += ["", "Technical Story: a question worth a record.", "",
              "## Context and Problem Statement", "", context, "",
              "## Considered Options", "", "* Option one", "* Option two", "",
              "## Decision Outcome", "", "Chosen option: \"Option one\", because it fits.", ""]
    return "\n".join(lines)


def nygard(number, title, status="Accepted", date="2018-03-04", extra_status=""):
    """An adr-tools record: `# N. Title`, a Date line, and a `## Status` section."""
    lines = ["# %d. %s" % (number, title), ""]
    if date is not None:
        lines += ["Date: %s" % date, ""]
    lines += ["## Status", ""]
    if status is not None:
        lines += [status, ""]
    if extra_status:
        lines += [extra_status, ""]
    lines += ["## Context", "", "The issue motivating this decision.", "",
              "## Decision", "", "The change that we're proposing.", "",
              "## Consequences", "", "What becomes easier or more difficult.", ""]
    return "\n".join(lines)


def madr3(frontmatter, title, body="## Context and Problem Statement\n\nWhy.\n\n## Decision Outcome\n\nChosen.\n"):
    """A MADR 3/4 record: YAML frontmatter (given as text), the title heading, the body."""
    return "---\n%s---\n\n# %s\n\n%s" % (frontmatter, title, body)


# ---------------------------------------------------------------------------
# The corpora
# ---------------------------------------------------------------------------


@corpus("madr2-bullets", "MADR 2.x header bullets: `* Status:`, `- Date:`, `**Status:**`, `* Deciders:`, "
        "supersession by reference, bullets below the first section ignored",
        ["madr2", "status", "date", "deciders", "superseded-by", "import-incomplete"])
def _madr2_bullets():
    return adr(
        ("0001-use-markdown-architectural-decision-records.md",
         madr2("Use Markdown Architectural Decision Records", "accepted", "2020-01-15", "@alice, @bob")),
        ("0002-dash-bullets.md", madr2("Dash bullets everywhere", "Proposed", "2021-06-01",
                                       "team:platform; carol@example.com and @dave", bullet="-")),
        ("0003-plus-bullets.md", madr2("Plus bullets", "rejected", "2019-02-03", "@erin", bullet="+")),
        ("0004-bold-fields.md",
         "# Bold field names\n\n**Status:** **Accepted**\n**Date:** 2022-02-02\n"
         "**Deciders:** Jane Smith, John Doe, @erin\n\n## Context\n\nBold.\n"),
        ("0005-underscore-fields.md",
         "# Underscored field names\n\n__Status__: deprecated\n+ Date: 2019-12-31\n"
         "* deciders: [list everyone involved in the decision]\n\n## Context\n\nUnderscores.\n"),
        ("0006-status-in-prose.md",
         "# Status only in prose\n\nSome introduction.\n\n## Context\n\n* Status: accepted\n"
         "Date: 2020-02-02\n\nThe bullets above are below the first section and do not count.\n"),
        ("0007-superseded-by-link.md",
         madr2("Superseded by a link", "superseded by [ADR-0001](0001-use-markdown-architectural-decision-records.md)",
               "2021-01-01")),
        ("0008-superseded-unresolvable.md", madr2("Superseded by a missing record", "Superseded by ADR-0099",
                                                  "2021-01-02")),
        ("0009-superseded-self.md", madr2("Superseded by itself", "Superseded by [ADR-0009](0009-superseded-self.md)",
                                          "2021-01-03")),
        ("0010-supersedes-by.md", madr2("Supersedes by a short number", "supersedes by 3", "2021-01-04")),
        ("0011-supersedes-other.md", madr2("Supersedes another record", "Supersedes ADR-0002", "2021-01-05")),
        ("0012-duplicate-deciders.md", madr2("Duplicate deciders", "accepted", "2021-02-02",
                                             "@a, @a, Jane, Jane, team:x and team:x; bob@example.com")),
        ("0013-decorated-values.md",
         "# Decorated values\n\n* Status: [Accepted]\n* Date: **2023-07-08**.\n"
         "* Deciders: `@code`, [@linked](https://example.com/u)\n\n## Context\n\nDecorations.\n"),
        ("0014-date-placeholder.md", madr2("The template's date placeholder", "accepted",
                                           "[YYYY-MM-DD when the decision was last updated]")),
        ("0015-inline-code-status.md", madr2("Inline code status", "`accepted`", "2020-03-03", "@x")),
        ("0016-accepted-nobody.md", madr2("Accepted by nobody", "accepted", "2020-04-04")),
        ("0017-superseded-by-later.md", madr2("Superseded by a later record",
                                              "superseded by [0018](0018-the-successor.md)", "2020-05-05")),
        ("0018-the-successor.md", madr2("The successor", "accepted", "2020-05-06", "@x")),
        ("0019-no-space-bullets.md",
         "# No space after the bullet\n\n*Status: accepted\n-Date: 2020-06-06\n\n## Context\n\nx\n"),
        ("0020-indented-bullets.md",
         "# Indented bullets\n\n   * Status: accepted\n\t- Date: 2020-07-07\n  * Deciders: @ind\n\n## Context\n\nx\n"),
    )


@corpus("status-forms", "Statuses in every case and with decoration (bold, brackets, a trailing stop, "
        "an emoji, angle brackets, italics), `superseded` without a successor, CRLF",
        ["status", "madr2", "nygard", "crlf"])
def _status_forms():
    values = ["ACCEPTED", "Accepted.", "**Accepted**", "[Accepted]", "accepted \u2705", "accepted, 2020-01-01",
              "Rejected;", "<accepted>", "_Accepted_", "*Accepted*", "Draft", "DEPRECATED", "proposed ",
              "In Review", "superseded", "Superseded", "accepted!", "Accepted (2020-01-01)", "\u00c4ccepted",
              "accepted;;..,", "__Proposed__", "[Proposed](http://example.com)", "Proposed ##"]
    files = {}
    for index, value in enumerate(values, 1):
        files["docs/adr/%04d-status-%d.md" % (index, index)] = madr2("Status form %d" % index, value,
                                                                    "2020-01-%02d" % index, "@x")
    files["docs/adr/0100-crlf-status.md"] = madr2("Status with CRLF", "Accepted", "2020-02-01",
                                                  "@x").replace("\n", "\r\n")
    files["docs/adr/0101-nygard-bold.md"] = nygard(101, "Nygard bold status", "**Accepted**")
    files["docs/adr/0102-nygard-lower.md"] = nygard(102, "Nygard lower status", "accepted.")
    files["docs/adr/0103-nygard-dash.md"] = nygard(103, "Nygard dash status", "- Accepted")
    return files


@corpus("nygard", "Nygard / adr-tools records: `Date:` lines, `## Status` sections, \"Superseded by "
        "[5. Foo](0005-foo.md)\", \"Supersedes ...\", headings of other levels and shapes",
        ["nygard", "status", "date", "superseded-by", "deciders"])
def _nygard():
    return adr(
        ("0001-record-architecture-decisions.md", nygard(1, "Record architecture decisions")),
        ("0002-use-postgres.md", nygard(2, "Use Postgres", "Superseded by [5. Use Foo](0005-use-foo.md)")),
        ("0003-superseded-by-number.md", nygard(3, "Superseded by number", "Superseded by [0005](0005-use-foo.md)")),
        ("0004-superseded-by-missing.md", nygard(4, "Superseded by a missing number", "Superseded by ADR 0042")),
        ("0005-use-foo.md", nygard(5, "Use Foo", "Accepted",
                                   extra_status="Supersedes [2. Use Postgres](0002-use-postgres.md)")),
        ("0006-supersedes-first.md", nygard(6, "Supersedes first", "Supersedes [1. Record](0001-record-architecture-decisions.md)")),
        ("0007-status-heading-shapes.md",
         "# 7. Status heading shapes\n\nDate: 2019-01-01\n\n### status ##\n\n  **proposed**  \n\n## Context\n\nx\n"),
        ("0008-empty-status.md", "# 8. Empty status\n\nDate: 2019-01-02\n\n## Status\n\n## Context\n\nAccepted\n"),
        ("0009-date-section.md",
         "# 9. Date and deciders sections\n\n## Status\n\nAccepted\n\n## Date\n\n2019-05-05\n\n"
         "## Deciders\n\n@nygard, Michael Nygard\n\n## Context\n\nx\n"),
        ("0010-statuses-heading.md", "# 10. Statuses heading\n\n## Statuses\n\nAccepted\n\n## Context\n\nx\n"),
        ("0011-status-h1.md", "# 11. Status as a level-1 heading\n\n# Status\n\nAccepted\n"),
        ("0012-status-h6.md", "# 12. Status as a level-6 heading\n\nDate: 2019-06-06\n\n###### Status\n\nRejected\n"),
        ("0013-status-then-text.md",
         "# 13. Status then prose\n\nDate: 2019-07-07\n\n## Status\n\n\n   \nAccepted on review\n\n## Context\n\nx\n"),
        ("0014-bad-date.md", nygard(14, "A date that rolls over", date="2019-02-29")),
        ("0015-no-date.md", nygard(15, "No date line", date=None)),
        ("0016-tab-heading.md", "# 16. Tab after the hashes\n\n##\tStatus\t\n\nDeprecated\n"),
        ("0017-status-hash-line.md", "# 17. Heading right below\n\n## Status\n#nospace\nAccepted\n"),
    )


@corpus("madr3-frontmatter", "MADR 3/4 YAML frontmatter: status, date, decision-makers, consulted, informed; "
        "the MADR 4 template's placeholders; copied lists valid and invalid",
        ["madr3", "frontmatter", "status", "date", "deciders", "copied-keys"])
def _madr3():
    return adr(
        ("0001-madr3-accepted.md", madr3("status: accepted\ndate: 2023-04-05\ndecision-makers: Alice, Bob\n"
                                         "consulted: Carol\ninformed: Dave\n", "Use MADR 3")),
        ("0002-madr3-lists.md", madr3("status: Accepted\ndate: 2023-04-06\ndeciders: [\"@alice\"]\n"
                                      "consulted: [\"@carol\"]\ninformed: [dave@example.com]\n", "Lists of identities")),
        ("0003-madr4-template.md", madr3(
            "# These are optional metadata elements. Feel free to remove any of them.\n"
            "status: \"{proposed | rejected | accepted | deprecated | \u2026 | superseded by ADR-0123}\"\n"
            "date: {YYYY-MM-DD when the decision was last updated}\n"
            "decision-makers: {list everyone involved in the decision}\n"
            "consulted: {list everyone whose opinions are sought (typically subject-matter experts); and with whom there is a two-way communication}\n"
            "informed: {list everyone who is kept up-to-date on progress; and with whom there is a one-way communication}\n",
            "{short title, representative of solved problem and found solution}")),
        ("0004-invalid-deciders.md", madr3("status: proposed\ndate: 2023-01-01\ndeciders: [\"@x\", Jane]\n",
                                           "Invalid deciders in frontmatter",
                                           "* Deciders: Ignored Person\n\n## Context\n\nx\n")),
        ("0005-deciders-string.md", madr3("status: accepted\ndate: 2023-01-02\ndeciders: \"@x\"\n",
                                          "Deciders as a string", "* Deciders: @from-body, Body Person\n\n## Context\n\nx\n")),
        ("0006-status-number.md", madr3("status: 5\ndate: 2023-01-03\n", "Status is a number")),
        ("0007-status-null.md", madr3("status: null\ndate: 2023-01-04\n", "Status is null",
                                      "* Status: accepted\n* Deciders: @body\n\n## Context\n\nx\n")),
        ("0008-status-empty.md", madr3("status: \"\"\n", "Status is empty", "* Status: accepted\n\n## Context\n\nx\n")),
        ("0009-superseded-frontmatter.md", madr3("status: superseded by ADR-0002\ndate: 2023-01-05\n",
                                                 "Superseded in frontmatter")),
        ("0010-supersededby-key.md", madr3("status: superseded\nsupersededBy: \"0002\"\ndate: 2023-01-06\n",
                                           "Superseded with the key")),
        ("0011-supersededby-conflict.md", madr3("status: accepted\nsupersededBy: \"0002\"\ndate: 2023-01-07\n"
                                                "deciders: [\"@x\"]\n", "Successor but accepted")),
        ("0012-body-date-fallback.md", madr3("status: proposed\n", "Date from the body",
                                             "* Date: 2023-02-02\n\n## Context\n\nx\n")),
        ("0013-frontmatter-wins.md", madr3("status: rejected\ndate: 2023-03-03\n", "Frontmatter wins",
                                           "* Status: accepted\n* Date: 2020-01-01\n\n## Context\n\nx\n")),
    )


@corpus("copied-keys", "Every copied key, valid (defaults filled in by the schema) and invalid (reset to "
        "its fallback or dropped), schemaVersion, frontmatter keys in any order",
        ["frontmatter", "copied-keys", "schema"])
def _copied_keys():
    valid = ("status: accepted\ndate: 2023-05-05\ncreated: 2023-05-01\ndeciders: [\"@alice\", team:core]\n"
             "tags: [db, storage-2]\nscope: org\ndomain: payments\nreversibility: one-way-door\n"
             "blastRadius: team\nsupersedes: [\"0001\", \"payments:0012\"]\nrelatesTo: [\"0003\"]\n"
             "conflictsWith: [\"0004\", \"0004\"]\n"
             "affects:\n  - type: path\n    pattern: \"src/db/**\"\n  - {type: package, pattern: react@>=19, negate: true, note: n}\n"
             "assertions:\n  - id: no-orm\n    engine: grep\n    severity: warn\n"
             "review:\n  tier: arb\n  slaDays: 5\n  objections: [{by: \"@bob\"}]\n"
             "evaluation:\n  confidence: 0.5\n  scores: {d1: 3, d2: 4}\n"
             "externalRefs:\n  - type: pr\n    url: https://example.com/pr/1\n    label: The PR\n"
             "complianceControls: [\"SOC2 CC8.1\", ISO 27001 A.8.25]\nreviewBy: 2026-01-01\n"
             "unknownKey: dropped\nschemaVersion: 0.2.0\n")
    invalid = ("status: proposed\ndate: 2023-06-06\ncreated: soon\ntags: [Foo, foo]\nscope: galaxy\ndomain: 7\n"
               "reversibility: maybe\nblastRadius: huge\nsupersedes: [12]\nrelatesTo: [\"0001\", \"0001\"]\n"
               "conflictsWith: \"0002\"\naffects: [\"src/**\"]\nassertions: [{}]\nreview: {tier: fast}\n"
               "evaluation: {confidence: 2}\nexternalRefs: [{type: issue, url: not a url}]\n"
               "complianceControls: [a, a]\nreviewBy: 2024-02-30\nconsulted: \"@one\"\ninformed: [nobody]\n"
               "schemaVersion: \"1\"\n")
    nulls = ("status: proposed\ndate: 2023-07-07\ntags: ~\nscope: null\naffects:\nreview: null\n"
             "created: null\nschemaVersion: 1.0\n")
    door = ("status: proposed\ndate: 2023-08-08\nreversibility: one-way-door\nreview: {tier: auto}\n")
    return adr(
        ("0001-all-valid.md", madr3(valid, "Every copied key valid")),
        ("0002-all-invalid.md", madr3(invalid, "Every copied key invalid")),
        ("0003-nulls.md", madr3(nulls, "Copied keys that are null")),
        ("0004-one-way-auto.md", madr3(door, "A one-way door on the fast path")),
        ("0005-review-approvals.md", madr3("status: proposed\ndate: 2023-09-09\nreview: {approvals: [\"@a\", bad], "
                                           "quorum: 0}\nevaluation: {escalationReasons: [regulatory]}\n",
                                           "Review with bad approvals")),
        ("0006-tags-set.md", madr3("status: proposed\ndate: 2023-10-10\ntags: !!set {a: null, b: null}\n"
                                   "domain: !!binary aGVsbG8=\n", "Tags as a set")),
        ("0007-numbers.md", madr3("status: proposed\ndate: 2023-11-11\ndomain: \"0x1F\"\n"
                                  "complianceControls: [\"1e3\", \"true\", \"null\", \"~\", \"- x\", \"a: b\", \"#c\"]\n",
                                  "Strings that look like other things")),
        ("0008-multiline.md", madr3("status: proposed\ndate: 2023-12-12\ndomain: |\n  line one\n  line two\n"
                                    "complianceControls:\n  - >\n    folded\n    text\n", "Block scalars")),
    )


@corpus("ids-and-provenance", "Frontmatter ids (valid, a number, a ULID, invalid, colliding), titles from "
        "frontmatter, provenance pieces (agent, ratifier, source artifact, importedAt, unknown keys)",
        ["frontmatter", "ids", "provenance", "title"])
def _ids_and_provenance():
    return adr(
        ("0001-plain.md", madr2("Plain first record", "accepted", "2022-01-01", "@x")),
        ("a-frontmatter-id.md", madr3("id: \"0042\"\nstatus: proposed\ndate: 2022-01-02\n", "Frontmatter id")),
        ("b-number-id.md", madr3("id: 42\nstatus: proposed\ndate: 2022-01-03\n", "Numeric id")),
        ("c-ulid.md", madr3("id: 01ARZ3NDEKTSV4RRFFQ69G5FAV\nstatus: proposed\ndate: 2022-01-04\n", "A ULID id")),
        ("d-bad-id.md", madr3("id: ADR-7\nstatus: proposed\ndate: 2022-01-05\n", "An invalid id")),
        ("e-collide-1.md", madr3("id: \"0042\"\nstatus: proposed\ndate: 2022-01-06\n", "Colliding id one")),
        ("0042-file-number.md", madr2("File number taken by a frontmatter id", "proposed", "2022-01-07")),
        ("0050-own-number.md", madr3("id: \"0001\"\nstatus: proposed\ndate: 2022-01-08\n", "Frontmatter id of another file")),
        ("f-title.md", madr3("title: \"Frontmatter title wins\"\nstatus: proposed\ndate: 2022-01-09\n", "Heading title")),
        ("g-blank-title.md", madr3("title: \"   \"\nstatus: proposed\ndate: 2022-01-10\n", "Heading after a blank title")),
        ("h-number-title.md", madr3("title: 123\nstatus: proposed\ndate: 2022-01-11\n", "Heading after a numeric title")),
        ("i-agent.md", madr3("status: accepted\ndate: 2022-01-12\ndeciders: [\"@lead\"]\nprovenance:\n  authoredBy: agent\n"
                             "  agent: {name: bot, model: m1, harness: claude-code, runId: r1}\n  ratifiedBy: \"@lead\"\n"
                             "  sourceArtifact: plans/p.md\n", "Agent authored and ratified")),
        ("j-imported-at.md", madr3("status: proposed\ndate: 2022-01-13\nprovenance:\n  importedFrom:\n    sourceKind: other\n"
                                   "    sourceRef: elsewhere.md\n    fingerprint: abc\n    importedAt: \"2024-01-01T00:00:00Z\"\n",
                                   "Earlier import time kept")),
        ("k-provenance-string.md", madr3("status: proposed\ndate: 2022-01-14\nprovenance: human\n", "Provenance as a string")),
        ("l-provenance-unknown.md", madr3("status: proposed\ndate: 2022-01-15\nprovenance: {authoredBy: human, extra: 1}\n",
                                          "Provenance with an unknown key")),
        ("m-agent-unratified.md", madr3("status: accepted\ndate: 2022-01-16\ndeciders: [\"@x\"]\nprovenance: {authoredBy: agent}\n",
                                        "Agent accepted without a ratifier")),
        ("n-authored-bad.md", madr3("status: proposed\ndate: 2022-01-17\nprovenance: {authoredBy: robot, sourceArtifact: 5}\n",
                                    "Unknown author kind")),
        ("o-imported-at-bad.md", madr3("status: proposed\ndate: 2022-01-18\nprovenance:\n  importedFrom: {importedAt: yesterday}\n",
                                       "Invalid import time")),
        ("p-schema-version.md", madr3("schemaVersion: 9.9.9\nstatus: proposed\ndate: 2022-01-19\n", "A later schema version")),
    )


@corpus("frontmatter-edge", "Frontmatter that is empty, a list, a scalar, invalid YAML (several errors), "
        "unterminated, a lone fence, CRLF fences, a fence with trailing space, tags the loader knows",
        ["frontmatter", "invalid-yaml", "unterminated", "crlf"])
def _frontmatter_edge():
    return adr(
        ("0001-empty-frontmatter.md", "---\n---\n# Empty frontmatter\n\n* Status: accepted\n* Deciders: @x\n"),
        ("0002-list-frontmatter.md", "---\n- a\n- b\n---\n# A list as frontmatter\n"),
        ("0003-scalar-frontmatter.md", "---\njust text\n---\n# A scalar as frontmatter\n"),
        ("0004-unclosed-flow.md", "---\ntags: [a, b\n---\n# Unclosed flow sequence\n"),
        ("0005-duplicate-keys.md", "---\nstatus: accepted\nstatus: proposed\n---\n# Duplicate keys\n"),
        ("0007-undefined-alias.md", "---\nstatus: *nope\n---\n# Undefined alias\n"),
        ("0008-tab-indent.md", "---\nreview:\n\ttier: arb\n---\n# Tab indentation\n"),
        ("0009-unterminated.md", "---\nstatus: accepted\n# Unterminated frontmatter\n\nNo closing fence.\n"),
        ("0010-lone-fence.md", "---"),
        ("0011-fence-only.md", "---\n"),
        ("0012-crlf-fences.md", "---\r\nstatus: accepted\r\ndate: 2020-01-01\r\ndeciders: [\"@x\"]\r\n---\r\n"
                                "# CRLF fences\r\n\r\nBody.\r\n"),
        ("0013-fence-trailing-space.md", "--- \nstatus: accepted\n---\n# Fence with a trailing space\n"),
        ("0014-closing-fence-eof.md", "---\nstatus: proposed\ndate: 2020-02-02\n---"),
        ("0015-no-title.md", "---\nstatus: accepted\n---\nNo heading at all.\n"),
        ("0016-timestamps.md", "---\ndate: !!timestamp 2024-01-02T01:00:00+05:00\ncreated: !!timestamp 2024-02-30\n"
                               "status: proposed\n---\n# Timestamps\n"),
        ("0017-timestamp-created.md", "---\ncreated: !!timestamp 2021-03-04\nstatus: proposed\n---\n# Timestamp in created\n"),
        ("0018-anchors.md", "---\nstatus: &s accepted\ndate: 2020-03-03\ndeciders: [\"@x\"]\ninformed: [*s]\n---\n# Anchors\n"),
        ("0019-directive.md", "---\n%YAML 1.2\n---\n# A directive\n"),
        ("0020-document-end.md", "---\nstatus: proposed\n...\n---\n# Document end marker\n"),
        ("0021-fence-later.md", "\n---\nstatus: accepted\n---\n# Fence on the second line\n"),
        ("0022-bad-escape.md", "---\ntitle: \"bad \\q escape\"\n---\n# Bad escape\n"),
        ("0023-comment-only.md", "---\n# only a comment\n---\n# Comment-only frontmatter\n* Status: accepted\n"),
    )


@corpus("yaml-two-errors", "Frontmatter with two YAML errors: the reference's finding joins every error "
        "message of the document with \"; \"", ["frontmatter", "invalid-yaml"], args=DEFAULT)
def _yaml_two_errors():
    return adr(
        ("0001-bad-indent.md", "---\nstatus: accepted\n  date: 2020-01-01\n---\n# Bad indentation\n"),
        ("0002-plain.md", madr2("Plain", "accepted", "2020-01-01", "@x")),
    )


@corpus("yaml-warning", "A frontmatter key that is a collection: yaml 2.9.0 stringifies it and the runtime "
        "prints a warning on stderr (the record still migrates)", ["frontmatter", "runtime-warning"], args=DEFAULT)
def _yaml_warning():
    return adr(
        ("0001-non-string-key.md", "---\n? [a]\n: b\nstatus: proposed\n---\n# A non-string key\n"),
        ("0002-plain.md", madr2("Plain", "accepted", "2020-01-01", "@x")),
    )


@corpus("names-and-order", "File names: mixed case, underscores, non-ASCII, emoji, spaces, dot files, "
        "three and five digits, `0001-.md`, non-.md files; results ordered by localeCompare",
        ["names", "order", "rename", "slug"])
def _names_and_order():
    names = ["ADR-b.md", "adr-a.md", "_x.md", "\u00c4rger.md", "Zebra.md", "zeta.md", "0010-ten.md",
             "0002-two.md", "00003-five-digits.md", "123-three-digits.md", ".hidden.md", ".md",
             "0001-.md", "with space.md", "\u00fcmlaut-\u00f6.md", "\u65e5\u672c.md", "\U0001F600.md",
             "a-b.md", "a_b.md", "ab.md", "-dash.md", "0000-Template.md", "1-one.md", "9999-x.md"]
    files = {}
    for index, name in enumerate(names, 1):
        files["docs/adr/" + name] = madr2("Record named %s" % name.replace(".md", "") if index % 3 else
                                          "Titled number %d" % index, "proposed", "2021-03-%02d" % index)
    files["docs/adr/x.markdown"] = madr2("Not markdown by name", "accepted", "2021-04-01")
    files["docs/adr/X.MD"] = madr2("Upper-case extension", "accepted", "2021-04-02")
    files["docs/adr/notes.txt"] = "# Notes\n"
    files["docs/adr/0003-x.md.bak"] = "# Backup\n"
    return files


@corpus("case-colliding", "Names that differ only in case (Decision.md, decision.md, DECISION.md, "
        "README.md and readme.md, 0000-template.md and 0000-Template.md): one file each on a "
        "case-sensitive file system",
        ["names", "case", "rename"])
def _case_colliding():
    return adr(
        ("Decision.md", madr2("Same title", "accepted", "2022-02-01", "@a")),
        ("decision.md", madr2("Same title", "accepted", "2022-02-02", "@b")),
        ("DECISION.md", madr2("Same title", "accepted", "2022-02-03", "@c")),
        ("README.md", "# Readme\n"),
        ("readme.md", "# readme\n"),
        ("0001-x.md", madr2("One", "accepted", "2022-02-04", "@d")),
        ("0001-X.md", madr2("One upper", "accepted", "2022-02-05", "@e")),
        ("0000-template.md", madr2("The template", "accepted", "2022-02-06", "@f")),
        ("0000-Template.md", madr2("Capital template, a candidate", "accepted", "2022-02-07", "@g")),
    )


@corpus("conventional-files", "README, index, CONTRIBUTING, template and 0000-template.md are never "
        "candidates, at any depth and in any case; look-alikes are (0000-Template.md: see case-colliding)",
        ["names", "conventional"])
def _conventional():
    record = madr2("Would be a record", "accepted", "2020-01-01", "@x")
    return adr(
        ("README.md", record), ("index.md", record), ("CONTRIBUTING.md", record), ("Template.md", record),
        ("0000-template.md", record), ("adr-template.md", madr2("Template look-alike", "accepted", "2020-01-02")),
        ("sub/README.md", record), ("sub/InDeX.md", record), ("other/index.MD", record),
        ("templates/0001-in-a-templates-folder.md", madr2("In a templates folder", "proposed", "2020-01-04")),
        ("readme.md.md", madr2("Double extension", "proposed", "2020-01-05")),
        ("0001-first.md", madr2("First", "proposed", "2020-01-06")),
    )


@corpus("nested", "Records in subfolders (any depth, dot folders, a folder named like a record, the same "
        "name at two depths), reported undiscoverable and never renamed; files outside the ADR folder untouched",
        ["nested", "rename", "undiscoverable"])
def _nested():
    files = adr(
        ("0001-top.md", madr2("Top level", "accepted", "2020-01-01", "@x")),
        ("sub/0005-nested.md", madr2("Nested record", "accepted", "2020-01-02", "@x")),
        ("sub/deeper/x.md", madr2("Deeper record", "proposed", "2020-01-03")),
        ("sub/deeper/even/more/y.md", madr2("Deepest record", "proposed", "2020-01-04")),
        (".drafts/draft.md", madr2("A draft in a dot folder", "draft", "2020-01-05")),
        ("archive/0001-top.md", madr2("Archived top level", "superseded by 0001", "2019-01-01")),
        ("0002-dir.md/inside.md", madr2("Inside a folder named like a record", "proposed", "2020-01-06")),
        ("node_modules/pkg/readme-like.md", madr2("In node_modules", "proposed", "2020-01-07")),
        ("top.md", madr2("Top level without a number", "proposed", "2020-01-08")),
    )
    files["docs/other.md"] = madr2("Outside the ADR folder", "accepted", "2020-01-09")
    files["docs/adr/empty"] = Dir()
    return files


@corpus("symlinks", "Symlinks to files and to folders, dangling ones, two named like records: never "
        "candidates, never followed, never written through, never counted for the next id",
        ["symlinks", "nested"])
def _symlinks():
    files = adr(
        ("0001-real.md", madr2("Real record", "accepted", "2020-01-01", "@x")),
        ("link.md", Link("../outside/real.md")),
        ("0002-linked-record.md", Link("0001-real.md")),
        ("linked-dir", Link("../outside")),
        ("dangling.md", Link("missing.md")),
        ("0500-dangling-record.md", Link("nowhere.md")),
        ("plain.md", madr2("Plain record", "proposed", "2020-01-02")),
    )
    files["docs/outside/real.md"] = madr2("Outside real", "accepted", "2020-01-03", "@y")
    files["docs/outside/sub.md"] = madr2("Outside sub", "accepted", "2020-01-04", "@y")
    return files


@corpus("symlinked-adr-dir", "The ADR folder itself a symlink to a folder elsewhere (read through it, "
        "display paths through the link)",
        ["symlinks", "dir"])
def _symlinked_dir():
    return {
        "docs/adr": Link("../decisions"),
        "decisions/0001-one.md": madr2("One", "accepted", "2020-01-01", "@x"),
        "decisions/two.md": madr2("Two", "proposed", "2020-01-02"),
    }


@corpus("rename-collisions", "--rename: a target name taken (by a folder, by another candidate), two sources "
        "with one id, two sources slugging alike, titles with no ASCII letter, long slugs",
        ["rename", "slug", "ids", "collision"])
def _rename_collisions():
    return adr(
        ("0001-a.md", madr2("First", "accepted", "2020-01-01", "@x")),
        ("0002-b.md", madr2("Second", "accepted", "2020-01-02", "@x")),
        ("same-1.md", madr3("id: \"0009\"\nstatus: proposed\ndate: 2020-01-03\n", "Same Title")),
        ("same-2.md", madr3("id: \"0009\"\nstatus: proposed\ndate: 2020-01-04\n", "Same Title")),
        ("taken.md", madr3("id: \"0020\"\nstatus: proposed\ndate: 2020-01-05\n", "Taken")),
        ("0020-taken.md/keep.txt", "a folder occupies the target name\n"),
        ("Foo Bar.md", madr2("Foo Bar", "proposed", "2020-01-06")),
        ("foo-bar.md", madr2("Foo Bar", "proposed", "2020-01-07")),
        ("aaa.md", madr3("id: \"0040\"\nstatus: proposed\ndate: 2020-01-08\n", "Zed")),
        ("0040-zed.md", madr2("Zed", "proposed", "2020-01-09")),
        ("emoji.md", madr2("\u65e5\u672c\u8a9e\u306e\u6c7a\u5b9a", "proposed", "2020-01-10")),
        ("emoji-2.md", madr2("\U0001F680\U0001F680\U0001F680", "proposed", "2020-01-11")),
        ("long.md", madr2("A title that is long enough that its slug is cut at eighty characters - right here x",
                          "proposed", "2020-01-12")),
        ("accents.md", madr2("Caf\u00e9 na\u00efve \u00c5ngstr\u00f6m \uff26\uff55\uff4c\uff4c \ufb01le", "proposed", "2020-01-13")),
        ("symbols.md", madr2("--- C++ & C# // 100% ---", "proposed", "2020-01-14")),
    )


@corpus("rename-onto-symlinks", "--rename where the target name is a symlink to a file or to a folder "
        "(taken: not renamed)",
        ["rename", "symlinks", "collision"])
def _rename_symlinks():
    return adr(
        ("0001-a.md", madr2("First", "accepted", "2020-01-01", "@x")),
        ("s1.md", madr3("id: \"0011\"\nstatus: proposed\ndate: 2020-01-02\n", "To a file")),
        ("0011-to-a-file.md", Link("0001-a.md")),
        ("s2.md", madr3("id: \"0012\"\nstatus: proposed\ndate: 2020-01-03\n", "To a folder")),
        ("0012-to-a-folder.md", Link("..")),
    )


@corpus("rename-onto-dangling-symlink", "--rename where the target name is a dangling symlink: the "
        "reference's pathExists follows it, finds nothing, and renames over the link",
        ["rename", "symlinks", "collision"], args=[BASE + ["--rename"], BASE + ["--rename", "--json"]])
def _rename_dangling():
    return adr(
        ("0001-a.md", madr2("First", "accepted", "2020-01-01", "@x")),
        ("s3.md", madr3("id: \"0013\"\nstatus: proposed\ndate: 2020-01-04\n", "Dangling")),
        ("0013-dangling.md", Link("gone.md")),
    )


def _add_superseded(root):
    """After the first run of `superseded-resolution`: the records that point at the migrated ones."""
    adr_dir = os.path.join(root, "docs", "adr")
    for name, text in (("0001-old.md", madr2("Old, superseded by a migrated record", "superseded by 0002", "2019-01-01")),
                       ("0003-older.md", madr2("Older, superseded by a renamed id", "superseded by [ADR-0004](0004-x.md)",
                                               "2019-01-02")),
                       ("0005-oldest.md", madr2("Oldest, superseded by its declared id", "superseded by 0050",
                                                "2019-01-03")),
                       ("loose.md", madr2("Superseded by a record without a number", "Superseded by 0099", "2019-01-04"))):
        with open(os.path.join(adr_dir, name), "w", encoding="utf-8", newline="") as handle:
            handle.write(text)


@corpus("superseded-resolution", "`superseded by <ref>` resolved through earlier runs (the successor is "
        "unchanged), through a frontmatter id that differs from the file number, and not through a file "
        "number its frontmatter id replaced", ["superseded-by", "rerun", "ids"],
        prepare=[("run", BASE), ("edit", _add_superseded)])
def _superseded_resolution():
    return adr(
        ("0002-new.md", madr2("The successor, migrated first", "accepted", "2020-01-01", "@x")),
        ("0004-x.md", madr3("id: \"0050\"\nstatus: accepted\ndate: 2020-01-02\ndeciders: [\"@x\"]\n",
                            "Number four declares fifty")),
        ("zz.md", madr3("id: \"0099\"\nstatus: accepted\ndate: 2020-01-03\ndeciders: [\"@x\"]\n",
                        "No number, declared ninety-nine")),
    )


@corpus("big-numbers", "Very large file numbers: the seed past 2**53 (twenty digits), file number ids",
        ["ids", "seed"])
def _big_numbers():
    return adr(
        ("99999999999999999999-big.md", madr2("Twenty nines", "accepted", "2020-01-01", "@x")),
        ("new.md", madr2("Needs an id", "proposed", "2020-01-02")),
        ("0007-seven.md", madr2("Seven", "proposed", "2020-01-03")),
    )


@corpus("exponent-seed", "A file number whose seed prints in exponent form (1e+21): allocation restarts at 0001",
        ["ids", "seed"])
def _exponent_seed():
    return adr(
        ("999999999999999999999-huge.md", madr2("Twenty-one nines", "accepted", "2020-01-01", "@x")),
        ("new.md", madr2("Needs an id", "proposed", "2020-01-02")),
        ("other.md", madr2("Needs another id", "proposed", "2020-01-03")),
    )


@corpus("seeds", "What counts for the next id: top-level record names only (not the template, nested "
        "files, three digits; symlinks: see `symlinks`), non-MADR record-named files too; ids from "
        "frontmatter colliding", ["ids", "seed"])
def _seeds():
    return adr(
        ("0100-not-madr.md", ""),
        ("0000-template.md", madr2("Template", "proposed", "2020-01-01")),
        ("sub/0900-nested.md", madr2("Nested high number", "proposed", "2020-01-02")),
        ("999-three.md", madr2("Three digits", "proposed", "2020-01-03")),
        ("a.md", madr2("Gets one past the highest", "proposed", "2020-01-04")),
        ("b.md", madr3("id: \"0101\"\nstatus: proposed\ndate: 2020-01-05\n", "Claims the next id")),
        ("c.md", madr2("Skips the claimed id", "proposed", "2020-01-06")),
        ("0101-numbered.md", madr2("Its number is claimed", "proposed", "2020-01-07")),
    )


@corpus("titles", "Titles: 2, 3, 120 and 121 characters (UTF-16 units), trailing hashes, no space after #, "
        "only level-2 headings, and titles YAML has to quote",
        ["title", "slug", "yaml-output", "rename"])
def _titles():
    specials = ["true", "null", "123", "- dash", "Colon: here", "Quote \"double\"", "'single'", "#hash",
                "@at", "{brace}", "[bracket]", "a # comment", "100%", "*star", "&amp", "!bang", "|pipe",
                ">gt", "%percent", "`tick`", "\u00dcn\u00efc\u00f6d\u00e9", "yes", "0x1F", "1e3", "~",
                "Ends with colon:", "key: value: more", "back\\slash", "2024-01-01", ".inf", "<<"]
    files = {
        "docs/adr/t-two.md": madr2("Go", "proposed", "2020-01-01"),
        "docs/adr/t-three.md": madr2("Use", "proposed", "2020-01-02"),
        "docs/adr/t-120.md": madr2("x" * 120, "proposed", "2020-01-03"),
        "docs/adr/t-121.md": madr2("y" * 121, "proposed", "2020-01-04"),
        "docs/adr/t-emoji-60.md": madr2("\U0001F600" * 60, "proposed", "2020-01-05"),
        "docs/adr/t-emoji-61.md": madr2("\U0001F600" * 61, "proposed", "2020-01-06"),
        "docs/adr/t-hashes.md": madr2("Trailing hashes ##", "proposed", "2020-01-07"),
        "docs/adr/t-nospace.md": "#No space after the hash\n\n* Status: accepted\n",
        "docs/adr/t-h2.md": "## Only a level-2 heading\n\n* Status: accepted\n",
        "docs/adr/t-late.md": "Some text first.\n\n# The title comes later\n\n* Status: accepted\n",
        "docs/adr/t-spaces.md": "#    Padded title    \n\n* Status: proposed\n",
        "docs/adr/t-tab.md": "#\tTab title\t#\n",
        "docs/adr/t-two-after-trim.md": "# ab    ##\n",
        "docs/adr/t-only-hash.md": "# #\n\n# Second heading\n",
        "docs/adr/t-long-line.md": "# " + "word " * 30000 + "\n",
    }
    for index, title in enumerate(specials, 1):
        files["docs/adr/s-%02d.md" % index] = madr2("T %s" % title if len(title) < 3 else title,
                                                   "proposed", "2020-02-%02d" % index)
    return files


@corpus("dates", "Dates: valid, placeholders, roll-overs (2024-02-30, 2023-02-29), the year 0000, other "
        "shapes, from `created`, from the body, !!timestamp values",
        ["date"])
def _dates():
    bullets = ["2024-02-29", "2024-02-30", "2023-02-29", "0000-01-01", "9999-12-31", "2024-1-1", "2024/01/01",
               "2024-01-01T10:00", "2024-04-31", " 2024-05-05 ", "2024-05-05 (approved)", "[2024-06-06]",
               "1900-02-29", "2000-02-29", "today", "\uff12\uff10\uff12\uff14-01-01"]
    files = {}
    for index, value in enumerate(bullets, 1):
        files["docs/adr/%04d-date-%d.md" % (index, index)] = madr2("Date form %d" % index, "proposed", value)
    files.update(adr(
        ("0100-created.md", madr3("status: proposed\ncreated: 2023-05-06\n", "Date from created")),
        ("0101-created-bad.md", madr3("status: proposed\ncreated: \"2023-02-30\"\n", "Created rolls over",
                                      "* Date: 2023-01-01\n\n## Context\n\nx\n")),
        ("0102-date-roll-created.md", madr3("status: proposed\ndate: 2023-02-29\ncreated: 2023-01-15\n",
                                            "Date rolls over, created is fine")),
        ("0103-date-number.md", madr3("status: proposed\ndate: 20230101\n", "Date as a number")),
        ("0104-date-list.md", madr3("status: proposed\ndate: [2023-01-01]\n", "Date as a list")),
        ("0105-timestamp.md", madr3("status: proposed\ndate: !!timestamp 2023-12-31T23:30:00-01:00\n",
                                    "Timestamp across midnight")),
        ("0106-timestamp-roll.md", madr3("status: proposed\ndate: !!timestamp 2023-02-30\n", "Timestamp roll-over")),
        ("0107-nygard-date.md", nygard(107, "Nygard date line", date="2017-07-07")),
    ))
    return files


@corpus("invalid-date-stop", "A date with month 13 (or day 0, day 32, month 0): the reference stops with "
        "\"Invalid Date\" and exit 1, after writing the records before it",
        ["date", "crash", "rename"])
def _invalid_date():
    return adr(
        ("a-first.md", madr2("Written before the stop", "accepted", "2024-01-01", "@x")),
        ("b-bad.md", madr2("Month thirteen", "accepted", "2024-13-01", "@x")),
        ("c-after.md", madr2("Never reached", "accepted", "2024-01-02", "@x")),
        ("0001-numbered.md", madr2("Numbered and first", "accepted", "2024-01-03", "@x")),
    )


@corpus("invalid-date-frontmatter", "Invalid dates in frontmatter (day 0) and in created (month 0): the stop "
        "comes from the first one in order", ["date", "crash"], args=DEFAULT + [BASE + ["--json"]])
def _invalid_date_frontmatter():
    return adr(
        ("0001-ok.md", madr2("Fine", "proposed", "2024-01-01")),
        ("0002-day-zero.md", madr3("status: proposed\ndate: 2024-01-00\n", "Day zero")),
        ("0003-month-zero.md", madr3("status: proposed\ncreated: 2024-00-10\n", "Month zero")),
    )


@corpus("invalid-date-masked", "An invalid date that is never parsed: a valid frontmatter date comes first",
        ["date"], args=DEFAULT)
def _invalid_date_masked():
    return adr(
        ("0001-masked.md", madr3("status: proposed\ndate: 2024-01-01\ncreated: 2024-13-01\n", "Masked bad created",
                                 "* Date: 2024-99-99\n\n## Context\n\nx\n")),
    )


@corpus("deciders", "Deciders: handles, team:slug, emails, names, the template placeholder, `and` and `;` "
        "separators, duplicates, near-identities; a `## Deciders` section",
        ["deciders"])
def _deciders():
    values = ["@alice", "@alice, @bob", "team:platform", "team:Platform", "a@b", "jane@example.com",
              "Jane Smith", "[list everyone involved in the decision]", "@a and @b", "@a;@b ; @c",
              "Andrew, Sandra", "@a and", "and @b", "@bad_handle", "@a, , @b,", "@a AND @b",
              "mailto:x@y.z", "@a,@a,@a", "<jane@example.com>", "Jane (jane@example.com)",
              "team:a-b, team:a_b", "@\u00e9l\u00e8ve"]
    files = {}
    for index, value in enumerate(values, 1):
        files["docs/adr/%04d-deciders-%d.md" % (index, index)] = madr2("Deciders form %d" % index, "accepted",
                                                                      "2020-01-%02d" % index, value)
    files["docs/adr/0100-section.md"] = ("# Deciders in a section\n\n## Status\n\nAccepted\n\n## Deciders\n\n"
                                         "@sec, Section Person\n")
    files["docs/adr/0101-frontmatter-wins.md"] = madr3("status: accepted\ndate: 2020-02-01\ndeciders: [\"@fm\"]\n",
                                                       "Frontmatter deciders win",
                                                       "* Deciders: Unmapped Person\n\n## Context\n\nx\n")
    files["docs/adr/0102-decision-makers.md"] = madr3("status: accepted\ndate: 2020-02-02\ndecision-makers: [\"@dm\"]\n",
                                                      "decision-makers is not read")
    return files


def _edit_after_migrate(root):
    """The edits between the two runs of `updated-and-unchanged`."""
    adr_dir = os.path.join(root, "docs", "adr")

    def rewrite(name, old, new):
        path = os.path.join(adr_dir, name)
        with open(path, "rb") as handle:
            data = handle.read()
        assert old.encode() in data, (name, old)
        with open(path, "wb") as handle:
            handle.write(data.replace(old.encode(), new.encode(), 1))
    rewrite("0001-body-edited.md", "Some context.", "Some context, edited after the migration.")
    rewrite("0002-frontmatter-edited.md", "tags: []", "tags:\n  - edited")
    rewrite("0003-both-edited.md", "status: proposed", "status: accepted\n# a comment")
    rewrite("0003-both-edited.md", "Option two", "Option three")
    rewrite("0004-whitespace-only.md", "Some context.", "Some context.\r")
    rewrite("b-renamed-later.md", "Some context.", "Edited.")
    with open(os.path.join(adr_dir, "0005-new-after.md"), "w", encoding="utf-8", newline="") as handle:
        handle.write(madr2("Added after the first migration", "accepted", "2021-05-05", "@new"))
    with open(os.path.join(adr_dir, "0006-trailing-newlines.md"), "ab") as handle:
        handle.write(b"\n\n\n")


@corpus("updated-and-unchanged", "Re-runs: records migrated once, then edited (body -> updated; frontmatter "
        "only -> unchanged; trailing newlines -> unchanged; CR -> unchanged), a record added later; the CLI "
        "never reports diverged",
        ["rerun", "updated", "unchanged", "fingerprint"],
        prepare=[("run", BASE), ("edit", _edit_after_migrate)])
def _updated():
    return adr(
        ("0001-body-edited.md", madr2("Body edited", "accepted", "2021-01-01", "@x")),
        ("0002-frontmatter-edited.md", madr2("Frontmatter edited", "accepted", "2021-01-02", "@x")),
        ("0003-both-edited.md", madr2("Both edited", "proposed", "2021-01-03")),
        ("0004-whitespace-only.md", madr2("Whitespace only", "proposed", "2021-01-04")),
        ("0006-trailing-newlines.md", madr2("Trailing newlines", "proposed", "2021-01-06")),
        ("b-renamed-later.md", madr2("Migrated in place, renamed later", "proposed", "2021-01-07")),
        ("z-unchanged.md", madr2("Never touched", "accepted", "2021-01-08", "@x")),
    )


def _edit_after_rename(root):
    adr_dir = os.path.join(root, "docs", "adr")
    for name in sorted(os.listdir(adr_dir)):
        if name.startswith("0002-"):
            path = os.path.join(adr_dir, name)
            with open(path, "ab") as handle:
                handle.write(b"\nA paragraph added after the rename.\n")
    with open(os.path.join(adr_dir, "later.md"), "w", encoding="utf-8", newline="") as handle:
        handle.write(madr2("Added after the rename", "proposed", "2021-06-06"))


@corpus("renamed-then-edited", "Re-runs after --rename: a renamed record edited (updated, keeps its id), "
        "another untouched (unchanged), a new file (next id)",
        ["rerun", "rename", "updated"], prepare=[("run", BASE + ["--rename"]), ("edit", _edit_after_rename)])
def _renamed_then_edited():
    return adr(
        ("0001-first.md", madr2("First", "accepted", "2021-01-01", "@x")),
        ("alpha.md", madr2("Alpha", "accepted", "2021-01-02", "@x")),
        ("beta.md", madr2("Beta", "proposed", "2021-01-03")),
    )


def _mixed_records():
    native = ("---\nschemaVersion: 0.1.0\nid: \"0001\"\ntitle: A native adrkit record\nstatus: accepted\n"
              "date: 2020-01-01\ndeciders:\n  - \"@x\"\ntags: []\nscope: component\nreversibility: unknown\n"
              "blastRadius: component\nrelatesTo: []\naffects: []\nprovenance:\n  authoredBy: human\n---\n\n"
              "# ADR-0001: A native adrkit record\n\n## Context\n\nNative.\n")
    madr_body = madr2("Claimed by another record", "accepted", "2020-02-02", "@x")
    text = madr_body.replace("\r\n", "\n").rstrip("\n") + "\n"
    fingerprint = hashlib.sha256(text.encode("utf-8")).hexdigest()

    def claiming(ident, title, source_ref, fp, kind="madr"):
        return ("---\nschemaVersion: 0.1.0\nid: \"%s\"\ntitle: %s\nstatus: proposed\ndate: 2020-03-03\n"
                "provenance:\n  authoredBy: human\n  importedFrom:\n    sourceKind: %s\n    sourceRef: %s\n"
                "    fingerprint: %s\n---\n\n# %s\n" % (ident, title, kind, source_ref, fp, title))
    return adr(
        ("0001-native.md", native),
        ("0002-claimed.md", madr_body),
        ("0003-claims-0002.md", claiming("0003", "Claims the second", "docs/adr/0002-claimed.md", fingerprint)),
        ("0004-stale.md", madr2("Claimed with a stale fingerprint", "proposed", "2020-04-04")),
        ("0005-claims-0004.md", claiming("0005", "Claims the fourth", "docs/adr/0004-stale.md", "0" * 64)),
        ("0006-other-kind.md", madr2("Claimed by another kind", "proposed", "2020-06-06")),
        ("0007-claims-0006.md", claiming("0007", "Claims as other", "docs/adr/0006-other-kind.md", "x", "other")),
        ("0008-twice.md", madr2("Claimed twice", "proposed", "2020-08-08")),
        ("0010-claims-0008.md", claiming("0010", "Claims the eighth first", "docs/adr/0008-twice.md", "1" * 64)),
        ("0009-claims-0008.md", claiming("0009", "Claims the eighth second", "docs/adr/0008-twice.md", "2" * 64)),
        ("0011-invalid-native.md", native.replace("\"0001\"", "\"0011\"").replace("deciders:\n  - \"@x\"\n", "")),
        ("0012-claims-missing.md", claiming("0012", "Claims a missing file", "docs/adr/gone.md", "3" * 64)),
        ("0013-claims-itself.md", claiming("0013", "Claims itself", "docs/adr/0013-claims-itself.md", "4" * 64)),
    )


@corpus("adrkit-mixed", "adrkit records mixed in: a native record (migrated, gains provenance), records "
        "whose importedFrom claims another file (unchanged / updated with the claimer's id), another "
        "sourceKind, two claimers, an invalid record, a claim on itself",
        ["adrkit", "provenance", "updated", "unchanged"])
def _adrkit_mixed():
    return _mixed_records()


@corpus("encodings", "CRLF and lone-CR files, a UTF-8 BOM before a heading and before a fence, invalid UTF-8 "
        "(replaced by U+FFFD as Node reads it), NUL bytes, U+2028 in a line",
        ["crlf", "bom", "invalid-utf8", "encoding"])
def _encodings():
    bad = [b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xf0\x9f\x98", b"\xe2\x82", b"\xf8\x88\x80\x80\x80",
           b"\x80\x80", b"\xf4\x90\x80\x80", b"\xc3"]
    invalid = b"# Invalid UTF-8 " + b" ".join(bad) + b" title\n\n* Status: accepted\n* Deciders: @x\n\nBody " \
        + b"|".join(bad) + b"\n"
    return adr(
        ("0001-crlf.md", madr2("CRLF record", "accepted", "2020-01-01", "@x").replace("\n", "\r\n")),
        ("0002-lone-cr.md", "# Lone CR record\r\r* Status: accepted\r* Date: 2020-01-02\r* Deciders: @x\r"),
        ("0003-bom-heading.md", "\ufeff# BOM before the heading\n\n* Status: accepted\n"),
        ("0004-bom-fence.md", "\ufeff---\nstatus: accepted\n---\n# BOM before the fence\n"),
        ("0005-bom-then-heading.md", "\ufeffIntro line.\n# BOM then a later heading\n* Status: accepted\n* Deciders: @x\n"),
        ("0006-invalid-utf8.md", File(invalid)),
        ("0007-nul.md", "# NUL \x00 in the title\n\n* Status: proposed\x00\n"),
        ("0008-line-separator.md", "# Line\u2028separator title\n\n* Status: accepted\u2028* Date: 2020-01-08\n* Deciders: @x\n"),
        ("0009-crlf-frontmatter-body.md", "---\r\nstatus: proposed\r\n---\r\n# CRLF frontmatter\r\n\r\n* Date: 2020-01-09\r\n"),
        ("0010-mixed-endings.md", "# Mixed endings\r\n\n* Status: accepted\r* Date: 2020-01-10\n* Deciders: @x\r\n"),
        ("0011-no-final-newline.md", "# No final newline\n\n* Status: proposed"),
        ("0012-only-newlines.md", "# Only newlines after\n\n\n\n\n"),
        ("0013-latin1.md", File("# Caf\u00e9 in Latin-1\n\n* Status: proposed\n".encode("latin-1"))),
        ("0014-utf16.md", File("# UTF-16 text\n".encode("utf-16"))),
    )


@corpus("empty-and-oversized", "Empty and whitespace-only files, a lone heading mark, a record over 64 KiB, "
        "one of 3 MiB, a heading line of 1 MiB",
        ["empty", "oversized"], args=LIGHT)
def _oversized():
    big = madr2("Over sixty-four KiB", "accepted", "2020-01-01", "@x") + ("Filler line of prose.\n" * 3300)
    huge = madr2("Three MiB", "accepted", "2020-01-02", "@x") + ("0123456789abcdef" * 4 + "\n") * (3 * 1024 * 1024 // 65)
    return adr(
        ("0001-empty.md", ""),
        ("0002-whitespace.md", "   \n\t\n  "),
        ("0003-hash-only.md", "#\n"),
        ("0004-big.md", big),
        ("0005-huge.md", huge),
        ("0006-long-heading.md", "# " + "a" * (1024 * 1024) + "\n* Status: accepted\n"),
        ("0007-small.md", madr2("Small", "proposed", "2020-01-03")),
    )


@corpus("modes", "Permission bits kept on rewrite and rename (0600, 0755, 0444 written as root, 0664)",
        ["modes", "rename"], args=[BASE, BASE + ["--rename"]])
def _modes():
    return adr(
        ("0001-private.md", File(madr2("Private", "accepted", "2020-01-01", "@x"), 0o600)),
        ("0002-executable.md", File(madr2("Executable", "accepted", "2020-01-02", "@x"), 0o755)),
        ("0003-read-only.md", File(madr2("Read only", "accepted", "2020-01-03", "@x"), 0o444)),
        ("group.md", File(madr2("Group writable", "accepted", "2020-01-04", "@x"), 0o664)),
        ("private.md", File(madr2("Private and renamed", "accepted", "2020-01-05", "@x"), 0o640)),
    )


@corpus("many-records", "Three hundred records in every dialect (the kill test's corpus)",
        ["scale", "madr2", "madr3", "nygard", "rename"], args=[BASE, BASE + ["--rename"]])
def _many():
    files = {}
    for index in range(1, 301):
        kind = index % 4
        if kind == 0:
            text = madr2("Bullet record %d" % index, "accepted", "2020-01-%02d" % (index % 28 + 1), "@u%d" % index)
        elif kind == 1:
            text = nygard(index, "Nygard record %d" % index, "Accepted" if index % 3 else "Superseded by [0001](0001-x.md)")
        elif kind == 2:
            text = madr3("status: proposed\ndate: 2021-02-%02d\n" % (index % 28 + 1), "Frontmatter record %d" % index)
        else:
            text = madr2("Unnumbered record %d" % index, "rejected", "2022-03-03")
        name = ("%04d-record-%d.md" % (index, index)) if kind != 3 else ("unnumbered-%d.md" % index)
        files["docs/adr/" + name] = text
    return files


DIR_ARGS = [BASE + ["--dir", "decisions"], BASE + ["--dir", "decisions/"], BASE + ["--dir", "./decisions"],
            BASE + ["--dir", "docs/../decisions"], BASE + ["--dir=decisions", "--json"],
            BASE + ["--dir", "decisions", "--dir", "other"], BASE + ["--dir", "."],
            BASE + ["--dir", "decisions", "--rename"], BASE + ["--dir", "decisions/sub", "--rename"]]


@corpus("dir-variants", "--dir spelled in several ways (trailing slash, ./, .., =, given twice, `.` as the "
        "ADR folder), display paths relative to the folder migrate runs in",
        ["dir", "display-path"], args=DIR_ARGS)
def _dir_variants():
    return {
        "decisions/0001-one.md": madr2("One", "accepted", "2020-01-01", "@x"),
        "decisions/two.md": madr2("Two", "proposed", "2020-01-02"),
        "decisions/sub/three.md": madr2("Three", "proposed", "2020-01-03"),
        "other/four.md": madr2("Four", "proposed", "2020-01-04"),
        "top.md": madr2("A record at the root", "proposed", "2020-01-05"),
    }


@corpus("dir-outside", "Run in a subfolder with --dir pointing outside it (`../decisions`): display paths "
        "start with ../", ["dir", "display-path"], cwd="repo",
        args=[BASE + ["--dir", "../decisions"], BASE + ["--dir", "../decisions", "--rename", "--json"],
              BASE + ["--dir", ".."]])
def _dir_outside():
    return {
        "decisions/0001-one.md": madr2("One", "accepted", "2020-01-01", "@x"),
        "decisions/two.md": madr2("Two", "proposed", "2020-01-02"),
        "repo/keep.txt": "the folder migrate runs in\n",
    }


USAGE_ARGS = [["migrate"], ["migrate", "--from", "other"], ["migrate", "--from"], ["migrate", "--from", "MADR"],
              ["migrate", "--from", "madr", "extra"], ["migrate", "extra", "--from", "madr"],
              ["migrate", "--from", "madr", "--dir"], ["migrate", "--from", "madr", "--dir", "missing"],
              ["migrate", "--from", "madr", "--dir", "file.md"], ["migrate", "--from", "madr", "--dir", ""],
              ["migrate", "--from=madr"], ["migrate", "--from", "madr", "--bogus"],
              ["migrate", "--from", "madr", "--json=yes"], ["migrate", "--from", "madr", "--", "x"],
              ["migrate", "--from", "madr", "--dry-run", "--dry-run"], ["migrate", "--from", "", "--dry-run"],
              ["migrate", "--from", "madr", "--from", "other"], ["migrate", "--from", "other", "--from", "madr"],
              ["migrate", "--from", "madr", "--dir", "docs/adr/0001-one.md"],
              ["migrate", "--from", "madr", "--dir", "nowhere/deeper"]]


@corpus("usage-errors", "Usage errors: no --from, another --from, a positional argument, --dir without a "
        "value, missing or a file, unknown flags; the folder is left as it was",
        ["usage", "exit-status", "dir"], args=USAGE_ARGS)
def _usage():
    return {
        "docs/adr/0001-one.md": madr2("One", "accepted", "2020-01-01", "@x"),
        "file.md": "# not a folder\n",
    }


@corpus("empty-corpus", "An empty ADR folder, and one holding only a README", ["empty"],
        args=[BASE, BASE + ["--json"], BASE + ["--dir", "only-readme", "--json"]])
def _empty_corpus():
    return {"docs/adr": Dir(), "only-readme/README.md": "# Readme\n"}


# ---- permission cases (run as an unprivileged user) --------------------------------------------

PRIV_ARGS = [BASE, BASE + ["--json"]]


@corpus("unreadable-file", "A candidate its reader may not read: the reference stops with Node's EACCES "
        "message (exit 1) before writing anything", ["permissions", "crash"], unprivileged=True, args=PRIV_ARGS)
def _unreadable_file():
    return adr(
        ("0001-readable.md", madr2("Readable", "accepted", "2020-01-01", "@x")),
        ("0002-unreadable.md", File(madr2("Unreadable", "accepted", "2020-01-02", "@x"), 0o000)),
        ("0003-readable.md", madr2("Readable too", "accepted", "2020-01-03", "@x")),
    )


@corpus("unreadable-subfolder", "A subfolder its reader may not list: discovery finds no candidate at all",
        ["permissions", "nested"], unprivileged=True, args=PRIV_ARGS)
def _unreadable_subfolder():
    files = adr(
        ("0001-top.md", madr2("Top", "accepted", "2020-01-01", "@x")),
        ("locked/0002-inside.md", madr2("Inside", "accepted", "2020-01-02", "@x")),
    )
    files["docs/adr/locked"] = Dir(0o000)
    return files


@corpus("unsearchable-subfolder", "A subfolder its reader may list but not enter (r--): the read of a file "
        "in it fails", ["permissions", "nested", "crash"], unprivileged=True, args=PRIV_ARGS)
def _unsearchable_subfolder():
    files = adr(
        ("0001-top.md", madr2("Top", "accepted", "2020-01-01", "@x")),
        ("listonly/0002-inside.md", madr2("Inside", "accepted", "2020-01-02", "@x")),
    )
    files["docs/adr/listonly"] = Dir(0o444)
    return files


@corpus("unreadable-dir", "The ADR folder itself unreadable: \"Corpus directory not readable\", exit 2",
        ["permissions", "usage", "dir"], unprivileged=True, args=PRIV_ARGS)
def _unreadable_dir():
    files = adr(("0001-top.md", madr2("Top", "accepted", "2020-01-01", "@x")))
    files["docs/adr"] = Dir(0o000)
    return files


@corpus("read-only-file", "A candidate its writer may read but not write (0444): the reference stops on "
        "the write with EACCES after the records before it", ["permissions", "crash", "atomic"],
        unprivileged=True, args=PRIV_ARGS + [BASE + ["--dry-run"]])
def _read_only_file():
    return adr(
        ("0001-writable.md", madr2("Writable", "accepted", "2020-01-01", "@x")),
        ("0002-read-only.md", File(madr2("Read only", "accepted", "2020-01-02", "@x"), 0o444)),
        ("0003-writable.md", madr2("Writable too", "accepted", "2020-01-03", "@x")),
    )


@corpus("read-only-folder", "An ADR folder its writer may not add names to (0555) holding writable files: "
        "the reference rewrites them in place; a rename fails", ["permissions", "atomic", "rename"],
        unprivileged=True, args=PRIV_ARGS + [BASE + ["--rename"]])
def _read_only_folder():
    files = adr(
        ("0001-writable.md", madr2("Writable", "accepted", "2020-01-01", "@x")),
        ("plain.md", madr2("Plain", "accepted", "2020-01-02", "@x")),
    )
    files["docs/adr"] = Dir(0o555)
    return files


# ---------------------------------------------------------------------------
# Recording
# ---------------------------------------------------------------------------


def _entries_from_build(tree):
    """(entries, blobs) for a corpus's {path: content}; parent folders 0755."""
    entries, blobs, folders = {}, {}, {}
    for path, content in tree.items():
        parts = path.split("/")
        for depth in range(1, len(parts)):
            folders.setdefault("/".join(parts[:depth]), 0o755)
        if isinstance(content, Dir):
            folders[path] = content.mode
            continue
        if isinstance(content, Link):
            entries[path] = {"path": path, "type": "symlink", "target": content.target}
            continue
        item = content if isinstance(content, File) else File(content)
        ident = pack.blob_id(item.data)
        blobs[ident] = item.data
        entries[path] = {"path": path, "type": "file", "mode": "%04o" % item.mode, "blob": ident}
    for path, mode in folders.items():
        if path not in entries:
            entries[path] = {"path": path, "type": "dir", "mode": "%04o" % mode}
    return sorted(entries.values(), key=lambda entry: entry["path"]), blobs


def _requirements(entries):
    needs = set()
    seen = {}
    for entry in entries:
        if entry["type"] == "symlink":
            needs.add("symlinks")
        if entry["type"] in ("file", "dir"):
            mode = int(entry["mode"], 8)
            if mode not in (0o644, 0o755):
                needs.add("permissions")
        folded = entry["path"].casefold()
        if folded in seen and seen[folded] != entry["path"]:
            needs.add("case-sensitive")
        seen[folded] = entry["path"]
    return needs


class Recorder(object):
    def __init__(self, reference, user, timeout):
        self.reference = shlex.split(reference)
        self.timeout = timeout
        self.as_user = None
        if os.geteuid() == 0:
            import pwd  # POSIX only, and needed only here
            self.as_user = pwd.getpwnam(user)
        self.home = tempfile.mkdtemp(prefix="adrkit-record-home-")
        os.chmod(self.home, 0o777)

    def environment(self):
        return child_env(PATH=os.environ.get("PATH", "/usr/bin:/bin"), HOME=self.home, LANG="C.UTF-8",
                         TZ="UTC")

    def command(self, args, unprivileged):
        command = self.reference + list(args)
        if unprivileged and self.as_user is not None:
            command = ["runuser", "-u", self.as_user.pw_name, "--"] + command
        return command

    def run(self, root, cwd, args, unprivileged):
        process = subprocess.run(self.command(args, unprivileged), cwd=os.path.join(root, cwd) if cwd else root,
                                 env=self.environment(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, timeout=self.timeout)
        return process.returncode, _normalise(process.stdout, root), _normalise(process.stderr, root)

    def fresh(self, entries, blobs, unprivileged):
        return pack.fresh_case(entries, blobs, self.as_user if unprivileged else None)

    def step(self, root, cwd, args, unprivileged, blobs):
        status, stdout, stderr = self.run(root, cwd, args, unprivileged)
        tree = pack.snapshot(root, blobs)
        result = {"status": status, "stdout": stdout, "stderr": stderr}
        result.update(_stderr_kind(status, stderr))
        result["tree"] = tree
        return result

    def prepared(self, spec):
        entries, blobs = _entries_from_build(spec["build"]())
        if not spec["prepare"]:
            return entries, blobs
        base, root = self.fresh(entries, blobs, spec["unprivileged"])
        try:
            for kind, value in spec["prepare"]:
                if kind == "run":
                    status, _, stderr = self.run(root, spec["cwd"], value, spec["unprivileged"])
                    if status != 0:
                        raise RuntimeError("%s: preparing run failed: %s" % (spec["name"], stderr))
                else:
                    value(root)
            blobs = {}
            entries = pack.snapshot(root, blobs)
        finally:
            _remove(base)
        return entries, blobs

    def record(self, spec):
        entries, blobs = self.prepared(spec)
        case = {"name": spec["name"], "description": spec["description"], "features": spec["features"],
                "requires": sorted(_requirements(entries) | ({"unprivileged"} if spec["unprivileged"] else set())),
                "cwd": spec["cwd"], "tree": entries, "runs": []}
        for args in spec["args"]:
            base, root = self.fresh(entries, blobs, spec["unprivileged"])
            try:
                first = self.step(root, spec["cwd"], args, spec["unprivileged"], blobs)
                second = self.step(root, spec["cwd"], args, spec["unprivileged"], blobs)
            finally:
                _remove(base)
            case["runs"].append({"args": list(args), "first": first, "second": second})
            print("  %-40s exit %d, then %d" % (" ".join(args[1:]) or "(none)", first["status"], second["status"]))
        return pack.dump_case(case, blobs)


def _normalise(data, root):
    text = data.decode("utf-8")
    for spelling in sorted({root, os.path.realpath(root)}, key=len, reverse=True):
        text = text.replace(spelling, pack.ROOT_TOKEN)
    return re.sub(r"^\(node:[0-9]+\) ", pack.PID_TOKEN, text, flags=re.M)  # a runtime warning's process id


def _stderr_kind(status, stderr):
    """How the test compares stderr: exactly, or (a usage error, whose usage text is the reference
    CLI's own) only the reference's sentence before it."""
    lines = stderr.split("\n")
    if status == 2 and "Usage:" in lines:
        cut = lines.index("Usage:")
        return {"stderr_kind": "usage", "stderr_sentence": "\n".join(lines[:cut])}
    return {"stderr_kind": "exact"}


def _remove(base):
    pack.make_traversable(base)
    shutil.rmtree(base)


def _write_manifest(out):
    lines = []
    for dirpath, dirnames, filenames in os.walk(out):
        dirnames.sort()
        for name in sorted(filenames):
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, out).replace(os.sep, "/")
            if rel == "MANIFEST.sha256":
                continue
            with open(full, "rb") as handle:
                data = handle.read()
            lines.append("%s  %d  %s\n" % (hashlib.sha256(data).hexdigest(), len(data), rel))
    with open(os.path.join(out, "MANIFEST.sha256"), "w", encoding="ascii", newline="\n") as handle:
        handle.writelines(sorted(lines, key=lambda line: line.split("  ", 2)[2]))


def main(argv=None):
    parser = argparse.ArgumentParser(description="Record the reference CLI's `adr migrate` on the pack's corpora")
    parser.add_argument("--reference")
    parser.add_argument("--out", default=DEFAULT_OUT)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--user", default="nobody")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--manifest-only", action="store_true",
                        help="only rewrite MANIFEST.sha256 (after editing the pack's README)")
    options = parser.parse_args(argv)
    if options.manifest_only:
        _write_manifest(options.out)
        return 0
    if not options.reference:
        parser.error("--reference is required (the reference CLI's command line)")
    names = [spec["name"] for spec in CORPORA]
    unknown = sorted(set(options.only) - set(names))
    if unknown:
        parser.error("no corpus named %s" % ", ".join(unknown))
    if len(set(names)) != len(names):
        parser.error("two corpora share a name")
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
        stale = sorted(set(os.listdir(folder)) - {name + ".json" for name in names})
        for name in stale:
            os.remove(os.path.join(folder, name))
    _write_manifest(options.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
