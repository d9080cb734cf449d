"""The typed frontmatter v0.1.0 and the corpus-wide findings.

Records are real files in a temporary repository; findings are read back
through the tools.  Rule names, severities, fields and the fixed-template
messages are the ones the conformance pack records for @adrkit/mcp 0.8.0.
For rules whose text comes from the schema library (invalid-*, required-field,
unique-items) only rule, severity, path, id and field are compared, as the pack
does.
"""

import pytest

import _support as support  # tests/ is on sys.path (pytest rootdir insertion)

M = support.M
record_text = support.record_text
all_findings = support.all_findings
strip_message = support.strip_message

# The order in which the reference emits frontmatter keys (schema declaration order).
TOP_LEVEL_ORDER = [
    "schemaVersion", "id", "title", "status", "date", "created", "deciders", "consulted", "informed",
    "tags", "scope", "domain", "reversibility", "blastRadius", "supersedes", "supersededBy",
    "relatesTo", "conflictsWith", "affects", "assertions", "provenance", "review", "evaluation",
    "externalRefs", "complianceControls", "reviewBy",
]
DEFAULTED = {
    "schemaVersion": "0.1.0", "deciders": [], "consulted": [], "informed": [], "tags": [],
    "scope": "component", "reversibility": "unknown", "blastRadius": "component", "supersedes": [],
    "relatesTo": [], "conflictsWith": [], "affects": [], "assertions": [], "externalRefs": [],
    "complianceControls": [],
}

CROSS_FIELD = {
    "superseded-requires-supersededBy": ('status "superseded" requires supersededBy', "supersededBy"),
    "supersededBy-requires-superseded-status": (
        'supersededBy is set but status is not "superseded"', "status"),
    "accepted-requires-decider-unless-imported": (
        "an accepted decision must name at least one decider, unless it was imported", "deciders"),
    "agent-accepted-requires-ratifier": (
        'a machine-originated record cannot reach "accepted" without a named human ratifier',
        "provenance.ratifiedBy"),
    "one-way-door-disallows-auto": (
        "one-way-door decisions may not take the auto-approve fast path", "review.tier"),
}
IMPORT_INCOMPLETE = ("Imported accepted decision has no deciders; provenance explains the gap, "
                     "but it should be backfilled when known")


def cross_field(rule, path, ident):
    message, field = CROSS_FIELD[rule]
    return {"rule": rule, "severity": "error", "message": message, "path": path, "id": ident,
            "field": field}


def findings_of(repo, name):
    path = repo.source_path(name)
    return [finding for finding in all_findings(repo) if finding.get("path") == path]


def schema_findings(repo, name, extra="", **fields):
    """Write one record and return its findings without messages (rule, severity, path, id, field)."""
    repo.write(name, record_text(name.split("-", 1)[0], extra=extra, **fields))
    return [strip_message(finding) for finding in findings_of(repo, name)]


def error(repo, name, rule, field=None, ident="default"):
    """The expected message-less finding for one schema violation."""
    finding = {"rule": rule, "severity": "error", "path": repo.source_path(name)}
    if ident == "default":
        ident = name.split("-", 1)[0]
    if ident is not None:
        finding["id"] = ident
    if field is not None:
        finding["field"] = field
    return finding


def assert_valid(repo, name, extra="", **fields):
    repo.write(name, record_text(name.split("-", 1)[0], extra=extra, **fields))
    assert findings_of(repo, name) == []
    assert repo.result("get_decision", ref=name.split("-", 1)[0])["outcome"] == "found"


# --------------------------------------------------------------------------- #
# Defaults, filled in the reference's key order

def test_defaults_are_filled_in_reference_key_order(repo):
    repo.write("0600-minimal.md", "---\ndate: \"2025-04-04\"\nstatus: proposed\n"
                                  "title: Catalogue every object\nid: \"0600\"\n---\nA plain record.\n")
    frontmatter = repo.result("get_decision", ref="0600")["decision"]["frontmatter"]
    expected = dict(DEFAULTED, id="0600", title="Catalogue every object", status="proposed",
                    date="2025-04-04")
    assert frontmatter == expected
    assert list(frontmatter) == [key for key in TOP_LEVEL_ORDER if key in expected]


