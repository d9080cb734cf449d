"""`adrkit-mcp migrate --from madr` and `--from madr`, as a user meets them: the command line,
what is written and how, and the read-through's freshness.

Whether each answer equals the reference's is the recorded pack's business
(tests/test_migrate_pack.py) and the differential tester's (tools/difftest.py --from madr); here
every test runs the real program as a subprocess, or the module's own door, on real folders.
"""

import json
import os
import stat
import subprocess
import sys

import pytest

import _platforms as platforms
import _support as support

M = support.M
SERVER = os.environ.get("ADRKIT_MCP_MODULE") or support.MODULE_PATH

NYGARD = ("# 1. Record architecture decisions\n\nDate: 2024-03-04\n\n## Status\n\nAccepted\n\n"
          "## Context\n\nWe need to record the decisions made on this project.\n")
MADR2 = ("# Use PostgreSQL\n\n* Status: accepted\n* Deciders: @alice, Bob Smith\n* Date: 2024-05-06\n\n"
         "## Context and Problem Statement\n\nOrders need a store.\n")


def run(args, cwd, env=None, input_text=None):
    """The program's (status, stdout, stderr), run in `cwd`."""
    environment = dict(os.environ)
    for name in ("ADRKIT_MCP_CWD", "ADRKIT_MCP_DIR", "ADRKIT_MCP_FROM"):
        environment.pop(name, None)
    environment.update(env or {})
    child = subprocess.run(support.module_command(SERVER, sys.executable) + list(args), cwd=str(cwd),
                           env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120,
                           input=(input_text or "").encode("utf-8"))
    return child.returncode, child.stdout.decode("utf-8"), child.stderr.decode("utf-8")


@pytest.fixture
def folder(tmp_path):
    """A repository whose docs/adr holds an adr-tools record and a MADR 2 record."""
    root = tmp_path / "repo"
    adr = root / "docs" / "adr"
    adr.mkdir(parents=True)
    (root / ".git").mkdir()
    (adr / "0001-record-architecture-decisions.md").write_bytes(NYGARD.encode("utf-8"))
    (adr / "use-postgresql.md").write_bytes(MADR2.encode("utf-8"))
    (adr / "README.md").write_bytes(b"# Decisions\n")
    return root


def tree(root):
    """{relative path: bytes} of every file under root (symlinks as 'link -> target')."""
    found = {}
    for folder, _, names in os.walk(str(root)):
        for name in names:
            path = os.path.join(folder, name)
            key = os.path.relpath(path, str(root)).replace(os.sep, "/")
            found[key] = ("link -> " + os.readlink(path)) if os.path.islink(path) else open(path, "rb").read()
    return found


# ---------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("args, sentence", [
    (["migrate"], "adr migrate requires --from madr; non-MADR sources and round-trip sync are "
                  "unsupported in this phase (ADR-0008)"),
    (["migrate", "--from", "log4brains"], "adr migrate --from log4brains is not supported yet; only "
                                          "--from madr is available, and round-trip sync is "
                                          "unsupported (ADR-0008)"),
    (["migrate", "--from", "madr", "docs"], "adr migrate does not accept positional arguments"),
    (["migrate", "--from", "madr", "--bogus"], "Unknown option '--bogus'. To specify a positional "
                                              "argument starting with a '-', place it at the end "
                                              "of the command after '--', as in '-- \"--bogus\""),
    (["migrate", "--from"], "Option '--from <value>' argument missing"),
    (["migrate", "--from", "madr", "--json=yes"], "Option '--json' does not take an argument"),
    (["migrate", "--from=", "--dry-run"], "adr migrate requires --from madr"),
], ids=["no-from", "other-from", "positional", "unknown-flag", "missing-value", "switch-value",
        "empty-from"])
def test_usage_errors_exit_2_with_the_reference_sentence(folder, args, sentence):
    before = tree(folder)
    status, out, err = run(args, folder)
    assert (status, out) == (2, "")
    assert sentence in err and "usage: adrkit-mcp migrate --from madr" in err
    assert tree(folder) == before


