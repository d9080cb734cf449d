"""Containment (issue 6, part 3): never a byte read from outside the ADR folder.

Every case plants a canary -- valid records whose ids, titles and bodies
carry a unique string -- outside the ADR folder (outside the repository, or
inside the repository but outside the folder) and reaches for it: a
symlinked ADR folder, symlinked records, ``..`` and absolute ``--dir``
values, a record replaced by a symlink (or a FIFO) between discovery and
read, the ADR folder or the root swapped in the middle of a call.  Each case
checks the outcome the contract promises, that the canary appears in no
answer, and -- for in-process calls -- that no file descriptor the reader
opened resolves to anything outside the canonical ADR folder (``FdSpy``
wraps the module's ``os`` and records ``/proc/self/fd/N`` of every
descriptor it opens).

The swaps happen at an exact moment through the ``should_stop`` callback,
which ``load_projection`` and ``call_tool`` call at every record boundary.
The module under test is ``$ADRKIT_MCP_MODULE`` when set (see _support).
"""

import os
import shutil
import stat
import subprocess
import threading

import pytest

import _platforms as platforms  # why a test cannot hold on a platform

import _support as support  # tests/ is on sys.path (pytest rootdir insertion)
import _session as wire
from _containment import (CALLS, CANARY, LINUX_FDS, SPY_MODES, FdSpy, assert_no_canary,
                          assert_reads_contained, call_all, plant, replace_with_symlink, sources,
                          swap_once, unavailable)

M = support.M
record_text = support.record_text

@pytest.fixture(params=SPY_MODES)
def spy(monkeypatch, request):
    if not LINUX_FDS:
        pytest.skip("needs /proc/self/fd to resolve descriptors")
    recorder = FdSpy(request.param)
    monkeypatch.setattr(M, "os", recorder)
    return recorder


@pytest.fixture
def world(tmp_path):
    """A repository with one record, and canaries outside it and inside it but outside docs/adr."""
    repo = support.Repo(tmp_path / "repo")
    repo.record("0001-inside.md", title="Inside the fence", body="inside\n")
    outside = str(tmp_path / "outside")
    plant(outside)
    plant(repo.path("elsewhere"), first=7101)  # inside the root, outside the ADR folder
    return repo, outside


# ---------------------------------------------------------------------------
# Configuration: where the ADR folder may be
# ---------------------------------------------------------------------------

def test_symlinked_adr_dir_pointing_outside_is_refused(tmp_path, spy):
    repo = support.Repo(tmp_path / "repo", adr_dir=None, check=False)
    outside = str(tmp_path / "outside")
    plant(outside)
    os.makedirs(repo.path("docs"))
    os.symlink(outside, repo.path("docs", "adr"))
    config = M.CorpusConfig(repo.root, "docs/adr")
    assert M.check_roots(config)[0] == "dir-outside-root"
    for answer in call_all(config):
        assert unavailable(answer) == "dir-outside-root"
    assert spy.opened == []


@pytest.mark.parametrize("adr_dir", ["../outside", "docs/../../outside", "./../outside/", "{outside}",
                                     "{outside}/../outside", "docs/adr/../../../outside", "{repo}/../outside"])
def test_dot_dot_and_absolute_dirs_outside_are_refused(world, spy, adr_dir):
    repo, outside = world
    adr_dir = adr_dir.format(outside=outside, repo=repo.root)
    config = M.CorpusConfig(repo.root, adr_dir)
    assert M.check_roots(config)[0] == "dir-outside-root"
    for answer in call_all(config):
        assert unavailable(answer) == "dir-outside-root"
    assert spy.opened == []


@pytest.mark.parametrize("adr_dir", ["docs/adr", "./docs/adr/", "docs/../docs/adr", "{repo}/docs/adr",
                                     "../repo/docs/adr", "docs/adr/../../docs/adr"])