FULL_RECORD_REVERSED = '''---
reviewBy: "2027-03-01"
complianceControls: ["SOC2 CC8.1"]
externalRefs:
  - label: "RFC 12"
    url: "https://rfc.example/12"
    type: "rfc"
evaluation:
  deterministicFindings:
    - adr: "0002"
      severity: "info"
      rule: "no-orphan-refs"
  confidence: 0.5
  ranAt: "2025-10-02T07:15:00Z"
review:
  objections:
    - by: "@ana-ruiz"
  quorum: 2
  tier: "arb"
provenance:
  ratifiedBy: "@ana-ruiz"
  agent:
    harness: "spec-kit"
    name: "scribe"
assertions:
  - severity: "warn"
    engine: "grep"
    id: "signed"
affects:
  - note: "every build target"
    pattern: "firmware/**"
    type: "path"
conflictsWith: ["0002"]
relatesTo: ["0002"]
supersededBy: "0002"
supersedes: []
blastRadius: "org"
reversibility: "two-way-door"
domain: "devices"
scope: "domain"
tags: ["security"]
informed: ["@field-crew"]
consulted: ["team:security"]
deciders: ["@kofi-mensah"]
created: "2025-09-20"
date: "2025-10-09"
status: "superseded"
title: "Sign firmware images"
id: "0008"
schemaVersion: "0.1.0"
---
Body.
'''


def test_key_order_does_not_follow_the_source_order(repo):
    repo.write("0008-sign-firmware.md", FULL_RECORD_REVERSED)
    repo.record("0002-target.md")
    frontmatter = repo.result("get_decision", ref="0008")["decision"]["frontmatter"]
    assert list(frontmatter) == TOP_LEVEL_ORDER
    assert list(frontmatter["affects"][0]) == ["type", "pattern", "negate", "note"]
    assert frontmatter["affects"][0]["negate"] is False
    assert list(frontmatter["assertions"][0]) == ["id", "engine", "input", "severity"]
    assert frontmatter["assertions"][0]["input"] == "source"
    assert list(frontmatter["provenance"]) == ["authoredBy", "agent", "ratifiedBy"]
    assert frontmatter["provenance"]["authoredBy"] == "human"
    assert list(frontmatter["provenance"]["agent"]) == ["name", "harness"]
    assert list(frontmatter["review"]) == ["tier", "quorum", "approvals", "objections"]
    assert frontmatter["review"]["objections"] == [{"by": "@ana-ruiz", "resolved": False}]
    assert list(frontmatter["evaluation"]) == ["ranAt", "confidence", "escalationReasons",
                                               "deterministicFindings"]
    assert list(frontmatter["evaluation"]["deterministicFindings"][0]) == ["rule", "severity", "adr"]
    assert list(frontmatter["externalRefs"][0]) == ["type", "url", "label"]


def test_score_keys_keep_their_order(repo):
    repo.record("0001-scores.md", extra="evaluation:\n  scores:\n    zeta: 1\n    alpha: 2.5\n")
    scores = repo.result("get_decision", ref="0001")["decision"]["frontmatter"]["evaluation"]["scores"]
    assert list(scores.items()) == [("zeta", 1), ("alpha", 2.5)]


# --------------------------------------------------------------------------- #
# The five cross-field rules

def test_superseded_requires_superseded_by(repo):
    repo.record("0319-superseded-without-successor.md", status="superseded")
    assert findings_of(repo, "0319-superseded-without-successor.md") == [
        cross_field("superseded-requires-supersededBy", "docs/adr/0319-superseded-without-successor.md",
                    "0319")]


def test_superseded_by_requires_superseded_status(repo):
    repo.record("0300-target.md")
    repo.record("0320-successor-on-accepted.md", status="accepted",
                extra='deciders: ["@priya-raman"]\nsupersededBy: "0300"\n')
    assert findings_of(repo, "0320-successor-on-accepted.md") == [
        cross_field("supersededBy-requires-superseded-status", "docs/adr/0320-successor-on-accepted.md",
                    "0320")]


@pytest.mark.parametrize("extra", ["", "deciders: []\n"], ids=["missing", "empty"])
def test_accepted_requires_a_decider(repo, extra):
    repo.record("0321-accepted-without-deciders.md", status="accepted", extra=extra)
    assert findings_of(repo, "0321-accepted-without-deciders.md") == [
        cross_field("accepted-requires-decider-unless-imported",
                    "docs/adr/0321-accepted-without-deciders.md", "0321")]


IMPORTED = ('provenance:\n  importedFrom:\n    sourceKind: other\n    sourceRef: "confluence:PAY-12"\n'
            '    fingerprint: "f00d"\n')


def test_imported_accepted_record_without_deciders_is_kept_with_an_info_finding(repo):
    repo.record("0322-imported-without-deciders.md", status="accepted", extra=IMPORTED)
    assert findings_of(repo, "0322-imported-without-deciders.md") == [
        {"rule": "import-incomplete", "severity": "info", "message": IMPORT_INCOMPLETE,
         "path": "docs/adr/0322-imported-without-deciders.md", "id": "0322", "field": "deciders"}]
    decision = repo.result("get_decision", ref="0322")["decision"]
    assert decision["frontmatter"]["provenance"]["authoredBy"] == "human"