@pytest.mark.parametrize("dir_arg, message", [
    ("docs/missing", "Corpus directory not found: 'docs/missing'."),
    ("docs/adr/README.md", "Corpus directory not found: 'docs/adr/README.md'."),
])
def test_an_unreachable_folder_exits_2_with_the_reference_message(folder, dir_arg, message):
    status, out, err = run(["migrate", "--from", "madr", "--dir", dir_arg], folder)
    assert (status, out, err) == (2, "", message + "\n")


@platforms.PERMISSIONS
def test_an_unreadable_file_stops_with_nodes_words_and_an_unreadable_folder_exits_2(public_tmp):
    root = os.path.join(public_tmp, "repo")
    adr = os.path.join(root, "docs", "adr")
    os.makedirs(adr)
    for name, text in (("0001-record-architecture-decisions.md", NYGARD), ("use-postgresql.md", MADR2)):
        with open(os.path.join(adr, name), "w", encoding="utf-8") as handle:
            handle.write(text)
    locked = os.path.join(adr, "use-postgresql.md")
    attempt = (lambda: support.run_main(["migrate", "--from", "madr"], root))
    try:
        with support.working_directory():
            support.run_main(["migrate", "--from", "madr", "--dry-run"], root)  # every lazy import, before the drop
            os.chmod(locked, 0)
            stopped = support.run_unprivileged(attempt)
            os.chmod(locked, 0o644)
            os.chmod(adr, 0)
            refused = support.run_unprivileged(attempt)
    except support.Unavailable as reason:
        pytest.skip(str(reason))
    finally:
        os.chmod(adr, 0o755)
        os.chmod(locked, 0o644)
    path = os.path.join(os.path.realpath(adr), "use-postgresql.md")
    assert stopped == (1, "", "EACCES: permission denied, open '%s'\n" % path)
    assert refused == (2, "", "Corpus directory not readable: 'docs/adr'.\n")
    with open(os.path.join(adr, "0001-record-architecture-decisions.md"), encoding="utf-8") as handle:
        assert handle.read() == NYGARD  # the run that stopped wrote nothing


def test_an_unknown_from_exits_2_naming_what_is_supported(folder):
    for command in ([], ["call", "list_superseded", "{}"], ["doctor"], ["config", "vscode"]):
        status, out, err = run(command + ["--from", "mdr"], folder)
        assert (status, out) == (2, ""), command
        assert "--from mdr is not supported" in err and "madr (MADR 2-4 and Nygard" in err, err
        status, out, err = run(command, folder, env={"ADRKIT_MCP_FROM": "nygard"})
        assert (status, out) == (2, ""), command
        assert "$ADRKIT_MCP_FROM=nygard is not supported" in err, err
    # The hook exits 0 whatever happens: any other status blocks or denies some agent's tool.
    status, out, err = run(["hook", "--from", "mdr"], folder, input_text="{}")
    assert (status, out) == (0, "") and "--from mdr is not supported" in err


def test_an_empty_environment_value_counts_as_unset(folder):
    status, out, _ = run(["call", "list_superseded", "{}"], folder, env={"ADRKIT_MCP_FROM": ""})
    assert status == 0 and json.loads(out)["corpusHealth"]["recordCount"] == 0


# ---------------------------------------------------------------------------
# What is written, and how
# ---------------------------------------------------------------------------

def test_dry_run_writes_nothing_and_reports_what_a_run_writes(folder, tmp_path):
    before = tree(folder)
    status, dry, _ = run(["migrate", "--from", "madr", "--dry-run"], folder)
    assert status == 0 and tree(folder) == before
    status, real, _ = run(["migrate", "--from", "madr"], folder)
    assert status == 0 and real == dry
    after = tree(folder)
    changed = sorted(path for path in after if after[path] != before.get(path))
    assert changed == ["docs/adr/0001-record-architecture-decisions.md", "docs/adr/use-postgresql.md"]
    assert after["docs/adr/README.md"] == before["docs/adr/README.md"]
    for path in changed:  # the body is kept, under the new frontmatter
        assert after[path].startswith(b"---\nschemaVersion: 0.1.0\n")
        assert after[path].endswith(before[path])
    status, again, _ = run(["migrate", "--from", "madr"], folder)
    assert status == 0 and tree(folder) == after
    assert again.splitlines()[:3] == ["unchanged  docs/adr/0001-record-architecture-decisions.md",
                                      "unchanged  docs/adr/use-postgresql.md",
                                      "summary: migrated 0, updated 0, unchanged 2, diverged 0, skipped 0"]


