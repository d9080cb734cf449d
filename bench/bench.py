#!/usr/bin/env python3
"""Benchmark for adrkit-mcp (and any other MCP stdio server of the same four tools).

It generates deterministic, schema-valid ADR corpora (cached under a temp directory keyed by size,
seed and generator version), starts each server command once per corpus size and run, drives it
over stdio with JSON-RPC, and reports per corpus size:

* spawn to first answer (the ``initialize`` answer; ``server/discover`` with ``--era modern``) and
  the server's CPU up to that point;
* the first ``tools/call`` right after start-up (``search_decisions``);
* warm per-call latency (median, p95) and CPU per call for each of the four tools;
* peak RSS (VmHWM) and the wall time of N pipelined calls (all written, then all read);
* two floors measured in the same run, in-process CPU: listing + reading + SHA-256 of every file
  (the read floor), and listing + stat of every file (the stat floor, the least a call can do to
  prove nothing changed), with the ratio of the worst tool's warm CPU per call to each.

Several runs give medians and min-max spreads. ``--vs`` adds a second server and prints ratios
(other / ours). Standard library only; Python 3.9+. CPU and memory figures need Linux ``/proc``
(they are reported as null elsewhere). The benchmark never asserts a time: it exits 0 unless a
server failed to answer (could not start, died, or exceeded the per-request timeout).
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import math
import os
import platform
import random
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

GENERATOR_VERSION = 2
DEFAULT_SEED = 1729
DEFAULT_SIZES = (100, 1000, 5000, 10000)
QUICK_SIZES = (100, 1000)
TOOLS = ("search_decisions", "get_decision", "get_decision_context", "list_superseded")
LEGACY_VERSION = "2025-11-25"
MODERN_VERSION = "2026-07-28"
MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
    "io.modelcontextprotocol/clientCapabilities": {},
}
CORPUS_MARKER = ".bench-corpus.json"
ADR_DIR = os.path.join("docs", "adr")

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.dirname(HERE)


def log(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


# ---------------------------------------------------------------------------------------------
# Deterministic corpus generation
# ---------------------------------------------------------------------------------------------
#
# Only random.Random(int).random() is used: Python guarantees that sequence is stable across
# versions. Nothing iterates a set or a dict whose order depends on hashing.


class Rng(object):
    def __init__(self, seed):
        self._random = random.Random(seed).random

    def random(self):
        return self._random()

    def below(self, n):
        return min(int(self._random() * n), n - 1)

    def between(self, lo, hi):
        return lo + self.below(hi - lo + 1)

    def chance(self, p):
        return self._random() < p

    def pick(self, seq):
        return seq[self.below(len(seq))]

    def distinct(self, seq, k):
        k = min(k, len(seq))
        out = []
        while len(out) < k:
            x = self.pick(seq)
            if x not in out:
                out.append(x)
        return out

    def weighted(self, pairs):
        total = sum(w for _, w in pairs)
        x = self._random() * total
        for value, w in pairs:
            x -= w
            if x < 0:
                return value
        return pairs[-1][0]


STATUS_WEIGHTS = (
    ("accepted", 42),
    ("proposed", 14),
    ("draft", 6),
    ("rejected", 10),
    ("superseded", 18),
    ("deprecated", 10),
)
TITLE_VERBS = (
    "Adopt", "Use", "Replace", "Retire", "Introduce", "Standardise on", "Move to", "Keep",
    "Partition", "Shard", "Cache", "Batch", "Encrypt", "Version", "Stream", "Pin", "Split",
    "Consolidate", "Deprecate", "Mirror", "Buffer", "Audit", "Rate-limit", "Prefer",
)
TITLE_THINGS = (
    "Postgres", "Redis", "Kafka", "gRPC", "GraphQL", "OpenTelemetry", "Terraform", "Kubernetes",
    "S3 object storage", "SQLite", "a write-through cache", "an outbox table", "feature flags",
    "structured logging", "idempotency keys", "blue-green deploys", "a monorepo", "JSON Schema",
    "row-level security", "connection pooling", "read replicas", "event sourcing", "webhooks",
    "a service mesh", "semantic versioning", "nightly exports", "short-lived tokens", "ULIDs",
    "server-side rendering", "background jobs", "contract tests", "CDN caching",
)
TITLE_TAILS = (
    "for the billing ledger", "in the orders service", "for session state", "across all regions",
    "for tenant isolation", "in the ingest pipeline", "for audit events", "at the API gateway",
    "for mobile clients", "in the reporting warehouse", "for search indexing", "in CI",
    "for internal tools", "for the payments flow", "in the inventory service", "for metrics",
    "for customer exports", "behind the edge proxy", "for schema migrations", "on the hot path",
)
TAGS = (
    "database", "caching", "security", "api", "frontend", "backend", "infrastructure", "observability",
    "messaging", "storage", "billing", "payments", "auth", "performance", "reliability", "testing",
    "ci", "deployment", "data", "privacy", "compliance", "mobile", "search", "networking", "cost",
    "migration", "tooling", "events", "queues", "schema", "kubernetes", "terraform", "logging",
    "metrics", "tracing", "dx", "multi-tenant", "latency", "resilience", "governance",
)
AREAS = (
    "db", "api", "auth", "billing", "cache", "search", "ui", "jobs", "events", "storage",
    "payments", "notifications", "metrics", "config", "session", "export",
)
SERVICES = (
    "billing", "orders", "inventory", "identity", "gateway", "ledger", "shipping", "catalog",
    "payments", "notifications", "reporting", "search",
)
PACKAGES = ("core", "ui-kit", "sdk", "schema", "client", "telemetry", "http", "config")
ENVS = ("prod", "staging", "dev", "shared")
PEOPLE = (
    "@maya-okafor", "@li-wei", "@sam-patel", "@jordan-reyes", "@ana-silva", "@tom-becker",
    "@priya-nair", "@kenji-sato", "@olga-ivanova", "@chris-murphy", "@fatima-zahra", "@noah-kim",
    "team:platform", "team:data", "team:payments", "team:security", "team:sre",
    "alex.morgan@example.com", "r.hughes@example.org",
)
SUBJECTS = (
    "the billing service", "the ingest pipeline", "our connection pool", "the read replica",
    "the cache layer", "the job scheduler", "the API gateway", "the search index", "the mobile client",
    "the event bus", "the reporting warehouse", "the deploy pipeline", "the auth proxy",
    "the feature-flag service", "each worker", "the on-call team", "the platform team",
    "the data team", "the payments team", "the migration tool", "the session store",
    "the export job", "the edge proxy", "every tenant database",
)
MODALS = (
    "needs to", "must", "should", "can no longer", "is expected to", "currently tries to",
    "was never designed to", "will", "has to", "is allowed to",
)
ACTIONS = (
    "retry failed writes", "cache hot rows for a few seconds", "stream changes to downstream consumers",
    "batch small requests", "hold a connection per tenant", "shard data by customer",
    "validate payloads at the edge", "emit structured logs", "expose p95 latency",
    "rotate credentials weekly", "replay events after an outage", "fall back to the primary region",
    "serve stale data during failover", "compact old partitions nightly", "encrypt fields at rest",
    "pin dependency versions", "publish a versioned schema", "keep idempotency keys for a day",
    "rate-limit noisy tenants", "warm the cache on deploy", "drain the queue before shutdown",
    "invalidate cached pages on write", "page the owning team", "record every schema change",
)
QUALIFIERS = (
    "without blocking the request path", "under peak load", "during the nightly batch window",
    "when a node is drained", "for every tenant", "across both regions", "before the next release",
    "with bounded memory", "in under fifty milliseconds", "without a schema migration",
    "while keeping the audit trail intact", "at a predictable cost", "on every deploy",
    "without manual steps", "even when the primary is unavailable",
)
CONNECTORS = (
    "Today", "In practice", "Historically", "As a result", "In the last quarter",
    "Since the migration", "During incidents", "For now", "In our measurements", "Because of this",
    "On the other hand", "In the long run",
)
OBSERVATIONS = (
    "p95 latency doubled at month end", "the pool was exhausted twice", "we saw duplicate deliveries",
    "the queue backed up for hours", "on-call pages spiked", "cost grew faster than traffic",
    "the replica lagged by minutes", "cold starts dominated the budget",
    "schema drift broke two consumers", "the cache hit rate stayed under forty percent",
    "a single slow tenant degraded everyone", "restores took longer than the agreed objective",
    "nobody could tell which version was deployed", "the nightly job overlapped with peak traffic",
)
OPTIONS = (
    "a managed queue", "a sidecar cache", "client-side sharding", "a dedicated read replica",
    "an outbox table", "a nightly full rebuild", "gRPC streaming", "a write-through cache",
    "event sourcing", "a single shared pool", "a vendor SaaS product", "doing nothing",
    "a cron job on one host", "per-tenant schemas", "a CDN in front of the API",
)
REASONS = (
    "it adds an operational dependency", "it hides failures from callers",
    "the licence is a poor fit", "it doubles storage cost", "the team lacks experience with it",
    "it complicates local development", "it does not survive a region failover",
    "it moves the bottleneck instead of removing it", "it needs a schema migration we cannot schedule",
)
GOODS = (
    "it keeps the hot path simple", "failures become visible to callers", "it is cheap to operate",
    "on-call gets one place to look", "it scales with the number of tenants",
    "it removes a manual step", "latency becomes predictable", "the cache absorbs read spikes",
)
BADS = (
    "it adds a component to run", "stale reads become possible", "migrations take longer",
    "the first deploy needs a maintenance window", "memory use grows with the key space",
    "debugging spans two systems", "cold caches hurt after a restart",
)
EXTRA_HEADINGS = ("## More Information", "## Validation", "## Rollout", "## Open Questions", "## Notes")
AGENT_NAMES = ("adr-drafter", "design-assistant", "migration-planner")
HARNESSES = ("claude-code", "copilot-cli", "cursor")


def _cap(s):
    return s[0].upper() + s[1:]


def _sentence(rng, paths):
    form = rng.below(9)
    if form == 0:
        return _cap("%s %s %s %s." % (rng.pick(SUBJECTS), rng.pick(MODALS), rng.pick(ACTIONS), rng.pick(QUALIFIERS)))
    if form == 1:
        return "%s, %s." % (rng.pick(CONNECTORS), rng.pick(OBSERVATIONS))
    if form == 2:
        return "%s, %s %s %s." % (rng.pick(CONNECTORS), rng.pick(SUBJECTS), rng.pick(MODALS), rng.pick(ACTIONS))
    if form == 3:
        return "We considered %s, but %s." % (rng.pick(OPTIONS), rng.pick(REASONS))
    if form == 4:
        return "See `%s` for the current implementation." % rng.pick(paths)
    if form == 6:
        return "%s, %s, so we decided to %s." % (rng.pick(CONNECTORS), rng.pick(OBSERVATIONS), rng.pick(ACTIONS))
    if form == 7:
        return "%s was tried in %d, and %s." % (_cap(rng.pick(OPTIONS)), rng.between(2016, 2025), rng.pick(OBSERVATIONS))
    return _cap("%s %s %s, so %s." % (rng.pick(SUBJECTS), rng.pick(MODALS), rng.pick(ACTIONS), rng.pick(OBSERVATIONS)))


def _paragraph(rng, paths, lo=2, hi=5):
    return " ".join(_sentence(rng, paths) for _ in range(rng.between(lo, hi)))


def _example_paths(affects):
    out = []
    for m in affects:
        p = m["pattern"]
        p = p.replace("{api,db}", "api").replace("{ts,tsx}", "ts").replace("**/", "").replace("/**", "/index.ts")
        p = p.replace("*", "main")
        out.append(p)
    return out


def _body(rng, title, affects):
    """Markdown body of 1024..8192 bytes (log-uniform target), MADR-like sections."""
    target = min(int(1024 * (8 ** rng.random())), 7990)
    paths = _example_paths(affects)
    options = rng.distinct(OPTIONS, rng.between(2, 4))
    chosen = rng.pick(options)
    parts = [
        "## Context and Problem Statement\n\n" + _paragraph(rng, paths, 2, 4) + "\n",
        "## Decision Drivers\n\n" + "".join(
            "* %s\n" % _cap(g) for g in rng.distinct(GOODS, rng.between(2, 4))),
        "## Considered Options\n\n" + "".join(
            "%d. %s\n" % (i + 1, _cap(o)) for i, o in enumerate(options)),
        "## Decision Outcome\n\nChosen option: \"%s\", because %s. %s\n" % (
            _cap(chosen), rng.pick(GOODS), _paragraph(rng, paths, 1, 2)),
        "### Consequences\n\n* Good, because %s\n* Bad, because %s\n" % (rng.pick(GOODS), rng.pick(BADS)),
    ]
    text = "\n" + "\n".join(parts)
    size = len(text)
    heading_i = rng.below(len(EXTRA_HEADINGS))
    while size < target:
        heading = EXTRA_HEADINGS[heading_i % len(EXTRA_HEADINGS)]
        heading_i += 1
        chunk = "\n" + heading + "\n\n"
        sentences = rng.between(3, 9)
        first = True
        while sentences > 0 and size + len(chunk) < target:
            chunk += ("" if first else " ") + _sentence(rng, paths)
            first = False
            sentences -= 1
        text += chunk + "\n"
        size = len(text)
    return text


def _title(rng):
    while True:
        t = "%s %s %s" % (rng.pick(TITLE_VERBS), rng.pick(TITLE_THINGS), rng.pick(TITLE_TAILS))
        if 3 <= len(t) <= 120:
            return t


def _slug(title):
    out = []
    dash = False
    for ch in title.lower():
        if ("a" <= ch <= "z") or ("0" <= ch <= "9"):
            out.append(ch)
            dash = False
        elif not dash:
            out.append("-")
            dash = True
    s = "".join(out).strip("-")
    if len(s) > 60:
        s = s[:60].rsplit("-", 1)[0]
    return s


def _affects(rng):
    makers = (
        lambda: "src/%s/**" % rng.pick(AREAS),
        lambda: rng.pick(("**/*.sql", "**/migrations/*.sql", "**/*.proto", "**/*.tf", "**/Dockerfile")),
        lambda: "services/%s/{api,db}/**" % rng.pick(SERVICES),
        lambda: "services/%s/**" % rng.pick(SERVICES),
        lambda: "packages/%s/src/**/*.ts" % rng.pick(PACKAGES),
        lambda: "infra/%s/**/*.tf" % rng.pick(ENVS),
        lambda: "src/%s/**/*.{ts,tsx}" % rng.pick(AREAS),
        lambda: rng.pick((".github/workflows/*.yml", "docs/runbooks/*.md", "config/*.yaml")),
    )
    n = rng.between(1, 4)
    patterns = []
    while len(patterns) < n:
        p = rng.pick(makers)()
        if p not in patterns:
            patterns.append(p)
    out = [{"type": "path", "pattern": p} for p in patterns]
    if n >= 2 and rng.chance(0.06):
        out[-1] = {"type": "path", "pattern": "src/%s/**/*.test.ts" % rng.pick(AREAS), "negate": True}
    return out


def _q(s):
    return json.dumps(s)


def _yaml_list(rng, key, items, indent=""):
    if rng.chance(0.5):
        return "%s%s: [%s]\n" % (indent, key, ", ".join(_q(x) for x in items))
    return "%s%s:\n%s" % (indent, key, "".join("%s  - %s\n" % (indent, _q(x)) for x in items))


def _plan(n, rng):
    """First pass: statuses and relations (they refer to each other)."""
    ids = ["%04d" % (i + 1) for i in range(n)]
    statuses = [rng.weighted(STATUS_WEIGHTS) for _ in range(n)]
    if n < 2:
        statuses = ["accepted" if s == "superseded" else s for s in statuses]
    superseded_by = [None] * n
    supersedes = [[] for _ in range(n)]
    for i in range(n):
        if statuses[i] != "superseded":
            continue
        target = None
        for _ in range(6):
            if i + 1 < n:
                j = rng.between(i + 1, min(n - 1, i + 60))
            else:
                j = rng.between(max(0, i - 60), i - 1)
            target = j
            if statuses[j] == "accepted":
                break
        superseded_by[i] = target
        supersedes[target].append(ids[i])
    relates = [[] for _ in range(n)]
    conflicts = [[] for _ in range(n)]
    for i in range(n):
        if n < 2:
            break
        lo, hi = max(0, i - 200), min(n - 1, i + 200)
        if rng.chance(0.3):
            k = rng.between(1, 3)
            for _ in range(k):
                j = rng.between(lo, hi)
                if j != i and ids[j] not in relates[i]:
                    relates[i].append(ids[j])
        if rng.chance(0.07 if statuses[i] != "accepted" else 0.02):
            j = rng.between(lo, hi)
            if j != i:
                conflicts[i].append(ids[j])
    return ids, statuses, superseded_by, supersedes, relates, conflicts


def generate_corpus(size, seed=DEFAULT_SEED):
    """Return [(relative_path, bytes)] for a corpus of `size` records; pure and deterministic."""
    rng = Rng(seed * 1000003 + size)
    ids, statuses, superseded_by, supersedes, relates, conflicts = _plan(size, rng)
    start = datetime.date(2018, 1, 8).toordinal()
    span = datetime.date(2025, 12, 1).toordinal() - start
    files = []
    for i in range(size):
        status = statuses[i]
        title = _title(rng)
        day = start + (i * span) // max(1, size) + rng.below(10)
        date = datetime.date.fromordinal(day)
        lines = ["---\n", "id: %s\n" % _q(ids[i])]
        lines.append("title: %s\n" % (_q(title) if rng.chance(0.5) else title))
        lines.append("status: %s\n" % (_q(status) if rng.chance(0.7) else status))
        lines.append("date: %s\n" % date.isoformat())
        if rng.chance(0.3):
            lines.append("created: %s\n" % datetime.date.fromordinal(day - rng.between(0, 45)).isoformat())
        deciders = []
        if status == "accepted" or rng.chance(0.5):
            deciders = rng.distinct(PEOPLE, rng.between(1, 3))
            lines.append(_yaml_list(rng, "deciders", deciders))
        if rng.chance(0.2):
            lines.append(_yaml_list(rng, "consulted", rng.distinct(PEOPLE, rng.between(1, 2))))
        if rng.chance(0.1):
            lines.append(_yaml_list(rng, "informed", rng.distinct(PEOPLE, rng.between(1, 2))))
        ntags = 0 if rng.chance(0.05) else rng.between(1, 4)
        if ntags:
            lines.append(_yaml_list(rng, "tags", rng.distinct(TAGS, ntags)))
        if rng.chance(0.6):
            lines.append("scope: %s\n" % _q(rng.weighted((("component", 6), ("domain", 3), ("org", 1)))))
        if rng.chance(0.25):
            lines.append("domain: %s\n" % _q(rng.pick(SERVICES)))
        if rng.chance(0.3):
            lines.append("blastRadius: %s\n" % _q(rng.pick(("component", "team", "cross-team", "org"))))
        reversibility = None
        if rng.chance(0.4):
            reversibility = rng.pick(("two-way-door", "one-way-door", "unknown"))
            lines.append("reversibility: %s\n" % _q(reversibility))
        if superseded_by[i] is not None:
            lines.append("supersededBy: %s\n" % _q(ids[superseded_by[i]]))
        if supersedes[i]:
            lines.append(_yaml_list(rng, "supersedes", supersedes[i]))
        if relates[i]:
            lines.append(_yaml_list(rng, "relatesTo", relates[i]))
        if conflicts[i]:
            lines.append(_yaml_list(rng, "conflictsWith", conflicts[i]))
        if rng.chance(0.35):
            review_day = datetime.date.fromordinal(day + rng.between(180, 900))
            lines.append("reviewBy: %s\n" % review_day.isoformat())
        if rng.chance(0.15):
            lines.append("schemaVersion: \"0.1.0\"\n")
        affects = _affects(rng)
        lines.append("affects:\n")
        for m in affects:
            lines.append("  - type: %s\n" % (_q("path") if rng.chance(0.6) else "path"))
            lines.append("    pattern: %s\n" % _q(m["pattern"]))
            if m.get("negate"):
                lines.append("    negate: true\n")
        if rng.chance(0.2):
            tier = rng.pick(("async", "arb") if reversibility == "one-way-door" else ("auto", "async", "arb"))
            lines.append("review:\n  tier: %s\n" % _q(tier))
            if tier != "auto":
                lines.append("  quorum: %d\n" % rng.between(1, 3))
                lines.append(_yaml_list(rng, "approvals", rng.distinct(PEOPLE, rng.between(1, 2)), "  "))
            if status in ("accepted", "rejected", "superseded", "deprecated"):
                lines.append("  decidedAt: %s\n" % _q("%sT%02d:%02d:00Z" % (date.isoformat(), rng.between(8, 18), rng.between(0, 59))))
        if rng.chance(0.12):
            authored = rng.pick(("agent", "agent-drafted"))
            lines.append("provenance:\n  authoredBy: %s\n" % _q(authored))
            lines.append("  ratifiedBy: %s\n" % _q(rng.pick(PEOPLE[:12])))
            lines.append("  agent:\n    name: %s\n    harness: %s\n" % (_q(rng.pick(AGENT_NAMES)), _q(rng.pick(HARNESSES))))
        if rng.chance(0.2):
            kind = rng.pick(("issue", "pr", "rfc", "incident", "doc"))
            num = rng.between(100, 9999)
            lines.append("externalRefs:\n  - type: %s\n    url: %s\n    label: %s\n" % (
                _q(kind), _q("https://tracker.example.com/ENG-%d" % num), _q("ENG-%d" % num)))
        if rng.chance(0.05):
            lines.append(_yaml_list(rng, "complianceControls", rng.distinct(("SOC2-CC6.1", "SOC2-CC7.2", "ISO27001-A.12", "GDPR-32"), rng.between(1, 2))))
        lines.append("---\n")
        text = "".join(lines) + _body(rng, title, affects)
        files.append(("docs/adr/%s-%s.md" % (ids[i], _slug(title)), text.encode("utf-8")))
    return files


def corpus_digest(files):
    h = hashlib.sha256()
    for path, data in files:
        h.update(path.encode("utf-8") + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()


def _corpus_info(files, size, seed):
    statuses = {}
    sample_id = None
    mid = size // 2
    best = None
    for idx, (path, data) in enumerate(files):
        head = data[: data.find(b"\n---\n")].decode("utf-8")
        status = None
        for line in head.split("\n"):
            if line.startswith("status:"):
                status = line.split(":", 1)[1].strip().strip('"')
        statuses[status] = statuses.get(status, 0) + 1
        if status == "accepted" and (best is None or abs(idx - mid) < best):
            best = abs(idx - mid)
            sample_id = os.path.basename(path).split("-", 1)[0]
    return {
        "generator_version": GENERATOR_VERSION,
        "size": size,
        "seed": seed,
        "files": len(files),
        "bytes": sum(len(d) for _, d in files),
        "digest": corpus_digest(files),
        "sample_id": sample_id,
        "status_counts": dict(sorted((k or "?", v) for k, v in statuses.items())),
    }


def write_corpus(root, files):
    os.makedirs(os.path.join(root, ".git"), exist_ok=True)
    os.makedirs(os.path.join(root, ADR_DIR), exist_ok=True)
    for rel, data in files:
        with open(os.path.join(root, rel), "wb") as f:
            f.write(data)


def ensure_corpus(size, seed, cache_dir):
    """Return (root, info, reused). Generates into cache_dir/<key> unless already there."""
    key = "g%d-n%d-s%d" % (GENERATOR_VERSION, size, seed)
    root = os.path.join(cache_dir, key)
    marker = os.path.join(root, CORPUS_MARKER)
    try:
        with open(marker, "r", encoding="utf-8") as f:
            info = json.load(f)
        if info.get("size") == size and info.get("seed") == seed and info.get("generator_version") == GENERATOR_VERSION:
            return root, info, True
    except (OSError, ValueError):
        pass
    os.makedirs(cache_dir, exist_ok=True)
    t0 = time.perf_counter()
    files = generate_corpus(size, seed)
    info = _corpus_info(files, size, seed)
    info["generated_in_s"] = round(time.perf_counter() - t0, 3)
    tmp = tempfile.mkdtemp(prefix=key + ".tmp-", dir=cache_dir)
    try:
        write_corpus(tmp, files)
        with open(os.path.join(tmp, CORPUS_MARKER), "w", encoding="utf-8") as f:
            json.dump(info, f, indent=1)
        if os.path.isdir(root):
            shutil.rmtree(root, ignore_errors=True)
        try:
            os.rename(tmp, root)
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)
            if not os.path.exists(marker):
                raise
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return root, info, False


# ---------------------------------------------------------------------------------------------
# The floors: listing + reading + SHA-256 of every file, and listing + stat of every file
# ---------------------------------------------------------------------------------------------


def _walk_floor(adr_dir, visit):
    """(CPU seconds, files) to list `adr_dir` and call `visit` on the path of every .md file."""
    t0 = time.process_time()
    n = 0
    with os.scandir(adr_dir) as it:
        names = sorted(e.name for e in it)
    for name in names:
        if name.endswith(".md"):
            visit(os.path.join(adr_dir, name))
            n += 1
    return time.process_time() - t0, n


def _read_and_hash(path):
    with open(path, "rb") as f:
        hashlib.sha256(f.read()).hexdigest()


def floor_once(adr_dir):
    """The read floor: listing + reading + SHA-256 of every file."""
    return _walk_floor(adr_dir, _read_and_hash)


def stat_floor_once(adr_dir):
    """The stat floor: listing + one stat (symlinks not followed) per file."""
    return _walk_floor(adr_dir, lambda path: os.stat(path, follow_symlinks=False))


# ---------------------------------------------------------------------------------------------
# /proc readings (Linux); everything returns None elsewhere
# ---------------------------------------------------------------------------------------------

try:
    CLK_TCK = os.sysconf("SC_CLK_TCK")
except (AttributeError, ValueError, OSError):
    CLK_TCK = 100
HAVE_PROC = os.path.isdir("/proc/self") and os.path.exists("/proc/self/stat")


def _read(path):
    with open(path, "rb") as f:
        return f.read().decode("ascii", "replace")


def _stat_fields(pid):
    s = _read("/proc/%d/stat" % pid)
    return s[s.rfind(")") + 2:].split()


def tree_pids(root_pid):
    """The server's process and its descendants: it runs in its own session (sid == root pid)."""
    pids = [root_pid]
    try:
        entries = os.listdir("/proc")
    except OSError:
        return pids
    for e in entries:
        if not e.isdigit() or int(e) == root_pid:
            continue
        try:
            f = _stat_fields(int(e))
        except (OSError, IndexError):
            continue
        if len(f) > 3 and f[3] == str(root_pid):
            pids.append(int(e))
    return pids