def test_import_incomplete_only_for_accepted_records_without_deciders(repo):
    assert_valid(repo, "0001-imported-draft.md", status="draft", extra=IMPORTED)
    assert_valid(repo, "0002-imported-with-decider.md", status="accepted",
                 extra=IMPORTED + 'deciders: ["@ola"]\n')


@pytest.mark.parametrize("author", ["agent", "agent-drafted"])
def test_agent_accepted_requires_a_ratifier(repo, author):
    name = "0323-agent-unratified.md"
    repo.record(name, status="accepted",
                extra='deciders: ["@priya-raman"]\nprovenance:\n  authoredBy: %s\n' % author)
    assert findings_of(repo, name) == [
        cross_field("agent-accepted-requires-ratifier", "docs/adr/" + name, "0323")]


def test_agent_rule_boundaries(repo):
    assert_valid(repo, "0001-ratified.md", status="accepted",
                 extra='deciders: ["@a"]\nprovenance:\n  authoredBy: agent\n  ratifiedBy: "@b"\n')
    assert_valid(repo, "0002-human.md", status="accepted",
                 extra='deciders: ["@a"]\nprovenance:\n  authoredBy: human\n')
    assert_valid(repo, "0003-agent-proposal.md", status="proposed",
                 extra="provenance:\n  authoredBy: agent\n")


def test_one_way_door_disallows_auto(repo):
    name = "0325-one-way-door-on-auto.md"
    repo.record(name, extra="reversibility: one-way-door\nreview:\n  tier: auto\n")
    assert findings_of(repo, name) == [cross_field("one-way-door-disallows-auto", "docs/adr/" + name, "0325")]


def test_one_way_door_rule_boundaries(repo):
    assert_valid(repo, "0001-async.md", extra="reversibility: one-way-door\nreview:\n  tier: async\n")
    assert_valid(repo, "0002-two-way.md", extra="reversibility: two-way-door\nreview:\n  tier: auto\n")
    assert_valid(repo, "0003-no-tier.md", extra="reversibility: one-way-door\nreview:\n  quorum: 1\n")


def test_three_cross_field_rules_at_once(repo):
    name = "0335-three-refinements.md"
    repo.record(name, status="accepted",
                extra="reversibility: one-way-door\nreview:\n  tier: auto\nprovenance:\n"
                      "  authoredBy: agent-drafted\n")
    path = "docs/adr/" + name
    assert findings_of(repo, name) == [
        cross_field("accepted-requires-decider-unless-imported", path, "0335"),
        cross_field("agent-accepted-requires-ratifier", path, "0335"),
        cross_field("one-way-door-disallows-auto", path, "0335"),
    ]


# --------------------------------------------------------------------------- #
# The "abort" rule: a type, enum or unknown-key error suppresses the cross-field
# rules (and uniqueness); a format, size or uniqueness error does not.

SUPERSEDED_WITHOUT_SUCCESSOR = dict(status="superseded")


@pytest.mark.parametrize("extra, rule, field", [
    ('owner: "@priya"\n', "strict-unknown-key", "owner"),
    ("provenance:\n  reviewer: \"@sam\"\n", "strict-unknown-key", "provenance.reviewer"),
    ("tags: payroll\n", "invalid-type", "tags"),
    ("review:\n  slaDays: ten\n", "invalid-type", "review.slaDays"),
    ("blastRadius: galaxy\n", "invalid-enum-value", "blastRadius"),
], ids=["unknown-key", "nested-unknown-key", "type", "nested-type", "enum"])
def test_aborting_errors_suppress_cross_field_rules(repo, extra, rule, field):
    name = "0401-aborted.md"
    assert schema_findings(repo, name, extra=extra, **SUPERSEDED_WITHOUT_SUCCESSOR) == [
        error(repo, name, rule, field)]


def test_missing_required_field_suppresses_cross_field_rules(repo):
    name = "0402-no-date.md"
    assert schema_findings(repo, name, date=None, **SUPERSEDED_WITHOUT_SUCCESSOR) == [
        error(repo, name, "required-field", "date")]