def test_cwd_gives_what_running_in_the_folder_gives(folder, tmp_path):
    copy = tmp_path / "copy"
    os.makedirs(str(copy))
    os.rename(str(folder), str(copy / "repo"))
    twin = tmp_path / "twin"
    import shutil
    shutil.copytree(str(copy / "repo"), str(twin))
    here = run(["migrate", "--from", "madr", "--json"], copy / "repo")
    there = run(["migrate", "--from", "madr", "--json", "--cwd", str(twin)], tmp_path)
    assert here == there and here[0] == 0
    assert tree(copy / "repo") == tree(twin)
    results = json.loads(here[1])["results"]
    assert [result["path"] for result in results] == ["docs/adr/0001-record-architecture-decisions.md",
                                                       "docs/adr/use-postgresql.md"]


@platforms.PERMISSIONS
def test_a_file_keeps_its_permission_bits_and_no_temporary_file_stays(folder):
    adr = folder / "docs" / "adr"
    os.chmod(str(adr / "use-postgresql.md"), 0o640)
    os.chmod(str(adr / "0001-record-architecture-decisions.md"), 0o604)
    assert run(["migrate", "--from", "madr"], folder)[0] == 0
    assert stat.S_IMODE(os.stat(str(adr / "use-postgresql.md")).st_mode) == 0o640
    assert stat.S_IMODE(os.stat(str(adr / "0001-record-architecture-decisions.md")).st_mode) == 0o604
    assert sorted(os.listdir(str(adr))) == ["0001-record-architecture-decisions.md", "README.md",
                                            "use-postgresql.md"]


@platforms.SYMLINKS
def test_symlinks_are_never_followed_nor_written_through(folder, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "target.md").write_bytes(MADR2.encode("utf-8"))
    (outside / "nested").mkdir()
    (outside / "nested" / "deep.md").write_bytes(NYGARD.encode("utf-8"))
    adr = folder / "docs" / "adr"
    os.symlink(str(outside / "target.md"), str(adr / "linked.md"))
    os.symlink(str(outside / "nested"), str(adr / "linked-folder"))
    outside_before = tree(outside)
    status, out, _ = run(["migrate", "--from", "madr", "--rename"], folder)
    assert status == 0
    assert "linked" not in out
    assert tree(outside) == outside_before
    assert os.readlink(str(adr / "linked.md")) == str(outside / "target.md")


def test_rename_never_replaces_a_file_that_has_the_name(folder):
    adr = folder / "docs" / "adr"
    # A MADR 3 source declaring id 0007 is to move to 0007-use-postgresql.md: make that name taken.
    (adr / "use-postgresql.md").write_bytes(b"---\nid: \"0007\"\nstatus: accepted\n---\n" + MADR2.encode("utf-8"))
    taken = b"not a record, and not ours to replace\n"
    (adr / "0007-use-postgresql.md").write_bytes(taken)
    status, out, _ = run(["migrate", "--from", "madr", "--rename"], folder)
    assert status == 0 and tree(folder)["docs/adr/0007-use-postgresql.md"] == taken
    assert "migrated  docs/adr/use-postgresql.md\n" in out  # reported where it stays
    assert tree(folder)["docs/adr/use-postgresql.md"].startswith(b"---\nschemaVersion: 0.1.0\nid: \"0007\"\n")


