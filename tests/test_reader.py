"""The corpus reader: roots, discovery, size guard, frontmatter fences, bodies, races.

Every case runs against real files in a temporary repository root (a `.git`
directory, or a `.git` file as in a linked worktree) and calls the module in
process.  Expected strings come from the issue and the conformance pack
(tests/conformance/), never from the module's own tables.
"""

import os
import shutil

import pytest

import _platforms as platforms  # why a test cannot hold on a platform

import _support as support  # tests/ is on sys.path (pytest rootdir insertion)

M = support.M
record_text = support.record_text
all_findings = support.all_findings

TOOL_CALLS = [
    ("search_decisions", {"query": "decision"}),
    ("get_decision", {"ref": "0001"}),
    ("get_decision_context", {"files": ["src/app.ts"]}),
    ("list_superseded", {}),
]

# The nine corpus-unavailable reasons and their messages (issue 2; the four the
# pack records verbatim are dir-not-found, dir-not-directory, dir-outside-root
# and root-not-git).
UNAVAILABLE = {
    "root-not-found": "Configured repository root was not found.",
    "root-not-directory": "Configured repository root is not a directory.",
    "root-not-readable": "Configured repository root is not readable.",
    "root-not-git": "Configured repository root is not a Git worktree.",
    "dir-not-found": "Configured ADR directory was not found.",
    "dir-not-directory": "Configured ADR directory is not a directory.",
    "dir-not-readable": "Configured ADR directory is not readable.",
    "dir-outside-root": "Configured ADR directory resolves outside the repository root.",
    "corpus-changed-during-load": "Corpus changed while it was being loaded; retry the call.",
}

FENCE_MISSING = "ADR files must start with a leading --- YAML frontmatter fence"
FENCE_UNTERMINATED = "ADR frontmatter is missing its closing --- fence"
TOO_LARGE = "ADR source exceeds the 64 KiB maximum and was excluded from this response"


def unavailable_result(reason):
    """The exact CallToolResult of a corpus-unavailable outcome: no corpusHealth, no isError."""
    message = UNAVAILABLE[reason]
    return {
        "content": [{"type": "text", "text": message}],
        "structuredContent": {"result": {"outcome": "corpus-unavailable", "reason": reason,
                                         "message": message}},
    }


def assert_unavailable_everywhere(config, reason):
    for tool, arguments in TOOL_CALLS:
        assert M.call_tool(config, tool, dict(arguments)) == unavailable_result(reason), tool


def assert_startup_refused(root, adr_dir, reason):
    config = M.CorpusConfig(str(root), adr_dir)
    assert M.check_roots(config) == (reason, UNAVAILABLE[reason])
    assert_unavailable_everywhere(config, reason)
    with pytest.raises(M.CorpusUnavailable) as caught:
        M.resolve_canonical_roots(str(root), adr_dir)
    assert caught.value.reason == reason


def make_root(path, git=True, adr_dir="docs/adr"):
    os.makedirs(os.path.join(str(path), adr_dir))
    if git:
        os.makedirs(os.path.join(str(path), ".git"))
    return str(path)


# --------------------------------------------------------------------------- #
# Roots: the nine corpus-unavailable reasons

def test_unavailable_message_table_matches_the_contract():
    assert M.CORPUS_UNAVAILABLE_MESSAGES == UNAVAILABLE


def test_root_not_found(tmp_path):
    assert_startup_refused(tmp_path / "missing", "docs/adr", "root-not-found")


def test_root_below_a_file_is_not_readable(tmp_path):
    # realpath fails with ENOTDIR, not ENOENT: the reference maps every error but
    # ENOENT to root-not-readable (packages/mcp/src/corpus/projection.ts).
    (tmp_path / "plain").write_text("x")
    assert_startup_refused(tmp_path / "plain" / "repo", "docs/adr", "root-not-readable")


@platforms.SYMLINKS
def test_root_that_is_a_dangling_symlink_is_not_found(tmp_path):
    os.symlink(str(tmp_path / "nowhere"), str(tmp_path / "link"))
    assert_startup_refused(tmp_path / "link", "docs/adr", "root-not-found")


@platforms.SYMLINKS
def test_root_that_is_a_symlink_loop_is_not_readable(tmp_path):
    # ELOOP: unreadable for root too, so this case needs no privilege drop.
    os.symlink(str(tmp_path / "loop-b"), str(tmp_path / "loop-a"))
    os.symlink(str(tmp_path / "loop-a"), str(tmp_path / "loop-b"))
    assert_startup_refused(tmp_path / "loop-a", "docs/adr", "root-not-readable")


