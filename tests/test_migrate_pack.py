"""The migrate pack: our `migrate --from madr` against the reference CLI's recorded runs.

tests/migrate-pack/cases/*.json hold what `adr migrate` (@adrkit/cli 0.8.0) printed, how it
exited and what it left on disk, run twice, for each corpus and argument set
(tools/record_migrate_pack.py records them; tests/migrate-pack/README.md says how). Each case
is written into a temporary folder and our command runs there as a real process,
`python adrkit_mcp.py migrate ...` with the case's arguments, in the case's folder; the first
argument set of each case runs once more from another folder with --cwd. stdout, the exit status
and the file tree after (bytes, permission bits on POSIX, symlinks) must be the recorded ones,
then again after the second run. stderr must be the recorded text where the text is ours to
match (the Corpus-directory messages, the messages of a run that stops); for a usage error the
usage text is ours, so only the reference's sentence before it must appear in ours. The only
differences allowed are the departures listed in the pack's README (none so far).

$ADRKIT_MCP_SERVER (shell-split) replaces `python adrkit_mcp.py`, as for the conformance pack.
The permission cases need an unprivileged user: run as root, the suite runs them as uid 65534,
as a process when that user may run an interpreter with the module's libraries, else as this
process's module in a forked child that dropped root (else they skip, saying why).
"""

import difflib
import os
import re
import shutil
import subprocess
import tempfile

import pytest

import _migrate_pack as pack
import _platforms as platforms
import _support as support

PACK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "migrate-pack")
MANIFEST = os.path.join(PACK, "MANIFEST.sha256")
README = os.path.join(PACK, "README.md")
MODULE = pack.MODULE
TIMEOUT = 300.0
POSIX = os.name == "posix"
MARKS = {"symlinks": [platforms.SYMLINKS], "permissions": [platforms.PERMISSIONS],
         "case-sensitive": [platforms.CASE_SENSITIVE_NAMES], "unprivileged": [platforms.PERMISSIONS]}


def _cases():
    return {os.path.basename(path)[:-5]: path for path in pack.case_paths(PACK)}


CASES = _cases()
_LOADED = {}


def load(name):
    if name not in _LOADED:
        _LOADED[name] = pack.load_case(CASES[name])
    return _LOADED[name]