def test_rename_moves_a_file_to_its_record_name(folder):
    status, out, _ = run(["migrate", "--from", "madr", "--rename"], folder)
    assert status == 0
    assert "migrated  docs/adr/use-postgresql.md -> docs/adr/0002-use-postgresql.md" in out
    names = sorted(os.listdir(str(folder / "docs" / "adr")))
    assert names == ["0001-record-architecture-decisions.md", "0002-use-postgresql.md", "README.md"]
    status, again, _ = run(["migrate", "--from", "madr", "--rename"], folder)
    assert "unchanged  docs/adr/0002-use-postgresql.md" in again


# ---------------------------------------------------------------------------
# --from madr: the folder as migrate would leave it, fresh on every call, nothing written
# ---------------------------------------------------------------------------

def call(root, tool, arguments, source="madr"):
    config = M.CorpusConfig(str(root), "docs/adr", source=source)
    assert M.check_roots(config) is None
    return config, M.call_tool(config, tool, arguments)["structuredContent"]


def test_from_madr_answers_as_the_migrated_copy_does(folder, tmp_path):
    import shutil
    migrated = tmp_path / "migrated"
    shutil.copytree(str(folder), str(migrated))
    assert run(["migrate", "--from", "madr"], migrated)[0] == 0
    before = tree(folder)
    for tool, arguments in [("search_decisions", {"query": "record"}), ("get_decision", {"ref": "0001"}),
                            ("list_superseded", {}), ("search_decisions", {"query": "orders"})]:
        assert call(folder, tool, arguments)[1] == call(migrated, tool, arguments, source=None)[1], tool
    assert tree(folder) == before


def test_from_madr_sees_edits_additions_and_deletions_between_calls(folder):
    adr = folder / "docs" / "adr"
    config, first = call(folder, "search_decisions", {"query": "record"})
    assert [item["id"] for item in first["result"]["items"]] == ["0001"]

    def search(query):
        return M.call_tool(config, "search_decisions", {"query": query})["structuredContent"]
    # An addition changes ids: a new 0002-named record takes 0002, so use-postgresql.md moves on.
    (adr / "0002-adopt-kafka.md").write_bytes(b"# Adopt Kafka\n\n## Status\n\nProposed\n")
    found = search("kafka")["result"]["items"]
    assert [(item["id"], item["status"]) for item in found] == [("0002", "proposed")]
    # An edit in place is seen, whatever the stat.
    (adr / "0002-adopt-kafka.md").write_bytes(b"# Adopt Kafka\n\n## Status\n\nRejected\n")
    assert [item["status"] for item in search("kafka")["result"]["items"]] == ["rejected"]
    # A deletion too.
    os.unlink(str(adr / "0002-adopt-kafka.md"))
    assert search("kafka")["result"]["items"] == []
    assert search("record")["corpusHealth"] == first["corpusHealth"]


def test_from_madr_never_reads_a_file_over_the_cap(folder):
    adr = folder / "docs" / "adr"
    big = b"# Big\n\n## Status\n\nAccepted\n\n" + b"x" * (M.MAX_SOURCE_BYTES + 1)
    (adr / "0009-big.md").write_bytes(big)
    _, answer = call(folder, "search_decisions", {"query": "big"})
    assert answer["result"]["items"] == []
    rules = [(finding["rule"], finding["path"]) for finding in answer["result"]["findings"]["items"]]
    assert ("record-too-large", "docs/adr/0009-big.md") in rules


def _numbered_like_a_file_over_the_cap(root, intro=b""):
    """0001-big.md over the cap and 0001-use-a.md, both numbered 0001: the reference's migrate
    (CLI 0.8.0) gives big 0001 (first in its order) and use-a the next free number, 0002."""
    adr = root / "docs" / "adr"
    adr.mkdir(parents=True)
    (root / ".git").mkdir()
    (adr / "0001-use-a.md").write_bytes(b"# Use A\n\n## Status\n\nAccepted\n")
    (adr / "0001-big.md").write_bytes(intro + b"# Big one\n\n## Status\n\nAccepted\n\n"
                                      + (b"word " * 20 + b"\n") * 700)
    return root