class CpuSnap(object):
    __slots__ = ("ticks", "sched_ns", "tids")

    def __init__(self, ticks, sched_ns, tids):
        self.ticks = ticks
        self.sched_ns = sched_ns
        self.tids = tids


def cpu_snapshot(root_pid):
    """Process-tree CPU: utime+stime+cutime+cstime in ticks (includes exited threads and reaped
    children) and the per-thread schedstat runtime in ns (exact, live threads only)."""
    if not HAVE_PROC:
        return None
    ticks = 0
    sched = 0
    tids = []
    seen = False
    for pid in tree_pids(root_pid):
        try:
            f = _stat_fields(pid)
            ticks += int(f[11]) + int(f[12]) + int(f[13]) + int(f[14])
            seen = True
        except (OSError, IndexError, ValueError):
            continue
        try:
            for tid in os.listdir("/proc/%d/task" % pid):
                try:
                    sched += int(_read("/proc/%d/task/%s/schedstat" % (pid, tid)).split()[0])
                    tids.append((pid, tid))
                except (OSError, IndexError, ValueError):
                    pass
        except OSError:
            pass
    if not seen:
        return None
    return CpuSnap(ticks, sched, frozenset(tids))


def cpu_delta_s(a, b):
    """CPU seconds between two snapshots: schedstat (ns) when every thread alive at `a` is still
    alive at `b` and it agrees with the tick counters; the tick counters (10 ms grain) otherwise."""
    if a is None or b is None:
        return None
    ticks_s = (b.ticks - a.ticks) / float(CLK_TCK)
    sched_s = (b.sched_ns - a.sched_ns) / 1e9
    if b.sched_ns > 0 and a.tids <= b.tids and abs(ticks_s - sched_s) <= 2.5 / CLK_TCK:
        return max(sched_s, 0.0)
    return max(ticks_s, 0.0)


