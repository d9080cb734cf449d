"""The CLI pack: our `lint`, `graph` and `new` against the reference CLI's recorded runs.

tests/cli-pack/cases/*.json hold what @adrkit/cli 0.8.0 printed, how it exited and, for a run that
changed them, what it left on disk, for each corpus and command line
(tools/record_cli_pack.py records them; tests/cli-pack/README.md says how). Each run is replayed
on a fresh copy of its corpus by this process's module (tests/_support.run_main), in the case's
folder and once more from another folder with --cwd: the commands' work is reading and writing
files, which a child process would not make any more real. The exit status, stdout, stderr and
the tree after must be the recorded ones, with the differences ADR 0019 decides and nothing else:
a usage error's stderr need only hold the reference's sentence (the usage text after it is ours),
and `--help` is compared with our two changed lines put back (tests/_cli_pack.reference_help).
Runs listed under "Open mismatches" in the pack's README are expected to fail (strictly).

The permission cases need an unprivileged user: run as root, they run in a forked child that
dropped to uid 65534 (tests/_support.run_unprivileged); as another user, as that user.
"""

import difflib
import os
import re
import shutil
import tempfile
import time

import pytest

import _cli_pack as pack
import _platforms as platforms
import _support as support

PACK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cli-pack")
MANIFEST = os.path.join(PACK, "MANIFEST.sha256")
README = os.path.join(PACK, "README.md")
POSIX = os.name == "posix"
HIDDEN = ("ADRKIT_MCP_CWD", "ADRKIT_MCP_DIR", "ADRKIT_MCP_FROM")
FIFOS = pytest.mark.not_on("win32", reason="no FIFOs on this platform")
MARKS = {"symlinks": [platforms.SYMLINKS], "permissions": [platforms.PERMISSIONS],
         "unprivileged": [platforms.PERMISSIONS], "fifos": [FIFOS]}
CASES = {os.path.basename(path)[:-5]: path for path in pack.case_paths(PACK)}
_LOADED = {}


def load(name):
    if name not in _LOADED:
        _LOADED[name] = pack.load_case(CASES[name])
    return _LOADED[name]


