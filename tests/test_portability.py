"""The reader's paths for platforms without openat (`dir_fd`) or O_NOFOLLOW, forced on Linux
(docs/PORTABILITY.md).  test_containment.py runs every containment case in each mode; here a mixed
corpus on the real file system must give the native answers, byte for byte, in every mode, and the
spy shows which path was taken.
"""

import os

import pytest

import _platforms as platforms  # why a test cannot hold on a platform

import _support as support  # tests/ is on sys.path (pytest rootdir insertion)
import _containment as containment

M = support.M
FALLBACKS = [mode for mode in containment.SPY_MODES if mode != "native"]


def mixed_repo(make_repo):
    repo = make_repo("repo")
    repo.record("0001-plain.md", title="Plain record", body="plain\n")
    repo.record("0002-other.md", title="Other record", status="accepted",
                extra='deciders: ["@bob"]\nsupersedes: ["0001"]\n', body="other\n")
    repo.write("0003-broken.md", "---\nid: [unclosed\n---\nbody\n")
    repo.write("0004-huge.md", support.record_text("0004", body="x" * (70 * 1024)))
    repo.write("notes.md", "not a record name\n")
    os.symlink(repo.adr_path("0001-plain.md"), repo.adr_path("0005-link.md"))
    os.mkdir(repo.adr_path("0006-folder.md"))
    if hasattr(os, "mkfifo"):
        os.mkfifo(repo.adr_path("0007-fifo.md"))
    return repo


def answers(repo):
    return [M.call_tool(repo.config, tool, dict(arguments))
            for tool, arguments in containment.CALLS + [
                ("search_decisions", {"query": "record", "findingsLimit": 100}),
                ("list_superseded", {})]]


@pytest.mark.parametrize("mode", FALLBACKS)
def test_fallback_paths_give_the_native_answers(make_repo, monkeypatch, mode):
    if not containment.LINUX_FDS:
        pytest.skip("needs /proc/self/fd to resolve descriptors")
    repo = mixed_repo(make_repo)
    native_spy = containment.FdSpy("native")
    monkeypatch.setattr(M, "os", native_spy)
    native = answers(repo)
    fallback_spy = containment.FdSpy(mode)
    monkeypatch.setattr(M, "os", fallback_spy)
    assert answers(repo) == native
    folder = os.path.realpath(repo.adr_path())
    # The native path holds the folder open and reads through it; without dir_fd it never does.
    assert (folder in native_spy.opened) and ((folder in fallback_spy.opened) == (mode ==
                                                                                  "no-nofollow"))
    records = [path for path in fallback_spy.opened if path != folder]
    assert records and all(os.path.dirname(path) == folder for path in records)
    assert not [path for path in records if path.endswith(("0005-link.md", "0007-fifo.md"))]


@platforms.SYMLINKS
def test_a_record_swapped_for_a_link_after_the_look_is_never_read(make_repo, monkeypatch):
    """Without O_NOFOLLOW the look (lstat) and the open are two steps: the identity check between
    them refuses a descriptor that is not the file looked at (here the swap lands exactly there)."""
    repo = make_repo("repo")
    repo.record("0001-victim.md", title="Victim", body="inside\n")
    outside = make_repo("outside")
    outside.record("0009-secret.md", title="Secret %s" % containment.CANARY, body="secret\n")
    victim = os.path.join(os.path.realpath(repo.adr_path()), "0001-victim.md")
    spy = containment.FdSpy("neither")
    real_lstat = os.lstat

    def lstat_then_swap(path, *args, **kwargs):
        info = real_lstat(path, *args, **kwargs)
        if path == victim and not swapped:
            swapped.append(True)
            containment.replace_with_symlink(victim, outside.adr_path("0009-secret.md"))
        return info

    swapped = []
    spy.lstat = lstat_then_swap
    monkeypatch.setattr(M, "os", spy)
    answer = M.call_tool(repo.config, "search_decisions", {"query": "e", "findingsLimit": 100})
    assert swapped
    containment.assert_no_canary(answer)
    # Refused before a byte is read: the file is a finding, not a reason to drop the whole load
    # (reading it would have been caught only afterwards, as corpus-changed-during-load).
    assert containment.unavailable(answer) is None, answer
    findings = answer["structuredContent"]["result"]["findings"]["items"]
    assert [(f["rule"], f["path"]) for f in findings] == [
        ("record-stat-error", "docs/adr/0001-victim.md")], findings


