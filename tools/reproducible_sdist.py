#!/usr/bin/env python3
"""Rewrite an sdist (.tar.gz) so that two builds of the same commit are byte-identical.

    SOURCE_DATE_EPOCH=$(git log -1 --format=%ct) python3 tools/reproducible_sdist.py dist/*.tar.gz

setuptools honours SOURCE_DATE_EPOCH in the wheel but not in the sdist: the tar keeps each file's
modification time (the generated PKG-INFO and egg-info files get the time of the build) and the
gzip header carries the time of compression.  This rewrites the archive in place with the same
members and contents, in sorted order, every time set to SOURCE_DATE_EPOCH, owners 0/root, modes
0644 (0755 for folders and executables), and a gzip header without time or name.  The release
workflow runs it after `pyproject-build` (docs/RELEASING.md).
"""

import gzip
import io
import os
import sys
import tarfile
from typing import List


def normalise(path: str, epoch: int) -> None:
    with tarfile.open(path, "r:gz") as source:
        members = []
        for member in source.getmembers():
            data = source.extractfile(member).read() if member.isfile() else None
            members.append((member, data))
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as target:
        for member, data in sorted(members, key=lambda item: item[0].name):
            member.mtime = epoch
            member.uid = member.gid = 0
            member.uname = member.gname = "root"
            member.pax_headers = {}
            executable = member.isdir() or bool(member.mode & 0o111)
            member.mode = 0o755 if executable else 0o644
            target.addfile(member, io.BytesIO(data) if data is not None else None)
    partial = path + ".partial"
    with open(partial, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as out:
            out.write(buffer.getvalue())
    os.replace(partial, path)


def main(argv: List[str]) -> int:
    value = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not value.isdigit() or not argv:
        sys.stderr.write("usage: SOURCE_DATE_EPOCH=<seconds> reproducible_sdist.py SDIST.tar.gz...\n")
        return 2
    for path in argv:
        normalise(path, int(value))
        print("normalised %s" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