def test_root_not_directory(tmp_path):
    (tmp_path / "root-file").write_text("not a directory\n")
    assert_startup_refused(tmp_path / "root-file", "docs/adr", "root-not-directory")


def test_root_not_git(tmp_path):
    root = make_root(tmp_path / "repo", git=False)
    assert_startup_refused(root, "docs/adr", "root-not-git")


@platforms.SYMLINKS
def test_dangling_git_symlink_is_not_git(tmp_path):
    root = make_root(tmp_path / "repo", git=False)
    os.symlink(str(tmp_path / "gone"), os.path.join(root, ".git"))
    assert_startup_refused(root, "docs/adr", "root-not-git")


def test_git_directory_is_accepted(tmp_path):
    root = make_root(tmp_path / "repo")
    config = M.CorpusConfig(root, "docs/adr")
    assert config.expected_root is None
    assert M.check_roots(config) is None
    assert config.expected_root == os.path.realpath(root)


def test_git_file_of_a_linked_worktree_is_accepted(make_repo):
    repo = make_repo(git="file")
    assert os.path.isfile(repo.path(".git"))
    repo.record("0001-linked-worktree.md")
    assert repo.result("get_decision", ref="0001")["outcome"] == "found"


def _chmod_000_then(public_tmp, target_parts, check):
    root = make_root(os.path.join(public_tmp, "repo"))
    target = os.path.join(root, *target_parts)
    os.chmod(target, 0)
    try:
        return support.run_unprivileged(lambda: check(root))
    except support.Unavailable as reason:
        pytest.skip("running as root, where chmod 000 does not stop root: %s" % reason)
    finally:
        os.chmod(target, 0o755)


def _startup_and_call(root):
    config = M.CorpusConfig(root, "docs/adr")
    return M.check_roots(config), M.call_tool(config, "search_decisions", {"query": "x"})


@platforms.PERMISSIONS
def test_root_not_readable(public_tmp):
    # As root, chmod 000 is no obstacle: the check runs in a child that dropped to uid 65534.
    problem, result = _chmod_000_then(public_tmp, [], _startup_and_call)
    assert problem == ("root-not-readable", UNAVAILABLE["root-not-readable"])
    assert result == unavailable_result("root-not-readable")


@platforms.PERMISSIONS
def test_dir_not_readable(public_tmp):
    problem, result = _chmod_000_then(public_tmp, ["docs", "adr"], _startup_and_call)
    assert problem == ("dir-not-readable", UNAVAILABLE["dir-not-readable"])
    assert result == unavailable_result("dir-not-readable")


def test_dir_not_found(tmp_path):
    root = make_root(tmp_path / "repo")
    assert_startup_refused(root, "records", "dir-not-found")


def test_dir_below_a_file_is_not_readable(tmp_path):
    root = make_root(tmp_path / "repo", adr_dir="records")
    with open(os.path.join(root, "docs"), "w") as handle:
        handle.write("a plain file where a folder should be\n")
    assert_startup_refused(root, "docs/adr", "dir-not-readable")


@platforms.SYMLINKS
def test_dir_that_is_a_symlink_loop_is_not_readable(tmp_path):
    root = make_root(tmp_path / "repo", adr_dir="docs")
    os.symlink("loop", os.path.join(root, "docs", "adr"))
    os.symlink("adr", os.path.join(root, "docs", "loop"))
    assert_startup_refused(root, "docs/adr", "dir-not-readable")


def test_dir_not_directory(tmp_path):
    root = make_root(tmp_path / "repo")
    with open(os.path.join(root, "notes.txt"), "w") as handle:
        handle.write("a plain file\n")
    assert_startup_refused(root, "notes.txt", "dir-not-directory")


def test_dir_outside_root_via_dot_dot(tmp_path):
    root = make_root(tmp_path / "repo")
    os.makedirs(str(tmp_path / "elsewhere"))
    assert_startup_refused(root, "../elsewhere", "dir-outside-root")


@platforms.SYMLINKS
def test_dir_outside_root_via_symlink(tmp_path):
    root = make_root(tmp_path / "repo", adr_dir="docs")
    os.makedirs(str(tmp_path / "outside"))
    os.symlink(str(tmp_path / "outside"), os.path.join(root, "docs", "adr"))
    assert_startup_refused(root, "docs/adr", "dir-outside-root")


def test_dir_in_a_sibling_sharing_the_root_prefix_is_outside(tmp_path):
    # /x/repo-adr starts with the string /x/repo but is not inside it.
    root = make_root(tmp_path / "repo")
    os.makedirs(str(tmp_path / "repo-adr"))
    assert_startup_refused(root, "../repo-adr", "dir-outside-root")


