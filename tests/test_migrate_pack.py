"""The migrate pack: our `migrate --from madr` against the reference CLI's recorded runs.

tests/migrate-pack/cases/*.json hold what `adr migrate` (@adrkit/cli 0.8.0) printed, how it
exited and what it left on disk, run twice, for each corpus and argument set
(tools/record_migrate_pack.py records them; tests/migrate-pack/README.md says how). Each case
is written into a temporary folder and our command runs there with the case's arguments, in the
case's folder; the first argument set of each case runs once more from another folder with
--cwd. stdout, the exit status and the file tree after (bytes, permission bits on POSIX,
symlinks) must be the recorded ones, then again after the second run. stderr must be the
recorded text where the text is ours to match (the Corpus-directory messages, the messages of a
run that stops); for a usage error the usage text is ours, so only the reference's sentence
before it must appear in ours. The only differences allowed are the departures listed in the
pack's README (none so far).

Most runs are this process's module (tests/_support.run_main with as_process): migrate's work
is reading and writing files, which a child process would not make more real, and each run as
a process cost about 0.12 s of CPU, most of it the interpreter's start and the module's import
(528 of them). run_main makes the run see what a process would: the case's folder as working
directory, the variables the pack's runs go without unset, stdout and stderr as the bytes that
streams with a child's encoding, error handlers and newline translation would hold, an empty
stdin, main's status taken as sys.exit takes it; the umask and every other variable are this
process's, as a child's would be.

What only a process proves stays a process: PROCESS_RUNS (process_runs()), `python
adrkit_mcp.py migrate ...` through tests/_launch.py: the first run in the pack's order of each
kind (the first step's exit status, its stderr kind, the widest character on its stdout: ASCII,
the BMP or beyond; six today: 0 with ASCII, BMP and astral stdout, 1, 2 with our message,
2 with a usage error), among the cases every platform runs, plus the --cwd variant of the astral
one: the real command line (argv, the interpreter's own stdio and exit status) for every exit
status and output kind the pack has, and --cwd from another folder.

$ADRKIT_MCP_SERVER (shell-split) replaces `python adrkit_mcp.py`, as for the conformance pack:
then every run is that process (that is how the .pyz or another build is held to the pack).
$ADRKIT_MCP_MODULE (see tests/_support) is the module run in-process and as a process.
The permission cases need an unprivileged user: run as root, the suite runs them as uid 65534,
as a process when that user may run an interpreter with the module's libraries, else as this
process's module in a forked child that dropped root (else they skip, saying why); run as
another user, they run in-process as that user.
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
MODULE_UNDER_TEST = os.path.abspath(support.M.__file__)  # $ADRKIT_MCP_MODULE, else MODULE
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


def _stdout_width(text):
    widest = max(map(ord, text), default=0)
    return "astral" if widest > 0xFFFF else "bmp" if widest > 0x7F else "ascii"


def process_runs():
    """The runs that go through the real command line as a process, [(case, index, with_cwd)]:
    in the pack's order, the first run of each kind (the first step's exit status, its stderr
    kind, the widest character on its stdout: ASCII, the BMP or beyond) among the cases every
    platform runs (no `requires`) and the runs compared in full (no departure, no open
    mismatch); then the --cwd variant of the run chosen for the widest stdout."""
    chosen, kinds = [], set()
    for name in sorted(CASES):
        case, _ = load(name)
        if case["requires"]:
            continue
        for index, run in enumerate(case["runs"]):
            key = (name, " ".join(run["args"]))
            if key in DEPARTURES or key in WHOLE_RUN or key in OPEN:
                continue
            first = run["first"]
            kind = (first["status"], first["stderr_kind"], _stdout_width(first["stdout"]))
            if kind not in kinds:
                kinds.add(kind)
                chosen.append((name, index, False, kind))
    widest = [item for item in chosen if item[3][2] == "astral"] or chosen
    return [item[:3] for item in chosen] + [widest[0][:2] + (True,)]


PROCESS_RUNS = process_runs()


def _params():
    params = []
    for name in sorted(CASES):
        case, _ = load(name)
        marks = [mark for need in case["requires"] for mark in MARKS[need]]
        for index, run in enumerate(case["runs"]):
            label = "%s[%d:%s]" % (name, index, " ".join(run["args"][1:]) or "-")
            reason = OPEN.get((name, " ".join(run["args"])))
            run_marks = marks + ([pytest.mark.xfail(reason="open mismatch: " + reason, strict=True)]
                                 if reason else [])
            for with_cwd in ((False, True) if index == 0 else (False,)):
                process = (name, index, with_cwd) in PROCESS_RUNS
                params.append(pytest.param(name, index, with_cwd, process, marks=run_marks,
                                           id=label + ("--cwd" if with_cwd else "")))
    return params


# ---- running our command ---------------------------------------------------------------------

def _in_process(args, cwd):
    """(status, stdout, stderr) as bytes, this process's module run with `args` in `cwd` as a
    process would show them (support.run_main's as_process), none of the variables the pack's
    runs go without set."""
    return support.run_main(args, cwd, hidden=pack.SCRUBBED, as_process=True)


# {interpreter (or $ADRKIT_MCP_SERVER's command): whether uid 65534 can run the module with it}
_RUNS_UNPRIVILEGED = {}


def _server_given():
    return bool(os.environ.get("ADRKIT_MCP_SERVER", "").strip())


class Runner(object):
    """Runs our migrate: this process's module (`process` False, no $ADRKIT_MCP_SERVER), else a
    process, `python MODULE` for the module under test (the one run in-process) or
    $ADRKIT_MCP_SERVER. An unprivileged case run as root runs as uid 65534, as today: as a
    process when that user can run an interpreter with the module's libraries, else (no
    $ADRKIT_MCP_SERVER) this process's module in a forked child that dropped root."""

    def __init__(self, unprivileged, scratch, process):
        self.user = None
        self.command = pack.our_command() if _server_given() else support.module_command(MODULE_UNDER_TEST)
        self.in_process = not process and not _server_given()
        if unprivileged and POSIX and os.geteuid() == 0:
            self.user = support.NOBODY
            self.command = self._unprivileged_command(scratch)
            self.in_process = self.command is None
        if self.in_process:
            support.child_stdio()  # asked as this user, before any drop

    def _unprivileged_command(self, scratch):
        if _server_given():
            candidates = [self.command]
        else:
            module = os.path.join(scratch, "adrkit_mcp.py")
            shutil.copyfile(MODULE_UNDER_TEST, module)
            os.chmod(module, 0o644)
            pythons = [support.SERVER_PYTHON, shutil.which("python3") or "", "/usr/bin/python3"]
            candidates = [[python, module] for python in pythons if python]
        for command in candidates:
            key = tuple(command) if _server_given() else command[0]
            if key not in _RUNS_UNPRIVILEGED:  # asked once per test process: the answer holds
                _RUNS_UNPRIVILEGED[key] = self._probe(command, scratch)
            if _RUNS_UNPRIVILEGED[key]:
                return command
        if _server_given() or support.USING_DEV_BUILD:
            pytest.skip("root, and no interpreter that uid %d may run with the module's libraries (tried %s)"
                        % (self.user, ", ".join(command[0] for command in candidates)))
        return None

    def _probe(self, command, scratch):
        """Whether that user can run `command` (the interpreter, the module and its libraries)."""
        try:
            probe = subprocess.run(command + ["--version"], user=self.user, group=self.user, extra_groups=[],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=scratch,
                                   env=pack.our_environment(), timeout=TIMEOUT)
        except OSError:  # not executable for that user
            return False
        return probe.returncode == 0

    def prime(self, args, cwd):
        """Load every lazily imported module before the drop (a dry run, as root: nothing written)."""
        if self.in_process and self.user is not None:
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
        if self.in_process and self.user is None:
            with support.working_directory():
                return _in_process(args, cwd)
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