def cpu_total_s(snap):
    if snap is None:
        return None
    if snap.sched_ns > 0:
        # Threads that already exited are only in the tick counters.
        return max(snap.sched_ns / 1e9, snap.ticks / float(CLK_TCK))
    return snap.ticks / float(CLK_TCK)


def peak_rss_mib(root_pid):
    if not HAVE_PROC:
        return None
    total = 0
    found = False
    for pid in tree_pids(root_pid):
        try:
            for line in _read("/proc/%d/status" % pid).split("\n"):
                if line.startswith("VmHWM:"):
                    total += int(line.split()[1])
                    found = True
        except (OSError, ValueError, IndexError):
            pass
    return total / 1024.0 if found else None


# ---------------------------------------------------------------------------------------------
# A server process driven over stdio
# ---------------------------------------------------------------------------------------------


class ServerFailed(Exception):
    pass


class Server(object):
    def __init__(self, argv, env, timeout, label):
        self.argv = argv
        self.env = env
        self.timeout = timeout
        self.label = label
        self.proc = None
        self.cond = threading.Condition()
        self.responses = {}
        self.eof = False
        self.bad_lines = 0
        self.stray = 0
        self.t_spawn = None
        self.stderr_file = None
        self.reader = None
        self.next_id = 0

    def start(self):
        self.stderr_file = tempfile.TemporaryFile()
        self.t_spawn = time.perf_counter()
        try:
            self.proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr_file,
                env=self.env, bufsize=-1, start_new_session=True, close_fds=True)
        except OSError as e:
            raise ServerFailed("cannot start %r: %s" % (self.argv[0], e))
        self.reader = threading.Thread(target=self._read_loop, name="reader-%s" % self.label)
        self.reader.daemon = True
        self.reader.start()

    def _read_loop(self):
        out = self.proc.stdout
        try:
            while True:
                line = out.readline()
                if not line:
                    break
                t = time.perf_counter()
                if not line.strip():
                    continue
                try:
                    msg = json.loads(line)
                except ValueError:
                    with self.cond:
                        self.bad_lines += 1
                    continue
                if isinstance(msg, dict) and "id" in msg and ("result" in msg or "error" in msg):
                    with self.cond:
                        self.responses[_key(msg["id"])] = (t, msg)
                        self.cond.notify_all()
                else:
                    with self.cond:
                        self.stray += 1
        except (OSError, ValueError):
            pass
        finally:
            with self.cond:
                self.eof = True
                self.cond.notify_all()

    def stderr_tail(self, n=600):
        try:
            self.stderr_file.seek(0)
            data = self.stderr_file.read()
            return data[-n:].decode("utf-8", "replace").strip()
        except (OSError, ValueError, AttributeError):
            return ""

    def new_id(self):
        self.next_id += 1
        return self.next_id

    def write(self, messages):
        data = b"".join(json.dumps(m, separators=(",", ":")).encode("utf-8") + b"\n" for m in messages)
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError) as e:
            raise ServerFailed("server closed its stdin (%s); exit status %r; stderr: %s" % (
                e.__class__.__name__, self.proc.poll(), self.stderr_tail()))

    def wait_for(self, ids, idle_timeout=None):
        """Wait for the responses to `ids`; the timeout counts from the last answer received."""
        idle_timeout = self.timeout if idle_timeout is None else idle_timeout
        want = [_key(i) for i in ids]
        got = {}
        deadline = time.monotonic() + idle_timeout
        with self.cond:
            while True:
                progressed = False
                for k in want:
                    if k not in got and k in self.responses:
                        got[k] = self.responses.pop(k)
                        progressed = True
                if len(got) == len(want):
                    return [got[k] for k in want]
                if progressed:
                    deadline = time.monotonic() + idle_timeout
                if self.eof:
                    break
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise ServerFailed("no answer within %.0f s (%d of %d answered)" % (
                        idle_timeout, len(got), len(want)))
                self.cond.wait(min(remaining, 1.0))
        try:
            status = self.proc.wait(1.0)
        except subprocess.TimeoutExpired:
            status = None
        raise ServerFailed("server closed stdout after %d of %d answers; exit status %r; stderr: %s" % (
            len(got), len(want), status, self.stderr_tail()))

    def request(self, method, params):
        rid = self.new_id()
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        t0 = time.perf_counter()
        self.write([msg])
        (t1, resp), = self.wait_for([rid])
        return t1 - t0, resp

    def close(self, grace=5.0):
        """Close stdin (the MCP shutdown signal), then SIGTERM, then SIGKILL the process group.
        Returns (exit status, seconds from stdin EOF to exit) -- the exit time is None if it had to be
        signalled."""
        if self.proc is None:
            return None, None
        exit_s = None
        t0 = time.perf_counter()
        try:
            try:
                self.proc.stdin.close()
            except (OSError, ValueError):
                pass
            try:
                self.proc.wait(grace)
                exit_s = time.perf_counter() - t0
            except subprocess.TimeoutExpired:
                self._signal(signal.SIGTERM)
                try:
                    self.proc.wait(grace)
                except subprocess.TimeoutExpired:
                    self._signal(signal.SIGKILL)
                    self.proc.wait(grace)
        finally:
            self._signal(signal.SIGKILL, group_only=True)
            if self.reader is not None:
                self.reader.join(2.0)
            for f in (self.proc.stdout, self.stderr_file):
                try:
                    f.close()
                except (OSError, ValueError, AttributeError):
                    pass
        return self.proc.returncode, exit_s

    def _signal(self, sig, group_only=False):
        # The server runs in its own session, so its pgid is its pid: this reaches wrapper
        # children (npx, bun) too, and nothing outside the server's group.
        try:
            os.killpg(self.proc.pid, sig)
        except (OSError, AttributeError):
            if not group_only:
                try:
                    self.proc.send_signal(sig)
                except OSError:
                    pass


