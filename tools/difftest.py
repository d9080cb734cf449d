#!/usr/bin/env python3
"""Differential tester: this server against the reference @adrkit/mcp 0.8.0, side by side.

It writes random, seeded decision corpora into temporary Git repositories, asks both servers
the same random tool calls (all four tools, random arguments, every cursor walked to its end),
normalises what the conformance pack says is opaque, and prints how many answers agree per
tool and, for each class of difference, the first differing JSON path with an example and a
count. Documented departures are counted apart, as "allowed". Standard library only; not run
by CI, because the reference is not installable from a package registry.

Building the reference (nothing of it is committed; it makes no network calls at run time):

  1. Unpack the reference source outside this repository, e.g. from a clone or a mirror of
     github.com/mbeacom/adrkit:
         mkdir /tmp/adrkit-ref
         git -C /path/to/adrkit.git archive HEAD | tar -x -C /tmp/adrkit-ref
  2. Install Bun from the npm registry into a scratch folder of its own:
         mkdir /tmp/bunbin && cd /tmp/bunbin && npm install bun
  3. Install the reference's dependencies (its lockfile pins zod 4.4.3, yaml 2.9.0, ...):
         cd /tmp/adrkit-ref && /tmp/bunbin/node_modules/.bin/bun install
  4. The reference server then runs as
         /tmp/bunbin/node_modules/.bin/bun /tmp/adrkit-ref/packages/mcp/src/bin.ts \\
             --cwd ROOT --dir docs/adr
     (Node 22, from npm's `node@22` package, is the other way: build the package with
     `bun run build` in packages/mcp and run `node packages/mcp/dist/bin.js`.) Read
     packages/mcp/src/main-module.ts for its flags and defaults before changing them.

Running it (from the repository root, with a Python that has the module's requirements):

  python3 tools/difftest.py --seed 7 --corpora 300 --jobs 2
  python3 tools/difftest.py --seed 7 --only 41 --keep /tmp/dt   # one corpus, kept on disk
  python3 tools/difftest.py --from madr --seed 7 --corpora 300  # MADR and Nygard folders
  python3 tools/difftest.py --cli --seed 7 --corpora 100        # the CLI's lint, graph, new, explain, check

`--cli` writes the same random corpora (plus Markdown that lint reports as skipped, records
outside the ADR folder) and runs random command lines of `lint` (with and without paths, human
and `--json`), `graph` (dot and json), `new` (titles of every shape, statuses), `explain` and
`check` (over source files whose `@adr` markers name the corpus's ids, missing ids and other logs,
some past the header window) and lines that do not parse, each side in a fresh process on its own fresh copy: ours is `--server CMD <args>`, the
reference `--reference-cli CMD <args>`. It compares the exit status, stdout, stderr (after a usage
error only the reference's sentence before its usage text, which ADR 0019 leaves ours) and every
file left in the corpus; `new` on both sides writes the same day's date.

Each corpus is run once per era (`--eras legacy,modern`, the default): legacy sessions open with
`initialize`, modern ones send every request with the 2026-07-28 `_meta` claim and no handshake;
both sides in fresh processes on fresh copies, with the same calls.

`--from madr` writes MADR 2 (header bullets), MADR 3/4 (frontmatter, with adrkit `affects` globs
in some so that get_decision_context speaks) and Nygard (`## Status` sections) records with
statuses in any case and decoration, superseded-by forms whose number resolves or not, valid,
missing, rolled-over and invalid dates (2024-13-01 stops the reference's migrate, which then
leaves the files before it migrated), deciders that are identities or not, nested folders, names
with and without four digits, README/template files, adrkit records (some claiming to have been
imported from one of the files), files that are not MADR at all, CRLF, lone CR, a BOM, invalid
UTF-8; a quarter of the corpora went through an earlier partial migration (by the reference CLI)
and some of those files were edited since. This server runs with `--from madr` on the folder as
it is (even corpora) or with ADRKIT_MCP_FROM=madr (odd ones); the reference server runs on a copy
after `adr migrate --from madr --dir docs/adr` (the reference CLI, `--reference-cli`). Mid-session
the folder is changed (a file edited, added, deleted, renamed, touched, a status rewritten) and
the reference's copy is made again from the changed folder and migrated again, so the calls after
the change compare against what a migration of the folder as it now is gives. Our
`migrate --from madr` is also run against the reference CLI's on two more copies: exit status,
stdout, the first line of stderr and every file left, byte for byte. Documented departures are
modelled and counted as allowed: a file over the 64 KiB cap takes no part in the reference's
migration either (it joins the copy afterwards, as it was), and where the reference's migrate
spins forever (ids past 2**53) it is stopped after 30 s and our migrate's error counts as agreeing.

  --reference CMD   the reference command line (default: the Bun command above); the tester
                    appends `--cwd ROOT --dir docs/adr`
  --server CMD      this server's command line (default: python3 adrkit_mcp.py next to tools/)
  --calls N         random calls per corpus (default 12); every cursor is walked to its end
  --jobs N          corpora in parallel (default 2)
  --keep DIR        keep each corpus under DIR/corpus-<index> instead of deleting it
  --only I          run only corpus number I of the seed (repeatable)
  --examples N      examples printed per difference class (default 1)
  --eras E          legacy, modern or legacy,modern (default)
  --from madr       the MADR mode above; --reference-cli CMD is the reference CLI (default: Bun
                    running packages/cli/src/index.ts), --no-migrate-check skips the migrate check

Comparison (the conformance pack's rules, tests/conformance/README.md): fingerprints by
bijection within a session; cursors only null versus non-null; finding messages exactly for the
fixed-template rules, otherwise only rule/severity/path/id/field/pattern; an `isError: true`
result only by `isError` and the type of its first content item; everything else exactly,
key order aside. Allowed, documented departures (README "Where we differ from the reference"):
search normalisation of characters the running Python's Unicode database does not know (the reference uses its
runtime's ICU). The protocol departures of the conformance pack never arise here: the tester
sends only well-formed requests after a legacy `initialize` handshake.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import queue
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import unicodedata
from typing import Any, Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SERVER = "%s %s" % (shlex.quote(sys.executable), shlex.quote(os.path.join(HERE, "..", "adrkit_mcp.py")))
DEFAULT_REFERENCE = "/tmp/bunbin/node_modules/.bin/bun /tmp/adrkit-ref/packages/mcp/src/bin.ts"
DEFAULT_REFERENCE_CLI = "/tmp/bunbin/node_modules/.bin/bun /tmp/adrkit-ref/packages/cli/src/index.ts"
TOOLS = ("search_decisions", "get_decision", "get_decision_context", "list_superseded")
TIMEOUT = 60.0

# ---------------------------------------------------------------------------
# Vocabulary: words that land in titles, bodies, tags and queries
# ---------------------------------------------------------------------------

WORDS = ["postgres", "cache", "queue", "Kafka", "retry", "ledger", "gateway", "schema", "Straße",
         "ﬁle", "Ｆｕｌｌ", "ΣΟΦΙΑ", "café", "cafe\u0301", "İstanbul", "K\u212a", "Ⅻ", "naïve", "日本語",
         "emoji😀", "x\U0001d400y", "ﬃ", "tab\tword", "nbsp\u00a0gap", "\u1e9e", "ǅ", "①", "x²"]
# Characters newer than Python 3.11's Unicode 14 (15.0 to 16.0), and the lower-case partners the
# reference's ICU maps the capitals to; only a query holding one of these can search differently.
NEW_UNICODE = ["\ua7cb", "\ua7dc", "\U00010d50", "\U0001fae8", "\U00011f04"]
NEW_UNICODE_PARTNERS = ["\u0264", "\u019b", "\U00010d70"]
TAGS = ["db", "infra", "process", "api", "security", "ui", "Bad_Tag", "x" * 65, "", "a-b", "db"]
STATUSES = ["draft", "proposed", "accepted", "rejected", "superseded", "deprecated"]
SCOPES = ["component", "domain", "org"]
IDENTITIES = ["@alice", "@bob-2", "team:core", "ops@example.com", "alice", "@", "team:Core",
              "a b@c.d", "@al\u00e9", "x@y.z", " @alice", "@alice\ufeff", "@ali\u0085ce"]
PATH_PATTERNS = ["src/**", "src/*.py", "docs/**/*.md", "lib/{a,b}/**", "**/*.ts", "pkg/[0-9]*",
                 "*.md", "!src/x.py", "tests/**", "src/a/b.py", "/abs/**", "src/**/[^.]*.py",
                 "{src,lib}/**/*.{js,ts}", "**", "src/?.py", ".github/**", "src/+(a|b)/*", "ünï/**"]
PACKAGES = ["react@>=19", "left-pad", "@scope/pkg@^1.2.0", "lodash@", "foo@not a range",
            "react@1.x || >=2.5", "mqtt@^5.0.0"]
FILES = ["./src/app.py", "src//a.py", "src/./a.py", "src/", ".", "src/A.PY", "x\u0085y", "日本/語.md",
         "src/app.py", "src/a/b.py", "docs/adr/0001-x.md", "lib/a/x.js", "lib/b/y.ts", "pkg/1x",
         "README.md", "tests/t.py", "src/x.py", ".github/w.yml", "src/.hidden/x.py", "react",
         "ünï/ü.txt", "src/a.py", "src/b/c.ts", "package.json", "src/a/x"]
BAD_FILES = ["../x", "/abs", "a\\b", "C:/x", "", "x" * 1025]

# ---------------------------------------------------------------------------
# YAML text for a frontmatter value, in a randomly chosen but valid style
# ---------------------------------------------------------------------------

_PLAIN_OK = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ._-/")


def yaml_scalar(rng: random.Random, value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return rng.choice(["null", "~", ""])
    if isinstance(value, (int, float)):
        return repr(value) if not isinstance(value, float) or value == value else ".nan"
    text = str(value)
    style = rng.random()
    if (style < 0.4 and text and set(text) <= _PLAIN_OK and text[0].isalpha()
            and text == text.strip() and text.lower() not in ("true", "false", "null", "yes", "no")):
        return text
    if style < 0.6 and all(c >= " " or c == "\t" for c in text):
        return "'" + text.replace("'", "''") + "'"
    return json.dumps(text, ensure_ascii=rng.random() < 0.5)


def yaml_lines(rng: random.Random, value: Any, indent: int) -> List[str]:
    """Block-style lines for a mapping or sequence value at `indent` spaces."""
    pad = " " * indent
    lines = []
    if isinstance(value, dict):
        for key, item in value.items():
            lines.extend(yaml_entry(rng, pad + yaml_key(key), item, indent))
        return lines
    for item in value:
        if isinstance(item, dict) and item:
            inner = yaml_lines(rng, item, indent + 2)
            lines.append(pad + "- " + inner[0].lstrip())
            lines.extend(inner[1:])
        else:
            lines.extend(yaml_entry(rng, pad + "-", item, indent, seq=True))
    return lines


def yaml_key(key: str) -> str:
    return key + ":" if key and set(key) <= _PLAIN_OK and key == key.strip() else json.dumps(key) + ":"


def yaml_entry(rng: random.Random, head: str, item: Any, indent: int, seq: bool = False) -> List[str]:
    if isinstance(item, (dict, list)):
        if not item:
            return [head + (" {}" if isinstance(item, dict) else " []")]
        if rng.random() < 0.3 or (seq and isinstance(item, list)):
            return [head + " " + json.dumps(item, ensure_ascii=False)]
        return [head] + yaml_lines(rng, item, indent + 2)
    return [head + " " + yaml_scalar(rng, item)]


def frontmatter_text(rng: random.Random, fm: Dict[str, Any]) -> str:
    if rng.random() < 0.1:
        return json.dumps(fm, ensure_ascii=False, indent=rng.choice([None, 1])) + "\n"
    return "\n".join(yaml_lines(rng, fm, 0)) + "\n"


# ---------------------------------------------------------------------------
# Random records
# ---------------------------------------------------------------------------

def pick_ref(rng: random.Random, ids: List[str]) -> Any:
    roll = rng.random()
    if roll < 0.7 and ids:
        return rng.choice(ids)
    return rng.choice(["0999", "core:0007", "platform-tools:0101", "01ARZ3NDEKTSV4RRFFQ69G5FAV", "abc",
                       "Core:0001", 42, "12345", " 0001"])


def gen_affects(rng: random.Random) -> Dict[str, Any]:
    kind = rng.choice(["path"] * 6 + ["package"] * 2 + ["entity", "resource", "api", "data", "bogus"])
    pattern = rng.choice(PATH_PATTERNS) if kind == "path" else rng.choice(PACKAGES + ["x"])
    matcher = {"type": kind, "pattern": pattern if rng.random() > 0.03 else ""}
    if rng.random() < 0.15:
        matcher["negate"] = rng.choice([True, False, "yes"])
    if rng.random() < 0.08:
        matcher["repo"] = rng.choice(["other", "local"])
    if rng.random() < 0.1:
        matcher["note"] = rng.choice(WORDS)
    if rng.random() < 0.03:
        matcher["extra"] = 1
    return matcher


def gen_blocks(rng: random.Random, fm: Dict[str, Any]) -> None:
    """The optional nested blocks: provenance, review, evaluation, externalRefs, assertions."""
    if rng.random() < 0.15:
        prov = {"authoredBy": rng.choice(["human", "agent", "agent-drafted", "robot"])}
        if rng.random() < 0.5:
            prov["ratifiedBy"] = rng.choice(IDENTITIES)
        if rng.random() < 0.3:
            prov["importedFrom"] = {"sourceKind": rng.choice(["madr", "other", "wiki"]), "sourceRef": "w/1.md",
                                    "fingerprint": "sha256:ab"}
        if rng.random() < 0.3:
            prov["agent"] = {"name": "scribe", "harness": rng.choice(["claude-code", 3])}
        fm["provenance"] = prov
    if rng.random() < 0.12:
        fm["review"] = {"tier": rng.choice(["auto", "async", "arb", "fast"]),
                        "slaDays": rng.choice([0, 3, -1, 2.5, 2 ** 53, 1e3]),
                        "queuedAt": rng.choice(["2025-10-01T09:00:00Z", "2025-10-01T09:00:00", "2025-13-01T00:00:00Z"]),
                        "approvals": rng.sample(IDENTITIES, 2),
                        "objections": [{"by": rng.choice(IDENTITIES), "resolved": rng.choice([True, "no"])}]}
    if rng.random() < 0.1:
        fm["evaluation"] = {"confidence": rng.choice([0, 0.5, 1, 1.5, -0.0]),
                            "scores": {"clarity": rng.choice([0, 3, 4.5])},
                            "escalationReasons": [rng.choice(["one-way-door", "low-confidence", "whim"])]}
    if rng.random() < 0.12:
        fm["externalRefs"] = [{"type": rng.choice(["issue", "pr", "rfc", "blog"]),
                               "url": rng.choice(["https://example.com/1", " https://example.com/2 ", "not a url",
                                                  "http://[::1]:80/", "https://ex ample.com", "mailto:a@b.c",
                                                  "https://xn--caf-dma.example/", "http://256.1.1.1/"])}]
    if rng.random() < 0.08:
        fm["assertions"] = [{"id": rng.choice(["ok-id", "Bad Id"]), "engine": rng.choice(["grep", "sql"]),
                             "severity": rng.choice(["error", "warn", "fatal"])}]


def gen_frontmatter(rng: random.Random, ident: Any, ids: List[str], unicode_new: bool) -> Dict[str, Any]:
    status = rng.choice(STATUSES + ["accepted", "Accepted", "unknown"] if rng.random() < 0.1 else STATUSES)
    words = rng.sample(WORDS, 3) + ([rng.choice(NEW_UNICODE)] if unicode_new and rng.random() < 0.5 else [])
    fm = {"id": ident, "title": rng.choice([" ".join(words), "Use " + words[0], "ab", "x" * 121, "  pad  "]),
          "status": status, "date": rng.choice(["2024-01-01"] * 8 + ["2024-02-30", "2024-1-1", 20240101])}
    if rng.random() < 0.1:
        fm["schemaVersion"] = rng.choice(["0.1.0", "1.0", "0.2.0"])
    if status == "accepted" and rng.random() < 0.85 or rng.random() < 0.3:
        fm["deciders"] = rng.sample(IDENTITIES[:4], rng.randint(1, 2)) if rng.random() < 0.8 else [rng.choice(IDENTITIES)]
    if rng.random() < 0.6:
        fm["tags"] = [rng.choice(TAGS) for _ in range(rng.randint(0, 3))]
    if rng.random() < 0.5:
        fm["scope"] = rng.choice(SCOPES + ["global"] if rng.random() < 0.1 else SCOPES)
    if status == "superseded" and rng.random() < 0.85 or rng.random() < 0.04:
        fm["supersededBy"] = pick_ref(rng, ids)
    for key, chance in (("supersedes", 0.25), ("relatesTo", 0.25), ("conflictsWith", 0.12)):
        if rng.random() < chance:
            fm[key] = [pick_ref(rng, ids) for _ in range(rng.randint(1, 3))]
    if rng.random() < 0.7:
        fm["affects"] = [gen_affects(rng) for _ in range(rng.randint(1, 4))]
    if rng.random() < 0.1:
        fm["reversibility"] = rng.choice(["one-way-door", "two-way-door", "unknown"])
    gen_blocks(rng, fm)
    if rng.random() < 0.55:
        return sanitise(rng, fm)
    mutate(rng, fm)
    return fm


GOOD_TAGS = ["db", "infra", "process", "api", "security", "ui", "a-b"]
GOOD_URLS = ["https://example.com/1", "http://[::1]:80/", "mailto:a@b.c", "https://xn--caf-dma.example/"]


def sanitise(rng: random.Random, fm: Dict[str, Any]) -> Dict[str, Any]:
    """The same record made valid, so that search, context and supersession see many records."""
    fm["id"] = str(fm.get("id", "0001")) if isinstance(fm.get("id"), str) else "0001"
    fm["title"] = fm["title"] if 3 <= len(str(fm["title"]).encode("utf-16-le")) // 2 <= 120 else "Use a cache"
    fm["status"] = fm["status"] if fm["status"] in STATUSES else "draft"
    fm["date"] = "2024-01-01"
    for key in ("schemaVersion", "provenance", "review", "evaluation", "assertions", "reversibility"):
        fm.pop(key, None)
    if "deciders" in fm or fm["status"] == "accepted":
        fm["deciders"] = rng.sample(IDENTITIES[:4], rng.randint(1, 2))
    if "tags" in fm:
        fm["tags"] = sorted(set(rng.choice(GOOD_TAGS) for _ in range(len(fm["tags"]))))
    if fm.get("scope") not in SCOPES:
        fm.pop("scope", None)
    for key in ("supersedes", "relatesTo", "conflictsWith"):
        if key in fm:
            fm[key] = sorted(set(ref for ref in fm[key] if isinstance(ref, str) and ref.strip() == ref and
                                 ref not in ("abc", "Core:0001")))
    if fm["status"] == "superseded" and not isinstance(fm.get("supersededBy"), str):
        fm["supersededBy"] = "0999"
    if fm["status"] != "superseded":
        fm.pop("supersededBy", None)
    elif fm["supersededBy"] in ("abc", "Core:0001", " 0001"):
        fm["supersededBy"] = "0001"
    for matcher in fm.get("affects", []):
        matcher.pop("extra", None)
        matcher["type"] = matcher["type"] if matcher["type"] != "bogus" else "path"
        matcher["pattern"] = matcher["pattern"] or "src/**"
        if not isinstance(matcher.get("negate", False), bool):
            matcher["negate"] = True
    if "externalRefs" in fm:
        fm["externalRefs"] = [{"type": "rfc", "url": rng.choice(GOOD_URLS)}]
    return fm


def mutate(rng: random.Random, fm: Dict[str, Any]) -> None:
    """Wrong types, unknown keys, unusual values."""
    roll = rng.random()
    if roll < 0.05:
        fm[rng.choice(["color", "Title", "", "affects2"])] = "x"
    elif roll < 0.10:
        key = rng.choice(list(fm))
        fm[key] = rng.choice([1, True, None, [], {}, "2024-01-01", 1.5, ["a"], {"k": 1}])
    elif roll < 0.13:
        fm.pop(rng.choice(["id", "title", "status", "date"]), None)
    elif roll < 0.16:
        fm["complianceControls"] = rng.choice([["SOC2 CC8.1", "SOC2 CC8.1"], ["ISO 27001"], []])
    elif roll < 0.19:
        fm["reviewBy"] = rng.choice(["2027-03-01", "2027-02-29", "soon"])


def gen_body(rng: random.Random, unicode_new: bool) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(0, 12))]
    body = " ".join(words)
    if unicode_new:
        body += " " + rng.choice(NEW_UNICODE)
    if rng.random() < 0.03:
        body += rng.choice(["\udcff\udcfe", "\x00", "\u2028", "\r\n\r"])
    return rng.choice(["", "\n", "## Context\n\n" + body + "\n", body, "---\n" + body + "\n---\n"]
                      if not unicode_new else [body, "## Context\n\n" + body + "\n"])


def gen_ids(rng: random.Random, count: int) -> List[str]:
    spread = rng.choice([count // 3 + 1, count + 2, count * 2 + 2])
    ids = ["%04d" % rng.randint(1, max(2, spread)) for _ in range(count)]
    for index in range(len(ids)):
        if rng.random() < 0.05:
            ids[index] = rng.choice(["01JBQ7R3X5M8N2P4T6V9W0YZKH", "12345", "01jbq7r3x5m8n2p4t6v9w0yzkh"])
    return ids


def record_text(rng: random.Random, fm: Dict[str, Any], body: str) -> str:
    roll = rng.random()
    if roll < 0.03:
        return frontmatter_text(rng, fm) + body  # no opening fence
    if roll < 0.06:
        return "---\n" + frontmatter_text(rng, fm)  # unterminated
    if roll < 0.10:
        return "---\n" + rng.choice(["title: [unclosed\n", "id: '0001'\nid: '0002'\n", "\tid: x\n",
                                     "a: *nope\n", ":\n", "- 1\n", "", "key: 'Core:0001''\n x\n"]) + "---\n" + body
    text = "---\n" + frontmatter_text(rng, fm) + "---\n" + body
    roll = rng.random()
    if roll < 0.05:
        text = text.replace("\n", "\r\n")
    elif roll < 0.07:
        text = text.replace("\n", "\r")
    elif roll < 0.09:
        text = "\ufeff" + text
    elif roll < 0.11:
        text = text.replace("---\n", rng.choice(["--- \n", "----\n", " ---\n"]), 1)
    elif roll < 0.13:
        text = rng.choice(["", "---", "---\n", "---\n---\n", "\n---\nid: '0001'\n---\n"])
    return text


def gen_corpus(rng: random.Random) -> Tuple[Dict[str, str], bool]:
    """{relative path: text} for one corpus, and whether it holds characters newer than our Unicode."""
    unicode_new = rng.random() < 0.1
    count = rng.choice([0, 1, 2, 3, 5, 8, 8, 12, 12, 20, 30, 45])
    ids = gen_ids(rng, count)
    files = {}
    for index, ident in enumerate(ids):
        slug = rng.choice(WORDS[:8]).lower() if rng.random() < 0.9 else rng.choice(["ünï", "a b", "x😀"])
        number = ident if ident.isdigit() and rng.random() < 0.8 else "%04d" % (index + 1)
        name = "docs/adr/%s-%s-%d.md" % (number, slug, index)
        value = int(ident) if ident.isdigit() and rng.random() < 0.04 else ident
        fm = gen_frontmatter(rng, value, ids, unicode_new)
        files[name] = record_text(rng, fm, gen_body(rng, unicode_new))
    if rng.random() < 0.2:
        files["docs/adr/README.md"] = "# Decisions\n"
        files["docs/adr/0000-template.md"] = "---\nid: x\n---\n"
    if rng.random() < 0.1:
        for name in rng.sample(["docs/adr/0001-upper.MD", "docs/adr/nested/0002-x.md", "docs/adr/.0003-dot.md",
                                "docs/adr/0004-x.markdown", "docs/adr/notes.md", "docs/adr/0005-dir.md/0006-y.md",
                                "docs/adr/123-short.md", "docs/adr/00001-five.md", "docs/adr/0007-\u2028.md"], 3):
            files[name] = "---\nid: \"%s\"\ntitle: Odd file\nstatus: draft\ndate: 2024-01-01\n---\nodd\n" % (
                name.split("/")[-1][:4] if name.split("/")[-1][:4].isdigit() else "0009")
    if rng.random() < 0.03:
        files["docs/adr/9999-huge.md"] = "---\nid: \"9999\"\n---\n" + "x" * 70000
    if rng.random() < 0.04:
        head = "---\nid: \"9998\"\ntitle: Exactly at the limit\nstatus: draft\ndate: 2024-01-01\n---\n"
        files["docs/adr/9998-edge.md"] = head + "y" * (65536 - len(head) + rng.choice([0, 1]))
    return files, unicode_new


# ---------------------------------------------------------------------------
# MADR and Nygard corpora (--from madr)
# ---------------------------------------------------------------------------

MADR_TITLES = ["Use Postgres for the ledger", "Record architecture decisions", "Adopt Kafka for events",
               "Use `uv` for **packaging**", "Cache at the edge #", "  Retry with back-off  ",
               "ADR-0003: Split the gateway", "Café au lait", "日本語の決定", "ab", "x" * 121,
               "Use [Straße](https://example.com) naming", "Don't <b>panic</b>", "K\u212a units", "emoji😀 API",
               "Line\u2028separated title", "Trailing hashes ##", "ǅemo of titles", "x" * 120]
MADR_STATUS_WORDS = ["accepted", "proposed", "rejected", "deprecated", "superseded", "draft"]
MADR_PEOPLE = ["@alice", "@bob-2", "team:core", "ops@example.com", "Alice Smith", "Bob",
               "[list everyone involved in the decision]", "@al_ice", "team:Core", "x@y", "@carol"]
MADR_DECORATIONS = ["{}"] * 8 + ["**{}**", "`{}`", "[{}](#)", "<{}>", "{}.", "_{}_", " {} ", "{};"]


def madr_decorate(rng: random.Random, word: str) -> str:
    return rng.choice(MADR_DECORATIONS).format(word)


def madr_status(rng: random.Random, numbers: List[str]) -> str:
    """A status as MADR and Nygard write it: any case and decoration, superseded-by forms."""
    roll = rng.random()
    if roll < 0.55:
        word = rng.choice(MADR_STATUS_WORDS)
        word = rng.choice([word, word, word.capitalize(), word.upper()])
    elif roll < 0.8:
        target = rng.choice(numbers) if numbers and rng.random() < 0.75 else rng.choice(["0999", "12345", "7"])
        word = rng.choice(["superseded by [ADR-{n}]({n}-other.md)", "Superseded by ADR-{n}", "superseded by {n}",
                           "Superseded by [{n}. Other](./{n}-other.md)", "SUPERSEDED BY {n}",
                           "supersedes by {n}", "Superseded  by\t{n}", "superseded by ADR {n}, see there",
                           "superseded by #{n}"]).format(n=target)
    else:
        word = rng.choice(["", "in progress", "Accepted ✅", "Superseded", "supersedes ADR-0001",
                           "{proposed | rejected | accepted | deprecated | … | superseded by [ADR-0005](0005-x.md)}",
                           "accepted; see below", "Accepted on 2024-01-01", "ＡＣＣＥＰＴＥＤ", "acceptéd"])
    return madr_decorate(rng, word)


def madr_date(rng: random.Random, crash_ok: bool) -> str:
    if crash_ok and rng.random() < 0.15:
        return rng.choice(["2024-13-01", "2024-00-10", "2024-01-32", "2024-01-00"])
    return madr_decorate(rng, rng.choice(
        ["2024-03-01"] * 5 + ["2023-12-31", "2024-02-29", "2023-02-29", "2024-02-30", "2024-04-31", "2024-1-5",
                              "March 2024", "", "2024-05-06T10:00:00Z", "0000-01-01", " 2024-05-06 "]))


def madr_deciders(rng: random.Random) -> str:
    people = rng.sample(MADR_PEOPLE, rng.randint(1, 3))
    return rng.choice([", ", "; ", " and ", ",", " AND ", " , "]).join(people)


def madr_prose(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 14)))


def madr_sections(rng: random.Random, numbers: List[str]) -> str:
    parts = []
    for heading in rng.sample(["Context and Problem Statement", "Decision Drivers", "Considered Options",
                               "Decision Outcome", "Consequences", "Pros and Cons of the Options", "Links"],
                              rng.randint(0, 4)):
        parts.append("## %s\n\n%s\n" % (heading, madr_prose(rng)))
        if rng.random() < 0.1:  # field-shaped prose below the header region
            parts.append("* Status: %s\n* Deciders: %s\n" % (madr_status(rng, numbers), madr_deciders(rng)))
        if rng.random() < 0.05:
            parts.append("### Status\n\n%s\n" % madr_status(rng, numbers))
    return "\n".join(parts)


def madr_bullet(rng: random.Random, field: str, value: str) -> str:
    label = rng.choice([field.capitalize(), field, field.upper()])
    form = rng.choice(["* {l}: {v}", "* {l}: {v}", "- {l}: {v}", "+ {l}: {v}", "{l}: {v}", "**{l}:** {v}",
                       "* **{l}**: {v}", "*   {l} :\t{v}", "__{l}__: {v}", "  - {l}:{v}"])
    return form.format(l=label, v=value)


def madr2_text(rng: random.Random, title: str, numbers: List[str], crash_ok: bool) -> str:
    """MADR 2.x: a `# Title`, header bullets above the first `##` section."""
    bullets = []
    if rng.random() < 0.9:
        bullets.append(madr_bullet(rng, "status", madr_status(rng, numbers)))
    if rng.random() < 0.7:
        bullets.append(madr_bullet(rng, "deciders", madr_deciders(rng)))
    if rng.random() < 0.75:
        bullets.append(madr_bullet(rng, "date", madr_date(rng, crash_ok)))
    rng.shuffle(bullets)
    story = "\nTechnical Story: %s\n" % madr_prose(rng) if rng.random() < 0.3 else ""
    if bullets and rng.random() < 0.05:
        bullets.append(rng.choice(bullets))  # a field twice: the first one counts
    if rng.random() < 0.03:
        bullets.append(madr_bullet(rng, "status", "accepted " + "word " * 120))  # past the 512-character cut
    return "%s\n\n%s\n%s\n%s" % (madr_heading(rng, title), "\n".join(bullets), story, madr_sections(rng, numbers))


def madr_heading(rng: random.Random, title: str) -> str:
    return rng.choice(["# {}"] * 8 + ["#  {}  ##", "#\t{}", "# {} #", "{}\n=====", "  # {}", "# {}\t "]).format(title)


def nygard_text(rng: random.Random, title: str, numbers: List[str], crash_ok: bool) -> str:
    """Nygard / adr-tools: `# N. Title`, a Date line, `## Status` with the value below."""
    heading = "# %d. %s" % (rng.randint(1, 40), title) if rng.random() < 0.7 else "# " + title
    date = ""
    if rng.random() < 0.6:
        date = "Date: %s\n\n" % madr_date(rng, crash_ok)
    elif rng.random() < 0.3:
        date = "## Date\n\n%s\n\n" % madr_date(rng, crash_ok)
    status = ""
    if rng.random() < 0.9:
        mark = rng.choice(["## Status", "## Status", "### Status", "## status", "## Status ##", "##Status"])
        status = "%s\n\n%s%s\n\n" % (mark, "\n" if rng.random() < 0.2 else "", madr_status(rng, numbers))
        if numbers and rng.random() < 0.2:
            status += "Supersedes [%s. Old](%s-old.md)\n\n" % (numbers[0], numbers[0])
    deciders = "## Deciders\n\n%s\n\n" % madr_deciders(rng) if rng.random() < 0.15 else ""
    return "%s\n\n%s%s%s## Context\n\n%s\n\n## Decision\n\n%s\n\n## Consequences\n\n%s\n" % (
        heading, date, status, deciders, madr_prose(rng), madr_prose(rng), madr_prose(rng))


def madr3_frontmatter(rng: random.Random, numbers: List[str], crash_ok: bool) -> Dict[str, Any]:
    """MADR 3/4 frontmatter, with some adrkit keys (affects, tags, id...) valid or not."""
    fm = {}  # type: Dict[str, Any]
    if rng.random() < 0.85:
        fm["status"] = madr_status(rng, numbers)
    if rng.random() < 0.8:
        fm["date"] = madr_date(rng, crash_ok)
    if rng.random() < 0.5:
        fm[rng.choice(["deciders", "deciders", "decision-makers"])] = (
            madr_deciders(rng) if rng.random() < 0.6 else rng.sample(MADR_PEOPLE[:4] + ["Alice Smith"], 2))
    for key in ("consulted", "informed"):
        if rng.random() < 0.3:
            fm[key] = madr_deciders(rng) if rng.random() < 0.5 else rng.sample(MADR_PEOPLE[:4], 1)
    if rng.random() < 0.45:
        fm["affects"] = ([gen_affects(rng) for _ in range(rng.randint(1, 3))] if rng.random() < 0.9
                         else rng.choice(["src/**", [{"type": "path"}], []]))
        for matcher in fm["affects"] if isinstance(fm["affects"], list) else []:
            if rng.random() < 0.8:
                matcher["type"], matcher["pattern"] = "path", rng.choice(PATH_PATTERNS)
                matcher.pop("extra", None)
    if rng.random() < 0.3:
        fm["tags"] = rng.sample(GOOD_TAGS, 2) if rng.random() < 0.8 else ["Bad Tag"]
    if rng.random() < 0.15:
        fm["id"] = rng.choice(numbers + ["0042", "7", "01JBQ7R3X5M8N2P4T6V9W0YZKH", "abc"]) if numbers else "0042"
    if rng.random() < 0.15:
        fm["title"] = rng.choice(MADR_TITLES + ["", "   "])
    for key, chance in (("supersedes", 0.1), ("relatesTo", 0.1), ("conflictsWith", 0.05)):
        if rng.random() < chance:
            fm[key] = [rng.choice(numbers + ["0999"]) if numbers else "0999"]
    if rng.random() < 0.08:
        fm["supersededBy"] = rng.choice(numbers + ["0999"]) if numbers else "0999"
    if rng.random() < 0.1:
        fm[rng.choice(["scope", "reversibility", "blastRadius", "created", "domain", "reviewBy"])] = rng.choice(
            ["domain", "org", "one-way-door", "2024-02-01", "billing", "soon", "2027-01-01", 3])
    if rng.random() < 0.06:
        fm["provenance"] = rng.choice([{"authoredBy": "agent"}, {"authoredBy": "robot"}, "x",
                                       {"importedFrom": {"importedAt": "2024-01-01T00:00:00Z"}}])
    if rng.random() < 0.05:
        fm["schemaVersion"] = rng.choice(["0.1.0", "0.2.0", "1", 1])
    return fm


def madr3_text(rng: random.Random, title: str, numbers: List[str], crash_ok: bool) -> str:
    fm = madr3_frontmatter(rng, numbers, crash_ok)
    head = "---\n" + ("\n".join(yaml_lines(rng, fm, 0)) + "\n" if fm else "") + "---\n"
    if rng.random() < 0.04:  # not a fence: the whole text is the body, read for a `# ` title
        head = head.replace("---\n", rng.choice(["--- \n", "---\t\n", " ---\n", "----\n"]), 1)
    if rng.random() < 0.05:
        head = head.replace("---\n", "---\n%s: %s\n" % (rng.choice(["status", "title", "date"]), rng.choice(
            ["1", "[accepted]", "null", "true", "{a: 1}", "2024-03-01"])), 1)
    heading = madr_heading(rng, title) + "\n\n" if "title" not in fm or rng.random() < 0.5 else ""
    return head + heading + madr_sections(rng, numbers)


def not_madr_text(rng: random.Random) -> str:
    return rng.choice(["Just some notes, no heading.\n", "", "\n\n", "## Only a second-level heading\n",
                       "#NoSpace heading\n", "---\ntitle: [unclosed\n---\n# T\n", "---\nno closing fence\n# Title\n",
                       "---\n- 1\n- 2\n---\n# A list for frontmatter\n", "---\n---\n", "---",
                       "---\nstatus: accepted\n---\nno title here\n", "#\n", "# \n", "# ##\n",
                       "\udcff\udcfe binary \x00 bytes\n", "---\na: *nope\n---\n# Alias\n"])


def adrkit_text(rng: random.Random, ident: str, numbers: List[str], paths: List[str], body: str) -> str:
    """An adrkit record among the sources; some claim to have been imported from a MADR file
    (paths[0] is the record's own path: a source imported in place and left unchanged)."""
    fm = gen_frontmatter(rng, ident, numbers, False)
    if isinstance(fm, dict) and rng.random() < 0.5:
        origin = {"sourceKind": rng.choice(["madr"] * 5 + ["other"]), "sourceRef": rng.choice(paths[:1] * 3 + paths),
                  "fingerprint": rng.choice([madr_fingerprint(body)] * 3 + ["sha256:ab", "0" * 64])}
        fm["provenance"] = {"authoredBy": "human", "importedFrom": origin}
        if rng.random() < 0.3:
            origin["importedAt"] = rng.choice(["2024-01-01T00:00:00Z", 5])
    if rng.random() < 0.85:
        return "---\n" + "\n".join(yaml_lines(rng, fm, 0)) + "\n---\n" + body
    return record_text(rng, fm, body)


def madr_fingerprint(body: str) -> str:
    """fingerprintSourceBody, so that some adrkit records classify as unchanged."""
    text = body.replace("\r\n", "\n").replace("\r", "\n").rstrip("\n") + "\n"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def madr_name(rng: random.Random, number: str, title: str, index: int) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:30] or "record"
    roll = rng.random()
    if roll < 0.6:
        name = "%s-%s.md" % (number, slug)
    elif roll < 0.72:
        name = "%s-%d.md" % (slug, index)
    elif roll < 0.78:
        name = "adr-%s-%s.md" % (number[-3:], slug)
    elif roll < 0.82:
        name = "%s-%s.md" % (number.lstrip("0") or "0", slug)
    elif roll < 0.85:
        name = "0%s-%s.md" % (number, slug)
    elif roll < 0.88:
        name = "%s_%s.md" % (number, slug)
    elif roll < 0.985:
        name = "%s-%s-%d.md" % (number, rng.choice(["ünï", "a b", "x😀", "UPPER", "Ünï", "_x", "-"]), index)
    elif roll < 0.997:
        name = "%s-%s.md" % (rng.choice(["0000", "00000", "4294967296", "1000000"]), slug)
    else:  # past 2**53: the reference's run hangs as soon as two ids are allocated
        name = "%s-%s.md" % (rng.choice(["99999999999999999999", "9007199254740993", "9007199254740990"]), slug)
    if rng.random() < 0.12:
        return "docs/adr/%s/%s" % (rng.choice(["archive", "old/2023", "Nested", "sub dir"]), name)
    return "docs/adr/" + name