def test_absolute_dir_outside_root(tmp_path):
    root = make_root(tmp_path / "repo")
    os.makedirs(str(tmp_path / "elsewhere"))
    assert_startup_refused(root, str(tmp_path / "elsewhere"), "dir-outside-root")


def test_dir_named_with_leading_dots_is_inside(make_repo):
    repo = make_repo(adr_dir="..adr")
    repo.record("0001-dotted.md")
    assert repo.result("get_decision", ref="0001")["decision"]["sourcePath"] == "..adr/0001-dotted.md"


def test_dir_may_be_the_root_itself(make_repo):
    repo = make_repo(adr_dir=".")
    repo.record("0001-at-the-root.md")
    assert repo.result("get_decision", ref="0001")["decision"]["sourcePath"] == "0001-at-the-root.md"


def test_absolute_dir_inside_root_is_accepted(make_repo):
    repo = make_repo()
    repo.record("0001-absolute.md")
    config = M.CorpusConfig(repo.root, repo.adr_path())
    assert M.check_roots(config) is None
    item = M.call_tool(config, "get_decision", {"ref": "0001"})["structuredContent"]["result"]
    assert item["decision"]["sourcePath"] == "docs/adr/0001-absolute.md"


def test_dir_that_climbs_out_and_back_in_is_accepted(make_repo):
    repo = make_repo()
    repo.record("0001-climb.md")
    config = M.CorpusConfig(repo.root, "../repo/docs/./adr")
    assert M.check_roots(config) is None
    assert M.call_tool(config, "get_decision", {"ref": "0001"})["structuredContent"]["result"][
        "outcome"] == "found"


@platforms.SYMLINKS
def test_symlinked_dir_inside_root_reports_its_real_location(make_repo):
    repo = make_repo(adr_dir="docs")
    os.makedirs(repo.path("real-adr"))
    with open(repo.path("real-adr", "0001-through-a-link.md"), "w") as handle:
        handle.write(record_text("0001", title="Reached through a symlinked folder"))
    os.symlink("../real-adr", repo.path("docs", "adr"))
    config = M.CorpusConfig(repo.root, "docs/adr")
    assert M.check_roots(config) is None
    found = M.call_tool(config, "get_decision", {"ref": "0001"})["structuredContent"]["result"]
    assert found["decision"]["sourcePath"] == "real-adr/0001-through-a-link.md"


@platforms.SYMLINKS
def test_source_paths_are_relative_to_the_canonical_root(tmp_path):
    real = make_root(tmp_path / "real-repo")
    with open(os.path.join(real, "docs", "adr", "0001-canonical.md"), "w") as handle:
        handle.write(record_text("0001"))
    os.symlink(real, str(tmp_path / "link-to-repo"))
    config = M.CorpusConfig(str(tmp_path / "link-to-repo"), "docs/adr")
    assert M.check_roots(config) is None
    assert config.expected_root == os.path.realpath(real)
    result = M.call_tool(config, "search_decisions", {"query": "body"})["structuredContent"]["result"]
    assert [item["sourcePath"] for item in result["items"]] == ["docs/adr/0001-canonical.md"]


# --------------------------------------------------------------------------- #
# Roots are checked again on every call

def test_dir_deleted_and_recreated_between_calls(repo):
    repo.record("0001-kept.md")
    assert repo.result("get_decision", ref="0001")["outcome"] == "found"
    shutil.rmtree(repo.adr_path())
    assert_unavailable_everywhere(repo.config, "dir-not-found")
    os.makedirs(repo.adr_path())
    empty = repo.structured("search_decisions", query="decision")
    assert empty["corpusHealth"]["recordCount"] == 0
    assert empty["result"]["items"] == []


def test_dir_replaced_by_a_file_between_calls(repo):
    repo.record("0001-kept.md")
    shutil.rmtree(repo.adr_path())
    with open(repo.adr_path(), "w") as handle:
        handle.write("not a directory\n")
    assert_unavailable_everywhere(repo.config, "dir-not-directory")


def test_git_removed_then_replaced_by_a_worktree_file(repo):
    repo.record("0001-kept.md")
    os.rmdir(repo.path(".git"))
    assert_unavailable_everywhere(repo.config, "root-not-git")
    with open(repo.path(".git"), "w") as handle:
        handle.write("gitdir: /somewhere/else/.git/worktrees/x\n")
    assert repo.result("get_decision", ref="0001")["outcome"] == "found"