@pytest.mark.parametrize("fields, extra, rule, field", [
    ({"date": "2026-02-30"}, "", "invalid-format", "date"),
    ({"title": "ab"}, "", "invalid-size", "title"),
    ({}, "tags: [ops, ops]\n", "unique-items", "tags"),
    ({}, 'review:\n  queuedAt: "2025-05-05T10:00:00"\n', "invalid-format", "review.queuedAt"),
], ids=["format", "size", "uniqueness", "nested-format"])
def test_format_size_and_uniqueness_errors_keep_cross_field_rules(repo, fields, extra, rule, field):
    name = "0403-not-aborted.md"
    found = schema_findings(repo, name, extra=extra, **dict(SUPERSEDED_WITHOUT_SUCCESSOR, **fields))
    assert sorted(found, key=lambda f: f["rule"]) == sorted(
        [error(repo, name, rule, field),
         error(repo, name, "superseded-requires-supersededBy", "supersededBy")],
        key=lambda f: f["rule"])


def test_a_type_error_inside_an_array_suppresses_its_uniqueness_check(repo):
    name = "0404-mixed-tags.md"
    assert schema_findings(repo, name, extra="tags: [ops, ops, 5]\n") == [
        error(repo, name, "invalid-type", "tags.2")]


def test_format_errors_inside_an_array_keep_its_uniqueness_check(repo):
    name = "0405-bad-slugs.md"
    assert schema_findings(repo, name, extra='tags: ["Not A Slug", "Not A Slug"]\n') == [
        error(repo, name, "invalid-format", "tags.0"),
        error(repo, name, "invalid-format", "tags.1"),
        error(repo, name, "unique-items", "tags"),
    ]


# --------------------------------------------------------------------------- #
# Unknown keys, at every depth

EVERY_DEPTH = '''owner: "@x"
affects:
  - type: path
    pattern: "src/**"
    weight: 3
assertions:
  - id: a1
    engine: grep
    severity: info
    color: red
provenance:
  reviewer: "@sam"
  agent:
    name: scribe
    colour: teal
  importedFrom:
    sourceKind: other
    sourceRef: x
    fingerprint: f
    extra: 1
review:
  extra: 1
  objections:
    - by: "@ana"
      note: x
evaluation:
  extra: 1
  scores:
    anything-goes: 2
  deterministicFindings:
    - rule: r
      severity: info
      extra: 1
externalRefs:
  - type: doc
    url: "https://example.com/"
    extra: 1
'''


def test_unknown_keys_are_rejected_at_every_depth(repo):
    name = "0309-nested-unknown-keys.md"
    repo.record(name, extra=EVERY_DEPTH)
    fields = ["affects.0.weight", "assertions.0.color", "evaluation.deterministicFindings.0.extra",
              "evaluation.extra", "externalRefs.0.extra", "owner", "provenance.agent.colour",
              "provenance.importedFrom.extra", "provenance.reviewer", "review.extra",
              "review.objections.0.note"]
    assert findings_of(repo, name) == [
        {"rule": "strict-unknown-key", "severity": "error",
         "message": 'Unknown frontmatter field "%s" is not allowed' % field,
         "path": "docs/adr/" + name, "id": "0309", "field": field}
        for field in fields]
    assert repo.result("get_decision", ref="0309")["outcome"] == "not-found"


def test_merge_key_is_an_ordinary_unknown_key(repo):
    name = "0406-merge-key.md"
    assert schema_findings(repo, name, extra="<<: {owner: x}\n") == [
        error(repo, name, "strict-unknown-key", "<<")]


# --------------------------------------------------------------------------- #
# Types, enums, patterns, formats, sizes, uniqueness