def madr_encode(rng: random.Random, text: str) -> str:
    roll = rng.random()
    if roll < 0.08:
        text = text.replace("\n", "\r\n")
    elif roll < 0.1:
        text = text.replace("\n", "\r")
    if rng.random() < 0.04:
        text = "\ufeff" + text
    if rng.random() < 0.02:
        text += "\udcff trailing invalid UTF-8\n"
    return text


def madr_source(rng: random.Random, title: str, numbers: List[str], crash_ok: bool) -> str:
    dialect = rng.random()
    if dialect < 0.35:
        return madr2_text(rng, title, numbers, crash_ok)
    if dialect < 0.6:
        return nygard_text(rng, title, numbers, crash_ok)
    if dialect < 0.92:
        return madr3_text(rng, title, numbers, crash_ok)
    return not_madr_text(rng)


def gen_madr_corpus(rng: random.Random) -> Tuple[Dict[str, str], List[str]]:
    """{relative path: text} of one MADR/Nygard corpus, and ids worth asking for."""
    count = rng.choice([0, 1, 2, 3, 5, 8, 8, 12, 12, 20, 30, 60])
    crash_ok = rng.random() < 0.08
    spread = max(2, rng.choice([count + 2, count * 2 + 2]))
    numbers = sorted(set("%04d" % rng.randint(1, spread) for _ in range(count)))
    files = {}  # type: Dict[str, str]
    for index in range(count):
        number = "%04d" % rng.randint(1, spread)
        title = rng.choice(MADR_TITLES[:6]) if rng.random() < 0.8 else rng.choice(MADR_TITLES)
        name = madr_name(rng, number, title, index)
        if rng.random() < 0.12:
            text = adrkit_text(rng, number, numbers, [name] + sorted(files), madr_sections(rng, numbers))
        else:
            text = madr_source(rng, title, numbers, crash_ok)
        files[name] = madr_encode(rng, text)
    for name in rng.sample(["docs/adr/README.md", "docs/adr/readme.md", "docs/adr/index.md",
                            "docs/adr/CONTRIBUTING.md", "docs/adr/template.md", "docs/adr/0000-template.md",
                            "docs/adr/archive/README.md", "docs/adr/notes.txt", "docs/adr/0090-x.markdown",
                            "docs/adr/0091-upper.MD"], rng.choice([0, 0, 1, 2, 3])):
        files[name] = "# %s\n\n* Status: accepted\n" % name.rsplit("/", 1)[-1]
    if rng.random() < 0.03:
        files["docs/adr/0777-huge.md"] = "# Huge\n\n* Status: accepted\n\n" + "x" * 70000 + "\n"
    if rng.random() < 0.03:  # under the cap as a source, over it once migrated
        files["docs/adr/0778-edge.md"] = "# Near the limit\n\n* Status: accepted\n\n" + "y" * 65400 + "\n"
    ids = sorted(set(numbers) | set(re.findall(r"\b[0-9]{4,}\b", " ".join(files))))
    return files, ids[:40] + ["%04d" % rng.randint(1, spread + 3)]


