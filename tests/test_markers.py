"""The markers reader (`read_source_markers`, the Reader section's door to `@adr` markers).

Each case of tests/_marker_cases.py is scanned and compared with what the reference's
readSourceMarkers answered for it (tests/data/marker-scans.json, recorded by
tools/record_marker_scans.py): states, markers, truncation and the measured extent. Then what
the recording cannot hold: files and folders the user may not read (as an unprivileged user),
a FIFO that must not hang, the bound on what is read, and check's cap on the batch.
"""

import json
import os
import subprocess
import sys

import pytest

import _marker_cases
import _support as support
from _support import M

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "data", "marker-scans.json"), encoding="utf-8") as _handle:
    RECORDED = json.load(_handle)["scans"]


def as_reference(scan):
    """A MarkerScan in the reference's SourceMarkerScan shape."""
    shown = {"path": scan.path, "state": scan.state, "markers": scan.markers, "truncated": scan.truncated}
    if scan.scanned_bytes is not None:
        shown["scannedBytes"] = scan.scanned_bytes
    if scan.file_bytes is not None:
        shown["fileBytes"] = scan.file_bytes
    return shown


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("markers"))
    return root, _marker_cases.build(root)


def test_every_recorded_case_is_read_as_the_reference_reads_it(tree):
    root, paths = tree
    expected = {json.dumps(scan["path"]): scan for scan in RECORDED}
    seen = 0
    for path in paths:
        ours = json.loads(json.dumps(as_reference(M.read_source_markers(root, path))).replace(root, "<ROOT>"))
        key = json.dumps(ours["path"])
        if key not in expected:  # only the platform-dependent cases can be missing here
            assert not hasattr(os, "mkfifo") or os.sep != "/", path
            continue
        assert ours == expected[key], path
        seen += 1
    assert seen >= 270  # 289 here; a few fewer where symlinks, FIFOs or backslash names cannot be made


def test_the_cases_cover_every_state_and_both_truncation_answers():
    states = {scan["state"] for scan in RECORDED}
    assert states == set(M.MARKER_STATES)
    assert {scan["truncated"] for scan in RECORDED} == {True, False}
    assert any(scan.get("scannedBytes") == 0 and scan["truncated"] for scan in RECORDED)


def test_the_batch_sorts_dedupes_and_caps(tree, monkeypatch):
    root, _ = tree
    monkeypatch.setattr(M, "MARKER_SCAN_FILE_CAP", 2)
    batch = M.read_source_markers_batch(root, ["s/style01.ts", "./s/style00.ts", "s/style00.ts", "s/B.ts", "s/a.ts"])
    assert [scan.path for scan in batch.scans] == ["s/B.ts", "s/a.ts"]
    assert batch.skipped == ["s/style00.ts", "s/style01.ts"]
    assert (batch.limit, batch.total) == (2, 4)


def test_no_more_than_the_window_and_one_byte_is_read(tree, monkeypatch):
    root, _ = tree
    wanted = []
    real_read = os.read

    def counting_read(fd, size):
        wanted.append(size)
        return real_read(fd, size)
    monkeypatch.setattr(M.os, "read", counting_read)
    scan = M.read_source_markers(root, "s/size100000.ts")
    assert scan.truncated and scan.file_bytes == 100000
    assert sum(wanted) <= M.MARKER_WINDOW_BYTES + 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_without_a_writer_does_not_hang(tmp_path):
    os.mkfifo(str(tmp_path / "pipe"))
    os.symlink("pipe", str(tmp_path / "pipe-link"))
    scans = support.hang_guard(lambda: [M.read_source_markers(str(tmp_path), name) for name in ("pipe", "pipe-link")],
                               10, "scanning a FIFO")
    assert [scan.state for scan in scans] == ["unreadable", "unreadable"]


def _unreadable_cases(root):
    return [(scan.path, scan.state) for scan in
            (M.read_source_markers(root, path) for path in ("s/noperm.ts", "locked/f.ts", "locked/gone.ts", "s/ok.ts"))]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the permission cases need a POSIX user")
def test_files_and_folders_the_user_may_not_read_are_unreadable(public_tmp):
    root = os.path.join(public_tmp, "tree")
    for name in ("s/noperm.ts", "locked/f.ts", "s/ok.ts"):
        os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
        with open(os.path.join(root, name), "w") as handle:
            handle.write("// @adr 0001\n")
    os.chmod(os.path.join(root, "s", "noperm.ts"), 0)
    os.chmod(os.path.join(root, "locked"), 0)
    try:
        answers = support.run_unprivileged(lambda: _unreadable_cases(root))
    except support.Unavailable as reason:
        pytest.skip(str(reason))
    finally:
        os.chmod(os.path.join(root, "locked"), 0o755)
    # What the reference answers as uid 65534 on the same tree (bun, @adrkit/core 0.8.0).
    assert answers == [("s/noperm.ts", "unreadable"), ("locked/f.ts", "unreadable"),
                       ("locked/gone.ts", "unreadable"), ("s/ok.ts", "scanned")]