@platforms.SYMLINKS
def test_dir_turned_into_symlinks_between_calls(repo, tmp_path):
    repo.record("0001-kept.md")
    shutil.rmtree(repo.adr_path())
    os.symlink("../..", repo.adr_path())  # docs/adr -> the folder holding the root
    assert_unavailable_everywhere(repo.config, "dir-outside-root")
    os.remove(repo.adr_path())
    os.makedirs(repo.path("real-adr"))
    with open(repo.path("real-adr", "0001-moved.md"), "w") as handle:
        handle.write(record_text("0001"))
    os.symlink("../real-adr", repo.adr_path())
    found = repo.result("get_decision", ref="0001")
    assert found["decision"]["sourcePath"] == "real-adr/0001-moved.md"


@platforms.SYMLINKS
def test_replaced_root_is_root_not_found(tmp_path):
    first = make_root(tmp_path / "first")
    second = make_root(tmp_path / "second")
    for root in (first, second):
        with open(os.path.join(root, "docs", "adr", "0001-same.md"), "w") as handle:
            handle.write(record_text("0001"))
    link = str(tmp_path / "current")
    os.symlink(first, link)
    config = M.CorpusConfig(link, "docs/adr")
    assert M.check_roots(config) is None
    assert M.call_tool(config, "get_decision", {"ref": "0001"})["structuredContent"]["result"][
        "outcome"] == "found"
    os.remove(link)
    os.symlink(second, link)  # same configured path, another canonical root
    assert_unavailable_everywhere(config, "root-not-found")
    os.remove(link)
    os.symlink(first, link)
    assert M.call_tool(config, "get_decision", {"ref": "0001"})["structuredContent"]["result"][
        "outcome"] == "found"


def test_root_deleted_between_calls(make_repo):
    repo = make_repo()
    repo.record("0001-kept.md")
    shutil.rmtree(repo.root)
    assert_unavailable_everywhere(repo.config, "root-not-found")


def test_input_validation_comes_before_availability(repo):
    shutil.rmtree(repo.adr_path())
    result = repo.call("search_decisions", query="   ")
    assert result["isError"] is True
    assert "structuredContent" not in result


def test_availability_comes_before_cursor_checks(repo):
    shutil.rmtree(repo.adr_path())
    assert repo.call("search_decisions", query="x", cursor="not-a-cursor") == \
        unavailable_result("dir-not-found")


# --------------------------------------------------------------------------- #
# A corpus that changes while it is being loaded

def _racing_stop(path, versions):
    """A should_stop that replaces `path` (new inode, new size) at every record boundary."""
    calls = []
    staging = path + ".staging"  # not named like a record, and only briefly there

    def should_stop():
        calls.append(None)
        with open(staging, "w") as handle:
            handle.write(versions[len(calls) % len(versions)])
        os.replace(staging, path)
        return False
    return should_stop, calls


def test_file_replaced_during_load_is_corpus_changed(repo):
    for number in (1, 2, 3):
        repo.record("%04d-record.md" % number, body="version zero\n")
    target = repo.adr_path("0001-record.md")
    versions = [record_text("0001", body="version one\n"),
                record_text("0001", body="version two, a little longer\n")]
    should_stop, calls = _racing_stop(target, versions)
    with pytest.raises(M.CorpusUnavailable) as caught:
        M.load_projection(repo.config, should_stop)
    assert caught.value.reason == "corpus-changed-during-load"
    assert len(calls) >= 2

    should_stop, _ = _racing_stop(target, versions)
    result = repo.call("search_decisions", {"query": "version"}, should_stop=should_stop)
    assert result == unavailable_result("corpus-changed-during-load")

    # The next call sees one consistent version: the last one written.
    last = repo.result("get_decision", ref="0001")["decision"]["body"]
    assert last in ("version one\n", "version two, a little longer\n")
    assert repo.result("get_decision", ref="0001")["decision"]["body"] == last


def test_file_rewritten_in_place_during_load_is_corpus_changed(repo):
    for number in (1, 2, 3):
        repo.record("%04d-record.md" % number)
    target = repo.adr_path("0001-record.md")
    calls = []

    def should_stop():
        calls.append(None)
        with open(target, "a") as handle:  # same inode, grows at every boundary
            handle.write("more\n")
        return False

    with pytest.raises(M.CorpusUnavailable) as caught:
        M.load_projection(repo.config, should_stop)
    assert caught.value.reason == "corpus-changed-during-load"


# --------------------------------------------------------------------------- #
# Discovery: which directory entries are candidates