def test_from_madr_numbers_a_file_over_the_cap_from_its_first_64_kib(tmp_path):
    # The oversized file is still never served, but it takes its number in the migration the
    # folder is read as, so the other 0001 file gets 0002 as on the reference's migrated copy.
    root = _numbered_like_a_file_over_the_cap(tmp_path)
    _, answer = call(root, "search_decisions", {"query": "use"})
    assert [(item["id"], item["sourcePath"]) for item in answer["result"]["items"]] == [
        ("0002", "docs/adr/0001-use-a.md")]
    rules = [(finding["rule"], finding["path"]) for finding in answer["result"]["findings"]["items"]]
    assert ("record-too-large", "docs/adr/0001-big.md") in rules
    assert answer["corpusHealth"]["excludedCount"] == 1
    # As our migrate leaves the folder (which reads every file whole, as the reference's does).
    import shutil
    migrated = tmp_path / "migrated"
    shutil.copytree(str(root), str(migrated))
    assert run(["migrate", "--from", "madr"], migrated)[0] == 0
    for tool, arguments in [("search_decisions", {"query": "use"}), ("get_decision", {"ref": "0002"}),
                            ("get_decision", {"ref": "0001"})]:
        ours, theirs = call(root, tool, arguments)[1], call(migrated, tool, arguments, source=None)[1]
        ours.pop("corpusHealth")
        theirs.pop("corpusHealth")  # the fingerprint hashes other bytes: the conformance rule
        assert ours == theirs, tool


def test_from_madr_a_title_past_the_first_64_kib_takes_no_number(tmp_path):
    # The documented departure (README, ADR 0017): what decides a file's number must lie in its
    # first 64 KiB; here the title does not, so big takes no number and use-a keeps 0001, where
    # the reference's migrate reads the whole file and gives use-a 0002.
    root = _numbered_like_a_file_over_the_cap(tmp_path, intro=b"An introduction line.\n" * 3200)
    _, answer = call(root, "search_decisions", {"query": "use"})
    assert [item["id"] for item in answer["result"]["items"]] == ["0001"]


def test_the_capped_prefix_ends_at_the_last_line_end(tmp_path):
    path = tmp_path / "big.md"
    path.write_bytes(b"---\n" + b"a" * (M.MAX_SOURCE_BYTES - 8) + b"\r\n---x" + b"y" * 100)
    fd = os.open(str(path), os.O_RDONLY)
    try:
        prefix = M._capped_prefix(fd)
    finally:
        os.close(fd)
    assert prefix == b"---\n" + b"a" * (M.MAX_SOURCE_BYTES - 8) + b"\r\n"
    path.write_bytes(b"z" * (M.MAX_SOURCE_BYTES + 10))
    fd = os.open(str(path), os.O_RDONLY)
    try:
        assert M._capped_prefix(fd) == b""
    finally:
        os.close(fd)


# ---------------------------------------------------------------------------
# Cases the differential tester found (tools/difftest.py --from madr), each with the answer the
# reference CLI gave on the same files
# ---------------------------------------------------------------------------

EARLIER_IMPORT = """---
schemaVersion: 0.1.0
id: "0016"
title: An earlier import
status: proposed
date: 2024-01-01
provenance:
  authoredBy: human
  importedFrom:
    sourceKind: madr
    sourceRef: docs/adr/use-a-cache.md
    fingerprint: sha256:ab
---
Body.
"""


def test_undiscoverable_names_the_allocated_id_not_the_written_one():
    # use-a-cache.md declares id 0017, which it keeps; record 0016 says it came from it, so the
    # run allocates it 0016 (an `updated` source), and the reference's finding names that id.
    files = [M.MadrImport.File("docs/adr/0016-earlier-import.md", "0016-earlier-import.md", False,
                               EARLIER_IMPORT),
             M.MadrImport.File("docs/adr/use-a-cache.md", "use-a-cache.md", False,
                               '---\nid: "0017"\n---\n# Use a cache\n\n* Status: accepted\n')]
    run = M.MadrImport.migrate(files, ["0016-earlier-import.md"], False, lambda f, n: False,
                               lambda f, t, n: None)
    assert [(result["path"], result["outcome"], result["frontmatter"]["id"]) for result in run.results] == [
        ("docs/adr/0016-earlier-import.md", "migrated", "0016"), ("docs/adr/use-a-cache.md", "updated", "0017")]
    assert [(finding["rule"], finding.get("id")) for finding in run.findings] == [
        ("import-date-missing", "0017"), ("import-incomplete", "0017"), ("import-undiscoverable", "0016")]