@pytest.mark.parametrize("name,index,with_cwd,process", _params())
def test_case(name, index, with_cwd, process):
    if not _server_given() and not os.path.isfile(MODULE_UNDER_TEST):
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
        runner = Runner("unprivileged" in case["requires"], base, process)
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


def test_process_runs_cover_every_kind():
    """The runs made as a process hold every exit status, both stderr kinds, stdout beyond the
    BMP and a --cwd run, and name recorded runs."""
    statuses, kinds, widths = set(), set(), set()
    for name, index, _ in PROCESS_RUNS:
        first = load(name)[0]["runs"][index]["first"]
        statuses.add(first["status"])
        kinds.add(first["stderr_kind"])
        widths.add(_stdout_width(first["stdout"]))
    assert statuses == {0, 1, 2}
    assert kinds == {"exact", "usage"}
    assert widths == {"ascii", "bmp", "astral"}
    assert [with_cwd for _, _, with_cwd in PROCESS_RUNS].count(True) == 1


def test_departures_name_recorded_runs():
    for (name, args), reason in list(DEPARTURES.items()) + list(WHOLE_RUN.items()) + list(OPEN.items()):
        assert name in CASES, name
        assert args in [" ".join(run["args"]) for run in load(name)[0]["runs"]], (name, args)
        assert reason.strip()