@pytest.mark.parametrize("extra, expected", [
    ("scope: team\n", [("invalid-enum-value", "scope")]),
    ("reversibility: sideways\n", [("invalid-enum-value", "reversibility")]),
    ("affects:\n  - type: repo\n    pattern: x\n", [("invalid-enum-value", "affects.0.type")]),
    ("assertions:\n  - id: ok\n    engine: sql\n    severity: loud\n",
     [("invalid-enum-value", "assertions.0.engine"), ("invalid-enum-value", "assertions.0.severity")]),
    ("evaluation:\n  escalationReasons: [bored]\n", [("invalid-enum-value", "evaluation.escalationReasons.0")]),
    ("provenance:\n  authoredBy: robot\n", [("invalid-enum-value", "provenance.authoredBy")]),
    ("externalRefs:\n  - type: blog\n    url: https://example.com/\n", [("invalid-enum-value", "externalRefs.0.type")]),
    ('schemaVersion: "1.0"\n', [("invalid-format", "schemaVersion")]),
    ('deciders: ["nobody"]\n', [("invalid-format", "deciders.0")]),
    ('consulted: ["@ok", "team:Ops"]\n', [("invalid-format", "consulted.1")]),
    ('tags: ["Not A Slug"]\n', [("invalid-format", "tags.0")]),
    ('supersedes: ["ADR-7"]\n', [("invalid-format", "supersedes.0")]),
    ('relatesTo: ["Core:0001"]\n', [("invalid-format", "relatesTo.0")]),
    ('conflictsWith: [42]\n', [("invalid-type", "conflictsWith.0")]),
    ("assertions:\n  - id: Not_A_Slug\n    engine: grep\n    severity: info\n",
     [("invalid-format", "assertions.0.id")]),
    ("externalRefs:\n  - type: doc\n    url: not a url\n", [("invalid-format", "externalRefs.0.url")]),
    ('review:\n  queuedAt: "2025-05-05T10:00:00"\n', [("invalid-format", "review.queuedAt")]),
    ('created: "2025-13-01"\n', [("invalid-format", "created")]),
    ('reviewBy: "2100-02-29"\n', [("invalid-format", "reviewBy")]),
    ("review:\n  slaDays: -1\n  quorum: 0\n", [("invalid-size", "review.quorum"), ("invalid-size", "review.slaDays")]),
    ("review:\n  slaDays: 1.5\n", [("invalid-type", "review.slaDays")]),
    ("evaluation:\n  confidence: 1.5\n  scores:\n    clarity: 5\n",
     [("invalid-size", "evaluation.confidence"), ("invalid-size", "evaluation.scores.clarity")]),
    ('affects:\n  - type: path\n    pattern: ""\n', [("invalid-size", "affects.0.pattern")]),
    ("affects:\n  - type: path\n", [("required-field", "affects.0.pattern")]),
    ("affects:\n  - type: path\n    pattern: x\n    negate: yes-please\n", [("invalid-type", "affects.0.negate")]),
    ("tags: [ops, ops]\n", [("unique-items", "tags")]),
    ('complianceControls: ["SOC2 CC8.1", "SOC2 CC8.1"]\n', [("unique-items", "complianceControls")]),
    ('supersedes: ["0001", "0001"]\n', [("unique-items", "supersedes")]),
    ('relatesTo: ["0001", "0001"]\n', [("unique-items", "relatesTo")]),
    ("tags: payroll\n", [("invalid-type", "tags")]),
    ("deciders: \"@priya\"\n", [("invalid-type", "deciders")]),
    ("review: []\n", [("invalid-type", "review")]),
    ("supersededBy: null\n", [("invalid-type", "supersededBy")]),
], ids=lambda value: "+".join(f for _, f in value) if isinstance(value, list) else "")
def test_schema_violation_rule_and_field(repo, extra, expected):
    name = "0410-violation.md"
    assert schema_findings(repo, name, extra=extra) == [
        error(repo, name, rule, field) for rule, field in expected]


def test_missing_status_is_an_enum_error_and_missing_id_is_required(repo):
    name = "0327-missing-required-fields.md"
    repo.write(name, "---\ntitle: Missing required fields\n---\nbody\n")
    assert [strip_message(f) for f in findings_of(repo, name)] == [
        error(repo, name, "invalid-enum-value", "status", ident=None),
        error(repo, name, "required-field", "date", ident=None),
        error(repo, name, "required-field", "id", ident=None),
    ]


def test_the_raw_id_is_reported_only_when_it_is_a_string(repo):
    repo.write("0330-bad-id-pattern.md", record_text("42"))
    repo.write("0331-numeric-id.md", record_text(None, extra="id: 42\n"))
    assert [strip_message(f) for f in findings_of(repo, "0330-bad-id-pattern.md")] == [
        error(repo, "0330-bad-id-pattern.md", "invalid-format", "id", ident="42")]
    assert [strip_message(f) for f in findings_of(repo, "0331-numeric-id.md")] == [
        error(repo, "0331-numeric-id.md", "invalid-type", "id", ident=None)]


@pytest.mark.parametrize("source", ["---\n---\nbody\n", "---\n# only a comment\n---\n", "---\nnull\n---\n",
                                    "---\n- a\n- b\n---\n", "---\njust text\n---\n"],
                         ids=["empty", "comment", "null", "sequence", "scalar"])
def test_frontmatter_that_is_not_a_mapping(repo, source):
    repo.write("0328-not-a-mapping.md", source)
    assert [strip_message(f) for f in findings_of(repo, "0328-not-a-mapping.md")] == [
        {"rule": "invalid-type", "severity": "error", "path": "docs/adr/0328-not-a-mapping.md"}]


@pytest.mark.parametrize("date", ["2024-02-29", "2000-02-29", "1999-12-31", "2025-04-30"])
def test_calendar_dates_accepted(repo, date):
    assert_valid(repo, "0001-date.md", date=date, extra='created: "%s"\nreviewBy: "%s"\n' % (date, date))