def test_dot_dot_and_absolute_dirs_inside_are_served(world, spy, adr_dir):
    repo, _ = world
    config = M.CorpusConfig(repo.root, adr_dir.format(repo=repo.root))
    assert M.check_roots(config) is None
    answers = call_all(config)
    assert sources(answers[0]) == ["docs/adr/0001-inside.md"]
    assert_reads_contained(spy, repo)


def test_adr_dir_may_be_elsewhere_inside_the_root_but_reads_only_itself(world, spy):
    repo, _ = world
    config = M.CorpusConfig(repo.root, "elsewhere")
    assert M.check_roots(config) is None
    answer = M.call_tool(config, "search_decisions", {"query": "canary"})
    assert [s.split("/")[0] for s in sources(answer)] == ["elsewhere"] * 3  # its own records, by design
    spy.opened[:] = []
    assert_no_canary(call_all(M.CorpusConfig(repo.root, "docs/adr")))
    assert_reads_contained(spy, repo)


def test_cli_refuses_outside_dirs_before_reading(world, server_command):
    repo, outside = world
    for adr_dir in ("../outside", outside, "docs/../../outside"):
        completed = subprocess.run(server_command + ["--cwd", repo.root, "--dir", adr_dir],
                                   input=wire.PING, capture_output=True, timeout=30)
        assert completed.returncode == 1, completed
        assert completed.stdout == b""
        assert b"outside the repository root" in completed.stderr
        assert CANARY.encode() not in completed.stderr


def test_symlinked_adr_dir_swapped_in_after_start(world, spy):
    """Validated at start-up, then replaced by a symlink to the outside: every later call refuses."""
    repo, outside = world
    config = repo.config
    call_all(config)
    shutil.rmtree(repo.adr_path())
    os.symlink(outside, repo.adr_path())
    spy.opened[:] = []
    for answer in call_all(config):
        assert unavailable(answer) == "dir-outside-root"
    assert spy.opened == []


# ---------------------------------------------------------------------------
# Records: symlinks are never followed
# ---------------------------------------------------------------------------

def test_symlinked_records_are_never_followed(world, spy):
    repo, outside = world
    targets = {
        "0002-to-outside.md": os.path.join(outside, "7001-canary.md"),
        "0003-to-elsewhere.md": repo.path("elsewhere", "7101-canary.md"),
        "0004-relative-up.md": "../../elsewhere/7102-canary.md",
        "0005-to-outside-dir.md": outside,
        "0006-to-proc.md": "/proc/self/environ",
        "0007-loop.md": "0007-loop.md",
        "0008-to-inside.md": "0001-inside.md",
    }
    for name, target in targets.items():
        os.symlink(target, repo.adr_path(name))
    answers = call_all(repo.config)
    assert sources(answers[0]) == ["docs/adr/0001-inside.md"]
    assert answers[0]["structuredContent"]["corpusHealth"]["excludedCount"] == 0  # symlinks are not candidates
    assert_reads_contained(spy, repo)


def test_symlinked_subfolders_are_not_descended(world, spy):
    repo, outside = world
    os.symlink(outside, repo.adr_path("linked-folder"))
    os.symlink(outside, repo.adr_path("0009-folder-named-like-a-record.md"))
    answers = call_all(repo.config)
    assert sources(answers[0]) == ["docs/adr/0001-inside.md"]
    assert_reads_contained(spy, repo)