def test_a_run_with_the_memo_of_earlier_runs_answers_as_a_fresh_run():
    """--from madr keeps the importer's per-file work between calls (MadrImport.Memo). A file
    that did not change must still be merged again when what it depends on did: the id the run
    gives it, and the successor its `superseded by` names."""
    memo = M.MadrImport.Memo()

    def both(named):
        files = [M.MadrImport.File("docs/adr/" + name, name, False, text) for name, text in named.items()]
        names = [name for name in named if M.is_record_file_name(name)]
        outcomes = []
        for kept in (memo, None):  # with the memo of the runs before, then alone
            texts = {}
            run = M.MadrImport.migrate(files, names, False, lambda file, name: False,
                                       lambda file, text, name: texts.__setitem__(file.path, text), kept)
            outcomes.append((texts, run.results, run.findings, run.crashed))
        assert outcomes[0] == outcomes[1]
        return outcomes[0][0]

    old = "# Use MySQL\n\n* Status: Superseded by ADR-0007\n* Date: 2024-01-02\n"
    unnumbered = "# Use a queue\n\n* Status: accepted\n"
    first = both({"0003-use-mysql.md": old, "use-a-queue.md": unnumbered})
    assert "status: proposed" in first["docs/adr/0003-use-mysql.md"]
    assert 'id: "0004"' in first["docs/adr/use-a-queue.md"]
    # 0007 appears: the unchanged 0003 now resolves its successor, and use-a-queue.md's id moves on.
    second = both({"0003-use-mysql.md": old, "use-a-queue.md": unnumbered,
                   "0007-use-postgres.md": "# Use Postgres\n\n* Status: accepted\n"})
    assert 'status: superseded' in second["docs/adr/0003-use-mysql.md"]
    assert 'supersededBy: "0007"' in second["docs/adr/0003-use-mysql.md"]
    assert 'id: "0008"' in second["docs/adr/use-a-queue.md"]
    # And gone again: back to the first answers.
    assert both({"0003-use-mysql.md": old, "use-a-queue.md": unnumbered}) == first


# ---------------------------------------------------------------------------
# doctor and config know the choice
# ---------------------------------------------------------------------------

def test_doctor_names_both_ways_and_what_each_gives(folder):
    status, out, _ = run(["doctor"], folder)
    lines = out.splitlines()
    # No record loads: the diagnosis first, then the two ways in, before any other line.
    assert status == 1, out
    assert lines[0] == ("doctor: a client would not work: no record loads from docs/adr: its Markdown "
                        "reads as MADR or Nygard records, without adrkit frontmatter"), out
    hint = [line for line in lines if "read as MADR or Nygard" in line]
    assert len(hint) == 1, out
    # Both sources would be migrated; one is named like a record, so --from madr serves one record.
    assert lines[1] == hint[0] == ("2 Markdown files in docs/adr read as MADR or Nygard (adr-tools) "
                                   "records, which the tools skip for want of adrkit frontmatter. "
                                   "Two ways in:")
    assert lines[2].startswith("  --from madr           serve them as they are, writing nothing: 1 record (")
    assert lines[3].startswith("  migrate --from madr   add the frontmatter to the files for good: 1 record "
                               "(2 with --rename, which names the files NNNN-slug.md)")
    assert "`adrkit-mcp migrate --from madr --dir docs/adr --dry-run`" in lines[3]
    # No finding per file: the fence and missing-field findings of MADR files are counted once.
    assert "frontmatter-fence" not in out and "required-field" not in out
    assert "note  1 finding on the MADR or Nygard files not listed" in out
    status, out, _ = run(["doctor", "--from", "madr"], folder)
    assert "ok    --from madr: 2 of 2 Markdown files read as MADR or Nygard records" in out, out
    assert ('note  migrate would report for docs/adr/use-postgresql.md: MADR source declares deciders '
            'that are not valid identities and were not imported: "Bob Smith"') in out
    assert "its filename does not match <id>-<slug>.md" in out
    assert out.rstrip().endswith("--dir docs/adr --from madr would work."), out[-300:]
    assert status == 0