def premigrate(options: argparse.Namespace, rng: random.Random, files: Dict[str, str]) -> None:
    """An earlier, partial migration: some of the files as the reference's migrate of only those
    left them, a few edited since (so that the next run finds unchanged and updated sources)."""
    chosen = rng.sample(sorted(files), rng.randint(1, len(files)))
    root = tempfile.mkdtemp(prefix="difftest-pre-")
    try:
        write_corpus(root, {name: files[name] for name in chosen})
        reference_migrate(options, root)
        for name, data in tree(root).items():
            files[name] = data.decode("utf-8", "surrogateescape")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    for name in chosen:
        roll = rng.random()
        if roll < 0.15:  # the source body edited since: `updated`
            files[name] += rng.choice(["\nAn added line.\n", "\n\n", "more"])
        elif roll < 0.25:  # the record's frontmatter edited since
            files[name] = files[name].replace("status: proposed", "status: accepted", 1).replace(
                "deciders: []", "deciders:\n  - \"@alice\"", 1)


def mutate_madr(rng: random.Random, files: Dict[str, str], ids: List[str]) -> str:
    """Edit, add, delete, rename or touch one source in `files`; returns what it did."""
    names = sorted(files)
    action = rng.choice(["rewrite", "delete", "add", "add", "rename", "touch", "status"]) if names else "add"
    crash_ok = rng.random() < 0.05
    if action == "add":
        title = rng.choice(MADR_TITLES[:6])
        files[madr_name(rng, "%04d" % rng.randint(1, 40), title, 99)] = madr_source(rng, title, ids, crash_ok)
    elif action == "delete":
        del files[rng.choice(names)]
    elif action == "rename":
        name = rng.choice(names)
        files[madr_name(rng, "%04d" % rng.randint(1, 40), "renamed", 98)] = files.pop(name)
    elif action == "rewrite":
        name = rng.choice(names)
        files[name] = madr_source(rng, rng.choice(MADR_TITLES[:6]), ids, crash_ok)
    elif action == "status":
        name = rng.choice(names)
        files[name] = re.sub(r"(?i)(status:?\**[ \t]*\n*)[^\n]*", lambda m: m.group(1) + madr_status(rng, ids),
                             files[name], count=1)
    return action