def open_mismatches():
    """The README's "Open mismatches": lines "- `case` `arguments`: reason"."""
    found, inside = {}, False
    with open(README, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("## "):
                inside = line.strip() == "## Open mismatches"
                continue
            match = re.match(r"- `([^`]+)` `([^`]*)`: (.+)", line) if inside else None
            if match:
                found[(match.group(1), match.group(2))] = match.group(3)
    return found


OPEN = open_mismatches()


def _params():
    params = []
    for name in sorted(CASES):
        case, _ = load(name)
        marks = [mark for need in case["requires"] for mark in MARKS[need]]
        for index, run in enumerate(case["runs"]):
            label = "%s[%d:%s]" % (name, index, " ".join(run["args"]))
            reason = OPEN.get((name, " ".join(run["args"])))
            run_marks = marks + ([pytest.mark.xfail(reason="open mismatch: " + reason, strict=True)]
                                 if reason else [])
            params.append(pytest.param(name, index, False, id=label, marks=run_marks))
            params.append(pytest.param(name, index, True, id=label + "--cwd", marks=run_marks))
    return params


def _text(text, root):
    for spelling in sorted({root, os.path.realpath(root)}, key=len, reverse=True):
        text = text.replace(spelling, pack.ROOT_TOKEN)
    return text


def _run(args, cwd, unprivileged):
    """(status, stdout, stderr) of our command, as uid 65534 when the case needs it and we are root."""
    with support.working_directory():
        if unprivileged and POSIX and os.geteuid() == 0:
            try:
                return support.run_unprivileged(lambda: support.run_main(args, cwd, hidden=HIDDEN))
            except support.Unavailable as reason:
                pytest.skip(str(reason))
        return support.run_main(args, cwd, hidden=HIDDEN)


def _own(root):
    os.chown(root, support.NOBODY, support.NOBODY)
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            os.chown(os.path.join(dirpath, name), support.NOBODY, support.NOBODY, follow_symlinks=False)


def _is_help(run):
    return run["status"] == 0 and run["stdout"].startswith("Usage: adr ") and not run["stderr"]


def compare(run, got, root, case, blobs, tree, got_blobs, days):
    status, stdout, stderr = got
    stdout, stderr = _text(stdout, root), _text(stderr, root)
    problems = []
    if status != run["status"]:
        problems.append("exit status %d, expected %d" % (status, run["status"]))
    if _is_help(run):
        stdout = pack.reference_help(stdout)
    if stdout != run["stdout"]:
        diff = difflib.unified_diff(run["stdout"].splitlines(True), stdout.splitlines(True), "expected stdout",
                                    "our stdout", n=1)
        problems.append("stdout differs:\n" + "".join(list(diff)[:60]))
    if run["stderr_kind"] == "usage":
        if run["stderr_sentence"] not in stderr:
            problems.append("stderr lacks the reference's sentence %r; ours: %r" % (run["stderr_sentence"], stderr[:400]))
    elif stderr != run["stderr"]:
        problems.append("stderr %r, expected %r" % (stderr[:800], run["stderr"][:800]))
    expected = run.get("tree", case["tree"])
    best = None
    for day in days:  # a run across midnight may have written either date
        dated_blobs = dict(got_blobs)
        dated = pack.normalise_new_files(case["tree"], tree, dated_blobs, day)
        lines = pack.tree_differences(expected, blobs, dated, dated_blobs, modes=POSIX)
        best = lines if best is None or len(lines) < len(best) else best
    return problems + best


@pytest.mark.parametrize("name,index,with_cwd", _params())
def test_case(name, index, with_cwd):
    case, blobs = load(name)
    run = case["runs"][index]
    unprivileged = "unprivileged" in case["requires"]
    base = tempfile.mkdtemp(prefix="adrkit-cli-pack-")
    try:
        os.chmod(base, 0o755)
        root = os.path.realpath(os.path.join(base, "case"))
        elsewhere = os.path.join(base, "elsewhere")
        os.mkdir(root)
        os.mkdir(elsewhere)
        pack.materialise(root, case["tree"], blobs, modes=POSIX)
        if unprivileged and POSIX and os.geteuid() == 0:
            _own(root)
        folder = os.path.join(root, *case["cwd"].split("/")) if case["cwd"] else root
        args = list(run["args"])
        if with_cwd:
            args, cwd = args[:1] + ["--cwd", folder] + args[1:], elsewhere
        else:
            cwd = folder
        before = time.strftime("%Y-%m-%d", time.gmtime())
        got = _run(args, cwd, unprivileged)
        days = sorted({before, time.strftime("%Y-%m-%d", time.gmtime())})
        got_blobs = {}
        tree = pack.snapshot_tree(root, got_blobs)
        problems = compare(run, got, root, case, blobs, tree, got_blobs, days)
    finally:
        pack.make_traversable(base)
        shutil.rmtree(base, ignore_errors=True)
    if problems:
        pytest.fail("%s, arguments %s%s:\n%s" % (name, " ".join(run["args"]), " with --cwd" if with_cwd else "",
                                                 "\n".join(problems)), pytrace=False)


# ---- the pack itself -------------------------------------------------------------------------

def test_pack_is_intact():
    """Every pack file has its recorded bytes, every blob the bytes its name says."""
    expected = support.read_manifest(MANIFEST)
    found = support.folder_digests(PACK)
    assert sorted(set(expected) - set(found)) == [], "pack files missing"
    assert sorted(set(found) - set(expected)) == [], "files not in the pack manifest"
    assert sorted(path for path in expected if expected[path] != found[path]) == [], "pack files changed"
    for name in CASES:
        load(name)


def test_pack_covers_what_it_says():
    """Every command of this branch, every exit status, help, usage errors, a written file."""
    commands, statuses, kinds, written = set(), set(), set(), False
    for name in CASES:
        case, _ = load(name)
        for run in case["runs"]:
            commands.add(run["args"][0])
            statuses.add(run["status"])
            kinds.add("help" if _is_help(run) else run["stderr_kind"])
            written |= "tree" in run
    assert commands >= {"lint", "graph", "new"}
    assert statuses == {0, 1, 2}
    assert kinds == {"help", "usage", "exact"}
    assert written


def test_open_mismatches_name_recorded_runs():
    for (name, args), reason in OPEN.items():
        assert name in CASES, name
        assert args in [" ".join(run["args"]) for run in load(name)[0]["runs"]], (name, args)
        assert reason.strip()
