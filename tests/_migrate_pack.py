"""The migrate pack's file format: file trees as JSON, written to disk and read back.

tests/migrate-pack/cases/<name>.json records the reference CLI's `adr migrate` on one corpus
(tools/record_migrate_pack.py writes them; tests/test_migrate_pack.py and
tests/test_migrate_kill.py read them). A tree is a list of entries, sorted by path:

    {"path": "docs/adr", "type": "dir", "mode": "0755"}
    {"path": "docs/adr/a.md", "type": "file", "mode": "0644", "blob": "<sha256 of the bytes>"}
    {"path": "docs/adr/b.md", "type": "symlink", "target": "../elsewhere/b.md"}

The bytes live once per case in its "blobs" table, keyed by their SHA-256: {"text": str} for
UTF-8 text, {"base64": str} for anything else, {"zlib64": str} (zlib, then base64) for large
files. The JSON is pure ASCII (every other character escaped), so CRLF, a BOM, invalid UTF-8 and
names that differ only in case survive any checkout and any file system. Standard library only;
used by the recorder in tools/ as well as by the tests.
"""

import base64
import hashlib
import json
import os
import stat
import tempfile
import zlib

LARGE = 32 * 1024          # files above this are stored compressed
ROOT_TOKEN = "{root}"      # the case folder's absolute path, wherever it appeared in output
PID_TOKEN = "(node:{pid}) "  # a runtime warning's process id, at the start of a stderr line
CASES = "cases"


# ---- bytes <-> blobs ---------------------------------------------------------------------------

def blob_id(data):
    return hashlib.sha256(data).hexdigest()


def encode_blob(data):
    if len(data) > LARGE:
        return {"zlib64": base64.b64encode(zlib.compress(data, 9)).decode("ascii")}
    try:
        return {"text": data.decode("utf-8")}
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(data).decode("ascii")}


def decode_blob(blob):
    if "text" in blob:
        return blob["text"].encode("utf-8", "surrogatepass")
    if "base64" in blob:
        return base64.b64decode(blob["base64"])
    return zlib.decompress(base64.b64decode(blob["zlib64"]))


# ---- trees on disk -----------------------------------------------------------------------------

def _mode_text(mode):
    return "%04o" % stat.S_IMODE(mode)


def _read_anyway(path, mode):
    """A file's bytes, even one its owner made unreadable (its bits are put back after)."""
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except PermissionError:
        os.chmod(path, stat.S_IMODE(mode) | stat.S_IRUSR)
        try:
            with open(path, "rb") as handle:
                return handle.read()
        finally:
            os.chmod(path, stat.S_IMODE(mode))


def _list_anyway(path, mode):
    try:
        return os.listdir(path)
    except PermissionError:
        os.chmod(path, stat.S_IMODE(mode) | stat.S_IRUSR | stat.S_IXUSR)
        try:
            return os.listdir(path)
        finally:
            os.chmod(path, stat.S_IMODE(mode))


def snapshot(root, blobs=None):
    """The tree under `root` as entries; the files' bytes go into `blobs` ({id: bytes})."""
    blobs = {} if blobs is None else blobs
    entries = []

    def walk(folder, prefix):
        mode = os.lstat(folder).st_mode
        names = _list_anyway(folder, mode)
        # Its owner (not root) cannot look at the entries of a folder without search permission:
        # it gets it while they are read, and its own bits back after.
        searchable = os.access(folder, os.X_OK)
        if not searchable:
            os.chmod(folder, stat.S_IMODE(mode) | stat.S_IXUSR)
        try:
            walk_entries(folder, prefix, names)
        finally:
            if not searchable:
                os.chmod(folder, stat.S_IMODE(mode))

    def walk_entries(folder, prefix, names):
        for name in names:
            path = os.path.join(folder, name)
            rel = prefix + name
            info = os.lstat(path)
            if stat.S_ISLNK(info.st_mode):
                entries.append({"path": rel, "type": "symlink", "target": os.readlink(path)})
            elif stat.S_ISDIR(info.st_mode):
                entries.append({"path": rel, "type": "dir", "mode": _mode_text(info.st_mode)})
                walk(path, rel + "/")
            elif stat.S_ISREG(info.st_mode):
                data = _read_anyway(path, info.st_mode)
                ident = blob_id(data)
                blobs[ident] = data
                entries.append({"path": rel, "type": "file", "mode": _mode_text(info.st_mode),
                                "blob": ident})
            else:
                entries.append({"path": rel, "type": "other"})
    walk(root, "")
    return sorted(entries, key=lambda entry: entry["path"])


def materialise(root, entries, blobs, modes=True):
    """Write the tree `entries` under the existing folder `root`; folders' modes are set last,
    deepest first, so a folder made unreadable does not stop its own contents being written."""
    folders = []
    for entry in entries:
        path = os.path.join(root, *entry["path"].split("/"))
        if entry["type"] == "dir":
            os.makedirs(path, exist_ok=True)
            folders.append((path, entry["mode"]))
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if entry["type"] == "symlink":
            os.symlink(entry["target"], path)
        else:
            with open(path, "wb") as handle:
                handle.write(blobs[entry["blob"]])
            if modes:
                os.chmod(path, int(entry["mode"], 8))
    if modes:
        for path, mode in sorted(folders, key=lambda item: -item[0].count(os.sep)):
            os.chmod(path, int(mode, 8))