def test_only_record_named_regular_files_are_read(repo):
    valid = record_text  # every non-record below would be a valid record if it were read
    repo.record("0600-plain-record.md")
    repo.record("00618-five-digit-prefix.md")
    repo.record("0617-caf\u00e9-menu.md")
    repo.write("0000-template.md", valid("0000"))
    for name in ("README.md", "index.md", "CONTRIBUTING.md", "template.md", "notes.md",
                 "061-three-digit-prefix.md", "0620_underscore-separator.md",
                 "0621-shouting-extension.MD", "0622-.md", "0623-markdown-extension.markdown",
                 ".0626-dotfile.md", "0629-scan.png", "0630-record.md.bak", "x0631-prefixed.md"):
        repo.write(name, valid("0699"))
    repo.write("drafts/0624-nested-record.md", valid("0624"))
    repo.write(".archive/0625-archived.md", valid("0625"))
    repo.write("0627-folder-named-like-a-record.md/0628-inside.md", valid("0628"))
    structured = repo.structured("search_decisions", query="body", limit=100, findingsLimit=100)
    ids = [item["id"] for item in structured["result"]["items"]]
    assert ids == ["00618", "0600", "0617"]
    assert structured["result"]["findings"]["items"] == []
    assert structured["corpusHealth"]["recordCount"] == 3
    assert structured["corpusHealth"]["excludedCount"] == 0
    paths = [item["sourcePath"] for item in structured["result"]["items"]]
    assert "docs/adr/0617-caf\u00e9-menu.md" in paths


