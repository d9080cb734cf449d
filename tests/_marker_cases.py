"""The files of the marker-reader cases: one tree, built the same way by the test and the recorder.

``build(root)`` writes the tree under ``root`` and returns the paths to scan, as a user would
pass them (relative to ``root``; a few absolute or leaving it). The reference's answers for
these paths are in tests/data/marker-scans.json, recorded by tools/record_marker_scans.py.

What the tree holds: every comment introducer and the ref grammar (lists, logs, ULIDs, ids too
short, `@adrkit`), each in a source, a markdown and an MDX file; fenced examples; CRLF, lone CR,
BOMs, non-UTF-8 bytes, NUL; files of every size class around the 8,192-byte window (LF and CR
lines, a marker on the window's last complete line and on the line it severs, no line break at
all, multi-byte characters at the cut); symlinks (to a file, a directory, out of the tree,
broken), a directory, a FIFO, a file under a file, and paths that leave the root or are
absolute. Python 3.9+, standard library only.
"""

import os

WINDOW = 8192

STYLES = [
    b"// @adr 0001", b"/* @adr 0001 */", b"{/* @adr 0001 */}", b" * @adr 0001", b"# @adr 0001",
    b"-- @adr 0001", b"; @adr 0001", b"% @adr 0001", b"<!-- @adr 0001 -->", b'""" @adr 0001',
    b"''' @adr 0001", b"\t//\t@adr\t0001", b"//@adr 0001", b"// @adr0001", b"// @adrkit/core",
    b"// @adr 0001,0002 ,  0003", b"// @adr 0001 0002", b"// @adr 01", b"// @adr 01ARZ3NDEKTSV4RRFFQ69G5FAV",
    b"// @adr a:0001", b"// @adr A:0001", b"// @adr -a:0001", b"// @adr :0001", b"// @adr 0001:0002",
    b"x // @adr 0001", b"    // @adr 0001", b"     # @adr 0001", b"// @ADR 0001", b"// @adr 0001, nope, 0002",
    b"// @adr 00123x", b"// @adr 0001,", b"\xef\xbb\xbf// @adr 0001", b"// @adr 0009", b"# @adr 0002, 9999",
    b"// @adr payments:0001, 0002",
]

FENCES = [
    b"```\n// @adr 0001\n```\n// @adr 0002\n",
    b"~~~\n// @adr 0001\n```\n// @adr 0002\n",
    b"````\n// @adr 0001\n```\n// @adr 0002\n````\n// @adr 0003\n",
    b"```js`x\n// @adr 0001\n",
    b"   ```\n// @adr 0001\n",
    b"    ```\n// @adr 0001\n",
    b"```\n// @adr 0001\n``` x\n// @adr 0002\n```\n// @adr 0003\n",
    b"```\xe2\x80\xa8\n// @adr 0001\n",
    b"```\n// @adr 0001\n```\xe2\x80\x83\n// @adr 0002\n",
    b"\xef\xbb\xbf```\n// @adr 0001\n```\n// @adr 0002\n",
]

LINES = [
    b"// @adr 0001\r\n// @adr 0002\r\n",
    b"// @adr 0001\r// @adr 0002\r",
    b"\r\n\r// @adr 0001\n\r// @adr 0002",
    b"\xef\xbb\xbf\xef\xbb\xbf// @adr 0001\n",
    b"\xff\xfe// @adr 0001\n\xff// @adr 0002\n\x80 @adr 0003\n// @adr 0004\xff\n",
    b"// @adr 0001\xe2\x80\xa8// @adr 0002\n",
    b"\x00// @adr 0001\n// @adr 0001\n",
    b"\xed\xa0\x80// @adr 0001\n// @adr 0002\xf0\x9f\x98\n",
]

SIZES = (0, 1, 11, 12, 13, 8190, 8191, 8192, 8193, 8194, 8200, 9000, 16384, 100000)


def _write(root, name, data):
    path = os.path.join(root, *name.split("/"))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(data)