def _key(rid):
    return json.dumps(rid)


# ---------------------------------------------------------------------------------------------
# One run: spawn, first answer, first call, warm calls per tool, pipelined calls, shutdown
# ---------------------------------------------------------------------------------------------


def tool_arguments(corpus_info):
    return {
        "search_decisions": {"query": "cache"},
        "get_decision": {"ref": corpus_info["sample_id"] or "0001"},
        "get_decision_context": {"files": ["src/db/pool.ts", "services/billing/api/x.ts"]},
        "list_superseded": {},
    }


def call_params(era, tool, args):
    p = {"name": tool, "arguments": args}
    if era == "modern":
        p["_meta"] = dict(MODERN_META)
    return p


def first_request(era, rid):
    if era == "legacy":
        return {"jsonrpc": "2.0", "id": rid, "method": "initialize", "params": {
            "protocolVersion": LEGACY_VERSION, "capabilities": {},
            "clientInfo": {"name": "adrkit-bench", "version": "1"}}}
    return {"jsonrpc": "2.0", "id": rid, "method": "server/discover", "params": {"_meta": dict(MODERN_META)}}


def classify(resp):
    """'ok', 'tool-error' (isError result) or 'rpc-error'; plus the result outcome if any."""
    if "error" in resp:
        return "rpc-error", None
    result = resp.get("result") or {}
    sc = result.get("structuredContent") if isinstance(result, dict) else None
    outcome = None
    if isinstance(sc, dict) and isinstance(sc.get("result"), dict):
        outcome = sc["result"].get("outcome")
    if isinstance(result, dict) and result.get("isError"):
        return "tool-error", outcome
    return "ok", outcome