# ---------------------------------------------------------------------------
# Random calls
# ---------------------------------------------------------------------------

def gen_paging(rng: random.Random, args: Dict[str, Any]) -> Dict[str, Any]:
    for key in ("limit", "findingsLimit"):
        roll = rng.random()
        if roll < 0.45:
            args[key] = rng.choice([1, 2, 3, 5, 100])
        elif roll < 0.48:
            args[key] = rng.choice([0, 101, 2.5, "5", 1.0, -1])
    if rng.random() < 0.02:
        args["cursor"] = rng.choice(["", "abc", "x" * 5000])
    if rng.random() < 0.01:
        args["bogus"] = 1
    return args


def gen_call(rng: random.Random, ids: List[str], unicode_new: bool) -> Tuple[str, Dict[str, Any]]:
    tool = rng.choice(TOOLS)
    args = {}  # type: Dict[str, Any]
    if tool == "search_decisions":
        word = rng.choice(WORDS + ids)
        if unicode_new and rng.random() < 0.4:
            word = rng.choice(NEW_UNICODE + NEW_UNICODE_PARTNERS)
        word = word if rng.random() < 0.7 else rng.choice([
            word.upper(), word[1:3], " %s " % word, "", "   ", "\ufeff\u3000", "\u0085", "\ud83d", "\ude00",
            word + " " + rng.choice(WORDS), "x" * 257, "\U0001d400" * 128, "\U0001d400" * 129])
        args["query"] = word
        if rng.random() < 0.3:
            args["status"] = rng.sample(STATUSES, rng.randint(1, 3)) if rng.random() < 0.95 else ["Accepted"]
        if rng.random() < 0.2:
            args["tags"] = [rng.choice(TAGS[:6] + ["Db", "ｄｂ", "db "])]
        if rng.random() < 0.2:
            args["scope"] = rng.sample(SCOPES, rng.randint(1, 2))
    elif tool == "get_decision":
        args["ref"] = rng.choice(ids + ids + ["0999", "core:0007", "bad ref", "0001", "01JBQ7R3X5M8N2P4T6V9W0YZKH"]) \
            if ids else "0001"
    elif tool == "get_decision_context":
        args["files"] = rng.sample(FILES, rng.randint(1, 5))
        if rng.random() < 0.04:
            args["files"].append(rng.choice(BAD_FILES))
    return tool, gen_paging(rng, args)


# ---------------------------------------------------------------------------
# One server process over stdio
# ---------------------------------------------------------------------------

SERVER_INFO = "io.modelcontextprotocol/serverInfo"
MODERN_META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
               "io.modelcontextprotocol/clientCapabilities": {}}