@pytest.mark.parametrize("date", ["2026-02-30", "2100-02-29", "2023-02-29", "2025-04-31", "2025-00-10",
                                  "2025-1-01", "25-01-01", "2025-01-01T00:00:00Z", " 2025-01-01"])
def test_calendar_dates_rejected(repo, date):
    name = "0312-impossible-date.md"
    assert schema_findings(repo, name, date=date) == [error(repo, name, "invalid-format", "date")]


@pytest.mark.parametrize("stamp", ["2025-10-01T09:00:00Z", "2025-10-09T16:30:00+02:00",
                                   "2026-01-01T12:30Z",  # schema v0.1.0 still allows minutes only
                                   "2025-10-09T16:30:00.123-05:30", "2024-02-29T23:59:59Z"])
def test_datetimes_accepted(repo, stamp):
    assert_valid(repo, "0001-stamp.md", extra='review:\n  queuedAt: "%s"\n' % stamp)


@pytest.mark.parametrize("stamp", ["2025-10-01T09:00:00", "2025-10-01", "2025-02-30T09:00:00Z",
                                   "2025-10-01T24:00:00Z", "2025-10-01 09:00:00Z"])
def test_datetimes_rejected(repo, stamp):
    name = "0342-datetime.md"
    assert schema_findings(repo, name, extra='review:\n  decidedAt: "%s"\n' % stamp) == [
        error(repo, name, "invalid-format", "review.decidedAt")]


@pytest.mark.parametrize("url", ["https://rfc.example/12", "http://localhost:8080/x?y#z", "mailto:a@b.example",
                                 "urn:isbn:0451450523", "https://[::1]/"])
def test_urls_accepted(repo, url):
    assert_valid(repo, "0001-url.md", extra='externalRefs:\n  - type: doc\n    url: "%s"\n' % url)


@pytest.mark.parametrize("url", ["not a url", "example.com/path", "https://", "http://exa mple.com/",
                                 "https://example.com:99999/", "/relative/path"])
def test_urls_rejected(repo, url):
    name = "0332-bad-url.md"
    assert schema_findings(repo, name, extra='externalRefs:\n  - type: doc\n    url: "%s"\n' % url) == [
        error(repo, name, "invalid-format", "externalRefs.0.url")]


@pytest.mark.parametrize("ref", ["0001", "00001", "01JBQ7R3X5M8N2P4T6V9W0YZKH", "core:0007",
                                 "platform-tools:0101", "a-b-9:01JBQ7R3X5M8N2P4T6V9W0YZKH"])
def test_relation_refs_accepted(repo, ref):
    repo.write("0001-target.md", record_text("0001"))
    repo.write("0002-ref.md", record_text("0002", extra='relatesTo: ["%s"]\n' % ref))
    assert [f["rule"] for f in findings_of(repo, "0002-ref.md") if f["rule"] != "dangling-relatesTo"] == []
    assert repo.result("get_decision", ref="0002")["decision"]["frontmatter"]["relatesTo"] == [ref]


@pytest.mark.parametrize("ref", ["42", "ADR-7", "Core:0001", "-core:0001", ":0001", "core:",
                                 "01JBQ7R3X5M8N2P4T6V9W0YZKI", "01JBQ7R3X5M8N2P4T6V9W0YZK", " 0001"])
def test_relation_refs_rejected(repo, ref):
    name = "0340-bad-ref.md"
    assert schema_findings(repo, name, extra='supersedes: ["%s"]\n' % ref) == [
        error(repo, name, "invalid-format", "supersedes.0")]


@pytest.mark.parametrize("ident", ["0042", "00618", "123456789", "01JBQ7R3X5M8N2P4T6V9W0YZKH",
                                   "01jbq7r3x5m8n2p4t6v9w0yzkh"])
def test_ids_accepted(repo, ident):
    repo.write("0001-id.md", record_text(ident))
    assert repo.result("get_decision", ref=ident)["decision"]["id"] == ident


@pytest.mark.parametrize("title, valid", [
    ("abc", True), ("ab", False), ("a" * 120, True), ("a" * 121, False),
    ("\U0001f3ab\U0001f3ab", True),             # 2 characters, 4 UTF-16 code units
    ("\U0001f3ab", False),                      # 1 character, 2 code units: too short
    ("\U0001f3ab" * 60, True),                  # 120 code units
    ("\U0001f3ab" * 60 + "a", False),           # 121 code units, 61 characters
    ("\u00e9" * 120, True),                     # BMP characters count once
], ids=["3", "2", "120", "121", "two-astral", "one-astral", "60-astral", "60-astral-plus-one", "120-bmp"])
def test_titles_are_measured_in_utf16_code_units(repo, title, valid):
    name = "0313-title.md"
    found = schema_findings(repo, name, title=title)
    assert found == ([] if valid else [error(repo, name, "invalid-size", "title")])