@platforms.SYMLINKS
def test_symlinked_records_are_invisible(repo, tmp_path):
    repo.record("0600-plain-record.md")
    repo.write("drafts/README.md", "not a record\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "0630-escapee.md").write_text(record_text("0630"))
    os.symlink("0600-plain-record.md", repo.adr_path("0631-linked-record.md"))
    os.symlink("0699-missing.md", repo.adr_path("0632-dangling-link.md"))
    os.symlink(str(outside / "0630-escapee.md"), repo.adr_path("0633-outside-link.md"))
    os.symlink("drafts", repo.adr_path("0634-linked-folder.md"))
    structured = repo.structured("search_decisions", query="body", findingsLimit=100)
    assert [item["sourcePath"] for item in structured["result"]["items"]] == \
        ["docs/adr/0600-plain-record.md"]
    assert structured["result"]["findings"]["items"] == []  # no unique-id, no stat error
    assert structured["corpusHealth"]["recordCount"] == 1
    assert structured["corpusHealth"]["excludedCount"] == 0
    assert repo.result("get_decision", ref="0600")["outcome"] == "found"
    assert repo.result("get_decision", ref="0630")["outcome"] == "not-found"


def test_other_non_regular_entries_are_invisible(repo):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    repo.record("0001-real.md")
    os.mkfifo(repo.adr_path("0002-a-pipe.md"))  # reading it would block forever
    structured = repo.structured("search_decisions", query="body", findingsLimit=100)
    assert [item["id"] for item in structured["result"]["items"]] == ["0001"]
    assert structured["result"]["findings"]["items"] == []
    assert structured["corpusHealth"]["excludedCount"] == 0


@platforms.PERMISSIONS
def test_unreadable_candidate_is_a_file_read_finding(public_tmp):
    # The reference stats the file (fine), keeps it, then fails to read it:
    # lintCorpus reports that as file-read, not record-stat-error.
    repo = support.Repo(os.path.join(public_tmp, "repo"))
    repo.record("0001-readable.md")
    locked = repo.record("0002-locked.md")
    os.chmod(locked, 0)

    def call():
        return M.call_tool(repo.config, "search_decisions", {"query": "body", "findingsLimit": 100})

    call()  # warm-up as the current user: every lazy import happens before the privilege drop
    try:
        result = support.run_unprivileged(call)
    except support.Unavailable as reason:
        pytest.skip("running as root, where chmod 000 does not stop root: %s" % reason)
    structured = result["structuredContent"]
    assert [item["id"] for item in structured["result"]["items"]] == ["0001"]
    assert [support.strip_message(f) for f in structured["result"]["findings"]["items"]] == [
        {"rule": "file-read", "severity": "error", "path": "docs/adr/0002-locked.md"}]
    assert structured["corpusHealth"]["recordCount"] == 1
    assert structured["corpusHealth"]["excludedCount"] == 1


def test_excluded_count_is_candidates_minus_records(repo):
    repo.record("0001-valid.md")
    repo.record("0002-shared-id.md", ident="0002")
    repo.record("0003-shared-id.md", ident="0002")  # duplicates stay records
    repo.write("0004-broken-fence.md", "no fence here\n")
    repo.write("0005-too-large.md", "x" * (64 * 1024 + 1))
    repo.record("0006-invalid-status.md", status="approved")
    repo.write("README.md", "not a candidate\n")
    health = repo.structured("list_superseded")["corpusHealth"]
    assert health["recordCount"] == 3
    assert health["excludedCount"] == 3
    findings = all_findings(repo)
    assert sorted(support.rules_of(findings)) == sorted(
        ["frontmatter-fence", "record-too-large", "invalid-enum-value", "unique-id", "unique-id"])


def test_empty_folder(repo):
    structured = repo.structured("search_decisions", query="anything")
    assert structured["corpusHealth"]["recordCount"] == 0
    assert structured["corpusHealth"]["excludedCount"] == 0
    assert structured["result"] == {"outcome": "results", "items": [], "cursor": None,
                                    "findings": {"items": [], "cursor": None}}


# --------------------------------------------------------------------------- #
# The 64 KiB guard counts bytes and never reads an oversized file

def _sized_record(ident, size, filler):
    """A valid record of exactly `size` bytes, its body padded with `filler` (ASCII or not)."""
    head = record_text(ident, body="").encode("utf-8")
    unit = filler.encode("utf-8")
    room = size - len(head)
    body = unit * (room // len(unit))
    body += b"x" * (room - len(body))
    data = head + body
    assert len(data) == size
    return data


@pytest.mark.parametrize("filler", ["x", "\u00dc"], ids=["ascii", "two-byte"])
def test_size_guard_is_65536_bytes(repo, filler):
    repo.write("0608-at-size-limit.md", _sized_record("0608", 65536, filler))
    repo.write("0609-over-size-limit.md", _sized_record("0609", 65537, filler))
    if filler != "x":  # fewer than 65,536 characters, yet too large: the guard counts bytes
        assert len(_sized_record("0609", 65537, filler).decode("utf-8")) < 65536
    structured = repo.structured("search_decisions", query="decision", findingsLimit=100)
    assert [item["id"] for item in structured["result"]["items"]] == ["0608"]
    assert structured["result"]["findings"]["items"] == [
        {"rule": "record-too-large", "severity": "error", "path": "docs/adr/0609-over-size-limit.md",
         "message": TOO_LARGE}]
    assert structured["corpusHealth"] == {
        "fingerprint": structured["corpusHealth"]["fingerprint"], "recordCount": 1, "excludedCount": 1}
    assert repo.result("get_decision", ref="0609")["outcome"] == "not-found"
    body = repo.result("get_decision", ref="0608")["decision"]["body"]
    assert len(body.encode("utf-8")) == 65536 - len(record_text("0608", body="").encode("utf-8"))


def test_oversized_file_is_never_parsed_nor_truncated(repo):
    # Its first 64 KiB are a valid record; a truncating reader would find it.
    repo.write("0610-valid-prefix.md", _sized_record("0610", 65536, "x") + b"y")
    # No fence at all; a reader that parsed it would add a frontmatter-fence finding.
    repo.write("0611-garbage.md", b"\xff" * 90000)
    findings = all_findings(repo)
    assert [(f["rule"], f["path"]) for f in findings] == [
        ("record-too-large", "docs/adr/0610-valid-prefix.md"),
        ("record-too-large", "docs/adr/0611-garbage.md")]
    assert repo.result("get_decision", ref="0610")["outcome"] == "not-found"


def test_only_oversized_records(repo):
    repo.write("0900-huge.md", _sized_record("0900", 70000, "x"))
    structured = repo.structured("list_superseded")
    assert structured["corpusHealth"]["recordCount"] == 0
    assert structured["corpusHealth"]["excludedCount"] == 1
    assert support.rules_of(structured["result"]["findings"]["items"]) == ["record-too-large"]


# --------------------------------------------------------------------------- #
# Frontmatter fences

@pytest.mark.parametrize("source, yaml_lines, body", [
    ("---\nid: x\n---\nbody\n", ["id: x"], "body\n"),
    ("---\r\nid: x\r\n---\r\nbody\r\n", ["id: x"], "body\r\n"),
    ("---\nid: x\n---", ["id: x"], ""),
    ("---\nid: x\n---\r\nbody", ["id: x"], "body"),
    ("---\n---\n", [], ""),
    ("---\nid: x\n----\n---\nafter\n", ["id: x", "----"], "after\n"),
    ("---\nid: x\n ---\n---\nafter\n", ["id: x", " ---"], "after\n"),
    ("---\nid: x\n--- \n---\nafter\n", ["id: x", "--- "], "after\n"),
    ("---\nid: x\n---\nA\n---\nB\n\n---\n", ["id: x"], "A\n---\nB\n\n---\n"),
], ids=["lf", "crlf", "closing-fence-at-eof", "cr-only-on-closing-fence", "empty-block",
        "four-dashes-are-not-a-fence", "indented-fence-is-not-a-fence",
        "trailing-space-is-not-a-fence", "fence-lines-in-body"])
def test_split_frontmatter(source, yaml_lines, body):
    yaml_text, rest = M.split_frontmatter(source)
    assert yaml_text.splitlines() == yaml_lines
    assert rest == body


@pytest.mark.parametrize("source, message", [
    ("id: x\n---\n", FENCE_MISSING),
    ("\ufeff---\nid: x\n---\n", FENCE_MISSING),
    ("\n---\nid: x\n---\n", FENCE_MISSING),
    ("--- \nid: x\n---\n", FENCE_MISSING),
    (" ---\nid: x\n---\n", FENCE_MISSING),
    ("----\nid: x\n---\n", FENCE_MISSING),
    ("", FENCE_MISSING),
    ("---\nid: x\n", FENCE_UNTERMINATED),
    ("---", FENCE_UNTERMINATED),
    ("---\n", FENCE_UNTERMINATED),
    ("---\nid: x\n----\n", FENCE_UNTERMINATED),
], ids=["no-opening-fence", "bom-before-fence", "leading-blank-line", "trailing-space",
        "indented", "four-dashes", "empty-file", "unterminated", "only-dashes",
        "only-a-fence-line", "four-dash-closing"])
def test_split_frontmatter_rejects(source, message):
    with pytest.raises(M.FenceError) as caught:
        M.split_frontmatter(source)
    assert str(caught.value) == message


def test_fence_errors_become_findings(repo):
    repo.write("0303-missing-opening-fence.md", "id: \"0303\"\n---\nbody\n")
    repo.write("0304-unterminated-fence.md", "---\nid: \"0304\"\ntitle: Never closed\n")
    repo.write("0305-only-a-fence.md", "---")
    repo.write("0602-bom-prefixed.md", b"\xef\xbb\xbf" + record_text("0602").encode("utf-8"))
    repo.write("0603-bom-and-crlf.md",
               b"\xef\xbb\xbf" + record_text("0603", newline="\r\n").encode("utf-8"))
    repo.write("0613-fence-with-trailing-space.md", record_text("0613").replace("---", "--- ", 1))
    repo.write("0616-leading-blank-line.md", "\n" + record_text("0616"))
    findings = all_findings(repo)
    expected = [(path, FENCE_MISSING) for path in (
        "0303-missing-opening-fence.md", "0602-bom-prefixed.md", "0603-bom-and-crlf.md",
        "0613-fence-with-trailing-space.md", "0616-leading-blank-line.md")]
    expected += [(path, FENCE_UNTERMINATED) for path in (
        "0304-unterminated-fence.md", "0305-only-a-fence.md")]
    expected.sort(key=lambda pair: pair[0])
    assert findings == [{"rule": "frontmatter-fence", "severity": "error", "message": message,
                         "path": "docs/adr/" + path, "field": "frontmatter"}
                        for path, message in expected]
    health = repo.structured("list_superseded")["corpusHealth"]
    assert (health["recordCount"], health["excludedCount"]) == (0, 7)


def test_four_dash_line_inside_the_block_is_yaml(repo):
    repo.write("0615-four-dash-line.md", record_text("0615", extra="----\nstill frontmatter?\n"))
    findings = all_findings(repo)
    assert [strip for strip in map(support.strip_message, findings)] == [
        {"rule": "frontmatter-parse", "severity": "error", "path": "docs/adr/0615-four-dash-line.md",
         "field": "frontmatter"}]


# --------------------------------------------------------------------------- #
# Bodies are returned byte for byte

@pytest.mark.parametrize("raw, body", [
    (record_text("0001", body="Written on Windows.\nEvery line ends in CRLF.\n", newline="\r\n"),
     "Written on Windows.\r\nEvery line ends in CRLF.\r\n"),
    (record_text("0001", body="Section one.\n---\nSection two.\n\n---\n\n--- not a fence\n"),
     "Section one.\n---\nSection two.\n\n---\n\n--- not a fence\n"),
    (record_text("0001", body="line one\r\nline two\nline three\rstill three\n"),
     "line one\r\nline two\nline three\rstill three\n"),
    (record_text("0001", body=""), ""),
    (record_text("0001", body="Last line"), "Last line"),
    (record_text("0001", body="").rstrip("\n"), ""),
    (record_text("0001", body="\n\n  indented\n\n"), "\n\n  indented\n\n"),
    (record_text("0001", body="```yaml\n---\nphase: 3\n---\n```\n"), "```yaml\n---\nphase: 3\n---\n```\n"),
], ids=["crlf", "fence-lines", "mixed-and-lone-cr", "empty", "no-final-newline",
        "closing-fence-at-eof", "blank-lines", "fenced-yaml"])
def test_body_is_byte_for_byte(repo, raw, body):
    repo.write("0001-body.md", raw)
    decision = repo.result("get_decision", ref="0001")["decision"]
    assert decision["body"] == body


def test_crlf_only_on_the_closing_fence(repo):
    repo.write("0614-crlf-closing-fence-only.md", record_text("0614").replace("\n---\n", "\n---\r\n", 1))
    assert repo.result("get_decision", ref="0614")["decision"]["body"] == "Body text.\n"


def test_invalid_utf8_in_the_body_is_replaced(repo):
    # The bytes of the pack's 0611-invalid-utf8.md, decoded as a WHATWG decoder does.
    body = b"bad bytes: \xff | \xc3( | \xe2\x82 | \xf0\x9f\x98 | \xed\xa0\x80 end\n"
    repo.write("0611-invalid-utf8.md", record_text("0611", body="").encode("utf-8") + body)
    decision = repo.result("get_decision", ref="0611")["decision"]
    assert decision["body"] == ("bad bytes: \ufffd | \ufffd( | \ufffd | \ufffd | "
                                "\ufffd\ufffd\ufffd end\n")


def test_a_changed_file_is_seen_on_the_very_next_call(repo):
    repo.record("0001-change.md", body="before\n")
    assert repo.result("get_decision", ref="0001")["decision"]["body"] == "before\n"
    repo.record("0001-change.md", body="after, and longer\n")
    assert repo.result("get_decision", ref="0001")["decision"]["body"] == "after, and longer\n"
    os.remove(repo.adr_path("0001-change.md"))
    assert repo.result("get_decision", ref="0001")["outcome"] == "not-found"
    repo.record("0001-change.md", body="back\n")
    assert repo.result("get_decision", ref="0001")["decision"]["body"] == "back\n"


def test_a_corpus_of_broken_files_still_answers(repo):
    repo.write("0001-a.md", b"\x00\x01\x02")
    repo.write("0002-b.md", "---\n: : :\n---\n")
    repo.write("0003-c.md", "---\n- a list\n---\n")
    repo.write("0004-d.md", "---\nid: [unclosed\n---\n")
    repo.write("0005-e.md", "---\n*alias\n---\n")
    repo.write("0006-f.md", "---\nid: \"0006\"\nid: \"0006\"\n---\n")
    repo.write("0007-g.md", "---\n\t- tab\n---\n")
    repo.write("0008-h.md", "---\n: [\n---\n")
    for tool, arguments in TOOL_CALLS:
        structured = repo.structured(tool, dict(arguments, findingsLimit=100))
        assert structured["corpusHealth"]["recordCount"] == 0
        assert structured["corpusHealth"]["excludedCount"] == 8
        paths = {finding.get("path") for finding in structured["result"]["findings"]["items"]}
        assert paths == {"docs/adr/000%d-%s.md" % (n, "abcdefgh"[n - 1]) for n in range(1, 9)}


def test_deeply_nested_yaml_is_a_finding_not_a_crash(repo):
    # A pure-Python recursive YAML parser hits RecursionError here; that must
    # still end as a finding for the file, never as an exception of the call.
    repo.write("0001-unterminated.md", "---\n" + "[" * 1200 + "\n---\n")
    repo.write("0002-terminated.md", "---\n" + "[" * 1200 + "]" * 1200 + "\n---\n")
    repo.record("0003-fine.md")
    structured = repo.structured("search_decisions", query="body", findingsLimit=100)
    assert [item["id"] for item in structured["result"]["items"]] == ["0003"]
    findings = structured["result"]["findings"]["items"]
    assert {finding["path"] for finding in findings} == {
        "docs/adr/0001-unterminated.md", "docs/adr/0002-terminated.md"}
    assert [f["rule"] for f in findings if f["path"].endswith("0001-unterminated.md")] == \
        ["frontmatter-parse"]


# --------------------------------------------------------------------------- #
# Cancellation

@pytest.mark.parametrize("tool, arguments", TOOL_CALLS, ids=[tool for tool, _ in TOOL_CALLS])
def test_should_stop_cancels_the_call(repo, tool, arguments):
    repo.record("0001-one.md")
    repo.record("0002-two.md")
    with pytest.raises(M.CallCancelled):
        repo.call(tool, dict(arguments), should_stop=lambda: True)


def test_should_stop_cancels_the_load(repo):
    repo.record("0001-one.md")
    with pytest.raises(M.CallCancelled):
        M.load_projection(repo.config, lambda: True)


def test_cancellation_at_a_later_record_boundary(repo):
    for number in range(1, 6):
        repo.record("%04d-record.md" % number)
    calls = []

    def should_stop():
        calls.append(None)
        return len(calls) >= 3

    with pytest.raises(M.CallCancelled):
        repo.call("search_decisions", {"query": "body"}, should_stop=should_stop)
    assert len(calls) == 3
    assert repo.result("search_decisions", query="body")["items"]  # nothing left behind