class Server(object):
    """A server child speaking line-delimited JSON-RPC; one request at a time.

    era "legacy": an `initialize` handshake opens the session; era "modern": no handshake, every
    request carries the 2026-07-28 `_meta` claim. `extra` is appended to the command line and
    `env` to the environment (`--from madr`, ADRKIT_MCP_FROM).
    """

    def __init__(self, command: str, root: str, era: str = "legacy", extra: Tuple[str, ...] = (),
                 env: Optional[Dict[str, str]] = None) -> None:
        argv = shlex.split(command) + ["--cwd", root, "--dir", "docs/adr"] + list(extra)
        self.era = era
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, cwd=root, env=dict(os.environ, **(env or {})))
        self.lines = queue.Queue()  # type: queue.Queue
        threading.Thread(target=self._pump, daemon=True).start()
        self.next_id = 0

    def _pump(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, method: str, params: Optional[Dict[str, Any]], notify: bool = False) -> Any:
        message = {"jsonrpc": "2.0", "method": method}  # type: Dict[str, Any]
        if self.era == "modern" and not notify:
            params = dict(params or {}, _meta=MODERN_META)
        if params is not None:
            message["params"] = params
        if not notify:
            self.next_id += 1
            message["id"] = self.next_id
        self.proc.stdin.write(json.dumps(message).encode("utf-8", "surrogatepass") + b"\n")
        self.proc.stdin.flush()
        if notify:
            return None
        while True:
            line = self.lines.get(timeout=TIMEOUT)
            if line is None:
                raise RuntimeError("server exited")
            frame = json.loads(line)
            if frame.get("id") == self.next_id:
                return frame

    def handshake(self) -> Any:
        if self.era == "modern":
            return self.send("server/discover", {})
        answer = self.send("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                          "clientInfo": {"name": "difftest", "version": "1"}})
        self.send("notifications/initialized", None, notify=True)
        return answer

    def close(self) -> None:
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait()


# ---------------------------------------------------------------------------
# Normalisation and comparison
# ---------------------------------------------------------------------------

FIXED_TEMPLATE_RULES = ("dangling-", "affects-", "unique-id", "accepted-conflictsWith", "import-incomplete",
                        "corpus-file-skipped", "record-too-large", "record-stat-error", "superseded-target-",
                        "strict-unknown-key", "superseded-requires-supersededBy",
                        "supersededBy-requires-superseded-status", "accepted-requires-decider-unless-imported",
                        "agent-accepted-requires-ratifier", "one-way-door-disallows-auto")
FINDING_KEYS = ("rule", "severity", "path", "id", "field", "pattern")


class Session(object):
    """Per-corpus state: the fingerprint bijection, and cursors both sides minted (ours, ref)."""

    def __init__(self) -> None:
        self.ours_to_ref = {}  # type: Dict[str, str]
        self.ref_to_ours = {}  # type: Dict[str, str]
        self.cursors = []  # type: List[Tuple[str, str]]

    def fingerprint(self, ours: Any, ref: Any) -> Tuple[Any, Any]:
        if not isinstance(ours, str) or not isinstance(ref, str):
            return ours, ref
        if self.ours_to_ref.setdefault(ours, ref) != ref or self.ref_to_ours.setdefault(ref, ours) != ours:
            return "fp:" + ours, "fp:" + ref
        return "<fp>", "<fp>"


def normalise_finding(item: Any) -> Any:
    if not isinstance(item, dict):
        return item
    rule = item.get("rule")
    if isinstance(rule, str) and rule.startswith(FIXED_TEMPLATE_RULES):
        return item
    kept = {key: value for key, value in item.items() if key in FINDING_KEYS}
    kept["message"] = "<string>" if isinstance(item.get("message"), str) else item.get("message")
    return kept


def normalise_result(result: Any) -> Any:
    """Cursors to null/non-null, finding messages of library rules dropped; in place on a copy."""
    if isinstance(result, dict):
        out = {}
        for key, value in result.items():
            if key in ("cursor",) and isinstance(value, str):
                out[key] = "<cursor>" if value else ""
            elif key == "findings" and isinstance(value, dict) and isinstance(value.get("items"), list):
                out[key] = dict(normalise_result(value), items=[normalise_finding(i) for i in value["items"]])
            else:
                out[key] = normalise_result(value)
        return out
    if isinstance(result, list):
        return [normalise_result(item) for item in result]
    return result


def normalise_answer(frame: Any) -> Any:
    if not isinstance(frame, dict) or "result" not in frame:
        return {"error": (frame.get("error") or {}).get("code") if isinstance(frame, dict) else frame}
    result = frame["result"]
    if isinstance(result, dict) and result.get("isError") is True:
        content = result.get("content") or [{}]
        return {"isError": True, "type": content[0].get("type"), "resultType": result.get("resultType")}
    if isinstance(result, dict) and isinstance(result.get("_meta"), dict):  # 2026-07-28: who answered
        meta = {key: value for key, value in result["_meta"].items() if key != SERVER_INFO}
        result = dict(result, _meta=meta) if meta else {k: v for k, v in result.items() if k != "_meta"}
    return normalise_result(result)


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def first_difference(ours: Any, ref: Any, path: str = "$") -> Optional[Tuple[str, Any, Any]]:
    if isinstance(ours, dict) and isinstance(ref, dict):
        for key in list(ref) + [k for k in ours if k not in ref]:
            if key not in ours or key not in ref:
                return path + "." + key, ours.get(key, "<absent>"), ref.get(key, "<absent>")
            found = first_difference(ours[key], ref[key], path + "." + key)
            if found:
                return found
        return None
    if isinstance(ours, list) and isinstance(ref, list):
        for index, (left, right) in enumerate(zip(ours, ref)):
            found = first_difference(left, right, "%s[%d]" % (path, index))
            if found:
                return found
        if len(ours) != len(ref):
            return path + ".length", len(ours), len(ref)
        return None
    same = ours == ref and (isinstance(ours, bool) == isinstance(ref, bool))
    return None if same else (path, ours, ref)


def class_path(path: str, ours_frame: Any, ref_frame: Any) -> str:
    """The difference's path with indices generalised, plus the finding rules there."""
    general = re.sub(r"\[\d+\]", "[]", path)
    match = re.match(r"(.*\.findings\.items)\[(\d+)\]", path)
    if match:
        index = int(match.group(2))
        rules = []
        for frame in (ours_frame, ref_frame):
            items = lookup(frame, match.group(1))
            rules.append(items[index].get("rule") if isinstance(items, list) and index < len(items)
                         and isinstance(items[index], dict) else None)
        general += " (ours %s / ref %s)" % tuple(rules)
    return general


def lookup(value: Any, path: str) -> Any:
    for part in path.split(".")[1:]:
        value = value.get(part) if isinstance(value, dict) else None
    return value


def has_new_unicode(text: str) -> bool:
    """Whether a query holds a character our Unicode database lacks, or the partner of one."""
    return any(unicodedata.category(ch) == "Cn" or ch in NEW_UNICODE_PARTNERS for ch in text)


# ---------------------------------------------------------------------------
# Running one corpus
# ---------------------------------------------------------------------------

class Tally(object):
    """Agreement per tool, difference classes with examples, allowed departures."""

    def __init__(self) -> None:
        self.compared = dict((tool, 0) for tool in TOOLS)
        self.identical = dict((tool, 0) for tool in TOOLS)
        self.classes = {}  # type: Dict[Tuple[str, str], List[Any]]
        self.allowed = {}  # type: Dict[str, int]
        self.allowed_examples = {}  # type: Dict[str, Any]
        self.errors = []  # type: List[str]
        self.causes = {}  # type: Dict[Tuple[str, str, str], List[Any]]
        self.fresh = [0, 0]  # answers compared after a change to the corpus, and identical
        self.changes = {}  # type: Dict[str, int]  # changes made mid-session, by kind
        self.sessions = {}  # type: Dict[str, int]  # sessions run, by era
        self.migrations = {}  # type: Dict[str, int]  # reference migrate runs, by exit status
        self.migrate_same = [0, 0]  # our migrate against the reference CLI's: compared, identical
        self.migrate_diffs = {}  # type: Dict[str, List[Any]]
        self.outcomes = {}  # type: Dict[str, int]  # the reference's outcomes, by tool: what was exercised
        self.rules = {}  # type: Dict[str, int]  # the reference's findings at the end of each session, by rule
        self.records = 0  # the reference's recordCount at the end of each session, summed
        self.cli = {}  # type: Dict[str, List[int]]  # --cli: command -> [compared, identical]
        self.cli_diffs = {}  # type: Dict[str, List[Any]]  # --cli: difference class -> examples
        self.cli_statuses = {}  # type: Dict[str, int]  # --cli: "command exit N" of the reference -> runs

    def merge(self, other: "Tally") -> None:
        for mine, theirs in ((self.fresh, other.fresh), (self.migrate_same, other.migrate_same)):
            mine[0] += theirs[0]
            mine[1] += theirs[1]
        for mine_counts, theirs_counts in ((self.changes, other.changes), (self.sessions, other.sessions),
                                           (self.migrations, other.migrations)):
            for name, count in theirs_counts.items():
                mine_counts[name] = mine_counts.get(name, 0) + count
        for mine_counts, theirs_counts in ((self.outcomes, other.outcomes), (self.rules, other.rules)):
            for name, count in theirs_counts.items():
                mine_counts[name] = mine_counts.get(name, 0) + count
        self.records += other.records
        for name, (compared, same) in other.cli.items():
            mine_pair = self.cli.setdefault(name, [0, 0])
            mine_pair[0] += compared
            mine_pair[1] += same
        for name, examples in other.cli_diffs.items():
            self.cli_diffs.setdefault(name, []).extend(examples)
        for name, count in other.cli_statuses.items():
            self.cli_statuses[name] = self.cli_statuses.get(name, 0) + count
        for name, examples in other.migrate_diffs.items():
            self.migrate_diffs.setdefault(name, []).extend(examples)
        for tool in TOOLS:
            self.compared[tool] += other.compared[tool]
            self.identical[tool] += other.identical[tool]
        for key, (count, examples, clean) in other.classes.items():
            mine = self.classes.setdefault(key, [0, [], 0])
            mine[0] += count
            mine[1].extend(examples)
            mine[2] += clean
        for name, count in other.allowed.items():
            self.allowed[name] = self.allowed.get(name, 0) + count
        for name, example in other.allowed_examples.items():
            self.allowed_examples.setdefault(name, example)
        self.errors.extend(other.errors)
        for key, (count, examples) in other.causes.items():
            mine = self.causes.setdefault(key, [0, []])
            mine[0] += count
            mine[1].extend(examples)


def compare_page(tally: Tally, session: Session, call: Dict[str, Any], ours: Any, ref: Any) -> None:
    tool = call["tool"]
    tally.compared[tool] += 1
    outcome = lookup(ref, "$.result.structuredContent.result.outcome")
    if lookup(ref, "$.result.isError") is True:
        outcome = "isError"
    elif isinstance(ref, dict) and "error" in ref:
        outcome = "error %s" % (ref["error"] or {}).get("code")
    key = "%s %s" % (tool, outcome)
    tally.outcomes[key] = tally.outcomes.get(key, 0) + 1
    for frame_a, frame_b in ((ours, ref),):
        sc_a = lookup(frame_a, "$.result.structuredContent.corpusHealth")
        sc_b = lookup(frame_b, "$.result.structuredContent.corpusHealth")
        if isinstance(sc_a, dict) and isinstance(sc_b, dict):
            sc_a["fingerprint"], sc_b["fingerprint"] = session.fingerprint(sc_a.get("fingerprint"),
                                                                           sc_b.get("fingerprint"))
    left, right = normalise_answer(ours), normalise_answer(ref)
    found = first_difference(left, right)
    if call.get("fresh"):
        tally.fresh[0] += 1
        tally.fresh[1] += found is None
    if found is None:
        tally.identical[tool] += 1
        return
    path, mine, theirs = found
    if tool == "search_decisions" and call.get("unicode_new") and first_difference(
            without_results(left), without_results(right)) is None:
        tally.allowed["unicode-database"] = tally.allowed.get("unicode-database", 0) + 1
        tally.allowed_examples.setdefault("unicode-database", {"corpus": call["corpus"], "args": call["args"],
                                                               "path": path, "ours": mine, "ref": theirs})
        tally.identical[tool] += 1
        return
    entry = tally.classes.setdefault((tool, class_path(path, left, right)), [0, [], 0])
    entry[0] += 1
    entry[1].append({"corpus": call["corpus"], "era": call.get("era"), "args": call["args"], "path": path,
                     "ours": mine, "ref": theirs})


def without_results(answer: Any) -> Any:
    """A search answer without what normalisation decides (results, their cursor, the summary text)."""
    if not isinstance(answer, dict) or not isinstance(answer.get("structuredContent"), dict):
        return answer
    content = answer["structuredContent"]
    result = content.get("result")
    kept = {key: value for key, value in result.items() if key == "findings"} if isinstance(result, dict) else result
    return dict(answer, content=None, structuredContent=dict(content, result=kept))


def channel_cursor(frame: Any, channel: str) -> Any:
    result = lookup(frame, "$.result.structuredContent.result")
    if channel == "findingsCursor":
        result = result.get("findings") if isinstance(result, dict) else None
    return result.get("cursor") if isinstance(result, dict) else None


def run_call(pair: Tuple[Server, Server], tally: Tally, session: Session, call: Dict[str, Any]) -> None:
    """The call, then every cursor of both channels walked while both sides offer one."""
    params = {"name": call["tool"], "arguments": call["args"]}
    if call.get("misuse") and session.cursors:
        # A cursor minted by another call (other tool, channel or arguments), each side its own.
        pick, channel = call["misuse"].choice(session.cursors), call["misuse"].choice(["cursor", "findingsCursor"])
        sides = [dict(call["args"], **{channel: cursor}) for cursor in pick]
        call = dict(call, args=dict(call["args"], **{channel: "<misused>"}))
        ours, ref = [server.send("tools/call", {"name": call["tool"], "arguments": arguments})
                     for server, arguments in zip(pair, sides)]
        compare_page(tally, session, call, ours, ref)
        return
    ours, ref = pair[0].send("tools/call", params), pair[1].send("tools/call", params)
    compare_page(tally, session, call, ours, ref)
    for channel in ("cursor", "findingsCursor"):
        mine, theirs, pages = channel_cursor(ours, channel), channel_cursor(ref, channel), 0
        if isinstance(mine, str) and isinstance(theirs, str) and mine and theirs:
            session.cursors.append((mine, theirs))
        while isinstance(mine, str) and isinstance(theirs, str) and mine and theirs and pages < 60:
            pages += 1
            answers = []
            for server, cursor in zip(pair, (mine, theirs)):
                arguments = dict(call["args"], **{channel: cursor})
                answers.append(server.send("tools/call", {"name": call["tool"], "arguments": arguments}))
            compare_page(tally, session, dict(call, args=dict(call["args"], **{channel: "<walk %d>" % pages})),
                         answers[0], answers[1])
            mine, theirs = channel_cursor(answers[0], channel), channel_cursor(answers[1], channel)


def all_findings(server: Server) -> List[Any]:
    """Every corpus finding, normalised, by walking list_superseded's findings channel."""
    items, arguments = [], {"findingsLimit": 100}  # type: List[Any], Dict[str, Any]
    for _ in range(100):
        frame = server.send("tools/call", {"name": "list_superseded", "arguments": arguments})
        page = lookup(frame, "$.result.structuredContent.result.findings") or {}
        items.extend(normalise_finding(item) for item in page.get("items") or [])
        if not page.get("cursor"):
            break
        arguments = {"findingsLimit": 100, "findingsCursor": page["cursor"]}
    return items


def diagnose(pair: Tuple[Server, Server], tally: Tally, files: Dict[str, str], index: int) -> None:
    """Findings present on one side only, by (side, rule, field): the root causes of most classes."""
    ours, ref = [canonical(item) for item in all_findings(pair[0])], [canonical(item) for item in all_findings(pair[1])]
    for text in ref:
        rule = str(json.loads(text).get("rule"))
        tally.rules[rule] = tally.rules.get(rule, 0) + 1
    health = lookup(pair[1].send("tools/call", {"name": "list_superseded", "arguments": {}}),
                    "$.result.structuredContent.corpusHealth") or {}
    tally.records += health.get("recordCount") or 0
    for side, mine, theirs in (("ours only", ours, ref), ("ref only", ref, ours)):
        rest = list(theirs)
        for text in mine:
            if text in rest:
                rest.remove(text)
                continue
            item = json.loads(text)
            field = re.sub(r"\.\d+(?=\.|$)", ".N", str(item.get("field", "<none>")))
            entry = tally.causes.setdefault((side, str(item.get("rule")), field), [0, []])
            entry[0] += 1
            source = files.get(str(item.get("path")), "")
            entry[1].append({"corpus": index, "finding": item, "file": source[:600]})


def write_corpus(root: str, files: Dict[str, str]) -> None:
    os.makedirs(os.path.join(root, "docs", "adr"), exist_ok=True)
    subprocess.run(["git", "init", "-q", root], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for relative, text in files.items():
        path = os.path.join(root, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(text.encode("utf-8", "surrogateescape"))


def mutate_corpus(rng: random.Random, root: str, files: Dict[str, str], ids: List[str]) -> Tuple[Dict[str, str], str]:
    """Rewrite, delete or add one record on disk; returns the files as they were before, and what it did."""
    before = dict(files)
    names = sorted(name for name in files if name.startswith("docs/adr/0") and "template" not in name)
    action = rng.choice(["rewrite", "delete", "add", "relayout"]) if names else "add"
    if action == "add":
        name = "docs/adr/%04d-added.md" % rng.randint(1, 40)
        files[name] = record_text(rng, gen_frontmatter(rng, name[9:13], ids, False), gen_body(rng, False))
    elif action == "delete":
        del files[rng.choice(names)]
    elif action == "rewrite":
        name = rng.choice(names)
        files[name] = record_text(rng, gen_frontmatter(rng, name[9:13], ids, False), gen_body(rng, False))
    else:  # same parsed frontmatter, other bytes: the fingerprint must not change
        name = rng.choice(names)
        files[name] = files[name].replace("\n---\n", "\n# layout only\n---\n", 1)
    sync_files(root, before, files)
    return before, action


def sync_files(root: str, old: Dict[str, str], new: Dict[str, str], touch: bool = False) -> None:
    """Make the files under root from `old` into `new`; `touch`: rewrite unchanged files too."""
    for name in old:
        if name not in new:
            os.remove(os.path.join(root, name))
    for name, text in new.items():
        if old.get(name) != text or touch:
            path = os.path.join(root, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as handle:
                handle.write(text.encode("utf-8", "surrogateescape"))


def change_step(pair: Tuple[Server, Server], tally: Tally, session: Session, rng: random.Random,
                context: Dict[str, Any]) -> None:
    """Cursors minted, the corpus changed under them, the stale cursors used, the corpus restored.

    context["change"](rng) changes the corpus on disk (both sides) and returns (files before, kind);
    context["restore"](files) puts them back; context["after"] more random calls after the change.
    """
    tool, args = gen_call(rng, context["ids"], False)
    params = {"name": tool, "arguments": dict(args, limit=1, findingsLimit=1)}
    first = [server.send("tools/call", params) for server in pair]
    before, kind = context["change"](rng)
    tally.changes[kind] = tally.changes.get(kind, 0) + 1
    call = {"tool": tool, "corpus": context["index"], "era": context["era"], "unicode_new": False, "fresh": kind}
    for channel in ("cursor", "findingsCursor"):
        cursors = [channel_cursor(frame, channel) for frame in first]
        if all(isinstance(cursor, str) and cursor for cursor in cursors):
            answers = [server.send("tools/call", {"name": tool, "arguments": dict(params["arguments"], **{channel: c})})
                       for server, c in zip(pair, cursors)]
            compare_page(tally, session, dict(call, args=dict(params["arguments"], **{channel: "<stale>"})), *answers)
    run_call(pair, tally, session, dict(call, args=args))
    if context.get("after"):
        random_calls(pair, tally, session, rng, dict(context, fresh=kind), context["after"])
    if rng.random() < 0.5:
        context["restore"](before)
        run_call(pair, tally, session, dict(call, args=args, fresh="restore"))


def plain_context(root: str, files: Dict[str, str], ids: List[str], index: int, era: str) -> Dict[str, Any]:
    def change(rng: random.Random) -> Tuple[Dict[str, str], str]:
        return mutate_corpus(rng, root, files, ids)

    def restore(before: Dict[str, str]) -> None:
        sync_files(root, files, before)
        files.clear()
        files.update(before)

    return {"root": root, "files": files, "ids": ids, "index": index, "era": era, "change": change,
            "restore": restore}


def run_corpus(options: argparse.Namespace, index: int) -> Tally:
    """One corpus, once per era, each era in fresh processes on fresh copies."""
    if options.cli:
        return run_cli_corpus(options, index)
    tally = Tally()
    for era in options.eras:
        tally.sessions[era] = tally.sessions.get(era, 0) + 1
        if options.source == "madr":
            run_madr_session(options, index, era, tally)
        else:
            run_plain_session(options, index, era, tally)
    for entry in tally.classes.values():  # differences in corpora whose findings all agree
        entry[2] = 0 if tally.causes else entry[0]
    return tally


def corpus_root(options: argparse.Namespace, name: str) -> str:
    if not options.keep:
        return tempfile.mkdtemp(prefix="difftest-")
    root = os.path.join(options.keep, name)
    shutil.rmtree(root, ignore_errors=True)
    return root


def open_session(pair: Tuple[Server, Server], tally: Tally, index: int, era: str) -> Session:
    greetings = [server.handshake() for server in pair]
    shapes = [(lookup(frame, "$.result.protocolVersion") or lookup(frame, "$.result.supportedVersions"),
               "tools" in (lookup(frame, "$.result.capabilities") or {})) for frame in greetings]
    if shapes[0] != shapes[1]:  # conformance rule 6: only these two are compared
        tally.errors.append("corpus %d (%s): opening differs: ours %s / ref %s" % (index, era, shapes[0], shapes[1]))
    return Session()


def random_calls(pair: Tuple[Server, Server], tally: Tally, session: Session, rng: random.Random,
                 context: Dict[str, Any], count: int, unicode_new: bool = False) -> None:
    for _ in range(count):
        tool, args = gen_call(rng, context["ids"], unicode_new)
        query_new = has_new_unicode(args.get("query", ""))
        misuse = rng if rng.random() < 0.2 else None
        run_call(pair, tally, session, {"tool": tool, "args": args, "corpus": context["index"], "era": context["era"],
                                        "unicode_new": query_new, "misuse": misuse, "fresh": context.get("fresh")})


def run_plain_session(options: argparse.Namespace, index: int, era: str, tally: Tally) -> None:
    rng = random.Random("%s/%d" % (options.seed, index))
    files, unicode_new = gen_corpus(rng)
    ids = sorted(set(text.split("id: ", 1)[1].split("\n", 1)[0].strip("'\"") for text in files.values()
                     if "id: " in text))
    root = corpus_root(options, "corpus-%d-%s" % (index, era))
    write_corpus(root, files)
    pair = (Server(options.server, root, era), Server(options.reference, root, era))
    try:
        session = open_session(pair, tally, index, era)
        context = plain_context(root, files, ids[:40], index, era)
        random_calls(pair, tally, session, rng, context, options.calls, unicode_new)
        if rng.random() < 0.3:
            change_step(pair, tally, session, rng, context)
        diagnose(pair, tally, files, index)
    except Exception as error:  # a hang or a crash is reported, never hidden
        tally.errors.append("corpus %d (%s): %s: %s" % (index, era, type(error).__name__, error))
    finally:
        for server in pair:
            server.close()
        if not options.keep:
            shutil.rmtree(root, ignore_errors=True)


# ---------------------------------------------------------------------------
# --from madr: ours on the MADR corpus, the reference on a migrated copy
# ---------------------------------------------------------------------------

def write_files(root: str, files: Dict[str, str]) -> None:
    for relative, text in files.items():
        path = os.path.join(root, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(text.encode("utf-8", "surrogateescape"))


MIGRATE_TIMEOUT = 30.0
HUNG = -1  # the exit status given to a reference migrate stopped after MIGRATE_TIMEOUT


def reference_migrate(options: argparse.Namespace, root: str) -> Tuple[int, bytes, bytes]:
    """`cd root && adr migrate --from madr --dir docs/adr` (no rename): exit status, stdout, stderr.

    A run that has not ended after MIGRATE_TIMEOUT is stopped and reported as HUNG: past 2**53
    the reference's id counter stands still and its allocation loop never ends (README; ours
    stops with an error). It allocates every id before writing, so such a run writes nothing."""
    argv = shlex.split(options.reference_cli) + ["migrate", "--from", "madr", "--dir", "docs/adr"]
    try:
        proc = subprocess.run(argv, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=MIGRATE_TIMEOUT)
    except subprocess.TimeoutExpired:
        return HUNG, b"", b"(stopped after %d s)" % MIGRATE_TIMEOUT
    return proc.returncode, proc.stdout, proc.stderr


MAX_SOURCE_BYTES = 65536


def over_cap(files: Dict[str, str]) -> Dict[str, str]:
    """The files over the 64 KiB cap, which --from madr never reads (README, ADR 0015)."""
    return {name: text for name, text in files.items()
            if len(text.encode("utf-8", "surrogateescape")) > MAX_SOURCE_BYTES}


def migrated_copy(options: argparse.Namespace, root: str, files: Dict[str, str]) -> Tuple[int, bytes, bytes]:
    """The reference's copy of `files` after its migrate. The documented departure is modelled:
    a file over the cap takes no part in the migration (it takes no id) but its name is still in
    the folder (the next free number counts it), so the reference migrates the folder with the
    file empty (an empty file is skipped as not MADR, and left as it is), and the file gets its
    text back afterwards."""
    large = over_cap(files)
    write_files(root, dict(files, **{name: "" for name in large}))
    outcome = reference_migrate(options, root)
    write_files(root, large)
    return outcome


def count_migration(tally: Tally, status: int) -> None:
    label = "hung, stopped" if status == HUNG else "exit %d" % status
    tally.migrations[label] = tally.migrations.get(label, 0) + 1


def remake_reference(options: argparse.Namespace, root: str, files: Dict[str, str]) -> int:
    """The reference's copy made again from the MADR files as they are now, and migrated again."""
    folder = os.path.join(root, "docs", "adr")
    for name in os.listdir(folder):
        path = os.path.join(folder, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.remove(path)
    return migrated_copy(options, root, files)[0]


def tree(root: str) -> Dict[str, bytes]:
    """Every file under root's docs/adr, by '/'-separated path."""
    found = {}
    base = os.path.join(root, "docs", "adr")
    for folder, _, names in os.walk(base):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as handle:
                found[os.path.relpath(path, root).replace(os.sep, "/")] = handle.read()
    return found


def first_line_difference(ours: bytes, ref: bytes) -> Tuple[int, str, str]:
    left, right = ours.decode("utf-8", "replace").split("\n"), ref.decode("utf-8", "replace").split("\n")
    for number, (a, b) in enumerate(zip(left, right)):
        if a != b:
            return number + 1, a, b
    return min(len(left), len(right)) + 1, "<%d lines>" % len(left), "<%d lines>" % len(right)


def check_migrate(options: argparse.Namespace, index: int, files: Dict[str, str], tally: Tally) -> None:
    """Our `migrate --from madr` against the reference CLI's, each on its own copy (every file
    read, whatever its size): exit status, stdout, the first line of stderr, and every file left
    under docs/adr, byte for byte."""
    root, ref_root = (corpus_root(options, "corpus-%d-migrate%s" % (index, side)) for side in ("", "-ref"))
    write_corpus(root, files)
    write_corpus(ref_root, files)
    try:
        argv = shlex.split(options.server) + ["migrate", "--from", "madr", "--dir", "docs/adr"]
        proc = subprocess.run(argv, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
        status, out, err = reference_migrate(options, ref_root)
        ours_tree, ref_tree = tree(root), tree(ref_root)
        found = None  # type: Optional[Tuple[str, Any]]
        if status == HUNG and proc.returncode == 1 and ours_tree == ref_tree:
            # The documented departure: ours stops with an error where the reference spins.
            tally.allowed["ids-past-2**53"] = tally.allowed.get("ids-past-2**53", 0) + 1
            tally.allowed_examples.setdefault("ids-past-2**53", {"corpus": index, "args": proc.stderr.decode()[:200]})
        elif proc.returncode != status:
            found = ("exit status", {"ours": proc.returncode, "ref": status, "stderr": err.decode()[-200:]})
        elif proc.stdout != out:
            line, mine, theirs = first_line_difference(proc.stdout, out)
            found = ("stdout", {"line": line, "ours": mine, "ref": theirs})
        elif status and proc.stderr.split(b"\n")[:1] != err.split(b"\n")[:1]:
            found = ("stderr", {"ours": proc.stderr.decode()[:200], "ref": err.decode()[:200]})
        elif sorted(ours_tree) != sorted(ref_tree):
            found = ("file set", {"ours only": sorted(set(ours_tree) - set(ref_tree)),
                                  "ref only": sorted(set(ref_tree) - set(ours_tree))})
        else:
            for path in sorted(ours_tree):
                if ours_tree[path] != ref_tree[path]:
                    line, mine, theirs = first_line_difference(ours_tree[path], ref_tree[path])
                    found = ("file content", {"path": path, "line": line, "ours": mine, "ref": theirs})
                    break
        tally.migrate_same[0] += 1
        if found is None:
            tally.migrate_same[1] += 1
        else:
            tally.migrate_diffs.setdefault(found[0], []).append(dict({"corpus": index}, **found[1]))
    finally:
        if not options.keep:
            shutil.rmtree(root, ignore_errors=True)
            shutil.rmtree(ref_root, ignore_errors=True)


def madr_context(options: argparse.Namespace, roots: Tuple[str, str], files: Dict[str, str], ids: List[str],
                 index: int, era: str, tally: Tally) -> Dict[str, Any]:
    def apply(before: Dict[str, str], touch: bool = False) -> None:
        sync_files(roots[0], before, files, touch)
        status = remake_reference(options, roots[1], files)
        count_migration(tally, status)

    def change(rng: random.Random) -> Tuple[Dict[str, str], str]:
        before = dict(files)
        kind = mutate_madr(rng, files, ids)
        apply(before, touch=kind == "touch")
        return before, kind

    def restore(before: Dict[str, str]) -> None:
        now = dict(files)
        files.clear()
        files.update(before)
        apply(now)

    return {"files": files, "ids": ids, "index": index, "era": era, "change": change, "restore": restore,
            "after": 3}


def run_madr_session(options: argparse.Namespace, index: int, era: str, tally: Tally) -> None:
    """Ours with --from madr on the corpus as it is; the reference on a copy after its migrate."""
    rng = random.Random("%s/%d/madr" % (options.seed, index))
    files, ids = gen_madr_corpus(rng)
    roots = (corpus_root(options, "corpus-%d-%s" % (index, era)), corpus_root(options, "corpus-%d-%s-ref" % (index, era)))
    servers = []  # type: List[Server]
    try:
        if files and rng.random() < 0.25:
            premigrate(options, rng, files)
        write_corpus(roots[0], files)
        write_corpus(roots[1], {})
        status = migrated_copy(options, roots[1], files)[0]
        count_migration(tally, status)
        if over_cap(files):
            tally.allowed["over-cap-takes-no-id"] = tally.allowed.get("over-cap-takes-no-id", 0) + 1
            tally.allowed_examples.setdefault("over-cap-takes-no-id", {"corpus": index, "args": sorted(over_cap(files))})
        migrated = tree(roots[1])
        if era == options.eras[0] and options.migrate_check:
            check_migrate(options, index, files, tally)
        given = re.findall(r'(?m)^id: "?([0-9A-Za-z]+)"?\r?$', "\n".join(
            data.decode("utf-8", "replace") for data in migrated.values()))
        ids = (sorted(set(given)) + ids)[:60]
        # The flag on even corpora, the environment on odd ones: both ways of asking.
        flag, env = (("--from", "madr"), None) if index % 2 == 0 else ((), {"ADRKIT_MCP_FROM": "madr"})
        servers.append(Server(options.server, roots[0], era, flag, env))
        servers.append(Server(options.reference, roots[1], era))
        pair = (servers[0], servers[1])
        session = open_session(pair, tally, index, era)
        context = madr_context(options, roots, files, ids, index, era, tally)
        random_calls(pair, tally, session, rng, context, options.calls)
        for _ in range(rng.choice([0, 1, 1, 2])):
            change_step(pair, tally, session, rng, context)
        diagnose(pair, tally, files, index)
    except Exception as error:  # a hang or a crash is reported, never hidden
        tally.errors.append("corpus %d (%s): %s: %s" % (index, era, type(error).__name__, error))
    finally:
        for server in servers:
            server.close()
        if not options.keep:
            for root in roots:
                shutil.rmtree(root, ignore_errors=True)


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------

# ---------------------------------------------------------------------------
# --cli: the reference CLI's lint, graph, new, explain and check, ours against theirs
# ---------------------------------------------------------------------------

CLI_TITLES = ["Use Postgres for the ledger", "  Spaces  ", "Café déjà vu", "日本語の決定", "ab", "x" * 120,
              "x" * 121, "emoji😀 API", "Quote \" and \\ slash", "null", "Line\u2028sep", "#", "a-b-c"]
CLI_NOISE = ["--json", "--bogus", "--dir", "-x", "--format", "json", "dot", "svg", "--", "-", "--status",
             "proposed", "accepted", "--json=1", "extra", "--dir=", "docs/adr", "nowhere"]


def cli_extra_files(rng: random.Random, files: Dict[str, str]) -> None:
    """Markdown that lint reports as skipped, records outside the ADR folder, findings on purpose."""
    for name in rng.sample(["docs/adr/notes.md", "docs/adr/sub/0100-nested.md", "docs/adr/sub/deeper/x.md",
                            "docs/adr/12-short.md", "docs/adr/.hidden.md", "other/0200-elsewhere.md",
                            "docs/adr/README.md", "docs/0300-beside.md"], rng.randint(0, 4)):
        files[name] = "---\nid: \"0%d\"\ntitle: Somewhere else\nstatus: draft\ndate: 2024-01-01\n---\n" % rng.randint(100, 999)


CLI_MARKER_LEADS = ["// ", "# ", "/* ", " * ", "<!-- ", "-- ", "x // ", "//", "```\n// "]


def cli_source_files(rng: random.Random, files: Dict[str, str]) -> None:
    """Source files for explain and check: `@adr` markers naming the corpus's ids, missing ids and
    other logs, in several comment styles, some past the 8,192-byte window."""
    ids = sorted(set(re.findall(r'^id: "?([0-9A-Za-z]+)', "\n".join(files.values()), re.M))) or ["0001"]
    for number in range(rng.randint(0, 5)):
        lines = []
        for _ in range(rng.randint(0, 4)):
            refs = [rng.choice(ids + ["0999", "team:" + rng.choice(ids), "12"]) for _ in range(rng.randint(1, 3))]
            lines.append(rng.choice(CLI_MARKER_LEADS) + "@adr " + rng.choice([", ", ",", " "]).join(refs))
        if rng.random() < 0.2:
            lines.insert(0, "x" * rng.choice([8170, 8180, 8190, 9000]))
        name = rng.choice(["src/a%d.ts" % number, "src/sub/b%d.py" % number, "docs/c%d.md" % number])
        files[name] = rng.choice(["\n", "\r\n"]).join(lines) + rng.choice(["", "\n"])


def cli_command_line(rng: random.Random, files: Dict[str, str]) -> List[str]:
    """One random command line for lint, graph, new, explain or check (sometimes with noise that
    does not parse)."""
    kind = rng.choice(["lint", "lint", "lint-paths", "graph", "graph", "new", "noise", "explain", "explain",
                       "check", "check"])
    paths = sorted(files) + ["docs/adr", "docs", "missing.md", ".", "other"]
    sources = [path for path in files if not path.startswith("docs/adr/")] + [
        "src/app/main.ts", "lib/x.py", "src/missing.ts", "../outside.ts", "./src/a0.ts", "src"]
    if kind == "explain":
        args = ["explain", rng.choice(sources + paths)] + (["--json"] if rng.random() < 0.5 else [])
    elif kind == "check":
        args = ["check"] + rng.sample(sources + paths, rng.randint(0, 4)) + (["--json"] if rng.random() < 0.5 else [])
    elif kind == "lint":
        args = ["lint"] + (["--json"] if rng.random() < 0.5 else [])
    elif kind == "lint-paths":
        args = ["lint"] + rng.sample(paths, min(len(paths), rng.randint(1, 3))) + (["--json"] if rng.random() < 0.5 else [])
    elif kind == "graph":
        args = ["graph"] + (["--format", rng.choice(["json", "dot"])] if rng.random() < 0.6 else [])
    elif kind == "new":
        args = ["new"] + rng.choice(CLI_TITLES).split(" ") + (["--json"] if rng.random() < 0.4 else [])
        if rng.random() < 0.3:
            args += ["--status", rng.choice(STATUSES + ["bogus"])]
    else:
        args = [rng.choice(["lint", "graph", "new"])] + [rng.choice(CLI_NOISE) for _ in range(rng.randint(1, 3))]
    if rng.random() < 0.1:
        args += ["--dir", rng.choice(["docs/adr", "docs/adr/", "nowhere", "other", "."])]
    return args


def cli_run(command: List[str], root: str) -> Tuple[int, bytes, bytes]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("ADRKIT_MCP_")}
    env.update(LANG="C.UTF-8", TZ="UTC")
    proc = subprocess.run(command, cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=TIMEOUT)
    return proc.returncode, proc.stdout, proc.stderr


def cli_usage_sentence(stderr: bytes) -> bytes:
    """The reference's sentence before its whole usage text (ours frames it: ADR 0019)."""
    return stderr.split(b"\nUsage:\n")[0]


def cli_difference(ours: Tuple[int, bytes, bytes, Dict[str, bytes]],
                   ref: Tuple[int, bytes, bytes, Dict[str, bytes]]) -> Optional[Tuple[str, Any]]:
    if ours[0] != ref[0]:
        return "exit status", {"ours": ours[0], "ref": ref[0], "ref stderr": ref[2].decode()[-200:]}
    if ours[1] != ref[1]:
        line, mine, theirs = first_line_difference(ours[1], ref[1])
        return "stdout", {"line": line, "ours": mine, "ref": theirs}
    if ref[0] == 2 and b"\nUsage:\n" in ref[2]:
        if cli_usage_sentence(ref[2]) not in ours[2]:
            return "usage sentence", {"ours": ours[2].decode()[:300], "ref": cli_usage_sentence(ref[2]).decode()}
    elif ours[2] != ref[2]:
        line, mine, theirs = first_line_difference(ours[2], ref[2])
        return "stderr", {"line": line, "ours": mine, "ref": theirs}
    if ours[3] != ref[3]:
        changed = sorted(path for path in set(ours[3]) | set(ref[3]) if ours[3].get(path) != ref[3].get(path))
        return "files", {"paths": changed[:5]}
    return None


def cli_tree(root: str) -> Dict[str, bytes]:
    found = {}
    for folder, dirnames, names in os.walk(root):
        dirnames[:] = [name for name in dirnames if name != ".git"]
        for name in names:
            path = os.path.join(folder, name)
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, "rb") as handle:
                    found[os.path.relpath(path, root).replace(os.sep, "/")] = handle.read()
    return found


def run_cli_corpus(options: argparse.Namespace, index: int) -> Tally:
    """One random corpus, `--cli-runs` random command lines, each side on its own fresh copy."""
    tally = Tally()
    rng = random.Random("%s-cli-%d" % (options.seed, index))
    files, _ = gen_corpus(rng)
    cli_extra_files(rng, files)
    cli_source_files(rng, files)
    for run in range(options.cli_runs):
        args = cli_command_line(rng, files)
        results = []
        for side, command in (("ours", shlex.split(options.server)), ("ref", shlex.split(options.reference_cli))):
            root = corpus_root(options, "corpus-%d-cli-%d-%s" % (index, run, side))
            write_corpus(root, files)
            try:
                status, out, err = cli_run(command + args, root)
                spellings = sorted({root.encode(), os.path.realpath(root).encode()}, key=len, reverse=True)
                for spelling in spellings:  # Node names the absolute path in its error messages
                    out, err = out.replace(spelling, b"{root}"), err.replace(spelling, b"{root}")
                results.append((status, out, err, cli_tree(root)))
            finally:
                if not options.keep:
                    shutil.rmtree(root, ignore_errors=True)
        entry = tally.cli.setdefault(args[0], [0, 0])
        entry[0] += 1
        exercised = "%s exit %d" % (args[0], results[1][0])
        tally.cli_statuses[exercised] = tally.cli_statuses.get(exercised, 0) + 1
        found = cli_difference(results[0], results[1])
        if found is None:
            entry[1] += 1
        else:
            tally.cli_diffs.setdefault("%s: %s" % (args[0], found[0]), []).append(
                dict({"corpus": index, "args": args}, **found[1]))
    return tally


def short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 160 else text[:157] + "..."


def clean_corpora(tally: Tally) -> set:
    dirty = set(example["corpus"] for _, examples in tally.causes.values() for example in examples)
    return set(e["corpus"] for entry in tally.classes.values() for e in entry[1]) - dirty


def cli_report(tally: Tally, options: argparse.Namespace) -> int:
    print("seed %s, corpora %d, --cli: %d random command lines per corpus" % (
        options.seed, len(options.indices), options.cli_runs))
    total = [0, 0]
    for name in sorted(tally.cli):
        compared, same = tally.cli[name]
        total[0] += compared
        total[1] += same
        print("  %-8s %6d / %6d identical (%.2f %%)" % (name, same, compared, 100.0 * same / max(1, compared)))
    print("  %-8s %6d / %6d identical (%.2f %%)" % ("all", total[1], total[0], 100.0 * total[1] / max(1, total[0])))
    print("coverage, the reference's exit statuses: %s" % ", ".join(
        "%s: %d" % item for item in sorted(tally.cli_statuses.items())))
    print("difference classes: %d" % len(tally.cli_diffs))
    for name, examples in sorted(tally.cli_diffs.items(), key=lambda item: -len(item[1])):
        print("  [%d] %s" % (len(examples), name))
        for example in examples[:options.examples]:
            print("      " + short(example))
    return 0 if not tally.cli_diffs else 1


def report(tally: Tally, options: argparse.Namespace) -> int:
    if options.cli:
        return cli_report(tally, options)
    print("seed %s, corpora %d, calls per corpus %d%s, eras %s" % (
        options.seed, len(options.indices), options.calls, ", --from madr" if options.source else "",
        ", ".join("%s (%d sessions)" % (era, tally.sessions.get(era, 0)) for era in options.eras)))
    for tool in TOOLS:
        compared, same = tally.compared[tool], tally.identical[tool]
        print("  %-22s %6d / %6d identical (%.2f %%)" % (tool, same, compared, 100.0 * same / max(1, compared)))
    print("  %-22s %6d / %6d identical; changes made: %s" % (
        "after a corpus change", tally.fresh[1], tally.fresh[0],
        ", ".join("%s %d" % item for item in sorted(tally.changes.items())) or "none"))
    print("coverage: records at the end of the sessions %d; outcomes %s" % (
        tally.records, ", ".join("%s %d" % item for item in sorted(tally.outcomes.items()))))
    print("  findings at the end of the sessions: %s" % ", ".join("%s %d" % item for item in sorted(tally.rules.items())))
    if options.source:
        print("reference migrate runs: %s" % ", ".join("%s: %d" % item for item in sorted(tally.migrations.items())))
        if options.migrate_check:
            print("migrate, ours against the reference CLI (exit status, stdout, stderr's first line, files; allowed departures included): "
                  "%d / %d agree" % (tally.migrate_same[1], tally.migrate_same[0]))
            for name, examples in sorted(tally.migrate_diffs.items(), key=lambda item: -len(item[1])):
                print("  [%d] %s" % (len(examples), name))
                for example in examples[:options.examples]:
                    print("      " + short(example))
    print("allowed (documented departures):")
    for name in sorted(tally.allowed):
        print("  %-22s %6d" % (name, tally.allowed[name]))
        example = tally.allowed_examples.get(name)
        if example:
            print("      e.g. corpus %d args %s%s" % (example["corpus"], short(example["args"]), (
                "\n      at %s: ours %s / ref %s" % (example["path"], short(example["ours"]), short(example["ref"]))
                if "path" in example else "")))
    print("  %-22s %6s  (the tester sends only well-formed requests: legacy after an initialize handshake,"
          " modern each with the 2026-07-28 _meta)" % ("protocol departures", "n/a"))
    print("difference classes: %d" % len(tally.classes))
    ranked = sorted(tally.classes.items(), key=lambda item: (-item[1][0], item[0]))
    for (tool, path), (count, examples, clean) in ranked:
        print("  [%d, %d where all findings agree] %s %s" % (count, clean, tool, path))
        for example in sorted(examples, key=lambda e: e["corpus"] not in clean_corpora(tally))[:options.examples]:
            print("      corpus %d (%s) args %s" % (example["corpus"], example.get("era"), short(example["args"])))
            print("      at %s: ours %s / ref %s" % (example["path"], short(example["ours"]), short(example["ref"])))
    print("findings on one side only, by rule and field (whole corpora, for triage): %d" % len(tally.causes))
    for (side, rule, field), (count, examples) in sorted(tally.causes.items(), key=lambda item: -item[1][0]):
        print("  [%d] %s: %s at %s" % (count, side, rule, field))
        for example in examples[:options.examples]:
            print("      corpus %d %s" % (example["corpus"], short(example["finding"])))
            if options.show_files:
                print("      | " + example["file"].replace("\n", "\n      | "))
    for error in tally.errors:
        print("error: " + error)
    return 0 if not tally.classes and not tally.errors and not tally.migrate_diffs else 1


def parse_options(argv: List[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Differential test against the reference @adrkit/mcp 0.8.0")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--corpora", type=int, default=50)
    parser.add_argument("--calls", type=int, default=12)
    parser.add_argument("--reference", default=DEFAULT_REFERENCE)
    parser.add_argument("--server", default=DEFAULT_SERVER)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", default=None)
    parser.add_argument("--only", type=int, action="append", default=None)
    parser.add_argument("--examples", type=int, default=1)
    parser.add_argument("--show-files", action="store_true", help="print the file behind each cause example")
    parser.add_argument("--from", dest="source", choices=["madr"], default=None,
                        help="MADR/Nygard corpora: ours with --from madr, the reference after its migrate")
    parser.add_argument("--reference-cli", default=DEFAULT_REFERENCE_CLI)
    parser.add_argument("--eras", default="legacy,modern", help="comma-separated: legacy, modern")
    parser.add_argument("--no-migrate-check", dest="migrate_check", action="store_false",
                        help="with --from madr: do not compare our migrate command with the reference CLI's")
    parser.add_argument("--cli", action="store_true",
                        help="compare our lint, graph and new with the reference CLI's on random corpora")
    parser.add_argument("--cli-runs", type=int, default=10, help="with --cli: command lines per corpus")
    options = parser.parse_args(argv)
    options.eras = [era for era in options.eras.split(",") if era]
    if not options.eras or set(options.eras) - {"legacy", "modern"}:
        parser.error("--eras takes legacy, modern or both")
    options.indices = options.only if options.only is not None else list(range(options.corpora))
    return options


def main(argv: Optional[List[str]] = None) -> int:
    options = parse_options(sys.argv[1:] if argv is None else argv)
    if options.keep:
        os.makedirs(options.keep, exist_ok=True)
    total = Tally()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
        for tally in pool.map(lambda index: run_corpus(options, index), options.indices):
            total.merge(tally)
    return report(total, options)


if __name__ == "__main__":
    sys.exit(main())