def test_conflicts_may_repeat(repo):
    repo.record("0101-target.md")
    repo.record("0114-allow-friday-deploys.md", extra='conflictsWith: ["0101", "0101"]\n')
    assert findings_of(repo, "0114-allow-friday-deploys.md") == []


def test_validate_frontmatter_directly():
    value = {"id": "0001", "title": "Direct", "status": "draft", "date": "2025-01-01"}
    frontmatter, problems = M.validate_frontmatter(value)
    assert problems == []
    assert list(frontmatter) == [key for key in TOP_LEVEL_ORDER if key in DEFAULTED or key in value]
    frontmatter, problems = M.validate_frontmatter(dict(value, status="superseded", owner="x"))
    assert frontmatter is None
    assert [(rule, field) for rule, field, _ in problems] == [("strict-unknown-key", "owner")]


# --------------------------------------------------------------------------- #
# Corpus findings

def test_unique_id_lists_paths_in_code_unit_order(repo):
    # U+1F600 is a surrogate pair (0xD83D ...) and sorts before U+FF21 by code unit,
    # after it by code point.
    repo.record("0501-\uff21pi-naming.md", ident="0501", status="rejected")
    repo.record("0501-\U0001f600-naming.md", ident="0501", status="rejected")
    repo.record("0501-alpha.md", ident="0501")
    paths = ["docs/adr/0501-alpha.md", "docs/adr/0501-\U0001f600-naming.md", "docs/adr/0501-\uff21pi-naming.md"]
    message = 'ADR id "0501" is used by multiple records: ' + ", ".join(paths)
    assert all_findings(repo) == [
        {"rule": "unique-id", "severity": "error", "message": message, "path": path, "id": "0501",
         "field": "id"} for path in paths]
    candidates = repo.result("get_decision", ref="0501")["candidates"]
    assert [candidate["sourcePath"] for candidate in candidates] == paths


def test_unique_id_counts_only_valid_records(repo):
    repo.record("0500-one.md")
    repo.record("0500-two.md", status="approved")  # invalid: not a record, so no duplicate
    assert support.rules_of(all_findings(repo)) == ["invalid-enum-value"]
    assert repo.result("get_decision", ref="0500")["outcome"] == "found"


def dangling(field, ref, severity, name, ident):
    return {"rule": "dangling-%s" % field, "severity": severity,
            "message": 'Reference "%s" in %s does not resolve to a record in the corpus' % (ref, field),
            "path": "docs/adr/" + name, "id": ident, "field": field}


def test_dangling_references_and_their_severities(repo):
    repo.record("0100-exists.md")
    repo.record("0113-adopt-merge-queues.md",
                extra='supersedes: ["0100", "0998"]\nrelatesTo: ["0100", "infra:0002"]\n'
                      'conflictsWith: ["0997"]\n')
    repo.record("0105-mirror.md", status="superseded", extra='supersededBy: "0199"\n')
    repo.record("0107-federated.md", status="superseded", extra='supersededBy: "core:0007"\n')
    repo.record("0108-federated-local-collision.md", status="superseded",
                extra='supersededBy: "platform-tools:0100"\n')
    repo.record("0109-ulid.md", status="superseded", extra='supersededBy: "01HZX4Y8M2N6P0R3T5V7W9K1QZ"\n')
    assert [f for f in all_findings(repo) if f["rule"].startswith("dangling-")] == [
        dangling("conflictsWith", "0997", "warn", "0113-adopt-merge-queues.md", "0113"),
        dangling("relatesTo", "infra:0002", "error", "0113-adopt-merge-queues.md", "0113"),
        dangling("supersededBy", "0199", "error", "0105-mirror.md", "0105"),
        dangling("supersededBy", "core:0007", "error", "0107-federated.md", "0107"),
        dangling("supersededBy", "platform-tools:0100", "error", "0108-federated-local-collision.md", "0108"),
        dangling("supersededBy", "01HZX4Y8M2N6P0R3T5V7W9K1QZ", "error", "0109-ulid.md", "0109"),
        dangling("supersedes", "0998", "error", "0113-adopt-merge-queues.md", "0113"),
    ]