def test_a_record_saved_atomically_after_the_look_is_read_as_natively(make_repo, monkeypatch):
    """An editor's save (write a new file, rename it over the record) landing between the look and
    the open: the descriptor is another file than the one looked at, but the name now holds that
    very regular file, so it is read, as the native path reads it (ADRKIT_TEST_FORCE_PATHS=windows
    showed the fallback answering record-stat-error here, dropping the record)."""
    repo = make_repo("repo")
    repo.record("0001-victim.md", title="Before the save", body="old\n")
    victim = os.path.join(os.path.realpath(repo.adr_path()), "0001-victim.md")
    spy = containment.FdSpy("neither")
    real_lstat = os.lstat

    def lstat_then_save(path, *args, **kwargs):
        info = real_lstat(path, *args, **kwargs)
        if path == victim and not saved:
            saved.append(True)
            staging = victim + ".tmp"
            with open(staging, "w", encoding="utf-8") as handle:
                handle.write(support.record_text("0001", title="After the save", body="new\n"))
            os.replace(staging, victim)
        return info

    saved = []
    spy.lstat = lstat_then_save
    monkeypatch.setattr(M, "os", spy)
    answer = M.call_tool(repo.config, "get_decision", {"ref": "0001"})
    assert saved
    structured = answer["structuredContent"]["result"]
    assert structured["outcome"] == "found", structured
    assert structured["decision"]["title"] == "After the save"
    assert structured["findings"]["items"] == []


# ---------------------------------------------------------------------------
# Where the .pyz unpacks, on each system (build.py copies the module's _pyz_roots into the
# archive's _adrkit_start.py): the macOS and Windows branches, forced here by the names it reads.
# ---------------------------------------------------------------------------

class _System(object):
    """`os` or `sys` as another system shows it: some names replaced, the rest real."""

    def __init__(self, real, **replaced):
        self._real, self._replaced = real, replaced

    def __getattr__(self, name):
        return self._replaced[name] if name in self._replaced else getattr(self._real, name)


def _roots(os_name, platform, env):
    """_pyz_roots() as build.py copies it into the archive, run as on another system."""
    import importlib.util
    import sys
    spec = importlib.util.spec_from_file_location("adrkit_build_roots",
                                                  os.path.join(support.REPO_ROOT, "build.py"))
    build_script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_script)
    source = build_script.module_source(support.MODULE_PATH, ("_PYZ_APP", "_pyz_roots"))
    system = _System(os, name=os_name, environ=env, geteuid=lambda: 4242)
    namespace = {"os": system, "sys": _System(sys, platform=platform)}
    exec(compile("from __future__ import annotations\n" + source, "adrkit_mcp.py:_pyz_roots", "exec"),
         namespace)
    return namespace["_pyz_roots"]()


def test_the_pyz_unpacks_where_each_system_keeps_caches(monkeypatch):
    join = os.path.join
    home = os.path.abspath("/Users/ada")  # absolute in this system's spelling
    monkeypatch.setenv("HOME", home)  # expanduser reads the real environment
    temp = join(home, "T")
    mac = _roots("posix", "darwin", {"TMPDIR": temp})
    assert mac[0] == (join(home, "Library", "Caches", "adrkit-mcp"), False)
    assert (join(temp, "adrkit-mcp-4242"), True) in mac
    xdg = join(home, "xdg")
    linux = _roots("posix", "linux", {"XDG_CACHE_HOME": xdg})
    assert linux[:2] == [(join(xdg, "adrkit-mcp"), False), (join(home, ".cache", "adrkit-mcp"), False)]
    # Windows: %LOCALAPPDATA%\adrkit-mcp\Cache, then the profile's own temp folder; no uid, no
    # shared temp folder, and HOME plays no part.
    local = join(home, "AppData", "Local")
    windows = _roots("nt", "win32", {"LOCALAPPDATA": local, "TEMP": join(local, "Temp")})
    assert windows == [(join(local, "adrkit-mcp", "Cache"), False),
                       (join(local, "Temp", "adrkit-mcp"), False)]
