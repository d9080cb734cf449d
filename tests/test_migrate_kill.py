"""Killing `migrate` at any moment leaves every record whole: its old bytes or its new bytes.

The corpus is the migrate pack's `many-records` case (300 records in every dialect). An
uninterrupted run on a copy gives each record's new bytes (and, with --rename, its new name).
Then, many times: a fresh copy, our `migrate` started as a real process, the folder polled until
a random number of records (seeded) hold their new bytes, and the process killed (SIGKILL, or
TerminateProcess where there are no signals). After each kill:

* while it runs, a reader polling the folder never sees a record that is neither;
* every record is exactly its old bytes or exactly its new bytes (with --rename: under its old
  name with either, or under its new name with its new bytes and no longer under the old one);
* no other `.md` file exists (a temporary file never has a `.md` name);
* a complete run afterwards ends with the same tree as the uninterrupted run, except for the
  temporary files of the write that was killed (`.adrkit-migrate-*.tmp`, not `.md`, so never a
  candidate), which are the only extra entries allowed and are counted.

No sleeps: the test waits for conditions on the folder (with a generous hang guard) and never
asserts on time. $ADRKIT_KILL_TRIALS (per mode, default 6) and $ADRKIT_KILL_SEED (default 20250101)
give the long form; a failure prints the seed and the trial.
"""

import os
import random
import re
import shutil
import subprocess
import tempfile
import time

import pytest

import _migrate_pack as pack
import _platforms as platforms

PACK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "migrate-pack")
CASE = os.path.join(PACK, pack.CASES, "many-records.json")
TRIALS = int(os.environ.get("ADRKIT_KILL_TRIALS", "6"))
SEED = int(os.environ.get("ADRKIT_KILL_SEED", "20250101"))
HANG_GUARD = 300.0  # seconds: far above any run here; only a hung process reaches it
LEFTOVER = re.compile(r"\.adrkit-migrate-[0-9a-f]+\.tmp\Z")
ADR = "docs/adr/"


def _files(entries, blobs):
    return {entry["path"]: blobs[entry["blob"]] for entry in entries if entry["type"] == "file"}


def _run(args, cwd):
    return subprocess.run(pack.our_command() + args, cwd=cwd, env=pack.our_environment(),
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=HANG_GUARD)


def _fresh(base, name, case, blobs):
    root = os.path.join(base, name)
    os.mkdir(root)
    pack.materialise(root, case["tree"], blobs)
    return root