def _readme_list(section, pattern):
    """{(case, arguments joined by spaces): text} from one list of the pack's README."""
    found, inside = {}, False
    with open(README, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("## "):
                inside = line.strip() == section
                continue
            match = re.match(pattern, line) if inside else None
            if match:
                found[(match.group(1), match.group(2))] = match.group(3)
    return found


def departures():
    """The README's "Documented departures", lines "- `case` `arguments`: stderr: reason". A
    departure excuses the run's stderr only (both steps); stdout, the exit status and the tree
    are still compared, and the stderr must really differ (a departure that no longer happens
    fails, to be removed)."""
    return _readme_list("## Documented departures", r"- `([^`]+)` `([^`]*)`: stderr: (.+)")


def whole_run_departures():
    """The README's departures of a whole run, lines "- `case` `arguments`: whole run: reason":
    where the reference would rewrite files in place in a folder that takes no new file, ours
    must stop (exit 1) before writing anything, saying why (MIGRATE_MESSAGES["folder-closed"])."""
    return _readme_list("## Documented departures", r"- `([^`]+)` `([^`]*)`: whole run: (.+)")


def open_mismatches():
    """The README's "Open mismatches": runs expected to fail until the lead decides (strict)."""
    return _readme_list("## Open mismatches", r"- `([^`]+)` `([^`]*)`: (.+)")


DEPARTURES = departures()
WHOLE_RUN = whole_run_departures()
OPEN = open_mismatches()


def _params():
    params = []
    for name in sorted(CASES):
        case, _ = load(name)
        marks = [mark for need in case["requires"] for mark in MARKS[need]]
        for index, run in enumerate(case["runs"]):
            args = " ".join(run["args"])
            label = "%s[%d:%s]" % (name, index, " ".join(run["args"][1:]) or "-")
            reason = OPEN.get((name, " ".join(run["args"])))
            run_marks = marks + ([pytest.mark.xfail(reason="open mismatch: " + reason, strict=True)]
                                 if reason else [])
            params.append(pytest.param(name, index, False, id=label, marks=run_marks))
            if index == 0:
                params.append(pytest.param(name, index, True, id=label + "--cwd", marks=run_marks))
    return params


# ---- running our command ---------------------------------------------------------------------

def _in_process(args, cwd):
    """(status, stdout, stderr) as bytes, this process's module run with `args` in `cwd`, none of
    the variables the pack's runs go without set."""
    status, out, err = support.run_main(args, cwd, hidden=pack.SCRUBBED)
    return status, out.encode("utf-8"), err.encode("utf-8")


class Runner(object):
    """Runs our migrate as this user, or (root, unprivileged case) as uid 65534: as a process
    when that user can run an interpreter with the module's libraries, else (no
    $ADRKIT_MCP_SERVER) this process's module in a forked child that dropped root."""

    def __init__(self, unprivileged, scratch):
        self.user = None
        self.in_process = False
        self.command = pack.our_command()
        if unprivileged and POSIX and os.geteuid() == 0:
            self.user = support.NOBODY
            self.command = self._unprivileged_command(scratch)
            self.in_process = self.command is None

    def _unprivileged_command(self, scratch):
        if os.environ.get("ADRKIT_MCP_SERVER", "").strip():
            candidates = [self.command]
        else:
            module = os.path.join(scratch, "adrkit_mcp.py")
            shutil.copyfile(MODULE, module)
            os.chmod(module, 0o644)
            pythons = [support.SERVER_PYTHON, shutil.which("python3") or "", "/usr/bin/python3"]
            candidates = [[python, module] for python in pythons if python]
        for command in candidates:
            try:  # the interpreter, the module and its libraries, as that user
                probe = subprocess.run(command + ["--version"], user=self.user, group=self.user, extra_groups=[],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=scratch,
                                       env=pack.our_environment(), timeout=TIMEOUT)
            except OSError:  # not executable for that user
                continue
            if probe.returncode == 0:
                return command
        if os.environ.get("ADRKIT_MCP_SERVER", "").strip() or support.USING_DEV_BUILD:
            pytest.skip("root, and no interpreter that uid %d may run with the module's libraries (tried %s)"
                        % (self.user, ", ".join(command[0] for command in candidates)))
        return None

    def prime(self, args, cwd):
        """Load every lazily imported module before the drop (a dry run, as root: nothing written)."""
        if self.in_process:
            with support.working_directory():
                _in_process([arg for arg in args if arg not in ("--rename",)] + ["--dry-run"], cwd)

    def own(self, root):
        if self.user is None:
            return
        os.chown(root, self.user, self.user)
        for dirpath, dirnames, filenames in os.walk(root):
            for name in dirnames + filenames:
                os.chown(os.path.join(dirpath, name), self.user, self.user, follow_symlinks=False)

    def run(self, args, cwd):
        if self.in_process:
            try:
                with support.working_directory():
                    return support.run_unprivileged(lambda: _in_process(args, cwd))
            except support.Unavailable as reason:
                pytest.skip(str(reason))
        extra = dict(user=self.user, group=self.user, extra_groups=[]) if self.user is not None else {}
        process = subprocess.run(self.command + args, cwd=cwd, env=pack.our_environment(), stdin=subprocess.DEVNULL,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT, **extra)
        return process.returncode, process.stdout, process.stderr


def _text(data, root):
    text = data.decode("utf-8", "replace")
    for spelling in sorted({root, os.path.realpath(root)}, key=len, reverse=True):
        text = text.replace(spelling, pack.ROOT_TOKEN)
    return text


def _compare_step(step, expected, got, blobs, root, departure):
    """The differences between a recorded step and ours, as readable lines."""
    status, stdout, stderr, tree, got_blobs = got
    problems = []
    if status != expected["status"]:
        problems.append("exit status %d, expected %d" % (status, expected["status"]))
    stdout_text, stderr_text = _text(stdout, root), _text(stderr, root)
    if stdout_text != expected["stdout"]:
        diff = difflib.unified_diff(expected["stdout"].splitlines(True), stdout_text.splitlines(True),
                                    "expected stdout", "our stdout", n=1)
        problems.append("stdout differs:\n" + "".join(list(diff)[:60]))
    kind = expected["stderr_kind"]
    if departure:
        pass  # excused here; test_case checks that some step still differs
    elif kind == "usage":
        if expected["stderr_sentence"] not in stderr_text:
            problems.append("stderr lacks the reference's sentence %r; ours: %r"
                            % (expected["stderr_sentence"], stderr_text[:400]))
    elif stderr_text != expected["stderr"]:
        problems.append("stderr %r, expected %r" % (stderr_text[:600], expected["stderr"][:600]))
    problems += pack.tree_differences(expected["tree"], blobs, tree, got_blobs, modes=POSIX)
    return ["%s run: %s" % (step, line) for line in problems]


def _stopped_before_writing(step, case, got, blobs):
    """A whole-run departure: exit 1, nothing on stdout, the reason on stderr, the tree as it was."""
    status, stdout, stderr, tree, got_blobs = got
    problems = [] if status == 1 else ["exit status %d, expected 1" % status]
    problems += [] if stdout == b"" else ["stdout %r, expected nothing" % stdout[:200]]
    if b"takes no new file" not in stderr:
        problems.append("stderr %r does not say the folder takes no new file" % stderr[:300])
    problems += pack.tree_differences(case["tree"], blobs, tree, got_blobs, modes=POSIX)
    return ["%s run: %s" % (step, line) for line in problems]


def _stderr_matches(expected, stderr_text):
    if expected["stderr_kind"] == "usage":
        return expected["stderr_sentence"] in stderr_text
    return stderr_text == expected["stderr"]


@pytest.mark.parametrize("name,index,with_cwd", _params())
def test_case(name, index, with_cwd):
    if not os.environ.get("ADRKIT_MCP_SERVER", "").strip() and not os.path.isfile(MODULE):
        pytest.skip("server module %s does not exist yet" % MODULE)
    case, blobs = load(name)
    run = case["runs"][index]
    if case["requires"] == ["permissions"] and POSIX and os.geteuid() != 0:
        # Recorded as root, for whom a read-only file is still writable: another user's run of
        # the reference stops on it, so the recording is not what that user must see.
        pytest.skip("recorded as root: the permission bits it keeps do not stop root")
    base = tempfile.mkdtemp(prefix="adrkit-pack-")
    try:
        os.chmod(base, 0o755)
        root = os.path.realpath(os.path.join(base, "case"))
        elsewhere = os.path.join(base, "elsewhere")
        os.mkdir(root)
        os.mkdir(elsewhere)
        runner = Runner("unprivileged" in case["requires"], base)
        pack.materialise(root, case["tree"], blobs, modes=POSIX)
        runner.own(root)
        folder = os.path.join(root, *case["cwd"].split("/")) if case["cwd"] else root
        args = list(run["args"])
        if with_cwd:
            args, cwd = args + ["--cwd", folder], elsewhere
        else:
            cwd = folder
        runner.prime(list(run["args"]), folder)
        problems, departure_seen = [], False
        departure = DEPARTURES.get((name, " ".join(run["args"])))
        for step in ("first", "second"):
            status, stdout, stderr = runner.run(args, cwd)
            departure_seen |= bool(departure) and not _stderr_matches(run[step], _text(stderr, root))
            got_blobs = {}
            tree = pack.snapshot(root, got_blobs)
            if (name, " ".join(run["args"])) in WHOLE_RUN:
                problems += _stopped_before_writing(step, case, (status, stdout, stderr, tree, got_blobs), blobs)
                continue
            problems += _compare_step(step, run[step], (status, stdout, stderr, tree, got_blobs), blobs, root,
                                      departure)
        if departure and not departure_seen:
            problems.append("stderr now matches in both runs: remove the documented departure (%s)" % departure)
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
        load(name)  # checks each blob against its id


def test_pack_covers_what_it_says():
    """The pack holds the cases the issue asks for; each records two runs per argument set."""
    names = set(CASES)
    for needed in ("madr2-bullets", "nygard", "madr3-frontmatter", "updated-and-unchanged", "usage-errors",
                   "unreadable-file", "unreadable-subfolder", "invalid-date-stop", "rename-collisions",
                   "symlinks", "encodings", "empty-and-oversized", "many-records"):
        assert needed in names
    statuses = set()
    for name in CASES:
        case, _ = load(name)
        assert case["runs"], name
        for run in case["runs"]:
            statuses.add(run["first"]["status"])
            for step in ("first", "second"):
                assert set(run[step]) >= {"status", "stdout", "stderr", "stderr_kind", "tree"}
    assert statuses == {0, 1, 2}


def test_departures_name_recorded_runs():
    for (name, args), reason in list(DEPARTURES.items()) + list(WHOLE_RUN.items()) + list(OPEN.items()):
        assert name in CASES, name
        assert args in [" ".join(run["args"]) for run in load(name)[0]["runs"]], (name, args)
        assert reason.strip()