def _sized(size, terminator):
    """`size` bytes: a marker line, then 71-byte lines, then filler without a line break."""
    line = b"// @adr 0001" + terminator
    if size < len(line):
        return line[:size]
    pad = b"x" * 70 + terminator
    body = line + pad * ((size - len(line)) // len(pad))
    return body + b"y" * (size - len(body))


def _text_cases(root):
    for index, style in enumerate(STYLES):
        for extension in (".ts", ".md", ".MDX", ".markdown", ".py"):
            _write(root, "s/style%02d%s" % (index, extension), style + b"\n")
    for index, data in enumerate(FENCES):
        _write(root, "s/fence%02d.ts" % index, data)
        _write(root, "s/fence%02d.md" % index, data.replace(b"// @adr", b"<!-- @adr"))
    for index, data in enumerate(LINES):
        _write(root, "s/lines%02d.ts" % index, data)


def _size_cases(root):
    for size in SIZES:
        _write(root, "s/size%06d.ts" % size, _sized(size, b"\n"))
        _write(root, "s/sizecr%06d.ts" % size, _sized(size, b"\r"))
        _write(root, "s/sizecrlf%06d.ts" % size, _sized(size, b"\r\n"))
    for offset in (-14, -13, -12, -11, -1, 0, 1):
        head = b"x" * (WINDOW + offset - 13) + b"\n"
        _write(root, "s/edge%+03d.ts" % offset, head + b"// @adr 0001\n" + b"z" * 50)
        _write(root, "s/edgecut%+03d.ts" % offset, head + b"// @adr 00123\n")
    _write(root, "s/nonl.ts", b"// @adr 0001" + b"x" * 9000)
    _write(root, "s/multibyte.ts", b"\xc3\xa9" * 4095 + b"\n// @adr 0001\n" + b"\xe2\x82\xac" * 10)
    _write(root, "s/mbcut.ts", b"\n" + b"\xe2\x82\xac" * 2731 + b"\n// @adr 0001\n")


def _special_cases(root):
    """Symlinks, a directory, a FIFO and odd names; returns the paths it could make."""
    made = []
    _write(root, "d/sub/f.ts", b"// @adr 0001\n")
    made += ["d", "d/", "d/sub/f.ts", "d/sub/f.ts/x", "x/../d/sub/f.ts"]
    if hasattr(os, "symlink"):
        try:
            os.symlink("../s/style00.ts", os.path.join(root, "s", "link.ts"))
            os.symlink("d", os.path.join(root, "dl"))
            os.symlink(os.path.join(os.sep, "etc", "hostname"), os.path.join(root, "s", "outlink"))
            os.symlink("nowhere", os.path.join(root, "s", "broken"))
            made += ["s/link.ts", "dl", "dl/sub/f.ts", "s/outlink", "s/broken"]
        except OSError:  # Windows without the privilege to make links
            pass
    if hasattr(os, "mkfifo"):
        os.mkfifo(os.path.join(root, "s", "fifo"))
        made.append("s/fifo")
    if os.sep == "/":  # a backslash is a filename character here
        _write(root, "s/we\\ird.ts", b"// @adr 0001\n")
        _write(root, "s/we/ird.ts", b"// @adr 0002\n")
        made += ["s/we\\ird.ts", "s\\style00.ts"]
    return made


def build(root):
    """Write the tree under `root` (an existing folder); the paths to scan, in a fixed order."""
    _text_cases(root)
    _size_cases(root)
    special = _special_cases(root)
    files = sorted(name for name in os.listdir(os.path.join(root, "s"))
                   if name not in ("link.ts", "outlink", "broken", "fifo", "we", "we\\ird.ts"))
    paths = ["s/" + name for name in files] + special
    paths += ["missing.ts", "s/style00.ts/", "", ".", "..", "../outside.ts", "./s/style00.ts",
              "././s/style00.ts", ".//s/style00.ts", "s/../s/style00.ts", "s/./style00.ts",
              "a/../..", os.path.join(root, "s", "style00.ts"), os.path.join(os.sep, "etc", "hostname")]
    return paths
