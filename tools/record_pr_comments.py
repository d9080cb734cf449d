#!/usr/bin/env python3
"""Recorder of the pull-request comment cases: the reference Action's own renderer on CheckOutcomes.

The reference GitHub Action (`packages/ci/src/comment.ts` of github.com/mbeacom/adrkit, recorded at
commit dc10ecc) turns the CheckOutcome of `adr check --json` into the Markdown of its pull-request
comment. This recorder hands that very function, run by Bun, a set of outcomes and stores what it
returns, so tests/test_gates.py can replay our renderer (`render_pr_comment` in adrkit_mcp.py)
against it byte for byte. Two kinds of outcome go in:

  * written here (`written_cases`): one per branch of comment.ts — no decisions, accepted ones,
    only proposals, history, every bucket at once, findings of each severity on changed and
    unchanged records, marker findings, the caps on records (50) and declarations (10), the
    field (256) and message (1,024) limits, the 65,536-unit body limit exactly at, one past and
    far past it (the padding is measured on the reference's own output), code spans around
    backticks and control characters, Markdown and HTML in titles, astral characters at a cut;
  * recorded (`recorded_cases`): the reference CLI's `adr check --json <files>` on a corpus written
    here (accepted, proposed, superseded and rejected records, a broken one, a marker-declared
    file, a dangling marker), so the shapes are the ones a real check prints.

Output, in tests/data/pr-comments/ (see its README.md): NAME.json, the outcome (ASCII JSON, so a
lone surrogate survives); NAME.md, the body as the Action would write it (UTF-8, a lone surrogate
as U+FFFD, as Node writes a string); truncated-notice.md, `renderTruncatedNotice()`.

Needs the reference source and Bun, as tools/record_migrate_pack.py describes (steps 1-3).
Standard library only; not run by CI.

  python3 tools/record_pr_comments.py --bun /tmp/bunbin/node_modules/.bin/bun --ref /tmp/adrkit-ref
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
from _child_env import child_env  # noqa: E402  (what a child started from nothing needs)

OUT = os.path.join(HERE, "..", "tests", "data", "pr-comments")
LIMIT = 65536

RENDER = """\
import { renderComment, renderTruncatedNotice } from %s;
const outcomes = JSON.parse(await Bun.stdin.text());
process.stdout.write(JSON.stringify({
  bodies: outcomes.map((outcome) => renderComment(outcome)),
  notice: renderTruncatedNotice(),
}));
"""


# ---------------------------------------------------------------------------------------------
# Written outcomes
# ---------------------------------------------------------------------------------------------

def decision(record_id, title, status="accepted", matchers=(("path", "src/**"),), **extra):
    bucket = {"accepted": "governing", "draft": "activeProposals", "proposed": "activeProposals"}
    entry = {"recordId": record_id, "title": title, "status": status,
             "bucket": bucket.get(status, "history")}
    if extra.get("supersededBy") is not None:
        entry["supersededBy"] = extra.pop("supersededBy")
    entry["firedMatchers"] = [{"type": kind, "pattern": pattern} for kind, pattern in matchers]
    if "declaredBy" in extra:
        entry["declaredBy"] = extra.pop("declaredBy")
    assert not extra, extra
    return entry


def declared(count, path="src/app.ts", ref="0001"):
    return [{"path": path, "line": line + 1, "ref": ref} for line in range(count)]


def finding(rule, severity, message, path=None, field=None, record_id=None):
    entry = {"rule": rule, "severity": severity, "message": message}
    if path is not None:
        entry["path"] = path
    if record_id is not None:
        entry["id"] = record_id
    if field is not None:
        entry["field"] = field
    return entry


def outcome(decisions=(), findings=(), changed_files=("src/app.ts",), changed_records=(),
            governed_by=None, marker_scan=None):
    decisions = list(decisions)
    result = {
        "changedFiles": sorted(set(changed_files) | set(changed_records)),
        "governedBy": decisions if governed_by is None else governed_by,
        "governing": [d for d in decisions if d["bucket"] == "governing"],
        "activeProposals": [d for d in decisions if d["bucket"] == "activeProposals"],
        "history": [d for d in decisions if d["bucket"] == "history"],
        "changedRecords": list(changed_records),
        "findings": list(findings),
    }
    if marker_scan is not None:
        result["markerScan"] = marker_scan
    result["ok"] = not any(f["severity"] == "error" and f.get("path") in changed_records
                           for f in findings)
    return result


RECORD = "docs/adr/0009-broken.md"


def written_cases():
    """(name, outcome, padding): padding is None, or (target length, decision index) to pad."""
    scan = {"totalCandidates": 3, "limit": 1000,
            "counts": {"scanned": 1, "absent": 1, "unreadable": 0, "out-of-tree": 1,
                       "truncated": 1, "skipped": 0},
            "absentPaths": ["gone.ts"], "unreadablePaths": [], "outOfTreePaths": ["../x.ts"],
            "truncatedPaths": ["src/app.ts"], "skippedPaths": []}
    many = [decision("%04d" % n, "Decision %d" % n) for n in range(1, 121)]
    long_title = "T" * 300
    cases = [
        ("empty", outcome(), None),
        ("empty-no-files", outcome(changed_files=()), None),
        ("governing-one", outcome([decision("0001", "Use PostgreSQL")]), None),
        ("governing-matchers", outcome([decision(
            "0001", "Pool connections",
            matchers=(("package", "pg@^8"), ("path", "src/db/**"), ("path", "src/db/pool.ts")))]),
         None),
        ("governing-several", outcome([decision("0001", "One"), decision("0002", "Two"),
                                       decision("0010", "Ten", matchers=())]), None),
        ("no-accepted", outcome([decision("0002", "Maybe later", "proposed"),
                                 decision("0003", "Sketch", "draft")]), None),
        ("history-only", outcome([
            decision("0004", "Old way", "superseded", supersededBy="0005"),
            decision("0006", "Never", "rejected"),
            decision("0007", "Retired", "deprecated")]), None),
        ("superseded-empty-successor", outcome([
            decision("0004", "Old way", "superseded", supersededBy="")]), None),
        ("accepted-with-successor", outcome([
            decision("0004", "Still listed", "accepted", supersededBy="0008")]), None),
        ("all-buckets", outcome([
            decision("0001", "Accepted one"), decision("0002", "Proposed one", "proposed"),
            decision("0003", "Superseded one", "superseded", supersededBy="0001"),
            decision("0005", "Draft one", "draft")],
            [finding("schema", "warn", "A warning on a changed record", RECORD, "title", "0009")],
            changed_records=(RECORD,)), None),
        ("governed-by-empty-but-buckets", outcome(
            [decision("0002", "Proposed", "proposed"), decision("0001", "Accepted")],
            governed_by=[]), None),
        ("errors", outcome([decision("0001", "Accepted")], [
            finding("schema-required", "error", "Missing required field \"status\"", RECORD,
                    "status", "0009"),
            finding("schema-type", "error", "No field on this one", RECORD),
            finding("affects-unresolvable", "info", "Info is never shown", RECORD,
                    "affects.package", "0009"),
            finding("unchanged-error", "error", "Not a changed record", "docs/adr/0001-x.md",
                    "id", "0001"),
            finding("corpus-level", "error", "No path at all"),
            finding("marker-dangling", "warn", "Marker on a changed record is not shown",
                    RECORD, "marker"),
            finding("marker-scan-capped", "warn", "Capped", None, "marker"),
        ], changed_records=(RECORD,)), None),
        ("errors-and-warnings-only", outcome([], [
            finding("a-rule", "error", "first", RECORD, "date"),
            finding("b-rule", "warn", "second", RECORD, "deciders"),
            finding("c-rule", "warn", "third", "docs/adr/0010-other.md"),
        ], changed_records=(RECORD, "docs/adr/0010-other.md")), None),
        ("empty-path-finding", outcome([], [finding("odd", "error", "empty path", "")],
                                       changed_records=("",)), None),
        ("finding-limits", outcome([], [
            finding("field-at-limit", "error", "m" * 1024, RECORD, "f" * 256),
            finding("field-over-limit", "error", "m" * 1025, RECORD, "f" * 257),
            finding("astral-cut", "warn", "\U0001F600" * 600, RECORD, "x" + "\U0001F600" * 200),
            finding("short", "warn", "ok", RECORD, "g" * 10),
        ], changed_records=(RECORD,)), None),
        ("declarations", outcome([
            decision("0001", "Ten exactly", declaredBy=declared(10)),
            decision("0002", "Eleven", declaredBy=declared(11, "src/b.ts", "0002")),
            decision("0003", "Twenty-five", "proposed", declaredBy=declared(25, "lib/c.py", "3")),
            decision("0004", "Empty list", declaredBy=[]),
            decision("0005", "Marker only", matchers=(), declaredBy=declared(1, "src/m.ts", "ADR-5")),
        ]), None),
        ("cap-50", outcome(many[:50]), None),
        ("cap-51", outcome(many[:51]), None),
        ("cap-120-every-bucket", outcome(
            many + [decision("%04d" % n, "Proposal %d" % n, "proposed") for n in range(200, 251)]
            + [decision("%04d" % n, "Old %d" % n, "rejected") for n in range(300, 352)]), None),
        ("escaping", outcome([
            decision("0001", "<script>alert(1)</script> & **bold** | [link](https://x.example)",
                     matchers=(("path", "src/`tick`/**"), ("path", "``double``"),
                               ("path", "`lead"), ("path", "trail`"), ("path", "`"),
                               ("path", "tab\there\nnew\x7fdel\x00nul"),
                               ("pa`th", "type with tick"))),
            decision("0002", "Title with\r\nCRLF and ```fences```", "proposed",
                     declaredBy=[{"path": "src/x`[Approved](https://evil.example)`y.ts",
                                  "line": 3, "ref": "0002"},
                                 {"path": "a\nb.ts", "line": 1, "ref": "``0002"}]),
        ], [finding("r`ule", "error", "message with <b>html</b> and `code`",
                    "docs/adr/0009-`odd`.md", "field`x")],
            changed_records=("docs/adr/0009-`odd`.md",)), None),
        ("unicode", outcome([decision("0001", "Café — naïve 日本語 \U0001F680 emoji",
                                      matchers=(("path", "src/ünï/**"),))]), None),
        ("marker-scan-present", outcome([decision("0001", "With a scan", declaredBy=declared(2))],
                                        [finding("marker-scan-capped", "warn", "Marker scan "
                                                 "reached the cap", None, "marker")],
                                        marker_scan=scan), None),
        # Body limit: padded (on the reference's own output) to exactly the limit, one past it.
        ("limit-exact", outcome([decision("0001", "")]), (LIMIT, 0)),
        ("limit-plus-one", outcome([decision("0001", "")]), (LIMIT + 1, 0)),
        ("limit-far", outcome([decision("%04d" % n, long_title + str(n),
                                        matchers=(("path", "p" * 400),) * 3)
                               for n in range(1, 50)]), None),
        ("limit-errors-first", outcome(
            [decision("%04d" % n, long_title, matchers=(("path", "q" * 600),) * 4)
             for n in range(1, 51)],
            [finding("schema", "error", "e" * 1100, RECORD, "h" * 300)],
            changed_records=(RECORD,)), None),
        ("limit-many-errors", outcome([], [
            finding("rule-%03d" % n, "error", "x" * 1024, RECORD, "y" * 256) for n in range(80)],
            changed_records=(RECORD,)), None),
        ("limit-astral", outcome([decision("%04d" % n, "\U0001F600" * 700) for n in range(1, 50)]),
         None),
        ("limit-exact-astral", outcome([decision("0001", "")]), (LIMIT, 0)),
    ]
    return cases


# ---------------------------------------------------------------------------------------------
# Outcomes recorded from the reference CLI
# ---------------------------------------------------------------------------------------------

def record(record_id, title, status, affects=(), extra=""):
    deciders = '["@tester"]' if status != "draft" else "[]"
    lines = ["---", "schemaVersion: 0.1.0", 'id: "%s"' % record_id, "title: %s" % title,
             "status: %s" % status, "date: 2026-07-18", "deciders: %s" % deciders, "tags: []",
             "scope: component", "reversibility: unknown", "blastRadius: component",
             "relatesTo: []"]
    if affects:
        lines.append("affects:")
        for kind, pattern in affects:
            lines += ["  - type: %s" % kind, '    pattern: "%s"' % pattern]
    else:
        lines.append("affects: []")
    lines += ["provenance:", "  authoredBy: human"]
    return "\n".join(lines) + "\n" + extra + "---\n\n# ADR-%s: %s\n" % (record_id, title)


CORPUS = {
    "docs/adr/0001-api.md": record("0001", "Guard the API package", "accepted",
                                   (("path", "packages/api/**"), ("package", "left-pad"))),
    "docs/adr/0002-api-v2.md": record("0002", "Version the API", "proposed",
                                      (("path", "packages/api/**"),)),
    "docs/adr/0003-legacy.md": record("0003", "Legacy handlers", "superseded",
                                      (("path", "packages/api/legacy/**"),),
                                      'supersededBy: "0004"\n'),
    "docs/adr/0004-handlers.md": record("0004", "Handlers in one place", "accepted",
                                        (("path", "packages/api/legacy/**"),)),
    "docs/adr/0005-html.md": record("0005", "'Use <b>HTML</b> & **bold** | pipes'", "rejected",
                                    (("path", "src/**"),)),
    "docs/adr/0006-broken.md": "---\nid: \"0006\"\ntitle: Broken\n---\n\n# Broken\n",
    "docs/adr/0007-warned.md": record("0007", "Absolute pattern", "accepted",
                                      (("path", "/abs/**"), ("path", "src/marked.ts"))),
    "src/marked.ts": "// @adr 0001\n// @adr 9999\nexport const x = 1;\n",
    "src/plain.ts": "export const y = 2;\n",
    "packages/api/src/server.ts": "export {};\n",
    "README.md": "# corpus\n",
}

RUNS = [
    ("recorded-api", ["packages/api/src/server.ts"]),
    ("recorded-legacy", ["packages/api/legacy/old.ts", "packages/api/src/server.ts"]),
    ("recorded-changed-records", ["docs/adr/0006-broken.md", "docs/adr/0007-warned.md",
                                  "src/marked.ts"]),
    ("recorded-markers", ["src/marked.ts", "src/plain.ts", "gone/removed.ts"]),
    ("recorded-nothing", ["README.md"]),
]


def recorded_cases(bun, ref):
    cli = os.path.join(ref, "packages", "cli", "src", "index.ts")
    cases = []
    with tempfile.TemporaryDirectory(prefix="adrkit-pr-comments-") as root:
        for path, text in CORPUS.items():
            full = os.path.join(root, *path.split("/"))
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
        subprocess.run(["git", "init", "-q", root], check=True)
        for name, files in RUNS:
            run = subprocess.run([bun, cli, "check", "--json"] + files, cwd=root,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300,
                                 env=child_env(PATH=os.environ.get("PATH", ""), HOME=root,
                                               LANG="C.UTF-8", TZ="UTC"))
            if run.returncode not in (0, 1):
                sys.exit("%s: the reference exited %d: %s" % (name, run.returncode,
                                                              run.stderr.decode()))
            cases.append((name, json.loads(run.stdout.decode("utf-8")), None))
    return cases


# ---------------------------------------------------------------------------------------------
# Rendering with the reference, and storing
# ---------------------------------------------------------------------------------------------

def render(bun, ref, outcomes):
    module = os.path.join(ref, "packages", "ci", "src", "comment.ts")
    with tempfile.TemporaryDirectory(prefix="adrkit-render-") as scratch:
        script = os.path.join(scratch, "render.ts")
        with open(script, "w", encoding="utf-8") as handle:
            handle.write(RENDER % json.dumps(module))
        run = subprocess.run([bun, script], input=json.dumps(outcomes).encode("ascii"),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300,
                             cwd=ref, check=False)
    if run.returncode != 0:
        sys.exit("the reference renderer failed: %s" % run.stderr.decode())
    return json.loads(run.stdout.decode("utf-8"))


def units(text):
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def pad(bun, ref, cases):
    """Fill each padded case's decision title until the reference's body has the target length."""
    padded = [(index, case) for index, case in enumerate(cases) if case[2] is not None]
    if not padded:
        return cases
    bodies = render(bun, ref, [case[1] for _, case in padded])["bodies"]
    cases = list(cases)
    for (index, (name, result, (target, which))), body in zip(padded, bodies):
        missing = target - units(body)
        assert missing > 0, name
        title = "\U0001F600" * (missing // 2) + "a" * (missing % 2) if "astral" in name \
            else "a" * missing
        for bucket in ("governedBy", "governing"):
            result[bucket][which]["title"] = title
        cases[index] = (name, result, None)
    return cases


def node_utf8(text):
    """What Node writes for a string: UTF-8, a lone surrogate as U+FFFD."""
    return "".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in text).encode("utf-8")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bun", required=True, help="the Bun executable")
    parser.add_argument("--ref", required=True, help="the reference source (commit dc10ecc)")
    parser.add_argument("--out", default=OUT, help="where the cases go (default: %(default)s)")
    options = parser.parse_args()
    cases = pad(options.bun, options.ref, written_cases()) + recorded_cases(options.bun, options.ref)
    rendered = render(options.bun, options.ref, [case[1] for case in cases])
    out = os.path.abspath(options.out)
    for name in os.listdir(out) if os.path.isdir(out) else ():
        if name.endswith((".json", ".md")) and name != "README.md":
            os.unlink(os.path.join(out, name))
    os.makedirs(out, exist_ok=True)
    for (name, result, _), body in zip(cases, rendered["bodies"]):
        with open(os.path.join(out, name + ".json"), "w", encoding="ascii", newline="\n") as handle:
            handle.write(json.dumps(result, indent=2, ensure_ascii=True) + "\n")
        with open(os.path.join(out, name + ".md"), "wb") as handle:
            handle.write(node_utf8(body))
        print("%-32s %6d units%s" % (name, units(body),
                                     ", truncated" if "output truncated" in body else ""))
    with open(os.path.join(out, "truncated-notice.md"), "wb") as handle:
        handle.write(node_utf8(rendered["notice"]))
    manifest(out)
    print("%d cases and the truncated notice in %s" % (len(cases), out))


def manifest(out):
    """Rewrite the pr-comments lines of tests/data/MANIFEST.sha256 (tests/test_standalone.py)."""
    path = os.path.join(out, "..", "MANIFEST.sha256")
    with open(path, encoding="utf-8") as handle:
        lines = [line for line in handle.read().splitlines() if "  pr-comments/" not in line]
    for name in sorted(os.listdir(out)):
        with open(os.path.join(out, name), "rb") as handle:
            data = handle.read()
        lines.append("%s  %d  pr-comments/%s" % (hashlib.sha256(data).hexdigest(), len(data), name))
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