# ---------------------------------------------------------------------------
# Races: swaps at an exact record boundary
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("which", [0, 1, 2])
@pytest.mark.parametrize("target", ["outside", "elsewhere", "inside"])
def test_record_replaced_by_a_symlink_between_discovery_and_read(world, spy, which, target):
    repo, outside = world
    for number in (2, 3):
        repo.record("%04d-more.md" % number, body="inside\n")
    names = ["0001-inside.md", "0002-more.md", "0003-more.md"]
    victim = repo.adr_path(names[which])
    destination = {"outside": os.path.join(outside, "7001-canary.md"),
                   "elsewhere": repo.path("elsewhere", "7101-canary.md"),
                   "inside": repo.adr_path(names[(which + 1) % 3])}[target]
    should_stop, done = swap_once(lambda: replace_with_symlink(victim, destination))
    answer = M.call_tool(repo.config, "search_decisions", {"query": "e", "findingsLimit": 100}, should_stop)
    assert done
    assert_no_canary(answer)
    assert_reads_contained(spy, repo)
    reason = unavailable(answer)
    if reason is None:
        # Discovered as a regular file, a symlink when read: excluded with a stat error.
        result = answer["structuredContent"]["result"]
        victim_path = repo.source_path(names[which])
        assert victim_path not in sources(answer)
        assert [f["rule"] for f in result["findings"]["items"] if f.get("path") == victim_path] == \
            ["record-stat-error"]
        assert answer["structuredContent"]["corpusHealth"]["recordCount"] == 2
    else:
        assert reason == "corpus-changed-during-load"
    # The next call sees the symlink as what it is: not a candidate.
    again = M.call_tool(repo.config, "search_decisions", {"query": "e"})
    assert_no_canary(again)
    assert repo.source_path(names[which]) not in sources(again)


