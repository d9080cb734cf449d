"""Helpers of the containment tests (test_containment.py, test_portability.py): canary records
planted outside the ADR folder, the tool calls that reach for them, and FdSpy, a stand-in for the
module's `os` that records where every descriptor the reader opens points and can hide openat
(dir_fd) and O_NOFOLLOW to force the reader's paths for other platforms (docs/PORTABILITY.md).
"""

import json
import os
import uuid

import _support as support  # tests/ is on sys.path (pytest rootdir insertion)

M = support.M
record_text = support.record_text

CANARY = "CANARY-%s" % uuid.uuid4().hex
LINUX_FDS = os.path.isdir("/proc/self/fd")
CALLS = [
    ("search_decisions", {"query": "e", "findingsLimit": 100, "limit": 100}),
    ("search_decisions", {"query": CANARY}),
    ("get_decision", {"ref": "7001"}),
    ("get_decision", {"ref": "0001"}),
    ("get_decision_context", {"files": ["src/x.ts"]}),
    ("list_superseded", {"findingsLimit": 100}),
]


def canary_record(ident):
    return record_text(ident, title="Canary %s" % CANARY, status="accepted",
                       extra='deciders: ["@mallory"]\ntags: ["canary"]\naffects:\n  - {type: path, pattern: "**"}\n',
                       body="%s: this text lives outside the ADR folder.\n" % CANARY)


def plant(folder, first=7001, count=3):
    """Canary records in `folder` (created); returns their paths."""
    os.makedirs(folder, exist_ok=True)
    paths = []
    for number in range(first, first + count):
        path = os.path.join(folder, "%04d-canary.md" % number)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(canary_record("%04d" % number))
        paths.append(path)
    return paths


def assert_no_canary(value):
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    assert CANARY not in text, "the canary leaked: %s" % text[:2000]


# How the module's `os` looks on platforms the suite cannot run on: "no-dir-fd" has no openat
# (Windows: os.supports_dir_fd is empty), "no-nofollow" has no O_NOFOLLOW (Windows), "neither"
# has both gaps.  The module takes its fallback paths; the real file system is used throughout.
SPY_MODES = ("native", "no-dir-fd", "no-nofollow", "neither")


class FdSpy(object):
    """Stands in for the module's ``os``: every descriptor it opens is resolved and recorded."""

    def __init__(self, mode="native"):
        self.opened = []
        self.dir_fd = mode in ("native", "no-nofollow")
        self.nofollow = mode in ("native", "no-dir-fd")
        self.supports_dir_fd = set(os.supports_dir_fd) | {self.open} if self.dir_fd else set()

    def __getattr__(self, name):
        if name == "O_NOFOLLOW" and not self.nofollow:
            raise AttributeError(name)
        return getattr(os, name)

    def open(self, path, flags, mode=0o777, *, dir_fd=None):
        if dir_fd is not None and not self.dir_fd:
            raise NotImplementedError("dir_fd unavailable on this platform")
        if not self.nofollow:
            flags &= ~getattr(os, "O_NOFOLLOW", 0)  # as on a platform without it: links followed
        fd = os.open(path, flags, mode, dir_fd=dir_fd)
        if LINUX_FDS:
            self.opened.append(os.readlink("/proc/self/fd/%d" % fd))
        return fd

    def stat(self, path, *, dir_fd=None, follow_symlinks=True):
        if dir_fd is not None and not self.dir_fd:
            raise NotImplementedError("dir_fd unavailable on this platform")
        return os.stat(path, dir_fd=dir_fd, follow_symlinks=follow_symlinks)

    def scandir(self, path="."):
        if isinstance(path, int) and not self.dir_fd:
            raise NotImplementedError("scandir of a descriptor unavailable on this platform")
        return os.scandir(path)


def call_all(config, should_stop=None):
    answers = []
    for tool, arguments in CALLS:
        if should_stop is None:
            answers.append(M.call_tool(config, tool, dict(arguments)))
        else:
            answers.append(M.call_tool(config, tool, dict(arguments), should_stop))
    for answer in answers:
        assert_no_canary(answer)
    return answers


def assert_reads_contained(spy, repo):
    adr = os.path.realpath(repo.adr_path())
    outside = [path for path in spy.opened if not M.is_contained(adr, path)]
    assert not outside, "descriptors opened outside %s: %r" % (adr, outside)


def unavailable(answer):
    result = answer["structuredContent"]["result"]
    return result.get("reason") if result["outcome"] == "corpus-unavailable" else None


def sources(answer):
    return [item["sourcePath"] for item in answer["structuredContent"]["result"]["items"]]


def swap_once(action):
    """A should_stop that performs `action` at its first call (the first record boundary)."""
    done = []

    def should_stop():
        if not done:
            done.append(True)
            action()
        return False
    return should_stop, done


def replace_with_symlink(path, target):
    staging = path + ".swap"
    os.symlink(target, staging)
    os.replace(staging, path)