def test_a_root_that_does_not_exist_leaves_every_path_absent(tmp_path):
    scan = M.read_source_markers(str(tmp_path / "gone"), "a.ts")
    assert (scan.path, scan.state, scan.markers, scan.scanned_bytes) == ("a.ts", "absent", [], None)


def test_the_grammar_as_text():
    markers = M.scan_marker_text("#!/bin/sh\n# @adr 0001, team:0002 and more\n", "run.sh")
    assert markers == [{"path": "run.sh", "ref": "0001", "id": "0001", "line": 2},
                       {"path": "run.sh", "ref": "team:0002", "id": "0002", "log": "team", "line": 2}]
    assert M.scan_marker_text("# @adr 0001\n", "README.md") == []
    assert M.scan_marker_text("// @adr 0001\n// @adr 00123", "a.ts", truncated=True)[-1]["ref"] == "0001"


# --- --markers: get_decision_context, the context prompt and the hook (ADR 0020) -------------

def _marked_repo(make_repo):
    repo = make_repo()
    repo.record("0001-sync.md", status="accepted", extra='deciders: ["@a"]\naffects:\n'
                '  - type: path\n    pattern: "src/**"\n')
    repo.record("0002-queue.md", status="proposed")
    repo.record("0003-old.md", status="superseded", extra='supersededBy: "0001"\n')
    os.makedirs(repo.path("src"))
    with open(repo.path("src", "sync.ts"), "w") as handle:
        handle.write("// @adr 0002, 0009\n# @adr payments:0001\n// @adr 0001\n")
    with open(repo.path("tool.py"), "w") as handle:
        handle.write("#!/usr/bin/env python3\n# @adr 0003\n" + "x = 1\n" * 2000 + "# @adr 0002\n")
    return repo


def _markers_on(repo):
    repo.config = M.CorpusConfig(repo.root, repo.adr_dir, markers=True)
    return repo


def test_without_markers_the_answer_has_no_declarations(make_repo):
    repo = _marked_repo(make_repo)
    result = repo.result("get_decision_context", files=["src/sync.ts", "tool.py"])
    assert [entry["id"] for entry in result["governing"]] == ["0001"]
    assert result["activeProposals"] == result["history"] == []
    assert "declaredBy" not in json.dumps(result) and "marker" not in json.dumps(result)


def test_with_markers_declared_decisions_join_with_declaredBy(make_repo):
    repo = _markers_on(_marked_repo(make_repo))
    result = repo.result("get_decision_context", files=["src/sync.ts", "tool.py", "gone.ts"])
    governing, = result["governing"]
    assert list(governing) == ["id", "title", "status", "sourcePath", "firedMatchers", "declaredBy", "relations"]
    assert governing["firedMatchers"] == [{"type": "path", "pattern": "src/**"}]
    assert governing["declaredBy"] == [{"path": "src/sync.ts", "line": 3, "ref": "0001"}]
    proposal, = result["activeProposals"]
    assert (proposal["id"], proposal["firedMatchers"]) == ("0002", [])
    assert proposal["declaredBy"] == [{"path": "src/sync.ts", "line": 1, "ref": "0002"}]  # tool.py's is past the window
    old, = result["history"]
    assert old["declaredBy"] == [{"path": "tool.py", "line": 2, "ref": "0003"}]
    rules = [(item["rule"], item["pattern"]) for item in result["findings"]["items"]]
    assert rules == [("dangling-marker", "0009"), ("marker-unresolvable", "payments:0001")]


