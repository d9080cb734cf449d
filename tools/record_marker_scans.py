#!/usr/bin/env python3
"""Recorder of the marker-reader cases: the reference's readSourceMarkers on tests/_marker_cases.py.

Builds the case tree (tests/_marker_cases.build) in a temporary folder, asks the reference's
`readSourceMarkers(path, cwd)` (packages/core/src/markers/read.ts of github.com/mbeacom/adrkit at
commit dc10ecc, @adrkit/core 0.8.0) for every path, and writes its answers, in order, to
tests/data/marker-scans.json. The temporary folder's absolute path is stored as `<ROOT>`.
tests/test_markers.py replays them against `read_source_markers`. Standard library only; not
run by CI (the reference is not installable from a registry: tools/record_migrate_pack.py says
how to build it). Run as root, as the recorded file was: a file you may not read is a case of
its own (tests/test_markers.py, as an unprivileged user).

    python3 tools/record_marker_scans.py --bun /tmp/bunbin/node_modules/.bin/bun \\
        --reference /tmp/adrkit-ref
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

import _marker_cases  # noqa: E402

SCRIPT = """
import { readSourceMarkers } from %s;
const paths = JSON.parse(await Bun.stdin.text());
const out = [];
for (const path of paths) out.push(await readSourceMarkers(path, process.cwd()));
process.stdout.write(JSON.stringify(out));
"""


def record(bun, reference):
    with tempfile.TemporaryDirectory() as scratch:
        root = os.path.join(scratch, "tree")
        os.mkdir(root)
        paths = _marker_cases.build(root)
        script = os.path.join(scratch, "scan.ts")
        entry = os.path.join(reference, "packages", "core", "src", "markers", "index.ts")
        with open(script, "w") as handle:
            handle.write(SCRIPT % json.dumps(entry))
        done = subprocess.run([bun, script], cwd=root, input=json.dumps(paths).encode(),
                              stdout=subprocess.PIPE, check=True, timeout=300)
        text = done.stdout.decode("utf-8").replace(root, "<ROOT>")
        version = subprocess.run([bun, "--version"], stdout=subprocess.PIPE, check=True).stdout
    return {"recordedWith": "bun %s, @adrkit/core 0.8.0 (commit dc10ecc)" % version.decode().strip(),
            "command": "python3 tools/record_marker_scans.py --bun BUN --reference REF",
            "scans": json.loads(text)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bun", required=True, help="the Bun executable")
    parser.add_argument("--reference", required=True, help="the reference's source tree")
    parser.add_argument("--out", default=os.path.join(HERE, "..", "tests", "data", "marker-scans.json"))
    args = parser.parse_args()
    data = record(args.bun, args.reference)
    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1, ensure_ascii=True)
        handle.write("\n")
    print("%d scans -> %s" % (len(data["scans"]), args.out))


if __name__ == "__main__":
    main()