def test_a_folder_of_adrkit_records_gets_no_hint(folder):
    status, out, _ = run(["migrate", "--from", "madr", "--rename"], folder)
    assert status == 0
    status, out, _ = run(["doctor"], folder)
    assert "read as MADR or Nygard" not in out and status == 0


MADR3_GOVERNING = ("---\nstatus: accepted\ndate: 2024-05-06\naffects:\n  - type: path\n"
                   "    pattern: src/db/**\n---\n# Use PostgreSQL for orders\n\n## Context\n\nOrders.\n")


@platforms.EXECUTABLE_BIT
def test_config_carries_from_madr_into_server_and_hook_entries(folder):
    adr = folder / "docs" / "adr"
    (adr / "0002-use-postgresql.md").write_bytes(MADR3_GOVERNING.encode("utf-8"))
    os.unlink(str(adr / "use-postgresql.md"))
    status, out, _ = run(["config", "claude-code", "--cwd", str(folder), "--from", "madr"], folder)
    args = json.loads(out)["mcpServers"]["adrkit"]["args"]
    assert status == 0 and args[-2:] == ["--from", "madr"]
    status, out, _ = run(["config", "claude-code", "--hook", "--cwd", str(folder)], folder,
                         env={"ADRKIT_MCP_FROM": "madr"})
    command = json.loads(out)["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    assert status == 0 and " --from madr " in command
    event = {"session_id": "s", "transcript_path": "", "cwd": str(folder), "hook_event_name": "PreToolUse",
             "tool_name": "Edit", "tool_input": {"file_path": str(folder / "src" / "db" / "pool.ts"),
                                                 "old_string": "", "new_string": ""}}
    environment = dict(os.environ, CLAUDE_PROJECT_DIR=str(folder))
    environment.pop("ADRKIT_MCP_FROM", None)
    before = tree(folder)
    answer = subprocess.run(["/bin/sh", "-c", command], input=json.dumps(event).encode("utf-8"),
                            cwd=str(folder), env=environment, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, timeout=120)
    assert answer.returncode == 0, answer.stderr
    context = json.loads(answer.stdout)["hookSpecificOutput"]["additionalContext"]
    assert 'ADR 0002 "Use PostgreSQL for orders" (accepted): it governs this file' in context
    assert tree(folder) == before  # the hook read the MADR source as migrated, and wrote nothing


def test_a_negative_zero_is_written_as_the_reference_writes_it():
    # zod hands -0 back as it was given and yaml writes it `-0`; the server's answers say 0.
    source = ('---\nid: "0005"\ntitle: Signed zero\nstatus: proposed\ndate: 2024-01-01\nevaluation:\n'
              '  confidence: -0.0\n  scores: {clarity: -0}\nreview:\n  tier: async\n  slaDays: -0\n---\n'
              '# Signed zero\n')
    texts = {}
    M.MadrImport.migrate([M.MadrImport.File("docs/adr/0005-record.md", "0005-record.md", False, source)],
                         ["0005-record.md"], False, lambda file, name: False,
                         lambda file, text, name: texts.__setitem__(file.path, text))
    written = texts["docs/adr/0005-record.md"]
    assert "\n  slaDays: -0\n" in written
    assert "\n    clarity: -0\n  confidence: -0\n" in written
    frontmatter, findings = M.validate_frontmatter(M.FrontmatterYaml.load(written.split("---\n")[1]))
    assert findings == [] and frontmatter["evaluation"]["confidence"] == 0
    assert json.dumps(frontmatter["evaluation"]["confidence"]) == "0"


# ---------------------------------------------------------------------------
# The adr-tools example of docs/existing-adrs.md (the README's "Already have ADRs" links it) is
# what the program prints
# ---------------------------------------------------------------------------

ADR_TOOLS = {  # three records as adr-tools writes them (`adr new -s 2 ...` for the third)
    "0001-record-architecture-decisions.md": (
        "# 1. Record architecture decisions\n\nDate: 2024-03-04\n\n## Status\n\nAccepted\n\n## Context\n\n"
        "We need to record the architectural decisions made on this project.\n\n## Decision\n\n"
        "We will use Architecture Decision Records, as [described by Michael Nygard]"
        "(http://thinkrelevance.com/blog/2011/11/15/documenting-architecture-decisions).\n\n"
        "## Consequences\n\nSee Michael Nygard's article, linked above. For a lightweight ADR toolset, "
        "see Nat Pryce's [adr-tools](https://github.com/npryce/adr-tools).\n"),
    "0002-use-mysql-for-orders.md": (
        "# 2. Use MySQL for orders\n\nDate: 2024-03-11\n\n## Status\n\n"
        "Superseded by [3. Use PostgreSQL for orders](0003-use-postgresql-for-orders.md)\n\n## Context\n\n"
        "The order service needs a relational store; the team knows MySQL.\n\n## Decision\n\n"
        "Orders live in MySQL 8.\n\n## Consequences\n\n"
        "Reporting queries that need window functions must wait for a later version.\n"),
    "0003-use-postgresql-for-orders.md": (
        "# 3. Use PostgreSQL for orders\n\nDate: 2024-05-20\n\n## Status\n\nAccepted\n\n"
        "Supersedes [2. Use MySQL for orders](0002-use-mysql-for-orders.md)\n\n## Context\n\n"
        "Reporting needs window functions and JSON queries; the MySQL setup cannot serve them well.\n"
        "Postgres is already run by the platform team.\n\n## Decision\n\nOrders move to PostgreSQL 16.\n\n"
        "## Consequences\n\nOne migration of the order tables; MySQL is retired for orders.\n"),
}


def readme_block_after(marker, fence):
    """The fenced block of kind `fence` that follows the block holding `marker` in
    docs/existing-adrs.md, the page the README's "Already have ADRs" section links."""
    with open(os.path.join(support.REPO_ROOT, "README.md"), encoding="utf-8") as handle:
        readme = handle.read()  # a reference-style link, defined at the end (tests/test_readme.py)
    assert "[docs/existing-adrs.md]." in readme
    assert "[docs/existing-adrs.md]: https://github.com/" in readme
    with open(os.path.join(support.REPO_ROOT, "docs", "existing-adrs.md"), encoding="utf-8") as handle:
        text = handle.read()
    section = text.index("# Already have ADRs")
    after = text.index("```\n", text.index(marker, section)) + 4  # past the block the marker is in
    start = text.index("```%s\n" % fence, after) + len(fence) + 4
    return text[start:text.index("```\n", start)]


def test_the_readme_adr_tools_example_is_what_the_program_prints(tmp_path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    adr = repo / "doc" / "adr"
    adr.mkdir(parents=True)
    for name, text in ADR_TOOLS.items():
        (adr / name).write_bytes(text.encode("utf-8"))
    status, out, err = run(["call", "search_decisions", '{"query": "postgres"}', "--cwd", str(repo),
                            "--dir", "doc/adr", "--from", "madr"], repo)
    assert (status, err) == (0, "")
    assert out == readme_block_after("call search_decisions '{\"query\": \"postgres\"}'", "json")
    status, out, err = run(["migrate", "--from", "madr", "--dir", "doc/adr", "--dry-run"], repo)
    assert (status, err) == (0, "")
    assert out == readme_block_after("migrate --from madr --dir doc/adr --dry-run", "")