def test_a_kept_scan_is_reused_only_while_the_stat_proves_the_file_unchanged(make_repo, monkeypatch):
    """--markers keeps each file's scan between calls and reuses it while the file's stat identity
    is the one kept (ADR 0010's rule; here every file counts as settled, as an old one would): an
    unchanged file is not opened again, a file replaced with other bytes and the same size and
    mtime is read afresh."""
    repo = _markers_on(_marked_repo(make_repo))
    monkeypatch.setattr(M, "RACY_WINDOW_NS", -10 ** 15)  # every file settled, however recent
    reads = []
    real_window = M._read_marker_window

    def counting_window(candidate):
        reads.append(os.path.basename(candidate))
        return real_window(candidate)
    monkeypatch.setattr(M, "_read_marker_window", counting_window)

    def declared():
        result = repo.result("get_decision_context", files=["src/sync.ts"])
        return sorted((entry["id"], entry["declaredBy"][0]["line"]) for bucket in ("governing", "activeProposals",
                      "history") for entry in result[bucket] if "declaredBy" in entry)
    assert declared() == [("0001", 3), ("0002", 1)] and reads == ["sync.ts"]
    assert declared() == [("0001", 3), ("0002", 1)] and reads == ["sync.ts"]  # kept: not opened again
    path = repo.path("src", "sync.ts")
    before = os.stat(path)
    with open(path + ".new", "w") as handle:
        handle.write("// @adr 0003, 0009\n# @adr payments:0001\n// @adr 0001\n")  # the same size
    os.utime(path + ".new", ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(path + ".new", path)
    assert os.stat(path).st_size == before.st_size and os.stat(path).st_mtime_ns == before.st_mtime_ns
    assert declared() == [("0001", 3), ("0003", 1)] and reads == ["sync.ts", "sync.ts"]


def test_the_context_prompt_says_where_a_decision_is_declared(make_repo):
    repo = _markers_on(_marked_repo(make_repo))
    request = {"name": "adr-context", "files": ["src/sync.ts"], M.MARKERS_ARGUMENT: repo.root}
    text = M.render_prompt(repo.projection(), request, repo.adr_dir)["messages"][0]["content"]["text"]
    assert "; matched by path src/**; declared by src/sync.ts:3 (@adr 0001)" in text
    assert '"Queue"' not in text and "declared by src/sync.ts:1 (@adr 0002)" in text
    plain = dict(request)
    del plain[M.MARKERS_ARGUMENT]
    assert "declared by" not in M.render_prompt(repo.projection(), plain, repo.adr_dir)["messages"][0]["content"]["text"]


def test_the_hook_with_markers_names_the_declared_decision(make_repo):
    repo = _marked_repo(make_repo)
    event = {"session_id": "s", "transcript_path": "/t", "cwd": repo.root, "permission_mode": "default",
             "hook_event_name": "PreToolUse", "tool_name": "Edit",
             "tool_input": {"file_path": repo.path("tool.py"), "old_string": "a", "new_string": "b",
                            "replace_all": False}, "tool_use_id": "toolu_1"}
    env = {key: value for key, value in os.environ.items() if not key.startswith("ADRKIT_MCP_")}

    def run(*flags, **extra):
        return subprocess.run([sys.executable, support.MODULE_PATH, "hook", "--cwd", repo.root] + list(flags),
                              input=json.dumps(event).encode(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              env=dict(env, **extra), timeout=120)
    off, on, by_env = run(), run("--markers"), run(ADRKIT_MCP_MARKERS="1")
    assert off.returncode == on.returncode == by_env.returncode == 0, (off.stderr, on.stderr)
    assert off.stdout == b""  # nothing governs tool.py by a pattern
    context = json.loads(on.stdout)["hookSpecificOutput"]["additionalContext"]
    assert 'ADR 0003 "A decision worth keeping" (superseded)' in context
    assert on.stdout == by_env.stdout
    bad = run(ADRKIT_MCP_MARKERS="maybe")
    # A hook never stops the agent: exit 0, nothing on stdout, the complaint on stderr.
    assert bad.returncode == 0 and bad.stdout == b"" and b"ADRKIT_MCP_MARKERS takes 1, true" in bad.stderr


def test_config_carries_markers_into_server_and_hook_entries(make_repo):
    repo = make_repo()
    with support.working_directory():
        status, out, _ = support.run_main(["config", "claude-code", "--cwd", repo.root, "--markers"], repo.root)
        assert status == 0 and '"--markers"' in out
        status, out, _ = support.run_main(["config", "claude-code", "--hook", "--cwd", repo.root, "--markers"],
                                          repo.root)
        assert status == 0 and "--markers" in out
        status, out, _ = support.run_main(["config", "claude-code", "--cwd", repo.root], repo.root,
                                          hidden=("ADRKIT_MCP_MARKERS",))
        assert status == 0 and "--markers" not in out


def test_doctor_counts_declaring_files_and_dangling_markers(make_repo):
    repo = _marked_repo(make_repo)
    with support.working_directory():
        status, out, _ = support.run_main(["doctor", "--cwd", repo.root], repo.root, hidden=("ADRKIT_MCP_MARKERS",))
    assert "ok    2 of the first " in out and "declare 5 @adr markers" in out
    assert "note  1 dangling (no record has the id): src/sync.ts:1 @adr 0009" in out
    assert "give their entries --markers" in out


def test_check_outcome_is_what_check_json_prints(make_repo):
    repo = _marked_repo(make_repo)
    files = ["src/sync.ts", "tool.py", "gone.ts", "../out.ts", "docs/adr/0002-queue.md"]
    with support.working_directory():
        status, out, err = support.run_main(["check", "--json", "--cwd", repo.root] + files, repo.root)
    assert (status, err) == (0, "")
    outcome = M.check_outcome(repo.root, "docs/adr", files)
    assert M.JS.json(outcome) + "\n" == out
    assert [decision["recordId"] for decision in outcome["governedBy"]] == ["0001", "0002", "0003"]
    assert outcome["markerScan"]["counts"] == {"scanned": 3, "absent": 1, "unreadable": 0, "out-of-tree": 1,
                                               "truncated": 1, "skipped": 0}


def test_the_marker_line_shortcut_visits_the_lines_a_full_split_would():
    import random
    import re
    rng = random.Random(30)
    pieces = ["// @adr 0001", "x", "@adr", "\n", "\r", "\r\n", " ", "# @adr 0002, 0003", "\ufeff", "@ad", "r"]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        full = [(index, line) for index, line in enumerate(re.split("\r\n|[\r\n]", text)) if "@adr" in line]
        assert list(M._marker_lines(text)) == full, repr(text)