def test_record_replaced_by_a_fifo_between_discovery_and_read_does_not_block(world, spy):
    """O_NONBLOCK: opening a FIFO nobody writes to must not hang the reader."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    repo, _ = world
    victim = repo.adr_path("0001-inside.md")
    rescued = []

    def make_fifo():
        staging = victim + ".fifo"
        os.mkfifo(staging)
        os.replace(staging, victim)

        def rescue():  # if the reader blocks in open(), a writer unblocks it (and the test fails)
            if not finished.wait(10):
                rescued.append(True)
                fd = os.open(victim, os.O_WRONLY | os.O_NONBLOCK)
                os.close(fd)
        threading.Thread(target=rescue, daemon=True).start()

    finished = threading.Event()
    should_stop, done = swap_once(make_fifo)
    try:
        answer = M.call_tool(repo.config, "search_decisions", {"query": "e", "findingsLimit": 100}, should_stop)
    finally:
        finished.set()
    assert done and not rescued, "the reader blocked on a FIFO"
    assert_no_canary(answer)
    if unavailable(answer) is None:
        findings = answer["structuredContent"]["result"]["findings"]["items"]
        assert [f["rule"] for f in findings if f.get("path") == "docs/adr/0001-inside.md"] == ["record-stat-error"]
    assert_reads_contained(spy, repo)


def test_adr_dir_swapped_for_an_outside_symlink_during_a_call(world, spy):
    repo, outside = world
    for number in (2, 3):
        repo.record("%04d-more.md" % number)

    def swap():
        os.rename(repo.adr_path(), repo.path("docs", "adr-old"))
        os.symlink(outside, repo.adr_path())

    should_stop, done = swap_once(swap)
    answer = M.call_tool(repo.config, "search_decisions", {"query": "e"}, should_stop)
    assert done
    assert_no_canary(answer)
    assert unavailable(answer) in ("dir-outside-root", "corpus-changed-during-load")
    old = os.path.realpath(repo.path("docs", "adr-old"))
    assert all(M.is_contained(old, path) or M.is_contained(os.path.realpath(repo.root), path)
               for path in spy.opened), spy.opened
    assert not [path for path in spy.opened if M.is_contained(os.path.realpath(outside), path)]
    for later in call_all(repo.config):
        assert unavailable(later) == "dir-outside-root"


def test_adr_dir_swapped_for_another_folder_during_a_call(world, spy):
    """Answers come from one folder or none: never a mix of the old and the new."""
    repo, _ = world
    for number in (2, 3, 4):
        repo.record("%04d-old.md" % number, body="old\n")
    new = repo.path("docs", "adr-new")
    os.makedirs(new)
    for number in (1, 2, 3, 4):
        with open(os.path.join(new, "%04d-new.md" % number), "w") as handle:
            handle.write(record_text("%04d" % number, body="new\n"))

    def swap():
        os.rename(repo.adr_path(), repo.path("docs", "adr-old"))
        os.rename(new, repo.adr_path())

    should_stop, done = swap_once(swap)
    answer = M.call_tool(repo.config, "search_decisions", {"query": "e", "limit": 100}, should_stop)
    assert done
    reason = unavailable(answer)
    if reason is None:
        names = {path.rsplit("/", 1)[1] for path in sources(answer)}
        assert names in ({"0001-inside.md", "0002-old.md", "0003-old.md", "0004-old.md"},
                         {"0001-new.md", "0002-new.md", "0003-new.md", "0004-new.md"}), names
    else:
        assert reason == "corpus-changed-during-load"
    root = os.path.realpath(repo.root)
    assert all(M.is_contained(root, path) for path in spy.opened), spy.opened
    after = M.call_tool(repo.config, "search_decisions", {"query": "new", "limit": 100})
    assert {path.rsplit("/", 1)[1] for path in sources(after)} == \
        {"0001-new.md", "0002-new.md", "0003-new.md", "0004-new.md"}


def test_root_swapped_for_a_symlink_during_a_call(tmp_path, spy):
    repo = support.Repo(tmp_path / "repo")
    for number in (1, 2):
        repo.record("%04d-inside.md" % number)
    evil = support.Repo(tmp_path / "evil")
    plant(evil.adr_path(), first=7001)
    config = repo.config  # the canonical root was recorded by check_roots

    def swap():
        os.rename(repo.root, str(tmp_path / "repo-old"))
        os.symlink(evil.root, repo.root)

    should_stop, done = swap_once(swap)
    answer = M.call_tool(config, "search_decisions", {"query": "e"}, should_stop)
    assert done
    assert_no_canary(answer)
    assert unavailable(answer) in ("root-not-found", "corpus-changed-during-load")
    for later in call_all(config):
        assert unavailable(later) == "root-not-found"
    evil_root = os.path.realpath(evil.root)
    assert not [path for path in spy.opened if M.is_contained(evil_root, path)], spy.opened


# ---------------------------------------------------------------------------
# Through the real process
# ---------------------------------------------------------------------------

@platforms.SYMLINKS
def test_the_real_process_never_answers_with_the_canary(world, server_command):
    repo, outside = world
    os.symlink(os.path.join(outside, "7001-canary.md"), repo.adr_path("0002-to-outside.md"))
    os.symlink(outside, repo.adr_path("0003-folder.md"))
    session = wire.Session(server_command, ["--cwd", repo.root])
    try:
        session.initialize()
        for number, (tool, arguments) in enumerate(CALLS, start=1):
            frame = session.call(number, "tools/call", {"name": tool, "arguments": arguments})
            assert_no_canary(frame)
            assert "isError" not in frame["result"]
        # Swap the folder for an outside symlink while the server runs.
        os.rename(repo.adr_path(), repo.path("docs", "adr-old"))
        os.symlink(outside, repo.adr_path())
        for number, (tool, arguments) in enumerate(CALLS, start=100):
            frame = session.call(number, "tools/call", {"name": tool, "arguments": arguments}, modern=True)
            assert_no_canary(frame)
            assert frame["result"]["structuredContent"]["result"]["reason"] == "dir-outside-root"
        status, _ = session.close()
        assert status == 0
        assert_no_canary(session.stderr())
    finally:
        session.kill()


def test_the_spy_sees_what_it_should(world, spy):
    """The FdSpy itself works: a deliberate outside open shows up (guards the guard)."""
    repo, outside = world
    fd = M.os.open(os.path.join(outside, "7001-canary.md"), os.O_RDONLY)
    os.close(fd)
    with pytest.raises(AssertionError):
        assert_reads_contained(spy, repo)
    with pytest.raises(AssertionError):
        assert_no_canary({"x": CANARY})
    assert stat.S_ISDIR(os.stat(outside).st_mode)
