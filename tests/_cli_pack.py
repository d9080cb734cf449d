"""The CLI pack's file format: the reference CLI's runs of `lint`, `graph`, `new` (and the other
commands of @adrkit/cli 0.8.0 that this project reproduces), one case file per corpus.

tests/cli-pack/cases/<name>.json (tools/record_cli_pack.py writes them; tests/test_cli_pack.py
reads them) holds:

    {"name", "description", "features": [...], "requires": [...], "cwd": "<subfolder or ''>",
     "tree": [entries], "runs": [run, ...], "blobs": {...}}

A run is one command line on a fresh copy of the tree, in the case's folder (or its `cwd`):

    {"args": ["lint", "--json"], "status": 0, "stdout": "...", "stderr": "...",
     "stderr_kind": "exact" | "usage", "stderr_sentence": "...",     (usage only)
     "tree": [entries]}                 (only when the run changed the tree, e.g. `new`)

The tree entries, the blobs and the `{root}` token are the migrate pack's (tests/_migrate_pack.py),
with one more entry type a corpus may hold, a FIFO: {"path": ..., "type": "fifo"}. A file a run
creates is stored with the day's date replaced by `{today}` (`new` writes `date: <today>`), so the
pack replays on any day. Standard library only; used by the recorder in tools/ as well.
"""

import json
import os
import re

import _migrate_pack as base

ROOT_TOKEN = base.ROOT_TOKEN
TODAY_TOKEN = "{today}"
CASES = "cases"
blob_id = base.blob_id
snapshot = base.snapshot
make_traversable = base.make_traversable
tree_differences = base.tree_differences
case_paths = base.case_paths


def materialise(root, entries, blobs, modes=True):
    """Write the tree under `root`: the migrate pack's entries, and FIFOs (POSIX only)."""
    fifos = [entry for entry in entries if entry["type"] == "fifo"]
    base.materialise(root, [entry for entry in entries if entry["type"] != "fifo"], blobs, modes)
    for entry in fifos:
        os.mkfifo(os.path.join(root, *entry["path"].split("/")))


def fresh_case(entries, blobs, owner=None):
    """The migrate pack's fresh_case, with this pack's FIFOs written too."""
    return base.fresh_case(entries, blobs, owner, materialise)


def snapshot_tree(root, blobs):
    """The tree under `root`, FIFOs named as such (the migrate pack calls them "other")."""
    entries = base.snapshot(root, blobs)
    for entry in entries:
        if entry["type"] == "other" and _is_fifo(os.path.join(root, *entry["path"].split("/"))):
            entry["type"] = "fifo"
    return entries


def _is_fifo(path):
    import stat
    return stat.S_ISFIFO(os.lstat(path).st_mode)


def dated(data, today):
    """A new file's bytes with `date: <today>` written as `date: {today}`."""
    return re.sub(b"(?m)^date: " + re.escape(today.encode("ascii")) + b"$", b"date: " + TODAY_TOKEN.encode("ascii"),
                  data)


def normalise_new_files(before, after, blobs, today):
    """Entries of `after` for files that are not in `before`: their bytes dated (in `blobs`)."""
    old = {entry["path"]: entry.get("blob") for entry in before}
    result = []
    for entry in after:
        if entry["type"] == "file" and old.get(entry["path"]) != entry["blob"] and entry["path"] not in old:
            data = dated(blobs[entry["blob"]], today)
            ident = blob_id(data)
            blobs[ident] = data
            entry = dict(entry, blob=ident)
        result.append(entry)
    return result


def dump_case(case, blobs):
    """The JSON text of a case with the blobs its trees use (pure ASCII)."""
    used = {entry.get("blob") for entry in case["tree"]}
    for run in case["runs"]:
        used.update(entry.get("blob") for entry in run.get("tree", ()))
    used.discard(None)
    document = dict(case)
    document["blobs"] = {ident: base.encode_blob(blobs[ident]) for ident in sorted(used)}
    return json.dumps(document, indent=1, ensure_ascii=True) + "\n"


def load_case(path):
    """A case file: the document and its blobs as bytes (each checked against its id)."""
    return base.load_case(path)


def stderr_kind(status, stderr):
    """How the test compares stderr: exactly, or (a usage error: the sentence, then the reference
    CLI's whole usage text, which is its own) only the sentence before `Usage:`."""
    lines = stderr.split("\n")
    if status == 2 and "Usage:" in lines:
        return {"stderr_kind": "usage", "stderr_sentence": "\n".join(lines[:lines.index("Usage:")])}
    return {"stderr_kind": "exact"}


def reference_help(ours):
    """Our `<command> --help` as the reference prints it: the usage line naming `adr`, and without
    the `--cwd` option line (ADR 0019: the two lines we change)."""
    lines = ours.split("\n")
    if lines and lines[0].startswith("Usage: adrkit-mcp "):
        lines[0] = "Usage: adr " + lines[0][len("Usage: adrkit-mcp "):]
    return "\n".join(line for line in lines if not line.startswith("  --cwd <path> "))