def run_once(argv, env, corpus_info, cfg, label):
    r = {"ok": False, "error": None}
    srv = Server(argv, env, cfg.timeout, label)
    args_by_tool = tool_arguments(corpus_info)
    try:
        srv.start()
        pid = srv.proc.pid
        # 1. spawn to first answer
        rid = srv.new_id()
        srv.write([first_request(cfg.era, rid)])
        (t_first, resp), = srv.wait_for([rid])
        r["spawn_to_first_answer_ms"] = (t_first - srv.t_spawn) * 1000
        r["first_answer_kind"] = classify(resp)[0]
        snap = cpu_snapshot(pid)
        cpu = cpu_total_s(snap)
        r["startup_cpu_ms"] = None if cpu is None else cpu * 1000
        if cfg.era == "legacy":
            srv.write([{"jsonrpc": "2.0", "method": "notifications/initialized"}])

        # 2. first call right after start-up
        a = cpu_snapshot(pid)
        lat, resp = srv.request("tools/call", call_params(cfg.era, "search_decisions", args_by_tool["search_decisions"]))
        b = cpu_snapshot(pid)
        r["first_call_ms"] = lat * 1000
        d = cpu_delta_s(a, b)
        r["first_call_cpu_ms"] = None if d is None else d * 1000
        r["first_call_kind"] = classify(resp)[0]
        sc = (resp.get("result") or {}).get("structuredContent") if isinstance(resp.get("result"), dict) else None
        r["corpus_health"] = sc.get("corpusHealth") if isinstance(sc, dict) else None

        # 3. one unmeasured warm-up call per tool, then warm calls
        for tool in TOOLS:
            srv.request("tools/call", call_params(cfg.era, tool, args_by_tool[tool]))
        tools = {}
        for tool in TOOLS:
            params = call_params(cfg.era, tool, args_by_tool[tool])
            lats = []
            kinds = {}
            outcomes = {}
            a = cpu_snapshot(pid)
            t_start = time.perf_counter()
            while len(lats) < cfg.calls:
                lat, resp = srv.request("tools/call", params)
                lats.append(lat * 1000)
                kind, outcome = classify(resp)
                kinds[kind] = kinds.get(kind, 0) + 1
                outcomes[str(outcome)] = outcomes.get(str(outcome), 0) + 1
                if len(lats) >= cfg.min_calls and time.perf_counter() - t_start >= cfg.budget:
                    break
            b = cpu_snapshot(pid)
            d = cpu_delta_s(a, b)
            tools[tool] = {
                "calls": len(lats),
                "p50_ms": percentile(lats, 50),
                "p95_ms": percentile(lats, 95),
                "mean_ms": sum(lats) / len(lats),
                "cpu_per_call_ms": None if d is None else d * 1000 / len(lats),
                "answers": kinds,
                "outcomes": outcomes,
            }
        r["tools"] = tools
        r["peak_rss_before_pipeline_mib"] = peak_rss_mib(pid)

        # 4. pipelined: write every request, then read every answer
        msgs = []
        ids = []
        for i in range(cfg.pipeline):
            tool = TOOLS[i % len(TOOLS)]
            rid = srv.new_id()
            ids.append(rid)
            msgs.append({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                         "params": call_params(cfg.era, tool, args_by_tool[tool])})
        a = cpu_snapshot(pid)
        t0 = time.perf_counter()
        writer_error = []

        def _write_all():
            try:
                srv.write(msgs)
            except ServerFailed as e:
                writer_error.append(e)

        # Write from a thread: a server that answers while we are still writing must not
        # deadlock against a full pipe (the reader thread drains stdout meanwhile).
        w = threading.Thread(target=_write_all, name="writer-%s" % label)
        w.daemon = True
        w.start()
        answers = srv.wait_for(ids)
        w.join(cfg.timeout)
        if writer_error:
            raise writer_error[0]
        t_last = max([t for t, _ in answers] or [t0])
        b = cpu_snapshot(pid)
        d = cpu_delta_s(a, b)
        kinds = {}
        for _, resp in answers:
            k = classify(resp)[0]
            kinds[k] = kinds.get(k, 0) + 1
        r["pipelined_calls"] = cfg.pipeline
        r["pipelined_answered"] = len(answers)
        r["pipelined_ms"] = (t_last - t0) * 1000 if answers else None
        r["pipelined_cpu_per_call_ms"] = None if (d is None or not answers) else d * 1000 / cfg.pipeline
        r["pipelined_answers"] = kinds
        r["peak_rss_mib"] = peak_rss_mib(pid)
        r["protocol_noise"] = {"unparseable_lines": srv.bad_lines, "non_response_lines": srv.stray}
        r["ok"] = True
    except ServerFailed as e:
        r["error"] = str(e)
    finally:
        code, exit_s = srv.close(grace=5.0 if r["ok"] else 1.0)
        r["exit_status"] = code
        r["exit_after_eof_ms"] = None if exit_s is None else exit_s * 1000
    return r


def percentile(values, pct):
    """Nearest-rank percentile."""
    if not values:
        return None
    s = sorted(values)
    k = max(0, min(len(s) - 1, int(math.ceil(pct / 100.0 * len(s))) - 1))
    return s[k]


def spread(values):
    vals = [v for v in values if v is not None]
    if not vals:
        return None
    return {"median": statistics.median(vals), "min": min(vals), "max": max(vals), "values": vals}


# Summary metric names, in table order. Tool metrics are "<tool>.<field>".
RUN_METRICS = (
    ("spawn_to_first_answer_ms", "spawn → first answer ms"),
    ("startup_cpu_ms", "CPU to first answer ms"),
    ("first_call_ms", "first call ms"),
    ("first_call_cpu_ms", "first call CPU ms"),
)
TOOL_FIELDS = (("p50_ms", "p50 ms"), ("p95_ms", "p95 ms"), ("cpu_per_call_ms", "CPU/call ms"))
TAIL_METRICS = (
    ("cpu_per_call_ms", "CPU/call ms, mean of tools"),
    ("cpu_to_floor_worst", "CPU/call ÷ read floor, worst tool"),
    ("cpu_to_stat_floor_worst", "CPU/call ÷ stat floor, worst tool"),
    ("peak_rss_before_pipeline_mib", "peak RSS before pipeline MiB"),
    ("peak_rss_mib", "peak RSS MiB"),
    ("pipelined_ms", "pipelined calls ms"),
    ("pipelined_cpu_per_call_ms", "pipelined CPU/call ms"),
)


def summarize(runs, floor_cpu_ms, stat_floor_cpu_ms=None):
    good = [r for r in runs if r.get("ok")]
    s = {}
    for key, _ in RUN_METRICS:
        s[key] = spread([r.get(key) for r in good])
    for tool in TOOLS:
        for f, _ in TOOL_FIELDS:
            s["%s.%s" % (tool, f)] = spread([r["tools"][tool][f] for r in good])
    per_run_mean = []
    for r in good:
        vals = [r["tools"][t]["cpu_per_call_ms"] for t in TOOLS]
        per_run_mean.append(None if any(v is None for v in vals) else sum(vals) / len(vals))
    s["cpu_per_call_ms"] = spread(per_run_mean)
    ratios = {}
    for tool in TOOLS:
        m = s["%s.cpu_per_call_ms" % tool]
        ratios[tool] = (m["median"] / floor_cpu_ms) if (m and floor_cpu_ms) else None
        s["%s.cpu_to_floor" % tool] = ratios[tool]
    worst = [v for v in ratios.values() if v is not None]
    s["cpu_to_floor_worst"] = max(worst) if worst else None
    worst_ms = max((s["%s.cpu_per_call_ms" % t]["median"] for t in TOOLS if s["%s.cpu_per_call_ms" % t]),
                   default=None)
    s["cpu_to_stat_floor_worst"] = (worst_ms / stat_floor_cpu_ms) if (worst_ms and stat_floor_cpu_ms) else None
    for key in ("peak_rss_before_pipeline_mib", "peak_rss_mib", "pipelined_ms", "pipelined_cpu_per_call_ms"):
        s[key] = spread([r.get(key) for r in good])
    s["pipelined_answered"] = spread([r.get("pipelined_answered") for r in good])
    s["runs_ok"] = len(good)
    s["runs_failed"] = len(runs) - len(good)
    return s


# ---------------------------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------------------------


def fmt_num(v):
    if v is None:
        return "-"
    a = abs(v)
    if a >= 1000:
        return "%.0f" % v
    if a >= 100:
        return "%.0f" % v
    if a >= 10:
        return "%.1f" % v
    if a >= 1:
        return "%.2f" % v
    return "%.3f" % v


def fmt_cell(sp):
    if sp is None:
        return "-"
    if isinstance(sp, (int, float)):
        return fmt_num(sp)
    if len(sp["values"]) > 1 and sp["min"] != sp["max"]:
        return "%s (%s–%s)" % (fmt_num(sp["median"]), fmt_num(sp["min"]), fmt_num(sp["max"]))
    return fmt_num(sp["median"])


def metric_rows(pipeline):
    rows = list(RUN_METRICS)
    for tool in TOOLS:
        for f, name in TOOL_FIELDS:
            rows.append(("%s.%s" % (tool, f), "%s %s" % (tool, name)))
    for key, name in TAIL_METRICS:
        if key == "pipelined_ms":
            name = "%d pipelined calls ms" % pipeline
        rows.append((key, name))
    return rows


def print_table(title, header, rows, out):
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    out.write("\n" + title + "\n")
    line = "  ".join(h.ljust(widths[i]) if i == 0 else h.rjust(widths[i]) for i, h in enumerate(header))
    out.write(line + "\n" + "-" * len(line) + "\n")
    for r in rows:
        out.write("  ".join(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(r)) + "\n")


def report(results, out):
    sizes = [str(s) for s in results["config"]["sizes"]]
    floors = results["floor"]
    rows = [
        ["files"] + [str(results["corpora"][s]["files"]) for s in sizes],
        ["MiB on disk"] + ["%.1f" % (results["corpora"][s]["bytes"] / 1048576.0) for s in sizes],
        ["read floor CPU ms (list+read+sha256)"] + [fmt_cell(floors[s]["cpu_ms"]) for s in sizes],
        ["read floor µs per record"] + [fmt_num(floors[s]["per_record_us"]) for s in sizes],
        ["stat floor CPU ms (list+stat)"] + [fmt_cell(floors[s].get("stat_cpu_ms")) for s in sizes],
        ["stat floor µs per record"] + [fmt_num(floors[s].get("stat_per_record_us")) for s in sizes],
    ]
    print_table("Floors, measured in this run (in-process, %s)" % results["meta"]["python"],
                ["records"] + sizes, rows, out)
    mrows = metric_rows(results["config"]["pipeline"])
    for srv in results["servers"]:
        rows = []
        for key, name in mrows:
            rows.append([name] + [fmt_cell(srv["sizes"][s]["summary"].get(key)) if srv["sizes"].get(s) else "-" for s in sizes])
        rows.append(["runs ok / failed"] + [
            "%d/%d" % (srv["sizes"][s]["summary"]["runs_ok"], srv["sizes"][s]["summary"]["runs_failed"])
            if srv["sizes"].get(s) else "-" for s in sizes])
        print_table("[%s] %s   (median (min–max) of runs)" % (srv["label"], srv["command"]),
                    ["records"] + sizes, rows, out)
        for s in sizes:
            for w in (srv["sizes"].get(s) or {}).get("warnings", []):
                out.write("  ! %s records: %s\n" % (s, w))
    for ratio in results["ratios"]:
        rows = []
        for key, name in mrows:
            if key in ("cpu_to_floor_worst", "cpu_to_stat_floor_worst"):
                continue
            rows.append([name] + [fmt_ratio(ratio["sizes"].get(s, {}).get(key)) for s in sizes])
        print_table("Ratios %s / %s (medians; >1 means %s is slower or bigger)" % (
            ratio["other"], ratio["ours"], ratio["other"]), ["records"] + sizes, rows, out)