def test_a_reference_to_an_ambiguous_id_is_not_dangling(repo):
    repo.record("0110-a.md")
    repo.record("0110-b.md")
    repo.record("0106-pin.md", status="superseded", extra='supersededBy: "0110"\nrelatesTo: ["0110"]\n')
    assert support.rules_of(all_findings(repo)) == ["unique-id", "unique-id"]


def test_a_reference_to_an_excluded_record_dangles(repo):
    repo.write("0002-broken.md", "no fence\n")
    repo.record("0001-refers.md", extra='relatesTo: ["0002"]\n')
    assert [f["rule"] for f in all_findings(repo)] == ["dangling-relatesTo", "frontmatter-fence"]


def test_accepted_conflicts(repo):
    repo.record("0101-workflow-engine.md")
    repo.record("0104-gitops.md")
    repo.record("0114-allow-friday-deploys.md", status="accepted",
                extra='deciders: ["@tomas-novak"]\nconflictsWith: ["0101", "0101", "0104"]\n')
    repo.record("0115-proposal-in-conflict.md", extra='conflictsWith: ["0101"]\n')
    message = 'Accepted ADR declares a known conflict with "%s"'
    assert all_findings(repo) == [
        {"rule": "accepted-conflictsWith", "severity": "warn", "message": message % ref,
         "path": "docs/adr/0114-allow-friday-deploys.md", "id": "0114", "field": "conflictsWith"}
        for ref in ("0101", "0101", "0104")]


def test_corpus_findings_follow_the_current_corpus(repo):
    repo.record("0001-refers.md", extra='relatesTo: ["0002"]\n')
    assert support.rules_of(all_findings(repo)) == ["dangling-relatesTo"]
    repo.record("0002-arrives.md")
    assert all_findings(repo) == []


# --------------------------------------------------------------------------- #
# Finding order: (rule, id, pattern, path, field, message) by UTF-16 code units

def test_utf16_key_orders_astral_before_the_top_of_the_bmp():
    words = ["\uff21", "\U0001f600", "\ue000", "z", "\u00e9"]
    assert sorted(words, key=M.utf16_key) == ["z", "\u00e9", "\U0001f600", "\ue000", "\uff21"]


def test_sort_findings_key_order():
    def finding(rule="m-rule", message="m", **extra):
        result = {"rule": rule, "severity": "error", "message": message}
        result.update(extra)
        return result
    ordered = [
        finding(rule="a-rule", path="z"),
        finding(path="p"),                                  # no id sorts first
        finding(id="0001", path="z"),
        finding(id="0001", pattern="a", path="a"),
        finding(id="0001", pattern="b", path="a"),
        finding(id="0002", path="a", field="a", message="b"),
        finding(id="0002", path="a", field="b", message="a"),
        finding(id="0002", path="b", field="a"),
        finding(id="0002", path="\U0001f600", field="a"),
        finding(id="0002", path="\uff21", field="a"),
        finding(id="0002", path="\uff21", field="a", message="n"),
        finding(rule="z-rule"),
    ]
    shuffled = ordered[::2][::-1] + ordered[1::2]
    assert M.sort_findings(shuffled) == ordered


def test_findings_are_sorted_across_files_by_code_units(repo):
    repo.write("0501-\uff21.md", "no fence\n")
    repo.write("0501-\U0001f600.md", "no fence\n")
    repo.record("0002-ok.md", status="accepted")               # accepted-requires-decider...
    repo.record("0003-bad.md", extra="scope: team\n")          # invalid-enum-value
    repo.write("0004-huge.md", "x" * 70000)                     # record-too-large
    assert [(f["rule"], f["path"]) for f in all_findings(repo)] == [
        ("accepted-requires-decider-unless-imported", "docs/adr/0002-ok.md"),
        ("frontmatter-fence", "docs/adr/0501-\U0001f600.md"),
        ("frontmatter-fence", "docs/adr/0501-\uff21.md"),
        ("invalid-enum-value", "docs/adr/0003-bad.md"),
        ("record-too-large", "docs/adr/0004-huge.md"),
    ]


@pytest.mark.parametrize("title, message", [
    ([], "Too small: expected array to have >=3 items"),
    ({"length": 1}, "Too small: expected unknown to be >=3"),
    ({"length": "2"}, "Too small: expected unknown to be >=3"),
    ("ab", "Too small: expected string to have >=3 characters"),
])
def test_a_length_bound_is_worded_by_what_the_value_is(title, message):
    """zod 4.4.3 runs a string's length checks on any value with a length and words the bound by
    the value's kind (getLengthableOrigin), as the reference's findings show (recorded with its zod)."""
    _, issues = M.validate_frontmatter({"id": "0013", "title": title, "status": "draft", "date": "2024-01-01"})
    assert ("invalid-size", "title", message) in issues