def _read(root, path):
    try:
        with open(os.path.join(root, *path.split("/")), "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        return None


class Expectation(object):
    """Each record's old name and bytes, and its new name and bytes after an uninterrupted run."""

    def __init__(self, case, blobs, final, final_blobs):
        before = _files(case["tree"], blobs)
        after = _files(final, final_blobs)
        self.final, self.final_blobs = final, final_blobs
        self.records = []  # (old path, old bytes, new path, new bytes)
        appeared = sorted(set(after) - set(before))
        for path in sorted(before):
            if path in after:
                self.records.append((path, before[path], path, after[path]))
        gone = sorted(set(before) - set(after))
        for path in gone:  # renamed: its new text ends with its old text (the body is kept)
            match = [new for new in appeared if after[new].endswith(b"\n---\n" + before[path])]
            assert len(match) == 1, (path, match)
            new = match[0]
            appeared.remove(new)
            self.records.append((path, before[path], new, after[new]))
        assert not appeared, appeared
        self.changing = [record for record in self.records if record[1] != record[3] or record[0] != record[2]]

    def look(self, root):
        """(how many changing records hold their new bytes under their new name now, the records a
        reader sees torn: neither their old nor their new bytes)."""
        done, torn = 0, []
        for old, old_data, new, new_data in self.changing:
            at_new = _read(root, new)
            if at_new == new_data:
                done += 1
                continue
            if new != old and at_new is not None:
                torn.append(new)
            elif _read(root, old) not in (old_data, new_data) + ((None,) if new != old else ()):
                torn.append(old)
        return done, torn

    def check(self, root, figures):
        """The invariant after a kill: problems, as readable lines (and what was found, counted)."""
        problems = []
        names = set()
        for old, old_data, new, new_data in self.changing:
            at_old = _read(root, old)
            state = ("new" if _read(root, new) == new_data and (old == new or at_old is None)
                     else "written, not yet renamed" if old != new and at_old == new_data else "old")
            figures["records " + state] = figures.get("records " + state, 0) + 1
        for old, old_data, new, new_data in self.records:
            names.update((old, new))
            at_old, at_new = _read(root, old), _read(root, new) if new != old else None
            if old == new:
                if at_old not in (old_data, new_data):
                    problems.append("%s is neither its old nor its new bytes (%s)"
                                    % (old, "missing" if at_old is None else "%d bytes" % len(at_old)))
            elif at_new is not None:
                if at_new != new_data or at_old is not None:
                    problems.append("%s -> %s: new name holds %s, old name %s"
                                    % (old, new, "its new bytes" if at_new == new_data else "other bytes",
                                       "still exists" if at_old is not None else "gone"))
            elif at_old not in (old_data, new_data):
                problems.append("%s is neither its old nor its new bytes and %s does not exist" % (old, new))
        for dirpath, _, filenames in os.walk(root):
            for name in filenames:
                rel = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
                if name.endswith(".md") and rel not in names:
                    problems.append("an unexpected .md file: %s" % rel)
        return problems


def _kill_when(process, root, expectation, target):
    """Poll until `target` records are done (or the run ended), then kill. True when killed mid-run."""
    deadline = time.monotonic() + HANG_GUARD
    while process.poll() is None:
        done, torn = expectation.look(root)
        if torn:  # a reader saw a record half written: the write was not atomic
            process.kill()
            process.communicate()
            raise AssertionError("a reader saw %s neither old nor new while migrate ran" % ", ".join(torn[:5]))
        if done >= target:
            break
        if time.monotonic() > deadline:
            process.kill()
            process.wait()
            raise AssertionError("migrate did not finish within %s s (hang guard)" % HANG_GUARD)
    killed = process.poll() is None
    process.kill()
    process.communicate()
    return killed


@platforms.REPLACE_WHILE_READ
@pytest.mark.parametrize("mode", ["in-place", "rename"])
def test_a_killed_migrate_leaves_each_record_old_or_new(mode):
    if not os.path.isfile(CASE):
        pytest.skip("the migrate pack is missing")
    case, blobs = pack.load_case(CASE)
    args = pack.BASE_ARGS + (["--rename"] if mode == "rename" else [])
    base = tempfile.mkdtemp(prefix="adrkit-kill-")
    generator = random.Random("%d/%s" % (SEED, mode))
    figures = {"killed mid-run": 0, "finished first": 0, "leftover temporary files": 0}
    try:
        whole = _fresh(base, "whole", case, blobs)
        finished = _run(args, whole)
        assert finished.returncode == 0, finished.stderr
        final_blobs = {}
        final = pack.snapshot(whole, final_blobs)
        expectation = Expectation(case, blobs, final, final_blobs)
        assert len(expectation.changing) >= 250
        for trial in range(TRIALS):
            target = generator.randint(0, len(expectation.changing))
            root = _fresh(base, "trial-%d" % trial, case, blobs)
            process = subprocess.Popen(pack.our_command() + args, cwd=root, env=pack.our_environment(),
                                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            killed = _kill_when(process, root, expectation, target)
            figures["killed mid-run" if killed else "finished first"] += 1
            where = "seed %d, mode %s, trial %d (target %d records)" % (SEED, mode, trial, target)
            problems = expectation.check(root, figures)
            assert problems == [], "%s: after the kill:\n%s" % (where, "\n".join(problems[:20]))
            rerun = _run(args, root)
            assert rerun.returncode == 0, "%s: the complete run failed: %s" % (where, rerun.stderr)
            got_blobs = {}
            got = pack.snapshot(root, got_blobs)
            leftovers = [entry for entry in got if LEFTOVER.search(entry["path"])]
            figures["leftover temporary files"] += len(leftovers)
            got = [entry for entry in got if entry not in leftovers]
            differences = pack.tree_differences(final, final_blobs, got, got_blobs)
            assert differences == [], "%s: the complete run after the kill differs from an uninterrupted " \
                                      "one:\n%s" % (where, "\n".join(differences[:20]))
            pack.make_traversable(root)
            shutil.rmtree(root)
    finally:
        pack.make_traversable(base)
        shutil.rmtree(base, ignore_errors=True)
    print("kill trials (%s, seed %d): %s" % (mode, SEED, figures))