def fmt_ratio(v):
    if v is None:
        return "-"
    return ("%.1f×" if v >= 10 else "%.2f×") % v


def ratio_table(ours, other, sizes, pipeline):
    res = {"ours": ours["label"], "other": other["label"], "sizes": {}}
    for s in sizes:
        a = (ours["sizes"].get(s) or {}).get("summary") or {}
        b = (other["sizes"].get(s) or {}).get("summary") or {}
        row = {}
        for key, _ in metric_rows(pipeline):
            va, vb = a.get(key), b.get(key)
            va = va["median"] if isinstance(va, dict) else va
            vb = vb["median"] if isinstance(vb, dict) else vb
            row[key] = (vb / va) if (va and vb is not None) else None
        res["sizes"][s] = row
    return res


# ---------------------------------------------------------------------------------------------
# --from madr: MADR and Nygard corpora, the read-through against the migrated copy, and migrate
# ---------------------------------------------------------------------------------------------
#
# The MADR corpus holds the same plan of statuses, relations, titles, affects and bodies as the
# adrkit corpus, written in three dialects: MADR 2 (header bullets), MADR 3/4 (YAML frontmatter,
# with adrkit `affects` globs so that get_decision_context has something to match) and Nygard
# (`## Status` sections). Every file is named <id>-<slug>.md, so a migration keeps every id and
# the server sees all of them. The migrated copy is what our `migrate --from madr` leaves.

MADR_GENERATOR_VERSION = 1
MADR_DEFAULT_SIZES = (1000,)


def _madr_status_text(rng, status, target):
    if status == "superseded" and target is not None:
        return rng.pick(("superseded by [ADR-%s](%s-record.md)" % (target, target), "Superseded by ADR-%s" % target,
                         "superseded by %s" % target))
    return rng.pick((status, status.capitalize(), status.capitalize()))


def _madr_deciders(rng, status):
    if status != "accepted" and rng.chance(0.5):
        return []
    return rng.distinct(PEOPLE, rng.between(1, 3))


