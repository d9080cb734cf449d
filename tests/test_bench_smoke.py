"""The benchmark (bench/bench.py): its generated corpora and a quick run against the real server.

* Generated records satisfy the frontmatter schema (tests/data/adr.schema.json, a verbatim
  copy of the reference's schema/adr.schema.json, see NOTICE) and the five cross-field rules,
  with the mix of statuses, relations, tags, path matchers and body sizes the benchmark promises.
* Generation is deterministic: the same seed gives the same bytes, in this process and in fresh
  interpreters with different hash seeds.
* ``bench.py --quick --sizes 100 --runs 1`` against this project's server reports every metric.
* A server that never answers makes the benchmark exit 1 after its timeout, without hanging.

Python 3.9+; needs PyYAML and jsonschema (both in requirements-dev.txt).
"""

import datetime
import importlib.util
import json
import os
import re
import shlex
import subprocess
import sys

import pytest

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(REPO_ROOT, "bench", "bench.py")
SERVER_MODULE = os.path.join(REPO_ROOT, "adrkit_mcp.py")
SCHEMA = os.path.join(REPO_ROOT, "tests", "data", "adr.schema.json")
SEED = 1729


def _load_bench():
    spec = importlib.util.spec_from_file_location("adrkit_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = _load_bench()


def _yaml12_loader():
    """PyYAML's safe loader without the YAML 1.1 timestamp rule: `date: 2025-01-01` stays a
    string, as in the YAML 1.2 core schema the reference reads frontmatter with."""
    yaml = pytest.importorskip("yaml")

    class Loader(yaml.SafeLoader):
        pass

    Loader.yaml_implicit_resolvers = {
        ch: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for ch, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    return yaml, Loader


def _split(data):
    text = data.decode("utf-8")
    assert text.startswith("---\n")
    end = text.index("\n---\n", 4)
    return text[4:end + 1], text[end + 5:]


def _cross_field_violations(fm):
    out = []
    status = fm.get("status")
    prov = fm.get("provenance") or {}
    if status == "superseded" and "supersededBy" not in fm:
        out.append("superseded without supersededBy")
    if "supersededBy" in fm and status != "superseded":
        out.append("supersededBy without status superseded")
    if status == "accepted" and not fm.get("deciders") and "importedFrom" not in prov:
        out.append("accepted without deciders")
    if status == "accepted" and prov.get("authoredBy") in ("agent", "agent-drafted") and "ratifiedBy" not in prov:
        out.append("agent-authored accepted without ratifiedBy")
    if fm.get("reversibility") == "one-way-door" and (fm.get("review") or {}).get("tier") == "auto":
        out.append("one-way-door with review.tier auto")
    return out


@pytest.mark.parametrize("size", [100, 1000])
def test_generated_records_are_schema_valid(size):
    jsonschema = pytest.importorskip("jsonschema")
    yaml, Loader = _yaml12_loader()
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    validator = jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)

    files = bench.generate_corpus(size, SEED)
    assert len(files) == size
    records = {}
    for path, data in files:
        m = re.match(r"^docs/adr/([0-9]{4,})-[a-z0-9-]+\.md$", path)
        assert m, path
        head, body = _split(data)
        fm = yaml.load(head, Loader=Loader)
        errors = sorted(validator.iter_errors(fm), key=lambda e: list(e.absolute_path))
        assert not errors, "%s: %s" % (path, "; ".join(
            "%s: %s" % ("/".join(map(str, e.absolute_path)), e.message) for e in errors))
        assert not _cross_field_violations(fm), (path, _cross_field_violations(fm))
        assert fm["id"] == m.group(1)
        for key in ("date", "created", "reviewBy"):
            if key in fm:
                datetime.date.fromisoformat(fm[key])  # a real calendar date
        assert 1 <= len(fm["affects"]) <= 4
        assert all(a["type"] == "path" for a in fm["affects"])
        assert 1024 <= len(body.encode("utf-8")) <= 8192, (path, len(body))
        records[fm["id"]] = fm

    assert len(records) == size
    statuses = [fm["status"] for fm in records.values()]
    assert set(statuses) == {"draft", "proposed", "accepted", "rejected", "superseded", "deprecated"}
    for fm in records.values():
        if "supersededBy" in fm:
            assert fm["supersededBy"] in records and fm["supersededBy"] != fm["id"]
            assert fm["id"] in records[fm["supersededBy"]].get("supersedes", [])
        for key in ("supersedes", "relatesTo", "conflictsWith"):
            for ref in fm.get(key, []):
                assert ref in records and ref != fm["id"], (fm["id"], key, ref)
    assert sum(1 for fm in records.values() if fm.get("relatesTo")) > size // 10
    assert any(fm.get("conflictsWith") for fm in records.values())
    assert sum(1 for fm in records.values() if fm.get("tags")) > size // 2
    patterns = [a["pattern"] for fm in records.values() for a in fm["affects"]]
    assert any(p.startswith("src/db/") for p in patterns)
    assert any(p.startswith("services/billing/") for p in patterns)
    assert any(p.startswith("**/") for p in patterns)


def test_generation_is_deterministic():
    a = bench.generate_corpus(257, SEED)
    b = bench.generate_corpus(257, SEED)
    assert a == b
    assert bench.generate_corpus(257, SEED + 1) != a
    expected = {"100": bench.corpus_digest(bench.generate_corpus(100, SEED)), "257": bench.corpus_digest(a)}
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run(
            [sys.executable, BENCH, "--corpus-digest", "--sizes", "100,257", "--seed", str(SEED)],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120, check=True)
        assert json.loads(out.stdout) == expected


def test_corpus_cache_is_reused(tmp_path):
    root, info, reused = bench.ensure_corpus(50, SEED, str(tmp_path))
    assert not reused
    assert os.path.isdir(os.path.join(root, ".git"))
    assert len(os.listdir(os.path.join(root, "docs", "adr"))) == 50
    root2, info2, reused2 = bench.ensure_corpus(50, SEED, str(tmp_path))
    assert reused2 and root2 == root and info2["digest"] == info["digest"]
    assert info["digest"] == bench.corpus_digest(bench.generate_corpus(50, SEED))


def _metric_keys():
    keys = [k for k, _ in bench.RUN_METRICS]
    keys += ["%s.%s" % (t, f) for t in bench.TOOLS for f, _ in bench.TOOL_FIELDS]
    keys += [k for k, _ in bench.TAIL_METRICS]
    keys += ["%s.cpu_to_floor" % t for t in bench.TOOLS]
    return keys


@pytest.mark.skipif(not os.path.isfile(SERVER_MODULE),
                    reason="adrkit_mcp.py does not exist yet: nothing to benchmark")
def test_quick_bench_against_the_real_server(tmp_path):
    out_json = tmp_path / "results.json"
    proc = subprocess.run(
        [sys.executable, BENCH, "--quick", "--sizes", "100", "--runs", "1",
         "--cache-dir", str(tmp_path / "corpora"), "--json", str(out_json)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=900)
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")[-3000:]
    table = proc.stdout.decode("utf-8")
    assert "spawn → first answer ms" in table and "200 pipelined calls ms" in table

    results = json.loads(out_json.read_text(encoding="utf-8"))
    assert results["meta"]["all_answered"] is True
    assert results["corpora"]["100"]["files"] == 100
    assert results["floor"]["100"]["cpu_ms"]["median"] > 0
    assert results["floor"]["100"]["stat_cpu_ms"]["median"] > 0
    assert "stat floor CPU ms (list+stat)" in table
    assert results["servers"], "no server was benchmarked"
    linux = bool(results["meta"]["proc_metrics"])
    for srv in results["servers"]:
        entry = srv["sizes"]["100"]
        summary = entry["summary"]
        assert summary["runs_ok"] == 1 and summary["runs_failed"] == 0, entry["runs"]
        for key in _metric_keys():
            assert key in summary, key
            if linux or not any(w in key for w in ("cpu", "rss", "floor")):
                assert summary[key] is not None, (srv["label"], key)
        assert summary["pipelined_answered"]["median"] == 200
        run = entry["runs"][0]
        assert run["ok"] and run["pipelined_answered"] == 200
        assert run["corpus_health"]["recordCount"] == 100
        assert run["corpus_health"]["excludedCount"] == 0
        for tool in bench.TOOLS:
            assert run["tools"][tool]["answers"] == {"ok": run["tools"][tool]["calls"]}, tool
        assert run["tools"]["get_decision"]["outcomes"] == {"found": run["tools"]["get_decision"]["calls"]}
        assert run["exit_status"] == 0


def test_a_server_that_never_answers_fails_the_run_without_hanging(tmp_path):
    silent = " ".join(shlex.quote(a) for a in [sys.executable, "-c", "import time; time.sleep(120)"])
    out_json = tmp_path / "results.json"
    proc = subprocess.run(
        [sys.executable, BENCH, "--server", silent, "--sizes", "20", "--runs", "2", "--timeout", "1",
         "--cache-dir", str(tmp_path / "corpora"), "--json", str(out_json)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    assert proc.returncode == 1, proc.stderr.decode("utf-8", "replace")  # timeout=120: a hang guard
    results = json.loads(out_json.read_text(encoding="utf-8"))
    assert results["meta"]["all_answered"] is False
    summary = results["servers"][0]["sizes"]["20"]["summary"]
    assert summary["runs_ok"] == 0 and summary["runs_failed"] == 1  # stops after the first failure
    assert "no answer within" in results["servers"][0]["sizes"]["20"]["runs"][0]["error"]


def test_the_hook_bench_times_the_real_hook(tmp_path):
    """bench/hook.py on a 100-record corpus with the source module: the baseline, the Bash event
    (answered with nothing) through Claude Code's entry and through Codex's (whose gate reads the
    command), and the Edit event (answered with decisions), each timed."""
    proc = subprocess.run(
        [sys.executable, os.path.join(REPO_ROOT, "bench", "hook.py"), "--sizes", "100", "--runs", "1",
         "--program", SERVER_MODULE, "--cache", str(tmp_path / "corpora")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    rows = [line.split("|")[1:-1] for line in proc.stdout.splitlines() if line.startswith("| ")]
    labels = [(row[0].strip(), row[1].strip()) for row in rows[1:]]
    assert labels == [('bare python3 -c "import json,sys; json.load(sys.stdin)"', ""),
                      ("Bash (edits nothing)", "100"), ("Bash through the Codex entry (edits nothing)", "100"),
                      ("Edit", "100")], proc.stdout
    assert [row[3].strip() for row in rows[1:]][0] == "1.00"  # the baseline against itself
    assert int(rows[4][6]) > 0 and rows[4][7].strip() == "30 s"  # the hook named a decision


# ---------------------------------------------------------------------------------------------
# --from madr: the MADR/Nygard corpora, and the quick run of both measurements
# ---------------------------------------------------------------------------------------------


def test_madr_corpora_hold_every_dialect_and_are_deterministic():
    files = bench.generate_madr_corpus(300, SEED)
    assert files == bench.generate_madr_corpus(300, SEED)
    assert files != bench.generate_madr_corpus(300, SEED + 1)
    dialects = {"madr2": 0, "madr3": 0, "nygard": 0}
    for path, data in files:
        assert re.match(r"^docs/adr/[0-9]{4}-[a-z0-9-]+\.md$", path), path
        text = data.decode("utf-8")
        if text.startswith("---\n"):
            dialects["madr3"] += 1
            head = text[4:text.index("\n---\n")]
            assert "affects:\n  - type: path\n    pattern: " in head  # get_decision_context has globs
        elif "\n* Status: " in text.split("\n## ", 1)[0]:
            dialects["madr2"] += 1
        else:
            assert re.search(r"^# [0-9]+\. .+\n\nDate: [0-9]{4}-[0-9]{2}-[0-9]{2}\n\n## Status\n\n", text), path
            dialects["nygard"] += 1
    assert min(dialects.values()) > 30, dialects
    statuses = " ".join(data.decode("utf-8") for _, data in files)
    assert re.search(r"[Ss]uperseded by (\[ADR-)?[0-9]{4}", statuses)
    env = dict(os.environ, PYTHONHASHSEED="3")
    out = subprocess.run([sys.executable, BENCH, "--corpus-digest", "--from", "madr", "--sizes", "300",
                          "--seed", str(SEED)], env=env, stdout=subprocess.PIPE, timeout=120, check=True)
    assert json.loads(out.stdout) == {"300": bench.corpus_digest(files)}


@pytest.mark.skipif(not os.path.isfile(SERVER_MODULE), reason="adrkit_mcp.py does not exist yet")
def test_quick_madr_bench_against_the_real_program(tmp_path):
    out_json = tmp_path / "results.json"
    proc = subprocess.run(
        [sys.executable, BENCH, "--from", "madr", "--quick", "--program", "%s %s" % (
            shlex.quote(sys.executable), shlex.quote(SERVER_MODULE)),
         "--cache-dir", str(tmp_path / "corpora"), "--json", str(out_json)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=900)
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")[-3000:]
    table = proc.stdout.decode("utf-8")
    assert "--from madr, 100 records: warm CPU per call ms" in table and "migrate --from madr, 100 records" in table
    results = json.loads(out_json.read_text(encoding="utf-8"))
    assert results["meta"]["all_answered"] is True
    entry = results["sizes"]["100"]
    assert entry["corpus"]["files"] == 100
    (served,) = entry["read_through"]
    linux = bool(results["meta"]["proc_metrics"])
    for side in ("madr", "migrated"):
        (run,) = served["runs"][side]
        assert run["ok"] and run["exit_status"] == 0, run
        assert run["corpus_health"]["recordCount"] == 100 and run["corpus_health"]["excludedCount"] == 0
        for tool in bench.TOOLS:
            assert run["tools"][tool]["answers"] == {"ok": run["tools"][tool]["calls"]}, (side, tool)
    assert served["warnings"] == []
    for tool in bench.TOOLS:
        assert (served["ratio"][tool] is not None) == linux, tool
    (row,) = entry["migrate"]["rows"]
    assert row["errors"] == [] and row["wall_ms"]["median"] > 0
    assert (row["cpu_ms"] is not None) == hasattr(os, "wait4")
    assert entry["migrate"]["same_output"] is True


# ---------------------------------------------------------------------------------------------
# bench/cli.py: the reference CLI's commands and --markers, on a tiny corpus, without the reference
# ---------------------------------------------------------------------------------------------


@pytest.mark.skipif(not os.path.isfile(SERVER_MODULE), reason="adrkit_mcp.py does not exist yet")
def test_the_cli_bench_times_our_commands_and_markers(tmp_path):
    """bench/cli.py on 30 records and 5 source files, one round, the reference left out: every
    command row and both context rows are there, with a figure where this system gives one."""
    out_json = tmp_path / "results.json"
    proc = subprocess.run(
        [sys.executable, os.path.join(REPO_ROOT, "bench", "cli.py"), "--records", "30", "--sources", "5",
         "--runs", "1", "--calls", "2", "--bun", "none", "--cache", str(tmp_path / "corpora"),
         "--json", str(out_json)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "reference CLI: skipped (--bun none)" in proc.stdout
    rows = [line.split("|")[1:-1] for line in proc.stdout.splitlines() if line.startswith("| ")]
    labels = [row[0].strip() for row in rows]
    assert labels == ["run", "`lint`", "`lint <5 records>`", "`check <5 files>`", "`check --json <5 files>`",
                      "get_decision_context, 5 files", "without --markers", "with --markers"], proc.stdout
    for row in rows[1:5]:
        assert row[1].strip().endswith(" ms") and row[2].strip() == "n/a", row  # ours timed, no reference
    linux = sys.platform.startswith("linux")
    assert rows[7][1].strip().endswith(" ms") == linux and rows[7][2].strip().endswith("x") == linux
    assert int(rows[7][6]) > 0 and int(rows[6][6]) == 0  # declaredBy: only with --markers
    results = json.loads(out_json.read_text(encoding="utf-8"))
    assert sorted(results) == sorted(["lint", "lint <5 records>", "check <5 files>", "check --json <5 files>",
                                      "markers"])
    assert len(results["markers"]["ratios"]) == 1