def fresh_case(entries, blobs, owner=None, write=materialise):
    """(base, root) for one recorded run: a new temporary folder `base` (mode 0755) holding the
    case folder `root`, the tree `entries` written into it by `write`; with `owner` (a pwd entry)
    everything under root and root itself belong to that user, links included."""
    base = tempfile.mkdtemp(prefix="adrkit-record-")
    os.chmod(base, 0o755)
    root = os.path.join(base, "case")
    os.mkdir(root)
    write(root, entries, blobs)
    if owner is not None:
        for dirpath, dirnames, filenames in os.walk(root):
            for name in dirnames + filenames:
                os.chown(os.path.join(dirpath, name), owner.pw_uid, owner.pw_gid, follow_symlinks=False)
        os.chown(root, owner.pw_uid, owner.pw_gid)
    return base, root


def make_traversable(root):
    """Give every folder under `root` owner rwx again, so the tree can be removed."""
    for dirpath, dirnames, _ in os.walk(root):
        for name in dirnames:
            full = os.path.join(dirpath, name)
            if not os.path.islink(full):
                os.chmod(full, stat.S_IMODE(os.lstat(full).st_mode) | stat.S_IRWXU)


# ---- the pack on disk --------------------------------------------------------------------------

def dump_case(case, blobs):
    """The JSON text of a case: `case` with the blobs its trees use."""
    used = set()
    for entry in case["tree"]:
        used.add(entry.get("blob"))
    for run in case["runs"]:
        for step in ("first", "second"):
            for entry in run[step]["tree"]:
                used.add(entry.get("blob"))
    used.discard(None)
    document = dict(case)
    document["blobs"] = {ident: encode_blob(blobs[ident]) for ident in sorted(used)}
    return json.dumps(document, indent=1, sort_keys=False, ensure_ascii=True) + "\n"


def load_case(path):
    """A case file: the JSON document with its blobs decoded to bytes (checked against their ids)."""
    with open(path, encoding="ascii") as handle:
        document = json.load(handle)
    blobs = {}
    for ident, blob in document.pop("blobs").items():
        data = decode_blob(blob)
        if blob_id(data) != ident:
            raise ValueError("%s: blob %s does not hold the bytes it names" % (path, ident))
        blobs[ident] = data
    return document, blobs


def case_paths(pack):
    folder = os.path.join(pack, CASES)
    return [os.path.join(folder, name) for name in sorted(os.listdir(folder)) if name.endswith(".json")]


# ---- comparing trees ---------------------------------------------------------------------------

def tree_differences(expected, expected_blobs, got, got_blobs, modes=True):
    """Human-readable differences between two trees (empty when they are the same)."""
    want = {entry["path"]: entry for entry in expected}
    have = {entry["path"]: entry for entry in got}
    lines = []
    for path in sorted(set(want) | set(have)):
        a, b = want.get(path), have.get(path)
        if a is None:
            lines.append("unexpected %s %s" % (b["type"], path))
        elif b is None:
            lines.append("missing %s %s" % (a["type"], path))
        elif a["type"] != b["type"]:
            lines.append("%s: a %s, expected a %s" % (path, b["type"], a["type"]))
        elif a["type"] == "symlink" and a["target"] != b["target"]:
            lines.append("%s: links to %r, expected %r" % (path, b["target"], a["target"]))
        elif a["type"] in ("file", "dir") and modes and a["mode"] != b["mode"]:
            lines.append("%s: mode %s, expected %s" % (path, b["mode"], a["mode"]))
        elif a["type"] == "file" and a["blob"] != b["blob"]:
            lines.append("%s: content differs\n%s" % (path, first_difference(
                expected_blobs[a["blob"]], got_blobs[b["blob"]])))
    return lines


def first_difference(want, got):
    """Where two byte strings first differ, with a little context on both sides."""
    index = 0
    limit = min(len(want), len(got))
    while index < limit and want[index] == got[index]:
        index += 1
    start = max(0, index - 60)
    return ("    at byte %d (expected %d bytes, got %d)\n    expected: %r\n    got:      %r"
            % (index, len(want), len(got), want[start:index + 60], got[start:index + 60]))


# ---- our command -------------------------------------------------------------------------------

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULE = os.path.join(REPO_ROOT, "adrkit_mcp.py")
SCRUBBED = ("ADRKIT_MCP_CWD", "ADRKIT_MCP_DIR", "ADRKIT_MCP_FROM")


def our_command():
    """Our command line: $ADRKIT_MCP_SERVER (shell-split) or `python adrkit_mcp.py` (through
    tests/_launch.py, which keeps its bytecode), the Python being $ADRKIT_MCP_PYTHON or this one."""
    import shlex
    given = os.environ.get("ADRKIT_MCP_SERVER", "").strip()
    if given:
        return shlex.split(given)
    import _support
    return _support.module_command(MODULE)


def our_environment():
    """This environment without the variables that would move our command's corpus."""
    environment = {key: value for key, value in os.environ.items() if key not in SCRUBBED}
    environment["PYTHONDONTWRITEBYTECODE"] = "1"
    return environment

BASE_ARGS = ["migrate", "--from", "madr"]