def generate_madr_corpus(size, seed=DEFAULT_SEED):
    """[(relative_path, bytes)] of a MADR/Nygard corpus of `size` files; pure and deterministic."""
    rng = Rng(seed * 1000003 + size + 17)
    ids, statuses, superseded_by, _, _, _ = _plan(size, rng)
    start = datetime.date(2018, 1, 8).toordinal()
    span = datetime.date(2025, 12, 1).toordinal() - start
    files = []
    for i in range(size):
        title = _title(rng)
        date = datetime.date.fromordinal(start + (i * span) // max(1, size) + rng.below(10)).isoformat()
        target = ids[superseded_by[i]] if superseded_by[i] is not None else None
        status = _madr_status_text(rng, statuses[i], target)
        deciders = _madr_deciders(rng, statuses[i])
        affects = _affects(rng)
        dialect = rng.weighted((("madr2", 4), ("madr3", 4), ("nygard", 2)))
        if dialect == "madr2":
            head = "# %s\n\n* Status: %s\n" % (title, status)
            if deciders:
                head += "* Deciders: %s\n" % ", ".join(deciders)
            head += "* Date: %s\n" % date
        elif dialect == "madr3":
            head = "---\nstatus: %s\ndate: %s\n" % (_q(status), date)
            if deciders:
                head += _yaml_list(rng, "deciders", deciders)
            if rng.chance(0.5):
                head += _yaml_list(rng, "tags", rng.distinct(TAGS, rng.between(1, 3)))
            head += "affects:\n" + "".join("  - type: path\n    pattern: %s\n" % _q(m["pattern"]) for m in affects)
            head += "---\n# %s\n" % title
        else:
            head = "# %d. %s\n\nDate: %s\n\n## Status\n\n%s\n" % (i + 1, title, date, status.capitalize())
            if deciders:
                head += "\n## Deciders\n\n%s\n" % ", ".join(deciders)
        text = head + _body(rng, title, affects)
        files.append(("docs/adr/%s-%s.md" % (ids[i], _slug(title)), text.encode("utf-8")))
    return files


def _madr_info(files, size, seed):
    return {"generator_version": MADR_GENERATOR_VERSION, "size": size, "seed": seed, "files": len(files),
            "bytes": sum(len(d) for _, d in files), "digest": corpus_digest(files),
            "sample_id": os.path.basename(files[len(files) // 2][0]).split("-", 1)[0] if files else None}


def ensure_madr_corpus(size, seed, cache_dir):
    """(root, info, reused) of the MADR corpus, generated into cache_dir unless already there."""
    key = "madr-g%d-n%d-s%d" % (MADR_GENERATOR_VERSION, size, seed)
    root = os.path.join(cache_dir, key)
    try:
        with open(os.path.join(root, CORPUS_MARKER), "r", encoding="utf-8") as f:
            info = json.load(f)
        if info.get("size") == size and info.get("seed") == seed and \
                info.get("generator_version") == MADR_GENERATOR_VERSION:
            return root, info, True
    except (OSError, ValueError):
        pass
    files = generate_madr_corpus(size, seed)
    info = _madr_info(files, size, seed)
    os.makedirs(cache_dir, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=key + ".tmp-", dir=cache_dir)
    try:
        write_corpus(tmp, files)
        with open(os.path.join(tmp, CORPUS_MARKER), "w", encoding="utf-8") as f:
            json.dump(info, f, indent=1)
        shutil.rmtree(root, ignore_errors=True)
        os.rename(tmp, root)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return root, info, False


def fresh_copy(root, parent):
    """A copy of the corpus at root (its .git marker and docs/adr) in a new folder under parent."""
    copy = tempfile.mkdtemp(prefix="copy-", dir=parent)
    os.makedirs(os.path.join(copy, ".git"))
    shutil.copytree(os.path.join(root, ADR_DIR), os.path.join(copy, ADR_DIR))
    return copy


def program_env():
    """The environment of our programs: as installed, a module's bytecode is cached (pip compiles
    it; the .pyz compiles it when it unpacks), so PYTHONDONTWRITEBYTECODE is dropped and the first,
    unmeasured run of each program writes it; ADRKIT_MCP_FROM is never inherited."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("ADRKIT_MCP_FROM", None)
    return env


def timed_run(argv, cwd, timeout):
    """(exit status, wall seconds, CPU seconds or None, stdout, stderr) of one command."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=program_env())
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    try:
        out, err = [], []
        readers = [threading.Thread(target=lambda s=s, b=b: b.append(s.read())) for s, b in
                   ((proc.stdout, out), (proc.stderr, err))]
        for r in readers:
            r.start()
        cpu = None
        if hasattr(os, "wait4"):
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status >> 8
            cpu = usage.ru_utime + usage.ru_stime
        else:
            proc.wait()
        wall = time.perf_counter() - t0
        for r in readers:
            r.join()
    finally:
        timer.cancel()
    return proc.returncode, wall, cpu, b"".join(out), b"".join(err)


def tree_digest(root):
    h = hashlib.sha256()
    base = os.path.join(root, ADR_DIR)
    for folder, dirs, names in os.walk(base):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                h.update(os.path.relpath(path, base).encode("utf-8") + b"\0" + hashlib.sha256(f.read()).digest())
    return h.hexdigest()


def default_programs():
    out = []
    src = os.path.join(PROJECT, "adrkit_mcp.py")
    pyz = os.path.join(PROJECT, "dist", "adrkit-mcp.pyz")
    if os.path.isfile(src):
        out.append(("source", [sys.executable, src]))
    if os.path.isfile(pyz):
        out.append(("pyz", [sys.executable, pyz]))
    return out


def ensure_migrated(madr_root, program, cfg):
    """The MADR corpus after our `migrate --from madr` (cached beside it; the digest says which)."""
    migrated = madr_root + "-migrated"
    marker = os.path.join(migrated, CORPUS_MARKER)
    if os.path.exists(marker):
        return migrated, True
    shutil.rmtree(migrated, ignore_errors=True)
    tmp = fresh_copy(madr_root, os.path.dirname(madr_root))
    status, _, _, _, err = timed_run(program + ["migrate", "--from", "madr", "--dir", "docs/adr"], tmp, cfg.timeout)
    if status != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise ServerFailed("migrate --from madr exited %s: %s" % (status, err.decode("utf-8", "replace")[-600:]))
    with open(os.path.join(tmp, CORPUS_MARKER), "w", encoding="utf-8") as f:
        json.dump({"migrated_from": madr_root, "digest": tree_digest(tmp)}, f)
    os.rename(tmp, migrated)
    return migrated, False


def madr_read_through(cfg, programs, size, madr_root, migrated_root, info):
    """(i): each program's server with --from madr on the MADR corpus and on the migrated copy,
    runs interleaved; warm CPU per call per tool, and the ratio madr / migrated."""
    out = []
    for label, program in programs:
        sides = {"madr": [], "migrated": []}
        for run in range(cfg.runs):
            for side, argv in (("madr", program + ["--cwd", madr_root, "--from", "madr"]),
                               ("migrated", program + ["--cwd", migrated_root])):
                log("[%s] %s, %d records, run %d/%d" % (label, side, size, run + 1, cfg.runs))
                r = run_once(argv, program_env(), info, cfg, "%s-%s" % (label, side))
                sides[side].append(r)
                if not r["ok"]:
                    raise ServerFailed("[%s] %s: %s" % (label, side, r["error"]))
        entry = {"label": label, "command": " ".join(shlex.quote(x) for x in program), "sizes": {}}
        summaries = {side: summarize(runs, None) for side, runs in sides.items()}
        ratio = {}
        for tool in TOOLS:
            key = "%s.cpu_per_call_ms" % tool
            a, b = summaries["madr"][key], summaries["migrated"][key]
            ratio[tool] = (a["median"] / b["median"]) if (a and b and b["median"]) else None
        entry["summaries"] = summaries
        entry["runs"] = sides
        entry["ratio"] = ratio
        entry["warnings"] = warnings_for(sides["madr"], info, cfg) + warnings_for(sides["migrated"], info, cfg)
        out.append(entry)
    return out


def madr_migrate(cfg, programs, size, madr_root, scratch):
    """(ii): `migrate --from madr` of the MADR corpus, each run on a fresh copy: wall and CPU."""
    commands = [(label, program + ["migrate", "--from", "madr", "--dir", "docs/adr"], "ours")
                for label, program in programs]
    for i, cmd in enumerate(cfg.vs_migrate or []):
        commands.append(("reference" if len(cfg.vs_migrate) == 1 else "reference%d" % (i + 1),
                         shlex.split(cmd) + ["migrate", "--from", "madr", "--dir", "docs/adr"], "vs"))
    rows = {label: {"label": label, "role": role, "command": " ".join(shlex.quote(x) for x in argv),
                    "wall_ms": [], "cpu_ms": [], "digests": set(), "errors": []} for label, argv, role in commands}
    for run in range(cfg.migrate_runs):
        for label, argv, _ in commands:  # interleaved: every command sees the same machine load
            copy = fresh_copy(madr_root, scratch)
            try:
                status, wall, cpu, _, err = timed_run(argv, copy, cfg.timeout)
                row = rows[label]
                if status != 0:
                    row["errors"].append("exit %s: %s" % (status, err.decode("utf-8", "replace")[-300:]))
                    continue
                row["wall_ms"].append(wall * 1000)
                if cpu is not None:
                    row["cpu_ms"].append(cpu * 1000)
                row["digests"].add(tree_digest(copy))
            finally:
                shutil.rmtree(copy, ignore_errors=True)
        log("migrate, %d records, run %d/%d done" % (size, run + 1, cfg.migrate_runs))
    digests = set()
    for row in rows.values():
        digests |= row["digests"]
        row["wall_ms"], row["cpu_ms"] = spread(row["wall_ms"]), spread(row["cpu_ms"])
        row["digests"] = sorted(row["digests"])
    refs = [row for row in rows.values() if row["role"] == "vs" and row["wall_ms"]]
    for row in rows.values():
        if row["role"] == "ours" and refs and row["wall_ms"]:
            ref = refs[0]
            row["wall_ratio"] = row["wall_ms"]["median"] / ref["wall_ms"]["median"]
            row["cpu_ratio"] = (row["cpu_ms"]["median"] / ref["cpu_ms"]["median"]
                                if row["cpu_ms"] and ref["cpu_ms"] else None)
    return {"rows": list(rows.values()), "same_output": len(digests) == 1}


def madr_report(results, out):
    for size, entry in results["sizes"].items():
        rows = []
        for srv in entry["read_through"]:
            for tool in TOOLS:
                key = "%s.cpu_per_call_ms" % tool
                rows.append(["%s %s" % (srv["label"], tool), fmt_cell(srv["summaries"]["madr"][key]),
                             fmt_cell(srv["summaries"]["migrated"][key]), fmt_ratio(srv["ratio"][tool])])
            for key, name in (("first_call_ms", "first call ms"), ("spawn_to_first_answer_ms", "spawn ms")):
                rows.append(["%s %s" % (srv["label"], name), fmt_cell(srv["summaries"]["madr"][key]),
                             fmt_cell(srv["summaries"]["migrated"][key]), "-"])
        print_table("--from madr, %s records: warm CPU per call ms (median (min–max) of %d runs; target ratio <= 1.5×)"
                    % (size, results["config"]["runs"]), ["server / tool", "--from madr", "migrated copy", "ratio"],
                    rows, out)
        rows = []
        for row in entry["migrate"]["rows"]:
            rows.append([row["label"], fmt_cell(row["wall_ms"]), fmt_cell(row["cpu_ms"]),
                         fmt_ratio(row.get("wall_ratio")), fmt_ratio(row.get("cpu_ratio")),
                         "%d" % len(row["errors"])])
        print_table("migrate --from madr, %s records (median (min–max) of %d runs, each on a fresh copy; "
                    "target ratio <= 0.1×)" % (size, results["config"]["migrate_runs"]),
                    ["program", "wall ms", "CPU ms", "wall ÷ reference", "CPU ÷ reference", "failed"], rows, out)
        out.write("  every program left the same files: %s\n" % ("yes" if entry["migrate"]["same_output"] else "NO"))
        for srv in entry["read_through"]:
            for w in srv["warnings"]:
                out.write("  ! [%s] %s records: %s\n" % (srv["label"], size, w))


def madr_main(cfg):
    """The --from madr benchmark: (i) read-through against the migrated copy, (ii) migrate."""
    programs = [("program" if len(cfg.program) == 1 else "program%d" % (i + 1), shlex.split(cmd))
                for i, cmd in enumerate(cfg.program)] if cfg.program else default_programs()
    if not programs:
        sys.stderr.write("bench.py: no program: %s does not exist and no --program was given\n"
                         % os.path.join(PROJECT, "adrkit_mcp.py"))
        return 2
    results = {"meta": {"bench_version": 1, "mode": "from-madr",
                        "started": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
                        "python": "Python %s" % platform.python_version(), "platform": platform.platform(),
                        "cpus": os.cpu_count(), "proc_metrics": HAVE_PROC},
               "config": {"sizes": cfg.sizes, "runs": cfg.runs, "migrate_runs": cfg.migrate_runs,
                          "calls": cfg.calls, "era": cfg.era, "seed": cfg.seed,
                          "generator_version": MADR_GENERATOR_VERSION},
               "sizes": {}}
    failed = False
    scratch = tempfile.mkdtemp(prefix="adrkit-bench-madr-")
    try:
        for size in cfg.sizes:
            root, info, reused = ensure_madr_corpus(size, cfg.seed, cfg.cache_dir)
            log("MADR corpus %d records: %s (%s)" % (size, root, "reused" if reused else "generated"))
            entry = {"corpus": dict(info, root=root)}
            try:
                for _, program in programs:  # unmeasured: bytecode written, caches warm
                    copy = fresh_copy(root, scratch)
                    timed_run(program + ["migrate", "--from", "madr", "--dry-run", "--dir", "docs/adr"], copy,
                              cfg.timeout)
                    shutil.rmtree(copy, ignore_errors=True)
                migrated, _ = ensure_migrated(root, programs[0][1], cfg)
                entry["read_through"] = madr_read_through(cfg, programs, size, root, migrated, info)
                entry["migrate"] = madr_migrate(cfg, programs, size, root, scratch)
                failed = failed or any(row["errors"] for row in entry["migrate"]["rows"])
            except ServerFailed as error:
                log("FAILED: %s" % error)
                entry["error"] = str(error)
                failed = True
            results["sizes"][str(size)] = entry
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    results["meta"]["all_answered"] = not failed
    madr_report({"sizes": {k: v for k, v in results["sizes"].items() if "error" not in v},
                 "config": results["config"]}, sys.stdout)
    if cfg.json:
        os.makedirs(os.path.dirname(os.path.abspath(cfg.json)), exist_ok=True)
        with open(cfg.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1, ensure_ascii=False, default=list)
            f.write("\n")
        log("results written to %s" % cfg.json)
    return 1 if failed else 0


# ---------------------------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------------------------


def default_servers():
    out = []
    src = os.path.join(PROJECT, "adrkit_mcp.py")
    pyz = os.path.join(PROJECT, "dist", "adrkit-mcp.pyz")
    if os.path.isfile(src):
        out.append(("source", [sys.executable, src, "--cwd", "{root}"]))
    if os.path.isfile(pyz):
        out.append(("pyz", [sys.executable, pyz, "--cwd", "{root}"]))
    return out


def expand(argv, root):
    return [a.replace("{root}", root) for a in argv]


def child_env(root):
    env = dict(os.environ)
    env["ADRKIT_MCP_CWD"] = root  # used only if the command has no --cwd
    env.pop("ADRKIT_MCP_DIR", None)
    return env


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Benchmark adrkit-mcp (or any MCP stdio server of the four adrkit tools) on generated corpora.")
    p.add_argument("--server", action="append", default=None, metavar="CMD",
                   help="server command, shell-split, {root} replaced by the corpus root (repeatable); "
                        "default: this project's adrkit_mcp.py and dist/adrkit-mcp.pyz (if built)")
    p.add_argument("--vs", action="append", default=None, metavar="CMD",
                   help="another server command to run in the same session; ratios other/ours are printed")
    p.add_argument("--sizes", default=None, help="comma-separated corpus sizes (default 100,1000,5000,10000)")
    p.add_argument("--runs", type=int, default=None, help="runs per server and size (default 3)")
    p.add_argument("--calls", type=int, default=None, help="max warm calls per tool per run (default 20)")
    p.add_argument("--min-calls", type=int, default=3, help="min warm calls per tool per run (default 3)")
    p.add_argument("--budget", type=float, default=10.0,
                   help="seconds per tool per run after which warm calls stop once --min-calls are done (default 10)")
    p.add_argument("--pipeline", type=int, default=200, help="number of pipelined calls (default 200)")
    p.add_argument("--timeout", type=float, default=120.0,
                   help="seconds to wait for an answer (pipelined: since the previous answer) (default 120)")
    p.add_argument("--era", choices=("legacy", "modern"), default="legacy",
                   help="legacy: initialize + notifications/initialized; modern: 2026-07-28 _meta, server/discover first")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="corpus seed (default %d)" % DEFAULT_SEED)
    p.add_argument("--cache-dir", default=os.path.join(tempfile.gettempdir(), "adrkit-bench-corpora"),
                   help="where generated corpora are kept between runs (default: %(default)s)")
    p.add_argument("--quick", action="store_true", help="smoke check: sizes 100,1000 and 1 run unless given")
    p.add_argument("--json", default=None, metavar="PATH", help="also write the full results as JSON to PATH")
    p.add_argument("--corpus-digest", action="store_true",
                   help="print the SHA-256 digest of each generated corpus (no files written) and exit")
    p.add_argument("--from", dest="source", choices=("madr",), default=None,
                   help="MADR/Nygard corpora: our --from madr read-through against the migrated copy, and "
                        "`migrate --from madr` against --vs-migrate (default sizes 1000; --quick 100)")
    p.add_argument("--program", action="append", default=None, metavar="CMD",
                   help="with --from madr: our program, shell-split, run as `CMD --cwd ROOT [--from madr]` and "
                        "`CMD migrate --from madr` (repeatable); default: adrkit_mcp.py and dist/adrkit-mcp.pyz")
    p.add_argument("--vs-migrate", action="append", default=None, metavar="CMD",
                   help="with --from madr: another CLI run as `CMD migrate --from madr --dir docs/adr` in a fresh "
                        "copy, e.g. \"bun .../packages/cli/src/index.ts\"; ratios ours / it are printed")
    p.add_argument("--migrate-runs", type=int, default=None, help="with --from madr: migrate runs (default 5)")
    a = p.parse_args(argv)
    if a.sizes:
        try:
            a.sizes = [int(x) for x in a.sizes.split(",") if x.strip()]
        except ValueError:
            p.error("--sizes takes comma-separated integers")
        if not a.sizes or any(s < 1 for s in a.sizes):
            p.error("--sizes must be positive")
        a.sizes = sorted(set(a.sizes), key=a.sizes.index)
    elif a.source == "madr":
        a.sizes = [100] if a.quick else list(MADR_DEFAULT_SIZES)
    else:
        a.sizes = list(QUICK_SIZES if a.quick else DEFAULT_SIZES)
    if a.migrate_runs is None:
        a.migrate_runs = 1 if a.quick else 5
    if a.runs is None:
        a.runs = 1 if a.quick else 3
    if a.calls is None:
        a.calls = 20
    if a.runs < 1 or a.calls < 1 or a.pipeline < 0 or a.min_calls < 1 or a.timeout <= 0 or a.migrate_runs < 1:
        p.error("--runs, --calls, --min-calls must be >= 1, --pipeline >= 0, --timeout > 0")
    a.min_calls = min(a.min_calls, a.calls)
    return a


def main(argv=None):
    cfg = parse_args(sys.argv[1:] if argv is None else argv)
    if cfg.corpus_digest:
        generate = generate_madr_corpus if cfg.source == "madr" else generate_corpus
        print(json.dumps({str(s): corpus_digest(generate(s, cfg.seed)) for s in cfg.sizes}, indent=1))
        return 0
    if cfg.source == "madr":
        return madr_main(cfg)

    servers = []
    if cfg.server:
        for i, cmd in enumerate(cfg.server):
            servers.append(("server" if len(cfg.server) == 1 else "server%d" % (i + 1), shlex.split(cmd), "ours"))
    else:
        servers = [(label, argv_, "ours") for label, argv_ in default_servers()]
        if not servers:
            sys.stderr.write("bench.py: no server: %s does not exist and no --server was given\n"
                             % os.path.join(PROJECT, "adrkit_mcp.py"))
            return 2
    for i, cmd in enumerate(cfg.vs or []):
        servers.append(("vs" if len(cfg.vs) == 1 else "vs%d" % (i + 1), shlex.split(cmd), "vs"))
    for label, argv_, _ in servers:
        if not argv_:
            sys.stderr.write("bench.py: empty server command for %s\n" % label)
            return 2

    results = {
        "meta": {
            "bench_version": 1,
            "started": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "python": "Python %s" % platform.python_version(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "clk_tck": CLK_TCK,
            "proc_metrics": HAVE_PROC,
        },
        "config": {
            "sizes": cfg.sizes, "runs": cfg.runs, "calls": cfg.calls, "min_calls": cfg.min_calls,
            "budget_s": cfg.budget, "pipeline": cfg.pipeline, "timeout_s": cfg.timeout, "era": cfg.era,
            "seed": cfg.seed, "cache_dir": cfg.cache_dir, "generator_version": GENERATOR_VERSION,
        },
        "corpora": {},
        "floor": {},
        "servers": [{"label": l, "role": role, "command": " ".join(shlex.quote(x) for x in a), "argv": a, "sizes": {}}
                    for l, a, role in servers],
        "ratios": [],
    }
    failed = False

    roots = {}
    for size in cfg.sizes:
        root, info, reused = ensure_corpus(size, cfg.seed, cfg.cache_dir)
        info = dict(info)
        info["root"] = root
        info["reused"] = reused
        results["corpora"][str(size)] = info
        roots[size] = root
        log("corpus %d records: %s (%s, %.1f MiB)" % (
            size, root, "reused" if reused else "generated in %.1f s" % info.get("generated_in_s", 0),
            info["bytes"] / 1048576.0))
        adr_dir = os.path.join(root, ADR_DIR)
        floor_once(adr_dir)  # page cache
        vals, stat_vals = [], []
        n = 0
        for _ in range(max(5, cfg.runs)):  # interleaved: both floors see the same machine load
            cpu, n = floor_once(adr_dir)
            vals.append(cpu * 1000)
            stat_vals.append(stat_floor_once(adr_dir)[0] * 1000)
        sp, stat_sp = spread(vals), spread(stat_vals)
        results["floor"][str(size)] = {"cpu_ms": sp, "per_record_us": sp["median"] * 1000 / max(1, n), "files": n,
                                       "stat_cpu_ms": stat_sp, "stat_per_record_us": stat_sp["median"] * 1000 / max(1, n)}

    # Warm-up spawn per server (first .pyz extraction, .pyc compilation); not recorded.
    smallest = min(cfg.sizes)
    for srv in results["servers"]:
        log("[%s] warm-up start: %s" % (srv["label"], srv["command"]))
        root = roots[smallest]
        w = Server(expand(srv["argv"], root), child_env(root), cfg.timeout, srv["label"])
        answered = False
        try:
            w.start()
            rid = w.new_id()
            w.write([first_request(cfg.era, rid)])
            w.wait_for([rid])
            answered = True
        except ServerFailed as e:
            log("[%s] warm-up failed: %s" % (srv["label"], e))
        finally:
            w.close(grace=5.0 if answered else 1.0)

    for size in cfg.sizes:
        key = str(size)
        info = results["corpora"][key]
        floor_ms = results["floor"][key]["cpu_ms"]["median"]
        stat_floor_ms = results["floor"][key]["stat_cpu_ms"]["median"]
        for srv in results["servers"]:
            runs = []
            for run in range(cfg.runs):
                log("[%s] %d records, run %d/%d" % (srv["label"], size, run + 1, cfg.runs))
                r = run_once(expand(srv["argv"], roots[size]), child_env(roots[size]), info, cfg, srv["label"])
                runs.append(r)
                if not r["ok"]:
                    failed = True
                    log("[%s] %d records, run %d FAILED: %s" % (srv["label"], size, run + 1, r["error"]))
                    break
            summary = summarize(runs, floor_ms, stat_floor_ms)
            srv["sizes"][key] = {"summary": summary, "runs": runs, "warnings": warnings_for(runs, info, cfg)}

    ours = [s for s in results["servers"] if s["role"] == "ours"]
    others = [s for s in results["servers"] if s["role"] == "vs"]
    for o in ours:
        for v in others:
            results["ratios"].append(ratio_table(o, v, [str(s) for s in cfg.sizes], cfg.pipeline))

    results["meta"]["finished"] = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    results["meta"]["all_answered"] = not failed
    report(results, sys.stdout)
    if cfg.json:
        d = os.path.dirname(os.path.abspath(cfg.json))
        os.makedirs(d, exist_ok=True)
        with open(cfg.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1, ensure_ascii=False)
            f.write("\n")
        log("results written to %s" % cfg.json)
    return 1 if failed else 0


def warnings_for(runs, info, cfg):
    """Sanity notes (never failures): errors, wrong record counts, missing outcomes."""
    out = []
    for i, r in enumerate(runs):
        if not r.get("ok"):
            out.append("run %d failed: %s" % (i + 1, r.get("error")))
            continue
        h = r.get("corpus_health")
        if isinstance(h, dict) and (h.get("recordCount") != info["files"] or h.get("excludedCount")):
            out.append("run %d: corpusHealth %s, expected recordCount %d and excludedCount 0" % (i + 1, h, info["files"]))
        elif h is None:
            out.append("run %d: first call carried no corpusHealth" % (i + 1))
        for tool, t in r["tools"].items():
            bad = {k: v for k, v in t["answers"].items() if k != "ok"}
            if bad:
                out.append("run %d: %s answered %s" % (i + 1, tool, bad))
        if r.get("pipelined_answers", {}).get("ok", 0) != cfg.pipeline:
            out.append("run %d: pipelined answers %s" % (i + 1, r.get("pipelined_answers")))
        if r.get("exit_status") != 0:
            out.append("run %d: exit status %r after stdin EOF" % (i + 1, r.get("exit_status")))
    return sorted(set(out), key=out.index)


def _terminate(signum, frame):
    # Unwind through the `finally` blocks so every server process is closed and killed.
    raise SystemExit(128 + signum)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _terminate)
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
